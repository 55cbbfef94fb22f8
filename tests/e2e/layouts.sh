#!/usr/bin/env bash
# --layout and --files-per-dir in real runs: every file at the path an independent model of
# the layouts says (below, in Python: block/cyclic split, zero-padded names), nothing else on
# disk, every file exact; --verify (by another rank) passes; --overwrite rewrites in place;
# --cleanup leaves nothing of the run, and keeps a layout directory that was there before.
# With MPIWRITE_ARGS="--engine uring ..." the same through io_uring.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; none is signalled (lib.sh)

FILES=37 LINES=3
# expect_layout DIR RANKS THREADS LAYOUT FILES_PER_DIR PARTITION: the model against the disk.
expect_layout() { python3 "$(dirname "$0")/expect_layout.py" "$@" "$FILES" "$LINES"; }

# name threads layout files-per-dir partition [more options]
cases=(
  "rank 1 rank 0 block"
  "rank-cyclic-sub 1 rank 4 cyclic"
  "thread-sub 3 thread 5 block"
  "thread-cyclic 2 thread 0 cyclic"
  "shared-sub-dynamic 2 shared 6 dynamic"
)
for case in "${cases[@]}"; do
  read -r name threads layout per_dir partition <<<"$case"
  options=(--layout "$layout" -t "$threads" --partition "$partition")
  [ "$per_dir" -eq 0 ] || options+=(--files-per-dir "$per_dir")
  note "$name: $RANKS ranks, ${options[*]}, -r 2 --verify"
  run_mpiwrite -d "$WORK/$name" -n "$FILES" -l "$LINES" "${options[@]}" -r 2 --verify
  expect_status 0
  expect_layout "$WORK/$name" "$RANKS" "$threads" "$layout" "$per_dir" "$partition"

  # --overwrite and --cleanup on the nested layouts only (each run costs ~0.6 s in CI).
  case $name in rank-cyclic-sub | thread-sub) ;; *) continue ;; esac
  note "$name: --overwrite -r 2 into the same directories"
  run_mpiwrite -d "$WORK/$name" -n "$FILES" -l "$LINES" "${options[@]}" -r 2 --overwrite
  expect_status 0
  expect_layout "$WORK/$name" "$RANKS" "$threads" "$layout" "$per_dir" "$partition"

  note "$name: -r 2 --cleanup leaves nothing"
  run_mpiwrite -d "$WORK/$name-gone" -n "$FILES" -l "$LINES" "${options[@]}" -r 2 --cleanup
  expect_status 0
  [ ! -e "$WORK/$name-gone" ] || fail "$name: --cleanup left $(find "$WORK/$name-gone")"
done

note "a layout directory that was there already: kept by --overwrite --cleanup, the run's own gone"
mkdir -p "$WORK/kept/rank0"
run_mpiwrite -d "$WORK/kept" -n "$FILES" --layout rank --overwrite --cleanup
expect_status 0
[ -d "$WORK/kept/rank0" ] || fail "the layout directory that was there before was removed"
left=$(find "$WORK/kept" -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "$WORK/kept/rank0 " ] || fail "--cleanup left: $left"

note "a plain run refuses an existing layout directory, exit 2, nothing created"
mkdir -p "$WORK/taken/rank0"
run_mpiwrite -d "$WORK/taken" -n "$FILES" --layout rank
expect_status 2
[ "$(error_lines)" -eq 1 ] || fail "expected one error line"
grep -q "taken/rank0 already exists" "$WORK/err" || fail "the message does not name rank0"
[ "$(find "$WORK/taken" -mindepth 1 | wc -l)" -eq 1 ] || fail "something was created"

note "--overwrite refuses a symbolic link where a layout directory goes"
mkdir -p "$WORK/linked" "$WORK/outside"
ln -s "$WORK/outside" "$WORK/linked/rank0"
run_mpiwrite -d "$WORK/linked" -n "$FILES" --layout rank --overwrite
expect_status 2
grep -q "is a symbolic link" "$WORK/err" || fail "the link is not named"
[ -z "$(ls -A "$WORK/outside")" ] || fail "mpiwrite wrote through the link"

echo "PASS"
