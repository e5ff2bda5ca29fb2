/* What every harness asserts of a result a person or program would read. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpusplit.h"

/* A figure's text: non-empty, shorter than its buffer with room to spare (a figure at
 * the edge of its buffer may have been cut), and with no Infinity or NaN in it. */
static inline void fuzz_check_text(const char *s) {
  size_t n = strlen(s);
  if (n + 4 >= GS_FIGURE_CAP || strstr(s, "Inf") || strstr(s, "NaN") || strstr(s, "inf") || strstr(s, "nan")) abort();
}

/* A cost that gs_cost accepted, and its view: every time finite and printable. */
static inline void fuzz_check_cost(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p) {
  gs_cost_result c;
  gs_view v;
  gs_error err;
  if (gs_cost(m, g, l, p, &c, &err) != GS_OK) return;
  if (!isfinite(c.time.total) || !isfinite(c.time.read) || !isfinite(c.time.transfer) || !isfinite(c.time.share) ||
      !isfinite(c.time.words_per_s) || !(c.time.total > 0) || !(c.time.total <= GS_MAX_STEP_SECONDS) ||
      c.time.share < 0 || c.time.share > 1)
    abort();
  gs_view_of(&c, &v); /* what a person sees of what the cost priced */
  fuzz_check_text(v.memory);
  fuzz_check_text(v.time);
  if (v.fits) {
    fuzz_check_text(v.read);
    fuzz_check_text(v.transfer);
    fuzz_check_text(v.waiting);
    fuzz_check_text(v.words_per_s);
    if (strcmp(v.time + strlen(v.time) - 3, " ms") != 0) abort();
  }
}

#endif
