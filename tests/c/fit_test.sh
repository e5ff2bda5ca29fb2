#!/bin/sh
# gpusplit fit and validate --runs on small runs files whose answer is worked by hand.
# Usage: tests/c/fit_test.sh build/gpusplit
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
has() { grep -qF -- "$2" "$1"; }

# Two runs on one H100 SXM (3.35e12 bytes/s), batch 1, no prompt or output (a cache of one
# token, read each step), made to take exactly the time of a share of 0.5 of the bandwidth
# and 50 us a layer:
#   8B:  16,060,522,496 weight bytes + 131,072 cache bytes = 16,060,653,568 bytes;
#        / 3.35e12 / 0.5 = 9.58845 ms, + 32 layers x 50 us = 11.188450 ms
#   70B: 141,107,412,992 + 327,680 = 141,107,740,672 bytes; / 3.35e12 / 0.5 = 84.24343 ms,
#        + 80 x 50 us = 88.243427 ms
# (2 bytes a weight; a token's cache is 2 x layers x 8 key/value heads x 128 x 2 bytes).
# One GPU each, so no all-reduce. The fit must find 0.50 and 50.0 us.
cat > "$tmp/runs.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus,tp,pp,ep,batch,input_tokens,output_tokens,itl_ms,ttft_ms,software,interconnect,source,note
r1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,1,0,0,11.188450,,vLLM 0.9,,x,"S1; hand-worked"
r2,Llama-3.1-70B,meta-llama/Llama-3.1-70B-Instruct,16,,H100-SXM5-80GB,1,1,1,,1,0,0,88.243427,,vLLM 0.9,,x,"S2; hand-worked, a tune of the base"
r3,Falcon,tiiuae/falcon-180B,16,,H100-SXM5-80GB,8,8,1,,1,0,0,30,,vLLM 0.9,,x,"S2; not in the catalogue"
r4,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,TPU v5e,1,1,1,,1,0,0,30,,vLLM 0.9,,x,"S2; no such GPU"
r5,Mixtral-8x7B,mistralai/Mixtral-8x7B-v0.1,16,,H100-SXM5-80GB,4,1,1,4,1,0,0,30,,vLLM 0.9,,x,"S2; experts over 4 GPUs"
r6,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,1,0,0,3,,vLLM 0.9,,x,"S2; speculative decoding, EAGLE"
CSV
"$binary" fit "$tmp/runs.csv" > "$tmp/fit" 2> "$tmp/err"
check "fit exits 0" [ $? -eq 0 ]
check "fit says what it read" has "$tmp/fit" "Runs: 6 read, 2 priced, 4 skipped"
check "fit finds a share of 0.50 and 50.0 us a layer for every engine pooled" \
  [ "$(awk '$1 == "any" && $2 == "all" { print $3, $4, $5, $NF }' "$tmp/fit")" = "2 0.50 50.0 S1,S2" ]
check "fit gives vllm, with 2 runs, no figures of its own" \
  [ "$(awk '$1 == "vllm" && $2 == "all" { print $3, $4, $5, $NF }' "$tmp/fit")" = "2 under 6 S1,S2" ]
check "fit prints each run's error, under 0.05% here (the times are rounded to 1 ns)" \
  [ "$(awk '$1 == "r1" || $1 == "r2" { e = $NF; sub(/%/, "", e); e += 0; print (e < 0.05 && e > -0.05) }' "$tmp/fit" | tr '\n' ' ')" = "1 1 " ]
check "fit names a model the catalogue lacks" has "$tmp/fit" "r3: model 'tiiuae/falcon-180B' is not in the catalogue"
check "fit names a GPU it does not know" has "$tmp/fit" "r4: GPU 'TPU v5e' has no catalogue entry this fit knows"
check "fit refuses experts spread beside sliced attention, naming it" has "$tmp/fit" "r5: ep 4: experts spread beside sliced attention is not a layout the model prices"
check "fit refuses a run that drafted words ahead, naming it" has "$tmp/fit" "r6: speculative decoding: the model prices a word a step"

"$binary" fit --json "$tmp/runs.csv" > "$tmp/fit.json"
check "fit --json is JSON with the figures and the runs they came from" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d['figures'] if x['engine'] == 'vllm' and x['generation'] == 'all'][0]
assert (f['bandwidth_share'], f['layer_us'], f['ids'], f['sources'], f['pooled']) == (0.5, 50, 'r1,r2', 'S1,S2', True), f
assert [s['id'] for s in d['skipped']] == ['r3', 'r4', 'r5', 'r6']
" "$tmp/fit.json"

# report prices with the user's own runs: 70B on one H100 at the fitted figures is the
# 88.24 ms the runs were made from (the report holds the lesson's one-token cache off:
# --chat-tokens 1 --read-cache --cache-per-chat).
"$binary" report --model 70b --gpu h100-sxm --link nvlink4 --counts 1 --usable 1 --gpu-gib 200 --chat-tokens 1 --read-cache \
  --cache-per-chat --efficiency-from "$tmp/runs.csv" --engine vllm > "$tmp/report"
check "report --efficiency-from prices 70B on one H100 at 88.24 ms" [ "$(awk '$1 == 1 { print $9 }' "$tmp/report")" = "88.24" ]
check "report says which figures it used, and why" has "$tmp/report" \
  "Achieved efficiency: vllm has 2 runs, fewer than the 6 that figures of its own need: any (every engine's runs pooled)"

"$binary" validate --runs "$tmp/runs.csv" --efficiency-from "$tmp/runs.csv" > "$tmp/validate"
check "validate --runs shows each run, peak, fitted and measured" \
  [ "$(awk '$1 == "r2" { print $8, $9, $11, $12 }' "$tmp/validate")" = "42.12 88.24 88.24 0.0%" ]
check "validate --runs gives medians by source" has "$tmp/validate" "median |error| by source"

# A label that leaves the form factor open (A100-80GB) is the SXM part, unless the run's
# interconnect says PCIe: then the PCIe card, at its own bandwidth (1,935 against 2,039 GB/s).
sed -e 's/^r1,\(.*\),H100-SXM5-80GB,\(.*\),vLLM 0.9,,x,/p1,\1,A100-80GB,\2,vLLM 0.9,PCIe (per README),x,/' \
  -e 's/^r2,\(.*\),H100-SXM5-80GB,\(.*\),vLLM 0.9,,x,/s1,\1,A100-80GB,\2,vLLM 0.9,,x,/' "$tmp/runs.csv" > "$tmp/forms.csv"
"$binary" validate --runs "$tmp/forms.csv" > "$tmp/forms"
check "a run over PCIe on an A100 of no stated form is the PCIe card; one that does not say so, the SXM part" \
  [ "$(awk '$1 == "p1" || $1 == "s1" { print $1, $3 }' "$tmp/forms" | tr '\n' ' ')" = "p1 a100-80gb-pcie s1 a100-80gb-sxm " ]

# The all-reduce start-up is fitted where a group's runs span GPU counts, and a step's fixed
# cost where its models differ in depth. Runs made from chosen figures (a share of 0.60,
# 30 us a layer, 500 us a step, 20 us an all-reduce above NCCL's constants) by pricing 8B
# (32 layers) and 70B (80) on 1, 2, 4 and 8 H100 NVLs under real rules with a one-token cache
# (a GPU with no measured all-reduce table, whose NCCL-priced all-reduces take the start-up);
# the fit must find the figures it was not given. One GPU has no all-reduce and the depths
# differ, so the three fixed costs are told apart.
for model in 8b 70b; do
  "$binary" report --assume real --model $model --gpu h100-nvl --gpu-gib 1000 --chat-tokens 1 --engine none --bw-share 0.6 \
    --layer-us 30 --per-step-us 500 --allreduce-us 20 --prompt-tokens none --counts 1,2,4,8 --json > "$tmp/made-$model.json"
done
python3 - "$tmp/made-8b.json" "$tmp/made-70b.json" > "$tmp/made.csv" <<'PY'
import json, sys
print("id,model,hf_repo,weight_bits,kv_bits,gpu,gpus,tp,pp,ep,batch,input_tokens,output_tokens,itl_ms,ttft_ms,software,interconnect,source,note")
repos = {"8b": "meta-llama/Llama-3.1-8B", "70b": "meta-llama/Llama-3.1-70B"}
for path, key in zip(sys.argv[1:], ("8b", "70b")):
    for row in json.load(open(path))["rows"]:
        n = row["gpus"]
        # each source holds both depths, one GPU and several, so either alone fits all three costs
        source = "S1" if (n in (1, 4)) == (key == "8b") else "S2"
        print(f"{key}-{n},{key},{repos[key]},16,,H100-NVL-94GB,{n},{n},1,,1,0,0,{row['time']['total'] * 1e3:.6f},,vLLM 0.9,,x,\"{source}; made\"")
PY
"$binary" fit --json --leave-source-out "$tmp/made.csv" > "$tmp/made-fit.json"
"$binary" fit --json "$tmp/made.csv" > "$tmp/made-fit-plain.json"
check "fit finds the all-reduce start-up and the step cost with the share and the layer cost" python3 -c "
import json, sys
f = [x for x in json.load(open(sys.argv[1]))['figures'] if x['engine'] == 'vllm' and x['generation'] == 'all'][0]
assert (f['bandwidth_share'], f['layer_us'], f['step_us'], f['allreduce_us'], f['allreduce_from'], f['runs'], f['pooled']) == (0.6, 30, 500, 20, 'runs', 8, False), f
" "$tmp/made-fit.json"
check "fit --json counts each generation's runs that take an all-reduce: the 6 made on 2, 4 and 8 H100 NVLs" python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['startup_runs']
assert runs == {'ampere': 0, 'ada': 0, 'hopper': 6, 'blackwell': 0, 'cdna3': 0}, runs
" "$tmp/made-fit-plain.json"
# Their one generation has no figures apart from every generation's (a group on one
# generation is fitted only beside others), and still has runs of its own that tell the
# start-up: each run is priced with it, to the rounding of its time.
"$binary" fit "$tmp/made.csv" > "$tmp/made-fit-table"
check "fit prices runs on one generation with the start-up fitted to them: 0.0% off each" \
  [ "$(awk '$1 ~ /^(8b|70b)-[1248]$/ && ($NF == "0.0%" || $NF == "-0.0%") { n++ } END { print n }' "$tmp/made-fit-table")" = 8 ]

# An engine of fewer than 6 runs has no figures of its own: two runs of another engine, made
# 30% slower, leave its figures and the median engine as they were (vllm's), and naming it
# prices with every engine's pooled figures, as naming none does; in validate too.
{ cat "$tmp/made.csv"; grep '^8b-[14],' "$tmp/made.csv" | awk -F, 'BEGIN { OFS = "," } { $1 = "slow-" $1; $14 = sprintf("%.6f", $14 * 1.3); $16 = "TensorRT-LLM 0.20"; print }'; } > "$tmp/thin.csv"
"$binary" fit --json "$tmp/thin.csv" > "$tmp/thin.json"
check "an engine of 2 runs is pooled and the median engine is one with figures of its own" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
by = {x['engine']: x for x in d['figures'] if x['generation'] == 'all'}
assert by['trt-llm']['pooled'] and by['trt-llm']['runs'] == 2 and not by['vllm']['pooled'], by
assert d['median_engine'] == 'vllm', d['median_engine']
assert by['trt-llm']['bandwidth_share'] == by['any']['bandwidth_share'] != by['vllm']['bandwidth_share'], by
" "$tmp/thin.json"
for engine in trt-llm any; do
  "$binary" report --assume real --model 8b --gpu h100-sxm --counts 1,2 --efficiency-from "$tmp/thin.csv" --engine $engine --json > "$tmp/thin-$engine.json"
done
check "--engine of 2 runs prices as every engine pooled" python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
said = a['efficiency'].pop('from')
assert said.startswith('trt-llm has 2 runs, fewer than the 6 that figures of its own need: any'), said
b['efficiency'].pop('from')
assert a['rows'] == b['rows'] and a['efficiency'] == b['efficiency'], (a['efficiency'], b['efficiency'])
" "$tmp/thin-trt-llm.json" "$tmp/thin-any.json"
"$binary" validate --runs "$tmp/thin.csv" --efficiency-from "$tmp/thin.csv" > "$tmp/thin-validate"
check "validate prices an engine of 2 runs with every engine's pooled figures where the engine is given" \
  [ "$(awk '$1 == "slow-8b-1" { print ($9 == $10) }' "$tmp/thin-validate")" = 1 ]
# Nor has an engine whose runs put the share at the grid's top, all of the bandwidth: six runs
# made at half the times above (faster than 0.6 of the bandwidth and the fixed costs allow)
# cannot tell the bandwidth from the fixed costs apart.
{ cat "$tmp/made.csv"; grep -v '^id,' "$tmp/made.csv" | head -n 6 | awk -F, 'BEGIN { OFS = "," } { $1 = "fast-" $1; $14 = sprintf("%.6f", $14 * 0.5); $16 = "TensorRT-LLM 0.20"; print }'; } > "$tmp/top.csv"
"$binary" fit --json "$tmp/top.csv" > "$tmp/top.json"
check "an engine whose runs put the share at 1 has no figures of its own" python3 -c "
import json, sys
by = {x['engine']: x for x in json.load(open(sys.argv[1]))['figures'] if x['generation'] == 'all'}
assert by['trt-llm']['pooled'] and by['trt-llm']['runs'] == 6 and not by['vllm']['pooled'], by
" "$tmp/top.json"
"$binary" report --assume real --model 8b --gpu h100-sxm --counts 1 --efficiency-from "$tmp/top.csv" --engine trt-llm > "$tmp/top-report"
check "and report says why it prices that engine with every engine's pooled figures" has "$tmp/top-report" \
  "Achieved efficiency: trt-llm's 6 runs do not tell its bandwidth from its fixed costs (they fit all of it): any (every engine's runs pooled)"
{ head -n 1 "$tmp/made.csv"; grep ',"S1; made"$' "$tmp/made.csv"; } > "$tmp/one-source.csv"
"$binary" fit --json --leave-source-out "$tmp/one-source.csv" > "$tmp/one-source.json"
check "fit --json --leave-source-out says how far off each engine is on the source it left out: nothing, on made runs; not on one source, nor without the flag" python3 -c "
import json, sys
made, one = (json.load(open(p)) for p in sys.argv[1:3])
errors = {(x['engine'], x['generation']): x['left_out_error'] for x in made['figures']}
assert errors[('vllm', 'all')] < 1e-4 and errors[('any', 'all')] < 1e-4, errors
assert one['figures'] and all(x['left_out_error'] is None for x in one['figures']), one['figures']
plain = json.load(open(sys.argv[3]))
assert all(x['left_out_error'] is None for x in plain['figures']), 'measured without --leave-source-out'
" "$tmp/made-fit.json" "$tmp/one-source.json" "$tmp/made-fit-plain.json"

# Left out a source at a time, each is priced with figures fitted on the other alone: runs
# made from one set of figures are predicted to the rounding of their times.
"$binary" validate --runs "$tmp/made.csv" --leave-source-out > "$tmp/left-out"
check "validate --leave-source-out prices each source with the other's fit: 0.0% off on made runs" \
  [ "$(awk '$1 == "S1" || $1 == "S2" || ($1 == "all" && $2 != "runs") { print $1, $4, $6 }' "$tmp/left-out" | tr '\n' ' ')" = "S1 0.0% 0.0% S2 0.0% 0.0% all 0.0% 0.0% " ]
# Sources are told apart by their whole name: two alike in their first 30 characters are
# still two, each left out in turn and priced 0.0% off by the other's fit
# (a note with no tag names its source by the source cell, here two addresses alike in
# their first 30 characters).
sed -e 's#,x,"S1; made"$#,https://example.org/benchmarks/run-one,"made"#' \
  -e 's#,x,"S2; made"$#,https://example.org/benchmarks/run-two,"made"#' "$tmp/made.csv" > "$tmp/long.csv"
"$binary" validate --runs "$tmp/long.csv" --leave-source-out > "$tmp/long-out"
check "validate --leave-source-out tells long source names apart by the whole name" \
  [ "$(grep -c '^https://example.org/benchmarks/run-\(one\|two\) .* 0\.0% (4) .* 0\.0% (4)' "$tmp/long-out")" = 2 ]
# A generation whose runs are all in the source left out has, in the fit of the others, no
# run that tells its all-reduce start-up: its runs are priced with NCCL's constants and
# nothing fitted added. A third source, S3, on A100 PCIe cards (ampere; no measured table,
# as the fit prices runs) made from the same figures but no start-up, is then priced 0.0%
# off by S1 and S2's fit, whose start-up of 20 us it does not inherit.
for model in 8b 70b; do
  "$binary" report --assume real --model $model --gpu a100-80gb-pcie --gpu-gib 1000 --chat-tokens 1 --engine none --bw-share 0.6 \
    --layer-us 30 --per-step-us 500 --allreduce-us 0 --prompt-tokens none --counts 2,4 --json > "$tmp/ampere-$model.json"
done
python3 - "$tmp/ampere-8b.json" "$tmp/ampere-70b.json" > "$tmp/ampere.csv" <<'PY'
import json, sys
repos = {"8b": "meta-llama/Llama-3.1-8B", "70b": "meta-llama/Llama-3.1-70B"}
for path, key in zip(sys.argv[1:], ("8b", "70b")):
    for row in json.load(open(path))["rows"]:
        n = row["gpus"]
        print(f"a{key}-{n},{key},{repos[key]},16,,A100-PCIe-80GB,{n},{n},1,,1,0,0,{row['time']['total'] * 1e3:.6f},,vLLM 0.9,,x,\"S3; made\"")
PY
cat "$tmp/made.csv" "$tmp/ampere.csv" > "$tmp/three.csv"
"$binary" validate --runs "$tmp/three.csv" --leave-source-out > "$tmp/three-out"
check "validate --leave-source-out prices a generation only the left-out source ran with no start-up fitted to the others" \
  [ "$(awk '$1 == "S3" { print $3, $4, $6 }' "$tmp/three-out")" = "(4) 0.0% 0.0%" ]
"$binary" validate --runs "$tmp/runs.csv" --leave-source-out --efficiency-from "$tmp/runs.csv" > /dev/null 2> "$tmp/err"
rc=$?
check "validate --leave-source-out refuses --efficiency-from, exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'leave out --efficiency-from' '$tmp/err'"

# A serving benchmark's first word waits for the prompts that arrive with it, as many whole
# ones as the engines' default token budget a step holds (8,192): at a concurrency of 10 of
# 200-token prompts, all 10, as a static batch of 10; at 50, the 40 that fit (8,192 / 200);
# at 8 of 20,000-token prompts, one, as a static batch of 1. A note saying "concurrency"
# marks the serving runs; the same settings as static batches price the expected waits
# (with figures fitted to the hand-worked runs above, which have no served request's cost).
cat > "$tmp/serving.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus,tp,pp,ep,batch,input_tokens,output_tokens,itl_ms,ttft_ms,software,interconnect,source,note
c10,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,10,200,1000,10,100,vLLM 0.9,,x,"S1; batch = concurrency"
s10,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,10,200,1000,10,100,vLLM 0.9,,x,"S1; a static batch"
c50,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,50,200,1000,10,100,vLLM 0.9,,x,"S1; batch = concurrency"
s40,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,40,200,1000,10,100,vLLM 0.9,,x,"S1; a static batch"
s50,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,50,200,1000,10,100,vLLM 0.9,,x,"S1; a static batch"
c8,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,8,20000,1000,10,100,vLLM 0.9,,x,"S1; batch = concurrency"
s1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,1,20000,1000,10,100,vLLM 0.9,,x,"S1; a static batch"
CSV
"$binary" validate --runs "$tmp/serving.csv" --efficiency-from "$tmp/runs.csv" > "$tmp/serving"
# the predicted first word of run $1 (its row ends "predicted / measured, error"), or a
# word no other run's could equal when the row is missing
first_word() { awk -v id="$1" '$1 == id { found = $(NF - 3) } END { print found ? found : "missing-" id }' "$tmp/serving"; }
check "a serving run's first word at a concurrency of 10 short prompts waits for all 10" \
  [ "$(first_word c10)" = "$(first_word s10)" ]
check "at a concurrency of 50 short prompts it waits for the 40 a step's budget holds" \
  sh -c "[ '$(first_word c50)' = '$(first_word s40)' ] && [ '$(first_word c50)' != '$(first_word s50)' ]"
check "at a concurrency of 8 prompts longer than the budget it waits for its own" \
  [ "$(first_word c8)" = "$(first_word s1)" ]

# A served request's fixed cost is fitted with the FLOP/s share from serving runs whose
# prefills differ in tokens: runs made by pricing 8B on one H100 at 0.6 of the bandwidth,
# 0.5 of the FLOP/s and 4,000 us a request, at prompts of 200 x 1, 200 x 10, 2,000 x 1,
# 1,000 x 4, 500 x 2, 4,000 x 2 and 3,000 x 2 tokens (a concurrency within the step's
# budget). The first of them is read, not computed: 200 tokens compute in 2.8 ms at the
# full 990 TFLOP/s, and the weights take 8.0 ms to read at 0.6 of 3.35 TB/s; the other six
# are computed, the fewest a FLOP/s share is fitted on. The fit must find 0.50 and 4,000 us. The same runs as static batches pay no request cost, and are priced so.
for pw in 200:1 200:10 2000:1 1000:4 500:2 4000:2 3000:2; do
  prompt=${pw%%:*} chats=${pw##*:}
  "$binary" report --assume real --model 8b --gpu h100-sxm --counts 1 --engine none --bw-share 0.6 --flops-share 0.5 \
    --request-us 4000 --prompt-tokens "$prompt" --words "$chats" --chat-tokens "$prompt" --json > "$tmp/served-$prompt-$chats.json"
done
python3 - "$tmp" > "$tmp/served.csv" <<'PY'
import json, sys
print("id,model,hf_repo,weight_bits,kv_bits,gpu,gpus,tp,pp,ep,batch,input_tokens,output_tokens,itl_ms,ttft_ms,software,interconnect,source,note")
for prompt, chats in ((200, 1), (200, 10), (2000, 1), (1000, 4), (500, 2), (4000, 2), (3000, 2)):
    row = json.load(open(f"{sys.argv[1]}/served-{prompt}-{chats}.json"))["rows"][0]
    itl, ttft = row["time"]["total"] * 1e3, row["time"]["first_word"] * 1e3
    print(f"q{prompt}x{chats},8b,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,{chats},{prompt},0,{itl:.6f},{ttft:.6f},vLLM 0.9,,x,\"S1; made; batch = concurrency\"")
PY
"$binary" fit --json "$tmp/served.csv" > "$tmp/served-fit.json"
check "fit finds a served request's fixed cost with the FLOP/s share" python3 -c "
import json, sys
f = [x for x in json.load(open(sys.argv[1]))['figures'] if x['engine'] == 'vllm' and x['generation'] == 'all'][0]
assert (f['bandwidth_share'], f['flops_share'], f['request_us'], f['ttft_runs'], f['pooled']) == (0.6, 0.5, 4000, 7, False), f
" "$tmp/served-fit.json"
# A first word that is read, not computed, says nothing of the FLOP/s share: three static
# batches of 400 prompt tokens in all (16 x 25, 20 x 20, 10 x 40; 5.7 ms of computing at the
# full FLOP/s against 8.0 ms of reading) measured at 19 ms, what computing them would take at
# 0.3 of the FLOP/s, leave the share and the request cost as they were; fitted to, they
# would pull the share down (their times a word made as the others were).
for pw in 25:16 20:20 40:10; do
  prompt=${pw%%:*} chats=${pw##*:}
  "$binary" report --assume real --model 8b --gpu h100-sxm --counts 1 --engine none --bw-share 0.6 --flops-share 0.5 \
    --prompt-tokens "$prompt" --words "$chats" --chat-tokens "$prompt" --json > "$tmp/read-$prompt-$chats.json"
done
python3 - "$tmp" > "$tmp/served-read.csv" <<'PY'
import json, sys
print(open(f"{sys.argv[1]}/served.csv").read(), end="")
for prompt, chats in ((25, 16), (20, 20), (40, 10)):
    row = json.load(open(f"{sys.argv[1]}/read-{prompt}-{chats}.json"))["rows"][0]
    print(f"r{prompt}x{chats},8b,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,{chats},{prompt},0,{row['time']['total'] * 1e3:.6f},19,vLLM 0.9,,x,\"S1; made; a static batch\"")
PY
"$binary" fit --json "$tmp/served-read.csv" > "$tmp/served-read.json"
check "first words bound by reading do not move the FLOP/s share" python3 -c "
import json, sys
f = [x for x in json.load(open(sys.argv[1]))['figures'] if x['engine'] == 'vllm' and x['generation'] == 'all'][0]
assert (f['flops_share'], f['request_us'], f['ttft_runs']) == (0.5, 4000, 10), f
" "$tmp/served-read.json"
grep -v '^q3000x2,' "$tmp/served.csv" > "$tmp/served-five.csv"
"$binary" fit --json "$tmp/served-five.csv" > "$tmp/served-five.json"
check "five computed first words (and one read) fit no FLOP/s share: the group takes its fallback's (the peaks' none, pooled)" python3 -c "
import json, sys
f = [x for x in json.load(open(sys.argv[1]))['figures'] if x['engine'] == 'any' and x['generation'] == 'all'][0]
assert (f['bandwidth_share'], f['flops_share'], f['request_us'], f['ttft_runs']) == (0.6, 0, 0, 6), f
assert f['ttft_median_error'] is None, 'a median over no first words priced: ' + repr(f['ttft_median_error'])
" "$tmp/served-five.json"
"$binary" fit "$tmp/served-five.csv" > "$tmp/served-five"
check "and the table shows no first-word error for it, not 0.0%" \
  [ "$(awk '$1 == "any" && $2 == "all" { print $(NF - 1) }' "$tmp/served-five")" = "-" ]
sed -e 's/; batch = concurrency"$/"/' "$tmp/served.csv" > "$tmp/static.csv"
"$binary" validate --runs "$tmp/static.csv" --efficiency-from "$tmp/served.csv" > "$tmp/static"
check "a static batch's first word pays no request cost: 4.00 ms under a serving run's" \
  [ "$(awk '$1 == "q200x1" { sub(/,$/, "", $(NF - 1)); printf "%.2f", $(NF - 1) - $(NF - 3) }' "$tmp/static")" = "4.00" ]

# Issue 28: hostile runs files. The hand-worked run r1 (above) under other ids and sources.
base_row='Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,1,1,1,,1,0,0,11.188450,,vLLM 0.9,,'
runs_head=$(head -n 1 "$tmp/runs.csv")
esc=$(printf '\033')
rlo=$(printf '\342\200\256') # U+202E, right-to-left override
# Ids with a quote and a backslash, a 0x01 byte, a terminal escape and a bidi override; eight
# ids alike in their first 15 bytes; a source cell with a terminal escape (no tag in the note).
{
  echo "$runs_head"
  printf '"q""1\\",%sx,"S1; quote"\n' "$base_row"
  printf 'c\001d,%sx,"S1; a control byte"\n' "$base_row"
  printf 'e%s[31mred,%sx,"S1; an escape"\n' "$esc" "$base_row"
  printf 'b%sdi,%sx,"S1; bidi"\n' "$rlo" "$base_row"
  for k in 1 2 3 4 5 6 7 8; do printf 'same-first-15-b-%s,%sx,"S2; long id"\n' "$k" "$base_row"; done
  printf 'src,%shttps://x.org/%s]0;title%s,no tag\n' "$base_row" "$esc" "$(printf '\007')"
  printf 'skip-me-0123456789-%s,%sx,"S2; skipped"\n' "$esc" "$(echo "$base_row" | sed 's/H100-SXM5-80GB/TPU v5e/')"
} > "$tmp/hostile.csv"
"$binary" fit --json "$tmp/hostile.csv" > "$tmp/hostile.json"
check "fit --json escapes run ids: valid JSON whose ids read back whole" python3 -c "
import json, sys
raw = open(sys.argv[1], 'rb').read()
assert not any(b < 0x20 for b in raw.rstrip(b'\n')), 'a raw control byte'
d = json.loads(raw)
f = [x for x in d['figures'] if x['engine'] == 'any' and x['generation'] == 'all'][0]
ids = f['ids'].split(',')
assert ids[:4] == ['q\"1\\\\', 'c\x01d', 'e\x1b[31mred', 'b\u202edi'], ids[:4]
assert ids[4:12] == ['same-first-15-b-%d' % k for k in range(1, 9)], ids[4:12]
assert set(f) == set(d['figures'][1]), 'an id added a key'
assert d['skipped'][0]['id'] == 'skip-me-0123456789-\x1b', d['skipped']
" "$tmp/hostile.json"
for command in "fit" "validate --runs" "validate --leave-source-out --runs"; do
  # shellcheck disable=SC2086
  "$binary" $command "$tmp/hostile.csv" > "$tmp/hostile.out" 2>&1
  check "$command prints no terminal escape or bidi control raw, and says them escaped" \
    sh -c "! grep -q '$esc' '$tmp/hostile.out' && ! grep -q '$rlo' '$tmp/hostile.out' && ! grep -q \"\$(printf '\\001')\" '$tmp/hostile.out'"
done
"$binary" fit "$tmp/hostile.csv" > "$tmp/hostile.out"
check "fit prints the escaped id, source and skipped id" \
  sh -c "grep -q '^e\\\\x1b\\[31mred ' '$tmp/hostile.out' && grep -q '^b\\\\u202edi ' '$tmp/hostile.out' &&
    grep -qF 'https://x.org/\\x1b]0;title\\x07' '$tmp/hostile.out' && grep -qF '  skip-me-0123456789-\\x1b: GPU' '$tmp/hostile.out'"
check "fit prints eight ids alike in their first 15 bytes as eight" \
  [ "$(grep -c '^same-first-15-b-[1-8] ' "$tmp/hostile.out")" = 8 ]
esc_dir="$tmp/runs$esc[2J"
mkdir -p "$esc_dir"
cp "$tmp/hostile.csv" "$esc_dir/r.csv"
"$binary" validate --runs "$esc_dir/r.csv" > "$tmp/hostile.out"
check "validate --runs escapes the file's path" sh -c "grep -qF 'runs\\x1b[2J/r.csv' '$tmp/hostile.out' && ! grep -q '$esc' '$tmp/hostile.out'"

# A catalogue key of 17 characters prints whole in validate's table (it was cut to 16).
{ echo "$runs_head"; echo "$base_row" | sed 's/^[^,]*,[^,]*,/q1,Qwen1.5-MoE,Qwen\/Qwen1.5-MoE-A2.7B,/; s/$/x,S1/'; } > "$tmp/key.csv"
"$binary" validate --runs "$tmp/key.csv" > "$tmp/key"
check "validate prints a 17-character model key whole" [ "$(awk '$1 == "q1" { print $2 }' "$tmp/key")" = qwen1.5-moe-a2.7b ]

# validate's medians by source show every source: 70 here, each a tag of its own.
{ echo "$runs_head"; k=1; while [ $k -le 70 ]; do printf 'r%s,%sx,"S%s; one of 70"\n' $k "$base_row" $k; k=$((k + 1)); done; } > "$tmp/seventy.csv"
"$binary" validate --runs "$tmp/seventy.csv" > "$tmp/seventy"
check "validate shows all 70 sources in its medians by source" \
  [ "$(sed -n '/^median |error| by source/,/^$/p' "$tmp/seventy" | grep -c '^S[0-9]* ')" = 70 ]
"$binary" fit --json "$tmp/seventy.csv" > "$tmp/seventy.json"
check "a group's sources list names each source whole, then how many more" python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))['figures'][0]
names, _, more = f['sources'].partition(' and ')
names = names.split(',')
assert names == ['S%d' % k for k in range(1, len(names) + 1)], names
assert more == '%d more' % (70 - len(names)), (more, len(names))
" "$tmp/seventy.json"

# Every group a fit can make is made: ten engines (nine named and "other") on five GPU
# generations, six runs each, priced at 0.7 of the bandwidth (their peak times from validate,
# over 0.7), give every engine pooled and each engine, over all generations and on each:
# 11 x 6 = 66 groups, each with figures of its own (the room for 64 once left out two).
engines='vLLM TensorRT-LLM SGLang llama.cpp LMDeploy gpt-fast MLC ExLlama FasterTransformer Tabby'
gpus='A100-SXM4-80GB L40S H100-SXM5-80GB B200 MI300X'
{
  echo "$runs_head"
  e=0
  for engine in $engines; do
    e=$((e + 1))
    for gpu in $gpus; do
      for batch in 1 2 4 8 16 32; do
        echo "$e-$gpu-$batch,8B,meta-llama/Llama-3.1-8B,16,,$gpu,1,1,1,,$batch,0,0,10,,$engine 1.0,,x,S$e"
      done
    done
  done
} > "$tmp/groups-first.csv"
"$binary" validate --runs "$tmp/groups-first.csv" > "$tmp/groups-peaks"
awk -F, 'NR == FNR { if (NF == 1) next; split($0, f, " "); peak[f[1]] = f[8]; next }
  FNR == 1 { print; next } { OFS = ","; $14 = sprintf("%.6f", peak[$1] / 0.7); print }' FS=' ' "$tmp/groups-peaks" FS=, "$tmp/groups-first.csv" > "$tmp/groups.csv"
"$binary" fit --json "$tmp/groups.csv" > "$tmp/groups.json"
check "fit makes all 66 groups of ten engines on five generations" python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))['figures']
groups = {(x['engine'], x['generation']) for x in f}
assert len(f) == 66 and len(groups) == 66, (len(f), len(groups))
assert ('other', 'cdna3') in groups and ('other', 'blackwell') in groups, sorted(groups)
assert all(not x['pooled'] and x['bandwidth_share'] < 1 for x in f), [(x['engine'], x['generation']) for x in f if x['pooled'] or x['bandwidth_share'] >= 1]
" "$tmp/groups.json"

# --leave-source-out: at most 32 sources, refused before any fit past it (bad_input.sh), and
# taken at 32.
head -n 33 "$tmp/seventy.csv" > "$tmp/thirty-two.csv"
"$binary" validate --runs "$tmp/thirty-two.csv" --leave-source-out > "$tmp/thirty-two" 2>&1
check "validate --leave-source-out takes 32 sources" sh -c "[ $? -eq 0 ] && grep -q '^S32 ' '$tmp/thirty-two'"

# A 17-digit time is read as the double it names, not refused.
sed 's/,11.188450,/,11.188450000000001,/' "$tmp/runs.csv" > "$tmp/digits.csv"
"$binary" fit "$tmp/digits.csv" > "$tmp/digits" 2>&1
check "fit reads a time of 17 digits" sh -c "[ $? -eq 0 ] && grep -q '^r1 .* 11.19 ' '$tmp/digits'"

# --allreduce: a folder whose path passes 1,023 bytes is read whole, and named whole.
deep=$tmp
for k in 1 2 3 4 5 6 7 8 9 10 11; do deep=$deep/$(printf "%0100d" $k); done
mkdir -p "$deep"
cp tests/measured/*_nccl.csv "$deep/"
"$binary" fit --allreduce "$deep" "$tmp/runs.csv" > "$tmp/deep" 2>&1
check "fit --allreduce reads a folder of over 1,023 bytes" \
  sh -c "[ $? -eq 0 ] && [ ${#deep} -gt 1023 ] && grep -qF '($deep, 8 to 64 KiB' '$tmp/deep' && grep -q '^  hopper ' '$tmp/deep'"

# Pairs of layouts ordered as measured (validate --serving): two held-out rows of one model,
# GPU and load in two layouts (P15's 1 and 16 replicas of TP4). Their priced figures do not
# depend on the measured throughput, so flipping which measures more a GPU must flip the
# verdict: one file's pair is ordered, the other's not.
head -1 tests/measured/serving-runs.csv > "$tmp/pairs_a.csv"
grep -E '^s12[34],' tests/measured/serving-runs.csv >> "$tmp/pairs_a.csv"
sed 's/^\(s123,\([^,]*,\)\{17\}\)87\.6,/\11000,/' "$tmp/pairs_a.csv" > "$tmp/pairs_b.csv"
check "the flipped file differs in s123's throughput only" [ "$(diff "$tmp/pairs_a.csv" "$tmp/pairs_b.csv" | grep -c '^[<>]')" -eq 2 ]
"$binary" validate --serving "$tmp/pairs_a.csv" > "$tmp/pairs_a" 2>&1
"$binary" validate --serving "$tmp/pairs_b.csv" > "$tmp/pairs_b" 2>&1
sed 's/^\(s123,\([^,]*,\)\{17\}\)87\.6,/\110,/' "$tmp/pairs_a.csv" > "$tmp/pairs_c.csv"
"$binary" validate --serving "$tmp/pairs_c.csv" > "$tmp/pairs_c" 2>&1
ordered_of() { sed -n '/^tokens a second/s/.*held-out sources \([0-9]*\) of 1 .*/\1/p' "$1"; }
check "one pair each time, ordered as measured in exactly one of the two files" \
  [ "$(ordered_of "$tmp/pairs_a")$(ordered_of "$tmp/pairs_b")" = "01" -o "$(ordered_of "$tmp/pairs_a")$(ordered_of "$tmp/pairs_b")" = "10" ]
# The group's choice: the row priced best a GPU, within 5% of the measured best. In b s123
# measures 250 a GPU, in c 2.5, against s124's 22.2: whichever row is priced best, it is
# the measured best in exactly one of the two.
chosen_of() { sed -n '/^sources/s/.*held-out sources \([0-9]*\) of 1 .*/\1/p' "$1"; }
check "one group each time, its priced best within 5% of its measured best in exactly one of two files" \
  [ "$(chosen_of "$tmp/pairs_b")$(chosen_of "$tmp/pairs_c")" = "01" -o "$(chosen_of "$tmp/pairs_b")$(chosen_of "$tmp/pairs_c")" = "10" ]

# A gathered row whose note reads "PD-DISAGGREGATED: P prefill + D decode" with "--tp-size N"
# (serving-gathered-README.md, G8) is priced as P prefill and D decode copies of N GPUs,
# whatever the tp cell holds empty; its software names SGLang first (its client after it),
# so SGLang's engine prices it. A note that does not read so is refused by line.
cat > "$tmp/pd.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
d1,gpt-oss-120b,openai/gpt-oss-120b,4,,H200-SXM-141GB,8,1,,,,,,,,32,1024,256,2000,250,10,300,"SGLang (PD); client vllm bench serve",2025,x,"G8; PD-DISAGGREGATED: 1 prefill + 3 decode SGLang workers, each --tp-size 2 (hand-made)"
CSV
"$binary" validate --serving "$tmp/pd.csv" > "$tmp/pd" 2>&1
check "a PD-DISAGGREGATED row is priced as 1 prefill and 3 decode copies of 2 GPUs, by SGLang" \
  sh -c "grep -q '^d1 .* sglang .*tp2 1p3d closed ' '$tmp/pd'"
sed 's/1 prefill + 3 decode/1 prefill and 3 decode/' "$tmp/pd.csv" > "$tmp/pd_bad.csv"
"$binary" validate --serving "$tmp/pd_bad.csv" > "$tmp/pd_bad" 2>&1
check "a PD-DISAGGREGATED note that does not read P prefill + D decode is refused, by line, exit 2" \
  sh -c "[ $? -eq 2 ] && grep -q 'note: line 2: PD-DISAGGREGATED: must read' '$tmp/pd_bad'"

# A row's kv_bits is its cache's bits (--cache-bits): 70B on one H200 at 8-bit weights, its
# 3,000 requests of 1,000 + 1,000 tokens sent at once fill the cache pool, so a cache of
# 8 bits, twice the requests in the pool, completes more tokens a second than one of 16.
cat > "$tmp/kv.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
k16,Llama-3.1-70B,meta-llama/Llama-3.1-70B,8,,H200-SXM-141GB,1,1,,,1,1,,1,,,1000,1000,2800,2800,,,TensorRT-LLM,2025,x,"G2; hand-made"
k8,Llama-3.1-70B,meta-llama/Llama-3.1-70B,8,8,H200-SXM-141GB,1,1,,,1,1,,1,,,1000,1000,2800,2800,,,TensorRT-LLM,2025,x,"G2; hand-made"
CSV
"$binary" validate --serving "$tmp/kv.csv" > "$tmp/kv" 2>&1
kv_priced() { awk -v id="$1" '$1 == id { sub(/.* at once +/, ""); print $2 }' "$tmp/kv"; }
check "a row with kv_bits 8 is priced with an 8-bit cache: more tokens a second than the same row at 16" \
  awk -v a="$(kv_priced k8)" -v b="$(kv_priced k16)" 'BEGIN { exit !(a + 0 > 1.2 * (b + 0) && b + 0 > 0) }'

# A row's 4 bits on gpt-oss are its checkpoint's own MXFP4 experts (serve_rows.c): priced as
# stored, as the same row without weight bits is, not as every weight at 4 bits multiplied at
# GB200's FP4 peak, which prices it faster.
cat > "$tmp/mx.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
x4,gpt-oss-20b,openai/gpt-oss-20b,4,8,GB200 (NVL72),1,1,,,1,1,,1,,,1000,1000,50000,50000,,,TensorRT-LLM,2025,x,"G3; hand-made"
xs,gpt-oss-20b,openai/gpt-oss-20b,,8,GB200 (NVL72),1,1,,,1,1,,1,,,1000,1000,50000,50000,,,TensorRT-LLM,2025,x,"G3; hand-made"
x16,gpt-oss-20b,openai/gpt-oss-20b,16,8,GB200 (NVL72),1,1,,,1,1,,1,,,1000,1000,50000,50000,,,TensorRT-LLM,2025,x,"G3; hand-made"
CSV
"$binary" validate --serving "$tmp/mx.csv" > "$tmp/mx" 2>&1
mx_priced() { awk -v id="$1" '$1 == id { sub(/.* at once +/, ""); print $2 }' "$tmp/mx"; }
check "a gpt-oss row at 4 bits is priced as its checkpoint stores it: as the row without bits, not as every weight at 16" \
  awk -v a="$(mx_priced x4)" -v b="$(mx_priced xs)" -v c="$(mx_priced x16)" 'BEGIN { exit !(a == b && a + 0 > 0 && a != c) }'

# --more's rows are read after the first file's: a row of a gathered fit source (F5) there is
# fitted, one of a held-out source (G1) is not, and both are priced (serving-fit-gathered-README.md).
cat > "$tmp/more.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
mf,Llama-3.1-70B,meta-llama/Llama-3.1-70B,16,,A100-SXM4-80GB,8,1,,,8,1,,1,,16,500,500,500,62.5,26,265,SGLang 0.5.6,2025,x,"F5; hand-made"
mg,Llama-3.1-70B,meta-llama/Llama-3.1-70B,16,,A100-SXM4-80GB,8,1,,,8,1,,1,,16,500,500,500,62.5,26,265,SGLang 0.5.6,2025,x,"G1; hand-made"
CSV
"$binary" validate --serving tests/measured/serving-runs.csv --more "$tmp/more.csv" > "$tmp/more" 2>&1
check "validate --serving A --more B prices B's rows after A's, an F source's fitted and a G source's held out" \
  sh -c "grep -q '^s013 .*(fitted)' '$tmp/more' && grep -q '^mf .*(fitted)\$' '$tmp/more' && grep -q '^mg ' '$tmp/more' && ! grep -q '^mg .*(fitted)' '$tmp/more'"

# DeepSeek-R1's config is DeepSeek-V3's (serve_rows.c cites both files): an R1 row is priced
# as the catalogue's deepseek-v3, and a repository the catalogue lacks is still refused.
cat > "$tmp/r1.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
r1,DeepSeek-R1,deepseek-ai/DeepSeek-R1,8,,H200-SXM-141GB,8,1,,,8,1,,1,,16,1000,100,300,37.5,,,vLLM,2025,x,"G6; hand-made"
r2,DeepSeek-R2,deepseek-ai/DeepSeek-R2,8,,H200-SXM-141GB,8,1,,,8,1,,1,,16,1000,100,300,37.5,,,vLLM,2025,x,"G6; hand-made"
CSV
"$binary" validate --serving "$tmp/r1.csv" > "$tmp/r1" 2>&1
check "a DeepSeek-R1 row is priced as deepseek-v3; an unknown repository is refused by name" \
  sh -c "grep -q '^r1 .* deepseek-v3 ' '$tmp/r1' && grep -q 'r2 (G6): model not in the catalogue' '$tmp/r1'"

# Experts over fewer ranks than GPUs (serve --expert-ranks): TensorRT-LLM's tp 8 with ep 4 is
# priced as tp8ep4; SGLang's attention data parallel without ep as dp8ep1 (every expert cut
# over all 8); an ep that does not divide tp is refused by name.
cat > "$tmp/ranks.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
e1,DeepSeek-R1,deepseek-ai/DeepSeek-R1,8,,H200-SXM-141GB,8,1,,,8,1,4,1,,16,1000,100,300,37.5,,,TensorRT-LLM (PyTorch),2025,x,"G6; hand-made"
e2,DeepSeek-R1,deepseek-ai/DeepSeek-R1,8,,H200-SXM-141GB,8,1,,,8,1,,1,8,16,1000,100,300,37.5,,,SGLang,2025,x,"G6; hand-made"
e3,DeepSeek-R1,deepseek-ai/DeepSeek-R1,8,,H200-SXM-141GB,8,1,,,8,1,3,1,,16,1000,100,300,37.5,,,SGLang,2025,x,"G6; hand-made"
CSV
"$binary" validate --serving "$tmp/ranks.csv" > "$tmp/ranks" 2>&1
check "tp 8 with ep 4 is priced as tp8ep4, attn_dp 8 without ep as dp8ep1; ep 3 beside tp 8 is refused" \
  sh -c "grep -q '^e1 .* tp8ep4 x1 closed ' '$tmp/ranks' && grep -q '^e2 .* dp8ep1 x1 closed ' '$tmp/ranks' &&
         grep -q 'e3 (G6): ep not dividing tp beside sliced attention' '$tmp/ranks'"

# A closed loop whose 1,000 requests would pass serve's bound of 4,194,304 steps takes as many
# as the bound holds: 32 in flight of 4,500 output tokens, 4,194,304 / 4,501 = 931 requests,
# priced; with 4,000 in flight it would need 8,000, over the bound, and is refused by it.
cat > "$tmp/long.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
l1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,32,100,4500,1000,1000,,,vLLM,2026,x,"G9; hand-made"
l2,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,4000,100,4500,1000,1000,,,vLLM,2026,x,"G9; hand-made"
CSV
"$binary" validate --serving "$tmp/long.csv" > "$tmp/long" 2>&1
check "a long closed loop is cut to the step bound and priced; one whose in-flight needs more is refused" \
  sh -c "grep -q '^l1 .* closed  *1000 ' '$tmp/long' && grep -q 'l2 (G9): refused: requests' '$tmp/long'"

# The requests a note says were sent are the load's ("500 requests", "499 of 500 prompts":
# 500 sent); a note that says none, hedges ("3000 or 1500 requests") or says two counts that
# differ keeps 1,000. All sent at once, the mean first token is the queue's mean wait, so it
# grows with the requests: 500 < 1,000 < 2,000, and the three notes without a count price alike.
cat > "$tmp/count.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
n1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; 500 requests (hand-made)"
n2,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; 499 of 500 prompts (hand-made)"
n3,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; no count (hand-made)"
n4,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; 3000 or 1500 requests (hand-made)"
n5,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; 500 requests, then 700 requests (hand-made)"
n6,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; 2,000 prompts (hand-made)"
CSV
"$binary" validate --serving "$tmp/count.csv" > "$tmp/count" 2>&1
first_of() { awk -v id="$1" '$1 == id { v = $(NF - 1); gsub(/,/, "", v); print v }' "$tmp/count"; }
check "the requests a note states are sent: 500 < none (1,000) < 2,000 in the first token; hedged or differing counts keep 1,000" \
  awk -v a="$(first_of n1)" -v b="$(first_of n2)" -v c="$(first_of n3)" -v d="$(first_of n4)" -v e="$(first_of n5)" \
      -v f="$(first_of n6)" 'BEGIN { exit !(a + 0 > 0 && a == b && a + 0 < c + 0 && c == d && c == e && c + 0 < f + 0) }'

# The engine's limits a note gives are the engine's: a closed loop of 32 on a vLLM capped at
# 4 sequences a step runs 4 at a time, so each token comes sooner and the first token later
# than with vLLM's own cap; a note that says "default", or two caps that differ, keeps it.
cat > "$tmp/limits.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
k1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,32,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; max-num-seqs 4 (hand-made)"
k2,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,32,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; no limits (hand-made)"
k3,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,32,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; max-num-seqs default (hand-made)"
k4,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,32,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; max-num-seqs 4, --max-num-seqs=8 (hand-made)"
k5,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,32,512,128,1000,1000,10,1000,vLLM,2026,x,"G9; --max_batch_size=4 (hand-made)"
CSV
"$binary" validate --serving "$tmp/limits.csv" > "$tmp/limits" 2>&1
cell_of() { awk -v id="$1" -v k="$2" '$1 == id { v = $(NF - k); gsub(/,/, "", v); print v }' "$tmp/limits"; }
check "a note's max-num-seqs 4 caps the step: shorter tokens, later first tokens; default or differing caps keep vLLM's" \
  awk -v t1="$(cell_of k1 4)" -v t2="$(cell_of k2 4)" -v f1="$(cell_of k1 1)" -v f2="$(cell_of k2 1)" \
      -v t3="$(cell_of k3 4)" -v t4="$(cell_of k4 4)" -v t5="$(cell_of k5 4)" \
      'BEGIN { exit !(t1 + 0 > 0 && t1 + 0 < t2 + 0 && f1 + 0 > f2 + 0 && t3 == t2 && t4 == t2 && t5 == t1) }'

# A benchmark that drives the engine in its own process (the note's IN-PROCESS) has no server
# and so no front end: one request alone, priced with data/serving.json's vLLM (pooled) front
# end and without it, has its first token later by exactly that front end, and the same
# first token as serve's with --request-us 0.
cat > "$tmp/inproc.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
n1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,1,512,128,100,100,10,100,vLLM,2026,x,"G9; 1 requests (hand-made)"
n2,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,1,512,128,100,100,10,100,vLLM,2026,x,"G9; IN-PROCESS; 1 requests (hand-made)"
CSV
"$binary" validate --serving "$tmp/inproc.csv" > "$tmp/inproc" 2>&1
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --engine vllm --concurrency 1 --requests 1 --prompt-tokens 512 --output-tokens 128 --request-us 0 --json > "$tmp/inproc0.json"
check "an IN-PROCESS row's first token is its front end earlier, as serve's with --request-us 0" python3 -c "
import json, sys
front = [f['request_us'] for f in json.load(open('data/serving.json'))['figures'] if f['engine'] == 'any'][0] / 1e3
cells = {l.split()[0]: l.split() for l in open(sys.argv[1]) if l[:2] in ('n1', 'n2')}
t1, t2 = float(cells['n1'][-2].replace(',', '')), float(cells['n2'][-2].replace(',', ''))
serve0 = json.load(open(sys.argv[2]))['ttft_ms']['mean']
assert front > 0 and abs(t1 - t2 - front) < 0.15 and abs(t2 - serve0) < 0.06, (front, t1, t2, serve0)
" "$tmp/inproc" "$tmp/inproc0.json"

# A TensorRT-LLM row of an NVIDIA ModelOpt checkpoint that stores an FP8 cache, its kv_bits
# blank, is priced with that cache (TensorRT-LLM's default dtype "auto" takes the checkpoint's;
# serve_rows.c MODELOPT_CACHE): as the same row stating 8 bits, not as it stating 16 (on one
# RTX PRO 6000 the 70B's pool holds the batch, so the bits show). A checkpoint that stores none
# (Llama 3.3 70B FP8) and another engine (vLLM's auto is the model's dtype) keep 16 bits.
cat > "$tmp/modelopt.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
k1,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP4,4,,RTX-PRO-6000-Blackwell-Server,1,1,,,1,1,,1,,,1000,1000,1000,1000,,,"TensorRT-LLM (trtllm-bench, PyTorch backend)",2026,x,"G9; hand-made"
k2,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP4,4,8,RTX-PRO-6000-Blackwell-Server,1,1,,,1,1,,1,,,1000,1000,1000,1000,,,"TensorRT-LLM (trtllm-bench, PyTorch backend)",2026,x,"G9; hand-made"
k3,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP4,4,16,RTX-PRO-6000-Blackwell-Server,1,1,,,1,1,,1,,,1000,1000,1000,1000,,,"TensorRT-LLM (trtllm-bench, PyTorch backend)",2026,x,"G9; hand-made"
k4,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP4,4,,RTX-PRO-6000-Blackwell-Server,1,1,,,1,1,,1,,,1000,1000,1000,1000,,,vLLM,2026,x,"G9; hand-made"
k5,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP4,4,16,RTX-PRO-6000-Blackwell-Server,1,1,,,1,1,,1,,,1000,1000,1000,1000,,,vLLM,2026,x,"G9; hand-made"
k6,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP8,8,,H200-SXM-141GB,8,1,,,1,1,,1,,,1000,1000,1000,1000,,,"TensorRT-LLM (trtllm-bench, PyTorch backend)",2026,x,"G9; hand-made"
k7,Llama-3.3-70B-Instruct,nvidia/Llama-3.3-70B-Instruct-FP8,8,16,H200-SXM-141GB,8,1,,,1,1,,1,,,1000,1000,1000,1000,,,"TensorRT-LLM (trtllm-bench, PyTorch backend)",2026,x,"G9; hand-made"
CSV
"$binary" validate --serving "$tmp/modelopt.csv" > "$tmp/modelopt" 2>&1
check "a ModelOpt checkpoint's FP8 cache under TensorRT-LLM's auto: priced as 8 bits stated, not 16; none for FP8's checkpoint or vLLM" python3 -c "
import sys
p = {l.split()[0]: l.split('at once')[1].split()[1] for l in open(sys.argv[1]) if l[:1] == 'k' and 'at once' in l}
assert len(p) == 7, p
assert p['k1'] == p['k2'] and p['k1'] != p['k3'], p
assert p['k4'] == p['k5'] and p['k6'] == p['k7'], p
" "$tmp/modelopt"

# TP with PP on one server (P2's s075, TP2 x PP4 on 8 RTX PRO 6000): four groups of two slices,
# priced, and kept out of the fit (data/serving.json holds 93 runs: serving-runs.csv's 40
# without it, and the 53 of serving-fit-gathered.csv that the fit takes).
"$binary" validate --serving tests/measured/serving-runs.csv > "$tmp/tppp" 2>&1
check "TP2 x PP4 on one server is priced as four groups of two slices, and the fit keeps its 93 runs" \
  sh -c "grep -q '^s075 .* tp2pp4 x1 at once ' '$tmp/tppp' && grep -q 'fitted to 93 measured serving runs' data/serving.json"

# Rows at different arrival rates are different loads: with s123 measured at 5 requests a
# second (its note's rate_qps=5) and s124 all at once, the file holds no pair and no group.
sed 's/^\(s123,.*\)"P15; /\1"P15; rate_qps=5; /' "$tmp/pairs_a.csv" > "$tmp/pairs_d.csv"
check "the rated file differs in s123's note only" [ "$(diff "$tmp/pairs_a.csv" "$tmp/pairs_d.csv" | grep -c '^[<>]')" -eq 2 ]
"$binary" validate --serving "$tmp/pairs_d.csv" > "$tmp/pairs_d" 2>&1
check "no pair and no group across two arrival rates" \
  sh -c "grep -q '^tokens a second a GPU: fitted sources none, held-out sources none' '$tmp/pairs_d' && grep -q '^sources none, held-out sources none' '$tmp/pairs_d'"

# A gathered row measured at a request rate (serving-gathered-README.md: the note's
# rate_qps=R) is an open loop at R: 8B on one H100, 2 requests a second of 128 output
# tokens, completes about 2 x 128 = 256 tokens a second however fast the GPU (1,000 Poisson
# arrivals: the span of their times is 500 s give or take 3%); the same row without its
# rate is every request at once, far above it. A row with a first token but no throughput
# is priced for what it gives; one with no figure is not priced, and says why.
cat > "$tmp/rate.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
q1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,256,256,,,vLLM,2026,x,"G9; rate_qps=2 (hand-made)"
q2,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,256,256,,,vLLM,2026,x,"G9; sent at once (hand-made)"
q3,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,,,,50,vLLM,2026,x,"G9; rate_qps=2, a first token only"
q4,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,,512,128,,,,,vLLM,2026,x,"G9; no figure"
CSV
"$binary" validate --serving "$tmp/rate.csv" > "$tmp/rate" 2>&1
priced_of() { awk -v id="$1" '$1 == id { sub(/.* (rate|at once|closed) +/, ""); print $2 }' "$tmp/rate"; }
check "a row at rate_qps=2 is an open loop at 2 a second: within 10% of 2 x 128 tokens a second" \
  awk -v p="$(priced_of q1 | tr -d ,)" 'BEGIN { exit !(p >= 0.9 * 256 && p <= 1.1 * 256) }'
check "the row sent at once completes over 4 times as many" \
  awk -v p="$(priced_of q2 | tr -d ,)" 'BEGIN { exit !(p > 4 * 256) }'
check "a row with a first token only is priced, its throughput blank" \
  sh -c "grep -q '^q3 .* rate  *- *- .*50.0 ' '$tmp/rate'"
check "a row with no figure is not priced, and says so" has "$tmp/rate" "q4 (G9): no figure in its columns"

# A row whose note names ShareGPT draws its requests' lengths as `serve --lengths sharegpt`
# does (seed 1), rescaled to the row's means; software naming LMDeploy is priced by serve's
# lmdeploy engine. The row's priced figures are serve's own; without "ShareGPT" in the note
# every request is at the means, and the figures differ.
cat > "$tmp/sg.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
h1,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,16,300,200,1000,1000,10,100,LMDeploy (TurboMind),2026,x,"G9; ShareGPT, 200 requests (hand-made)"
h2,Llama-3.1-8B,meta-llama/Llama-3.1-8B,16,,H100-SXM5-80GB,8,1,,,1,1,,1,,16,300,200,1000,1000,10,100,LMDeploy (TurboMind),2026,x,"G9; 200 requests (hand-made)"
CSV
"$binary" validate --serving "$tmp/sg.csv" > "$tmp/sg" 2>&1
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --engine lmdeploy --lengths sharegpt --prompt-tokens 300 \
  --output-tokens 200 --concurrency 16 --requests 200 --json > "$tmp/sg_serve.json"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --engine lmdeploy --prompt-tokens 300 \
  --output-tokens 200 --concurrency 16 --requests 200 --json > "$tmp/sg_fixed.json"
check "a ShareGPT row is priced by lmdeploy as serve --lengths sharegpt prices it; the same row at fixed lengths as serve does" python3 -c "
import json, sys
rows = {l.split()[0]: l.split() for l in open(sys.argv[1]) if l[:2] in ('h1', 'h2')}
drawn, fixed = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
for row, d in (('h1', drawn), ('h2', fixed)):
    r = rows[row]
    assert r[2] == 'lmdeploy', r
    # tok/s priced, tpot ms priced, ttft ms priced, as the table prints them
    assert int(r[9]) == round(d['output_tokens_per_s']), (r, d['output_tokens_per_s'])
    assert float(r[12]) == round(d['tpot_ms']['mean'], 1) and float(r[15]) == round(d['ttft_ms']['mean'], 1), r
assert rows['h1'][15] != rows['h2'][15]
" "$tmp/sg" "$tmp/sg_serve.json" "$tmp/sg_fixed.json"

# fit --serving --held-out FILE: the other file's rows are priced with the fit and join the
# summary's held-out medians; none of them is fitted. One fitted row (P2's s039) and two
# held-out gathered rows (G2): the summary names the file and counts 2 rows, where without
# it no held-out row gives a figure.
head -1 tests/measured/serving-runs.csv > "$tmp/fit_one.csv"
grep -E '^s039,' tests/measured/serving-runs.csv >> "$tmp/fit_one.csv"
head -1 tests/measured/serving-gathered.csv > "$tmp/held_two.csv"
grep -E '^g07[34],' tests/measured/serving-gathered.csv >> "$tmp/held_two.csv"
"$binary" fit --serving "$tmp/fit_one.csv" --held-out "$tmp/held_two.csv" > "$tmp/held_with" 2>&1
"$binary" fit --serving "$tmp/fit_one.csv" > "$tmp/held_without" 2>&1
check "fit --serving --held-out: the file's two rows join the held-out medians, and the fit is the same" sh -c "
grep -q 'held out (the other sources. and held_two.csv.s), median |error| (runs): time per output token -, output tokens a second [0-9.]*% (2), first token -' '$tmp/held_with' &&
grep -q 'held out, median |error| (runs): time per output token -, output tokens a second -, first token -' '$tmp/held_without' &&
[ \"\$(head -n -1 '$tmp/held_with')\" = \"\$(head -n -1 '$tmp/held_without')\" ]"

# Attention data parallel with experts spread in each of pp stages (TensorRT-LLM's tp 2, ep 2,
# attn_dp 2, pp 2) is priced as dep2pp2: 4 GPUs; with ep unlike attn_dp it stays refused.
cat > "$tmp/dep_pp.csv" <<'CSV'
id,model,hf_repo,weight_bits,kv_bits,gpu,gpus_per_server,servers,intra_link,inter_link,tp,pp,ep,dp,attn_dp,concurrency,input_tokens,output_tokens,throughput_tok_s,throughput_per_gpu_tok_s,itl_ms,ttft_ms,software,date,source,note
d1,Qwen3-30B-A3B,Qwen/Qwen3-30B-A3B,16,,H100-SXM5-80GB,8,1,,,2,2,2,1,2,32,1000,100,3000,750,,,TensorRT-LLM (PyTorch),2025,x,"G3; hand-made"
d2,Qwen3-30B-A3B,Qwen/Qwen3-30B-A3B,16,,H100-SXM5-80GB,8,1,,,2,2,1,1,2,32,1000,100,3000,750,,,TensorRT-LLM (PyTorch),2025,x,"G3; hand-made"
CSV
"$binary" validate --serving "$tmp/dep_pp.csv" > "$tmp/dep_pp" 2>&1
check "tp 2, ep 2, attn_dp 2, pp 2 is priced as dep2pp2; ep 1 beside it is refused" \
  sh -c "grep -q '^d1 .* dep2pp2 x1 closed ' '$tmp/dep_pp' && grep -q 'd2 (G3): experts spread or attention data parallel with groups of layers' '$tmp/dep_pp'"

echo "fit_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
