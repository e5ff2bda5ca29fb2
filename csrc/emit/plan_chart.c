/* The plan's frontier as a chart an engineer reads (the explorer's, web/explorer.html):
 * numbered axes, each point's dot where no other covers it, and each layout named in an
 * engine's terms beside the lesson's words. Here, not in core/, because the engine's terms
 * are the launch command's (gs_launch_sizes_of, csrc/emit/launch.c).
 *
 * Across is words a second a GPU on a scale of tens: a frontier runs from one chat at a time
 * to hundreds, and on an even scale the first dozen points fall within a dot of each other.
 * Up is words a second for each chat, from 0. A frontier's points run fastest first, so each
 * is up and to the left of the next; a point within a dot of the one before it is moved across
 * (right) by what it lacks, and from the right edge back if that pushes one past it. When a
 * dot of the page's size cannot keep them apart the dot is made smaller, so no point is ever
 * covered: each stays reachable by the mouse. */
#include <string.h>

#include "internal.h"

/* The room between two dots' edges, as a share of a dot. */
#define CHART_GAP 0.25
/* A dot's diameter at most, percent of the plot's width (at 40 rem, about 15 px). */
#define CHART_DOT 2.4
/* Each try after the first shrinks the dot by this much; the last try's is 0.21% of the
 * width (2.4 x 0.85^15), at which GS_PLAN_MAX_POINTS + 1 points in one row across take 68%
 * of it (tests/c/test_plan_chart.c crowds them so). */
#define CHART_SHRINK 0.85
#define CHART_TRIES 16

/* ln 2 and ln 10 to double precision. */
#define LN2 0.693147180559945309417
#define LN10 2.30258509299404568402

double gs_log10(double x) {
  double m = x, t, t2, term, sum = 0;
  int e = 0, k;
  if (!(x > 0)) return 0;
  while (m >= 2) {
    m /= 2;
    e++;
  }
  while (m < 1) {
    m *= 2;
    e--;
  }
  /* ln m = 2 atanh t, t = (m - 1) / (m + 1) <= 1/3: 25 terms leave less than 3^-50 */
  t = (m - 1) / (m + 1);
  t2 = t * t;
  term = t;
  for (k = 1; k < 50; k += 2) {
    sum += term / k;
    term *= t2;
  }
  return (2 * sum + e * LN2) / LN10;
}

/* m x 10^e of the 1-2-5 ladder, step i: i = 3e + {0, 1, 2} for m = 1, 2, 5. Ten is made by
 * multiplying or dividing exactly, so 0.2 is the double nearest 0.2. */
static double ladder(int i) {
  static const double M[3] = {1, 2, 5};
  int e = i >= 0 ? i / 3 : -((-i + 2) / 3), k;
  double ten = 1;
  for (k = 0; k < (e < 0 ? -e : e); k++) ten *= 10;
  return e < 0 ? M[i - 3 * e] / ten : M[i - 3 * e] * ten;
}

/* The decimals a ladder step's number needs. */
static int places_of(int i) { return i >= 0 ? 0 : (-i + 2) / 3; }

/* The ladder step at or below x (x > 0). */
static int step_below(double x) {
  int i = 0;
  while (ladder(i) > x) i--;
  while (ladder(i + 1) <= x) i++;
  return i;
}

static void tick(gs_chart_tick *t, double at, double value, int places) {
  t->at = at;
  gs_fixed_grouped(t->text, sizeof t->text, value, places);
}

/* Across: from the ladder step at or below the least to the one above the most; a tick at
 * every step, or at each power of ten when there would be more than GS_CHART_TICKS / 2. */
static void axis_across(gs_plan_chart *c, double least, double most, double *lo, double *span) {
  int a = step_below(least), b = step_below(most) + 1, i, every;
  *lo = gs_log10(ladder(a));
  *span = gs_log10(ladder(b)) - *lo;
  every = b - a + 1 > GS_CHART_TICKS / 2 ? 3 : 1;
  c->x_n = 0;
  for (i = a; i <= b && c->x_n < GS_CHART_TICKS; i++)
    if (every == 1 || (i % 3 + 3) % 3 == 0 || i == a || i == b)
      tick(&c->x_ticks[c->x_n++], (gs_log10(ladder(i)) - *lo) / *span * 100, ladder(i), places_of(i));
}

/* Up: from 0 to the fewest ladder steps (at most 5) that reach the most. */
static void axis_up(gs_plan_chart *c, double most, double *top) {
  int i = step_below(most / 5), k, n;
  while (most / ladder(i) > 5) i++;
  n = (int)(most / ladder(i));
  if ((double)n * ladder(i) < most) n++;
  *top = n * ladder(i);
  c->y_n = 0;
  for (k = 0; k <= n; k++) tick(&c->y_ticks[c->y_n++], (double)k / n * 100, k * ladder(i), places_of(i));
}

/* A place moved by dx and back may come back a rounding short of where it was: less than
 * this share of a dot is no move and no overlap (the gap, CHART_GAP, is far larger). */
#define CHART_ROUNDING 1e-9

/* Two dots dx across and dy up apart (in the plot's percent) overlap. */
static int covers(const gs_chart_point *a, const gs_chart_point *b, double dx, double dy) {
  double x = a->x - b->x, y = a->y - b->y;
  return (x < 0 ? -x : x) < dx * (1 - CHART_ROUNDING) && (y < 0 ? -y : y) < dy * (1 - CHART_ROUNDING);
}

/* The frontier's n points (each up and to the left of the next) moved across, right then
 * back from the right edge, so no two overlap; 0 when they cannot be at this size. */
static int spread(gs_chart_point *p, size_t n, double dx, double dy) {
  size_t i, j;
  for (i = 1; i < n; i++)
    if (p[i - 1].y - p[i].y < dy && p[i].x < p[i - 1].x + dx) p[i].x = p[i - 1].x + dx;
  for (i = n; i-- > 0;) {
    double most = i + 1 < n && p[i].y - p[i + 1].y < dy ? p[i + 1].x - dx : 100;
    if (p[i].x - most > dx * CHART_ROUNDING) p[i].x = most;
  }
  for (i = 0; i < n; i++) {
    if (p[i].x < 0 || p[i].x > 100) return 0;
    for (j = i + 1; j < n; j++)
      if (covers(&p[i], &p[j], dx, dy)) return 0;
  }
  return 1;
}

/* The point after the frontier (a choice not on it) moved down, then up, clear of the rest. */
static int clear_last(gs_chart_point *p, size_t n, double dx, double dy) {
  const double from = p[n - 1].y;
  int k;
  for (k = 0; k < 2 * (int)n + 2; k++) {
    size_t j;
    int hit = 0;
    p[n - 1].y = from + (k % 2 ? 1 : -1) * dy * (k / 2 + (k % 2));
    if (p[n - 1].y < 0 || p[n - 1].y > 100) continue;
    for (j = 0; j + 1 < n; j++)
      if (covers(&p[j], &p[n - 1], dx, dy)) hit = 1;
    if (!hit) return 1;
  }
  return 0;
}

/* Each point where its figures put it: across, its words a second a GPU on the scale of
 * tens from lo over span; up, its words a second a chat of top. */
static void put_home(gs_plan_chart *c, double lo, double span, double top) {
  size_t i;
  for (i = 0; i < c->count; i++) {
    gs_chart_point *p = &c->points[i];
    p->x = (gs_log10(p->layout.per_gpu) - lo) / span * 100;
    p->y = 1 / p->layout.word_s / top * 100;
  }
}

/* The points spread at the largest dot that keeps them apart (each smaller try from home). */
static void place(gs_plan_chart *c, size_t frontier_n, double lo, double span, double top) {
  double home_x[GS_PLAN_MAX_POINTS + 1], home_y[GS_PLAN_MAX_POINTS + 1];
  size_t i;
  int t;
  put_home(c, lo, span, top);
  for (i = 0; i < c->count; i++) home_x[i] = c->points[i].x, home_y[i] = c->points[i].y;
  for (t = 0; t < CHART_TRIES; t++) {
    double d = CHART_DOT, dx, dy;
    int k;
    for (k = 0; k < t; k++) d *= CHART_SHRINK;
    /* a centre stays half a dot inside each edge: the plot's percent is of what is left */
    dx = d * (1 + CHART_GAP) / (1 - d / 100);
    dy = d * GS_CHART_ASPECT * (1 + CHART_GAP) / (1 - d * GS_CHART_ASPECT / 100);
    for (i = 0; i < c->count; i++) c->points[i].x = home_x[i], c->points[i].y = home_y[i];
    c->dot = d;
    if (spread(c->points, frontier_n, dx, dy) && (c->count == frontier_n || clear_last(c->points, c->count, dx, dy))) break;
  }
  for (i = 0; i < c->count; i++) c->points[i].moved = c->points[i].x != home_x[i] || c->points[i].y != home_y[i];
}

/* Appends ", " (after a first part) and part to buf (of cap), keeping it NUL-ended. */
static void add_part(char *buf, size_t cap, const char *part) {
  size_t at = strlen(buf);
  gs_format(buf + at, cap - at, "%s%s", at ? ", " : "", part);
}

int gs_layout_words(const gs_setting *s, const gs_layout *l, char *engine, char *lesson, size_t cap, gs_error *err) {
  gs_setting scratch;
  gs_launch_sizes z;
  char part[96];
  int rc;
  gs_layout_setting(s, l, &scratch);
  if ((rc = gs_launch_sizes_of(&scratch, l->gpus, &z, err)) != GS_OK) return rc;
  engine[0] = lesson[0] = '\0';
  if (z.attention_dp > 1)
    gs_format(part, sizeof part, "EP %llu with attention DP %llu", (unsigned long long)z.ep, (unsigned long long)z.attention_dp);
  else if (z.tp > 1 && z.pp > 1)
    gs_format(part, sizeof part, "TP %llu \xc3\x97 PP %llu", (unsigned long long)z.tp, (unsigned long long)z.pp);
  else if (z.pp > 1) gs_format(part, sizeof part, "PP %llu", (unsigned long long)z.pp);
  else gs_format(part, sizeof part, "TP %llu", (unsigned long long)z.tp);
  add_part(engine, cap, part);
  gs_format(part, sizeof part, "batch %llu", (unsigned long long)l->words);
  add_part(engine, cap, part);
  if (z.batches > 1) {
    gs_format(part, sizeof part, "%llu micro-batches", (unsigned long long)z.batches);
    add_part(engine, cap, part);
  }
  if (z.replicas > 1) {
    gs_format(part, sizeof part, "%llu replicas", (unsigned long long)z.replicas);
    add_part(engine, cap, part);
  }
  if (l->experts == GS_EXPERTS_SPREAD)
    gs_format(part, sizeof part, "experts spread over %llu GPUs, attention copied", (unsigned long long)l->gpus);
  else if (l->split == GS_GROUPS || (l->split == GS_SLICES_GROUPS && z.servers > 1 && z.tp == 1))
    gs_format(part, sizeof part, "groups of layers on %llu GPUs", (unsigned long long)l->gpus);
  else if (l->split == GS_SLICES_GROUPS && z.servers > 1)
    gs_format(part, sizeof part, "slices in a server, groups across %llu servers", (unsigned long long)z.servers);
  else gs_format(part, sizeof part, "slices of every layer on %llu GPU%s", (unsigned long long)l->gpus, l->gpus == 1 ? "" : "s");
  add_part(lesson, cap, part);
  gs_format(part, sizeof part, "%llu chat%s at once", (unsigned long long)l->words, l->words == 1 ? "" : "s");
  add_part(lesson, cap, part);
  if (l->in_flight > 1) {
    gs_format(part, sizeof part, "%llu batches in flight", (unsigned long long)l->in_flight);
    add_part(lesson, cap, part);
  }
  if (l->replicas > 1) {
    gs_format(part, sizeof part, "%llu copies", (unsigned long long)l->replicas);
    add_part(lesson, cap, part);
  }
  return GS_OK;
}

/* A point's figures as a person reads them, each and in one line. */
static void figures_of(gs_chart_point *p) {
  const gs_layout *l = &p->layout;
  gs_fixed_grouped(p->ms, sizeof p->ms, l->word_s * 1e3, 2);
  gs_words_rate(p->chat, sizeof p->chat, 1 / l->word_s);
  gs_words_rate(p->gpu, sizeof p->gpu, l->per_gpu);
  if (l->first_s > 0) gs_fixed_grouped(p->first, sizeof p->first, l->first_s * 1e3, 1);
  else p->first[0] = '\0';
  gs_format(p->figures, sizeof p->figures, "%s ms a word, %s words a second a chat, %s a GPU%s%s%s", p->ms, p->chat, p->gpu,
            p->first[0] ? ", first word in " : "", p->first, p->first[0] ? " ms" : "");
}

int gs_plan_chart_of(const gs_setting *s, const gs_plan_result *r, const gs_layout *extra, gs_plan_chart *out, gs_error *err) {
  double least = 0, most = 0, fastest = 0, lo, span, top;
  size_t i;
  int rc;
  memset(out, 0, sizeof *out);
  for (i = 0; i < r->count; i++) out->points[out->count++].layout = r->points[i];
  if (extra) out->points[out->count++].layout = *extra;
  for (i = 0; i < out->count; i++) {
    gs_chart_point *p = &out->points[i];
    const gs_layout *l = &p->layout;
    if (!(l->per_gpu > 0) || !(l->word_s > 0)) return gs_fail(err, GS_ERR_RANGE, "frontier", "a point has no words a second");
    if (i == 0 || l->per_gpu < least) least = l->per_gpu;
    if (l->per_gpu > most) most = l->per_gpu;
    if (1 / l->word_s > fastest) fastest = 1 / l->word_s;
    gs_layout_flags(l, p->flags, sizeof p->flags);
    figures_of(p);
    if ((rc = gs_layout_words(s, l, p->engine, p->lesson, sizeof p->engine, err)) != GS_OK) return rc;
  }
  if (out->count == 0) return GS_OK;
  axis_across(out, least, most, &lo, &span);
  axis_up(out, fastest, &top);
  place(out, r->count, lo, span, top);
  return GS_OK;
}
