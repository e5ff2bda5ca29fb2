/* data/gpus.json and data/links.json to gs_gpu and gs_link: each file a catalogue of
 * entries found by key (or name, in any case), with the figures checked as the command
 * line's are. The "_source" notes are for people and are not read; each entry's "source"
 * is read only when the caller asks for it (gpusplit list). To add a GPU or a link: an entry
 * in data/gpus.json or data/links.json with its figures and the source that prints them
 * (the usual server size, link and NCCL's ring figures where they apply); no code changes.
 * To add a figure to every entry: its field in gs_gpu or gs_link and its line below. */
#include <string.h>

#include "internal.h"

static int read_number(const gs_json *j, int object, const char *field, double *out, gs_error *err) {
  int at = gs_json_find(j, object, field);
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, field, "is missing");
  return gs_json_number(j, at, field, out, err);
}

/* The string field of an entry into buf; an absent field gives "" when optional. */
static int read_text(const gs_json *j, int object, const char *field, int optional, char *buf, size_t cap, gs_error *err) {
  int at = gs_json_find(j, object, field);
  if (!buf || cap == 0) return GS_OK;
  buf[0] = '\0';
  if (at < 0 && optional) return GS_OK;
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, field, "is missing");
  if (j->toks[at].type != JSMN_STRING) return gs_fail(err, GS_ERR_TYPE, field, "must be a string");
  if (gs_json_string(j, at, buf, cap) == (size_t)-1) return gs_fail(err, GS_ERR_TOO_LONG, field, "is longer than %zu bytes", cap - 1);
  return GS_OK;
}

/* One of a fixed set of names, as its index. */
static int read_choice(const gs_json *j, int object, const char *field, const char *const *names, int count, int *out,
                       gs_error *err) {
  int at = gs_json_find(j, object, field), i;
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, field, "is missing");
  for (i = 0; i < count; i++)
    if (gs_json_string_is(j, at, names[i])) {
      *out = i;
      return GS_OK;
    }
  return gs_fail(err, GS_ERR_RANGE, field, "must be one of the names the reader knows");
}

/* 1 when the entry's key or name is `key`, in any case. */
static int entry_is(const gs_json *j, int object, const char *key, const char *name_field) {
  static const char *fields[2];
  char text[GS_JSON_NAME_CAP];
  int f;
  fields[0] = "key";
  fields[1] = name_field;
  for (f = 0; f < 2; f++) {
    int at = gs_json_find(j, object, fields[f]);
    size_t n, i;
    if (at < 0 || j->toks[at].type != JSMN_STRING || (n = gs_json_string(j, at, text, sizeof text)) == (size_t)-1) continue;
    for (i = 0; i < n && key[i] && gs_ascii_lower(text[i]) == gs_ascii_lower(key[i]); i++) {}
    if (i == n && key[i] == '\0') return 1;
  }
  return 0;
}

/* The array `array`'s token, checked to hold objects. */
static int entry_list(const gs_json *j, const char *array, int *list, gs_error *err) {
  int i, k;
  *list = gs_json_find(j, 0, array);
  if (*list < 0) return gs_fail(err, GS_ERR_MISSING, array, "is missing");
  if (j->toks[*list].type != JSMN_ARRAY) return gs_fail(err, GS_ERR_TYPE, array, "must be an array");
  for (k = 0, i = *list + 1; k < j->toks[*list].size; k++, i = gs_json_next(j, i))
    if (j->toks[i].type != JSMN_OBJECT) return gs_fail(err, GS_ERR_TYPE, array, "must hold objects");
  return GS_OK;
}

/* The entries' keys, comma-separated, into buf (cut at a whole key, with "..."). */
static void list_keys(const gs_json *j, int list, char *buf, size_t cap) {
  int i, k;
  size_t at = 0;
  buf[0] = '\0';
  for (k = 0, i = list + 1; k < j->toks[list].size; k++, i = gs_json_next(j, i)) {
    char key[GS_JSON_NAME_CAP];
    int at_key = gs_json_find(j, i, "key");
    size_t n;
    if (at_key < 0 || j->toks[at_key].type != JSMN_STRING || (n = gs_json_string(j, at_key, key, sizeof key)) == (size_t)-1)
      continue;
    if (at + n + 6 >= cap) {
      gs_format(buf + at, cap - at, "%s...", at ? ", " : "");
      return;
    }
    at += (size_t)gs_format(buf + at, cap - at, "%s%s", at ? ", " : "", key);
  }
}

/* The entry of array `array` whose key or name is key; its token, or a failure that
 * lists the keys. */
static int find_entry(const gs_json *j, const char *array, const char *key, const char *name_field, const char *what,
                      int *entry, gs_error *err) {
  int list, i, k, rc;
  char keys[640];
  if ((rc = entry_list(j, array, &list, err)) != GS_OK) return rc;
  for (k = 0, i = list + 1; k < j->toks[list].size; k++, i = gs_json_next(j, i))
    if (entry_is(j, i, key, name_field)) {
      *entry = i;
      return GS_OK;
    }
  list_keys(j, list, keys, sizeof keys);
  return gs_fail(err, GS_ERR_UNKNOWN, what, "no %s is named \"%s\" (names: %s)", what, key, keys);
}

int gs_hardware_keys(const char *json, size_t len, const char *array, char *buf, size_t cap, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  int rc, list;
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK || (rc = entry_list(&j, array, &list, err)) != GS_OK)
    return rc;
  list_keys(&j, list, buf, cap);
  return GS_OK;
}

/* An optional number: def when the entry leaves it out. */
static int read_optional(const gs_json *j, int object, const char *field, double def, double *out, gs_error *err) {
  int at = gs_json_find(j, object, field);
  if (at < 0) {
    *out = def;
    return GS_OK;
  }
  return gs_json_number(j, at, field, out, err);
}

/* An optional whole count, at most max: 0 when left out. */
static int read_optional_count(const gs_json *j, int object, const char *field, int max, int *out, gs_error *err) {
  int at = gs_json_find(j, object, field), rc;
  uint64_t v = 0;
  if (at >= 0 && (rc = gs_json_whole(j, at, field, 0, &v, err)) != GS_OK) return rc;
  if (v > (uint64_t)max) return gs_fail(err, GS_ERR_RANGE, field, "must be at most %d", max);
  *out = (int)v;
  return GS_OK;
}

/* The catalogue facts for realistic defaults (gs_gpu, gs_link); a figure must be finite
 * and not negative. */
static int check_ring(double bw, const char *field, gs_error *err) {
  if (!(bw >= 0 && bw <= 1e15)) return gs_fail(err, GS_ERR_RANGE, field, "must be from 0 to 1e15 bytes a second");
  return GS_OK;
}

/* An FP8 peak is absent (0) or at least the 16-bit one: every FP8 tensor core NVIDIA and
 * AMD print runs at twice its 16-bit rate or more. An FP4 peak likewise is absent or at
 * least the FP8 one (Blackwell and CDNA 4 run FP4 at twice FP8 or more), and needs one. */
static int check_fp8(const gs_gpu *g, gs_error *err) {
  if (!(g->flops_fp8 == 0 || (g->flops_fp8 >= g->flops && g->flops_fp8 <= 1e19)))
    return gs_fail(err, GS_ERR_RANGE, "flops_fp8", "must be 0 (none) or from the GPU's 16-bit flops to 1e19");
  if (!(g->flops_fp4 == 0 || (g->flops_fp8 > 0 && g->flops_fp4 >= g->flops_fp8 && g->flops_fp4 <= 1e19)))
    return gs_fail(err, GS_ERR_RANGE, "flops_fp4", "must be 0 (none) or from the GPU's FP8 flops to 1e19");
  return GS_OK;
}

static const char *const ARCHES[] = {GS_ARCH_NAMES};
static const char *const KINDS[] = {GS_LINK_KIND_NAMES};

int gs_gpu_parse(const char *json, size_t len, const char *key, gs_gpu *out, gs_hardware_text *text, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_gpu g;
  int rc, at;
  memset(&g, 0, sizeof g);
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK ||
      (rc = read_number(&j, 0, "usable", &g.usable, err)) != GS_OK ||
      (rc = find_entry(&j, "gpus", key, "name", "gpu", &at, err)) != GS_OK ||
      (rc = read_number(&j, at, "gib", &g.gib, err)) != GS_OK ||
      (rc = read_number(&j, at, "bandwidth", &g.bandwidth, err)) != GS_OK ||
      (rc = read_number(&j, at, "flops", &g.flops, err)) != GS_OK ||
      (rc = read_choice(&j, at, "arch", ARCHES, 5, &g.arch, err)) != GS_OK || (rc = gs_gpu_check(&g, err)) != GS_OK ||
      (rc = read_optional_count(&j, at, "per_server", 1024, &g.per_server, err)) != GS_OK ||
      (rc = read_optional_count(&j, at, "compute_capability", 1000, &g.compute_capability, err)) != GS_OK ||
      (rc = read_optional_count(&j, at, "nvlinks", 64, &g.nvlinks, err)) != GS_OK ||
      (rc = read_optional(&j, at, "ring_bw", 0, &g.ring_bw, err)) != GS_OK || (rc = check_ring(g.ring_bw, "ring_bw", err)) != GS_OK ||
      (rc = read_optional(&j, at, "flops_fp8", 0, &g.flops_fp8, err)) != GS_OK ||
      (rc = read_optional(&j, at, "flops_fp4", 0, &g.flops_fp4, err)) != GS_OK || (rc = check_fp8(&g, err)) != GS_OK)
    return rc;
  if (text && ((rc = read_text(&j, at, "key", 0, text->key, sizeof text->key, err)) != GS_OK ||
               (rc = read_text(&j, at, "name", 0, text->name, sizeof text->name, err)) != GS_OK ||
               (rc = read_text(&j, at, "link", 1, text->link, sizeof text->link, err)) != GS_OK ||
               (rc = read_text(&j, at, "source", 1, text->source, sizeof text->source, err)) != GS_OK))
    return rc;
  *out = g;
  return GS_OK;
}

const char *const GS_GENERATIONS[GS_GENERATION_COUNT] = {"ampere", "ada", "hopper", "blackwell", "cdna3"};

/* A GPU's "generation" (one of GS_GENERATIONS, or absent) and "measured_as" (absent, or an
 * array of at most GS_MEASURED_AS_MAX names): where the efficiency fit puts it. */
int gs_gpu_fit_parse(const char *json, size_t len, const char *key, gs_gpu_fit_text *out, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  int rc, at, list, k, g;
  memset(out, 0, sizeof *out);
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK ||
      (rc = find_entry(&j, "gpus", key, "name", "gpu", &at, err)) != GS_OK ||
      (rc = read_text(&j, at, "generation", 1, out->generation, sizeof out->generation, err)) != GS_OK)
    return rc;
  for (g = 0; out->generation[0] && g < GS_GENERATION_COUNT && strcmp(GS_GENERATIONS[g], out->generation) != 0; g++) {}
  if (g == GS_GENERATION_COUNT)
    return gs_fail(err, GS_ERR_RANGE, "generation", "must be ampere, ada, hopper, blackwell or cdna3 (or left out)");
  if ((list = gs_json_find(&j, at, "measured_as")) < 0) return GS_OK;
  if (j.toks[list].type != JSMN_ARRAY || j.toks[list].size > GS_MEASURED_AS_MAX)
    return gs_fail(err, GS_ERR_TYPE, "measured_as", "must be an array of at most %d names", GS_MEASURED_AS_MAX);
  for (k = 0, at = list + 1; k < j.toks[list].size; k++, at = gs_json_next(&j, at)) {
    if (j.toks[at].type != JSMN_STRING || gs_json_string(&j, at, out->measured_as[k], sizeof out->measured_as[k]) == (size_t)-1 ||
        !out->measured_as[k][0])
      return gs_fail(err, GS_ERR_TYPE, "measured_as", "must hold names of 1 to %zu bytes", sizeof out->measured_as[k] - 1);
    out->measured_count++;
  }
  return GS_OK;
}

/* The link whose key (or label) is key, from the "links" array, with the shared
 * "base_us"; a link without "step_us" takes NCCL's ring LL step latency for its kind. */
int gs_link_parse(const char *json, size_t len, const char *key, gs_link *out, gs_hardware_text *text, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_link l;
  int rc, at, step;
  memset(&l, 0, sizeof l);
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK ||
      (rc = read_number(&j, 0, "base_us", &l.base_us, err)) != GS_OK ||
      (rc = find_entry(&j, "links", key, "label", "link", &at, err)) != GS_OK ||
      (rc = read_number(&j, at, "bandwidth", &l.bandwidth, err)) != GS_OK ||
      (rc = read_choice(&j, at, "kind", KINDS, 3, &l.kind, err)) != GS_OK)
    return rc;
  step = gs_json_find(&j, at, "step_us");
  if (step >= 0) {
    if ((rc = gs_json_number(&j, step, "step_us", &l.step_us, err)) != GS_OK) return rc;
  } else {
    l.step_us = gs_nccl_ll_step_us(l.kind);
  }
  if ((rc = gs_link_check(&l, err)) != GS_OK || (rc = read_optional(&j, at, "ring_bw", 0, &l.ring_bw, err)) != GS_OK ||
      (rc = check_ring(l.ring_bw, "ring_bw", err)) != GS_OK)
    return rc;
  if (text && ((rc = read_text(&j, at, "key", 0, text->key, sizeof text->key, err)) != GS_OK ||
               (rc = read_text(&j, at, "label", 0, text->name, sizeof text->name, err)) != GS_OK ||
               (rc = read_text(&j, at, "source", 1, text->source, sizeof text->source, err)) != GS_OK))
    return rc;
  if (text) text->link[0] = '\0'; /* a link's texts name no link of its own */
  *out = l;
  return GS_OK;
}

const char *gs_arch_name(int arch) { return arch >= 0 && arch <= 4 ? ARCHES[arch] : "unknown"; }
const char *gs_link_kind_name(int kind) { return kind >= 0 && kind <= 2 ? KINDS[kind] : "unknown"; }
