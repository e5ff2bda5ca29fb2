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
  gs_words_rate(out->words_per_s, sizeof out->words_per_s, c->time.words_per_s);
  gs_words_rate(out->words_all, sizeof out->words_all, c->time.total_words_per_s);
  gs_format(out->idle, sizeof out->idle, "%s%%", gs_fixed(num, sizeof num, c->time.idle * 100, 1));
  if (c->first_word > 0) ms_text(out->first_word, sizeof out->first_word, c->first_word);
  out->wait_bar = 100 * c->time.share;
}

/* What the widget says of a priced count in words: the name of its step, its words a
 * second, its cache, its waiting, and the quarters of its step for the timeline's axis.
 * Each count of things is written with its singular or plural; one GPU swaps nothing. */
void gs_view_plan(gs_priced *r) {
  const gs_plan *p = &r->plan;
  const gs_cost_result *c = &r->cost;
  gs_view *v = &r->view;
  uint64_t batches = gs_plan_batches(p), chats = p->words * batches;
  uint64_t tokens = p->chat_tokens ? p->chat_tokens : GS_CHAT_TOKENS;
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], t[GS_FIGURE_CAP], k[GS_FIGURE_CAP];
  int i;
  gs_format(v->step_name, sizeof v->step_name, "%s", chats > 1 ? "Time for one step" : "Time for one word");
  gs_grouped(t, sizeof t, tokens);
  gs_grouped(a, sizeof a, chats);
  if (chats == 1) gs_format(v->cache_note, sizeof v->cache_note, "The cache is one chat's, %s tokens long.", t);
  else if (p->cache_per_chat) gs_format(v->cache_note, sizeof v->cache_note, "Each of the %s chats holds its own %s-token cache.", a, t);
  else if (batches == 1)
    gs_format(v->cache_note, sizeof v->cache_note,
              "The cache is still one %s-token chat's, as in the lesson; each of the %s chats would need its own.", t, a);
  else
    gs_format(v->cache_note, sizeof v->cache_note,
              "The cache is one %s-token chat's for each of the %llu batches in flight, as in the lesson; each of the %s chats "
              "would need its own.", t, (unsigned long long)batches, a);
  if (!c->fits) return;
  if (chats == 1) gs_format(v->words_note, sizeof v->words_note, "%s words a second for the one chat", v->words_per_s);
  else gs_format(v->words_note, sizeof v->words_note, "%s words a second for each chat; %s for all %s together", v->words_per_s,
                 v->words_all, a);
  if (p->gpus == 1) gs_format(v->waiting_note, sizeof v->waiting_note, "No swaps: one GPU holds every layer; %s reading", v->read);
  else if (p->split == GS_GROUPS)
    gs_format(v->waiting_note, sizeof v->waiting_note, "%s of %s waiting, in %llu hand-off%s; %s reading", v->transfer, v->time,
              (unsigned long long)(p->gpus - 1), p->gpus == 2 ? "" : "s", v->read);
  else if (p->split == GS_SLICES && c->servers == 1)
    gs_format(v->waiting_note, sizeof v->waiting_note, "%s of %s waiting, in %s swaps%s; %s reading", v->transfer, v->time,
              gs_grouped(k, sizeof k, GS_ALL_REDUCES_PER_LAYER * r->setting->model.layers), p->overlap ? " after overlap" : "", v->read);
  else gs_format(v->waiting_note, sizeof v->waiting_note, "%s of %s waiting, on the links; %s reading", v->transfer, v->time, v->read);
  if (batches > 1) {
    /* the lesson's point: a bunch of chats costs a group its whole read, however few */
    double reading = (double)c->read_bytes / r->setting->gpu.bandwidth;
    gs_grouped(b, sizeof b, p->words);
    gs_format(v->batches_note, sizeof v->batches_note,
              "%llu batches of %s chats in flight keep every group busy, and each chat still waits %s for each word.%s%s%s",
              (unsigned long long)batches, b, v->time,
              reading >= c->compute ? " Splitting the same " : "", reading >= c->compute ? b : "",
              reading >= c->compute ? " chats into smaller bunches gains nothing while reading sets the pace: each group "
                                      "still reads all its weights for every bunch." : "");
  }
  for (i = 0; i < 4; i++) ms_text(v->axis[i], sizeof v->axis[i], c->time.total * (i + 1) / 4);
}

/* One GPU's row: its shares of the step from its seconds, and what it does in words. */
/* whole: the GPU works all the step (read + wait is the step's total), so it is never idle. */
static void timeline_row(gs_timeline_row *row, uint64_t gpu, double total, double before, double read, double wait,
                         const char *sending, const char *how, uint64_t repeat, int whole) {
  char r[GS_FIGURE_CAP], w[GS_FIGURE_CAP], i[GS_FIGURE_CAP], share[GS_FIGURE_CAP], sent[2 * GS_FIGURE_CAP];
  double idle = whole ? 0 : total - read - wait;
  row->idle_before = 100 * before / total;
  row->read = 100 * read / total;
  row->wait = 100 * wait / total;
  row->idle_after = whole ? 0 : 100 * (total - before - read - wait) / total;
  row->repeat = repeat;
  ms_text(r, sizeof r, read);
  ms_text(w, sizeof w, wait);
  ms_text(i, sizeof i, idle);
  gs_fixed(share, sizeof share, 100 * idle / total, 1);
  if (sending[0]) gs_format(sent, sizeof sent, ", %s %s%s", sending, w, how);
  else sent[0] = '\0';
  gs_format(row->text, sizeof row->text, "GPU %llu: reading %s%s, idle %s (%s%%)", (unsigned long long)gpu, r, sent, i, share);
}

/* One step on each GPU, as shares of the step: slices read together, then swap, once a
 * layer; groups take turns, each idle while the others read, then hands on; groups with
 * B batches in flight read B turns a step, and carry B/n of the step's hand-offs, which the
 * model charges to the step (gs_cost). A count that does not fit draws nothing. Up to cap
 * GPUs. */
int gs_timeline_of(const gs_priced *pr, gs_timeline_row *rows, size_t cap, gs_error *err) {
  const gs_cost_result *c = &pr->cost;
  uint64_t i, n = pr->plan.gpus, batches = gs_plan_batches(&pr->plan);
  double total = c->time.total;
  if (n > cap) return gs_fail(err, GS_ERR_TOO_LONG, "gpus", "a timeline draws at most %zu GPUs", cap);
  memset(rows, 0, (size_t)n * sizeof *rows);
  if (!c->fits) {
    for (i = 0; i < n; i++) gs_format(rows[i].text, sizeof rows[i].text, "GPU %llu: does not fit", (unsigned long long)(i + 1));
    return GS_OK;
  }
  if (pr->plan.split != GS_GROUPS || n == 1) {
    char swaps[GS_FIGURE_CAP + 16], k[GS_FIGURE_CAP];
    int layered = pr->plan.split == GS_SLICES && c->servers == 1 && !pr->plan.overlap && pr->setting;
    const char *sending = n == 1 ? "" : "waiting";
    uint64_t repeat = layered && n > 1 ? pr->setting->model.layers : 1;
    if (n > 1 && layered)
      gs_format(swaps, sizeof swaps, " in %s swaps", gs_grouped(k, sizeof k, GS_ALL_REDUCES_PER_LAYER * pr->setting->model.layers));
    else swaps[0] = '\0';
    for (i = 0; i < n; i++) timeline_row(&rows[i], i + 1, total, 0, c->time.read, c->time.transfer, sending, swaps, repeat, 1);
    return GS_OK;
  }
  if (batches > 1) {
    double read = batches == n ? c->time.read : (double)batches * (c->time.read / (double)n);
    double wait = batches == n ? c->time.transfer : (double)batches * (c->time.transfer / (double)n);
    for (i = 0; i < n; i++) timeline_row(&rows[i], i + 1, total, 0, read, wait, "waiting", " in hand-offs", 1, batches == n);
    return GS_OK;
  }
  {
    double turn = c->time.read / (double)n, handoff = c->time.transfer / (double)(n - 1), at = 0;
    for (i = 0; i < n; i++) {
      double wait = i + 1 < n ? handoff : 0;
      timeline_row(&rows[i], i + 1, total, at, turn, wait, i + 1 < n ? "waiting" : "", " in its hand-off", 1, 0);
      at += turn + wait;
    }
  }
  return GS_OK;
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

size_t gs_pack_text(char *buf, size_t cap, size_t at, const char *s) {
  size_t n = strlen(s) + 1;
  if (at > cap || n > cap - at) return at;
  memcpy(buf + at, s, n);
  return at + n;
}

