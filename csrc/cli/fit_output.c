/* `gpusplit fit`: the fitted figures as a table with each run's error, or as the JSON that
 * data/efficiency.json keeps (csrc/fit/fit_json.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_work.h"

static void print_run_line(const priced_run *p, const gs_efficiency *e) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP];
  gs_efficiency off = {0};
  double peak = fit_predict(p, &off, 0), fitted = fit_predict(p, e, 0), t = p->run->itl_ms * 1e-3;
  cli_put_padded(stdout, p->run->id, 6);
  printf(" %-28s %-15s %-10s ", p->s.model_key, p->s.gpu_key, p->s.engine);
  cli_put_padded(stdout, p->run->source, 6);
  printf(" %4llu %3llu %9s %9s %9s %7s%%", (unsigned long long)p->run->batch, (unsigned long long)p->s.plan.gpus, gs_fixed(a, sizeof a, peak * 1e3, 2),
         gs_fixed(b, sizeof b, fitted * 1e3, 2), gs_fixed(c, sizeof c, t * 1e3, 2), gs_fixed(d, sizeof d, (fitted - t) / t * 100, 1));
  if (p->run->ttft_ms > 0 && p->run->input_tokens > 0 && e->flops_share > 0) {
    double fw = fit_predict(p, e, 1), m = p->run->ttft_ms * 1e-3;
    printf("  first word %s ms, measured %s ms, %s%%", gs_fixed(a, sizeof a, fw * 1e3, 1), gs_fixed(b, sizeof b, m * 1e3, 1),
           gs_fixed(c, sizeof c, (fw - m) / m * 100, 1));
  }
  printf("\n");
}

/* A group's line of the figures' table. */
static void print_figure_line(const fit_figure *x) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], f[GS_FIGURE_CAP];
  char st[GS_FIGURE_CAP], rq[GS_FIGURE_CAP], fe[GS_FIGURE_CAP + 1];
  /* a median over no first words (none given, or no FLOP/s share to price them) is none */
  if (x->ttft_errors) snprintf(fe, sizeof fe, "%s%%", gs_fixed(f, sizeof f, x->ttft_median_error * 100, 1));
  else snprintf(fe, sizeof fe, "-");
  if (x->pooled) { /* the figures' seven columns, 66 characters */
    char why[80];
    if (x->runs < FIT_MIN_RUNS) snprintf(why, sizeof why, "  under %d runs: priced with every engine's pooled", FIT_MIN_RUNS);
    else snprintf(why, sizeof why, "  share at 1, untold: priced with every engine's pooled");
    printf("%-10s %-10s %5zu %-66s %5s%% %10s  ", x->engine, x->generation, x->runs, why, gs_fixed(e, sizeof e, x->median_error * 100, 1), fe);
  } else
    printf("%-10s %-10s %5zu %9s %9s %9s %6s %10s %10s %5s%% %10s  ", x->engine, x->generation, x->runs,
           gs_fixed(a, sizeof a, x->e.bandwidth_share, 2), gs_fixed(b, sizeof b, x->e.layer_us, 1), gs_fixed(st, sizeof st, x->e.step_us, 1),
           x->e.flops_share > 0 ? gs_fixed(c, sizeof c, x->e.flops_share, 2) : "-", gs_fixed(rq, sizeof rq, x->e.request_us, 1),
           strcmp(x->generation, "all") || x->allreduce_fitted ? gs_fixed(d, sizeof d, x->e.allreduce_us, 1) : "by gen",
           gs_fixed(e, sizeof e, x->median_error * 100, 1), fe);
  cli_put_text(stdout, x->sources);
  printf("\n");
}

static void print_fit_table(const gs_runs *runs, const priced_run *p, const fit_result *fr, size_t ok, const char *allreduce_dir) {
  size_t i, g;
  char a[GS_FIGURE_CAP];
  printf("Runs: %zu read, %zu priced, %zu skipped\n", runs->count, ok, runs->count - ok);
  printf("\nAll-reduce start-up above NCCL's constants (");
  cli_put_text(stdout, allreduce_dir);
  printf(", 8 to 64 KiB, 2-8 GPUs):\n");
  for (g = 0; g < FIT_GEN_COUNT; g++)
    if (fr->ar.rows[g]) printf("  %-10s %s us  (%zu rows)\n", GS_GENERATIONS[g], gs_fixed(a, sizeof a, fr->ar.us[g], 1), fr->ar.rows[g]);
  printf("\nEfficiency (least squares of relative error, each source weighted alike); median engine: %s\n", fr->median_engine);
  printf("%-10s %-10s %5s %9s %9s %9s %6s %10s %10s %6s %10s  %s\n", "engine", "generation", "runs", "bandwidth", "layer us",
         "step us", "flops", "request us", "allreduce", "error", "1st error", "sources");
  for (g = 0; g < fr->count; g++) print_figure_line(&fr->f[g]);
  printf("\n%-6s %-28s %-15s %-10s %-6s %4s %3s %9s %9s %9s %8s\n", "id", "model", "gpu", "engine", "source", "batch", "n",
         "peak ms", "fitted ms", "measured", "error");
  for (i = 0; i < runs->count; i++) {
    gs_efficiency eff;
    if (!p[i].ok) continue;
    if (!gs_efficiency_pick(fr, p[i].s.engine, p[i].s.generation, &eff)) continue;
    print_run_line(&p[i], &eff);
  }
  printf("\nSkipped:\n");
  cli_put_skipped(runs, p);
}

int cli_fit_file(const char *path, const char *allreduce_dir, int json, int left_out) {
  fit_work w;
  gs_out out = cli_out(stdout);
  size_t i, ok = 0;
  int rc;
  if ((rc = fit_work_open(path, "fit", &w)) != CLI_OK) return rc;
  /* the sources a --leave-source-out fits again without, bounded before any fit */
  if (left_out && (fit_price_runs(w.runs, w.p), rc = cli_left_out_bound(w.runs, w.p, path)) != CLI_OK) {
    fit_work_close(&w);
    return rc;
  }
  if ((rc = cli_fit_allreduce(allreduce_dir, &w.fr->ar)) == CLI_OK && (rc = cli_fit_runs(w.runs, w.p, w.fr)) == CLI_OK) {
    /* how far off each engine's figures are on runs of a source the fit left out; a file of
     * one source says nothing of that */
    int lo = left_out ? fit_left_out_errors(w.runs, w.p, &w.fr->ar, w.e) : GS_ERR_SHAPE;
    if (lo == GS_OK) fit_note_left_out(w.runs, w.p, w.e, w.fr);
    else if (lo != GS_ERR_SHAPE) cli_bad("--leave-source-out: out of memory");
    for (i = 0; i < w.runs->count; i++) ok += (size_t)w.p[i].ok;
    if (json) fit_json(&out, w.runs, w.p, w.fr, ok);
    else print_fit_table(w.runs, w.p, w.fr, ok, allreduce_dir);
  }
  fit_work_close(&w);
  return rc;
}
