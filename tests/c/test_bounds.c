/* Hostile inputs of issue 18: counts at and past their bounds, byte totals that would
 * wrap past 2^64, the expected-experts share at the largest expert count, the one
 * escaping of text from the user, and logs of collectives other than all-reduce. Every
 * expected value is worked by hand (or by an independent computation in long double). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

/* E x (1 - (1 - k/E)^W) / E against the same in long double (64-bit significands, powl):
 * within 1e-10 for every E up to GS_MAX_EXPERTS, as gpusplit.h promises. */
static void the_routed_share_keeps_its_precision_up_to_the_most_experts(void **state) {
  static const uint64_t E[] = {2, 3, 7, 128, 40000, 65535, GS_MAX_EXPERTS};
  static const uint64_t W[] = {1, 2, 3, 64, 1000, 65536, 1048576};
  size_t i, j, k;
  (void)state;
  for (i = 0; i < sizeof E / sizeof E[0]; i++)
    for (k = 1; k <= 2 && k < E[i]; k++)
      for (j = 0; j < sizeof W / sizeof W[0]; j++) {
        gs_model m;
        long double exact = 1.0L - powl(1.0L - (long double)k / (long double)E[i], (long double)W[j]);
        double got;
        memset(&m, 0, sizeof m);
        m.experts = E[i];
        m.experts_per_token = k;
        got = gs_routed_share(&m, W[j]);
        if (fabsl((long double)got - exact) > 1e-10L * exact)
          fail_msg("E %llu, k %zu, W %llu: %.17g against %.17Lg", (unsigned long long)E[i], k, (unsigned long long)W[j], got, exact);
      }
  /* one by hand: E = 65,535, k = 1, W = 2 is (2E - 1) / E^2 */
  {
    gs_model m;
    memset(&m, 0, sizeof m);
    m.experts = 65535;
    m.experts_per_token = 1;
    ts_assert_close(gs_routed_share(&m, 2), 131069.0 / (65535.0 * 65535.0), 1e-12);
  }
}

/* The setting: 9 layers, 43 heads of 5,419 values, 2,097,151 tokens for each of
 * 1,048,576 chats. A token's cache is 2 x 9 x 43 x 5,419 x 2 = 8,388,612 bytes; a chat's,
 * x 2,097,151 = 17,592,186,044,412 (2^44 - 4); the chats', x 2^20, 2^64 - 4,194,304: it
 * fits, and wraps once the weights and working memory (or, read, the weights) are added. */
static const char WRAP[] = "{\"hidden_size\": 48302, \"intermediate_size\": 64, \"num_hidden_layers\": 9, "
                           "\"num_attention_heads\": 43, \"head_dim\": 5419, \"vocab_size\": 10}";

static void memory_that_would_wrap_past_2_to_the_64_is_refused(void **state) {
  gs_model m = ts_parse_ok(WRAP);
  gs_plan p = ts_plan(1, GS_SLICES, 1048576);
  gs_error err;
  (void)state;
  assert_int_equal(m.cache_full_bytes, UINT64_C(8388612));
  p.chat_tokens = 2097151;
  p.cache_per_chat = 1;
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_ERR_OVERFLOW);
  assert_string_equal(err.field, "words");
  /* the same without a cache per chat but reading every chat's cache: the read wraps */
  p.cache_per_chat = 0;
  p.read_cache = 1;
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_ERR_OVERFLOW);
  /* half the chats fit: 2^63 - 2,097,152 bytes of caches, and the rest is far below 2^63 */
  p.words = 524288;
  p.cache_per_chat = 1;
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_OK);
}

/* Hidden 2^40 and 262,144 words: a message of 2^40 x 2 x 2^18 = 2^59 bytes. Over 64 GPUs
 * each sends 126 / 64 of it, 126 x 2^53 = 1,134,907,106,097,364,992 bytes; 126 x 2^59
 * itself would wrap past 2^64. */
static void the_explained_bytes_sent_do_not_wrap(void **state) {
  gs_model m = ts_parse_ok("{\"hidden_size\": 1099511627776, \"intermediate_size\": 1, \"num_hidden_layers\": 1, "
                           "\"num_attention_heads\": 1, \"head_dim\": 1, \"vocab_size\": 1}");
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(64, GS_SLICES, 262144);
  gs_error err;
  char text[GS_EXPLAIN_CAP];
  (void)state;
  ts_gpu(&g);
  ts_link("fast", &l);
  assert_int_equal(gs_explain(&m, &g, &l, &p, text, sizeof text, &err), GS_OK);
  if (!strstr(text, "576,460,752,303,423,488 = 1,134,907,106,097,364,992 bytes at 600 GB/s")) fail_msg("%s", text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_routed_share_keeps_its_precision_up_to_the_most_experts),
      cmocka_unit_test(memory_that_would_wrap_past_2_to_the_64_is_refused),
      cmocka_unit_test(the_explained_bytes_sent_do_not_wrap),
  };
  return cmocka_run_group_tests_name("bounds", tests, NULL, NULL);
}
