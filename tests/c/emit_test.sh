#!/bin/sh
# tests/c/emit_test.sh BINARY: `report --emit ENGINE` over a spread of settings. Every flag of
# every command it prints must be one the engine documents (tests/c/engine_flags/ENGINE.txt,
# copied by hand from the engine's own argument parser or server-arguments page, with the
# source and version on their first lines), every key of TensorRT-LLM's YAML file one its LLM
# API names (trtllm_yaml.txt), and each command must start with the engine's own program.
set -u
set -f

bin=${1:?usage: tests/c/emit_test.sh BINARY}
dir=$(dirname "$0")/engine_flags
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
passed=0
failed=0
commands=0

fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
}

# The documented names: the fixture's lines that are not comments or value lists.
documented() { grep -v '^#' "$dir/$1" | grep -v '^$' | grep -v '^value '; }

# check_value FIXTURE NAME VALUE CASE: when the fixture lists NAME's values ("value NAME A B"),
# VALUE is one of them.
check_value() {
  choices=$(sed -n "s/^value $2 //p" "$dir/$1")
  [ -z "$choices" ] && return 0
  for choice in $choices; do
    [ "$choice" = "$3" ] && return 0
  done
  fail "$4: $2 $3 is not one of its documented values ($choices)"
  return 1
}

# check_flags ENGINE FILE: every word of the command line that starts with '-' is documented.
check_flags() {
  engine=$1
  program=$2
  out=$3
  case_text=$4
  line=$(grep -v '^#' "$out" | grep -E "^$program " || true)
  if [ -z "$line" ]; then
    fail "$case_text: no line starts with '$program'"
    return
  fi
  commands=$((commands + 1))
  documented "$engine.txt" >"$tmp/known"
  ok=1
  flag=''
  for word in ${line#"$program "}; do
    case $word in
      -*)
        flag=${word%%=*}
        if ! grep -qxF -- "$flag" "$tmp/known"; then
          fail "$case_text: $flag is not in $engine.txt"
          ok=0
        fi
        ;;
      *)
        [ -n "$flag" ] && { check_value "$engine.txt" "$flag" "$word" "$case_text" || ok=0; }
        flag=''
        ;;
    esac
  done
  [ "$ok" -eq 1 ] && passed=$((passed + 1))
}

# check_yaml FILE: the here-document's keys (two spaces a level) are in trtllm_yaml.txt, and
# the command reads the file the here-document writes.
check_yaml() {
  out=$1
  case_text=$2
  documented trtllm_yaml.txt >"$tmp/keys"
  file=$(sed -n "s/^cat > \([^ ]*\) <<'EOF'\$/\1/p" "$out")
  if [ -z "$file" ] || ! grep -q -- "--extra_llm_api_options $file" "$out"; then
    fail "$case_text: no YAML file written and read"
    return
  fi
  ok=1
  # each line as KEY=VALUE, the key's path dotted (VALUE empty for a parent)
  for pair in $(sed -n "/^cat > .* <<'EOF'\$/,/^EOF\$/p" "$out" | sed '1d;$d' |
    awk '{ indent = match($0, /[^ ]/) - 1; key = $1; sub(/:.*/, "", key); value = $2;
           path[indent / 2] = key; full = path[0]; for (i = 1; i <= indent / 2; i++) full = full "." path[i];
           print full "=" value }'); do
    key=${pair%%=*}
    value=${pair#*=}
    if ! grep -qxF -- "$key" "$tmp/keys"; then
      fail "$case_text: YAML key $key is not in trtllm_yaml.txt"
      ok=0
    fi
    [ -n "$value" ] && { check_value trtllm_yaml.txt "$key" "$value" "$case_text" || ok=0; }
  done
  [ "$ok" -eq 1 ] && passed=$((passed + 1))
}

# emit ENGINE ARGS...: the report's (or with `plan` first, the plan's) command for ENGINE; a refusal (exit 2, one line) is fine
# here, as the refusals are tested by name in tests/c/test_launch.c and bad_input.sh.
emit() {
  engine=$1
  shift
  command=report
  if [ "$1" = plan ]; then
    command=plan
    shift
  fi
  "$bin" "$command" "$@" --emit "$engine" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  case_text="$command $* --emit $engine"
  if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    [ -n "${EMIT_VERBOSE:-}" ] && echo "refused: $case_text: $(cat "$tmp/err")"
    return
  fi
  if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
    fail "$case_text: exit $rc, stderr $(cat "$tmp/err")"
    return
  fi
  case $engine in
    vllm) check_flags vllm "vllm serve" "$tmp/out" "$case_text" ;;
    sglang) check_flags sglang "python -m sglang.launch_server" "$tmp/out" "$case_text" ;;
    trtllm)
      check_flags trtllm "trtllm-serve" "$tmp/out" "$case_text"
      check_yaml "$tmp/out" "$case_text"
      ;;
  esac
}

for engine in vllm sglang trtllm; do
  emit $engine --model 70b --gpu h100-sxm --counts 8
  emit $engine --model 70b --gpu h100-sxm --counts 4 --words 64 --cache-bits 8
  emit $engine --model 70b --gpu h100-sxm --counts 4 --split groups --in-flight 4 --words 8
  emit $engine --model 70b --gpu h100-sxm --counts 4 --replicas 2 --words 32 --usable 0.9 --assume real
  emit $engine --model 405b --gpu h100-sxm --counts 16 --split slices-groups --per-server 8
  emit $engine --model 405b --gpu h100-sxm --counts 16 --split slices --per-server 8 --words 4
  emit $engine --model deepseek-v3 --gpu h200 --counts 8 --experts spread --words 64 --cache-bits 8
  emit $engine --model deepseek-v3 --gpu h100-sxm --counts 16 --experts spread --per-server 8 --words 128
  emit $engine --model mixtral-8x7b --gpu h100-sxm --counts 2 --words 16
  emit $engine --model mixtral-8x7b --gpu h100-sxm --counts 2 --replicas 2
  emit $engine --model qwen3-30b-a3b --gpu h100-sxm --counts 4 --experts spread --words 32
  emit $engine --model gpt-oss-120b --gpu h100-sxm --counts 2 --words 8
  emit $engine --model 8b --counts 1
  emit $engine --model 8b --counts 2 --split groups
  emit $engine --model "$dir/../../../data/models/llama31_8b_config.json" --gpu a100-80gb-sxm --counts 1 --chat-tokens 32768
  emit $engine plan --model 70b --gpu h100-sxm --gpus-max 8 --target-word-ms 30
  emit $engine plan --model qwen3-30b-a3b --gpu h100-sxm --gpus-max 8 --target-word-ms 20 --cache-bits 8
  emit $engine plan --model deepseek-v3 --gpu h200 --gpus-max 8 --target-word-ms 100
done

# Every engine must have written commands (a spread refused whole would test nothing).
if [ "$commands" -lt 36 ]; then
  fail "only $commands commands were written over the spread"
fi

echo "emit: $commands commands written; $passed passed, $failed failed"
[ "$failed" -eq 0 ]
