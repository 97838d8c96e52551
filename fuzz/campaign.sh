#!/usr/bin/env bash
# The coverage-guided campaign: every cargo-fuzz target in turn for SECONDS each (default 600),
# on the nightly toolchain. New inputs go to fuzz/corpus-work/<target> (the committed seed
# corpus in fuzz/corpus/<target> is read, never written); a crash leaves its input in
# fuzz/artifacts/<target> and makes the script exit non-zero. Each run's log is kept in
# fuzz/logs/<target>.log; its last status line and its executions per second are printed.
#
#   bash fuzz/campaign.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(differential apply adjudicate record notation table_file protocol certificate)
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
mkdir -p logs
failed=0
for t in "${targets[@]}"; do
    mkdir -p "corpus-work/$t"
    echo "== $t: ${seconds} s"
    # The engine targets check safe Rust: no sanitizer (README, "Fuzzing the engines against
    # each other"); the targets that reach system calls keep the address sanitizer.
    case "$t" in
        table_file | protocol) sanitizer=address ;;
        *) sanitizer=none ;;
    esac
    if cargo +nightly fuzz run -s "$sanitizer" "$t" "corpus-work/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -print_final_stats=1 >"logs/$t.log" 2>&1; then
        grep -E '^#[0-9]+' "logs/$t.log" | tail -1 || true
        # Executions per second over the whole run, from libFuzzer's final statistics.
        awk '/stat::number_of_executed_units/ {n = $2} /Done [0-9]+ runs in [0-9]+ second/ {s = $(NF-1)}
             END {if (n && s) printf "%s runs in %s s: %d exec/s\n", n, s, n / s}' "logs/$t.log"
    else
        echo "$t FAILED (see fuzz/logs/$t.log and fuzz/artifacts/$t)"
        tail -30 "logs/$t.log"
        failed=1
    fi
done
exit $failed
