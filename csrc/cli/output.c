/* The command line's helpers for every command: one-line errors, text from the user made
 * safe for a terminal, JSON strings and numbers, and reading a file whole. They call no
 * command (csrc/cli/main.c dispatches to those). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Text that may come from the user (a path, a flag's value), made safe for a terminal by
 * the library's one escaping (gs_escape_next): a message stays one line of valid UTF-8
 * and cannot move the cursor, change colours or reorder what it shows. */
void cli_put_text(FILE *f, const char *s) {
  size_t len = strlen(s), at = 0;
  char piece[GS_ESCAPE_CAP];
  while (at < len) {
    at += gs_escape_next(s + at, len - at, GS_ESCAPE_TEXT, piece);
    fputs(piece, f);
  }
}

/* cli_put_text, then spaces to width bytes, as printf's %-*s pads (a table's column). */
void cli_put_padded(FILE *f, const char *s, int width) {
  size_t len = strlen(s), at = 0, wrote = 0;
  char piece[GS_ESCAPE_CAP];
  while (at < len) {
    at += gs_escape_next(s + at, len - at, GS_ESCAPE_TEXT, piece);
    wrote += strlen(piece);
    fputs(piece, f);
  }
  for (; wrote < (size_t)(width > 0 ? width : 0); wrote++) fputc(' ', f);
}

int cli_bad(const char *fmt, ...) {
  va_list ap;
  char fixed[1024], *text = fixed;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(fixed, sizeof fixed, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof fixed && (text = malloc((size_t)n + 1)) != NULL) {
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  fputs("gpusplit: ", stderr);
  cli_put_text(stderr, text ? text : fixed);
  fputc('\n', stderr);
  if (text != fixed) free(text);
  return CLI_BAD_INPUT;
}

int cli_bad_error(const char *source, const gs_error *err) {
  if (err->field[0] != '\0') return cli_bad("%s: %s: %s", source, err->field, err->what);
  return cli_bad("%s: %s", source, err->what);
}

static void put_file(void *to, const char *text, size_t len) { fwrite(text, 1, len, (FILE *)to); }

gs_out cli_out(FILE *f) {
  gs_out o = {put_file, f};
  return o;
}

void cli_json_text(FILE *f, const char *s) {
  gs_out o = cli_out(f);
  gs_out_json_text(&o, s);
}

void cli_json_string(FILE *f, const char *s) {
  gs_out o = cli_out(f);
  gs_out_json_string(&o, s);
}

void cli_json_double(FILE *f, double x) {
  gs_out o = cli_out(f);
  gs_out_double(&o, x);
}

/* Reads the whole of path, NUL-terminated, into memory the caller frees; more than
 * max_bytes is refused, naming what the file should be. */
int cli_read_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  size_t n;
  if (!f) return cli_bad("%s: cannot read it: %s", path, strerror(errno));
  buf = malloc(max_bytes + 1);
  if (!buf) {
    fclose(f);
    return cli_bad("%s: out of memory", path);
  }
  n = fread(buf, 1, max_bytes + 1, f);
  if (ferror(f)) {
    int e = errno;
    fclose(f);
    free(buf);
    return cli_bad("%s: cannot read it: %s", path, strerror(e));
  }
  fclose(f);
  if (n > max_bytes) {
    free(buf);
    return cli_bad("%s: is larger than %zu MiB, too large for %s", path, max_bytes >> 20, what);
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return CLI_OK;
}
