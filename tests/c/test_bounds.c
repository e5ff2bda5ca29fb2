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
  assert_int_equal(ts_explain(&m, &g, &l, &p, text, sizeof text, &err), GS_OK);
  if (!strstr(text, "576,460,752,303,423,488 = 1,134,907,106,097,364,992 bytes at 600 GB/s")) fail_msg("%s", text);
}

/* The one escaping: each kind of character the issue found passing, as text and as JSON. */
static void escape(const char *in, int style, const char *want) {
  char out[256];
  gs_escape(out, sizeof out, in, strlen(in), style);
  assert_string_equal(out, want);
}

static void text_from_the_user_is_escaped_the_same_everywhere(void **state) {
  (void)state;
  escape("a\x1b]0;t\x07\x1b[2Jb", GS_ESCAPE_TEXT, "a\\x1b]0;t\\x07\\x1b[2Jb"); /* OSC title, clear screen */
  escape("a\nb\x7f", GS_ESCAPE_TEXT, "a\\x0ab\\x7f");
  escape("a\xc2\x85\xc2\x9b" "b", GS_ESCAPE_TEXT, "a\\u0085\\u009bb");      /* C1: NEL and CSI */
  escape("a\xe2\x80\xa8\xe2\x80\xa9" "b", GS_ESCAPE_TEXT, "a\\u2028\\u2029b"); /* line and paragraph separators */
  escape("\xe2\x80\xaa\xe2\x80\xae\xe2\x81\xa6\xe2\x81\xa9", GS_ESCAPE_TEXT, "\\u202a\\u202e\\u2066\\u2069"); /* bidi */
  escape("\xe2\x80\xaf\xe2\x81\xaa", GS_ESCAPE_TEXT, "\xe2\x80\xaf\xe2\x81\xaa"); /* U+202F and U+206A are shown */
  escape("caf\xc3\xa9 \xff", GS_ESCAPE_TEXT, "caf\xc3\xa9 \\xff");             /* UTF-8 kept, a bad byte escaped */
  escape("q\"\\\x1b\xc2\x85\xe2\x80\xa8\xff", GS_ESCAPE_JSON, "q\\\"\\\\\\u001b\\u0085\\u2028\\ufffd");
}

/* A cut falls between whole escapes, never inside one. */
static void an_escape_is_never_cut_in_two(void **state) {
  char out[6];
  (void)state;
  assert_int_equal(gs_escape(out, sizeof out, "ab\x1b", 3, GS_ESCAPE_TEXT), 2);
  assert_string_equal(out, "ab");
}

/* A library message quotes a log's field escaped: the explorer shows it on one line. */
static void a_message_quoting_a_field_is_escaped(void **state) {
  static const char LOG[] = "# Using devices\n#  Rank  0 Group  0 on h device 0\n#  Rank  1 Group  0 on h device 1\n#\n"
                            "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
                            "1024 256 fl\xe2\x80\xa8oat sum -1 20.00 0.05 0.05 0 20.00 0.05 0.05 0\n";
  gs_measured m;
  gs_error err;
  (void)state;
  assert_int_equal(gs_nccl_log_parse(LOG, sizeof LOG - 1, &m, &err), GS_ERR_UNSUPPORTED);
  if (!strstr(err.what, "type 'fl\\u2028oat'")) fail_msg("%s", err.what);
}

/* A log of 4 GPUs whose rows are row(bytes, count, redop, root, algbw, busbw): sizes from
 * 1 KiB by doubling, each taking 20 us + bytes / 40 GB/s. */
static size_t log_of(char *buf, size_t cap, const char *layout) {
  size_t at = (size_t)snprintf(buf, cap,
                               "# Using devices\n#  Rank  0 Group  0 on h device 0\n#  Rank  1 Group  0 on h device 1\n"
                               "#  Rank  2 Group  0 on h device 2\n#  Rank  3 Group  0 on h device 3\n#\n"
                               "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n");
  uint64_t bytes;
  for (bytes = 1024; bytes <= 1048576; bytes *= 2) {
    double us = 20 + (double)bytes / 40e9 * 1e6, algbw = (double)bytes / us / 1e3;
    uint64_t count = bytes / 4;
    const char *redop = "sum", *root = "-1";
    double bus = 1.5; /* 2(n-1)/n */
    if (strcmp(layout, "reduce_scatter") == 0) count = bytes / 16, bus = 0.75;
    else if (strcmp(layout, "all_gather") == 0) count = bytes / 16, redop = "none", bus = 0.75;
    else if (strcmp(layout, "alltoall") == 0) count = bytes / 16, redop = "none", bus = 0.75;
    else if (strcmp(layout, "broadcast") == 0) redop = "none", root = "0", bus = 1;
    else if (strcmp(layout, "reduce") == 0) root = "0", bus = 1;
    else if (strcmp(layout, "sendrecv") == 0) bus = 1;
    at += (size_t)snprintf(buf + at, cap - at, "%llu %llu float %s %s %.2f %.2f %.2f 0 %.2f %.2f %.2f 0\n", (unsigned long long)bytes,
                           (unsigned long long)count, redop, root, us, algbw, algbw * bus, us, algbw, algbw * bus);
  }
  return at;
}

static void only_an_all_reduce_log_is_read(void **state) {
  static const char *const CASES[][2] = {{"reduce_scatter", "reduce_scatter_perf"}, {"all_gather", "'none'"}, {"alltoall", "'none'"},
                                         {"broadcast", "'none'"}, {"reduce", "reduce_perf"}, {"sendrecv", "not an all-reduce"}};
  char text[4096];
  gs_measured m;
  gs_error err;
  size_t i;
  (void)state;
  assert_int_equal(gs_nccl_log_parse(text, log_of(text, sizeof text, "all_reduce"), &m, &err), GS_OK);
  assert_int_equal(m.gpus, 4);
  assert_int_equal(m.count, 11);
  for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    int rc = gs_nccl_log_parse(text, log_of(text, sizeof text, CASES[i][0]), &m, &err);
    if (rc != GS_ERR_UNSUPPORTED || !strstr(err.what, CASES[i][1])) fail_msg("%s: status %d, %s", CASES[i][0], rc, err.what);
  }
}

/* Rates in the largest unit that shows them as 1 or more; the catalogue's as before. */
static void rates_print_in_a_unit_that_shows_them(void **state) {
  char buf[GS_FIGURE_CAP];
  (void)state;
  assert_string_equal(gs_bytes_rate(buf, sizeof buf, 2.039e12), "2,039 GB/s");
  assert_string_equal(gs_bytes_rate(buf, sizeof buf, 1e9), "1 GB/s");
  assert_string_equal(gs_bytes_rate(buf, sizeof buf, 999e6), "999 MB/s");
  assert_string_equal(gs_bytes_rate(buf, sizeof buf, 1e6), "1 MB/s");
  assert_string_equal(gs_bytes_rate(buf, sizeof buf, 1e16), "10,000,000 GB/s");
  assert_string_equal(gs_flops_rate(buf, sizeof buf, 312e12), "312 TFLOP/s");
  assert_string_equal(gs_flops_rate(buf, sizeof buf, 5e11), "500 GFLOP/s");
  assert_string_equal(gs_flops_rate(buf, sizeof buf, 1e6), "1 MFLOP/s");
  assert_string_equal(gs_flops_rate(buf, sizeof buf, 1e19), "10,000,000 TFLOP/s");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_routed_share_keeps_its_precision_up_to_the_most_experts),
      cmocka_unit_test(memory_that_would_wrap_past_2_to_the_64_is_refused),
      cmocka_unit_test(the_explained_bytes_sent_do_not_wrap),
      cmocka_unit_test(text_from_the_user_is_escaped_the_same_everywhere),
      cmocka_unit_test(an_escape_is_never_cut_in_two),
      cmocka_unit_test(a_message_quoting_a_field_is_escaped),
      cmocka_unit_test(only_an_all_reduce_log_is_read),
      cmocka_unit_test(rates_print_in_a_unit_that_shows_them),
  };
  return cmocka_run_group_tests_name("bounds", tests, NULL, NULL);
}
