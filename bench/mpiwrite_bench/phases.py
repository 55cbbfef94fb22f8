"""The floor's phases (issue 23): which phases a cell times, the tree a tree cell makes, the
command words of both programs and their per-phase times. Pure: no I/O (tests/bench).

A file cell times `write` and, if asked, stat, read and remove: mpiwrite `--phases LIST` against
`mpiwrite_floor ... --phases LIST`, both over FILES files in one directory. A tree cell times
tree-create and tree-remove: mpiwrite `--layout rank --tree-depth D --branch B` (a tree below
each rank's directory) against the floor's `--tree D,B` (a tree below each process's
directory), D the least depth whose tree holds at least FILES directories (B = 10: 10,000 files
give depth 4, 11,111 directories a tree with its top). mpiwrite cannot run the tree phases
without writing files: its tree run writes and removes a few (tree_run_files), untimed here."""
from .scratch import BenchError

ORDER = ["tree-create", "write", "stat", "read", "remove", "tree-remove"]
FILE_PHASES = ["write", "stat", "read", "remove"]
TREE_PHASES = ["tree-create", "tree-remove"]


def check(phases):
    """The phases in ORDER; raises on an unknown name or a set mpiwrite would not run."""
    bad = [p for p in phases if p not in ORDER]
    if bad:
        raise BenchError(f"--floor-phases: '{bad[0]}' is not one of {', '.join(ORDER)}")
    if len(set(phases)) != len(phases):
        raise BenchError("--floor-phases: a phase appears twice")
    if "write" not in phases:
        raise BenchError("--floor-phases: write is always timed, name it")
    if "tree-remove" in phases and "tree-create" not in phases:
        raise BenchError("--floor-phases: tree-remove needs tree-create")
    return [p for p in ORDER if p in phases]


def file_phases(phases):
    return [p for p in phases if p in FILE_PHASES]


def tree_phases(phases):
    return [p for p in phases if p in TREE_PHASES]


def tree_run_phases(tree):
    """What mpiwrite's tree run does: the tree phases `tree`, and the write (always) of the
    files it must put in the tree, removed before the tree is (both untimed here)."""
    return (["tree-create", "write"] + (["remove", "tree-remove"] if "tree-remove" in tree else []))


def tree_depth(files, branch):
    """The least depth D >= 1 whose tree (its top and D levels of `branch`) holds >= files
    directories."""
    if branch < 1:
        raise BenchError("--floor-tree-branch must be >= 1")
    depth, level, total = 1, branch, 1 + branch  # mpiwrite's --tree-depth is at least 1
    while total < files:
        depth += 1
        level *= branch
        total += level
    return depth


def tree_directories(depth, branch):
    """Directories of one tree, its top included."""
    return sum(branch ** d for d in range(depth + 1))


def tree_run_files(ranks, threads):
    """The files mpiwrite's tree run writes: one per writer, the least it can write."""
    return ranks * threads


def floor_args(phases, shift=1, tree=None, walk="safe"):
    """mpiwrite_floor's words after its positional arguments: none for the write phase alone
    (it prints one number, as before phases), else --phases and, as needed, --shift, --tree
    and --tree-walk (safe: parents walked without following links, as mpiwrite walks them;
    path: whole paths to the kernel)."""
    if phases == ["write"] and not tree:
        return []
    out = ["--phases", ",".join(phases)]
    if any(p in phases for p in ("stat", "read")):  # given always: mpiwrite's default is 1
        out += ["--shift", str(shift)]
    if tree:
        out += ["--tree", f"{tree[0]},{tree[1]}", "--tree-walk", walk]
    return out


def parse_floor(text, phases):
    """{phase: {"seconds", "items"}} of the floor's output: one number (the write phase, when
    run without --phases) or one line 'PHASE SECONDS ITEMS' per phase, in `phases`' order."""
    lines = text.split()
    if phases == ["write"] and len(lines) == 1:
        return {"write": {"seconds": float(lines[0]), "items": None}}
    rows = [line.split() for line in text.strip().split("\n")]
    if [r[0] for r in rows if r] != phases or any(len(r) != 3 for r in rows):
        raise BenchError(f"mpiwrite_floor printed {text!r:.200}, expected a line per phase of "
                         f"{', '.join(phases)}")
    return {r[0]: {"seconds": float(r[1]), "items": int(r[2])} for r in rows}


def mpiwrite_args(phases, shift=1, tree=None):
    """mpiwrite's words for the phases (none for the write phase alone: the floor section ran
    so before issue 23, and an mpiwrite without --phases still runs it)."""
    if phases == ["write"] and not tree:
        return []
    out = ["--phases", ",".join(phases)]
    if any(p in phases for p in ("stat", "read")):  # given always: mpiwrite's default is 1
        out += ["--shift", str(shift)]
    if tree:
        out += ["--layout", "rank", "--tree-depth", str(tree[0]), "--branch", str(tree[1])]
    return out


def mpiwrite_times(rep, phases, what):
    """{phase: {"seconds", "items"}} of one repetition of mpiwrite's JSON report: its
    phases.<name>.makespan_s (the write phase also as the repetition's own makespan_s, all a
    report had before issue 23)."""
    out = {}
    timed = rep.get("phases")
    if isinstance(timed, list):  # [{"phase": NAME, ...}, ...] would say the same
        timed = {e.get("phase", e.get("name")): e for e in timed if isinstance(e, dict)}
    for p in phases:
        entry = timed.get(p) if isinstance(timed, dict) else None
        if isinstance(entry, dict) and isinstance(entry.get("makespan_s"), (int, float)):
            items = next((entry[k] for k in ("items", "files", "directories")
                          if isinstance(entry.get(k), int)), None)
            out[p] = {"seconds": float(entry["makespan_s"]), "items": items}
        elif p == "write" and isinstance(rep.get("makespan_s"), (int, float)):
            out[p] = {"seconds": float(rep["makespan_s"]), "items": rep.get("files")}
        else:
            raise BenchError(f"{what}: no phases.{p}.makespan_s in the report")
    return out
