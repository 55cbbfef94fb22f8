#!/usr/bin/env bash
# I/O errors on the ranks: read-only and full file systems (small tmpfs mounts) and permission
# denied (as an unprivileged user). Exit code 1, one message per failing rank naming the path
# and strerror, no hang, no failed file counted or left looking complete.
# Needs root for mount and user switching; exits 77 (skipped) otherwise.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; none is signalled (lib.sh)

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
MNT="$WORK/mnt"
mkdir "$MNT"
mount -t tmpfs -o size=256k,mode=0755 tmpfs "$MNT" 2>/dev/null || { echo "SKIP: cannot mount"; exit 77; }
trap 'umount "$MNT" 2>/dev/null || umount -l "$MNT"; cleanup_work' EXIT

note "read-only file system"
mkdir "$MNT/data"
mount -o remount,ro "$MNT"
run_mpiwrite -d "$MNT/data" -n 20
expect_status 1
grep -q "$MNT/data/write[0-9]*.txt: open: Read-only file system" "$WORK/err" ||
  fail "message lacks path and strerror: $(cat "$WORK/err")"
[ "$(error_lines)" -eq "$RANKS" ] || fail "expected one message per failing rank"
[ ! -s "$WORK/out" ] || fail "a failed run printed a report"
mount -o remount,rw "$MNT"

note "full file system"
run_mpiwrite -d "$MNT/data" -n 400 -l 100 -t 2
expect_status 1
grep -q "No space left on device" "$WORK/err" || fail "no ENOSPC message: $(cat "$WORK/err")"
[ "$(error_lines)" -ge 1 ] && [ "$(error_lines)" -le "$RANKS" ] || fail "one message per failing rank"
# Every file left is complete: a file that could not be finished was removed.
find "$MNT/data" -type f ! -size 1400c | grep -q . && fail "an incomplete file was left"
find "$MNT/data" -type f | grep -q . || fail "files written before the disk filled were lost"
rm -rf "${MNT:?}/data"

note "full file system under --overwrite: every file left is complete, old or new"
run_mpiwrite -d "$MNT/data" -n 40 -l 100
expect_status 0
run_mpiwrite -d "$MNT/data" -n 40 -l 1000 --overwrite
expect_status 1
grep -q "No space left on device" "$WORK/err" || fail "no ENOSPC message: $(cat "$WORK/err")"
# 1400 bytes: not rewritten yet; 14000: rewritten completely; nothing in between.
find "$MNT/data" -type f ! -size 1400c ! -size 14000c -printf '%p %s\n' | grep . &&
  fail "a half-rewritten file was left"
find "$MNT/data" -type f -size 14000c | grep -q . || fail "no file was rewritten before the disk filled"
rm -rf "${MNT:?}/data"

note "permission denied, as an unprivileged user"
mkdir "$WORK/locked"
chmod 0755 "$WORK" "$WORK/locked"
cp "$MPIWRITE" "$WORK/mpiwrite"
chmod 0755 "$WORK/mpiwrite"
set +e
# shellcheck disable=SC2086
timeout --kill-after=10 90 setpriv --reuid=nobody --regid=nogroup --clear-groups \
  env HOME="$WORK" TMPDIR=/tmp $MPIEXEC -n "$RANKS" "$WORK/mpiwrite" -d "$WORK/locked" -n 10 \
  >"$WORK/out" 2>"$WORK/err"
STATUS=$?
set -e
expect_status 1
grep -q "$WORK/locked/write[0-9]*.txt: open: Permission denied" "$WORK/err" ||
  fail "message lacks path and strerror: $(cat "$WORK/err")"
[ "$(find "$WORK/locked" -mindepth 1 | wc -l)" -eq 0 ] || fail "files appeared in a locked dir"
echo "PASS"
