/* The lesson's figures as SVG (csrc/core/figure.c): each carries the numbers the lesson
 * quotes for it (copied from the lesson's text, tests/lesson/lesson.txt, not from the
 * code), and a buffer too small for a figure is an error, never a cut SVG. The reference
 * test (tests/reference/check_figures_svg.py) checks the same numbers against the lesson's
 * Python and the committed files in web/figures/. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "test_support.h"

enum { CAP = 1 << 15 };
static char svg[CAP];

typedef struct {
  gs_model small, large;
  gs_gpu gpu;
  gs_link fast, slow;
  gs_figure_input in;
} lesson_setting;

static void lesson_of(lesson_setting *s) {
  ts_model("8b", &s->small);
  ts_model("70b", &s->large);
  ts_gpu(&s->gpu);
  ts_link("fast", &s->fast);
  ts_link("slow", &s->slow);
  s->in.small = &s->small;
  s->in.large = &s->large;
  s->in.small_name = "8B";
  s->in.large_name = "70B";
  s->in.gpu = &s->gpu;
  s->in.fast = &s->fast;
  s->in.slow = &s->slow;
}

static size_t draw(int kind) {
  static lesson_setting s;
  size_t len = 0;
  gs_error err;
  lesson_of(&s);
  assert_int_equal(gs_figure(kind, &s.in, svg, sizeof svg, &len, &err), GS_OK);
  assert_int_equal(strlen(svg), len);
  return len;
}

static void carries(const char *const *quoted, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!strstr(svg, quoted[i])) fail_msg("the figure lacks \"%s\"", quoted[i]);
}

/* lesson: "Figure 1 sets the 70B model's 131.42 GiB against the 73.6 GiB one GPU can use.
 * Split four ways, each GPU holds 32.85 GiB." */
static void figure_1_carries_131_42_73_6_and_32_85_gib(void **state) {
  static const char *const q[] = {"131.42 GiB", "73.6 GiB", "32.85 GiB"};
  (void)state;
  draw(GS_FIGURE_WEIGHTS_SPLIT);
  carries(q, 3);
}

/* lesson: the 70B model on the fast link, 2, 4, 8 and 16 GPUs: "35.85", "18.94", "11.06",
 * "8.27" ms (the 70B tables), "the waiting takes 3.5%, 8.7%, 21.8% and 47.7% of each word". */
static void figure_2_carries_each_word_time_and_waiting_share(void **state) {
  static const char *const q[] = {"35.85 ms", "18.94 ms", "11.06 ms", "8.27 ms", "3.5%", "8.7%", "21.8%", "47.7%"};
  (void)state;
  draw(GS_FIGURE_TIME_PER_WORD);
  carries(q, 8);
}

/* lesson: "the 8B model gets slower, from 514 to 483 words a second" (8 to 16 GPUs, fast
 * link); the slow link's 432 and 351 are the lesson's figure test's. */
static void figure_3_carries_514_to_483_and_432_to_351(void **state) {
  static const char *const q[] = {"from 514 to 483 and the slow link 432 to 351", ">514<", ">483<", ">432<", ">351<",
                                  "peaks at 8 GPUs on both links"};
  (void)state;
  draw(GS_FIGURE_STOPS_HELPING);
  carries(q, 6);
}

/* lesson: slices 18.94 ms, groups "69.23 ms a word on four GPUs", each reads "a quarter, in
 * 17.30 ms". */
static void figure_4_carries_18_94_69_23_and_17_30_ms(void **state) {
  static const char *const q[] = {"18.94 ms", "69.23 ms", "17.30 ms", "3 GPUs in 4"};
  (void)state;
  draw(GS_FIGURE_SLICES_VS_GROUPS);
  carries(q, 4);
}

/* An attribute on...= anywhere in the text: " on", letters, "=". */
static int has_event_handler(const char *s) {
  for (; (s = strstr(s, " on")) != NULL; s += 3) {
    const char *p = s + 3;
    while (*p >= 'a' && *p <= 'z') p++;
    if (p > s + 3 && *p == '=') return 1;
  }
  return 0;
}

/* Each figure is one SVG with a title and a desc, and carries no script or event handler. */
static void every_figure_is_an_svg_with_title_and_desc_and_no_script(void **state) {
  int k;
  (void)state;
  for (k = 0; k < GS_FIGURE_COUNT; k++) {
    size_t len = draw(k);
    assert_true(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    assert_true(len > 8 && strcmp(svg + len - 7, "</svg>\n") == 0);
    assert_non_null(strstr(svg, "<title id="));
    assert_non_null(strstr(svg, "<desc id="));
    assert_null(strstr(svg, "<script"));
    assert_false(has_event_handler(svg));
    assert_non_null(strstr(svg, "currentColor"));
  }
}

/* A buffer one byte short of the figure and its NUL is refused, and holds no part of it;
 * one exactly long enough holds the same figure. */
static void a_buffer_too_small_is_an_error_and_holds_no_cut_figure(void **state) {
  static char small[CAP];
  static lesson_setting s;
  gs_error err;
  size_t whole, len = 1;
  int k;
  (void)state;
  lesson_of(&s);
  for (k = 0; k < GS_FIGURE_COUNT; k++) {
    whole = draw(k);
    assert_int_equal(gs_figure(k, &s.in, small, whole, &len, &err), GS_ERR_TOO_LONG);
    assert_string_equal(small, "");
    assert_int_equal(len, 0);
    assert_string_equal(err.field, "figure");
    assert_int_equal(gs_figure(k, &s.in, small, 64, &len, &err), GS_ERR_TOO_LONG);
    assert_int_equal(gs_figure(k, &s.in, small, whole + 1, &len, &err), GS_OK);
    assert_int_equal(len, whole);
    assert_string_equal(small, svg);
  }
  assert_int_equal(gs_figure(0, &s.in, small, 0, &len, &err), GS_ERR_TOO_LONG);
  assert_int_equal(gs_figure(GS_FIGURE_COUNT, &s.in, small, sizeof small, &len, &err), GS_ERR_UNKNOWN);
}

static void names_are_the_lessons_file_names(void **state) {
  static const char *const names[] = {"weights-split", "time-per-word", "stops-helping", "slices-vs-groups"};
  int k;
  (void)state;
  for (k = 0; k < GS_FIGURE_COUNT; k++) {
    assert_string_equal(gs_figure_name(k), names[k]);
    assert_int_equal(gs_figure_parse(names[k]), k);
  }
  assert_null(gs_figure_name(GS_FIGURE_COUNT));
  assert_int_equal(gs_figure_parse("weights-split.svg"), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(figure_1_carries_131_42_73_6_and_32_85_gib),
      cmocka_unit_test(figure_2_carries_each_word_time_and_waiting_share),
      cmocka_unit_test(figure_3_carries_514_to_483_and_432_to_351),
      cmocka_unit_test(figure_4_carries_18_94_69_23_and_17_30_ms),
      cmocka_unit_test(every_figure_is_an_svg_with_title_and_desc_and_no_script),
      cmocka_unit_test(a_buffer_too_small_is_an_error_and_holds_no_cut_figure),
      cmocka_unit_test(names_are_the_lessons_file_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
