# Shared by the multi-host tests: makes the two emulated hosts (tests/testbed/netns-up.sh),
# removes them on any exit, and points Open MPI at them. Source after tests/e2e/lib.sh (with
# TMPDIR=/tmp, so WORK is seen by both hosts); call start_two_hosts with the tools the test
# needs. Skips (exit 77) without root or namespaces. Sets ROOT, CLUSTER and $WORK/hostfile
# (mpihostA and mpihostB, 2 slots each). The hosts are tied to the test by
# tests/testbed/reaper.sh (tests/cluster/reaper_lib.sh).
# shellcheck source=reaper_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/reaper_lib.sh"
start_two_hosts() {
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
  local tool
  for tool in ip unshare nsenter mpirun "$@"; do
    command -v "$tool" >/dev/null || fail "$tool not found: run tools/install-deps.sh"
  done
  unshare --net --uts true 2>/dev/null || { echo "SKIP: cannot create network/UTS namespaces here"; exit 77; }
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  CLUSTER=$ROOT/tests/testbed
  trap on_exit_two_hosts EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  chmod 755 "$WORK"
  # If CTest's timeout kills the test (SIGKILL: on_exit_two_hosts never runs), the reaper
  # removes the hosts (netns-down.sh also kills, by PID, what still runs inside them) and $WORK.
  # shellcheck disable=SC2016
  start_reaper bash -c '"$1"; rm -rf "$2"' reaper-teardown "$CLUSTER/netns-down.sh" "$WORK"
  "$CLUSTER/netns-up.sh" || fail "netns-up.sh could not make the hosts"
  export OMPI_MCA_plm_rsh_agent=$CLUSTER/netns-rsh
  export OMPI_MCA_oob_tcp_if_include=10.77.0.0/24 OMPI_MCA_btl_tcp_if_include=10.77.0.0/24
  export OMPI_MCA_btl=vader,self,tcp
  printf 'mpihostA slots=2\nmpihostB slots=2\n' >"$WORK/hostfile"
}

on_exit_two_hosts() {
  local status=$?
  "$CLUSTER/netns-down.sh" || { echo "FAIL: netns-down.sh left something behind" >&2; status=1; }
  stop_reaper
  cleanup_work
  exit "$status"
}
