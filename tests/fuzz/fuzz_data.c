/* libFuzzer target: the readers of the data files built into the program (data/gpus.json
 * with each GPU's place in the fit, data/links.json and data/efficiency.json), given any
 * bytes and a few keys. A GPU or link they accept must price a model with finite, whole
 * figures, and its texts must fit; a GPU's generation is one the fit knows, its runs' names
 * whole; the efficiency read passes its own check in every group. Run with `make fuzz`. */
#include <stdint.h>

#include "fuzz_check.h"
#include "read/efficiency.h"

/* data/efficiency.json's reader: what it accepts is a table the pick can use. */
static void check_efficiency(const uint8_t *data, size_t size) {
  static fit_result fr;
  static jsmntok_t toks[GS_JSON_TOKENS];
  gs_efficiency e;
  gs_error err;
  size_t i;
  if (gs_efficiency_read((const char *)data, size, toks, GS_JSON_TOKENS, &fr, &err) != GS_OK) return;
  if (fr.count > MAX_GROUPS || strlen(fr.median_engine) >= sizeof fr.median_engine) abort();
  for (i = 0; i < fr.count; i++)
    if (gs_efficiency_check(&fr.f[i].e, &err) != GS_OK || strlen(fr.f[i].sources) >= sizeof fr.f[i].sources) abort();
  if (gs_efficiency_pick(&fr, "", "hopper", &e) && gs_efficiency_check(&e, &err) != GS_OK) abort();
}

/* A GPU's generation and its runs' names. */
static void check_gpu_fit(const uint8_t *data, size_t size, const char *key) {
  gs_gpu_fit_text t;
  gs_error err;
  size_t i;
  int g;
  if (gs_gpu_fit_parse((const char *)data, size, key, &t, &err) != GS_OK) return;
  for (g = 0; t.generation[0] && g < GS_GENERATION_COUNT && strcmp(GS_GENERATIONS[g], t.generation) != 0; g++) {}
  if (g == GS_GENERATION_COUNT || t.measured_count > GS_MEASURED_AS_MAX) abort();
  for (i = 0; i < t.measured_count; i++)
    if (!t.measured_as[i][0] || strlen(t.measured_as[i]) >= sizeof t.measured_as[i]) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const keys[] = {"lesson", "fast", "slow", "h100-sxm", "ib-ndr", "F"};
  gs_model m;
  gs_gpu g, builtin_gpu;
  gs_link l, builtin_link;
  gs_hardware_text text;
  gs_error err;
  char list[512];
  size_t k;
  if (gs_builtin_model("70b", 0, &m, &err) != GS_OK || gs_builtin_gpu("lesson", &builtin_gpu, NULL, &err) != GS_OK ||
      gs_builtin_link("fast", &builtin_link, NULL, &err) != GS_OK)
    abort();
  (void)gs_hardware_keys((const char *)data, size, "gpus", list, sizeof list, &err);
  (void)gs_hardware_keys((const char *)data, size, "links", list, sizeof list, &err);
  check_efficiency(data, size);
  for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    gs_plan p = {.gpus = 8, .split = GS_SLICES, .words = 1};
    check_gpu_fit(data, size, keys[k]);
    if (gs_gpu_parse((const char *)data, size, keys[k], &g, &text, &err) == GS_OK) {
      if (strlen(text.name) >= sizeof text.name || strlen(text.source) >= sizeof text.source) abort();
      fuzz_check_cost(&m, &g, &builtin_link, &p);
    }
    if (gs_link_parse((const char *)data, size, keys[k], &l, &text, &err) == GS_OK) {
      fuzz_check_cost(&m, &builtin_gpu, &l, &p);
      p.per_server = 2;
      p.between = l;
      fuzz_check_cost(&m, &builtin_gpu, &builtin_link, &p);
    }
  }
  return 0;
}
