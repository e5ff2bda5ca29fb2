/* Achieved efficiency fitted to measured decode runs, shared by the files that do one part
 * each: fit_runs.c (the fit), fit_output.c (`gpusplit fit`'s table and JSON),
 * efficiency_pick.c (data/efficiency.json read back, and an engine's figures picked for
 * report) and validate_runs.c (validate's decode tables, and runs of a source left out). */
#ifndef GPUSPLIT_FIT_H
#define GPUSPLIT_FIT_H

#include "cli.h"
#include "internal.h"

/* The engine name of every engine's runs pooled: the figures when none is named. */
#define ANY_ENGINE "any"
/* The runs a group needs for figures of its own: an engine's, or an engine's on one GPU
 * generation; and the first words it needs for a FLOP/s share of its own. With fewer, its
 * two to six figures are fitted to a handful of settings (one run fits two of them exactly
 * and says nothing of the rest), so the fewer stand on the wider group's figures (an engine
 * on every generation, or every engine pooled). */
#define FIT_MIN_RUNS 6
#define FIT_GEN_COUNT 4
/* Every group a fit can make, so none is left out for want of room (64 once left out two
 * of the ten engines' generation groups): every engine pooled and each engine, over every
 * generation and on each of FIT_GEN_COUNT and AMD's cdna3. */
#define MAX_GROUPS ((1 + CLI_ENGINE_COUNT) * (2 + FIT_GEN_COUNT))
/* The NVIDIA generations fitted apart (and, by engine, AMD's cdna3). */
extern const char *const FIT_GENERATIONS[FIT_GEN_COUNT];
/* data/efficiency.json, embedded in the program by the Makefile (build/efficiency_file.c). */
extern const char GS_DATA_efficiency_json[];

/* A measured run, priced as report --assume real prices it (runs_setting.c). */
typedef struct {
  const gs_run *run;
  cli_run_setting_t s;
  int ok;
  char why[640]; /* room for cli_run_setting's longest reason (a library error's field and what, a cell of a run), never cut */
  double weight; /* within the group being fitted */
} priced_run;

/* The all-reduce start-up above NCCL's constants, by generation. */
typedef struct {
  double us[FIT_GEN_COUNT];
  size_t rows[FIT_GEN_COUNT];
  double rms_us[FIT_GEN_COUNT];
} ar_fit;

/* A group's figures. */
typedef struct {
  char engine[24], generation[16];
  gs_efficiency e;
  size_t runs, ttft_runs;
  char sources[128];
  double median_error, ttft_median_error; /* of |relative error|, with these figures */
  size_t ttft_errors; /* the first words ttft_median_error is over; 0: none (printed as none, not 0) */
  int allreduce_fitted; /* 1: e.allreduce_us fitted to the group's runs on several GPUs; 0: the
                           generation's fit to NVIDIA's measured all-reduces */
  double left_out_error; /* an engine's (all generations): the median |relative error| of its runs
                            priced with a fit that left their source out; -1: not measured */
  int pooled; /* an engine with fewer than FIT_MIN_RUNS runs, or whose runs fit a bandwidth share
                 of 1: e is every engine's pooled, and naming the engine prices with every
                 engine's pooled figures (cli_fit_pick) */
} fit_figure;

typedef struct fit_result_s {
  fit_figure f[MAX_GROUPS];
  size_t count;
  char median_engine[24];
  ar_fit ar;
} fit_result;

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
int fit_gen_index(const char *generation);
int fit_excluded(const priced_run *p);
int fit_in_group(const priced_run *p, const char *engine, const char *generation);
double fit_predict(const priced_run *p, const gs_efficiency *e, int first_word);
double fit_median(double *e, size_t n);
double fit_rel(double predicted, double measured);
size_t fit_price_runs(const gs_runs *runs, priced_run *p);
int cli_fit_runs(const gs_runs *runs, const char *allreduce_dir, priced_run *p, fit_result *fr);
const fit_figure *cli_fit_pick(const fit_result *fr, const char *engine, const char *generation, gs_efficiency *out);
/* The engine's all-generation group when it has no figures of its own (pooled); NULL
 * otherwise. */
const fit_figure *fit_pooled_engine(const fit_result *fr, const char *engine);
/* efficiency_pick.c */
int fit_read_efficiency(const char *text, size_t len, fit_result *fr, gs_error *err);
/* The built-in data/efficiency.json into fr: CLI_OK, or CLI_FAILED said in one line. */
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
