#!/usr/bin/env bash
# Prove the start of every board the retrograde solver has solved (analysis/games/*.json and
# analysis/compact/*.json) with `ordo prove`, check each certificate on the reference engine,
# and write one JSON line per board: the solver's start value beside the proof's.
#
#   bash analysis/prove-solved.sh ORDO OUT_DIR [SECONDS_PER_BOARD]
#
# ORDO is the `ordo` binary. OUT_DIR receives `proofs.jsonl`, the table `proofs.md` and
# `proofs.b3` (each certificate's closing BLAKE3 line: the search is deterministic, so a rerun
# with the same budget writes the same files); the certificates go to OUT_DIR/certificates/.
set -euo pipefail
ordo=$1; out=$2; secs=${3:-120}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/certificates"
: > "$out/proofs.jsonl"
: > "$out/proofs.b3"
for f in "$here"/games/*.json "$here"/compact/*-row[12].json; do
  read -r variant board setup start < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["variant"], d["board"], d["setup"], d["start"])' "$f")
  cert="$out/certificates/$variant-$board-$setup.cert"
  rm -f "$cert"
  proof=$("$ordo" prove -q --json --variant "$variant" --board "$board" --setup "$setup" \
    --time "$secs" --memory-limit 2G --certificate "$cert" || true)
  checked=none
  if [ -f "$cert" ]; then
    checked=$("$ordo" prove --check "$cert" | sed -n 's/^result: //p' || echo refused)
    echo "$(tail -1 "$cert") $(basename "$cert")" >> "$out/proofs.b3"
  fi
  python3 - "$variant" "$board" "$setup" "$start" "$checked" "$proof" >> "$out/proofs.jsonl" <<'PY'
import json, sys
variant, board, setup, start, checked, proof = sys.argv[1:]
p = json.loads(proof)
print(json.dumps({"variant": variant, "board": board, "setup": setup, "solver": start,
                  "proof": p["result"], "checked": checked, "nodes": p["nodes"],
                  "seconds": round(p["seconds"], 2),
                  "proof_nodes": sum(x["nodes"] for x in p["parts"]),
                  "longest": (p["parts"][0]["longest"] if p["parts"] else None),
                  "bounded": p.get("bounded")}))
PY
  tail -1 "$out/proofs.jsonl"
done
python3 - "$out/proofs.jsonl" > "$out/proofs.md" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
game = {"classic": "Ordo", "x": "Ordo X"}
print("| game | board | setup | solver | proof search | checked | nodes | s | proof nodes | longest line | bounded by |")
print("|---|---|---|---|---|---|---:|---:|---:|---:|---:|")
for r in rows:
    longest = "" if r["longest"] is None else r["longest"]
    print(f"| {game[r['variant']]} | {r['board']} | {r['setup']} | {r['solver']} | {r['proof']} | "
          f"{r['checked']} | {r['nodes']} | {r['seconds']} | {r['proof_nodes']} | {longest} | "
          f"{r.get('bounded') or ''} |")
PY
