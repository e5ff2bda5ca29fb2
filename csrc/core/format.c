/* Figures as text: fixed places rounded half-up on an exact tie (JavaScript's
 * Number.prototype.toFixed, ECMA-262 section 21.1.3.3: "If there are two such n, pick
 * the larger n") and thousands separators. */
#include <string.h>

#include "internal.h"

/* A nonnegative integer in base 2^32, least significant limb first: wide enough for the
 * largest double (below 2^1024) times 10^9. */
typedef struct {
  uint32_t limb[40];
  size_t n; /* limbs in use; 0 for zero */
} big;

static void big_trim(big *b) {
  while (b->n > 0 && b->limb[b->n - 1] == 0) b->n--;
}

static void big_mul_small(big *b, uint32_t k) {
  uint64_t carry = 0;
  size_t i;
  for (i = 0; i < b->n; i++) {
    uint64_t v = (uint64_t)b->limb[i] * k + carry;
    b->limb[i] = (uint32_t)v;
    carry = v >> 32;
  }
  if (carry) b->limb[b->n++] = (uint32_t)carry;
}

static void big_shift_left(big *b, unsigned bits) {
  size_t words = bits / 32, i;
  unsigned r = bits % 32;
  uint32_t spill = 0;
  if (b->n == 0) return;
  if (r) {
    for (i = 0; i < b->n; i++) {
      uint32_t v = b->limb[i];
      b->limb[i] = (v << r) | spill;
      spill = v >> (32 - r);
    }
    if (spill) b->limb[b->n++] = spill;
  }
  for (i = b->n; i-- > 0;) b->limb[i + words] = b->limb[i];
  for (i = 0; i < words; i++) b->limb[i] = 0;
  b->n += words;
}

/* b >> bits, plus 1 when the bits shifted out are at least half of 2^bits: rounding to
 * the nearest integer, a tie upward. */
static void big_shift_right_half_up(big *b, unsigned bits) {
  size_t words = bits / 32, i;
  unsigned r = bits % 32;
  int up;
  /* the highest bit shifted out is bit (bits - 1) */
  size_t hw = (bits - 1) / 32;
  up = hw < b->n && ((b->limb[hw] >> ((bits - 1) % 32)) & 1u);
  if (words >= b->n) {
    b->n = 0;
  } else {
    for (i = 0; i + words < b->n; i++) b->limb[i] = b->limb[i + words];
    b->n -= words;
    if (r) {
      for (i = 0; i < b->n; i++) b->limb[i] = (b->limb[i] >> r) | (i + 1 < b->n ? b->limb[i + 1] << (32 - r) : 0);
    }
    big_trim(b);
  }
  if (up) {
    for (i = 0; i < b->n && ++b->limb[i] == 0; i++) continue;
    if (i == b->n) b->limb[b->n++] = 1;
  }
}

/* b / k, returning the remainder. */
static uint32_t big_div_small(big *b, uint32_t k) {
  uint64_t rem = 0;
  size_t i;
  for (i = b->n; i-- > 0;) {
    uint64_t v = (rem << 32) | b->limb[i];
    b->limb[i] = (uint32_t)(v / k);
    rem = v % k;
  }
  big_trim(b);
  return (uint32_t)rem;
}

/* x to `places` decimals (0 to 9), exactly: x is m * 2^e with m an integer below 2^53, so
 * x * 10^places is the integer m * 10^places shifted by e bits, rounded at the bits it
 * loses. No floating-point operation and no libc formatting, so the native build and
 * the WebAssembly build cannot differ (glibc and musl round ties the same way, to even,
 * but this rounds them up as toFixed does). */
/* The decimal text of x at `places` places, whole, into text (room for a double's 309
 * integer digits, the places, a sign and a point). */
static void fixed_text(char *text, double x, int places) {
  char digits[400];
  size_t nd = 0, o = 0, i, whole;
  uint64_t bits, m;
  int e, exponent_field, negative;
  big b;
  memcpy(&bits, &x, sizeof bits);
  negative = (int)(bits >> 63) && x != 0; /* toFixed prints -0 as 0 */
  exponent_field = (int)((bits >> 52) & 0x7ff);
  m = bits & ((UINT64_C(1) << 52) - 1);
  if (exponent_field == 0x7ff) {
    strcpy(text, m ? "NaN" : negative ? "-Infinity" : "Infinity");
    return;
  }
  if (exponent_field == 0) e = -1074; /* subnormal */
  else {
    m |= UINT64_C(1) << 52;
    e = exponent_field - 1075;
  }
  b.limb[0] = (uint32_t)m;
  b.limb[1] = (uint32_t)(m >> 32);
  b.n = 2;
  big_trim(&b);
  for (i = 0; i < (size_t)places; i++) big_mul_small(&b, 10);
  if (e >= 0) big_shift_left(&b, (unsigned)e);
  else big_shift_right_half_up(&b, (unsigned)-e);
  do { /* decimal digits, least significant first */
    uint32_t group = big_div_small(&b, 1000000000u);
    for (i = 0; i < 9; i++, group /= 10) digits[nd++] = (char)('0' + group % 10);
  } while (b.n > 0);
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  while (nd < (size_t)places + 1) digits[nd++] = '0';
  whole = nd - (size_t)places;
  if (negative) text[o++] = '-';
  for (i = 0; i < nd; i++) {
    if (i == whole) text[o++] = '.';
    text[o++] = digits[nd - 1 - i];
  }
  text[o] = '\0';
}

/* Copies s into buf of cap bytes, cut to fit. */
static char *copy_cut(char *buf, size_t cap, const char *s) {
  size_t i;
  if (cap == 0) return buf;
  for (i = 0; s[i] != '\0' && i + 1 < cap; i++) buf[i] = s[i];
  buf[i] = '\0';
  return buf;
}

/* in with a comma every three digits of its integer part, into out (room for 560). */
static void group_digits(const char *in, char *out) {
  size_t start = in[0] == '-' ? 1 : 0, digits = start, i, o = 0;
  while (in[digits] >= '0' && in[digits] <= '9') digits++;
  for (i = 0; in[i] != '\0'; i++) {
    out[o++] = in[i];
    if (i >= start && i + 1 < digits && (digits - i - 1) % 3 == 0) out[o++] = ',';
  }
  out[o] = '\0';
}

/* places are clamped to 0..9, enough for every figure the lesson prints. */
char *gs_fixed(char *buf, size_t cap, double x, int places) {
  char text[420];
  fixed_text(text, x, places < 0 ? 0 : places > 9 ? 9 : places);
  return copy_cut(buf, cap, text);
}

char *gs_fixed_grouped(char *buf, size_t cap, double x, int places) {
  char text[420], grouped[560];
  fixed_text(text, x, places < 0 ? 0 : places > 9 ? 9 : places);
  group_digits(text, grouped);
  return copy_cut(buf, cap, grouped);
}

/* Words a second at one place, as the lesson prints them, unless that would show fewer than
 * two significant digits: then as many places as show two ("0.0062"), up to gs_fixed's nine;
 * a rate too small even for those says so ("< 0.000000001") rather than print 0. */
char *gs_words_rate(char *buf, size_t cap, double x) {
  int places = 1;
  double t = x * 10;
  /* the lesson's settings never go below one word a second */
  if (BEYOND_WIDGET && x > 0 && x < 0.1) {
    while (t < 10 && places < 9) {
      t *= 10;
      places++;
    }
    if (t < 0.5) return copy_cut(buf, cap, "< 0.000000001");
  }
  return gs_fixed_grouped(buf, cap, x, places);
}

char *gs_grouped(char *buf, size_t cap, uint64_t x) {
  char digits[24], text[24], grouped[32];
  size_t n = 0, i;
  do digits[n++] = (char)('0' + x % 10); while ((x /= 10) > 0);
  for (i = 0; i < n; i++) text[i] = digits[n - 1 - i];
  text[n] = '\0';
  group_digits(text, grouped);
  return copy_cut(buf, cap, grouped);
}

/* A rate at 0 places in the largest unit that shows it as 1 or more ("2,039 GB/s",
 * "1 MB/s"), so that no figure the checks let through (a bandwidth from 1e6 bytes a
 * second, operations from 1e6) prints as 0. Units are decimal, as data sheets print them. */
typedef struct {
  double scale;
  const char *unit;
} unit_step;

static char *rate(char *buf, size_t cap, double x, const unit_step *units, size_t n) {
  char figure[GS_FIGURE_CAP];
  size_t i = 0;
  while (i + 1 < n && !(x >= units[i].scale)) i++;
  gs_format(buf, cap, "%s %s", gs_fixed_grouped(figure, sizeof figure, x / units[i].scale, 0), units[i].unit);
  return buf;
}

char *gs_bytes_rate(char *buf, size_t cap, double bytes_per_s) {
  static const unit_step UNITS[] = {{1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}, {1, "B/s"}};
  return rate(buf, cap, bytes_per_s, UNITS, sizeof UNITS / sizeof UNITS[0]);
}

char *gs_flops_rate(char *buf, size_t cap, double flops) {
  static const unit_step UNITS[] = {{1e12, "TFLOP/s"}, {1e9, "GFLOP/s"}, {1e6, "MFLOP/s"}, {1e3, "kFLOP/s"}, {1, "FLOP/s"}};
  return rate(buf, cap, flops, UNITS, sizeof UNITS / sizeof UNITS[0]);
}
