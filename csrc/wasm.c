/* The WebAssembly module's exports: the widget and the parity tests call these.
 * Numbers cross as plain arguments and through the static buffers below, which
 * JavaScript views as typed arrays; no Emscripten glue, no imports. Every export
 * returns GS_OK or a negative gs_status, and after a failure error_text() holds
 * "<field>: <what>". Layouts are listed beside each buffer; web/widget.js and
 * tests/js/wasm.mjs read them in the same order. */
#include <string.h>

#include "internal.h"

#define EXPORT __attribute__((used, visibility("default")))

/* The exports; only JavaScript calls them, so they have no header. */
char *text_in_buffer(void);
uint32_t text_in_capacity(void);
uint64_t *bytes_buffer(void);
double *numbers_buffer(void);
char *text_buffer(void);
double *chart_buffer(void);
char *error_buffer(void);
uint32_t offered_count(uint32_t i);
uint32_t offered_words(uint32_t i);
int use_builtin(uint32_t model, uint32_t link);
int use_custom(uint32_t len, double gib, double usable, double gpu_bandwidth, double flops, double link_bandwidth,
               double step_us, double base_us);
int setting(uint32_t n, uint32_t split, uint32_t words);
int chart(uint32_t split, uint32_t words);

/* Filled by JavaScript: a config.json's text for use_custom. */
static char text_in[65536];

/* The current model, GPU and link. */
static gs_shape shape;
static gs_gpu gpu;
static gs_link link_now;
static int ready;

/* setting(): params, weight_bytes, usable_bytes, memory weights, cache, working, total, fits */
static uint64_t out_bytes[8];
/* setting(): read, transfer, total, share, words_per_s, compute, mem_bar, wait_bar */
static double out_numbers[8];
/* setting(): memory, weights, cache, working, usable, time, read, transfer, waiting,
 * words_per_s, each ending in a NUL. chart(): each row's time, each ending in a NUL. */
static char out_text[1024];
/* chart(): per offered count, gpus, fits, read_bar, wait_bar */
static double out_chart[4 * 16];
static char error_text[256];

static int fail(int rc, const gs_error *err) {
  if (err) gs_format(error_text, sizeof error_text, "%s%s%s", err->field, err->field[0] ? ": " : "", err->what);
  else gs_format(error_text, sizeof error_text, "status %d", rc);
  return rc;
}

EXPORT char *text_in_buffer(void) { return text_in; }
EXPORT uint32_t text_in_capacity(void) { return sizeof text_in; }
EXPORT uint64_t *bytes_buffer(void) { return out_bytes; }
EXPORT double *numbers_buffer(void) { return out_numbers; }
EXPORT char *text_buffer(void) { return out_text; }
EXPORT double *chart_buffer(void) { return out_chart; }
EXPORT char *error_buffer(void) { return error_text; }
EXPORT uint32_t offered_count(uint32_t i) { return i < GS_COUNT_COUNT ? (uint32_t)GS_COUNTS[i] : 0; }
EXPORT uint32_t offered_words(uint32_t i) { return i < GS_WORDS_COUNT ? (uint32_t)GS_WORDS[i] : 0; }

/* One of the built-in models (0: 8B, 1: 70B, 2: 405B) with the lesson's GPU and one of
 * its links (0: fast, 1: slow). */
EXPORT int use_builtin(uint32_t model, uint32_t link) {
  gs_error err;
  int rc;
  ready = 0;
  if (model >= GS_MODEL_COUNT || link >= GS_LINK_COUNT) return fail(GS_ERR_UNKNOWN, NULL);
  if ((rc = gs_builtin_model(GS_MODELS[model].key, &shape, &err)) != GS_OK || (rc = gs_builtin_gpu(&gpu, &err)) != GS_OK ||
      (rc = gs_builtin_link(GS_LINK_KEYS[link], &link_now, NULL, 0, &err)) != GS_OK)
    return fail(rc, &err);
  ready = 1;
  return GS_OK;
}

/* The config.json of len bytes in text_in, with the GPU and link given. */
EXPORT int use_custom(uint32_t len, double gib, double usable, double gpu_bandwidth, double flops, double link_bandwidth,
                      double step_us, double base_us) {
  gs_error err;
  int rc;
  ready = 0;
  if (len > sizeof text_in) return fail(GS_ERR_TOO_LONG, NULL);
  gpu.gib = gib;
  gpu.usable = usable;
  gpu.bandwidth = gpu_bandwidth;
  gpu.flops = flops;
  link_now.bandwidth = link_bandwidth;
  link_now.step_us = step_us;
  link_now.base_us = base_us;
  if ((rc = gs_shape_parse(text_in, len, &shape, &err)) != GS_OK || (rc = gs_gpu_check(&gpu, &err)) != GS_OK ||
      (rc = gs_link_check(&link_now, &err)) != GS_OK)
    return fail(rc, &err);
  ready = 1;
  return GS_OK;
}

static int check_setting(uint32_t n, uint32_t words) {
  gs_error err;
  int rc;
  if (!ready) return fail(gs_fail(&err, GS_ERR_UNKNOWN, "model", "none is loaded: call use_builtin or use_custom"), &err);
  if (n < 1 || n > GS_MAX_GPUS)
    return fail(gs_fail(&err, GS_ERR_RANGE, "gpus", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS), &err);
  if ((rc = gs_words_check(&shape, words, &err)) != GS_OK) return fail(rc, &err);
  return GS_OK;
}

static size_t put_text(size_t at, const char *s) {
  size_t n = strlen(s) + 1;
  if (at + n > sizeof out_text) return at;
  memcpy(out_text + at, s, n);
  return at + n;
}

/* Every number and string of n GPUs with this split and words at once. */
EXPORT int setting(uint32_t n, uint32_t split, uint32_t words) {
  gs_memory m;
  gs_time t;
  gs_view v;
  size_t at = 0;
  gs_error err;
  int rc;
  if ((rc = check_setting(n, words)) != GS_OK) return rc;
  if ((rc = gs_word_time(&shape, &gpu, &link_now, n, (int)split, words, &t)) != GS_OK ||
      (rc = gs_view_make(&shape, &gpu, &link_now, n, (int)split, words, &v)) != GS_OK)
    return fail(gs_fail(&err, rc, "split", "must be 0 (slices) or 1 (groups)"), &err);
  gs_memory_per_gpu(&shape, n, &m);
  out_bytes[0] = gs_param_count(&shape);
  out_bytes[1] = gs_weight_bytes(&shape);
  out_bytes[2] = gs_usable_bytes(&gpu);
  out_bytes[3] = m.weights;
  out_bytes[4] = m.cache;
  out_bytes[5] = m.working;
  out_bytes[6] = m.total;
  out_bytes[7] = (uint64_t)gs_fits(&shape, &gpu, n);
  out_numbers[0] = t.read;
  out_numbers[1] = t.transfer;
  out_numbers[2] = t.total;
  out_numbers[3] = t.share;
  out_numbers[4] = t.words_per_s;
  out_numbers[5] = gs_compute_time(&shape, &gpu, n, words);
  out_numbers[6] = v.mem_bar;
  out_numbers[7] = v.wait_bar;
  at = put_text(at, v.memory);
  at = put_text(at, v.weights);
  at = put_text(at, v.cache);
  at = put_text(at, v.working);
  at = put_text(at, v.usable);
  at = put_text(at, v.time);
  at = put_text(at, v.read);
  at = put_text(at, v.transfer);
  at = put_text(at, v.waiting);
  put_text(at, v.words_per_s);
  return GS_OK;
}

/* The chart over the counts the widget offers. */
EXPORT int chart(uint32_t split, uint32_t words) {
  gs_chart_row rows[16];
  size_t i, at = 0;
  gs_error err;
  int rc;
  if ((rc = check_setting(1, words)) != GS_OK) return rc;
  if ((rc = gs_chart_make(&shape, &gpu, &link_now, (int)split, words, GS_COUNTS, GS_COUNT_COUNT, rows)) != GS_OK)
    return fail(gs_fail(&err, rc, "split", "must be 0 (slices) or 1 (groups)"), &err);
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    out_chart[4 * i] = (double)rows[i].gpus;
    out_chart[4 * i + 1] = rows[i].fits;
    out_chart[4 * i + 2] = rows[i].read_bar;
    out_chart[4 * i + 3] = rows[i].wait_bar;
    at = put_text(at, rows[i].time);
  }
  return GS_OK;
}
