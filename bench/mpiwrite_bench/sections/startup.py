"""Section "startup": mpiwrite's start-up over a bare mpirun.

The wall time of the whole `mpirun -np NP` (2), from before its launch to its exit, of:
`true` (the baseline: mpirun's own launch), mpi-init (a program that calls only MPI_Init and
MPI_Finalize, built here with MPICC; left out if that fails or mpi_init is off),
`mpiwrite -n 1 -d FRESH` (default table report, to /dev/null) and `mpiwrite -n 1 -d FRESH
--engine null` (null on), RUNS (11) runs each, interleaved (the first variant rotates every
run), after WARMUP untimed runs of each; every mpiwrite run gets a fresh directory on tmpfs.
Reports medians and min-max, and the differences of medians (and paired per-run
differences) over the baseline, of mpiwrite over mpi-init (mpiwrite's own start-up and
report) and of posix over null (the I/O)."""
import os
import shutil
import subprocess
import time
from dataclasses import dataclass

from ..harness import run_checked
from ..scratch import BenchError, SpaceNeed, log
from ..stats import ms, paired_differences, summary

NAME = "startup"
MPI_INIT_C = ("#include <mpi.h>\n"
              "int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }\n")


@dataclass
class Params:
    runs: int = 11
    np: int = 2
    null: bool = True
    mpi_init: bool = True
    mpicc: str = "mpicc"

    @classmethod
    def smoke(cls):
        return cls(runs=1)


def variants(p, mpi_init_built):
    """The baseline first."""
    return (["true"] + (["mpi-init"] if p.mpi_init and mpi_init_built else []) + ["mpiwrite"]
            + (["mpiwrite-null"] if p.null else []))


def plan(p, h):
    return {"variants": variants(p, True), "runs": p.runs, "need": SpaceNeed()}


def commands(p):
    n = p.np
    return {"true": f"mpirun -np {n} true",
            "mpi-init": f"mpirun -np {n} mpi_init (MPI_Init + MPI_Finalize only)",
            "mpiwrite": f"mpirun -np {n} mpiwrite -n 1 -d FRESH",
            "mpiwrite-null": f"mpirun -np {n} mpiwrite -n 1 -d FRESH --engine null"}


def build_mpi_init(p, work):
    """The MPI_Init-only program, or None (noted) if MPICC cannot build it."""
    if not p.mpi_init:
        return None
    src, exe = os.path.join(work, "mpi_init.c"), os.path.join(work, "mpi_init")
    with open(src, "w") as f:
        f.write(MPI_INIT_C)
    try:
        subprocess.run([p.mpicc, "-O2", "-o", exe, src], check=True, capture_output=True)
        return exe
    except (OSError, subprocess.CalledProcessError):
        log(f"note: {p.mpicc} could not build the MPI_Init-only program; the startup section "
            f"goes on without it")
        return None


def command(p, h, variant, d, mpi_init_exe):
    tail = {"true": ["true"], "mpi-init": [mpi_init_exe],
            "mpiwrite": [h.bins.mpiwrite, "-n", "1", "-d", d],
            "mpiwrite-null": [h.bins.mpiwrite, "-n", "1", "-d", d, "--engine", "null"]}[variant]
    return h.mpirun_cmd(p.np, tail)


def one(p, h, variant, d, mpi_init_exe):
    """Runs it once (report to /dev/null); its wall time in seconds."""
    cmd = command(p, h, variant, d, mpi_init_exe)
    h.sync()
    t0 = time.perf_counter()
    run_checked(cmd, f"startup: '{' '.join(cmd)}'", stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    if variant == "mpiwrite":
        f = os.path.join(d, "write1.txt")
        if not os.path.isfile(f) or os.path.getsize(f) == 0:
            raise BenchError(f"startup: mpiwrite -n 1 did not write {f}")
    return round(seconds, 6)


def run(p, h):
    exe = build_mpi_init(p, h.scratch.work)
    vs = variants(p, exe is not None)
    base = os.path.join(h.scratch.shm, "startup")
    h.note(f"Section startup: wall time of the whole `{h.mpirun} {' '.join(h.mpirun_flags)} "
           f"-np {p.np} ...` (Python time.perf_counter around the command), variants "
           f"{' '.join(vs)}; mpiwrite runs with its default table report to /dev/null and a "
           f"fresh directory on tmpfs each.")
    log(f"startup: {' '.join(vs)}, {p.runs} runs each, -np {p.np}")
    os.mkdir(base)
    for w in range(1, h.warmup + 1):  # untimed, discarded
        for v in vs:
            sec = one(p, h, v, os.path.join(base, f"warmup{w}-{v}"), exe)
            log(f"warm-up startup: {v} {sec * 1e3:.1f} ms (discarded)")
    runs = h.cell(vs, p.runs, 1,
                  lambda v, r, pos: one(p, h, v, os.path.join(base, f"run{r}-{v}"), exe),
                  lambda r, text: log(f"[startup {r}/{p.runs}] {text}"))
    shutil.rmtree(base, ignore_errors=True)
    return {"variants": vs, "runs": runs}


def summarize(meta, sec, raw):
    sp = sec["parameters"]
    vs = raw["variants"]
    sp["variants"] = vs
    sp["commands"] = {v: commands_of(sp)[v] for v in vs}
    runs = [{"run": r["run"], "order": r["order"], **{v + "_s": r[v] for v in vs if v in r}}
            for r in raw["runs"]]
    sec["runs"] = runs
    st = {v: summary([r[v + "_s"] for r in runs if v + "_s" in r]) for v in vs}
    sec["stats"] = st
    base = vs[0]

    def diff(a, b):
        return {"difference_of_medians_s": st[a]["median"] - st[b]["median"],
                "paired_difference_s": summary(paired_differences(runs, a + "_s", b + "_s"))}

    sec["over_baseline"] = {v: diff(v, base) for v in vs[1:]}
    if "mpiwrite" in vs and "mpiwrite-null" in vs:
        sec["posix_over_null"] = diff("mpiwrite", "mpiwrite-null")
    if "mpiwrite" in vs and "mpi-init" in vs:
        sec["mpiwrite_over_mpi_init"] = diff("mpiwrite", "mpi-init")
    np_ = sp["np"]
    md = [f"## Start-up: whole-process wall time of `mpirun -np {np_}` — {meta['started_utc']}", "",
          f"{sp['runs']} runs per variant, interleaved (first variant rotating), after "
          f"{sp['warmup']} untimed warm-up run(s) of each; wall = from before the launch of "
          f"mpirun to its exit, Python `time.perf_counter`; `sync` before each run, untimed. "
          f"Every mpiwrite run gets a fresh directory on {sp['fs']} ({sp['fs_type']}), "
          f"table report to /dev/null. Over baseline = mpiwrite's start-up, write of 1 file, "
          f"report and shutdown beyond a bare `mpirun -np {np_} true`.", ""]
    head = ["variant", "command", "wall ms median [min–max]",
            "over baseline ms (difference of medians)", "paired difference ms median [min–max]"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for v in vs:
        if v == base:
            over = ["—", "—"]
        else:
            d = sec["over_baseline"][v]
            pd = d["paired_difference_s"]
            over = [f"{d['difference_of_medians_s'] * 1e3:+.1f}",
                    f"{pd['median'] * 1e3:+.1f} [{pd['min'] * 1e3:+.1f}–{pd['max'] * 1e3:+.1f}]"]
        md.append("| " + " | ".join([v, f"`{sp['commands'][v]}`", ms(st[v])] + over) + " |")
    md.append("")
    for key, lead, tail in (
            ("posix_over_null", "mpiwrite (posix) over mpiwrite --engine null",
             "the I/O part (directory and one file)."),
            ("mpiwrite_over_mpi_init",
             "mpiwrite over a program that only calls MPI_Init and MPI_Finalize (mpi-init)",
             "mpiwrite's own start-up, run and report beyond what any Open MPI program pays.")):
        if key in sec:
            d = sec[key]
            pd = d["paired_difference_s"]
            md += [f"{lead}: {d['difference_of_medians_s'] * 1e3:+.1f} ms (difference of medians), "
                   f"paired {pd['median'] * 1e3:+.1f} [{pd['min'] * 1e3:+.1f}–"
                   f"{pd['max'] * 1e3:+.1f}] ms: {tail}", ""]
    return md


def commands_of(sp):
    return commands(Params(np=sp["np"]))


def parameters(p, h):
    return {"np": p.np, "runs": p.runs, "warmup": h.warmup, "fs": "shm",
            "fs_type": h.scratch.shm_fs, "clock": "Python time.perf_counter",
            "order": "runs interleaved; the first variant rotates every run"}


def figures(sec):
    return [s["median"] for s in sec.get("stats", {}).values()]
