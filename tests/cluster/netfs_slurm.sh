#!/usr/bin/env bash
# A two-node Slurm on the GlusterFS testbed (tests/testbed/netfs-up.sh): the client hosts
# netfsC and netfsD are the compute nodes, one slurmd in each (inside the host's network, UTS
# and mount namespaces: hostname netfsC/netfsD, its own FUSE mount at /mnt/netfs, its own
# /tmp); munged and slurmctld run on the head (this machine's namespaces, 10.78.0.1), where
# sbatch is called, as on a login node. Jobs are submitted from a directory on the shared
# volume, so the job outputs, reports and files are written on the nodes and checked from the
# head's own mount. Checked:
#   - scripts/slurm/mpiwrite.sbatch with sbatch -N 2 through srun --mpi=pmix and through
#     mpirun: exit 0, the files exact as seen from the head, the report naming both hosts
#     (2 ranks each) and the file system as FUSE;
#   - scripts/slurm/compare.sbatch with sbatch -N 2: a step on 1 node and one on 2 nodes, each
#     report's points complete, the 2-node step's multi-rank points on both hosts, the 1-node
#     step's on one, and no data directory left.
# Every daemon is stopped by PID (slurm-down.sh, then netfs-down.sh), also by the reaper if
# CTest's timeout kills this script. Needs root and the packages of tools/install-deps.sh
# --test (exit 77 without root or namespaces). Environment (CTest): MPIWRITE, and NETFS_SHARED:
# the state file of the bed of tests/cluster/netfs_bed.sh (CTest's fixture netfs_bed), used
# instead of a bed of its own (its ping timeout 2 s, netfs.sh's, not the default 10 s).
# About 25 s: testbed up 5-7 s, Slurm up < 1 s, four jobs 1-5 s each, Slurm down ~2 s,
# testbed down ~7 s.
SHARED_BED=""
if [ -n "${NETFS_SHARED:-}" ]; then
  # No state: cluster.netfs_bed_up skipped (no root, namespaces, FUSE or TUN here), and CTest
  # runs a fixture's tests after a skipped setup. A failed setup runs none of them.
  [ -s "$NETFS_SHARED" ] || { echo "SKIP: no shared testbed ($NETFS_SHARED: none made)"; exit 77; }
  SHARED_BED=$(cat "$NETFS_SHARED")
  [ -d "$SHARED_BED/netfs/ns" ] || { echo "FAIL: no shared testbed in $SHARED_BED" >&2; exit 1; }
fi
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
TMPDIR=${SHARED_BED:-/tmp} source "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=reaper_lib.sh
source "$(dirname "$0")/reaper_lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: the GlusterFS testbed and Slurm need root"; exit 77; }
unshare --net --uts --mount true 2>/dev/null || { echo "SKIP: cannot create namespaces here"; exit 77; }
[ -c /dev/fuse ] && [ -c /dev/net/tun ] || { echo "SKIP: no /dev/fuse or /dev/net/tun here"; exit 77; }
for tool in glusterd glusterfs gluster mkfs.xfs cc mpirun ip nsenter munged slurmctld slurmd sbatch; do
  command -v "$tool" >/dev/null || fail "$tool not found: run tools/install-deps.sh --test"
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLUSTER=$ROOT/tests/testbed
# netfs-up.sh's DIR; its parent ($WORK, or the shared bed's, which holds $WORK) is visible on
# the client hosts
TESTBED=${SHARED_BED:-$WORK}/netfs
SLURM=$WORK/slurm     # slurm-up.sh's DIR: config and munge socket, read by the slurmds too
MNT=/mnt/netfs
JOBS=$MNT/mpiwrite-slurm-$$   # the submit directory, on the shared volume

on_exit() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    echo "---- last lines of the Slurm logs and job outputs ----" >&2
    tail -n 15 "$SLURM"/log/*.log "$JOBS"/*.out >&2 2>/dev/null || true
  fi
  backtraces_of_cores "$JOBS" || status=1
  "$CLUSTER/slurm-down.sh" "$SLURM" >/dev/null || { echo "FAIL: slurm-down.sh left processes" >&2; status=1; }
  rm -rf "$JOBS" 2>/dev/null
  if [ -z "$SHARED_BED" ]; then   # a shared bed is netfs_bed.sh's to remove
    "$CLUSTER/netfs-down.sh" "$TESTBED" >/dev/null || { echo "FAIL: netfs-down.sh left something behind" >&2; status=1; }
  fi
  stop_reaper
  cleanup_work
  exit "$status"
}
# A task that crashes leaves its core in its working directory, the submit directory on the
# shared volume (the kernel's core_pattern "core", this machine's default; Slurm propagates
# this shell's core limit to the tasks): its backtrace is printed, and the test fails, before
# the directory goes. One rank once died here by SIGSEGV at address 0 before writing anything
# (CI, 2026-12-03), with only the signal trampoline in Open MPI's own backtrace.
ulimit -c unlimited 2>/dev/null || note "cannot raise the core limit: a crash leaves no core"
backtraces_of_cores() {
  local core found=0
  for core in "$1"/core "$1"/core.*; do
    [ -f "$core" ] || continue
    found=1
    echo "---- a task crashed: $core, $(file -b "$core" 2>/dev/null) ----" >&2
    if command -v gdb >/dev/null; then
      gdb -batch -nx -ex "info sharedlibrary" -ex "thread apply all bt" "$MPIWRITE" "$core" >&2 2>&1 || true
    else
      echo "(no gdb: tools/install-deps.sh --test installs it)" >&2
    fi
  done
  [ "$found" -eq 0 ]
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 755 "$WORK"   # munged: every parent of its socket o+x
if [ -n "$SHARED_BED" ]; then
  # shellcheck disable=SC2016
  start_reaper bash -c '"$1" "$2/slurm"; rm -rf "$2"' reaper-teardown "$CLUSTER/slurm-down.sh" "$WORK"
  note "the shared testbed $TESTBED"
else
  # shellcheck disable=SC2016
  start_reaper bash -c '"$1" "$3/slurm"; "$2" "$3/netfs"; rm -rf "$3"' reaper-teardown \
    "$CLUSTER/slurm-down.sh" "$CLUSTER/netfs-down.sh" "$WORK"
  t0=$(date +%s%N)
  # The client hosts have their own /tmp: the binary's directory must stay visible there
  # (netfs-up.sh keeps this repository visible; BUILD_DIR may be elsewhere).
  NETFS_VISIBLE=$(dirname "$MPIWRITE") "$CLUSTER/netfs-up.sh" "$TESTBED" ||
    fail "netfs-up.sh could not make the testbed"
  note "testbed up in $((($(date +%s%N) - t0) / 1000000)) ms"
fi
export NETNS_STATE=$TESTBED/ns   # netns-exec: the testbed's hosts
# 2 CPUs per node (config_overrides: also on a 1-core machine), 2 tasks per node.
t0=$(date +%s%N)
NODES="netfsC=10.78.0.21 netfsD=10.78.0.22" NODE_EXEC=$CLUSTER/netns-exec CTLD_ADDR=10.78.0.1 \
  NODE_CPUS=2 EXTRA_CONF="SlurmdParameters=config_overrides" \
  "$CLUSTER/slurm-up.sh" "$SLURM" || fail "the two-node Slurm did not start"
note "slurm up in $((($(date +%s%N) - t0) / 1000000)) ms"
export SLURM_CONF=$SLURM/etc/slurm.conf WAIT_TIMEOUT=60
# Open MPI inside the jobs (mpirun's orteds, the ranks' TCP): the testbed's network only.
export OMPI_MCA_oob_tcp_if_include=10.78.0.0/24 OMPI_MCA_btl_tcp_if_include=10.78.0.0/24
export OMPI_MCA_btl=vader,self,tcp
for h in netfsC netfsD; do   # each slurmd runs inside its host's network namespace
  [ "$(ip netns identify "$(cat "$SLURM/run/slurmd-$h.pid")")" = "$h" ] || fail "the slurmd of $h is not in $h"
done

mkdir "$JOBS"
cd "$JOBS"

# submit LABEL [sbatch options] SCRIPT [args]: sets JOB and JOB_STATUS; prints the time taken.
submit() {
  local label=$1 t0
  shift
  note "$label"
  t0=$(date +%s%N)
  set +e
  JOB=$("$CLUSTER/sbatch-wait.sh" "$@" 2>"$WORK/wait.err")
  JOB_STATUS=$?
  set -e
  cat "$WORK/wait.err"
  [ -n "$JOB" ] || fail "$label: sbatch refused the job: $(cat "$WORK/wait.err")"
  [ "$JOB_STATUS" -ne 124 ] || fail "$label: job $JOB did not end in time"
  note "job $JOB took $((($(date +%s%N) - t0) / 1000000)) ms"
}

# check_run_report FILE: 4 ranks, 2 on each node (block: 0 1 on netfsC), 60 files, FUSE.
check_run_report() {
  python3 - "$1" <<'PY' || fail "report $1"
import json, sys
doc = json.load(open(sys.argv[1]))
ctx = doc["context"]
hosts = {h["host"]: h for h in ctx["hosts"]}
assert sorted(hosts) == ["netfsC", "netfsD"], f"hosts: {sorted(hosts)}"
assert all(h["rank_count"] == 2 for h in hosts.values()), ctx["hosts"]
assert ctx["ranks"] == 4, ctx["ranks"]
assert "fuse" in json.dumps(ctx).lower(), "the report does not say the file system is FUSE"
rep = doc["points"][0]["repetitions"][0]
assert rep["files"] == 60 and rep["bytes"] == 60 * 14 * 20, (rep["files"], rep["bytes"])
per_host = {h["host"]: h["files"] for h in rep["hosts"]}
assert per_host == {"netfsC": 30, "netfsD": 30}, per_host
print(f"{sys.argv[1]}: ranks {[(n, h['rank_ids']) for n, h in sorted(hosts.items())]}, files per host {per_host}")
PY
}

for launcher in srun mpirun; do
  MPIWRITE_LAUNCHER=$launcher MPIWRITE_SCRATCH=$JOBS submit \
    "mpiwrite.sbatch -N 2 --ntasks-per-node=2 through $launcher, -n 60 -l 20" \
    -N 2 --ntasks-per-node=2 "$ROOT/scripts/slurm/mpiwrite.sbatch" -n 60 -l 20
  out=mpiwrite-$JOB.out
  [ "$JOB_STATUS" -eq 0 ] || fail "job $JOB exited $JOB_STATUS"
  grep -q "^job $JOB (mpiwrite): 2 node(s) \[netfsC,netfsD\], 4 tasks" "$out" || fail "$out: not 4 tasks on netfsC,netfsD"
  case $launcher in
    srun) grep -q "^command: srun --mpi=pmix " "$out" || fail "$out: not launched by srun --mpi=pmix" ;;
    mpirun) grep -q "^command: mpirun -np 4 " "$out" || fail "$out: not launched by mpirun -np 4" ;;
  esac
  grep -q "on netfsC (2 ranks), netfsD (2 ranks)" "$out" || fail "$out: the summary does not name both hosts"
  # From the head's own mount: the nodes wrote these files, the head reads them from the servers.
  expect_files "mpiwrite-data-$JOB" 60 20 "Hello, world!"
  sizes=$(stat -c %s "mpiwrite-data-$JOB"/write*.txt | sort -u)
  [ "$sizes" = 280 ] || fail "file sizes seen from the head: $sizes, expected 280 each"
  check_run_report "mpiwrite-$JOB.json"
done

# compare.sbatch on 2 nodes: a step on 1 node (2 ranks) and one on 2 nodes (4 ranks), srun.
MPIWRITE_SCRATCH=$JOBS submit "compare.sbatch -N 2 --ntasks-per-node=2, -n 16" \
  -N 2 --ntasks-per-node=2 "$ROOT/scripts/slurm/compare.sbatch" -n 16
out=mpiwrite-compare-$JOB.out
[ "$JOB_STATUS" -eq 0 ] || fail "job $JOB exited $JOB_STATUS"
grep -q "node counts: 1 2$" "$out" || fail "$out: not the node counts 1 2"
[ "$(grep -c '^report: ' "$out")" -eq 2 ] || fail "$out: not two reports"
[ ! -e "mpiwrite-data-$JOB" ] || fail "compare.sbatch left mpiwrite-data-$JOB behind"
python3 - "mpiwrite-compare-$JOB-1nodes.json" "mpiwrite-compare-$JOB-2nodes.json" <<'PY' || fail "the compare reports"
import json, sys
for path, nodes in zip(sys.argv[1:], (1, 2)):
    doc = json.load(open(path))
    assert doc["kind"] == "compare", doc["kind"]
    ctx = doc["context"]
    hosts = sorted(h["host"] for h in ctx["hosts"])
    assert ctx["ranks"] == 2 * nodes, ctx["ranks"]
    assert len(hosts) == nodes, f"{path}: hosts {hosts}, expected {nodes}"
    seen = set()
    for p in doc["points"]:
        rep = p["repetitions"][0]
        assert rep["files"] == 16, (p["label"], rep["files"])
        used = sorted(h["host"] for h in rep.get("hosts", []) if h["files"] > 0)
        ranks = int(p["label"].split("x")[0])
        # cyclic distribution: a point with 2+ ranks on a 2-node step uses both hosts
        want = min(ranks, nodes)
        assert len(used) == want, f"{path}: point {p['label']} on {used}, expected {want} host(s)"
        seen.update(used)
    assert sorted(seen) == hosts, (seen, hosts)
    print(f"{path}: {len(doc['points'])} points, ranks on {hosts}")
PY
echo "PASS"
