// Helpers for writing an Ordo engine that speaks the ordo protocol (Node 20, no packages).
//
// What this module gives you, so that your adapter is only the part that knows the rules:
//
// - positions (spec/notation.md, "Position notation"): parsePosition() reads every spelling the
//   notation allows into a plain object {cols, rows, pieces: {e4: "W", ...}, side: "w"|"b",
//   game: "classic"|"x"}; formatPosition() writes the canonical text;
// - moves (spec/notation.md, "Move notation"): parseMove() reads the notation into
//   {steps: [step, step?]}, a step being {from, to, capture, keep, last} (an ordo step has
//   `last`, the other end of its run; `keep` names the kept group, ORDOX-4.2; absent ones are
//   null); parseMoveLenient() also reads the spellings of spec/game-record.md (upper-case
//   squares, X or × for a capture, en or em dash, trailing + # ! ?); formatMove() writes a move;
//   canonicalMove(position, move) gives its canonical spelling relative to a position;
// - the protocol loop of spec/protocol.md: serve(engine) answers the handshake, capabilities,
//   variant, position, game, moves, play, status, show, perft and quit, with the error replies,
//   blank lines, the 65,536-byte line limit and a flush after every reply.
//
// You write three functions (they may be async) over these plain objects:
//
//   moves(position)       -> array of moves (move objects or strings in move notation)
//   play(position, move)  -> the position after the move (object or position text); `move` is
//                            the very item of your moves() array that the request named
//   status(position)      -> "ongoing" or [winner, reason], e.g. ["white", "home-row"]
//
// A `game <start> moves …` request is replayed through them: your play() of each move in turn.
// An engine that keeps its own game state adds newGame(position), which returns that state;
// each function then also gets the state as its last argument: moves(position, state),
// status(position, state), play(position, move, state), and play() returns the position after
// the move with the state changed in place, or the pair [position, newState].
//
// Errors in your functions never end the engine: an error in play() (or a play() that gives
// back no position) answers `error illegal-move <move>` with the position unchanged; any other
// (in moves(), status(), validate(), newGame(), or a list or status that does not read)
// answers `error internal-error '<request>': <what failed>`, the state as before the request.
// The error goes to standard error either way.

export const MIN_SIDE = 2;
export const MAX_SIDE = 16;
export const MAX_SQUARES = 128;
export const MAX_REQUEST = 65536;
export const VERSION = 1;
const COLUMNS = "abcdefghijklmnop";
const WINNERS = ["white", "black"];
const REASONS = ["home-row", "no-pieces", "cannot-reconnect", "no-legal-move"];
const END = "end of input";
// Unicode White_Space, the set Rust's char::is_whitespace uses (spec/notation.md trims it).
const WHITESPACE = new Set(
  Array.from("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000\u2000\u2001\u2002" +
    "\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"),
);

// ------------------------------------------------------------------------------- errors

/** A text that is not notation: `<kind> '<input>' at character <n>: expected …, found …`. */
export class NotationError extends Error {
  constructor(kind, text, column, expected, found) {
    super(`${kind} '${escapeControls(text)}' at character ${column}: expected ${expected}, ` +
      `found ${found}`);
    Object.assign(this, { name: "NotationError", kind, text, column, expected, found });
  }
}

const NAMED = { "\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", "'": "\\'", '"': '\\"',
  "\0": "\\0" };
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Mn}\p{Me}]$/u;

function escapeChar(c) {
  if (Object.hasOwn(NAMED, c)) return NAMED[c];
  if (INVISIBLE.test(c) || (/^\p{Zs}$/u.test(c) && c !== " ")) {
    return `\\u{${c.codePointAt(0).toString(16)}}`;
  }
  return c;
}

const escapeControls = (s) => Array.from(s).map((c) => (/^\p{Cc}$/u.test(c) ? escapeChar(c) : c))
  .join("");
const quote = (chars) => `'${Array.from(chars).map(escapeChar).join("")}'`;
const isDigit = (c) => c !== undefined && c >= "0" && c <= "9";

/** Reads a text by characters (code points) between its leading and trailing whitespace. */
class Cursor {
  constructor(kind, text) {
    this.kind = kind;
    this.text = text;
    this.chars = Array.from(text);
    let end = this.chars.length;
    while (end > 0 && WHITESPACE.has(this.chars[end - 1])) end--;
    let pos = 0;
    while (pos < end && WHITESPACE.has(this.chars[pos])) pos++;
    this.pos = pos;
    this.end = end;
  }
  peek() { return this.pos < this.end ? this.chars[this.pos] : undefined; }
  foundAt(pos) { return pos < this.end ? quote(this.chars[pos]) : END; }
  errorAt(pos, expected, found) {
    return new NotationError(this.kind, this.text, pos + 1, expected, found);
  }
  errorHere(expected) { return this.errorAt(this.pos, expected, this.foundAt(this.pos)); }
}

// ------------------------------------------------------------------------------- squares

/** The name of the square at 0-based column and row: (0, 0) is a1. */
export const squareName = (col, row) => `${COLUMNS[col]}${row + 1}`;

/** The 0-based [column, row] of a square name such as "e4" (read with parseSquare). */
export function squareCoords(name) {
  const n = parseSquare(name);
  return [COLUMNS.indexOf(n[0]), Number(n.slice(1)) - 1];
}

const coords = (name) => [COLUMNS.indexOf(name[0]), Number(name.slice(1)) - 1];
/** Row-major order of squares (spec/notation.md): row first, then column. */
const index = (name) => coords(name)[1] * MAX_SIDE + coords(name)[0];

function readSquare(cur) {
  const c = cur.peek();
  if (c === undefined || !COLUMNS.includes(c)) throw fail(cur, "a column letter a..p");
  const col = COLUMNS.indexOf(c);
  cur.pos++;
  const start = cur.pos;
  const d = cur.peek();
  if (d === "0") {
    const why = isDigit(cur.chars[cur.pos + 1]) ? "row numbers have no leading zero"
      : "rows are numbered from 1";
    throw failBecause(cur, "a row number 1..16", why);
  }
  if (d === undefined || d < "1" || d > "9") throw fail(cur, "a row number 1..16");
  while (isDigit(cur.peek())) cur.pos++;
  const digits = cur.chars.slice(start, cur.pos).join("");
  if (digits.length > 2 || Number(digits) > MAX_SIDE) {
    throw cur.errorAt(start, "a row number 1..16", quote(digits));
  }
  return squareName(col, Number(digits) - 1);
}

/** Read one square (a1 .. p16, lower case, no leading zero); returns its name. */
export function parseSquare(text) {
  const cur = new Cursor("square", text);
  const name = readSquare(cur);
  if (cur.pos < cur.end) throw fail(cur, "end of input after the square");
  return name;
}

// ------------------------------------------------------------------------------- positions

/** Every square of the board in row-major order (a1, b1, …). */
export function squaresOf(p) {
  const out = [];
  for (let r = 0; r < p.rows; r++) for (let c = 0; c < p.cols; c++) out.push(squareName(c, r));
  return out;
}

/** The canonical text: runs of empty squares as one number, fields joined by one space. */
export function formatPosition(p) {
  const rows = [];
  for (let r = p.rows - 1; r >= 0; r--) {
    let text = "";
    let empty = 0;
    for (let c = 0; c < p.cols; c++) {
      const piece = p.pieces[squareName(c, r)];
      if (piece === undefined) {
        empty++;
        continue;
      }
      text += (empty ? String(empty) : "") + piece;
      empty = 0;
    }
    rows.push(text + (empty ? String(empty) : ""));
  }
  return `${rows.join("/")} ${p.side} ${p.game}`;
}

/** Read a position in any spelling spec/notation.md allows; NotationError otherwise. */
export function parsePosition(text) {
  const cur = new Cursor("position", text);
  const ch = cur.chars;
  const fields = [];
  for (let i = cur.pos; i < cur.end;) {
    if (ch[i] === " " || ch[i] === "\t") {
      i++;
      continue;
    }
    const start = i;
    while (i < cur.end && ch[i] !== " " && ch[i] !== "\t") i++;
    fields.push([start, i]);
  }
  if (fields.length === 0) {
    throw cur.errorAt(cur.end, "a board: rows from the last row down to row 1, separated by '/'",
      END);
  }
  const [cols, board] = readBoard(cur, ...fields[0]);
  const field = (k) => ch.slice(fields[k][0], fields[k][1]).join("");
  if (fields.length < 2) {
    throw cur.errorAt(cur.end, "the side to move 'w' or 'b' after the board", END);
  }
  const side = field(1);
  if (side !== "w" && side !== "b") {
    throw cur.errorAt(fields[1][0], "the side to move 'w' or 'b'", quote(side));
  }
  if (fields.length < 3) {
    throw cur.errorAt(cur.end, "the variant 'classic' or 'x' after the side to move", END);
  }
  const game = field(2);
  if (game !== "classic" && game !== "x") {
    throw cur.errorAt(fields[2][0], "the variant 'classic' or 'x'", quote(game));
  }
  if (fields.length > 3) {
    throw cur.errorAt(fields[3][0],
      "end of input after the variant (a position has exactly three fields)", quote(field(3)));
  }
  const pieces = {};
  board.forEach((row, i) => row.forEach((piece, c) => {
    if (piece) pieces[squareName(c, board.length - 1 - i)] = piece;
  }));
  return { cols, rows: board.length, pieces, side, game };
}

function readBoard(cur, start, end) {
  const nRows = 1 + cur.chars.slice(start, end).filter((c) => c === "/").length;
  const rows = [];
  let width = null;
  let i = start;
  for (;;) {
    const label = nRows - rows.length;
    if (rows.length === MAX_SIDE) throw cur.errorAt(i, `at most ${MAX_SIDE} rows`, `${nRows} rows`);
    if (width !== null && (rows.length + 1) * width > MAX_SQUARES) {
      throw cur.errorAt(i, `at most ${MAX_SQUARES} squares (columns x rows)`,
        `${width} columns x ${nRows} rows = ${width * nRows} squares`);
    }
    const [row, next, overflowAt] = readRow(cur, i, end, label, width ?? MAX_SIDE);
    checkWidth(cur, row, next, overflowAt, label, width);
    width = row.length;
    rows.push(row);
    if (next === end) break;
    i = next + 1;
  }
  if (rows.length < MIN_SIDE) {
    throw cur.errorAt(end, `at least ${MIN_SIDE} rows separated by '/'`, `${rows.length} row`);
  }
  return [width, rows];
}

function readRow(cur, i, end, label, limit) {
  const ch = cur.chars;
  const row = [];
  let overflowAt = null;
  if (i === end || ch[i] === "/") {
    throw cur.errorAt(i, `row ${label}: 'W', 'B' or a number of empty squares`, cur.foundAt(i));
  }
  while (i < end && ch[i] !== "/") {
    const token = i;
    const c = ch[i];
    if (c === "W" || c === "B") {
      row.push(c);
      i++;
    } else if (c >= "1" && c <= "9") {
      while (i < end && isDigit(ch[i])) i++;
      const digits = ch.slice(token, i).join("");
      if (digits.length > 2 || Number(digits) > MAX_SIDE) {
        throw cur.errorAt(token, `a number of empty squares from 1 to ${MAX_SIDE}`, quote(digits));
      }
      for (let k = 0; k < Number(digits); k++) row.push(null);
    } else if (c === "0") {
      throw cur.errorAt(token,
        `a number of empty squares from 1 to ${MAX_SIDE} (no zero, no leading zero)`,
        cur.foundAt(token));
    } else {
      throw cur.errorAt(token, `row ${label}: 'W', 'B', a number of empty squares or '/'`,
        cur.foundAt(token));
    }
    if (row.length > limit && overflowAt === null) overflowAt = token;
  }
  return [row, i, overflowAt];
}

function checkWidth(cur, row, i, overflowAt, label, width) {
  if (width === null) {
    if (overflowAt !== null) {
      throw cur.errorAt(overflowAt, `at most ${MAX_SIDE} columns in row ${label}`,
        String(row.length));
    }
    if (row.length < MIN_SIDE) {
      throw cur.errorAt(i, `at least ${MIN_SIDE} columns in row ${label}`, String(row.length));
    }
  } else if (row.length !== width) {
    throw cur.errorAt(overflowAt ?? i, `row ${label} to have ${width} squares like the rows ` +
      "above it", String(row.length));
  }
}

const STARTS = {
  "10x8": "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2",
  "8x8": "1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1",
};

/** The standard start (ORDO-2.2) on 10x8, or the chess-board start (ORDO-1.6) on 8x8. */
export const startPosition = (game = "classic", board = "10x8") =>
  parsePosition(`${STARTS[board]} w ${game}`);

/**
 * A position from its pieces and side to move, for an engine whose own state is not text:
 * `{white: [squares], black: [squares], side: "w"|"b", game: "classic"|"x", board: "10x8"}`
 * (side, game and board optional). A square that does not read, lies off the board or is named
 * twice, a bad side, game or board throws an Error naming it.
 */
export function makePosition({ white = [], black = [], side = "w", game = "classic", board = "10x8" }) {
  const dims = /^([0-9]+)x([0-9]+)$/u.exec(board);
  if (!dims) throw new Error(`board '${board}': expected <cols>x<rows> such as '10x8'`);
  const p = { cols: Number(dims[1]), rows: Number(dims[2]), pieces: {}, side, game };
  for (const [colour, squares] of [["W", white], ["B", black]]) {
    for (const square of squares) {
      const name = parseSquare(square);
      const [c, r] = coords(name);
      if (c >= p.cols || r >= p.rows) throw new Error(`square ${name} is off the ${board} board`);
      if (name in p.pieces) throw new Error(`square ${name} is named twice`);
      p.pieces[name] = colour;
    }
  }
  return parsePosition(formatPosition(p)); // checks the side, the game and the board size
}

/** Why `p` cannot be set up under ORDO-2.3, or null: the player who moved last must have a
 * piece, and the side to move may not stand on its opponent's home row. */
export function setupProblem(p) {
  const [mover, last] = p.side === "w" ? ["W", "B"] : ["B", "W"];
  const placed = Object.entries(p.pieces);
  if (!placed.some(([, v]) => v === last)) {
    return `${last === "B" ? "Black" : "White"} is not to move but has no piece (ORDO-2.3)`;
  }
  const home = mover === "B" ? 1 : p.rows;
  if (placed.some(([sq, v]) => v === mover && coords(sq)[1] + 1 === home)) {
    return `the side to move already stands on its opponent's home row ${home} (ORDO-2.3)`;
  }
  return null;
}

// ------------------------------------------------------------------------------- moves

/** A step as a plain object; `last` set makes it an ordo step. */
export const step = (from, to, { capture = false, keep = null, last = null } = {}) =>
  ({ from, to, capture, keep, last });

const formatStep = (s) => (s.last
  ? `${s.from}:${s.last}-${s.to}`
  : `${s.from}${s.capture ? "x" : "-"}${s.to}${s.keep ? `/${s.keep}` : ""}`);

/** The notation of a move, its steps joined by ",". */
export const formatMove = (m) => m.steps.map(formatStep).join(",");

/** Read a move in the notation of spec/notation.md (ordo ends kept in the order written). */
export function parseMove(text) {
  const cur = new Cursor("move", text);
  if (cur.pos >= cur.end) throw cur.errorHere("a move such as 'e2-e4'");
  const first = readStep(cur);
  checkAfterStep(cur, first, false);
  if (cur.peek() !== ",") return { steps: [first] };
  cur.pos++;
  const second = readStep(cur);
  checkAfterStep(cur, second, true);
  return { steps: [first, second] };
}

const LENIENT = { X: "x", "\u00d7": "x", "\u2013": "-", "\u2014": "-" };

/** Read a move also in the spellings of other programs (spec/game-record.md, "Moves"):
 * upper-case squares, X or × for a capture, an en or em dash for '-', trailing + # ! ?. */
export function parseMoveLenient(text) {
  const core = text.trim().replace(/[+#!?]+$/u, "");
  const respelled = Array.from(core)
    .map((c) => (Object.hasOwn(LENIENT, c) ? LENIENT[c] : null) ?? (c >= "A" && c <= "P" ? c.toLowerCase() : c)).join("");
  try {
    return parseMove(respelled);
  } catch (e) {
    if (!(e instanceof NotationError)) throw e;
    const lead = Array.from(text).length - Array.from(text.trimStart()).length;
    throw new NotationError("move", text, e.column + lead, e.expected, e.found);
  }
}

function fail(cur, expected) {
  const c = cur.peek();
  if (c !== undefined && WHITESPACE.has(c)) {
    return failBecause(cur, expected, "a move is written without spaces");
  }
  return cur.errorHere(expected);
}

const failBecause = (cur, expected, why) =>
  cur.errorAt(cur.pos, expected, `${cur.foundAt(cur.pos)} (${why})`);

function checkAfterStep(cur, s, second) {
  const c = cur.peek();
  if (c === undefined || (!second && c === ",")) return;
  const openCapture = s.capture && !s.keep && !s.last;
  const allowed = [...(openCapture ? ["'/' (a kept group)"] : []),
    ...(second ? [] : ["',' (a second step)"]), "end of input"];
  const expected = allowed.length === 1 ? allowed[0]
    : `${allowed.slice(0, -1).join(", ")} or ${allowed[allowed.length - 1]}`;
  let why;
  if (c === "/" && s.last) why = "an ordo move never captures, so it keeps no group";
  else if (c === "/" && !openCapture) {
    why = s.capture ? "a capture names at most one kept group"
      : "a kept group follows only a capture written with 'x'";
  } else if (c === "," && second) why = "a move has at most two steps";
  else throw fail(cur, expected);
  throw failBecause(cur, expected, why);
}

function readStep(cur) {
  const from = readSquare(cur);
  const c = cur.peek();
  if (c === "-" || c === "x") {
    cur.pos++;
    const to = readSquare(cur);
    let keep = null;
    if (c === "x" && cur.peek() === "/") {
      cur.pos++;
      keep = readSquare(cur);
    }
    return step(from, to, { capture: c === "x", keep });
  }
  if (c === ":") {
    cur.pos++;
    const last = readSquare(cur);
    if (cur.peek() === "x") {
      throw failBecause(cur, "'-'", "ordo moves are written with '-' and never capture");
    }
    if (cur.peek() !== "-") throw fail(cur, "'-' and the square where the run's first end lands");
    cur.pos++;
    return step(from, readSquare(cur), { last });
  }
  throw fail(cur, "'-' (a move), 'x' (a capture) or ':' (the other end of an ordo run)");
}

// ------------------------------------------------------------------------------- canonical spelling

/** The canonical spelling of `m` in position `p` (spec/notation.md, "Canonical spelling"): each
 * ordo written from its end with the lower row-major index, each kept group named by its square
 * with the lowest row-major index. Only geometry is used (which pieces a step moves, captures
 * and, in Ordo X, removes, ORDOX-4.1); legality is your engine's business. What cannot be read
 * off the board (a keep square without an opponent piece, a run that is not straight) is left
 * as written. */
export function canonicalMove(p, m) {
  let board = { ...p.pieces };
  const mover = p.side === "w" ? "W" : "B";
  const enemy = mover === "W" ? "B" : "W";
  const steps = [];
  m.steps.forEach((given, i) => {
    let s = orderedEnds(given);
    if (board && s.keep) {
      const after = moved(board, s);
      if (after && after[s.keep] === enemy) {
        const group = [...groupOf(after, s.keep)].sort((a, b) => index(a) - index(b));
        s = { ...s, keep: group[0] };
      }
    }
    steps.push(s);
    if (board && m.steps.slice(i + 1).some((t) => t.keep)) board = afterStep(board, s, mover, p.game);
  });
  return { steps };
}

function orderedEnds(s) {
  if (!s.last || index(s.from) < index(s.last)) return { ...s };
  const [[fc, fr], [lc, lr], [tc, tr]] = [s.from, s.last, s.to].map(coords);
  const [col, row] = [lc + tc - fc, lr + tr - fr];
  if (col < 0 || col >= MAX_SIDE || row < 0 || row >= MAX_SIDE) return { ...s };
  return step(s.last, squareName(col, row), { last: s.from });
}

/** The squares of an ordo step's run from `from` to `last`; null when not straight. */
function run(s) {
  const [[fc, fr], [lc, lr]] = [coords(s.from), coords(s.last)];
  if (fc !== lc && fr !== lr) return null;
  const n = Math.max(Math.abs(lc - fc), Math.abs(lr - fr));
  const [dc, dr] = [Math.sign(lc - fc), Math.sign(lr - fr)];
  return Array.from({ length: n + 1 }, (_, k) => squareName(fc + k * dc, fr + k * dr));
}

/** The board after the pieces of a step move (captured pieces overwritten), no removal. */
function moved(board, s) {
  const b = { ...board };
  if (!s.last) {
    if (!(s.from in b)) return null;
    b[s.to] = b[s.from];
    delete b[s.from];
    return b;
  }
  const squares = run(s);
  if (!squares || squares.some((sq) => !(sq in b))) return null;
  const [[fc, fr], [tc, tr]] = [coords(s.from), coords(s.to)];
  const landed = {};
  for (const sq of squares) {
    const [c, r] = coords(sq);
    const [nc, nr] = [c + tc - fc, r + tr - fr];
    if (nc < 0 || nc >= MAX_SIDE || nr < 0 || nr >= MAX_SIDE) return null;
    landed[squareName(nc, nr)] = b[sq];
    delete b[sq];
  }
  return Object.assign(b, landed);
}

/** The group (ORDO-4.1: neighbours along a side or at a corner) holding `square`. */
function groupOf(board, square) {
  const colour = board[square];
  const group = new Set([square]);
  const todo = [square];
  while (todo.length) {
    const [c, r] = coords(todo.pop());
    for (const dc of [-1, 0, 1]) {
      for (const dr of [-1, 0, 1]) {
        if (c + dc < 0 || c + dc >= MAX_SIDE || r + dr < 0 || r + dr >= MAX_SIDE) continue;
        const n = squareName(c + dc, r + dr);
        if (!group.has(n) && board[n] === colour) {
          group.add(n);
          todo.push(n);
        }
      }
    }
  }
  return group;
}

/** The board after one step with the Ordo X removal of ORDOX-4.1/4.2; null when unknown. */
function afterStep(board, s, mover, game) {
  const b = moved(board, s);
  if (!b || !s.capture || game !== "x") return b;
  const enemy = mover === "W" ? "B" : "W";
  const groups = [];
  const seen = new Set();
  for (const sq of Object.keys(b).filter((q) => b[q] === enemy)) {
    if (seen.has(sq)) continue;
    const g = groupOf(b, sq);
    groups.push(g);
    g.forEach((q) => seen.add(q));
  }
  if (groups.length <= 1) return b;
  const biggest = Math.max(...groups.map((g) => g.size));
  const largest = groups.filter((g) => g.size === biggest);
  const kept = s.keep ? largest.filter((g) => g.has(s.keep)) : largest;
  if (kept.length !== 1) return null;
  return Object.fromEntries(Object.entries(b).filter(([q, v]) => v === mover || kept[0].has(q)));
}

// ------------------------------------------------------------------------------- the protocol

function capabilityTokens(caps) {
  const tokens = typeof caps === "string" ? caps.split(/\s+/u).filter(Boolean) : [...caps];
  for (const t of tokens) {
    const m = /^(classic|x):(?:\*|([0-9]+)x([0-9]+))$/u.exec(t);
    const [c, r] = m && m[2] ? [Number(m[2]), Number(m[3])] : [MIN_SIDE, MIN_SIDE];
    if (!m || c < MIN_SIDE || c > MAX_SIDE || r < MIN_SIDE || r > MAX_SIDE || c * r > MAX_SQUARES) {
      throw new Error(`capability '${t}': expected <classic|x>:<cols>x<rows> or <classic|x>:* ` +
        "with a board ORDO-1.5 allows");
    }
  }
  if (!tokens.length) {
    throw new Error("capabilities: name at least one game and board, e.g. 'classic:10x8'");
  }
  return tokens;
}

/** `error <code> <message>`, the message flattened to one line. */
/**
 * The protocol status of `p` for an engine that knows only who has won (`null` or "ongoing"
 * while the game goes on): the reason by the precedence of ORDO-10.5. The home row (ORDO-10.1)
 * comes before no pieces (ORDO-10.2), both judged for the winner, who has just moved; else the
 * side to move has lost for want of a legal move, split ("cannot-reconnect", ORDO-10.3) or in
 * one group ("no-legal-move", ORDO-10.4).
 */
export function statusOfWinner(p, winner) {
  if (winner === null || winner === undefined || winner === "ongoing") return "ongoing";
  if (!WINNERS.includes(winner)) {
    throw new Error(`winner ${JSON.stringify(winner)}: expected one of ${WINNERS}, null or "ongoing"`);
  }
  const me = winner === "white" ? "W" : "B";
  const goal = me === "W" ? p.rows : 1;
  const entries = Object.entries(p.pieces);
  if (entries.some(([sq, c]) => c === me && Number(sq.slice(1)) === goal)) return [winner, "home-row"];
  const theirs = entries.filter(([, c]) => c !== me).map(([sq]) => sq);
  if (theirs.length === 0) return [winner, "no-pieces"];
  const split = groupOf(p.pieces, theirs[0]).size < theirs.length;
  return [winner, split ? "cannot-reconnect" : "no-legal-move"];
}

export function errorReply(code, message) {
  const flat = message.replace(/\p{Cc}/gu, " ").trim();
  return flat ? `error ${code} ${flat}` : `error ${code}`;
}

function statusReply(s) {
  if (s === "ongoing") return "status ongoing";
  if (Array.isArray(s) && s.length === 2 && WINNERS.includes(s[0]) && REASONS.includes(s[1])) {
    return `status won ${s[0]} ${s[1]}`;
  }
  throw new Error(`status() returned ${JSON.stringify(s)}: expected "ongoing" or ` +
    `[winner, reason] with winner in ${WINNERS} and reason in ${REASONS}`);
}

const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Your move list as a Map {canonical spelling -> your item}, the first item of each move kept;
 * a malformed item throws. A move listed again (in any spelling) is never merged silently: its
 * canonical spelling is pushed onto `repeated` once per repetition.
 */
export function listedMoves(p, items, repeated = null) {
  const out = new Map();
  for (const item of items) {
    let m = item;
    if (typeof item === "string") {
      try {
        m = parseMove(item);
      } catch (e) {
        throw new Error(`moves() listed '${item}', which is not move notation: ${e.message}`);
      }
    }
    const key = formatMove(canonicalMove(p, m));
    if (!out.has(key)) out.set(key, item);
    else if (repeated) repeated.push(key);
  }
  return out;
}

function asPosition(value, what) {
  if (typeof value !== "string") {
    if (value && typeof value === "object" && !Array.isArray(value) && value.pieces) return value;
    throw new Error(`${what} returned ${JSON.stringify(value)}, which is not a position`);
  }
  try {
    return parsePosition(value);
  } catch (e) {
    throw new Error(`${what} returned '${value}', which is not a position: ${e.message}`);
  }
}

/** One of your functions threw, or returned something that is not an answer: the request is
 * answered `error internal-error '<request>': <what failed>` and the session goes on. */
export class EngineError extends Error {
  constructor(message, cause) {
    super(message, { cause });
    this.name = "EngineError";
  }
}

/** Call your function `name` (moves, play, status, validate, newGame) with `args`; an
 * exception in it becomes an EngineError naming it (the error itself on standard error). */
async function call(engine, name, ...args) {
  try {
    return await engine[name](...args);
  } catch (e) {
    console.error(e);
    throw new EngineError(`your ${name}() threw ${e?.name ?? typeof e}: ${e?.message ?? e}`, e);
  }
}

const stateful = (engine) => typeof engine.newGame === "function";
const movesOf = (engine, p, state) =>
  (stateful(engine) ? call(engine, "moves", p, state) : call(engine, "moves", p));
const statusOf = (engine, p, state) =>
  (stateful(engine) ? call(engine, "status", p, state) : call(engine, "status", p));
const newGame = (engine, p) => (stateful(engine) ? call(engine, "newGame", p) : null);

/** The position and state after your play() of `item`: [position, state]. */
async function playOf(engine, p, item, state) {
  if (!stateful(engine)) return [asPosition(await call(engine, "play", p, item), "play()"), null];
  let after = await call(engine, "play", p, item, state);
  if (Array.isArray(after) && after.length === 2) [after, state] = after;
  return [asPosition(after, "play()"), state];
}

/** The position and your state after playing `items` (items of your moves() lists) in order
 * from `start` through your functions: newGame(start), then play() of each. */
export async function replay(engine, start, items) {
  let p = start;
  let state = await newGame(engine, start);
  for (const item of items) [p, state] = await playOf(engine, p, item, state);
  return [p, state];
}

/** The number of move sequences of `depth` turns from `p` (spec/perft.md, ORDOX-5.1). For an
 * engine with newGame, each position's state is rebuilt by replaying the game from `start`
 * (default: `p`) through `played` (your items that lead from `start` to `p`) and the moves of
 * the sequence, so that rules that look at the game are counted. */
export async function perft(engine, p, depth, start = p, played = []) {
  if (depth === 0) return 1;
  let state = null;
  if (stateful(engine)) [p, state] = await replay(engine, start, played);
  const items = [...listedMoves(p, await movesOf(engine, p, state)).values()];
  if (depth === 1) return items.length;
  let total = 0;
  for (const m of items) {
    total += stateful(engine) ? await perft(engine, p, depth - 1, start, [...played, m])
      : await perft(engine, (await playOf(engine, p, m, null))[0], depth - 1);
  }
  return total;
}

const REQUESTS = "ordo, capabilities, variant, position, game, moves, play, status, show, " +
  "perft, quit";
export const MAX_GAME_MOVES = 1024;

/** The protocol state of one session. `engine` is {name, moves, play, status, capabilities?,
 * validate?, newGame?}: capabilities as "classic:10x8 x:10x8" or an array of such tokens
 * (default "classic:* x:*"), validate(position) -> why it cannot be set up, or null (default:
 * setupProblem, ORDO-2.3), newGame(position) -> your state of a game that starts there (see
 * the module's comment). The game so far is `start` and `played` (your items of the moves
 * played since), `position` the current position and `state` yours (null without newGame). */
export class Session {
  constructor(engine) {
    this.engine = engine;
    this.capabilities = capabilityTokens(engine.capabilities ?? "classic:* x:*");
    this.position = startPosition();
    this.start = this.position;
    this.played = [];
    this.state = null;
    this.stateReady = !stateful(engine);
    this.handshaken = false;
    this.done = false;
    this.version = 0; // changes with every new position, so moves() is asked again
    this.listed = null;
    // Moves your moves() listed more than once: the `moves` reply repeats them, so that
    // `ordo conform` reports the repetition instead of it being merged silently.
    this.repeated = [];
  }

  /** Your state of the current game (newGame() called on first use). */
  async currentState() {
    if (!this.stateReady) {
      this.state = await newGame(this.engine, this.position);
      this.stateReady = true;
    }
    return this.state;
  }

  /** The reply to one request line (without its line end), or null for a blank line. */
  async handle(line) {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    const words = text.split(/\s+/u).filter(Boolean);
    if (!words.length) return null;
    const [word, ...args] = words;
    if (word === "quit") {
      this.done = true;
      return "bye";
    }
    if (word === "ordo") return this.handshake(args);
    if (!this.handshaken) return errorReply("no-handshake", `send 'ordo ${VERSION}' first`);
    try {
      return await this.request(word, args, text.trim().slice(word.length).trim());
    } catch (e) {
      // Your code failed: answer, never crash (the state as before the request).
      if (!(e instanceof EngineError)) console.error(e);
      return errorReply("internal-error", `${quote(word)}: ${e?.message ?? e}`);
    }
  }

  async request(word, args, rest) {
    const simple = {
      capabilities: async () => `capabilities ${this.capabilities.join(" ")}`,
      moves: async () => {
        const listed = [...(await this.moves()).keys(), ...this.repeated];
        return ["moves", ...listed.sort(byteOrder)].join(" ");
      },
      status: async () =>
        statusReply(await statusOf(this.engine, this.position, await this.currentState())),
      show: async () => `position ${formatPosition(this.position)}`,
    };
    if (Object.hasOwn(simple, word)) {
      return args.length ? errorReply("bad-arguments", `'${word}' takes no arguments`)
        : simple[word]();
    }
    if (word === "variant") return this.variant(args);
    if (word === "position") return this.setText(rest);
    if (word === "game") return this.game(args);
    if (word === "play") return this.play(args);
    if (word === "perft") return this.perft(args);
    return errorReply("unknown-command", `${quote(word)} is not a request (${REQUESTS})`);
  }

  handshake(args) {
    if (args.length === 1 && args[0] === String(VERSION)) {
      this.handshaken = true;
      return `ordo ${VERSION} ok name ${this.engine.name}`;
    }
    if (args.length === 1 && /^[0-9]+$/u.test(args[0])) {
      return errorReply("unsupported-version", `this engine speaks ordo ${VERSION}`);
    }
    return errorReply("bad-arguments", `expected 'ordo ${VERSION}' (the protocol version)`);
  }

  /** Whether the capabilities cover `game` on a `cols` x `rows` board. */
  supports(game, cols, rows) {
    return this.capabilities.some((t) => t === `${game}:*` || t === `${game}:${cols}x${rows}`);
  }

  /** The start of `classic|x [10x8|8x8]`: {position} or {error: the reply}. */
  static standard(args, usage) {
    if (args.length < 1 || args.length > 2) return { error: errorReply("bad-arguments", `expected '${usage}'`) };
    const [game, board = "10x8"] = args;
    if (game !== "classic" && game !== "x") {
      return { error: errorReply("bad-arguments", `unknown variant ${quote(game)}: expected classic or x`) };
    }
    if (!Object.hasOwn(STARTS, board)) {
      return { error: errorReply("bad-arguments", `unknown board ${quote(board)}: expected 10x8 or 8x8`) };
    }
    return { position: startPosition(game, board) };
  }

  async variant(args) {
    const start = Session.standard(args, "variant classic|x [10x8|8x8]");
    return start.error ?? this.set(start.position);
  }

  async setText(text) {
    if (!text) return errorReply("bad-arguments", "expected 'position <notation>'");
    let p;
    try {
      p = parsePosition(text);
    } catch (e) {
      if (!(e instanceof NotationError)) throw e;
      return errorReply("bad-position", e.message);
    }
    return this.set(p);
  }

  /** Why `p` cannot start a game here (the error reply), or null. */
  async refusal(p) {
    if (!this.supports(p.game, p.cols, p.rows)) {
      return errorReply("unsupported", `this engine plays ${this.capabilities.join(" ")}, ` +
        `not ${p.game}:${p.cols}x${p.rows}`);
    }
    const problem = this.engine.validate ? await call(this.engine, "validate", p) : setupProblem(p);
    return problem ? errorReply("invalid-position", problem) : null;
  }

  async set(p) {
    const refusal = await this.refusal(p);
    if (refusal) return refusal;
    this.commit(p, p, [], await newGame(this.engine, p));
    return "ok";
  }

  commit(start, p, played, state) {
    Object.assign(this, { start, position: p, played, state, stateReady: true });
    this.version += 1;
  }

  /** Your moves of the current position by canonical spelling (asked once each). */
  async moves() {
    if (!this.listed || this.listed[0] !== this.version) {
      const repeated = [];
      const items = await movesOf(this.engine, this.position, await this.currentState());
      this.listed = [this.version, listedMoves(this.position, items, repeated)];
      this.repeated = repeated;
    }
    return this.listed[1];
  }

  /** Your item for the move `m` in `p`, or undefined when you do not list it. */
  static item(p, listed, m) {
    const onBoard = m.steps.every((s) => [s.from, s.to, s.keep, s.last].filter(Boolean)
      .every((q) => coords(q)[0] < p.cols && coords(q)[1] < p.rows));
    return onBoard ? listed.get(formatMove(canonicalMove(p, m))) : undefined;
  }

  async play(args) {
    if (args.length !== 1) return errorReply("bad-arguments", "expected 'play <move>' (one move)");
    let m;
    try {
      m = parseMove(args[0]);
    } catch (e) {
      if (!(e instanceof NotationError)) throw e;
      return errorReply("bad-move", e.message);
    }
    const item = Session.item(this.position, await this.moves(), m);
    if (item === undefined) return errorReply("illegal-move", args[0]);
    let after;
    try {
      after = await playOf(this.engine, this.position, item, await this.currentState());
    } catch (e) {
      // Your play() failed on a move it listed: answer, never crash; the error still shows.
      if (!(e instanceof EngineError)) console.error(e);
      // play() may have changed your state part way: rebuild it by replaying the game so far.
      if (stateful(this.engine)) this.state = (await replay(this.engine, this.start, this.played))[1];
      return errorReply("illegal-move", args[0]);
    }
    this.commit(this.start, after[0], [...this.played, item], after[1]);
    return "ok";
  }

  /** `game <start> [moves <move> …]`: the start set, then each move played through your
   * functions; on any error the previous position, game and state stay. */
  async game(args) {
    const at = args.includes("moves") ? args.indexOf("moves") : args.length;
    if (at === 0) {
      return errorReply("bad-arguments", "expected 'game <start> [moves <move> …]': no start " +
        "before the moves");
    }
    const texts = args.slice(at + 1);
    if (texts.length > MAX_GAME_MOVES) {
      return errorReply("bad-arguments", `a game line has at most ${MAX_GAME_MOVES} moves; ` +
        `this one has ${texts.length}`);
    }
    let start;
    if (args[0] === "start") {
      const s = at === 1 ? { position: startPosition() }
        : Session.standard(args.slice(1, at), "game start [classic|x [10x8|8x8]] [moves <move> …]");
      if (s.error) return s.error;
      start = s.position;
    } else {
      try {
        start = parsePosition(args.slice(0, at).join(" "));
      } catch (e) {
        if (!(e instanceof NotationError)) throw e;
        return errorReply("bad-position", e.message);
      }
    }
    const refusal = await this.refusal(start);
    if (refusal) return refusal;
    return this.replayGame(start, texts);
  }

  async replayGame(start, texts) {
    let p = start;
    let state = await newGame(this.engine, start);
    const played = [];
    for (const [i, text] of texts.entries()) {
      let m;
      try {
        m = parseMove(text);
      } catch (e) {
        if (!(e instanceof NotationError)) throw e;
        return errorReply("bad-move", `move ${i + 1} of the game: ${e.message}`);
      }
      const item = Session.item(p, listedMoves(p, await movesOf(this.engine, p, state)), m);
      try {
        if (item === undefined) throw new EngineError("not listed");
        [p, state] = await playOf(this.engine, p, item, state);
      } catch {
        // not your move, or your play() failed on it
        return errorReply("illegal-move", `${text} (move ${i + 1} of the game)`);
      }
      played.push(item);
    }
    this.commit(start, p, played, state);
    return "ok";
  }

  async perft(args) {
    if (args.length !== 1 || !/^[0-9]+$/u.test(args[0]) || Number(args[0]) > 8) {
      return errorReply("bad-arguments", "expected 'perft <depth>' with a depth from 0 to 8");
    }
    const depth = Number(args[0]);
    const count = await perft(this.engine, this.position, depth, this.start, this.played);
    return `perft ${depth} ${count}`;
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Run the protocol on `input` and `output` (streams; standard input and output by default)
 * until `quit` or the end of input. One reply line per request, written at once. */
export async function serve(engine, { input = process.stdin, output = process.stdout } = {}) {
  const session = new Session(engine);
  const write = (reply) => new Promise((resolve, reject) =>
    output.write(`${reply}\n`, (err) => (err ? reject(err) : resolve())));
  let parts = [];
  let length = 0;
  let overflow = false;
  const finish = async () => {
    let raw = Buffer.concat(parts);
    parts = [];
    length = 0;
    if (raw.length && raw[raw.length - 1] === 13) raw = raw.subarray(0, -1);
    let reply;
    if (overflow || raw.length > MAX_REQUEST) {
      reply = errorReply("line-too-long", `a request line has at most ${MAX_REQUEST} bytes`);
    } else {
      let line = null;
      try {
        line = UTF8.decode(raw);
      } catch {
        reply = errorReply("bad-encoding", "the request line is not UTF-8");
      }
      if (line !== null) reply = await session.handle(line);
    }
    overflow = false;
    if (reply !== null) await write(reply);
  };
  for await (const chunk of input) {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
      if (!overflow && length + piece.length > MAX_REQUEST + 1) overflow = true;
      if (!overflow) {
        parts.push(piece);
        length += piece.length;
      }
      if (nl < 0) break;
      await finish();
      if (session.done) return;
      start = nl + 1;
    }
  }
  if (length > 0 || overflow) await finish();
}
