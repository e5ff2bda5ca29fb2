#!/bin/sh
# Runs each libFuzzer harness for SECONDS, from its seeds (tests/fuzz/seeds/NAME, where
# whatever a harness once found stays as a regression input) and the data files, into a
# corpus under build/. Prints one line a harness and "fuzz: N passed, N failed".
# Usage: scripts/fuzz.sh SECONDS NAME...
set -u
seconds=${1:?usage: scripts/fuzz.sh SECONDS NAME...}
shift
passed=0
failed=0
for name in "$@"; do
  corpus=build/fuzz-corpus/$name
  mkdir -p "$corpus"
  # Each input must finish within a time limit (libFuzzer's -timeout, wall seconds): the
  # native program answers any input within a second (docs/CLI.md, "Bad input, bounds and
  # failed output"); the harnesses run under ASan and UBSan, several times slower, and the
  # command line's may search 65,536 counts.
  limit=2
  case $name in
    config) extra=data/models ;;
    data) cp data/*.json "$corpus/"; extra='' ;;
    cli) extra=''; limit=5 ;;
    fit) extra=''; limit=5 ;; # four commands an input, two or three of them fitting up to 24 runs
    *) extra='' ;;
  esac
  # shellcheck disable=SC2086 # extra is one directory or none
  if "build/fuzz_$name" -max_total_time="$seconds" -timeout="$limit" -rss_limit_mb=4096 -print_final_stats=0 \
    -artifact_prefix="build/fuzz-$name-" "$corpus" "tests/fuzz/seeds/$name" $extra > "build/fuzz-$name.log" 2>&1; then
    echo "fuzz_$name: $seconds s, no crash ($(grep -c 'NEW\|REDUCE' "build/fuzz-$name.log") new inputs)"
    passed=$((passed + 1))
  else
    echo "fuzz_$name: FAILED; its input is in build/fuzz-$name-*, the log in build/fuzz-$name.log:"
    tail -n 40 "build/fuzz-$name.log"
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
