/* libFuzzer target: any bytes given to the config.json reader, and, when they read as a
 * shape, to every model function and the view, at a few GPU counts and words. Nothing
 * may crash, overflow or leave a figure that is not finite. Run with `make fuzz`. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "gpusplit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint64_t counts[] = {1, 3, 8, 64};
  gs_shape s;
  gs_gpu g;
  gs_link l;
  gs_error err;
  size_t i;
  if (gs_shape_parse((const char *)data, size, &s, &err) != GS_OK) return 0;
  if (gs_builtin_gpu(&g, &err) != GS_OK || gs_builtin_link("slow", &l, NULL, 0, &err) != GS_OK) abort();
  for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    gs_view v;
    gs_time t;
    uint64_t words = counts[i];
    if (gs_words_check(&s, words, &err) != GS_OK) continue;
    if (gs_word_time(&s, &g, &l, counts[i], GS_GROUPS, words, &t) != GS_OK) abort();
    if (!isfinite(t.total) || gs_view_make(&s, &g, &l, counts[i], GS_SLICES, words, &v) != GS_OK) abort();
  }
  return 0;
}
