/* A number written as text, read whole or refused (gs_read_number, internal.h): a runs
 * file's cells (runs.c) and the command line's figures (csrc/cli/args.c) are read here, so
 * "7,5", "1.2.3", "6.43ms", "1e1x" and "20 ms" are refused rather than read by their first
 * digits. */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static int digit(char c) { return c >= '0' && c <= '9'; }

/* The bytes of the number at the start of s in JSON's grammar (RFC 8259 section 6):
 * -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?; 0 when s does not start with one.
 * (json.c's grammar pass checks the same within a document.) */
static size_t number_length(const char *s) {
  size_t at = 0;
  if (s[at] == '-') at++;
  if (s[at] == '0') at++;
  else if (s[at] >= '1' && s[at] <= '9') while (digit(s[at])) at++;
  else return 0;
  if (s[at] == '.') {
    if (!digit(s[++at])) return 0;
    while (digit(s[at])) at++;
  }
  if (s[at] == 'e' || s[at] == 'E') {
    at++;
    if (s[at] == '+' || s[at] == '-') at++;
    if (!digit(s[at])) return 0;
    while (digit(s[at])) at++;
  }
  return at;
}

/* A decimal number as the nearest double, by Clinger's exact case ("How to read floating
 * point numbers accurately", PLDI 1990): when the digits make an integer below 2^53 and
 * the power of ten is at most 10^22, both are exact doubles and one IEEE multiplication
 * or division rounds correctly. Every figure in data/ is of that kind. We take only that
 * case, not strtod, because musl's strtod works in 128-bit long double, which in
 * WebAssembly is software arithmetic that would double the module's size; numbers with
 * more than 15 significant digits or a larger exponent are refused with a clear error. */
int gs_exact_decimal(const char *raw, double *out) {
  static const double powers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  uint64_t digits = 0;
  long exponent = 0, written = 0;
  const char *p = raw;
  int negative = *p == '-', exp_negative;
  if (negative) p++;
  for (; (*p >= '0' && *p <= '9') || *p == '.'; p++) {
    if (*p == '.') {
      written = 1;
      continue;
    }
    if (digits == 0 && *p == '0') { /* leading zeros carry no digits */
      if (written) exponent--;
      continue;
    }
    if (digits >= (UINT64_C(1) << 53) / 10) return 0;
    digits = digits * 10 + (uint64_t)(*p - '0');
    if (written) exponent--;
  }
  if (*p == 'e' || *p == 'E') {
    long e = 0;
    p++;
    exp_negative = *p == '-';
    if (*p == '+' || *p == '-') p++;
    for (; *p >= '0' && *p <= '9'; p++)
      if ((e = e * 10 + (*p - '0')) > 400) return 0;
    exponent += exp_negative ? -e : e;
  }
  if (digits == 0) exponent = 0;
  if (exponent > 22 || exponent < -22) return 0;
  *out = exponent >= 0 ? (double)digits * powers[exponent] : (double)digits / powers[-exponent];
  if (negative) *out = -*out;
  return 1;
}

/* The grammar first, then the value: by Clinger's exact case (gs_exact_decimal: up to 15
 * significant digits and a power of ten up to 22, one IEEE operation), else by the C
 * library's strtod, which glibc rounds correctly (to the nearest double, as its manual
 * states for strtod), so a time written with 17 digits (3.3333333333333335, Python's repr
 * of 10/3) is read as the double it names. The WebAssembly modules read no runs file and
 * no flag; there musl's strtod would bring 128-bit long double arithmetic in software
 * (docs/ARCHITECTURE.md, "WebAssembly notes"), so a build for wasm refuses a number past
 * the exact case instead (GS_NUMBER_TOO_PRECISE) and links no strtod. */
int gs_read_number(const char *text, double *out) {
  size_t n = number_length(text);
  if (n == 0 || text[n] != '\0') return GS_NUMBER_NOT;
  if (gs_exact_decimal(text, out)) return GS_NUMBER_OK;
#ifdef __wasm__
  return GS_NUMBER_TOO_PRECISE;
#else
  {
    char *end;
    double x;
    errno = 0;
    x = strtod(text, &end);
    if (end != text + n) return GS_NUMBER_NOT; /* not reached: the grammar is strtod's too */
    /* ERANGE: past the largest double, or below the smallest normal one (1e-310) */
    if (errno == ERANGE) return x <= 1 && x >= -1 ? GS_NUMBER_TOO_SMALL : GS_NUMBER_TOO_LARGE;
    *out = x;
    return GS_NUMBER_OK;
  }
#endif
}
