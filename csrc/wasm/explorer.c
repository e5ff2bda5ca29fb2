/* The explorer's WebAssembly module (web/explorer.html): every catalogue model, GPU and
 * link, a pasted config.json or nccl-tests log, and the settings of `gpusplit report`.
 * Each use_* step and plan() fill one part of a gs_request, in the order the command line
 * reads them, and resolve it (gs_resolve), so a wrong part is named at its own step and
 * every rule is the command line's. Each step and price() and sweep() hand their figures
 * over as records of csrc/core/fields.h's lists (the buffers of csrc/wasm/abi.c and the
 * GS_ABI_RECORDs below), which web/src/fields.js names. Every export returns
 * GS_OK or a negative gs_status; after a failure error_buffer() holds one line. */
#include <string.h>

#include "abi.h"
#include "read/efficiency.h"

/* The exports; only JavaScript calls them, so they have no header. */
char *text_in_buffer(void);
uint32_t text_in_capacity(void);
char *key_in_buffer(void);
uint32_t key_in_capacity(void);
char *list_buffer(void);
uint32_t max_gpus(void);
int list(uint32_t what);
int use_model(uint32_t index, double bits);
int use_config(uint32_t len, double bits);
int use_gpu_key(void);
int use_gpu(double gib, double usable, double bandwidth, double flops, uint32_t arch);
int use_link_key(void);
int use_link(double bandwidth, double step_us, double base_us, uint32_t kind);
int use_log(uint32_t len);
int use_between_key(void);
int use_rules(uint32_t rules);
int use_engine(void);
int plan(uint32_t split, double words, double per_server, double chat_tokens, double cache_bits, uint32_t switches);
int price(uint32_t n);
int sweep(void);
int explain(uint32_t n);

/* The counts the sweep tries, as `report --max-n` defaults to. */
#define SWEEP_MAX GS_DEFAULT_MAX_N

/* Filled by JavaScript: a config.json or an nccl-tests log (which the reader bounds at
 * GS_MEASURED_MAX_BYTES), and a catalogue key. A config is kept apart (config_kept), since
 * a log pasted after it comes through the same buffer. */
static char text_in[GS_MEASURED_MAX_BYTES];
static char config_kept[GS_MEASURED_MAX_BYTES];
static char key_in[64];
static char gpu_key[64], link_key[64], between_key[64];

/* What is asked so far; each step clears the steps after it. */
static gs_request ask;
static gs_setting setting;
static int step; /* 0 nothing, 1 model, 2 GPU, 3 link, 4 between, 5 plan */

/* list(): lines "key\tname\n", one an entry */
static char list_text[8192];

/* The records each step hands over, r being the resolved setting: use_gpu_key() and
 * use_gpu() the GPU (gpu_*), use_link_key(), use_link() and plan() the link as priced
 * (link_*), use_log() the log's GPU count (log_*), plan() the message (planned_*) and the
 * rules that hold (rules_*, whose r is rules_held, a gs_abi_rules). */
GS_ABI_RECORD(gpu, GS_GPU_RECORD, const gs_setting *)
GS_ABI_RECORD(link, GS_LINK_RECORD, const gs_setting *)
GS_ABI_RECORD(log, GS_LOG_FIELDS, const gs_setting *)
GS_ABI_RECORD(planned, GS_PLANNED_FIELDS, const gs_setting *)
GS_ABI_RECORD(rules, GS_RULES_RECORD, const gs_abi_rules *)
static gs_abi_rules rules_held;

static int refuse(int rc, const char *field, const char *what) {
  gs_error err;
  return gs_abi_fail(gs_fail(&err, rc, field, "%s", what), &err);
}

EXPORT char *text_in_buffer(void) { return text_in; }
EXPORT uint32_t text_in_capacity(void) { return sizeof text_in; }
EXPORT char *key_in_buffer(void) { return key_in; }
EXPORT uint32_t key_in_capacity(void) { return sizeof key_in; }
EXPORT char *list_buffer(void) { return list_text; }
EXPORT uint32_t max_gpus(void) { return SWEEP_MAX; }

/* A whole number from JavaScript's double: finite, whole, from 0 to max. */
static int whole(double x, const char *field, uint64_t max, uint64_t *out) {
  gs_error err;
  if (!(x >= 0) || x > (double)max || x != (double)(uint64_t)x)
    return gs_abi_fail(gs_fail(&err, GS_ERR_RANGE, field, "must be a whole number from 0 to %llu", (unsigned long long)max), &err);
  *out = (uint64_t)x;
  return GS_OK;
}


/* Appends "key\tname\n" to list_text at *at; 0 when it does not fit. */
static int put_line(size_t *at, const char *key, const char *name) {
  size_t need = strlen(key) + strlen(name) + 2;
  if (*at + need >= sizeof list_text) return 0;
  gs_format(list_text + *at, sizeof list_text - *at, "%s\t%s\n", key, name);
  *at += need;
  return 1;
}

/* The engines with fitted figures of their own (data/efficiency.json's all-generation groups),
 * as "key\tkey\n" lines, in the table's order. */
static int list_engines(void) {
  size_t at = 0, i;
  for (i = 0; i < GS_EFFICIENCY_TABLE.count; i++) {
    const fit_figure *f = &GS_EFFICIENCY_TABLE.f[i];
    if (strcmp(f->generation, "all") != 0 || strcmp(f->engine, ANY_ENGINE) == 0) continue;
    if (!put_line(&at, f->engine, f->engine)) return refuse(GS_ERR_TOO_LONG, "list", "the engines do not fit their buffer");
  }
  return GS_OK;
}

/* The catalogue (what: 0 models, 1 GPUs, 2 links, 3 engines) into list_buffer(), in data/'s
 * order. */
EXPORT int list(uint32_t what) {
  char keys[2048];
  const char *array = what == 1 ? "gpus" : "links";
  size_t at = 0, i;
  gs_error err;
  int rc;
  list_text[0] = '\0';
  if (what == 0) {
    for (i = 0; i < GS_MODEL_COUNT; i++)
      if (!put_line(&at, GS_MODELS[i].key, GS_MODELS[i].name)) return refuse(GS_ERR_TOO_LONG, "list", "the catalogue does not fit its buffer");
    return GS_OK;
  }
  if (what == 3) return list_engines();
  if (what > 3) return refuse(GS_ERR_UNKNOWN, "list", "must be 0 (models), 1 (GPUs), 2 (links) or 3 (engines)");
  if ((rc = gs_builtin_keys(array, keys, sizeof keys, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  for (i = 0; keys[i];) {
    gs_hardware_text text;
    size_t len = strcspn(keys + i, ",");
    char key[sizeof text.key];
    gs_gpu g;
    gs_link l;
    gs_format(key, sizeof key, "%s", keys + i);
    if (len < sizeof key) key[len] = '\0';
    rc = what == 1 ? gs_builtin_gpu(key, &g, &text, &err) : gs_builtin_link(key, &l, &text, &err);
    if (rc != GS_OK) return gs_abi_fail(rc, &err);
    if (!put_line(&at, text.key, text.name)) return refuse(GS_ERR_TOO_LONG, "list", "the catalogue does not fit its buffer");
    i += len;
    while (keys[i] == ',' || keys[i] == ' ') i++; /* gs_hardware_keys writes "a, b" */
  }
  return GS_OK;
}

/* The request so far resolved; a failure names the step's part. The parts not yet asked
 * take their defaults, so a step's own part is what can fail. */
static int resolve_to(int reached) {
  gs_error err;
  int rc = gs_resolve(&ask, &setting, &err);
  if (rc != GS_OK) return gs_abi_fail(rc, &err);
  step = reached;
  return GS_OK;
}

/* The request from this step on, as a fresh start: the model step clears everything. */
static void clear_from(int reached) {
  if (reached <= 1) {
    memset(&ask, 0, sizeof ask);
    ask.max_n = SWEEP_MAX;
    /* the rules while the parts are checked one by one; plan() takes use_rules()'s */
    ask.assume = GS_ASSUME_LESSON;
  }
  if (reached <= 2) {
    ask.gpu_key = NULL;
    ask.gpu_typed = 0;
  }
  if (reached <= 3) {
    ask.link_key = NULL;
    ask.link_typed = 0;
    ask.log_text = NULL;
  }
  if (reached <= 4) ask.between_key = NULL;
  step = reached - 1;
}

static int need(int reached, const char *field) {
  return step >= reached ? GS_OK : refuse(GS_ERR_UNKNOWN, field, "is not chosen yet");
}

/* A catalogue model by its index in GS_MODELS; bits 0 keeps its stored format (--bits). */
EXPORT int use_model(uint32_t index, double bits) {
  int rc;
  clear_from(1);
  if (index >= GS_MODEL_COUNT) return refuse(GS_ERR_UNKNOWN, "model", "no catalogue model has that index");
  if ((rc = whole(bits, "bits", 32, &ask.bits)) != GS_OK) return rc;
  ask.model_key = GS_MODELS[index].key;
  return resolve_to(1);
}

/* The config.json of len bytes in text_in; bits as use_model's. */
EXPORT int use_config(uint32_t len, double bits) {
  int rc;
  clear_from(1);
  if (len > sizeof text_in) return refuse(GS_ERR_TOO_LONG, "config", "is longer than the module's buffer");
  if ((rc = whole(bits, "bits", 32, &ask.bits)) != GS_OK) return rc;
  memcpy(config_kept, text_in, len);
  ask.model_text = config_kept;
  ask.model_len = len;
  ask.model_label = "config";
  return resolve_to(1);
}

/* The key JavaScript wrote into key_in, kept in to (NUL-terminated within its capacity). */
static const char *key_given(char *to, size_t cap) {
  key_in[sizeof key_in - 1] = '\0';
  gs_format(to, cap, "%s", key_in);
  return to;
}

/* The catalogue GPU whose key or name is in key_in; its record into gpu_*(). */
EXPORT int use_gpu_key(void) {
  int rc;
  clear_from(2);
  if ((rc = need(1, "model")) != GS_OK) return rc;
  ask.gpu_key = key_given(gpu_key, sizeof gpu_key);
  if ((rc = resolve_to(2)) != GS_OK) return rc;
  return put_gpu(&setting);
}

/* A GPU typed figure by figure (arch: enum gs_arch, kept from the GPU it started from).
 * Over the catalogue GPU chosen before, if one, as `report --gpu KEY --gpu-bw ...`: each
 * figure that differs from the catalogue's replaces that figure only, and the GPU keeps its
 * rules (gs_resolve) and the assumptions name what was typed. With none chosen, a GPU of
 * its own, every figure typed. */
EXPORT int use_gpu(double gib, double usable, double bandwidth, double flops, uint32_t arch) {
  const char *started_from = ask.gpu_key;
  gs_hardware_text text;
  gs_gpu sheet;
  gs_error err;
  int rc;
  clear_from(2);
  if ((rc = need(1, "model")) != GS_OK) return rc;
  ask.gpu.gib = gib;
  ask.gpu.usable = usable;
  ask.gpu.bandwidth = bandwidth;
  ask.gpu.flops = flops;
  ask.gpu.arch = arch > GS_ARCH_BLACKWELL ? -1 : (int)arch;
  ask.gpu_typed = GS_TYPED_GIB | GS_TYPED_USABLE | GS_TYPED_GPU_BW | GS_TYPED_FLOPS | GS_TYPED_ARCH;
  if (started_from) {
    if ((rc = gs_builtin_gpu(started_from, &sheet, &text, &err)) != GS_OK) return gs_abi_fail(rc, &err);
    ask.gpu_key = started_from;
    /* != keeps a NaN typed, so the resolver refuses it by name */
    ask.gpu_typed = (gib != sheet.gib ? GS_TYPED_GIB : 0) | (usable != sheet.usable ? GS_TYPED_USABLE : 0) |
                    (bandwidth != sheet.bandwidth ? GS_TYPED_GPU_BW : 0) | (flops != sheet.flops ? GS_TYPED_FLOPS : 0) |
                    (ask.gpu.arch != sheet.arch ? GS_TYPED_ARCH : 0);
  }
  if ((rc = resolve_to(2)) != GS_OK) return rc;
  return put_gpu(&setting);
}

/* The catalogue link whose key or name is in key_in; its record into link_*(). */
EXPORT int use_link_key(void) {
  int rc;
  clear_from(3);
  if ((rc = need(2, "gpu")) != GS_OK) return rc;
  ask.link_key = key_given(link_key, sizeof link_key);
  if ((rc = resolve_to(3)) != GS_OK) return rc;
  return put_link(&setting);
}

/* A link typed figure by figure (kind: enum gs_link_kind), over the catalogue link chosen
 * before, if one: as with a GPU, each figure that differs from the catalogue's replaces that
 * figure only (a bandwidth left as the sheet's keeps real rules' one-way ring figure), and
 * NCCL's own rules are refused only when a typed latency differs. With none chosen, a link
 * of its own, every figure typed. */
EXPORT int use_link(double bandwidth, double step_us, double base_us, uint32_t kind) {
  const char *started_from = ask.link_key; /* the catalogue link it was typed over, if one */
  gs_hardware_text text;
  gs_link sheet;
  gs_error err;
  int rc;
  clear_from(3);
  if ((rc = need(2, "gpu")) != GS_OK) return rc;
  ask.link.bandwidth = bandwidth;
  ask.link.step_us = step_us;
  ask.link.base_us = base_us;
  ask.link.kind = kind > GS_LINK_NET ? -1 : (int)kind;
  ask.link_typed = GS_TYPED_LINK_BW | GS_TYPED_STEP_US | GS_TYPED_BASE_US | GS_TYPED_KIND;
  if (started_from) {
    if ((rc = gs_builtin_link(started_from, &sheet, &text, &err)) != GS_OK) return gs_abi_fail(rc, &err);
    ask.link_key = started_from;
    ask.link_typed = (bandwidth != sheet.bandwidth ? GS_TYPED_LINK_BW : 0) | (step_us != sheet.step_us ? GS_TYPED_STEP_US : 0) |
                     (base_us != sheet.base_us ? GS_TYPED_BASE_US : 0) | (ask.link.kind != sheet.kind ? GS_TYPED_KIND : 0);
  }
  if ((rc = resolve_to(3)) != GS_OK) return rc;
  return put_link(&setting);
}

/* The nccl-tests all_reduce_perf log of len bytes in text_in; plan() prices the link as
 * its fit at the plan's message size (`report --link-from`). Its GPU count into log_*(). A link chosen from the catalogue gives the kind; typed figures beside
 * a log are refused, as the command line refuses them. */
EXPORT int use_log(uint32_t len) {
  int rc;
  if ((rc = need(3, "link")) != GS_OK) return rc;
  if (len > sizeof text_in) return refuse(GS_ERR_TOO_LONG, "log", "is longer than the module's buffer");
  ask.log_text = text_in;
  ask.log_len = len;
  if (ask.link_typed) ask.link_typed = GS_TYPED_KIND;
  if ((rc = resolve_to(3)) != GS_OK) {
    ask.log_text = NULL;
    return rc;
  }
  return put_log(&setting);
}

/* The catalogue link between servers whose key is in key_in (report's --between). */
EXPORT int use_between_key(void) {
  int rc;
  if ((rc = need(3, "link")) != GS_OK) return rc;
  ask.between_key = key_given(between_key, sizeof between_key);
  return resolve_to(4);
}

/* The rules plan() resolves by (use_rules): 0 the lesson's, switch by switch as the page
 * sets them; 1 real hardware's, as `report --assume real` (a cache for each chat read every
 * step, NCCL's rules, servers of the GPU's usual size, the first word of a 1,024-token
 * prompt, and data/efficiency.json's fitted efficiency for the GPU's generation, which
 * gs_resolve applies); 2 as `report` with neither: real for a catalogue GPU, the lesson's for
 * the lesson's GPU or one of its own. And the engine whose fitted figures price under real
 * rules (use_engine, `report --engine`): the key in key_in, "" for none named (every
 * engine's pooled). Both kept until called again. */
static int rules_asked = GS_ASSUME_LESSON;
static char engine_key[24];
EXPORT int use_rules(uint32_t rules) {
  static const int ASSUME[] = {GS_ASSUME_LESSON, GS_ASSUME_REAL, GS_ASSUME_DEFAULT};
  if (rules > 2) return refuse(GS_ERR_RANGE, "rules", "must be 0 (the lesson's), 1 (real hardware's) or 2 (the GPU's own)");
  rules_asked = ASSUME[rules];
  return GS_OK;
}

EXPORT int use_engine(void) {
  char key[sizeof key_in];
  key_given(key, sizeof key);
  if (strlen(key) >= sizeof engine_key) return refuse(GS_ERR_TOO_LONG, "engine", "no engine has so long a name");
  gs_format(engine_key, sizeof engine_key, "%s", key);
  return GS_OK;
}

/* The plan past the GPU count: split (enum gs_split), chats at once, GPUs a server (0: one
 * server), tokens and bits of a chat's cache (0: the lesson's 8,192 and 16), and switches
 * (enum gs_switch). The priced link's record into link_*(), the message into planned_*()
 * and the rules that hold into rules_*() (GS_RULES_RECORD). Call after use_between_key(). */
EXPORT int plan(uint32_t split, double words, double per_server, double chat_tokens, double cache_bits, uint32_t switches) {
  int rc;
  if ((rc = need(4, "between")) != GS_OK) return rc;
  if ((rc = whole(words, "words", GS_MAX_WORDS, &ask.words)) != GS_OK ||
      (rc = whole(per_server, "per_server", GS_MAX_GPUS, &ask.per_server)) != GS_OK ||
      (rc = whole(chat_tokens, "chat_tokens", GS_MAX_CHAT_TOKENS, &ask.chat_tokens)) != GS_OK ||
      (rc = whole(cache_bits, "cache_bits", 32, &ask.cache_bits)) != GS_OK)
    return rc;
  if (ask.words == 0) return refuse(GS_ERR_RANGE, "words", "must be a whole number from 1 to 1048576");
  ask.split = (int)split;
  ask.switches = switches;
  ask.assume = rules_asked;
  ask.engine = NULL;
  if ((rc = resolve_to(5)) != GS_OK) return rc;
  /* an engine named prices under real rules only: the lesson's keep the peaks, so that
   * switching rules shows the lesson's figures */
  if (engine_key[0] && setting.real) {
    ask.engine = engine_key;
    step = 4;
    if ((rc = resolve_to(5)) != GS_OK) return rc;
  }
  rules_held.setting = &setting;
  rules_held.engine = ask.engine ? ask.engine : "";
  if ((rc = put_link(&setting)) != GS_OK || (rc = put_planned(&setting)) != GS_OK) return rc;
  return put_rules(&rules_held);
}

/* Every figure of n GPUs, as `report` prints its row (csrc/cli/cli_report.c). */
EXPORT int price(uint32_t n) {
  gs_priced r;
  gs_error err;
  int rc;
  if ((rc = need(5, "plan")) != GS_OK) return rc;
  if ((rc = gs_price(&setting, n, &r, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  return gs_abi_put_setting(&r);
}

/* Every count from 1 to SWEEP_MAX priced once (gs_sweep_run): the chart over the counts
 * the plan can take (with divide heads, those that divide the heads), and into
 * summary_f64() the record of GS_SWEPT_FIELDS: the chart's rows, the fewest and the best
 * counts (0: none), as `report` finds them. */
EXPORT int sweep(void) {
  static gs_sweep_row rows[SWEEP_MAX];
  static gs_chart_row chart[SWEEP_MAX];
  uint64_t counts[SWEEP_MAX];
  gs_sweep found;
  gs_abi_swept said;
  const gs_abi_swept *r = &said;
  size_t count_n = 0, i;
  gs_error err;
  int rc;
  if ((rc = need(5, "plan")) != GS_OK) return rc;
  if ((rc = gs_sweep_run(&setting, rows, SWEEP_MAX, &found, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  for (i = 0; i < found.count; i++)
    if (rows[i].allowed) counts[count_n++] = rows[i].gpus;
  if ((rc = gs_chart_of(rows, found.count, counts, count_n, chart, SWEEP_MAX, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  if ((rc = gs_abi_put_chart(chart, count_n)) != GS_OK) return rc;
  said.count = count_n;
  said.fewest = found.fewest;
  said.best = found.best;
  GS_ABI_PUT_SUMMARY(GS_SWEPT_FIELDS, r);
  return GS_OK;
}

/* The sums of n GPUs with the numbers put in (`report --explain --gpus n`). */
EXPORT int explain(uint32_t n) {
  gs_priced r;
  gs_error err;
  int rc;
  if ((rc = need(5, "plan")) != GS_OK) return rc;
  if ((rc = gs_price(&setting, n, &r, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  return gs_abi_put_explain(&r);
}

/* ---- The plan's frontier (gs_plan_search, csrc/core/plan.c; `gpusplit plan`) ----
 * frontier() searches every layout within gpus_max GPUs of the setting's model and machine
 * and charts it (gs_plan_chart_of, csrc/emit/plan_chart.c): each point into frontier_f64()
 * and frontier_text() as GS_FRONTIER_FIELDS lists it (web/src/fields.js names them), then
 * two strings: the reason when no layout meets the targets or none fits, and which counts
 * were searched past GS_PLAN_EVERY_COUNT ("" when every count up to the budget was). The
 * axes' ticks, across then up, into ticks_f64() and ticks_text() (GS_TICK_FIELDS).
 * summary_f64(): the record of GS_CHARTED_FIELDS (csrc/core/fields.h). layout(i) prices point i into the setting's buffers
 * and its sums into explain_buffer(). */
int frontier(double gpus_max, double target_word_ms, double target_first_ms);
int layout(uint32_t i);
double *frontier_f64(void);
char *frontier_text(void);
double *ticks_f64(void);
char *ticks_text(void);

enum {
  FRONTIER_F64 = 0 GS_FRONTIER_FIELDS(GS_COUNT_F64),
  FRONTIER_TEXT = 0 GS_FRONTIER_FIELDS(GS_COUNT_TEXT),
  TICK_F64 = 0 GS_TICK_FIELDS(GS_COUNT_F64),
  TICK_TEXT = 0 GS_TICK_FIELDS(GS_COUNT_TEXT)
};
_Static_assert((0 GS_FRONTIER_FIELDS(GS_COUNT_U64)) == 0 && (0 GS_TICK_FIELDS(GS_COUNT_U64)) == 0,
               "the frontier's figures travel as doubles and text");
static gs_plan_result plan_found;
static gs_plan_chart plan_chart;
static double frontier_numbers[(GS_PLAN_MAX_POINTS + 1) * FRONTIER_F64];
/* a point's strings are at most its struct's (its texts and two names), then why and searched */
static char frontier_strings[(GS_PLAN_MAX_POINTS + 1) * sizeof(gs_chart_point) + 512 + GS_PLAN_SEARCHED_CAP];
static double tick_numbers[2 * GS_CHART_TICKS * TICK_F64];
static char tick_strings[2 * GS_CHART_TICKS * TICK_TEXT * GS_FIGURE_CAP];

EXPORT double *frontier_f64(void) { return frontier_numbers; }
EXPORT char *frontier_text(void) { return frontier_strings; }
EXPORT double *ticks_f64(void) { return tick_numbers; }
EXPORT char *ticks_text(void) { return tick_strings; }

static const gs_layout *point_at(uint32_t i) {
  if (i < plan_found.count) return &plan_found.points[i];
  return i == plan_found.count && plan_found.has_choice ? &plan_found.choice : NULL;
}

static int same_layout(const gs_layout *a, const gs_layout *b) {
  return a->gpus == b->gpus && a->split == b->split && a->experts == b->experts && a->words == b->words &&
         a->in_flight == b->in_flight;
}

/* The chart's points, the search's two sentences and the axes' ticks into their buffers. */
static int put_chart(void) {
  gs_abi_packer points = {NULL, frontier_numbers, frontier_strings, sizeof frontier_strings, 0, 0, 0, 0};
  gs_abi_packer ticks = {NULL, tick_numbers, tick_strings, sizeof tick_strings, 0, 0, 0, 0};
  gs_abi_packer *pk = &points;
  static char searched[GS_PLAN_SEARCHED_CAP];
  size_t i;
  frontier_strings[0] = '\0';
  for (i = 0; i < plan_chart.count; i++) {
    const gs_chart_point *r = &plan_chart.points[i];
    GS_FRONTIER_FIELDS(GS_ABI_PACK)
  }
  gs_abi_pack_text(pk, plan_found.why);
  gs_abi_pack_text(pk, gs_plan_searched(&plan_found, searched, sizeof searched));
  pk = &ticks;
  for (i = 0; i < plan_chart.x_n + plan_chart.y_n; i++) {
    const gs_chart_tick *r = i < plan_chart.x_n ? &plan_chart.x_ticks[i] : &plan_chart.y_ticks[i - plan_chart.x_n];
    GS_TICK_FIELDS(GS_ABI_PACK)
  }
  return points.full || ticks.full ? refuse(GS_ERR_TOO_LONG, "frontier", "the frontier's text does not fit its buffer") : GS_OK;
}

EXPORT int frontier(double gpus_max, double target_word_ms, double target_first_ms) {
  gs_plan_ask a;
  gs_error err;
  uint32_t i;
  int rc, chosen = -1;
  if ((rc = need(5, "plan")) != GS_OK) return rc;
  memset(&a, 0, sizeof a);
  if (!(gpus_max >= 1) || gpus_max > (double)GS_MAX_GPUS || gpus_max != (double)(uint64_t)gpus_max)
    return gs_abi_fail(gs_fail(&err, GS_ERR_RANGE, "gpus_max", "must be a whole number from 1 to %llu", (unsigned long long)GS_MAX_GPUS), &err);
  if (!(target_word_ms >= 0 && target_word_ms <= 86400e3) || !(target_first_ms >= 0 && target_first_ms <= 86400e3))
    return refuse(GS_ERR_RANGE, "target", "must be a time in ms from 0 (none) to 86400000");
  a.gpus_max = (uint64_t)gpus_max;
  a.target_word_s = target_word_ms / 1e3;
  a.target_first_s = target_first_ms / 1e3;
  if ((rc = gs_plan_search(&setting, &a, &plan_found, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  for (i = 0; i < plan_found.count; i++)
    if (plan_found.has_choice && same_layout(&plan_found.points[i], &plan_found.choice)) chosen = (int)i;
  if (plan_found.has_choice && chosen < 0) chosen = (int)plan_found.count;
  if ((rc = gs_plan_chart_of(&setting, &plan_found, chosen == (int)plan_found.count ? &plan_found.choice : NULL, &plan_chart, &err)) != GS_OK)
    return gs_abi_fail(rc, &err);
  if ((rc = put_chart()) != GS_OK) return rc;
  {
    gs_abi_charted charted = {&plan_found, &plan_chart, chosen, a.target_word_s > 0 || a.target_first_s > 0, 0}, *r = &charted;
    if (plan_found.count == 0 && a.gpus_max < GS_MAX_GPUS) charted.fewest = gs_plan_fewest_allowed(&setting, a.gpus_max + 1, GS_MAX_GPUS);
    GS_ABI_PUT_SUMMARY(GS_CHARTED_FIELDS, r);
  }
  return GS_OK;
}

/* Point i of the last frontier (or the choice, just after the points) priced again: its
 * figures into the setting's buffers and its sums into explain_buffer(). */
EXPORT int layout(uint32_t i) {
  static gs_setting scratch;
  const gs_layout *l = point_at(i);
  gs_priced r;
  gs_error err;
  int rc;
  if (!l) return refuse(GS_ERR_RANGE, "layout", "no such point on the frontier");
  if ((rc = gs_layout_price(&setting, l, &scratch, &r, &err)) != GS_OK) return gs_abi_fail(rc, &err);
  if ((rc = gs_abi_put_setting(&r)) != GS_OK) return rc;
  return gs_abi_put_explain(&r);
}
