#!/usr/bin/env bash
# The distributed tablebase build and the fuzz campaign on a real three-node Slurm cluster on
# this one machine: what scripts/slurm-test.sh's one node cannot show (jobs spread over nodes
# on shared storage, a node lost in the middle of a job, two jobs racing for one file).
#
#   bash scripts/slurm-cluster-test.sh              # builds the release binary first
#   ORDO=path/to/ordo FUZZ_SECONDS=20 bash scripts/slurm-cluster-test.sh
#
# The nodes. Each compute node is a Linux network namespace (`ip netns`) with its own address
# on a bridge (10.199.77.11 to .13; the controller is 10.199.77.1 on the bridge), running its
# own slurmd (`slurmd -N nodeK`), so each node is reached the way a real one is, by its own
# address on the same port. They share this machine's file system: that is the shared storage.
# Debian's slurmd (22.05) also runs as several nodes on one address with a port each
# (NodeName ... Port=, `slurmd -N`; two such nodes came up idle when tried), but namespaces
# are closer to real machines: a node's processes are exactly those of its namespace (`ip
# netns pids`), so a node can be shut down whole, and a node gone is an address that no longer
# answers. Root is needed (network namespaces, a bridge, slurmd); every node declares one CPU,
# so that any two jobs that can run at once run on two nodes.
#
# What it checks:
#   1. classic 10 x 8 up to 4 against 3 through `ordo tb plan --format slurm`: every job
#      completes and the jobs ran on at least two nodes (scontrol's NodeList of each job);
#   2. a node lost in the middle of a job: slice 4v4 runs (`--requeue`, one thread); once it is
#      building, its node shuts down: the node's slurmd and slurmstepd are killed outright and
#      every other process of the node gets SIGTERM, as a shutdown sends it, so the builder
#      keeps its finished layer groups in its checkpoint FILE.partial and exits. The controller
#      finds the node not responding, marks it down and requeues the job, which must finish on
#      another node saying it resumed from the checkpoint with some layer groups done. (A
#      builder killed with SIGKILL keeps only its periodic checkpoint, written every 30 s or
#      more: longer than this slice takes.) The node is then started again;
#   3. two jobs building the same slice 4v4 at once into one folder: both must complete, and
#      the file must be whole, with no temporary file or checkpoint left (the builder writes
#      through a temporary file of its own, `.NAME.tmp-ordo-HOST-PID-N`, renamed). The nodes
#      share this machine's host name and process ids, so this is not the case of two
#      machines that docs/guide.md describes (a write removes only the temporary files of its
#      own host whose process id is not running; another host's are left alone);
#   4. the files of 1 and 2, and those of 3, against the published BLAKE3 list
#      analysis/checksums/classic-10x8-to-4v4.b3 (`ordo tb checksums --check`): every
#      payload byte and the header less its run-specific fields;
#   5. the fuzz campaign as a Slurm array: one task per cargo-fuzz target (fuzz/fuzz_targets,
#      the sanitizer choice of fuzz/campaign.sh), FUZZ_SECONDS each (default 20) into a corpus
#      folder of its own, and one more task that plants a crash as libFuzzer leaves one (a file
#      crash-* in its artifacts folder, exit status 1). A collector job after the array reports
#      every crash-, oom-, leak- or timeout- file with its path and merges each target's new
#      inputs into fuzz/corpus-work/<target> (the folder fuzz/campaign.sh uses, ignored by git)
#      with `cargo fuzz cmin`. The planted crash must be the only one reported, with its path.
#
# Installs what is missing: Debian's slurm-wlm, munge and iproute2 (apt-get), the nightly
# toolchain (rustup) and cargo-fuzz (cargo install). The cluster lives in a temporary folder
# (munge key, slurm.conf, the daemons' state, logs and sockets) and in the namespaces and the
# bridge (names ordocl-*); nothing under /etc is written. Whatever happens, the daemons and
# every process left in a node are stopped and the namespaces and the bridge removed on exit;
# those of an earlier run killed outright are removed first, and a run still going makes this
# one stop. Ends with 'N passed, N failed'; exit status 1 on any failure.
#
# Time: over 5 minutes. On the 2-core machine it was written on (other work running), with
# Slurm, the nightly toolchain and cargo-fuzz installed and the release binary built: 779 s
# from a clean state at load average 7 to 9, the fuzz targets taking 687 s to compile twice
# (without a sanitizer and with the address sanitizer; 7 CPU minutes) while the table tests
# ran beside them (compiled after the table tests instead, 873 s at load average 4 to 6);
# 193 to 220 s (three runs) with the targets compiled. `cargo install cargo-fuzz` adds about
# 70 s.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=scripts/tally.sh
. "$root/scripts/tally.sh"
tally_start slurm-cluster-test
[ "$(id -u)" -eq 0 ] || die "root is needed (network namespaces, a bridge, slurmd)"

# 1. The binary.
if [ -z "${ORDO:-}" ]; then
    cargo build --release --locked --quiet || die "cargo build --release"
    ORDO="${CARGO_TARGET_DIR:-$root/target}/release/ordo"
fi
ORDO=$(realpath "$ORDO") || die "ORDO: no such file"
"$ORDO" tb job --help >/dev/null || die "$ORDO has no 'tb job' command"
fuzz_seconds=${FUZZ_SECONDS:-20}

# 2. What the cluster and the campaign need, installed when missing.
t0=$SECONDS
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v munged >/dev/null || ! command -v ip >/dev/null; then
    echo "slurm-cluster-test: installing slurm-wlm, munge and iproute2"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || die "apt-get update"
    apt-get install -y -qq slurm-wlm munge iproute2 >/dev/null ||
        die "apt-get install slurm-wlm munge iproute2"
fi
if ! cargo +nightly --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal || die "rustup toolchain install nightly"
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked || die "cargo install cargo-fuzz"
fi
echo "slurm-cluster-test: install step $((SECONDS - t0)) s"

# 3. The cluster. Names and addresses are fixed, so one run at a time: a run still going
# (its owner process alive) makes this one stop; what a run killed outright left (daemons
# naming its folder, processes in its namespaces, the namespaces, the bridge) is removed.
bridge=ordocl-br0
subnet=10.199.77
nodes=(node1 node2 node3)
ns() { echo "ordocl-$1"; }
for old in /tmp/ordo-slurm-cluster.*/; do
    [ -d "$old" ] || continue
    owner=$(cat "${old}owner.pid" 2>/dev/null) && kill -0 "$owner" 2>/dev/null &&
        die "another run is going (process $owner, folder $old)"
    for f in "$old"slurmctld.pid "$old"slurmd-*.pid "$old"munge/munged.pid; do
        p=$(cat "$f" 2>/dev/null) || continue
        if { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qF "${old%/}/"; then
            kill "$p" && echo "slurm-cluster-test: stopped $p, left by an earlier run in $old"
        fi
    done
done
# Kill every process of a node's namespace: TERM, then KILL after up to 10 s.
empty_ns() {
    local name=$1 p
    # shellcheck disable=SC2046
    kill $(ip netns pids "$name" 2>/dev/null) 2>/dev/null
    for _ in $(seq 100); do [ -z "$(ip netns pids "$name" 2>/dev/null)" ] && return; sleep 0.1; done
    for p in $(ip netns pids "$name" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
}
remove_network() {
    local n
    for n in "${nodes[@]}"; do
        if ip netns list | grep -qw "$(ns "$n")"; then
            empty_ns "$(ns "$n")"
            ip netns del "$(ns "$n")"
        fi
        ip link del "ordocl-$n" 2>/dev/null
    done
    ip link del "$bridge" 2>/dev/null
}
remove_network
sleep 0.5

t0=$SECONDS
tmp=$(mktemp -d /tmp/ordo-slurm-cluster.XXXXXX)
chmod 755 "$tmp"
echo $$ >"$tmp/owner.pid"
pids=()
fuzz_build=""
stop() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    pids=()
    if [ -n "$fuzz_build" ]; then
        kill -- -"$fuzz_build" 2>/dev/null
        for _ in $(seq 50); do kill -0 -- -"$fuzz_build" 2>/dev/null || break; sleep 0.1; done
        kill -9 -- -"$fuzz_build" 2>/dev/null
    fi
    remove_network
    if [ "$failed" -eq 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$tmp"; else echo "slurm-cluster-test: kept $tmp"; fi
}
trap stop EXIT
trap 'fail "stopped by a signal"; finish' INT TERM

# The fuzz targets compile while the table tests run (those mostly wait for the scheduler):
# once for each sanitizer, each into a target folder of its own so that neither build undoes
# the other; the sanitizer of each target is fuzz/campaign.sh's choice. In a session of its
# own, so that stop() ends cargo and its compilers with it.
sanitizer_of() {
    case "$1" in
        table_file | protocol) echo address ;;
        *) echo none ;;
    esac
}
mkdir -p "$tmp/fuzz/logs"
asan_targets=()
for f in "$root"/fuzz/fuzz_targets/*.rs; do
    t=$(basename "$f" .rs)
    [ "$(sanitizer_of "$t")" = address ] && asan_targets+=("$t")
done
cat >"$tmp/fuzz/build.sh" <<EOF
#!/usr/bin/env bash
set -u
cd '$root' || exit 2
cargo +nightly fuzz build -s none --target-dir fuzz/target >'$tmp/fuzz/logs/build-none.log' 2>&1 || exit 1
for t in ${asan_targets[*]}; do
    cargo +nightly fuzz build -s address --target-dir fuzz/target/asan "\$t" \\
        >>'$tmp/fuzz/logs/build-address.log' 2>&1 || exit 1
done
echo "\$SECONDS" >'$tmp/fuzz/build.seconds'
EOF
setsid bash "$tmp/fuzz/build.sh" &
fuzz_build=$!

# The network: a bridge in this namespace, a veth pair into each node's.
ip link add "$bridge" type bridge || die "ip link add $bridge type bridge"
if ! { ip addr add "$subnet.1/24" dev "$bridge" && ip link set "$bridge" up; }; then
    die "address of $bridge"
fi
for i in "${!nodes[@]}"; do
    n=${nodes[$i]}
    ip netns add "$(ns "$n")" || die "ip netns add $(ns "$n") (network namespaces not permitted?)"
    if ! { ip link add "ordocl-$n" type veth peer name eth0 netns "$(ns "$n")" &&
        ip link set "ordocl-$n" master "$bridge" up &&
        ip -n "$(ns "$n")" addr add "$subnet.$((11 + i))/24" dev eth0 &&
        ip -n "$(ns "$n")" link set eth0 up &&
        ip -n "$(ns "$n")" link set lo up; }; then
        die "network of $n"
    fi
done

mkdir -p "$tmp/munge" "$tmp/ctld" "$tmp/tables" "$tmp/fuzz"
for n in "${nodes[@]}"; do mkdir -p "$tmp/spool/$n"; done
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" || die "munged did not start (see $tmp/munge/munged.log)"
pids+=("$(cat "$tmp/munge/munged.pid")")

host=$(hostname -s)
# Each node gets a third of the memory, less a margin; the jobs ask for far less.
mem_mb=$(awk '/^MemTotal:/ { print int(($2 / 1024 - 1024) / 3) }' /proc/meminfo)
ctld_port=${SLURM_CLUSTER_PORT:-16827}
{
    cat <<EOF
ClusterName=ordocluster
SlurmctldHost=$host($subnet.1)
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SlurmdTimeout=10
MinJobAge=3600
EOF
    for i in "${!nodes[@]}"; do
        echo "NodeName=${nodes[$i]} NodeAddr=$subnet.$((11 + i)) CPUs=1 RealMemory=$mem_mb State=UNKNOWN"
    done
    echo "PartitionName=test Nodes=$(IFS=,; echo "${nodes[*]}") Default=YES MaxTime=INFINITE State=UP"
} >"$tmp/slurm.conf"
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start (see $tmp/slurmctld.log)"
for _ in $(seq 100); do [ -s "$tmp/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/slurmctld.pid")")

# Start node N's slurmd in its namespace; its pid joins those stopped on exit.
start_node() {
    local n=$1
    rm -f "$tmp/slurmd-$n.pid"
    # nsenter enters the network namespace only: `ip netns exec` would also mount a /sys of
    # its own, without the cgroup file system slurmd reads at start.
    nsenter --net="/run/netns/$(ns "$n")" slurmd -f "$SLURM_CONF" -N "$n" || return 1
    for _ in $(seq 100); do [ -s "$tmp/slurmd-$n.pid" ] && break; sleep 0.1; done
    pids+=("$(cat "$tmp/slurmd-$n.pid")")
}
# Wait until every node named is idle (or running jobs); 1 if not within 60 s.
wait_up() {
    local want=$1 up
    for _ in $(seq 300); do
        up=$(sinfo -h -N -n "$want" -o '%N %t' 2>/dev/null | grep -cE ' (idle|mix|alloc)$')
        [ "$up" -eq "$(tr ',' '\n' <<<"$want" | wc -l)" ] && return 0
        sleep 0.2
    done
    return 1
}
for n in "${nodes[@]}"; do start_node "$n" || die "slurmd of $n did not start (see $tmp/slurmd-$n.log)"; done
all=$(IFS=,; echo "${nodes[*]}")
wait_up "$all" || die "nodes not up: $(sinfo -h -N -o '%N %t' | paste -sd' ') (see $tmp/slurm*.log)"
pass "three-node cluster up: $(sinfo -h -N -o '%N' | paste -sd' ') at $subnet.11-13, one CPU and $mem_mb MB each ($((SECONDS - t0)) s)"

# Wait until none of the job ids given is queued or running (at most LIMIT seconds, 900 by
# default); then print each one's state.
wait_jobs() {
    local ids=$1 limit=${2:-900} left id
    for _ in $(seq $((limit * 2))); do
        left=$(squeue -h -j "$ids" -o %i 2>/dev/null | wc -l)
        [ "$left" -eq 0 ] && break
        sleep 0.5
    done
    for id in ${ids//,/ }; do
        scontrol show job "$id" | grep -o 'JobState=[A-Z_]*' | head -1 | sed "s/^/$id /"
    done
}
# A field of a job's record (scontrol show job), e.g. NodeList, StartTime, Restarts.
job_field() {
    scontrol show job "$1" | grep -oE "(^| )$2=[^ ]*" | head -1 | sed "s/^ *$2=//"
}

list=$root/analysis/checksums/classic-10x8-to-4v4.b3
dir=$tmp/tables/classic-10x8

# 4. A plan's jobs spread over the nodes.
spread() {
    local t1=$SECONDS ids states nodelist
    mkdir -p "$dir"
    "$ORDO" tb plan --variant classic --board 10x8 --max-pieces 4,3 --dir "$dir" --format slurm \
        >"$tmp/plan.sh" 2>"$tmp/plan.err" || { fail "ordo tb plan: $(head -1 "$tmp/plan.err")"; return; }
    ids=$(bash "$tmp/plan.sh" | awk '{ print $2 }' | paste -sd, -) || { fail "submitting the plan"; return; }
    states=$(wait_jobs "$ids")
    if grep -vq 'JobState=COMPLETED' <<<"$states"; then
        fail "plan: jobs did not complete: $(grep -v COMPLETED <<<"$states" | paste -sd' ')"
        tail -n 3 "$dir"/logs/*.out | head -40
        return
    fi
    nodelist=$(for id in ${ids//,/ }; do job_field "$id" NodeList; done | sort | uniq -c |
        awk '{ printf "%s%s: %d jobs", (NR > 1 ? ", " : ""), $2, $1 }')
    local distinct
    distinct=$(for id in ${ids//,/ }; do job_field "$id" NodeList; done | sort -u | wc -l)
    if [ "$distinct" -ge 2 ]; then
        pass "plan of classic 10x8 up to 4,3: $(wc -l <<<"$states") jobs completed on $distinct nodes ($nodelist; $((SECONDS - t1)) s)"
    else
        fail "plan: every job ran on one node ($nodelist)"
    fi
}
spread

# 5. A node lost in the middle of a job: it shuts down (slurmd and slurmstepd killed outright,
# the job's processes sent SIGTERM once, as a shutdown sends it, and killed if still there
# after 60 s); the controller must notice, requeue the job and run it elsewhere.
node_lost() {
    local t1=$SECONDS log=$dir/logs/lost-4v4.out id first="" p comm
    [ -e "$dir/ctb-classic-10x8-4v3.ordotb" ] || { fail "node lost: the plan's files are missing"; return; }
    id=$(sbatch --parsable --requeue --open-mode=append --job-name=ordo-tb-4v4 --output="$log" \
        --wrap="echo \"run on \$SLURMD_NODENAME\"; '$ORDO' tb job --variant classic --board 10x8 --material 4,4 --dir '$dir' --threads 1") ||
        { fail "node lost: sbatch"; return; }
    # Until the slice is building (its progress line), then a little more.
    for _ in $(seq 600); do
        grep -q '4v4: building (' "$log" 2>/dev/null && break
        sleep 0.1
    done
    sleep 1.5
    first=$(job_field "$id" NodeList)
    if ! grep -q '4v4: building (' "$log" 2>/dev/null || [ "$(job_field "$id" JobState)" != RUNNING ]; then
        fail "node lost: the job was not building in time (state $(job_field "$id" JobState))"
        return
    fi
    local name
    name=$(ns "$first")
    kill -9 "$(cat "$tmp/slurmd-$first.pid")"
    for p in $(ip netns pids "$name"); do
        comm=$(cat "/proc/$p/comm" 2>/dev/null)
        [ "$comm" = slurmstepd ] && kill -9 "$p"
    done
    for p in $(ip netns pids "$name"); do kill -TERM "$p" 2>/dev/null; done
    for _ in $(seq 600); do [ -z "$(ip netns pids "$name")" ] && break; sleep 0.1; done
    for p in $(ip netns pids "$name"); do kill -9 "$p" 2>/dev/null; done
    echo "slurm-cluster-test: $first shut down at $(date -u +%T), $((SECONDS - t1)) s into the job"
    # The controller marks the node down once it has not answered for SlurmdTimeout.
    local down=""
    for _ in $(seq 180); do
        sinfo -h -N -n "$first" -o %t | grep -q '^down' && { down=$((SECONDS - t1)); break; }
        sleep 0.5
    done
    # Slurm holds a requeued job back for 121 s (its BeginTime); released at once here, as an
    # administrator would, since the wait shows nothing.
    for _ in $(seq 120); do
        [ "$(job_field "$id" Restarts)" -ge 1 ] 2>/dev/null && [ "$(job_field "$id" JobState)" = PENDING ] && break
        sleep 0.5
    done
    scontrol update JobId="$id" StartTime=now ||
        echo "slurm-cluster-test: could not release job $id (state $(job_field "$id" JobState))"
    local state second resumed
    state=$(wait_jobs "$id" 300)
    second=$(job_field "$id" NodeList)
    resumed=$(grep -m1 'resuming slice 4v4 from' "$log")
    local k n
    k=$(sed -nE 's/.*: ([0-9]+) of ([0-9]+) layer groups done.*/\1/p' <<<"$resumed")
    n=$(sed -nE 's/.*: ([0-9]+) of ([0-9]+) layer groups done.*/\2/p' <<<"$resumed")
    if [ -n "$down" ] && grep -q COMPLETED <<<"$state" && [ -n "$second" ] && [ "$second" != "$first" ] &&
        grep -q "run on $first" "$log" && grep -q "run on $second" "$log" &&
        grep -q 'interrupted: slice 4v4 stopped' "$log" && [ "${k:-0}" -ge 1 ] && [ "$k" -lt "$n" ] &&
        [ "$(job_field "$id" Restarts)" -ge 1 ] && [ ! -e "$dir/ctb-classic-10x8-4v4.ordotb.partial" ]; then
        pass "node lost: job $id on $first, the node down after $down s, requeued, finished on $second resuming $k of $n layer groups ($((SECONDS - t1)) s)"
    else
        fail "node lost: state '$state', nodes '$first' then '$second', down after '${down:-never}', resumed '$resumed'"
        cat "$log"
    fi
    # The node comes back (ReturnToService=2: it returns once it registers).
    if ! { start_node "$first" && wait_up "$first"; }; then
        fail "node $first did not come back (sinfo: $(sinfo -h -N -o '%N %t' | paste -sd' '))"
    fi
}
node_lost

# 6. Two jobs building one slice at once into one folder (with copies of its parents).
race() {
    local t1=$SECONDS rdir=$tmp/tables/race a b states f
    mkdir -p "$rdir/logs"
    for f in "$dir"/ctb-classic-10x8-*.ordotb; do
        [ "$(basename "$f")" = ctb-classic-10x8-4v4.ordotb ] || cp "$f" "$rdir/"
    done
    local cmd="'$ORDO' tb job --variant classic --board 10x8 --material 4,4 --dir '$rdir'"
    a=$(sbatch --parsable --job-name=ordo-race-a --output="$rdir/logs/a.out" --wrap="$cmd")
    b=$(sbatch --parsable --job-name=ordo-race-b --output="$rdir/logs/b.out" --wrap="$cmd")
    states=$(wait_jobs "$a,$b")
    local sa ea sb eb overlap=no built
    sa=$(date -d "$(job_field "$a" StartTime)" +%s) ea=$(date -d "$(job_field "$a" EndTime)" +%s)
    sb=$(date -d "$(job_field "$b" StartTime)" +%s) eb=$(date -d "$(job_field "$b" EndTime)" +%s)
    [ "$sa" -lt "$eb" ] && [ "$sb" -lt "$ea" ] && overlap=yes
    built=$(cat "$rdir/logs/a.out" "$rdir/logs/b.out" | grep -c '4v4: built ')
    local left
    left=$(find "$rdir" -maxdepth 1 -name '*.tmp-ordo-*' -o -maxdepth 1 -name '*.partial' | wc -l)
    if ! grep -vq 'JobState=COMPLETED' <<<"$states" && [ "$overlap" = yes ] && [ "$built" -eq 2 ] &&
        [ "$left" -eq 0 ] && "$ORDO" tb checksums --dir "$rdir" --check "$list" >"$tmp/race.check" 2>&1; then
        pass "race: jobs $a on $(job_field "$a" NodeList) and $b on $(job_field "$b" NodeList) built slice 4v4 at once into one folder; both completed, the file matches the published list, nothing left over ($((SECONDS - t1)) s)"
    else
        fail "race: states '$(paste -sd' ' <<<"$states")', at once: $overlap, builds: $built, left over: $left, check: $(tail -1 "$tmp/race.check" 2>/dev/null)"
        cat "$rdir/logs/a.out" "$rdir/logs/b.out"
    fi
}
race

# 7. Every file of the cluster's build against the published list.
if "$ORDO" tb checksums --dir "$dir" --check "$list" >"$tmp/check.out" 2>&1; then
    pass "classic 10x8 up to 4,4 built on the cluster: $(tail -1 "$tmp/check.out") ($(basename "$list"))"
else
    fail "published list: $(grep -v ': OK$' "$tmp/check.out" | paste -sd' ')"
fi

# 8. The fuzz campaign as a Slurm array, once the targets compiled (started with the cluster).
fuzz() {
    local t1=$SECONDS work=$tmp/fuzz triple t bin status built
    triple=$(rustc +nightly -vV | sed -n 's/^host: //p')
    mkdir -p "$work/logs" "$work/new" "$work/artifacts"
    echo "slurm-cluster-test: waiting for the fuzz targets to compile"
    wait "$fuzz_build"
    status=$?
    fuzz_build=""
    if [ "$status" -ne 0 ]; then
        fail "cargo fuzz build: $(tail -q -n 3 "$work"/logs/build-*.log)"
        return
    fi
    built=$(cat "$work/build.seconds")
    : >"$work/targets"
    for f in "$root"/fuzz/fuzz_targets/*.rs; do
        t=$(basename "$f" .rs)
        case "$(sanitizer_of "$t")" in
            address) bin=$root/fuzz/target/asan/$triple/release/$t ;;
            *) bin=$root/fuzz/target/$triple/release/$t ;;
        esac
        [ -x "$bin" ] || { fail "fuzz target $t: no binary at $bin"; return; }
        echo "$t $bin $(sanitizer_of "$t")" >>"$work/targets"
        mkdir -p "$root/fuzz/corpus-work/$t" "$root/fuzz/corpus/$t"
    done
    # The last task plants a crash as libFuzzer leaves one, to test the reporting.
    echo "planted-crash - none" >>"$work/targets"
    local ntasks
    ntasks=$(wc -l <"$work/targets")
    echo "slurm-cluster-test: fuzz targets compiled in $built s, alongside the table tests; waited $((SECONDS - t1)) s more"

    cat >"$work/task.sh" <<EOF
#!/usr/bin/env bash
# One task of the campaign: line SLURM_ARRAY_TASK_ID + 1 of the targets list, fuzzed for
# $fuzz_seconds s into a corpus folder of its own (libFuzzer writes new inputs to the first
# folder given; the work and seed corpora are read), its artifacts in a folder of its own.
set -u
work=$work
read -r t bin _ < <(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" "\$work/targets")
echo "task \$SLURM_ARRAY_TASK_ID: \$t on \$SLURMD_NODENAME"
mkdir -p "\$work/new/\$t" "\$work/artifacts/\$t"
if [ "\$bin" = - ]; then
    echo "planted by slurm-cluster-test" >"\$work/artifacts/\$t/crash-planted"
    echo "deliberate crash: input written to \$work/artifacts/\$t/crash-planted"
    exit 1
fi
exec "\$bin" -max_total_time=$fuzz_seconds -print_final_stats=1 -artifact_prefix="\$work/artifacts/\$t/" \\
    "\$work/new/\$t" "$root/fuzz/corpus-work/\$t" "$root/fuzz/corpus/\$t"
EOF
    cat >"$work/collect.sh" <<EOF
#!/usr/bin/env bash
# After the array: every crash, out-of-memory, leak or timeout input a task left, with its
# path; then each target's new inputs merged into fuzz/corpus-work/<target> and minimized
# with cargo fuzz cmin. Exit status 1 when there was a crash.
set -u
work=$work
cd "$root" || exit 2
crashes=0
for f in "\$work"/artifacts/*/*; do
    case "\$(basename "\$f")" in
        crash-* | oom-* | leak-* | timeout-*)
            echo "crash: \$(basename "\$(dirname "\$f")"): \$f"
            crashes=\$((crashes + 1))
            ;;
    esac
done
while read -r t bin sanitizer; do
    [ "\$bin" = - ] && continue
    corpus=fuzz/corpus-work/\$t
    before=\$(find "\$corpus" -type f | wc -l)
    new=\$(find "\$work/new/\$t" -type f 2>/dev/null | wc -l)
    [ "\$new" -gt 0 ] && cp -n "\$work/new/\$t"/* "\$corpus"/
    dirs=(--target-dir fuzz/target)
    [ "\$sanitizer" = address ] && dirs=(--target-dir fuzz/target/asan)
    if cargo +nightly fuzz cmin -s "\$sanitizer" "\${dirs[@]}" "\$t" "\$corpus" >"\$work/logs/cmin-\$t.log" 2>&1; then
        echo "merged: \$t: \$new new inputs, \$before in the work corpus before, \$(find "\$corpus" -type f | wc -l) after cmin"
    else
        echo "cmin failed: \$t (see \$work/logs/cmin-\$t.log)"
        crashes=\$((crashes + 1))
    fi
done <"\$work/targets"
echo "\$crashes crash(es) or failure(s)"
[ "\$crashes" -eq 0 ]
EOF
    chmod +x "$work/task.sh" "$work/collect.sh"
    local array collector
    array=$(sbatch --parsable --array=0-$((ntasks - 1)) --job-name=ordo-fuzz --mem=1024 \
        --output="$work/logs/task-%a.out" "$work/task.sh") || { fail "sbatch the fuzz array"; return; }
    collector=$(sbatch --parsable --dependency=afterany:"$array" --job-name=ordo-fuzz-collect \
        --mem=1024 --output="$work/logs/collect.out" "$work/collect.sh") ||
        { fail "sbatch the collector"; return; }
    wait_jobs "$array,$collector" >/dev/null
    # Each task's state and node: one line a task (scontrol -o).
    local tasks bad_tasks nodes_used crash_lines merged
    tasks=$(scontrol -o show job "$array" |
        sed -E 's/.* ArrayTaskId=([^ ]+) .* JobState=([^ ]+) .* NodeList=([^ ]+) .*/\1 \2 \3/' | sort -n)
    echo "$tasks" | while read -r i s n; do
        read -r t _ < <(sed -n "$((i + 1))p" "$work/targets")
        echo "  task $i $t: $s on $n; $(grep -m1 -E '^Done [0-9]+ runs' "$work/logs/task-$i.out" 2>/dev/null || tail -1 "$work/logs/task-$i.out")"
    done
    bad_tasks=$(awk -v last=$((ntasks - 1)) '($1 != last && $2 != "COMPLETED") || ($1 == last && $2 != "FAILED")' <<<"$tasks" | wc -l)
    nodes_used=$(awk '{ print $3 }' <<<"$tasks" | sort -u | wc -l)
    crash_lines=$(grep -c '^crash: ' "$work/logs/collect.out")
    merged=$(grep -c '^merged: ' "$work/logs/collect.out")
    sed 's/^/  collector: /' "$work/logs/collect.out"
    if [ "$bad_tasks" -eq 0 ] && [ "$(wc -l <<<"$tasks")" -eq "$ntasks" ] && [ "$nodes_used" -ge 2 ] &&
        [ "$crash_lines" -eq 1 ] &&
        grep -qxF "crash: planted-crash: $work/artifacts/planted-crash/crash-planted" "$work/logs/collect.out" &&
        [ "$merged" -eq $((ntasks - 1)) ] && [ "$(job_field "$collector" JobState)" = FAILED ]; then
        pass "fuzz campaign: $((ntasks - 1)) targets for $fuzz_seconds s each as a Slurm array on $nodes_used nodes, no crash; the planted one reported with its path; every corpus merged with cargo fuzz cmin ($((SECONDS - t1)) s after the table tests; compiling took $built s)"
    else
        fail "fuzz campaign: $bad_tasks tasks in the wrong state, $nodes_used nodes, $crash_lines crashes reported, $merged corpora merged, collector $(job_field "$collector" JobState)"
        tail -n 20 "$work"/logs/task-*.out
    fi
}
fuzz
finish
