/* Kimi K2 (moonshotai/Kimi-K2-Instruct and its tunes): its config.json names model_type
 * "kimi_k2" but maps AutoConfig and AutoModelForCausalLM to its own copies of DeepSeek-V3's
 * configuration_deepseek.DeepseekV3Config and modeling_deepseek.DeepseekV3ForCausalLM
 * (its "auto_map" and "architectures"), so its tensors are DeepSeek-V3's at Kimi's sizes:
 * 384 routed experts, 64 heads, one dense layer (deepseek.c counts them). That copy's
 * defaults for keys a config leaves out are DeepSeek-V3's, which deepseek.c applies. */
#include "families.h"

int gs_count_kimi_k2(const gs_config *c, gs_tally *t, gs_model *m) { return gs_count_deepseek_v3(c, t, m); }
