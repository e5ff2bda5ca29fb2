/* One engine instance's scheduler state and its moves (scheduler.c), shared by the two
 * ways instances are run: attention ranks in lock step (gs_serve_instance, scheduler.c)
 * and a pipeline's micro-batches in flight (gs_serve_pipeline, pipeline.c). */
#ifndef GS_SERVE_SIM_H
#define GS_SERVE_SIM_H

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
  uint64_t pool, free_blocks, peak, in_system, done;
  double now, area;            /* area: requests in the system, integrated over time */
  int window;                  /* 1 while a multi-step window runs: a request done stays in the batch (scheduler.c) */
  gs_serve_result *out;
  gs_itl_hist *itl;
} sim;

void sim_init(sim *s, const gs_serve_sim_args *a);
/* Requests whose time (s->now) has come join the queue. */
void sim_arrive(sim *s);
/* Request id joins the queue now, by another way than its arrival (a hand-off). */
void sim_enqueue(sim *s, uint32_t id);
/* The next step's work; w->tokens is 0 when nothing can run. Returns 0 when the step only
 * decodes the running requests (an engine whose steps prefill or decode), else 1. */
int sim_build_step(sim *s, gs_step_work *w);
/* 1 when an instance holds nothing, waits for nothing and has no arrival due by now: its
 * step would be empty (an attention rank's dummy pass). The ranks' loops skip building it,
 * so a step of many ranks and few requests costs what its busy ranks do. */
int sim_idle(const sim *s);
/* Under several ranks, an idle one's step left empty without building it: 1 when skipped. */
int sim_skip_idle(const sim *s, size_t ranks, gs_step_work *w);
/* After a step: tokens computed and sampled, the finished released. */
void sim_finish_step(sim *s);
/* 1 when none of the `ranks` instances holds or waits for anything; *next the earliest
 * arrival to come (-1: none). */
int sim_all_idle(const sim *s, size_t ranks, double *next);
/* The price of the ranks' joined step, the host's time for each sequence held included
 * (and alone in *host). */
int sim_price_step(const sim *s, const gs_step_work *w, size_t ranks, gs_mixed_cost *c, double *host, gs_error *err);
/* GS_OK while a run's steps stay within 4 times the load's bound (check_args holds a load to
 * GS_SERVE_MAX_STEPS without preemptions); past it, preemptions are undoing the work they
 * let run, and the run stops with an error rather than turn for ever. Its rank-steps too
 * (GS_SERVE_MAX_RANK_STEPS): past them, a few requests are keeping many ranks stepping. */
int sim_guard(const gs_serve_result *out, gs_error *err);
/* The ranks' step done after `seconds`: their clocks, tokens and pool peaks advanced. */
void sim_advance_ranks(sim *s, const gs_step_work *w, size_t ranks, double seconds, gs_serve_result *out);

/* Notes the step c of work w (its `ranks` works) as the result's typical one when `done`
 * of the copy's `mine` requests reach half, once (*noted). */
void sim_typical(uint64_t done, uint64_t mine, const gs_mixed_cost *c, const gs_step_work *w, size_t ranks, int *noted,
                 gs_serve_result *out);
/* After the run: the pool's peak into a->out, each instance's area into its args. */
void sim_close(const sim *s, size_t n, gs_serve_sim_args *a);

#endif
