#!/usr/bin/env bash
# A directory reached twice by its path is not the same directory (issue 21 §1; docs/errors.md,
# "Faults during a run"). The run holds --dir and its scratch root by descriptors opened once:
# renaming one during the run and putting a symbolic link to another directory (which holds
# files with the run's names) in its place must not touch that other directory; the run removes
# its own files through what it holds and stops with exit 1 naming the path whose name now leads
# elsewhere. The same for the directories the report goes into: -o's, and --dir's parent that
# gets the interrupted-report copy when --cleanup removes --dir: held from before the run, the
# report lands there (renamed or not), never through a link put at the name since.
# The window: --slow-rank 0 makes rank 0 sleep after every file it writes.
# Usage: directory_identity.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

LIMIT=60
SLOW=(--slow-rank 0 --slow-delay-us 200000)
N=$((RANKS * 8))  # rank 0 writes 8 files: about 1.6 s of window

# other DIR: a directory holding files with the run's names (write1.txt ..), each "precious".
other() {
  mkdir -p "$1"
  for ((i = 1; i <= N; i++)); do echo precious >"$1/write$i.txt"; done
}
expect_other_intact() {
  local left
  left=$( (grep -l precious "$1"/write*.txt 2>/dev/null || true) | wc -l)
  [ "$left" -eq "$N" ] || fail "$2: the other directory lost $((N - left)) of its $N files"
}
# wait_for PATH: until PATH exists (the run is writing), at most 30 s.
wait_for() {
  local k
  for ((k = 0; k < 600; k++)); do
    [ ! -e "$1" ] || return 0
    sleep 0.05
  done
  cat "$ERR" >&2
  fail "$1 never appeared"
}
finish() {
  set +e
  wait "$BG"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$ERR" >&2; fail "hung"; }
}
expect_replaced() {  # CASE PATH: exit 1 and one message naming PATH as no longer the directory
  [ "$STATUS" -eq 1 ] || { cat "$ERR" >&2; fail "$1: exit $STATUS, expected 1"; }
  grep -q "^mpiwrite: error: $2: no longer the directory this run works in" "$ERR" ||
    fail "$1: no message naming $2: $(cat "$ERR")"
}

note "(a) --dir the run made, renamed during the writes, a link to another directory in its place; --cleanup"
other "$WORK/a-other"
start_bg a -d "$WORK/a" -n "$N" --cleanup "${SLOW[@]}"
wait_for "$WORK/a/write1.txt"
mv "$WORK/a" "$WORK/a-moved"
ln -s "$WORK/a-other" "$WORK/a"
finish
expect_other_intact "$WORK/a-other" "(a)"
expect_replaced "(a)" "$WORK/a"
left=$(find "$WORK/a-moved" -mindepth 1 | wc -l)
[ "$left" -eq 0 ] || fail "(a) the run's own files were not removed through its descriptor: $left left"
rm -rf "$WORK/a" "$WORK/a-moved" "$WORK/a-other"

note "(b) an existing --dir swapped for a link during the writes, with --verify: verify and removal go by the held directory"
other "$WORK/b-other"
mkdir "$WORK/b"
start_bg b -d "$WORK/b" -n "$N" --verify --cleanup "${SLOW[@]}"
wait_for "$WORK/b/write1.txt"
mv "$WORK/b" "$WORK/b-moved"
ln -s "$WORK/b-other" "$WORK/b"
finish
expect_other_intact "$WORK/b-other" "(b)"
expect_replaced "(b)" "$WORK/b"
grep -q "wrong" "$ERR" && fail "(b) verify read the other directory: $(cat "$ERR")"
[ -z "$(ls -A "$WORK/b-moved")" ] || fail "(b) the run's files left: $(ls -A "$WORK/b-moved" | head -3)"
rm -rf "$WORK/b" "$WORK/b-moved" "$WORK/b-other"

note "(c) the scratch root renamed during a scratch repetition, a link to another directory in its place"
mkdir "$WORK/c"
start_bg c -d "$WORK/c" -n "$N" -r 2 "${SLOW[@]}"
for ((k = 0; k < 600; k++)); do
  root=$(compgen -G "$WORK/c/.mpiwrite-*" | head -n 1 || true)
  [ -z "$root" ] || [ -z "$(compgen -G "$root/r1/write1.txt")" ] || break
  sleep 0.05
done
[ -n "$root" ] || fail "(c) no scratch root appeared"
other "$WORK/c-other/r1"
mv "$root" "$WORK/c-moved"
ln -s "$WORK/c-other" "$root"
finish
expect_other_intact "$WORK/c-other/r1" "(c)"
expect_replaced "(c)" "$root"
left=$(find "$WORK/c-moved" -mindepth 1 | wc -l)
[ "$left" -eq 0 ] || fail "(c) the scratch step's files were not removed: $(find "$WORK/c-moved" | head -3)"
rm -rf "$WORK/c" "$WORK/c-moved" "$WORK/c-other"

note "(d) SIGTERM after the scratch root was swapped: the trash rename refuses the name, the other directory stays"
mkdir "$WORK/d"
start_bg d -d "$WORK/d" -n "$N" -r 2 "${SLOW[@]}"
for ((k = 0; k < 600; k++)); do
  root=$(compgen -G "$WORK/d/.mpiwrite-*" | head -n 1 || true)
  [ -z "$root" ] || [ -z "$(compgen -G "$root/r1/write1.txt")" ] || break
  sleep 0.05
done
other "$WORK/d-other/r1"
mv "$root" "$WORK/d-moved"
ln -s "$WORK/d-other" "$root"
kill -TERM "$MPIRUN_PID"
finish
sleep 1  # the background removal, had it been started on the name
expect_other_intact "$WORK/d-other/r1" "(d)"
expect_replaced "(d)" "$root"
rm -rf "$WORK/d" "$WORK/d-moved" "$WORK/d-other"
note "(e) -o's directory renamed during the run, a link to another directory holding a file with the report's name in its place"
mkdir "$WORK/e-out" "$WORK/e-other"
echo precious >"$WORK/e-other/report.txt"
start_bg e -d "$WORK/e" -n "$N" --cleanup -o "$WORK/e-out/report.txt" "${SLOW[@]}"
wait_for "$WORK/e/write1.txt"
mv "$WORK/e-out" "$WORK/e-moved"
ln -s "$WORK/e-other" "$WORK/e-out"
finish
[ "$(cat "$WORK/e-other/report.txt")" = precious ] || fail "(e) the other directory's report.txt was replaced"
[ "$(ls -A "$WORK/e-other")" = report.txt ] || fail "(e) the other directory got: $(ls -A "$WORK/e-other")"
grep -q '^files written per repetition' "$WORK/e-moved/report.txt" || fail "(e) no report in the renamed directory"
[ "$(ls -A "$WORK/e-moved")" = report.txt ] || fail "(e) the renamed directory holds: $(ls -A "$WORK/e-moved")"
cmp -s "$OUT" "$WORK/e-moved/report.txt" || fail "(e) the report is not on standard output: $(head -c 300 "$OUT")"
[ "$STATUS" -eq 1 ] || { cat "$ERR" >&2; fail "(e) exit $STATUS, expected 1"; }
if [ "$(grep -c '^mpiwrite: error: ' "$ERR")" -ne 1 ] ||
  ! grep -q "^mpiwrite: error: -o $WORK/e-out/report.txt: its directory $WORK/e-out is no longer the directory it named when the run began (.*); the report was written into the directory it named when the run began" "$ERR"; then
  fail "(e) not one line naming -o's directory: $(cat "$ERR")"
fi
[ ! -e "$WORK/e" ] || fail "(e) --dir was not removed"
rm -rf "$WORK/e-out" "$WORK/e-moved" "$WORK/e-other"

note "(f) SIGTERM, --cleanup of a --dir the run made: --dir's parent renamed and replaced by a link; the report copy goes to the held parent"
mkdir -p "$WORK/f-parent" "$WORK/f-other"
start_bg f -d "$WORK/f-parent/data" -n "$N" --cleanup "${SLOW[@]}"
wait_for "$WORK/f-parent/data/write1.txt"
mv "$WORK/f-parent" "$WORK/f-moved"
ln -s "$WORK/f-other" "$WORK/f-parent"
kill -TERM "$MPIRUN_PID"
finish
[ -z "$(ls -A "$WORK/f-other")" ] || fail "(f) the other directory got: $(ls -A "$WORK/f-other")"
copy=$(compgen -G "$WORK/f-moved/mpiwrite-interrupted-*.txt" | head -n 1 || true)
[ -n "$copy" ] || fail "(f) no report copy in the renamed parent: $(ls -A "$WORK/f-moved"); $(cat "$ERR")"
[ "$STATUS" -eq 1 ] || { cat "$ERR" >&2; fail "(f) exit $STATUS, expected 1"; }
grep -q "^mpiwrite: error: $WORK/f-parent/$(basename "$copy"): its directory $WORK/f-parent is no longer the directory" "$ERR" ||
  fail "(f) no line naming the copy's directory: $(cat "$ERR")"
rm -rf "$WORK/f-parent" "$WORK/f-moved" "$WORK/f-other"
note "ok"
