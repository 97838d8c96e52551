#!/usr/bin/env bash
# Solve the small boards of issue 5 and keep each report as JSON in analysis/games/.
# Tables go to tables/ (reused if present, resumed if interrupted). Then analysis/games.md
# is rebuilt from the JSON files.
#
#   bash analysis/run.sh            # the targets: row1 3x3..5x5, row2 3x4..5x4 and 4x5
#   bash analysis/run.sh --stretch  # also row1 6x5, 5x6, 6x6 and row2 5x5, 6x5
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
ordo=target/release/ordo
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
    "$ordo" solve --variant "$variant" --board "$board" --setup "$setup" --verify --json >"$out.tmp"
    mv "$out.tmp" "$out"
}
for variant in classic x; do
    for b in $boards_row1; do solve "$variant" "$b" row1; done
    for b in $boards_row2; do solve "$variant" "$b" row2; done
done
"$ordo" analysis games analysis/games >analysis/games.md.tmp
mv analysis/games.md.tmp analysis/games.md
echo "analysis/games.md rebuilt"
