#!/usr/bin/env bash
# mpiwrite runs as a plain process (an MPI singleton), without mpiexec.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

cd "$WORK"
timeout 60 "$MPIWRITE" >"$WORK/out" 2>"$WORK/err" || fail "singleton run failed: $(cat "$WORK/err")"
expect_files "$WORK/mpiwrite-data" 100 100 "Hello, world!"
grep -q "1 rank x 1 thread" "$WORK/out" || fail "report does not say 1 rank"
echo "PASS"
