/* Expert parallelism (--experts spread, enum gs_experts): a mixture of experts served as
 * DeepSeek serves V3 (arXiv 2412.19437, section 3.4: attention data-parallel, the routed
 * experts spread one set a GPU) and as vLLM's --enable-expert-parallel does with data
 * parallelism. With n GPUs and E routed experts:
 * - each GPU holds E/n whole experts (E must divide evenly) and a copy of every other
 *   weight: attention, norms, tables, shared experts and dense layers;
 * - each GPU serves its own ceil(W/n) of the W chats and holds their caches whole;
 * - a step reads on each GPU every copied weight a word passes through, and of its own
 *   experts those the W words pick, by the expected-distinct rule (gs_routed_share) per GPU:
 *   E/n x (1 - (1 - k/E)^W) experts, but at least one whole expert a MoE layer, since the
 *   busiest GPU holds at least one picked expert whole (under slices every GPU reads a 1/n
 *   slice of each picked expert, so a few words cost spread more reading);
 * - it computes 2 operations per active weight for its ceil(W/n) words;
 * - in each MoE layer each token goes to the GPUs of its k experts and comes back: a
 *   dispatch and a combine, each an all-to-all in which every GPU sends
 *   ceil(W/n) x k x hidden x 2 bytes, (n-1)/n of them to other GPUs (the experts a token
 *   picks are taken as spread evenly), so W x k x hidden x 2 bytes leave all GPUs together.
 * NCCL runs an all-to-all as point-to-point sends to every peer at once (ncclSend/ncclRecv
 * in one group: nccl-tests' alltoall, whose bus bandwidth is (n-1)/n of the algorithm
 * bandwidth). It has no tuning model for them, so the time is one start-up (the link's
 * base latency and one step: each send is one hop) plus the bytes at the link's speed; the
 * bytes for GPUs in other servers cross the link between servers, at the same time as the
 * rest, so the slower of the two counts, with that link's step latency; the start-up a real
 * engine pays above the tables (gs_efficiency.allreduce_us) is paid once an all-to-all too.
 * Not priced, and refused by name: slices of experts mixed with groups of layers, overlap
 * (no all-reduce hides), a dense model, E not a multiple of n. */
#include "internal.h"

/* The chats the busiest GPU serves. */
uint64_t gs_spread_chats(const gs_plan *p) { return gs_ceil_div(p->words, p->gpus); }

/* Under slices-groups across servers each server is a pipeline stage holding its layers,
 * the experts spread over its GPUs (serve only: TensorRT-LLM's --pp_size beside
 * --ep_size and attention data parallel); else every GPU. */
uint64_t gs_spread_stage_gpus(const gs_plan *p) {
  uint64_t stages = p->split == GS_SLICES_GROUPS ? gs_plan_servers(p) : 1;
  return p->gpus / stages;
}

uint64_t gs_expert_ranks(const gs_plan *p) { return p->expert_ranks ? p->expert_ranks : gs_spread_stage_gpus(p); }

/* What the decode step and the first word price (step.c, prefill.c): whole experts on every
 * GPU under uniform routing. Fewer ranks of experts and a skew are the served step's only
 * (mixed_spread.c), refused here by name rather than priced as something else. */
int gs_spread_whole_check(const gs_plan *p, gs_error *err) {
  if (p->experts == GS_EXPERTS_SPREAD && p->split != GS_SLICES)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "experts", "spread experts in groups of layers are priced by serve only");
  if (p->experts == GS_EXPERTS_SPREAD && gs_expert_ranks(p) != p->gpus)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "expert_ranks", "experts cut over several GPUs are priced by serve only");
  if (p->skew != 0 && p->skew != 1)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "skew", "a routing skew is priced by serve only");
  return GS_OK;
}

int gs_spread_check(const gs_model *m, const gs_plan *p, gs_error *err) {
  uint64_t ranks = gs_expert_ranks(p);
  if (p->experts == GS_EXPERTS_SLICES && p->expert_ranks)
    return gs_fail(err, GS_ERR_RANGE, "expert_ranks", "ranks of experts are spread experts' only");
  /* sliced experts load every GPU alike; what a skew does to the experts they read is not priced */
  if (p->experts == GS_EXPERTS_SLICES && p->skew != 0)
    return gs_fail(err, GS_ERR_RANGE, "skew", "a routing skew is priced beside spread experts only");
  if (p->skew != 0 && !(p->skew >= 1 && p->skew <= (double)ranks))
    return gs_fail(err, GS_ERR_RANGE, "skew", "must be from 1 (uniform) to the %llu ranks of experts (all on one)",
                   (unsigned long long)ranks);
  if (p->experts == GS_EXPERTS_SLICES) return GS_OK;
  if (p->experts != GS_EXPERTS_SPREAD) return gs_fail(err, GS_ERR_RANGE, "experts", "must be slices or spread");
  if (m->experts == 0 || m->moe_layers == 0)
    return gs_fail(err, GS_ERR_SHAPE, "experts", "spread needs a mixture of experts; this %s model has none", m->type);
  if (p->split == GS_GROUPS)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "experts",
                   "spread is priced with --split slices, or slices-groups with the experts spread over each server's GPUs");
  if (p->split == GS_SLICES_GROUPS && gs_plan_servers(p) > 1 &&
      (p->gpus % p->per_server != 0 || p->expert_ranks || p->attention != GS_ATTENTION_DATA))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "experts",
                   "spread over each server's GPUs needs whole servers of --per-server GPUs, attention data-parallel and no "
                   "--expert-ranks");
  if (p->overlap) return gs_fail(err, GS_ERR_UNSUPPORTED, "experts", "spread runs no all-reduce for --overlap to hide");
  if (p->expert_ranks && gs_spread_stage_gpus(p) % p->expert_ranks != 0)
    return gs_fail(err, GS_ERR_SHAPE, "expert_ranks", "%llu ranks of experts do not divide the %llu GPUs",
                   (unsigned long long)p->expert_ranks, (unsigned long long)p->gpus);
  if (m->experts % ranks != 0)
    return gs_fail(err, GS_ERR_SHAPE, "experts", "%llu experts do not spread evenly over %llu %s", (unsigned long long)m->experts,
                   (unsigned long long)ranks, p->expert_ranks ? "ranks" : "GPUs");
  return GS_OK;
}

/* Bytes of the weights a GPU holds: every copied weight, and 1/n of the experts. */
uint64_t gs_spread_weights(const gs_model *m, uint64_t n) {
  return m->stored_bytes - m->routed_bytes + gs_ceil_div(m->routed_bytes, n);
}

/* Bytes of weights one GPU reads when `tokens` tokens pass: the copied weights a word
 * passes through, and its experts that the tokens pick, at least one a MoE layer. */
uint64_t gs_spread_read_bytes(const gs_model *m, uint64_t n, uint64_t tokens) {
  return m->stored_bytes - m->unread_bytes - m->routed_bytes + gs_spread_routed_bytes(m, n, 1, tokens, 1);
}

/* Of those, its own experts that the tokens pick, at least one expert a MoE layer, the
 * rank's E/ranks experts each cut over `cut` GPUs: a GPU reads 1/cut of each its rank's
 * tokens pick (one rank of all n GPUs, cut n, is experts sliced: gs_step_read_bytes's
 * routed share over n). */
uint64_t gs_spread_routed_bytes(const gs_model *m, uint64_t ranks, uint64_t cut, uint64_t tokens, double skew) {
  uint64_t routed;
  double held = (double)(m->experts / ranks), picked = held * gs_routed_share_skewed(m, tokens, skew), x;
  if (picked < 1) picked = 1;
  x = picked * ((double)m->routed_bytes / (double)m->experts);
  if (cut > 1) x /= (double)cut;
  routed = (uint64_t)x;
  if ((double)routed < x) routed++;
  return routed;
}

/* One all-to-all in which each of the ring's GPUs sends `size` bytes, spread evenly over
 * all of them (itself included): (g - 1)/n of them over the link within its server,
 * (n - g)/n over the link between servers, at once. */
double gs_all_to_all(uint64_t size, const gs_ring *r, double *bytes_within, double *bytes_between) {
  uint64_t n = r->gpus, g = n / r->servers;
  double within = (double)size * (double)(g - 1) / (double)n, between = (double)size * (double)(n - g) / (double)n;
  double step = r->servers > 1 ? r->between->step_us : r->intra->step_us, t = within / r->intra->bandwidth;
  if (bytes_within) *bytes_within = within;
  if (bytes_between) *bytes_between = between;
  if (n <= 1) return 0;
  if (r->servers > 1 && between / r->between->bandwidth > t) t = between / r->between->bandwidth;
  return (r->intra->base_us + step + r->extra_us) * 1e-6 + t;
}
