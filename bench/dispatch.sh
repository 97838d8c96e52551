#!/usr/bin/env bash
# Runtime dispatch measured side by side: one release build of ordo run on its x86-64-v3 copy
# of the hot loops (what it picks where the processor has them), the same binary forced onto
# the portable copy (ORDO_CPU=baseline), and a build with RUSTFLAGS='-C target-cpu=native' as
# the anchor, alternated run by run so that a shared machine's load falls on all three alike.
# Each run's CPU seconds (user + system, /usr/bin/time) are printed as they come, then the
# mean, median, minimum and maximum per workload and path.
#
# Usage: bench/dispatch.sh [ROUNDS] [ORDO] [NATIVE_ORDO] [PREVIOUS_ORDO]
#   ROUNDS         runs per workload and path (default 5; the Ordo X perft runs half as many)
#   ORDO           the portable build (default: target/release/ordo; cargo build --release)
#   NATIVE_ORDO    the anchor (default: target-native/release/ordo; RUSTFLAGS='-C
#                  target-cpu=native' CARGO_TARGET_DIR=target-native cargo build --release)
#   PREVIOUS_ORDO  optional: an earlier portable build, run as it picks (path "previous"),
#                  to compare a change with what it replaces in the same run
set -euo pipefail
rounds="${1:-5}"
ordo="${2:-target/release/ordo}"
native="${3:-target-native/release/ordo}"
previous="${4:-}"
paths=(v3 baseline native)
[[ -n "$previous" ]] && paths+=(previous)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# name, rounds divisor, arguments (a table build writes into a fresh folder every run)
workloads=(
    "perft-classic-10x8-5|1|perft 5 --threads 1 -q"
    "perft-x-8x8-3|2|perft 3 --variant x --board 8x8 --threads 1 -q"
    "tb-classic-10x8-4v3|1|tb build --board 10x8 --max-pieces 4,3 --dir TB"
    "tb-x-10x8-3v3|1|tb build --variant x --board 10x8 --max-pieces 3,3 --dir TB"
)

run() { # path binary args...
    local path="$1" bin="$2"
    shift 2
    rm -rf "$scratch/tb"
    local env=()
    [[ "$path" == baseline ]] && env=(ORDO_CPU=baseline)
    env "${env[@]}" /usr/bin/time -f '%U %S' -o "$scratch/time" "$bin" "$@" >/dev/null 2>&1
    awk '{ printf "%.2f\n", $1 + $2 }' "$scratch/time"
}

for w in "${workloads[@]}"; do
    IFS='|' read -r name div args <<<"$w"
    n=$(((rounds + div - 1) / div))
    for ((i = 1; i <= n; i++)); do
        for path in "${paths[@]}"; do
            bin="$ordo"
            [[ "$path" == native ]] && bin="$native"
            [[ "$path" == previous ]] && bin="$previous"
            # shellcheck disable=SC2086
            s=$(run "$path" "$bin" ${args//TB/$scratch/tb})
            echo "$name $path $s"
        done
    done
done | tee "$scratch/runs"

echo
echo "workload path runs mean median min max (CPU s)"
sort -k1,1 -k2,2 -k3,3n "$scratch/runs" | awk '
    function flush() {
        if (n) printf "%s %s %d %.2f %.2f %.2f %.2f\n", key[1], key[2], n, sum / n,
            (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n]
    }
    { k = $1 " " $2 }
    k != last { flush(); n = 0; sum = 0; last = k; split(k, key, " ") }
    { v[++n] = $3; sum += $3 }
    END { flush() }'
