// why-page.cjs: "why not X?" on the page of `probexpan serve`, in headless chromium, as a user
// would ask it — seeds typed, a list of 20; each row's reason in plain words (the contexts it
// shares with all the seeds) with the raw figures on hover; a typed name that is no entity
// (nothing happens but the closest names shown); then an entity of the top 50 that is not in
// the top 20: the panel gives its rank and score as GET /api/entity/{eid}/why gives them, the
// contexts it shares and lacks, and its Accept button makes it an accepted entity (a ✓ chip;
// the list is computed again without it). Prints PASS:/FAIL: lines and saves SCREENSHOT
// (the answer) and, beside it, -accepted.png.
//   node tests/browser/why-page.cjs URL SCREENSHOT.png [CHROMIUM] [SEED1 SEED2 SEED3]
'use strict';
const fs = require('fs');
const { reporter, browserSession } = require('./cdp.cjs');

const [url, shot, chromium = 'chromium', ...seedArgs] = process.argv.slice(2);
const seeds = seedArgs.length >= 3 ? seedArgs : ['Ohio', 'Texas', 'Iowa'];
const rep = reporter('why-browser');
const { pass, fail, check } = rep;
const rows = `document.querySelectorAll('#list li.row').length`;
const idle = `!document.body.classList.contains('busy')`;
const renders = `Number(document.body.dataset.renders || 0)`;
const names = `[...document.querySelectorAll('#list li.row .c-name')].map(e => e.textContent)`;
const chipNames = (kind) => `[...document.querySelectorAll('#chip-list .chip.${kind} .chip-name')].map(e => e.textContent)`;
const panel = `document.getElementById('detail').textContent`;

browserSession(chromium, rep, async (page) => {
  const enter = () => page.key('Enter', 'Enter', 13, '\r');
  await page.goto(url);
  await page.waitFor(`document.querySelectorAll('#class-list .class-item').length || document.getElementById('start-note').textContent.startsWith('No class')`, 15000, 'the start view');
  // a list of 20 from three typed seeds (the variant the run serves by default)
  await page.eval(`(() => { const s = document.getElementById('size'); s.value = '20'; s.dispatchEvent(new Event('change')); })()`);
  for (const s of seeds) {
    await page.eval(`document.getElementById('seed-input').focus()`);
    await page.type(s);
    await new Promise((r) => setTimeout(r, 300));
    await enter();
    await page.waitFor(`document.getElementById('seed-input').value === ''`, 10000, `seed ${s} added`);
  }
  await page.waitFor(`${rows} === 20 && ${idle}`, 120000, 'a list of 20');

  await check('row_reason_in_words', async () => {
    const r = await page.eval(`[...document.querySelectorAll('#list li.row .c-fig')].map(f => ({ text: f.textContent, title: f.title,
      whole: f.scrollWidth <= f.clientWidth + 1 }))`);
    const api = await page.eval(`result.entities.map(e => e.shared_all)`);
    // "shares 12 contexts with all 3 seeds", the count the expansion's JSON gives for the row
    if (!r.every((w, i) => (api[i] > 0 ? w.text.startsWith(`shares ${api[i]} context${api[i] === 1 ? '' : 's'} with all 3 seeds`)
      : w.text.startsWith('shares ')) && /shared_all \d+\nshared_any \d+/.test(w.title) && /^order \d+/.test(w.title)))
      throw new Error(JSON.stringify(r.slice(0, 2)));
    if (!r[0].whole) throw new Error(`the first reason is cut: ${r[0].text}`);
  });

  await check('unknown_name_adds_nothing', async () => {
    const before = await page.eval(panel);
    await page.eval(`document.getElementById('why-input').focus()`);
    await page.type('Ohoi Stat');
    await enter();
    const help = await page.waitFor(`!document.getElementById('why-help').hidden && document.getElementById('why-help').textContent`, 10000, 'the closest names');
    if (!/No entity is called “Ohoi Stat”/.test(help)) throw new Error(help);
    if (!(await page.eval(`document.querySelectorAll('#why-help .name-pick').length`))) throw new Error('no closest names');
    if ((await page.eval(chipNames('accepted'))).length || (await page.eval(panel)) !== before) throw new Error('something changed');
    await page.eval(`(() => { const i = document.getElementById('why-input'); i.value = ''; i.dispatchEvent(new Event('input')); })()`);
  });

  // an entity of the top 50 that the list of 20 leaves out
  const listed = await page.eval(names);
  const missing = await page.eval(`(async () => {
    const body = { seeds: state.seeds.map(e => e.eid), size: 50, variant: state.variant };
    const r = await fetch('/api/expand', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const j = await r.json();
    return j.entities.slice(20).map(e => ({ eid: e.eid, name: e.name }));
  })()`);
  const target = missing.find((e) => !listed.includes(e.name) && !missing.some((o) => o !== e && o.name.toLowerCase() === e.name.toLowerCase()));

  await check('why_not_x_answers', async () => {
    if (!target) throw new Error('no entity between ranks 21 and 50');
    await page.eval(`document.getElementById('why-input').focus()`);
    await page.type(target.name);
    await enter();
    await page.waitFor(`document.querySelector('#detail .why-figures')`, 120000, 'the answer');
    const shown = await page.eval(`({ h: document.querySelector('#detail h2').textContent, fig: document.querySelector('#detail .why-figures').textContent,
      summary: document.querySelector('#detail .why-summary').textContent, ties: document.querySelectorAll('#detail .ties li').length,
      missing: document.querySelectorAll('#detail .ties.missing li').length })`);
    const api = await page.eval(`(async () => { const p = expansionParams(); p.set('features', 8);
      return (await fetch('/api/entity/${target.eid}/why?' + p)).json(); })()`);
    if (shown.h !== `Why not ${target.name}?`) throw new Error(shown.h);
    if (api.status !== 'outside' || !(api.rank > 20) || api.listed !== 20) throw new Error(`API: ${api.status} ${api.rank}`);
    if (!shown.fig.startsWith(`rank ≈ ${api.rank} (not in the top 20)`)) throw new Error(`"${shown.fig}" vs rank ${api.rank}`);
    if (shown.summary !== api.summary || !shown.summary.startsWith(`${target.name} is not in the top 20`)) throw new Error(shown.summary);
    if (shown.ties === 0) throw new Error('no features listed');
    if ((await page.eval(chipNames('accepted'))).length) throw new Error('accepted before the click');
    fs.writeFileSync(shot, await page.screenshot());
  });

  await check('accept_from_the_answer', async () => {
    if (!target) throw new Error('no entity to accept');
    const r0 = await page.eval(renders);
    await page.click('#detail .why-accept');
    await page.waitFor(`${renders} > ${r0} && ${idle} && ${rows} > 0`, 120000, 'the list computed again');
    const acc = await page.eval(chipNames('accepted'));
    if (acc.length !== 1 || acc[0] !== target.name) throw new Error(`accepted chips: ${JSON.stringify(acc)}`);
    if ((await page.eval(names)).includes(target.name)) throw new Error('the accepted entity is still listed');
    if (!(await page.eval(`result.accepted.some(e => e.eid === ${target.eid})`))) throw new Error('not sent as accepted');
    fs.writeFileSync(shot.replace(/\.png$/, '-accepted.png'), await page.screenshot());
  });
});
