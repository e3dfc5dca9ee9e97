// serve-cut.cjs: where to cut on the page of `probexpan serve` (docs/cut.md), in headless
// chromium: adds three seeds as a user types them, asks for 200 rows, and checks that the cut
// line sits above row `cut.above + 1` of the answer, that the score-curve plot (inline SVG)
// draws one point per row, the threshold and the cut mark, and that "only above the cut" lists
// exactly the rows above the line — the same entities as POST /api/expand with "cut": "auto"
// (what `query --cut auto` returns). Prints PASS:/FAIL: lines (tests/run.sh counts them) and
// saves SCREENSHOT (the line and the plot).
//   node tests/browser/serve-cut.cjs URL SCREENSHOT.png [CHROMIUM] [SEED1 SEED2 SEED3]
'use strict';
const fs = require('fs');
const { reporter, browserSession } = require('./cdp.cjs');

const [url, shot, chromium = 'chromium', ...seedArgs] = process.argv.slice(2);
const seeds = seedArgs.length >= 3 ? seedArgs : ['Ohio', 'Texas', 'Iowa'];
const T = 'serve-cut';
const rep = reporter(T);
const { pass, fail, check } = rep;
const assert = (cond, why) => { if (!cond) throw new Error(why); };

const names = `[...document.querySelectorAll('#list li.row .c-name')].map(e => e.textContent)`;
const renders = `Number(document.body.dataset.renders || 0)`;
const idle = `!document.body.classList.contains('busy')`;

browserSession(chromium, rep, async (page) => {
  await page.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false });
  await page.goto(url);
  const settled = async (before, what) => page.waitFor(`${renders} > ${before} && ${idle}`, 120000, what);
  // the seeds, typed as a user does (the page resolves each typed name), then 200 rows
  for (const s of seeds) {
    await page.eval(`document.getElementById('seed-input').focus()`);
    await page.type(s);
    await page.waitFor(`document.getElementById('seed-input').value === ${JSON.stringify(s)}`, 5000, 'the typed name');
    await new Promise((r) => setTimeout(r, 300));
    await page.key('Enter', 'Enter', 13, '\r');
    await page.waitFor(`document.querySelectorAll('#chip-list .chip').length >= ${seeds.indexOf(s) + 1}`, 10000, `the chip of ${s}`);
  }
  let r0 = await page.eval(renders);
  await page.eval(`(() => { const s = document.getElementById('size'); s.value = '200'; s.dispatchEvent(new Event('change')); })()`);
  await page.waitFor(`document.querySelectorAll('#list li.row').length === 200 && ${idle}`, 120000, '200 rows');
  const cut = await page.eval(`result.cut`);
  const full = await page.eval(names);

  await check('line_above_the_cut_row', async () => {
    assert(cut && cut.dropped && cut.above > 0 && cut.above < 200, `a drop inside the list: ${JSON.stringify(cut)}`);
    const lines = await page.eval(`document.querySelectorAll('#list li.cut-line').length`);
    assert(lines === 1, `one cut line, found ${lines}`);
    const around = await page.eval(`(() => { const l = document.querySelector('#list li.cut-line');
      return [l.previousElementSibling.dataset.index, l.nextElementSibling.dataset.index].map(Number); })()`);
    assert(around[0] === cut.above - 1 && around[1] === cut.above, `between rows ${around} (cut.above ${cut.above})`);
    const text = await page.eval(`document.getElementById('cut-text').textContent`);
    assert(text.includes(`after rank ${cut.above} of 200`), `the sentence: ${text}`);
  });

  await check('plot_curve_threshold_and_mark', async () => {
    const svg = await page.eval(`(() => { const s = document.getElementById('cut-plot'), p = s.querySelector('polyline.cut-curve');
      const m = s.querySelector('line.cut-mark'), t = s.querySelector('line.cut-threshold'), b = s.getBoundingClientRect();
      return { points: p ? p.getAttribute('points').trim().split(/\\s+/).length : 0, mark: m ? Number(m.getAttribute('x1')) : null,
               threshold: !!t, visible: b.width > 100 && b.height > 20 && !document.getElementById('cut-bar').hidden }; })()`);
    assert(svg.visible, 'the plot is visible');
    assert(svg.points === 200, `one point per row: ${svg.points}`);
    assert(svg.threshold, 'the threshold line');
    // the mark sits between the points of rows cut.above and cut.above + 1 (x from 3 to 237)
    const xAt = (i) => 3 + (234 * i) / 199;
    assert(svg.mark > xAt(cut.above - 1) && svg.mark < xAt(cut.above), `mark at x ${svg.mark}, rows at ${xAt(cut.above - 1)}..${xAt(cut.above)}`);
  });
  await page.eval(`(() => { const l = document.querySelector('#list li.cut-line'); if (l) l.scrollIntoView({ block: 'center' }); })()`);
  // the rows under the line paint once scrolled to (content-visibility): two frames, then the picture
  await page.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300))))`);
  fs.writeFileSync(shot, await page.screenshot());

  await check('only_above_the_cut_equals_cut_auto', async () => {
    // what the API returns with "cut": "auto" for the same seed set
    const auto = await page.eval(`fetch('/api/expand', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seeds: state.seeds.map(key), size: 200, variant: state.variant, cut: 'auto' }) })
      .then(r => r.json()).then(j => j.entities.map(e => e.name))`);
    assert(JSON.stringify(auto) === JSON.stringify(full.slice(0, cut.above)), `cut auto: ${auto.length} names, the ${cut.above} above the line differ`);
    r0 = await page.eval(renders);
    await page.click('#cut-only');
    await settled(r0, 'the list above the cut');
    const shown = await page.eval(names);
    assert(JSON.stringify(shown) === JSON.stringify(full.slice(0, cut.above)), `${shown.length} rows shown, expected the ${cut.above} above the line`);
    assert(await page.eval(`document.querySelectorAll('#list li.cut-line').length === 0`), 'no line once only those above are listed');
    const href = await page.eval(`document.getElementById('dl-tsv').getAttribute('href')`);
    assert(/[?&]cut=auto(&|$)/.test(href), `the export asks for the same: ${href}`);
    r0 = await page.eval(renders);
    await page.click('#cut-only');
    await settled(r0, 'the whole list again');
    assert(JSON.stringify(await page.eval(names)) === JSON.stringify(full), 'the whole list again, unchanged');
  });
});
