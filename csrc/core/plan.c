/* The plan (issue 21): every layout of one model on one machine within a budget of GPUs,
 * each priced once through gs_price, kept as a frontier: for each time a word that some
 * layout reaches, the layout with the most words a second a GPU. A layout is one copy's
 * GPU count n and how it is cut, served by gpus_max / n replicas (each serving its own
 * chats, so the words a second a GPU are one copy's, and the total is replicas times it).
 *
 * The layouts tried, for every count n up to the budget that the setting allows (the
 * heads divided under real rules, whole servers for slices-groups):
 * - slices: every layer cut over the n GPUs (within a server, or across servers);
 * - groups: n groups of layers, one batch in flight or n (one a group, as engines keep a
 *   pipeline busy);
 * - slices-groups, when n spans servers: a group a server, sliced inside; one batch in
 *   flight or one a group;
 * - for a mixture of experts, slices with the experts spread (csrc/core/experts.c);
 * - chats at once 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (each step x 1.5 or x 4/3, so the
 *   times a word are never more than half again apart) and the most that fit (gs_deploy's
 *   chats_fit, with a cache for each chat; GS_PLAN_MAX_WORDS with the lesson's one cache).
 * That is at most 6 cuts x ~2 log2(chats) chat counts a count: for 64 GPUs and thousands
 * of chats, some thousands of prices, each a few microseconds. Past GS_PLAN_EVERY_COUNT
 * only the counts of csrc/core/plan_counts.c are searched, so a budget of 65,536 GPUs
 * costs about what 64 do. */
#include <string.h>

#include "internal.h"

void gs_layout_setting(const gs_setting *s, const gs_layout *l, gs_setting *scratch) {
  *scratch = *s;
  scratch->plan.split = l->split;
  scratch->plan.experts = l->experts;
  scratch->plan.words = l->words;
  scratch->plan.in_flight = l->in_flight > 1 ? l->in_flight : 0;
  scratch->replicas = l->replicas;
}

int gs_layout_price(const gs_setting *s, const gs_layout *l, gs_setting *scratch, gs_priced *out, gs_error *err) {
  gs_layout_setting(s, l, scratch);
  return gs_price(scratch, l->gpus, out, err);
}

char *gs_layout_flags(const gs_layout *l, char *buf, size_t cap) {
  char flight[48] = "";
  if (l->in_flight > 1) gs_format(flight, sizeof flight, " --in-flight %llu", (unsigned long long)l->in_flight);
  gs_format(buf, cap, "--counts %llu --split %s --experts %s --words %llu%s --replicas %llu", (unsigned long long)l->gpus,
            gs_split_name(l->split), l->experts == GS_EXPERTS_SPREAD ? "spread" : "slices", (unsigned long long)l->words, flight,
            (unsigned long long)l->replicas);
  return buf;
}

/* a is at least as fast and at least as busy as b. */
static int dominates(const gs_layout *a, const gs_layout *b) { return a->word_s <= b->word_s && a->per_gpu >= b->per_gpu; }

/* Adds l to the frontier unless a point there dominates it; drops the points it dominates.
 * Points stay sorted by time a word. */
static int frontier_add(gs_plan_result *out, const gs_layout *l, gs_error *err) {
  size_t i, kept = 0, at;
  for (i = 0; i < out->count; i++)
    if (dominates(&out->points[i], l)) return GS_OK;
  for (i = 0; i < out->count; i++)
    if (!dominates(l, &out->points[i])) out->points[kept++] = out->points[i];
  out->count = kept;
  if (out->count == GS_PLAN_MAX_POINTS)
    return gs_fail(err, GS_ERR_TOO_LONG, "frontier", "has more than %d points; give fewer GPUs", GS_PLAN_MAX_POINTS);
  for (at = 0; at < out->count && out->points[at].word_s < l->word_s; at++) {
  }
  memmove(&out->points[at + 1], &out->points[at], (out->count - at) * sizeof out->points[0]);
  out->points[at] = *l;
  out->count++;
  return GS_OK;
}

/* What the search keeps besides the frontier, to choose and to say why none meets. */
typedef struct {
  const gs_plan_ask *ask;
  int priced;                 /* a layout was priced, fitting or not */
  gs_layout least;            /* of those, the one whose GPU holds the least ... */
  gs_memory least_memory;     /* ... this much */
  uint64_t usable;            /* of what a GPU may use */
  int any;                    /* a layout fits */
  gs_layout fastest;          /* the shortest time a word */
  gs_layout quickest_first;   /* the shortest first word */
  int any_word;               /* a layout meets the word target */
  gs_layout quickest_first_in_word; /* of those, the shortest first word */
} tracker;

/* A first-word target is met only by a first word that is priced (above 0). */
static int meets(const gs_plan_ask *a, const gs_layout *l) {
  return (a->target_word_s <= 0 || l->word_s <= a->target_word_s) &&
         (a->target_first_s <= 0 || (l->first_s > 0 && l->first_s <= a->target_first_s));
}

static void track(tracker *t, gs_plan_result *out, const gs_layout *l) {
  const gs_plan_ask *a = t->ask;
  if (!t->any || l->word_s < t->fastest.word_s) t->fastest = *l;
  if (!t->any || l->first_s < t->quickest_first.first_s) t->quickest_first = *l;
  t->any = 1;
  if (a->target_word_s > 0 && l->word_s <= a->target_word_s) {
    if (!t->any_word || l->first_s < t->quickest_first_in_word.first_s) t->quickest_first_in_word = *l;
    t->any_word = 1;
  }
  if ((a->target_word_s > 0 || a->target_first_s > 0) && meets(a, l) &&
      (!out->has_choice || l->per_gpu > out->choice.per_gpu ||
       (l->per_gpu == out->choice.per_gpu && l->word_s < out->choice.word_s))) {
    out->choice = *l;
    out->has_choice = 1;
  }
}

/* One cut (count, split, experts, batches) priced at every chat count of the ladder. */
static int try_cut(const gs_setting *s, gs_setting *scratch, gs_layout *l, tracker *t, gs_plan_result *out, gs_error *err) {
  gs_priced pr;
  uint64_t most = GS_PLAN_MAX_WORDS;
  int rc;
  for (l->words = 1;; l->words = l->words == most ? most + 1 : gs_plan_next_step(l->words) > most ? most : gs_plan_next_step(l->words)) {
    if (l->words > most) break;
    rc = gs_layout_price(s, l, scratch, &pr, err);
    if (rc == GS_ERR_SHAPE) return GS_OK; /* a cut the setting cannot take at this count */
    if (rc != GS_OK) return rc;
    out->tried++;
    if (l->words == 1 && (!t->priced || pr.cost.memory.total < t->least_memory.total)) {
      t->priced = 1;
      t->least = *l;
      t->least_memory = pr.cost.memory;
      t->usable = pr.cost.usable_bytes;
    }
    if (l->words == 1 && pr.deploy.chats_fit >= 0) most = (uint64_t)pr.deploy.chats_fit;
    if (!pr.cost.fits) return GS_OK; /* fewer chats than one batch: more would not fit either */
    l->word_s = pr.cost.time.total;
    l->first_s = pr.cost.first_word;
    l->words_per_s = pr.deploy.words_per_s;
    l->per_gpu = pr.deploy.words_per_s / (double)pr.deploy.gpus;
    l->cost_per_million = pr.deploy.cost_per_million;
    track(t, out, l);
    if ((rc = frontier_add(out, l, err)) != GS_OK) return rc;
  }
  return GS_OK;
}

/* Why the frontier is empty: the least a GPU holds within the budget, of what it may use,
 * and the fewest GPUs that would hold the model. */
static void say_none_fits(const gs_setting *s, const gs_plan_ask *a, const tracker *t, gs_plan_result *out) {
  char from[128], held[GS_FIGURE_CAP], w[GS_FIGURE_CAP], c[GS_FIGURE_CAP], k[GS_FIGURE_CAP], usable[GS_FIGURE_CAP];
  const gs_memory *m = &t->least_memory;
  uint64_t fewest = a->gpus_max < GS_MAX_GPUS ? gs_plan_fewest_allowed(s, a->gpus_max + 1, GS_MAX_GPUS) : 0;
  const double gib = (double)GS_GIB;
  if (fewest) gs_format(from, sizeof from, "; the fewest that hold it are %llu", (unsigned long long)fewest);
  else gs_format(from, sizeof from, "; no count up to %llu that these settings take holds it", (unsigned long long)GS_MAX_GPUS);
  if (!t->priced) {
    gs_format(out->why, sizeof out->why, "no count within %llu GPUs suits these settings%s", (unsigned long long)a->gpus_max, from);
    return;
  }
  gs_format(out->why, sizeof out->why,
            "no layout within %llu GPUs holds the model: on %llu GPUs a GPU would hold %s GiB (weights %s, "
            "cache %s, working %s) of the %s GiB it may use%s",
            (unsigned long long)a->gpus_max, (unsigned long long)t->least.gpus, gs_fixed(held, sizeof held, (double)m->total / gib, 2),
            gs_fixed(w, sizeof w, (double)m->weights / gib, 2), gs_fixed(c, sizeof c, (double)m->cache / gib, 2),
            gs_fixed(k, sizeof k, (double)m->working / gib, 2), gs_fixed(usable, sizeof usable, (double)t->usable / gib, 1), from);
}

/* Why no layout that fits meets the targets (some layout fits). Past GS_PLAN_EVERY_COUNT
 * the layouts are those of the counts searched, and the reason says so. */
static void say_why(const gs_plan_ask *a, const tracker *t, gs_plan_result *out) {
  char flags[160], ms[GS_FIGURE_CAP];
  const char *searched = out->budget > out->every_to ? " searched" : "";
  if (a->target_word_s > 0 && !t->any_word) {
    gs_format(out->why, sizeof out->why, "the fastest layout%s within %llu GPUs takes %s ms a word (%s)", searched,
              (unsigned long long)a->gpus_max, gs_fixed(ms, sizeof ms, t->fastest.word_s * 1e3, 2),
              gs_layout_flags(&t->fastest, flags, sizeof flags));
  } else if (a->target_word_s > 0) {
    gs_format(out->why, sizeof out->why, "of the layouts within the word target, the quickest first word takes %s ms (%s)",
              gs_fixed(ms, sizeof ms, t->quickest_first_in_word.first_s * 1e3, 2),
              gs_layout_flags(&t->quickest_first_in_word, flags, sizeof flags));
  } else {
    gs_format(out->why, sizeof out->why, "the quickest first word%s within %llu GPUs takes %s ms (%s)", searched,
              (unsigned long long)a->gpus_max,
              gs_fixed(ms, sizeof ms, t->quickest_first.first_s * 1e3, 2), gs_layout_flags(&t->quickest_first, flags, sizeof flags));
  }
}

/* Every cut of n GPUs: slices, groups, slices-groups across servers, experts spread, one
 * batch in flight or one a group. */
static int search_count(const gs_setting *s, const gs_plan_ask *a, uint64_t n, tracker *t, gs_plan_result *out, gs_error *err) {
  static const int SPLITS[] = {GS_SLICES, GS_GROUPS, GS_SLICES_GROUPS};
  gs_setting scratch; /* each cut's setting, copied from s by gs_layout_setting */
  gs_plan at = s->plan;
  uint64_t servers;
  size_t k;
  int rc;
  at.gpus = n;
  servers = gs_plan_servers(&at);
  rc = gs_count_allowed(s, n, err);
  if (rc == GS_ERR_SHAPE) return GS_OK;
  if (rc != GS_OK) return rc;
  for (k = 0; k < sizeof SPLITS / sizeof SPLITS[0]; k++) {
    int split = SPLITS[k], experts;
    uint64_t groups = split == GS_GROUPS ? n : split == GS_SLICES_GROUPS ? servers : 1, flight;
    if (split == GS_GROUPS && n == 1) continue;                /* one group is slices of one */
    if (split == GS_SLICES_GROUPS && servers == 1) continue;   /* within a server it is slices */
    for (experts = GS_EXPERTS_SLICES; experts <= GS_EXPERTS_SPREAD; experts++) {
      if (experts == GS_EXPERTS_SPREAD && (split != GS_SLICES || s->model.experts == 0 || n == 1)) continue;
      for (flight = 1; flight <= groups; flight = flight == groups ? groups + 1 : groups) {
        gs_layout l;
        memset(&l, 0, sizeof l);
        l.gpus = n;
        l.split = split;
        l.experts = experts;
        l.in_flight = flight;
        l.replicas = a->gpus_max / n;
        if ((rc = try_cut(s, &scratch, &l, t, out, err)) != GS_OK) return rc;
      }
    }
  }
  return GS_OK;
}

int gs_plan_search(const gs_setting *s, const gs_plan_ask *a, gs_plan_result *out, gs_error *err) {
  tracker t;
  uint64_t n;
  size_t i;
  int rc;
  memset(out, 0, sizeof *out);
  memset(&t, 0, sizeof t);
  t.ask = a;
  if (a->gpus_max < 1 || a->gpus_max > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "gpus_max", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (a->target_word_s < 0 || a->target_first_s < 0 || a->target_word_s != a->target_word_s || a->target_first_s != a->target_first_s)
    return gs_fail(err, GS_ERR_RANGE, "target", "must be a time above 0");
  if (a->target_first_s > 0 && s->plan.prompt_tokens == 0)
    return gs_fail(err, GS_ERR_RANGE, "target_first", "needs the first word priced, and these settings give no prompt");
  gs_plan_counts(s, a->gpus_max, out);
  for (n = 1; n <= out->every_to; n++)
    if ((rc = search_count(s, a, n, &t, out, err)) != GS_OK) return rc;
  for (i = 0; i < out->sparse_n; i++)
    if ((rc = search_count(s, a, out->sparse[i], &t, out, err)) != GS_OK) return rc;
  if (!t.any) say_none_fits(s, a, &t, out);
  else if ((a->target_word_s > 0 || a->target_first_s > 0) && !out->has_choice) say_why(a, &t, out);
  return GS_OK;
}
