/* An engine instance's scheduler, simulated step by step (issue 29), after vLLM V1's
 * (vllm/v1/core/sched/scheduler.py): each step first gives the running requests, in the
 * order they were admitted, the tokens they still need (a decode 1, a chunked prefill up
 * to the token budget left), then admits waiting requests first come first served while
 * the budget, the cap on sequences and the cache pool allow. A running request that needs
 * a block when the pool is empty preempts the last admitted one, whose cache is dropped
 * and recomputed later (vLLM's default); a step that preempted admits none. A sequence
 * samples its next token when the step has computed every token it holds.
 * Engine variations (gs_scheduler): SGLang's steps prefill or decode, never both (a step
 * prefills when any prompt can start or continue, else it decodes every running request);
 * TensorRT-LLM reserves a request's whole prompt and output when it starts, never
 * preempting, and runs each prompt whole (no chunks) within its token budget.
 * vLLM 0.6 without chunked prefill (--enable-chunked-prefill=False) prefills whole prompts
 * in a step of their own and pauses the decodes, as SGLang's steps do ("Don't schedule
 * decodes if prefills are scheduled", vllm/core/scheduler.py _schedule_default @ v0.6.3).
 * Its multi-step scheduling (--num-scheduler-steps S) runs a decode batch, once scheduled,
 * S steps before the scheduler runs again, each sequence given cache blocks for S tokens
 * when it is scheduled (num_lookahead_slots S - 1), a prefill step one step
 * (vllm/core/scheduler.py _get_num_lookahead_slots, vllm/sequence.py
 * init_multi_step_from_lookahead_slots, vllm/engine/llm_engine.py _has_remaining_steps, all
 * @ v0.6.3, ROCm/vllm v0.6.3+rocm): arrivals wait for the window's end. A sequence done
 * within a window is done for its client at once, but the batch is fixed for the window
 * (the engine reschedules only when the cached batch has no steps left), so it is computed
 * to the window's end, its tokens dropped (vllm/engine/output_processor/multi_step.py
 * truncates them), and its cache freed when the scheduler runs again.
 * Each step is priced by gs_mixed_step; nothing else advances time but arrivals. */
#include <string.h>

#include "internal.h"

#include "sim.h"

static uint64_t blocks_for(const sim *s, uint64_t tokens) { return gs_ceil_div(tokens, s->e->block_tokens); }

static void wait_push(sim *s, uint32_t id, int front) {
  size_t cap = s->mine_n;
  if (front) s->wait_head = (s->wait_head + cap - 1) % cap;
  s->wait[front ? s->wait_head : (s->wait_head + s->wait_n) % cap] = id;
  s->wait_n++;
  s->reqs[id].state = 1;
}

/* Requests whose time has come join the queue, in arrival order. A closed loop's later
 * requests have no arrival (-1) until a completion releases them (sim_finish_step). */
void sim_arrive(sim *s) {
  while (s->next < s->mine_n) {
    gs_serve_req *q = &s->reqs[s->mine[s->next]];
    if (q->arrival < 0 || q->arrival > s->now) break;
    wait_push(s, s->mine[s->next], 0);
    s->in_system++;
    s->next++;
  }
}

void sim_enqueue(sim *s, uint32_t id) {
  wait_push(s, id, 0);
  s->in_system++;
}

/* Drops the last running request's cache and sends it to the front of the queue. */
static void preempt_last(sim *s) {
  uint32_t id = s->run[--s->run_n];
  gs_serve_req *q = &s->reqs[id];
  s->free_blocks += q->blocks;
  q->blocks = 0;
  q->computed = 0;
  q->step_tokens = 0;
  q->preempted++;
  s->out->preemptions++;
  wait_push(s, id, 1);
}

/* 1 while the request still has prompt to compute (not one token of a decode). */
static int prefilling(const gs_serve_req *q) { return q->generated == 0 || q->prompt + q->generated - q->computed > 1; }

/* The running requests' tokens this step, each with blocks for `ahead` tokens more (a
 * multi-step window's lookahead); returns 1 if it preempted. */
static int schedule_running(sim *s, uint64_t *budget, int phase, uint64_t ahead, gs_step_work *w) {
  size_t i;
  int preempted = 0;
  for (i = 0; i < s->run_n && *budget > 0; i++) {
    uint32_t id = s->run[i];
    gs_serve_req *q = &s->reqs[id];
    uint64_t need = q->prompt + q->generated - q->computed, t = need < *budget ? need : *budget, want;
    if (q->state == 4) { /* done within the window: a token computed and dropped (its blocks held) */
      q->step_tokens = 1;
      gs_step_work_add(s->m, w, q->computed, 1);
      continue;
    }
    if (phase >= 0 && prefilling(q) != phase) continue;
    want = blocks_for(s, q->computed + t + ahead);
    while (want > q->blocks && want - q->blocks > s->free_blocks && s->run[s->run_n - 1] != id) {
      preempt_last(s);
      preempted = 1;
    }
    if (want > q->blocks && want - q->blocks > s->free_blocks) { /* itself the last: it waits */
      preempt_last(s);
      return 1;
    }
    if (want > q->blocks) {
      s->free_blocks -= want - q->blocks;
      q->blocks = want;
    }
    q->step_tokens = t;
    *budget -= t;
    gs_step_work_add(s->m, w, q->computed, t);
  }
  return preempted;
}

/* Waiting requests admitted, first come first served, while everything allows. */
static void admit(sim *s, uint64_t *budget, gs_step_work *w) {
  while (*budget > 0 && s->wait_n > 0 && s->run_n < s->e->max_seqs) {
    uint32_t id = s->wait[s->wait_head];
    gs_serve_req *q = &s->reqs[id];
    uint64_t need = q->prompt + q->generated - q->computed, t = need < *budget ? need : *budget;
    /* computed: 0 but for a request handed over with its prompt's cache (disagg.c) */
    uint64_t want = s->e->reserve_full ? blocks_for(s, q->prompt + q->output) : blocks_for(s, q->computed + t);
    if ((!s->e->chunked && need > *budget) || want > s->free_blocks) break;
    s->wait_head = (s->wait_head + 1) % s->mine_n;
    s->wait_n--;
    s->free_blocks -= want;
    q->blocks = want;
    q->state = 2;
    q->step_tokens = t;
    *budget -= t;
    s->run[s->run_n++] = id;
    gs_step_work_add(s->m, w, q->computed, t);
  }
}

/* 1 when the head of the queue could start now (SGLang's choice of a prefill step). */
static int can_admit(const sim *s) {
  const gs_serve_req *q;
  uint64_t need;
  if (s->wait_n == 0 || s->run_n >= s->e->max_seqs) return 0;
  q = &s->reqs[s->wait[s->wait_head]];
  need = q->prompt + q->generated - q->computed;
  /* SGLang's PrefillAdder starts a prompt only when the pool holds all of it, not only its
   * first chunk (python/sglang/srt/managers/schedule_policy.py: rem_total_tokens against the
   * input's length): a prompt admitted by its first chunk alone could find no room for its
   * next, be preempted and start again, over and over. computed is 0 but for a request
   * handed over with its prompt's cache (disagg.c). */
  return blocks_for(s, q->computed + need) <= s->free_blocks;
}

/* Builds the next step; w->tokens is 0 when nothing can run. Returns 0 when the step only
 * decodes the running requests (an engine whose steps prefill or decode), else 1. */
int sim_build_step(sim *s, gs_step_work *w) {
  uint64_t budget = s->e->max_batched_tokens;
  int phase = -1, preempted; /* -1: both; 1: prefill only; 0: decode only */
  size_t i;
  memset(w, 0, sizeof *w);
  if (!s->e->mixed) {
    phase = can_admit(s);
    for (i = 0; i < s->run_n && !phase; i++) phase = prefilling(&s->reqs[s->run[i]]) && s->reqs[s->run[i]].computed > 0;
    if (!phase) budget = UINT64_MAX; /* a decode batch takes every running request */
  }
  /* a decode batch of a multi-step scheduling holds blocks for the window's tokens ahead */
  preempted = schedule_running(s, &budget, phase, phase == 0 && s->e->scheduler_steps > 1 ? s->e->scheduler_steps - 1 : 0, w);
  if (!preempted && phase != 0) admit(s, &budget, w);
  return phase != 0;
}

/* The next step of a multi-step window: the running requests decode, none is admitted. */
static void build_window_step(sim *s, gs_step_work *w) {
  uint64_t budget = UINT64_MAX;
  memset(w, 0, sizeof *w);
  schedule_running(s, &budget, 0, 0, w);
}

/* After the step: the tokens computed, a token sampled where a sequence is whole, the
 * finished released (and, closed loop, their successors). */
void sim_finish_step(sim *s) {
  size_t i, kept = 0;
  for (i = 0; i < s->run_n; i++) {
    uint32_t id = s->run[i];
    gs_serve_req *q = &s->reqs[id];
    q->computed += q->step_tokens;
    q->step_tokens = 0;
    if (q->state == 4) { /* computed to the window's end (close_window) */
      s->run[kept++] = id;
      continue;
    }
    if (q->computed == q->prompt + q->generated) {
      q->generated++;
      if (q->generated == 1) q->first_token = s->now;
      else gs_itl_add(s->itl, s->now - q->last_token);
      q->last_token = s->now;
    }
    if (q->generated < q->output) {
      s->run[kept++] = id;
      continue;
    }
    q->finish = s->now;
    q->state = s->window ? 4 : 3;
    if (s->window) s->run[kept++] = id; /* still in the window's batch */
    else s->free_blocks += q->blocks, q->blocks = 0;
    s->done++;
    s->in_system--;
    /* a closed loop's next request, sent as this one ends, reaches the engine after its front end */
    if (s->load->kind == GS_LOAD_CLOSED && s->released < s->mine_n)
      s->reqs[s->mine[s->released++]].arrival = s->now + s->e->request_us * 1e-6;
  }
  s->run_n = kept;
}

/* The end of a multi-step window: the requests done within it leave the batch, their cache freed. */
static void close_window(sim *s) {
  size_t i, kept = 0;
  for (i = 0; i < s->run_n; i++) {
    gs_serve_req *q = &s->reqs[s->run[i]];
    if (q->state != 4) {
      s->run[kept++] = s->run[i];
      continue;
    }
    q->state = 3;
    s->free_blocks += q->blocks;
    q->blocks = 0;
  }
  s->run_n = kept;
  s->window = 0;
}

/* 1 when no rank holds or waits for anything; *next the earliest arrival to come (-1: none). */
int sim_all_idle(const sim *s, size_t ranks, double *next) {
  size_t r;
  *next = -1;
  for (r = 0; r < ranks; r++) {
    const sim *x = &s[r];
    if (x->run_n > 0 || x->wait_n > 0) return 0;
    if (x->next < x->mine_n && x->reqs[x->mine[x->next]].arrival >= 0) {
      double t = x->reqs[x->mine[x->next]].arrival;
      if (*next < 0 || t < *next) *next = t;
    }
  }
  return 1;
}

/* The step's price: the mixed step, or under spread experts the ranks' joined step; the
 * host's work for each sequence held, the busiest rank's (each rank's host runs its own),
 * in c->seconds and alone in *host. */
int sim_price_step(const sim *s, const gs_step_work *w, size_t ranks, gs_mixed_cost *c, double *host, gs_error *err) {
  uint64_t seqs = 0;
  size_t r;
  int rc = s->p->experts == GS_EXPERTS_SPREAD ? gs_mixed_step_spread(s->m, s->g, s->l, s->p, s->e->overlap_share, w, ranks, c, err)
                                              : gs_mixed_step(s->m, s->g, s->l, s->p, s->e->overlap_share, w, c, err);
  for (r = 0; r < ranks; r++)
    if (w[r].seqs > seqs) seqs = w[r].seqs;
  *host = s->e->seq_us * 1e-6 * (double)seqs;
  c->seconds += *host;
  return rc;
}

int sim_guard(const gs_serve_result *out, gs_error *err) {
  if (out->rank_steps > GS_SERVE_MAX_RANK_STEPS)
    return gs_fail(err, GS_ERR_RANGE, "requests", "the run passed %llu steps of attention ranks, idle ones counted: the load "
                   "keeps few of the ranks busy for long; send fewer requests or more at once", GS_SERVE_MAX_RANK_STEPS);
  if (out->steps <= 4 * (uint64_t)GS_SERVE_MAX_STEPS) return GS_OK;
  return gs_fail(err, GS_ERR_NONE_FITS, "pool", "the run passed %llu steps: preemptions keep undoing the work (a pool too small "
                 "for the requests in flight)", 4 * (unsigned long long)GS_SERVE_MAX_STEPS);
}

/* The ranks' step done: time advanced on every rank, tokens computed, the pool's peak. */
void sim_advance_ranks(sim *s, const gs_step_work *w, size_t ranks, double seconds, gs_serve_result *out) {
  size_t r;
  out->steps++;
  out->rank_steps += ranks;
  for (r = 0; r < ranks; r++) {
    if (w[r].tokens == 0 && s[r].run_n == 0 && s[r].in_system == 0) { /* idle: only its clock moves */
      s[r].now += seconds;
      continue;
    }
    s[r].area += (double)s[r].in_system * seconds;
    s[r].now += seconds;
    out->computed_tokens += w[r].tokens;
    if (s[r].pool - s[r].free_blocks > s[r].peak) s[r].peak = s[r].pool - s[r].free_blocks;
    sim_finish_step(&s[r]);
  }
}

/* The step in which half the copy's requests were done, once, as the typical one: its
 * cost and its ranks' work summed. */
void sim_typical(uint64_t done, uint64_t mine, const gs_mixed_cost *c, const gs_step_work *w, size_t ranks, int *noted,
                 gs_serve_result *out) {
  size_t r;
  if (*noted || done < (mine + 1) / 2) return;
  *noted = 1;
  out->typical = *c;
  out->typical_work = w[0];
  for (r = 1; r < ranks; r++) gs_step_work_sum(&out->typical_work, &w[r]);
}

/* After the run: the pool's peak into the result, each instance's area into its args. */
void sim_close(const sim *s, size_t n, gs_serve_sim_args *a) {
  size_t r;
  for (r = 0; r < n; r++) {
    if (s[r].peak > a->out->peak_blocks) a->out->peak_blocks = s[r].peak;
    a[r].area = s[r].area;
  }
}

void sim_init(sim *s, const gs_serve_sim_args *a) {
  memset(s, 0, sizeof *s);
  s->m = a->m, s->g = a->g, s->l = a->l, s->p = a->p, s->e = a->e, s->load = a->load;
  s->reqs = a->reqs, s->mine = a->mine, s->run = a->run, s->wait = a->wait, s->mine_n = a->mine_n;
  s->released = a->released, s->pool = s->free_blocks = a->pool, s->out = a->out, s->itl = a->itl;
}

int sim_idle(const sim *s) {
  if (s->run_n > 0 || s->wait_n > 0) return 0;
  if (s->next < s->mine_n) {
    double t = s->reqs[s->mine[s->next]].arrival;
    if (t >= 0 && t <= s->now) return 0;
  }
  return 1;
}

int sim_skip_idle(const sim *s, size_t ranks, gs_step_work *w) {
  if (ranks < 2 || !sim_idle(s)) return 0;
  memset(w, 0, sizeof *w);
  return 1;
}

/* Runs one engine copy, its `ranks` attention ranks in lock step (one but under attention
 * data parallel), until their requests are done; fills the result's step counts, and the
 * step in which half the copy's requests were done as the typical one. */
int gs_serve_instance(gs_serve_sim_args *a, size_t ranks, gs_error *err) {
  sim s[GS_SERVE_MAX_RANKS];
  gs_step_work w[GS_SERVE_MAX_RANKS];
  gs_mixed_cost c;
  size_t r, mine = 0;
  uint64_t done, window = 0; /* window: decode steps left of a multi-step scheduling (one rank) */
  int rc, empty = 0, typical = 0, prefills = 0;
  if (ranks < 1 || ranks > GS_SERVE_MAX_RANKS) return gs_fail(err, GS_ERR_RANGE, "ranks", "must be from 1 to %d", GS_SERVE_MAX_RANKS);
  if (ranks > 1 && a->e->scheduler_steps > 1)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "scheduler_steps", "several scheduler steps are simulated on one attention rank");
  for (r = 0; r < ranks; r++) sim_init(&s[r], &a[r]), mine += a[r].mine_n;
  for (done = 0; done < mine;) {
    double next, host;
    uint64_t tokens = 0;
    for (r = 0, prefills = 0; r < ranks; r++) {
      s[r].now = s[0].now;
      if (sim_skip_idle(&s[r], ranks, &w[r])) continue; /* what sim_arrive and sim_build_step would find: nothing */
      if (window > 0) {
        build_window_step(&s[r], &w[r]);
      } else {
        sim_arrive(&s[r]);
        prefills |= sim_build_step(&s[r], &w[r]);
      }
      tokens += w[r].tokens;
    }
    if (window > 0) window--;
    else if (!prefills && tokens > 0 && a->e->scheduler_steps > 1) window = a->e->scheduler_steps - 1;
    s[0].window = window > 0; /* the step's requests done within the window stay in it */
    if (tokens == 0) {
      if (sim_all_idle(s, ranks, &next) && next >= 0) {
        s[0].now = next; /* idle until the next arrival */
        continue;
      }
      if (++empty > 2)
        return gs_fail(err, GS_ERR_NONE_FITS, "pool", "no request can run: the cache pool of %llu blocks cannot hold one",
                       (unsigned long long)s[0].pool);
      continue;
    }
    empty = 0;
    if ((rc = sim_price_step(&s[0], w, ranks, &c, &host, err)) != GS_OK) return rc;
    sim_advance_ranks(s, w, ranks, c.seconds, a->out);
    if (a->e->scheduler_steps > 1 && window == 0) close_window(&s[0]); /* its last step done (one rank) */
    if ((rc = sim_guard(a->out, err)) != GS_OK) return rc;
    for (done = 0, r = 0; r < ranks; r++) done += s[r].done;
    sim_typical(done, mine, &c, w, ranks, &typical, a->out);
  }
  sim_close(s, ranks, a);
  return GS_OK;
}
