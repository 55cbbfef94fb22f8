#!/usr/bin/env bash
# The makespan covers every rank, however late the scheduler starts one (issue 11, item 0).
# Checked from outside, against the physical limit and against strace:
#   1. More ranks than cores on the seed workload (tmpfs when there is one, --bind-to none):
#      the speedup of the median makespan over 1 rank x 1 thread cannot exceed the number of
#      cores (+20 % for the noise of two medians). Measured before the fix on 2 cores: 16
#      ranks 4.3x, 64 ranks 8.2x.
#   2. One run under `strace -f -ttt`: the reported makespan against the first data-file
#      openat to the last data-file close over all ranks, on the wall clock the kernel stamps:
#      never shorter; at most 2 ms or 5 % longer (a longer run is tried again, twice at most).
# The argument (the CTest rank count) is not used: this script picks its own counts.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

cores=$(nproc)
many=$((cores * 8))
base=$WORK
[ -d /dev/shm ] && [ -w /dev/shm ] && base=$(mktemp -d /dev/shm/mpiwrite-cs-XXXXXX)
trap 'rm -rf "$WORK" "$base"' EXIT

runs() {
  local ranks=$1
  local out=$WORK/seed-$ranks.json
  set +e
  # shellcheck disable=SC2086
  timeout --kill-after=10 120 $MPIEXEC --bind-to none -n "$ranks" "$MPIWRITE" -d "$base/seed-$ranks" \
    -r 9 --warmup 1 --cleanup --format json -o "$out" >/dev/null 2>"$WORK/err"
  STATUS=$?
  set -e
  expect_status 0
}

note "1 x 1 against $many x 1 on $cores cores"
runs 1
runs "$many"
python3 - "$WORK/seed-1.json" "$WORK/seed-$many.json" "$cores" <<'PY'
import json, statistics, sys
one, many, cores = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
def median(doc, key):
    return statistics.median(r[key] for r in doc["points"][0]["repetitions"])
speedup = median(one, "makespan_s") / median(many, "makespan_s")
own = median(one, "makespan_s") / median(many, "slowest_rank_s")
spread = median(many, "start_spread_s")
print(f"-- speedup {speedup:.2f}x on {cores} cores (the ranks' own times would say {own:.2f}x; "
      f"median start spread {spread * 1e3:.2f} ms)")
for rep in many["points"][0]["repetitions"]:
    ends = [r["start_s"] + r["elapsed_s"] for r in rep["per_rank"]]
    assert abs(max(ends) - rep["makespan_s"]) < 1e-12, "makespan is the last end"
    assert rep["makespan_s"] >= rep["slowest_rank_s"], "makespan covers the slowest rank"
# The physical bound is the number of cores; the two medians of 9 on a shared machine carry
# noise of their own (CI measured 2.01x once), so the check allows 20 % over it. The defect
# it guards against gave 4.3x at 16 ranks and 8.2x at 64 on 2 cores.
if speedup > 1.2 * cores:
    sys.exit(f"FAIL: {speedup:.2f}x over 1 x 1 with {cores} cores: more than the cores can give")
PY

command -v strace >/dev/null || { echo "strace missing: part 2 skipped"; exit 77; }
note "the reported makespan against strace, 4 ranks x 1 thread, 1 repetition"
trace=$WORK/trace
# One traced run and its check: 0, 3 (reported more than the traced phase) or a failure.
traced_run() {
  rm -rf "$base/traced" "$trace"
  set +e
  # shellcheck disable=SC2086
  timeout --kill-after=10 120 strace -f -ttt -qq -e trace=openat,close -o "$trace" \
    $MPIEXEC --bind-to none -n 4 "$MPIWRITE" -d "$base/traced" -n 200 -l 20 --format json \
    -o "$WORK/traced.json" >/dev/null 2>"$WORK/err"
  # shellcheck disable=SC2034  # expect_status (lib.sh) reads it
  STATUS=$?
  set -e
  expect_status 0
  set +e
  python3 - "$trace" "$WORK/traced.json" "$base/traced" <<'PY'
import json, re, sys
trace, report, data = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
opened = {}          # (pid, fd) -> True for data files
first_open = last_close = None
pids = set()
line_re = re.compile(r'^(\d+)\s+(\d+\.\d+) (openat|close)\((.*)\)\s+=\s+(-?\d+)')
for line in open(trace):
    m = line_re.match(line)
    if not m:
        continue
    pid, t, call, args, ret = m.group(1), float(m.group(2)), m.group(3), m.group(4), int(m.group(5))
    if call == "openat" and re.search(r'"write\d+\.txt"', args) and "O_CREAT" in args and ret >= 0:
        opened[(pid, ret)] = True
        pids.add(pid)
        first_open = t if first_open is None else min(first_open, t)
    elif call == "close" and opened.pop((pid, int(args)), None):
        last_close = t if last_close is None else max(last_close, t)
assert first_open is not None and last_close is not None, "no data file in the trace"
assert len(pids) == 4 or len(pids) >= 4, f"files written by {len(pids)} processes"
external = last_close - first_open
reported = report["points"][0]["repetitions"][0]["makespan_s"]
own = report["points"][0]["repetitions"][0]["slowest_rank_s"]
print(f"-- strace first openat to last close {external * 1e3:.2f} ms, reported makespan "
      f"{reported * 1e3:.2f} ms, slowest rank's own time {own * 1e3:.2f} ms")
# The reported phase holds the traced one (clock reads bracket the first openat and the last
# close): never shorter, in any run (-ttt stamps have 1 us resolution).
if reported < external - 1e-4:
    sys.exit(f"FAIL: reported {reported:.6f} s is shorter than the traced phase {external:.6f} s")
# And only a little longer: the writer's wake-up and the clock reads, under strace. Tolerance:
# 2 ms or 5 %. Exit 3: longer, which the caller tries again (see there).
if reported > external + max(2e-3, 0.05 * external):
    print(f"-- reported {reported:.6f} s is more than the traced phase {external:.6f} s")
    sys.exit(3)
PY
  local verdict=$?
  set -e
  return $verdict
}
# Four ranks and their tracers share 2 cores: a woken writer can wait a scheduler tick (4 ms)
# for one, which only ever adds to the reported phase (CI saw 102.5 ms against 95.1 traced,
# once in many runs; alone 0.2-1.4 ms more). A systematic excess (a barrier or a set-up inside
# the phase) shows in every run, so a run that reports more is tried again, twice at most;
# one that reports less fails at once.
for attempt in 1 2 3; do
  verdict=0
  traced_run || verdict=$?
  [ "$verdict" -eq 0 ] && break
  [ "$verdict" -eq 3 ] || fail "the traced run's check failed"
  [ "$attempt" -lt 3 ] || fail "the reported makespan exceeded the traced phase in 3 runs of 3"
done
echo "PASS"
