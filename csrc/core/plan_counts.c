/* Which GPU counts the plan searches past GS_PLAN_EVERY_COUNT (issue 28): every count up to
 * the budget cost about 50 prices a count, 3.7 s for 65,536 GPUs natively and 11 s in the
 * explorer's page. Past 64 a copy's count is taken from a few kinds, each one a count the
 * setting allows (gs_count_allowed):
 * - steps of x 1.5 or x 4/3 from 64 (96, 128, 192, 256, ...), as the chats' ladder, so no
 *   count within the budget is more than half again past one searched;
 * - with servers of S GPUs, S times the same steps (whole servers, as slices-groups needs);
 * - with --divide-heads, the heads' divisors, the only counts such a setting takes;
 * - the fewest GPUs that hold the model, found by halving (below).
 * Budgets up to 64 search every count, as before. */
#include <string.h>

#include "internal.h"

/* 1, 2, 3, 4, 6, 8, 12, 16, ...: x 1.5 from a power of two, x 4/3 from the step between. */
uint64_t gs_plan_next_step(uint64_t w) {
  if (w < 2) return 2;
  return (w & (w - 1)) == 0 ? w + w / 2 : w + w / 3;
}

/* n into out's sparse counts, kept ascending and each once, when it is past every_to,
 * within max, allowed, and there is room; kind goes into sparse_kinds when n is there. */
static void add_count(const gs_setting *s, gs_plan_result *out, uint64_t n, uint64_t max, unsigned kind) {
  gs_error err;
  size_t at;
  if (n <= out->every_to || n > max || gs_count_allowed(s, n, &err) != GS_OK) return;
  for (at = 0; at < out->sparse_n && out->sparse[at] < n; at++) {
  }
  if (at < out->sparse_n && out->sparse[at] == n) {
    out->sparse_kinds |= kind; /* a count of two kinds is named by both */
    return;
  }
  if (out->sparse_n == GS_PLAN_MAX_SPARSE) return;
  memmove(&out->sparse[at + 1], &out->sparse[at], (out->sparse_n - at) * sizeof out->sparse[0]);
  out->sparse[at] = n;
  out->sparse_n++;
  out->sparse_kinds |= kind;
}

/* One copy of the model on n GPUs, sliced, one chat: GS_OK and its cost, or an error. */
static int slices_of(const gs_setting *s, uint64_t n, gs_cost_result *c) {
  gs_plan p = s->plan;
  gs_error err;
  p.gpus = n;
  p.split = GS_SLICES;
  p.experts = GS_EXPERTS_SLICES;
  p.words = 1;
  p.in_flight = 0;
  return gs_cost(&s->model, &s->gpu, &s->link, &p, c, &err);
}

static int holds(const gs_setting *s, uint64_t n) {
  gs_cost_result c;
  return slices_of(s, n, &c) == GS_OK && c.fits;
}

uint64_t gs_plan_fewest_holding(const gs_setting *s, uint64_t from, uint64_t to) {
  /* A GPU's share of sliced weights (the model's bytes over n, rounded up) and of one
   * chat's cache (over min(n, kv heads) parts, or one) never grows with n, and its working
   * memory is fixed (csrc/core/model.c, memory_per_gpu): whether n GPUs hold the model
   * changes once at most along the counts, so halving finds the first that does. */
  uint64_t lo = from, hi = to;
  if (from > to || !holds(s, to)) return 0;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (holds(s, mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

uint64_t gs_plan_fewest_allowed(const gs_setting *s, uint64_t from, uint64_t to) {
  uint64_t n = gs_plan_fewest_holding(s, from, to);
  gs_error err;
  if (n == 0) return 0;
  /* the first count from there that the setting takes (a divisor of the heads, whole
   * servers for slices-groups) and that holds the model as it is cut */
  for (; n <= to; n++) {
    if (s->divide_heads && s->model.heads % n != 0) {
      if (n > s->model.heads) return 0;
      continue;
    }
    if (gs_count_allowed(s, n, &err) == GS_OK && holds(s, n)) return n;
  }
  return 0;
}

void gs_plan_counts(const gs_setting *s, uint64_t gpus_max, gs_plan_result *out) {
  uint64_t per = s->plan.per_server, n, d, fewest;
  out->budget = gpus_max;
  out->per_server = per;
  out->heads = s->model.heads;
  out->every_to = gpus_max < GS_PLAN_EVERY_COUNT ? gpus_max : GS_PLAN_EVERY_COUNT;
  out->sparse_n = 0;
  out->sparse_kinds = 0;
  if (gpus_max <= out->every_to) return;
  for (n = GS_PLAN_EVERY_COUNT; n <= gpus_max; n = gs_plan_next_step(n)) add_count(s, out, n, gpus_max, GS_PLAN_STEPS);
  if (per > 1)
    for (n = 1; n * per <= gpus_max; n = gs_plan_next_step(n)) add_count(s, out, n * per, gpus_max, GS_PLAN_SERVERS);
  if (s->divide_heads)
    for (d = 1; d * d <= s->model.heads; d++)
      if (s->model.heads % d == 0) {
        add_count(s, out, d, gpus_max, GS_PLAN_HEADS);
        add_count(s, out, s->model.heads / d, gpus_max, GS_PLAN_HEADS);
      }
  /* only when fewer than every_to do not hold it: below, every count is searched anyway */
  fewest = gs_plan_fewest_holding(s, 1, gpus_max);
  if (fewest > out->every_to && (fewest = gs_plan_fewest_allowed(s, fewest, gpus_max)) != 0)
    add_count(s, out, fewest, gpus_max, GS_PLAN_FEWEST);
}

char *gs_plan_searched(const gs_plan_result *r, char *buf, size_t cap) {
  size_t at, i;
  int said = 0;
  if (cap == 0) return buf;
  buf[0] = '\0';
  if (r->budget <= r->every_to) return buf;
  if (r->sparse_n == 0) {
    gs_format(buf, cap, "Past %llu GPUs a copy, none of the counts searched there suits these settings",
              (unsigned long long)r->every_to);
    return buf;
  }
  if (r->sparse_n == 1) gs_format(buf, cap, "Past %llu GPUs a copy, only one count was searched (", (unsigned long long)r->every_to);
  else gs_format(buf, cap, "Past %llu GPUs a copy, only these %zu counts were searched (", (unsigned long long)r->every_to, r->sparse_n);
  if (r->sparse_kinds & GS_PLAN_STEPS) {
    at = strlen(buf);
    gs_format(buf + at, cap - at, "%ssteps of x 1.5 and x 4/3 from %llu, as the chats'", said++ ? "; " : "",
              (unsigned long long)GS_PLAN_EVERY_COUNT);
  }
  if (r->sparse_kinds & GS_PLAN_SERVERS) {
    at = strlen(buf);
    gs_format(buf + at, cap - at, "%swhole servers of %llu in those steps", said++ ? "; " : "", (unsigned long long)r->per_server);
  }
  if (r->sparse_kinds & GS_PLAN_HEADS) {
    at = strlen(buf);
    gs_format(buf + at, cap - at, "%sthe %llu heads' divisors", said++ ? "; " : "", (unsigned long long)r->heads);
  }
  if (r->sparse_kinds & GS_PLAN_FEWEST) {
    at = strlen(buf);
    gs_format(buf + at, cap - at, "%sthe fewest that hold the model", said++ ? "; " : "");
  }
  for (i = 0; i < r->sparse_n; i++) {
    at = strlen(buf);
    gs_format(buf + at, cap - at, "%s%llu", i ? ", " : "): ", (unsigned long long)r->sparse[i]);
  }
  return buf;
}
