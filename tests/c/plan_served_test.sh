#!/bin/sh
# The plan of a served load (issue 29, item 6): a choice whose figures serve gives again and
# that meets the targets, a target nothing meets with its reason, --target-stat choosing the
# figure held, and bad input as one line with exit 2.
# Usage: tests/c/plan_served_test.sh build/gpusplit
set -u
binary=$1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, then a shell condition
  name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); fi
}
base="--model 8b --gpu h100-sxm --requests 200 --output-tokens 64"

# Without a load: each copy's Poisson rate; serve on the choice's flags must meet the targets
# and give the plan's own figures.
"$binary" plan $base --gpus-max 4 --target-tpot-ms 12 --target-ttft-ms 400 --json > "$tmp/plan.json"
check "a served plan exits 0 with JSON" [ $? -eq 0 ]
choice=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['choice']['flags'])" "$tmp/plan.json")
"$binary" serve $base $choice --json > "$tmp/serve.json"
check "serve runs the choice's flags" [ $? -eq 0 ]
check "serve on the choice meets both targets at p90 and gives the plan's figures" python3 -c "
import json, sys
plan, serve = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
c = plan['choice']
assert serve['tpot_ms']['p90'] <= 30 and serve['ttft_ms']['p90'] <= 400, (serve['tpot_ms'], serve['ttft_ms'])
assert serve['tpot_ms'] == c['tpot_ms'] and serve['ttft_ms'] == c['ttft_ms']
assert abs(serve['output_tokens_per_s'] / serve['gpus'] - c['words_per_s_per_gpu']) <= 1e-9 * c['words_per_s_per_gpu']
for k in ('gpus', 'split', 'experts', 'attention', 'replicas', 'flags', 'words_per_s_per_gpu', 'load'):
    assert k in c, k
assert c['gpus'] * c['replicas'] <= 4 and c['load']['kind'] == 'poisson'
" "$tmp/plan.json" "$tmp/serve.json"

check "every frontier point and the choice keep the plan's keys and add attention, replicas and the load held" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
assert p['frontier'], 'an empty frontier'
for c in p['frontier'] + [p['choice']]:
    for k in ('gpus', 'split', 'experts', 'flags', 'words_per_s_per_gpu', 'attention', 'replicas', 'load'):
        assert k in c, k
    assert c['attention'] in ('slices', 'data') and c['replicas'] >= 1
    # the load held: requests a second for the whole deployment, one copy's times replicas
    assert abs(c['load']['requests_per_s'] - c['load']['copy_rate'] * c['replicas']) <= 1e-9 * c['load']['requests_per_s']
" "$tmp/plan.json"

# The plan without a served load keeps its JSON and adds the same keys: the load held is
# every replica's chats at once, which the words a second and the time a word agree with.
"$binary" plan --model 8b --gpu h100-sxm --gpus-max 4 --target-word-ms 20 --json > "$tmp/static.json"
check "a static plan's points add attention and the chats held" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
assert p['frontier'] and p['choice']
for c in p['frontier'] + [p['choice']]:
    for k in ('gpus', 'split', 'experts', 'flags', 'words_per_s_per_gpu', 'attention', 'replicas', 'load'):
        assert k in c, k
    assert c['attention'] == ('data' if c['experts'] == 'spread' else 'slices')
    assert c['load']['kind'] == 'static'
    assert abs(c['load']['chats'] / c['time_per_word'] - c['words_per_s']) <= 1e-9 * c['words_per_s'], c
" "$tmp/static.json"

# With a load: the fewest replicas that hold it; serve with the load and the choice's flags.
# (30 ms: the fitted serving figures, data/serving.json, put 8B on H100 above 12 ms a token.)
"$binary" plan $base --gpus-max 4 --rate 20 --target-tpot-ms 30 --json > "$tmp/load.json"
choice=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['choice']['flags'])" "$tmp/load.json")
"$binary" serve $base --rate 20 $choice --json > "$tmp/serve2.json"
check "with a load, serve on the choice holds it within the target" python3 -c "
import json, sys
plan, serve = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert serve['tpot_ms']['p90'] <= 30 and serve['tpot_ms'] == plan['choice']['tpot_ms']
assert serve['gpus'] == plan['choice']['total_gpus']
" "$tmp/load.json" "$tmp/serve2.json"

# --disaggregate: slices with prefill and decode on separate copies join the search. 70B on
# up to 16 H100s, a first token within 2 s and a token within 50 ms; the choice's serve flags
# give its figures again, with or without its prefill and decode copies; a load's choice
# holds it with its units of copies.
"$binary" plan --model 70b --gpu h100-sxm --gpus-max 16 --requests 300 --target-ttft-ms 2000 --target-tpot-ms 50 --disaggregate --json > "$tmp/pd.json"
check "a plan with --disaggregate exits 0" [ $? -eq 0 ]
choice=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['choice']['flags'])" "$tmp/pd.json")
"$binary" serve --model 70b --gpu h100-sxm --requests 300 $choice --json > "$tmp/pd_serve.json"
check "serve on a --disaggregate plan's choice gives its figures; the points name their copies" python3 -c "
import json, sys
plan, serve = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
c = plan['choice']
assert serve['tpot_ms'] == c['tpot_ms'] and serve['ttft_ms'] == c['ttft_ms']
assert serve['prefill_copies'] == c['prefill_copies'] and serve['decode_copies'] == c['decode_copies']
assert serve['gpus'] * c['replicas'] == c['total_gpus'] and c['total_gpus'] <= 16
assert any(p['prefill_copies'] > 0 for p in plan['frontier'] + [c]), 'no disaggregated layout on the frontier'
for p in plan['frontier']:
    assert (p['prefill_copies'] > 0) == ('--prefill-copies' in p['flags']), p['flags']
" "$tmp/pd.json" "$tmp/pd_serve.json"
"$binary" plan --model 70b --gpu h100-sxm --gpus-max 16 --requests 300 --rate 4 --target-tpot-ms 50 --disaggregate --json > "$tmp/pd_load.json"
choice=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['choice']['flags'])" "$tmp/pd_load.json")
"$binary" serve --model 70b --gpu h100-sxm --requests 300 --rate 4 $choice --json > "$tmp/pd_load_serve.json"
check "with a load, serve on a --disaggregate plan's choice holds it with the choice's GPUs" python3 -c "
import json, sys
plan, serve = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
c = plan['choice']
assert serve['tpot_ms']['p90'] <= 50 and serve['tpot_ms'] == c['tpot_ms']
assert serve['gpus'] == c['total_gpus']
" "$tmp/pd_load.json" "$tmp/pd_load_serve.json"

# A mixture of experts: its experts spread beside data-parallel or sliced attention join the
# search. Qwen3-30B-A3B (128 experts) on up to 16 H100s under SGLang, a token within 60 ms and
# a first token within 3 s: every frontier point's serve flags give its figures again (under
# SGLang's attention data parallel a point's --max-seqs is the whole engine's, which its ranks
# share), and the spread points say their experts and attention.
# serve_points NAME SERVE_ARGS...: serve on each frontier point of $tmp/NAME.json, one JSON
# line each into $tmp/NAME_serves ({} where serve fails)
serve_points() {
  name=$1
  shift
  python3 -c "
import json, sys
for p in json.load(open(sys.argv[1]))['frontier']: print(p['flags'])
" "$tmp/$name.json" > "$tmp/${name}_flags"
  : > "$tmp/${name}_serves"
  while read -r flags; do
    "$binary" serve "$@" $flags --json >> "$tmp/${name}_serves" || echo '{}' >> "$tmp/${name}_serves"
  done < "$tmp/${name}_flags"
}
# the same figures from serve on every point, and what each check adds about a point and its serve
same_figures="
import json, sys
plan = json.load(open(sys.argv[1]))
serves = [json.loads(line) for line in open(sys.argv[2])]
assert len(serves) == len(plan['frontier']) > 0
for p, s in zip(plan['frontier'], serves):
    assert s['tpot_ms'] == p['tpot_ms'] and s['ttft_ms'] == p['ttft_ms'], p['flags']
"
moe="--model qwen3-30b-a3b --gpu h100-sxm --engine sglang --requests 300"
"$binary" plan $moe --gpus-max 16 --target-tpot-ms 60 --target-ttft-ms 3000 --json > "$tmp/moe.json"
check "a plan of a mixture exits 0" [ $? -eq 0 ]
serve_points moe $moe
check "serve on each point of a mixture's plan gives its figures; spread points say so" python3 -c "$same_figures
for p, s in zip(plan['frontier'], serves):
    spread = '--experts spread' in p['flags']
    assert (p['experts'] == 'spread') == spread and s['experts'] == p['experts'], p['flags']
    assert p['attention'] == s['attention'], p['flags']
    assert (p['attention'] == 'data') == ('--attention data' in p['flags']), p['flags']
assert any(p['experts'] == 'spread' for p in plan['frontier']), 'no spread layout on the frontier'
" "$tmp/moe.json" "$tmp/moe_serves"

# With --disaggregate, a mixture's data-parallel ranks as prefill and decode copies join too:
# DeepSeek-V3 on up to 64 H200s at 6 requests a second; each frontier point's flags give its
# figures again, one of them prefill and decode copies of spread experts.
ds="--model deepseek-v3 --gpu h200 --engine sglang --requests 400 --rate 6"
"$binary" plan $ds --gpus-max 64 --target-tpot-ms 80 --target-ttft-ms 4000 --disaggregate --json > "$tmp/ds.json"
check "a disaggregated plan of a mixture exits 0" [ $? -eq 0 ]
serve_points ds $ds
check "serve on each point of a mixture's disaggregated plan gives its figures" python3 -c "$same_figures
for p, s in zip(plan['frontier'], serves):
    assert s['gpus'] == p['total_gpus'] and s['prefill_copies'] == p['prefill_copies'], p['flags']
assert any(p['experts'] == 'spread' and p['prefill_copies'] > 0 for p in plan['frontier']), 'no spread copies on the frontier'
" "$tmp/ds.json" "$tmp/ds_serves"

# A target nothing meets: no choice, and a reason naming the quickest figures.
"$binary" plan $base --gpus-max 2 --target-ttft-ms 0.001 --json > "$tmp/none.json"
check "a target nothing meets exits 0" [ $? -eq 0 ]
check "a target nothing meets gives no choice and a reason" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
assert p['choice'] is None and p['why'] and 'to the first token' in p['why'], p['why']
" "$tmp/none.json"

# --target-stat: the figure held is the stat's; a p99 target holds no more than a mean one.
for stat in mean p99; do
  "$binary" plan $base --gpus-max 1 --target-tpot-ms 12 --target-stat $stat --json > "$tmp/$stat.json"
done
check "--target-stat changes which figure is held" python3 -c "
import json, sys
m, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert m['target_stat'] == 'mean' and p['target_stat'] == 'p99'
assert abs(m['choice']['time_per_word'] * 1e3 - m['choice']['tpot_ms']['mean']) < 1e-9
assert abs(p['choice']['time_per_word'] * 1e3 - p['choice']['tpot_ms']['p99']) < 1e-9
assert p['choice']['tpot_ms']['p99'] <= 12 and m['choice']['tpot_ms']['mean'] <= 12
assert p['choice']['tpot_ms']['p99'] >= p['choice']['tpot_ms']['mean']
assert p['choice']['load']['requests_per_s'] <= m['choice']['load']['requests_per_s']
" "$tmp/mean.json" "$tmp/p99.json"

# Bad input: one line on stderr, exit 2, nothing on stdout.
bad() { # name, then the arguments
  name=$1
  shift
  "$binary" plan $base --gpus-max 2 "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  check "$name exits 2 with one line" [ $rc -eq 2 -a "$(wc -l < "$tmp/err")" -eq 1 -a ! -s "$tmp/out" ]
}
bad "--target-stat p95" --target-stat p95
bad "--target-tpot-ms -1" --target-tpot-ms -1
bad "--target-ttft-ms with no value" --target-ttft-ms
bad "--rate and --concurrency" --rate 2 --concurrency 4
bad "both --target-word-ms and --target-tpot-ms" --target-word-ms 10 --target-tpot-ms 10
bad "work past the plan's bound" --requests 1000000
bad "--memory-share 2" --memory-share 2 --target-tpot-ms 10
bad "--emit with a served plan" --emit vllm --target-tpot-ms 10

# The header says whose figures the engine's step takes, as serve's Fitted line: vLLM has
# fewer than 6 fitted serving runs (the pooled figures), LMDeploy none (TensorRT-LLM's, a
# C++ host loop alike: engine.c), SGLang its own.
"$binary" plan --model 8b --gpu h100-sxm --gpus-max 2 --concurrency 32 --requests 100 > "$tmp/vll" 2>&1
"$binary" plan --model 8b --gpu h100-sxm --gpus-max 2 --engine lmdeploy --concurrency 32 --requests 100 > "$tmp/lmd" 2>&1
"$binary" plan --model 8b --gpu h100-sxm --gpus-max 2 --engine sglang --concurrency 32 --requests 100 > "$tmp/sgl" 2>&1
check "plan's header says vllm's step takes the pooled figures, lmdeploy's trt-llm's, and sglang's its own" sh -c "
head -1 '$tmp/vll' | grep -q 'served by vllm.s scheduler .*fewer than 6 runs of vllm are among its runs: its step takes the figures fitted to all of them pooled' &&
head -1 '$tmp/lmd' | grep -q 'served by lmdeploy.s scheduler .*fewer than 6 runs of lmdeploy are among its runs: its step takes trtllm.s fitted figures' &&
head -1 '$tmp/sgl' | grep -q 'served by sglang.s scheduler' && ! grep -q 'fewer than 6 runs of' '$tmp/sgl'"

# A point at a halved cap (--max-seqs) is served as serve serves it with that flag: under
# lmdeploy the step's budget follows the cap (TurboMind's 8192 prompt tokens + the
# sequences), so the plan must give its cap as serve's flag does. Prompts of 6,000 tokens
# at 200 a second keep the budget full: at 64 sequences a budget of 8,256 (following the
# cap) and of 9,216 (the default cap's) complete 2.062 and 2.055 requests a second.
lmd="--model 8b --gpu h100-sxm --engine lmdeploy --rate 200 --requests 300 --prompt-tokens 6000 --output-tokens 64"
"$binary" plan $lmd --gpus-max 1 --target-tpot-ms 1000 > "$tmp/lmd_cap" 2>&1
point=$(grep -m1 -- '--max-seqs 64$' "$tmp/lmd_cap")
"$binary" serve $lmd --counts 1 --max-seqs 64 > "$tmp/lmd_serve" 2>&1
rate=$(echo "$point" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9][0-9][0-9]$/) { print $i; exit } }')
check "an lmdeploy plan point at a cap of 64 is what serve prints with --max-seqs 64 (requests a second)" \
  sh -c "[ -n '$rate' ] && grep -q 'requests $rate (over' '$tmp/lmd_serve'"

echo "plan served: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
