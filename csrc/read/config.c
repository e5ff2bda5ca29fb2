/* A Hugging Face config.json to a derived model. The reader finds the family by
 * model_type (absent: llama, as the lesson's shapes have it), takes the language model's
 * keys from the top or, for a multimodal family, from text_config, reads the stored format
 * from quantization_config, and lets the family count its tensors. A type, a layout or a
 * format it cannot count exactly is refused by name, never priced as another. */
#include <string.h>

#include "internal.h"

int gs_config_refuse(const gs_config *c, const char *key, const char *fmt, ...) {
  va_list ap;
  char what[256];
  va_start(ap, fmt);
  gs_vformat(what, sizeof what, fmt, ap);
  va_end(ap);
  return gs_fail(c->err, GS_ERR_UNSUPPORTED, key, "%s", what);
}

static int absent(const gs_config *c, int at) { return at < 0 || gs_json_is_null(c->json, at); }

int gs_config_has(const gs_config *c, const char *key) { return !absent(c, gs_json_find(c->json, c->object, key)); }

/* The counts the cost multiplies, loops or divides by, each bounded before any family uses
 * it (gpusplit.h says why each bound is where it is; docs/CLI.md lists them). */
static const struct {
  const char *key;
  uint64_t max;
} BOUNDED[] = {{"num_hidden_layers", GS_MAX_LAYERS},   {"num_attention_heads", GS_MAX_HEADS},
               {"num_key_value_heads", GS_MAX_HEADS},  {"n_routed_experts", GS_MAX_EXPERTS},
               {"num_local_experts", GS_MAX_EXPERTS},  {"num_experts", GS_MAX_EXPERTS},
               {"num_experts_per_tok", GS_MAX_EXPERTS}};

int gs_config_count(const gs_config *c, const char *key, const uint64_t *def, uint64_t *out) {
  int at = gs_json_find(c->json, c->object, key), rc;
  size_t i;
  if (absent(c, at)) {
    if (def) {
      *out = *def;
      return GS_OK;
    }
    return gs_fail(c->err, GS_ERR_MISSING, key, at < 0 ? "is missing" : "is null, and it is required");
  }
  if ((rc = gs_json_count(c->json, at, key, out, c->err)) != GS_OK) return rc;
  for (i = 0; i < sizeof BOUNDED / sizeof BOUNDED[0]; i++)
    if (strcmp(key, BOUNDED[i].key) == 0 && *out > BOUNDED[i].max)
      return gs_fail(c->err, GS_ERR_RANGE, key, "%llu is too large (at most %llu)", (unsigned long long)*out,
                     (unsigned long long)BOUNDED[i].max);
  return GS_OK;
}

int gs_config_class(const gs_config *c, const char *key, uint64_t def, uint64_t *out) {
  if (c->classed && gs_json_find(c->json, c->object, key) < 0) {
    *out = def;
    return GS_OK;
  }
  return gs_config_count(c, key, NULL, out);
}

int gs_config_absent(const gs_config *c, const char *key) { return gs_json_find(c->json, c->object, key) < 0; }

int gs_config_whole(const gs_config *c, const char *key, uint64_t def, uint64_t *out) {
  int at = gs_json_find(c->json, c->object, key);
  if (absent(c, at)) {
    *out = def;
    return GS_OK;
  }
  return gs_json_whole(c->json, at, key, 0, out, c->err);
}

int gs_config_bool(const gs_config *c, const char *key, int def, int *out) {
  int at = gs_json_find(c->json, c->object, key);
  if (absent(c, at)) {
    *out = def;
    return GS_OK;
  }
  return gs_json_bool(c->json, at, key, out, c->err);
}

int gs_config_layer_types(const gs_config *c, uint64_t layers, uint64_t *sliding, int *present) {
  const jsmntok_t *toks = c->json->toks;
  int at = gs_json_find(c->json, c->object, "layer_types"), i, k;
  *present = 0;
  *sliding = 0;
  if (absent(c, at)) return GS_OK;
  if (toks[at].type != JSMN_ARRAY) return gs_fail(c->err, GS_ERR_TYPE, "layer_types", "must be an array");
  if ((uint64_t)toks[at].size != layers)
    return gs_fail(c->err, GS_ERR_SHAPE, "layer_types", "has %d entries for %llu layers", toks[at].size,
                   (unsigned long long)layers);
  for (k = 0, i = at + 1; k < toks[at].size; k++, i = gs_json_next(c->json, i)) {
    if (gs_json_string_is(c->json, i, "sliding_attention")) (*sliding)++;
    else if (!gs_json_string_is(c->json, i, "full_attention"))
      return gs_config_refuse(c, "layer_types", "entry %d is not full_attention or sliding_attention, which the reader counts", k);
  }
  *present = 1;
  return GS_OK;
}

int gs_config_layer_flags(const gs_config *c, const char *key, uint64_t layers, unsigned char *listed, size_t cap) {
  const jsmntok_t *toks = c->json->toks;
  int at = gs_json_find(c->json, c->object, key), i, k;
  if (layers > cap) return gs_fail(c->err, GS_ERR_RANGE, "num_hidden_layers", "the reader takes at most %zu layers", cap);
  memset(listed, 0, (size_t)layers);
  if (absent(c, at)) return GS_OK;
  if (toks[at].type != JSMN_ARRAY) return gs_fail(c->err, GS_ERR_TYPE, key, "must be an array of layer numbers");
  for (k = 0, i = at + 1; k < toks[at].size; k++, i = gs_json_next(c->json, i)) {
    uint64_t layer;
    int rc = gs_json_whole(c->json, i, key, 0, &layer, c->err);
    if (rc != GS_OK) return rc;
    if (layer >= layers)
      return gs_fail(c->err, GS_ERR_RANGE, key, "lists layer %llu of %llu", (unsigned long long)layer, (unsigned long long)layers);
    listed[layer] = 1;
  }
  return GS_OK;
}

/* The type names, for the refusal: "llama, mistral, ...", into the caller's buf. */
const char *gs_supported_types(char *buf, size_t cap) {
  size_t i, at = 0;
  if (cap == 0) return buf;
  buf[0] = '\0';
  for (i = 0; i < GS_FAMILY_COUNT; i++)
    at += (size_t)gs_format(buf + at, cap - at, "%s%s", i ? ", " : "", GS_FAMILIES[i].type);
  return buf;
}

/* A type name that is safe to quote: letters, digits, _ . - only, and short. */
static int plain_name(const char *text, size_t n) {
  size_t i;
  if (n == 0 || n > 31) return 0;
  for (i = 0; i < n; i++) {
    char ch = text[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-'))
      return 0;
  }
  return 1;
}

/* The string at token `at`, decoded, into buf (cap > 31), when it is a plain name. */
static int read_name(const gs_json *j, int at, const char *field, char *buf, size_t cap, gs_error *err) {
  size_t n;
  char types[256], decoded[GS_JSON_NAME_CAP];
  if (j->toks[at].type != JSMN_STRING) return gs_fail(err, GS_ERR_TYPE, field, "must be a string");
  n = gs_json_string(j, at, decoded, sizeof decoded);
  if (n == (size_t)-1 || !plain_name(decoded, n) || n >= cap)
    return gs_fail(err, GS_ERR_UNSUPPORTED, field, "is not a name the reader knows (supported: %s)",
                   gs_supported_types(types, sizeof types));
  memcpy(buf, decoded, n + 1);
  return GS_OK;
}

/* An entry of modules_to_not_convert that names a module the format leaves at 16 bits
 * anyway: gpt-oss's mxfp4 lists its attention, router, embedding and output table; block
 * FP8 (tally.c) converts attention, feed-forward and expert matrices only, so there the
 * tables and a mixture's router ("mlp.gate", Qwen3-MoE's and DeepSeek's) are such. */
static int unconverted_module_known(const gs_json *j, int at, int kind) {
  static const char *const MXFP4_ENDS[] = {"self_attn", "router", "embed_tokens", "lm_head"};
  static const char *const FP8_ENDS[] = {"mlp.gate", "embed_tokens", "lm_head"};
  const char *const *ends = kind == GS_STORE_FP8_BLOCK ? FP8_ENDS : MXFP4_ENDS;
  size_t count = kind == GS_STORE_FP8_BLOCK ? sizeof FP8_ENDS / sizeof FP8_ENDS[0] : sizeof MXFP4_ENDS / sizeof MXFP4_ENDS[0];
  char s[GS_JSON_NAME_CAP];
  size_t i, n;
  if (j->toks[at].type != JSMN_STRING || (n = gs_json_string(j, at, s, sizeof s)) == (size_t)-1) return 0;
  for (i = 0; i < count; i++) {
    size_t e = strlen(ends[i]);
    if (n >= e && memcmp(s + n - e, ends[i], e) == 0 && (n == e || s[n - e - 1] == '.')) return 1;
  }
  return 0;
}

/* quantization_config (absent or null: 16 bits) to a storage; bits, when not 0, wins. */
static int read_storage(const gs_json *j, uint64_t bits, const gs_family *family, const char *type, gs_storage *out, gs_error *err) {
  int at = gs_json_find(j, 0, "quantization_config"), method, list, i, k;
  char name[32];
  memset(out, 0, sizeof *out);
  if (bits) {
    if (bits > 32) return gs_fail(err, GS_ERR_RANGE, "bits", "must be from 1 to 32");
    out->kind = GS_STORE_BITS;
    out->bits = bits;
    return GS_OK;
  }
  if (at < 0 || gs_json_is_null(j, at)) return GS_OK;
  if (j->toks[at].type != JSMN_OBJECT) return gs_fail(err, GS_ERR_TYPE, "quantization_config", "must be an object");
  method = gs_json_find(j, at, "quant_method");
  if (method < 0) return gs_fail(err, GS_ERR_MISSING, "quantization_config.quant_method", "is missing");
  if (j->toks[method].type != JSMN_STRING) return gs_fail(err, GS_ERR_TYPE, "quantization_config.quant_method", "must be a string");
  if (gs_json_string_is(j, method, "mxfp4")) out->kind = GS_STORE_MXFP4;
  else if (gs_json_string_is(j, method, "fp8")) out->kind = GS_STORE_FP8_BLOCK;
  else {
    size_t n = gs_json_string(j, method, name, sizeof name);
    if (n == (size_t)-1 || !plain_name(name, n))
      return gs_fail(err, GS_ERR_UNSUPPORTED, "quantization_config", "quant_method is not supported (supported: mxfp4, fp8)");
    return gs_fail(err, GS_ERR_UNSUPPORTED, "quantization_config", "quant_method '%s' is not supported (supported: mxfp4, fp8)", name);
  }
  /* What would price it: --bits at the format's value width. That leaves out the scales of
   * its blocks and prices at that width any weight the checkpoint keeps at 16 bits, so the
   * refusal says so rather than guess a count no published total holds it to. */
  if (!(family->formats & (1u << out->kind)))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "quantization_config",
                   "quant_method '%s' is not supported for model_type '%s'; --bits %d prices every weight at %d bits, leaving out "
                   "the scales of its blocks and the weights it keeps at 16 bits",
                   out->kind == GS_STORE_MXFP4 ? "mxfp4" : "fp8", type, out->kind == GS_STORE_MXFP4 ? 4 : 8,
                   out->kind == GS_STORE_MXFP4 ? 4 : 8);
  list = gs_json_find(j, at, "modules_to_not_convert");
  if (out->kind == GS_STORE_FP8_BLOCK) {
    int size = gs_json_find(j, at, "weight_block_size"), rc;
    if (size < 0 || gs_json_is_null(j, size))
      return gs_fail(err, GS_ERR_UNSUPPORTED, "quantization_config", "fp8 without weight_block_size is not supported");
    if (j->toks[size].type != JSMN_ARRAY || j->toks[size].size != 2)
      return gs_fail(err, GS_ERR_TYPE, "quantization_config.weight_block_size", "must be an array of two counts");
    if ((rc = gs_json_count(j, size + 1, "quantization_config.weight_block_size", &out->block_rows, err)) != GS_OK ||
        (rc = gs_json_count(j, gs_json_next(j, size + 1), "quantization_config.weight_block_size", &out->block_cols, err)) != GS_OK)
      return rc;
    out->scale_bits = family->fp8_scale_bits;
  }
  if (list < 0 || gs_json_is_null(j, list)) return GS_OK;
  if (j->toks[list].type != JSMN_ARRAY) return gs_fail(err, GS_ERR_TYPE, "quantization_config.modules_to_not_convert", "must be an array");
  for (k = 0, i = list + 1; k < j->toks[list].size; k++, i = gs_json_next(j, i))
    if (!unconverted_module_known(j, i, out->kind))
      return gs_fail(err, GS_ERR_UNSUPPORTED, "quantization_config.modules_to_not_convert",
                     "entry %d names a module the reader cannot keep at 16 bits exactly", k);
  return GS_OK;
}

/* torch_dtype (or dtype, its newer name) "float32": a checkpoint saved at 32 bits, which
 * engines load and serve at 16 (vLLM's dtype "auto" takes float32 weights as float16). */
static int stored_as_float32(const gs_json *j) {
  int at = gs_json_find(j, 0, "torch_dtype");
  if (at < 0) at = gs_json_find(j, 0, "dtype");
  return at >= 0 && gs_json_string_is(j, at, "float32");
}

static void note_float32(gs_model *m) {
  static const char WHAT[] = "the float32 checkpoint at 16 bits a weight, as it is served";
  size_t n = strlen(m->note);
  gs_format(m->note + n, sizeof m->note - n, "%s%s", n ? "; " : "", WHAT);
}

static uint64_t ceil_bytes(uint64_t bits) { return bits / 8 + (bits % 8 != 0); }

/* What the cost takes for granted, checked once: heads that share out evenly, and every
 * byte total of one GPU's memory within 64 bits. */
static int check_model(const gs_model *m, gs_error *err) {
  uint64_t cache, working, total, kept = m->window < GS_CHAT_TOKENS ? m->window : GS_CHAT_TOKENS, a, b;
  if (m->heads % m->kv_heads != 0)
    return gs_fail(err, GS_ERR_SHAPE, "num_key_value_heads", "%llu does not divide num_attention_heads %llu",
                   (unsigned long long)m->kv_heads, (unsigned long long)m->heads);
  if (m->hidden > (UINT64_C(1) << 53) || m->ffn_width > (UINT64_C(1) << 53))
    return gs_fail(err, GS_ERR_OVERFLOW, "hidden_size", "is too large: the model's byte totals would overflow 64 bits");
  if (!gs_mul(m->cache_full_bytes, GS_CHAT_TOKENS, &a) || !gs_mul(m->cache_window_bytes, kept, &b) || !gs_add(a, b, &cache))
    return gs_fail(err, GS_ERR_OVERFLOW, "config", "the attention cache's bytes would overflow 64 bits");
  if (!gs_mul(3, m->ffn_width, &working) || !gs_add(working, 4 * m->hidden, &working) || !gs_mul(working, 2048 * 2, &working) ||
      !gs_add(working, GS_GIB, &working))
    return gs_fail(err, GS_ERR_OVERFLOW, "config", "the working memory's bytes would overflow 64 bits");
  if (!gs_add(m->stored_bytes, cache, &total) || !gs_add(total, working, &total) || !gs_mul(2, m->active_params, &a))
    return gs_fail(err, GS_ERR_OVERFLOW, "config", "the memory per GPU would overflow 64 bits");
  return GS_OK;
}

int gs_model_parse(const char *json, size_t len, uint64_t bits, gs_model *out, gs_error *err) {
  jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_config c;
  gs_tally t;
  gs_model m;
  const gs_family *family = NULL;
  int rc, at;
  size_t i;
  if ((rc = gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK) return rc;
  memset(&m, 0, sizeof m);
  memcpy(m.type, "llama", 6);
  at = gs_json_find(&j, 0, "model_type");
  if (at >= 0 && !gs_json_is_null(&j, at) && (rc = read_name(&j, at, "model_type", m.type, sizeof m.type, err)) != GS_OK)
    return rc;
  for (i = 0; i < GS_FAMILY_COUNT && !family; i++)
    if (strcmp(GS_FAMILIES[i].type, m.type) == 0) family = &GS_FAMILIES[i];
  if (!family) {
    char types[256];
    return gs_fail(err, GS_ERR_UNSUPPORTED, "", "model_type '%s' is not supported (supported: %s)", m.type,
                   gs_supported_types(types, sizeof types));
  }
  memset(&t, 0, sizeof t);
  t.err = err;
  if ((rc = read_storage(&j, bits, family, m.type, &t.storage, err)) != GS_OK) return rc;
  c.json = &j;
  c.object = 0;
  c.err = err;
  c.classed = at >= 0 && !gs_json_is_null(&j, at);
  if ((rc = family->count(&c, &t, &m)) != GS_OK) return rc;
  if (t.storage.kind == GS_STORE_16 && stored_as_float32(&j)) note_float32(&m);
  if (t.code != GS_OK) return t.code;
  m.params = t.params;
  m.stored_bytes = ceil_bytes(t.bits);
  m.routed_params = t.routed_params;
  m.routed_bytes = ceil_bytes(t.routed_bits);
  m.routed_mxfp4 = t.storage.kind == GS_STORE_MXFP4;
  m.unread_params = t.unread_params;
  m.table_params = t.table_params;
  m.unread_bytes = ceil_bytes(t.unread_bits);
  m.active_params = m.params - m.unread_params;
  if (m.experts > 0) {
    if (m.experts_per_token > m.experts)
      return gs_fail(err, GS_ERR_SHAPE, "num_experts_per_tok", "%llu is more than the %llu experts",
                     (unsigned long long)m.experts_per_token, (unsigned long long)m.experts);
    m.active_params = m.params - m.unread_params - m.routed_params + m.routed_params / m.experts * m.experts_per_token;
  }
  m.max_len = gs_config_max_len(&j);
  if ((rc = check_model(&m, err)) != GS_OK) return rc;
  *out = m;
  return GS_OK;
}
