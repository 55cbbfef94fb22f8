#!/usr/bin/env python3
"""scripts/plot.py against the fixtures beside this file: exit codes, messages, PNGs.
How a report is read and refused (scripts/mpiwrite_report.py) is tested in test_report.py;
here, that plot.py turns the reader's refusals into one line and exit 2, and draws.

Run from any directory:  python3 /path/to/tests/plot/test_plot.py
or, from this directory: python3 -m unittest
plot.py runs under the first interpreter that can import matplotlib: $PLOT_PYTHON if set,
then /usr/bin/python3 (Debian's python3-matplotlib), then this one. The tests that draw
are skipped when there is none; run as a script, this then exits 77 (CTest's
SKIP_RETURN_CODE) rather than 0.
"""

import importlib.util
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

from json_tokens import with_token  # tests/plot, beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
PLOT = os.path.normpath(os.path.join(HERE, "..", "..", "scripts", "plot.py"))
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# At plot.py's default resolution (120 dpi); at another the bounds scale with it.
MIN_WIDTH = 800
MIN_HEIGHT = 400
DEFAULT_DPI = 120
# The drawings here are at half the default resolution: rasterizing and compressing the pixels
# is most of a drawing's CPU time (~0.8 s at 120 dpi), and what is checked (exit codes, files,
# sizes, what the figure holds) does not depend on it. test_sweep and test_compare draw at
# the default, so its size is still checked.
TEST_DPI = 60


def has_matplotlib(python):
    try:
        return subprocess.run([python, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def find_python():
    candidates = [os.environ.get("PLOT_PYTHON"), "/usr/bin/python3", sys.executable]
    for python in candidates:
        if python and os.path.exists(python) and has_matplotlib(python):
            return python
    return None


PYTHON = find_python()
# Reading and rejecting reports needs no matplotlib, so the error paths always run.
ANY_PYTHON = PYTHON or sys.executable


def runs_here(python):
    """Whether `python` is this interpreter, so a run of it can be a fork of this process."""
    return python is not None and os.path.realpath(python) == os.path.realpath(sys.executable)


def preload_pyplot():
    """matplotlib and pyplot imported once, before any fork: importing them costs about a
    second of CPU, which every one of ~40 separate interpreters paid again (the test took
    over two minutes on a loaded 2-core machine)."""
    if runs_here(PYTHON):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401


def run_python(python, argv, timeout=120):
    """`python ARGV` with its exit code, standard output and error, as subprocess.run gives
    them. When `python` is this interpreter, a fork of this process runs the script instead:
    the same fresh module namespace (runpy), exit code, output and traceback on an uncaught
    exception, without importing matplotlib again."""
    if not runs_here(python):
        return subprocess.run([python, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    import runpy
    import signal
    import traceback
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns into the test runner
            code = 1
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                signal.alarm(timeout)
                if argv[0] == "-c":
                    sys.argv = ["-c", *argv[2:]]
                    exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
                else:
                    sys.argv = list(argv)
                    runpy.run_path(argv[0], run_name="__main__")
                code = 0
            except SystemExit as e:
                if e.code is None:
                    code = 0
                elif isinstance(e.code, int):
                    code = e.code
                else:
                    print(e.code, file=sys.stderr)
                    code = 1
            except BaseException:  # noqa: BLE001 - what an uncaught exception does to python
                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status)
        return subprocess.CompletedProcess([python, *argv], code, out.read().decode(),
                                           err.read().decode())


def png_size(path):
    """(width, height) from the IHDR chunk, after checking the signature."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise AssertionError(f"{path} is not a PNG (starts {head[:16]!r})")
    return struct.unpack(">II", head[16:24])


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mpiwrite-plot-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def fixture(self, name):
        return os.path.join(HERE, name)

    def write_json(self, name, doc):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            if isinstance(doc, str):
                f.write(doc)
            else:
                json.dump(doc, f)
        return path

    def load_fixture(self, name):
        with open(self.fixture(name), encoding="utf-8") as f:
            return json.load(f)

    def plot(self, *reports, out="out.png", python=None, dpi=TEST_DPI):
        """plot.py REPORTS -o OUT, with --dpi DPI unless dpi is None (plot.py's default)."""
        output = os.path.join(self.tmp, out)
        resolution = [] if dpi is None else ["--dpi", str(dpi)]
        proc = run_python(python or PYTHON, [PLOT, *reports, "-o", output, *resolution])
        return proc, output

    def assert_plotted(self, *reports, out="out.png", dpi=TEST_DPI):
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib (apt-get install python3-matplotlib)")
        proc, output = self.plot(*reports, out=out, dpi=dpi)
        self.assertEqual(proc.returncode, 0, f"plot.py failed: {proc.stderr}")
        self.assertTrue(os.path.isfile(output), "no image written")
        self.assertGreater(os.path.getsize(output), 10000, "image suspiciously small")
        width, height = png_size(output)
        scale = (dpi or DEFAULT_DPI) / DEFAULT_DPI
        self.assertGreaterEqual(width, MIN_WIDTH * scale)
        self.assertGreaterEqual(height, MIN_HEIGHT * scale)
        self.assertGreater(width, height, "two panels side by side should be wide")
        leftovers = [n for n in os.listdir(self.tmp) if ".tmp-" in n]
        self.assertEqual(leftovers, [], "temporary image left behind")
        return output

    def assert_rejected(self, path, *message_parts):
        proc, output = self.plot(path, python=ANY_PYTHON)
        self.assertEqual(proc.returncode, 2, f"stderr: {proc.stderr}")
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"expected a one-line message, got: {proc.stderr}")
        for part in message_parts:
            self.assertIn(part, lines[0])
        self.assertFalse(os.path.exists(output), "an image was written for a rejected input")

    # -- the fixtures --------------------------------------------------------------------

    def test_sweep(self):
        self.assert_plotted(self.fixture("sweep.json"), dpi=None)

    def test_compare(self):
        """At the default resolution, and at --dpi 60: the same figure, half as wide in pixels
        (the bounding box's padding is in inches, so it scales too)."""
        width, height = png_size(self.assert_plotted(self.fixture("compare.json"), dpi=None))
        half = png_size(self.assert_plotted(self.fixture("compare.json"), out="half.png", dpi=60))
        self.assertAlmostEqual(half[0], width / 2, delta=4)
        self.assertAlmostEqual(half[1], height / 2, delta=4)

    def test_bad_dpi_is_refused(self):
        for dpi in ("0", "1201", "x"):
            proc, output = self.plot(self.fixture("compare.json"), python=ANY_PYTHON, dpi=dpi)
            self.assertEqual(proc.returncode, 2, f"--dpi {dpi}: {proc.stderr}")
            self.assertIn("--dpi", proc.stderr)
            self.assertFalse(os.path.exists(output), f"an image was written for --dpi {dpi}")

    def test_run_kind_is_nothing_to_plot(self):
        self.assert_rejected(self.fixture("run.json"), "nothing to plot: a single-point run")

    # -- several reports, and reports read defensively -----------------------------------

    def test_several_sweeps(self):
        doc = self.load_fixture("sweep.json")
        doc["context"]["hosts"] = [{"host": "cn042", "rank_count": 8, "ranks": list(range(8))}]
        doc["context"]["ranks"] = 8
        for p in doc["points"]:
            p["ranks"], p["concurrency"] = 8, 8 * p["threads"]
            p["summary"].pop("speedup", None)  # computed from the means instead
        other = self.write_json("sweep-cn042.json", doc)
        self.assert_plotted(self.fixture("sweep.json"), other)

    def test_several_compares_same_host(self):
        copy = self.write_json("compare-again.json", self.load_fixture("compare.json"))
        self.assert_plotted(self.fixture("compare.json"), copy)

    def test_compare_without_comparison(self):
        doc = self.load_fixture("compare.json")
        del doc["comparison"]
        self.assert_plotted(self.write_json("c.json", doc))

    def test_compare_from_comparison_only(self):
        doc = self.load_fixture("compare.json")
        del doc["points"]
        self.assert_plotted(self.write_json("c.json", doc))

    def test_compare_one_rank_no_hybrid(self):
        doc = self.load_fixture("compare.json")
        doc["points"] = [p for p in doc["points"] if p["ranks"] == 1]
        doc["context"]["ranks"] = 1
        doc["extra_field_from_the_future"] = {"x": [1, 2]}
        self.assert_plotted(self.write_json("c.json", doc))

    def test_compare_with_async_points_gets_an_async_line(self):
        doc = self.load_fixture("compare.json")
        for p in [p for p in doc["points"] if p["ranks"] == 1 and p["threads"] == 1]:
            for q in (1, 2, 4):
                doc["points"].append({**p, "mode": "async", "label": f"1x1q{q}",
                                      "engine": "uring", "queue_depth": q, "concurrency": q,
                                      "summary": {**p["summary"], "makespan_s": {
                                          **p["summary"]["makespan_s"],
                                          "mean": p["summary"]["makespan_s"]["mean"] / 10}}})
        path = self.write_json("async.json", doc)
        self.assert_plotted(path)
        # The async points form their own line and never replace the posix 1x1 baseline or
        # the processes line, although they are 1 rank x 1 thread and faster here.
        spec = importlib.util.spec_from_file_location("plot", PLOT)
        plot = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(plot)
        series = {s.mode: s for s in plot.compare_series(plot.load(path))}
        self.assertIn("async", series)
        self.assertEqual([p.label for p in series["async"].points], ["1x1q1", "1x1q2", "1x1q4"])
        self.assertTrue(all(p.mode != "async" for p in series["processes"].points))

    # -- interrupted runs: points listed but never measured ------------------------------

    def load_module(self):
        spec = importlib.util.spec_from_file_location("plot", PLOT)
        plot = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(plot)
        return plot

    def test_interrupted_compare_without_its_baseline_has_no_speedups(self):
        # 1x1 and 1x4 never measured, 2x1 once of twice (mpiwrite's own golden report).
        path = self.fixture("compare_interrupted.json")
        self.assert_plotted(path)
        plot = self.load_module()
        report = plot.load(path)
        self.assertTrue(report.baseline_unmeasured)
        self.assertEqual(sorted(label for label, _, _, _ in report.unmeasured), ["1x1", "1x4"])
        series = plot.compare_series(report)
        labels = sorted(p.label for s in series for p in s.points)
        self.assertEqual(labels, ["1x2", "2x1", "2x2"])
        # No speedup made up against another point standing in for the baseline.
        self.assertTrue(all(p.speedup is None for s in series for p in s.points))

    def test_interrupted_compare_keeps_the_speedups_of_what_was_measured(self):
        doc = self.load_fixture("compare.json")
        lost = next(p for p in doc["points"] if not (p["ranks"] == 1 and p["threads"] == 1))
        lost["repetitions"] = []
        lost["summary"] = {"repetitions_measured": 0, "repetitions_asked": 3,
                           "makespan_s": None, "speedup": None, "efficiency": None}
        path = self.write_json("c.json", doc)
        self.assert_plotted(path)
        plot = self.load_module()
        series = plot.compare_series(plot.load(path))
        self.assertNotIn(lost["label"], [p.label for s in series for p in s.points])
        self.assertTrue(all(p.speedup is not None for s in series for p in s.points))

    def test_interrupted_sweep_without_its_baseline(self):
        doc = self.load_fixture("sweep.json")
        first = min(doc["points"], key=lambda p: p["threads"])
        first["repetitions"] = []
        first["summary"] = {"repetitions_measured": 0, "repetitions_asked": 3,
                            "makespan_s": None, "speedup": None, "efficiency": None}
        for p in doc["points"]:
            p["summary"]["speedup"] = p["summary"]["efficiency"] = None
        path = self.write_json("s.json", doc)
        self.assert_plotted(path)
        plot = self.load_module()
        (series,) = plot.sweep_series(plot.load(path))
        self.assertNotIn(first["threads"], series.xs)
        self.assertTrue(all(p.speedup is None for p in series.points))

    def test_nothing_measured_is_rejected(self):
        doc = self.load_fixture("compare.json")
        for p in doc["points"]:
            p["summary"] = {"repetitions_measured": 0, "makespan_s": None}
        self.assert_rejected(self.write_json("n.json", doc), "no measured points")

    def test_microseconds_and_missing_context(self):
        doc = self.load_fixture("sweep.json")
        for p in doc["points"]:
            ms = p["summary"]["makespan_s"]
            for k in ("mean", "median", "min", "max"):
                ms[k] /= 1000.0
        del doc["context"]
        del doc["config"]
        self.assert_plotted(self.write_json("s.json", doc))

    def test_per_operation_latency_gets_a_third_panel_of_stacked_means(self):
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        doc = self.load_fixture("compare_v4.json")
        for p in doc["points"]:
            for i, rep in enumerate(p["repetitions"]):
                op = lambda mean: {"p50": mean, "p90": mean, "p99": mean, "max": mean, "mean": mean,
                                   "count": 1, "total_ns": int(mean * 1000)}
                rep["latency_us"]["mean"] = 10.0 + i
                rep["operations_us"] = {"create": op(4.0 + i), "writes": op(3.0), "fsync": None,
                                        "close": op(2.0)}
        path = self.write_json("ops.json", doc)
        self.assert_plotted(path)
        script = r"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
report = plot.load(sys.argv[2])
fig = plot.build_figure([report], report.kind)
ax = fig.axes[2]
print(json.dumps({"axes": len(fig.axes), "title": ax.get_title(),
                  "bars": {c.get_label(): [float(b.get_height()) for b in c] for c in ax.containers}}))
"""
        proc = run_python(PYTHON, ["-c", script, PLOT, path])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        facts = json.loads(proc.stdout)
        self.assertIn("(c)", facts["title"])
        self.assertEqual(sorted(facts["bars"]), ["close", "create", "rest of the file's latency", "writes"])
        # create: the median of 4 + i over a point's repetitions i = 0..n-1; the rest: the
        # file's median mean (10 + i) less every operation's.
        creates = [4.0 + (len(p["repetitions"]) - 1) / 2 for p in doc["points"]]
        for name, heights in (("create", creates), ("writes", [3.0] * len(creates)),
                              ("close", [2.0] * len(creates)),
                              ("rest of the file's latency", [1.0] * len(creates))):
            self.assertEqual(len(facts["bars"][name]), len(heights))
            for h, want in zip(facts["bars"][name], heights):
                self.assertAlmostEqual(h, want)

    def test_reports_without_operations_keep_two_panels(self):
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        facts = self.figure_facts(self.fixture("compare_v4.json"))  # draws; then count the axes
        self.assertEqual(len(facts["titles"]), 2)

    def test_phases_get_a_panel_each_with_the_median_rate_and_its_interval(self):
        """sweep_phases.json: a real run of --sweep-threads 1,2 -r 6 --phases write,stat,remove
        on 2 ranks. Beside (a), (b) and (c), a panel per phase, drawing each point's
        summary.phases.NAME.files_per_s.at_median with median_ci as its error bar."""
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        path = self.fixture("sweep_phases.json")
        self.assert_plotted(path)
        script = r"""
import importlib.util, json, sys
from matplotlib.container import ErrorbarContainer
spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
report = plot.load(sys.argv[2])
fig = plot.build_figure([report], report.kind)
panels = []
for ax in fig.axes[3:]:
    lines = []
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            line, _, cols = c.lines
            lines.append({"x": [float(v) for v in line.get_xdata()],
                          "y": [float(v) for v in line.get_ydata()],
                          "bars": [[float(seg[0][1]), float(seg[1][1])]
                                   for seg in cols[0].get_segments()]})
    panels.append({"title": ax.get_title(), "lines": lines})
print(json.dumps({"axes": len(fig.axes), "panels": panels}))
"""
        proc = run_python(PYTHON, ["-c", script, PLOT, path])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        facts = json.loads(proc.stdout)
        self.assertEqual(facts["axes"], 6, "(a), (b), (c) and a panel per phase")
        doc = self.load_fixture("sweep_phases.json")
        points = sorted(doc["points"], key=lambda p: p["threads"])
        for panel, name in zip(facts["panels"], ("write", "stat", "remove")):
            self.assertIn(name, panel["title"])
            self.assertIn("files per second", panel["title"])
            self.assertEqual(len(panel["lines"]), 1)
            line = panel["lines"][0]
            self.assertEqual(line["x"], [p["threads"] for p in points])
            for y, bar, p in zip(line["y"], line["bars"], points):
                rate = p["summary"]["phases"][name]["files_per_s"]
                self.assertAlmostEqual(y, rate["at_median"], delta=rate["at_median"] * 1e-9)
                ci = rate["median_ci"]
                self.assertAlmostEqual(min(bar), ci["low"], delta=ci["low"] * 1e-9)
                self.assertAlmostEqual(max(bar), ci["high"], delta=ci["high"] * 1e-9)

    def test_phase_panels_label_each_point_with_its_phase_speedup(self):
        """A phase's speedup (summary.phases.NAME.speedup) labels each point of that phase's
        panel but the baseline; a phase without one (null: it timed nothing) has no label,
        and a report written before phases had speedups draws none."""
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        doc = self.load_fixture("sweep_phases.json")
        points = sorted(doc["points"], key=lambda p: p["threads"])
        base = points[0]["summary"]["phases"]
        for p in points:
            for name, figures in p["summary"]["phases"].items():
                speedup = (base[name]["makespan_s"]["median"] / figures["makespan_s"]["median"]
                           if name != "remove" else None)  # as if remove had timed nothing
                figures["speedup"] = None if speedup is None else {"estimate": speedup, "ci": None}
        with_speedups = self.write_json("phase_speedups.json", doc)
        script = r"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
out = []
for path in sys.argv[2:]:  # one python for both figures: matplotlib's import is the slow part
    report = plot.load(path)
    fig = plot.build_figure([report], report.kind)
    out.append([{"title": ax.get_title(),
                 "labels": [t.get_text() for t in ax.texts if t.get_gid() == "phase-speedup"]}
                for ax in fig.axes[3:]])
print(json.dumps(out))
"""
        proc = run_python(PYTHON, ["-c", script, PLOT, with_speedups,
                                   self.fixture("sweep_phases.json")])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        panels, as_written = json.loads(proc.stdout)
        self.assertEqual(len(panels), 3)
        for panel, name in zip(panels, ("write", "stat", "remove")):
            self.assertIn(name, panel["title"])
            if name == "remove":
                self.assertEqual(panel["labels"], [], "no speedup, no label")
                self.assertNotIn("labels = speedup", panel["title"])
                continue
            want = [f"×{p['summary']['phases'][name]['speedup']['estimate']:.2f}"
                    for p in points[1:]]
            self.assertEqual(panel["labels"], want, name)
            self.assertIn("labels = speedup", panel["title"])
        # The fixture as written (no phase speedups): no label anywhere.
        self.assertEqual(len(as_written), 3)
        self.assertTrue(all(not p["labels"] for p in as_written))

    def test_reports_of_the_write_phase_only_keep_their_panels(self):
        """summary.phases with write alone (mpiwrite's default) draws no phase panel."""
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        doc = self.load_fixture("sweep_phases.json")
        for p in doc["points"]:
            p["summary"]["phases"] = {"write": p["summary"]["phases"]["write"]}
        path = self.write_json("write_only.json", doc)
        script = r"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
report = plot.load(sys.argv[2])
print(len(plot.build_figure([report], report.kind).axes))
"""
        proc = run_python(PYTHON, ["-c", script, PLOT, path])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.strip(), "3")

    def test_svg_output(self):
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        proc, output = self.plot(self.fixture("sweep.json"), out="out.svg")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(output, encoding="utf-8") as f:
            self.assertIn("<svg", f.read(4096))

    # -- schema_version 4: medians with their intervals as error bars ---------------------

    def figure_facts(self, path):
        """What build_figure draws for one report, read from matplotlib's containers in a
        python that has matplotlib: per panel, each error-bar line's label, points and bars
        (as [x, low, high]), and the titles."""
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        script = r"""
import importlib.util, json, sys
from matplotlib.container import ErrorbarContainer
spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
report = plot.load(sys.argv[2])
fig = plot.build_figure([report], report.kind)
ax_t, ax_s = fig.axes[:2]
def bars(ax):
    out = []
    for c in ax.containers:
        if not isinstance(c, ErrorbarContainer) or not c.has_yerr:
            continue
        line, _, cols = c.lines
        segments = [[float(seg[0][0]), float(min(seg[0][1], seg[1][1])), float(max(seg[0][1], seg[1][1]))]
                    for seg in cols[0].get_segments()]
        out.append({"label": c.get_label(), "x": [float(v) for v in line.get_xdata()],
                    "y": [float(v) for v in line.get_ydata()], "bars": segments})
    return out
print(json.dumps({"a": bars(ax_t), "b": bars(ax_s), "titles": [ax_t.get_title(), ax_s.get_title()],
                  "unit": plot.time_unit(plot.compare_series(report))[0]}))
"""
        proc = run_python(PYTHON, ["-c", script, PLOT, path])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def expected_by_mode(self, doc, mode):
        """[(concurrency, median, median_ci, speedup)] of one mode's points, from the report."""
        rows = []
        for p in doc["points"]:
            if p["mode"] == mode:
                s = p["summary"]
                rows.append((p["concurrency"], s["makespan_s"]["median"],
                             s["makespan_s"]["median_ci"], s["speedup"]))
        return sorted(rows, key=lambda r: r[0])

    def test_v4_compare_is_plotted(self):
        self.assert_plotted(self.fixture("compare_v4.json"))

    def test_v4_draws_medians_with_their_intervals(self):
        doc = self.load_fixture("compare_v4.json")
        facts = self.figure_facts(self.fixture("compare_v4.json"))
        plot = self.load_module()
        scale = facts["unit"]
        self.assertIn("median", facts["titles"][0])
        self.assertIn("95 %", facts["titles"][0])
        drawn = {c["label"]: c for c in facts["a"]}
        for mode in ("processes", "hybrid"):
            line = drawn[plot.MODE_TEXT[mode]]
            expected = self.expected_by_mode(doc, mode)
            self.assertEqual(line["x"], [float(c) for c, _, _, _ in expected])
            for (c, median, ci, _), y, bar in zip(expected, line["y"], line["bars"]):
                self.assertAlmostEqual(y, median * scale)  # the median, not the mean
                self.assertAlmostEqual(bar[1], ci["low"] * scale)
                self.assertAlmostEqual(bar[2], ci["high"] * scale)
        # 1x4 has 3 repetitions: no interval, so no bar (zero length), at its median.
        threads = drawn[plot.MODE_TEXT["threads"]]
        at4 = threads["x"].index(4.0)
        median_1x4 = next(m for c, m, _, _ in self.expected_by_mode(doc, "threads") if c == 4)
        self.assertAlmostEqual(threads["y"][at4], median_1x4 * scale)
        self.assertAlmostEqual(threads["bars"][at4][1], threads["bars"][at4][2])

    def test_v4_draws_speedups_with_their_intervals(self):
        doc = self.load_fixture("compare_v4.json")
        facts = self.figure_facts(self.fixture("compare_v4.json"))
        plot = self.load_module()
        self.assertIn("95 % CI", facts["titles"][1])
        drawn = {c["label"]: c for c in facts["b"]}
        line = drawn[plot.MODE_TEXT["processes"]]
        expected = self.expected_by_mode(doc, "processes")
        for (_, _, _, speedup), y, bar in zip(expected, line["y"], line["bars"]):
            self.assertAlmostEqual(y, speedup["estimate"])
            self.assertAlmostEqual(bar[1], speedup["ci"]["low"])
            self.assertAlmostEqual(bar[2], speedup["ci"]["high"])
            self.assertLess(bar[1], bar[2])

    def test_v3_keeps_means_with_min_max_and_no_speedup_bars(self):
        doc = self.load_fixture("compare.json")
        facts = self.figure_facts(self.fixture("compare.json"))
        plot = self.load_module()
        self.assertIn("mean", facts["titles"][0])
        self.assertEqual(facts["b"], [])  # today's behaviour: plain speedup lines
        line = {c["label"]: c for c in facts["a"]}[plot.MODE_TEXT["processes"]]
        points = sorted((p for p in doc["points"] if p["mode"] == "processes"),
                        key=lambda p: p["concurrency"])
        for p, y, bar in zip(points, line["y"], line["bars"]):
            ms = p["summary"]["makespan_s"]
            self.assertAlmostEqual(y, ms["mean"] * facts["unit"])
            self.assertAlmostEqual(bar[1], ms["min"] * facts["unit"])
            self.assertAlmostEqual(bar[2], ms["max"] * facts["unit"])

    def test_v4_from_comparison_only_uses_medians(self):
        doc = self.load_fixture("compare_v4.json")
        del doc["points"]
        path = self.write_json("c4.json", doc)
        self.assert_plotted(path)
        plot = self.load_module()
        points = {p.label: p for p in plot.load(path).points}
        cell = doc["comparison"][1]["processes"]
        self.assertEqual(points[cell["label"]].center, cell["median_s"])
        self.assertEqual(points[cell["label"]].lo, cell["median_ci"]["low"])
        self.assertEqual(points[cell["label"]].speedup_hi, cell["speedup"]["ci"]["high"])

    # -- layouts: a report of --layout A,B is drawn one layout at a time ----------------

    def test_several_layouts_need_a_choice_and_are_never_mixed(self):
        golden = os.path.join(HERE, "..", "golden", "compare_layouts.json")
        self.assert_rejected(golden, "2 layouts (shared, rank)", "--layout NAME")
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib (apt-get install python3-matplotlib)")
        plot = self.load_module()
        for layout in ("shared", "rank"):
            proc = run_python(PYTHON, [PLOT, golden, "--layout", layout, "--dpi", str(TEST_DPI),
                                       "-o", os.path.join(self.tmp, f"{layout}.png")])
            self.assertEqual(proc.returncode, 0, proc.stderr)
            report = plot.load(golden, layout)
            suffix = "" if layout == "shared" else "-rank"
            self.assertEqual(sorted(p.label for p in report.points),
                             sorted(f"{l}{suffix}" for l in ("1x1", "2x1", "1x2")))
        # The second layout's speedups are against its own 1 x 1 (the report's are against
        # the first layout's).
        series = {s.mode: s for s in plot.compare_series(plot.load(golden, "rank"))}
        one = next(p for p in series["processes"].points if p.label == "1x1-rank")
        two = next(p for p in series["processes"].points if p.label == "2x1-rank")
        self.assertAlmostEqual(one.speedup, 1.0)
        self.assertAlmostEqual(two.speedup, one.center / two.center)
        proc, _ = self.plot(golden, "--layout", "thread", python=ANY_PYTHON)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("no points of layout thread", proc.stderr)

    # -- errors: exit 2, one line ----------------------------------------------------------

    def test_missing_file(self):
        self.assert_rejected(os.path.join(self.tmp, "absent.json"), "absent.json")

    def test_invalid_json(self):
        self.assert_rejected(self.write_json("bad.json", '{"schema_version": 2,'),
                             "not valid JSON")

    def test_unknown_kind(self):
        doc = self.load_fixture("sweep.json")
        doc["kind"] = "histogram"
        self.assert_rejected(self.write_json("k.json", doc), "unknown kind")

    def test_no_points(self):
        doc = self.load_fixture("sweep.json")
        doc["points"] = [{"label": "4x1"}, "junk", None]
        self.assert_rejected(self.write_json("p.json", doc), "nothing to plot")

    def test_mixed_kinds(self):
        proc, output = self.plot(self.fixture("sweep.json"), self.fixture("compare.json"),
                                 python=ANY_PYTHON)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("different kinds", proc.stderr)
        self.assertFalse(os.path.exists(output))


# -- hostile reports (issue 21 §6) --------------------------------------------------------
# Every case is refused with one line and exit 2, or read into figures that are all finite and
# within what can be drawn; never a traceback.

def plot_module():
    spec = importlib.util.spec_from_file_location("mpiwrite_plot", PLOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def leaves(value, path=()):
    """The path of every leaf; of a list only the first two items (the others are alike)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            yield from leaves(v, path + (i,))
    else:
        yield list(path)


def containers(value, path=()):
    """Every array and object with its path; of a list only the first two items."""
    if isinstance(value, (dict, list)):
        yield list(path), value
        for k, v in (value.items() if isinstance(value, dict) else enumerate(value[:2])):
            yield from containers(v, path + (k,))


def short_lists(value, top=True):
    """The report with its top-level lists (points, comparison) whole and at most two items
    in each list below them (repetitions, ranks, hosts): the same fields, a fraction of the
    text to parse per case."""
    if isinstance(value, dict):
        return {k: [short_lists(x, False) for x in v] if top and isinstance(v, list) else short_lists(v, False)
                for k, v in value.items()}
    if isinstance(value, list):
        return [short_lists(v, False) for v in value[:2]]
    return value


# One or two of each class: another type, out of range, beyond a double, not finite, huge.
HOSTILE_TOKENS = ['"x"', "{}", "null", "-1", "2.5", "1e308", "1e400", "NaN", str(10 ** 400)]


class HostileReportTest(unittest.TestCase):
    MODULE = plot_module()
    # PlotTest's helpers, not its tests.
    setUp, fixture, write_json, load_fixture, plot, assert_plotted = (
        PlotTest.setUp, PlotTest.fixture, PlotTest.write_json, PlotTest.load_fixture,
        PlotTest.plot, PlotTest.assert_plotted)

    def assert_refused_text(self, text, *message_parts):
        path = self.write_json("hostile.json", text)
        proc, output = self.plot(path, python=ANY_PYTHON)
        self.assertEqual(proc.returncode, 2, f"stderr: {proc.stderr[:2000]}")
        self.assertNotIn("Traceback", proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"expected a one-line message, got: {proc.stderr[:2000]}")
        self.assertLess(len(lines[0]), 400, lines[0])
        for part in message_parts:
            self.assertIn(part, lines[0])
        self.assertFalse(os.path.exists(output))

    def test_report_strings_are_drawn_as_plain_text(self):
        """A '$' started matplotlib's math text (the figure failed: "cannot write"); control
        characters reached the terminal through matplotlib's glyph warnings."""
        doc = self.load_fixture("compare.json")
        doc.setdefault("context", {})["hosts"] = [{"host": "$x^$"}]
        doc["context"]["filesystem"] = "fs\u001b]0;pwn\u0007$\\undefined$"
        if PYTHON is None:
            self.skipTest("no python3 with matplotlib")
        proc, output = self.plot(self.write_json("dollars.json", doc))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("\x1b", proc.stderr)
        self.assertTrue(os.path.isfile(output))

    # The cases the issue named: each was a traceback (OverflowError, ValueError).
    def test_integer_of_ten_to_the_400_is_refused(self):
        doc = self.load_fixture("sweep.json")
        path = ["points", 0, "summary", "makespan_s", "mean"]  # v3 reads it: was OverflowError
        self.assert_refused_text(with_token(doc, path, str(10 ** 400)), "an integer beyond 64 bits",
                                 "(401 digits)")

    def test_non_finite_numbers_are_refused(self):
        doc = self.load_fixture("compare_v4.json")
        for token in ("NaN", "Infinity", "-Infinity", "1e400", "-1e400"):
            with self.subTest(token=token):
                self.assert_refused_text(with_token(doc, ["points", 0, "summary", "speedup"], token),
                                         "not an mpiwrite report")

    # The classes, generated from every fixture.
    def figures_of(self, text):
        """All the numbers plot.py would draw from the text, or None when it is refused."""
        m = self.MODULE
        try:
            report = m.from_text("hostile.json", text)
            series = m.compare_series(report) if report.kind == "compare" else m.sweep_series(report)
        except m.InputError as e:
            self.assertNotIn("\n", str(e))
            return None
        if not series:
            return []
        m.label_series([report], series, report.kind)
        m.time_unit(series)
        values = []
        for s in series:
            for p in s.points:
                values += [p.center, p.lo, p.hi, p.concurrency, p.threads, p.ranks]
                values += [v for v in (p.speedup, p.speedup_lo, p.speedup_hi) if v is not None]
                values += list((p.operations or {}).values())
        return values

    def test_every_leaf_replaced_by_a_hostile_value(self):
        cases = refused = 0
        for name in ("compare_v4.json",):  # the newest schema; sweep.json shares its fields
            doc = short_lists(self.load_fixture(name))
            for path in leaves(doc):
                marked = with_token(doc, path, '"@@hostile@@"')
                for token in HOSTILE_TOKENS:
                    cases += 1
                    what = f"{name} {path} = {token[:30]}"
                    try:
                        values = self.figures_of(marked.replace('"@@hostile@@"', token, 1))
                    except Exception as e:  # noqa: BLE001 -- any other exception is the bug
                        self.fail(f"{what}: {type(e).__name__}: {e}")
                    if values is None:
                        refused += 1
                        continue
                    for v in values:
                        if v is not None and not isinstance(v, bool):
                            self.assertTrue(math.isfinite(v) and abs(v) < 1e20, f"{what}: figure {v}")
        self.assertGreater(refused, 50)
        print(f"{cases} hostile leaves, {refused} refused", file=sys.stderr)

    def test_deep_nesting_anywhere_is_refused(self):
        deep = "[" * 100 + "]" * 100  # refused at level 65; 50,000: test_deep_nesting_is_refused
        for name in ("sweep.json", "compare_v4.json"):
            doc = short_lists(self.load_fixture(name))
            for path, value in containers(doc):
                texts = [with_token(doc, path, deep)] if path else []
                if isinstance(value, dict):
                    texts.append(with_token(doc, path + ["zz_unknown"], deep))
                for text in texts:
                    with self.assertRaises(self.MODULE.InputError, msg=f"{name} {path}"):
                        self.MODULE.from_text("hostile.json", text)

    def test_extreme_but_valid_times_are_drawn(self):
        """The longest and shortest times drawn still give a PNG (finite log axes)."""
        doc = self.load_fixture("sweep.json")
        for i, p in enumerate(doc["points"]):
            ms = p["summary"]["makespan_s"]
            value = 1e9 if i % 2 else 1e-9
            for key in ("mean", "median", "min", "max"):
                if key in ms:
                    ms[key] = value
            p["summary"].pop("speedup", None)
        self.assert_plotted(self.write_json("extreme.json", doc))


def main():
    # Run by the interpreter that draws, when that is another one (CTest's python3 may lack
    # matplotlib): then every plot.py run is a fork of this process (run_python).
    guard = "MPIWRITE_PLOT_TEST_REEXEC"
    if PYTHON is not None and not runs_here(PYTHON) and os.environ.get(guard) is None:
        os.environ[guard] = "1"
        os.execv(PYTHON, [PYTHON, os.path.abspath(__file__), *sys.argv[1:]])
    preload_pyplot()
    program = unittest.main(module=__name__, exit=False)
    result = program.result
    if not result.wasSuccessful():
        sys.exit(1)
    if PYTHON is None and result.skipped:
        print("SKIP: no python3 with matplotlib; the drawing tests did not run")
        sys.exit(77)
    sys.exit(0)


if __name__ == "__main__":
    main()
