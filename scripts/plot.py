#!/usr/bin/env python3
"""Plot mpiwrite JSON reports (schema_version 2, 3 or 4) of kind "sweep" or "compare".

Usage: scripts/plot.py REPORT.json [REPORT2.json ...] [-o out.png] [--layout NAME]

Two panels side by side: (a) the write phase's makespan against concurrency; (b) the
speedup with the ideal line dashed; and, for reports with per-operation latency
(repetitions[].operations_us), a third: (c) per point, where a file's time goes, a stacked bar
of each operation's mean latency (create, writes, fsync, close; the median over the
repetitions) with the rest of the file's mean latency (the gaps between them) on top. Version 4 reports: the median makespan with its 95 %
confidence interval as error bars (summary.makespan_s.median_ci), and the speedup (a ratio
of medians) with its bootstrap interval (summary.speedup.ci); a point with too few
repetitions for an interval has no bar. Versions 2 and 3: the mean makespan with min-max
over the repetitions as error bars, the speedup without.
A "compare" report gives one line per mode (processes, threads, hybrid: the best p x t at
each concurrency, annotated with its label; async: 1 x 1 with c files in flight through
io_uring, from --compare --engine uring); a "sweep" report gives one line against the
threads per rank. Several reports of the same kind (e.g. from several cluster jobs) are
drawn together, one line per report and mode, labelled by the report's hosts and ranks.
A report of several directory layouts (--layout shared,rank) is drawn one layout at a time:
--layout NAME picks it (without it such a report is refused, exit 2).

Exit status: 0 written; 1 the output could not be written; 2 bad usage or an input that
is missing, not JSON, of another schema_version, a single-point "run", or of mixed kinds;
3 matplotlib is not installed (Debian: apt-get install python3-matplotlib). If the
running python lacks matplotlib, the script re-runs itself once under /usr/bin/python3
when that one has it (pyenv shims often come first on PATH).
"""

import argparse
import json
import math
import os
import re
import sys

# 3: figures of unmeasured points are null, cleanup.in_background; 2 reads the same way.
# 4: medians with intervals (summary.makespan_s.median_ci, summary.speedup {estimate, ci}).
SCHEMA_VERSIONS = (2, 3, 4)
MEDIAN_SCHEMA = 4  # from this version on the median and its interval are drawn
MODES = ("processes", "threads", "hybrid", "async")
MODE_TEXT = {
    "processes": "processes (c ranks × 1 thread)",
    "threads": "threads (1 rank × c threads)",
    "hybrid": "hybrid (best p × t, p>1, t>1)",
    "async": "async (1 × 1, c files in flight, io_uring)",
}
MODE_STYLE = {  # marker, line style, colour when only one report is drawn
    "processes": ("o", "-", "tab:blue"),
    "threads": ("s", ":", "tab:orange"),
    "hybrid": ("^", "-.", "tab:green"),
    "async": ("D", "--", "tab:red"),
    "sweep": ("o", "-", "tab:blue"),
}
# 1 rank x 1 thread is on both the processes and the threads line: the processes circle is
# drawn on top of the (larger) threads square so that both stay visible.
MODE_LAYER = {"processes": (3.3, 6), "threads": (3.2, 7.5), "hybrid": (3.1, 7), "async": (3.05, 6),
              "sweep": (3, 6)}
PALETTE = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
           "tab:pink", "tab:gray", "tab:olive", "tab:cyan"]
# What a report's text may hold (as mpiwrite-compare, docs/metrics.md "Hostile reports"): arrays
# and objects at most 64 deep (a report has 7 levels), integers of at most 19 digits (mpiwrite
# writes 64-bit counts; Python would parse 10^400, then fail to make it a float, and refuse
# to print one of more than 4300 digits), no NaN or Infinity and no number beyond a double.
MAX_NESTING = 64
MAX_INT_DIGITS = 19
MAX_REPORT_BYTES = 1 << 30  # far beyond a report (10^6 repetitions); an endless input stops
# The times drawn: the clock's resolution up to ~31 years, so every speedup (a ratio of two)
# and every log2 tick is a finite float of a sane count. Outside: the point is not drawn.
SHORTEST_S, LONGEST_S = 1e-9, 1e9
SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_GUARD = "MPIWRITE_PLOT_REEXEC"


class InputError(Exception):
    """A report that cannot be plotted; the message is one line."""


def die(message, code):
    print(f"plot.py: error: {message}", file=sys.stderr)
    sys.exit(code)


# ---------------------------------------------------------------------------------------
# Reading reports defensively: every field may be absent or of the wrong type.


def number(value):
    """A finite float, or None (bools and strings are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        value = float(value)
    except OverflowError:  # an int beyond a double (parse_report() refuses those already)
        return None
    return value if math.isfinite(value) else None


def seconds(value):
    """A time that can be drawn (SHORTEST_S ... LONGEST_S), or None."""
    v = number(value)
    return v if v is not None and SHORTEST_S <= v <= LONGEST_S else None


def micros(value):
    """A mean latency that can be stacked: 0 ... LONGEST_S in microseconds, or None."""
    v = number(value)
    return v if v is not None and 0 <= v <= LONGEST_S * 1e6 else None


def positive_int(value):
    """A count 1 ... 2^53 (exact as a float), or None."""
    v = number(value)
    return int(v) if v is not None and 1 <= v <= 2 ** 53 and v == int(v) else None


def dict_at(obj, key):
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, dict) else {}


class Point:
    """center: the drawn makespan (v4 the median, else the mean); lo/hi: the ends of its
    error bar (v4 the median's interval, else min-max; center when there is none);
    speedup_lo/hi: the speedup's interval (v4 only; None when absent)."""
    __slots__ = ("label", "mode", "ranks", "threads", "concurrency", "center", "lo", "hi",
                 "speedup", "speedup_lo", "speedup_hi", "count", "operations")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


def classify(mode, ranks, threads):
    if mode in MODES:
        return mode
    if ranks is None or threads is None:
        return None
    if threads == 1:
        return "processes"
    return "threads" if ranks == 1 else "hybrid"


def is_unmeasured(p):
    """A point the report lists but never measured (an interrupted run): its makespan
    summary is null or it says 0 repetitions were measured."""
    summary = dict_at(p, "summary")
    if "repetitions_measured" in summary and number(summary.get("repetitions_measured")) == 0:
        return True
    return "makespan_s" in summary and summary.get("makespan_s") is None


def read_unmeasured(doc):
    """The points of the report that were never measured: [(label, mode, ranks, threads)]."""
    result = []
    raw = doc.get("points")
    for p in raw if isinstance(raw, list) else []:
        if isinstance(p, dict) and is_unmeasured(p):
            ranks, threads = positive_int(p.get("ranks")), positive_int(p.get("threads"))
            label = p.get("label") if isinstance(p.get("label"), str) else None
            result.append((label, p.get("mode"), ranks, threads))
    return result


def ratio(value):
    """A speedup that can be drawn: one of two times within SHORTEST_S .. LONGEST_S, or None."""
    v = number(value)
    bound = LONGEST_S / SHORTEST_S
    return v if v is not None and 1 / bound <= v <= bound else None


def interval(value, valid=seconds):
    """(low, high) of a {"low", "high", ...} interval, or (None, None); both ends valid()."""
    if not isinstance(value, dict):
        return None, None
    low, high = valid(value.get("low")), valid(value.get("high"))
    if low is None or high is None or low > high:
        return None, None
    return low, high


def estimate_and_interval(value):
    """A v3 number or a v4 {"estimate", "ci"}: (estimate, low, high), None where absent."""
    if isinstance(value, dict):
        low, high = interval(value.get("ci"), ratio)
        return ratio(value.get("estimate")), low, high
    return ratio(value), None, None


def read_points(doc):
    medians = number(doc.get("schema_version")) is not None and number(
        doc.get("schema_version")) >= MEDIAN_SCHEMA
    points = []
    raw = doc.get("points")
    for p in raw if isinstance(raw, list) else []:
        if not isinstance(p, dict) or is_unmeasured(p):
            continue
        ranks, threads = positive_int(p.get("ranks")), positive_int(p.get("threads"))
        conc = positive_int(p.get("concurrency"))
        if conc is None and ranks is not None and threads is not None:
            conc = ranks * threads
        summary = dict_at(p, "summary")
        ms = dict_at(summary, "makespan_s")
        first, second = ("median", "mean") if medians else ("mean", "median")
        center = number(ms.get(first))
        if center is None:
            center = number(ms.get(second))
        if conc is None or seconds(center) is None:
            continue
        if medians:
            lo, hi = interval(ms.get("median_ci"))
        else:
            lo, hi = seconds(ms.get("min")), seconds(ms.get("max"))
        label = p.get("label") if isinstance(p.get("label"), str) else None
        if label is None and ranks is not None and threads is not None:
            label = f"{ranks}x{threads}"
        speedup, s_lo, s_hi = estimate_and_interval(summary.get("speedup"))
        point = bounded_point(label, p.get("mode"), ranks, threads, conc, center, (lo, hi),
                              (speedup, s_lo, s_hi), positive_int(ms.get("count")))
        point.operations = read_operations(p.get("repetitions"))
        points.append(point)
    return points


OPERATIONS = ("create", "writes", "fsync", "close")
OPERATION_COLORS = {"create": "tab:blue", "writes": "tab:orange", "fsync": "tab:purple",
                    "close": "tab:green", "rest": "0.8"}


def median(values):
    xs = sorted(values)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def read_operations(repetitions):
    """{operation: median over the repetitions of its mean latency [us]} plus "file" (the
    files' mean latency), or None when a repetition has no operations_us (older reports).
    An operation that is null (fsync without --fsync) is left out."""
    if not isinstance(repetitions, list) or not repetitions:
        return None
    per = {}
    for rep in repetitions:
        ops = rep.get("operations_us") if isinstance(rep, dict) else None
        lat = rep.get("latency_us") if isinstance(rep, dict) else None
        if not isinstance(ops, dict) or not isinstance(lat, dict) or micros(lat.get("mean")) is None:
            return None
        per.setdefault("file", []).append(micros(lat["mean"]))
        for name in OPERATIONS:
            op = ops.get(name)
            if isinstance(op, dict) and micros(op.get("mean")) is not None:
                per.setdefault(name, []).append(micros(op["mean"]))
    return {k: median(v) for k, v in per.items() if len(v) == len(repetitions)}


def bounded_point(label, mode, ranks, threads, conc, center, bounds, speedup, count=None):
    """A Point whose interval ends are kept only where they hold their estimate (a bound on
    the wrong side of it would draw a negative error bar); a missing time bound collapses to
    the centre, a missing speedup bound to none."""
    lo, hi = bounds
    value, s_lo, s_hi = speedup
    extra = {} if count is None else {"count": count}
    return Point(label=label, mode=mode, ranks=ranks, threads=threads, concurrency=conc,
                 center=center,
                 lo=lo if lo is not None and lo <= center else center,
                 hi=hi if hi is not None and hi >= center else center,
                 speedup=value,
                 speedup_lo=s_lo if value is not None and s_lo is not None and s_lo <= value else None,
                 speedup_hi=s_hi if value is not None and s_hi is not None and s_hi >= value else None,
                 **extra)


def points_from_comparison(doc):
    """Fallback for a compare report whose points[] are missing: means (v4: medians with
    their intervals) only."""
    medians = number(doc.get("schema_version")) is not None and number(
        doc.get("schema_version")) >= MEDIAN_SCHEMA
    points = []
    raw = doc.get("comparison")
    for entry in raw if isinstance(raw, list) else []:
        conc = positive_int(entry.get("concurrency")) if isinstance(entry, dict) else None
        if conc is None:
            continue
        for mode in MODES:
            m = entry.get(mode)
            if not isinstance(m, dict):
                continue
            center = number(m.get("median_s")) if medians else None
            if center is None:
                center = number(m.get("mean_s"))
            if seconds(center) is None:
                continue
            lo, hi = interval(m.get("median_ci")) if medians else (None, None)
            speedup, s_lo, s_hi = estimate_and_interval(m.get("speedup"))
            label = m.get("label") if isinstance(m.get("label"), str) else None
            ranks = threads = None
            if label and "x" in label:
                r, _, t = label.partition("x")
                ranks, threads = positive_int(_int_or_none(r)), positive_int(_int_or_none(t))
            points.append(bounded_point(label, mode, ranks, threads, conc, center, (lo, hi),
                                        (speedup, s_lo, s_hi)))
    return points


def _int_or_none(text):
    try:
        return int(text)
    except ValueError:
        return None


class Report:
    def __init__(self, path, doc):
        self.path = path
        self.doc = doc
        self.kind = doc.get("kind")
        self.config = dict_at(doc, "config")
        self.context = dict_at(doc, "context")
        version = number(doc.get("schema_version"))
        self.medians = version is not None and version >= MEDIAN_SCHEMA
        self.points = read_points(doc)
        self.unmeasured = read_unmeasured(doc)
        # The comparison table stands in only for points[] that are missing, never for
        # points the report lists as not measured.
        if not self.points and not self.unmeasured and self.kind == "compare":
            self.points = points_from_comparison(doc)

    @property
    def baseline_unmeasured(self):
        """Whether the point speedups are relative to was never measured: then the report
        has no speedups, and none may be made up against another point."""
        if self.kind == "compare":
            return any(r == 1 and t == 1 and mode != "async"
                       for _, mode, r, t in self.unmeasured)
        threads = [t for _, _, _, t in self.unmeasured if t is not None]
        measured = [p.threads for p in self.points if p.threads is not None]
        return bool(threads) and (not measured or min(threads) < min(measured))

    @property
    def ranks(self):
        r = positive_int(self.context.get("ranks"))
        if r is None:
            rs = {p.ranks for p in self.points if p.ranks is not None}
            r = rs.pop() if len(rs) == 1 else None
        return r

    def hosts(self):
        raw = self.context.get("hosts")
        names = []
        for h in raw if isinstance(raw, list) else []:
            if isinstance(h, dict) and isinstance(h.get("host"), str):
                names.append(h["host"])
        return names

    def host_text(self, with_ranks=True):
        names = self.hosts()
        if not names:
            text = "unknown host"
        elif len(names) == 1:
            text = names[0]
        else:
            more = len(names) - 1
            text = f"{names[0]} +{more} more host{'s' if more > 1 else ''}"
        r = self.ranks
        if with_ranks and r is not None:
            text += f", {r} rank{'s' if r != 1 else ''}"
        return text


def point_layout(p):
    """A point's directory layout; reports from before layouts have none: shared."""
    layout = p.get("layout") if isinstance(p, dict) else None
    return layout if isinstance(layout, str) else "shared"


def one_layout(path, doc, layout):
    """The report with the points (and comparison rows) of one directory layout only: a
    report of --layout A,B holds every point once per layout, and lines that mixed them
    would compare unlike points. Several layouts and none chosen: refused. A layout other
    than the report's first loses the report's speedups (they are against the first
    layout's 1 x 1) and gets them against its own 1 x 1, without intervals."""
    points = doc.get("points") if isinstance(doc.get("points"), list) else []
    present = []
    for p in points:
        if point_layout(p) not in present:
            present.append(point_layout(p))
    if layout is None:
        if len(present) > 1:
            raise InputError(f"{path} holds points of {len(present)} layouts ({', '.join(present)}): "
                             "plot.py draws one at a time; pass --layout NAME")
        return doc
    if layout not in present:
        raise InputError(f"{path} has no points of layout {layout} "
                         f"(it has {', '.join(present) or 'none'})")
    doc = dict(doc)
    kept = []
    for p in points:
        if point_layout(p) != layout:
            continue
        if layout != present[0] and isinstance(p.get("summary"), dict):
            p = dict(p, summary=dict(p["summary"], speedup=None))
        kept.append(p)
    doc["points"] = kept
    if isinstance(doc.get("comparison"), list):
        doc["comparison"] = [r for r in doc["comparison"] if point_layout(r) == layout]
    return doc


# A string, or an unterminated one up to the end of the text: each quote is then consumed
# once (with only terminated strings matching, every quote of an unterminated run started a
# scan to the end of the text: quadratic, minutes for 160 KB).
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)')
_NOT_BRACKETS = re.compile(r'[^\[\]{}]+')
_INNERMOST = re.compile(r'\[\]|\{\}')


def _too_deep(text):
    """Whether the text nests arrays and objects deeper than MAX_NESTING, found without
    recursion: with the strings and everything but brackets removed, each pass removes the
    innermost pairs, one level; still shrinking after MAX_NESTING passes is deeper. (Each
    pass runs in C; a Python loop over every bracket would be slow on a large report.)"""
    skeleton = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    for _ in range(MAX_NESTING):
        skeleton = _INNERMOST.sub("", skeleton)
        if not skeleton:
            return False
    return _INNERMOST.search(skeleton) is not None  # else unbalanced: json.loads says so


def _bounded_int(text):
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        shown = text if len(text) <= 24 else text[:20] + f"... ({len(digits)} digits)"
        raise InputError(f"an integer beyond 64 bits: {shown}")
    return int(text)


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"a number beyond a double: {text[:40]}")
    return value


def _no_constant(text):
    raise InputError(f"{text} is not a number mpiwrite writes")


def parse_report(path, text):
    """The report's JSON, or InputError with one line: every class of hostile text (deep
    nesting, huge integers, NaN, Infinity, numbers beyond a double) refused here, before
    anything reads a field."""
    if _too_deep(text):
        raise InputError(f"{path}: arrays and objects nested deeper than {MAX_NESTING} levels")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_finite_float,
                          parse_constant=_no_constant)
    except InputError as e:
        raise InputError(f"{path}: not an mpiwrite report ({e})")
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not valid JSON (line {e.lineno} column {e.colno}: {e.msg})")
    except (RecursionError, ValueError) as e:  # neither can happen after the checks above
        raise InputError(f"{path}: not valid JSON ({type(e).__name__})")


def load(path, layout=None):
    try:
        with open(path, encoding="utf-8") as f:
            # Text that cannot start JSON needs no more reading (/dev/zero would otherwise be
            # read until memory runs out).
            text = f.read(4096)
            first = text.lstrip()[:1]
            if first and first not in '{["-0123456789tfn':
                raise InputError(f"{path}: not valid JSON (it starts with {first!r})")
            text += f.read(MAX_REPORT_BYTES)
            if f.read(1):
                raise InputError(f"{path}: larger than {MAX_REPORT_BYTES >> 20} MiB: not a "
                                 "report mpiwrite writes")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not valid JSON (not UTF-8 text)")
    return from_text(path, text, layout)


def shown(value, limit=60):
    """A refused value in a one-line message: its JSON, cut short."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable_strings(doc):
    """Every string value in `doc` with control characters shown as '?', in place: a report
    must not write terminal escapes through matplotlib's warnings, or draw them. Iterative
    (the nesting is bounded already, but a walk needs no recursion)."""
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            if isinstance(value, str):
                if _CONTROL.search(value):
                    node[key] = _CONTROL.sub("?", value)
            elif isinstance(value, (dict, list)):
                stack.append(value)


def from_text(path, text, layout=None):
    """The Report of a report's text, or InputError."""
    doc = parse_report(path, text)
    if isinstance(doc, (dict, list)):
        printable_strings(doc)
    if not isinstance(doc, dict):
        raise InputError(f"{path}: not an mpiwrite report (the top level is not an object)")
    version = doc.get("schema_version")
    if "schema_version" not in doc:
        raise InputError(f"{path}: not an mpiwrite report (no schema_version)")
    if number(version) not in SCHEMA_VERSIONS:
        raise InputError(f"{path}: schema_version {shown(version)} is not supported "
                         f"(expected one of {', '.join(map(str, SCHEMA_VERSIONS))})")
    kind = doc.get("kind")
    points = doc.get("points")
    if kind is None and (isinstance(doc.get("repetitions"), list)
                         or (isinstance(points, list) and len(points) <= 1)):
        kind = "run"  # a report without a kind that holds one measurement
    if kind == "run":
        raise InputError(f"nothing to plot: a single-point run ({path})")
    if kind not in ("sweep", "compare"):
        raise InputError(f"{path}: unknown kind {shown(kind)} "
                         "(expected \"sweep\" or \"compare\")")
    doc = one_layout(path, doc, layout)
    report = Report(path, doc)
    if not report.points:
        raise InputError(f"nothing to plot: {path} has no measured points")
    return report


# ---------------------------------------------------------------------------------------
# From points to lines.


class Series:
    def __init__(self, report, mode, points, baseline_x, x_of):
        self.report = report
        self.mode = mode
        self.x_of = x_of
        self.points = sorted(points, key=x_of)
        self.xs = [x_of(p) for p in self.points]
        self.baseline_x = baseline_x
        self.label = None
        self.marker, self.linestyle, self.color = MODE_STYLE.get(mode, ("o", "-", None))


def with_speedups(points, base):
    """Fill in speedups the report left out, relative to the baseline point (None: the
    baseline was not measured, so there are none)."""
    for p in points if base is not None else []:
        if p.speedup is None and base is not None:
            # Both centres are within SHORTEST_S .. LONGEST_S: the ratio is finite.
            p.speedup = base.center / p.center
    return points


def compare_series(report):
    pts = report.points
    # The baseline is the posix 1 x 1 (an async 1x1q1 point is 1 x 1 too, but not the baseline).
    base = next((p for p in pts if p.ranks == 1 and p.threads == 1 and p.mode != "async"), None)
    if base is None and not report.baseline_unmeasured:
        base = min(pts, key=lambda p: (p.concurrency, p.center))
    with_speedups(pts, base)
    by_mode = {m: [] for m in MODES}
    for p in pts:
        mode = classify(p.mode, p.ranks, p.threads)
        if mode is None:
            continue
        by_mode[mode].append(p)
    # 1 rank x 1 thread is the first point of the threads line as well.
    if (base is not None and base.ranks == 1 and base.threads == 1
            and base not in by_mode["threads"]):
        by_mode["threads"].append(base)
    series = []
    for mode in MODES:
        best = {}
        for p in by_mode[mode]:
            if p.concurrency not in best or p.center < best[p.concurrency].center:
                best[p.concurrency] = p
        if best:
            series.append(Series(report, mode, list(best.values()),
                                 base.concurrency if base is not None else 1,
                                 lambda p: p.concurrency))
    return series


def sweep_series(report):
    pts = [p for p in report.points if p.threads is not None]
    if not pts:
        raise InputError(f"nothing to plot: {report.path} has no thread counts in its points")
    best = {}
    for p in pts:
        if p.threads not in best or p.center < best[p.threads].center:
            best[p.threads] = p
    pts = list(best.values())
    base = min(pts, key=lambda p: p.threads)
    planned = min([base.threads] + [t for _, _, _, t in report.unmeasured if t is not None])
    with_speedups(pts, None if report.baseline_unmeasured else base)
    return [Series(report, "sweep", pts, planned, lambda p: p.threads)]


def label_series(reports, series, kind):
    """One report: modes (compare) or host/ranks (sweep). Several: host/ranks first."""
    names = dict(zip((id(r) for r in reports), report_names(reports)))
    for s in series:
        who = names[id(s.report)]
        if kind == "sweep":
            s.label = who
        elif len(reports) == 1:
            s.label = MODE_TEXT[s.mode]
        else:
            s.label = f"{who}: {s.mode}"


def report_names(reports):
    """host/ranks of each report; the file name added where two would read the same."""
    names = [r.host_text() for r in reports]
    return [n + (f" [{os.path.basename(r.path)}]" if names.count(n) > 1 else "")
            for n, r in zip(names, reports)]


def style_series(reports, series, kind):
    """One report: a colour per mode, solid lines. Several: a colour per report and, for
    compare, a marker and line style per mode. Returns the legend's (handle, label) pairs
    for the lines, or None to take them from the plotted series."""
    if len(reports) == 1:
        for s in series:
            s.linestyle = "-"
        return None
    colour = {id(r): PALETTE[i % len(PALETTE)] for i, r in enumerate(reports)}
    for s in series:
        s.color = colour[id(s.report)]
        if kind != "compare":
            s.linestyle = "-"
    if kind != "compare":
        return None
    from matplotlib.lines import Line2D
    entries = [(Line2D([], [], color=colour[id(r)], linewidth=2.5), name)
               for r, name in zip(reports, report_names(reports))]
    present = [m for m in MODES if any(s.mode == m for s in series)]
    for m in present:
        marker, ls, _ = MODE_STYLE[m]
        entries.append((Line2D([], [], color="0.25", marker=marker, linestyle=ls,
                               linewidth=1.5), MODE_TEXT[m]))
    return entries


# ---------------------------------------------------------------------------------------
# Titles and labels.


def size_text(n):
    if n is None:
        return None
    if n < 10 * 1024:
        return f"{n} B"
    if n < 10 * 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.1f} MiB"


def common(values, limit=3):
    """The one value all reports share, or the distinct values joined."""
    distinct = []
    for v in values:
        if v not in (None, "") and v not in distinct:
            distinct.append(v)
    if not distinct:
        return None
    if len(distinct) > limit:
        return " / ".join(str(v) for v in distinct[:limit]) + " / …"
    return " / ".join(str(v) for v in distinct)


def workload_text(reports):
    def field(key, conv=lambda v: v):
        return common([conv(r.config.get(key)) for r in reports])

    files = field("files", positive_int)
    size = field("file_size_bytes", lambda v: size_text(positive_int(v)))
    lines = field("lines", positive_int)
    mode = field("write_mode", lambda v: v if isinstance(v, str) else None)
    reps = field("repetitions", positive_int)
    fsync = field("fsync", lambda v: v if isinstance(v, bool) else None)
    parts = []
    if files is not None or size is not None:
        head = f"{files if files is not None else '?'} files × {size or '?'}"
        if lines is not None:
            head += f" ({lines} lines)"
        parts.append(head)
    if mode:
        parts.append(f"{mode} writes")
    if fsync is True:
        parts.append("fsync")
    if reps is not None:
        parts.append(f"{reps} repetitions")
    return ", ".join(parts) if parts else "unknown workload"


def title_text(reports, kind):
    what = "processes vs threads vs hybrid" if kind == "compare" else "thread sweep"
    line1 = f"mpiwrite {what}: {workload_text(reports)}"
    fs = common([r.context.get("filesystem") if isinstance(r.context.get("filesystem"), str)
                 else None for r in reports]) or "unknown file system"
    where = common([r.context.get("directory") if isinstance(r.context.get("directory"), str)
                    else None for r in reports])
    hosts = common([r.host_text() for r in reports])
    mpi = common([r.context.get("mpi_library") if isinstance(r.context.get("mpi_library"), str)
                  else None for r in reports])
    line2 = f"{fs} at {where}" if where else fs
    line3 = " · ".join(x for x in (f"hosts: {hosts}" if hosts else None, mpi) if x)
    return "\n".join(x for x in (line1, line2, line3) if x)


def time_title(reports, series, reps):
    """Panel (a)'s title: what the line and its bars are (v4 medians, v2/v3 means)."""
    bars = any(p.lo < p.hi for s in series for p in s.points)
    if all(r.medians for r in reports):
        if bars:
            return "(a) write-phase makespan: median, bars = its 95 % CI"
        return "(a) write-phase makespan: median (too few repetitions for an interval)"
    if any(r.medians for r in reports):
        return "(a) makespan: median, bars = 95 % CI (v4); mean, bars = min–max (older)"
    if bars:
        return f"(a) write-phase makespan: mean, bars = min–max over {reps}"
    return "(a) write-phase makespan: mean (no min–max in the report)"


def time_unit(series):
    top = max(max(p.hi, p.center) for s in series for p in s.points)
    if top >= 1.0:
        return 1.0, "s"
    if top >= 1e-3:
        return 1e3, "ms"
    return 1e6, "µs"


# ---------------------------------------------------------------------------------------
# Drawing.


def import_pyplot(argv):
    try:
        import matplotlib
    except ImportError:
        me = os.path.realpath(sys.executable or "")
        if (os.environ.get(REEXEC_GUARD) is None and os.path.exists(SYSTEM_PYTHON)
                and os.path.realpath(SYSTEM_PYTHON) != me):
            os.environ[REEXEC_GUARD] = "1"
            try:
                os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + argv)
            except OSError:
                pass
        die(f"matplotlib is not installed for {sys.executable or 'this python'} "
            "(Debian: apt-get install python3-matplotlib, then run with /usr/bin/python3)", 3)
    matplotlib.use("Agg")
    # Reports carry strings (host, file system, directory) that are drawn as they are: a '$'
    # must not start matplotlib's math text ("$x^$" failed the whole figure).
    matplotlib.rcParams["text.parse_math"] = False
    import matplotlib.pyplot as plt
    from matplotlib import ticker
    return plt, ticker


def set_log2_x(ax, ticker, xs):
    ax.set_xscale("log", base=2)
    ticks = sorted(set(xs))
    ax.xaxis.set_major_locator(ticker.FixedLocator(ticks))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{int(round(v))}"))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.set_xlim(ticks[0] / 2 ** 0.35, ticks[-1] * 2 ** 0.35)


def annotate(ax, s, ys, others, above=None, below=None, fontsize=8):
    """Label each point of s (at heights ys) with its p x t, on the side away from the
    other lines: above if it is the highest at its x, below if the lowest, else to the
    right. above/below: where the point's error bar ends, if it has one."""
    for i, (p, x, y) in enumerate(zip(s.points, s.xs, ys)):
        if not p.label:
            continue
        rivals = [oy for ox, oy in others if ox == x]
        if all(oy < y for oy in rivals):
            xy, off, ha, va = (x, above[i] if above else y), (0, 7), "center", "bottom"
        elif all(oy > y for oy in rivals):
            xy, off, ha, va = (x, below[i] if below else y), (0, -7), "center", "top"
        else:
            xy, off, ha, va = (x, y), (9, 0), "left", "center"
        ax.annotate(p.label.replace("x", "×"), xy, textcoords="offset points", xytext=off,
                    ha=ha, va=va, fontsize=fontsize, color=s.color, fontweight="bold",
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85),
                    zorder=5)


def set_log2_y(ax, ticker, lo, hi):
    ax.set_yscale("log", base=2)
    ticks = [2.0 ** k for k in range(math.floor(math.log2(lo)), math.ceil(math.log2(hi)) + 1)]
    ax.yaxis.set_major_locator(ticker.FixedLocator(ticks))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_locator(ticker.NullLocator())
    ax.set_ylim(lo, hi)


def draw(reports, kind, output, argv):
    plt, _ = import_pyplot(argv)
    fig = build_figure(reports, kind, argv)
    save_figure(plt, fig, output)


def build_figure(reports, kind, argv=()):
    """The two panels as a matplotlib figure (not saved): (a) ax_t, (b) ax_s."""
    plt, ticker = import_pyplot(list(argv))

    series = []
    for r in reports:
        series += compare_series(r) if kind == "compare" else sweep_series(r)
    if not series:
        raise InputError("nothing to plot: no usable points in " +
                         ", ".join(r.path for r in reports))
    label_series(reports, series, kind)
    legend_entries = style_series(reports, series, kind)
    scale, unit = time_unit(series)
    all_x = [x for s in series for x in s.xs]

    if kind == "compare":
        xlabel = "total concurrency c = ranks × threads (log₂ scale)"
    else:
        ranks = {r.ranks for r in reports}
        if len(ranks) == 1 and None not in ranks:
            n = ranks.pop()
            xlabel = f"threads per rank, {n} rank{'s' if n != 1 else ''} (log₂ scale)"
        else:
            xlabel = "threads per rank (log₂ scale; ranks in the legend)"

    counts = {p.count for s in series for p in s.points if p.count is not None}
    reps = f"{counts.pop()} repetitions" if len(counts) == 1 else "the repetitions"

    with_ops = [(r, p) for r in reports for p in r.points if p.operations]
    panels = 3 if with_ops else 2
    size = (19, 5.4) if with_ops else (13, 5.4)
    try:
        fig, axes = plt.subplots(1, panels, figsize=size, dpi=120, layout="constrained")
    except TypeError:  # matplotlib < 3.5
        fig, axes = plt.subplots(1, panels, figsize=size, dpi=120, constrained_layout=True)
    ax_t, ax_s = axes[0], axes[1]
    if with_ops:
        draw_operations(axes[2], reports, with_ops)

    # (a) time
    for s in series:
        ys = [p.center * scale for p in s.points]
        lo = [(p.center - p.lo) * scale for p in s.points]
        hi = [(p.hi - p.center) * scale for p in s.points]
        ax_t.errorbar(s.xs, ys, yerr=[lo, hi], marker=s.marker, color=s.color, capsize=4,
                      linestyle=s.linestyle, linewidth=1.8, markersize=MODE_LAYER[s.mode][1],
                      zorder=MODE_LAYER[s.mode][0], label=s.label)
    for s in series:
        if s.mode == "hybrid":
            others = [(x, p.center * scale) for o in series if o is not s
                      for x, p in zip(o.xs, o.points)]
            annotate(ax_t, s, [p.center * scale for p in s.points], others,
                     above=[p.hi * scale for p in s.points],
                     below=[p.lo * scale for p in s.points])
    ax_t.set_title(time_title(reports, series, reps), fontsize=10)
    unmeasured = [label for r in reports for label, _, _, _ in r.unmeasured if label]
    if unmeasured:  # an interrupted run: say what is missing rather than leave it out silently
        ax_t.text(0.02, 0.98, "not measured (interrupted): " + ", ".join(unmeasured).replace("x", "×"),
                  transform=ax_t.transAxes, ha="left", va="top", fontsize=8, color="0.3")
    ax_t.set_ylabel(f"makespan of the write phase ({unit})")
    ax_t.set_ylim(bottom=0, top=max(p.hi for s in series for p in s.points) * scale * 1.12)

    # (b) speedup; points without one (their baseline was not measured) are left out.
    def with_speedup(s):
        return [(x, p) for x, p in zip(s.xs, s.points) if p.speedup is not None]

    for s in series:
        known = with_speedup(s)
        if not known:
            continue
        xs, ys = [x for x, _ in known], [p.speedup for _, p in known]
        style = dict(marker=s.marker, color=s.color, linestyle=s.linestyle, linewidth=1.8,
                     markersize=MODE_LAYER[s.mode][1], zorder=MODE_LAYER[s.mode][0],
                     label=s.label)
        if any(p.speedup_lo is not None for _, p in known):  # v4: the bootstrap interval
            lo = [p.speedup - p.speedup_lo if p.speedup_lo is not None else 0 for _, p in known]
            hi = [p.speedup_hi - p.speedup if p.speedup_hi is not None else 0 for _, p in known]
            ax_s.errorbar(xs, ys, yerr=[lo, hi], capsize=4, **style)
        else:
            ax_s.plot(xs, ys, **style)
    speedups = [p.speedup for s in series for _, p in with_speedup(s)]
    speedup_ends = speedups + [v for s in series for _, p in with_speedup(s)
                               for v in (p.speedup_lo, p.speedup_hi) if v is not None]
    ideal_handles = []
    if speedups:
        for s in series:
            if s.mode == "hybrid":
                others = [(x, p.speedup) for o in series if o is not s for x, p in with_speedup(o)]
                s_known = Series(s.report, s.mode, [p for _, p in with_speedup(s)],
                                 s.baseline_x, s.x_of)
                s_known.color = s.color
                annotate(ax_s, s_known, [p.speedup for p in s_known.points], others)
        what = "c" if kind == "compare" else "threads"
        for x0 in sorted({s.baseline_x for s in series}):
            xs = sorted({x for x in all_x if x >= x0} | {x0})
            (h,) = ax_s.plot(xs, [x / x0 for x in xs], linestyle="--", color="0.35",
                             linewidth=1.2, label=f"ideal: speedup = {what} / {x0}", zorder=1)
            ideal_handles.append(h)
        ideal_top = max(all_x) / min(s.baseline_x for s in series)
        set_log2_y(ax_s, ticker, min(min(speedup_ends), 1.0) / 1.35,
                   max(max(speedup_ends), ideal_top) * 1.35)
    if any(r.baseline_unmeasured for r in reports):
        ax_s.text(0.5, 0.5 if not speedups else 0.04,
                  "no speedup: the baseline was not measured (interrupted run)",
                  transform=ax_s.transAxes, ha="center", va="center", fontsize=9, color="0.3")
    base_text = "1 rank × 1 thread" if kind == "compare" else "the fewest threads"
    if all(r.medians for r in reports):
        base_text += " (of medians), bars = 95 % CI"
    ax_s.set_title(f"(b) speedup over {base_text} (higher is better)", fontsize=10)
    ax_s.set_ylabel("speedup (× faster than the baseline, log₂ scale)")

    for ax in (ax_t, ax_s):
        set_log2_x(ax, ticker, all_x)
        ax.set_xlabel(xlabel)
        ax.grid(True, which="major", alpha=0.3)

    fig.suptitle(title_text(reports, kind), fontsize=11)
    if legend_entries is None:
        handles, labels = ax_t.get_legend_handles_labels()
    else:
        handles, labels = [list(x) for x in zip(*legend_entries)]
    handles += ideal_handles
    labels += [h.get_label() for h in ideal_handles]
    ncol = min(len(handles), 4)
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               frameon=False, fontsize=9)

    return fig


def draw_operations(ax, reports, with_ops):
    """(c): per point a stacked bar of its operations' mean latencies and the rest of the
    file's mean latency (the engine's own work between them, --slow-rank's sleep)."""
    labels, bottoms = [], [0.0] * len(with_ops)
    for r, p in with_ops:
        label = (p.label or "?").replace("x", "×")
        if len(reports) > 1:
            label += f"\n{os.path.basename(r.path)}"
        labels.append(label)
    xs = list(range(len(with_ops)))
    for name in OPERATIONS + ("rest",):
        if name == "rest":
            heights = [max(0.0, p.operations.get("file", 0.0) - b) for (_, p), b in zip(with_ops, bottoms)]
        else:
            heights = [p.operations.get(name, 0.0) for _, p in with_ops]
        if not any(h > 0 for h in heights) and name != "rest":
            continue
        ax.bar(xs, heights, bottom=bottoms, color=OPERATION_COLORS[name], width=0.7,
               label=name if name != "rest" else "rest of the file's latency")
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=45 if len(xs) > 6 else 0, fontsize=8)
    ax.set_ylabel("mean latency per file (µs), median over the repetitions")
    ax.set_xlabel("point (ranks × threads)")
    ax.set_title("(c) where a file's time goes: mean per operation", fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(True, axis="y", alpha=0.3)


def save_figure(plt, fig, output):
    fmt = os.path.splitext(output)[1].lstrip(".").lower() or "png"
    directory = os.path.dirname(os.path.abspath(output))
    tmp = os.path.join(directory, f".{os.path.basename(output)}.tmp-{os.getpid()}")
    try:
        fig.savefig(tmp, format=fmt, bbox_inches="tight", pad_inches=0.25)
        os.replace(tmp, output)
    except ValueError as e:
        _remove(tmp)
        reason = next((line for line in str(e).splitlines() if line.strip()), type(e).__name__)
        die(f"cannot draw {output}: {reason}", 2)
    except OSError as e:
        _remove(tmp)
        die(f"cannot write {output}: {e.strerror or e}", 1)
    finally:
        plt.close(fig)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def main(argv):
    parser = argparse.ArgumentParser(
        prog="plot.py",
        description="Plot mpiwrite JSON reports (kind sweep or compare, schema_version 2, 3 or "
                    "4): "
                    "makespan and speedup against concurrency.")
    parser.add_argument("reports", nargs="+", metavar="REPORT.json",
                        help="mpiwrite --format json reports of one kind")
    parser.add_argument("-o", "--output", metavar="OUT.png",
                        help="the image to write (default: the first report with .png)")
    parser.add_argument("--layout", metavar="NAME",
                        help="draw the points of this directory layout (shared, rank, thread); "
                             "needed for a report of several (--layout A,B); speedups of a "
                             "layout other than the report's first are against its own 1 x 1, "
                             "without intervals")
    args = parser.parse_args(argv)
    output = args.output or os.path.splitext(args.reports[0])[0] + ".png"
    try:
        reports = [load(path, args.layout) for path in args.reports]
        kinds = sorted({r.kind for r in reports})
        if len(kinds) > 1:
            raise InputError("cannot plot reports of different kinds together: " +
                             ", ".join(f"{r.path} is {r.kind}" for r in reports))
        draw(reports, kinds[0], output, argv)
    except InputError as e:
        die(str(e), 2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
