/* `gpusplit validate --runs`: the decode table of measured runs against the model, and each
 * source's runs priced with a fit that never saw them (fit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

/* `gpusplit validate --runs FILE`: each run the catalogue can price, predicted at the peaks,
 * with the figures of its engine (data/efficiency.json) and with every engine's pooled (as
 * when no engine is given), against the measured time; medians by source and by GPU. */
typedef struct {
  char key[64];
  double e[GS_RUNS_MAX], n[GS_RUNS_MAX], f[GS_RUNS_MAX], k[GS_RUNS_MAX];
  size_t ne, nn, nf, nk;
} err_bucket;

static err_bucket *bucket(err_bucket *b, size_t *count, size_t cap, const char *key) {
  size_t i;
  for (i = 0; i < *count; i++)
    if (strcmp(b[i].key, key) == 0) return &b[i];
  if (*count == cap) return NULL;
  memset(&b[*count], 0, sizeof b[0]);
  snprintf(b[*count].key, sizeof b[0].key, "%s", key);
  return &b[(*count)++];
}

static const char *pct(char *buf, size_t cap, double *e, size_t n) {
  char a[GS_FIGURE_CAP];
  if (n == 0) return "-";
  snprintf(buf, cap, "%s%% (%zu)", gs_fixed(a, sizeof a, fit_median(e, n) * 100, 1), n);
  return buf;
}

static void print_buckets(const char *title, err_bucket *b, size_t n) {
  size_t i;
  char w[64], x[64], y[64], z[64];
  printf("\n%-22s %14s %18s %18s %18s\n", title, "at the peaks", "engine given", "no engine", "first word");
  for (i = 0; i < n; i++)
    printf("%-22s %14s %18s %18s %18s\n", b[i].key, pct(w, sizeof w, b[i].k, b[i].nk), pct(x, sizeof x, b[i].e, b[i].ne),
           pct(y, sizeof y, b[i].n, b[i].nn), pct(z, sizeof z, b[i].f, b[i].nf));
}

/* What both validate commands start from: path's runs, each priced, and the figures of
 * data/efficiency.json, or of a fit to fit_from's runs (NULL: none) with its all-reduce
 * start-up. CLI_OK, or the error said and w closed. */
static int validate_open(const char *path, const char *fit_from, fit_work *w) {
  int rc;
  if ((rc = fit_work_open(path, "validate", w)) != CLI_OK) return rc;
  if ((rc = fit_read_builtin(w->fr)) == CLI_OK && fit_from) rc = fit_runs_file(fit_from, w->fr);
  if (rc != CLI_OK) {
    fit_work_close(w);
    return rc;
  }
  fit_price_runs(w->runs, w->p);
  return CLI_OK;
}

int cli_validate_runs(const char *path, const char *fit_from) {
  static err_bucket sources[64], gpus[64], all[1];
  size_t ns = 0, ng = 0, na = 0, i;
  fit_work w;
  const gs_runs *runs;
  const priced_run *p;
  const fit_result *fr;
  int rc;
  if ((rc = validate_open(path, fit_from, &w)) != CLI_OK) return rc;
  runs = w.runs;
  p = w.p;
  fr = w.fr;
  printf("Decode runs of %s priced with the catalogue's model and GPU, a cache for each chat read at\n", path);
  printf("every step, NCCL's rules, servers of 8 and the one-way ring bandwidth; efficiency %s.\n",
         fit_from ? "fitted to the --efficiency-from runs" : "from data/efficiency.json");
  printf("%-6s %-16.16s %-14s %-10s %-5s %5s %3s %8s %8s %8s %9s %8s %8s %s\n", "id", "model", "gpu", "engine", "src", "batch", "n",
         "peak ms", "engine", "any", "measured", "error", "no eng.", "first word: predicted / measured ms, error");
  for (i = 0; i < runs->count; i++) {
    gs_efficiency own, med, off = {0};
    double peak, with, without, t = p[i].run->itl_ms * 1e-3;
    char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], g[GS_FIGURE_CAP];
    err_bucket *bk[3];
    int k, has_own;
    if (!p[i].ok) continue;
    if (!cli_fit_pick(fr, "", p[i].s.generation, &med)) continue;
    has_own = cli_fit_pick(fr, p[i].s.engine, p[i].s.generation, &own) != NULL;
    if (!has_own) own = med;
    peak = fit_predict(&p[i], &off, 0);
    with = fit_predict(&p[i], &own, 0);
    without = fit_predict(&p[i], &med, 0);
    bk[0] = bucket(sources, &ns, 64, p[i].run->source);
    bk[1] = bucket(gpus, &ng, 64, p[i].s.gpu_key);
    bk[2] = bucket(all, &na, 1, "all");
    printf("%-6s %-16.16s %-14s %-10s %-5s %5llu %3llu %8s %8s %8s %9s %7s%% %7s%%", p[i].run->id, p[i].s.model_key, p[i].s.gpu_key,
           has_own ? p[i].s.engine : "(any)", p[i].run->source, (unsigned long long)p[i].run->batch,
           (unsigned long long)p[i].s.plan.gpus, gs_fixed(a, sizeof a, peak * 1e3, 2), gs_fixed(b, sizeof b, with * 1e3, 2),
           gs_fixed(c, sizeof c, without * 1e3, 2), gs_fixed(d, sizeof d, t * 1e3, 2), gs_fixed(e, sizeof e, (with - t) / t * 100, 1),
           gs_fixed(g, sizeof g, (without - t) / t * 100, 1));
    for (k = 0; k < 3; k++) {
      if (!bk[k]) continue;
      if (has_own) bk[k]->e[bk[k]->ne++] = fit_rel(with, t);
      bk[k]->k[bk[k]->nk++] = fit_rel(peak, t);
      bk[k]->n[bk[k]->nn++] = fit_rel(without, t);
    }
    if (p[i].run->ttft_ms > 0 && p[i].run->input_tokens > 0) {
      double fw = fit_predict(&p[i], &own, 1), m = p[i].run->ttft_ms * 1e-3;
      printf("  %s / %s, %s%%", gs_fixed(a, sizeof a, fw * 1e3, 1), gs_fixed(b, sizeof b, m * 1e3, 1), gs_fixed(c, sizeof c, (fw - m) / m * 100, 1));
      for (k = 0; k < 3; k++)
        if (bk[k]) bk[k]->f[bk[k]->nf++] = fit_rel(fw, m);
    }
    if (fit_excluded(&p[i])) printf("  (left out of the fit: MoE with random weights)");
    printf("\n");
  }
  print_buckets("median |error| by source", sources, ns);
  print_buckets("by GPU", gpus, ng);
  print_buckets("all runs", all, na);
  printf("\nengine given: the run's engine's figures (runs whose engine has none are left out of that column;\n"
         "an engine of under %d runs has every engine's pooled); no engine: every engine's runs pooled (any;\n"
         "the median engine is %s); (n): runs. Skipped:\n", FIT_MIN_RUNS, fr->median_engine);
  for (i = 0; i < runs->count; i++)
    if (!p[i].ok) {
      printf("  %s: ", p[i].run->id);
      cli_put_text(stdout, p[i].why);
      printf("\n");
    }
  fit_work_close(&w);
  return CLI_OK;
}

/* Whether run i is its source's first priced run the fit uses: one per source, whatever
 * its tag's length or the number of sources. */
static int first_of_source(const gs_runs *runs, const priced_run *p, size_t i) {
  size_t k;
  if (!p[i].ok || fit_excluded(&p[i])) return 0;
  for (k = 0; k < i; k++)
    if (p[k].ok && !fit_excluded(&p[k]) && strcmp(runs->rows[k].source, runs->rows[i].source) == 0) return 0;
  return 1;
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
  int rc = CLI_OK;
  if (!rest || !q || !fr) rc = cli_bad("--leave-source-out: out of memory");
  for (i = 0; i < runs->count; i++) out[i].own = out[i].any = out[i].peak = out[i].first = -1;
  for (i = 0; i < runs->count; i++) sources += (size_t)first_of_source(runs, p, i);
  if (rc == CLI_OK && sources < 2) rc = CLI_FAILED; /* no source can be left out: the caller says so */
  /* each source in turn, named by its first priced run's tag */
  for (j = 0; rc == CLI_OK && j < runs->count; j++) {
    const char *left = runs->rows[j].source;
    if (!first_of_source(runs, p, j)) continue;
    rest->count = 0;
    for (i = 0; i < runs->count; i++)
      if (strcmp(runs->rows[i].source, left) != 0) rest->rows[rest->count++] = runs->rows[i];
    memset(fr, 0, sizeof *fr);
    fr->ar = *ar;
    if (cli_fit_runs(rest, NULL, q, fr) != CLI_OK) continue;
    for (i = 0; i < runs->count; i++) {
      gs_efficiency own, any, off = {0};
      double t = p[i].run->itl_ms * 1e-3;
      int has_own;
      if (!p[i].ok || fit_excluded(&p[i]) || strcmp(runs->rows[i].source, left) != 0) continue;
      if (!cli_fit_pick(fr, "", p[i].s.generation, &any)) continue;
      has_own = cli_fit_pick(fr, p[i].s.engine, p[i].s.generation, &own) != NULL;
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
  static double errs[GS_RUNS_MAX];
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

/* `gpusplit validate --runs FILE --leave-source-out`: how far off the fit is on runs it
 * never saw, from the file alone: medians by source left out and over all. */
int cli_validate_left_out(const char *path) {
  static err_bucket sources[64], all[1];
  size_t ns = 0, na = 0, i;
  fit_work w;
  const gs_runs *runs;
  const left_out_error *e;
  int rc;
  if ((rc = validate_open(path, NULL, &w)) != CLI_OK) return rc;
  runs = w.runs;
  e = w.e;
  if ((rc = fit_left_out_errors(runs, w.p, &w.fr->ar, w.e)) == CLI_FAILED)
    rc = cli_bad("validate: --leave-source-out needs runs of two sources or more");
  if (rc == CLI_OK) {
    printf("Each source's runs of %s priced with figures fitted on the other sources' runs only.\n", path);
    for (i = 0; i < runs->count; i++) {
      err_bucket *bk[2];
      int k;
      if (e[i].any < 0) continue;
      bk[0] = bucket(sources, &ns, 64, runs->rows[i].source);
      bk[1] = bucket(all, &na, 1, "all");
      for (k = 0; k < 2; k++) {
        if (!bk[k]) continue;
        if (e[i].own >= 0) bk[k]->e[bk[k]->ne++] = e[i].own;
        bk[k]->n[bk[k]->nn++] = e[i].any;
        bk[k]->k[bk[k]->nk++] = e[i].peak;
        if (e[i].first >= 0) bk[k]->f[bk[k]->nf++] = e[i].first;
      }
    }
    print_buckets("source left out", sources, ns);
    print_buckets("all runs", all, na);
    printf("\nengine given: the run's engine's figures as the other sources fit them (a source whose engine\n"
           "no other source ran is left out of that column; an engine of under %d runs there has every\n"
           "engine's pooled); no engine: the other sources' runs of every engine pooled; (n): runs.\n", FIT_MIN_RUNS);
  }
  fit_work_close(&w);
  return rc;
}
