#!/usr/bin/env bash
# The proof search against the 10 x 8 endgame tables (ordo_testkit::against_tables, run by the
# example prove-against-tables): random positions the tables hold, each proved without the
# tables, unbounded (who wins: the tables' value) and bounded by the tables' distance (a win
# within it proved, within two plies less refuted). Any difference fails the run.
#
#   bash analysis/prove-tables.sh ORDO OUT_DIR TABLES_DIR
#
# Builds the tables first where TABLES_DIR lacks them (`ordo tb build`: existing slices are
# checked and reused, so an interrupted build resumes): both games to 5 against 5 (classic
# about 8 minutes on 2 cores; Ordo X 25 minutes to 5v4 and an hour more for 5v5). Writes
# OUT_DIR/tables-10x8.jsonl (one tally per run) and OUT_DIR/tables-10x8.md.
set -euo pipefail
ordo=$1; out=$2; tables=$3
here=$(cd "$(dirname "$0")/.." && pwd)
"$ordo" tb build --variant classic --board 10x8 --max-pieces 5,5 --dir "$tables" >&2
"$ordo" tb build --variant x --board 10x8 --max-pieces 5,5 --dir "$tables" >&2
(cd "$here" && cargo build --release --locked --example prove-against-tables >&2)
target_dir=$(cd "$here" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
check="$target_dir/release/examples/prove-against-tables"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Each run: variant, material bound, samples, the fewest plies of a win sampled, seed, node budget.
runs="classic 3,3 1000 0 1 500000
classic 5,4 1000 0 2 500000
classic 5,4 500 9 3 500000
x 4,3 1000 0 4 500000
x 5,4 1000 0 5 500000
x 5,4 300 5 6 500000
x 5,5 1000 0 7 500000
x 5,5 300 5 8 500000
classic 5,5 1000 0 9 500000
classic 5,5 300 9 10 500000"
while read -r variant max samples min seed nodes; do
    "$check" "$tables" "$variant" 10x8 "$max" "$samples" "$min" "$seed" "$nodes" | tee -a "$tmp"
done <<< "$runs"
mv "$tmp" "$out/tables-10x8.jsonl"
trap - EXIT
python3 - "$out/tables-10x8.jsonl" > "$out/tables-10x8.md" <<'PY'
import json, sys
game = {"classic": "Ordo", "x": "Ordo X"}
print("| game | material up to | samples | wins of at least | proved as the tables | one side refuted | not settled | bounded checks as the tables | bounded not settled | differences | nodes | s |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(f"| {game[r['variant']]} | {r['max']} | {r['samples']} | {r['min_plies']} plies | {r['proved']} | "
          f"{r['one_side']} | {r['open']} | {r['bounded']} | {r['bounded_open']} | {len(r['differences'])} | "
          f"{r['nodes']} | {r['seconds']:.1f} |")
PY
cat "$out/tables-10x8.md"
