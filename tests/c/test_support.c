/* Helpers the C tests share; see test_support.h. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

void ts_model(const char *key, gs_shape *out) {
  gs_error err = {0, "", ""};
  int rc = gs_builtin_model(key, out, &err);
  if (rc != GS_OK) fail_msg("built-in model %s: status %d, %s: %s", key, rc, err.field, err.what);
}

void ts_gpu(gs_gpu *out) {
  gs_error err = {0, "", ""};
  int rc = gs_builtin_gpu(out, &err);
  if (rc != GS_OK) fail_msg("built-in GPU: status %d, %s: %s", rc, err.field, err.what);
}

void ts_link(const char *key, gs_link *out) {
  gs_error err = {0, "", ""};
  char label[32];
  int rc = gs_builtin_link(key, out, label, sizeof label, &err);
  if (rc != GS_OK) fail_msg("built-in link %s: status %d, %s: %s", key, rc, err.field, err.what);
}

void ts_setting(const char *model, const char *link, gs_shape *s, gs_gpu *g, gs_link *l) {
  ts_model(model, s);
  ts_gpu(g);
  ts_link(link, l);
}

gs_time ts_time(const char *model, uint64_t n, const char *link, int split, uint64_t words) {
  gs_shape s;
  gs_gpu g;
  gs_link l;
  gs_time t;
  int rc;
  ts_setting(model, link, &s, &g, &l);
  memset(&t, 0, sizeof t);
  rc = gs_word_time(&s, &g, &l, n, split, words, &t);
  if (rc != GS_OK) fail_msg("gs_word_time(%s, %llu, %s): status %d", model, (unsigned long long)n, link, rc);
  return t;
}

gs_view ts_view(const char *model, uint64_t n, const char *link, int split, uint64_t words) {
  gs_shape s;
  gs_gpu g;
  gs_link l;
  gs_view v;
  int rc;
  ts_setting(model, link, &s, &g, &l);
  memset(&v, 0, sizeof v);
  rc = gs_view_make(&s, &g, &l, n, split, words, &v);
  if (rc != GS_OK) fail_msg("gs_view_make(%s, %llu, %s): status %d", model, (unsigned long long)n, link, rc);
  return v;
}

int ts_parse(const char *json, gs_shape *out, gs_error *err) {
  memset(err, 0, sizeof *err);
  return gs_shape_parse(json, strlen(json), out, err);
}

void ts_assert_close(double actual, double expected, double rel) {
  if (!(fabs(actual - expected) <= rel * fabs(expected)))
    fail_msg("%.17g is not within %g (relative) of %.17g", actual, rel, expected);
}
