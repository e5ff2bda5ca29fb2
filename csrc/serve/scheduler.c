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
 * Each step is priced by gs_mixed_step; nothing else advances time but arrivals. */
#include <string.h>

#include "internal.h"

typedef struct {
  const gs_model *m;
  const gs_gpu *g;
  const gs_link *l;
  const gs_plan *p;
  const gs_scheduler *e;
  const gs_load *load;
  gs_serve_req *reqs;
  uint32_t *mine, *run, *wait; /* this instance's requests by arrival; running; waiting (a ring) */
  size_t mine_n, next, run_n, wait_head, wait_n, released; /* released: closed loop's next to release */
  uint64_t pool, free_blocks, peak, in_system, done, half;
  double now, area;            /* area: requests in the system, integrated over time */
  gs_serve_result *out;
  gs_itl_hist *itl;
} sim;

static uint64_t blocks_for(const sim *s, uint64_t tokens) { return gs_ceil_div(tokens, s->e->block_tokens); }

static void wait_push(sim *s, uint32_t id, int front) {
  size_t cap = s->mine_n;
  if (front) s->wait_head = (s->wait_head + cap - 1) % cap;
  s->wait[front ? s->wait_head : (s->wait_head + s->wait_n) % cap] = id;
  s->wait_n++;
  s->reqs[id].state = 1;
}

/* Requests whose time has come join the queue, in arrival order. A closed loop's later
 * requests have no arrival (-1) until a completion releases them (finish_step). */
static void arrive(sim *s) {
  while (s->next < s->mine_n) {
    gs_serve_req *q = &s->reqs[s->mine[s->next]];
    if (q->arrival < 0 || q->arrival > s->now) break;
    wait_push(s, s->mine[s->next], 0);
    s->in_system++;
    s->next++;
  }
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

/* The running requests' tokens this step; returns 1 if it preempted. */
static int schedule_running(sim *s, uint64_t *budget, int phase, gs_step_work *w) {
  size_t i;
  int preempted = 0;
  for (i = 0; i < s->run_n && *budget > 0; i++) {
    uint32_t id = s->run[i];
    gs_serve_req *q = &s->reqs[id];
    uint64_t need = q->prompt + q->generated - q->computed, t = need < *budget ? need : *budget, want;
    if (phase >= 0 && prefilling(q) != phase) continue;
    want = blocks_for(s, q->computed + t);
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
    uint64_t want = s->e->reserve_full ? blocks_for(s, q->prompt + q->output) : blocks_for(s, t);
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
  return blocks_for(s, need < s->e->max_batched_tokens ? need : s->e->max_batched_tokens) <= s->free_blocks;
}

/* Builds the next step; w->tokens is 0 when nothing can run. */
static void build_step(sim *s, gs_step_work *w) {
  uint64_t budget = s->e->max_batched_tokens;
  int phase = -1, preempted; /* -1: both; 1: prefill only; 0: decode only */
  size_t i;
  memset(w, 0, sizeof *w);
  if (!s->e->mixed) {
    phase = can_admit(s);
    for (i = 0; i < s->run_n && !phase; i++) phase = prefilling(&s->reqs[s->run[i]]) && s->reqs[s->run[i]].computed > 0;
    if (!phase) budget = UINT64_MAX; /* a decode batch takes every running request */
  }
  preempted = schedule_running(s, &budget, phase, w);
  if (!preempted && phase != 0) admit(s, &budget, w);
}

/* After the step: the tokens computed, a token sampled where a sequence is whole, the
 * finished released (and, closed loop, their successors). */
static void finish_step(sim *s) {
  size_t i, kept = 0;
  for (i = 0; i < s->run_n; i++) {
    uint32_t id = s->run[i];
    gs_serve_req *q = &s->reqs[id];
    q->computed += q->step_tokens;
    q->step_tokens = 0;
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
    q->state = 3;
    s->free_blocks += q->blocks;
    q->blocks = 0;
    s->done++;
    s->in_system--;
    if (s->load->kind == GS_LOAD_CLOSED && s->released < s->mine_n) s->reqs[s->mine[s->released++]].arrival = s->now;
  }
  s->run_n = kept;
}

/* Runs one instance until its requests are done; fills the result's step counts, and the
 * step in which half its requests were done as the typical one. */
int gs_serve_instance(gs_serve_sim_args *a, gs_error *err) {
  sim s;
  gs_step_work w;
  gs_mixed_cost c;
  int rc, empty = 0, typical = 0;
  memset(&s, 0, sizeof s);
  s.m = a->m, s.g = a->g, s.l = a->l, s.p = a->p, s.e = a->e, s.load = a->load;
  s.reqs = a->reqs, s.mine = a->mine, s.run = a->run, s.wait = a->wait, s.mine_n = a->mine_n;
  s.released = a->released, s.pool = s.free_blocks = a->pool, s.out = a->out, s.itl = a->itl;
  s.half = (s.mine_n + 1) / 2;
  while (s.done < s.mine_n) {
    arrive(&s);
    build_step(&s, &w);
    if (w.tokens == 0) {
      if (s.run_n == 0 && s.wait_n == 0 && s.next < s.mine_n && s.reqs[s.mine[s.next]].arrival >= 0) {
        s.now = s.reqs[s.mine[s.next]].arrival; /* idle until the next arrival */
        continue;
      }
      if (++empty > 2)
        return gs_fail(err, GS_ERR_NONE_FITS, "pool", "no request can run: the cache pool of %llu blocks cannot hold one",
                       (unsigned long long)s.pool);
      continue;
    }
    empty = 0;
    if ((rc = gs_mixed_step(s.m, s.g, s.l, s.p, s.e->overlap_share, &w, &c, err)) != GS_OK) return rc;
    c.seconds += s.e->seq_us * 1e-6 * (double)w.seqs; /* the host's work for each sequence held */
    s.area += (double)s.in_system * c.seconds;
    s.now += c.seconds;
    s.out->steps++;
    s.out->computed_tokens += w.tokens;
    if (s.pool - s.free_blocks > s.peak) s.peak = s.pool - s.free_blocks;
    finish_step(&s);
    if (!typical && s.done >= s.half) {
      typical = 1;
      a->out->typical = c;
      a->out->typical_work = w;
    }
  }
  if (s.peak > a->out->peak_blocks) a->out->peak_blocks = s.peak;
  a->area = s.area;
  return GS_OK;
}
