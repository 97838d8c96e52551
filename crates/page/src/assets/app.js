// The Ordo rules judge: a board to click, verdicts from /api/explain, shareable links.
// Plain JavaScript, no build step. The answers (and the board, the SVG of `ordo render --svg`)
// come from the server's API or, in the static site, from the WebAssembly module;
// this script adds the selection, the legal targets and the keyboard cursor on top of it.
'use strict';

const STARTS = {
  '10x8': '2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2',
  '8x8': '1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1',
};
const SVG_NS = 'http://www.w3.org/2000/svg';

const state = {
  position: '',     // the position being judged, canonical notation
  board: null,      // parsed: {cols, rows, cells: {sq: 'W'|'B'}, side: 'w'|'b', variant}
  shown: null,      // parsed board on display (after step 1 while a second step is chosen)
  legal: [],        // legal moves of `position`, canonical notation
  steps: [],        // steps proposed so far (one while the second Ordo X step is chosen)
  sel: null,        // {from, other} selected piece, or ordo ends
  ordoMode: false,  // the next own piece clicked is the ordo's other end
  editing: false,
  svgText: '',      // the diagram on display, as the answer gave it (fitted again on a turn)
  edited: false,    // squares changed since editing began
  judged: false,    // a verdict is on display
  cursor: 'a1',
  frames: [],       // the boards of the verdict: before, then each step, shown rather than listed
  frame: 0,         // the board of `frames` on display
  groups: [],       // groups outlined on the board: [{role, squares}]
};

const $ = (id) => document.getElementById(id);

// ---- Notation helpers ------------------------------------------------------------------------

function sqName(c, r) { return String.fromCharCode(97 + c) + (r + 1); }
function sqParse(s) {
  const m = /^([a-p])(\d{1,2})$/.exec(s);
  return m ? { c: m[1].charCodeAt(0) - 97, r: Number(m[2]) - 1 } : null;
}

function parsePosition(text) {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 3 || !/^[wb]$/.test(parts[1]) || !/^(classic|x)$/.test(parts[2])) return null;
  const rowsText = parts[0].split('/');
  const rows = rowsText.length;
  const cells = {};
  let cols = null;
  for (let i = 0; i < rows; i++) {
    const r = rows - 1 - i;
    let c = 0;
    for (const m of rowsText[i].matchAll(/(\d+)|([WB])|(.)/g)) {
      if (m[3]) return null;
      if (m[1]) { c += Number(m[1]); continue; }
      cells[sqName(c, r)] = m[2];
      c += 1;
    }
    if (cols === null) cols = c;
    if (c !== cols) return null;
  }
  if (cols < 2 || cols > 16 || rows < 2 || rows > 16) return null;
  return { cols, rows, cells, side: parts[1], variant: parts[2] };
}

function formatPosition(b) {
  const rows = [];
  for (let r = b.rows - 1; r >= 0; r--) {
    let line = '';
    let empty = 0;
    for (let c = 0; c < b.cols; c++) {
      const p = b.cells[sqName(c, r)];
      if (!p) { empty++; continue; }
      if (empty) { line += empty; empty = 0; }
      line += p;
    }
    if (empty) line += empty;
    rows.push(line);
  }
  return rows.join('/') + ' ' + b.side + ' ' + b.variant;
}

// A step's geometry: {ordo, from, to, ends, dc, dr, keep}; null if unreadable.
function parseStep(text) {
  const m = /^([a-p]\d{1,2})(?::([a-p]\d{1,2}))?([-x])([a-p]\d{1,2})(?:\/([a-p]\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const a = sqParse(m[1]);
  const t = sqParse(m[4]);
  return {
    ordo: !!m[2], from: m[1], to: m[4], ends: m[2] ? [m[1], m[2]] : [m[1]],
    dc: t.c - a.c, dr: t.r - a.r, keep: m[5] || null,
  };
}

// A key equal for two spellings of the same step (ordo ends in any order, keep ignored).
function stepKey(text) {
  const s = parseStep(text);
  if (!s) return text;
  return (s.ordo ? 'o:' : 's:') + s.ends.slice().sort().join('+') + ':' + s.dc + ',' + s.dr;
}

function shift(sq, dc, dr) {
  const p = sqParse(sq);
  return sqName(p.c + dc, p.r + dr);
}

// ---- Answers: the server's API, or the WebAssembly module of the static site ----------------

// `server` under `ordo serve`; `wasm` in the static site (ordo site DIR), where the page judges
// in the browser through crates/wasm: the same answers, routes and errors as the API.
const BACKEND = (document.querySelector('meta[name="ordo-backend"]') || {}).content || 'server';

let wasmModule = null;

function loadWasm() {
  if (!wasmModule) {
    wasmModule = fetch('assets/ordo.wasm')
      .then((res) => {
        if (!res.ok) throw new Error(`cannot load assets/ordo.wasm (HTTP ${res.status})`);
        return res.arrayBuffer();
      })
      .then((bytes) => WebAssembly.instantiate(bytes, {}))
      .then((m) => m.instance.exports);
  }
  return wasmModule;
}

// One request to the module: the target's bytes in its memory, the reply read back.
async function wasmRequest(target) {
  const w = await loadWasm();
  const bytes = new TextEncoder().encode(target);
  const ptr = w.ordo_alloc(bytes.length);
  new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
  const status = w.ordo_request(ptr, bytes.length);
  const body = new TextDecoder().decode(new Uint8Array(w.memory.buffer, w.ordo_reply_ptr(), w.ordo_reply_len()));
  return { ok: status >= 200 && status < 300, json: body.startsWith('{') || body.startsWith('['), body };
}

// `remote`: a site written by `ordo site DIR --api URL` asks the `ordo serve` at URL.
const API_BASE = BACKEND === 'remote'
  ? ((document.querySelector('meta[name="ordo-api"]') || {}).content || '') : '';

async function serverRequest(target) {
  // Relative to the page, so that a page served under a path prefix asks its own server.
  const res = await fetch(API_BASE + target.slice(1));
  const type = res.headers.get('content-type') || '';
  return { ok: res.ok, json: type.includes('json'), body: await res.text() };
}

// The endgame table files the static site ships (tables/index.json, written by `ordo site DIR
// --tables TDIR`): a Set of names, empty when it ships none.
let tableIndex = null;

function shippedTables() {
  if (!tableIndex) {
    tableIndex = fetch('tables/index.json')
      .then((res) => (res.ok ? res.json() : { files: [] }))
      .then((j) => new Set(j.files || []), () => new Set());
  }
  return tableIndex;
}

// Give the module the shipped table files a probe of `position` needs that it lacks (it
// names them; each is fetched once, and checked by the module before its values are used).
async function fetchTables(position) {
  const shipped = await shippedTables();
  const need = await api('/api/tables', { position });
  const w = await loadWasm();
  await Promise.all(need.files.filter((n) => shipped.has(n)).map(async (n) => {
    const res = await fetch('tables/' + n);
    if (!res.ok) throw new Error(`cannot load tables/${n} (HTTP ${res.status})`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const name = new TextEncoder().encode(n);
    const np = w.ordo_alloc(name.length);
    new Uint8Array(w.memory.buffer, np, name.length).set(name);
    const bp = w.ordo_alloc(bytes.length);
    new Uint8Array(w.memory.buffer, bp, bytes.length).set(bytes);
    w.ordo_add_table(np, name.length, bp, bytes.length);
  }));
  return shipped.size > 0;
}

// Why the page cannot ask for answers at all (the module or the server out of reach), in
// words that say what to do; never a fault of the position. Opened from disk (file://), a
// browser refuses to let the page load its module or ask a server: it must be served over HTTP.
function unreachable(e) {
  const message = window.location.protocol === 'file:'
    ? 'this page was opened from a file, and browsers do not let such a page load its judge. '
      + 'Serve its folder over HTTP instead, for example with '
      + '"python3 -m http.server --bind 127.0.0.1 --directory FOLDER", then open http://127.0.0.1:8000/'
    : `the judge cannot be reached (${e.message}); check the connection and reload the page`;
  const err = new Error(message);
  err.where = 'page';
  err.unreachable = true;
  return err;
}

async function api(path, params) {
  const target = path + '?' + new URLSearchParams(params).toString();
  let reply;
  try {
    reply = BACKEND === 'wasm' ? await wasmRequest(target) : await serverRequest(target);
  } catch (e) {
    throw unreachable(e);
  }
  const body = reply.json ? JSON.parse(reply.body) : reply.body;
  if (!reply.ok) {
    const err = new Error(body.error || String(body));
    err.where = body.where || '';
    throw err;
  }
  return body;
}

// The address of a verdict for anyone: the link the answer gives when it is absolute (`ordo
// serve --public-url`), else this page's own address with the link's query.
function shareUrl(link) {
  if (/^https?:/.test(link)) return link;
  const query = link.slice(link.indexOf('?'));
  return window.location.origin + window.location.pathname + query;
}

// A clause's page: the answers name `/rules#ID`; the rules page lies beside this one.
function rulesHref(url) { return url.replace(/^\//, ''); }

// ---- Board drawing ---------------------------------------------------------------------------

function showSvg(svgText) {
  state.svgText = svgText;
  const board = $('board');
  board.innerHTML = svgText.replace(/^<\?xml[^>]*>\s*/, '');
  const svg = board.querySelector('svg');
  if (svg) {
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('aria-hidden', 'true');
    fitBoard(svg);
  }
  decorate();
}

// The board alone, scaled to the panel's width with no sideways scrolling, on a phone too:
// the home-row labels and the caption beside and below it are dropped (the legend under the
// board says what the bands are), the row numbers moved close to the board. On a 390 px phone
// an 8-wide board keeps squares of at least 44 CSS px; a board wider than tall (10x8) is
// turned a quarter clockwise on a portrait phone, so its 8 rows span the width (see turnBoard).
const PORTRAIT = window.matchMedia('(max-width: 600px) and (orientation: portrait)');

function fitBoard(svg) {
  const frame = svg.querySelector('rect.frame');
  if (!frame || !svg.querySelector('rect.square')) return;
  const [, , w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(frame.getAttribute(a)));
  if (PORTRAIT.matches && w > h) {
    svg.querySelectorAll('text.home-row-label, text.caption').forEach((t) => t.remove());
    const [x, y] = ['x', 'y'].map((a) => Number(frame.getAttribute(a)));
    turnBoard(svg, { x, y, w, h });
    return;
  }
  cropToBoard(svg);
}

// The board and its coordinates only: the labels and caption beside and below it dropped, the
// row numbers close to the board, the drawing cut to them (the main board, a tie's previews).
function cropToBoard(svg) {
  const frame = svg.querySelector('rect.frame');
  if (!frame) return;
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.querySelectorAll('text.home-row-label, text.caption').forEach((t) => t.remove());
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(frame.getAttribute(a)));
  svg.querySelectorAll('text.coord.row').forEach((t) => t.setAttribute('x', x - 8));
  const left = Math.max(0, x - 16);
  const top = Math.max(0, y - 4);
  svg.setAttribute('viewBox', `${left} ${top} ${x + w + 2 - left} ${y + h + 24 - top}`);
}

// The board turned a quarter clockwise: column a on top, row 1 on the left (White moves
// rightwards), a point (px, py) of the diagram drawn at (-py, px). The squares keep their
// names, so clicks and overlays are unchanged (overlays go into the turned group: boardLayer);
// the arrow keys follow the screen (onBoardKey). The labels stay upright, outside the turn:
// row numbers above the board (height, not width), column letters inside the left-hand squares.
function turnBoard(svg, f) {
  const turned = document.createElementNS(SVG_NS, 'g');
  turned.setAttribute('class', 'turned');
  turned.setAttribute('transform', 'rotate(90)');
  const labels = [...svg.querySelectorAll('text.coord')];
  labels.forEach((t) => t.remove());
  while (svg.firstChild) turned.appendChild(svg.firstChild);
  svg.appendChild(turned);
  const cell = f.h / Math.max(1, labels.filter((t) => t.classList.contains('row')).length);
  for (const t of labels) {
    const row = t.classList.contains('row');
    const x = Number(t.getAttribute('x'));
    const y = Number(t.getAttribute('y'));
    // A row label sat at the row's centre height (+5 for its baseline), a column letter at the column's centre.
    t.setAttribute('x', row ? -(y - 5) : -(f.y + f.h) + 3);
    t.setAttribute('y', row ? f.x - 5 : x - cell / 2 + 12);
    t.setAttribute('font-size', row ? 14 : 17);
    t.setAttribute('text-anchor', row ? 'middle' : 'start');
    // A column letter sits in a square's corner, where a piece may reach: a light halo keeps
    // it readable over a dark piece or square.
    if (!row) t.setAttribute('class', `${t.getAttribute('class')} in-square`);
    svg.appendChild(t);
  }
  svg.setAttribute('viewBox', `${-(f.y + f.h) - 2} ${f.x - 22} ${f.h + 4} ${f.w + 24}`);
  svg.setAttribute('data-turned', 'yes');
}

// A phone turned between portrait and landscape: the same diagram fitted again (while editing
// squares the drawn board holds the edits, so it stays as it is until editing is done).
PORTRAIT.addEventListener('change', () => { if (state.svgText && !state.editing) showSvg(state.svgText); });

// Where overlays and edited pieces go: the turned group of a turned board, else the diagram.
function boardLayer(svg) {
  return svg.querySelector('g.turned') || svg;
}

async function drawBoard(position, move) {
  state.groups = [];
  const params = { position };
  if (move) params.move = move;
  showSvg(await api('/api/board', params));
}

function squareRect(sq) {
  return $('board').querySelector(`rect.square[data-square="${sq}"]`);
}

function overlayShape(group, sq, kind) {
  const rect = squareRect(sq);
  if (!rect) return;
  const x = Number(rect.getAttribute('x'));
  const y = Number(rect.getAttribute('y'));
  const w = Number(rect.getAttribute('width'));
  let el;
  if (kind === 'hint' || kind === 'hint-capture') {
    el = document.createElementNS(SVG_NS, 'circle');
    el.setAttribute('cx', x + w / 2);
    el.setAttribute('cy', y + w / 2);
    el.setAttribute('r', kind === 'hint' ? w / 7 : w / 2 - 3);
  } else {
    el = document.createElementNS(SVG_NS, 'rect');
    const inset = kind === 'cursor' ? 2 : 3;
    el.setAttribute('x', x + inset);
    el.setAttribute('y', y + inset);
    el.setAttribute('width', w - 2 * inset);
    el.setAttribute('height', w - 2 * inset);
    el.setAttribute('rx', 4);
  }
  el.setAttribute('class', 'overlay ' + kind);
  el.setAttribute('data-square', sq);
  group.appendChild(el);
}

// The groups that decide a verdict, each outlined square by square in its role's colour
// (`split` and `left` groups in turns of four colours).
function drawGroups(g) {
  state.groups.forEach((group, i) => {
    const cls = group.role === 'split' || group.role === 'left' ? `${group.role}-${i % 4}` : group.role;
    for (const sq of group.squares) {
      overlayShape(g, sq, 'group');
      const shape = g.lastChild;
      if (!shape || shape.getAttribute('data-square') !== sq) continue;
      shape.setAttribute('class', `overlay group ${cls}`);
      shape.setAttribute('data-role', group.role);
      shape.setAttribute('data-group', String(i));
    }
  });
}

// Selection, legal targets and the keyboard cursor, drawn over the server's SVG.
function decorate() {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  svg.querySelectorAll('g.overlays').forEach((g) => g.remove());
  const g = document.createElementNS(SVG_NS, 'g');
  g.setAttribute('class', 'overlays');
  boardLayer(svg).appendChild(g);
  drawGroups(g);
  if (state.sel) {
    overlayShape(g, state.sel.from, 'selected');
    if (state.sel.other) overlayShape(g, state.sel.other, 'selected');
    for (const t of legalTargets()) {
      overlayShape(g, t, state.shown && state.shown.cells[t] ? 'hint-capture' : 'hint');
    }
  }
  if ($('board').matches(':focus-visible')) overlayShape(g, state.cursor, 'cursor');
  const mark = (sq) => { const r = squareRect(sq); if (r) r.setAttribute('data-target', 'yes'); };
  svg.querySelectorAll('rect.square[data-target]').forEach((r) => r.removeAttribute('data-target'));
  if (state.sel) legalTargets().forEach(mark);
}

// The steps available now: first steps of legal moves, or second steps after the chosen first.
function availableSteps() {
  const out = [];
  for (const mv of state.legal) {
    const parts = mv.split(',');
    if (state.steps.length === 0) out.push(parts[0]);
    else if (parts.length === 2 && stepKey(parts[0]) === stepKey(state.steps[0])) out.push(parts[1]);
  }
  return out;
}

// Squares the selected piece (or ordo) may legally go to.
function legalTargets() {
  const sel = state.sel;
  if (!sel || state.ordoMode) return [];
  const targets = new Set();
  for (const text of availableSteps()) {
    const s = parseStep(text);
    if (!s) continue;
    if (!sel.other && !s.ordo && s.from === sel.from) targets.add(s.to);
    if (sel.other && s.ordo && s.ends.includes(sel.from) && s.ends.includes(sel.other)) {
      targets.add(shift(sel.from, s.dc, s.dr));
    }
  }
  return [...targets];
}

// ---- Proposing a move by clicks --------------------------------------------------------------

function say(text) { $('prompt').textContent = text; }

function sideName(b) { return b.side === 'w' ? 'White' : 'Black'; }
function mover(b) { return b.side === 'w' ? 'W' : 'B'; }

function setChoices(buttons) {
  const box = $('choices');
  box.replaceChildren();
  for (const [label, action, cls] of buttons) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener('click', action);
    box.appendChild(b);
  }
}

function selectionChoices() {
  const buttons = [];
  if (state.sel && !state.sel.other) {
    buttons.push([state.ordoMode ? 'Ordo: click its other end…' : 'Ordo', toggleOrdo, 'ordo-button']);
  }
  if (state.sel || state.steps.length) buttons.push(['Cancel', resetProposal]);
  if (state.steps.length === 1) {
    buttons.unshift([`Judge ${state.steps[0]} alone`, () => judge(state.steps[0])]);
  }
  setChoices(buttons);
}

function toggleOrdo() {
  state.ordoMode = !state.ordoMode;
  say(state.ordoMode
    ? `Ordo from ${state.sel.from}: click the piece at the other end of the line.`
    : `Selected ${state.sel.from}. Click a target square.`);
  selectionChoices();
  decorate();
}

// ---- The boards of a verdict: before, after each step -----------------------------------------

function setFrames(frames, at) {
  state.frames = frames;
  $('frames').hidden = frames.length < 2;
  showFrame(at);
}

function showFrame(i) {
  if (!state.frames.length) return;
  state.frame = Math.max(0, Math.min(state.frames.length - 1, i));
  const f = state.frames[state.frame];
  showSvg(f.svg);
  state.groups = f.groups || [];
  decorate();
  $('frame-label').textContent = `${state.frame + 1}/${state.frames.length}: ${f.label}`;
  $('frame-back').disabled = state.frame === 0;
  $('frame-next').disabled = state.frame === state.frames.length - 1;
}

function clearFrames() {
  state.frames = [];
  state.groups = [];
  $('frames').hidden = true;
}

// `[` and `]` step through the boards of a verdict, wherever the focus is but in a field.
function onFrameKey(ev) {
  if (!state.frames.length || ev.target.closest('input, select, textarea')) return;
  if (ev.key === '[') showFrame(state.frame - 1);
  else if (ev.key === ']') showFrame(state.frame + 1);
  else return;
  ev.preventDefault();
}

// Back to the board of the position, nothing selected.
async function resetProposal() {
  clearFrames();
  state.steps = [];
  state.sel = null;
  state.ordoMode = false;
  state.shown = state.board;
  state.judged = false;
  setChoices([]);
  say(state.board ? `${sideName(state.board)} to move: click a piece.` : '');
  await drawBoard(state.position);
}

async function clickSquare(sq) {
  if (state.editing) return editSquare(sq);
  if (!state.board) return;
  if (state.judged) await resetProposal();
  const b = state.shown;
  const mine = b.cells[sq] === mover(b);
  if (!state.sel) {
    if (!mine) {
      say(`${sq} holds no ${sideName(b)} piece: click one of ${sideName(b)}'s pieces first.`);
      return;
    }
    state.sel = { from: sq, other: null };
    const n = legalTargets().length;
    say(`Selected ${sq}: ${n ? n + ' legal target' + (n === 1 ? '' : 's') + ' marked' : 'no legal single-piece target'}. Click a target square, or Ordo to move a line of pieces.`);
  } else if (state.ordoMode) {
    if (sq === state.sel.from) { toggleOrdo(); return; }
    state.sel.other = sq;
    state.ordoMode = false;
    const n = legalTargets().length;
    say(n
      ? `Ordo ${state.sel.from}–${sq}: click the square where ${state.sel.from} lands (${n} legal landing square${n === 1 ? '' : 's'} marked).`
      : `Ordo ${state.sel.from}–${sq}: no legal landing square (no ordo of these pieces is legal here); click a square anyway to hear why, or Cancel.`);
  } else if (sq === state.sel.from && !state.sel.other) {
    state.sel = null;
    say('Selection cleared. Click a piece.');
  } else {
    const step = makeStep(state.sel, sq, b);
    state.sel = null;
    setChoices([]);
    decorate();
    return proposeStep(step);
  }
  selectionChoices();
  decorate();
}

function makeStep(sel, target, b) {
  if (sel.other) return `${sel.from}:${sel.other}-${target}`;
  const opponent = mover(b) === 'W' ? 'B' : 'W';
  return sel.from + (b.cells[target] === opponent ? 'x' : '-') + target;
}

// A clicked step: ask which group stays on a tie (ORDOX-4.2), wait for the second step of an
// Ordo X turn after a sideways first step (ORDOX-3.1), else judge the move.
async function proposeStep(step) {
  const base = state.steps.length ? formatPosition(state.shown) : state.position;
  const s = parseStep(step);
  if (state.board.variant === 'x' && s) {
    let info;
    try {
      info = await api('/api/step', { position: base, step });
    } catch (e) {
      return showError(e);
    }
    if (info.tied_groups.length > 1 && !s.keep) return chooseGroup(step, info.tied_groups, info.tie_choices);
    if (state.steps.length === 0 && s.dr === 0) return awaitSecondStep(step, info.after);
  }
  const move = [...state.steps, step].join(',');
  return judge(move);
}

// A tie (ORDOX-4.2): the tied groups outlined on the board, and beside each choice the board
// after it, before the user picks.
function chooseGroup(step, groups, choices) {
  say(`${step} leaves the opponent in ${groups.length} equally large groups: which group stays (ORDOX-4.2)? Each choice shows the board after it.`);
  const buttons = groups.map((g) => [
    `Keep ${g.join(' ')}`,
    () => { setChoices([]); proposeStep(`${step}/${g[0]}`); },
    'group-button',
  ]);
  buttons.push(['Cancel', resetProposal]);
  setChoices(buttons);
  state.groups = groups.map((squares) => ({ role: 'tied', squares }));
  decorate();
  const box = $('choices');
  (choices || []).forEach((c, i) => {
    const button = box.children[i];
    if (!button) return;
    const fig = el('figure', { class: 'tie-preview', 'data-keep': c.keep });
    const board = el('div', { class: 'preview-board', 'aria-hidden': 'true' });
    board.innerHTML = c.svg.replace(/^<\?xml[^>]*>\s*/, '');
    // As on the main board, the bands need no label beside a small board: the legend says
    // what they are; the caption says in words what the board shows.
    const svg = board.querySelector('svg');
    if (svg) cropToBoard(svg);
    box.replaceChild(fig, button);
    const kept = c.group.length === 1 ? `the piece on ${c.keep}` : `the group of ${c.group.join(' ')}`;
    fig.append(el('figcaption', { class: 'preview-caption' }, `After ${c.step}: ${kept} stays`), board, button);
  });
  // The question and its previews in view, the verdict panel beside them.
  box.scrollIntoView({ block: 'nearest' });
}

async function awaitSecondStep(step, afterText) {
  state.steps = [step];
  state.shown = parsePosition(afterText) || state.board;
  await drawBoard(afterText, step);
  const n = availableSteps().length;
  say(`Step 1: ${step} (sideways). Now the second step, forward or diagonally forward: click a piece and its target${n ? '' : ' (no legal second step exists after this one)'}.`);
  selectionChoices();
}

// ---- Verdicts --------------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

// A source as the API gives it ("author, title, date, section …, https://…"): the text, and
// the address as a link to where the document is published.
function sourceItem(s) {
  const at = s.lastIndexOf(', https://');
  if (at < 0) return el('li', {}, s);
  const addr = s.slice(at + 2);
  return el('li', {}, s.slice(0, at) + ' ', el('a', { href: addr, rel: 'noopener' }, addr));
}

function clauseItem(c) {
  const head = el('h3', {},
    el('a', { class: 'clause-id', href: rulesHref(c.url) }, c.id), ' ', c.title);
  const item = el('li', { class: 'clause', 'data-clause': c.id }, head);
  if (c.detail) item.append(el('p', { class: 'detail' }, c.detail));
  item.append(el('blockquote', {}, c.text));
  if (c.sources.length) {
    const list = el('ul', {}, ...c.sources.map(sourceItem));
    item.append(el('details', { class: 'sources' },
      el('summary', {}, `Sources (${c.sources.length}) · ${kindWords(c.kind)}`), list));
  }
  return item;
}

// The clause's kind as a reader understands it.
function kindWords(kind) {
  return { source: 'stated in the rules', figure: 'from a figure', ruling: 'our ruling' }[kind] || kind;
}

function effectsList(e) {
  const none = (v) => (v.length ? v.join(' ') : 'none');
  const rows = [
    ['Moves', e.moved.map(([f, t]) => `${f}→${t}`).join(' ')],
    ['Captures', none(e.captured)],
    ['Removes', none(e.removed)],
    ['Status after', e.status],
  ];
  const dl = el('dl', { class: 'facts' });
  for (const [k, v] of rows) dl.append(el('dt', {}, k), el('dd', {}, v));
  return dl;
}

function shareBox(link) {
  const url = shareUrl(link);
  const input = el('input', { id: 'share-link', readonly: '', value: url, 'aria-label': 'Shareable link' });
  const button = el('button', { type: 'button', id: 'copy-link' }, 'Copy link');
  const status = el('span', { class: 'copied', role: 'status' });
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch (_) {
      input.select();
      document.execCommand('copy');
    }
    status.textContent = 'Copied';
    setTimeout(() => { status.textContent = ''; }, 2000);
  });
  return el('div', { class: 'share' }, el('label', { for: 'share-link' }, 'Link to this verdict'),
    el('div', { class: 'share-row' }, input, button, status));
}

function showVerdict(a) {
  const body = $('verdict-body');
  const head = el('div', { class: 'verdict-head ' + a.verdict, 'data-verdict': a.verdict },
    el('span', { class: 'badge' }, a.legal ? 'Legal' : 'Illegal'), ' ', el('code', { class: 'move' }, a.move));
  const parts = [head];
  if (a.legal) {
    if (a.canonical && a.canonical !== a.move) {
      parts.push(el('p', {}, 'Canonical spelling: ', el('code', {}, a.canonical)));
    }
    parts.push(effectsList(a.effects));
    // The deciding clause first (the answer's order), the other permissions folded.
    const [first, ...others] = a.permitted_by;
    parts.push(el('h3', { class: 'list-title' }, 'Permitted by'));
    if (first) parts.push(el('ol', { class: 'clauses deciding' }, clauseItem(first)));
    if (others.length) {
      parts.push(el('details', { class: 'other-permits' },
        el('summary', {}, `Also permitted by ${others.length} more clause${others.length === 1 ? '' : 's'}: ${others.map((c) => c.id).join(', ')}`),
        el('ol', { class: 'clauses' }, ...others.map(clauseItem))));
    }
    const after = el('details', { class: 'after' }, el('summary', {}, 'Position after the move'));
    const fig = el('div', { class: 'after-board' });
    fig.innerHTML = a.effects.result_svg.replace(/^<\?xml[^>]*>\s*/, '');
    after.append(fig, el('p', {}, el('code', {}, a.effects.result)));
    parts.push(after);
  } else {
    const n = a.violated.length;
    const split = a.frames.find((f) => f.kind === 'as-written');
    if (split) {
      parts.push(el('p', { class: 'frame-note' }, `On the board: ${split.label}, each outlined in its own colour (`,
        ...split.groups.map((g, i) => `${i ? ', ' : ''}${g.squares.length} piece${g.squares.length === 1 ? '' : 's'}`), ').'));
    }
    parts.push(el('h3', { class: 'list-title' }, `${n} clause${n === 1 ? '' : 's'} violated`));
    parts.push(el('ol', { class: 'clauses' }, ...a.violated.map(clauseItem)));
  }
  parts.push(shareBox(a.link));
  body.replaceChildren(...parts);
}

function showError(e) {
  const where = e.where ? ` (${e.where})` : '';
  $('verdict-body').replaceChildren(
    el('div', { class: 'error', role: 'alert', 'data-error-where': e.where || '' },
      el('strong', {}, 'Cannot judge'), where, ': ', e.message));
}

async function judge(move) {
  let a;
  try {
    a = await api('/api/explain', { position: state.position, move });
  } catch (e) {
    return showError(e);
  }
  state.judged = true;
  state.steps = [];
  state.sel = null;
  state.shown = state.board;
  setChoices([]);
  $('move').value = a.move;
  showVerdict(a);
  // The board after the move (or the move as written, its groups drawn); back to before it.
  const before = { label: `Before ${a.move}`, svg: a.svg, groups: [] };
  setFrames([before, ...a.frames], a.frames.length);
  say(a.legal ? `${a.move} is legal.` : `${a.move} is illegal: ${a.violated.map((c) => c.id).join(', ')}.`);
  history.replaceState(null, '', a.link.slice(a.link.indexOf('?')));
  // On a narrow screen the verdict sits below the board: bring it into view.
  if (window.matchMedia('(max-width: 860px)').matches) {
    $('verdict').scrollIntoView({ block: 'start' });
  }
}

// ---- Positions and editing -------------------------------------------------------------------

// Set up `text`: draw it, fetch its legal moves; a position the rules reject is still drawn.
async function loadPosition(text, keepVerdict) {
  const parsed = parsePosition(text);
  state.steps = [];
  state.sel = null;
  state.ordoMode = false;
  state.judged = false;
  clearFrames();
  setChoices([]);
  try {
    const info = await api('/api/moves', { position: text });
    state.position = info.position;
    state.legal = info.moves;
    state.board = parsePosition(info.position) || parsed;
    state.shown = state.board;
    const over = info.status === 'ongoing' ? '' : ` The game is over: ${info.status}.`;
    say(`${info.side_to_move} to move, ${info.game}, ${info.count} legal moves.${over}`);
    if (!keepVerdict) clearVerdict();
    showValues(state.position);
  } catch (e) {
    showError(e);
    if (e.unreachable) {
      // Nothing was asked of the rules: the position is not at fault.
      say(`Cannot judge: ${e.message}.`);
      return;
    }
    if (!parsed && state.board) {
      // Unreadable: the board keeps the last position rather than going blank; the field
      // keeps the text to fix.
      say('That position cannot be read (see the verdict panel); the board still shows the last position.');
      return;
    }
    state.position = text;
    state.legal = [];
    state.board = parsed;
    state.shown = parsed;
    say('This position cannot be played from; fix it in the field below or edit the squares.');
  }
  syncControls();
  try {
    await drawBoard(state.position);
  } catch (e) {
    $('board').replaceChildren();
  }
}

// ---- Endgame values --------------------------------------------------------------------------

// Each legal move with its value from the endgame tables of `ordo serve --tables DIR` or of the
// static site (`ordo site DIR --tables TDIR`), best first; clicking one plays it. Without tables
// covering the position the panel says so.
async function showValues(position) {
  const body = $('values-body');
  let v;
  try {
    if (BACKEND === 'wasm' && !(await fetchTables(position))) {
      body.replaceChildren(el('p', { class: 'placeholder', 'data-values': 'none' },
        'No endgame tables are shipped with this site, so it shows no endgame values.'));
      return;
    }
    v = await api('/api/values', { position });
  } catch (e) {
    // The tables' answers are in a player's words ("this position is beyond the tables: …").
    const text = e.where === 'tables'
      ? e.message.charAt(0).toUpperCase() + e.message.slice(1) + '.'
      : `No endgame values for this position: ${e.message}.`;
    body.replaceChildren(el('p', { class: 'placeholder', 'data-values': 'none' }, text));
    return;
  }
  if (position !== state.position) return;
  const items = v.moves.map((m) => {
    const b = el('button', { type: 'button', class: `value-move ${m.outcome}`, 'data-move': m.move },
      el('code', {}, m.move), ' ', el('span', { class: 'value-text' }, m.text));
    b.addEventListener('click', () => loadPosition(m.after));
    return el('li', {}, b);
  });
  body.replaceChildren(el('p', { class: 'value-head', 'data-values': v.outcome }, v.text),
    el('ol', { class: 'values' }, ...items));
}

function clearVerdict() {
  $('verdict-body').replaceChildren(
    el('p', { class: 'placeholder' }, 'No move judged yet. Click a piece and a target square, or type a move.'));
}

function syncControls() {
  $('position').value = state.position;
  const b = state.board;
  if (!b) return;
  $('game').value = b.variant;
  $('side').value = b.side;
  $('cols').value = b.cols;
  $('rows').value = b.rows;
  const clamp = sqParse(state.cursor);
  if (!clamp || clamp.c >= b.cols || clamp.r >= b.rows) state.cursor = 'a1';
}

// Editing changes the drawing in place: no request for the intermediate positions, which
// would fail as unreadable while half typed; the position is set up once, when editing is done.
function editSquare(sq) {
  const b = state.board;
  if (!b) return;
  const next = { undefined: 'W', W: 'B', B: undefined }[b.cells[sq]];
  if (next) b.cells[sq] = next; else delete b.cells[sq];
  state.edited = true;
  $('position').value = formatPosition(b);
  drawPiece(sq, next);
  say(`Editing: ${sq} ${next ? (next === 'W' ? 'White' : 'Black') : 'empty'}. Press Done editing to judge from this position.`);
}

// Put a piece of `color` ('W', 'B' or nothing) on `sq` of the drawn board, as the diagram does.
function drawPiece(sq, color) {
  const svg = $('board').querySelector('svg');
  const rect = squareRect(sq);
  if (!svg || !rect) return;
  svg.querySelectorAll(`circle.piece[data-square="${sq}"]`).forEach((c) => c.remove());
  if (!color) return;
  let group = svg.querySelector('g.pieces');
  if (!group) {
    group = document.createElementNS(SVG_NS, 'g');
    group.setAttribute('class', 'pieces');
    const layer = boardLayer(svg);
    layer.insertBefore(group, layer.querySelector(':scope > g.overlays'));
  }
  const w = Number(rect.getAttribute('width'));
  const c = document.createElementNS(SVG_NS, 'circle');
  const white = color === 'W';
  c.setAttribute('class', 'piece ' + (white ? 'white' : 'black'));
  c.setAttribute('data-square', sq);
  c.setAttribute('cx', Number(rect.getAttribute('x')) + w / 2);
  c.setAttribute('cy', Number(rect.getAttribute('y')) + w / 2);
  c.setAttribute('r', (w * 2) / 5);
  c.setAttribute('fill', white ? '#ffffff' : '#222222');
  c.setAttribute('stroke', white ? '#222222' : '#000000');
  c.setAttribute('stroke-width', 2);
  group.appendChild(c);
}

function withBoard(change) {
  const b = state.board
    ? { ...state.board, cells: { ...state.board.cells } }
    : { cols: 10, rows: 8, cells: {}, side: 'w', variant: 'classic' };
  change(b);
  loadPosition(formatPosition(b));
}

function setEditing(on) {
  state.editing = on;
  $('edit-toggle').setAttribute('aria-pressed', String(on));
  $('edit-toggle').textContent = on ? 'Done editing' : 'Edit squares';
  $('edit-tools').hidden = !on;
  $('board').classList.toggle('editing', on);
  if (on) {
    state.edited = false;
    resetProposal();
    say('Editing: click a square to cycle empty, White, Black.');
  } else if (state.board && state.edited) {
    state.edited = false;
    loadPosition(formatPosition(state.board));
  } else if (state.board) {
    say(`${sideName(state.board)} to move: click a piece.`);
  }
}

// ---- Keyboard --------------------------------------------------------------------------------

function onBoardKey(ev) {
  const b = state.shown || state.board;
  if (!b) return;
  const p = sqParse(state.cursor) || { c: 0, r: 0 };
  // On a turned board (turnBoard) the columns run down the screen and the rows rightwards.
  const turned = $('board').querySelector('svg[data-turned]');
  const moves = turned
    ? { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }
    : { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (moves[ev.key]) {
    const [dc, dr] = moves[ev.key];
    const c = Math.min(b.cols - 1, Math.max(0, p.c + dc));
    const r = Math.min(b.rows - 1, Math.max(0, p.r + dr));
    state.cursor = sqName(c, r);
    const piece = { W: 'White piece', B: 'Black piece' }[b.cells[state.cursor]] || 'empty';
    const target = legalTargets().includes(state.cursor) ? ', legal target' : '';
    say(`${state.cursor}: ${piece}${target}`);
    decorate();
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    clickSquare(state.cursor);
  } else if (ev.key === 'Escape') {
    resetProposal();
  } else if (ev.key === 'o' && state.sel && !state.sel.other) {
    toggleOrdo();
  } else {
    return;
  }
  ev.preventDefault();
}

// ---- Start -----------------------------------------------------------------------------------

function wire() {
  $('board').addEventListener('click', (ev) => {
    const hit = ev.target.closest('[data-square]');
    if (hit) clickSquare(hit.getAttribute('data-square'));
  });
  $('board').addEventListener('keydown', onBoardKey);
  document.addEventListener('keydown', onFrameKey);
  $('frame-back').addEventListener('click', () => showFrame(state.frame - 1));
  $('frame-next').addEventListener('click', () => showFrame(state.frame + 1));
  $('board').addEventListener('focus', decorate);
  $('board').addEventListener('blur', decorate);
  $('position-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    loadPosition($('position').value.trim());
  });
  $('move-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const move = $('move').value.trim();
    if (move) judge(move);
  });
  $('game').addEventListener('change', () => withBoard((b) => { b.variant = $('game').value; }));
  $('side').addEventListener('change', () => withBoard((b) => { b.side = $('side').value; }));
  $('edit-toggle').addEventListener('click', () => setEditing(!state.editing));
  $('clear').addEventListener('click', () => withBoard((b) => { b.cells = {}; }));
  $('resize').addEventListener('click', () => withBoard((b) => {
    b.cols = Math.min(16, Math.max(2, Number($('cols').value) || 10));
    b.rows = Math.min(16, Math.max(2, Number($('rows').value) || 8));
    for (const sq of Object.keys(b.cells)) {
      const p = sqParse(sq);
      if (p.c >= b.cols || p.r >= b.rows) delete b.cells[sq];
    }
  }));
  $('start').addEventListener('click', () => {
    const b = state.board || { variant: 'classic' };
    const size = b.cols === 8 && b.rows === 8 ? '8x8' : '10x8';
    loadPosition(`${STARTS[size]} w ${b.variant}`);
  });
}

async function start() {
  wire();
  const params = new URLSearchParams(window.location.search);
  const position = params.get('position') || `${STARTS['10x8']} w classic`;
  const move = params.get('move');
  await loadPosition(position, !!move);
  if (move) await judge(move);
}

document.addEventListener('DOMContentLoaded', start);
