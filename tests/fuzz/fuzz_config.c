/* libFuzzer target: any bytes given to the config.json reader and, when they read as a
 * model, to the cost and the view with GPU, link and plan figures from the input's tail,
 * including the extremes the checks must stop: 0, subnormals, each range's bounds and
 * one step past them, 1e308, infinity and NaN. Nothing may crash or leave a figure that
 * is infinite, NaN or cut. Run with `make fuzz`.
 *
 * Input: the config's text, then optionally a NUL byte and the hardware bytes (a NUL
 * cannot be in JSON text). Each of the seven figures takes one byte: below 0xF0 it picks
 * one of EXTREMES, otherwise the next eight bytes are the double's raw bits. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double EXTREMES[] = {0, 4.9e-324, 1e-310, 1e-300, 1e-3, 0.01, 0.0099, 0.5, 0.92, 1, 1.0000001,
                                  80, 1e6, 999999.9, 1e9, 64e9, 600e9, 2.039e12, 312e12, 1e16, 1.0000001e16,
                                  1e19, 1.0000001e19, 1e20, 1e300, 1e308, -1, -0.0, 1.0 / 0.0, 0.0 / 0.0};
#define EXTREME_COUNT (sizeof EXTREMES / sizeof EXTREMES[0])

typedef struct {
  const uint8_t *at, *end;
} reader;

static uint8_t next_byte(reader *r) { return r->at < r->end ? *r->at++ : 0; }

static double next_figure(reader *r, double fallback) {
  uint8_t pick;
  double x;
  if (r->at >= r->end) return fallback;
  pick = next_byte(r);
  if (pick < 0xF0) return EXTREMES[pick % EXTREME_COUNT];
  if (r->end - r->at < 8) return fallback;
  memcpy(&x, r->at, 8);
  r->at += 8;
  return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  size_t text_len = nul ? (size_t)(nul - data) : size;
  reader r;
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = {0};
  gs_error err;
  int k;
  if (gs_model_parse((const char *)data, text_len, 0, &m, &err) != GS_OK) return 0;
  if (gs_builtin_gpu("lesson", &g, NULL, &err) != GS_OK || gs_builtin_link("slow", &l, NULL, &err) != GS_OK) abort();
  r.at = nul ? nul + 1 : data + size;
  r.end = data + size;
  g.gib = next_figure(&r, g.gib);
  g.usable = next_figure(&r, g.usable);
  g.bandwidth = next_figure(&r, g.bandwidth);
  g.flops = next_figure(&r, g.flops);
  l.bandwidth = next_figure(&r, l.bandwidth);
  l.step_us = next_figure(&r, l.step_us);
  l.base_us = next_figure(&r, l.base_us);
  /* four plans: counts and words from the tail, or the lesson's */
  for (k = 0; k < 4; k++) {
    uint8_t a = next_byte(&r), b = next_byte(&r), c = next_byte(&r);
    p.gpus = a == 0xFF ? GS_MAX_GPUS : (uint64_t)a + 1;
    p.words = b == 0xFF ? GS_MAX_WORDS : (uint64_t)b + 1;
    p.split = c & 1 ? GS_GROUPS : GS_SLICES;
    fuzz_check_cost(&m, &g, &l, &p);
  }
  return 0;
}
