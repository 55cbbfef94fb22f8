#!/usr/bin/env python3
"""The layouts' model against the disk: expect_layout.py DIR RANKS THREADS LAYOUT FILES_PER_DIR
PARTITION FILES LINES. Every file of the run at the path an independent model of --layout and
--files-per-dir says (block/cyclic split, zero-padded names), no other file or directory under
DIR, each file LINES lines of "Hello, world!". Exit 1 with the first difference. Used by
tests/e2e/layouts.sh and tests/cluster/netfs.sh (there from another host's mount)."""
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
