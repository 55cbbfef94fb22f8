#!/usr/bin/env bash
# tools/package.sh builds mpiwrite_<version>_<arch>.deb from this build tree (issue 25 §3), and
# the package holds what a user needs and depends on what it runs with: the libraries
# dpkg-shlibdeps found in the binaries (Open MPI, Boost.MPI, fmt, liburing), mpirun and python3,
# matplotlib recommended. Checked with dpkg-deb -c (files) and -f (fields). Usage: package.sh
# BUILD_DIR. Environment: MPIWRITE_VERSION (the project's). Skips (77) without dpkg-deb.
set -euo pipefail
build=${1:?usage: package.sh BUILD_DIR}
: "${MPIWRITE_VERSION:?}"
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null ||
  { echo "SKIP: no dpkg-deb or dpkg-shlibdeps (apt-get install dpkg-dev)"; exit 77; }

note "tools/package.sh $build"
deb=$("$here/../../tools/package.sh" "$build") || fail "package.sh failed"
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "mpiwrite_${MPIWRITE_VERSION}_${arch}.deb" ] ||
  fail "the package is named $(basename "$deb"), not mpiwrite_${MPIWRITE_VERSION}_${arch}.deb"

note "its files (dpkg-deb -c)"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$build/package-files.txt"
for f in /usr/bin/mpiwrite /usr/bin/mpiwrite-compare /usr/share/man/man1/mpiwrite.1 \
  /usr/share/man/man1/mpiwrite-compare.1 /usr/share/bash-completion/completions/mpiwrite \
  /usr/share/bash-completion/completions/mpiwrite-compare /usr/share/mpiwrite/run.sh \
  /usr/share/mpiwrite/plot.py /usr/share/mpiwrite/job_common.sh \
  /usr/share/mpiwrite/mpiwrite_report.py /usr/share/mpiwrite/job_summary.py \
  /usr/share/mpiwrite/report.schema.json /usr/share/mpiwrite/slurm/mpiwrite.sbatch \
  /usr/share/mpiwrite/pbs/mpiwrite.pbs /usr/share/mpiwrite/hostfiles/localhost \
  /usr/share/doc/mpiwrite/README.md /usr/share/doc/mpiwrite/docs/install.md; do
  grep -qx -- "$f" "$build/package-files.txt" || fail "the package lacks $f"
done
! grep -E 'mpiwrite_(floor|uring_probe|unit_tests|mpi_tests|manual)|alloc_count|/tests/' \
  "$build/package-files.txt" || fail "the package holds a test or benchmark program"
grep -v '^/usr/' "$build/package-files.txt" | grep -vx '/' | grep . &&
  fail "the package installs outside /usr"

note "its fields (dpkg-deb -f)"
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
echo "Depends: $depends"
echo "Recommends: $recommends"
for want in 'libopenmpi[0-9]' 'libboost-mpi[0-9.]+' 'libfmt[0-9]' 'liburing[0-9]' \
  'libstdc\+\+6' 'openmpi-bin' 'python3($|,| )'; do
  grep -Eq "(^|, )$want" <<<"$depends" || fail "Depends lacks $want"
done
grep -q python3-matplotlib <<<"$recommends" || fail "Recommends lacks python3-matplotlib"
[ "$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" = \
  "Package: mpiwrite Version: $MPIWRITE_VERSION Architecture: $arch " ] ||
  fail "the control's name, version or architecture: $(dpkg-deb -f "$deb" Package Version)"
echo "PASS"
