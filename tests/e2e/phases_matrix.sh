#!/usr/bin/env bash
# Issue 23's strace matrix: every phase's exact system calls at RANKS ranks x 1, 2, 3, 4
# threads, on each engine. One mpiexec per engine runs `--sweep-threads 1,2,3,4` under one
# strace per rank (a trace file per thread); every step works in its own scratch directory
# DIR/.mpiwrite-<run id>/<label>-r1, so the calls of each point are told apart by the paths
# strace -y prints. --layout thread --tree-depth 1 --branch 2 makes the directories depend on the
# threads (per rank: rank<r>, and per thread thread<t> with 2 leaves: D = ranks x (1 + 3 t)),
# and --file-size 100 --write-size 40 makes 3 writes per file.
#  posix: per point N = 12 x ranks creating opens and 3N writes of 100N bytes, N statx of the
#    shifted rank's files, N read-only opens and 2N reads (the file, then the end) of 100N
#    bytes, N unlinks, D mkdirat and D rmdirs, made by exactly ranks x threads threads (the
#    stat and read phases), and no such call on a file outside the points (the final removal
#    has nothing left); the report's counts equal the calls.
#  uring: no statx, read, write, unlinkat, mkdirat or file open as a system call below the
#    steps' directories (strace cannot see the SQEs), io_uring_enter on every rank; the
#    engine's own counts per operation in the report equal N and D, read's --verify checked
#    every byte (100N, no mismatch), and nothing is left on disk.
#  null: the report's counts, and no call at all below --dir's steps, nothing on disk.
# Usage: phases_matrix.sh RANKS (registered for 1, 2 and 4: the shift, the split and the
# directories per rank change with the ranks).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || { echo "SKIP: no strace"; exit 77; }

FILES=12  # per rank: every thread count 1..4 gets at least 3 files per thread
PHASES=tree-create,write,stat,read,remove,tree-remove

# run_engine ENGINE [ARGS...]: the sweep under strace into $WORK/ENGINE (traces
# $WORK/trace-ENGINE.RANK.TID, JSON report $WORK/ENGINE.json). Sets STATUS.
run_engine() {
  local engine=$1
  shift
  set +e
  # shellcheck disable=SC2016,SC2086  # $0/$@ are the inner shell's; MPIEXEC holds flags
  timeout --kill-after=10 120 $MPIEXEC -n "$RANKS" bash -c \
    'exec strace --seccomp-bpf -f -ff -qq -y -o "$0.$OMPI_COMM_WORLD_RANK" \
       -e trace=statx,unlinkat,mkdirat,openat,read,write,io_uring_enter "$@"' \
    "$WORK/trace-$engine" "$MPIWRITE" -d "$WORK/$engine" --phases "$PHASES" \
    --sweep-threads 1,2,3,4 --files-per-rank "$FILES" --file-size 100 --write-size 40 \
    --layout thread --tree-depth 1 --branch 2 -r 1 --seed 7 --engine "$engine" --format json \
    "$@" >"$WORK/$engine.json" 2>"$WORK/$engine.err"
  STATUS=$?
  set -e
  cp "$WORK/$engine.err" "$WORK/err"
  if [ "$STATUS" -eq 124 ] || [ "$STATUS" -eq 137 ]; then fail "$engine: hung under strace"; fi
}

# check ENGINE: the report's counts per point and the traced calls (see the header).
check() {
  python3 - "$1" "$WORK" "$RANKS" "$FILES" <<'PY' || fail "$1: $(head -c 2000 "$WORK/$1.err")"
import collections, glob, json, os, re, sys
engine, work, ranks, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
report = json.load(open(f"{work}/{engine}.json"))
points = report["points"]
assert [(p["ranks"], p["threads"]) for p in points] == [(ranks, t) for t in (1, 2, 3, 4)], \
    [p["label"] for p in points]
n = files * ranks
for p in points:
    t, label = p["threads"], p["label"]
    d = ranks * (1 + 3 * t)
    (rep,) = p["repetitions"]
    ph = rep["phases"]
    got = {k: v.get("files", v.get("directories")) for k, v in ph.items()}
    want = {"tree-create": d, "write": n, "stat": n, "read": n, "remove": n, "tree-remove": d}
    assert got == want, (label, got, want)
    ops = {k: {o: (v or {}).get("count") for o, v in x["operations_us"].items()}
           for k, x in ph.items()}
    assert ops["tree-create"]["mkdir"] == d and ops["tree-remove"]["rmdir"] == d, (label, ops)
    assert ops["write"]["create"] == n and ops["write"]["close"] == n, (label, ops)
    assert ops["stat"]["stat"] == n and ops["remove"]["unlink"] == n, (label, ops)
    assert all(ops["read"][o] == n for o in ("open", "reads", "close")), (label, ops)
    assert ph["read"]["bytes"] == 100 * n, (label, ph["read"])
    if engine != "null":
        assert ph["read"]["verified"] is True and ph["read"]["mismatches"] == 0, ph["read"]

# The traced calls on the run's files and directories: (point label, call, rank, tid, fd path,
# the rest). The steps' directories are DIR/.mpiwrite-<id>/<label>-r1.
root = re.escape(f"{work}/{engine}")
line_re = re.compile(r"^(\w+)\(\d+<([^>]*)>, (.*)$")
step_re = re.compile(root + r"/\.mpiwrite-[^/]+/([^/]+)-r1(/|$)")
calls, enters = [], collections.Counter()
for path in glob.glob(f"{work}/trace-{engine}.*.*"):
    rank, tid = map(int, path.rsplit(".", 2)[1:])
    for line in open(path, errors="replace"):
        if line.startswith("io_uring_enter("):
            enters[rank] += 1
        m = line_re.match(line)
        if not m or not m.group(2).startswith(f"{work}/{engine}"):
            continue
        step = step_re.match(m.group(2))
        calls.append((step.group(1) if step else None, m.group(1), rank, tid, m.group(2),
                      m.group(3)))
labels = {p["label"] for p in points}
assert {c[0] for c in calls if c[0] is not None} <= labels, ({c[0] for c in calls}, labels)
file_re = re.compile(r'/write\d+\.txt$|^"write\d+\.txt"')
on_files = [c for c in calls if file_re.search(c[4]) or file_re.search(c[5])]
made = [c for c in calls if c[0] and c[1] == "mkdirat"]
gone = [c for c in calls if c[0] and c[1] == "unlinkat" and "AT_REMOVEDIR" in c[5]]

if engine == "null":
    # The null engine makes the steps' directories (untimed) and nothing below them.
    assert not on_files and not [c for c in calls if c[0]], calls[:5]
elif engine == "uring":
    bad = [c for c in calls if c[0] and c[1] in ("statx", "read", "write", "unlinkat", "mkdirat")]
    bad += on_files
    assert not bad, bad[:5]
    assert all(enters[r] > 0 for r in range(ranks)), enters
else:
    assert all(c[0] for c in on_files), [c for c in on_files if not c[0]][:5]
    for p in points:
        t, label = p["threads"], p["label"]
        d = ranks * (1 + 3 * t)
        mine = [c for c in on_files if c[0] == label]
        def of(call, flags=""):
            return [c for c in mine if c[1] == call and flags in c[5]]
        def total(cs):
            return sum(int(c[5].rsplit("= ", 1)[1]) for c in cs)
        creates, writes, reads = of("openat", "O_WRONLY|O_CREAT"), of("write"), of("read")
        stats, opens, unlinks = of("statx"), of("openat", "O_RDONLY"), of("unlinkat", ", 0)")
        counts = [len(creates), len(writes), total(writes), len(stats), len(opens), len(reads),
                  total(reads), len(unlinks)]
        assert counts == [n, 3 * n, 100 * n, n, n, 2 * n, 100 * n, n], (label, counts)
        assert len(mine) == 9 * n, (label, len(mine), collections.Counter(c[1] for c in mine))
        assert len([c for c in made if c[0] == label]) == d, (label, "mkdirat")
        assert len([c for c in gone if c[0] == label]) == d, (label, "rmdir")
        # Each rank's t threads share the stat and read phases; rank r takes rank r + 1's files.
        for name, cs in (("stat", stats), ("read", opens)):
            tids = {(c[2], c[3]) for c in cs}
            assert len(tids) == ranks * t, (label, name, len(tids))
        for c in stats + opens:
            owner = int(re.search(r"/rank(\d+)/", c[4]).group(1))
            assert owner == (c[2] + 1) % ranks, (label, "--shift 1", c)
    assert len(on_files) == 9 * n * len(points), len(on_files)
print(f"{engine}: {len(points)} points, {len(calls)} calls under --dir checked")
PY
  [ -z "$(find "$WORK/$1" -mindepth 1 2>/dev/null)" ] ||
    fail "$1 left: $(find "$WORK/$1" -mindepth 1 | head -3)"
}

note "posix: each phase's calls per point"
run_engine posix --verify
expect_status 0
check posix

note "uring: no file system call of the phases, the engine's counts in the report"
run_engine uring --verify -q 4
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/uring.err"; then
  echo "SKIP (uring part only): io_uring is not usable here: $(cat "$WORK/uring.err")"
else
  expect_status 0
  check uring
fi

note "null: the counts in the report, nothing on disk"
run_engine null
expect_status 0
check null
echo "PASS"
