#!/usr/bin/env bash
# Many files: 100,000 one-line files (-l 1, --write-mode whole) from RANKS ranks x 2 threads,
# with --verify and --cleanup, on /dev/shm when it is there (a fresh directory; else WORK).
# Checks exit 0, the report's files = 100,000, verify files_checked = 100,000 and
# mismatches = 0, every file removed, and memory: every rank's peak RSS below 64 MiB, and at
# most 8 MiB above the same run with 1,000 files (a rank's memory must not grow with --files).
# About 2 s on a 2-core VM. Usage: scale.sh RANKS (registered with 4).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

FILES=${SCALE_FILES:-100000}
BASE=1000
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  SHM=$(mktemp -d /dev/shm/mpiwrite-scale-XXXXXX)
  trap 'rm -rf "$SHM"; cleanup_work' EXIT
  root=$SHM
else
  root=$WORK
fi
avail=$(df --output=iavail "$root" | tail -n 1 | tr -d ' ')
if [[ $avail =~ ^[0-9]+$ ]] && ((avail > 0 && avail < FILES + 1000)); then
  echo "SKIP: $root has $avail free inodes, $FILES files need more"
  exit 77
fi

# run_scale N: one run of N files; leaves the report in $WORK/report-N.json.
run_scale() {
  local n=$1 started=$SECONDS
  run_mpiwrite -d "$root/data-$n" -n "$n" -t 2 -l 1 --verify --write-mode whole \
    --format json --cleanup
  expect_status 0
  [ ! -e "$root/data-$n" ] || fail "--cleanup left $root/data-$n"
  cp "$WORK/out" "$WORK/report-$n.json"
  note "$n files: $((SECONDS - started)) s wall"
}

note "$FILES files, $RANKS ranks x 2 threads, in $root ($(findmnt -f -n -o FSTYPE -T "$root" 2>/dev/null || echo '?'))"
run_scale "$BASE"
run_scale "$FILES"
python3 - "$WORK/report-$BASE.json" "$WORK/report-$FILES.json" "$FILES" "$RANKS" <<'PY' || fail "scale checks"
import json, sys
base, big = (json.load(open(p)) for p in sys.argv[1:3])
files, ranks = int(sys.argv[3]), int(sys.argv[4])
def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
reps = big["points"][0]["repetitions"]
check(len(reps) == 1, "one repetition")
rep = reps[0]
check(rep["files"] == files, f"files in the report: {rep['files']}, expected {files}")
v = rep["verify"]
check(v["files_checked"] == files, f"verify.files_checked {v['files_checked']}, expected {files}")
check(v["mismatches"] == 0, f"verify.mismatches {v['mismatches']}")
check(big["cleanup"]["files_removed"] == files, f"cleanup removed {big['cleanup']['files_removed']}")
rss, rss0 = big["context"]["peak_rss_kib"], base["context"]["peak_rss_kib"]
check(len(rss) == ranks and len(rss0) == ranks, "peak_rss_kib has one entry per rank")
check(max(rss) < 65536, f"peak RSS {max(rss)} KiB, the limit is 65536 KiB per rank")
check(max(rss) - max(rss0) < 8192,
      f"peak RSS grew from {max(rss0)} KiB ({len(rss0)} ranks, 1000 files) to {max(rss)} KiB")
print(f"-- write {rep['makespan_s']:.3f} s ({files / rep['makespan_s']:.0f} files/s), verify "
      f"{v['elapsed_s']:.3f} s, removal {big['cleanup']['elapsed_s']:.3f} s; peak RSS per rank "
      f"[KiB] {rss} (with 1000 files: {rss0})")
PY
echo "PASS"
