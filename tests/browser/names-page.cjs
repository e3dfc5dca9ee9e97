// names-page.cjs: reviewing discovered names on the page of `probexpan serve`, in headless
// chromium (docs/discovery.md, "Reviewing names in the page").
//   review: opens the names view, finds NAME by the search box, renames it to NEW with the row's
//     rename form, saves (the message names the backup, the row shows the new name with the old
//     as an alias), rebuilds and follows the progress bar until it says the command that serves
//     the new run; saves SCREENSHOT.
//   autocomplete: on the server of the new run, types PREFIX in the seed box and checks that the
//     suggestions offer NEW; saves SCREENSHOT.
// Prints PASS:/FAIL: lines (tests/run.sh counts them).
//   node tests/browser/names-page.cjs review URL SCREENSHOT.png CHROMIUM NAME NEW
//   node tests/browser/names-page.cjs autocomplete URL SCREENSHOT.png CHROMIUM PREFIX NEW
'use strict';
const fs = require('fs');
const { reporter, browserSession } = require('./cdp.cjs');

const [mode, url, shot, chromium, arg1, arg2] = process.argv.slice(2);
const T = `names-page-${mode}`;
const rep = reporter(T);
const { check } = rep;
const assert = (cond, why) => { if (!cond) throw new Error(why); };
const q = JSON.stringify;
const text = (sel) => `((document.querySelector(${q(sel)}) || {}).textContent || '')`;
const row = (name) => `document.querySelector(${q(`#names-rows tr[data-name=${q(name)}]`)})`;

async function review(page, name, renamed) {
  await check('names_view_offered', async () => {
    await page.waitFor(`!document.getElementById('names-toggle').hidden`, 10000, 'the Review names button');
    await page.click('#names-toggle');
    await page.waitFor(`!document.getElementById('names-view').hidden && document.querySelectorAll('#names-rows tr').length > 0`, 10000, 'the names table');
  });
  await check('search_finds_the_name', async () => {
    await page.eval(`document.getElementById('names-q').focus()`);
    await page.type(name);
    await page.waitFor(`document.querySelectorAll('#names-rows tr').length === 1 && ${row(name)} !== null`, 10000, `the row of ${name} alone`);
    const cells = await page.eval(`[...${row(name)}.cells].map(c => c.textContent)`);
    assert(Number(cells[2]) > 0, `its mentions: ${cells[2]}`);
    assert(cells[3].includes(name), `its contexts mention it: ${cells[3]}`);
  });
  await check('rename_queued', async () => {
    await page.click(`#names-rows tr[data-name=${q(name)}] button.n-rename`);
    await page.waitFor(`document.querySelector('#names-rows .n-form input') === document.activeElement`, 5000, 'the rename field');
    await page.eval(`document.querySelector('#names-rows .n-form input').select()`);
    await page.type(renamed);
    await page.key('Enter', 'Enter', 13, '\r');
    await page.waitFor(`document.querySelectorAll('#names-pending li').length === 1`, 5000, 'the edit in the list');
    const pending = await page.eval(text('#names-pending li'));
    assert(pending.includes(`rename “${name}” to “${renamed}”`), `the edit: ${pending}`);
    assert(!(await page.eval(`document.getElementById('names-save').disabled`)), 'Save enabled');
  });
  await check('save_writes_with_backup', async () => {
    await page.click('#names-save');
    await page.waitFor(`${text('#names-msg')}.startsWith('saved 1 edit')`, 10000, 'the saved message');
    const msg = await page.eval(text('#names-msg'));
    assert(/names\.tsv\.bak\.\d+/.test(msg), `the backup named: ${msg}`);
    assert((await page.eval(`document.querySelectorAll('#names-pending li').length`)) === 0, 'no edit left');
    // the list is read again: the search for the old name finds the entity under its new name
    await page.waitFor(`${row(renamed)} !== null`, 10000, `the row of ${renamed}`);
    const aliases = await page.eval(`${row(renamed)}.cells[1].textContent`);
    assert(aliases.split(', ').includes(name), `the old name an alias: ${aliases}`);
  });
  await check('rebuild_with_progress', async () => {
    await page.click('#names-rebuild');
    await page.waitFor(`!document.getElementById('rebuild-progress').hidden`, 5000, 'the progress bar');
    await page.waitFor(`${text('#rebuild-status')}.startsWith('done')`, 120000, 'the rebuild to end');
    const status = await page.eval(text('#rebuild-status'));
    assert(/Serve the new names with: probexpan serve --run \S+/.test(status), `the restart command: ${status}`);
    assert((await page.eval(`document.getElementById('rebuild-bar').value`)) === 1, 'the bar full');
  });
  fs.writeFileSync(shot, await page.screenshot());
}

async function autocomplete(page, prefix, renamed) {
  await check('new_name_suggested', async () => {
    await page.eval(`document.getElementById('seed-input').focus()`);
    await page.type(prefix);
    await page.waitFor(`[...document.querySelectorAll('#suggestions .s-name')].some(e => e.textContent === ${q(renamed)})`, 10000,
      `${renamed} among the suggestions`);
  });
  fs.writeFileSync(shot, await page.screenshot());
}

browserSession(chromium, rep, async (page) => {
  await page.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false });
  await page.goto(url);
  if (mode === 'review') await review(page, arg1, arg2);
  else if (mode === 'autocomplete') await autocomplete(page, arg1, arg2);
  else throw new Error(`mode ${mode}: expected review or autocomplete`);
});
