/* Measured all-reduces first (issue 30, item 5): under real rules a catalogue GPU on its own
 * link that NVIDIA measured (data/allreduce.json) prices its all-reduces on one server from
 * the table, and says so; a GPU with none keeps NCCL's rules. The measured figures are read
 * here from the csv itself, with the library's reader, not copied. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "read/efficiency.h"
#include "test_support.h"

/* One word of the 70B model: 8,192 numbers x 2 bytes. */
#define ONE_WORD_70B 16384

/* The csv's time for `gpus` GPUs at `bytes`, microseconds, from the 16-bit rows of the first
 * sweep of source_dir (the rows data/allreduce.json names). */
static double measured_us(const char *path, const char *source_dir, uint64_t gpus, uint64_t bytes) {
  static char text[GS_MEASURED_MAX_BYTES];
  static gs_measured m;
  gs_error err;
  size_t len, i;
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  assert_int_equal(gs_measured_csv_parse(text, len, source_dir, gpus, &m, &err), GS_OK);
  for (i = 0; i < m.count; i++)
    if (m.rows[i].bytes == bytes) return m.rows[i].time_us;
  fail_msg("%s has no row of %llu bytes", path, (unsigned long long)bytes);
  return -1;
}

/* 70B, one word at once, on n GPUs of gpu under real rules: the setting and one all-reduce. */
static double priced_us(const char *gpu, uint64_t n, unsigned link_typed, gs_setting *s, int *protocol) {
  static gs_priced out;
  gs_request q;
  gs_error err;
  memset(&q, 0, sizeof q);
  q.model_key = "70b";
  q.gpu_key = gpu;
  q.assume = GS_ASSUME_REAL;
  q.words = 1;
  if (link_typed) {
    q.link_typed = link_typed;
    q.link.bandwidth = 4e11;
  }
  assert_int_equal(gs_resolve(&q, s, &err), GS_OK);
  assert_int_equal(gs_price(s, n, &out, &err), GS_OK);
  *protocol = out.cost.protocol;
  return out.cost.swap * 1e6;
}

static void within_15_percent(double priced, double measured) {
  assert_true(measured > 0);
  assert_true(priced >= measured * 0.85 && priced <= measured * 1.15);
}

static void h100_tp8_and_b200_tp2_price_one_word_as_measured(void **state) {
  static gs_setting s;
  int protocol;
  double got;
  (void)state;
  got = priced_us("h100-sxm", 8, 0, &s, &protocol);
  within_15_percent(got, measured_us("tests/measured/h100_sxm_nccl.csv", "nccl/2.27.3", 8, ONE_WORD_70B));
  assert_int_equal(protocol, GS_PROTO_MEASURED);
  assert_non_null(strstr(s.assumptions, "all-reduces as measured on one server (tests/measured/h100_sxm_nccl.csv"));
  got = priced_us("b200", 2, 0, &s, &protocol);
  within_15_percent(got, measured_us("tests/measured/b200_sxm_nccl.csv", "nccl/2.27.3", 2, ONE_WORD_70B));
  assert_int_equal(protocol, GS_PROTO_MEASURED);
  assert_non_null(strstr(s.assumptions, "tests/measured/b200_sxm_nccl.csv"));
}

static void a_gpu_with_no_table_keeps_nccls_rules_and_says_so(void **state) {
  static gs_setting s;
  int protocol;
  (void)state;
  /* the H100 PCIe: no measured table of its own */
  assert_true(priced_us("h100-pcie", 8, 0, &s, &protocol) > 0);
  assert_null(s.plan.measured);
  assert_true(protocol == GS_PROTO_LL || protocol == GS_PROTO_LL128 || protocol == GS_PROTO_SIMPLE);
  assert_non_null(strstr(s.assumptions, "NCCL's rules at the one-way ring bandwidth"));
  assert_null(strstr(s.assumptions, "measured"));
  /* a typed link bandwidth is another link than the one measured */
  priced_us("h100-sxm", 8, GS_TYPED_LINK_BW, &s, &protocol);
  assert_null(s.plan.measured);
  assert_true(protocol != GS_PROTO_MEASURED);
}

/* Between two measured sizes the time lies between theirs; between two counts, between
 * theirs; across servers, past the table's reach, NCCL's rules price it. */
static void between_rows_a_straight_line_beyond_them_nccl(void **state) {
  const gs_allreduce_table *t = gs_allreduce_measured("h100-sxm", "nvlink4");
  gs_gpu g;
  gs_link l, net;
  gs_hardware_text h;
  gs_ring r;
  gs_error err;
  int protocol;
  double lo, hi, mid, four, six;
  (void)state;
  assert_non_null(t);
  assert_int_equal(gs_builtin_gpu("h100-sxm", &g, &h, &err), GS_OK);
  assert_int_equal(gs_builtin_link("nvlink4", &l, NULL, &err), GS_OK);
  assert_int_equal(gs_builtin_link("ib-ndr", &net, NULL, &err), GS_OK);
  memset(&r, 0, sizeof r);
  r.gpus = 8;
  r.servers = 1;
  r.intra = &l;
  r.between = &net;
  r.arch = g.arch;
  r.nccl = GS_NCCL_AUTO;
  r.measured = t;
  r.extra_us = 50; /* a fitted start-up is not added to a measured time */
  lo = measured_us("tests/measured/h100_sxm_nccl.csv", "nccl/2.27.3", 8, 16384);
  hi = measured_us("tests/measured/h100_sxm_nccl.csv", "nccl/2.27.3", 8, 32768);
  mid = gs_ring_allreduce(24576, &r, &protocol) * 1e6;
  assert_int_equal(protocol, GS_PROTO_MEASURED);
  assert_true(mid >= (lo < hi ? lo : hi) && mid <= (lo < hi ? hi : lo));
  assert_true(gs_ring_allreduce(16384, &r, &protocol) * 1e6 == lo);
  r.gpus = 6;
  four = measured_us("tests/measured/h100_sxm_nccl.csv", "nccl/2.27.3", 4, 16384);
  six = gs_ring_allreduce(16384, &r, &protocol) * 1e6;
  assert_true(six > four && six < lo);
  r.gpus = 16;
  r.servers = 2;
  gs_ring_allreduce(16384, &r, &protocol);
  assert_true(protocol != GS_PROTO_MEASURED);
}

/* Issue 30, item 6: 4-bit weights on a GPU with an FP4 peak compute at it under real rules;
 * on one without, at the 16-bit peak. The peaks are the catalogue's own. */
static void four_bit_weights_use_the_fp4_peak_where_the_gpu_has_one(void **state) {
  static gs_setting s;
  gs_request q;
  gs_gpu g;
  gs_hardware_text h;
  gs_error err;
  (void)state;
  memset(&q, 0, sizeof q);
  q.model_key = "70b";
  q.gpu_key = "b300";
  q.bits = 4;
  q.assume = GS_ASSUME_REAL;
  assert_int_equal(gs_builtin_gpu("b300", &g, &h, &err), GS_OK);
  assert_true(g.flops_fp4 > g.flops);
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.gpu.flops == g.flops_fp4);
  assert_non_null(strstr(s.assumptions, "4-bit weights at the FP4 peak"));
  q.gpu_key = "h100-sxm";
  assert_int_equal(gs_builtin_gpu("h100-sxm", &g, &h, &err), GS_OK);
  assert_true(g.flops_fp4 == 0);
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.gpu.flops == g.flops);
  assert_null(strstr(s.assumptions, "FP4"));
}

/* gpt-oss's routed experts, stored MXFP4 and served as stored, multiply with MXFP8
 * activations on Blackwell and BF16 on Hopper, every other weight at 16 bits (TensorRT-LLM's
 * GPT-OSS page; csrc/core/mxfp4_peak.c): on B200 the one peak is the blend of the FP8 and
 * 16-bit peaks by the routed experts' share of a token's operations, worked here from the
 * model's counts; on H100 it stays the 16-bit one; --bits 4 is W4A4 at the FP4 peak, which
 * B200 has (its HGX sheet); a typed FLOP/s is kept. */
static void mxfp4_experts_as_stored_blend_the_fp8_and_16_bit_peaks_on_blackwell(void **state) {
  static gs_setting s;
  gs_request q;
  gs_gpu g;
  gs_hardware_text h;
  gs_error err;
  double routed, blend;
  (void)state;
  memset(&q, 0, sizeof q);
  q.model_key = "gpt-oss-20b";
  q.gpu_key = "b200";
  q.assume = GS_ASSUME_REAL;
  assert_int_equal(gs_builtin_gpu("b200", &g, &h, &err), GS_OK);
  assert_true(g.flops_fp4 == 9e15 && g.flops_fp8 == 4.5e15 && g.flops == 2.25e15);
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_int_equal(s.model.routed_mxfp4, 1);
  /* 24 layers of 32 experts, 4 a token: each expert 3 x 2880 x 2880 weights plus biases */
  assert_true(s.model.experts == 32 && s.model.experts_per_token == 4);
  routed = (double)s.model.routed_params / 32 * 4 / (double)(s.model.active_params - s.model.table_params);
  assert_true(routed > 0.5 && routed < 0.95);
  blend = 1 / (routed / 4.5e15 + (1 - routed) / 2.25e15);
  assert_true(s.gpu.flops > 2.25e15 && s.gpu.flops < 4.5e15);
  assert_true(s.gpu.flops > blend * (1 - 1e-12) && s.gpu.flops < blend * (1 + 1e-12));
  assert_non_null(strstr(s.assumptions, "MXFP4 experts at the FP8 peak and the rest at 16 bits"));
  q.gpu_key = "h100-sxm";
  assert_int_equal(gs_builtin_gpu("h100-sxm", &g, &h, &err), GS_OK);
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.gpu.flops == g.flops);
  assert_null(strstr(s.assumptions, "MXFP4"));
  q.gpu_key = "b200";
  q.bits = 4;
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_int_equal(s.model.routed_mxfp4, 0);
  assert_true(s.gpu.flops == 9e15);
  q.bits = 0;
  q.gpu_typed = GS_TYPED_FLOPS;
  q.gpu.flops = 1e15;
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.gpu.flops == 1e15);
  assert_null(strstr(s.assumptions, "MXFP4"));
}

/* A generation none of whose fitted decode runs takes an all-reduce does not inherit a
 * start-up fitted on another's (issue 30, item 5): the shared runs hold one B200 run (m261,
 * on one GPU), so blackwell has runs but none that tells a start-up, and no figure in
 * data/efficiency.json; it takes every engine's pooled figures but no all-reduce start-up
 * (the pooled one is not 0, so inheriting it would show), and says so; an A100's generation,
 * ampere, has runs on several GPUs and keeps its own start-up. Across two servers of 8, where
 * no table reaches, B200's all-reduce is NCCL's rules alone. */
static void a_generation_without_runs_takes_no_start_up_fitted_on_another(void **state) {
  static gs_setting s;
  gs_efficiency pooled, ampere, blackwell;
  gs_request q;
  gs_error err;
  int protocol;
  (void)state;
  assert_non_null(gs_efficiency_pick(&GS_EFFICIENCY_TABLE, "", "all", &pooled));
  assert_true(pooled.allreduce_us > 0);
  assert_non_null(gs_efficiency_pick(&GS_EFFICIENCY_TABLE, "", "ampere", &ampere));
  assert_true(ampere.allreduce_us > 0);
  assert_non_null(gs_efficiency_pick(&GS_EFFICIENCY_TABLE, "", "blackwell", &blackwell));
  assert_true(blackwell.allreduce_us == 0);
  assert_true(blackwell.bandwidth_share == pooled.bandwidth_share && blackwell.step_us == pooled.step_us);
  assert_true(GS_EFFICIENCY_TABLE.startup_runs[gs_generation_index("blackwell")] == 0);
  assert_true(GS_EFFICIENCY_TABLE.startup_runs[gs_generation_index("ampere")] > 0);
  assert_int_equal(gs_efficiency_own_startup(&GS_EFFICIENCY_TABLE, "b200"), 0);
  assert_int_equal(gs_efficiency_own_startup(&GS_EFFICIENCY_TABLE, "a100-80gb-sxm"), 1);
  priced_us("b200", 16, 0, &s, &protocol);
  assert_true(s.plan.efficiency.allreduce_us == 0);
  assert_int_equal(s.allreduce_unfitted, 1);
  assert_non_null(strstr(s.assumptions, "no all-reduce start-up fitted to other GPUs' runs (none of the fit's decode runs on blackwell takes an all-reduce)"));
  assert_int_not_equal(protocol, GS_PROTO_MEASURED);
  priced_us("a100-80gb-sxm", 16, 0, &s, &protocol);
  assert_true(s.plan.efficiency.allreduce_us == ampere.allreduce_us);
  assert_int_equal(s.allreduce_unfitted, 0);
  assert_null(strstr(s.assumptions, "no all-reduce start-up fitted"));
  /* a typed start-up is the typed one, and nothing is said of the fit's */
  memset(&q, 0, sizeof q);
  q.model_key = "70b";
  q.gpu_key = "b200";
  q.assume = GS_ASSUME_REAL;
  q.efficiency.allreduce_us = 5;
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.plan.efficiency.allreduce_us == 5);
  assert_null(strstr(s.assumptions, "no all-reduce start-up fitted"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(h100_tp8_and_b200_tp2_price_one_word_as_measured),
      cmocka_unit_test(a_gpu_with_no_table_keeps_nccls_rules_and_says_so),
      cmocka_unit_test(between_rows_a_straight_line_beyond_them_nccl),
      cmocka_unit_test(four_bit_weights_use_the_fp4_peak_where_the_gpu_has_one),
      cmocka_unit_test(mxfp4_experts_as_stored_blend_the_fp8_and_16_bit_peaks_on_blackwell),
      cmocka_unit_test(a_generation_without_runs_takes_no_start_up_fitted_on_another),
  };
  return cmocka_run_group_tests_name("allreduce", tests, NULL, NULL);
}
