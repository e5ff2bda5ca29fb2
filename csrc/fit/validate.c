/* What `gpusplit validate` measures, as numbers the command line prints: a table's measured
 * all-reduces against the model three ways, and each decode run priced at the peaks, with
 * its engine's figures and with every engine's pooled, its errors kept and their medians by
 * source or by GPU (fit.h). */
#include <string.h>

#include "fit/fit.h"

/* The sizes validate compares: 8 KiB to 1 MiB. */
static int in_range(uint64_t bytes) { return bytes >= 8192 && bytes <= 1048576; }

int fit_allreduce_errors(const gs_measured *m, uint64_t gpus, const gs_link *lesson, const gs_gpu *gpu, const gs_link *link,
                         fit_ar_error out[FIT_AR_WAYS], gs_error *err) {
  double e[FIT_AR_WAYS][GS_MEASURED_MAX];
  size_t n[FIT_AR_WAYS] = {0, 0, 0}, i, k;
  gs_measured half = *m;
  gs_fit fit;
  int rc;
  half.count = 0;
  for (i = 0; i < m->count; i += 2) half.rows[half.count++] = m->rows[i];
  if ((rc = gs_fit_measured(&half, &fit, err)) != GS_OK) return rc;
  for (i = 0; i < m->count; i++) {
    const gs_measured_row *row = &m->rows[i];
    gs_ring r = {.gpus = gpus, .servers = 1, .intra = lesson, .nccl = GS_NCCL_LESSON};
    int protocol;
    if (!in_range(row->bytes)) continue;
    e[0][n[0]++] = fit_rel(gs_ring_allreduce(row->bytes, &r, &protocol) * 1e6, row->time_us);
    if (gpu) {
      r.intra = link;
      r.arch = gpu->arch;
      r.nccl = GS_NCCL_AUTO;
      e[1][n[1]++] = fit_rel(gs_ring_allreduce(row->bytes, &r, &protocol) * 1e6, row->time_us);
    }
    if (i % 2 == 1) e[2][n[2]++] = fit_rel(gs_fit_predict_us(&fit, row->bytes), row->time_us);
  }
  for (k = 0; k < FIT_AR_WAYS; k++) {
    out[k].n = n[k];
    out[k].median = fit_median(e[k], n[k]); /* sorts them, so the worst is the last */
    out[k].worst = n[k] ? e[k][n[k] - 1] : 0;
  }
  return GS_OK;
}

int fit_validate_run(const priced_run *p, const fit_result *fr, fit_validated *v, left_out_error *e) {
  gs_efficiency own, med, off = {0};
  memset(v, 0, sizeof *v);
  e->own = e->any = e->peak = e->first = -1;
  if (!p->ok || !gs_efficiency_pick(fr, "", p->s.generation, &med)) return 0;
  v->has_own = gs_efficiency_pick(fr, p->s.engine, p->s.generation, &own) != NULL;
  if (!v->has_own) own = med;
  v->measured = p->run->itl_ms * 1e-3;
  v->peak = fit_predict(p, &off, 0);
  v->with = fit_predict(p, &own, 0);
  v->without = fit_predict(p, &med, 0);
  if (v->has_own) e->own = fit_rel(v->with, v->measured);
  e->peak = fit_rel(v->peak, v->measured);
  e->any = fit_rel(v->without, v->measured);
  if (p->run->ttft_ms > 0 && p->run->input_tokens > 0) {
    v->first = fit_predict(p, &own, 1);
    v->first_measured = p->run->ttft_ms * 1e-3;
    e->first = fit_rel(v->first, v->first_measured);
  }
  return 1;
}

static const char *key_of(const priced_run *p, int by) {
  return by == FIT_BY_SOURCE ? p->run->source : by == FIT_BY_GPU ? p->s.gpu_key : "all";
}

int fit_medians_next(const priced_run *p, const left_out_error *e, size_t n, int by, size_t *at, fit_medians *out) {
  double col[4][GS_RUNS_MAX];
  size_t i, j, k;
  for (i = *at; i < n; i++) {
    const char *key = key_of(&p[i], by);
    if (e[i].any < 0) continue;
    for (j = 0; j < i && (e[j].any < 0 || strcmp(key_of(&p[j], by), key) != 0); j++) {}
    if (j < i) continue; /* a key already given */
    memset(out, 0, sizeof *out);
    out->key = key;
    for (j = i; j < n; j++) {
      if (e[j].any < 0 || strcmp(key_of(&p[j], by), key) != 0) continue;
      col[0][out->n[0]++] = e[j].peak;
      if (e[j].own >= 0) col[1][out->n[1]++] = e[j].own;
      col[2][out->n[2]++] = e[j].any;
      if (e[j].first >= 0) col[3][out->n[3]++] = e[j].first;
    }
    for (k = 0; k < 4; k++) out->median[k] = fit_median(col[k], out->n[k]);
    *at = i + 1;
    return 1;
  }
  *at = n;
  return 0;
}
