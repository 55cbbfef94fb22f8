#!/usr/bin/env bash
# Formats the tracked C and C++ files with .clang-format; --check only lists those it would
# change (exit 1 if any). Needs clang-format (Debian: apt install clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format.sh: no clang-format (apt install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.c' '*.h')
if [[ ${1:-} == --check ]]; then
  status=0
  for f in "${files[@]}"; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then echo "$f"; status=1; fi
  done
  exit $status
fi
clang-format --style=file -i "${files[@]}"
