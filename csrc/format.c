/* Figures as text: fixed places rounded half-up on an exact tie (JavaScript's
 * Number.prototype.toFixed, ECMA-262 section 21.1.3.3: "If there are two such n, pick
 * the larger n"), thousands separators, and 17 significant digits for exact output. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpusplit.h"

/* x lies exactly halfway between two numbers of `places` decimals iff it is a multiple
 * of 2^-(places+1) but not of 2^-places: a dyadic fraction with d binary places has
 * exactly d decimal places, the last one a 5. ldexp and floor are exact. */
static int is_tie(double ax, int places) {
  double finer = ldexp(ax, places + 1), coarser = ldexp(ax, places);
  return floor(finer) == finer && floor(coarser) != coarser;
}

/* printf rounds the exact binary value correctly, ties to even; on a tie the next double
 * up lies past the halfway point and below the next one, so printf rounds it up. */
char *gs_fixed(char *buf, size_t cap, double x, int places) {
  double ax = x < 0 ? -x : x;
  if (!isfinite(x)) {
    snprintf(buf, cap, "%s", x != x ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
    return buf;
  }
  if (is_tie(ax, places)) ax = nextafter(ax, INFINITY);
  snprintf(buf, cap, "%s%.*f", signbit(x) ? "-" : "", places, ax);
  return buf;
}

/* Inserts a comma every three digits of the integer part of the number in buf. */
static char *group_digits(char *buf, size_t cap) {
  char out[400];
  size_t start = buf[0] == '-' ? 1 : 0, digits = start, i, o = 0;
  while (buf[digits] >= '0' && buf[digits] <= '9') digits++;
  for (i = 0; buf[i] != '\0' && o + 2 < sizeof out; i++) {
    out[o++] = buf[i];
    if (i >= start && i + 1 < digits && (digits - i - 1) % 3 == 0) out[o++] = ',';
  }
  out[o] = '\0';
  snprintf(buf, cap, "%s", out);
  return buf;
}

char *gs_fixed_grouped(char *buf, size_t cap, double x, int places) {
  return group_digits(gs_fixed(buf, cap, x, places), cap);
}

char *gs_grouped(char *buf, size_t cap, uint64_t x) {
  snprintf(buf, cap, "%llu", (unsigned long long)x);
  return group_digits(buf, cap);
}

/* 17 significant digits: enough for any double to read back as itself. */
char *gs_exact(char *buf, size_t cap, double x) {
  snprintf(buf, cap, "%.17g", x);
  return buf;
}

/* 15 significant digits, trailing zeros dropped: a constant as a person wrote it (0.6,
 * 6.6, 80), for labels; figures the lesson quotes go through gs_fixed. */
char *gs_plain(char *buf, size_t cap, double x) {
  snprintf(buf, cap, "%.15g", x);
  return buf;
}
