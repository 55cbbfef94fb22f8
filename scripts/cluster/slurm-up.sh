#!/usr/bin/env bash
# Starts a throwaway single-node Slurm cluster on this machine, as root, for the tests:
# munged, slurmctld and slurmd, with their config, state, logs, sockets and PID files all
# under DIR. No system file is read or changed (not /etc/slurm, not /etc/munge).
#
# Usage: scripts/cluster/slurm-up.sh DIR      (DIR: absolute; it and every parent o+x)
#        export SLURM_CONF=DIR/etc/slurm.conf  (every client command needs it: sbatch, ...)
#        ...
#        scripts/cluster/slurm-down.sh DIR     (stops the daemons by PID; safe to re-run)
#
# Environment: NODE_CPUS (default: nproc), EXTRA_CONF (lines appended to slurm.conf).
# The node is `hostname -s` with this machine's real CPUs: on a 2-core machine a 4-task job
# needs --overcommit. Partition "debug". Daemons listen on the default ports 6817/6818, so
# only one such cluster can run at a time. Start-up takes well under a second; the first
# batch job after it waits about 3 s (slurmctld's start-up delay), later jobs about 1 s.
# Recipe and pitfalls: docs/cluster.md ("How CI tests this").
set -euo pipefail

dir=${1:?usage: slurm-up.sh DIR (absolute)}
case $dir in /*) ;; *) echo "slurm-up: DIR must be absolute: $dir" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "slurm-up: must run as root" >&2; exit 2; }
for tool in munged mungekey slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || { echo "slurm-up: $tool not found (scripts/install-deps.sh)" >&2; exit 2; }
done

# One cluster at a time: the ports are fixed. A cluster left by a killed test is stopped with
# slurm-down.sh and the DIR shown here.
for daemon in slurmctld slurmd; do
  for pid in $(pgrep -x "$daemon" || true); do
    echo "slurm-up: $daemon is running already (PID $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline"))." >&2
    echo "slurm-up: stop it first, e.g. scripts/cluster/slurm-down.sh <its DIR>" >&2
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
cpus=${NODE_CPUS:-$(nproc)}
mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
mkdir -p "$dir"/{etc,munge,run,log,spool/ctld,spool/d}
chmod 755 "$dir" "$dir/run"
chmod 700 "$dir/munge"
[ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key"

# spank_pbs (from slurm-wlm-torque) sets PBS_JOBID, PBS_O_WORKDIR, ... in every job, as a PBS
# site would: the PBS script is tested with them.
spank_pbs=$(find /usr/lib/*/slurm-wlm /usr/lib/slurm* -name spank_pbs.so 2>/dev/null | head -n 1 || true)
: >"$dir/etc/plugstack.conf"
[ -z "$spank_pbs" ] || echo "optional $spank_pbs" >"$dir/etc/plugstack.conf"

cat >"$dir/etc/slurm.conf" <<CONF
# Written by scripts/cluster/slurm-up.sh: a throwaway one-node cluster for tests.
ClusterName=mpiwrite-ci
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/run/munge.socket
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
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
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$((mem * 9 / 10)) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/etc/slurm.conf

munged --key-file="$dir/munge/munge.key" --socket="$dir/run/munge.socket" \
  --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/munged.seed"
slurmctld -f "$SLURM_CONF" -c   # -c: a clean state, no jobs from an earlier cluster
slurmd -f "$SLURM_CONF"

state=""
for ((i = 0; i < 120; i++)); do   # the node is idle within 0.1 s here; give it 60 s
  state=$(sinfo -h -N -o %T 2>/dev/null || true)
  [ "$state" = idle ] && { echo "slurm-up: node $host idle ($cpus CPUs), SLURM_CONF=$SLURM_CONF"; exit 0; }
  case $state in inval* | drain* | down*) [ "$i" -gt 4 ] && break ;; esac
  sleep 0.5
done
echo "slurm-up: the cluster did not come up (node state: '$state')" >&2
sinfo -N -l >&2 || true
tail -n 20 "$dir/log/munged.log" "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
exit 1
