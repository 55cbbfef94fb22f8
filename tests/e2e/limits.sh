#!/usr/bin/env bash
# Issue 21 §4 and §5, checked from outside under RANKS ranks:
#  (a) the null engine runs every layout (rank, thread, --files-per-dir, a comparison over
#      layouts) and creates nothing in --dir (it failed with "open directory" before);
#  (b) --engine uring -t 1024 -q 4096 for 100 files: each thread's ring is sized by the files
#      it can have in flight, so the peak resident memory per rank stays small (305 MiB at
#      -t 64 and about 4.7 GiB at -t 1024 before);
#  (c) a sweep whose points need 1103 threads in all keeps at most 1024 writer threads alive
#      per rank (/proc/PID/status Threads sampled while it runs; every point's pool was alive
#      at once before: 1113 threads, and 5053 for a sweep over 1..100);
#  (d) --write-mode whole --verify of a 64 MiB file: verification reads in pieces, so the
#      writing rank holds one copy of the file (the write's) and the others none (two copies
#      on every rank before);
#  (e) --seed 0 is a seed: two comparisons with it run the points in the same order and report
#      seed 0 (it was replaced by the clock before);
#  (f) ulimit -n below the fixed-file table a ring needs is refused before the run (exit 2,
#      naming the limit), where it failed in the run (a crash: SIGSEGV) before;
#  (g) a writer thread that cannot start (ulimit -v) fails the run (exit 1) with a message
#      naming the thread and the limits (SIGSEGV before).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; none is signalled (lib.sh)

json_field() {  # json_field FILE PYTHON-EXPRESSION-OF-r
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"
}

note "(a) the null engine with every layout"
# A plain run in --dir (layout directories and subdirectories), a sweep and a comparison over
# every layout (scratch directories).
for layout in "--layout thread -t 2 --files-per-dir 3" \
  "--layout shared,rank,thread --files-per-dir 2 --sweep-threads 1,2" \
  "--layout shared,rank,thread --compare --max-concurrency 2"; do
  rm -rf "$WORK/null"
  # shellcheck disable=SC2086
  run_mpiwrite --engine null -n 10 -d "$WORK/null" $layout --format json
  expect_status 0
  [ "$(error_lines)" -eq 0 ] || fail "null engine $layout: $(cat "$WORK/err")"
  files=$(json_field "$WORK/out" \
    "sum(rep['files'] for p in r['points'] for rep in p['repetitions'])")
  points=$(json_field "$WORK/out" "len(r['points'])")
  [ "$files" -eq $((10 * points)) ] || fail "null engine $layout: $files files over $points points"
  left=$(find "$WORK/null" -mindepth 1 | head -3)
  [ -z "$left" ] || fail "null engine $layout left $left in --dir"
done

# (b), (c) and (g) start about a thousand threads a rank: per-rank bounds, checked at 2 ranks
# in full (at 4, (b) with 128 threads; (c) and (g) skipped), to keep the test short.
threads=1024
[ "$RANKS" -gt 2 ] && threads=128
note "(b) uring -t $threads -q 4096 -n 100: the rings sized by the work"
run_mpiwrite --engine uring -t "$threads" -q 4096 -n 100 -l 1 -d "$WORK/uring" --cleanup \
  --format json
uring=yes
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
  note "io_uring is not usable here: (b) and (f) skipped: $(cat "$WORK/err")"
  uring=no
else
  expect_status 0
  peak=$(json_field "$WORK/out" "max(r['context']['peak_rss_kib']) // 1024")
  echo "peak resident memory per rank: $peak MiB"
  [ "$peak" -lt 200 ] ||
    fail "uring -t $threads -q 4096 for 100 files peaked at $peak MiB on a rank"
fi

if [ "$RANKS" -le 2 ]; then
note "(c) a sweep whose points need more than 1024 threads in all: live writer threads bounded"
# 1 + 2 + 500 + 600 = 1103 writer threads: all alive at once before (5053 for 1..100).
LIMIT=120 start_bg sweep -d "$WORK/sweep" -n 200 -l 1 --sweep-threads 1,2,500,600 --format json
most=0
while kill -0 "$BG" 2>/dev/null; do
  for pid in $(pgrep -f -- "$WORK/sweep" || true); do
    t=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${t:-0}" -gt "$most" ] && most=$t
  done
  sleep 0.05
done
wait "$BG" || fail "the sweep failed: $(cat "$ERR")"
echo "most threads in one process while sweeping: $most"
[ "$most" -gt 1 ] || fail "no thread count sampled"
# 1024 writer threads, the main thread and MPI's own (a handful).
[ "$most" -le 1060 ] || fail "$most threads alive in one rank during the sweep (at most 1024 writers)"
points=$(json_field "$OUT" "len(r['points'])")
[ "$points" -eq 4 ] || fail "the sweep reported $points points"
fi

note "(d) whole-file --verify of a 64 MiB file: bounded memory on every rank"
big=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && big=/dev/shm
bigdir=$(mktemp -d "$big/mpiwrite-limits-XXXXXX")
# One file of 4,793,491 lines of "Hello, world!\n" (14 bytes): 67,108,874 bytes, 64 MiB and a
# line. Rank 0 writes it; the other ranks write nothing, and one of them verifies it.
set +e
# shellcheck disable=SC2086
timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" -d "$bigdir/d" -n 1 \
  -l 4793491 --write-mode whole --verify --cleanup --format json >"$WORK/out" 2>"$WORK/err"
STATUS=$?
set -e
rm -rf "$bigdir"
expect_status 0
read -r writer others < <(json_field "$WORK/out" \
  "f'{r[\"context\"][\"peak_rss_kib\"][0] // 1024} {max(r[\"context\"][\"peak_rss_kib\"][1:]) // 1024}'")
echo "peak resident memory: rank 0 (writes the file) $writer MiB, the others at most $others MiB"
# The writer holds one copy of the file (its one write()) and the rest of the process; the
# verifier reads it in 1 MiB pieces. Before: a copy more on rank 0, two on every other rank.
[ "$writer" -lt 112 ] || fail "the rank writing a 64 MiB file peaked at $writer MiB"
[ "$others" -lt 48 ] || fail "a rank that writes nothing peaked at $others MiB (file: 64 MiB)"
checked=$(json_field "$WORK/out" "r['points'][0]['repetitions'][0]['verify']['files_checked']")
[ "$checked" -eq 1 ] || fail "verified $checked files, expected 1"

note "(e) --seed 0: the same order twice, and reported as 0"
orders=()
for run in 1 2; do
  # Rank 0 sleeps 10 ms a file, so every write phase outlasts the 10 ms between progress lines.
  run_mpiwrite -d "$WORK/seed$run" -n 8 -l 1 --compare --max-concurrency 2 -r 3 --seed 0 \
    --cleanup --format json --progress=0.01 --progress-style lines --slow-rank 0 \
    --slow-delay-us 10000
  expect_status 0
  seed=$(json_field "$WORK/out" "r['seed']")
  [ "$seed" = 0 ] || fail "--seed 0 reported seed $seed"
  # The order of the steps, as progress names their subjects (every write phase has a line).
  orders+=("$(grep -o 'progress: write [^:]*' "$WORK/err" | uniq | tr '\n' ' ')")
done
[ -n "${orders[0]}" ] || fail "no step order seen in the progress lines"
[ "${orders[0]}" = "${orders[1]}" ] || fail "--seed 0 gave two orders: ${orders[0]} / ${orders[1]}"
echo "order: ${orders[0]}"
note "(f) ulimit -n below the fixed files a ring needs: refused before the run, naming the limit"
if [ "$uring" = yes ]; then
  set +e
  # shellcheck disable=SC2086
  (ulimit -n 200 && timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" --engine uring \
    -q 4096 -n 1000 -d "$WORK/nofile") >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  expect_status 2
  grep -q 'ulimit -n (RLIMIT_NOFILE) is 200, below the [0-9]* fixed files' "$WORK/err" ||
    fail "no message naming ulimit -n: $(cat "$WORK/err")"
  [ ! -e "$WORK/nofile" ] || fail "--dir was created before the refusal"
  # The same limit with the rings sized by the work: 100 files need 100 fixed files at most.
  set +e
  # shellcheck disable=SC2086
  (ulimit -n 200 && timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" --engine uring \
    -q 4096 -n 100 -d "$WORK/nofile" --cleanup) >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  expect_status 0
fi
if [ "$RANKS" -le 2 ]; then
note "(g) a writer thread that cannot start: the message names the resource"
# An address-space limit makes the 8 MiB stacks of 1024 threads fail (EAGAIN) part way.
set +e
# shellcheck disable=SC2086
(ulimit -v 3000000 && timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" -t 1024 \
  -n 2000 -l 1 -d "$WORK/threads") >"$WORK/out" 2>"$WORK/err"
STATUS=$?
set -e
if [ "$STATUS" -eq 0 ]; then
  note "every thread started under ulimit -v 3000000: (g) skipped"
else
  expect_status 1
  grep -q '^mpiwrite: error: rank [0-9]*: cannot start writer thread [0-9]* of 1024: .*ulimit -u / RLIMIT_NPROC is' "$WORK/err" ||
    fail "no message naming the thread limit: $(head -c 600 "$WORK/err")"
fi
fi
echo "PASS"
