#!/usr/bin/env bash
# Nothing clobbered (docs/errors.md, "What mpiwrite removes and overwrites"): whatever kind of
# run, whichever way it ends, mpiwrite removes only files this run created and never writes
# through a name planted in --dir. The user's files are planted before and during runs, and
# checked byte for byte afterwards; the count the report gives as removed must be the count the
# run created. Cases that race a running job plant a name that rank 0 (slowed down) has not
# reached yet. Runs with the engine of MPIWRITE_ARGS too (CTest: posix and uring).
# Usage: clobber.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# plant_user_files DIR: the user's own files, among them names a 3-file run would create.
plant_user_files() {
  mkdir -p "$1"
  local i
  for i in 1 2 3; do echo "user file $i" >"$1/write$i.txt"; done
  echo "notes" >"$1/notes.txt"
  echo "beyond --files" >"$1/write999.txt"
}
expect_user_files() {
  local i
  for i in 1 2 3; do
    [ "$(cat "$1/write$i.txt" 2>/dev/null)" = "user file $i" ] || fail "$1/write$i.txt was changed or removed"
  done
  [ "$(cat "$1/notes.txt")" = notes ] && [ "$(cat "$1/write999.txt")" = "beyond --files" ] ||
    fail "a foreign file in $1 was changed"
  [ -z "$(find "$1" -mindepth 1 -maxdepth 1 -name '.mpiwrite-*')" ] || fail "scratch left in $1"
}
# removed_equals_created JSON: cleanup.files_removed = every file the timed and warm-up steps
# wrote (warm-ups: WARMUPS rounds of every point, each `files` files).
removed_equals_created() {
  python3 - "$1" "${2:-0}" <<'PY' || fail "removed count differs from created: $(cat "$1")"
import json, sys
doc, warmups = json.load(open(sys.argv[1])), int(sys.argv[2])
files = doc["config"]["files"]
created = sum(r["files"] for p in doc["points"] for r in p["repetitions"])
created += warmups * len(doc["points"]) * files
removed = doc["cleanup"]["files_removed"]
assert doc["cleanup"]["ran"] and removed == created, (removed, created)
print(f"-- removed {removed} = created {created}")
PY
}

# --compare sets the queue depths itself: the engine of MPIWRITE_ARGS without its depth.
compare_args=${MPIWRITE_ARGS:-}
compare_args=${compare_args/--queue-depth 8/}
note "--compare --cleanup in a directory holding the user's write1..3.txt"
plant_user_files "$WORK/cmp"
MPIWRITE_ARGS=$compare_args run_mpiwrite -d "$WORK/cmp" -n 3 -l 2 --compare -r 2 --cleanup --format json
expect_status 0
expect_user_files "$WORK/cmp"
removed_equals_created "$WORK/out"

note "--sweep-threads --cleanup with 1 warm-up, the same directory"
run_mpiwrite -d "$WORK/cmp" -n 3 -l 2 --sweep-threads 1,2 -r 2 --warmup 1 --cleanup --format json
expect_status 0
expect_user_files "$WORK/cmp"
removed_equals_created "$WORK/out" 1

note "--partition dynamic --compare --cleanup"
MPIWRITE_ARGS=$compare_args run_mpiwrite -d "$WORK/cmp" -n 3 -l 2 --compare --partition dynamic --chunk 1 --cleanup --format json
expect_status 0
expect_user_files "$WORK/cmp"
removed_equals_created "$WORK/out"

note "a plain run with repetitions and --cleanup beside foreign files"
mkdir "$WORK/plain"
echo notes >"$WORK/plain/notes.txt"
echo "beyond --files" >"$WORK/plain/write999.txt"
run_mpiwrite -d "$WORK/plain" -n $((5 * RANKS)) -r 3 --warmup 1 --cleanup --format json
expect_status 0
removed_equals_created "$WORK/out" 1
[ "$(find "$WORK/plain" -mindepth 1 | wc -l)" -eq 2 ] || fail "left: $(ls -A "$WORK/plain")"
[ "$(cat "$WORK/plain/write999.txt")" = "beyond --files" ] || fail "write999.txt changed"

# Rank 0's share of the files and its delay per file. The posix engine writes one file at a
# time, so 16 files at 25 ms leave 0.4 s to plant a name; the uring engine has 8 in flight, so
# it keeps 40 files at 50 ms.
if [[ "${MPIWRITE_ARGS:-}" == *uring* ]]; then last=40 slow_us=50000; else last=16 slow_us=25000; fi
# Every slowed case ends in an I/O failure (exit 1), after which Open MPI's mpirun waits
# odls_base_sigkill_timeout (1 s) twice before it exits, even when every rank has exited: 2 s
# per case that test nothing of mpiwrite's (its ranks leave MPI_Finalize together, after rank
# 0 has reported). The interrupt tests keep the default, which they measure.
export OMPI_MCA_odls_base_sigkill_timeout=0
# start_slow NAME ARGS...: a run whose rank 0 sleeps SLOW_US (default slow_us) before each
# close, in the background.
start_slow() {
  local name=$1
  shift
  set +e
  # shellcheck disable=SC2086
  timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" "$@" --slow-rank 0 \
    --slow-delay-us "${SLOW_US:-$slow_us}" ${MPIWRITE_ARGS:-} >"$WORK/$name.out" 2>"$WORK/$name.err" &
  BG=$!
  set -e
}
finish_slow() {
  set +e
  wait "$BG"
  STATUS=$?
  set -e
  cp "$WORK/$1.err" "$WORK/err"
}
wait_for_file() {
  local k
  for ((k = 0; k < 3000; k++)); do
    [ -e "$1" ] && return 0
    sleep 0.01
  done
  fail "waited 30 s for $1"
}

# Rank 0 writes files 1..last (block partition), slowly: write<last>.txt is planted while it
# is still on the first ones.
n=$((last * RANKS))
note "a name planted in --dir during the run, with --cleanup: the run fails, the file stays"
mkdir "$WORK/race"
start_slow race -d "$WORK/race" -n "$n" -l 2 --cleanup
wait_for_file "$WORK/race/write1.txt"
echo "planted" >"$WORK/race/write$last.txt"
finish_slow race
expect_status 1
grep -q "$WORK/race/write$last.txt: open: File exists" "$WORK/err" || fail "no EEXIST message: $(cat "$WORK/err")"
[ "$(cat "$WORK/race/write$last.txt")" = planted ] || fail "the planted file was removed or changed"
[ "$(find "$WORK/race" -mindepth 1 | wc -l)" -eq 1 ] || fail "the run's files were left: $(ls -A "$WORK/race" | head)"

note "a name planted in a scratch directory during a repetition: the file stays"
mkdir "$WORK/scratchrace"
start_slow scratchrace -d "$WORK/scratchrace" -n "$n" -l 2 -r 2
for ((k = 0; k < 3000; k++)); do
  compgen -G "$WORK/scratchrace/.mpiwrite-*/r1/write1.txt" >/dev/null && break
  sleep 0.01
done
step=$(compgen -G "$WORK/scratchrace/.mpiwrite-*/r1" | head -n 1)
[ -n "$step" ] || fail "no scratch directory appeared"
echo "planted" >"$step/write$last.txt"
finish_slow scratchrace
expect_status 1
[ "$(cat "$step/write$last.txt" 2>/dev/null)" = planted ] || fail "the planted scratch file was removed"
[ "$(find "$step" -mindepth 1 | wc -l)" -eq 1 ] || fail "the run's scratch files were left"
rm -rf "$WORK/scratchrace"

note "a foreign file in a finished scratch directory: the removal fails, the report is still printed"
mkdir "$WORK/foreign"
start_slow foreign -d "$WORK/foreign" -n "$n" -l 2 -r 2 --format json -o "$WORK/foreign.json"
wait_for_file "$WORK/foreign/write1.txt"  # the second repetition: the first one's scratch is done
step=$(compgen -G "$WORK/foreign/.mpiwrite-*/r1" | head -n 1)
echo "mine" >"$step/zz.txt"
finish_slow foreign
expect_status 1
grep -q "$step: remove directory: Directory not empty" "$WORK/err" || fail "no removal error: $(cat "$WORK/err")"
python3 - "$WORK/foreign.out" "$WORK/foreign.json" <<'PYCHECK' || fail "the report was lost: $(head -c 300 "$WORK/foreign.out")"
import json, sys
for path in sys.argv[1:]:
    doc = json.load(open(path))
    assert len(doc["points"][0]["repetitions"]) == 2 and doc["cleanup"]["failed"] is True, path
PYCHECK
[ "$(cat "$step/zz.txt")" = mine ] || fail "the foreign file was removed"
[ "$(find "$step" -mindepth 1 | wc -l)" -eq 1 ] || fail "the run's scratch files were left"
rm -rf "$WORK/foreign"

note "--overwrite and a symbolic link planted during the run: refused, the target untouched"
mkdir "$WORK/link"
echo "outside --dir" >"$WORK/outside"
start_slow link -d "$WORK/link" -n "$n" -l 2 --overwrite
wait_for_file "$WORK/link/write1.txt"
ln -s "$WORK/outside" "$WORK/link/write$last.txt"
finish_slow link
expect_status 1
grep -q "$WORK/link/write$last.txt: open: Too many levels of symbolic links" "$WORK/err" ||
  fail "no ELOOP message: $(cat "$WORK/err")"
[ "$(cat "$WORK/outside")" = "outside --dir" ] || fail "wrote through the link"
[ -L "$WORK/link/write$last.txt" ] || fail "the link was removed"

note "--overwrite and a FIFO planted during the run: refused at once, no hang"
mkdir "$WORK/fifo"
start_slow fifo -d "$WORK/fifo" -n "$n" -l 2 --overwrite
wait_for_file "$WORK/fifo/write1.txt"
mkfifo "$WORK/fifo/write$last.txt"
finish_slow fifo
expect_status 1
grep -q "$WORK/fifo/write$last.txt: open: " "$WORK/err" || fail "no message for the FIFO: $(cat "$WORK/err")"
[ -p "$WORK/fifo/write$last.txt" ] || fail "the FIFO was removed"
note "--overwrite and a hard link to a file outside --dir planted during the run: untouched"
mkdir "$WORK/hard"
echo "precious" >"$WORK/precious"
start_slow hard -d "$WORK/hard" -n "$n" -l 2 --overwrite
wait_for_file "$WORK/hard/write1.txt"
ln "$WORK/precious" "$WORK/hard/write$last.txt"
finish_slow hard
expect_status 1
grep -q "$WORK/hard/write$last.txt: open: not a regular file of its own" "$WORK/err" ||
  fail "no message for the hard link: $(cat "$WORK/err")"
[ "$(cat "$WORK/precious")" = precious ] || fail "wrote through the hard link"

note "--overwrite --cleanup and a FIFO with a reader planted during the run: nothing written to it, kept"
mkdir "$WORK/reader"
start_slow reader -d "$WORK/reader" -n "$n" -l 2 --overwrite --cleanup
wait_for_file "$WORK/reader/write1.txt"
mkfifo "$WORK/reader/write$last.txt"
timeout 20 cat "$WORK/reader/write$last.txt" >"$WORK/fifo.read" &
reader=$!
finish_slow reader
# The first step of --overwrite --cleanup opens with O_EXCL, so it never opened the FIFO and
# the reader still waits: open and close its write end here, so it sees EOF after whatever
# the run might have written.
exec 9>"$WORK/reader/write$last.txt"
exec 9>&-
wait "$reader" || true
expect_status 1
[ ! -s "$WORK/fifo.read" ] || fail "wrote into the FIFO: $(head -c 100 "$WORK/fifo.read")"
[ -p "$WORK/reader/write$last.txt" ] || fail "the FIFO was removed"

note "--overwrite and a device node planted during the run: not written, kept"
mkdir "$WORK/dev"
start_slow dev -d "$WORK/dev" -n "$n" -l 2 --overwrite
wait_for_file "$WORK/dev/write1.txt"
mknod "$WORK/dev/write$last.txt" c 1 7  # /dev/full: a write would fail, and the node be removed
finish_slow dev
expect_status 1
[ -c "$WORK/dev/write$last.txt" ] || fail "the device node was removed"

note "--overwrite --cleanup and a regular file saved at a name during the run: kept"
mkdir "$WORK/saved"
start_slow saved -d "$WORK/saved" -n "$n" -l 2 --overwrite --cleanup
wait_for_file "$WORK/saved/write1.txt"
echo "the user's" >"$WORK/saved/write$last.txt"
finish_slow saved
expect_status 1
[ "$(cat "$WORK/saved/write$last.txt")" = "the user's" ] || fail "the user's file was rewritten or removed"
[ "$(find "$WORK/saved" -mindepth 1 | wc -l)" -eq 1 ] || fail "the run's files were left"
note "--overwrite --cleanup -r 3 and a link put at a name between repetitions: the link stays"
mkdir "$WORK/between"
echo "outside --dir" >"$WORK/outside2"
SLOW_US=50000 start_slow between -d "$WORK/between" -n "$n" -l 2 -r 3 --overwrite --cleanup
# Rank 0's last file of the first repetition: replaced while rank 0 still holds it open (its
# 50 ms delay: the shell needs a few ms to notice it and swap it), so the first repetition
# completes and the second meets the link.
wait_for_file "$WORK/between/write$last.txt"
rm -f "$WORK/between/write$last.txt"
ln -s "$WORK/outside2" "$WORK/between/write$last.txt"
finish_slow between
expect_status 1
[ -L "$WORK/between/write$last.txt" ] || fail "the link put between repetitions was removed"
[ "$(cat "$WORK/outside2")" = "outside --dir" ] || fail "wrote through the link"
[ "$(find "$WORK/between" -mindepth 1 | wc -l)" -eq 1 ] || fail "the run's files were left: $(ls -A "$WORK/between" | head -n 3)"
echo "PASS"
