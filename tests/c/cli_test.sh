#!/bin/sh
# The command line on good input: the report's figures for the lesson's default view,
# valid JSON from report --json and fixture, and help on every command.
# Usage: tests/c/cli_test.sh build/gpusplit
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
# The report row for a count: "GPUs weights cache working total fits read wait total waiting words/s all bound".
row() { awk -v n="$1" '$1 == n && NF == 13' "$tmp/report"; }
has() { grep -qF -- "$2" "$1"; }
row_is() { [ "$(row "$1" | awk '{ print $5, $6, $9, $10 }')" = "$2" ]; }

"$binary" report --model 70b > "$tmp/report" 2> "$tmp/err"
check "report exits 0" [ $? -eq 0 ]
check "report writes nothing on stderr" [ ! -s "$tmp/err" ]
# lesson, "Explore the numbers": 70B on 4 GPUs, fast link: 34.93 GiB, 18.94 ms, 8.7%
check "70B on 4 GPUs shows 34.93 GiB, 18.94 ms and 8.7%" row_is 4 "34.93 yes 18.94 8.7%"
# lesson, "The weights must fit": 131.42 GiB of weights cannot sit on one 73.6 GiB GPU
check "70B on 1 GPU does not fit and shows no time" row_is 1 "135.37 no - -"
check "the report names the fewest GPUs, 2" has "$tmp/report" "Fewest GPUs that fit (up to 64): 2"
check "the report names the best count, 19" has "$tmp/report" "Best GPU count (up to 64): 19"
check "the report names the best count dividing the heads, 16" has "$tmp/report" "Best count that divides the 64 heads: 16"

"$binary" report --model 405b --counts 1,16 > "$tmp/report"
check "405B on 1 GPU does not fit" row_is 1 "761.76 no - -"
# lesson: "The widget offers 16 so the 405B can fit at all: 49.60 GiB each."
check "405B on 16 GPUs fits in 49.60 GiB" [ "$(row 16 | awk '{ print $5, $6 }')" = "49.60 yes" ]

"$binary" report --json --model 8b --link slow --split groups --words 16 > "$tmp/report.json"
check "report --json is one valid JSON object with 5 rows" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['split'] == 'groups' and d['words'] == 16 and len(d['rows']) == 5
assert [r['gpus'] for r in d['rows']] == [1, 2, 4, 8, 16]
assert d['link']['bandwidth'] == 64e9 and d['link']['step_us'] == 1.0
" "$tmp/report.json"

"$binary" report --json --model 405b --counts 1 --max-n 4 > "$tmp/none.json"
check "searches that find no fitting count give null" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['fewest'] is None and d['best'] is None and d['best_dividing_heads'] is None
" "$tmp/none.json"

"$binary" fixture --random 20 --seed 7 > "$tmp/fixture.json"
check "fixture holds the 180 settings and the random ones" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d['cases']) == 3 * 5 * 2 * 2 * 3 == 180 and len(d['random']) == 20
keys = {(c['model'], c['gpus'], c['link'], c['split'], c['words']) for c in d['cases']}
assert len(keys) == 180
assert any(c['fits'] for c in d['cases']) and any(not c['fits'] for c in d['cases'])
" "$tmp/fixture.json"
"$binary" fixture --random 20 --seed 7 > "$tmp/again.json"
check "the same seed gives the same fixture" cmp -s "$tmp/fixture.json" "$tmp/again.json"

# Every command's --help and -h: its usage on standard output, nothing on stderr, exit 0.
helped() { [ "$1" -eq 0 ] && [ ! -s "$tmp/help_err" ] && head -n 1 "$tmp/help" | grep -Eq "^usage: gpusplit $2( |$)"; }
for command in "" help report plan serve fit validate calibrate list figure fixture numbers; do
  for flag in --help -h; do
    # shellcheck disable=SC2086 # the empty command must vanish
    "$binary" $command $flag > "$tmp/help" 2> "$tmp/help_err"
    status=$?
    want=$command
    case $command in "" | help) want=COMMAND ;; esac
    check "gpusplit $command $flag exits 0 with its usage on stdout alone" helped "$status" "$want"
  done
done

# A config whose file name holds a control character and a byte that is not UTF-8: the
# JSON stays valid UTF-8 (the byte becomes U+FFFD, the control character an escape), and
# the table shows the name escaped.
odd=$(printf '%s/odd\033\377.json' "$tmp")
cp data/models/llama31_8b_config.json "$odd"
"$binary" report --model "$odd" --counts 1 --json > "$tmp/odd.json"
check "a path that is not UTF-8 gives valid UTF-8 JSON that names it" python3 -c "
import json, sys
name = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8', 'strict'))['model']['name']
assert name.endswith('odd\x1b\ufffd.json'), name
" "$tmp/odd.json"
"$binary" report --model "$odd" --counts 1 > "$tmp/odd.txt"
check "the table shows such a path escaped, with no raw control character" python3 -c "
import sys
text = open(sys.argv[1], 'rb').read()
assert b'odd\\\\x1b\\\\xff.json' in text and b'\\x1b' not in text, text[:200]
" "$tmp/odd.txt"

# Issue 8's "Done when": real machines, servers, chats at once and the sums.
"$binary" report --assume lesson --model meta-llama/Llama-3.1-405B --gpu h100-sxm --link nvlink4 --per-server 8 --between ib-ndr \
  --split slices-groups --counts 8,16,32 > "$tmp/servers.txt" 2> "$tmp/err"
check "405B on H100 servers, slices-groups: exit 0, nothing on stderr" [ $? -eq 0 ] && [ ! -s "$tmp/err" ]
check "405B on H100 servers shows memory and times for 16 and 32 GPUs on 2 and 4 servers" python3 -c "
import sys
rows = {l.split()[0]: l.split() for l in open(sys.argv[1]) if l[:5].strip().isdigit()}
assert rows['8'][5] == 'no' and rows['16'][5] == 'yes' and rows['32'][5] == 'yes', rows
assert rows['16'][-2:] == ['2', 'servers'] and rows['32'][-2:] == ['4', 'servers'], rows
float(rows['16'][8]); float(rows['32'][8])
" "$tmp/servers.txt"
"$binary" report --model meta-llama/Llama-3.1-405B --gpu h100-sxm --link nvlink4 --per-server 8 --between ib-ndr --split slices \
  --counts 16 --json > "$tmp/crossing.json"
"$binary" report --model meta-llama/Llama-3.1-405B --gpu h100-sxm --link nvlink4 --per-server 16 --split slices --counts 16 \
  --json > "$tmp/one_server.json"
check "slices across 2 servers wait longer than in one server of 16" python3 -c "
import json, sys
two, one = (json.load(open(f))['rows'][0] for f in sys.argv[1:3])
assert two['servers'] == 2 and one['servers'] == 1, (two['servers'], one['servers'])
assert two['time']['transfer'] > one['time']['transfer'] and two['time']['swap'] > one['time']['swap'], (two['time'], one['time'])
" "$tmp/crossing.json" "$tmp/one_server.json"
"$binary" report --model 8b --link slow --words 64 > "$tmp/chats.txt"
check "64 words at once: each chat's 261.9 words a second and all chats' 16,763.9 on 16 GPUs" \
  [ "$(awk '$1 == 16 { print $11, $12 }' "$tmp/chats.txt")" = "261.9 16,763.9" ]
"$binary" report --model 70b --words 64 --counts 4 --json > "$tmp/one_cache.json"
"$binary" report --model 70b --words 64 --counts 4 --json --cache-per-chat > "$tmp/caches.json"
check "--cache-per-chat holds 64 chats' caches: 64 x 671,088,640 bytes a GPU" python3 -c "
import json, sys
one, many = (json.load(open(f))['rows'][0]['memory'] for f in sys.argv[1:3])
assert one['cache'] == 671088640 and many['cache'] == 64 * 671088640, (one, many)
assert many['total'] - one['total'] == 63 * 671088640
" "$tmp/one_cache.json" "$tmp/caches.json"
"$binary" report --explain --gpus 4 > "$tmp/explain.txt"
for sum in '70,553,706,496 x 2 / 4 = 35,276,853,248' '671,088,640' '1,560,281,088' '37,508,222,976' \
  '10.24 us a swap' '160 x 10.24 us = 1.64 ms' '17.30 + 1.64 = 18.94 ms'; do
  check "--explain --gpus 4 shows $sum" has "$tmp/explain.txt" "$sum"
done
"$binary" report --json --counts 4 > "$tmp/four.json"
check "--explain's total and waiting are report's" python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))['rows'][0]['time']
text = open(sys.argv[2]).read()
assert f\"= {t['total'] * 1e3:.2f} ms a word\" in text and f\"= {t['share'] * 100:.1f}%\" in text
" "$tmp/four.json" "$tmp/explain.txt"
"$binary" report --json --nccl auto --gpu h100-sxm --link nvlink4 --overlap --read-cache --divide-heads \
  --chat-tokens 32768 --cache-bits 8 --words 8 > "$tmp/switches.json"
check "the JSON echoes every setting" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['nccl'] == 'auto' and r['overlap'] and r['read_cache'] and r['divide_heads'], r
assert r['chat_tokens'] == 32768 and r['cache_bits'] == 8 and r['words'] == 8 and r['gpu']['key'] == 'h100-sxm'
assert r['link']['key'] == 'nvlink4' and r['link']['kind'] == 'nvlink' and r['between']['key'] == 'ib-ndr'
assert all(64 % row['gpus'] == 0 for row in r['rows']) and r['best'] == r['best_dividing_heads']
assert all(row['protocol'] in ('LL', 'LL128', 'Simple', None) for row in r['rows'] if row['gpus'] == 1 or row['gpus'] > 8)
assert all(row['protocol'] == 'measured' for row in r['rows'] if 1 < row['gpus'] <= 8), r['rows']
" "$tmp/switches.json"
# Issue 19: a catalogue GPU takes real hardware's rules, said in the header and the JSON;
# --assume lesson gives the lesson's, the same as with a figure typed (which also keeps them).
"$binary" report --gpu h100-sxm --model 405b --words 64 > "$tmp/real.txt"
"$binary" report --gpu h100-sxm --model 405b --words 64 --json > "$tmp/real.json"
check "405B on H100s at 64 words: real rules, said in one line of the header" python3 -c "
import sys
text = open(sys.argv[1]).read()
line = [l for l in text.splitlines() if l.startswith('Assumptions: ')][0]
for said in ('a cache for each chat', 'read every step', 'counts dividing the heads', 'servers of 8', 'one-way ring bandwidth'):
    assert said in line, (said, line)
" "$tmp/real.txt"
check "405B on H100s at 64 words: a cache for each chat, counts dividing the 128 heads, servers of 8, NVLink at 370.8 GB/s one way" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['assume'] == 'real' and r['cache_per_chat'] and r['read_cache'] and r['divide_heads'] and r['per_server'] == 8, r
assert r['nccl'] == 'auto' and r['link']['key'] == 'nvlink4' and r['link']['bandwidth'] == 370.8e9, r['link']
assert r['prompt_tokens'] == 1024 and r['efficiency']['from'], r['efficiency']
assert all(128 % row['gpus'] == 0 for row in r['rows']), [row['gpus'] for row in r['rows']]
# each of the 64 chats holds its own cache: 64 x 2 x 126 layers x 8 heads x 128 x 2 bytes x 8,192 tokens over 8 parts
row32 = [row for row in r['rows'] if row['gpus'] == 32][0]
assert row32['memory']['cache'] == 64 * 2 * 126 * 8 * 128 * 2 * 8192 // 8, row32['memory']
" "$tmp/real.json"
"$binary" report --gpu h100-sxm --model 405b --words 64 --assume lesson --json > "$tmp/lesson.json"
# a typed figure no longer switches the rules (issue 30): typed under the lesson's, asked for
"$binary" report --gpu h100-sxm --gpu-gib 80 --model 405b --words 64 --assume lesson --json > "$tmp/typed.json"
check "--assume lesson gives the lesson's rules, row for row those with a figure typed at its own value" python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a['assume'] == 'lesson' and b['assume'] == 'lesson' and not a['cache_per_chat'] and a['per_server'] is None, a
assert a['rows'] == b['rows'] and a['fewest'] == b['fewest'] and a['best'] == b['best'], 'rows differ'
assert a['link']['bandwidth'] == 600e9 and a['prompt_tokens'] is None
" "$tmp/lesson.json" "$tmp/typed.json"
"$binary" report --gpu h100-sxm --model 405b --words 64 --no-cache-per-chat --no-divide-heads --nccl lesson --per-server 16 \
  --engine none --prompt-tokens none --json > "$tmp/switched.json"
check "under real rules each switch can still be set the other way" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['assume'] == 'real' and not r['cache_per_chat'] and not r['divide_heads'] and r['nccl'] == 'lesson', r
assert r['per_server'] == 16 and r['prompt_tokens'] is None and r['efficiency']['bandwidth_share'] == 0 and r['read_cache'], r
" "$tmp/switched.json"
# 8-bit weights on a GPU with FP8 tensor cores multiply in FP8 under real rules: 8B's prompt
# of 1,000 tokens is 14,091,429,937,152 operations (tests/c/test_efficiency.c), of which
# 2 x 6,979,588,096 x 1,000 run at the H100 SXM's dense FP8 1,979e12 a second (3,958 with
# sparsity, halved) and the output table's 1,050,673,152 and attention's 131,203,072,000,
# which an FP8 checkpoint leaves at 16 bits (csrc/core/primitives.c), at its 16-bit 989.5e12;
# --no-fp8-compute runs all of them at 989.5e12. Both are longer than one read of the
# 8-bit weights.
"$binary" report --gpu h100-sxm --model 8b --bits 8 --engine none --counts 1 --prompt-tokens 1000 --json > "$tmp/fp8.json"
"$binary" report --gpu h100-sxm --model 8b --bits 8 --engine none --counts 1 --prompt-tokens 1000 --no-fp8-compute --json > "$tmp/no-fp8.json"
check "8-bit weights on an H100 prefill at the FP8 peak, said in the assumptions; --no-fp8-compute at the 16-bit one" python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert '8-bit weights at the FP8 peak' in a['assumptions'] and 'FP8' not in b['assumptions'], (a['assumptions'], b['assumptions'])
assert a['gpu']['flops'] == 1979e12 and b['gpu']['flops'] == 989.5e12
fa, fb = a['rows'][0]['time']['first_word'], b['rows'][0]['time']['first_word']
fp8 = 2 * 6979588096 * 1000 / 1979e12 + (1050673152 + 131203072000) / 989.5e12
assert abs(fa - fp8) <= 1e-12 * fa and abs(fb - 14091429937152 / 989.5e12) <= 1e-12 * fb, (fa, fb)
" "$tmp/fp8.json" "$tmp/no-fp8.json"
# serve prices at the peak report names: 4-bit 70B on one B200 at the FP4 peak, slower with
# --no-fp8-compute (the 16-bit peak, 4 times lower) and slower again at a typed 1e15, each
# named in its Assumptions line (until 2026-12-07 serve priced all three at the FP4 peak)
for how in "fp4|" "sixteen|--no-fp8-compute" "typed|--gpu-flops 1e15"; do
  # shellcheck disable=SC2086
  "$binary" serve --model 70b --gpu b200 --bits 4 --counts 1 --requests 200 ${how#*|} --json > "$tmp/serve-${how%%|*}.json"
done
check "serve computes at the peak its Assumptions line names, as report does" python3 -c "
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
assert 'FP4 peak' in a['assumptions'] and 'FP4' not in b['assumptions'] and 'typed: 1,000 TFLOP/s' in c['assumptions'], (a['assumptions'], b['assumptions'], c['assumptions'])
ta, tb, tc = (r['output_tokens_per_s'] for r in (a, b, c))
assert ta > 1.5 * tb and tb > 1.5 * tc, (ta, tb, tc)
" "$tmp/serve-fp4.json" "$tmp/serve-sixteen.json" "$tmp/serve-typed.json"
"$binary" report --gpu h100-sxm --model 8b --engine none --counts 1 --prompt-tokens 1000 --json > "$tmp/16.json"
check "16-bit weights on an H100 keep the 16-bit peak" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['gpu']['flops'] == 989.5e12 and 'FP8' not in r['assumptions'], r['assumptions']
" "$tmp/16.json"
for bad in "--gpu a100-80gb-sxm --bits 8 --fp8-compute|--fp8-compute: A100 80GB SXM has no FP8 tensor cores" \
  "--gpu h100-sxm --fp8-compute|--fp8-compute: needs 8-bit weights (--bits 8)" \
  "--gpu h100-sxm --bits 8 --gpu-flops 1e15 --fp8-compute|--fp8-compute: type the FP8 peak itself as the flops"; do
  args=${bad%%|*}
  # shellcheck disable=SC2086
  "$binary" report $args > /dev/null 2> "$tmp/err"
  rc=$?
  check "report $args: exit 2 naming why" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$tmp/err')\" = 'gpusplit: ${bad#*|}' ]"
done
# --explain under achieved efficiency: the reading at half the bandwidth, then the fixed
# costs, 32 layers x 10 us + 1,000 us a step = 1.32 ms, which the total's first term adds.
"$binary" report --gpu h100-sxm --model 8b --engine none --bw-share 0.5 --layer-us 10 --per-step-us 1000 --explain --gpus 2 \
  > "$tmp/explain-eff.txt"
check "--explain with fixed costs: reading at the achieved bandwidth + the fixed line = the total's first term" python3 -c "
import re, sys
text = open(sys.argv[1]).read()
read = re.search(r'reading: [0-9,]+ bytes a GPU.* at 1,675 GB/s = ([0-9.]+) ms; .*the longer, ([0-9.]+) ms, counts', text)
fixed = re.search(r'fixed: 32 layers x 10 us \\+ 1000 us a step = 1\\.32 ms, added to the reading', text)
total = re.search(r'total: ([0-9.]+) \\+', text)
assert read and fixed and total, text
assert abs(float(read.group(2)) + 1.32 - float(total.group(1))) <= 0.011, (read.group(2), total.group(1))
" "$tmp/explain-eff.txt"
for what in gpus links; do
  "$binary" list "$what" > "$tmp/list.txt"
  check "list $what gives each entry a source" [ "$(grep -c '^    source: .\{40\}' "$tmp/list.txt")" -ge 11 ]
done

# Issue 30: the GPUs engineers run are listed with their FP8 and FP4 peaks, and each is
# priced under real rules, the default for a catalogue GPU.
"$binary" list gpus > "$tmp/list.txt"
check "list gpus heads FP8 and FP4 columns" grep -q 'FP8 TFLOP/s FP4 TFLOP/s' "$tmp/list.txt"
check "list gpus gives GB200's dense peaks: 2500, 5000 and 10000 TFLOP/s" \
  grep -Eq '^gb200 +GB200 \(NVL72\) +186 +8,000 +2500 +5000 +10000 +blackwell$' "$tmp/list.txt"
check "list gpus gives B200's dense peaks from its HGX sheet: 2250, 4500 and 9000 TFLOP/s" \
  grep -Eq '^b200 +B200 +180 +8,000 +2250 +4500 +9000 +blackwell$' "$tmp/list.txt"
check "list gpus shows no FP4 peak for H100 SXM" grep -Eq '^h100-sxm .* 989\.5 +1979 +- +hopper$' "$tmp/list.txt"
for gpu in rtx-pro-6000-server gb200 gb300 b300 h800 h20 mi325x mi355x; do
  check "list gpus lists $gpu with a source" sh -c "grep -A1 '^$gpu ' '$tmp/list.txt' | grep -q '^    source: .\{40\}'"
  "$binary" report --gpu "$gpu" --model 70b > "$tmp/report.txt" 2>&1
  check "report --gpu $gpu --model 70b prices it under real rules" \
    sh -c "grep -q '^Assumptions: real: ' '$tmp/report.txt' && grep -q '^Best GPU count' '$tmp/report.txt'"
done

# Issue 30: a typed figure replaces that figure only. With H100 SXM's own 3.35e12 typed, the
# report is the untyped one but for the Assumptions line, which names it; another typed
# bandwidth keeps real rules and the fitted shares, which apply to it. The lesson's rules,
# asked for, stay the lesson's.
args="--model 70b --gpu h100-sxm --counts 8 --words 64"
"$binary" report --json $args > "$tmp/untyped.json"
"$binary" report --json $args --gpu-bw 3.35e12 > "$tmp/typed.json"
"$binary" report --json $args --gpu-bw 2e12 > "$tmp/slower.json"
"$binary" report --json $args --gpu-bw 3.35e12 --assume lesson > "$tmp/lesson.json"
check "a typed figure equal to the catalogue's keeps every figure, and the Assumptions line names it" python3 -c "
import json, sys
u, t, s, l = (json.load(open(f)) for f in sys.argv[1:5])
assert t['assume'] == 'real' and t['assumptions'] == u['assumptions'] + '; typed: 3,350 GB/s read', t['assumptions']
del u['assumptions'], t['assumptions']
assert u == t
assert s['assume'] == 'real' and s['efficiency'] == u['efficiency'] and s['gpu']['bandwidth'] == 2e12, s['gpu']
assert s['rows'][0]['time']['read'] > u['rows'][0]['time']['read']
assert l['assume'] == 'lesson' and l['assumptions'].startswith(\"the lesson's rules\"), l['assumptions']
" "$tmp/untyped.json" "$tmp/typed.json" "$tmp/slower.json" "$tmp/lesson.json"

# Issue 9: calibrate on the three real logs, and price with the fitted link.
for log in tests/nccl-tests/*.txt; do
  "$binary" calibrate "$log" > "$tmp/fit.txt" 2> "$tmp/err"
  check "calibrate $(basename "$log") exits 0 with a fit and the lesson's sizes" \
    sh -c "[ ! -s '$tmp/err' ] && grep -q 'latency us' '$tmp/fit.txt' && grep -q '^      16,384 ' '$tmp/fit.txt'"
  "$binary" calibrate "$log" --json > "$tmp/fit.json"
  check "calibrate --json of $(basename "$log"): 8 GPUs, regimes that cover the log in order, fits within 10% rms" python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))
assert f['gpus'] == 8 and 1 <= len(f['regimes']) <= 3, f
rs = f['regimes']
assert all(a['to_bytes'] < b['from_bytes'] for a, b in zip(rs, rs[1:])), rs
assert all(set(r) == {'from_bytes', 'to_bytes', 'rows', 'latency_us', 'bandwidth', 'rms_rel_error'} for r in rs)
assert all(r['rms_rel_error'] < 0.10 for r in rs), rs
assert [s['bytes'] for s in f['lesson_sizes']] == [8192, 16384, 32768, 524288, 1048576, 2097152]
" "$tmp/fit.json"
done
log=tests/nccl-tests/dgx_h100_8gpu_nvidia_dgxc.txt
"$binary" calibrate "$log" --json > "$tmp/fit.json"
"$binary" report --link-from "$log" --counts 8 --json > "$tmp/fitted.json"
check "report --link-from prices an 8-GPU swap of 16,384 bytes at the fitted time" python3 -c "
import json, sys
fit, rep = (json.load(open(f)) for f in sys.argv[1:3])
r = next(r for r in fit['regimes'] if r['from_bytes'] <= 16384 <= r['to_bytes'])
want = (r['latency_us'] + 14 / 8 * 16384 / r['bandwidth'] * 1e6) * 1e-6
row = rep['rows'][0]
assert abs(row['time']['swap'] - want) <= 1e-12 * want, (row['time']['swap'], want)
assert rep['link']['base_us'] == 6.6 and rep['link']['bandwidth'] == r['bandwidth']
" "$tmp/fit.json" "$tmp/fitted.json"
"$binary" validate tests/measured/a100_sxm_nccl.csv --source-dir nccl/2.27.3 --lesson-link fast --gpu a100-80gb-sxm \
  --link nvlink3 > "$tmp/validate.txt"
check "validate gives a line for each of A100's 2, 4 and 8 GPUs" [ "$(grep -c '%' "$tmp/validate.txt")" -eq 3 ]

# ---- The plan on hostile input (issue 28) ----
# Nothing fits: the plan says why rather than print a table's header alone, and the fewest
# count it names is report's (under real rules the counts divide the 405B's 128 heads).
"$binary" plan --model 405b --gpu l4 --gpus-max 2 > "$tmp/plan.txt"
"$binary" plan --model 405b --gpu l4 --gpus-max 2 --json > "$tmp/plan.json"
"$binary" report --model 405b --gpu l4 --counts 2,32,64 --json > "$tmp/fits.json"
check "a plan where nothing fits says why, with the fewest count report finds to fit" python3 -c "
import json, sys
text, plan, rep = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
fits = {r['gpus']: r['fits'] for r in rep['rows']}
assert fits == {2: False, 32: False, 64: True}, fits
assert plan['frontier'] == [] and plan['choice'] is None
assert plan['why'].startswith('no layout within 2 GPUs holds the model'), plan['why']
assert plan['why'].endswith('the fewest that hold it are 64'), plan['why']
assert 'No layout fits: ' + plan['why'] + '.' in text, text
assert 'ms a word' not in text, 'the table header is printed with no rows'
" "$tmp/plan.txt" "$tmp/plan.json" "$tmp/fits.json"

# Terminal escapes and bidi controls in a --model path: escaped in the Plan: line and the
# command to price a point again, as report escapes the path in its Model: line.
evil="$tmp/a$(printf '\033[31m\342\200\256')b.json"
cp data/models/llama31_8b_config.json "$evil"
"$binary" plan --model "$evil" --gpus-max 2 > "$tmp/plan.txt"
"$binary" report --model "$evil" --counts 1 > "$tmp/report.txt"
shown_path=$(sed -n 's/^Model: \(.*\) (llama).*/\1/p' "$tmp/report.txt")
check "plan escapes the --model path as report does, in its Plan: line and its command" python3 -c "
import sys
text, path = open(sys.argv[1], 'rb').read(), sys.argv[2].encode()
assert b'\x1b' not in text and '\u202e'.encode() not in text, 'a raw escape or bidi control reached the terminal'
assert path and b'\x1b' not in path and text.startswith(b'Plan: ' + path + b' on '), text[:200]
assert (b'gpusplit report --model ' + path + b' <its flags>') in text
" "$tmp/plan.txt" "$shown_path"

# The command to price a point again keeps report's flags whole: past 4,096 bytes it cut
# them, and the last flag (--bits 4) went missing. A flag is given once (a second --bits is
# refused), so the 6,000 bytes are one figure's digits: 2.000...0 is 2.
zeros=$(i=0; while [ $i -lt 600 ]; do printf '0000000000'; i=$((i + 1)); done)
"$binary" plan --model 8b --gpus-max 1 --gpu-hour "2.$zeros" --bits 4 > "$tmp/plan.txt"
"$binary" plan --model 8b --gpus-max 1 --gpu-hour "2.$zeros" --bits 4 --json > "$tmp/plan.json"
check "the command to price a point again keeps 6,000 bytes of report's flags whole" python3 -c "
import json, sys
flags = '--model 8b --gpu-hour 2.' + '0' * 6000 + ' --bits 4'
assert ('gpusplit report ' + flags + ' <its flags>\n') in open(sys.argv[1]).read()
assert json.load(open(sys.argv[2]))['report_flags'] == flags
" "$tmp/plan.txt" "$tmp/plan.json"

# A slow typed GPU: a chat's words a second print with report's digits, not 0.0.
"$binary" plan --model 8b --gpus-max 1 --gpu-bw 1e6 > "$tmp/plan.txt"
point=$(awk '/--counts 1 /{ sub(/.*  --counts/, "--counts"); print; exit }' "$tmp/plan.txt")
plan_rate=$(awk '/--counts 1 /{ print $2; exit }' "$tmp/plan.txt")
# shellcheck disable=SC2086 # the point's flags are split on purpose
"$binary" report --model 8b --gpu-bw 1e6 $point > "$tmp/report.txt"
report_rate=$(awk '$1 == 1 && NF >= 13 { print $11; exit }' "$tmp/report.txt") # words/s, each chat's
same_rate() { [ -n "$plan_rate" ] && [ "$plan_rate" = "$report_rate" ] && [ "$plan_rate" != "0.0" ]; }
check "plan prints a slow chat's words a second as report does ($plan_rate, report $report_rate)" same_rate

# A budget of 65,536 searches every count to 64 and past it the counts it names, and says so.
"$binary" plan --model 8b --gpus-max 65536 --json > "$tmp/plan.json"
"$binary" plan --model 8b --gpus-max 65536 > "$tmp/plan.txt"
"$binary" plan --model 8b --gpus-max 64 --json > "$tmp/plan64.json"
check "a budget of 65,536 says which counts past 64 it searched, and its points are at those" python3 -c "
import json, sys
p, text, p64 = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
steps, n = [], 64
while n <= 65536:
    steps.append(n)
    n = n + n // 2 if n & (n - 1) == 0 else n + n // 3
assert p['every_count_to'] == 64 and p['counts_past'] == steps[1:], p['counts_past']
assert all(x['gpus'] <= 64 or x['gpus'] in p['counts_past'] for x in p['frontier'])
assert p['searched'].startswith('Past 64 GPUs a copy, only these 20 counts were searched') and p['searched'] + '.\n' in text
assert 'every_count_to' not in p64 and 'Past 64' not in json.dumps(p64)
" "$tmp/plan.json" "$tmp/plan.txt" "$tmp/plan64.json"

# A served load (issue 29): serve --json holds the issue's keys, its percentiles in order,
# e2e = ttft + tpot x (output - 1) on the means with fixed lengths, the deployment's GPUs,
# and says its rules and the serving fit it prices with (data/serving.json: its fitted runs
# and held-out error); the table says so too.
"$binary" serve --model 8b --gpu h100-sxm --counts 2 --replicas 2 --concurrency 8 --requests 200 --output-tokens 32 --json > "$tmp/serve.json"
check "serve --json holds its keys, percentiles in order, e2e = ttft + tpot x 31, 4 GPUs" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for k in ('ttft_ms', 'tpot_ms', 'itl_ms', 'e2e_ms'):
    assert d[k]['p50'] <= d[k]['p90'] <= d[k]['p99'] and d[k]['mean'] > 0, k
for k in ('output_tokens_per_s', 'total_tokens_per_s', 'requests_per_s', 'pool_peak_blocks', 'preemptions', 'overloaded', 'sustainable_rate'):
    assert k in d, k
assert d['gpus'] == 4 and d['replicas'] == 2 and d['validated'] is True
assert abs(d['e2e_ms']['mean'] - (d['ttft_ms']['mean'] + 31 * d['tpot_ms']['mean'])) <= 1e-9 * d['e2e_ms']['mean']
assert d['assumptions'] and 'computing at' in d['serving_assumptions'] and d['serving_fit'].startswith('fitted to ')
assert 'held out' in d['serving_fit']
" "$tmp/serve.json"
# An engine the serving fit holds fewer than 6 runs of (vLLM, one: data/serving.json fits
# sglang and trt-llm)
# says it takes the pooled figures, in the JSON and on the Fitted line; one it holds does not.
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 20 --engine sglang --json > "$tmp/serve_sglang.json"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 20 > "$tmp/serve_vllm.txt"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 20 --engine trt-llm > "$tmp/serve_trt.txt"
check "serve says when its engine's step takes the pooled figures (vllm) and not when its own (sglang, trt-llm)" sh -c "
python3 -c \"import json, sys; a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2])); assert a['serving_fit_pooled'] is True and b['serving_fit_pooled'] is False\" '$tmp/serve.json' '$tmp/serve_sglang.json' &&
grep -q '^Fitted: .*; fewer than 6 runs of vllm are among them' '$tmp/serve_vllm.txt' && ! grep -q 'fewer than 6 runs of' '$tmp/serve_trt.txt'"
# A typed all-reduce start-up is paid past one server only where the server's all-reduces are
# measured (they take none, core/nccl.c); the efficiency line says so, and says nothing of it
# where no table is measured (the lesson's all-reduce here).
"$binary" report --model 70b --gpu h100-sxm --counts 4 --allreduce-us 50 > "$tmp/ar_measured.txt"
"$binary" report --model 70b --gpu h100-sxm --counts 4 --allreduce-us 50 --nccl lesson > "$tmp/ar_lesson.txt"
check "--allreduce-us on a measured server: 'across servers (one server's as measured)'; not without a table" sh -c "
grep -q '^Achieved efficiency: .*all-reduces +50 us across servers (one server.s as measured)' '$tmp/ar_measured.txt' &&
grep -q '^Achieved efficiency: .*all-reduces +50 us' '$tmp/ar_lesson.txt' && ! grep -q 'across servers (one' '$tmp/ar_lesson.txt'"
# A request's front end (--request-us, report's flag, which serve takes since 2026-12-07 and
# had ignored): a request alone waits it once, so its first token and its whole time move by
# exactly it and its time per token not at all; the Serving line says the figure in ms.
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 1 --engine sglang --request-us 0 --json > "$tmp/front0.json"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 1 --engine sglang --request-us 40000 --json > "$tmp/front40.json"
check "serve --request-us 40000: one request's first token and whole time 40 ms later, its time per token the same" python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert abs(b['ttft_ms']['mean'] - a['ttft_ms']['mean'] - 40) < 1e-9 and abs(b['e2e_ms']['mean'] - a['e2e_ms']['mean'] - 40) < 1e-9, (a['ttft_ms'], b['ttft_ms'])
assert abs(b['tpot_ms']['mean'] - a['tpot_ms']['mean']) <= 1e-9 * a['tpot_ms']['mean']  # the same steps, later in time
assert 'each request 40 ms in the front end' in b['serving_assumptions'] and 'each request 0 ms in the front end' in a['serving_assumptions']
" "$tmp/front0.json" "$tmp/front40.json"
# LMDeploy's TurboMind (issue 29 item 2's engines, csrc/serve/engine.c): its limits on an
# H100 (1024 sequences, 8192 + 1024 tokens a step, blocks of 64, 0.8 of what the weights
# leave) in the Serving line. No fitted run is LMDeploy's: its step takes TensorRT-LLM's
# fitted figures (a C++ host loop alike, engine.c), read here from data/serving.json, and
# the front end the pooled one's; the Fitted line and the JSON say so.
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 20 --engine lmdeploy > "$tmp/serve_lmdeploy.txt"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 20 --engine lmdeploy --json > "$tmp/serve_lmdeploy.json"
check "serve --engine lmdeploy: TurboMind's limits, its pool's share of what the weights leave, TensorRT-LLM's step figures" sh -c "
grep -q '^Serving: lmdeploy.s scheduler simulated step by step (max 1024 sequences and 9216 tokens a step, prefill chunks beside decodes, preemption by recompute; a pool of [0-9]* blocks of 64 tokens at 0.8 of the memory the weights leave)' '$tmp/serve_lmdeploy.txt' &&
grep -q '; fewer than 6 runs of lmdeploy are among them: its step takes trtllm.s fitted figures' '$tmp/serve_lmdeploy.txt' &&
python3 -c \"
import json, sys
d = json.load(open(sys.argv[1]))
fit = {f['engine']: f for f in json.load(open(sys.argv[2]))['figures']}
trt, pooled = fit['trt-llm'], fit['any']
plain = lambda x: ('%.6f' % x).rstrip('0').rstrip('.')
step = 'max(read, compute) + %s x min, computing at %s of the peak, plus %s us a sequence; each request %s ms in the front end' % (
    plain(trt['overlap_share']), plain(trt['flops_share']), plain(trt['seq_us']), plain(pooled['request_us'] / 1000))
assert step in d['serving_assumptions'], (step, d['serving_assumptions'])
assert (trt['flops_share'], trt['seq_us']) != (pooled['flops_share'], pooled['seq_us'])  # else this checks nothing
assert d['serving_fit_pooled'] is False and d['serving_fit_engine'] == 'trtllm' and d['engine'] == 'lmdeploy', d.get('engine')
\" '$tmp/serve_lmdeploy.json' data/serving.json"
# Spread experts in a pipeline (TensorRT-LLM's --tp 2 --ep 2 --pp 2 with attention data
# parallel): slices-groups of 2 GPUs a stage, each stage 2 attention ranks with the experts
# spread over them; the JSON says 2 stages, 2 micro-batches in flight, 2 attention ranks
# and 2 expert ranks, and a second micro-batch in flight completes more than one.
"$binary" serve --model qwen3-30b-a3b --gpu rtx-pro-6000-server --counts 4 --split slices-groups --per-server 2 \
  --experts spread --concurrency 64 --requests 200 --json > "$tmp/dep_pp.json"
"$binary" serve --model qwen3-30b-a3b --gpu rtx-pro-6000-server --counts 4 --split slices-groups --per-server 2 \
  --experts spread --concurrency 64 --requests 200 --in-flight 1 --json > "$tmp/dep_pp1.json"
check "serve: spread experts in 2 stages of 2 attention ranks, 2 in flight by default, more tokens a second than 1" python3 -c "
import json, sys
two, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
got = {k: two[k] for k in ('gpus', 'stages', 'in_flight', 'attention_ranks', 'expert_ranks', 'experts', 'attention', 'split')}
assert got == {'gpus': 4, 'stages': 2, 'in_flight': 2, 'attention_ranks': 2, 'expert_ranks': 2, 'experts': 'spread',
               'attention': 'data', 'split': 'slices-groups'}, got
assert one['in_flight'] == 1 and two['output_tokens_per_s'] > one['output_tokens_per_s'], (one['output_tokens_per_s'], two['output_tokens_per_s'])
" "$tmp/dep_pp.json" "$tmp/dep_pp1.json"
# A pipeline (issue 29 item 4): one micro-batch a stage in flight by default, --in-flight
# otherwise; the JSON and the Serving line say which, and more in flight hold more.
"$binary" serve --model 70b --gpu h100-sxm --counts 4 --split groups --concurrency 32 --requests 200 --json > "$tmp/pp4.json"
"$binary" serve --model 70b --gpu h100-sxm --counts 4 --split groups --in-flight 1 --concurrency 32 --requests 200 --json > "$tmp/pp1.json"
check "serve under groups: 4 stages with 4 micro-batches in flight by default, --in-flight 1 one, fewer tokens a second" python3 -c "
import json, sys
four, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert (four['stages'], four['in_flight'], one['stages'], one['in_flight']) == (4, 4, 4, 1)
assert '4 micro-batches in flight' in four['serving_assumptions'] and '1 micro-batch in flight' in one['serving_assumptions']
assert one['output_tokens_per_s'] < four['output_tokens_per_s']
assert four['pool_blocks'] == one['pool_blocks'] // 4
" "$tmp/pp4.json" "$tmp/pp1.json"
# Prefill and decode on separate copies (csrc/serve/disagg.c): the JSON names the copies
# and counts every GPU; the table and the Serving line say so.
"$binary" serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 1 --decode-copies 3 --concurrency 16 --requests 64 --json > "$tmp/pd.json"
"$binary" serve --model 70b --gpu h100-sxm --counts 2 --prefill-copies 1 --decode-copies 3 --concurrency 16 --requests 64 > "$tmp/pd.txt"
check "serve --prefill-copies 1 --decode-copies 3: 8 GPUs, the copies in the JSON, the table and the Serving line" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert (d['gpus'], d['gpus_per_replica'], d['prefill_copies'], d['decode_copies']) == (8, 2, 1, 3)
assert 'cache then sent over the link' in d['serving_assumptions']
assert d['ttft_ms']['p50'] <= d['ttft_ms']['p90'] <= d['ttft_ms']['p99']
text = open(sys.argv[2]).read()
assert '1 prefill copy and 3 decode copies: 8 GPUs' in text
" "$tmp/pd.json" "$tmp/pd.txt"
# trtllm-bench's limits (csrc/serve/bench_limits.c): 70B at 16 bits on 4 H100 leaves
# 4 x 80 GiB - 70,553,706,496 x 2 bytes (131.4 GiB) = 188.6 GiB, 0.9 of it for the cache;
# a 9,000 + 128-token request takes 9,128 x 327,680 bytes (2.79 GiB): 60.9 requests, so a
# batch of 64 and, without chunked prefill, 9,000 + 64 tokens a step (worked by hand).
"$binary" serve --model 70b --gpu h100-sxm --counts 4 --engine trt-llm --prompt-tokens 8000 --requests 50 --json > "$tmp/trt.json"
"$binary" serve --model 70b --gpu h100-sxm --counts 4 --engine trt-llm --limits trtllm-bench --prompt-tokens 9000 --requests 50 --json > "$tmp/bench.json"
check "serve --limits trtllm-bench: the batch and token caps trtllm-bench sets, said in the JSON and the Serving line" python3 -c "
import json, sys
trt, bench = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert (trt['limits'], trt['max_seqs'], trt['max_batched_tokens']) == ('engine', 2048, 8192)
assert (bench['limits'], bench['max_seqs'], bench['max_batched_tokens']) == ('trtllm-bench', 64, 9064)
assert 'as trtllm-bench sets them' in bench['serving_assumptions'] and 'trtllm-bench' not in trt['serving_assumptions']
" "$tmp/trt.json" "$tmp/bench.json"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --rate 1e6 --requests 100 --output-tokens 16 --json > "$tmp/over.json"
check "an open loop far above capacity is overloaded, with the rate it can hold" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['overloaded'] is True and 0 < d['sustainable_rate'] < 1e6
" "$tmp/over.json"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 100 > "$tmp/serve.txt"
check "serve's table says its rules and the serving fit it prices with" sh -c "grep -q '^Assumptions: ' '$tmp/serve.txt' && grep -q '^Fitted: fitted to .* held out' '$tmp/serve.txt'"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --rate 20 --requests 100 --seed 3 --json > "$tmp/s1.json"
"$binary" serve --model 8b --gpu h100-sxm --counts 1 --rate 20 --requests 100 --seed 3 --json > "$tmp/s2.json"
check "serve: the same seed prints the same figures" cmp -s "$tmp/s1.json" "$tmp/s2.json"

# --lengths sharegpt: the draw's means near the table's (computed here from the file), the
# same seed the same figures and another seed others, and rescaled means within rounding.
awk -F, '!/^#/ { p += $1; o += $2; n++ } END { printf "%.6f %.6f\n", p / n, o / n }' data/sharegpt_lengths.csv > "$tmp/sg_means"
sg() { "$binary" serve --model 8b --gpu h100-sxm --counts 1 --requests 4000 --lengths sharegpt --json "$@"; }
sg --seed 5 > "$tmp/sg5.json"
sg --seed 5 > "$tmp/sg5b.json"
sg --seed 6 > "$tmp/sg6.json"
sg --seed 5 --prompt-tokens 1000 --output-tokens 200 > "$tmp/sg_scaled.json"
check "serve --lengths sharegpt: 4,000 draws' means within 5% of the table's (each over 4 standard errors)" python3 -c "
import json, sys
table = [float(x) for x in open(sys.argv[2]).read().split()]
d = json.load(open(sys.argv[1]))['load']
assert d['lengths'] == 'sharegpt' and d['length_pairs'] == 4000, d
assert abs(d['mean_prompt_tokens'] / table[0] - 1) < 0.05 and abs(d['mean_output_tokens'] / table[1] - 1) < 0.05, (d, table)
" "$tmp/sg5.json" "$tmp/sg_means"
check "serve --lengths sharegpt: the same seed prints the same figures" cmp -s "$tmp/sg5.json" "$tmp/sg5b.json"
check "serve --lengths sharegpt: another seed draws other lengths and figures" python3 -c "
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a['load']['mean_prompt_tokens'] != b['load']['mean_prompt_tokens'] and a['ttft_ms'] != b['ttft_ms']
" "$tmp/sg5.json" "$tmp/sg6.json"
check "serve --lengths sharegpt --prompt-tokens 1000 --output-tokens 200: means 1000 and 200 within rounding (0.5)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['load']
assert abs(d['mean_prompt_tokens'] - 1000) <= 0.5 and abs(d['mean_output_tokens'] - 200) <= 0.5, d
" "$tmp/sg_scaled.json"

# Every command reads --flag=VALUE as --flag VALUE (one reader, csrc/read/flags.c); and each
# one's --help prints on standard output, nothing on standard error, and exits 0.
same_both() { # name, the command with =, the same without; plan's report_flags and load_flags keep the words as typed
  # shellcheck disable=SC2086 # each command is split on purpose
  "$binary" $2 2>&1 | sed 's/"report_flags":"[^"]*"//; s/"load_flags":"[^"]*"//' > "$tmp/eq1"
  # shellcheck disable=SC2086
  "$binary" $3 2>&1 | sed 's/"report_flags":"[^"]*"//; s/"load_flags":"[^"]*"//' > "$tmp/eq2"
  check "$1: --flag=VALUE reads as --flag VALUE" cmp -s "$tmp/eq1" "$tmp/eq2"
}
same_both report "report --model=8b --gpu=h100-sxm --counts=1,2 --json" "report --model 8b --gpu h100-sxm --counts 1,2 --json"
same_both plan "plan --model=8b --gpu=h100-sxm --gpus-max=4 --target-word-ms=20 --json" \
  "plan --model 8b --gpu h100-sxm --gpus-max 4 --target-word-ms 20 --json"
same_both "plan served" "plan --model=8b --gpu=h100-sxm --gpus-max=2 --requests=100 --output-tokens=32 --seed=2 --target-tpot-ms=20 --target-stat=p50 --max-batched-tokens=4096 --json" \
  "plan --model 8b --gpu h100-sxm --gpus-max 2 --requests 100 --output-tokens 32 --seed 2 --target-tpot-ms 20 --target-stat p50 --max-batched-tokens 4096 --json"
check "plan served: the --flag=VALUE run is a served plan's JSON" grep -q '"served":true' "$tmp/eq1"
same_both serve "serve --model=8b --gpu=h100-sxm --counts=1 --requests=20 --concurrency=4 --json" \
  "serve --model 8b --gpu h100-sxm --counts 1 --requests 20 --concurrency 4 --json"
same_both fit "fit tests/measured/decode-runs.csv --allreduce=tests/measured --json" \
  "fit tests/measured/decode-runs.csv --allreduce tests/measured --json"
same_both validate "validate --runs=tests/measured/decode-runs.csv" "validate --runs tests/measured/decode-runs.csv"
same_both fixture "fixture --random=2 --seed=7" "fixture --random 2 --seed 7"
for cmd in report numbers fixture list calibrate validate figure fit plan serve; do
  "$binary" $cmd --help > "$tmp/help.out" 2> "$tmp/help.err"
  rc=$?
  check "$cmd --help: stdout, exit 0" [ "$rc" -eq 0 ] && [ -s "$tmp/help.out" ] && [ ! -s "$tmp/help.err" ]
done
# Each flag a command's help names is one its table reads: none is refused as unknown.
for cmd in report fixture validate fit plan serve; do
  unknown=''
  for flag in $("$binary" $cmd --help | grep -- '^  --' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    "$binary" $cmd "$flag=x" 2>&1 | grep -q "unknown flag" && unknown="$unknown $flag"
  done
  check "$cmd: every flag its help names is read ($unknown)" [ -z "$unknown" ]
done

echo "cli_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
