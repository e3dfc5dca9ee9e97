// cdp.cjs: a minimal Chrome DevTools Protocol client over --remote-debugging-pipe, for the
// browser tests (no npm package needed: node's child_process talks to chromium on fds 3/4,
// messages are JSON separated by NUL bytes).
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

class Browser {
  // Starts headless chromium with a fresh profile in `profileDir`.
  constructor(binary, profileDir) {
    this.proc = spawn(binary, [
      '--headless=new', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
      '--disable-dev-shm-usage', `--user-data-dir=${profileDir}`, '--window-size=1280,900', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    this.out = this.proc.stdio[3];
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    let buf = Buffer.alloc(0);
    this.proc.stdio[4].on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      let z;
      while ((z = buf.indexOf(0)) >= 0) {
        const msg = JSON.parse(buf.subarray(0, z).toString('utf8'));
        buf = buf.subarray(z + 1);
        if (msg.id && this.pending.has(msg.id)) {
          const { resolve, reject, method } = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
          else resolve(msg.result);
        } else {
          this.listeners.forEach((l) => l(msg));
        }
      }
    });
  }

  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.out.write(JSON.stringify(msg) + '\0');
    });
  }

  // A new page (tab) attached in flat mode; returns a Page.
  async newPage() {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, sessionId);
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    return page;
  }

  // Closes the browser and waits until its process has exited.
  async close() {
    const exited = new Promise((r) => { if (this.proc.exitCode !== null) r(); else this.proc.on('exit', r); });
    try { await Promise.race([this.send('Browser.close'), new Promise((r) => setTimeout(r, 3000))]); } catch (e) { /* gone */ }
    this.proc.kill('SIGKILL');
    await exited;
  }
}

class Page {
  constructor(browser, sessionId) {
    this.b = browser;
    this.sessionId = sessionId;
    this.console = [];
    browser.listeners.push((msg) => {
      if (msg.sessionId !== sessionId) return;
      if (msg.method === 'Runtime.exceptionThrown') this.console.push(`exception: ${msg.params.exceptionDetails.text} ${JSON.stringify(msg.params.exceptionDetails.exception && msg.params.exceptionDetails.exception.description)}`);
      if (msg.method === 'Runtime.consoleAPICalled' && msg.params.type === 'error') this.console.push(`console.error: ${msg.params.args.map((a) => a.value).join(' ')}`);
    });
  }

  send(method, params) { return this.b.send(method, params, this.sessionId); }

  async goto(url) {
    const loaded = new Promise((resolve) => {
      const l = (msg) => { if (msg.sessionId === this.sessionId && msg.method === 'Page.loadEventFired') resolve(); };
      this.b.listeners.push(l);
    });
    await this.send('Page.navigate', { url });
    await loaded;
  }

  // Evaluates an expression (awaiting promises) and returns its value.
  async eval(expression) {
    const r = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`eval ${expression}: ${r.exceptionDetails.exception ? r.exceptionDetails.exception.description : r.exceptionDetails.text}`);
    return r.result.value;
  }

  // Polls `expression` until truthy (or throws after timeoutMs).
  async waitFor(expression, timeoutMs = 10000, what = expression) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await this.eval(expression);
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async type(text) { await this.send('Input.insertText', { text }); }

  // One key press; modifiers: 1 Alt, 2 Ctrl, 4 Meta, 8 Shift (CDP's bit field).
  async key(key, code = key, keyCode = 0, text, modifiers = 0) {
    const base = { key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode, modifiers };
    await this.send('Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', text, ...base });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }

  // A real mouse click at the centre of the element matched by a CSS selector.
  async click(selector) {
    const box = await this.eval(`(() => { const e = document.querySelector(${JSON.stringify(selector)});
      if (!e) return null; e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();
      return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`);
    if (!box) throw new Error(`no element ${selector}`);
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
      await this.send('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
  }

  async screenshot() {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  }
}

// PASS:/FAIL: lines for test T (tests/run.sh counts them): check(name, async fn) passes unless fn
// throws; failures() counts the failures so far.
function reporter(T) {
  let failures = 0;
  const pass = (n) => console.log(`PASS: ${T}/${n}`);
  const fail = (n, why) => { failures++; console.log(`FAIL: ${T}/${n} (${why})`); };
  const check = async (name, fn) => { try { await fn(); pass(name); } catch (e) { fail(name, e.message.split('\n')[0]); } };
  return { pass, fail, check, failures: () => failures };
}

// One browser test's page: body(page) runs in a fresh headless chromium profile; a thrown error
// is FAIL run, a page console error FAIL no_page_errors, past `seconds` FAIL timeout. Closes
// the browser, removes the profile and exits 1 when any check of reporter `rep` failed.
async function browserSession(chromium, rep, body, seconds = 300) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'probexpan-chromium-'));
  const browser = new Browser(chromium, profile);
  const timer = setTimeout(() => { rep.fail('timeout', `${seconds} s`); process.exit(1); }, seconds * 1000);
  try {
    const page = await browser.newPage();
    await body(page);
    if (page.console.length) rep.fail('no_page_errors', page.console.join(' | '));
    else rep.pass('no_page_errors');
  } catch (e) {
    rep.fail('run', e.message.split('\n')[0]);
  } finally {
    clearTimeout(timer);
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.exit(rep.failures() ? 1 : 0);
}

module.exports = { Browser, reporter, browserSession };
