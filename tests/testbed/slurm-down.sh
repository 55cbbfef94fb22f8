#!/usr/bin/env bash
# Stops the cluster of tests/testbed/slurm-up.sh DIR, leaving no process behind:
#  1. cancels every job still queued or running (while slurmctld is up) and waits up to
#     10 s for their job steps to end;
#  2. stops every slurmd, slurmctld and munged, each by the PID in its PID file under DIR, waiting
#     until it is gone (KILL after 10 s);
#  3. kills, by PID, any slurmstepd of this cluster that outlived its slurmd (they run with
#     their working directory in DIR/log) and the job processes under it.
# Safe to re-run and to call when start-up failed half-way. About 5 s.
# Usage: tests/testbed/slurm-down.sh DIR
set -uo pipefail
dir=${1:?usage: slurm-down.sh DIR}
export SLURM_CONF=$dir/etc/slurm.conf
status=0

# The PID in DIR/run/FILE.pid (FILE: NAME unless given) if that process is NAME (a stale
# file must not kill a stranger).
daemon_pid() {
  local pid
  pid=$(cat "$dir/run/${2:-$1}.pid" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] && echo "$pid"
}

# slurmstepd processes of this cluster: their working directory is inside DIR.
stepds() {
  local pid cwd
  for pid in $(pgrep -x slurmstepd); do
    cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || continue
    case $cwd/ in "$dir"/*) echo "$pid" ;; esac
  done
}

# PIDs and all their descendants.
with_descendants() {
  local all=" $* " changed=1 pid ppid
  while [ "$changed" -eq 1 ]; do
    changed=0
    while read -r pid ppid; do
      case $all in *" $ppid "*) case $all in *" $pid "*) ;; *) all+="$pid "; changed=1 ;; esac ;; esac
    done < <(ps -eo pid=,ppid=)
  done
  echo "$all"
}

stop_pid() {   # NAME PID: TERM, wait up to 10 s, KILL
  local name=$1 pid=$2 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "slurm-down: $name ($pid) still alive after 10 s, sending KILL" >&2
    kill -KILL "$pid" 2>/dev/null
    sleep 0.2
    kill -0 "$pid" 2>/dev/null && { echo "slurm-down: $name ($pid) survived KILL" >&2; status=1; }
  fi
  echo "slurm-down: $name ($pid) stopped"
}

if daemon_pid slurmctld >/dev/null && [ -f "$SLURM_CONF" ]; then
  jobs=$(squeue -h -o %A 2>/dev/null | sort -u | paste -sd' ' -)
  if [ -n "$jobs" ]; then
    echo "slurm-down: cancelling jobs $jobs"
    # shellcheck disable=SC2086
    scancel $jobs 2>/dev/null
    for ((i = 0; i < 50; i++)); do
      [ -z "$(squeue -h -o %A 2>/dev/null)" ] && [ -z "$(stepds)" ] && break
      sleep 0.2
    done
  fi
fi

# Each slurmd has its PID file run/slurmd-NODE.pid (slurm-up.sh's NODES: one or several).
for f in "$dir"/run/slurmd-*.pid; do
  [ -e "$f" ] || continue
  f=${f##*/}
  if pid=$(daemon_pid slurmd "${f%.pid}"); then stop_pid "${f%.pid}" "$pid"; fi
  rm -f "$dir/run/$f"
done
for daemon in slurmctld munged; do
  if pid=$(daemon_pid "$daemon"); then stop_pid "$daemon" "$pid"; fi
  rm -f "$dir/run/$daemon.pid"
done

left=$(stepds)
if [ -n "$left" ]; then
  # shellcheck disable=SC2086
  pids=$(with_descendants $left)
  echo "slurm-down: killing leftover job processes:$pids" >&2
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null
  sleep 1
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null
fi
exit $status
