#!/bin/sh
# tests/c/bad_input.sh BINARY: every bad input must exit with status 2, print nothing on
# stdout and exactly one line on stderr that names the file or flag and what is wrong
# with it; a few good inputs must exit 0. Under a sanitizer build, no report either way.
set -u
set -f # the fragment lists below are split on ';', never globbed

bin=${1:?usage: tests/c/bad_input.sh BINARY}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
passed=0
failed=0

# The case as a person would type it, without the temporary directory.
shown() { printf '%s' "$*" | sed "s|$tmp/||g"; }

finish() { # finish CASE PROBLEMS
  if [ -z "$2" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $(shown "$1"):$2"
  fi
}

sanitizer_report() { grep -q -E 'Sanitizer|runtime error:' "$tmp/err"; }

# bad FRAGMENTS ARG...: runs BINARY ARG...; FRAGMENTS, separated by ';', must each be in
# the one line on stderr.
bad() {
  frags=$1
  shift
  $limit "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  problems=''
  [ "$rc" -eq 2 ] || problems="$problems exit status $rc, not 2;"
  [ -s "$tmp/out" ] && problems="$problems stdout not empty;"
  newlines=$(wc -l <"$tmp/err")
  lines=$(sed -n '$=' "$tmp/err")
  if [ "$newlines" -ne 1 ] || [ "${lines:-0}" -ne 1 ]; then
    problems="$problems stderr has ${lines:-0} lines, not exactly one;"
  fi
  sanitizer_report && problems="$problems sanitizer report;"
  grep -q "$esc" "$tmp/err" && problems="$problems a raw ESC byte on stderr;"
  old_ifs=$IFS
  IFS=';'
  for f in gpusplit: $frags; do
    grep -q -F -e "$f" "$tmp/err" || problems="$problems stderr lacks '$(shown "$f")';"
  done
  IFS=$old_ifs
  [ -n "$problems" ] && problems="$problems stderr: $(shown "$(dd bs=300 count=1 <"$tmp/err" 2>/dev/null | tr '\n' ' ')")"
  finish "$*" "$problems"
}

esc=$(printf '\033')

# bad_fast FRAGMENTS ARG...: bad, and answered within a second (a count that once made the
# reader loop over 2^53 layers).
limit=''
bad_fast() {
  start=$(date +%s%N)
  before=$failed
  limit='timeout 10' # a hang ends as status 124, and fails
  bad "$@"
  limit=''
  took=$((($(date +%s%N) - start) / 1000000))
  if [ "$took" -gt 1000 ]; then
    [ "$failed" -eq "$before" ] && passed=$((passed - 1)) # the case passed but for its time
    finish "$*" " took $took ms, more than a second;"
  fi
}

# shows FRAGMENTS ABSENT ARG...: must exit 0 with nothing on stderr, each of FRAGMENTS
# (separated by ';') on stdout and none of ABSENT (likewise; '' for none), and no raw ESC.
shows() {
  frags=$1
  absent=$2
  shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  problems=''
  [ "$rc" -eq 0 ] || problems="$problems exit status $rc, not 0;"
  [ -s "$tmp/err" ] && problems="$problems stderr: $(shown "$(dd bs=300 count=1 <"$tmp/err" 2>/dev/null | tr '\n' ' ')");"
  grep -q "$esc" "$tmp/out" && problems="$problems a raw ESC byte on stdout;"
  old_ifs=$IFS
  IFS=';'
  for f in $frags; do
    grep -q -F -e "$f" "$tmp/out" || problems="$problems stdout lacks '$(shown "$f")';"
  done
  for f in $absent; do
    grep -q -F -e "$f" "$tmp/out" && problems="$problems stdout has '$(shown "$f")';"
  done
  IFS=$old_ifs
  finish "$*" "$problems"
}

# good ARG...: must exit 0 with output on stdout and nothing on stderr.
good() {
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  problems=''
  [ "$rc" -eq 0 ] || problems="$problems exit status $rc, not 0;"
  [ -s "$tmp/out" ] || problems="$problems stdout empty;"
  [ -s "$tmp/err" ] && problems="$problems stderr: $(shown "$(dd bs=300 count=1 <"$tmp/err" 2>/dev/null | tr '\n' ' ')");"
  finish "$*" "$problems"
}

# config FILE FIELD VALUE: the 8B model's shape with FIELD's value replaced by VALUE's
# JSON text, or left out when VALUE is '-'.
config() {
  file=$tmp/$1
  field=$2
  value=$3
  {
    printf '{'
    sep=''
    for pair in hidden_size=4096 intermediate_size=14336 num_hidden_layers=32 \
      num_attention_heads=32 num_key_value_heads=8 vocab_size=128256; do
      k=${pair%%=*}
      v=${pair#*=}
      if [ "$k" = "$field" ]; then
        [ "$value" = - ] && continue
        v=$value
      fi
      printf '%s"%s": %s' "$sep" "$k" "$v"
      sep=', '
    done
    printf '}\n'
  } >"$file"
}

m() { echo "$tmp/$1"; } # a file's path

# The files.
mkdir "$tmp/a_directory"
printf 'hello, world\n' >"$tmp/not_json.json"
printf '{"hidden_size": 4096, "intermediate_size": 14' >"$tmp/truncated.json"
: >"$tmp/empty.json"
printf '[4096, 14336, 32, 32, 8, 128256]\n' >"$tmp/array.json"
printf '{"hidden_size": 4096}\000\n' >"$tmp/nul_byte.json"
for f in hidden_size intermediate_size num_hidden_layers num_attention_heads vocab_size; do
  config "missing_$f.json" "$f" -
done
config string.json hidden_size '"4096"'
config boolean.json num_hidden_layers true
config null.json vocab_size null
config zero.json vocab_size 0
config negative.json intermediate_size -5
config fractional.json hidden_size 4096.5
config fractional_zero.json hidden_size 4096.0
config exponent.json num_hidden_layers 3.2e1
config not_dividing.json num_key_value_heads 5
config not_multiple.json hidden_size 4100
config overflow_hidden.json hidden_size 9007199254740992
config too_large.json num_hidden_layers 9007199254740993
printf '{"hidden_size": 1048576, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 1125899906842624}\n' \
  >"$tmp/overflow_vocab.json"
printf '{"hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 128256, "head_dim": nope}\n' \
  >"$tmp/misspelled_literal.json"
printf '{"hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 128256} extra\n' \
  >"$tmp/text_after.json"
printf '{"hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,\n"num_key_value_heads": 8, "vocab_size": 128256, "rope_scaling": {"factor": 8.0}, "architectures": ["LlamaForCausalLM"]}\n' \
  >"$tmp/good.json"

# Model files.
bad "no_such_file.json;cannot read" report --model "$(m no_such_file.json)"
# expert parallelism (--experts) and the plan (issue 21)
bad "--experts;slices or spread" report --model mixtral-8x7b --experts experts
bad "experts;needs a mixture of experts" report --model 70b --experts spread
bad "--experts;spread is priced with --split slices, or slices-groups" report --model mixtral-8x7b --experts spread --split groups
bad "report: experts: spread experts in groups of layers are priced by serve only" report --model qwen3-30b-a3b --gpu h100-sxm --counts 16 --per-server 8 --split slices-groups --experts spread
bad "spread over each server's GPUs needs whole servers of --per-server GPUs, attention data-parallel and no --expert-ranks" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 4 --split slices-groups --per-server 2 --experts spread --attention slices --requests 50
bad "--counts;8 experts do not spread evenly over 3 GPUs" report --model mixtral-8x7b --experts spread --counts 3
bad "plan;--gpus-max" plan --model 70b
bad "--gpus-max;from 1 to" plan --model 70b --gpus-max 0
bad "--target-word-ms: must be above 0 and at most 86400000" plan --model 70b --gpus-max 8 --target-word-ms -3
bad "--target-first-ms: must be a finite number" plan --model 70b --gpus-max 8 --target-first-ms nan
bad "--words;what the plan chooses" plan --model 70b --gpus-max 8 --words 3
# issue 28: a first-word target needs a first word that is priced (the lesson's rules and
# --prompt-tokens none price none; every layout would have met it)
bad "--target-first-ms;no first word;--prompt-tokens" plan --model 70b --gpus-max 8 --target-first-ms 0.001 --json
bad "--target-first-ms;no first word" plan --model 70b --gpu h100-sxm --gpus-max 8 --prompt-tokens none --target-first-ms 100
bad "--gpus-max;from 1 to 65536" plan --model 70b --gpus-max 65537
bad "a_directory;cannot read" report --model "$(m a_directory)"
bad "not_json.json;not valid JSON" report --model "$(m not_json.json)"
bad "truncated.json;JSON;too early" report --model "$(m truncated.json)"
# The families: a type the reader cannot count is refused by name, never priced as Llama;
# bad values of the keys the families add are named.
fam='"hidden_size": 64, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2, "vocab_size": 10'
printf '{"model_type": "mllama", %s}\n' "$fam" >"$tmp/mllama.json"
printf '{"model_type": "mixtral", %s, "num_local_experts": 0, "num_experts_per_tok": 1}\n' "$fam" >"$tmp/no_experts.json"
printf '{"model_type": "mixtral", %s, "num_local_experts": 4, "num_experts_per_tok": 5}\n' "$fam" >"$tmp/k_above_e.json"
printf '{"model_type": "mistral", %s, "sliding_window": 0}\n' "$fam" >"$tmp/window_zero.json"
printf '{"model_type": "llama", %s, "quantization_config": {"quant_method": "gptq"}}\n' "$fam" >"$tmp/gptq.json"
printf '{"model_type": "gemma3", "text_config": "text", "vision_config": {}}\n' >"$tmp/text_config.json"
bad "mllama.json;model_type 'mllama' is not supported (supported: llama, mistral" report --model "$(m mllama.json)"
bad "no_experts.json;num_local_experts;at least 1" report --model "$(m no_experts.json)"
bad "k_above_e.json;num_experts_per_tok;more than the 4 experts" report --model "$(m k_above_e.json)"
bad "window_zero.json;sliding_window;at least 1" report --model "$(m window_zero.json)"
bad "gptq.json;quantization_config;quant_method 'gptq' is not supported" report --model "$(m gptq.json)"
bad "text_config.json;text_config;must be an object" report --model "$(m text_config.json)"
bad "--bits;from 1 to 32" report --bits 0
bad "--bits;from 1 to 32" report --bits 33
bad "empty.json;JSON" report --model "$(m empty.json)"
bad "array.json;JSON object;an array" report --model "$(m array.json)"
bad "nul_byte.json;NUL" report --model "$(m nul_byte.json)"
for f in hidden_size intermediate_size num_hidden_layers num_attention_heads vocab_size; do
  bad "missing_$f.json;$f;missing" report --model "$(m "missing_$f.json")"
done
bad "string.json;hidden_size;a string" report --model "$(m string.json)"
bad "boolean.json;num_hidden_layers;a boolean" report --model "$(m boolean.json)"
bad "null.json;vocab_size;null" report --model "$(m null.json)"
bad "zero.json;vocab_size;at least 1" report --model "$(m zero.json)"
bad "negative.json;intermediate_size;at least 1" report --model "$(m negative.json)"
bad "fractional.json;hidden_size;whole number" report --model "$(m fractional.json)"
bad "fractional_zero.json;hidden_size;whole number" report --model "$(m fractional_zero.json)"
bad "exponent.json;num_hidden_layers;whole number" report --model "$(m exponent.json)"
bad "not_dividing.json;num_key_value_heads;does not divide" report --model "$(m not_dividing.json)"
bad "not_multiple.json;hidden_size;not a multiple" report --model "$(m not_multiple.json)"
bad "overflow_hidden.json;overflow" report --model "$(m overflow_hidden.json)"
bad "overflow_vocab.json;overflow" report --model "$(m overflow_vocab.json)"
bad "too_large.json;num_hidden_layers;too large" report --model "$(m too_large.json)"
bad "misspelled_literal.json;JSON" report --model "$(m misspelled_literal.json)"
bad "text_after.json;JSON" report --model "$(m text_after.json)"
bad "--model;no built-in model is named '7b';names: 8b, 70b" report --model 7b
bad "$(m a_directory)/none.json;cannot read" report --model "$(m a_directory)/none.json"

# Commands and flags.
bad "unknown command;bogus" bogus
bad "figure NAME: must be weights-split, time-per-word, stops-helping or slices-vs-groups, not 'bogus'" figure bogus
bad "figure NAME: must be;not 'weights-split.svg'" figure weights-split.svg
bad "figure: NAME is needed (see gpusplit figure --help)" figure
bad "figure: one NAME only; 'time-per-word' would be a second" figure weights-split time-per-word
bad "unknown flag;--bogus" report --bogus
bad "unknown flag;--word" report --word=1
bad "--words;needs a value" report --words
bad "--link;bogus" report --link bogus
bad "--words;from 1 to" report --words 0
bad "--words;whole number written as digits;-1" report --words -1
bad "--words;whole number" report --words 1.5
bad "--words;whole number;abc" report --words abc
bad "--words;whole number;abc" report --words=abc
bad "--words;written as digits;1e400" report --words 1e400
bad "--words;from 1 to" report --words 1048577
bad "--words;whole number" report --words ''
bad "--words;whole number" report --words ' 5'
bad "--counts;separated by commas" report --counts ''
bad "--counts;separated by commas" report --counts 1,,2
bad "--counts;separated by commas" report --counts 1,
bad "--counts;from 1 to" report --counts 0
bad "--counts;'x'" report --counts 1,x
bad "--counts;65537" report --counts 65537
bad "--max-n;from 1 to" report --max-n 0
bad "--gpu-gib;above 0" report --gpu-gib 0
bad "--gpu-gib;above 0" report --gpu-gib -1
bad "--gpu-gib;finite;nan" report --gpu-gib nan
bad "--gpu-gib;finite;inf" report --gpu-gib inf
bad "--usable;above 0" report --usable 0
bad "--usable;at most 1" report --usable 1.5
bad "--gpu-bw;above 0" report --gpu-bw 0
bad "--gpu-flops;above 0" report --gpu-flops -5
bad "--link-bw;above 0" report --link-bw 0
bad "--step-us;0 or more" report --step-us -1
bad "--base-us;must be a number;'x'" report --base-us x

# Issue 11's cases: settings whose figures would be infinite, NaN or cut, numbers that
# are too small or not written as counts, flags without values, names in any case.
bad "--gpu-bw;too small;1e6" report --gpu-bw 1e-300 --json
bad "--gpu-bw;too large" report --gpu-bw 1e17
bad "--base-us;too large;1e6" report --base-us 1e20
bad "--step-us;too large" report --step-us 1e7
bad "--gpu-flops;too large;1e19" report --gpu-flops 1e308
bad "--gpu-flops;too small" report --gpu-flops 1
bad "--link-bw;too small" report --link-bw 1e-300
bad "--link-kind;nvlink, pci or net" report --link-kind usb
# A typed kind renames the link and takes that kind's ring rule: a PCIe-kind link runs its ring
# at half the link's two-way 900 GB/s; an NVLink-kind one at the H100's ring figure, 370.8 GB/s.
shows '"name":"Custom link","kind":"pci","bandwidth":450000000000' '' \
  report --gpu h100-sxm --link nvlink4 --link-kind pci --json
shows '"name":"Custom link","kind":"nvlink","bandwidth":370800000000;a link of NVLink'"'"'s kind' '' \
  report --gpu h100-sxm --link nvlink4 --link-kind nvlink --json
bad "--usable;too small" report --usable 1e-310
bad "--usable;too small" report --usable 0.001
bad "--gpu-gib;too small" report --gpu-gib 1e-300
bad "--gpu-bw;too large;1e400" report --gpu-bw 1e400
bad "--counts;written as digits;4.0000000000000001" report --counts 4.0000000000000001
bad "--counts;written as digits;4.0" report --counts 4.0
bad "--max-n;written as digits" report --max-n 8e0
bad "--bits;written as digits" report --bits 4.5
bad "--counts;needs a value" report --counts --max-n 4
bad "--model;needs a value" report --model --json
good report --model 8B
good report --model LLAMA-3.2-1B --counts 1
good report --model Mixtral-8x7B --counts 8
printf '\357\273\277{"hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}' >"$tmp/bom.json"
good report --model "$(m bom.json)"
printf '{"hidden\\u005fsize": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}' >"$tmp/escaped_key.json"
good report --model "$(m escaped_key.json)"
awk 'BEGIN { for (i = 0; i < 100; i++) printf "["; for (i = 0; i < 100; i++) printf "]" }' >"$tmp/deep.json"
bad "deep.json;nests deeper than 64 levels" report --model "$(m deep.json)"
printf '{"hidden_size": "\377"}' >"$tmp/latin1.json"
bad "latin1.json;not UTF-8 at byte 17" report --model "$(m latin1.json)"
head -c 5000000 /dev/zero | tr '\0' ' ' >"$tmp/huge.json"
bad "huge.json;larger than 4 MiB" report --model "$(m huge.json)"
# A path with an escape sequence and a byte that is not UTF-8 reaches the terminal escaped.
bad "\\x1b[31m;\\xff;cannot read" report --model "$(printf 'x/\033[31m\377.json')"

# Issue 8's flags.
bad "--gpu;no gpu is named \"h300\";names: lesson" report --gpu h300
bad "--link;no link is named \"nvlink9\";names: fast, slow" report --link nvlink9
bad "--between;no link is named" report --between carrier-pigeon
bad "--split;slices-groups;diagonal" report --split diagonal
bad "--nccl;lesson or auto" report --nccl fastest
bad "--nccl;RCCL" report --nccl auto --gpu mi300x
bad "--per-server;whole number" report --per-server 0.5
bad "--per-server;from 1 to" report --per-server 0
bad "--chat-tokens;from 1 to" report --chat-tokens 16777217
bad "--cache-bits;from 1 to 32" report --cache-bits 33
bad "--counts;do not fill whole servers of 8" report --per-server 8 --split slices-groups --counts 12
bad "--counts;does not divide the 64 heads" report --divide-heads --counts 3
bad "--explain and --gpus" report --explain
bad "--explain and --gpus" report --gpus 4
bad "--gpus;from 1 to" report --explain --gpus 0
bad "list WHAT: must be models, gpus or links" list boats
good report --gpu H100-SXM --link nvlink4 --per-server 8 --counts 8,16
good report --explain --gpus 16 --per-server 8 --split slices-groups --nccl auto --overlap
good list gpus
good list links

# Issue 9: logs that cannot be fitted, each named.
log=tests/nccl-tests/a100_40gb_8gpu_oci_bm_gpu4_8.txt
bad "not_json.json;not an all_reduce_perf log" calibrate "$(m not_json.json)"
head -n 17 "$log" >"$tmp/few_rows.txt"
bad "few_rows.txt;a fit needs at least 3" calibrate "$(m few_rows.txt)"
{ head -n 20 "$log"; printf '# Using devices\n#  Rank  0 Group 0 Pid 1 on h device 0 x\n#  Rank  1 Group 0 Pid 1 on h device 1 x\n#\n'; tail -n +21 "$log"; } >"$tmp/two_counts.txt"
bad "two_counts.txt;two GPU counts (8 and 2)" calibrate "$(m two_counts.txt)"
sed '20s/  *[0-9.]*  *\([0-9.]*  *[0-9.]*  *0 \)/    nan \1/' "$log" >"$tmp/nan.txt"
bad "nan.txt;line 20;is not a positive number" calibrate "$(m nan.txt)"
sed '20s/ 0 / 7 /' "$log" >"$tmp/wrong.txt"
bad "wrong.txt;line 20;7 wrong results" calibrate "$(m wrong.txt)"
head -c 2000 "$log" >"$tmp/cut.txt"
bad "cut.txt;cut short" calibrate "$(m cut.txt)"
bad "none.txt;cannot read" report --link-from "$(m none.txt)"
bad "--link-from;leave out --link-bw" report --link-from "$log" --link-bw 1e9
bad "calibrate: LOG is needed" calibrate
good calibrate "$log"
good calibrate tests/nccl-tests/rtx5090_8gpu_pcie_aikitoria.txt --json
good report --link-from "$log" --model 8b

# Batches in flight keep groups busy; slices keep none, and each needs a group of its own.
bad "--in-flight;slices keep no batches in flight" report --in-flight 2
bad "--in-flight;must be from 1 to" report --split groups --in-flight 0
bad "--counts;5 batches in flight need as many groups" report --split groups --in-flight 5 --counts 4
good report --split groups --words 64 --in-flight 4 --counts 4,8

# Issue 18: the second round of hostile inputs, one case (or more) for each failure.
# 1. A count bounded before any loop: 2^53 and 10^11 layers of DeepSeek once hung the reader.
deepseek() { # deepseek FILE LAYERS EXPERTS
  printf '{"model_type": "deepseek_v3", "hidden_size": 64, "intermediate_size": 64, "num_hidden_layers": %s, "num_attention_heads": 2, "vocab_size": 10, "kv_lora_rank": 4, "qk_nope_head_dim": 4, "qk_rope_head_dim": 4, "v_head_dim": 4, "n_routed_experts": %s, "num_experts_per_tok": 2, "moe_intermediate_size": 8}\n' \
    "$2" "$3" >"$tmp/$1"
}
deepseek huge_layers.json 9007199254740992 4
bad_fast "huge_layers.json;num_hidden_layers: 9007199254740992 is too large (at most 65536)" report --model "$(m huge_layers.json)"
deepseek many_layers.json 100000000000 4
bad_fast "many_layers.json;num_hidden_layers;too large (at most 65536)" report --model "$(m many_layers.json)"
config many_heads.json num_attention_heads 65537
bad_fast "many_heads.json;num_attention_heads: 65537 is too large (at most 65536)" report --model "$(m many_heads.json)"
# 8. 3 x 2^51 experts, whose routed share lost a quarter of its value, are past the bound
deepseek many_experts.json 61 6755399441055744
bad_fast "many_experts.json;n_routed_experts: 6755399441055744 is too large (at most 65536)" report --model "$(m many_experts.json)"
# 2. Memory and read totals past 2^64: 9 layers of 43 heads of 5,419, 2,097,151 tokens for
# each of 2^20 chats hold 2^64 - 4,194,304 bytes of caches before the weights.
printf '{"hidden_size": 48302, "intermediate_size": 64, "num_hidden_layers": 9, "num_attention_heads": 43, "head_dim": 5419, "vocab_size": 10}\n' >"$tmp/wrap.json"
bad "--words;1048576 words at once would overflow 64 bits" report --model "$(m wrap.json)" --words 1048576 --chat-tokens 2097151 --cache-per-chat
bad "--words;overflow 64 bits" report --model "$(m wrap.json)" --words 1048576 --chat-tokens 2097151 --read-cache
# 3. --explain's bytes sent: 126 x 2^59 wraps; 126 / 64 of 2^59 is 126 x 2^53
printf '{"hidden_size": 1099511627776, "intermediate_size": 1, "num_hidden_layers": 1, "num_attention_heads": 1, "head_dim": 1, "vocab_size": 1}\n' >"$tmp/wide.json"
shows "x 576,460,752,303,423,488 = 1,134,907,106,097,364,992 bytes at 600 GB/s = 1,891,511,843,495.608 us" '' \
  report --model "$(m wide.json)" --words 262144 --explain --gpus 64
# 4. Text from the user escaped: a log's type, --name, a table's file name, a model path
awk -v t="$(printf '\033]0;title\007\033[2J')" '!/^#/ && NF == 13 { $3 = t } { print }' "$log" >"$tmp/esc_type.txt"
bad 'esc_type.txt;type;\x1b]0;title\x07\x1b[2J' calibrate "$(m esc_type.txt)"
table=tests/measured/a100_sxm_nccl.csv
shows 'a\x1b[2Jb' '' validate "$table" --name "a$(printf '\033')[2Jb" --source-dir nccl/2.27.3 --lesson-link fast
cp "$table" "$tmp/$(printf 'x\033[31m.csv')"
shows 'x\x1b[31m.csv' '' validate "$tmp/$(printf 'x\033[31m.csv')" --source-dir nccl/2.27.3 --lesson-link fast
# C1 controls (U+0085, U+009B) and U+2028 and a right-to-left override (U+202E) in a path
odd=$(printf 'c\302\205\302\233\342\200\250\342\200\256.json')
cp "$(m good.json)" "$tmp/$odd"
shows 'c\u0085\u009b\u2028\u202e.json' "$(printf '\342\200\250');$(printf '\302\205')" report --model "$tmp/$odd" --counts 1
shows 'c\u0085\u009b\u2028\u202e.json' "$(printf '\342\200\250');$(printf '\302\233')" report --model "$tmp/$odd" --counts 1 --json
bad 'missing_c\u0085\u009b\u2028\u202e.json;cannot read' report --model "$tmp/missing_$odd"
# 5. Collectives other than all-reduce, from the A100 log's rows in each one's layout
awk '!/^#/ && NF == 13 { $2 = $1 / 32; $8 = sprintf("%.2f", $7 * 7 / 8); $12 = sprintf("%.2f", $11 * 7 / 8) } { print }' "$log" >"$tmp/reduce_scatter.txt"
bad "reduce_scatter.txt;line 17;reduce_scatter_perf's layout" calibrate "$(m reduce_scatter.txt)"
awk '!/^#/ && NF == 13 { $2 = $1 / 32; $4 = "none" } { print }' "$log" >"$tmp/all_gather.txt"
bad "all_gather.txt;the reduction is 'none';all_gather" calibrate "$(m all_gather.txt)"
awk '!/^#/ && NF == 13 { $4 = "none"; $5 = "0" } { print }' "$log" >"$tmp/broadcast.txt"
bad "broadcast.txt;the reduction is 'none';broadcast" report --link-from "$(m broadcast.txt)"
awk '!/^#/ && NF == 13 { $5 = "0" } { print }' "$log" >"$tmp/reduce.txt"
bad "reduce.txt;root '0';reduce_perf" calibrate "$(m reduce.txt)"
awk '!/^#/ && NF == 13 { $8 = $7; $12 = $11 } { print }' "$log" >"$tmp/sendrecv.txt"
bad "sendrecv.txt;line 20;not an all-reduce" calibrate "$(m sendrecv.txt)"
sed 's/^# Using devices/# Collective test starting: reduce_scatter_perf\n&/' "$log" >"$tmp/named.txt"
bad "named.txt;not all_reduce_perf" calibrate "$(m named.txt)"
for real in a100_40gb_8gpu_oci_bm_gpu4_8 dgx_h100_8gpu_nvidia_dgxc rtx5090_8gpu_pcie_aikitoria; do good calibrate "tests/nccl-tests/$real.txt"; done
# 6. --nccl auto with typed or fitted latencies: refused, naming the conflict
bad "--nccl;--step-us would go unused" report --nccl auto --gpu h100-sxm --link nvlink4 --step-us 1000 --base-us 100000
bad "--nccl;--base-us would go unused" report --nccl auto --gpu h100-sxm --link nvlink4 --base-us 100000
bad "--nccl;--link-from would go unused" report --nccl auto --gpu h100-sxm --link nvlink4 --link-from "$log"
good report --nccl auto --gpu h100-sxm --link nvlink4 --step-us 1000 --split groups
# 7. calibrate never cuts a figure: rows of 1e-22 us are refused
awk '!/^#/ && NF == 13 { $6 = "1e-22"; $10 = "1e-22" } { print }' "$log" >"$tmp/tiny_times.txt"
bad "tiny_times.txt;line 17;not from 0.01 to 1e9 microseconds" calibrate "$(m tiny_times.txt)"
# 8. Whole figures: -0 is 0, the least bandwidths and operations in a unit that shows them,
# and a model path of 300 bytes whole
shows "Link: Custom link, 600 GB/s, 0 us a step, base 0 us" "-0" report --step-us -0 --base-us -0
shows "GPU: Custom GPU, 80 GiB, 73.6 GiB usable, 1 MB/s, 1 MFLOP/s;Link: Custom link, 1 MB/s," "0 GB/s;0 TFLOP/s" \
  report --gpu-bw 1e6 --gpu-flops 1e6 --link-bw 1e6 --counts 64
shows "at 1 MB/s = ;(4 x 1 MFLOP/s)" "0 GB/s;0 TFLOP/s" report --gpu-bw 1e6 --gpu-flops 1e6 --link-bw 1e6 --explain --gpus 4
long=$tmp/$(printf '%0100d' 0)/$(printf '%0100d' 1)/$(printf '%0100d' 2)
mkdir -p "$long"
cp "$(m good.json)" "$long/config.json"
shows "Model: $long/config.json (llama)" '' report --model "$long/config.json"

# Issue 19: runs files that cannot be read, each named with its line and column; the
# achieved-efficiency flags out of range.
head=id,model,hf_repo,weight_bits,kv_bits,gpu,gpus,tp,pp,ep,batch,input_tokens,output_tokens,itl_ms,ttft_ms,software,interconnect,source,note
row=r1,L,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,1,0,0,11.2,,vLLM,,x,S1
printf '' >"$tmp/empty.csv"
bad "empty.csv;is empty" fit "$tmp/empty.csv"
printf '%s\n' "$head" >"$tmp/header_only.csv"
bad "header_only.csv;no runs" fit "$tmp/header_only.csv"
printf 'id,model,gpu\nr1,L,H100\n' >"$tmp/no_itl.csv"
bad "no_itl.csv;hf_repo;no such column" fit "$tmp/no_itl.csv"
printf '%s\n%s\n' "$head" "$(echo "$row" | sed 's/,11.2,/,fast,/')" >"$tmp/bad_itl.csv"
bad "bad_itl.csv;itl_ms;line 2;'fast' is not a number;milliseconds from 0.001" fit "$tmp/bad_itl.csv"
printf '%s\n%s\n' "$head" "$(echo "$row" | sed 's/,11.2,/,-3,/')" >"$tmp/negative.csv"
bad "negative.csv;itl_ms;line 2" fit "$tmp/negative.csv"
printf '%s\n%s\n' "$head" "$(echo "$row" | sed 's/,1,1,1,,1,/,1,0,1,,1,/')" >"$tmp/tp0.csv"
bad "tp0.csv;tp;line 2;from 1" fit "$tmp/tp0.csv"
printf '%s\n%s\n' "$head" "$row,extra" >"$tmp/fields.csv"
bad "fields.csv;line 2: 20 fields where the header has 19" fit "$tmp/fields.csv"
printf '%s\n%s\n' "$head" "$(echo "$row" | sed 's/S1$/"S1; open/')" >"$tmp/quote.csv"
bad "quote.csv;line 2;quoted field is not closed" fit "$tmp/quote.csv"
printf '%s\n%s\n' "$head" "$(echo "$row" | sed 's/,16,/,48,/')" >"$tmp/bits.csv"
bad "bits.csv;weight_bits;line 2;from 1 to 32" fit "$tmp/bits.csv"
printf '%s\n%s\n' "$head" "$(echo "$row" | sed 's/meta-llama/tiiuae/')" >"$tmp/unknown.csv"
bad "fit;no run has a model and GPU the catalogue knows" fit "$tmp/unknown.csv"
printf 'id,\0\n' >"$tmp/nul.csv"
bad "nul.csv;NUL byte" fit "$tmp/nul.csv"
bad "none.csv;cannot read" fit "$tmp/none.csv"
bad "fit: RUNS.csv is needed" fit
bad "fit;unknown flag" fit --fast
bad "--bw-share;0.01 to 1" report --bw-share 1.5
bad "--flops-share;0.01 to 1" report --flops-share 0.001
bad "--layer-us;0 or more" report --layer-us -1
bad "--allreduce-us;at most 1e6" report --allreduce-us 2e6
bad "--request-us;0 or more" report --request-us -5
bad "--request-us;a finite number" report --request-us nan
bad "--prompt-tokens;from 1 to" report --prompt-tokens 0
bad "--engine;no figures for 'tgi'" report --gpu h100-sxm --engine tgi
bad "validate;--efficiency-from goes with --runs" validate --efficiency-from x.csv

# Issue 28: a number cell read whole or refused, naming its column and line, in fit,
# validate --runs and report --efficiency-from alike.
cell() { # cell NAME SED: the row with SED applied, under the header, into $tmp/NAME
  printf '%s\n%s\n' "$head" "$(echo "$row" | sed "$2")" >"$tmp/$1"
}
cell comma.csv 's/,11.2,/,"7,5",/'
bad "comma.csv;itl_ms;line 2;'7,5' is not a number" fit "$tmp/comma.csv"
cell points.csv 's/,11.2,/,1.2.3,/'
bad "points.csv;itl_ms;line 2;'1.2.3' is not a number" validate --runs "$tmp/points.csv"
cell unit.csv 's/,11.2,/,6.43ms,/'
bad "unit.csv;itl_ms;line 2;'6.43ms' is not a number" report --efficiency-from "$tmp/unit.csv"
cell exponent.csv 's/,11.2,/,1e1x,/'
bad "exponent.csv;itl_ms;line 2;'1e1x' is not a number" fit "$tmp/exponent.csv"
cell ttft.csv 's/,11.2,,/,11.2,20 ms,/'
bad "ttft.csv;ttft_ms;line 2;'20 ms' is not a number" fit "$tmp/ttft.csv"
cell bits_comma.csv 's/,16,/,"4,5",/'
bad "bits_comma.csv;weight_bits;line 2;'4,5' is not a number" validate --runs "$tmp/bits_comma.csv"
cell bits_word.csv 's/,16,/,8bit,/'
bad "bits_word.csv;weight_bits;line 2;'8bit' is not a number" report --efficiency-from "$tmp/bits_word.csv"
cell long_id.csv "s/^r1,/$(printf '%064d' 0),/"
bad "long_id.csv;id;line 2;64 bytes, longer than the 63" fit "$tmp/long_id.csv"
cell long_gpu.csv "s/,H100-SXM5-80GB,/,H100-$(printf '%064d' 0),/"
bad "long_gpu.csv;gpu;line 2;longer than the 63" fit "$tmp/long_gpu.csv"
# The flags' figures: JSON's spellings through the same reader, strtod's others read whole.
bad "--gpu-bw;must be a number;1e1x" report --gpu-bw 1e1x
bad "--gpu-bw;must be a number;1.2.3" report --gpu-bw 1.2.3
good report --gpu-bw +3e12 --gpu-flops .5e15 --link-bw 0x1p40
good report --gpu-bw 3.3333333333333335e12
# --allreduce: a table that does not parse is refused, naming it; so is one with no rows
# from its NCCL folder; a folder's path is whole or refused as too long.
mkdir -p "$tmp/ar_bad" "$tmp/ar_none"
for t in a100_sxm h100_sxm h200_sxm b200_sxm l40s; do # the tables fit reads (set -f: no globs here)
  cp "tests/measured/${t}_nccl.csv" "$tmp/ar_bad/"
  cp "tests/measured/${t}_nccl.csv" "$tmp/ar_none/"
done
printf 'not,a,table\n' >"$tmp/ar_bad/h100_sxm_nccl.csv"
sed 's|nccl/2.27.3|nccl/0.0.0|' tests/measured/l40s_nccl.csv >"$tmp/ar_none/l40s_nccl.csv"
printf '%s\n%s\n' "$head" "$row" >"$tmp/one_run.csv"
bad "fit: --allreduce;ar_bad/h100_sxm_nccl.csv;not a measured all-reduce table" fit --allreduce "$tmp/ar_bad" "$tmp/one_run.csv"
bad "fit: --allreduce;ar_none/l40s_nccl.csv;no rows from nccl/2.27.3" fit --allreduce "$tmp/ar_none" "$tmp/one_run.csv"
# Serving runs (validate --serving, fit --serving): a decode runs file lacks their columns;
# a cell that is not a number is named by column and line; the two files are two commands.
bad "one_run.csv: throughput_tok_s: the header has no such column" validate --serving "$tmp/one_run.csv"
printf 'id,hf_repo,gpu,tp,input_tokens,output_tokens,throughput_tok_s\nx,a/b,H100,1,10,10,abc\n' >"$tmp/serving_bad.csv"
bad "serving_bad.csv: throughput_tok_s: line 2: must be a number" fit --serving "$tmp/serving_bad.csv"
printf 'id,hf_repo,gpu,tp,input_tokens,output_tokens,throughput_tok_s,note\nx,a/b,H100,1,10,10,5,"G1; rate_qps=fast"\n' >"$tmp/serving_rate.csv"
bad "serving_rate.csv: note: line 2: rate_qps= must be followed by a number" validate --serving "$tmp/serving_rate.csv"
printf 'id,hf_repo,gpu,tp,input_tokens,output_tokens,throughput_tok_s,note\nx,a/b,H100,1,10,10,5,"G1; rate_qps=0"\n' >"$tmp/serving_rate0.csv"
bad "serving_rate0.csv: note: line 2: rate_qps must be a number above 0" validate --serving "$tmp/serving_rate0.csv"
bad "validate: --runs and --serving are two files; give one" validate --runs "$tmp/one_run.csv" --serving "$tmp/one_run.csv"
bad "fit: --serving FILE takes only --more, --held-out and --json" fit --serving "$tmp/serving_bad.csv" "$tmp/one_run.csv"
bad "fit: --held-out FILE and --more FILE go with --serving" fit "$tmp/one_run.csv" --held-out "$tmp/one_run.csv"
bad "fit: --held-out FILE and --more FILE go with --serving" fit "$tmp/one_run.csv" --more "$tmp/one_run.csv"
bad "validate: --more FILE goes with --serving FILE" validate --more "$tmp/serving_bad.csv"
# a bad row of --more's file is named by that file and its own line, not the first file's
bad "serving_bad.csv: throughput_tok_s: line 2: must be a number" validate --serving tests/measured/serving-runs.csv --more "$tmp/serving_bad.csv"
bad "serving_bad.csv: throughput_tok_s: line 2: must be a number" fit --serving tests/measured/serving-runs.csv --more "$tmp/serving_bad.csv"
# the two files' rows together are bounded as one file's are (512)
awk 'BEGIN { print "id,hf_repo,gpu,tp,input_tokens,output_tokens,throughput_tok_s"; for (i = 0; i < 500; i++) print "x" i ",a/b,H100,1,10,10,5" }' >"$tmp/serving_500.csv"
bad "serving_500.csv: its 500 rows and the 73 before them are more than the 512 a reading holds" validate --serving tests/measured/serving-runs.csv --more "$tmp/serving_500.csv"
bad "serving_bad.csv: throughput_tok_s: line 2: must be a number" fit --serving tests/measured/serving-runs.csv --held-out "$tmp/serving_bad.csv"
bad "validate: --serving FILE takes only --more and --leave-source-out" validate --serving "$tmp/serving_bad.csv" --name x
# An output so long that one request passes serve's bound on steps (4,194,304) is a row not
# priced, by name; once it was mapped to a load of no requests (found by fuzz_serving).
printf 'id,hf_repo,gpu,tp,input_tokens,output_tokens,throughput_tok_s,software,note\nx,meta-llama/Llama-3.1-70B,H100-SXM5-80GB,4,467,256914842,5,TensorRT-LLM,"G1; 500 requests"\n' >"$tmp/serving_long.csv"
shows "x (G1): refused: output tokens: 256914842, one request past serve's 4194304 steps" '' validate --serving "$tmp/serving_long.csv"
far=$(printf '%04200d' 0)
bad "--allreduce;the folder's path is 4200 bytes, longer than;$far" fit --allreduce "$far" "$tmp/one_run.csv"
# --leave-source-out: at most 32 sources, checked before any fit (a fit of these 1,024 runs
# takes a second; left out 33 times, half a minute).
awk -v head="$head" -v row="$row" 'BEGIN { print head; sub(/,S1$/, ",", row); for (i = 0; i < 1024; i++) print row "S" i % 33 + 1 }' >"$tmp/sources33.csv"
bad_fast "sources33.csv;--leave-source-out takes runs of at most 32 sources;have 33" fit --leave-source-out "$tmp/sources33.csv"
bad_fast "sources33.csv;--leave-source-out takes runs of at most 32 sources;have 33" validate --runs "$tmp/sources33.csv" --leave-source-out
good fit tests/measured/decode-runs.csv
good validate --runs tests/measured/decode-heldout.csv
good report --gpu h100-sxm --link nvlink4 --engine median --prompt-tokens 1024 --nccl auto

# --emit: an engine's name, one count, nothing else to print, and a layout it can start.
bad "--emit;must be vllm, sglang or trtllm;'tgi'" report --counts 8 --emit tgi
bad "--emit;must be vllm, sglang or trtllm;'VLLM'" report --counts 8 --emit VLLM
bad "--emit;needs a value" report --counts 8 --emit
bad "--emit;one layout;--counts N" report --emit vllm
bad "--emit;one layout;--counts N" report --counts 4,8 --emit sglang
bad "--emit;--json" report --counts 4 --emit vllm --json
bad "--emit;--explain" report --counts 4 --explain --gpus 4 --emit vllm
bad "--emit vllm;1 GPU does not fit" report --model 70b --counts 1 --emit vllm
bad "--emit sglang;64 attention heads" report --model 70b --counts 3 --emit sglang
bad "--emit vllm;one chat's cache;--cache-per-chat" report --model 70b --counts 4 --words 8 --emit vllm
bad "--emit vllm;--bits 4" report --gpu h100-sxm --counts 4 --bits 4 --emit vllm
bad "--emit trtllm;--cache-bits 16 or 8" report --gpu h100-sxm --counts 4 --cache-bits 12 --emit trtllm
bad "--emit trtllm;no flag for data-parallel replicas" report --gpu h100-sxm --counts 4 --replicas 2 --emit trtllm
bad "--emit vllm;no flag for independent replicas of a mixture" report --model mixtral-8x7b --gpu h100-sxm --counts 2 --replicas 2 --emit vllm
good report --gpu h100-sxm --counts 8 --emit trtllm
bad "--emit vllm;batches of --words chats" report --gpu h100-sxm --counts 4 --split groups --words 8 --in-flight 4 --emit vllm
bad "--emit trtllm;4 pipeline stages;--in-flight 4" report --gpu h100-sxm --counts 4 --split groups --words 8 --emit trtllm
bad "--emit vllm;2 replicas of 8 GPUs;a server of 8" report --gpu h100-sxm --counts 8 --replicas 2 --emit vllm
bad "--emit;a target chooses;--target-word-ms" plan --model 70b --gpu h100-sxm --gpus-max 8 --emit vllm
bad "--emit;must be vllm, sglang or trtllm" plan --model 70b --gpu h100-sxm --gpus-max 8 --target-word-ms 30 --emit tgi
bad "--emit;--json" plan --model 70b --gpu h100-sxm --gpus-max 8 --target-word-ms 30 --emit vllm --json
bad "--emit trtllm;no layout meets the target" plan --model 70b --gpu h100-sxm --gpus-max 16 --target-word-ms 0.1 --emit trtllm
good plan --model 70b --gpu h100-sxm --gpus-max 8 --target-word-ms 30 --emit sglang
good report --model deepseek-v3 --gpu h200 --counts 8 --experts spread --words 64 --emit=sglang

# a served load (issue 29): its own flags, report's it decides, and what cannot be served
bad "serve;--counts N is needed" serve --gpu h100-sxm
bad "serve;--counts N is needed" serve --gpu h100-sxm --counts 4,8
bad "--rate;above 0" serve --gpu h100-sxm --counts 4 --rate 0
bad "--rate;finite" serve --gpu h100-sxm --counts 4 --rate nan
bad "--rate;needs a value" serve --gpu h100-sxm --counts 4 --rate
bad "--concurrency;--rate;give one" serve --gpu h100-sxm --counts 4 --rate 5 --concurrency 4
bad "--concurrency;from 1 to" serve --gpu h100-sxm --counts 4 --concurrency 0
bad "--concurrency;to the requests" serve --gpu h100-sxm --counts 4 --concurrency 2000
bad "--concurrency;from the replicas (2)" serve --gpu h100-sxm --counts 4 --replicas 2 --concurrency 1
# a pipeline's micro-batches: one a stage by default, each needs a request in flight
bad "--concurrency;from the replicas times the micro-batches in flight (8)" serve --gpu h100-sxm --counts 4 --split groups --in-flight 4 --replicas 2 --concurrency 6
bad "--in-flight;slices keep no batches in flight" serve --gpu h100-sxm --counts 4 --in-flight 2 --concurrency 8
bad "--in-flight;from 1 to" serve --gpu h100-sxm --counts 4 --split groups --in-flight 0 --concurrency 8
bad "--requests;from 1 to" serve --gpu h100-sxm --counts 4 --requests 0
bad "--requests;at most 4294967296" serve --gpu h100-sxm --counts 4 --requests 200000 --output-tokens 30000
bad "--requests;from 1 to 250000" serve --gpu h100-sxm --counts 4 --requests 250001
# issue 28: every command answers in under a second; a load's steps are bounded before it runs
bad "--requests;prompt's chunks;at most 4194304" serve --gpu h100-sxm --counts 4 --requests 250000 --concurrency 1 --prompt-tokens 1 --output-tokens 16
bad "--requests;prompt's chunks;at most 4194304" serve --gpu h100-sxm --counts 4 --requests 2000 --prompt-tokens 4000 --output-tokens 1 --max-batched-tokens 1
bad "--output-tokens;from 1 to" serve --gpu h100-sxm --counts 4 --output-tokens 0
bad "--engine;vllm, sglang, trt-llm or lmdeploy;tgi" serve --gpu h100-sxm --counts 4 --engine tgi
bad "--engine;needs a value" serve --gpu h100-sxm --counts 4 --engine
bad "--memory-share;from 0.01 to 1" serve --gpu h100-sxm --counts 4 --memory-share 2
bad "--overlap-share;from 0 to 1" serve --gpu h100-sxm --counts 4 --overlap-share -1
bad "--max-seqs;from 1 to" serve --gpu h100-sxm --counts 4 --max-seqs 0
bad "--block-tokens;from 1 to" serve --gpu h100-sxm --counts 4 --block-tokens 0
bad "serve;--words;decides" serve --gpu h100-sxm --counts 4 --words 8
# report's prefill share is not a served step's: refused, never taken and ignored (2026-12-07)
bad "--flops-share;--step-flops-share" serve --gpu h100-sxm --counts 4 --flops-share 0.2
bad "--flops-share;--step-flops-share" plan --gpu h100-sxm --gpus-max 4 --rate 2 --requests 50 --flops-share 0.2
bad "--request-us;0 or more" serve --gpu h100-sxm --counts 4 --request-us -1
# report's flags a served load would take and not use: refused, never ignored (2026-12-07)
bad "--chat-tokens;lengths decide" serve --gpu h100-sxm --counts 4 --chat-tokens 1000
bad "--no-read-cache;reads every chat's cache" serve --gpu h100-sxm --counts 4 --no-read-cache
bad "--usable;--memory-share" serve --gpu h100-sxm --counts 4 --usable 0.5
bad "serve;--gpu-hour;plan --gpu-hour" serve --gpu h100-sxm --counts 4 --gpu-hour 2
bad "--prompt-tokens;a served request's prompt;not 'none'" serve --gpu h100-sxm --counts 4 --prompt-tokens none
bad "--prompt-tokens;a served request's prompt;not 'none'" plan --gpu h100-sxm --gpus-max 4 --rate 2 --requests 50 --prompt-tokens none
bad "--chat-tokens;lengths decide" plan --gpu h100-sxm --gpus-max 4 --rate 2 --requests 50 --chat-tokens 1000
bad "--no-read-cache;reads every chat's cache" plan --gpu h100-sxm --gpus-max 4 --rate 2 --requests 50 --no-read-cache
bad "--usable;--memory-share" plan --gpu h100-sxm --gpus-max 4 --rate 2 --requests 50 --usable 0.5
bad "serve;--emit;decides" serve --gpu h100-sxm --counts 4 --emit vllm
bad "--memory-share;no room for the cache" serve --gpu h100-sxm --counts 1 --model 405b
bad "--max-batched-tokens;9000;without chunks" serve --gpu h100-sxm --counts 4 --engine trt-llm --prompt-tokens 9000
# prefill and decode on separate copies (csrc/serve/disagg.c): both counts, one engine a copy
bad "--prefill-copies;with --decode-copies" serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 1
bad "--replicas;leave out --replicas" serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 1 --decode-copies 1 --replicas 2
bad "disaggregate;(no replicas or groups)" serve --model 70b --gpu h100-sxm --counts 2 --split groups --prefill-copies 1 --decode-copies 1
bad "--prefill-copies;from 1 to 255" serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 0 --decode-copies 1
bad "disaggregate;256 in all at most" serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 200 --decode-copies 100
good serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 1 --decode-copies 3 --concurrency 16 --requests 64
# --prefill-counts: prefill copies of their own count, checked as --counts is
bad "--prefill-counts;given with --prefill-copies and --decode-copies" serve --model 70b --gpu h100-sxm --counts 4 --prefill-counts 2
bad "--prefill-counts;3 does not divide the 64 heads" serve --model 70b --gpu h100-sxm --counts 4 --prefill-copies 1 --decode-copies 1 --prefill-counts 3
bad "--prefill-counts;from 1 to 256" serve --model 70b --gpu h100-sxm --counts 4 --prefill-copies 1 --decode-copies 1 --prefill-counts 300
bad "--prefill-counts;256 experts do not spread evenly over 12 GPUs" serve --model deepseek-v3 --gpu h200 --counts 16 --experts spread --prefill-copies 1 --decode-copies 1 --prefill-counts 12
good serve --model 70b --gpu h100-sxm --counts 4 --prefill-copies 2 --decode-copies 1 --prefill-counts 2 --concurrency 8 --requests 40
# copies of spread experts beside data-parallel attention: each copy its ranks, 256 lanes at most
good serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --prefill-copies 1 --decode-copies 2 --concurrency 32 --requests 96
bad "disaggregate;times each copy's attention ranks, 256" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --prefill-copies 17 --decode-copies 16
# trtllm-bench's limits (csrc/serve/bench_limits.c): TensorRT-LLM's only, and refused where its estimate holds no request
bad "--limits;engine or trtllm-bench" serve --gpu h100-sxm --counts 4 --limits bench
bad "--limits trtllm-bench;give --engine trt-llm" serve --gpu h100-sxm --counts 4 --limits trtllm-bench
bad "--limits trtllm-bench;give --engine trt-llm" plan --model 70b --gpu h100-sxm --gpus-max 8 --engine sglang --limits trtllm-bench --target-tpot-ms 80
bad "limits;no room for one request" serve --model 70b --gpu h100-sxm --counts 2 --engine trt-llm --limits trtllm-bench --prompt-tokens 60000 --output-tokens 40000 --requests 10
good serve --gpu h100-sxm --counts 4 --engine trt-llm --limits trtllm-bench --prompt-tokens 9000 --requests 50
# vLLM 0.6's scheduler (csrc/serve/scheduler.c): chunked prefill off and multi-step, vLLM's only; the budget from max_model_len
bad "--chunked-prefill;on or off" serve --gpu h100-sxm --counts 4 --chunked-prefill no
bad "--chunked-prefill off;vllm;sglang" serve --gpu h100-sxm --counts 4 --engine sglang --chunked-prefill off
bad "--chunked-prefill on;TensorRT-LLM" serve --gpu h100-sxm --counts 4 --engine trt-llm --chunked-prefill on
bad "--scheduler-steps;from 1 to 256" serve --gpu h100-sxm --counts 4 --scheduler-steps 0
bad "--scheduler-steps;--chunked-prefill off" serve --gpu h100-sxm --counts 4 --scheduler-steps 8
bad "--scheduler-steps;plan" plan --model 70b --gpu h100-sxm --gpus-max 8 --chunked-prefill off --scheduler-steps 8 --target-tpot-ms 80
bad "scheduler_steps;one engine a copy" serve --gpu h100-sxm --counts 4 --split groups --in-flight 2 --concurrency 8 --chunked-prefill off --scheduler-steps 8
bad "--max-batched-tokens;max_model_len" serve --model deepseek-v3 --gpu h200 --counts 8 --chunked-prefill off --requests 20
bad "--max-batched-tokens;41000;40960;without chunks" serve --model qwen3-8b --gpu h100-sxm --counts 1 --chunked-prefill off --prompt-tokens 41000 --output-tokens 900 --requests 5
good serve --model qwen3-8b --gpu h100-sxm --counts 1 --chunked-prefill off --scheduler-steps 8 --rate 5 --requests 50
good serve --model deepseek-v3 --gpu h200 --counts 8 --chunked-prefill off --max-batched-tokens 16384 --requests 20
bad "pool;200000 tokens" serve --model 8b --counts 1 --gpu l4 --requests 1 --prompt-tokens 100000 --output-tokens 100000
# issue 29 item 4: spread experts beside data-parallel or sliced attention
good serve --model mixtral-8x7b --gpu h100-sxm --counts 8 --experts spread --concurrency 4 --requests 40
bad "--attention;beside --experts spread only" serve --model mixtral-8x7b --gpu h100-sxm --counts 8 --attention data
bad "--attention;data or slices" serve --model mixtral-8x7b --gpu h100-sxm --counts 8 --experts spread --attention both
bad "--counts;64 does not divide the 96 heads;sliced attention" serve --model glm-4.5-air --gpu h100-sxm --counts 64 --experts spread --attention slices
bad "--counts;128 experts do not spread evenly over 48" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 48 --experts spread
bad "gpus;at most 256 ranks" serve --model kimi-k2 --gpu h100-sxm --counts 384 --experts spread
# one request in flight keeps all 128 ranks stepping through its 2.4 million steps: refused before it runs
bad_fast "--requests;1 in flight a copy keep its 128 attention ranks stepping" serve --model deepseek-v3 --gpu h200 --counts 128 --experts spread --memory-share 0.85 --concurrency 1 --requests 4 --prompt-tokens 100 --output-tokens 600000
# experts spread over fewer ranks than GPUs, each cut over a rank's GPUs (--expert-ranks)
bad "--expert-ranks;beside --experts spread only" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --expert-ranks 4
bad "--expert-ranks;3 ranks of experts do not divide the 8 GPUs" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --expert-ranks 3
bad "--counts;128 experts do not spread evenly over 3 ranks" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 6 --experts spread --expert-ranks 3
bad "--expert-ranks;from 1 to" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --expert-ranks 0
good serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --attention slices --expert-ranks 4 --requests 40
good serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --expert-ranks 1 --requests 40 --concurrency 8
# a skewed router beside spread experts (--skew)
bad "--skew;beside --experts spread only" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --skew 2
bad "--skew;from 1 (uniform) to the 4 ranks of experts" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --expert-ranks 4 --skew 5
bad "--skew;from 1 to 65536, not '0.5'" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --skew 0.5
bad "--skew;a finite number, not 'nan'" serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --skew nan
good serve --model qwen3-30b-a3b --gpu h100-sxm --counts 8 --experts spread --skew 1.5 --requests 40
printf '100,10\n3000,x\n' > "$tmp/lengths.csv"
bad "lengths.csv;lengths: line 2;PROMPT,OUTPUT" serve --model 8b --gpu h100-sxm --counts 1 --lengths "$tmp/lengths.csv"
bad "--lengths;leave out" serve --model 8b --gpu h100-sxm --counts 1 --lengths "$tmp/lengths.csv" --output-tokens 5
bad "--lengths;leave out" serve --model 8b --gpu h100-sxm --counts 1 --lengths "$tmp/lengths.csv" --prompt-tokens 5
bad "missing.csv" serve --model 8b --gpu h100-sxm --counts 1 --lengths "$tmp/missing.csv"
good serve --model 8b --gpu h100-sxm --counts 1 --requests 50 --output-tokens 8
printf '# prompt,output\n100,10\n3000,50\n' > "$tmp/lengths-good.csv"
good serve --model 8b --gpu h100-sxm --counts 1 --requests 20 --lengths "$tmp/lengths-good.csv"
bad "--engine: lmdeploy's TurboMind runs on NVIDIA GPUs only, not on mi300x" serve --model 8b --gpu mi300x --counts 1 --engine lmdeploy
bad "--emit: must be vllm, sglang or trtllm, not 'lmdeploy'" report --model 8b --gpu h100-sxm --counts 1 --emit lmdeploy
bad "lmdeploy's TurboMind does not run model_type 'deepseek_v3'" serve --model deepseek-v3 --gpu h200 --counts 8 --engine lmdeploy --requests 20
bad "plan: engine: lmdeploy's TurboMind does not run model_type 'gemma2'" plan --model gemma-2-27b --gpu h100-sxm --gpus-max 2 --engine lmdeploy --concurrency 8 --requests 50
bad "--lengths sharegpt: rescaled, a prompt and an output of 18000000 tokens together" serve --model 8b --gpu h100-sxm --counts 1 --requests 1 --lengths sharegpt --prompt-tokens 9000000 --output-tokens 9000000
bad "--prompt-tokens;from 1 to" serve --model 8b --gpu h100-sxm --counts 1 --lengths sharegpt --prompt-tokens 0
bad "--prompt-tokens;with --lengths sharegpt;not 'none'" serve --model 8b --gpu h100-sxm --counts 1 --lengths sharegpt --prompt-tokens none
bad "--prompt-tokens;rescaled to a mean of 16000000;above 16777216" serve --model 8b --gpu h100-sxm --counts 1 --lengths sharegpt --prompt-tokens 16000000
bad "--output-tokens;from 1 to" serve --model 8b --gpu h100-sxm --counts 1 --lengths sharegpt --output-tokens 0
good serve --model 8b --gpu h100-sxm --counts 1 --requests 50 --lengths sharegpt --output-tokens 64 --seed 9
good serve --help

# Good inputs: any value that parses as a number, and --flag=value.
good report
good report --link-bw 2.039e12 --words 10
bad "--words;written as digits;1e1" report --words 1e1
good report --words=16 --link=slow --split=groups
good report --model 8b --counts 1,2,3 --max-n 8 --json
good report --model 405b --max-n 10
good report --usable 1 --step-us 0 --base-us 0
good report --model "$(m good.json)"
good report --help
good --help

# One flag reader for every command (csrc/read/flags.c): an unknown flag is refused in the
# same words by each, naming the command; a flag that takes a value given twice, a path
# among them, and a second positional are refused rather than one replacing the other.
for cmd in report numbers fixture list calibrate validate figure fit plan serve; do
  bad "gpusplit: $cmd: unknown flag '--bogus' (see gpusplit $cmd --help)" $cmd --bogus
  bad "gpusplit: $cmd: unknown flag '--bogus=1' (see gpusplit $cmd --help)" $cmd --bogus=1
done
bad "--allreduce: given twice; give it once" fit --allreduce a --allreduce b runs.csv
bad "--runs: given twice; give it once" validate --runs a.csv --runs b.csv
bad "--source-dir: given twice" validate t.csv --source-dir a --source-dir=b --lesson-link fast
bad "--link-from: given twice; give it once" report --link-from a.log --link-from=b.log
bad "--lengths: given twice; give it once" serve --model 8b --counts 1 --lengths a --lengths b
bad "--model: given twice; give it once" plan --gpus-max 4 --model 8b --model=70b
bad "fit: one RUNS.csv only; 'b.csv' would be a second" fit a.csv b.csv
bad "calibrate: one LOG only; 'b.log' would be a second" calibrate a.log b.log
bad "validate: one TABLE only; 'b.csv' would be a second" validate a.csv b.csv --source-dir x --lesson-link fast
bad "list: one WHAT only; 'links' would be a second" list gpus links
bad "numbers: unexpected argument 'x' (see gpusplit numbers --help)" numbers x
bad "report: unexpected argument '8b' (see gpusplit report --help)" report --json 8b
bad "--json: takes no value, not '1'" report --json=1
bad "--gpus-max: needs a value" plan --model 8b --gpus-max
bad "plan: --gpus-max N is needed (see gpusplit plan --help)" plan --model 8b
bad "--rate: must be above 0 and at most 1000000000, not '0'" serve --model 8b --counts 1 --rate=0
bad "--memory-share: must be from 0.01 to 1, not '2'" serve --model 8b --counts 1 --memory-share=2
# plan reads serve's table of the load's and the engine's flags: the same words refuse the
# same way, and its own served flags are rows of its table.
bad "--rate: must be above 0 and at most 1000000000, not '0'" plan --model 8b --gpus-max 2 --rate=0
bad "--memory-share: must be from 0.01 to 1, not '2'" plan --model 8b --gpus-max 2 --memory-share=2
bad "--rate: given twice; give it once" plan --model 8b --gpus-max 2 --rate 1 --rate=2
bad "--target-stat: must be mean, p50, p90 or p99, not 'p95'" plan --model 8b --gpus-max 2 --target-stat=p95
bad "--target-tpot-ms: given twice; give it once" plan --model 8b --gpus-max 2 --target-tpot-ms 9 --target-tpot-ms=9
bad "plan: --concurrency and --rate are two loads; give one" plan --model 8b --gpus-max 2 --rate 1 --concurrency 2
bad "serve: --concurrency and --rate are two loads; give one" serve --model 8b --counts 1 --rate 1 --concurrency 2
bad "--lengths: gives each request's prompt and output; leave out --prompt-tokens and --output-tokens" plan --model 8b \
  --gpus-max 2 --lengths x.csv --output-tokens 9

echo "bad_input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
