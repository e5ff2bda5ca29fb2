/* What a person sees for a setting: rounded figures, bar widths and chart rows. The
 * command line and the widget both print these, so they show the same text. Rounding
 * follows the lesson's show_numbers.py: GiB and ms to 2 places, shares to 1. */
#include <string.h>

#include "internal.h"

static const char DOES_NOT_FIT[] = "Does not fit";

static void gib_text(char *buf, size_t cap, uint64_t bytes) {
  char n[32];
  gs_format(buf, cap, "%s GiB", gs_fixed(n, sizeof n, (double)bytes / (double)GS_GIB, 2));
}

static void ms_text(char *buf, size_t cap, double seconds) {
  char n[32];
  gs_format(buf, cap, "%s ms", gs_fixed_grouped(n, sizeof n, seconds * 1e3, 2));
}

int gs_view_make(const gs_shape *s, const gs_gpu *g, const gs_link *l, uint64_t n, int split, uint64_t words,
                 gs_view *out) {
  gs_memory m;
  gs_time t;
  double usable = (double)gs_usable_bytes(g), used;
  char num[32];
  int rc = gs_word_time(s, g, l, n, split, words, &t);
  if (rc != GS_OK) return rc;
  gs_memory_per_gpu(s, n, &m);
  memset(out, 0, sizeof *out);
  out->fits = gs_fits(s, g, n);
  gib_text(out->memory, sizeof out->memory, m.total);
  gib_text(out->weights, sizeof out->weights, m.weights);
  gib_text(out->cache, sizeof out->cache, m.cache);
  gib_text(out->working, sizeof out->working, m.working);
  gs_format(out->usable, sizeof out->usable, "%s GiB", gs_fixed(num, sizeof num, usable / (double)GS_GIB, 1));
  used = (double)m.total / usable;
  out->mem_bar = 100 * (used < 1 ? used : 1);
  if (!out->fits) {
    gs_format(out->time, sizeof out->time, "%s", DOES_NOT_FIT);
    return GS_OK;
  }
  ms_text(out->time, sizeof out->time, t.total);
  ms_text(out->read, sizeof out->read, t.read);
  ms_text(out->transfer, sizeof out->transfer, t.transfer);
  gs_format(out->waiting, sizeof out->waiting, "%s%%", gs_fixed(num, sizeof num, t.share * 100, 1));
  gs_fixed_grouped(out->words_per_s, sizeof out->words_per_s, t.words_per_s, 1);
  out->wait_bar = 100 * t.share;
  return GS_OK;
}

/* One row per count; the bars of the rows that fit are scaled to the slowest of them. */
int gs_chart_make(const gs_shape *s, const gs_gpu *g, const gs_link *l, int split, uint64_t words,
                  const uint64_t *counts, size_t count_n, gs_chart_row *rows) {
  gs_time times[64];
  double top = 0;
  size_t i;
  if (count_n > sizeof times / sizeof times[0]) return GS_ERR_TOO_LONG;
  for (i = 0; i < count_n; i++) {
    int rc = gs_word_time(s, g, l, counts[i], split, words, &times[i]);
    if (rc != GS_OK) return rc;
    rows[i].gpus = counts[i];
    rows[i].fits = gs_fits(s, g, counts[i]);
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
