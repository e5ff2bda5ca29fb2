/* ShareGPT's length table (data/sharegpt_lengths.csv, compiled in) and the draw from it
 * (csrc/serve/draw.c): the table holds the pairs vLLM's benchmark keeps, a draw of the
 * whole table is a shuffle of it (so its means are the table's), the same seed draws the
 * same pairs and another seed others, and rescaling rounds as its comment says. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

extern const char GS_DATA_sharegpt_lengths_csv[];

/* The table's count and sums, from Sarathi-Serve's CSV by scripts/sharegpt_lengths.sh's
 * filter, summed with awk (not with the library): 11,035 pairs, 4,171,643 prompt and
 * 4,622,582 output tokens. */
enum { PAIRS = 11035, CAP = 12000 };
static const uint64_t PROMPT_SUM = 4171643, OUTPUT_SUM = 4622582;

static size_t table(uint64_t *prompts, uint64_t *outputs) {
  const char *t = GS_DATA_sharegpt_lengths_csv;
  size_t count = 0;
  gs_error err;
  memset(&err, 0, sizeof err);
  if (gs_lengths_parse(t, strlen(t), prompts, outputs, CAP, &count, &err) != GS_OK) fail_msg("%s: %s", err.field, err.what);
  return count;
}

static uint64_t sum(const uint64_t *x, size_t n) {
  uint64_t s = 0;
  size_t i;
  for (i = 0; i < n; i++) s += x[i];
  return s;
}

static int ascending(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void the_table_holds_what_vllm_keeps(void **state) {
  static uint64_t p[CAP], o[CAP];
  size_t n = table(p, o), i;
  (void)state;
  assert_int_equal(n, PAIRS);
  assert_int_equal(sum(p, n), PROMPT_SUM);
  assert_int_equal(sum(o, n), OUTPUT_SUM);
  for (i = 0; i < n; i++) /* vllm/benchmarks/datasets/utils.py, is_valid_sequence */
    assert_true(p[i] >= 4 && o[i] >= 4 && p[i] <= 1024 && p[i] + o[i] <= 2048);
}

/* All of the table drawn: the same pairs in another order, so the same means. */
static void the_whole_table_drawn_is_a_shuffle(void **state) {
  static uint64_t p[CAP], o[CAP], dp[PAIRS], dout[PAIRS], sp[PAIRS], sd[PAIRS];
  size_t n = table(p, o), i, moved = 0;
  (void)state;
  memcpy(sp, p, sizeof sp);
  gs_lengths_draw(p, o, n, 1, n, dp, dout);
  assert_int_equal(sum(dp, n), PROMPT_SUM);
  assert_int_equal(sum(dout, n), OUTPUT_SUM);
  for (i = 0; i < n; i++) moved += dp[i] != sp[i];
  assert_true(moved > n / 2);
  memcpy(sd, dp, sizeof sd);
  qsort(sp, n, sizeof *sp, ascending);
  qsort(sd, n, sizeof *sd, ascending);
  assert_memory_equal(sp, sd, sizeof sp);
}

static void draw(uint64_t seed, size_t n, uint64_t *dp, uint64_t *dout) {
  static uint64_t p[CAP], o[CAP];
  size_t count = table(p, o);
  gs_lengths_draw(p, o, count, seed, n, dp, dout);
}

/* The same seed the same pairs; another seed others; past the table's end, pairs of it. */
static void a_seed_draws_the_same_pairs(void **state) {
  enum { N = PAIRS + 2000 };
  static uint64_t a[N], ao[N], b[N], bo[N], c[N], co[N];
  size_t i, same = 0;
  (void)state;
  draw(7, N, a, ao);
  draw(7, N, b, bo);
  draw(8, N, c, co);
  assert_memory_equal(a, b, sizeof a);
  assert_memory_equal(ao, bo, sizeof ao);
  for (i = 0; i < N; i++) same += a[i] == c[i] && ao[i] == co[i];
  assert_true(same < N / 10);
  for (i = PAIRS; i < N; i++) assert_true(a[i] >= 4 && a[i] <= 1024 && ao[i] >= 4 && a[i] + ao[i] <= 2048);
}

/* l to max(1, l x mean x n / sum) rounded half up, worked by hand. */
static void rescaling_rounds_half_up_and_keeps_one(void **state) {
  uint64_t a[2] = {1, 3}, b[2] = {1, 2}, c[2] = {1, 1000}, d[4] = {1, 1, 1, 1}, e[1] = {2048};
  gs_error err;
  (void)state;
  memset(&err, 0, sizeof err);
  assert_int_equal(gs_lengths_rescale(a, 2, 10, 100, "f", &err), GS_OK); /* 1 x 20 / 4 = 5, 3 x 20 / 4 = 15 */
  assert_true(a[0] == 5 && a[1] == 15);
  assert_int_equal(gs_lengths_rescale(b, 2, 1, 100, "f", &err), GS_OK); /* 2/3 and 4/3 round to 1 and 1 */
  assert_true(b[0] == 1 && b[1] == 1);
  assert_int_equal(gs_lengths_rescale(c, 2, 1, 100, "f", &err), GS_OK); /* 2/1001 is 0, kept at 1; 2000/1001 is 2 */
  assert_true(c[0] == 1 && c[1] == 2);
  assert_int_equal(gs_lengths_rescale(d, 4, 3, 100, "f", &err), GS_OK); /* each exactly the mean */
  assert_true(d[0] == 3 && d[3] == 3);
  assert_int_equal(gs_lengths_rescale(e, 1, 101, 100, "f", &err), GS_ERR_RANGE); /* 101 > most */
  assert_string_equal(err.field, "f");
  assert_int_equal(gs_lengths_rescale(e, 1, 0, 100, "f", &err), GS_ERR_RANGE);
}

/* Rescaled to a mean, a draw's mean is that mean within half a token (each rounding moves a
 * length by at most 0.5), when no length was raised to 1. */
static void a_rescaled_draw_has_the_mean_given(void **state) {
  enum { N = 3000 };
  static uint64_t p[N], o[N];
  gs_error err;
  (void)state;
  memset(&err, 0, sizeof err);
  draw(3, N, p, o);
  assert_int_equal(gs_lengths_rescale(p, N, 1000, GS_MAX_CHAT_TOKENS, "p", &err), GS_OK);
  assert_int_equal(gs_lengths_rescale(o, N, 333, GS_MAX_CHAT_TOKENS, "o", &err), GS_OK);
  assert_true(sum(p, N) >= (uint64_t)N * 1000 - N / 2 && sum(p, N) <= (uint64_t)N * 1000 + N / 2);
  assert_true(sum(o, N) >= (uint64_t)N * 333 - N / 2 && sum(o, N) <= (uint64_t)N * 333 + N / 2);
}

/* The draw and rescale in one call (gs_lengths_draw_rescaled, which serve and validate share)
 * gives what the two steps give apart; a mean of 0 keeps that side as drawn; a pair whose
 * rescaled sum passes GS_MAX_CHAT_TOKENS is refused, naming "lengths". */
static void the_draw_rescaled_is_the_two_steps(void **state) {
  enum { N = 500 };
  static uint64_t p[N], o[N], q[N], r[N], scratch[2 * CAP];
  gs_error err;
  (void)state;
  memset(&err, 0, sizeof err);
  draw(5, N, p, o);
  assert_int_equal(gs_lengths_rescale(p, N, 700, GS_MAX_CHAT_TOKENS, "p", &err), GS_OK);
  assert_int_equal(gs_lengths_draw_rescaled(GS_DATA_sharegpt_lengths_csv, scratch, CAP, 5, N, 700, 0, q, r, &err), GS_OK);
  assert_memory_equal(p, q, sizeof p);
  assert_memory_equal(o, r, sizeof o);
  /* prompts and outputs each under 2^24 alone, together above it */
  assert_int_equal(gs_lengths_draw_rescaled(GS_DATA_sharegpt_lengths_csv, scratch, CAP, 5, 2, 9000000, 9000000, q, r, &err),
                   GS_ERR_RANGE);
  assert_string_equal(err.field, "lengths");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_table_holds_what_vllm_keeps),
      cmocka_unit_test(the_whole_table_drawn_is_a_shuffle),
      cmocka_unit_test(a_seed_draws_the_same_pairs),
      cmocka_unit_test(rescaling_rounds_half_up_and_keeps_one),
      cmocka_unit_test(a_rescaled_draw_has_the_mean_given),
      cmocka_unit_test(the_draw_rescaled_is_the_two_steps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
