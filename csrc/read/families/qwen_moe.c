/* Qwen2-MoE and Qwen3-MoE (transformers' modeling_qwen2_moe.py, modeling_qwen3_moe.py):
 * Qwen2's or Qwen3's attention, and a feed-forward block that is sparse in layer i when i
 * is not in mlp_only_layers and (i + 1) is a multiple of decoder_sparse_step: a router
 * (hidden -> num_experts, no bias) and num_experts gated experts of moe_intermediate_size,
 * num_experts_per_tok of them per token. Qwen2-MoE adds a shared expert of
 * shared_expert_intermediate_size and its one-output gate. Other layers have a dense block
 * of intermediate_size. Untied by default. */
#include "families.h"

/* transformers' models/qwen2_moe/configuration_qwen2_moe.py (Qwen2MoeConfig) and
 * models/qwen3_moe/configuration_qwen3_moe.py (Qwen3MoeConfig) at commit 008e5743. Neither
 * class has a head_dim; modeling_qwen3_moe.py takes getattr(config, "head_dim", hidden_size //
 * num_attention_heads). Fields: dense width, expert width, experts, experts a word,
 * shared expert width (Qwen2-MoE only). */
static const gs_class_defaults QWEN2_MOE = {151936, 2048, 24, 16, 16, 0}, QWEN3_MOE = {151936, 2048, 24, 32, 4, 0};
static const uint64_t QWEN2_MOE_SIZES[] = {5632, 1408, 60, 4, 5632}, QWEN3_MOE_SIZES[] = {6144, 768, 128, 8, 0};
static const uint64_t ONE = 1;

static int count(const gs_config *c, gs_tally *t, gs_model *m, int qwen3) {
  uint64_t dense_width, expert_width, shared_width = 0, step, sparse = 0, i;
  unsigned char only[GS_MAX_LISTED_LAYERS];
  int rc, attention_bias = 0, sliding = 0;
  const uint64_t *d = qwen3 ? QWEN3_MOE_SIZES : QWEN2_MOE_SIZES;
  if ((rc = gs_decoder_read(c, qwen3 ? &QWEN3_MOE : &QWEN2_MOE, m)) != GS_OK ||
      (rc = gs_config_class(c, "intermediate_size", d[0], &dense_width)) != GS_OK ||
      (rc = gs_config_class(c, "moe_intermediate_size", d[1], &expert_width)) != GS_OK ||
      (rc = gs_config_class(c, "num_experts", d[2], &m->experts)) != GS_OK ||
      (rc = gs_config_class(c, "num_experts_per_tok", d[3], &m->experts_per_token)) != GS_OK ||
      (rc = gs_config_count(c, "decoder_sparse_step", &ONE, &step)) != GS_OK ||
      (rc = gs_config_layer_flags(c, "mlp_only_layers", m->layers, only, sizeof only)) != GS_OK ||
      (qwen3 && (rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK) ||
      (!qwen3 && (rc = gs_config_class(c, "shared_expert_intermediate_size", d[4], &shared_width)) != GS_OK))
    return rc;
  for (i = 0; i < m->layers; i++)
    if ((i + 1) % step == 0 && !only[i]) sparse++;
  if (!gs_config_has(c, "layer_types") && (rc = gs_config_bool(c, "use_sliding_window", 0, &sliding)) != GS_OK) return rc;
  if (sliding)
    return gs_config_refuse(c, "use_sliding_window", "true without layer_types: which layers of a mixture of experts slide is not counted");
  gs_decoder_attention(t, m, qwen3 ? attention_bias : 1, attention_bias);
  if (qwen3) gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->head_dim);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers - sparse, m->hidden, dense_width, 0);
  gs_tally_matrix(t, GS_PART_ROUTER, sparse, m->experts, m->hidden);
  gs_decoder_mlp(t, GS_PART_EXPERT, gs_tally_mul(t, sparse, m->experts), m->hidden, expert_width, 0);
  if (!qwen3) {
    gs_decoder_mlp(t, GS_PART_MLP, sparse, m->hidden, shared_width, 0);
    gs_tally_matrix(t, GS_PART_ROUTER, sparse, 1, m->hidden);
  }
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  if (!gs_add(gs_tally_mul(t, m->experts_per_token, expert_width), shared_width, &m->ffn_width))
    return gs_fail(c->err, GS_ERR_OVERFLOW, "moe_intermediate_size", "the feed-forward width would overflow 64 bits");
  if (sparse < m->layers && dense_width > m->ffn_width) m->ffn_width = dense_width;
  if (sparse == 0) m->experts = m->experts_per_token = 0;
  m->moe_layers = sparse;
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return gs_qwen_cache(c, m);
}

int gs_count_qwen2_moe(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 0); }
int gs_count_qwen3_moe(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 1); }
