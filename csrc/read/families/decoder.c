/* The parts most decoder-only transformers share, as transformers' modeling files build
 * them: the keys every config has, the q/k/v/o projections, a gated feed-forward block
 * (gate, up and down), the tables, and the grouped-heads attention cache. */
#include "internal.h"

static const uint64_t CACHE_VALUE_BYTES = 2; /* lesson 18: the attention cache keeps 16-bit numbers */

int gs_decoder_read(const gs_config *c, const gs_class_defaults *d, gs_model *m) {
  uint64_t kv_default, head_dim_default = d->head_dim;
  int rc;
  if ((rc = gs_config_class(c, "hidden_size", d->hidden, &m->hidden)) != GS_OK ||
      (rc = gs_config_class(c, "num_hidden_layers", d->layers, &m->layers)) != GS_OK ||
      (rc = gs_config_class(c, "num_attention_heads", d->heads, &m->heads)) != GS_OK ||
      (rc = gs_config_class(c, "vocab_size", d->vocab, &m->vocab)) != GS_OK)
    return rc;
  kv_default = c->classed && d->kv_heads ? d->kv_heads : m->heads;
  if ((rc = gs_config_count(c, "num_key_value_heads", &kv_default, &m->kv_heads)) != GS_OK) return rc;
  if (head_dim_default == 0) {
    if (m->hidden % m->heads != 0 && !gs_config_has(c, "head_dim"))
      return gs_fail(c->err, GS_ERR_SHAPE, "hidden_size", "%llu is not a multiple of num_attention_heads %llu, and head_dim is not given",
                     (unsigned long long)m->hidden, (unsigned long long)m->heads);
    head_dim_default = m->hidden / m->heads;
  }
  if ((rc = gs_config_count(c, "head_dim", &head_dim_default, &m->head_dim)) != GS_OK) return rc;
  m->ffn_width = 0;
  return GS_OK;
}

int gs_decoder_tables(const gs_config *c, gs_tally *t, const gs_model *m, int tied_default) {
  int tied, rc = gs_config_bool(c, "tie_word_embeddings", tied_default, &tied);
  if (rc != GS_OK) return rc;
  gs_tally_matrix(t, GS_PART_TABLE, tied ? 1 : 2, m->vocab, m->hidden);
  gs_tally_vector(t, GS_PART_NORM, 1, m->hidden);
  return GS_OK;
}

void gs_decoder_attention(gs_tally *t, const gs_model *m, int qkv_bias, int o_bias) {
  uint64_t q = gs_tally_mul(t, m->heads, m->head_dim), kv = gs_tally_mul(t, m->kv_heads, m->head_dim);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, q, m->hidden);
  gs_tally_matrix(t, GS_PART_ATTENTION, 2 * m->layers, kv, m->hidden);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, m->hidden, q);
  if (qkv_bias) {
    gs_tally_vector(t, GS_PART_NORM, m->layers, q);
    gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, kv);
  }
  if (o_bias) gs_tally_vector(t, GS_PART_NORM, m->layers, m->hidden);
}

void gs_decoder_mlp(gs_tally *t, int part, uint64_t copies, uint64_t hidden, uint64_t width, int bias) {
  gs_tally_matrix(t, part, 2 * copies, width, hidden);
  gs_tally_matrix(t, part, copies, hidden, width);
  if (bias) {
    gs_tally_vector(t, part == GS_PART_EXPERT ? part : GS_PART_NORM, 2 * copies, width);
    gs_tally_vector(t, part == GS_PART_EXPERT ? part : GS_PART_NORM, copies, hidden);
  }
}

/* A key and a value vector per key/value head for each token (lesson 18). */
int gs_decoder_cache(gs_model *m, uint64_t sliding, uint64_t window, gs_error *err) {
  uint64_t per_layer;
  if (!gs_mul(2 * CACHE_VALUE_BYTES, m->kv_heads, &per_layer) || !gs_mul(per_layer, m->head_dim, &per_layer) ||
      !gs_mul(per_layer, m->layers - sliding, &m->cache_full_bytes) || !gs_mul(per_layer, sliding, &m->cache_window_bytes))
    return gs_fail(err, GS_ERR_OVERFLOW, "config", "the attention cache's bytes would overflow 64 bits");
  m->window = sliding ? window : 0;
  return GS_OK;
}

int gs_decoder_cache_all_sliding(const gs_config *c, gs_model *m) {
  uint64_t window = 0;
  int rc;
  if (gs_config_has(c, "sliding_window") && (rc = gs_config_count(c, "sliding_window", NULL, &window)) != GS_OK) return rc;
  return gs_decoder_cache(m, window ? m->layers : 0, window, c->err);
}
