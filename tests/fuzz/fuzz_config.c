/* libFuzzer target: any bytes given to the config.json reader, and, when they read as a
 * model, to the cost and the view at a few GPU counts, words and both splits. Nothing may
 * crash, overflow or leave a figure that is not finite. Run with `make fuzz`. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "gpusplit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint64_t counts[] = {1, 3, 8, 64};
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_error err;
  size_t i;
  if (gs_model_parse((const char *)data, size, 0, &m, &err) != GS_OK) return 0;
  if (gs_builtin_gpu(&g, &err) != GS_OK || gs_builtin_link("slow", &l, NULL, 0, &err) != GS_OK) abort();
  for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    gs_view v;
    gs_cost_result c;
    gs_plan p;
    p.gpus = counts[i];
    p.words = counts[i];
    p.split = i % 2 ? GS_GROUPS : GS_SLICES;
    if (gs_plan_check(&m, &p, &err) != GS_OK) continue;
    if (gs_cost(&m, &g, &l, &p, &c, &err) != GS_OK) abort();
    if (!isfinite(c.time.total) || gs_view_make(&m, &g, &l, &p, &v, &err) != GS_OK) abort();
  }
  return 0;
}
