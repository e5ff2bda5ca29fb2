/* Error reporting, message text without libc's printf, and checked integer arithmetic. */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

/* Appends n bytes of s to buf of cap bytes at *at, cutting them to fit. */
static void put(char *buf, size_t cap, size_t *at, const char *s, size_t n) {
  for (; n > 0 && *at + 1 < cap; n--) buf[(*at)++] = *s++;
}

static void put_unsigned(char *buf, size_t cap, size_t *at, unsigned long long x) {
  char digits[24];
  size_t n = 0, i;
  do digits[n++] = (char)('0' + x % 10); while ((x /= 10) > 0);
  for (i = 0; i < n; i++) put(buf, cap, at, &digits[n - 1 - i], 1);
}

/* vsnprintf for the library's messages, limited to the conversions they use: %s, %d,
 * %u, %llu, %zu and %%. Figures go through gs_fixed, so the library needs no libc
 * printf, and the WebAssembly module carries none (it was a third of its size). */
size_t gs_vformat(char *buf, size_t cap, const char *fmt, va_list ap) {
  size_t at = 0;
  for (; *fmt; fmt++) {
    if (*fmt != '%') {
      put(buf, cap, &at, fmt, 1);
    } else if (fmt[1] == 's') {
      const char *s = va_arg(ap, const char *);
      put(buf, cap, &at, s, strlen(s));
      fmt++;
    } else if (fmt[1] == 'd') {
      int d = va_arg(ap, int);
      if (d < 0) put(buf, cap, &at, "-", 1);
      put_unsigned(buf, cap, &at, d < 0 ? 0ull - (unsigned long long)d : (unsigned long long)d);
      fmt++;
    } else if (fmt[1] == 'u') {
      put_unsigned(buf, cap, &at, va_arg(ap, unsigned));
      fmt++;
    } else if (fmt[1] == 'z' && fmt[2] == 'u') {
      put_unsigned(buf, cap, &at, va_arg(ap, size_t));
      fmt += 2;
    } else if (fmt[1] == 'l' && fmt[2] == 'l' && fmt[3] == 'u') {
      put_unsigned(buf, cap, &at, va_arg(ap, unsigned long long));
      fmt += 3;
    } else if (fmt[1] == '%') {
      put(buf, cap, &at, "%", 1);
      fmt++;
    } else {
      put(buf, cap, &at, fmt, 1); /* not a conversion this knows: written as it stands */
    }
  }
  if (at + 1 >= cap) at = gs_utf8_whole(buf, at); /* a cut leaves no half character */
  if (cap) buf[at] = '\0';
  return at;
}

int gs_format(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  size_t n;
  va_start(ap, fmt);
  n = gs_vformat(buf, cap, fmt, ap);
  va_end(ap);
  return (int)n;
}

/* Writes one phrase into the caller's error struct, cut to fit, never overrun. Messages
 * quote text from the user (a log's field, a key), so both parts are escaped
 * (gs_escape): a message stays one line that cannot move a terminal's cursor or break a
 * page's line. */
int gs_fail(gs_error *err, int code, const char *field, const char *fmt, ...) {
  if (err) {
    va_list ap;
    char raw[sizeof err->what];
    size_t n;
    err->code = code;
#ifdef GS_LESSON_ONLY
    /* the lesson's module takes no text from the user: its messages are its own */
    (void)raw;
    (void)n;
    gs_format(err->field, sizeof err->field, "%s", field ? field : "");
    va_start(ap, fmt);
    gs_vformat(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
#else
    n = (size_t)gs_format(raw, sizeof err->field, "%s", field ? field : "");
    gs_escape(err->field, sizeof err->field, raw, n, GS_ESCAPE_TEXT);
    va_start(ap, fmt);
    n = gs_vformat(raw, sizeof raw, fmt, ap);
    va_end(ap);
    gs_escape(err->what, sizeof err->what, raw, n, GS_ESCAPE_TEXT);
#endif
  }
  return code;
}

/* a x b, or 0 when it passes 2^64 - 1. Checked on 32-bit halves, not as b > UINT64_MAX / a:
 * clang turns that test into a 128-bit multiply, which wasm32 has not, so the module called
 * compiler-rt's __multi3 for each (13% of the bench's sweep in the wasm, 2% natively). Both
 * halves high: at least 2^64. Else one cross term is 0 and the other under 2^64. */
int gs_mul(uint64_t a, uint64_t b, uint64_t *out) {
  uint64_t a_hi = a >> 32, b_hi = b >> 32, a_lo = a & 0xffffffffu, b_lo = b & 0xffffffffu, cross, low;
  if (a_hi && b_hi) return 0;
  cross = a_hi * b_lo + a_lo * b_hi;
  if (cross >> 32) return 0;
  low = a_lo * b_lo;
  if (low > UINT64_MAX - (cross << 32)) return 0;
  *out = (cross << 32) + low;
  return 1;
}

int gs_add(uint64_t a, uint64_t b, uint64_t *out) {
  if (b > UINT64_MAX - a) return 0;
  *out = a + b;
  return 1;
}
