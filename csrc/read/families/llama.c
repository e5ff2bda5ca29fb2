/* Llama and Mistral (transformers' modeling_llama.py, modeling_mistral.py): q, k, v and o
 * projections of heads x head_dim (head_dim may differ from hidden / heads, as in
 * Mistral-Nemo), a gated feed-forward block, two norms a layer. Llama's attention_bias puts
 * a bias on all four projections and mlp_bias on the three feed-forward ones; Mistral has
 * neither, and slides every layer when sliding_window is set. Untied by default. */
#include "families.h"

/* The classes' defaults: transformers' models/llama/configuration_llama.py (LlamaConfig) and
 * models/mistral/configuration_mistral.py (MistralConfig), at commit 008e5743 and 001f85b3. */
static const gs_class_defaults LLAMA = {32000, 4096, 32, 32, 0, 0}, MISTRAL = {32000, 4096, 32, 32, 8, 0};
static const uint64_t LLAMA_WIDTH = 11008, MISTRAL_WIDTH = 14336, MISTRAL_WINDOW = 4096;

/* MistralConfig's sliding_window is 4096 when the key is absent; null means none. */
static int mistral_cache(const gs_config *c, gs_model *m) {
  if (c->classed && gs_config_absent(c, "sliding_window")) return gs_decoder_cache(m, m->layers, MISTRAL_WINDOW, c->err);
  return gs_decoder_cache_all_sliding(c, m);
}

static int count(const gs_config *c, gs_tally *t, gs_model *m, int is_llama) {
  int rc, attention_bias = 0, mlp_bias = 0;
  if ((rc = gs_decoder_read(c, is_llama ? &LLAMA : &MISTRAL, m)) != GS_OK ||
      (rc = gs_config_class(c, "intermediate_size", is_llama ? LLAMA_WIDTH : MISTRAL_WIDTH, &m->ffn_width)) != GS_OK)
    return rc;
  if (is_llama && ((rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK ||
                   (rc = gs_config_bool(c, "mlp_bias", 0, &mlp_bias)) != GS_OK))
    return rc;
  gs_decoder_attention(t, m, attention_bias, attention_bias);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers, m->hidden, m->ffn_width, mlp_bias);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return is_llama ? gs_decoder_cache(m, 0, 0, c->err) : mistral_cache(c, m);
}

int gs_count_llama(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 1); }
int gs_count_mistral(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 0); }
