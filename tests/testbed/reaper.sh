#!/usr/bin/env bash
# Ties a testbed's lifetime to the test process that made it. A test starts the reaper with
# its own PID and the command that removes its testbed; the reaper leaves the test's process
# tree and session at once (so neither CTest's SIGKILL of the test nor a kill of its process
# group reaches it) and polls the test. If the test dies without disarming the reaper -- CTest's
# timeout sends SIGKILL, so the test's own EXIT trap never runs -- the reaper
#   1. kills, by PID, what is left of the test's process group (when the test led its own group:
#      its sbatch-wait loops, mpiruns, ...), so nothing keeps using the testbed;
#   2. runs the teardown command (which stops every daemon by PID, unmounts, removes namespaces).
# A test that ends normally tears down itself and then disarms the reaper (kills it by PID):
# the teardown commands use fixed names (namespaces, ports), so a late teardown must not hit the
# testbed of the next test.
#
# Usage: tests/testbed/reaper.sh PIDFILE TEST_PID TEARDOWN [ARGS...]
#   Returns once the reaper runs and has written its PID to PIDFILE. Disarm: kill "$(cat PIDFILE)".
#   The teardown's output goes to REAPER_LOG (default /tmp/mpiwrite-reaper-TEST_PID.log; the
#   test's output is gone by then). Lib: tests/cluster/reaper_lib.sh (start_reaper, stop_reaper).
set -euo pipefail

if [ "${1:-}" != --child ]; then
  pidfile=${1:?usage: reaper.sh PIDFILE TEST_PID TEARDOWN [ARGS...]}
  test_pid=${2:?usage: reaper.sh PIDFILE TEST_PID TEARDOWN [ARGS...]}
  shift 2
  [ $# -gt 0 ] || { echo "reaper: no teardown command" >&2; exit 2; }
  kill -0 "$test_pid" 2>/dev/null || { echo "reaper: no process $test_pid" >&2; exit 2; }
  rm -f "$pidfile"
  # setsid -f forks: the reaper's parent becomes init, its session and group are new ones.
  # stdin/out/err detached: a test whose output is captured must not wait for the reaper.
  setsid -f "$0" --child "$pidfile" "$test_pid" "$@" </dev/null >/dev/null 2>&1
  for ((i = 0; i < 100; i++)); do [ -s "$pidfile" ] && exit 0; sleep 0.05; done
  echo "reaper: did not start within 5 s" >&2
  exit 1
fi

shift   # --child
pidfile=$1 test_pid=$2
shift 2
log=${REAPER_LOG:-/tmp/mpiwrite-reaper-$test_pid.log}
# The test's start time (field 22 of /proc/PID/stat): a reused PID is not the test.
start_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
test_start=$(start_of "$test_pid")
test_pgid=$(ps -o pgid= -p "$test_pid" | tr -d ' ')
trap '' HUP INT   # a closing terminal or ^C of the test is the test's business, not ours
echo $$ >"$pidfile.tmp" && mv "$pidfile.tmp" "$pidfile"

while [ -n "$test_start" ] && [ "$(start_of "$test_pid")" = "$test_start" ]; do
  sleep 0.2
done

exec >>"$log" 2>&1
echo "reaper: $(date -u +%FT%TZ) test $test_pid died without tearing down; running: $*"
if [ "$test_pgid" = "$test_pid" ]; then
  # The test led its own process group: what is left in it is the test's (ps by PID, not by name).
  group() { ps -eo pid=,pgid= | awk -v g="$test_pgid" '$2 == g {print $1}'; }
  for sig in TERM KILL; do
    pids=$(group)
    [ -z "$pids" ] && break
    echo "reaper: $sig to what is left of the test's group: $(tr '\n' ' ' <<<"$pids")"
    # shellcheck disable=SC2086
    kill -"$sig" $pids 2>/dev/null || true
    for ((i = 0; i < 10; i++)); do [ -z "$(group)" ] && break; sleep 0.1; done
  done
fi
set +e
"$@"
status=$?
echo "reaper: teardown exited $status"
rm -f "$pidfile"
exit "$status"
