/* libFuzzer target: the fit (csrc/fit/fit_runs.c) and what fit and validate print of it,
 * over any runs text the reader accepts (its own harness, fuzz_runs.c, fuzzes the reader).
 * The text is written to a file and run through the command line, in-process with stdout
 * and stderr caught in memory, as `fit --json`, `fit` and `validate --runs` (and
 * `fit --json --leave-source-out` on up to 8 runs). Bounded to 24 runs, so each input takes
 * milliseconds (a fit's cost grows with the runs; docs/CLI.md's table of limits). Each must exit 0,
 * or 2 with one line; fit --json must be JSON the library's own reader takes (so no raw
 * control byte, quote or Infinity in it) with every figure in its range; the text must hold
 * no raw control character (but the line ends), C1 control or bidirectional control.
 * Run with `make fuzz`. glibc's open_memstream and assignable stdout keep it Linux-only. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_RUNS = 24, LEFT_OUT_RUNS = 8 };

/* The command's output: status, stdout and stderr. */
typedef struct {
  int status;
  char *out, *err;
  size_t out_len, err_len;
} ran;

static void run(ran *r, int argc, char **argv) {
  FILE *saved_out = stdout, *saved_err = stderr;
  r->out = r->err = NULL;
  stdout = open_memstream(&r->out, &r->out_len);
  stderr = open_memstream(&r->err, &r->err_len);
  if (!stdout || !stderr) abort();
  r->status = cli_run(argc, argv);
  fclose(stdout);
  fclose(stderr);
  stdout = saved_out;
  stderr = saved_err;
  if (r->status == CLI_OK ? r->err_len != 0 : r->status != CLI_BAD_INPUT) abort();
  if (r->status == CLI_BAD_INPUT && (r->err_len == 0 || memchr(r->err, '\n', r->err_len) != r->err + r->err_len - 1)) abort();
}

/* No byte below 0x20 but a line end, no DEL, no C1 control (U+0080 to U+009F), no line or
 * paragraph separator and no bidirectional control (U+2028 to U+202E, U+2066 to U+2069). */
static void check_shown(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i], d = i + 1 < n ? (unsigned char)s[i + 1] : 0, e = i + 2 < n ? (unsigned char)s[i + 2] : 0;
    if ((c < 0x20 && c != '\n') || c == 0x7F || (c == 0xC2 && d >= 0x80 && d <= 0x9F)) abort();
    if (c == 0xE2 && ((d == 0x80 && e >= 0xA8 && e <= 0xAE) || (d == 0x81 && e >= 0xA6 && e <= 0xA9))) abort();
  }
}

/* A figure's member of object at, in [lo, hi]; or null when may_be_null. */
static void check_member(const gs_json *j, int at, const char *key, double lo, double hi, int may_be_null) {
  int k = gs_json_find(j, at, key);
  double x;
  if (k < 0) abort();
  if (may_be_null && gs_json_is_null(j, k)) return;
  if (gs_json_any_number(j, k, key, &x, NULL) != GS_OK || !(x >= lo) || !(x <= hi)) abort();
}

/* fit --json: JSON the library reads, each figure in range. */
static void check_json(const char *out, size_t len) {
  static jsmntok_t toks[1 << 16];
  gs_json j;
  int list, at, i;
  if (gs_json_parse(out, len, toks, sizeof toks / sizeof toks[0], &j, NULL) != GS_OK) abort();
  if ((list = gs_json_find(&j, 0, "figures")) < 0 || toks[list].type != JSMN_ARRAY || toks[list].size < 1) abort();
  for (i = 0, at = list + 1; i < toks[list].size; i++, at = gs_json_next(&j, at)) {
    int flops = gs_json_find(&j, at, "flops_share");
    double f;
    check_member(&j, at, "bandwidth_share", 0.2, 1, 0);
    if (flops < 0 || gs_json_any_number(&j, flops, "flops_share", &f, NULL) != GS_OK || !(f == 0 || (f >= 0.05 && f <= 1))) abort();
    check_member(&j, at, "layer_us", 0, 100000, 0);
    check_member(&j, at, "step_us", 0, 100000, 0);
    check_member(&j, at, "allreduce_us", 0, 100000, 0);
    check_member(&j, at, "request_us", 0, 100000, 0);
    check_member(&j, at, "median_error", 0, 1e300, 0);
    check_member(&j, at, "ttft_median_error", 0, 1e300, 1);
    check_member(&j, at, "left_out_error", 0, 1e300, 1);
  }
}

static void free_ran(ran *r) {
  free(r->out);
  free(r->err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static gs_runs runs;
  static gs_runs_scratch scratch;
  static char path[] = "/tmp/gpusplit-fuzz-fit-XXXXXX";
  static int fd = -1;
  char *fit_json[] = {"gpusplit", "fit", "--json", path, NULL}, *fit_text[] = {"gpusplit", "fit", path, NULL};
  char *validate[] = {"gpusplit", "validate", "--runs", path, NULL};
  char *left_out[] = {"gpusplit", "fit", "--json", "--leave-source-out", path, NULL};
  FILE *f;
  ran r;
  if (gs_runs_parse((const char *)data, size, &scratch, &runs, NULL) != GS_OK || runs.count > MAX_RUNS) return 0;
  if (fd < 0 && (fd = mkstemp(path)) < 0) abort();
  if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
  run(&r, 4, fit_json);
  if (r.status == CLI_OK) check_json(r.out, r.out_len);
  free_ran(&r);
  run(&r, 3, fit_text);
  check_shown(r.out, r.out_len);
  free_ran(&r);
  run(&r, 4, validate);
  check_shown(r.out, r.out_len);
  free_ran(&r);
  if (runs.count <= LEFT_OUT_RUNS) {
    run(&r, 5, left_out);
    if (r.status == CLI_OK) check_json(r.out, r.out_len);
    free_ran(&r);
  }
  return 0;
}
