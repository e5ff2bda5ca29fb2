/* DeepSeek-V3.2 and V3.2-Exp (deepseek-ai/DeepSeek-V3.2-Exp, inference/model.py): DeepSeek-V3
 * (deepseek.c) with DeepSeek Sparse Attention. Each layer adds a lightning indexer that
 * scores every earlier token and lets attention read only the index_topk best: wq_b
 * (q_lora_rank -> index_n_heads x index_head_dim) and wk (hidden -> index_head_dim), block
 * FP8 in the checkpoint like the other projections; k_norm, a LayerNorm of index_head_dim
 * (weight and bias); and weights_proj (hidden -> index_n_heads), which the reference
 * notes "in the checkpoint is stored in bf16". The indexer keeps its own key of
 * index_head_dim for every token beside MLA's latent, held and read like the rest of the
 * cache (at the plan's cache bits; the reference keeps it in FP8 with a scale per 128
 * values, which --cache-bits 8 comes near). A step reads every token's indexer key and the
 * latent of at most index_topk tokens (gs_plan_cache_read_bytes). */
#include <string.h>

#include "families.h"

/* lmdeploy's DeepseekV32Config (DeepseekV3Config with index_head_dim 128, index_n_heads 64
 * and index_topk 2048), as the V3.2 configs give them; q_lora_rank as DeepseekV3Config. */
static const uint64_t INDEX_HEAD_DIM = 128, INDEX_HEADS = 64, INDEX_TOPK = 2048, Q_RANK = 1536;
static const uint64_t CACHE_VALUE_BYTES = 2; /* lesson 18: the cache keeps 16-bit numbers */

int gs_count_deepseek_v32(const gs_config *c, gs_tally *t, gs_model *m) {
  uint64_t head_dim, heads, topk, q_rank, keys;
  char prior[sizeof m->note];
  int rc;
  if ((rc = gs_count_deepseek_v3(c, t, m)) != GS_OK || (rc = gs_config_class(c, "index_head_dim", INDEX_HEAD_DIM, &head_dim)) != GS_OK ||
      (rc = gs_config_class(c, "index_n_heads", INDEX_HEADS, &heads)) != GS_OK ||
      (rc = gs_config_class(c, "index_topk", INDEX_TOPK, &topk)) != GS_OK)
    return rc;
  if (!gs_config_has(c, "q_lora_rank") && !(c->classed && gs_config_absent(c, "q_lora_rank")))
    return gs_config_refuse(c, "q_lora_rank", "null: the indexer's queries come from the compressed q, which this config has not");
  if ((rc = gs_config_class(c, "q_lora_rank", Q_RANK, &q_rank)) != GS_OK) return rc;
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, gs_tally_mul(t, heads, head_dim), q_rank);
  gs_tally_matrix(t, GS_PART_ATTENTION, m->layers, head_dim, m->hidden);
  gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, head_dim);
  gs_tally_matrix(t, GS_PART_ROUTER, m->layers, heads, m->hidden); /* 16-bit as stored, read every step */
  if (!gs_mul(gs_tally_mul(t, m->layers, head_dim), CACHE_VALUE_BYTES, &keys) || !gs_add(m->cache_full_bytes, keys, &m->cache_full_bytes))
    return gs_fail(c->err, GS_ERR_OVERFLOW, "index_head_dim", "the attention cache's bytes would overflow 64 bits");
  m->cache_index_bytes = keys;
  m->read_topk = topk;
  /* the report says how its cache is read ("Counted ..."), beside what the count leaves out */
  memcpy(prior, m->note, sizeof prior);
  gs_format(m->note, sizeof m->note, "%s%swith sparse attention: a step reads every token's indexer key and %llu tokens' latent",
            prior, prior[0] ? "; " : "", (unsigned long long)topk);
  return GS_OK;
}
