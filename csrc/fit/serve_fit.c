/* The serving fit (issue 29, item 7; formerly scripts/serve_fit.py, the same search): for
 * each engine whose rows the fitted sources hold, and for every such row pooled, the
 * figures a served step takes that no data sheet gives:
 * - flops_share: the achieved share of the GPU's FLOP/s of a served step (--step-flops-share);
 * - seq_us: the engine's host time a step for each sequence it holds (--seq-us);
 * - overlap_share: busy = max(read, compute) + share x min (--overlap-share);
 * - request_us: a request's time before the engine's scheduler takes it, its front end
 *   (--request-us, the decode fit's figure of the same name): the first token pays it, and
 *   only the rows that measure a first token can tell it (a tie keeps 0). Added 2026-12-07
 *   (docs/ACCURACY.md's rules), after reading the first tokens of fitted and held-out rows.
 * An engine of fewer than FIT_MIN_RUNS rows takes the pooled figures (fit_one).
 * A coordinate search over a grid of each, from (0.5, 0, 0, 0), three rounds of the step's
 * three, then the front end alone (fit_serving_search says why), minimising the
 * mean over sources of the mean |log(priced / measured)| of every figure a row gives
 * (output tokens a second, and time per output token and to the first token where
 * measured): each source weighted alike, an error of x2 and of /2 alike. A tie keeps the
 * smaller figure. */
#include <string.h>

#include "fit/fit.h"

static const double FLOPS[] = {0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
static const double SEQ_US[] = {0, 10, 25, 50, 100, 150, 200, 300};
static const double OVERLAP[] = {0, 0.5, 1};
static const double REQUEST_US[] = {0, 10000, 25000, 50000, 75000, 100000, 150000, 200000};
#define FIGURES 4
#define ROUNDS 3
#define MAX_SOURCES 64

static double *coordinate(gs_serving_fit *f, int k) {
  return k == 0 ? &f->flops_share : k == 1 ? &f->seq_us : k == 2 ? &f->overlap_share : &f->request_us;
}

/* Mean over sources of the mean |log(priced / measured)|; a row serve refuses is passed
 * over. A huge loss when no row prices. */
static double loss(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, const gs_serving_fit *fig) {
  const char *src[MAX_SOURCES];
  double sum[MAX_SOURCES] = {0}, count[MAX_SOURCES] = {0}, total = 0;
  size_t i, s, sources = 0;
  int k;
  for (i = 0; i < n; i++) {
    serving_priced p;
    gs_error err;
    if (!use[i] || fit_serving_price(&rows[i], fig, sp, &p, &err) != GS_OK) continue;
    for (s = 0; s < sources && strcmp(src[s], rows[i].run->source) != 0; s++) {}
    if (s == sources) {
      if (sources == MAX_SOURCES) continue;
      src[sources++] = rows[i].run->source;
    }
    for (k = 0; k < FIT_SERVING_FIGURES; k++) {
      double l;
      if (!p.has[k] || !(p.error[k] > -1)) continue;
      l = gs_log(1 + p.error[k]);
      sum[s] += l < 0 ? -l : l;
      count[s] += 1;
    }
  }
  for (s = 0; s < sources; s++) total += count[s] > 0 ? sum[s] / count[s] : 0;
  return sources ? total / (double)sources : 1e300;
}

/* The points already priced, so a later round does not simulate them again (the search
 * comes back to most of them): at most every point each round visits. */
#define COUNT(a) (sizeof a / sizeof a[0])
#define SEEN_MAX (ROUNDS * (COUNT(FLOPS) + COUNT(SEQ_US) + COUNT(OVERLAP) + COUNT(REQUEST_US)) + 1)
typedef struct {
  gs_serving_fit at[SEEN_MAX];
  double loss[SEEN_MAX];
  size_t n;
} seen;

static double loss_once(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, const gs_serving_fit *fig, seen *s) {
  size_t i;
  for (i = 0; i < s->n; i++)
    if (s->at[i].flops_share == fig->flops_share && s->at[i].seq_us == fig->seq_us &&
        s->at[i].overlap_share == fig->overlap_share && s->at[i].request_us == fig->request_us)
      return s->loss[i];
  if (s->n == SEEN_MAX) return loss(rows, use, n, sp, fig);
  s->at[s->n] = *fig;
  return s->loss[s->n++] = loss(rows, use, n, sp, fig);
}

/* Coordinate k of fig moved to the grid's point of least loss, the others kept; that loss. */
static double search_one(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, gs_serving_fit *fig, int k,
                         seen *s) {
  static const double *const GRID[FIGURES] = {FLOPS, SEQ_US, OVERLAP, REQUEST_US};
  static const size_t GRID_N[FIGURES] = {COUNT(FLOPS), COUNT(SEQ_US), COUNT(OVERLAP), COUNT(REQUEST_US)};
  gs_serving_fit t = *fig;
  double here = 1e300, keep = *coordinate(fig, k);
  size_t v;
  for (v = 0; v < GRID_N[k]; v++) {
    double l;
    *coordinate(&t, k) = GRID[k][v];
    l = loss_once(rows, use, n, sp, &t, s);
    if (l < here) here = l, keep = GRID[k][v];
  }
  *coordinate(fig, k) = keep;
  return here;
}

/* The step's three figures first, rounds of each in turn with no front end; then the front
 * end alone, to what the step's figures leave of the first tokens (it is not let move them). */
double fit_serving_search(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, gs_serving_fit *fig) {
  seen s;
  double best = 1e300, here;
  int round, k;
  s.n = 0;
  fig->flops_share = 0.5, fig->seq_us = 0, fig->overlap_share = 0, fig->request_us = 0;
  for (round = 0; round < ROUNDS; round++)
    for (k = 0; k < FIGURES - 1; k++)
      if ((here = search_one(rows, use, n, sp, fig, k, &s)) < best) best = here;
  if ((here = search_one(rows, use, n, sp, fig, FIGURES - 1, &s)) < best) best = here;
  return best;
}

/* One fit over the used rows of an engine kind (-1: all), appended to out. */
static void fit_one(const serving_row *rows, const int *use, size_t n, int kind, gs_serve_space *sp, fit_serving_result *out,
                    int *mine) {
  gs_serving_fit *f = &out->f[out->count];
  size_t i;
  uint64_t count = 0;
  for (i = 0; i < n; i++) {
    mine[i] = use[i] && (kind < 0 || rows[i].engine.kind == kind);
    count += (uint64_t)mine[i];
  }
  /* an engine of fewer rows takes the pooled figures, as the decode fit gives an engine of
   * fewer than FIT_MIN_RUNS runs every engine's pooled (fit_runs.c): three figures are not
   * fitted to one or two rows. Added 2026-12-07 (docs/ACCURACY.md's rules), when vLLM's fitted rows became one */
  if (count == 0 || (kind >= 0 && count < FIT_MIN_RUNS)) return;
  out->loss[out->count] = fit_serving_search(rows, mine, n, sp, f);
  f->kind = kind;
  f->rows = count;
  out->count++;
}

int fit_serving(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, fit_serving_result *out, gs_error *err) {
  /* the engines in the order of their names, as data/serving.json lists them */
  static const int ORDER[] = {GS_ENGINE_SGLANG, GS_ENGINE_TRTLLM, GS_ENGINE_VLLM};
  int mine[GS_SERVING_RUNS_MAX];
  size_t k;
  memset(out, 0, sizeof *out);
  if (n > GS_SERVING_RUNS_MAX) return gs_fail(err, GS_ERR_RANGE, "runs", "more than %d", GS_SERVING_RUNS_MAX);
  for (k = 0; k < sizeof ORDER / sizeof ORDER[0]; k++) fit_one(rows, use, n, ORDER[k], sp, out, mine);
  fit_one(rows, use, n, -1, sp, out, mine);
  if (out->count == 0) return gs_fail(err, GS_ERR_NONE_FITS, "runs", "no row of the fitted sources can be priced");
  return GS_OK;
}
