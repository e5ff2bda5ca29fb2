/* The engine's command line (csrc/emit/launch.c): gpusplit's layouts in engine terms, the
 * flags each engine's command carries for them, and the settings refused. The expected sizes
 * follow from the layout words by hand (csrc/gpusplit.h: slices = TP n, groups = PP n,
 * slices-groups = TP a server x PP the servers, experts spread = EP n with attention DP n);
 * tests/c/emit_test.sh holds every emitted flag to the engines' own lists. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static gs_setting setting;
static char text[GS_LAUNCH_CAP];

/* A request on a catalogue GPU (real rules) with the fields a test sets. */
static gs_request ask(const char *model, const char *gpu, int split, uint64_t words) {
  gs_request q;
  memset(&q, 0, sizeof q);
  q.model_key = model;
  q.gpu_key = gpu;
  q.split = split;
  q.words = words;
  return q;
}

static void resolve(const gs_request *q) {
  gs_error err;
  memset(&err, 0, sizeof err);
  if (gs_resolve(q, &setting, &err) != GS_OK) fail_msg("resolve: %s: %s", err.field, err.what);
}

static gs_launch_sizes sizes(const gs_request *q, uint64_t n) {
  gs_launch_sizes z;
  gs_error err;
  resolve(q);
  if (gs_launch_sizes_of(&setting, n, &z, &err) != GS_OK) fail_msg("sizes: %s: %s", err.field, err.what);
  return z;
}

static void assert_sizes(gs_launch_sizes z, uint64_t tp, uint64_t pp, uint64_t ep, uint64_t adp, uint64_t servers) {
  assert_int_equal(z.tp, tp);
  assert_int_equal(z.pp, pp);
  assert_int_equal(z.ep, ep);
  assert_int_equal(z.attention_dp, adp);
  assert_int_equal(z.servers, servers);
}

/* The command for n GPUs of the resolved setting; fails the test unless it is written. */
static const char *command(uint64_t n, int engine) {
  gs_error err;
  memset(&err, 0, sizeof err);
  if (gs_launch(&setting, n, engine, text, sizeof text, &err) != GS_OK) fail_msg("launch: %s: %s", err.field, err.what);
  return text;
}

static void assert_has(const char *haystack, const char *needle) {
  if (!strstr(haystack, needle)) fail_msg("'%s' is not in:\n%s", needle, haystack);
}

/* The setting on n GPUs is refused for the engine, by name, with these words. */
static void assert_refused(uint64_t n, int engine, const char *words) {
  gs_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(gs_launch(&setting, n, engine, text, sizeof text, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "emit");
  assert_string_equal(text, "");
  if (!strstr(err.what, words)) fail_msg("'%s' is not in '%s'", words, err.what);
}

static void test_slices_and_groups(void **state) {
  gs_request q = ask("70b", "h100-sxm", GS_SLICES, 16);
  (void)state;
  assert_sizes(sizes(&q, 8), 8, 1, 0, 1, 1);
  assert_has(command(8, GS_ENGINE_VLLM), "vllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 8 --pipeline-parallel-size 1 ");
  assert_has(text, "--max-num-seqs 16\n");
  assert_has(command(8, GS_ENGINE_SGLANG), "--model-path meta-llama/Llama-3.1-70B --tp-size 8 --pp-size 1 ");
  assert_has(text, "--max-running-requests 16\n");
  assert_has(command(8, GS_ENGINE_TRTLLM), "trtllm-serve meta-llama/Llama-3.1-70B --tp_size 8 --pp_size 1 --max_batch_size 16 ");
  q = ask("70b", "h100-sxm", GS_GROUPS, 8);
  q.in_flight = 4;
  assert_sizes(sizes(&q, 4), 1, 4, 0, 1, 1);
  assert_int_equal(sizes(&q, 4).chats, 32); /* 4 batches of 8 in flight */
  /* TensorRT-LLM: a batch of 8 in each of its 4 stages; SGLang: 8 a micro-batch, 32 running;
   * vLLM has no cap a batch */
  assert_has(command(4, GS_ENGINE_TRTLLM), "--tp_size 1 --pp_size 4 --max_batch_size 8 ");
  assert_has(command(4, GS_ENGINE_SGLANG), "--tp-size 1 --pp-size 4 --pp-max-micro-batch-size 8 ");
  assert_has(text, "--max-running-requests 32\n");
  assert_refused(4, GS_ENGINE_VLLM, "batches of --words chats");
  q.in_flight = 2;
  resolve(&q);
  assert_refused(4, GS_ENGINE_TRTLLM, "keeps a batch in each of its 4 pipeline stages, and the figures keep 2");
  q.in_flight = 0; /* one batch: vLLM's one scheduler */
  resolve(&q);
  assert_has(command(4, GS_ENGINE_VLLM), "--tensor-parallel-size 1 --pipeline-parallel-size 4 ");
  assert_has(text, "--max-num-seqs 8\n");
}

static void test_slices_groups_across_servers(void **state) {
  gs_request q = ask("405b", "h100-sxm", GS_SLICES_GROUPS, 1);
  (void)state;
  q.per_server = 8;
  assert_sizes(sizes(&q, 16), 8, 2, 0, 1, 2);
  assert_sizes(sizes(&q, 8), 8, 1, 0, 1, 1); /* one server: slices alone */
  resolve(&q);
  assert_has(command(16, GS_ENGINE_VLLM), "--tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray ");
  assert_has(command(16, GS_ENGINE_SGLANG), "--tp-size 8 --pp-size 2 --pp-max-micro-batch-size 1 --nnodes 2 --node-rank \"$NODE_RANK\" ");
  assert_refused(16, GS_ENGINE_TRTLLM, "several servers");
}

static void test_experts(void **state) {
  gs_request q = ask("deepseek-v3", "h200", GS_SLICES, 64);
  (void)state;
  q.experts = GS_EXPERTS_SPREAD;
  q.cache_bits = 8;
  assert_sizes(sizes(&q, 8), 1, 1, 8, 8, 1);
  assert_int_equal(sizes(&q, 8).chats, 8); /* 64 chats over 8 attention copies */
  assert_has(command(8, GS_ENGINE_VLLM),
             "--tensor-parallel-size 1 --pipeline-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel --kv-cache-dtype fp8_e4m3 ");
  assert_has(text, "--max-num-seqs 8\n");
  assert_has(command(8, GS_ENGINE_SGLANG), "--tp-size 8 --dp-size 8 --enable-dp-attention --ep-size 8 --kv-cache-dtype fp8_e4m3 ");
  assert_has(text, "--max-running-requests 64\n"); /* SGLang shares it over the attention ranks */
  assert_has(command(8, GS_ENGINE_TRTLLM), "kv_cache_config:\n  dtype: fp8\nenable_attention_dp: true\nEOF\n");
  assert_has(text, "--tp_size 8 --pp_size 1 --ep_size 8 --max_batch_size 8 ");
  /* experts cut as every other weight: EP 1, said to TensorRT-LLM, whose default it is */
  q = ask("mixtral-8x7b", "h100-sxm", GS_SLICES, 1);
  assert_sizes(sizes(&q, 2), 2, 1, 1, 1, 1);
  assert_has(command(2, GS_ENGINE_TRTLLM), "--tp_size 2 --pp_size 1 --ep_size 1 ");
}

static void test_replicas_and_figures(void **state) {
  gs_request q = ask("70b", "h100-sxm", GS_SLICES, 32);
  (void)state;
  q.replicas = 2;
  q.gpu.usable = 0.925;
  q.gpu_typed = GS_TYPED_USABLE;
  q.assume = GS_ASSUME_REAL; /* a typed figure alone would take the lesson's rules */
  q.chat_tokens = 4096;
  assert_int_equal(sizes(&q, 4).replicas, 2);
  assert_has(command(4, GS_ENGINE_VLLM),
             "--tensor-parallel-size 4 --pipeline-parallel-size 1 --data-parallel-size 2 --kv-cache-dtype auto "
             "--gpu-memory-utilization 0.925 --max-model-len 4096 --max-num-seqs 32\n");
  assert_has(command(4, GS_ENGINE_SGLANG), "--tp-size 4 --pp-size 1 --dp-size 2 --kv-cache-dtype auto --mem-fraction-static 0.925 "
                                           "--context-length 4096 --max-running-requests 32\n");
  assert_refused(4, GS_ENGINE_TRTLLM, "replicas");
  assert_true(strstr(command(4, GS_ENGINE_VLLM), "mem-fraction") == NULL);
}

static void test_refusals(void **state) {
  gs_request q = ask("mixtral-8x7b", "h100-sxm", GS_SLICES, 1);
  (void)state;
  q.replicas = 2;
  resolve(&q);
  assert_refused(2, GS_ENGINE_VLLM, "mixture of experts");
  q = ask("qwen3-30b-a3b", "h100-sxm", GS_SLICES, 32);
  q.experts = GS_EXPERTS_SPREAD;
  q.replicas = 2; /* 2 x 4 GPUs: one server */
  resolve(&q);
  assert_refused(4, GS_ENGINE_VLLM, "spread experts");
  assert_refused(4, GS_ENGINE_SGLANG, "spread experts");
  q = ask("deepseek-v3", "h100-sxm", GS_SLICES, 64);
  q.experts = GS_EXPERTS_SPREAD;
  q.per_server = 8;
  resolve(&q);
  assert_refused(16, GS_ENGINE_VLLM, "across servers");
  q = ask("70b", "h100-sxm", GS_SLICES, 1); /* servers of 8 under real rules */
  q.replicas = 2;
  resolve(&q);
  assert_has(command(4, GS_ENGINE_SGLANG), "--tp-size 4 --pp-size 1 --dp-size 2 "); /* 8 GPUs: one server */
  assert_refused(8, GS_ENGINE_SGLANG, "2 replicas of 8 GPUs take more than a server of 8");
  /* the lesson's rules: every count, one chat's cache */
  q = ask("70b", "lesson", GS_SLICES, 1);
  resolve(&q);
  assert_refused(3, GS_ENGINE_SGLANG, "64 attention heads");
  assert_refused(1, GS_ENGINE_VLLM, "1 GPU does not fit");
  q.words = 8;
  resolve(&q);
  assert_refused(4, GS_ENGINE_VLLM, "one chat's cache for 8 chats");
  q = ask("70b", "h100-sxm", GS_SLICES, 1);
  q.bits = 8;
  resolve(&q);
  assert_refused(4, GS_ENGINE_VLLM, "--bits 8");
  q.bits = 16; /* the checkpoint's own: served as stored */
  resolve(&q);
  assert_has(command(4, GS_ENGINE_VLLM), "--tensor-parallel-size 4 ");
  q = ask("gpt-oss-20b", "h100-sxm", GS_SLICES, 1); /* its experts stored in MXFP4: 16 bits is not its own */
  q.bits = 16;
  resolve(&q);
  assert_refused(1, GS_ENGINE_SGLANG, "--bits 16");
  q.bits = 0;
  resolve(&q);
  assert_has(command(1, GS_ENGINE_SGLANG), "--model-path openai/gpt-oss-20b --tp-size 1 ");
  q = ask("70b", "h100-sxm", GS_SLICES, 1);
  q.bits = 0;
  q.cache_bits = 4;
  resolve(&q);
  assert_refused(4, GS_ENGINE_TRTLLM, "4 bits");
}

static void test_names(void **state) {
  gs_request q;
  gs_error err;
  static const char config[] = "{\"hidden_size\": 256, \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
                               "\"num_key_value_heads\": 4, \"intermediate_size\": 512, \"vocab_size\": 1000}";
  (void)state;
  assert_int_equal(gs_engine_parse("vllm"), GS_ENGINE_VLLM);
  assert_int_equal(gs_engine_parse("trtllm"), GS_ENGINE_TRTLLM);
  assert_int_equal(gs_engine_parse("tgi"), -1);
  assert_int_equal(gs_engine_parse("VLLM"), -1);
  q = ask(NULL, "h100-sxm", GS_SLICES, 1);
  q.model_text = config;
  q.model_len = strlen(config);
  q.model_label = "/models/it's mine/config.json"; /* the folder holds the weights */
  resolve(&q);
  assert_has(command(1, GS_ENGINE_VLLM), "vllm serve '/models/it'\\''s mine' --tensor-parallel-size 1 ");
  q.model_label = "tiny.json";
  resolve(&q);
  assert_has(command(1, GS_ENGINE_SGLANG), "--model-path tiny.json --tp-size 1 ");
  q.bits = 16; /* what a config given as text stores is not known once counted at --bits */
  resolve(&q);
  assert_refused(1, GS_ENGINE_VLLM, "--bits 16");
  q.bits = 0;
  q.model_label = "bad\x01name.json";
  resolve(&q);
  assert_refused(1, GS_ENGINE_VLLM, "control character");
  memset(&err, 0, sizeof err);
  assert_int_equal(gs_launch(&setting, 1, 7, text, sizeof text, &err), GS_ERR_RANGE);
  resolve(&q);
  q.model_label = "tiny.json";
  resolve(&q);
  assert_int_equal(gs_launch(&setting, 1, GS_ENGINE_VLLM, text, 40, &err), GS_ERR_TOO_LONG);
  assert_string_equal(text, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slices_and_groups), cmocka_unit_test(test_slices_groups_across_servers),
      cmocka_unit_test(test_experts),           cmocka_unit_test(test_replicas_and_figures),
      cmocka_unit_test(test_refusals),          cmocka_unit_test(test_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
