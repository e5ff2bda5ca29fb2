/* `gpusplit list models`: the catalogue (data/models/catalogue.json), each model with its
 * type, its counted weights and stored bytes, and its published total and source. */
#include <string.h>

#include "cli.h"

static const char LIST_HELP[] =
    "usage: gpusplit list models\n"
    "\n"
    "Every built-in model, by the name --model takes: its model_type, the weights counted\n"
    "from its config.json, the bytes they take as stored, and where it was found.\n";

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

int cli_list(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(LIST_HELP, stdout);
    return CLI_OK;
  }
  if (argc != 2) return cli_bad("list: say what to list: models (see gpusplit list --help)");
  if (strcmp(argv[1], "models") == 0) return list_models();
  return cli_bad("list: cannot list '%s' (models)", argv[1]);
}
