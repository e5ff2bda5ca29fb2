/* `gpusplit calibrate LOG`: a link fitted to an nccl-tests all_reduce_perf log, and its
 * predictions beside the measured times at the lesson's message sizes.
 * `gpusplit validate TABLE`: the model against a table of measured all-reduces, three
 * ways (make validate runs it on every system in ../shared/reference/allreduce-measured). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fit/fit.h"

static const char CALIBRATE_HELP[] =
    "usage: gpusplit calibrate LOG [--json]\n"
    "\n"
    "Reads the output of nccl-tests' all_reduce_perf (run it with -c 1, so results are\n"
    "checked), takes the GPU count from its rank lines, and fits the lesson's form, time =\n"
    "latency + bytes x 2(n-1)/n / bandwidth, by least squares on relative error, in up to\n"
    "three size regimes found from the data (NCCL changes protocol with size). Prints each\n"
    "regime's latency, bandwidth and error, and the fit beside the measured time at the\n"
    "lesson's message sizes. gpusplit report --link-from LOG prices with the fitted link.\n"
    "\n";

static const char VALIDATE_HELP[] =
    "usage: gpusplit validate TABLE --source-dir DIR --lesson-link fast|slow [--gpu NAME --link NAME]\n"
    "\n"
    "The model against the measured all-reduces of TABLE (a CSV of\n"
    "../shared/reference/allreduce-measured), rows of sweep 1 from DIR, for each GPU count,\n"
    "from 8 KiB to 1 MiB: the median and worst relative error of (a) the lesson's link, (b)\n"
    "the catalogue's GPU and link with --nccl auto, and (c) a fit to every other size of the\n"
    "table, tested on the rest.\n"
    "\n"
    "       gpusplit validate --runs RUNS.csv [--efficiency-from FIT.csv]\n"
    "\n"
    "The model against measured decode runs (the format of\n"
    "../shared/reference/decode-measured/runs.csv): each run whose model and GPU the catalogue\n"
    "knows, predicted at the peaks, with its engine's fitted figures and with the median\n"
    "engine's (data/efficiency.json, or a fit to FIT.csv), against the measured time per\n"
    "word and time to the first word; medians by source and by GPU.\n"
    "\n"
    "       gpusplit validate --runs RUNS.csv --leave-source-out\n"
    "\n"
    "How far off the fit is on runs it never saw: each source's runs priced with figures\n"
    "fitted again on the other sources' runs only; medians by source left out and over all\n"
    "(at most 32 sources: each is a fit again).\n"
    "\n"
    "       gpusplit validate --serving RUNS.csv [--more MORE.csv] [--leave-source-out]\n"
    "\n"
    "The served load against measured serving runs (the columns of\n"
    "tests/measured/serving-runs.csv): each row priced as gpusplit serve prices it, with\n"
    "data/serving.json's step figures; measured and priced output tokens a second, time per\n"
    "output token and to the first token with the signed error; each row not priced with the\n"
    "reason; medians of |error| for the fitted sources (P1, P2 and the gathered F1 and\n"
    "F3 to F6) and the held-out ones. --more reads a second file of the same columns after\n"
    "RUNS.csv. With --leave-source-out, also each fitted source priced with a fit to the\n"
    "others only.\n"
    "\n";

/* The lesson's message sizes: one word of 4,096, 8,192 and 16,384 numbers of 2 bytes (8B,
 * 70B, 405B), and 64 words of each. */
static const uint64_t LESSON_SIZES[] = {8192, 16384, 32768, 524288, 1048576, 2097152};

static int read_log(const char *path, gs_measured *m, gs_fit *fit) {
  char *text;
  size_t len;
  gs_error err;
  int rc = cli_read_file(path, GS_MEASURED_MAX_BYTES, "an all_reduce_perf log", &text, &len);
  if (rc != CLI_OK) return rc;
  rc = gs_nccl_log_parse(text, len, m, &err);
  free(text);
  if (rc != GS_OK || gs_fit_measured(m, fit, &err) != GS_OK) return cli_bad_error(path, &err);
  return CLI_OK;
}

/* The measured time at exactly this size, or 0 when the log has none. */
static double measured_at(const gs_measured *m, uint64_t bytes) {
  size_t i;
  for (i = 0; i < m->count; i++)
    if (m->rows[i].bytes == bytes) return m->rows[i].time_us;
  return 0;
}

static void print_json(const gs_measured *m, const gs_fit *fit) {
  size_t k;
  printf("{\"gpus\":%llu,\"type\":", (unsigned long long)fit->gpus);
  cli_json_string(stdout, m->type);
  printf(",\"rows\":%zu,\"regimes\":[", m->count);
  for (k = 0; k < fit->count; k++) {
    const gs_regime *r = &fit->regimes[k];
    printf("%s{\"from_bytes\":%llu,\"to_bytes\":%llu,\"rows\":%zu,\"latency_us\":", k ? "," : "", (unsigned long long)r->from_bytes,
           (unsigned long long)r->to_bytes, r->rows);
    cli_json_double(stdout, r->latency_us);
    printf(",\"bandwidth\":");
    if (r->bandwidth > 0) cli_json_double(stdout, r->bandwidth);
    else printf("null");
    printf(",\"rms_rel_error\":");
    cli_json_double(stdout, r->rms_rel_error);
    printf("}");
  }
  printf("],\"lesson_sizes\":[");
  for (k = 0; k < sizeof LESSON_SIZES / sizeof LESSON_SIZES[0]; k++) {
    double measured = measured_at(m, LESSON_SIZES[k]);
    printf("%s{\"bytes\":%llu,\"fit_us\":", k ? "," : "", (unsigned long long)LESSON_SIZES[k]);
    cli_json_double(stdout, gs_fit_predict_us(fit, LESSON_SIZES[k]));
    printf(",\"measured_us\":");
    if (measured > 0) cli_json_double(stdout, measured);
    else printf("null");
    printf("}");
  }
  printf("]}\n");
}

static void print_table(const char *path, const gs_measured *m, const gs_fit *fit) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP];
  size_t k;
  fputs("Log: ", stdout);
  cli_put_text(stdout, path);
  printf(", %llu GPUs, %zu sizes of ", (unsigned long long)fit->gpus, m->count);
  cli_put_text(stdout, m->type); /* the log's type column */
  printf(", the faster of the out-of-place and in-place times\n");
  printf("Fit: time = latency + bytes x 2(n-1)/n / bandwidth, least squares on relative error, in %zu regime%s\n"
         "(a break between regimes is kept only when it halves the squared error; NCCL has three protocols)\n\n",
         fit->count, fit->count == 1 ? "" : "s");
  printf("%16s %16s %12s %14s %10s\n", "from bytes", "to bytes", "latency us", "bandwidth GB/s", "rms error");
  for (k = 0; k < fit->count; k++) { /* a bandwidth from 1e6 bytes a second shows at 4 places, 0.0010 */
    const gs_regime *r = &fit->regimes[k];
    printf("%16s %16s %12s %14s %9s%%\n", gs_grouped(a, sizeof a, r->from_bytes), gs_grouped(b, sizeof b, r->to_bytes),
           gs_fixed(c, sizeof c, r->latency_us, 2), r->bandwidth > 0 ? gs_fixed_grouped(d, sizeof d, r->bandwidth / 1e9, r->bandwidth >= 5e7 ? 1 : 4) : "none",
           gs_fixed(e, sizeof e, r->rms_rel_error * 100, 1));
  }
  printf("\nAt the lesson's message sizes (one word of 8B, 70B and 405B, and 64 words of each):\n");
  printf("%12s %12s %12s %8s\n", "bytes", "fit us", "measured us", "error");
  for (k = 0; k < sizeof LESSON_SIZES / sizeof LESSON_SIZES[0]; k++) {
    double fit_us = gs_fit_predict_us(fit, LESSON_SIZES[k]), measured = measured_at(m, LESSON_SIZES[k]);
    printf("%12s %12s", gs_grouped(a, sizeof a, LESSON_SIZES[k]), gs_fixed(b, sizeof b, fit_us, 2));
    if (measured > 0)
      printf(" %12s %7s%%\n", gs_fixed(c, sizeof c, measured, 2), gs_fixed(d, sizeof d, (fit_us - measured) / measured * 100, 1));
    else
      printf(" %12s %8s\n", "-", "-");
  }
}

typedef struct {
  const char *path;
  int json;
} calibrate_flags;

static const gs_flag CALIBRATE_FLAGS[] = {
    GS_NEEDED_PATH("LOG", offsetof(calibrate_flags, path), NULL),
    GS_SWITCH("--json", offsetof(calibrate_flags, json), 0, "one JSON object instead of the table"),
};

int cli_calibrate(int argc, char **argv) {
  calibrate_flags f = {NULL, 0};
  gs_flag_set set = {CALIBRATE_FLAGS, sizeof CALIBRATE_FLAGS / sizeof CALIBRATE_FLAGS[0], &f, NULL, NULL};
  gs_measured m;
  gs_fit fit;
  int rc = cli_flags_or_help(&set, 1, argc, argv, CALIBRATE_HELP, "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  if ((rc = read_log(f.path, &m, &fit)) != CLI_OK) return rc;
  if (f.json) print_json(&m, &fit);
  else print_table(f.path, &m, &fit);
  return CLI_OK;
}

/* ---------- validate */

static const char *summary(const fit_ar_error *e, char *buf, size_t cap) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP];
  if (e->n == 0) return "-";
  snprintf(buf, cap, "%s%% / %s%%", gs_fixed(a, sizeof a, e->median * 100, 1), gs_fixed(b, sizeof b, e->worst * 100, 1));
  return buf;
}

/* One line of validate's table: the table's rows at gpus GPUs, priced three ways
 * (fit_allreduce_errors); GS_ERR_UNKNOWN when it has none at that count. */
static int validate_count(const char *text, size_t len, const char *dir, uint64_t gpus, const gs_link *lesson, const gs_gpu *gpu,
                          const gs_link *link, const char *name) {
  gs_measured m;
  fit_ar_error e[FIT_AR_WAYS];
  gs_error err;
  char sa[64], sb[64], sc[64], *shown;
  int rc = gs_measured_csv_parse(text, len, dir, gpus, &m, &err);
  if (rc == GS_ERR_UNKNOWN) return rc; /* no rows for this count */
  if (rc != GS_OK) return cli_bad_error(name, &err);
  if (fit_allreduce_errors(&m, gpus, lesson, gpu, link, e, &err) != GS_OK) return cli_bad_error("validate", &err);
  /* --name or the table's path, escaped whole: a byte becomes at most four (\xNN) */
  if (!(shown = malloc(4 * strlen(name) + 1))) return cli_bad("validate: out of memory");
  gs_escape(shown, 4 * strlen(name) + 1, name, strlen(name), GS_ESCAPE_TEXT);
  printf("%-22s %5llu %20s %20s %20s\n", shown, (unsigned long long)gpus, summary(&e[0], sa, sizeof sa), summary(&e[1], sb, sizeof sb),
         summary(&e[2], sc, sizeof sc));
  free(shown);
  return GS_OK;
}

typedef struct {
  const char *path, *dir, *lesson_key, *gpu_key, *link_key, *name, *runs, *fit_from, *serving, *more;
  int left_out;
} validate_flags;

#define AT(member) offsetof(validate_flags, member)
static const gs_flag VALIDATE_FLAGS[] = {
    GS_PATH("TABLE", NULL, AT(path), NULL),
    GS_PATH("--source-dir", "DIR", AT(dir), "the source whose rows of TABLE are read"),
    GS_TEXT("--lesson-link", "fast|slow", AT(lesson_key), "(a): the lesson's link"),
    GS_TEXT("--gpu", "NAME", AT(gpu_key), "(b): the catalogue's GPU, with --link"),
    GS_TEXT("--link", "NAME", AT(link_key), "(b): the catalogue's link, with --gpu"),
    GS_TEXT("--name", "NAME", AT(name), "the name of the table's rows (default: TABLE's path)"),
    GS_PATH("--runs", "RUNS.csv", AT(runs), "measured decode runs instead of an all-reduce table"),
    GS_PATH("--efficiency-from", "FIT.csv", AT(fit_from), "with --runs: the figures fitted to FIT.csv's runs"),
    GS_PATH("--serving", "FILE", AT(serving), "measured serving runs (tests/measured/serving-runs.csv's columns),\n"
                                             "each priced as gpusplit serve prices it"),
    GS_PATH("--more", "FILE", AT(more), "with --serving: more serving runs read after FILE's, as its rows are\n"
                                        "(tests/measured/serving-fit-gathered.csv)"),
    GS_SWITCH("--leave-source-out", AT(left_out), 0, "with --runs or --serving: each source priced by a fit without it"),
};

/* --runs FILE: the decode tables (validate_runs.c). */
static int validate_runs(const validate_flags *f) {
  if (f->path || f->dir || f->lesson_key || f->gpu_key || f->link_key || f->name)
    return cli_bad("validate: --runs FILE takes no all-reduce table or its flags");
  if (f->left_out && f->fit_from) return cli_bad("validate: --leave-source-out fits on the runs file itself; leave out --efficiency-from");
  return f->left_out ? cli_validate_left_out(f->runs) : cli_validate_runs(f->runs, f->fit_from);
}

int cli_validate(int argc, char **argv) {
  validate_flags f;
  gs_flag_set set = {VALIDATE_FLAGS, sizeof VALIDATE_FLAGS / sizeof VALIDATE_FLAGS[0], &f, NULL, NULL};
  gs_link lesson, link;
  gs_gpu gpu;
  gs_error err;
  char *text;
  size_t len;
  uint64_t gpus;
  int rc, found = 0;
  memset(&f, 0, sizeof f);
  if ((rc = cli_flags_or_help(&set, 1, argc, argv, VALIDATE_HELP, "")) != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  if (f.runs && f.serving) return cli_bad("validate: --runs and --serving are two files; give one");
  if (f.runs) return validate_runs(&f);
  if (f.serving) {
    if (f.path || f.dir || f.lesson_key || f.gpu_key || f.link_key || f.name || f.fit_from)
      return cli_bad("validate: --serving FILE takes only --more and --leave-source-out");
    return cli_validate_serving(f.serving, f.more, f.left_out);
  }
  if (f.more) return cli_bad("validate: --more FILE goes with --serving FILE");
  if (f.left_out) return cli_bad("validate: --leave-source-out goes with --runs FILE or --serving FILE");
  if (f.fit_from) return cli_bad("validate: --efficiency-from goes with --runs FILE");
  if (!f.path || !f.dir || !f.lesson_key || (f.gpu_key == NULL) != (f.link_key == NULL))
    return cli_bad("validate: give TABLE, --source-dir and --lesson-link, and --gpu with --link (see gpusplit validate --help)");
  if (gs_builtin_link(f.lesson_key, &lesson, NULL, &err) != GS_OK) return cli_bad("--lesson-link: %s", err.what);
  if (f.gpu_key && (gs_builtin_gpu(f.gpu_key, &gpu, NULL, &err) != GS_OK || gs_builtin_link(f.link_key, &link, NULL, &err) != GS_OK))
    return cli_bad("--gpu, --link: %s", err.what);
  if ((rc = cli_read_file(f.path, GS_MEASURED_MAX_BYTES, "a measured all-reduce table", &text, &len)) != CLI_OK) return rc;
  for (gpus = 2; gpus <= 64; gpus *= 2) {
    rc = validate_count(text, len, f.dir, gpus, &lesson, f.gpu_key ? &gpu : NULL, &link, f.name ? f.name : f.path);
    if (rc == GS_OK) found = 1;
    else if (rc != GS_ERR_UNKNOWN) break;
  }
  free(text);
  if (rc != GS_OK && rc != GS_ERR_UNKNOWN) return rc;
  if (!found) return cli_bad("%s: no rows from %s", f.path, f.dir);
  return CLI_OK;
}
