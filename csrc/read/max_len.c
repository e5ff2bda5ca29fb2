/* The longest sequence vLLM 0.6 serves a config at when --max-model-len is not given: its
 * max_model_len, which sets the token budget of a step without chunked prefill
 * (max(max_model_len, 2048), vllm/config.py SchedulerConfig; serve.c). Read from
 * vllm/config.py _get_and_verify_max_len at v0.6.3 (ROCm/vllm v0.6.3+rocm, the same as
 * vllm-project/vllm @ fd47e57f4b0d5f7920903490bce13bc9e49d8dba):
 * - the smallest of the config's max_position_embeddings, n_positions, max_seq_len,
 *   seq_length, model_max_length, max_sequence_length, max_seq_length and seq_len;
 * - a rope_scaling whose rope_type (or type) is su, longrope or llama3 leaves it; "default"
 *   without a factor multiplies it by 1.0; any other multiplies it by its factor (yarn from
 *   its original_max_position_embeddings).
 * vLLM reads these off the transformers config object, where a key the file leaves out takes
 * its class's default; so a file without max_position_embeddings, a scaled rope, or a
 * text_config (vLLM reads the text model's own) gives 0 here: not derived, and serve asks
 * for the budget instead of guessing it. */
#include "internal.h"

static const char *const LENGTH_KEYS[] = {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
                                          "model_max_length", "max_sequence_length", "max_seq_length", "seq_len"};

/* 1 when the config's rope_scaling leaves the length as it is. */
static int rope_keeps_length(const gs_json *j) {
  static const char *const KEEP[] = {"su", "longrope", "llama3"};
  int at = gs_json_find(j, 0, "rope_scaling"), type;
  size_t i;
  if (at < 0 || gs_json_is_null(j, at)) return 1;
  if (j->toks[at].type != JSMN_OBJECT) return 0; /* vLLM would fail on it: no length here */
  type = gs_json_find(j, at, "rope_type");
  if (type < 0) type = gs_json_find(j, at, "type");
  if (type < 0) return 0;
  for (i = 0; i < sizeof KEEP / sizeof KEEP[0]; i++)
    if (gs_json_string_is(j, type, KEEP[i])) return 1;
  return gs_json_string_is(j, type, "default") && gs_json_find(j, at, "factor") < 0;
}

uint64_t gs_config_max_len(const gs_json *j) {
  uint64_t shortest = 0;
  size_t i;
  gs_error ignored;
  if (gs_json_find(j, 0, "text_config") >= 0 || !rope_keeps_length(j)) return 0;
  for (i = 0; i < sizeof LENGTH_KEYS / sizeof LENGTH_KEYS[0]; i++) {
    int at = gs_json_find(j, 0, LENGTH_KEYS[i]);
    uint64_t len;
    if (at < 0 || gs_json_is_null(j, at)) {
      if (i == 0) return 0; /* the class's default, which the file does not hold */
      continue;
    }
    if (gs_json_whole(j, at, LENGTH_KEYS[i], 1, &len, &ignored) != GS_OK) return 0;
    if (shortest == 0 || len < shortest) shortest = len;
  }
  return shortest;
}
