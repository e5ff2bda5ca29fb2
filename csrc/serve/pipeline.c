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
 * With one micro-batch in flight this is the step priced whole, one at a time. */
#include "sim.h"

uint64_t gs_pipeline_stages(const gs_plan *p) {
  if (p->split == GS_GROUPS) return p->gpus;
  if (p->split == GS_SLICES_GROUPS) return gs_plan_servers(p);
  return 1;
}

/* The instance whose clock is earliest among those with requests left; -1 when all done. */
static int earliest(const sim *s, size_t flight) {
  int best = -1;
  size_t v;
  for (v = 0; v < flight; v++)
    if (s[v].done < s[v].mine_n && (best < 0 || s[v].now < s[best].now)) best = (int)v;
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

int gs_serve_pipeline(gs_serve_sim_args *a, size_t flight, uint64_t stages, gs_error *err) {
  sim s[GS_SERVE_MAX_RANKS];
  double free_at[GS_SERVE_MAX_STAGES] = {0}, host_free = 0;
  gs_step_work w;
  gs_mixed_cost c;
  size_t v, mine = 0, done = 0;
  int typical = 0, rc, empty = 0;
  if (flight < 1 || flight > GS_SERVE_MAX_RANKS)
    return gs_fail(err, GS_ERR_RANGE, "in_flight", "must be from 1 to %d", GS_SERVE_MAX_RANKS);
  if (stages < 1 || stages > GS_SERVE_MAX_STAGES)
    return gs_fail(err, GS_ERR_RANGE, "stages", "a served pipeline has 1 to %d stages", GS_SERVE_MAX_STAGES);
  for (v = 0; v < flight; v++) sim_init(&s[v], &a[v]), mine += a[v].mine_n;
  while (done < mine) {
    int at = earliest(s, flight);
    sim *x = &s[at];
    double next, host, end;
    sim_arrive(x);
    sim_build_step(x, &w);
    if (w.tokens == 0) {
      if (sim_all_idle(x, 1, &next) && next >= 0) {
        x->now = next; /* this instance idles until its next arrival */
        continue;
      }
      if (++empty > 2)
        return gs_fail(err, GS_ERR_NONE_FITS, "pool", "no request can run: the cache pool of %llu blocks cannot hold one",
                       (unsigned long long)x->pool);
      continue;
    }
    empty = 0;
    if ((rc = sim_price_step(x, &w, 1, &c, &host, err)) != GS_OK) return rc;
    host_free = (x->now > host_free ? x->now : host_free) + host;
    end = through_stages(free_at, stages, host_free, (c.seconds - host) / (double)stages);
    sim_advance_ranks(x, &w, 1, end - x->now, a->out);
    if ((rc = sim_guard(a->out, err)) != GS_OK) return rc;
    for (v = 0, done = 0; v < flight; v++) done += s[v].done;
    sim_typical(done, mine, &c, &w, 1, &typical, a->out);
  }
  sim_close(s, flight, a);
  return GS_OK;
}
