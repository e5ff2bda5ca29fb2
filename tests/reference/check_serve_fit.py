#!/usr/bin/env python3
"""The serving fit (gpusplit fit --serving, csrc/fit/serve_fit.c) holds to two checks:

1. It recovers figures it is given: runs are made by pricing settings with `gpusplit serve`
   at known figures (step FLOP/s share 0.6, 50 us a sequence, overlap share 0.5, 25 ms a
   request's front end), written
   as rows of a fitted source, and fitted back. A fit that cannot tell the figures apart,
   or searches the wrong flags, lands elsewhere and fails. A held-out row made at other
   figures must not move the fit (held out means held out).
2. validate --serving prices a row as serve prices it: rows made at data/serving.json's own
   figures are 0.0% off in every figure, and a row of a GPU the catalogue lacks is named
   with its reason.
3. The committed data/serving.json is the fit's output on tests/measured/serving-runs.csv and
   serving-fit-gathered.csv, its summary's held-out medians over serving-gathered.csv too,
   byte for byte: nobody edits a figure by hand.

Usage: tests/reference/check_serve_fit.py BINARY   (about 2.5 min of CPU: the third check)
"""
import csv
import io
import json
import re
import subprocess
import sys
import tempfile

KNOWN = (0.6, 50, 0.5, 25000)
# (repository, gpu, tp, bits, concurrency, prompt, output): batch 1 to 256, decode- and prefill-heavy
SETTINGS = [("nvidia/Llama-3.3-70B-Instruct-FP8", "llama-3.3-70b", "H100-SXM5-80GB", "h100-sxm", 2, 8, 1, 1000, 100),
            ("nvidia/Llama-3.3-70B-Instruct-FP8", "llama-3.3-70b", "H100-SXM5-80GB", "h100-sxm", 2, 8, 256, 1000, 100),
            ("nvidia/Llama-3.3-70B-Instruct-FP8", "llama-3.3-70b", "H200-SXM-141GB", "h200", 1, 8, 64, 4000, 20),
            ("Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b", "H100-SXM5-80GB", "h100-sxm", 1, 16, 128, 500, 300),
            ("Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b", "H100-SXM5-80GB", "h100-sxm", 2, 16, 32, 2000, 200),
            ("nvidia/Llama-3.3-70B-Instruct-FP8", "llama-3.3-70b", "H200-SXM-141GB", "h200", 2, 8, 16, 500, 500)]
COLUMNS = ["id", "hf_repo", "weight_bits", "gpu", "tp", "pp", "dp", "ep", "attn_dp", "concurrency", "input_tokens",
           "output_tokens", "throughput_tok_s", "itl_ms", "ttft_ms", "software", "note"]


def serve(binary, repo_key, gpu_key, tp, bits, conc, prompt, out, figures):
    flags = ["serve", "--json", "--model", repo_key, "--gpu", gpu_key, "--counts", str(tp), "--split", "slices", "--replicas", "1",
             "--engine", "trt-llm", "--prompt-tokens", str(prompt), "--output-tokens", str(out), "--bits", str(bits),
             "--concurrency", str(conc), "--requests", "1000"]
    if figures:
        flags += ["--step-flops-share", str(figures[0]), "--seq-us", str(figures[1]), "--overlap-share", str(figures[2]),
                  "--request-us", str(figures[3])]
    return json.loads(subprocess.run([binary] + flags, capture_output=True, text=True, check=True).stdout)


def made_rows(binary, figures, source, start):
    rows = []
    for i, (repo, key, gpu, gpu_key, tp, bits, conc, prompt, out) in enumerate(SETTINGS):
        d = serve(binary, key, gpu_key, tp, bits, conc, prompt, out, figures)
        rows.append({"id": f"m{start + i}", "hf_repo": repo, "weight_bits": str(bits), "gpu": gpu, "tp": str(tp), "pp": "1",
                     "dp": "1", "ep": "", "attn_dp": "", "concurrency": str(conc), "input_tokens": str(prompt),
                     "output_tokens": str(out), "throughput_tok_s": repr(d["output_tokens_per_s"]),
                     "itl_ms": repr(d["tpot_ms"]["mean"]), "ttft_ms": repr(d["ttft_ms"]["mean"]),
                     "software": "TensorRT-LLM (made)", "note": f"{source}; made from gpusplit serve at {figures}"})
    return rows


def run_on(binary, rows, args):
    text = io.StringIO()
    w = csv.DictWriter(text, COLUMNS)
    w.writeheader()
    w.writerows(rows)
    with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
        f.write(text.getvalue())
        f.flush()
        return subprocess.run([binary] + args + [f.name], capture_output=True, text=True, check=True).stdout


def fit(binary, rows):
    out = run_on(binary, rows, ["fit", "--json", "--serving"])
    return {g["engine"]: (g["flops_share"], g["seq_us"], g["overlap_share"], g["request_us"]) for g in json.loads(out)["figures"]}


def main():
    binary = sys.argv[1]
    fitted = made_rows(binary, KNOWN, "P2", 0)
    got = fit(binary, fitted)
    assert got == {"trt-llm": KNOWN, "any": KNOWN}, f"the fit found {got}, not the figures the runs were made with {KNOWN}"
    # rows of a held-out source, made at other figures, change nothing
    held = made_rows(binary, (0.2, 200, 0, 100000), "P12", len(SETTINGS))
    assert fit(binary, fitted + held) == got, "a held-out source's rows moved the fit"
    # an engine of fewer than 6 fitted rows (FIT_MIN_RUNS) takes the pooled figures: no fit of its own
    assert set(fit(binary, fitted[:5])) == {"any"}, "an engine of 5 rows was given figures of its own"
    print(f"ok: the serving fit recovers {KNOWN} from {len(fitted)} made runs, none for an engine of 5; held-out rows do not move it")
    rows = made_rows(binary, None, "P2", 0)
    rows.append(dict(rows[0], id="m9", gpu="H100-80GB (variant not stated)"))
    out = run_on(binary, rows, ["validate", "--serving"])
    lines = [line for line in out.split("\n") if line[:2] in ("m0", "m1", "m2", "m3", "m4", "m5")]
    assert len(lines) == 6 and all(line.count("0.0%") == 3 for line in lines), out
    assert re.search(r"\nfitted sources +0\.0% \(6\) +0\.0% \(6\) +0\.0% \(6\)\n", out), out
    assert "  m9 (P2): GPU not in the catalogue (or its variant not stated)" in out, out
    print("ok: validate --serving prices made rows 0.0% off and names the row it cannot price")
    run = subprocess.run([binary, "fit", "--serving", "tests/measured/serving-runs.csv", "--more",
                          "tests/measured/serving-fit-gathered.csv", "--held-out", "tests/measured/serving-gathered.csv",
                          "--json"], capture_output=True, text=True, check=True)
    committed = open("data/serving.json", encoding="utf-8").read()
    assert run.stdout == committed, "data/serving.json is not the fit's output: run make serving"
    print("ok: data/serving.json is gpusplit fit --serving tests/measured/serving-runs.csv --more "
          "tests/measured/serving-fit-gathered.csv --held-out tests/measured/serving-gathered.csv --json")
    print("3 passed, 0 failed")  # the line scripts/run-suite.sh counts (its plain format); any failed assert exits first


if __name__ == "__main__":
    main()
