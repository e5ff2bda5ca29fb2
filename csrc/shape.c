/* A Hugging Face config.json of a Llama-style model (llama, mistral) to a gs_shape.
 * Absent optional fields default as in transformers' LlamaConfig: num_key_value_heads
 * to num_attention_heads, head_dim to hidden_size / num_attention_heads,
 * tie_word_embeddings to false; null counts as absent. Other keys are ignored. */
#include "internal.h"

/* A required count, or (when def is not NULL) an optional one with a default. */
static int read_count(const gs_json *j, const char *field, const uint64_t *def, uint64_t *out, gs_error *err) {
  int at = gs_json_find(j, 0, field);
  if (at < 0 || gs_json_is_null(j, at)) {
    if (def) {
      *out = *def;
      return GS_OK;
    }
    return gs_fail(err, GS_ERR_MISSING, field, at < 0 ? "is missing" : "is null, and it is required");
  }
  return gs_json_count(j, at, field, out, err);
}

int gs_shape_parse(const char *json, size_t len, gs_shape *out, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_shape s;
  uint64_t head_dim_default;
  int rc, at, head_dim_at;
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK) return rc;
  if ((rc = read_count(&j, "hidden_size", NULL, &s.hidden, err)) != GS_OK ||
      (rc = read_count(&j, "intermediate_size", NULL, &s.intermediate, err)) != GS_OK ||
      (rc = read_count(&j, "num_hidden_layers", NULL, &s.layers, err)) != GS_OK ||
      (rc = read_count(&j, "num_attention_heads", NULL, &s.heads, err)) != GS_OK ||
      (rc = read_count(&j, "num_key_value_heads", &s.heads, &s.kv_heads, err)) != GS_OK ||
      (rc = read_count(&j, "vocab_size", NULL, &s.vocab, err)) != GS_OK)
    return rc;
  head_dim_at = gs_json_find(&j, 0, "head_dim");
  if (s.hidden % s.heads != 0 && (head_dim_at < 0 || gs_json_is_null(&j, head_dim_at)))
    return gs_fail(err, GS_ERR_SHAPE, "hidden_size", "%llu is not a multiple of num_attention_heads %llu, and head_dim is not given",
                   (unsigned long long)s.hidden, (unsigned long long)s.heads);
  head_dim_default = s.hidden / s.heads;
  if ((rc = read_count(&j, "head_dim", &head_dim_default, &s.head_dim, err)) != GS_OK) return rc;
  s.tied = 0;
  at = gs_json_find(&j, 0, "tie_word_embeddings");
  if (at >= 0 && !gs_json_is_null(&j, at) && (rc = gs_json_bool(&j, at, "tie_word_embeddings", &s.tied, err)) != GS_OK)
    return rc;
  if ((rc = gs_shape_check(&s, err)) != GS_OK) return rc;
  *out = s;
  return GS_OK;
}
