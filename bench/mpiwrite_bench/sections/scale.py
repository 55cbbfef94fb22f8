"""Section "scale": do time and memory stay sane with a million files?

One run for each size (10,000 and 1,000,000 files), layout (4 ranks x 2 threads), --write-mode
MODE (whole), --verify and --cleanup, on tmpfs if it has room for the size (space, inodes and
available memory: tmpfs takes at least a 4 KiB page per file, so 1M files need ~5 GiB), else
on the local disk. Reports per size: the wall time of the whole mpirun, the write phase
(makespan) and files/s, the verify phase and its mismatches, the removal phase, and every
rank's peak resident memory (JSON context.peak_rss_kib, getrusage ru_maxrss) with its
largest; then the growth of the largest rank's peak RSS from the smallest to the largest size.
Goals: < rss_goal_mib (64) MiB per rank at the largest size, and growth < growth_goal (1.10).
One run per size: it is about the memory, and a 1M-file run takes a while (~20-40 s of mpirun
on a 2-core VM, plus sync and drop caches before each run)."""
import os
from dataclasses import dataclass, field

from ..harness import layout, one_repetition, parse_report, timed
from ..scratch import BenchError, SpaceNeed, log

NAME = "scale"


@dataclass
class Params:
    files: list = field(default_factory=lambda: [10_000, 1_000_000])
    layout: str = "4x2"
    mode: str = "whole"
    rss_goal_mib: int = 64
    growth_goal: float = 1.10

    def __post_init__(self):
        self.files = sorted(set(self.files))  # ascending: the growth is smallest to largest

    @classmethod
    def smoke(cls):
        return cls(files=[100, 1000], layout="2x1")


def plan(p, h):
    """The sizes; where each goes is decided at run time (place_large: free space then)."""
    return {"runs": [{"files": n, "layout": p.layout} for n in p.files], "need": SpaceNeed()}


def parameters(p, h):
    ranks, threads = layout(p.layout)
    return {"files": p.files, "ranks": ranks, "threads": threads, "mode": p.mode,
            "options": "--verify --cleanup --partition block -r 1 --format json",
            "rss_goal_mib": p.rss_goal_mib, "growth_goal": p.growth_goal, "runs_per_size": 1}


def place(p, h, local_kib, local_inodes):
    """Each size's file system, decided before any run (a size that fits nowhere stops here)."""
    return {n: h.scratch.place_large(n, h.file_size, local_kib, local_inodes) for n in p.files}


def record(report, n, ranks, threads, wall, fs, fs_type):
    what = f"the {n}-file run"
    rep = one_repetition(report, n, ranks, threads, what)
    v, cleanup, ctx = rep.get("verify"), report.get("cleanup") or {}, report["context"]
    if v is None:
        raise BenchError(f"{what}: no verify figures (is this mpiwrite older than --verify?)")
    rss = ctx.get("peak_rss_kib")
    if not isinstance(rss, list) or len(rss) != ranks:
        raise BenchError(f"{what}: context.peak_rss_kib {rss!r:.200}, expected {ranks} entries")
    if cleanup.get("files_removed") != n:
        raise BenchError(f"{what}: cleanup removed {cleanup.get('files_removed')!r}, expected {n}")
    return {"files": n, "ranks": ranks, "threads": threads, "fs": fs, "fs_type": fs_type,
            "wall_s": round(wall, 3), "write_s": rep["makespan_s"],
            "files_per_s": rep["files_per_s"], "verify_s": v["elapsed_s"],
            "verify_files_checked": v["files_checked"], "verify_mismatches": v["mismatches"],
            "removal_s": cleanup.get("elapsed_s"), "peak_rss_kib": rss,
            "peak_rss_max_kib": max(rss), "peak_rss_max_rank": rss.index(max(rss))}


def run(p, h, places):
    ranks, threads = layout(p.layout)
    h.note(f"Section scale: `{h.mpirun} {' '.join(h.mpirun_flags)} -np {ranks} mpiwrite -t "
           f"{threads} --write-mode {p.mode} --verify --cleanup -r 1 --format json`, one run per "
           f"size ({' '.join(map(str, p.files))} files); untimed before each: sync and drop caches.")
    log(f"scale: {' '.join(map(str, p.files))} files, {ranks}r x {threads}t, --write-mode "
        f"{p.mode} --verify --cleanup")
    records = []
    for n in p.files:
        fs = places[n]
        base, fstype = h.scratch.base(fs)
        d = os.path.join(base, f"scale-{n}")
        h.between_series()
        h.scratch.touched(fs)  # --cleanup deletes them: the inode trap follows
        log(f"scale: {n} files on {fs} ({fstype})...")
        cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
            n, d, threads, "--write-mode", p.mode, "--partition", "block", "--repetitions", "1",
            "--warmup", "0", "--verify", "--cleanup", "--format", "json"))
        wall, out = timed(cmd, f"mpiwrite --verify with {n} files in {d}")
        if os.path.exists(d):
            raise BenchError(f"--cleanup left {d}")
        r = record(parse_report(out, f"mpiwrite --verify with {n} files"), n, ranks, threads, wall, fs, fstype)
        log(f"scale: {n} files: wall {r['wall_s']:.1f} s, write {r['write_s']:.2f} s "
            f"({r['files_per_s']:.0f} files/s), verify {r['verify_s']:.2f} s "
            f"({r['verify_mismatches']} mismatches), peak RSS max "
            f"{max(r['peak_rss_kib']) / 1024:.1f} MiB (rank {r['peak_rss_max_rank']})")
        records.append(r)
    return records


def summarize(meta, sec, records):
    sp, mp = sec["parameters"], meta["parameters"]
    runs = sorted(records, key=lambda r: r["files"])
    sec["runs"] = runs
    goal_mib, goal_growth = sp["rss_goal_mib"], sp["growth_goal"]
    sizes = " and ".join(f"{r['files']:,}" for r in runs) or "no"
    md = [f"## Scale: time and memory at {sizes} files — {meta['started_utc']}", "",
          f"One run per size: `mpiwrite -np {sp['ranks']} -t {sp['threads']} --write-mode "
          f"{sp['mode']} --verify --cleanup` ({mp['lines']} lines of {mp['text']!r} per file). "
          f"Wall = the whole mpirun (start-up, write, verify, removal, report); write and verify "
          f"= makespans (earliest rank start to last rank end); peak RSS = each rank's getrusage "
          f"ru_maxrss at the end of the run.", ""]
    head = ["files", "file system", "wall s", "write s", "files/s", "verify s",
            "verify checked / mismatches", "removal s", "peak RSS max MiB (rank)",
            "peak RSS per rank KiB"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in runs:
        removal = f"{r['removal_s']:.2f}" if r.get("removal_s") is not None else "?"
        md.append("| " + " | ".join([
            f"{r['files']:,}", f"{r['fs']} ({r['fs_type']})", f"{r['wall_s']:.1f}",
            f"{r['write_s']:.2f}", f"{r['files_per_s']:.0f}", f"{r['verify_s']:.2f}",
            f"{r['verify_files_checked']:,} / {r['verify_mismatches']}", removal,
            f"{r['peak_rss_max_kib'] / 1024:.1f} ({r['peak_rss_max_rank']})",
            ", ".join(str(x) for x in r["peak_rss_kib"])]) + " |")
    summ = {}
    if runs:
        big, small = runs[-1], runs[0]
        growth = big["peak_rss_max_kib"] / small["peak_rss_max_kib"]
        summ = {"largest_files": big["files"], "smallest_files": small["files"],
                "peak_rss_max_mib_at_largest": big["peak_rss_max_kib"] / 1024,
                "rss_goal_met": big["peak_rss_max_kib"] / 1024 < goal_mib,
                "growth_ratio": growth, "growth_goal_met": growth < goal_growth,
                "verify_mismatches": sum(r["verify_mismatches"] for r in runs)}
        yes = {True: "met", False: "**not met**"}
        md += ["", f"Largest rank's peak RSS at {big['files']:,} files: "
               f"{summ['peak_rss_max_mib_at_largest']:.1f} MiB (goal < {goal_mib} MiB: "
               f"{yes[summ['rss_goal_met']]}); growth from {small['files']:,} files: "
               f"{growth:.3f}× (goal < {goal_growth}×: {yes[summ['growth_goal_met']]}). "
               f"Verify mismatches: {summ['verify_mismatches']}.", ""]
    sec["summary"] = summ
    return md


def figures(sec):
    return [r["peak_rss_max_kib"] for r in sec.get("runs", [])] + (
        [sec["summary"]["growth_ratio"]] if sec.get("summary") else [])
