#!/usr/bin/env bash
# A real single-node Slurm cluster (slurmctld + slurmd + its own munged) in one folder, for
# testing scripts/slurm/run.sh on one machine. Nothing outside DIR is written or read: the
# configuration, MUNGE key and socket, state, spool, logs and pid files all live under DIR, the
# ports are chosen free, and the system's own slurm/munge services (if any) are neither used nor
# touched.
#
#   scripts/slurm/local-cluster.sh start  DIR   # configure (first time) and start; waits until idle
#   scripts/slurm/local-cluster.sh status DIR   # daemons and sinfo; exit 1 when not running
#   scripts/slurm/local-cluster.sh stop   DIR   # stop the daemons (by their pid files) and wait
#   scripts/slurm/local-cluster.sh env    DIR   # prints `export SLURM_CONF=DIR/slurm.conf`
#
# After start, point the Slurm client commands at it:  export SLURM_CONF=DIR/slurm.conf
# (or: eval "$(scripts/slurm/local-cluster.sh env DIR)").
#
# Needs Debian's slurm-wlm and munge (scripts/setup.sh installs them) and root: slurmd runs jobs
# as their submitting user and must be able to switch to it, and SlurmUser is root here. Process
# tracking is proctrack/linuxproc and task/none, so no cgroups are needed (they are often
# unavailable in containers). Accounting is off (no slurmdbd): job states come from squeue and
# `scontrol show job` (finished jobs stay visible for MinJobAge = 3600 s); a completion log is
# kept in DIR/log/jobcomp.txt.
#
# Environment: SEKIT_SLURM_START_TIMEOUT (seconds to wait for the node to be idle, default 60).
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

die() { echo "local-cluster: $*" >&2; exit 1; }

[[ $# -ge 1 ]] || { usage >&2; exit 64; }
case "$1" in
    -h|--help|help) usage; exit 0 ;;
esac
[[ $# -eq 2 ]] || { usage >&2; exit 64; }
action="$1"
[[ "$action" =~ ^(start|stop|status|env)$ ]] || die "unknown action '$action' (start, stop, status or env)"
if [[ "$action" == start ]]; then
    mkdir -p "$2" 2>/dev/null || die "cannot create folder $2"
fi
[[ -d "$2" ]] || die "no cluster folder $2"
dir="$(cd "$2" && pwd)"
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"

# A pid file's process, if it is alive (and is the program named), else nothing.
live_pid() {
    local file="$1" program="$2" pid
    [[ -s "$file" ]] || return 1
    pid="$(tr -dc '0-9' < "$file")"
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
    [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$program" ]] || return 1
    echo "$pid"
}

stop_daemon() {
    local file="$1" program="$2" pid i
    pid="$(live_pid "$file" "$program")" || { rm -f "$file"; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
        kill -0 "$pid" 2>/dev/null || { rm -f "$file"; return 0; }
        sleep 0.1
    done
    echo "local-cluster: $program (pid $pid) did not stop in 15 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    rm -f "$file"
}

# Job step daemons (slurmstepd) of this cluster: those with a file open under DIR.
our_stepds() {
    local pid fd
    for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
        for fd in /proc/"$pid"/fd/*; do
            if [[ "$(readlink "$fd" 2>/dev/null)" == "$dir"/* ]]; then
                echo "$pid"
                break
            fi
        done
    done
}

do_stop() {
    local i pids
    # Jobs still queued or running are cancelled first, so none outlives the cluster.
    if live_pid "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
        pids="$(squeue --noheader -o '%A' 2>/dev/null | sort -u | tr '\n' ' ' || true)"
        if [[ -n "${pids// /}" ]]; then
            # shellcheck disable=SC2086  # job ids, one word each
            scancel $pids 2>/dev/null || true
            for ((i = 0; i < 100; i++)); do
                [[ -z "$(squeue --noheader -o '%A' 2>/dev/null)" ]] && break
                sleep 0.1
            done
        fi
    fi
    # slurmd, then the controller, then munged.
    stop_daemon "$dir/run/slurmd.pid" slurmd
    stop_daemon "$dir/run/slurmctld.pid" slurmctld
    stop_daemon "$dir/run/munged.pid" munged
    pids="$(our_stepds)"
    if [[ -n "$pids" ]]; then
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null || true
    fi
}

do_status() {
    local ok=0 name pid
    for name in munged slurmctld slurmd; do
        if pid="$(live_pid "$dir/run/$name.pid" "$name")"; then
            echo "$name: running (pid $pid)"
        else
            echo "$name: not running"
            ok=1
        fi
    done
    if [[ $ok -eq 0 ]]; then
        sinfo --noheader -o '%P %a %D %t %N' 2>&1 || ok=1
    fi
    return $ok
}

free_port() {
    # A TCP port nothing listens on now (the kernel picks it); Slurm binds it right after.
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null \
        || die "python3 is needed to pick free ports"
}

configure() {
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
    chmod 700 "$dir/munge"
    if [[ ! -s "$dir/munge/munge.key" ]]; then
        (umask 077; head -c 1024 /dev/urandom > "$dir/munge/munge.key")
    fi
    chmod 600 "$dir/munge/munge.key"
    [[ -f "$conf" ]] && return 0
    local node cpus sockets cores threads memory ctld_port slurmd_port
    node="$(hostname -s)"
    # This machine's hardware as slurmd sees it (CPUs, sockets, cores, threads, memory).
    local hw
    hw="$(slurmd -C 2>/dev/null | head -1)" || true
    [[ "$hw" == NodeName=* ]] || die "'slurmd -C' did not describe this machine (got: ${hw:-nothing})"
    cpus="$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<< "$hw")"
    sockets="$(sed -n 's/.* SocketsPerBoard=\([0-9]*\).*/\1/p' <<< "$hw")"
    cores="$(sed -n 's/.* CoresPerSocket=\([0-9]*\).*/\1/p' <<< "$hw")"
    threads="$(sed -n 's/.* ThreadsPerCore=\([0-9]*\).*/\1/p' <<< "$hw")"
    memory="$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<< "$hw")"
    ctld_port="$(free_port)"
    slurmd_port="$(free_port)"
    while [[ "$slurmd_port" == "$ctld_port" ]]; do slurmd_port="$(free_port)"; done
    cat > "$conf.tmp" <<EOF
# Single-node test cluster made by scripts/slurm/local-cluster.sh; everything lives in $dir.
ClusterName=sekit-local
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
PropagateResourceLimits=NONE
DependencyParameters=kill_invalid_depend
MinJobAge=3600
SchedulerParameters=sched_interval=1
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus Sockets=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    mv "$conf.tmp" "$conf"
}

do_start() {
    [[ $(id -u) -eq 0 ]] || die "needs root: slurmd must run as root to start jobs as their user, and this cluster's SlurmUser is root (run as root, or in a container where you are root)"
    local program
    for program in munged slurmctld slurmd sinfo sbatch squeue scontrol; do
        command -v "$program" >/dev/null \
            || die "$program not found: install Debian's slurm-wlm and munge (scripts/setup.sh does)"
    done
    configure
    local node
    node="$(sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' "$conf")"

    if ! live_pid "$dir/run/munged.pid" munged >/dev/null; then
        rm -f "$dir/munge/munge.socket" "$dir/munge/munge.socket.lock"
        # --force: run even though the folder's ancestors may be writable by others (/tmp) and
        # as root (munged warns about both); the key stays 0600 in a 0700 folder.
        munged --force \
            --socket="$dir/munge/munge.socket" \
            --key-file="$dir/munge/munge.key" \
            --pid-file="$dir/run/munged.pid" \
            --log-file="$dir/log/munged.log" \
            --seed-file="$dir/munge/munged.seed" \
            > "$dir/log/munged.out" 2>&1 \
            || die "munged failed to start: $(tail -5 "$dir/log/munged.out" "$dir/log/munged.log" 2>/dev/null)"
    fi
    local i
    for ((i = 0; i < 50; i++)); do
        [[ -S "$dir/munge/munge.socket" ]] && break
        sleep 0.1
    done
    [[ -S "$dir/munge/munge.socket" ]] || die "munged did not create its socket $dir/munge/munge.socket (log: $dir/log/munged.log)"
    if command -v munge >/dev/null && command -v unmunge >/dev/null; then
        munge -S "$dir/munge/munge.socket" -n | unmunge -S "$dir/munge/munge.socket" >/dev/null 2>&1 \
            || die "munged at $dir/munge/munge.socket does not answer (log: $dir/log/munged.log)"
    fi

    if ! live_pid "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
        slurmctld -f "$conf" > "$dir/log/slurmctld.out" 2>&1 \
            || die "slurmctld failed to start: $(tail -5 "$dir/log/slurmctld.out" "$dir/log/slurmctld.log" 2>/dev/null)"
    fi
    if ! live_pid "$dir/run/slurmd.pid" slurmd >/dev/null; then
        slurmd -f "$conf" -N "$node" > "$dir/log/slurmd.out" 2>&1 \
            || die "slurmd failed to start: $(tail -5 "$dir/log/slurmd.out" "$dir/log/slurmd.log" 2>/dev/null)"
    fi

    local timeout="${SEKIT_SLURM_START_TIMEOUT:-60}" state=""
    for ((i = 0; i < timeout * 2; i++)); do
        state="$(sinfo --noheader -n "$node" -o '%t' 2>/dev/null | head -1 || true)"
        [[ "$state" == idle || "$state" == mix || "$state" == alloc ]] && break
        # A daemon that died on start: say so now rather than at the timeout.
        for program in munged slurmctld slurmd; do
            if [[ $i -gt 4 ]] && ! live_pid "$dir/run/$program.pid" "$program" >/dev/null; then
                die "$program exited after starting; its log: $dir/log/$program.log
$(tail -15 "$dir/log/$program.log" 2>/dev/null)"
            fi
        done
        sleep 0.5
    done
    if [[ "$state" != idle && "$state" != mix && "$state" != alloc ]]; then
        die "node $node is not idle after ${timeout} s (state '${state:-unknown}'); logs in $dir/log:
$(tail -15 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" 2>/dev/null)"
    fi
    echo "local-cluster: running in $dir (node $node: $state); export SLURM_CONF=$conf" >&2
}

case "$action" in
    start) do_start ;;
    stop) do_stop; echo "local-cluster: stopped ($dir)" >&2 ;;
    status) do_status ;;
    env) echo "export SLURM_CONF=$(printf %q "$conf")" ;;
esac
