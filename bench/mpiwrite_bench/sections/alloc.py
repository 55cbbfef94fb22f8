"""Section "alloc": heap allocations per file, counted from outside.

bench/alloc_count.cpp (libmpiwrite_alloc_count.so) is preloaded into every rank (`mpirun -x
LD_PRELOAD=...`); it counts each process's malloc, calloc, realloc, aligned allocations and
so operator new, and appends one line per process at exit. For each engine and layout, one
`mpiwrite --write-mode MODE (whole) --partition block -r 1` at each size (1,000 and 100,000
files) on tmpfs; reported: the allocations summed over the ranks at each size and
allocations per extra file = (sum at the largest - sum at the smallest size) / (largest -
smallest). The count covers the whole process (MPI_Init, the write phase, the report,
MPI_Finalize): everything but the write phase costs the same at both sizes and cancels, so
the slope is what each file costs, timed phase included. Goal: < goal (0.001) per file, i.e.
none (a whole run makes ~30,000 per rank, nearly all Open MPI's, and varies by ~10 from run
to run: ~0.0001 per file over 99,000 files). One run per size: the count is deterministic
up to that noise. tests/e2e/alloc.sh makes the same check in CTest."""
import os
import shutil
from dataclasses import dataclass, field

from ..harness import check_config, layout, one_repetition, parse_report, run_checked
from ..scratch import BenchError, SpaceNeed, log
from ..stats import slope

NAME = "alloc"


@dataclass
class Params:
    files: list = field(default_factory=lambda: [1000, 100_000])
    layouts: list = field(default_factory=lambda: ["1x1", "2x1", "1x2"])
    engines: list = field(default_factory=lambda: ["posix", "null", "uring"])
    mode: str = "whole"
    goal: float = 0.001

    def __post_init__(self):
        # Ascending and distinct: the slope is from the smallest to the largest size.
        self.files = sorted(set(self.files))
        if len(self.files) < 2:
            raise BenchError("--alloc-files needs two different sizes at least")

    @classmethod
    def smoke(cls):
        return cls(files=[100, 1000], layouts=["2x1"])


def plan(p, h):
    runs = [{"engine": e, "layout": x, "files": n}
            for e in p.engines for x in p.layouts for n in p.files]
    return {"runs": runs, "need": SpaceNeed(shm_cell_files=p.files[-1])}


def parameters(p, h):
    return {"files": p.files, "layouts": p.layouts, "engines": p.engines, "mode": p.mode,
            "fs": "shm", "fs_type": h.scratch.shm_fs,
            "options": "--partition block -r 1 --warmup 0 --format json",
            "counter": "bench/alloc_count.cpp via mpirun -x LD_PRELOAD: malloc, calloc, realloc, "
                       "reallocarray, aligned_alloc, posix_memalign, memalign, valloc, pvalloc "
                       "calls (operator new included), per process, whole life",
            "allocs_per_extra_file": "(sum over ranks at the largest size - at the smallest) / "
                                     "(largest - smallest)",
            "goal_allocs_per_file": p.goal, "runs_per_size": 1}


def read_counts(path, ranks):
    """The counting allocator's lines of the mpiwrite processes, by pid."""
    procs = []
    with open(path) as f:
        for line in f:
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if kv.get("exe") == "mpiwrite":
                procs.append({k: (v if k == "exe" else int(v)) for k, v in kv.items()})
    if len(procs) != ranks:
        raise BenchError(f"{path}: {len(procs)} mpiwrite processes counted, expected {ranks} "
                         f"(did LD_PRELOAD reach the ranks?)")
    if min(x["allocs"] for x in procs) < 100:  # MPI_Init alone makes thousands
        raise BenchError(f"{path}: a rank made fewer than 100 allocations: is the shim working?")
    return sorted(procs, key=lambda x: x["pid"])


def run(p, h):
    s = h.scratch
    lib = h.bins.alloc_lib
    h.note(f"Section alloc: `{h.mpirun} {' '.join(h.mpirun_flags)} -x "
           f"LD_PRELOAD={os.path.basename(lib)} -x MPIWRITE_ALLOC_COUNT_FILE=... -np R mpiwrite "
           f"-t T --engine E --write-mode {p.mode} --partition block -r 1 --warmup 0 --format "
           f"json`, one run per engine ({' '.join(p.engines)}), layout ({' '.join(p.layouts)}) "
           f"and size ({' '.join(map(str, p.files))} files), each into a fresh directory on "
           f"tmpfs, removed after the run.")
    log(f"alloc: engines {' '.join(p.engines)}, layouts {' '.join(p.layouts)}, "
        f"{' '.join(map(str, p.files))} files, --write-mode {p.mode}, counting allocator {lib}")
    counts = os.path.join(s.work, "alloc-counts.txt")
    records = []
    for engine in p.engines:
        for lay in p.layouts:
            ranks, threads = layout(lay)
            for n in p.files:
                d = os.path.join(s.shm, f"alloc-{engine}-{lay}-{n}")
                if os.path.exists(counts):
                    os.remove(counts)
                # -x: only the ranks get the library (mpirun's own allocations are not
                # counted), and the file name; each rank appends its line when it exits.
                # The null engine writes nothing, so mpiwrite refuses a --write-mode for it.
                mode = [] if engine == "null" else ["--write-mode", p.mode]
                cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
                    n, d, threads, "--engine", engine, *mode, "--partition", "block",
                    "--repetitions", "1", "--warmup", "0", "--format", "json"),
                    launch=["-x", f"LD_PRELOAD={lib}", "-x", f"MPIWRITE_ALLOC_COUNT_FILE={counts}"])
                what = f"mpiwrite --engine {engine} under the counting allocator in {d}"
                report = parse_report(run_checked(cmd, what), what)
                if engine != "null":
                    h.check_dir(d, n)
                if not os.path.exists(counts) or os.path.getsize(counts) == 0:
                    raise BenchError(f"alloc: the counting allocator wrote nothing to {counts}")
                rep = one_repetition(report, n, ranks, threads, what)
                check_config(report, {"engine": engine}, what)
                procs = read_counts(counts, ranks)
                r = {"engine": engine, "layout": lay, "ranks": ranks, "threads": threads,
                     "files": n, "mode": p.mode, "fs": "shm", "fs_type": s.shm_fs,
                     "allocs_total": sum(x["allocs"] for x in procs),
                     "bytes_total": sum(x["bytes"] for x in procs),
                     "allocs_per_process": [x["allocs"] for x in procs], "processes": procs,
                     "write_s": rep["makespan_s"]}
                log(f"alloc {engine} {ranks}r x {threads}t, {n} files: {r['allocs_total']} "
                    f"allocations over {ranks} rank(s) "
                    f"({', '.join(str(x) for x in r['allocs_per_process'])}), write "
                    f"{rep['makespan_s'] * 1e3:.1f} ms")
                records.append(r)
                shutil.rmtree(d, ignore_errors=True)
    return records


def summarize(meta, sec, records):
    ap = sec["parameters"]
    goal = ap["goal_allocs_per_file"]
    groups = {}
    for r in records:
        groups.setdefault((r["engine"], r["layout"]), []).append(r)
    cells = []
    for (engine, lay), runs in groups.items():
        runs.sort(key=lambda r: r["files"])
        small, big = runs[0], runs[-1]
        per_file = slope(small["files"], small["allocs_total"], big["files"], big["allocs_total"])
        cells.append({"engine": engine, "layout": lay, "ranks": small["ranks"],
                      "threads": small["threads"], "runs": runs,
                      "allocs_per_extra_file": per_file,
                      "goal_met": per_file is not None and per_file < goal})
    sec["cells"] = cells
    sec["summary"] = {"cells": len(cells), "cells_meeting_goal": sum(c["goal_met"] for c in cells),
                      "goal_allocs_per_file": goal,
                      "max_allocs_per_extra_file": max((c["allocs_per_extra_file"] for c in cells
                                                        if c["allocs_per_extra_file"] is not None),
                                                       default=None)}
    sizes = sorted({r["files"] for c in cells for r in c["runs"]})
    md = [f"## Heap allocations per file (counting allocator) — {meta['started_utc']}", "",
          f"`{meta['parameters']['mpirun']} -x LD_PRELOAD=libmpiwrite_alloc_count.so -np R mpiwrite "
          f"-t T --engine E --write-mode {ap['mode']} --partition block -r 1` on tmpfs at "
          f"{' and '.join(f'{n:,}' for n in sizes)} files, one run each. The preloaded "
          f"bench/alloc_count.cpp counts every malloc, calloc, realloc and aligned allocation "
          f"(operator new included) of each rank over its whole life, MPI_Init to exit; the "
          f"tables sum the ranks. Per extra file = (allocations at {sizes[-1]:,} − at "
          f"{sizes[0]:,}) / {sizes[-1] - sizes[0]:,}: what does not depend on the file count "
          f"cancels. Goal: < {goal:g} per file, i.e. none. (A run's count varies by ~10 from "
          f"run to run, Open MPI's: ±{10 / (sizes[-1] - sizes[0]):.5f} per file at these sizes.)", ""]
    head = ["cell", "engine"] + [f"allocations at {n:,} files" for n in sizes] + [
        "per extra file", f"< {goal:g}", f"per rank at {sizes[-1]:,} files"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cells:
        by = {r["files"]: r for r in c["runs"]}
        pf = c["allocs_per_extra_file"]
        md.append("| " + " | ".join(
            [f"{c['ranks']}r×{c['threads']}t", c["engine"]] +
            [f"{by[n]['allocs_total']:,}" if n in by else "—" for n in sizes] +
            [f"{pf:.5f}" if pf is not None else "?", "yes" if c["goal_met"] else "**no**",
             ", ".join(f"{x:,}" for x in by[sizes[-1]]["allocs_per_process"])
             if sizes[-1] in by else "—"]) + " |")
    md += ["", f"Goal met in {sec['summary']['cells_meeting_goal']} of {len(cells)} cells.", ""]
    return md


def figures(sec):
    return [c["allocs_per_extra_file"] for c in sec.get("cells", [])
            if c["allocs_per_extra_file"] is not None]
