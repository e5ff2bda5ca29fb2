/* Every family against published totals and against cases worked by hand: the catalogue's
 * totals, DeepSeek-V3's FP8 checkpoint, what one step of a mixture of experts reads, the
 * caches of MLA and sliding windows, and refusals of what the reader cannot count. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

/* data/models/catalogue.json gives a published total for each model: its parameters, or
 * the bytes of its 16-bit checkpoint (the safetensors index's total_size). */
static void every_catalogue_model_counts_to_its_published_total(void **state) {
  size_t i, pinned = 0;
  (void)state;
  for (i = 0; i < GS_MODEL_COUNT; i++) {
    const gs_model_entry *e = &GS_MODELS[i];
    gs_model m;
    ts_model(e->key, &m);
    pinned += e->published_params || e->published_bytes;
    if (e->published_params) {
      if (m.params != e->published_params)
        fail_msg("%s: counted %llu weights, published %llu", e->key, (unsigned long long)m.params,
                 (unsigned long long)e->published_params);
    }
    if (e->published_bytes) {
      if (m.stored_bytes != e->published_bytes)
        fail_msg("%s: counted %llu bytes, published %llu", e->key, (unsigned long long)m.stored_bytes,
                 (unsigned long long)e->published_bytes);
    }
  }
  /* all but the checkpoints that also store multi-token-prediction layers (DeepSeek-V3,
   * DeepSeek-V3.2, GLM-4.5-Air), each reconciled below */
  assert_int_equal(pinned, GS_MODEL_COUNT - 3);
}

/* Every family the reader counts has a model in the catalogue with a published total. */
static void every_family_has_a_pinned_model(void **state) {
  static const char *const TYPES[] = {"llama", "mistral", "qwen2", "qwen3", "olmo2", "phi3", "gemma", "gemma2", "gemma3_text",
                                      "gemma3", "mixtral", "qwen2_moe", "qwen3_moe", "deepseek_v2", "deepseek_v3", "gpt_oss",
                                      "glm4_moe", "kimi_k2", "deepseek_v32"};
  size_t t, i;
  (void)state;
  for (t = 0; t < sizeof TYPES / sizeof TYPES[0]; t++) {
    int found = 0;
    for (i = 0; i < GS_MODEL_COUNT && !found; i++) {
      gs_model m;
      ts_model(GS_MODELS[i].key, &m);
      found = strcmp(m.type, TYPES[t]) == 0;
    }
    if (!found) fail_msg("no catalogue model of type %s", TYPES[t]);
  }
}

/* A block-quantized FP8 config of a family whose checkpoint the reader cannot count to a
 * published total (a Llama config with quant_method fp8, weight_block_size [128, 128]) is
 * refused, and the refusal names the flag that prices it and what that leaves out; so is
 * MXFP4 on a family without it, and an FP8 config that keeps at 16 bits a module the format
 * converts. */
static void unsupported_quantization_names_the_flag_that_prices_it(void **state) {
  (void)state;
  ts_refused("{\"model_type\":\"llama\",\"hidden_size\":4096,\"intermediate_size\":14336,\"num_attention_heads\":32,"
             "\"num_hidden_layers\":32,\"num_key_value_heads\":8,\"vocab_size\":128256,"
             "\"quantization_config\":{\"quant_method\":\"fp8\",\"fmt\":\"e4m3\",\"weight_block_size\":[128,128]}}",
             GS_ERR_UNSUPPORTED, "quantization_config",
             "quant_method 'fp8' is not supported for model_type 'llama'; --bits 8 prices every weight at 8 bits, leaving out "
             "the scales of its blocks and the weights it keeps at 16 bits");
  ts_refused("{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":128,\"num_attention_heads\":4,"
             "\"num_hidden_layers\":2,\"vocab_size\":100,\"quantization_config\":{\"quant_method\":\"mxfp4\"}}",
             GS_ERR_UNSUPPORTED, "quantization_config", "--bits 4 prices every weight at 4 bits");
  ts_refused("{\"model_type\":\"qwen3\",\"hidden_size\":64,\"intermediate_size\":128,\"num_attention_heads\":4,"
             "\"num_hidden_layers\":2,\"vocab_size\":100,\"quantization_config\":{\"quant_method\":\"fp8\","
             "\"weight_block_size\":[128,128],\"modules_to_not_convert\":[\"lm_head\",\"model.layers.0.self_attn\"]}}",
             GS_ERR_UNSUPPORTED, "quantization_config.modules_to_not_convert", "entry 1 names a module the reader cannot keep");
}

/* One Qwen3 layer's matrices as FP8 stores them: their values, and their 128 x 128 blocks
 * (one scale each), for q heads and kv heads of 128, hidden h, a feed-forward width f
 * (dense) and e experts of width f (a mixture; e = 0 for dense). */
static void qwen3_layer(uint64_t h, uint64_t q, uint64_t kv, uint64_t f, uint64_t e, uint64_t *values, uint64_t *blocks) {
  const uint64_t copies = e ? e : 1;
  *values = 2 * q * 128 * h + 2 * kv * 128 * h + copies * 3 * f * h;
  *blocks = 2 * q * (h / 128) + 2 * kv * (h / 128) + copies * 3 * ((f + 127) / 128) * (h / 128);
}

/* The Hub counts Qwen's FP8 checkpoints by type (catalogue.json): Qwen3-32B-FP8 as
 * 31,205,621,760 F8_E4M3 and 1,558,406,144 BF16 values, Qwen3-30B-A3B's FP8 releases as
 * 29,896,998,912 and 636,948,480. Worked from the configs here: the F8 values are exactly
 * the attention, feed-forward and expert matrices; the BF16 ones the tables, the norms, the
 * routers and one scale a 128 x 128 block of every F8 matrix. So the count (which leaves the
 * scales out, as for every FP8 model) is the Hub's less the scales, and the bytes hold a
 * 16-bit scale, not DeepSeek's 32-bit one. */
static void qwen3_fp8_reconciles_with_the_hubs_counts_by_type(void **state) {
  const uint64_t vocab = 151936;
  uint64_t values, blocks, f8, scales;
  gs_model m;
  (void)state;
  qwen3_layer(5120, 64, 8, 25600, 0, &values, &blocks);
  f8 = 64 * values;
  scales = 64 * blocks;
  assert_int_equal(f8, UINT64_C(31205621760));
  ts_model("qwen3-32b-fp8", &m);
  assert_string_equal(m.type, "qwen3");
  assert_int_equal(m.params + scales, UINT64_C(32764027904));
  assert_int_equal(m.params, f8 + UINT64_C(1558406144) - scales);
  assert_int_equal(m.stored_bytes, f8 + 2 * UINT64_C(1558406144));
  /* the same weights as the 16-bit Qwen3-32B */
  assert_int_equal(m.params, UINT64_C(32762123264));
  qwen3_layer(2048, 32, 4, 768, 128, &values, &blocks);
  f8 = 48 * values;
  scales = 48 * blocks;
  assert_int_equal(f8, UINT64_C(29896998912));
  ts_model("qwen3-30b-a3b-fp8", &m);
  assert_string_equal(m.type, "qwen3_moe");
  assert_int_equal(m.params + scales, UINT64_C(30533947392));
  assert_int_equal(m.stored_bytes, f8 + 2 * UINT64_C(636948480));
  /* the BF16 values: two tables, 48 routers of 128 x 2048, the norms, and the scales */
  assert_int_equal(2 * vocab * 2048 + 48 * 128 * 2048 + 48 * (2 * 2048 + 2 * 128) + 2048 + scales, UINT64_C(636948480));
  assert_int_equal(m.routed_bytes, UINT64_C(48) * 128 * (3 * 768 * 2048 + 3 * 6 * 16 * 2));
}

/* Two more of Qwen's FP8 mixtures, pasted: the Hub counts Qwen3-235B-A22B-Instruct-2507-FP8
 * as 235,107,904,512 values and Qwen3-Coder-480B-A35B-Instruct-FP8 as 480,184,064,000 (the
 * audit table catalogue.json cites for the 30B's), each its weights and one scale a block. */
static void larger_qwen3_fp8_mixtures_count_to_the_hubs_totals(void **state) {
  static const char FP8[] = "\"quantization_config\":{\"activation_scheme\":\"dynamic\",\"fmt\":\"e4m3\",\"quant_method\":"
                            "\"fp8\",\"weight_block_size\":[128,128]}";
  char json[1024];
  uint64_t values, blocks;
  gs_model m;
  (void)state;
  snprintf(json, sizeof json, "{\"model_type\":\"qwen3_moe\",\"hidden_size\":4096,\"intermediate_size\":12288,"
           "\"moe_intermediate_size\":1536,\"num_attention_heads\":64,\"num_key_value_heads\":4,\"head_dim\":128,"
           "\"num_hidden_layers\":94,\"num_experts\":128,\"num_experts_per_tok\":8,\"vocab_size\":151936,"
           "\"tie_word_embeddings\":false,%s}", FP8);
  m = ts_parse_ok(json);
  qwen3_layer(4096, 64, 4, 1536, 128, &values, &blocks);
  assert_int_equal(m.params + 94 * blocks, UINT64_C(235107904512));
  assert_int_equal(m.params, UINT64_C(235093634560));
  snprintf(json, sizeof json, "{\"model_type\":\"qwen3_moe\",\"hidden_size\":6144,\"intermediate_size\":8192,"
           "\"moe_intermediate_size\":2560,\"num_attention_heads\":96,\"num_key_value_heads\":8,\"head_dim\":128,"
           "\"num_hidden_layers\":62,\"num_experts\":160,\"num_experts_per_tok\":8,\"vocab_size\":151936,"
           "\"tie_word_embeddings\":false,%s}", FP8);
  m = ts_parse_ok(json);
  qwen3_layer(6144, 96, 8, 2560, 160, &values, &blocks);
  assert_int_equal(m.params + 62 * blocks, UINT64_C(480184064000));
  /* a list of the modules it keeps at 16 bits anyway changes nothing */
  snprintf(json, sizeof json, "{\"model_type\":\"qwen3_moe\",\"hidden_size\":6144,\"intermediate_size\":8192,"
           "\"moe_intermediate_size\":2560,\"num_attention_heads\":96,\"num_key_value_heads\":8,\"head_dim\":128,"
           "\"num_hidden_layers\":62,\"num_experts\":160,\"num_experts_per_tok\":8,\"vocab_size\":151936,"
           "\"tie_word_embeddings\":false,\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[128,128],"
           "\"modules_to_not_convert\":[\"lm_head\",\"model.embed_tokens\",\"model.layers.0.mlp.gate\"]}}");
  assert_int_equal(ts_parse_ok(json).stored_bytes, m.stored_bytes);
}

/* The Hub counts DeepSeek-V3's FP8 checkpoint as 3,918,786,560 BF16, 680,571,043,840
 * F8_E4M3 and 41,555,600 F32 values (catalogue.json). That checkpoint also stores the
 * multi-token-prediction layer 61, which the count leaves out: one more mixture-of-experts
 * layer, its own copies of the embedding and output tables, three norms and eh_proj
 * (hidden x 2 hidden, BF16), worked out here from the config's figures. What remains must
 * be the count, 671B, and its bytes as stored. */
static void deepseek_v3_reconciles_with_its_published_fp8_checkpoint(void **state) {
  const uint64_t h = 7168, heads = 128, vocab = 129280, q_rank = 1536, kv_rank = 512, nope = 128, rope = 64, v = 128;
  const uint64_t experts = 256, width = 2048, layers = 61, dense = 3, dense_width = 18432;
  uint64_t f8 = 0, f32 = 0, bf16 = 0, blocks = 0;
  const uint64_t mats[][2] = {{q_rank, h}, {heads * (nope + rope), q_rank}, {kv_rank + rope, h}, {heads * (nope + v), kv_rank}, {h, heads * v}};
  size_t i;
  gs_model m;
  (void)state;
  /* the MTP layer: attention, 256 routed experts and one shared, all FP8 with 128 x 128 scales */
  for (i = 0; i < 5; i++) {
    f8 += mats[i][0] * mats[i][1];
    blocks += ((mats[i][0] + 127) / 128) * ((mats[i][1] + 127) / 128);
  }
  f8 += (experts + 1) * 3 * width * h;
  blocks += (experts + 1) * 3 * (width / 128) * (h / 128);
  f32 = blocks + experts;                          /* scales and e_score_correction_bias */
  bf16 = q_rank + kv_rank + 2 * h + experts * h    /* attention norms, layer norms, router */
         + 3 * h + 2 * vocab * h + h * 2 * h;      /* enorm, hnorm, head norm, tables, eh_proj */
  ts_model("deepseek-v3", &m);
  assert_string_equal(m.type, "deepseek_v3");
  assert_int_equal(m.params, UINT64_C(3918786560) - bf16 + UINT64_C(680571043840) - f8 + (layers - dense) * experts);
  assert_int_equal(m.stored_bytes, 2 * (UINT64_C(3918786560) - bf16) + (UINT64_C(680571043840) - f8) + 4 * (UINT64_C(41555600) - f32));
  assert_int_equal(m.params, UINT64_C(671026419200));
  /* FP8: about one byte a weight, not two */
  assert_true(m.stored_bytes < m.params + m.params / 100);
  (void)dense_width;
}

/* The Hub counts GLM-4.5-Air's checkpoint as 110,468,824,832 values (catalogue.json). Its
 * config keeps one multi-token-prediction layer (num_nextn_predict_layers 1), which the
 * checkpoint stores as layer 46 and the count leaves out: a mixture-of-experts layer like
 * the others (vLLM's glm4_moe_mtp.py), its enorm, hnorm and shared head norm, eh_proj
 * (hidden x 2 hidden) and its own embedding and output tables. Worked from the config:
 * attention q 12,288 x 4,096, k and v 1,024 x 4,096, o 4,096 x 12,288, biased q, k and v;
 * 128 experts and one shared of 3 x 4,096 x 1,408; a router and its bias. */
static void glm_4_5_air_reconciles_with_its_published_checkpoint(void **state) {
  const uint64_t h = 4096, q = 96 * 128, kv = 8 * 128, experts = 128, width = 1408, vocab = 151552;
  const uint64_t attention = 2 * q * h + 2 * kv * h + q + 2 * kv;
  const uint64_t moe_layer = attention + 2 * h + experts * h + experts + (experts + 1) * 3 * h * width;
  const uint64_t mtp = moe_layer + 3 * h + 2 * h * h + 2 * vocab * h;
  gs_model m;
  (void)state;
  ts_model("glm-4.5-air", &m);
  assert_string_equal(m.type, "glm4_moe");
  assert_int_equal(m.params + mtp, UINT64_C(110468824832));
  assert_int_equal(m.params, UINT64_C(106852251264));
  /* 45 mixture-of-experts layers after one dense one; 8 of 128 experts and the shared one */
  assert_int_equal(m.moe_layers, 45);
  assert_int_equal(m.experts, 128);
  assert_int_equal(m.stored_bytes, 2 * m.params);
  /* 8 key/value heads of 128: 2 x 8 x 128 x 2 bytes a token on each of 46 layers */
  assert_int_equal(m.cache_full_bytes, UINT64_C(46) * 2 * 8 * 128 * 2);
  assert_int_equal(m.active_params, m.params - 45 * (experts - 8) * 3 * h * width);
}

/* glm4_moe's keys on a small shape: hidden 64, 4 heads of 16 (2 key/value), 2 layers, 100
 * words; dense width 128, experts of 32. use_qk_norm adds a q and a k norm of 16 a layer;
 * first_k_dense_replace 2 leaves no layer with experts; no head_dim and 64 / 4 = 16 is it. */
static void glm4_moe_counts_its_keys(void **state) {
  const char *base = "\"model_type\":\"glm4_moe\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
                     "\"num_key_value_heads\":2,\"vocab_size\":100,\"intermediate_size\":128,\"moe_intermediate_size\":32,"
                     "\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"n_shared_experts\":1";
  const uint64_t tables = 2 * 100 * 64 + 64, attention = 12288, norms = 2 * 64, dense = 3 * 64 * 128;
  const uint64_t moe = 4 * 64 + 4 + 5 * 3 * 64 * 32;
  char json[640];
  (void)state;
  snprintf(json, sizeof json, "{%s,\"first_k_dense_replace\":1}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + 2 * (attention + norms) + dense + moe);
  snprintf(json, sizeof json, "{%s,\"first_k_dense_replace\":1,\"use_qk_norm\":true,\"attention_bias\":true}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + 2 * (attention + norms + 32 + 64 + 2 * 32) + dense + moe);
  snprintf(json, sizeof json, "{%s,\"first_k_dense_replace\":2}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + 2 * (attention + norms + dense));
  assert_int_equal(ts_parse_ok(json).experts, 0);
  /* Glm4MoeConfig has no head_dim, and its 4,096 / 96 heads is no whole number */
  ts_refused("{\"model_type\":\"glm4_moe\"}", GS_ERR_SHAPE, "hidden_size", "head_dim");
}

/* Kimi K2 is DeepSeek-V3's architecture (its config's architectures and auto_map) at 384
 * experts, 64 heads and one dense layer: the count is deepseek_v3's on the same config.
 * Kimi-K2-Base's Hub total (1,026,470,731,056) less Kimi-K2-Instruct's (1,026,408,235,864)
 * is exactly its FP8 scales, one 32-bit value a 128 x 128 block of every projection, which
 * the stored bytes hold: worked here from the config's sizes. */
static void kimi_k2_is_deepseek_v3s_architecture_at_its_sizes(void **state) {
  const uint64_t h = 7168, heads = 64, q_rank = 1536, kv_rank = 512, layers = 61, experts = 384, width = 2048, dense = 18432;
  const uint64_t mats[][2] = {{q_rank, h}, {heads * 192, q_rank}, {kv_rank + 64, h}, {heads * 256, kv_rank}, {h, heads * 128}};
  uint64_t blocks = 0;
  size_t i;
  gs_model kimi, as_v3;
  gs_error err;
  static char json[8192];
  const char *text = gs_find_model("kimi-k2")->json, *at = strstr(text, "\"kimi_k2\"");
  size_t n;
  (void)state;
  for (i = 0; i < 5; i++) blocks += layers * ((mats[i][0] + 127) / 128) * ((mats[i][1] + 127) / 128);
  blocks += 3 * ((dense / 128) * (h / 128)) + (layers - 1) * (experts + 1) * 3 * (width / 128) * (h / 128);
  assert_int_equal(UINT64_C(1026470731056) - UINT64_C(1026408235864), blocks);
  ts_model("kimi-k2", &kimi);
  assert_string_equal(kimi.type, "kimi_k2");
  assert_int_equal(kimi.params, UINT64_C(1026408232448));
  assert_int_equal(kimi.experts, experts);
  assert_int_equal(kimi.moe_layers, layers - 1);
  /* the same text named deepseek_v3 counts the same */
  assert_non_null(at);
  n = (size_t)snprintf(json, sizeof json, "%.*s\"deepseek_v3\"%s", (int)(at - text), text, at + strlen("\"kimi_k2\""));
  assert_true(n < sizeof json);
  assert_int_equal(gs_model_parse(json, n, 0, &as_v3, &err), GS_OK);
  assert_int_equal(as_v3.params, kimi.params);
  assert_int_equal(as_v3.stored_bytes, kimi.stored_bytes);
  assert_null(strstr(kimi.note, "multi-token"));
}

/* DeepSeek-V3.2 is DeepSeek-V3 with a lightning indexer in every layer (deepseek_v32.c):
 * wq_b 8,192 x 1,536 and wk 128 x 7,168 in block FP8, a LayerNorm of 128 (weight and
 * bias) and weights_proj 64 x 7,168 in BF16. The Hub's element count of V3.2-Exp less
 * DeepSeek-V3's (reconciled above) is that indexer and its FP8 scales in 62 layers (the
 * 61 and the multi-token-prediction layer); V3.2's own count is V3.2-Exp's less every FP8
 * scale, which the Hub does not count for it. */
static void deepseek_v32_adds_its_indexer_to_deepseek_v3(void **state) {
  const uint64_t wq_b = 64 * 128 * 1536, wk = 128 * 7168, norm = 2 * 128, weights = 64 * 7168;
  const uint64_t indexer = wq_b + wk + norm + weights, scales = (8192 / 128) * (1536 / 128) + 1 * (7168 / 128);
  const uint64_t v3_scales = UINT64_C(41555600) - 59 * 256; /* V3's 32-bit values less its 59 routers' biases */
  gs_model v3, v32;
  (void)state;
  assert_int_equal(UINT64_C(685396921376) - UINT64_C(684531386000), 62 * (indexer + scales));
  assert_int_equal(UINT64_C(685396921376) - UINT64_C(685355329792), v3_scales + 62 * scales);
  ts_model("deepseek-v3", &v3);
  ts_model("deepseek-v3.2", &v32);
  assert_string_equal(v32.type, "deepseek_v32");
  assert_int_equal(v32.params - v3.params, 61 * indexer);
  assert_int_equal(v32.stored_bytes - v3.stored_bytes, 61 * (wq_b + wk + 4 * scales + 2 * (norm + weights)));
}

/* DeepSeek Sparse Attention reads, a step, every token's indexer key (128 values a layer)
 * and the latent (512 + 64) of index_topk = 2,048 tokens: for an 8,192-token chat over 61
 * layers at 16 bits, 61 x (576 x 2 x 2,048 + 128 x 2 x 8,192) bytes, where V3 reads
 * 61 x 576 x 2 x 8,192; it holds both whole, 61 x 704 x 2 x 8,192. A chat of no more than
 * 2,048 tokens is read whole. Priced under real rules, a step reads that beside its weights. */
static void deepseek_v32_reads_its_top_k_tokens_a_step(void **state) {
  const uint64_t layers = 61, latent = 576, keys = 128;
  gs_model m;
  gs_plan p = ts_plan(8, GS_SLICES, 1);
  static gs_setting s;
  gs_request q;
  gs_priced priced;
  gs_error err;
  uint64_t with_cache;
  (void)state;
  ts_model("deepseek-v3.2", &m);
  assert_int_equal(m.read_topk, 2048);
  assert_non_null(strstr(m.note, "indexer key and 2048 tokens' latent"));
  assert_int_equal(m.cache_index_bytes, layers * keys * 2);
  assert_int_equal(m.cache_full_bytes, layers * (latent + keys) * 2);
  p.chat_tokens = 8192;
  assert_int_equal(gs_plan_cache_bytes(&m, &p), layers * (latent + keys) * 2 * 8192);
  assert_int_equal(gs_plan_cache_read_bytes(&m, &p), layers * (latent * 2 * 2048 + keys * 2 * 8192));
  p.cache_bits = 8; /* half of each */
  assert_int_equal(gs_plan_cache_read_bytes(&m, &p), layers * (latent * 2048 + keys * 8192));
  p.cache_bits = 16;
  p.chat_tokens = 2048;
  assert_int_equal(gs_plan_cache_read_bytes(&m, &p), gs_plan_cache_bytes(&m, &p));
  memset(&q, 0, sizeof q);
  q.model_key = "deepseek-v3.2";
  q.gpu_key = "h200";
  q.words = 4;
  q.chat_tokens = 8192;
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.real && s.plan.read_cache);
  assert_int_equal(gs_price(&s, 8, &priced, &err), GS_OK);
  /* under slices every GPU holds and reads each chat's latent and keys whole: the read is
   * the weights' share (priced without reading the cache) and the four chats' reads */
  assert_int_equal(priced.cost.memory.cache, 4 * layers * (latent + keys) * 2 * 8192);
  with_cache = priced.cost.read_bytes;
  q.switches_off = GS_SW_READ_CACHE;
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_int_equal(gs_price(&s, 8, &priced, &err), GS_OK);
  assert_int_equal(with_cache - priced.cost.read_bytes, 4 * layers * (latent * 2 * 2048 + keys * 2 * 8192));
}

/* Mixtral 8x7B at one word: the attention, the router, the norms, the tables and 2 of the
 * 8 experts of each layer; each expert is three 4096 x 14336 matrices. */
static void mixtral_reads_two_experts_a_layer_for_one_word(void **state) {
  const uint64_t h = 4096, kv = 1024, width = 14336, layers = 32, vocab = 32000, experts = 8;
  uint64_t attention = 2 * h * h + 2 * h * kv, expert = 3 * h * width;
  uint64_t one_word = layers * (attention + experts * h + 2 * h + 2 * expert) + 2 * vocab * h + h;
  gs_cost_result c;
  gs_model m;
  gs_gpu g;
  gs_link l;
  (void)state;
  ts_model("mixtral-8x7b", &m);
  ts_gpu(&g);
  ts_link("fast", &l);
  c = ts_cost_of(&m, &g, &l, 1, GS_SLICES, 1);
  assert_int_equal(c.read_bytes, 2 * one_word);
  assert_int_equal(m.active_params, one_word);
  /* four GPUs read a quarter each */
  c = ts_cost_of(&m, &g, &l, 4, GS_SLICES, 1);
  assert_int_equal(c.read_bytes, 2 * one_word / 4);
  /* two words pick 8 x (1 - 0.75^2) = 3.5 experts a layer on average */
  c = ts_cost_of(&m, &g, &l, 1, GS_SLICES, 2);
  assert_int_equal(c.read_bytes, 2 * (one_word + layers * expert * 3 / 2));
  /* compute counts the active weights only */
  assert_true(c.compute == (double)(2 * one_word * 2) / (1.0 * g.flops));
  /* working memory: two experts' width at once */
  assert_int_equal(c.memory.working, UINT64_C(2048) * (3 * 2 * width + 4 * h) * 2 + GS_GIB);
}

/* Many words read nearly every expert: 64 words of Mixtral read more than 7.99 of 8. */
static void many_words_read_nearly_every_expert(void **state) {
  gs_model m;
  (void)state;
  ts_model("mixtral-8x7b", &m);
  assert_true(gs_routed_share(&m, 1) == 0.25);
  assert_true(gs_routed_share(&m, 64) > 0.9999 && gs_routed_share(&m, 64) < 1);
  assert_true(gs_routed_share(&m, GS_MAX_WORDS) == 1);
}

/* MLA keeps kv_lora_rank + qk_rope_head_dim = 576 values a token a layer, which no slice
 * shares: 61 layers x 576 x 2 bytes x 8,192 tokens on every GPU. Groups split the layers. */
static void deepseek_cache_does_not_shrink_under_slices(void **state) {
  const uint64_t whole = UINT64_C(61) * 576 * 2 * 8192;
  gs_model m;
  gs_gpu g;
  gs_link l;
  (void)state;
  ts_model("deepseek-v3", &m);
  ts_gpu(&g);
  ts_link("fast", &l);
  assert_int_equal(ts_cost_of(&m, &g, &l, 1, GS_SLICES, 1).memory.cache, whole);
  assert_int_equal(ts_cost_of(&m, &g, &l, 8, GS_SLICES, 1).memory.cache, whole);
  assert_int_equal(ts_cost_of(&m, &g, &l, 8, GS_GROUPS, 1).memory.cache, (whole + 7) / 8);
}

/* Gemma 2 9B: 42 layers, every other one sliding over 4,096 tokens; 8 key/value heads of
 * 256. An 8,192-token chat: 21 layers keep 8,192 tokens, 21 keep 4,096. */
static void gemma2_sliding_layers_hold_at_most_their_window(void **state) {
  const uint64_t per_layer = 2 * 8 * 256 * 2;
  gs_model m;
  (void)state;
  ts_model("gemma-2-9b", &m);
  assert_int_equal(m.window, 4096);
  assert_int_equal(gs_chat_cache_bytes(&m), per_layer * (21 * 8192 + 21 * 4096));
}

/* gpt-oss-120b in its stored MXFP4 fits on one 80 GiB GPU, as OpenAI publishes; at 16
 * bits it would not. */
static void gpt_oss_120b_fits_one_80_gib_gpu_as_stored(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_error err;
  (void)state;
  ts_model("gpt-oss-120b", &m);
  ts_gpu(&g);
  ts_link("fast", &l);
  assert_true(ts_cost_of(&m, &g, &l, 1, GS_SLICES, 1).fits);
  assert_int_equal(gs_builtin_model("gpt-oss-120b", 16, &m, &err), GS_OK);
  assert_int_equal(m.stored_bytes, 2 * UINT64_C(116829156672));
  assert_false(ts_cost_of(&m, &g, &l, 1, GS_SLICES, 1).fits);
}

/* MXFP4 by hand, for a tiny gpt-oss: one layer, 2 experts of width 64 on hidden 64. Each
 * expert's 3 x 64 x 64 values take 4 bits plus one byte per 32; everything else 16 bits. */
static void mxfp4_stores_experts_at_4_bits_and_a_scale_per_32(void **state) {
  const char *json = "{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
                     "\"num_attention_heads\":2,\"num_key_value_heads\":1,\"head_dim\":32,\"vocab_size\":100,"
                     "\"num_local_experts\":2,\"num_experts_per_tok\":1,"
                     "\"quantization_config\":{\"quant_method\":\"mxfp4\",\"modules_to_not_convert\":[\"model.layers.*.self_attn\"]}}";
  const uint64_t values = 2 * 3 * 64 * 64, rest_bias = 2 * (2 * 64 + 64);
  gs_model m = ts_parse_ok(json);
  (void)state;
  assert_int_equal(m.routed_params, values + rest_bias);
  assert_int_equal(m.routed_bytes, values / 2 + values / 32 + 2 * rest_bias);
  assert_int_equal(m.stored_bytes - m.routed_bytes, 2 * (m.params - m.routed_params));
}

static void bad_keys_of_the_new_families_are_refused(void **state) {
  (void)state;
  ts_refused("{\"model_type\":\"mixtral\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"num_local_experts\":0,\"num_experts_per_tok\":1}",
          GS_ERR_RANGE, "num_local_experts", "at least 1");
  ts_refused("{\"model_type\":\"mixtral\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"num_local_experts\":4,\"num_experts_per_tok\":5}",
          GS_ERR_SHAPE, "num_experts_per_tok", "more than the 4 experts");
  ts_refused("{\"model_type\":\"mistral\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"sliding_window\":0}",
          GS_ERR_RANGE, "sliding_window", "at least 1");
  ts_refused("{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"quantization_config\":{\"quant_method\":\"awq\"}}",
          GS_ERR_UNSUPPORTED, "quantization_config", "quant_method 'awq' is not supported");
  ts_refused("{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"quantization_config\":{\"quant_method\":\"mxfp4\"}}",
          GS_ERR_UNSUPPORTED, "quantization_config", "not supported for model_type 'llama'");
  ts_refused("{\"model_type\":\"gemma3\",\"text_config\":[1],\"vision_config\":{}}", GS_ERR_TYPE, "text_config", "must be an object");
  ts_refused("{\"model_type\":\"mllama\",\"hidden_size\":64}", GS_ERR_UNSUPPORTED, "", "model_type 'mllama' is not supported (supported: llama,");
  ts_refused("{\"model_type\":\"gemma2\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":2,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"layer_types\":[\"full_attention\",\"chunked_attention\"]}",
          GS_ERR_UNSUPPORTED, "layer_types", "entry 1");
  ts_refused("{\"model_type\":\"deepseek_v3\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"kv_lora_rank\":8,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,"
          "\"v_head_dim\":8,\"quantization_config\":{\"quant_method\":\"fp8\"}}",
          GS_ERR_UNSUPPORTED, "quantization_config", "weight_block_size");
}

/* Found by fuzzing (make fuzz): a deepseek_v2 config without topk_method read outside the
 * tokens. It is counted; with noaux_tc, which adds a bias V2 does not count, it is refused. */
static void a_deepseek_v2_config_without_topk_method_is_counted(void **state) {
  const char *json = "{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
                     "\"num_attention_heads\":2,\"vocab_size\":10,\"kv_lora_rank\":8,\"qk_nope_head_dim\":8,"
                     "\"qk_rope_head_dim\":8,\"v_head_dim\":8,\"q_lora_rank\":null,\"n_routed_experts\":null}";
  (void)state;
  assert_int_equal(ts_parse_ok(json).params, 2 * 10 * 64 + 64 + (64 * 2 * 16 + 64 * 16 + 8 + 8 * 2 * 16 + 64 * 16) + 2 * 64 + 3 * 64 * 64);
  ts_refused("{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"intermediate_size\":64,\"num_hidden_layers\":1,"
          "\"num_attention_heads\":2,\"vocab_size\":10,\"kv_lora_rank\":8,\"qk_nope_head_dim\":8,"
          "\"qk_rope_head_dim\":8,\"v_head_dim\":8,\"q_lora_rank\":null,\"n_routed_experts\":null,\"topk_method\":\"noaux_tc\"}",
          GS_ERR_UNSUPPORTED, "topk_method", "noaux_tc");
}

/* Google's gemma-3-4b-it config names only hidden_size, intermediate_size, the layers and
 * the window under text_config: vocab_size, heads, key/value heads and head_dim come from
 * Gemma3TextConfig (262,208, 8, 4 and 256), not from the heads (8 key/value heads would be
 * a wrong count at exit 0). Its total is published (catalogue.json); so is the 12B's,
 * which names its heads. */
static void gemma3_takes_its_configuration_classes_defaults(void **state) {
  gs_model m;
  (void)state;
  ts_model("gemma-3-4b", &m);
  assert_int_equal(m.vocab, 262208);
  assert_int_equal(m.heads, 8);
  assert_int_equal(m.kv_heads, 4);
  assert_int_equal(m.head_dim, 256);
  assert_int_equal(m.params, UINT64_C(4300079472));
  ts_model("gemma-3-12b", &m);
  assert_int_equal(m.kv_heads, 8);
  assert_int_equal(m.params, UINT64_C(12187325040));
  /* Gemma3Config with no vision_config builds SiglipVisionConfig(), whose tower has the
   * pooling head modeling_siglip.py adds unless vision_use_head is false: refused */
  ts_refused("{\"model_type\": \"gemma3\", \"text_config\": {\"hidden_size\": 2560}}", GS_ERR_UNSUPPORTED, "vision_use_head",
             "pooling head");
}

/* A config that names its type and nothing else is that class's default model. LlamaConfig()
 * is Llama 2 7B's shape (vocab 32,000, hidden 4,096, width 11,008, 32 layers of 32 heads,
 * untied): 2 x 32,000 x 4,096 + 32 x (4 x 4,096^2 + 3 x 4,096 x 11,008 + 2 x 4,096) + 4,096
 * = 6,738,415,616, Llama 2 7B's published total. Without model_type no class is named, and
 * the keys are required. */
static void a_named_class_gives_its_defaults_and_no_name_gives_none(void **state) {
  gs_model m;
  (void)state;
  m = ts_parse_ok("{\"model_type\": \"llama\"}");
  assert_int_equal(m.params, UINT64_C(6738415616));
  assert_int_equal(m.kv_heads, 32);
  ts_refused("{}", GS_ERR_MISSING, "hidden_size", "is missing");
  ts_refused("{\"model_type\": \"llama\", \"hidden_size\": null}", GS_ERR_MISSING, "hidden_size", "null");
  /* MistralConfig: 8 key/value heads, width 14,336 and a 4,096-token window on every layer
   * when sliding_window is absent; a null window is none */
  m = ts_parse_ok("{\"model_type\": \"mistral\"}");
  assert_int_equal(m.kv_heads, 8);
  assert_int_equal(m.ffn_width, 14336);
  assert_int_equal(m.window, 4096);
  assert_int_equal(m.cache_full_bytes, 0);
  m = ts_parse_ok("{\"model_type\": \"mistral\", \"sliding_window\": null}");
  assert_int_equal(m.window, 0);
  assert_int_equal(m.cache_full_bytes, 2 * 2 * 8 * 128 * 32);
  /* Qwen2Config: a window only with use_sliding_window, then 4,096 above layer 28 */
  m = ts_parse_ok("{\"model_type\": \"qwen2\", \"use_sliding_window\": true}");
  assert_int_equal(m.window, 4096);
  assert_int_equal(m.cache_window_bytes, 2 * 2 * 32 * 128 * 4);
}

/* OLMo 2 7B's checkpoint is float32 (torch_dtype); it is priced at 16 bits, as served, and
 * the note says so. */
static void a_float32_checkpoint_is_priced_at_16_bits_and_says_so(void **state) {
  gs_model m;
  (void)state;
  ts_model("olmo2-7b", &m);
  assert_int_equal(m.stored_bytes, 2 * m.params);
  assert_non_null(strstr(m.note, "float32"));
  assert_non_null(strstr(m.note, "16 bits"));
  ts_model("gemma-3-4b", &m);
  assert_null(strstr(m.note, "float32"));
}

/* Keys that change the count, on a small shape worked by hand: hidden 64, 4 heads of 16
 * (2 of them key/value), width 128, 2 layers, 100 words. Plain attention a layer: q and o
 * 64 x 64, k and v 64 x 32: 12,288. head_dim 32 (as Mistral-Nemo's differs from hidden /
 * heads): q and o 64 x 128, k and v 64 x 64: 24,576. */
static void keys_that_change_the_count_are_counted(void **state) {
  const char *base = "\"hidden_size\":64,\"intermediate_size\":128,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
                     "\"num_key_value_heads\":2,\"vocab_size\":100";
  const uint64_t tables = 2 * 100 * 64 + 64, mlp = 3 * 64 * 128, norms = 2 * 64, layers = 2;
  char json[512];
  (void)state;
  snprintf(json, sizeof json, "{\"model_type\":\"llama\",%s}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + layers * (12288 + mlp + norms));
  snprintf(json, sizeof json, "{\"model_type\":\"mistral\",%s,\"head_dim\":32}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + layers * (24576 + mlp + norms));
  /* biases on q (64), k and v (32 each), o (64); on gate and up (128 each) and down (64) */
  snprintf(json, sizeof json, "{\"model_type\":\"llama\",%s,\"attention_bias\":true,\"mlp_bias\":true}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + layers * (12288 + 192 + mlp + 320 + norms));
  /* Qwen2: biases on q, k and v only */
  snprintf(json, sizeof json, "{\"model_type\":\"qwen2\",%s}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + layers * (12288 + 128 + mlp + norms));
  /* Qwen3: a norm of head_dim on q and on k */
  snprintf(json, sizeof json, "{\"model_type\":\"qwen3\",%s,\"head_dim\":16}", base);
  assert_int_equal(ts_parse_ok(json).params, tables + layers * (12288 + 32 + mlp + norms));
  /* Gemma: one table, tied by default */
  snprintf(json, sizeof json, "{\"model_type\":\"gemma\",%s,\"head_dim\":16}", base);
  assert_int_equal(ts_parse_ok(json).params, tables - 100 * 64 + layers * (12288 + mlp + norms));
  /* --bits 4: half a byte a weight */
  {
    gs_model m;
    gs_error err;
    snprintf(json, sizeof json, "{\"model_type\":\"llama\",%s}", base);
    assert_int_equal(gs_model_parse(json, strlen(json), 4, &m, &err), GS_OK);
    assert_int_equal(m.stored_bytes, (tables + layers * (12288 + mlp + norms)) / 2);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_catalogue_model_counts_to_its_published_total),
      cmocka_unit_test(every_family_has_a_pinned_model),
      cmocka_unit_test(deepseek_v3_reconciles_with_its_published_fp8_checkpoint),
      cmocka_unit_test(unsupported_quantization_names_the_flag_that_prices_it),
      cmocka_unit_test(qwen3_fp8_reconciles_with_the_hubs_counts_by_type),
      cmocka_unit_test(larger_qwen3_fp8_mixtures_count_to_the_hubs_totals),
      cmocka_unit_test(glm_4_5_air_reconciles_with_its_published_checkpoint),
      cmocka_unit_test(glm4_moe_counts_its_keys),
      cmocka_unit_test(kimi_k2_is_deepseek_v3s_architecture_at_its_sizes),
      cmocka_unit_test(deepseek_v32_adds_its_indexer_to_deepseek_v3),
      cmocka_unit_test(deepseek_v32_reads_its_top_k_tokens_a_step),
      cmocka_unit_test(mixtral_reads_two_experts_a_layer_for_one_word),
      cmocka_unit_test(many_words_read_nearly_every_expert),
      cmocka_unit_test(deepseek_cache_does_not_shrink_under_slices),
      cmocka_unit_test(gemma2_sliding_layers_hold_at_most_their_window),
      cmocka_unit_test(gpt_oss_120b_fits_one_80_gib_gpu_as_stored),
      cmocka_unit_test(mxfp4_stores_experts_at_4_bits_and_a_scale_per_32),
      cmocka_unit_test(bad_keys_of_the_new_families_are_refused),
      cmocka_unit_test(keys_that_change_the_count_are_counted),
      cmocka_unit_test(a_deepseek_v2_config_without_topk_method_is_counted),
      cmocka_unit_test(gemma3_takes_its_configuration_classes_defaults),
      cmocka_unit_test(a_named_class_gives_its_defaults_and_no_name_gives_none),
      cmocka_unit_test(a_float32_checkpoint_is_priced_at_16_bits_and_says_so),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
