#!/usr/bin/env bash
# Interrupts with a removal slower than mpirun's kill (docs/errors.md, "Faults during a run"):
# the ranks run under strace, which delays every unlinkat (and, in the verify case, every
# read) by milliseconds, so that removing a few hundred scratch files lasts longer than the
# ~2 s mpirun waits between forwarding SIGTERM and killing the ranks. (It took 200,000 files
# on a tmpfs, a minute of CI, before; big-scale runs belong to the benchmark.) In every phase
# — write, verify, removal, and a --compare — a signal must leave the report of what
# completed on standard output and in the -o file, marked interrupted, and no scratch
# directory once the background removal has run, although the ranks themselves are killed.
# The background removal is the ranks' child, so it is traced and slow too until mpirun's
# kill ends strace. Checked from outside: the report text, the files on disk, the processes
# left. Needs strace; exits 77 otherwise. Usage: interrupt_scale.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

strace -f -qq -o /dev/null true 2>/dev/null ||
  { echo "SKIP: strace missing or not permitted"; exit 77; }
MNT=$WORK/mnt
mkdir "$MNT"
trap 'pkill -f -- "$MNT" 2>/dev/null || true; cleanup_work' EXIT

N=${INTERRUPT_FILES:-400}
# 10 ms per unlinkat: each rank's share of a repetition (N / RANKS files) takes seconds to
# remove while strace lives.
SLOW_UNLINK=unlinkat:delay_enter=10000
SLOW_UNLINK_READ=unlinkat,read:delay_enter=10000
LIMIT=120
REAL_MPIWRITE=$MPIWRITE

# start_traced NAME INJECT ARGS...: start_bg with each rank under strace -f, INJECT its -e
# inject= spec (strace's own output is of no use: buffered, and lost when mpirun kills it).
# Not --seccomp-bpf: it implies --kill-on-exit, and mpirun's kill of strace would then kill
# the background removal, the very process whose survival is checked.
start_traced() {
  local name=$1 inject=$2
  shift 2
  # shellcheck disable=SC2016  # expanded by the rank's shell
  MPIWRITE="sh" start_bg "$name" -c \
    'i=$1; shift; exec strace -f -qq -e trace=unlinkat,read -e inject="$i" -o /dev/null "$@"' \
    traced "$inject" "$REAL_MPIWRITE" "$@"
}
# ranks: the mpiwrite processes (under strace, itself mpiexec's child), to signal them as a
# batch system does.
ranks() { pgrep -P "$(pgrep -P "$MPIRUN_PID" | paste -sd, -)"; }

finish() {
  set +e
  wait "$BG"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$ERR" >&2; fail "hung (exit $STATUS)"; }
  [ "$STATUS" -ne 0 ] || fail "exit code 0 after a signal"
}
# poll PYTHON-CONDITION: waits (up to 60 s, while the run goes on) until the condition on the
# directory D holds.
poll() {
  python3 - "$1" "$2" "$BG" "$MPIRUN_PID" <<'PY' || fail "waited in vain for: $2"
import os, re, sys, time
d, condition, pid, mpirun = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def children(pid):
    try:
        return open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        return []
def verifying():  # a rank holds a written file open read-only: the verify phase has begun
    for rank in (r for c in children(mpirun) for r in children(c)):  # mpiexec > strace > rank
        try:
            for fd in os.listdir(f"/proc/{rank}/fd"):
                if re.search(r"/write\d+\.txt$", os.readlink(f"/proc/{rank}/fd/{fd}")):
                    flags = open(f"/proc/{rank}/fdinfo/{fd}").read().split("flags:")[1].split()[0]
                    if int(flags, 8) & 3 == os.O_RDONLY:
                        return True
        except (OSError, IndexError):
            pass
    return False
def count(path):
    try:
        return sum(1 for _ in os.scandir(path))
    except FileNotFoundError:
        return 0
def scratch(step):
    roots = [e.path for e in os.scandir(d) if e.name.startswith(".mpiwrite-")] if os.path.isdir(d) else []
    return count(os.path.join(roots[0], step)) if roots else 0
def steps():
    roots = [e.path for e in os.scandir(d) if e.name.startswith(".mpiwrite-")] if os.path.isdir(d) else []
    return count(roots[0]) if roots else 0
end = time.time() + 60
while time.time() < end:
    if eval(condition):
        sys.exit(0)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(1)
    time.sleep(0.02)
sys.exit(1)
PY
}
# expect_no_scratch DIR: the background removal finishes within 60 s; no process is left.
expect_no_scratch() {
  local k left
  for ((k = 0; k < 600; k++)); do
    left=$(find "$1" -mindepth 1 -maxdepth 1 -name '.mpiwrite-*' 2>/dev/null | head -n 1 || true)
    [ -n "$left" ] || break
    sleep 0.1
  done
  [ -z "$left" ] || fail "scratch left 60 s after the run: $left"
  note "scratch gone $((k * 100)) ms after mpiexec exited"
  for ((k = 0; k < 50; k++)); do
    pgrep -f -- "$REAL_MPIWRITE.*$1" >/dev/null || return 0
    sleep 0.1
  done
  fail "ranks left: $(pgrep -af -- "$1")"
}
# json_check FILE PYTHON: the report parses, and the assertions hold (doc is the report).
json_check() {
  python3 - "$1" "$2" <<'PY' || fail "bad report $1: $(head -c 600 "$1")"
import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[2])
PY
}

note "(a) SIGINT to mpiexec during the third of 3 repetitions of $N files (table, -o)"
d=$MNT/a
start_traced a "$SLOW_UNLINK" -d "$d" -n "$N" -l 1 --write-mode whole -r 3 -o "$WORK/a.report"
poll "$d" 'os.path.exists(os.path.join(d, "write1.txt"))'
kill -INT "$MPIRUN_PID"
finish
grep -q '^INTERRUPTED by SIGTERM' "$OUT" || fail "no INTERRUPTED line on stdout: $(head -c 400 "$OUT"; cat "$ERR")"
# mpirun passes the signal on 1 s later: the third repetition (a fraction of a second) has
# mostly completed by then, and the signal lands in the (slow) removal phase instead.
rows=$(grep -cE '^ +[0-9]+ +[0-9.]+ ' "$OUT" || true)
if [ "$rows" -eq 3 ]; then
  grep -q '^scratch files: being removed in the background' "$OUT" ||
    fail "3 repetitions but not interrupted in the removal phase: $(cat "$OUT")"
  note "the signal reached the ranks in the removal phase (all 3 repetitions completed)"
else
  [ "$rows" -eq 2 ] || fail "expected 2 repetition rows (or 3): $(cat "$OUT")"
fi
grep -q "files written per repetition: $N" "$OUT" || fail "no totals line: $(cat "$OUT")"
cmp -s "$OUT" "$WORK/a.report" || fail "the -o copy differs from standard output"
expect_no_scratch "$d"
bad=$(find "$d" -maxdepth 1 -type f ! -size 14c | head -n 3)
[ -z "$bad" ] || fail "incomplete files left in --dir: $bad"
note "exit $STATUS; $(grep -c . "$OUT") report lines"
rm -rf "$d"

note "(b) SIGTERM to mpiexec during --compare (JSON)"
d=$MNT/b
start_traced b "$SLOW_UNLINK" -d "$d" -n $((N / 2)) -l 1 --write-mode whole -r 3 --compare --format json
poll "$d" 'steps() >= 3'
kill -TERM "$MPIRUN_PID"
finish
# Without -o the whole report is in the copy the report names; standard output holds what
# mpiexec forwarded after its signal (~12 KB, less than this report): a prefix of the copy.
copy=$(compgen -G "$d/mpiwrite-interrupted-*.json" | head -n 1 || true)
[ -n "$copy" ] || fail "no saved copy of the report: $(ls -A "$d" | head -n 3)"
head -c "$(wc -c <"$OUT")" "$copy" | cmp -s - "$OUT" || fail "standard output is not the start of the copy"
note "standard output $(wc -c <"$OUT") bytes, the copy $(wc -c <"$copy") bytes"
json_check "$copy" '
assert doc["interrupted"] == "SIGTERM", doc["interrupted"]
reps = [len(p["repetitions"]) for p in doc["points"]]
# mpirun passes the signal on 1 s later: if every step completed by then, it landed in removal
assert any(reps) and (not all(r == 3 for r in reps) or doc["cleanup"]["in_background"]), reps
assert all(r["files"] == doc["config"]["files"] for p in doc["points"] for r in p["repetitions"])
print("-- repetitions per point:", reps)'
expect_no_scratch "$d"
rm -rf "$d"

# mpiexec forwards a signal to the ranks 1 s after it gets it (SIGCONT first) and kills them
# 1 s later; so (c) to (f) signal the ranks themselves, as a batch system does, in the phase
# they name.
note "(c) SIGTERM to the ranks during the verify phase of $N files"
d=$MNT/c
# 10 ms per read as well: the verify phase (one read per file) lasts seconds. It has begun
# when a rank holds a written file open read-only (/proc, every 20 ms; the writes hold theirs
# write-only).
start_traced c "$SLOW_UNLINK_READ" -d "$d" -n "$N" -l 1 --write-mode whole \
  --verify --format json
poll "$d" "verifying()"
# shellcheck disable=SC2046
# shellcheck disable=SC2046
kill -TERM $(ranks)
finish
json_check "$OUT" '
assert doc["interrupted"] == "SIGTERM", doc["interrupted"]
assert doc["points"][0]["repetitions"] == [], "a repetition verified only in part was reported"'
expect_no_scratch "$d"
rm -rf "$d"

note "(d) SIGTERM to the ranks during the removal phase (3 repetitions of $N files)"
d=$MNT/d
start_traced d "$SLOW_UNLINK" -d "$d" -n "$N" -l 1 --write-mode whole -r 3 --format json
poll "$d" "count(d) >= $N and 0 < scratch(\"r1\") < $N"
# shellcheck disable=SC2046
kill -TERM $(ranks)
finish
json_check "$OUT" '
assert doc["interrupted"] == "SIGTERM", doc["interrupted"]
assert len(doc["points"][0]["repetitions"]) == 3
assert doc["cleanup"]["in_background"] is True, doc["cleanup"]'
expect_no_scratch "$d"
[ "$(find "$d" -maxdepth 1 -type f -size 14c | wc -l)" -eq "$N" ] || fail "the last repetition's files are not all in --dir"
rm -rf "$d"

note "(e) SIGTERM to the ranks during the last repetition, --cleanup of a --dir mpiwrite made"
d=$MNT/e
# --slow-rank: 10 ms per file, so that the last repetition lasts seconds too.
start_traced e "$SLOW_UNLINK" -d "$d" -n "$N" -l 1 --write-mode whole -r 2 --cleanup --format json \
  --slow-rank "$(seq -s, 0 $((RANKS - 1)))" --slow-delay-us 10000
poll "$d" 'os.path.exists(os.path.join(d, "write1.txt"))'
# shellcheck disable=SC2046
# shellcheck disable=SC2046
kill -TERM $(ranks)
finish
json_check "$OUT" 'assert doc["interrupted"] == "SIGTERM" and len(doc["points"][0]["repetitions"]) == 1'
! grep '^mpiwrite: error:' "$ERR" || fail "an error after the interrupt"
for ((k = 0; k < 600; k++)); do [ -e "$d" ] || break; sleep 0.1; done
[ ! -e "$d" ] || fail "--dir left 60 s after the run: $(ls -A "$d" | head -n 3)"
note "--dir gone $((k * 100)) ms after mpiexec exited"
rm -rf "$d"

note "(f) SIGTERM to the ranks during the first (scratch) repetition, --cleanup of a --dir mpiwrite made"
d=$MNT/f
start_traced f "$SLOW_UNLINK" -d "$d" -n "$N" -l 1 --write-mode whole -r 3 --cleanup --format csv \
  --slow-rank "$(seq -s, 0 $((RANKS - 1)))" --slow-delay-us 10000
poll "$d" 'scratch("r1") > 20'
# shellcheck disable=SC2046
# shellcheck disable=SC2046
kill -TERM $(ranks)
finish
grep -q '^interrupted,SIGTERM,' "$OUT" || fail "the CSV does not say it was interrupted: $(tail -n 2 "$OUT")"
for ((k = 0; k < 600; k++)); do [ -e "$d" ] || break; sleep 0.1; done
[ ! -e "$d" ] || fail "--dir left 60 s after the run: $(ls -A "$d" | head -n 3)"
note "(g) SIGINT to mpiexec with a report larger than mpiexec forwards after its signal (JSON)"
# mpiexec passes on ~12 KB of standard output after it got the signal, then no more: the -o
# file, or without -o a copy in --dir that the report names at its top, has all of it.
# 100 repetitions (~2 KB of JSON each) are 20 times what mpiexec passes on; 1,000 took 30 s.
for with_o in yes no; do
  d=$MNT/g-$with_o
  o=()
  [ "$with_o" = yes ] && o=(-o "$WORK/g.json")
  start_bg "g-$with_o" -d "$d" -n 20 -l 1 -r 100000 --compare --format json "${o[@]}"
  poll "$d" 'steps() >= 100'
  kill -INT "$MPIRUN_PID"
  finish
  if [ "$with_o" = yes ]; then copy=$WORK/g.json; else copy=$(compgen -G "$d/mpiwrite-interrupted-*.json" | head -n 1); fi
  [ -n "$copy" ] && [ -s "$copy" ] || fail "no complete copy of the report: $(ls -A "$d" | head -n 3)"
  json_check "$copy" '
assert doc["interrupted"] in ("SIGINT", "SIGTERM"), doc["interrupted"]
assert sum(len(p["repetitions"]) for p in doc["points"]) >= 90
print("-- complete report:", sum(len(p["repetitions"]) for p in doc["points"]), "repetitions")'
  if [ "$with_o" = no ]; then
    grep -q "\"report_copy\": \"$copy\"" "$OUT" || fail "standard output does not name the copy: $(head -c 800 "$OUT")"
  fi
  note "standard output: $(wc -c <"$OUT") bytes; the copy: $(wc -c <"$copy") bytes"
  expect_no_scratch "$d"
  rm -rf "$d"
done
echo "PASS"
