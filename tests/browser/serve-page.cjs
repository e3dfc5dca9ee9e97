// serve-page.cjs: drives the page of `probexpan serve` in headless chromium like a user —
// finds the classes of the corpus on the start view and starts from one (the set's name above
// the list), types names that are no entity or a mere prefix (nothing is added; the closest
// names are offered), types seeds with autocomplete, accepts a row with the mouse, reaches the list with Tab and
// accepts, rejects and opens rows from the keyboard, undoes with the button, `u` and Ctrl+Z,
// reads an entity's sentences and the context features tying it to the seeds, switches the
// variant (watching the progress bar), asks for 1,000 rows and scrolls and jumps through
// them, and downloads the TSV and JSON exports — checking that the list, the chips and the
// counts follow. Prints PASS:/FAIL: lines (tests/run.sh counts them), the page's first
// paint, the time to build and show 1,000 rows and to move through them (figures, never
// assertions: the machine may be busy), and saves three screenshots: SCREENSHOT (50 rows,
// sentences and features open) and, beside it, -start.png (the classes), -names.png (a typed
// name that is no entity), -class.png (an expansion started from a class), -keyboard.png and
// -1000.png.
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
const renders = `Number(document.body.dataset.renders || 0)`;
const selectedName = `(document.querySelector('#list li.row.selected .c-name') || {}).textContent`;
const active = `document.activeElement && document.activeElement.id`;
const KEYS = { Tab: 9, Enter: 13, End: 35, Home: 36, PageUp: 33, PageDown: 34, ArrowUp: 38, ArrowDown: 40, ArrowRight: 39 };
const sibling = (suffix) => shot.replace(/\.png$/, '') + suffix;

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'probexpan-chromium-'));
  const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'probexpan-downloads-'));
  const browser = new Browser(chromium, profile);
  const timer = setTimeout(() => { console.log(`FAIL: ${T}/timeout (400 s)`); process.exit(1); }, 400000);
  try {
    const page = await browser.newPage();
    const press = (k, modifiers = 0) => (KEYS[k] ? page.key(k, k, KEYS[k], k === 'Enter' ? '\r' : undefined, modifiers)
      : page.key(k, `Key${k.toUpperCase()}`, k.toUpperCase().charCodeAt(0), modifiers ? undefined : k, modifiers));
    // the list re-rendered after an action: a new render, no query running
    const settled = async (before, what) => page.waitFor(`${renders} > ${before} && ${idle}`, 90000, what);
    await page.send('Log.enable');
    await browser.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    const logErrors = [];
    browser.listeners.push((m) => {
      if (m.sessionId === page.sessionId && m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
        logErrors.push(m.params.entry.text);
    });
    await page.goto(url);
    const fcp = await page.waitFor(`(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime`, 5000, 'first paint');
    console.log(`first contentful paint: ${fcp.toFixed(0)} ms`);

    const chips = `document.querySelectorAll('#chip-list .chip').length`;
    const help = `(document.getElementById('name-help').hidden ? '' : document.getElementById('name-help').textContent)`;
    // typed text + Enter, with the autocomplete open (its suggestions shown) before Enter
    const typeAndEnter = async (text) => {
      await page.eval(`document.getElementById('seed-input').focus()`);
      await page.type(text);
      await page.waitFor(`document.querySelectorAll('#suggestions li').length > 0 || document.getElementById('seed-input').value === ${JSON.stringify(text)}`, 5000, 'the typed text');
      await new Promise((r) => setTimeout(r, 400)); // the autocomplete's answer, if any
      await press('Enter');
    };
    const clearInput = `(() => { const i = document.getElementById('seed-input'); i.value = ''; i.dispatchEvent(new Event('input')); })()`;

    await check('start_view_lists_classes', async () => {
      const n = await page.waitFor(`document.querySelectorAll('#class-list .class-item').length`, 15000, 'the classes of the corpus');
      const visible = await page.eval(`!document.getElementById('start').hidden && getComputedStyle(document.getElementById('list')).display === 'none'`);
      const ph = await page.eval(`document.getElementById('seed-input').placeholder`);
      const first = await page.eval(`document.querySelector('#class-list .class-item .class-members').textContent.split(', ')[0]`);
      if (!(n > 0) || !visible || !ph.includes(`e.g. ${first}`))
        throw new Error(`${n} classes, start view shown ${visible}, placeholder "${ph}"`);
      fs.writeFileSync(sibling('-start.png'), await page.screenshot());
    });

    await check('start_from_a_class', async () => {
      const head = await page.eval(`document.querySelector('#class-list .class-item .class-head').textContent.split(' · ')[0]`);
      const r0 = await page.eval(renders);
      await page.click('#class-list .class-item .class-go');
      await page.waitFor(`${chipCount('seed')} === 3 && ${renders} > ${r0} && ${rows} > 0 && ${idle}`, 90000, 'a list from the class');
      const name = await page.waitFor(`!document.getElementById('set-name').hidden && document.getElementById('set-name').textContent`, 5000, 'the set\'s name');
      // the set's name: the class's head, shared by the three seeds, with its support in the list
      if (!new RegExp(`These look like: .*${head} — 3/3 seeds, \\d+ of the top \\d+`).test(name)) throw new Error(`"${name}" (class ${head})`);
      if (!(await page.eval(`document.getElementById('start').hidden`))) throw new Error('the start view stays');
      // each row says why in plain words (the contexts it shares with all the seeds; the class's
      // head, when the entity's definitions say so), whole; the raw figures on hover
      const why = await page.eval(`[...document.querySelectorAll('#list li.row .c-fig')].map(f => ({ text: f.textContent, title: f.title,
        whole: f.scrollWidth <= f.clientWidth + 1 }))`);
      if (!why.some((w) => w.text.endsWith(`; is a: ${head}`)) || !why.every((w) => /^shares (\d+ contexts? with all 3 seeds|\d+ contexts? with some seeds|no context)/.test(w.text) &&
          /^order \d+\nkl_rank \d+\nkl_score/.test(w.title)) || !why[0].whole)
        throw new Error(`reasons: ${JSON.stringify(why.slice(0, 2))}`);
      fs.writeFileSync(sibling('-class.png'), await page.screenshot());
      await page.click('#undo');
      await page.waitFor(`${chips} === 0 && !document.getElementById('start').hidden && document.getElementById('set-name').hidden`, 15000, 'back to the start view');
    });

    await check('unknown_name_shows_closest_names', async () => {
      await typeAndEnter('Linus Torvalds');
      const text = await page.waitFor(help, 5000, 'a message under the seed box');
      const picks = await page.eval(`document.querySelectorAll('#name-help .name-pick').length`);
      if (!/No entity is called “Linus Torvalds”/.test(text) || picks === 0 || (await page.eval(chips)) !== 0)
        throw new Error(`"${text}", ${picks} names offered, ${await page.eval(chips)} chips`);
      fs.writeFileSync(sibling('-names.png'), await page.screenshot());
      await page.eval(clearInput);
    });

    await check('prefix_and_enter_adds_nothing', async () => {
      // "Oh" is the start of names (Ohio, ...) but names none: Enter must not add the first suggestion
      await typeAndEnter('Oh');
      const text = await page.waitFor(help, 5000, 'a message under the seed box');
      if ((await page.eval(chips)) !== 0 || !/“Oh”/.test(text)) throw new Error(`${await page.eval(chips)} chips; "${text}"`);
      // a name offered is one click away
      const offered = await page.eval(`document.querySelector('#name-help .name-pick').textContent`);
      await page.click('#name-help .name-pick');
      await page.waitFor(`${chips} === 1 && document.getElementById('name-help').hidden`, 5000, `${offered} added`);
      const chip = await page.eval(`document.querySelector('#chip-list .chip-name').textContent`);
      if (chip !== offered) throw new Error(`chip ${chip}, picked ${offered}`);
      await page.click('#chip-list .chip-x');
      await page.waitFor(`${chips} === 0`, 5000, 'the chip removed');
    });

    await check('autocomplete_and_seed_chips', async () => {
      for (const s of seeds) {
        await page.eval(`document.getElementById('seed-input').focus()`);
        await page.type(s.slice(0, Math.max(3, s.length - 1)));
        await page.waitFor(`!document.getElementById('suggestions').hidden && [...document.querySelectorAll('#suggestions li .s-name')].some(e => e.textContent === ${JSON.stringify(s)})`,
          5000, `suggestion ${s}`);
        // move the highlight to the exact name (none is highlighted before the first arrow), then Enter
        const idx = await page.eval(`[...document.querySelectorAll('#suggestions li .s-name')].findIndex(e => e.textContent === ${JSON.stringify(s)})`);
        for (let i = 0; i <= idx; i++) await press('ArrowDown');
        await press('Enter');
      }
      const n = await page.waitFor(`${chipCount('seed')} === ${seeds.length} && ${rows} > 0 && ${idle} && ${rows}`, 90000, 'a ranked list');
      if (!(n > 0)) throw new Error('no rows');
    });

    const before = await page.eval(names);
    await check('accept_row_with_mouse', async () => {
      const first = before[0];
      const r0 = await page.eval(renders);
      await page.click('#row-0 button.acc');
      // the list is computed again; the accepted entity is a seed now and leaves it
      await page.waitFor(`${chipCount('accepted')} === 1 && ${renders} > ${r0} && ${idle}`, 90000, 'accepted chip and a new list');
      if ((await page.eval(names)).includes(first)) throw new Error(`${first} is still listed`);
      const c = await page.eval(counts);
      if (!/1 accepted/.test(c)) throw new Error(`counts say "${c}"`);
    });

    await check('tab_reaches_the_list', async () => {
      await page.eval(`document.getElementById('seed-input').focus()`);
      for (let i = 0; i < 12 && (await page.eval(active)) !== 'list'; i++) await press('Tab');
      if ((await page.eval(active)) !== 'list') throw new Error(`Tab from the seed box ends on #${await page.eval(active)}`);
    });

    await check('reject_row_with_keyboard', async () => {
      await press('ArrowDown');
      await press('ArrowDown');
      const target = await page.eval(selectedName);
      const r0 = await page.eval(renders);
      await press('r');
      await settled(r0, `${target} rejected`);
      if (await page.eval(`${chipCount('negative')} !== 1 || ${names}.includes(${JSON.stringify(target)})`))
        throw new Error(`${target} still listed or no rejected chip`);
      const c = await page.eval(counts);
      if (!/1 rejected/.test(c)) throw new Error(`counts say "${c}"`);
      if ((await page.eval(active)) !== 'list') throw new Error('the list lost the focus');
    });

    await check('accept_row_with_keyboard', async () => {
      await press('ArrowDown');
      const target = await page.eval(selectedName);
      const r0 = await page.eval(renders);
      await press('a');
      await settled(r0, `${target} accepted`);
      const chips = await page.eval(`[...document.querySelectorAll('#chip-list .chip.accepted .chip-name')].map(e => e.textContent)`);
      if (chips.length !== 2 || !chips.includes(target)) throw new Error(`accepted chips ${chips.join(', ')}`);
    });

    await check('keyboard_undo', async () => {
      let r0 = await page.eval(renders);
      await press('u');
      await settled(r0, 'undo with u');
      if (await page.eval(`${chipCount('accepted')} !== 1 || ${chipCount('negative')} !== 1`)) throw new Error('u did not take back the acceptance');
      r0 = await page.eval(renders);
      await press('z', 2); // Ctrl+Z
      await settled(r0, 'undo with Ctrl+Z');
      if (await page.eval(`${chipCount('negative')} !== 0 || ${chipCount('accepted')} !== 1`)) throw new Error('Ctrl+Z did not take back the rejection');
    });

    await check('enter_opens_sentences_and_features', async () => {
      await page.eval(`document.getElementById('list').focus()`);
      await press('Home');
      await press('ArrowDown');
      const target = await page.eval(selectedName);
      await press('Enter');
      await page.waitFor(`document.querySelector('#detail h2') && document.querySelector('#detail h2').textContent === ${JSON.stringify(target)} &&
        document.querySelectorAll('#detail .contexts li mark').length > 0`, 15000, `sentences of ${target}`);
      // the features tying it to the seed set (3 seeds + 1 accepted), best first
      const ties = await page.waitFor(`document.querySelectorAll('#detail .ties .tie').length`, 15000, 'context features');
      const seedsNamed = await page.eval(`document.querySelector('#detail .ties p').textContent`);
      const chosen = await page.eval(`[...document.querySelectorAll('#chip-list .chip.seed .chip-name, #chip-list .chip.accepted .chip-name')].map(e => e.textContent)`);
      const want = chosen.filter((n) => n !== target).length;
      if (!(ties > 0) || !new RegExp(`similarity to the ${want} seeds`).test(seedsNamed)) throw new Error(`${ties} features; "${seedsNamed}"`);
      const widths = await page.eval(`[...document.querySelectorAll('#detail .tie-bar')].map(b => parseFloat(b.style.width))`);
      if (widths.some((w, i) => i && w > widths[i - 1])) throw new Error(`bars not best first: ${widths}`);
      fs.writeFileSync(sibling('-keyboard.png'), await page.screenshot());
    });

    await check('panel_follows_the_list', async () => {
      // the open entity is rejected: after the re-run the panel shows the row the highlight is on
      const target = await page.eval(selectedName);
      const r0 = await page.eval(renders);
      await press('r');
      await settled(r0, `${target} rejected`);
      const now = await page.eval(selectedName);
      await page.waitFor(`document.querySelector('#detail h2') && document.querySelector('#detail h2').textContent === ${JSON.stringify(now)}`,
        15000, `the panel on ${now}`);
      if (now === target) throw new Error(`${target} still highlighted`);
      const r1 = await page.eval(renders);
      await press('u');
      await settled(r1, 'undo of the rejection');
      // the panel still shows the highlighted row, wherever the re-run moved it
      await page.waitFor(`${chipCount('negative')} === 0 && document.querySelector('#detail h2').textContent === ${selectedName}`,
        15000, 'the panel on the highlighted row after undo');
    });

    await check('sentences_with_mouse', async () => {
      await page.click('#row-2 .c-name');
      await page.waitFor(`document.querySelector('#detail h2').textContent === document.querySelector('#row-2 .c-name').textContent &&
        document.querySelectorAll('#detail .contexts li mark').length > 0`, 15000, 'marked sentences');
    });

    await check('undo_button', async () => {
      const r0 = await page.eval(renders);
      await page.click('#undo');
      await settled(r0, 'undo of the acceptance');
      if (await page.eval(`${chipCount('accepted')} !== 0`)) throw new Error('still accepted');
      // the open entity's features follow the seed set: now the 3 seeds alone
      await page.waitFor(`/similarity to the 3 seeds/.test((document.querySelector('#detail .ties p') || {}).textContent)`, 15000,
        'the features against the 3 seeds');
    });

    await check('variant_switch_with_progress', async () => {
      // record whether the progress bar shows while the query runs
      await page.eval(`(() => { window.progressSeen = false; const p = document.getElementById('progress');
        new MutationObserver(() => { if (!p.hidden) window.progressSeen = true; }).observe(p, { attributes: true }); })()`);
      const r0 = await page.eval(renders);
      await page.click('input[name=variant][value=noclen]');
      await settled(r0, 'noclen results');
      if (!/noclen/.test(await page.eval(counts))) throw new Error(`counts say "${await page.eval(counts)}"`);
      if (!(await page.eval('window.progressSeen')) || !(await page.eval(`document.getElementById('progress').hidden`)))
        throw new Error('the progress bar did not show, or stayed');
    });

    await check('thousand_rows', async () => {
      const t = await page.eval(`new Promise((resolve) => {
        const s = document.getElementById('size'); const t0 = performance.now();
        s.value = '1000'; s.dispatchEvent(new Event('change'));
        const poll = () => (${rows} >= 1000 && ${idle}) ? requestAnimationFrame(() => resolve(performance.now() - t0)) : setTimeout(poll, 5);
        poll(); })`);
      const build = await page.eval(`document.body.dataset.renderMs`);
      const server = await page.eval(`document.getElementById('counts').textContent.match(/(\\d+) ms/)[1]`);
      console.log(`1,000 rows: ${t.toFixed(0)} ms from the size change to the painted list, of which ${server} ms computing the expansion on the server and ${build} ms building the rows`);
      if ((await page.eval(rows)) !== 1000) throw new Error(`${await page.eval(rows)} rows`);
      // scrolling to the end shows the last row
      const scroll = await page.eval(`new Promise((resolve) => { const l = document.getElementById('list'); const t0 = performance.now();
        l.scrollTop = l.scrollHeight; requestAnimationFrame(() => requestAnimationFrame(() => {
          const a = l.getBoundingClientRect(), b = document.getElementById('row-999').getBoundingClientRect();
          resolve({ ms: performance.now() - t0, visible: b.top >= a.top - 1 && b.bottom <= a.bottom + 1 }); })); })`);
      console.log(`scrolling the 1,000-row list to its end: ${scroll.ms.toFixed(0)} ms to the painted frame`);
      if (!scroll.visible) throw new Error('the last row is not visible after scrolling to the end');
      fs.writeFileSync(sibling('-1000.png'), await page.screenshot());
      // the keyboard moves through it: Home, 50 x ArrowDown, End, PageUp
      await page.eval(`document.getElementById('list').focus()`);
      await press('Home');
      const t0 = Date.now();
      for (let i = 0; i < 50; i++) await press('ArrowDown');
      const moveMs = Date.now() - t0;
      const at = await page.eval(`document.querySelector('#list li.row.selected').id`);
      console.log(`50 ArrowDown presses in the 1,000-row list: ${moveMs} ms (key events sent one by one over the DevTools pipe)`);
      if (at !== 'row-50') throw new Error(`selection at ${at} after Home + 50 x ArrowDown`);
      await press('End');
      await press('PageUp');
      const end = await page.eval(`(() => { const l = document.getElementById('list'), s = document.querySelector('#list li.row.selected');
        const a = l.getBoundingClientRect(), b = s.getBoundingClientRect(); return { id: s.id, visible: b.top >= a.top - 1 && b.bottom <= a.bottom + 1 }; })()`);
      if (end.id !== 'row-984' || !end.visible) throw new Error(`End + PageUp: ${end.id}, visible ${end.visible}`);
    });

    // back to 50 rows for the downloads and the screenshot
    await check('size_back_to_50', async () => {
      const r0 = await page.eval(renders);
      await page.eval(`(() => { const s = document.getElementById('size'); s.value = '50'; s.dispatchEvent(new Event('change')); })()`);
      await settled(r0, '50 rows');
      if ((await page.eval(rows)) !== 50) throw new Error(`${await page.eval(rows)} rows`);
    });

    // the downloads, as a user gets them: click the link, a file lands in the download folder
    const download = async (id, file) => {
      await page.click(`#${id}`);
      const f = path.join(downloads, file);
      const end = Date.now() + 60000;
      while (!fs.existsSync(f) || fs.readdirSync(downloads).some((n) => n.endsWith('.crdownload'))) {
        if (Date.now() > end) throw new Error(`no ${file} downloaded (folder: ${fs.readdirSync(downloads).join(', ')})`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return fs.readFileSync(f, 'utf8');
    };
    const shown = await page.eval(names);
    await check('download_tsv', async () => {
      const lines = (await download('dl-tsv', 'expansion.tsv')).trim().split('\n').map((l) => l.split('\t'));
      if (lines[0].slice(0, 5).join(' ') !== 'rank eid name status score') throw new Error(`header ${lines[0].join(' ')}`);
      const seedNames = lines.filter((l) => l[3] === 'seed').map((l) => l[2]);
      const ranked = lines.filter((l) => l[3] === 'candidate' || l[3] === 'accepted').map((l) => l[2]);
      if (seedNames.join() !== seeds.join()) throw new Error(`seeds ${seedNames.join(', ')}`);
      if (ranked.join('|') !== shown.join('|')) throw new Error('the TSV ranking is not the list on the page');
    });
    await check('download_json', async () => {
      const j = JSON.parse(await download('dl-json', 'expansion.json'));
      if (j.entities.map((e) => e.name).join('|') !== shown.join('|') || j.variant !== 'noclen' || j.size !== 50)
        throw new Error(`variant ${j.variant}, size ${j.size}, ${j.entities.length} entities`);
    });

    // the screenshot: 50 rows, the first entity's sentences and features open
    await page.click('#row-0 .c-name');
    await page.waitFor(`document.querySelectorAll('#detail .contexts li').length > 0 && document.querySelectorAll('#detail .ties .tie').length > 0`, 15000, 'sentences');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    fs.writeFileSync(shot, await page.screenshot());
    console.log(`screenshots: ${shot}, ${sibling('-keyboard.png')}, ${sibling('-1000.png')}`);

    const errs = [...page.console, ...logErrors];
    if (errs.length) fail('no_console_errors', errs.slice(0, 3).join(' | ')); else pass('no_console_errors');
  } catch (e) {
    fail('browser', e.message.split('\n')[0] + (browser.stderr ? ` [chromium: ${browser.stderr.slice(-300)}]` : ''));
  } finally {
    clearTimeout(timer);
    await browser.close();
    for (const d of [profile, downloads]) fs.rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  process.exit(failures ? 1 : 0);
})();
