/* The figures the lesson quotes (`gpusplit numbers`), each from the model's own functions:
 * one setting's cost (gs_cost), the searches (gs_sweep_run), one all-reduce
 * (gs_allreduce_time) and its parts (gs_ring_startup_us, gs_ring_sent_share). Nothing is
 * restated here; a failure of the model is kept, the first one, in the gs_lesson. */
#include <string.h>

#include "internal.h"

static void failure(gs_lesson *l, const char *what, const gs_error *err) {
  if (l->failed) return;
  l->failed = what;
  l->err = *err;
}

/* One setting's cost. */
static gs_cost_result cost(gs_lesson *l, const gs_model *s, const gs_link *link, uint64_t n, int split, uint64_t words) {
  gs_cost_result c;
  gs_plan p = {0};
  gs_error err;
  p.gpus = n;
  p.split = split;
  p.words = words;
  memset(&c, 0, sizeof c);
  if (gs_cost(s, &l->gpu, link, &p, &c, &err) != GS_OK) failure(l, "a setting", &err);
  return c;
}

gs_time gs_lesson_time(gs_lesson *l, int m, uint64_t n, const gs_link *link, int split, uint64_t words) {
  return cost(l, &l->shape[m], link, n, split, words).time;
}
gs_memory gs_lesson_memory(gs_lesson *l, int m, uint64_t n) {
  return cost(l, &l->shape[m], &l->link[GS_LESSON_FAST], n, GS_SLICES, 1).memory;
}
int gs_lesson_fits(gs_lesson *l, int m, uint64_t n) { return cost(l, &l->shape[m], &l->link[GS_LESSON_FAST], n, GS_SLICES, 1).fits; }
double gs_lesson_read_time(gs_lesson *l, int m, uint64_t n) {
  return (double)cost(l, &l->shape[m], &l->link[GS_LESSON_FAST], n, GS_SLICES, 1).read_bytes / l->gpu.bandwidth;
}
double gs_lesson_compute_time(gs_lesson *l, int m, uint64_t n, uint64_t words) {
  return cost(l, &l->shape[m], &l->link[GS_LESSON_FAST], n, GS_SLICES, words).compute;
}
uint64_t gs_lesson_activation_bytes(gs_lesson *l, int m) { return gs_lesson_memory(l, m, 1).working - GS_GIB; }
double gs_lesson_total(gs_lesson *l, int m, uint64_t n, int link, uint64_t words) {
  return gs_lesson_time(l, m, n, &l->link[link], GS_SLICES, words).total;
}
double gs_lesson_share(gs_lesson *l, int m, uint64_t n, int link, uint64_t words) {
  return gs_lesson_time(l, m, n, &l->link[link], GS_SLICES, words).share;
}

/* The searches over every count up to GS_LESSON_MAX_N (gs_sweep_run), as `report` runs
 * them: one chat's word under slices. */
static gs_sweep sweep_of(gs_lesson *l, int m, int link, uint64_t words, const char *what) {
  gs_setting s;
  gs_sweep found;
  gs_error err;
  memset(&s, 0, sizeof s);
  memset(&found, 0, sizeof found);
  s.model = l->shape[m];
  s.gpu = l->gpu;
  s.link = l->link[link];
  s.plan.gpus = 1;
  s.plan.split = GS_SLICES;
  s.plan.words = words;
  s.max_n = GS_LESSON_MAX_N;
  s.replicas = 1;
  if (gs_sweep_run(&s, NULL, 0, &found, &err) != GS_OK) failure(l, what, &err);
  return found;
}

static uint64_t found_or_fail(gs_lesson *l, uint64_t n, const char *what) {
  gs_error err = {GS_ERR_NONE_FITS, "gpus", "no count up to 64 fits"};
  if (n == 0) failure(l, what, &err);
  return n;
}

uint64_t gs_lesson_best(gs_lesson *l, int m, int link, uint64_t words, int divide_heads) {
  gs_sweep found = sweep_of(l, m, link, words, "the best count");
  return found_or_fail(l, divide_heads ? found.best_dividing_heads : found.best, "the best count");
}

uint64_t gs_lesson_fewest(gs_lesson *l, int m) {
  return found_or_fail(l, sweep_of(l, m, GS_LESSON_FAST, 1, "the fewest count").fewest, "the fewest count");
}

uint64_t gs_lesson_best_offered(gs_lesson *l, int m, int link) {
  uint64_t found = 0;
  double best_total = 0;
  size_t i;
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    double t = gs_lesson_total(l, m, GS_COUNTS[i], link, 1);
    if (gs_lesson_fits(l, m, GS_COUNTS[i]) && (found == 0 || t < best_total)) {
      found = GS_COUNTS[i];
      best_total = t;
    }
  }
  return found;
}

double gs_lesson_halved(gs_lesson *l, int m, uint64_t n, int link, uint64_t words) {
  gs_link half = l->link[link];
  half.bandwidth /= 2;
  return gs_lesson_time(l, m, n, &half, GS_SLICES, words).total;
}

double gs_lesson_allreduce_us(const gs_lesson *l, int m, uint64_t words, uint64_t n, int link) {
  return gs_allreduce_time(gs_message_bytes(&l->shape[m]) * words, n, &l->link[link]) * 1e6;
}
