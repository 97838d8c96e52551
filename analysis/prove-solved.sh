#!/usr/bin/env bash
# Prove the start of every board the retrograde solver has solved (analysis/games/*.json and
# analysis/compact/*.json) with `ordo prove`, check each certificate on the reference engine,
# and write one JSON line per board: the solver's start value beside the proof's.
#
#   bash analysis/prove-solved.sh ORDO OUT_DIR [SECONDS_PER_BOARD]
#
# ORDO is the `ordo` binary, OUT_DIR receives the certificates and `proofs.jsonl`.
set -euo pipefail
ordo=$1; out=$2; secs=${3:-120}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
: > "$out/proofs.jsonl"
for f in "$here"/games/*.json "$here"/compact/*-row[12].json; do
  read -r variant board setup start < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["variant"], d["board"], d["setup"], d["start"])' "$f")
  cert="$out/$variant-$board-$setup.cert"
  rm -f "$cert"
  proof=$("$ordo" prove -q --json --variant "$variant" --board "$board" --setup "$setup" \
    --time "$secs" --memory-limit 2G --certificate "$cert" || true)
  checked=none
  if [ -f "$cert" ]; then
    checked=$("$ordo" prove --check "$cert" | sed -n 's/^result: //p' || echo refused)
  fi
  python3 - "$variant" "$board" "$setup" "$start" "$checked" "$proof" >> "$out/proofs.jsonl" <<'PY'
import json, sys
variant, board, setup, start, checked, proof = sys.argv[1:]
p = json.loads(proof)
print(json.dumps({"variant": variant, "board": board, "setup": setup, "solver": start,
                  "proof": p["result"], "checked": checked, "nodes": p["nodes"],
                  "seconds": round(p["seconds"], 2),
                  "proof_nodes": sum(x["nodes"] for x in p["parts"]),
                  "longest": (p["parts"][0]["longest"] if p["parts"] else None)}))
PY
  tail -1 "$out/proofs.jsonl"
done
