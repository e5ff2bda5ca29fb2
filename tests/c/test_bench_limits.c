/* The limits trtllm-bench sets (csrc/serve/bench_limits.c, from TensorRT-LLM's
 * tensorrt_llm/bench/build/tuning.py and benchmark/utils/general.py). Every expected figure
 * is worked by hand below from that source's arithmetic, on a made-up model whose numbers
 * come out round; none is read from a run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"
#include "internal.h"

/* 2^30 weights at 16 bits: an engine of 2 GiB. 10 layers of 1 key/value head of 128: a
 * token's cache 2 x 10 x 1 x 128 x 2 bytes = 5,120 bytes. A GPU of 12 GiB at a share of
 * 0.5 leaves (12 - 2) x 0.5 = 5 GiB of cache: 5 x 2^30 / 5,120 = 1,048,576 tokens. */
static gs_model made_up(void) {
  gs_model m;
  memset(&m, 0, sizeof m);
  strcpy(m.type, "llama");
  m.layers = 10, m.kv_heads = 1, m.head_dim = 128, m.params = (uint64_t)1 << 30;
  return m;
}

static gs_gpu twelve_gib(void) {
  gs_gpu g;
  memset(&g, 0, sizeof g);
  g.gib = 12;
  return g;
}

typedef struct {
  uint64_t seqs, tokens;
  int rc;
  gs_error err;
} limits;

static limits bench(const gs_model *m, uint64_t gpus, int split, uint64_t isl, uint64_t osl, uint64_t seqs_given) {
  gs_gpu g = twelve_gib();
  gs_plan p;
  gs_scheduler e;
  gs_load l;
  limits out;
  memset(&p, 0, sizeof p);
  memset(&e, 0, sizeof e);
  memset(&l, 0, sizeof l);
  memset(&out, 0, sizeof out);
  p.gpus = gpus, p.split = split, p.words = 1;
  e.kind = GS_ENGINE_TRTLLM, e.memory_share = 0.5, e.weight_bits = 16, e.bench_limits = 1;
  l.prompt_tokens = isl, l.output_tokens = osl, l.requests = 1;
  out.seqs = seqs_given;
  out.rc = gs_bench_limits(m, &g, &p, &e, &l, &out.seqs, &out.tokens, &out.err);
  return out;
}

/* 3,072 + 1,024 tokens a request: 1,048,576 / 4,096 = 256 requests, raw_bs 256, rounded by
 * 128 to 256; raw_tokens 256 x (1 + 3) = 1,024, raised to 2,048; with chunked prefill off the
 * token cap is max(2,048, 3,072 + 256) = 3,328. */
static void a_batch_of_256_rounds_by_128(void **state) {
  gs_model m = made_up();
  limits r = bench(&m, 1, GS_SLICES, 3072, 1024, 0);
  (void)state;
  assert_int_equal(r.rc, GS_OK);
  assert_int_equal(r.seqs, 256);
  assert_int_equal(r.tokens, 3328);
}

/* 7,168 + 1,024: 128 requests, rounded by 32 to 128 (at least 64); raw_tokens 128 x 8 =
 * 1,024, raised to 2,048; the cap max(2,048, 7,168 + 128) = 7,296: a whole prompt beside a
 * full batch. */
static void the_longest_prompt_fits_beside_a_full_batch(void **state) {
  gs_model m = made_up();
  limits r = bench(&m, 1, GS_SLICES, 7168, 1024, 0);
  (void)state;
  assert_int_equal(r.rc, GS_OK);
  assert_int_equal(r.seqs, 128);
  assert_int_equal(r.tokens, 7296);
}

/* 2,048 + 128: 1,048,576 / 2,176 = 481.88 requests, rounded by 128 to 512; raw_tokens
 * 481.88 x 17 = 8,192 exactly, which is not under 8,192: by 1,024, ceil(8) x 1,024 = 8,192. */
static void tokens_at_8192_round_by_1024(void **state) {
  gs_model m = made_up();
  limits r = bench(&m, 1, GS_SLICES, 2048, 128, 0);
  (void)state;
  assert_int_equal(r.rc, GS_OK);
  assert_int_equal(r.seqs, 512);
  assert_int_equal(r.tokens, 8192);
}

/* Two GPUs in groups: pp 2, tp 1. The memory (2 x 12 - 2) x 0.5 = 11 GiB holds
 * 11 x 2^30 / 5,120 / 4,096 = 563.2 requests; raw_bs 563.2 / 2 = 281.6, by 128 to 384. */
static void a_pipeline_divides_the_batch_by_its_stages(void **state) {
  gs_model m = made_up();
  limits r = bench(&m, 2, GS_GROUPS, 3072, 1024, 0);
  (void)state;
  assert_int_equal(r.rc, GS_OK);
  assert_int_equal(r.seqs, 384);
  assert_int_equal(r.tokens, 3456);
}

/* A cap given stays, and the token cap holds the prompt beside it: max(2,048, 3,072 + 100). */
static void a_given_cap_stays(void **state) {
  gs_model m = made_up();
  limits r = bench(&m, 1, GS_SLICES, 3072, 1024, 100);
  (void)state;
  assert_int_equal(r.rc, GS_OK);
  assert_int_equal(r.seqs, 100);
  assert_int_equal(r.tokens, 3172);
}

/* gpt-oss's MXFP4 is a quantization the heuristic does not tune: the defaults, 2,048
 * sequences and max(8,192, 8,192 + 2,048) tokens. */
static void gpt_oss_takes_the_defaults(void **state) {
  gs_model m = made_up();
  limits r;
  (void)state;
  strcpy(m.type, "gpt_oss");
  r = bench(&m, 1, GS_SLICES, 8192, 1024, 0);
  assert_int_equal(r.rc, GS_OK);
  assert_int_equal(r.seqs, 2048);
  assert_int_equal(r.tokens, 10240);
}

/* Weights of 24 GiB on a 12 GiB GPU: trtllm-bench's estimate holds no request; refused. */
static void no_room_is_refused(void **state) {
  gs_model m = made_up();
  limits r;
  (void)state;
  m.params = (uint64_t)12 << 30;
  r = bench(&m, 1, GS_SLICES, 1024, 1024, 0);
  assert_int_equal(r.rc, GS_ERR_NONE_FITS);
  assert_string_equal(r.err.field, "limits");
}

/* The library refuses trtllm-bench's limits for another engine by name (the command line
 * refuses the flags before). */
static void another_engine_is_refused(void **state) {
  gs_model m = ts_builtin("8b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p = ts_plan(1, GS_SLICES, 1);
  gs_scheduler e = ts_bare_vllm();
  gs_load load = ts_load(GS_LOAD_BATCH, 4, 128, 8);
  gs_serve_space sp = ts_space(4);
  gs_serve_result r;
  gs_error err;
  (void)state;
  ts_link("fast", &l);
  e.bench_limits = 1;
  assert_int_equal(gs_serve_run(&m, &g, &l, &p, 1, &e, &load, &sp, &r, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "limits");
  ts_space_free(&sp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_batch_of_256_rounds_by_128),
      cmocka_unit_test(the_longest_prompt_fits_beside_a_full_batch),
      cmocka_unit_test(tokens_at_8192_round_by_1024),
      cmocka_unit_test(a_pipeline_divides_the_batch_by_its_stages),
      cmocka_unit_test(a_given_cap_stays),
      cmocka_unit_test(gpt_oss_takes_the_defaults),
      cmocka_unit_test(no_room_is_refused),
      cmocka_unit_test(another_engine_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
