/* Seeded random settings for the parity tests (`gpusplit fixture --random, --families,
 * --machines`): a config.json's text of a Llama-style model or of any family the reader
 * counts, a GPU, a link and a plan, and with machines the settings past the lesson. The
 * same seed draws the same settings on every machine, so that the WebAssembly build is held
 * to the native one on them (random_setting.h). */
#include <stdio.h>
#include <string.h>

#include "emit/random_setting.h"

/* A whole number from lo to hi, and a double from lo to hi, drawn from splitmix64 (Steele,
 * Lea and Flood, OOPSLA 2014; gs_splitmix64, csrc/serve/load.c): small, and the same
 * sequence on every machine. */
static uint64_t pick(uint64_t *state, uint64_t lo, uint64_t hi) { return lo + gs_splitmix64(state) % (hi - lo + 1); }
static double uniform(uint64_t *state, double lo, double hi) {
  return lo + (hi - lo) * ((double)(gs_splitmix64(state) >> 11) / 9007199254740992.0);
}

/* A random Llama-style config: kv heads divide the heads; head_dim is sometimes given and
 * hidden then need not be heads x head_dim; sizes keep every byte total exact. */
static void random_llama(uint64_t *state, char *buf, size_t cap) {
  uint64_t kv_choices[] = {1, 2, 4, 8, 16};
  uint64_t kv = kv_choices[pick(state, 0, 4)], heads = kv * pick(state, 1, 16), head_dim, hidden, width, layers, vocab;
  int head_dim_given = pick(state, 0, 3) == 0, tied;
  char head_dim_text[48] = "";
  head_dim = 16 * pick(state, 1, 16);
  hidden = head_dim_given ? 64 * pick(state, 4, 256) : heads * head_dim;
  width = 256 * pick(state, 1, 256);
  layers = pick(state, 1, 160);
  vocab = pick(state, 1000, 260000);
  tied = pick(state, 0, 1) == 1;
  if (head_dim_given) snprintf(head_dim_text, sizeof head_dim_text, "\"head_dim\":%llu,", (unsigned long long)head_dim);
  snprintf(buf, cap,
           "{\"hidden_size\":%llu,\"intermediate_size\":%llu,\"num_hidden_layers\":%llu,\"num_attention_heads\":%llu,"
           "\"num_key_value_heads\":%llu,%s\"vocab_size\":%llu,\"tie_word_embeddings\":%s}",
           (unsigned long long)hidden, (unsigned long long)width, (unsigned long long)layers, (unsigned long long)heads,
           (unsigned long long)kv, head_dim_text, (unsigned long long)vocab, tied ? "true" : "false");
}

/* A random config of one of the families the reader counts, exercising the keys that
 * change the count: biases, norms, windows, experts, MLA, stored formats. */
static void random_family(uint64_t *state, char *buf, size_t cap) {
  static const char *const TYPES[] = {"llama", "mistral", "qwen2", "qwen3", "olmo2", "phi3", "gemma", "gemma2",
                                      "gemma3_text", "mixtral", "qwen2_moe", "qwen3_moe", "deepseek_v2", "deepseek_v3", "gpt_oss"};
  const char *type = TYPES[pick(state, 0, sizeof TYPES / sizeof TYPES[0] - 1)];
  uint64_t kv = UINT64_C(1) << pick(state, 0, 3), heads = kv * pick(state, 1, 8), head_dim = 32 * pick(state, 1, 8);
  uint64_t hidden = 64 * pick(state, 2, 64), layers = pick(state, 1, 64), experts = pick(state, 1, 64);
  uint64_t k = pick(state, 1, experts), window = pick(state, 1, 16384);
  size_t at = 0;
  at += (size_t)snprintf(buf + at, cap - at,
                         "{\"model_type\":\"%s\",\"hidden_size\":%llu,\"intermediate_size\":%llu,\"num_hidden_layers\":%llu,"
                         "\"num_attention_heads\":%llu,\"num_key_value_heads\":%llu,\"head_dim\":%llu,\"vocab_size\":%llu,"
                         "\"tie_word_embeddings\":%s,\"attention_bias\":%s,\"sliding_window\":%llu,\"use_sliding_window\":%s",
                         type, (unsigned long long)hidden, (unsigned long long)(64 * pick(state, 1, 256)), (unsigned long long)layers,
                         (unsigned long long)heads, (unsigned long long)kv, (unsigned long long)head_dim,
                         (unsigned long long)pick(state, 1000, 300000), pick(state, 0, 1) ? "true" : "false",
                         pick(state, 0, 1) ? "true" : "false", (unsigned long long)window,
                         pick(state, 0, 1) && strstr(type, "moe") == NULL ? "true" : "false");
  at += (size_t)snprintf(buf + at, cap - at,
                         ",\"num_experts\":%llu,\"num_local_experts\":%llu,\"n_routed_experts\":%llu,\"num_experts_per_tok\":%llu,"
                         "\"moe_intermediate_size\":%llu,\"shared_expert_intermediate_size\":%llu,\"decoder_sparse_step\":%llu,"
                         "\"first_k_dense_replace\":%llu,\"n_shared_experts\":%llu,\"kv_lora_rank\":%llu,\"q_lora_rank\":%s,"
                         "\"qk_nope_head_dim\":%llu,\"qk_rope_head_dim\":%llu,\"v_head_dim\":%llu,\"max_window_layers\":%llu",
                         (unsigned long long)experts, (unsigned long long)experts, (unsigned long long)experts, (unsigned long long)k,
                         (unsigned long long)(32 * pick(state, 1, 64)), (unsigned long long)(32 * pick(state, 1, 128)),
                         (unsigned long long)pick(state, 1, 3), (unsigned long long)pick(state, 0, 3), (unsigned long long)pick(state, 0, 2),
                         (unsigned long long)(64 * pick(state, 1, 8)), pick(state, 0, 1) ? "null" : "768",
                         (unsigned long long)(32 * pick(state, 1, 4)), (unsigned long long)(32 * pick(state, 1, 2)),
                         (unsigned long long)(32 * pick(state, 1, 4)), (unsigned long long)pick(state, 0, 64));
  if (strcmp(type, "gpt_oss") == 0 && pick(state, 0, 1))
    at += (size_t)snprintf(buf + at, cap - at, ",\"quantization_config\":{\"quant_method\":\"mxfp4\"}");
  if (strcmp(type, "deepseek_v3") == 0 && pick(state, 0, 1))
    at += (size_t)snprintf(buf + at, cap - at, ",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[128,128]}");
  snprintf(buf + at, cap - at, "}");
}

/* The settings past the lesson, at random: servers and the link between them, the three
 * splits, the cache's tokens and bits, the switches, NCCL's protocols, link kinds and GPU
 * generations. The GPU count is a multiple of the servers' size under slices-groups. */
static void random_machine(uint64_t *state, gs_plan *p, gs_gpu *g, gs_link *l) {
  static const uint64_t PER_SERVER[] = {0, 1, 2, 4, 8, 16};
  p->per_server = PER_SERVER[pick(state, 0, 5)];
  p->split = (int)pick(state, 0, 2);
  if (p->split == GS_SLICES_GROUPS && p->per_server && p->gpus > p->per_server)
    p->gpus = p->per_server * pick(state, 1, 64 / p->per_server);
  p->chat_tokens = pick(state, 1, 4) == 1 ? 0 : pick(state, 1, 131072);
  p->cache_bits = pick(state, 0, 32);
  p->cache_per_chat = (int)pick(state, 0, 1);
  p->overlap = (int)pick(state, 0, 1);
  p->read_cache = (int)pick(state, 0, 1);
  p->nccl = (int)pick(state, 0, 1);
  p->between.bandwidth = uniform(state, 1e9, 1e11);
  p->between.step_us = uniform(state, 0, 10);
  p->between.base_us = l->base_us;
  p->between.kind = (int)pick(state, 0, 2);
  l->kind = (int)pick(state, 0, 2);
  g->arch = (int)pick(state, 1, 4);
}

void gs_random_setting(uint64_t *state, int families, int machines, char *config, size_t cap, gs_plan *p, gs_gpu *g, gs_link *l) {
  p->split = pick(state, 0, 1) ? GS_GROUPS : GS_SLICES;
  p->gpus = pick(state, 1, 64);
  p->words = pick(state, 1, 256);
  if (families) random_family(state, config, cap);
  else random_llama(state, config, cap);
  g->gib = uniform(state, 8, 200);
  g->usable = uniform(state, 0.5, 1);
  g->bandwidth = uniform(state, 1e11, 1e13);
  g->flops = uniform(state, 1e13, 2e15);
  l->bandwidth = uniform(state, 1e9, 2e12);
  l->step_us = uniform(state, 0, 5);
  l->base_us = uniform(state, 0, 20);
  if (machines) random_machine(state, p, g, l);
}
