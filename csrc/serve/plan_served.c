/* The plan of a served load (issue 29, item 6): layouts searched by simulating each one with
 * gs_serve_run's scheduler, so the frontier and the choice come from the simulation.
 *
 * A layout is a copy's count n (every count up to GS_SERVED_MAX_COUNT the setting allows),
 * its split (slices; groups, n of them, one step at a time as serve runs them; slices-groups
 * across servers), experts sliced, and for a mixture of experts on counts its experts divide,
 * the experts spread over the n GPUs of slices beside data-parallel attention (each GPU an
 * attention rank) and beside sliced attention (TP with EP), as serve prices them; and the engine's
 * cap on sequences: its default, or the one given; with a per-token target and no cap given,
 * the best three layouts are tried again at the default halved, down to 32 (a lower cap
 * keeps the step short at the cost of queueing: it matters only against that target).
 *
 * Without a load, each layout's copy is searched for the highest Poisson rate it holds
 * within the targets: first the rate it completes saturated (all requests at once, as
 * serve's sustainable_rate), a ceiling; then 1/64 of it, which must hold; then 7 halvings
 * of the interval between (the rate within 1/128 of the ceiling). Arrivals scale with the
 * rate under one seed, so the figures move with it nearly monotonically. The deployment is
 * budget / n copies behind a router at that rate each (round-robin only smooths a copy's
 * arrivals against the Poisson stream simulated). Layouts are taken by their ceiling a GPU,
 * highest first, and one whose ceiling and whose time per token at the lowest rate are
 * both beaten by a frontier point is left without the halvings (out->pruned): it could
 * not reach the frontier nor the choice.
 *
 * With a load (the deployment's), each layout takes the fewest replicas within the budget
 * (halving on the count) whose simulation holds it within the targets; without targets,
 * the budget's replicas. Each check is one gs_serve_run of the whole deployment, as `serve
 * --replicas R` runs it, so a point's flags give its figures again. */
#include <string.h>

#include "internal.h"

#define SKIP 1 /* a layout the setting cannot take or hold: no point, no error */
#define TOP 3  /* layouts tried again at lower caps on sequences */

typedef struct {
  const gs_setting *s;
  const gs_served_ask *a;
  gs_serve_space *sp;
  gs_served_result *out;
  gs_error *err;
  int any_fit;                   /* a layout held the model and ran */
  int limits_shared;             /* the last simulated engine's caps are the whole engine's, shared over its ranks */
  gs_served_point quickest_tpot, quickest_ttft; /* their lowest figures, for the reason none meets */
  gs_served_point top[TOP];      /* the most per GPU among the held, for the caps' search */
  size_t top_n;
} search;

double gs_served_stat_of(const gs_dist *d, int stat) {
  return stat == GS_STAT_MEAN ? d->mean : stat == GS_STAT_P50 ? d->p50 : stat == GS_STAT_P90 ? d->p90 : d->p99;
}

static int has_targets(const gs_served_ask *a) { return a->target_ttft_s > 0 || a->target_tpot_s > 0; }

static int meets(const gs_served_ask *a, const gs_serve_result *r) {
  return (a->target_ttft_s <= 0 || gs_served_stat_of(&r->ttft, a->stat) <= a->target_ttft_s) &&
         (a->target_tpot_s <= 0 || gs_served_stat_of(&r->tpot, a->stat) <= a->target_tpot_s);
}

/* x > 0 rounded down to 4 significant digits, m x 10^-k: m / 10^k (or m x 10^-k) is one
 * correctly rounded operation on exact operands (10^k is exact to 10^22), so the double is
 * the one a reader of the decimal text gets, and a point's --rate gives its figures again. */
static double round4(double x, uint64_t *m, int *k) {
  double scale = 1;
  int i;
  for (*k = 0; x * scale < 1000 && *k < 22; (*k)++) scale *= 10;
  for (; x * scale >= 10000 && *k > -15; (*k)--) scale /= 10;
  *m = (uint64_t)(x * scale);
  if (*m == 0) *m = 1;
  for (scale = 1, i = 0; i < (*k < 0 ? -*k : *k); i++) scale *= 10;
  return *k >= 0 ? (double)*m / scale : (double)*m * scale;
}

/* m x 10^-k as decimal text, trailing zeros dropped. */
static void decimal(uint64_t m, int k, char *buf, size_t cap) {
  uint64_t p = 1;
  int i;
  if (k <= 0) {
    for (i = 0; i < -k; i++) m *= 10;
    gs_format(buf, cap, "%llu", (unsigned long long)m);
    return;
  }
  for (i = 0; i < k; i++) p *= 10;
  while (k > 0 && m % 10 == 0) m /= 10, p /= 10, k--;
  if (k == 0) gs_format(buf, cap, "%llu", (unsigned long long)m);
  else {
    char digits[32];
    gs_format(digits, sizeof digits, "%llu", (unsigned long long)(p + m % p)); /* "1" then k digits, zeros kept */
    gs_format(buf, cap, "%llu.%s", (unsigned long long)(m / p), digits + 1);
  }
}

/* A unit's GPUs: a copy's, or its prefill and decode copies' together. */
static uint64_t unit_gpus(const gs_served_point *pt) {
  return pt->layout.gpus * (pt->prefill ? pt->prefill + pt->decode : 1);
}

uint64_t gs_served_gpus(const gs_served_point *pt) { return unit_gpus(pt) * pt->layout.replicas; }

char *gs_served_flags(const gs_served_ask *a, const gs_served_point *pt, char *buf, size_t cap) {
  char seqs[40] = "", rate[64] = "", r[32], copies[64];
  uint64_t units = a->has_load ? pt->layout.replicas : 1;
  if (pt->max_seqs_given) gs_format(seqs, sizeof seqs, " --max-seqs %llu", (unsigned long long)pt->max_seqs);
  if (!a->has_load && !pt->saturated) {
    decimal(pt->rate_m, pt->rate_k, r, sizeof r);
    gs_format(rate, sizeof rate, " --rate %s", r);
  }
  if (pt->prefill)
    gs_format(copies, sizeof copies, "--prefill-copies %llu --decode-copies %llu", (unsigned long long)(pt->prefill * units),
              (unsigned long long)(pt->decode * units));
  else gs_format(copies, sizeof copies, "--replicas %llu", (unsigned long long)units);
  gs_format(buf, cap, "--counts %llu --split %s%s %s%s%s", (unsigned long long)pt->layout.gpus, gs_split_name(pt->layout.split),
            pt->layout.experts != GS_EXPERTS_SPREAD ? ""
            : pt->attention == GS_ATTENTION_DATA   ? " --experts spread --attention data"
                                                   : " --experts spread --attention slices",
            copies, seqs, rate);
  return buf;
}

/* The plan and the engine of a point's layout: its GPUs, split, experts and attention, the
 * cap on sequences (0: the engine's). */
static int layout_at(const search *q, const gs_served_point *pt, uint64_t max_seqs, gs_plan *p, gs_scheduler *e) {
  const gs_served_ask *a = q->a;
  uint64_t n = pt->layout.gpus;
  int split = pt->layout.split, rc;
  *p = q->s->plan;
  p->gpus = n;
  p->split = split;
  p->experts = pt->layout.experts;
  p->attention = pt->attention;
  p->words = 1;
  p->in_flight = 0;
  p->prompt_tokens = 0;
  if (split != GS_SLICES && (split == GS_GROUPS ? n : gs_plan_servers(p)) > q->s->model.layers) return SKIP;
  if ((rc = gs_engine_defaults(a->engine, &q->s->gpu, q->s->gpu_text.key, n, e, q->err)) != GS_OK) return rc;
  if (max_seqs) { /* the point's cap, as its --max-seqs flag gives it to serve (an engine's budget may follow it) */
    gs_scheduler given = a->limits;
    given.max_seqs = max_seqs;
    gs_engine_given(e, &given, a->given | GS_GIVEN_MAX_SEQS);
  } else gs_engine_given(e, &a->limits, a->given);
  gs_engine_weight_bits(q->s, e); /* as serve prices its one layout */
  return GS_OK;
}

/* One simulation: GS_OK, SKIP for a layout that cannot hold the load's requests (its pool,
 * its shape), or an error of the ask. */
static int simulate(search *q, const gs_served_point *pt, const gs_load *load, uint64_t replicas, gs_serve_result *r) {
  gs_plan p;
  gs_scheduler e;
  int rc = layout_at(q, pt, pt->max_seqs_given ? pt->max_seqs : 0, &p, &e);
  if (rc != GS_OK) return rc;
  q->limits_shared = e.limits_shared;
  q->out->simulated++;
  if (pt->prefill) {
    gs_disagg d;
    memset(&d, 0, sizeof d); /* a prefill copy as large as a decode copy, with its engine */
    d.prefill = pt->prefill * replicas, d.decode = pt->decode * replicas;
    rc = gs_serve_run_disagg_only(&q->s->model, &q->s->gpu, &q->s->link, &p, &d, &e, load, q->sp, r, q->err);
  } else {
    rc = gs_serve_run_only(&q->s->model, &q->s->gpu, &q->s->link, &p, replicas, &e, load, q->sp, r, q->err);
  }
  if (rc == GS_ERR_SHAPE || rc == GS_ERR_NONE_FITS || rc == GS_ERR_UNSUPPORTED) return SKIP;
  return rc;
}

/* A run's figures into a point. */
static void point_of(const search *q, const gs_serve_result *r, uint64_t replicas, gs_served_point *pt) {
  const gs_served_ask *a = q->a;
  double gpus = (double)(unit_gpus(pt) * replicas), copies = a->has_load ? 1 : (double)replicas;
  pt->layout.replicas = replicas;
  pt->layout.in_flight = r->in_flight; /* a pipeline's micro-batches, as serve runs it */
  pt->layout.word_s = gs_served_stat_of(&r->tpot, a->stat);
  pt->layout.first_s = gs_served_stat_of(&r->ttft, a->stat);
  pt->layout.words_per_s = r->output_tokens_per_s * copies;
  pt->layout.per_gpu = pt->layout.words_per_s / gpus;
  pt->layout.cost_per_million = q->s->gpu_hour > 0 ? q->s->gpu_hour * gpus / 3600 / pt->layout.words_per_s * 1e6 : -1;
  pt->rate = a->has_load ? r->requests_per_s : (pt->saturated ? r->requests_per_s : pt->copy_rate) * copies;
  pt->ttft = r->ttft;
  pt->tpot = r->tpot;
  /* the cap as serve's --max-seqs gives it: a rank's, or under an engine whose caps are
   * shared over its attention ranks (SGLang's) the whole engine's */
  pt->max_seqs = r->max_seqs * (q->limits_shared ? r->ranks : 1);
  pt->preemptions = r->preemptions;
}

/* Into the best TOP layouts a GPU, highest first. */
static void top_add(search *q, const gs_served_point *pt) {
  size_t at;
  if (q->top_n == TOP && q->top[TOP - 1].layout.per_gpu >= pt->layout.per_gpu) return;
  at = q->top_n < TOP ? q->top_n++ : TOP - 1;
  for (; at > 0 && q->top[at - 1].layout.per_gpu < pt->layout.per_gpu; at--) q->top[at] = q->top[at - 1];
  q->top[at] = *pt;
}

static int dominates(const gs_served_point *x, const gs_served_point *y) {
  return x->layout.word_s <= y->layout.word_s && x->layout.per_gpu >= y->layout.per_gpu;
}

/* Into the frontier (sorted by time per output token) unless dominated; into the top
 * layouts per GPU; the choice when it meets the targets best. */
static int keep(search *q, const gs_served_point *pt) {
  gs_served_result *o = q->out;
  size_t i, kept = 0, at;
  if (has_targets(q->a) && (!o->has_choice || pt->layout.per_gpu > o->choice.layout.per_gpu)) o->choice = *pt, o->has_choice = 1;
  top_add(q, pt);
  for (i = 0; i < o->count; i++)
    if (dominates(&o->points[i], pt)) return GS_OK;
  for (i = 0; i < o->count; i++)
    if (!dominates(pt, &o->points[i])) o->points[kept++] = o->points[i];
  o->count = kept;
  if (o->count == GS_PLAN_MAX_POINTS)
    return gs_fail(q->err, GS_ERR_TOO_LONG, "frontier", "has more than %d points; give fewer GPUs", GS_PLAN_MAX_POINTS);
  for (at = 0; at < o->count && o->points[at].layout.word_s < pt->layout.word_s; at++) {
  }
  memmove(&o->points[at + 1], &o->points[at], (o->count - at) * sizeof o->points[0]);
  o->points[at] = *pt;
  o->count++;
  return GS_OK;
}

/* A layout's lowest figures, for the reason none meets the targets. */
static void track_quickest(search *q, const gs_served_point *pt) {
  if (!q->any_fit || pt->layout.word_s < q->quickest_tpot.layout.word_s) q->quickest_tpot = *pt;
  if (!q->any_fit || pt->layout.first_s < q->quickest_ttft.layout.first_s) q->quickest_ttft = *pt;
  q->any_fit = 1;
}

/* With a load: the fewest replicas within the budget that hold it within the targets. */
static int search_replicas(search *q, gs_served_point pt) {
  const gs_served_ask *a = q->a;
  gs_serve_result r, held;
  uint64_t most = a->gpus_max / unit_gpus(&pt), lo = 0, hi, mid;
  int rc;
  if (a->load.kind == GS_LOAD_CLOSED && most > a->load.concurrency) most = a->load.concurrency;
  if (most > a->load.requests) most = a->load.requests;
  if (most < 1) return GS_OK;
  if ((rc = simulate(q, &pt, &a->load, most, &held)) != GS_OK) return rc == SKIP ? GS_OK : rc;
  point_of(q, &held, most, &pt);
  track_quickest(q, &pt);
  if (has_targets(a) && !meets(a, &held)) return GS_OK;
  for (hi = most; has_targets(a) && hi - lo > 1;) { /* hi holds; lo does not (0: none tried) */
    mid = lo + (hi - lo) / 2;
    if ((rc = simulate(q, &pt, &a->load, mid, &r)) < 0) return rc;
    if (rc == GS_OK && meets(a, &r)) hi = mid, held = r;
    else lo = mid;
  }
  point_of(q, &held, hi, &pt);
  return keep(q, &pt);
}

/* Without a load: one copy's saturated run, its ceiling. */
static int ceiling(search *q, gs_served_point *pt, gs_serve_result *r) {
  gs_load batch = q->a->load;
  int rc;
  batch.kind = GS_LOAD_BATCH;
  pt->saturated = 1;
  if ((rc = simulate(q, pt, &batch, 1, r)) != GS_OK) return rc;
  pt->copy_rate = r->requests_per_s;
  point_of(q, r, q->a->gpus_max / unit_gpus(pt), pt);
  return GS_OK;
}

/* Without a load: the highest Poisson rate a copy holds within the targets (pt holds the
 * ceiling's point); pruned when a frontier point beats its ceiling and its lowest figures. */
static int search_rate(search *q, gs_served_point pt) {
  const gs_served_ask *a = q->a;
  gs_load open = a->load;
  gs_serve_result r, held;
  double top = pt.copy_rate, lo = top / 64, hi = top, ceiling_per_gpu = pt.layout.per_gpu;
  uint64_t copies = pt.layout.replicas;
  size_t i, k;
  int rc;
  if (!has_targets(a)) return keep(q, &pt);
  open.kind = GS_LOAD_OPEN;
  open.rate = lo = round4(lo, &pt.rate_m, &pt.rate_k);
  pt.saturated = 0;
  pt.copy_rate = lo;
  if ((rc = simulate(q, &pt, &open, 1, &held)) != GS_OK) return rc == SKIP ? GS_OK : rc;
  point_of(q, &held, copies, &pt);
  track_quickest(q, &pt);
  if (!meets(a, &held)) return GS_OK;
  for (i = 0; i < q->out->count; i++)
    if (q->out->points[i].layout.per_gpu >= ceiling_per_gpu && q->out->points[i].layout.word_s <= pt.layout.word_s) break;
  if (i < q->out->count || (q->out->has_choice && q->out->choice.layout.per_gpu >= ceiling_per_gpu)) {
    q->out->pruned++; /* dominated at its ceiling, or below the choice's figure: it cannot be chosen */
    return GS_OK;
  }
  for (k = 0; k < 7; k++) {
    uint64_t m;
    int scale;
    open.rate = round4(lo + (hi - lo) / 2, &m, &scale);
    if (open.rate <= lo) break; /* within 4 digits of the answer */
    if ((rc = simulate(q, &pt, &open, 1, &r)) < 0) return rc;
    if (rc == GS_OK && meets(a, &r)) lo = open.rate, held = r, pt.rate_m = m, pt.rate_k = scale;
    else hi = open.rate;
  }
  pt.copy_rate = lo;
  point_of(q, &held, copies, &pt);
  return keep(q, &pt);
}

/* A layout to search: n GPUs a copy in split, its experts (and beside spread experts its
 * attention), the ask's cap on sequences, and prefill and decode copies a unit (0 and 0: one
 * engine a copy). */
static void layout_point(const search *q, uint64_t n, int split, int experts, int attention, uint64_t prefill,
                         uint64_t decode, gs_served_point *pt) {
  memset(pt, 0, sizeof *pt);
  pt->layout.gpus = n;
  pt->layout.split = split;
  pt->layout.experts = experts;
  pt->attention = attention;
  pt->layout.in_flight = 1;
  pt->max_seqs = q->a->limits.max_seqs;
  pt->max_seqs_given = (q->a->given & GS_GIVEN_MAX_SEQS) != 0;
  pt->prefill = prefill, pt->decode = decode;
}

static size_t layouts(const search *q, gs_served_point *all, size_t cap) {
  static const int SPLITS[] = {GS_SLICES, GS_GROUPS, GS_SLICES_GROUPS};
  static const uint64_t PD[GS_SERVED_PD_RATIOS][2] = {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {3, 1}};
  uint64_t n, most = q->a->gpus_max < GS_SERVED_MAX_COUNT ? q->a->gpus_max : GS_SERVED_MAX_COUNT;
  size_t k, count = 0;
  gs_error e;
  uint64_t experts = q->s->model.experts;
  for (n = 1; n <= most; n++) {
    gs_plan at = q->s->plan;
    int sliced = gs_count_allowed(q->s, n, &e) == GS_OK;
    at.gpus = n;
    for (k = 0; sliced && k < 3 && count < cap; k++) {
      if ((SPLITS[k] == GS_GROUPS && n == 1) || (SPLITS[k] == GS_SLICES_GROUPS && gs_plan_servers(&at) == 1)) continue;
      layout_point(q, n, SPLITS[k], GS_EXPERTS_SLICES, GS_ATTENTION_DATA, 0, 0, &all[count++]);
    }
    for (k = 0; sliced && q->a->disaggregate && k < GS_SERVED_PD_RATIOS && count < cap; k++)
      if ((PD[k][0] + PD[k][1]) * n <= q->a->gpus_max)
        layout_point(q, n, GS_SLICES, GS_EXPERTS_SLICES, GS_ATTENTION_DATA, PD[k][0], PD[k][1], &all[count++]);
    /* a mixture's experts spread whole over the n GPUs: beside data-parallel attention on any
     * count the experts divide, beside sliced attention where the heads divide it too */
    if (n > 1 && experts > 0 && experts % n == 0) {
      if (count < cap) layout_point(q, n, GS_SLICES, GS_EXPERTS_SPREAD, GS_ATTENTION_DATA, 0, 0, &all[count++]);
      if (sliced && count < cap) layout_point(q, n, GS_SLICES, GS_EXPERTS_SPREAD, GS_ATTENTION_SLICES, 0, 0, &all[count++]);
      /* and as prefill and decode copies of data-parallel ranks (serve's disagg.c) */
      for (k = 0; q->a->disaggregate && k < GS_SERVED_PD_RATIOS && count < cap; k++)
        if ((PD[k][0] + PD[k][1]) * n <= q->a->gpus_max)
          layout_point(q, n, GS_SLICES, GS_EXPERTS_SPREAD, GS_ATTENTION_DATA, PD[k][0], PD[k][1], &all[count++]);
    }
  }
  return count;
}

/* Without a load: every layout's ceiling, then the rate searches, highest ceiling first. */
static int search_rates(search *q, gs_served_point *all, size_t n) {
  gs_serve_result r;
  size_t i, j, kept = 0;
  int rc;
  for (i = 0; i < n; i++) {
    rc = ceiling(q, &all[i], &r);
    if (rc < 0) return rc;
    if (rc == GS_OK) all[kept++] = all[i];
  }
  for (i = 1; i < kept; i++) /* insertion sort by ceiling a GPU, highest first (a few hundred) */
    for (j = i; j > 0 && all[j - 1].layout.per_gpu < all[j].layout.per_gpu; j--) {
      gs_served_point t = all[j];
      all[j] = all[j - 1], all[j - 1] = t;
    }
  for (i = 0; i < kept; i++) {
    if (!has_targets(q->a)) track_quickest(q, &all[i]);
    if ((rc = search_rate(q, all[i])) != GS_OK) return rc;
  }
  return GS_OK;
}

/* The best layouts again at the engine's cap halved, down to 32, when a per-token target
 * is given and no cap is. */
static int search_caps(search *q) {
  gs_served_point top[TOP], pt;
  gs_serve_result r;
  size_t i, n = q->top_n;
  int rc;
  if (q->a->target_tpot_s <= 0 || (q->a->given & GS_GIVEN_MAX_SEQS)) return GS_OK;
  memcpy(top, q->top, sizeof top);
  for (i = 0; i < n; i++) {
    for (pt = top[i], pt.max_seqs_given = 1, pt.max_seqs /= 2; pt.max_seqs >= 32; pt.max_seqs /= 2) {
      gs_served_point at = pt;
      if (q->a->has_load) rc = search_replicas(q, at);
      else if ((rc = ceiling(q, &at, &r)) == GS_OK) rc = search_rate(q, at);
      if (rc < 0) return rc;
    }
  }
  return GS_OK;
}

static int check_ask(const gs_served_ask *a, uint64_t layouts, gs_error *err) {
  uint64_t tokens = 0, i;
  const gs_load *l = &a->load;
  if (a->gpus_max < 1 || a->gpus_max > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "gpus_max", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (!(a->target_ttft_s >= 0) || !(a->target_tpot_s >= 0) || a->stat < GS_STAT_MEAN || a->stat > GS_STAT_P99)
    return gs_fail(err, GS_ERR_RANGE, "target", "must be a time above 0, held at the mean, p50, p90 or p99");
  if (l->requests > GS_SERVE_MAX_REQUESTS)
    return gs_fail(err, GS_ERR_RANGE, "requests", "must be from 1 to %llu", (unsigned long long)GS_SERVE_MAX_REQUESTS);
  /* each term is at most GS_MAX_CHAT_TOKENS, 10^6 of them: no overflow */
  for (i = 0; i < l->requests; i++)
    tokens += l->pairs ? l->prompts[i % l->pairs] + l->outputs[i % l->pairs] : l->prompt_tokens + l->output_tokens;
  if (tokens > GS_SERVED_MAX_WORK / (layouts ? layouts : 1))
    return gs_fail(err, GS_ERR_RANGE, "requests", "layouts x requests x (prompt + output tokens) must be at most %llu in a plan, "
                   "not %llu x %llu; give fewer requests or GPUs", (unsigned long long)GS_SERVED_MAX_WORK,
                   (unsigned long long)layouts, (unsigned long long)tokens);
  return GS_OK;
}

int gs_plan_served(const gs_setting *s, const gs_served_ask *a, gs_serve_space *space, gs_served_result *out, gs_error *err) {
  gs_served_point *all = out->searched;
  search q;
  char f1[256], f2[256], ms1[GS_FIGURE_CAP], ms2[GS_FIGURE_CAP];
  size_t i, n;
  int rc;
  memset(out, 0, sizeof *out);
  memset(&q, 0, sizeof q);
  q.s = s, q.a = a, q.sp = space, q.out = out, q.err = err;
  if (a->gpus_max < 1 || a->gpus_max > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "gpus_max", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  { /* an engine that does not run the model is refused before the search, not reported as no layout */
    gs_scheduler e;
    if ((rc = gs_engine_defaults(a->engine, &s->gpu, s->gpu_text.key, 1, &e, err)) != GS_OK ||
        (rc = gs_engine_runs_model(&e, &s->model, err)) != GS_OK)
      return rc;
  }
  n = layouts(&q, all, GS_SERVED_LAYOUTS_MAX);
  if ((rc = check_ask(a, n, err)) != GS_OK) return rc;
  out->layouts = n;
  if (a->has_load) {
    for (i = 0; i < n; i++)
      if ((rc = search_replicas(&q, all[i])) != GS_OK) return rc;
  } else if ((rc = search_rates(&q, all, n)) != GS_OK) return rc;
  if ((rc = search_caps(&q)) != GS_OK) return rc;
  if (!q.any_fit)
    gs_format(out->why, sizeof out->why, "no layout of up to %llu GPUs a copy within %llu GPUs holds the model, its cache pool and "
              "one request", (unsigned long long)GS_SERVED_MAX_COUNT, (unsigned long long)a->gpus_max);
  else if (has_targets(a) && !out->has_choice)
    gs_format(out->why, sizeof out->why, "%s; the shortest time per output token is %s ms (%s), the shortest to the first token "
              "%s ms (%s)", a->has_load ? "no layout holds the load within the targets, even with every replica the budget holds"
                                        : "no layout holds even 1/64 of its saturated rate within the targets",
              gs_fixed(ms1, sizeof ms1, q.quickest_tpot.layout.word_s * 1e3, 2), gs_served_flags(a, &q.quickest_tpot, f1, sizeof f1),
              gs_fixed(ms2, sizeof ms2, q.quickest_ttft.layout.first_s * 1e3, 2), gs_served_flags(a, &q.quickest_ttft, f2, sizeof f2));
  return GS_OK;
}
