#!/usr/bin/env python3
"""Plot mpiwrite JSON reports (schema_version 2 to 5) of kind "sweep" or "compare".

Usage: scripts/plot.py REPORT.json [REPORT2.json ...] [-o out.png] [--layout NAME] [--dpi N]

Two panels side by side: (a) the write phase's makespan against concurrency; (b) the
speedup with the ideal line dashed; and, for reports with per-operation latency
(repetitions[].operations_us), a third: (c) per point, where a file's time goes, a stacked bar
of each operation's mean latency (create, writes, fsync, close; the median over the
repetitions) with the rest of the file's mean latency (the gaps between them) on top; and, for
reports that timed more than the write phase (mpiwrite --phases), a second row with a panel
per phase: each point's median rate (summary.phases.NAME.files_per_s, directories_per_s for
the tree phases) with its 95 % interval (median_ci) as error bars, each point but the
baseline labelled with that phase's speedup over the baseline's same phase
(summary.phases.NAME.speedup, "×1.85"; none where the report has none). Version 4 reports: the median makespan with its 95 %
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
--layout NAME picks it (without it such a report is refused, exit 2). --dpi N sets the
image's resolution (default 120 dots per inch; the figure's size in inches is fixed, so the
width in pixels scales with N).

Exit status: 0 written; 1 the output could not be written; 2 bad usage or an input that
is missing, not JSON, of another schema_version, a single-point "run", or of mixed kinds;
3 matplotlib is not installed (Debian: apt-get install python3-matplotlib). If the
running python lacks matplotlib, the script re-runs itself once under /usr/bin/python3
when that one has it (pyenv shims often come first on PATH).
"""

import argparse
import math
import os
import sys

# The one reader of the report JSON (beside this file: plot.py is run by its path, or loaded
# by its path in the tests, so its folder is not on sys.path by itself).
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from mpiwrite_report import (  # noqa: E402
    MODES, OPERATIONS, PHASES, ReportError, dict_at, kind_of, parse, point_layout,
    points_from_comparison, positive_int, read_points, read_text, read_unmeasured, shown,
    uses_medians)

# A report that cannot be plotted (the reader's refusals and plot.py's own); one line.
InputError = ReportError

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
SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_GUARD = "MPIWRITE_PLOT_REEXEC"


def die(message, code):
    print(f"plot.py: error: {message}", file=sys.stderr)
    sys.exit(code)


def classify(mode, ranks, threads):
    if mode in MODES:
        return mode
    if ranks is None or threads is None:
        return None
    if threads == 1:
        return "processes"
    return "threads" if ranks == 1 else "hybrid"


OPERATION_COLORS = {"create": "tab:blue", "writes": "tab:orange", "fsync": "tab:purple",
                    "close": "tab:green", "rest": "0.8"}


class Report:
    def __init__(self, path, doc):
        self.path = path
        self.doc = doc
        self.kind = doc.get("kind")
        self.config = dict_at(doc, "config")
        self.context = dict_at(doc, "context")
        self.medians = uses_medians(doc)
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


def load(path, layout=None):
    """The Report of the report file at path (one layout of it), or InputError."""
    return from_doc(path, parse(path, read_text(path)), layout)


def from_text(path, text, layout=None):
    """The Report of a report's text, or InputError."""
    return from_doc(path, parse(path, text), layout)


def from_doc(path, doc, layout=None):
    """The Report of a report's checked JSON (the reader's parse()), or InputError: a run,
    another kind, no measured point."""
    kind = kind_of(doc)
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
            # Both centres are within the reader's SHORTEST_S .. LONGEST_S: the ratio is finite.
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


def verdict_marks(reports):
    """Each comparison row's three-way verdict at its concurrency (issue 26): the winner's
    name, "≈" (equivalent within ±D, --equivalence) or "?" (undecided); one report only, as
    the rows of two reports would overlap. Reports before the verdict classes have none."""
    if len(reports) != 1 or not isinstance(reports[0].doc.get("comparison"), list):
        return [], None
    marks = []
    for row in reports[0].doc["comparison"]:
        verdict = row.get("verdict") if isinstance(row, dict) else None
        if not isinstance(verdict, dict) or "verdict" not in verdict:
            continue
        text = {"equivalent": "≈", "undecided": "?"}.get(verdict["verdict"])
        if text is None:
            text = row.get("winner") or "?"
        marks.append((row.get("concurrency"), text))
    stats = reports[0].doc.get("statistics")
    d = stats.get("equivalence") if isinstance(stats, dict) else None
    return marks, d


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


DEFAULT_DPI = 120
MAX_DPI = 1200  # beyond this a two-row figure is gigapixels: a typo, not a wish


def draw(reports, kind, output, argv, dpi=DEFAULT_DPI):
    plt, _ = import_pyplot(argv)
    fig = build_figure(reports, kind, argv)
    save_figure(plt, fig, output, dpi)


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
    phases = timed_phases(series)
    if phases:  # a second row: one panel per phase, as wide as the first row allows
        columns = max(panels, len(phases))
        size = (max(size[0], 6.4 * columns), 10.8)
    try:
        fig = plt.figure(figsize=size, dpi=DEFAULT_DPI, layout="constrained")
    except TypeError:  # matplotlib < 3.5
        fig = plt.figure(figsize=size, dpi=DEFAULT_DPI, constrained_layout=True)
    if phases:
        grid = fig.add_gridspec(2, columns)
        axes = [fig.add_subplot(grid[0, i]) for i in range(panels)]
        draw_phases([fig.add_subplot(grid[1, i]) for i in range(len(phases))], phases, series,
                    ticker, xlabel)
    else:
        axes = [fig.add_subplot(1, panels, i + 1) for i in range(panels)]
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
    marks, d = verdict_marks(reports) if kind == "compare" else ([], None)
    for x, text in marks:
        if isinstance(x, (int, float)) and x > 0:
            ax_t.annotate(text, (x, 0), xytext=(0, 3), textcoords="offset points", ha="center",
                          va="bottom", fontsize=7, color="0.25")
    if marks and isinstance(d, (int, float)):
        ax_t.text(0.98, 0.02, f"verdict at each c: winner, ≈ equivalent within ±{100 * d:g} %, "
                  "? undecided", transform=ax_t.transAxes, ha="right", va="bottom",
                  fontsize=7, color="0.3")
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


def timed_phases(series):
    """The phases the drawn points timed, in the order they run, when there is more than the
    write phase (summary.phases); [] otherwise, and the figure is the one of a write-only run."""
    names = {name for s in series for p in s.points for name in (p.phases or {})}
    if not names - {"write"}:
        return []
    return [name for name in PHASES if name in names]


def draw_phases(axes, phases, series, ticker, xlabel):
    """A panel per phase: the median rate of each point (files or directories per second;
    higher is better) with the median's 95 % interval as error bars, on the lines of (a), and
    beside each point but the baseline its speedup in that phase (the report's, when it has
    one: a point whose phase timed nothing has none)."""
    letters = "defghijk"
    for ax, name, letter in zip(axes, phases, letters):
        unit = "directories" if name.startswith("tree-") else "files"
        xs_drawn = []
        labelled = False
        for s in series:
            known = [(x, p.phases[name]) for x, p in zip(s.xs, s.points)
                     if p.phases and name in p.phases]
            if not known:
                continue
            xs = [x for x, _ in known]
            ys = [f[0] for _, f in known]
            lo = [f[0] - f[1] if f[1] is not None else 0 for _, f in known]
            hi = [f[2] - f[0] if f[2] is not None else 0 for _, f in known]
            ax.errorbar(xs, ys, yerr=[lo, hi], marker=s.marker, color=s.color, capsize=4,
                        linestyle=s.linestyle, linewidth=1.8, markersize=MODE_LAYER[s.mode][1],
                        zorder=MODE_LAYER[s.mode][0], label=s.label)
            for x, f in known:
                if f[4] is None or x == s.baseline_x:  # the baseline's is 1 by definition
                    continue
                ax.annotate(f"×{f[4]:.2f}", (x, f[0]), textcoords="offset points", xytext=(6, 6),
                            fontsize=7, color=s.color, gid="phase-speedup")
                labelled = True
            xs_drawn += xs
        if xs_drawn:
            set_log2_x(ax, ticker, xs_drawn)
            ax.set_ylim(bottom=0, top=ax.get_ylim()[1] * 1.08)  # room for the labels
        ax.set_title(f"({letter}) {name}: {unit} per second, median, bars = 95 % CI"
                     f"{', labels = speedup' if labelled else ''} (higher is better)",
                     fontsize=9)
        ax.set_ylabel(f"{unit} / s")
        ax.set_xlabel(xlabel)
        ax.grid(True, which="major", alpha=0.3)


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


def save_figure(plt, fig, output, dpi=DEFAULT_DPI):
    fmt = os.path.splitext(output)[1].lstrip(".").lower() or "png"
    directory = os.path.dirname(os.path.abspath(output))
    tmp = os.path.join(directory, f".{os.path.basename(output)}.tmp-{os.getpid()}")
    try:
        fig.savefig(tmp, format=fmt, bbox_inches="tight", pad_inches=0.25, dpi=dpi)
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
        description="Plot mpiwrite JSON reports (kind sweep or compare, schema_version 2 to "
                    "5): "
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
    parser.add_argument("--dpi", metavar="N", type=int, default=DEFAULT_DPI,
                        help=f"the image's resolution in dots per inch, 1 to {MAX_DPI} "
                             f"(default {DEFAULT_DPI})")
    args = parser.parse_args(argv)
    if not 1 <= args.dpi <= MAX_DPI:
        parser.error(f"--dpi {args.dpi}: must be 1 to {MAX_DPI}")
    output = args.output or os.path.splitext(args.reports[0])[0] + ".png"
    try:
        reports = [load(path, args.layout) for path in args.reports]
        kinds = sorted({r.kind for r in reports})
        if len(kinds) > 1:
            raise InputError("cannot plot reports of different kinds together: " +
                             ", ".join(f"{r.path} is {r.kind}" for r in reports))
        draw(reports, kinds[0], output, argv, args.dpi)
    except InputError as e:
        die(str(e), 2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
