/* Qwen2 and Qwen3 (transformers' modeling_qwen2.py, modeling_qwen3.py). Qwen2 puts biases
 * on q, k and v; Qwen3 instead has attention_bias (default false) on all four, a norm of
 * head_dim on q and on k in every layer, and head_dim 128 by default. Sliding windows:
 * layer_types when given; otherwise, with use_sliding_window, the layers from
 * max_window_layers on (Qwen2Config and Qwen3Config: default 28). Untied by default. */
#include "families.h"

/* transformers' models/qwen2/configuration_qwen2.py (Qwen2Config) and
 * models/qwen3/configuration_qwen3.py (Qwen3Config) at commit 008e5743: the same defaults,
 * but for Qwen3's head_dim of 128. Qwen2MoeConfig and Qwen3MoeConfig share the window's. */
static const gs_class_defaults QWEN2 = {151936, 4096, 32, 32, 32, 0}, QWEN3 = {151936, 4096, 32, 32, 32, 128};
static const uint64_t QWEN_WIDTH = 22016;
static const uint64_t MAX_WINDOW_LAYERS = 28;     /* Qwen2Config's and Qwen3Config's default */
static const uint64_t WINDOW = 4096;              /* their sliding_window, when the key is absent */

int gs_qwen_cache(const gs_config *c, gs_model *m) {
  uint64_t sliding = 0, window = 0, from;
  int present, use, rc;
  if ((rc = gs_config_layer_types(c, m->layers, &sliding, &present)) != GS_OK ||
      (rc = gs_config_bool(c, "use_sliding_window", 0, &use)) != GS_OK)
    return rc;
  if (!present && use && (gs_config_has(c, "sliding_window") || (c->classed && gs_config_absent(c, "sliding_window")))) {
    if ((rc = gs_config_whole(c, "max_window_layers", MAX_WINDOW_LAYERS, &from)) != GS_OK) return rc;
    sliding = from < m->layers ? m->layers - from : 0;
  }
  if (sliding && (rc = gs_config_class(c, "sliding_window", WINDOW, &window)) != GS_OK) return rc;
  return gs_decoder_cache(m, sliding, window, c->err);
}

static int count(const gs_config *c, gs_tally *t, gs_model *m, int qwen3) {
  int rc, attention_bias = 0;
  if ((rc = gs_decoder_read(c, qwen3 ? &QWEN3 : &QWEN2, m)) != GS_OK ||
      (rc = gs_config_class(c, "intermediate_size", QWEN_WIDTH, &m->ffn_width)) != GS_OK ||
      (qwen3 && (rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK))
    return rc;
  gs_decoder_attention(t, m, qwen3 ? attention_bias : 1, attention_bias);
  if (qwen3) gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->head_dim);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers, m->hidden, m->ffn_width, 0);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return gs_qwen_cache(c, m);
}

int gs_count_qwen2(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 0); }
int gs_count_qwen3(const gs_config *c, gs_tally *t, gs_model *m) { return count(c, t, m, 1); }
