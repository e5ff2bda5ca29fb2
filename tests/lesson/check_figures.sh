#!/bin/sh
# Checks that `gpusplit numbers` prints every figure the lesson page quotes: each line of
# figures.txt must occur in the page (lesson.txt) and in the program's output.
# Usage: tests/lesson/check_figures.sh build/gpusplit
set -u
here=$(dirname "$0")
binary=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$binary" numbers > "$out"; then
  echo "check_figures: $binary numbers failed"
  exit 1
fi
passed=0
failed=0
while IFS= read -r figure; do
  case $figure in '#'* | '') continue ;; esac
  if ! grep -qF -- "$figure" "$here/lesson.txt"; then
    echo "not in the lesson (a typo in figures.txt?): $figure"
    failed=$((failed + 1))
  elif ! grep -qF -- "$figure" "$out"; then
    echo "not printed by gpusplit numbers: $figure"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done < "$here/figures.txt"
echo "check_figures: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
