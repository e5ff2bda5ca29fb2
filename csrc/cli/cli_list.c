/* `gpusplit list models|gpus|links`: the catalogues (data/models/catalogue.json,
 * data/gpus.json, data/links.json), each entry with its figures and where they come from. */
#include <string.h>

#include "cli.h"

static const char LIST_HELP[] =
    "usage: gpusplit list models|gpus|links\n"
    "\n"
    "models: every built-in model, by the name --model takes: its model_type, the weights\n"
    "        counted from its config.json, the bytes they take as stored, its repository.\n"
    "gpus:   every GPU --gpu takes: memory, read bandwidth, dense 16-bit, FP8 and FP4\n"
    "        FLOP/s (- where the GPU has no such tensor cores), the generation NCCL's\n"
    "        tables use, and its data sheet.\n"
    "links:  every link --link and --between take: bandwidth, kind, step latency, source.\n";

/* What to list: its place from 1. */
static const gs_flag LIST_FLAGS[] = {
    {"WHAT", GS_FLAG_CHOICE, "models|gpus|links", 0, 0, 0, NULL, 0, 0, 0, 1, NULL},
};

static int list_models(void) {
  size_t i;
  printf("%-18s %-12s %20s %20s  %s\n", "name", "type", "weights", "stored bytes", "model");
  for (i = 0; i < GS_MODEL_COUNT; i++) {
    const gs_model_entry *e = &GS_MODELS[i];
    gs_model m;
    gs_error err;
    char params[40], bytes[40];
    if (gs_builtin_model(e->key, 0, &m, &err) != GS_OK) return cli_bad_error(e->file, &err);
    printf("%-18s %-12s %20s %20s  %s\n", e->key, m.type, gs_grouped(params, sizeof params, m.params),
           gs_grouped(bytes, sizeof bytes, m.stored_bytes), e->model);
  }
  printf("\nEach config.json and its published total: data/models/catalogue.json.\n");
  return CLI_OK;
}

/* Each GPU or link, a line of figures and its source on the next. */
static int list_hardware(const char *array) {
  char keys[2048], *key;
  gs_error err;
  int gpus = strcmp(array, "gpus") == 0;
  if (gs_builtin_keys(array, keys, sizeof keys, &err) != GS_OK) return cli_bad_error(gpus ? "data/gpus.json" : "data/links.json", &err);
  if (gpus)
    printf("%-20s %-30s %5s %10s %14s %11s %11s  %s\n", "name", "GPU", "GiB", "read GB/s", "16-bit TFLOP/s", "FP8 TFLOP/s",
           "FP4 TFLOP/s", "NCCL generation");
  else printf("%-16s %-26s %12s %-7s %12s\n", "name", "link", "GB/s", "kind", "us a step");
  for (key = strtok(keys, ", "); key; key = strtok(NULL, ", ")) {
    gs_hardware_text t;
    char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP];
    if (gpus) {
      gs_gpu g;
      if (gs_builtin_gpu(key, &g, &t, &err) != GS_OK) return cli_bad_error("data/gpus.json", &err);
      printf("%-20s %-30s %5s %10s %14s %11s %11s  %s\n", t.key, t.name, gs_plain(a, sizeof a, g.gib),
             gs_fixed_grouped(b, sizeof b, g.bandwidth / 1e9, 0), gs_plain(c, sizeof c, g.flops / 1e12),
             g.flops_fp8 > 0 ? gs_plain(d, sizeof d, g.flops_fp8 / 1e12) : "-", g.flops_fp4 > 0 ? gs_plain(e, sizeof e, g.flops_fp4 / 1e12) : "-",
             gs_arch_name(g.arch));
    } else {
      gs_link l;
      if (gs_builtin_link(key, &l, &t, &err) != GS_OK) return cli_bad_error("data/links.json", &err);
      printf("%-16s %-26s %12s %-7s %12s\n", t.key, t.name, gs_fixed_grouped(a, sizeof a, l.bandwidth / 1e9, 0),
             gs_link_kind_name(l.kind), gs_plain(b, sizeof b, l.step_us));
    }
    printf("    source: %s\n", t.source);
  }
  if (!gpus) printf("\nEvery all-reduce also starts up once: 6.6 us, NCCL's ring LL base latency.\n");
  return CLI_OK;
}

int cli_list(int argc, char **argv) {
  int what = 0;
  gs_flag_set set = {LIST_FLAGS, 1, &what, NULL, NULL};
  int rc = cli_flags_or_help(&set, 1, argc, argv, LIST_HELP, "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  return what == 1 ? list_models() : list_hardware(what == 2 ? "gpus" : "links");
}
