/* Time to the first word (issue 19): the prefill of the prompts of the plan's words
 * chats, sent together, before the step that gives each chat its first word.
 *
 * - Compute: 2 operations per active weight per prompt token, and attention's scores and
 *   weighted sum over the tokens before each one. Kaplan et al., "Scaling Laws for Neural
 *   Language Models" (arXiv 2001.08361), Table 1: a forward pass costs 2N + 2 n_layer
 *   n_ctx d_attn operations a token, N leaving out the embedding; the i-th token of a
 *   causal prompt sees i tokens, so a prompt of P tokens costs 2N P + n_layer d_attn
 *   P (P + 1). The tables are not multiplied by every token: the embedding is looked up,
 *   and the output table gives logits for a prompt's last token only (vLLM's
 *   LogitsProcessor and TensorRT-LLM's default, gather_context_logits off), 2 vocab x
 *   hidden once a prompt. d_attn is heads x
 *   head_dim; sliding windows are not taken off (an upper bound for such layers) and for
 *   MLA head_dim is the value head's width (an approximation). 8-bit or 4-bit weights at
 *   the FP8 or FP4 peak leave the output table and attention at the 16-bit one
 *   (gs_compute_seconds_kept).
 * - Reading: the weights once (all routed experts that the P x W tokens pick), at the
 *   achieved bandwidth; reading and computing overlap, so the longer counts.
 * - Transfers: each layer's two all-reduces of P x W x hidden x 2 bytes under slices (or
 *   one hand-off of them under groups), through the plan's all-reduce rule: with
 *   --nccl auto these large messages take NCCL's Simple or LL128 protocol and the link's
 *   bandwidth decides them.
 * Spread experts (--experts spread) prefill each GPU's own chats and send their prompts'
 * tokens to their experts and back, as a decode step does (csrc/core/experts.c).
 * The achieved FLOP/s share, bandwidth share, fixed cost a layer and all-reduce start-up
 * of the plan's gs_efficiency apply as in a decode step, and a served request's fixed cost
 * (request_us) once: a server receives, tokenizes and schedules the request and sends the
 * word back (NIM's first tokens at one chat of 200 tokens wait 5 to 10 ms more than their
 * prefill, shared runs S8). */
#include "internal.h"

/* The operations of chats prompts of prompt tokens each (the sum above); in *kept, those of
 * the output table and attention, which an 8-bit or 4-bit checkpoint leaves at 16 bits (primitives.c,
 * gs_compute_seconds_kept). */
static double prefill_ops(const gs_model *m, uint64_t prompt, uint64_t chats, double *kept) {
  double p = (double)prompt, c = (double)chats, output = gs_output_ops(m, chats);
  double attention = c * (double)m->layers * (double)(m->heads * m->head_dim) * p * (p + 1);
  *kept = output + attention;
  return (double)(2 * (m->active_params - m->table_params)) * p * c + output + attention;
}

int gs_first_word(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double *seconds, gs_error *err) {
  uint64_t n = p->gpus, tokens, bytes, size;
  double ops, kept, read, compute, busy, swap;
  gs_time time;
  int protocol, rc;
  *seconds = 0;
  if (p->prompt_tokens == 0) return GS_OK;
  if ((rc = gs_spread_whole_check(p, err)) != GS_OK) return rc;
  tokens = p->prompt_tokens * p->words; /* gs_plan_check bounds it */
  ops = prefill_ops(m, p->prompt_tokens, p->words, &kept);
  bytes = gs_step_read_bytes(m, tokens);
  read = gs_read_seconds(bytes / n + (bytes % n != 0), g, &p->efficiency);
  compute = gs_compute_seconds_kept(ops, kept, n, g, &p->efficiency);
  size = gs_message_bytes(m) * tokens;
  if (p->experts == GS_EXPERTS_SPREAD) {
    /* spread experts (csrc/core/experts.c): each GPU prefills its own chats' prompts, whole,
     * reading its copies and the experts all the prompts' tokens pick */
    uint64_t chats = gs_spread_chats(p);
    read = gs_read_seconds(gs_spread_read_bytes(m, n, tokens), g, &p->efficiency);
    ops = prefill_ops(m, p->prompt_tokens, chats, &kept);
    compute = gs_compute_seconds_kept(ops, kept, 1, g, &p->efficiency);
    size = gs_message_bytes(m) * p->prompt_tokens * chats;
  }
  busy = read >= compute ? read : compute;
  gs_split_time(m, g, l, p, busy, size, &time, &swap, &protocol);
  *seconds = time.read + time.transfer + p->efficiency.request_us * 1e-6;
  if (!(*seconds <= GS_MAX_STEP_SECONDS))
    return gs_fail(err, GS_ERR_RANGE, "prompt_tokens", "the first word would take more than 1e24 seconds; use fewer tokens");
  return GS_OK;
}
