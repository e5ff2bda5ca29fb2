/* A link fitted to measured all-reduces. The model's form is the lesson's: time =
 * latency + bytes x 2(n-1)/n / bandwidth. NCCL changes protocol with the size (LL, LL128,
 * Simple: csrc/core/nccl.c), and each protocol has its own latency and bandwidth, so the sizes
 * are cut into regimes, each fitted on its own.
 * - Each regime is fitted by weighted least squares on relative error: the sum over its
 *   rows of ((latency + x bytes' share / bandwidth - t) / t)^2 is least, a 2 x 2 linear
 *   system in closed form. A fit whose bandwidth term comes out negative (times that do
 *   not grow with size) keeps the latency alone and has no bandwidth; one whose latency
 *   comes out negative keeps the bandwidth alone.
 * - The breaks are found from the data: of every way to cut the sorted sizes into 1, 2 or
 *   3 runs of at least GS_REGIME_MIN_ROWS rows, the one with the least summed squared
 *   relative error (by dynamic programming); a further break is kept only when it halves
 *   that error and the fit without it misses by more than GS_REGIME_NOISE (1%, root mean
 *   square), below which a break would fit the timer's noise. Three, because NCCL has three
 *   protocols.
 * Only + - * / and one sqrt, which IEEE 754 rounds exactly on every machine. */
#include <math.h>
#include <string.h>

#include "internal.h"

typedef struct {
  double latency_s, seconds_per_byte, sse; /* seconds_per_byte 0: no bandwidth */
} line_fit;

/* The bytes each GPU sends in an all-reduce of `bytes` over n GPUs, 2(n-1)/n of them. */
static double sent(uint64_t bytes, uint64_t n) { return (double)(2 * (n - 1)) / (double)n * (double)bytes; }

static line_fit fit_rows(const gs_measured *m, size_t from, size_t to) {
  double sw = 0, sx = 0, sxx = 0, st = 0, sxt = 0, det;
  line_fit f;
  size_t i;
  for (i = from; i <= to; i++) {
    double t = m->rows[i].time_us * 1e-6, w = 1 / (t * t), x = sent(m->rows[i].bytes, m->gpus);
    sw += w;
    sx += w * x;
    sxx += w * x * x;
    st += w * t;
    sxt += w * x * t;
  }
  det = sw * sxx - sx * sx;
  f.seconds_per_byte = det > 0 ? (sw * sxt - sx * st) / det : 0;
  f.latency_s = (st - f.seconds_per_byte * sx) / sw;
  /* a bandwidth above the most a link may carry (1e16 bytes a second, core/checks.c) is no
   * growth the times can show: the regime keeps its latency alone, as when the slope is
   * negative, and no figure of 40 digits reaches a column */
  if (f.seconds_per_byte < 1 / GS_FIT_MAX_BANDWIDTH || !(det > 0)) {
    f.seconds_per_byte = 0;
    f.latency_s = st / sw;
  } else if (f.latency_s < 0) {
    f.latency_s = 0;
    f.seconds_per_byte = sxt / sxx;
  }
  f.sse = 0;
  for (i = from; i <= to; i++) {
    double t = m->rows[i].time_us * 1e-6, r = (f.latency_s + f.seconds_per_byte * sent(m->rows[i].bytes, m->gpus) - t) / t;
    f.sse += r * r;
  }
  return f;
}

int gs_fit_measured(const gs_measured *m, gs_fit *out, gs_error *err) {
  /* best[k][j]: the least error of rows 0..j in k+1 regimes; cut[k][j]: where the last begins */
  double best[3][GS_MEASURED_MAX];
  size_t cut[3][GS_MEASURED_MAX];
  size_t n = m->count, j, i, k, regimes = 1, ends[3];
  memset(out, 0, sizeof *out);
  if (m->gpus < 2) return gs_fail(err, GS_ERR_RANGE, "", "a fit needs 2 or more GPUs");
  if (n < GS_REGIME_MIN_ROWS)
    return gs_fail(err, GS_ERR_SHAPE, "", "has %zu rows; a fit needs at least %d", n, GS_REGIME_MIN_ROWS);
  for (k = 0; k < 3; k++)
    for (j = 0; j < n; j++) {
      best[k][j] = -1;
      if (k == 0) {
        if (j + 1 >= GS_REGIME_MIN_ROWS) best[0][j] = fit_rows(m, 0, j).sse;
        cut[0][j] = 0;
        continue;
      }
      for (i = GS_REGIME_MIN_ROWS * k; i + GS_REGIME_MIN_ROWS <= j + 1; i++) {
        double e;
        if (best[k - 1][i - 1] < 0) continue;
        e = best[k - 1][i - 1] + fit_rows(m, i, j).sse;
        if (best[k][j] < 0 || e < best[k][j]) {
          best[k][j] = e;
          cut[k][j] = i;
        }
      }
    }
  for (k = 1; k < 3; k++)
    if (best[k][n - 1] >= 0 && best[k][n - 1] <= 0.5 * best[regimes - 1][n - 1] &&
        best[regimes - 1][n - 1] / (double)n > GS_REGIME_NOISE * GS_REGIME_NOISE)
      regimes = k + 1;
    else break;
  /* walk the cuts back from the last row */
  ends[regimes - 1] = n - 1;
  for (k = regimes - 1; k > 0; k--) ends[k - 1] = cut[k][ends[k]] - 1;
  out->gpus = m->gpus;
  out->count = regimes;
  for (k = 0; k < regimes; k++) {
    size_t from = k == 0 ? 0 : ends[k - 1] + 1;
    line_fit f = fit_rows(m, from, ends[k]);
    gs_regime *r = &out->regimes[k];
    r->from_bytes = m->rows[from].bytes;
    r->to_bytes = m->rows[ends[k]].bytes;
    r->rows = ends[k] - from + 1;
    r->latency_us = f.latency_s * 1e6;
    r->bandwidth = f.seconds_per_byte > 0 ? 1 / f.seconds_per_byte : 0;
    r->rms_rel_error = sqrt(f.sse / (double)r->rows);
    if (r->bandwidth > 0 && r->bandwidth < GS_FIT_MIN_BANDWIDTH)
      return gs_fail(err, GS_ERR_RANGE, "",
                     "the regime of %llu to %llu bytes fits a bandwidth below 1e6 bytes a second, less than any link carries: "
                     "not an all-reduce's times",
                     (unsigned long long)r->from_bytes, (unsigned long long)r->to_bytes);
  }
  return GS_OK;
}

static double regime_us(const gs_regime *r, uint64_t bytes, uint64_t n) {
  return r->latency_us + (r->bandwidth > 0 ? sent(bytes, n) / r->bandwidth * 1e6 : 0);
}

/* The regime a size falls in; between two regimes' sizes, the one that predicts less (as
 * NCCL takes the cheaper protocol); beyond the ends, the nearest. */
const gs_regime *gs_fit_regime(const gs_fit *f, uint64_t bytes) {
  size_t k;
  if (bytes <= f->regimes[0].to_bytes) return &f->regimes[0];
  for (k = 1; k < f->count; k++) {
    if (bytes < f->regimes[k].from_bytes) {
      const gs_regime *a = &f->regimes[k - 1], *b = &f->regimes[k];
      return regime_us(a, bytes, f->gpus) <= regime_us(b, bytes, f->gpus) ? a : b;
    }
    if (bytes <= f->regimes[k].to_bytes) return &f->regimes[k];
  }
  return &f->regimes[f->count - 1];
}

double gs_fit_predict_us(const gs_fit *f, uint64_t bytes) { return regime_us(gs_fit_regime(f, bytes), bytes, f->gpus); }

/* The fitted regime holding `bytes`, as a link for any GPU count: its bandwidth, NCCL's
 * ring base latency (6.6 us) held, and the step latency solved from the fitted latency,
 * latency = base + 2(n-1) x step. A fitted latency below the base keeps the base at the
 * fitted latency and the step at 0. */
int gs_fit_link(const gs_fit *f, uint64_t bytes, int kind, gs_link *out, gs_error *err) {
  const gs_regime *r = gs_fit_regime(f, bytes);
  double base = 6.6;
  memset(out, 0, sizeof *out);
  if (!(r->bandwidth > 0))
    return gs_fail(err, GS_ERR_SHAPE, "", "the regime of %llu to %llu bytes, which holds %llu, shows no bandwidth: its times do not grow with size",
                   (unsigned long long)r->from_bytes, (unsigned long long)r->to_bytes, (unsigned long long)bytes);
  out->kind = kind;
  out->bandwidth = r->bandwidth;
  if (r->latency_us >= base) {
    out->base_us = base;
    out->step_us = (r->latency_us - base) / gs_ring_steps(f->gpus);
  } else {
    out->base_us = r->latency_us;
    out->step_us = 0;
  }
  return gs_link_check(out, err);
}
