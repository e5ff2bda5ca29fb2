/* The plan's frontier as a chart (csrc/emit/plan_chart.c): no dot covers another, even where
 * the frontier's figures crowd (the lesson's 70B within 16 GPUs: 46 points, 24 of them
 * covered on the explorer's even scale before), the axes numbered so a point that was not
 * moved sits at its figures, and each layout named in engine terms written here by hand from
 * the layout words (csrc/emit/launch.c: slices = TP n, groups = PP n, slices-groups = TP a
 * server x PP the servers, experts spread = EP n with attention DP n). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static gs_setting setting;
static gs_plan_result found;
static gs_plan_chart chart;

/* A tick's number as a person reads it ("1,000"), as a double. */
static double number(const char *text) {
  char digits[GS_FIGURE_CAP];
  size_t n = 0;
  for (; *text && n + 1 < sizeof digits; text++)
    if (*text != ',') digits[n++] = *text;
  digits[n] = '\0';
  return atof(digits);
}

static void resolve(const char *model, const char *gpu, const char *link, uint64_t per_server, int lesson) {
  gs_request q;
  gs_error err;
  memset(&q, 0, sizeof q);
  memset(&err, 0, sizeof err);
  q.model_key = model;
  q.gpu_key = gpu;
  q.link_key = link;
  q.per_server = per_server;
  q.max_n = 64;
  q.assume = lesson ? GS_ASSUME_LESSON : GS_ASSUME_REAL;
  if (gs_resolve(&q, &setting, &err) != GS_OK) fail_msg("resolve: %s: %s", err.field, err.what);
}

static void search(uint64_t budget) {
  gs_plan_ask a;
  gs_error err;
  memset(&a, 0, sizeof a);
  a.gpus_max = budget;
  if (gs_plan_search(&setting, &a, &found, &err) != GS_OK) fail_msg("plan: %s: %s", err.field, err.what);
  if (gs_plan_chart_of(&setting, &found, NULL, &chart, &err) != GS_OK) fail_msg("chart: %s: %s", err.field, err.what);
}

/* Every dot inside the plot and clear of every other: the centres, as the page places them
 * (half a dot in from each edge), are at least a dot apart across or up. The plot is
 * GS_CHART_ASPECT times as wide as tall, so up a dot is GS_CHART_ASPECT x its width's percent. */
static void assert_apart(const gs_plan_chart *c) {
  const double d = c->dot, dy = d * GS_CHART_ASPECT;
  size_t i, j;
  assert_true(d > 0 && d <= 2.4);
  for (i = 0; i < c->count; i++) {
    const gs_chart_point *a = &c->points[i];
    if (!(a->x >= 0 && a->x <= 100 && a->y >= 0 && a->y <= 100)) fail_msg("point %zu at (%g, %g), dot %g", i, a->x, a->y, d);
    for (j = i + 1; j < c->count; j++) {
      const gs_chart_point *b = &c->points[j];
      double across = (a->x - b->x) * (100 - d) / 100, up = (a->y - b->y) * (100 - dy) / 100;
      if ((across < 0 ? -across : across) < d && (up < 0 ? -up : up) < dy)
        fail_msg("points %zu and %zu overlap: (%g, %g) and (%g, %g), dot %g", i, j, a->x, a->y, b->x, b->y, d);
    }
  }
}

static void test_log10(void **state) {
  (void)state;
  ts_assert_close(gs_log10(1000), 3, 1e-15);
  ts_assert_close(gs_log10(2), 0.301029995663981195, 1e-15);
  ts_assert_close(gs_log10(0.05), -1.30102999566398120, 1e-15);
  ts_assert_close(gs_log10(123456.789), 5.0915149771692704, 1e-14); /* Python's math.log10 */
}

static void test_crowded_frontier_apart(void **state) {
  size_t i, moved = 0;
  (void)state;
  resolve("70b", "h100-sxm", "nvlink4", 0, 1);
  search(16);
  assert_int_equal(chart.count, found.count);
  assert_true(chart.count >= 40); /* the crowd the issue counted */
  assert_apart(&chart);
  for (i = 0; i < chart.count; i++) moved += (size_t)chart.points[i].moved;
  assert_true(moved > 0);        /* some had to move: the test is of the spreading */
  assert_true(moved < chart.count);
}

static void test_axes_numbered(void **state) {
  double top, lo, hi;
  size_t i;
  (void)state;
  resolve("70b", "h100-sxm", "nvlink4", 0, 1);
  search(16);
  /* up: from 0, evenly, to a round number at or above the fastest chat's 152.5 words a second */
  assert_string_equal(chart.y_ticks[0].text, "0");
  assert_true(chart.y_ticks[0].at == 0 && chart.y_ticks[chart.y_n - 1].at == 100);
  assert_true(chart.y_n >= 3 && chart.y_n <= 6);
  top = number(chart.y_ticks[chart.y_n - 1].text);
  assert_true(top >= 152.5 && top <= 250);
  /* across: 1-2-5 steps (or their powers of ten), ascending, from 10 (the least words a
   * second a GPU is 10.2) to one above the most */
  for (i = 1; i < chart.x_n; i++) assert_true(chart.x_ticks[i].at > chart.x_ticks[i - 1].at);
  assert_true(chart.x_ticks[0].at == 0 && chart.x_ticks[chart.x_n - 1].at == 100);
  assert_string_equal(chart.x_ticks[0].text, "10");
  for (i = 0; i < chart.x_n; i++) {
    double v = number(chart.x_ticks[i].text);
    while (v >= 10) v /= 10;
    assert_true(v == 1 || v == 2 || v == 5);
  }
  lo = number(chart.x_ticks[0].text);
  hi = number(chart.x_ticks[chart.x_n - 1].text);
  for (i = 0; i < chart.count; i++) {
    const gs_chart_point *p = &chart.points[i];
    assert_true(p->layout.per_gpu >= lo && p->layout.per_gpu < hi);
    /* a point not moved sits at its figures: across on the scale of tens, up over the top tick */
    if (p->moved) continue;
    ts_assert_close(p->x, (gs_log10(p->layout.per_gpu) - gs_log10(lo)) / (gs_log10(hi) - gs_log10(lo)) * 100, 1e-12);
    ts_assert_close(p->y, 100 / p->layout.word_s / top, 1e-12);
  }
}

/* A cluster far denser than a dot: 257 points within a hundredth of each other. */
static void test_dense_cluster_apart(void **state) {
  gs_error err;
  size_t i;
  (void)state;
  resolve("70b", "h100-sxm", "nvlink4", 0, 1);
  memset(&found, 0, sizeof found);
  found.count = GS_PLAN_MAX_POINTS;
  for (i = 0; i < found.count; i++) {
    gs_layout *l = &found.points[i];
    l->gpus = 8;
    l->split = GS_SLICES;
    l->words = i + 1;
    l->replicas = 1;
    l->word_s = 0.01 + 1e-9 * (double)i;
    l->per_gpu = 100 + 1e-4 * (double)i;
    l->words_per_s = l->per_gpu * 8;
    l->cost_per_million = -1;
  }
  found.choice = found.points[100];
  found.choice.per_gpu -= 5e-5;
  if (gs_plan_chart_of(&setting, &found, &found.choice, &chart, &err) != GS_OK) fail_msg("chart: %s", err.what);
  assert_int_equal(chart.count, GS_PLAN_MAX_POINTS + 1);
  assert_true(chart.dot < 2.4);
  assert_apart(&chart);
}

static void words_of(gs_layout l, char *engine, char *lesson) {
  gs_error err;
  if (gs_layout_words(&setting, &l, engine, lesson, GS_CHART_LABEL_CAP, &err) != GS_OK) fail_msg("words: %s", err.what);
}

static void test_engine_terms(void **state) {
  char engine[GS_CHART_LABEL_CAP], lesson[GS_CHART_LABEL_CAP];
  gs_layout l;
  size_t i;
  (void)state;
  resolve("70b", "h100-sxm", "nvlink4", 8, 0);
  memset(&l, 0, sizeof l);
  l.gpus = 4, l.split = GS_SLICES, l.words = 8, l.replicas = 2;
  words_of(l, engine, lesson);
  assert_string_equal(engine, "TP 4, batch 8, 2 replicas");
  assert_string_equal(lesson, "slices of every layer on 4 GPUs, 8 chats at once, 2 copies");
  l.gpus = 16, l.split = GS_SLICES_GROUPS, l.words = 192, l.in_flight = 2, l.replicas = 1;
  words_of(l, engine, lesson);
  assert_string_equal(engine, "TP 8 \xc3\x97 PP 2, batch 192, 2 micro-batches");
  assert_string_equal(lesson, "slices in a server, groups across 2 servers, 192 chats at once, 2 batches in flight");
  l.gpus = 4, l.split = GS_GROUPS, l.words = 1, l.in_flight = 0;
  words_of(l, engine, lesson);
  assert_string_equal(engine, "PP 4, batch 1");
  assert_string_equal(lesson, "groups of layers on 4 GPUs, 1 chat at once");
  /* a dense model's frontier never names experts */
  search(16);
  for (i = 0; i < chart.count; i++) {
    assert_null(strstr(chart.points[i].engine, "EP"));
    assert_null(strstr(chart.points[i].lesson, "expert"));
  }
  /* a mixture's experts spread: EP n with attention DP n */
  resolve("qwen3-30b-a3b", "h100-sxm", "nvlink4", 8, 0);
  memset(&l, 0, sizeof l);
  l.gpus = 8, l.split = GS_SLICES, l.experts = GS_EXPERTS_SPREAD, l.words = 64, l.replicas = 2;
  words_of(l, engine, lesson);
  assert_string_equal(engine, "EP 8 with attention DP 8, batch 64, 2 replicas");
  assert_string_equal(lesson, "experts spread over 8 GPUs, attention copied, 64 chats at once, 2 copies");
  search(16);
  for (i = 0; i < chart.count; i++) {
    char want[64];
    snprintf(want, sizeof want, "EP %llu with attention DP %llu, ", (unsigned long long)chart.points[i].layout.gpus,
             (unsigned long long)chart.points[i].layout.gpus);
    if (chart.points[i].layout.experts == GS_EXPERTS_SPREAD && strncmp(chart.points[i].engine, want, strlen(want)) != 0)
      fail_msg("point %zu: %s", i, chart.points[i].engine);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_log10),         cmocka_unit_test(test_crowded_frontier_apart),
      cmocka_unit_test(test_axes_numbered), cmocka_unit_test(test_dense_cluster_apart),
      cmocka_unit_test(test_engine_terms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
