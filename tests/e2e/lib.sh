# Shared helpers for the end-to-end tests: the real mpiwrite binary under real mpiexec.
# Environment (set by CTest): MPIWRITE = the binary, MPIEXEC = mpiexec with its flags, and
# optionally MPIWRITE_ARGS = options added to every run (e.g. "--engine uring -q 8", to run a
# script's checks against another engine).
set -euo pipefail

: "${MPIWRITE:?set MPIWRITE to the mpiwrite binary}"
: "${MPIEXEC:=mpiexec --oversubscribe}"
RANKS=${1:-1}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mpiwrite-e2e-XXXXXX")
cleanup_work() { rm -rf "$WORK"; }
trap cleanup_work EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# Whether this mpiwrite has the uring engine (CTest sets MPIWRITE_URING_BUILT from the build's
# MPIWRITE_WITH_URING; by hand it is assumed). A case that needs it says SKIP when not.
uring_built() { [ "${MPIWRITE_URING_BUILT:-1}" != 0 ]; }
skip_uring_case() { echo "SKIP (this case only): built without io_uring: $*"; }
note() { echo "-- $*"; }

# mpiwrite under mpiexec with RANKS ranks; a hang is a failure, not a stuck CI job.
# Sets STATUS, and leaves stdout/stderr in $WORK/out and $WORK/err.
run_mpiwrite() {
  set +e
  # shellcheck disable=SC2086  # MPIEXEC holds the launcher and its flags
  timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" "$@" ${MPIWRITE_ARGS:-} \
    >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || fail "mpiwrite hung: $*"
}

expect_status() {
  [ "$STATUS" -eq "$1" ] || { cat "$WORK/err" >&2; fail "exit code $STATUS, expected $1"; }
}

# Exactly files PREFIX1SUFFIX .. PREFIX<n>SUFFIX in DIR and nothing else, each with the
# content LINES lines of TEXT.
expect_files() {
  local dir=$1 n=$2 lines=$3 text=$4 prefix=${5:-write} suffix=${6:-.txt}
  local expected="$WORK/expected" i
  : >"$expected"
  for ((i = 0; i < lines; i++)); do printf '%s\n' "$text" >>"$expected"; done
  local count
  count=$(find "$dir" -mindepth 1 -maxdepth 1 | wc -l)
  [ "$count" -eq "$n" ] || fail "$dir holds $count entries, expected $n"
  # One md5sum over all of them (xargs splits a long list), not a cmp per file: a process per
  # file cost ~40 ms each on a loaded 2-core machine, 8 s for 200 files.
  local want bad
  want=$(md5sum <"$expected")
  want=${want%% *}
  bad=$(for ((i = 1; i <= n; i++)); do printf '%s\0' "$dir/$prefix$i$suffix"; done |
    xargs -0 md5sum -- 2>&1 | awk -v want="$want" '$1 != want { print; exit }' || true)
  [ -z "$bad" ] || fail "a file is missing or wrong: $bad"
}

# no_kill_grace: after a run that fails (exit 1 or 2), every rank having exited, Open MPI's
# mpirun still waits odls_base_sigkill_timeout (1 s) twice before it exits: about 1 s a failing
# launch that tests nothing of mpiwrite's (errors_table.sh: 1.6 s -> 0.6 s a launch). Not for
# a case that signals a run: mpirun's grace between SIGTERM and SIGKILL is part of what those
# check (kill_grace puts the default back).
no_kill_grace() { export OMPI_MCA_odls_base_sigkill_timeout=0; }
kill_grace() { unset OMPI_MCA_odls_base_sigkill_timeout; }

# The number of lines of stderr that carry an mpiwrite error.
error_lines() { grep -c '^mpiwrite: error:' "$WORK/err" || true; }

# start_bg NAME ARGS...: mpiwrite under mpiexec in the background, killed after LIMIT s
# (default 60). Sets BG (the pid of
# timeout), MPIRUN_PID, OUT, ERR (standard output and error), T0.
start_bg() {
  local name=$1 k
  shift
  OUT=$WORK/$name.out ERR=$WORK/$name.err
  # shellcheck disable=SC2086  # MPIEXEC holds the launcher and its flags
  timeout --kill-after=10 "${LIMIT:-60}" $MPIEXEC -n "$RANKS" "$MPIWRITE" "$@" >"$OUT" 2>"$ERR" &
  BG=$!
  T0=$(date +%s.%N)
  MPIRUN_PID=''
  for ((k = 0; k < 500; k++)); do
    MPIRUN_PID=$(pgrep -P "$BG" | head -n 1 || true)
    [ -z "$MPIRUN_PID" ] || break
    sleep 0.01
  done
  [ -n "$MPIRUN_PID" ] || fail "mpiexec did not start"
}
