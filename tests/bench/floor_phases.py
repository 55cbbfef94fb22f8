"""bench.floor_phases: mpiwrite_floor (bench/floor.cpp) with its phases, from outside: each
phase's line and item count, the files and directories each leaves, the system calls each
makes per item (strace -c, when strace is there), and that a failing process ends the run with
exit 1 and its path, never a hang. Usage: floor_phases.py BIN_DIR."""
import os
import shutil
import subprocess
import sys
import tempfile

TEXT = "Hello, world!"


def run(floor, d, files, procs, threads, *extra, mode="whole", lines=3, strace=None,
        expect=0):
    cmd = [floor, d, str(files), str(lines), TEXT, mode, str(procs), str(threads), *extra]
    if strace:
        cmd = ["strace", "-f", "-qq", "-c", "-o", strace, "-e",
               "trace=openat,statx,read,write,unlinkat,mkdirat", *cmd]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != expect:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}, expected {expect}\n{p.stderr}")
    return p


def lines_of(out):
    return [line.split() for line in out.strip().split("\n")]


def calls(strace_out):
    """{syscall: calls} of strace -c's table."""
    out = {}
    with open(strace_out) as f:
        for line in f:
            words = line.split()
            if len(words) >= 5 and words[-1].isidentifier() and words[3].isdigit():
                out[words[-1]] = int(words[3])
    return out


def main():
    floor = os.path.join(sys.argv[1], "mpiwrite_floor")
    root = tempfile.mkdtemp(prefix="floor-phases.")
    have_strace = shutil.which("strace") is not None
    try:
        def fresh(name):
            d = os.path.join(root, name)
            os.mkdir(d)
            return d

        # The write phase alone: one number, as before phases; every file whole.
        d = fresh("write")
        p = run(floor, d, 20, 2, 1, mode="line")
        float(p.stdout)
        assert len(p.stdout.split()) == 1, p.stdout
        assert sorted(os.listdir(d)) == sorted(f"write{i}.txt" for i in range(1, 21))
        with open(os.path.join(d, "write7.txt")) as f:
            assert f.read() == (TEXT + "\n") * 3

        # Every file phase at 2 processes x 2 threads, stat and read shifted: a line per phase
        # in order, each with every file, nothing left; per file one statx, one unlinkat, two
        # openat (create, read) and, of the 14-byte lines' 42 bytes, one read to the end.
        d = fresh("files")
        trace = os.path.join(root, "files.strace")
        p = run(floor, d, 30, 2, 2, "--phases", "remove,read,stat,write", "--shift", "1",
                strace=trace if have_strace else None)
        rows = lines_of(p.stdout)
        assert [r[0] for r in rows] == ["write", "stat", "read", "remove"], rows
        assert all(r[2] == "30" and float(r[1]) > 0 for r in rows), rows
        assert os.listdir(d) == [], os.listdir(d)
        if have_strace:
            c = calls(trace)
            assert c.get("statx") == 30 and c.get("unlinkat") == 30, c
            assert c.get("openat", 0) >= 60 and c.get("write", 0) >= 30, c
            assert c.get("read", 0) >= 60, c  # 42 bytes, then 0 (EOF), per file

        # Without remove the files stay, and the read checked their size.
        d = fresh("keep")
        p = run(floor, d, 7, 3, 1, "--phases", "write,read")
        assert [r[0] for r in lines_of(p.stdout)] == ["write", "read"]
        assert len(os.listdir(d)) == 7

        # The tree: each process its own, a level per round; made then removed.
        d = fresh("tree")
        trace = os.path.join(root, "tree.strace")
        p = run(floor, d, 1, 2, 2, "--phases", "tree-create", "--tree", "2,3",
                strace=trace if have_strace else None)
        assert lines_of(p.stdout) == [["tree-create", p.stdout.split()[1], "26"]], p.stdout
        made = sorted(os.path.relpath(os.path.join(top, s), d)
                      for top, subs, _ in os.walk(d) for s in subs)
        assert len(made) == 26 and made[:3] == ["rank0", "rank0/t0", "rank0/t0/t0"], made
        assert "rank1/t2/t2" in made
        if have_strace:
            # --tree-walk safe (the default) opens each parent without following a link, as
            # mpiwrite does, keeping what the previous parent shared: per process the rank
            # directory once per thread's block of level 1 (2) and at level 2 (9 directories
            # under 3 parents, blocks of 5 and 4) rank0 and the first parent, then one more
            # per thread (6): 8 a process, 16 openat more than --tree-walk path, which gives
            # the kernel whole paths.
            safe = calls(trace)
            assert safe.get("mkdirat") == 26, safe
            d = fresh("tree-path")
            path_trace = os.path.join(root, "tree-path.strace")
            run(floor, d, 1, 2, 2, "--phases", "tree-create", "--tree", "2,3", "--tree-walk",
                "path", strace=path_trace)
            path = calls(path_trace)
            assert path.get("mkdirat") == 26, path
            assert safe.get("openat", 0) - path.get("openat", 0) == 16, (safe, path)
        d = fresh("tree2")
        p = run(floor, d, 1, 1, 2, "--phases", "tree-remove,tree-create", "--tree", "3,2")
        assert lines_of(p.stdout)[1][0] == "tree-remove" and lines_of(p.stdout)[1][2] == "15"
        assert os.listdir(d) == []

        # Failures end the run with exit 1 and the path; the other processes, waiting at the
        # next phase's start, are ended too (a hang would hit subprocess's timeout).
        d = fresh("taken")
        open(os.path.join(d, "write3.txt"), "w").close()
        p = run(floor, d, 40, 1, 4, "--phases", "write,stat", expect=1)
        assert "write3.txt: File exists" in p.stderr, p.stderr
        d = fresh("taken-tree")
        os.mkdir(os.path.join(d, "rank1"))
        p = run(floor, d, 1, 2, 1, "--phases", "tree-create", "--tree", "1,2", expect=1)
        assert "rank1: File exists" in p.stderr, p.stderr
        p = run(floor, os.path.join(root, "missing"), 4, 1, 1, "--phases", "write", expect=1)

        # Bad words: the usage, exit 2.
        for extra in (["--phases", "stat"], ["--phases", "write,open"],
                      ["--phases", "write", "--tree", "1,2"], ["--phases", "tree-remove",
                                                              "--tree", "1,2"],
                      ["--tree", "11,2", "--phases", "tree-create"], ["--shift"],
                      ["--phases", "tree-create", "--tree", "1,2", "--tree-walk", "links"]):
            p = run(floor, root, 4, 1, 1, *extra, expect=2)
            assert p.stderr.startswith("usage:"), p.stderr
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("bench.floor_phases: ok" + ("" if have_strace else " (no strace: calls not counted)"))


if __name__ == "__main__":
    main()
