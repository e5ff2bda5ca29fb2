/* The families the reader counts, by model_type. To add a family: a file in this folder
 * with its count function (its tensors as transformers' modeling file builds them, its
 * defaults as the configuration class gives them), its line in families.h and here, its
 * config.json and published total in data/models/ (catalogue.json), and a test in
 * tests/c/test_families.c that counts it to that total. */
#include "families.h"


#define MXFP4 (1u << GS_STORE_MXFP4)
#define FP8 (1u << GS_STORE_FP8_BLOCK)
/* The width of a block's scale (weight_scale_inv), which no config states. DeepSeek's FP8
 * checkpoints store it as a float32 tensor (DeepSeek-V3's README_WEIGHTS.md, "FP8 Weight
 * Documentation"), and the Hub counts DeepSeek-V3's scales as F32 (tests/c/test_families.c).
 * Qwen's FP8 releases store it as BF16: the Hub counts Qwen3-32B-FP8 as 31,205,621,760
 * F8_E4M3 and 1,558,406,144 BF16 values and no F32 ones, and that BF16 count is exactly its
 * 16-bit weights plus one scale a 128 x 128 block (data/models/catalogue.json). */
#define SCALE_F32 32
#define SCALE_BF16 16

/* The lesson's widget carries a leaner module that counts Llama only (-DGS_LESSON_ONLY):
 * its three models are Llama's, and its size is part of the page's budget. */
const gs_family GS_FAMILIES[] = {
    {"llama", gs_count_llama, 0, 0},
#ifndef GS_LESSON_ONLY
    {"mistral", gs_count_mistral, 0, 0},
    {"qwen2", gs_count_qwen2, 0, 0},
    {"qwen3", gs_count_qwen3, FP8, SCALE_BF16},
    {"olmo2", gs_count_olmo2, 0, 0},
    {"phi3", gs_count_phi3, 0, 0},
    {"gemma", gs_count_gemma, 0, 0},
    {"gemma2", gs_count_gemma2, 0, 0},
    {"gemma3_text", gs_count_gemma3_text, 0, 0},
    {"gemma3", gs_count_gemma3, 0, 0},
    {"mixtral", gs_count_mixtral, 0, 0},
    {"qwen2_moe", gs_count_qwen2_moe, 0, 0},
    {"qwen3_moe", gs_count_qwen3_moe, FP8, SCALE_BF16},
    {"deepseek_v2", gs_count_deepseek_v2, FP8, SCALE_F32},
    {"deepseek_v3", gs_count_deepseek_v3, FP8, SCALE_F32},
    {"gpt_oss", gs_count_gpt_oss, MXFP4, 0},
    {"glm4_moe", gs_count_glm4_moe, FP8, SCALE_F32},
    {"kimi_k2", gs_count_kimi_k2, FP8, SCALE_F32},
    {"deepseek_v32", gs_count_deepseek_v32, FP8, SCALE_F32},
#endif
};
const size_t GS_FAMILY_COUNT = sizeof GS_FAMILIES / sizeof GS_FAMILIES[0];
