/* `gpusplit fit RUNS.csv`: achieved efficiency fitted to measured decode runs
 * (csrc/cli/fit_runs.c does the fit and prints it). */
#include <string.h>

#include "cli.h"

static const char FIT_HELP[] =
    "usage: gpusplit fit RUNS.csv [--json] [--allreduce DIR]\n"
    "\n"
    "Fits the achieved efficiency to measured decode runs (a CSV in the format of\n"
    "../shared/reference/decode-measured/runs.csv): the share of the memory bandwidth a step\n"
    "reads at and a fixed cost a layer, by engine (and by engine and GPU generation where at\n"
    "least 6 runs allow), the share of the FLOP/s a prefill reaches (from ttft_ms), and the\n"
    "all-reduce start-up above NCCL's constants by GPU generation (from the measured tables\n"
    "in DIR, default tests/measured). Least squares of relative error, each source weighted\n"
    "alike. Prints the figures and each run's error; runs whose model or GPU the catalogue\n"
    "lacks are listed as skipped, with the reason. --json prints data/efficiency.json.\n";

int cli_fit(int argc, char **argv) {
  const char *path = NULL, *dir = "tests/measured";
  int i, json = 0;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(FIT_HELP, stdout);
      return CLI_OK;
    }
    if (strcmp(argv[i], "--json") == 0) json = 1;
    else if (strcmp(argv[i], "--allreduce") == 0) {
      if (i + 1 >= argc) return cli_bad("--allreduce: needs a value");
      dir = argv[++i];
    } else if (strncmp(argv[i], "--", 2) == 0) return cli_bad("fit: unknown flag '%s' (see gpusplit fit --help)", argv[i]);
    else if (path) return cli_bad("fit: give one runs file");
    else path = argv[i];
  }
  if (!path) return cli_bad("fit: give a runs file: gpusplit fit RUNS.csv");
  return cli_fit_file(path, dir, json);
}
