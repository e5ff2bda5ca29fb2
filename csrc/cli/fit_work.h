/* What `gpusplit fit`, `validate --runs` and `report --efficiency-from` share on the command
 * line: a runs file read into memory with room for the fit (csrc/fit/), the files of the
 * all-reduce fit read, and the fit's failures said (fit_work.c). */
#ifndef GPUSPLIT_FIT_WORK_H
#define GPUSPLIT_FIT_WORK_H

#include "cli.h"
#include "fit/fit.h"

/* A runs file read, with room to price its runs, fit them and keep each run's errors with its
 * source left out: what fit and validate work on. */
typedef struct {
  gs_runs *runs;
  priced_run *p;
  left_out_error *e;
  fit_result *fr;
} fit_work;
/* Reads path's runs and allocates the rest (who names the command in an out-of-memory
 * error): CLI_OK, or the error said and nothing left to free. */
int fit_work_open(const char *path, const char *who, fit_work *w);
void fit_work_close(fit_work *w);
/* The built-in data/efficiency.json (GS_EFFICIENCY_TABLE) into fr: CLI_OK. */
int fit_read_builtin(fit_result *fr);
/* A runs file fitted into fr, keeping fr's all-reduce start-up (report --efficiency-from,
 * validate --efficiency-from). */
int fit_runs_file(const char *path, fit_result *fr);
/* fit_runs, its failure said. */
int cli_fit_runs(const gs_runs *runs, priced_run *p, fit_result *fr);
/* The all-reduce start-up fitted to the tables of the folder dir (fit --allreduce). */
int cli_fit_allreduce(const char *dir, ar_fit *out);
/* Each run that was not priced, a line each: its id and why (fit's and validate's tables). */
void cli_put_skipped(const gs_runs *runs, const priced_run *p);
/* fit_left_out_bound, naming path when it refuses. */
int cli_left_out_bound(const gs_runs *runs, const priced_run *p, const char *path);

#endif
