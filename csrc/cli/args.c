/* Flags' values read whole: a figure by the library's number reader (gs_read_number), a
 * count as digits. Each prints why not, as one line, and returns CLI_BAD_INPUT. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"

/* A flag's value as a finite double, the whole text read: a number as JSON writes one
 * through the library's reader, the one a runs file's cells go through; and, as the
 * docs/CLI.md promises ("any way strtod reads them"), strtod's other spellings (+5, .5, 5.,
 * 0x1p4) by strtod itself, whole. A value a double cannot hold is named for what it is:
 * too small (1e-310) or too large (1e400). */
int cli_parse_number(const char *flag, const char *text, double *out) {
  char *end;
  double x;
  switch (gs_read_number(text, out)) {
  case GS_NUMBER_OK: return CLI_OK;
  case GS_NUMBER_TOO_SMALL: return cli_bad("%s: '%s' is too small to use", flag, text);
  case GS_NUMBER_TOO_LARGE: return cli_bad("%s: '%s' is too large: it must be a finite number", flag, text);
  default: break;
  }
  if (text[0] == '\0' || isspace((unsigned char)text[0])) return cli_bad("%s: must be a number, not '%s'", flag, text);
  errno = 0;
  x = strtod(text, &end);
  if (*end != '\0') return cli_bad("%s: must be a number, not '%s'", flag, text);
  if (errno == ERANGE && fabs(x) <= 1) return cli_bad("%s: '%s' is too small to use", flag, text);
  if (errno == ERANGE) return cli_bad("%s: '%s' is too large: it must be a finite number", flag, text);
  if (!isfinite(x)) return cli_bad("%s: must be a finite number, not '%s'", flag, text);
  *out = x;
  return CLI_OK;
}

/* A flag's value as a whole number from 1 to max, written as digits alone: 4.0 and
 * 4.0000000000000001 are refused rather than rounded, as config.json's counts are. */
int cli_parse_whole(const char *flag, const char *text, uint64_t max, uint64_t *out) {
  uint64_t x = 0;
  size_t i;
  if (text[0] == '\0') return cli_bad("%s: must be a whole number, not ''", flag);
  for (i = 0; text[i] != '\0'; i++) {
    if (text[i] < '0' || text[i] > '9') return cli_bad("%s: must be a whole number written as digits, not '%s'", flag, text);
    if (x > max) continue; /* already too large; keep checking that it is all digits */
    x = x * 10 + (uint64_t)(text[i] - '0');
  }
  if (x < 1 || x > max) return cli_bad("%s: must be from 1 to %llu, not '%s'", flag, (unsigned long long)max, text);
  *out = x;
  return CLI_OK;
}
