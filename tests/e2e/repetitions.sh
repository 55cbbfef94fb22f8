#!/usr/bin/env bash
# Repetition layout, --overwrite, --cleanup and --dry-run: only what the run created is removed.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

note "3 timed + 1 warm-up repetitions leave only the last one's files"
run_mpiwrite -d "$WORK/reps" -n 40 -l 2 -r 3 --warmup 1 -t 2 --format csv
expect_status 0
expect_files "$WORK/reps" 40 2 "Hello, world!"
[ "$(grep -c '^repetition,' "$WORK/out")" -eq 3 ] || fail "expected 3 repetition rows"

note "--overwrite rewrites in place, also over an earlier run's files"
run_mpiwrite -d "$WORK/reps" -n 40 -l 3 -r 2 --overwrite
expect_status 0
expect_files "$WORK/reps" 40 3 "Hello, world!"

note "--cleanup removes the files and the directory it created"
run_mpiwrite -d "$WORK/gone" -n 30 -r 2 --cleanup
expect_status 0
[ ! -e "$WORK/gone" ] || fail "--cleanup left $WORK/gone"
grep -q "60 files removed" "$WORK/out" || fail "removal phase not reported: $(cat "$WORK/out")"

note "--cleanup never removes what it did not create"
mkdir "$WORK/mine"
echo keep >"$WORK/mine/notes.txt"
echo keep >"$WORK/elsewhere"
ln -s "$WORK/elsewhere" "$WORK/mine/write99.txt"  # outside this run's names (n = 20)
run_mpiwrite -d "$WORK/mine" -n 20 --cleanup
expect_status 0
[ "$(cat "$WORK/mine/notes.txt")" = keep ] || fail "a foreign file was removed"
[ -L "$WORK/mine/write99.txt" ] && [ "$(cat "$WORK/elsewhere")" = keep ] || fail "symlink damaged"
[ "$(find "$WORK/mine" -mindepth 1 | wc -l)" -eq 2 ] || fail "files of the run were left"

note "--dry-run prints the plan and writes nothing"
run_mpiwrite -d "$WORK/dry" -n 10 -t 2 --dry-run
expect_status 0
[ ! -e "$WORK/dry" ] || fail "--dry-run created the directory"
[ "$(grep -c '^rank ' "$WORK/out")" -eq $((RANKS * 2)) ] || fail "plan lacks a rank/thread line"

note "--dry-run --layout thread --files-per-dir prints every rank's directories, creates none"
run_mpiwrite -d "$WORK/dry" -n 10 -t 2 --layout thread --files-per-dir 2 --dry-run
expect_status 0
[ ! -e "$WORK/dry" ] || fail "--dry-run --layout created the directory"
[ "$(grep -c '^rank [0-9]* creates ' "$WORK/out")" -eq "$RANKS" ] || fail "a rank's directories are missing"
# Parents first, a level at a time (rank_directory_levels): the rank's, its threads', their d<k>.
grep -q '^rank 0 creates .*: rank0, rank0/thread0, rank0/thread1, rank0/thread0/d0' "$WORK/out" ||
  fail "rank 0's directories: $(cat "$WORK/out")"
echo "PASS"
