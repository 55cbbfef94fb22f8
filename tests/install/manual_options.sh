#!/usr/bin/env bash
# The man pages and bash completions hold exactly the options --help lists, for mpiwrite and
# mpiwrite-compare (issue 25 §2): the three are read as a user meets them, --help from the
# binary, the page rendered by groff, the completion by running its function as bash does on
# "PROGRAM -<TAB>". Then a few values complete, and the check itself is shown to catch a
# missing option. Environment: MPIWRITE, MPIWRITE_COMPARE (the binaries), MANUAL_DIR (the
# build's manual/ folder: man/*.1, completion/*).
set -euo pipefail
: "${MPIWRITE:?}" "${MPIWRITE_COMPARE:?}" "${MANUAL_DIR:?}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mpiwrite-manual-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }

# The option names in --help's name column: lines "  -n,--files N" (a wrapped description is
# indented further, so an option it mentions is not taken for one).
help_options() {
  "$1" --help | sed -n 's/^  \(-[^ ]*\).*/\1/p' | tr ',' '\n' | sort -u
}

# The option names the rendered page tags in OPTIONS: "       -n, --files N" (indent 7).
page_options() {
  sed -n '/^OPTIONS/,/^[A-Z]/p' "$1" | sed -n 's/^       \(-.*\)/\1/p' |
    tr ' ' '\n' | sed -n 's/,$//; /^-/p' | sort -u
}

# What the completion offers for "PROGRAM WORD..." with the cursor after the last word.
complete_words() {
  local script=$1 program=$2
  shift 2
  bash -c '
    source "$1"; shift
    function=$(complete -p "$1" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    "$function"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$program" "$@"
}

# same_options LABEL A B: the two lists hold the same names, or say which differ.
same_options() {
  if ! diff -u "$2" "$3" >"$WORK/diff"; then
    cat "$WORK/diff" >&2
    return 1
  fi
}

for program in mpiwrite mpiwrite-compare; do
  binary=$MPIWRITE
  [ "$program" = mpiwrite ] || binary=$MPIWRITE_COMPARE
  page=$MANUAL_DIR/man/$program.1
  completion=$MANUAL_DIR/completion/$program
  [ -f "$page" ] && [ -f "$completion" ] || fail "no $page or $completion: build mpiwrite_manual"

  note "$program: the page renders without a groff warning"
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
  [ -z "$warnings" ] || fail "$page: $warnings"
  groff -man -Tutf8 -P-cbou "$page" >"$WORK/$program.txt" 2>/dev/null

  note "$program: --help, the man page and the completion name the same options"
  help_options "$binary" >"$WORK/$program.help"
  page_options "$WORK/$program.txt" >"$WORK/$program.page"
  complete_words "$completion" "$program" "$program" - | sort -u >"$WORK/$program.completion"
  [ "$(wc -l <"$WORK/$program.help")" -ge 6 ] || fail "$program --help lists too few options"
  same_options "$program" "$WORK/$program.help" "$WORK/$program.page" ||
    fail "$program: --help and the man page list different options (- help, + page)"
  same_options "$program" "$WORK/$program.help" "$WORK/$program.completion" ||
    fail "$program: --help and the completion list different options (- help, + completion)"
  echo "   $(wc -l <"$WORK/$program.help") option names in each"
done

note "the check catches an option missing from a page (a page without --wide)"
grep -v -- '--wide' "$WORK/mpiwrite.txt" >"$WORK/short.txt"
page_options "$WORK/short.txt" >"$WORK/short.page"
! same_options planted "$WORK/mpiwrite.help" "$WORK/short.page" 2>/dev/null ||
  fail "a page without --wide passed the comparison"

note "values complete: choices, and paths for files"
completion=$MANUAL_DIR/completion/mpiwrite
[ "$(complete_words "$completion" mpiwrite mpiwrite --partition '' | tr '\n' ' ')" = \
  "block cyclic dynamic " ] || fail "--partition does not complete its choices"
[ "$(complete_words "$completion" mpiwrite mpiwrite --engine u)" = uring ] ||
  fail "--engine u does not complete to uring"
[ -z "$(complete_words "$completion" mpiwrite mpiwrite --files '')" ] ||
  fail "--files (a number) offers words"
mkdir "$WORK/reports" && : >"$WORK/reports/old.json"
(cd "$WORK/reports" &&
  [ "$(complete_words "$completion" mpiwrite mpiwrite --json o)" = old.json ]) ||
  fail "--json does not complete a file name"
compare_completion=$MANUAL_DIR/completion/mpiwrite-compare
(cd "$WORK/reports" &&
  [ "$(complete_words "$compare_completion" mpiwrite-compare mpiwrite-compare o)" = old.json ]) ||
  fail "mpiwrite-compare's OLD does not complete a file name"
[ "$(complete_words "$compare_completion" mpiwrite-compare mpiwrite-compare --format m)" = \
  markdown ] || fail "mpiwrite-compare --format m does not complete to markdown"
echo "PASS"
