/* The load: a seeded generator, a logarithm from + - * / only, and each request's arrival
 * and lengths. The same seed gives the same arrivals on every build: splitmix64 is integer
 * arithmetic, and gs_log uses only correctly rounded operations in a fixed order (no libm,
 * whose log differs between glibc and the wasm's musl; no fused multiply-add, the
 * Makefile's -ffp-contract=off). */
#include <string.h>

#include "internal.h"

uint64_t gs_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* ln x for x > 0 (0 and below, infinities and NaN are not asked for; they give 0). As
 * fdlibm's e_log.c reduces it: x = 2^k m with m in [sqrt(1/2), sqrt(2)), read from the
 * bits; ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...) with s = (m - 1)/(m + 1), |s| < 0.172,
 * so s^2 < 0.0295 and terms to s^23 leave under 2^-56 of the sum; ln 2 in two parts
 * (fdlibm's ln2_hi, whose low bits are 0 so k ln2_hi is exact, and ln2_lo). */
double gs_log(double x) {
  static const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
  static const double SQRT2 = 1.41421356237309504880;
  uint64_t bits;
  int k;
  double m, s, z, series;
  if (!(x > 0) || x > 1.79769313486231570815e308) return 0;
  memcpy(&bits, &x, sizeof bits);
  k = 0;
  if ((bits >> 52) == 0) { /* subnormal: scale by 2^54, exactly */
    x *= 18014398509481984.0;
    memcpy(&bits, &x, sizeof bits);
    k = -54;
  }
  k += (int)(bits >> 52) - 1023;
  bits = (bits & 0x000fffffffffffffu) | 0x3ff0000000000000u; /* m in [1, 2) */
  memcpy(&m, &bits, sizeof m);
  if (m > SQRT2) {
    m *= 0.5;
    k += 1;
  }
  s = (m - 1) / (m + 1);
  z = s * s;
  series = 1.0 / 23;
  series = 1.0 / 21 + z * series;
  series = 1.0 / 19 + z * series;
  series = 1.0 / 17 + z * series;
  series = 1.0 / 15 + z * series;
  series = 1.0 / 13 + z * series;
  series = 1.0 / 11 + z * series;
  series = 1.0 / 9 + z * series;
  series = 1.0 / 7 + z * series;
  series = 1.0 / 5 + z * series;
  series = 1.0 / 3 + z * series;
  return (double)k * LN2_HI + ((double)k * LN2_LO + (2 * s + 2 * s * (z * series)));
}

/* A uniform draw in (0, 1]: 53 random bits, plus one so that 0 is never drawn. */
static double uniform(uint64_t *state) { return (double)((gs_splitmix64(state) >> 11) + 1) * (1.0 / 9007199254740992.0); }

/* Every request's lengths (the load's, or its pairs replayed in order) and arrival: all at 0 (batch, and a closed loop's first ones,
 * whose later ones arrive as one ends), or Poisson at the rate, the first at 0 and each gap
 * -ln(U) / rate, as `vllm bench serve --request-rate` draws its gaps (exponential). */
void gs_load_fill(const gs_load *load, gs_serve_req *reqs) {
  uint64_t state = load->seed, i;
  double t = 0;
  for (i = 0; i < load->requests; i++) {
    memset(&reqs[i], 0, sizeof reqs[i]);
    reqs[i].prompt = load->pairs ? load->prompts[i % load->pairs] : load->prompt_tokens;
    reqs[i].output = load->pairs ? load->outputs[i % load->pairs] : load->output_tokens;
    if (load->kind == GS_LOAD_OPEN && i > 0) t += -gs_log(uniform(&state)) / load->rate;
    reqs[i].arrival = t;
  }
}

double gs_load_mean(const gs_load *l, const uint64_t *lengths) {
  uint64_t sum = 0, i;
  for (i = 0; i < l->requests; i++) sum += lengths[i % l->pairs];
  return (double)sum / (double)l->requests;
}
