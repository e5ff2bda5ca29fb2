/* data/gpu.json and data/links.json to gs_gpu and gs_link. Their "_source" fields are
 * for people and are not read. */
#include <string.h>

#include "internal.h"

static int read_number(const gs_json *j, int object, const char *field, double *out, gs_error *err) {
  int at = gs_json_find(j, object, field);
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, field, "is missing");
  return gs_json_number(j, at, field, out, err);
}

int gs_gpu_parse(const char *json, size_t len, gs_gpu *out, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_gpu g;
  int rc;
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK ||
      (rc = read_number(&j, 0, "gib", &g.gib, err)) != GS_OK ||
      (rc = read_number(&j, 0, "usable", &g.usable, err)) != GS_OK ||
      (rc = read_number(&j, 0, "bandwidth", &g.bandwidth, err)) != GS_OK ||
      (rc = read_number(&j, 0, "flops", &g.flops, err)) != GS_OK || (rc = gs_gpu_check(&g, err)) != GS_OK)
    return rc;
  *out = g;
  return GS_OK;
}

/* The link whose "key" is key, from the "links" array, with the shared "base_us". */
int gs_link_parse(const char *json, size_t len, const char *key, gs_link *out, char *label, size_t label_cap,
                  gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_link l;
  int rc, links, i, k;
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK ||
      (rc = read_number(&j, 0, "base_us", &l.base_us, err)) != GS_OK)
    return rc;
  links = gs_json_find(&j, 0, "links");
  if (links < 0) return gs_fail(err, GS_ERR_MISSING, "links", "is missing");
  if (toks[links].type != JSMN_ARRAY) return gs_fail(err, GS_ERR_TYPE, "links", "must be an array");
  for (k = 0, i = links + 1; k < toks[links].size; k++, i = gs_json_next(&j, i)) {
    int at_key, at_label;
    if (toks[i].type != JSMN_OBJECT) return gs_fail(err, GS_ERR_TYPE, "links", "must hold objects");
    at_key = gs_json_find(&j, i, "key");
    if (at_key < 0 || !gs_json_string_is(&j, at_key, key)) continue;
    at_label = gs_json_find(&j, i, "label");
    if (at_label < 0 || toks[at_label].type != JSMN_STRING) return gs_fail(err, GS_ERR_MISSING, "label", "must be a string");
    if ((rc = read_number(&j, i, "bandwidth", &l.bandwidth, err)) != GS_OK ||
        (rc = read_number(&j, i, "step_us", &l.step_us, err)) != GS_OK || (rc = gs_link_check(&l, err)) != GS_OK)
      return rc;
    if (label && label_cap > 0 && gs_json_string(&j, at_label, label, label_cap) == (size_t)-1)
      return gs_fail(err, GS_ERR_TOO_LONG, "label", "is longer than %zu bytes", label_cap - 1);
    *out = l;
    return GS_OK;
  }
  return gs_fail(err, GS_ERR_UNKNOWN, "link", "no link has the key \"%s\"", key);
}
