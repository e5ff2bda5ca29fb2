/* libFuzzer target: the readers of the data files built into the program (data/gpus.json
 * and data/links.json), given any bytes and a few keys. A GPU or link they accept must
 * price a model with finite, whole figures, and its texts must fit. Run with `make fuzz`. */
#include <stdint.h>

#include "fuzz_check.h"

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
  for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    gs_plan p = {.gpus = 8, .split = GS_SLICES, .words = 1};
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
