/* libFuzzer target: the measured serving runs' reader (csrc/read/serving_runs.c) and each
 * row it accepts mapped as `gpusplit validate --serving` maps it (csrc/fit/serve_rows.c),
 * and the serving fit's table reader (csrc/read/serving.c, data/serving.json), given any
 * bytes. A row mapped must name a layout and a load serve accepts; a refusal, a reason. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void table(const uint8_t *data, size_t size) {
  static char text[65536];
  static gs_serving_table t;
  gs_error err;
  size_t i;
  if (size >= sizeof text) return;
  memcpy(text, data, size);
  text[size] = '\0';
  if (gs_serving_read(text, &t, &err) != GS_OK) {
    if (strlen(err.what) >= sizeof err.what || err.code >= 0) abort();
    return;
  }
  if (t.count > GS_SERVING_FIT_MAX || memchr(t.summary, '\0', sizeof t.summary) == NULL) abort();
  for (i = 0; i < t.count; i++)
    if (!(t.f[i].flops_share >= 0 && t.f[i].flops_share <= 1) || !(t.f[i].overlap_share >= 0 && t.f[i].overlap_share <= 1) ||
        !(t.f[i].seq_us >= 0 && t.f[i].seq_us <= 1e6) || !(t.f[i].request_us >= 0 && t.f[i].request_us <= 1e6))
      abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static gs_serving_runs runs;
  static gs_runs_scratch scratch;
  static serving_row row;
  gs_error err;
  size_t i;
  if (size && data[0] == '{') return table(data, size), 0;
  if (gs_serving_runs_parse((const char *)data, size, &scratch, &runs, &err) != GS_OK) {
    if (strlen(err.what) >= sizeof err.what || err.code >= 0) abort();
    return 0;
  }
  if (runs.count < 1 || runs.count > GS_SERVING_RUNS_MAX) abort();
  for (i = 0; i < runs.count; i++) {
    const gs_serving_run *r = &runs.rows[i];
    if (!r->id[0] || !r->gpu[0] || !(r->throughput >= 0) || !(r->rate >= 0 && r->rate <= 1e9) || r->pp < 1 || r->dp < 1 || memchr(r->source, '\0', sizeof r->source) == NULL)
      abort();
    if (!fit_serving_row(r, &row)) {
      if (!row.why[0] || memchr(row.why, '\0', sizeof row.why) == NULL) abort();
      continue;
    }
    if (row.plan.gpus < 1 || row.plan.gpus > GS_MAX_GPUS || row.replicas < 1 || row.load.requests < 1 ||
        row.load.requests > GS_SERVE_MAX_REQUESTS || row.load.prompt_tokens < 1 || row.load.output_tokens < 1)
      abort();
  }
  return 0;
}
