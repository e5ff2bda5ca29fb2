/* Achieved efficiency, the bottleneck and the first word's time (issue 19), each against
 * sums worked by hand; and with every figure off, the lesson's own figures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "test_support.h"

/* 70B on the lesson's GPU (2.039e12 bytes/s), 4 GPUs, fast link, one word. */
static gs_cost_result lesson_70b(const gs_efficiency *e, uint64_t prompt) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(4, GS_SLICES, 1);
  gs_cost_result c;
  gs_error err;
  ts_setting("70b", "fast", &m, &g, &l);
  p.efficiency = *e;
  p.prompt_tokens = prompt;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  return c;
}

static void with_efficiency_off_the_lesson_figures_do_not_move(void **state) {
  gs_efficiency off = {0};
  gs_cost_result c = lesson_70b(&off, 0);
  gs_time lesson = ts_time("70b", 4, "fast", GS_SLICES, 1);
  char buf[GS_FIGURE_CAP];
  (void)state;
  /* the lesson's expression, bit for bit: 141,107,412,992 bytes / 4 / 2.039e12 */
  assert_true(c.time.read == 35276853248.0 / 2.039e12);
  assert_memory_equal(&c.time, &lesson, sizeof lesson);
  assert_string_equal(gs_fixed(buf, sizeof buf, c.time.total * 1e3, 2), "18.94");
  assert_true(c.first_word == 0);
  assert_int_equal(c.bound, GS_BOUND_READ);
}

static void half_the_bandwidth_doubles_the_read(void **state) {
  gs_efficiency e = {0};
  gs_cost_result c;
  (void)state;
  e.bandwidth_share = 0.5;
  c = lesson_70b(&e, 0);
  assert_true(c.time.read == 35276853248.0 / (2.039e12 * 0.5)); /* 34.60 ms */
}

static void a_fixed_cost_a_layer_is_paid_80_times_a_step(void **state) {
  gs_efficiency off = {0}, e = {0};
  (void)state;
  e.layer_us = 10;
  /* 80 layers x 10 us = 0.8 ms */
  ts_assert_close(lesson_70b(&e, 0).time.read - lesson_70b(&off, 0).time.read, 80 * 10e-6, 1e-9);
}

static void an_all_reduce_start_up_is_paid_by_each_of_160_all_reduces(void **state) {
  gs_efficiency off = {0}, e = {0};
  gs_cost_result a, b;
  (void)state;
  e.allreduce_us = 2;
  a = lesson_70b(&off, 0);
  b = lesson_70b(&e, 0);
  ts_assert_close(b.swap - a.swap, 2e-6, 1e-9);
  ts_assert_close(b.time.transfer - a.time.transfer, 160 * 2e-6, 1e-9);
}

/* 8B on one lesson GPU, a prompt of 1,000 tokens. Its 8,030,261,248 weights hold two
 * tables of 128,256 x 4,096 (1,050,673,152): the embedding is looked up and the output
 * table multiplies the last token only, so 2 x 6,979,588,096 x 1,000 operations for the
 * rest, 2 x 525,336,576 for the last token's logits and 32 layers x 4,096 (32 heads x 128)
 * x 1,000 x 1,001 for attention, 14,091,429,937,152 in all, at 312e12 a second: 45.16 ms,
 * longer than one read of the 16,060,522,496 weight bytes (7.88 ms); one GPU sends
 * nothing. */
static void the_first_word_of_a_1000_token_prompt_is_its_prefill(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(1, GS_SLICES, 1);
  gs_cost_result c;
  gs_error err;
  (void)state;
  ts_setting("8b", "fast", &m, &g, &l);
  p.prompt_tokens = 1000;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  ts_assert_close(c.first_word, 14091429937152.0 / 312e12, 1e-12);
  p.efficiency.flops_share = 0.5;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  ts_assert_close(c.first_word, 14091429937152.0 / 156e12, 1e-12);
}

/* On 2 GPUs the prefill adds 2 all-reduces a layer of 1,000 x 4,096 x 2 = 8,192,000 bytes:
 * the lesson's rule on the fast link, 6.6 + 2 x 0.6 us and 2(2-1)/2 x 8,192,000 / 600e9. */
static void the_first_word_on_2_gpus_waits_for_64_all_reduces_of_the_prompt(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(2, GS_SLICES, 1);
  gs_cost_result c;
  gs_error err;
  double compute = 14091429937152.0 / (2 * 312e12), ar = 7.8e-6 + 8192000.0 / 600e9;
  (void)state;
  ts_setting("8b", "fast", &m, &g, &l);
  p.prompt_tokens = 1000;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  ts_assert_close(c.first_word, compute + 64 * ar, 1e-9);
}

static void each_step_names_what_sets_it(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(1, GS_SLICES, 4096);
  gs_cost_result c;
  gs_error err;
  (void)state;
  ts_setting("8b", "slow", &m, &g, &l);
  /* 4,096 words: 2 x 8,030,261,248 x 4,096 / 312e12 = 211 ms of computing, against 7.9 ms
   * of reading the weights (and one chat's cache, not read) */
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  assert_int_equal(c.bound, GS_BOUND_COMPUTE);
  assert_string_equal(gs_bound_name(c.bound), "computing");
  /* 16 GPUs on the slow link, 64 words: the all-reduces outlast the reading */
  p = ts_plan(16, GS_SLICES, 64);
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  assert_true(c.time.transfer > c.time.read);
  assert_int_equal(c.bound, GS_BOUND_WAIT);
  assert_string_equal(gs_bound_name(GS_BOUND_READ), "reading");
}

static void figures_out_of_range_are_refused_by_name(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(1, GS_SLICES, 1);
  gs_cost_result c;
  gs_error err;
  (void)state;
  ts_setting("8b", "fast", &m, &g, &l);
  p.efficiency.bandwidth_share = 1.5;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "bandwidth_share");
  p.efficiency.bandwidth_share = 0;
  p.efficiency.flops_share = 0.001;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "flops_share");
  p.efficiency.flops_share = 0;
  p.efficiency.layer_us = -1;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "layer_us");
  p.efficiency.layer_us = 0;
  p.prompt_tokens = GS_MAX_CHAT_TOKENS + 1;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "prompt_tokens");
}

/* fit --json prints each error as the double it is (%.17g): a near-perfect fit's error of
 * 9.71150745362202e-09 lies past the exact case configs are read by, and the efficiency
 * reader must still take it (fuzz_fit found one it refused). */
static void the_fits_own_small_errors_read_back(void **state) {
  static const char text[] = "{\"e\": 9.71150745362202e-09, \"t\": 3.3333333333333335, \"big\": 1e400}";
  jsmntok_t toks[8];
  gs_json j;
  gs_error err;
  double x = 0;
  (void)state;
  assert_int_equal(gs_json_parse(text, sizeof text - 1, toks, 8, &j, &err), GS_OK);
  assert_int_equal(gs_json_number(&j, gs_json_find(&j, 0, "e"), "e", &x, &err), GS_ERR_RANGE); /* a config's reader: exact case */
  assert_int_equal(gs_json_any_number(&j, gs_json_find(&j, 0, "e"), "e", &x, &err), GS_OK);
  assert_true(x == 9.71150745362202e-09);
  assert_int_equal(gs_json_any_number(&j, gs_json_find(&j, 0, "t"), "t", &x, &err), GS_OK);
  assert_true(x == 10.0 / 3.0);
  assert_int_equal(gs_json_any_number(&j, gs_json_find(&j, 0, "big"), "big", &x, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "big");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(with_efficiency_off_the_lesson_figures_do_not_move),
      cmocka_unit_test(half_the_bandwidth_doubles_the_read),
      cmocka_unit_test(a_fixed_cost_a_layer_is_paid_80_times_a_step),
      cmocka_unit_test(an_all_reduce_start_up_is_paid_by_each_of_160_all_reduces),
      cmocka_unit_test(the_first_word_of_a_1000_token_prompt_is_its_prefill),
      cmocka_unit_test(the_first_word_on_2_gpus_waits_for_64_all_reduces_of_the_prompt),
      cmocka_unit_test(each_step_names_what_sets_it),
      cmocka_unit_test(figures_out_of_range_are_refused_by_name),
      cmocka_unit_test(the_fits_own_small_errors_read_back),
  };
  return cmocka_run_group_tests_name("efficiency", tests, NULL, NULL);
}
