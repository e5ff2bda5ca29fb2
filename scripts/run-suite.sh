#!/bin/sh
# One test suite, one line: runs COMMAND with its output in build/test-logs/NAME.log,
# counts what passed and failed, prints "NAME: N passed, N failed" (and the whole log when
# the suite failed), adds the counts to build/test-logs/summary and exits with the suite's
# status. `--total [STATUS]` prints the plain line "N passed, N failed" over every suite in
# the summary; a non-zero STATUS (make's) with no failed suite counts as one failure, a step
# outside the suites (a build) that failed.
#
# Usage: scripts/run-suite.sh NAME FORMAT COMMAND [ARG...]
#        scripts/run-suite.sh --total [STATUS]
# FORMAT says where the counts are: cmocka ("[  PASSED  ] N test(s)."), uvu ("Total:" and
# "Passed:"), or plain (a last line ending "N passed, N failed", as our scripts print).
set -u
logs=build/test-logs
summary=$logs/summary

if [ "${1:-}" = --total ]; then
  make_status=${2:-0}
  mkdir -p "$logs"
  [ -f "$summary" ] || : > "$summary"
  # shellcheck disable=SC2046 # two numbers, split on purpose
  set -- $(awk -F '\t' '{ p += $2; f += $3 } END { print p + 0, f + 0 }' "$summary")
  passed=$1
  failed=$2
  if [ "$make_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "test: a step outside the suites failed (see above)"
    failed=1
  fi
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi

[ $# -ge 3 ] || { echo "usage: scripts/run-suite.sh NAME FORMAT COMMAND [ARG...]" >&2; exit 2; }
name=$1
format=$2
shift 2
mkdir -p "$logs"
log=$logs/$(printf '%s' "$name" | tr -cs 'A-Za-z0-9' '-').log

# Logs are read as text: no colour codes, whatever the terminal.
NO_COLOR=1 "$@" > "$log" 2>&1 < /dev/null
status=$?

passed=''
failed=''
case $format in
  cmocka)
    passed=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\..*/\1/p' "$log" | tail -n 1)
    failed=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test(s).*/\1/p' "$log" | tail -n 1)
    ;;
  uvu)
    total=$(sed -n 's/^ *Total: *\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    passed=$(sed -n 's/^ *Passed: *\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    [ -n "$total" ] && [ -n "$passed" ] && failed=$((total - passed))
    ;;
  plain)
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -n "$line" ]; then
      failed=${line##*passed, }
      failed=${failed%% failed}
      passed=${line% passed, *}
      passed=${passed##*[!0-9]}
    fi
    ;;
  *) echo "run-suite: unknown format '$format' (cmocka, uvu, plain)" >&2; exit 2 ;;
esac
passed=${passed:-0}
failed=${failed:-0}

# A suite that failed with no failed test (a crash, a failed start), or that passed with
# nothing counted, counts as one failure: a count never hides a bad exit.
note=''
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1
  note=" (exit status $status)"
elif [ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$passed" -eq 0 ]; then
  failed=1
  note=" (no test counted in $log)"
fi
[ "$failed" -eq 0 ] || [ "$status" -ne 0 ] || status=1

if [ "$status" -ne 0 ]; then
  echo "--- $log"
  cat "$log"
  echo "---"
fi
echo "$name: $passed passed, $failed failed$note"
printf '%s\t%s\t%s\n' "$name" "$passed" "$failed" >> "$summary"
exit "$status"
