/* The built-in models and hardware (the files in data/, embedded by scripts/embed_data.sh)
 * and the settings the lesson's widget offers. */
#include <string.h>

#include "internal.h"

#ifndef GS_LESSON_TABLES
extern const char GS_DATA_gpus_json[];
extern const char GS_DATA_links_json[];
#endif

const char *const GS_LINK_KEYS[] = {"fast", "slow"};
const size_t GS_LINK_COUNT = sizeof GS_LINK_KEYS / sizeof GS_LINK_KEYS[0];

/* The lesson's widget offers 1 to 16 GPUs: the A100 data sheet lists servers of up to 16
 * on its 600 GB/s link, and between servers the link is slower. */
const uint64_t GS_COUNTS[] = {1, 2, 4, 8, 16};
const size_t GS_COUNT_COUNT = sizeof GS_COUNTS / sizeof GS_COUNTS[0];

/* Words moving through the GPUs together: one user, or many users at once. */
const uint64_t GS_WORDS[] = {1, 16, 64};
const size_t GS_WORDS_COUNT = sizeof GS_WORDS / sizeof GS_WORDS[0];

/* ASCII letters compared without case: a model is found by the key, the name the report
 * prints or its Hugging Face repository ("70b", "70B", "meta-llama/Llama-3.1-70B"). */
static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = (*a >= 'A' && *a <= 'Z') ? (char)(*a - 'A' + 'a') : *a, y = (*b >= 'A' && *b <= 'Z') ? (char)(*b - 'A' + 'a') : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

const gs_model_entry *gs_find_model(const char *name) {
  size_t i;
  for (i = 0; i < GS_MODEL_COUNT; i++)
    if (same_name(GS_MODELS[i].key, name) || same_name(GS_MODELS[i].name, name) ||
        (GS_MODELS[i].model[0] && same_name(GS_MODELS[i].model, name)))
      return &GS_MODELS[i];
  return NULL;
}

/* The lesson's module (-DGS_LESSON_TABLES) has these from build/lesson_tables.c,
 * derived at build time by this reader (scripts/lesson_tables.c). */
#ifndef GS_LESSON_TABLES
int gs_builtin_model(const char *key, uint64_t bits, gs_model *out, gs_error *err) {
  const gs_model_entry *e = gs_find_model(key);
  char names[400];
  size_t i, at = 0;
  if (e) return gs_model_parse(e->json, strlen(e->json), bits, out, err);
  names[0] = '\0';
  for (i = 0; i < GS_MODEL_COUNT && at + strlen(GS_MODELS[i].key) + 3 < sizeof names; i++)
    at += (size_t)gs_format(names + at, sizeof names - at, "%s%s", i ? ", " : "", GS_MODELS[i].key);
  return gs_fail(err, GS_ERR_UNKNOWN, "model", "no built-in model has that name (%s)", names);
}

int gs_builtin_gpu(const char *key, gs_gpu *out, gs_hardware_text *text, gs_error *err) {
  return gs_gpu_parse(GS_DATA_gpus_json, strlen(GS_DATA_gpus_json), key, out, text, err);
}

int gs_builtin_link(const char *key, gs_link *out, gs_hardware_text *text, gs_error *err) {
  return gs_link_parse(GS_DATA_links_json, strlen(GS_DATA_links_json), key, out, text, err);
}

int gs_builtin_keys(const char *array, char *buf, size_t cap, gs_error *err) {
  const char *json = strcmp(array, "gpus") == 0 ? GS_DATA_gpus_json : GS_DATA_links_json;
  return gs_hardware_keys(json, strlen(json), array, buf, cap, err);
}
#endif
