/* data/serving.json read back (gs_serving_read): the serving fit's figures for each engine,
 * which scripts/tables.c compiles into GS_SERVING_TABLE, so no build parses data/ at run
 * time. The file is written by `gpusplit fit --serving` (make serving); each figure is range-checked here as
 * serve's flags check it, so a table the build takes is one serve would take. */
#include <string.h>

#include "internal.h"

/* The engine a fit names: -1 for "any" (every fitted run pooled), the enum's otherwise. */
static int engine_of(const char *name) {
  if (strcmp(name, "any") == 0) return -1;
  if (strcmp(name, "vllm") == 0) return GS_ENGINE_VLLM;
  if (strcmp(name, "sglang") == 0) return GS_ENGINE_SGLANG;
  if (strcmp(name, "trt-llm") == 0 || strcmp(name, "trtllm") == 0) return GS_ENGINE_TRTLLM;
  return -2;
}

static int figure(const gs_json *j, int at, const char *key, double lo, double hi, double *out, gs_error *err) {
  int k = gs_json_find(j, at, key), rc;
  if (k < 0) return gs_fail(err, GS_ERR_MISSING, key, "is missing");
  if ((rc = gs_json_any_number(j, k, key, out, err)) != GS_OK) return rc;
  if (!(*out >= lo && *out <= hi)) return gs_fail(err, GS_ERR_RANGE, key, "must be from %g to %g", lo, hi);
  return GS_OK;
}

/* One object of the "figures" array. */
static int one_fit(const gs_json *j, int at, gs_serving_fit *f, gs_error *err) {
  char name[16];
  double rows;
  int k = gs_json_find(j, at, "engine"), rc;
  if (k < 0 || j->toks[k].type != JSMN_STRING || gs_json_string(j, k, name, sizeof name) == (size_t)-1)
    return gs_fail(err, GS_ERR_MISSING, "engine", "must be a string");
  if ((f->kind = engine_of(name)) == -2) return gs_fail(err, GS_ERR_UNKNOWN, "engine", "'%s' is not one serve simulates", name);
  if ((rc = figure(j, at, "flops_share", 0.01, 1, &f->flops_share, err)) != GS_OK ||
      (rc = figure(j, at, "seq_us", 0, 1e6, &f->seq_us, err)) != GS_OK ||
      (rc = figure(j, at, "overlap_share", 0, 1, &f->overlap_share, err)) != GS_OK ||
      (rc = figure(j, at, "request_us", 0, 1e6, &f->request_us, err)) != GS_OK ||
      (rc = figure(j, at, "rows", 1, 1e6, &rows, err)) != GS_OK)
    return rc;
  f->rows = (uint64_t)rows;
  return GS_OK;
}

int gs_serving_read(const char *text, gs_serving_table *t, gs_error *err) {
  jsmntok_t toks[512];
  gs_json j;
  int list, at, i, rc;
  memset(t, 0, sizeof *t);
  if ((rc = gs_json_parse(text, strlen(text), toks, 512, &j, err)) != GS_OK) return rc;
  at = gs_json_find(&j, 0, "summary");
  if (at < 0 || j.toks[at].type != JSMN_STRING || gs_json_string(&j, at, t->summary, sizeof t->summary) == (size_t)-1)
    return gs_fail(err, GS_ERR_MISSING, "summary", "must be a string of under %zu bytes", sizeof t->summary);
  list = gs_json_find(&j, 0, "figures");
  if (list < 0 || j.toks[list].type != JSMN_ARRAY || j.toks[list].size > GS_SERVING_FIT_MAX)
    return gs_fail(err, GS_ERR_MISSING, "figures", "must be an array of at most %d fits", GS_SERVING_FIT_MAX);
  for (i = 0, at = list + 1; i < j.toks[list].size; i++, at = gs_json_next(&j, at))
    if ((rc = one_fit(&j, at, &t->f[t->count++], err)) != GS_OK) return rc;
  return GS_OK;
}
