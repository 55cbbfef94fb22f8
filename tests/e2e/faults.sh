#!/usr/bin/env bash
# Faults during a run (docs/errors.md, "Faults during a run"), checked from outside:
#   (a) --dir removed during the run: exit 1, a message naming a path under it and strerror;
#   (b) one rank killed with SIGKILL: mpiexec exits non-zero, no process of the job is left;
#   (c) SIGINT and (d) SIGTERM to mpiexec, (g) SIGTERM to every rank (as a batch system
#       does): non-zero exit, no process left, no .mpiwrite-* scratch directory left, every
#       file left in --dir complete; when the ranks got to finish (exit 130/143, or a report
#       on standard output) the report is marked interrupted;
#   (e) --timeout 2 with a stuck rank 1 (slowed 30 s): non-zero exit within 25 s, a line
#       naming rank 1 and --timeout (one per rank at most), no process left;
#   (f) --verify on a normal run: exit 0, every repetition's verify.files_checked = files and
#       mismatches = 0, context.peak_rss_kib has one entry per rank;
#   (h) --verify with a file truncated and (i) a byte changed between the write and the
#       verify phase: exit 1, the message names the file.
# Runs are made slow with --slow-rank/--slow-delay-us; every run is under `timeout`, and a run
# that reaches LIMIT seconds is a hang (mpiexec itself may return 124 or 137, so the exit
# code cannot tell). The processes of a run are found by their command line, which holds a
# directory under this test's WORK. Cases (b), (e), (h), (i) need RANKS >= 2.
# Usage: faults.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

LIMIT=60
SIZE=1400  # bytes of a default file: 100 lines of "Hello, world!\n"

seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# finish_bg: waits for the run; sets STATUS and ELAPSED (seconds since start_bg).
finish_bg() {
  set +e
  wait "$BG"
  STATUS=$?
  set -e
  ELAPSED=$(seconds_since "$T0")
  awk -v e="$ELAPSED" -v l="$LIMIT" 'BEGIN { exit !(e < l - 1) }' ||
    { cat "$ERR" >&2; fail "mpiwrite hung: killed by timeout after $ELAPSED s"; }
}

# wait_for WHAT COMMAND...: polls COMMAND every 10 ms, for up to 30 s, while the run goes on.
wait_for() {
  local what=$1 k
  shift
  for ((k = 0; k < 3000; k++)); do
    if "$@"; then return 0; fi
    kill -0 "$BG" 2>/dev/null || { cat "$ERR" >&2; fail "the run ended before $what"; }
    sleep 0.01
  done
  fail "waited 30 s for $what"
}
exists() { compgen -G "$1" >/dev/null; }
size_is() { [ "$(stat -c %s "$1" 2>/dev/null)" = "$2" ]; }

# The ranks: mpiexec's children (Open MPI starts them directly on one host, no orted).
ranks_of_job() { pgrep -P "$MPIRUN_PID" || true; }

# expect_no_processes MARKER: no process whose command line holds MARKER is left. Open MPI
# may still be reaping after mpiexec returned, so this waits up to 5 s and says so.
expect_no_processes() {
  local marker=$1 k left=''
  for ((k = 0; k <= 50; k++)); do
    left=$(pgrep -af -- "$marker" || true)
    if [ -z "$left" ]; then
      ((k == 0)) || note "processes lingered $((k * 100)) ms after mpiexec exited"
      return 0
    fi
    sleep 0.1
  done
  fail "processes left 5 s after mpiexec exited: $left"
}

# expect_clean DIR: no scratch directory of a repetition left, every file in DIR complete.
# An interrupted run leaves its scratch to a background rm (its .trash directory): waited
# for up to SCRATCH_WAIT seconds.
SCRATCH_WAIT=${SCRATCH_WAIT:-30}
expect_clean() {
  local dir=$1 scratch incomplete k
  [ -d "$dir" ] || return 0
  for ((k = 0; k < SCRATCH_WAIT * 10; k++)); do
    scratch=$(find "$dir" -mindepth 1 -maxdepth 1 -name '.mpiwrite-*' 2>/dev/null | head -n 3 || true)
    [ -n "$scratch" ] || break
    sleep 0.1
  done
  [ -z "$scratch" ] || fail "scratch directories left after $SCRATCH_WAIT s: $scratch"
  ((k == 0)) || note "the background removal took $((k * 100)) ms after mpiexec exited"
  # An interrupted run without -o saves its whole report beside the data (docs/metrics.md,
  # "Interruption"): that file is the report, not a data file.
  incomplete=$(find "$dir" -type f ! -size "${SIZE}c" ! -name 'mpiwrite-interrupted-*' \
    -printf '%p (%s bytes)\n' | head -n 3)
  [ -z "$incomplete" ] || fail "incomplete files left: $incomplete"
}

# An interrupted run: starts it, waits until its last repetition writes into DIR (the first
# repetition's scratch directory is full by then), sends SIGNAL to TARGET (mpiexec or ranks).
interrupt_case() {
  local name=$1 signal=$2 target=$3 format=$4 dir=$WORK/$1 pids t1
  start_bg "$name" -d "$dir" -n $((100 * RANKS)) -r 2 --slow-rank 0 --slow-delay-us 20000 \
    --format "$format"
  wait_for "the last repetition started" exists "$dir/write*.txt"
  exists "$dir/.mpiwrite-*" || fail "no scratch directory to remove: the test is too late"
  sleep 0.3
  if [ "$target" = mpiexec ]; then
    pids=$MPIRUN_PID
  else
    pids=$(ranks_of_job)
    [ "$(wc -w <<<"$pids")" -eq "$RANKS" ] || fail "found ranks '$pids', expected $RANKS"
  fi
  t1=$(date +%s.%N)
  # shellcheck disable=SC2086
  kill -s "$signal" $pids
  finish_bg
  local after
  after=$(seconds_since "$t1")
  [ "$STATUS" -ne 0 ] || fail "SIG$signal to $target: exit code 0"
  expect_no_processes "$dir"
  expect_clean "$dir"
  local report=none
  case $format in
    table) report=$(grep '^INTERRUPTED' "$OUT" || echo none) ;;
    json)
      # mpiexec may stop forwarding standard output after its signal, part-way (in 10 KiB
      # pieces here): that is why the report is also saved whole in --dir. What came out must
      # then be the copy's beginning, and the copy stands for the report.
      if [ -s "$OUT" ] && ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$OUT" 2>/dev/null; then
        local cut whole
        cut=$(stat -c %s "$OUT")
        whole=$(compgen -G "$dir/mpiwrite-interrupted-*" | head -n 1 || true)
        [ -n "$whole" ] && cmp -s -n "$cut" "$whole" "$OUT" ||
          fail "SIG$signal to $target: standard output is cut and is not the saved copy's beginning"
        cp "$whole" "$OUT"
        note "SIG$signal to $target: mpiexec forwarded $cut bytes of the report; the saved copy is whole"
      fi
      [ ! -s "$OUT" ] || report=$(python3 -c 'import json, sys
print("interrupted:", json.load(open(sys.argv[1])).get("interrupted"))' "$OUT") ;;
  esac
  note "SIG$signal to $target: exit $STATUS $after s after the signal; report: $report"
  # No -o here: a report that came out is also saved whole in --dir, and names that file.
  if [ "$report" != none ]; then
    local copy
    copy=$(compgen -G "$dir/mpiwrite-interrupted-*" | head -n 1 || true)
    [ -n "$copy" ] && cmp -s "$copy" "$OUT" || fail "SIG$signal to $target: no saved copy equal to standard output ($copy)"
    grep -qF "$copy" "$OUT" || fail "SIG$signal to $target: the report does not name its copy"
  fi
  if [ "$STATUS" -eq 130 ] || [ "$STATUS" -eq 143 ] || [ -s "$OUT" ]; then
    # The ranks finished: the report must say it was interrupted, with complete repetitions.
    [ "$report" != none ] || fail "SIG$signal to $target: exit $STATUS but no INTERRUPTED report"
    if [ "$format" = json ]; then
      python3 - "$OUT" $((100 * RANKS)) <<'PY' || fail "SIG$signal to $target: bad JSON report"
import json, sys
doc, files = json.load(open(sys.argv[1])), int(sys.argv[2])
assert doc["interrupted"] in ("SIGINT", "SIGTERM"), doc.get("interrupted")
reps = doc["points"][0]["repetitions"]
assert all(r["files"] == files for r in reps), [r["files"] for r in reps]
PY
    fi
  fi
}

note "(a) --dir removed during the run"
dir=$WORK/removed
start_bg removed -d "$dir" -n $((100 * RANKS)) --slow-rank 0 --slow-delay-us 20000
wait_for "the first files" exists "$dir/write*.txt"
sleep 0.2
while [ -e "$dir" ]; do rm -rf "$dir" 2>/dev/null || true; done
finish_bg
[ "$STATUS" -eq 1 ] || { cat "$ERR" >&2; fail "exit code $STATUS, expected 1"; }
grep -Eq "^mpiwrite: error: rank [0-9]+: $dir/write[0-9]+\.txt: [a-z]+: No such file or directory" "$ERR" ||
  fail "no message naming a path under $dir and strerror: $(cat "$ERR")"
errors=$(grep -c '^mpiwrite: error:' "$ERR" || true)
[ "$errors" -ge 1 ] && [ "$errors" -le "$RANKS" ] || fail "$errors error lines, expected 1..$RANKS"
expect_no_processes "$dir"
note "exit 1 after $ELAPSED s: $(grep '^mpiwrite: error:' "$ERR" | head -n 1)"

if ((RANKS >= 2)); then
  note "(b) one rank killed with SIGKILL"
  dir=$WORK/killed
  start_bg killed -d "$dir" -n $((100 * RANKS)) -r 2 --slow-rank 0 --slow-delay-us 20000
  wait_for "the first files" exists "$dir/.mpiwrite-*/*/write*.txt"
  victim=$(ranks_of_job | tail -n 1)
  [ -n "$victim" ] || fail "no rank found"
  t1=$(date +%s.%N)
  kill -KILL "$victim"
  finish_bg
  [ "$STATUS" -ne 0 ] || fail "exit code 0 after a rank was killed"
  expect_no_processes "$dir"
  note "exit $STATUS $(seconds_since "$t1") s after the kill"
  # Nothing could clean up after SIGKILL; the next run in the same --dir finds the scratch
  # root whose run is gone (its lock names a dead process of this host) and removes it.
  exists "$dir/.mpiwrite-*" || fail "the killed run left no scratch root: the test is too late"
  owner=$(cut -d ' ' -f 2 "$dir"/.mpiwrite-*/.lock)  # rank 0, which mpiexec may still be killing
  for ((k = 0; k < 50; k++)); do
    [ -e "/proc/$owner" ] && [ "$(awk '{print $3}' "/proc/$owner/stat" 2>/dev/null)" != Z ] || break
    sleep 0.1
  done
  start_bg after-kill -d "$dir" -n 4
  finish_bg
  [ "$STATUS" -eq 0 ] || { cat "$ERR" >&2; fail "the next run failed"; }
  grep -q "^mpiwrite: note: 1 scratch directory left by interrupted or killed runs" "$ERR" ||
    fail "the next run did not say it removes the leftover: $(cat "$ERR")"
  expect_clean "$dir"
  note "the next run removed the killed run's scratch"
fi

note "(c) SIGINT to mpiexec during the last repetition"
interrupt_case sigint-mpiexec INT mpiexec table
note "(d) SIGTERM to mpiexec during the last repetition"
interrupt_case sigterm-mpiexec TERM mpiexec json

if ((RANKS >= 2)); then
  note "(e) --timeout 2 and a stuck rank 1"
  dir=$WORK/stuck
  start_bg stuck -d "$dir" -n $((4 * RANKS)) --timeout 2 --slow-rank 1 --slow-delay-us 30000000
  finish_bg
  [ "$STATUS" -ne 0 ] || fail "exit code 0 with a stuck rank"
  awk -v e="$ELAPSED" 'BEGIN { exit !(e <= 25) }' || fail "the job took $ELAPSED s to end"
  grep -Eq '^mpiwrite: error: rank 1 .*--timeout 2' "$ERR" ||
    fail "no line naming rank 1 and --timeout: $(cat "$ERR")"
  # A rank waiting for rank 1 may give up too before the abort reaches it: one line per rank
  # at most (docs/metrics.md, Watchdog).
  lines=$(grep -c 'has not finished' "$ERR" || true)
  ((lines >= 1 && lines <= RANKS)) || fail "expected 1 to $RANKS watchdog lines: $(cat "$ERR")"
  [ ! -s "$OUT" ] || fail "an aborted run printed a report"
  expect_no_processes "$dir"
  note "exit $STATUS after $ELAPSED s: $(grep '^mpiwrite: error:' "$ERR")"
fi

note "(f) --verify on a normal run"
n=$((50 * RANKS))
start_bg verify -d "$WORK/verified" -n "$n" -l 3 -r 2 -t 2 --verify --format json
finish_bg
[ "$STATUS" -eq 0 ] || { cat "$ERR" >&2; fail "exit code $STATUS, expected 0"; }
expect_files "$WORK/verified" "$n" 3 "Hello, world!"
python3 - "$OUT" "$n" "$RANKS" <<'PY' || fail "the verify figures are wrong"
import json, sys
doc, files, ranks = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
reps = doc["points"][0]["repetitions"]
assert len(reps) == 2, len(reps)
for rep in reps:
    v = rep["verify"]
    assert v["files_checked"] == files and v["mismatches"] == 0, v
    assert v["elapsed_s"] > 0, v
rss = doc["context"]["peak_rss_kib"]
assert len(rss) == ranks and all(isinstance(x, int) and x > 0 for x in rss), rss
print(f"-- verify: {[r['verify'] for r in reps]}; peak_rss_kib {rss}")
PY

if ((RANKS >= 2)); then
  note "(g) SIGTERM to every rank during the last repetition (as a batch system does)"
  interrupt_case sigterm-ranks TERM ranks json

  # Rank 1 is slow, so rank 0's write1.txt is done long before the verify phase starts. The
  # two runs side by side (each mostly waits on rank 1's 2 s of writes): the second's write1.txt
  # is damaged a moment after the first's, long before either verifies.
  declare -A bg_of t0_of
  for damage in truncated changed; do
    start_bg "$damage" -d "$WORK/$damage" -n $((20 * RANKS)) --verify --slow-rank 1 \
      --slow-delay-us 100000
    bg_of[$damage]=$BG t0_of[$damage]=$T0
  done
  for damage in truncated changed; do
    dir=$WORK/$damage BG=${bg_of[$damage]} ERR=$WORK/$damage.err
    wait_for "write1.txt" size_is "$dir/write1.txt" "$SIZE"
    if [ "$damage" = truncated ]; then
      : >"$dir/write1.txt"
    else
      printf 'J' | dd of="$dir/write1.txt" bs=1 seek=700 conv=notrunc status=none
    fi
  done
  for damage in truncated changed; do
    if [ "$damage" = truncated ]; then note "(h) --verify finds a truncated file"; else
      note "(i) --verify finds a changed byte"; fi
    dir=$WORK/$damage BG=${bg_of[$damage]} T0=${t0_of[$damage]} ERR=$WORK/$damage.err
    finish_bg
    [ "$STATUS" -eq 1 ] || { cat "$ERR" >&2; fail "exit code $STATUS, expected 1"; }
    grep -q "^mpiwrite: error: rank [0-9]*: .*$dir/write1\.txt" "$ERR" ||
      fail "no message naming $dir/write1.txt: $(cat "$ERR")"
    [ "$(grep -c '^mpiwrite: error:' "$ERR")" -eq 1 ] || fail "expected one line: $(cat "$ERR")"
    expect_no_processes "$dir"
    note "$(grep '^mpiwrite: error:' "$ERR")"
  done
fi
echo "PASS"
