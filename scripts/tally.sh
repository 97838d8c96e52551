# The pass/fail tally of the project's shell tests, sourced by them: `tally_start NAME`, then
# `pass WHAT`, `fail WHAT`, `die WHAT` (a failure that ends the test) and `finish`, which
# prints the time and 'N passed, N failed' and exits 1 on any failure (or if nothing passed).
# shellcheck shell=bash
tally_start() {
    tally_name=$1
    tally_clock=$SECONDS
    passed=0
    failed=0
}
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }
finish() {
    echo "$tally_name: $((SECONDS - tally_clock)) s in all"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}
die() { fail "$*"; finish; }
