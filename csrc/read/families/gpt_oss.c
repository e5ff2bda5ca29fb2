/* gpt-oss (transformers' modeling_gpt_oss.py): q, k, v and o with biases (attention_bias,
 * default true), head_dim 64 by default, one attention sink per head a layer; a router
 * (hidden -> num_local_experts) with a bias; num_local_experts experts, each a fused
 * gate_up projection to twice intermediate_size and a down projection, both with biases;
 * num_experts_per_tok per token; two norms a layer. Every other layer slides over
 * sliding_window tokens (default 128) unless layer_types says. Untied by default. */
#include "families.h"

/* transformers' models/gpt_oss/configuration_gpt_oss.py (GptOssConfig) at commit 02b8f42b:
 * head_dim 64, 128 experts of width 2880, 4 a word, attention_bias true. */
static const gs_class_defaults GPT_OSS = {201088, 2880, 36, 64, 8, 64};
static const uint64_t WIDTH = 2880, EXPERTS = 128, EXPERTS_A_WORD = 4;
static const uint64_t WINDOW = 128;   /* GptOssConfig's sliding_window */

int gs_count_gpt_oss(const gs_config *c, gs_tally *t, gs_model *m) {
  uint64_t width, sliding, window = WINDOW;
  int rc, attention_bias, present;
  if ((rc = gs_decoder_read(c, &GPT_OSS, m)) != GS_OK || (rc = gs_config_class(c, "intermediate_size", WIDTH, &width)) != GS_OK ||
      (rc = gs_config_class(c, "num_local_experts", EXPERTS, &m->experts)) != GS_OK ||
      (rc = gs_config_class(c, "num_experts_per_tok", EXPERTS_A_WORD, &m->experts_per_token)) != GS_OK ||
      (rc = gs_config_bool(c, "attention_bias", 1, &attention_bias)) != GS_OK ||
      (rc = gs_config_layer_types(c, m->layers, &sliding, &present)) != GS_OK ||
      (rc = gs_config_count(c, "sliding_window", &window, &window)) != GS_OK)
    return rc;
  if (!present) sliding = (m->layers + 1) / 2;
  gs_decoder_attention(t, m, attention_bias, attention_bias);
  gs_tally_vector(t, GS_PART_NORM, m->layers, m->heads);
  gs_tally_matrix(t, GS_PART_ROUTER, m->layers, m->experts, m->hidden);
  gs_tally_vector(t, GS_PART_ROUTER, m->layers, m->experts);
  gs_decoder_mlp(t, GS_PART_EXPERT, gs_tally_mul(t, m->layers, m->experts), m->hidden, width, 1);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  m->ffn_width = gs_tally_mul(t, m->experts_per_token, width);
  m->moe_layers = m->layers;
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return gs_decoder_cache(m, sliding, window, c->err);
}
