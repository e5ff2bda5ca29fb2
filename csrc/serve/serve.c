/* A served load on a deployment (gs_serve_run): the cache pool each instance gets from
 * the memory its weights leave, the requests shared round-robin over the replicas (a
 * router that sends each new request to the next copy), each copy simulated by its
 * engine's scheduler (scheduler.c), and the requests' times gathered into distributions
 * (stats.c). The engine's step figures are fitted to measured serving runs (data/serving.json). */
#include <string.h>

#include "internal.h"

/* Each GPU holds its share of the weights (as gs_cost's memory: 1/n of them, split by
 * slices or by groups; under spread experts every weight but the experts and E/n of those)
 * and a pool of cache blocks in what the engine's share leaves:
 * - vLLM: share x memory - weights - working memory (it profiles activations inside it);
 * - SGLang: share x memory - weights (activations live outside its static share);
 * - TensorRT-LLM: share x (memory - weights - working memory).
 * The working memory is the lesson's estimate (gs_working_bytes). A block holds
 * block_tokens tokens of every layer's cache, the sliding layers' too (vLLM's hybrid
 * allocator frees what slides out of the window; not modelled), shared into the same
 * parts as a chat's cache (gs_cache_parts); under attention data parallel each GPU is an
 * attention rank with a pool of its own, its chats' caches whole. */
int gs_serve_pool(const gs_model *m, const gs_gpu *g, const gs_plan *p, const gs_scheduler *e, uint64_t *blocks,
                  gs_error *err) {
  double memory = g->gib * (double)GS_GIB, weights = (double)gs_ceil_div(m->stored_bytes, p->gpus);
  double working = (double)gs_working_bytes(m), pool;
  uint64_t bits = p->cache_bits ? p->cache_bits : 16;
  uint64_t block = gs_ceil_div(gs_cache_bytes_at(m, e->block_tokens, e->block_tokens, bits), gs_cache_parts(m, p));
  if (p->experts == GS_EXPERTS_SPREAD && p->attention == GS_ATTENTION_DATA) {
    /* copies of all but the experts (experts.c); an attention rank holds its own chats'
     * caches whole; in a pipeline a stage's GPUs hold its 1/S of the layers: of the copied
     * weights and of each cache (the layers cut evenly, as pipeline.c prices them) */
    uint64_t stages = gs_pipeline_stages(p);
    weights = (double)(gs_ceil_div(m->stored_bytes - m->routed_bytes, stages) + gs_ceil_div(m->routed_bytes, p->gpus));
    block = gs_ceil_div(gs_cache_bytes_at(m, e->block_tokens, e->block_tokens, bits), stages);
  } else if (p->experts == GS_EXPERTS_SPREAD) { /* attention sliced: 1/n of the rest, E/n experts */
    weights = (double)(gs_ceil_div(m->stored_bytes - m->routed_bytes, p->gpus) + gs_ceil_div(m->routed_bytes, p->gpus));
  }
  if (e->share_of_free) pool = e->memory_share * (memory - weights - working);
  else pool = e->memory_share * memory - weights - (e->activations_inside ? working : 0);
  *blocks = 0;
  if (block == 0) return gs_fail(err, GS_ERR_UNSUPPORTED, "model", "keeps no attention cache to pool");
  if (!(pool >= (double)block))
    return gs_fail(err, GS_ERR_NONE_FITS, "memory_share", "the weights leave no room for the cache on %llu GPUs at this share",
                   (unsigned long long)p->gpus);
  *blocks = (uint64_t)(pool / (double)block);
  return GS_OK;
}

/* Request i's prompt and output tokens. */
static uint64_t prompt_of(const gs_load *l, size_t i) { return l->pairs ? l->prompts[i % l->pairs] : l->prompt_tokens; }
static uint64_t output_of(const gs_load *l, size_t i) { return l->pairs ? l->outputs[i % l->pairs] : l->output_tokens; }

/* The load's longest prompt, longest request and all its tokens. */
static void load_extent(const gs_load *l, uint64_t *max_prompt, uint64_t *max_request, uint64_t *all) {
  size_t i, n = l->pairs ? (l->pairs < l->requests ? l->pairs : (size_t)l->requests) : 1;
  *max_prompt = *max_request = *all = 0;
  for (i = 0; i < n; i++) {
    uint64_t p = prompt_of(l, i), o = output_of(l, i);
    if (p > *max_prompt) *max_prompt = p;
    if (p + o > *max_request) *max_request = p + o;
  }
  if (!l->pairs) *all = l->requests * (l->prompt_tokens + l->output_tokens);
  for (i = 0; l->pairs && i < l->requests; i++) *all += prompt_of(l, i) + output_of(l, i);
}

uint64_t gs_serve_request_steps(const gs_scheduler *e, uint64_t prompt, uint64_t output) {
  uint64_t budget = e->max_batched_tokens;
  return output + (e->chunked && budget > 0 && budget < prompt ? (prompt + budget - 1) / budget : 1);
}

/* The most steps the load can take: every step carries at least one decode token or one
 * prompt chunk of each chat it holds, so a request costs at most its output tokens plus
 * its prompt's chunks; the simulation's work grows with this, not with the prompt tokens. */
static uint64_t load_steps(const gs_load *l, const gs_scheduler *e) {
  uint64_t steps = 0;
  size_t i;
  for (i = 0; i < l->requests; i++) {
    steps += gs_serve_request_steps(e, prompt_of(l, i), output_of(l, i));
    if (!l->pairs) return steps * l->requests;
  }
  return steps;
}

static int check_args(uint64_t replicas, uint64_t ranks, uint64_t flight, const gs_scheduler *e, const gs_load *load,
                      const gs_serve_space *sp, gs_error *err) {
  if (load->requests < 1 || load->requests > GS_SERVE_MAX_REQUESTS || load->requests > sp->cap)
    return gs_fail(err, GS_ERR_RANGE, "requests", "must be from 1 to %llu", (unsigned long long)GS_SERVE_MAX_REQUESTS);
  uint64_t max_prompt, max_request, all;
  if (!load->pairs &&
      (load->prompt_tokens < 1 || load->output_tokens < 1 || load->prompt_tokens + load->output_tokens > GS_MAX_CHAT_TOKENS))
    return gs_fail(err, GS_ERR_RANGE, "tokens", "a prompt and an output of at least 1 token, together at most %llu",
                   (unsigned long long)GS_MAX_CHAT_TOKENS);
  load_extent(load, &max_prompt, &max_request, &all);
  /* every step computes at least one token, so this bounds the steps a run takes (4.3e9 at
   * most, minutes at one request in flight; a benchmark's load is under 1e8) */
  if (all > GS_SERVE_MAX_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "requests", "requests x (prompt + output tokens) must be at most %llu",
                   (unsigned long long)GS_SERVE_MAX_TOKENS);
  if (replicas < 1 || replicas > load->requests)
    return gs_fail(err, GS_ERR_RANGE, "replicas", "must be from 1 to the requests");
  if (ranks > GS_SERVE_MAX_RANKS)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "gpus", "attention data parallel is simulated on at most %d ranks, not %llu",
                   GS_SERVE_MAX_RANKS, (unsigned long long)ranks);
  if (flight > GS_SERVE_MAX_RANKS)
    return gs_fail(err, GS_ERR_RANGE, "in_flight", "a pipeline is simulated with at most %d micro-batches in flight, not %llu",
                   GS_SERVE_MAX_RANKS, (unsigned long long)flight);
  if (ranks * flight > GS_SERVE_MAX_RANKS)
    return gs_fail(err, GS_ERR_RANGE, "in_flight", "attention ranks x micro-batches in flight are simulated up to %d, not %llu",
                   GS_SERVE_MAX_RANKS, (unsigned long long)(ranks * flight));
  /* fewer in flight than attention ranks keeps that many ranks busy (rank_args) */
  if (load->kind == GS_LOAD_CLOSED && (load->concurrency < replicas * flight || load->concurrency > load->requests))
    return gs_fail(err, GS_ERR_RANGE, "concurrency", "must be from the replicas%s (%llu) to the requests",
                   flight > 1 ? " times the micro-batches in flight" : "", (unsigned long long)(replicas * flight));
  if (load->kind == GS_LOAD_OPEN && !(load->rate > 0 && load->rate <= 1e9))
    return gs_fail(err, GS_ERR_RANGE, "rate", "must be above 0 and at most 1e9 requests a second");
  if (e->max_batched_tokens < 1 || e->block_tokens < 1 || !(e->memory_share > 0 && e->memory_share <= 1))
    return gs_fail(err, GS_ERR_RANGE, "engine", "limits must be at least 1 and the memory share above 0 and at most 1");
  if (!e->chunked && max_prompt > e->max_batched_tokens)
    return gs_fail(err, GS_ERR_RANGE, "max_batched_tokens", "a prompt of %llu tokens does not fit a step of %llu without chunks",
                   (unsigned long long)max_prompt, (unsigned long long)e->max_batched_tokens);
  if (load_steps(load, e) > GS_SERVE_MAX_STEPS)
    return gs_fail(err, GS_ERR_RANGE, "requests",
                   "each request's output tokens plus its prompt's chunks, over all requests, must be at most %llu "
                   "(a run then answers in under a second)",
                   (unsigned long long)GS_SERVE_MAX_STEPS);
  if (ranks > 1 && load->kind != GS_LOAD_OPEN) {
    /* a copy's ranks all step while any of its requests does: with fewer in flight than
     * ranks, its load's steps come at most that many a step, each step counting every rank */
    uint64_t per_copy = (load->kind == GS_LOAD_CLOSED ? load->concurrency : load->requests) / replicas;
    double work = (double)load_steps(load, e) * (double)ranks / (double)(per_copy > 0 ? per_copy : 1);
    if (per_copy < ranks && work > (double)GS_SERVE_MAX_RANK_STEPS)
      return gs_fail(err, GS_ERR_RANGE, "requests",
                     "%llu in flight a copy keep its %llu attention ranks stepping past the %llu steps of ranks a run may "
                     "take; keep more in flight or send fewer requests",
                     (unsigned long long)per_copy, (unsigned long long)ranks, GS_SERVE_MAX_RANK_STEPS);
  }
  return GS_OK;
}

/* The micro-batches a served pipeline keeps in flight: the plan's in_flight, or by default
 * one a stage, at most GS_SERVE_MAX_RANKS, and under a closed loop at most the requests
 * each copy keeps in flight (a micro-batch with none would never get one); 1 without groups. */
static uint64_t flight_of(const gs_plan *p, const gs_load *load, uint64_t replicas) {
  uint64_t stages = gs_pipeline_stages(p), most = GS_SERVE_MAX_RANKS;
  if (stages == 1) return 1;
  if (p->in_flight) return p->in_flight;
  if (load->kind == GS_LOAD_CLOSED && replicas > 0 && load->concurrency / replicas < most) most = load->concurrency / replicas;
  if (most < 1) most = 1;
  return stages < most ? stages : most;
}

/* Replica r's requests (i = r, r + R, ...) shared round-robin over its attention ranks:
 * rank d's list, running list and waiting ring in ids at off, n + off and 2n + off; a
 * closed loop's share of the concurrency in flight from the start, the rest released as
 * its own requests end. A closed loop of C in flight below the ranks keeps C ranks busy,
 * one request each, and the others idle: a router's round-robin would move each next
 * request on to the next rank, but every rank runs every step (the idle ones dummy
 * passes; mixed_spread.c), so which ranks are busy does not change a step's price. */
static void rank_args(const gs_load *load, gs_serve_space *sp, uint64_t replicas, size_t r, uint64_t ranks,
                      gs_serve_sim_args *a) {
  size_t n = (size_t)load->requests, d, i, k, off = 0;
  uint64_t mine = load->concurrency / replicas + (r < load->concurrency % replicas);
  uint64_t busy = load->kind == GS_LOAD_CLOSED && mine < ranks ? mine : ranks;
  for (d = 0; d < ranks; d++) {
    size_t mine_n = 0, conc = 0;
    uint32_t *ids = sp->ids + off;
    for (i = r, k = 0; i < n && d < busy; i += replicas, k++)
      if (k % busy == d) ids[mine_n++] = (uint32_t)i;
    if (load->kind == GS_LOAD_CLOSED && d < busy) {
      conc = (size_t)(mine / busy + (d < mine % busy));
      for (i = conc; i < mine_n; i++) sp->reqs[ids[i]].arrival = -1;
    }
    a[d].mine = ids, a[d].run = ids + n, a[d].wait = ids + 2 * n, a[d].mine_n = mine_n, a[d].released = conc;
    off += mine_n;
  }
}

/* Each request reaches the engine's scheduler request_us after it is sent (its front end:
 * received, tokenized, handed over); summarize measures from the sending, as a client does. */
static void front_end(const gs_scheduler *e, const gs_load *load, gs_serve_space *sp) {
  size_t i;
  for (i = 0; i < (size_t)load->requests; i++) sp->reqs[i].arrival += e->request_us * 1e-6;
}

/* Every replica's requests run, a pipeline with `flight` micro-batches in flight (the one
 * count serve_run divided the pool by); the result's step counts, pool and in-flight area. */
static int run_replicas(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t replicas,
                        uint64_t flight, const gs_scheduler *e, const gs_load *load, gs_serve_space *sp, uint64_t pool,
                        gs_serve_result *out, double *area, gs_error *err) {
  gs_serve_sim_args a[GS_SERVE_MAX_RANKS];
  uint64_t ranks = gs_attention_ranks(p), lanes = ranks * flight, stages = gs_pipeline_stages(p);
  gs_plan pass = *p;
  size_t r, d;
  int rc;
  *area = 0;
  if (ranks > 1 && stages > 1) {
    /* spread experts in a pipeline: a micro-batch's pass through every stage is priced as
     * the ranks' step over one stage's GPUs through every layer (each stage's layers, in
     * turn), the hand-offs between stages added by gs_serve_pipeline */
    pass.gpus = ranks;
    pass.split = GS_SLICES;
    pass.per_server = 0;
    p = &pass;
  }
  gs_load_fill(load, sp->reqs);
  front_end(e, load, sp);
  memset(sp->itl, 0, sizeof *sp->itl);
  for (r = 0; r < replicas; r++) {
    memset(a, 0, sizeof a);
    for (d = 0; d < lanes; d++) {
      a[d].m = m, a[d].g = g, a[d].l = l, a[d].p = p, a[d].e = e, a[d].load = load, a[d].reqs = sp->reqs;
      a[d].pool = pool, a[d].out = out, a[d].itl = sp->itl;
    }
    rank_args(load, sp, replicas, r, lanes, a);
    rc = flight > 1 || (stages > 1 && ranks > 1) ? gs_serve_pipeline(a, (size_t)flight, (size_t)ranks, stages, err)
                                                 : gs_serve_instance(a, (size_t)ranks, err);
    if (rc != GS_OK) return rc;
    for (d = 0; d < lanes; d++) *area += a[d].area;
  }
  return GS_OK;
}

/* One role's layout as a run takes it: its plan (the served step's FLOP/s share in it), its
 * engine's limits as run, its pool of blocks and its attention ranks (serve_run, prepare). */
typedef struct {
  gs_plan plan;
  gs_scheduler engine;
  uint64_t pool, ranks;
} role;

/* Prefill and decode on separate copies (disagg.c): request i prefilled by copy i mod P and
 * decoded by copy i mod D, on the rank of that copy gs_disagg_lane names (one but under
 * attention data parallel), each role in its own layout (pre, dec); in ids, the prefill
 * lanes' lists (3 n), the decode lanes' (3 n), their hand-offs on the way (n) and the
 * requests finishing a step (n); the outputs kept in scratch while the prefill copies see
 * one token each. */
static int run_disagg(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_disagg *dg, const role *pre,
                      const role *dec, const gs_load *load, gs_serve_space *sp, gs_serve_result *out, double *area,
                      gs_error *err) {
  gs_serve_sim_args a[GS_SERVE_MAX_RANKS];
  gs_serve_disagg_args d;
  gs_load batch = *load;
  size_t n = (size_t)load->requests, prefill = (size_t)dg->prefill, decode = (size_t)dg->decode;
  size_t pre_ranks = (size_t)pre->ranks, dec_ranks = (size_t)dec->ranks, first_decode = prefill * pre_ranks;
  size_t lanes = first_decode + decode * dec_ranks, v, i, side, off[2] = {0, 0}, held[GS_SERVE_MAX_RANKS];
  uint64_t servers_hold = dec->plan.per_server ? dec->plan.per_server : UINT64_MAX;
  uint64_t all_gpus = dg->prefill * pre->plan.gpus + dg->decode * dec->plan.gpus;
  uint64_t links = pre->plan.gpus < dec->plan.gpus ? pre->plan.gpus : dec->plan.gpus;
  const gs_link *link = all_gpus <= servers_hold ? l : &dec->plan.between;
  int rc;
  batch.kind = GS_LOAD_BATCH; /* arrivals and releases are the deployment's (disagg.c) */
  gs_load_fill(load, sp->reqs);
  front_end(&dec->engine, load, sp);
  memset(sp->itl, 0, sizeof *sp->itl);
  memset(a, 0, sizeof a);
  memset(&d, 0, sizeof d);
  memset(held, 0, sizeof held);
  d.released = load->kind == GS_LOAD_CLOSED ? (size_t)load->concurrency : n;
  for (i = 0; i < n; i++) {
    sp->scratch[i] = (double)sp->reqs[i].output;
    sp->reqs[i].output = 1;
    if (i >= d.released) sp->reqs[i].arrival = -1;
    for (side = 0; side < 2; side++) held[gs_disagg_lane(i, prefill, decode, pre_ranks, dec_ranks, (int)side)]++;
  }
  for (v = 0; v < lanes; v++) {
    int is_decode = v >= first_decode;
    const role *x = is_decode ? dec : pre;
    uint32_t *mine = sp->ids + (is_decode ? 3 * n : 0) + off[is_decode];
    a[v].m = m, a[v].g = g, a[v].l = l, a[v].p = &x->plan, a[v].e = &x->engine, a[v].load = &batch, a[v].reqs = sp->reqs;
    a[v].pool = x->pool, a[v].out = out, a[v].itl = sp->itl;
    a[v].mine = mine, a[v].run = mine + n, a[v].wait = mine + 2 * n, a[v].mine_n = 0;
    off[is_decode] += held[v];
  }
  for (i = 0; i < n; i++) /* each lane's requests in arrival order */
    for (side = 0; side < 2; side++) {
      gs_serve_sim_args *x = &a[gs_disagg_lane(i, prefill, decode, pre_ranks, dec_ranks, (int)side)];
      x->mine[x->mine_n++] = (uint32_t)i;
    }
  d.a = a, d.prefill = prefill, d.decode = decode, d.ranks = pre_ranks, d.decode_ranks = dec_ranks, d.requests = n;
  d.landing_offset = 3 * n, d.finishing = sp->ids + 7 * n, d.outputs = sp->scratch;
  d.link_seconds = link->base_us * 1e-6;
  /* sliced, each GPU of the smaller copy sends or takes its share over its own link; under
   * attention data parallel a request's cache is whole on its rank's one GPU, and goes over
   * that GPU's link */
  d.link_bytes_per_s = (double)(pre_ranks > 1 || dec_ranks > 1 ? 1 : links) * link->bandwidth;
  d.cache_bits = dec->plan.cache_bits ? dec->plan.cache_bits : 16;
  if ((rc = gs_serve_disagg(&d, err)) != GS_OK) return rc;
  for (*area = 0, v = 0; v < lanes; v++) *area += a[v].area;
  return GS_OK;
}

/* The requests' figures: each distribution, the deployment's rates; each request's times
 * from its sending, front seconds before it reached the engine (front_end). */
static void summarize(const gs_load *load, gs_serve_space *sp, double area, double front, gs_serve_result *out) {
  size_t n = (size_t)load->requests, i, k = 0;
  double end = 0, start = sp->reqs[0].arrival, out_tokens = 0, in_tokens = 0;
  for (i = 0; i < n; i++) {
    const gs_serve_req *q = &sp->reqs[i];
    if (q->finish > end) end = q->finish;
    if (q->arrival < start) start = q->arrival;
    out_tokens += (double)q->output;
    in_tokens += (double)q->prompt;
  }
  out->duration = end - (start - front);
  for (i = 0; i < n; i++) sp->scratch[i] = (sp->reqs[i].first_token - sp->reqs[i].arrival) + front;
  gs_dist_of(sp->scratch, n, &out->ttft);
  for (i = 0; i < n; i++) sp->scratch[i] = (sp->reqs[i].finish - sp->reqs[i].arrival) + front;
  gs_dist_of(sp->scratch, n, &out->e2e);
  area += front * (double)n; /* each request in flight, as its client counts, from its sending */
  for (i = 0; i < n; i++)
    if (sp->reqs[i].output > 1)
      sp->scratch[k++] = (sp->reqs[i].finish - sp->reqs[i].first_token) / (double)(sp->reqs[i].output - 1);
  gs_dist_of(sp->scratch, k, &out->tpot);
  gs_itl_dist(sp->itl, &out->itl);
  out->output_tokens_per_s = out_tokens / out->duration;
  out->total_tokens_per_s = (out_tokens + in_tokens) / out->duration;
  out->requests_per_s = (double)n / out->duration;
  out->mean_in_flight = area / out->duration;
}

/* A role's engine and layout made ready (serve_run): the engine's limits for this load as it
 * runs them, the checks of the load and the layout, the pool, the served step's FLOP/s share
 * in the plan, the caps shared over its attention ranks, the one-request check. */
static int prepare(const gs_model *m, const gs_gpu *g, const gs_plan *p, uint64_t replicas, uint64_t flight,
                   const gs_scheduler *e, const gs_load *load, gs_serve_space *space, role *x, gs_error *err) {
  uint64_t max_prompt, max_request, all, ranks = gs_attention_ranks(p);
  int rc;
  x->engine = *e;
  x->plan = *p;
  x->ranks = ranks;
  if (e->bench_limits) { /* trtllm-bench's limits for this load (bench_limits.c) */
    if (e->kind != GS_ENGINE_TRTLLM)
      return gs_fail(err, GS_ERR_UNSUPPORTED, "limits", "trtllm-bench sets TensorRT-LLM's limits only, not %s's",
                     gs_engine_name(e->kind));
    if ((rc = gs_bench_limits(m, g, p, e, load, &x->engine.max_seqs, &x->engine.max_batched_tokens, err)) != GS_OK) return rc;
  }
  if (e->kind == GS_ENGINE_VLLM && !e->chunked && e->max_batched_tokens == 0) {
    /* vLLM 0.6 without chunked prefill takes max(max_model_len, 2048) (engine.c, max_len.c) */
    if (m->max_len == 0)
      return gs_fail(err, GS_ERR_UNSUPPORTED, "max_batched_tokens",
                     "vLLM without chunked prefill takes it from the model's max_model_len, which this config does not "
                     "give as vLLM 0.6 reads it; give the tokens a step computes");
    x->engine.max_batched_tokens = m->max_len > 2048 ? m->max_len : 2048;
  }
  e = &x->engine;
  if ((rc = gs_engine_runs_model(e, m, err)) != GS_OK || (rc = check_args(replicas, ranks, flight, e, load, space, err)) != GS_OK ||
      (rc = gs_plan_check(m, p, err)) != GS_OK ||
      (rc = gs_serve_pool(m, g, p, e, &x->pool, err)) != GS_OK)
    return rc;
  if (gs_pipeline_stages(p) > GS_SERVE_MAX_STAGES)
    return gs_fail(err, GS_ERR_RANGE, "stages", "a served pipeline has at most %d stages", GS_SERVE_MAX_STAGES);
  x->pool /= flight; /* each micro-batch's scheduler its share of the pool (pipeline.c) */
  if (e->flops_share > 0) x->plan.efficiency.flops_share = e->flops_share; /* a served step's own share */
  if (e->limits_shared) { /* the engine's limits shared out over its attention ranks (engine.c) */
    x->engine.max_seqs = e->max_seqs / ranks > 0 || e->max_seqs == 0 ? e->max_seqs / ranks : 1;
    x->engine.max_batched_tokens = e->max_batched_tokens / ranks > 0 ? e->max_batched_tokens / ranks : 1;
  }
  if (x->engine.max_seqs == 0) x->engine.max_seqs = x->pool * e->block_tokens / 2 > 0 ? x->pool * e->block_tokens / 2 : 1;
  load_extent(load, &max_prompt, &max_request, &all);
  if (gs_ceil_div(max_request, e->block_tokens) > x->pool)
    return gs_fail(err, GS_ERR_NONE_FITS, "pool", "one request's %llu tokens need more than the %llu blocks of %llu tokens the pool holds",
                   (unsigned long long)max_request, (unsigned long long)x->pool, (unsigned long long)e->block_tokens);
  return GS_OK;
}

/* saturate: an open loop's sustainable rate from a saturated pass first (gs_serve_run);
 * 0: the load alone (gs_serve_run_only, the plan's searches, which know the rate). */
static int serve_run(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t replicas,
                     const gs_disagg *dg, const gs_scheduler *e, const gs_load *load, gs_serve_space *space,
                     gs_serve_result *out, int saturate, gs_error *err) {
  uint64_t ranks = gs_attention_ranks(p), flight = flight_of(p, load, replicas), pre_ranks = ranks;
  gs_plan pre_plan = *p;
  role dec, pre;
  double area, sustainable = 0;
  int rc;
  memset(out, 0, sizeof *out);
  if (dg && dg->prefill_gpus) pre_plan.gpus = dg->prefill_gpus, pre_ranks = gs_attention_ranks(&pre_plan);
  if (e->scheduler_steps > 1 && (e->kind != GS_ENGINE_VLLM || e->chunked || dg || flight > 1 ||
                                 (gs_pipeline_stages(p) > 1 && ranks > 1)))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "scheduler_steps",
                   "several scheduler steps are simulated for vLLM without chunked prefill on one engine a copy (no "
                   "micro-batches in flight or prefill copies), as vLLM 0.6 ran them");
  if (dg && (flight > 1 || replicas != 1 || dg->prefill < 1 || dg->decode < 1 || dg->prefill > GS_SERVE_MAX_RANKS / pre_ranks ||
             dg->decode > (GS_SERVE_MAX_RANKS - dg->prefill * pre_ranks) / ranks || gs_pipeline_stages(&pre_plan) > 1))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "disaggregate",
                   "prefill and decode copies, at least 1 each and, times each copy's attention ranks, %d in all at "
                   "most, are simulated for one engine a copy (no replicas or groups)",
                   GS_SERVE_MAX_RANKS);
  if ((rc = prepare(m, g, p, replicas, flight, e, load, space, &dec, err)) != GS_OK) return rc;
  if (dg && (rc = prepare(m, g, &pre_plan, replicas, flight, dg->prefill_engine ? dg->prefill_engine : e, load, space, &pre,
                          err)) != GS_OK)
    return rc;
  if (load->kind == GS_LOAD_OPEN && saturate) {
    /* what the deployment completes saturated: the same requests all sent at once */
    gs_load batch = *load;
    batch.kind = GS_LOAD_BATCH;
    rc = dg ? run_disagg(m, g, l, dg, &pre, &dec, &batch, space, out, &area, err)
            : run_replicas(m, g, l, &dec.plan, replicas, flight, &dec.engine, &batch, space, dec.pool, out, &area, err);
    if (rc != GS_OK) return rc;
    summarize(&batch, space, area, 0, out); /* from the engine's first arrival: a front end adds no work */
    sustainable = out->requests_per_s;
    memset(out, 0, sizeof *out);
  }
  rc = dg ? run_disagg(m, g, l, dg, &pre, &dec, load, space, out, &area, err)
          : run_replicas(m, g, l, &dec.plan, replicas, flight, &dec.engine, load, space, dec.pool, out, &area, err);
  if (rc != GS_OK) return rc;
  summarize(load, space, area, dec.engine.request_us * 1e-6, out);
  out->gpus = dg ? dg->prefill * pre.plan.gpus + dg->decode * p->gpus : p->gpus * replicas;
  out->prefill_copies = dg ? dg->prefill : 0;
  out->decode_copies = dg ? dg->decode : 0;
  out->prefill_gpus = dg ? pre.plan.gpus : 0;
  out->pool_blocks = dec.pool;
  out->pool_tokens = dec.pool * dec.engine.block_tokens;
  out->max_seqs = dec.engine.max_seqs;
  out->max_batched_tokens = dec.engine.max_batched_tokens;
  out->ranks = ranks;
  out->stages = gs_pipeline_stages(p);
  out->in_flight = flight;
  out->sustainable_rate = sustainable;
  out->overloaded = load->kind == GS_LOAD_OPEN && saturate && load->rate > sustainable;
  return GS_OK;
}

uint64_t gs_serve_copy_gpus(const gs_serve_result *r, uint64_t replicas) {
  return r->prefill_copies ? (r->gpus - r->prefill_copies * r->prefill_gpus) / r->decode_copies : r->gpus / replicas;
}

int gs_serve_run(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t replicas,
                 const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out, gs_error *err) {
  return serve_run(m, g, l, p, replicas, NULL, e, load, space, out, 1, err);
}

int gs_serve_run_disagg(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const gs_disagg *d,
                        const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out, gs_error *err) {
  return serve_run(m, g, l, p, 1, d, e, load, space, out, 1, err);
}

int gs_serve_run_disagg_only(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const gs_disagg *d,
                             const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out,
                             gs_error *err) {
  return serve_run(m, g, l, p, 1, d, e, load, space, out, 0, err);
}

int gs_serve_run_only(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t replicas,
                      const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out, gs_error *err) {
  return serve_run(m, g, l, p, replicas, NULL, e, load, space, out, 0, err);
}
