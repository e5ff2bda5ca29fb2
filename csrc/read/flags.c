/* The one reader of a command's flags (flags.h): argv against the commands' tables, each
 * value read whole by its kind or refused in one wording. A native reader only: it reads
 * strtod's spellings, which the WebAssembly modules leave out (number.c says why). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "read/flags.h"

/* A value or a word as a message quotes it: whole up to 200 bytes, so the line fits in
 * gs_error's what with its flag; longer, its start and "...". */
enum { SHOWN_CAP = 208 };
static const char *shown(const char *s, char *buf) {
  size_t n = strlen(s);
  if (n < 200) return s;
  snprintf(buf, SHOWN_CAP, "%.200s...", s);
  return buf;
}

static int refuse(gs_error *err, const char *fmt, const char *a, const char *b, const char *c) {
  err->code = GS_ERR_RANGE;
  err->field[0] = '\0';
  snprintf(err->what, sizeof err->what, fmt, a, b, c);
  return GS_ERR_RANGE;
}

/* A flag's value as a finite double, the whole text read: a number as JSON writes one
 * through the library's reader, the one a runs file's cells go through; and, as the
 * docs/CLI.md promises ("any way strtod reads them"), strtod's other spellings (+5, .5, 5.,
 * 0x1p4) by strtod itself, whole. A value a double cannot hold is named for what it is:
 * too small (1e-310) or too large (1e400). */
int gs_flag_number(const char *flag, const char *text, double *out, gs_error *err) {
  char *end, b[SHOWN_CAP];
  const char *t = shown(text, b);
  double x;
  switch (gs_read_number(text, out)) {
  case GS_NUMBER_OK: return GS_OK;
  case GS_NUMBER_TOO_SMALL: return refuse(err, "%s: '%s' is too small to use", flag, t, "");
  case GS_NUMBER_TOO_LARGE: return refuse(err, "%s: '%s' is too large: it must be a finite number", flag, t, "");
  default: break;
  }
  if (text[0] == '\0' || isspace((unsigned char)text[0])) return refuse(err, "%s: must be a number, not '%s'", flag, t, "");
  errno = 0;
  x = strtod(text, &end);
  if (*end != '\0') return refuse(err, "%s: must be a number, not '%s'", flag, t, "");
  if (errno == ERANGE && fabs(x) <= 1) return refuse(err, "%s: '%s' is too small to use", flag, t, "");
  if (errno == ERANGE) return refuse(err, "%s: '%s' is too large: it must be a finite number", flag, t, "");
  if (!isfinite(x)) return refuse(err, "%s: must be a finite number, not '%s'", flag, t, "");
  *out = x;
  return GS_OK;
}

/* A flag's value as a whole number from 1 to most, written as digits alone: 4.0 and
 * 4.0000000000000001 are refused rather than rounded, as config.json's counts are. */
int gs_flag_whole(const char *flag, const char *text, uint64_t most, uint64_t *out, gs_error *err) {
  char b[SHOWN_CAP], m[24];
  uint64_t x = 0;
  size_t i;
  if (text[0] == '\0') return refuse(err, "%s: must be a whole number, not ''", flag, "", "");
  for (i = 0; text[i] != '\0'; i++) {
    if (text[i] < '0' || text[i] > '9') return refuse(err, "%s: must be a whole number written as digits, not '%s'", flag, shown(text, b), "");
    if (x > most) continue; /* already too large; keep checking that it is all digits */
    x = x * 10 + (uint64_t)(text[i] - '0');
  }
  snprintf(m, sizeof m, "%llu", (unsigned long long)most);
  if (x < 1 || x > most) return refuse(err, "%s: must be from 1 to %s, not '%s'", flag, m, shown(text, b));
  *out = x;
  return GS_OK;
}

/* A real within the flag's range. */
static int read_real(const gs_flag *f, const char *label, const char *text, double *out, gs_error *err) {
  char lo[32], hi[32], b[SHOWN_CAP], what[64];
  double x;
  if (gs_flag_number(label, text, &x, err) != GS_OK) return GS_ERR_RANGE;
  if (f->lo < f->hi && (x < f->lo || x > f->hi || (f->lo_open && x == f->lo))) {
    snprintf(lo, sizeof lo, "%.15g", f->lo);
    snprintf(hi, sizeof hi, "%.15g", f->hi);
    snprintf(what, sizeof what, f->lo_open ? "above %s and at most %s" : "from %s to %s", lo, hi);
    return refuse(err, "%s: must be %s, not '%s'", label, what, shown(text, b));
  }
  *out = x;
  return GS_OK;
}

/* A choice's place from 1 among meta's words, or the words listed as "a, b or c". */
static int read_choice(const gs_flag *f, const char *label, const char *text, int *out, gs_error *err) {
  char words[256], b[SHOWN_CAP];
  const char *w = f->meta;
  size_t at = 0;
  int place = 1;
  for (;;) {
    size_t n = strcspn(w, "|");
    if (strlen(text) == n && strncmp(text, w, n) == 0) {
      *out = place;
      return GS_OK;
    }
    at += (size_t)snprintf(words + at, sizeof words - at, "%s%.*s", place == 1 ? "" : w[n] ? ", " : " or ", (int)n, w);
    if (w[n] == '\0' || at >= sizeof words) break;
    w += n + 1;
    place++;
  }
  return refuse(err, "%s: must be %s, not '%s'", label, words, shown(text, b));
}

/* The value stored where the flag says; label names it in a refusal. */
static int store(const gs_flag *f, const char *label, void *base, const char *value, gs_error *err) {
  char *at = (char *)base + f->at;
  int rc = GS_OK;
  switch (f->kind) {
  case GS_FLAG_SWITCH:
    if (f->bit) *(unsigned *)(void *)at |= f->bit;
    else *(int *)(void *)at = 1;
    return GS_OK;
  case GS_FLAG_WHOLE: rc = gs_flag_whole(label, value, *f->most, (uint64_t *)(void *)at, err); break;
  case GS_FLAG_REAL: rc = read_real(f, label, value, (double *)(void *)at, err); break;
  case GS_FLAG_CHOICE: rc = read_choice(f, label, value, (int *)(void *)at, err); break;
  default: *(const char **)(void *)at = value; break;
  }
  if (rc == GS_OK && f->bit) *(unsigned *)(void *)((char *)base + f->mark) |= f->bit;
  return rc;
}

static int is_positional(const gs_flag *f) { return f->kind != GS_FLAG_NOTE && f->kind != GS_FLAG_REFUSED && strncmp(f->name, "--", 2) != 0; }

/* The flag of sets named by arg's first n bytes, or the k-th positional (k >= 0). */
static const gs_flag *find(const gs_flag_set *sets, size_t set_n, const char *arg, size_t n, long k, size_t *set) {
  size_t s, i;
  for (s = 0; s < set_n; s++)
    for (i = 0; i < sets[s].n; i++) {
      const gs_flag *f = &sets[s].flags[i];
      if (f->kind == GS_FLAG_NOTE) continue;
      if (k < 0 ? strlen(f->name) == n && strncmp(f->name, arg, n) == 0 : is_positional(f) && k-- == 0) {
        *set = s;
        return f;
      }
    }
  return NULL;
}

static void keep(const gs_flag_set *set, char *word) {
  if (set->kept) set->kept[(*set->kept_n)++] = word;
}

/* A word that starts a flag: "--x", or "-x" (no flag has one dash; refused as unknown). */
static int flag_word(const char *w) { return w[0] == '-' && w[1] != '\0'; }

/* The value of the flag at argv[*i], from "=VALUE" or the next word. */
static int value_of(const gs_flag *f, int argc, char *const *argv, int *i, const char **value, gs_error *err) {
  const char *eq = strchr(argv[*i], '=');
  char b[SHOWN_CAP];
  if (f->kind == GS_FLAG_SWITCH) {
    *value = NULL;
    return eq ? refuse(err, "%s: takes no value, not '%s'", f->name, shown(eq + 1, b), "") : GS_OK;
  }
  if (eq) *value = eq + 1;
  else if (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0) *value = argv[++*i];
  else return refuse(err, "%s: needs a value", f->name, "", "");
  return GS_OK;
}

/* The same flag named by a word before argv[i]: a value never starts with "--", so each
 * earlier word that does is a flag. */
static int given_before(char *const *argv, int i, const char *name) {
  size_t n = strlen(name);
  int j;
  for (j = 1; j < i; j++)
    if (strncmp(argv[j], name, n) == 0 && (argv[j][n] == '\0' || argv[j][n] == '=')) return 1;
  return 0;
}

static int read_flag(const gs_flag_set *sets, size_t set_n, int argc, char *const *argv, int *i, gs_error *err) {
  const char *arg = argv[*i], *cmd = argv[0], *value;
  size_t n = strcspn(arg, "="), s;
  char b[SHOWN_CAP];
  const gs_flag *f = find(sets, set_n, arg, n, -1, &s);
  int first = *i;
  if (!f || is_positional(f)) return refuse(err, "%s: unknown flag '%s' (see gpusplit %s --help)", cmd, shown(arg, b), cmd);
  if (f->kind == GS_FLAG_REFUSED) return refuse(err, "%s: %s is %s; leave it out", cmd, f->name, f->help);
  if (f->kind != GS_FLAG_SWITCH && given_before(argv, *i, f->name)) return refuse(err, "%s: given twice; give it once", f->name, "", "");
  if (value_of(f, argc, argv, i, &value, err) != GS_OK || store(f, f->name, sets[s].base, value, err) != GS_OK) return GS_ERR_RANGE;
  for (; first <= *i; first++) keep(&sets[s], argv[first]);
  return GS_OK;
}

/* A positional's value was stored at at: a choice's place, or a text. */
static int given_at(const char *at, int kind) {
  return kind == GS_FLAG_CHOICE ? *(const int *)(const void *)at != 0 : *(const char *const *)(const void *)at != NULL;
}

/* Each flag marked needed that no word gave. */
static int check_needed(const gs_flag_set *sets, size_t set_n, int argc, char *const *argv, gs_error *err) {
  size_t s, i;
  char what[96];
  for (s = 0; s < set_n; s++)
    for (i = 0; i < sets[s].n; i++) {
      const gs_flag *f = &sets[s].flags[i];
      if (!f->needed || f->kind == GS_FLAG_NOTE) continue;
      if (is_positional(f) ? given_at((char *)sets[s].base + f->at, f->kind) : given_before(argv, argc, f->name)) continue;
      snprintf(what, sizeof what, "%s%s%s", f->name, f->meta && is_positional(f) == 0 ? " " : "", is_positional(f) ? "" : f->meta ? f->meta : "");
      return refuse(err, "%s: %s is needed (see gpusplit %s --help)", argv[0], what, argv[0]);
    }
  return GS_OK;
}

int gs_flags_read(const gs_flag_set *sets, size_t set_n, int argc, char *const *argv, gs_error *err) {
  long positional = 0;
  int i;
  size_t s;
  char b[SHOWN_CAP], label[96];
  for (i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return GS_FLAGS_HELP;
  for (i = 1; i < argc; i++) {
    const gs_flag *f;
    if (flag_word(argv[i])) {
      if (read_flag(sets, set_n, argc, argv, &i, err) != GS_OK) return GS_ERR_RANGE;
      continue;
    }
    if (!(f = find(sets, set_n, NULL, 0, positional, &s))) {
      if (positional > 0 && find(sets, set_n, NULL, 0, positional - 1, &s))
        return refuse(err, "%s: one %s only; '%s' would be a second", argv[0], find(sets, set_n, NULL, 0, positional - 1, &s)->name,
                      shown(argv[i], b));
      return refuse(err, "%s: unexpected argument '%s' (see gpusplit %s --help)", argv[0], shown(argv[i], b), argv[0]);
    }
    positional++;
    snprintf(label, sizeof label, "%.40s %.40s", argv[0], f->name); /* "list WHAT" */
    if (store(f, label, sets[s].base, argv[i], err) != GS_OK) return GS_ERR_RANGE;
    keep(&sets[s], argv[i]);
  }
  return check_needed(sets, set_n, argc, argv, err);
}

/* "  --name META" padded to a column of 21, or two spaces past it, then each line of help
 * (a note: its text as it is). */
size_t gs_flag_help(const gs_flag *f, char *buf, size_t cap) {
  size_t at = 0, n;
  const char *h = f->help;
  int left;
  if (f->kind == GS_FLAG_NOTE) {
    n = (size_t)snprintf(buf, cap, "%s", h);
    return n < cap ? n : (size_t)-1;
  }
  left = snprintf(buf, cap, "  %s%s%s", f->name, f->meta && f->kind != GS_FLAG_SWITCH ? " " : "",
                  f->meta && f->kind != GS_FLAG_SWITCH ? f->meta : "");
  at = (size_t)left;
  while (h && at < cap) {
    size_t line = strcspn(h, "\n");
    int pad = at == (size_t)left ? (left <= 19 ? 21 - left : 2) : 21;
    at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%*s%.*s", at == (size_t)left ? "" : "\n", pad, "", (int)line, h);
    h = h[line] ? h + line + 1 : NULL;
  }
  return at < cap ? at : (size_t)-1;
}
