"""bench.smoke: runs `python3 -m mpiwrite_bench --smoke` into a fresh temporary directory
against CTest's binaries, then checks the JSON it wrote: every section ran and has figures,
all finite numbers. So the harness cannot rot. Usage: smoke.py BIN_DIR [extra options]."""
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "bench")
sys.path.insert(0, BENCH)
from mpiwrite_bench import report, sections  # noqa: E402

# Every section but dynamic-hosts and netfs (network namespaces, root): the default ones and
# auto, which a default run leaves out only for its length.
EXPECTED = sections.SMOKE


def main():
    bin_dir, extra = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory(prefix="bench-smoke.") as out:
        cmd = [sys.executable, "-m", "mpiwrite_bench", "--smoke", "--sections",
               ",".join(EXPECTED), "--bin-dir", bin_dir, "--out", out,
               "--tmp", os.path.join(out, "tmp"), *extra]
        env = {**os.environ, "PYTHONPATH": BENCH}
        rc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode
        if rc != 0:
            sys.exit(f"bench.smoke: {' '.join(cmd)} exited {rc}")
        found = glob.glob(os.path.join(out, "bench-*.json"))
        if len(found) != 1 or not os.path.exists(found[0][:-5] + ".md"):
            sys.exit(f"bench.smoke: expected one bench-*.json and .md in {out}, found {found}")
        with open(found[0]) as f:
            meta = json.load(f)
    bad = check(meta)
    if bad:
        sys.exit("bench.smoke: " + "; ".join(bad))
    print(f"bench.smoke: {len(EXPECTED)} sections, each with figures")


def check(meta):
    bad = []
    if meta.get("schema_version") != report.SCHEMA_VERSION:
        bad.append(f"schema_version {meta.get('schema_version')!r}")
    if meta.get("sections") != EXPECTED:
        bad.append(f"sections {meta.get('sections')!r}, expected {EXPECTED!r}")
    for name in EXPECTED:
        sec = meta.get(report.key_of(name))
        if not isinstance(sec, dict) or "parameters" not in sec:
            bad.append(f"no section {name}")
            continue
        figs = sections.MODULES[name].figures(sec)
        if not figs:
            bad.append(f"{name}: no figures")
        elif not all(isinstance(x, (int, float)) and math.isfinite(x) for x in figs):
            bad.append(f"{name}: figures not all finite numbers: {figs!r:.200}")
    return bad


if __name__ == "__main__":
    main()
