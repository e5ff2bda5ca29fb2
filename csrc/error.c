/* Error reporting and checked integer arithmetic. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

/* Writes one phrase into the caller's error struct. The message is cut, never overrun,
 * when the field name or phrase is longer than the struct holds. */
int gs_fail(gs_error *err, int code, const char *field, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->code = code;
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    va_start(ap, fmt);
    vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
  }
  return code;
}

int gs_mul(uint64_t a, uint64_t b, uint64_t *out) {
  if (a != 0 && b > UINT64_MAX / a) return 0;
  *out = a * b;
  return 1;
}

int gs_add(uint64_t a, uint64_t b, uint64_t *out) {
  if (b > UINT64_MAX - a) return 0;
  *out = a + b;
  return 1;
}
