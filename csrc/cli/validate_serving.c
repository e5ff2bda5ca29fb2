/* `gpusplit validate --serving FILE [--leave-source-out]` and `gpusplit fit --serving FILE`:
 * measured serving runs priced as `gpusplit serve` prices them (csrc/fit/serve_rows.c), the
 * serving fit (csrc/fit/serve_fit.c), and the medians of |error| for the fitted sources,
 * the held-out ones and each fitted source left out of the fit. Reads and prints only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fit/fit.h"

typedef struct {
  gs_serving_runs *runs;
  serving_row *rows;
  serving_priced *priced;
  int *use;
  gs_serve_space sp;
} serving_work;

static void work_close(serving_work *w) {
  free(w->runs);
  free(w->rows);
  free(w->priced);
  free(w->use);
  free(w->sp.reqs);
  free(w->sp.ids);
  free(w->sp.scratch);
  free(w->sp.itl);
}

/* The file read, each row mapped, room for the largest load. */
static int work_open(const char *path, serving_work *w) {
  char *text;
  size_t len, i, cap = 1;
  gs_error err;
  int rc;
  memset(w, 0, sizeof *w);
  if ((rc = cli_read_file(path, GS_RUNS_MAX_BYTES, "a serving runs file", &text, &len)) != CLI_OK) return rc;
  if (!(w->runs = malloc(sizeof *w->runs))) rc = cli_bad("%s: out of memory", path);
  else if (gs_serving_runs_parse(text, len, w->runs, &err) != GS_OK) rc = cli_bad_error(path, &err);
  free(text);
  if (rc != CLI_OK) return free(w->runs), rc;
  w->rows = calloc(w->runs->count, sizeof *w->rows);
  w->priced = calloc(w->runs->count, sizeof *w->priced);
  w->use = calloc(w->runs->count, sizeof *w->use);
  for (i = 0; w->rows && i < w->runs->count; i++)
    if (fit_serving_row(&w->runs->rows[i], &w->rows[i]) && w->rows[i].load.requests > cap) cap = (size_t)w->rows[i].load.requests;
  w->sp.cap = cap;
  w->sp.reqs = malloc(cap * sizeof *w->sp.reqs);
  w->sp.ids = malloc(3 * cap * sizeof *w->sp.ids);
  w->sp.scratch = malloc(cap * sizeof *w->sp.scratch);
  w->sp.itl = malloc(sizeof *w->sp.itl);
  if (w->rows && w->priced && w->use && w->sp.reqs && w->sp.ids && w->sp.scratch && w->sp.itl) return CLI_OK;
  work_close(w);
  return cli_bad("%s: out of memory", path);
}

/* Each row priced with its engine's figures of fits (NULL: data/serving.json's); a row serve
 * refuses keeps why. */
static void price_all(serving_work *w, const fit_serving_result *fits) {
  size_t i;
  for (i = 0; i < w->runs->count; i++) {
    gs_error err;
    serving_row *r = &w->rows[i];
    memset(&w->priced[i], 0, sizeof w->priced[i]);
    if (!r->ok) continue;
    if (fit_serving_price(r, fits ? fit_serving_pick(fits, r->engine.kind) : NULL, &w->sp, &w->priced[i], &err) != GS_OK) {
      r->ok = 0;
      gs_format(r->why, sizeof r->why, "refused: %s: %s", err.field, err.what);
    }
  }
}

/* The median |error| of figure k over the priced rows keep() takes, into buf ("-": none). */
static const char *median(char *buf, size_t cap, const serving_work *w, int k, int (*keep)(const serving_row *, const char *),
                          const char *arg, size_t *count) {
  static double e[GS_SERVING_RUNS_MAX];
  size_t i, n = 0;
  char a[GS_FIGURE_CAP];
  for (i = 0; i < w->runs->count; i++)
    if (w->priced[i].ok && w->priced[i].has[k] && keep(&w->rows[i], arg))
      e[n++] = w->priced[i].error[k] < 0 ? -w->priced[i].error[k] : w->priced[i].error[k];
  if (count) *count = n;
  if (n == 0) return "-";
  snprintf(buf, cap, "%s%% (%zu)", gs_fixed(a, sizeof a, fit_median(e, n) * 100, 1), n);
  return buf;
}

static int fitted_row(const serving_row *r, const char *arg) { return (void)arg, r->fitted; }
static int held_row(const serving_row *r, const char *arg) { return (void)arg, !r->fitted; }
static int source_row(const serving_row *r, const char *arg) { return strcmp(r->run->source, arg) == 0; }

static void medians_line(const char *label, const serving_work *w, int (*keep)(const serving_row *, const char *), const char *arg) {
  char a[64], b[64], c[64];
  printf("%-30s %16s %16s %16s\n", label, median(a, sizeof a, w, FIT_TPOT, keep, arg, NULL),
         median(b, sizeof b, w, FIT_TPUT, keep, arg, NULL), median(c, sizeof c, w, FIT_TTFT, keep, arg, NULL));
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
  snprintf(layout, sizeof layout, "%s%llu x%llu %s", data ? "dep" : spread ? "ep" : r->plan.split == GS_GROUPS ? "pp" : "tp",
           (unsigned long long)r->plan.gpus,
           (unsigned long long)r->replicas, r->load.kind == GS_LOAD_CLOSED ? "closed" : "at once");
  printf(" %-18s", layout);
  figure_cells(p, r, FIT_TPUT);
  figure_cells(p, r, FIT_TPOT);
  figure_cells(p, r, FIT_TTFT);
  printf("%s\n", r->fitted ? "  (fitted)" : "");
}

static void print_table(const char *path, const serving_work *w) {
  size_t i;
  printf("Serving runs of ");
  cli_put_text(stdout, path);
  printf(" priced as `gpusplit serve` prices them (data/serving.json's step figures).\n"
         "Fitted sources: %s, %s (tests/measured/serving-runs-README.md); every other source is held out.\n\n",
         FIT_SERVING_SOURCES[0], FIT_SERVING_SOURCES[1]);
  printf("%-6s%-5s %-8s %-15s %-20s %-18s %9s %9s %7s %9s %9s %7s %9s %9s %7s\n", "id", "src", "engine", "model", "gpu", "layout",
         "tok/s", "priced", "error", "tpot ms", "priced", "error", "ttft ms", "priced", "error");
  for (i = 0; i < w->runs->count; i++)
    if (w->priced[i].ok) print_row(&w->rows[i], &w->priced[i]);
}

static void print_skipped(const serving_work *w) {
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

/* Each fitted source's rows priced with a fit to the other fitted sources' rows only. */
static int left_out(serving_work *w) {
  static fit_serving_result fits;
  size_t s, i;
  gs_error err;
  medians_head("median |error|, source left out");
  for (s = 0; s < FIT_SERVING_SOURCE_COUNT; s++) {
    const char *left = FIT_SERVING_SOURCES[s];
    char label[64];
    for (i = 0; i < w->runs->count; i++) w->use[i] = w->rows[i].in_fit && strcmp(w->runs->rows[i].source, left) != 0;
    if (fit_serving(w->rows, w->use, w->runs->count, &w->sp, &fits, &err) != GS_OK) {
      printf("%-30s no other fitted source's row is priced\n", left);
      continue;
    }
    price_all(w, &fits);
    snprintf(label, sizeof label, "%s, fitted on the others", left);
    medians_line(label, w, source_row, left);
  }
  return CLI_OK;
}

int cli_validate_serving(const char *path, int leave_out) {
  serving_work w;
  int rc;
  if ((rc = work_open(path, &w)) != CLI_OK) return rc;
  price_all(&w, NULL);
  print_table(path, &w);
  medians_head("median |error| (rows)");
  medians_line("fitted sources", &w, fitted_row, NULL);
  medians_line("held-out sources", &w, held_row, NULL);
  print_skipped(&w);
  if (leave_out) rc = left_out(&w);
  work_close(&w);
  return rc;
}

/* data/serving.json's summary: the fitted rows and the held-out medians. */
static void summary(char *buf, size_t cap, const serving_work *w) {
  char a[64], b[64], c[64];
  size_t i, n = 0;
  for (i = 0; i < w->runs->count; i++) n += (size_t)w->use[i];
  snprintf(buf, cap,
           "fitted to %zu measured serving runs of %s and %s (tensor parallel); held out, median |error| (runs): time per "
           "output token %s, output tokens a second %s, first token %s",
           n, FIT_SERVING_SOURCES[0], FIT_SERVING_SOURCES[1], median(a, sizeof a, w, FIT_TPOT, held_row, NULL, NULL),
           median(b, sizeof b, w, FIT_TPUT, held_row, NULL, NULL), median(c, sizeof c, w, FIT_TTFT, held_row, NULL, NULL));
}

/* A fit's engine as --engine names it, or "any" for the pooled one. */
static const char *engine_label(int kind) { return kind < 0 ? "any" : kind == GS_ENGINE_TRTLLM ? "trt-llm" : gs_engine_name(kind); }

static void print_fit_json(const fit_serving_result *fits, const char *sum) {
  size_t i;
  printf("{\"_source\":\"gpusplit fit --serving tests/measured/serving-runs.csv --json: each engine's served-step figures "
         "fitted to the fitted sources' rows (csrc/fit/serve_fit.c: a coordinate search over a grid minimising the mean "
         "|log error|, sources weighted alike); make test-reference checks this file equals the fit\",\"summary\":");
  cli_json_string(stdout, sum);
  printf(",\"figures\":[");
  for (i = 0; i < fits->count; i++) {
    const gs_serving_fit *f = &fits->f[i];
    printf("%s{\"engine\":\"%s\",\"flops_share\":", i ? "," : "", engine_label(f->kind));
    cli_json_double(stdout, f->flops_share);
    printf(",\"seq_us\":");
    cli_json_double(stdout, f->seq_us);
    printf(",\"overlap_share\":");
    cli_json_double(stdout, f->overlap_share);
    printf(",\"rows\":%llu}", (unsigned long long)f->rows);
  }
  printf("]}\n");
}

int cli_fit_serving(const char *path, int json) {
  static fit_serving_result fits;
  serving_work w;
  char sum[512];
  size_t i;
  gs_error err;
  int rc;
  if ((rc = work_open(path, &w)) != CLI_OK) return rc;
  for (i = 0; i < w.runs->count; i++) w.use[i] = w.rows[i].in_fit;
  if (fit_serving(w.rows, w.use, w.runs->count, &w.sp, &fits, &err) != GS_OK) rc = cli_bad_error(path, &err);
  if (rc == CLI_OK) {
    price_all(&w, &fits);
    summary(sum, sizeof sum, &w);
    if (json) print_fit_json(&fits, sum);
    for (i = 0; !json && i < fits.count; i++)
      printf("%s: %llu rows, flops_share %s, seq_us %s, overlap_share %s; mean |log error| %s\n",
             engine_label(fits.f[i].kind), (unsigned long long)fits.f[i].rows,
             gs_plain((char[32]){0}, 32, fits.f[i].flops_share), gs_plain((char[32]){0}, 32, fits.f[i].seq_us),
             gs_plain((char[32]){0}, 32, fits.f[i].overlap_share), gs_fixed((char[32]){0}, 32, fits.loss[i], 3));
    if (!json) printf("%s\n", sum);
  }
  work_close(&w);
  return rc;
}
