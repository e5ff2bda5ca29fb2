/* The cost model: memory per GPU, read, compute and all-reduce times, best GPU counts.
 * Pure arithmetic after the lesson's gpu_split.py, on the totals a gs_model holds. Each
 * floating-point expression keeps the reference code's order of operations, so results
 * agree with it bit for bit (and the native build with the WebAssembly one: only + - * /
 * on IEEE doubles, no libm). */
#include <math.h>
#include <string.h>

#include "internal.h"

const uint64_t GS_GIB = 1073741824u;
const uint64_t GS_ALL_REDUCES_PER_LAYER = 2; /* Megatron-LM (arXiv 1909.08053): after attention and after the feed-forward block */
const uint64_t GS_CHAT_TOKENS = 8192;        /* lesson 18: the chat whose attention cache must fit */
const uint64_t GS_MAX_GPUS = 65536;          /* a bound that keeps every count exact in a double and best-count searches short */
const uint64_t GS_MAX_WORDS = 1048576;       /* likewise for words at once */

static const uint64_t WORD_BYTES = 2;           /* a number in a word's hidden vector takes 16 bits */
const uint64_t GS_ACTIVATION_TOKENS = 2048;      /* lesson 18's working-memory estimate */
const uint64_t GS_OVERHEAD_GIB = 1;              /* lesson 18's allowance */

/* isfinite and comparisons only: no libm call that could differ between builds. */
static int positive(double x) { return isfinite(x) && x > 0; }

/* The ranges a hardware figure may take. They are wide (a millionth of today's slowest
 * part to a thousand times its fastest) and they keep every result finite: with them the
 * longest step stays far below GS_MAX_STEP_SECONDS, and no figure is infinite, NaN or
 * wider than GS_FIGURE_CAP. Each bound is written out as the message quotes it. */
typedef struct {
  const char *field, *unit;
  double low, high;
  const char *low_text, *high_text;
  int low_open; /* 1: the low bound itself is refused (a bandwidth of 0) */
} figure_range;

static const figure_range GPU_USABLE = {"gpu usable", "", 0.01, 1, "0.01", "1", 0};
static const figure_range GPU_BANDWIDTH = {"gpu bandwidth", "bytes per second", 1e6, 1e16, "1e6", "1e16", 0};
static const figure_range GPU_FLOPS = {"gpu flops", "operations per second", 1e6, 1e19, "1e6", "1e19", 0};
static const figure_range LINK_BANDWIDTH = {"link bandwidth", "bytes per second", 1e6, 1e16, "1e6", "1e16", 0};
static const figure_range LINK_STEP = {"link step_us", "microseconds", 0, 1e6, "0", "1e6", 0};
static const figure_range LINK_BASE = {"link base_us", "microseconds", 0, 1e6, "0", "1e6", 0};

static int check_range(const figure_range *r, double x, gs_error *err) {
  const char *space = r->unit[0] ? " " : "";
  if (!isfinite(x)) return gs_fail(err, GS_ERR_RANGE, r->field, "must be a finite number%s%s", r->unit[0] ? " of " : "", r->unit);
  if (x <= 0 && r->low > 0) return gs_fail(err, GS_ERR_RANGE, r->field, "must be above 0%s%s", r->unit[0] ? ", in " : "", r->unit);
  if (x < 0) return gs_fail(err, GS_ERR_RANGE, r->field, "must be 0 or more%s%s", r->unit[0] ? " " : "", r->unit);
  if (x < r->low) return gs_fail(err, GS_ERR_RANGE, r->field, "is too small: at least %s%s%s", r->low_text, space, r->unit);
  if (x > r->high) return gs_fail(err, GS_ERR_RANGE, r->field, "is too large: at most %s%s%s", r->high_text, space, r->unit);
  return GS_OK;
}

int gs_gpu_check(const gs_gpu *g, gs_error *err) {
  int rc;
  if (!positive(g->gib)) return gs_fail(err, GS_ERR_RANGE, "gpu gib", "must be a number above 0");
  if (g->usable > 0 && g->usable < GPU_USABLE.low)
    return gs_fail(err, GS_ERR_RANGE, "gpu usable", "is too small: at least 0.01 of the memory");
  if ((rc = check_range(&GPU_USABLE, g->usable, err)) != GS_OK ||
      (rc = check_range(&GPU_BANDWIDTH, g->bandwidth, err)) != GS_OK || (rc = check_range(&GPU_FLOPS, g->flops, err)) != GS_OK)
    return rc;
  if (!(g->gib * (double)GS_GIB * g->usable < 18446744073709551616.0))
    return gs_fail(err, GS_ERR_OVERFLOW, "gpu gib", "the usable bytes would overflow 64 bits");
  if (gs_usable_bytes(g) < 1) return gs_fail(err, GS_ERR_RANGE, "gpu gib", "is too small: it leaves less than one usable byte");
  if (g->arch < GS_ARCH_NONE || g->arch > GS_ARCH_BLACKWELL) return gs_fail(err, GS_ERR_RANGE, "gpu arch", "is not a GPU generation NCCL knows");
  return GS_OK;
}

int gs_link_check(const gs_link *l, gs_error *err) {
  int rc;
  if (l->kind < GS_LINK_NVLINK || l->kind > GS_LINK_NET) return gs_fail(err, GS_ERR_RANGE, "link kind", "must be nvlink, pci or net");
  if ((rc = check_range(&LINK_BANDWIDTH, l->bandwidth, err)) != GS_OK || (rc = check_range(&LINK_STEP, l->step_us, err)) != GS_OK ||
      (rc = check_range(&LINK_BASE, l->base_us, err)) != GS_OK)
    return rc;
  return GS_OK;
}

static int share_check(const char *field, double x, gs_error *err) {
  if (!isfinite(x) || x < 0 || x > 1 || (x > 0 && x < 0.01))
    return gs_fail(err, GS_ERR_RANGE, field, "must be 0 (off) or a share from 0.01 to 1");
  return GS_OK;
}

/* Every figure 0 is off; each other is a share from 0.01 to 1 or a fixed cost of at most a
 * second (GS_EFFICIENCY_FIELDS). */
int gs_efficiency_check(const gs_efficiency *e, gs_error *err) {
  int rc;
  /* kind is a constant: each figure compiles to one call, as if written out */
#define CHECK_FIGURE(member, kind, flag)                                                                 \
  {                                                                                                      \
    static const figure_range range = {#member, "microseconds", 0, 1e6, "0", "1e6", 0};                  \
    if ((rc = kind == GS_EFF_SHARE ? share_check(#member, e->member, err) : check_range(&range, e->member, err)) != GS_OK) \
      return rc;                                                                                         \
  }
  GS_EFFICIENCY_FIELDS(CHECK_FIGURE)
#undef CHECK_FIGURE
  return GS_OK;
}

/* The most tokens a chat's cache may hold: a bound that keeps every cache total within
 * 64 bits for any model the reader accepts (configs say 8K to 1M). */
const uint64_t GS_MAX_CHAT_TOKENS = 16777216;

uint64_t gs_plan_servers(const gs_plan *p) {
  return p->per_server == 0 || p->gpus <= p->per_server ? 1 : p->gpus / p->per_server + (p->gpus % p->per_server != 0);
}

uint64_t gs_plan_batches(const gs_plan *p) { return p->in_flight > 1 ? p->in_flight : 1; }

/* The groups of layers the plan's GPUs make: each GPU one under groups, each server one
 * under slices-groups, none under slices. */
static uint64_t plan_groups(const gs_plan *p) {
  if (p->split == GS_GROUPS) return p->gpus;
  if (p->split == GS_SLICES_GROUPS) return gs_plan_servers(p);
  return 0;
}

static uint64_t plan_tokens(const gs_plan *p) { return p->chat_tokens ? p->chat_tokens : GS_CHAT_TOKENS; }
static uint64_t plan_cache_bits(const gs_plan *p) { return p->cache_bits ? p->cache_bits : 16; }

/* 1 when one chat's cache at the plan's tokens fits in 64 bits at 32 bits a number. */
static int cache_fits(const gs_model *m, const gs_plan *p) {
  uint64_t tokens = plan_tokens(p), kept = m->window < tokens ? m->window : tokens, a, b, sum;
  return gs_mul(m->cache_full_bytes, tokens, &a) && gs_mul(m->cache_window_bytes, kept, &b) && gs_add(a, b, &sum) &&
         gs_mul(sum, 2, &sum);
}

static uint64_t held_chats(const gs_plan *p);
static uint64_t working_bytes(const gs_model *m);

/* 1 when what one GPU holds and reads fits in 64 bits for every count: each is largest
 * on one GPU, with the whole of the weights and the caches (parts of 1). */
static int totals_fit(const gs_model *m, const gs_plan *p) {
  uint64_t chat = gs_plan_cache_bytes(m, p), held, total, read;
  return gs_mul(chat, held_chats(p), &held) && gs_add(m->stored_bytes, held, &total) && gs_add(total, working_bytes(m), &total) &&
         gs_mul(chat, p->words, &read) && gs_add(m->stored_bytes, read, &read);
}

/* Words at once multiply the message, the operations and (per chat) the cache; each must
 * stay within 64 bits, as must the bytes one step reads (the model's own totals were
 * checked when derived). Servers must hold whole groups under slices-groups. */
int gs_plan_check(const gs_model *m, const gs_plan *p, gs_error *err) {
  uint64_t product, servers;
  int rc;
  if (p->gpus < 1 || p->gpus > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "gpus", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (p->split != GS_SLICES && p->split != GS_GROUPS && p->split != GS_SLICES_GROUPS)
    return gs_fail(err, GS_ERR_SPLIT, "split", "must be slices, groups or slices-groups");
  if (p->words < 1 || p->words > GS_MAX_WORDS)
    return gs_fail(err, GS_ERR_RANGE, "words", "must be a whole number from 1 to %llu", (unsigned long long)GS_MAX_WORDS);
  if (p->per_server > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "per_server", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (p->chat_tokens > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "chat_tokens", "must be from 1 to %llu", (unsigned long long)GS_MAX_CHAT_TOKENS);
  if (p->cache_bits > 32) return gs_fail(err, GS_ERR_RANGE, "cache_bits", "must be from 1 to 32");
  if (p->nccl != GS_NCCL_LESSON && p->nccl != GS_NCCL_AUTO) return gs_fail(err, GS_ERR_RANGE, "nccl", "must be lesson or auto");
#ifdef GS_LESSON_ONLY
  if (p->nccl == GS_NCCL_AUTO) return gs_fail(err, GS_ERR_UNSUPPORTED, "nccl", "auto is not in the lesson's module (build/gpusplit.wasm has it)");
#endif
  if ((rc = gs_efficiency_check(&p->efficiency, err)) != GS_OK) return rc;
  if (p->prompt_tokens > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "prompt_tokens", "must be from 1 to %llu", (unsigned long long)GS_MAX_CHAT_TOKENS);
  if (p->prompt_tokens && (!gs_mul(p->prompt_tokens, p->words, &product) || !gs_mul(gs_message_bytes(m), product, &product)))
    return gs_fail(err, GS_ERR_OVERFLOW, "prompt_tokens", "%llu tokens for %llu chats would overflow 64 bits",
                   (unsigned long long)p->prompt_tokens, (unsigned long long)p->words);
  if (!cache_fits(m, p))
    return gs_fail(err, GS_ERR_OVERFLOW, "chat_tokens", "a cache of %llu tokens would overflow 64 bits", (unsigned long long)plan_tokens(p));
  if (!gs_mul(gs_message_bytes(m), p->words, &product) || !gs_mul(2 * m->active_params, p->words, &product) ||
      !gs_mul(gs_plan_cache_bytes(m, p), p->words, &product) || !totals_fit(m, p))
    return gs_fail(err, GS_ERR_OVERFLOW, "words", "%llu words at once would overflow 64 bits", (unsigned long long)p->words);
  /* lesson: groups "pay off when many chats keep every group busy": one batch a group */
  if (p->in_flight > 1 && p->split == GS_SLICES)
    return gs_fail(err, GS_ERR_SHAPE, "in_flight", "slices keep no batches in flight: every GPU works on the one batch");
  if (p->in_flight > 1 && p->in_flight > plan_groups(p))
    return gs_fail(err, GS_ERR_SHAPE, "in_flight", "%llu batches in flight need as many groups; %llu GPUs make %llu",
                   (unsigned long long)p->in_flight, (unsigned long long)p->gpus, (unsigned long long)plan_groups(p));
  if (!gs_mul(product, gs_plan_batches(p), &product))
    return gs_fail(err, GS_ERR_OVERFLOW, "in_flight", "%llu batches in flight would overflow 64 bits", (unsigned long long)p->in_flight);
  servers = gs_plan_servers(p);
#ifdef GS_LESSON_ONLY
  /* the lesson's module has one server: its widget offers no servers of a size */
  if (servers > 1) return gs_fail(err, GS_ERR_UNSUPPORTED, "per_server", "the lesson's module has one server");
#endif
  if (servers > 1) {
    if ((rc = gs_link_check(&p->between, err)) != GS_OK) {
      gs_error inner = *err;
      return gs_fail(err, rc, "between", "%s: %s", inner.field, inner.what);
    }
    if (p->split == GS_SLICES_GROUPS && p->gpus % p->per_server != 0)
      return gs_fail(err, GS_ERR_SHAPE, "gpus", "%llu GPUs do not fill whole servers of %llu, as slices-groups needs",
                     (unsigned long long)p->gpus, (unsigned long long)p->per_server);
    if (p->split == GS_SLICES_GROUPS && servers > m->layers)
      return gs_fail(err, GS_ERR_SHAPE, "gpus", "%llu servers would make more groups than the %llu layers",
                     (unsigned long long)servers, (unsigned long long)m->layers);
  }
#ifndef GS_LESSON_ONLY
  return gs_spread_check(m, p, err);
#else
  return GS_OK; /* the lesson's module sets no experts (its models are dense) */
#endif
}

int gs_split_parse(const char *name, int *split, gs_error *err) {
  if (strcmp(name, "slices") == 0) *split = GS_SLICES;
  else if (strcmp(name, "groups") == 0) *split = GS_GROUPS;
  else if (strcmp(name, "slices-groups") == 0) *split = GS_SLICES_GROUPS;
  else return gs_fail(err, GS_ERR_SPLIT, "split", "must be slices, groups or slices-groups");
  return GS_OK;
}

const char *gs_split_name(int split) {
  return split == GS_SLICES ? "slices" : split == GS_GROUPS ? "groups" : split == GS_SLICES_GROUPS ? "slices-groups" : "unknown";
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* What the GPUs swap after each split step for one word: its hidden vector. */
uint64_t gs_message_bytes(const gs_model *m) { return m->hidden * WORD_BYTES; }

/* The reference truncates int(GPU_GIB * GIB * USABLE); gs_gpu_check keeps it in range. */
uint64_t gs_usable_bytes(const gs_gpu *g) { return (uint64_t)(g->gib * (double)GS_GIB * g->usable); }

/* One chat's attention cache (lesson 18: GS_CHAT_TOKENS tokens): the layers that keep
 * every token, and the sliding layers, each keeping at most its window. For a Llama
 * shape this is the lesson's 2 x layers x kv_heads x head_dim x 2 bytes x 8192. */
uint64_t gs_chat_cache_bytes(const gs_model *m) {
  uint64_t kept = m->window < GS_CHAT_TOKENS ? m->window : GS_CHAT_TOKENS;
  return m->cache_full_bytes * GS_CHAT_TOKENS + m->cache_window_bytes * kept;
}

/* One chat's cache as the plan holds it: its tokens (--chat-tokens), each number at its
 * bits (--cache-bits), rounded up to a whole byte; the model's figures are at 16 bits.
 * bytes16 x bits / 16 is taken as q x bits + r x bits / 16 so that no product overflows. */
uint64_t gs_plan_cache_bytes(const gs_model *m, const gs_plan *p) {
  uint64_t tokens = plan_tokens(p), bits = plan_cache_bits(p), kept = m->window < tokens ? m->window : tokens;
  uint64_t bytes16 = m->cache_full_bytes * tokens + m->cache_window_bytes * kept;
  if (bits == 16) return bytes16;
  return bytes16 / 16 * bits + ((bytes16 % 16) * bits + 15) / 16;
}

/* x to the power w by squaring: multiplications only, so the native build and the wasm
 * agree bit for bit, where libm's pow need not. */
static double power(double x, uint64_t w) {
  double result = 1;
  while (w > 0) {
    if (w & 1) result *= x;
    x *= x;
    w >>= 1;
  }
  return result;
}

/* The share of the routed experts that W words read in one step: each word picks k of
 * E experts, and the expected number of distinct experts W words pick is
 * E x (1 - (1 - k/E)^W). A planning assumption (uniform, independent choices), not a
 * measurement: real routers are skewed, which makes the share smaller. */
double gs_routed_share(const gs_model *m, uint64_t words) {
  double stay;
  if (m->experts == 0) return 0;
  stay = (double)(m->experts - m->experts_per_token) / (double)m->experts;
  return 1 - power(stay, words);
}

/* The bytes of weights one step reads, on all GPUs together: every weight a word passes
 * through but the routed experts, and the routed experts' expected share, rounded up to a
 * whole byte. */
uint64_t gs_step_read_bytes(const gs_model *m, uint64_t words) {
  uint64_t dense = m->stored_bytes - m->unread_bytes - m->routed_bytes, routed;
  double x;
  if (m->routed_bytes == 0) return dense;
  x = gs_routed_share(m, words) * (double)m->routed_bytes;
  routed = (uint64_t)x;
  if ((double)routed < x) routed++;
  return dense + routed;
}

/* The parts one chat's cache is shared into: by key/value head under slices, never into
 * more parts than there are such heads (and the lesson's rule is the same for groups).
 * A compressed latent (MLA) has no heads to share: under slices every GPU holds it whole;
 * under groups each GPU holds its own layers'. */
uint64_t gs_cache_parts(const gs_model *m, const gs_plan *p) {
  uint64_t servers = gs_plan_servers(p), slices = p->gpus / servers;
  if (p->split == GS_SLICES_GROUPS && servers > 1) /* groups of layers, each sliced by head */
    return servers * (m->cache_latent ? 1 : slices < m->kv_heads ? slices : m->kv_heads);
  if (m->cache_latent) return p->split == GS_SLICES || p->split == GS_SLICES_GROUPS ? 1 : p->gpus;
  return p->gpus < m->kv_heads ? p->gpus : m->kv_heads;
}

/* The chats whose caches the GPUs hold: the lesson's one, or (--cache-per-chat) each
 * of the words' chats. */
static uint64_t held_chats(const gs_plan *p) { return (p->cache_per_chat ? p->words : 1) * gs_plan_batches(p); }


/* check_model (config.c) keeps this within 64 bits. */
static uint64_t working_bytes(const gs_model *m) {
  return GS_ACTIVATION_TOKENS * (3 * m->ffn_width + 4 * m->hidden) * 2 + GS_OVERHEAD_GIB * GS_GIB;
}

/* Weights are shared out evenly, the cache as above; working memory (lesson 18: 2,048
 * tokens through the widest feed-forward block and four hidden-wide buffers, at 16 bits,
 * plus 1 GiB) is not shared. */
static void memory_per_gpu(const gs_model *m, const gs_plan *p, gs_memory *out) {
  out->weights = ceil_div(m->stored_bytes, p->gpus);
  out->cache = ceil_div(gs_plan_cache_bytes(m, p) * held_chats(p), gs_cache_parts(m, p));
#ifndef GS_LESSON_ONLY
  /* spread experts (csrc/core/experts.c): copies of all but the experts, and the busiest
   * GPU's own chats' caches whole (the lesson's one chat on one GPU) */
  if (p->experts == GS_EXPERTS_SPREAD) {
    out->weights = gs_spread_weights(m, p->gpus);
    out->cache = gs_plan_cache_bytes(m, p) * (p->cache_per_chat ? gs_spread_chats(p) : 1);
  }
#endif
  out->working = working_bytes(m);
  out->total = out->weights + out->cache + out->working;
}

/* Ring all-reduce of size bytes over n GPUs in one server, by the lesson's rule: 2(n-1)
 * steps, each paying the step latency, and each GPU sends 2(n-1)/n times size (the NCCL
 * tests' performance notes derive this factor). One GPU waits on no one. csrc/core/nccl.c
 * holds the formula, with its extension across servers and NCCL's own. */
double gs_allreduce_time(uint64_t size, uint64_t n, const gs_link *l) {
  gs_ring r;
  int protocol;
  memset(&r, 0, sizeof r);
  r.gpus = n;
  r.servers = 1;
  r.intra = l;
  r.nccl = GS_NCCL_LESSON;
  return gs_ring_allreduce(size, &r, &protocol);
}

/* One message from a group of layers to the next: the base latency, one step, the bytes. */
double gs_handoff_time(uint64_t size, const gs_link *l) {
  return (l->base_us + l->step_us) * 1e-6 + (double)size / l->bandwidth;
}

/* The all-reduces of one step over `layers` layers, ar seconds each, two a layer. With
 * overlap each layer's pair hides behind the next layer's reading (read_per_layer), up to
 * its length; the last layer of each of the `groups` groups has no next layer to hide
 * behind. Without it they all wait, as in the lesson. */
static double allreduce_wait(uint64_t layers, uint64_t groups, double ar, double read_per_layer, int overlap) {
  double pair = (double)GS_ALL_REDUCES_PER_LAYER * ar, exposed;
  if (!overlap) return (double)(GS_ALL_REDUCES_PER_LAYER * layers) * ar;
  exposed = pair > read_per_layer ? pair - read_per_layer : 0;
  return (double)(layers - groups) * exposed + (double)groups * pair;
}

/* Seconds to read bytes at that rate. The peak's expression is the lesson's (bytes over
 * the bandwidth), untouched when the share is off. */
double gs_read_seconds(uint64_t bytes, const gs_gpu *g, const gs_efficiency *e) { return (double)bytes / gs_read_rate(g, e); }

/* Seconds for one of n GPUs to do its 1/n of ops operations at the FLOP/s (achieved). */
double gs_compute_seconds(double ops, uint64_t n, const gs_gpu *g, const gs_efficiency *e) {
  if (e->flops_share > 0) return ops / ((double)n * (g->flops * e->flops_share));
  return ops / ((double)n * g->flops);
}

/* A step's busy time and its transfers as the split arranges them, from one GPU's busy
 * time (the longer of reading and computing) and the bytes one all-reduce moves:
 * - slices: one ring of all n GPUs, crossing servers when they span several;
 * - groups: n groups each read in turn and hand one message on n-1 times, the hand-offs
 *   between servers over the between link;
 * - slices-groups: on one server, slices; across servers, a group a server, sliced
 *   inside by a ring of that server's GPUs, handing on over the between link.
 * Each layer's fixed cost (gs_efficiency.layer_us) is paid once a layer a step, whoever
 * runs it; 0 adds nothing. */
void gs_split_time(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double busy, uint64_t size,
                   gs_time *time, double *swap, int *protocol) {
  uint64_t n = p->gpus, servers = gs_plan_servers(p);
  double fixed = (double)m->layers * p->efficiency.layer_us * 1e-6 + p->efficiency.step_us * 1e-6;
  double group_busy = 0, sent = 0; /* the first GPU's group's work, and the hand-off it sends */
  gs_ring ring;
  memset(&ring, 0, sizeof ring);
  ring.intra = l;
  ring.between = &p->between;
  ring.arch = g->arch;
  ring.nccl = p->nccl;
  ring.extra_us = p->efficiency.allreduce_us;
  *protocol = GS_PROTO_NONE;
  if (p->split == GS_SLICES || (p->split == GS_SLICES_GROUPS && servers == 1)) {
    if (fixed > 0) busy += fixed;
    ring.gpus = n;
    ring.servers = servers;
#ifndef GS_LESSON_ONLY
    /* spread experts: a dispatch and a combine a MoE layer, each GPU sending its tokens k
     * times (size is its own tokens' message); no all-reduce (csrc/core/experts.c) */
    if (p->experts == GS_EXPERTS_SPREAD) {
      *swap = gs_all_to_all(size * m->experts_per_token, &ring, NULL, NULL);
      time->transfer = (double)(2 * m->moe_layers) * *swap;
      time->read = busy;
      return;
    }
#endif
    *swap = gs_ring_allreduce(size, &ring, protocol);
    time->transfer = allreduce_wait(m->layers, 1, *swap, busy / (double)m->layers, p->overlap);
    time->read = busy;
  } else if (p->split == GS_GROUPS) {
    *swap = gs_handoff_time(size, l);
    if (servers == 1) time->transfer = (double)(n - 1) * *swap;
    else time->transfer = (double)(n - servers) * *swap + (double)(servers - 1) * gs_handoff_time(size, &p->between);
    time->read = (double)n * busy;
    if (fixed > 0) time->read += fixed;
    /* the first GPU reads its turn (its layers' share of the fixed cost too) and hands on
     * once: within its server unless a server holds one GPU */
    group_busy = busy + (fixed > 0 ? fixed / (double)n : 0);
    if (n > 1) sent = p->per_server == 1 ? gs_handoff_time(size, &p->between) : *swap;
  } else { /* slices-groups across servers: servers groups of n / servers slices */
    double rings;
    ring.gpus = n / servers;
    ring.servers = 1;
    *swap = gs_ring_allreduce(size, &ring, protocol);
    time->read = (double)servers * busy;
    if (fixed > 0) time->read += fixed;
    rings = allreduce_wait(m->layers, servers, *swap, time->read / (double)m->layers, p->overlap);
    time->transfer = rings + (double)(servers - 1) * gs_handoff_time(size, &p->between);
    /* the first server's group reads its layers with their all-reduces, then hands on */
    group_busy = (time->read + rings) / (double)servers;
    sent = gs_handoff_time(size, &p->between);
  }
  /* the share of the step the first GPU neither reads, computes nor sends */
  if (group_busy > 0) {
    double total = time->read + time->transfer;
    time->idle = (total - group_busy - sent) / total;
  }
}

const char *gs_bound_name(int bound) {
  return bound == GS_BOUND_COMPUTE ? "computing" : bound == GS_BOUND_WAIT ? "waiting" : "reading";
}

/* Each GPU reads its 1/n of what the step reads (and, with read_cache, its share of every
 * chat's cache), and computes two operations per active weight for each word; reading and
 * computing overlap, so the longer counts ("busy"), and the transfers come after, as
 * gs_split_time arranges them. A chat waits one step per word, so 1 / total is each
 * chat's words a second, and the words' chats together get words / total. What sets the
 * step: waiting when the transfers outlast the busy time, else the longer of reading and
 * computing. */
int gs_cost(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_cost_result *out,
            gs_error *err) {
  uint64_t n = p->gpus, size, servers, read_bytes;
  double read, busy;
  int rc;
#ifdef GS_LESSON_ONLY
  /* the lesson's module prices its own GPU and links alone, checked when the tables were
   * written (scripts/tables.c reads them with hardware.c's checks) */
  if ((rc = gs_plan_check(m, p, err)) != GS_OK) return rc;
#else
  if ((rc = gs_plan_check(m, p, err)) != GS_OK || (rc = gs_gpu_check(g, err)) != GS_OK || (rc = gs_link_check(l, err)) != GS_OK)
    return rc;
#endif
  if (p->nccl == GS_NCCL_AUTO && g->arch == GS_ARCH_NONE)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "nccl", "auto needs an NVIDIA GPU generation, and this GPU has none (AMD's run RCCL, whose tables differ)");
  memset(out, 0, sizeof *out);
  memory_per_gpu(m, p, &out->memory);
  servers = gs_plan_servers(p);
  out->servers = servers;
  out->usable_bytes = gs_usable_bytes(g);
  out->fits = out->memory.total <= out->usable_bytes;
  read_bytes = ceil_div(gs_step_read_bytes(m, p->words), n);
  if (p->read_cache) read_bytes += ceil_div(gs_plan_cache_bytes(m, p) * p->words, gs_cache_parts(m, p));
  out->read_bytes = read_bytes;
  read = gs_read_seconds(out->read_bytes, g, &p->efficiency);
  /* a decode step computes at the peak: the fitted FLOP/s share is a prefill's (issue 19) */
  out->compute = (double)(2 * m->active_params * p->words) / ((double)n * g->flops);
  size = gs_message_bytes(m) * p->words;
#ifndef GS_LESSON_ONLY
  /* spread experts: each GPU reads its copies and its picked experts, and its own chats'
   * caches whole, and computes and sends for its own chats (csrc/core/experts.c) */
  if (p->experts == GS_EXPERTS_SPREAD) {
    uint64_t chats = gs_spread_chats(p);
    out->read_bytes = gs_spread_read_bytes(m, n, p->words) + (p->read_cache ? gs_plan_cache_bytes(m, p) * chats : 0);
    read = gs_read_seconds(out->read_bytes, g, &p->efficiency);
    out->compute = (double)(2 * m->active_params * chats) / g->flops;
    size = gs_message_bytes(m) * chats;
  }
#endif
  busy = read >= out->compute ? read : out->compute;
  gs_split_time(m, g, l, p, busy, size, &out->time, &out->swap, &out->protocol);
  out->time.total = out->time.read + out->time.transfer;
  out->bound = out->time.transfer > out->time.read ? GS_BOUND_WAIT : out->compute > read ? GS_BOUND_COMPUTE : GS_BOUND_READ;
  /* Not reached with the checked ranges and a real model; kept so that no figure can be
   * infinite or wider than its text, whatever the model's totals. */
  if (!(out->time.total <= GS_MAX_STEP_SECONDS))
    return gs_fail(err, GS_ERR_RANGE, "time", "one step would take more than 1e24 seconds; use faster figures");
  out->time.share = out->time.transfer / out->time.total;
  out->time.words_per_s = 1 / out->time.total;
  /* each batch still waits a whole step for its next word; the groups work on as many
   * batches at once as are in flight */
  out->time.total_words_per_s = (double)(p->words * gs_plan_batches(p)) / out->time.total;
#ifndef GS_LESSON_ONLY
  if (p->prompt_tokens) return gs_first_word(m, g, l, p, &out->first_word, err);
#endif
  return GS_OK;
}


/* The fewest GPUs, up to max_n, that hold the model with room for working memory; with
 * divide_heads, among the counts that divide the attention heads, as gs_best_n. */
int gs_fewest_n(const gs_model *m, const gs_gpu *g, const gs_plan *p, uint64_t max_n, int divide_heads, uint64_t *fewest,
                gs_error *err) {
  gs_plan at = *p;
  for (at.gpus = 1; at.gpus <= max_n; at.gpus++) {
    gs_memory mem;
    int rc;
    if (divide_heads && m->heads % at.gpus != 0) continue;
    rc = gs_plan_check(m, &at, err);
    if (rc == GS_ERR_SHAPE) continue;
    if (rc != GS_OK) return rc;
    memory_per_gpu(m, &at, &mem);
    if (mem.total <= gs_usable_bytes(g)) {
      *fewest = at.gpus;
      return GS_OK;
    }
  }
  return gs_fail(err, GS_ERR_NONE_FITS, "gpus", "no count up to %llu fits", (unsigned long long)max_n);
}
