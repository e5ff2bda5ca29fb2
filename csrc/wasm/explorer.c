/* The explorer's WebAssembly module (web/explorer.html): every catalogue model, GPU and
 * link, a pasted config.json or nccl-tests log, and the settings of `gpusplit report`.
 * Like csrc/wasm/lesson.c it has no Emscripten glue and no imports: numbers cross as plain
 * arguments and through the static buffers below, whose layouts are listed beside each
 * and read in the same order by web/src/explorer_module.js. Every export returns GS_OK or
 * a negative gs_status; after a failure error_buffer() holds one line, "<field>: <what>".
 *
 * The settings are kept here, in the order the command line applies them
 * (csrc/cli_options.c, cli_report_parse): the model (with --bits), the GPU, the link, the
 * link between servers, then plan(), which checks the plan and, when a log was pasted,
 * fits the link to it at the plan's message size, as --link-from does. */
#include <string.h>

#include "internal.h"

#define EXPORT __attribute__((used, visibility("default")))

/* The exports; only JavaScript calls them, so they have no header. */
char *text_in_buffer(void);
uint32_t text_in_capacity(void);
char *key_in_buffer(void);
uint32_t key_in_capacity(void);
char *list_buffer(void);
char *text_buffer(void);
double *numbers_buffer(void);
double *chart_buffer(void);
char *chart_text_buffer(void);
char *explain_buffer(void);
char *error_buffer(void);
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
int plan(uint32_t split, double words, double per_server, double chat_tokens, double cache_bits, uint32_t switches);
int price(uint32_t n);
int sweep(void);
int explain(uint32_t n);

/* The counts the sweep tries, as `report --max-n` defaults to (csrc/cli_options.c). */
#define SWEEP_MAX 64

/* Filled by JavaScript: a config.json or an nccl-tests log (which the reader bounds at
 * GS_MEASURED_MAX_BYTES), and a catalogue key. */
static char text_in[GS_MEASURED_MAX_BYTES];
static char key_in[64];

/* The settings so far; each step clears the ones after it. */
static gs_model model;
static gs_gpu gpu;
static gs_link link_set;  /* the link as chosen or typed */
static gs_link link_now;  /* the link priced: link_set, or the log's fit */
static gs_link link_sheet; /* the catalogue's link the typed one started from */
static gs_fit fit;        /* the pasted log's fit, when fitted is 1 */
static gs_plan options;   /* every field but gpus */
static int have_model, have_gpu, have_link, fitted, have_plan;
static int divide_heads;

/* list(): lines "key\tname\n", one an entry */
static char list_text[8192];
/* price(): memory, weights, cache, working, usable, time, read, transfer, waiting,
 * words_per_s, all words_per_s, protocol ("" when none), each ending in a NUL.
 * plan(): the priced link's name. */
static char out_text[1024];
_Static_assert(sizeof out_text >= (GS_VIEW_PACKED + 2) * GS_FIGURE_CAP, "price() packs the view and two more");
/* use_gpu_key(): gib, usable, bandwidth, flops, arch. use_link_key(): bandwidth, step_us,
 * base_us, kind. use_log(): gpus. plan(): the priced link's bandwidth, step_us, base_us,
 * message bytes. price(): fits, mem_bar, wait_bar, servers, total seconds.
 * sweep(): rows, fewest (0: none), best (0: none). */
static double out_numbers[8];
/* sweep(): per count the plan can take, gpus, fits, read_bar, wait_bar, total seconds;
 * the time strings follow in out_chart_text, each ending in a NUL. */
static double out_chart[5 * SWEEP_MAX];
static char out_chart_text[SWEEP_MAX * GS_FIGURE_CAP];
static char explain_text[GS_EXPLAIN_CAP];
static char error_text[640];

static int fail(int rc, const gs_error *err) {
  if (err) gs_format(error_text, sizeof error_text, "%s%s%s", err->field, err->field[0] ? ": " : "", err->what);
  else gs_format(error_text, sizeof error_text, "status %d", rc);
  return rc;
}

static int refuse(int rc, const char *field, const char *what) {
  gs_error err;
  return fail(gs_fail(&err, rc, field, "%s", what), &err);
}

EXPORT char *text_in_buffer(void) { return text_in; }
EXPORT uint32_t text_in_capacity(void) { return sizeof text_in; }
EXPORT char *key_in_buffer(void) { return key_in; }
EXPORT uint32_t key_in_capacity(void) { return sizeof key_in; }
EXPORT char *list_buffer(void) { return list_text; }
EXPORT char *text_buffer(void) { return out_text; }
EXPORT double *numbers_buffer(void) { return out_numbers; }
EXPORT double *chart_buffer(void) { return out_chart; }
EXPORT char *chart_text_buffer(void) { return out_chart_text; }
EXPORT char *explain_buffer(void) { return explain_text; }
EXPORT char *error_buffer(void) { return error_text; }
EXPORT uint32_t max_gpus(void) { return SWEEP_MAX; }

/* A whole number from JavaScript's double: finite, whole, from 0 to max. */
static int whole(double x, const char *field, uint64_t max, uint64_t *out) {
  gs_error err;
  if (!(x >= 0) || x > (double)max || x != (double)(uint64_t)x)
    return fail(gs_fail(&err, GS_ERR_RANGE, field, "must be a whole number from 0 to %llu", (unsigned long long)max), &err);
  *out = (uint64_t)x;
  return GS_OK;
}

/* The key JavaScript wrote into key_in, NUL-terminated within its capacity. */
static const char *key_given(void) {
  key_in[sizeof key_in - 1] = '\0';
  return key_in;
}

/* Appends "key\tname\n" to list_text at *at; 0 when it does not fit. */
static int put_line(size_t *at, const char *key, const char *name) {
  size_t need = strlen(key) + strlen(name) + 2;
  if (*at + need >= sizeof list_text) return 0;
  gs_format(list_text + *at, sizeof list_text - *at, "%s\t%s\n", key, name);
  *at += need;
  return 1;
}

/* The catalogue (what: 0 models, 1 GPUs, 2 links) into list_buffer(), in data/'s order. */
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
  if (what > 2) return refuse(GS_ERR_UNKNOWN, "list", "must be 0 (models), 1 (GPUs) or 2 (links)");
  if ((rc = gs_builtin_keys(array, keys, sizeof keys, &err)) != GS_OK) return fail(rc, &err);
  for (i = 0; keys[i];) {
    gs_hardware_text text;
    size_t len = strcspn(keys + i, ",");
    char key[sizeof text.key];
    gs_gpu g;
    gs_link l;
    gs_format(key, sizeof key, "%s", keys + i);
    if (len < sizeof key) key[len] = '\0';
    rc = what == 1 ? gs_builtin_gpu(key, &g, &text, &err) : gs_builtin_link(key, &l, &text, &err);
    if (rc != GS_OK) return fail(rc, &err);
    if (!put_line(&at, text.key, text.name)) return refuse(GS_ERR_TOO_LONG, "list", "the catalogue does not fit its buffer");
    i += len;
    while (keys[i] == ',' || keys[i] == ' ') i++; /* gs_hardware_keys writes "a, b" */
  }
  return GS_OK;
}

/* Every step below starts the settings after it afresh. */
static void reset_from_model(void) { have_model = have_gpu = have_link = fitted = have_plan = 0; }

/* A catalogue model by its index in GS_MODELS; bits 0 keeps its stored format (--bits). */
EXPORT int use_model(uint32_t index, double bits) {
  uint64_t b;
  gs_error err;
  int rc;
  reset_from_model();
  if (index >= GS_MODEL_COUNT) return refuse(GS_ERR_UNKNOWN, "model", "no catalogue model has that index");
  if ((rc = whole(bits, "bits", 32, &b)) != GS_OK) return rc;
  if ((rc = gs_builtin_model(GS_MODELS[index].key, b, &model, &err)) != GS_OK) return fail(rc, &err);
  have_model = 1;
  return GS_OK;
}

/* The config.json of len bytes in text_in; bits as use_model's. */
EXPORT int use_config(uint32_t len, double bits) {
  uint64_t b;
  gs_error err;
  int rc;
  reset_from_model();
  if (len > sizeof text_in) return refuse(GS_ERR_TOO_LONG, "config", "is longer than the module's buffer");
  if ((rc = whole(bits, "bits", 32, &b)) != GS_OK) return rc;
  /* the command line refuses a NUL byte the same way (csrc/cli_options.c, load_model) */
  if (memchr(text_in, '\0', len)) return refuse(GS_ERR_JSON, "config", "is not valid JSON: it holds a NUL byte");
  if ((rc = gs_model_parse(text_in, len, b, &model, &err)) != GS_OK) return fail(rc, &err);
  have_model = 1;
  return GS_OK;
}

static void put_gpu(void) {
  out_numbers[0] = gpu.gib;
  out_numbers[1] = gpu.usable;
  out_numbers[2] = gpu.bandwidth;
  out_numbers[3] = gpu.flops;
  out_numbers[4] = gpu.arch;
}

/* The catalogue GPU whose key or name is in key_in; its figures into numbers_buffer(). */
EXPORT int use_gpu_key(void) {
  gs_error err;
  int rc;
  have_gpu = have_link = fitted = have_plan = 0;
  if (!have_model) return refuse(GS_ERR_UNKNOWN, "model", "none is loaded");
  if ((rc = gs_builtin_gpu(key_given(), &gpu, NULL, &err)) != GS_OK) return fail(rc, &err);
  put_gpu();
  have_gpu = 1;
  return GS_OK;
}

/* A GPU typed figure by figure (arch: enum gs_arch, kept from the GPU it started from). */
EXPORT int use_gpu(double gib, double usable, double bandwidth, double flops, uint32_t arch) {
  gs_error err;
  int rc;
  have_gpu = have_link = fitted = have_plan = 0;
  if (!have_model) return refuse(GS_ERR_UNKNOWN, "model", "none is loaded");
  if (arch > GS_ARCH_BLACKWELL) return refuse(GS_ERR_RANGE, "gpu arch", "must be an enum gs_arch");
  gpu.gib = gib;
  gpu.usable = usable;
  gpu.bandwidth = bandwidth;
  gpu.flops = flops;
  gpu.arch = (int)arch;
  if ((rc = gs_gpu_check(&gpu, &err)) != GS_OK) return fail(rc, &err);
  put_gpu();
  have_gpu = 1;
  return GS_OK;
}

static void put_link(const gs_link *l) {
  out_numbers[0] = l->bandwidth;
  out_numbers[1] = l->step_us;
  out_numbers[2] = l->base_us;
  out_numbers[3] = l->kind;
}

/* The catalogue link whose key or name is in key_in; its figures into numbers_buffer(). */
EXPORT int use_link_key(void) {
  gs_error err;
  int rc;
  have_link = fitted = have_plan = 0;
  if (!have_gpu) return refuse(GS_ERR_UNKNOWN, "gpu", "none is chosen");
  if ((rc = gs_builtin_link(key_given(), &link_set, NULL, &err)) != GS_OK) return fail(rc, &err);
  link_sheet = link_set;
  put_link(&link_set);
  have_link = 1;
  return GS_OK;
}

/* A link typed figure by figure (kind: enum gs_link_kind). */
EXPORT int use_link(double bandwidth, double step_us, double base_us, uint32_t kind) {
  gs_error err;
  int rc;
  have_link = fitted = have_plan = 0;
  if (!have_gpu) return refuse(GS_ERR_UNKNOWN, "gpu", "none is chosen");
  if (kind > GS_LINK_NET) return refuse(GS_ERR_RANGE, "link kind", "must be nvlink, pci or net");
  link_set.bandwidth = bandwidth;
  link_set.step_us = step_us;
  link_set.base_us = base_us;
  link_set.kind = (int)kind;
  link_set.step_us += 0.0; /* -0 typed is 0: IEEE 754's -0 + +0 is +0 */
  link_set.base_us += 0.0;
  if ((rc = gs_link_check(&link_set, &err)) != GS_OK) return fail(rc, &err);
  put_link(&link_set);
  have_link = 1;
  return GS_OK;
}

/* The nccl-tests all_reduce_perf log of len bytes in text_in, fitted (`gpusplit
 * calibrate`); plan() then prices the link as the fit's regime at the plan's message size,
 * of the kind of the link chosen before, as `report --link-from` does. Its GPU count into
 * numbers_buffer(). */
EXPORT int use_log(uint32_t len) {
  static gs_measured measured; /* about 4 KiB: kept off the 256 KiB stack */
  gs_error err;
  int rc;
  fitted = have_plan = 0;
  if (!have_link) return refuse(GS_ERR_UNKNOWN, "link", "none is chosen");
  if (len > sizeof text_in) return refuse(GS_ERR_TOO_LONG, "log", "is longer than the module's buffer");
  if ((rc = gs_nccl_log_parse(text_in, len, &measured, &err)) != GS_OK || (rc = gs_fit_measured(&measured, &fit, &err)) != GS_OK)
    return fail(rc, &err);
  out_numbers[0] = (double)fit.gpus;
  fitted = 1;
  return GS_OK;
}

/* The catalogue link between servers whose key is in key_in (report's --between). */
EXPORT int use_between_key(void) {
  gs_error err;
  int rc;
  have_plan = 0;
  memset(&options, 0, sizeof options);
  if (!have_link) return refuse(GS_ERR_UNKNOWN, "link", "none is chosen");
  if ((rc = gs_builtin_link(key_given(), &options.between, NULL, &err)) != GS_OK) {
    gs_error inner = err;
    return fail(gs_fail(&err, rc, "between", "%s", inner.what), &err);
  }
  return GS_OK;
}

/* The plan past the GPU count: split (enum gs_split), chats at once, GPUs a server (0: one
 * server), tokens and bits of a chat's cache (0: the lesson's 8,192 and 16), and switches (1 a cache per chat, 2 overlap,
 * 4 read the cache, 8 divide the heads, 16 NCCL's own protocols). Checked as the command
 * line checks them, for one GPU. The priced link's figures, its message size and its name
 * into numbers_buffer() and text_buffer(). Call after use_between_key(). */
EXPORT int plan(uint32_t split, double words, double per_server, double chat_tokens, double cache_bits, uint32_t switches) {
  gs_plan p;
  gs_error err;
  int rc;
  have_plan = 0;
  if (!have_link) return refuse(GS_ERR_UNKNOWN, "link", "none is chosen");
  if ((rc = whole(words, "words", GS_MAX_WORDS, &options.words)) != GS_OK ||
      (rc = whole(per_server, "per_server", GS_MAX_GPUS, &options.per_server)) != GS_OK ||
      (rc = whole(chat_tokens, "chat_tokens", GS_MAX_CHAT_TOKENS, &options.chat_tokens)) != GS_OK ||
      (rc = whole(cache_bits, "cache_bits", 32, &options.cache_bits)) != GS_OK)
    return rc;
  options.split = (int)split;
  options.cache_per_chat = (switches & 1) != 0;
  options.overlap = (switches & 2) != 0;
  options.read_cache = (switches & 4) != 0;
  divide_heads = (switches & 8) != 0;
  options.nccl = switches & 16 ? GS_NCCL_AUTO : GS_NCCL_LESSON;
  if (options.nccl == GS_NCCL_AUTO && gpu.arch == GS_ARCH_NONE)
    return refuse(GS_ERR_UNSUPPORTED, "nccl", "auto needs an NVIDIA GPU of a generation NCCL's tables name (this GPU runs RCCL or is typed)");
  /* NCCL's own rules price a ring's all-reduce with NCCL's latencies, so a fit or typed
   * latencies would go unused: refused, as report refuses --nccl auto with --link-from,
   * --step-us or --base-us (cli_options.c). The page cannot tell a latency typed equal to
   * the catalogue's from one left as it started, and prices both the same. */
  if (options.nccl == GS_NCCL_AUTO && options.split != GS_GROUPS &&
      (fitted || link_set.step_us != link_sheet.step_us || link_set.base_us != link_sheet.base_us))
    return refuse(GS_ERR_UNSUPPORTED, "nccl", fitted ? "auto prices each all-reduce with NCCL's own latencies, so the pasted log's fit would go unused; clear the log or NCCL's rules"
                                                     : "auto prices each all-reduce with NCCL's own latencies, so the typed step and base latencies would go unused; type the catalogue's or clear NCCL's rules");
  p = options;
  p.gpus = 1;
  if ((rc = gs_plan_check(&model, &p, &err)) != GS_OK) return fail(rc, &err);
  link_now = link_set;
  if (fitted && (rc = gs_fit_link(&fit, gs_message_bytes(&model) * options.words, link_set.kind, &link_now, &err)) != GS_OK) {
    gs_error inner = err;
    return fail(gs_fail(&err, rc, "log", "%s", inner.what), &err);
  }
  /* the start-up is paid once an all-reduce, whichever links it crosses (cli_options.c) */
  options.between.base_us = link_now.base_us;
  out_numbers[0] = link_now.bandwidth;
  out_numbers[1] = link_now.step_us;
  out_numbers[2] = link_now.base_us;
  out_numbers[3] = (double)(gs_message_bytes(&model) * options.words);
  have_plan = 1;
  return GS_OK;
}

static gs_plan plan_for(uint32_t n) {
  gs_plan p = options;
  p.gpus = n;
  return p;
}

static size_t put_text(size_t at, const char *s) { return gs_pack_text(out_text, sizeof out_text, at, s); }

/* Every figure of n GPUs, as `report` prints its row (csrc/cli_report.c, print_table). */
EXPORT int price(uint32_t n) {
  gs_cost_result c;
  gs_view v;
  gs_plan p = plan_for(n);
  char all[GS_FIGURE_CAP];
  size_t at = 0;
  gs_error err;
  int rc;
  if (!have_plan) return refuse(GS_ERR_UNKNOWN, "plan", "none is set");
  if ((rc = gs_cost(&model, &gpu, &link_now, &p, &c, &err)) != GS_OK || (rc = gs_view_make(&model, &gpu, &link_now, &p, &v, &err)) != GS_OK)
    return fail(rc, &err);
  if (v.fits) gs_fixed_grouped(all, sizeof all, c.time.total_words_per_s, 1);
  else all[0] = '\0';
  at = gs_view_pack(&v, out_text, sizeof out_text, at);
  at = put_text(at, all);
  put_text(at, v.fits && c.protocol != GS_PROTO_NONE && options.nccl == GS_NCCL_AUTO ? gs_protocol_name(c.protocol) : "");
  out_numbers[0] = v.fits;
  out_numbers[1] = v.mem_bar;
  out_numbers[2] = v.wait_bar;
  out_numbers[3] = (double)c.servers;
  out_numbers[4] = c.time.total;
  return GS_OK;
}

/* The fewest counts that fit; with divide_heads, among those that divide the heads
 * (csrc/cli_report.c, fewest). 0 when none up to SWEEP_MAX does. */
static int fewest_count(uint64_t *out) {
  gs_plan p = plan_for(1);
  int rc;
  *out = 0;
  rc = gs_fewest_n(&model, &gpu, &p, SWEEP_MAX, divide_heads, out);
  return rc == GS_ERR_NONE_FITS ? GS_OK : rc;
}

/* Every count from 1 to SWEEP_MAX the plan can take (with divide_heads, those that divide
 * the heads): its bars and time as the chart draws them (gs_chart_make) and its total,
 * with the fewest and the best counts, as `report` finds them. */
EXPORT int sweep(void) {
  static gs_chart_row rows[SWEEP_MAX];
  uint64_t counts[SWEEP_MAX], fewest = 0, best = 0;
  size_t count_n = 0, i, at = 0;
  gs_error err;
  int rc;
  if (!have_plan) return refuse(GS_ERR_UNKNOWN, "plan", "none is set");
  for (i = 1; i <= SWEEP_MAX; i++) {
    gs_plan p = plan_for((uint32_t)i);
    if (divide_heads && model.heads % i != 0) continue;
    rc = gs_plan_check(&model, &p, &err);
    if (rc == GS_ERR_SHAPE) continue; /* slices-groups that do not fill whole servers */
    if (rc != GS_OK) return fail(rc, &err);
    counts[count_n++] = i;
  }
  if (count_n && (rc = gs_chart_make(&model, &gpu, &link_now, &options, counts, count_n, rows, &err)) != GS_OK) return fail(rc, &err);
  for (i = 0; i < count_n; i++) {
    gs_cost_result c;
    gs_plan p = plan_for((uint32_t)counts[i]);
    if ((rc = gs_cost(&model, &gpu, &link_now, &p, &c, &err)) != GS_OK) return fail(rc, &err);
    out_chart[5 * i] = (double)rows[i].gpus;
    out_chart[5 * i + 1] = rows[i].fits;
    out_chart[5 * i + 2] = rows[i].read_bar;
    out_chart[5 * i + 3] = rows[i].wait_bar;
    out_chart[5 * i + 4] = c.time.total;
    at = gs_pack_text(out_chart_text, sizeof out_chart_text, at, rows[i].time);
  }
  if ((rc = fewest_count(&fewest)) != GS_OK) return fail(rc, NULL);
  {
    gs_plan p = plan_for(1);
    rc = gs_best_n(&model, &gpu, &link_now, &p, SWEEP_MAX, divide_heads, &best);
    if (rc == GS_ERR_NONE_FITS) best = 0;
    else if (rc != GS_OK) return fail(rc, NULL);
  }
  out_numbers[0] = (double)count_n;
  out_numbers[1] = (double)fewest;
  out_numbers[2] = (double)best;
  return GS_OK;
}

/* The sums of n GPUs with the numbers put in (`report --explain --gpus n`). */
EXPORT int explain(uint32_t n) {
  gs_plan p = plan_for(n);
  gs_error err;
  int rc;
  if (!have_plan) return refuse(GS_ERR_UNKNOWN, "plan", "none is set");
  if ((rc = gs_explain(&model, &gpu, &link_now, &p, explain_text, sizeof explain_text, &err)) != GS_OK) return fail(rc, &err);
  return GS_OK;
}
