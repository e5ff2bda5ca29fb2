/* A lengths file (`gpusplit serve --lengths FILE`): one request's prompt and output tokens a
 * line, "PROMPT,OUTPUT" in digits, spaces or tabs allowed around each; blank lines and lines
 * starting with '#' are skipped; a line ending in "\r\n" is taken as ending in "\n". Request i
 * of a load takes line i's pair, from the first again when the file has fewer (a trace
 * replayed in order). Any other line is refused with its number. It takes text, not a path,
 * so a page can use it on pasted text. */
#include <string.h>

#include "internal.h"

static const char *skip_blanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* A count of 1 to max in digits at *p, advanced past it; 0 when there is none. */
static uint64_t digits(const char **p, const char *end, uint64_t max) {
  uint64_t x = 0;
  const char *q = *p;
  while (q < end && *q >= '0' && *q <= '9') {
    x = x * 10 + (uint64_t)(*q - '0');
    if (x > max) return 0;
    q++;
  }
  if (q == *p) return 0;
  *p = q;
  return x;
}

/* One line (without its end) as a pair; GS_OK, or the error naming line n. */
static int parse_line(const char *p, const char *end, size_t n, uint64_t *prompt, uint64_t *output, gs_error *err) {
  if (end > p && end[-1] == '\r') end--;
  p = skip_blanks(p, end);
  *prompt = digits(&p, end, GS_MAX_CHAT_TOKENS);
  p = skip_blanks(p, end);
  if (*prompt == 0 || p == end || *p != ',')
    return gs_fail(err, GS_ERR_RANGE, "lengths", "line %zu: must be PROMPT,OUTPUT, two token counts of 1 to %llu", n,
                   (unsigned long long)GS_MAX_CHAT_TOKENS);
  p = skip_blanks(p + 1, end);
  *output = digits(&p, end, GS_MAX_CHAT_TOKENS);
  p = skip_blanks(p, end);
  if (*output == 0 || p != end)
    return gs_fail(err, GS_ERR_RANGE, "lengths", "line %zu: must be PROMPT,OUTPUT, two token counts of 1 to %llu", n,
                   (unsigned long long)GS_MAX_CHAT_TOKENS);
  if (*prompt + *output > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "lengths", "line %zu: a prompt and an output of at most %llu tokens together", n,
                   (unsigned long long)GS_MAX_CHAT_TOKENS);
  return GS_OK;
}

int gs_lengths_parse(const char *text, size_t len, uint64_t *prompts, uint64_t *outputs, size_t cap, size_t *count,
                     gs_error *err) {
  const char *p = text, *end = text + len;
  size_t line = 0;
  int rc;
  *count = 0;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p)), *stop = eol ? eol : end, *first = skip_blanks(p, stop);
    line++;
    if (memchr(p, '\0', (size_t)(stop - p))) return gs_fail(err, GS_ERR_RANGE, "lengths", "line %zu: holds a NUL byte", line);
    if (first < stop && *first != '#' && !(first + 1 == stop && *first == '\r')) {
      if (*count == cap) return gs_fail(err, GS_ERR_TOO_LONG, "lengths", "more than %zu pairs", cap);
      if ((rc = parse_line(p, stop, line, &prompts[*count], &outputs[*count], err)) != GS_OK) return rc;
      (*count)++;
    }
    p = eol ? eol + 1 : end;
  }
  if (*count == 0) return gs_fail(err, GS_ERR_MISSING, "lengths", "no PROMPT,OUTPUT line");
  return GS_OK;
}
