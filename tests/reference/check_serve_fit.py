#!/usr/bin/env python3
"""The serving fit (scripts/serve_fit.py) recovers figures it is given: runs are made by
pricing settings with `gpusplit serve` at known figures (step FLOP/s share 0.6, 50 us a
sequence, overlap share 0.5), written as if measured, and fitted back. A fit that cannot
tell the figures apart, or searches the wrong flags, lands elsewhere and fails.

Usage: tests/reference/check_serve_fit.py BINARY"""
import json
import subprocess
import sys

sys.path.insert(0, "scripts")
import serve_compare as sc  # noqa: E402
import serve_fit as sf  # noqa: E402

KNOWN = (0.6, 50, 0.5)
# (model, gpu, counts, bits, concurrency, prompt, output): batch 1 to 256, decode- and prefill-heavy
SETTINGS = [("llama-3.3-70b", "H100-SXM5-80GB", 2, 8, 1, 1000, 100),
            ("llama-3.3-70b", "H100-SXM5-80GB", 2, 8, 256, 1000, 100),
            ("llama-3.3-70b", "H200-SXM-141GB", 1, 8, 64, 4000, 20),
            ("qwen3-30b-a3b", "H100-SXM5-80GB", 1, 16, 128, 500, 300)]
REPOS = {"llama-3.3-70b": "meta-llama/Llama-3.3-70B-Instruct", "qwen3-30b-a3b": "Qwen/Qwen3-30B-A3B"}


def made_rows(binary):
    rows = []
    for i, (model, gpu, n, bits, conc, prompt, out) in enumerate(SETTINGS):
        row = {"id": f"m{i}", "hf_repo": REPOS[model], "gpu": gpu, "software": "TensorRT-LLM (made)", "ep": "", "attn_dp": "",
               "tp": str(n), "pp": "1", "dp": "1", "input_tokens": str(prompt), "output_tokens": str(out),
               "weight_bits": str(bits), "concurrency": str(conc), "note": "P2; made from gpusplit serve at known figures"}
        flags, why = sc.flags_of(row)
        assert flags, why
        d = json.loads(subprocess.run([binary] + flags + sf.extra_of(KNOWN), capture_output=True, text=True, check=True).stdout)
        row.update(throughput_tok_s=repr(d["output_tokens_per_s"]), itl_ms=repr(d["tpot_ms"]["mean"]),
                   ttft_ms=repr(d["ttft_ms"]["mean"]))
        rows.append(row)
    return rows


def main():
    binary = sys.argv[1]
    rows = made_rows(binary)
    loss, fig = sf.fit(binary, rows)
    assert fig == KNOWN, f"the fit found {fig}, not the figures the runs were made with {KNOWN} (loss {loss})"
    assert loss < 1e-9, f"the made runs are not priced back exactly: mean |log error| {loss}"
    off = sf.loss(binary, rows, (0.5, 50, 0.5))
    assert off > 0.01, f"a share of 0.5 against 0.6 should show in the errors, not {off}"
    print(f"ok: the serving fit recovers {KNOWN} from {len(rows)} made runs")


if __name__ == "__main__":
    main()
