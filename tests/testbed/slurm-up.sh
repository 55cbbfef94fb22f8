#!/usr/bin/env bash
# Starts a throwaway single-node Slurm cluster on this machine, as root, for the tests:
# munged, slurmctld and slurmd, with their config, state, logs, sockets and PID files all
# under DIR. No system file is read or changed (not /etc/slurm, not /etc/munge).
#
# Usage: tests/testbed/slurm-up.sh DIR      (DIR: absolute; it and every parent o+x)
#        export SLURM_CONF=DIR/etc/slurm.conf  (every client command needs it: sbatch, ...)
#        ...
#        tests/testbed/slurm-down.sh DIR     (stops the daemons by PID; safe to re-run)
#
# Environment: NODE_CPUS (default: nproc), EXTRA_CONF (lines appended to slurm.conf), and for
# several compute nodes on emulated hosts (tests/cluster/netfs_slurm.sh):
#   NODES="HOST=ADDR ..."   the compute nodes (default: `hostname -s`=127.0.0.1, one node)
#   NODE_EXEC=COMMAND       runs `COMMAND HOST slurmd ...` to start each node's slurmd on its
#                           host (e.g. tests/testbed/netns-exec; the host's hostname must be
#                           HOST, and it must see DIR at the same path: munge's socket is there)
#   CTLD_ADDR=ADDR          the address the nodes reach slurmctld at (default: localhost)
# Each slurmd has its own PID file, log and spool directory (slurmd-HOST.pid, ...).
# The default node is `hostname -s` with this machine's real CPUs: on a 2-core machine a
# 4-task job needs --overcommit. Partition "debug". Daemons listen on the default ports 6817/6818, so
# only one such cluster can run at a time. Start-up takes well under a second; the first
# batch job after it waits about 3 s (slurmctld's start-up delay), later jobs about 1 s.
# Recipe and pitfalls: docs/cluster.md ("How CI tests this").
set -euo pipefail

dir=${1:?usage: slurm-up.sh DIR (absolute)}
case $dir in /*) ;; *) echo "slurm-up: DIR must be absolute: $dir" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "slurm-up: must run as root" >&2; exit 2; }
for tool in munged mungekey slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || { echo "slurm-up: $tool not found (tools/install-deps.sh)" >&2; exit 2; }
done

# One cluster at a time: the ports are fixed. A cluster left by a killed test is stopped with
# slurm-down.sh and the DIR shown here.
for daemon in slurmctld slurmd; do
  for pid in $(pgrep -x "$daemon" || true); do
    echo "slurm-up: $daemon is running already (PID $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline"))." >&2
    echo "slurm-up: stop it first, e.g. tests/testbed/slurm-down.sh <its DIR>" >&2
    exit 2
  done
done

# munged refuses a socket directory unless it and every parent are o+x.
p=$dir
while [ "$p" != / ]; do
  [ ! -e "$p" ] || [ "$(( 0$(stat -c %a "$p") & 1 ))" -eq 1 ] ||
    { echo "slurm-up: $p is not o+x; munged needs every parent of its socket traversable" >&2; exit 2; }
  p=$(dirname "$p")
done

host=$(hostname -s)
nodes=${NODES:-$host=127.0.0.1}
node_names=$(for n in $nodes; do printf '%s,' "${n%%=*}"; done)
node_names=${node_names%,}
ctld=localhost
[ -z "${CTLD_ADDR:-}" ] || ctld="$host($CTLD_ADDR)"   # name(address): slurmctld checks the name
cpus=${NODE_CPUS:-$(nproc)}
mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
mkdir -p "$dir"/{etc,munge,run,log,spool/ctld}
for n in $nodes; do mkdir -p "$dir/spool/d-${n%%=*}"; done
chmod 755 "$dir" "$dir/run"
chmod 700 "$dir/munge"
[ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key"

# spank_pbs (from slurm-wlm-torque) sets PBS_JOBID, PBS_O_WORKDIR, ... in every job, as a PBS
# site would: the PBS script is tested with them.
spank_pbs=$(find /usr/lib/*/slurm-wlm /usr/lib/slurm* -name spank_pbs.so 2>/dev/null | head -n 1 || true)
: >"$dir/etc/plugstack.conf"
[ -z "$spank_pbs" ] || echo "optional $spank_pbs" >"$dir/etc/plugstack.conf"

cat >"$dir/etc/slurm.conf" <<CONF
# Written by tests/testbed/slurm-up.sh: a throwaway one-node cluster for tests.
ClusterName=mpiwrite-ci
SlurmctldHost=$ctld
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/run/munge.socket
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d-%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/etc/plugstack.conf
MailProg=$(type -P true)
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
ReturnToService=2
EnforcePartLimits=ALL
${EXTRA_CONF:-}
$(for n in $nodes; do
  echo "NodeName=${n%%=*} NodeAddr=${n#*=} CPUs=$cpus RealMemory=$((mem * 9 / 10)) State=UNKNOWN"
done)
PartitionName=debug Nodes=$node_names Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/etc/slurm.conf

munged --key-file="$dir/munge/munge.key" --socket="$dir/run/munge.socket" \
  --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/munged.seed"
slurmctld -f "$SLURM_CONF" -c   # -c: a clean state, no jobs from an earlier cluster
for n in $nodes; do
  # shellcheck disable=SC2086  # NODE_EXEC is a command (word list) on purpose
  ${NODE_EXEC:+$NODE_EXEC ${n%%=*}} slurmd -f "$SLURM_CONF"
done

state=""
for ((i = 0; i < 120; i++)); do   # the node is idle within 0.1 s here; give it 60 s
  state=$(sinfo -h -N -o %T 2>/dev/null | sort -u | paste -sd' ' - || true)
  [ "$state" = idle ] && { echo "slurm-up: node(s) $node_names idle ($cpus CPUs each), SLURM_CONF=$SLURM_CONF"; exit 0; }
  case $state in inval* | drain* | down*) [ "$i" -gt 4 ] && break ;; esac
  sleep 0.5
done
echo "slurm-up: the cluster did not come up (node state: '$state')" >&2
sinfo -N -l >&2 || true
tail -n 20 "$dir/log/munged.log" "$dir/log/slurmctld.log" "$dir"/log/slurmd-*.log >&2 || true
exit 1
