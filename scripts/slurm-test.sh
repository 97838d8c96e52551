#!/usr/bin/env bash
# The distributed tablebase build tested for real, not only planned: a one-node Slurm cluster on
# this machine builds small table sets through `ordo tb plan --format slurm` and `ordo tb job`
# (the compact solver, the only one the product has), and every file must equal a local
# `ordo tb build` of the same set; a small board's game is solved through Slurm (a job per
# material, then `ordo solve` assembling the game file) and must equal a local `ordo solve`.
#
#   bash scripts/slurm-test.sh          # builds the release binary first
#   ORDO=path/to/ordo bash scripts/slurm-test.sh
#
# Installs Debian's slurm-wlm and munge when slurmctld or munged is missing (root needed:
# `apt-get update` once, then `apt-get install -y slurm-wlm munge`). The cluster lives in a
# temporary folder: a munge key, slurm.conf (no cgroups: proctrack/linuxproc, task/none), the
# daemons' state, logs and sockets; nothing under /etc is written. The daemons are stopped on
# exit, whatever happens. Ends with 'N passed, N failed'; exit status 1 on any failure.
#
# Compared: the first line, the JSON header less its two run-specific fields (solve_ms: wall
# time, peak_memory: the builder's peak memory) and every payload byte. The checksum line
# covers those two fields, so it differs between any two builds, local or not.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
tally_start slurm-test

# 1. The binary.
if [ -z "${ORDO:-}" ]; then
    cargo build --release --locked --quiet || die "cargo build --release"
    ORDO="${CARGO_TARGET_DIR:-$root/target}/release/ordo"
fi
ORDO=$(realpath "$ORDO") || die "ORDO: no such file"
"$ORDO" tb job --help >/dev/null || die "$ORDO has no 'tb job' command"

# 2. Slurm and munge, installed when missing.
t0=$SECONDS
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    echo "slurm-test: installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || die "apt-get update"
    apt-get install -y -qq slurm-wlm munge >/dev/null || die "apt-get install slurm-wlm munge"
    # The packages start system daemons of their own where services run; ours use other
    # sockets and ports, so they are left alone.
fi
echo "slurm-test: install step $((SECONDS - t0)) s"

# 3. A one-node cluster in a temporary folder. Daemons of an earlier run of this script that
# was killed outright (its folder and pid files are still there, the script that started
# them is gone) are stopped first: they would hold the ports. A run still going is left alone.
t0=$SECONDS
for old in /tmp/ordo-slurm-test.*/; do
    owner=$(cat "${old}owner.pid" 2>/dev/null) && kill -0 "$owner" 2>/dev/null && continue
    for f in "$old"slurmctld.pid "$old"slurmd.pid "$old"munge/munged.pid; do
        p=$(cat "$f" 2>/dev/null) || continue
        if tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qF "${old%/}/"; then
            kill "$p" && echo "slurm-test: stopped $p, left by an earlier run in $old"
        fi
    done
done
sleep 0.5
tmp=$(mktemp -d /tmp/ordo-slurm-test.XXXXXX)
chmod 755 "$tmp"
echo $$ >"$tmp/owner.pid"
pids=()
stop() {
    local p
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    pids=()
    if [ "$failed" -eq 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$tmp"; else echo "slurm-test: kept $tmp"; fi
}
trap stop EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp/munge" "$tmp/ctld" "$tmp/spool" "$tmp/tables" "$tmp/local"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" || die "munged did not start (see $tmp/munge/munged.log)"
pids+=("$(cat "$tmp/munge/munged.pid")")

node=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) - 512 }' /proc/meminfo)
ctld_port=${SLURM_TEST_PORT:-16817}
cat >"$tmp/slurm.conf" <<EOF
ClusterName=ordotest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start (see $tmp/slurmctld.log)"
for _ in $(seq 100); do [ -s "$tmp/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/slurmctld.pid")")
slurmd -f "$SLURM_CONF" -N "$node" || die "slurmd did not start (see $tmp/slurmd.log)"
for _ in $(seq 100); do [ -s "$tmp/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/slurmd.pid")")
up=
for _ in $(seq 150); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
    case "$state" in idle|mix|alloc) up=1; break ;; esac
    sleep 0.2
done
[ -n "$up" ] || die "node $node not up (state '$state'; see $tmp/slurmctld.log, $tmp/slurmd.log)"
pass "one-node cluster up: $node, $cpus CPUs, $mem_mb MB ($((SECONDS - t0)) s)"

# Wait until none of the job ids given is queued or running; then print each one's state.
wait_jobs() {
    local ids=$1 left
    for _ in $(seq 1800); do
        left=$(squeue -h -j "$ids" -o %i 2>/dev/null | wc -l)
        [ "$left" -eq 0 ] && break
        sleep 0.5
    done
    local id
    for id in ${ids//,/ }; do
        scontrol show job "$id" | grep -o 'JobState=[A-Z_]*' | head -1 | sed "s/^/$id /"
    done
}

# Whether two table files are the same table: first line, header less solve_ms and
# peak_memory, and the payload after the checksum line, byte for byte.
same_table() {
    local a=$1 b=$2 norm='s/"(solve_ms|peak_memory)":[0-9]+,?//g; s/,}/}/'
    [ "$(head -n 1 "$a")" = "$(head -n 1 "$b")" ] &&
        [ "$(sed -n 2p "$a" | sed -E "$norm")" = "$(sed -n 2p "$b" | sed -E "$norm")" ] &&
        cmp -s <(tail -n +4 "$a") <(tail -n +4 "$b")
}

# 4. Table sets: plan, submit, wait, compare with a local build.
# Submit the plan in $tmp/NAME.sh and wait for its jobs: 0 when every job completed.
submit() {
    local name=$1 dir=$2 ids states bad
    ids=$(bash "$tmp/$name.sh" | awk '{ print $2 }' | paste -sd, -) ||
        { fail "$name: submitting the plan"; return 1; }
    states=$(wait_jobs "$ids")
    bad=$(grep -vc 'JobState=COMPLETED' <<<"$states")
    if [ "$bad" -ne 0 ]; then
        fail "$name: $bad of $(wc -l <<<"$states") jobs did not complete: $(grep -v COMPLETED <<<"$states" | paste -sd' ')"
        tail -n 3 "$dir"/logs/*.out "$dir"/logs/*.err 2>/dev/null | head -40
        return 1
    fi
    njobs=$(wc -l <<<"$states")
}

# SET: name, then the plan's selection arguments (a --max-pieces set).
run_set() {
    local name=$1; shift
    local dir=$tmp/tables/$name local=$tmp/local/$name t1=$SECONDS
    mkdir -p "$dir" "$local"
    "$ORDO" tb plan "$@" --dir "$dir" --format slurm >"$tmp/$name.sh" 2>"$tmp/$name.plan.err" ||
        { fail "$name: ordo tb plan: $(head -1 "$tmp/$name.plan.err")"; return; }
    submit "$name" "$dir" || return
    pass "$name: $njobs Slurm jobs completed ($((SECONDS - t1)) s)"
    t1=$SECONDS
    "$ORDO" tb build "$@" --dir "$local" >"$tmp/$name.local.out" 2>&1 ||
        { fail "$name: local ordo tb build: $(tail -1 "$tmp/$name.local.out")"; return; }
    local f n=0 differ=0
    for f in "$local"/*.ordotb; do
        n=$((n + 1))
        same_table "$f" "$dir/$(basename "$f")" || { differ=$((differ + 1)); echo "differs: $(basename "$f")"; }
    done
    local extra
    extra=$(comm -3 <(cd "$local" && ls -- *.ordotb) <(cd "$dir" && ls -- *.ordotb) | wc -l)
    if [ "$n" -gt 0 ] && [ "$differ" -eq 0 ] && [ "$extra" -eq 0 ]; then
        pass "$name: $n table files equal the local build's ($((SECONDS - t1)) s local)"
    else
        fail "$name: $differ of $n table files differ, $extra files in one folder only"
    fi
}

t0=$SECONDS
run_set classic-10x8 --variant classic --board 10x8 --max-pieces 3,2
run_set x-10x8 --variant x --board 10x8 --max-pieces 2,2
run_set x-4x4 --variant x --board 4x4 --max-pieces 3,3
# The first 15 slices of classic row2 6 x 5's job graph (a game too large to build on one
# machine plans 79 jobs, analysis/README.md): the same `ordo tb job` commands, the set up to 5
# against 5.
run_set classic-6x5 --variant classic --board 6x5 --max-pieces 5,5

# A small board's game through Slurm: a compact job per material writing into the game
# table's .partial folder, then `ordo solve` assembling the game file from them; the file
# must equal a local `ordo solve`'s and the report must say what `ordo solve` says.
game() {
    local t1=$SECONDS dir=$tmp/tables/game
    mkdir -p "$dir"
    "$ORDO" tb plan --variant classic --board 4x4 --setup row1 --dir "$dir" --format slurm >"$tmp/game.sh" ||
        { fail "game: ordo tb plan --setup"; return; }
    submit game "$dir" || return
    local file=$dir/ctb-classic-4x4-row1.ordotb local=$tmp/local/ctb-classic-4x4-row1.ordotb
    local report solve
    report=$(head -1 "$dir/game-classic-4x4-row1.txt")
    solve=$("$ORDO" solve --variant classic --board 4x4 --setup row1 --table "$local" | head -1)
    if [ -n "$report" ] && [ "$report" = "$solve" ] && same_table "$local" "$file" &&
        [ ! -e "$file.partial" ]; then
        pass "game: classic 4x4 row1 through $njobs jobs: '$report'; the game file equals a local ordo solve's ($((SECONDS - t1)) s)"
    else
        fail "game: the jobs say '$report', ordo solve says '$solve'; files equal: $(same_table "$local" "$file" && echo yes || echo no)"
    fi
}
game

# Idempotence: the same plan again completes at once and changes no file.
again() {
    local dir=$tmp/tables/classic-10x8 before after ids states
    before=$(cd "$dir" && stat -c '%n %Y %s' -- *.ordotb | sha256sum)
    ids=$(bash "$tmp/classic-10x8.sh" | awk '{ print $2 }' | paste -sd, -)
    states=$(wait_jobs "$ids")
    after=$(cd "$dir" && stat -c '%n %Y %s' -- *.ordotb | sha256sum)
    if ! grep -vq 'JobState=COMPLETED' <<<"$states" && [ "$before" = "$after" ] &&
        grep -q 'already built' "$dir"/logs/tb-2v2-*.out; then
        pass "resubmitted plan: every job completed, no file changed"
    else
        fail "resubmitted plan: states '$(paste -sd' ' <<<"$states")', files changed: $([ "$before" = "$after" ] && echo no || echo yes)"
    fi
}
again

# A job whose parents are missing fails (exit 2), and so its dependants never run.
refusal() {
    local dir=$tmp/tables/empty id state
    mkdir -p "$dir"
    id=$(sbatch --parsable --job-name=ordo-refusal --output="$dir/refusal.out" \
        --wrap="'$ORDO' tb job --variant classic --board 10x8 --material 2,2 --dir '$dir'")
    state=$(wait_jobs "$id")
    if grep -q 'JobState=FAILED' <<<"$state" && grep -q '2v1' "$dir/refusal.out" &&
        ! ls "$dir"/*.ordotb >/dev/null 2>&1; then
        pass "a job without its parents' files failed: $(grep -m1 'error' "$dir/refusal.out")"
    else
        fail "a job without its parents' files: $state, $(grep -m1 'error' "$dir/refusal.out")"
    fi
}
refusal
echo "slurm-test: tables and checks $((SECONDS - t0)) s"
finish
