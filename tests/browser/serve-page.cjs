// serve-page.cjs: drives the page of `probexpan serve` in headless chromium like a user —
// types seeds with autocomplete, accepts a row with the mouse, rejects one from the
// keyboard, opens an entity's sentences, undoes, switches the variant, asks for 1,000 rows —
// and checks that the list and the counts follow. Prints PASS:/FAIL: lines (tests/run.sh
// counts them), the page's first paint and the time to show 1,000 rows, and saves a
// screenshot.
//   node tests/browser/serve-page.cjs URL SCREENSHOT.png [CHROMIUM] [SEED1 SEED2 SEED3]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Browser } = require('./cdp.cjs');

const [url, shot, chromium = 'chromium', ...seedArgs] = process.argv.slice(2);
const seeds = seedArgs.length >= 3 ? seedArgs : ['Ohio', 'Texas', 'Iowa'];
const T = 'serve-browser';
let failures = 0;
const pass = (n) => console.log(`PASS: ${T}/${n}`);
const fail = (n, why) => { failures++; console.log(`FAIL: ${T}/${n} (${why})`); };
async function check(name, fn) {
  try { await fn(); pass(name); } catch (e) { fail(name, e.message.split('\n')[0]); }
}

const rows = `document.querySelectorAll('#list li.row').length`;
const idle = `!document.body.classList.contains('busy')`;
const chipCount = (kind) => `document.querySelectorAll('#chip-list .chip.${kind}').length`;
const names = `[...document.querySelectorAll('#list li.row .c-name')].map(e => e.textContent)`;
const counts = `document.getElementById('counts').textContent`;

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'probexpan-chromium-'));
  const browser = new Browser(chromium, profile);
  const timer = setTimeout(() => { console.log(`FAIL: ${T}/timeout (300 s)`); process.exit(1); }, 300000);
  try {
    const page = await browser.newPage();
    await page.send('Log.enable');
    const logErrors = [];
    browser.listeners.push((m) => {
      if (m.sessionId === page.sessionId && m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
        logErrors.push(m.params.entry.text);
    });
    await page.goto(url);
    const fcp = await page.waitFor(`(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime`, 5000, 'first paint');
    console.log(`first contentful paint: ${fcp.toFixed(0)} ms`);

    await check('autocomplete_and_seed_chips', async () => {
      for (const s of seeds) {
        await page.eval(`document.getElementById('seed-input').focus()`);
        await page.type(s.slice(0, Math.max(3, s.length - 1)));
        await page.waitFor(`[...document.querySelectorAll('#suggestions li .s-name')].some(e => e.textContent === ${JSON.stringify(s)})`,
          5000, `suggestion ${s}`);
        // move the highlight to the exact name, then Enter
        const idx = await page.eval(`[...document.querySelectorAll('#suggestions li .s-name')].findIndex(e => e.textContent === ${JSON.stringify(s)})`);
        for (let i = 0; i < idx; i++) await page.key('ArrowDown', 'ArrowDown', 40);
        await page.key('Enter', 'Enter', 13, '\r');
      }
      const n = await page.waitFor(`${chipCount('seed')} === ${seeds.length} && ${rows} > 0 && ${idle} && ${rows}`, 60000, 'a ranked list');
      if (!(n > 0)) throw new Error('no rows');
    });

    const before = await page.eval(names);
    await check('accept_row_with_mouse', async () => {
      const first = before[0];
      const renders = await page.eval(`Number(document.body.dataset.renders)`);
      await page.click('#row-0 button.acc');
      // the list is computed again; the accepted entity, wherever it is in it, is marked
      await page.waitFor(`${chipCount('accepted')} === 1 && ${idle} && Number(document.body.dataset.renders) > ${renders}`, 60000, 'accepted chip and a new list');
      const marked = await page.eval(`[...document.querySelectorAll('#list li.row')].every(li =>
        li.classList.contains('accepted') === (li.querySelector('.c-name').textContent === ${JSON.stringify(first)}))`);
      if (!marked) throw new Error(`rows marked accepted do not match ${first}`);
      const c = await page.eval(counts);
      if (!/1 accepted/.test(c)) throw new Error(`counts say "${c}"`);
    });

    await check('reject_row_with_keyboard', async () => {
      await page.eval(`document.getElementById('list').focus()`);
      await page.key('ArrowDown', 'ArrowDown', 40);
      await page.key('ArrowDown', 'ArrowDown', 40);
      const target = await page.eval(`document.querySelector('#list li.row.selected .c-name').textContent`);
      await page.key('r', 'KeyR', 82, 'r');
      await page.waitFor(`${chipCount('negative')} === 1 && ${idle} && !${names}.includes(${JSON.stringify(target)})`, 60000, `${target} rejected`);
      const c = await page.eval(counts);
      if (!/1 rejected/.test(c)) throw new Error(`counts say "${c}"`);
    });

    await check('sentences_with_mention_marked', async () => {
      await page.click('#row-2 .c-name');
      await page.waitFor(`document.querySelectorAll('#detail .contexts li mark').length > 0`, 10000, 'marked sentences');
      const ok = await page.eval(`document.querySelector('#detail h2').textContent === document.querySelector('#row-2 .c-name').textContent`);
      if (!ok) throw new Error('the sentences shown are not those of the clicked entity');
    });

    await check('undo', async () => {
      await page.click('#undo');
      await page.waitFor(`${chipCount('negative')} === 0 && ${chipCount('accepted')} === 1 && ${idle}`, 60000, 'undo of the rejection');
    });

    await check('variant_switch', async () => {
      await page.click('input[name=variant][value=noclen]');
      await page.waitFor(`${idle} && /noclen/.test(${counts})`, 60000, 'noclen results');
    });

    await check('thousand_rows', async () => {
      const t = await page.eval(`new Promise((resolve) => {
        const s = document.getElementById('size'); const t0 = performance.now();
        s.value = '1000'; s.dispatchEvent(new Event('change'));
        const poll = () => (${rows} >= 1000 && ${idle}) ? requestAnimationFrame(() => resolve(performance.now() - t0)) : setTimeout(poll, 5);
        poll(); })`);
      const build = await page.eval(`document.body.dataset.renderMs`);
      console.log(`1,000 rows: ${t.toFixed(0)} ms from the size change to the painted list (expansion included); building the rows: ${build} ms`);
      const keyT = await page.eval(`new Promise((resolve) => { const l = document.getElementById('list'); l.focus();
        const t0 = performance.now(); for (let i = 0; i < 50; i++) l.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true}));
        requestAnimationFrame(() => resolve(performance.now() - t0)); })`);
      console.log(`50 keyboard moves in the 1,000-row list: ${keyT.toFixed(0)} ms`);
    });

    await check('downloads_link_the_export', async () => {
      const href = await page.eval(`document.getElementById('dl-tsv').getAttribute('href')`);
      if (!href || !href.startsWith('/api/export?')) throw new Error(`href ${href}`);
      const text = await page.eval(`fetch(${JSON.stringify(href)}).then(r => r.text())`);
      const lines = text.trim().split('\n');
      if (!/^rank\teid\tname\tstatus/.test(lines[0]) || !lines.some((l) => l.includes('\taccepted\t'))) throw new Error('bad TSV');
    });

    // a pleasant screenshot: back to 50 rows, sentences of the first entity open
    await page.eval(`(() => { const s = document.getElementById('size'); s.value = '50'; s.dispatchEvent(new Event('change')); })()`);
    await page.waitFor(`${idle} && ${rows} === 50`, 60000, '50 rows');
    await page.click('#row-0 .c-name');
    await page.waitFor(`document.querySelectorAll('#detail .contexts li').length > 0`, 10000, 'sentences');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    fs.writeFileSync(shot, await page.screenshot());
    console.log(`screenshot: ${shot}`);

    const errs = [...page.console, ...logErrors];
    if (errs.length) fail('no_console_errors', errs.slice(0, 3).join(' | ')); else pass('no_console_errors');
  } catch (e) {
    fail('browser', e.message.split('\n')[0] + (browser.stderr ? ` [chromium: ${browser.stderr.slice(-300)}]` : ''));
  } finally {
    clearTimeout(timer);
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  process.exit(failures ? 1 : 0);
})();
