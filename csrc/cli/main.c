/* gpusplit: the command line. main() hands argv to the command its first word names, from
 * the table below, and closes stdout so that output that did not arrive fails. To add a
 * command: a file csrc/cli/cli_NAME.c with int cli_NAME(int argc, char **argv), its line in
 * csrc/cli/cli.h and one row here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary; /* one line of `gpusplit --help` */
} command;

static const command COMMANDS[] = {
    {"report", cli_report, "memory per GPU, time per word and waiting for a model, GPU and link"},
    {"numbers", cli_numbers, "every number the lesson quotes"},
    {"fixture", cli_fixture, "every setting the widget offers, as JSON, for the parity tests"},
    {"list", cli_list, "the built-in models, GPUs and links (list models|gpus|links)"},
    {"calibrate", cli_calibrate, "a link fitted to an nccl-tests all_reduce_perf log"},
    {"validate", cli_validate, "the model against measured all-reduces and decode runs (make validate)"},
    {"figure", cli_figure, "one of the lesson's four figures as an SVG (make figures)"},
    {"fit", cli_fit, "achieved efficiency fitted to measured decode runs (gpusplit fit RUNS.csv)"},
    {"plan", cli_plan, "every layout within a budget of GPUs: the frontier of speed against throughput"},
    {"serve", cli_serve, "a load served by one layout, simulated step by step: first token, per token, throughput"},
};
enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static void usage(FILE *f) {
  size_t i;
  fputs("usage: gpusplit COMMAND [FLAGS]\n"
        "\n"
        "The cost of splitting a large language model over several GPUs, after the lesson\n"
        "\"splitting one big model over several GPUs\".\n"
        "\n"
        "commands:\n",
        f);
  for (i = 0; i < COMMAND_COUNT; i++) fprintf(f, "  %-9s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
  fputs("\nRun gpusplit COMMAND --help for its flags. Bad input exits with status 2.\n", f);
}

int cli_run(int argc, char **argv) {
  char names[256];
  size_t i, at = 0;
  if (argc < 2) {
    usage(stderr);
    return CLI_BAD_INPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return CLI_OK;
  }
  for (i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(argv[1], COMMANDS[i].name) == 0) return COMMANDS[i].run(argc - 1, argv + 1);
  names[0] = '\0';
  for (i = 0; i < COMMAND_COUNT && at < sizeof names; i++)
    at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", COMMANDS[i].name);
  return cli_bad("unknown command '%s' (%s; see gpusplit --help)", argv[1], names);
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
