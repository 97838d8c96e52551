// Tests of ordo_protocol.mjs: notation round trips over every conformance vector (and the case
// suite spec/cases/*.toml when it exists), other spellings, malformed input, the protocol loop.
//
// Run: node --test spec/conformance/adapters/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import * as o from "./ordo_protocol.mjs";
import { generated } from "./build_cjs.mjs";

const SPEC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const TIE = "5/BB1BB/2B2/1WW2/5 w x"; // vector x-tie-choice: c2xc3 leaves Black {a4 b4}, {d4 e4}

function filesIn(dir, ext) {
  const path = join(SPEC, dir);
  if (!existsSync(path)) return [];
  return readdirSync(path).filter((f) => f.endsWith(ext)).sort().map((f) => join(path, f));
}

const vectors = filesIn("conformance", ".jsonl").flatMap((f) =>
  readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));

/** The positions and moves of spec/cases/*.toml (absent until the case suite exists). Node has
 * no TOML reader, so this takes the string values of the keys that hold notation: `position`,
 * `after` (positions), `moves`, `legal` (canonical moves) and `move` (any move), each a basic
 * string or an array of them, per case. */
function cases() {
  const out = [];
  for (const file of filesIn("cases", ".toml")) {
    const text = readFileSync(file, "utf8").replace(/^\s*#.*$/gmu, "");
    for (const chunk of text.split(/^\s*\[\[case\]\]\s*$/mu).slice(1)) {
      const values = (key) => [...chunk.matchAll(new RegExp(
        `^\\s*${key}\\s*=\\s*(\\[[^\\]]*\\]|"[^"]*")`, "gmu"))]
        .flatMap((m) => [...m[1].matchAll(/"([^"]*)"/gu)].map((s) => s[1]));
      const [id] = values("id");
      out.push({ id, file, positions: [...values("position"), ...values("after")],
        canonical: [...values("moves"), ...values("legal")], spelled: values("move") });
    }
  }
  return out;
}

test("the vectors are there", () => assert.ok(vectors.length >= 178));

test("statusOfWinner gives every vector's status from the winner alone (ORDO-10.5)", () => {
  let wins = 0;
  for (const v of vectors) {
    const st = v.status;
    const winner = st.state === "won" ? st.winner : null;
    const want = winner ? [winner, st.reason] : "ongoing";
    assert.deepEqual(o.statusOfWinner(o.parsePosition(v.position), winner), want, v.id);
    if (winner) wins += 1;
  }
  assert.ok(wins > 30, `${wins} wins`);
  assert.throws(() => o.statusOfWinner(o.startPosition(), "red"));
});

test("makePosition builds from pieces and side, and names what is wrong", () => {
  assert.deepEqual(o.makePosition({ white: ["a1", "b1"], black: ["d4"], board: "4x4" }),
    o.parsePosition("3B/4/4/WW2 w classic"));
  assert.deepEqual(o.makePosition({ black: ["a8"], side: "b", game: "x" }),
    o.parsePosition("B9/10/10/10/10/10/10/10 b x"));
  for (const [args, word] of [
    [{ white: ["e1"], board: "4x4" }, /off the 4x4 board/u],
    [{ white: ["a1"], black: ["a1"] }, /named twice/u],
    [{ white: ["a1"], side: "white" }, /side/u],
    [{ white: ["a1"], game: "chess" }, /variant/u],
    [{ white: ["a1"], board: "4by4" }, /board/u],
    [{ white: ["a0"] }, /row/u],
  ]) {
    assert.throws(() => o.makePosition(args), word);
  }
});

test("every vector position round trips", () => {
  for (const v of vectors) {
    const p = o.parsePosition(v.position);
    assert.equal(o.formatPosition(p), v.position, v.id);
    assert.deepEqual(o.parsePosition(o.formatPosition(p)), p, v.id);
    assert.equal(p.game, v.variant, v.id);
  }
});

test("every vector move round trips and is canonical", () => {
  for (const v of vectors) {
    const p = o.parsePosition(v.position);
    for (const m of v.moves) {
      assert.equal(o.formatMove(o.parseMove(m)), m, v.id);
      assert.equal(o.formatMove(o.canonicalMove(p, o.parseMove(m))), m, v.id);
    }
    const listed = o.listedMoves(p, [...v.moves].reverse());
    assert.deepEqual([...listed.keys()].sort(), v.moves, v.id);
  }
});

test("ordo ends in either order give the canonical spelling (ORDO-7.1)", () => {
  let swapped = 0;
  for (const v of vectors) {
    const p = o.parsePosition(v.position);
    for (const m of v.moves) {
      const { steps } = o.parseMove(m);
      steps.forEach((s, i) => {
        if (!s.last) return;
        const [[fc, fr], [lc, lr], [tc, tr]] = [s.from, s.last, s.to].map(o.squareCoords);
        const other = o.step(s.last, o.squareName(lc + tc - fc, lr + tr - fr), { last: s.from });
        const alt = { steps: steps.map((t, k) => (k === i ? other : t)) };
        assert.notEqual(o.formatMove(alt), m);
        assert.equal(o.formatMove(o.canonicalMove(p, alt)), m, v.id);
        swapped++;
      });
    }
  }
  assert.ok(swapped > 1000, `${swapped}`);
});

test("every case position and move round trips (spec/cases when present)", () => {
  for (const c of cases()) {
    assert.ok(c.id && c.positions.length, `${c.file}: a case without id or position`);
    for (const text of c.positions) assert.equal(o.formatPosition(o.parsePosition(text)), text, c.id);
    const p = o.parsePosition(c.positions[0]);
    for (const m of c.canonical) assert.equal(o.formatMove(o.canonicalMove(p, o.parseMove(m))), m, c.id);
    for (const m of c.spelled) assert.equal(o.formatMove(o.parseMove(m)), m, c.id);
  }
});

test("whitespace around and between position fields is not part of the position", () => {
  const p = o.parsePosition("\t 3B/4/B3/WW2 \t w   classic  \n");
  assert.equal(o.formatPosition(p), "3B/4/B3/WW2 w classic");
  assert.deepEqual(p, { cols: 4, rows: 4, side: "w", game: "classic",
    pieces: { a1: "W", b1: "W", a2: "B", d4: "B" } });
});

test("the examples of spec/notation.md read and write back", () => {
  for (const text of ["2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic",
    "1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1 w classic", "WB/2 b x",
    "16/16/16/16/16/16/16/16 w classic"]) {
    assert.equal(o.formatPosition(o.parsePosition(text)), text);
  }
  assert.equal(o.formatPosition(o.startPosition("x")),
    "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x");
  for (const text of ["e2-e4", "e4xf5", "a2:d2-a3", "e3-f3,f3-f4", "e5xf6/g7", "e5xf5/g7,f5-f6"]) {
    assert.equal(o.formatMove(o.parseMove(`  ${text} `)), text);
  }
  assert.deepEqual(o.parseMove("e5xf5/g7,f5-f6").steps[0],
    { from: "e5", to: "f5", capture: true, keep: "g7", last: null });
  assert.deepEqual(o.parseMove("a2:d2-a3").steps[0],
    { from: "a2", to: "a3", capture: false, keep: null, last: "d2" });
  assert.deepEqual(o.squareCoords("p16"), [15, 15]);
  const board = o.parsePosition("8/8/8/8/8/8/8/8 w classic");
  assert.equal(o.formatMove(o.parseMove("d2:a2-d3")), "d2:a2-d3");
  assert.equal(o.formatMove(o.canonicalMove(board, o.parseMove("d2:a2-d3"))), "a2:d2-a3");
  assert.equal(o.formatMove(o.canonicalMove(board, o.parseMove("c3:c1-d3"))), "c1:c3-d1");
});

test("any square of the kept group names it (ORDOX-4.2)", () => {
  const p = o.parsePosition(TIE);
  for (const [keep, canonical] of [["a4", "a4"], ["b4", "a4"], ["d4", "d4"], ["e4", "d4"]]) {
    const m = o.parseMove(`b2:c2-c2,c2xc3/${keep}`);
    assert.equal(o.formatMove(o.canonicalMove(p, m)), `b2:c2-c2,c2xc3/${canonical}`);
  }
  assert.equal(o.formatMove(o.canonicalMove(p, o.parseMove("c2xc3/c2"))), "c2xc3/c2");
});

test("the spellings of other programs (spec/game-record.md, Moves)", () => {
  for (const [text, canonical] of [["E2-E4", "e2-e4"], ["e4×f5", "e4xf5"], ["E4XF5+", "e4xf5"],
    ["e2–e4", "e2-e4"], ["e2—e4!?", "e2-e4"], ["A2:D2-A3#", "a2:d2-a3"],
    [" B2-A2,A2XA1 ", "b2-a2,a2xa1"], ["c2×c3/A4", "c2xc3/a4"]]) {
    assert.equal(o.formatMove(o.parseMoveLenient(text)), canonical, text);
  }
  for (const text of ["E2-E4", "e4×f5", "e2–e4", "e2-e4+"]) {
    assert.throws(() => o.parseMove(text), o.NotationError);
  }
});

test("the error examples of spec/notation.md, word for word", () => {
  const examples = [
    [o.parseMove, "move 'e2-q4' at character 4: expected a column letter a..p, found 'q'"],
    [o.parseMove, "move 'e17-e4' at character 2: expected a row number 1..16, found '17'"],
    [o.parseMove, "move 'e02-e4' at character 2: expected a row number 1..16, found '0' (row numbers have no leading zero)"],
    [o.parseMove, "move 'a2:b2xa3' at character 6: expected '-', found 'x' (ordo moves are written with '-' and never capture)"],
    [o.parseMove, "move 'e2-e4/f5' at character 6: expected ',' (a second step) or end of input, found '/' (a kept group follows only a capture written with 'x')"],
    [o.parseMove, "move 'e2-e4,e4-e5,e5-e6' at character 12: expected end of input, found ',' (a move has at most two steps)"],
    [o.parseMove, "move 'e2 -e4' at character 3: expected '-' (a move), 'x' (a capture) or ':' (the other end of an ordo run), found ' ' (a move is written without spaces)"],
    [o.parseSquare, "square 'a1b' at character 3: expected end of input after the square, found 'b'"],
    [o.parsePosition, "position 'WB/2B w classic' at character 5: expected row 1 to have 2 squares like the rows above it, found 3"],
    [o.parsePosition, "position '10 w classic' at character 3: expected at least 2 rows separated by '/', found 1 row"],
    [o.parsePosition, "position '12/12/12/12/12/12/12/12/12/12/12 w classic' at character 31: expected at most 128 squares (columns x rows), found 12 columns x 11 rows = 132 squares"],
    [o.parsePosition, "position 'WB/WB b Classic' at character 9: expected the variant 'classic' or 'x', found 'Classic'"],
  ];
  for (const [parse, message] of examples) {
    assert.throws(() => parse(message.split("'")[1]), { name: "NotationError", message });
  }
});

test("malformed moves are refused with a one-line error", () => {
  for (const text of ["", "  ", "e2", "e2-", "e2e4", "A1-a2", "a0-a1", "a1-a17", "q1-a1",
    "a1-a1234567890123456789", "a1:b1", "a1:b1xa2", "a1:b1-a2/b3", "a1xb2/c3/d4", "a1-b2,",
    "a1-b2,b2-b3,b3-b4", "e2-e4 e4-e5", "e2\n-e4", "é2-e4", "e2-e4\0", "a1-b2;", "a1-b2/c3"]) {
    assert.throws(() => o.parseMove(text), (e) => e instanceof o.NotationError &&
      e.message.startsWith("move '") && !e.message.includes("\n"), JSON.stringify(text));
  }
});

test("malformed positions are refused with a one-line error", () => {
  for (const text of ["", " ", "WB/WB", "WB/WB w", "WB/WB w classic extra", "WB/WB W classic",
    "WB/WB w X", "W/W w x", "WB/W1B w x", "0WB/WB w x", "W01/WB w x", "WB/WC w x", "WB//WB w x",
    "/WB/WB w x", "17/17 w x", "99999999999999999/2 w x", `${Array(17).fill("2").join("/")} w x`,
    "WB/WB\nw x", "WB/WB w x\0", "wb/wb w x"]) {
    assert.throws(() => o.parsePosition(text), (e) => e instanceof o.NotationError &&
      !e.message.includes("\n"), JSON.stringify(text));
  }
});

test("set-up problems of ORDO-2.3", () => {
  assert.notEqual(o.setupProblem(o.parsePosition("2/W1 w classic")), null);
  assert.notEqual(o.setupProblem(o.parsePosition("W1/1B w classic")), null);
  assert.notEqual(o.setupProblem(o.parsePosition("W1/1B b classic")), null);
  assert.equal(o.setupProblem(o.parsePosition("2/WB w classic")), null); // Black won
  assert.equal(o.setupProblem(o.startPosition()), null);
});

/** A stand-in engine that knows only the vectors: their moves and statuses. */
function tableEngine(log) {
  const table = new Map(vectors.map((v) => [v.position, v]));
  return {
    name: "table",
    capabilities: ["classic:*", "x:5x5"],
    moves: (p) => [...table.get(o.formatPosition(p)).moves].reverse()
      .map((m, i) => (i % 2 ? o.parseMove(m) : m)),
    status: async (p) => {
      const s = table.get(o.formatPosition(p)).status;
      return s.state === "ongoing" ? "ongoing" : [s.winner, s.reason];
    },
    play: (p, m) => {
      log.push(m);
      return "3B/4/B3/WW2 w classic";
    },
  };
}

async function session(requests, log = [], engine = tableEngine(log)) {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks = [];
  output.on("data", (c) => chunks.push(c));
  input.end(Buffer.isBuffer(requests) ? requests : Buffer.from(requests));
  await o.serve(engine, { input, output });
  return Buffer.concat(chunks).toString("utf8").split("\n").slice(0, -1);
}

const START = `position ${o.formatPosition(o.startPosition())}`;

test("an error in play() answers illegal-move, the position unchanged, the session going on", async () => {
  const engine = {
    name: "fails",
    capabilities: ["classic:*"],
    moves: () => ["a1-a2"],
    status: () => "ongoing",
    play: () => {
      throw new Error("my engine broke");
    },
  };
  const shown = [];
  const saved = console.error;
  console.error = (e) => shown.push(String(e));
  try {
    const r = await session("ordo 1\nposition 3B/4/4/WW2 w classic\nplay a1-a2\nshow\nstatus\n",
      [], engine);
    assert.deepEqual(r.slice(2), ["error illegal-move a1-a2", "position 3B/4/4/WW2 w classic",
      "status ongoing"]);
  } finally {
    console.error = saved;
  }
  assert.ok(shown.some((t) => t.includes("my engine broke")), shown.join("\n"));
});

test("a move listed twice is repeated in the reply, not merged; play gets the first item", async () => {
  const log = [];
  const engine = {
    name: "twice",
    capabilities: ["classic:*"],
    moves: () => ["a1:b1-a2", "b1:a1-b2", "a1-a2"],
    status: () => "ongoing",
    play: (p, m) => {
      log.push(m);
      return p;
    },
  };
  const r = await session("ordo 1\nposition 3B/4/4/WW2 w classic\nmoves\nplay b1:a1-b2\n", log, engine);
  assert.equal(r[2], "moves a1-a2 a1:b1-a2 a1:b1-a2");
  assert.deepEqual(log, ["a1:b1-a2"]);
});

test("the session of spec/protocol.md (ORDO-7.2 vector)", async () => {
  const r = await session("ordo 1\nposition 3B/4/B3/WW2 w classic\nmoves\nplay a1xa2\nstatus\n" +
    "quit\nmoves\n");
  assert.deepEqual(r, ["ordo 1 ok name table", "ok", "moves a1-b2 a1xa2 b1-b2 b1xa2", "ok",
    "status ongoing", "bye"]);
});

test("handshake, unknown requests, arguments, blank lines", async () => {
  const r = await session("moves\n\n  \t\nordo 2\nordo\nordo one\nordo 1\nordo 1\nfrobnicate\n" +
    "moves please\ncapabilities\nvariant chess\nvariant x 9x9\nvariant x 8x8\nshow\nstatus\n" +
    "toString\nvariant x toString\nvariant constructor\n");
  assert.match(r[0], /^error no-handshake /u);
  assert.match(r[1], /^error unsupported-version /u);
  assert.match(r[2], /^error bad-arguments /u);
  assert.match(r[3], /^error bad-arguments /u);
  assert.deepEqual(r.slice(4, 6), ["ordo 1 ok name table", "ordo 1 ok name table"]);
  assert.match(r[6], /^error unknown-command 'frobnicate' /u);
  assert.equal(r[7], "error bad-arguments 'moves' takes no arguments");
  assert.equal(r[8], "capabilities classic:* x:5x5");
  assert.match(r[9], /^error bad-arguments unknown variant 'chess'/u);
  assert.match(r[10], /^error bad-arguments unknown board '9x9'/u);
  assert.match(r[11], /^error unsupported /u);
  assert.equal(r[12], START);
  assert.match(r[14], /^error unknown-command 'toString' /u);
  assert.match(r[15], /^error bad-arguments unknown board 'toString'/u);
  assert.match(r[16], /^error bad-arguments unknown variant 'constructor'/u);
  assert.equal(r.length, 17);
});

test("position replies", async () => {
  const r = await session("ordo 1\nposition\nposition 3\nposition 2/W1 w classic\n" +
    "position 5/BB1BB/2B2/1WW2/5 w classic\nposition 4/4/4/4/4 w x\nshow\n" +
    "position \t5/BB1BB/2B2/1WW2/5  w x \r\nshow\n");
  assert.match(r[1], /^error bad-arguments/u);
  assert.equal(r[2], "error bad-position position '3' at character 2: expected at least 2 rows " +
    "separated by '/', found 1 row");
  assert.match(r[3], /^error invalid-position /u);
  assert.equal(r[4], "ok");
  assert.match(r[5], /^error unsupported /u);
  assert.equal(r[6], "position 5/BB1BB/2B2/1WW2/5 w classic");
  assert.deepEqual(r.slice(7), ["ok", `position ${TIE}`]);
});

test("play resolves other spellings to your own item (ORDOX-4.2, ORDO-7.1)", async () => {
  const log = [];
  const r = await session(`ordo 1\nposition ${TIE}\nplay c2:b2-d2,c2xc3/e4\nposition ${TIE}\n` +
    `play b2:c2-c2,c2xc3/a4\nposition ${TIE}\nplay b2-b3\n`, log);
  assert.deepEqual(r.slice(1), Array(6).fill("ok"));
  assert.deepEqual(log.map((m) => (typeof m === "string" ? m : o.formatMove(m))),
    ["b2:c2-c2,c2xc3/d4", "b2:c2-c2,c2xc3/a4", "b2-b3"]);
  assert.deepEqual(new Set(log.map((m) => typeof m)), new Set(["object", "string"]));
});

test("play errors leave the position as it was", async () => {
  const r = await session(`ordo 1\nposition ${TIE}\nplay\nplay b2-b3 b2-b4\nplay e2e4\n` +
    "play b2-b4\nplay c2xc3/c2\nplay q1-a1\nplay b2-b9\nplay c2xc3\nplay B2-B3\nshow\n");
  assert.match(r[2], /^error bad-arguments/u);
  assert.match(r[3], /^error bad-arguments/u);
  assert.match(r[4], /^error bad-move move 'e2e4' at character 3/u);
  assert.deepEqual([r[5], r[6]], ["error illegal-move b2-b4", "error illegal-move c2xc3/c2"]);
  assert.match(r[7], /^error bad-move/u);
  assert.deepEqual([r[8], r[9]], ["error illegal-move b2-b9", "error illegal-move c2xc3"]);
  assert.match(r[10], /^error bad-move/u);
  assert.equal(r[11], `position ${TIE}`);
});

test("status and perft through your functions", async () => {
  const r = await session("ordo 1\nposition 4/W1BW/W3 w classic\nstatus\nmoves\nperft 0\n" +
    "perft 1\nperft 9\n");
  assert.deepEqual(r.slice(2, 6), ["status won black cannot-reconnect", "moves", "perft 0 1",
    "perft 1 0"]);
  assert.match(r[6], /^error bad-arguments/u);
});

test("the line limit counts no line end; bad bytes get bad-encoding", async () => {
  const fits = Buffer.from(`show${" ".repeat(o.MAX_REQUEST - 4)}`);
  const r = await session(Buffer.concat([Buffer.from("ordo 1\n"), fits, Buffer.from("\r\n"), fits,
    Buffer.from(" \nshow\n"), Buffer.alloc(200000, "x"), Buffer.from("\n\xff\xfe\nstatus\n", "latin1")]));
  assert.equal(r[1], r[3]);
  assert.equal(r[1], START);
  assert.match(r[2], /^error line-too-long/u);
  assert.match(r[4], /^error line-too-long/u);
  assert.match(r[5], /^error bad-encoding/u);
  assert.equal(r[6], "status ongoing");
  assert.equal(r.length, 7);
});

test("the end of input ends the session", async () => {
  assert.deepEqual(await session("ordo 1\nshow"), ["ordo 1 ok name table", START]);
  assert.deepEqual(await session(""), []);
});

test("bad capabilities are refused up front", () => {
  for (const caps of ["", "chess:10x8", "x:1x8", "x:17x2", "x:16x16", "classic", "x:10x8x"]) {
    assert.throws(() => new o.Session({ name: "e", capabilities: caps }), Error, caps);
  }
});

/** Run `fn` with console.error captured; returns [its result, what was printed]. */
async function quietly(fn) {
  const shown = [];
  const saved = console.error;
  console.error = (e) => shown.push(String(e?.stack ?? e));
  try {
    return [await fn(), shown.join("\n")];
  } finally {
    console.error = saved;
  }
}

test("errors in your functions are answered internal-error naming the request", async () => {
  const broken = () => {
    throw new Error("my engine broke");
  };
  const base = { name: "e", moves: () => [], play: (p) => p, status: () => "ongoing" };
  const cases = [
    [{ moves: () => ["e2e4"] }, "moves", "'moves': moves() listed 'e2e4', which is not move notation"],
    [{ status: () => "draw" }, "status", "'status': status() returned \"draw\""],
    [{ moves: broken }, "moves", "'moves': your moves() threw Error: my engine broke"],
    [{ moves: async () => broken() }, "moves", "'moves': your moves() threw Error: my engine broke"],
    [{ status: broken }, "status", "'status': your status() threw Error: my engine broke"],
    [{ validate: broken }, "position 3B/4/4/WW2 w classic",
      "'position': your validate() threw Error: my engine broke"],
    [{ newGame: broken }, "game start", "'game': your newGame() threw Error: my engine broke"],
    [{ newGame: () => 0, status: broken }, "status", "'status': your status() threw Error: my engine broke"],
  ];
  for (const [parts, request, message] of cases) {
    const [r, shown] = await quietly(() => session(`ordo 1\n${request}\nshow\n`, [], { ...base, ...parts }));
    assert.ok(r[1].startsWith(`error internal-error ${message}`), `${request}: ${r[1]}`);
    assert.equal(r[2], START, request); // the session goes on, nothing changed
    if (message.includes("my engine broke")) assert.ok(shown.includes("my engine broke"), request);
  }
});

/** A stand-in engine that keeps its own game state (newGame): its singletons step one or two
 * squares straight forward, and it records a home-row win only when a move reaches the far row,
 * as one real engine does: a position given as text has no winner for it. */
function forwardEngine(log = null, failOn = null) {
  return {
    name: "forward",
    capabilities: "classic:*",
    newGame: (p) => {
      const state = { history: [o.formatPosition(p)], winner: null };
      log?.push(state);
      return state;
    },
    moves: (p, state) => {
      if (state.winner) return [];
      const [me, ahead] = p.side === "w" ? ["W", 1] : ["B", -1];
      const out = [];
      for (const sq of Object.keys(p.pieces).sort()) {
        const [c, r] = o.squareCoords(sq);
        for (const k of [1, 2]) {
          const to = r + ahead * k;
          if (p.pieces[sq] !== me || to < 0 || to >= p.rows || p.pieces[o.squareName(c, to)]) break;
          out.push(`${sq}-${o.squareName(c, to)}`);
        }
      }
      return out;
    },
    play: (p, move, state) => {
      const { from, to } = o.parseMove(String(move)).steps[0];
      const pieces = { ...p.pieces, [to]: p.pieces[from] };
      delete pieces[from];
      const after = { ...p, pieces, side: p.side === "w" ? "b" : "w" };
      state.history.push(o.formatPosition(after));
      if (move === failOn) throw new Error("my engine broke half way");
      if (Number(to.slice(1)) === (p.side === "w" ? p.rows : 1)) {
        state.winner = p.side === "w" ? "white" : "black";
      }
      return after;
    },
    status: (p, state) => (state.winner ? [state.winner, "home-row"] : "ongoing"),
  };
}

async function replies(engine, requests) {
  const s = new o.Session(engine);
  const out = [];
  for (const line of requests.split("\n")) {
    const r = await s.handle(line);
    if (r !== null) out.push(r);
  }
  return [out, s];
}

test("a game is replayed through your play() and your state sees it (ORDO-10.1)", async () => {
  const log = [];
  const [r] = await replies(forwardEngine(log), "ordo 1\nposition B1W2/5/5/5/5 b classic\nstatus\n" +
    "moves\ngame B4/5/2W2/5/5 w classic moves c3-c5\nstatus\nmoves\nshow\n" +
    "game start moves a3-a4 i6-i5 a4-a5\nshow");
  assert.deepEqual(r.slice(1), ["ok", "status ongoing", "moves a5-a3 a5-a4", "ok",
    "status won white home-row", "moves", "position B1W2/5/5/5/5 b classic", "ok",
    "position 2BB2BB2/BBBBBBBBBB/BB2BB3B/W7B1/10/1W2WW2WW/WWWWWWWWWW/2WW2WW2 b classic"]);
  // one state per game start, each seeing every position of its game
  assert.deepEqual(log.map((s) => s.history.length), [1, 2, 4]);
  assert.deepEqual(log[1].history, ["B4/5/2W2/5/5 w classic", "B1W2/5/5/5/5 b classic"]);
});

test("game errors leave the previous game (spec/protocol.md, game)", async () => {
  const before = "B4/5/2W2/5/5 w classic";
  const tooLong = `game start moves${" a3-a4".repeat(o.MAX_GAME_MOVES + 1)}`;
  const [r] = await replies(forwardEngine(), `ordo 1\ngame ${before}\ngame moves c3-c4\n` +
    "game start chess\ngame start x 9x9\ngame 3\ngame 2/W1 w classic\ngame 4/4/4/4/4 w x\n" +
    "game B4/5/2W2/5/5 w classic moves zz\ngame B4/5/2W2/5/5 w classic moves c3-c4 c3-c2\n" +
    `game B4/5/2W2/5/5 w classic moves c3-c5 a5-a4\n${tooLong}\nshow\nstatus`);
  assert.equal(r[1], "ok");
  const codes = ["bad-arguments", "bad-arguments", "bad-arguments", "bad-position",
    "invalid-position", "unsupported", "bad-move", "illegal-move", "illegal-move", "bad-arguments"];
  codes.forEach((code, i) => assert.ok(r[2 + i].startsWith(`error ${code} `), `${r[2 + i]} ${code}`));
  assert.ok(r[8].startsWith("error bad-move move 1 of the game: move 'zz'"), r[8]);
  assert.equal(r[9], "error illegal-move c3-c2 (move 2 of the game)");
  assert.equal(r[10], "error illegal-move a5-a4 (move 2 of the game)"); // the game is over
  assert.deepEqual(r.slice(12), [`position ${before}`, "status ongoing"]);
});

test("a failing play() rebuilds your state from the game; a game whose move fails is not taken", async () => {
  const log = [];
  const [[r, s], shown] = await quietly(() => replies(forwardEngine(log, "c3-c4"),
    "ordo 1\ngame B4/5/2W2/5/5 w classic\nplay c3-c4\nstatus\ngame B4/5/2W2/5/5 w classic moves c3-c4"));
  assert.deepEqual(r.slice(1), ["ok", "error illegal-move c3-c4", "status ongoing",
    "error illegal-move c3-c4 (move 1 of the game)"]);
  assert.deepEqual(s.state.history, ["B4/5/2W2/5/5 w classic"]);
  assert.ok(shown.includes("my engine broke half way"), shown);
});

test("perft replays the game for an engine with state (spec/perft.md)", async () => {
  // below c3-c5 the engine has recorded a win and lists no move: 2, not 4
  const [r] = await replies(forwardEngine(), "ordo 1\ngame B4/5/2W2/5/5 w classic\nperft 1\nperft 2");
  assert.deepEqual(r.slice(2), ["perft 1 2", "perft 2 2"]);
});

const START_10X8 = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";
const AFTER_A3_A4 = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/W9/1W2WW2WW/WWWWWWWWWW/2WW2WW2 b classic";
// A stand-in for "your engine" of the quick start: it knows one position and one move.
const MY_ORDO = `
const START = ${JSON.stringify(START_10X8)};
const AFTER = ${JSON.stringify(AFTER_A3_A4)};
export function legalMoves(text) {
  if (text !== START) throw new Error(text);
  return ["a3-a4", "j3-j4", "a2:a3-a4"];
}
export function makeMove(text, move) {
  if (text !== START || move !== "a3-a4") throw new Error(text + " " + move);
  return AFTER;
}
export const result = (text) => (text === AFTER ? null : ["white", "home-row"]);
`;

test("the JavaScript quick start of the README serves", () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const readme = readFileSync(join(here, "..", "README.md"), "utf8");
  const snippet = /```js\n([^]*?)```/u.exec(readme)[1];
  const tmp = mkdtempSync(join(tmpdir(), "ordo-quick-start-"));
  try {
    writeFileSync(join(tmp, "my_adapter.mjs"), snippet);
    writeFileSync(join(tmp, "my_ordo.mjs"), MY_ORDO);
    writeFileSync(join(tmp, "ordo_protocol.mjs"),
      `export * from ${JSON.stringify(join(here, "ordo_protocol.mjs"))};\n`);
    const run = spawnSync("node", ["my_adapter.mjs"], { cwd: tmp, encoding: "utf8",
      timeout: 60000, input: "ordo 1\ncapabilities\nmoves\nplay a3-a5\nplay a3-a4\nshow\n" +
        "status\nposition 3B/4/B3/WW2 w classic\nquit\n" });
    assert.equal(run.stderr, "");
    const r = run.stdout.split("\n").slice(0, -1);
    assert.deepEqual(r.slice(0, 7), ["ordo 1 ok name my engine 1.0",
      "capabilities classic:10x8 x:10x8", "moves a2:a3-a4 a3-a4 j3-j4",
      "error illegal-move a3-a5", "ok", `position ${AFTER_A3_A4}`, "status ongoing"]);
    assert.match(r[7], /^error unsupported /u);
    assert.deepEqual(r.slice(8), ["bye"]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// The package of package.json: `import "ordo-protocol"` gives this very module, `require` its
// CommonJS form, generated from it and kept equal (node build_cjs.mjs).
test("the CommonJS form is ordo_protocol.mjs as build_cjs.mjs converts it", () => {
  const here = dirname(fileURLToPath(import.meta.url));
  assert.equal(readFileSync(join(here, "ordo_protocol.cjs"), "utf8"), generated(),
    "ordo_protocol.cjs is out of date: run node spec/conformance/adapters/js/build_cjs.mjs");
});

test("the package resolves by name: import gives the ES module, require the CommonJS one", async () => {
  assert.equal(await import("ordo-protocol"), o);
  const cjs = createRequire(import.meta.url)("ordo-protocol");
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(o).sort());
  const x = "5/BB1BB/2B2/1WW2/5 w x";
  assert.equal(cjs.formatPosition(cjs.parsePosition(x)), x);
  assert.equal(cjs.formatMove(cjs.parseMoveLenient("E2-E4")), "e2-e4");
  assert.throws(() => cjs.parseMove("e2-q4"), cjs.NotationError);
});

test("the package's licence files are the repository's", () => {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const name of ["LICENSE-MIT", "LICENSE-APACHE"]) {
    assert.equal(readFileSync(join(here, name), "utf8"),
      readFileSync(join(here, "..", "..", "..", "..", name), "utf8"), name);
  }
});
