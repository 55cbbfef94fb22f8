#!/usr/bin/env bash
# tools/bench.sh: the benchmark (bench/mpiwrite_bench, a Python package; see its modules
# for what each section measures and why). Every option goes to `python3 -m mpiwrite_bench`:
#   tools/bench.sh --help                         every section, option and default
#   tools/bench.sh --sections floor --floor-fs shm --floor-files 100000
#   tools/bench.sh --smoke                        every section at toy size (~40 s)
# It builds mpiwrite and the baselines (Release) into build-bench/ unless --bin-dir names
# built ones, and writes bench-results/bench-<UTC time>.{json,md}.
# For old habits, SECTIONS="floor dynamic" (blank- or comma-separated) still chooses the
# sections, as --sections would (an explicit --sections wins, being later).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
args=()
if [[ -n ${SECTIONS:-} ]]; then
  args=(--sections "$(tr -s ' \t' ',' <<<"$SECTIONS" | sed 's/^,//; s/,$//')")
fi
PYTHONPATH=$repo/bench${PYTHONPATH:+:$PYTHONPATH} exec /usr/bin/python3 -m mpiwrite_bench "${args[@]}" "$@"
