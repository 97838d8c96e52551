#!/usr/bin/env node
// A sample Ordo engine built on ordo_protocol.mjs.
//
// THE RULES HERE ARE NOT OURS TO WRITE: this sample's three functions are a stand-in for "your
// program", and they delegate to the `ordo` binary of this project (`ordo moves`, `ordo play`,
// `ordo show`). Replace them with calls into your own engine. What the sample does exercise for
// real is the module: every position and move crosses it through parsePosition,
// formatPosition, parseMove and formatMove, and the protocol loop (handshake, capabilities,
// position, moves, play, status, show, errors) is the module's.
//
// Usage:
//   node sample_engine.mjs               declares capabilities classic:10x8 x:10x8
//   node sample_engine.mjs --all-boards  declares classic:* x:* (every board of ORDO-1.5)
// The `ordo` binary is $ORDO_BIN, else `ordo` on the PATH, else the one `cargo build --release`
// left in this checkout (target/release/ordo).
//
//   ordo conform "node spec/conformance/adapters/js/sample_engine.mjs"

import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { fileURLToPath } from "node:url";
import * as op from "./ordo_protocol.mjs";

/** $ORDO_BIN, else `ordo` on the PATH, else this checkout's target/release or target/debug. */
function findOrdo() {
  if (process.env.ORDO_BIN) return process.env.ORDO_BIN;
  if (!spawnSync("ordo", ["--version"]).error) return "ordo";
  for (const profile of ["release", "debug"]) {
    const built = fileURLToPath(new URL(`../../../../target/${profile}/ordo`, import.meta.url));
    try {
      accessSync(built, constants.X_OK);
      return built;
    } catch {
      // not built in this profile
    }
  }
  return "ordo";
}

const ORDO = findOrdo();
const shown = new Map();

/** Run the ordo binary: {status, stdout, stderr}. */
function ordo(...args) {
  const r = spawnSync(ORDO, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error) {
    throw new Error(`cannot run ${ORDO} (${r.error.code}): set ORDO_BIN to the ordo binary ` +
      "or put ordo on the PATH");
  }
  return r;
}

function show(p) {
  const text = op.formatPosition(p);
  if (!shown.has(text)) shown.set(text, ordo("show", "--position", text));
  return shown.get(text);
}

/** Why the position cannot be set up (ORDO-2.3), as `ordo show` says, or null. */
function validate(p) {
  const r = show(p);
  return r.status ? r.stderr.trim().replace(/^ordo: error: --position: /u, "") : null;
}

function moves(p) {
  const r = ordo("moves", "--position", op.formatPosition(p));
  if (r.status) throw new Error(`ordo moves failed: ${r.stderr.trim()}`);
  return r.stdout.split(/\s+/u).filter(Boolean).map(op.parseMove);
}

function play(p, move) {
  const r = ordo("play", "--position", op.formatPosition(p), op.formatMove(move));
  const found = /^position: (.*)$/mu.exec(r.stdout);
  if (r.status || !found) throw new Error(`ordo play failed: ${r.stderr.trim()}`);
  return op.parsePosition(found[1]);
}

function status(p) {
  const out = show(p).stdout;
  if (/^status: ongoing$/mu.test(out)) return "ongoing";
  const won = /^status: (White|Black) wins \(([a-z-]+),/mu.exec(out);
  if (!won) throw new Error(`no status in the output of ordo show: ${JSON.stringify(out)}`);
  return [won[1].toLowerCase(), won[2]];
}

if (spawnSync(ORDO, ["--version"]).error) {
  console.error("sample_engine.mjs: no ordo binary: not in $ORDO_BIN, not on the PATH, and no " +
    "target/release/ordo in this checkout; install ordo or set ORDO_BIN");
  process.exit(2);
}
const capabilities = process.argv.includes("--all-boards") ? "classic:* x:*" : "classic:10x8 x:10x8";
await op.serve({ name: "node sample (delegates to ordo)", moves, play, status, capabilities, validate });
