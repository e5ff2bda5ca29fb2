/* Figures as text: fixed places rounded like JavaScript's toFixed (every expected string
 * below is what Node's Number.prototype.toFixed prints), and thousands separators. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static void check_fixed(double x, int places, const char *expected) {
  char buf[64];
  assert_string_equal(gs_fixed(buf, sizeof buf, x, places), expected);
}

static void exact_ties_round_half_up(void **state) {
  (void)state;
  check_fixed(0.625, 2, "0.63"); /* 5/8: exact in binary, a true tie; printf alone gives 0.62 */
  check_fixed(0.125, 2, "0.13");
  check_fixed(0.375, 2, "0.38");
  check_fixed(2.5, 0, "3");
  check_fixed(0.5, 0, "1");
  check_fixed(1.5, 0, "2");
  check_fixed(1.25, 1, "1.3");
}

static void negative_ties_round_away_from_zero_as_to_fixed_does(void **state) {
  (void)state;
  /* toFixed works on the magnitude and puts the sign back (ECMA-262, 21.1.3.3, step 9) */
  check_fixed(-0.625, 2, "-0.63");
  check_fixed(-2.5, 0, "-3");
  check_fixed(-0.001, 2, "-0.00");
}

static void negative_zero_prints_without_a_sign_as_to_fixed_does(void **state) {
  (void)state;
  /* (-0).toFixed(2) is "0.00": step 9 tests x < 0, which -0 is not */
  check_fixed(-0.0, 2, "0.00");
}

static void values_just_below_a_decimal_tie_round_down(void **state) {
  (void)state;
  check_fixed(1.005, 2, "1.00"); /* the double is 1.00499999999999989341858963598497211933135986328125 */
  check_fixed(0.615, 2, "0.61"); /* 0.61499999999999999111821580299874767661094665527343750 */
  check_fixed(0.045, 2, "0.04"); /* 0.04499999999999999833466546306226518936455249786376953125 */
}

static void values_just_above_a_decimal_tie_round_up(void **state) {
  (void)state;
  /* Python: Decimal(8.345) == 8.3450000000000006394884621840901672840118408203125 */
  check_fixed(8.345, 2, "8.35");
  check_fixed(1.35, 1, "1.4"); /* 1.350000000000000088817841970012523233890533447265625 */
}

static void ordinary_values_round_to_the_nearest(void **state) {
  (void)state;
  check_fixed(34.9326171875, 2, "34.93");
  check_fixed(0.0, 2, "0.00");
  check_fixed(7.0, 1, "7.0");
  check_fixed(99.996, 2, "100.00");
  check_fixed(123456.789, 0, "123457");
}

static void not_finite_values_print_as_javascript_does(void **state) {
  (void)state;
  check_fixed(NAN, 2, "NaN");
  check_fixed(INFINITY, 2, "Infinity");
  check_fixed(-INFINITY, 2, "-Infinity");
}

static void check_grouped(uint64_t x, const char *expected) {
  char buf[40];
  assert_string_equal(gs_grouped(buf, sizeof buf, x), expected);
}

static void whole_numbers_get_a_comma_every_three_digits(void **state) {
  (void)state;
  check_grouped(UINT64_C(37508222976), "37,508,222,976");
  check_grouped(0, "0");
  check_grouped(999, "999");
  check_grouped(1000, "1,000");
  check_grouped(100000, "100,000");
  check_grouped(1000000, "1,000,000");
  check_grouped(UINT64_MAX, "18,446,744,073,709,551,615");
}

static void fixed_figures_are_grouped_in_their_integer_part_only(void **state) {
  char buf[64];
  (void)state;
  assert_string_equal(gs_fixed_grouped(buf, sizeof buf, 2039, 0), "2,039");
  assert_string_equal(gs_fixed_grouped(buf, sizeof buf, 69.2, 2), "69.20");
  assert_string_equal(gs_fixed_grouped(buf, sizeof buf, 1234.5678, 3), "1,234.568");
  assert_string_equal(gs_fixed_grouped(buf, sizeof buf, -1234567.891, 2), "-1,234,567.89");
  assert_string_equal(gs_fixed_grouped(buf, sizeof buf, 999.999, 2), "1,000.00");
}

static void a_short_buffer_holds_the_start_of_a_grouped_number(void **state) {
  char buf[5];
  (void)state;
  /* "37,508,222,976" cut to four characters */
  assert_string_equal(gs_grouped(buf, sizeof buf, UINT64_C(37508222976)), "37,5");
}

/* Ties and values far from 1, where a fixed-point routine built on doubles loses digits. */
static void ties_and_extremes_at_many_places_are_exact(void **state) {
  char buf[400];
  (void)state;
  check_fixed(0.0009765625, 9, "0.000976563");      /* 2^-10: a tie at the tenth decimal */
  check_fixed(1000000000000000.5, 0, "1000000000000001"); /* exact in binary, a tie */
  check_fixed(4503599627370495.5, 0, "4503599627370496"); /* 2^52 - 0.5 */
  check_fixed(123.456, 9, "123.456000000");
  check_fixed(5e-324, 9, "0.000000000");
  check_fixed(0.5, 9, "0.500000000");
  /* Python: int(sys.float_info.max) */
  assert_string_equal(gs_fixed(buf, sizeof buf, DBL_MAX, 0),
                      "17976931348623157081452742373170435679807056752584499659891747680315726078002853876058955863276"
                      "68781715404589535143824642343213268894641827684675467035375169860499105765512820762454900903893"
                      "28944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299"
                      "881250404026184124858368");
}

static void a_short_buffer_holds_the_start_of_a_fixed_figure(void **state) {
  char five[5], three[3];
  (void)state;
  assert_string_equal(gs_fixed(five, sizeof five, 12345.678, 2), "1234");
  /* "1.5" cut to two characters is "1.", not "15" */
  assert_string_equal(gs_fixed(three, sizeof three, 1.5, 1), "1.");
}

/* glibc's printf prints the exact binary value, rounded correctly in the current
 * rounding mode (ties to even by default): an independent oracle. On a tie (x a multiple
 * of 2^-(places+1) but not of 2^-places), half-up is glibc's rounding away from zero,
 * FE_UPWARD for positive x and FE_DOWNWARD for negative. 200,000 doubles with random
 * bits, half of them across the whole exponent range, a quarter near 1 and a quarter
 * built as exact ties. */
/* Words a second keep the lesson's one place from 0.1 up, and below it show two
 * significant digits instead of printing 0.0; below nine places they say so. */
static void small_word_rates_show_two_significant_digits_not_zero(void **state) {
  static const struct {
    double x;
    const char *expected;
  } CASES[] = {{1234.56, "1,234.6"}, {0.1, "0.1"}, {0, "0.0"},         {0.05, "0.050"}, {0.0062, "0.0062"},
               {0.00999, "0.0100"}, {1.2e-8, "0.000000012"}, {4e-9, "0.000000004"}, {1e-12, "< 0.000000001"}};
  char buf[GS_FIGURE_CAP];
  size_t i;
  (void)state;
  for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) assert_string_equal(gs_words_rate(buf, sizeof buf, CASES[i].x), CASES[i].expected);
}

static void fixed_agrees_with_glibc_on_random_doubles(void **state) {
  uint64_t seed = 88172645463325252u;
  int i, ties = 0;
  (void)state;
  for (i = 0; i < 200000; i++) {
    char ours[420], glibc[420];
    uint64_t bits;
    double x, finer, coarser;
    int places, tie;
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17; /* xorshift64 (Marsaglia 2003) */
    bits = seed;
    if (i % 2) bits = (bits & ~(UINT64_C(0x7ff) << 52)) | ((uint64_t)(1023 - 40 + (int)(seed % 80)) << 52);
    memcpy(&x, &bits, sizeof x);
    if (!isfinite(x)) continue;
    places = (int)(seed >> 60) % 10;
    if (i % 4 == 1) /* an exact tie: an odd multiple of 2^-(places+1), either sign */
      x = ldexp((double)(2 * (seed >> 24) + 1), -(places + 1)) * (seed & 1 ? -1 : 1);
    gs_fixed(ours, sizeof ours, x, places);
    finer = ldexp(fabs(x), places + 1);
    coarser = ldexp(fabs(x), places);
    tie = floor(finer) == finer && floor(coarser) != coarser;
    ties += tie;
    if (tie) fesetround(x < 0 ? FE_DOWNWARD : FE_UPWARD);
    snprintf(glibc, sizeof glibc, "%.*f", places, x);
    fesetround(FE_TONEAREST);
    assert_string_equal(ours, glibc);
  }
  assert_true(ties >= 50000); /* the sample does reach the ties it claims to check */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exact_ties_round_half_up),
      cmocka_unit_test(negative_ties_round_away_from_zero_as_to_fixed_does),
      cmocka_unit_test(negative_zero_prints_without_a_sign_as_to_fixed_does),
      cmocka_unit_test(values_just_below_a_decimal_tie_round_down),
      cmocka_unit_test(values_just_above_a_decimal_tie_round_up),
      cmocka_unit_test(ordinary_values_round_to_the_nearest),
      cmocka_unit_test(not_finite_values_print_as_javascript_does),
      cmocka_unit_test(whole_numbers_get_a_comma_every_three_digits),
      cmocka_unit_test(fixed_figures_are_grouped_in_their_integer_part_only),
      cmocka_unit_test(a_short_buffer_holds_the_start_of_a_grouped_number),
      cmocka_unit_test(ties_and_extremes_at_many_places_are_exact),
      cmocka_unit_test(a_short_buffer_holds_the_start_of_a_fixed_figure),
      cmocka_unit_test(small_word_rates_show_two_significant_digits_not_zero),
      cmocka_unit_test(fixed_agrees_with_glibc_on_random_doubles),
  };
  return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
