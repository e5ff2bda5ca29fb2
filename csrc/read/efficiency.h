/* Achieved efficiency as the library keeps it: data/efficiency.json's figures (gpusplit fit
 * --json on the shared runs), compiled in as a typed table by scripts/tables.c, read back
 * from JSON by gs_efficiency_read, and picked for an engine on a GPU's generation. The fit
 * that makes them is csrc/fit/; gs_resolve applies them (csrc/read/resolve.c). */
#ifndef GPUSPLIT_EFFICIENCY_H
#define GPUSPLIT_EFFICIENCY_H

#include "internal.h"

/* The engine name of every engine's runs pooled: the figures when none is named. */
#define ANY_ENGINE "any"
/* The engines the runs reader names (gs_engine_of): nine and "other". */
#define GS_ENGINE_COUNT 10
/* The runs a group needs for figures of its own: an engine's, or an engine's on one GPU
 * generation; and the first words it needs for a FLOP/s share of its own. With fewer, its
 * two to six figures are fitted to a handful of settings (one run fits two of them exactly
 * and says nothing of the rest), so the fewer stand on the wider group's figures (an engine
 * on every generation, or every engine pooled). */
#define FIT_MIN_RUNS 6
/* The NVIDIA generations whose all-reduce start-up is fitted to NVIDIA's measured
 * all-reduces: the first FIT_GEN_COUNT of GS_GENERATIONS (internal.h). */
#define FIT_GEN_COUNT 4
/* Every group a fit can make, so none is left out for want of room (64 once left out two
 * of the ten engines' generation groups): every engine pooled and each engine, over every
 * generation and on each of GS_GENERATIONS. */
#define MAX_GROUPS ((1 + GS_ENGINE_COUNT) * (1 + GS_GENERATION_COUNT))

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
                 engine's pooled figures (gs_efficiency_pick) */
} fit_figure;

typedef struct fit_result_s {
  fit_figure f[MAX_GROUPS];
  size_t count;
  char median_engine[24];
  ar_fit ar;
  size_t startup_runs[GS_GENERATION_COUNT]; /* the decode runs fitted on each of GS_GENERATIONS whose
                                               time takes an all-reduce: those that tell a start-up */
} fit_result;

/* data/efficiency.json as a typed table (build/efficiency_table.c, scripts/tables.c). */
extern const fit_result GS_EFFICIENCY_TABLE;

/* The measured all-reduce tables (data/allreduce.json, scripts/tables.c) and the one for a
 * catalogue GPU on a catalogue link; NULL when none was measured. */
extern const gs_allreduce_table GS_ALLREDUCE_TABLE[];
extern const size_t GS_ALLREDUCE_TABLE_COUNT;
const gs_allreduce_table *gs_allreduce_measured(const char *gpu_key, const char *link_key);

/* The index of a generation among the first FIT_GEN_COUNT of GS_GENERATIONS; -1: none. */
int fit_gen_index(const char *generation);
/* The index of a generation among all GS_GENERATIONS; -1: none. */
int gs_generation_index(const char *generation);
/* A generation's all-reduce start-up in fr; 0 when fr has none for it. */
double fit_allreduce_for(const fit_result *fr, const char *generation);
/* data/efficiency.json's text into fr, parsed into the caller's toks (room for tok_cap
 * tokens; GS_JSON_TOKENS holds the file's). */
int gs_efficiency_read(const char *text, size_t len, jsmntok_t *toks, unsigned tok_cap, fit_result *fr, gs_error *err);
/* The figures for an engine ("" for every engine pooled, "median" for the median engine)
 * on a GPU generation ("all": none): the engine's own for that generation, else its
 * all-generation ones with that generation's all-reduce start-up (none when no fitted run on
 * the generation takes an all-reduce: fr->startup_runs); every engine's pooled for an engine
 * with none of its own (fit_pooled_engine). NULL when the engine has none. */
const fit_figure *gs_efficiency_pick(const fit_result *fr, const char *engine, const char *generation, gs_efficiency *out);
/* The engine's all-generation group when it has no figures of its own (pooled); NULL
 * otherwise. */
const fit_figure *fit_pooled_engine(const fit_result *fr, const char *engine);
/* The figures for an engine on a catalogue GPU's generation, said in picked (which group,
 * its runs and sources, how far off on sources left out); NULL when the fit has none. */
const fit_figure *gs_efficiency_for_gpu(const fit_result *fr, const char *engine, const char *gpu_key, gs_efficiency *out,
                                        char *picked, size_t cap);
/* The request's achieved efficiency (gs_resolve): the named engine's figures (q->engine,
 * or every engine's pooled when q->efficiencies is given), or under real rules every
 * engine's pooled when nothing is named or typed; then each typed figure in place of one.
 * said gets which ("" when off). Fails naming "engine" for an engine with no figures, and
 * "efficiency" for a built-in table without the pooled figures (a broken build). */
int gs_efficiency_resolve(const gs_request *q, gs_setting *s, gs_efficiency *out, char *said, size_t cap, gs_error *err);
/* 0 when no decode run fitted in fr on a catalogue GPU's generation takes an all-reduce
 * (fr->startup_runs; or the GPU has no generation): the all-generation figures' start-up,
 * fitted to other GPUs' runs, is then not added, and NCCL's constants or its measured table
 * price its all-reduces; 1 otherwise (the lesson's GPU and typed ones included). */
int gs_efficiency_own_startup(const fit_result *fr, const char *gpu_key);

#endif
