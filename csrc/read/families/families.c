/* The families the reader counts, by model_type. To add a family: a file in this folder
 * with its count function (its tensors as transformers' modeling file builds them, its
 * defaults as the configuration class gives them), its line in families.h and here, its
 * config.json and published total in data/models/ (catalogue.json), and a test in
 * tests/c/test_families.c that counts it to that total. */
#include "families.h"


#define MXFP4 (1u << GS_STORE_MXFP4)
#define FP8 (1u << GS_STORE_FP8_BLOCK)

/* The lesson's widget carries a leaner module that counts Llama only (-DGS_LESSON_ONLY):
 * its three models are Llama's, and its size is part of the page's budget. */
const gs_family GS_FAMILIES[] = {
    {"llama", gs_count_llama, 0},
#ifndef GS_LESSON_ONLY
    {"mistral", gs_count_mistral, 0},
    {"qwen2", gs_count_qwen2, 0},
    {"qwen3", gs_count_qwen3, 0},
    {"olmo2", gs_count_olmo2, 0},
    {"phi3", gs_count_phi3, 0},
    {"gemma", gs_count_gemma, 0},
    {"gemma2", gs_count_gemma2, 0},
    {"gemma3_text", gs_count_gemma3_text, 0},
    {"gemma3", gs_count_gemma3, 0},
    {"mixtral", gs_count_mixtral, 0},
    {"qwen2_moe", gs_count_qwen2_moe, 0},
    {"qwen3_moe", gs_count_qwen3_moe, 0},
    {"deepseek_v2", gs_count_deepseek_v2, FP8},
    {"deepseek_v3", gs_count_deepseek_v3, FP8},
    {"gpt_oss", gs_count_gpt_oss, MXFP4},
    {"glm4_moe", gs_count_glm4_moe, FP8},
    {"kimi_k2", gs_count_kimi_k2, FP8},
    {"deepseek_v32", gs_count_deepseek_v32, FP8},
#endif
};
const size_t GS_FAMILY_COUNT = sizeof GS_FAMILIES / sizeof GS_FAMILIES[0];
