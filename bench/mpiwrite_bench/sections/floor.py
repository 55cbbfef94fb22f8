"""Section "floor": how close mpiwrite's timed write phase is to the least a program can do.

For every cell {local disk, tmpfs, and on request a fresh ext4} x FILES (100, 10,000 and 100,000 files) x {line, whole} x
{1 rank x 1 thread, 2 ranks x 1 thread, 1 rank x 2 threads} it times new files of LINES (100)
lines of TEXT each:
  - mpiwrite under `mpirun -np RANKS` (`-r 1 --format json`; its repetitions[0].makespan_s:
    from the earliest rank start after the barrier to the last rank end, steady_clock), and
  - mpiwrite_floor (bench/floor.cpp): exactly the same system calls (openat O_CREAT|O_EXCL,
    LINES write()s or one write(), close per file) with the same split over processes (fork)
    and threads, nothing else, timed the same way.
It reports the ratio of the medians, mpiwrite / floor, per cell. The goal is <= 1.05 in the
cells of goal_min_files (10,000) files and more; a 100-file write phase lasts 0.3-15 ms,
where Open MPI's helper threads and scheduling noise are a large share of it, so that size
has no goal. Runs per program and cell depend on the size: a cheap, noisy 100-file cell gets
15, up to 20,000 files 7, beyond 5 (~15 min on a 2-core VM, not an hour).
idle_threads > 0 adds a third program, the floor with that many idle threads per process (as
an MPI library starts helper threads): what being a multi-threaded process costs.
control (--floor-control 1) adds the floor once more, "floor-again", interleaved as the others:
the floor against itself, a control. Its paired ratio would be 1 on a quiet machine; how far it
strays in a cell is what that cell can resolve in that hour, so a miss of mpiwrite's can be
read against it (on this 2-core VM the floor against itself strayed past 1.05 in cells of 10
to 12 runs: a 5 % goal is near the resolution of a cell).
passes (--floor-passes P) run the whole sweep of cells P times, --floor-runs each, and pool a
cell's runs of every pass: a cell's runs are then spread over the section instead of taken in
one stretch of it. On this VM a cell's figure moved between invocations minutes apart by more
than its own interval (tmpfs 10,000 files 1r x 1t stat: 1.065 in 41 runs, 0.957 in 21 runs
minutes later), so one stretch's runs, however many, measure that stretch. Each cell also says
its median pass by pass.
File system outermost (the local disk's files stay until the end: the inode trap); on tmpfs
each run's files go right after it (untimed): kept for a whole cell, a 100,000-file cell held
1,000,000 files by its last run, and creates slowed as they piled up (bench-20261201T012347Z).
Within a file system the sizes ascend: a broken setup shows early.
The file system "ext4" (not in the default list; root) is a new ext4 for every run, on a loop
device backed by tmpfs (fresh_ext4.py): ext4's own code without the local disk's inode trap
and discard, so that a phases run's write cells measure the programs there too.

Phases (issue 23, --floor-phases; default write alone, as above): with stat, read and remove
too, each run of a file cell is one `mpiwrite --phases LIST` and one `mpiwrite_floor --phases
LIST`, and every phase is a cell of its own (its makespan from each program's own timing,
paired by run: both programs ran the same phases back to back). With tree-create and
tree-remove, each (file system, size, layout) also gets a tree cell ("tree" in the mode's
place): the phases module (mpiwrite_bench/phases.py) says what it makes. With remove among
the phases, the runs delete their own files, on the local disk too: the ext4 inode trap then
slows the next runs' creates, both programs' alike (they alternate), so the write phase of a
phases run on ext4 is not the write-only floor's figure."""
import math
import os
import shutil
import statistics
from dataclasses import dataclass, field

from .. import phases as ph
from ..fresh_ext4 import FreshExt4, check_can_make, size_for
from ..harness import layout, one_repetition, run_checked
from ..scratch import BenchError, SpaceNeed, log
from ..stats import ms, paired_ratios, summary, summary_with_interval

NAME = "floor"
FS_NAME = {"local": "local", "shm": "shm", "ext4": "ext4 fresh per run"}
FILE_SYSTEMS = tuple(FS_NAME)


def default_runs(files):
    """More runs where a cell is cheap and noisy, fewer where one run takes seconds."""
    return 15 if files <= 1000 else 7 if files <= 20000 else 5


@dataclass
class Params:
    files: list = field(default_factory=lambda: [100, 10_000, 100_000])
    runs: list = field(default_factory=list)  # empty: default_runs; one: every size; or one per size
    fs: list = field(default_factory=lambda: ["local", "shm"])
    modes: list = field(default_factory=lambda: ["line", "whole"])
    layouts: list = field(default_factory=lambda: ["1x1", "2x1", "1x2"])
    goal: float = 1.05
    goal_min_files: int = 10_000
    idle_threads: int = 0
    control: bool = False  # also "floor-again": the floor against itself
    phases: list = field(default_factory=lambda: ["write"])
    tree_branch: int = 10
    tree_walk: str = "safe"  # the floor's tree cells: "safe" as mpiwrite must, or "path"
    shift: int = 1  # mpiwrite's --shift default (mdtest -N 1)
    passes: int = 1  # the whole sweep of cells this many times, each cell's runs pooled

    def __post_init__(self):
        self.phases = ph.check(self.phases)
        ph.tree_depth(1, self.tree_branch)  # checks the branch
        if self.tree_walk not in ("safe", "path"):
            raise BenchError("--floor-tree-walk must be safe or path")
        bad = [f for f in self.fs if f not in FILE_SYSTEMS]
        if bad:
            raise BenchError(f"--floor-fs: '{bad[0]}' is not one of {', '.join(FILE_SYSTEMS)}")
        if "ext4" in self.fs:
            check_can_make()  # before any cell runs, not after the other file systems' cells
        if self.shift < 0:
            raise BenchError("--floor-shift must be >= 0")
        if self.passes < 1:
            raise BenchError("--floor-passes must be >= 1")
        if len(set(self.files)) != len(self.files):
            raise BenchError("--floor-files: a size appears twice")
        if len(self.runs) > 1 and len(self.runs) != len(self.files):
            raise BenchError(f"--floor-runs: give one number, or one per size of --floor-files "
                             f"({len(self.files)})")
        if not self.runs:
            per = {n: default_runs(n) for n in self.files}
        elif len(self.runs) == 1:
            per = {n: self.runs[0] for n in self.files}
        else:
            per = dict(zip(self.files, self.runs))
        self.files = sorted(self.files)
        self.runs_per_size = per

    @classmethod
    def smoke(cls):
        return cls(files=[100], runs=[2], modes=["line"], layouts=["2x1"],
                   phases=["write", "stat", "read", "remove"])

    @property
    def file_phases(self):
        return ph.file_phases(self.phases)

    @property
    def tree_phases(self):
        return ph.tree_phases(self.phases)

    def tree(self, files):
        """(depth, branch) of a tree cell of `files`."""
        return ph.tree_depth(files, self.tree_branch), self.tree_branch

    @property
    def programs(self):
        return (["floor", "mpiwrite"] + (["floor-again"] if self.control else [])
                + (["floor-mt"] if self.idle_threads else []))


def plan(p, h):
    """The cells in the order they run, and what stays on the local disk."""
    cells, need = [], SpaceNeed()
    progs = len(p.programs)
    for pass_no in range(1, p.passes + 1):
        for fs in p.fs:
            for n in p.files:
                for mode in modes_of(p):
                    for lay in p.layouts:
                        cells.append({"fs": fs, "files": n, "mode": mode, "layout": lay,
                                      "runs": p.runs_per_size[n], "pass": pass_no})
    kept = "remove" not in p.phases  # a run that removes its files keeps none
    for n in p.files:  # per size: its cells' runs and the warm-ups, of each program, each pass
        runs = (p.runs_per_size[n] * len(modes_of(p)) * len(p.layouts) + h.warmup) * progs \
            * p.passes
        if "local" in p.fs:
            need.local_runs += runs
            need.local_files += n * runs if kept else 0
            if p.tree_phases and "tree-remove" not in p.phases:  # the trees stay
                need.local_files += (p.runs_per_size[n] * len(p.layouts) * progs * 2 * p.passes
                                     * ph.tree_directories(*p.tree(n)))
        need.shm_cell_files = max(need.shm_cell_files, n * p.runs_per_size[n] * progs)
    return {"cells": cells, "need": need}


def modes_of(p):
    """The write modes of the file cells, then "tree" for the tree cells."""
    return list(p.modes) + (["tree"] if p.tree_phases else [])


def parameters(p, h):
    return {"goal_ratio": p.goal, "goal_min_files": p.goal_min_files, "filesystems": p.fs,
            "modes": p.modes, "layouts": p.layouts, "floor_idle_threads": p.idle_threads,
            "programs": p.programs, "phases": p.phases, "tree_branch": p.tree_branch,
            "tree_walk": p.tree_walk, "shift": p.shift,
            "trees": [{"files": n, "depth": p.tree(n)[0], "branch": p.tree_branch,
                       "directories_per_tree": ph.tree_directories(*p.tree(n))}
                      for n in p.files] if p.tree_phases else [],
            "floor_sizes": [{"files": n, "runs": p.runs_per_size[n] * p.passes} for n in p.files],
            "passes": p.passes,
            "order": "per cell, runs interleaved; the first program rotates every run and every "
                     "cell; with three or more programs the order reverses every other block "
                     "of that many runs (harness.order_of); with passes > 1 the whole sweep of "
                     "cells runs that many times, a cell's runs of every pass pooled"}


def one(p, h, program, d, files, ranks, threads, mode):
    """One run into the fresh directory d: {"seconds": all its timed phases, "phases": {phase:
    {"seconds", "items"}}}."""
    tree = p.tree(files) if mode == "tree" else None
    timed = p.tree_phases if tree else p.file_phases
    if program.startswith("floor"):
        os.mkdir(d)
        idle = p.idle_threads if program == "floor-mt" else 0
        out = run_checked([h.bins.floor, d, str(files), str(h.lines), h.text,
                           "whole" if tree else mode, str(ranks), str(threads),
                           *ph.floor_args(timed, p.shift, tree, p.tree_walk)], f"mpiwrite_floor in {d}",
                          env={"MPIWRITE_FLOOR_IDLE_THREADS": str(idle)})
        times = ph.parse_floor(out, timed)
    else:
        what = f"mpiwrite in {d}"
        written = ph.tree_run_files(ranks, threads) if tree else files
        words = ph.mpiwrite_args(ph.tree_run_phases(timed) if tree else timed, p.shift, tree)
        cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
            written, d, threads, "--write-mode", "whole" if tree else mode, "--partition",
            "block", "--repetitions", "1", "--warmup", "0", "--format", "json", *words))
        rep = one_repetition(h.run_json(cmd, what), written, ranks, threads, what)
        times = ph.mpiwrite_times(rep, timed, what)
    if tree:
        check_tree(d, program, p, files, ranks)
    elif "remove" in timed and not program.startswith("floor") and not os.path.exists(d):
        pass  # mpiwrite removes a --dir it made once its remove phase emptied it (metrics.md)
    else:
        h.check_dir(d, 0 if "remove" in timed else files)
    return {"seconds": sum(t["seconds"] for t in times.values()), "phases": times}


def check_tree(d, program, p, files, ranks):
    """After a tree run: no file left (mpiwrite removed its few, the floor wrote none); without
    tree-remove the floor's trees are all there; with it, nothing of them."""
    dirs = 0
    for _, subdirs, names in os.walk(d):
        if names:
            raise BenchError(f"{d}: files left after the tree run: {names[:3]}")
        dirs += len(subdirs)
    if program.startswith("floor"):
        want = ranks * ph.tree_directories(*p.tree(files)) if "tree-remove" not in p.phases else 0
        if dirs != want:
            raise BenchError(f"{d}: {dirs} directories after the floor's tree run, expected {want}")


def run(p, h):
    s = h.scratch
    progs = p.programs
    h.note(f"Every run writes into a fresh directory; mpiwrite runs as `{h.mpirun} "
           f"{' '.join(h.mpirun_flags)} -np R mpiwrite -t T -r 1 --format json`, the floor as a "
           f"plain process that forks R processes of T threads.")
    if p.phases != ["write"]:
        h.note(f"Phases {', '.join(p.phases)}: mpiwrite `{' '.join(ph.mpiwrite_args(p.file_phases, p.shift))}`"
               f" against the floor's loop of each phase, one run of each program timing them all"
               + (f"; tree cells: mpiwrite `--phases {','.join(ph.tree_run_phases(p.tree_phases))}"
                  f" --layout rank --tree-depth D --branch {p.tree_branch}` writing one file per "
                  f"writer, against the floor's tree of each process, its parents reached "
                  + ("as mpiwrite's, one component at a time with openat(O_NOFOLLOW) (--floor-tree-walk safe)"
                     if p.tree_walk == "safe" else
                     "through whole paths given to mkdirat/unlinkat, which the kernel walks "
                     "following links, as mpiwrite must not (--floor-tree-walk path)")
                  + " (D per size: "
                  + ", ".join(f"{n:,} files: {p.tree(n)[0]}" for n in p.files) + ")"
                  if p.tree_phases else "") + ".")
    cells = plan(p, h)["cells"]
    total = sum(len(p.fs) * (p.runs_per_size[n] * len(modes_of(p)) * len(p.layouts) + h.warmup)
                * len(progs) * p.passes for n in p.files)
    sizes = "".join(f"{n}: {p.runs_per_size[n]}, " for n in p.files)
    if p.passes > 1:
        h.note(f"The whole sweep of cells ran {p.passes} times (passes), each cell's "
               f"{', '.join(str(p.runs_per_size[n]) for n in p.files)} runs per pass pooled: a "
               f"cell's runs are spread over the section, not taken in one stretch of it (on this "
               f"VM a cell's figure moved between invocations minutes apart by more than its "
               f"interval).")
    log(f"floor: {len(cells)} cells x {len(progs)} programs, sizes (files: runs per program and "
        f"cell{' and pass' if p.passes > 1 else ''}) {sizes}{total} runs in all with the "
        f"warm-ups; local: {s.local} ({s.local_fs}), tmpfs: {s.shm} ({s.shm_fs})")
    h.between_series()
    records, cell_no = [], 0
    for pass_no in range(1, p.passes + 1):
        for fs in p.fs:
            base, fstype = fresh_base(p, h) if fs == "ext4" else s.base(fs)
            for n in p.files:
                warm(p, h, fs, base, n, pass_no)
                for mode in modes_of(p):
                    for lay in p.layouts:
                        cell_no += 1
                        records += cell(p, h, fs, base, fstype, n, mode, lay, cell_no,
                                        len(cells), pass_no)
    return records


def fresh_base(p, h):
    """(the fresh ext4, "ext4"): one image for the invocation, made anew before each run,
    sized for the largest run (a tree run's directories, if any, counted for every rank)."""
    if getattr(h, "fresh_ext4", None) is None:
        dirs = max((2 * ph.tree_directories(*p.tree(n)) for n in p.files), default=0) \
            if p.tree_phases else 0
        mib, inodes = size_for(max(p.files), dirs)
        fresh = h.scratch.adopt(FreshExt4(h.scratch.work, mib, inodes))
        fresh.remake()
        f = fresh.facts()
        h.note(f"ext4 fresh per run: {f.get('source', '?')} ({f.get('backing')}), "
               f"{'with a journal' if f.get('has_journal') else 'journal unknown' if 'has_journal' not in f else 'without a journal'}, "
               f"mounted {f.get('mount_options', '?')}; made anew (mkfs.ext4 -N {inodes} -E "
               f"lazy_itable_init=0,lazy_journal_init=0) and mounted before every run, untimed.")
        h.fresh_ext4 = fresh
    return h.fresh_ext4, "ext4"


def run_dir(fs, base, cdir, name):
    """A run's fresh directory: under the cell's on the local disk and tmpfs; at the top of a
    file system made for this run on the fresh ext4."""
    if fs == "ext4":
        return os.path.join(base.remake(), name)
    return os.path.join(cdir, name)


def pass_suffix(p, pass_no):
    """A pass's directories are its own (the local disk keeps them until the end)."""
    return f"-pass{pass_no}" if p.passes > 1 else ""


def warm(p, h, fs, base, n, pass_no=1):
    if h.warmup <= 0:
        return
    lay, mode = p.layouts[0], p.modes[0]
    ranks, threads = layout(lay)
    wdir = None if fs == "ext4" else os.path.join(base, f"warmup-{n}{pass_suffix(p, pass_no)}")
    if wdir:
        os.mkdir(wdir)

    def go(program, run):
        h.scratch.touched(fs)
        return one(p, h, program, run_dir(fs, base, wdir, f"warmup-{n}-run{run}-{program}"),
                   n, ranks, threads, mode)
    h.warm(p.programs, go, f"{fs} {n} files {mode} {lay}")
    if fs == "shm":
        shutil.rmtree(wdir, ignore_errors=True)
    h.between_series()


def cell(p, h, fs, base, fstype, n, mode, lay, cell_no, cells_total, pass_no=1):
    """One pass's runs of a cell; their run numbers follow the earlier passes' (a cell's runs
    of every pass are pooled by summarize, each record saying its pass)."""
    ranks, threads = layout(lay)
    cdir = None if fs == "ext4" else os.path.join(base, f"{n}-{mode}-{lay}{pass_suffix(p, pass_no)}")
    if cdir:
        os.mkdir(cdir)
    runs = p.runs_per_size[n]

    def go(program, run, position):
        h.scratch.touched(fs)
        d = run_dir(fs, base, cdir,
                    f"{n}-{mode}-{lay}{pass_suffix(p, pass_no)}-run{run}-{program}")
        res = one(p, h, program, d, n, ranks, threads, mode)
        if fs == "shm":
            shutil.rmtree(d, ignore_errors=True)
        return res | {"position": position}

    out = h.cell(p.programs, runs, cell_no, go, lambda run, text: log(
        f"[{cell_no}/{cells_total}] {fs} {n} files {mode} {ranks}r x {threads}t run "
        f"{run}/{runs}{f' of pass {pass_no}/{p.passes}' if p.passes > 1 else ''}: {text}"))
    if fs == "shm":
        shutil.rmtree(cdir, ignore_errors=True)
    h.between_series()
    return [{"fs": fs, "fs_type": fstype, "files": n, "mode": mode, "layout": lay,
             "run": (pass_no - 1) * runs + r["run"], "pass": pass_no,
             "position": r[prog]["position"], "program": prog, "phase": phase,
             "seconds": t["seconds"], "items": t["items"]}
            for r in out for prog in r["order"] for phase, t in r[prog]["phases"].items()]


def summarize(meta, sec, records):
    """Fills sec (cells, summary); returns the Markdown lines."""
    p, fp = meta["parameters"], sec["parameters"]
    goal, goal_min, programs = fp["goal_ratio"], fp["goal_min_files"], fp["programs"]
    keys = ("fs", "fs_type", "files", "mode", "layout", "phase")
    cells = {}
    for x in records:
        x = {"phase": "write", "items": None} | x  # records from before phases: the write phase
        c = cells.setdefault(tuple(x[k] for k in keys),
                             {k: x[k] for k in keys} | {"runs": {}, "items": {}})
        r = c["runs"].setdefault(x["run"], {"run": x["run"], "pass": x.get("pass", 1),
                                            "order": []})
        r["order"].append(x["program"])
        r[x["program"] + "_s"] = x["seconds"]
        c["items"].setdefault(x["program"], x["items"])
    out = []
    # Grouped by size (stable: within a size, in the order they ran: file system, mode, layout,
    # phase).
    for cell in sorted(cells.values(), key=lambda c: c["files"]):
        runs = [cell["runs"][k] for k in sorted(cell["runs"])]
        ranks, threads = layout(cell["layout"])
        files = cell["files"]
        c = {k: cell[k] for k in keys}
        c.update(ranks=ranks, threads=threads, runs_per_program=len(runs), runs=runs,
                 items=cell["items"])
        # µs per item: per file, per directory in a tree cell (the floor's count of them).
        items = cell["items"].get("floor") or files
        for prog in programs:
            s = summary([r[prog + "_s"] for r in runs if prog + "_s" in r])
            s["us_per_file_median"] = s["median"] / items * 1e6
            c[prog] = s
        for prog in programs[1:]:
            c[f"{prog}_ratio_of_medians"] = c[prog]["median"] / c["floor"]["median"]
            c[f"{prog}_paired_ratio"] = summary_with_interval(
                paired_ratios(runs, prog + "_s", "floor_s"))
        c["ratio_of_medians"] = c["mpiwrite_ratio_of_medians"]
        c["goal_applies"] = files >= goal_min
        c["goal_met"] = c["ratio_of_medians"] <= goal if c["goal_applies"] else None
        # The same goal on the median of the run-by-run ratios (issue 23 §5 states it so): a
        # run of each program side by side shares the machine's moment, which the two medians
        # of separate runs do not.
        c["goal_met_paired"] = (c["mpiwrite_paired_ratio"]["median"] <= goal
                                if c["goal_applies"] else None)
        # Whether a miss is more than the cell's noise: the paired ratio's median interval lies
        # wholly above the goal (the runs of a cell spread by more than 5 % on this VM, so a
        # ratio of medians above the goal alone does not say mpiwrite is slower by that much).
        band = c["mpiwrite_paired_ratio"]["interval"]
        c["goal_clearly_missed"] = (bool(c["goal_applies"]) and not c["goal_met"]
                                    and band is not None and band["low"] > goal)
        if "floor-again" in programs:
            c["control"] = control_of(c, goal)
        if len({r["pass"] for r in runs}) > 1:
            c["passes"] = passes_of(c, goal)
        out.append(c)
    sec["cells"] = out
    with_goal = [c for c in out if c["goal_applies"]]
    sizes = sorted({c["files"] for c in out})
    sec["summary"] = {"cells": len(out), "cells_with_goal": len(with_goal),
                      "cells_meeting_goal": sum(c["goal_met"] for c in with_goal),
                      "cells_meeting_goal_paired": sum(c["goal_met_paired"] for c in with_goal),
                      "cells_clearly_missing_goal": sum(c["goal_clearly_missed"]
                                                        for c in with_goal),
                      "goal_ratio": goal, "goal_min_files": goal_min,
                      "by_files": {str(n): by_files(out, n, goal_min) for n in sizes},
                      "by_phase": {ph_: by_files([c for c in out if c["phase"] == ph_], None,
                                                 goal_min)
                                   for ph_ in ph.ORDER if any(c["phase"] == ph_ for c in out)}}
    if "floor-again" in programs and with_goal:
        sec["summary"]["control"] = control_summary(with_goal, goal)
    if any("passes" in c for c in with_goal):
        sec["summary"]["passes"] = passes_summary([c for c in with_goal if "passes" in c], goal)
    return markdown(meta, p, fp, sec, out, sizes, with_goal)


def vs_both_floors(runs):
    """mpiwrite against both floor runs of each run that has them (their geometric mean): the
    same pairing as mpiwrite / floor, with half the floor's own noise in each ratio."""
    return [r["mpiwrite_s"] / math.sqrt(r["floor_s"] * r["floor-again_s"]) for r in runs
            if "mpiwrite_s" in r and "floor_s" in r and "floor-again_s" in r]


def control_of(c, goal):
    """The floor against itself in cell c: its paired ratio (floor-again / floor, run by run),
    whether that alone meets the goal, and what the cell resolves: the larger distance of its
    median's 95 % interval from 1 (None under 6 runs). A cell whose control strays by more than
    the goal's margin cannot tell mpiwrite at the goal from mpiwrite at the floor."""
    pr = c["floor-again_paired_ratio"]
    band = pr["interval"]
    resolution = max(band["high"] - 1, 1 - band["low"]) if band else None
    both = vs_both_floors(c["runs"])
    return {"paired_ratio_median": pr["median"],
            "interval": band,
            "meets_goal": pr["median"] <= goal if c["goal_applies"] else None,
            "resolution": resolution,
            "resolves_goal": resolution is not None and resolution <= goal - 1,
            "mpiwrite_vs_both_floors": summary_with_interval(both)}


def passes_of(c, goal):
    """Cell c pass by pass: each pass's median paired ratio (and against both floors, with the
    control), and whether the passes agree on the goal. The pooled figures are the cell's; how
    far its passes lie apart is how much the cell's figure moves within one invocation."""
    by_pass = {}
    for r in c["runs"]:
        by_pass.setdefault(r["pass"], []).append(r)
    out = []
    for k in sorted(by_pass):
        runs = by_pass[k]
        row = {"pass": k, "runs": len(runs),
               "mpiwrite_paired_ratio_median": statistics.median(
                   paired_ratios(runs, "mpiwrite_s", "floor_s"))}
        both = vs_both_floors(runs)
        if both:
            row["mpiwrite_vs_both_floors_median"] = statistics.median(both)
        out.append(row)
    medians = [row["mpiwrite_paired_ratio_median"] for row in out]
    return {"by_pass": out, "min": min(medians), "max": max(medians),
            "straddle_goal": min(medians) <= goal < max(medians)}


def passes_summary(cells, goal):
    """Over the cells with a goal: how many meet it in every pass, in none, and how many
    passes' medians straddle it."""
    return {"cells": len(cells), "passes": max(len(c["passes"]["by_pass"]) for c in cells),
            "cells_meeting_goal_in_every_pass": sum(c["passes"]["max"] <= goal for c in cells),
            "cells_meeting_goal_in_no_pass": sum(c["passes"]["min"] > goal for c in cells),
            "cells_straddling_goal": sum(c["passes"]["straddle_goal"] for c in cells),
            "largest_spread": max(c["passes"]["max"] - c["passes"]["min"] for c in cells)}


def control_summary(cells, goal):
    """Over the cells with a goal: how often the floor against itself misses the goal, how
    many cells resolve it, and the geometric means of the paired-ratio medians of mpiwrite and
    of the control (one figure for the whole table, whose noise averages over its cells)."""
    return {"cells": len(cells),
            "control_cells_meeting_goal": sum(bool(c["control"]["meets_goal"]) for c in cells),
            "cells_resolving_goal": sum(c["control"]["resolves_goal"] for c in cells),
            "mpiwrite_geometric_mean": statistics.geometric_mean(
                [c["mpiwrite_paired_ratio"]["median"] for c in cells]),
            "control_geometric_mean": statistics.geometric_mean(
                [c["control"]["paired_ratio_median"] for c in cells]),
            "mpiwrite_vs_both_floors_geometric_mean": statistics.geometric_mean(
                [c["control"]["mpiwrite_vs_both_floors"]["median"] for c in cells]),
            "cells_meeting_goal_vs_both_floors": sum(
                c["control"]["mpiwrite_vs_both_floors"]["median"] <= goal for c in cells),
            "by_phase_vs_both_floors": {
                phase: statistics.geometric_mean(
                    [c["control"]["mpiwrite_vs_both_floors"]["median"]
                     for c in cells if c["phase"] == phase])
                for phase in ph.ORDER if any(c["phase"] == phase for c in cells)},
            "max_control_paired_ratio": max(c["control"]["paired_ratio_median"] for c in cells),
            "goal_ratio": goal}


def by_files(cells, n, goal_min):
    """The cells of n files (n None: all of `cells`): how many meet the goal, the largest
    ratio."""
    these = [c for c in cells if n is None or c["files"] == n]
    with_goal = [c for c in these if c["goal_applies"]]
    return {"cells": len(these), "goal_applies": bool(with_goal),
            "cells_meeting_goal": (sum(bool(c["goal_met"]) for c in with_goal)
                                   if with_goal else None),
            "max_ratio_of_medians": max(c["ratio_of_medians"] for c in these)}


def markdown(meta, p, fp, sec, out, sizes, with_goal):
    goal, goal_min, programs = fp["goal_ratio"], fp["goal_min_files"], fp["programs"]
    phased = fp.get("phases", ["write"]) != ["write"]
    unit = "item" if phased else "file"
    head = ["cell", "files", "runs", "floor ms median [min–max]", "mpiwrite ms median [min–max]",
            "ratio of medians", "paired ratio median [min–max]", "paired ratio's median, 95 % interval",
            f"floor µs/{unit}", f"mpiwrite µs/{unit}", f"≤ {goal}× (from {goal_min:,} files)"]
    mt = "floor-mt" in programs
    control = "floor-again" in programs
    if control:
        head += ["floor again / floor: paired median (95 % interval)",
                 "mpiwrite / both floors: median (95 % interval)"]
    passes = any("passes" in c for c in out)
    if passes:
        head += ["paired median by pass"]
    if mt:
        head += [f"floor+{fp['floor_idle_threads']} idle threads ms median [min–max]",
                 "mpiwrite / floor+idle (ratio of medians)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in out:
        pr = c["mpiwrite_paired_ratio"]
        name = (f"{FS_NAME.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · "
                f"{c['ranks']}r×{c['threads']}t" + (f" · **{c['phase']}**" if phased else ""))
        floor_items, mpiwrite_items = c["items"].get("floor"), c["items"].get("mpiwrite")
        if floor_items is not None and mpiwrite_items is not None and floor_items != mpiwrite_items:
            name += f" (items: floor {floor_items:,}, mpiwrite {mpiwrite_items:,})"
        band = pr.get("interval")
        verdict = ("no goal" if not c["goal_applies"] else "yes" if c["goal_met"]
                   else "**no**, beyond the noise" if c["goal_clearly_missed"]
                   else "**no**, within the noise")
        row = [name, f"{c['files']:,}", str(c["runs_per_program"]), ms(c["floor"]),
               ms(c["mpiwrite"]), f"{c['ratio_of_medians']:.3f}",
               f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
               f"{band['low']:.3f}–{band['high']:.3f}" if band else "–",
               f"{c['floor']['us_per_file_median']:.1f}",
               f"{c['mpiwrite']['us_per_file_median']:.1f}", verdict]
        if control:
            k = c["control"]
            b = k["mpiwrite_vs_both_floors"]
            row += [f"{k['paired_ratio_median']:.3f}" + (
                f" ({k['interval']['low']:.3f}–{k['interval']['high']:.3f})" if k["interval"]
                else ""),
                f"{b['median']:.3f}" + (
                f" ({b['interval']['low']:.3f}–{b['interval']['high']:.3f})" if b["interval"]
                else "")]
        if passes:
            row += [", ".join(f"{x['mpiwrite_paired_ratio_median']:.3f}"
                              for x in c["passes"]["by_pass"]) if "passes" in c else "–"]
        if mt:
            row += [ms(c["floor-mt"]), f"{c['mpiwrite']['median'] / c['floor-mt']['median']:.3f}"]
        lines.append("| " + " | ".join(row) + " |")
    runs_text = ", ".join(f"{s['runs']} at {s['files']:,} files" for s in fp["floor_sizes"])
    md = [f"## mpiwrite vs. the floor — {meta['started_utc']}", "",
          f"{' / '.join(f'{n:,}' for n in sizes)} files × {p['lines']} lines of {p['text']!r} "
          f"({p['file_size_bytes']} B/file); runs per program and cell: {runs_text}; "
          f"interleaved (first program alternating), "
          f"after {p['warmup_runs_per_filesystem']} untimed warm-up run(s) per program, file "
          f"system and size; time = makespan of "
          f"{'each phase' if phased else 'the write phase'} (earliest rank start to last "
          f"rank end). Goal: mpiwrite ≤ {goal}× the floor (ratio of medians) in the cells of "
          f"{goal_min:,} files and more; smaller cells (a write phase of a few ms) have no goal.",
          ""]
    md += lines + [""]
    for n in sizes:
        b = sec["summary"]["by_files"][str(n)]
        if b["goal_applies"]:
            md.append(f"{n:,} files: goal met in {b['cells_meeting_goal']} of {b['cells']} cells "
                      f"(largest ratio of medians {b['max_ratio_of_medians']:.3f}).")
        else:
            md.append(f"{n:,} files: no goal; largest ratio of medians "
                      f"{b['max_ratio_of_medians']:.3f} in {b['cells']} cells.")
        md.append("")
    if phased:
        for name, b in sec["summary"]["by_phase"].items():
            met = (f"goal met in {b['cells_meeting_goal']} of {b['cells']} cells"
                   if b["goal_applies"] else f"no goal in its {b['cells']} cells")
            md += [f"{name}: {met} (largest ratio of medians {b['max_ratio_of_medians']:.3f}).",
                   ""]
    if with_goal:
        missed = len(with_goal) - sec['summary']['cells_meeting_goal']
        md += [f"Goal met in {sec['summary']['cells_meeting_goal']} of {len(with_goal)} cells "
               f"with a goal" + (f"; of the {missed} that miss it, "
                                 f"{sec['summary']['cells_clearly_missing_goal']} beyond the noise "
                                 f"(the paired ratio's 95 % interval wholly above {goal})"
                                 if missed else "") + ".", "",
               f"By the median paired ratio (issue 23 §5's measure) instead: goal met in "
               f"{sec['summary']['cells_meeting_goal_paired']} of {len(with_goal)} cells.", ""]
        k = sec["summary"].get("control")
        if k:
            md += [f"The control, the floor against itself: its paired ratio's median is within "
                   f"{goal} in {k['control_cells_meeting_goal']} of {k['cells']} cells (largest "
                   f"{k['max_control_paired_ratio']:.3f}); {k['cells_resolving_goal']} of "
                   f"{k['cells']} cells resolve the goal (the control's 95 % interval within "
                   f"{2 - goal:.2f}–{goal}). Over all {k['cells']} cells, geometric mean of the "
                   f"paired medians: mpiwrite {k['mpiwrite_geometric_mean']:.3f}, the control "
                   f"{k['control_geometric_mean']:.3f}.", "",
                   f"mpiwrite against both floor runs of its run (each run's mpiwrite time over "
                   f"the geometric mean of its two floor times: half the floor's noise): "
                   f"median within {goal} in {k['cells_meeting_goal_vs_both_floors']} of "
                   f"{k['cells']} cells; geometric mean over the cells "
                   f"{k['mpiwrite_vs_both_floors_geometric_mean']:.3f}; by phase "
                   + ", ".join(f"{name} {v:.3f}"
                               for name, v in k["by_phase_vs_both_floors"].items())
                   + ".", ""]
        q = sec["summary"].get("passes")
        if q:
            md += [f"Pass by pass ({q['passes']} passes, each cell's runs pooled above): the "
                   f"median paired ratio meets the goal in every pass in "
                   f"{q['cells_meeting_goal_in_every_pass']} of {q['cells']} cells, in no pass "
                   f"in {q['cells_meeting_goal_in_no_pass']}; the passes straddle it in "
                   f"{q['cells_straddling_goal']}; a cell's passes lie up to "
                   f"{q['largest_spread']:.3f} apart.", ""]
    else:
        md += [f"No cell has a goal (all have fewer than {goal_min:,} files).", ""]
    return md


def figures(sec):
    return [c["ratio_of_medians"] for c in sec.get("cells", [])]
