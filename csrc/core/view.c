/* What a person sees for a setting: rounded figures, bar widths and chart rows. The
 * command line and the widget both print these, so they show the same text. Rounding
 * follows the lesson's show_numbers.py: GiB and ms to 2 places, shares to 1. */
#include <string.h>

#include "internal.h"

static const char DOES_NOT_FIT[] = "Does not fit";

static void gib_text(char *buf, size_t cap, uint64_t bytes) {
  char n[GS_FIGURE_CAP];
  gs_format(buf, cap, "%s GiB", gs_fixed(n, sizeof n, (double)bytes / (double)GS_GIB, 2));
}

static void ms_text(char *buf, size_t cap, double seconds) {
  char n[GS_FIGURE_CAP];
  gs_format(buf, cap, "%s ms", gs_fixed_grouped(n, sizeof n, seconds * 1e3, 2));
}

/* A share under 0.1% keeps two places, as the lesson writes groups' 0.03%; others one. */
int gs_share_places(double share) { return share > 0 && share < 0.001 ? 2 : 1; }

/* What a person sees of one priced count. */
void gs_view_of(const gs_cost_result *c, gs_view *out) {
  double usable, used;
  char num[GS_FIGURE_CAP];
  memset(out, 0, sizeof *out);
  usable = (double)c->usable_bytes;
  out->fits = c->fits;
  gib_text(out->memory, sizeof out->memory, c->memory.total);
  gib_text(out->weights, sizeof out->weights, c->memory.weights);
  gib_text(out->cache, sizeof out->cache, c->memory.cache);
  gib_text(out->working, sizeof out->working, c->memory.working);
  gs_format(out->usable, sizeof out->usable, "%s GiB", gs_fixed(num, sizeof num, usable / (double)GS_GIB, 1));
  used = (double)c->memory.total / usable;
  out->mem_bar = 100 * (used < 1 ? used : 1);
  out->limit_bar = used > 1 ? 100 / used : 100;
  if (!out->fits) {
    gs_format(out->time, sizeof out->time, "%s", DOES_NOT_FIT);
    return;
  }
  ms_text(out->time, sizeof out->time, c->time.total);
  ms_text(out->read, sizeof out->read, c->time.read);
  ms_text(out->transfer, sizeof out->transfer, c->time.transfer);
  gs_format(out->waiting, sizeof out->waiting, "%s%%", gs_fixed(num, sizeof num, c->time.share * 100, gs_share_places(c->time.share)));
  gs_fixed_grouped(out->words_per_s, sizeof out->words_per_s, c->time.words_per_s, 1);
  gs_fixed_grouped(out->words_all, sizeof out->words_all, c->time.total_words_per_s, 1);
  gs_format(out->idle, sizeof out->idle, "%s%%", gs_fixed(num, sizeof num, c->time.idle * 100, 1));
  if (c->first_word > 0) ms_text(out->first_word, sizeof out->first_word, c->first_word);
  out->wait_bar = 100 * c->time.share;
}

int gs_view_make(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_view *out, gs_error *err) {
  gs_cost_result c;
  int rc = gs_cost(m, g, l, p, &c, err);
  if (rc != GS_OK) return rc;
  gs_view_of(&c, out);
  return GS_OK;
}

/* One word's step on each GPU, as shares of the step: slices read together, then swap;
 * groups take turns, each idle while the others read, then hands on. Up to cap GPUs. */
int gs_timeline_of(const gs_priced *pr, gs_timeline_row *rows, size_t cap, gs_error *err) {
  const gs_cost_result *c = &pr->cost;
  uint64_t i, n = pr->plan.gpus;
  if (n > cap) return gs_fail(err, GS_ERR_TOO_LONG, "gpus", "a timeline draws at most %zu GPUs", cap);
  if (pr->plan.split != GS_GROUPS || n == 1) {
    for (i = 0; i < n; i++) {
      rows[i].idle_before = 0;
      rows[i].read = 100 * c->time.read / c->time.total;
      rows[i].wait = 100 * c->time.transfer / c->time.total;
      rows[i].idle_after = 0;
    }
    return GS_OK;
  }
  {
    double turn = c->time.read / (double)n, handoff = c->time.transfer / (double)(n - 1), at = 0;
    for (i = 0; i < n; i++) {
      rows[i].idle_before = 100 * at / c->time.total;
      rows[i].read = 100 * turn / c->time.total;
      rows[i].wait = i + 1 < n ? 100 * handoff / c->time.total : 0;
      at += turn + (i + 1 < n ? handoff : 0);
      rows[i].idle_after = 100 * (c->time.total - at) / c->time.total;
    }
  }
  return GS_OK;
}

int gs_timeline_make(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_timeline_row *rows,
                     size_t cap, gs_error *err) {
  gs_priced pr;
  int rc;
  memset(&pr, 0, sizeof pr);
  pr.plan = *p;
  if ((rc = gs_cost(m, g, l, p, &pr.cost, err)) != GS_OK) return rc;
  return gs_timeline_of(&pr, rows, cap, err);
}

/* One row per count; the bars of the rows that fit are scaled to the slowest of them. */
static void chart_rows(const uint64_t *counts, const gs_cost_result *const *costs, size_t count_n, gs_chart_row *rows) {
  double top = 0;
  size_t i;
  for (i = 0; i < count_n; i++) {
    rows[i].gpus = counts[i];
    rows[i].fits = costs[i]->fits;
    if (rows[i].fits && costs[i]->time.total > top) top = costs[i]->time.total;
  }
  for (i = 0; i < count_n; i++) {
    const gs_time *t = &costs[i]->time;
    rows[i].read_bar = rows[i].fits ? 100 * t->read / top : 0;
    rows[i].wait_bar = rows[i].fits ? 100 * t->transfer / top : 0;
    if (rows[i].fits) ms_text(rows[i].time, sizeof rows[i].time, t->total);
    else gs_format(rows[i].time, sizeof rows[i].time, "%s", DOES_NOT_FIT);
  }
}

int gs_chart_of(const gs_sweep_row *sweep, size_t row_n, const uint64_t *counts, size_t count_n, gs_chart_row *out,
                size_t cap, gs_error *err) {
  const gs_cost_result *costs[GS_MAX_CHART];
  size_t i;
  if (count_n > cap || count_n > GS_MAX_CHART)
    return gs_fail(err, GS_ERR_TOO_LONG, "counts", "a chart of %zu rows has room for %zu", count_n, cap < GS_MAX_CHART ? cap : GS_MAX_CHART);
  for (i = 0; i < count_n; i++) {
    if (counts[i] < 1 || counts[i] > row_n || !sweep[counts[i] - 1].allowed)
      return gs_fail(err, GS_ERR_SHAPE, "counts", "%llu is not a count of this sweep", (unsigned long long)counts[i]);
    costs[i] = &sweep[counts[i] - 1].cost;
  }
  chart_rows(counts, costs, count_n, out);
  return GS_OK;
}

int gs_chart_make(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const uint64_t *counts,
                  size_t count_n, gs_chart_row *rows, gs_error *err) {
  gs_cost_result results[GS_MAX_CHART];
  const gs_cost_result *costs[GS_MAX_CHART];
  gs_plan at = *p;
  size_t i;
  if (count_n > GS_MAX_CHART) return gs_fail(err, GS_ERR_TOO_LONG, "counts", "at most %d counts", GS_MAX_CHART);
  for (i = 0; i < count_n; i++) {
    int rc;
    at.gpus = counts[i];
    if ((rc = gs_cost(m, g, l, &at, &results[i], err)) != GS_OK) return rc;
    costs[i] = &results[i];
  }
  chart_rows(counts, costs, count_n, rows);
  return GS_OK;
}

size_t gs_pack_text(char *buf, size_t cap, size_t at, const char *s) {
  size_t n = strlen(s) + 1;
  if (at > cap || n > cap - at) return at;
  memcpy(buf + at, s, n);
  return at + n;
}

