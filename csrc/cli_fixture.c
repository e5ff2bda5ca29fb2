/* `gpusplit fixture`: every setting the widget offers (3 models x 5 counts x 2 links x
 * 2 splits x 3 words = 180) with all of its numbers, and optionally seeded random
 * settings, as one JSON document for the parity tests against the WebAssembly build.
 * Doubles have 17 significant digits, so they read back exactly; byte counts are strings
 * of digits, since JavaScript numbers hold integers exactly only up to 2^53. */
#include <string.h>

#include "cli.h"

static const char FIXTURE_HELP[] =
    "usage: gpusplit fixture [--random N] [--seed S]\n"
    "\n"
    "Prints every setting the widget offers, with every number the model gives for it,\n"
    "as one JSON object. --random N adds N random Llama-style settings (random shapes,\n"
    "GPU and link figures, counts, words and splits) from the seed S (default 1).\n";

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

static void str(const char *key, const char *value, int comma) {
  printf("\"%s\":", key);
  cli_json_string(stdout, value);
  printf("%s", comma ? "," : "");
}

static void u64(const char *key, uint64_t x, int comma) { printf("\"%s\":\"%llu\"%s", key, (unsigned long long)x, comma ? "," : ""); }
static void num(const char *key, double x, int comma) {
  printf("\"%s\":", key);
  cli_json_double(stdout, x);
  printf("%s", comma ? "," : "");
}

/* The numbers of one setting; the caller opens and closes its object. */
static int print_setting(const gs_shape *s, const gs_gpu *g, const gs_link *l, uint64_t n, int split, uint64_t words) {
  gs_memory m;
  gs_time t;
  gs_view v;
  int rc;
  if ((rc = gs_word_time(s, g, l, n, split, words, &t)) != GS_OK || (rc = gs_view_make(s, g, l, n, split, words, &v)) != GS_OK)
    return rc;
  gs_memory_per_gpu(s, n, &m);
  printf("\"gpus\":%llu,\"split\":\"%s\",\"words\":%llu,", (unsigned long long)n, gs_split_name(split), (unsigned long long)words);
  u64("params", gs_param_count(s), 1);
  u64("weight_bytes", gs_weight_bytes(s), 1);
  u64("usable_bytes", gs_usable_bytes(g), 1);
  printf("\"memory\":{");
  u64("weights", m.weights, 1);
  u64("cache", m.cache, 1);
  u64("working", m.working, 1);
  u64("total", m.total, 0);
  printf("},\"fits\":%s,\"time\":{", gs_fits(s, g, n) ? "true" : "false");
  num("read", t.read, 1);
  num("transfer", t.transfer, 1);
  num("total", t.total, 1);
  num("share", t.share, 1);
  num("words_per_s", t.words_per_s, 0);
  printf("},");
  num("compute", gs_compute_time(s, g, n, words), 1);
  printf("\"view\":{\"fits\":%s,", v.fits ? "true" : "false");
  str("memory", v.memory, 1);
  str("weights", v.weights, 1);
  str("cache", v.cache, 1);
  str("working", v.working, 1);
  str("usable", v.usable, 1);
  str("time", v.time, 1);
  str("read", v.read, 1);
  str("transfer", v.transfer, 1);
  str("waiting", v.waiting, 1);
  str("words_per_s", v.words_per_s, 1);
  num("mem_bar", v.mem_bar, 1);
  num("wait_bar", v.wait_bar, 0);
  printf("}");
  return GS_OK;
}

static int print_chart(const gs_shape *s, const gs_gpu *g, const gs_link *l, int split, uint64_t words) {
  gs_chart_row rows[16];
  size_t i;
  int rc = gs_chart_make(s, g, l, split, words, GS_COUNTS, GS_COUNT_COUNT, rows);
  if (rc != GS_OK) return rc;
  printf(",\"chart\":[");
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    printf("%s{\"gpus\":%llu,\"fits\":%s,", i ? "," : "", (unsigned long long)rows[i].gpus, rows[i].fits ? "true" : "false");
    num("read_bar", rows[i].read_bar, 1);
    num("wait_bar", rows[i].wait_bar, 1);
    str("time", rows[i].time, 0);
    printf("}");
  }
  printf("]");
  return GS_OK;
}

static int print_offered(void) {
  gs_shape shape[8];
  gs_gpu gpu;
  gs_link link[4];
  char label[4][32];
  gs_error err;
  size_t m, k, c, w;
  int split, rc, first = 1;
  if (gs_builtin_gpu(&gpu, &err) != GS_OK) return cli_bad_error("data/gpu.json", &err);
  printf("\"models\":[");
  for (m = 0; m < GS_MODEL_COUNT; m++) {
    if (gs_builtin_model(GS_MODELS[m].key, &shape[m], &err) != GS_OK) return cli_bad_error(GS_MODELS[m].file, &err);
    printf("%s{\"key\":\"%s\",\"name\":\"%s\"}", m ? "," : "", GS_MODELS[m].key, GS_MODELS[m].name);
  }
  printf("],\"links\":[");
  for (k = 0; k < GS_LINK_COUNT; k++) {
    if (gs_builtin_link(GS_LINK_KEYS[k], &link[k], label[k], sizeof label[k], &err) != GS_OK)
      return cli_bad_error("data/links.json", &err);
    printf("%s{\"key\":\"%s\",\"label\":\"%s\"}", k ? "," : "", GS_LINK_KEYS[k], label[k]);
  }
  printf("],\"counts\":[");
  for (c = 0; c < GS_COUNT_COUNT; c++) printf("%s%llu", c ? "," : "", (unsigned long long)GS_COUNTS[c]);
  printf("],\"words\":[");
  for (w = 0; w < GS_WORDS_COUNT; w++) printf("%s%llu", w ? "," : "", (unsigned long long)GS_WORDS[w]);
  printf("],\"splits\":[\"slices\",\"groups\"],\"cases\":[");
  for (m = 0; m < GS_MODEL_COUNT; m++)
    for (c = 0; c < GS_COUNT_COUNT; c++)
      for (k = 0; k < GS_LINK_COUNT; k++)
        for (split = GS_SLICES; split <= GS_GROUPS; split++)
          for (w = 0; w < GS_WORDS_COUNT; w++) {
            printf("%s{\"model\":\"%s\",\"link\":\"%s\",", first ? "" : ",\n", GS_MODELS[m].key, GS_LINK_KEYS[k]);
            first = 0;
            if ((rc = print_setting(&shape[m], &gpu, &link[k], GS_COUNTS[c], split, GS_WORDS[w])) != GS_OK ||
                (rc = print_chart(&shape[m], &gpu, &link[k], split, GS_WORDS[w])) != GS_OK)
              return cli_bad("fixture: the model failed on a built-in setting (status %d)", rc);
            printf("}");
          }
  printf("]");
  return CLI_OK;
}

/* A random Llama-style shape: kv heads divide the heads; head_dim is sometimes given
 * and hidden then need not be heads x head_dim; sizes keep every byte total exact. */
static void random_shape(uint64_t *state, gs_shape *s, int *head_dim_given) {
  uint64_t kv_choices[] = {1, 2, 4, 8, 16};
  s->kv_heads = kv_choices[pick(state, 0, 4)];
  s->heads = s->kv_heads * pick(state, 1, 16);
  *head_dim_given = pick(state, 0, 3) == 0;
  s->head_dim = 16 * pick(state, 1, 16);
  s->hidden = *head_dim_given ? 64 * pick(state, 4, 256) : s->heads * s->head_dim;
  s->intermediate = 256 * pick(state, 1, 256);
  s->layers = pick(state, 1, 160);
  s->vocab = pick(state, 1000, 260000);
  s->tied = pick(state, 0, 1) == 1;
}

static int print_random(uint64_t count, uint64_t seed) {
  uint64_t state = seed, i;
  printf(",\"random\":[");
  for (i = 0; i < count; i++) {
    gs_shape s;
    gs_gpu g;
    gs_link l;
    gs_error err;
    int head_dim_given, split = pick(&state, 0, 1) ? GS_GROUPS : GS_SLICES, rc;
    uint64_t n = pick(&state, 1, 64), words = pick(&state, 1, 256);
    random_shape(&state, &s, &head_dim_given);
    g.gib = uniform(&state, 8, 200);
    g.usable = uniform(&state, 0.5, 1);
    g.bandwidth = uniform(&state, 1e11, 1e13);
    g.flops = uniform(&state, 1e13, 2e15);
    l.bandwidth = uniform(&state, 1e9, 2e12);
    l.step_us = uniform(&state, 0, 5);
    l.base_us = uniform(&state, 0, 20);
    if (gs_shape_check(&s, &err) != GS_OK || gs_words_check(&s, words, &err) != GS_OK || gs_gpu_check(&g, &err) != GS_OK ||
        gs_link_check(&l, &err) != GS_OK)
      return cli_bad("fixture: random setting %llu is invalid: %s: %s", (unsigned long long)i, err.field, err.what);
    printf("%s{\"config\":{\"hidden_size\":%llu,\"intermediate_size\":%llu,\"num_hidden_layers\":%llu,"
           "\"num_attention_heads\":%llu,\"num_key_value_heads\":%llu,",
           i ? ",\n" : "", (unsigned long long)s.hidden, (unsigned long long)s.intermediate, (unsigned long long)s.layers,
           (unsigned long long)s.heads, (unsigned long long)s.kv_heads);
    if (head_dim_given) printf("\"head_dim\":%llu,", (unsigned long long)s.head_dim);
    printf("\"vocab_size\":%llu,\"tie_word_embeddings\":%s},\"gpu\":{", (unsigned long long)s.vocab, s.tied ? "true" : "false");
    num("gib", g.gib, 1);
    num("usable", g.usable, 1);
    num("bandwidth", g.bandwidth, 1);
    num("flops", g.flops, 0);
    printf("},\"link\":{");
    num("bandwidth", l.bandwidth, 1);
    num("step_us", l.step_us, 1);
    num("base_us", l.base_us, 0);
    printf("},");
    if ((rc = print_setting(&s, &g, &l, n, split, words)) != GS_OK)
      return cli_bad("fixture: the model failed on random setting %llu (status %d)", (unsigned long long)i, rc);
    printf("}");
  }
  printf("]");
  return CLI_OK;
}

int cli_fixture(int argc, char **argv) {
  uint64_t random_count = 0, seed = 1;
  int i, rc;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(FIXTURE_HELP, stdout);
      return CLI_OK;
    }
    if ((strcmp(argv[i], "--random") == 0 || strcmp(argv[i], "--seed") == 0) && i + 1 >= argc)
      return cli_bad("%s: needs a value", argv[i]);
    if (strcmp(argv[i], "--random") == 0) rc = cli_parse_whole("--random", argv[++i], 10000000, &random_count);
    else if (strcmp(argv[i], "--seed") == 0) rc = cli_parse_whole("--seed", argv[++i], UINT64_C(1) << 53, &seed);
    else rc = cli_bad("fixture: unknown flag '%s' (see gpusplit fixture --help)", argv[i]);
    if (rc != CLI_OK) return rc;
  }
  printf("{");
  if ((rc = print_offered()) != CLI_OK) return rc;
  if (random_count && (rc = print_random(random_count, seed)) != CLI_OK) return rc;
  printf("}\n");
  return CLI_OK;
}
