#!/bin/sh
# Output that cannot be written: a full disk (/dev/full), a closed stdout, and a pipe whose
# reader has gone (EPIPE, with SIGPIPE ignored) must each exit 1 with exactly one line on
# stderr, "gpusplit: writing output: <why>"; output that can be written exits 0.
# Usage: tests/c/output_test.sh build/gpusplit
set -u
binary=${1:?usage: tests/c/output_test.sh BINARY}
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
# one_line WHY: stderr is exactly one line, the writing-output message naming WHY.
one_line() { [ "$(wc -l < "$tmp/err")" -eq 1 ] && [ "$(cat "$tmp/err")" = "gpusplit: writing output: $1" ]; }

for command in "report --json" "report" "numbers" "fixture" "--help" "figure slices-vs-groups"; do
  # shellcheck disable=SC2086 # one word per argument
  "$binary" $command > /dev/full 2> "$tmp/err"
  status=$?
  check "gpusplit $command > /dev/full exits 1" [ "$status" -eq 1 ]
  check "gpusplit $command > /dev/full says why in one line" one_line "No space left on device"

  # shellcheck disable=SC2086
  "$binary" $command >&- 2> "$tmp/err"
  status=$?
  check "gpusplit $command with stdout closed exits 1" [ "$status" -eq 1 ]
  check "gpusplit $command with stdout closed says why in one line" one_line "Bad file descriptor"
done

# A pipe whose reader is gone before the first write: the reader closes its end, then
# leaves a mark; the writer waits for the mark, so the order never depends on timing.
rm -f "$tmp/closed"
{
  trap '' PIPE
  tries=0
  while [ ! -e "$tmp/closed" ] && [ "$tries" -lt 600 ]; do sleep 0.1; tries=$((tries + 1)); done
  "$binary" report --json 2> "$tmp/err"
  echo $? > "$tmp/status"
} | {
  exec <&-
  : > "$tmp/closed"
}
check "gpusplit report into a closed pipe, SIGPIPE ignored, exits 1" [ "$(cat "$tmp/status")" = 1 ]
check "gpusplit report into a closed pipe says why in one line" one_line "Broken pipe"

# Output that arrives: status 0, nothing on stderr, and the same bytes as a pipe gets.
"$binary" fixture > "$tmp/fixture.json" 2> "$tmp/err"
status=$?
check "gpusplit fixture into a file exits 0" [ "$status" -eq 0 ]
check "gpusplit fixture into a file writes nothing on stderr" [ ! -s "$tmp/err" ]
# shellcheck disable=SC2016 # expanded by the inner sh
check "the file holds the whole fixture" sh -c '"$1" fixture | cmp -s - "$2"' sh "$binary" "$tmp/fixture.json"

echo "output_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
