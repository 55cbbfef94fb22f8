#!/usr/bin/env python3
"""The one reader of mpiwrite's JSON reports (schema_version 2 to 5): plot.py, the job
scripts' summary (job_summary.py) and the benchmark (bench/mpiwrite_bench) read them here.

Standard library only: it runs on a cluster's login node without matplotlib. A report is read
as hostile text: a first byte that cannot start JSON, more than 1 GiB, arrays and objects
nested deeper than 64, integers beyond 64 bits, NaN, Infinity and numbers beyond a double are
refused with one line (ReportError) before any field is read, and control characters in
strings become '?'. Any field may still be absent or of another type: a point's figures are
read defensively, None where there is none.

    import mpiwrite_report as mr
    doc = mr.load("run.json")             # or mr.parse(name, text): the checked JSON object
    for p in mr.read_points(doc):         # the measured points with their figures
        print(p.label, p.ranks, p.threads, p.center, p.mean, p.median, p.last)
    mr.read_unmeasured(doc)               # the points an interrupted run never measured

As a command, `mpiwrite_report.py REPORT.json` prints one JSON line per measured point (exit 2
and one line on stderr when the report is refused).
"""

import json
import math
import re
import sys

# 3: figures of unmeasured points are null, cleanup.in_background; 2 reads the same way.
# 4: medians with intervals (summary.makespan_s.median_ci, summary.speedup {estimate, ci}).
SCHEMA_VERSIONS = (2, 3, 4, 5)
MEDIAN_SCHEMA = 4  # from this version on a point's centre is the median, with its interval
MODES = ("processes", "threads", "hybrid", "async")
OPERATIONS = ("create", "writes", "fsync", "close")
# What a report's text may hold (as mpiwrite-compare, docs/metrics.md "Hostile reports"): arrays
# and objects at most 64 deep (a report has 7 levels), integers of at most 19 digits (mpiwrite
# writes 64-bit counts; Python would parse 10^400, then fail to make it a float, and refuse
# to print one of more than 4300 digits), no NaN or Infinity and no number beyond a double.
MAX_NESTING = 64
MAX_INT_DIGITS = 19
MAX_REPORT_BYTES = 1 << 30  # far beyond a report (10^6 repetitions); an endless input stops
# The times kept: the clock's resolution up to ~31 years, so every speedup (a ratio of two)
# and every log2 tick is a finite float of a sane count. Outside: the point has no centre.
SHORTEST_S, LONGEST_S = 1e-9, 1e9


class ReportError(Exception):
    """A report that cannot be read; the message is one line."""


# ---------------------------------------------------------------------------------------
# The text: every class of hostile input refused before a field is read.


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
        raise ReportError(f"an integer beyond 64 bits: {shown}")
    return int(text)


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ReportError(f"a number beyond a double: {text[:40]}")
    return value


def _no_constant(text):
    raise ReportError(f"{text} is not a number mpiwrite writes")


def parse_report(path, text):
    """The report's JSON, or ReportError with one line: every class of hostile text (deep
    nesting, huge integers, NaN, Infinity, numbers beyond a double) refused here, before
    anything reads a field."""
    if _too_deep(text):
        raise ReportError(f"{path}: arrays and objects nested deeper than {MAX_NESTING} levels")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_finite_float,
                          parse_constant=_no_constant)
    except ReportError as e:
        raise ReportError(f"{path}: not an mpiwrite report ({e})")
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}: not valid JSON (line {e.lineno} column {e.colno}: {e.msg})")
    except (RecursionError, ValueError) as e:  # neither can happen after the checks above
        raise ReportError(f"{path}: not valid JSON ({type(e).__name__})")



def read_text(path):
    """The text of the file at path, or ReportError: read only as far as it can be a report."""
    try:
        with open(path, encoding="utf-8") as f:
            # Text that cannot start JSON needs no more reading (/dev/zero would otherwise be
            # read until memory runs out).
            text = f.read(4096)
            first = text.lstrip()[:1]
            if first and first not in '{["-0123456789tfn':
                raise ReportError(f"{path}: not valid JSON (it starts with {first!r})")
            text += f.read(MAX_REPORT_BYTES)
            if f.read(1):
                raise ReportError(f"{path}: larger than {MAX_REPORT_BYTES >> 20} MiB: not a "
                                 "report mpiwrite writes")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file")
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror or e}")
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not valid JSON (not UTF-8 text)")

    return text


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


def parse(path, text):
    """The report's JSON object from its text (path names it in messages), or ReportError:
    hostile text, not an object, no schema_version or one this reader does not know."""
    doc = parse_report(path, text)
    if isinstance(doc, (dict, list)):
        printable_strings(doc)
    if not isinstance(doc, dict):
        raise ReportError(f"{path}: not an mpiwrite report (the top level is not an object)")
    version = doc.get("schema_version")
    if "schema_version" not in doc:
        raise ReportError(f"{path}: not an mpiwrite report (no schema_version)")
    if number(version) not in SCHEMA_VERSIONS:
        raise ReportError(f"{path}: schema_version {shown(version)} is not supported "
                          f"(expected one of {', '.join(map(str, SCHEMA_VERSIONS))})")
    return doc


def load(path):
    """The checked JSON object of the report file at path, or ReportError."""
    return parse(path, read_text(path))


def kind_of(doc):
    """The report's kind: "run", "sweep", "compare", or what else it says (a report without a
    kind that holds one measurement is a run)."""
    kind = doc.get("kind")
    points = doc.get("points")
    if kind is None and (isinstance(doc.get("repetitions"), list)
                         or (isinstance(points, list) and len(points) <= 1)):
        kind = "run"
    return kind


def uses_medians(doc):
    """Whether the report's centre is the median (version 4 on) rather than the mean."""
    version = number(doc.get("schema_version"))
    return version is not None and version >= MEDIAN_SCHEMA


def hosts(doc):
    """[(host, rank count or None)] of context.hosts, in the report's order."""
    raw = dict_at(doc, "context").get("hosts")
    return [(h["host"], positive_int(h.get("rank_count")))
            for h in (raw if isinstance(raw, list) else [])
            if isinstance(h, dict) and isinstance(h.get("host"), str)]


# ---------------------------------------------------------------------------------------
# Fields: every one may be absent or of the wrong type.


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


def count(value):
    """A count 0 ... 2^53 (exact as a float), or None."""
    v = number(value)
    return int(v) if v is not None and 0 <= v <= 2 ** 53 and v == int(v) else None


def positive_int(value):
    """A count 1 ... 2^53 (exact as a float), or None."""
    v = number(value)
    return int(v) if v is not None and 1 <= v <= 2 ** 53 and v == int(v) else None


def dict_at(obj, key):
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, dict) else {}


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


# ---------------------------------------------------------------------------------------
# Points and their figures.


class Point:
    """A measured point. ranks, threads: the point's own (a sweep's or comparison's points
    differ; the config's threads are none of theirs). center: the makespan a plot draws (v4
    the median, else the mean); lo/hi: the ends of its error bar (v4 the median's interval,
    else min-max; center when there is none); speedup_lo/hi: the speedup's interval (v4 only;
    None when absent). mean, median: the makespan's, as the report gives them (None when
    absent); layout: the point's directory layout; last: the last repetition's figures
    (LastRepetition, or None without repetitions); phases: read_phases() of its summary."""
    __slots__ = ("label", "mode", "ranks", "threads", "concurrency", "center", "lo", "hi",
                 "speedup", "speedup_lo", "speedup_hi", "count", "operations", "mean",
                 "median", "layout", "last", "phases")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


class LastRepetition:
    """files, files_per_s: the last repetition's (None when absent); hosts: its per-host
    figures, [(host, files, bytes, slowest_rank_s)] with None for what is absent."""
    __slots__ = ("files", "files_per_s", "hosts")

    def __init__(self, rep):
        self.files = count(rep.get("files"))
        self.files_per_s = number(rep.get("files_per_s"))
        raw = rep.get("hosts")
        self.hosts = [(h["host"], count(h.get("files")), count(h.get("bytes")),
                       number(h.get("slowest_rank_s")))
                      for h in (raw if isinstance(raw, list) else [])
                      if isinstance(h, dict) and isinstance(h.get("host"), str)]


def read_last(repetitions):
    """The last repetition's figures, or None when there is no repetition."""
    if not isinstance(repetitions, list) or not repetitions:
        return None
    if not isinstance(repetitions[-1], dict):
        return None
    return LastRepetition(repetitions[-1])


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


def read_points(doc):
    """The measured points of the report (a Point each), in its order; a point without a
    concurrency or a makespan that can be drawn is left out."""
    medians = uses_medians(doc)
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
        point.mean, point.median = number(ms.get("mean")), number(ms.get("median"))
        point.layout = point_layout(p)
        point.last = read_last(p.get("repetitions"))
        point.phases = read_phases(summary)
        points.append(point)
    return points


# The phases a run can time (mpiwrite --phases), in the order they run.
PHASES = ("tree-create", "write", "stat", "read", "remove", "tree-remove")


def rate(value):
    """A rate (items per second) that can be drawn: positive and finite, or None."""
    v = number(value)
    return v if v is not None and v > 0 else None


def read_phases(summary):
    """{phase: (median rate, low, high, unit, speedup)} of summary.phases, in PHASES order: the
    rate is files_per_s (directories_per_s for the tree phases) at the median makespan, with the
    median's interval (low, high None when there is none); unit "files" or "directories";
    speedup the phase's against the baseline's same phase (its estimate; None when the report
    has none: null, or written before phases had one). A phase without a rate that can be drawn
    is left out; {} for a report without phases."""
    out = {}
    phases = dict_at(summary, "phases")
    for name in PHASES:
        figures = dict_at(phases, name)
        unit = "directories" if name.startswith("tree-") else "files"
        r = dict_at(figures, f"{unit}_per_s")
        center = rate(r.get("at_median"))
        if center is None:
            continue
        low, high = interval(r.get("median_ci"), rate)
        speedup, _, _ = estimate_and_interval(figures.get("speedup"))
        out[name] = (center, low, high, unit, speedup)
    return out


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
    medians = uses_medians(doc)
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

def point_layout(p):
    """A point's directory layout; reports from before layouts have none: shared."""
    layout = p.get("layout") if isinstance(p, dict) else None
    return layout if isinstance(layout, str) else "shared"



def main(argv):
    """One JSON line per measured point: what a shell script or another language reads."""
    if len(argv) != 1:
        print("usage: mpiwrite_report.py REPORT.json", file=sys.stderr)
        return 2
    try:
        doc = load(argv[0])
    except ReportError as e:
        print(f"mpiwrite_report.py: error: {e}", file=sys.stderr)
        return 2
    for p in read_points(doc):
        figures = {k: getattr(p, k) for k in Point.__slots__ if k != "last"}
        if p.last is not None:
            figures["last"] = {"files": p.last.files, "files_per_s": p.last.files_per_s,
                               "hosts": [list(h) for h in p.last.hosts]}
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
