"""The one method every section shares.

A section measures *cells* (one combination of file system, size, mode, layout...). In a cell
each *variant* (a program or an mpiwrite configuration) runs RUNS times, interleaved: run k
takes the order that shift s = (k - 1 + cell number - 1) gives (order_of): the variants
rotated by s, and with three or more variants reversed in every other block of that many runs,
so which one goes first moves on every run and every cell (on a warming or cooling machine the
first runs differently) and no variant always follows the same one (a run can leave the
machine faster or slower for the next: with three variants every ordered pair is adjacent
equally often in each 6 runs). Before the first cell of a file
system (and, in the floor, of each size) WARMUP untimed runs absorb the cold start (the first
create after a cache drop can take twice as long). Every run writes into a fresh directory.
Untimed hooks: `sync` before every run; between cells (series) `sync` and drop caches (echo 3
> /proc/sys/vm/drop_caches; noted and skipped when not permitted)."""
import os
import sys
import subprocess
import time
from dataclasses import dataclass, field

from .scratch import BenchError, log
from .stats import ms_of

# mpiwrite's JSON reports are read by the project's one reader of them, beside plot.py
# (scripts/mpiwrite_report.py): hostile text is refused before a field is read.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "scripts"))
import mpiwrite_report  # noqa: E402


@dataclass
class Binaries:
    mpiwrite: str
    floor: str
    alloc_lib: str
    probe: str
    build_dir: str = ""


def rotate(items, by):
    """items rotated left by `by`: [a, b, c] by 1 is [b, c, a]."""
    n = len(items)
    return [items[(k + by) % n] for k in range(n)] if n else []


def order_of(items, shift):
    """The order of a run: items rotated left by `shift`; with three or more items, reversed
    when shift // len(items) is odd. Over 2 * len(items) consecutive shifts each item holds
    each place equally often and follows each of its neighbours in the cycle equally often
    (three items: every other item), which rotation alone does not give: with it, B always
    follows A."""
    order = rotate(items, shift)
    if len(items) >= 3 and (shift // len(items)) % 2 == 1:
        order.reverse()
    return order


def rotation(run, cell_no):
    """The shift of run `run` (1-based) of cell `cell_no` (1-based)."""
    return run - 1 + cell_no - 1


def layout(text):
    """'RxT' -> (ranks, threads)."""
    r, t = text.split("x")
    return int(r), int(t)


@dataclass
class Harness:
    """What every section needs: the binaries, the scratch roots, how to launch, the files'
    content, warm-up and the untimed hooks. smoke: no drop caches (a toy run measures nothing
    and must not disturb the machine)."""
    bins: Binaries
    scratch: object
    mpirun: str = "mpirun"
    mpirun_flags: list = field(default_factory=lambda: ["--oversubscribe", "--bind-to", "none"])
    lines: int = 100
    text: str = "Hello, world!"
    warmup: int = 1
    drop_caches: bool = True
    notes: list = field(default_factory=list)

    @property
    def file_size(self):
        return self.lines * (len(self.text.encode()) + 1)

    def note(self, text):
        self.notes.append(text)

    @staticmethod
    def sync():
        os.sync()

    def between_series(self):
        """Untimed, between cells: sync, and drop the page, dentry and inode caches."""
        os.sync()
        if not self.drop_caches:
            return
        try:
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
        except OSError:
            self.drop_caches = False
            log("note: drop_caches is not permitted here; going on with sync only")
            self.note("Dropping caches (echo 3 > /proc/sys/vm/drop_caches) was not permitted: "
                      "between series only sync ran.")

    def mpirun_cmd(self, ranks, args, launch=(), flags=None):
        """mpirun FLAGS [LAUNCH] -np RANKS ARGS...; flags replace mpirun_flags (dynamic-hosts)."""
        return [self.mpirun, *(self.mpirun_flags if flags is None else flags), *launch,
                "-np", str(ranks), *args]

    def mpiwrite_args(self, files, dir_, threads, *extra):
        """mpiwrite --files --lines --text --dir --threads, then extra (in the bash's order)."""
        return [self.bins.mpiwrite, "--files", str(files), "--lines", str(self.lines), "--text",
                self.text, "--dir", dir_, "--threads", str(threads), *extra]

    def run_json(self, cmd, what, env=None):
        """Runs an mpiwrite command whose standard output is its JSON report; returns it."""
        return parse_report(run_checked(cmd, what, env=env), what)

    def check_dir(self, path, files, size=None):
        check_dir(path, files, self.file_size if size is None else size)

    def cell(self, variants, runs, cell_no, one, progress, shift=rotation):
        """RUNS interleaved runs of each variant: one(variant, run, position) makes a run and
        returns its result (seconds or a record with "seconds"); progress(run, summary) logs.
        Returns [{"run": k, "order": [...], VARIANT: result, ...}, ...]."""
        out = []
        for run in range(1, runs + 1):
            order = order_of(list(variants), shift(run, cell_no))
            r = {"run": run, "order": order}
            summary = []
            for position, variant in enumerate(order, 1):
                self.sync()
                res = one(variant, run, position)
                r[variant] = res
                sec = res["seconds"] if isinstance(res, dict) else res
                summary.append(f"{variant} {ms_of(sec)} ms")
            progress(run, "  ".join(summary))
            out.append(r)
        return out

    def warm(self, variants, one, label):
        """WARMUP untimed rounds of every variant (results discarded)."""
        for run in range(1, self.warmup + 1):
            for variant in variants:
                self.sync()
                res = one(variant, run)
                sec = res["seconds"] if isinstance(res, dict) else res
                log(f"warm-up {label}: {variant} {ms_of(sec)} ms (discarded)")


def run_checked(cmd, what, env=None, stdout=subprocess.PIPE):
    """Runs cmd; on failure prints its standard error and raises BenchError(what failed)."""
    full_env = None if env is None else {**os.environ, **env}
    p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, env=full_env)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise BenchError(f"{what} failed (exit {p.returncode})")
    return p.stdout


def timed(cmd, what, env=None):
    """(wall seconds, standard output) of cmd, from before its launch to its exit."""
    t0 = time.perf_counter()
    out = run_checked(cmd, what, env=env)
    return time.perf_counter() - t0, out


def check_dir(path, files, size):
    """Every write{i}.txt, i in 1..files, exists with `size` bytes, and nothing else."""
    names = os.listdir(path)
    if len(names) != files:
        raise BenchError(f"{path}: {len(names)} entries, expected {files}")
    for i in range(1, files + 1):
        st = os.stat(os.path.join(path, f"write{i}.txt"))
        if st.st_size != size:
            raise BenchError(f"{path}/write{i}.txt: {st.st_size} bytes, expected {size}")


def one_repetition(report, files, ranks, threads, what="report"):
    """The only repetition of a plain run (-r 1), after checking its size and layout."""
    points = report.get("points") or []  # one per configuration (the reader knows 2 to 4)
    if len(points) != 1:
        raise BenchError(f"{what}: {len(points)} points, expected 1")
    rep = points[0]["repetitions"]
    check_layout(report, ranks, threads, what)
    if len(rep) != 1 or rep[0]["files"] != files:
        raise BenchError(f"{what}: unexpected repetitions {rep!r:.200}")
    return rep[0]


def parse_report(text, what):
    """The report mpiwrite printed (its standard output's text), checked by the reader."""
    try:
        return mpiwrite_report.parse(what, text)
    except mpiwrite_report.ReportError as e:
        raise BenchError(str(e)) from None  # "WHAT: not valid JSON (...)" and the like


def check_layout(report, ranks, threads, what):
    """Every point of the report ran RANKS x THREADS: each point's own ranks and threads."""
    raw = report.get("points")
    ran = sorted({f"{mpiwrite_report.positive_int(p.get('ranks'))}x"
                  f"{mpiwrite_report.positive_int(p.get('threads'))}"
                  for p in (raw if isinstance(raw, list) else []) if isinstance(p, dict)})
    if ran != [f"{ranks}x{threads}"]:
        raise BenchError(f"{what}: ran {', '.join(ran) or 'no point'}, "
                         f"expected {ranks}x{threads}")


def check_config(report, want, what):
    cfg = report["config"]
    for key, value in want.items():
        if cfg.get(key) != value:
            raise BenchError(f"{what}: config {key} = {cfg.get(key)!r}, expected {value!r}")
