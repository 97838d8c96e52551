#!/usr/bin/env bash
# The compact solver, one thread, on the boards of the solver table in docs/guide.md: classic and
# Ordo X 5x4 row1, classic 4x5 row2 and the classic 10 x 8 tablebase to 3 against 2. Each command
# runs under `/usr/bin/time -v`: CPU seconds are user + system, the peak is the maximum resident set
# size. Positions are the core positions of every material. The result is a Markdown table (the
# README's, see "bytes/position"), the date, the commit and the load average around every run: on a
# shared machine compare CPU seconds, not wall time.
#
# The retro solver's rows of that table were measured by this script up to commit 355d057,
# when the product still had `--solver retro`; they stay as published. The retro solver is
# now in the test tooling: `cargo bench -p ordo-bench --bench solve -- retro-vs-compact`
# puts both side by side in one run (bench/benches/solve.rs).
#
# Usage: benches/solver-compare.sh [--quick] [ORDO]
#   ORDO     the binary (default: target/release/ordo; build it with `cargo build --release`)
#   --quick  leave out classic 4x5 row2
set -euo pipefail
solvers="compact"

quick=0
if [[ "${1:-}" == "--quick" ]]; then
    quick=1
    shift
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
ordo="${1:-${CARGO_TARGET_DIR:-$root/target}/release/ordo}"
if [[ ! -x "$ordo" ]]; then
    echo "solver-compare: no binary at $ordo (run cargo build --release, or pass its path)" >&2
    exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export RAYON_NUM_THREADS=1

load() { cut -d' ' -f1 /proc/loadavg; }

# run LABEL SOLVER KIND ARGS...: one measured command; KIND says how to count positions.
run() {
    local label="$1" solver="$2" kind="$3"
    shift 3
    local before out="$work/out" t="$work/time"
    before="$(load)"
    rm -rf "$work/tables"
    if ! /usr/bin/time -v -o "$t" "$ordo" "$@" >"$out" 2>"$work/err"; then
        echo "solver-compare: $label ($solver) failed: $(tail -1 "$work/err")" >&2
        exit 1
    fi
    local positions
    case "$kind" in
        solve-compact) positions=$(grep -oP '^core positions \K[0-9]+' "$out") ;;
        tb-compact) positions=$(grep -oP ': \K[0-9]+(?= core positions)' "$out" | paste -sd+ | bc) ;;
    esac
    local user sys rss
    user=$(grep -oP 'User time \(seconds\): \K[0-9.]+' "$t")
    sys=$(grep -oP 'System time \(seconds\): \K[0-9.]+' "$t")
    rss=$(grep -oP 'Maximum resident set size \(kbytes\): \K[0-9]+' "$t")
    awk -v l="$label" -v s="$solver" -v p="$positions" -v u="$user" -v y="$sys" -v r="$rss" \
        -v b="$before" -v a="$(load)" 'BEGIN {
        cpu = u + y; bytes = r * 1024; n = p ""; t = "";
        while (length(n) > 3) { t = "," substr(n, length(n) - 2) t; n = substr(n, 1, length(n) - 3) }
        n = n t;
        printf "| %s | %s | %s | %.2f | %.3f | %.1f MB | %.1f | %s to %s |\n",
            l, s, n, cpu, cpu * 1e6 / p, bytes / 1e6, bytes / p, b, a
    }' | tee -a "$work/rows"
}

echo "solver-compare: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load average $(load)"
echo
echo "| board | solver | positions | CPU s | µs/position | peak RSS | bytes/position | load |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
for solver in $solvers; do
    run "classic 5x4 row1" "$solver" "solve-$solver" solve --variant classic --board 5x4 \
        --setup row1 --threads 1 --no-save
done
for solver in $solvers; do
    run "Ordo X 5x4 row1" "$solver" "solve-$solver" solve --variant x --board 5x4 \
        --setup row1 --threads 1 --no-save
done
if [[ $quick == 0 ]]; then
    for solver in $solvers; do
        run "classic 4x5 row2" "$solver" "solve-$solver" solve --variant classic --board 4x5 \
            --setup row2 --threads 1 --no-save
    done
fi
for solver in $solvers; do
    run "classic 10x8 to 3v2" "$solver" "tb-$solver" tb build --board 10x8 --max-pieces 3,2 \
        --dir "$work/tables"
done
