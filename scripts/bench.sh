#!/usr/bin/env bash
# scripts/bench.sh: how close is mpiwrite's timed write phase to the least a program can do?
#
# What it measures. For every cell {local disk, tmpfs} x {line, whole} x {1 rank x 1 thread,
# 2 ranks x 1 thread, 1 rank x 2 threads} it times, FILES (10,000) new files of LINES (100)
# lines of TEXT ("Hello, world!") each:
#   - mpiwrite under `mpirun -np RANKS` (`-r 1 --format json`; its repetitions[0].slowest_s:
#     the slowest rank's time from a barrier to its last close(), steady_clock), and
#   - mpiwrite_floor (bench/floor.cpp): exactly the same system calls (openat O_CREAT|O_EXCL,
#     LINES write()s or one write(), close per file) with the same split over processes
#     (fork) and threads, nothing else, timed the same way.
# It prints the ratio of the medians, mpiwrite / floor. The goal is <= 1.05.
#
# How. One invocation builds both programs (Release, in BUILD_DIR), then, cell by cell,
# makes RUNS runs of each program interleaved (floor, mpiwrite; mpiwrite, floor; ...: which
# one goes first alternates, from run to run and from cell to cell). Every run writes into a
# fresh directory of its own. Before the first cell of each file system, WARMUP untimed runs
# of each program absorb the cold start (the first create after a cache drop can take twice
# as long). Untimed:
# `sync` before every run; between cells (series) `sync` and drop caches (echo 3 >
# /proc/sys/vm/drop_caches; noted and skipped when not permitted), and on tmpfs the files of
# the finished cell are removed.
#
# The inode trap. On ext4 without a journal, for 60 s after files are deleted (360 s while
# the inode table block is still dirty), every new create in that area is 5-30x slower: the
# kernel will not reuse a recently freed inode. So nothing is ever deleted on the local disk
# while the benchmark runs: its files stay until the very end (that needs FILES x runs of
# disk space and inodes, checked up front). The final cleanup syncs and leaves a timestamp,
# and a later invocation waits until SETTLE seconds have passed since then before it starts.
# Do not delete many files on that file system yourself just before a run.
#
# mpirun is given --bind-to none (MPIRUN_FLAGS): by default Open MPI binds each rank to one
# core, which would put both threads of the 1 x 2 cell on one core while the floor's two
# threads use two.
#
# Usage: scripts/bench.sh [--tmp DIR] [--shm DIR] [--help]
#   --tmp DIR  local-disk scratch root (default: bench-results/tmp in the repository)
#   --shm DIR  tmpfs scratch root (default: /dev/shm)
# Environment (defaults in brackets):
#   RUNS [7] runs per program and cell    FILES [10000] files per run
#   LINES [100]   TEXT [Hello, world!]    MODES [line whole]   LAYOUTS [1x1 2x1 1x2] (RxT)
#   BUILD_DIR [<repo>/build-bench]        RESULTS_DIR [<repo>/bench-results]
#   MPIRUN [mpirun]   MPIRUN_FLAGS [--oversubscribe --bind-to none]   SETTLE [65] seconds
#   WARMUP [1] untimed runs of each program before the first cell of each file system
#   FLOOR_IDLE_THREADS [0]: if > 0, also times a third program, the floor with that many idle
#     threads per process (as an MPI library starts helper threads), to show what being a
#     multi-threaded process costs.
# Quick smoke run: RUNS=3 FILES=2000 scripts/bench.sh
#
# Output: a Markdown table on standard output (progress goes to standard error), and the same
# data in bench-results/bench-<UTC time>.md and .json (raw run times, statistics, machine,
# software and parameters). Needs bash, cmake, a C++ compiler, Open MPI, python3 (stdlib only)
# and the project's build dependencies. Every scratch directory it made is removed on exit,
# also on failure or Ctrl-C.
set -euo pipefail
export LC_ALL=C

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { sed -n '/^# Usage:/,/^# Quick smoke/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
log() { printf 'bench: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

tmp_root=$repo/bench-results/tmp
shm_root=/dev/shm
while (($# > 0)); do
  case $1 in
    --tmp) (($# >= 2)) || die "--tmp needs a directory"; tmp_root=$2; shift 2 ;;
    --tmp=*) tmp_root=${1#--tmp=}; shift ;;
    --shm) (($# >= 2)) || die "--shm needs a directory"; shm_root=$2; shift 2 ;;
    --shm=*) shm_root=${1#--shm=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

RUNS=${RUNS:-7}
FILES=${FILES:-10000}
LINES=${LINES:-100}
TEXT=${TEXT-Hello, world!}
MODES=${MODES:-line whole}
LAYOUTS=${LAYOUTS:-1x1 2x1 1x2}
BUILD_DIR=${BUILD_DIR:-$repo/build-bench}
RESULTS_DIR=${RESULTS_DIR:-$repo/bench-results}
MPIRUN=${MPIRUN:-mpirun}
MPIRUN_FLAGS=${MPIRUN_FLAGS---oversubscribe --bind-to none}
SETTLE=${SETTLE:-65}
WARMUP=${WARMUP:-1}
FLOOR_IDLE_THREADS=${FLOOR_IDLE_THREADS:-0}

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
for name in RUNS FILES LINES; do
  is_count "${!name}" || die "$name must be a whole number >= 1, not '${!name}'"
done
[[ $SETTLE =~ ^[0-9]+$ ]] || die "SETTLE must be a whole number of seconds"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a whole number"
[[ $FLOOR_IDLE_THREADS =~ ^[0-9]+$ ]] || die "FLOOR_IDLE_THREADS must be a whole number"
[[ -n $TEXT && $TEXT != *$'\n'* ]] || die "TEXT must be one non-empty line"
read -r -a modes <<<"$MODES"
read -r -a layouts <<<"$LAYOUTS"
read -r -a mpirun_flags <<<"$MPIRUN_FLAGS"
((${#modes[@]} > 0 && ${#layouts[@]} > 0)) || die "MODES and LAYOUTS must not be empty"
for mode in "${modes[@]}"; do
  [[ $mode == line || $mode == whole ]] || die "MODES: '$mode' is not line or whole"
done
for layout in "${layouts[@]}"; do
  [[ $layout =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "LAYOUTS: '$layout' is not RANKSxTHREADS"
done
for tool in cmake python3 sync "$MPIRUN"; do
  command -v "$tool" >/dev/null || die "$tool not found"
done
programs=(floor mpiwrite)
((FLOOR_IDLE_THREADS == 0)) || programs+=(floor-mt)

# ---------------------------------------------------------------------------------------------
# Scratch space and cleanup. Only what this invocation made is ever removed.
local_scratch='' shm_scratch='' work='' made_tmp_root='' local_has_files='' settle_marker=''

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  if [[ -n $shm_scratch && -d $shm_scratch ]]; then rm -rf -- "$shm_scratch"; fi
  if [[ -n $local_scratch && -d $local_scratch ]]; then
    if [[ -n $local_has_files ]]; then log "removing the local-disk files (untimed)..."; fi
    rm -rf -- "$local_scratch"
    if [[ -n $local_has_files ]]; then
      sync  # a clean inode table: the inode trap lasts 60 s from now, not 360 s
      [[ -z $settle_marker ]] || date +%s >"$settle_marker" 2>/dev/null
    fi
  fi
  if [[ -n $made_tmp_root ]]; then  # the directories mkdir -p made, if empty
    local dir=$tmp_root
    while rmdir -- "$dir" 2>/dev/null && [[ $dir != "$made_tmp_root" ]]; do dir=$(dirname -- "$dir"); done
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ ! -d $tmp_root ]]; then
  made_tmp_root=$tmp_root  # the topmost directory mkdir -p is about to create
  while [[ ! -d $(dirname -- "$made_tmp_root") ]]; do made_tmp_root=$(dirname -- "$made_tmp_root"); done
  mkdir -p -- "$tmp_root"
  made_tmp_root=$(cd "$made_tmp_root" && pwd)
fi
tmp_root=$(cd "$tmp_root" && pwd)
shm_root=$(cd "$shm_root" && pwd)
local_scratch=$(mktemp -d "$tmp_root/bench.XXXXXX")
shm_scratch=$(mktemp -d "$shm_root/mpiwrite-bench.XXXXXX")
work=$shm_scratch/work  # our own bookkeeping: never on the local disk under test
mkdir "$work"
settle_marker=${TMPDIR:-/tmp}/mpiwrite-bench.cleanup.$(stat -c %d "$tmp_root")

fs_type() { findmnt -f -n -o FSTYPE -T "$1" 2>/dev/null || stat -f -c %T "$1"; }
local_fs=$(fs_type "$local_scratch")
shm_fs=$(fs_type "$shm_scratch")
[[ $shm_fs == tmpfs ]] || log "warning: $shm_root is $shm_fs, not tmpfs"
[[ $local_fs != tmpfs ]] || log "warning: $tmp_root is tmpfs, not a local disk"

# ---------------------------------------------------------------------------------------------
# The helper: checks, statistics and reports (python3, standard library only).
cat >"$work/helper.py" <<'PY'
import json, os, platform, statistics, subprocess, sys

def check_dir(path, files, size):
    """Every write{i}.txt, i in 1..files, exists with `size` bytes, and nothing else."""
    names = set(os.listdir(path))
    if len(names) != files:
        sys.exit(f"{path}: {len(names)} entries, expected {files}")
    for i in range(1, files + 1):
        st = os.stat(os.path.join(path, f"write{i}.txt"))
        if st.st_size != size:
            sys.exit(f"{path}/write{i}.txt: {st.st_size} bytes, expected {size}")

def mpiwrite_seconds(report_path, files, ranks, threads):
    with open(report_path) as f:
        report = json.load(f)
    rep = report["repetitions"]
    ctx = report["context"]
    if len(rep) != 1 or rep[0]["files"] != files:
        sys.exit(f"{report_path}: unexpected repetitions {rep!r:.200}")
    if ctx["ranks"] != ranks or ctx["threads_per_rank"] != threads:
        sys.exit(f"{report_path}: ran {ctx['ranks']}x{ctx['threads_per_rank']}, "
                 f"expected {ranks}x{threads}")
    print(f"{rep[0]['slowest_s']:.9f}")

def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None

def machine(dirs):
    info = {"hostname": platform.node(), "nproc": len(os.sched_getaffinity(0)),
            "cpus_online": os.cpu_count(), "kernel": platform.release(),
            "arch": platform.machine()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        with open("/proc/meminfo") as f:
            info["mem_total_kib"] = int(next(l.split()[1] for l in f if l.startswith("MemTotal")))
    except (OSError, StopIteration):
        pass
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    info["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
            info["clocksource"] = f.read().strip()
    except OSError:
        pass
    info["filesystems"] = {}
    for role, path in dirs.items():
        fs = run(["findmnt", "-f", "-n", "-o", "SOURCE,FSTYPE,OPTIONS", "-T", path])
        entry = {"path": path}
        if fs:
            source, fstype, options = (fs.split(None, 2) + ["", "", ""])[:3]
            entry.update(source=source, fstype=fstype, mount_options=options)
            if fstype.startswith("ext"):
                # The journal thread's pid, or "<none>" without a journal.
                try:
                    with open(f"/sys/fs/ext4/{os.path.basename(source)}/journal_task") as f:
                        entry["has_journal"] = f.read().strip() != "<none>"
                except OSError:
                    pass
        info["filesystems"][role] = entry
    return info

def stats(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs),
            "mean": statistics.fmean(xs), "n": len(xs)}

def summarize(meta_path, raw_path, json_out, md_out):
    with open(meta_path) as f:
        meta = json.load(f)
    p = meta["parameters"]
    files, goal = p["files"], p["goal_ratio"]
    cells = {}
    with open(raw_path) as f:
        for line in f:
            fs, fstype, mode, layout, run_no, position, program, seconds = line.rstrip("\n").split("\t")
            key = (fs, mode, layout)
            cell = cells.setdefault(key, {"fs": fs, "fs_type": fstype, "mode": mode,
                                          "layout": layout, "runs": {}})
            r = cell["runs"].setdefault(int(run_no), {"run": int(run_no), "order": []})
            r["order"].append(program)
            r[program + "_s"] = float(seconds)
    out_cells = []
    programs = meta["programs"]
    for cell in cells.values():
        runs = [cell["runs"][k] for k in sorted(cell["runs"])]
        ranks, threads = (int(x) for x in cell["layout"].split("x"))
        c = {k: cell[k] for k in ("fs", "fs_type", "mode", "layout")}
        c.update(ranks=ranks, threads=threads, runs=runs)
        for prog in programs:
            xs = [r[prog + "_s"] for r in runs if prog + "_s" in r]
            s = stats(xs)
            s["us_per_file_median"] = s["median"] / files * 1e6
            c[prog] = s
        for prog in programs[1:]:
            c[f"{prog}_ratio_of_medians"] = c[prog]["median"] / c["floor"]["median"]
            pairs = [r[prog + "_s"] / r["floor_s"] for r in runs if prog + "_s" in r and "floor_s" in r]
            c[f"{prog}_paired_ratio"] = stats(pairs)
        c["ratio_of_medians"] = c["mpiwrite_ratio_of_medians"]
        c["goal_met"] = c["ratio_of_medians"] <= goal
        out_cells.append(c)
    meta["cells"] = out_cells
    meta["summary"] = {"cells": len(out_cells),
                       "cells_meeting_goal": sum(c["goal_met"] for c in out_cells),
                       "goal_ratio": goal}

    def ms(s):
        return f"{s['median'] * 1e3:.1f} [{s['min'] * 1e3:.1f}–{s['max'] * 1e3:.1f}]"
    fsname = {"local": "local", "shm": "shm"}
    head = ["cell", "floor ms median [min–max]", "mpiwrite ms median [min–max]",
            "ratio of medians", "paired ratio median [min–max]",
            "floor µs/file", "mpiwrite µs/file", f"≤ {goal}×"]
    mt = "floor-mt" in programs
    if mt:
        head += [f"floor+{p['floor_idle_threads']} idle threads ms median [min–max]",
                 "mpiwrite / floor+idle (ratio of medians)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in out_cells:
        pr = c["mpiwrite_paired_ratio"]
        name = f"{fsname.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · {c['ranks']}r×{c['threads']}t"
        row = [name, ms(c["floor"]), ms(c["mpiwrite"]), f"{c['ratio_of_medians']:.3f}",
               f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
               f"{c['floor']['us_per_file_median']:.1f}",
               f"{c['mpiwrite']['us_per_file_median']:.1f}",
               "yes" if c["goal_met"] else "**no**"]
        if mt:
            row += [ms(c["floor-mt"]), f"{c['mpiwrite']['median'] / c['floor-mt']['median']:.3f}"]
        lines.append("| " + " | ".join(row) + " |")
    m = meta["machine"]
    md = [f"## mpiwrite vs. the floor — {meta['started_utc']}", "",
          f"{files} files × {p['lines']} lines of {p['text']!r} ({p['file_size_bytes']} B/file), "
          f"{p['runs']} runs per program and cell, interleaved (first program alternating), "
          f"after {p['warmup_runs_per_filesystem']} untimed warm-up run(s) per program and file system; "
          f"time = makespan of the write phase (slowest rank/process). "
          f"Goal: mpiwrite ≤ {goal}× the floor (ratio of medians).", ""]
    md += lines
    fss = m.get("filesystems", {})
    journal = {True: " with a journal", False: " without a journal"}
    md += ["", f"Goal met in {meta['summary']['cells_meeting_goal']} of {len(out_cells)} cells.", "",
           f"Machine: {m.get('cpu', '?')}, nproc {m['nproc']}, kernel {m['kernel']}, "
           f"{m.get('os', '?')}; local: {fss.get('local', {}).get('fstype', '?')}"
           f"{journal.get(fss.get('local', {}).get('has_journal'), '')}, "
           f"shm: {fss.get('shm', {}).get('fstype', '?')}. {meta['software']['mpi']}, "
           f"mpirun flags: `{' '.join(p['mpirun_flags'])}`. "
           f"mpiwrite {meta['software'].get('git_commit', '?')}"
           f"{' (with uncommitted changes)' if meta['software'].get('git_dirty') else ''}.", ""]
    md += [f"- {n}" for n in meta["notes"]]
    text = "\n".join(md) + "\n"
    with open(json_out, "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(md_out, "w") as f:
        f.write(text)
    sys.stdout.write(text)

def meta(path, notes_path):
    """The invocation's description, from BENCH_* environment variables."""
    e = os.environ
    text = e["BENCH_TEXT"]
    meta = {
        "schema": "mpiwrite-bench/1",
        "started_utc": e["BENCH_STARTED_UTC"],
        "finished_utc": e["BENCH_FINISHED_UTC"],
        "duration_s": int(e["BENCH_DURATION_S"]),
        "programs": e["BENCH_PROGRAMS"].split(),
        "parameters": {
            "files": int(e["BENCH_FILES"]), "lines": int(e["BENCH_LINES"]), "text": text,
            "file_size_bytes": int(e["BENCH_LINES"]) * (len(text.encode()) + 1),
            "runs": int(e["BENCH_RUNS"]), "modes": e["BENCH_MODES"].split(),
            "layouts": e["BENCH_LAYOUTS"].split(), "mpirun": e["BENCH_MPIRUN"],
            "mpirun_flags": e["BENCH_MPIRUN_FLAGS"].split(),
            "floor_idle_threads": int(e["BENCH_FLOOR_IDLE_THREADS"]),
            "order": "per cell, runs interleaved; the first program rotates every run and every cell",
            "warmup_runs_per_filesystem": int(e["BENCH_WARMUP"]),
            "goal_ratio": 1.05,
            "drop_caches_permitted": e["BENCH_DROP_CACHES_OK"] == "1",
        },
        "software": {
            "mpi": e["BENCH_MPI_VERSION"], "compiler": e["BENCH_COMPILER"],
            "build_dir": e["BENCH_BUILD_DIR"], "build_type": "Release",
            "git_commit": e.get("BENCH_GIT_COMMIT") or None,
            "git_dirty": e.get("BENCH_GIT_DIRTY") == "1",
        },
        "machine": machine({"local": e["BENCH_LOCAL_DIR"], "shm": e["BENCH_SHM_DIR"]}),
    }
    with open(notes_path) as f:
        meta["notes"] = [l.rstrip("\n") for l in f if l.strip()]
    with open(path, "w") as f:
        json.dump(meta, f, indent=2)

cmd = sys.argv[1]
if cmd == "check":
    check_dir(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
elif cmd == "mpiwrite-seconds":
    mpiwrite_seconds(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
elif cmd == "meta":
    meta(*sys.argv[2:4])
elif cmd == "summarize":
    summarize(*sys.argv[2:6])
else:
    sys.exit(f"helper: unknown command {cmd}")
PY
helper() { python3 "$work/helper.py" "$@"; }

# ---------------------------------------------------------------------------------------------
# Build (Release; no tests: the benchmark needs only the two programs).
log "building into $BUILD_DIR"
if ! { cmake -S "$repo" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DMPIWRITE_BUILD_TESTS=OFF &&
  cmake --build "$BUILD_DIR" -j "$(nproc)" --target mpiwrite mpiwrite_floor; } >"$work/build.log" 2>&1
then
  cat "$work/build.log" >&2
  die "build failed"
fi
mpiwrite_bin=$BUILD_DIR/mpiwrite
floor_bin=$BUILD_DIR/mpiwrite_floor
[[ -x $mpiwrite_bin && -x $floor_bin ]] || die "build did not produce mpiwrite and mpiwrite_floor"

if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# ---------------------------------------------------------------------------------------------
# Up-front checks: space for the local files that stay until the end, the inode trap.
file_size=$((LINES * (${#TEXT} + 1)))  # ${#TEXT} counts characters: fine for ASCII text
blocks_per_file=$(((file_size + 4095) / 4096))
((blocks_per_file > 0)) || blocks_per_file=1
runs_per_fs=$(((RUNS * ${#modes[@]} * ${#layouts[@]} + WARMUP) * ${#programs[@]}))
need_inodes=$((FILES * runs_per_fs + runs_per_fs))
need_kib=$((FILES * runs_per_fs * blocks_per_file * 4 * 11 / 10 + 1024))
read -r avail_kib avail_inodes < <(df --output=avail,iavail "$local_scratch" | tail -n 1)
if [[ $avail_inodes =~ ^[0-9]+$ ]] && ((avail_inodes > 0 && avail_inodes < need_inodes)); then
  die "$tmp_root: $avail_inodes inodes free, the local-disk cells keep $need_inodes until the end"
fi
((avail_kib >= need_kib)) ||
  die "$tmp_root: $((avail_kib / 1024)) MiB free, the local-disk cells need ~$((need_kib / 1024)) MiB"
shm_need_kib=$((FILES * RUNS * ${#programs[@]} * blocks_per_file * 4 * 11 / 10 + 1024))
shm_avail_kib=$(df --output=avail "$shm_scratch" | tail -n 1)
((shm_avail_kib >= shm_need_kib)) ||
  die "$shm_root: $((shm_avail_kib / 1024)) MiB free, a cell needs ~$((shm_need_kib / 1024)) MiB"

if [[ -r $settle_marker ]]; then
  last=$(<"$settle_marker")
  if [[ $last =~ ^[0-9]+$ ]]; then
    wait_s=$((last + SETTLE - $(date +%s)))
    if ((wait_s > 0)); then
      log "an earlier benchmark deleted its files on this file system $((SETTLE - wait_s)) s ago;"
      log "waiting ${wait_s} s for the ext4 inode trap to pass (SETTLE=$SETTLE)"
      sleep "$wait_s"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
notes=$work/notes.txt
: >"$notes"
note() { printf '%s\n' "$*" >>"$notes"; }
drop_caches_ok=1
between_series() {  # untimed
  sync
  if ((drop_caches_ok)); then
    if ! { echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
      drop_caches_ok=0
      log "note: drop_caches is not permitted here; going on with sync only"
      note "Dropping caches (echo 3 > /proc/sys/vm/drop_caches) was not permitted: between series only sync ran."
    fi
  fi
}

# run_one PROGRAM DIR RANKS THREADS MODE: prints the timed phase in seconds.
run_one() {
  local program=$1 dir=$2 ranks=$3 threads=$4 mode=$5 seconds
  case $program in
    floor | floor-mt)
      mkdir -- "$dir"
      local idle=0
      [[ $program == floor ]] || idle=$FLOOR_IDLE_THREADS
      seconds=$(MPIWRITE_FLOOR_IDLE_THREADS=$idle "$floor_bin" "$dir" "$FILES" "$LINES" "$TEXT" \
        "$mode" "$ranks" "$threads" 2>"$work/last.err") ||
        { cat "$work/last.err" >&2; die "mpiwrite_floor failed in $dir"; }
      ;;
    mpiwrite)
      "$MPIRUN" "${mpirun_flags[@]}" -np "$ranks" "$mpiwrite_bin" --files "$FILES" \
        --lines "$LINES" --text "$TEXT" --dir "$dir" --threads "$threads" --write-mode "$mode" \
        --partition block --repetitions 1 --warmup 0 --format json \
        >"$work/last.json" 2>"$work/last.err" ||
        { cat "$work/last.err" >&2; die "mpiwrite failed in $dir"; }
      seconds=$(helper mpiwrite-seconds "$work/last.json" "$FILES" "$ranks" "$threads")
      ;;
  esac
  helper check "$dir" "$FILES" "$file_size" || die "wrong files in $dir"
  printf '%s\n' "$seconds"
}

started_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
start_epoch=$(date +%s)
raw=$work/raw.tsv
: >"$raw"
note "Local-disk files are kept until the end of the benchmark and removed only then (ext4 inode trap); tmpfs files are removed between series."
note "Untimed between runs: sync. Between series (cells): sync and drop caches; on tmpfs the cell's files are removed first."
note "Every run writes into a fresh directory; mpiwrite runs as \`$MPIRUN ${MPIRUN_FLAGS} -np R mpiwrite -t T -r 1 --format json\`, the floor as a plain process that forks R processes of T threads."

cells_total=$((2 * ${#modes[@]} * ${#layouts[@]}))
cell_no=0
log "$cells_total cells x $RUNS runs x ${#programs[@]} programs, $FILES files each; local: $local_scratch ($local_fs), tmpfs: $shm_scratch ($shm_fs)"
between_series
for fs in local shm; do
  if [[ $fs == local ]]; then base=$local_scratch fstype=$local_fs; else base=$shm_scratch fstype=$shm_fs; fi
  if ((WARMUP > 0)); then  # untimed, discarded
    warm_layout=${layouts[0]}
    mkdir -- "$base/warmup"
    for ((run = 1; run <= WARMUP; run++)); do
      for program in "${programs[@]}"; do
        sync
        [[ $fs == local ]] && local_has_files=1
        seconds=$(run_one "$program" "$base/warmup/run$run-$program" "${warm_layout%x*}" \
          "${warm_layout#*x}" "${modes[0]}")
        log "warm-up $fs ${modes[0]} $warm_layout: $program $(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 1000 }') ms (discarded)"
      done
    done
    if [[ $fs == shm ]]; then rm -rf -- "$base/warmup"; fi
    between_series
  fi
  for mode in "${modes[@]}"; do
    for layout in "${layouts[@]}"; do
      cell_no=$((cell_no + 1))
      ranks=${layout%x*} threads=${layout#*x}
      cell_dir=$base/$mode-$layout
      mkdir -- "$cell_dir"
      for ((run = 1; run <= RUNS; run++)); do
        # Rotate the order every run and every cell: with two programs, the first one alternates
        # within a cell, and the first run of consecutive cells starts with a different one.
        order=()
        for ((k = 0; k < ${#programs[@]}; k++)); do
          order+=("${programs[$(((k + run - 1 + cell_no - 1) % ${#programs[@]}))]}")
        done
        summary=()
        for ((position = 1; position <= ${#order[@]}; position++)); do
          program=${order[$((position - 1))]}
          sync
          [[ $fs == local ]] && local_has_files=1
          seconds=$(run_one "$program" "$cell_dir/run$run-$program" "$ranks" "$threads" "$mode")
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fs" "$fstype" "$mode" "$layout" "$run" \
            "$position" "$program" "$seconds" >>"$raw"
          summary+=("$program $(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 1000 }')")
        done
        log "[$cell_no/$cells_total] $fs $mode ${ranks}r x ${threads}t run $run/$RUNS: $(printf '%s ms  ' "${summary[@]}")"
      done
      if [[ $fs == shm ]]; then rm -rf -- "$cell_dir"; fi
      between_series
    done
  done
done

# ---------------------------------------------------------------------------------------------
# Report.
finished_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt" | head -n 1)
git_commit='' git_dirty=0
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  git_commit=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || true)
  [[ -z $(git --no-optional-locks -C "$repo" status --porcelain --untracked-files=no 2>/dev/null) ]] ||
    git_dirty=1
fi
BENCH_STARTED_UTC=$started_utc BENCH_FINISHED_UTC=$finished_utc \
  BENCH_DURATION_S=$(($(date +%s) - start_epoch)) BENCH_PROGRAMS="${programs[*]}" \
  BENCH_FILES=$FILES BENCH_LINES=$LINES BENCH_TEXT=$TEXT BENCH_RUNS=$RUNS BENCH_MODES="${modes[*]}" \
  BENCH_LAYOUTS="${layouts[*]}" BENCH_MPIRUN=$MPIRUN BENCH_MPIRUN_FLAGS="${mpirun_flags[*]}" \
  BENCH_FLOOR_IDLE_THREADS=$FLOOR_IDLE_THREADS BENCH_WARMUP=$WARMUP BENCH_DROP_CACHES_OK=$drop_caches_ok \
  BENCH_MPI_VERSION="$("$MPIRUN" --version 2>/dev/null | head -n 1)" \
  BENCH_COMPILER="$compiler $("${compiler:-c++}" --version 2>/dev/null | head -n 1)" \
  BENCH_BUILD_DIR=$BUILD_DIR BENCH_GIT_COMMIT=$git_commit BENCH_GIT_DIRTY=$git_dirty \
  BENCH_LOCAL_DIR=$local_scratch BENCH_SHM_DIR=$shm_scratch \
  helper meta "$work/meta.json" "$notes"
mkdir -p -- "$RESULTS_DIR"
helper summarize "$work/meta.json" "$raw" "$RESULTS_DIR/bench-$stamp.json" "$RESULTS_DIR/bench-$stamp.md"
log "wrote $RESULTS_DIR/bench-$stamp.json and $RESULTS_DIR/bench-$stamp.md"
