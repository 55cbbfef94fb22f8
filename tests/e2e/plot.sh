#!/usr/bin/env bash
# scripts/plot.py draws the JSON reports of --sweep-threads and --compare into PNGs, and
# refuses a single-point run with exit code 2.
# Needs a python3 with matplotlib (Debian: python3-matplotlib); exits 77 (skipped) otherwise.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

PLOT="$(dirname "$0")/../../scripts/plot.py"
[ -f "$PLOT" ] || fail "no $PLOT"

# The python that has matplotlib: $PLOT_PYTHON, then Debian's, then whatever python3 is
# first on PATH (a pyenv shim there often lacks Debian's packages).
PY=""
for candidate in "${PLOT_PYTHON:-}" /usr/bin/python3 python3; do
  [ -n "$candidate" ] || continue
  command -v "$candidate" >/dev/null 2>&1 || continue
  if "$candidate" -c 'import matplotlib' >/dev/null 2>&1; then
    PY=$candidate
    break
  fi
done
[ -n "$PY" ] || { echo "SKIP: no python3 with matplotlib (apt-get install python3-matplotlib)"; exit 77; }
note "plotting with $PY"

# plot.py REPORT... -o OUT; sets PLOT_STATUS, leaves stderr in $WORK/plot.err.
run_plot() {
  set +e
  "$PY" "$PLOT" "$@" >"$WORK/plot.out" 2>"$WORK/plot.err"
  PLOT_STATUS=$?
  set -e
}

# A PNG of plausible size: the signature, then the IHDR width and height.
expect_png() {
  local png=$1
  [ -s "$png" ] || fail "$png is missing or empty"
  "$PY" - "$png" <<'PY' || fail "$png is not a plausible plot"
import struct, sys
path = sys.argv[1]
with open(path, "rb") as f:
    head = f.read(24)
if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
    sys.exit(f"FAIL: {path} does not start with the PNG signature and IHDR: {head[:16]!r}")
width, height = struct.unpack(">II", head[16:24])
if width < 800 or height < 400:
    sys.exit(f"FAIL: {path} is {width}x{height} pixels, expected at least 800x400")
print(f"{path}: {width}x{height} PNG")
PY
}

# The report is JSON of schema_version 5 and the given kind.
expect_kind() {
  "$PY" - "$1" "$2" <<'PY' || fail "$1 is not a $2 report"
import json, sys
path, kind = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
if doc.get("schema_version") != 5 or doc.get("kind") != kind:
    sys.exit(f"FAIL: schema_version {doc.get('schema_version')!r}, kind {doc.get('kind')!r}")
if not doc.get("points"):
    sys.exit("FAIL: no points")
PY
}

note "thread sweep 1,2 at $RANKS ranks, plotted"
run_mpiwrite -d "$WORK/sweep" -n 20 -l 5 -r 2 --sweep-threads 1,2 --format json -o "$WORK/sweep.json"
expect_status 0
expect_kind "$WORK/sweep.json" sweep
run_plot "$WORK/sweep.json" -o "$WORK/sweep.png"
[ "$PLOT_STATUS" -eq 0 ] || { cat "$WORK/plot.err" >&2; fail "plot.py on the sweep exited $PLOT_STATUS"; }
expect_png "$WORK/sweep.png"

note "processes vs threads vs hybrid at $RANKS ranks, -t 2, plotted"
run_mpiwrite -d "$WORK/compare" -n 20 -l 5 -r 2 --compare -t 2 --format json -o "$WORK/compare.json"
expect_status 0
expect_kind "$WORK/compare.json" compare
run_plot "$WORK/compare.json" -o "$WORK/compare.png"
[ "$PLOT_STATUS" -eq 0 ] || { cat "$WORK/plot.err" >&2; fail "plot.py on the comparison exited $PLOT_STATUS"; }
expect_png "$WORK/compare.png"

note "a single-point run: nothing to plot, exit 2, one line"
run_mpiwrite -d "$WORK/run" -n 20 -l 5 -r 2 --format json -o "$WORK/run.json"
expect_status 0
run_plot "$WORK/run.json" -o "$WORK/run.png"
[ "$PLOT_STATUS" -eq 2 ] || { cat "$WORK/plot.err" >&2; fail "plot.py on a run exited $PLOT_STATUS, expected 2"; }
grep -q "nothing to plot: a single-point run" "$WORK/plot.err" || fail "unclear message: $(cat "$WORK/plot.err")"
[ "$(wc -l <"$WORK/plot.err")" -eq 1 ] || fail "expected a one-line message: $(cat "$WORK/plot.err")"
[ ! -e "$WORK/run.png" ] || fail "an image was written for a run"
echo "PASS"
