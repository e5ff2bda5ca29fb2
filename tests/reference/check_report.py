"""Check `gpusplit report --json` against the lesson's reference code (gpu_split.py next to this file).

    python3 tests/reference/check_report.py build/gpusplit [--seed 2026] [--count 300]

Runs the binary on `count` random Llama-style shapes and settings, plus the lesson's three models with
the lesson's GPU and both links, and compares every field of its JSON with what gpu_split.py computes:
integers and booleans exactly, floats to 1e-12 relative. Python standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from random import Random

sys.dont_write_bytecode = True  # keep tests/reference free of __pycache__
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gpu_split as g  # noqa: E402

KEY = "case"  # the one model key the reference sees; load_config is replaced per case
LINK = "x"  # the one link key the reference sees
REL_TOL = 1e-12
TIMEOUT_S = 30

LESSON_EXTRAS = {  # keys of the saved config.json files that the shape reader must skip
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "rms_norm_eps": 1e-05,
    "rope_scaling": {"factor": 8.0, "rope_type": "llama3"}, "rope_theta": 500000.0, "torch_dtype": "bfloat16",
}
LESSON_SHAPES = {  # the lesson's saved shapes (Llama 3.1 8B and 70B config.json, Llama 3 paper Table 3 for 405B)
    "8B": {"hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
           "num_key_value_heads": 8, "tie_word_embeddings": False, "vocab_size": 128256},
    "70B": {"hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64, "num_hidden_layers": 80,
            "num_key_value_heads": 8, "tie_word_embeddings": False, "vocab_size": 128256},
    "405B": {"hidden_size": 16384, "intermediate_size": 53248, "num_attention_heads": 128, "num_hidden_layers": 126,
             "num_key_value_heads": 8, "tie_word_embeddings": False, "vocab_size": 128256},
}
LESSON_GPU = {"gpu_gib": 80, "usable": 0.92, "gpu_bw": 2.039e12, "gpu_flops": 312e12, "base_us": 6.6}
LESSON_LINKS = {"fast": (600e9, 0.6), "slow": (64e9, 1.0)}  # bytes per second, step latency in microseconds


class AnyText:
    """Expected value for a field the reference does not define (the model's name): any non-empty string."""

    def __repr__(self):
        return "<any non-empty string>"


class AnyValue:
    """Expected value for a setting the lesson has no counterpart of (the link between servers,
    unused with one server): anything."""

    def __repr__(self):
        return "<anything>"


# ---------- the cases

def lesson_case(name: str, link: str, split: str, words: int) -> dict:
    """One of the lesson's settings: its GPU, one of its models and links, on counts 1, 2, 4, 8, 16."""
    bandwidth, step_us = LESSON_LINKS[link]
    return {"label": f"lesson {name} {link} {split} words={words}", "config": {**LESSON_EXTRAS, **LESSON_SHAPES[name]},
            **LESSON_GPU, "link_bw": bandwidth, "step_us": step_us, "split": split, "words": words,
            "counts": list(g.COUNTS), "max_n": 64}


def lesson_cases() -> list:
    """Every model, link, split and words-at-once the lesson's page offers."""
    return [lesson_case(name, link, split, words)
            for name in LESSON_SHAPES for link in LESSON_LINKS for split in g.SPLITS for words in g.WORDS]


def random_config(rng: Random) -> dict:
    """A Llama-style config.json: key/value heads divide the heads, hidden divides by the heads unless
    head_dim is given; num_key_value_heads, head_dim and tie_word_embeddings are sometimes absent."""
    heads = rng.randint(1, 256)
    cfg = {"num_attention_heads": heads, "num_hidden_layers": rng.randint(1, 200),
           "intermediate_size": rng.randint(256, 131072), "vocab_size": rng.randint(1000, 300000)}
    if rng.random() < 0.3:
        # The lesson's formula takes q and o as hidden x hidden, which holds only when
        # heads x head_dim is hidden; beyond that the reader counts them as the modeling
        # files do (tests/c/test_families.c), and the reference is no oracle.
        cfg["head_dim"] = rng.choice([rng.randint(1, 128), 64, 128, 256])
        cfg["hidden_size"] = heads * cfg["head_dim"]
    else:
        cfg["hidden_size"] = heads * rng.randint(-(-256 // heads), 32768 // heads)
    if rng.random() < 0.8:
        cfg["num_key_value_heads"] = rng.choice([d for d in range(1, heads + 1) if heads % d == 0])
    tie = rng.choice([True, False, None])
    if tie is not None:
        cfg["tie_word_embeddings"] = tie
    if rng.random() < 0.5:
        cfg.update(LESSON_EXTRAS)
    return dict(rng.sample(list(cfg.items()), len(cfg)))  # key order must not matter


def log_uniform(rng: Random, lo: float, hi: float) -> float:
    """A rate between lo and hi, as likely in each decade."""
    return lo * (hi / lo) ** rng.random()


def random_gib(rng: Random):
    """GPU memory in GiB: a whole number, a half, or any real number in 8..200."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.randint(8, 200)
    if kind == 1:
        return rng.randint(16, 400) / 2
    return rng.uniform(8, 200)


def random_case(rng: Random, i: int) -> dict:
    """One random shape, GPU, link and report setting."""
    return {"label": f"random {i}", "config": random_config(rng), "gpu_gib": random_gib(rng),
            "usable": rng.choice([rng.uniform(0.5, 1.0), 1.0, 0.92]), "gpu_bw": log_uniform(rng, 1e11, 1e13),
            "gpu_flops": log_uniform(rng, 1e13, 2e15), "link_bw": log_uniform(rng, 1e9, 2e12),
            "step_us": rng.choice([rng.uniform(0, 5), 0.0]), "base_us": rng.choice([rng.uniform(0, 20), 0.0]),
            "split": rng.choice(g.SPLITS), "words": rng.randint(1, 256),
            "counts": rng.sample(range(1, 65), rng.randint(1, 6)), "max_n": rng.randint(1, 128)}


# ---------- the expected report, from the reference

def configure(case: dict) -> dict:
    """Point the reference's constants and load_config at this case; returns the config it will read."""
    cfg = {**case["config"]}
    cfg.setdefault("num_key_value_heads", cfg["num_attention_heads"])
    g.GPU_GIB, g.USABLE = case["gpu_gib"], case["usable"]
    g.GPU_BANDWIDTH, g.GPU_FLOPS, g.BASE_US = case["gpu_bw"], case["gpu_flops"], case["base_us"]
    g.USABLE_BYTES = int(g.GPU_GIB * g.GIB * g.USABLE)  # as the module computes it at import
    g.LINKS = {LINK: (LINK, case["link_bw"], case["step_us"])}
    g.load_config = lambda key: cfg
    return cfg


def fewest(max_n: int):
    """The reference's least_n, scanning 1..max_n instead of 1..64; None if no count fits."""
    return next((n for n in range(1, max_n + 1) if g.fits(KEY, n)), None)


def best(split: str, words: int, max_n: int, heads: int = 0):
    """The reference's best_n for this split and words: the fitting count in 1..max_n with the shortest
    word time, the first on ties; with heads, only counts dividing it. None if no count fits."""
    options = [n for n in range(1, max_n + 1) if g.fits(KEY, n) and (not heads or heads % n == 0)]
    return min(options, key=lambda n: g.word_time(KEY, n, LINK, split, words)["total"], default=None)


def row(n: int, split: str, words: int) -> dict:
    """One requested GPU count: the memory each GPU holds, whether it fits, the bytes it reads in
    one step (its share of every weight, for a dense model), and one word's time. The lesson has
    one server, the LL protocol's start-up for every all-reduce, and `words` chats served at once;
    one swap is an all-reduce (slices) or a hand-off (groups)."""
    size = g.message_bytes(g.load_config(KEY)) * words
    time = g.word_time(KEY, n, LINK, split, words)
    time["swap"] = g.allreduce_time(size, n, LINK) if split == "slices" else g.handoff_time(size, LINK)
    time["total_words_per_s"] = words / time["total"]
    # the share of the step GPU 1 is idle: none under slices; the lesson has no rule for
    # groups (tests/c/test_model.c works one by hand)
    time["idle"] = 0 if split == "slices" or n == 1 else AnyValue()
    time["first_word"] = None  # no --prompt-tokens
    # what sets the step (issue 19): waiting when the transfers outlast the busy time, else the
    # longer of one GPU's computing and reading
    bound = ("waiting" if time["transfer"] > time["read"]
             else "computing" if g.compute_time(KEY, n, words) > g.read_time(KEY, n) else "reading")
    cfg = g.load_config(KEY)
    return {"gpus": n, "servers": 1, "fits": g.fits(KEY, n), "memory": g.memory_per_gpu(KEY, n),
            "read_bytes": g.ceil_div(g.weight_bytes(cfg), n),
            "protocol": "LL" if split == "slices" and n > 1 else None, "time": time, "bound": bound,
            # the rest of the field table (csrc/core/fields.h): what the lesson defines is
            # checked here; the strings, bars and compute are the parity tests' to hold
            "split": split, "words": words, "params": g.param_count(cfg), "weight_bytes": g.weight_bytes(cfg),
            "usable_bytes": g.USABLE_BYTES, "active_params": g.param_count(cfg), "compute": AnyValue(), "view": AnyValue(),
            # one replica, the lesson's one-chat cache (so no count of chats that fit) and no price
            "deploy": {"gpus": n, "words_per_s": time["total_words_per_s"] if g.fits(KEY, n) else 0, "chats_fit": None,
                       "chats_fit_words_per_s": None, "cost_per_million": None, "prompt_cost_per_million": None}}


def expected(case: dict) -> dict:
    """The whole report the binary must print for this case."""
    cfg = configure(case)
    split, words, max_n = case["split"], case["words"], case["max_n"]
    return {
        # typed figures keep the lesson's rules (issue 19), which the lesson's code is
        "assume": "lesson", "assumptions": AnyText(),
        "model": {"name": AnyText(), "type": "llama", "params": g.param_count(cfg), "weight_bytes": g.weight_bytes(cfg),
                  "stored_bytes": g.weight_bytes(cfg), "active_params": g.param_count(cfg),
                  "cache_bytes_per_token": g.kv_bytes_per_token(cfg), "experts": 0, "experts_per_token": 0, "window": 0,
                  "note": "", "bits": 0,
                  "layers": cfg["num_hidden_layers"], "hidden": cfg["hidden_size"], "heads": cfg["num_attention_heads"],
                  "kv_heads": cfg["num_key_value_heads"], "head_dim": g.head_dim(cfg)},
        "gpu": {"key": "lesson", "name": "Custom GPU", "arch": "ampere", "gib": float(g.GPU_GIB), "usable": g.USABLE,
                "usable_bytes": g.USABLE_BYTES, "bandwidth": g.GPU_BANDWIDTH, "flops": g.GPU_FLOPS},
        "link": {"key": "fast", "name": "Custom link", "kind": "nvlink", "bandwidth": case["link_bw"],
                 "step_us": case["step_us"], "base_us": g.BASE_US},
        "between": AnyValue(), "per_server": None, "chat_tokens": 8192, "cache_bits": 16, "cache_per_chat": False,
        "nccl": "lesson", "overlap": False, "read_cache": False, "divide_heads": False, "in_flight": 1, "replicas": 1, "gpu_hour": None, "max_n": max_n,
        # the lesson cuts every weight, experts too (issue 21's --experts slices)
        "expert_layout": "slices",
        "split": split, "words": words, "fewest": fewest(max_n), "best": best(split, words, max_n),
        "best_dividing_heads": best(split, words, max_n, cfg["num_attention_heads"]),
        "rows": [row(n, split, words) for n in case["counts"]],
        # achieved efficiency off: the data sheet's peaks, as the lesson prices (issue 19)
        "efficiency": {"from": None, "bandwidth_share": 0, "layer_us": 0, "flops_share": 0, "allreduce_us": 0, "step_us": 0,
                       "request_us": 0},
        "prompt_tokens": None,
    }


def self_check() -> None:
    """Stop if the oracle no longer gives the lesson's own figures for 70B on the fast link."""
    case = lesson_case("70B", "fast", "slices", 1)
    report = expected(case)
    four = report["rows"][case["counts"].index(4)]
    checks = {
        "70B x4 memory total 37508222976 bytes": four["memory"]["total"] == 37508222976,
        "70B x4 word time 18.94 ms": f"{four['time']['total'] * 1e3:.2f}" == "18.94",
        "70B x4 waiting share 8.7%": f"{four['time']['share'] * 100:.1f}" == "8.7",
        "70B fewest GPUs 2, as least_n": report["fewest"] == g.least_n(KEY) == 2,
        "70B best count 19, as best_n": report["best"] == g.best_n(KEY, LINK) == 19,
        "70B best count dividing heads 16, as best_n":
            report["best_dividing_heads"] == g.best_n(KEY, LINK, divide_heads=True) == 16,
    }
    broken = [what for what, ok in checks.items() if not ok]
    if broken:
        sys.exit("check_report: the oracle is broken: " + "; ".join(broken))


# ---------- running and comparing

def command(binary: str, model_path: str, case: dict) -> list:
    """The report command line; floats as repr() so they round-trip."""
    flags = {"--model": model_path, "--gpu-gib": repr(case["gpu_gib"]), "--usable": repr(case["usable"]),
             "--gpu-bw": repr(case["gpu_bw"]), "--gpu-flops": repr(case["gpu_flops"]), "--link-bw": repr(case["link_bw"]),
             "--step-us": repr(case["step_us"]), "--base-us": repr(case["base_us"]), "--split": case["split"],
             "--words": str(case["words"]), "--counts": ",".join(map(str, case["counts"])), "--max-n": str(case["max_n"])}
    return [binary, "report", "--json"] + [part for flag, value in flags.items() for part in (flag, value)]


def is_number(x) -> bool:
    """A JSON number: int or float, but not a boolean."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def same_scalar(got, want) -> bool:
    """Booleans, integers, strings and null exactly (type included); floats to REL_TOL relative, 0 exactly."""
    if isinstance(want, AnyText):
        return isinstance(got, str) and got != ""
    if isinstance(want, float):
        return is_number(got) and (got == want if want == 0 else abs(got - want) <= REL_TOL * abs(want))
    return type(got) is type(want) and got == want


def mismatches(got, want, field: str = "(report)"):
    """Yield (field, got, expected) for every difference between the binary's JSON and the expected report."""
    if isinstance(want, AnyValue):
        return
    if isinstance(want, dict):
        if not isinstance(got, dict):
            yield field, got, want
            return
        inner = "" if field == "(report)" else field + "."
        for key in want:
            if key not in got:
                yield inner + key, "(missing)", want[key]
            else:
                yield from mismatches(got[key], want[key], inner + key)
        for key in sorted(got.keys() - want.keys()):
            yield inner + key, got[key], "(no such field)"
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            yield field + " (length)", len(got) if isinstance(got, list) else got, len(want)
            return
        for i, (a, b) in enumerate(zip(got, want)):
            yield from mismatches(a, b, f"{field}[{i}]")
    elif not same_scalar(got, want):
        yield field, got, want


def run_case(binary: str, workdir: Path, case: dict) -> list:
    """Run the binary on one case; return the problems found (empty if it passed)."""
    model_path = workdir / "config.json"
    model_path.write_text(json.dumps(case["config"], indent=1), encoding="utf-8")
    try:
        run = subprocess.run(command(binary, str(model_path), case), capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as err:
        return [("(run)", str(err), "a report")]
    if run.returncode != 0:
        return [("(exit status)", f"{run.returncode}, stderr: {run.stderr.strip()}", 0)]
    try:
        got = json.loads(run.stdout)
    except json.JSONDecodeError as err:
        return [("(stdout)", f"not one JSON object: {err}", "one JSON object")]
    return list(mismatches(got, expected(case)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="the built gpusplit, e.g. build/gpusplit")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random cases")
    parser.add_argument("--count", type=int, default=300, help="how many random cases, besides the lesson's")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        print(f"check_report: {args.binary} is not an executable file", file=sys.stderr)
        return 1
    self_check()
    rng = Random(args.seed)
    cases = lesson_cases() + [random_case(rng, i) for i in range(args.count)]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="check_report.") as tmp:
        for case in cases:
            problems = run_case(args.binary, Path(tmp), case)
            if problems:
                failed += 1
                print(f"{case['label']}: {' '.join(command(args.binary, 'CONFIG', case)[1:])}")
                print(f"  CONFIG = {json.dumps(case['config'])}")
                for field, got, want in problems:
                    print(f"  {case['label']}: {field}: got {got!r}, expected {want!r}")
    print(f"check_report: {len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
