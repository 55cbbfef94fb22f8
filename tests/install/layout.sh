#!/usr/bin/env bash
# cmake --install puts in what a user needs, where a Debian user looks (issue 25 §1): installs
# the build tree BUILD_DIR into a staging DESTDIR under /usr, then checks the files, that every
# relative link of the installed Markdown resolves there, that the man pages and completions
# load from there, and that the installed scripts run the installed binary: an mpiwrite first
# on PATH that only fails stands in for any other, and no source tree is beside them.
# Usage: layout.sh BUILD_DIR. Environment: e2e's (MPIEXEC is not used: run.sh calls mpirun).
set -euo pipefail
build=${1:?usage: layout.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mpiwrite-install-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }

note "cmake --install into a staging DESTDIR, prefix /usr"
DESTDIR=$WORK/stage cmake --install "$build" --prefix /usr >"$WORK/install.log" ||
  { cat "$WORK/install.log" >&2; fail "cmake --install failed"; }
usr=$WORK/stage/usr
share=$usr/share/mpiwrite
doc=$usr/share/doc/mpiwrite

note "the files"
for f in bin/mpiwrite bin/mpiwrite-compare \
  share/man/man1/mpiwrite.1 share/man/man1/mpiwrite-compare.1 \
  share/bash-completion/completions/mpiwrite share/bash-completion/completions/mpiwrite-compare \
  share/mpiwrite/run.sh share/mpiwrite/mpi-env.sh share/mpiwrite/job_common.sh \
  share/mpiwrite/plot.py share/mpiwrite/job_summary.py share/mpiwrite/mpiwrite_report.py \
  share/mpiwrite/report.schema.json share/mpiwrite/slurm/mpiwrite.sbatch \
  share/mpiwrite/slurm/compare.sbatch share/mpiwrite/pbs/mpiwrite.pbs \
  share/mpiwrite/hostfiles/localhost share/mpiwrite/hostfiles/two-nodes \
  share/doc/mpiwrite/README.md share/doc/mpiwrite/CHANGELOG.md \
  share/doc/mpiwrite/docs/install.md share/doc/mpiwrite/docs/cluster.md \
  share/doc/mpiwrite/docs/errors.md share/doc/mpiwrite/docs/metrics.md; do
  [ -f "$usr/$f" ] || fail "not installed: /usr/$f"
done
for f in bin/mpiwrite bin/mpiwrite-compare share/mpiwrite/run.sh share/mpiwrite/plot.py \
  share/mpiwrite/job_summary.py share/mpiwrite/slurm/mpiwrite.sbatch \
  share/mpiwrite/pbs/mpiwrite.pbs; do
  [ -x "$usr/$f" ] || fail "/usr/$f is not executable"
done
[ "$(ls "$usr/bin" | tr '\n' ' ')" = "mpiwrite mpiwrite-compare " ] ||
  fail "bin/ holds more than the two programs: $(ls "$usr/bin")"
if grep -rl "$build\|$(cd "$here/../.." && pwd)" "$share" "$usr/share/man" \
  "$usr/share/bash-completion" >"$WORK/leaks"; then
  fail "installed files name the build or source tree: $(cat "$WORK/leaks")"
fi

note "every relative link of the installed Markdown resolves in share/doc/mpiwrite"
python3 "$here/installed_links.py" "$doc" || fail "broken links in the installed docs"

note "the man pages and completions load from the installed tree"
for program in mpiwrite mpiwrite-compare; do
  MANPAGER=cat MANWIDTH=100 man -l "$usr/share/man/man1/$program.1" 2>/dev/null |
    grep -q -- "--format" || fail "man -l $program.1 shows no --format"
  bash -c 'source "$1" && complete -p "$2"' _ \
    "$usr/share/bash-completion/completions/$program" "$program" >/dev/null ||
    fail "the installed completion registers nothing for $program"
done

note "the installed scripts run the installed binary, not one on PATH or in a build tree"
mkdir -p "$WORK/decoy" "$WORK/run"
printf '#!/bin/sh\necho "the decoy mpiwrite ran" >&2\nexit 99\n' >"$WORK/decoy/mpiwrite"
chmod +x "$WORK/decoy/mpiwrite"
export PATH="$WORK/decoy:$PATH"
unset MPIWRITE
(cd "$WORK/run" && MPIWRITE_RANKS=2 timeout --kill-after=10 90 "$share/run.sh" \
  -n 8 --format json -o run.json >out 2>err) ||
  { cat "$WORK/run/err" >&2; fail "installed run.sh failed"; }
[ "$(find "$WORK/run/mpiwrite-data" -type f | wc -l)" -eq 8 ] || fail "run.sh did not write 8 files"
python3 "$share/job_summary.py" "$WORK/run/run.json" >"$WORK/summary" ||
  fail "installed job_summary.py cannot read the report"
"$usr/bin/mpiwrite-compare" "$WORK/run/run.json" "$WORK/run/run.json" >/dev/null ||
  fail "installed mpiwrite-compare failed"
binary=$(bash -c 'die() { echo "$*" >&2; exit 2; }
  source "$1"; job_binary /nowhere; echo "$binary"' _ "$share/job_common.sh")
[ "$binary" = "$usr/bin/mpiwrite" ] || fail "job_common.sh's job_binary chose '$binary'"
echo "PASS"
