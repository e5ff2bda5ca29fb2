/* The count function of each family (one file each in this folder), and what the
 * families share beyond families/decoder.c. */
#ifndef GPUSPLIT_FAMILIES_H
#define GPUSPLIT_FAMILIES_H

#include "internal.h"

int gs_count_llama(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_mistral(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_qwen2(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_qwen3(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_olmo2(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_phi3(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_gemma(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_gemma2(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_gemma3_text(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_gemma3(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_mixtral(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_qwen2_moe(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_qwen3_moe(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_deepseek_v2(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_deepseek_v3(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_gpt_oss(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_glm4_moe(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_kimi_k2(const gs_config *c, gs_tally *t, gs_model *m);
int gs_count_deepseek_v32(const gs_config *c, gs_tally *t, gs_model *m);

/* Qwen's sliding-window rule, shared by qwen.c and qwen_moe.c. */
int gs_qwen_cache(const gs_config *c, gs_model *m);

#endif
