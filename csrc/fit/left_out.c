/* Runs never seen: each source's runs priced with figures fitted on every other source's
 * runs (`fit --leave-source-out`, `validate --leave-source-out`; fit.h). */
#include <stdlib.h>
#include <string.h>

#include "fit/fit.h"

/* Whether run i is its source's first priced run the fit uses: one per source, whatever
 * its tag's length or the number of sources. */
static int first_of_source(const gs_runs *runs, const priced_run *p, size_t i) {
  size_t k;
  if (!p[i].ok || fit_excluded(&p[i])) return 0;
  for (k = 0; k < i; k++)
    if (p[k].ok && !fit_excluded(&p[k]) && strcmp(runs->rows[k].source, runs->rows[i].source) == 0) return 0;
  return 1;
}

int fit_left_out_bound(const gs_runs *runs, const priced_run *p, gs_error *err) {
  size_t i, sources = 0;
  for (i = 0; i < runs->count; i++) sources += (size_t)first_of_source(runs, p, i);
  if (sources <= FIT_LEFT_OUT_MAX_SOURCES) return GS_OK;
  return gs_fail(err, GS_ERR_RANGE, "leave-source-out", "--leave-source-out takes runs of at most %d sources (each is a fit again), and this file's priced runs have %zu",
                 FIT_LEFT_OUT_MAX_SOURCES, sources);
}

/* Runs never seen: for each source, the figures fitted again on every other source's runs
 * (the all-reduce start-up of fr kept), and that source's runs priced with them. For run i,
 * the |relative error| of its time per word with its engine's figures (own, -1 when the other
 * sources fit no such engine), with every engine's pooled (any), at the peaks, and of its
 * first word (first, -1 when it gives none). A run the fit leaves out or cannot price is -1
 * throughout. Fails when fewer than two sources are priced. */
int fit_left_out_errors(const gs_runs *runs, const priced_run *p, const ar_fit *ar, left_out_error *out) {
  size_t i, j, sources = 0;
  gs_runs *rest = malloc(sizeof *rest);
  priced_run *q = calloc(runs->count, sizeof *q);
  fit_result *fr = malloc(sizeof *fr);
  gs_error err;
  int rc = GS_OK;
  if (!rest || !q || !fr) rc = GS_ERR_TOO_LONG;
  for (i = 0; i < runs->count; i++) out[i].own = out[i].any = out[i].peak = out[i].first = -1;
  for (i = 0; i < runs->count; i++) sources += (size_t)first_of_source(runs, p, i);
  if (rc == GS_OK && sources < 2) rc = GS_ERR_SHAPE; /* no source can be left out: the caller says so */
  /* each source in turn, named by its first priced run's tag */
  for (j = 0; rc == GS_OK && j < runs->count; j++) {
    const char *left = runs->rows[j].source;
    if (!first_of_source(runs, p, j)) continue;
    rest->count = 0;
    for (i = 0; i < runs->count; i++)
      if (strcmp(runs->rows[i].source, left) != 0) rest->rows[rest->count++] = runs->rows[i];
    memset(fr, 0, sizeof *fr);
    fr->ar = *ar;
    if (fit_runs(rest, q, fr, &err) != GS_OK) continue;
    for (i = 0; i < runs->count; i++) {
      gs_efficiency own, any, off = {0};
      double t = p[i].run->itl_ms * 1e-3;
      int has_own;
      if (!p[i].ok || fit_excluded(&p[i]) || strcmp(runs->rows[i].source, left) != 0) continue;
      if (!gs_efficiency_pick(fr, "", p[i].s.generation, &any)) continue;
      has_own = gs_efficiency_pick(fr, p[i].s.engine, p[i].s.generation, &own) != NULL;
      out[i].any = fit_rel(fit_predict(&p[i], &any, 0), t);
      out[i].peak = fit_rel(fit_predict(&p[i], &off, 0), t);
      if (has_own) out[i].own = fit_rel(fit_predict(&p[i], &own, 0), t);
      if (p[i].run->ttft_ms > 0 && p[i].run->input_tokens > 0)
        out[i].first = fit_rel(fit_predict(&p[i], has_own ? &own : &any, 1), p[i].run->ttft_ms * 1e-3);
    }
  }
  free(rest);
  free(q);
  free(fr);
  return rc;
}

/* Each engine's left_out_error (and the pooled one's), from the runs' errors. */
void fit_note_left_out(const gs_runs *runs, const priced_run *p, const left_out_error *e, fit_result *fr) {
  double errs[GS_RUNS_MAX];
  size_t g, i, m;
  for (g = 0; g < fr->count; g++) {
    fit_figure *f = &fr->f[g];
    int pooled = strcmp(f->engine, ANY_ENGINE) == 0;
    f->left_out_error = -1;
    if (strcmp(f->generation, "all") != 0) continue;
    for (i = 0, m = 0; i < runs->count; i++) {
      double x = pooled ? e[i].any : e[i].own;
      if (x >= 0 && (pooled || strcmp(p[i].s.engine, f->engine) == 0)) errs[m++] = x;
    }
    if (m) f->left_out_error = fit_median(errs, m);
  }
}

