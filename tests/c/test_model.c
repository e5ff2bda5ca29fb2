/* The cost model against every claim of the lesson's own tests (test_gpu_split.py in
 * the seed), and the lesson's opening figures through the view. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static const gs_plan ONE_WORD = {.gpus = 1, .split = GS_SLICES, .words = 1};

/* The published weight totals, as lesson 18 pins them (test_gpu_split.py, PUBLISHED). */
static const char *const KEYS[] = {"8b", "70b", "405b"};
static const uint64_t PUBLISHED[] = {UINT64_C(8030261248), UINT64_C(70553706496), UINT64_C(405853388800)};
static const char *const LINKS[] = {"fast", "slow"};

static void weight_counts_match_the_published_totals(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < 3; i++) {
    gs_model s;
    ts_model(KEYS[i], &s);
    assert_int_equal(s.params, PUBLISHED[i]);
    assert_int_equal(s.stored_bytes, 2 * PUBLISHED[i]);
  }
}

static void memory_of_70b_on_4_gpus_adds_up_by_hand(void **state) {
  gs_model s;
  gs_memory m;
  (void)state;
  ts_model("70b", &s);
  m = ts_memory(&s, 4);
  assert_int_equal(m.weights, 2 * UINT64_C(70553706496) / 4);
  assert_int_equal(m.weights, UINT64_C(35276853248));
  assert_int_equal(m.cache, UINT64_C(2) * 80 * 8 * 128 * 2 * 8192 / 4);
  assert_int_equal(m.cache, UINT64_C(671088640));
  assert_int_equal(m.working, UINT64_C(2048) * (3 * 28672 + 4 * 8192) * 2 + GS_GIB);
  assert_int_equal(m.working, UINT64_C(486539264) + GS_GIB);
  assert_int_equal(m.total, m.weights + m.cache + m.working);
  assert_int_equal(m.total, UINT64_C(37508222976));
}

static void sixteen_gpus_hold_as_much_cache_as_eight(void **state) {
  gs_model s;
  gs_memory m8, m16;
  (void)state;
  ts_model("70b", &s);
  m8 = ts_memory(&s, 8);
  m16 = ts_memory(&s, 16);
  assert_int_equal(m16.cache, m8.cache);
  assert_true(m16.weights < m8.weights);
}

static void the_fits_verdicts_match_the_lesson_for_every_offered_count(void **state) {
  static const int expected[3][5] = {{1, 1, 1, 1, 1}, {0, 1, 1, 1, 1}, {0, 0, 0, 0, 1}};
  gs_gpu g;
  size_t i, k;
  (void)state;
  ts_gpu(&g);
  assert_int_equal(GS_COUNT_COUNT, 5);
  for (i = 0; i < 3; i++) {
    gs_model s;
    ts_model(KEYS[i], &s);
    for (k = 0; k < GS_COUNT_COUNT; k++) assert_int_equal(ts_fits(&s, &g, GS_COUNTS[k]), expected[i][k]);
  }
}

static void the_fewest_gpus_that_fit_are_1_2_and_11(void **state) {
  static const uint64_t expected[] = {1, 2, 11};
  gs_gpu g;
  size_t i;
  (void)state;
  ts_gpu(&g);
  for (i = 0; i < 3; i++) {
    gs_model s;
    gs_link l;
    ts_setting(KEYS[i], "fast", &s, &g, &l);
    assert_int_equal(ts_sweep(&s, &g, &l, &ONE_WORD, 64, 0).fewest, expected[i]);
  }
}

/* The widget's search (gs_fewest_run) stops at the first count that fits; it must find what
 * the whole sweep finds, under either split, many words, heads divided or not and budgets
 * below and past the fewest (10 and 15 hold no 405B; 64 does). */
static void the_fewest_search_stops_where_the_whole_sweep_finds_the_fewest(void **state) {
  static const uint64_t WORDS[] = {1, 2, 8, 64, 256, 1304};
  static const uint64_t BUDGETS[] = {10, 15, 64};
  size_t i, k, w, b, split, divide;
  (void)state;
  for (i = 0; i < 3; i++)
    for (k = 0; k < 2; k++)
      for (split = 0; split < 2; split++)
        for (w = 0; w < sizeof WORDS / sizeof *WORDS; w++)
          for (b = 0; b < sizeof BUDGETS / sizeof *BUDGETS; b++)
            for (divide = 0; divide < 2; divide++) {
              gs_model m;
              gs_gpu g;
              gs_link l;
              gs_plan p = ts_plan(1, split ? GS_GROUPS : GS_SLICES, WORDS[w]);
              gs_setting s;
              gs_sweep found;
              gs_error err;
              uint64_t fewest = 99;
              ts_setting(KEYS[i], LINKS[k], &m, &g, &l);
              gs_setting_of(&m, &g, &l, &p, &s);
              s.max_n = BUDGETS[b];
              s.divide_heads = (int)divide;
              assert_int_equal(gs_sweep_run(&s, NULL, 0, &found, &err), GS_OK);
              assert_int_equal(gs_fewest_run(&s, &fewest, &err), GS_OK);
              assert_int_equal(fewest, found.fewest);
            }
}

/* The 405B model needs 11 GPUs, and its 128 attention heads (Llama 3.1 405B's config)
 * cut evenly only by powers of two: among those, 16 is the fewest. */
static void among_counts_that_divide_the_heads_the_405b_model_needs_16(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  (void)state;
  ts_setting("405b", "fast", &s, &g, &l);
  assert_int_equal(s.heads, 128);
  assert_int_equal(ts_sweep(&s, &g, &l, &ONE_WORD, 64, 1).fewest, 16);
  assert_int_equal(ts_sweep(&s, &g, &l, &ONE_WORD, 15, 1).fewest, 0); /* none up to 15 */
}

static void no_count_up_to_ten_fits_the_405b_model(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_sweep found;
  (void)state;
  ts_setting("405b", "fast", &s, &g, &l);
  found = ts_sweep(&s, &g, &l, &ONE_WORD, 10, 0);
  assert_int_equal(found.fewest, 0);
  assert_int_equal(found.best, 0);
  assert_int_equal(found.best_dividing_heads, 0);
}

static void read_time_on_one_gpu_is_the_weight_bytes_over_the_bandwidth(void **state) {
  gs_model s;
  gs_gpu g;
  (void)state;
  ts_model("8b", &s);
  ts_gpu(&g);
  assert_true(ts_read_time(&s, &g, 1) == (double)(2 * UINT64_C(8030261248)) / 2.039e12);
}

static void read_time_times_the_gpu_count_stays_one_gpus_read(void **state) {
  gs_gpu g;
  size_t i, k;
  (void)state;
  ts_gpu(&g);
  for (i = 0; i < 3; i++) {
    gs_model s;
    ts_model(KEYS[i], &s);
    for (k = 0; k < GS_COUNT_COUNT; k++)
      ts_assert_close(ts_read_time(&s, &g, GS_COUNTS[k]) * (double)GS_COUNTS[k], ts_read_time(&s, &g, 1), 1e-6);
  }
}

static void computing_is_shorter_than_reading_for_every_setting_of_the_widget(void **state) {
  gs_gpu g;
  size_t i, k, w;
  (void)state;
  ts_gpu(&g);
  assert_int_equal(GS_WORDS_COUNT, 3);
  for (i = 0; i < 3; i++) {
    gs_model s;
    ts_model(KEYS[i], &s);
    for (k = 0; k < GS_COUNT_COUNT; k++)
      for (w = 0; w < GS_WORDS_COUNT; w++)
        assert_true(ts_compute_time(&s, &g, GS_COUNTS[k], GS_WORDS[w]) < ts_read_time(&s, &g, GS_COUNTS[k]));
  }
}

/* The ring all-reduce of test_gpu_split.py's ring_all_reduce: n-1 steps of reduce-scatter,
 * then n-1 of all-gather; at each step every GPU sends one chunk to the next GPU. */
enum { RING_MAX = 16, RING_SIZE_MAX = RING_MAX * 3 };

static void ring_all_reduce(int64_t data[RING_MAX][RING_SIZE_MAX], size_t n, size_t size, uint64_t *steps,
                            uint64_t sent[RING_MAX]) {
  size_t chunk = size / n, phase, step, gpu, i;
  *steps = 0;
  for (gpu = 0; gpu < n; gpu++) sent[gpu] = 0;
  for (phase = 0; phase < 2; phase++) {
    for (step = 0; step + 1 < n; step++) {
      int64_t parts[RING_MAX][RING_SIZE_MAX];
      size_t c_of[RING_MAX];
      for (gpu = 0; gpu < n; gpu++) { /* every GPU sends before any receives */
        size_t c = phase == 0 ? (gpu + n - step) % n : (gpu + 1 + n - step) % n;
        c_of[gpu] = c;
        for (i = 0; i < chunk; i++) parts[gpu][i] = data[gpu][c * chunk + i];
        sent[gpu] += chunk;
      }
      for (gpu = 0; gpu < n; gpu++) {
        size_t dest = (gpu + 1) % n, c = c_of[gpu];
        for (i = 0; i < chunk; i++)
          data[dest][c * chunk + i] = phase == 0 ? data[dest][c * chunk + i] + parts[gpu][i] : parts[gpu][i];
      }
      (*steps)++;
    }
  }
}

static void check_ring_all_reduce(size_t n) {
  static int64_t data[RING_MAX][RING_SIZE_MAX];
  size_t size = n * 3, gpu, i;
  uint64_t steps, sent[RING_MAX];
  gs_link l;
  double expected;
  for (gpu = 0; gpu < n; gpu++)
    for (i = 0; i < size; i++) data[gpu][i] = (int64_t)(gpu * 100 + i);
  ring_all_reduce(data, n, size, &steps, sent);
  for (gpu = 0; gpu < n; gpu++)
    for (i = 0; i < size; i++) {
      int64_t sum = 0;
      size_t from;
      for (from = 0; from < n; from++) sum += (int64_t)(from * 100 + i);
      assert_int_equal(data[gpu][i], sum);
    }
  assert_int_equal(steps, 2 * (n - 1));
  for (gpu = 0; gpu < n; gpu++) assert_int_equal(sent[gpu], 2 * (n - 1) * size / n);
  ts_link("fast", &l);
  expected = (l.base_us + (double)steps * l.step_us) * 1e-6 + (double)sent[0] / l.bandwidth;
  ts_assert_close(gs_allreduce_time(size, n, &l), expected, 1e-12);
}

static void a_ring_all_reduce_over_2_gpus_sums_in_2_steps_and_is_charged_for_them(void **state) {
  (void)state;
  check_ring_all_reduce(2);
}

static void a_ring_all_reduce_over_4_gpus_sums_in_6_steps_and_is_charged_for_them(void **state) {
  (void)state;
  check_ring_all_reduce(4);
}

static void a_ring_all_reduce_over_8_gpus_sums_in_14_steps_and_is_charged_for_them(void **state) {
  (void)state;
  check_ring_all_reduce(8);
}

static void a_ring_all_reduce_over_16_gpus_sums_in_30_steps_and_is_charged_for_them(void **state) {
  (void)state;
  check_ring_all_reduce(16);
}

static void one_gpu_waits_on_no_one(void **state) {
  gs_link l;
  gs_time t;
  (void)state;
  ts_link("slow", &l);
  assert_true(gs_allreduce_time(8192, 1, &l) == 0.0);
  t = ts_time("8b", 1, "slow", GS_SLICES, 1);
  assert_true(t.transfer == 0.0);
  assert_true(t.share == 0.0);
}

static void a_word_makes_two_swaps_per_layer(void **state) {
  static const uint64_t swaps[] = {64, 160, 252};
  gs_model s;
  gs_link l;
  gs_time t;
  size_t i;
  (void)state;
  for (i = 0; i < 3; i++) {
    ts_model(KEYS[i], &s);
    assert_int_equal(GS_ALL_REDUCES_PER_LAYER * s.layers, swaps[i]);
  }
  ts_model("70b", &s);
  ts_link("fast", &l);
  assert_int_equal(gs_message_bytes(&s), 16384);
  t = ts_time("70b", 4, "fast", GS_SLICES, 1);
  ts_assert_close(t.transfer, 160 * gs_allreduce_time(16384, 4, &l), 1e-12);
  assert_true(t.total == t.read + t.transfer);
  assert_true(t.share == t.transfer / t.total);
  assert_true(t.words_per_s == 1 / t.total);
}

static void the_waiting_share_grows_with_the_count_and_the_slow_link_waits_longer(void **state) {
  size_t i, k;
  (void)state;
  for (i = 0; i < 3; i++) {
    double last = -1;
    for (k = 0; k < GS_COUNT_COUNT; k++) {
      gs_time fast = ts_time(KEYS[i], GS_COUNTS[k], "fast", GS_SLICES, 1);
      gs_time slow = ts_time(KEYS[i], GS_COUNTS[k], "slow", GS_SLICES, 1);
      assert_true(fast.share >= last);
      last = fast.share;
      if (GS_COUNTS[k] > 1) assert_true(slow.transfer > fast.transfer);
    }
  }
}

static void each_doubling_gains_less_and_16_gpus_are_slower_than_8_for_the_8b_model(void **state) {
  size_t j, k;
  (void)state;
  for (j = 0; j < 2; j++) {
    double times[5], gains[4];
    for (k = 0; k < 5; k++) times[k] = ts_time("8b", GS_COUNTS[k], LINKS[j], GS_SLICES, 1).total;
    for (k = 0; k < 4; k++) gains[k] = times[k] / times[k + 1];
    for (k = 0; k + 1 < 4; k++) assert_true(gains[k] >= gains[k + 1]);
    assert_true(gains[3] < 1 && 1 < gains[2]);
    assert_true(times[4] > times[3]);
  }
}

static uint64_t best(const char *model, const char *link, uint64_t words, int divide_heads) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_plan plan = ts_plan(1, GS_SLICES, words);
  gs_sweep found;
  ts_setting(model, link, &s, &g, &l);
  found = ts_sweep(&s, &g, &l, &plan, 64, 0);
  assert_true((divide_heads ? found.best_dividing_heads : found.best) != 0);
  return divide_heads ? found.best_dividing_heads : found.best;
}

static void the_best_count_up_to_64_depends_on_the_link(void **state) {
  static const uint64_t expected[3][2] = {{10, 8}, {19, 15}, {36, 28}};
  size_t i, j;
  (void)state;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 2; j++) assert_int_equal(best(KEYS[i], LINKS[j], 1, 0), expected[i][j]);
  assert_int_equal(best("70b", "slow", 64, 0), 14);
  assert_true(best("70b", "slow", 64, 0) < best("70b", "slow", 1, 0));
}

static void the_best_count_that_divides_the_heads_is_8_16_and_32_on_both_links(void **state) {
  static const uint64_t expected[] = {8, 16, 32};
  size_t i, j;
  (void)state;
  for (i = 0; i < 3; i++) {
    gs_model s;
    ts_model(KEYS[i], &s);
    for (j = 0; j < 2; j++) {
      uint64_t n = best(KEYS[i], LINKS[j], 1, 1);
      assert_int_equal(n, expected[i]);
      assert_int_equal(s.heads % n, 0);
    }
  }
  {
    gs_model s;
    ts_model("70b", &s);
    assert_int_not_equal(s.heads % best("70b", "fast", 1, 0), 0);
  }
}

static void among_the_offered_counts_8_is_best_for_8b_and_16_for_the_others(void **state) {
  static const uint64_t expected[] = {8, 16, 16};
  gs_gpu g;
  size_t i, j, k;
  (void)state;
  ts_gpu(&g);
  for (i = 0; i < 3; i++) {
    gs_model s;
    ts_model(KEYS[i], &s);
    for (j = 0; j < 2; j++) {
      uint64_t found = 0;
      double top = 0;
      for (k = 0; k < GS_COUNT_COUNT; k++) {
        double total;
        if (!ts_fits(&s, &g, GS_COUNTS[k])) continue;
        total = ts_time(KEYS[i], GS_COUNTS[k], LINKS[j], GS_SLICES, 1).total;
        if (found == 0 || total < top) {
          found = GS_COUNTS[k];
          top = total;
        }
      }
      assert_int_equal(found, expected[i]);
    }
  }
}

static void layer_groups_stay_within_2_percent_of_one_gpus_read(void **state) {
  gs_gpu g;
  size_t i, j, k;
  (void)state;
  ts_gpu(&g);
  for (i = 0; i < 3; i++) {
    gs_model s;
    double whole;
    ts_model(KEYS[i], &s);
    whole = ts_read_time(&s, &g, 1);
    for (k = 0; k < GS_COUNT_COUNT; k++)
      for (j = 0; j < 2; j++) {
        gs_time t = ts_time(KEYS[i], GS_COUNTS[k], LINKS[j], GS_GROUPS, 1);
        assert_true(whole <= t.total && t.total <= 1.02 * whole);
        assert_true(t.share < 0.02);
      }
  }
}

static void a_split_the_model_does_not_know_is_refused_not_priced_as_free(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_cost_result c;
  gs_plan bad_split = ts_plan(2, 7, 1);
  int split = 99;
  (void)state;
  ts_setting("8b", "fast", &s, &g, &l);
  assert_int_equal(gs_cost(&s, &g, &l, &bad_split, &c, NULL), GS_ERR_SPLIT);
  assert_int_equal(gs_split_parse("diagonal", &split, NULL), GS_ERR_SPLIT);
  assert_int_equal(split, 99);
  assert_int_equal(gs_split_parse("groups", &split, NULL), GS_OK);
  assert_int_equal(split, GS_GROUPS);
  assert_string_equal(gs_split_name(GS_SLICES), "slices");
}

static void many_words_at_once_make_the_slow_link_cost_over_5_times_more(void **state) {
  double gap[3];
  size_t w;
  (void)state;
  for (w = 0; w < GS_WORDS_COUNT; w++)
    gap[w] = ts_time("70b", 8, "slow", GS_SLICES, GS_WORDS[w]).total - ts_time("70b", 8, "fast", GS_SLICES, GS_WORDS[w]).total;
  assert_int_equal(GS_WORDS[2], 64);
  assert_true(gap[2] > 5 * gap[0]);
  assert_true(gap[0] <= gap[1] && gap[1] <= gap[2]);
}

/* The lesson, "Explore the numbers": the widget opens on 70B, 4 GPUs, fast link. */
static void the_widget_opens_on_34_93_gib_and_18_94_ms_with_8_7_percent_waiting(void **state) {
  gs_view v;
  (void)state;
  v = ts_view("70b", 4, "fast", GS_SLICES, 1);
  assert_int_equal(v.fits, 1);
  assert_string_equal(v.memory, "34.93 GiB");
  assert_string_equal(v.time, "18.94 ms");
  assert_string_equal(v.waiting, "8.7%");
  /* lesson, "The weights must fit" and "Slicing every layer" */
  assert_string_equal(v.weights, "32.85 GiB");
  assert_string_equal(v.usable, "73.6 GiB");
  assert_string_equal(v.read, "17.30 ms");
  assert_string_equal(v.transfer, "1.64 ms");
}

/* The share of the step GPU 1 is idle: groups of 70B on 4 GPUs, one word, fast link. Each
 * group reads 35,276,853,248 bytes at 2,039 GB/s and hands one 16,384-byte message on in
 * (6.6 + 0.6) us + 16,384 / 600e9 s; GPU 1 reads its turn and hands on once, and idles for
 * the other three turns and two hand-offs. Slices keep every GPU busy. */
static void groups_leave_gpu_1_idle_three_turns_and_two_hand_offs(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_cost_result c;
  gs_plan p = {.gpus = 4, .split = GS_GROUPS, .words = 1};
  double busy = 35276853248.0 / 2039e9, handoff = 7.2e-6 + 16384.0 / 600e9;
  double idle = (3 * busy + 2 * handoff) / (4 * busy + 3 * handoff);
  (void)state;
  ts_model("70b", &s);
  ts_gpu(&g);
  ts_link("fast", &l);
  assert_int_equal(gs_cost(&s, &g, &l, &p, &c, NULL), GS_OK);
  assert_true(c.time.idle > idle - 1e-12 && c.time.idle < idle + 1e-12);
  assert_true(c.time.idle < 0.75 && c.time.idle > 0.7499);
  p.split = GS_SLICES;
  assert_int_equal(gs_cost(&s, &g, &l, &p, &c, NULL), GS_OK);
  assert_true(c.time.idle == 0);
  p.gpus = 1;
  p.split = GS_GROUPS;
  assert_int_equal(gs_cost(&s, &g, &l, &p, &c, NULL), GS_OK);
  assert_true(c.time.idle == 0);
}

/* Groups kept busy (lesson: groups "pay off when many chats keep every group busy"):
 * 70B on 4 GPUs, 64 words, 4 batches of 64 in flight. Each batch still waits a whole
 * step for its word; the four groups give 4 x 64 words a step; each batch keeps its own
 * one-chat cache of 2,684,354,560 bytes, shared over 4 parts, so four of them hold 4 x
 * 671,088,640 bytes a GPU. Slices keep no batches in flight, and 5 batches need 5 groups. */
static void four_batches_in_flight_keep_every_group_busy(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_cost_result one, four;
  gs_plan p = {.gpus = 4, .split = GS_GROUPS, .words = 64};
  gs_error err;
  (void)state;
  ts_model("70b", &s);
  ts_gpu(&g);
  ts_link("fast", &l);
  assert_int_equal(gs_cost(&s, &g, &l, &p, &one, NULL), GS_OK);
  p.in_flight = 4;
  assert_int_equal(gs_cost(&s, &g, &l, &p, &four, NULL), GS_OK);
  assert_true(four.time.total == one.time.total);
  assert_true(four.time.words_per_s == one.time.words_per_s);
  assert_true(four.time.total_words_per_s == 256 / one.time.total);
  assert_int_equal(one.memory.cache, UINT64_C(671088640));
  assert_int_equal(four.memory.cache, 4 * UINT64_C(671088640));
  p.in_flight = 5;
  assert_int_equal(gs_cost(&s, &g, &l, &p, &four, &err), GS_ERR_SHAPE);
  assert_string_equal(err.field, "in_flight");
  p.in_flight = 2;
  p.split = GS_SLICES;
  assert_int_equal(gs_cost(&s, &g, &l, &p, &four, &err), GS_ERR_SHAPE);
  assert_string_equal(err.field, "in_flight");
}

static void the_405b_model_on_one_gpu_does_not_fit(void **state) {
  gs_view v;
  (void)state;
  v = ts_view("405b", 1, "fast", GS_SLICES, 1);
  assert_int_equal(v.fits, 0);
  assert_string_equal(v.time, "Does not fit");
  assert_string_equal(v.read, "");
  assert_string_equal(v.waiting, "");
  assert_true(v.mem_bar == 100);
  assert_true(v.wait_bar == 0);
}

static void chart_rows_scale_so_the_slowest_fitting_rows_bars_sum_to_100(void **state) {
  gs_model s;
  gs_gpu g;
  gs_link l;
  gs_chart_row rows[5];
  double slowest = 0;
  size_t k, at = 0;
  (void)state;
  ts_setting("70b", "fast", &s, &g, &l);
  assert_int_equal(ts_chart(&s, &g, &l, &ONE_WORD, GS_COUNTS, GS_COUNT_COUNT, rows), GS_OK);
  for (k = 0; k < GS_COUNT_COUNT; k++) {
    assert_int_equal(rows[k].gpus, GS_COUNTS[k]);
    if (rows[k].fits && ts_time("70b", GS_COUNTS[k], "fast", GS_SLICES, 1).total > slowest) {
      slowest = ts_time("70b", GS_COUNTS[k], "fast", GS_SLICES, 1).total;
      at = k;
    }
  }
  assert_int_equal(rows[at].gpus, 2);
  ts_assert_close(rows[at].read_bar + rows[at].wait_bar, 100, 1e-12);
  for (k = 0; k < GS_COUNT_COUNT; k++) assert_true(rows[k].read_bar + rows[k].wait_bar <= 100 + 1e-9);
  assert_int_equal(rows[0].fits, 0);
  assert_string_equal(rows[0].time, "Does not fit");
  assert_string_equal(rows[2].time, "18.94 ms");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(weight_counts_match_the_published_totals),
      cmocka_unit_test(memory_of_70b_on_4_gpus_adds_up_by_hand),
      cmocka_unit_test(sixteen_gpus_hold_as_much_cache_as_eight),
      cmocka_unit_test(the_fits_verdicts_match_the_lesson_for_every_offered_count),
      cmocka_unit_test(the_fewest_gpus_that_fit_are_1_2_and_11),
      cmocka_unit_test(the_fewest_search_stops_where_the_whole_sweep_finds_the_fewest),
      cmocka_unit_test(among_counts_that_divide_the_heads_the_405b_model_needs_16),
      cmocka_unit_test(no_count_up_to_ten_fits_the_405b_model),
      cmocka_unit_test(read_time_on_one_gpu_is_the_weight_bytes_over_the_bandwidth),
      cmocka_unit_test(read_time_times_the_gpu_count_stays_one_gpus_read),
      cmocka_unit_test(computing_is_shorter_than_reading_for_every_setting_of_the_widget),
      cmocka_unit_test(a_ring_all_reduce_over_2_gpus_sums_in_2_steps_and_is_charged_for_them),
      cmocka_unit_test(a_ring_all_reduce_over_4_gpus_sums_in_6_steps_and_is_charged_for_them),
      cmocka_unit_test(a_ring_all_reduce_over_8_gpus_sums_in_14_steps_and_is_charged_for_them),
      cmocka_unit_test(a_ring_all_reduce_over_16_gpus_sums_in_30_steps_and_is_charged_for_them),
      cmocka_unit_test(one_gpu_waits_on_no_one),
      cmocka_unit_test(a_word_makes_two_swaps_per_layer),
      cmocka_unit_test(the_waiting_share_grows_with_the_count_and_the_slow_link_waits_longer),
      cmocka_unit_test(each_doubling_gains_less_and_16_gpus_are_slower_than_8_for_the_8b_model),
      cmocka_unit_test(the_best_count_up_to_64_depends_on_the_link),
      cmocka_unit_test(the_best_count_that_divides_the_heads_is_8_16_and_32_on_both_links),
      cmocka_unit_test(among_the_offered_counts_8_is_best_for_8b_and_16_for_the_others),
      cmocka_unit_test(layer_groups_stay_within_2_percent_of_one_gpus_read),
      cmocka_unit_test(a_split_the_model_does_not_know_is_refused_not_priced_as_free),
      cmocka_unit_test(many_words_at_once_make_the_slow_link_cost_over_5_times_more),
      cmocka_unit_test(the_widget_opens_on_34_93_gib_and_18_94_ms_with_8_7_percent_waiting),
      cmocka_unit_test(groups_leave_gpu_1_idle_three_turns_and_two_hand_offs),
      cmocka_unit_test(four_batches_in_flight_keep_every_group_busy),
      cmocka_unit_test(the_405b_model_on_one_gpu_does_not_fit),
      cmocka_unit_test(chart_rows_scale_so_the_slowest_fitting_rows_bars_sum_to_100),
  };
  return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
