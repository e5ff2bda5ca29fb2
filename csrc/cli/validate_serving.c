/* `gpusplit validate --serving FILE [--leave-source-out]` and `gpusplit fit --serving FILE`:
 * measured serving runs priced as `gpusplit serve` prices them (csrc/fit/serve_rows.c), the
 * serving fit (csrc/fit/serve_fit.c), and the medians of |error| for the fitted sources,
 * the held-out ones and each fitted source left out of the fit. Reads and prints only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fit/fit.h"

/* The work's rows, prices and room, with the file's runs (w->runs is ours to free). */
static void work_close(fit_serving_work *w) {
  free((void *)w->runs);
  free(w->rows);
  free(w->priced);
  free(w->use);
  free(w->sp.reqs);
  free(w->sp.ids);
  free(w->sp.scratch);
  free(w->sp.itl);
}

/* path's runs parsed into runs (rows past its first `from`, which are kept). */
static int parse_file(const char *path, gs_runs_scratch *scratch, gs_serving_runs *runs, size_t from) {
  static gs_serving_runs extra; /* large: one reading at a time */
  char *text;
  size_t len;
  gs_error err;
  int rc;
  if ((rc = cli_read_file(path, GS_RUNS_MAX_BYTES, "a serving runs file", &text, &len)) != CLI_OK) return rc;
  rc = gs_serving_runs_parse(text, len, scratch, from ? &extra : runs, &err) != GS_OK ? cli_bad_error(path, &err) : CLI_OK;
  free(text);
  if (rc != CLI_OK || !from) return rc;
  if (extra.count > GS_SERVING_RUNS_MAX - from)
    return cli_bad("%s: its %zu rows and the %zu before them are more than the %d a reading holds", path, extra.count, from,
                   GS_SERVING_RUNS_MAX);
  memcpy(runs->rows + from, extra.rows, extra.count * sizeof extra.rows[0]);
  runs->count = from + extra.count;
  return CLI_OK;
}

/* The file read (and more's rows after its own, each file's errors named by its own path
 * and line), each row mapped, room for the largest load. */
static int work_open(const char *path, const char *more, fit_serving_work *w) {
  size_t cap;
  gs_serving_runs *runs;
  gs_runs_scratch *scratch = malloc(sizeof *scratch);
  int rc = CLI_OK;
  memset(w, 0, sizeof *w);
  if (!scratch) return cli_bad("%s: out of memory", path);
  if (!(runs = malloc(sizeof *runs))) rc = cli_bad("%s: out of memory", path);
  else if ((rc = parse_file(path, scratch, runs, 0)) == CLI_OK && more) rc = parse_file(more, scratch, runs, runs->count);
  free(scratch);
  if (rc != CLI_OK) return free(runs), rc;
  w->runs = runs;
  w->rows = calloc(runs->count, sizeof *w->rows);
  w->priced = calloc(runs->count, sizeof *w->priced);
  w->use = calloc(runs->count, sizeof *w->use);
  cap = w->rows ? fit_serving_map(w) : 1;
  w->sp.cap = cap;
  w->sp.reqs = malloc(cap * sizeof *w->sp.reqs);
  w->sp.ids = malloc(GS_SERVE_IDS * cap * sizeof *w->sp.ids);
  w->sp.scratch = malloc(cap * sizeof *w->sp.scratch);
  w->sp.itl = malloc(sizeof *w->sp.itl);
  if (w->rows && w->priced && w->use && w->sp.reqs && w->sp.ids && w->sp.scratch && w->sp.itl) return CLI_OK;
  work_close(w);
  return cli_bad("%s: out of memory", path);
}

/* The median |error| of figure k over the rows keep takes, into buf ("-": none). */
static const char *median(char *buf, size_t cap, const fit_serving_work *w, int k, int keep, const char *source) {
  char a[GS_FIGURE_CAP];
  double m;
  size_t n = fit_serving_median(w, k, keep, source, &m);
  if (n == 0) return "-";
  snprintf(buf, cap, "%s%% (%zu)", gs_fixed(a, sizeof a, m * 100, 1), n);
  return buf;
}

static void medians_line(const char *label, const fit_serving_work *w, int keep, const char *source) {
  char a[64], b[64], c[64];
  printf("%-30s %16s %16s %16s\n", label, median(a, sizeof a, w, FIT_TPOT, keep, source),
         median(b, sizeof b, w, FIT_TPUT, keep, source), median(c, sizeof c, w, FIT_TTFT, keep, source));
}

/* One figure's measured, priced and signed error, or blanks. */
static void figure_cells(const serving_priced *p, const serving_row *r, int k) {
  double measured[FIT_SERVING_FIGURES] = {r->run->itl_ms, r->run->throughput, r->run->ttft_ms};
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP];
  int places = k == FIT_TPUT ? 0 : 1;
  if (!p->has[k]) {
    printf(" %9s %9s %7s", "-", "-", "");
    return;
  }
  gs_fixed(c + 1, sizeof c - 1, p->error[k] * 100, 1);
  c[0] = '+'; /* a signed error: gs_fixed writes a negative's sign, a positive gets one here */
  printf(" %9s %9s %6s%%", gs_fixed(a, sizeof a, measured[k], places), gs_fixed(b, sizeof b, p->value[k], places),
         p->error[k] < 0 ? c + 1 : c);
}

static void print_row(const serving_row *r, const serving_priced *p) {
  const gs_serving_run *run = r->run;
  char layout[48];
  cli_put_padded(stdout, run->id, 6);
  cli_put_padded(stdout, run->source, 5);
  printf(" %-8s %-15s %-20s", r->engine_name, r->model_key, r->gpu_key);
  /* ep N: experts spread, attention sliced (tp with ep); dep N: beside data-parallel attention */
  int spread = r->plan.experts == GS_EXPERTS_SPREAD, data = spread && r->plan.attention == GS_ATTENTION_DATA;
  const char *load = r->load.kind == GS_LOAD_CLOSED ? "closed" : r->load.kind == GS_LOAD_OPEN ? "rate" : "at once";
  /* P prefill and D decode copies: "tp2 1p3d" */
  if (r->disagg.prefill)
    snprintf(layout, sizeof layout, "tp%llu %llup%llud %s", (unsigned long long)r->plan.gpus, (unsigned long long)r->disagg.prefill,
             (unsigned long long)r->disagg.decode, load);
  else if (r->plan.split == GS_SLICES_GROUPS) /* pp groups of tp slices: "tp2pp4"; of dep ranks: "dep2pp2" */
    snprintf(layout, sizeof layout, "%s%llupp%llu x%llu %s", data ? "dep" : "tp", (unsigned long long)r->plan.per_server,
             (unsigned long long)(r->plan.gpus / r->plan.per_server), (unsigned long long)r->replicas, load);
  else if (spread && r->plan.expert_ranks) /* experts over fewer ranks than GPUs: "tp8ep4", "dp8ep1" */
    snprintf(layout, sizeof layout, "%s%lluep%llu x%llu %s", data ? "dp" : "tp", (unsigned long long)r->plan.gpus,
             (unsigned long long)r->plan.expert_ranks, (unsigned long long)r->replicas, load);
  else
    snprintf(layout, sizeof layout, "%s%llu x%llu %s", data ? "dep" : spread ? "ep" : r->plan.split == GS_GROUPS ? "pp" : "tp",
             (unsigned long long)r->plan.gpus, (unsigned long long)r->replicas, load);
  printf(" %-18s", layout);
  figure_cells(p, r, FIT_TPUT);
  figure_cells(p, r, FIT_TPOT);
  figure_cells(p, r, FIT_TTFT);
  printf("%s\n", r->fitted ? "  (fitted)" : "");
}

static void print_table(const char *path, const char *more, const fit_serving_work *w) {
  size_t i;
  char sources[96];
  printf("Serving runs of ");
  cli_put_text(stdout, path);
  if (more) printf(" and "), cli_put_text(stdout, more);
  printf(" priced as `gpusplit serve` prices them (data/serving.json's step figures).\n"
         "Fitted sources: %s (tests/measured/serving-runs-README.md,\nserving-fit-gathered-README.md); every other source is held out.\n\n",
         fit_serving_sources_text(sources, sizeof sources));
  printf("%-6s%-5s %-8s %-15s %-20s %-18s %9s %9s %7s %9s %9s %7s %9s %9s %7s\n", "id", "src", "engine", "model", "gpu", "layout",
         "tok/s", "priced", "error", "tpot ms", "priced", "error", "ttft ms", "priced", "error");
  for (i = 0; i < w->runs->count; i++)
    if (w->priced[i].ok) print_row(&w->rows[i], &w->priced[i]);
}

static void print_skipped(const fit_serving_work *w) {
  size_t i;
  printf("\nNot priced:\n");
  for (i = 0; i < w->runs->count; i++)
    if (!w->rows[i].ok) {
      printf("  ");
      cli_put_text(stdout, w->runs->rows[i].id);
      printf(" (%s): ", w->runs->rows[i].source);
      cli_put_text(stdout, w->rows[i].why);
      printf("\n");
    }
}

static void medians_head(const char *title) {
  printf("\n%-30s %16s %16s %16s\n", title, "tpot", "output tok/s", "first token");
}

/* Each source's medians, in the order the file first gives a priced row of it (issue 29:
 * no source of three or more runs beyond 1.75 times the goals). */
static void by_source(const fit_serving_work *w) {
  size_t i, j;
  medians_head("median |error| by source");
  for (i = 0; i < w->runs->count; i++) {
    const char *src = w->runs->rows[i].source;
    char label[80];
    int seen = !w->priced[i].ok;
    for (j = 0; !seen && j < i; j++) seen = w->priced[j].ok && strcmp(w->runs->rows[j].source, src) == 0;
    if (seen) continue;
    snprintf(label, sizeof label, "%s%s", src, w->rows[i].fitted ? " (fitted)" : "");
    medians_line(label, w, FIT_KEEP_SOURCE, src);
  }
}

/* A count "k of n (share%)", or "none". */
static const char *share_of(char *buf, size_t cap, size_t k, size_t n) {
  char share[GS_FIGURE_CAP];
  if (n) snprintf(buf, cap, "%zu of %zu (%s%%)", k, n, gs_fixed(share, sizeof share, 100.0 * (double)k / (double)n, 1));
  else snprintf(buf, cap, "none");
  return buf;
}

/* The pairs of layouts ordered as measured, and the best priced layout of each group
 * against the best measured, fitted and held-out sources. */
static void pairs_lines(const fit_serving_work *w) {
  char a[2][96], b[2][96];
  size_t n, k, i;
  for (i = 0; i < 2; i++) {
    n = fit_serving_pairs(w, i == 0 ? FIT_KEEP_FITTED : FIT_KEEP_HELD, NULL, &k);
    share_of(a[i], sizeof a[i], k, n);
    n = fit_serving_choices(w, i == 0 ? FIT_KEEP_FITTED : FIT_KEEP_HELD, NULL, &k);
    share_of(b[i], sizeof b[i], k, n);
  }
  printf("\nPairs of layouts (same source, engine, model, GPU and load) ordered as measured by output\n"
         "tokens a second a GPU: fitted sources %s, held-out sources %s\n", a[0], a[1]);
  printf("Groups whose layout priced best a GPU measures within 5%% of the measured best: fitted\n"
         "sources %s, held-out sources %s\n", b[0], b[1]);
}

/* Each fitted source's rows priced with a fit to the other fitted sources' rows only. */
static int left_out(fit_serving_work *w) {
  static fit_serving_result fits;
  size_t s;
  gs_error err;
  medians_head("median |error|, source left out");
  for (s = 0; s < FIT_SERVING_SOURCE_COUNT; s++) {
    const char *left = FIT_SERVING_SOURCES[s];
    char label[64];
    if (fit_serving_all(w, left, &fits, &err) != GS_OK) {
      printf("%-30s no other fitted source's row is priced\n", left);
      continue;
    }
    snprintf(label, sizeof label, "%s, fitted on the others", left);
    medians_line(label, w, FIT_KEEP_SOURCE, left);
  }
  return CLI_OK;
}

int cli_validate_serving(const char *path, const char *more, int leave_out) {
  fit_serving_work w;
  int rc;
  if ((rc = work_open(path, more, &w)) != CLI_OK) return rc;
  fit_serving_price_all(&w, NULL);
  print_table(path, more, &w);
  medians_head("median |error| (rows)");
  medians_line("fitted sources", &w, FIT_KEEP_FITTED, NULL);
  medians_line("held-out sources", &w, FIT_KEEP_HELD, NULL);
  by_source(&w);
  pairs_lines(&w);
  print_skipped(&w);
  if (leave_out) rc = left_out(&w);
  work_close(&w);
  return rc;
}

int cli_fit_serving(const char *path, const char *more_path, const char *held_out, int json) {
  static fit_serving_result fits;
  fit_serving_work w, more;
  char sum[512];
  size_t i;
  gs_error err;
  gs_out o = cli_out(stdout);
  int rc;
  if ((rc = work_open(path, more_path, &w)) != CLI_OK) return rc;
  if (held_out && (rc = work_open(held_out, NULL, &more)) != CLI_OK) return work_close(&w), rc;
  if (fit_serving_all(&w, NULL, &fits, &err) != GS_OK) rc = cli_bad_error(path, &err);
  if (rc == CLI_OK) {
    /* the other file's rows priced with this fit; rows of a fitted source there stay out of the held-out medians */
    if (held_out) fit_serving_price_all(&more, &fits);
    fit_serving_summary(sum, sizeof sum, &w, held_out ? &more : NULL, held_out);
    if (json) fit_serving_json(&o, &fits, sum);
    for (i = 0; !json && i < fits.count; i++)
      printf("%s: %llu rows, flops_share %s, seq_us %s, overlap_share %s, request_us %s; mean |log error| %s\n",
             fit_serving_engine_label(fits.f[i].kind), (unsigned long long)fits.f[i].rows,
             gs_plain((char[32]){0}, 32, fits.f[i].flops_share), gs_plain((char[32]){0}, 32, fits.f[i].seq_us),
             gs_plain((char[32]){0}, 32, fits.f[i].overlap_share), gs_plain((char[32]){0}, 32, fits.f[i].request_us),
             gs_fixed((char[32]){0}, 32, fits.loss[i], 3));
    if (!json) printf("%s\n", sum);
  }
  if (held_out) work_close(&more);
  work_close(&w);
  return rc;
}
