#!/usr/bin/env bash
# Everything in analysis/: solve the small boards (one JSON report each in analysis/games/),
# build the 10 x 8 endgame tables (JSON lines in analysis/tablebases/), then rebuild
# analysis/games.md and analysis/tablebases.md from the JSON. Tables go to tables/ (reused if
# present, resumed if interrupted); every table is verified before its report is kept.
# These tables are the retro solver's (--solver retro), whose reports count how games end.
#
#   bash analysis/run.sh            # row1 3x3..5x5, row2 3x4..5x4 and 4x5; 10x8 classic to
#                                   # 3 against 3, Ordo X to 4 against 4
#   bash analysis/run.sh --stretch  # also row1 6x5, 5x6, 6x6 and row2 5x5, 6x5
#   bash analysis/run.sh --compact  # only the compact solver's reports in analysis/compact/
#                                   # (hours; each kept only once verified, existing ones kept)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
# The binary where cargo puts it, CARGO_TARGET_DIR or a configured target dir included.
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
ordo="$target_dir/release/ordo"
# The compact solver's reports (analysis/README.md, "Compact tables" and "Compact game solves").
# compact FILE VERIFY ARGS...: VERIFY is --verify, or --verify-new for a table set grown by
# one slice whose smaller slices an earlier report verified.
compact() {
    local out="analysis/compact/$1" verify=$2
    shift 2
    if [ -s "$out" ]; then
        echo "have $out"
        return
    fi
    echo "running ordo $* $verify"
    "$ordo" "$@" "$verify" --json --memory-limit 18G >"$out.tmp"
    mv "$out.tmp" "$out"
}
if [ "${1:-}" = "--compact" ]; then
    mkdir -p analysis/compact tables
    compact classic-10x8-4v4.jsonl --verify tb build --variant classic --board 10x8 --max-pieces 4,4
    compact x-10x8-4v4.jsonl --verify tb build --variant x --board 10x8 --max-pieces 4,4
    compact x-10x8-5v4.jsonl --verify tb build --variant x --board 10x8 --max-pieces 5,4
    # The slices to 5v4 are verified by x-10x8-5v4.jsonl; this run verifies the 5v5 it builds.
    compact x-10x8-5v5.jsonl --verify-new tb build --variant x --board 10x8 --max-pieces 5,5
    compact x-6x5-row1.json --verify solve --variant x --board 6x5 --setup row1
    compact classic-6x6-row1.json --verify solve --variant classic --board 6x6 --setup row1
    compact x-6x6-row1.json --verify solve --variant x --board 6x6 --setup row1
    compact classic-5x5-row2.json --verify solve --variant classic --board 5x5 --setup row2
    exit 0
fi
boards_row1="3x3 4x3 5x3 3x4 4x4 5x4 3x5 4x5 5x5"
boards_row2="3x4 4x4 5x4 4x5"
if [ "${1:-}" = "--stretch" ]; then
    boards_row1="$boards_row1 6x5 5x6 6x6"
    boards_row2="$boards_row2 5x5 6x5"
fi
solve() {
    local variant=$1 board=$2 setup=$3
    local out="analysis/games/$variant-$board-$setup.json"
    if [ -s "$out" ]; then
        echo "have $out"
        return
    fi
    echo "solving $variant $board $setup"
    # The report only counts once the table verifies (exit 0); written atomically.
    "$ordo" solve --variant "$variant" --board "$board" --setup "$setup" --verify --solver retro --json >"$out.tmp"
    mv "$out.tmp" "$out"
}
for variant in classic x; do
    for b in $boards_row1; do solve "$variant" "$b" row1; done
    for b in $boards_row2; do solve "$variant" "$b" row2; done
done
tablebase() {
    local variant=$1 max=$2
    local out="analysis/tablebases/$variant-10x8.jsonl"
    echo "building $variant 10x8 up to $max"
    "$ordo" tb build --variant "$variant" --board 10x8 --max-pieces "$max" --verify --solver retro --json >"$out.tmp"
    mv "$out.tmp" "$out"
}
mkdir -p analysis/tablebases
tablebase classic 3,3
tablebase x 4,4
"$ordo" analysis games analysis/games >analysis/games.md.tmp
mv analysis/games.md.tmp analysis/games.md
"$ordo" analysis tablebases analysis/tablebases/classic-10x8.jsonl analysis/tablebases/x-10x8.jsonl \
    >analysis/tablebases.md.tmp
mv analysis/tablebases.md.tmp analysis/tablebases.md
echo "analysis/games.md and analysis/tablebases.md rebuilt"
