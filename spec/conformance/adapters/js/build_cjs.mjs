#!/usr/bin/env node
// Writes ordo_protocol.cjs, the CommonJS form of ordo_protocol.mjs, for `require("ordo-protocol")`.
// The module has no imports and only top-level `export` declarations, so the CommonJS form is
// the same text with each `export ` dropped and one `module.exports` naming every export.
// test_ordo_protocol.mjs checks that the committed file equals what this writes.
//
//   node spec/conformance/adapters/js/build_cjs.mjs          rewrite ordo_protocol.cjs
//   node spec/conformance/adapters/js/build_cjs.mjs --check  exit 1 when it is out of date

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The CommonJS text of an ES module made of top-level `export` declarations. */
export function toCommonJs(source) {
  const names = [];
  const body = source.replace(
    /^export ((?:async )?function\*? |class |const |let )([A-Za-z_$][\w$]*)/gmu,
    (_, kind, name) => {
      names.push(name);
      return `${kind}${name}`;
    });
  if (/^\s*(?:import|export)\b/mu.test(body)) {
    throw new Error("ordo_protocol.mjs has an import or export this generator cannot convert");
  }
  return "// GENERATED from ordo_protocol.mjs by build_cjs.mjs: edit that file, then run\n" +
    "// `node build_cjs.mjs`.\n\"use strict\";\n" + body +
    `\nmodule.exports = {\n${names.map((n) => `  ${n},\n`).join("")}};\n`;
}

export const generated = () => toCommonJs(readFileSync(join(here, "ordo_protocol.mjs"), "utf8"));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = join(here, "ordo_protocol.cjs");
  if (process.argv.includes("--check")) {
    if (readFileSync(target, "utf8") !== generated()) {
      console.error("ordo_protocol.cjs is out of date: run node build_cjs.mjs");
      process.exit(1);
    }
  } else {
    writeFileSync(target, generated());
  }
}
