/* data/efficiency.json (`gpusplit fit --json` on the shared runs), embedded in the program
 * by the Makefile (build/efficiency_file.c), back into a fit_result; and the figures report
 * prices with, picked from it or from a fit to the user's runs (fit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

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
  return gs_json_number(j, at, key, out, err);
}

int fit_read_efficiency(const char *text, size_t len, fit_result *fr, gs_error *err) {
  static jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  int rc, list, at, i;
  memset(fr, 0, sizeof *fr);
  if ((rc = gs_json_parse(text, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK) return rc;
  if ((rc = text_of(&j, 0, "median_engine", fr->median_engine, sizeof fr->median_engine, err)) != GS_OK) return rc;
  if ((list = gs_json_find(&j, 0, "allreduce")) < 0 || toks[list].type != JSMN_ARRAY)
    return gs_fail(err, GS_ERR_MISSING, "allreduce", "must be an array");
  for (i = 0, at = list + 1; i < toks[list].size; i++, at = gs_json_next(&j, at)) {
    char gen[16];
    double us;
    int g;
    if ((rc = text_of(&j, at, "generation", gen, sizeof gen, err)) != GS_OK || (rc = number_of(&j, at, "allreduce_us", &us, err)) != GS_OK)
      return rc;
    if ((g = fit_gen_index(gen)) < 0) return gs_fail(err, GS_ERR_RANGE, "generation", "'%s' is not one the fit knows", gen);
    fr->ar.us[g] = us;
    fr->ar.rows[g] = 1;
  }
  if ((list = gs_json_find(&j, 0, "figures")) < 0 || toks[list].type != JSMN_ARRAY)
    return gs_fail(err, GS_ERR_MISSING, "figures", "must be an array");
  for (i = 0, at = list + 1; i < toks[list].size && fr->count < MAX_GROUPS; i++, at = gs_json_next(&j, at)) {
    fit_figure *f = &fr->f[fr->count];
    double runs;
    char from[16];
    int lo;
    if ((rc = text_of(&j, at, "engine", f->engine, sizeof f->engine, err)) != GS_OK ||
        (rc = text_of(&j, at, "generation", f->generation, sizeof f->generation, err)) != GS_OK ||
        (rc = text_of(&j, at, "sources", f->sources, sizeof f->sources, err)) != GS_OK ||
#define FIGURE(member, kind, flag) (rc = number_of(&j, at, #member, &f->e.member, err)) != GS_OK ||
        GS_EFFICIENCY_FIELDS(FIGURE)
#undef FIGURE
        (rc = number_of(&j, at, "median_error", &f->median_error, err)) != GS_OK ||
        (rc = number_of(&j, at, "runs", &runs, err)) != GS_OK)
      return rc;
    if ((rc = gs_efficiency_check(&f->e, err)) != GS_OK) return rc;
    if ((rc = text_of(&j, at, "allreduce_from", from, sizeof from, err)) != GS_OK) return rc;
    if (strcmp(from, "runs") != 0 && strcmp(from, "nccl-tests") != 0)
      return gs_fail(err, GS_ERR_RANGE, "allreduce_from", "must be runs or nccl-tests");
    f->allreduce_fitted = strcmp(from, "runs") == 0;
    if ((lo = gs_json_find(&j, at, "pooled")) < 0) return gs_fail(err, GS_ERR_MISSING, "pooled", "is missing");
    if ((rc = gs_json_bool(&j, lo, "pooled", &f->pooled, err)) != GS_OK) return rc;
    f->left_out_error = -1;
    if ((lo = gs_json_find(&j, at, "left_out_error")) >= 0 && !gs_json_is_null(&j, lo) &&
        (rc = gs_json_number(&j, lo, "left_out_error", &f->left_out_error, err)) != GS_OK)
      return rc;
    f->runs = (size_t)runs;
    fr->count++;
  }
  return GS_OK;
}

/* The figures for engine ("": every engine pooled; "median": the median engine) on the
 * GPU's generation, said in picked with how far off they are on runs never seen; NULL when
 * the fit has none. */
static const fit_figure *pick_engine(const fit_result *fr, const char *engine, const char *gpu_key, gs_efficiency *out,
                                     char *picked, size_t cap) {
  const char *generation = cli_gpu_generation(gpu_key);
  const fit_figure *f, *few;
  double left_out = -1;
  size_t i, at = 0;
  char off[96] = "; not tested on a source the fit left out";
  if (!generation[0]) generation = "all";
  if (!(f = cli_fit_pick(fr, engine, generation, out))) return NULL;
  /* how far off the engine's figures are on sources the fit left out (gpusplit fit) */
  for (i = 0; i < fr->count; i++)
    if (strcmp(fr->f[i].engine, f->engine) == 0 && strcmp(fr->f[i].generation, "all") == 0) left_out = fr->f[i].left_out_error;
  if (left_out >= 0) {
    char pct_text[GS_FIGURE_CAP];
    snprintf(off, sizeof off, "; %s%% off on sources left out of the fit", gs_fixed(pct_text, sizeof pct_text, left_out * 100, 1));
  }
  if ((few = fit_pooled_engine(fr, engine)) && few->runs < FIT_MIN_RUNS) /* no figures of its own */
    at = (size_t)snprintf(picked, cap, "%s has %zu run%s, fewer than the %d that figures of its own need: ", few->engine, few->runs,
                          few->runs == 1 ? "" : "s", FIT_MIN_RUNS);
  else if (few)
    at = (size_t)snprintf(picked, cap, "%s's %zu runs do not tell its bandwidth from its fixed costs (they fit all of it): ",
                          few->engine, few->runs);
  if (at >= cap) at = cap - 1;
  snprintf(picked + at, cap - at, "%s%s %s%s (fitted on %zu run%s of %s%s)", f->engine,
           !engine[0] ? " (every engine's runs pooled, the default)"
           : strcmp(engine, "median") == 0 ? ", the median engine,"
           : few ? " (every engine's runs pooled)" : "",
           strcmp(f->generation, "all") ? "on " : "over every GPU generation", strcmp(f->generation, "all") ? f->generation : "",
           f->runs, f->runs == 1 ? "" : "s", f->sources, off);
  return f;
}

int fit_read_builtin(fit_result *fr) {
  gs_error err;
  if (fit_read_efficiency(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), fr, &err) == GS_OK) return CLI_OK;
  cli_bad("data/efficiency.json (built in): %s%s%s", err.field, err.field[0] ? ": " : "", err.what);
  return CLI_FAILED; /* this build's failure, not the input's: exit 1, never the peaks */
}

int fit_runs_file(const char *path, fit_result *fr) {
  fit_work w;
  int rc;
  if ((rc = fit_work_open(path, path, &w)) != CLI_OK) return rc;
  rc = cli_fit_runs(w.runs, NULL, w.p, fr);
  fit_work_close(&w);
  return rc;
}

int cli_efficiency_quiet(const char *engine, const char *gpu_key, gs_efficiency *out, char *picked, size_t cap, int *found) {
  fit_result *fr = malloc(sizeof *fr);
  int rc;
  *found = 0;
  if (!fr) return CLI_FAILED;
  if ((rc = fit_read_builtin(fr)) == CLI_OK) *found = pick_engine(fr, engine ? engine : "", gpu_key, out, picked, cap) != NULL;
  free(fr);
  return rc;
}

int cli_efficiency(const char *runs_path, const char *engine, const char *gpu_key, gs_efficiency *out, char *picked, size_t cap) {
  fit_result *fr = malloc(sizeof *fr);
  int rc;
  if (!fr) return cli_bad("--engine: out of memory");
  /* a fit to the user's runs keeps data/efficiency.json's all-reduce start-up (NVIDIA's
   * measured all-reduces) */
  if ((rc = fit_read_builtin(fr)) == CLI_OK && runs_path) rc = fit_runs_file(runs_path, fr);
  if (rc == CLI_OK) {
    if (!engine) engine = "";
    if (!pick_engine(fr, engine, gpu_key, out, picked, cap)) {
      char names[512];
      size_t i, at = 0;
      names[0] = '\0';
      for (i = 0; i < fr->count && at < sizeof names; i++)
        if (strcmp(fr->f[i].generation, "all") == 0 && strcmp(fr->f[i].engine, ANY_ENGINE) != 0)
          at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", fr->f[i].engine);
      rc = cli_bad("--engine: no figures for '%s' (engines: %s, or median; any: every engine pooled)", engine, names);
    }
  }
  free(fr);
  return rc;
}
