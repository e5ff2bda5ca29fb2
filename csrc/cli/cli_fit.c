/* `gpusplit fit RUNS.csv`: achieved efficiency fitted to measured decode runs
 * (csrc/fit/fit_runs.c does the fit, csrc/cli/fit_output.c prints it). */
#include <string.h>

#include "cli.h"

static const char FIT_HELP[] =
    "usage: gpusplit fit RUNS.csv [--json] [--allreduce DIR] [--leave-source-out]\n"
    "\n"
    "Fits the achieved efficiency to measured decode runs (a CSV in the format of\n"
    "../shared/reference/decode-measured/runs.csv): the share of the memory bandwidth a step\n"
    "reads at and fixed costs a layer, a step and an all-reduce, for every engine's runs\n"
    "pooled and by engine (and by either and GPU generation where at least 6 runs allow), the\n"
    "share of the FLOP/s a prefill reaches (from ttft_ms), and the all-reduce start-up above\n"
    "NCCL's constants by GPU generation (from the measured tables in DIR, default\n"
    "tests/measured). Least squares of relative error, each source weighted alike. Prints the\n"
    "figures and each run's error; runs whose model or GPU the catalogue lacks are listed as\n"
    "skipped, with the reason. --json prints data/efficiency.json. --leave-source-out also\n"
    "fits again without each source in turn and gives each engine's median error on the runs\n"
    "left out (a refit a source: it takes as many times longer; at most 32 sources).\n";

int cli_fit(int argc, char **argv) {
  const char *path = NULL, *dir = "tests/measured";
  int i, json = 0, left_out = 0;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(FIT_HELP, stdout);
      return CLI_OK;
    }
    if (strcmp(argv[i], "--json") == 0) json = 1;
    else if (strcmp(argv[i], "--leave-source-out") == 0) left_out = 1;
    else if (strcmp(argv[i], "--allreduce") == 0) {
      if (i + 1 >= argc) return cli_bad("--allreduce: needs a value");
      dir = argv[++i];
    } else if (strncmp(argv[i], "--", 2) == 0) return cli_bad("fit: unknown flag '%s' (see gpusplit fit --help)", argv[i]);
    else if (path) return cli_bad("fit: give one runs file");
    else path = argv[i];
  }
  if (!path) return cli_bad("fit: give a runs file: gpusplit fit RUNS.csv");
  return cli_fit_file(path, dir, json, left_out);
}
