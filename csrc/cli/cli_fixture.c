/* `gpusplit fixture`: every setting the widget offers (3 models x 5 counts x 2 links x
 * 2 splits x 3 words = 180) with all of its numbers, and optionally seeded random
 * settings, as one JSON document for the parity tests against the WebAssembly build.
 * Doubles have 17 significant digits, so they read back exactly; byte counts are strings
 * of digits, since JavaScript numbers hold integers exactly only up to 2^53. */
#include <stddef.h>
#include <string.h>

#include "cli.h"

static const char FIXTURE_HELP[] =
    "usage: gpusplit fixture [--random N] [--families N] [--machines N] [--seed S]\n"
    "\n"
    "Prints every setting the widget offers, with every number the model gives for it,\n"
    "as one JSON object. --random N adds N random Llama-style settings (random shapes,\n"
    "GPU and link figures, counts, words and splits) from the seed S (default 1);\n"
    "--families N adds N random configs of every model family the reader counts;\n"
    "--machines N adds N of those with random servers, splits, caches, switches and NCCL rules.\n"
    "\n";

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): small, and the same sequence on every machine. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static uint64_t pick(uint64_t *state, uint64_t lo, uint64_t hi) { return lo + next_random(state) % (hi - lo + 1); }
static double uniform(uint64_t *state, double lo, double hi) {
  return lo + (hi - lo) * ((double)(next_random(state) >> 11) / 9007199254740992.0);
}

static void num(const char *key, double x, int comma) {
  printf("\"%s\":", key);
  cli_json_double(stdout, x);
  printf("%s", comma ? "," : "");
}

/* The figures of one setting (csrc/core/fields.h); the caller opens and closes its object. */
static int print_setting(const gs_setting *s, uint64_t gpus, gs_priced *out, gs_error *err) {
  int rc = gs_price(s, gpus, out, err);
  if (rc != GS_OK) return rc;
  cli_json_setting(stdout, out, CLI_JSON_STRINGS);
  return GS_OK;
}

/* The chart over the offered counts, each priced once, and the timeline of the priced one. */
static int print_chart_and_timeline(const gs_setting *s, const gs_priced *now, gs_error *err) {
  gs_chart_row chart[GS_OFFERED_MAX];
  gs_timeline_row timeline[GS_OFFERED_MAX];
  int rc;
  if ((rc = gs_offered_chart(s, now, chart, GS_OFFERED_MAX, err)) != GS_OK ||
      (rc = gs_timeline_of(now, timeline, GS_OFFERED_MAX, err)) != GS_OK)
    return rc;
  printf(",\"chart\":");
  cli_json_chart(stdout, chart, GS_COUNT_COUNT);
  printf(",\"timeline\":");
  cli_json_timeline(stdout, timeline, (size_t)now->plan.gpus);
  return GS_OK;
}

static int print_offered(void) {
  static gs_setting setting;
  size_t lesson[8], lesson_n = 0;
  gs_hardware_text label[4];
  gs_link link;
  gs_error err;
  size_t m, k, c, w;
  int split, first = 1;
  printf("\"models\":[");
  for (m = 0; m < GS_MODEL_COUNT && lesson_n < 8; m++) {
    if (!GS_MODELS[m].lesson) continue;
    printf("%s{\"key\":\"%s\",\"name\":\"%s\"}", lesson_n ? "," : "", GS_MODELS[m].key, GS_MODELS[m].name);
    lesson[lesson_n++] = m;
  }
  printf("],\"links\":[");
  for (k = 0; k < GS_LINK_COUNT; k++) {
    if (gs_builtin_link(GS_LINK_KEYS[k], &link, &label[k], &err) != GS_OK) return cli_bad_error("data/links.json", &err);
    printf("%s{\"key\":\"%s\",\"label\":\"%s\"}", k ? "," : "", GS_LINK_KEYS[k], label[k].name);
  }
  printf("],\"counts\":[");
  for (c = 0; c < GS_COUNT_COUNT; c++) printf("%s%llu", c ? "," : "", (unsigned long long)GS_COUNTS[c]);
  printf("],\"words\":[");
  for (w = 0; w < GS_WORDS_COUNT; w++) printf("%s%llu", w ? "," : "", (unsigned long long)GS_WORDS[w]);
  printf("],\"splits\":[\"slices\",\"groups\"],\"cases\":[");
  for (m = 0; m < lesson_n; m++)
    for (c = 0; c < GS_COUNT_COUNT; c++)
      for (k = 0; k < GS_LINK_COUNT; k++)
        for (split = GS_SLICES; split <= GS_GROUPS; split++)
          for (w = 0; w < GS_WORDS_COUNT; w++) {
            gs_request q;
            gs_priced now;
            memset(&q, 0, sizeof q);
            q.model_key = GS_MODELS[lesson[m]].key;
            q.link_key = GS_LINK_KEYS[k];
            q.split = split;
            q.words = GS_WORDS[w];
            printf("%s{\"model\":\"%s\",\"link\":\"%s\",", first ? "" : ",\n", GS_MODELS[lesson[m]].key, GS_LINK_KEYS[k]);
            first = 0;
            if (gs_resolve(&q, &setting, &err) != GS_OK || print_setting(&setting, GS_COUNTS[c], &now, &err) != GS_OK ||
                print_chart_and_timeline(&setting, &now, &err) != GS_OK)
              return cli_bad_error("fixture", &err);
            printf("}");
          }
  printf("]");
  return CLI_OK;
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

static void print_machine(const gs_plan *p, const gs_gpu *g, const gs_link *l) {
  printf("\"machine\":{\"perServer\":%llu,\"chatTokens\":%llu,\"cacheBits\":%llu,\"cachePerChat\":%s,\"overlap\":%s,"
         "\"readCache\":%s,\"nccl\":\"%s\",\"linkKind\":%d,\"betweenKind\":%d,\"arch\":%d,\"between\":{",
         (unsigned long long)p->per_server, (unsigned long long)p->chat_tokens, (unsigned long long)p->cache_bits,
         p->cache_per_chat ? "true" : "false", p->overlap ? "true" : "false", p->read_cache ? "true" : "false",
         p->nccl == GS_NCCL_AUTO ? "auto" : "lesson", l->kind, p->between.kind, g->arch);
  num("bandwidth", p->between.bandwidth, 1);
  num("step_us", p->between.step_us, 0);
  printf("}},");
}

/* count random settings from seed: Llama-style configs, or (families) configs of every
 * family, each with a random GPU, link and plan, printed with its config text; with
 * machines, each also with random settings past the lesson. */
static int print_random(const char *key, uint64_t count, uint64_t seed, int families, int machines) {
  uint64_t state = seed, i;
  printf(",\"%s\":[", key);
  for (i = 0; i < count; i++) {
    static gs_setting setting;
    char config[2048];
    gs_model m;
    gs_gpu g = {0};
    gs_link l = {0};
    gs_plan p = {0};
    gs_priced priced;
    gs_error err;
    p.split = pick(&state, 0, 1) ? GS_GROUPS : GS_SLICES;
    p.gpus = pick(&state, 1, 64);
    p.words = pick(&state, 1, 256);
    if (families) random_family(&state, config, sizeof config);
    else random_llama(&state, config, sizeof config);
    g.gib = uniform(&state, 8, 200);
    g.usable = uniform(&state, 0.5, 1);
    g.bandwidth = uniform(&state, 1e11, 1e13);
    g.flops = uniform(&state, 1e13, 2e15);
    l.bandwidth = uniform(&state, 1e9, 2e12);
    l.step_us = uniform(&state, 0, 5);
    l.base_us = uniform(&state, 0, 20);
    if (machines) random_machine(&state, &p, &g, &l);
    if (gs_model_parse(config, strlen(config), 0, &m, &err) != GS_OK || gs_gpu_check(&g, &err) != GS_OK ||
        gs_link_check(&l, &err) != GS_OK)
      return cli_bad("fixture: random setting %llu is invalid: %s: %s (%s)", (unsigned long long)i, err.field, err.what, config);
    /* more servers than the random model has layers cannot be groups of layers */
    if (machines && gs_plan_check(&m, &p, NULL) == GS_ERR_SHAPE) p.split = GS_SLICES;
    printf("%s{\"config\":%s,\"gpu\":{", i ? ",\n" : "", config);
    num("gib", g.gib, 1);
    num("usable", g.usable, 1);
    num("bandwidth", g.bandwidth, 1);
    num("flops", g.flops, 0);
    printf("},\"link\":{");
    num("bandwidth", l.bandwidth, 1);
    num("step_us", l.step_us, 1);
    num("base_us", l.base_us, 0);
    printf("},");
    if (machines) print_machine(&p, &g, &l);
    memset(&setting, 0, sizeof setting);
    setting.replicas = 1;
    setting.model = m;
    setting.gpu = g;
    setting.link = l;
    setting.plan = p;
    if (print_setting(&setting, p.gpus, &priced, &err) != GS_OK)
      return cli_bad("fixture: the model failed on random setting %llu: %s: %s", (unsigned long long)i, err.field, err.what);
    printf("}");
  }
  printf("]");
  return CLI_OK;
}

typedef struct {
  uint64_t random, families, machines, seed;
} fixture_flags;

static const uint64_t COUNT_MOST = 10000000, SEED_MOST = UINT64_C(1) << 53;
#define AT(member) offsetof(fixture_flags, member)
static const gs_flag FIXTURE_FLAGS[] = {
    GS_WHOLE("--random", "N", AT(random), &COUNT_MOST, "N random Llama-style settings, 1 to 10000000"),
    GS_WHOLE("--families", "N", AT(families), &COUNT_MOST, "N random configs of every family the reader counts"),
    GS_WHOLE("--machines", "N", AT(machines), &COUNT_MOST, "N of those with random machines and rules"),
    GS_WHOLE("--seed", "S", AT(seed), &SEED_MOST, "the seed, 1 to 2^53 (default 1)"),
};

int cli_fixture(int argc, char **argv) {
  fixture_flags f = {0, 0, 0, 1};
  gs_flag_set set = {FIXTURE_FLAGS, sizeof FIXTURE_FLAGS / sizeof FIXTURE_FLAGS[0], &f, NULL, NULL};
  int rc = cli_flags_or_help(&set, 1, argc, argv, FIXTURE_HELP, "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  printf("{");
  if ((rc = print_offered()) != CLI_OK) return rc;
  if (f.random && (rc = print_random("random", f.random, f.seed, 0, 0)) != CLI_OK) return rc;
  if (f.families && (rc = print_random("families", f.families, f.seed, 1, 0)) != CLI_OK) return rc;
  if (f.machines && (rc = print_random("machines", f.machines, f.seed, 1, 1)) != CLI_OK) return rc;
  printf("}\n");
  return CLI_OK;
}
