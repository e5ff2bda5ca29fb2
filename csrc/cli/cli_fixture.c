/* `gpusplit fixture`: every setting the widget offers (3 models x 5 counts x 2 links x
 * 2 splits x 3 words = 180) with all of its numbers, and optionally seeded random
 * settings, as one JSON document for the parity tests against the WebAssembly build.
 * Doubles have 17 significant digits, so they read back exactly; byte counts are strings
 * of digits, since JavaScript numbers hold integers exactly only up to 2^53. */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "emit/random_setting.h"

static const char FIXTURE_HELP[] =
    "usage: gpusplit fixture [--random N] [--families N] [--machines N] [--seed S]\n"
    "\n"
    "Prints every setting the widget offers, with every number the model gives for it,\n"
    "as one JSON object. --random N adds N random Llama-style settings (random shapes,\n"
    "GPU and link figures, counts, words and splits) from the seed S (default 1);\n"
    "--families N adds N random configs of every model family the reader counts;\n"
    "--machines N adds N of those with random servers, splits, caches, switches and NCCL rules.\n"
    "\n";

static void num(const char *key, double x, int comma) {
  printf("\"%s\":", key);
  cli_json_double(stdout, x);
  printf("%s", comma ? "," : "");
}

/* The figures of one setting (csrc/core/fields.h); the caller opens and closes its object. */
static int print_setting(const gs_setting *s, uint64_t gpus, gs_priced *out, gs_error *err) {
  gs_out o = cli_out(stdout);
  int rc = gs_price(s, gpus, out, err);
  if (rc != GS_OK) return rc;
  gs_out_setting(&o, out, GS_OUT_STRINGS);
  return GS_OK;
}

/* The chart over the offered counts, each priced once, and the timeline of the priced one. */
static int print_chart_and_timeline(const gs_setting *s, const gs_priced *now, gs_error *err) {
  gs_chart_row chart[GS_OFFERED_MAX];
  gs_timeline_row timeline[GS_OFFERED_MAX];
  gs_out o = cli_out(stdout);
  int rc;
  if ((rc = gs_offered_chart(s, now, chart, GS_OFFERED_MAX, err)) != GS_OK ||
      (rc = gs_timeline_of(now, timeline, GS_OFFERED_MAX, err)) != GS_OK)
    return rc;
  printf(",\"chart\":");
  gs_out_chart(&o, chart, GS_COUNT_COUNT);
  printf(",\"timeline\":");
  gs_out_timeline(&o, timeline, (size_t)now->plan.gpus);
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
    gs_random_setting(&state, families, machines, config, sizeof config, &p, &g, &l);
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
