# shellcheck shell=bash
# Shared by the cluster tests: ties their testbed to the test process with
# tests/testbed/reaper.sh, so that a test killed by CTest's timeout (SIGKILL: no EXIT trap
# runs) still leaves no daemon, mount or namespace behind. Source after tests/e2e/lib.sh.
#   start_reaper TEARDOWN [ARGS...]   right before the testbed is made (it may stop half-way)
#   stop_reaper                       in the EXIT trap, after the test's own teardown
# The reaper's PID file lives in $WORK (removed by the teardown with everything else).

start_reaper() {
  REAPER_PIDFILE=$WORK/reaper.pid
  "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/tests/testbed/reaper.sh" \
    "$REAPER_PIDFILE" $$ "$@" || fail "the reaper did not start"
  REAPER_PID=$(cat "$REAPER_PIDFILE")
}

# Disarms the reaper: the test tore down itself. By PID, and only if that PID is still our
# reaper (its command line names reaper.sh --child with our PID).
stop_reaper() {
  [ -n "${REAPER_PID:-}" ] || return 0
  if tr '\0' ' ' <"/proc/$REAPER_PID/cmdline" 2>/dev/null | grep -q "reaper.sh --child [^ ]* $$ "; then
    kill -TERM "$REAPER_PID" 2>/dev/null || true
  fi
  REAPER_PID=""
}
