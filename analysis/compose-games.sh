#!/usr/bin/env bash
# Problems on the 10 x 8 board with many pieces, composed by the proof search from random
# games (`ordo problem compose --from-games`, spec/problems.md "Composing"), then proved again
# by `ordo problem verify --method prove`, each key's certificate checked on the reference
# engine by `ordo prove --check`.
#
#   bash analysis/compose-games.sh ORDO OUT_DIR
#
# Writes OUT_DIR/games.toml (the problems), OUT_DIR/games.jsonl (one verify report each, with
# the certificate's check), OUT_DIR/games.b3 (each certificate's closing BLAKE3 line: the
# searches are deterministic, so a rerun writes the same files) and OUT_DIR/games.md (the
# table analysis/problems/README.md shows). The certificates go to OUT_DIR/certificates/.
set -euo pipefail
ordo=$1; out=$2
mkdir -p "$out/certificates"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each set: variant, seed, fewest and most turns, how many problems; each bounded search
# at most 200,000 nodes (a position a search leaves open is passed over).
sets="classic 1 2 2 3
classic 2 3 3 3
classic 3 4 4 3
x 1 2 3 5"
{
    echo "# Problems composed by the proof search from random games of the 10 x 8 standard start"
    echo "# (analysis/compose-games.sh; format: spec/problems.md). Each position's side to move"
    echo "# wins within the stipulation by exactly one first move, and in no fewer turns."
} > "$tmp/games.toml"
while read -r variant seed min max count; do
    "$ordo" problem compose --from-games --variant "$variant" --board 10x8 --seed "$seed" \
        --min-turns "$min" --max-turns "$max" --count "$count" --games 300 --max-nodes 200000 2>/dev/null \
        | grep -v '^#' >> "$tmp/games.toml"
done <<< "$sets"
rm -f "$out"/certificates/*.cert
"$ordo" problem verify "$tmp/games.toml" --method prove --json \
    --certificates "$out/certificates" > "$tmp/games.jsonl"
: > "$tmp/games.b3"
: > "$tmp/checked.jsonl"
for cert in "$out"/certificates/*.cert; do
    echo "$(tail -1 "$cert") $(basename "$cert")" >> "$tmp/games.b3"
    longest=$("$ordo" prove --check "$cert" | sed -n 's/^longest line: \([0-9]*\) plies.*/\1/p')
    nodes=$(sed -n 's/^nodes //p' "$cert")
    echo "{\"certificate\": \"$(basename "$cert")\", \"longest\": $longest, \"nodes\": $nodes}" >> "$tmp/checked.jsonl"
done
python3 - "$tmp/games.toml" "$tmp/games.jsonl" "$tmp/checked.jsonl" > "$tmp/games.md" <<'PY'
import json, sys, tomllib
problems = {p["id"]: p for p in tomllib.load(open(sys.argv[1], "rb"))["problem"]}
reports = [json.loads(l) for l in open(sys.argv[2])]
checked = {c["certificate"]: c for c in map(json.loads, open(sys.argv[3]))}
print("| id | position | pieces | stipulation | key | quickest win | search nodes | certificate nodes | longest line |")
print("|---|---|---:|---|---|---:|---:|---:|---:|")
for r in reports:
    p = problems[r["id"]]
    board = p["position"].split()[0]
    pieces = sum(ch in "WB" for ch in board)
    c = checked[r["id"] + ".cert"]
    assert r["sound"], r
    print(f"| {r['id']} | `{p['position']}` | {pieces} | {p['stipulation']} | `{p['keys'][0]}` | "
          f"{r['shortest']} plies | {r['proof_nodes']} | {c['nodes']} | {c['longest']} plies |")
PY
for f in games.toml games.jsonl games.b3 games.md; do mv "$tmp/$f" "$out/$f"; done
cat "$out/games.md"
