/* Achieved efficiency as the library keeps it (efficiency.h): data/efficiency.json read
 * back (for scripts/tables.c, which compiles it into a typed table), a GPU's generation and
 * the runs' names for it (data/gpus.json, as typed tables), and the figures for an engine on
 * a GPU's generation, which gs_resolve applies once for the command line and both modules. */
#include <string.h>

#include "read/efficiency.h"

const char *gs_gpu_generation(const char *gpu_key) {
  size_t i;
  for (i = 0; i < GS_GPU_FIT_TABLE_COUNT; i++)
    if (strcmp(GS_GPU_FIT_TABLE[i].key, gpu_key) == 0) return GS_GPU_FIT_TABLE[i].generation;
  return "";
}

/* 1 when the catalogue GPU's own link is a PCIe one. */
static int on_pcie(const char *gpu_key) {
  gs_gpu g;
  gs_hardware_text t;
  gs_link l;
  return gs_builtin_gpu(gpu_key, &g, &t, NULL) == GS_OK && gs_builtin_link(t.link, &l, NULL, NULL) == GS_OK && l.kind == GS_LINK_PCI;
}

const char *gs_gpu_measured_as(const char *run_name, int over_pcie) {
  const char *found = NULL;
  size_t i, k;
  for (i = 0; i < GS_GPU_FIT_TABLE_COUNT; i++)
    for (k = 0; k < GS_MEASURED_AS_MAX && GS_GPU_FIT_TABLE[i].measured_as[k]; k++) {
      if (strcmp(GS_GPU_FIT_TABLE[i].measured_as[k], run_name) != 0) continue;
      /* the one entry that lists it, or of the two a name that leaves the form open is on,
       * the one whose link the run's interconnect names */
      if (!found || on_pcie(GS_GPU_FIT_TABLE[i].key) == over_pcie) found = GS_GPU_FIT_TABLE[i].key;
    }
  return found;
}

const gs_allreduce_table *gs_allreduce_measured(const char *gpu_key, const char *link_key) {
  size_t i;
  for (i = 0; i < GS_ALLREDUCE_TABLE_COUNT; i++)
    if (strcmp(GS_ALLREDUCE_TABLE[i].gpu, gpu_key) == 0 && strcmp(GS_ALLREDUCE_TABLE[i].link, link_key) == 0) return &GS_ALLREDUCE_TABLE[i];
  return NULL;
}

int fit_gen_index(const char *g) {
  int i;
  for (i = 0; i < FIT_GEN_COUNT; i++)
    if (strcmp(GS_GENERATIONS[i], g) == 0) return i;
  return -1;
}

int gs_generation_index(const char *g) {
  int i;
  for (i = 0; i < GS_GENERATION_COUNT; i++)
    if (strcmp(GS_GENERATIONS[i], g) == 0) return i;
  return -1;
}

double fit_allreduce_for(const fit_result *fr, const char *generation) {
  int gi = fit_gen_index(generation);
  return gi >= 0 ? fr->ar.us[gi] : 0;
}

static int text_of(const gs_json *j, int object, const char *key, char *buf, size_t cap, gs_error *err) {
  int at = gs_json_find(j, object, key);
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, key, "is missing");
  if (j->toks[at].type != JSMN_STRING || gs_json_string(j, at, buf, cap) == (size_t)-1)
    return gs_fail(err, GS_ERR_TYPE, key, "must be a string of under %zu bytes", cap);
  return GS_OK;
}

static int number_of(const gs_json *j, int object, const char *key, double *out, gs_error *err) {
  int at = gs_json_find(j, object, key);
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, key, "is missing");
  return gs_json_any_number(j, at, key, out, err); /* fit --json's own numbers */
}

/* The "allreduce" array: each generation's start-up. */
static int read_allreduce(const gs_json *j, fit_result *fr, gs_error *err) {
  int list = gs_json_find(j, 0, "allreduce"), at, i, rc;
  if (list < 0 || j->toks[list].type != JSMN_ARRAY) return gs_fail(err, GS_ERR_MISSING, "allreduce", "must be an array");
  for (i = 0, at = list + 1; i < j->toks[list].size; i++, at = gs_json_next(j, at)) {
    char gen[16];
    double us;
    int g;
    if ((rc = text_of(j, at, "generation", gen, sizeof gen, err)) != GS_OK || (rc = number_of(j, at, "allreduce_us", &us, err)) != GS_OK)
      return rc;
    if ((g = fit_gen_index(gen)) < 0) return gs_fail(err, GS_ERR_RANGE, "generation", "'%s' is not one the fit knows", gen);
    fr->ar.us[g] = us;
    fr->ar.rows[g] = 1;
  }
  return GS_OK;
}

/* The "startup_runs" object: each generation's fitted decode runs that take an all-reduce. */
static int read_startup_runs(const gs_json *j, fit_result *fr, gs_error *err) {
  int object = gs_json_find(j, 0, "startup_runs"), g, rc;
  if (object < 0 || j->toks[object].type != JSMN_OBJECT) return gs_fail(err, GS_ERR_MISSING, "startup_runs", "must be an object");
  for (g = 0; g < GS_GENERATION_COUNT; g++) {
    double runs;
    if ((rc = number_of(j, object, GS_GENERATIONS[g], &runs, err)) != GS_OK) return rc;
    if (!(runs >= 0 && runs <= GS_RUNS_MAX) || runs != (double)(size_t)runs)
      return gs_fail(err, GS_ERR_RANGE, GS_GENERATIONS[g], "must be a count of runs, 0 to %d", GS_RUNS_MAX);
    fr->startup_runs[g] = (size_t)runs;
  }
  return GS_OK;
}

/* One object of the "figures" array into f. */
static int read_figure(const gs_json *j, int at, fit_figure *f, gs_error *err) {
  double runs;
  char from[16];
  int lo, rc;
  if ((rc = text_of(j, at, "engine", f->engine, sizeof f->engine, err)) != GS_OK ||
      (rc = text_of(j, at, "generation", f->generation, sizeof f->generation, err)) != GS_OK ||
      (rc = text_of(j, at, "sources", f->sources, sizeof f->sources, err)) != GS_OK ||
#define FIGURE(member, kind, flag) (rc = number_of(j, at, #member, &f->e.member, err)) != GS_OK ||
      GS_EFFICIENCY_FIELDS(FIGURE)
#undef FIGURE
      (rc = number_of(j, at, "median_error", &f->median_error, err)) != GS_OK || (rc = number_of(j, at, "runs", &runs, err)) != GS_OK)
    return rc;
  if ((rc = gs_efficiency_check(&f->e, err)) != GS_OK) return rc;
  if ((rc = text_of(j, at, "allreduce_from", from, sizeof from, err)) != GS_OK) return rc;
  if (strcmp(from, "runs") != 0 && strcmp(from, "nccl-tests") != 0)
    return gs_fail(err, GS_ERR_RANGE, "allreduce_from", "must be runs or nccl-tests");
  f->allreduce_fitted = strcmp(from, "runs") == 0;
  if ((lo = gs_json_find(j, at, "pooled")) < 0) return gs_fail(err, GS_ERR_MISSING, "pooled", "is missing");
  if ((rc = gs_json_bool(j, lo, "pooled", &f->pooled, err)) != GS_OK) return rc;
  f->left_out_error = -1;
  if ((lo = gs_json_find(j, at, "left_out_error")) >= 0 && !gs_json_is_null(j, lo) &&
      (rc = gs_json_any_number(j, lo, "left_out_error", &f->left_out_error, err)) != GS_OK)
    return rc;
  f->runs = (size_t)runs;
  return GS_OK;
}

int gs_efficiency_read(const char *text, size_t len, jsmntok_t *toks, unsigned tok_cap, fit_result *fr, gs_error *err) {
  gs_json j;
  int rc, list, at, i;
  memset(fr, 0, sizeof *fr);
  if ((rc = gs_json_parse(text, len, toks, tok_cap, &j, err)) != GS_OK) return rc;
  if ((rc = text_of(&j, 0, "median_engine", fr->median_engine, sizeof fr->median_engine, err)) != GS_OK) return rc;
  if ((rc = read_allreduce(&j, fr, err)) != GS_OK) return rc;
  if ((rc = read_startup_runs(&j, fr, err)) != GS_OK) return rc;
  if ((list = gs_json_find(&j, 0, "figures")) < 0 || toks[list].type != JSMN_ARRAY)
    return gs_fail(err, GS_ERR_MISSING, "figures", "must be an array");
  for (i = 0, at = list + 1; i < toks[list].size && fr->count < MAX_GROUPS; i++, at = gs_json_next(&j, at)) {
    if ((rc = read_figure(&j, at, &fr->f[fr->count], err)) != GS_OK) return rc;
    fr->count++;
  }
  return GS_OK;
}

const fit_figure *fit_pooled_engine(const fit_result *fr, const char *engine) {
  size_t i;
  for (i = 0; i < fr->count; i++)
    if (fr->f[i].pooled && strcmp(fr->f[i].engine, engine) == 0 && strcmp(fr->f[i].generation, "all") == 0) return &fr->f[i];
  return NULL;
}

/* Whether a decode run the fit holds on a generation takes an all-reduce, and so tells the
 * start-up. Not whether the fit made figures on it: those need FIT_MIN_RUNS runs, and are not
 * made for a generation that holds all of a group's runs (a runs file on one GPU). */
static int own_runs(const fit_result *fr, const char *generation) {
  int g = gs_generation_index(generation);
  return g >= 0 && fr->startup_runs[g] > 0;
}

const fit_figure *gs_efficiency_pick(const fit_result *fr, const char *engine, const char *generation, gs_efficiency *out) {
  const fit_figure *all = NULL;
  size_t i;
  if (!engine[0]) engine = ANY_ENGINE;
  else if (strcmp(engine, "median") == 0) engine = fr->median_engine;
  if (fit_pooled_engine(fr, engine)) engine = ANY_ENGINE;
  for (i = 0; i < fr->count; i++) {
    if (strcmp(fr->f[i].engine, engine) != 0) continue;
    if (strcmp(fr->f[i].generation, generation) == 0) {
      *out = fr->f[i].e;
      return &fr->f[i];
    }
    if (strcmp(fr->f[i].generation, "all") == 0) all = &fr->f[i];
  }
  if (!all) return NULL;
  *out = all->e;
  /* a generation none of whose fitted decode runs takes an all-reduce does not take a
   * start-up fitted to other generations' runs: NCCL's constants price it, or its measured
   * table where one reaches (csrc/core/nccl.c), with nothing added (issue 30) */
  if (strcmp(generation, "all") != 0 && !own_runs(fr, generation)) out->allreduce_us = 0;
  else if (!all->allreduce_fitted) out->allreduce_us = fit_allreduce_for(fr, generation);
  return all;
}

int gs_efficiency_own_startup(const fit_result *fr, const char *gpu_key) {
  gs_gpu g;
  gs_hardware_text t;
  const char *generation = gs_gpu_generation(gpu_key);
  if (generation[0]) return own_runs(fr, generation);
  /* the lesson's GPU and typed ones are priced as every GPU pooled; a catalogue GPU the fit
   * gives no generation has no runs of its own */
  return strcmp(gpu_key, "lesson") == 0 || gs_builtin_gpu(gpu_key, &g, &t, NULL) != GS_OK;
}

/* Why an engine has no figures of its own, before the figures it is priced with; "" when it
 * has its own. */
static size_t say_pooled(const fit_result *fr, const char *engine, char *picked, size_t cap) {
  const fit_figure *few = fit_pooled_engine(fr, engine);
  if (few && few->runs < FIT_MIN_RUNS)
    return (size_t)gs_format(picked, cap, "%s has %zu run%s, fewer than the %d that figures of its own need: ", few->engine, few->runs,
                             few->runs == 1 ? "" : "s", FIT_MIN_RUNS);
  if (few)
    return (size_t)gs_format(picked, cap, "%s's %zu runs do not tell its bandwidth from its fixed costs (they fit all of it): ",
                             few->engine, few->runs);
  return 0;
}

const fit_figure *gs_efficiency_for_gpu(const fit_result *fr, const char *engine, const char *gpu_key, gs_efficiency *out,
                                        char *picked, size_t cap) {
  const char *generation = gs_gpu_generation(gpu_key);
  const fit_figure *f;
  double left_out = -1;
  size_t i, at;
  char off[96] = "; not tested on a source the fit left out";
  if (!generation[0]) generation = "all";
  if (!(f = gs_efficiency_pick(fr, engine, generation, out))) return NULL;
  /* the all-generation figures' start-up, for a catalogue GPU the fit gives no generation */
  if (strcmp(f->generation, "all") == 0 && !gs_efficiency_own_startup(fr, gpu_key)) out->allreduce_us = 0;
  /* how far off the engine's figures are on sources the fit left out (gpusplit fit) */
  for (i = 0; i < fr->count; i++)
    if (strcmp(fr->f[i].engine, f->engine) == 0 && strcmp(fr->f[i].generation, "all") == 0) left_out = fr->f[i].left_out_error;
  if (left_out >= 0) {
    char pct_text[GS_FIGURE_CAP];
    gs_format(off, sizeof off, "; %s%% off on sources left out of the fit", gs_fixed(pct_text, sizeof pct_text, left_out * 100, 1));
  }
  at = say_pooled(fr, engine, picked, cap);
  if (at >= cap) at = cap - 1;
  gs_format(picked + at, cap - at, "%s%s %s%s (fitted on %zu run%s of %s%s)", f->engine,
            !engine[0] ? " (every engine's runs pooled, the default)"
            : strcmp(engine, "median") == 0 ? ", the median engine,"
            : fit_pooled_engine(fr, engine) ? " (every engine's runs pooled)" : "",
            strcmp(f->generation, "all") ? "on " : "over every GPU generation", strcmp(f->generation, "all") ? f->generation : "", f->runs,
            f->runs == 1 ? "" : "s", f->sources, off);
  return f;
}

/* The engines with figures of their own, for a refusal. */
static void engine_names(const fit_result *fr, char *names, size_t cap) {
  size_t i, at = 0;
  names[0] = '\0';
  for (i = 0; i < fr->count && at < cap; i++)
    if (strcmp(fr->f[i].generation, "all") == 0 && strcmp(fr->f[i].engine, ANY_ENGINE) != 0)
      at += (size_t)gs_format(names + at, cap - at, "%s%s", at ? ", " : "", fr->f[i].engine);
}

/* The bit of allreduce_us among the typed figures: its place in GS_EFFICIENCY_FIELDS. */
static unsigned allreduce_typed_bit(void) {
  unsigned bit = 1, found = 0;
#define FIND(member, kind, flag) \
  if (strcmp(#member, "allreduce_us") == 0) found = bit; \
  bit <<= 1;
  GS_EFFICIENCY_FIELDS(FIND)
#undef FIND
  return found;
}

/* Which figures of q->efficiency are typed: efficiency_typed, or when it is 0, those on. */
static unsigned typed_figures(const gs_request *q) {
  unsigned bits = 0, bit = 1;
  if (q->efficiency_typed) return q->efficiency_typed;
#define FIGURE_ON(member, kind, flag) bits |= q->efficiency.member != 0 ? bit : 0, bit <<= 1;
  GS_EFFICIENCY_FIELDS(FIGURE_ON)
#undef FIGURE_ON
  return bits;
}

int gs_efficiency_resolve(const gs_request *q, gs_setting *s, gs_efficiency *out, char *said, size_t cap, gs_error *err) {
  const fit_result *fr = q->efficiencies ? q->efficiencies : &GS_EFFICIENCY_TABLE;
  unsigned typed = typed_figures(q), bit = 1;
  int named = q->efficiencies || (q->engine && strcmp(q->engine, "none") != 0);
  memset(out, 0, sizeof *out);
  said[0] = '\0';
  if ((named || (s->real && !q->engine && !typed)) && !q->efficiencies && !gs_efficiency_pick(fr, "", "all", out))
    return gs_fail(err, GS_ERR_MISSING, "efficiency", "holds no figures for every engine's runs pooled");
  if (named && !gs_efficiency_for_gpu(fr, q->engine ? q->engine : "", s->gpu_text.key, out, said, cap)) {
    char names[512];
    engine_names(fr, names, sizeof names);
    return gs_fail(err, GS_ERR_UNKNOWN, "engine", "no figures for '%s' (engines: %s, or median; any: every engine pooled)",
                   q->engine ? q->engine : "",
                   names);
  }
  if (!named && s->real && !q->engine && !typed && !gs_efficiency_for_gpu(fr, "", s->gpu_text.key, out, said, cap))
    gs_format(said, cap, "none fitted for %s: the peaks", s->gpu_text.name);
  /* fitted figures apply and the start-up is not one fitted on other GPUs' runs */
  s->allreduce_unfitted = said[0] && !gs_efficiency_own_startup(fr, s->gpu_text.key);
#define TYPED(member, kind, flag) \
  if (typed & bit) out->member = q->efficiency.member, gs_format(said, cap, "as given"); \
  bit <<= 1;
  GS_EFFICIENCY_FIELDS(TYPED)
#undef TYPED
  if (typed & allreduce_typed_bit()) s->allreduce_unfitted = 0;
  return GS_OK;
}
