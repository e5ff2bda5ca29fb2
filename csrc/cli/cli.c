/* gpusplit: the command line. Dispatches to report, numbers and fixture. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char USAGE[] =
    "usage: gpusplit COMMAND [FLAGS]\n"
    "\n"
    "The cost of splitting a large language model over several GPUs, after the lesson\n"
    "\"splitting one big model over several GPUs\".\n"
    "\n"
    "commands:\n"
    "  report    memory per GPU, time per word and waiting for a model, GPU and link\n"
    "  numbers   every number the lesson quotes\n"
    "  fixture   every setting the widget offers, as JSON, for the parity tests\n"
    "  list      the built-in models, GPUs and links (list models|gpus|links)\n"
    "  calibrate a link fitted to an nccl-tests all_reduce_perf log\n"
    "  validate  the model against a table of measured all-reduces (make validate)\n"
    "  figure    one of the lesson's four figures as an SVG (make figures)\n"
    "  fit       achieved efficiency fitted to measured decode runs (gpusplit fit RUNS.csv)\n"
    "\n"
    "Run gpusplit COMMAND --help for its flags. Bad input exits with status 2.\n";

/* Text that may come from the user (a path, a flag's value), made safe for a terminal by
 * the library's one escaping (gs_escape_next): a message stays one line of valid UTF-8
 * and cannot move the cursor, change colours or reorder what it shows. */
void cli_put_text(FILE *f, const char *s) {
  size_t len = strlen(s), at = 0;
  char piece[GS_ESCAPE_CAP];
  while (at < len) {
    at += gs_escape_next(s + at, len - at, GS_ESCAPE_TEXT, piece);
    fputs(piece, f);
  }
}

int cli_bad(const char *fmt, ...) {
  va_list ap;
  char fixed[1024], *text = fixed;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(fixed, sizeof fixed, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof fixed && (text = malloc((size_t)n + 1)) != NULL) {
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  fputs("gpusplit: ", stderr);
  cli_put_text(stderr, text ? text : fixed);
  fputc('\n', stderr);
  if (text != fixed) free(text);
  return CLI_BAD_INPUT;
}

int cli_bad_error(const char *source, const gs_error *err) {
  if (err->field[0] != '\0') return cli_bad("%s: %s: %s", source, err->field, err->what);
  return cli_bad("%s: %s", source, err->what);
}

/* 17 significant digits: enough for any double to read back as itself. */
char *gs_exact(char *buf, size_t cap, double x) {
  snprintf(buf, cap, "%.17g", x);
  return buf;
}

/* 15 significant digits, trailing zeros dropped: a constant as a person wrote it (0.6,
 * 6.6, 80), for labels; figures the lesson quotes go through gs_fixed. */
char *gs_plain(char *buf, size_t cap, double x) {
  if (x == 0) x = 0; /* -0 (--step-us -0) prints as 0, as toFixed prints it */
  snprintf(buf, cap, "%.15g", x);
  return buf;
}

/* The same escaping as JSON escapes, which a reader decodes back to the text given (a byte
 * that is not UTF-8 becomes U+FFFD: JSON must be UTF-8, RFC 8259 section 8.1). */
void cli_json_string(FILE *f, const char *s) {
  size_t len = strlen(s), at = 0;
  char piece[GS_ESCAPE_CAP];
  fputc('"', f);
  while (at < len) {
    at += gs_escape_next(s + at, len - at, GS_ESCAPE_JSON, piece);
    fputs(piece, f);
  }
  fputc('"', f);
}

/* Reads the whole of path, NUL-terminated, into memory the caller frees; more than
 * max_bytes is refused, naming what the file should be. */
int cli_read_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  size_t n;
  if (!f) return cli_bad("%s: cannot read it: %s", path, strerror(errno));
  buf = malloc(max_bytes + 1);
  if (!buf) {
    fclose(f);
    return cli_bad("%s: out of memory", path);
  }
  n = fread(buf, 1, max_bytes + 1, f);
  if (ferror(f)) {
    int e = errno;
    fclose(f);
    free(buf);
    return cli_bad("%s: cannot read it: %s", path, strerror(e));
  }
  fclose(f);
  if (n > max_bytes) {
    free(buf);
    return cli_bad("%s: is larger than %zu MiB, too large for %s", path, max_bytes >> 20, what);
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return CLI_OK;
}

void cli_json_double(FILE *f, double x) {
  char buf[40];
  fputs(gs_exact(buf, sizeof buf, x), f);
}

int cli_run(int argc, char **argv) {
  if (argc < 2) {
    fputs(USAGE, stderr);
    return CLI_BAD_INPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    fputs(USAGE, stdout);
    return CLI_OK;
  }
  if (strcmp(argv[1], "report") == 0) return cli_report(argc - 1, argv + 1);
  if (strcmp(argv[1], "numbers") == 0) return cli_numbers(argc - 1, argv + 1);
  if (strcmp(argv[1], "fixture") == 0) return cli_fixture(argc - 1, argv + 1);
  if (strcmp(argv[1], "list") == 0) return cli_list(argc - 1, argv + 1);
  if (strcmp(argv[1], "calibrate") == 0) return cli_calibrate(argc - 1, argv + 1);
  if (strcmp(argv[1], "validate") == 0) return cli_validate(argc - 1, argv + 1);
  if (strcmp(argv[1], "figure") == 0) return cli_figure(argc - 1, argv + 1);
  if (strcmp(argv[1], "plan") == 0) return cli_plan(argc - 1, argv + 1);
  if (strcmp(argv[1], "fit") == 0) return cli_fit(argc - 1, argv + 1);
  return cli_bad("unknown command '%s' (report, numbers, fixture, list, calibrate, validate, figure, fit; see gpusplit --help)", argv[1]);
}

/* The fuzz harness (tests/fuzz/fuzz_cli.c) calls cli_run itself, with its own stdout. */
#ifndef GS_NO_MAIN
/* Output that did not arrive is a failure, not a success with a short file: a full disk,
 * a closed stdout or a reader that went away (EPIPE, when SIGPIPE is ignored) exits 1
 * with one line. The buffer is flushed and stdout closed here, not at exit, so that a
 * failed last write or close is seen. A write that failed earlier set the error flag;
 * stdio then emptied its buffer, so the last flush usually fails again and names the
 * cause, and where it has nothing left to write no cause is guessed from a stale errno.
 * A command that already failed has said why on stderr: its status stands. */
static int close_stdout(int status) {
  int failed = ferror(stdout) != 0;
  int cause = 0;
  errno = 0;
  if (fflush(stdout) != 0) {
    failed = 1;
    cause = errno;
  }
  errno = 0;
  if (fclose(stdout) != 0 && !failed) {
    failed = 1;
    cause = errno;
  }
  if (!failed || status != CLI_OK) return status;
  if (cause != 0) fprintf(stderr, "gpusplit: writing output: %s\n", strerror(cause));
  else fputs("gpusplit: writing output failed\n", stderr);
  return CLI_FAILED;
}

int main(int argc, char **argv) { return close_stdout(cli_run(argc, argv)); }
#endif
