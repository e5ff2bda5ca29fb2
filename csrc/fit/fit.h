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
#include "emit/json.h"

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

/* ---- Measured serving runs (serve_rows.c, serve_fit.c) ----
 * Each row of a serving runs file (gs_serving_runs_parse) priced as `gpusplit serve`
 * prices it, and the serving fit: per engine, the step figures of data/serving.json
 * (gs_serving_fit) searched on the fitted sources' rows. */
#define FIT_SERVING_SOURCE_COUNT 7
extern const char *const FIT_SERVING_SOURCES[FIT_SERVING_SOURCE_COUNT];
/* 1 when the serving fit sees the source (tests/measured/serving-runs-README.md,
 * serving-fit-gathered-README.md). */
int fit_serving_fitted(const char *source);
/* The fitted sources as words: "P1, P2, ... and F6". */
const char *fit_serving_sources_text(char *buf, size_t cap);
/* The engine serve simulates for a row's software ("trt-llm", "vllm", "sglang", "lmdeploy"), or
 * NULL. */
const char *fit_serving_engine(const char *software);

/* The figures compared: time per output token, output tokens a second, first token. */
enum { FIT_TPOT, FIT_TPUT, FIT_TTFT, FIT_SERVING_FIGURES };

/* A row as serve prices it, or why it cannot be. */
typedef struct {
  const gs_serving_run *run;
  int ok;
  char why[640];
  gs_model model;
  gs_gpu gpu;
  gs_link link;
  gs_plan plan;             /* its gpus the row's tp x pp */
  uint64_t replicas;
  gs_disagg disagg;         /* prefill and decode copies (the note's PD-DISAGGREGATED); 0 and 0: not */
  gs_scheduler engine;      /* the engine's defaults for the GPU and count, data/serving.json's figures in */
  const char *engine_name;  /* as --engine names it */
  const char *model_key, *gpu_key; /* the catalogue's */
  gs_load load;
  int fitted;               /* its source is one the fit sees */
  int in_fit;               /* fitted, and experts sliced (spread experts are priced, kept out of the fit) */
} serving_row;
/* The row mapped (out->ok, or out->why): 1 when it can be priced. */
int fit_serving_row(const gs_serving_run *r, serving_row *out);

/* A row priced: serve's result, its figures (ms, tokens a second) and priced/measured - 1
 * where the row gives the figure (has). */
typedef struct {
  int ok;
  gs_serve_result result;
  double value[FIT_SERVING_FIGURES], error[FIT_SERVING_FIGURES];
  int has[FIT_SERVING_FIGURES];
} serving_priced;
/* The row simulated with fig's figures (NULL: data/serving.json's, as serve prices it);
 * sp has room for the row's requests. */
int fit_serving_price(const serving_row *row, const gs_serving_fit *fig, gs_serve_space *sp, serving_priced *out,
                      gs_error *err);

/* The serving fit's grids and its answer: a fit for each engine the rows hold, then every
 * row pooled ("any", kind -1), as data/serving.json holds them. */
typedef struct {
  gs_serving_fit f[GS_SERVING_FIT_MAX];
  double loss[GS_SERVING_FIT_MAX]; /* the mean |log error| each reached */
  size_t count;
} fit_serving_result;
/* Fits rows[i] with use[i] set (sp: room for the largest load): GS_OK, GS_ERR_NONE_FITS when
 * no row is used. */
int fit_serving(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, fit_serving_result *out,
                gs_error *err);
/* One fit by coordinate search from (0.5, 0, 0) over the grids, three rounds (serve_fit.c):
 * the loss reached, fig the figures. */
double fit_serving_search(const serving_row *rows, const int *use, size_t n, gs_serve_space *sp, gs_serving_fit *fig);

/* serve_validate.c: a serving runs file's rows, mapped (rows), priced (priced) and fitted
 * (use: the rows the last fit took), with room sp for the largest load; the caller's memory. */
typedef struct {
  const gs_serving_runs *runs;
  serving_row *rows;
  serving_priced *priced;
  int *use;
  gs_serve_space sp;
} fit_serving_work;
/* Each row mapped (fit_serving_row); the requests of the largest load, the room sp needs. */
size_t fit_serving_map(fit_serving_work *w);
/* Each mapped row priced with its engine's figures of fits (NULL: data/serving.json's); a
 * row serve refuses is no longer ok and says why. */
void fit_serving_price_all(fit_serving_work *w, const fit_serving_result *fits);
/* The fit to the fitted rows (without left_out's, NULL: none left out), and every row priced with it. */
int fit_serving_all(fit_serving_work *w, const char *left_out, fit_serving_result *fits, gs_error *err);
/* The median |error| of figure k over the priced rows of the fitted sources, the held-out
 * ones or one source; the rows it took (0: none, *median 0). */
enum { FIT_KEEP_FITTED, FIT_KEEP_HELD, FIT_KEEP_SOURCE };
size_t fit_serving_median(const fit_serving_work *w, int k, int keep, const char *source, double *median);
/* Pairs of priced rows with different layouts on the same source, engine, model, GPU and
 * load (lengths and concurrency): those whose output tokens a second a GPU are ordered as
 * measured (*ordered), of all such pairs whose measured figures differ (the return); keep
 * as fit_serving_median's. */
size_t fit_serving_pairs(const fit_serving_work *w, int keep, const char *source, size_t *ordered);
/* Groups of such rows (two layouts or more): those where the row priced best a GPU measures
 * within 5% of the row measured best a GPU (*within), of all groups (the return): the
 * plan's choice among the layouts measured, as issue 29 asks of the plan. */
size_t fit_serving_choices(const fit_serving_work *w, int keep, const char *source, size_t *within);
/* data/serving.json's summary: the rows the fit took and the medians over the held-out rows
 * of w and of more (NULL: none; more_name its file's path, named by its last part), each
 * priced with the fit. */
void fit_serving_summary(char *buf, size_t cap, const fit_serving_work *w, const fit_serving_work *more, const char *more_name);
/* A fit's engine as --engine names it, or "any" for the pooled one. */
const char *fit_serving_engine_label(int kind);
/* data/serving.json's text (gpusplit fit --serving --json) through o. */
void fit_serving_json(const gs_out *o, const fit_serving_result *fits, const char *summary);

/* validate.c: what `gpusplit validate` prints. */
/* A table's all-reduces of 8 KiB to 1 MiB on gpus GPUs priced FIT_AR_WAYS ways: by the
 * lesson's rule on its link, by NCCL's rules on gpu's link (none when gpu is NULL), and by a
 * fit to every other row (gs_fit_measured), tested on the rest; each way's median and worst
 * |relative error| over its n rows. */
#define FIT_AR_WAYS 3
typedef struct {
  double median, worst;
  size_t n;
} fit_ar_error;
int fit_allreduce_errors(const gs_measured *m, uint64_t gpus, const gs_link *lesson, const gs_gpu *gpu, const gs_link *link,
                         fit_ar_error out[FIT_AR_WAYS], gs_error *err);
/* A run's line of validate's decode table: its time a word at the peaks, with its engine's
 * figures (with; every engine's pooled when its engine has none, has_own 0), with every
 * engine's pooled (without), and measured, in seconds; its first word's predicted and
 * measured (0 when it gives none). 0 when the run is not shown (not priced, or no pooled
 * figures for its generation). Its |relative errors| into e (-1 where it has none). */
typedef struct {
  int has_own;
  double peak, with, without, measured;
  double first, first_measured;
} fit_validated;
int fit_validate_run(const priced_run *p, const fit_result *fr, fit_validated *v, left_out_error *e);
/* The medians of the runs' |errors| (e[i].any >= 0: priced) a key at a time, the keys in
 * the order they first appear from *at: the runs' source, GPU, or all of them. Each key's
 * medians at the peaks, with the engine's figures, every engine's pooled and of the first
 * word, over n[k] runs each. 0 when no key is left. */
enum { FIT_BY_SOURCE, FIT_BY_GPU, FIT_BY_ALL };
typedef struct {
  const char *key;
  double median[4];
  size_t n[4];
} fit_medians;
int fit_medians_next(const priced_run *p, const left_out_error *e, size_t n, int by, size_t *at, fit_medians *out);

/* fit_json.c: data/efficiency.json's text (gpusplit fit --json): the fit's figures, each
 * naming the runs it was fitted on, through o (csrc/emit/json.h); ok runs were priced. */
void fit_json(const gs_out *o, const gs_runs *runs, const priced_run *p, const fit_result *fr, size_t ok);

#endif
