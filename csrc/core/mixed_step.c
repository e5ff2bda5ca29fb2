/* One served engine step (issue 29): decoding chats, each at its own context, beside
 * prefill chunks, priced from the primitives. A step's time covers:
 * - reading: the weights once, the routed experts the step's tokens pick by the expected-
 *   distinct rule (gs_step_read_bytes), and each sequence's cache at its context
 *   (gs_cache_bytes_at), one GPU's share of both as gs_cost shares them;
 * - computing: 2 operations per active weight for every token, the tables left out
 *   (the embedding is looked up), the output table once a sequence (engines compute logits
 *   for each sequence's last scheduled token: vLLM V1's logits_indices), and attention's
 *   scores and weighted sum, 2 + 2 operations per (token, earlier token) pair and unit of
 *   width a layer (Hoffmann et al., "Training Compute-Optimal Large Language Models",
 *   arXiv 2203.15556, Appendix F: logits and the softmax-weighted reduction, each
 *   2 x width a pair). The width is heads x head_dim; for a compressed latent (MLA) it is
 *   heads x the latent's width (its cache's numbers a layer a token), DeepSeek's absorbed
 *   form that engines decode with, taken for prefill too (an upper bound there). Sliding
 *   layers count each token's reach at most the window; their share of the layers is their
 *   share of the cache a token adds (the model holds no count of them). Note prefill.c's
 *   first word keeps Kaplan's 2 a pair (scores only) so the report's figures do not move;
 * - reading and computing overlap in part: busy = max + overlap_share x min, one stated
 *   parameter, 0 by default (today's rule: the larger), an engine's fitted share in serve
 *   (data/serving.json);
 * - the all-reduces (or hand-offs) of every token's hidden vector and the fixed costs a
 *   step and a layer, through gs_split_time, as a decode step pays them.
 * The compute runs at the fitted FLOP/s share when one is set (it was fitted on prefills)
 * and at the peak otherwise; FP8 weights compute at the FP8 peak when the setting says so
 * (gs_resolve puts that peak in g->flops), 4-bit ones at the FP4 peak, and either's output
 * table and attention at the 16-bit one (gs_compute_seconds_kept). */
#include <string.h>

#include "internal.h"

/* Sum over i = 1..t of min(c + i, w): each new token's reach when it attends at most w. */
static uint64_t capped_pairs(uint64_t c, uint64_t t, uint64_t w) {
  uint64_t below = w > c ? (w - c < t ? w - c : t) : 0; /* tokens whose reach c + i is at most w */
  return below * c + below * (below + 1) / 2 + (t - below) * w;
}

void gs_step_work_add(const gs_model *m, gs_step_work *w, uint64_t context, uint64_t tokens) {
  uint64_t window = m->window ? m->window : UINT64_MAX;
  w->seqs += 1;
  w->tokens += tokens;
  w->cache_full += context;
  w->cache_kept += context < window ? context : window;
  w->pairs_full += tokens * context + tokens * (tokens + 1) / 2;
  w->pairs_kept += capped_pairs(context, tokens, window);
}

void gs_step_work_sum(gs_step_work *w, const gs_step_work *add) {
  w->seqs += add->seqs;
  w->tokens += add->tokens;
  w->cache_full += add->cache_full;
  w->cache_kept += add->cache_kept;
  w->pairs_full += add->pairs_full;
  w->pairs_kept += add->pairs_kept;
}

/* The output table's operations for seqs sequences: logits once a sequence. */
double gs_output_ops(const gs_model *m, uint64_t seqs) { return (double)(2 * m->vocab * m->hidden) * (double)seqs; }

/* Operations a step's attention takes over all layers: the width above, the layers split
 * between every-token and sliding by their share of a token's cache. */
double gs_attention_ops(const gs_model *m, const gs_step_work *w) {
  double per_token = (double)(m->cache_full_bytes + m->cache_window_bytes), width, full_share;
  if (per_token == 0) return 0;
  full_share = (double)m->cache_full_bytes / per_token;
  /* a latent's numbers a layer a token: its 16-bit cache bytes / 2 / layers */
  width = m->cache_latent ? (double)m->heads * ((double)m->cache_full_bytes / 2 / (double)m->layers)
                          : (double)(m->heads * m->head_dim);
  return 4 * width * (double)m->layers *
         (full_share * (double)w->pairs_full + (1 - full_share) * (double)w->pairs_kept);
}

int gs_mixed_step(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double overlap_share,
                  const gs_step_work *w, gs_mixed_cost *out, gs_error *err) {
  uint64_t n = p->gpus, cache, bits = p->cache_bits ? p->cache_bits : 16;
  double longer, shorter, output;
  int protocol;
  memset(out, 0, sizeof *out);
  if (p->experts != GS_EXPERTS_SLICES)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "experts", "a step of spread experts is gs_mixed_step_spread's");
  if (w->tokens == 0 || w->seqs == 0) return gs_fail(err, GS_ERR_RANGE, "step", "a step computes at least one token");
  if (!(overlap_share >= 0 && overlap_share <= 1)) return gs_fail(err, GS_ERR_RANGE, "overlap_share", "must be from 0 to 1");
  cache = gs_cache_bytes_at(m, w->cache_full, w->cache_kept, bits);
  out->read_bytes = gs_ceil_div(gs_step_read_bytes(m, w->tokens), n) + gs_ceil_div(cache, gs_cache_parts(m, p));
  out->read = gs_read_seconds(out->read_bytes, g, &p->efficiency);
  output = gs_output_ops(m, w->seqs);
  out->gemm_ops = (double)(2 * (m->active_params - m->table_params)) * (double)w->tokens + output;
  out->attention_ops = gs_attention_ops(m, w);
  out->compute = gs_compute_seconds_kept(out->gemm_ops + out->attention_ops, output + out->attention_ops, n, g, &p->efficiency);
  longer = out->read >= out->compute ? out->read : out->compute;
  shorter = out->read >= out->compute ? out->compute : out->read;
  out->busy = overlap_share > 0 ? longer + overlap_share * shorter : longer;
  gs_split_time(m, g, l, p, out->busy, gs_message_bytes(m) * w->tokens, &out->time, &out->swap, &protocol);
  out->time.total = out->time.read + out->time.transfer;
  out->seconds = out->time.total;
  if (!(out->seconds > 0 && out->seconds <= GS_MAX_STEP_SECONDS))
    return gs_fail(err, GS_ERR_RANGE, "time", "a served step would take more than 1e24 seconds; use faster figures");
  return GS_OK;
}
