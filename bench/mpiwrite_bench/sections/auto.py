"""Section "auto" (only when named; issue 26): the seed's table with `-r 100` against `-r auto`.

The seed's question, processes or threads, is mpiwrite's `--compare`: one launch of
`mpirun -np C mpiwrite --compare --max-concurrency C -n FILES` (C = 64, FILES = 100 files of
--lines lines) measures, at every concurrency c = 1, 2, 4, ... C, c ranks x 1 thread against
1 rank x c threads, and also the hybrids p x c/p (mpiwrite has no option to leave them out:
28 points at C = 64), and gives a verdict per c (faster / equivalent / undecided,
docs/metrics.md). Two variants of that one command, the only difference the repetitions:
  fixed   -r FIXED_REPS (100, as the seed and the README)
  auto    -r auto (--precision, --max-time, --max-repetitions passed through when given;
          else mpiwrite's defaults: 2 %, 60 s of timed phases, 1,000)
(--equivalence, when given, goes to both)
and, unless --auto-startup 0, a third that tells the launch from the work:
  startup `mpirun -np C mpiwrite -n 1 -r 1`: the start-up and finalize of C ranks.
ROUNDS (3) interleaved rounds (the harness rotates who goes first every round); every run
writes into a fresh directory (mpiwrite's own removal phase deletes its files before it
exits) and its JSON report beside it (--json), the default text report on standard output
kept as a user sees it. Per run: the wall time of the whole mpirun (from before its launch to
its exit), the timed phases (the sum of every repetition's makespan over every point: what
--max-time budgets), the steps (points x repetitions), and per point its repetitions,
stopped_by and precision; per concurrency the verdict. The figures: the ratio of the medians
of the wall time, auto / fixed (goal: <= 1/3), and whether the verdicts agree, per round
(fixed and auto of the same round) and, as the reference of how reproducible -r 100 is
itself, between the fixed runs of different rounds. A pair of verdicts is "same", "one
undecided" (one side decided, the other did not: no contradiction) or "contradict" (both
decided, differently).
File systems: shm (tmpfs, default) or netfs: the GlusterFS testbed of the netfs section
(root; brought up and torn down here, the ranks on one client host, RTT --auto-rtt-us,
2 ms). The local disk is not offered: mpiwrite's removal phase deletes every run's files,
and on ext4 without a journal the next run's creates would then fall into the inode trap
(scratch.py)."""
import os
import shutil
import subprocess
import time
import types
from dataclasses import dataclass

from ..harness import check_config, parse_report
from ..scratch import BenchError, SpaceNeed, log
from ..stats import median, summary

NAME = "auto"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
GOAL_RATIO = 1 / 3  # issue 26: the same verdicts in a third of the time or less


@dataclass
class Params:
    max_concurrency: int = 64
    files: int = 100
    rounds: int = 3
    fixed_reps: int = 100
    fs: str = "shm"              # shm or netfs (the GlusterFS testbed, root)
    rtt_us: int = 2000           # netfs only
    startup: bool = True         # also time `mpirun -np C mpiwrite -n 1 -r 1`
    precision: str = ""          # "" : mpiwrite's default, else passed to --precision
    max_time_s: float = 0        # 0 : mpiwrite's default, else --max-time
    max_repetitions: int = 0     # 0 : mpiwrite's default, else --max-repetitions
    equivalence: str = ""        # "" : mpiwrite's default, else --equivalence

    def __post_init__(self):
        if self.fs not in ("shm", "netfs"):
            raise BenchError("--auto-fs: shm or netfs")
        if not 1 <= self.max_concurrency <= 1024 or self.rounds < 1 or self.files < 1:
            raise BenchError("--auto-max-concurrency 1..1024, --auto-rounds and --auto-files "
                             ">= 1")
        if self.fixed_reps < 1 or self.max_repetitions < 0 or self.max_time_s < 0:
            raise BenchError("--auto-fixed-reps >= 1, --auto-max-repetitions and "
                             "--auto-max-time >= 0")

    @classmethod
    def smoke(cls):
        # Toy size: 3 points (1x1, 2x1, 1x2) of 10 files; -r auto capped at 8 rounds.
        return cls(max_concurrency=2, files=10, rounds=1, fixed_reps=6, max_repetitions=8,
                   startup=False)

    @property
    def variants(self):
        return ["fixed", "auto"] + (["startup"] if self.startup else [])


def concurrencies(max_concurrency):
    """c = 1, 2, 4, ... up to max_concurrency, as mpiwrite --compare makes them."""
    out, c = [], 1
    while c <= max_concurrency:
        out.append(c)
        c *= 2
    return out


def point_count(max_concurrency):
    """mpiwrite --compare's points with as many ranks as max_concurrency: at c = 1 one, at
    c = 2^k processes, threads and the k - 1 hybrids p x c/p (1 < p < c)."""
    return sum(1 if c == 1 else 2 + (c.bit_length() - 2) for c in concurrencies(max_concurrency))


def mpiwrite_options(p, variant):
    """The options after mpiwrite --files ... --threads 1 of a variant."""
    if variant == "startup":
        return ["--repetitions", "1", "--format", "json"]
    out = ["--compare", "--max-concurrency", str(p.max_concurrency)]
    if p.equivalence:  # both: the verdicts compared must be the same question
        out += ["--equivalence", p.equivalence]
    if variant == "fixed":
        return out + ["--repetitions", str(p.fixed_reps)]
    out += ["--repetitions", "auto"]
    for flag, value in (("--precision", p.precision), ("--max-time", p.max_time_s),
                        ("--max-repetitions", p.max_repetitions)):
        if value:
            out += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return out


def plan(p, h):
    files = point_count(p.max_concurrency) * p.fixed_reps * p.files  # kept until its removal
    return {"cells": [{"fs": p.fs, "max_concurrency": p.max_concurrency, "files": p.files,
                       "variants": p.variants, "rounds": p.rounds}],
            "need": SpaceNeed(shm_cell_files=files if p.fs == "shm" else 1)}


def parameters(p, h):
    return {"fs": p.fs, "rtt_us": p.rtt_us if p.fs == "netfs" else None,
            "max_concurrency": p.max_concurrency, "points": point_count(p.max_concurrency),
            "files": p.files, "rounds": p.rounds, "fixed_repetitions": p.fixed_reps,
            "variants": p.variants,
            "options": {v: " ".join(mpiwrite_options(p, v)) for v in p.variants},
            "auto_settings": {"precision": p.precision or "default",
                              "max_time_s": p.max_time_s or "default",
                              "max_repetitions": p.max_repetitions or "default",
                              "equivalence": p.equivalence or "default"},
            "figure": "median wall time of the whole mpirun, auto / fixed; verdicts per "
                      "concurrency, fixed vs auto of the same round",
            "order": "rounds interleaved; the first variant rotates", "goal_ratio": GOAL_RATIO}


# ---------------------------------------------------------------------------------------
# What one run's report says (pure: tests/bench/test_auto.py)

def verdict_label(v):
    """'processes faster', 'equivalent', 'undecided' of a comparison row's verdict; None when
    nothing was decided there (one point at that concurrency)."""
    if not v:
        return None
    return f"{v['fastest']} faster" if v.get("verdict") == "faster" else v.get("verdict")


def run_figures(report):
    """Per point (label, mode, concurrency, repetitions, stopped_by, precision, median) and per
    concurrency the verdict of one --compare report, and its timed phases: the sum of every
    measured repetition's makespan, which is what --max-time budgets."""
    points, timed, steps = [], 0.0, 0
    for pt in report.get("points") or []:
        reps = pt.get("repetitions") or []
        sm = pt.get("summary") or {}
        timed += sum(r["makespan_s"] for r in reps)
        steps += len(reps)
        mk = sm.get("makespan_s") or {}
        points.append({"label": pt.get("label"), "mode": pt.get("mode"),
                       "concurrency": pt.get("concurrency"), "repetitions": len(reps),
                       "stopped_by": sm.get("stopped_by"), "precision": sm.get("precision"),
                       "median_s": mk.get("median")})
    verdicts = {}
    for row in report.get("comparison") or []:
        v = row.get("verdict")
        verdicts[str(row["concurrency"])] = {
            "label": verdict_label(v), "outcome": v and v.get("outcome"),
            "p_value": v and v.get("p_value"),
            "ratio": v and (v.get("ratio") or {}).get("estimate")}
    return {"points": points, "timed_s": timed, "steps": steps, "verdicts": verdicts,
            "rounds_begun": (report.get("config") or {}).get("repetitions"),
            "seed": report.get("seed")}


def pair_kind(a, b):
    """'same', 'one undecided' or 'contradict' for two verdict labels (None: not compared)."""
    if a is None or b is None:
        return None
    if a == b:
        return "same"
    if "undecided" in (a, b):
        return "one undecided"
    return "contradict"


def agreement(rounds):
    """Per concurrency the verdict of every round's fixed and auto run, and how they pair:
    fixed against auto of the same round, and fixed against fixed of two rounds (how
    reproducible -r 100 is itself)."""
    cs = sorted({int(c) for r in rounds for v in ("fixed", "auto") if v in r
                 for c in r[v]["verdicts"]})
    rows, counts, ref = [], {}, {}
    for c in cs:
        fixed = [r["fixed"]["verdicts"].get(str(c), {}).get("label") for r in rounds]
        auto = [r["auto"]["verdicts"].get(str(c), {}).get("label") for r in rounds]
        pairs = [pair_kind(a, b) for a, b in zip(fixed, auto)]
        among = [pair_kind(fixed[i], fixed[j]) for i in range(len(fixed))
                 for j in range(i + 1, len(fixed))]
        for kind in pairs:
            if kind:
                counts[kind] = counts.get(kind, 0) + 1
        for kind in among:
            if kind:
                ref[kind] = ref.get(kind, 0) + 1
        if all(x is None for x in pairs):
            continue  # c = 1: one point, nothing decided
        rows.append({"concurrency": c, "fixed": fixed, "auto": auto, "pairs": pairs,
                     "fixed_vs_fixed": among})
    return {"rows": rows, "fixed_vs_auto": counts, "fixed_vs_fixed": ref,
            "all_same": bool(rows) and all(k == "same" for r in rows for k in r["pairs"])}


def variant_figures(rounds, variant):
    """Summaries over the rounds of one variant's wall time, timed phases, steps, and over its
    points of every round the repetitions, stopped_by and precision."""
    runs = [r[variant] for r in rounds if variant in r]
    if not runs:
        return None
    out = {"wall_s": summary([x["wall_s"] for x in runs])}
    if variant == "startup":
        return out
    pts = [pt for x in runs for pt in x["points"]]
    prec = [pt["precision"] for pt in pts if pt["precision"] is not None]
    stopped = {}
    for pt in pts:
        stopped[pt["stopped_by"]] = stopped.get(pt["stopped_by"], 0) + 1
    out.update(timed_s=summary([x["timed_s"] for x in runs]),
               steps=summary([x["steps"] for x in runs]),
               repetitions=summary([pt["repetitions"] for pt in pts]),
               stopped_by=stopped, precision=summary(prec) if prec else None,
               outside_per_step_ms=None)
    return out


def outside_per_step(fig, startup):
    """(wall - start-up - timed phases) / steps in ms, at the medians: what a step costs
    beyond its timed phase (directories, barriers, the gathers, the quiet waits)."""
    if not fig or not startup or not fig["steps"]["median"]:
        return None
    rest = fig["wall_s"]["median"] - startup["wall_s"]["median"] - fig["timed_s"]["median"]
    return rest / fig["steps"]["median"] * 1e3


# ---------------------------------------------------------------------------------------
# The runs

class Place:
    """Where the runs go: a directory under the tmpfs scratch root, or on the GlusterFS
    testbed's mount (brought up here, torn down in close())."""

    def __init__(self, p, h):
        self.p, self.h, self.bed, self.flags, self.env = p, h, None, None, None
        self.binary = h.bins.mpiwrite
        if p.fs == "shm":
            self.root = os.path.join(h.scratch.shm, "auto")
            os.mkdir(self.root)
            return
        from . import netfs  # the testbed and its launch, as the netfs section uses them
        self.bed = netfs.Testbed(REPO, types.SimpleNamespace(testbed=True, local_dir=""), h)
        try:
            self.bed.up()
            self.binary = self.bed.binary
            self.bed.set_rtt(p.rtt_us)
            self.flags, self.env = self.bed.launch(types.SimpleNamespace(clients=1))
            self.root = os.path.join(netfs.MNT, f"mpiwrite-bench-auto-{os.getpid()}")
            os.mkdir(self.root)
        except BaseException:
            self.close()
            raise

    def close(self):
        if self.bed is None:
            shutil.rmtree(self.root, ignore_errors=True)
            return
        if self.bed.rtt is not None:
            self.bed.set_rtt(0)
        if getattr(self, "root", None):
            shutil.rmtree(self.root, ignore_errors=True)
        self.bed.down()


def one_run(p, h, place, variant, name):
    d = os.path.join(place.root, name)
    json_path = d + ".json"
    ranks = p.max_concurrency
    opts = mpiwrite_options(p, variant)
    files = 1 if variant == "startup" else p.files
    # No --threads: mpiwrite refuses it beside --compare --max-concurrency.
    args = [place.binary, "--files", str(files), "--lines", str(h.lines), "--text", h.text,
            "--dir", d, *opts]
    if variant != "startup":
        args += ["--json", json_path]
    cmd = h.mpirun_cmd(ranks, args, flags=place.flags)
    what = f"mpiwrite ({variant}, -np {ranks}) in {d}"
    env = None if place.env is None else {**os.environ, **place.env}
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.perf_counter() - t0
    try:
        if r.returncode != 0:
            raise BenchError(f"{what} failed (exit {r.returncode}): {r.stderr[-2000:]}")
        if variant == "startup":
            parse_report(r.stdout, what)
            log(f"auto: startup: wall {wall:.1f} s")
            return {"seconds": wall, "wall_s": wall}
        with open(json_path) as f:
            report = parse_report(f.read(), what)
        check_config(report, {"files": p.files, "compare": True,
                              "max_concurrency": p.max_concurrency,
                              "auto_repetitions": variant == "auto"}, what)
        fig = run_figures(report)
        if len(fig["points"]) != point_count(p.max_concurrency):
            raise BenchError(f"{what}: {len(fig['points'])} points, expected "
                             f"{point_count(p.max_concurrency)}")
        stopped = {}
        for pt in fig["points"]:
            stopped[pt["stopped_by"]] = stopped.get(pt["stopped_by"], 0) + 1
        # Logged as it comes: a long run that is stopped half-way still leaves its figures.
        log(f"auto: {variant}: wall {wall:.1f} s, timed phases {fig['timed_s']:.2f} s, "
            f"{fig['steps']} steps, stopped by {stopped}, verdicts "
            f"{ {c: v['label'] for c, v in fig['verdicts'].items()} }")
        return {"seconds": wall, "wall_s": wall, **fig, "text": r.stdout}
    finally:
        if os.path.exists(json_path):
            os.unlink(json_path)
        shutil.rmtree(d, ignore_errors=True)  # mpiwrite removed its files; a failed run's too


def run(p, h):
    n = point_count(p.max_concurrency)
    where = ("tmpfs" if p.fs == "shm" else
             f"the GlusterFS testbed at RTT {p.rtt_us} us (one client host)")
    h.note(f"Section auto: `{h.mpirun} {' '.join(h.mpirun_flags)} -np {p.max_concurrency} "
           f"mpiwrite --compare --max-concurrency {p.max_concurrency} -n {p.files}` ({n} points) "
           f"with -r {p.fixed_reps} and with -r auto, {p.rounds} interleaved round(s) on "
           f"{where}, each run into a fresh directory.")
    log(f"auto: -np {p.max_concurrency}, {n} points, {p.files} files, -r {p.fixed_reps} vs "
        f"-r auto, {p.rounds} round(s) on {where}")
    place = Place(p, h)
    try:
        def one(variant, run_no, position=0):
            return one_run(p, h, place, variant, f"{variant}-{run_no}-{position}")

        rounds = h.cell(p.variants, p.rounds, 1, one,
                        lambda k, text: log(f"auto round {k}/{p.rounds}: {text}"))
    finally:
        place.close()
    return rounds


# ---------------------------------------------------------------------------------------
# Figures

def summarize(meta, sec, rounds):
    op = sec["parameters"]
    figs = {v: variant_figures(rounds, v) for v in op["variants"]}
    for v in ("fixed", "auto"):
        figs[v]["outside_per_step_ms"] = outside_per_step(figs[v], figs.get("startup"))
    ratio = figs["auto"]["wall_s"]["median"] / figs["fixed"]["wall_s"]["median"]
    paired = [r["auto"]["wall_s"] / r["fixed"]["wall_s"] for r in rounds]
    timed_ratio = figs["auto"]["timed_s"]["median"] / figs["fixed"]["timed_s"]["median"]
    agree = agreement(rounds)
    sec["runs"] = rounds
    sec["summary"] = {"variants": figs, "ratio_of_medians": ratio,
                      "paired_ratios": summary(paired), "timed_ratio_of_medians": timed_ratio,
                      "agreement": agree, "goal_ratio": op["goal_ratio"],
                      "goal_met": ratio <= op["goal_ratio"] and agree["all_same"]}
    return markdown(meta, sec, rounds)


def _s(s):
    d = 3 if s["min"] < 10 else 1
    return f"{s['median']:.{d}f} [{s['min']:.{d}f}–{s['max']:.{d}f}]"


def _stopped(d):
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items()))


def _prec(s):
    return "-" if not s else f"{s['median'] * 100:.1f}% (max {s['max'] * 100:.1f}%)"


def _labels(xs):
    return ", ".join(x or "-" for x in xs)


def markdown(meta, sec, rounds):
    op, sm = sec["parameters"], sec["summary"]
    fx, au, st = (sm["variants"].get(v) for v in ("fixed", "auto", "startup"))
    where = "tmpfs" if op["fs"] == "shm" else f"GlusterFS testbed, RTT {op['rtt_us']} µs"
    md = [f"## Auto: `-r {op['fixed_repetitions']}` against `-r auto` on the seed's table — "
          f"{meta['started_utc']}", "",
          f"`mpirun -np {op['max_concurrency']} mpiwrite --compare --max-concurrency "
          f"{op['max_concurrency']} -n {op['files']}` ({op['points']} points: c ranks × 1, 1 × c "
          f"threads and the hybrids, c = 1 … {op['max_concurrency']}) on {where}, "
          f"{op['rounds']} interleaved round(s). Wall = the whole mpirun; timed phases = the "
          f"sum of every repetition's makespan (what `--max-time` budgets); outside per step = "
          f"(wall − start-up − timed) / steps at the medians. -r auto settings: "
          f"{', '.join(f'{k} {v}' for k, v in op['auto_settings'].items())}.", "",
          "| variant | wall s median [min–max] | timed phases s | steps | outside per step ms "
          "| repetitions per point median [min–max] | stopped by (points × runs) | precision "
          "median (max) |", "|---|---|---|---|---|---|---|---|"]
    for name, f in ((f"-r {op['fixed_repetitions']}", fx), ("-r auto", au)):
        o = f["outside_per_step_ms"]
        md.append(f"| {name} | {_s(f['wall_s'])} | {_s(f['timed_s'])} | "
                  f"{f['steps']['median']:g} | {'-' if o is None else f'{o:.0f}'} | "
                  f"{f['repetitions']['median']:g} [{f['repetitions']['min']}–"
                  f"{f['repetitions']['max']}] | {_stopped(f['stopped_by'])} | "
                  f"{_prec(f['precision'])} |")
    if st:
        md.append(f"| start-up (`-n 1 -r 1`) | {_s(st['wall_s'])} | - | 1 | - | - | - | - |")
    a = sm["agreement"]
    md += ["", f"Wall time auto / fixed, ratio of medians: **{sm['ratio_of_medians']:.3f}** "
           f"(paired per round: median {sm['paired_ratios']['median']:.3f} "
           f"[{sm['paired_ratios']['min']:.3f}–{sm['paired_ratios']['max']:.3f}]); timed phases "
           f"auto / fixed: {sm['timed_ratio_of_medians']:.3f}. Goal: <= 1/3 with the same "
           f"verdicts: {'met' if sm['goal_met'] else '**not met**'}. Verdict pairs fixed vs auto "
           f"of a round: {_stopped(a['fixed_vs_auto']) or '-'}; fixed vs fixed of two rounds "
           f"(the reference): {_stopped(a['fixed_vs_fixed']) or '- (one round)'}.", "",
           "| c | -r fixed, by round | -r auto, by round | fixed vs auto |", "|---|---|---|---|"]
    for row in a["rows"]:
        md.append(f"| {row['concurrency']} | {_labels(row['fixed'])} | {_labels(row['auto'])} | "
                  f"{_labels(row['pairs'])} |")
    text = next((r["auto"].get("text") for r in rounds if r["auto"].get("text")), None)
    if text:
        md += ["", "What the first `-r auto` run printed (mpiwrite's default report):", "",
               "```", *text.rstrip("\n").splitlines(), "```"]
    return md + [""]


def figures(sec):
    sm = sec.get("summary", {})
    return [sm["ratio_of_medians"], sm["timed_ratio_of_medians"]] if sm else []
