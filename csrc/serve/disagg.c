/* Prefill and decode on separate copies (issue 29 item 4's last layout): P copies of the
 * layout only prefill, D copies only decode, and a request's cache is sent from the one to
 * the other, as SGLang's prefill-decode disaggregation runs (docs.sglang.io, "PD
 * Disaggregation": prefill and decode servers, the cache sent over NIXL or Mooncake, a
 * router in front; its round-robin router sends request i to prefill server i mod P and
 * decode server i mod D).
 * - A prefill copy runs its requests through the engine's scheduler (scheduler.c) as
 *   requests of one output token: the step that computes a prompt's last token samples its
 *   first output token, and the request leaves with its cache.
 * - The cache of the prompt goes to the decode copy over the link between them: each of a
 *   copy's n GPUs sends its share to its counterpart, all at once, so the hand-off takes
 *   the link's base latency plus the cache's bytes over n links' bandwidth (the servers'
 *   link within one server, else the link between servers). Hand-offs are not queued
 *   behind one another.
 * - The first token reaches the client when the cache has reached the decode copy (the
 *   decode server streams every token); the decode copy then admits the request with its
 *   prompt computed and runs its decodes; a decode copy that must preempt recomputes.
 * - The copies run side by side, each on its own clock; the loop always steps the copy
 *   whose clock is earliest, so every hand-off and closed-loop release is seen by the copy
 *   it reaches before that copy's clock passes it.
 * - A closed loop is the deployment's: a request done releases the next request of all.
 * - Under attention data parallel (spread experts beside attention ranks), each copy is its
 *   ranks in lock step, as one engine runs them (scheduler.c gs_serve_instance): a copy's
 *   i-th request goes to its rank i mod ranks, as SGLang's data-parallel controller shares
 *   requests round-robin, and a request's cache, whole on its prefill rank, goes to its
 *   decode rank over one GPU's link. */
#include "sim.h"

#define NEVER 1e300

/* A decode copy's hand-offs still on the way: a binary heap of ids by arrival (the time
 * the cache lands, kept in the request's first_token). */
typedef struct {
  uint32_t *ids;
  size_t n;
} landing;

static double landing_time(const gs_serve_req *reqs, uint32_t id) { return reqs[id].first_token; }

static void landing_push(landing *h, const gs_serve_req *reqs, uint32_t id) {
  size_t i = h->n++;
  while (i > 0 && landing_time(reqs, h->ids[(i - 1) / 2]) > landing_time(reqs, id)) {
    h->ids[i] = h->ids[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->ids[i] = id;
}

static uint32_t landing_pop(landing *h, const gs_serve_req *reqs) {
  uint32_t top = h->ids[0], last = h->ids[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && landing_time(reqs, h->ids[c + 1]) < landing_time(reqs, h->ids[c])) c++;
    if (landing_time(reqs, h->ids[c]) >= landing_time(reqs, last)) break;
    h->ids[i] = h->ids[c];
    i = c;
  }
  if (h->n > 0) h->ids[i] = last;
  return top;
}

/* The lane of request id on the prefill copies (decode 0) or the decode copies (decode 1):
 * the prefill copies' ranks first, copy by copy, then the decode copies'; copy id mod
 * copies, and of that copy's requests, in turn, its rank (id / copies) mod ranks. */
size_t gs_disagg_lane(size_t id, size_t prefill, size_t decode_copies, size_t prefill_ranks, size_t decode_ranks,
                      int decode) {
  size_t of = decode ? decode_copies : prefill, ranks = decode ? decode_ranks : prefill_ranks;
  return (decode ? prefill * prefill_ranks : 0) + (id % of) * ranks + (id / of) % ranks;
}

/* The prompt's cache from a prefill copy to a decode copy: each GPU's share over its own
 * link, at once. */
static double handoff(const gs_serve_disagg_args *d, const gs_model *m, uint64_t prompt) {
  uint64_t kept = m->window && m->window < prompt ? m->window : prompt;
  return d->link_seconds + (double)gs_cache_bytes_at(m, prompt, kept, d->cache_bits) / d->link_bytes_per_s;
}

/* When lane x can next do something: now when it holds or waits for a request, else when
 * its next request arrives (a prefill copy's) or lands (a decode copy's), else never. */
static double ready_at(const sim *x, const landing *h) {
  double t;
  if (x->run_n > 0 || x->wait_n > 0) return x->now;
  if (h) {
    if (h->n == 0) return NEVER;
    t = landing_time(x->reqs, h->ids[0]);
  } else {
    if (x->next >= x->mine_n || x->reqs[x->mine[x->next]].arrival < 0) return NEVER;
    t = x->reqs[x->mine[x->next]].arrival;
  }
  return t > x->now ? t : x->now;
}

/* The requests that finish in the step just built: running, with their last token due. */
static size_t finishing(const sim *x, uint32_t *out) {
  size_t i, k = 0;
  for (i = 0; i < x->run_n; i++) {
    const gs_serve_req *q = &x->reqs[x->run[i]];
    if (q->step_tokens > 0 && q->computed + q->step_tokens == q->prompt + q->generated && q->generated + 1 >= q->output)
      out[k++] = x->run[i];
  }
  return k;
}

int gs_serve_disagg(gs_serve_disagg_args *d, gs_error *err) {
  sim s[GS_SERVE_MAX_RANKS];
  landing h[GS_SERVE_MAX_RANKS];
  gs_step_work w[GS_SERVE_MAX_RANKS];
  gs_mixed_cost c;
  size_t pre_ranks = d->ranks ? d->ranks : 1, dec_ranks = d->decode_ranks ? d->decode_ranks : 1;
  size_t copies = d->prefill + d->decode, first_decode = d->prefill * pre_ranks, lanes;
  size_t v, r, k, n = d->requests, done = 0, released = d->released;
  int typical = 0, rc;
  size_t stuck = 0;
  if (d->prefill < 1 || d->decode < 1 || d->prefill > GS_SERVE_MAX_RANKS / pre_ranks ||
      d->decode > (GS_SERVE_MAX_RANKS - d->prefill * pre_ranks) / dec_ranks)
    return gs_fail(err, GS_ERR_RANGE, "copies",
                   "prefill and decode copies: at least 1 each, and the copies times their attention ranks at most %d",
                   GS_SERVE_MAX_RANKS);
  lanes = first_decode + d->decode * dec_ranks;
  for (v = 0; v < lanes; v++) {
    sim_init(&s[v], &d->a[v]);
    if (v >= first_decode) {
      s[v].next = s[v].mine_n; /* a decode rank's requests come by hand-off, not arrival */
      h[v].ids = d->a[v].mine + d->landing_offset, h[v].n = 0;
    }
  }
  while (done < n) {
    double best = NEVER, t, host;
    size_t at = 0, ends = 0, base, ranks;
    uint64_t tokens = 0;
    int decode;
    /* the copy whose earliest rank can next do something: its ranks step together */
    for (v = 0; v < lanes; v++)
      if ((t = ready_at(&s[v], v >= first_decode ? &h[v] : NULL)) < best)
        best = t, at = v < first_decode ? v / pre_ranks : d->prefill + (v - first_decode) / dec_ranks;
    if (best >= NEVER) return gs_fail(err, GS_ERR_NONE_FITS, "pool", "no request can run on the prefill or decode copies");
    decode = at >= d->prefill;
    ranks = decode ? dec_ranks : pre_ranks;
    base = decode ? first_decode + (at - d->prefill) * dec_ranks : at * pre_ranks;
    for (r = 0; r < ranks; r++) {
      sim *y = &s[base + r];
      y->now = best;
      /* a decode rank whose hand-off has landed is not idle, though it holds nothing yet */
      if (!(decode && h[base + r].n > 0 && landing_time(y->reqs, h[base + r].ids[0]) <= y->now) &&
          sim_skip_idle(y, ranks, &w[r]))
        continue;
      if (!decode) sim_arrive(y);
      else
        while (h[base + r].n > 0 && landing_time(y->reqs, h[base + r].ids[0]) <= y->now)
          sim_enqueue(y, landing_pop(&h[base + r], y->reqs));
      sim_build_step(y, &w[r]);
      tokens += w[r].tokens;
    }
    if (tokens == 0) {
      if (++stuck > 2 * copies + 2)
        return gs_fail(err, GS_ERR_NONE_FITS, "pool", "no request can run: the cache pool of %llu blocks cannot hold one",
                       (unsigned long long)s[base].pool);
      continue;
    }
    stuck = 0;
    for (r = 0; r < ranks; r++) ends += finishing(&s[base + r], d->finishing + ends);
    if ((rc = sim_price_step(&s[base], w, ranks, &c, &host, err)) != GS_OK) return rc;
    sim_advance_ranks(&s[base], w, ranks, c.seconds, d->a[0].out);
    if ((rc = sim_guard(d->a[0].out, err)) != GS_OK) return rc;
    for (k = 0; k < ends; k++) {
      uint32_t id = d->finishing[k];
      gs_serve_req *q = &s[base].reqs[id];
      if (!decode) { /* prefilled: the cache sent to its decode copy's rank (gs_disagg_lane) */
        size_t to = gs_disagg_lane(id, d->prefill, d->decode, pre_ranks, dec_ranks, 1);
        q->first_token = q->last_token = q->finish + handoff(d, s[base].m, q->prompt);
        q->output = (uint64_t)d->outputs[id];
        if (q->output > 1) {
          q->state = 0, q->finish = 0;
          landing_push(&h[to], s[base].reqs, id);
          continue;
        }
        q->finish = q->first_token;
      }
      done++;
      /* a closed loop's next request, reaching the engine after its front end */
      if (released < n) s[base].reqs[released++].arrival = q->finish + s[base].e->request_us * 1e-6;
    }
    sim_typical(done, n, &c, w, ranks, &typical, d->a[0].out);
  }
  sim_close(s, lanes, d->a);
  return GS_OK;
}
