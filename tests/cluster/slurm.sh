#!/usr/bin/env bash
# The cluster scripts on a real Slurm: starts a one-node cluster (munged, slurmctld, slurmd;
# tests/testbed/slurm-up.sh, state in a scratch directory), then
#   - scripts/slurm/mpiwrite.sbatch with 2 tasks x 2 CPUs through srun --mpi=pmix (options
#     passed through, --threads from SLURM_CPUS_PER_TASK) and with 4 tasks through mpirun
#     (the seed workload), and a job whose mpiwrite fails: exit codes, files, JSON reports;
#   - scripts/pbs/mpiwrite.pbs through qsub (slurm-wlm-torque's wrapper on Slurm), and once
#     by hand as a PBS site would run it (PBS_NODEFILE, PBS_JOBID, PBS_O_WORKDIR);
#   - scripts/slurm/compare.sbatch twice (srun, mpirun), both reports drawn together by
#     scripts/plot.py;
# and stops every daemon it started, by PID, also when a check fails.
# Needs root (exit 77 otherwise) and the packages of tools/install-deps.sh.
# Environment (set by CTest): MPIWRITE = the binary. About 20-30 s.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
TMPDIR=/tmp source "$(dirname "$0")/../e2e/lib.sh"   # WORK: under /tmp (munged: o+x parents)
# shellcheck source=reaper_lib.sh
source "$(dirname "$0")/reaper_lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: starting Slurm daemons needs root"; exit 77; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLUSTER=$ROOT/tests/testbed
for tool in munged mungekey slurmctld slurmd sbatch scontrol squeue qsub mpirun; do
  command -v "$tool" >/dev/null || fail "$tool not found: run tools/install-deps.sh"
done

chmod 755 "$WORK"
export SLURM_CONF=$WORK/slurm/etc/slurm.conf
on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -d "$WORK/slurm/log" ]; then
    echo "---- last lines of the Slurm logs and job outputs ----" >&2
    tail -n 15 "$WORK"/slurm/log/*.log "$WORK"/jobs/*.out "$WORK"/jobs/*.o* "$WORK"/jobs/results/* \
      >&2 2>/dev/null || true
  fi
  "$CLUSTER/slurm-down.sh" "$WORK/slurm" >/dev/null || { echo "FAIL: slurm-down.sh left processes" >&2; status=1; }
  stop_reaper
  cleanup_work
  exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export WAIT_TIMEOUT=60   # tests/testbed/job-wait.sh: a job still running after 60 s fails

# Four task slots on the one node: the 4-task job must fit with the script's
# --ntasks-per-node (Slurm refuses --ntasks-per-node above the node's CPUs, even with
# --overcommit), so on a smaller machine the node claims 4 CPUs (config_overrides).
cpus=$(nproc)
[ "$cpus" -ge 4 ] || cpus=4
# If CTest's timeout kills this script (SIGKILL: on_exit never runs), the reaper stops the
# daemons and removes $WORK.
# shellcheck disable=SC2016
start_reaper bash -c '"$1" "$2/slurm"; rm -rf "$2"' reaper-teardown "$CLUSTER/slurm-down.sh" "$WORK"
NODE_CPUS=$cpus EXTRA_CONF="SlurmdParameters=config_overrides" \
  "$CLUSTER/slurm-up.sh" "$WORK/slurm" || fail "the Slurm cluster did not start"

mkdir "$WORK/jobs"
cd "$WORK/jobs"   # the submit directory: job outputs, reports and files land here

# submit NAME [sbatch options] SCRIPT [args]: sets JOB (its id) and JOB_STATUS (its exit code).
submit() {
  local label=$1
  shift
  note "$label"
  set +e
  JOB=$("$CLUSTER/sbatch-wait.sh" "$@" 2>"$WORK/wait.err")
  JOB_STATUS=$?
  set -e
  cat "$WORK/wait.err"
  [ -n "$JOB" ] || fail "$label: sbatch refused the job: $(cat "$WORK/wait.err")"
  [ "$JOB_STATUS" -ne 124 ] || fail "$label: job $JOB did not end in time"
}

# check_report FILE KIND RANKS THREADS FILES LINES REPETITIONS
check_report() {
  python3 - "$@" <<'PY' || fail "report $1"
import json, sys
path, kind, ranks, threads, files, lines, reps = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
doc = json.load(open(path))
def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {path}: {what}")
check(doc["schema_version"] == 5, "schema_version")
check(doc["kind"] == kind, f"kind {doc['kind']}, expected {kind}")
ctx = doc["context"]
check(ctx["ranks"] == ranks, f"context.ranks {ctx['ranks']}, expected {ranks}")
check(ctx["threads_per_rank"] == threads, f"threads_per_rank {ctx['threads_per_rank']}, expected {threads}")
check(sum(h["rank_count"] for h in ctx["hosts"]) == ranks, "context.hosts covers every rank")
check(doc["config"]["files"] == files and doc["config"]["lines"] == lines, "config files/lines")
for p in doc["points"]:
    check(len(p["repetitions"]) == reps, f"{p['label']}: {len(p['repetitions'])} repetitions")
    check(all(r["files"] == files for r in p["repetitions"]), f"{p['label']}: files per repetition")
print(f"{path}: {kind}, {ranks} ranks x {threads} threads, {len(doc['points'])} point(s): ok")
PY
}

# expect_summary OUT TEXT: the job output holds the report's summary (scripts/job_summary.py,
# which the job script finds through scripts/job_common.sh) with TEXT in a point's line.
expect_summary() {
  grep -q "^point .*$2" "$1" || { cat "$1" >&2; fail "$1: no summary line with '$2'"; }
}

# ---- mpiwrite.sbatch: srun --mpi=pmix, 2 tasks x 2 CPUs, options passed through ----------
# Slurm runs a copy of the script from its spool directory, and the submit directory holds
# no scripts/: the job finds job_common.sh beside the script sbatch was given.
submit "mpiwrite.sbatch, srun --mpi=pmix, 2 tasks x 2 CPUs, -n 20 -l 5 -r 2" \
  --cpus-per-task=2 "$ROOT/scripts/slurm/mpiwrite.sbatch" -n 20 -l 5 -r 2
[ "$JOB_STATUS" -eq 0 ] || fail "job $JOB exited $JOB_STATUS"
out=mpiwrite-$JOB.out
[ -f "$out" ] || fail "no job output $out"
grep -q "^command: srun --mpi=pmix --cpus-per-task=2 " "$out" || fail "$out: not launched by srun --mpi=pmix"
check_report "mpiwrite-$JOB.json" run 2 2 20 5 2
expect_files "mpiwrite-data-$JOB" 20 5 "Hello, world!"
grep -q "report: $WORK/jobs/mpiwrite-$JOB.json" "$out" || fail "$out does not name the report"
expect_summary "$out" \
  "(run): 2 ranks x 2 threads, makespan mean .* over 2 repetitions; last: 20 files"

# ---- mpiwrite.sbatch: mpirun inside the allocation, 4 tasks, the seed workload ------------
# The job output goes elsewhere (results/*.log): the report follows it, named like it.
mkdir results
MPIWRITE_LAUNCHER=mpirun submit "mpiwrite.sbatch, mpirun, 4 tasks, the seed workload, --output results/%x-%j.log" \
  --ntasks-per-node=4 --output=results/%x-%j.log "$ROOT/scripts/slurm/mpiwrite.sbatch"
[ "$JOB_STATUS" -eq 0 ] || fail "job $JOB exited $JOB_STATUS"
grep -q "^command: mpirun -np 4 " "results/mpiwrite-$JOB.log" || fail "results/mpiwrite-$JOB.log: not launched by mpirun -np 4"
check_report "results/mpiwrite-$JOB.json" run 4 1 100 100 1
expect_summary "results/mpiwrite-$JOB.log" "(run): 4 ranks x 1 thread, makespan mean"
expect_files "mpiwrite-data-$JOB" 100 100 "Hello, world!"

# ---- a failing mpiwrite fails the job, with its exit code -------------------------------
submit "mpiwrite.sbatch with a bad option: the job fails with mpiwrite's exit code 2" \
  "$ROOT/scripts/slurm/mpiwrite.sbatch" --files 0
[ "$JOB_STATUS" -eq 2 ] || fail "job $JOB exited $JOB_STATUS, expected 2"
grep -q "mpiwrite: error:" "mpiwrite-$JOB.out" || fail "mpiwrite-$JOB.out does not show mpiwrite's error"
submit "mpiwrite.sbatch refuses --format (it writes the JSON report itself)" \
  "$ROOT/scripts/slurm/mpiwrite.sbatch" --format csv
[ "$JOB_STATUS" -eq 2 ] || fail "job $JOB exited $JOB_STATUS, expected 2"
grep -q "leave out '--format'" "mpiwrite-$JOB.out" || fail "mpiwrite-$JOB.out: unclear refusal"

# ---- mpiwrite.pbs through qsub (slurm-wlm-torque on Slurm) ------------------------------
note "mpiwrite.pbs through qsub -V, MPIWRITE_ARGS='-n 30 -l 4' and an argument -r 2"
qsub_out=$(MPIWRITE_ARGS="-n 30 -l 4" qsub -V "$ROOT/scripts/pbs/mpiwrite.pbs" -r 2) ||
  fail "qsub failed: $qsub_out"
JOB=$(tail -n 1 <<<"$qsub_out")
[[ $JOB =~ ^[0-9]+$ ]] || fail "qsub printed no job id: $qsub_out"
set +e
"$CLUSTER/job-wait.sh" "$JOB"
JOB_STATUS=$?
set -e
[ "$JOB_STATUS" -eq 0 ] || fail "PBS job $JOB exited $JOB_STATUS"
out=$(ls ./*.o"$JOB")   # PBS naming: NAME.oJOBID
grep -q "^command: mpirun -np 2 " "$out" || fail "$out: not 2 ranks through mpirun (#PBS -l nodes=1:ppn=2)"
check_report "mpiwrite-$JOB.json" run 2 1 30 4 2   # named by #PBS -N and PBS_JOBID
expect_summary "$out" "(run): 2 ranks x 1 thread, makespan mean .* over 2 repetitions"
expect_files "mpiwrite-data-$JOB" 30 4 "Hello, world!"

note "mpiwrite.pbs as a PBS site runs it: a copy in a spool directory, PBS_NODEFILE," \
  "PBS_JOBID, PBS_O_WORKDIR, no Slurm"
mkdir "$WORK/pbs" "$WORK/pbs/spool"
printf 'localhost\nlocalhost\n' >"$WORK/pbs/nodefile"
cp "$ROOT/scripts/pbs/mpiwrite.pbs" "$WORK/pbs/spool/4242.pbsserver.SC"
# pbs_env SCRIPT: runs SCRIPT as a PBS job 4242 submitted from $WORK/pbs (output on stdout).
pbs_env() {
  (cd / && env -u SLURM_CONF PBS_JOBID=4242.pbsserver PBS_JOBNAME=pbsjob PBS_O_WORKDIR="$WORK/pbs" \
     PBS_NODEFILE="$WORK/pbs/nodefile" MPIWRITE_ARGS="-n 8 -l 3" "$@" 2>&1)
}
# Neither beside the copy nor in the submit directory: the shared part is not found, and
# the job says which variable names it.
set +e
pbs_env timeout -k 5 60 bash "$WORK/pbs/spool/4242.pbsserver.SC" >"$WORK/pbs/lost.out"
status=$?
set -e
if [ "$status" -ne 2 ] || ! grep -q "set MPIWRITE_SCRIPTS=" "$WORK/pbs/lost.out"; then
  cat "$WORK/pbs/lost.out" >&2
  fail "a copy of mpiwrite.pbs without its scripts: exit $status, not 2 naming MPIWRITE_SCRIPTS"
fi
set +e
pbs_env MPIWRITE_SCRIPTS="$ROOT/scripts" timeout -k 5 60 bash "$WORK/pbs/spool/4242.pbsserver.SC" \
  >"$WORK/pbs/pbsjob.o4242"
status=$?
set -e
[ "$status" -eq 0 ] || { cat "$WORK/pbs/pbsjob.o4242" >&2; fail "mpiwrite.pbs exited $status"; }
grep -q -- "--hostfile $WORK/pbs/nodefile -np 2 " "$WORK/pbs/pbsjob.o4242" || fail "not mpirun --hostfile \$PBS_NODEFILE -np 2"
check_report "$WORK/pbs/pbsjob-4242.json" run 2 1 8 3 1
expect_summary "$WORK/pbs/pbsjob.o4242" "(run): 2 ranks x 1 thread, makespan mean .*; last: 8 files"
expect_files "$WORK/pbs/mpiwrite-data-4242" 8 3 "Hello, world!"

# ---- compare.sbatch twice; scripts/plot.py reads both reports together -------------------
submit "compare.sbatch, srun, 1 node x 2 tasks, -n 20 -r 2" \
  --nodes=1 "$ROOT/scripts/slurm/compare.sbatch" -n 20 -r 2
[ "$JOB_STATUS" -eq 0 ] || fail "job $JOB exited $JOB_STATUS"
compare_a=mpiwrite-compare-$JOB-1nodes.json
# threads_per_rank: the most threads any point runs on one rank (no -t: --max-concurrency =
# 2 ranks x 1 CPU, so the 1x2 point runs 2; with --max-concurrency 4, the 1x4 point 4)
check_report "$compare_a" compare 2 2 20 100 2
[ ! -e "mpiwrite-data-$JOB" ] || fail "compare.sbatch left mpiwrite-data-$JOB behind"

MPIWRITE_LAUNCHER=mpirun submit "compare.sbatch, mpirun, 1 node x 4 tasks, -n 20 -r 2 --max-concurrency 4" \
  --nodes=1 --ntasks-per-node=4 "$ROOT/scripts/slurm/compare.sbatch" -n 20 -r 2 --max-concurrency 4
[ "$JOB_STATUS" -eq 0 ] || fail "job $JOB exited $JOB_STATUS"
compare_b=mpiwrite-compare-$JOB-1nodes.json
check_report "$compare_b" compare 4 4 20 100 2
grep -q "^  scripts/plot.py .*$compare_b" "mpiwrite-compare-$JOB.out" || fail "the job output does not say how to plot"

PY=""
for candidate in "${PLOT_PYTHON:-}" /usr/bin/python3 python3; do
  [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 &&
    "$candidate" -c 'import matplotlib' >/dev/null 2>&1 && { PY=$candidate; break; }
done
[ -n "$PY" ] || fail "no python3 with matplotlib (tools/install-deps.sh installs python3-matplotlib)"
note "scripts/plot.py $compare_a $compare_b -o compare.png"
"$PY" "$ROOT/scripts/plot.py" "$compare_a" "$compare_b" -o compare.png || fail "plot.py exited $?"
"$PY" - compare.png <<'PY' || fail "compare.png is not a plausible plot"
import struct, sys
head = open(sys.argv[1], "rb").read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", head
width, height = struct.unpack(">II", head[16:24])
assert width >= 800 and height >= 400, (width, height)
print(f"{sys.argv[1]}: {width}x{height} PNG")
PY
echo "PASS"
