/* The achieved-efficiency fit, a layer of the library between the commands and the readers:
 * measured decode runs priced as `report --assume real` prices them (runs_setting.c), the
 * fit of each group's figures (fit_runs.c) and of the all-reduce start-up, and each source's
 * runs priced with a fit that never saw them (left_out.c). It reads no file and prints
 * nothing: the command line (csrc/cli/fit_work.c, fit_output.c, validate_runs.c) reads the
 * files and prints what it returns. The figures' types and their pick are the readers'
 * (csrc/read/efficiency.h). */
#ifndef GPUSPLIT_FIT_H
#define GPUSPLIT_FIT_H

#include "internal.h"
#include "read/efficiency.h"

/* A measured run as a setting the model prices (model, GPU, one-way ring link, realistic
 * plan), or 0 with why it cannot be (runs_setting.c). */
typedef struct {
  gs_model model;
  gs_gpu gpu;
  gs_link link;
  gs_plan plan;
  char gpu_key[32], model_key[32];
  const char *generation; /* one of GS_GENERATIONS, or "" (data/gpus.json) */
  const char *engine;     /* as --engine names it */
} fit_run_setting_t;
int fit_run_setting(const gs_run *r, fit_run_setting_t *s, char *why, size_t cap);
/* The engine a run's software names (GS_ENGINE_COUNT of them, with "other"). */
const char *fit_engine_of(const char *software);

/* A measured run, priced as report --assume real prices it. */
typedef struct {
  const gs_run *run;
  fit_run_setting_t s;
  int ok;
  char why[640]; /* room for fit_run_setting's longest reason (a library error's field and what, a cell of a run), never cut */
  double weight; /* within the group being fitted */
} priced_run;

/* A run's |relative errors|, -1 where it has none: as validate prices it, or with its source
 * left out of the fit (fit_left_out_errors). */
typedef struct {
  double own, any, peak, first;
} left_out_error;

/* fit_runs.c */
int fit_excluded(const priced_run *p);
int fit_in_group(const priced_run *p, const char *engine, const char *generation);
/* The run's time per word (or with first_word its first word's) with e; -1 when the model
 * refuses it. */
double fit_predict(const priced_run *p, const gs_efficiency *e, int first_word);
double fit_median(double *e, size_t n);
double fit_rel(double predicted, double measured);
/* Prices every run; the skipped keep why. Returns how many are priced. */
size_t fit_price_runs(const gs_runs *runs, priced_run *p);
/* Every group's figures fitted to runs (p: room for each, priced here), keeping fr's
 * all-reduce start-up. GS_ERR_NONE_FITS when no run can be priced. */
int fit_runs(const gs_runs *runs, priced_run *p, fit_result *fr, gs_error *err);

/* The all-reduce systems the start-up is fitted on: a table of tests/measured, its NCCL
 * folder and the catalogue GPU. */
#define FIT_AR_SYSTEM_COUNT 5
typedef struct {
  const char *file, *dir, *gpu;
} fit_ar_system;
extern const fit_ar_system FIT_AR_SYSTEMS[FIT_AR_SYSTEM_COUNT];
/* What failed: the system's catalogue GPU, or its table (not read, or no rows). */
enum { FIT_AR_GPU, FIT_AR_TABLE };
/* The start-up by generation from each system's table (texts[i], lens[i]: FIT_AR_SYSTEMS[i]'s
 * file); on failure *at names the system and *failure what failed. */
int fit_allreduce(const char *const texts[], const size_t lens[], ar_fit *out, size_t *at, int *failure, gs_error *err);

/* left_out.c */
/* The most sources --leave-source-out fits again without, one fit each (docs/CLI.md's
 * table of limits): a fit of 1,024 runs takes up to 0.45 s of CPU here, so 32 sources 14 s. */
#define FIT_LEFT_OUT_MAX_SOURCES 32
/* GS_OK when the priced runs p hold at most FIT_LEFT_OUT_MAX_SOURCES sources the fit uses;
 * else GS_ERR_RANGE, saying so. */
int fit_left_out_bound(const gs_runs *runs, const priced_run *p, gs_error *err);
/* Each source's runs priced with figures fitted on the other sources' (ar kept): GS_OK;
 * GS_ERR_SHAPE when fewer than two sources are priced; GS_ERR_TOO_LONG out of memory. */
int fit_left_out_errors(const gs_runs *runs, const priced_run *p, const ar_fit *ar, left_out_error *out);
/* Each engine's left_out_error (and the pooled one's), from the runs' errors. */
void fit_note_left_out(const gs_runs *runs, const priced_run *p, const left_out_error *e, fit_result *fr);

#endif
