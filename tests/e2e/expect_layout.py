#!/usr/bin/env python3
"""The layouts' model against the disk: expect_layout.py DIR RANKS THREADS LAYOUT FILES_PER_DIR
PARTITION FILES LINES [TREE_DEPTH BRANCH]. Every file of the run at the path an independent
model of --layout, --files-per-dir and --tree-depth/--branch says (block/cyclic split,
zero-padded names; a tree's leaves each a contiguous block of a layout directory's files), no
other file or directory under DIR (but a tree's every leaf, also one without a file), each file
LINES lines of "Hello, world!". Exit 1 with the first difference. Used by tests/e2e/layouts.sh,
tests/e2e/tree.sh and tests/cluster/netfs.sh (there from another host's mount)."""
import itertools, os, sys
root, ranks, threads, layout, per_dir, partition, files, lines = sys.argv[1:9]
depth, branch = map(int, sys.argv[9:11]) if len(sys.argv) > 9 else (0, 1)
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
trees = set()  # every directory of the trees below the layout directories that hold a file
buckets = width(-(-files // per_dir)) if per_dir else 1
leaves = [os.path.join(*(f"t{k:0{width(branch)}d}" for k in digits))
          for digits in itertools.product(range(branch), repeat=depth)] if depth else []
def place(directory, indices):
    leaf_of = {}
    for leaf, name in enumerate(leaves):
        for position in split(len(indices), len(leaves), leaf, "block"):
            leaf_of[position] = name
        while name:
            trees.add(os.path.join(directory, name))
            name = os.path.dirname(name)
    for position, index in enumerate(indices):
        parts = [directory] if directory else []
        if per_dir:
            parts.append(f"d{position // per_dir:0{buckets}d}")
        if depth:
            parts.append(leaf_of[position])
        expected[os.path.join(*parts, f"write{index}.txt")] = index

if layout == "shared":
    place("", range(1, files + 1))
else:
    for r in range(ranks):
        mine = [i + 1 for i in split(files, ranks, r, partition)]
        rank_dir = f"rank{r:0{width(ranks)}d}"
        if layout == "rank":
            if mine:
                place(rank_dir, mine)
            continue
        for t in range(threads):
            ours = [mine[p] for p in split(len(mine), threads, t, partition)]
            if ours:
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
        if rel not in ancestors and rel not in trees:
            sys.exit(f"FAIL: {root}: directory {rel} holds no file of the layout")
content = "Hello, world!\n" * lines
for path in expected:
    if open(os.path.join(root, path)).read() != content:
        sys.exit(f"FAIL: {root}/{path} has the wrong content")
missing = sorted(d for d in trees if not os.path.isdir(os.path.join(root, d)))
if missing:
    sys.exit(f"FAIL: {root}: directories of the tree missing: {missing[:5]}")
print(f"{len(expected)} files in {len(directories | trees)} directories as the model says")
