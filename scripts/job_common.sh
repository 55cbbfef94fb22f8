# shellcheck shell=bash disable=SC2034  # it sets variables for the script that sources it
# What the job scripts share (slurm/mpiwrite.sbatch, slurm/compare.sbatch, pbs/mpiwrite.pbs),
# sourced by them. Each script defines die() (its own name in the message, exit 2) first, and
# finds this file itself: a batch system runs a copy of the job script from its spool
# directory, so no path relative to the script leads here (each says where it looks).
# Sets job_scripts: this folder, where job_summary.py and mpiwrite_report.py are.
job_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# job_binary SUBMIT_DIR: sets binary to $MPIWRITE, else the installed mpiwrite beside these
# scripts (PREFIX/bin when they are PREFIX/share/mpiwrite: a package's or a module's scripts
# run their own binary, not whichever is first on PATH), else mpiwrite on PATH, else
# SUBMIT_DIR/build/mpiwrite; dies when that is no executable.
job_binary() {
  binary=${MPIWRITE:-}
  case $job_scripts in
    */share/mpiwrite) [ -n "$binary" ] || [ ! -x "$job_scripts/../../bin/mpiwrite" ] ||
      binary=$(cd "$job_scripts/../../bin" && pwd)/mpiwrite ;;
  esac
  [ -n "$binary" ] || binary=$(command -v mpiwrite || true)
  [ -n "$binary" ] || binary=$1/build/mpiwrite
  [ -x "$binary" ] || die "no mpiwrite binary at '$binary': set MPIWRITE=/path/to/mpiwrite"
}

# job_slurm_report_place SUBMIT_DIR JOB_ID NAME: sets results and stem so that a Slurm job's
# report goes next to the job output and is named like it (mpiwrite-123.out ->
# mpiwrite-123), or SUBMIT_DIR and NAME-JOBID if the output's name holds no job id;
# $MPIWRITE_RESULTS wins for the folder, which is made.
job_slurm_report_place() {
  local job_id=$2 stdout base
  stdout=$(scontrol show job "$job_id" 2>/dev/null | sed -n 's/^ *StdOut=//p' | head -n 1)
  results=$1 stem=$3-$job_id
  case $stdout in
    "" | /dev/*) ;;
    *)
      results=$(dirname "$stdout")
      base=$(basename "$stdout")
      base=${base%.*}
      case $base in *"$job_id"*) stem=$base ;; esac
      if [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then   # --output=%A_%a.out
        case $base in *"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"*) stem=$base ;; esac
      fi ;;
  esac
  results=${MPIWRITE_RESULTS:-$results}
  mkdir -p "$results" || die "cannot create $results"
}

# job_scan_options REPORT ARG...: sets has_threads and has_dir from mpiwrite's arguments,
# which go through unchanged; refuses the options the script sets itself.
job_scan_options() {
  local report=$1 arg
  shift
  has_threads=0 has_dir=0
  for arg in "$@"; do
    case $arg in
      -t | -t* | --threads | --threads=*) has_threads=1 ;;
      -d | -d* | --dir | --dir=*) has_dir=1 ;;
      --format | --format=* | -o | -o* | --output | --output=*)
        die "the script writes the JSON report itself ($report): leave out '$arg'" ;;
    esac
  done
}

# job_data_and_report_args DATA_DIR REPORT: appends to args --dir DATA_DIR unless mpiwrite's
# arguments gave -d/--dir (job_scan_options), then the JSON report to REPORT.
job_data_and_report_args() {
  [ "$has_dir" -eq 1 ] || args+=(--dir "$1")
  args+=(--format json --output "$2")
}

# Open MPI refuses to run as root unless told so (CI containers run as root).
job_allow_root() {
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# job_run REPORT COMMAND...: runs mpiwrite's command (its report goes to REPORT), prints what
# ran, its exit status and a summary of the report, and exits with mpiwrite's status.
job_run() {
  local report=$1 status
  shift
  echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  printf 'command:'; printf ' %q' "$@"; echo
  "$@" >/dev/null   # the report is JSON; it is in $report, summarised below
  status=$?
  echo "mpiwrite exit status: $status"
  [ -f "$report" ] || { echo "no report was written"; exit "$status"; }
  echo "report: $report"
  # A short summary for the job output (the report holds everything); a node without
  # python3 goes without.
  if command -v python3 >/dev/null 2>&1; then
    python3 "$job_scripts/job_summary.py" "$report" || true
  fi
  exit "$status"
}
