#!/usr/bin/env bash
# --partition dynamic across two hosts for real (tests/testbed/netns-up.sh, TCP between
# them, as tests/cluster/multihost.sh sets up): the counter lives on rank 0 and every other
# rank, here also those on mpihostB, takes its chunks over the network. Checked for both
# engines (posix, and uring with 8 files in flight per thread), chunks of 1, 8 and 64 files,
# 2 and 4 ranks --map-by node with 2 threads each: exit code, every file exactly once with its
# exact content, and the JSON report's per-rank files adding up to the total in every
# repetition. Then -r 3 --verify (the counter is reset for every repetition, and each one's
# files are read back), --compare --verify (a counter per rank count, reset per step), and a
# slow rank on mpihostB taking fewer files.
# Needs root and namespaces (exit 77 otherwise). Environment (CTest): MPIWRITE. About 45 s on CI.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
TMPDIR=/tmp source "$(dirname "$0")/../e2e/lib.sh"   # WORK: shared by both hosts

# shellcheck source=two_hosts.sh
source "$(dirname "$0")/two_hosts.sh"
start_two_hosts python3


# mpirun on mpihostA with NP ranks over both hosts (A,B,A,B); a hang is a failure.
# Sets STATUS; stdout/stderr in $WORK/out, $WORK/err.
run_across() {
  local np=$1
  shift
  set +e
  timeout --kill-after=5 60 "$CLUSTER/netns-exec" mpihostA \
    mpirun --hostfile "$WORK/hostfile" -np "$np" --map-by node --bind-to none \
    "$MPIWRITE" "$@" >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$WORK/err" >&2; fail "mpirun hung: $*"; }
}

# The JSON report REPORT of a run of FILES files over RANKS ranks on both hosts: every
# repetition of every point wrote FILES files, and its ranks' files add up to them.
check_report() {
  python3 - "$@" <<'PY' || fail "the report of that run"
import json, sys
doc, files, ranks = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
check(doc["context"]["ranks"] == ranks, "context.ranks")
check(sorted(h["host"] for h in doc["context"]["hosts"]) == ["mpihostA", "mpihostB"], "both hosts")
for p in doc["points"]:
    check(p["repetitions"], f"point {p['label']} has repetitions")
    for i, rep in enumerate(p["repetitions"]):
        per_rank = [r["files"] for r in rep["per_rank"]]
        check(rep["files"] == files, f"point {p['label']} repetition {i}: {rep['files']} files")
        check(sum(per_rank) == files, f"point {p['label']} repetition {i}: ranks {per_rank}")
print("ranks' files:", "; ".join(f"{p['label']}: " + ", ".join(
    str([r["files"] for r in rep["per_rank"]]) for rep in p["repetitions"]) for p in doc["points"]))
PY
}

n=200
# The ranks and the chunk change what crosses the network: 2 ranks (one a host) and 4 (two a
# host), a chunk of 1 (a request per file) and of 64 (at 4 ranks more than a rank's share: 4
# chunks, the last one cut, for 8 threads). posix at every pair; uring, whose engine only takes what
# the same counter hands it, at the two extremes (2 ranks chunk 1, 4 ranks chunk 64); chunk 8
# in both engines' -r 3 and --compare runs below. (Each run is an mpirun across the hosts,
# about 4 s on CI: the 3 chunks x 2 counts x 2 engines before took 73 s.)
for engine in posix uring; do
  args=()
  [ "$engine" = uring ] && args=(--engine uring -q 8)
  for case in 2:1 2:64 4:1 4:64; do
    np=${case%:*} chunk=${case#*:}
    [ "$engine" = posix ] || [ "$case" = 2:1 ] || [ "$case" = 4:64 ] || continue
    note "$engine, $np ranks x 2 threads over both hosts, chunk $chunk"
    dir=$WORK/$engine-np$np-c$chunk
    run_across "$np" -d "$dir" -n "$n" -l 3 -t 2 --partition dynamic --chunk "$chunk" \
      "${args[@]}" --format json -o "$WORK/report.json"
    expect_status 0
    expect_files "$dir" "$n" 3 "Hello, world!"
    check_report "$WORK/report.json" "$n" "$np"
  done

  note "$engine, 4 ranks, -r 3 --verify: the counter starts again at 0 for every repetition"
  run_across 4 -d "$WORK/$engine-reps" -n "$n" -l 2 -t 2 -r 3 --verify --partition dynamic \
    --chunk 8 "${args[@]}" --format json -o "$WORK/report.json"
  expect_status 0
  expect_files "$WORK/$engine-reps" "$n" 2 "Hello, world!"
  check_report "$WORK/report.json" "$n" 4

  # --compare picks the uring queue depths itself.
  note "$engine, --compare --verify up to 4 ranks x 2 threads: a counter reset per step"
  run_across 4 -d "$WORK/$engine-compare" -n "$n" -l 1 -t 2 --compare --verify \
    --partition dynamic --chunk 8 "${args[@]:0:2}" --format json -o "$WORK/report.json"
  expect_status 0
  check_report "$WORK/report.json" "$n" 4
done

note "rank 1 on mpihostB sleeps 50 ms per file: it takes fewer files than rank 0"
run_across 2 -d "$WORK/slow" -n 40 -l 1 --partition dynamic --chunk 1 --slow-rank 1 \
  --slow-delay-us 50000 --format json -o "$WORK/report.json"
expect_status 0
expect_files "$WORK/slow" 40 1 "Hello, world!"
check_report "$WORK/report.json" 40 2
python3 - "$WORK/report.json" <<'PY' || fail "the slow rank's share"
import json, sys
files = [r["files"] for r in json.load(open(sys.argv[1]))["points"][0]["repetitions"][0]["per_rank"]]
if not files[1] < files[0]: sys.exit(f"FAIL: the slow rank 1 took {files[1]} of {files}")
PY
echo "PASS"
