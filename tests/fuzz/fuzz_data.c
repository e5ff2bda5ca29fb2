/* libFuzzer target: the readers of the data files built into the program (data/gpu.json
 * and data/links.json), given any bytes. A figure they accept must price a model with
 * finite, whole figures. Run with `make fuzz`. */
#include <stdint.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const keys[] = {"fast", "slow", "lesson"};
  gs_model m;
  gs_gpu g, builtin_gpu;
  gs_link l, builtin_link;
  gs_error err;
  char label[32];
  size_t k;
  if (gs_builtin_model("70b", 0, &m, &err) != GS_OK || gs_builtin_gpu(&builtin_gpu, &err) != GS_OK ||
      gs_builtin_link("fast", &builtin_link, NULL, 0, &err) != GS_OK)
    abort();
  if (gs_gpu_parse((const char *)data, size, &g, &err) == GS_OK) {
    gs_plan p = {.gpus = 8, .split = GS_SLICES, .words = 1};
    fuzz_check_cost(&m, &g, &builtin_link, &p);
  }
  for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    if (gs_link_parse((const char *)data, size, keys[k], &l, label, sizeof label, &err) != GS_OK) continue;
    if (strlen(label) >= sizeof label) abort();
    {
      gs_plan p = {.gpus = 8, .split = GS_SLICES, .words = 1};
      fuzz_check_cost(&m, &builtin_gpu, &l, &p);
    }
  }
  return 0;
}
