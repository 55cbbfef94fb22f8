#!/usr/bin/env bash
# --phases end to end (docs/metrics.md, "Phases"), the real binary under mpiexec:
#  (a) every phase, -r 3, rank layout with a tree: each phase in every repetition's JSON with
#      the right count of files or directories, a rate > 0 and every rank's own figures
#      (per_rank, the write phase's the repetition's: the items add up, the slowest is
#      slowest_rank_s), and nothing of the run left in
#      --dir (no file, no directory, no scratch .mpiwrite-*), a file planted there survives;
#  (a2) --per-rank --format csv: every phase's rank rows add up to the phase's items;
#  (b) strace per rank (posix, 2 threads): N statx on the files, of another rank's files
#      (--shift), N read-only opens reading every byte, N unlinks, D mkdirat and D rmdirs;
#      --random-order: stat and remove not in the files' order;
#  (b2) --partition cyclic and dynamic: rank r stats and reads exactly the files rank r + 1
#      created (strace), and unlinks exactly its own; --verify without the read phase reads
#      back exactly rank r + 1's too;
#  (c) uring: none of those as syscalls on the files (they go through io_uring_enter);
#  (d) null: the same counts in the report, nothing on disk;
#  (e) a statx failing with ENOENT (strace inject): exit 1 naming each rank's path, no hang;
#  (f) --time-limit with a slow rank: stat, read and remove take exactly the files written;
#      --verify with read: verified, 0 mismatches; --random-order --seed 5 reports the seed;
#  (g) a file planted in a tree leaf during the write phase: tree-remove fails on that leaf
#      (exit 1, its path, "Directory not empty") and removes neither the file nor its leaf;
#  (h) --compare -r 2: every point has the phases in each repetition;
#  (i) SIGINT during the stat phase (each statx slowed by strace): the report says
#      INTERRUPTED, and the run's files are removed (by the background remover).
# The bad-input cases are rows of docs/errors.md's first table. Usage: phases.sh RANKS
# (registered for 4: every case has peers there, --shift RANKS - 1 and the shifted statx of
# (e) go round a ring of 4 rather than swap a pair, and (h) has hybrid points).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# Check the JSON report $WORK/out with Python code reading `report` (argv: the extra args).
check_json() {
  local code=$1
  shift
  local report=$WORK/out
  CHECK=$code python3 - "$report" "$@" <<'PY' || fail "the JSON report: $(head -c 3000 "$report")"
import json, os, sys
report = json.load(open(sys.argv[1]))
args = [int(a) for a in sys.argv[2:]]
exec(os.environ["CHECK"])
PY
}

# mpiwrite under strace, each rank's threads into $WORK/trace-NAME.RANK.TID (one file per
# thread: no call split into "unfinished" and "resumed" halves). Sets STATUS.
run_traced() {
  local name=$1
  shift
  set +e
  # shellcheck disable=SC2016,SC2086  # $0/$@ are the inner shell's; MPIEXEC holds flags
  timeout --kill-after=10 120 $MPIEXEC -n "$RANKS" bash -c \
    'exec strace --seccomp-bpf -f -ff -qq -y -o "$0.$OMPI_COMM_WORLD_RANK" \
       -e trace=statx,unlinkat,mkdirat,openat,read,io_uring_enter "$@"' \
    "$WORK/trace-$name" "$MPIWRITE" "$@" >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  if [ "$STATUS" -eq 124 ] || [ "$STATUS" -eq 137 ]; then fail "mpiwrite hung under strace: $*"; fi
}
# The calls of run NAME (rank RANK, or * for all) matching the extended regex RE, counted.
# shellcheck disable=SC2086  # $2 may be the glob *
traced() { cat "$WORK/trace-$1".$2.* | grep -cE "$3" || true; }

# (a) ---------------------------------------------------------------------------------------
note "(a) every phase, -r 3, --layout rank --tree-depth 2 --branch 3, 50 empty files per rank"
D=$WORK/all
mkdir "$D" && echo keep >"$D/foreign.txt"
run_mpiwrite -d "$D" --phases tree-create,write,stat,read,remove,tree-remove \
  --files-per-rank 50 --file-size 0 --layout rank --tree-depth 2 --branch 3 -r 3 --format json
expect_status 0
# Each rank's directory and its tree of 3 + 9 directories.
check_json '
files, dirs = args
phases = ["tree-create", "write", "stat", "read", "remove", "tree-remove"]
assert report["config"]["phases"] == phases, report["config"]["phases"]
reps = report["points"][0]["repetitions"]
assert len(reps) == 3, len(reps)
for rep in reps:
    assert list(rep["phases"]) == phases, list(rep["phases"])
    for name, p in rep["phases"].items():
        if name.startswith("tree"):
            assert p["directories"] == dirs and p["directories_per_s"] > 0, (name, p)
        else:
            assert p["files"] == files and p["files_per_s"] > 0, (name, p)
        assert p["makespan_s"] > 0 and p["latency_us"]["count"] == p.get("files", dirs), (name, p)
        # Every rank once, in order, its items adding up, its end within the makespan.
        key = "directories" if name.startswith("tree") else "files"
        ranks = rep["per_rank"] if name == "write" else p["per_rank"]
        assert [r["rank"] for r in ranks] == list(range(len(ranks))), (name, ranks)
        assert len(ranks) == files // 50 and sum(r[key] for r in ranks) == p[key], (name, ranks)
        assert all(r["start_s"] + r["elapsed_s"] <= p["makespan_s"] * (1 + 1e-9) for r in ranks)
        assert max(r["elapsed_s"] for r in ranks) == p["slowest_rank_s"], (name, ranks, p)
    ops = {n: {o: (v or {}).get("count") for o, v in p["operations_us"].items()}
           for n, p in rep["phases"].items()}
    assert ops["stat"]["stat"] == files and ops["remove"]["unlink"] == files, ops
    assert ops["read"]["open"] == files and ops["read"]["close"] == files, ops
    assert ops["tree-create"]["mkdir"] == dirs and ops["tree-remove"]["rmdir"] == dirs, ops
assert list(report["points"][0]["summary"]["phases"]) == phases
# remove took every file inside its repetition: nothing was left for the final cleanup.
assert report["cleanup"]["files_removed"] == 0, report["cleanup"]
' $((50 * RANKS)) $((13 * RANKS))
left=$(cd "$D" && find . -mindepth 1 ! -name foreign.txt | head -5)
[ -z "$left" ] || fail "the run left in --dir: $left"
[ "$(cat "$D/foreign.txt")" = keep ] || fail "the planted file was changed or removed"

# (a2) --------------------------------------------------------------------------------------
note "(a2) --per-rank --format csv: a rank row per rank of every phase, adding up to the phase's"
D=$WORK/per-rank
run_mpiwrite -d "$D" --phases tree-create,write,stat,read,remove,tree-remove \
  --files-per-rank 20 --layout rank --tree-depth 1 --branch 2 -r 2 --format csv --per-rank
expect_status 0
python3 - "$WORK/out" "$RANKS" <<'PY' || fail "--per-rank csv: $(head -c 2000 "$WORK/out")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ranks = int(sys.argv[2])
columns = {"tree-create": "tree_create_directories", "write": "files", "stat": "stat_files",
           "read": "read_files", "remove": "remove_files",
           "tree-remove": "tree_remove_directories"}
reps = [r for r in rows if r["row"] == "repetition"]
assert len(reps) == 2, reps
for rep in reps:
    mine = [r for r in rows if r["row"] == "rank" and r["repetition"] == rep["repetition"]]
    # In the order the phases ran, each phase's ranks in order.
    assert [r["phase"] for r in mine] == [p for p in columns for _ in range(ranks)], mine
    for phase, column in columns.items():
        of = [r for r in mine if r["phase"] == phase]
        assert [int(r["rank"]) for r in of] == list(range(ranks)), of
        assert sum(int(r["items"]) for r in of) == int(rep[column]), (phase, of, rep[column])
        assert all(float(r["elapsed_s"]) > 0 and float(r["start_s"]) >= 0 for r in of), of
        if phase == "read":  # the bytes each rank read: its 20 files of 1,400 bytes
            assert all(int(r["bytes"]) == 20 * 1400 for r in of), of
PY
[ -z "$(find "$D" -mindepth 1)" ] || fail "per-rank: left $(find "$D" -mindepth 1 | head -3)"

# (b) ---------------------------------------------------------------------------------------
note "(b) posix under strace, 2 threads, --shift $((RANKS - 1)) --random-order: each phase's calls"
D=$WORK/posix N=$((10 * RANKS)) DIRS=$((3 * RANKS))
run_traced posix -d "$D" --phases tree-create,write,stat,read,remove,tree-remove -t 2 \
  --files-per-rank 10 --file-size 100 --layout rank --tree-depth 1 --branch 2 \
  --shift $((RANKS - 1)) --random-order --seed 5
expect_status 0
F="<$D/rank[0-9]+/t[0-9]+>, \"write[0-9]+\\.txt\""
n=$(traced posix '*' "^openat\\([0-9]+$F, O_WRONLY\\|O_CREAT")
[ "$n" -eq "$N" ] || fail "$n creating opens of the files, not $N"
n=$(traced posix '*' "^statx\\([0-9]+$F, AT_STATX")
[ "$n" -eq "$N" ] || fail "$n statx, not $N"
n=$(traced posix '*' "^openat\\([0-9]+$F, O_RDONLY")
[ "$n" -eq "$N" ] || fail "$n read-only opens of the files, not $N"
bytes=$(cat "$WORK"/trace-posix.* | grep -E "^read\\([0-9]+<$D/rank" |
  sed -E 's/.* = ([0-9]+)$/\1/' | awk '{ s += $1 } END { print s + 0 }')
[ "$bytes" -eq $((100 * N)) ] || fail "the read phase read $bytes bytes, not $((100 * N))"
n=$(traced posix '*' "^unlinkat\\([0-9]+$F, 0\\)")
[ "$n" -eq "$N" ] || fail "$n unlinks, not $N"
n=$(traced posix '*' "^mkdirat\\([0-9]+<${D}[/>]")
[ "$n" -eq "$DIRS" ] || fail "$n mkdirat, not $DIRS"
n=$(traced posix '*' "^unlinkat\\([0-9]+<${D}[^>]*>, \"[^\"]+\", AT_REMOVEDIR")
[ "$n" -eq "$DIRS" ] || fail "$n rmdirs, not $DIRS"
# Rank r creates the files of rank r's directory and stats and reads those of rank r + shift.
for ((r = 0; r < RANKS; r++)); do
  o=$(((r + RANKS - 1) % RANKS))
  n=$(traced posix $r "^openat\\([0-9]+<$D/rank$r/t[0-9]+>, [^,]+, O_WRONLY\\|O_CREAT")
  [ "$n" -eq 10 ] || fail "rank $r created $n files in rank$r, expected 10"
  n=$(traced posix $r "^statx\\([0-9]+<$D/rank$o/")
  [ "$n" -eq 10 ] ||
    fail "rank $r statx'd $n files of rank $o, expected its 10 (--shift $((RANKS - 1)))"
done
# --random-order: some thread stats and unlinks its files out of the order of their numbers.
for call in statx unlinkat; do
  for t in "$WORK"/trace-posix.*; do
    grep -oE "^$call\\([0-9]+<$D/rank[0-9]+/t[0-9]+>, \"write[0-9]+" "$t" | grep -oE '[0-9]+$' |
      awk 'NR > 1 && $1 < last { found = 1 } { last = $1 } END { exit !found }' && continue 2
  done
  fail "--random-order: every thread made its $call calls in the files' order"
done
[ -z "$(find "$D" -mindepth 1)" ] || fail "posix: left $(find "$D" -mindepth 1 | head -3)"

# (b2) --------------------------------------------------------------------------------------
# Whoever wrote which file under --partition cyclic (the names say) and dynamic (only the
# writers' records do): rank r stats and reads exactly the files rank r + 1 created, and
# unlinks exactly its own; --verify without the read phase reads back exactly rank r + 1's too.
whose_files() {  # NAME WHAT...: rank r's calls of WHAT (stat, read, unlink) on rank r+1's files
  python3 - "$WORK/trace-$1" "$RANKS" "${@:2}" <<'PY' || fail "run $1: whose files"
import glob, re, sys
prefix, ranks, what = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
calls = {"create": r'^openat\(.*"(write\d+\.txt)", O_WRONLY\|O_CREAT',
         "stat": r'^statx\(.*"(write\d+\.txt)", AT_STATX',
         "read": r'^openat\(.*"(write\d+\.txt)", O_RDONLY',
         "unlink": r'^unlinkat\(.*"(write\d+\.txt)", 0\)'}
names = {}
for r in range(ranks):
    names[r] = {k: [] for k in calls}
    for path in glob.glob(f"{prefix}.{r}.*"):
        for line in open(path):
            for k, pattern in calls.items():
                m = re.match(pattern, line)
                if m:
                    names[r][k].append(m.group(1))
everything = sorted(n for r in range(ranks) for n in names[r]["create"])
assert len(everything) == 10 * ranks == len(set(everything)), everything
for r in range(ranks):
    theirs = sorted(names[(r + 1) % ranks]["create"])
    for k in ("stat", "read"):
        if k in what:
            assert sorted(names[r][k]) == theirs, (r, k, sorted(names[r][k]), theirs)
    if "unlink" in what:
        assert sorted(names[r]["unlink"]) == sorted(names[r]["create"]), (r, names[r])
PY
}
for partition in cyclic dynamic; do
  note "(b2) --partition $partition under strace: stat and read on the next rank's writing"
  D=$WORK/$partition
  extra=()
  [ "$partition" = dynamic ] && extra=(--chunk 2)
  run_traced "$partition" -d "$D" --phases write,stat,read,remove --files-per-rank 10 \
    --partition "$partition" "${extra[@]}"
  expect_status 0
  whose_files "$partition" stat read unlink
  [ -z "$(find "$D" -mindepth 1)" ] || fail "$partition: left $(find "$D" -mindepth 1 | head -3)"
  note "(b2) --partition $partition --verify (no read phase): the next rank's writing read back"
  run_traced "verify-$partition" -d "$D" --files-per-rank 10 --verify --cleanup \
    --partition "$partition" "${extra[@]}"
  expect_status 0
  whose_files "verify-$partition" read
  [ -z "$(find "$D" -mindepth 1)" ] || fail "$partition: left $(find "$D" -mindepth 1 | head -3)"
done

# (c) ---------------------------------------------------------------------------------------
note "(c) uring under strace: no statx, read, unlinkat or mkdirat syscall on the run's files"
D=$WORK/uring
run_traced uring -d "$D" --phases tree-create,write,stat,read,remove,tree-remove \
  --files-per-rank 10 --file-size 100 --layout rank --tree-depth 1 --branch 2 --engine uring \
  -q 4 --format json
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
  echo "SKIP (uring part only): io_uring is not usable here: $(cat "$WORK/err")"
else
  expect_status 0
  n=$(traced uring '*' "^(statx|read|unlinkat|mkdirat)\\([0-9]+<${D}[/>]")
  [ "$n" -eq 0 ] || fail "uring: $n statx/read/unlinkat/mkdirat syscalls under --dir"
  [ "$(traced uring '*' '^io_uring_enter\(')" -gt 0 ] || fail "uring: no io_uring_enter"
  check_json '
rep = report["points"][0]["repetitions"][0]["phases"]
got = {n: p.get("files", p.get("directories")) for n, p in rep.items()}
want = {"tree-create": args[1], "write": args[0], "stat": args[0], "read": args[0],
        "remove": args[0], "tree-remove": args[1]}
assert got == want, got
' "$N" "$DIRS"
  [ -z "$(find "$D" -mindepth 1)" ] || fail "uring: left $(find "$D" -mindepth 1 | head -3)"
fi

# (d) ---------------------------------------------------------------------------------------
note "(d) null: every phase's count, nothing on disk"
D=$WORK/null
run_mpiwrite -d "$D" --phases tree-create,write,stat,read,remove,tree-remove --engine null \
  --files-per-rank 10 --layout rank --tree-depth 1 --branch 2 --format json
expect_status 0
check_json '
rep = report["points"][0]["repetitions"][0]["phases"]
got = {n: (p.get("files", p.get("directories")),
           p.get("files_per_s", p.get("directories_per_s")) > 0) for n, p in rep.items()}
want = {"tree-create": (args[1], True), "write": (args[0], True), "stat": (args[0], True),
        "read": (args[0], True), "remove": (args[0], True), "tree-remove": (args[1], True)}
assert got == want, got
' "$N" "$DIRS"
[ -z "$(find "$D" -mindepth 1 2>/dev/null)" ] || fail "null left $(find "$D" -mindepth 1 | head -3)"

# (e) ---------------------------------------------------------------------------------------
no_kill_grace  # (e) to (h) end by themselves; (i), signalled, keeps the default (lib.sh)
note "(e) each rank's third statx fails with ENOENT: exit 1 naming each rank's path"
D=$WORK/enoent
set +e
# shellcheck disable=SC2086  # MPIEXEC holds the launcher and its flags
timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" strace -f -qq --seccomp-bpf -o /dev/null \
  -e trace=statx -e inject=statx:error=ENOENT:when=3 \
  "$MPIWRITE" -d "$D" --phases write,stat,read,remove --files-per-rank 5 >"$WORK/out" 2>"$WORK/err"
STATUS=$?
set -e
if [ "$STATUS" -eq 124 ] || [ "$STATUS" -eq 137 ]; then fail "a failed statx hung the run"; fi
expect_status 1
# Rank r stats rank r + 1's files (--shift 1): the third of them, 5 (r + 1) + 3.
for ((r = 0; r < RANKS; r++)); do
  f="$D/write$((5 * ((r + 1) % RANKS) + 3)).txt"
  grep -qxF "mpiwrite: error: rank $r: $f: stat: No such file or directory" "$WORK/err" ||
    fail "no line for rank $r's $f: $(cat "$WORK/err")"
done
[ "$(error_lines)" -eq "$RANKS" ] || fail "$(error_lines) error lines, expected $RANKS"

# (f) ---------------------------------------------------------------------------------------
note "(f) --time-limit 0.5 with rank 1 slow, --verify, --random-order --seed 5"
D=$WORK/limit
# Rank 1 writes at most 25 of its 30 files (20 ms each) before the limit, the others all 30;
# it is slow in the later phases too (30 files at most each: 0.6 s), which no limit cuts.
run_mpiwrite -d "$D" --phases write,stat,read,remove --time-limit 0.5 --slow-rank 1 \
  --slow-delay-us 20000 --files-per-rank 30 --file-size 100 --verify --random-order --seed 5 \
  --format json
expect_status 0
check_json '
assert report["seed"] == 5, report["seed"]
assert report["config"]["random_order"] is True, report["config"]
p = report["points"][0]["repetitions"][0]["phases"]
written = p["write"]["files"]
assert 0 < written < args[0], (written, args[0])
for name in ("stat", "read", "remove"):
    assert p[name]["files"] == written, (name, p[name]["files"], written)
assert p["read"]["verified"] is True and p["read"]["mismatches"] == 0, p["read"]
assert p["read"]["bytes"] == 100 * written, p["read"]
' $((30 * RANKS))
[ -z "$(find "$D" -mindepth 1)" ] || fail "--time-limit: left $(find "$D" -mindepth 1 | head -3)"

# (g) ---------------------------------------------------------------------------------------
note "(g) a file planted in a tree leaf while rank 1 writes slowly: it and its leaf stay"
D=$WORK/planted
LIMIT=90 start_bg planted -d "$D" --phases tree-create,write,remove,tree-remove --layout rank \
  --tree-depth 1 --branch 2 --files-per-rank 4 --slow-rank 1 --slow-delay-us 200000
# rank0/t1 is made in tree-create; rank 1 (0.2 s per item of every phase) makes tree-remove
# begin >= 2 s after it (its 3 directories, 4 files written and 4 removed).
for ((k = 0; k < 1000; k++)); do [ -d "$D/rank0/t1" ] && break; sleep 0.01; done
echo foreign >"$D/rank0/t1/mine.txt" || fail "rank0/t1 never appeared"
set +e
wait "$BG"
STATUS=$?
set -e
cp "$OUT" "$WORK/out" && cp "$ERR" "$WORK/err"
expect_status 1
grep -qxF "mpiwrite: error: rank 0: $D/rank0/t1: rmdir: Directory not empty" "$WORK/err" ||
  fail "no line for the leaf that kept a foreign file: $(cat "$WORK/err")"
[ "$(error_lines)" -eq 1 ] || fail "$(error_lines) error lines, expected 1"
[ "$(cat "$D/rank0/t1/mine.txt")" = foreign ] || fail "the planted file was removed"
left=$(cd "$D" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./rank0 ./rank0/t1 ./rank0/t1/mine.txt " ] || fail "left in --dir: $left"

# (h) ---------------------------------------------------------------------------------------
if [ "$RANKS" -ge 2 ]; then
  note "(h) --compare -r 2 --phases write,stat,remove: every point has the phases"
  run_mpiwrite -d "$WORK/compare" --compare -r 2 --phases write,stat,remove -n 40 --format json
  expect_status 0
  check_json '
points = report["points"]
assert len(points) >= 3, [p["label"] for p in points]
for point in points:
    assert len(point["repetitions"]) == 2, point["label"]
    for rep in point["repetitions"]:
        assert list(rep["phases"]) == ["write", "stat", "remove"], (point["label"], rep["phases"])
        assert all(rep["phases"][n]["files"] == 40 for n in rep["phases"]), point["label"]
    assert list(point["summary"]["phases"]) == ["write", "stat", "remove"], point["label"]
'
  [ -z "$(find "$WORK/compare" -mindepth 1)" ] || fail "--compare left files"
fi

# (i) ---------------------------------------------------------------------------------------
kill_grace
note "(i) SIGINT in the stat phase: a report marked interrupted, and no file of the run left"
D=$WORK/interrupted
n=$((20 * RANKS))
set +e
# shellcheck disable=SC2086  # MPIEXEC holds the launcher and its flags
timeout --kill-after=10 120 $MPIEXEC -n "$RANKS" strace -f -qq -o /dev/null \
  -e trace=statx -e inject=statx:delay_enter=250000 \
  "$MPIWRITE" -d "$D" --phases write,stat,read,remove --files-per-rank 20 -r 2 --format json \
  >"$WORK/out" 2>"$WORK/err" &
launched=$!
# Every file of the first repetition written (in its scratch directory: the write phase is
# over): its stat phase, 5 s at least, has begun. (-r 2: the last repetition writes into --dir,
# whose files a plain run keeps; the first one's scratch is the run's to remove.)
for _ in $(seq 600); do
  [ "$(find "$D" -path '*/.mpiwrite-*' -name 'write*.txt' 2>/dev/null | wc -l)" -eq "$n" ] && break
  sleep 0.1
done
sleep 1
pkill -INT -f -- "^$MPIWRITE -d $D --phases" || true
wait "$launched"
STATUS=$?
set -e
if [ "$STATUS" -eq 124 ] || [ "$STATUS" -eq 137 ]; then fail "SIGINT in the stat phase hung"; fi
[ "$STATUS" -ne 0 ] || fail "an interrupted run exited 0"
check_json '
assert report["interrupted"] == "SIGINT", report["interrupted"]
assert report["points"][0]["repetitions"] == [], "an interrupted repetition was reported"
'
for _ in $(seq 100); do
  [ -z "$(find "$D" -name 'write*.txt' 2>/dev/null)" ] && break
  sleep 0.1
done
[ -z "$(find "$D" -name 'write*.txt')" ] || fail "files left: $(find "$D" -name 'write*.txt' | head -3)"

echo "PASS"
