"""Section "dynamic": --partition block against --partition dynamic (every writer thread
takes --chunk K files at a time from an MPI-3 atomic counter on rank 0), two parts:
  - overhead, no slow rank: for {local disk, tmpfs} x layouts (2x1), mode (line), block
    against dynamic with each chunk (8 64), ratio of the medians dynamic / block. Goal <= 1.03.
  - one slow rank: on tmpfs, for slow_layouts (2x1 4x1), with rank 1 made slow (--slow-rank 1
    --slow-delay-us DELAY: it sleeps that long in every file, inside the timed phase), block
    against dynamic with the first chunk: the speedup block / dynamic (ratio of medians), the
    files the slow rank took under dynamic against the others, rank 1's slowdown and the ideal
    makespan N / sum of the ranks' rates (files / time of each rank, in the block runs).
The harness's method: interleaved runs (the first variant rotates), medians and min-max, a
fresh directory per run, warm-up runs, local files kept until the end. FILES (10,000) files
per run, RUNS (7) runs per variant and cell. The delay of 50 µs makes rank 1 ~3.3x slower per
file on tmpfs with 2 ranks on a 2-core VM (the sleep costs ~110 µs: timer slack, wake-up)."""
import os
import shutil
import statistics
from dataclasses import dataclass, field

from ..harness import check_config, layout, one_repetition
from ..scratch import BenchError, SpaceNeed, log
from ..stats import ms, paired_ratios, summary

NAME = "dynamic"
SLOW_RANK = 1
FS_NAME = {"local": "local", "shm": "shm"}


@dataclass
class Params:
    files: int = 10_000
    runs: int = 7
    chunks: list = field(default_factory=lambda: [8, 64])
    layouts: list = field(default_factory=lambda: ["2x1"])
    mode: str = "line"
    slow_layouts: list = field(default_factory=lambda: ["2x1", "4x1"])
    slow_delay_us: int = 50

    def __post_init__(self):
        if len(set(self.chunks)) != len(self.chunks):
            raise BenchError("--dyn-chunks: a chunk appears twice")
        for x in self.slow_layouts:
            r, t = layout(x)
            if t != 1 or r <= SLOW_RANK:
                raise BenchError(f"--dyn-slow-layouts: '{x}' is not RANKSx1 with RANKS >= "
                                 f"{SLOW_RANK + 1}")

    @classmethod
    def smoke(cls):
        return cls(files=200, runs=2, chunks=[8], slow_layouts=["2x1"])

    @property
    def variants(self):
        return ["block"] + [f"dynamic-c{c}" for c in self.chunks]

    @property
    def slow_variants(self):
        return ["block", f"dynamic-c{self.chunks[0] if self.chunks else 8}"]


def chunk_of(variant):
    """dynamic-cK or dynamic-cK-nopf: K."""
    return int(variant.split("-c")[1].split("-")[0])


def variant_label(variant):
    return f"chunk {chunk_of(variant)}" + (", no prefetch" if variant.endswith("-nopf") else "")


def plan(p, h):
    cells = ([("overhead", fs, x, False, p.variants) for fs in ("local", "shm") for x in p.layouts]
             + [("slow", "shm", x, True, p.slow_variants) for x in p.slow_layouts])
    runs = (p.runs * len(p.layouts) + h.warmup) * len(p.variants)
    need = SpaceNeed(local_files=p.files * runs, local_runs=runs,
                     shm_cell_files=p.files * p.runs * len(p.variants))
    return {"cells": [{"part": c[0], "fs": c[1], "layout": c[2], "slow": c[3],
                       "variants": c[4]} for c in cells], "need": need}


def parameters(p, h):
    return {"files": p.files, "runs": p.runs,
            "overhead_variants": p.variants, "overhead_layouts": p.layouts, "mode": p.mode,
            "overhead_filesystems": ["local", "shm"], "slow_variants": p.slow_variants,
            "slow_layouts": p.slow_layouts, "slow_filesystems": ["shm"],
            "slow_ranks": [SLOW_RANK], "slow_delay_us": p.slow_delay_us,
            "variant_names": "block: --partition block; dynamic-cK: --partition dynamic --chunk K",
            "order": "per cell, runs interleaved; the first variant rotates every run and every cell",
            "goal_ratio": 1.03}


def meta_extra():
    return {"title": "--partition dynamic vs. block",
            "counter": "an MPI-3 counter on rank 0 (MPI_Fetch_and_op + MPI_Win_flush; one node)"}


class Runner:
    """The section's runs; dynamic_hosts reuses it with another launcher, its own variants and
    each run's tmpfs files removed right after it."""

    def __init__(self, p, h, launch_flags=None, remove_runs=False, env=None):
        self.p, self.h = p, h
        self.flags = launch_flags  # None: the harness's mpirun flags
        self.remove_runs = remove_runs
        self.env = env
        self.cell_no = 0
        self.cells_total = 0
        self.records = []

    def one(self, variant, d, ranks, threads, slow, fields):
        """One mpiwrite run: checks its files and report; returns its record."""
        p, h = self.p, self.h
        partition, chunk, launch, prefetch = "block", p.chunks[0] if p.chunks else 8, [], True
        if variant.startswith("dynamic-c"):
            partition, chunk = "dynamic", chunk_of(variant)
        if variant.endswith("-nopf"):  # mpirun -x: the ranks on the other host get it too
            prefetch, launch = False, ["-x", "MPIWRITE_NO_PREFETCH=1"]
        extra, slow_ranks, delay = [], [], 0
        if slow:
            slow_ranks, delay = [SLOW_RANK], p.slow_delay_us
            extra = ["--slow-rank", str(SLOW_RANK), "--slow-delay-us", str(delay)]
        if partition == "dynamic":  # --chunk is refused where nothing is handed out in chunks
            extra = ["--chunk", str(chunk), *extra]
        cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
            p.files, d, threads, "--write-mode", p.mode, "--partition", partition, *extra,
            "--repetitions", "1", "--warmup", "0", "--format", "json"),
            launch=launch, flags=self.flags)
        what = f"mpiwrite --partition {partition} in {d}"
        report = h.run_json(cmd, what, env=self.env)
        h.check_dir(d, p.files)
        rep = one_repetition(report, p.files, ranks, threads, what)
        want = {"partition": partition, "slow_ranks": slow_ranks, "write_mode": p.mode}
        if partition == "dynamic":
            want["chunk"] = chunk
        if slow_ranks:
            want["slow_delay_us"] = delay
        check_config(report, want, what)
        rk = sorted(rep["per_rank"], key=lambda x: x["rank"])
        if [x["rank"] for x in rk] != list(range(ranks)) or sum(x["files"] for x in rk) != p.files:
            raise BenchError(f"{what}: unexpected per-rank figures {rk!r:.300}")
        return {**fields, "variant": variant, "partition": partition,
                "chunk": chunk if partition == "dynamic" else None, "slow_ranks": slow_ranks,
                "slow_delay_us": delay, "mode": p.mode, "prefetch": prefetch, "ranks": ranks,
                "threads": threads, "seconds": rep["makespan_s"], "makespan_s": rep["makespan_s"],
                "rank_files": [x["files"] for x in rk],
                "rank_elapsed_s": [x["elapsed_s"] for x in rk]}

    def warm(self, fs, variants, lay):
        """WARMUP untimed runs of every variant, on the first overhead layout."""
        h = self.h
        base, _ = h.scratch.base(fs)
        wdir = os.path.join(base, "dyn-warmup")
        os.mkdir(wdir)
        ranks, threads = layout(lay)

        def go(v, run):
            h.scratch.touched(fs)
            return self.one(v, os.path.join(wdir, f"run{run}-{v}"), ranks, threads, False, {})
        h.warm(variants, go, f"{fs} {self.p.mode} {lay}")
        if fs == "shm":
            shutil.rmtree(wdir, ignore_errors=True)
        h.between_series()

    def cell(self, part, fs, lay, slow, variants):
        """RUNS runs of each variant, interleaved."""
        p, h = self.p, self.h
        base, fstype = h.scratch.base(fs)
        ranks, threads = layout(lay)
        label = f" (rank {SLOW_RANK} +{p.slow_delay_us} µs/file)" if slow else ""
        self.cell_no += 1
        cell_no = self.cell_no
        cdir = os.path.join(base, f"dyn-{part}-{p.mode}-{lay}")
        os.mkdir(cdir)

        def go(v, run, position):
            h.scratch.touched(fs)
            d = os.path.join(cdir, f"run{run}-{v}")
            r = self.one(v, d, ranks, threads, slow,
                         {"part": part, "fs": fs, "fs_type": fstype, "layout": lay, "run": run,
                          "position": position})
            self.records.append(r)
            if self.remove_runs and fs == "shm":  # so that creates do not slow as files pile up
                shutil.rmtree(d, ignore_errors=True)
            return r
        h.cell(variants, p.runs, cell_no, go, lambda run, text: log(
            f"[{NAME_OF[self.remove_runs]} {cell_no}/{self.cells_total}] {fs} {p.mode} "
            f"{ranks}r x {threads}t{label} run {run}/{p.runs}: {text}"))
        if fs == "shm":
            shutil.rmtree(cdir, ignore_errors=True)
        h.between_series()


NAME_OF = {False: "dynamic", True: "dynamic-hosts"}


def run(p, h):
    s = h.scratch
    h.note(f"Section dynamic: every run writes into a fresh directory; mpiwrite runs as "
           f"`{h.mpirun} {' '.join(h.mpirun_flags)} -np R mpiwrite -t T --write-mode {p.mode} "
           f"--partition block|dynamic --chunk K [--slow-rank {SLOW_RANK} --slow-delay-us "
           f"{p.slow_delay_us}] -r 1 --format json`; every run's per-rank files and times are "
           f"in the JSON file.")
    r = Runner(p, h)
    r.cells_total = 2 * len(p.layouts) + len(p.slow_layouts)
    log(f"dynamic: {r.cells_total} cells x {p.runs} runs, variants {' '.join(p.variants)} "
        f"(slow rank: {' '.join(p.slow_variants)}), {p.files} files each; local: {s.local} "
        f"({s.local_fs}), tmpfs: {s.shm} ({s.shm_fs})")
    h.between_series()
    for fs in ("local", "shm"):
        if h.warmup:
            r.warm(fs, p.variants, p.layouts[0])
        for lay in p.layouts:
            r.cell("overhead", fs, lay, False, p.variants)
    for lay in p.slow_layouts:
        r.cell("slow", "shm", lay, True, p.slow_variants)
    return r.records


def _variant_stats(runs, v, ranks, files):
    there = [r[v] for r in runs if v in r]
    s = summary([x["makespan_s"] for x in there])
    s["us_per_file_median"] = s["median"] / files * 1e6
    s["rank_files_median"] = [statistics.median(x["rank_files"][j] for x in there)
                              for j in range(ranks)]
    # Each rank's own cost: its time / its files (µs per file), median over the runs.
    s["rank_us_per_file_median"] = [
        statistics.median(x["rank_elapsed_s"][j] / x["rank_files"][j] * 1e6
                          for x in there if x["rank_files"][j] > 0)
        if any(x["rank_files"][j] > 0 for x in there) else None for j in range(ranks)]
    return s


def _files_cell(v, slow):
    fm = v["rank_files_median"]
    slow_part = [f"{fm[j]:g}" for j in range(len(fm)) if j in slow]
    rest = ", ".join(f"{fm[j]:g}" for j in range(len(fm)) if j not in slow)
    return " / ".join(slow_part + [rest]) if slow_part else rest


def _makespans(runs):
    """Per run, VARIANT -> makespan: the shape stats.paired_ratios takes."""
    return [{v: r[v]["makespan_s"] for v in r["order"] if v in r} for r in runs]


def _slow_cell(c, runs, names, files):
    dyn = names[1]
    c["dynamic_variant"] = dyn
    c["speedup_ratio_of_medians"] = c["block"]["median"] / c[dyn]["median"]
    flat = _makespans(runs)
    c["paired_speedup"] = summary(paired_ratios(flat, "block", dyn))
    # Rates from the block runs, where every rank writes a fixed share: s_r = files_r /
    # elapsed_r; a perfect balance would end all ranks together after N / sum(s_r).
    ideal, slowdown = [], []
    for r in runs:
        if "block" not in r:
            continue
        b = r["block"]
        rates = [f / t for f, t in zip(b["rank_files"], b["rank_elapsed_s"]) if t > 0 and f > 0]
        if len(rates) == c["ranks"]:
            ideal.append(files / sum(rates))
            per = [t / f for f, t in zip(b["rank_files"], b["rank_elapsed_s"])]
            others = [x for j, x in enumerate(per) if j not in c["slow_ranks"]]
            slowdown.append(statistics.mean(per[j] for j in c["slow_ranks"]) /
                            statistics.median(others))
    c["ideal_makespan_s"] = summary(ideal) if ideal else None
    c["slow_rank_slowdown_in_block"] = summary(slowdown) if slowdown else None
    c["dynamic_over_ideal"] = c[dyn]["median"] / c["ideal_makespan_s"]["median"] if ideal else None
    # Every dynamic variant (dynamic-hosts has several): the same figures per variant.
    c["comparisons"] = [{
        "variant": v, "chunk": chunk_of(v), "prefetch": not v.endswith("-nopf"),
        "ratio_of_medians": c[v]["median"] / c["block"]["median"],
        "speedup_ratio_of_medians": c["block"]["median"] / c[v]["median"],
        "paired_speedup": summary(paired_ratios(flat, "block", v)),
        "dynamic_over_ideal": (c[v]["median"] / c["ideal_makespan_s"]["median"]
                               if ideal else None)} for v in names[1:]]


def summarize(meta, sec, records):
    """Fills sec (overhead_cells, slow_cells, summary); returns the Markdown lines. Also the
    dynamic-hosts section's (same records, its own parameters)."""
    p, dp = meta["parameters"], sec["parameters"]
    files, goal = dp["files"], dp["goal_ratio"]
    groups = {}
    for r in records:
        key = (r["part"], r["fs"], r["mode"], r["layout"])
        g = groups.setdefault(key, {k: r[k] for k in (
            "part", "fs", "fs_type", "mode", "layout", "ranks", "threads", "slow_ranks",
            "slow_delay_us")} | {"runs": {}})
        run = g["runs"].setdefault(r["run"], {"run": r["run"], "order": []})
        run["order"].append(r["variant"])
        run[r["variant"]] = {k: r[k] for k in ("partition", "chunk", "makespan_s",
                                               "rank_files", "rank_elapsed_s")}
    overhead, slow_cells = [], []
    for g in groups.values():
        runs = [g["runs"][k] for k in sorted(g["runs"])]
        c = {k: v for k, v in g.items() if k != "runs"}
        c["runs"] = runs
        names = dp["overhead_variants"] if g["part"] == "overhead" else dp["slow_variants"]
        for v in names:
            c[v] = _variant_stats(runs, v, g["ranks"], files)
        if g["part"] == "overhead":
            flat = _makespans(runs)
            c["comparisons"] = []
            for v in names[1:]:
                ratio = c[v]["median"] / c["block"]["median"]
                c["comparisons"].append({"variant": v, "chunk": chunk_of(v),
                                         "prefetch": not v.endswith("-nopf"),
                                         "ratio_of_medians": ratio,
                                         "paired_ratio": summary(paired_ratios(flat, v, "block")),
                                         "goal_met": ratio <= goal})
            overhead.append(c)
        else:
            _slow_cell(c, runs, names, files)
            slow_cells.append(c)
    sec["overhead_cells"], sec["slow_cells"] = overhead, slow_cells
    rows = [x for c in overhead for x in c["comparisons"]]
    sec["summary"] = {"overhead_rows": len(rows),
                      "overhead_rows_meeting_goal": sum(x["goal_met"] for x in rows),
                      "goal_ratio": goal,
                      "speedups": {c["layout"]: c["speedup_ratio_of_medians"] for c in slow_cells}}
    md = [f"## {sec['title']} — {meta['started_utc']}", "",
          f"{files} files × {p['lines']} lines of {p['text']!r} ({p['file_size_bytes']} B/file), "
          f"{dp['runs']} runs per variant and cell, interleaved (first variant rotating), "
          f"after {p['warmup_runs_per_filesystem']} untimed warm-up run(s) per variant and file "
          f"system; time = makespan of the write phase (earliest rank start to last rank end). "
          f"block: each rank a contiguous equal slice; dynamic: every writer thread takes "
          f"--chunk files at a time from {sec['counter']}.", ""]
    if overhead:
        md += _overhead_md(overhead, rows, goal, sec)
    if slow_cells:
        md += _slow_md(slow_cells)
    return md


def _cell_name(c, v):
    return (f"{FS_NAME.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · "
            f"{c['ranks']}r×{c['threads']}t · {variant_label(v)}")


def _overhead_md(overhead, rows, goal, sec):
    head = ["cell", "block ms median [min–max]", "dynamic ms median [min–max]",
            "ratio of medians dynamic / block", "paired ratio median [min–max]",
            "block µs/file", "dynamic µs/file", "dynamic files per rank (median)", f"≤ {goal}×"]
    md = [f"### Overhead of dynamic, no slow rank (goal: ≤ {goal}× block, ratio of medians)", "",
          "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in overhead:
        for x in c["comparisons"]:
            v, pr = x["variant"], x["paired_ratio"]
            md.append("| " + " | ".join([
                _cell_name(c, v), ms(c["block"]), ms(c[v]), f"{x['ratio_of_medians']:.3f}",
                f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
                f"{c['block']['us_per_file_median']:.1f}", f"{c[v]['us_per_file_median']:.1f}",
                _files_cell(c[v], []), "yes" if x["goal_met"] else "**no**"]) + " |")
    return md + ["", f"Goal met in {sec['summary']['overhead_rows_meeting_goal']} of {len(rows)} "
                     f"rows.", ""]


def _slow_md(slow_cells):
    delay = slow_cells[0]["slow_delay_us"]
    slow = ", ".join(str(j) for j in slow_cells[0]["slow_ranks"])
    head = ["cell", "block ms median [min–max]", "dynamic ms median [min–max]",
            "speedup block / dynamic (ratio of medians)", "paired speedup median [min–max]",
            f"files taken under dynamic: rank {slow} / others (median)",
            f"rank {slow} slowdown (block, µs/file vs others)",
            "ideal N/Σsᵣ ms median [min–max]", "dynamic / ideal"]
    md = [f"### One slow rank: rank {slow} sleeps {delay} µs in every file (--slow-rank {slow} "
          f"--slow-delay-us {delay})", "",
          "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c, x in ((c, x) for c in slow_cells for x in c["comparisons"]):
        dyn = x["variant"]
        ps, sd, ideal = x["paired_speedup"], c["slow_rank_slowdown_in_block"], c["ideal_makespan_s"]
        us = c["block"]["rank_us_per_file_median"]
        others = statistics.median(u for j, u in enumerate(us) if j not in c["slow_ranks"])
        slow_us = statistics.mean(us[j] for j in c["slow_ranks"])
        md.append("| " + " | ".join([
            _cell_name(c, dyn), ms(c["block"]), ms(c[dyn]), f"{x['speedup_ratio_of_medians']:.2f}",
            f"{ps['median']:.2f} [{ps['min']:.2f}–{ps['max']:.2f}]",
            _files_cell(c[dyn], c["slow_ranks"]),
            f"{sd['median']:.2f}× ({slow_us:.0f} vs {others:.0f})" if sd else "?",
            ms(ideal) if ideal else "?",
            f"{x['dynamic_over_ideal']:.3f}" if ideal else "?"]) + " |")
    return md + ["", "Ideal: each rank's rate sᵣ = its files / its time in the block runs (where "
                     "every rank writes N/R files); perfectly balanced, all ranks would finish "
                     "together after N / Σ sᵣ (median over the block runs). Slowdown: the slow "
                     "rank's µs per file over the median of the other ranks', in the block runs.",
                 ""]


def figures(sec):
    return ([x["ratio_of_medians"] for c in sec.get("overhead_cells", []) for x in c["comparisons"]]
            + [c["speedup_ratio_of_medians"] for c in sec.get("slow_cells", [])])
