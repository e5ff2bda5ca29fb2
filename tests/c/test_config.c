/* The shape reader on good and bad config.json text, and the GPU and link readers on
 * the built-in data and on bad values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h" /* GS_JSON_TOKENS */
#include "test_support.h"

/* The 8B model's required fields (data/llama31_8b_config.json), in order. */
static const char *const FIELDS[] = {"hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
                                     "vocab_size"};
static const char *const VALUES[] = {"4096", "14336", "32", "32", "128256"};
enum { FIELD_COUNT = 5 };

/* A config with the 8B model's required fields, where field (if not NULL) has the JSON
 * text value instead, or is left out when value is NULL; extra is pasted in as further
 * members (without a leading comma). */
static const char *config(const char *field, const char *value, const char *extra) {
  static char buf[4096];
  size_t used = 0, i;
  int first = 1;
  used += (size_t)snprintf(buf + used, sizeof buf - used, "{");
  for (i = 0; i < FIELD_COUNT; i++) {
    const char *v = VALUES[i];
    if (field && strcmp(field, FIELDS[i]) == 0) {
      if (!value) continue;
      v = value;
    }
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s\"%s\": %s", first ? "" : ", ", FIELDS[i], v);
    first = 0;
  }
  if (field && value) {
    for (i = 0; i < FIELD_COUNT && strcmp(field, FIELDS[i]) != 0; i++) continue;
    if (i == FIELD_COUNT) used += (size_t)snprintf(buf + used, sizeof buf - used, ", \"%s\": %s", field, value);
  }
  if (extra) used += (size_t)snprintf(buf + used, sizeof buf - used, ", %s", extra);
  snprintf(buf + used, sizeof buf - used, "}");
  return buf;
}

static void the_8b_config_reads_as_its_shape(void **state) {
  gs_model s;
  (void)state;
  ts_model("8b", &s);
  assert_int_equal(s.hidden, 4096);
  assert_int_equal(s.ffn_width, 14336);
  assert_int_equal(s.layers, 32);
  assert_int_equal(s.heads, 32);
  assert_int_equal(s.kv_heads, 8);
  assert_int_equal(s.head_dim, 128);
  assert_int_equal(s.vocab, 128256);
  assert_string_equal(s.type, "llama");
  assert_int_equal(s.params, UINT64_C(8030261248));
}

static void absent_key_value_heads_default_to_the_attention_heads(void **state) {
  gs_model s;
  (void)state;
  s = ts_parse_ok(config(NULL, NULL, NULL));
  assert_int_equal(s.kv_heads, 32);
  s = ts_parse_ok(config("num_key_value_heads", "null", NULL));
  assert_int_equal(s.kv_heads, 32);
  s = ts_parse_ok(config("num_key_value_heads", "8", NULL));
  assert_int_equal(s.kv_heads, 8);
}

static void an_absent_or_null_head_dim_defaults_to_hidden_over_heads(void **state) {
  gs_model s;
  (void)state;
  s = ts_parse_ok(config(NULL, NULL, NULL));
  assert_int_equal(s.head_dim, 4096 / 32);
  s = ts_parse_ok(config("head_dim", "null", NULL));
  assert_int_equal(s.head_dim, 128);
  s = ts_parse_ok(config("head_dim", "256", NULL));
  assert_int_equal(s.head_dim, 256);
}

static void a_given_head_dim_allows_hidden_that_is_not_a_multiple_of_heads(void **state) {
  gs_model s;
  (void)state;
  s = ts_parse_ok(config("hidden_size", "4100", "\"head_dim\": 128"));
  assert_int_equal(s.hidden, 4100);
  assert_int_equal(s.head_dim, 128);
}

static void tied_embeddings_default_to_untied_and_save_one_table(void **state) {
  gs_model untied, tied, absent, null_tied;
  (void)state;
  absent = ts_parse_ok(config(NULL, NULL, NULL));
  untied = ts_parse_ok(config("tie_word_embeddings", "false", NULL));
  null_tied = ts_parse_ok(config("tie_word_embeddings", "null", NULL));
  tied = ts_parse_ok(config("tie_word_embeddings", "true", NULL));
  assert_int_equal(absent.params, untied.params);
  assert_int_equal(null_tied.params, untied.params);
  assert_int_equal(untied.params - tied.params, UINT64_C(128256) * 4096);
}

static void extra_keys_and_nested_objects_and_arrays_are_ignored(void **state) {
  gs_model plain, busy;
  (void)state;
  plain = ts_parse_ok(config(NULL, NULL, NULL));
  busy = ts_parse_ok(config(NULL, NULL,
                         "\"rope_scaling\": {\"hidden_size\": 1, \"factor\": 8.0, \"deep\": {\"vocab_size\": [1, 2]}}, "
                         "\"architectures\": [\"LlamaForCausalLM\", {\"num_hidden_layers\": 7}, [[]]], "
                         "\"torch_dtype\": \"bfloat16\", \"rms_norm_eps\": 1e-05, \"use_cache\": true, \"pad\": null"));
  assert_memory_equal(&plain, &busy, sizeof plain);
}

static void the_last_of_repeated_keys_wins_as_in_python(void **state) {
  gs_model s;
  (void)state;
  s = ts_parse_ok(config(NULL, NULL, "\"num_hidden_layers\": 80"));
  assert_int_equal(s.layers, 80);
}

static void whitespace_around_the_object_is_allowed(void **state) {
  char buf[4096];
  (void)state;
  snprintf(buf, sizeof buf, " \n\t%s\r\n ", config(NULL, NULL, NULL));
  (void)ts_parse_ok(buf);
}

static void text_that_is_not_json_is_refused(void **state) {
  (void)state;
  ts_refused("hello", GS_ERR_JSON, "", NULL);
  ts_refused("{hidden_size: 4096}", GS_ERR_JSON, "", NULL);
  ts_refused("{\"hidden_size\" 4096}", GS_ERR_JSON, "", NULL);
}

/* jsmn finds structure but does not validate it (zserge/jsmn's README: "it is not a
 * validating parser"); the reader must still refuse what RFC 8259 does not allow. */
static void misspelled_literals_are_not_json(void **state) {
  static const struct {
    const char *field, *value;
  } cases[] = {{"tie_word_embeddings", "fals"}, {"tie_word_embeddings", "trueish"}, {"head_dim", "nope"},
               {"num_key_value_heads", "nul"}, {"hidden_size", "nan"}};
  char wrong[1024] = "";
  size_t k, used = 0;
  gs_model s;
  gs_error err;
  (void)state;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int rc = ts_parse(config(cases[k].field, cases[k].value, NULL), &s, &err);
    if (rc != GS_ERR_JSON && used < sizeof wrong)
      used += (size_t)snprintf(wrong + used, sizeof wrong - used, "\n  %s: %s read with status %d", cases[k].field,
                               cases[k].value, rc);
  }
  if (used) fail_msg("not refused as JSON:%s", wrong);
}

static void commas_and_colons_out_of_place_are_not_json(void **state) {
  static const char *const extras[] = {
      "\"x\": [1 2]",   /* no comma between elements */
      "\"x\": [1,]",    /* trailing comma */
      "\"x\"",          /* a key with no value */
      "\"x\": 1:2",     /* a value followed by a colon */
      ", \"x\": 1",     /* two commas in a row */
      "\"x\": \"\x01\"", /* a raw control character in a string */
  };
  char wrong[1024] = "";
  size_t k, used = 0;
  gs_model s;
  gs_error err;
  (void)state;
  for (k = 0; k < sizeof extras / sizeof extras[0]; k++) {
    int rc = ts_parse(config(NULL, NULL, extras[k]), &s, &err);
    if (rc != GS_ERR_JSON && used < sizeof wrong)
      used += (size_t)snprintf(wrong + used, sizeof wrong - used, "\n  %s read with status %d", extras[k], rc);
  }
  if (used) fail_msg("not refused as JSON:%s", wrong);
  ts_refused("{\"hidden_size\": 4096 \"intermediate_size\": 14336, \"num_hidden_layers\": 32, "
          "\"num_attention_heads\": 32, \"vocab_size\": 128256}",
          GS_ERR_JSON, "", NULL);
  ts_refused("{, \"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_hidden_layers\": 32, "
          "\"num_attention_heads\": 32, \"vocab_size\": 128256}",
          GS_ERR_JSON, "", NULL);
  ts_refused("{\"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_hidden_layers\": 32, "
          "\"num_attention_heads\": 32, \"vocab_size\": 128256,}",
          GS_ERR_JSON, "", NULL);
}

static void truncated_json_is_refused(void **state) {
  char buf[4096];
  (void)state;
  snprintf(buf, sizeof buf, "%s", config(NULL, NULL, NULL));
  buf[strlen(buf) - 1] = '\0';
  ts_refused(buf, GS_ERR_JSON, "", NULL);
  ts_refused("{\"hidden_size\": 40", GS_ERR_JSON, "", NULL);
  ts_refused("{\"hidden_size\": \"40", GS_ERR_JSON, "", NULL);
}

static void empty_text_is_refused(void **state) {
  (void)state;
  ts_refused("", GS_ERR_JSON, "", NULL);
  ts_refused("  \n", GS_ERR_JSON, "", NULL);
}

static void a_top_level_array_or_number_is_not_a_config(void **state) {
  (void)state;
  ts_refused("[1, 2, 3]", GS_ERR_NOT_OBJECT, "", NULL);
  ts_refused("42\n", GS_ERR_NOT_OBJECT, "", NULL);
  ts_refused("true\n", GS_ERR_NOT_OBJECT, "", NULL);
  ts_refused("42", GS_ERR_NOT_OBJECT, "", NULL); /* valid JSON (RFC 8259), though it ends at a number */
  ts_refused("\"hidden_size\"", GS_ERR_NOT_OBJECT, "", NULL);
}

static void each_missing_required_field_is_named(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < FIELD_COUNT; i++) ts_refused(config(FIELDS[i], NULL, NULL), GS_ERR_MISSING, FIELDS[i], NULL);
}

static void a_required_field_of_the_wrong_type_is_named(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < FIELD_COUNT; i++) {
    ts_refused(config(FIELDS[i], "\"4096\"", NULL), GS_ERR_TYPE, FIELDS[i], NULL);
    ts_refused(config(FIELDS[i], "true", NULL), GS_ERR_TYPE, FIELDS[i], NULL);
    ts_refused(config(FIELDS[i], "false", NULL), GS_ERR_TYPE, FIELDS[i], NULL);
    ts_refused(config(FIELDS[i], "{}", NULL), GS_ERR_TYPE, FIELDS[i], NULL);
    ts_refused(config(FIELDS[i], "[4096]", NULL), GS_ERR_TYPE, FIELDS[i], NULL);
  }
  ts_refused(config("num_key_value_heads", "\"8\"", NULL), GS_ERR_TYPE, "num_key_value_heads", NULL);
  ts_refused(config("head_dim", "[128]", NULL), GS_ERR_TYPE, "head_dim", NULL);
  ts_refused(config("tie_word_embeddings", "0", NULL), GS_ERR_TYPE, "tie_word_embeddings", NULL);
  ts_refused(config("tie_word_embeddings", "\"true\"", NULL), GS_ERR_TYPE, "tie_word_embeddings", NULL);
}

static void a_null_required_field_counts_as_missing(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < FIELD_COUNT; i++) ts_refused(config(FIELDS[i], "null", NULL), GS_ERR_MISSING, FIELDS[i], NULL);
}

static void zero_negative_and_fractional_counts_are_out_of_range(void **state) {
  static const char *const bad[] = {"0", "-1", "-4096", "-0", "4096.5", "4096.0", "4.096e3", "4096e0", "0.5"};
  size_t i, k;
  (void)state;
  for (i = 0; i < FIELD_COUNT; i++)
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) ts_refused(config(FIELDS[i], bad[k], NULL), GS_ERR_RANGE, FIELDS[i], NULL);
  ts_refused(config("num_key_value_heads", "0", NULL), GS_ERR_RANGE, "num_key_value_heads", NULL);
  ts_refused(config("head_dim", "128.5", NULL), GS_ERR_RANGE, "head_dim", NULL);
}

static void numbers_json_does_not_allow_are_refused(void **state) {
  static const char *const bad[] = {"04096", "+4096", "4096.", ".5", "0x1000", "nan", "inf", "-inf", "Infinite", "NaNa", "+Infinity"};
  size_t k;
  gs_model s;
  gs_error err;
  (void)state;
  for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    int rc = ts_parse(config("hidden_size", bad[k], NULL), &s, &err);
    if (rc != GS_ERR_JSON) fail_msg("hidden_size %s: status %d, %s: %s", bad[k], rc, err.field, err.what);
  }
}

/* Python's json module writes NaN, Infinity and -Infinity: in a key the count does not use
 * they are numbers like any other (the config counts as without them); in a key it uses,
 * they are refused by the key's name. */
static void python_nan_and_infinity_are_numbers_refused_where_used(void **state) {
  static const char *const words[] = {"NaN", "Infinity", "-Infinity"};
  char extra[96];
  size_t k;
  (void)state;
  for (k = 0; k < sizeof words / sizeof words[0]; k++) {
    snprintf(extra, sizeof extra, "\"rope_theta\": %s, \"scales\": [1, %s]", words[k], words[k]);
    assert_int_equal(ts_parse_ok(config(NULL, NULL, extra)).params, ts_parse_ok(config(NULL, NULL, NULL)).params);
    ts_refused(config("hidden_size", words[k], NULL), GS_ERR_RANGE, "hidden_size", words[k]);
    ts_refused(config("head_dim", words[k], NULL), GS_ERR_RANGE, "head_dim", words[k]);
  }
  ts_refused(config("tie_word_embeddings", "NaN", NULL), GS_ERR_TYPE, "tie_word_embeddings", NULL);
  /* NVIDIA's nemotron_h configs hold "time_step_limit": [0.0, Infinity]: refused by type */
  ts_refused("{\"model_type\": \"nemotron_h\", \"time_step_limit\": [0.0, Infinity], \"hidden_size\": 4096}",
             GS_ERR_UNSUPPORTED, "", "model_type 'nemotron_h' is not supported");
}

/* Counts must be exact in a double, so the reader stops at 2^53; the header files "too
 * large" under GS_ERR_RANGE. */
static void a_count_above_2_to_the_53_is_too_large(void **state) {
  (void)state;
  ts_refused(config("num_hidden_layers", "9007199254740993", NULL), GS_ERR_RANGE, "num_hidden_layers", NULL);
  ts_refused(config("num_hidden_layers", "99999999999999999999999999", NULL), GS_ERR_RANGE, "num_hidden_layers", NULL);
  ts_refused(config("num_hidden_layers", "1e400", NULL), GS_ERR_RANGE, "num_hidden_layers", NULL);
}

/* Layers, heads and experts each have a bound (gpusplit.h), refused by name before any
 * family counts with them; the bound itself reads. */
static void counts_above_their_bounds_are_refused_by_name(void **state) {
  static const char DEEPSEEK[] =
      "{\"model_type\": \"deepseek_v3\", \"hidden_size\": 64, \"intermediate_size\": 64, \"num_hidden_layers\": %s, "
      "\"num_attention_heads\": 2, \"vocab_size\": 10, \"kv_lora_rank\": 4, \"qk_nope_head_dim\": 4, \"qk_rope_head_dim\": 4, "
      "\"v_head_dim\": 4, \"n_routed_experts\": %s, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 8, "
      "\"first_k_dense_replace\": 3, \"moe_layer_freq\": 2}";
  char text[1024];
  gs_model m;
  (void)state;
  ts_refused(config("num_hidden_layers", "65537", NULL), GS_ERR_RANGE, "num_hidden_layers", "65537 is too large (at most 65536)");
  ts_refused(config("num_attention_heads", "65537", NULL), GS_ERR_RANGE, "num_attention_heads", "at most 65536");
  ts_refused(config("num_key_value_heads", "65537", NULL), GS_ERR_RANGE, "num_key_value_heads", "at most 65536");
  m = ts_parse_ok(config("num_hidden_layers", "65536", NULL));
  assert_int_equal(m.layers, 65536);
  /* the count that once hung the reader: 2^53 layers, refused at once */
  snprintf(text, sizeof text, DEEPSEEK, "9007199254740992", "4");
  ts_refused(text, GS_ERR_RANGE, "num_hidden_layers", "9007199254740992 is too large");
  snprintf(text, sizeof text, DEEPSEEK, "61", "65537");
  ts_refused(text, GS_ERR_RANGE, "n_routed_experts", "at most 65536");
  snprintf(text, sizeof text, DEEPSEEK, "65536", "65536");
  m = ts_parse_ok(text);
  assert_int_equal(m.experts, 65536);
  /* mixture-of-experts layers are those from first_k_dense_replace (3) that are multiples of
   * moe_layer_freq (2): 4, 6 and 8 of 10 layers; 4, 6, ..., 65534 (32,766) of 65,536. Each
   * holds 4 experts of 3 matrices of 64 x 8: 6,144 routed weights. */
  snprintf(text, sizeof text, DEEPSEEK, "10", "4");
  assert_int_equal(ts_parse_ok(text).routed_params, 3 * 6144);
  snprintf(text, sizeof text, DEEPSEEK, "65536", "4");
  assert_int_equal(ts_parse_ok(text).routed_params, UINT64_C(32766) * 6144);
  ts_refused("{\"model_type\": \"mixtral\", \"hidden_size\": 64, \"intermediate_size\": 64, \"num_hidden_layers\": 2, "
             "\"num_attention_heads\": 2, \"vocab_size\": 10, \"num_local_experts\": 9007199254740992, \"num_experts_per_tok\": 2}",
             GS_ERR_RANGE, "num_local_experts", "at most 65536");
}

static void a_number_longer_than_the_reader_holds_is_out_of_range(void **state) {
  char digits[200];
  (void)state;
  memset(digits, '9', sizeof digits - 1);
  digits[sizeof digits - 1] = '\0';
  ts_refused(config("vocab_size", digits, NULL), GS_ERR_RANGE, "vocab_size", NULL);
}

static void key_value_heads_that_do_not_divide_the_heads_are_refused(void **state) {
  (void)state;
  ts_refused(config("num_key_value_heads", "5", NULL), GS_ERR_SHAPE, "num_key_value_heads", NULL);
  ts_refused(config("num_key_value_heads", "64", NULL), GS_ERR_SHAPE, "num_key_value_heads", NULL);
}

static void hidden_not_a_multiple_of_heads_without_head_dim_is_refused(void **state) {
  (void)state;
  ts_refused(config("hidden_size", "4100", NULL), GS_ERR_SHAPE, "hidden_size", NULL);
  ts_refused(config("hidden_size", "4100", "\"head_dim\": null"), GS_ERR_SHAPE, "hidden_size", NULL);
}

static void sizes_whose_byte_totals_overflow_64_bits_are_refused(void **state) {
  gs_model s;
  gs_error err;
  (void)state;
  assert_int_equal(ts_parse(config("hidden_size", "9007199254740992", NULL), &s, &err), GS_ERR_OVERFLOW);
  assert_int_equal(ts_parse(config("hidden_size", "4294967296", NULL), &s, &err), GS_ERR_OVERFLOW);
  assert_int_equal(ts_parse(config("vocab_size", "1125899906842624", "\"hidden_size\": 1048576"), &s, &err), GS_ERR_OVERFLOW);
  assert_int_equal(ts_parse(config("intermediate_size", "9007199254740992", NULL), &s, &err), GS_ERR_OVERFLOW);
  /* 3 x 4,096 x 2^40 feed-forward weights a layer: 32 layers fit, 65,536 (the most) do not */
  assert_int_equal(ts_parse("{\"hidden_size\": 4096, \"intermediate_size\": 1099511627776, \"num_hidden_layers\": 65536, "
                            "\"num_attention_heads\": 32, \"vocab_size\": 128256}", &s, &err), GS_ERR_OVERFLOW);
  assert_int_equal(err.code, GS_ERR_OVERFLOW);
  assert_true(err.what[0] != '\0');
}

/* The largest total the cost model computes, 2 * params * words, must stay within 64 bits. */
static void words_that_would_overflow_the_operation_count_are_refused(void **state) {
  gs_model s;
  gs_error err;
  (void)state;
  gs_plan one = ts_plan(1, GS_SLICES, 1), most = ts_plan(1, GS_SLICES, GS_MAX_WORDS), none = ts_plan(1, GS_SLICES, 0),
          over = ts_plan(1, GS_SLICES, GS_MAX_WORDS + 1);
  ts_model("405b", &s);
  assert_int_equal(gs_plan_check(&s, &one, &err), GS_OK);
  assert_int_equal(gs_plan_check(&s, &most, &err), GS_OK);
  assert_int_equal(gs_plan_check(&s, &none, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "words");
  assert_int_equal(gs_plan_check(&s, &over, &err), GS_ERR_RANGE);
  /* 32 layers x 3 x 4,096 x 2^32 weights of feed-forward: 2 x that x 2^20 words is past 2^64 */
  s = ts_parse_ok(config("intermediate_size", "4294967296", NULL));
  assert_int_equal(gs_plan_check(&s, &most, &err), GS_ERR_OVERFLOW);
}

/* A document of exactly GS_JSON_TOKENS tokens: the object, 5 fields (10 tokens), a key
 * and an array (2 tokens), and the array's elements. */
static const char *many_tokens(size_t elements) {
  static char buf[16384];
  size_t used, i;
  used = (size_t)snprintf(buf, sizeof buf, "%s", config(NULL, NULL, NULL));
  used--; /* drop the closing brace */
  used += (size_t)snprintf(buf + used, sizeof buf - used, ", \"pad\": [");
  for (i = 0; i < elements; i++) used += (size_t)snprintf(buf + used, sizeof buf - used, "%s0", i ? "," : "");
  snprintf(buf + used, sizeof buf - used, "]}");
  return buf;
}

static void more_tokens_than_the_reader_holds_is_too_long(void **state) {
  (void)state;
  (void)ts_parse_ok(many_tokens(GS_JSON_TOKENS - 13));
  ts_refused(many_tokens(GS_JSON_TOKENS - 12), GS_ERR_TOO_LONG, "", NULL);
  ts_refused(many_tokens(6000), GS_ERR_TOO_LONG, "", NULL);
}

static void text_after_the_object_is_refused(void **state) {
  char buf[4096];
  (void)state;
  snprintf(buf, sizeof buf, "%s x", config(NULL, NULL, NULL));
  ts_refused(buf, GS_ERR_JSON, "", NULL);
  snprintf(buf, sizeof buf, "%s{}", config(NULL, NULL, NULL));
  ts_refused(buf, GS_ERR_JSON, "", NULL);
  snprintf(buf, sizeof buf, "%s,", config(NULL, NULL, NULL));
  ts_refused(buf, GS_ERR_JSON, "", NULL);
}

static void only_len_bytes_of_the_text_are_read(void **state) {
  char buf[4096];
  gs_model s;
  gs_error err;
  size_t len;
  (void)state;
  snprintf(buf, sizeof buf, "%s garbage", config(NULL, NULL, NULL));
  len = strlen(buf) - strlen(" garbage");
  assert_int_equal(gs_model_parse(buf, len, 0, &s, &err), GS_OK);
  assert_int_equal(gs_model_parse(buf, len - 1, 0, &s, &err), GS_ERR_JSON);
}

static void the_built_in_gpu_reads_as_the_data_sheets_figures(void **state) {
  gs_gpu g;
  gs_error err;
  (void)state;
  assert_int_equal(gs_gpu_parse(GS_DATA_gpus_json, strlen(GS_DATA_gpus_json), "lesson", &g, NULL, &err), GS_OK);
  assert_true(g.gib == 80);
  assert_true(g.usable == 0.92);
  assert_true(g.bandwidth == 2.039e12);
  assert_true(g.flops == 312e12);
  assert_int_equal(gs_usable_bytes(&g), UINT64_C(79027398246)); /* int(80 * 2**30 * 0.92) in the reference */
}

/* The typed tables every build links (scripts/tables.c) hold what the readers read from
 * data/, field for field: every catalogue model against its config counted now, every GPU
 * and link against data/'s JSON. A field the generator forgot to write fails here. */
static void the_typed_tables_hold_what_the_readers_read_from_data(void **state) {
  char keys[4096];
  const char *arrays[] = {"gpus", "links"};
  size_t i, a;
  gs_error err;
  (void)state;
  for (i = 0; i < GS_MODEL_COUNT; i++) {
    gs_model table, read;
    memset(&table, 0, sizeof table);
    memset(&read, 0, sizeof read);
    assert_int_equal(gs_builtin_model(GS_MODELS[i].key, 0, &table, &err), GS_OK);
    assert_int_equal(gs_model_parse(GS_MODELS[i].json, strlen(GS_MODELS[i].json), 0, &read, &err), GS_OK);
    if (memcmp(&table, &read, sizeof table) != 0) fail_msg("%s: the table differs from the config as read", GS_MODELS[i].key);
  }
  for (a = 0; a < 2; a++) {
    const char *json = a == 0 ? GS_DATA_gpus_json : GS_DATA_links_json, *at = keys;
    assert_int_equal(gs_builtin_keys(arrays[a], keys, sizeof keys, &err), GS_OK);
    while (*at) {
      char key[64];
      size_t len = strcspn(at, ",");
      gs_hardware_text t1, t2;
      memset(&t1, 0, sizeof t1);
      memset(&t2, 0, sizeof t2);
      assert_true(len < sizeof key);
      memcpy(key, at, len);
      key[len] = '\0';
      if (a == 0) {
        gs_gpu g1, g2;
        memset(&g1, 0, sizeof g1);
        memset(&g2, 0, sizeof g2);
        assert_int_equal(gs_builtin_gpu(key, &g1, &t1, &err), GS_OK);
        assert_int_equal(gs_gpu_parse(json, strlen(json), key, &g2, &t2, &err), GS_OK);
        if (memcmp(&g1, &g2, sizeof g1) != 0) fail_msg("gpu %s: the table differs from data/gpus.json", key);
      } else {
        gs_link l1, l2;
        memset(&l1, 0, sizeof l1);
        memset(&l2, 0, sizeof l2);
        assert_int_equal(gs_builtin_link(key, &l1, &t1, &err), GS_OK);
        assert_int_equal(gs_link_parse(json, strlen(json), key, &l2, &t2, &err), GS_OK);
        if (memcmp(&l1, &l2, sizeof l1) != 0) fail_msg("link %s: the table differs from data/links.json", key);
      }
      if (memcmp(&t1, &t2, sizeof t1) != 0) fail_msg("%s: the table's texts differ from data/'s", key);
      at += len;
      while (*at == ',' || *at == ' ') at++;
    }
  }
}

static void the_built_in_links_read_as_the_data_sheets_and_nccls_figures(void **state) {
  gs_link l;
  gs_error err;
  gs_hardware_text text;
  (void)state;
  assert_int_equal(gs_link_parse(GS_DATA_links_json, strlen(GS_DATA_links_json), "fast", &l, &text, &err), GS_OK);
  assert_true(l.bandwidth == 600e9 && l.step_us == 0.6 && l.base_us == 6.6 && l.kind == GS_LINK_NVLINK);
  assert_string_equal(text.name, "Fast link");
  assert_int_equal(gs_link_parse(GS_DATA_links_json, strlen(GS_DATA_links_json), "Slow Link", &l, &text, &err), GS_OK);
  assert_true(l.bandwidth == 64e9 && l.step_us == 1.0 && l.base_us == 6.6 && l.kind == GS_LINK_PCI);
  assert_string_equal(text.key, "slow");
  /* a catalogue link without step_us takes NCCL's ring LL step latency for its kind */
  assert_int_equal(gs_link_parse(GS_DATA_links_json, strlen(GS_DATA_links_json), "ib-ndr", &l, &text, &err), GS_OK);
  assert_true(l.bandwidth == 50e9 && l.step_us == 2.7 && l.kind == GS_LINK_NET);
  assert_int_equal(gs_link_parse(GS_DATA_links_json, strlen(GS_DATA_links_json), "bogus", &l, &text, &err), GS_ERR_UNKNOWN);
  assert_string_equal(err.field, "link");
  assert_non_null(strstr(err.what, "names: fast, slow, nvlink3"));
}

static void gpu_refused(const char *json, int code, const char *field) {
  gs_gpu g;
  gs_error err;
  int rc;
  memset(&err, 0, sizeof err);
  rc = gs_gpu_parse(json, strlen(json), "g", &g, NULL, &err);
  if (rc != code || strcmp(err.field, field) != 0)
    fail_msg("expected %d for '%s', got %d for '%s': %s\n  in %s", code, field, rc, err.field, err.what, json);
}

static void bad_gpu_values_are_refused_with_the_field_named(void **state) {
  (void)state;
  gpu_refused("{\"usable\": 0, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 80, \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_RANGE, "gpu usable");
  gpu_refused("{\"usable\": 1.5, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 80, \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_RANGE, "gpu usable");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 80, \"bandwidth\": -2e12, \"flops\": 3e14}]}", GS_ERR_RANGE, "gpu bandwidth");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 0, \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_RANGE, "gpu gib");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 80, \"bandwidth\": 2e12, \"flops\": -1}]}", GS_ERR_RANGE, "gpu flops");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 1e400, \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_RANGE, "gib");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": 1e20, \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_OVERFLOW, "gpu gib");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"arch\": \"ampere\", \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_MISSING, "gib");
  gpu_refused("{\"gpus\": []}", GS_ERR_MISSING, "usable");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"h\"}]}", GS_ERR_UNKNOWN, "gpu");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"arch\": \"kepler\", \"gib\": 80, \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_RANGE, "arch");
  gpu_refused("{\"usable\": 0.9, \"gpus\": [{\"key\": \"g\", \"name\": \"G\", \"arch\": \"ampere\", \"gib\": \"80\", \"bandwidth\": 2e12, \"flops\": 3e14}]}", GS_ERR_TYPE, "gib");
  gpu_refused("[80]", GS_ERR_NOT_OBJECT, "");
}

static void a_gpu_struct_with_nan_or_a_bad_share_fails_the_check(void **state) {
  gs_gpu g;
  gs_error err;
  (void)state;
  ts_gpu(&g);
  assert_int_equal(gs_gpu_check(&g, &err), GS_OK);
  g.usable = 0;
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "gpu usable");
  g.usable = 1.5;
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  g.usable = 1.0;
  assert_int_equal(gs_gpu_check(&g, &err), GS_OK);
  g.bandwidth = NAN;
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "gpu bandwidth");
  ts_gpu(&g);
  g.gib = NAN;
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  ts_gpu(&g);
  g.usable = NAN;
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  ts_gpu(&g);
  g.flops = INFINITY;
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  ts_gpu(&g);
  g.gib = 1e-12; /* under one usable byte */
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_RANGE);
  g.gib = 1e300; /* more usable bytes than 64 bits count */
  assert_int_equal(gs_gpu_check(&g, &err), GS_ERR_OVERFLOW);
  assert_string_equal(err.field, "gpu gib");
}

/* The reader must give the same double as the C compiler does for the same decimal text,
 * or the native build and the wasm could disagree with the data's figures. */
static void gpu_figures_read_as_the_nearest_double_to_their_text(void **state) {
  static const struct {
    const char *text;
    double value;
  } cases[] = {{"0.92", 0.92},         {"2.039e12", 2.039e12}, {"312e12", 312e12},   {"600e9", 600e9},
               {"64e9", 64e9},         {"6.6", 6.6},           {"0.6", 0.6},         {"1.0", 1.0},
               {"2039000000000", 2039000000000.0}, {"0.1", 0.1}, {"3.3e-1", 0.33}, {"80E0", 80.0}};
  size_t k;
  (void)state;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char json[160];
    jsmntok_t toks[8];
    gs_json j;
    double x;
    gs_error err;
    snprintf(json, sizeof json, "{\"bandwidth\": %s}", cases[k].text);
    assert_int_equal(gs_json_parse(json, strlen(json), toks, 8, &j, &err), GS_OK);
    if (gs_json_number(&j, gs_json_find(&j, 0, "bandwidth"), "bandwidth", &x, &err) != GS_OK)
      fail_msg("%s: %s: %s", cases[k].text, err.field, err.what);
    assert_memory_equal(&x, &cases[k].value, sizeof x);
  }
}

static void a_link_with_a_negative_step_or_no_bandwidth_fails_the_check(void **state) {
  gs_link l;
  gs_error err;
  (void)state;
  ts_link("fast", &l);
  assert_int_equal(gs_link_check(&l, &err), GS_OK);
  l.step_us = -1;
  assert_int_equal(gs_link_check(&l, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "link step_us");
  l.step_us = 0;
  assert_int_equal(gs_link_check(&l, &err), GS_OK);
  l.base_us = NAN;
  assert_int_equal(gs_link_check(&l, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "link base_us");
  ts_link("fast", &l);
  l.bandwidth = 0;
  assert_int_equal(gs_link_check(&l, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "link bandwidth");
}

static void bad_links_files_are_refused(void **state) {
  static const struct {
    const char *json;
    int code;
    const char *field;
  } cases[] = {
      {"{\"links\": []}", GS_ERR_MISSING, "base_us"},
      {"{\"base_us\": 6.6}", GS_ERR_MISSING, "links"},
      {"{\"base_us\": 6.6, \"links\": {}}", GS_ERR_TYPE, "links"},
      {"{\"base_us\": 6.6, \"links\": [1]}", GS_ERR_TYPE, "links"},
      {"{\"base_us\": 6.6, \"links\": [{\"key\": \"fast\", \"kind\": \"nvlink\", \"label\": \"F\", \"bandwidth\": 6e11, \"step_us\": -0.6}]}",
       GS_ERR_RANGE, "link step_us"},
      {"{\"base_us\": 6.6, \"links\": [{\"key\": \"fast\", \"kind\": \"nvlink\", \"label\": \"F\", \"step_us\": 0.6}]}", GS_ERR_MISSING,
       "bandwidth"},
      {"{\"base_us\": 6.6, \"links\": [{\"key\": \"fast\", \"kind\": \"nvlink\", \"bandwidth\": 6e11, \"step_us\": 0.6}]}", GS_ERR_MISSING,
       "label"},
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gs_link l;
    gs_error err;
    gs_hardware_text text;
    int rc;
    memset(&err, 0, sizeof err);
    rc = gs_link_parse(cases[i].json, strlen(cases[i].json), "fast", &l, &text, &err);
    if (rc != cases[i].code || strcmp(err.field, cases[i].field) != 0)
      fail_msg("expected %d for '%s', got %d for '%s': %s\n  in %s", cases[i].code, cases[i].field, rc, err.field,
               err.what, cases[i].json);
  }
}

/* Issue 11's readers: a byte-order mark and escaped keys are JSON every reader takes. */
static void a_byte_order_mark_and_escaped_keys_read_as_the_plain_text(void **state) {
  const gs_model_entry *e = gs_find_model("8b");
  gs_model plain, read;
  gs_error err;
  char *text;
  const char *key;
  size_t n;
  (void)state;
  assert_non_null(e);
  assert_int_equal(gs_model_parse(e->json, strlen(e->json), 0, &plain, &err), GS_OK);
  n = strlen(e->json);
  text = malloc(n + 64);
  assert_non_null(text);
  /* the same text after a UTF-8 byte-order mark */
  memcpy(text, "\xEF\xBB\xBF", 3);
  memcpy(text + 3, e->json, n + 1);
  assert_int_equal(gs_model_parse(text, n + 3, 0, &read, &err), GS_OK);
  assert_memory_equal(&read, &plain, sizeof read);
  /* "hidden_size" written "hidden\u005fsize", and "llama" as "ll\u0061ma" */
  key = strstr(e->json, "\"hidden_size\"");
  assert_non_null(key);
  memcpy(text, e->json, (size_t)(key - e->json));
  strcpy(text + (key - e->json), "\"hidden\\u005fsize\"");
  strcat(text, key + strlen("\"hidden_size\""));
  assert_int_equal(gs_model_parse(text, strlen(text), 0, &read, &err), GS_OK);
  assert_memory_equal(&read, &plain, sizeof read);
  free(text);
  assert_int_equal(ts_parse("{\"model_type\": \"ll\\u0061ma\", \"hidden_size\": 64, \"intermediate_size\": 128, "
                            "\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 100}",
                            &read, &err),
                   GS_OK);
  assert_string_equal(read.type, "llama");
}

static void text_that_is_not_utf8_or_nests_too_deep_is_refused_by_name(void **state) {
  char deep[200];
  gs_model m;
  gs_error err;
  size_t i;
  (void)state;
  assert_int_equal(ts_parse("{\"model_type\": \"\xC0\xAF\"}", &m, &err), GS_ERR_JSON); /* an overlong '/' */
  assert_non_null(strstr(err.what, "not UTF-8 at byte 16"));
  assert_int_equal(ts_parse("{\"a\": \"\xED\xA0\x80\"}", &m, &err), GS_ERR_JSON); /* a surrogate */
  for (i = 0; i < 80; i++) deep[i] = '[';
  for (i = 80; i < 160; i++) deep[i] = ']';
  deep[160] = '\0';
  assert_int_equal(ts_parse(deep, &m, &err), GS_ERR_TOO_LONG);
  assert_non_null(strstr(err.what, "nests deeper than 64 levels"));
}

/* A message cut to fit its buffer never ends in half a character. */
static void a_cut_message_keeps_whole_characters(void **state) {
  char buf[8];
  (void)state;
  gs_format(buf, sizeof buf, "%s", "abcde\xC3\xA9\xC3\xA9"); /* "abcdeéé": 9 bytes into 7 */
  assert_string_equal(buf, "abcde\xC3\xA9");
  gs_format(buf, sizeof buf, "%s", "abcdef\xC3\xA9"); /* the é would be cut in half */
  assert_string_equal(buf, "abcdef");
  assert_int_equal(gs_utf8_invalid_at("a\xF4\x90\x80\x80", 5), 1); /* above U+10FFFF */
  assert_int_equal(gs_utf8_invalid_at("\xF0\x9F\x98\x80", 4), 4);  /* an emoji is fine */
}

/* vLLM 0.6's max_model_len (csrc/read/max_len.c, from vllm/config.py _get_and_verify_max_len
 * at v0.6.3): the smallest of the length keys, kept under a llama3 (or su, longrope) rope
 * and a "default" one without a factor; 0 (not derived) without max_position_embeddings,
 * under another scaled rope, or for a config whose text model is nested. Llama 3.1 405B's
 * file holds 131072 (data/models/llama31_405b_shape.json). */
static void vllm_max_len_follows_its_rule(void **state) {
  gs_model s;
  (void)state;
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096")).max_len, 4096);
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"seq_length\": 2048")).max_len, 2048);
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"n_positions\": 8192")).max_len, 4096);
  assert_int_equal(ts_parse_ok(config(NULL, NULL,
                                      "\"max_position_embeddings\": 131072, \"rope_scaling\": {\"factor\": 8.0, "
                                      "\"rope_type\": \"llama3\"}")).max_len,
                   131072);
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"rope_scaling\": null")).max_len, 4096);
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"rope_type\": \"default\"}")).max_len,
                   4096);
  /* scaled by a factor, or yarn's own length: not derived here */
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"linear\", \"factor\": 2.0}")).max_len,
                   0);
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 4.0}")).max_len,
                   0);
  /* a rope_scaling that is no object: vLLM fails on it, so no length */
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": 4096, \"rope_scaling\": [\"rope_type\", \"llama3\"]")).max_len, 0);
    /* the class's default, which the file does not hold */
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"seq_length\": 2048")).max_len, 0);
  assert_int_equal(ts_parse_ok(config(NULL, NULL, NULL)).max_len, 0);
  /* a length that is no whole number: not derived, and the shape still read */
  assert_int_equal(ts_parse_ok(config(NULL, NULL, "\"max_position_embeddings\": \"long\"")).max_len, 0);
  ts_model("405b", &s);
  assert_int_equal(s.max_len, 131072);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_8b_config_reads_as_its_shape),
      cmocka_unit_test(a_byte_order_mark_and_escaped_keys_read_as_the_plain_text),
      cmocka_unit_test(text_that_is_not_utf8_or_nests_too_deep_is_refused_by_name),
      cmocka_unit_test(a_cut_message_keeps_whole_characters),
      cmocka_unit_test(absent_key_value_heads_default_to_the_attention_heads),
      cmocka_unit_test(an_absent_or_null_head_dim_defaults_to_hidden_over_heads),
      cmocka_unit_test(a_given_head_dim_allows_hidden_that_is_not_a_multiple_of_heads),
      cmocka_unit_test(tied_embeddings_default_to_untied_and_save_one_table),
      cmocka_unit_test(extra_keys_and_nested_objects_and_arrays_are_ignored),
      cmocka_unit_test(the_last_of_repeated_keys_wins_as_in_python),
      cmocka_unit_test(whitespace_around_the_object_is_allowed),
      cmocka_unit_test(text_that_is_not_json_is_refused),
      cmocka_unit_test(misspelled_literals_are_not_json),
      cmocka_unit_test(commas_and_colons_out_of_place_are_not_json),
      cmocka_unit_test(truncated_json_is_refused),
      cmocka_unit_test(empty_text_is_refused),
      cmocka_unit_test(a_top_level_array_or_number_is_not_a_config),
      cmocka_unit_test(each_missing_required_field_is_named),
      cmocka_unit_test(a_required_field_of_the_wrong_type_is_named),
      cmocka_unit_test(a_null_required_field_counts_as_missing),
      cmocka_unit_test(zero_negative_and_fractional_counts_are_out_of_range),
      cmocka_unit_test(numbers_json_does_not_allow_are_refused),
      cmocka_unit_test(a_count_above_2_to_the_53_is_too_large),
      cmocka_unit_test(counts_above_their_bounds_are_refused_by_name),
      cmocka_unit_test(a_number_longer_than_the_reader_holds_is_out_of_range),
      cmocka_unit_test(key_value_heads_that_do_not_divide_the_heads_are_refused),
      cmocka_unit_test(hidden_not_a_multiple_of_heads_without_head_dim_is_refused),
      cmocka_unit_test(sizes_whose_byte_totals_overflow_64_bits_are_refused),
      cmocka_unit_test(words_that_would_overflow_the_operation_count_are_refused),
        cmocka_unit_test(more_tokens_than_the_reader_holds_is_too_long),
      cmocka_unit_test(text_after_the_object_is_refused),
      cmocka_unit_test(only_len_bytes_of_the_text_are_read),
      cmocka_unit_test(the_built_in_gpu_reads_as_the_data_sheets_figures),
      cmocka_unit_test(the_built_in_links_read_as_the_data_sheets_and_nccls_figures),
      cmocka_unit_test(bad_gpu_values_are_refused_with_the_field_named),
      cmocka_unit_test(a_gpu_struct_with_nan_or_a_bad_share_fails_the_check),
      cmocka_unit_test(python_nan_and_infinity_are_numbers_refused_where_used),
      cmocka_unit_test(gpu_figures_read_as_the_nearest_double_to_their_text),
      cmocka_unit_test(a_link_with_a_negative_step_or_no_bandwidth_fails_the_check),
      cmocka_unit_test(bad_links_files_are_refused),
      cmocka_unit_test(the_typed_tables_hold_what_the_readers_read_from_data),
      cmocka_unit_test(vllm_max_len_follows_its_rule),
  };
  return cmocka_run_group_tests_name("shape", tests, NULL, NULL);
}
