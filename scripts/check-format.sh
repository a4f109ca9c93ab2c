#!/usr/bin/env bash
# Checks that every C++ file of the repository is formatted by the repository's .clang-format
# (Debian's clang-format 14): prints the files that differ and the diff clang-format would
# apply, and exits 1 if there is any. `make format` rewrites them in place.
#
#   scripts/check-format.sh            check (make test runs this)
#   scripts/check-format.sh --fix      reformat in place
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
fix=0
case "${1:-}" in
  "") ;;
  --fix) fix=1 ;;
  *) echo "check-format.sh: unknown flag '$1' (only --fix)" >&2; exit 2 ;;
esac
command -v clang-format >/dev/null ||
  { echo "check-format.sh: clang-format is not installed (scripts/install-deps.sh)" >&2; exit 2; }

mapfile -t files < <(git ls-files '*.h' '*.cc' '*.cpp' '*.c')
if [[ $fix -eq 1 ]]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
unformatted=()
for file in "${files[@]}"; do
  if ! clang-format --style=file --dry-run -Werror "$file" >/dev/null 2>&1; then
    unformatted+=("$file")
  fi
done
if [[ ${#unformatted[@]} -gt 0 ]]; then
  for file in "${unformatted[@]}"; do
    echo "== $file is not formatted (.clang-format); the fix:"
    clang-format --style=file "$file" | diff -u "$file" - || true
  done
  echo "check-format.sh: ${#unformatted[@]} file(s) differ from .clang-format;" \
    "run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format.sh: ${#files[@]} files match .clang-format ($(clang-format --version))"
