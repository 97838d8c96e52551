#!/usr/bin/env bash
# Reliability attacks as a hostile user would make them (output failures, floods, oversized inputs,
# signals, hostile write targets), each under a memory limit where memory is the point, printed as
# the README's table: attack | cases | result. Exit status 1 when any case fails.
#
#   bash scripts/reliability.sh            # builds the release binary first
#   ORDO=target/debug/ordo bash scripts/reliability.sh
#
# Needs bash, coreutils (head, timeout, mkfifo), ulimit -v. Takes about a minute on two cores.
set -u
cd "$(dirname "$0")/.."
if [ -z "${ORDO:-}" ]; then
    cargo build --release --quiet || exit 2
    ORDO=target/release/ordo
fi
ORDO=$(realpath "$ORDO")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ordo-reliability.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
START=$(date +%s)
FAILED=0
ROWS=()

# row ATTACK CASES PASSED [NOTE]
row() {
    local result="held"
    if [ "$3" -ne "$2" ]; then
        result="FAILED ($(($2 - $3)) of $2)"
        FAILED=1
    fi
    ROWS+=("| $1 | $2 | $result${4:+; $4} |")
}

# Run "$@" under a virtual memory limit of $MEM KiB.
limited() { (ulimit -v "$MEM"; exec "$@"); }

# --- output that cannot be written -------------------------------------------------------------
ok=0
cmds=("rules --markdown" "moves --variant x" "show" "rules" "perft 2 --divide --engine bitboard")
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    "$ORDO" $c 2>"$WORK/err" | true
    [ "${PIPESTATUS[0]}" -eq 0 ] && [ ! -s "$WORK/err" ] && ok=$((ok + 1))
done
row "stdout closed by the reader (\`ordo rules --markdown \\| true\`)" ${#cmds[@]} $ok "exit 0, silent"
ok=0
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    "$ORDO" $c >/dev/full 2>"$WORK/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "cannot write to standard output" "$WORK/err" && ok=$((ok + 1))
done
row "stdout on a full device (\`> /dev/full\`)" ${#cmds[@]} $ok "one line, exit 2"
ok=0
for c in "rules NO-SUCH" "play z9-z10" "moves --position nonsense"; do
    # shellcheck disable=SC2086
    "$ORDO" $c 2>/dev/full >/dev/null
    [ $? -eq 2 ] && ok=$((ok + 1))
done
row "an error written to a full stderr" 3 $ok "exit 2, no panic"

# --- ordo engine: oversized requests, endless perft --------------------------------------------
MEM=262144
ok=0
{ echo "ordo 1"; head -c 1000000000 /dev/zero | tr '\0' a; echo; echo status; echo quit; } |
    limited "$ORDO" engine >"$WORK/out" 2>&1
grep -q "^error line-too-long" "$WORK/out" && grep -q "^status ongoing" "$WORK/out" && ok=$((ok + 1))
{ echo "ordo 1"; head -c 1000000000 /dev/zero; } | limited "$ORDO" engine >"$WORK/out" 2>&1
grep -q "^error line-too-long" "$WORK/out" && ok=$((ok + 1))
pad=$(printf 'status%65530s' "")
printf 'ordo 1\n%s\n%s\r\n%s \nquit\n' "$pad" "$pad" "$pad" | "$ORDO" engine >"$WORK/out" 2>&1
[ "$(sed -n 2,3p "$WORK/out" | grep -c '^status ongoing')" -eq 2 ] && sed -n 4p "$WORK/out" | grep -q "^error line-too-long" && ok=$((ok + 1))
row "\`ordo engine\`: a 1 GB request line, an endless one, one of exactly 65,536 bytes (256 MiB limit)" 3 $ok
ok=0
for e in bitboard reference; do
    t0=$(date +%s)
    printf 'ordo 1\nperft 8\nstatus\nquit\n' | timeout 120 "$ORDO" engine --engine "$e" >"$WORK/out" 2>&1
    t=$(($(date +%s) - t0))
    sed -n 2p "$WORK/out" | grep -q "^error bad-arguments perft 8 counts more than" &&
        sed -n 3p "$WORK/out" | grep -q "^status ongoing" && ok=$((ok + 1))
    PERFT_NOTE="${PERFT_NOTE:-}${PERFT_NOTE:+, }$e ${t} s"
done
row "\`ordo engine\`: \`perft 8\` from the start (both engines)" 2 $ok "refused after its budget: $PERFT_NOTE"

# --- ordo conform: floods from the engine, signals ---------------------------------------------
MEM=524288
ok=0
n=0
for eng in "cat /dev/zero" "cat /dev/zero >&2" "head -c 50000000 /dev/zero; echo; sleep 100" \
    "yes ordo; sleep 100" "while :; do echo 'ordo 1 ok name x'; done"; do
    n=$((n + 1))
    limited "$ORDO" conform "$eng" --timeout-ms 5000 --playouts 1 --plies 4 >"$WORK/out" 2>"$WORK/err"
    [ $? -eq 3 ] && grep -q "verdict: FAIL" "$WORK/out" && ok=$((ok + 1))
done
row "\`ordo conform\`: engine floods stdout or stderr, without or with newlines (512 MiB limit)" $n $ok "a report naming the failure, exit 3 (the engine is broken)"
ok=0
for sig in INT TERM; do
    rm -f "$WORK/gc"
    "$ORDO" conform "sleep 300 & echo \$! > $WORK/gc; sleep 301" --timeout-ms 100000 >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do [ -s "$WORK/gc" ] && break; sleep 0.1; done
    gc=$(cat "$WORK/gc" 2>/dev/null)
    pgrp=$(ps -o pgid= -p "$gc" 2>/dev/null | tr -d ' ')
    kill -s "$sig" "$pid"
    wait "$pid"
    code=$?
    sleep 0.5
    left=$(ps -e -o pgid=,stat= | awk -v g="$pgrp" '$1 == g && $2 !~ /^Z/' | wc -l)
    want=$([ "$sig" = INT ] && echo 130 || echo 143)
    [ -n "$pgrp" ] && [ "$code" -eq "$want" ] && [ "$left" -eq 0 ] && ok=$((ok + 1))
    [ -n "$pgrp" ] && kill -9 -- "-$pgrp" 2>/dev/null
done
row "SIGINT, SIGTERM to \`ordo conform\` while its engine (and a grandchild) hangs" 2 $ok "exit 130/143, no process of the engine's group left"

# --- check-game and echoed inputs ---------------------------------------------------------------
MEM=262144
ok=0
python3 -c "
import sys
w = sys.stdout.write
for i in range(1, 12_000_000): w(f'{i}. ')
" >"$WORK/numbers.txt"
for f in "$WORK/numbers.txt" /dev/zero; do
    limited "$ORDO" check-game "$f" >/dev/null 2>"$WORK/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && [ "$(wc -c <"$WORK/err")" -lt 300 ] && ok=$((ok + 1))
done
size=$(($(wc -c <"$WORK/numbers.txt") / 1000000))
row "\`check-game\` on ${size} MB of move numbers, on /dev/zero (256 MiB limit)" 2 $ok "one-line error, exit 2"
ok=0
big=$(head -c 120000 /dev/zero | tr '\0' e)
ctl=$(printf 'e2\x1b[31m-e4\x07')
for args in "play $big" "play $ctl" "moves --position $big" "moves --position $ctl" "rules $big"; do
    # shellcheck disable=SC2086
    "$ORDO" $args >/dev/null 2>"$WORK/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && [ "$(wc -c <"$WORK/err")" -lt 400 ] &&
        ! grep -q "$(printf '[\x01-\x1f]')" "$WORK/err" && ok=$((ok + 1))
done
row "error lines echoing a 120 KB token or control characters" 5 $ok "cut after 100 characters, escaped"

# --- hostile write targets, litter of killed writers --------------------------------------------
ok=0
echo keep >"$WORK/real.svg"
ln -s "$WORK/real.svg" "$WORK/link.svg"
mkfifo "$WORK/fifo.svg"
mkdir "$WORK/dir.svg"
for t in "$WORK/link.svg" "$WORK/fifo.svg" /dev/null "$WORK/dir.svg"; do
    timeout 20 "$ORDO" render --svg "$t" >/dev/null 2>"$WORK/err"
    [ $? -eq 2 ] && grep -q "not a regular file" "$WORK/err" && ok=$((ok + 1))
done
[ -L "$WORK/link.svg" ] && [ "$(cat "$WORK/real.svg")" = keep ] && ok=$((ok + 1))
row "\`--svg\` onto a symlink, a FIFO, /dev/null, a directory" 5 $ok "refused, target untouched"
ok=0
sh -c 'exit 0' &
dead=$!
wait $dead
# This machine's name as a temporary file carries it (crates/system/src/files.rs, host_tag).
host=$(uname -n | head -c 64 | LC_ALL=C sed 's/[^A-Za-z0-9._-]/_/g; s/tmp-ordo/tmp_ordo/g')
host=${host:-unknown-host}
head -c 26000000 /dev/zero >"$WORK/.out.svg.tmp-ordo-$host-$dead-0"
# Another machine's temporary file of a process id dead here: its writer may be running there.
echo half >"$WORK/.out.svg.tmp-ordo-not-$host-$dead-0"
"$ORDO" render --svg "$WORK/out.svg" >/dev/null 2>&1
[ ! -e "$WORK/.out.svg.tmp-ordo-$host-$dead-0" ] && [ -s "$WORK/out.svg" ] && ok=$((ok + 1))
[ -e "$WORK/.out.svg.tmp-ordo-not-$host-$dead-0" ] && ok=$((ok + 1))
row "a 26 MB temporary file of a killed writer; another machine's" 2 $ok "removed by the next write; kept"

# --- the table ----------------------------------------------------------------------------------
echo "| attack | cases | result |"
echo "| --- | --- | --- |"
printf '%s\n' "${ROWS[@]}"
echo
echo "($(($(date +%s) - START)) s, $("$ORDO" --version))"
exit $FAILED
