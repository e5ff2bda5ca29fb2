/* The serving runs priced and fitted as `gpusplit validate --serving` and `gpusplit fit
 * --serving` show them (issue 29 item 7): every mapped row priced with a fit's figures,
 * the medians of |error| over a set of rows, a fitted source left out, and
 * data/serving.json's text. The command line reads the file and prints; the sums are here. */
#include <string.h>

#include "emit/json.h"
#include "fit/fit.h"

size_t fit_serving_map(fit_serving_work *w) {
  size_t i, cap = 1;
  for (i = 0; i < w->runs->count; i++)
    if (fit_serving_row(&w->runs->rows[i], &w->rows[i]) && w->rows[i].load.requests > cap) cap = (size_t)w->rows[i].load.requests;
  return cap;
}

void fit_serving_price_all(fit_serving_work *w, const fit_serving_result *fits) {
  size_t i;
  for (i = 0; i < w->runs->count; i++) {
    gs_error err;
    serving_row *r = &w->rows[i];
    memset(&w->priced[i], 0, sizeof w->priced[i]);
    gs_serving_fit picked;
    const gs_serving_fit *fig = NULL;
    double request_us = 0;
    if (!r->ok) continue;
    if (fits && (fig = gs_serving_pick(fits->f, fits->count, &r->engine, &request_us)) != NULL) {
      picked = *fig; /* the engine's step figures and its front end's, as serve takes them (engine.c) */
      picked.request_us = request_us;
      fig = &picked;
    }
    if (fit_serving_price(r, fig, &w->sp, &w->priced[i], &err) != GS_OK) {
      r->ok = 0;
      gs_format(r->why, sizeof r->why, "refused: %s: %s", err.field, err.what);
    }
  }
}

static int kept(const serving_row *r, int keep, const char *source) {
  return keep == FIT_KEEP_FITTED ? r->fitted : keep == FIT_KEEP_HELD ? !r->fitted : strcmp(r->run->source, source) == 0;
}

size_t fit_serving_median(const fit_serving_work *w, int k, int keep, const char *source, double *median) {
  double e[GS_SERVING_RUNS_MAX];
  size_t i, n = 0;
  for (i = 0; i < w->runs->count; i++)
    if (w->priced[i].ok && w->priced[i].has[k] && kept(&w->rows[i], keep, source))
      e[n++] = w->priced[i].error[k] < 0 ? -w->priced[i].error[k] : w->priced[i].error[k];
  *median = n ? fit_median(e, n) : 0;
  return n;
}

int fit_serving_all(fit_serving_work *w, const char *left_out, fit_serving_result *fits, gs_error *err) {
  size_t i;
  int rc;
  for (i = 0; i < w->runs->count; i++)
    w->use[i] = w->rows[i].in_fit && (!left_out || strcmp(w->runs->rows[i].source, left_out) != 0);
  if ((rc = fit_serving(w->rows, w->use, w->runs->count, &w->sp, fits, err)) != GS_OK) return rc;
  fit_serving_price_all(w, fits);
  return GS_OK;
}

/* 1 when two rows are the same source, engine, model, GPU and load (lengths, concurrency or
 * arrival rate, and bits). */
static int same_load(const serving_row *a, const serving_row *b) {
  const gs_serving_run *x = a->run, *y = b->run;
  return strcmp(x->source, y->source) == 0 && a->engine.kind == b->engine.kind && strcmp(a->model_key, b->model_key) == 0 &&
         strcmp(a->gpu_key, b->gpu_key) == 0 && x->input_tokens == y->input_tokens && x->output_tokens == y->output_tokens &&
         x->concurrency == y->concurrency && x->rate == y->rate && x->weight_bits == y->weight_bits && x->kv_bits == y->kv_bits;
}

/* 1 when two rows are the same source, engine, model, GPU and load in different layouts. */
static int same_but_layout(const serving_row *a, const serving_row *b) {
  int layout = a->plan.gpus != b->plan.gpus || a->plan.split != b->plan.split || a->plan.experts != b->plan.experts ||
               a->plan.attention != b->plan.attention || a->replicas != b->replicas ||
               a->disagg.prefill != b->disagg.prefill || a->disagg.decode != b->disagg.decode;
  return layout && same_load(a, b);
}

/* 1 when row i has its output tokens a second priced and keep takes it. */
static int compared(const fit_serving_work *w, size_t i, int keep, const char *source) {
  return w->priced[i].ok && w->priced[i].has[FIT_TPUT] && kept(&w->rows[i], keep, source);
}

/* Output tokens a second a GPU: the row's measured (priced 0) or priced (1). */
static double per_gpu(const fit_serving_work *w, size_t i, int priced) {
  const serving_row *r = &w->rows[i];
  double gpus = (double)(r->plan.gpus * (r->disagg.prefill ? r->disagg.prefill + r->disagg.decode : r->replicas));
  return (priced ? w->priced[i].value[FIT_TPUT] : r->run->throughput) / gpus;
}

size_t fit_serving_pairs(const fit_serving_work *w, int keep, const char *source, size_t *ordered) {
  size_t i, j, n = 0;
  *ordered = 0;
  for (i = 0; i < w->runs->count; i++) {
    if (!compared(w, i, keep, source)) continue;
    for (j = i + 1; j < w->runs->count; j++) {
      double measured, priced;
      if (!compared(w, j, keep, source) || !same_but_layout(&w->rows[i], &w->rows[j])) continue;
      measured = per_gpu(w, i, 0) - per_gpu(w, j, 0);
      priced = per_gpu(w, i, 1) - per_gpu(w, j, 1);
      if (measured == 0) continue;
      n++;
      *ordered += (measured > 0) == (priced > 0);
    }
  }
  return n;
}

size_t fit_serving_choices(const fit_serving_work *w, int keep, const char *source, size_t *within) {
  size_t i, j, groups = 0;
  *within = 0;
  for (i = 0; i < w->runs->count; i++) {
    size_t chosen = i, best = i, layouts = 0;
    int first = compared(w, i, keep, source);
    for (j = 0; first && j < i; j++) first = !(compared(w, j, keep, source) && same_load(&w->rows[i], &w->rows[j]));
    if (!first) continue; /* each group once, at its first row */
    for (j = i + 1; j < w->runs->count; j++) {
      if (!compared(w, j, keep, source) || !same_load(&w->rows[i], &w->rows[j])) continue;
      layouts += same_but_layout(&w->rows[i], &w->rows[j]) ? 1 : 0;
      if (per_gpu(w, j, 1) > per_gpu(w, chosen, 1)) chosen = j;
      if (per_gpu(w, j, 0) > per_gpu(w, best, 0)) best = j;
    }
    if (layouts == 0) continue;
    groups++;
    if (per_gpu(w, chosen, 0) >= 0.95 * per_gpu(w, best, 0)) (*within)++;
  }
  return groups;
}

/* Appends to e the |error| of figure k of w's priced held-out rows; the new count. */
static size_t held_errors(const fit_serving_work *w, int k, double *e, size_t n) {
  size_t i;
  for (i = 0; w && i < w->runs->count; i++)
    if (w->priced[i].ok && w->priced[i].has[k] && !w->rows[i].fitted)
      e[n++] = w->priced[i].error[k] < 0 ? -w->priced[i].error[k] : w->priced[i].error[k];
  return n;
}

/* The held-out rows' median of figure k over w and more as "12.3% (4)", or "-" when no row gives it. */
static const char *median_text(char *buf, size_t cap, const fit_serving_work *w, const fit_serving_work *more, int k) {
  static double e[2 * GS_SERVING_RUNS_MAX];
  char a[GS_FIGURE_CAP];
  size_t n = held_errors(more, k, e, held_errors(w, k, e, 0));
  if (n == 0) return "-";
  gs_format(buf, cap, "%s%% (%zu)", gs_fixed(a, sizeof a, fit_median(e, n) * 100, 1), n);
  return buf;
}

void fit_serving_summary(char *buf, size_t cap, const fit_serving_work *w, const fit_serving_work *more, const char *more_name) {
  char a[64], b[64], c[64], also[96] = "", sources[96];
  size_t i, n = 0;
  const char *base = more_name ? strrchr(more_name, '/') : NULL;
  base = base ? base + 1 : more_name;
  for (i = 0; i < w->runs->count; i++) n += (size_t)w->use[i];
  if (more) gs_format(also, sizeof also, " (the other sources' and %s's)", base && strlen(base) <= 64 ? base : "the --held-out file");
  gs_format(buf, cap,
            "fitted to %zu measured serving runs of %s (tensor parallel and pipelines); held out%s, median |error| "
            "(runs): time per output token %s, output tokens a second %s, first token %s",
            n, fit_serving_sources_text(sources, sizeof sources), also,
            median_text(a, sizeof a, w, more, FIT_TPOT), median_text(b, sizeof b, w, more, FIT_TPUT),
            median_text(c, sizeof c, w, more, FIT_TTFT));
}

const char *fit_serving_engine_label(int kind) {
  return kind < 0 ? "any" : kind == GS_ENGINE_TRTLLM ? "trt-llm" : gs_engine_name(kind);
}

void fit_serving_json(const gs_out *o, const fit_serving_result *fits, const char *summary) {
  size_t i;
  gs_out_text(o, "{\"_source\":\"gpusplit fit --serving tests/measured/serving-runs.csv --more tests/measured/serving-fit-gathered.csv --held-out tests/measured/serving-gathered.csv --json: each engine's served-step figures "
                 "fitted to the fitted sources' rows (csrc/fit/serve_fit.c: a coordinate search over a grid minimising the mean "
                 "|log error|, sources weighted alike); make test-reference checks this file equals the fit\",\"summary\":");
  gs_out_json_string(o, summary);
  gs_out_text(o, ",\"figures\":[");
  for (i = 0; i < fits->count; i++) {
    const gs_serving_fit *f = &fits->f[i];
    gs_out_format(o, "%s{\"engine\":\"%s\",\"flops_share\":", i ? "," : "", fit_serving_engine_label(f->kind));
    gs_out_double(o, f->flops_share);
    gs_out_text(o, ",\"seq_us\":");
    gs_out_double(o, f->seq_us);
    gs_out_text(o, ",\"overlap_share\":");
    gs_out_double(o, f->overlap_share);
    gs_out_text(o, ",\"request_us\":");
    gs_out_double(o, f->request_us);
    gs_out_format(o, ",\"rows\":%llu}", (unsigned long long)f->rows);
  }
  gs_out_text(o, "]}\n");
}
