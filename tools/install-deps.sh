#!/usr/bin/env bash
# Installs the Debian packages mpiwrite needs. Idempotent: it asks apt only for what is
# missing. Needs root (or sudo) when something is missing.
#   install-deps.sh          to build and run mpiwrite (scripts/run.sh)
#   install-deps.sh --test   also what the tests need (tools/test.sh)
set -euo pipefail

packages=(
  build-essential cmake
  openmpi-bin libopenmpi-dev
  libboost-mpi-dev libboost-serialization-dev
  libfmt-dev libcli11-dev nlohmann-json3-dev liburing-dev pkg-config
  python3
)
if [ "${1:-}" = --test ]; then
  packages+=(
    libgtest-dev python3-matplotlib util-linux procps
    # tests/schema: docs/report.schema.json against real reports
    python3-jsonschema
    # tests/e2e/pandas_recipes.sh: docs/metrics.md's pandas recipes on real CSV and JSON
    python3-pandas
    # tests/e2e/common_start.sh: the reported phase against strace's
    strace
    # tests/bench (bench.stats): the benchmark's pure parts under pytest
    python3-pytest
    # tests/tools/make_statistics_golden.py --check: the statistics golden file against SciPy
    python3-scipy
    # tests/install: the Debian package (tools/package.sh: dpkg-shlibdeps) and the man pages
    dpkg-dev groff-base
    # tests/cluster: a one-node Slurm (srun --mpi=pmix needs libpmix-dev's libpmix.so), its
    # PBS-style qsub, and network namespaces for two emulated hosts
    slurmctld slurmd slurm-client munge slurm-wlm-torque libpmix-dev iproute2
    # tests/cluster/netfs.sh: a GlusterFS volume on emulated hosts (tests/testbed/netfs-up.sh:
    # bricks on XFS, netdelay.c built with cc; ping to check the emulated round-trip time)
    glusterfs-server glusterfs-client xfsprogs iputils-ping
    # tests/cluster/netfs_slurm.sh: the backtrace of a task that crashed, from its core
    gdb
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
