#!/bin/sh
# Writes data/sharegpt_lengths.csv from Sarathi-Serve's ShareGPT length table (Apache-2.0):
#   github.com/microsoft/sarathi-serve, commit 72339db5b120614033b317880ad3a05a5e4c9415,
#   data/processed_traces/sharegpt_8k_filtered_stats_llama2_tokenizer.csv
#   (sha256 6d6c296302a853e2669a674a96f269283e60c57e60363bd450588a1066919f9f, 30,731 rows of
#   num_prefill_tokens,num_decode_tokens,num_total_tokens,pd_ratio). Vidur (microsoft/vidur)
#   names the same file as its default length trace.
# Keeps the first two columns of the rows vLLM's benchmark would keep, in the source's order:
# it drops a pair whose prompt or output is under 4 tokens, whose prompt is over 1,024 or whose
# prompt and output together are over 2,048 (vllm/benchmarks/datasets/utils.py,
# is_valid_sequence, the bounds of benchmark_serving.py's sample_sharegpt_requests).
# Usage: scripts/sharegpt_lengths.sh SOURCE.csv > data/sharegpt_lengths.csv
set -eu
cat <<'HEAD'
# ShareGPT's prompt and output lengths in tokens, "PROMPT,OUTPUT" a line (gpusplit serve --lengths sharegpt).
# Source: Sarathi-Serve (github.com/microsoft/sarathi-serve, Apache License 2.0, see
# LICENSE-sharegpt_lengths.txt), commit 72339db5b120614033b317880ad3a05a5e4c9415,
# data/processed_traces/sharegpt_8k_filtered_stats_llama2_tokenizer.csv: its columns
# num_prefill_tokens,num_decode_tokens; counted with the Llama 2 tokenizer and kept to 8,192
# tokens a pair, as its name says. Changed: only the rows vLLM's benchmark keeps (prompt and
# output at least 4 tokens, prompt at most 1,024, the two at most 2,048), in the source's order,
# written by scripts/sharegpt_lengths.sh.
HEAD
awk -F, 'NR == 1 { if ($1 != "num_prefill_tokens" || $2 != "num_decode_tokens") exit 1; next }
         { p = $1 + 0; o = $2 + 0; if (p >= 4 && o >= 4 && p <= 1024 && p + o <= 2048) print p "," o }' "$1"
