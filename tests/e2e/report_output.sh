#!/usr/bin/env bash
# The report's outputs (docs/errors.md, "The report's outputs"): -o writes to what stands at
# the path without ever replacing a device, FIFO or link by a regular file; a report that
# cannot be written is exit 1 naming the output and the true strerror, while the other output
# still gets it; -o problems found before the run are exit 2 with nothing created; strings
# that are not UTF-8 give JSON that python3 reads back byte for byte. Usage: report_output.sh RANKS
# The private device node, the tmpfs mounts, the user nobody and the host name need root;
# those cases are skipped otherwise.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; none is signalled (lib.sh)

ROOT=$([ "$(id -u)" -eq 0 ] && echo 1 || true)
SMALL=(-n 6 -l 2)
fresh() { mktemp -u "$WORK/data-XXXXXX"; }  # a --dir path not taken yet

# The report on standard output is a whole table report.
expect_report_on_stdout() {
  grep -q '^files written per repetition: 6 (' "$WORK/out" || fail "no whole report on stdout: $(head -c 300 "$WORK/out")"
}

# Private stand-ins first: against an mpiwrite that replaces what stands at -o, these fail
# before anything of the system's (/dev/null, /dev/stdout) is at stake.
if [ -n "$ROOT" ]; then
  note "-o to a character device (a private /dev/null)"
  mknod "$WORK/null" c 1 3
  run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/null"
  expect_status 0
  [ -c "$WORK/null" ] || fail "$WORK/null is no longer a character device"
  expect_report_on_stdout
fi

note "-o to a link to /proc/self/fd/1 (what /dev/stdout is)"
ln -s /proc/self/fd/1 "$WORK/stdout-link"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/stdout-link"
expect_status 0
[ "$(readlink "$WORK/stdout-link")" = /proc/self/fd/1 ] || fail "the link to /proc/self/fd/1 was replaced"
[ "$(grep -c '^files written per repetition' "$WORK/out")" -eq 1 ] || fail "the report is not on stdout exactly once"

note "-o /dev/null and -o /dev/stdout"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o /dev/null
expect_status 0
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
expect_report_on_stdout
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o /dev/stdout
expect_status 0
[ -L /dev/stdout ] || fail "/dev/stdout is no longer a symbolic link"
[ "$(grep -c '^files written per repetition' "$WORK/out")" -eq 1 ] || fail "-o /dev/stdout: the report is not on stdout exactly once"

if [ "$RANKS" -eq 1 ]; then
  note "-o /dev/stdout, standard output a file (> and >>), without mpiexec"
  echo "an earlier line" >"$WORK/appended"
  (cd "$WORK" && "$MPIWRITE" -d "$(fresh)" "${SMALL[@]}" -o /dev/stdout >"$WORK/redirected" &&
    "$MPIWRITE" -d "$(fresh)" "${SMALL[@]}" -o /dev/stdout >>"$WORK/appended") 2>"$WORK/err" ||
    fail "singleton -o /dev/stdout failed: $(cat "$WORK/err")"
  [ "$(grep -c '^files written per repetition' "$WORK/redirected")" -eq 1 ] || fail "> FILE: the report is not there once"
  [ "$(head -n 1 "$WORK/appended")" = "an earlier line" ] || fail ">> FILE: what was there before was lost"
  [ "$(grep -c '^files written per repetition' "$WORK/appended")" -eq 1 ] || fail ">> FILE: the report is not there once"
fi

note "-o to a FIFO with a reader"
mkfifo "$WORK/fifo"
cat "$WORK/fifo" >"$WORK/from-fifo" &
reader=$!
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/fifo"
expect_status 0
wait "$reader"
[ -p "$WORK/fifo" ] || fail "the FIFO was replaced"
cmp -s "$WORK/out" "$WORK/from-fifo" || fail "the reader of the FIFO did not get the report"

note "-o through a symbolic link to a regular file: the target replaced, the link and mode kept"
mkdir "$WORK/elsewhere"
echo old >"$WORK/elsewhere/report.txt"
chmod 0600 "$WORK/elsewhere/report.txt"
ln -s elsewhere/report.txt "$WORK/report-link"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/report-link"
expect_status 0
[ "$(readlink "$WORK/report-link")" = elsewhere/report.txt ] || fail "the link was replaced"
cmp -s "$WORK/out" "$WORK/elsewhere/report.txt" || fail "the link's target is not the report"
[ "$(stat -c %a "$WORK/elsewhere/report.txt")" = 600 ] || fail "the target's mode changed"
[ "$(find "$WORK/elsewhere" -mindepth 1 | wc -l)" -eq 1 ] || fail "a temporary file was left"

note "-o to a dangling symbolic link: written through it"
ln -s "$WORK/made-through-link.txt" "$WORK/dangling"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/dangling"
expect_status 0
[ -L "$WORK/dangling" ] || fail "the dangling link was replaced"
cmp -s "$WORK/out" "$WORK/made-through-link.txt" || fail "the link's target is not the report"

note "-o to an existing file keeps its mode; a new one is 0644 minus the umask"
echo old >"$WORK/kept-mode.txt"
chmod 0640 "$WORK/kept-mode.txt"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/kept-mode.txt"
expect_status 0
[ "$(stat -c %a "$WORK/kept-mode.txt")" = 640 ] || fail "mode $(stat -c %a "$WORK/kept-mode.txt"), expected 640"
cmp -s "$WORK/out" "$WORK/kept-mode.txt" || fail "the file is not the report"
(umask 027 && run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/new-mode.txt" && expect_status 0)
[ "$(stat -c %a "$WORK/new-mode.txt")" = 640 ] || fail "new file mode $(stat -c %a "$WORK/new-mode.txt"), expected 0644 & ~027"

note "standard output on /dev/full: exit 1, named with ENOSPC, the -o copy still written"
set +e
# Under mpiexec rank 0's standard output is a pipe to mpiexec; the redirect puts each rank's
# own standard output on /dev/full.
# shellcheck disable=SC2086
timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" sh -c 'exec "$0" "$@" >/dev/full' "$MPIWRITE" \
  -d "$(fresh)" "${SMALL[@]}" -o "$WORK/copy.txt" ${MPIWRITE_ARGS:-} >"$WORK/out" 2>"$WORK/err"
STATUS=$?
set -e
expect_status 1
[ "$(error_lines)" -eq 1 ] || fail "expected one error line: $(cat "$WORK/err")"
grep -qx 'mpiwrite: error: standard output: write: No space left on device' "$WORK/err" ||
  fail "no 'standard output: ... No space left on device': $(cat "$WORK/err")"
grep -q '^files written per repetition: 6 (' "$WORK/copy.txt" || fail "the -o copy was not written"
if [ "$RANKS" -eq 1 ]; then
  set +e
  (cd "$WORK" && timeout 60 "$MPIWRITE" -d "$(fresh)" "${SMALL[@]}" >/dev/full 2>"$WORK/err")
  STATUS=$?
  set -e
  expect_status 1
  grep -qx 'mpiwrite: error: standard output: write: No space left on device' "$WORK/err" ||
    fail "singleton > /dev/full: $(cat "$WORK/err")"
  set +e
  (cd "$WORK" && timeout 60 "$MPIWRITE" --dry-run -n 4 >/dev/full 2>"$WORK/err")
  STATUS=$?
  set -e
  expect_status 1
fi

if [ -n "$ROOT" ] && mkdir "$WORK/mnt" && mount -t tmpfs -o size=64k,mode=0755 tmpfs "$WORK/mnt" 2>/dev/null; then
  trap 'umount "$WORK/mnt" 2>/dev/null || umount -l "$WORK/mnt"; cleanup_work' EXIT
  note "-o on a full file system: exit 1, the path as given and ENOSPC; stdout has the report"
  dd if=/dev/zero of="$WORK/mnt/fill" bs=4k 2>/dev/null || true
  run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/mnt/report.txt"
  expect_status 1
  [ "$(error_lines)" -eq 1 ] || fail "expected one error line: $(cat "$WORK/err")"
  grep -qx "mpiwrite: error: $WORK/mnt/report.txt: write: No space left on device" "$WORK/err" ||
    fail "not the path as given with ENOSPC: $(cat "$WORK/err")"
  expect_report_on_stdout
  [ "$(find "$WORK/mnt" -mindepth 1 | wc -l)" -eq 1 ] || fail "a temporary file was left on the full disk"
  rm -f "$WORK/mnt/fill"

  note "-o on a read-only file system: exit 2 before anything is created"
  mount -o remount,ro "$WORK/mnt"
  data=$(fresh)
  run_mpiwrite -d "$data" "${SMALL[@]}" -o "$WORK/mnt/report.txt"
  expect_status 2
  grep -qx "mpiwrite: error: --output $WORK/mnt/report.txt: $WORK/mnt is on a read-only file system" "$WORK/err" ||
    fail "read-only: $(cat "$WORK/err")"
  [ ! -e "$data" ] && [ ! -s "$WORK/out" ] || fail "read-only -o: the run went ahead"
  mount -o remount,rw "$WORK/mnt"

  note "-o where the user may not create a file (as nobody): exit 2 before anything is created"
  chmod 0755 "$WORK"
  mkdir -m 0777 "$WORK/open"
  mkdir -m 0755 "$WORK/locked"
  cp "$MPIWRITE" "$WORK/mpiwrite" && chmod 0755 "$WORK/mpiwrite"
  set +e
  # shellcheck disable=SC2086
  (cd "$WORK/open" && timeout --kill-after=10 90 setpriv --reuid=nobody --regid=nogroup --clear-groups \
    env HOME="$WORK/open" TMPDIR=/tmp $MPIEXEC -n "$RANKS" "$WORK/mpiwrite" -d "$WORK/open/data" \
    "${SMALL[@]}" -o "$WORK/locked/report.txt" >"$WORK/out" 2>"$WORK/err")
  STATUS=$?
  set -e
  expect_status 2
  grep -qx "mpiwrite: error: --output $WORK/locked/report.txt: no permission to create a file in $WORK/locked" "$WORK/err" ||
    fail "permission: $(cat "$WORK/err")"
  [ ! -e "$WORK/open/data" ] || fail "no permission for -o: --dir was created all the same"
fi

note "bytes that are not UTF-8 in --text, --dir and --pattern: JSON python3 reads back exactly"
odd_dir=$WORK/$'caf\xe9-\xff\nx'
run_mpiwrite -d "$odd_dir" -n 3 -l 1 --text $'t\x80\xc3\xa9|"' --pattern $'w\xfe{}.txt' \
  --format json -o "$WORK/odd.json"
expect_status 0
cmp -s "$WORK/out" "$WORK/odd.json" || fail "-o differs from standard output"
python3 - "$WORK/odd.json" "$odd_dir" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
def raw(s):  # docs/metrics.md: invalid bytes are U+DC80..U+DCFF (surrogateescape)
    return s.encode("utf-8", "surrogateescape")
want_dir = os.fsencode(sys.argv[2])
checks = [(raw(doc["config"]["text"]), b't\x80\xc3\xa9|"'),
          (raw(doc["config"]["pattern"]), b"w\xfe{}.txt"),
          (raw(doc["config"]["dir"]), want_dir),
          (raw(doc["context"]["directory"]), os.path.realpath(want_dir))]
for got, want in checks:
    if got != want:
        sys.exit(f"FAIL: {got!r} != {want!r}")
names = sorted(os.listdir(want_dir))
if names != [b"w\xfe1.txt", b"w\xfe2.txt", b"w\xfe3.txt"]:
    sys.exit(f"FAIL: files {names!r}")
PY

note "a newline and '|' in --dir: every format keeps its lines"
nl_dir=$WORK/$'a\nb|c'
run_mpiwrite -d "$nl_dir" -n 3 -l 1 --format markdown
expect_status 0
grep -q '^- directory: `.*/a\\nb|c` (' "$WORK/out" || fail "markdown bullet broken: $(head -n 5 "$WORK/out")"
run_mpiwrite -d "$nl_dir" -n 3 -l 1 --overwrite
expect_status 0
grep -q '^directory: .*/a\\nb|c (' "$WORK/out" || fail "table line broken: $(head -n 5 "$WORK/out")"

if [ "$RANKS" -eq 1 ] && [ -n "$ROOT" ] && unshare -u true 2>/dev/null; then
  note "a host name that is not UTF-8 (a private UTS namespace, without mpiexec)"
  # mpiexec refuses such a node name itself; a singleton rank reports it.
  (cd "$WORK" && unshare -u sh -c 'printf "h\377|x" >/proc/sys/kernel/hostname && exec "$0" "$@"' \
    "$MPIWRITE" -d "$(fresh)" -n 3 -l 1 --format json >"$WORK/host.json" 2>"$WORK/err") ||
    fail "odd host name: $(cat "$WORK/err")"
  python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["context"]["hosts"][0]["host"]
sys.exit(0 if h.encode("utf-8","surrogateescape") == b"h\xff|x" else f"FAIL: host {h!r}")' "$WORK/host.json"
fi
note "-o inside a --dir not made yet, the two spelled differently: accepted, written there"
for spelling in "./newdir" "$WORK/newdir"; do
  rm -rf "$WORK/newdir"
  (cd "$WORK" && run_mpiwrite -d "$spelling" -n 3 -l 1 -o newdir/r.txt)
  expect_status 0
  cmp -s "$WORK/out" "$WORK/newdir/r.txt" || fail "-d $spelling -o newdir/r.txt: no copy of the report"
done
rm -rf "$WORK/newdir"
note "-o /dev/fd/3 open on a data file of the run (a plain process): refused"
mkdir "$WORK/fd"
for i in 1 2 3; do echo old >"$WORK/fd/write$i.txt"; done
set +e
"$MPIWRITE" --overwrite -d "$WORK/fd" -n 3 -l 2 -o /dev/fd/3 3>>"$WORK/fd/write1.txt" >"$WORK/out" 2>"$WORK/err"
STATUS=$?
set -e
expect_status 2
grep -q "is write1.txt, a file this run writes" "$WORK/err" || fail "no message: $(cat "$WORK/err")"
[ "$(cat "$WORK/fd/write1.txt")" = old ] || fail "the data file was replaced"
rm -rf "$WORK/fd"
note "standard output appended to a data file of the run (a plain process): refused"
mkdir "$WORK/sod"
for i in 1 2 3; do echo old >"$WORK/sod/write$i.txt"; done
set +e
"$MPIWRITE" --overwrite -d "$WORK/sod" -n 3 -l 2 >>"$WORK/sod/write2.txt" 2>"$WORK/err"
STATUS=$?
set -e
expect_status 2
grep -q "standard output is $WORK/sod/write2.txt, a file this run writes" "$WORK/err" || fail "no message: $(cat "$WORK/err")"
[ "$(cat "$WORK/sod/write2.txt")" = old ] || fail "the data file was changed"
rm -rf "$WORK/sod"
echo "PASS"
