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
echo "PASS"
