/* A pipeline served with micro-batches in flight (issue 29, item 4). The layers are cut
 * into stages (gs_pipeline_stages); `flight` engine instances each run their own
 * scheduler over their own requests and 1/flight of the cache pool, as vLLM's virtual
 * engines do under pipeline parallelism (vllm/engine/llm_engine.py: one Scheduler for each
 * of pipeline_parallel_size virtual engines, the cache blocks divided among them). Each
 * instance's step is a micro-batch that passes through every stage in turn:
 * - its whole pass is priced by gs_mixed_step (each stage's share of the weights, its
 *   cache, compute, the hand-offs between stages and the fixed costs), and each stage
 *   holds it for an equal share of that (the layers are cut evenly);
 * - a stage works one micro-batch at a time, first come first served, so a micro-batch
 *   waits at a stage still busy with the one before;
 * - the host's time for the sequences it holds (the engine's seq_us) comes before the
 *   first stage, on the one host that schedules every micro-batch (an engine runs one
 *   scheduler process: vLLM's engine core, SGLang's scheduler), so the micro-batches'
 *   host times follow one another as a stage's work does;
 * - the next micro-batch of the same instance starts when this one is through the last
 *   stage (its next tokens depend on this one's).
 * With one micro-batch in flight this is the step priced whole, one at a time.
 *
 * Spread experts beside attention data parallel in each stage (serve's --split
 * slices-groups with --experts spread; TensorRT-LLM's --pp_size beside --ep_size with
 * enable_attention_dp): a micro-batch is the R attention ranks of a stage's GPUs, each with
 * its own scheduler and requests, stepping together as gs_serve_instance's ranks do (each
 * rank's caches on its GPU in every stage). Its pass is priced as the ranks' step over one
 * stage's R GPUs through every layer (serve.c gives the ranks that plan: per layer a stage
 * reads and computes as that step does, and the stages take the layers in turn), plus S - 1
 * hand-offs of the busiest rank's hidden vectors between stages over the between link
 * (gs_handoff_time; each rank hands to its own GPU in the next stage, all at once). */
#include "sim.h"

uint64_t gs_pipeline_stages(const gs_plan *p) {
  if (p->split == GS_GROUPS) return p->gpus;
  if (p->split == GS_SLICES_GROUPS) return gs_plan_servers(p);
  return 1;
}

/* The micro-batch whose clock is earliest among those with requests left (each b's ranks
 * at b x ranks, sharing rank 0's clock); -1 when all done. */
static int earliest(const sim *s, size_t flight, size_t ranks) {
  int best = -1;
  size_t b, r;
  for (b = 0; b < flight; b++) {
    size_t left = 0;
    for (r = 0; r < ranks; r++) left += s[b * ranks + r].mine_n - s[b * ranks + r].done;
    if (left && (best < 0 || s[b * ranks].now < s[(size_t)best * ranks].now)) best = (int)b;
  }
  return best;
}

/* The micro-batch through every stage from `start`, each stage held `stage` seconds after
 * it is free; returns when it leaves the last. */
static double through_stages(double *free_at, uint64_t stages, double start, double stage) {
  uint64_t k;
  double t = start;
  for (k = 0; k < stages; k++) {
    t = (t > free_at[k] ? t : free_at[k]) + stage;
    free_at[k] = t;
  }
  return t;
}

int gs_serve_pipeline(gs_serve_sim_args *a, size_t flight, size_t ranks, uint64_t stages, gs_error *err) {
  sim s[GS_SERVE_MAX_RANKS];
  gs_step_work w[GS_SERVE_MAX_RANKS];
  double free_at[GS_SERVE_MAX_STAGES] = {0}, host_free = 0;
  gs_mixed_cost c;
  size_t v, r, lanes = flight * ranks, mine = 0, done = 0;
  int typical = 0, rc, empty = 0;
  if (flight < 1 || ranks < 1 || lanes > GS_SERVE_MAX_RANKS)
    return gs_fail(err, GS_ERR_RANGE, "in_flight", "micro-batches in flight x attention ranks must be from 1 to %d",
                   GS_SERVE_MAX_RANKS);
  if (stages < 1 || stages > GS_SERVE_MAX_STAGES)
    return gs_fail(err, GS_ERR_RANGE, "stages", "a served pipeline has 1 to %d stages", GS_SERVE_MAX_STAGES);
  for (v = 0; v < lanes; v++) sim_init(&s[v], &a[v]), mine += a[v].mine_n;
  while (done < mine) {
    int at = earliest(s, flight, ranks);
    sim *x = &s[(size_t)at * ranks];
    double next, host, end;
    uint64_t tokens = 0, most = 0;
    for (r = 0; r < ranks; r++) {
      x[r].now = x[0].now;
      if (sim_skip_idle(&x[r], ranks, &w[r])) continue;
      sim_arrive(&x[r]);
      sim_build_step(&x[r], &w[r]);
      tokens += w[r].tokens;
      if (w[r].tokens > most) most = w[r].tokens;
    }
    if (tokens == 0) {
      if (sim_all_idle(x, ranks, &next) && next >= 0) {
        x->now = next; /* this micro-batch idles until its next arrival */
        continue;
      }
      if (++empty > 2)
        return gs_fail(err, GS_ERR_NONE_FITS, "pool", "no request can run: the cache pool of %llu blocks cannot hold one",
                       (unsigned long long)x->pool);
      continue;
    }
    empty = 0;
    if ((rc = sim_price_step(x, w, ranks, &c, &host, err)) != GS_OK) return rc;
    if (ranks > 1) /* the stages' hand-offs of the spread pass (above) */
      c.seconds += (double)(stages - 1) * gs_handoff_time(gs_message_bytes(x->m) * most, &x->p->between);
    host_free = (x->now > host_free ? x->now : host_free) + host;
    end = through_stages(free_at, stages, host_free, (c.seconds - host) / (double)stages);
    sim_advance_ranks(x, w, ranks, end - x->now, a->out);
    if ((rc = sim_guard(a->out, err)) != GS_OK) return rc;
    for (v = 0, done = 0; v < lanes; v++) done += s[v].done;
    sim_typical(done, mine, &c, w, ranks, &typical, a->out);
  }
  sim_close(s, lanes, a);
  return GS_OK;
}
