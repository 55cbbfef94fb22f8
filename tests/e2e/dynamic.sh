#!/usr/bin/env bash
# --partition dynamic: every index written exactly once at several chunk sizes (also larger
# than a slice, and fewer files than ranks), and a slowed rank takes fewer files.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

for chunk in 1 7 1000; do
  note "dynamic, chunk $chunk, $RANKS ranks x 2 threads"
  run_mpiwrite -d "$WORK/c$chunk" -n 50 -l 4 --partition dynamic --chunk "$chunk" -t 2 -r 2
  expect_status 0
  expect_files "$WORK/c$chunk" 50 4 "Hello, world!"
done

note "fewer files than ranks x threads"
run_mpiwrite -d "$WORK/few" -n 3 -l 1 --partition dynamic -t 3
expect_status 0
expect_files "$WORK/few" 3 1 "Hello, world!"

if [ "$RANKS" -gt 1 ]; then
  # 50 ms, not less: with --engine uring -q 8 (MPIWRITE_ARGS) a rank has 8 files in flight, so
  # the delays overlap and its rate is 8 / delay; and each writer claims its first 8 files at
  # once. 50 ms keeps the slow rank far slower than any healthy file system.
  note "rank 1 sleeps 50 ms per file: it should take fewer files than the fastest rank"
  run_mpiwrite -d "$WORK/slow" -n 40 -l 1 --partition dynamic --chunk 1 --slow-rank 1 \
    --slow-delay-us 50000 --format json
  expect_status 0
  expect_files "$WORK/slow" 40 1 "Hello, world!"
  python3 - "$WORK/out" <<'PY'
import json, sys
ranks = json.load(open(sys.argv[1]))["points"][0]["repetitions"][0]["per_rank"]
files = [r["files"] for r in ranks]
if sum(files) != 40: sys.exit(f"FAIL: files per rank {files} do not add up to 40")
if not files[1] < max(files): sys.exit(f"FAIL: the slow rank 1 took {files[1]} of {files}")
print("files per rank:", files)
PY
fi
# --verify after a dynamic write reads back its neighbour's records (exchanged before the verify
# phase): every file checked once, in directories of 4 files; with --compare the
# threads point leaves ranks idle, which take no part in the exchange (no hang). (Not with
# the uring run's -q, which --compare refuses: there a plain run, on uring's records.)
note "--verify after a dynamic write, --files-per-dir 4"
compare=()
[ "$RANKS" -gt 1 ] && [ -z "${MPIWRITE_ARGS:-}" ] && compare=(--compare)
run_mpiwrite -d "$WORK/verify" -n 40 -l 2 --partition dynamic --chunk 3 -t 2 -r 2 --verify \
  --files-per-dir 4 --cleanup --format json "${compare[@]}"
expect_status 0
python3 - "$WORK/out" <<'PY' || fail "--verify after a dynamic write: $(head -c 2000 "$WORK/out")"
import json, sys
points = json.load(open(sys.argv[1]))["points"]
for p in points:
    reps = p["repetitions"]
    assert len(reps) == 2, (p["label"], len(reps))
    for rep in reps:
        v = rep["verify"]
        assert v["files_checked"] == 40 and v["mismatches"] == 0, (p["label"], v)
print("verified:", [p["label"] for p in points])
PY
[ -z "$(find "$WORK/verify" -mindepth 1 2>/dev/null)" ] ||
  fail "--verify run left $(find "$WORK/verify" -mindepth 1 | head -3)"

echo "PASS"
