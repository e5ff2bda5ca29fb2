/* Achieved efficiency fitted to measured decode runs, shared by the files that do one part
 * each: fit_runs.c (the fit), fit_output.c (`gpusplit fit`'s table and JSON),
 * efficiency_pick.c (data/efficiency.json read back, and an engine's figures picked for
 * report) and validate_runs.c (validate's decode tables, and runs of a source left out). */
#ifndef GPUSPLIT_FIT_H
#define GPUSPLIT_FIT_H

#include "cli.h"
#include "internal.h"
#include "read/efficiency.h"

/* A measured run, priced as report --assume real prices it (runs_setting.c). */
typedef struct {
  const gs_run *run;
  cli_run_setting_t s;
  int ok;
  char why[640]; /* room for cli_run_setting's longest reason (a library error's field and what, a cell of a run), never cut */
  double weight; /* within the group being fitted */
} priced_run;

/* A run's |relative errors|, -1 where it has none: as validate prices it, or with its source
 * left out of the fit (fit_left_out_errors). */
typedef struct {
  double own, any, peak, first;
} left_out_error;

/* A runs file read, with room to price its runs, fit them and keep each run's errors with its
 * source left out: what fit and validate work on. */
typedef struct {
  gs_runs *runs;
  priced_run *p;
  left_out_error *e;
  fit_result *fr;
} fit_work;
/* fit_output.c: reads path's runs and allocates the rest (who names the command in an
 * out-of-memory error): CLI_OK, or the error said and nothing left to free. */
int fit_work_open(const char *path, const char *who, fit_work *w);
void fit_work_close(fit_work *w);

/* fit_runs.c */
int fit_excluded(const priced_run *p);
int fit_in_group(const priced_run *p, const char *engine, const char *generation);
double fit_predict(const priced_run *p, const gs_efficiency *e, int first_word);
double fit_median(double *e, size_t n);
double fit_rel(double predicted, double measured);
size_t fit_price_runs(const gs_runs *runs, priced_run *p);
int cli_fit_runs(const gs_runs *runs, const char *allreduce_dir, priced_run *p, fit_result *fr);
/* efficiency_pick.c */
/* The built-in data/efficiency.json (GS_EFFICIENCY_TABLE) into fr: CLI_OK. */
int fit_read_builtin(fit_result *fr);
/* A runs file fitted into fr, keeping fr's all-reduce start-up (report --efficiency-from,
 * validate --efficiency-from). */
int fit_runs_file(const char *path, fit_result *fr);
/* validate_runs.c */
/* The most sources --leave-source-out fits again without, one fit each (docs/CLI.md's
 * table of limits): a fit of 1,024 runs takes up to 0.45 s of CPU here, so 32 sources 14 s. */
#define FIT_LEFT_OUT_MAX_SOURCES 32
/* CLI_OK when the priced runs p hold at most FIT_LEFT_OUT_MAX_SOURCES sources the fit uses;
 * else says so, naming path, and returns CLI_BAD_INPUT. */
int fit_left_out_bound(const gs_runs *runs, const priced_run *p, const char *path);
int fit_left_out_errors(const gs_runs *runs, const priced_run *p, const ar_fit *ar, left_out_error *out);
void fit_note_left_out(const gs_runs *runs, const priced_run *p, const left_out_error *e, fit_result *fr);

#endif
