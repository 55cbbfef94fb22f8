#!/usr/bin/env bash
# --layout and --files-per-dir in real runs: every file at the path an independent model of
# the layouts says (below, in Python: block/cyclic split, zero-padded names), nothing else on
# disk, every file exact; --verify (by another rank) passes; --overwrite rewrites in place;
# --cleanup leaves nothing of the run, and keeps a layout directory that was there before.
# With MPIWRITE_ARGS="--engine uring ..." the same through io_uring.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

FILES=37 LINES=3
# expect_layout DIR RANKS THREADS LAYOUT FILES_PER_DIR PARTITION: the model against the disk.
expect_layout() {
  python3 - "$@" "$FILES" "$LINES" <<'PY'
import os, sys
root, ranks, threads, layout, per_dir, partition, files, lines = sys.argv[1:]
ranks, threads, per_dir, files, lines = map(int, (ranks, threads, per_dir, files, lines))
width = lambda count: len(str(max(count - 1, 0)))

def split(count, parts, part, how):
    """Positions (0-based) of `part` among `count`, split into `parts` (block or cyclic)."""
    if how == "cyclic":
        return list(range(part, count, parts))
    base, extra = divmod(count, parts)
    start = part * base + min(part, extra)
    return list(range(start, start + base + (1 if part < extra else 0)))

expected = {}  # relative path -> index
buckets = width(-(-files // per_dir)) if per_dir else 1
def place(directory, indices):
    for position, index in enumerate(indices):
        parts = [directory] if directory else []
        if per_dir:
            parts.append(f"d{position // per_dir:0{buckets}d}")
        expected[os.path.join(*parts, f"write{index}.txt")] = index

if layout == "shared":
    place("", range(1, files + 1))
else:
    for r in range(ranks):
        mine = [i + 1 for i in split(files, ranks, r, partition)]
        rank_dir = f"rank{r:0{width(ranks)}d}"
        if layout == "rank":
            place(rank_dir, mine)
            continue
        for t in range(threads):
            ours = [mine[p] for p in split(len(mine), threads, t, partition)]
            place(f"{rank_dir}/thread{t:0{width(threads)}d}", ours)

found = set()
for top, dirs, names in os.walk(root):
    for name in names:
        found.add(os.path.relpath(os.path.join(top, name), root))
if found != set(expected):
    missing, extra = sorted(set(expected) - found), sorted(found - set(expected))
    sys.exit(f"FAIL: {root}: missing {missing[:5]}, unexpected {extra[:5]}")
directories = {os.path.dirname(p) for p in expected} - {""}
ancestors = set()
for d in directories:
    while d:
        ancestors.add(d)
        d = os.path.dirname(d)
for top, dirs, _ in os.walk(root):
    for d in dirs:
        rel = os.path.relpath(os.path.join(top, d), root)
        if rel not in ancestors:
            sys.exit(f"FAIL: {root}: directory {rel} holds no file of the layout")
content = "Hello, world!\n" * lines
for path in expected:
    if open(os.path.join(root, path)).read() != content:
        sys.exit(f"FAIL: {root}/{path} has the wrong content")
print(f"{len(expected)} files in {len(directories)} directories as the model says")
PY
}

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
