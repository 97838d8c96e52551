#!/usr/bin/env bash
# The coverage-guided campaign: every cargo-fuzz target in turn for SECONDS each (default 600),
# on the nightly toolchain. New inputs go to fuzz/corpus-work/<target> (the committed seed
# corpus in fuzz/corpus/<target> is read, never written); a crash leaves its input in
# fuzz/artifacts/<target> and makes the script exit non-zero. Each run's log is kept in
# fuzz/logs/<target>.log, and its last status line is printed.
#
#   bash fuzz/campaign.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(differential notation apply adjudicate table_file protocol)
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
mkdir -p logs
failed=0
for t in "${targets[@]}"; do
    mkdir -p "corpus-work/$t"
    echo "== $t: ${seconds} s"
    if cargo +nightly fuzz run "$t" "corpus-work/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -print_final_stats=1 >"logs/$t.log" 2>&1; then
        grep -E '^#[0-9]+' "logs/$t.log" | tail -1 || true
        grep -E 'stat::number_of_executed_units|Done [0-9]+ runs' "logs/$t.log" || true
    else
        echo "$t FAILED (see fuzz/logs/$t.log and fuzz/artifacts/$t)"
        tail -30 "logs/$t.log"
        failed=1
    fi
done
exit $failed
