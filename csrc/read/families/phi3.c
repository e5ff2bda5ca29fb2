/* Phi-3 (transformers' modeling_phi3.py): one fused qkv_proj of heads + 2 x kv_heads head
 * widths, o_proj, one fused gate_up_proj of twice the intermediate width, down_proj, two
 * norms a layer, no biases. sliding_window, when set, applies to every layer. Untied by
 * default. The fused matrices hold the same weights as separate ones. */
#include "families.h"

/* transformers' models/phi3/configuration_phi3.py (Phi3Config) at commit 008e5743:
 * sliding_window None. */
static const gs_class_defaults PHI3 = {32064, 3072, 32, 32, 0, 0};
static const uint64_t WIDTH = 8192;

int gs_count_phi3(const gs_config *c, gs_tally *t, gs_model *m) {
  int rc;
  uint64_t q, kv;
  if ((rc = gs_decoder_read(c, &PHI3, m)) != GS_OK ||
      (rc = gs_config_class(c, "intermediate_size", WIDTH, &m->ffn_width)) != GS_OK)
    return rc;
  q = gs_tally_mul(t, m->heads, m->head_dim);
  kv = gs_tally_mul(t, m->kv_heads, m->head_dim);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, q + 2 * kv, m->hidden);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, m->hidden, q);
  gs_tally_matrix(t, GS_PART_MLP, m->layers, 2 * m->ffn_width, m->hidden);
  gs_tally_matrix(t, GS_PART_MLP, m->layers, m->hidden, m->ffn_width);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->hidden);
  if ((rc = gs_decoder_tables(c, t, m, 0)) != GS_OK) return rc;
  return gs_decoder_cache_all_sliding(c, m);
}
