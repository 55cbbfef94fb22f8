#!/usr/bin/env bash
# Issue 23's phases against the disk and against faults, the real binary under mpiexec (the
# per-call counts are phases_matrix.sh's, the rest of the phases phases.sh's):
#  (a) what is on disk after tree-create,write (kept: the last repetition writes into --dir) is
#      exactly the report's directories and files, each of the written size and content, and a
#      file planted in --dir survives;
#  (b) after tree-create,write,stat,read,remove: no file of the run, and of tree-create's
#      directories only the leaf holding a file planted during the run and its parent (the
#      remove phase emptied --dir: the run's empty directories go without --cleanup); the
#      planted files and the --dir that was there before survive;
#  (c) a signal inside each phase (SIGINT in tree-create, write, stat, read, remove and
#      tree-remove, SIGTERM in read; strace -P delays that phase's call on the run's paths so
#      the signal lands inside it): exit 128 + the signal, the report marked interrupted with
#      no repetition, the phase begun and not finished (its calls counted), and --dir holds
#      nothing of the run (--cleanup; no scratch root or trash) but the planted file;
#  (d) a file deleted behind the read phase's back (by the test, while another rank still
#      writes): exit 1, one line naming that rank, the path and "open: No such file or
#      directory", no hang;
#  (e) a FIFO put at a file's name before the read phase: posix and uring finish (exit 1,
#      --verify names the FIFO: read 0 bytes), no hang (uring opened without O_NONBLOCK and
#      blocked forever).
# Usage: phases_life.sh RANKS (registered for 2: rank 1 writes slowly while the test changes
# rank 0's files, and nothing here depends on more ranks).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || { echo "SKIP: no strace"; exit 77; }
[ "$RANKS" -ge 2 ] || fail "usage: phases_life.sh RANKS (at least 2)"

# wait_until SECONDS CONDITION...: poll CONDITION every 0.1 s (every window it waits for is
# 1 s or more; several run side by side on a loaded machine); false when it never held.
wait_until() {
  local limit=$1 k
  shift
  for ((k = 0; k < limit * 10; k++)); do "$@" && return 0; sleep 0.1; done
  return 1
}
# The run's files directly in DIR, counted (a glob: no process per poll).
files_in() {
  local f=("$1"/write*.txt)
  [ -e "${f[0]}" ] && echo "${#f[@]}" || echo 0
}
# Everything below DIR but its planted file, at most 5 names.
left_in() { (cd "$1" && find . -mindepth 1 ! -name foreign.txt | head -5); }

# (a) ---------------------------------------------------------------------------------------
note "(a) tree-create,write: the tree and files on disk are the report's"
D=$WORK/kept
mkdir "$D" && echo keep >"$D/foreign.txt"
run_mpiwrite -d "$D" --phases tree-create,write --files-per-rank 7 --file-size 33 \
  --write-size 10 --layout rank --tree-depth 2 --branch 2 -t 2 --format json
expect_status 0
(cd "$D" && find . -mindepth 1 -type d | sort) >"$WORK/dirs"
(cd "$D" && find . -mindepth 1 -type f ! -name foreign.txt -printf '%P %s\n' | sort) >"$WORK/files"
python3 - "$WORK/out" "$WORK/dirs" "$WORK/files" "$RANKS" <<'PY' || fail "(a): see above"
import json, sys
report = json.load(open(sys.argv[1]))
dirs = open(sys.argv[2]).read().split()
files = [l.split() for l in open(sys.argv[3]).read().splitlines()]
ranks = int(sys.argv[4])
p = report["points"][0]["repetitions"][0]["phases"]
# Per rank: rank<r>, 2 subtrees t0, t1 with 2 leaves each: 7 directories.
want_dirs = sorted(f"./rank{r}" + s for r in range(ranks)
                   for s in ["", "/t0", "/t1", "/t0/t0", "/t0/t1", "/t1/t0", "/t1/t1"])
assert dirs == want_dirs and p["tree-create"]["directories"] == len(dirs), (dirs, p)
# Rank r wrote files 7r + 1 .. 7r + 7 into its leaves, 33 bytes each.
assert p["write"]["files"] == len(files) == 7 * ranks and p["write"]["bytes"] == 33 * len(files), p
for path, size in files:
    n = int(path.rsplit("write", 1)[1][:-4])
    assert size == "33" and path.startswith(f"rank{(n - 1) // 7}/t"), (path, size)
    assert path.count("/") == 3, path  # rank<r>/t<a>/t<b>/write<n>.txt: in a leaf
assert sorted(int(f[0].rsplit("write", 1)[1][:-4]) for f in files) == list(range(1, 7 * ranks + 1))
PY
# Every file has the same 33 bytes: the line cut at the size (docs/metrics.md, Workload).
[ "$(find "$D" -name 'write*.txt' -exec md5sum {} + | awk '{ print $1 }' | sort -u | wc -l)" \
  -eq 1 ] || fail "(a): the files' contents differ"
[ "$(cat "$D/foreign.txt")" = keep ] || fail "(a): the planted file changed"

# (b) ---------------------------------------------------------------------------------------
note "(b) ...,remove without tree-remove: no file; planted files, their directories and --dir stay"
D=$WORK/removed
mkdir "$D" && echo keep >"$D/foreign.txt"
LIMIT=90 start_bg removed -d "$D" --phases tree-create,write,stat,read,remove --files-per-rank 4 \
  --file-size 33 --layout rank --tree-depth 1 --branch 2 --slow-rank 1 --slow-delay-us 100000 \
  --format json
# Rank 1 makes every phase last >= 0.3 s (its 3 directories, then 4 files each, 0.1 s per
# item): rank0/t1 is there from tree-create on, and the run ends >= 1.9 s after it began.
wait_until 60 test -d "$D/rank0/t1" || fail "(b): rank0/t1 never appeared"
echo mine >"$D/rank0/t1/mine.txt"
set +e
wait "$BG"
STATUS=$?
set -e
cp "$OUT" "$WORK/out" && cp "$ERR" "$WORK/err"
expect_status 0
# The remove phase emptied --dir of the run's files, so the tree's directories it made go at
# the run's end (no --cleanup needed), each only if empty: rank0/t1 holds a planted file, and
# it and rank0 stay; --dir was there before, and stays.
left=$(cd "$D" && find . -mindepth 1 | sort | tr '\n' ' ')
want=$(echo "./foreign.txt ./rank0 ./rank0/t1 ./rank0/t1/mine.txt" | tr ' ' '\n' | sort |
  tr '\n' ' ')
[ "$left" = "$want" ] || fail "(b): left in --dir: $left, expected $want"
[ "$(cat "$D/rank0/t1/mine.txt")" = mine ] || fail "(b): the file planted in a leaf changed"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["points"][0]["repetitions"][0]["phases"]
n = 4 * int(sys.argv[2])
assert p["tree-create"]["directories"] == 3 * int(sys.argv[2]), p["tree-create"]
assert [p[k]["files"] for k in ("write", "stat", "read", "remove")] == [n] * 4, p
assert p["read"]["bytes"] == 33 * n, p["read"]
' "$WORK/out" "$RANKS" || fail "(b): the report's counts"

# (c) ---------------------------------------------------------------------------------------
# interrupt NAME SIGNAL CALL PHASES WHEN [ARGS...]: mpiwrite -d $WORK/NAME --cleanup in the
# background, each rank under strace -P (the paths in $PATHS; each rank's calls into
# $WORK/NAME.trace.RANK) delaying CALL by 0.5 s, and a watcher that sends SIGNAL to the ranks
# (not to mpiexec, which would turn it into SIGTERM and kill them 2 s later) once `WHEN NAME`
# holds (the phase has begun), or leaves $WORK/NAME.missed.
declare -A LAUNCHED WATCHER
interrupt() {
  local name=$1 signal=$2 call=$3 phases=$4 when=$5 p
  shift 5
  local d=$WORK/$name
  local -a only=()
  for p in $PATHS; do only+=(-P "$p"); done
  mkdir "$d" && echo keep >"$d/foreign.txt"
  # shellcheck disable=SC2016,SC2086  # $0/$@ are the inner shell's; MPIEXEC holds flags
  timeout --kill-after=10 120 $MPIEXEC -n "$RANKS" bash -c \
    'exec strace -f -qq -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$WORK/$name.trace" \
    "${only[@]}" -e trace="$call" -e inject="$call":delay_enter=500000 \
    "$MPIWRITE" -d "$d" --phases "$phases" --cleanup -o "$WORK/$name.json" --format json \
    --markdown "$WORK/$name.md" "$@" \
    >"$WORK/$name.out" 2>"$WORK/$name.err" &
  LAUNCHED[$name]=$!
  # shellcheck disable=SC2086  # PIDS: one word per rank
  {
    if ! { ranks_of "$d" && wait_until 90 "$when" "$name" && kill "-$signal" $PIDS; }; then
      touch "$WORK/$name.missed"
    fi
  } &
  WATCHER[$name]=$!
}
# ranks_of DIR: the pids of the ranks writing into DIR, into PIDS, looked up before they are
# needed (pgrep took 3 s on the loaded machine: longer than a phase).
ranks_of() {
  local k
  for ((k = 0; k < 500; k++)); do
    PIDS=$(pgrep -f -- "^$MPIWRITE -d $1 " | tr '\n' ' ')
    [ "$(wc -w <<<"$PIDS")" -eq "$RANKS" ] && return 0
    sleep 0.3
  done
  return 1
}
# finished NAME SIGNAL PHASE CALL MAX: the run's exit, report (interrupted, no repetition, and
# `interrupted_in` and the text line name PHASE of repetition 1) and trace (the phase's calls,
# lines matching the regex CALL, made 1 .. MAX - 1 times: the phase began and did not finish;
# MAX empty: not checked), and nothing left in its --dir.
finished() {
  local name=$1 signal=$2 phase=$3 call=$4 max=$5 status n
  set +e
  wait "${WATCHER[$name]}"
  wait "${LAUNCHED[$name]}"
  status=$?
  set -e
  [ ! -e "$WORK/$name.missed" ] || fail "$name: the phase never began, or no rank to signal"
  local code=130
  [ "$signal" = INT ] || code=143
  [ "$status" -eq "$code" ] || fail "$name: exit $status, expected $code: $(cat "$WORK/$name.err")"
  python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
assert report["interrupted"] == "SIG" + sys.argv[2], report["interrupted"]
assert report["points"][0]["repetitions"] == [], "an interrupted repetition was reported"
cut = {"phase": sys.argv[3], "point": report["points"][0]["label"], "repetition": 1,
       "warmup": False}
assert cut["point"].startswith(sys.argv[4] + "x1"), cut  # 2x1, or 2x1-rank with a tree
assert report["interrupted_in"] == cut, report["interrupted_in"]
' "$WORK/$name.json" "$signal" "$phase" "$RANKS" ||
    fail "$name: the report $(head -c 300 "$WORK/$name.json") ... $(grep -o '"interrupted_in.*' "$WORK/$name.json")"
  # The human reports' line (markdown's, as the table's), written by the same run.
  grep -qE "^- INTERRUPTED by SIG$signal in the $phase phase of ${RANKS}x1(-rank)? rep 1: " \
    "$WORK/$name.md" ||
    fail "$name: the markdown report's line: $(grep INTERRUPTED "$WORK/$name.md")"
  if [ -n "$max" ]; then
    n=$(cat "$WORK/$name.trace".* | grep -cE "^[0-9]+ +$call" || true)
    if [ "$n" -lt 1 ] || [ "$n" -ge "$max" ]; then
      fail "$name: $n calls of $call, not 1 .. $((max - 1))"
    fi
  fi
  # The background rm of the trash (if any) may outlive the ranks by a moment.
  wait_until 10 test -z "$(left_in "$WORK/$name")" || fail "$name: left $(left_in "$WORK/$name")"
  [ "$(cat "$WORK/$name/foreign.txt")" = keep ] || fail "$name: the planted file changed"
}
# The conditions that a run NAME's phase has begun (each phase then lasts >= 1.5 s more).
dir_made() { test -d "$WORK/$1/rank0"; }           # tree-create made its first directory
file_made() { test -f "$WORK/$1/write1.txt"; }     # write created its first file
all_written() { [ "$(files_in "$WORK/$1")" -eq "$N" ] && sleep 0.6; }  # + the first call
one_removed() {
  wait_until 60 all_written "$1" && wait_until 60 test "$(files_in "$WORK/$1")" -lt "$N"
}
leaf_removed() {  # rank 0's 4 leaves made, then one of them removed
  wait_until 60 test -d "$WORK/$1/rank0/t3" && wait_until 60 leaf_gone "$WORK/$1/rank0"
}
leaf_gone() { ! { [ -d "$1/t0" ] && [ -d "$1/t1" ] && [ -d "$1/t2" ] && [ -d "$1/t3" ]; }; }

note "(c) a signal inside each phase: exit 128 + signal, report interrupted, nothing left"
F=8 N=$((8 * RANKS))
tree=(--layout rank --tree-depth 1 --branch 4)
# tree-create: the layout's 5 directories per rank (rank<r> made through --dir's descriptor,
# its leaves through rank<r>'s), each mkdirat 0.5 s.
PATHS="$WORK/tc $(for ((r = 0; r < RANKS; r++)); do printf '%s ' "$WORK/tc/rank$r"; done)"
interrupt tc INT mkdirat tree-create,write dir_made --files-per-rank $F "${tree[@]}"
# write: every creating open (openat of --dir's descriptor) 0.5 s.
PATHS="$WORK/wr"
interrupt wr INT openat write file_made --files-per-rank $F
# stat: every statx 0.5 s, once the files are all written.
PATHS="$WORK/st"
interrupt st INT statx write,stat all_written --files-per-rank $F
# read: every read of a file 0.5 s (the files' own paths: reads elsewhere are not slowed),
# by SIGINT and, in a second run, by SIGTERM.
PATHS=$(for ((i = 1; i <= N; i++)); do printf '%s ' "$WORK/rd/write$i.txt"; done)
interrupt rd INT read write,read all_written --files-per-rank $F
PATHS=$(for ((i = 1; i <= N; i++)); do printf '%s ' "$WORK/rt/write$i.txt"; done)
interrupt rt TERM read write,read all_written --files-per-rank $F
# remove, the run's last phase: every unlinkat in --dir 0.5 s; signalled once a file is gone.
PATHS="$WORK/rm"
interrupt rm INT unlinkat write,remove one_removed --files-per-rank $F
# tree-remove, the last phase: the rmdirs of the leaves (through rank<r>'s descriptor) 0.5 s.
PATHS=$(for ((r = 0; r < RANKS; r++)); do printf '%s ' "$WORK/tr/rank$r"; done)
interrupt tr INT unlinkat tree-create,write,remove,tree-remove leaf_removed --files-per-rank 1 \
  "${tree[@]}"

finished tc INT tree-create 'mkdirat\(' $((5 * RANKS))
finished wr INT write 'openat\([0-9]+, "write[0-9]+\.txt", O_WRONLY\|O_CREAT' "$N"
finished st INT stat 'statx\([0-9]+, "write' "$N"
finished rd INT read 'read\(' $((2 * N))
finished rt TERM read 'read\(' $((2 * N))
# remove and tree-remove: the --cleanup after the signal makes the same calls; the signal came
# once the phase had begun, and it is the last phase: the repetition did not complete.
finished rm INT remove '' ''
finished tr INT tree-remove '' ''

# (d) ---------------------------------------------------------------------------------------
# (d) and (e) end in an I/O failure (exit 1), after which mpirun waits odls_base_sigkill_timeout
# (1 s) twice before it exits, though every rank has exited: 2 s a run that test nothing of
# mpiwrite's (as in clobber.sh). (c) is over: its signals keep the default.
export OMPI_MCA_odls_base_sigkill_timeout=0
# (d) and (e)'s three runs side by side: each mostly waits on rank 1's slow writes (1.2 s after
# rank 0's last file), in which the test changes rank 0's files; the changes are a moment apart.
cases=(deleted fifo-posix)
uring_built && cases+=(fifo-uring)
declare -A bg_of
for name in "${cases[@]}"; do
  case $name in
    deleted) args=(--phases write,read,remove) ;;
    fifo-*) args=(--phases write,read --verify --engine "${name#fifo-}") ;;
  esac
  LIMIT=90 start_bg "$name" -d "$WORK/$name" --files-per-rank 4 --slow-rank 1 \
    --slow-delay-us 300000 "${args[@]}"
  bg_of[$name]=$BG
done
for name in "${cases[@]}"; do
  D=$WORK/$name
  wait_until 60 test -f "$D/write4.txt" || fail "($name): rank 0 never wrote write4.txt"
  case $name in
    deleted) rm "$D/write2.txt" ;;
    fifo-*) rm "$D/write1.txt" && mkfifo "$D/write1.txt" ;;
  esac
done
uring_built || skip_uring_case "(e) uring: a FIFO at rank 0's write1.txt"

note "(d) a file of rank 0 deleted while rank 1 writes: the read phase fails on it, exit 1"
D=$WORK/deleted
set +e
wait "${bg_of[deleted]}"
STATUS=$?
set -e
cp "$WORK/deleted.out" "$WORK/out" && cp "$WORK/deleted.err" "$WORK/err"
expect_status 1
# Rank r reads rank r + 1's files (--shift 1): rank RANKS - 1 reads rank 0's.
grep -qxF "mpiwrite: error: rank $((RANKS - 1)): $D/write2.txt: open: No such file or directory" \
  "$WORK/err" || fail "(d): no line for the deleted file: $(cat "$WORK/err")"
[ "$(error_lines)" -eq 1 ] || fail "(d): $(error_lines) error lines, expected 1"

# (e) ---------------------------------------------------------------------------------------
for name in "${cases[@]:1}"; do
  engine=${name#fifo-}
  note "(e) $engine: a FIFO at rank 0's write1.txt before the read phase: exit 1, no hang"
  D=$WORK/$name
  set +e
  wait "${bg_of[$name]}"
  STATUS=$?
  set -e
  cp "$WORK/$name.out" "$WORK/out" && cp "$WORK/$name.err" "$WORK/err"
  if [ "$engine" = uring ] && [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
    echo "SKIP (uring part only): $(cat "$WORK/err")"
    continue
  fi
  if [ "$STATUS" -eq 124 ] || [ "$STATUS" -eq 137 ]; then fail "(e) $engine: the FIFO hung"; fi
  expect_status 1
  grep -qF "rank $((RANKS - 1)): verify: 1 of 4 files read wrong: $D/write1.txt: read 0 bytes" \
    "$WORK/err" || fail "(e) $engine: no line for the FIFO: $(cat "$WORK/err")"
  rm -f "$D/write1.txt"
done
echo "PASS"
