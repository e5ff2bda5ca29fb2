/* Helpers the C tests share; see test_support.h. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

void ts_model(const char *key, gs_model *out) {
  gs_error err = {0, "", ""};
  int rc = gs_builtin_model(key, 0, out, &err);
  if (rc != GS_OK) fail_msg("built-in model %s: status %d, %s: %s", key, rc, err.field, err.what);
}

void ts_gpu(gs_gpu *out) {
  gs_error err = {0, "", ""};
  int rc = gs_builtin_gpu("lesson", out, NULL, &err);
  if (rc != GS_OK) fail_msg("built-in GPU: status %d, %s: %s", rc, err.field, err.what);
}

void ts_link(const char *key, gs_link *out) {
  gs_error err = {0, "", ""};
  int rc = gs_builtin_link(key, out, NULL, &err);
  if (rc != GS_OK) fail_msg("built-in link %s: status %d, %s: %s", key, rc, err.field, err.what);
}

void ts_setting(const char *model, const char *link, gs_model *s, gs_gpu *g, gs_link *l) {
  ts_model(model, s);
  ts_gpu(g);
  ts_link(link, l);
}

gs_plan ts_plan(uint64_t n, int split, uint64_t words) {
  gs_plan p = {0};
  p.gpus = n;
  p.split = split;
  p.words = words;
  return p;
}

gs_cost_result ts_cost_of(const gs_model *m, const gs_gpu *g, const gs_link *l, uint64_t n, int split, uint64_t words) {
  gs_cost_result c;
  gs_error err = {0, "", ""};
  gs_plan p = ts_plan(n, split, words);
  int rc = gs_cost(m, g, l, &p, &c, &err);
  if (rc != GS_OK) fail_msg("gs_cost(%llu GPUs): status %d, %s: %s", (unsigned long long)n, rc, err.field, err.what);
  return c;
}

gs_cost_result ts_cost(const char *model, uint64_t n, const char *link, int split, uint64_t words) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  ts_setting(model, link, &s, &g, &l);
  return ts_cost_of(&s, &g, &l, n, split, words);
}

gs_time ts_time(const char *model, uint64_t n, const char *link, int split, uint64_t words) {
  return ts_cost(model, n, link, split, words).time;
}

int ts_price(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_priced *out, gs_error *err) {
  static gs_setting s; /* large (its texts): kept off the stack; out points at it */
  gs_setting_of(m, g, l, p, &s);
  return gs_price(&s, p->gpus, out, err);
}

int ts_explain(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, char *buf, size_t cap, gs_error *err) {
  gs_priced r;
  int rc = ts_price(m, g, l, p, &r, err);
  return rc != GS_OK ? rc : gs_explain_of(&r, buf, cap, err);
}

gs_sweep ts_sweep(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t max_n, int divide_heads) {
  static gs_setting s;
  gs_sweep found;
  gs_error err;
  gs_setting_of(m, g, l, p, &s);
  s.max_n = max_n;
  s.divide_heads = divide_heads;
  if (gs_sweep_run(&s, NULL, 0, &found, &err) != GS_OK) fail_msg("gs_sweep_run: %s: %s", err.field, err.what);
  return found;
}

int ts_chart(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const uint64_t *counts, size_t count_n,
             gs_chart_row *rows) {
  static gs_setting s;
  static gs_sweep_row swept[128];
  gs_sweep found;
  gs_error err;
  size_t i;
  gs_setting_of(m, g, l, p, &s);
  s.max_n = 1;
  for (i = 0; i < count_n; i++)
    if (counts[i] > s.max_n) s.max_n = counts[i];
  if (s.max_n > 128) fail_msg("ts_chart: counts up to 128");
  if (gs_sweep_run(&s, swept, 128, &found, &err) != GS_OK) fail_msg("gs_sweep_run: %s: %s", err.field, err.what);
  return gs_chart_of(swept, found.count, counts, count_n, rows, count_n, &err);
}

gs_view ts_view(const char *model, uint64_t n, const char *link, int split, uint64_t words) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_priced r;
  gs_plan p = ts_plan(n, split, words);
  int rc;
  ts_setting(model, link, &s, &g, &l);
  rc = ts_price(&s, &g, &l, &p, &r, NULL);
  if (rc != GS_OK) fail_msg("gs_price(%s, %llu, %s): status %d", model, (unsigned long long)n, link, rc);
  return r.view;
}

int ts_parse(const char *json, gs_model *out, gs_error *err) {
  memset(err, 0, sizeof *err);
  return gs_model_parse(json, strlen(json), 0, out, err);
}

void ts_assert_close(double actual, double expected, double rel) {
  if (!(fabs(actual - expected) <= rel * fabs(expected)))
    fail_msg("%.17g is not within %g (relative) of %.17g", actual, rel, expected);
}

/* The lesson's single quantities, through the one cost function (fast link, slices). */
static gs_cost_result lesson_cost(const gs_model *m, const gs_gpu *g, uint64_t n, uint64_t words) {
  gs_link l;
  ts_link("fast", &l);
  return ts_cost_of(m, g, &l, n, GS_SLICES, words);
}
gs_memory ts_memory(const gs_model *m, uint64_t n) {
  gs_gpu g;
  ts_gpu(&g);
  return lesson_cost(m, &g, n, 1).memory;
}
int ts_fits(const gs_model *m, const gs_gpu *g, uint64_t n) { return lesson_cost(m, g, n, 1).fits; }
double ts_read_time(const gs_model *m, const gs_gpu *g, uint64_t n) {
  return (double)lesson_cost(m, g, n, 1).read_bytes / g->bandwidth;
}
double ts_compute_time(const gs_model *m, const gs_gpu *g, uint64_t n, uint64_t words) {
  return lesson_cost(m, g, n, words).compute;
}

gs_model ts_parse_ok(const char *json) {
  gs_model m;
  gs_error err;
  int rc = ts_parse(json, &m, &err);
  if (rc != GS_OK) fail_msg("status %d, %s: %s, for %s", rc, err.field, err.what, json);
  return m;
}

void ts_refused(const char *json, int code, const char *field, const char *words) {
  gs_model m;
  gs_error err;
  int rc = ts_parse(json, &m, &err);
  if (rc != code || err.code != code || strcmp(err.field, field) != 0 || err.what[0] == '\0' ||
      (words != NULL && strstr(err.what, words) == NULL))
    fail_msg("expected %d on '%s' saying '%s'; got %d (err.code %d) on '%s': %s\n  for %s", code, field,
             words ? words : "anything", rc, err.code, err.field, err.what, json);
}

gs_model ts_builtin(const char *key) {
  gs_model m;
  gs_error err;
  memset(&err, 0, sizeof err);
  if (gs_builtin_model(key, 0, &m, &err) != GS_OK) fail_msg("%s: %s: %s", key, err.field, err.what);
  return m;
}

gs_gpu ts_h100(void) {
  gs_gpu g;
  memset(&g, 0, sizeof g);
  g.gib = 80;
  g.usable = 1;
  g.bandwidth = 3.35e12;
  g.flops = 9.895e14;
  g.arch = GS_ARCH_HOPPER;
  return g;
}

gs_serve_space ts_space(size_t n) {
  gs_serve_space sp;
  sp.cap = n;
  sp.reqs = calloc(n, sizeof *sp.reqs);
  sp.ids = calloc(GS_SERVE_IDS * n, sizeof *sp.ids);
  sp.scratch = calloc(n, sizeof *sp.scratch);
  sp.itl = calloc(1, sizeof *sp.itl);
  if (!sp.reqs || !sp.ids || !sp.scratch || !sp.itl) fail_msg("out of memory for %zu requests", n);
  return sp;
}

void ts_space_free(gs_serve_space *sp) {
  free(sp->reqs);
  free(sp->ids);
  free(sp->scratch);
  free(sp->itl);
}

gs_load ts_load(int kind, uint64_t n, uint64_t prompt, uint64_t output) {
  gs_load l;
  memset(&l, 0, sizeof l);
  l.kind = kind;
  l.requests = n;
  l.prompt_tokens = prompt;
  l.output_tokens = output;
  l.seed = 1;
  return l;
}

gs_scheduler ts_bare_vllm(void) {
  gs_scheduler e;
  gs_gpu g = ts_h100();
  gs_error err;
  if (gs_engine_defaults("vllm", &g, "h100-sxm", 1, &e, &err) != GS_OK) fail_msg("%s", err.what);
  e.flops_share = 0, e.seq_us = 0, e.overlap_share = 0, e.request_us = 0;
  return e;
}
