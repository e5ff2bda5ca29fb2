/* gpusplit: the command line. Dispatches to report, numbers and fixture. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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
    "  list      the built-in models (list models)\n"
    "\n"
    "Run gpusplit COMMAND --help for its flags. Bad input exits with status 2.\n";

int cli_bad(const char *fmt, ...) {
  va_list ap;
  fputs("gpusplit: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
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
  snprintf(buf, cap, "%.15g", x);
  return buf;
}

void cli_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

void cli_json_double(FILE *f, double x) {
  char buf[40];
  fputs(gs_exact(buf, sizeof buf, x), f);
}

static int run(int argc, char **argv) {
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
  return cli_bad("unknown command '%s' (report, numbers, fixture, list; see gpusplit --help)", argv[1]);
}

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

int main(int argc, char **argv) { return close_stdout(run(argc, argv)); }
