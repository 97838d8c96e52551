#!/usr/bin/env bash
# The proof search on the starts beyond reach so far: classic and Ordo X row2 6 x 6 and the
# 8 x 8 board of the rule sheet's variant section (the 10 x 8 setup less its outer columns),
# each for a fixed budget. Records what a run reaches (the root's proof and disproof numbers
# for White, nodes, CPU seconds, peak memory), the measured bound on the next step.
#
#   bash analysis/prove-attempts.sh ORDO OUT_DIR [SECONDS]
#
# Writes OUT_DIR/attempts.jsonl, one line a start (a proof, if one is found, says so there;
# its certificate is not kept).
set -euo pipefail
ordo=$1; out=$2; secs=${3:-150}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for start in "classic 6x6 row2" "x 6x6 row2" "classic 8x8 -" "x 8x8 -"; do
    read -r variant board setup <<< "$start"
    args=(prove -q --json --variant "$variant" --board "$board" --memory-limit 2G --time "$secs")
    [ "$setup" = "-" ] || args+=(--setup "$setup")
    /usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$ordo" "${args[@]}" > "$tmp/proof.json" || true
    python3 - "$variant" "$board" "$setup" "$secs" "$tmp/proof.json" "$tmp/time" >> "$tmp/attempts.jsonl" <<'PY'
import json, sys
variant, board, setup, secs, proof, time = sys.argv[1:]
d = json.load(open(proof))
user, system, wall, peak = open(time).read().split("\n")[-2].split()
r = d["roots"][0]
print(json.dumps({"variant": variant, "board": board,
                  "setup": "row2" if setup != "-" else "standard less its outer columns",
                  "result": d["result"], "nodes": d["nodes"],
                  "cpu_seconds": round(float(user) + float(system), 1),
                  "wall_seconds": round(float(wall), 1), "peak_mb": round(int(peak) / 1024),
                  "attacker": r["attacker"], "proof": r["proof"], "disproof": r["disproof"],
                  "budget_seconds": int(secs), "memory_limit": "2G"}))
PY
done
mv "$tmp/attempts.jsonl" "$out/attempts.jsonl"
cat "$out/attempts.jsonl"
