/* One served engine step under spread experts (issue 29 item 4; gs_mixed_step_spread),
 * the routed experts held E/n whole a GPU (csrc/core/experts.c), attention beside them
 * laid out one of two ways (enum gs_attention):
 * - data: each of the n GPUs is an attention rank with its own requests, its own step's
 *   work and its own caches whole (a latent or a head's cache is not cut), holding a copy
 *   of every weight but the routed experts. The ranks' steps are joined by every MoE layer:
 *   each rank's tokens are sent to their experts' GPUs and back (gs_split_time's
 *   all-to-all, a dispatch and a combine a MoE layer), so no rank runs ahead, and a rank
 *   with nothing to do still runs its share (vLLM's docs, serving/data_parallel_deployment:
 *   "expert layers across all ranks are required to synchronize during every forward
 *   pass", with "dummy" passes on idle ranks). The step lasts as its slowest rank's: the
 *   copied weights it reads, its own caches, its own tokens' operations, plus the expert
 *   part every rank shares. The all-to-all sends the busiest rank's tokens (the slowest
 *   sender sets it);
 * - slices: tensor parallelism over the n GPUs for attention and every copied weight (each
 *   reads 1/n of them and its share of the caches as gs_cost shares them), the tokens of
 *   the one step on every GPU, the experts spread: after each layer the slices' all-reduce
 *   of every token's hidden vector, as under experts sliced (SGLang's --tp N --ep N and
 *   vLLM's -tp N --enable-expert-parallel combine the experts' outputs by that all-reduce).
 * The expert part, on each GPU, whichever the attention: its own experts that the step's
 * T tokens (all ranks') pick, by the expected-distinct rule, at least one whole expert a
 * MoE layer (gs_spread_routed_bytes), and 2 operations per routed weight a token uses, k of
 * E experts, for T tokens shared evenly over the n GPUs (routing uniform by default: every
 * expert as likely; a skew below). Each rank's busy time is the overlap form of the
 * mixed step (max + overlap_share x min); fixed costs as gs_split_time pays them.
 *
 * Experts spread over fewer ranks than GPUs (p->expert_ranks, EP < n): E/EP experts a rank
 * of n/EP GPUs, each expert cut over them as slices cut a weight (TensorRT-LLM's
 * moe_expert_parallel_size EP with moe_tensor_parallel_size n/EP, as `--tp_size 8
 * --ep_size 4` sets; EP 1 is every expert cut over all n GPUs, SGLang's --enable-dp-attention
 * without --ep-size). A GPU reads 1/(n/EP) of each of its rank's experts the T tokens pick
 * and computes 1/n of the expert operations, as above. The tokens reach the experts:
 * - under attention slices, every GPU holds every token already, and the slices'
 *   all-reduce after each layer combines the experts' outputs, as with EP = n;
 * - under attention data, every rank's tokens are gathered to every GPU before the MoE and
 *   its outputs all-reduced after (SGLang's dp_gather, then the MoE's all-reduce and a
 *   local dp_scatter: sgl-project/sglang pull 22642 describes that combine path), priced
 *   as the slices' all-reduces of all T tokens after each layer (gs_split_time): an all-
 *   gather moves half an all-reduce's bytes, so with the dense layers' all-reduce this
 *   is the same two a layer; no all-to-all is sent.
 *
 * A skewed router (p->skew, S: the busiest expert rank's share of the routed tokens over
 * the mean; serve's --skew): the step waits for the busiest rank, whose GPUs compute S
 * times the mean expert operations, read the experts a token picks S times as often as
 * uniform routing would (gs_routed_share_skewed), and under the all-to-all receive S
 * times the mean tokens (the slower of the busiest sender and receiver sets it). The
 * all-reduces move every token whatever the skew. DeepSeek balances its experts'
 * load by placing copies of the hottest (arXiv 2412.19437, section 3.4, redundant
 * experts); S is what is left after such balancing, the engine's max over mean. */
#include <string.h>

#include "internal.h"

uint64_t gs_attention_ranks(const gs_plan *p) {
  return p->experts == GS_EXPERTS_SPREAD && p->attention == GS_ATTENTION_DATA ? gs_spread_stage_gpus(p) : 1;
}

/* 2 operations a copied weight a token (the tables left out), the output table once a
 * sequence: mixed_step.c's GEMM operations less the routed experts'. */
static double copied_ops(const gs_model *m, const gs_step_work *w, double routed_active) {
  return 2 * ((double)(m->active_params - m->table_params) - routed_active) * (double)w->tokens + gs_output_ops(m, w->seqs);
}

static int check(const gs_plan *p, double overlap_share, const gs_step_work *w, uint64_t ranks, uint64_t *total,
                 uint64_t *most, gs_error *err) {
  uint64_t r;
  if (p->experts != GS_EXPERTS_SPREAD) return gs_fail(err, GS_ERR_UNSUPPORTED, "experts", "this step is spread experts' only");
  if (ranks != gs_attention_ranks(p))
    return gs_fail(err, GS_ERR_RANGE, "ranks", "%llu works for %llu attention ranks", (unsigned long long)ranks,
                   (unsigned long long)gs_attention_ranks(p));
  if (!(overlap_share >= 0 && overlap_share <= 1)) return gs_fail(err, GS_ERR_RANGE, "overlap_share", "must be from 0 to 1");
  if (p->gpus == 0 || p->gpus % gs_expert_ranks(p) != 0)
    return gs_fail(err, GS_ERR_SHAPE, "expert_ranks", "%llu ranks of experts do not divide the %llu GPUs",
                   (unsigned long long)gs_expert_ranks(p), (unsigned long long)p->gpus);
  *total = *most = 0;
  for (r = 0; r < ranks; r++) {
    *total += w[r].tokens;
    if (w[r].tokens > *most) *most = w[r].tokens;
  }
  if (*total == 0) return gs_fail(err, GS_ERR_RANGE, "step", "a step computes at least one token");
  return GS_OK;
}

int gs_mixed_step_spread(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double overlap_share,
                         const gs_step_work *w, uint64_t ranks, gs_mixed_cost *out, gs_error *err) {
  uint64_t n = p->gpus, bits = p->cache_bits ? p->cache_bits : 16, total = 0, most = 0, r, copied, experts, parts;
  uint64_t ranks_of_experts = gs_expert_ranks(p), sent;
  double skew = p->skew > 1 ? p->skew : 1;
  int data = p->attention == GS_ATTENTION_DATA, protocol, rc, all_to_all = data && ranks_of_experts == n;
  double routed_active, expert_ops, expert_compute, worst = -1;
  struct {
    uint64_t bytes;
    double read, compute, busy;
  } idle = {0, 0, 0, 0};
  int idle_priced = 0;
  gs_plan joined = *p;
  memset(out, 0, sizeof *out);
  if ((rc = check(p, overlap_share, w, ranks, &total, &most, err)) != GS_OK) return rc;
  copied = m->stored_bytes - m->unread_bytes - m->routed_bytes;
  if (!data) copied = gs_ceil_div(copied, n);
  experts = gs_spread_routed_bytes(m, ranks_of_experts, n / ranks_of_experts, total, skew);
  parts = data ? 1 : gs_cache_parts(m, p);
  routed_active = (double)m->routed_params * (double)m->experts_per_token / (double)m->experts;
  expert_ops = 2 * routed_active * (double)total;
  expert_compute = gs_compute_seconds(skew > 1 ? expert_ops * skew : expert_ops, n, g, &p->efficiency);
  for (r = 0; r < ranks; r++) {
    uint64_t bytes;
    double ops, attention, read, compute, longer, shorter, busy;
    /* a rank with nothing this step (its dummy pass) costs as every other such rank: priced
     * once a step, as a serve of many ranks and few requests holds most of them idle */
    int empty = w[r].tokens == 0 && w[r].seqs == 0 && w[r].cache_full == 0;
    if (idle_priced && empty) {
      if (idle.busy > worst) worst = idle.busy, out->read_bytes = idle.bytes, out->read = idle.read, out->compute = idle.compute;
      continue;
    }
    bytes = copied + experts + gs_ceil_div(gs_cache_bytes_at(m, w[r].cache_full, w[r].cache_kept, bits), parts);
    ops = copied_ops(m, &w[r], routed_active), attention = gs_attention_ops(m, &w[r]);
    read = gs_read_seconds(bytes, g, &p->efficiency);
    compute = gs_compute_seconds_kept(ops + attention, gs_output_ops(m, w[r].seqs) + attention, data ? 1 : n, g, &p->efficiency) +
              expert_compute;
    longer = read >= compute ? read : compute, shorter = read >= compute ? compute : read;
    busy = overlap_share > 0 ? longer + overlap_share * shorter : longer;
    out->gemm_ops += ops;
    out->attention_ops += attention;
    if (busy > worst) worst = busy, out->read_bytes = bytes, out->read = read, out->compute = compute;
    if (empty)
      idle_priced = 1, idle.bytes = bytes, idle.read = read, idle.compute = compute, idle.busy = busy;
  }
  out->gemm_ops += expert_ops;
  out->busy = worst;
  if (!all_to_all) joined.experts = GS_EXPERTS_SLICES; /* the slices' all-reduces of every token */
  sent = all_to_all ? most : total;
  if (all_to_all && skew > 1) { /* the busiest receiver's tokens, when more than the busiest sender's */
    double hot = skew * (double)total / (double)n;
    uint64_t in = (uint64_t)hot + ((double)(uint64_t)hot < hot);
    if (in > sent) sent = in;
  }
  gs_split_time(m, g, l, &joined, worst, gs_message_bytes(m) * sent, &out->time, &out->swap, &protocol);
  out->time.total = out->time.read + out->time.transfer;
  out->seconds = out->time.total;
  if (!(out->seconds > 0 && out->seconds <= GS_MAX_STEP_SECONDS))
    return gs_fail(err, GS_ERR_RANGE, "time", "a served step would take more than 1e24 seconds; use faster figures");
  return GS_OK;
}
