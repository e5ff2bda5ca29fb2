/* libFuzzer target: the measured-runs reader (csrc/read/runs.c), given any bytes. A file
 * it accepts must give runs whose counts and times are in range and whose strings are
 * NUL-terminated within their fields. Run with `make fuzz`. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpusplit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static gs_runs runs;
  static gs_runs_scratch scratch;
  gs_error err;
  size_t i;
  if (gs_runs_parse((const char *)data, size, &scratch, &runs, &err) != GS_OK) {
    if (strlen(err.what) >= sizeof err.what || err.code >= 0) abort();
    return 0;
  }
  if (runs.count < 1 || runs.count > GS_RUNS_MAX) abort();
  for (i = 0; i < runs.count; i++) {
    const gs_run *r = &runs.rows[i];
    /* times from a microsecond to a day (ttft_ms 0: not given), texts whole within their members */
    if (!(r->itl_ms >= 0.001) || !(r->itl_ms <= 86400000.0) || !(r->ttft_ms == 0 || (r->ttft_ms >= 0.001 && r->ttft_ms <= 86400000.0)) ||
        memchr(r->model, '\0', sizeof r->model) == NULL || memchr(r->repo, '\0', sizeof r->repo) == NULL ||
        memchr(r->gpu, '\0', sizeof r->gpu) == NULL || memchr(r->software, '\0', sizeof r->software) == NULL ||
        memchr(r->interconnect, '\0', sizeof r->interconnect) == NULL || r->tp < 1 || r->batch < 1 ||
        r->pp < 1 || r->ep < 1 || r->weight_bits < 0 || r->weight_bits > 32 || r->kv_bits > 32 || !r->id[0] || !r->gpu[0] ||
        memchr(r->id, '\0', sizeof r->id) == NULL || memchr(r->source, '\0', sizeof r->source) == NULL)
      abort();
  }
  return 0;
}
