/* OLMo 2 (transformers' modeling_olmo2.py): Llama's projections (attention_bias, default
 * false, on all four), a norm over the full q width and one over the full k width in every
 * layer, and two norms a layer after attention and after the feed-forward block. Untied by
 * default. */
#include "families.h"

/* transformers' models/olmo2/configuration_olmo2.py (Olmo2Config) at commit 008e5743. */
static const gs_class_defaults OLMO2 = {50304, 4096, 32, 32, 0, 0};
static const uint64_t WIDTH = 11008;

int gs_count_olmo2(const gs_config *c, gs_tally *t, gs_model *m) {
  int rc, attention_bias = 0;
  if ((rc = gs_decoder_read(c, &OLMO2, m)) != GS_OK ||
      (rc = gs_config_class(c, "intermediate_size", WIDTH, &m->ffn_width)) != GS_OK ||
      (rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK)
    return rc;
  gs_decoder_attention(t, m, attention_bias, attention_bias);
  gs_tally_vector(t, GS_PART_NORM, m->layers, gs_tally_mul(t, m->heads, m->head_dim));
  gs_tally_vector(t, GS_PART_NORM, m->layers, gs_tally_mul(t, m->kv_heads, m->head_dim));
  gs_decoder_mlp(t, GS_PART_MLP, m->layers, m->hidden, m->ffn_width, 0);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return gs_decoder_cache(m, 0, 0, c->err);
}
