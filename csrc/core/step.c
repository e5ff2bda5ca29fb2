/* The decode step (gs_cost): memory per GPU, the bytes each GPU reads, its compute, the
 * step's time as the split arranges it (split.c), and the first word (prefill.c). It
 * composes the primitives (primitives.c) and calls down only. */
#include <string.h>

#include "internal.h"


/* Weights are shared out evenly, the cache as above; working memory (lesson 18: 2,048
 * tokens through the widest feed-forward block and four hidden-wide buffers, at 16 bits,
 * plus 1 GiB) is not shared. */
static void memory_per_gpu(const gs_model *m, const gs_plan *p, gs_memory *out) {
  out->weights = gs_ceil_div(m->stored_bytes, p->gpus);
  out->cache = gs_ceil_div(gs_plan_cache_bytes(m, p) * gs_held_chats(p), gs_cache_parts(m, p));
#ifndef GS_LESSON_ONLY
  /* spread experts (csrc/core/experts.c): copies of all but the experts, and the busiest
   * GPU's own chats' caches whole (the lesson's one chat on one GPU) */
  if (p->experts == GS_EXPERTS_SPREAD) {
    out->weights = gs_spread_weights(m, p->gpus);
    out->cache = gs_plan_cache_bytes(m, p) * (p->cache_per_chat ? gs_spread_chats(p) : 1);
  }
#endif
  out->working = gs_working_bytes(m);
  out->total = out->weights + out->cache + out->working;
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
#ifndef GS_LESSON_ONLY
  if ((rc = gs_spread_whole_check(p, err)) != GS_OK) return rc;
#endif
  if (p->nccl == GS_NCCL_AUTO && g->arch == GS_ARCH_NONE)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "nccl", "auto needs an NVIDIA GPU generation, and this GPU has none (AMD's run RCCL, whose tables differ)");
  memset(out, 0, sizeof *out);
  memory_per_gpu(m, p, &out->memory);
  servers = gs_plan_servers(p);
  out->servers = servers;
  out->usable_bytes = gs_usable_bytes(g);
  out->fits = out->memory.total <= out->usable_bytes;
  read_bytes = gs_ceil_div(gs_step_read_bytes(m, p->words), n);
  if (p->read_cache) read_bytes += gs_ceil_div(gs_plan_cache_read_bytes(m, p) * p->words, gs_cache_parts(m, p));
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
    out->read_bytes = gs_spread_read_bytes(m, n, p->words) + (p->read_cache ? gs_plan_cache_read_bytes(m, p) * chats : 0);
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


