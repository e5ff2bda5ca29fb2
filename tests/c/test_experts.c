/* Spread experts (--experts spread, csrc/core/experts.c) worked by hand for Mixtral-8x7B on
 * 8 GPUs and DeepSeek-V3 on 16, and what spread refuses. Every expected figure below is
 * worked from the models' configs (data/models/) in the comments, not read from a run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

/* A GPU and links with round figures, so that the sums can be done by hand. */
static gs_gpu round_gpu(double gib, double bandwidth, double flops) {
  gs_gpu g;
  memset(&g, 0, sizeof g);
  g.gib = gib;
  g.usable = 1;
  g.bandwidth = bandwidth;
  g.flops = flops;
  g.arch = GS_ARCH_HOPPER;
  return g;
}

static gs_link round_link(double bandwidth, double step_us, int kind) {
  gs_link l;
  memset(&l, 0, sizeof l);
  l.bandwidth = bandwidth;
  l.step_us = step_us;
  l.base_us = 6.6;
  l.kind = kind;
  return l;
}

static gs_plan spread_plan(uint64_t gpus, uint64_t words, uint64_t chat_tokens) {
  gs_plan p;
  memset(&p, 0, sizeof p);
  p.gpus = gpus;
  p.split = GS_SLICES;
  p.words = words;
  p.chat_tokens = chat_tokens;
  p.cache_per_chat = 1;
  p.read_cache = 1;
  p.experts = GS_EXPERTS_SPREAD;
  return p;
}

static gs_cost_result cost_ok(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p) {
  gs_cost_result c;
  gs_error err;
  memset(&err, 0, sizeof err);
  if (gs_cost(m, g, l, p, &c, &err) != GS_OK) fail_msg("%s: %s", err.field, err.what);
  return c;
}

/* Mixtral-8x7B (hidden 4096, 32 layers, 32 heads, 8 key/value heads of 128, vocabulary
 * 32,000, 8 experts of width 14,336, 2 a token), 16 chats of 4,096 tokens on 8 GPUs of
 * 2 TB/s and 1 PFLOP/s joined by a 400 GB/s link (0.6 us a step, 6.6 us base).
 *   routed experts: 32 layers x 8 x 3 matrices x 4,096 x 14,336 = 45,097,156,608 weights,
 *     90,194,313,216 bytes at 16 bits; one expert over all layers: / 8 = 11,274,289,152
 *   the rest: attention 32 x (2 x 4,096^2 + 2 x 1,024 x 4,096) = 1,342,177,280, routers
 *     32 x 8 x 4,096 = 1,048,576, norms 2 x 32 x 4,096 + 4,096 = 266,240, tables
 *     2 x 32,000 x 4,096 = 262,144,000: 1,605,636,096 weights, 3,211,272,192 bytes
 *   weights a GPU: 3,211,272,192 copied + 90,194,313,216 / 8 = 14,485,561,344
 *   cache: 2 x 32 layers x 8 heads x 128 x 2 bytes = 131,072 a token, x 4,096 tokens =
 *     536,870,912 a chat; each GPU serves ceil(16 / 8) = 2 chats: 1,073,741,824
 *   read: each GPU holds 1 expert; 16 words pick 1 x (1 - (6/8)^16) = 0.98998 of it
 *     expected, raised to one whole expert (the busiest GPU reads one): 11,274,289,152;
 *     + 3,211,272,192 copied + 1,073,741,824 cache = 15,559,303,168 bytes, at 2e12 B/s
 *     = 7.779651584 ms
 *   compute: active = 1,605,636,096 + 45,097,156,608 / 8 x 2 = 12,879,925,248;
 *     2 x 12,879,925,248 x 2 chats / 1e15 = 0.051519700992 ms (reading is longer)
 *   all-to-all: each GPU sends 2 chats x 2 experts x 4,096 x 2 bytes = 32,768 bytes,
 *     7/8 to others = 28,672 bytes at 400e9 = 0.07168 us, + 6.6 + 0.6 us = 7.27168 us;
 *     a dispatch and a combine in each of 32 layers: 64 x 7.27168 = 465.38752 us
 *   total: 7.779651584 + 0.46538752 = 8.245039104 ms */
static void mixtral_spread_on_8_gpus_adds_up_by_hand(void **state) {
  gs_model m = ts_builtin("mixtral-8x7b");
  gs_gpu g = round_gpu(80, 2e12, 1e15);
  gs_link l = round_link(400e9, 0.6, GS_LINK_NVLINK);
  gs_plan p = spread_plan(8, 16, 4096);
  gs_cost_result c;
  (void)state;
  assert_int_equal(m.routed_bytes, UINT64_C(90194313216));
  assert_int_equal(m.stored_bytes - m.routed_bytes, UINT64_C(3211272192));
  assert_int_equal(m.active_params, UINT64_C(12879925248));
  assert_int_equal(m.moe_layers, 32);
  c = cost_ok(&m, &g, &l, &p);
  assert_int_equal(c.memory.weights, UINT64_C(14485561344));
  assert_int_equal(c.memory.cache, UINT64_C(1073741824));
  assert_int_equal(c.read_bytes, UINT64_C(15559303168));
  ts_assert_close(c.time.read, 7.779651584e-3, 1e-12);
  ts_assert_close(c.compute, 0.051519700992e-3, 1e-12);
  ts_assert_close(c.swap, 7.27168e-6, 1e-12);
  ts_assert_close(c.time.transfer, 465.38752e-6, 1e-12);
  ts_assert_close(c.time.total, 8.245039104e-3, 1e-12);
  ts_assert_close(c.time.total_words_per_s, 16 / 8.245039104e-3, 1e-12);
}

/* DeepSeek-V3 (hidden 7,168, 61 layers of which the first 3 are dense, 256 experts of
 * width 2,048, 8 a token, weights in FP8 with a 32-bit scale per 128 x 128 block; an MLA
 * cache of 512 + 64 numbers a layer), 64 chats of 8,192 tokens on 16 GPUs in 2 servers of
 * 8: 141 GiB at 4.8 TB/s and 989.5 TFLOP/s, 450 GB/s within a server (0.6 us a step),
 * 50 GB/s between (2.7 us a step), 6.6 us base.
 *   one expert in one layer: 3 matrices of 2,048 x 7,168 = 14,680,064 bytes each at 8 bits,
 *     + 16 x 56 blocks x 4 bytes = 3,584 of scales: 44,050,944 bytes; 58 layers x 256:
 *     654,068,416,512 routed bytes; one expert over the layers: 2,554,954,752
 *   the rest: 673,150,611,808 stored - 654,068,416,512 = 19,082,195,296 bytes
 *   weights a GPU: 19,082,195,296 + 654,068,416,512 / 16 = 59,961,471,328
 *   cache: 61 x 576 x 2 bytes = 70,272 a token, x 8,192 = 575,668,224 a chat; each GPU
 *     serves 64 / 16 = 4 chats: 2,302,672,896
 *   read: each GPU holds 16 experts; 64 words pick 16 x (1 - (248/256)^64) = 13.902655
 *     of them expected: x 2,554,954,752 = 35,520,655,684.92, rounded up 35,520,655,685;
 *     + 19,082,195,296 + 2,302,672,896 = 56,905,523,877 bytes at 4.8e12 = 11.855317474 ms
 *   compute: 2 x 37,552,297,472 active x 4 chats / 989.5e12 = 0.303606245 ms
 *   all-to-all: each GPU sends 4 chats x 8 experts x 7,168 x 2 = 458,752 bytes, 7/16 in its
 *     server (200,704 at 450e9 = 0.446 us) and 8/16 to the other (229,376 at 50e9 =
 *     4.58752 us, the longer) + 6.6 + 2.7 us = 13.88752 us; 2 x 58 layers: 1.61095232 ms
 *   total: 11.855317474 + 1.61095232 = 13.466269794 ms */
static void deepseek_v3_spread_on_16_gpus_adds_up_by_hand(void **state) {
  gs_model m = ts_builtin("deepseek-v3");
  gs_gpu g = round_gpu(141, 4.8e12, 989.5e12);
  gs_link l = round_link(450e9, 0.6, GS_LINK_NVLINK);
  gs_plan p = spread_plan(16, 64, 8192);
  gs_cost_result c;
  (void)state;
  p.per_server = 8;
  p.between = round_link(50e9, 2.7, GS_LINK_NET);
  assert_int_equal(m.routed_bytes, UINT64_C(654068416512));
  assert_int_equal(m.stored_bytes, UINT64_C(673150611808));
  assert_int_equal(m.moe_layers, 58);
  assert_int_equal(m.active_params, UINT64_C(37552297472));
  c = cost_ok(&m, &g, &l, &p);
  assert_int_equal(c.servers, 2);
  assert_int_equal(c.memory.weights, UINT64_C(59961471328));
  assert_int_equal(c.memory.cache, UINT64_C(2302672896));
  assert_int_equal(c.read_bytes, UINT64_C(56905523877));
  ts_assert_close(c.time.read, 11.855317474375e-3, 1e-12);
  ts_assert_close(c.compute, 0.3036062453521981e-3, 1e-12);
  ts_assert_close(c.swap, 13.88752e-6, 1e-12);
  ts_assert_close(c.time.transfer, 1.61095232e-3, 1e-12);
  ts_assert_close(c.time.total, 13.466269794375e-3, 1e-12);
}

/* The sums --explain prints for the Mixtral case above, with its numbers put in. */
static void the_sums_show_the_hand_worked_mixtral_figures(void **state) {
  gs_model m = ts_builtin("mixtral-8x7b");
  gs_gpu g = round_gpu(80, 2e12, 1e15);
  gs_link l = round_link(400e9, 0.6, GS_LINK_NVLINK);
  gs_plan p = spread_plan(8, 16, 4096);
  static char buf[GS_EXPLAIN_CAP];
  gs_error err;
  (void)state;
  memset(&err, 0, sizeof err);
  if (ts_explain(&m, &g, &l, &p, buf, sizeof buf, &err) != GS_OK) fail_msg("%s: %s", err.field, err.what);
  assert_non_null(strstr(buf, "8 / 8 = 1 whole expert a GPU"));
  assert_non_null(strstr(buf, "weights: 3,211,272,192 copied + 90,194,313,216 routed / 8 = 14,485,561,344"));
  assert_non_null(strstr(buf, "ceil(16 / 8) = 2 chats"));
  assert_non_null(strstr(buf, "= 15,559,303,168 bytes at 2,000 GB/s = 7.78 ms"));
  assert_non_null(strstr(buf, "2 chats x 2 experts x 4,096 x 2 bytes = 32,768 bytes, 28,672 within its server"));
  assert_non_null(strstr(buf, "= 7.27 us"));
  assert_non_null(strstr(buf, "2 x 32 x 7.27 us = 0.47 ms"));
  assert_non_null(strstr(buf, "total: 7.78 + 0.47 = 8.25 ms a word"));
}

/* On one GPU spread holds, reads and computes what slices do, and sends nothing. */
static void spread_on_one_gpu_costs_what_slices_do(void **state) {
  gs_model m = ts_builtin("mixtral-8x7b");
  gs_gpu g = round_gpu(141, 2e12, 1e15);
  gs_link l = round_link(400e9, 0.6, GS_LINK_NVLINK);
  gs_plan p = spread_plan(1, 7, 4096);
  gs_cost_result spread, sliced;
  (void)state;
  spread = cost_ok(&m, &g, &l, &p);
  p.experts = GS_EXPERTS_SLICES;
  sliced = cost_ok(&m, &g, &l, &p);
  assert_int_equal(spread.memory.total, sliced.memory.total);
  assert_int_equal(spread.read_bytes, sliced.read_bytes);
  assert_true(spread.time.total == sliced.time.total);
  assert_true(spread.time.transfer == 0);
}

static void refused(const gs_model *m, const gs_plan *p, int code, const char *words) {
  gs_error err;
  gs_gpu g = round_gpu(80, 2e12, 1e15);
  gs_link l = round_link(400e9, 0.6, GS_LINK_NVLINK);
  gs_cost_result c;
  memset(&err, 0, sizeof err);
  assert_int_equal(gs_cost(m, &g, &l, p, &c, &err), code);
  assert_string_equal(err.field, "experts");
  assert_non_null(strstr(err.what, words));
}

static void spread_refuses_by_name_what_it_cannot_price(void **state) {
  gs_model mixtral = ts_builtin("mixtral-8x7b"), dense = ts_builtin("70b");
  gs_plan p = spread_plan(3, 4, 4096);
  (void)state;
  refused(&mixtral, &p, GS_ERR_SHAPE, "8 experts do not spread evenly over 3 GPUs");
  p = spread_plan(2, 4, 4096);
  refused(&dense, &p, GS_ERR_SHAPE, "needs a mixture of experts");
  p.split = GS_GROUPS;
  refused(&mixtral, &p, GS_ERR_UNSUPPORTED, "--split slices, or slices-groups");
  /* a stage of spread experts a server: the served step's (serve) only */
  p = spread_plan(4, 4, 4096);
  p.split = GS_SLICES_GROUPS, p.per_server = 2, p.between = round_link(400e9, 0.6, GS_LINK_NVLINK);
  refused(&mixtral, &p, GS_ERR_UNSUPPORTED, "spread experts in groups of layers are priced by serve only");
  p = spread_plan(2, 4, 4096);
  p.split = GS_SLICES;
  p.overlap = 1;
  refused(&mixtral, &p, GS_ERR_UNSUPPORTED, "no all-reduce");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mixtral_spread_on_8_gpus_adds_up_by_hand),
      cmocka_unit_test(deepseek_v3_spread_on_16_gpus_adds_up_by_hand),
      cmocka_unit_test(the_sums_show_the_hand_worked_mixtral_figures),
      cmocka_unit_test(spread_on_one_gpu_costs_what_slices_do),
      cmocka_unit_test(spread_refuses_by_name_what_it_cannot_price),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
