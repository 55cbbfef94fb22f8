"""Section "netfs" (only when named; root): mpiwrite on a real networked file system, the
GlusterFS testbed of tests/testbed/netfs-up.sh (two server hosts netfsA/netfsB, one
distribute volume, FUSE mounts at /mnt/netfs on the head and on the client hosts netfsC and
netfsD, each host its own network, UTS and mount namespace; the round-trip time set by
tests/testbed/netfs-rtt.sh). The section brings the testbed up itself, ties it to this
process with tests/testbed/reaper.sh (a killed benchmark leaves no daemon, mount or
namespace) and tears it down in a finally. mpirun runs on the head and starts the ranks on
the client hosts through tests/testbed/netns-rsh: "one client" is netfsC alone, "two
clients" netfsC + netfsD (--map-by node: C, D, C, D, ...). Every run is
`mpiwrite -r 1 --warmup 0 --partition block --format json --timeout 300` into a fresh
directory on /mnt/netfs; its time is the write phase's makespan from mpiwrite's own report
(docs/metrics.md: common start to the last rank's end). Runs are interleaved within a cell
(the harness rotates the first variant every round and cell), figures are medians over the
rounds, with min-max.

Why a subset: the full factorial (2 RTTs x 2 client counts x 3 layouts x 3 kinds x 5
concurrencies x 2 write modes x >= 3 rounds) is ~1,000 runs of 2-30 s each; the whole
section has to fit in ~25 minutes. So, in this order (defaults; all are options):
  1. "clients" cells at RTT 2 ms, 2,000 whole files, RANKS x 1 for RANKS in (4, 8): one
     client and two clients, each with --layout shared and --layout rank (4 variants). The
     4-rank one-client pair is the headline (issue 13 expects rank >= 1.8x faster than
     shared there).
  2. "matrix" cells, whole writes, 500 files, at RTT 2 ms and then 0.5 ms, one client, per
     concurrency c in (1 2 4 8 16):
       procs-shared   c ranks x 1 thread, --layout shared (all files in one directory)
       procs-own      c ranks x 1 thread, --layout rank (a directory per rank = per writer)
       threads-shared 1 rank x c threads, --layout shared
       threads-own    1 rank x c threads, --layout thread (a directory per writer thread:
                      with --layout rank the c threads of the one rank would share one
                      directory, so --layout thread is the fair match for procs-own)
       uring          1 rank x 1 thread, --engine uring -q c, --layout rank: its one writer
                      thread has ONE directory under every layout (its rank's and its
                      thread's are the same directory), so this is the c-files-in-flight
                      case that stays behind the directory lock
       uring-fpdN     the same with --layout shared --files-per-dir N (N = 1 by default:
                      every file its own subdirectory, so files in flight never share a
                      parent, and the directories are made before the timed phase);
                      only at the first matrix RTT (2 ms). Measured: it does not free
                      uring either, since its submitting thread opens each file's
                      directory with a blocking openat, a round trip per file
                      (docs/performance.md, netfs)
     At c = 1 only 1x1 (procs-shared) and uring -q 1: the others are the same program.
  3. "line" cells: --write-mode line, 300 files, RTT 2 ms, c in (1 4 16), the same variants.
  4. "removal": one run of 4 x 1, 2,000 whole files, one client, RTT 2 ms, --cleanup, for
     --layout shared and for --layout rank: the removal phase's time from the report's
     cleanup.elapsed_s (one run each, not repeated: 6,000 deletes took ~33 s at 2 ms).
Untimed, between cells: the RTT is set to 0, every run's directory of the cell is checked
from the head's mount (exactly write1..writeN.txt, in as many directories as the layout makes)
and removed, then the next cell's RTT is set; after every RTT change WARMUP small runs (100
files, each client count of the cell) absorb the first job after the change, which the
recipe (../shared/notes/netfs-gluster.md, pitfall 5) saw as an outlier. No drop caches: the
files live on the servers, and a fresh directory per run defeats the client's cache.
--netfs-local-dir DIR runs the same cells without the testbed (mpirun on this machine,
one-client variants only, no RTT): to test the section where there is no root or testbed."""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field

from ..harness import check_config, one_repetition
from ..scratch import BenchError, SpaceNeed, log
from ..stats import median, summary

NAME = "netfs"
MNT = "/mnt/netfs"
NET = "10.78.0.0/24"
CLIENT_HOSTS = ["netfsC", "netfsD"]
GOAL_RATIO = 1.8  # issue 13: rank at least 1.8x faster than shared (2 ms, 1 client, 4 ranks)
WARM_FILES = 100
TIMEOUT_S = 300  # mpiwrite --timeout: a stuck run aborts instead of stalling the benchmark


@dataclass(frozen=True)
class Variant:
    name: str
    ranks: int
    threads: int = 1
    engine: str = "posix"
    queue_depth: int = 1
    layout: str = "shared"
    files_per_dir: int = 0  # 0: not given
    clients: int = 1

    @property
    def dirs(self):
        """How many directories hold the files (files_per_dir aside)."""
        return {"shared": 1, "rank": self.ranks, "thread": self.ranks * self.threads}[self.layout]

    def options(self):
        out = ["--engine", self.engine]
        if self.engine == "uring":  # mpiwrite refuses --queue-depth for the posix engine
            out += ["--queue-depth", str(self.queue_depth)]
        if self.layout != "shared":
            out += ["--layout", self.layout]
        if self.files_per_dir:
            out += ["--files-per-dir", str(self.files_per_dir)]
        return out


@dataclass
class Params:
    rounds: int = 3
    rtt_us: int = 2000            # the clients cells and the removal
    files: int = 2000             # the clients cells and the removal
    ranks: list = field(default_factory=lambda: [4, 8])
    matrix_files: int = 500
    matrix_rtts_us: list = field(default_factory=lambda: [2000, 500])
    concurrency: list = field(default_factory=lambda: [1, 2, 4, 8, 16])
    line_files: int = 300
    line_rtts_us: list = field(default_factory=lambda: [2000])
    line_concurrency: list = field(default_factory=lambda: [1, 4, 16])
    uring_fpd: int = 1            # 0: no uring-fpdN variant
    removal: bool = True
    local_dir: str = ""           # set: no testbed, run there with a local mpirun

    def __post_init__(self):
        for name in ("concurrency", "line_concurrency", "ranks"):
            xs = sorted(set(getattr(self, name)))
            if any(not 1 <= x <= 1024 for x in xs):
                raise BenchError(f"--netfs-{name.replace('_', '-')}: whole numbers 1 to 1024")
            setattr(self, name, xs)
        if self.rounds < 1 or self.files < 1 or self.matrix_files < 1 or self.line_files < 1:
            raise BenchError("--netfs-rounds and the --netfs-*files: at least 1")
        if any(r < 0 for r in [self.rtt_us, *self.matrix_rtts_us, *self.line_rtts_us]):
            raise BenchError("--netfs-*rtt*: microseconds, 0 or more")

    @classmethod
    def smoke(cls):
        return cls(rounds=1, files=40, ranks=[2], matrix_files=40, matrix_rtts_us=[2000],
                   concurrency=[1, 2], line_files=20, line_concurrency=[2], uring_fpd=1)

    @property
    def testbed(self):
        return not self.local_dir


def kind_variants(c, p, clients=1, fpd=True):
    """The matrix's variants at concurrency c (see the module doc); uring-fpdN if fpd."""
    vs = [Variant("procs-shared", c, clients=clients)]
    if c > 1:
        vs += [Variant("procs-own", c, layout="rank", clients=clients),
               Variant("threads-shared", 1, c, clients=clients),
               Variant("threads-own", 1, c, layout="thread", clients=clients)]
    vs.append(Variant("uring", 1, engine="uring", queue_depth=c, layout="rank", clients=clients))
    if c > 1 and p.uring_fpd and fpd:
        vs.append(Variant(f"uring-fpd{p.uring_fpd}", 1, engine="uring", queue_depth=c,
                          files_per_dir=p.uring_fpd, clients=clients))
    return vs


def client_variants(r, p):
    counts = [1, 2] if p.testbed else [1]
    return [Variant(f"{n}c-{lay}", r, layout=lay, clients=n) for n in counts
            for lay in ("shared", "rank")]


def cells(p):
    """Every timed cell, in the order they run: dicts of part, name, rtt_us, mode, files,
    concurrency (or ranks), variants."""
    rtt = (lambda us: us) if p.testbed else (lambda us: 0)
    out = [{"part": "clients", "name": f"clients-{r}x1", "rtt_us": rtt(p.rtt_us), "mode": "whole",
            "files": p.files, "ranks": r, "variants": client_variants(r, p)} for r in p.ranks]
    # uring-fpdN only in the first matrix RTT: it needs an untimed mkdir per file and
    # answers one question (see the module doc), which the 2 ms cells answer best.
    for part, rtts, conc, mode, files, fpd in (
            ("matrix", p.matrix_rtts_us[:1], p.concurrency, "whole", p.matrix_files, True),
            ("line", p.line_rtts_us, p.line_concurrency, "line", p.line_files, False),
            ("matrix", p.matrix_rtts_us[1:], p.concurrency, "whole", p.matrix_files, False)):
        for us in rtts:
            for c in conc:
                out.append({"part": part, "name": f"{part}-{us}us-c{c}", "rtt_us": rtt(us),
                            "mode": mode, "files": files, "concurrency": c,
                            "variants": kind_variants(c, p, fpd=fpd)})
    if not p.testbed:  # one cell per (part, rtt, c): without RTTs, the 0.5 ms copy repeats it
        seen, unique = set(), []
        for c in out:
            if c["name"] not in seen:
                seen.add(c["name"])
                unique.append(c)
        out = unique
    return out


def removal_variants(p):
    return [Variant("removal-shared", 4), Variant("removal-rank", 4, layout="rank")]


def plan(p, h):
    cs = cells(p)
    files = max(c["files"] * len(c["variants"]) * p.rounds for c in cs)
    return {"cells": [{**c, "variants": [v.name for v in c["variants"]]} for c in cs]
            + ([{"part": "removal", "rtt_us": p.rtt_us if p.testbed else 0, "files": p.files,
                 "variants": [v.name for v in removal_variants(p)]}] if p.removal else []),
            "needs_root": p.testbed, "need": SpaceNeed(), "most_files_at_once": files,
            "estimate_s": estimate_s(p)}


def estimate_s(p):
    """Expected wall time on the 2-core VM, on the high side: ~2 s of mpirun per run (more
    with many ranks), whole files at 2 ms ~15 ms each with one writer, ~5.5 ms in one
    directory of one client, ~2.5 ms spread; 0.5 ms: ~2 ms each; line writes ~2x; ~1.5 ms
    per file to check and remove at RTT 0; testbed up and down ~20 s."""
    total = 20.0
    for c in cells(p):
        for v in c["variants"]:
            writers = v.ranks * v.threads
            fast = c["rtt_us"] >= 1000
            if writers == 1 and v.engine == "posix":
                per = 0.015 if fast else 0.003
            elif v.dirs == 1 and not v.files_per_dir and v.clients == 1:
                per = 0.0055 if fast else 0.002
            else:
                per = 0.0025 if fast else 0.0015
            per *= 2 if c["mode"] == "line" else 1
            total += p.rounds * (2.0 + writers * 0.05 + c["files"] * (per + 0.0015))
        total += 3
    if p.removal:
        total += 2 * (2.0 + p.files * 0.011)
    return int(total)


def parameters(p, h):
    return {"rounds": p.rounds, "rtt_us": p.rtt_us, "files": p.files, "ranks": p.ranks,
            "matrix_files": p.matrix_files, "matrix_rtts_us": p.matrix_rtts_us,
            "concurrency": p.concurrency, "line_files": p.line_files,
            "line_rtts_us": p.line_rtts_us, "line_concurrency": p.line_concurrency,
            "uring_files_per_dir": p.uring_fpd, "removal": p.removal,
            "testbed": ("tests/testbed/netfs-up.sh: GlusterFS 2-brick distribute volume on "
                        "netfsA/netfsB, FUSE clients netfsC (one client) and netfsC+netfsD "
                        "(two clients, --map-by node); RTT by netfs-rtt.sh")
            if p.testbed else f"none: --netfs-local-dir {p.local_dir}",
            "options": f"-r 1 --warmup 0 --partition block --format json --timeout {TIMEOUT_S}",
            "time": "the write phase's makespan_s from mpiwrite's report",
            "variants": {
                "Nc-shared / Nc-rank":
                    "R ranks x 1 thread on N client hosts, --layout shared / rank",
                "procs-shared / procs-own": "c ranks x 1 thread, --layout shared / rank",
                "threads-shared / threads-own": "1 rank x c threads, --layout shared / thread",
                "uring": "1 rank x 1 thread, --engine uring -q c, --layout rank (one directory)",
                "uring-fpdN": "1 x 1, --engine uring -q c, --layout shared --files-per-dir N",
                "removal-shared / removal-rank": "4 x 1, --cleanup: cleanup.elapsed_s"},
            "order": "per cell, rounds interleaved; the first variant rotates every round and cell",
            "between_cells": "RTT 0, files checked from the head's mount and removed (untimed), "
                             "next RTT set, warm-up runs of 100 files",
            "goal_ratio": GOAL_RATIO,
            "goal": "clients-4x1 one client: median 1c-shared / median 1c-rank >= goal_ratio"}


def meta_extra():
    return {"title": "mpiwrite on GlusterFS across emulated hosts (issue 13)"}


class Testbed:
    """netfs-up.sh DIR, the reaper, netfs-rtt.sh, netfs-down.sh; or nothing (local_dir)."""

    def __init__(self, repo, p, h):
        self.repo, self.p, self.h = repo, p, h
        self.cluster = os.path.join(repo, "tests", "testbed")
        self.dir = os.path.join(h.scratch.local, "netfs")  # bricks: sparse files, local disk
        self.reaper_pid = None
        self.rtt = None
        self.up_s = self.down_s = None
        self.binary = h.bins.mpiwrite
        self.rsh = None  # the testbed only

    def up(self):
        if not self.p.testbed:
            return
        if os.geteuid() != 0:
            raise BenchError("netfs: the GlusterFS testbed needs root")
        pidfile = os.path.join(self.h.scratch.work, "netfs-reaper.pid")
        # Before the testbed exists: netfs-up.sh may stop half-way (it removes what it made,
        # but a SIGKILL of this process in between must not leave the daemons behind).
        subprocess.run([os.path.join(self.cluster, "reaper.sh"), pidfile, str(os.getpid()),
                        os.path.join(self.cluster, "netfs-down.sh"), self.dir], check=True)
        with open(pidfile) as f:
            self.reaper_pid = int(f.read())
        t0 = time.monotonic()
        up = subprocess.run([os.path.join(self.cluster, "netfs-up.sh"), self.dir],
                            stdout=sys.stderr, env={**os.environ, "RTT_US": "0"})
        self.up_s = time.monotonic() - t0
        if up.returncode != 0:
            raise BenchError("netfs-up.sh could not make the testbed")
        os.chmod(self.dir, 0o755)
        # The client hosts have their own /tmp (netfs-up.sh), in which only DIR's parent keeps
        # its path: in a clone under /tmp neither the binary nor the rsh agent (which the
        # orteds there look up too) would exist on them. Copies beside DIR are on every host.
        self.binary = os.path.join(os.path.dirname(self.dir), "mpiwrite")
        self.rsh = os.path.join(os.path.dirname(self.dir), "netns-rsh")
        for src, dst in ((self.h.bins.mpiwrite, self.binary),
                         (os.path.join(self.cluster, "netns-rsh"), self.rsh)):
            shutil.copy2(src, dst)
            os.chmod(dst, 0o755)
        self.rtt = 0
        self.hostfiles = {}
        for n in (1, 2):
            path = os.path.join(self.h.scratch.work, f"hostfile{n}")
            with open(path, "w") as f:
                f.writelines(f"{host} slots=16\n" for host in CLIENT_HOSTS[:n])
            self.hostfiles[n] = path

    def down(self):
        if not self.p.testbed or self.reaper_pid is None:
            return
        t0 = time.monotonic()
        rc = subprocess.run([os.path.join(self.cluster, "netfs-down.sh"), self.dir],
                            stdout=sys.stderr).returncode
        self.down_s = time.monotonic() - t0
        self.disarm()
        if rc != 0:
            raise BenchError("netfs-down.sh left something behind")

    def disarm(self):
        """Stops the reaper by PID, if that PID is still our reaper."""
        try:
            with open(f"/proc/{self.reaper_pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
            if b"--child" in cmd and str(os.getpid()).encode() in cmd:
                os.kill(self.reaper_pid, 15)
        except OSError:
            pass
        self.reaper_pid = None

    def set_rtt(self, us):
        if not self.p.testbed or us == self.rtt:
            return False
        subprocess.run([os.path.join(self.cluster, "netfs-rtt.sh"), self.dir, str(us)], check=True)
        self.rtt = us
        return True

    def launch(self, v):
        """(mpirun flags, environment) for variant v."""
        flags = list(self.h.mpirun_flags)
        if not self.p.testbed:
            return flags, None
        flags += ["--hostfile", self.hostfiles[v.clients]]
        if v.clients > 1:
            flags += ["--map-by", "node"]
        env = {"OMPI_MCA_plm_rsh_agent": self.rsh,
               "NETNS_STATE": os.path.join(self.dir, "ns"),
               "OMPI_MCA_oob_tcp_if_include": NET, "OMPI_MCA_btl_tcp_if_include": NET,
               "OMPI_MCA_btl": "vader,self,tcp"}
        return flags, env


def count_files(path):
    """(names of regular files, directories holding any) under path, by readdir alone: a stat
    per file would cost round trips on a networked file system."""
    names, dirs = [], 0
    stack = [path]
    while stack:
        d = stack.pop()
        here = 0
        with os.scandir(d) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                else:
                    names.append(e.name)
                    here += 1
        dirs += here > 0
    return names, dirs


def check_run_dir(path, files, v):
    names, dirs = count_files(path)
    if len(names) != files or set(names) != {f"write{i}.txt" for i in range(1, files + 1)}:
        raise BenchError(f"{path}: {len(names)} files, expected write1..write{files}.txt")
    if not v.files_per_dir and dirs != min(v.dirs, files):
        raise BenchError(f"{path}: files in {dirs} directories, expected {v.dirs} "
                         f"(--layout {v.layout})")


class Runner:
    def __init__(self, p, h, bed, root):
        self.p, self.h, self.bed, self.root = p, h, bed, root
        self.cell_no = 0
        self.records = {"cells": [], "removal": [], "warmup": []}
        self.pending = []  # (dir, files, variant) of the current cell, checked and removed after

    def mpiwrite(self, v, d, files, mode, *extra):
        flags, env = self.bed.launch(v)
        args = self.h.mpiwrite_args(files, d, v.threads, *v.options(), "--write-mode", mode,
                                    "--partition", "block", "--repetitions", "1", "--warmup",
                                    "0", "--timeout", str(TIMEOUT_S), "--format", "json", *extra)
        cmd = self.h.mpirun_cmd(v.ranks, args, flags=flags)
        what = f"{v.name} ({v.ranks}r x {v.threads}t on {v.clients} client(s)) in {d}"
        t0 = time.monotonic()
        report = self.h.run_json(cmd, what, env=env)
        wall = time.monotonic() - t0
        rep = one_repetition(report, files, v.ranks, v.threads, what)
        want = {"engine": v.engine, "queue_depth": v.queue_depth, "write_mode": mode}
        if "layout" in report["config"]:  # mpiwrite reports say the layout since 6558d0a
            want["layout"] = v.layout
            want["files_per_dir"] = v.files_per_dir
        check_config(report, want, what)
        if rep["bytes"] != files * self.h.file_size:
            raise BenchError(f"{what}: {rep['bytes']} bytes, expected {files * self.h.file_size}")
        hosts = sorted(x["host"] for x in rep.get("hosts", []))
        if self.p.testbed and hosts != CLIENT_HOSTS[:v.clients]:
            raise BenchError(f"{what}: ran on {hosts}, expected {CLIENT_HOSTS[:v.clients]}")
        return report, rep, wall, hosts

    def one(self, cell, v, run, position):
        d = os.path.join(self.root, cell["name"], f"{v.name}-r{run}")
        report, rep, wall, hosts = self.mpiwrite(v, d, cell["files"], cell["mode"])
        self.pending.append((d, cell["files"], v))
        return {"part": cell["part"], "cell": cell["name"], "variant": v.name, "run": run,
                "position": position, "rtt_us": cell["rtt_us"], "mode": cell["mode"],
                "files": cell["files"], "ranks": v.ranks, "threads": v.threads,
                "engine": v.engine, "queue_depth": v.queue_depth, "layout": v.layout,
                "files_per_dir": v.files_per_dir, "clients": v.clients, "hosts": hosts,
                "concurrency": cell.get("concurrency", v.ranks),
                "seconds": rep["makespan_s"], "makespan_s": rep["makespan_s"],
                "wall_s": wall, "latency_us": rep.get("latency_us"),
                "start_spread_s": rep.get("start_spread_s")}

    def clean(self):
        """Untimed, at RTT 0: checks and removes every run directory of the cell."""
        if not self.pending:
            return 0.0
        self.bed.set_rtt(0)
        t0 = time.monotonic()

        def one(item):
            d, files, v = item
            check_run_dir(d, files, v)
            shutil.rmtree(d)

        # A few directories at a time: each removal waits on round trips (and, in one
        # directory, on its lock), so some overlap shortens the untimed gap.
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            list(pool.map(one, self.pending))
        self.pending = []
        return time.monotonic() - t0

    def warm(self, cell):
        """WARMUP runs of 100 files per client count of the cell (discarded)."""
        for n in sorted({v.clients for v in cell["variants"]}):
            v = next(x for x in cell["variants"] if x.clients == n)
            for k in range(1, self.h.warmup + 1):
                d = os.path.join(self.root, cell["name"], f"warmup-{n}c-{k}")
                files = min(WARM_FILES, cell["files"])
                _, rep, wall, _ = self.mpiwrite(v, d, files, cell["mode"])
                self.pending.append((d, files, v))
                self.records["warmup"].append({"cell": cell["name"], "variant": v.name,
                                               "makespan_s": rep["makespan_s"], "wall_s": wall})
                log(f"netfs warm-up {cell['name']}: {v.name} {files} files "
                    f"{rep['makespan_s'] * 1e3:.1f} ms (discarded)")

    def cell(self, cell, total):
        self.cell_no += 1
        os.makedirs(os.path.join(self.root, cell["name"]))
        self.bed.set_rtt(cell["rtt_us"])
        self.warm(cell)
        by_name = {v.name: v for v in cell["variants"]}
        log(f"netfs cell {self.cell_no}/{total} {cell['name']}: RTT {cell['rtt_us']} us, "
            f"{cell['files']} {cell['mode']} files, {len(by_name)} variants x {self.p.rounds}")
        t0 = time.monotonic()
        runs = self.h.cell(list(by_name), self.p.rounds, self.cell_no,
                           lambda name, run, pos: self.one(cell, by_name[name], run, pos),
                           lambda run, s: log(f"  round {run}: {s}"))
        timed = time.monotonic() - t0
        clean_s = self.clean()
        os.rmdir(os.path.join(self.root, cell["name"]))
        log(f"  cell {timed:.0f} s, check and removal at RTT 0 {clean_s:.1f} s")
        self.records["cells"].append({k: v for k, v in cell.items() if k != "variants"}
                                     | {"variants": list(by_name), "runs": runs,
                                        "seconds": timed, "clean_s": clean_s})

    def removal(self):
        """One --cleanup run per layout at the clients' RTT: the removal phase's time."""
        rtt = self.p.rtt_us if self.p.testbed else 0
        os.makedirs(os.path.join(self.root, "removal"))
        self.bed.set_rtt(rtt)
        for v in removal_variants(self.p):
            d = os.path.join(self.root, "removal", v.name)
            report, rep, wall, hosts = self.mpiwrite(v, d, self.p.files, "whole", "--cleanup")
            c = report.get("cleanup") or {}
            if not c.get("ran") or c.get("failed") or c.get("files_removed") != self.p.files:
                raise BenchError(f"{v.name}: cleanup {c!r}, expected {self.p.files} removed")
            if os.path.exists(d):
                raise BenchError(f"{d}: still there after --cleanup")
            self.records["removal"].append({
                "variant": v.name, "layout": v.layout, "ranks": v.ranks, "rtt_us": rtt,
                "files": self.p.files, "makespan_s": rep["makespan_s"],
                "removal_s": c["elapsed_s"], "wall_s": wall})
            log(f"netfs removal {v.name}: write {rep['makespan_s']:.2f} s, "
                f"removal {c['elapsed_s']:.2f} s of {self.p.files} files")
        os.rmdir(os.path.join(self.root, "removal"))


def run(p, h, repo):
    bed = Testbed(repo, p, h)
    cs = cells(p)
    log(f"netfs: {len(cs)} cells, {p.rounds} rounds, about {estimate_s(p) // 60} min")
    where = ("the GlusterFS testbed (tests/testbed/netfs-up.sh), mpirun on the head, ranks "
             "on the client hosts through netns-rsh" if p.testbed else f"no testbed: {p.local_dir}")
    h.note(f"Section netfs: {where}; every run a fresh directory, checked (names and "
           f"directories, by readdir) and removed untimed at RTT 0 after its cell.")
    t0 = time.monotonic()
    root = None
    saved = h.bins.mpiwrite
    try:
        bed.up()
        h.bins.mpiwrite = bed.binary
        base = MNT if p.testbed else p.local_dir
        if not os.path.isdir(base):
            raise BenchError(f"netfs: {base} is not a directory")
        root = os.path.join(base, f"mpiwrite-bench-{os.getpid()}")
        os.mkdir(root)
        r = Runner(p, h, bed, root)
        for c in cs:
            r.cell(c, len(cs))
        if p.removal:
            r.removal()
        bed.set_rtt(0)
        os.rmdir(root)
        root = None
    finally:
        h.bins.mpiwrite = saved
        if root and os.path.isdir(root):  # a failed run: its files go at RTT 0
            if bed.rtt is not None:
                bed.set_rtt(0)
            shutil.rmtree(root, ignore_errors=True)
        bed.down()
    r.records["testbed"] = {"up_s": bed.up_s, "down_s": bed.down_s,
                            "total_s": time.monotonic() - t0}
    return r.records


# ---------------------------------------------------------------------------------------
# Figures

def _med(runs, name):
    xs = [r[name]["makespan_s"] for r in runs if name in r]
    return median(xs) if xs else None


def _sum(runs, name):
    xs = [r[name]["makespan_s"] for r in runs if name in r]
    return summary(xs) if xs else None


def _p50(runs, name):
    xs = [r[name]["latency_us"]["p50"] for r in runs if name in r and r[name].get("latency_us")]
    return median(xs) if xs else None


def _ratio(a, b):
    return a / b if a and b else None


def cell_figures(c):
    """Per variant: median/min/max makespan, ms per file, per-file p50; paired ratios."""
    runs = c["runs"]
    out = {}
    for name in c["variants"]:
        s = _sum(runs, name)
        out[name] = {"makespan_s": s, "ms_per_file": s["median"] * 1e3 / c["files"],
                     "files_per_s": c["files"] / s["median"] if s["median"] else None,
                     "latency_p50_ms": (_p50(runs, name) or 0) / 1e3}
    return out


def paired(runs, a, b):
    """median over rounds of a / b (makespans of the same round)."""
    xs = [r[a]["makespan_s"] / r[b]["makespan_s"] for r in runs
          if a in r and b in r and r[b]["makespan_s"] > 0]
    return median(xs) if xs else None


def summarize(meta, sec, records):
    p = sec["parameters"]
    cells_out = []
    for c in records["cells"]:
        figs = cell_figures(c)
        entry = {k: c[k] for k in ("part", "name", "rtt_us", "mode", "files", "variants",
                                   "seconds", "clean_s") if k in c}
        for k in ("ranks", "concurrency"):
            if k in c:
                entry[k] = c[k]
        entry["figures"] = figs
        entry["runs"] = c["runs"]
        runs = c["runs"]
        ratios = {}
        if c["part"] == "clients":
            for n in (1, 2):
                if f"{n}c-shared" in figs:
                    ratios[f"{n}c_shared_over_rank"] = _ratio(
                        _med(runs, f"{n}c-shared"), _med(runs, f"{n}c-rank"))
                    ratios[f"{n}c_shared_over_rank_paired"] = paired(runs, f"{n}c-shared",
                                                                     f"{n}c-rank")
            for lay in ("shared", "rank"):
                if f"2c-{lay}" in figs:
                    ratios[f"{lay}_1c_over_2c"] = _ratio(_med(runs, f"1c-{lay}"),
                                                         _med(runs, f"2c-{lay}"))
        else:
            pairs = [("procs-shared", "procs-own"), ("threads-shared", "threads-own"),
                     ("threads-own", "procs-own"), ("uring", "threads-own"),
                     ("uring", "procs-shared")] + [
                (v, "threads-own") for v in c["variants"] if v.startswith("uring-fpd")]
            for a, b in pairs:
                if a in figs and b in figs:
                    ratios[f"{a}/{b}"] = _ratio(_med(runs, a), _med(runs, b))
        entry["ratios"] = ratios
        cells_out.append(entry)
    sec["cells"] = cells_out
    # Speedups vs 1x1 of the same part and RTT.
    base = {(c["part"], c["rtt_us"]): c["figures"]["procs-shared"]["makespan_s"]["median"]
            for c in cells_out if c.get("concurrency") == 1}
    for c in cells_out:
        b = base.get((c["part"], c["rtt_us"]))
        if b and "concurrency" in c:
            for name, f in c["figures"].items():
                f["speedup_vs_1x1"] = b / f["makespan_s"]["median"]
    sec["removal"] = [dict(r, removal_ms_per_file=r["removal_s"] * 1e3 / r["files"],
                           removal_over_write=r["removal_s"] / r["makespan_s"])
                      for r in records.get("removal", [])]
    sec["warmup"] = records.get("warmup", [])
    sec["testbed_times"] = records.get("testbed")
    head = next((c for c in cells_out if c["part"] == "clients" and c.get("ranks") == 4), None)
    summ = {}
    if head:
        r = head["ratios"].get("1c_shared_over_rank")
        summ = {"headline_cell": head["name"], "headline_rtt_us": head["rtt_us"],
                "headline_files": head["files"], "rank_speedup_over_shared": r,
                "rank_speedup_paired": head["ratios"].get("1c_shared_over_rank_paired"),
                "goal_ratio": GOAL_RATIO, "goal_met": None if r is None else r >= GOAL_RATIO}
    sec["summary"] = summ
    return markdown(sec)


def figures(sec):
    """The numbers bench.smoke checks for being finite."""
    out = []
    for c in sec.get("cells", []):
        for f in c["figures"].values():
            out += [f["makespan_s"]["median"], f["ms_per_file"]]
    out += [r["removal_s"] for r in sec.get("removal", [])]
    return out


def _s(x, d=2):
    return "–" if x is None else f"{x:.{d}f}"


def _x(x):
    return "–" if x is None else f"{x:.2f}x"


def markdown(sec):
    p = sec["parameters"]
    md = [f"## {sec.get('title', 'netfs')}", "",
          f"Section netfs, {p['rounds']} interleaved rounds per cell, medians [min–max] of the "
          f"write phase's makespan (mpiwrite's report) in s; ms/file = median makespan / files. "
          f"Testbed: {p['testbed']}. Every run into a fresh directory, checked and removed "
          f"untimed at RTT 0 after its cell.", ""]
    s = sec.get("summary") or {}
    if s.get("rank_speedup_over_shared") is not None:
        md += [f"**Headline** ({s['headline_cell']}, one client, "
               f"RTT {s['headline_rtt_us'] / 1000:g} ms, "
               f"{s['headline_files']} whole files): --layout rank is "
               f"{s['rank_speedup_over_shared']:.2f}x faster than shared (paired per round: "
               f"{_x(s['rank_speedup_paired'])}); goal >= {s['goal_ratio']}x: "
               f"{'met' if s['goal_met'] else 'NOT met'}.", ""]
    cl = [c for c in sec["cells"] if c["part"] == "clients"]
    if cl:
        md += ["### One client vs two clients, --layout shared vs rank (whole files)", "",
               "| ranks | RTT ms | files | variant | makespan s | ms/file | p50 per file ms |",
               "|---|---|---|---|---|---|---|"]
        for c in cl:
            for name in c["variants"]:
                f = c["figures"][name]
                m = f["makespan_s"]
                md.append(f"| {c['ranks']} | {c['rtt_us'] / 1000:g} | {c['files']} | {name} | "
                          f"{m['median']:.2f} [{m['min']:.2f}–{m['max']:.2f}] | "
                          f"{f['ms_per_file']:.2f} | {f['latency_p50_ms']:.1f} |")
        md += ["", "| ranks | shared/rank 1 client | (paired) | shared/rank 2 clients | (paired) "
               "| shared: 1c/2c | rank: 1c/2c |", "|---|---|---|---|---|---|---|"]
        for c in cl:
            r = c["ratios"]
            md.append(f"| {c['ranks']} | {_x(r.get('1c_shared_over_rank'))} | "
                      f"{_x(r.get('1c_shared_over_rank_paired'))} | "
                      f"{_x(r.get('2c_shared_over_rank'))} | "
                      f"{_x(r.get('2c_shared_over_rank_paired'))} | "
                      f"{_x(r.get('shared_1c_over_2c'))} | {_x(r.get('rank_1c_over_2c'))} |")
        md.append("")
    kinds = ["procs-shared", "procs-own", "threads-shared", "threads-own", "uring"]
    for part, title in (("matrix", "whole"), ("line", "line")):
        groups = {}
        for c in sec["cells"]:
            if c["part"] == part:
                groups.setdefault(c["rtt_us"], []).append(c)
        for rtt, cs in groups.items():
            extra = sorted({v for c in cs for v in c["variants"] if v.startswith("uring-fpd")})
            cols = kinds + extra
            md += [f"### Processes vs threads vs uring, {title} writes, RTT {rtt / 1000:g} ms, "
                   f"{cs[0]['files']} files, one client", "",
                   "median makespan s (speedup vs 1x1); at c = 1 procs = threads = 1x1", "",
                   "| c | " + " | ".join(cols) + " | uring / threads-own | threads: shared / own |",
                   "|---" * (len(cols) + 3) + "|"]
            for c in cs:
                cells_txt = []
                for k in cols:
                    f = c["figures"].get(k) or (c["figures"].get("procs-shared")
                                                if k != "uring" and not k.startswith("uring")
                                                and c["concurrency"] == 1 else None)
                    sp = None if f is None else f.get("speedup_vs_1x1")
                    cells_txt.append("–" if f is None else
                                     f"{f['makespan_s']['median']:.2f}"
                                     + ("" if sp is None else f" ({sp:.1f}x)"))
                r = c["ratios"]
                tvo = r.get("threads-shared/threads-own")
                md.append(f"| {c['concurrency']} | " + " | ".join(cells_txt) +
                          f" | {_x(r.get('uring/threads-own'))} | {_x(tvo)} |")
            md.append("")
    if sec.get("removal"):
        md += ["### Removal (mpiwrite --cleanup, one run each)", "",
               "| variant | RTT ms | files | write s | removal s | ms per file | removal / write |",
               "|---|---|---|---|---|---|---|"]
        for r in sec["removal"]:
            md.append(f"| {r['variant']} | {r['rtt_us'] / 1000:g} | {r['files']} | "
                      f"{r['makespan_s']:.2f} | {r['removal_s']:.2f} | "
                      f"{r['removal_ms_per_file']:.2f} | {r['removal_over_write']:.2f} |")
        md.append("")
    t = sec.get("testbed_times") or {}
    if t.get("up_s") is not None:
        md += [f"Testbed up {t['up_s']:.1f} s, down {_s(t.get('down_s'), 1)} s; section "
               f"{t['total_s'] / 60:.1f} min in all.", ""]
    return md
