#!/usr/bin/env bash
# Everything in analysis/. The reports of analysis/games/ (small boards) and
# analysis/tablebases/ (10 x 8 endgame slices) were produced by the retro solver, which
# counted every reachable position and how each game ends; it left the product at commit
# 355d057 (`ordo solve|tb build --solver retro`, run by this script up to then) and stays in
# the test tooling (ordo-testkit) as the compact solver's oracle. Those JSON reports are the
# published record: this script keeps them and rebuilds analysis/games.md and
# analysis/tablebases.md from them. To produce them again, run this script at commit 355d057.
#
#   bash analysis/run.sh            # rebuild games.md and tablebases.md from the JSON
#   bash analysis/run.sh --compact  # the compact solver's reports in analysis/compact/
#                                   # (hours; each kept only once verified, existing ones kept)
#   bash analysis/run.sh --proofs   # the proof search on every solved board, analysis/proofs/
#                                   # (300 s a board at most; certificates checked)
#   bash analysis/run.sh --long-proofs # the row2 5 x 5 starts, 30 minutes and 4 GB each
#                                   # (analysis/proofs/*-5x5-row2.json, long.b3)
#   bash analysis/run.sh --problems # 10 x 8 problems composed from random games by the proof
#                                   # search, with certificates (analysis/problems/games.*;
#                                   # minutes)
#   bash analysis/run.sh --prove-tables # the proof search against the 10 x 8 tables
#                                   # (analysis/proofs/tables-10x8.*; builds the tables first)
#   bash analysis/run.sh --attempts # the proof search for 150 s on row2 6 x 6 and 8 x 8, both
#                                   # games (analysis/proofs/attempts.jsonl; 10 minutes)
#   bash analysis/run.sh --row2-6x5 # the proof search on the row2 6 x 5 starts, resumable from
#                                   # tables/prove-*.ckpt (110 minutes and 7 GB a game a
#                                   # run, weak proof numbers;
#                                   # analysis/proofs/*-6x5-row2.json, row2-6x5.b3)
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
if [ "${1:-}" = "--proofs" ]; then
    bash analysis/prove-solved.sh "$ordo" analysis/proofs 300
    exit 0
fi
if [ "${1:-}" = "--problems" ]; then
    bash analysis/compose-games.sh "$ordo" analysis/problems
    exit 0
fi
if [ "${1:-}" = "--prove-tables" ]; then
    bash analysis/prove-tables.sh "$ordo" analysis/proofs tables
    exit 0
fi
if [ "${1:-}" = "--attempts" ]; then
    bash analysis/prove-attempts.sh "$ordo" analysis/proofs 150
    exit 0
fi
# prove_row2 BOARD SECONDS [MEMORY [FLAG…]]: the proof search on the row2 start of BOARD in
# both games, MEMORY (4G unless given) and SECONDS each, with any further flags, resumable from
# tables/prove-GAME-BOARD-row2.ckpt; each report goes to analysis/proofs/GAME-BOARD-row2.json,
# and each certificate's closing line (its BLAKE3) with its name to standard output.
prove_row2() {
    local board=$1 seconds=$2 memory=${3:-4G} v
    shift 2; shift $(( $# > 0 ? 1 : 0 ))
    mkdir -p tables analysis/proofs
    for v in x classic; do
        "$ordo" prove --variant $v --board "$board" --setup row2 --memory-limit "$memory" "$@" \
            --time "$seconds" --checkpoint "tables/prove-$v-$board-row2.ckpt" \
            --certificate "tables/$v-$board-row2.cert" \
            --json >"analysis/proofs/$v-$board-row2.json" || true
        if [ -f "tables/$v-$board-row2.cert" ]; then
            echo "$(tail -1 "tables/$v-$board-row2.cert") $v-$board-row2.cert"
        fi
    done
}
if [ "${1:-}" = "--long-proofs" ]; then
    prove_row2 5x5 1800 >analysis/proofs/long.b3
    exit 0
fi
if [ "${1:-}" = "--row2-6x5" ]; then
    prove_row2 6x5 6600 7G --weak >analysis/proofs/row2-6x5.b3
    exit 0
fi
if [ "${1:-}" = "--compact" ]; then
    mkdir -p analysis/compact tables
    compact classic-10x8-4v4.jsonl --verify tb build --variant classic --board 10x8 --max-pieces 4,4
    compact x-10x8-4v4.jsonl --verify tb build --variant x --board 10x8 --max-pieces 4,4
    compact classic-10x8-5v4.jsonl --verify tb build --variant classic --board 10x8 --max-pieces 5,4
    compact classic-10x8-5v5.jsonl --verify tb build --variant classic --board 10x8 --max-pieces 5,5
    compact x-10x8-5v4.jsonl --verify tb build --variant x --board 10x8 --max-pieces 5,4
    # The slices to 5v4 are verified by x-10x8-5v4.jsonl; this run verifies the 5v5 it builds.
    compact x-10x8-5v5.jsonl --verify-new tb build --variant x --board 10x8 --max-pieces 5,5
    compact x-6x5-row1.json --verify solve --variant x --board 6x5 --setup row1
    compact classic-6x6-row1.json --verify solve --variant classic --board 6x6 --setup row1
    compact x-6x6-row1.json --verify solve --variant x --board 6x6 --setup row1
    compact classic-5x5-row2.json --verify solve --variant classic --board 5x5 --setup row2
    compact x-5x5-row2.json --verify solve --variant x --board 5x5 --setup row2
    # The job graph of classic row2 6 x 5, sized for a cluster: too large to build here.
    [ -s analysis/plans/classic-6x5-row2.json ] || "$ordo" tb plan --variant classic --board 6x5 \
        --setup row2 --format json --dir /cluster/ordo-tables --ordo /usr/local/bin/ordo \
        >analysis/plans/classic-6x5-row2.json
    exit 0
fi
# The retro solver's reports, as published (see above): none is produced here any more.
for out in analysis/games/*.json analysis/tablebases/classic-10x8.jsonl analysis/tablebases/x-10x8.jsonl; do
    [ -s "$out" ] || { echo "$out is missing: produce it with this script at commit 355d057" >&2; exit 1; }
done
"$ordo" analysis games analysis/games >analysis/games.md.tmp
mv analysis/games.md.tmp analysis/games.md
"$ordo" analysis tablebases analysis/tablebases/classic-10x8.jsonl analysis/tablebases/x-10x8.jsonl \
    >analysis/tablebases.md.tmp
mv analysis/tablebases.md.tmp analysis/tablebases.md
echo "analysis/games.md and analysis/tablebases.md rebuilt"
