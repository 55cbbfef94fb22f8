#!/usr/bin/env bash
# --tree-depth D --branch B in real runs, posix and uring: every file in the leaf an independent
# model says (expect_layout.py: a contiguous block of its layout directory's files per leaf),
# files only in leaves, every directory of every tree there (also leaves without a file) and
# nothing else, the count of directories as B + ... + B^D per layout directory holding files;
# --verify (by another rank) passes; --cleanup leaves nothing, also of the scratch repetitions.
# Usage: tree.sh RANKS (registered for 4: 37 files in uneven blocks over 4 ranks; 2 checked the
# same with one peer).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

FILES=37 LINES=2
expect_layout() { python3 "$(dirname "$0")/expect_layout.py" "$@"; }
# Directories below DIR (DIR itself aside).
dirs_below() { find "$1" -mindepth 1 -type d | wc -l; }
# Files at any depth other than DEPTH below DIR: there must be none (files only in leaves).
files_off_leaves() { find "$1" -type f ! -path "$1/$2" | wc -l; }

note "rank layout, depth 2, branch 3, -r 2 --verify (posix): each rank's 13 directories"
run_mpiwrite -d "$WORK/rank" -n "$FILES" -l "$LINES" --layout rank --tree-depth 2 --branch 3 \
  -r 2 --verify
expect_status 0
expect_layout "$WORK/rank" "$RANKS" 1 rank 0 block "$FILES" "$LINES" 2 3
[ "$(dirs_below "$WORK/rank")" -eq $((RANKS * 13)) ] || fail "rank: $(dirs_below "$WORK/rank") dirs"
[ "$(files_off_leaves "$WORK/rank" 'rank*/t*/t*/*')" -eq 0 ] || fail "rank: a file off a leaf"
grep -q "in the leaves of a tree of depth 2, branch 3 (9 leaves) in each directory" "$WORK/out" ||
  fail "the report does not describe the tree: $(head -5 "$WORK/out")"

if uring_built; then  # (not indented: the case holds Python)
note "thread layout, 2 threads, depth 1, branch 4, cyclic, --verify (uring)"
run_mpiwrite -d "$WORK/thread" -n "$FILES" -l "$LINES" --layout thread -t 2 --partition cyclic \
  --tree-depth 1 --branch 4 --verify --engine uring -q 4 --format json
expect_status 0
expect_layout "$WORK/thread" "$RANKS" 2 thread 0 cyclic "$FILES" "$LINES" 1 4
# rank<r>, rank<r>/thread<t> and 4 leaves below each thread directory.
want=$((RANKS + RANKS * 2 * 5))
[ "$(dirs_below "$WORK/thread")" -eq "$want" ] || fail "thread: $(dirs_below "$WORK/thread") dirs"
[ "$(files_off_leaves "$WORK/thread" 'rank*/thread*/t*/*')" -eq 0 ] || fail "thread: off a leaf"
python3 - "$WORK/out" <<'PY' || fail "the JSON config lacks the tree"
import json, sys
config = json.load(open(sys.argv[1]))["config"]
sys.exit(0 if (config["tree_depth"], config["branch"]) == (1, 4) else 1)
PY
else
  skip_uring_case "thread layout, depth 1, branch 4 (uring)"
fi

note "shared layout, depth 3, branch 2, 5 files: fewer files than leaves, every leaf made"
run_mpiwrite -d "$WORK/shared" -n 5 -l "$LINES" --tree-depth 3 --branch 2 --verify
expect_status 0
expect_layout "$WORK/shared" "$RANKS" 1 shared 0 block 5 "$LINES" 3 2
[ "$(dirs_below "$WORK/shared")" -eq 14 ] || fail "shared: $(dirs_below "$WORK/shared") dirs"
[ "$(find "$WORK/shared" -mindepth 3 -type d -empty | wc -l)" -eq 3 ] ||
  fail "shared: expected 3 of the 8 leaves without a file"

note "--verify --cleanup -r 2 (posix, rank layout) leaves nothing, nor --dir it made"
run_mpiwrite -d "$WORK/gone" -n "$FILES" -l "$LINES" --layout rank --tree-depth 2 --branch 3 \
  -r 2 --verify --cleanup
expect_status 0
[ ! -e "$WORK/gone" ] || fail "--cleanup left $(find "$WORK/gone" | head)"

if uring_built; then  # (not indented, as the case above)
note "--verify --cleanup (uring, shared layout) leaves the --dir that was there empty"
mkdir "$WORK/kept"
run_mpiwrite -d "$WORK/kept" -n "$FILES" --tree-depth 2 --branch 3 --verify --cleanup \
  --engine uring -q 4
expect_status 0
[ -z "$(ls -A "$WORK/kept")" ] || fail "--cleanup left $(ls -A "$WORK/kept")"
else
  skip_uring_case "--verify --cleanup (uring, shared layout)"
fi

echo "PASS"
