#!/usr/bin/env bash
# Submits a batch job, prints its job ID on stdout and waits for it (tests/testbed/
# job-wait.sh: 0.2 s polling); the exit status is the job's (see job-wait.sh).
# Usage: SLURM_CONF=... tests/testbed/sbatch-wait.sh [sbatch options] SCRIPT [script args]
set -uo pipefail
jid=$(sbatch --parsable "$@") || exit 1
jid=${jid%%;*}   # "id;cluster" on multi-cluster sites
echo "$jid"
exec "$(dirname "$0")/job-wait.sh" "$jid"
