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
int use_builtin(uint32_t model_index, uint32_t link);
int use_custom(uint32_t len, double gib, double usable, double gpu_bandwidth, double flops, double link_bandwidth,
               double step_us, double base_us);
int machine(uint32_t per_server, uint32_t chat_tokens, uint32_t cache_bits, uint32_t switches, double between_bandwidth,
            double between_step_us, uint32_t kinds);
int setting(uint32_t n, uint32_t split, uint32_t words);
int explain(uint32_t n, uint32_t split, uint32_t words);
char *explain_buffer(void);
int chart(uint32_t split, uint32_t words);
int fewest(uint32_t split, uint32_t words);
int timeline(uint32_t n, uint32_t split, uint32_t words);
double *timeline_buffer(void);

#ifndef GS_LESSON_TABLES
/* Filled by JavaScript: a config.json's text for use_custom. */
static char text_in[65536];
#endif

/* The current model, GPU and link, and the plan's settings beyond gpus, split and words
 * (all 0, the lesson's, until machine() sets them). */
static gs_model model;
static gs_gpu gpu;
static gs_link link_now;
static gs_plan options;
static int ready;

/* setting(): params, weight_bytes, usable_bytes, memory weights, cache, working, total, fits,
 * read_bytes, active_params, servers, protocol + 1 (0: none) */
static uint64_t out_bytes[12];
/* setting(): read, transfer, total, share, words_per_s, compute, mem_bar, wait_bar,
 * total_words_per_s, swap, limit_bar */
static double out_numbers[11];
/* explain(): the sums, lines of text ending in a NUL */
static char explain_text[GS_EXPLAIN_CAP];
/* setting(): memory, weights, cache, working, usable, time, read, transfer, waiting,
 * words_per_s, words_all, each ending in a NUL. chart(): each row's time, each ending in a NUL. */
static char out_text[1024];
_Static_assert(sizeof out_text >= (GS_VIEW_PACKED + 1) * GS_FIGURE_CAP && sizeof out_text >= 16 * GS_FIGURE_CAP,
               "setting() packs the view and words_all; chart() a time for each of out_chart's 16 rows");
/* chart(): per offered count, gpus, fits, read_bar, wait_bar */
static double out_chart[4 * 16];
/* timeline(): per GPU, idle_before, read, wait, idle_after (percent of the step) */
static double out_timeline[4 * 16];
static char error_text[256];

static int fail(int rc, const gs_error *err) {
  if (err) gs_format(error_text, sizeof error_text, "%s%s%s", err->field, err->field[0] ? ": " : "", err->what);
  else gs_format(error_text, sizeof error_text, "status %d", rc);
  return rc;
}

#ifndef GS_LESSON_TABLES
EXPORT char *text_in_buffer(void) { return text_in; }
EXPORT uint32_t text_in_capacity(void) { return sizeof text_in; }
#endif
EXPORT uint64_t *bytes_buffer(void) { return out_bytes; }
EXPORT double *numbers_buffer(void) { return out_numbers; }
EXPORT char *text_buffer(void) { return out_text; }
EXPORT double *chart_buffer(void) { return out_chart; }
EXPORT char *error_buffer(void) { return error_text; }
EXPORT char *explain_buffer(void) { return explain_text; }
EXPORT double *timeline_buffer(void) { return out_timeline; }
EXPORT uint32_t offered_count(uint32_t i) { return i < GS_COUNT_COUNT ? (uint32_t)GS_COUNTS[i] : 0; }
EXPORT uint32_t offered_words(uint32_t i) { return i < GS_WORDS_COUNT ? (uint32_t)GS_WORDS[i] : 0; }

/* One of the built-in models (0: 8B, 1: 70B, 2: 405B) with the lesson's GPU and one of
 * its links (0: fast, 1: slow). */
EXPORT int use_builtin(uint32_t model_index, uint32_t link) {
  gs_error err;
  int rc;
  ready = 0;
  memset(&options, 0, sizeof options);
  if (model_index >= GS_MODEL_COUNT || link >= GS_LINK_COUNT) return fail(GS_ERR_UNKNOWN, NULL);
  if ((rc = gs_builtin_model(GS_MODELS[model_index].key, 0, &model, &err)) != GS_OK || (rc = gs_builtin_gpu("lesson", &gpu, NULL, &err)) != GS_OK ||
      (rc = gs_builtin_link(GS_LINK_KEYS[link], &link_now, NULL, &err)) != GS_OK)
    return fail(rc, &err);
  ready = 1;
  return GS_OK;
}

/* The lesson's module (GS_LESSON_TABLES) reads no config.json: it offers its three models. */
#ifndef GS_LESSON_TABLES
/* The config.json of len bytes in text_in, with the GPU and link given. */
EXPORT int use_custom(uint32_t len, double gib, double usable, double gpu_bandwidth, double flops, double link_bandwidth,
                      double step_us, double base_us) {
  gs_error err;
  int rc;
  ready = 0;
  memset(&options, 0, sizeof options);
  if (len > sizeof text_in) return fail(GS_ERR_TOO_LONG, NULL);
  gpu.gib = gib;
  gpu.usable = usable;
  gpu.bandwidth = gpu_bandwidth;
  gpu.flops = flops;
  link_now.bandwidth = link_bandwidth;
  link_now.step_us = step_us;
  link_now.base_us = base_us;
  if ((rc = gs_model_parse(text_in, len, 0, &model, &err)) != GS_OK || (rc = gs_gpu_check(&gpu, &err)) != GS_OK ||
      (rc = gs_link_check(&link_now, &err)) != GS_OK)
    return fail(rc, &err);
  ready = 1;
  return GS_OK;
}
#endif

static int check_ready(void) {
  gs_error err;
  if (!ready) return fail(gs_fail(&err, GS_ERR_UNKNOWN, "model", "none is loaded: call use_builtin or use_custom"), &err);
  return GS_OK;
}

static size_t put_text(size_t at, const char *s) { return gs_pack_text(out_text, sizeof out_text, at, s); }

/* The settings past the lesson, for the settings that follow (until use_builtin or
 * use_custom): GPUs a server (0: one server), tokens and bits of the cache (0: the
 * lesson's), switches (1 cache per chat, 2 overlap, 4 read the cache, 8 NCCL's own
 * protocols), the link between servers, and kinds (bits 0-1 the link's kind, 2-3 the
 * between link's, 4-6 the GPU's generation: enum gs_link_kind and gs_arch). The between
 * link starts up as the link does. Checked when a setting is priced. */
EXPORT int machine(uint32_t per_server, uint32_t chat_tokens, uint32_t cache_bits, uint32_t switches, double between_bandwidth,
                   double between_step_us, uint32_t kinds) {
  int rc;
  if ((rc = check_ready()) != GS_OK) return rc;
  memset(&options, 0, sizeof options);
  options.per_server = per_server;
  options.chat_tokens = chat_tokens;
  options.cache_bits = cache_bits;
  options.cache_per_chat = (switches & 1) != 0;
  options.overlap = (switches & 2) != 0;
  options.read_cache = (switches & 4) != 0;
  options.nccl = switches & 8 ? GS_NCCL_AUTO : GS_NCCL_LESSON;
  options.between.bandwidth = between_bandwidth;
  options.between.step_us = between_step_us;
  options.between.base_us = link_now.base_us;
  options.between.kind = (int)((kinds >> 2) & 3);
  link_now.kind = (int)(kinds & 3);
  gpu.arch = (int)((kinds >> 4) & 7);
  return GS_OK;
}

static gs_plan plan_of(uint32_t n, uint32_t split, uint32_t words) {
  gs_plan p = options;
  p.gpus = n;
  p.split = (int)split;
  p.words = words;
  return p;
}

/* The sums of n GPUs with this split and words at once, into explain_buffer(). */
EXPORT int explain(uint32_t n, uint32_t split, uint32_t words) {
  gs_plan p = plan_of(n, split, words);
  gs_error err;
  int rc;
  if ((rc = check_ready()) != GS_OK) return rc;
  if ((rc = gs_explain(&model, &gpu, &link_now, &p, explain_text, sizeof explain_text, &err)) != GS_OK) return fail(rc, &err);
  return GS_OK;
}

/* Every number and string of n GPUs with this split and words at once. */
EXPORT int setting(uint32_t n, uint32_t split, uint32_t words) {
  gs_cost_result c;
  gs_view v;
  gs_plan p = plan_of(n, split, words);
  size_t at = 0;
  gs_error err;
  int rc;
  if ((rc = check_ready()) != GS_OK) return rc;
  if ((rc = gs_cost(&model, &gpu, &link_now, &p, &c, &err)) != GS_OK || (rc = gs_view_make(&model, &gpu, &link_now, &p, &v, &err)) != GS_OK)
    return fail(rc, &err);
  out_bytes[0] = model.params;
  out_bytes[1] = model.stored_bytes;
  out_bytes[2] = c.usable_bytes;
  out_bytes[3] = c.memory.weights;
  out_bytes[4] = c.memory.cache;
  out_bytes[5] = c.memory.working;
  out_bytes[6] = c.memory.total;
  out_bytes[7] = (uint64_t)c.fits;
  out_bytes[8] = c.read_bytes;
  out_bytes[9] = model.active_params;
  out_bytes[10] = c.servers;
  out_bytes[11] = (uint64_t)(c.protocol + 1);
  out_numbers[0] = c.time.read;
  out_numbers[1] = c.time.transfer;
  out_numbers[2] = c.time.total;
  out_numbers[3] = c.time.share;
  out_numbers[4] = c.time.words_per_s;
  out_numbers[5] = c.compute;
  out_numbers[6] = v.mem_bar;
  out_numbers[7] = v.wait_bar;
  out_numbers[8] = c.time.total_words_per_s;
  out_numbers[9] = c.swap;
  out_numbers[10] = v.limit_bar;
  at = gs_view_pack(&v, out_text, sizeof out_text, at);
  put_text(at, v.words_all);
  return GS_OK;
}

/* The fewest GPUs, up to 64, that hold the model with this split and words (0: none). */
EXPORT int fewest(uint32_t split, uint32_t words) {
  gs_plan p = plan_of(1, split, words);
  uint64_t n = 0;
  int rc;
  if ((rc = check_ready()) != GS_OK) return rc;
  rc = gs_fewest_n(&model, &gpu, &p, 64, 0, &n);
  if (rc != GS_OK && rc != GS_ERR_NONE_FITS) return fail(rc, NULL);
  return (int)n;
}

/* One word's step on each of n GPUs (at most 16), into timeline_buffer(). */
EXPORT int timeline(uint32_t n, uint32_t split, uint32_t words) {
  gs_timeline_row rows[16];
  gs_plan p = plan_of(n, split, words);
  gs_error err;
  uint32_t i;
  int rc;
  if ((rc = check_ready()) != GS_OK) return rc;
  if ((rc = gs_timeline_make(&model, &gpu, &link_now, &p, rows, 16, &err)) != GS_OK) return fail(rc, &err);
  for (i = 0; i < n; i++) {
    out_timeline[4 * i] = rows[i].idle_before;
    out_timeline[4 * i + 1] = rows[i].read;
    out_timeline[4 * i + 2] = rows[i].wait;
    out_timeline[4 * i + 3] = rows[i].idle_after;
  }
  return GS_OK;
}

/* The chart over the counts the widget offers. */
EXPORT int chart(uint32_t split, uint32_t words) {
  gs_chart_row rows[16];
  gs_plan p = plan_of(1, split, words);
  size_t i, at = 0;
  gs_error err;
  int rc;
  if ((rc = check_ready()) != GS_OK) return rc;
  if ((rc = gs_chart_make(&model, &gpu, &link_now, &p, GS_COUNTS, GS_COUNT_COUNT, rows, &err)) != GS_OK) return fail(rc, &err);
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    out_chart[4 * i] = (double)rows[i].gpus;
    out_chart[4 * i + 1] = rows[i].fits;
    out_chart[4 * i + 2] = rows[i].read_bar;
    out_chart[4 * i + 3] = rows[i].wait_bar;
    at = put_text(at, rows[i].time);
  }
  return GS_OK;
}
