/* The figures validate and report --efficiency-from start from: data/efficiency.json (the
 * typed table build/efficiency_table.c), or a fit to the user's runs (fit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

int fit_read_builtin(fit_result *fr) {
  *fr = GS_EFFICIENCY_TABLE;
  return CLI_OK;
}

int fit_runs_file(const char *path, fit_result *fr) {
  fit_work w;
  int rc;
  if ((rc = fit_work_open(path, path, &w)) != CLI_OK) return rc;
  rc = cli_fit_runs(w.runs, NULL, w.p, fr);
  fit_work_close(&w);
  return rc;
}

