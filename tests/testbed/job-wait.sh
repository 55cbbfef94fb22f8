#!/usr/bin/env bash
# Waits for a Slurm job to end, polling `scontrol show job` every 0.2 s, and exits with the
# job's exit code: 0 COMPLETED, the script's code when FAILED, 1 for CANCELLED, TIMEOUT,
# NODE_FAIL, OUT_OF_MEMORY, ..., 124 when it did not end within WAIT_TIMEOUT seconds
# (default 120; the job is then cancelled). Prints "job ID: STATE ExitCode=a:b" on stderr.
# Why not `sbatch --wait`: it looks at the job 2 s, 10 s, 42 s, ... after submission, so a
# 3-second job takes 10 s.
# Usage: SLURM_CONF=... tests/testbed/job-wait.sh JOBID
set -uo pipefail
jid=${1:?usage: job-wait.sh JOBID}
deadline=$((SECONDS + ${WAIT_TIMEOUT:-120}))
misses=0
info="" state=""
while :; do
  info=$(scontrol -o show job "$jid" 2>/dev/null)
  state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$info")
  case $state in
    PENDING | CONFIGURING | RUNNING | COMPLETING | SUSPENDED | REQUEUED | REQUEUE_HOLD | \
      REQUEUE_FED | RESIZING | SIGNALING | STAGE_OUT | RESV_DEL_HOLD) ;;
    "")
      misses=$((misses + 1))
      [ "$misses" -le 50 ] || { echo "job $jid: unknown to slurmctld" >&2; exit 1; } ;;
    *) break ;;
  esac
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "job $jid: still $state after ${WAIT_TIMEOUT:-120} s, cancelling it" >&2
    scancel "$jid" 2>/dev/null
    exit 124
  fi
  sleep 0.2
done
exitcode=$(sed -n 's/.* ExitCode=\([0-9]*:[0-9]*\).*/\1/p' <<<"$info")
reason=$(sed -n 's/.* Reason=\([^ ]*\).*/\1/p' <<<"$info")
echo "job $jid: $state ExitCode=$exitcode Reason=$reason" >&2
case $state in
  COMPLETED) exit 0 ;;
  FAILED) code=${exitcode%%:*}; [ "${code:-0}" -ne 0 ] && exit "$code"; exit 1 ;;
  *) exit 1 ;;
esac
