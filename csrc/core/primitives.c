/* The primitives of the cost model: the constants, the bytes a chat's cache and a step's
 * weights take, the bytes one GPU holds beside them, seconds to read and to compute, and
 * one all-reduce or hand-off. Pure arithmetic after the lesson's gpu_split.py, on the
 * totals a gs_model holds. Each floating-point expression keeps the reference code's order
 * of operations, so results agree with it bit for bit (and the native build with the
 * WebAssembly one: only + - * / on IEEE doubles, no libm). Everything above calls down to
 * these: the checks (checks.c), the split's step (split.c), experts (experts.c), the
 * prefill (prefill.c) and the decode step (step.c). */
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


/* The most tokens a chat's cache may hold: a bound that keeps every cache total within
 * 64 bits for any model the reader accepts (configs say 8K to 1M). */
const uint64_t GS_MAX_CHAT_TOKENS = 16777216;

uint64_t gs_plan_servers(const gs_plan *p) {
  return p->per_server == 0 || p->gpus <= p->per_server ? 1 : p->gpus / p->per_server + (p->gpus % p->per_server != 0);
}

uint64_t gs_plan_batches(const gs_plan *p) { return p->in_flight > 1 ? p->in_flight : 1; }


uint64_t gs_plan_tokens(const gs_plan *p) { return p->chat_tokens ? p->chat_tokens : GS_CHAT_TOKENS; }
static uint64_t plan_cache_bits(const gs_plan *p) { return p->cache_bits ? p->cache_bits : 16; }

/* What the GPUs swap after each split step for one word: its hidden vector. */
uint64_t gs_message_bytes(const gs_model *m) { return m->hidden * WORD_BYTES; }

/* The reference truncates int(GPU_GIB * GIB * USABLE); gs_gpu_check keeps it in range. */
uint64_t gs_usable_bytes(const gs_gpu *g) { return (uint64_t)(g->gib * (double)GS_GIB * g->usable); }

/* One chat's attention cache (lesson 18: GS_CHAT_TOKENS tokens): the layers that keep
 * every token, and the sliding layers, each keeping at most its window. For a Llama
 * shape this is the lesson's 2 x layers x kv_heads x head_dim x 2 bytes x 8192. */
uint64_t gs_cache_bytes_per_token(const gs_model *m) { return m->cache_full_bytes + m->cache_window_bytes; }
uint64_t gs_swaps_per_word(const gs_model *m) { return GS_ALL_REDUCES_PER_LAYER * m->layers; }

uint64_t gs_chat_cache_bytes(const gs_model *m) {
  uint64_t kept = m->window < GS_CHAT_TOKENS ? m->window : GS_CHAT_TOKENS;
  return m->cache_full_bytes * GS_CHAT_TOKENS + m->cache_window_bytes * kept;
}

/* One chat's cache as the plan holds it: its tokens (--chat-tokens), each number at its
 * bits (--cache-bits), rounded up to a whole byte; the model's figures are at 16 bits.
 * bytes16 x bits / 16 is taken as q x bits + r x bits / 16 so that no product overflows. */
uint64_t gs_plan_cache_bytes(const gs_model *m, const gs_plan *p) {
  uint64_t tokens = gs_plan_tokens(p), kept = m->window < tokens ? m->window : tokens;
  return gs_cache_bytes_at(m, tokens, kept, plan_cache_bits(p));
}


/* DeepSeek Sparse Attention (families/deepseek_v32.c): each layer's indexer scores every
 * earlier token by its own key, and attention reads the latent of the read_topk best, so a
 * step reads every token's indexer key and at most read_topk tokens' latent. Within
 * gs_plan_cache_bytes, so nothing it sums can overflow. */
uint64_t gs_plan_cache_read_bytes(const gs_model *m, const gs_plan *p) {
  uint64_t tokens = gs_plan_tokens(p), bits = plan_cache_bits(p), kept = m->window < tokens ? m->window : tokens, bytes16;
  if (m->read_topk == 0 || m->read_topk >= tokens) return gs_plan_cache_bytes(m, p);
  bytes16 = (m->cache_full_bytes - m->cache_index_bytes) * m->read_topk + m->cache_index_bytes * tokens + m->cache_window_bytes * kept;
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

/* The same share for experts that each word picks `skew` times as often as uniform
 * routing would (the busiest rank's under a skewed router): each is missed by a word
 * with probability 1 - skew x k/E, every one picked once that is 0 or less. skew 1 is
 * gs_routed_share, bit for bit. */
double gs_routed_share_skewed(const gs_model *m, uint64_t words, double skew) {
  double pick;
  if (!(skew > 1)) return gs_routed_share(m, words);
  pick = skew * (double)m->experts_per_token / (double)m->experts;
  return pick >= 1 ? 1 : 1 - power(1 - pick, words);
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
uint64_t gs_held_chats(const gs_plan *p) { return (p->cache_per_chat ? p->words : 1) * gs_plan_batches(p); }


/* check_model (config.c) keeps this within 64 bits. */
uint64_t gs_working_bytes(const gs_model *m) {
  return GS_ACTIVATION_TOKENS * (3 * m->ffn_width + 4 * m->hidden) * 2 + GS_OVERHEAD_GIB * GS_GIB;
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


/* Seconds to read bytes at that rate. The peak's expression is the lesson's (bytes over
 * the bandwidth), untouched when the share is off. */
double gs_read_seconds(uint64_t bytes, const gs_gpu *g, const gs_efficiency *e) { return (double)bytes / gs_read_rate(g, e); }

/* Seconds for one of n GPUs to do its 1/n of ops operations at the FLOP/s (achieved). */
double gs_compute_seconds(double ops, uint64_t n, const gs_gpu *g, const gs_efficiency *e) {
  if (e->flops_share > 0) return ops / ((double)n * (g->flops * e->flops_share));
  return ops / ((double)n * g->flops);
}

/* The same for ops operations of which `kept` are those an 8-bit or 4-bit (W8A8, W4A4)
 * checkpoint leaves at 16 bits, which run at g->flops16 while the rest run at the FP8 or FP4
 * peak in g->flops, at the same achieved share. NVIDIA's ModelOpt, which makes the FP8 and
 * NVFP4 checkpoints, quantizes the linear layers (FP8_DEFAULT_CFG: their weights and inputs)
 * but not the output table, and of attention only the cache's keys and values
 * (NVIDIA/TensorRT-Model-Optimizer modelopt/torch/quantization/config.py @0991404:
 * _default_disabled_quantizer_cfg, in every config, holds "*lm_head*": {"enable": False};
 * FP8_KV_CFG quantizes "*[kv]_bmm_quantizer" only): so the output table multiplies at 16 bits,
 * and attention's scores and weighted sums take 16-bit queries, whatever the cache holds.
 * Without a 16-bit peak apart (every other setting) the sum as gs_compute_seconds prices it,
 * unmoved. */
double gs_compute_seconds_kept(double ops, double kept, uint64_t n, const gs_gpu *g, const gs_efficiency *e) {
  gs_gpu sixteen;
  if (!(BEYOND_WIDGET && g->flops16 > 0 && kept > 0)) return gs_compute_seconds(ops, n, g, e);
  sixteen = *g;
  sixteen.flops = g->flops16;
  return gs_compute_seconds(ops - kept, n, g, e) + gs_compute_seconds(kept, n, &sixteen, e);
}
