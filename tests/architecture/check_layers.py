#!/usr/bin/env python3
"""The layers' arrows, checked from the includes (CTest architecture.layers).

Every source and header under src/<layer>/ and include/mpiwrite/<layer>/ may include only the
mpiwrite headers of the layers its own layer may use (the same arrows the CMake libraries are
linked along, docs/architecture.md), and the pure layers (core, report) no header of the
operating system, MPI or liburing: a pure layer that needs one has grown a system call.
Exit 0 when every file keeps to its layer, 1 with one line per stray include otherwise.
"""
import pathlib
import re
import sys

MAY_USE = {
    "core": {"core"},
    "report": {"core", "report"},
    "sys": {"core", "sys"},
    "engines": {"core", "sys", "engines"},
    "mpi": {"core", "mpi"},
    "app": {"core", "report", "sys", "engines", "mpi", "app"},
    "compare": {"core", "report", "compare"},
    # The build-time generator of the man pages and completions: reads the two programs' CLI.
    "manual": {"core", "compare", "manual"},
}
PURE = {"core", "report"}
# Headers that mean a system call, MPI or io_uring (C and C++ spellings).
SYSTEM = re.compile(
    r"^(unistd|fcntl|dirent|spawn|signal|csignal|sched|poll|pthread|liburing|mpi|termios|"
    r"syscall|errno-posix)\.h$|^(sys|linux|netinet|arpa|asm|bits)/|^boost/(mpi|serialization)"
    r"|^csignal$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def layer_of(path: pathlib.Path, root: pathlib.Path):
    rel = path.relative_to(root).parts
    if rel[0] == "src" and len(rel) > 2:
        return rel[1]
    if rel[:2] == ("include", "mpiwrite") and len(rel) > 3:
        return rel[2]
    return None


def check(root: pathlib.Path):
    problems, files = [], 0
    for path in sorted([*root.glob("src/**/*.[ch]pp"), *root.glob("include/**/*.hpp")]):
        layer = layer_of(path, root)
        if layer is None:
            problems.append(f"{path.relative_to(root)}: not in a layer folder")
            continue
        if layer not in MAY_USE:
            problems.append(f"{path.relative_to(root)}: unknown layer {layer!r}")
            continue
        files += 1
        for quote, header in INCLUDE.findall(path.read_text()):
            used = re.match(r"mpiwrite/(\w+)/", header)
            if used and used.group(1) not in MAY_USE[layer]:
                problems.append(f"{path.relative_to(root)}: {layer} may not include {header}")
            elif quote == '"' and header.startswith("mpiwrite/") and not used:
                problems.append(f"{path.relative_to(root)}: {header} is not in a layer folder")
            elif layer in PURE and SYSTEM.search(header):
                problems.append(f"{path.relative_to(root)}: {layer} is pure but includes <{header}>")
    return problems, files


def self_test() -> int:
    """The checker must catch each kind of stray include in a planted tree."""
    import tempfile
    planted = {
        "src/core/a.cpp": '#include <unistd.h>\n',
        "src/core/b.cpp": '#include "mpiwrite/sys/posix_file.hpp"\n',
        "src/report/c.cpp": '#include <sys/stat.h>\n',
        "src/mpi/d.cpp": '#include "mpiwrite/engines/writer.hpp"\n',
        "include/mpiwrite/core/e.hpp": '#include <boost/mpi/communicator.hpp>\n',
        "src/sys/ok.cpp": '#include <fcntl.h>\n#include "mpiwrite/core/config.hpp"\n',
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in planted.items():
            path = pathlib.Path(tmp, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        problems, _ = check(pathlib.Path(tmp))
    caught = {line.split(":")[0] for line in problems}
    expected = set(planted) - {"src/sys/ok.cpp"}
    if caught != expected:
        print(f"self-test failed: caught {sorted(caught)}, expected {sorted(expected)}")
        return 1
    return 0


def main() -> int:
    if self_test() != 0:
        return 1
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems, files = check(root)
    for line in problems:
        print(line)
    print(f"check_layers: {files} files, {len(problems)} stray include(s)")
    return 1 if problems or files == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
