#!/usr/bin/env python3
"""A first comparison of `gpusplit serve` with measured serving runs (issue 29).

Usage: scripts/serve_compare.py BINARY [RUNS.csv]   (default tests/measured/serving-runs.csv)

Each row the catalogue can express is priced as its source ran it, and the rest are listed
with the reason they are not. The script only maps a row to serve's flags and compares
numbers; every figure comes from the C (gpusplit serve --json). Nothing here is fitted:
the efficiency is report's (data/efficiency.json, the row's engine), and no rule was added
after reading these errors.

How a row maps (each an assumption, named in the output):
- model: the catalogue entry of the row's repository, its quantisation suffix dropped
  (-FP4, -FP8), --bits the row's weight_bits;
- gpu: the catalogue GPU of the row's part; rows on a GPU the catalogue lacks are skipped;
- layout: --counts tp x pp, --split slices (tp only) or groups (pp only), --replicas dp;
  expert or attention data parallelism, mixed tp and pp, and rows without a layout are skipped;
- engine: trt-llm, vllm or sglang from the software column; others are skipped;
- load: trtllm-bench's throughput runs send every request at once (the README: infinite
  rate), taken here as 1,000 requests (the row does not give the dataset's size); a row
  with a concurrency is a closed loop of that many; rows without lengths are skipped;
- compared: output tokens a second (throughput_tok_s, output tokens for all but rows the
  note marks PREFILL-ONLY, which are skipped), and mean time per output token and to the
  first token where the row gives them.
"""
import csv
import json
import statistics
import subprocess
import sys

MODELS = {
    "meta-llama/Llama-3.3-70B-Instruct": "llama-3.3-70b",
    "meta-llama/Llama-3.1-405B-Instruct": "405b",
    "meta-llama/Llama-2-70b-chat-hf": "llama-2-70b",
    "meta-llama/Llama-2-70b-hf": "llama-2-70b",
    "Qwen/Qwen3-235B-A22B": "qwen3-235b-a22b",
    "Qwen/Qwen3-30B-A3B": "qwen3-30b-a3b",
    "deepseek-ai/DeepSeek-V3": "deepseek-v3",
    "mistralai/Mixtral-8x7B-Instruct-v0.1": "mixtral-8x7b",
    "zai-org/GLM-4.5-Air": "glm-4.5-air",
    "deepseek-ai/DeepSeek-V3.2": "deepseek-v3.2",
}
GPUS = {"B200-180GB": "b200", "H200-SXM-141GB": "h200", "H100-SXM5-80GB": "h100-sxm", "A100-SXM4-80GB": "a100-80gb-sxm",
        "MI300X-192GB": "mi300x", "RTX-PRO-6000-Blackwell-Server": "rtx-pro-6000-server",
        "GB200-192GB (NVL72 system)": "gb200", "GB200": "gb200", "GB200 (NVL72)": "gb200", "GB300": "gb300",
        # the form factor is not stated; DeepSpeed-FastGen's A100 nodes are taken as SXM (8 a node)
        "A100-80GB (form factor not stated)": "a100-80gb-sxm"}
# The sources the fit may see (tests/measured/serving-runs-README.md, decided before any
# held-out row was priced); every other source is held out.
FITTED = ("P1", "P2")


def engine_of(software):
    s = software.lower()
    # DeepSpeed-FastGen's Dynamic SplitFuse runs prompt chunks beside decodes in one step
    # (its blog, blogs/deepspeed-fastgen/README.md), as vLLM V1's scheduler does: priced as vllm.
    for key, name in (("tensorrt", "trt-llm"), ("vllm", "vllm"), ("sglang", "sglang"), ("deepspeed-fastgen", "vllm")):
        if key in s:
            return name
    return None


def repo_of(hf_repo):
    repo = hf_repo.split(" ")[0]
    for suffix in ("-FP4", "-FP8", "-NVFP4"):
        if repo.endswith(suffix):
            repo = repo[: -len(suffix)]
    if repo == "meta-llama/Llama-2-70B" or repo.endswith("Llama-2-70b-chat-hf"):
        return "meta-llama/Llama-2-70b-hf"
    return repo.replace("nvidia/", "meta-llama/" if "Llama" in repo else "deepseek-ai/" if "DeepSeek" in repo else "Qwen/")


def flags_of(row):
    """serve's flags for a row, or (None, why)."""
    model = MODELS.get(repo_of(row["hf_repo"]))
    gpu = GPUS.get(row["gpu"])
    engine = engine_of(row["software"])
    if not model:
        return None, "model not in the catalogue"
    if not gpu:
        return None, "GPU not in the catalogue (or its variant not stated)"
    if not engine:
        return None, "engine serve does not simulate"
    if row["ep"] or row["attn_dp"]:
        return None, "experts spread or attention data parallel (serve prices experts sliced only)"
    if not row["tp"]:
        return None, "no layout in the files read"
    if not row["input_tokens"] or not row["output_tokens"]:
        return None, "lengths not stated (MLPerf's OpenOrca prompts vary; their mean is not in the log)"
    if "PREFILL-ONLY" in row["note"]:
        return None, "prefill-only throughput"
    tp, pp, dp = int(row["tp"]), int(row["pp"] or 1), int(row["dp"] or 1)
    if tp > 1 and pp > 1:
        return None, "tp and pp mixed on one server (slices-groups splits across servers only)"
    split = "groups" if pp > 1 else "slices"
    flags = ["serve", "--json", "--model", model, "--gpu", gpu, "--counts", str(tp * pp), "--split", split,
             "--replicas", str(dp), "--engine", engine, "--prompt-tokens", str(round(float(row["input_tokens"]))),
             "--output-tokens", str(round(float(row["output_tokens"])))]
    if row["weight_bits"]:
        flags += ["--bits", row["weight_bits"]]
    if row["concurrency"]:
        flags += ["--concurrency", str(int(float(row["concurrency"]))), "--requests", str(max(1000, int(float(row["concurrency"]))))]
    return flags, None


def source_of(row):
    return row["note"].split(";")[0].strip()


def price(binary, rows, extra=()):
    """Each row priced: (row, flags, serve's JSON) or (row, None, why)."""
    out = []
    for row in rows:
        flags, why = flags_of(row)
        if not flags:
            out.append((row, None, why))
            continue
        run = subprocess.run([binary] + flags + list(extra), capture_output=True, text=True)
        if run.returncode != 0:
            out.append((row, None, "refused: " + run.stderr.strip()))
            continue
        out.append((row, flags, json.loads(run.stdout)))
    return out


def errors_of(row, d):
    """Relative errors (priced / measured - 1) of the figures the row gives."""
    e = {"output_tokens_per_s": d["output_tokens_per_s"] / float(row["throughput_tok_s"]) - 1}
    if row["itl_ms"]:
        e["tpot_ms"] = d["tpot_ms"]["mean"] / float(row["itl_ms"]) - 1
    if row["ttft_ms"]:
        e["ttft_ms"] = d["ttft_ms"]["mean"] / float(row["ttft_ms"]) - 1
    return e


def summary(priced, keep):
    """Median |error| of each figure over the priced rows keep() takes."""
    lines = []
    for key in ("tpot_ms", "output_tokens_per_s", "ttft_ms"):
        errs = [errors_of(r, d)[key] for r, f, d in priced if f and keep(r) and key in errors_of(r, d)]
        if errs:
            lines.append(f"  {key}: {len(errs)} rows, median |error| {100 * statistics.median(abs(e) for e in errs):.1f}%, "
                         f"median error {100 * statistics.median(errs):+.1f}%")
        else:
            lines.append(f"  {key}: no row priced")
    return lines


def main():
    binary = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("-") else "tests/measured/serving-runs.csv"
    extra = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    rows = list(csv.DictReader(open(path, encoding="utf-8")))
    priced = price(binary, rows, extra)
    print(f"{'id':5} {'source':6} {'measured':>10} {'priced':>10} {'error':>8}  flags")
    for row, flags, d in priced:
        if flags:
            err = errors_of(row, d)["output_tokens_per_s"]
            print(f"{row['id']:5} {source_of(row):6} {float(row['throughput_tok_s']):10.0f} {d['output_tokens_per_s']:10.0f} "
                  f"{100 * err:+7.1f}%  {' '.join(flags[2:])}")
    print("\nFitted sources (" + ", ".join(FITTED) + "):")
    print("\n".join(summary(priced, lambda r: source_of(r) in FITTED)))
    print("Held-out sources (all others):")
    print("\n".join(summary(priced, lambda r: source_of(r) not in FITTED)))
    print("\nNot priced:")
    skipped = {}
    for row, flags, why in priced:
        if not flags:
            skipped.setdefault(why, []).append(row["id"])
    for why, ids in skipped.items():
        print(f"  {len(ids):2} {why}: {','.join(ids)}")


if __name__ == "__main__":
    main()
