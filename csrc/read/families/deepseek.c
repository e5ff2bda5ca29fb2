/* DeepSeek-V2 and V3 (DeepSeek's modeling_deepseek.py, as transformers'
 * modeling_deepseek_v2.py and modeling_deepseek_v3.py port it). Attention is MLA: q through
 * a low-rank q_a_proj, its norm and q_b_proj (or one q_proj when q_lora_rank is null), a
 * kv_a_proj_with_mqa to kv_lora_rank + qk_rope_head_dim, its norm, kv_b_proj back to every
 * head, and o_proj; attention_bias puts biases on q_a, kv_a and o. The cache keeps the
 * compressed latent and the rotary key: kv_lora_rank + qk_rope_head_dim values a token a
 * layer. Layer i has a mixture of experts when n_routed_experts is set, i is at least
 * first_k_dense_replace and a multiple of moe_layer_freq: a router (no bias; V3 adds a
 * 32-bit e_score_correction_bias), n_routed_experts experts of moe_intermediate_size, and
 * n_shared_experts folded into one block of n_shared_experts x that width. Other layers
 * have a dense block of intermediate_size. Untied by default. The multi-token-prediction
 * layers (num_nextn_predict_layers) that V3's checkpoint also stores are not counted:
 * inference does not use them. */
#include "families.h"

static const uint64_t CACHE_VALUE_BYTES = 2; /* lesson 18: the cache keeps 16-bit numbers */
static const uint64_t ONE = 1;

/* The classes' defaults: transformers' models/deepseek_v2/configuration_deepseek_v2.py
 * (DeepseekV2Config) and models/deepseek_v3/configuration_deepseek_v3.py (DeepseekV3Config),
 * at commit 008e5743. SIZES: intermediate_size, kv_lora_rank, qk_nope_head_dim,
 * qk_rope_head_dim, v_head_dim, q_lora_rank (absent: 1536; null: no compression of q),
 * n_routed_experts, num_experts_per_tok (DeepseekV2Config's is None: required),
 * moe_intermediate_size, first_k_dense_replace, n_shared_experts. */
static const gs_class_defaults V2 = {32000, 4096, 32, 32, 0, 1}, V3 = {129280, 7168, 61, 128, 128, 1};
static const uint64_t V2_SIZES[] = {11008, 512, 128, 64, 128, 1536, 64, 0, 1407, 0, 2};
static const uint64_t V3_SIZES[] = {18432, 512, 128, 64, 128, 1536, 256, 8, 2048, 3, 1};

static int count(const gs_config *c, gs_tally *t, gs_model *m, int v3) {
  uint64_t dense_width, expert_width = 0, q_rank = 0, kv_rank, nope, rope, v_dim, first_dense = 0, freq = 1, shared = 0, moe = 0;
  uint64_t q_width, mtp;
  const uint64_t *d = v3 ? V3_SIZES : V2_SIZES;
  /* a key the class defaults and the config leaves out counts as given; a null as none */
  int rc, attention_bias, topk, routed = gs_config_has(c, "n_routed_experts") || (c->classed && gs_config_absent(c, "n_routed_experts"));
  int compressed_q = gs_config_has(c, "q_lora_rank") || (c->classed && gs_config_absent(c, "q_lora_rank"));
  if ((rc = gs_decoder_read(c, v3 ? &V3 : &V2, m)) != GS_OK || (rc = gs_config_class(c, "intermediate_size", d[0], &dense_width)) != GS_OK ||
      (rc = gs_config_class(c, "kv_lora_rank", d[1], &kv_rank)) != GS_OK ||
      (rc = gs_config_class(c, "qk_nope_head_dim", d[2], &nope)) != GS_OK ||
      (rc = gs_config_class(c, "qk_rope_head_dim", d[3], &rope)) != GS_OK ||
      (rc = gs_config_class(c, "v_head_dim", d[4], &v_dim)) != GS_OK ||
      (rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK ||
      (compressed_q && (rc = gs_config_class(c, "q_lora_rank", d[5], &q_rank)) != GS_OK))
    return rc;
  if (routed && ((rc = gs_config_class(c, "n_routed_experts", d[6], &m->experts)) != GS_OK ||
                 (rc = (d[7] ? gs_config_class(c, "num_experts_per_tok", d[7], &m->experts_per_token)
                             : gs_config_count(c, "num_experts_per_tok", NULL, &m->experts_per_token))) != GS_OK ||
                 (rc = gs_config_class(c, "moe_intermediate_size", d[8], &expert_width)) != GS_OK ||
                 (rc = gs_config_whole(c, "first_k_dense_replace", c->classed ? d[9] : 0, &first_dense)) != GS_OK ||
                 (rc = gs_config_count(c, "moe_layer_freq", &ONE, &freq)) != GS_OK ||
                 (rc = gs_config_whole(c, "n_shared_experts", c->classed ? d[10] : 0, &shared)) != GS_OK))
    return rc;
  topk = gs_json_find(c->json, c->object, "topk_method");
  if (!v3 && topk >= 0 && gs_json_string_is(c->json, topk, "noaux_tc"))
    return gs_config_refuse(c, "topk_method", "noaux_tc on deepseek_v2 adds a correction bias the reader does not count");
  /* the multiples of freq from first_dense up to the last layer, counted without a loop:
   * ceil(layers / freq) of them below layers, less the ceil(first_dense / freq) below first_dense */
  if (routed && first_dense < m->layers) moe = (m->layers + freq - 1) / freq - (first_dense + freq - 1) / freq;
  m->kv_heads = m->heads;
  m->head_dim = v_dim;
  q_width = gs_tally_mul(t, m->heads, nope + rope);
  if (q_rank == 0) {
    gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, q_width, m->hidden);
  } else {
    gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, q_rank, m->hidden);
    if (attention_bias) gs_tally_vector(t, GS_PART_NORM, m->layers, q_rank);
    gs_tally_vector(t, GS_PART_NORM, m->layers, q_rank);
    gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, q_width, q_rank);
  }
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, kv_rank + rope, m->hidden);
  if (attention_bias) gs_tally_vector(t, GS_PART_NORM, m->layers, kv_rank + rope);
  gs_tally_vector(t, GS_PART_NORM, m->layers, kv_rank);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, gs_tally_mul(t, m->heads, nope + v_dim), kv_rank);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, m->hidden, gs_tally_mul(t, m->heads, v_dim));
  if (attention_bias) gs_tally_vector(t, GS_PART_NORM, m->layers, m->hidden);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers - moe, m->hidden, dense_width, 0);
  m->ffn_width = moe < m->layers ? dense_width : 0;
  if (moe > 0) {
    uint64_t moe_width = gs_tally_mul(t, m->experts_per_token + shared, expert_width);
    gs_tally_matrix(t, GS_PART_ROUTER, moe, m->experts, m->hidden);
    if (v3) gs_tally_vector_fp32(t, moe, m->experts);
    gs_decoder_mlp(t, GS_PART_EXPERT, gs_tally_mul(t, moe, m->experts), m->hidden, expert_width, 0);
    if (shared) gs_decoder_mlp(t, GS_PART_MLP, moe, m->hidden, gs_tally_mul(t, shared, expert_width), 0);
    if (moe_width > m->ffn_width) m->ffn_width = moe_width;
    m->moe_layers = moe;
  } else {
    m->experts = m->experts_per_token = 0;
  }
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  if (!gs_mul(gs_tally_mul(t, m->layers, kv_rank + rope), CACHE_VALUE_BYTES, &m->cache_full_bytes))
    return gs_fail(c->err, GS_ERR_OVERFLOW, "kv_lora_rank", "the attention cache's bytes would overflow 64 bits");
  m->cache_latent = 1;
  /* Kimi K2 stores none (num_nextn_predict_layers 0) */
  if ((rc = gs_config_whole(c, "num_nextn_predict_layers", 0, &mtp)) != GS_OK) return rc;
  if (mtp > 0)
    gs_format(m->note, sizeof m->note, "without the multi-token-prediction layers, which inference does not use");
  return GS_OK;
}

int gs_count_deepseek_v2(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 0); }
int gs_count_deepseek_v3(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 1); }
