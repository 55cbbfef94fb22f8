"""Section "progress": what --progress costs the write phase (issue 14: within 1 %).

On tmpfs, RANKSxTHREADS (4x1), FILES (10,000) files per write phase, REPS (3) timed
repetitions per mpirun, ROUNDS (9) interleaved rounds of two variants: "off" (no --progress;
its stderr is a pipe, so progress is off by default) and "on" (--progress=INTERVAL, 0.1 s:
the writers store a per-thread counter after every file, the main thread wakes every 25 ms,
joins an MPI_Iallreduce round every 0.1 s, rank 0 prints a line). The figure: the ratio of
the medians of mpiwrite's makespan (every repetition of every round), on / off; the paired
ratios of each round's medians beside it. Goal: <= 1.01. The progress lines each "on" run
printed are counted (proof it was on; a write phase shorter than the interval prints none)."""
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

from ..harness import check_config, check_layout, layout, parse_report
from ..scratch import BenchError, SpaceNeed, log
from ..stats import median, ms, paired_ratios, ratio_of_medians, summary

NAME = "progress"
VARIANTS = ["off", "on"]


@dataclass
class Params:
    files: int = 10_000
    layout: str = "4x1"
    reps: int = 3
    rounds: int = 9
    interval_s: float = 0.1
    goal: float = 1.01

    @classmethod
    def smoke(cls):
        return cls(files=500, layout="2x1", reps=1, rounds=2)


def plan(p, h):
    return {"cells": [{"fs": "shm", "layout": p.layout, "files": p.files, "variants": VARIANTS,
                       "rounds": p.rounds, "repetitions": p.reps}],
            "need": SpaceNeed(shm_cell_files=p.files * p.reps)}


def parameters(p, h):
    return {"files": p.files, "layout": p.layout, "repetitions_per_run": p.reps,
            "rounds": p.rounds, "interval_s": p.interval_s, "variants": VARIANTS,
            "options": "--format json --warmup 0 (on: --progress=INTERVAL)",
            "figure": "median makespan (on) / median makespan (off), every repetition",
            "order": "rounds interleaved; the first variant alternates", "goal_ratio": p.goal}


def one_run(p, h, variant, d):
    ranks, threads = layout(p.layout)
    extra = [f"--progress={p.interval_s:g}"] if variant == "on" else []
    cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
        p.files, d, threads, "--repetitions", str(p.reps), "--warmup", "0", "--format", "json",
        *extra))
    what = f"mpiwrite ({variant}) in {d}"
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise BenchError(f"{what} failed (exit {r.returncode})")
    report = parse_report(r.stdout, what)
    check_layout(report, ranks, threads, what)
    check_config(report, {"files": p.files, "repetitions": p.reps}, what)
    reps = report["points"][0]["repetitions"]
    if len(reps) != p.reps or any(x["files"] != p.files for x in reps):
        raise BenchError(f"{what}: unexpected repetitions {reps!r:.200}")
    lines = sum(1 for x in r.stderr.splitlines() if x.startswith("mpiwrite: progress: write"))
    if variant == "off" and lines:
        raise BenchError(f"{what}: {lines} progress lines without --progress")
    xs = [x["makespan_s"] for x in reps]
    return {"seconds": median(xs), "makespans_s": xs, "progress_lines": lines}


def run(p, h):
    s = h.scratch
    h.note(f"Section progress: `{h.mpirun} {' '.join(h.mpirun_flags)} -np R mpiwrite -t T -n "
           f"{p.files} -r {p.reps} --warmup 0 --format json [--progress={p.interval_s:g}]` "
           f"({p.layout}), {p.rounds} interleaved rounds, each run into a fresh directory on "
           f"tmpfs, removed after the run.")
    log(f"progress: {p.layout}, {p.files} files, -r {p.reps}, {p.rounds} rounds, "
        f"--progress={p.interval_s:g} vs off")

    def one(variant, run_no, position=0):
        d = os.path.join(s.shm, f"progress-{variant}-{run_no}-{position}")
        try:
            return one_run(p, h, variant, d)
        finally:
            shutil.rmtree(d, ignore_errors=True)

    h.warm(VARIANTS, one, "progress")
    rounds = h.cell(VARIANTS, p.rounds, 1, one,
                    lambda k, text: log(f"progress round {k}/{p.rounds}: {text}"))
    return rounds


def summarize(meta, sec, rounds):
    op = sec["parameters"]
    on = [x for r in rounds for x in r["on"]["makespans_s"]]
    off = [x for r in rounds for x in r["off"]["makespans_s"]]
    ratio = ratio_of_medians(on, off)
    paired = paired_ratios([{v: r[v]["seconds"] for v in VARIANTS} for r in rounds], "on", "off")
    lines = [r["on"]["progress_lines"] for r in rounds]
    sec["runs"] = rounds
    sec["summary"] = {"ratio_of_medians": ratio, "paired_ratios": summary(paired),
                      "makespan_on": summary(on), "makespan_off": summary(off),
                      "progress_lines_per_run": summary(lines), "goal_ratio": op["goal_ratio"],
                      "goal_met": ratio <= op["goal_ratio"]}
    sm = sec["summary"]
    md = [f"## Progress: what --progress={op['interval_s']:g} costs the write phase — "
          f"{meta['started_utc']}", "",
          f"{op['layout']} on tmpfs, {op['files']:,} files per write phase, -r "
          f"{op['repetitions_per_run']} per mpirun, {op['rounds']} interleaved rounds of "
          f"\"off\" (no --progress) and \"on\" (--progress={op['interval_s']:g}). Makespan = "
          f"the earliest rank start to the last rank's last close, per repetition; median and "
          f"min–max over every repetition of every round. Goal: on / off <= "
          f"{op['goal_ratio']:g}.", "",
          "| variant | makespan ms median [min–max] | repetitions |", "|---|---|---|",
          f"| off | {ms(sm['makespan_off'])} | {len(off)} |",
          f"| on | {ms(sm['makespan_on'])} | {len(on)} |", "",
          f"Ratio of medians on / off: **{ratio:.4f}** (goal <= {op['goal_ratio']:g}: "
          f"{'met' if sm['goal_met'] else '**not met**'}); paired ratios of each round's "
          f"medians: median {sm['paired_ratios']['median']:.4f} "
          f"[{sm['paired_ratios']['min']:.4f}–{sm['paired_ratios']['max']:.4f}]. Progress "
          f"lines per \"on\" run: median {sm['progress_lines_per_run']['median']:g} "
          f"[{sm['progress_lines_per_run']['min']}–{sm['progress_lines_per_run']['max']}].", ""]
    return md


def figures(sec):
    sm = sec.get("summary", {})
    return [sm["ratio_of_medians"]] if "ratio_of_medians" in sm else []
