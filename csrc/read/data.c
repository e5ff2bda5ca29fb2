/* The built-in models and hardware (data/, as the typed tables scripts/tables.c writes)
 * and the settings the lesson's widget offers. */
#include <string.h>

#include "internal.h"
#include "read/efficiency.h"

#ifndef GS_LESSON_TABLES
extern const char GS_DATA_gpus_json[];
extern const char GS_DATA_links_json[];
#endif

/* GS_LINK_KEYS, GS_COUNTS and GS_WORDS, what the lesson's widget offers, are in the typed
 * tables (data/widget.json, scripts/tables.c). */

/* ASCII letters compared without case: a model is found by the key, the name the report
 * prints or its Hugging Face repository ("70b", "70B", "meta-llama/Llama-3.1-70B"). */
static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (gs_ascii_lower(*a) != gs_ascii_lower(*b)) return 0;
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

#ifdef GS_DATA_FROM_JSON
/* scripts/tables.c alone: data/'s text, read by the readers, to write the tables from. It
 * writes the widget's offers itself, so it links none (price.c names them). */
extern const char GS_DATA_gpus_json[];
extern const char GS_DATA_links_json[];
const char *const GS_LINK_KEYS[] = {""};
const size_t GS_LINK_COUNT = 0;
const uint64_t GS_COUNTS[] = {0};
const size_t GS_COUNT_COUNT = 0;
const uint64_t GS_WORDS[] = {0};
const size_t GS_WORDS_COUNT = 0;
/* nor the fit's tables, which it writes from data/gpus.json and data/efficiency.json */
const gs_gpu_fit_entry GS_GPU_FIT_TABLE[] = {{"", "", {NULL}}};
const size_t GS_GPU_FIT_TABLE_COUNT = 0;
const fit_result GS_EFFICIENCY_TABLE = {.count = 0};
const gs_allreduce_table GS_ALLREDUCE_TABLE[1];
const size_t GS_ALLREDUCE_TABLE_COUNT = 0;
const gs_serving_table GS_SERVING_TABLE = {.count = 0}; /* written from data/serving.json */

int gs_builtin_model(const char *key, uint64_t bits, gs_model *out, gs_error *err) {
  const gs_model_entry *e = gs_find_model(key);
  if (!e) return gs_fail(err, GS_ERR_UNKNOWN, "model", "no built-in model is named '%s'", key);
  return gs_model_parse(e->json, strlen(e->json), bits, out, err);
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
#else
/* Every other build: the tables. A model at its stored format is a copy; at other bits
 * its config is counted again (the lesson's module has no reader, and refuses). */
int gs_builtin_model(const char *key, uint64_t bits, gs_model *out, gs_error *err) {
  const gs_model_entry *e = gs_find_model(key);
  char names[640];
  size_t i, at = 0;
  if (e && bits == 0) {
    *out = GS_MODEL_TABLE[e - GS_MODELS];
    return GS_OK;
  }
#ifdef GS_LESSON_ONLY
  if (e) return gs_fail(err, GS_ERR_UNSUPPORTED, "bits", "the lesson's module keeps its models as stored");
#else
  if (e) return gs_model_parse(e->json, strlen(e->json), bits, out, err);
#endif
  names[0] = '\0';
  for (i = 0; i < GS_MODEL_COUNT && at + strlen(GS_MODELS[i].key) + 3 < sizeof names; i++)
    at += (size_t)gs_format(names + at, sizeof names - at, "%s%s", i ? ", " : "", GS_MODELS[i].key);
  return gs_fail(err, GS_ERR_UNKNOWN, "model", "no built-in model has that name (%s)", names);
}

/* An entry's texts into the caller's gs_hardware_text (each text fits: tables.c writes
 * what the reader read into the same buffers). */
static void text_of(const gs_table_text *t, gs_hardware_text *out) {
  if (!out) return;
#ifdef GS_LESSON_ONLY
  /* the lesson's module shows no names: its texts are its keys */
  gs_format(out->key, sizeof out->key, "%s", t->key);
  out->name[0] = out->link[0] = out->source[0] = '\0';
  return;
#endif
  gs_format(out->key, sizeof out->key, "%s", t->key);
  gs_format(out->name, sizeof out->name, "%s", t->name);
  gs_format(out->link, sizeof out->link, "%s", t->link);
  gs_format(out->source, sizeof out->source, "%s", t->source);
}

/* The entry whose key or name is key, in any case (as hardware.c finds them in the JSON). */
int gs_builtin_gpu(const char *key, gs_gpu *out, gs_hardware_text *text, gs_error *err) {
  char names[640];
  size_t i;
  for (i = 0; i < GS_GPU_TABLE_COUNT; i++)
    if (same_name(GS_GPU_TABLE[i].text.key, key) || (GS_GPU_TABLE[i].text.name[0] && same_name(GS_GPU_TABLE[i].text.name, key))) {
      *out = GS_GPU_TABLE[i].gpu;
      text_of(&GS_GPU_TABLE[i].text, text);
      return GS_OK;
    }
  if (!BEYOND_WIDGET) return gs_fail(err, GS_ERR_UNKNOWN, "gpu", "the lesson's module holds only its GPU");
  gs_builtin_keys("gpus", names, sizeof names, NULL);
  return gs_fail(err, GS_ERR_UNKNOWN, "gpu", "no gpu is named \"%s\" (names: %s)", key, names);
}

int gs_builtin_link(const char *key, gs_link *out, gs_hardware_text *text, gs_error *err) {
  char names[640];
  size_t i;
  for (i = 0; i < GS_LINK_TABLE_COUNT; i++)
    if (same_name(GS_LINK_TABLE[i].text.key, key) ||
        (GS_LINK_TABLE[i].text.name[0] && same_name(GS_LINK_TABLE[i].text.name, key))) {
      *out = GS_LINK_TABLE[i].link;
      text_of(&GS_LINK_TABLE[i].text, text);
      return GS_OK;
    }
  if (!BEYOND_WIDGET) return gs_fail(err, GS_ERR_UNKNOWN, "link", "the lesson's module holds only its two links");
  gs_builtin_keys("links", names, sizeof names, NULL);
  return gs_fail(err, GS_ERR_UNKNOWN, "link", "no link is named \"%s\" (names: %s)", key, names);
}

int gs_builtin_keys(const char *array, char *buf, size_t cap, gs_error *err) {
  int gpus = strcmp(array, "gpus") == 0;
  size_t i, n = gpus ? GS_GPU_TABLE_COUNT : GS_LINK_TABLE_COUNT, at = 0;
  if (!gpus && strcmp(array, "links") != 0) return gs_fail(err, GS_ERR_UNKNOWN, "array", "must be gpus or links");
  if (cap == 0) return gs_fail(err, GS_ERR_TOO_LONG, array, "has no room");
  buf[0] = '\0';
  for (i = 0; i < n; i++) {
    const char *key = gpus ? GS_GPU_TABLE[i].text.key : GS_LINK_TABLE[i].text.key;
    if (at + strlen(key) + 3 >= cap) return gs_fail(err, GS_ERR_TOO_LONG, array, "the keys need more than %zu bytes", cap);
    at += (size_t)gs_format(buf + at, cap - at, "%s%s", i ? ", " : "", key);
  }
  return GS_OK;
}
#endif
