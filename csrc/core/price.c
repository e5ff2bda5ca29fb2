/* A resolved setting priced: one count (gs_price), or every count up to the setting's
 * max_n once (gs_sweep_run), with the searches the report and the pages show: the fewest
 * counts that fit, and the count with the shortest step, among all and among those that
 * divide the heads. Each count is priced once; what is shown of it is read from here. */
#include <string.h>

#include "internal.h"

/* The most chats of the plan's tokens that one layout holds, each with its own cache, beside
 * its weights and working memory: the cache a GPU holds for W chats is
 * ceil(W x batches x one chat's cache / parts), so W chats fit while W x batches x chat <=
 * room x parts, room being what the weights and working memory leave of the usable
 * memory. Checked by pricing that many (and they must fit); at most GS_MAX_WORDS. */
static int chats_that_fit(const gs_setting *s, const gs_priced *r, gs_deploy *d, gs_error *err) {
#ifdef GS_LESSON_ONLY
  /* the lesson's module keeps the lesson's one-chat cache (gs_resolve refuses another) */
  (void)s;
  (void)r;
  (void)err;
  d->chats_fit = -1;
  d->chats_fit_words_per_s = -1;
  return GS_OK;
#else
  gs_plan at = r->plan;
  gs_cost_result c;
  uint64_t used = r->cost.memory.weights + r->cost.memory.working, chat, parts, room, most;
  int rc;
  d->chats_fit = -1;
  d->chats_fit_words_per_s = -1;
  if (!r->plan.cache_per_chat) return GS_OK;
  chat = gs_plan_cache_bytes(&s->model, &r->plan) * gs_plan_batches(&r->plan);
  parts = gs_cache_parts(&s->model, &r->plan);
  room = r->cost.usable_bytes > used ? r->cost.usable_bytes - used : 0;
  most = chat == 0 ? GS_MAX_WORDS : room / chat * parts + room % chat * parts / chat;
  /* spread experts: each GPU holds its own ceil(W/n) chats' caches whole */
  if (r->plan.experts == GS_EXPERTS_SPREAD && chat != 0) most = room / chat > GS_MAX_WORDS ? GS_MAX_WORDS : room / chat * r->plan.gpus;
  if (room / chat > GS_MAX_WORDS || most > GS_MAX_WORDS) most = GS_MAX_WORDS;
  d->chats_fit = (int64_t)most;
  d->chats_fit_words_per_s = 0;
  if (most == 0) return GS_OK;
  at.words = most;
  if ((rc = gs_cost(&s->model, &s->gpu, &s->link, &at, &c, err)) != GS_OK) return rc;
  if (!c.fits) return gs_fail(err, GS_ERR_RANGE, "chats", "%llu chats were found to fit and do not", (unsigned long long)most);
  d->chats_fit_words_per_s = (double)s->replicas * c.time.total_words_per_s;
  return GS_OK;
#endif
}

/* The layout served by its replicas, and what a million words cost at the price of a GPU
 * hour: gpus x price / 3,600 seconds, over the words a second, times a million; and a
 * million prompt tokens: one layout's GPUs x price / 3,600 x the first word's seconds, over
 * the words x prompt tokens it prefills in them, times a million (replicas cancel). */
static int deploy(const gs_setting *s, gs_priced *r, gs_error *err) {
  gs_deploy *d = &r->deploy;
  d->gpus = s->replicas * r->plan.gpus;
  d->words_per_s = r->cost.fits ? (double)s->replicas * r->cost.time.total_words_per_s : 0;
  d->cost_per_million = -1;
  d->prompt_cost_per_million = -1;
  if (s->gpu_hour > 0 && r->cost.fits) d->cost_per_million = (double)d->gpus * s->gpu_hour / 3600 / d->words_per_s * 1e6;
#ifndef GS_LESSON_ONLY /* the lesson's module prices no prompt */
  /* a million prompt tokens: the layout prefills words x prompt tokens in the first word's
   * time, each replica its own */
  if (s->gpu_hour > 0 && r->cost.fits && r->plan.prompt_tokens && r->cost.first_word > 0)
    d->prompt_cost_per_million = (double)r->plan.gpus * s->gpu_hour / 3600 * r->cost.first_word /
                                 (double)(r->plan.words * r->plan.prompt_tokens) * 1e6;
#endif
  return chats_that_fit(s, r, d, err);
}

int gs_priced_of(const gs_setting *s, uint64_t n, const gs_cost_result *c, gs_priced *out, gs_error *err) {
  memset(out, 0, sizeof *out);
  out->setting = s;
  out->plan = s->plan;
  out->plan.gpus = n;
  out->cost = *c;
  gs_view_of(&out->cost, &out->view);
  gs_view_plan(out);
  return deploy(s, out, err);
}

void gs_setting_of(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_setting *out) {
  memset(out, 0, sizeof *out);
  out->model = *m;
  out->gpu = *g;
  out->link = *l;
  out->plan = *p;
  out->max_n = GS_DEFAULT_MAX_N;
  out->replicas = 1;
}

int gs_price(const gs_setting *s, uint64_t n, gs_priced *out, gs_error *err) {
  gs_plan p = s->plan;
  gs_cost_result c;
  int rc;
  p.gpus = n;
  if ((rc = gs_cost(&s->model, &s->gpu, &s->link, &p, &c, err)) != GS_OK) return rc;
  return gs_priced_of(s, n, &c, out, err);
}

/* Count n priced into r, r->allowed set when the plan can take it: GS_OK with r->allowed
 * 0 when it cannot (gs_count_allowed's GS_ERR_SHAPE), else gs_cost's error. */
static int sweep_count(const gs_setting *s, uint64_t n, gs_sweep_row *r, gs_error *err) {
  gs_plan p = s->plan;
  int rc;
  memset(r, 0, sizeof *r);
  r->gpus = n;
  p.gpus = n;
  rc = gs_count_allowed(s, n, err);
  if (rc == GS_ERR_SHAPE) return GS_OK;
  if (rc != GS_OK) return rc;
  if ((rc = gs_cost(&s->model, &s->gpu, &s->link, &p, &r->cost, err)) != GS_OK) return rc;
  r->allowed = 1;
  return GS_OK;
}

/* The first count that fits is the fewest; the shortest step is the best, the first on a
 * tie, as Python's min() takes (the lesson's best_gpu_count). The fewest is found from the
 * memory alone, so a count whose time cannot be priced does not hide it. */
int gs_sweep_run(const gs_setting *s, gs_sweep_row *rows, size_t cap, gs_sweep *out, gs_error *err) {
  double best_total = 0, best_heads_total = 0;
  gs_sweep_row one; /* each count in turn, when the caller keeps no rows */
  uint64_t n;
  memset(out, 0, sizeof *out);
  if (rows && s->max_n > cap)
    return gs_fail(err, GS_ERR_TOO_LONG, "max_n", "a sweep of %llu counts needs room for them; it has %zu",
                   (unsigned long long)s->max_n, cap);
  for (n = 1; n <= s->max_n; n++) {
    gs_sweep_row *r = rows ? &rows[n - 1] : &one;
    int divides = s->model.heads % n == 0, rc;
    if ((rc = sweep_count(s, n, r, err)) != GS_OK) return rc;
    if (!r->allowed || !r->cost.fits) continue;
    if (!out->fewest) out->fewest = n;
    if (!out->best || r->cost.time.total < best_total) {
      out->best = n;
      best_total = r->cost.time.total;
    }
    if (divides && (!out->best_dividing_heads || r->cost.time.total < best_heads_total)) {
      out->best_dividing_heads = n;
      best_heads_total = r->cost.time.total;
    }
  }
  out->count = (size_t)s->max_n;
  return GS_OK;
}

/* gs_sweep_run's fewest alone, searched the same way, upward from 1, and stopped at the first
 * count that fits: the widget's key press needs no more, and the counts past it were most of
 * its pricing (issue 31). 0 when no count up to max_n fits. */
int gs_fewest_run(const gs_setting *s, uint64_t *fewest, gs_error *err) {
  gs_sweep_row r;
  uint64_t n;
  *fewest = 0;
  for (n = 1; n <= s->max_n; n++) {
    int rc = sweep_count(s, n, &r, err);
    if (rc != GS_OK) return rc;
    if (r.allowed && r.cost.fits) {
      *fewest = n;
      return GS_OK;
    }
  }
  return GS_OK;
}

/* The chart over the counts the widget offers (GS_COUNTS), each priced once; now, when it
 * is one of them, is not priced again. GS_ERR_SHAPE when the plan cannot take one of them
 * (the widget then draws no chart). out has room for cap rows. */
int gs_offered_chart(const gs_setting *s, const gs_priced *now, gs_chart_row *out, size_t cap, gs_error *err) {
  gs_sweep_row rows[GS_OFFERED_MAX];
  size_t i;
  int rc;
  if (GS_COUNT_COUNT > cap) return gs_fail(err, GS_ERR_TOO_LONG, "counts", "a chart of %zu rows has room for %zu", GS_COUNT_COUNT, cap);
  memset(rows, 0, sizeof rows);
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    uint64_t c = GS_COUNTS[i];
    gs_sweep_row *r;
    if (c < 1 || c > GS_OFFERED_MAX)
      return gs_fail(err, GS_ERR_TOO_LONG, "counts", "the offered counts go up to %d", GS_OFFERED_MAX);
    r = &rows[c - 1];
    r->gpus = c;
    if (now && now->plan.gpus == c) r->cost = now->cost;
    else {
      gs_plan p = s->plan;
      p.gpus = c;
      if ((rc = gs_cost(&s->model, &s->gpu, &s->link, &p, &r->cost, err)) != GS_OK) return rc;
    }
    r->allowed = 1;
  }
  return gs_chart_of(rows, GS_OFFERED_MAX, GS_COUNTS, GS_COUNT_COUNT, out, cap, err);
}

