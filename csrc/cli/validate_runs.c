/* `gpusplit validate --runs`: the decode table of measured runs against the model, and each
 * source's runs priced with a fit that never saw them (fit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_work.h"

/* `gpusplit validate --runs FILE`: each run the catalogue can price, predicted at the peaks,
 * with the figures of its engine (data/efficiency.json) and with every engine's pooled (as
 * when no engine is given), against the measured time; medians by source and by GPU. Each
 * run's |relative errors| are kept in a left_out_error (fit.h; -1: none), and a table of
 * medians shows every key, however many (a file of 1,024 runs may have 1,024 sources). */
static const char *pct(char *buf, size_t cap, double median, size_t n) {
  char a[GS_FIGURE_CAP];
  if (n == 0) return "-";
  snprintf(buf, cap, "%s%% (%zu)", gs_fixed(a, sizeof a, median * 100, 1), n);
  return buf;
}

/* The median |error| of the runs priced by key (fit_medians_next), a line a key: at the
 * peaks, with the engine's figures, every engine's pooled, and the first word. */
static void print_medians(const char *title, const priced_run *p, const left_out_error *e, size_t n, int by) {
  fit_medians m;
  size_t at = 0;
  char w[64], x[64], y[64], z[64];
  printf("\n%-22s %14s %18s %18s %18s\n", title, "at the peaks", "engine given", "no engine", "first word");
  while (fit_medians_next(p, e, n, by, &at, &m)) {
    cli_put_padded(stdout, m.key, 22);
    printf(" %14s %18s %18s %18s\n", pct(w, sizeof w, m.median[0], m.n[0]), pct(x, sizeof x, m.median[1], m.n[1]),
           pct(y, sizeof y, m.median[2], m.n[2]), pct(z, sizeof z, m.median[3], m.n[3]));
  }
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

/* Run p's line of validate's table (fit_validate_run), its errors kept in e. */
static void print_validated(const priced_run *p, const fit_result *fr, left_out_error *e) {
  fit_validated v;
  double t;
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], f[GS_FIGURE_CAP], g[GS_FIGURE_CAP];
  if (!fit_validate_run(p, fr, &v, e)) return;
  t = v.measured;
  cli_put_padded(stdout, p->run->id, 6);
  printf(" %-16s %-14s %-10s ", p->s.model_key, p->s.gpu_key, v.has_own ? p->s.engine : "(any)");
  cli_put_padded(stdout, p->run->source, 5);
  printf(" %5llu %3llu %8s %8s %8s %9s %7s%% %7s%%", (unsigned long long)p->run->batch, (unsigned long long)p->s.plan.gpus,
         gs_fixed(a, sizeof a, v.peak * 1e3, 2), gs_fixed(b, sizeof b, v.with * 1e3, 2), gs_fixed(c, sizeof c, v.without * 1e3, 2),
         gs_fixed(d, sizeof d, t * 1e3, 2), gs_fixed(f, sizeof f, (v.with - t) / t * 100, 1),
         gs_fixed(g, sizeof g, (v.without - t) / t * 100, 1));
  if (v.first_measured > 0) {
    double fw = v.first, m = v.first_measured;
    printf("  %s / %s, %s%%", gs_fixed(a, sizeof a, fw * 1e3, 1), gs_fixed(b, sizeof b, m * 1e3, 1), gs_fixed(c, sizeof c, (fw - m) / m * 100, 1));
  }
  if (fit_excluded(p)) printf("  (left out of the fit: MoE with random weights)");
  printf("\n");
}

int cli_validate_runs(const char *path, const char *fit_from) {
  size_t i;
  fit_work w;
  const gs_runs *runs;
  const priced_run *p;
  const fit_result *fr;
  int rc;
  if ((rc = validate_open(path, fit_from, &w)) != CLI_OK) return rc;
  runs = w.runs;
  p = w.p;
  fr = w.fr;
  printf("Decode runs of ");
  cli_put_text(stdout, path);
  printf(" priced with the catalogue's model and GPU, a cache for each chat read at\n");
  printf("every step, NCCL's rules, servers of 8 and the one-way ring bandwidth; efficiency %s.\n",
         fit_from ? "fitted to the --efficiency-from runs" : "from data/efficiency.json");
  printf("%-6s %-16s %-14s %-10s %-5s %5s %3s %8s %8s %8s %9s %8s %8s %s\n", "id", "model", "gpu", "engine", "src", "batch", "n",
         "peak ms", "engine", "any", "measured", "error", "no eng.", "first word: predicted / measured ms, error");
  for (i = 0; i < runs->count; i++) print_validated(&p[i], fr, &w.e[i]);
  print_medians("median |error| by source", p, w.e, runs->count, FIT_BY_SOURCE);
  print_medians("by GPU", p, w.e, runs->count, FIT_BY_GPU);
  print_medians("all runs", p, w.e, runs->count, FIT_BY_ALL);
  printf("\nengine given: the run's engine's figures (runs whose engine has none are left out of that column;\n"
         "an engine of under %d runs has every engine's pooled); no engine: every engine's runs pooled (any;\n"
         "the median engine is %s); (n): runs. Skipped:\n", FIT_MIN_RUNS, fr->median_engine);
  cli_put_skipped(runs, p);
  fit_work_close(&w);
  return CLI_OK;
}

/* `gpusplit validate --runs FILE --leave-source-out`: how far off the fit is on runs it
 * never saw, from the file alone: medians by source left out and over all. */
int cli_validate_left_out(const char *path) {
  fit_work w;
  int rc;
  if ((rc = validate_open(path, NULL, &w)) != CLI_OK) return rc;
  if ((rc = cli_left_out_bound(w.runs, w.p, path)) != CLI_OK) {
    fit_work_close(&w);
    return rc;
  }
  rc = fit_left_out_errors(w.runs, w.p, &w.fr->ar, w.e);
  rc = rc == GS_ERR_SHAPE ? cli_bad("validate: --leave-source-out needs runs of two sources or more")
       : rc != GS_OK      ? cli_bad("--leave-source-out: out of memory")
                          : CLI_OK;
  if (rc == CLI_OK) {
    printf("Each source's runs of ");
    cli_put_text(stdout, path);
    printf(" priced with figures fitted on the other sources' runs only.\n");
    print_medians("source left out", w.p, w.e, w.runs->count, FIT_BY_SOURCE);
    print_medians("all runs", w.p, w.e, w.runs->count, FIT_BY_ALL);
    printf("\nengine given: the run's engine's figures as the other sources fit them (a source whose engine\n"
           "no other source ran is left out of that column; an engine of under %d runs there has every\n"
           "engine's pooled); no engine: the other sources' runs of every engine pooled; (n): runs.\n", FIT_MIN_RUNS);
  }
  fit_work_close(&w);
  return rc;
}
