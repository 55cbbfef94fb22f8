# End to end: --timeout bounds the whole job, whatever stops (issue 21 §2, docs/metrics.md
# "Watchdog"). Each case runs with --timeout 2 and must end within the timeout and a margin,
# exit 124 (MPI_Abort's code), with a line naming the step and, for a rank that waited, the
# ranks it waited for; no process may be left (a SIGSTOPped rank included).
#   (a) the last rank frozen by SIGSTOP during the write phases (its own watchdog freezes
#       with it): rank 0 gives up at the boundary after the write phase, naming that rank;
#   (b) rank 0 frozen the same way: the other ranks give up, naming rank 0;
#   (c) the last rank's layout mkdirat delayed 45 s (untimed, before the write phase): that
#       rank names "creating layout directories"; the others, if they speak, name it;
#   (d) rank 0's removal of the scratch root (unlinkat AT_REMOVEDIR) delayed 45 s (untimed);
#   (e) a run of many short steps, longer in all than --timeout: the watchdog must not fire;
#   (f) the last rank frozen inside its (strace-held) layout mkdirat: rank 0 gives up in the
#       agreement after the layout directories, naming it;
#   (g) rank 0's rename of the -o report into place delayed 45 s: "writing the report";
#   (h) the last rank's open of /proc/sys/kernel/random/boot_id delayed 45 s: rank 0 gives up
#       in "the clock exchange" (a gather: it names the ranks of which one is late);
#   (i) the last rank's statx in the stat phase of --phases write,stat delayed 45 s: the
#       stat phase, a watched step as the write phase is, is named.
# Each freeze or delay would make the job hang (or run to the end with exit 0) without it:
# every run is under `timeout` LIMIT, and reaching LIMIT is a failure.
# Usage: watchdog.sh RANKS (RANKS >= 2); WATCHDOG_CASES=REGEX runs only the matching letters.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

((RANKS >= 2)) || { echo "watchdog.sh needs 2 ranks or more"; exit 77; }
command -v strace >/dev/null || { echo "no strace"; exit 77; }

# A delay (strace) lasts longer than the widest bound, --timeout + 2 x MARGIN, so that only the
# watchdog can end the case in time; LIMIT, past the delay, is a hang. All three are reached
# only when the case fails: a passing job ends in seconds (mpiexec kills the delayed rank).
# MARGIN: seconds past --timeout a 2-core machine may need to end the job with ctest running 2
# tests a core beside it (tools/test.sh); 19.5 s for (c), the widest, at load 25.
LIMIT=60
MARGIN=15
DELAY_US=45000000
LAST=$((RANKS - 1))
REAL_MPIWRITE=$MPIWRITE

wanted() { [[ $1 =~ ${WATCHDOG_CASES:-.} ]]; }
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# The pid of world rank RANK of the job started by start_bg (mpiexec's children, one host).
pid_of_rank() {
  local want=$1 pid k
  for ((k = 0; k < 500; k++)); do
    for pid in $(pgrep -P "$MPIRUN_PID" || true); do
      # The wrapper (strace) has the rank as its child: look one level down too.
      for p in "$pid" $(pgrep -P "$pid" || true); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$want" &&
          [ "$(readlink "/proc/$p/exe")" = "$(readlink -f "$REAL_MPIWRITE")" ]; then
          echo "$p"
          return 0
        fi
      done
    done
    sleep 0.02
  done
  fail "rank $want not found among mpiexec's children"
}

# finish: waits for the run; sets STATUS and AFTER (seconds since FROM).
finish() {
  local from=$1
  set +e
  wait "$BG"
  STATUS=$?
  set -e
  AFTER=$(seconds_since "$from")
  awk -v e="$(seconds_since "$T0")" -v l="$LIMIT" 'BEGIN { exit !(e < l - 1) }' ||
    { cat "$ERR" >&2; fail "$CASE: the job hung until timeout killed it ($STATUS)"; }
}

# No process of the run left; a stopped one is continued and killed (and the test fails).
expect_no_processes() {
  local marker=$1 k left=''
  for ((k = 0; k <= 50; k++)); do
    left=$(pgrep -f -- "$marker" || true)
    [ -n "$left" ] || return 0
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -CONT $left 2>/dev/null || true
  # shellcheck disable=SC2086
  kill -KILL $left 2>/dev/null || true
  fail "$CASE: processes left 5 s after mpiexec exited: $(ps -o pid,stat,args -p "${left//$'\n'/,}" || true)"
}

# expect_timeout WITHIN PATTERN...: exit 124 within WITHIN s of the cause, every line of the
# watchdog one line per rank at most, and a line matching each PATTERN (extended regex).
expect_timeout() {
  local within=$1
  shift
  [ "$STATUS" -eq 124 ] || { cat "$ERR" >&2; fail "$CASE: exit $STATUS, expected 124"; }
  awk -v e="$AFTER" -v w="$within" 'BEGIN { exit !(e <= w) }' ||
    fail "$CASE: the job took $AFTER s to end (at most $within expected)"
  local lines
  lines=$(grep -c 'has not finished after 2 s (--timeout 2)' "$ERR" || true)
  ((lines >= 1 && lines <= RANKS)) || fail "$CASE: $lines watchdog lines: $(cat "$ERR")"
  for pattern in "$@"; do
    grep -Eq -- "$pattern" "$ERR" || fail "$CASE: no line matching '$pattern': $(cat "$ERR")"
  done
  [ ! -s "$OUT" ] || fail "$CASE: an aborted run printed a report"
  note "$CASE: exit $STATUS $AFTER s after the cause: $(grep 'has not finished' "$ERR" | tr '\n' '|')"
}

# A freeze: RANK is SIGSTOPped once the write phases are under way (the first files exist).
freeze_case() {
  local rank=$1 dir=$WORK/$2 pid t1
  CASE="SIGSTOP to rank $rank"
  # Write phases of ~0.3 s (rank 1 sleeps 10 ms per file), many repetitions: the job is far
  # longer than --timeout, each step shorter.
  start_bg "freeze$rank" -d "$dir" -n $((30 * RANKS)) -r 200 --timeout 2 --slow-rank 1 \
    --slow-delay-us 10000 --format json
  pid=$(pid_of_rank "$rank")
  for ((k = 0; k < 1500; k++)); do
    compgen -G "$dir/.mpiwrite-*/*/write*" >/dev/null && break
    sleep 0.02
  done
  sleep 0.5
  t1=$(date +%s.%N)
  kill -STOP "$pid"
  finish "$t1"
  shift 2
  expect_timeout $((2 + MARGIN)) "$@"
  expect_no_processes "$dir"
}

wanted a && note "(a) the last rank frozen during the write phases" && freeze_case "$LAST" frozen-last \
  "^mpiwrite: error: rank 0 \(.*\): the .* has not finished after 2 s \(--timeout 2\); waited (for|in a collective for one of) ranks? ([0-9]+, )*$LAST(, [0-9]+)*; aborting the job$"

wanted b && note "(b) rank 0 frozen during the write phases" && freeze_case 0 frozen-root \
  "^mpiwrite: error: rank [1-9][0-9]* \(.*\): the .* has not finished after 2 s \(--timeout 2\); waited (for rank 0|in a collective for one of ranks 0(, [0-9]+)*); aborting the job$"

# A wrapper that runs rank TARGET under strace, delaying every SYSCALL by DELAY_US (only those
# on PATH, when given: strace -P).
strace_wrapper() {
  local target=$1 syscall=$2 delay_us=$3 path=${4:-} wrapper=$WORK/wrap-$2.sh
  cat >"$wrapper" <<WRAP
#!/bin/bash
if [ "\${OMPI_COMM_WORLD_RANK:-}" = "$target" ]; then
  exec strace -f -qq -o /dev/null ${path:+-P $path} -e trace=$syscall \\
    -e inject=$syscall:delay_enter=$delay_us "$REAL_MPIWRITE" "\$@"
fi
exec "$REAL_MPIWRITE" "\$@"
WRAP
  chmod +x "$wrapper"
  echo "$wrapper"
}

if wanted c; then
note "(c) the last rank's layout mkdirat delayed 45 s"
CASE="mkdirat delayed"
dir=$WORK/mkdirat
MPIWRITE=$(strace_wrapper "$LAST" mkdirat "$DELAY_US")
start_bg mkdirat -d "$dir" -n $((8 * RANKS)) --files-per-dir 4 --timeout 2 --format json
MPIWRITE=$REAL_MPIWRITE
finish "$T0"
# From the start: mpiexec's start-up counts too, so a wider margin.
# The delayed rank names its step, or (if its watchdog comes second) rank 0 names it.
expect_timeout $((2 + 2 * MARGIN)) \
  "^mpiwrite: error: rank ($LAST \(.*\): creating layout directories of [^ ]+ rep 1 has not finished after 2 s \(--timeout 2\)|0 \(.*\): the agreement after creating layout directories of [^ ]+ rep 1 has not finished after 2 s \(--timeout 2\); waited for ranks? ([0-9]+, )*$LAST(, [0-9]+)*); aborting the job$"
! grep 'has not finished' "$ERR" | grep -v "^mpiwrite: error: rank $LAST " | grep -vq "; waited " ||
  fail "$CASE: a rank that waited did not say for whom: $(cat "$ERR")"
expect_no_processes "$dir"
fi

if wanted d; then
note "(d) rank 0's removal of the scratch root delayed 45 s"
CASE="rmdir delayed"
dir=$WORK/rmdir
# The scratch root goes by unlinkat(AT_REMOVEDIR) in the held --dir: -P --dir matches that
# descriptor (strace -P follows a dirfd), not the files, which go through their own directories.
MPIWRITE=$(strace_wrapper 0 unlinkat "$DELAY_US" "$dir")
start_bg rmdir -d "$dir" -n $((4 * RANKS)) -r 2 --timeout 2 --format json
MPIWRITE=$REAL_MPIWRITE
finish "$T0"
expect_timeout $((2 + 2 * MARGIN)) \
  "^mpiwrite: error: rank 0 \(.*\): removing the scratch directories has not finished after 2 s \(--timeout 2\); aborting the job$"
expect_no_processes "$dir"
fi

if wanted f; then
note "(f) the last rank frozen by SIGSTOP inside an untimed step (its layout mkdirat)"
CASE="SIGSTOP in mkdirat"
dir=$WORK/frozen-mkdirat
# The mkdirat is held 1.5 s (less than --timeout): the freeze comes while it is, found in
# /proc/PID/syscall (258: mkdirat on x86_64), so the rank is stopped inside the untimed step.
[ "$(uname -m)" = x86_64 ] || { note "not x86_64: (f) skipped"; }
if [ "$(uname -m)" = x86_64 ]; then
  MPIWRITE=$(strace_wrapper "$LAST" mkdirat 1500000)
  start_bg frozen-mkdirat -d "$dir" -n $((8 * RANKS)) --files-per-dir 4 --timeout 2 \
    --format json
  MPIWRITE=$REAL_MPIWRITE
  pid=$(pid_of_rank "$LAST")
  for ((k = 0; k < 1500; k++)); do
    grep -q '^258 ' "/proc/$pid/syscall" 2>/dev/null && break
    sleep 0.01
  done
  grep -q '^258 ' "/proc/$pid/syscall" 2>/dev/null || fail "$CASE: rank $LAST never in mkdirat"
  t1=$(date +%s.%N)
  kill -STOP "$pid"
  finish "$t1"
  expect_timeout $((2 + MARGIN)) \
    "^mpiwrite: error: rank 0 \(.*\): the agreement after creating layout directories of [^ ]+ rep 1 has not finished after 2 s \(--timeout 2\); waited for ranks? ([0-9]+, )*$LAST(, [0-9]+)*; aborting the job$"
  expect_no_processes "$dir"
fi
fi

if wanted g; then
note "(g) rank 0's rename of the -o report into place delayed 45 s"
CASE="report delayed"
dir=$WORK/report
MPIWRITE=$(strace_wrapper 0 renameat "$DELAY_US")  # in -o's held directory
start_bg report -d "$dir" -n $((4 * RANKS)) --timeout 2 --format json -o "$WORK/report.json"
MPIWRITE=$REAL_MPIWRITE
finish "$T0"
expect_timeout $((2 + 2 * MARGIN)) \
  "^mpiwrite: error: rank 0 \(.*\): writing the report has not finished after 2 s \(--timeout 2\); aborting the job$"
[ ! -e "$WORK/report.json" ] || fail "$CASE: the report was renamed into place"
expect_no_processes "$dir"
fi

if wanted h; then
note "(h) the last rank's read of the kernel's boot id (the clock exchange) delayed 45 s"
CASE="clock exchange delayed"
dir=$WORK/clocks
MPIWRITE=$(strace_wrapper "$LAST" openat "$DELAY_US" /proc/sys/kernel/random/boot_id)
start_bg clocks -d "$dir" -n $((4 * RANKS)) --timeout 2 --format json
MPIWRITE=$REAL_MPIWRITE
finish "$T0"
expect_timeout $((2 + 2 * MARGIN)) \
  "^mpiwrite: error: rank ($LAST \(.*\): the clock exchange has not finished after 2 s \(--timeout 2\)|0 \(.*\): the clock exchange has not finished after 2 s \(--timeout 2\); waited in a collective for one of ranks ([0-9]+, )*$LAST); aborting the job$"
expect_no_processes "$dir"
fi

if wanted i; then
note "(i) the last rank's statx in the stat phase (--phases write,stat) delayed 45 s"
CASE="stat phase delayed"
dir=$WORK/statphase
# Every statx on --dir (-P: the stat phase's go through its descriptor) on the last rank.
MPIWRITE=$(strace_wrapper "$LAST" statx "$DELAY_US" "$dir")
mkdir -p "$dir"
start_bg statphase -d "$dir" -n $((4 * RANKS)) --phases write,stat --timeout 2 --format json
MPIWRITE=$REAL_MPIWRITE
finish "$T0"
expect_timeout $((2 + 2 * MARGIN)) \
  "^mpiwrite: error: rank ($LAST \(.*\): (the )?stat phase of [^ ]+ rep 1 has not finished after 2 s \(--timeout 2\)|[0-9]+ \(.*\): .*stat phase of [^ ]+ rep 1 has not finished after 2 s \(--timeout 2\); waited .*$LAST.*); aborting the job$"
expect_no_processes "$dir"
fi

if wanted e; then
note "(e) many steps, each shorter than --timeout: no watchdog"
CASE="no timeout"
dir=$WORK/quiet
t1=$(date +%s.%N)
# The slow rank sleeps 10 ms a file: 20 files make each write phase about 0.2 s (1.8 s under
# --timeout: 0.6 s steps fired it at load 25), and 13 of them (12 repetitions, 1 warm-up) at
# least 2.6 s in all, on any machine (sleeps are a floor).
start_bg quiet -d "$dir" -n $((20 * RANKS)) -r 12 --warmup 1 --timeout 2 --slow-rank 1 \
  --slow-delay-us 10000 --files-per-dir 10 --verify --cleanup --format json
finish "$t1"
[ "$STATUS" -eq 0 ] || { cat "$ERR" >&2; fail "$CASE: exit $STATUS, expected 0"; }
! grep -q 'has not finished' "$ERR" || fail "$CASE: the watchdog fired: $(cat "$ERR")"
awk -v e="$AFTER" 'BEGIN { exit !(e > 2.5) }' ||
  fail "$CASE: the job took only $AFTER s: not longer than --timeout, the case proves nothing"
note "$CASE: exit 0 after $AFTER s"
fi
echo "PASS"
