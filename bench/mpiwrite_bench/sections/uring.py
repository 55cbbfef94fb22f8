"""Section "uring": --engine uring (one thread per rank keeps --queue-depth Q files in flight
through io_uring, each file one linked chain: openat into a direct descriptor, the writes,
close), two parts:
  A, the engine at equal in-flight files. Goal: uring within goal (1.2)x the posix engine at
    equal in-flight files, on tmpfs; the local disk is reported too, for information. For
    {local disk, tmpfs} x modes (line whole) x each count c of depths (1 2 8 32 files in
    flight), FILES (10,000) files per run, RUNS (7) runs per variant, interleaved, of:
      posix-threads  `mpirun -np 1 mpiwrite -t c`: c threads, one file in flight each;
      uring          `mpirun -np 1 mpiwrite --engine uring -q c`: one thread, c in flight;
      posix-procs    `mpirun -np 2 mpiwrite` (2 ranks x 1 thread), for c = 2 only.
    (each `-r 1 --warmup 0 --partition block --format json`; time = makespan_s). Reported per
    cell: medians, min-max, µs per file, uring / posix threads (the goal's figure; also paired
    per run), at c = 2 uring / posix processes, and uring(c) / posix threads at c = 1: how many
    files must be in flight before io_uring beats a single blocking thread. posix-threads at
    c = 32 runs 32 threads on 2 cores: the posix engine at 32 in flight, oversubscribed.
  B, what makes io_uring fast or slow: bench/uring_probe.cpp (mpiwrite_uring_probe), one
    thread and one ring, no MPI, PROBE_FILES (2,000) files (its text is always "Hello,
    world!") on tmpfs only: the baseline posix (blocking calls, QD 1) and every probe variant
    (VARIANT [MODIFIER...], see the probe's header) at each probe depth (1 8 32), per mode.
    Per mode one cell: all (depth, variant) pairs and posix, PROBE_RUNS (5) runs each,
    interleaved, every run into a fresh directory removed right after it (tmpfs: no inode
    trap). Time = the probe's own wall time of its loop (ring set-up and teardown included).
  "direct skip defer" in line mode at QD 1 is very slow (0.7-4.5 ms per file: every punted
  write's completion waits for the submitting thread): up to ~9 s per 2,000-file run. It is a
  finding, so it stays; that is why the probe writes 2,000 files and makes 5 runs.
  Before any timed run, one tiny run of mpiwrite --engine uring and of every probe variant and
  depth: a machine where io_uring is blocked (seccomp, kernel.io_uring_disabled) or a variant
  is refused (e.g. SQPOLL) fails within seconds, not after minutes."""
import os
import re
import shutil
import time
from dataclasses import dataclass, field

from ..harness import check_config, one_repetition, rotate, run_checked
from ..scratch import BenchError, SpaceNeed, log
from . import uring_summary

NAME = "uring"
DEFAULT_PROBE_VARIANTS = [
    "regular", "regular skip coop", "split skip coop", "direct", "direct skip",
    "direct skip coop", "direct skip coop async", "direct skip coop regbuf", "direct skip defer",
    "direct skip sqpoll", "direct skip coop spin"]
VARIANT_RE = re.compile(r"^(regular|split|direct)( (skip|coop|defer|async|regbuf|sqpoll|spin))*$")
PROBE_LINE = len("Hello, world!\n")


@dataclass
class Params:
    files: int = 10_000
    runs: int = 7
    depths: list = field(default_factory=lambda: [1, 2, 8, 32])
    modes: list = field(default_factory=lambda: ["line", "whole"])
    goal: float = 1.2
    probe_files: int = 2000
    probe_runs: int = 5
    probe_depths: list = field(default_factory=lambda: [1, 8, 32])
    probe_variants: list = field(default_factory=lambda: list(DEFAULT_PROBE_VARIANTS))

    def __post_init__(self):
        self.depths = sorted(set(self.depths))
        self.probe_depths = sorted(set(self.probe_depths))
        self.probe_variants = [" ".join(v.split()) for v in self.probe_variants if v.split()]
        if any(not 1 <= d <= 1024 for d in self.depths):  # 1024: mpiwrite's most threads
            raise BenchError("--uring-depths: whole numbers from 1 to 1024")
        if any(not 1 <= d <= 4096 for d in self.probe_depths):  # the probe's deepest queue
            raise BenchError("--uring-probe-depths: whole numbers from 1 to 4096")
        for v in self.probe_variants:
            if not VARIANT_RE.match(v):
                raise BenchError(f"--uring-probe-variants: '{v}' is not regular|split|direct "
                                 f"[skip coop defer async regbuf sqpoll spin] (posix is the "
                                 f"baseline, always run)")
        if len(set(self.probe_variants)) != len(self.probe_variants):
            raise BenchError("--uring-probe-variants: a variant appears twice")

    @classmethod
    def smoke(cls):
        return cls(files=200, runs=2, depths=[2], modes=["line"], probe_files=50,
                   probe_runs=2, probe_depths=[1, 8], probe_variants=["regular", "direct skip coop"])


def cell_variants(c):
    return ["posix-threads", "uring"] + (["posix-procs"] if c == 2 else [])


def probe_items(p):
    """(variant, depth) of part B's cell, posix at QD 1 first."""
    return [("posix", 1)] + [(v, qd) for qd in p.probe_depths for v in p.probe_variants]


def plan(p, h):
    cells = [{"part": "A", "fs": fs, "mode": m, "in_flight": c, "variants": cell_variants(c)}
             for fs in ("local", "shm") for m in p.modes for c in p.depths]
    if p.probe_variants:
        cells += [{"part": "B", "fs": "shm", "mode": m,
                   "items": [f"{v}@{qd}" for v, qd in probe_items(p)]} for m in p.modes]
    per_mode = sum(len(cell_variants(c)) for c in p.depths)
    warm = 3 if 2 in p.depths else 2
    runs = per_mode * p.runs * len(p.modes) + h.warmup * warm
    need = SpaceNeed(local_files=p.files * runs, local_runs=runs,
                     shm_cell_files=max(p.files * p.runs * 3, p.probe_files))
    return {"cells": cells, "need": need}


def parameters(p, h):
    return {"files": p.files, "runs": p.runs, "in_flight": p.depths, "modes": p.modes,
            "filesystems": ["local", "shm"],
            "variants": {
                "posix-threads": "mpirun -np 1 mpiwrite -t C (C threads, one file in flight each)",
                "uring": "mpirun -np 1 mpiwrite --engine uring -q C (one thread, C files in flight)",
                "posix-procs": "mpirun -np 2 mpiwrite (2 ranks x 1 thread; only at C = 2)"},
            "options": "--partition block -r 1 --warmup 0 --format json",
            "goal_ratio": p.goal,
            "goal": "uring / posix-threads (ratio of medians) <= goal_ratio on tmpfs; local disk: "
                    "information only",
            "probe_files": p.probe_files, "probe_runs": p.probe_runs,
            "probe_depths": p.probe_depths, "probe_variants": p.probe_variants,
            "probe_baseline": "posix at QD 1", "probe_warmup": h.warmup, "probe_fs": "shm",
            "probe_fs_type": h.scratch.shm_fs,
            "probe_command": "mpiwrite_uring_probe DIR FILES LINES MODE QD VARIANT [MODIFIER...]",
            "order": "per cell, runs interleaved; the first variant rotates every run and every cell"}


def estimate_s(p, warmup):
    """Expected duration, on the high side, from costs measured on a 2-core VM: a part-A run
    ~0.6 s of mpirun, sync, file check and report plus its files at per-file costs by variant,
    mode and depth; a probe run ~0.12 s plus its files; ~1 s per cell for sync and drop caches."""
    total = 0
    for mode in p.modes:
        for c in p.depths:
            for v in cell_variants(c):
                if v == "posix-threads":
                    us = 60 if mode == "line" else 12
                elif v == "posix-procs":
                    us = 30 if mode == "line" else 10
                elif mode == "line":
                    us = 200 if c == 1 else 175 if c == 2 else 120 if c <= 8 else 90
                else:
                    us = 50 if c == 1 else 25 if c == 2 else 20 if c <= 8 else 15
                total += 2 * p.runs * (600000 + p.files * us)
            total += 2 * 1000000
    total += 2 * warmup * 3 * (600000 + p.files * 200)
    rounds = p.probe_runs + warmup
    if p.probe_variants:
        for mode in p.modes:
            total += rounds * (120000 + p.probe_files * (50 if mode == "line" else 8)) + 1000000
            for qd in p.probe_depths:
                for v in p.probe_variants:
                    if mode == "line" and " defer" in f" {v} ":
                        us = 4500 if qd == 1 else 300
                    elif mode == "line":
                        us = 250 if qd == 1 else 150
                    else:
                        us = 70 if qd == 1 else 25
                    total += rounds * (120000 + p.probe_files * us)
    return total // 1000000


class Runner:
    def __init__(self, p, h):
        self.p, self.h = p, h
        self.cell_no = 0
        self.cells_total = 2 * len(p.modes) * len(p.depths)
        self.engine, self.probe = [], []

    def one(self, variant, d, mode, c, fields):
        """One mpiwrite run of part A with c files in flight; checks files and report."""
        p, h = self.p, self.h
        ranks, threads, engine, depth = 1, 1, "posix", 1
        if variant == "posix-threads":
            threads = c
        elif variant == "uring":
            engine, depth = "uring", c
        else:
            ranks = 2
        # --queue-depth only for the engine that has one (mpiwrite refuses it otherwise).
        depth_args = ["--queue-depth", str(depth)] if engine == "uring" else []
        cmd = h.mpirun_cmd(ranks, h.mpiwrite_args(
            p.files, d, threads, "--engine", engine, *depth_args, "--write-mode", mode,
            "--partition", "block", "--repetitions", "1", "--warmup", "0", "--format", "json"))
        what = f"mpiwrite --engine {engine} ({ranks}r x {threads}t, -q {depth}) in {d}"
        report = h.run_json(cmd, what)
        h.check_dir(d, p.files)
        rep = one_repetition(report, p.files, ranks, threads, what)
        check_config(report, {"engine": engine, "queue_depth": depth, "write_mode": mode,
                              "partition": "block"}, what)
        return {**fields, "variant": variant, "in_flight": c, "ranks": ranks, "threads": threads,
                "engine": engine, "queue_depth": depth, "mode": mode, "files": p.files,
                "seconds": rep["makespan_s"], "makespan_s": rep["makespan_s"],
                "writer_fd_tables": report["context"].get("writer_fd_tables")}

    def probe_one(self, d, mode, qd, variant):
        """One probe run into the fresh d (the probe makes it); checks and removes its files."""
        p = self.p
        out = run_checked([self.h.bins.probe, d, str(p.probe_files), str(self.h.lines), mode,
                           str(qd), *variant.split()],
                          f"mpiwrite_uring_probe {mode} QD {qd} {variant} in {d}")
        m = re.match(r"^([0-9]+\.[0-9]+) s ", out)
        if not m:
            raise BenchError(f"mpiwrite_uring_probe printed '{out.strip()}'")
        self.h.check_dir(d, p.probe_files, self.h.lines * PROBE_LINE)
        shutil.rmtree(d, ignore_errors=True)  # tmpfs: no inode trap
        return float(m.group(1))

    def preflight(self):
        p, h = self.p, self.h
        d = os.path.join(h.scratch.shm, "uring-preflight")
        os.mkdir(d)
        cmd = h.mpirun_cmd(1, [h.bins.mpiwrite, "--files", "4", "--lines", str(h.lines),
                               "--text", h.text, "--dir", os.path.join(d, "mpiwrite"),
                               "--engine", "uring", "--queue-depth", "2", "--repetitions", "1",
                               "--warmup", "0", "--format", "json"])
        run_checked(cmd, "uring: mpiwrite --engine uring cannot run here (see above);")
        for mode in p.modes:
            run_checked([h.bins.probe, os.path.join(d, f"posix-{mode}"), "4", str(h.lines), mode,
                         "1", "posix"], "uring: mpiwrite_uring_probe posix")
            for qd in p.probe_depths:
                for v in p.probe_variants:
                    run_checked([h.bins.probe, os.path.join(d, f"{mode}-{qd}-{v.replace(' ', '-')}"),
                                 "4", str(h.lines), mode, str(qd), *v.split()],
                                f"uring: the probe variant '{v}' at QD {qd} in {mode} mode (leave "
                                f"it out of --uring-probe-variants)")
        shutil.rmtree(d, ignore_errors=True)

    def warm(self, fs):
        """WARMUP untimed runs of every part-A variant on the first mode and depth
        (posix-procs, if it runs at all, at its 2 in flight)."""
        p, h = self.p, self.h
        base, _ = h.scratch.base(fs)
        vs = ["posix-threads", "uring"] + (["posix-procs"] if 2 in p.depths else [])
        wdir = os.path.join(base, "uring-warmup")
        os.mkdir(wdir)

        def go(v, run):
            h.scratch.touched(fs)
            c = 2 if v == "posix-procs" else p.depths[0]
            return self.one(v, os.path.join(wdir, f"run{run}-{v}"), p.modes[0], c, {})
        h.warm(vs, go, f"uring {fs} {p.modes[0]} {p.depths[0]} in flight")
        if fs == "shm":
            shutil.rmtree(wdir, ignore_errors=True)
        h.between_series()

    def cell(self, fs, mode, c):
        p, h = self.p, self.h
        base, fstype = h.scratch.base(fs)
        self.cell_no += 1
        cell_no = self.cell_no
        cdir = os.path.join(base, f"uring-{mode}-c{c}")
        os.mkdir(cdir)

        def go(v, run, position):
            h.scratch.touched(fs)
            r = self.one(v, os.path.join(cdir, f"run{run}-{v}"), mode, c,
                         {"fs": fs, "fs_type": fstype, "run": run, "position": position})
            self.engine.append(r)
            return r
        h.cell(cell_variants(c), p.runs, cell_no, go, lambda run, text: log(
            f"[uring A {cell_no}/{self.cells_total}] {fs} {mode} {c} in flight run "
            f"{run}/{p.runs}: {text}"))
        if fs == "shm":
            shutil.rmtree(cdir, ignore_errors=True)
        h.between_series()

    def probe_cell(self, mode):
        """Every (depth, variant) and posix, PROBE_RUNS runs each after WARMUP untimed rounds,
        interleaved: in every round each runs once, from a rotating position."""
        p, h = self.p, self.h
        items = probe_items(p)
        self.cell_no += 1
        d = os.path.join(h.scratch.shm, f"uring-probe-{mode}")
        os.mkdir(d)
        for rnd in range(p.probe_runs + h.warmup):  # rounds < warmup: discarded
            run = rnd + 1 - h.warmup
            t0 = time.perf_counter()
            slow, slow_us, k = "", 0, ""
            order = rotate(list(range(len(items))), rnd + self.cell_no - 1)
            for position, i in enumerate(order, 1):
                v, qd = items[i]
                h.sync()
                sec = self.probe_one(os.path.join(d, f"run{run}-{i}"), mode, qd, v)
                if run >= 1:
                    self.probe.append({"mode": mode, "queue_depth": qd, "variant": v, "run": run,
                                       "position": position, "seconds": sec})
                us = round(sec / p.probe_files * 1e6)
                if us > slow_us:
                    slow_us, slow = us, f"{v} QD {qd}"
                if v == "posix":
                    k = us
            label = (f"warm-up {rnd + 1}/{h.warmup} (discarded)" if run < 1
                     else f"run {run}/{p.probe_runs}")
            log(f"[uring B {mode}] {label}: {len(items)} probe runs in "
                f"{time.perf_counter() - t0:.1f} s; posix {k} µs/file, slowest {slow} "
                f"{slow_us} µs/file")
        shutil.rmtree(d, ignore_errors=True)
        h.between_series()


def run(p, h):
    h.note(f"Section uring, part A: every run writes into a fresh directory; `{h.mpirun} "
           f"{' '.join(h.mpirun_flags)} -np 1 mpiwrite -t C` (posix-threads), `-np 1 mpiwrite "
           f"--engine uring -q C` (uring), `-np 2 mpiwrite` (posix-procs, C = 2 only), each "
           f"`--partition block -r 1 --warmup 0 --format json`.")
    if p.probe_variants:
        h.note(f"Section uring, part B: `mpiwrite_uring_probe DIR {p.probe_files} {h.lines} MODE "
               f"QD VARIANT [MODIFIER...]` on tmpfs, each run into a fresh directory removed "
               f"right after it; its lines are always 'Hello, world!'.")
    r = Runner(p, h)
    est = estimate_s(p, h.warmup)
    log(f"uring: part A {r.cells_total} cells (local, tmpfs x {' '.join(p.modes)} x "
        f"{' '.join(map(str, p.depths))} in flight) x {p.runs} runs of {p.files} files; part B "
        f"{len(p.probe_variants)} probe variants x QD {' '.join(map(str, p.probe_depths))} + "
        f"posix, {p.probe_runs} runs of {p.probe_files} files per mode; expected "
        f"~{(est + 59) // 60} min (~{est} s, an estimate on the high side for a 2-core VM)")
    r.preflight()
    h.between_series()
    for fs in ("local", "shm"):  # file system outermost: the local files stay (inode trap)
        if h.warmup:
            r.warm(fs)
        for mode in p.modes:
            for c in p.depths:
                r.cell(fs, mode, c)
    if p.probe_variants:
        for mode in p.modes:
            r.probe_cell(mode)
    return {"engine": r.engine, "probe": r.probe}


# The section's summarize and figures live beside it (this file would pass 500 lines).
summarize = uring_summary.summarize
figures = uring_summary.figures

