/* `gpusplit fit RUNS.csv`: achieved efficiency fitted to measured decode runs
 * (csrc/fit/fit_runs.c does the fit, csrc/cli/fit_output.c prints it). */
#include <stddef.h>

#include "cli.h"

static const char FIT_HEAD[] =
    "usage: gpusplit fit RUNS.csv [--json] [--allreduce DIR] [--leave-source-out]\n"
    "       gpusplit fit --serving RUNS.csv [--more MORE.csv] [--held-out OTHER.csv] [--json]\n"
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
    "left out (a refit a source: it takes as many times longer; at most 32 sources).\n"
    "\n"
    "With --serving, fits each engine's served-step figures (data/serving.json: the step's\n"
    "FLOP/s share, the host time a sequence a step, the overlap share; then, to what they\n"
    "leave of the first tokens, a request's front end) to the rows of the\n"
    "fitted sources (P1, P2 and the gathered F1, F3 to F6) of a serving runs file and of\n"
    "--more's file of the same columns, each row priced as gpusplit serve prices it;\n"
    "--held-out adds a file of runs the fit never sees to the summary's held-out medians;\n"
    "--json prints data/serving.json.\n"
    "\n";

typedef struct {
  const char *path, *dir, *serving, *more, *held_out;
  int json, left_out;
} fit_flags;

#define AT(member) offsetof(fit_flags, member)
static const gs_flag FIT_FLAGS[] = {
    GS_PATH("RUNS.csv", NULL, AT(path), NULL),
    GS_PATH("--serving", "FILE", AT(serving), "measured serving runs: the serving fit instead"),
    GS_PATH("--more", "FILE", AT(more), "with --serving: more serving runs read after RUNS.csv's, as its rows are\n"
                                        "(tests/measured/serving-fit-gathered.csv)"),
    GS_PATH("--held-out", "FILE", AT(held_out), "with --serving: more serving runs, none fitted, whose errors\n"
                                                "join the held-out medians of the summary"),
    GS_SWITCH("--json", AT(json), 0, "data/efficiency.json's text instead of the table"),
    GS_PATH("--allreduce", "DIR", AT(dir), "the folder of measured all-reduce tables (default tests/measured)"),
    GS_SWITCH("--leave-source-out", AT(left_out), 0, "also each engine's error on the runs of a source left out"),
};

int cli_fit(int argc, char **argv) {
  fit_flags f = {NULL, "tests/measured", NULL, NULL, NULL, 0, 0};
  gs_flag_set set = {FIT_FLAGS, sizeof FIT_FLAGS / sizeof FIT_FLAGS[0], &f, NULL, NULL};
  int rc = cli_flags_or_help(&set, 1, argc, argv, FIT_HEAD, "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  if (f.serving) {
    if (f.path || f.left_out) return cli_bad("fit: --serving FILE takes only --more, --held-out and --json");
    return cli_fit_serving(f.serving, f.more, f.held_out, f.json);
  }
  if (f.held_out || f.more) return cli_bad("fit: --held-out FILE and --more FILE go with --serving");
  if (!f.path) return cli_bad("fit: RUNS.csv is needed (or --serving FILE)");
  return cli_fit_file(f.path, f.dir, f.json, f.left_out);
}
