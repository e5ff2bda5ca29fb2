/* libFuzzer target: any bytes given to the config.json reader and, when they read as a
 * model, to the cost and the view with GPU, link and plan figures from the input's tail,
 * including the extremes the checks must stop: 0, subnormals, each range's bounds and
 * one step past them, 1e308, infinity and NaN. Nothing may crash or leave a figure that
 * is infinite, NaN or cut. Run with `make fuzz`.
 *
 * Input: the config's text, then optionally a NUL byte and the hardware bytes (a NUL
 * cannot be in JSON text). Each of the seven figures takes one byte: below 0xF0 it picks
 * one of EXTREMES, otherwise the next eight bytes are the double's raw bits.
 *
 * Counts near their bounds (gpusplit.h, GS_MAX_LAYERS and the rest) are reached at once:
 * an input whose first byte is 0x01 to 0x08 (which no JSON text starts with) puts the
 * count COUNT_KEYS[that - 1] at COUNT_VALUES[second byte] after the config's own keys,
 * where the reader finds it (the last of a repeated key counts). 2^53 layers of DeepSeek once made the reader count for
 * ever; make fuzz also runs each input under a time limit (scripts/fuzz.sh). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double EXTREMES[] = {0, 4.9e-324, 1e-310, 1e-300, 1e-3, 0.01, 0.0099, 0.5, 0.92, 1, 1.0000001,
                                  80, 1e6, 999999.9, 1e9, 64e9, 600e9, 2.039e12, 312e12, 1e16, 1.0000001e16,
                                  1e19, 1.0000001e19, 1e20, 1e300, 1e308, -1, -0.0, 1.0 / 0.0, 0.0 / 0.0};
#define EXTREME_COUNT (sizeof EXTREMES / sizeof EXTREMES[0])

static const char *const COUNT_KEYS[] = {"num_hidden_layers", "num_attention_heads", "num_key_value_heads", "n_routed_experts",
                                          "num_local_experts", "num_experts", "num_experts_per_tok", "first_k_dense_replace"};
static const char *const COUNT_VALUES[] = {"1", "2", "3", "4095", "4096", "4097", "65535", "65536", "65537", "1048576",
                                           "100000000000", "6755399441055744", "9007199254740992", "9007199254740993"};
#define COUNT_VALUE_N (sizeof COUNT_VALUES / sizeof COUNT_VALUES[0])

/* The text with the chosen count last in its object, where the reader finds it (the last
 * of a repeated key counts), into buf; the text as it is when no count is chosen or it
 * does not end its object with a brace. */
static const char *with_count(const uint8_t *data, size_t size, size_t *len) {
  static char buf[1 << 16];
  const char *text = (const char *)data + 2;
  size_t n = size - 2;
  if (size < 3 || data[0] < 1 || data[0] > 8 || n + 64 > sizeof buf) {
    *len = size;
    return (const char *)data;
  }
  while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '\t')) n--;
  if (n == 0 || text[n - 1] != '}') {
    *len = size;
    return (const char *)data;
  }
  memcpy(buf, text, n - 1);
  *len = n - 1 + (size_t)snprintf(buf + n - 1, sizeof buf - (n - 1), ", \"%s\": %s}", COUNT_KEYS[data[0] - 1],
                                  COUNT_VALUES[data[1] % COUNT_VALUE_N]);
  return buf;
}

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
  const uint8_t *nul = memchr(data + (size > 2 ? 2 : 0), 0, size > 2 ? size - 2 : size);
  size_t text_len = nul ? (size_t)(nul - data) : size;
  const char *text = with_count(data, text_len, &text_len);
  reader r;
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = {0};
  gs_error err;
  int k;
  if (gs_model_parse(text, text_len, 0, &m, &err) != GS_OK) return 0;
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
