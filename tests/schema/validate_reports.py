#!/usr/bin/env python3
"""docs/report.schema.json against real reports: the real mpiwrite under real mpiexec makes
every kind of report (run, sweep, compare; --verify; interrupted by SIGINT;
a failed run), and each JSON report is validated with the schema's draft validator and its
format checker. The golden reports tests/golden/*.json and the hand-made v4 plot fixture
are validated too, the fixture as version 5 after the renames of issue 24 (`ranks` lists to
`per_rank` and `rank_ids`): that those are the only difference is checked with it.

Environment (as the e2e tests, set by CTest): MPIWRITE = the binary, MPIEXEC = mpiexec with
its flags. Argument: the number of ranks (default 2). Exit 0 all valid; 1 a report is
invalid or a run misbehaved; 77 (skipped) when jsonschema cannot be imported (Debian:
python3-jsonschema).
"""

import glob
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
except ImportError:
    print("SKIP: no jsonschema for this python (apt-get install python3-jsonschema)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMA_PATH = os.path.join(ROOT, "docs", "report.schema.json")
MPIWRITE = os.environ.get("MPIWRITE")
MPIEXEC = shlex.split(os.environ.get("MPIEXEC", "mpiexec --oversubscribe"))
RANKS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
LIMIT = 90  # seconds a run may take before it counts as hung

failures = []


def note(text):
    print(f"-- {text}", flush=True)


def fail(text):
    print(f"FAIL: {text}", flush=True)
    failures.append(text)


def load_schema():
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


VALIDATOR = load_schema()


def validate(name, doc):
    """Every error of doc against the schema, each with the path of the field; the same
    error at every repetition (indices as *) is printed once, with how often it occurs."""
    errors = list(VALIDATOR.iter_errors(doc))
    if not errors:
        print(f"valid: {name}", flush=True)
        return True
    seen = {}
    for e in errors:
        # "null or an object" (oneOf): the object's own error says what is wrong.
        while e.context:
            branch = [c for c in e.context if not (c.validator == "type" and c.validator_value == "null")]
            e = jsonschema.exceptions.best_match(branch or e.context)
        where = "/".join("*" if isinstance(p, int) else str(p) for p in e.absolute_path)
        key = (where or "(top level)", e.message[:300])
        seen[key] = seen.get(key, 0) + 1
    for (where, message), count in sorted(seen.items()):
        fail(f"{name}: {where}: {message}" + (f" ({count} times)" if count > 1 else ""))
    return False


def command(args):
    return MPIEXEC + ["-n", str(RANKS), MPIWRITE] + args


def run(name, args, expect=0):
    """mpiwrite to completion; returns its standard output (the report) as JSON or None."""
    proc = subprocess.run(command(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=LIMIT)
    if expect is not None and proc.returncode != expect:
        fail(f"{name}: exit code {proc.returncode}, expected {expect}: "
             f"{proc.stderr.decode(errors='replace')[-2000:]}")
        return None, proc
    if expect != 0:
        return None, proc
    return json.loads(proc.stdout), proc


def check_report(name, args):
    doc, _ = run(name, args)
    if doc is not None:
        validate(name, doc)
    return doc


def interrupted(name, args, ready):
    """mpiwrite stopped by SIGINT to mpiexec as soon as ready() holds (a step is under way);
    the report the ranks print before the launcher kills them. Two tries: on a loaded
    machine mpiexec may kill the ranks before rank 0 printed."""
    for attempt in (1, 2):
        proc = subprocess.Popen(command(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while not ready() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if proc.poll() is not None:
            out, err = proc.communicate()
            fail(f"{name}: the run ended before it could be interrupted: {err.decode(errors='replace')[-1000:]}")
            return None
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            fail(f"{name}: hung after SIGINT")
            return None
        if proc.returncode == 0:
            fail(f"{name}: exit code 0 after SIGINT")
            return None
        if out.strip():
            try:
                doc = json.loads(out)
            except json.JSONDecodeError:
                # After a signal mpirun may cut a rank's standard output short (docs/metrics.md);
                # that is why an interrupted run also saves the whole report in --dir. What came
                # through must be the start of that copy, and the copy must be the report.
                doc = saved_copy(name, args, out)
                if doc is None:
                    return None
            # mpirun passes the user's SIGINT on to the ranks as SIGTERM (docs/metrics.md).
            if doc.get("interrupted") not in ("SIGINT", "SIGTERM"):
                fail(f"{name}: interrupted is {doc.get('interrupted')!r}")
            validate(name, doc)
            return doc
        note(f"{name}: try {attempt}: no report on standard output (exit {proc.returncode})")
    fail(f"{name}: no report after two tries")
    return None


def saved_copy(name, args, out):
    """The report an interrupted run saved in its --dir, when standard output came cut short."""
    copies = glob.glob(os.path.join(args[args.index("-d") + 1], "mpiwrite-interrupted-*.json"))
    if len(copies) != 1:
        fail(f"{name}: standard output cut short ({len(out)} bytes) and {len(copies)} saved copies")
        return None
    with open(copies[0], "rb") as f:
        whole = f.read()
    if not whole.startswith(out.rstrip(b"\n")):
        fail(f"{name}: what standard output showed is not the start of the saved copy {copies[0]}")
        return None
    note(f"{name}: standard output cut short after {len(out)} of {len(whole)} bytes; "
         f"the saved copy {os.path.basename(copies[0])} is whole")
    return json.loads(whole)


def files_in(pattern):
    return lambda: bool(glob.glob(pattern))


def main():
    if not MPIWRITE:
        print("FAIL: set MPIWRITE to the mpiwrite binary")
        return 1
    work = tempfile.mkdtemp(prefix="mpiwrite-schema-")
    try:
        small = ["-n", str(20 * RANKS), "-l", "5", "--format", "json"]

        # One run feeds several checks (each mpiexec start costs about a second on CI's loaded
        # 2 cores): the report on standard output and the -o file, both with --verify's
        # figures. A plain run's report (verify null) is the --time-limit run's below.
        note("run with --verify, to standard output and to -o")
        doc = check_report("run --verify", ["-d", f"{work}/run"] + small +
                           ["-r", "6", "--verify", "-t", "2", "-o", f"{work}/o.json"])
        if doc is not None:
            with open(f"{work}/o.json", encoding="utf-8") as f:
                validate("run --verify -o FILE", json.load(f))

        note("sweep")
        check_report("sweep", ["-d", f"{work}/sweep"] + small + ["--sweep-threads", "1,2", "-r", "6"])

        note("compare")
        check_report("compare", ["-d", f"{work}/cmp"] + small + ["--compare", "-t", "2", "-r", "6"])
        # --verify's figures and a layout list, in one comparison (and one sweep below).
        check_report("compare --layout shared,rank,thread --verify",
                     ["-d", f"{work}/cmpl"] + small +
                     ["--compare", "-t", "2", "-r", "2", "--layout", "shared,rank,thread", "--verify"])
        # --time-limit cut short (every rank slowed): time_limit per repetition, compared_s.
        slow = ["--slow-rank", ",".join(str(r) for r in range(RANKS)), "--slow-delay-us", "5000",
                "--time-limit", "0.1"]
        check_report("compare --time-limit", ["-d", f"{work}/cmpt", "-n", "200", "--format", "json",
                                              "--compare", "-r", "2", "--verify"] + slow)
        check_report("run --time-limit --wear-out", ["-d", f"{work}/tl", "-n", "400", "-t", "2",
                                                     "--format", "json", "--wear-out"] + slow)
        # Every phase too (issue 23): phases per repetition and per point, the tree phases of a
        # point with no directory (shared: 0 directories), the read phase's verify figures.
        check_report("sweep --layout thread,shared --verify --phases (all)",
                     ["-d", f"{work}/swl"] + small +
                     ["--sweep-threads", "1,2", "-r", "2", "--layout", "thread,shared", "--verify",
                      "--phases", "tree-create,write,stat,read,remove,tree-remove"])
        # The async column needs io_uring, which a seccomp filter or an old kernel may deny.
        doc, proc = run("compare --engine uring", ["-d", f"{work}/cmpu"] + small +
                        ["--compare", "-t", "2", "-r", "3", "--engine", "uring"], expect=None)
        if proc.returncode == 0:
            validate("compare --engine uring", json.loads(proc.stdout))
        else:
            note(f"compare --engine uring: skipped, exit {proc.returncode} (no io_uring here?)")

        note("interrupted by SIGINT")
        slow = ["-n", str(100 * RANKS), "--slow-rank", "0", "--slow-delay-us", "20000", "--format", "json"]
        # A comparison stopped in its first step: every point listed, none measured (nulls).
        interrupted("compare interrupted in its first step",
                    ["-d", f"{work}/int-cmp", "--compare", "-r", "2"] + slow,
                    files_in(f"{work}/int-cmp/.mpiwrite-*/*/write*.txt"))
        # A run stopped in its last repetition: the repetitions before it are reported, and
        # interrupted_in names the write phase of repetition 2 (the one writing into --dir).
        doc = interrupted("run interrupted in its last repetition",
                          ["-d", f"{work}/int-run", "-r", "2"] + slow,
                          files_in(f"{work}/int-run/write*.txt"))
        cut = {"phase": "write", "point": f"{RANKS}x1", "repetition": 2, "warmup": False}
        if doc is not None and doc.get("interrupted_in") != cut:
            fail(f"run interrupted in its last repetition: interrupted_in is "
                 f"{doc.get('interrupted_in')!r}, not {cut!r}")

        note("a failed run (I/O error: a full file system)")
        failed_run(work)

        note("golden reports and the plot fixture")
        for path in sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.json")) +
                           [os.path.join(ROOT, "tests", "plot", "compare_v4.json")]):
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            name = os.path.relpath(path, ROOT)
            if isinstance(doc, dict) and doc.get("schema_version") == 4:
                doc = as_version_5(doc)
            if isinstance(doc, dict) and "schema_version" in doc:
                validate(name, doc)
            else:  # e.g. statistics.json, the statistics tests' golden figures
                print(f"not a report: {name}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"FAIL: {len(failures)} problem(s)")
        return 1
    print("PASS")
    return 0


def as_version_5(doc):
    """A version 4 report with version 5's names: only lists called `ranks` were renamed."""
    def rename(hosts):
        for h in hosts or []:
            h["rank_ids"] = h.pop("ranks")
    rename(doc.get("context", {}).get("hosts"))
    for point in doc.get("points", []):
        for rep in point.get("repetitions", []):
            rep["per_rank"] = rep.pop("ranks")
            rename(rep.get("hosts"))
        rename(point.get("summary", {}).get("hosts"))
    doc["schema_version"] = 5
    return doc


def failed_run(work):
    """A run that fails with ENOSPC on a 256 KiB tmpfs (as tests/e2e/io_errors.sh) prints
    no report: exit 1, nothing on standard output, no -o file. Needs root to mount."""
    mnt = f"{work}/mnt"
    os.mkdir(mnt)
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755",
                                            "tmpfs", mnt], stderr=subprocess.DEVNULL).returncode:
        note("failed run: skipped (needs root to mount a small tmpfs)")
        return
    try:
        out = f"{work}/failed.json"
        _, proc = run("failed run", ["-d", f"{mnt}/data", "-n", "400", "-l", "100", "-t", "2",
                                     "--format", "json", "-o", out], expect=1)
        if proc.returncode != 1:
            return
        if b"No space left on device" not in proc.stderr:
            fail(f"failed run: no ENOSPC message: {proc.stderr.decode(errors='replace')[-1000:]}")
        if proc.stdout.strip():
            # Not what mpiwrite does today; if it ever prints one, it must be valid.
            validate("failed run", json.loads(proc.stdout))
        else:
            print("valid: failed run writes no JSON report (exit 1, empty standard output)")
        if os.path.exists(out):
            fail("failed run: -o FILE was written although standard output got no report")
    finally:
        if subprocess.run(["umount", mnt]).returncode:
            subprocess.run(["umount", "-l", mnt])


if __name__ == "__main__":
    sys.exit(main())
