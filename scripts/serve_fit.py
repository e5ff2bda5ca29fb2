#!/usr/bin/env python3
"""The serving fit (issue 29, item 7): per engine, the figures serve cannot take from a
data sheet, fitted to the fitted sources of tests/measured/serving-runs.csv only
(tests/measured/serving-runs-README.md names them; the held-out sources never enter).

Usage: scripts/serve_fit.py BINARY [--write]   (--write: data/serving.json)

Fitted, for each engine whose rows the fitted sources hold, by a grid search that
minimises the mean |log(priced / measured)| over every figure a row gives (output tokens
a second, and time per output token and to the first token where measured), each
source weighted alike:
- flops_share: the achieved share of the GPU's FLOP/s of a served step (--step-flops-share);
- seq_us: the engine's host time a step for each sequence it holds (--seq-us);
- overlap_share: busy = max(read, compute) + share x min (--overlap-share).
Rows served by pipelines are priced but not fitted: serve's pipeline runs one group at a
time (no micro-batches in flight), a missing mechanism no figure should absorb.
Every figure comes from the C (gpusplit serve --json); this script only searches.
"""
import csv
import json
import math
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import serve_compare as sc  # noqa: E402

FLOPS = (0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
SEQ_US = (0, 10, 25, 50, 100, 150, 200, 300)
OVERLAP = (0, 0.5, 1)
GRIDS = (FLOPS, SEQ_US, OVERLAP)


def extra_of(fig):
    return ["--step-flops-share", str(fig[0]), "--seq-us", str(fig[1]), "--overlap-share", str(fig[2])]


def loss(binary, rows, fig):
    """Mean over sources of the mean |log(priced / measured)| of every figure a row gives."""
    priced = sc.price(binary, rows, extra_of(fig))
    by_source = {}
    for row, flags, d in priced:
        if not flags:
            continue
        for e in sc.errors_of(row, d).values():
            by_source.setdefault(sc.source_of(row), []).append(abs(math.log(1 + e)))
    return statistics.mean(statistics.mean(v) for v in by_source.values()) if by_source else math.inf


def fit(binary, rows):
    """Coordinate descent over the grids from (0.5, 0, 0), three rounds: (loss, figures)."""
    fig, best = [0.5, 0, 0], math.inf
    for _ in range(3):
        for k, grid in enumerate(GRIDS):
            tries = [fig[:k] + [v] + fig[k + 1:] for v in grid]
            with ThreadPoolExecutor(2) as pool:
                losses = list(pool.map(lambda g: loss(binary, rows, g), tries))
            l, fig = min(zip(losses, tries))
            best = min(best, l)
    return best, tuple(fig)


def fit_rows(rows, sources):
    """The rows of these sources serve prices, pipelines left out (see above)."""
    return [r for r in rows if sc.source_of(r) in sources and sc.flags_of(r)[0] and "groups" not in sc.flags_of(r)[0]]


def fits_of(binary, rows, sources):
    """{engine: (loss, figures, rows)} for each engine the rows hold, and "any" pooled."""
    chosen = fit_rows(rows, sources)
    out = {}
    for r in chosen:
        out.setdefault(sc.engine_of(r["software"]), []).append(r)
    fits = {e: fit(binary, mine) + (len(mine),) for e, mine in sorted(out.items())}
    if chosen:
        fits["any"] = fit(binary, chosen) + (len(chosen),)
    return fits


def priced_with(binary, rows, fits):
    """Each row priced with its engine's fit (the pooled one for an engine not fitted)."""
    out = []
    for r in rows:
        e = sc.engine_of(r["software"])
        fig = fits.get(e, fits["any"])[1] if e else None
        out += sc.price(binary, [r], extra_of(fig) if fig else [])
    return out


def main():
    binary = sys.argv[1]
    rows = list(csv.DictReader(open("tests/measured/serving-runs.csv", encoding="utf-8")))
    fits = fits_of(binary, rows, sc.FITTED)
    for e, (l, fig, n) in fits.items():
        print(f"{e}: {n} rows, flops_share {fig[0]}, seq_us {fig[1]}, overlap_share {fig[2]}; mean |log error| {l:.3f}")
    fitted = priced_with(binary, rows, fits)
    print("Fitted sources, their own fit:")
    print("\n".join(sc.summary(fitted, lambda r: sc.source_of(r) in sc.FITTED)))
    for left in sc.FITTED:
        others = fits_of(binary, rows, [s for s in sc.FITTED if s != left])
        print(f"{left} priced with a fit to the others only:")
        print("\n".join(sc.summary(priced_with(binary, rows, others), lambda r, left=left: sc.source_of(r) == left)))
    print("Held-out sources:")
    print("\n".join(sc.summary(fitted, lambda r: sc.source_of(r) not in sc.FITTED)))
    if "--write" in sys.argv:
        write(fits, fitted)


def write(fits, fitted):
    held = [(r, d) for r, f, d in fitted if f and sc.source_of(r) not in sc.FITTED]
    tput = [abs(sc.errors_of(r, d)["output_tokens_per_s"]) for r, d in held]
    n_fit = sum(1 for r, f, d in fitted if f and sc.source_of(r) in sc.FITTED and "groups" not in f)
    summary = (f"fitted to {n_fit} measured serving runs ({', '.join(sc.FITTED)}); held out "
               f"({len(held)} runs of {', '.join(sorted({sc.source_of(r) for r, d in held}))}): output tokens a second "
               f"median |error| {100 * statistics.median(tput):.0f}%, no held-out time per token or first token priced")
    doc = {"_source": "scripts/serve_fit.py build/gpusplit --write: the serving figures of each engine fitted to the fitted "
                      "sources of tests/measured/serving-runs.csv (its README), pipelines left out; coordinate descent "
                      "over a grid minimising the mean |log error| of each row's figures, sources weighted alike",
           "summary": summary,
           "figures": [{"engine": e, "flops_share": fig[0], "seq_us": fig[1], "overlap_share": fig[2], "rows": n,
                        "mean_abs_log_error": round(l, 4)} for e, (l, fig, n) in fits.items()]}
    with open("data/serving.json", "w", encoding="utf-8") as f:
        json.dump(doc, f)
        f.write("\n")
    print(summary)


if __name__ == "__main__":
    main()
