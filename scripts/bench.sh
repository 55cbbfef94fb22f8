#!/usr/bin/env bash
# scripts/bench.sh: what does mpiwrite's own bookkeeping cost per file (section "overhead"),
# and its start-up over a bare mpirun (section "startup")? Does it allocate heap memory per
# file (section "alloc")? How close is its timed write phase to the least a program can do
# (section "floor"), what does --partition dynamic cost and gain (section "dynamic"), how does
# --engine uring compare with the posix engine and what makes io_uring fast or slow (section
# "uring"), and do time and memory stay sane with a million files (section "scale")? SECTIONS
# selects them (default: all seven, in that order: the three cheap, tmpfs-only ones first, so
# a broken build or a regression shows within a minute), e.g. SECTIONS=dynamic
# scripts/bench.sh. The floor, uring and scale sections are the slow ones (see below):
# SECTIONS="overhead startup alloc floor dynamic uring" leaves scale out. With only overhead,
# startup and/or alloc nothing touches the local disk, and the SETTLE wait (see the inode
# trap) is skipped.
#
# Section "overhead": mpiwrite --engine null (everything but the I/O: partition, file names,
# two clock reads per file, latency histogram) for each layout of OVH_LAYOUTS (1x1 2x1 1x2),
# OVH_FILES (1,000,000) files, one mpirun with -r OVH_REPS (7) repetitions: the median of the
# repetitions' makespans (makespan_s), reported two ways:
#   - ns/file = median makespan / files: the job's cost per file (throughput view);
#   - ns/file per thread = median makespan x ranks x threads / files: what one writer thread
#     spends on each of its own files. The goal (OVH_GOAL_NS, 200) is on this one.
#
# Section "startup": the wall time of the whole `mpirun -np STARTUP_NP` (2), measured with
# bash EPOCHREALTIME around the command, of: `true` (the baseline: mpirun's own launch),
# mpi-init (a program that calls only MPI_Init and MPI_Finalize, built here with MPICC; left
# out if that fails or STARTUP_MPI_INIT=0), `mpiwrite -n 1 -d FRESH` (default table report,
# to /dev/null) and `mpiwrite -n 1 -d FRESH --engine null` (STARTUP_NULL=1), STARTUP_RUNS
# (11) runs each, interleaved (the first variant rotates every run), after WARMUP untimed runs
# of each; every mpiwrite run gets a fresh directory on tmpfs. Reports medians and min-max,
# and the differences of medians (and paired per-run differences) over the baseline, of
# mpiwrite over mpi-init (mpiwrite's own start-up and report) and of posix over null (I/O).
#
# Section "alloc": heap allocations per file, counted from outside. bench/alloc_count.cpp
# (built here as libmpiwrite_alloc_count.so) is preloaded into every rank (`mpirun -x
# LD_PRELOAD=...`); it counts each process's malloc, calloc, realloc, aligned allocations and
# so operator new, and appends one line per process at exit. For each engine of ALLOC_ENGINES
# (posix null) and layout of ALLOC_LAYOUTS (1x1 2x1 1x2), one `mpiwrite --write-mode
# ALLOC_MODE (whole) --partition block -r 1` at each size of ALLOC_FILES (1,000 and 100,000
# files) on tmpfs; reported: the allocations summed over the ranks at each size and
# allocations per extra file = (sum at the largest - sum at the smallest size) / (largest -
# smallest). The count covers the whole process (MPI_Init, the write phase, the report,
# MPI_Finalize): everything but the write phase costs the same at both sizes and cancels, so
# the slope is what each file costs, timed phase included. Goal: < ALLOC_GOAL (0.001) per
# file, i.e. none (a whole run makes ~30,000 per rank, nearly all Open MPI's, and varies by
# ~10 from run to run: that noise is ~0.0001 per file over 99,000 files). One run per size:
# the count is deterministic up to that noise. tests/e2e/alloc.sh makes the same check in CTest.
#
# Section "floor". For every cell {local disk, tmpfs} x FLOOR_FILES (100, 10,000 and 100,000
# files) x {line, whole} x {1 rank x 1 thread, 2 ranks x 1 thread, 1 rank x 2 threads} it
# times new files of LINES (100) lines of TEXT ("Hello, world!") each:
#   - mpiwrite under `mpirun -np RANKS` (`-r 1 --format json`; its repetitions[0].makespan_s:
#     from the earliest rank start after the barrier to the last rank end, steady_clock), and
#   - mpiwrite_floor (bench/floor.cpp): exactly the same system calls (openat O_CREAT|O_EXCL,
#     LINES write()s or one write(), close per file) with the same split over processes
#     (fork) and threads, nothing else, timed the same way.
# It prints the ratio of the medians, mpiwrite / floor, per cell. The goal is <= 1.05 in the
# cells of FLOOR_GOAL_MIN_FILES (10,000) files and more; a 100-file write phase lasts
# 0.3-15 ms, where Open MPI's helper threads and scheduling noise are a large share of it, so
# that size is reported without a goal. Runs per program and cell depend on the size
# (FLOOR_RUNS): a cheap, noisy 100-file cell gets more runs (15), a 100,000-file cell fewer
# (5), 10,000 files the old 7, so the section takes ~15 min on a 2-core VM, not an hour
# (estimate: the floor's write phase costs ~290 µs per file summed over the 12 cells of one
# size, x2 programs, i.e. ~58 s per round of 100,000-file runs; plus ~0.5 s per run for
# mpirun, the file check and sync). If FILES is set and FLOOR_FILES is not, the floor times
# FILES only, as before FLOOR_FILES existed; likewise RUNS, if set, is the runs of every size.
#
# Section "dynamic": mpiwrite --partition block against --partition dynamic (every writer
# thread takes --chunk K files at a time from an MPI-3 atomic counter on rank 0), two parts:
#   - overhead, no slow rank: for {local disk, tmpfs} x DYN_LAYOUTS (2x1), DYN_MODE (line),
#     block against dynamic with each chunk of DYN_CHUNKS (8 64), ratio of the medians
#     dynamic / block. The goal is <= 1.03.
#   - one slow rank: on tmpfs, for DYN_SLOW_LAYOUTS (2x1 4x1), with rank 1 made slow
#     (--slow-rank 1 --slow-delay-us DYN_SLOW_DELAY_US: it sleeps that long in every file,
#     inside the timed phase), block against dynamic with the first chunk of DYN_CHUNKS: the
#     speedup block / dynamic (ratio of medians), the files the slow rank took under dynamic
#     against the others, rank 1's slowdown and the ideal makespan N / sum of the ranks' rates
#     (files / time of each rank, measured in the block runs).
# Same method as the floor section: interleaved runs (the first variant rotates), medians and
# min-max, a fresh directory per run, warm-up runs, local files kept until the end. It writes
# FILES (10,000) files per run and makes RUNS (7) runs per variant and cell.
#
# Section "dynamic-hosts": the same across the two emulated hosts of scripts/cluster/netns-up.sh
# (root only; TCP between them), 2 ranks --map-by node (rank 0 on mpihostA, rank 1 on
# mpihostB), 1 thread each, tmpfs, DYN_MODE: block against dynamic with each chunk of
# DH_CHUNKS (8 64), and the first chunk again with the writers' prefetch off
# (dynamic-cK-nopf: MPIWRITE_NO_PREFETCH=1), once without and once with rank 1 slowed by
# DYN_SLOW_DELAY_US: ratios of medians dynamic / block (and the speedup block / dynamic with
# the slow rank). Across nodes every hand-out is a message to rank 0 and back. FILES files per
# run, RUNS runs per variant and cell, interleaved; the hosts are removed when it ends. ~1.5 min.
#
# Section "uring": --engine uring (one thread per rank keeps --queue-depth Q files in flight
# through io_uring, each file one linked chain: openat into a direct descriptor, the writes,
# close), two parts:
#   - A, the engine at equal in-flight files. The issue's goal: uring within URING_GOAL (1.2)x
#     the posix engine at equal in-flight files, on tmpfs; the local disk is reported too, for
#     information (no goal). For {local disk, tmpfs} x URING_MODES (line whole) x each count c
#     of URING_DEPTHS (1 2 8 32 files in flight), URING_FILES (10,000) files of LINES lines
#     per run, URING_RUNS (7) runs per variant, interleaved (the first variant rotates), of:
#       posix-threads  `mpirun -np 1 mpiwrite -t c`: c threads, one file in flight each;
#       uring          `mpirun -np 1 mpiwrite --engine uring -q c`: one thread, c in flight;
#       posix-procs    `mpirun -np 2 mpiwrite` (2 ranks x 1 thread), for c = 2 only: the other
#                      way to have 2 files in flight, as a second posix reference.
#     (each `-r 1 --warmup 0 --partition block --format json`; time = makespan_s).
#     Reported per cell: medians and min-max, us per file, the ratio of medians uring / posix
#     threads (the goal's figure; also paired per run), for c = 2 uring / posix processes, and
#     uring(c) / posix threads at c = 1, i.e. against one plain posix thread: how many files
#     must be in flight before io_uring beats a single blocking thread. posix-threads at c =
#     32 runs 32 threads on 2 cores: that is the posix engine at 32 in flight, oversubscribed.
#   - B, what makes io_uring fast or slow: bench/uring_probe.cpp (mpiwrite_uring_probe), one
#     thread and one ring, no MPI, creating URING_PROBE_FILES (2,000) files of LINES lines
#     (its text is always "Hello, world!") on tmpfs only: the baseline `posix` (blocking
#     system calls, QD 1) and every variant of URING_PROBE_VARIANTS (comma-separated; each
#     VARIANT [MODIFIER...], see the probe's header: regular | split | direct shapes of the
#     chain; skip coop defer async regbuf sqpoll spin) at each queue depth of
#     URING_PROBE_DEPTHS (1 8 32), for each mode of URING_MODES. Per mode one cell: all
#     (depth, variant) pairs and posix, URING_PROBE_RUNS (5) runs each, interleaved (the
#     first rotates), every run into a fresh directory that is removed right after it (tmpfs:
#     no inode trap). Time = the probe's own wall time of its loop (steady_clock, from before
#     the ring's set-up to after its teardown; the directory is made before). Reported per
#     (mode, depth, variant): median us/file, min-max, and the ratio of medians variant /
#     posix (the posix runs of the same cell).
#   "direct skip defer" (IORING_SETUP_DEFER_TASKRUN) in line mode at QD 1 is very slow (0.7-4.5
#   ms per file: every punted write's completion waits for the submitting thread): up to ~9 s
#   per 2,000-file run. It is a finding, so it stays; that is why the probe writes 2,000 files
#   and makes 5 runs, not the 10,000 and 7 of part A.
#   Duration (estimated before it starts, from per-file costs measured on a 2-core VM, and
#   printed; the estimate is on the high side: ~9 min with the defaults): part A ~5 min (258
#   runs with the warm-ups: ~0.6 s of mpirun, file check and report each, plus 10,000 files
#   at 5-200 us per file), part B ~1.5-3 min (408 probe runs of 2,000 files with the warm-ups,
#   most under 0.5 s; the defer run at QD 1 up to 9 s): ~7-9 min in all.
#   Same method otherwise as the floor: sync before every run, sync and drop caches between
#   cells, warm-up runs (WARMUP of each variant per file system in part A, on the first mode
#   and depth; WARMUP rounds of every variant per mode in part B), local files kept until the
#   end (part A adds ~1.3 million files, ~5 GiB, to the up-front check). Before any timed run,
#   one tiny run of mpiwrite --engine uring and of every probe variant and depth: a machine
#   where io_uring is blocked (seccomp, kernel.io_uring_disabled) or a variant is refused
#   (e.g. SQPOLL) fails within seconds, not after minutes.
#
# Section "scale": one run for each size of SCALE_FILES (10,000 and 1,000,000 files), with
# SCALE_LAYOUT (4 ranks x 2 threads), --write-mode SCALE_MODE (whole), LINES lines of TEXT,
# --verify and --cleanup, on tmpfs (SHM) if it has room for the largest size (space, inodes
# and available memory: tmpfs takes at least a 4 KiB page per file, so 1M files need ~5 GiB),
# else on the local disk. Reports per size: the wall time of the whole mpirun, the write
# phase (makespan) and files/s, the verify phase and its mismatches, the removal phase, and
# every rank's peak resident memory (JSON context.peak_rss_kib, getrusage ru_maxrss) with its
# largest; then the growth of the largest rank's peak RSS from the smallest to the largest
# size. Goals: < SCALE_RSS_GOAL_MIB (64) MiB per rank at the largest size, and growth <
# SCALE_GROWTH_GOAL (1.10). One run per size: it is about the memory, and a 1M-file run takes
# a while (~20-40 s of mpirun on a 2-core VM, plus sync and drop caches before each run).
#
# How. One invocation builds the programs (Release, in BUILD_DIR), then, cell by cell,
# makes the runs of each program interleaved (floor, mpiwrite; mpiwrite, floor; ...: which
# one goes first alternates, from run to run and from cell to cell). Every run writes into a
# fresh directory of its own. Before the first cell of each file system and size, WARMUP
# untimed runs of each program absorb the cold start (the first create after a cache drop can
# take twice as long, and a size's first run is the first into a directory that large).
# Untimed:
# `sync` before every run; between cells (series) `sync` and drop caches (echo 3 >
# /proc/sys/vm/drop_caches; noted and skipped when not permitted); on tmpfs the floor removes
# each run's files right after the run, the other sections the files of the finished cell.
#
# The inode trap. On ext4 without a journal, for 60 s after files are deleted (360 s while
# the inode table block is still dirty), every new create in that area is 5-30x slower: the
# kernel will not reuse a recently freed inode. So nothing is ever deleted on the local disk
# while the benchmark runs: its files stay until the very end (that needs the sum of files x
# runs over the floor's sizes, the dynamic section and part A of the uring section of disk
# space and inodes, checked up front: ~8.6 million files and ~37 GiB with the defaults, 6.2
# million of them from the floor's 100,000-file cells, 1.3 million from the uring section).
# The final cleanup syncs and leaves a timestamp,
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
#   RUNS [7] runs per variant and cell of the dynamic section (and of the floor if set)
#   FILES [10000] files per run of the dynamic section (and of the floor if set)
#   FLOOR_FILES [100 10000 100000, or FILES if set]: the floor's sizes (files per run)
#   FLOOR_RUNS [per size: 15 up to 1,000 files, 7 up to 20,000, else 5; or RUNS if set]: runs
#     per program and cell of the floor; one number for every size, or one per FLOOR_FILES
#   FLOOR_GOAL_MIN_FILES [10000]: the 1.05 goal applies to cells of at least that many files
#   FLOOR_FS [local shm]: the floor's file systems (e.g. FLOOR_FS=shm to re-measure tmpfs only)
#   LINES [100]   TEXT [Hello, world!]    MODES [line whole]   LAYOUTS [1x1 2x1 1x2] (RxT)
#   BUILD_DIR [<repo>/build-bench]        RESULTS_DIR [<repo>/bench-results]
#   MPIRUN [mpirun]   MPIRUN_FLAGS [--oversubscribe --bind-to none]   SETTLE [65] seconds
#   WARMUP [1] untimed runs of each program before the first cell of each file system (and,
#     in the floor, of each size)
#   FLOOR_IDLE_THREADS [0]: if > 0, also times a third program, the floor with that many idle
#     threads per process (as an MPI library starts helper threads), to show what being a
#     multi-threaded process costs.
#   SECTIONS [overhead startup alloc floor dynamic uring scale] (dynamic-hosts: add it)
#   DH_CHUNKS [8 64] (dynamic-hosts)
#   DYN_CHUNKS [8 64]   DYN_LAYOUTS [2x1]   DYN_MODE [line]
#   DYN_SLOW_LAYOUTS [2x1 4x1] (RANKSx1, RANKS >= 2; empty: no slow-rank part)
#   DYN_SLOW_DELAY_US [50]: makes rank 1 ~3.3x slower per file on tmpfs with 2 ranks on a
#     2-core VM (the 50 µs sleep costs ~110 µs: timer slack, wake-up); the table gives the
#     measured slowdown.
#   SCALE_FILES [10000 1000000]   SCALE_LAYOUT [4x2] (RANKSxTHREADS)   SCALE_MODE [whole]
#   SCALE_RSS_GOAL_MIB [64]   SCALE_GROWTH_GOAL [1.10]
#   OVH_FILES [1000000]   OVH_LAYOUTS [1x1 2x1 1x2]   OVH_REPS [7]   OVH_GOAL_NS [200]
#   STARTUP_RUNS [11]   STARTUP_NP [2]   STARTUP_NULL [1]   STARTUP_MPI_INIT [1]   MPICC [mpicc]
#   ALLOC_FILES [1000 100000] (two or more sizes)   ALLOC_LAYOUTS [1x1 2x1 1x2]
#   ALLOC_ENGINES [posix null uring]   ALLOC_MODE [whole]   ALLOC_GOAL [0.001] allocations per file
#   URING_FILES [10000]   URING_RUNS [7]   URING_DEPTHS [1 2 8 32] (files in flight; 2 adds
#     the posix-processes reference)   URING_MODES [line whole] (both parts)   URING_GOAL [1.2]
#   URING_PROBE_FILES [2000]   URING_PROBE_RUNS [5]   URING_PROBE_DEPTHS [1 8 32]
#   URING_PROBE_VARIANTS [regular, regular skip coop, split skip coop, direct, direct skip,
#     direct skip coop, direct skip coop async, direct skip coop regbuf, direct skip defer,
#     direct skip sqpoll, direct skip coop spin] (comma-separated; empty: no part B)
# Defaults on a 2-core VM: ~25 s (overhead: mostly mpiwrite's untimed work between its
# repetitions) + ~15 s (startup) + ~20 s (alloc) + ~15 min of runs (floor: ~3 min at 100
# files, ~2 min at 10,000, ~10 min at 100,000) + ~1.5 min (dynamic) + ~7-9 min (uring, its
# estimate is printed when it starts) + ~1 min (scale), plus the build, up to SETTLE s of
# waiting and a few minutes removing the local files at the end.
# Quick smoke run: RUNS=3 FILES=2000 ALLOC_FILES="100 2000" URING_FILES=1000 URING_RUNS=2
#   URING_PROBE_FILES=200 URING_PROBE_RUNS=2 scripts/bench.sh
#
# Output: Markdown tables on standard output (overhead: one row per layout; startup: one row
# per variant; floor: one; dynamic: overhead and slow rank; uring: the engine at equal
# in-flight files and the probe's variants, one table per mode; scale: one row per size;
# progress goes to standard error), and the same data in bench-results/bench-<UTC time>.md
# and .json (raw run times, per-rank files and times for dynamic, statistics, machine,
# software and parameters). Needs bash, cmake, a C++ compiler, Open MPI, python3 (stdlib only)
# and the project's build dependencies. Every scratch directory it made is removed on exit,
# also on failure or Ctrl-C.
set -euo pipefail
export LC_ALL=C

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# From "Usage:" to the end of the quick smoke run (the first bare "#" line after it).
usage() { sed -n '/^# Usage:/,/^#$/{/^#$/!p}' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
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

# Whether RUNS and FILES came from the caller: then the floor uses them for every size.
runs_given=${RUNS:+1}
files_given=${FILES:+1}
RUNS=${RUNS:-7}
FILES=${FILES:-10000}
if [[ -n $files_given ]]; then FLOOR_FILES=${FLOOR_FILES:-$FILES}; fi
FLOOR_FILES=${FLOOR_FILES:-100 10000 100000}
if [[ -n $runs_given ]]; then FLOOR_RUNS=${FLOOR_RUNS:-$RUNS}; fi
FLOOR_RUNS=${FLOOR_RUNS:-}
FLOOR_FS=${FLOOR_FS:-local shm}
FLOOR_GOAL_MIN_FILES=${FLOOR_GOAL_MIN_FILES:-10000}
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
SECTIONS=${SECTIONS:-overhead startup alloc floor dynamic uring scale}
DYN_CHUNKS=${DYN_CHUNKS:-8 64}
DYN_LAYOUTS=${DYN_LAYOUTS:-2x1}
DYN_MODE=${DYN_MODE:-line}
DYN_SLOW_LAYOUTS=${DYN_SLOW_LAYOUTS-2x1 4x1}
DYN_SLOW_DELAY_US=${DYN_SLOW_DELAY_US:-50}
DYN_SLOW_RANK=1
DH_CHUNKS=${DH_CHUNKS:-8 64}
SCALE_FILES=${SCALE_FILES:-10000 1000000}
SCALE_LAYOUT=${SCALE_LAYOUT:-4x2}
SCALE_MODE=${SCALE_MODE:-whole}
SCALE_RSS_GOAL_MIB=${SCALE_RSS_GOAL_MIB:-64}
SCALE_GROWTH_GOAL=${SCALE_GROWTH_GOAL:-1.10}
OVH_FILES=${OVH_FILES:-1000000}
OVH_LAYOUTS=${OVH_LAYOUTS:-1x1 2x1 1x2}
OVH_REPS=${OVH_REPS:-7}
OVH_GOAL_NS=${OVH_GOAL_NS:-200}
STARTUP_RUNS=${STARTUP_RUNS:-11}
STARTUP_NP=${STARTUP_NP:-2}
STARTUP_NULL=${STARTUP_NULL:-1}
STARTUP_MPI_INIT=${STARTUP_MPI_INIT:-1}
MPICC=${MPICC:-mpicc}
ALLOC_FILES=${ALLOC_FILES:-1000 100000}
ALLOC_LAYOUTS=${ALLOC_LAYOUTS:-1x1 2x1 1x2}
ALLOC_ENGINES=${ALLOC_ENGINES:-posix null uring}
ALLOC_MODE=${ALLOC_MODE:-whole}
ALLOC_GOAL=${ALLOC_GOAL:-0.001}
URING_FILES=${URING_FILES:-10000}
URING_RUNS=${URING_RUNS:-7}
URING_DEPTHS=${URING_DEPTHS:-1 2 8 32}
URING_MODES=${URING_MODES:-line whole}
URING_GOAL=${URING_GOAL:-1.2}
URING_PROBE_FILES=${URING_PROBE_FILES:-2000}
URING_PROBE_RUNS=${URING_PROBE_RUNS:-5}
URING_PROBE_DEPTHS=${URING_PROBE_DEPTHS:-1 8 32}
uring_probe_default='regular, regular skip coop, split skip coop, direct, direct skip, direct skip coop,'
uring_probe_default+=' direct skip coop async, direct skip coop regbuf, direct skip defer,'
uring_probe_default+=' direct skip sqpoll, direct skip coop spin'
URING_PROBE_VARIANTS=${URING_PROBE_VARIANTS-$uring_probe_default}  # set and empty: no part B

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
read -r -a sections <<<"$SECTIONS"
((${#sections[@]} > 0)) || die "SECTIONS must not be empty"
for section in "${sections[@]}"; do
  [[ $section =~ ^(overhead|startup|alloc|floor|dynamic|dynamic-hosts|uring|scale)$ ]] ||
    die "SECTIONS: '$section' is not overhead, startup, alloc, floor, dynamic, dynamic-hosts, uring or scale"
done
want() { [[ " ${sections[*]} " == *" $1 "* ]]; }
# The floor's sizes, ascending, and floor_runs[N]: the runs per program and cell at N files.
read -r -a floor_files <<<"$FLOOR_FILES"
read -r -a floor_runs_list <<<"$FLOOR_RUNS"
declare -A floor_runs=()
read -r -a floor_fs <<<"$FLOOR_FS"
if want floor; then
  ((${#floor_fs[@]} > 0)) || die "FLOOR_FS must not be empty"
  for fs in "${floor_fs[@]}"; do
    [[ $fs == local || $fs == shm ]] || die "FLOOR_FS: '$fs' is neither local nor shm"
  done
  ((${#floor_files[@]} > 0)) || die "FLOOR_FILES must not be empty"
  for n in "${floor_files[@]}"; do
    is_count "$n" || die "FLOOR_FILES: '$n' is not a whole number >= 1"
  done
  [[ $(printf '%s\n' "${floor_files[@]}" | sort | uniq -d) == '' ]] || die "FLOOR_FILES: a size appears twice"
  for r in "${floor_runs_list[@]}"; do
    is_count "$r" || die "FLOOR_RUNS: '$r' is not a whole number >= 1"
  done
  ((${#floor_runs_list[@]} <= 1 || ${#floor_runs_list[@]} == ${#floor_files[@]})) ||
    die "FLOOR_RUNS: give one number, or one per size of FLOOR_FILES (${#floor_files[@]})"
  for i in "${!floor_files[@]}"; do
    n=${floor_files[$i]}
    if ((${#floor_runs_list[@]} == 0)); then
      # More runs where a cell is cheap and noisy, fewer where one run takes seconds.
      if ((n <= 1000)); then floor_runs[$n]=15; elif ((n <= 20000)); then floor_runs[$n]=7; else floor_runs[$n]=5; fi
    elif ((${#floor_runs_list[@]} == 1)); then
      floor_runs[$n]=${floor_runs_list[0]}
    else
      floor_runs[$n]=${floor_runs_list[$i]}
    fi
  done
  mapfile -t floor_files < <(printf '%s\n' "${floor_files[@]}" | sort -n)
  is_count "$FLOOR_GOAL_MIN_FILES" || die "FLOOR_GOAL_MIN_FILES must be a whole number >= 1"
fi
read -r -a alloc_files <<<"$ALLOC_FILES"
read -r -a alloc_layouts <<<"$ALLOC_LAYOUTS"
read -r -a alloc_engines <<<"$ALLOC_ENGINES"
if want alloc; then
  for n in "${alloc_files[@]}"; do
    is_count "$n" || die "ALLOC_FILES: '$n' is not a whole number >= 1"
  done
  # Ascending and distinct: the slope is from the smallest to the largest size.
  mapfile -t alloc_files < <(printf '%s\n' "${alloc_files[@]}" | sort -n -u)
  ((${#alloc_files[@]} >= 2)) || die "ALLOC_FILES needs two different sizes at least"
  ((${#alloc_layouts[@]} > 0 && ${#alloc_engines[@]} > 0)) || die "ALLOC_LAYOUTS and ALLOC_ENGINES must not be empty"
  for layout in "${alloc_layouts[@]}"; do
    [[ $layout =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "ALLOC_LAYOUTS: '$layout' is not RANKSxTHREADS"
  done
  for engine in "${alloc_engines[@]}"; do
    [[ $engine =~ ^[a-z][a-z0-9_-]*$ ]] || die "ALLOC_ENGINES: '$engine' is not an engine name"
  done
  [[ $ALLOC_MODE == line || $ALLOC_MODE == whole ]] || die "ALLOC_MODE: '$ALLOC_MODE' is not line or whole"
  [[ $ALLOC_GOAL =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "ALLOC_GOAL must be a number"
fi
read -r -a dyn_chunks <<<"$DYN_CHUNKS"
read -r -a dyn_layouts <<<"$DYN_LAYOUTS"
read -r -a dyn_slow_layouts <<<"$DYN_SLOW_LAYOUTS"
if want dynamic; then
  ((${#dyn_chunks[@]} > 0 && ${#dyn_layouts[@]} > 0)) || die "DYN_CHUNKS and DYN_LAYOUTS must not be empty"
  for chunk in "${dyn_chunks[@]}"; do
    is_count "$chunk" || die "DYN_CHUNKS: '$chunk' is not a whole number >= 1"
  done
  [[ $(printf '%s\n' "${dyn_chunks[@]}" | sort | uniq -d) == '' ]] || die "DYN_CHUNKS: a chunk appears twice"
  for layout in "${dyn_layouts[@]}"; do
    [[ $layout =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "DYN_LAYOUTS: '$layout' is not RANKSxTHREADS"
  done
  for layout in "${dyn_slow_layouts[@]}"; do
    if ! [[ $layout =~ ^[1-9][0-9]*x1$ ]] || ((${layout%x*} <= DYN_SLOW_RANK)); then
      die "DYN_SLOW_LAYOUTS: '$layout' is not RANKSx1 with RANKS >= $((DYN_SLOW_RANK + 1))"
    fi
  done
  [[ $DYN_MODE == line || $DYN_MODE == whole ]] || die "DYN_MODE: '$DYN_MODE' is not line or whole"
  is_count "$DYN_SLOW_DELAY_US" || die "DYN_SLOW_DELAY_US must be a whole number >= 1"
fi
read -r -a dh_chunks <<<"$DH_CHUNKS"
if want dynamic-hosts; then
  ((${#dh_chunks[@]} > 0)) || die "DH_CHUNKS must not be empty"
  for chunk in "${dh_chunks[@]}"; do
    is_count "$chunk" || die "DH_CHUNKS: '$chunk' is not a whole number >= 1"
  done
  [[ $(printf '%s\n' "${dh_chunks[@]}" | sort | uniq -d) == '' ]] || die "DH_CHUNKS: a chunk appears twice"
  [[ $DYN_MODE == line || $DYN_MODE == whole ]] || die "DYN_MODE: '$DYN_MODE' is not line or whole"
  is_count "$DYN_SLOW_DELAY_US" || die "DYN_SLOW_DELAY_US must be a whole number >= 1"
  [[ $(id -u) -eq 0 ]] || die "dynamic-hosts: the emulated hosts (network namespaces) need root"
fi
# The uring section: depths ascending and distinct; the probe's variants, one "VARIANT
# [MODIFIER...]" per comma-separated entry, blanks squeezed (they name the variant in the
# tables and the JSON file).
read -r -a uring_depths <<<"$URING_DEPTHS"
read -r -a uring_modes <<<"$URING_MODES"
read -r -a uring_probe_depths <<<"$URING_PROBE_DEPTHS"
uring_probe_variants=()
if [[ -n ${URING_PROBE_VARIANTS//[[:space:],]/} ]]; then
  IFS=, read -r -a entries <<<"$URING_PROBE_VARIANTS"
  for entry in "${entries[@]}"; do
    read -r -a words <<<"$entry"
    ((${#words[@]} > 0)) || continue
    uring_probe_variants+=("${words[*]}")
  done
fi
if want uring; then
  is_count "$URING_FILES" || die "URING_FILES must be a whole number >= 1"
  is_count "$URING_RUNS" || die "URING_RUNS must be a whole number >= 1"
  is_count "$URING_PROBE_FILES" || die "URING_PROBE_FILES must be a whole number >= 1"
  is_count "$URING_PROBE_RUNS" || die "URING_PROBE_RUNS must be a whole number >= 1"
  [[ $URING_GOAL =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "URING_GOAL must be a number"
  ((${#uring_depths[@]} > 0 && ${#uring_modes[@]} > 0)) || die "URING_DEPTHS and URING_MODES must not be empty"
  for depth in "${uring_depths[@]}"; do  # 1024: mpiwrite's most threads (posix-threads: -t c)
    if ! is_count "$depth" || ((depth > 1024)); then die "URING_DEPTHS: '$depth' is not a whole number from 1 to 1024"; fi
  done
  for depth in "${uring_probe_depths[@]}"; do  # 4096: the probe's deepest queue
    if ! is_count "$depth" || ((depth > 4096)); then die "URING_PROBE_DEPTHS: '$depth' is not a whole number from 1 to 4096"; fi
  done
  mapfile -t uring_depths < <(printf '%s\n' "${uring_depths[@]}" | sort -n -u)
  for mode in "${uring_modes[@]}"; do
    [[ $mode == line || $mode == whole ]] || die "URING_MODES: '$mode' is not line or whole"
  done
  if ((${#uring_probe_variants[@]} > 0)); then
    ((${#uring_probe_depths[@]} > 0)) || die "URING_PROBE_DEPTHS must not be empty (or set URING_PROBE_VARIANTS empty)"
    mapfile -t uring_probe_depths < <(printf '%s\n' "${uring_probe_depths[@]}" | sort -n -u)
    for variant in "${uring_probe_variants[@]}"; do
      [[ $variant =~ ^(regular|split|direct)(\ (skip|coop|defer|async|regbuf|sqpoll|spin))*$ ]] ||
        die "URING_PROBE_VARIANTS: '$variant' is not regular|split|direct [skip coop defer async regbuf sqpoll spin] (posix is the baseline, always run)"
    done
    [[ $(printf '%s\n' "${uring_probe_variants[@]}" | sort | uniq -d) == '' ]] || die "URING_PROBE_VARIANTS: a variant appears twice"
  fi
fi
read -r -a scale_files <<<"$SCALE_FILES"
if want scale; then
  ((${#scale_files[@]} > 0)) || die "SCALE_FILES must not be empty"
  for n in "${scale_files[@]}"; do
    is_count "$n" || die "SCALE_FILES: '$n' is not a whole number >= 1"
  done
  # Ascending: the growth is from the smallest to the largest size.
  mapfile -t scale_files < <(printf '%s\n' "${scale_files[@]}" | sort -n -u)
  [[ $SCALE_LAYOUT =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "SCALE_LAYOUT: '$SCALE_LAYOUT' is not RANKSxTHREADS"
  [[ $SCALE_MODE == line || $SCALE_MODE == whole ]] || die "SCALE_MODE: '$SCALE_MODE' is not line or whole"
  is_count "$SCALE_RSS_GOAL_MIB" || die "SCALE_RSS_GOAL_MIB must be a whole number >= 1"
  [[ $SCALE_GROWTH_GOAL =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "SCALE_GROWTH_GOAL must be a number"
fi
read -r -a ovh_layouts <<<"$OVH_LAYOUTS"
if want overhead; then
  ((${#ovh_layouts[@]} > 0)) || die "OVH_LAYOUTS must not be empty"
  for layout in "${ovh_layouts[@]}"; do
    [[ $layout =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "OVH_LAYOUTS: '$layout' is not RANKSxTHREADS"
  done
  is_count "$OVH_FILES" || die "OVH_FILES must be a whole number >= 1"
  is_count "$OVH_REPS" || die "OVH_REPS must be a whole number >= 1"
  [[ $OVH_GOAL_NS =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "OVH_GOAL_NS must be a number"
fi
if want startup; then
  is_count "$STARTUP_RUNS" || die "STARTUP_RUNS must be a whole number >= 1"
  is_count "$STARTUP_NP" || die "STARTUP_NP must be a whole number >= 1"
  [[ $STARTUP_NULL == 0 || $STARTUP_NULL == 1 ]] || die "STARTUP_NULL must be 0 or 1"
  [[ $STARTUP_MPI_INIT == 0 || $STARTUP_MPI_INIT == 1 ]] || die "STARTUP_MPI_INIT must be 0 or 1"
fi
for tool in cmake python3 sync "$MPIRUN"; do
  command -v "$tool" >/dev/null || die "$tool not found"
done
programs=(floor mpiwrite)
((FLOOR_IDLE_THREADS == 0)) || programs+=(floor-mt)
# The dynamic section's variants: block, then dynamic with each chunk (named dynamic-cK). The
# slow-rank part compares block with dynamic at the first chunk only.
dyn_variants=(block)
for chunk in "${dyn_chunks[@]}"; do dyn_variants+=("dynamic-c$chunk"); done
slow_variants=(block "dynamic-c${dyn_chunks[0]:-8}")
# The dynamic-hosts section's variants, with and without the slow rank alike.
dh_variants=(block)
for chunk in "${dh_chunks[@]}"; do dh_variants+=("dynamic-c$chunk"); done
dh_variants+=("dynamic-c${dh_chunks[0]:-8}-nopf")

# ---------------------------------------------------------------------------------------------
# Scratch space and cleanup. Only what this invocation made is ever removed.
local_scratch='' shm_scratch='' work='' made_tmp_root='' local_has_files='' settle_marker=''
made_hosts=''  # the dynamic-hosts section's emulated hosts are up
dyn_remove_runs=''  # the dynamic-hosts section: tmpfs files go right after each run

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  if [[ -n $made_hosts ]]; then "$repo/scripts/cluster/netns-down.sh" >&2; fi
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

def load_report(report_path, files, ranks, threads):
    """mpiwrite's JSON report of one plain run (-r 1) and its only repetition."""
    with open(report_path) as f:
        report = json.load(f)
    if "points" in report:  # schema_version 2: one point per measured configuration
        if len(report["points"]) != 1:
            sys.exit(f"{report_path}: {len(report['points'])} points, expected 1")
        rep = report["points"][0]["repetitions"]
    else:  # schema_version 1
        rep = report["repetitions"]
    ctx = report["context"]
    if len(rep) != 1 or rep[0]["files"] != files:
        sys.exit(f"{report_path}: unexpected repetitions {rep!r:.200}")
    if ctx["ranks"] != ranks or ctx["threads_per_rank"] != threads:
        sys.exit(f"{report_path}: ran {ctx['ranks']}x{ctx['threads_per_rank']}, "
                 f"expected {ranks}x{threads}")
    return report, rep[0]

def mpiwrite_seconds(report_path, files, ranks, threads):
    _, rep = load_report(report_path, files, ranks, threads)
    print(f"{rep['makespan_s']:.9f}")

def record(report_path, out_path, files, ranks, threads, *pairs):
    """Checks one run of the dynamic section, appends it (the KEY=VALUE pairs, its per-rank
    files and times) as a JSON line to out_path, and prints its makespan."""
    report, rep = load_report(report_path, files, ranks, threads)
    r = dict(pair.split("=", 1) for pair in pairs)
    r.update(ranks=ranks, threads=threads, run=int(r["run"]), position=int(r["position"]),
             slow_delay_us=int(r["slow_delay_us"]),
             slow_ranks=[int(x) for x in r["slow_ranks"].split(",") if x])
    r["chunk"] = int(r["chunk"]) if r["partition"] == "dynamic" else None
    cfg = report["config"]
    want = {"partition": r["partition"], "slow_ranks": r["slow_ranks"], "write_mode": r["mode"]}
    if r["partition"] == "dynamic":
        want["chunk"] = r["chunk"]
    if r["slow_ranks"]:
        want["slow_delay_us"] = r["slow_delay_us"]
    for key, value in want.items():
        if cfg.get(key) != value:
            sys.exit(f"{report_path}: config {key} = {cfg.get(key)!r}, expected {value!r}")
    ranks_ = sorted(rep["ranks"], key=lambda x: x["rank"])
    if [x["rank"] for x in ranks_] != list(range(ranks)) or sum(x["files"] for x in ranks_) != files:
        sys.exit(f"{report_path}: unexpected per-rank figures {ranks_!r:.300}")
    r.update(makespan_s=rep["makespan_s"], rank_files=[x["files"] for x in ranks_],
             rank_elapsed_s=[x["elapsed_s"] for x in ranks_])
    with open(out_path, "a") as f:
        f.write(json.dumps(r) + "\n")
    print(f"{rep['makespan_s']:.9f}")

def scale_record(report_path, out_path, files, ranks, threads, wall_s, fs, fs_type):
    """Checks one run of the scale section (--verify --cleanup), appends its figures as a JSON
    line to out_path and prints a one-line summary."""
    report, rep = load_report(report_path, files, ranks, threads)
    v, cleanup, ctx = rep.get("verify"), report.get("cleanup") or {}, report["context"]
    if v is None:
        sys.exit(f"{report_path}: no verify figures (is this mpiwrite older than --verify?)")
    rss = ctx.get("peak_rss_kib")
    if not isinstance(rss, list) or len(rss) != ranks:
        sys.exit(f"{report_path}: context.peak_rss_kib {rss!r:.200}, expected {ranks} entries")
    if cleanup.get("files_removed") != files:
        sys.exit(f"{report_path}: cleanup removed {cleanup.get('files_removed')!r}, expected {files}")
    r = {"files": files, "ranks": ranks, "threads": threads, "fs": fs, "fs_type": fs_type,
         "wall_s": float(wall_s), "write_s": rep["makespan_s"], "files_per_s": rep["files_per_s"],
         "verify_s": v["elapsed_s"], "verify_files_checked": v["files_checked"],
         "verify_mismatches": v["mismatches"], "removal_s": cleanup.get("elapsed_s"),
         "peak_rss_kib": rss, "peak_rss_max_kib": max(rss),
         "peak_rss_max_rank": rss.index(max(rss))}
    with open(out_path, "a") as f:
        f.write(json.dumps(r) + "\n")
    print(f"wall {r['wall_s']:.1f} s, write {r['write_s']:.2f} s ({r['files_per_s']:.0f} files/s), "
          f"verify {r['verify_s']:.2f} s ({r['verify_mismatches']} mismatches), "
          f"peak RSS max {max(rss) / 1024:.1f} MiB (rank {r['peak_rss_max_rank']})")

def overhead_record(report_path, out_path, files, ranks, threads, reps, wall_s, fs, fs_type):
    """Checks one run of the overhead section (--engine null -r REPS), appends its makespans
    as a JSON line to out_path and prints a one-line summary."""
    with open(report_path) as f:
        report = json.load(f)
    points = report.get("points") or []
    if len(points) != 1:
        sys.exit(f"{report_path}: {len(points)} points, expected 1")
    rep, ctx, cfg = points[0]["repetitions"], report["context"], report["config"]
    if len(rep) != reps or any(r["files"] != files for r in rep):
        sys.exit(f"{report_path}: unexpected repetitions {rep!r:.200}")
    if ctx["ranks"] != ranks or ctx["threads_per_rank"] != threads:
        sys.exit(f"{report_path}: ran {ctx['ranks']}x{ctx['threads_per_rank']}, "
                 f"expected {ranks}x{threads}")
    if cfg.get("engine") != "null":
        sys.exit(f"{report_path}: engine {cfg.get('engine')!r}, expected 'null'")
    xs = [r["makespan_s"] for r in rep]
    med = statistics.median(xs)
    r = {"layout": f"{ranks}x{threads}", "ranks": ranks, "threads": threads, "files": files,
         "repetitions": reps, "fs": fs, "fs_type": fs_type, "wall_s": float(wall_s),
         "makespan_s": xs, "makespan": stats(xs),
         "ns_per_file": med / files * 1e9,
         "ns_per_file_per_thread": med * ranks * threads / files * 1e9,
         "writer_fd_tables": ctx.get("writer_fd_tables"), "warnings": ctx.get("warnings")}
    with open(out_path, "a") as f:
        f.write(json.dumps(r) + "\n")
    print(f"makespan median {med * 1e3:.1f} ms [{min(xs) * 1e3:.1f}-{max(xs) * 1e3:.1f}], "
          f"{r['ns_per_file']:.1f} ns/file (makespan / files), "
          f"{r['ns_per_file_per_thread']:.1f} ns/file per thread")

def alloc_record(report_path, counts_path, out_path, files, ranks, threads, engine, mode,
                 fs, fs_type):
    """Checks one run of the alloc section and its counting allocator's lines (one per rank),
    appends its figures as a JSON line to out_path and prints a one-line summary."""
    report, rep = load_report(report_path, files, ranks, threads)
    if report["config"].get("engine") != engine:
        sys.exit(f"{report_path}: engine {report['config'].get('engine')!r}, expected {engine!r}")
    procs = []
    with open(counts_path) as f:
        for line in f:
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if kv.get("exe") == "mpiwrite":
                procs.append({k: (v if k == "exe" else int(v)) for k, v in kv.items()})
    if len(procs) != ranks:
        sys.exit(f"{counts_path}: {len(procs)} mpiwrite processes counted, expected {ranks} "
                 f"(did LD_PRELOAD reach the ranks?)")
    if min(p["allocs"] for p in procs) < 100:  # MPI_Init alone makes thousands
        sys.exit(f"{counts_path}: a rank made fewer than 100 allocations: is the shim working?")
    procs.sort(key=lambda p: p["pid"])
    r = {"engine": engine, "layout": f"{ranks}x{threads}", "ranks": ranks, "threads": threads,
         "files": files, "mode": mode, "fs": fs, "fs_type": fs_type,
         "allocs_total": sum(p["allocs"] for p in procs),
         "bytes_total": sum(p["bytes"] for p in procs),
         "allocs_per_process": [p["allocs"] for p in procs], "processes": procs,
         "write_s": rep["makespan_s"]}
    with open(out_path, "a") as f:
        f.write(json.dumps(r) + "\n")
    print(f"{r['allocs_total']} allocations over {ranks} rank(s) "
          f"({', '.join(str(x) for x in r['allocs_per_process'])}), write {rep['makespan_s'] * 1e3:.1f} ms")

def uring_record(report_path, out_path, files, ranks, threads, engine, queue_depth, mode, *pairs):
    """Checks one run of the uring section's part A (engine, queue depth, layout, mode), appends
    it (the KEY=VALUE pairs and its makespan) as a JSON line to out_path and prints the makespan."""
    report, rep = load_report(report_path, files, ranks, threads)
    cfg = report["config"]
    want = {"engine": engine, "queue_depth": queue_depth, "write_mode": mode, "partition": "block"}
    for key, value in want.items():
        if cfg.get(key) != value:
            sys.exit(f"{report_path}: config {key} = {cfg.get(key)!r}, expected {value!r}")
    r = dict(pair.split("=", 1) for pair in pairs)
    r.update(ranks=ranks, threads=threads, engine=engine, queue_depth=queue_depth, mode=mode,
             files=files, in_flight=int(r["in_flight"]), run=int(r["run"]),
             position=int(r["position"]), makespan_s=rep["makespan_s"],
             writer_fd_tables=report["context"].get("writer_fd_tables"))
    with open(out_path, "a") as f:
        f.write(json.dumps(r) + "\n")
    print(f"{rep['makespan_s']:.9f}")

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

def ms(s):
    d = 3 if s["min"] < 0.01 else 1  # a 100-file write phase lasts well under 10 ms
    return f"{s['median'] * 1e3:.{d}f} [{s['min'] * 1e3:.{d}f}–{s['max'] * 1e3:.{d}f}]"

fsname = {"local": "local", "shm": "shm"}

def floor_section(meta, raw_path):
    """Section "floor": fills meta["cells"] and meta["summary"]; returns its Markdown lines."""
    p = meta["parameters"]
    goal, goal_min = p["goal_ratio"], p["goal_min_files"]
    cells = {}
    with open(raw_path) as f:
        for line in f:
            (fs, fstype, files, mode, layout, run_no, position, program,
             seconds) = line.rstrip("\n").split("\t")
            key = (fs, int(files), mode, layout)
            cell = cells.setdefault(key, {"fs": fs, "fs_type": fstype, "files": int(files),
                                          "mode": mode, "layout": layout, "runs": {}})
            r = cell["runs"].setdefault(int(run_no), {"run": int(run_no), "order": []})
            r["order"].append(program)
            r[program + "_s"] = float(seconds)
    out_cells = []
    programs = meta["programs"]
    # Grouped by size (stable: within a size, in the order they ran: file system, mode, layout).
    for cell in sorted(cells.values(), key=lambda c: c["files"]):
        runs = [cell["runs"][k] for k in sorted(cell["runs"])]
        ranks, threads = (int(x) for x in cell["layout"].split("x"))
        files = cell["files"]
        c = {k: cell[k] for k in ("fs", "fs_type", "files", "mode", "layout")}
        c.update(ranks=ranks, threads=threads, runs_per_program=len(runs), runs=runs)
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
        c["goal_applies"] = files >= goal_min
        c["goal_met"] = c["ratio_of_medians"] <= goal if c["goal_applies"] else None
        out_cells.append(c)
    meta["cells"] = out_cells
    with_goal = [c for c in out_cells if c["goal_applies"]]
    sizes = sorted({c["files"] for c in out_cells})
    meta["summary"] = {"cells": len(out_cells), "cells_with_goal": len(with_goal),
                       "cells_meeting_goal": sum(c["goal_met"] for c in with_goal),
                       "goal_ratio": goal, "goal_min_files": goal_min,
                       "by_files": {str(n): {
                           "cells": sum(c["files"] == n for c in out_cells),
                           "goal_applies": n >= goal_min,
                           "cells_meeting_goal": (sum(bool(c["goal_met"]) for c in out_cells
                                                      if c["files"] == n) if n >= goal_min else None),
                           "max_ratio_of_medians": max(c["ratio_of_medians"] for c in out_cells
                                                       if c["files"] == n)} for n in sizes}}

    head = ["cell", "files", "runs", "floor ms median [min–max]", "mpiwrite ms median [min–max]",
            "ratio of medians", "paired ratio median [min–max]",
            "floor µs/file", "mpiwrite µs/file", f"≤ {goal}× (from {goal_min:,} files)"]
    mt = "floor-mt" in programs
    if mt:
        head += [f"floor+{p['floor_idle_threads']} idle threads ms median [min–max]",
                 "mpiwrite / floor+idle (ratio of medians)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in out_cells:
        pr = c["mpiwrite_paired_ratio"]
        name = f"{fsname.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · {c['ranks']}r×{c['threads']}t"
        verdict = "no goal" if not c["goal_applies"] else "yes" if c["goal_met"] else "**no**"
        row = [name, f"{c['files']:,}", str(c["runs_per_program"]), ms(c["floor"]),
               ms(c["mpiwrite"]), f"{c['ratio_of_medians']:.3f}",
               f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
               f"{c['floor']['us_per_file_median']:.1f}",
               f"{c['mpiwrite']['us_per_file_median']:.1f}", verdict]
        if mt:
            row += [ms(c["floor-mt"]), f"{c['mpiwrite']['median'] / c['floor-mt']['median']:.3f}"]
        lines.append("| " + " | ".join(row) + " |")
    runs_text = ", ".join(f"{s['runs']} at {s['files']:,} files" for s in p["floor_sizes"])
    md = [f"## mpiwrite vs. the floor — {meta['started_utc']}", "",
          f"{' / '.join(f'{n:,}' for n in sizes)} files × {p['lines']} lines of {p['text']!r} "
          f"({p['file_size_bytes']} B/file); runs per program and cell: {runs_text}; "
          f"interleaved (first program alternating), "
          f"after {p['warmup_runs_per_filesystem']} untimed warm-up run(s) per program, file system and size; "
          f"time = makespan of the write phase (earliest rank start to last rank end). "
          f"Goal: mpiwrite ≤ {goal}× the floor (ratio of medians) in the cells of "
          f"{goal_min:,} files and more; smaller cells (a write phase of a few ms) have no goal.", ""]
    md += lines
    md += [""]
    for n in sizes:
        b = meta["summary"]["by_files"][str(n)]
        if b["goal_applies"]:
            md.append(f"{n:,} files: goal met in {b['cells_meeting_goal']} of {b['cells']} cells "
                      f"(largest ratio of medians {b['max_ratio_of_medians']:.3f}).")
        else:
            md.append(f"{n:,} files: no goal; largest ratio of medians "
                      f"{b['max_ratio_of_medians']:.3f} in {b['cells']} cells.")
        md.append("")
    if with_goal:
        md += [f"Goal met in {meta['summary']['cells_meeting_goal']} of {len(with_goal)} cells with a goal.", ""]
    else:
        md += [f"No cell has a goal (all have fewer than {goal_min:,} files).", ""]
    return md

def chunk_of(variant):
    """dynamic-cK or dynamic-cK-nopf: K."""
    return int(variant.split("-c")[1].split("-")[0])

def variant_label(variant):
    return f"chunk {chunk_of(variant)}" + (", no prefetch" if variant.endswith("-nopf") else "")

def dynamic_section(meta, raw_path, key="dynamic"):
    """Section "dynamic" (or "dynamic-hosts", key "dynamic_hosts"): fills meta[key]; returns
    its Markdown lines."""
    d = meta[key]
    p, dp = meta["parameters"], d["parameters"]
    files, goal = p["files"], dp["goal_ratio"]
    groups = {}
    with open(raw_path) as f:
        for line in f:
            r = json.loads(line)
            key = (r["part"], r["fs"], r["mode"], r["layout"])
            g = groups.setdefault(key, {k: r[k] for k in ("part", "fs", "fs_type", "mode", "layout",
                                                          "ranks", "threads", "slow_ranks",
                                                          "slow_delay_us")} | {"runs": {}})
            run = g["runs"].setdefault(r["run"], {"run": r["run"], "order": []})
            run["order"].append(r["variant"])
            run[r["variant"]] = {k: r[k] for k in ("partition", "chunk", "makespan_s",
                                                   "rank_files", "rank_elapsed_s")}

    def variant_stats(runs, v, ranks):
        there = [r[v] for r in runs if v in r]
        s = stats([x["makespan_s"] for x in there])
        s["us_per_file_median"] = s["median"] / files * 1e6
        s["rank_files_median"] = [statistics.median(x["rank_files"][j] for x in there)
                                  for j in range(ranks)]
        # Each rank's own cost: its time / its files (µs per file), median over the runs.
        s["rank_us_per_file_median"] = [
            statistics.median(x["rank_elapsed_s"][j] / x["rank_files"][j] * 1e6
                              for x in there if x["rank_files"][j] > 0) if
            any(x["rank_files"][j] > 0 for x in there) else None for j in range(ranks)]
        return s

    def both(runs, a, b):
        return [r for r in runs if a in r and b in r]

    def files_cell(v, slow):
        fm = v["rank_files_median"]
        slow_part = [f"{fm[j]:g}" for j in range(len(fm)) if j in slow]
        rest = ", ".join(f"{fm[j]:g}" for j in range(len(fm)) if j not in slow)
        return " / ".join(slow_part + [rest]) if slow_part else rest

    overhead, slow_cells = [], []
    for g in groups.values():
        runs = [g["runs"][k] for k in sorted(g["runs"])]
        c = {k: v for k, v in g.items() if k != "runs"}
        c["runs"] = runs
        names = dp["overhead_variants"] if g["part"] == "overhead" else dp["slow_variants"]
        for v in names:
            c[v] = variant_stats(runs, v, g["ranks"])
        if g["part"] == "overhead":
            c["comparisons"] = []
            for v in names[1:]:
                pairs = [r[v]["makespan_s"] / r["block"]["makespan_s"] for r in both(runs, v, "block")]
                ratio = c[v]["median"] / c["block"]["median"]
                c["comparisons"].append({"variant": v, "chunk": chunk_of(v),
                                         "prefetch": not v.endswith("-nopf"),
                                         "ratio_of_medians": ratio, "paired_ratio": stats(pairs),
                                         "goal_met": ratio <= goal})
            overhead.append(c)
        else:
            dyn = names[1]
            c["dynamic_variant"] = dyn
            c["speedup_ratio_of_medians"] = c["block"]["median"] / c[dyn]["median"]
            c["paired_speedup"] = stats([r["block"]["makespan_s"] / r[dyn]["makespan_s"]
                                         for r in both(runs, "block", dyn)])
            # Rates from the block runs, where every rank writes a fixed share: s_r = files_r /
            # elapsed_r; a perfect balance would end all ranks together after N / sum(s_r).
            ideal, slowdown = [], []
            for r in runs:
                if "block" not in r:
                    continue
                b = r["block"]
                rates = [f / t for f, t in zip(b["rank_files"], b["rank_elapsed_s"]) if t > 0 and f > 0]
                if len(rates) == g["ranks"]:
                    ideal.append(files / sum(rates))
                    per = [t / f for f, t in zip(b["rank_files"], b["rank_elapsed_s"])]
                    others = [x for j, x in enumerate(per) if j not in g["slow_ranks"]]
                    slowdown.append(statistics.mean(per[j] for j in g["slow_ranks"]) /
                                    statistics.median(others))
            c["ideal_makespan_s"] = stats(ideal) if ideal else None
            c["slow_rank_slowdown_in_block"] = stats(slowdown) if slowdown else None
            c["dynamic_over_ideal"] = (c[dyn]["median"] / c["ideal_makespan_s"]["median"]
                                       if ideal else None)
            # Every dynamic variant (dynamic-hosts has several): the same figures per variant.
            c["comparisons"] = [{
                "variant": v, "chunk": chunk_of(v), "prefetch": not v.endswith("-nopf"),
                "ratio_of_medians": c[v]["median"] / c["block"]["median"],
                "speedup_ratio_of_medians": c["block"]["median"] / c[v]["median"],
                "paired_speedup": stats([r["block"]["makespan_s"] / r[v]["makespan_s"]
                                         for r in both(runs, "block", v)]),
                "dynamic_over_ideal": (c[v]["median"] / c["ideal_makespan_s"]["median"]
                                       if ideal else None)} for v in names[1:]]
            slow_cells.append(c)
    d["overhead_cells"], d["slow_cells"] = overhead, slow_cells
    rows = [x for c in overhead for x in c["comparisons"]]
    d["summary"] = {"overhead_rows": len(rows), "overhead_rows_meeting_goal":
                    sum(x["goal_met"] for x in rows), "goal_ratio": goal,
                    "speedups": {c["layout"]: c["speedup_ratio_of_medians"] for c in slow_cells}}

    md = [f"## {d['title']} — {meta['started_utc']}", "",
          f"{files} files × {p['lines']} lines of {p['text']!r} ({p['file_size_bytes']} B/file), "
          f"{p['runs']} runs per variant and cell, interleaved (first variant rotating), "
          f"after {p['warmup_runs_per_filesystem']} untimed warm-up run(s) per variant and file system; "
          f"time = makespan of the write phase (earliest rank start to last rank end). block: each rank a contiguous equal "
          f"slice; dynamic: every writer thread takes --chunk files at a time from "
          f"{d['counter']}.", ""]
    if overhead:
        head = ["cell", "block ms median [min–max]", "dynamic ms median [min–max]",
                "ratio of medians dynamic / block", "paired ratio median [min–max]",
                "block µs/file", "dynamic µs/file", "dynamic files per rank (median)", f"≤ {goal}×"]
        md += [f"### Overhead of dynamic, no slow rank (goal: ≤ {goal}× block, ratio of medians)", "",
               "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for c in overhead:
            for x in c["comparisons"]:
                v, pr = x["variant"], x["paired_ratio"]
                name = (f"{fsname.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · "
                        f"{c['ranks']}r×{c['threads']}t · {variant_label(v)}")
                md.append("| " + " | ".join([
                    name, ms(c["block"]), ms(c[v]), f"{x['ratio_of_medians']:.3f}",
                    f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
                    f"{c['block']['us_per_file_median']:.1f}", f"{c[v]['us_per_file_median']:.1f}",
                    files_cell(c[v], []), "yes" if x["goal_met"] else "**no**"]) + " |")
        md += ["", f"Goal met in {d['summary']['overhead_rows_meeting_goal']} of {len(rows)} rows.", ""]
    if slow_cells:
        delay = slow_cells[0]["slow_delay_us"]
        slow = ", ".join(str(j) for j in slow_cells[0]["slow_ranks"])
        head = ["cell", "block ms median [min–max]", "dynamic ms median [min–max]",
                "speedup block / dynamic (ratio of medians)", "paired speedup median [min–max]",
                f"files taken under dynamic: rank {slow} / others (median)",
                f"rank {slow} slowdown (block, µs/file vs others)",
                "ideal N/Σsᵣ ms median [min–max]", "dynamic / ideal"]
        md += [f"### One slow rank: rank {slow} sleeps {delay} µs in every file (--slow-rank {slow} "
               f"--slow-delay-us {delay})", "",
               "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for c, x in ((c, x) for c in slow_cells for x in c["comparisons"]):
            dyn = x["variant"]
            ps, sd, ideal = x["paired_speedup"], c["slow_rank_slowdown_in_block"], c["ideal_makespan_s"]
            us = c["block"]["rank_us_per_file_median"]
            others = statistics.median(u for j, u in enumerate(us) if j not in c["slow_ranks"])
            slow_us = statistics.mean(us[j] for j in c["slow_ranks"])
            name = (f"{fsname.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · "
                    f"{c['ranks']}r×{c['threads']}t · {variant_label(dyn)}")
            md.append("| " + " | ".join([
                name, ms(c["block"]), ms(c[dyn]), f"{x['speedup_ratio_of_medians']:.2f}",
                f"{ps['median']:.2f} [{ps['min']:.2f}–{ps['max']:.2f}]",
                files_cell(c[dyn], c["slow_ranks"]),
                f"{sd['median']:.2f}× ({slow_us:.0f} vs {others:.0f})" if sd else "?",
                ms(ideal) if ideal else "?",
                f"{x['dynamic_over_ideal']:.3f}" if ideal else "?"]) + " |")
        md += ["", "Ideal: each rank's rate sᵣ = its files / its time in the block runs (where "
               "every rank writes N/R files); perfectly balanced, all ranks would finish together "
               "after N / Σ sᵣ (median over the block runs). Slowdown: the slow rank's µs per file "
               "over the median of the other ranks', in the block runs.", ""]
    return md

def scale_section(meta, raw_path):
    """Section "scale": fills meta["scale"]; returns its Markdown lines."""
    sc = meta["scale"]
    sp = sc["parameters"]
    with open(raw_path) as f:
        runs = sorted((json.loads(l) for l in f if l.strip()), key=lambda r: r["files"])
    sc["runs"] = runs
    goal_mib, goal_growth = sp["rss_goal_mib"], sp["growth_goal"]
    sizes = " and ".join(f"{r['files']:,}" for r in runs) or "no"
    md = [f"## Scale: time and memory at {sizes} files — {meta['started_utc']}", "",
          f"One run per size: `mpiwrite -np {sp['ranks']} -t {sp['threads']} --write-mode "
          f"{sp['mode']} --verify --cleanup` ({meta['parameters']['lines']} lines of "
          f"{meta['parameters']['text']!r} per file). Wall = the whole mpirun (start-up, write, "
          f"verify, removal, report); write and verify = makespans (earliest rank start to last rank end); peak RSS = "
          f"each rank's getrusage ru_maxrss at the end of the run.", ""]
    head = ["files", "file system", "wall s", "write s", "files/s", "verify s",
            "verify checked / mismatches", "removal s", "peak RSS max MiB (rank)",
            "peak RSS per rank KiB"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in runs:
        removal = f"{r['removal_s']:.2f}" if r.get("removal_s") is not None else "?"
        md.append("| " + " | ".join([
            f"{r['files']:,}", f"{r['fs']} ({r['fs_type']})", f"{r['wall_s']:.1f}",
            f"{r['write_s']:.2f}", f"{r['files_per_s']:.0f}", f"{r['verify_s']:.2f}",
            f"{r['verify_files_checked']:,} / {r['verify_mismatches']}", removal,
            f"{r['peak_rss_max_kib'] / 1024:.1f} ({r['peak_rss_max_rank']})",
            ", ".join(str(x) for x in r["peak_rss_kib"])]) + " |")
    summary = {}
    if runs:
        big, small = runs[-1], runs[0]
        growth = big["peak_rss_max_kib"] / small["peak_rss_max_kib"]
        summary = {"largest_files": big["files"], "smallest_files": small["files"],
                   "peak_rss_max_mib_at_largest": big["peak_rss_max_kib"] / 1024,
                   "rss_goal_met": big["peak_rss_max_kib"] / 1024 < goal_mib,
                   "growth_ratio": growth, "growth_goal_met": growth < goal_growth,
                   "verify_mismatches": sum(r["verify_mismatches"] for r in runs)}
        yes = {True: "met", False: "**not met**"}
        md += ["", f"Largest rank's peak RSS at {big['files']:,} files: "
               f"{summary['peak_rss_max_mib_at_largest']:.1f} MiB (goal < {goal_mib} MiB: "
               f"{yes[summary['rss_goal_met']]}); growth from {small['files']:,} files: "
               f"{growth:.3f}× (goal < {goal_growth}×: {yes[summary['growth_goal_met']]}). "
               f"Verify mismatches: {summary['verify_mismatches']}.", ""]
    sc["summary"] = summary
    return md

def overhead_section(meta, raw_path):
    """Section "overhead": fills meta["overhead"]; returns its Markdown lines."""
    ov = meta["overhead"]
    op = ov["parameters"]
    with open(raw_path) as f:
        runs = [json.loads(l) for l in f if l.strip()]
    goal = op["goal_ns_per_file_per_thread"]
    for r in runs:
        r["goal_met"] = r["ns_per_file_per_thread"] < goal
    ov["runs"] = runs
    ov["summary"] = {"cells": len(runs), "cells_meeting_goal": sum(r["goal_met"] for r in runs),
                     "goal_ns_per_file_per_thread": goal}
    md = [f"## Overhead: mpiwrite's own cost per file (--engine null) — {meta['started_utc']}", "",
          f"One `mpiwrite --engine null -n N -r {op['repetitions']} --warmup 0 --format json` per "
          f"layout (N = {op['files']:,}): everything but the I/O (partition, file names, two clock "
          f"reads per file, latency histogram); median and min–max of the "
          f"{op['repetitions']} repetitions' makespans (`makespan_s`: the earliest rank start to the last rank end). "
          f"**ns/file** = median makespan / N: the job's throughput cost. "
          f"**ns/file per thread** = median makespan × ranks × threads / N: what one writer "
          f"thread spends on each of its own files (each writes N / (ranks × threads)). "
          f"Goal: < {goal:g} ns/file per thread.", ""]
    head = ["cell", "files", "makespan ms median [min–max]", "ns/file (makespan / N)",
            "ns/file per thread (makespan × R×T / N)", f"< {goal:g} ns per thread", "mpirun wall s"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in runs:
        s = r["makespan"]
        md.append("| " + " | ".join([
            f"{r['ranks']}r×{r['threads']}t", f"{r['files']:,}", ms(s), f"{r['ns_per_file']:.1f}",
            f"{r['ns_per_file_per_thread']:.1f}", "yes" if r["goal_met"] else "**no**",
            f"{r['wall_s']:.2f}"]) + " |")
    md += ["", f"Goal met in {ov['summary']['cells_meeting_goal']} of {len(runs)} cells.", ""]
    return md

def startup_section(meta, raw_path):
    """Section "startup": fills meta["startup"]; returns its Markdown lines."""
    st = meta["startup"]
    sp = st["parameters"]
    variants = sp["variants"]
    runs = {}
    with open(raw_path) as f:
        for line in f:
            run_no, position, variant, seconds = line.rstrip("\n").split("\t")
            r = runs.setdefault(int(run_no), {"run": int(run_no), "order": []})
            r["order"].append(variant)
            r[variant + "_s"] = float(seconds)
    runs = [runs[k] for k in sorted(runs)]
    st["runs"] = runs
    st["stats"] = {v: stats([r[v + "_s"] for r in runs if v + "_s" in r]) for v in variants}
    base = variants[0]

    def diff(a, b):
        pairs = [r[a + "_s"] - r[b + "_s"] for r in runs if a + "_s" in r and b + "_s" in r]
        return {"difference_of_medians_s": st["stats"][a]["median"] - st["stats"][b]["median"],
                "paired_difference_s": stats(pairs)}

    st["over_baseline"] = {v: diff(v, base) for v in variants[1:]}
    if "mpiwrite" in variants and "mpiwrite-null" in variants:
        st["posix_over_null"] = diff("mpiwrite", "mpiwrite-null")
    if "mpiwrite" in variants and "mpi-init" in variants:
        st["mpiwrite_over_mpi_init"] = diff("mpiwrite", "mpi-init")
    np_ = sp["np"]
    md = [f"## Start-up: whole-process wall time of `mpirun -np {np_}` — {meta['started_utc']}", "",
          f"{sp['runs']} runs per variant, interleaved (first variant rotating), after "
          f"{sp['warmup']} untimed warm-up run(s) of each; wall = from before the launch of "
          f"mpirun to its exit, bash `EPOCHREALTIME` (µs); `sync` before each run, untimed. "
          f"Every mpiwrite run gets a fresh directory on {sp['fs']} ({sp['fs_type']}), "
          f"table report to /dev/null. Over baseline = mpiwrite's start-up, write of 1 file, "
          f"report and shutdown beyond a bare `mpirun -np {np_} true`.", ""]
    head = ["variant", "command", "wall ms median [min–max]", "over baseline ms (difference of medians)",
            "paired difference ms median [min–max]"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for v in variants:
        s = st["stats"][v]
        if v == base:
            over = ["—", "—"]
        else:
            d = st["over_baseline"][v]
            pd = d["paired_difference_s"]
            over = [f"{d['difference_of_medians_s'] * 1e3:+.1f}",
                    f"{pd['median'] * 1e3:+.1f} [{pd['min'] * 1e3:+.1f}–{pd['max'] * 1e3:+.1f}]"]
        md.append("| " + " | ".join([v, f"`{sp['commands'][v]}`", ms(s)] + over) + " |")
    md.append("")
    if "posix_over_null" in st:
        d = st["posix_over_null"]
        pd = d["paired_difference_s"]
        md += [f"mpiwrite (posix) over mpiwrite --engine null: "
               f"{d['difference_of_medians_s'] * 1e3:+.1f} ms (difference of medians), paired "
               f"{pd['median'] * 1e3:+.1f} [{pd['min'] * 1e3:+.1f}–{pd['max'] * 1e3:+.1f}] ms: "
               f"the I/O part (directory and one file).", ""]
    if "mpiwrite_over_mpi_init" in st:
        d = st["mpiwrite_over_mpi_init"]
        pd = d["paired_difference_s"]
        md += [f"mpiwrite over a program that only calls MPI_Init and MPI_Finalize (mpi-init): "
               f"{d['difference_of_medians_s'] * 1e3:+.1f} ms (difference of medians), paired "
               f"{pd['median'] * 1e3:+.1f} [{pd['min'] * 1e3:+.1f}–{pd['max'] * 1e3:+.1f}] ms: "
               f"mpiwrite's own start-up, run and report beyond what any Open MPI program pays.", ""]
    return md

def alloc_section(meta, raw_path):
    """Section "alloc": fills meta["alloc"]; returns its Markdown lines."""
    al = meta["alloc"]
    ap = al["parameters"]
    goal = ap["goal_allocs_per_file"]
    groups = {}
    with open(raw_path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                groups.setdefault((r["engine"], r["layout"]), []).append(r)
    cells = []
    for (engine, layout), runs in groups.items():
        runs.sort(key=lambda r: r["files"])
        small, big = runs[0], runs[-1]
        per_file = ((big["allocs_total"] - small["allocs_total"]) / (big["files"] - small["files"])
                    if big["files"] > small["files"] else None)
        cells.append({"engine": engine, "layout": layout, "ranks": small["ranks"],
                      "threads": small["threads"], "runs": runs,
                      "allocs_per_extra_file": per_file,
                      "goal_met": per_file is not None and per_file < goal})
    al["cells"] = cells
    al["summary"] = {"cells": len(cells), "cells_meeting_goal": sum(c["goal_met"] for c in cells),
                     "goal_allocs_per_file": goal,
                     "max_allocs_per_extra_file": max((c["allocs_per_extra_file"] for c in cells
                                                       if c["allocs_per_extra_file"] is not None),
                                                      default=None)}
    sizes = sorted({r["files"] for c in cells for r in c["runs"]})
    md = [f"## Heap allocations per file (counting allocator) — {meta['started_utc']}", "",
          f"`{meta['parameters']['mpirun']} -x LD_PRELOAD=libmpiwrite_alloc_count.so -np R mpiwrite "
          f"-t T --engine E --write-mode {ap['mode']} --partition block -r 1` on tmpfs at "
          f"{' and '.join(f'{n:,}' for n in sizes)} files, one run each. The preloaded "
          f"bench/alloc_count.cpp counts every malloc, calloc, realloc and aligned allocation "
          f"(operator new included) of each rank over its whole life, MPI_Init to exit; the "
          f"tables sum the ranks. Per extra file = (allocations at {sizes[-1]:,} − at "
          f"{sizes[0]:,}) / {sizes[-1] - sizes[0]:,}: what does not depend on the file count "
          f"cancels. Goal: < {goal:g} per file, i.e. none. (A run's count varies by ~10 from "
          f"run to run, Open MPI's: ±{10 / (sizes[-1] - sizes[0]):.5f} per file at these sizes.)", ""]
    head = ["cell", "engine"] + [f"allocations at {n:,} files" for n in sizes] + [
        "per extra file", f"< {goal:g}", f"per rank at {sizes[-1]:,} files"]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cells:
        by = {r["files"]: r for r in c["runs"]}
        pf = c["allocs_per_extra_file"]
        md.append("| " + " | ".join(
            [f"{c['ranks']}r×{c['threads']}t", c["engine"]] +
            [f"{by[n]['allocs_total']:,}" if n in by else "—" for n in sizes] +
            [f"{pf:.5f}" if pf is not None else "?", "yes" if c["goal_met"] else "**no**",
             ", ".join(f"{x:,}" for x in by[sizes[-1]]["allocs_per_process"]) if sizes[-1] in by else "—"]) + " |")
    md += ["", f"Goal met in {al['summary']['cells_meeting_goal']} of {len(cells)} cells.", ""]
    return md

def uring_section(meta, raw_engine_path, raw_probe_path):
    """Section "uring": fills meta["uring"]; returns its Markdown lines."""
    u = meta["uring"]
    up = u["parameters"]
    goal = up["goal_ratio"]
    md = [f"## --engine uring — {meta['started_utc']}", ""]

    # Part A: cells (fs, mode, in flight), each with its variants' runs.
    cells = {}
    with open(raw_engine_path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            key = (r["fs"], r["mode"], r["in_flight"])
            c = cells.setdefault(key, {"fs": r["fs"], "fs_type": r["fs_type"], "mode": r["mode"],
                                       "in_flight": r["in_flight"], "runs": {}})
            run = c["runs"].setdefault(r["run"], {"run": r["run"], "order": []})
            run["order"].append(r["variant"])
            run[r["variant"] + "_s"] = r["makespan_s"]
    files = up["files"]
    out = []
    for c in cells.values():  # in the order they ran: file system, mode, in flight
        runs = [c["runs"][k] for k in sorted(c["runs"])]
        c["runs"] = runs
        c["variants"] = [v for v in ("posix-threads", "uring", "posix-procs")
                         if any(v + "_s" in r for r in runs)]
        for v in c["variants"]:
            st = stats([r[v + "_s"] for r in runs if v + "_s" in r])
            st["us_per_file_median"] = st["median"] / files * 1e6
            c[v] = st
        c["uring_over_posix_threads"] = c["uring"]["median"] / c["posix-threads"]["median"]
        c["paired_uring_over_posix_threads"] = stats(
            [r["uring_s"] / r["posix-threads_s"] for r in runs if "uring_s" in r and "posix-threads_s" in r])
        if "posix-procs" in c:
            c["uring_over_posix_procs"] = c["uring"]["median"] / c["posix-procs"]["median"]
        c["goal_applies"] = c["fs"] == "shm"
        c["goal_met"] = c["uring_over_posix_threads"] <= goal if c["goal_applies"] else None
        out.append(c)
    for c in out:  # against one plain posix thread: the c = 1 cell's posix-threads median
        one = cells.get((c["fs"], c["mode"], 1))
        c["uring_over_one_posix_thread"] = (c["uring"]["median"] / one["posix-threads"]["median"]
                                            if one else None)
    u["engine_cells"] = out
    with_goal = [c for c in out if c["goal_applies"]]
    beats = {}
    for c in out:
        k = f"{c['fs']}/{c['mode']}"
        x = c["uring_over_one_posix_thread"]
        if x is not None and x < 1 and k not in beats:
            beats[k] = c["in_flight"]
    summary = {"engine_cells": len(out), "engine_cells_with_goal": len(with_goal),
               "engine_cells_meeting_goal": sum(bool(c["goal_met"]) for c in with_goal),
               "goal_ratio": goal,
               "max_ratio_on_tmpfs": max((c["uring_over_posix_threads"] for c in with_goal), default=None),
               "least_in_flight_beating_one_posix_thread": beats}
    if out:
        head = ["cell", "runs", "posix threads ms median [min–max]", "uring ms median [min–max]",
                "posix 2 procs ms median [min–max]", "posix threads µs/file", "uring µs/file",
                "uring / posix threads (ratio of medians)", "paired ratio median [min–max]",
                "uring / posix procs", "uring / 1 posix thread", f"≤ {goal}× (tmpfs)"]
        md += [f"### A. The engine at equal in-flight files (goal: uring ≤ {goal}× posix threads on tmpfs)", "",
               f"{files:,} files × {meta['parameters']['lines']} lines of {meta['parameters']['text']!r} "
               f"per run; {up['runs']} runs per variant and cell, interleaved (first variant rotating), "
               f"after {meta['parameters']['warmup_runs_per_filesystem']} untimed warm-up run(s) per "
               f"variant and file system; time = makespan of the write phase. c files in flight: "
               f"posix threads = `mpirun -np 1 mpiwrite -t c`; uring = `mpirun -np 1 mpiwrite "
               f"--engine uring -q c` (one thread); posix 2 procs = `mpirun -np 2 mpiwrite` "
               f"(c = 2 only). uring / 1 posix thread: against the posix-threads median at c = 1 "
               f"of the same file system and mode. Local disk: no goal, for information.", "",
               "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for c in out:
            pr = c["paired_uring_over_posix_threads"]
            one = c["uring_over_one_posix_thread"]
            verdict = ("info only" if not c["goal_applies"] else "yes" if c["goal_met"] else "**no**")
            md.append("| " + " | ".join([
                f"{fsname.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · {c['in_flight']} in flight",
                str(len(c["runs"])), ms(c["posix-threads"]), ms(c["uring"]),
                ms(c["posix-procs"]) if "posix-procs" in c else "—",
                f"{c['posix-threads']['us_per_file_median']:.1f}",
                f"{c['uring']['us_per_file_median']:.1f}",
                f"{c['uring_over_posix_threads']:.3f}",
                f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
                f"{c['uring_over_posix_procs']:.3f}" if "uring_over_posix_procs" in c else "—",
                f"{one:.3f}" if one is not None else "—", verdict]) + " |")
        md.append("")
        if with_goal:
            md.append(f"Goal met in {summary['engine_cells_meeting_goal']} of {len(with_goal)} tmpfs "
                      f"cells (largest ratio {summary['max_ratio_on_tmpfs']:.3f}).")
        groups = sorted({(c["fs"], c["mode"], c["fs_type"]) for c in out},
                        key=lambda g: [(c["fs"], c["mode"]) for c in out].index(g[:2]))
        for fs, mode, fstype in groups:
            k = f"{fs}/{mode}"
            if k in beats:
                md.append(f"{fsname.get(fs, fs)} ({fstype}) · {mode}: uring is first faster than "
                          f"one posix thread at {beats[k]} file{'s' if beats[k] > 1 else ''} in flight.")
            elif any(c["fs"] == fs and c["mode"] == mode and c["in_flight"] == 1 for c in out):
                md.append(f"{fsname.get(fs, fs)} ({fstype}) · {mode}: uring does not beat one posix "
                          f"thread at any depth measured.")
        md.append("")

    # Part B: the probe's variants, one cell per mode.
    probe = {}
    pfiles = up["probe_files"]
    if raw_probe_path and os.path.exists(raw_probe_path):
        with open(raw_probe_path) as f:
            for line in f:
                if not line.strip():
                    continue
                mode, qd, variant, run_no, position, seconds = line.rstrip("\n").split("\t")
                m = probe.setdefault(mode, {"mode": mode, "runs": {}})
                r = m["runs"].setdefault(int(run_no), {"run": int(run_no), "order": []})
                key = f"{variant}@{qd}"
                r["order"].append(key)
                r[key] = float(seconds)
    probe_cells = []
    for m in probe.values():
        runs = [m["runs"][k] for k in sorted(m["runs"])]
        base = stats([r["posix@1"] for r in runs if "posix@1" in r])
        rows = []
        for qd in up["probe_depths"]:
            for v in up["probe_variants"]:
                xs = [r[f"{v}@{qd}"] for r in runs if f"{v}@{qd}" in r]
                if not xs:
                    continue
                st = stats(xs)
                rows.append({"queue_depth": qd, "variant": v, "seconds": st,
                             "us_per_file_median": st["median"] / pfiles * 1e6,
                             "us_per_file_min": st["min"] / pfiles * 1e6,
                             "us_per_file_max": st["max"] / pfiles * 1e6,
                             "ratio_to_posix": st["median"] / base["median"]})
        probe_cells.append({"mode": m["mode"], "files": pfiles, "runs": runs, "posix": base |
                            {"us_per_file_median": base["median"] / pfiles * 1e6},
                            "rows": rows})
    u["probe_cells"] = probe_cells
    if probe_cells:
        best = {}
        for pc in probe_cells:
            b = min(pc["rows"], key=lambda x: x["seconds"]["median"], default=None)
            if b:
                best[pc["mode"]] = {"variant": b["variant"], "queue_depth": b["queue_depth"],
                                    "ratio_to_posix": b["ratio_to_posix"]}
        summary["probe_fastest"] = best
        depths = up["probe_depths"]
        md += ["### B. What makes io_uring fast or slow (mpiwrite_uring_probe, tmpfs)", "",
               f"One thread, one ring, no MPI: `mpiwrite_uring_probe DIR {pfiles} "
               f"{meta['parameters']['lines']} MODE QD VARIANT [MODIFIER...]` ({pfiles:,} files of "
               f"{meta['parameters']['lines']} lines of 'Hello, world!'), {up['probe_runs']} runs per "
               f"variant and depth, all of a mode interleaved in one cell (first rotating), after "
               f"{up['probe_warmup']} untimed warm-up round(s); time = the probe's wall time of its "
               f"loop (ring set-up and teardown included); every run into a fresh directory on tmpfs. "
               f"posix = blocking openat/write/close (QD 1); regular = openat into a regular "
               f"descriptor, then writes + close; split = openat into a direct descriptor, then "
               f"writes + close; direct = one linked chain openat → writes → close (mpiwrite's). "
               f"Modifiers: skip = CQE_SKIP_SUCCESS, coop = COOP_TASKRUN, defer = "
               f"SINGLE_ISSUER|DEFER_TASKRUN, async = IOSQE_ASYNC, regbuf = WRITE_FIXED, sqpoll = "
               f"SQPOLL, spin = poll the completion queue. × posix = ratio of medians "
               f"(below 1: faster than posix).", ""]
        for pc in probe_cells:
            b = pc["posix"]
            head = ["variant"] + [x for qd in depths for x in (f"QD {qd} µs/file median [min–max]", f"QD {qd} × posix")]
            md += [f"{pc['mode']} mode: posix {b['us_per_file_median']:.1f} µs/file "
                   f"[{b['min'] / pfiles * 1e6:.1f}–{b['max'] / pfiles * 1e6:.1f}].", "",
                   "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            for v in up["probe_variants"]:
                row = [v]
                for qd in depths:
                    x = next((x for x in pc["rows"] if x["variant"] == v and x["queue_depth"] == qd), None)
                    row += ([f"{x['us_per_file_median']:.1f} [{x['us_per_file_min']:.1f}–{x['us_per_file_max']:.1f}]",
                             f"{x['ratio_to_posix']:.2f}"] if x else ["—", "—"])
                md.append("| " + " | ".join(row) + " |")
            md.append("")
            if pc["mode"] in best:
                bb = best[pc["mode"]]
                md += [f"Fastest in {pc['mode']} mode: {bb['variant']} at QD {bb['queue_depth']}, "
                       f"{bb['ratio_to_posix']:.2f}× posix.", ""]
    u["summary"] = summary
    return md

def summarize(meta_path, raw_path, raw_dyn_path, raw_dynh_path, raw_scale_path, raw_ovh_path, raw_startup_path,
              raw_alloc_path, raw_uring_path, raw_uring_probe_path, json_out, md_out):
    with open(meta_path) as f:
        meta = json.load(f)
    p = meta["parameters"]
    md = []
    if "overhead" in meta["sections"]:
        md += overhead_section(meta, raw_ovh_path)
    if "startup" in meta["sections"]:
        md += startup_section(meta, raw_startup_path)
    if "alloc" in meta["sections"]:
        md += alloc_section(meta, raw_alloc_path)
    if "floor" in meta["sections"]:
        md += floor_section(meta, raw_path)
    if "dynamic" in meta["sections"]:
        md += dynamic_section(meta, raw_dyn_path)
    if "dynamic-hosts" in meta["sections"]:
        md += dynamic_section(meta, raw_dynh_path, "dynamic_hosts")
    if "uring" in meta["sections"]:
        md += uring_section(meta, raw_uring_path, raw_uring_probe_path)
    if "scale" in meta["sections"]:
        md += scale_section(meta, raw_scale_path)
    m = meta["machine"]
    fss = m.get("filesystems", {})
    journal = {True: " with a journal", False: " without a journal"}
    md += [f"Machine: {m.get('cpu', '?')}, nproc {m['nproc']}, kernel {m['kernel']}, "
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
        # /2: "sections"; "cells" and "summary" only with the floor section; "dynamic".
        # /3: "scale" (with the scale section). /4: "overhead" and "startup". /5: "alloc";
        # the floor at several sizes: every cell has "files" and "runs_per_program", "goal_met"
        # is null where no goal applies (fewer than goal_min_files), parameters "floor_sizes"
        # and "goal_min_files"; "files" and "runs" are the dynamic section's. /6: "uring"
        # (with the uring section): "parameters", "engine_cells" (part A; each run: "order"
        # and VARIANT_s), "probe_cells" (part B; each run: "order" and "VARIANT@QD": seconds)
        # and "summary". /7: "dynamic_hosts" (with the dynamic-hosts section); the dynamic
        # sections' slow cells list every dynamic variant in "comparisons".
        "schema": "mpiwrite-bench/7",
        "sections": e["BENCH_SECTIONS"].split(),
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
            "goal_min_files": int(e["BENCH_FLOOR_GOAL_MIN_FILES"]),
            "floor_sizes": [{"files": int(n), "runs": int(r)} for n, r in
                            zip(e["BENCH_FLOOR_FILES"].split(), e["BENCH_FLOOR_RUNS"].split())],
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
    if "dynamic" in meta["sections"]:
        meta["dynamic"] = {"parameters": {
            "overhead_variants": e["BENCH_DYN_VARIANTS"].split(),
            "overhead_layouts": e["BENCH_DYN_LAYOUTS"].split(), "mode": e["BENCH_DYN_MODE"],
            "overhead_filesystems": ["local", "shm"],
            "slow_variants": e["BENCH_DYN_SLOW_VARIANTS"].split(),
            "slow_layouts": e["BENCH_DYN_SLOW_LAYOUTS"].split(), "slow_filesystems": ["shm"],
            "slow_ranks": [int(e["BENCH_DYN_SLOW_RANK"])],
            "slow_delay_us": int(e["BENCH_DYN_SLOW_DELAY_US"]),
            "variant_names": "block: --partition block; dynamic-cK: --partition dynamic --chunk K",
            "order": "per cell, runs interleaved; the first variant rotates every run and every cell",
            "goal_ratio": 1.03,
        }, "title": "--partition dynamic vs. block",
           "counter": "an MPI-3 counter on rank 0 (MPI_Fetch_and_op + MPI_Win_flush; one node)"}
    if "dynamic-hosts" in meta["sections"]:
        variants = e["BENCH_DH_VARIANTS"].split()
        meta["dynamic_hosts"] = {"parameters": {
            "overhead_variants": variants, "overhead_layouts": ["2x1"], "mode": e["BENCH_DYN_MODE"],
            "overhead_filesystems": ["shm"], "slow_variants": variants, "slow_layouts": ["2x1"],
            "slow_filesystems": ["shm"], "slow_ranks": [int(e["BENCH_DYN_SLOW_RANK"])],
            "slow_delay_us": int(e["BENCH_DYN_SLOW_DELAY_US"]),
            "hosts": "scripts/cluster/netns-up.sh: mpihostA (rank 0) and mpihostB (rank 1), TCP between them",
            "variant_names": "block: --partition block; dynamic-cK: --partition dynamic --chunk K; "
                             "dynamic-cK-nopf: the same with MPIWRITE_NO_PREFETCH=1",
            "order": "per cell, runs interleaved; the first variant rotates every run and every cell",
            "files_removed": "after each run (tmpfs)",
            "goal_ratio": 1.03,
        }, "title": "--partition dynamic vs. block across two hosts",
           "counter": "rank 0 by messages (rank 0's main thread answers; each writer prefetches "
                      "its next chunk unless -nopf)"}
    if "scale" in meta["sections"]:
        ranks, threads = (int(x) for x in e["BENCH_SCALE_LAYOUT"].split("x"))
        meta["scale"] = {"parameters": {
            "files": [int(x) for x in e["BENCH_SCALE_FILES"].split()], "ranks": ranks,
            "threads": threads, "mode": e["BENCH_SCALE_MODE"],
            "options": "--verify --cleanup --partition block -r 1 --format json",
            "rss_goal_mib": int(e["BENCH_SCALE_RSS_GOAL_MIB"]),
            "growth_goal": float(e["BENCH_SCALE_GROWTH_GOAL"]),
            "runs_per_size": 1,
        }}
    if "overhead" in meta["sections"]:
        meta["overhead"] = {"parameters": {
            "files": int(e["BENCH_OVH_FILES"]), "layouts": e["BENCH_OVH_LAYOUTS"].split(),
            "repetitions": int(e["BENCH_OVH_REPS"]),
            "options": "--engine null --partition block --warmup 0 --format json",
            "goal_ns_per_file_per_thread": float(e["BENCH_OVH_GOAL_NS"]),
            "ns_per_file": "median makespan / files",
            "ns_per_file_per_thread": "median makespan * ranks * threads / files",
        }}
    if "alloc" in meta["sections"]:
        meta["alloc"] = {"parameters": {
            "files": [int(x) for x in e["BENCH_ALLOC_FILES"].split()],
            "layouts": e["BENCH_ALLOC_LAYOUTS"].split(), "engines": e["BENCH_ALLOC_ENGINES"].split(),
            "mode": e["BENCH_ALLOC_MODE"], "fs": "shm", "fs_type": e["BENCH_SHM_FS"],
            "options": "--partition block -r 1 --warmup 0 --format json",
            "counter": "bench/alloc_count.cpp via mpirun -x LD_PRELOAD: malloc, calloc, realloc, "
                       "reallocarray, aligned_alloc, posix_memalign, memalign, valloc, pvalloc "
                       "calls (operator new included), per process, whole life",
            "allocs_per_extra_file": "(sum over ranks at the largest size - at the smallest) / "
                                     "(largest - smallest)",
            "goal_allocs_per_file": float(e["BENCH_ALLOC_GOAL"]),
            "runs_per_size": 1,
        }}
    if "uring" in meta["sections"]:
        meta["uring"] = {"parameters": {
            "files": int(e["BENCH_URING_FILES"]), "runs": int(e["BENCH_URING_RUNS"]),
            "in_flight": [int(x) for x in e["BENCH_URING_DEPTHS"].split()],
            "modes": e["BENCH_URING_MODES"].split(), "filesystems": ["local", "shm"],
            "variants": {
                "posix-threads": "mpirun -np 1 mpiwrite -t C (C threads, one file in flight each)",
                "uring": "mpirun -np 1 mpiwrite --engine uring -q C (one thread, C files in flight)",
                "posix-procs": "mpirun -np 2 mpiwrite (2 ranks x 1 thread; only at C = 2)"},
            "options": "--partition block -r 1 --warmup 0 --format json",
            "goal_ratio": float(e["BENCH_URING_GOAL"]),
            "goal": "uring / posix-threads (ratio of medians) <= goal_ratio on tmpfs; local disk: information only",
            "probe_files": int(e["BENCH_URING_PROBE_FILES"]),
            "probe_runs": int(e["BENCH_URING_PROBE_RUNS"]),
            "probe_depths": [int(x) for x in e["BENCH_URING_PROBE_DEPTHS"].split()],
            "probe_variants": [v for v in e["BENCH_URING_PROBE_VARIANTS"].split(",") if v],
            "probe_baseline": "posix at QD 1",
            "probe_warmup": int(e["BENCH_WARMUP"]),
            "probe_fs": "shm", "probe_fs_type": e["BENCH_SHM_FS"],
            "probe_command": "mpiwrite_uring_probe DIR FILES LINES MODE QD VARIANT [MODIFIER...]",
            "order": "per cell, runs interleaved; the first variant rotates every run and every cell",
        }}
    if "startup" in meta["sections"]:
        variants = e["BENCH_STARTUP_VARIANTS"].split()
        meta["startup"] = {"parameters": {
            "np": int(e["BENCH_STARTUP_NP"]), "runs": int(e["BENCH_STARTUP_RUNS"]),
            "warmup": int(e["BENCH_WARMUP"]), "variants": variants,
            "commands": {v: e["BENCH_STARTUP_CMD_" + v.replace("-", "_").upper()] for v in variants},
            "fs": "shm", "fs_type": e["BENCH_SHM_FS"], "clock": "bash EPOCHREALTIME",
            "order": "runs interleaved; the first variant rotates every run",
        }}
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
elif cmd == "record":
    record(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), *sys.argv[7:])
elif cmd == "scale-record":
    scale_record(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                 *sys.argv[7:10])
elif cmd == "overhead-record":
    overhead_record(sys.argv[2], sys.argv[3], *(int(x) for x in sys.argv[4:8]), *sys.argv[8:11])
elif cmd == "alloc-record":
    alloc_record(*sys.argv[2:5], *(int(x) for x in sys.argv[5:8]), *sys.argv[8:12])
elif cmd == "uring-record":
    uring_record(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                 sys.argv[7], int(sys.argv[8]), sys.argv[9], *sys.argv[10:])
elif cmd == "summarize":
    summarize(*sys.argv[2:14])
else:
    sys.exit(f"helper: unknown command {cmd}")
PY
helper() { python3 "$work/helper.py" "$@"; }

# ---------------------------------------------------------------------------------------------
# Build (Release; no tests: the benchmark needs only mpiwrite, the floor, the counting
# allocator and the io_uring probe).
log "building into $BUILD_DIR"
if ! { cmake -S "$repo" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DMPIWRITE_BUILD_TESTS=OFF &&
  cmake --build "$BUILD_DIR" -j "$(nproc)" --target mpiwrite mpiwrite_floor mpiwrite_alloc_count \
    mpiwrite_uring_probe; } >"$work/build.log" 2>&1
then
  cat "$work/build.log" >&2
  die "build failed"
fi
mpiwrite_bin=$BUILD_DIR/mpiwrite
floor_bin=$BUILD_DIR/mpiwrite_floor
alloc_lib=$BUILD_DIR/libmpiwrite_alloc_count.so
probe_bin=$BUILD_DIR/mpiwrite_uring_probe
[[ -x $mpiwrite_bin && -x $floor_bin ]] || die "build did not produce mpiwrite and mpiwrite_floor"
[[ -x $probe_bin ]] || die "build did not produce $probe_bin"
[[ -r $alloc_lib ]] || die "build did not produce $alloc_lib"

# The startup section's variants, the baseline first; mpi-init (MPI_Init + MPI_Finalize and
# nothing else, built here with MPICC) when wanted and MPICC can build it.
startup_variants=(true)
if want startup && ((STARTUP_MPI_INIT)); then
  printf '%s\n' '#include <mpi.h>' \
    'int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }' \
    >"$work/mpi_init.c"
  if "$MPICC" -O2 -o "$work/mpi_init" "$work/mpi_init.c" >"$work/mpi_init.log" 2>&1; then
    startup_variants+=(mpi-init)
  else
    log "note: $MPICC could not build the MPI_Init-only program; the startup section goes on without it"
  fi
fi
startup_variants+=(mpiwrite)
((STARTUP_NULL == 0)) || startup_variants+=(mpiwrite-null)

if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# ---------------------------------------------------------------------------------------------
# Up-front checks: space for the local files that stay until the end, the inode trap.
file_size=$((LINES * (${#TEXT} + 1)))  # ${#TEXT} counts characters: fine for ASCII text
blocks_per_file=$(((file_size + 4095) / 4096))
((blocks_per_file > 0)) || blocks_per_file=1
runs_per_fs=0  # runs whose files stay on the local disk until the end
files_per_fs=0  # and their files
shm_cell_files=1  # the most files a tmpfs cell (or an alloc run) holds at once
if want floor; then
  for n in "${floor_files[@]}"; do  # per size: its cells' runs and WARMUP, of each program
    runs=$(((floor_runs[$n] * ${#modes[@]} * ${#layouts[@]} + WARMUP) * ${#programs[@]}))
    runs_per_fs=$((runs_per_fs + runs))
    files_per_fs=$((files_per_fs + n * runs))
    cell_files=$((n * floor_runs[$n] * ${#programs[@]}))
    ((cell_files <= shm_cell_files)) || shm_cell_files=$cell_files
  done
fi
if want dynamic; then
  runs=$(((RUNS * ${#dyn_layouts[@]} + WARMUP) * ${#dyn_variants[@]}))
  runs_per_fs=$((runs_per_fs + runs))
  files_per_fs=$((files_per_fs + FILES * runs))
  ((FILES * RUNS * ${#dyn_variants[@]} <= shm_cell_files)) || shm_cell_files=$((FILES * RUNS * ${#dyn_variants[@]}))
fi
if want dynamic-hosts; then  # one run at a time, removed right after it
  ((FILES <= shm_cell_files)) || shm_cell_files=$FILES
fi
if want alloc; then  # one run at a time, removed right after it
  ((alloc_files[-1] <= shm_cell_files)) || shm_cell_files=${alloc_files[-1]}
fi
if want uring; then
  # Part A: per file system, every (mode, depth) cell's runs (3 variants at 2 in flight, else
  # 2) and the warm-ups; a tmpfs cell keeps its files until it ends (at most 3 variants' runs).
  # Part B writes one run at a time on tmpfs, removed right after it.
  uring_runs=0 uring_warm=2
  for depth in "${uring_depths[@]}"; do
    if ((depth == 2)); then uring_runs=$((uring_runs + 3)); uring_warm=3; else uring_runs=$((uring_runs + 2)); fi
  done
  runs=$((uring_runs * URING_RUNS * ${#uring_modes[@]} + WARMUP * uring_warm))
  runs_per_fs=$((runs_per_fs + runs))
  files_per_fs=$((files_per_fs + URING_FILES * runs))
  cell_files=$((URING_FILES * URING_RUNS * 3))
  ((cell_files <= shm_cell_files)) || shm_cell_files=$cell_files
  ((URING_PROBE_FILES <= shm_cell_files)) || shm_cell_files=$URING_PROBE_FILES
fi
need_inodes=$((files_per_fs + runs_per_fs))
need_kib=$((files_per_fs * blocks_per_file * 4 * 11 / 10 + 1024))
read -r avail_kib avail_inodes < <(df --output=avail,iavail "$local_scratch" | tail -n 1)
if [[ $avail_inodes =~ ^[0-9]+$ ]] && ((avail_inodes > 0 && avail_inodes < need_inodes)); then
  die "$tmp_root: $avail_inodes inodes free, the local-disk cells keep $need_inodes until the end"
fi
((avail_kib >= need_kib)) ||
  die "$tmp_root: $((avail_kib / 1024)) MiB free, the local-disk cells need ~$((need_kib / 1024)) MiB"
if want floor || want dynamic || want dynamic-hosts || want alloc || want uring; then
  shm_need_kib=$((shm_cell_files * blocks_per_file * 4 * 11 / 10 + 1024))
  read -r shm_avail_kib shm_avail_inodes < <(df --output=avail,iavail "$shm_scratch" | tail -n 1)
  ((shm_avail_kib >= shm_need_kib)) ||
    die "$shm_root: $((shm_avail_kib / 1024)) MiB free, a cell needs ~$((shm_need_kib / 1024)) MiB"
  if [[ $shm_avail_inodes =~ ^[0-9]+$ ]] && ((shm_avail_inodes > 0 && shm_avail_inodes < shm_cell_files + 1000)); then
    die "$shm_root: $shm_avail_inodes inodes free, a cell needs $shm_cell_files"
  fi
  # tmpfs lives in RAM: a page per file and ~1 KiB of inode and dentry (see the scale section).
  mem_avail_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null || true)
  if [[ $mem_avail_kib =~ ^[0-9]+$ ]] && ((mem_avail_kib < shm_need_kib + shm_cell_files + 1048576)); then
    die "only $((mem_avail_kib / 1024)) MiB of memory available, a tmpfs cell of $shm_cell_files files needs ~$(((shm_need_kib + shm_cell_files) / 1024 + 1024)) MiB"
  fi
fi

# The scale section: each size on tmpfs if it fits there (space, inodes, and memory, since
# tmpfs lives in RAM: a page per file and ~1 KiB of inode and dentry), else on the local
# disk (space and inodes); a size that fits neither stops the benchmark here.
declare -A scale_fs=()
if want scale; then
  mem_avail_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null || true)
  [[ $mem_avail_kib =~ ^[0-9]+$ ]] || mem_avail_kib=0
  read -r shm_avail_kib shm_avail_inodes < <(df --output=avail,iavail "$shm_scratch" | tail -n 1)
  read -r avail_kib avail_inodes < <(df --output=avail,iavail "$local_scratch" | tail -n 1)
  for n in "${scale_files[@]}"; do
    data_kib=$((n * blocks_per_file * 4 * 11 / 10 + 1024))
    shm_kib=$((data_kib + n))  # + ~1 KiB of inode and dentry per file
    if ((shm_avail_kib >= shm_kib && mem_avail_kib >= shm_kib + 1048576)) &&
      { ! [[ $shm_avail_inodes =~ ^[0-9]+$ ]] || ((shm_avail_inodes == 0 || shm_avail_inodes > n + 100)); }; then
      scale_fs[$n]=shm
    elif ((avail_kib >= data_kib + need_kib)) &&
      { ! [[ $avail_inodes =~ ^[0-9]+$ ]] || ((avail_inodes == 0 || avail_inodes > n + need_inodes + 100)); }; then
      scale_fs[$n]=local
      log "scale: $n files do not fit in $shm_root (or in memory): they go to the local disk $tmp_root"
    else
      die "scale: $n files need ~$((data_kib / 1024)) MiB and $n inodes: neither $shm_root nor $tmp_root has them"
    fi
  done
fi

# The overhead and startup sections use tmpfs only: they need not wait for the inode trap.
if { want floor || want dynamic || want uring || want scale; } && [[ -r $settle_marker ]]; then
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

# run_one PROGRAM DIR FILES RANKS THREADS MODE: prints the timed phase in seconds.
run_one() {
  local program=$1 dir=$2 files=$3 ranks=$4 threads=$5 mode=$6 seconds
  case $program in
    floor | floor-mt)
      mkdir -- "$dir"
      local idle=0
      [[ $program == floor ]] || idle=$FLOOR_IDLE_THREADS
      seconds=$(MPIWRITE_FLOOR_IDLE_THREADS=$idle "$floor_bin" "$dir" "$files" "$LINES" "$TEXT" \
        "$mode" "$ranks" "$threads" 2>"$work/last.err") ||
        { cat "$work/last.err" >&2; die "mpiwrite_floor failed in $dir"; }
      ;;
    mpiwrite)
      "$MPIRUN" "${mpirun_flags[@]}" -np "$ranks" "$mpiwrite_bin" --files "$files" \
        --lines "$LINES" --text "$TEXT" --dir "$dir" --threads "$threads" --write-mode "$mode" \
        --partition block --repetitions 1 --warmup 0 --format json \
        >"$work/last.json" 2>"$work/last.err" ||
        { cat "$work/last.err" >&2; die "mpiwrite failed in $dir"; }
      seconds=$(helper mpiwrite-seconds "$work/last.json" "$files" "$ranks" "$threads")
      ;;
  esac
  helper check "$dir" "$files" "$file_size" || die "wrong files in $dir"
  printf '%s\n' "$seconds"
}

started_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
start_epoch=$(date +%s)
raw=$work/raw.tsv
: >"$raw"
if want floor || want dynamic || want uring || want scale; then
  note "Local-disk files are kept until the end of the benchmark and removed only then (ext4 inode trap); on tmpfs the floor's files are removed after each run, the other sections' between series."
  note "Untimed between runs: sync. Between series (cells): sync and drop caches; on tmpfs the cell's files are removed first."
fi
raw_dyn=$work/raw-dynamic.jsonl
: >"$raw_dyn"
raw_dynh=$work/raw-dynamic-hosts.jsonl
: >"$raw_dynh"
raw_scale=$work/raw-scale.jsonl
: >"$raw_scale"
raw_ovh=$work/raw-overhead.jsonl
: >"$raw_ovh"
raw_startup=$work/raw-startup.tsv
: >"$raw_startup"
raw_alloc=$work/raw-alloc.jsonl
: >"$raw_alloc"
raw_uring=$work/raw-uring.jsonl
: >"$raw_uring"
raw_uring_probe=$work/raw-uring-probe.tsv
: >"$raw_uring_probe"

# ---------------------------------------------------------------------------------------------
# Section "floor": mpiwrite against the floor, at each size of FLOOR_FILES.
floor_section() {
  local fs base fstype n runs mode layout ranks threads cell_dir run k order summary position
  local program seconds warm_layout total_runs=0
  note "Every run writes into a fresh directory; mpiwrite runs as \`$MPIRUN ${MPIRUN_FLAGS} -np R mpiwrite -t T -r 1 --format json\`, the floor as a plain process that forks R processes of T threads."

  cells_total=$((${#floor_fs[@]} * ${#floor_files[@]} * ${#modes[@]} * ${#layouts[@]}))
  cell_no=0
  for n in "${floor_files[@]}"; do
    total_runs=$((total_runs + 2 * (floor_runs[$n] * ${#modes[@]} * ${#layouts[@]} + WARMUP) * ${#programs[@]}))
  done
  log "floor: $cells_total cells x ${#programs[@]} programs, sizes (files: runs per program and cell) $(for n in "${floor_files[@]}"; do printf '%s: %s, ' "$n" "${floor_runs[$n]}"; done)$total_runs runs in all with the warm-ups; local: $local_scratch ($local_fs), tmpfs: $shm_scratch ($shm_fs)"
  between_series
  # File system outermost: the local disk's files stay until the end (inode trap). On tmpfs
  # each run's files go right after it (untimed): kept for a whole cell, a 100,000-file cell
  # held 1,000,000 files by its last run, and creates slowed as they piled up (the first run
  # of a cell up to 2x faster than the last, bench-20261201T012347Z), a drift that 5 runs'
  # medians cannot cancel. Within a file system, the sizes ascending: a broken setup shows
  # early.
  for fs in "${floor_fs[@]}"; do
    if [[ $fs == local ]]; then base=$local_scratch fstype=$local_fs; else base=$shm_scratch fstype=$shm_fs; fi
    for n in "${floor_files[@]}"; do
      runs=${floor_runs[$n]}
      if ((WARMUP > 0)); then  # untimed, discarded
        warm_layout=${layouts[0]}
        mkdir -- "$base/warmup-$n"
        for ((run = 1; run <= WARMUP; run++)); do
          for program in "${programs[@]}"; do
            sync
            [[ $fs == local ]] && local_has_files=1
            seconds=$(run_one "$program" "$base/warmup-$n/run$run-$program" "$n" "${warm_layout%x*}" \
              "${warm_layout#*x}" "${modes[0]}")
            log "warm-up $fs $n files ${modes[0]} $warm_layout: $program $(ms_of "$seconds") ms (discarded)"
          done
        done
        if [[ $fs == shm ]]; then rm -rf -- "$base/warmup-$n"; fi
        between_series
      fi
      for mode in "${modes[@]}"; do
        for layout in "${layouts[@]}"; do
          cell_no=$((cell_no + 1))
          ranks=${layout%x*} threads=${layout#*x}
          cell_dir=$base/$n-$mode-$layout
          mkdir -- "$cell_dir"
          for ((run = 1; run <= runs; run++)); do
            # Rotate the order every run and every cell: with two programs, the first one
            # alternates within a cell, and the first run of consecutive cells starts with a
            # different one.
            rotate $((run - 1 + cell_no - 1)) "${programs[@]}"
            summary=()
            for ((position = 1; position <= ${#order[@]}; position++)); do
              program=${order[$((position - 1))]}
              sync
              [[ $fs == local ]] && local_has_files=1
              seconds=$(run_one "$program" "$cell_dir/run$run-$program" "$n" "$ranks" "$threads" "$mode")
              printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fs" "$fstype" "$n" "$mode" "$layout" \
                "$run" "$position" "$program" "$seconds" >>"$raw"
              summary+=("$program $(ms_of "$seconds")")
              if [[ $fs == shm ]]; then rm -rf -- "$cell_dir/run$run-$program"; fi
            done
            log "[$cell_no/$cells_total] $fs $n files $mode ${ranks}r x ${threads}t run $run/$runs: $(printf '%s ms  ' "${summary[@]}")"
          done
          if [[ $fs == shm ]]; then rm -rf -- "$cell_dir"; fi
          between_series
        done
      done
    done
  done
}

# ---------------------------------------------------------------------------------------------
# Section "dynamic": --partition block against --partition dynamic.

# run_variant VARIANT DIR RANKS THREADS MODE SLOW RECORD KEY=VALUE...: one mpiwrite run of the
# dynamic section (SLOW=1: with DYN_SLOW_RANK slowed). Checks its files, appends its record
# (the KEY=VALUE pairs, the makespan, per-rank files and times) to the file RECORD and prints
# the makespan in seconds.
run_variant() {
  local variant=$1 dir=$2 ranks=$3 threads=$4 mode=$5 slow=$6 record=$7
  shift 7
  local partition=block chunk=${dyn_chunks[0]:-8} extra=() slow_ranks='' delay=0 launch=()
  local prefetch=1
  if [[ $variant == dynamic-c* ]]; then partition=dynamic chunk=${variant#dynamic-c}; fi
  if [[ $variant == *-nopf ]]; then  # mpirun -x: the ranks on the other host get it too
    chunk=${chunk%-nopf} prefetch=0 launch=(-x MPIWRITE_NO_PREFETCH=1)
  fi
  if ((slow)); then
    slow_ranks=$DYN_SLOW_RANK delay=$DYN_SLOW_DELAY_US
    extra=(--slow-rank "$slow_ranks" --slow-delay-us "$delay")
  fi
  "$MPIRUN" "${mpirun_flags[@]}" "${launch[@]}" -np "$ranks" "$mpiwrite_bin" --files "$FILES" \
    --lines "$LINES" --text "$TEXT" --dir "$dir" --threads "$threads" --write-mode "$mode" \
    --partition "$partition" --chunk "$chunk" "${extra[@]}" --repetitions 1 --warmup 0 \
    --format json >"$work/last.json" 2>"$work/last.err" ||
    { cat "$work/last.err" >&2; die "mpiwrite --partition $partition failed in $dir"; }
  helper check "$dir" "$FILES" "$file_size" || die "wrong files in $dir"
  helper record "$work/last.json" "$record" "$FILES" "$ranks" "$threads" "variant=$variant" \
    "partition=$partition" "chunk=$chunk" "slow_ranks=$slow_ranks" "slow_delay_us=$delay" "mode=$mode" "prefetch=$prefetch" "$@"
}

ms_of() { awk -v s="$1" 'BEGIN { printf (s < 0.01 ? "%.3f" : "%.1f"), s * 1000 }'; }

# Sets order to the items rotated left by SHIFT: which program or variant runs first moves on
# every run (and, with the cell number in SHIFT, every cell), so none always runs first.
rotate() {
  local by=$1 k
  shift
  order=()
  for ((k = 0; k < $#; k++)); do order+=("${@:$(((k + by) % $# + 1)):1}"); done
}

# dyn_warmup FS: WARMUP untimed runs of every variant, on the first overhead layout.
dyn_warmup() {
  local fs=$1 base run variant seconds layout=${dyn_layouts[0]}
  if [[ $fs == local ]]; then base=$local_scratch; else base=$shm_scratch; fi
  mkdir -- "$base/dyn-warmup"
  for ((run = 1; run <= WARMUP; run++)); do
    for variant in "${dyn_variants[@]}"; do
      sync
      [[ $fs == local ]] && local_has_files=1
      seconds=$(run_variant "$variant" "$base/dyn-warmup/run$run-$variant" "${layout%x*}" \
        "${layout#*x}" "$DYN_MODE" 0 "$work/warmup.jsonl" "run=0" "position=0")
      log "warm-up $fs $DYN_MODE $layout: $variant $(ms_of "$seconds") ms (discarded)"
    done
  done
  if [[ $fs == shm ]]; then rm -rf -- "$base/dyn-warmup"; fi
  between_series
}

# dyn_cell PART FS LAYOUT SLOW VARIANT...: RUNS runs of each variant, interleaved.
dyn_cell() {
  local part=$1 fs=$2 layout=$3 slow=$4
  shift 4
  local variants=("$@") base fstype ranks=${layout%x*} threads=${layout#*x} cell_dir run k
  local order summary position variant seconds label=''
  if [[ $fs == local ]]; then base=$local_scratch fstype=$local_fs; else base=$shm_scratch fstype=$shm_fs; fi
  ((slow == 0)) || label=" (rank $DYN_SLOW_RANK +${DYN_SLOW_DELAY_US} µs/file)"
  dyn_cell_no=$((dyn_cell_no + 1))
  cell_dir=$base/dyn-$part-$DYN_MODE-$layout
  mkdir -- "$cell_dir"
  for ((run = 1; run <= RUNS; run++)); do
    rotate $((run - 1 + dyn_cell_no - 1)) "${variants[@]}"  # every run and every cell
    summary=()
    for ((position = 1; position <= ${#order[@]}; position++)); do
      variant=${order[$((position - 1))]}
      sync
      [[ $fs == local ]] && local_has_files=1
      seconds=$(run_variant "$variant" "$cell_dir/run$run-$variant" "$ranks" "$threads" "$DYN_MODE" \
        "$slow" "$raw_dyn" "part=$part" "fs=$fs" "fs_type=$fstype" "layout=$layout" \
        "run=$run" "position=$position")
      summary+=("$variant $(ms_of "$seconds")")
      # dynamic-hosts: as in the floor, so that creates do not slow as files pile up.
      if [[ -n $dyn_remove_runs && $fs == shm ]]; then rm -rf -- "$cell_dir/run$run-$variant"; fi
    done
    log "[dynamic $dyn_cell_no/$dyn_cells_total] $fs $DYN_MODE ${ranks}r x ${threads}t$label run $run/$RUNS: $(printf '%s ms  ' "${summary[@]}")"
  done
  if [[ $fs == shm ]]; then rm -rf -- "$cell_dir"; fi
  between_series
}

dynamic_section() {
  local fs layout
  note "Section dynamic: every run writes into a fresh directory; mpiwrite runs as \`$MPIRUN ${MPIRUN_FLAGS} -np R mpiwrite -t T --write-mode $DYN_MODE --partition block|dynamic --chunk K [--slow-rank $DYN_SLOW_RANK --slow-delay-us $DYN_SLOW_DELAY_US] -r 1 --format json\`; every run's per-rank files and times are in the JSON file."
  dyn_cells_total=$((2 * ${#dyn_layouts[@]} + ${#dyn_slow_layouts[@]}))
  dyn_cell_no=0
  log "dynamic: $dyn_cells_total cells x $RUNS runs, variants ${dyn_variants[*]} (slow rank: ${slow_variants[*]}), $FILES files each; local: $local_scratch ($local_fs), tmpfs: $shm_scratch ($shm_fs)"
  between_series
  for fs in local shm; do
    ((WARMUP == 0)) || dyn_warmup "$fs"
    for layout in "${dyn_layouts[@]}"; do
      dyn_cell overhead "$fs" "$layout" 0 "${dyn_variants[@]}"
    done
  done
  for layout in "${dyn_slow_layouts[@]}"; do
    dyn_cell slow shm "$layout" 1 "${slow_variants[@]}"
  done
}

# Section "dynamic-hosts": the dynamic section's machinery (run_variant, dyn_warmup, dyn_cell)
# with mpirun started on mpihostA and the ranks mapped by node, records into $raw_dynh.
dynamic_hosts_section() {
  local saved_mpirun=$MPIRUN saved_raw=$raw_dyn
  local saved_flags=("${mpirun_flags[@]}") saved_variants=("${dyn_variants[@]}")
  local saved_layouts=("${dyn_layouts[@]}")
  note "Section dynamic-hosts: mpirun runs on mpihostA as \`scripts/cluster/netns-exec mpihostA $MPIRUN --hostfile H -np 2 --map-by node --bind-to none mpiwrite -t 1 --write-mode $DYN_MODE --partition block|dynamic --chunk K [--slow-rank $DYN_SLOW_RANK --slow-delay-us $DYN_SLOW_DELAY_US] -r 1 --format json\` (btl vader,self,tcp; TCP between the hosts); files on tmpfs, shared by both hosts."
  "$repo/scripts/cluster/netns-up.sh" >&2 || { made_hosts=1; die "netns-up.sh could not make the hosts"; }
  made_hosts=1
  export OMPI_MCA_plm_rsh_agent=$repo/scripts/cluster/netns-rsh
  export OMPI_MCA_oob_tcp_if_include=10.77.0.0/24 OMPI_MCA_btl_tcp_if_include=10.77.0.0/24
  export OMPI_MCA_btl=vader,self,tcp
  printf 'mpihostA slots=2\nmpihostB slots=2\n' >"$work/hostfile"
  MPIRUN=$repo/scripts/cluster/netns-exec
  mpirun_flags=(mpihostA "$saved_mpirun" --hostfile "$work/hostfile" --map-by node --bind-to none)
  dyn_variants=("${dh_variants[@]}") dyn_layouts=(2x1) raw_dyn=$raw_dynh dyn_remove_runs=1
  dyn_cells_total=2
  dyn_cell_no=0
  log "dynamic-hosts: 2 cells x $RUNS runs, variants ${dh_variants[*]}, $FILES files each, tmpfs: $shm_scratch"
  between_series
  ((WARMUP == 0)) || dyn_warmup shm
  dyn_cell overhead shm 2x1 0 "${dh_variants[@]}"
  dyn_cell slow shm 2x1 1 "${dh_variants[@]}"
  MPIRUN=$saved_mpirun mpirun_flags=("${saved_flags[@]}") raw_dyn=$saved_raw
  dyn_variants=("${saved_variants[@]}") dyn_layouts=("${saved_layouts[@]}") dyn_remove_runs=''
  unset OMPI_MCA_plm_rsh_agent OMPI_MCA_oob_tcp_if_include OMPI_MCA_btl_tcp_if_include OMPI_MCA_btl
  "$repo/scripts/cluster/netns-down.sh" >&2 || die "netns-down.sh left something behind"
  made_hosts=''
}

# ---------------------------------------------------------------------------------------------
# Section "scale": one run per size, --verify --cleanup, peak memory per rank.
scale_section() {
  local n fs base fstype dir t0 wall line
  local ranks=${SCALE_LAYOUT%x*} threads=${SCALE_LAYOUT#*x}
  note "Section scale: \`$MPIRUN ${MPIRUN_FLAGS} -np $ranks mpiwrite -t $threads --write-mode $SCALE_MODE --verify --cleanup -r 1 --format json\`, one run per size (${scale_files[*]} files); untimed before each: sync and drop caches."
  log "scale: ${scale_files[*]} files, ${ranks}r x ${threads}t, --write-mode $SCALE_MODE --verify --cleanup"
  for n in "${scale_files[@]}"; do
    fs=${scale_fs[$n]}
    if [[ $fs == local ]]; then base=$local_scratch fstype=$local_fs; else base=$shm_scratch fstype=$shm_fs; fi
    dir=$base/scale-$n
    between_series
    [[ $fs == local ]] && local_has_files=1  # --cleanup deletes them: the inode trap follows
    log "scale: $n files on $fs ($fstype)..."
    t0=$(date +%s.%N)
    "$MPIRUN" "${mpirun_flags[@]}" -np "$ranks" "$mpiwrite_bin" --files "$n" --lines "$LINES" \
      --text "$TEXT" --dir "$dir" --threads "$threads" --write-mode "$SCALE_MODE" \
      --partition block --repetitions 1 --warmup 0 --verify --cleanup --format json \
      >"$work/last.json" 2>"$work/last.err" ||
      { cat "$work/last.err" >&2; die "mpiwrite --verify failed with $n files in $dir"; }
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    [[ ! -e $dir ]] || die "--cleanup left $dir"
    line=$(helper scale-record "$work/last.json" "$raw_scale" "$n" "$ranks" "$threads" "$wall" \
      "$fs" "$fstype") || die "unexpected report of the $n-file run"
    log "scale: $n files: $line"
  done
}

# ---------------------------------------------------------------------------------------------
# Section "overhead": mpiwrite --engine null, OVH_REPS repetitions in one run per layout.
overhead_section() {
  local layout ranks threads dir t0 wall line
  note "Section overhead: \`$MPIRUN ${MPIRUN_FLAGS} -np R mpiwrite -t T --engine null -n $OVH_FILES -r $OVH_REPS --warmup 0 --format json\` once per layout (${ovh_layouts[*]}), each into a fresh directory on tmpfs (the null engine creates only the directory)."
  log "overhead: ${ovh_layouts[*]}, $OVH_FILES files, --engine null -r $OVH_REPS"
  for layout in "${ovh_layouts[@]}"; do
    ranks=${layout%x*} threads=${layout#*x}
    dir=$shm_scratch/overhead-$layout
    sync
    t0=$(date +%s.%N)
    "$MPIRUN" "${mpirun_flags[@]}" -np "$ranks" "$mpiwrite_bin" --files "$OVH_FILES" \
      --lines "$LINES" --text "$TEXT" --dir "$dir" --threads "$threads" --engine null \
      --partition block --repetitions "$OVH_REPS" --warmup 0 --format json \
      >"$work/last.json" 2>"$work/last.err" ||
      { cat "$work/last.err" >&2; die "mpiwrite --engine null failed in $dir"; }
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    line=$(helper overhead-record "$work/last.json" "$raw_ovh" "$OVH_FILES" "$ranks" "$threads" \
      "$OVH_REPS" "$wall" shm "$shm_fs") || die "unexpected report of the --engine null run ($layout)"
    log "overhead ${ranks}r x ${threads}t: $line"
    rm -rf -- "$dir"
  done
}

# ---------------------------------------------------------------------------------------------
# Section "startup": the whole mpirun, mpiwrite -n 1 against a bare `mpirun true`.

# startup_cmd VARIANT DIR: the variant's command line, into the array cmd.
startup_cmd() {
  cmd=("$MPIRUN" "${mpirun_flags[@]}" -np "$STARTUP_NP")
  case $1 in
    true) cmd+=(true) ;;
    mpi-init) cmd+=("$work/mpi_init") ;;
    mpiwrite) cmd+=("$mpiwrite_bin" -n 1 -d "$2") ;;
    mpiwrite-null) cmd+=("$mpiwrite_bin" -n 1 -d "$2" --engine null) ;;
  esac
}

# startup_one VARIANT DIR: runs it once (report to /dev/null), prints its wall time in seconds.
startup_one() {
  local variant=$1 dir=$2 t0 t1 cmd=()
  startup_cmd "$variant" "$dir"
  sync
  t0=$EPOCHREALTIME
  "${cmd[@]}" >/dev/null 2>"$work/last.err" ||
    { cat "$work/last.err" >&2; die "startup: '${cmd[*]}' failed"; }
  t1=$EPOCHREALTIME
  if [[ $variant == mpiwrite ]]; then
    [[ -s $dir/write1.txt ]] || die "startup: mpiwrite -n 1 did not write $dir/write1.txt"
  fi
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}

startup_section() {
  local base=$shm_scratch/startup run k order summary position variant seconds
  note "Section startup: wall time of the whole \`$MPIRUN ${MPIRUN_FLAGS} -np $STARTUP_NP ...\` (bash EPOCHREALTIME around the command), variants ${startup_variants[*]}; mpiwrite runs with its default table report to /dev/null and a fresh directory on tmpfs each."
  log "startup: ${startup_variants[*]}, $STARTUP_RUNS runs each, -np $STARTUP_NP"
  mkdir -- "$base"
  for ((run = 1; run <= WARMUP; run++)); do  # untimed, discarded
    for variant in "${startup_variants[@]}"; do
      seconds=$(startup_one "$variant" "$base/warmup$run-$variant")
      log "warm-up startup: $variant $(ms_of "$seconds") ms (discarded)"
    done
  done
  for ((run = 1; run <= STARTUP_RUNS; run++)); do
    rotate $((run - 1)) "${startup_variants[@]}"  # the first variant rotates every run
    summary=()
    for ((position = 1; position <= ${#order[@]}; position++)); do
      variant=${order[$((position - 1))]}
      seconds=$(startup_one "$variant" "$base/run$run-$variant")
      printf '%s\t%s\t%s\t%s\n' "$run" "$position" "$variant" "$seconds" >>"$raw_startup"
      summary+=("$variant $(ms_of "$seconds")")
    done
    log "[startup $run/$STARTUP_RUNS] $(printf '%s ms  ' "${summary[@]}")"
  done
  rm -rf -- "$base"
}

# ---------------------------------------------------------------------------------------------
# Section "alloc": heap allocations per file, from the counting allocator's lines.
alloc_section() {
  local engine layout ranks threads n dir counts line
  note "Section alloc: \`$MPIRUN ${MPIRUN_FLAGS} -x LD_PRELOAD=$(basename "$alloc_lib") -x MPIWRITE_ALLOC_COUNT_FILE=... -np R mpiwrite -t T --engine E --write-mode $ALLOC_MODE --partition block -r 1 --warmup 0 --format json\`, one run per engine (${alloc_engines[*]}), layout (${alloc_layouts[*]}) and size (${alloc_files[*]} files), each into a fresh directory on tmpfs, removed after the run."
  log "alloc: engines ${alloc_engines[*]}, layouts ${alloc_layouts[*]}, ${alloc_files[*]} files, --write-mode $ALLOC_MODE, counting allocator $alloc_lib"
  counts=$work/alloc-counts.txt
  for engine in "${alloc_engines[@]}"; do
    for layout in "${alloc_layouts[@]}"; do
      ranks=${layout%x*} threads=${layout#*x}
      for n in "${alloc_files[@]}"; do
        dir=$shm_scratch/alloc-$engine-$layout-$n
        rm -f -- "$counts"
        # -x: only the ranks get the library (mpirun's own allocations are not counted), and
        # the file name; each rank appends its line when it exits.
        "$MPIRUN" "${mpirun_flags[@]}" -x "LD_PRELOAD=$alloc_lib" -x "MPIWRITE_ALLOC_COUNT_FILE=$counts" \
          -np "$ranks" "$mpiwrite_bin" --files "$n" --lines "$LINES" --text "$TEXT" --dir "$dir" \
          --threads "$threads" --engine "$engine" --write-mode "$ALLOC_MODE" --partition block \
          --repetitions 1 --warmup 0 --format json >"$work/last.json" 2>"$work/last.err" ||
          { cat "$work/last.err" >&2; die "mpiwrite --engine $engine under the counting allocator failed in $dir"; }
        [[ $engine == null ]] || helper check "$dir" "$n" "$file_size" || die "wrong files in $dir"
        [[ -s $counts ]] || die "alloc: the counting allocator wrote nothing to $counts"
        line=$(helper alloc-record "$work/last.json" "$counts" "$raw_alloc" "$n" "$ranks" "$threads" \
          "$engine" "$ALLOC_MODE" shm "$shm_fs") || { cat "$counts" >&2; die "alloc: unexpected counts or report ($engine, $layout, $n files)"; }
        log "alloc $engine ${ranks}r x ${threads}t, $n files: $line"
        rm -rf -- "$dir"
      done
    done
  done
}

# ---------------------------------------------------------------------------------------------
# Section "uring": part A, mpiwrite --engine uring against the posix engine at equal in-flight
# files; part B, mpiwrite_uring_probe's variants against blocking system calls.

# uring_one VARIANT DIR MODE C RECORD KEY=VALUE...: one mpiwrite run of part A with C files in
# flight (posix-threads: -t C; uring: --engine uring -q C; posix-procs: -np 2). Checks its
# files and report, appends its record to the file RECORD and prints the makespan in seconds.
uring_one() {
  local variant=$1 dir=$2 mode=$3 c=$4 record=$5
  shift 5
  local ranks=1 threads=1 engine=posix depth=1
  case $variant in
    posix-threads) threads=$c ;;
    uring) engine=uring depth=$c ;;
    posix-procs) ranks=2 ;;
  esac
  "$MPIRUN" "${mpirun_flags[@]}" -np "$ranks" "$mpiwrite_bin" --files "$URING_FILES" \
    --lines "$LINES" --text "$TEXT" --dir "$dir" --threads "$threads" --engine "$engine" \
    --queue-depth "$depth" --write-mode "$mode" --partition block --repetitions 1 --warmup 0 \
    --format json >"$work/last.json" 2>"$work/last.err" ||
    { cat "$work/last.err" >&2; die "mpiwrite --engine $engine (${ranks}r x ${threads}t, -q $depth) failed in $dir"; }
  helper check "$dir" "$URING_FILES" "$file_size" || die "wrong files in $dir"
  helper uring-record "$work/last.json" "$record" "$URING_FILES" "$ranks" "$threads" "$engine" \
    "$depth" "$mode" "variant=$variant" "in_flight=$c" "$@"
}

# The probe always writes "Hello, world!\n" lines, whatever TEXT is.
probe_file_size=$((LINES * 14))

# probe_one DIR MODE QD VARIANT [MODIFIER...]: one run of the probe into the fresh directory
# DIR (it makes DIR itself), checks and removes its files, prints the loop's time in seconds.
probe_one() {
  local dir=$1 mode=$2 qd=$3 out seconds
  shift 3
  out=$("$probe_bin" "$dir" "$URING_PROBE_FILES" "$LINES" "$mode" "$qd" "$@" 2>"$work/last.err") ||
    { cat "$work/last.err" >&2; die "mpiwrite_uring_probe $mode QD $qd $* failed in $dir"; }
  [[ $out =~ ^([0-9]+\.[0-9]+)\ s\  ]] || die "mpiwrite_uring_probe printed '$out'"
  seconds=${BASH_REMATCH[1]}
  helper check "$dir" "$URING_PROBE_FILES" "$probe_file_size" || die "wrong files in $dir"
  rm -rf -- "$dir"  # tmpfs: no inode trap
  printf '%s\n' "$seconds"
}

# uring_estimate: the section's expected duration in whole seconds, from costs measured on a
# 2-core VM (tmpfs and ext4 within ~1.5x of each other), on the high side: a part-A run costs
# ~0.6 s of mpirun (~0.35 s), sync, file check and report (python3 starts in ~0.1 s) plus its
# files at, per file, posix threads 60 µs (line) / 12 µs (whole), 2 posix processes 30 / 10,
# uring 200 / 50 at 1 in flight, 175 / 25 at 2, 120 / 20 up to 8, 90 / 15 beyond; a probe run
# ~0.12 s (mostly the file check) plus its files at posix 50 / 8, io_uring 250 / 70 at QD 1
# and 150 / 25 deeper, but "defer" in line mode 4,500 at QD 1 and 300 deeper; ~1 s per cell
# for sync and drop caches.
uring_estimate() {
  local c mode variant qd v total=0 us warm
  for mode in "${uring_modes[@]}"; do
    for c in "${uring_depths[@]}"; do
      for v in posix-threads uring posix-procs; do
        [[ $v != posix-procs ]] || ((c == 2)) || continue
        case $v:$mode in
          posix-threads:line) us=60 ;; posix-threads:whole) us=12 ;;
          posix-procs:line) us=30 ;; posix-procs:whole) us=10 ;;
          uring:line) if ((c == 1)); then us=200; elif ((c == 2)); then us=175; elif ((c <= 8)); then us=120; else us=90; fi ;;
          uring:whole) if ((c == 1)); then us=50; elif ((c == 2)); then us=25; elif ((c <= 8)); then us=20; else us=15; fi ;;
        esac
        # µs: both file systems x runs x (launch + files x µs/file), and a second per cell.
        total=$((total + 2 * URING_RUNS * (600000 + URING_FILES * us)))
      done
      total=$((total + 2 * 1000000))
    done
  done
  total=$((total + 2 * WARMUP * 3 * (600000 + URING_FILES * 200)))  # warm-ups, generously
  warm=$((URING_PROBE_RUNS + WARMUP))  # rounds of every probe run, per mode
  if ((${#uring_probe_variants[@]} > 0)); then
    for mode in "${uring_modes[@]}"; do
      if [[ $mode == line ]]; then us=50; else us=8; fi
      total=$((total + warm * (120000 + URING_PROBE_FILES * us) + 1000000))
      for qd in "${uring_probe_depths[@]}"; do
        for variant in "${uring_probe_variants[@]}"; do
          if [[ $mode == line && " $variant " == *" defer "* ]]; then
            if ((qd == 1)); then us=4500; else us=300; fi
          elif [[ $mode == line ]]; then
            if ((qd == 1)); then us=250; else us=150; fi
          else
            if ((qd == 1)); then us=70; else us=25; fi
          fi
          total=$((total + warm * (120000 + URING_PROBE_FILES * us)))
        done
      done
    done
  fi
  echo $((total / 1000000))
}

# uring_preflight: fails early, before minutes of runs, if io_uring is not usable here (a
# seccomp filter, kernel.io_uring_disabled, an old kernel) or a probe variant is refused
# (e.g. SQPOLL): one tiny run of mpiwrite --engine uring and of every probe variant and depth.
uring_preflight() {
  local dir=$shm_scratch/uring-preflight mode qd variant words
  mkdir -- "$dir"
  "$MPIRUN" "${mpirun_flags[@]}" -np 1 "$mpiwrite_bin" --files 4 --lines "$LINES" --text "$TEXT" \
    --dir "$dir/mpiwrite" --engine uring --queue-depth 2 --repetitions 1 --warmup 0 --format json \
    >"$work/last.json" 2>"$work/last.err" ||
    { cat "$work/last.err" >&2; die "uring: mpiwrite --engine uring cannot run here (see above)"; }
  for mode in "${uring_modes[@]}"; do
    "$probe_bin" "$dir/posix-$mode" 4 "$LINES" "$mode" 1 posix >/dev/null 2>"$work/last.err" ||
      { cat "$work/last.err" >&2; die "uring: mpiwrite_uring_probe posix fails"; }
    for qd in "${uring_probe_depths[@]}"; do
      for variant in "${uring_probe_variants[@]}"; do
        read -r -a words <<<"$variant"
        "$probe_bin" "$dir/$mode-$qd-${variant// /-}" 4 "$LINES" "$mode" "$qd" "${words[@]}" \
          >/dev/null 2>"$work/last.err" ||
          { cat "$work/last.err" >&2; die "uring: the probe variant '$variant' fails at QD $qd in $mode mode (leave it out of URING_PROBE_VARIANTS)"; }
      done
    done
  done
  rm -rf -- "$dir"
}

# uring_warmup FS: WARMUP untimed runs of every part-A variant, on the first mode and depth
# (posix-procs, if it runs at all, at its 2 in flight).
uring_warmup() {
  local fs=$1 base run variant seconds c variants=(posix-threads uring)
  if [[ $fs == local ]]; then base=$local_scratch; else base=$shm_scratch; fi
  [[ " ${uring_depths[*]} " != *" 2 "* ]] || variants+=(posix-procs)
  mkdir -- "$base/uring-warmup"
  for ((run = 1; run <= WARMUP; run++)); do
    for variant in "${variants[@]}"; do
      c=${uring_depths[0]}
      [[ $variant != posix-procs ]] || c=2
      sync
      [[ $fs == local ]] && local_has_files=1
      seconds=$(uring_one "$variant" "$base/uring-warmup/run$run-$variant" "${uring_modes[0]}" "$c" \
        "$work/warmup.jsonl" "run=0" "position=0" "fs=$fs")
      log "warm-up uring $fs ${uring_modes[0]} $c in flight: $variant $(ms_of "$seconds") ms (discarded)"
    done
  done
  if [[ $fs == shm ]]; then rm -rf -- "$base/uring-warmup"; fi
  between_series
}

# uring_cell FS MODE C: URING_RUNS runs of each variant with C files in flight, interleaved.
uring_cell() {
  local fs=$1 mode=$2 c=$3 base fstype cell_dir run k order summary position variant seconds
  local variants=(posix-threads uring)
  ((c != 2)) || variants+=(posix-procs)
  if [[ $fs == local ]]; then base=$local_scratch fstype=$local_fs; else base=$shm_scratch fstype=$shm_fs; fi
  uring_cell_no=$((uring_cell_no + 1))
  cell_dir=$base/uring-$mode-c$c
  mkdir -- "$cell_dir"
  for ((run = 1; run <= URING_RUNS; run++)); do
    rotate $((run - 1 + uring_cell_no - 1)) "${variants[@]}"  # every run and every cell
    summary=()
    for ((position = 1; position <= ${#order[@]}; position++)); do
      variant=${order[$((position - 1))]}
      sync
      [[ $fs == local ]] && local_has_files=1
      seconds=$(uring_one "$variant" "$cell_dir/run$run-$variant" "$mode" "$c" "$raw_uring" \
        "fs=$fs" "fs_type=$fstype" "run=$run" "position=$position")
      summary+=("$variant $(ms_of "$seconds")")
    done
    log "[uring A $uring_cell_no/$uring_cells_total] $fs $mode $c in flight run $run/$URING_RUNS: $(printf '%s ms  ' "${summary[@]}")"
  done
  if [[ $fs == shm ]]; then rm -rf -- "$cell_dir"; fi
  between_series
}

# probe_cell MODE: on tmpfs, posix (QD 1) and every (depth, variant) of the probe,
# URING_PROBE_RUNS runs each after WARMUP untimed rounds, interleaved: in every round each
# runs once, starting from a rotating position.
probe_cell() {
  local mode=$1 i k='' n run position seconds t0 slow slow_us us label words qd variant
  local items_variant=(posix) items_qd=(1) dir=$shm_scratch/uring-probe-$mode
  for qd in "${uring_probe_depths[@]}"; do
    for variant in "${uring_probe_variants[@]}"; do items_variant+=("$variant"); items_qd+=("$qd"); done
  done
  n=${#items_variant[@]}
  uring_cell_no=$((uring_cell_no + 1))
  mkdir -- "$dir"
  for ((run = 1 - WARMUP; run <= URING_PROBE_RUNS; run++)); do  # runs < 1: warm-up, discarded
    t0=$EPOCHREALTIME slow='' slow_us=0
    for ((position = 1; position <= n; position++)); do
      i=$(((position - 1 + run + WARMUP - 1 + uring_cell_no - 1) % n))
      read -r -a words <<<"${items_variant[$i]}"
      sync
      seconds=$(probe_one "$dir/run$run-$i" "$mode" "${items_qd[$i]}" "${words[@]}")
      ((run < 1)) || printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "${items_qd[$i]}" "${items_variant[$i]}" \
        "$run" "$position" "$seconds" >>"$raw_uring_probe"
      us=$(awk -v s="$seconds" -v n="$URING_PROBE_FILES" 'BEGIN { printf "%.0f", s / n * 1e6 }')
      if ((us > slow_us)); then slow_us=$us slow="${items_variant[$i]} QD ${items_qd[$i]}"; fi
      [[ ${items_variant[$i]} != posix ]] || k=$us
    done
    if ((run < 1)); then label="warm-up $((run + WARMUP))/$WARMUP (discarded)"; else label="run $run/$URING_PROBE_RUNS"; fi
    log "[uring B $mode] $label: $n probe runs in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s; posix $k µs/file, slowest $slow $slow_us µs/file"
  done
  rm -rf -- "$dir"
  between_series
}

uring_section() {
  local fs mode c est
  note "Section uring, part A: every run writes into a fresh directory; \`$MPIRUN ${MPIRUN_FLAGS} -np 1 mpiwrite -t C\` (posix-threads), \`-np 1 mpiwrite --engine uring -q C\` (uring), \`-np 2 mpiwrite\` (posix-procs, C = 2 only), each \`--partition block -r 1 --warmup 0 --format json\`."
  if ((${#uring_probe_variants[@]} > 0)); then
    note "Section uring, part B: \`mpiwrite_uring_probe DIR $URING_PROBE_FILES $LINES MODE QD VARIANT [MODIFIER...]\` on tmpfs, each run into a fresh directory removed right after it; its lines are always 'Hello, world!'."
  fi
  uring_cells_total=$((2 * ${#uring_modes[@]} * ${#uring_depths[@]}))
  uring_cell_no=0
  est=$(uring_estimate)
  log "uring: part A $uring_cells_total cells (local, tmpfs x ${uring_modes[*]} x ${uring_depths[*]} in flight) x $URING_RUNS runs of $URING_FILES files; part B ${#uring_probe_variants[@]} probe variants x QD ${uring_probe_depths[*]} + posix, $URING_PROBE_RUNS runs of $URING_PROBE_FILES files per mode; expected ~$(((est + 59) / 60)) min (~$est s, an estimate on the high side for a 2-core VM)"
  uring_preflight
  between_series
  # Part A. File system outermost: the local disk's files stay until the end (inode trap).
  for fs in local shm; do
    ((WARMUP == 0)) || uring_warmup "$fs"
    for mode in "${uring_modes[@]}"; do
      for c in "${uring_depths[@]}"; do
        uring_cell "$fs" "$mode" "$c"
      done
    done
  done
  # Part B, tmpfs only.
  if ((${#uring_probe_variants[@]} > 0)); then
    for mode in "${uring_modes[@]}"; do probe_cell "$mode"; done
  fi
}

ran_sections=()
if want overhead; then overhead_section; ran_sections+=(overhead); fi
if want startup; then startup_section; ran_sections+=(startup); fi
if want alloc; then alloc_section; ran_sections+=(alloc); fi
if want floor; then floor_section; ran_sections+=(floor); fi
if want dynamic; then dynamic_section; ran_sections+=(dynamic); fi
if want dynamic-hosts; then dynamic_hosts_section; ran_sections+=(dynamic-hosts); fi
if want uring; then uring_section; ran_sections+=(uring); fi
if want scale; then scale_section; ran_sections+=(scale); fi

# ---------------------------------------------------------------------------------------------
# Report.
finished_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
floor_files_ran='' floor_runs_ran=''  # the floor's sizes and their runs, if it ran
if want floor; then
  floor_files_ran=${floor_files[*]}
  for n in "${floor_files[@]}"; do floor_runs_ran+="${floor_runs[$n]} "; done
fi
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
  BENCH_LOCAL_DIR=$local_scratch BENCH_SHM_DIR=$shm_scratch BENCH_SECTIONS="${ran_sections[*]}" \
  BENCH_DYN_VARIANTS="${dyn_variants[*]}" BENCH_DYN_LAYOUTS="${dyn_layouts[*]}" BENCH_DYN_MODE=$DYN_MODE \
  BENCH_DYN_SLOW_VARIANTS="${slow_variants[*]}" BENCH_DYN_SLOW_LAYOUTS="${dyn_slow_layouts[*]}" \
  BENCH_DYN_SLOW_RANK=$DYN_SLOW_RANK BENCH_DYN_SLOW_DELAY_US=$DYN_SLOW_DELAY_US \
  BENCH_DH_VARIANTS="${dh_variants[*]}" \
  BENCH_SCALE_FILES="${scale_files[*]}" BENCH_SCALE_LAYOUT=$SCALE_LAYOUT BENCH_SCALE_MODE=$SCALE_MODE \
  BENCH_SCALE_RSS_GOAL_MIB=$SCALE_RSS_GOAL_MIB BENCH_SCALE_GROWTH_GOAL=$SCALE_GROWTH_GOAL \
  BENCH_OVH_FILES=$OVH_FILES BENCH_OVH_LAYOUTS="${ovh_layouts[*]}" BENCH_OVH_REPS=$OVH_REPS \
  BENCH_OVH_GOAL_NS=$OVH_GOAL_NS BENCH_STARTUP_NP=$STARTUP_NP BENCH_STARTUP_RUNS=$STARTUP_RUNS \
  BENCH_STARTUP_VARIANTS="${startup_variants[*]}" BENCH_SHM_FS=$shm_fs \
  BENCH_STARTUP_CMD_TRUE="mpirun -np $STARTUP_NP true" \
  BENCH_STARTUP_CMD_MPI_INIT="mpirun -np $STARTUP_NP mpi_init (MPI_Init + MPI_Finalize only)" \
  BENCH_STARTUP_CMD_MPIWRITE="mpirun -np $STARTUP_NP mpiwrite -n 1 -d FRESH" \
  BENCH_STARTUP_CMD_MPIWRITE_NULL="mpirun -np $STARTUP_NP mpiwrite -n 1 -d FRESH --engine null" \
  BENCH_FLOOR_FILES="$floor_files_ran" BENCH_FLOOR_RUNS="$floor_runs_ran" \
  BENCH_FLOOR_GOAL_MIN_FILES=$FLOOR_GOAL_MIN_FILES BENCH_ALLOC_FILES="${alloc_files[*]}" \
  BENCH_ALLOC_LAYOUTS="${alloc_layouts[*]}" BENCH_ALLOC_ENGINES="${alloc_engines[*]}" \
  BENCH_ALLOC_MODE=$ALLOC_MODE BENCH_ALLOC_GOAL=$ALLOC_GOAL \
  BENCH_URING_FILES=$URING_FILES BENCH_URING_RUNS=$URING_RUNS BENCH_URING_DEPTHS="${uring_depths[*]}" \
  BENCH_URING_MODES="${uring_modes[*]}" BENCH_URING_GOAL=$URING_GOAL \
  BENCH_URING_PROBE_FILES=$URING_PROBE_FILES BENCH_URING_PROBE_RUNS=$URING_PROBE_RUNS \
  BENCH_URING_PROBE_DEPTHS="${uring_probe_depths[*]}" \
  BENCH_URING_PROBE_VARIANTS="$(IFS=,; printf '%s' "${uring_probe_variants[*]}")" \
  helper meta "$work/meta.json" "$notes"
mkdir -p -- "$RESULTS_DIR"
helper summarize "$work/meta.json" "$raw" "$raw_dyn" "$raw_dynh" "$raw_scale" "$raw_ovh" "$raw_startup" "$raw_alloc" \
  "$raw_uring" "$raw_uring_probe" "$RESULTS_DIR/bench-$stamp.json" "$RESULTS_DIR/bench-$stamp.md"
log "wrote $RESULTS_DIR/bench-$stamp.json and $RESULTS_DIR/bench-$stamp.md"
