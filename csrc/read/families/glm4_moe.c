/* GLM-4.5, 4.6 and 4.7 (transformers' modeling_glm4_moe.py): grouped-query attention with
 * head_dim-wide heads, q, k and v biased when attention_bias is set (o_proj never is), and
 * a query and a key norm of head_dim when use_qk_norm is set. Layer i has a dense block of
 * intermediate_size while i < first_k_dense_replace, and a mixture of experts after: a
 * router (n_routed_experts x hidden, no bias) with its e_score_correction_bias,
 * n_routed_experts experts of moe_intermediate_size, num_experts_per_tok of them a token, and
 * n_shared_experts folded into one block of n_shared_experts x that width. Two norms a
 * layer; untied by default. The multi-token-prediction layers (num_nextn_predict_layers)
 * that the checkpoints also store are not counted: inference does not use them, as for
 * DeepSeek-V3 (deepseek.c). */
#include "families.h"

/* transformers' models/glm4_moe/configuration_glm4_moe.py (Glm4MoeConfig) at commit
 * c7ec229a: vocab 151552, hidden 4096, 46 layers, 96 heads, 8 key/value heads; the class has
 * no head_dim, and the model takes hidden_size / num_attention_heads when the config has
 * none (4096 / 96 is no whole number, so such a config is refused by gs_decoder_read).
 * SIZES: intermediate_size, moe_intermediate_size, n_routed_experts, num_experts_per_tok,
 * n_shared_experts, first_k_dense_replace. */
static const gs_class_defaults GLM4_MOE = {151552, 4096, 46, 96, 8, 0};
static const uint64_t SIZES[] = {10944, 1408, 128, 8, 1, 1};

int gs_count_glm4_moe(const gs_config *c, gs_tally *t, gs_model *m) {
  uint64_t dense_width, expert_width, shared, first_dense, moe, moe_width, mtp;
  int rc, attention_bias, qk_norm;
  if ((rc = gs_decoder_read(c, &GLM4_MOE, m)) != GS_OK || (rc = gs_config_class(c, "intermediate_size", SIZES[0], &dense_width)) != GS_OK ||
      (rc = gs_config_class(c, "moe_intermediate_size", SIZES[1], &expert_width)) != GS_OK ||
      (rc = gs_config_class(c, "n_routed_experts", SIZES[2], &m->experts)) != GS_OK ||
      (rc = gs_config_class(c, "num_experts_per_tok", SIZES[3], &m->experts_per_token)) != GS_OK ||
      (rc = gs_config_whole(c, "n_shared_experts", SIZES[4], &shared)) != GS_OK ||
      (rc = gs_config_whole(c, "first_k_dense_replace", SIZES[5], &first_dense)) != GS_OK ||
      (rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK || (rc = gs_config_bool(c, "use_qk_norm", 0, &qk_norm)) != GS_OK)
    return rc;
  moe = first_dense < m->layers ? m->layers - first_dense : 0;
  gs_decoder_attention(t, m, attention_bias, 0);
  if (qk_norm) gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->head_dim);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers - moe, m->hidden, dense_width, 0);
  m->ffn_width = moe < m->layers ? dense_width : 0;
  if (moe > 0) {
    gs_tally_matrix(t, GS_PART_ROUTER, moe, m->experts, m->hidden);
    gs_tally_vector_fp32(t, moe, m->experts); /* e_score_correction_bias, a buffer the checkpoint stores */
    gs_decoder_mlp(t, GS_PART_EXPERT, gs_tally_mul(t, moe, m->experts), m->hidden, expert_width, 0);
    if (shared) gs_decoder_mlp(t, GS_PART_MLP, moe, m->hidden, gs_tally_mul(t, shared, expert_width), 0);
    moe_width = gs_tally_mul(t, m->experts_per_token + shared, expert_width);
    if (moe_width > m->ffn_width) m->ffn_width = moe_width;
    m->moe_layers = moe;
  } else {
    m->experts = m->experts_per_token = 0;
  }
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK || (rc = gs_config_whole(c, "num_nextn_predict_layers", 0, &mtp)) != GS_OK)
    return rc;
  if (mtp > 0)
    gs_format(m->note, sizeof m->note, "without the multi-token-prediction layers, which inference does not use");
  return gs_decoder_cache(m, 0, 0, c->err);
}
