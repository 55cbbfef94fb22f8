"""Section "overhead": what mpiwrite's own bookkeeping costs per file.

mpiwrite --engine null (everything but the I/O: partition, file names, four clock reads per
file, the latency histogram and the four per-operation ones) for each layout, and with --fsync
(a fifth clock read and histogram) for each of FSYNC_LAYOUTS, FILES files, one mpirun with
-r REPS repetitions:
the median of the repetitions' makespans (makespan_s), reported two ways:
  - ns/file = median makespan / files: the job's cost per file (throughput view);
  - ns/file per thread = median makespan x ranks x threads / files: what one writer thread
    spends on each of its own files. The goal (goal_ns, 200) is on this one."""
import os
import shutil
from dataclasses import dataclass, field

from ..harness import check_config, check_layout, layout, parse_report, timed
from ..scratch import BenchError, SpaceNeed, log
from ..stats import ms, summary

NAME = "overhead"


@dataclass
class Params:
    files: int = 1_000_000
    layouts: list = field(default_factory=lambda: ["1x1", "2x1", "1x2"])
    fsync_layouts: list = field(default_factory=lambda: ["1x1"])
    reps: int = 7
    goal_ns: float = 200.0

    @classmethod
    def smoke(cls):
        return cls(files=2000, reps=2)


def plan(p, h):
    """One mpirun per layout; nothing on the local disk (the null engine makes only the dir)."""
    return {"cells": [{"layout": x, "files": p.files, "repetitions": p.reps, "fsync": f}
                      for x, f in cells(p)],
            "need": SpaceNeed()}


def cells(p):
    return [(x, False) for x in p.layouts] + [(x, True) for x in p.fsync_layouts]


def parameters(p, h):
    return {"files": p.files, "layouts": p.layouts, "fsync_layouts": p.fsync_layouts,
            "repetitions": p.reps,
            "options": "--engine null --partition block --warmup 0 --format json",
            "goal_ns_per_file_per_thread": p.goal_ns,
            "ns_per_file": "median makespan / files",
            "ns_per_file_per_thread": "median makespan * ranks * threads / files"}


def run(p, h):
    s = h.scratch
    h.note(f"Section overhead: `{h.mpirun} {' '.join(h.mpirun_flags)} -np R mpiwrite -t T "
           f"--engine null -n {p.files} -r {p.reps} --warmup 0 --format json` once per layout "
           f"({' '.join(p.layouts)}; with --fsync: {' '.join(p.fsync_layouts) or 'none'}), each "
           f"into a fresh directory on tmpfs (the null engine creates only the directory).")
    log(f"overhead: {' '.join(p.layouts)}, {p.files} files, --engine null -r {p.reps}")
    records = []
    for lay, fsync in cells(p):
        ranks, threads = layout(lay)
        d = os.path.join(s.shm, f"overhead-{lay}{'-fsync' if fsync else ''}")
        h.sync()
        cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
            p.files, d, threads, "--engine", "null", "--partition", "block",
            "--repetitions", str(p.reps), "--warmup", "0", "--format", "json",
            *(["--fsync"] if fsync else [])))
        wall, out = timed(cmd, f"mpiwrite --engine null in {d}")
        r = record(out, p, ranks, threads, wall, s.shm_fs)
        r["fsync"] = fsync
        log(f"overhead {ranks}r x {threads}t{' --fsync' if fsync else ''}: makespan median {r['makespan']['median'] * 1e3:.1f} ms "
            f"[{r['makespan']['min'] * 1e3:.1f}-{r['makespan']['max'] * 1e3:.1f}], "
            f"{r['ns_per_file']:.1f} ns/file (makespan / files), "
            f"{r['ns_per_file_per_thread']:.1f} ns/file per thread")
        records.append(r)
        shutil.rmtree(d, ignore_errors=True)
    return records


def record(out, p, ranks, threads, wall, fs_type):
    what = f"the --engine null run ({ranks}x{threads})"
    report = parse_report(out, what)
    points = report.get("points") or []
    if len(points) != 1:
        raise BenchError(f"{what}: {len(points)} points, expected 1")
    rep = points[0]["repetitions"]
    if len(rep) != p.reps or any(r["files"] != p.files for r in rep):
        raise BenchError(f"{what}: unexpected repetitions {rep!r:.200}")
    check_layout(report, ranks, threads, what)
    check_config(report, {"engine": "null"}, what)
    xs = [r["makespan_s"] for r in rep]
    s = summary(xs)
    ctx = report["context"]
    return {"layout": f"{ranks}x{threads}", "ranks": ranks, "threads": threads,
            "files": p.files, "repetitions": p.reps, "fs": "shm", "fs_type": fs_type,
            "wall_s": round(wall, 3), "makespan_s": xs, "makespan": s,
            "ns_per_file": s["median"] / p.files * 1e9,
            "ns_per_file_per_thread": s["median"] * ranks * threads / p.files * 1e9,
            "writer_fd_tables": ctx.get("writer_fd_tables"), "warnings": ctx.get("warnings")}


def summarize(meta, sec, records):
    """Fills sec (runs, summary); returns the Markdown lines."""
    op = sec["parameters"]
    goal = op["goal_ns_per_file_per_thread"]
    for r in records:
        r["goal_met"] = r["ns_per_file_per_thread"] < goal
    sec["runs"] = records
    sec["summary"] = {"cells": len(records),
                      "cells_meeting_goal": sum(r["goal_met"] for r in records),
                      "goal_ns_per_file_per_thread": goal}
    md = [f"## Overhead: mpiwrite's own cost per file (--engine null) — {meta['started_utc']}", "",
          f"One `mpiwrite --engine null -n N -r {op['repetitions']} --warmup 0 --format json` per "
          f"layout (N = {op['files']:,}): everything but the I/O (partition, file names, four clock "
          f"reads per file, five with --fsync, the latency histogram and the per-operation ones); median and min–max of the "
          f"{op['repetitions']} repetitions' makespans (`makespan_s`: the earliest rank start to "
          f"the last rank end). "
          f"**ns/file** = median makespan / N: the job's throughput cost. "
          f"**ns/file per thread** = median makespan × ranks × threads / N: what one writer "
          f"thread spends on each of its own files (each writes N / (ranks × threads)). "
          f"Goal: < {goal:g} ns/file per thread.", ""]
    head = ["cell", "files", "makespan ms median [min–max]", "ns/file (makespan / N)",
            "ns/file per thread (makespan × R×T / N)", f"< {goal:g} ns per thread", "mpirun wall s"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in records:
        md.append("| " + " | ".join([
            f"{r['ranks']}r×{r['threads']}t{' --fsync' if r.get('fsync') else ''}",
            f"{r['files']:,}", ms(r["makespan"]),
            f"{r['ns_per_file']:.1f}", f"{r['ns_per_file_per_thread']:.1f}",
            "yes" if r["goal_met"] else "**no**", f"{r['wall_s']:.2f}"]) + " |")
    md += ["", f"Goal met in {sec['summary']['cells_meeting_goal']} of {len(records)} cells.", ""]
    return md


def figures(sec):
    """The numbers bench.smoke checks exist: one per cell."""
    return [r["ns_per_file_per_thread"] for r in sec.get("runs", [])]
