/* Llama and Mistral (transformers' modeling_llama.py, modeling_mistral.py): q, k, v and o
 * projections of heads x head_dim (head_dim may differ from hidden / heads, as in
 * Mistral-Nemo), a gated feed-forward block, two norms a layer. Llama's attention_bias puts
 * a bias on all four projections and mlp_bias on the three feed-forward ones; Mistral has
 * neither, and slides every layer when sliding_window is set. Untied by default. */
#include "families.h"

static int count(const gs_config *c, gs_tally *t, gs_model *m, int is_llama) {
  int rc, attention_bias = 0, mlp_bias = 0;
  if ((rc = gs_decoder_read(c, 0, m)) != GS_OK ||
      (rc = gs_config_count(c, "intermediate_size", NULL, &m->ffn_width)) != GS_OK)
    return rc;
  if (is_llama && ((rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK ||
                   (rc = gs_config_bool(c, "mlp_bias", 0, &mlp_bias)) != GS_OK))
    return rc;
  gs_decoder_attention(t, m, attention_bias, attention_bias);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers, m->hidden, m->ffn_width, mlp_bias);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return is_llama ? gs_decoder_cache(m, 0, 0, c->err) : gs_decoder_cache_all_sliding(c, m);
}

int gs_count_llama(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 1); }
int gs_count_mistral(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 0); }
