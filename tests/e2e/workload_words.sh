#!/usr/bin/env bash
# mdtest's workload words end to end (docs/metrics.md, "Workload"): --files-per-rank 5 makes
# 5 x ranks files, named 1..5 x ranks; --file-size 0 makes empty files without a single
# write() on them (strace); --file-size 10000 --write-size 4096 writes each file in three
# write() calls of 4096, 4096 and 1808 bytes (strace) with the line's bytes cut at 10000, and
# --verify agrees; the uring engine writes the same bytes, the null engine nothing. One
# launch per engine and size, at 1 and 4 ranks (the uring engine's empty files:
# tests/unit/engines_test.cpp, EngineSizes).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

FILES=$((5 * RANKS))

# The content of every file of SIZE bytes: the default line repeated and cut there.
expected_file() {
  yes 'Hello, world!' | head -c "$1" >"$WORK/expected-$1" || true
  echo "$WORK/expected-$1"
}

# Exactly write1.txt .. write$FILES.txt in DIR, each SIZE bytes of the cut line.
expect_sized_files() {
  local dir=$1 size=$2 want bad count
  count=$(find "$dir" -mindepth 1 -maxdepth 1 | wc -l)
  [ "$count" -eq "$FILES" ] || fail "$dir holds $count entries, expected $FILES"
  want=$(md5sum <"$(expected_file "$size")")
  want=${want%% *}
  bad=$(for ((i = 1; i <= FILES; i++)); do printf '%s\0' "$dir/write$i.txt"; done |
    xargs -0 md5sum -- 2>&1 | awk -v want="$want" '$1 != want { print; exit }' || true)
  [ -z "$bad" ] || fail "a file of $dir is missing or not $size bytes of the line: $bad"
}

# mpiwrite with RANKS ranks (one: the binary alone, an MPI singleton, 2 s faster a run on a
# loaded machine, as errors_table.sh); with TRACE=NAME each rank under strace (every thread's
# calls, descriptors named by path), the traces in $WORK/trace-NAME.*. Sets STATUS; output in
# $WORK/out and $WORK/err.
run_words() {
  local command=("$MPIWRITE")
  if [ -n "${TRACE:-}" ]; then
    command=(strace --seccomp-bpf -f -ff -qq -y -e trace=openat,write,pwrite64,writev
      -o "$WORK/trace-$TRACE" "$MPIWRITE")
  fi
  # shellcheck disable=SC2206  # MPIEXEC holds the launcher and its flags
  [ "$RANKS" -eq 1 ] || command=($MPIEXEC -n "$RANKS" "${command[@]}")
  set +e
  timeout --kill-after=10 120 "${command[@]}" "$@" >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || fail "mpiwrite hung: $*"
}

# The traced calls of run NAME on the files of DIR (their descriptors are named by path).
calls_on_files() { cat "$WORK/trace-$1".* | grep -E "<$2/write[0-9]+\.txt>" || true; }
# Of those, the creating opens, and the write calls as "CALL BYTES".
creates() { calls_on_files "$@" | grep -c '^openat(.*O_CREAT' || true; }
writes() {
  calls_on_files "$@" | grep -E '^(write|pwrite64|writev)\(' |
    sed -E 's/^([a-z0-9]+)\(.* = (-?[0-9]+).*$/\1 \2/' || true
}

note "posix: --files-per-rank 5 --file-size 0: empty files, opened once each, no write()"
TRACE=empty run_words -d "$WORK/empty" --files-per-rank 5 --file-size 0 --verify
expect_status 0
expect_sized_files "$WORK/empty" 0
opens=$(creates empty "$WORK/empty")
[ "$opens" -eq "$FILES" ] || fail "strace saw $opens creating opens of the files, expected $FILES"
[ -z "$(writes empty "$WORK/empty")" ] || fail "write calls on empty files: $(writes empty "$WORK/empty")"
grep -q "$FILES files (5 per rank x $RANKS rank" "$WORK/out" ||
  fail "the workload line does not say the files per rank: $(cat "$WORK/out")"
grep -q "of 0 B (no write)" "$WORK/out" || fail "the workload line does not say no write"

note "posix: --file-size 10000 --write-size 4096: 3 write() calls per file, --verify passes"
TRACE=pieces run_words -d "$WORK/pieces" --files-per-rank 5 --file-size 10000 --write-size 4096 \
  --verify --format json
expect_status 0
expect_sized_files "$WORK/pieces" 10000
writes pieces "$WORK/pieces" | sort | uniq -c >"$WORK/pieces-calls"
[ "$(cat "$WORK/pieces-calls" | tr -s ' ')" = "$(printf ' %d write 1808\n %d write 4096\n' \
  "$FILES" $((2 * FILES)))" ] || fail "expected $FILES x (2 x 4096 + 1808) writes: $(cat "$WORK/pieces-calls")"
python3 - "$WORK/out" "$FILES" <<'PY' || fail "the JSON report: $(head -c 2000 "$WORK/out")"
import json, sys
report, files = json.load(open(sys.argv[1])), int(sys.argv[2])
c = report["config"]
want = {"files": files, "files_per_rank": 5, "file_size": 10000, "write_size": 4096,
        "file_size_bytes": 10000, "write_size_bytes": 4096}
assert all(c[k] == v for k, v in want.items()), {k: c[k] for k in want}
rep = report["points"][0]["repetitions"][0]
assert rep["files"] == files and rep["bytes"] == files * 10000, rep
assert rep["verify"]["files_checked"] == files and rep["verify"]["mismatches"] == 0, rep["verify"]
assert rep["operations_us"]["writes"]["count"] == files, rep["operations_us"]
PY

note "null: the same workload leaves nothing on disk and reports the bytes it would write"
run_words -d "$WORK/null" --engine null --files-per-rank 5 --file-size 10000 --write-size 4096
expect_status 0
[ -z "$(find "$WORK/null" -mindepth 1 2>/dev/null)" ] || fail "the null engine left files"
grep -q "$FILES files (5 per rank x $RANKS rank.*) of 10000 B (3 writes of 4096 B, the last 1808 B)" \
  "$WORK/out" || fail "the workload line: $(cat "$WORK/out")"

note "uring: the same pieces through io_uring, 4 files in flight, --verify passes"
run_words -d "$WORK/uring" --engine uring -q 4 --files-per-rank 5 --file-size 10000 \
  --write-size 4096 --verify
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
  echo "SKIP (uring part only): io_uring is not usable here: $(cat "$WORK/err")"
else
  expect_status 0
  expect_sized_files "$WORK/uring" 10000
fi
echo "PASS"
