/* The built-in models and hardware (the files in data/, embedded by scripts/embed_data.sh)
 * and the settings the lesson's widget offers. */
#include <string.h>

#include "internal.h"

extern const char GS_DATA_llama31_8b_config_json[];
extern const char GS_DATA_llama31_70b_config_json[];
extern const char GS_DATA_llama31_405b_shape_json[];
extern const char GS_DATA_gpu_json[];
extern const char GS_DATA_links_json[];

const gs_model_entry GS_MODELS[] = {
    {"8b", "8B", "llama31_8b_config.json", GS_DATA_llama31_8b_config_json},
    {"70b", "70B", "llama31_70b_config.json", GS_DATA_llama31_70b_config_json},
    {"405b", "405B", "llama31_405b_shape.json", GS_DATA_llama31_405b_shape_json},
};
const size_t GS_MODEL_COUNT = sizeof GS_MODELS / sizeof GS_MODELS[0];

const char *const GS_LINK_KEYS[] = {"fast", "slow"};
const size_t GS_LINK_COUNT = sizeof GS_LINK_KEYS / sizeof GS_LINK_KEYS[0];

/* The lesson's widget offers 1 to 16 GPUs: the A100 data sheet lists servers of up to 16
 * on its 600 GB/s link, and between servers the link is slower. */
const uint64_t GS_COUNTS[] = {1, 2, 4, 8, 16};
const size_t GS_COUNT_COUNT = sizeof GS_COUNTS / sizeof GS_COUNTS[0];

/* Words moving through the GPUs together: one user, or many users at once. */
const uint64_t GS_WORDS[] = {1, 16, 64};
const size_t GS_WORDS_COUNT = sizeof GS_WORDS / sizeof GS_WORDS[0];

int gs_builtin_model(const char *key, gs_shape *out, gs_error *err) {
  size_t i;
  for (i = 0; i < GS_MODEL_COUNT; i++)
    if (strcmp(GS_MODELS[i].key, key) == 0)
      return gs_shape_parse(GS_MODELS[i].json, strlen(GS_MODELS[i].json), out, err);
  return gs_fail(err, GS_ERR_UNKNOWN, "model", "no built-in model is called \"%s\" (8b, 70b, 405b)", key);
}

int gs_builtin_gpu(gs_gpu *out, gs_error *err) {
  return gs_gpu_parse(GS_DATA_gpu_json, strlen(GS_DATA_gpu_json), out, err);
}

int gs_builtin_link(const char *key, gs_link *out, char *label, size_t label_cap, gs_error *err) {
  return gs_link_parse(GS_DATA_links_json, strlen(GS_DATA_links_json), key, out, label, label_cap, err);
}
