"""python3 -m mpiwrite_bench [options]: builds mpiwrite and the baselines (Release, in
--build-dir) unless --bin-dir names built ones, runs the chosen sections, and writes
bench-results/bench-<UTC time>.{json,md} (the Markdown also to standard output; progress to
standard error). Every scratch directory it made is removed on exit, also on failure or
Ctrl-C. See each module of mpiwrite_bench/sections/ for what a section measures and why."""
import argparse
import dataclasses
import datetime
import os
import shutil
import signal
import subprocess
import sys
import time

from . import report, scratch, sections
from .harness import Binaries, Harness
from .scratch import BenchError, SpaceNeed, log

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = ["mpiwrite", "mpiwrite_floor", "mpiwrite_alloc_count", "mpiwrite_uring_probe"]


def ints(text):
    return [int(x) for x in text.replace(",", " ").split()]


def floats(text):
    return float(text)


def words(text):
    return text.replace(",", " ").split()


def commas(text):
    """Comma-separated entries of several words each (the probe's variants)."""
    return [" ".join(x.split()) for x in text.split(",") if x.split()]


def bool01(text):
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError("0 or 1")
    return text == "1"


# (option, section, field of its Params, type, help). Defaults are the Params defaults;
# --smoke starts from each Params.smoke() instead; an option given overrides either.
KNOBS = [
    ("--floor-files", "floor", "files", ints, "sizes (files per run) [100,10000,100000]"),
    ("--floor-runs", "floor", "runs", ints, "runs per program and cell: one number, or one per "
     "size [15 up to 1,000 files, 7 up to 20,000, else 5]"),
    ("--floor-fs", "floor", "fs", words, "file systems: local, shm, ext4 (a fresh ext4 per run on a tmpfs-backed loop device; root) [local,shm]"),
    ("--floor-modes", "floor", "modes", words, "write modes [line,whole]"),
    ("--floor-layouts", "floor", "layouts", words, "RANKSxTHREADS [1x1,2x1,1x2]"),
    ("--floor-goal-min-files", "floor", "goal_min_files", int,
     "the 1.05 goal applies from this many files [10000]"),
    ("--floor-idle-threads", "floor", "idle_threads", int, "if > 0, also the floor with that "
     "many idle threads per process (as an MPI library starts) [0]"),
    ("--floor-control", "floor", "control", bool01, "also the floor once more, interleaved "
     "(floor-again): the floor against itself, what each cell can resolve: 0 or 1 [0]"),
    ("--floor-phases", "floor", "phases", words, "phases to time: write, and any of "
     "tree-create, stat, read, remove, tree-remove; a cell per phase [write]"),
    ("--floor-tree-branch", "floor", "tree_branch", int, "subdirectories per directory of the "
     "tree cells (with tree-create); depth: the least whose tree holds FILES directories [10]"),
    ("--floor-tree-walk", "floor", "tree_walk", str, "how the floor's tree cells reach a "
     "parent: safe (openat O_NOFOLLOW per component, as mpiwrite must) or path (whole paths "
     "to mkdirat/unlinkat, the kernel following links) [safe]"),
    ("--floor-passes", "floor", "passes", int, "the whole sweep of cells this many times, "
     "each cell's runs of every pass pooled (so a cell's runs spread over the section, not "
     "one stretch of it): --floor-runs per pass [1]"),
    ("--floor-shift", "floor", "shift", int, "stat and read go to the files of rank "
     "(r + SHIFT) %% ranks, mpiwrite --shift; below the ranks of every layout, or 1 [1]"),
    ("--files", "dynamic", "files", int, "files per run of the dynamic sections [10000]"),
    ("--runs", "dynamic", "runs", int, "runs per variant and cell of the dynamic sections [7]"),
    ("--dyn-chunks", "dynamic", "chunks", ints, "--chunk values [8,64]"),
    ("--dyn-layouts", "dynamic", "layouts", words, "overhead part's layouts [2x1]"),
    ("--dyn-mode", "dynamic", "mode", str, "write mode [line]"),
    ("--dyn-slow-layouts", "dynamic", "slow_layouts", words,
     "slow-rank part's RANKSx1, RANKS >= 2; empty: none [2x1,4x1]"),
    ("--dyn-slow-delay-us", "dynamic", "slow_delay_us", int, "rank 1's sleep per file [50]"),
    ("--dh-chunks", "dynamic-hosts", "chunks", ints, "dynamic-hosts' --chunk values [8,64]"),
    ("--ovh-files", "overhead", "files", int, "files [1000000]"),
    ("--ovh-layouts", "overhead", "layouts", words, "layouts [1x1,2x1,1x2]"),
    ("--ovh-fsync-layouts", "overhead", "fsync_layouts", words, "layouts also run with --fsync [1x1]"),
    ("--ovh-reps", "overhead", "reps", int, "repetitions in the one mpirun [7]"),
    ("--ovh-goal-ns", "overhead", "goal_ns", floats, "goal, ns/file per thread [200]"),
    ("--startup-runs", "startup", "runs", int, "runs per variant [11]"),
    ("--startup-np", "startup", "np", int, "mpirun -np [2]"),
    ("--startup-null", "startup", "null", bool01, "also mpiwrite --engine null: 0 or 1 [1]"),
    ("--startup-mpi-init", "startup", "mpi_init", bool01, "also an MPI_Init-only program [1]"),
    ("--mpicc", "startup", "mpicc", str, "builds the MPI_Init-only program [mpicc]"),
    ("--alloc-files", "alloc", "files", ints, "two or more sizes [1000,100000]"),
    ("--alloc-layouts", "alloc", "layouts", words, "layouts [1x1,2x1,1x2]"),
    ("--alloc-engines", "alloc", "engines", words, "engines [posix,null,uring]"),
    ("--alloc-mode", "alloc", "mode", str, "write mode [whole]"),
    ("--alloc-goal", "alloc", "goal", floats, "allocations per file [0.001]"),
    ("--uring-files", "uring", "files", int, "part A's files per run [10000]"),
    ("--uring-runs", "uring", "runs", int, "part A's runs per variant [7]"),
    ("--uring-depths", "uring", "depths", ints, "files in flight; 2 adds posix-procs [1,2,8,32]"),
    ("--uring-modes", "uring", "modes", words, "write modes, both parts [line,whole]"),
    ("--uring-goal", "uring", "goal", floats, "uring / posix threads on tmpfs [1.2]"),
    ("--uring-probe-files", "uring", "probe_files", int, "part B's files per run [2000]"),
    ("--uring-probe-runs", "uring", "probe_runs", int, "part B's runs [5]"),
    ("--uring-probe-depths", "uring", "probe_depths", ints, "part B's queue depths [1,8,32]"),
    ("--uring-probe-variants", "uring", "probe_variants", commas, "comma-separated 'VARIANT "
     "[MODIFIER...]'; empty: no part B [the probe's 11 variants]"),
    ("--scale-files", "scale", "files", ints, "sizes [10000,1000000]"),
    ("--scale-layout", "scale", "layout", str, "RANKSxTHREADS [4x2]"),
    ("--scale-mode", "scale", "mode", str, "write mode [whole]"),
    ("--scale-rss-goal-mib", "scale", "rss_goal_mib", int, "per rank at the largest size [64]"),
    ("--scale-growth-goal", "scale", "growth_goal", floats, "peak RSS growth [1.10]"),
    ("--progress-files", "progress", "files", int, "files per write phase [10000]"),
    ("--progress-layout", "progress", "layout", str, "RANKSxTHREADS [4x1]"),
    ("--progress-rounds", "progress", "rounds", int, "interleaved rounds [9]"),
    ("--progress-reps", "progress", "reps", int, "repetitions per mpirun [3]"),
    ("--progress-interval", "progress", "interval_s", floats, "--progress=SECONDS [0.1]"),
    ("--netfs-rounds", "netfs", "rounds", int, "interleaved rounds per cell [3]"),
    ("--netfs-rtt-us", "netfs", "rtt_us", int, "RTT of the clients cells and the removal [2000]"),
    ("--netfs-files", "netfs", "files", int, "files of the clients cells and the removal [2000]"),
    ("--netfs-ranks", "netfs", "ranks", ints, "RANKS of the clients cells (1 and 2 clients, "
     "shared vs rank) [4,8]"),
    ("--netfs-matrix-files", "netfs", "matrix_files", int, "files per matrix run [500]"),
    ("--netfs-matrix-rtts-us", "netfs", "matrix_rtts_us", ints, "RTTs of the matrix, the first "
     "before the line cells, the others after [2000,500]"),
    ("--netfs-concurrency", "netfs", "concurrency", ints, "the matrix's c [1,2,4,8,16]"),
    ("--netfs-line-files", "netfs", "line_files", int, "files per line-mode run [300]"),
    ("--netfs-line-rtts-us", "netfs", "line_rtts_us", ints, "RTTs of the line cells [2000]"),
    ("--netfs-line-concurrency", "netfs", "line_concurrency", ints, "line cells' c [1,4,16]"),
    ("--netfs-uring-fpd", "netfs", "uring_fpd", int, "--files-per-dir of the uring-fpdN "
     "variant; 0: none [1]"),
    ("--netfs-removal", "netfs", "removal", bool01, "the --cleanup runs at --netfs-rtt-us: 0 "
     "or 1 [1]"),
    ("--auto-max-concurrency", "auto", "max_concurrency", int, "mpirun -np C, --compare "
     "--max-concurrency C [64]"),
    ("--auto-files", "auto", "files", int, "files per point and repetition [100]"),
    ("--auto-rounds", "auto", "rounds", int, "interleaved rounds [3]"),
    ("--auto-fixed-reps", "auto", "fixed_reps", int, "the fixed variant's -r [100]"),
    ("--auto-fs", "auto", "fs", str, "shm (tmpfs) or netfs (the GlusterFS testbed, root) [shm]"),
    ("--auto-rtt-us", "auto", "rtt_us", int, "the testbed's RTT with --auto-fs netfs [2000]"),
    ("--auto-startup", "auto", "startup", bool01, "also time mpirun -np C mpiwrite -n 1 -r 1 "
     "(the launch): 0 or 1 [1]"),
    ("--auto-precision", "auto", "precision", str, "-r auto's --precision [mpiwrite's]"),
    ("--auto-max-time", "auto", "max_time_s", floats, "-r auto's --max-time [mpiwrite's]"),
    ("--auto-max-repetitions", "auto", "max_repetitions", int,
     "-r auto's --max-repetitions [mpiwrite's]"),
    ("--auto-equivalence", "auto", "equivalence", str,
     "both variants' --equivalence [mpiwrite's]"),
    ("--netfs-local-dir", "netfs", "local_dir", str, "no testbed: run the one-client cells in "
     "this directory with a local mpirun (to test the section) []"),
]


def parser():
    ap = argparse.ArgumentParser(
        prog="python3 -m mpiwrite_bench", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Lists take commas or blanks: --floor-files 100,10000. Quick smoke run: --smoke "
               "(every section at toy size, no settle wait, no drop caches).")
    ap.add_argument("--sections", type=words, default=None,
                    help=f"comma-separated, run in the fixed order [{','.join(sections.DEFAULT)}]; "
                         f"dynamic-hosts and netfs (root, network namespaces; netfs a GlusterFS "
                         f"testbed) and auto (long) only when named; ALL: every one but those "
                         f"three")
    ap.add_argument("--smoke", action="store_true", help="every section at toy size")
    ap.add_argument("--out", default=os.path.join(REPO, "bench-results"), help="results directory")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build-bench"),
                    help="where the Release build goes [build-bench]")
    ap.add_argument("--bin-dir", default=None, help="use the built programs there; no build")
    ap.add_argument("--tmp", default=os.path.join(REPO, "bench-results", "tmp"),
                    help="local-disk scratch root [bench-results/tmp]")
    ap.add_argument("--shm", default="/dev/shm", help="tmpfs scratch root [/dev/shm]")
    ap.add_argument("--lines", type=int, default=100, help="lines per file [100]")
    ap.add_argument("--text", default="Hello, world!", help="text of each line")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--mpirun-flags", default="--oversubscribe --bind-to none",
                    help="by default Open MPI binds each rank to one core, which would put both "
                         "threads of a 1x2 cell on one core while the floor's use two")
    ap.add_argument("--settle", type=int, default=None,
                    help="seconds after an earlier cleanup before touching the local disk "
                         "(the ext4 inode trap) [65; 0 with --smoke]")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs before each series [1]")
    for flag, sec, fld, typ, text in KNOBS:
        ap.add_argument(flag, type=typ, default=None, help=f"{sec}: {text}")
    return ap


def chosen(arg):
    if arg is None:
        return list(sections.DEFAULT)
    if arg == ["ALL"]:
        return list(sections.DEFAULT)
    for s in arg:
        if s not in sections.MODULES:
            raise BenchError(f"--sections: '{s}' is not one of {', '.join(sections.MODULES)}")
    return [s for s in sections.MODULES if s in arg]  # the fixed order


def params(args, names):
    """Each chosen section's Params: defaults (or smoke sizes), then the options given."""
    out = {}
    for name in names + (["dynamic"] if "dynamic-hosts" in names else []):
        mod = sections.MODULES[name]
        base = mod.Params.smoke() if args.smoke else mod.Params()
        over = {fld: getattr(args, flag[2:].replace("-", "_")) for flag, sec, fld, _, _ in KNOBS
                if sec == name and getattr(args, flag[2:].replace("-", "_")) is not None}
        out[name] = dataclasses.replace(base, **over) if over else base
    if "dynamic-hosts" in names:
        out["dynamic-hosts"] = dataclasses.replace(out["dynamic-hosts"], dyn=out["dynamic"])
    return out


def binaries(args):
    if args.bin_dir:
        d = args.bin_dir
    else:
        d = args.build_dir
        log(f"building into {d}")
        for cmd in (["cmake", "-S", REPO, "-B", d, "-DCMAKE_BUILD_TYPE=Release",
                     "-DMPIWRITE_BUILD_TESTS=OFF"],
                    ["cmake", "--build", d, "-j", str(os.cpu_count()), "--target", *TARGETS]):
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.stderr.write(p.stdout + p.stderr)
                raise BenchError("build failed")
    b = Binaries(os.path.join(d, "mpiwrite"), os.path.join(d, "mpiwrite_floor"),
                 os.path.join(d, "libmpiwrite_alloc_count.so"),
                 os.path.join(d, "mpiwrite_uring_probe"), build_dir=d)
    for path in (b.mpiwrite, b.floor, b.probe):
        if not os.access(path, os.X_OK):
            raise BenchError(f"no {path}")
    if not os.access(b.alloc_lib, os.R_OK):
        raise BenchError(f"no {b.alloc_lib}")
    return b


def main(argv):
    args = parser().parse_args(argv)
    names = chosen(args.sections)
    ps = params(args, names)
    if "dynamic-hosts" in names and os.geteuid() != 0:
        raise BenchError("dynamic-hosts: the emulated hosts (network namespaces) need root")
    if "netfs" in names and ps["netfs"].testbed and os.geteuid() != 0:
        raise BenchError("netfs: the GlusterFS testbed needs root (or --netfs-local-dir DIR)")
    if not args.text or "\n" in args.text:
        raise BenchError("--text must be one non-empty line")
    for tool in ([] if args.bin_dir else ["cmake"]) + [args.mpirun]:
        if not shutil.which(tool):
            raise BenchError(f"{tool} not found")
    bins = binaries(args)
    if os.geteuid() == 0:
        os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    scr = scratch.Scratch(args.tmp, args.shm)
    try:
        return run_all(args, names, ps, bins, scr, argv)
    finally:
        scr.close()


def run_all(args, names, ps, bins, scr, argv):
    h = Harness(bins, scr, mpirun=args.mpirun, mpirun_flags=args.mpirun_flags.split(),
                lines=args.lines, text=args.text, warmup=args.warmup, drop_caches=not args.smoke)
    need = SpaceNeed()
    for n in names:
        need.add(sections.MODULES[n].plan(ps[n], h)["need"])
    local_kib, local_inodes = scr.check(need, h.file_size)
    places = sections.scale.place(ps["scale"], h, local_kib, local_inodes) if "scale" in names else {}
    settle = args.settle if args.settle is not None else (0 if args.smoke else 65)
    # The sections that put files on the local disk (the floor only with --floor-fs local).
    local = {n for n in sections.LOCAL_DISK.intersection(names)
             if n != "floor" or "local" in ps["floor"].fs}
    if local and settle:
        scr.settle(settle)
    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.monotonic()
    if local:
        h.note("Local-disk files are kept until the end of the benchmark and removed only then "
               "(ext4 inode trap); on tmpfs the floor's files are removed after each run, the "
               "other sections' between series.")
    if sections.LOCAL_DISK.intersection(names):
        h.note("Untimed between runs: sync. Between series (cells): sync and drop caches; on "
               "tmpfs the cell's files are removed first.")
    raw = {}
    for n in names:
        mod = sections.MODULES[n]
        if n in ("dynamic-hosts", "netfs"):
            raw[n] = mod.run(ps[n], h, REPO)
        elif n == "scale":
            raw[n] = mod.run(ps[n], h, places)
        else:
            raw[n] = mod.run(ps[n], h)
    finished = datetime.datetime.now(datetime.timezone.utc)
    meta = report.new_meta(h, names, started.strftime("%Y-%m-%dT%H:%M:%SZ"), argv, args.smoke,
                           scratch.software(REPO, bins.build_dir, args.mpirun),
                           scratch.machine({"local": scr.local, "shm": scr.shm}))
    meta["finished_utc"] = finished.strftime("%Y-%m-%dT%H:%M:%SZ")
    meta["duration_s"] = int(time.monotonic() - t0)
    meta["parameters"]["drop_caches_permitted"] = h.drop_caches
    md = []
    for n in names:
        mod = sections.MODULES[n]
        sec = {"parameters": mod.parameters(ps[n], h)}
        if hasattr(mod, "meta_extra"):
            sec.update(mod.meta_extra())
        meta[report.key_of(n)] = sec
        md += mod.summarize(meta, sec, raw[n])
    meta["notes"] = h.notes
    paths = report.write(meta, md, args.out, started.strftime("%Y%m%dT%H%M%SZ"))
    log(f"wrote {paths[0]} and {paths[1]}")
    return 0


def entry():
    os.environ["LC_ALL"] = "C"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the scratch is removed
    try:
        return main(sys.argv[1:])
    except BenchError as e:
        log(f"error: {e}")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(entry())
