#!/bin/sh
# A failure that is not bad input exits 1, never 0: report in a build whose built-in
# efficiency table holds no figures (the Makefile's build/broken/gpusplit) refuses real
# hardware's rules, which need it, with one line and exit 1, and prints no figure; the
# lesson's rules, which do not read it, still work. (report once mapped every status but
# bad input to 0, so this run printed nothing and exited 0.)
# Usage: tests/c/failure_test.sh build/broken/gpusplit
set -u
binary=${1:?usage: tests/c/failure_test.sh BROKEN_BINARY}
passed=0
failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

check() { # name, then a shell condition
  name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); fi
}
one_line() { [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "^gpusplit: data/efficiency.json (built in): " "$tmp/err"; }

for command in "report --gpu h100-sxm" "report --gpu h100-sxm --json" "report --gpu h200 --model 8b --counts 1,2"; do
  # shellcheck disable=SC2086 # one word per argument
  "$binary" $command > "$tmp/out" 2> "$tmp/err"
  status=$?
  check "broken efficiency: gpusplit $command exits 1 (got $status)" [ "$status" -eq 1 ]
  check "broken efficiency: gpusplit $command says why in one line" one_line
  check "broken efficiency: gpusplit $command prints no figure" [ ! -s "$tmp/out" ]
done

"$binary" report --model 70b --counts 4 > "$tmp/out" 2> "$tmp/err"
status=$?
check "broken efficiency: the lesson's report still exits 0 (got $status)" [ "$status" -eq 0 ]
check "broken efficiency: the lesson's report prints its 4-GPU row" grep -q "^    4 .* 18.94 " "$tmp/out"

echo "failure_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
