#!/usr/bin/env bash
# Bad input, from the table in docs/errors.md: the rows of its first table
# (| case | arguments | exit | message contains | checked by |) whose "checked by" says e2e are
# each one run of mpiwrite under mpiexec with RANKS ranks, checked for: the exit code of the
# row, exactly one line starting "mpiwrite: error:" on standard error that contains the row's
# text, nothing on standard output, and nothing created, changed or deleted in the row's
# scratch directory (which is also mpiexec's working directory). The rows marked unit only are
# those the options alone decide: tests/unit/errors_table_test.cpp checks them in
# milliseconds (ERRORS_TABLE_ALL=1 runs them here too). Adding a row adds a test.
#
# Placeholders (fresh for every row, see docs/errors.md): {dir} {file} {dangling} {missing}
# {taken} {linked} {fifo} {hardlinked} {subdir} {takenlink} {nl} {xN}. A row without -d/--dir gets "-d {dir}" in front of its arguments.
#
# With RANKS = 1 each row runs the binary alone (an MPI singleton, as on a login node: 0.7 s a
# row, where mpiexec -n 1 took 2.7 s); with more, under mpiexec.
# A failing mpiexec takes 1.5-2.5 s, mostly waiting, so rows run ERRORS_TABLE_JOBS at a time
# (default 6), each in its own scratch directory. ERRORS_TABLE_ROWS=REGEX runs only the rows
# whose case matches, ERRORS_TABLE_EXCEPT=REGEX all but those (CTest splits the rows between
# 1 and 4 ranks with one regex, tests/CMakeLists.txt). Usage: errors_table.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
# Every row fails, after which mpirun waits odls_base_sigkill_timeout (1 s) twice though every
# rank has exited (1.6 s a launch -> 0.6 s): waiting that tests nothing of mpiwrite's.
export OMPI_MCA_odls_base_sigkill_timeout=0

DOC=${ERRORS_DOC:-$(cd "$(dirname "$0")/../.." && pwd)/docs/errors.md}
JOBS=${ERRORS_TABLE_JOBS:-6}
ONLY=${ERRORS_TABLE_ROWS:-}
EXCEPT=${ERRORS_TABLE_EXCEPT:-}
ALL=${ERRORS_TABLE_ALL:-}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || fail "ERRORS_TABLE_JOBS must be a whole number >= 1"
[ -r "$DOC" ] || fail "cannot read $DOC"
# mpiexec runs in each row's scratch directory: MPIWRITE must not depend on the cwd.
if [[ $MPIWRITE == */* && $MPIWRITE != /* ]]; then MPIWRITE=$(cd "$(dirname "$MPIWRITE")" && pwd)/$(basename "$MPIWRITE"); fi

# The rows to run here (marked e2e, or every row with ALL), as NUL-separated fields: case,
# exit, message, argc, args...
python3 - "$DOC" "$ALL" >"$WORK/rows" <<'PY'
import re, shlex, sys
path, everything = sys.argv[1], sys.argv[2]
header = ["case", "arguments", "exit", "message contains", "checked by"]
def cells(line):
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    parts = re.split(r"(?<!\\)\|", line[1:-1])
    return [p.strip().replace("\\|", "|") for p in parts]
def code(cell):  # `text` -> text
    return cell[1:-1] if len(cell) >= 2 and cell[0] == "`" and cell[-1] == "`" else cell
rows, state = [], "before"
with open(path, encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        c = cells(line)
        if state == "before":
            if c == header:
                state = "separator"
        elif state == "separator":
            if c is None or not all(re.fullmatch(r":?-+:?", x) for x in c):
                sys.exit(f"{path}:{number}: expected the table's separator line")
            state = "rows"
        else:
            if c is None:
                break
            if len(c) != 5:
                sys.exit(f"{path}:{number}: {len(c)} cells, expected 5")
            name, args, status, message, checked_by = c
            try:
                argv = shlex.split(code(args))
            except ValueError as e:
                sys.exit(f"{path}:{number}: arguments: {e}")
            if not re.fullmatch(r"[0-9]+", status):
                sys.exit(f"{path}:{number}: exit code {status!r} is not a number")
            message = code(message)
            if not name or not message:
                sys.exit(f"{path}:{number}: empty case or message")
            if checked_by not in ("unit", "e2e", "unit, e2e"):
                sys.exit(f"{path}:{number}: checked by {checked_by!r}, not unit, e2e or both")
            if "e2e" in checked_by or everything:
                rows.append([name, status, message, str(len(argv))] + argv)
if not rows:
    sys.exit(f"{path}: no table with the header | {' | '.join(header)} |")
for row in rows:
    for field in row:
        if "\0" in field:
            sys.exit(f"{path}: a NUL in row {row[0]!r}")
        sys.stdout.write(field + "\0")
PY

# expand TEXT ROOT: the placeholders of TEXT, for the row whose scratch directory is ROOT.
expand() {
  local s=$1 root=$2 n xs
  s=${s//'{dir}'/$root/fresh}
  s=${s//'{file}'/$root/file}
  s=${s//'{dangling}'/$root/dangling}
  s=${s//'{missing}'/$root/no-such-parent/dir}
  s=${s//'{taken}'/$root/taken}
  s=${s//'{linked}'/$root/linked}
  s=${s//'{fifo}'/$root/fifo}
  s=${s//'{hardlinked}'/$root/hardlinked}
  s=${s//'{subdir}'/$root/subdir}
  s=${s//'{takenlink}'/$root/takenlink}
  s=${s//'{layouts}'/$root/layouts}
  s=${s//'{layoutlink}'/$root/layoutlink}
  s=${s//'{nl}'/$'\n'}
  while [[ $s =~ \{x([0-9]+)\} ]]; do
    n=${BASH_REMATCH[1]}
    printf -v xs '%*s' "$n" ''
    s=${s//"{x$n}"/${xs// /x}}
  done
  printf '%s' "$s"
}

# Everything under ROOT: name, type, size, mtime, link target.
listing() { find "$1" -printf '%P\t%y\t%s\t%T@\t%l\n' | LC_ALL=C sort; }

# check_row INDEX NAME EXIT MESSAGE ARGS...: runs one row; writes its verdict into
# $WORK/row-INDEX/verdict ("ok" or the problems) and exits 0.
check_row() {
  local index=$1 name=$2 want=$3 message=$4
  shift 4
  local row=$WORK/row-$index root=$WORK/row-$index/scratch arg args=() has_dir='' problems=()
  mkdir -p "$root"
  # The fixtures: a regular file, a dangling symbolic link, a directory holding write1.txt,
  # and a symbolic link to that directory.
  echo "a regular file" >"$root/file"
  ln -s "$root/nowhere" "$root/dangling"
  mkdir "$root/taken"
  echo "precious" >"$root/taken/write1.txt"
  # Names that --overwrite must not write through: a link out of the directory, a FIFO, a
  # second hard link of a file elsewhere, a directory.
  echo "outside" >"$root/outside"
  mkdir "$root/linked" "$root/fifo" "$root/hardlinked" "$root/subdir"
  ln -s "$root/outside" "$root/linked/write1.txt"
  mkfifo "$root/fifo/write1.txt"
  ln "$root/outside" "$root/hardlinked/write1.txt"
  mkdir "$root/subdir/write1.txt"
  ln -s taken "$root/takenlink"
  # Layout directories (--layout, --files-per-dir): one there already (rank0, and d0 holding
  # a file of the run's names), and one that is a link to another directory.
  mkdir -p "$root/layouts/rank0" "$root/layouts/d0" "$root/layoutlink"
  echo "precious" >"$root/layouts/d0/write1.txt"
  ln -s "$root/taken" "$root/layoutlink/rank0"
  for arg in "$@"; do
    case $arg in -d | --dir | --dir=*) has_dir=1 ;; esac
    args+=("$(expand "$arg" "$root")")
  done
  [ -n "$has_dir" ] || args=(-d "$root/fresh" "${args[@]}")
  message=$(expand "$message" "$root")
  listing "$root" >"$row/before"
  local started=$SECONDS
  # In a subshell: mpiexec's cwd is the scratch directory, and lib.sh's fail() (a hang) ends
  # only the subshell. run_mpiwrite (below) leaves the exit code in $row/status.
  (cd "$root" && WORK=$row && run_mpiwrite "${args[@]}") 2>"$row/runner" ||
    problems+=("$(cat "$row/runner")")
  local status
  status=$(cat "$row/status" 2>/dev/null || echo '?')
  [ "$status" = "$want" ] || problems+=("exit code $status, expected $want")
  local errors
  errors=$(grep -c '^mpiwrite: error:' "$row/err" || true)
  [ "$errors" -eq 1 ] || problems+=("$errors lines start with 'mpiwrite: error:', expected 1")
  grep '^mpiwrite: error:' "$row/err" | grep -qF -- "$message" ||
    problems+=("no error line contains: $message")
  [ ! -s "$row/out" ] || problems+=("printed on standard output: $(head -c 200 "$row/out")")
  listing "$root" >"$row/after"
  cmp -s "$row/before" "$row/after" ||
    problems+=("the scratch directory changed: $(diff "$row/before" "$row/after" | grep '^[<>]' | head -n 5 | tr '\n' ' ')")
  [ "$(cat "$root/taken/write1.txt" 2>/dev/null)" = precious ] || problems+=("{taken}/write1.txt was changed")
  [ "$(cat "$root/outside" 2>/dev/null)" = outside ] || problems+=("a file outside --dir was changed")
  {
    if ((${#problems[@]} == 0)); then
      echo "ok"
    else
      printf '%s\n' "${problems[@]}"
      echo "-- stderr:"
      cat "$row/err"
    fi
  } >"$row/verdict"
  echo $((SECONDS - started)) >"$row/seconds"
  printf '%q ' "${args[@]}" >"$row/command"
}

names=() wants=() messages=() argvs=()
index=0
while IFS= read -r -d '' name && IFS= read -r -d '' want && IFS= read -r -d '' message &&
  IFS= read -r -d '' argc; do
  argv=()
  for ((k = 0; k < argc; k++)); do IFS= read -r -d '' arg; argv+=("$arg"); done
  if [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; then continue; fi
  if [ -n "$EXCEPT" ] && [[ $name =~ $EXCEPT ]]; then continue; fi
  index=$((index + 1))
  names[index]=$name wants[index]=$want messages[index]=$message
  argvs[index]=''
  ((argc == 0)) || printf -v 'argvs[index]' '%q ' "${argv[@]}"
done <"$WORK/rows"
total=$index
((total > 0)) || fail "no rows to run"
note "$total rows of $DOC, $RANKS rank(s), $JOBS at a time"

# The rows, JOBS at a time, each in the background with its own WORK.
started=$SECONDS
for ((i = 1; i <= total; i++)); do
  while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
  eval "argv=(${argvs[i]})"
  (
    trap - EXIT
    set +e
    run_mpiwrite() { # lib.sh's, with the status kept for check_row
      set +e
      # Its own Open MPI session directory (beside the row's scratch, not in it): launches
      # started together raced on one /tmp/ompi.HOST.UID, and one in three runs of this test
      # had a row fail in orte_init ("A call to mkdir was unable to create the desired
      # directory ... File exists", exit 1, no line of mpiwrite's): Open MPI's, not the row's.
      mkdir -p "$WORK/ompi-session"
      export OMPI_MCA_orte_tmpdir_base=$WORK/ompi-session
      if [ "$RANKS" -eq 1 ]; then  # a singleton: the binary alone, as on a login node
        timeout --kill-after=10 90 "$MPIWRITE" "$@" >"$WORK/out" 2>"$WORK/err"
      else
        # shellcheck disable=SC2086
        timeout --kill-after=10 90 $MPIEXEC -n "$RANKS" "$MPIWRITE" "$@" >"$WORK/out" 2>"$WORK/err"
      fi
      STATUS=$?
      echo "$STATUS" >"$WORK/status"
      [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || fail "mpiwrite hung: $*"
    }
    check_row "$i" "${names[i]}" "${wants[i]}" "${messages[i]}" "${argv[@]}"
  ) &
done
wait

failed=()
for ((i = 1; i <= total; i++)); do
  row=$WORK/row-$i
  verdict=$(cat "$row/verdict" 2>/dev/null || echo "no verdict (the row's runner died)")
  if [ "$verdict" = ok ]; then
    printf 'ok    %2d  %-48s %3ss\n' "$i" "${names[i]}" "$(cat "$row/seconds")"
  else
    printf 'FAIL  %2d  %-48s %3ss\n' "$i" "${names[i]}" "$(cat "$row/seconds" 2>/dev/null || echo '?')"
    printf '        mpiwrite %s\n' "$(cat "$row/command" 2>/dev/null)"
    sed 's/^/        /' <<<"$verdict"
    failed+=("$i ${names[i]}")
  fi
done
echo "$total rows, $((total - ${#failed[@]})) passed, ${#failed[@]} failed ($RANKS rank(s), $((SECONDS - started)) s)"
if ((${#failed[@]} > 0)); then
  printf 'failing row: %s\n' "${failed[@]}" >&2
  fail "${#failed[@]} of $total rows of $DOC failed"
fi
echo "PASS"
