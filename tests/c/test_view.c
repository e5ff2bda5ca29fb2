/* The view and the chart: the strings a person reads, against the figures the lesson
 * prints. Each literal below is copied from the lesson's text, not from the code. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "test_support.h"

static const gs_plan chart_words_1 = {.gpus = 1, .split = GS_SLICES, .words = 1};
static const gs_plan chart_words_64 = {.gpus = 1, .split = GS_SLICES, .words = 64};

/* lesson, "One user, 8B model": milliseconds a word, fast link then slow. */
static const struct {
  uint64_t gpus;
  const char *fast, *slow;
} EIGHT_B[] = {{1, "7.88 ms", "7.88 ms"},
               {2, "4.44 ms", "4.50 ms"},
               {4, "2.62 ms", "2.79 ms"},
               {8, "1.95 ms", "2.32 ms"},
               {16, "2.07 ms", "2.85 ms"}};

static void the_8b_table_for_one_user_matches_the_lesson_on_both_links(void **state) {
  size_t k;
  (void)state;
  for (k = 0; k < sizeof EIGHT_B / sizeof EIGHT_B[0]; k++) {
    assert_string_equal(ts_view("8b", EIGHT_B[k].gpus, "fast", GS_SLICES, 1).time, EIGHT_B[k].fast);
    assert_string_equal(ts_view("8b", EIGHT_B[k].gpus, "slow", GS_SLICES, 1).time, EIGHT_B[k].slow);
  }
}

/* lesson, "One user, 8B model": "Waiting takes 11.3%, 24.9%, 49.4% and 76.2% of a word on
 * the fast link at 2, 4, 8 and 16 GPUs, and 12.4%, 29.4%, 57.5% and 82.7% on the slow link." */
static void the_8b_waiting_shares_match_the_lesson_on_both_links(void **state) {
  static const uint64_t counts[] = {2, 4, 8, 16};
  static const char *const fast[] = {"11.3%", "24.9%", "49.4%", "76.2%"};
  static const char *const slow[] = {"12.4%", "29.4%", "57.5%", "82.7%"};
  size_t k;
  (void)state;
  for (k = 0; k < 4; k++) {
    assert_string_equal(ts_view("8b", counts[k], "fast", GS_SLICES, 1).waiting, fast[k]);
    assert_string_equal(ts_view("8b", counts[k], "slow", GS_SLICES, 1).waiting, slow[k]);
  }
}

/* lesson, "One user, 8B model": the check of one cell, 2 GPUs on the fast link. */
static void the_8b_cell_checked_by_hand_reads_3_94_and_waits_0_50_ms(void **state) {
  gs_view v;
  (void)state;
  v = ts_view("8b", 2, "fast", GS_SLICES, 1);
  assert_string_equal(v.read, "3.94 ms");
  assert_string_equal(v.transfer, "0.50 ms");
  assert_string_equal(v.time, "4.44 ms");
}

/* lesson, "Many words at once, 70B on 8 GPUs". */
static void the_words_at_once_table_for_70b_on_8_gpus_matches_the_lesson(void **state) {
  static const struct {
    uint64_t words;
    const char *fast, *slow, *fast_wait, *slow_wait;
  } rows[] = {{1, "11.06 ms", "12.02 ms", "21.8%", "28.0%"},
              {16, "11.17 ms", "13.09 ms", "22.6%", "33.9%"},
              {64, "11.54 ms", "16.53 ms", "25.0%", "47.7%"}};
  size_t k;
  (void)state;
  for (k = 0; k < 3; k++) {
    gs_view f = ts_view("70b", 8, "fast", GS_SLICES, rows[k].words);
    gs_view s = ts_view("70b", 8, "slow", GS_SLICES, rows[k].words);
    assert_string_equal(f.time, rows[k].fast);
    assert_string_equal(s.time, rows[k].slow);
    assert_string_equal(f.waiting, rows[k].fast_wait);
    assert_string_equal(s.waiting, rows[k].slow_wait);
  }
}

/* lesson, "Waiting for each other": "At 2, 4, 8 and 16 GPUs the waiting takes 3.5%, 8.7%,
 * 21.8% and 47.7% of each word." (70B, fast link) */
static void the_70b_waiting_shares_on_the_fast_link_match_the_lesson(void **state) {
  static const uint64_t counts[] = {2, 4, 8, 16};
  static const char *const shares[] = {"3.5%", "8.7%", "21.8%", "47.7%"};
  size_t k;
  (void)state;
  for (k = 0; k < 4; k++) assert_string_equal(ts_view("70b", counts[k], "fast", GS_SLICES, 1).waiting, shares[k]);
}

/* lesson, "Another way to split" and "The fewest GPUs that fit". */
static void groups_of_layers_take_69_23_ms_and_405b_on_16_gpus_holds_49_60_gib(void **state) {
  gs_view v;
  (void)state;
  v = ts_view("70b", 4, "fast", GS_GROUPS, 1);
  assert_string_equal(v.time, "69.23 ms");
  assert_string_equal(v.read, "69.20 ms");
  v = ts_view("405b", 16, "fast", GS_SLICES, 1);
  assert_int_equal(v.fits, 1);
  assert_string_equal(v.memory, "49.60 GiB");
}

/* The lesson gives these parts in bytes ("The memory sum, by hand"): the cache's 671,088,640
 * bytes are exactly 0.625 GiB, a tie that rounds up; working space is 1,560,281,088. */
static void the_view_of_a_setting_that_fits_has_a_memory_bar_below_100(void **state) {
  gs_view v;
  (void)state;
  v = ts_view("70b", 4, "fast", GS_SLICES, 1);
  assert_true(v.mem_bar > 0 && v.mem_bar < 100);
  assert_true(v.wait_bar > 8.65 && v.wait_bar < 8.75);
  assert_string_equal(v.cache, "0.63 GiB");
  assert_string_equal(v.working, "1.45 GiB");
  assert_string_equal(v.words_per_s, "52.8");
}

static void the_view_refuses_a_split_it_does_not_know(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_priced r;
  gs_plan bad_split = ts_plan(2, 7, 1);
  (void)state;
  ts_setting("8b", "fast", &s, &g, &l);
  assert_int_equal(ts_price(&s, &g, &l, &bad_split, &r, NULL), GS_ERR_SPLIT);
}

static void chart_rows_that_do_not_fit_have_no_bars(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_chart_row rows[5];
  size_t k;
  (void)state;
  ts_setting("405b", "slow", &s, &g, &l);
  assert_int_equal(ts_chart(&s, &g, &l, &chart_words_64, GS_COUNTS, GS_COUNT_COUNT, rows), GS_OK);
  for (k = 0; k < 4; k++) {
    assert_int_equal(rows[k].fits, 0);
    assert_true(rows[k].read_bar == 0 && rows[k].wait_bar == 0);
    assert_string_equal(rows[k].time, "Does not fit");
  }
  /* the only row that fits is also the slowest that fits */
  assert_int_equal(rows[4].fits, 1);
  ts_assert_close(rows[4].read_bar + rows[4].wait_bar, 100, 1e-12);
  assert_string_equal(rows[4].time, ts_view("405b", 16, "slow", GS_SLICES, 64).time);
}

static void chart_rows_show_the_same_time_as_the_view(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_chart_row rows[5];
  size_t k;
  (void)state;
  ts_setting("8b", "slow", &s, &g, &l);
  assert_int_equal(ts_chart(&s, &g, &l, &chart_words_1, GS_COUNTS, GS_COUNT_COUNT, rows), GS_OK);
  for (k = 0; k < GS_COUNT_COUNT; k++) {
    gs_time t = ts_time("8b", GS_COUNTS[k], "slow", GS_SLICES, 1);
    assert_string_equal(rows[k].time, EIGHT_B[k].slow);
    ts_assert_close(rows[k].wait_bar / (rows[k].read_bar + rows[k].wait_bar), t.share, 1e-12);
  }
  /* 1 GPU is the slowest count for the 8B model: its bars fill the chart */
  ts_assert_close(rows[0].read_bar, 100, 1e-12);
  assert_true(rows[0].wait_bar == 0);
}

static void a_chart_of_more_rows_than_it_holds_is_refused(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  static uint64_t counts[65];
  static gs_chart_row rows[65];
  size_t k;
  (void)state;
  for (k = 0; k < 65; k++) counts[k] = k + 1;
  ts_setting("8b", "fast", &s, &g, &l);
  assert_int_equal(ts_chart(&s, &g, &l, &chart_words_1, counts, 65, rows), GS_ERR_TOO_LONG);
  assert_int_equal(ts_chart(&s, &g, &l, &chart_words_1, counts, 64, rows), GS_OK);
}

/* Issue 11: at the slowest and fastest figures the checks allow, and with the largest
 * model, GPU count and words at once, every figure is finite and whole: each fits its
 * text with room to spare and ends in its unit (a cut figure would lose the unit). */
static int ends_with(const char *s, const char *end) {
  size_t n = strlen(s), e = strlen(end);
  return n >= e && strcmp(s + n - e, end) == 0;
}

static void figures_at_the_checks_extremes_are_finite_and_whole(void **state) {
  static const char *const models[] = {"405b", "8b", "deepseek-v3"};
  static const double gpu_bw[] = {1e6, 1e16}, flops[] = {1e6, 1e19}, link_bw[] = {1e6, 1e16}, us[] = {0, 1e6};
  static const uint64_t gpus[] = {1, 2, 65536}, words[] = {1, 1048576};
  size_t a, b, c, d, k, n, w, split;
  (void)state;
  for (k = 0; k < 3; k++)
    for (a = 0; a < 2; a++)
      for (b = 0; b < 2; b++)
        for (c = 0; c < 2; c++)
          for (d = 0; d < 2; d++)
            for (n = 0; n < 3; n++)
              for (w = 0; w < 2; w++)
                for (split = 0; split < 2; split++) {
                  gs_model m;
                  gs_gpu g;
                  gs_link l;
                  gs_view v;
                  gs_error err;
                  gs_plan p = ts_plan(gpus[n], split ? GS_GROUPS : GS_SLICES, words[w]);
                  ts_model(models[k], &m);
                  ts_gpu(&g);
                  ts_link("fast", &l);
                  g.gib = 1e9; /* everything fits, so every time is shown */
                  g.bandwidth = gpu_bw[a];
                  g.flops = flops[b];
                  l.bandwidth = link_bw[c];
                  l.step_us = l.base_us = us[d];
                  gs_cost_result priced;
                  assert_int_equal(gs_cost(&m, &g, &l, &p, &priced, &err), GS_OK);
                  gs_view_of(&priced, &v);
                  assert_true(v.fits);
                  assert_true(ends_with(v.time, " ms") && ends_with(v.read, " ms") && ends_with(v.transfer, " ms"));
                  assert_true(ends_with(v.memory, " GiB") && ends_with(v.waiting, "%"));
                  assert_true(strlen(v.time) < GS_FIGURE_CAP - 8 && strlen(v.words_per_s) < GS_FIGURE_CAP - 8);
                  assert_null(strstr(v.time, "Inf"));
                  assert_null(strstr(v.waiting, "NaN"));
                }
}

/* gs_cost checks the GPU and link itself, so a caller that skipped gs_gpu_check (the
 * module's callers, a fuzzer) still gets an error, never an infinite time. */
static void the_cost_refuses_hardware_outside_the_checks(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_cost_result c;
  gs_error err;
  gs_plan p = ts_plan(4, GS_SLICES, 1);
  (void)state;
  ts_model("70b", &m);
  ts_gpu(&g);
  ts_link("fast", &l);
  g.bandwidth = 1e-300;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "gpu bandwidth");
  assert_non_null(strstr(err.what, "too small"));
  ts_gpu(&g);
  l.base_us = 1e20;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "link base_us");
  assert_non_null(strstr(err.what, "too large"));
  ts_link("fast", &l);
  g.flops = 1e308;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "gpu flops");
}

/* The modules hand the view to JavaScript as NUL-ended strings (gs_pack_text, for
 * csrc/wasm/abi.c); the lesson's default view, 70B on 4 GPUs, fast link. The lesson prints
 * 34.93, 32.85, 18.94, 17.30, 1.64 and 8.7%; the cache is its 8,192 tokens of 80 layers x
 * 8 heads x 128 x 2 (keys, values) x 2 bytes over 4 GPUs, 0.625 GiB, and the working space
 * what is left of 34.93 GiB; 52.8 words a second is 1000 / 18.94. */
static void packed_strings_hold_the_lesson_figures_and_a_full_buffer_is_said(void **state) {
  gs_view v = ts_view("70b", 4, "fast", GS_SLICES, 1);
  const char *figures[] = {v.memory, v.weights, v.cache, v.working, v.usable, v.time, v.read, v.transfer, v.waiting, v.words_per_s};
  const char *want[] = {"34.93 GiB", "32.85 GiB", "0.63 GiB", "1.45 GiB", "73.6 GiB",
                        "18.94 ms", "17.30 ms", "1.64 ms", "8.7%", "52.8"};
  char buf[512], small[16];
  size_t at = 0, from = 0, i;
  (void)state;
  for (i = 0; i < 10; i++) at = gs_pack_text(buf, sizeof buf, at, figures[i]);
  for (i = 0; i < 10; i++) {
    assert_string_equal(buf + from, want[i]);
    from += strlen(want[i]) + 1;
  }
  assert_int_equal(at, from);
  /* a string that does not fit is not written, and the place stays where it was: abi.c
   * sees that and refuses, rather than handing over a cut figure */
  memset(small, 'x', sizeof small);
  at = gs_pack_text(small, 12, 0, v.memory);
  assert_int_equal(at, 10); /* "34.93 GiB" and its NUL */
  assert_int_equal(gs_pack_text(small, 12, at, v.weights), at); /* "32.85 GiB" would cut */
  assert_string_equal(small, "34.93 GiB");
  assert_memory_equal(small + 10, "xxxxxx", 6);
}


/* A lesson setting priced through gs_price, so the view knows its plan and model. */
static void priced(gs_setting *s, const char *model, uint64_t n, int split, uint64_t words, uint64_t in_flight, gs_priced *out) {
  memset(s, 0, sizeof *s);
  ts_setting(model, "fast", &s->model, &s->gpu, &s->link);
  s->plan = ts_plan(n, split, words);
  s->plan.in_flight = in_flight;
  assert_int_equal(gs_price(s, n, out, NULL), GS_OK);
}

/* lesson, "Groups of layers": "4 x 17.30 = 69.20 ms, plus 3 hand-offs of 7.2 microseconds
 * ..., 69.23 ms in all"; a group idles while the three others read: 3 x 17.30 = 51.90 ms
 * plus hand-offs, 75% of the step. Slices: "The 160 swaps cost 1.64 ms". */
static void each_gpus_timeline_row_is_said_in_words(void **state) {
  static gs_setting s;
  gs_priced r;
  gs_timeline_row rows[4];
  (void)state;
  priced(&s, "70b", 4, GS_GROUPS, 1, 0, &r);
  assert_int_equal(gs_timeline_of(&r, rows, 4, NULL), GS_OK);
  assert_string_equal(rows[1].text, "GPU 2: reading 17.30 ms, waiting 0.01 ms in its hand-off, idle 51.92 ms (75.0%)");
  assert_string_equal(rows[3].text, "GPU 4: reading 17.30 ms, idle 51.92 ms (75.0%)");
  assert_int_equal(rows[0].repeat, 1);
  priced(&s, "70b", 4, GS_SLICES, 1, 0, &r);
  assert_int_equal(gs_timeline_of(&r, rows, 4, NULL), GS_OK);
  assert_string_equal(rows[0].text, "GPU 1: reading 17.30 ms, waiting 1.64 ms in 160 swaps, idle 0.00 ms (0.0%)");
  assert_int_equal(rows[0].repeat, 80); /* read, then swap, in each of the 80 layers */
  assert_true(rows[0].idle_before == 0 && rows[0].idle_after == 0);
  /* 405B on 4 GPUs does not fit: nothing is drawn */
  priced(&s, "405b", 4, GS_SLICES, 1, 0, &r);
  assert_int_equal(gs_timeline_of(&r, rows, 4, NULL), GS_OK);
  assert_true(rows[0].read == 0 && rows[0].wait == 0);
}

/* Four batches of 64 in flight on 4 groups: each GPU reads all 4 turns, 4 x 17.30 = 69.20 ms
 * of the 69.23 ms step, never idle; 4 x 64 = 256 chats; the cache holds 4 chats'. */
static void groups_kept_busy_say_so_and_draw_every_gpu_busy(void **state) {
  static gs_setting s;
  gs_priced r;
  gs_timeline_row rows[4];
  size_t i;
  (void)state;
  priced(&s, "70b", 4, GS_GROUPS, 64, 4, &r);
  assert_string_equal(r.view.step_name, "Time for one step");
  assert_string_equal(r.view.words_note, "14.4 words a second for each chat; 3,697.8 for all 256 together");
  assert_non_null(strstr(r.view.batches_note, "4 batches of 64 chats in flight keep every group busy, and each chat still waits 69.23 ms"));
  assert_non_null(strstr(r.view.batches_note, "Splitting the same 64 chats into smaller bunches gains nothing while reading sets the pace"));
  assert_non_null(strstr(r.view.cache_note, "for each of the 4 batches in flight"));
  assert_int_equal(gs_timeline_of(&r, rows, 4, NULL), GS_OK);
  for (i = 0; i < 4; i++) {
    assert_true(rows[i].idle_before == 0 && rows[i].idle_after == 0);
    assert_non_null(strstr(rows[i].text, "reading 69.20 ms"));
    assert_non_null(strstr(rows[i].text, "idle 0.00 ms (0.0%)"));
  }
  /* one batch: no such note */
  priced(&s, "70b", 4, GS_GROUPS, 64, 0, &r);
  assert_string_equal(r.view.batches_note, "");
}

/* One GPU swaps nothing, one chat is one chat; the axis quarters 18.94 ms (4.73, 9.47, 14.20). */
static void one_gpu_one_chat_and_the_axis_are_said_right(void **state) {
  static gs_setting s;
  gs_priced r;
  (void)state;
  priced(&s, "8b", 1, GS_SLICES, 1, 0, &r);
  assert_string_equal(r.view.waiting_note, "No swaps: one GPU holds every layer; 7.88 ms reading");
  assert_string_equal(r.view.step_name, "Time for one word");
  assert_string_equal(r.view.cache_note, "The cache is one chat's, 8,192 tokens long.");
  priced(&s, "70b", 4, GS_SLICES, 1, 0, &r);
  assert_string_equal(r.view.words_note, "52.8 words a second for the one chat");
  assert_string_equal(r.view.waiting_note, "1.64 ms of 18.94 ms waiting, in 160 swaps; 17.30 ms reading");
  assert_string_equal(r.view.axis[0], "4.73 ms");
  assert_string_equal(r.view.axis[1], "9.47 ms");
  assert_string_equal(r.view.axis[2], "14.20 ms");
  assert_string_equal(r.view.axis[3], "18.94 ms");
}

/* The page's sums: spaces inside a term become U+00A0, others stay. */
static void the_glue_keeps_each_term_whole(void **state) {
  char buf[256] = "  weights: 70,553,706,496 x 2 / 4 = 35,276,853,248\n  2 x 312 TFLOP/s / (4 x 312 TFLOP/s) within the 73.6 GiB usable";
  (void)state;
  assert_int_equal(gs_explain_glue(buf, sizeof buf, NULL), GS_OK);
  assert_string_equal(buf, "  weights: 70,553,706,496\xC2\xA0x\xC2\xA0" "2\xC2\xA0/\xC2\xA0" "4 =\xC2\xA0" "35,276,853,248\n"
                           "  2\xC2\xA0x\xC2\xA0" "312\xC2\xA0TFLOP/s /\xC2\xA0(4\xC2\xA0x\xC2\xA0" "312\xC2\xA0TFLOP/s) within the 73.6\xC2\xA0GiB usable");
  {
    char small[8] = "1 x 2";
    assert_int_equal(gs_explain_glue(small, 6, NULL), GS_ERR_TOO_LONG);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_8b_table_for_one_user_matches_the_lesson_on_both_links),
      cmocka_unit_test(the_8b_waiting_shares_match_the_lesson_on_both_links),
      cmocka_unit_test(the_8b_cell_checked_by_hand_reads_3_94_and_waits_0_50_ms),
      cmocka_unit_test(the_words_at_once_table_for_70b_on_8_gpus_matches_the_lesson),
      cmocka_unit_test(the_70b_waiting_shares_on_the_fast_link_match_the_lesson),
      cmocka_unit_test(groups_of_layers_take_69_23_ms_and_405b_on_16_gpus_holds_49_60_gib),
      cmocka_unit_test(the_view_of_a_setting_that_fits_has_a_memory_bar_below_100),
      cmocka_unit_test(the_view_refuses_a_split_it_does_not_know),
      cmocka_unit_test(chart_rows_that_do_not_fit_have_no_bars),
      cmocka_unit_test(chart_rows_show_the_same_time_as_the_view),
      cmocka_unit_test(a_chart_of_more_rows_than_it_holds_is_refused),
      cmocka_unit_test(figures_at_the_checks_extremes_are_finite_and_whole),
      cmocka_unit_test(the_cost_refuses_hardware_outside_the_checks),
      cmocka_unit_test(packed_strings_hold_the_lesson_figures_and_a_full_buffer_is_said),
      cmocka_unit_test(each_gpus_timeline_row_is_said_in_words),
      cmocka_unit_test(groups_kept_busy_say_so_and_draw_every_gpu_busy),
      cmocka_unit_test(one_gpu_one_chat_and_the_axis_are_said_right),
      cmocka_unit_test(the_glue_keeps_each_term_whole),
  };
  return cmocka_run_group_tests_name("view", tests, NULL, NULL);
}
