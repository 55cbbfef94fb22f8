#!/usr/bin/env bash
# --progress (docs/metrics.md, "Live progress"): lines on stderr at the interval, from rank 0
# only, naming the phase (write, verify, removal; stat, read, remove of --phases); none on
# stdout, none without the option on a non-terminal; the in-place form (\r, clear to the end
# of the line) on a pseudo-terminal (script -q); and the report the same with and without it.
# Counts are loose bounds on lines, not timings. Usage: progress.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "SKIP: no script(1)"; exit 77; }

# (a) The write phase made to last ~1.5 s: the last rank sleeps 2 ms after each of its 750
# files. --tag-output prefixes every line with the rank that printed it; the report goes to
# -o (stdout is tagged too, in pieces).
note "write phase of ~1.5 s, --progress=0.2, lines tagged by rank"
slow=$((RANKS - 1))
set +e
# shellcheck disable=SC2086  # MPIEXEC holds the launcher and its flags
timeout --kill-after=10 90 $MPIEXEC --tag-output -n "$RANKS" "$MPIWRITE" -d "$WORK/a" \
  -n $((750 * RANKS)) -l 1 --slow-rank "$slow" --slow-delay-us 2000 --progress=0.2 \
  --format json -o "$WORK/a.json" --cleanup ${MPIWRITE_ARGS:-} >"$WORK/a.out" 2>"$WORK/a.err"
STATUS=$?
set -e
[ "$STATUS" -eq 0 ] || { cat "$WORK/a.err" >&2; fail "exit code $STATUS"; }
python3 - "$WORK/a.err" "$WORK/a.out" "$WORK/a.json" "$RANKS" <<'PY'
import json, re, sys
err, out, report, ranks = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read(), \
    json.load(open(sys.argv[3])), int(sys.argv[4])
lines = [l for l in err if "mpiwrite: progress:" in l]
others = [l for l in lines if not l.startswith("[1,0]<stderr>:")]
if others: sys.exit(f"FAIL: progress from another rank than 0 (or not on stderr): {others[:3]}")
if "mpiwrite: progress" in out: sys.exit("FAIL: a progress line on standard output")
write = [l for l in lines if ": write " in l]
makespan = report["points"][0]["repetitions"][0]["makespan_s"]
bound = int(makespan / 0.2) + 2
print(f"{len(write)} write lines in a write phase of {makespan:.2f} s (at most {bound})")
for l in write[:3] + write[-1:]: print("  ", l)
if not 3 <= len(write) <= bound: sys.exit(f"FAIL: {len(write)} write lines, expected 3..{bound}")
total = 750 * ranks
shape = re.compile(r"write \d+x\d+ rep 1/1: (\d+)/%d files \(\d+%%\), "
                   r"([0-9.]+ files/s now, [0-9.]+ files/s mean, (ETA [0-9:.]+( s)?|ETA \?)|"
                   r"[0-9.]+ files/s mean, done in [0-9:.]+( s)?)$" % total)
done = []
for l in write:
    m = shape.search(l)
    if not m: sys.exit(f"FAIL: a line not of the documented form: {l}")
    done.append(int(m.group(1)))
if done != sorted(done): sys.exit(f"FAIL: files done went down: {done}")
if done[-1] != total or "done in" not in write[-1]:
    sys.exit(f"FAIL: the last line is not the phase's end: {write[-1]}")
PY

# (b) Verify and removal on the main thread report too: 10,000 one-line files take well
# over 10 ms to read back and to remove (at least 1 µs a file), so --progress=0.01 shows
# lines in every phase. The same run without --progress: no line, and the same report.
note "write, verify and removal at --progress=0.01, and the same run without it"
run_mpiwrite -d "$WORK/b" -n 10000 -l 1 --verify --cleanup --progress=0.01 --format json
expect_status 0
cp "$WORK/out" "$WORK/b.json"
cp "$WORK/err" "$WORK/b.err"
run_mpiwrite -d "$WORK/c" -n 10000 -l 1 --verify --cleanup --format json
expect_status 0
python3 - "$WORK/b.json" "$WORK/b.err" "$WORK/out" "$WORK/err" <<'PY'
import json, sys
with_p, err_p, without, err = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), \
    json.load(open(sys.argv[3])), open(sys.argv[4]).read()
for phase in ("write", "verify", "removal"):
    n = sum(1 for l in err_p.splitlines() if l.startswith(f"mpiwrite: progress: {phase}"))
    print(f"{phase}: {n} lines at 0.01 s")
    if n < 1: sys.exit(f"FAIL: no progress line for the {phase} phase")
if "mpiwrite: progress" in err:
    sys.exit(f"FAIL: progress without --progress on a pipe: {err[:200]}")
def figures(r):
    rep = r["points"][0]["repetitions"][0]
    c = dict(r["config"])
    c.pop("dir")
    return c, rep["files"], rep["bytes"], rep["verify"]["files_checked"], \
        r["cleanup"]["files_removed"]
a, b = figures(with_p), figures(without)
if a != b: sys.exit(f"FAIL: --progress changed the report: {a} vs {b}")
print("report unchanged:", a[1:])
PY

# (b2) The other phases report as the write phase does: each item on the last rank slowed by
# 20 us (a sleep: ~60-100 us here) makes every files phase last well over 10 ms.
note "stat, read and remove at --progress=0.01"
run_mpiwrite -d "$WORK/d" -n $((500 * RANKS)) -l 1 --phases write,stat,read,remove \
  --slow-rank $((RANKS - 1)) --slow-delay-us 20 --progress=0.01 --format json
expect_status 0
python3 - "$WORK/err" "$((500 * RANKS))" <<'PY'
import re, sys
err, total = open(sys.argv[1]).read().splitlines(), int(sys.argv[2])
for phase in ("stat", "read", "remove"):
    lines = [l for l in err if l.startswith(f"mpiwrite: progress: {phase} ")]
    print(f"{phase}: {len(lines)} lines at 0.01 s")
    if not lines: sys.exit(f"FAIL: no progress line for the {phase} phase")
    if f"{total}/{total} files" not in lines[-1] or "done in" not in lines[-1]:
        sys.exit(f"FAIL: the {phase} phase's last line is not its end: {lines[-1]}")
PY

# (c) A pseudo-terminal: mpirun's ranks see a pipe on stderr, so --progress-style tty
# asks for the in-place form; a plain process (no mpirun) finds the terminal itself, and
# prints progress without being asked (that JSON turns the default off is a unit test's).
note "on a pseudo-terminal: --progress-style tty under mpiexec"
# shellcheck disable=SC2086
timeout --kill-after=10 90 script -q -e -c "$MPIEXEC -n $RANKS $MPIWRITE -d $WORK/d \
  -n $((400 * RANKS)) -l 1 --slow-rank $slow --slow-delay-us 2000 --progress=0.2 \
  --progress-style tty --cleanup >$WORK/d.out" "$WORK/d.tty" >/dev/null
python3 - "$WORK/d.tty" "$WORK/d.out" <<'PY'
import sys
tty, out = open(sys.argv[1], "rb").read(), open(sys.argv[2]).read()
n = tty.count(b"\rmpiwrite: progress: write")
print(f"{n} in-place updates")
if n < 2 or b"\x1b[K" not in tty: sys.exit(f"FAIL: no in-place progress line on the terminal: {tty[-300:]!r}")
if "mpiwrite: progress" in out: sys.exit("FAIL: progress on standard output")
PY
if [ "$RANKS" -eq 1 ]; then
  note "a plain process on a pseudo-terminal: on by default, every 1 s, in place"
  timeout --kill-after=10 90 script -q -e -c "$MPIWRITE -d $WORK/e -n 1100 -l 1 \
    --slow-rank 0 --slow-delay-us 1000 --cleanup >$WORK/e.out" "$WORK/e.tty" >/dev/null
  grep -q $'\rmpiwrite: progress: write 1x1 rep 1/1' "$WORK/e.tty" ||
    fail "no default progress on a terminal: $(tail -c 300 "$WORK/e.tty")"
fi
echo "PASS"
