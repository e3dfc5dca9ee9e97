// The page of `probexpan serve`: the classes the corpus holds (start view), seed chips with
// autocomplete, the ranked list with what the set looks like, accept / reject per row
// (re-runs at once) with each row's reason in plain words, undo, variant and size, sentences of
// an entity, "why not X?" for an entity missing from the list, export; over a discovered dataset,
// the review of its names (delete, rename, merge, save, rebuild).
// Plain DOM, no framework; all text goes through textContent (never innerHTML).
'use strict';

const $ = (id) => document.getElementById(id);
const state = { seeds: [], accepted: [], negatives: [], variant: 'full', size: 50, cutOnly: false };
const history = [];
let result = null;        // last /api/expand answer
let selected = -1;        // index of the selected row in result.entities
let inflight = null;      // AbortController of the running expansion
let started = 0;

// ---- helpers ----
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
const ref = (e) => ({ eid: e.eid, name: e.name });
const key = (e) => e.eid;
function allChosen() { return [...state.seeds, ...state.accepted, ...state.negatives]; }
function snapshot() {
  return JSON.stringify({ seeds: state.seeds, accepted: state.accepted, negatives: state.negatives,
                          variant: state.variant, size: state.size });
}

function change(fn) {          // every user change: remember the state for undo, then re-run
  history.push(snapshot());
  fn();
  $('undo').disabled = false;
  render();
  run();
}
function undo() {
  if (!history.length) return;
  Object.assign(state, JSON.parse(history.pop()));
  $('undo').disabled = history.length === 0;
  document.querySelector(`input[name=variant][value="${state.variant}"]`).checked = true;
  $('size').value = String(state.size);
  render();
  run();
}

// ---- chips ----
function renderChips() {
  const ul = $('chip-list');
  ul.textContent = '';
  const add = (list, kind, label) => list.forEach((e) => {
    const li = el('li', `chip ${kind}`);
    li.append(el('span', 'chip-kind', label), el('span', 'chip-name', e.name));
    const x = el('button', 'chip-x', '×');
    x.type = 'button';
    x.title = `remove ${e.name}`;
    x.setAttribute('aria-label', `remove ${e.name}`);
    x.addEventListener('click', () => change(() => {
      ['seeds', 'accepted', 'negatives'].forEach((k) => { state[k] = state[k].filter((o) => o.eid !== e.eid); });
    }));
    li.append(x);
    ul.append(li);
  });
  add(state.seeds, 'seed', 'seed');
  add(state.accepted, 'accepted', '✓');
  add(state.negatives, 'negative', '✗');
}

function renderCounts(extra) {
  const n = state.seeds.length + state.accepted.length;
  let text = `${state.seeds.length} seeds · ${state.accepted.length} accepted · ${state.negatives.length} rejected`;
  if (result && n >= 2) text += ` · ${result.entities.length} results (${state.variant}, ${result.elapsed_ms.toFixed(0)} ms)`;
  if (n < 2) text += ' — add at least two seeds';
  if (extra) text += ` · ${extra}`;
  $('counts').textContent = text;
}

// ---- autocomplete ----
let suggestTimer = 0, suggestSeq = 0, suggestions = [], active = -1;
function closeSuggestions() {
  $('suggestions').hidden = true;
  $('seed-input').setAttribute('aria-expanded', 'false');
  $('seed-input').removeAttribute('aria-activedescendant');
  active = -1;
}
function showSuggestions(list) {
  const ul = $('suggestions');
  const chosen = new Set(allChosen().map(key));
  const was = active >= 0 && suggestions[active] ? suggestions[active].eid : null;
  suggestions = list.filter((e) => !chosen.has(e.eid));
  ul.textContent = '';
  suggestions.forEach((e, i) => {
    const li = el('li', 'suggestion');
    li.id = `sug-${i}`;
    li.setAttribute('role', 'option');
    li.append(el('span', 's-name', e.name));
    if (e.aliases.length) li.append(el('span', 's-alias', e.aliases.slice(0, 2).join(', ')));
    li.append(el('span', 's-count', `${e.mentions}`));
    li.addEventListener('mousedown', (ev) => { ev.preventDefault(); pick(i); });
    ul.append(li);
  });
  // Enter picks a suggestion only once the arrows chose it (kept when a later answer still
  // lists it), else the typed name
  active = suggestions.findIndex((e) => e.eid === was);
  markActive();
  ul.hidden = suggestions.length === 0;
  $('seed-input').setAttribute('aria-expanded', String(!ul.hidden));
}
function markActive() {
  [...$('suggestions').children].forEach((li, i) => li.setAttribute('aria-selected', String(i === active)));
  if (active >= 0) $('seed-input').setAttribute('aria-activedescendant', `sug-${active}`);
  else $('seed-input').removeAttribute('aria-activedescendant');
}
async function suggest() {
  const q = $('seed-input').value.trim();
  const seq = ++suggestSeq;
  if (!q) { closeSuggestions(); return; }
  try {
    const r = await fetch(`/api/entities?limit=8&prefix=${encodeURIComponent(q)}`);
    const j = await r.json();
    if (seq === suggestSeq && r.ok) showSuggestions(j.entities);
  } catch (e) { /* a newer keystroke or a network hiccup: the next one retries */ }
}
function addSeed(e) {
  $('seed-input').value = '';
  closeSuggestions();
  nameHelp(null);
  if (allChosen().some((o) => o.eid === e.eid)) return;
  change(() => { state.seeds.push(ref(e)); });
}
function pick(i) {
  if (suggestions[i]) addSeed(suggestions[i]);
}
// Enter on a typed name: the entity it names, resolved as `probexpan query` resolves seeds;
// an unknown or ambiguous name adds nothing and shows the closest names to pick from.
// resolveTyped: {entity}, or {message, names} (the closest names) when it names none or several.
async function resolveTyped(text) {
  const r = await fetch(`/api/resolve?name=${encodeURIComponent(text)}`);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error ? j.error.message : `HTTP ${r.status}`);
  if (j.entity) return { entity: j.entity };
  return { names: j.suggestions, message: j.ambiguous ? `“${text}” names several entities: pick one.`
    : `No entity is called “${text}”.` + (j.suggestions.length ? ' Closest names:' : '') };
}
let resolveSeq = 0;
async function addTyped() {
  const text = $('seed-input').value.trim();
  if (!text) return;
  const seq = ++resolveSeq;
  try {
    const a = await resolveTyped(text);
    if (seq !== resolveSeq) return;
    if (a.entity) { addSeed(a.entity); return; }
    closeSuggestions();
    nameHelp(a.message, a.names);
  } catch (e) {
    if (seq === resolveSeq) nameHelp(e.message);
  }
}
// A help line (the element `id`): a message and names to click, each doing pick(e) (null: hidden).
function helpLine(id, message, names, pick, title) {
  const box = $(id);
  box.textContent = '';
  box.hidden = !message;
  if (!message) return;
  box.append(el('span', 'name-help-text', message));
  names.forEach((e) => {
    const b = el('button', 'name-pick', e.name);
    b.type = 'button';
    b.title = title(e);
    b.addEventListener('click', () => pick(e));
    box.append(b);
  });
}
// The line under the seed box.
function nameHelp(message, names = []) {
  helpLine('name-help', message, names, addSeed, (e) => `add ${e.name} (eid ${e.eid}) as a seed`);
}
function onSeedKey(ev) {
  const open = !$('suggestions').hidden;
  if (ev.key === 'ArrowDown' && open) { active = Math.min(active + 1, suggestions.length - 1); markActive(); ev.preventDefault(); }
  else if (ev.key === 'ArrowUp' && open) { active = Math.max(active - 1, 0); markActive(); ev.preventDefault(); }
  else if (ev.key === 'Enter') {
    ev.preventDefault();
    if (open && active >= 0) pick(active);
    else addTyped();
  } else if (ev.key === 'Escape') closeSuggestions();
  else if (ev.key === 'Backspace' && !$('seed-input').value) {
    const last = state.negatives.length ? 'negatives' : state.accepted.length ? 'accepted' : 'seeds';
    if (state[last].length) change(() => { state[last].pop(); });
  } else if (ev.key === 'ArrowDown' && result && result.entities.length) { $('list').focus(); select(0); ev.preventDefault(); }
}

// ---- expansion ----
function busy(on) {
  $('progress').hidden = !on;
  $('list').setAttribute('aria-busy', String(on));
  document.body.classList.toggle('busy', on);
}
// The expansion on screen as query-string parameters (export, why).
function expansionParams() {
  const p = new URLSearchParams();
  state.seeds.forEach((e) => p.append('seed', e.eid));
  state.accepted.forEach((e) => p.append('accepted', e.eid));
  state.negatives.forEach((e) => p.append('negative', e.eid));
  p.set('size', state.size);
  p.set('variant', state.variant);
  return p;
}
function exportHref(format) {
  const p = expansionParams();
  p.set('format', format);
  if (state.cutOnly) p.set('cut', 'auto');
  return `/api/export?${p}`;
}
function setDownloads(ok) {
  for (const [id, f] of [['dl-tsv', 'tsv'], ['dl-json', 'json']]) {
    const a = $(id);
    if (ok) { a.href = exportHref(f); a.classList.remove('disabled'); a.removeAttribute('aria-disabled'); }
    else { a.removeAttribute('href'); a.classList.add('disabled'); a.setAttribute('aria-disabled', 'true'); }
  }
}
function showError(msg) {
  $('error').hidden = !msg;
  $('error').textContent = msg || '';
}

async function run() {
  if (inflight) inflight.abort();
  if (state.seeds.length + state.accepted.length < 2) {
    result = null;
    if (shown) clearContexts();
    renderList();
    setDownloads(false);
    renderCounts();
    return;
  }
  const ctl = new AbortController();
  inflight = ctl;
  started = performance.now();
  busy(true);
  renderCounts('expanding…');
  try {
    const r = await fetch('/api/expand', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, signal: ctl.signal,
      body: JSON.stringify({ seeds: state.seeds.map(key), accepted: state.accepted.map(key),
                             negative_seeds: state.negatives.map(key), size: state.size, variant: state.variant,
                             cut: state.cutOnly ? 'auto' : 'none' }),
    });
    const j = await r.json();
    if (inflight !== ctl) return;
    if (!r.ok) throw new Error(j.error ? j.error.message : `HTTP ${r.status}`);
    showError('');
    result = j;
    // the panel follows the list: the entity it shows keeps the highlight where it moved to;
    // when it left the list (accepted, rejected), the row now under the highlight is shown
    const kept = shown ? j.entities.findIndex((e) => e.eid === shown.eid) : -1;
    selected = kept >= 0 ? kept : Math.min(selected, j.entities.length - 1);
    renderList();
    setDownloads(true);
    if (shown && selected >= 0) showContexts(j.entities[selected]); // its features against the new seed set
    else if (shown) clearContexts();
  } catch (e) {
    if (e.name === 'AbortError') return;
    showError(e.message);
  } finally {
    if (inflight === ctl) { inflight = null; busy(false); renderCounts(); }
  }
}

// ---- the ranked list (one fragment per result; rows are cheap, no per-row listeners) ----
const figFormat = (v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v));
const ordinal = (n) => `${n}${(n % 100 >= 11 && n % 100 <= 13) ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th'}`;
// The set's members in words, the accepted entities counted as seeds (as the set's name does).
function membersText(r) {
  const n = r.seeds.length + r.accepted.filter((a) => !r.seeds.some((s) => s.eid === a.eid)).length;
  return `${n} seeds`;
}
// A row's reason in plain words: the context features it shares with every seed (or with some),
// the set's heads its definitions share; the raw figures on hover and in the exports.
function reason(e) {
  const parts = [e.shared_all ? `shares ${e.shared_all} context${e.shared_all === 1 ? '' : 's'} with all ${membersText(result)}`
    : e.shared_any ? `shares ${e.shared_any} context${e.shared_any === 1 ? '' : 's'} with some seeds` : 'shares no context with the seeds'];
  if (e.heads && e.heads.length) parts.push(`is a: ${e.heads[0]}`); // the set's best head it holds (all on hover)
  return parts.join('; ');
}
function reasonTitle(e) {
  return [...result.figures.map((f) => `${f} ${figFormat(e[f])}`), `shared_all ${e.shared_all}`, `shared_any ${e.shared_any}`,
    `found ${ordinal(e.order)} by the search, ${ordinal(e.kl_rank)} closest to the set`,
    ...(e.heads && e.heads.length ? [`is a: ${e.heads.join(', ')}`] : [])].join('\n');
}
function renderList() {
  const t0 = performance.now();
  const ol = $('list');
  ol.textContent = '';
  $('start').hidden = !!result;
  $('why-form').hidden = !result;
  document.body.classList.toggle('no-result', !result);
  renderSetName();
  renderCut();
  if (!result) return;
  const cutAt = cutRank();
  const max = result.entities.reduce((m, e) => Math.max(m, e.score || 0), 0) || 1;
  const frag = document.createDocumentFragment();
  result.entities.forEach((e, i) => {
    const li = el('li', 'row');
    li.id = `row-${i}`;
    li.dataset.index = i;
    li.setAttribute('role', 'option');
    const acc = el('button', 'act acc', '✓');
    const rej = el('button', 'act rej', '✗');
    acc.type = rej.type = 'button';
    acc.tabIndex = rej.tabIndex = -1;
    acc.title = `accept ${e.name} (a)`;
    rej.title = `reject ${e.name} (r)`;
    acc.dataset.action = 'accept';
    rej.dataset.action = 'reject';
    const acts = el('span', 'c-act');
    acts.append(acc, rej);
    const bar = el('span', 'bar');
    bar.style.width = `${Math.max(2, (100 * (e.score || 0)) / max).toFixed(1)}%`;
    const score = el('span', 'c-score');
    score.append(bar, el('span', 'num', figFormat(e.score)));
    const figs = el('span', 'c-fig', reason(e));
    figs.title = reasonTitle(e);
    li.append(el('span', 'c-rank', String(e.rank)), acts, el('span', 'c-name', e.name), score, figs,
              el('span', 'c-ment', String(e.mentions)));
    if (i === selected) li.classList.add('selected');
    if (i === cutAt) frag.append(cutLine());
    frag.append(li);
  });
  ol.append(frag);
  document.body.dataset.renderMs = (performance.now() - t0).toFixed(1); // read by the browser test
  document.body.dataset.renders = Number(document.body.dataset.renders || 0) + 1;
}

function select(i, scroll = true) {
  if (!result || !result.entities.length) return;
  i = Math.max(0, Math.min(i, result.entities.length - 1));
  const old = $(`row-${selected}`);
  if (old) old.classList.remove('selected');
  selected = i;
  const li = $(`row-${i}`);
  li.classList.add('selected');
  $('list').setAttribute('aria-activedescendant', li.id);
  if (scroll) li.scrollIntoView({ block: 'nearest' });
}

// ✓ on a row accepts it (it joins the seeds as a ✓ chip: the method searches from it too, and
// it leaves the list); ✗ rejects it (a hard negative: it leaves the list). A chip's × or undo
// takes either back.
function decide(i, action) {
  const e = result && result.entities[i];
  if (!e) return;
  change(() => { (action === 'reject' ? state.negatives : state.accepted).push(ref(e)); });
}

function onListClick(ev) {
  const li = ev.target.closest('li.row');
  if (!li) return;
  const i = Number(li.dataset.index);
  const b = ev.target.closest('button[data-action]');
  if (b) { decide(i, b.dataset.action); return; }
  select(i, false);
  showContexts(result.entities[i]);
}
function onListKey(ev) {
  if (!result || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === 'ArrowDown' || k === 'j') select(selected + 1);
  else if (k === 'ArrowUp' || k === 'k') select(selected - 1);
  else if (k === 'Home') select(0);
  else if (k === 'End') select(result.entities.length - 1);
  else if (k === 'PageDown') select(selected + 15);
  else if (k === 'PageUp') select(selected - 15);
  else if (k === 'a' || k === 'r' || k === 'x') decide(selected, k === 'a' ? 'accept' : 'reject');
  else if (k === 'Enter' && selected >= 0) showContexts(result.entities[selected]);
  else return;
  ev.preventDefault();
}

// What the set looks like: the definition heads its seeds and accepted entities share.
function renderSetName() {
  const p = $('set-name');
  const name = result && result.set_name;
  p.hidden = !name;
  if (!name) return;
  p.textContent = '';
  if (!name.heads.length) { p.append(el('span', 'muted', 'These share no definition head (no “is a …” the seeds agree on).')); return; }
  p.append(el('span', 'set-label', 'These look like: '));
  name.heads.forEach((h, i) => {
    if (i) p.append('; ');
    p.append(el('strong', null, h.head), ` — ${h.seeds}/${h.of_seeds} seeds, ${h.listed} of the top ${h.of_listed}`);
  });
}

// ---- where to cut (docs/cut.md): a line in the list where the method's confidence drops, and
// its curve (each row's -KL against the final set, best rank first) as a small inline SVG ----
function cutRank() { // the row the line goes above, or -1 (no drop inside the list)
  const c = result && result.cut;
  return c && c.dropped && c.above < result.entities.length ? c.above : -1;
}
function cutLine() {
  const li = el('li', 'cut-line', `confidence drops here: the ${result.cut.above} above are the method's confident part`);
  li.setAttribute('role', 'separator');
  return li;
}
function svgEl(tag, attrs) {
  const n = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}
function renderCut() {
  const cut = result && result.cut;
  $('cut-bar').hidden = !cut;
  if (!cut) return;
  const ys = result.entities.map((e) => e.kl_score);
  $('cut-text').textContent = !cut.dropped ? `No drop of confidence in these ${ys.length}.`
    : state.cutOnly ? `Only the ${cut.above} above the cut (confidence drops after rank ${cut.above}).`
      : `Confidence drops after rank ${cut.above} of ${ys.length}.`;
  const svg = $('cut-plot');
  svg.textContent = '';
  if (!ys.length) return;
  const W = 240, H = 48, pad = 3;
  const lo = Math.min(...ys, cut.threshold), hi = Math.max(...ys, cut.threshold);
  const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, ys.length - 1);
  const y = (v) => pad + ((H - 2 * pad) * (hi - v)) / (hi - lo || 1);
  svg.append(svgEl('line', { class: 'cut-threshold', x1: pad, x2: W - pad, y1: y(cut.threshold), y2: y(cut.threshold) }));
  svg.append(svgEl('polyline', { class: 'cut-curve', points: ys.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }));
  if (cut.dropped) {
    const xc = x(Math.min(cut.above, ys.length) - 0.5);
    svg.append(svgEl('line', { class: 'cut-mark', x1: xc, x2: xc, y1: 0, y2: H }));
  }
}

// ---- the start view: the classes the corpus holds, before any seed ----
async function loadClasses() {
  try {
    const r = await fetch('/api/classes');
    const j = await r.json();
    if (!r.ok) throw new Error(j.error.message);
    renderClasses(j);
  } catch (e) {
    $('start-note').textContent = `The classes could not be listed: ${e.message}`;
  }
}
function renderClasses(j) {
  const ol = $('class-list');
  ol.textContent = '';
  $('start-note').textContent = j.classes.length
    ? `${j.classes.length} groups of entities whose definitions call them the same thing, the largest and most consistent first. Start from one, or type your own seeds above.`
    : 'No class found: this corpus has no definitions (“X is a …”, “X : a … who …”) to read them from. Type two or more seeds above.';
  if (j.classes.length && j.classes[0].members.length) $('seed-input').placeholder = `type a name, e.g. ${j.classes[0].members[0].name}`;
  j.classes.forEach((c) => {
    const li = el('li', 'class-item');
    const title = el('span', 'class-head', c.word ? `${c.head} · near “${c.word}”` : c.head);
    li.append(title, el('span', 'class-size', `${c.entities} entities`));
    li.append(el('span', 'class-members', c.members.slice(0, 6).map((m) => m.name).join(', ') + (c.members.length > 6 ? ', …' : '')));
    const go = el('button', 'class-go', 'Start');
    const first = c.members.slice(0, 3);
    go.type = 'button';
    go.title = `start from ${first.map((m) => m.name).join(', ')}`;
    go.addEventListener('click', () => {
      nameHelp(null);
      change(() => { state.seeds = first.map(ref); state.accepted = []; state.negatives = []; });
    });
    li.append(go);
    ol.append(li);
  });
}

// ---- sentences of an entity ----
let contextSeq = 0;
let shown = null;         // the entity whose sentences are open (refreshed when the seeds change)
function clearContexts() {
  contextSeq++;
  shown = null;
  const box = $('detail');
  box.textContent = '';
  box.append(el('p', 'placeholder', 'Click an entity to see the sentences it was found in.'));
}
async function showContexts(e) {
  const seq = ++contextSeq;
  const again = shown !== null && shown.eid === e.eid; // a refresh keeps the old view until the answer
  shown = e;
  const box = $('detail');
  if (!again) {
    box.textContent = '';
    box.append(el('h2', null, e.name), el('p', 'muted', 'loading sentences…'));
  }
  try {
    const p = new URLSearchParams({ limit: 8, features: 10 });
    [...state.seeds, ...state.accepted].forEach((o) => { if (o.eid !== e.eid) p.append('seed', o.eid); });
    const r = await fetch(`/api/entity/${e.eid}/contexts?${p}`);
    const j = await r.json();
    if (seq !== contextSeq) return;
    if (!r.ok) throw new Error(j.error.message);
    box.textContent = '';
    box.append(el('h2', null, j.name));
    const meta = `eid ${j.eid} · ${j.mentions} mentions` + (j.aliases.length ? ` · also: ${j.aliases.join(', ')}` : '');
    box.append(el('p', 'muted', meta));
    if (j.seeds.length) box.append(renderTies(j));
    box.append(el('h3', null, 'Sentences'));
    const ul = el('ul', 'contexts');
    j.contexts.forEach((c) => {
      const li = el('li');
      c.tokens.forEach((t, w) => {
        if (w > 0) li.append(' ');
        li.append(w >= c.start && w <= c.end ? el('mark', null, t) : document.createTextNode(t));
      });
      ul.append(li);
    });
    box.append(ul);
    if (!j.contexts.length) box.append(el('p', 'muted', 'No sentence kept for this entity.'));
  } catch (err) {
    if (seq === contextSeq) { box.textContent = ''; box.append(el('p', 'error', err.message)); }
  }
}

// The context features the entity shares with the seeds (pattern model), best first: what
// each contributes to its mean cosine similarity to the seeds, and how often it was seen.
function renderTies(j, title = 'Why it is here') {
  const sec = el('section', 'ties');
  sec.append(el('h3', null, title));
  sec.append(el('p', 'muted', j.features.length
    ? `similarity to the ${j.seeds.length} seed${j.seeds.length > 1 ? 's' : ''} ${j.similarity.toFixed(3)}, from ${j.shared_features} shared context features; the strongest:`
    : 'It shares no context feature with the seeds.'));
  const ol = el('ol', 'tie-list');
  const top = j.features.length ? j.features[0].contribution : 1;
  j.features.forEach((f) => {
    const li = el('li', `tie ${f.kind}`);
    const bar = el('span', 'tie-bar');
    bar.style.width = `${Math.max(3, (100 * f.contribution) / top).toFixed(0)}%`;
    const seedsText = j.seeds.map((s, k) => `${s.name} ${f.seed_counts[k]}`).join(', ');
    const kindText = { word: 'word near the mention', genus: 'what the definition of the mention calls it', pattern: 'pattern around the mention' };
    li.title = `${kindText[f.kind] || f.kind}; weight ${f.weight}; ` +
      `${(100 * f.contribution / j.similarity).toFixed(1)}% of the similarity; seen with ${seedsText}`;
    li.append(el('span', 'tie-text', f.feature), el('span', 'tie-count', `×${f.count} · ${f.seeds_sharing}/${j.seeds.length} seeds`), bar);
    ol.append(li);
  });
  sec.append(ol);
  return sec;
}

// ---- wiring ----
function render() { renderChips(); renderCounts(); }
document.addEventListener('DOMContentLoaded', () => {
  const input = $('seed-input');
  input.addEventListener('input', () => { clearTimeout(suggestTimer); suggestTimer = setTimeout(suggest, 80); nameHelp(null); });
  input.addEventListener('keydown', onSeedKey);
  input.addEventListener('blur', () => setTimeout(closeSuggestions, 100));
  $('list').addEventListener('click', onListClick);
  $('list').addEventListener('keydown', onListKey);
  $('undo').addEventListener('click', undo);
  document.querySelectorAll('input[name=variant]').forEach((r) =>
    r.addEventListener('change', () => change(() => { state.variant = r.value; })));
  $('size').addEventListener('change', () => change(() => { state.size = Number($('size').value); }));
  $('cut-only').addEventListener('change', () => { state.cutOnly = $('cut-only').checked; run(); });
  $('why-form').addEventListener('submit', (ev) => { ev.preventDefault(); askWhy(); });
  $('why-input').addEventListener('input', () => whyHelp(null));
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target !== input) return; // typing in another field
    const typing = ev.target === input;
    if (ev.key === '/' && !typing) { input.focus(); ev.preventDefault(); }
    else if ((ev.key === 'z' && (ev.ctrlKey || ev.metaKey)) || (ev.key === 'u' && !typing && !ev.ctrlKey)) {
      if (!typing || !input.value) { undo(); ev.preventDefault(); }
    }
  });
  render();
  renderList();
  input.focus();
  loadInfo();
  loadClasses();
});

// What this run can serve: the variants present (others are disabled) and the default one.
async function loadInfo() {
  try {
    const r = await fetch('/api/info');
    const info = await r.json();
    if (!r.ok) throw new Error(info.error.message);
    document.querySelectorAll('input[name=variant]').forEach((radio) => {
      const ok = info.variants.includes(radio.value);
      radio.disabled = !ok;
      radio.parentElement.classList.toggle('unavailable', !ok);
      if (!ok) radio.parentElement.title = 'not available in this run folder';
    });
    state.variant = info.default_variant;
    document.querySelector(`input[name=variant][value="${state.variant}"]`).checked = true;
    $('run-info').textContent = `${info.entities.toLocaleString()} entities`;
    if (info.names) startNamesReview();
  } catch (e) {
    showError(`cannot reach the server: ${e.message}`);
  }
}

// ---- why not X? An entity the user misses from the list: where the expansion on screen puts
// it, the contexts it shares with the seeds and those of the seeds it lacks; one click accepts it.
// A typed name resolves as a seed does: an unknown or ambiguous one shows the closest names.
let whySeq = 0;
function whyHelp(message, names = []) {
  helpLine('why-help', message, names, (e) => { whyHelp(null); showWhy(e); }, (e) => `why not ${e.name} (eid ${e.eid})?`);
}
async function askWhy() {
  const text = $('why-input').value.trim();
  if (!text) return;
  const seq = ++whySeq;
  try {
    const a = await resolveTyped(text);
    if (seq !== whySeq) return;
    if (a.entity) { whyHelp(null); showWhy(a.entity); return; }
    whyHelp(a.message, a.names);
  } catch (e) {
    if (seq === whySeq) whyHelp(e.message);
  }
}
async function showWhy(e) {
  const seq = ++whySeq;
  contextSeq++; // the panel is the answer's now, not an entity's sentences
  shown = null;
  const box = $('detail');
  box.textContent = '';
  box.append(el('h2', null, `Why not ${e.name}?`), el('p', 'muted', 'expanding…'));
  try {
    const p = expansionParams();
    p.set('features', 8);
    const r = await fetch(`/api/entity/${e.eid}/why?${p}`);
    const j = await r.json();
    if (seq !== whySeq) return;
    if (!r.ok) throw new Error(j.error ? j.error.message : `HTTP ${r.status}`);
    renderWhy(j);
    if (j.status === 'listed') select(j.rank - 1);
  } catch (err) {
    if (seq === whySeq) { box.textContent = ''; box.append(el('p', 'error', err.message)); }
  }
}
function renderWhy(j) {
  const box = $('detail');
  box.textContent = '';
  box.append(el('h2', null, `Why not ${j.name}?`));
  const fig = j.status === 'listed' ? `rank ${j.rank} · score ${figFormat(j.score)} · kl_score ${figFormat(j.kl_score)}`
    : j.status === 'outside' ? `rank ≈ ${j.rank} (not in the top ${j.listed}) · kl_score ${figFormat(j.kl_score)}` : j.status;
  const figs = el('p', 'why-figures', fig);
  figs.title = `search_rank ${j.search_rank}\nkl_rank ${j.kl_rank}\nlisted −KL from ${j.list_kl_score.map(figFormat).join(' to ')}\n` +
    `shared_all ${j.shared_all} · shared_features ${j.shared_features}\nselected ${j.selected_features} · held ${j.selected_held}`;
  box.append(figs, el('p', 'why-summary', j.summary));
  if (j.status !== 'seed' && j.status !== 'accepted') {
    const acc = el('button', 'why-accept', `✓ Accept ${j.name}`);
    acc.type = 'button';
    acc.title = j.status === 'rejected' ? 'take it back from the rejected and accept it' : 'it joins the accepted entities';
    acc.addEventListener('click', () => acceptWhy(j));
    box.append(acc);
  }
  box.append(renderTies({ ...j, seeds: j.members }, 'What it shares with the seeds'));
  const sec = el('section', 'ties missing');
  sec.append(el('h3', null, 'What the seeds share that it lacks'));
  sec.append(el('p', 'muted', j.missing.length
    ? `${j.selected_features - j.selected_held} of the ${j.selected_features} contexts the seeds share most; the strongest:`
    : 'It holds every context the seeds share most.'));
  const ol = el('ol', 'tie-list');
  j.missing.forEach((f) => {
    const li = el('li', `tie ${f.kind}`);
    li.title = `weight ${f.weight}; seen with ${j.members.map((s, k) => `${s.name} ${f.seed_counts[k]}`).join(', ')}`;
    li.append(el('span', 'tie-text', f.feature), el('span', 'tie-count', `${f.seeds_sharing}/${j.members.length} seeds`));
    ol.append(li);
  });
  sec.append(ol);
  box.append(sec);
}
function acceptWhy(j) {
  const e = { eid: j.eid, name: j.name };
  $('why-input').value = '';
  change(() => {
    state.negatives = state.negatives.filter((o) => o.eid !== e.eid);
    state.accepted.push(e);
  });
  const box = $('detail');
  box.textContent = '';
  box.append(el('p', 'placeholder', `${j.name} is accepted: it joins the set (the ✓ chip above) and the list is computed again.`));
}

// ---- review the discovered names (serve over a dataset of annotate --discover): the names
// file's entities with their mentions and contexts; delete, rename and merge queue edits that
// Save writes (POST /api/names/edit); Rebuild makes a new dataset and index from the saved file
// (POST /api/rebuild) and shows how far it is (GET /api/rebuild) until it says what to serve.
const names = { q: '', offset: 0, limit: 50, total: 0, pending: [] };
let namesSeq = 0, rebuildTimer = 0;

async function loadNames() {
  const seq = ++namesSeq;
  const p = new URLSearchParams({ q: names.q, offset: names.offset, limit: names.limit });
  const r = await fetch(`/api/names?${p}`);
  const j = await r.json();
  if (!r.ok || seq !== namesSeq) return r.ok;
  names.total = j.total;
  $('names-file').textContent = `${j.file} · ${j.entities.toLocaleString()} entities`;
  const last = Math.min(names.offset + j.names.length, j.total);
  $('names-count').textContent = j.total ? `${names.offset + 1}–${last} of ${j.total.toLocaleString()}` : 'no match';
  $('names-prev').disabled = names.offset === 0;
  $('names-next').disabled = last >= j.total;
  renderNames(j.names);
  return true;
}

function queueEdit(edit) {
  names.pending.push(edit);
  renderPending();
}
function editText(e) {
  if (e.op === 'delete') return `delete “${e.name}”`;
  if (e.op === 'rename') return `rename “${e.name}” to “${e.to}”`;
  return `merge “${e.name}” into “${e.into}”`;
}
function renderPending() {
  const ol = $('names-pending');
  ol.textContent = '';
  names.pending.forEach((e, i) => {
    const li = el('li', '', editText(e));
    const x = el('button', 'chip-x', '×');
    x.type = 'button';
    x.title = 'drop this edit';
    x.addEventListener('click', () => { names.pending.splice(i, 1); renderPending(); });
    li.append(' ', x);
    ol.append(li);
  });
  $('names-save').disabled = names.pending.length === 0;
  document.querySelectorAll('#names-rows tr').forEach((tr) =>
    tr.classList.toggle('pending', names.pending.some((e) => e.op === 'delete' && e.name === tr.dataset.name)));
}
// An inline form in the row's edit cell: one name (the new name, or the entity to merge into).
function rowForm(cell, placeholder, value, done) {
  const form = el('form', 'n-form');
  const input = el('input');
  input.placeholder = placeholder;
  input.value = value;
  input.setAttribute('aria-label', placeholder);
  const ok = el('button', '', 'OK');
  ok.type = 'submit';
  form.append(input, ok);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = input.value.trim();
    if (v) done(v);
    form.remove();
  });
  cell.append(form);
  input.focus();
  input.select();
}
function renderNames(list) {
  const body = $('names-rows');
  body.textContent = '';
  list.forEach((n) => {
    const tr = el('tr');
    tr.dataset.name = n.name;
    tr.append(el('td', 'n-name', n.name));
    const rule = (a) => (n.rules.find((x) => x.alias === a) || {}).rule;
    tr.append(el('td', 'n-alias', n.aliases.map((a) => (rule(a) ? `${a} (${rule(a)})` : a)).join(', ')));
    tr.append(el('td', 'n-ment', n.mentions === null ? '' : n.mentions.toLocaleString()));
    const ctx = el('td', 'n-ctx');
    n.contexts.forEach((c) => ctx.append(el('div', '', c)));
    tr.append(ctx);
    const cell = el('td', 'n-edit');
    const button = (label, title, fn) => {
      const b = el('button', `n-${label}`, label);
      b.type = 'button';
      b.title = title;
      b.addEventListener('click', fn);
      cell.append(b, ' ');
    };
    button('rename', `give ${n.name} another name (${n.name} stays an alias)`,
      () => rowForm(cell, 'new name', n.name, (to) => queueEdit({ op: 'rename', name: n.name, to })));
    button('merge', `make ${n.name} an alias of another entity`,
      () => rowForm(cell, 'merge into (a name)', '', (into) => queueEdit({ op: 'merge', name: n.name, into })));
    button('delete', `${n.name} is no entity`, () => queueEdit({ op: 'delete', name: n.name }));
    tr.append(cell);
    body.append(tr);
  });
  renderPending();
}
function namesMessage(text, bad) {
  $('names-msg').textContent = text;
  $('names-msg').classList.toggle('bad', !!bad);
}
async function saveNames() {
  $('names-save').disabled = true;
  const r = await fetch('/api/names/edit', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ edits: names.pending }),
  });
  const j = await r.json();
  if (!r.ok) {
    namesMessage(`not saved: ${j.error.message}`, true);
    $('names-save').disabled = false;
    return;
  }
  names.pending = [];
  namesMessage(`saved ${j.saved} edit(s) to ${j.file} (the previous version: ${j.backup}); rebuild to use them`);
  await loadNames();
}
function showRebuild(j) {
  $('rebuild-progress').hidden = j.state === 'idle';
  $('rebuild-bar').value = j.fraction;
  const step = j.stage ? `${j.stage} (${j.stages.indexOf(j.stage) + 1} of ${j.stages.length})` : '';
  if (j.state === 'running') $('rebuild-status').textContent = `rebuilding: ${step}, ${j.elapsed_s.toFixed(0)} s`;
  else if (j.state === 'done') $('rebuild-status').textContent = `done: ${j.dataset} and ${j.run}. Serve the new names with: ${j.restart}`;
  else if (j.state === 'failed') $('rebuild-status').textContent = `failed at ${step}: ${j.error} (log: ${j.log})`;
  $('rebuild-status').classList.toggle('bad', j.state === 'failed');
  $('names-rebuild').disabled = j.state === 'running';
  $('names-save').disabled = j.state === 'running' || names.pending.length === 0;
}
async function pollRebuild() {
  clearTimeout(rebuildTimer);
  const r = await fetch('/api/rebuild');
  const j = await r.json();
  if (!r.ok) return;
  showRebuild(j);
  if (j.state === 'running') rebuildTimer = setTimeout(pollRebuild, 500);
}
async function startRebuild() {
  if (names.pending.length) { namesMessage('save the edits first (or drop them): a rebuild reads the saved file', true); return; }
  const r = await fetch('/api/rebuild', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  const j = await r.json();
  if (!r.ok) { namesMessage(`no rebuild: ${j.error.message}`, true); return; }
  namesMessage('');
  showRebuild(j);
  pollRebuild();
}
function toggleNames() {
  const view = $('names-view');
  view.hidden = !view.hidden;
  $('names-toggle').setAttribute('aria-expanded', String(!view.hidden));
  if (!view.hidden) $('names-q').focus();
}
// A discovered dataset (GET /api/info says so): the review is offered.
async function startNamesReview() {
  let q = 0;
  $('names-q').addEventListener('input', () => {
    clearTimeout(q);
    q = setTimeout(() => { names.q = $('names-q').value; names.offset = 0; loadNames(); }, 120);
  });
  $('names-prev').addEventListener('click', () => { names.offset = Math.max(0, names.offset - names.limit); loadNames(); });
  $('names-next').addEventListener('click', () => { names.offset += names.limit; loadNames(); });
  $('names-save').addEventListener('click', saveNames);
  $('names-rebuild').addEventListener('click', startRebuild);
  $('names-toggle').addEventListener('click', toggleNames);
  if (await loadNames()) {
    $('names-toggle').hidden = false;
    pollRebuild();
  }
}
