/* The widget's module (and the full module the parity tests also load): the lesson's
 * models, GPU and links, or (without GS_LESSON_TABLES) a pasted config.json with typed
 * figures. JavaScript states what the learner asks (use_builtin or use_custom, then
 * machine for the settings past the lesson); show() resolves it (gs_resolve), prices the
 * chosen count and each offered count once, and hands every figure over through the
 * buffers of csrc/wasm/abi.c, which web/src/fields.js names. Every export returns GS_OK or a
 * negative gs_status; after a failure error_buffer() holds "<field>: <what>". */
#include <string.h>

#include "abi.h"

/* The exports; only JavaScript calls them, so they have no header. */
char *text_in_buffer(void);
uint32_t text_in_capacity(void);
uint32_t offered_count(uint32_t i);
uint32_t offered_words(uint32_t i);
int use_builtin(uint32_t model_index, uint32_t link);
int use_custom(uint32_t len, double gib, double usable, double gpu_bandwidth, double flops, double link_bandwidth,
               double step_us, double base_us);
double *machine_in(void);
int machine(void);
int show(uint32_t n, uint32_t split, uint32_t words);
int explain(void);
int kept_busy(void);
int slices_beside(void);

#ifndef GS_LESSON_TABLES
/* Filled by JavaScript: a config.json's text for use_custom. */
static char text_in[65536];
#endif

/* What the learner asks, and what show() last resolved and priced. */
static gs_request ask;
static int asked;
static gs_setting setting;
static gs_priced shown;
static int have_shown;

#ifndef GS_LESSON_TABLES
EXPORT char *text_in_buffer(void) { return text_in; }
EXPORT uint32_t text_in_capacity(void) { return sizeof text_in; }
#endif
EXPORT uint32_t offered_count(uint32_t i) { return i < GS_COUNT_COUNT ? (uint32_t)GS_COUNTS[i] : 0; }
EXPORT uint32_t offered_words(uint32_t i) { return i < GS_WORDS_COUNT ? (uint32_t)GS_WORDS[i] : 0; }

static int refuse(int rc, const char *field, const char *what) {
  gs_error err;
  return gs_abi_fail(gs_fail(&err, rc, field, "%s", what), &err);
}

/* One of the built-in models (0: 8B, 1: 70B, 2: 405B) with the lesson's GPU and one of
 * its links (0: fast, 1: slow). */
EXPORT int use_builtin(uint32_t model_index, uint32_t link) {
  asked = have_shown = 0;
  memset(&ask, 0, sizeof ask);
  if (model_index >= GS_MODEL_COUNT || link >= GS_LINK_COUNT) return refuse(GS_ERR_UNKNOWN, "model", "no such model or link");
  ask.model_key = GS_MODELS[model_index].key;
  ask.link_key = GS_LINK_KEYS[link];
  ask.assume = GS_ASSUME_LESSON;
  asked = 1;
  return GS_OK;
}

/* The lesson's module (GS_LESSON_TABLES) reads no config.json: it offers its three models. */
#ifndef GS_LESSON_TABLES
/* The config.json of len bytes in text_in, with the GPU and link given. */
EXPORT int use_custom(uint32_t len, double gib, double usable, double gpu_bandwidth, double flops, double link_bandwidth,
                      double step_us, double base_us) {
  asked = have_shown = 0;
  memset(&ask, 0, sizeof ask);
  if (len > sizeof text_in) return refuse(GS_ERR_TOO_LONG, "config", "is longer than the module's buffer");
  ask.model_text = text_in;
  ask.model_len = len;
  ask.assume = GS_ASSUME_LESSON;
  ask.gpu_typed = GS_TYPED_GIB | GS_TYPED_USABLE | GS_TYPED_GPU_BW | GS_TYPED_FLOPS;
  ask.gpu.gib = gib;
  ask.gpu.usable = usable;
  ask.gpu.bandwidth = gpu_bandwidth;
  ask.gpu.flops = flops;
  /* a link of its own: NVLink's kind until machine() says another */
  ask.link_typed = GS_TYPED_LINK_BW | GS_TYPED_STEP_US | GS_TYPED_BASE_US | GS_TYPED_KIND;
  ask.link.kind = GS_LINK_NVLINK;
  ask.link.bandwidth = link_bandwidth;
  ask.link.step_us = step_us;
  ask.link.base_us = base_us;
  {
    /* a config or figure that is wrong is said now, as it is pasted */
    gs_error err;
    int rc = gs_resolve(&ask, &setting, &err);
    if (rc != GS_OK) return gs_abi_fail(rc, &err);
  }
  asked = 1;
  return GS_OK;
}
#endif

/* The lesson's module (GS_LESSON_TABLES) offers only the lesson's settings: no machine().
 * The settings past the lesson, until use_builtin or use_custom, read from machine_in(),
 * where JavaScript writes them by the names of GS_MACHINE_FIELDS (csrc/core/fields.h): GPUs
 * a server (0: one server), tokens and bits of the cache (0: the lesson's), switches (enum
 * gs_switch), the link between servers, and the kinds of the links and the GPU's
 * generation (enum gs_link_kind and gs_arch). */
#ifndef GS_LESSON_TABLES
_Static_assert((0 GS_MACHINE_FIELDS(GS_COUNT_U64)) == 0 && (0 GS_MACHINE_FIELDS(GS_COUNT_TEXT)) == 0,
               "the machine's settings come in as doubles");
static double machine_numbers[0 GS_MACHINE_FIELDS(GS_COUNT_F64)];
EXPORT double *machine_in(void) { return machine_numbers; }

/* Each setting in turn from machine_numbers; a count must be a whole number below 2^32. */
#define UNPACK(kind, id, path, expr) (expr) = machine_numbers[at++];
#define WHOLE_COUNT(x) ((x) >= 0 && (x) < 4294967296.0 && (x) == (double)(uint32_t)(x))
#define CHECK_COUNT(p, e) if (!WHOLE_COUNT(e)) return refuse(GS_ERR_RANGE, p, "must be a whole number from 0 to 4294967295");
#define CHECK_F64(p, e)
#define CHECK(kind, id, path, expr) CHECK_##kind(path, expr)

static int machine_read(gs_abi_machine *r) {
  size_t at = 0;
  GS_MACHINE_FIELDS(UNPACK)
  GS_MACHINE_FIELDS(CHECK)
  return GS_OK;
}

EXPORT int machine(void) {
  gs_abi_machine m;
  int rc;
  if (!asked) return refuse(GS_ERR_UNKNOWN, "model", "none is loaded: call use_builtin or use_custom");
  if ((rc = machine_read(&m)) != GS_OK) return rc;
  have_shown = 0;
  ask.per_server = (uint64_t)m.per_server;
  ask.chat_tokens = (uint64_t)m.chat_tokens;
  ask.cache_bits = (uint64_t)m.cache_bits;
  ask.switches = (unsigned)m.switches;
  ask.between_typed = GS_TYPED_LINK_BW | GS_TYPED_STEP_US | GS_TYPED_KIND;
  ask.between.bandwidth = m.between_bandwidth;
  ask.between.step_us = m.between_step_us;
  ask.between.kind = m.between_kind > GS_LINK_NET ? -1 : (int)m.between_kind;
  ask.link_typed |= GS_TYPED_KIND;
  ask.link.kind = m.link_kind > GS_LINK_NET ? -1 : (int)m.link_kind;
  ask.gpu_typed |= GS_TYPED_ARCH;
  ask.gpu.arch = m.arch > GS_ARCH_BLACKWELL ? -1 : (int)m.arch;
  return GS_OK;
}
#endif

/* Every figure of n GPUs with this split and words at once, the chart over the offered
 * counts (each priced once, the chosen one among them; none when the plan cannot take
 * one of them), one word's timeline on each GPU, and into summary_f64() the record of
 * GS_SHOWN_FIELDS: the fewest GPUs that hold the model, searched up to the setting's
 * max_n as `report` searches, stopped where it is found (gs_fewest_run), the chart's rows, and whether kept_busy() has
 * a setting. */
EXPORT int show(uint32_t n, uint32_t split, uint32_t words) {
  gs_chart_row chart[GS_OFFERED_MAX];
  gs_timeline_row timeline[GS_OFFERED_MAX];
  gs_sweep found;
  gs_abi_shown said = {&setting, &found, 0, 0};
  gs_error err;
  int rc;
  have_shown = 0;
  if (!asked) return refuse(GS_ERR_UNKNOWN, "model", "none is loaded: call use_builtin or use_custom");
  ask.split = (int)split;
  ask.words = words;
  if ((rc = gs_resolve(&ask, &setting, &err)) != GS_OK || (rc = gs_price(&setting, n, &shown, &err)) != GS_OK)
    return gs_abi_fail(rc, &err);
  if ((rc = gs_abi_put_setting(&shown)) != GS_OK) return rc;
  rc = gs_offered_chart(&setting, &shown, chart, GS_OFFERED_MAX, &err);
  if (rc == GS_OK) said.chart_rows = GS_COUNT_COUNT;
  else if (rc != GS_ERR_SHAPE) return gs_abi_fail(rc, &err); /* a count this plan cannot take: no chart */
  if ((rc = gs_abi_put_chart(chart, (size_t)said.chart_rows)) != GS_OK) return rc;
  if (n <= GS_OFFERED_MAX) {
    if ((rc = gs_timeline_of(&shown, timeline, GS_OFFERED_MAX, &err)) != GS_OK) return gs_abi_fail(rc, &err);
    if ((rc = gs_abi_put_timeline(timeline, n)) != GS_OK) return rc;
  }
  memset(&found, 0, sizeof found);
  if ((rc = gs_fewest_run(&setting, &found.fewest, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  /* groups of many words on several GPUs can keep every group busy: kept_busy() shows it */
  said.busy = shown.plan.split == GS_GROUPS && shown.plan.words > 1 && n > 1;
  {
    const gs_abi_shown *r = &said;
    GS_ABI_PUT_SUMMARY(GS_SHOWN_FIELDS, r);
  }
  have_shown = 1;
  return GS_OK;
}

/* The sums of the count show() last priced (its memory's only, when it does not fit), into
 * explain_buffer(), with the spaces inside
 * a term made no-break spaces, so the page breaks a line only between terms. */
EXPORT int explain(void) {
  int rc;
  if (!have_shown) return refuse(GS_ERR_UNKNOWN, "setting", "none is shown: call show first");
  {
    /* a count that does not fit: its memory's sums only (gs_explain_shown) */
    gs_error err;
    if ((rc = gs_explain_shown(&shown, explain_buffer(), GS_EXPLAIN_CAP, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  }
  return gs_abi_glue_explain();
}

/* The setting show() last priced with every group kept busy: as many batches of its words
 * in flight as it has groups (gs_plan's in_flight), into the setting's and the timeline's
 * buffers. */
EXPORT int kept_busy(void) {
  static gs_setting busy;
  gs_priced r;
  gs_timeline_row timeline[GS_OFFERED_MAX];
  gs_error err;
  int rc;
  if (!have_shown) return refuse(GS_ERR_UNKNOWN, "setting", "none is shown: call show first");
  if (shown.plan.split != GS_GROUPS) return refuse(GS_ERR_SHAPE, "split", "only groups keep batches in flight");
  busy = setting;
  busy.plan.in_flight = shown.plan.gpus;
  if ((rc = gs_price(&busy, shown.plan.gpus, &r, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  if (r.plan.gpus > GS_OFFERED_MAX) return refuse(GS_ERR_TOO_LONG, "gpus", "the widget offers counts up to 16");
  if ((rc = gs_timeline_of(&r, timeline, GS_OFFERED_MAX, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  if ((rc = gs_abi_put_timeline(timeline, (size_t)r.plan.gpus)) != GS_OK) return rc;
  return gs_abi_put_setting(&r);
}

/* The setting show() last priced with its GPUs and words split in slices instead, into the
 * setting's buffer: the figure "Groups kept busy" is weighed against (the lesson's 3,307.1
 * words a second for 70B on 4 GPUs with 64 words). */
EXPORT int slices_beside(void) {
  static gs_setting sliced;
  gs_priced r;
  gs_error err;
  int rc;
  if (!have_shown) return refuse(GS_ERR_UNKNOWN, "setting", "none is shown: call show first");
  sliced = setting;
  sliced.plan.split = GS_SLICES;
  if ((rc = gs_price(&sliced, shown.plan.gpus, &r, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  return gs_abi_put_setting(&r);
}
