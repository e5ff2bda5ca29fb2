/* Mixtral (transformers' modeling_mixtral.py): Mistral's attention, and in every layer a
 * router (hidden -> num_local_experts, no bias) and num_local_experts gated experts of
 * intermediate_size, of which num_experts_per_tok serve each token. Two norms a layer;
 * sliding_window, when set, on every layer. Untied by default. */
#include "families.h"

/* transformers' models/mixtral/configuration_mixtral.py (MixtralConfig) at commit 008e5743:
 * sliding_window None, 8 experts, 2 a word. */
static const gs_class_defaults MIXTRAL = {32000, 4096, 32, 32, 8, 0};
static const uint64_t WIDTH = 14336, EXPERTS = 8, EXPERTS_A_WORD = 2;

int gs_count_mixtral(const gs_config *c, gs_tally *t, gs_model *m) {
  uint64_t width;
  int rc;
  if ((rc = gs_decoder_read(c, &MIXTRAL, m)) != GS_OK || (rc = gs_config_class(c, "intermediate_size", WIDTH, &width)) != GS_OK ||
      (rc = gs_config_class(c, "num_local_experts", EXPERTS, &m->experts)) != GS_OK ||
      (rc = gs_config_class(c, "num_experts_per_tok", EXPERTS_A_WORD, &m->experts_per_token)) != GS_OK)
    return rc;
  gs_decoder_attention(t, m, 0, 0);
  gs_tally_matrix(t, GS_PART_ROUTER, m->layers, m->experts, m->hidden);
  gs_decoder_mlp(t, GS_PART_EXPERT, gs_tally_mul(t, m->layers, m->experts), m->hidden, width, 0);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  m->ffn_width = gs_tally_mul(t, m->experts_per_token, width);
  m->moe_layers = m->layers;
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return gs_decoder_cache_all_sliding(c, m);
}
