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

int gs_view_make(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_view *out, gs_error *err) {
  gs_cost_result c;
  double usable, used;
  char num[GS_FIGURE_CAP];
  int rc = gs_cost(m, g, l, p, &c, err);
  if (rc != GS_OK) return rc;
  memset(out, 0, sizeof *out);
  usable = (double)c.usable_bytes;
  out->fits = c.fits;
  gib_text(out->memory, sizeof out->memory, c.memory.total);
  gib_text(out->weights, sizeof out->weights, c.memory.weights);
  gib_text(out->cache, sizeof out->cache, c.memory.cache);
  gib_text(out->working, sizeof out->working, c.memory.working);
  gs_format(out->usable, sizeof out->usable, "%s GiB", gs_fixed(num, sizeof num, usable / (double)GS_GIB, 1));
  used = (double)c.memory.total / usable;
  out->mem_bar = 100 * (used < 1 ? used : 1);
  out->limit_bar = used > 1 ? 100 / used : 100;
  if (!out->fits) {
    gs_format(out->time, sizeof out->time, "%s", DOES_NOT_FIT);
    return GS_OK;
  }
  ms_text(out->time, sizeof out->time, c.time.total);
  ms_text(out->read, sizeof out->read, c.time.read);
  ms_text(out->transfer, sizeof out->transfer, c.time.transfer);
  /* a share under 0.1% keeps two places, as the lesson writes groups' 0.03% */
  gs_format(out->waiting, sizeof out->waiting, "%s%%",
            gs_fixed(num, sizeof num, c.time.share * 100, c.time.share > 0 && c.time.share < 0.001 ? 2 : 1));
  gs_fixed_grouped(out->words_per_s, sizeof out->words_per_s, c.time.words_per_s, 1);
  gs_fixed_grouped(out->words_all, sizeof out->words_all, c.time.total_words_per_s, 1);
  out->wait_bar = 100 * c.time.share;
  return GS_OK;
}

/* One word's step on each GPU, as shares of the step: slices read together, then swap;
 * groups take turns, each idle while the others read, then hands on. Up to cap GPUs. */
int gs_timeline_make(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_timeline_row *rows,
                     size_t cap, gs_error *err) {
  gs_cost_result c;
  uint64_t i, n = p->gpus;
  int rc = gs_cost(m, g, l, p, &c, err);
  if (rc != GS_OK) return rc;
  if (n > cap) return gs_fail(err, GS_ERR_TOO_LONG, "gpus", "a timeline draws at most %zu GPUs", cap);
  if (p->split != GS_GROUPS || n == 1) {
    for (i = 0; i < n; i++) {
      rows[i].idle_before = 0;
      rows[i].read = 100 * c.time.read / c.time.total;
      rows[i].wait = 100 * c.time.transfer / c.time.total;
      rows[i].idle_after = 0;
    }
    return GS_OK;
  }
  {
    double turn = c.time.read / (double)n, handoff = c.time.transfer / (double)(n - 1), at = 0;
    for (i = 0; i < n; i++) {
      rows[i].idle_before = 100 * at / c.time.total;
      rows[i].read = 100 * turn / c.time.total;
      rows[i].wait = i + 1 < n ? 100 * handoff / c.time.total : 0;
      at += turn + (i + 1 < n ? handoff : 0);
      rows[i].idle_after = 100 * (c.time.total - at) / c.time.total;
    }
  }
  return GS_OK;
}

/* One row per count; the bars of the rows that fit are scaled to the slowest of them. */
int gs_chart_make(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const uint64_t *counts,
                  size_t count_n, gs_chart_row *rows, gs_error *err) {
  gs_time times[64];
  gs_plan at = *p;
  double top = 0;
  size_t i;
  if (count_n > sizeof times / sizeof times[0]) return gs_fail(err, GS_ERR_TOO_LONG, "counts", "at most 64 counts");
  for (i = 0; i < count_n; i++) {
    gs_cost_result c;
    int rc;
    at.gpus = counts[i];
    if ((rc = gs_cost(m, g, l, &at, &c, err)) != GS_OK) return rc;
    times[i] = c.time;
    rows[i].gpus = counts[i];
    rows[i].fits = c.fits;
    if (rows[i].fits && times[i].total > top) top = times[i].total;
  }
  for (i = 0; i < count_n; i++) {
    rows[i].read_bar = rows[i].fits ? 100 * times[i].read / top : 0;
    rows[i].wait_bar = rows[i].fits ? 100 * times[i].transfer / top : 0;
    if (rows[i].fits) ms_text(rows[i].time, sizeof rows[i].time, times[i].total);
    else gs_format(rows[i].time, sizeof rows[i].time, "%s", DOES_NOT_FIT);
  }
  return GS_OK;
}

size_t gs_pack_text(char *buf, size_t cap, size_t at, const char *s) {
  size_t n = strlen(s) + 1;
  if (at > cap || n > cap - at) return at;
  memcpy(buf + at, s, n);
  return at + n;
}

size_t gs_view_pack(const gs_view *v, char *buf, size_t cap, size_t at) {
  const char *const figures[GS_VIEW_PACKED] = {v->memory, v->weights, v->cache, v->working, v->usable,
                                               v->time, v->read, v->transfer, v->waiting, v->words_per_s};
  size_t i;
  for (i = 0; i < GS_VIEW_PACKED; i++) at = gs_pack_text(buf, cap, at, figures[i]);
  return at;
}
