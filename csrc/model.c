/* The cost model: memory per GPU, read, compute and all-reduce times, best GPU counts.
 * Pure arithmetic after the lesson's gpu_split.py. Each floating-point expression keeps
 * the reference code's order of operations, so results agree with it bit for bit (and
 * the native build with the WebAssembly one: only + - * / on IEEE doubles, no libm). */
#include <math.h>
#include <string.h>

#include "internal.h"

const uint64_t GS_GIB = 1073741824u;
const uint64_t GS_ALL_REDUCES_PER_LAYER = 2; /* Megatron-LM (arXiv 1909.08053): after attention and after the feed-forward block */
const uint64_t GS_CHAT_TOKENS = 8192;        /* lesson 18: the chat whose attention cache must fit */
const uint64_t GS_MAX_GPUS = 65536;          /* a bound that keeps every count exact in a double and best-count searches short */
const uint64_t GS_MAX_WORDS = 1048576;       /* likewise for words at once */

static const uint64_t WORD_BYTES = 2;         /* a number in a word's hidden vector takes 16 bits */
static const uint64_t WEIGHT_BYTES = 2;       /* weights at 16 bits */
static const uint64_t CACHE_VALUE_BYTES = 2;  /* lesson 18: the attention cache keeps 16-bit numbers */
static const uint64_t ACTIVATION_TOKENS = 2048; /* lesson 18's working-memory estimate */
static const uint64_t OVERHEAD_GIB = 1;       /* lesson 18's allowance */

/* Checked versions of the byte counts below: each returns 0 on overflow. */
static int checked_params(const gs_shape *s, uint64_t *out) {
  uint64_t h = s->hidden, kv_width, hh, a, b, c, per_layer, tables, layers_total;
  if (!gs_mul(s->kv_heads, s->head_dim, &kv_width)) return 0;
  if (!gs_mul(h, h, &hh) || !gs_mul(2, hh, &a)) return 0;
  if (!gs_mul(2 * h, kv_width, &b) || !gs_mul(3 * h, s->intermediate, &c)) return 0;
  if (!gs_add(a, b, &per_layer) || !gs_add(per_layer, c, &per_layer) || !gs_add(per_layer, 2 * h, &per_layer)) return 0;
  if (!gs_mul(s->vocab, h, &tables) || !gs_mul(tables, s->tied ? 1 : 2, &tables)) return 0;
  if (!gs_mul(s->layers, per_layer, &layers_total)) return 0;
  return gs_add(layers_total, tables, out) && gs_add(*out, h, out);
}

/* Checks what the rest of the model takes for granted: every count at least 1, key/value
 * heads that divide the attention heads, and every byte total of one GPU's memory (at
 * any count) within 64 bits. The bound on single fields keeps 2h and 3h from wrapping. */
int gs_shape_check(const gs_shape *s, gs_error *err) {
  const struct { const char *name; uint64_t value; } fields[] = {
      {"hidden_size", s->hidden},       {"intermediate_size", s->intermediate},
      {"num_hidden_layers", s->layers}, {"num_attention_heads", s->heads},
      {"num_key_value_heads", s->kv_heads}, {"head_dim", s->head_dim},
      {"vocab_size", s->vocab}};
  uint64_t params, weights, cache, act, working, total;
  size_t i;
  for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if (fields[i].value < 1) return gs_fail(err, GS_ERR_RANGE, fields[i].name, "must be at least 1");
    if (fields[i].value > (UINT64_C(1) << 53))
      return gs_fail(err, GS_ERR_OVERFLOW, fields[i].name, "is too large: the model's byte totals would overflow 64 bits");
  }
  if (s->heads % s->kv_heads != 0)
    return gs_fail(err, GS_ERR_SHAPE, "num_key_value_heads", "%llu does not divide num_attention_heads %llu",
                   (unsigned long long)s->kv_heads, (unsigned long long)s->heads);
  if (!checked_params(s, &params) || !gs_mul(params, WEIGHT_BYTES, &weights))
    return gs_fail(err, GS_ERR_OVERFLOW, "shape", "the weight count would overflow 64 bits");
  if (!gs_mul(2 * CACHE_VALUE_BYTES, s->layers, &cache) || !gs_mul(cache, s->kv_heads, &cache) ||
      !gs_mul(cache, s->head_dim, &cache) || !gs_mul(cache, GS_CHAT_TOKENS, &cache))
    return gs_fail(err, GS_ERR_OVERFLOW, "shape", "the attention cache's bytes would overflow 64 bits");
  if (!gs_mul(3, s->intermediate, &act) || !gs_add(act, 4 * s->hidden, &act) ||
      !gs_mul(act, ACTIVATION_TOKENS * 2, &act) || !gs_add(act, OVERHEAD_GIB * GS_GIB, &working))
    return gs_fail(err, GS_ERR_OVERFLOW, "shape", "the working memory's bytes would overflow 64 bits");
  if (!gs_add(weights, cache, &total) || !gs_add(total, working, &total))
    return gs_fail(err, GS_ERR_OVERFLOW, "shape", "the memory per GPU would overflow 64 bits");
  return GS_OK;
}

/* Words at once multiply the message and the operations; both must stay within 64 bits. */
int gs_words_check(const gs_shape *s, uint64_t words, gs_error *err) {
  uint64_t product;
  if (words < 1 || words > GS_MAX_WORDS)
    return gs_fail(err, GS_ERR_RANGE, "words", "must be a whole number from 1 to %llu", (unsigned long long)GS_MAX_WORDS);
  if (!gs_mul(gs_message_bytes(s), words, &product) || !gs_mul(2 * gs_param_count(s), words, &product))
    return gs_fail(err, GS_ERR_OVERFLOW, "words", "%llu words at once would overflow 64 bits", (unsigned long long)words);
  return GS_OK;
}

/* isfinite and comparisons only: no libm call that could differ between builds. */
static int positive(double x) { return isfinite(x) && x > 0; }

int gs_gpu_check(const gs_gpu *g, gs_error *err) {
  if (!positive(g->gib)) return gs_fail(err, GS_ERR_RANGE, "gpu gib", "must be a number above 0");
  if (!positive(g->usable) || g->usable > 1) return gs_fail(err, GS_ERR_RANGE, "gpu usable", "must be above 0 and at most 1");
  if (!positive(g->bandwidth)) return gs_fail(err, GS_ERR_RANGE, "gpu bandwidth", "must be a number of bytes per second above 0");
  if (!positive(g->flops)) return gs_fail(err, GS_ERR_RANGE, "gpu flops", "must be a number of operations per second above 0");
  if (!(g->gib * (double)GS_GIB * g->usable < 18446744073709551616.0))
    return gs_fail(err, GS_ERR_OVERFLOW, "gpu gib", "the usable bytes would overflow 64 bits");
  if (gs_usable_bytes(g) < 1) return gs_fail(err, GS_ERR_RANGE, "gpu gib", "leaves less than one usable byte");
  return GS_OK;
}

int gs_link_check(const gs_link *l, gs_error *err) {
  if (!positive(l->bandwidth)) return gs_fail(err, GS_ERR_RANGE, "link bandwidth", "must be a number of bytes per second above 0");
  if (!isfinite(l->step_us) || l->step_us < 0) return gs_fail(err, GS_ERR_RANGE, "link step_us", "must be a number of microseconds, 0 or more");
  if (!isfinite(l->base_us) || l->base_us < 0) return gs_fail(err, GS_ERR_RANGE, "link base_us", "must be a number of microseconds, 0 or more");
  return GS_OK;
}

int gs_split_parse(const char *name, int *split) {
  if (strcmp(name, "slices") == 0) *split = GS_SLICES;
  else if (strcmp(name, "groups") == 0) *split = GS_GROUPS;
  else return GS_ERR_SPLIT;
  return GS_OK;
}

const char *gs_split_name(int split) {
  return split == GS_SLICES ? "slices" : split == GS_GROUPS ? "groups" : "unknown";
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* Weights of a Llama-style model counted from its shape (lesson 18's formula): per layer
 * the four attention matrices (two of them narrowed to the key/value heads), the three
 * feed-forward matrices and two norms; then the embedding and output tables and the
 * final norm. */
uint64_t gs_param_count(const gs_shape *s) {
  uint64_t h = s->hidden, kv_width = s->kv_heads * s->head_dim;
  uint64_t per_layer = 2 * h * h + 2 * h * kv_width + 3 * h * s->intermediate + 2 * h;
  uint64_t tables = s->vocab * h * (s->tied ? 1 : 2);
  return s->layers * per_layer + tables + h;
}

uint64_t gs_weight_bytes(const gs_shape *s) { return WEIGHT_BYTES * gs_param_count(s); }

/* A key and a value vector per layer and key/value head for each token. */
uint64_t gs_kv_bytes_per_token(const gs_shape *s) {
  return 2 * s->layers * s->kv_heads * s->head_dim * CACHE_VALUE_BYTES;
}

uint64_t gs_activation_bytes(const gs_shape *s) {
  return ACTIVATION_TOKENS * (3 * s->intermediate + 4 * s->hidden) * 2;
}

/* What the GPUs swap after each split step for one word: its hidden vector. */
uint64_t gs_message_bytes(const gs_shape *s) { return s->hidden * WORD_BYTES; }

/* The reference truncates int(GPU_GIB * GIB * USABLE); gs_gpu_check keeps it in range. */
uint64_t gs_usable_bytes(const gs_gpu *g) { return (uint64_t)(g->gib * (double)GS_GIB * g->usable); }

/* Weights and the chat's cache are shared out evenly, the cache by key/value head and so
 * never into more parts than there are such heads; working memory is not shared. */
void gs_memory_per_gpu(const gs_shape *s, uint64_t n, gs_memory *out) {
  uint64_t cache_parts = n < s->kv_heads ? n : s->kv_heads;
  out->weights = ceil_div(gs_weight_bytes(s), n);
  out->cache = ceil_div(gs_kv_bytes_per_token(s) * GS_CHAT_TOKENS, cache_parts);
  out->working = gs_activation_bytes(s) + OVERHEAD_GIB * GS_GIB;
  out->total = out->weights + out->cache + out->working;
}

int gs_fits(const gs_shape *s, const gs_gpu *g, uint64_t n) {
  gs_memory m;
  gs_memory_per_gpu(s, n, &m);
  return m.total <= gs_usable_bytes(g);
}

/* Each GPU reads only its 1/n of the weights. */
double gs_read_time(const gs_shape *s, const gs_gpu *g, uint64_t n) {
  return (double)ceil_div(gs_weight_bytes(s), n) / g->bandwidth;
}

/* Two operations per weight for each word, shared over n GPUs. */
double gs_compute_time(const gs_shape *s, const gs_gpu *g, uint64_t n, uint64_t words) {
  return (double)(2 * gs_param_count(s) * words) / ((double)n * g->flops);
}

/* Ring all-reduce of size bytes over n GPUs: 2(n-1) steps, each paying the step latency,
 * and each GPU sends 2(n-1)/n times size (the NCCL tests' performance notes derive this
 * factor). One GPU waits on no one. */
double gs_allreduce_time(uint64_t size, uint64_t n, const gs_link *l) {
  double steps, startup;
  if (n == 1) return 0.0;
  steps = (double)(2 * (n - 1));
  startup = (l->base_us + steps * l->step_us) * 1e-6;
  return startup + steps / (double)n * (double)size / l->bandwidth;
}

/* One message from a group of layers to the next: the base latency, one step, the bytes. */
double gs_handoff_time(uint64_t size, const gs_link *l) {
  return (l->base_us + l->step_us) * 1e-6 + (double)size / l->bandwidth;
}

/* Reading and computing overlap, so the longer counts; the transfers come after. With
 * groups, the n groups each read 1/n of the weights in turn and hand one message on
 * n-1 times. A user waits one step per word, so this is one user's time per word. */
int gs_word_time(const gs_shape *s, const gs_gpu *g, const gs_link *l, uint64_t n, int split,
                 uint64_t words, gs_time *out) {
  double read = gs_read_time(s, g, n), compute = gs_compute_time(s, g, n, words);
  double busy = read >= compute ? read : compute;
  uint64_t size = gs_message_bytes(s) * words;
  if (split == GS_SLICES) {
    out->transfer = (double)(GS_ALL_REDUCES_PER_LAYER * s->layers) * gs_allreduce_time(size, n, l);
    out->read = busy;
  } else if (split == GS_GROUPS) {
    out->transfer = (double)(n - 1) * gs_handoff_time(size, l);
    out->read = (double)n * busy;
  } else {
    return GS_ERR_SPLIT;
  }
  out->total = out->read + out->transfer;
  out->share = out->transfer / out->total;
  out->words_per_s = 1 / out->total;
  return GS_OK;
}

/* The count from 1 to max_n, among those that fit (and, with divide_heads, divide the
 * attention heads, since slices are cut by head), with the shortest step; the first on
 * a tie, as Python's min() takes. */
int gs_best_n(const gs_shape *s, const gs_gpu *g, const gs_link *l, int split, uint64_t words,
              uint64_t max_n, int divide_heads, uint64_t *best) {
  uint64_t n, found = 0;
  double best_total = 0;
  for (n = 1; n <= max_n; n++) {
    gs_time t;
    int rc;
    if (!gs_fits(s, g, n) || (divide_heads && s->heads % n != 0)) continue;
    if ((rc = gs_word_time(s, g, l, n, split, words, &t)) != GS_OK) return rc;
    if (found == 0 || t.total < best_total) {
      found = n;
      best_total = t.total;
    }
  }
  if (found == 0) return GS_ERR_NONE_FITS;
  *best = found;
  return GS_OK;
}

/* The fewest GPUs, up to max_n, that hold the model with room for working memory. */
int gs_fewest_n(const gs_shape *s, const gs_gpu *g, uint64_t max_n, uint64_t *fewest) {
  uint64_t n;
  for (n = 1; n <= max_n; n++) {
    if (gs_fits(s, g, n)) {
      *fewest = n;
      return GS_OK;
    }
  }
  return GS_ERR_NONE_FITS;
}
