#!/usr/bin/env bash
# Every phase of issue 23 on the GlusterFS testbed at 2 ms RTT, from both client hosts, so that
# stat and read (--shift 1) go to the other host's files. Root only (the testbed needs it).
# Usage (from the repository): bench-results/netfs-phases-20261202/run.sh BINARY OUTDIR
# The bed is always taken down (EXIT trap), also when a run fails.
set -uo pipefail
bin=$(readlink -f "${1:?usage: run.sh BINARY OUTDIR}")
out=$(readlink -f "${2:?usage: run.sh BINARY OUTDIR}")
repo=$(cd "$(dirname "$0")/../.." && pwd)
tb=$repo/tests/testbed
mkdir -p "$out"
# The bed's DIR must be below a directory of /tmp: that parent stays visible in the client hosts'
# own /tmp (netfs-up.sh), DIR itself is hidden there.
scratch=$(mktemp -d /tmp/netfs-phases-XXXXXX)
bed=$scratch/bed
down() {
  "$tb/netfs-down.sh" "$bed" >"$out/down.log" 2>&1
  echo "bed down: exit $?" >&2
  rmdir "$scratch" 2>/dev/null || true
}
trap down EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t0=$(date +%s)
NETFS_VISIBLE=$(dirname "$bin") "$tb/netfs-up.sh" "$bed" >"$out/up.log" 2>&1 ||
  { echo "netfs-up failed, see $out/up.log" >&2; exit 1; }
echo "bed up in $(($(date +%s) - t0)) s" >&2
"$tb/netfs-rtt.sh" "$bed" 2000
export NETNS_STATE=$bed/ns OMPI_MCA_plm_rsh_agent=$tb/netns-rsh
export OMPI_MCA_oob_tcp_if_include=10.78.0.0/24 OMPI_MCA_btl_tcp_if_include=10.78.0.0/24
export OMPI_MCA_btl=vader,self,tcp
"$tb/netns-exec" netfsC ping -c 5 -q 10.78.0.11 | tail -1 >"$out/ping.txt" || true
phases=tree-create,write,stat,read,remove,tree-remove
common=(--phases "$phases" --shift 1 --file-size 1k -r "${REPS:-3}" --format json)
# name np  mpiwrite options...
run() {
  local name=$1 np=$2; shift 2
  echo "$(date -u +%T) $name: np $np $*  (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$out/runs.log" >&2
  local t=$(date +%s)
  timeout --kill-after=10 600 mpirun --hostfile "$bed/hostfile" -np "$np" --map-by node --bind-to none \
    "$bin" -d "/mnt/netfs/$name" "${common[@]}" -o "$out/$name.json" "$@" \
    >/dev/null 2>"$out/$name.err"   # stdout: the same JSON as -o
  echo "  exit $? in $(($(date +%s) - t)) s" | tee -a "$out/runs.log" >&2
}
# (a) one shared directory vs a directory per rank; a tree of 4 leaves under each.
# (b) processes vs threads at concurrency 4, both over both client hosts (ranks --map-by node).
# RUNS (default: all, in this order) picks and orders them, e.g. RUNS="shared-2x2 shared-4x1";
# ROUND (default empty) is added to the report names, so a second round keeps the first.
declare -A args=(
  [shared-4x1]="4 -n 1000 --layout shared --tree-depth 1 --branch 4"
  [rank-4x1]="4 -n 1000 --layout rank --tree-depth 1 --branch 4"
  [shared-2x2]="2 -n 1000 -t 2 --layout shared --tree-depth 1 --branch 4"
  [thread-4x1]="4 -n 1000 --layout thread --tree-depth 1 --branch 4"
  [thread-2x2]="2 -n 1000 -t 2 --layout thread --tree-depth 1 --branch 4"
)
for name in ${RUNS:-shared-4x1 rank-4x1 shared-2x2 thread-4x1 thread-2x2}; do
  # shellcheck disable=SC2086  # the options are words
  run "$name${ROUND:+-$ROUND}" ${args[$name]}
done
echo "load at the end: $(cat /proc/loadavg)" >>"$out/runs.log"
