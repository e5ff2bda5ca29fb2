/* libFuzzer target: the readers of measured all-reduces (an nccl-tests all_reduce_perf log,
 * a measured table) and the fit, given any bytes. A log they accept with enough rows must
 * fit to finite latencies, bandwidths and errors, and predict finite, positive times; a
 * link made from the fit must pass the link checks. Run with `make fuzz`. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "gpusplit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_fit(const gs_measured *m) {
  static const uint64_t sizes[] = {1, 8192, 16384, 1048576, UINT64_C(1) << 40};
  gs_fit fit;
  gs_link link;
  gs_error err;
  size_t k;
  if (gs_fit_measured(m, &fit, &err) != GS_OK) return;
  if (fit.count < 1 || fit.count > 3) abort();
  for (k = 0; k < fit.count; k++) {
    const gs_regime *r = &fit.regimes[k];
    if (!isfinite(r->latency_us) || r->latency_us < 0 || !isfinite(r->bandwidth) || r->bandwidth < 0 ||
        !isfinite(r->rms_rel_error) || r->from_bytes > r->to_bytes)
      abort();
  }
  for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    double us = gs_fit_predict_us(&fit, sizes[k]);
    if (!isfinite(us) || us < 0) abort();
    if (gs_fit_link(&fit, sizes[k], GS_LINK_NVLINK, &link, &err) == GS_OK && gs_link_check(&link, &err) != GS_OK) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static gs_measured m;
  gs_error err;
  if (gs_nccl_log_parse((const char *)data, size, &m, &err) == GS_OK) check_fit(&m);
  if (gs_measured_csv_parse((const char *)data, size, "nccl/2.27.3", 2, &m, &err) == GS_OK) check_fit(&m);
  return 0;
}
