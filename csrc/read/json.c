/* Reading JSON with jsmn: parse into caller-owned tokens, find keys, read typed values.
 * jsmn finds the structure; the checks on values (number grammar, whole numbers, ranges)
 * are ours, because jsmn leaves primitives as raw text. */
#define JSMN_STATIC
/* Not JSMN_STRICT: the grammar pass below refuses all that is not JSON before jsmn runs, and
 * strict jsmn would refuse NaN and Infinity, which the grammar lets through (see value()). */
#include <string.h>

#include "internal.h"

static const char *type_name(const jsmntok_t *t, const char *text) {
  switch (t->type) {
  case JSMN_OBJECT: return "an object";
  case JSMN_ARRAY: return "an array";
  case JSMN_STRING: return "a string";
  default: break;
  }
  switch (text[t->start]) {
  case 't': case 'f': return "a boolean";
  case 'n': return "null";
  default: return "a number";
  }
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* jsmn finds the structure but does not check the grammar: even in strict mode it
 * accepts "[1 2]", "{,}", trailing commas and misspelled literals. This pass checks the
 * text against RFC 8259's grammar first, so that anything that is not JSON is refused
 * with the byte where it goes wrong. It builds nothing. */
typedef struct {
  const char *s;
  size_t n, at;
  int too_deep; /* set when nesting passed GS_JSON_DEPTH */
} cursor;

static void skip_space(cursor *c) {
  while (c->at < c->n && is_space(c->s[c->at])) c->at++;
}

static int literal(cursor *c, const char *word) {
  size_t k = strlen(word);
  if (c->n - c->at < k || memcmp(c->s + c->at, word, k) != 0) return 0;
  c->at += k;
  return 1;
}

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static int number(cursor *c) {
  size_t start = c->at;
  if (c->at < c->n && c->s[c->at] == '-') c->at++;
  if (c->at < c->n && c->s[c->at] == '0') c->at++;
  else if (c->at < c->n && c->s[c->at] >= '1' && c->s[c->at] <= '9') while (c->at < c->n && is_digit(c->s[c->at])) c->at++;
  else return 0;
  if (c->at < c->n && c->s[c->at] == '.') {
    if (++c->at >= c->n || !is_digit(c->s[c->at])) return 0;
    while (c->at < c->n && is_digit(c->s[c->at])) c->at++;
  }
  if (c->at < c->n && (c->s[c->at] == 'e' || c->s[c->at] == 'E')) {
    if (++c->at < c->n && (c->s[c->at] == '+' || c->s[c->at] == '-')) c->at++;
    if (c->at >= c->n || !is_digit(c->s[c->at])) return 0;
    while (c->at < c->n && is_digit(c->s[c->at])) c->at++;
  }
  return c->at > start;
}

static int string(cursor *c) {
  if (c->at >= c->n || c->s[c->at] != '"') return 0;
  for (c->at++; c->at < c->n; c->at++) {
    unsigned char ch = (unsigned char)c->s[c->at];
    if (ch == '"') {
      c->at++;
      return 1;
    }
    if (ch < 0x20) return 0;
    if (ch == '\\') {
      const char *escapes = "\"\\/bfnrtu";
      if (++c->at >= c->n || !strchr(escapes, c->s[c->at]) || c->s[c->at] == '\0') return 0;
      if (c->s[c->at] == 'u') {
        int k;
        for (k = 0; k < 4; k++) {
          char h = ++c->at < c->n ? c->s[c->at] : '\0';
          if (!is_digit(h) && !(h >= 'a' && h <= 'f') && !(h >= 'A' && h <= 'F')) return 0;
        }
      }
    }
  }
  return 0;
}

static int value(cursor *c, int depth);

/* An object or array after its opening bracket, up to and past its closing one. */
static int members(cursor *c, int depth, char close, int keyed) {
  skip_space(c);
  if (c->at < c->n && c->s[c->at] == close) {
    c->at++;
    return 1;
  }
  for (;;) {
    skip_space(c);
    if (keyed) {
      if (!string(c)) return 0;
      skip_space(c);
      if (c->at >= c->n || c->s[c->at] != ':') return 0;
      c->at++;
    }
    if (!value(c, depth + 1)) return 0;
    skip_space(c);
    if (c->at >= c->n) return 0;
    if (c->s[c->at] == close) {
      c->at++;
      return 1;
    }
    if (c->s[c->at] != ',') return 0;
    c->at++;
  }
}

static int value(cursor *c, int depth) {
  char ch;
  if (depth > GS_JSON_DEPTH) {
    c->too_deep = 1;
    return 0;
  }
  skip_space(c);
  if (c->at >= c->n) return 0;
  ch = c->s[c->at];
  if (ch == '{' || ch == '[') {
    c->at++;
    return members(c, depth, ch == '{' ? '}' : ']', ch == '{');
  }
  if (ch == '"') return string(c);
  if (ch == 't') return literal(c, "true");
  if (ch == 'f') return literal(c, "false");
  if (ch == 'n') return literal(c, "null");
  /* Python's json module writes float('nan') and float('inf') as NaN, Infinity and
   * -Infinity (json.dumps, allow_nan=True by default), and configs saved by transformers
   * hold them (NVIDIA's nemotron_h). They are read as numbers, so a config is counted or
   * refused by what it is; number_token refuses one in a key a family uses, by name. */
  if (ch == 'N') return literal(c, "NaN");
  if (ch == 'I') return literal(c, "Infinity");
  if (ch == '-' && c->at + 1 < c->n && c->s[c->at + 1] == 'I') {
    c->at++;
    return literal(c, "Infinity");
  }
  return number(c);
}

/* Parses one JSON document whose top level must be an object. */
int gs_json_parse(const char *text, size_t len, jsmntok_t *toks, unsigned cap, gs_json *out, gs_error *err) {
  jsmn_parser p;
  int count;
  size_t bad, bom = 0;
  cursor c;
  if (len > GS_JSON_MAX_BYTES)
    return gs_fail(err, GS_ERR_TOO_LONG, "", "is larger than %u bytes, more than the reader takes", (unsigned)GS_JSON_MAX_BYTES);
  /* RFC 8259 section 8.1 lets a parser ignore a byte-order mark, and editors on Windows
   * write one; offsets in messages still count from the file's first byte. */
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) bom = 3;
  if ((bad = gs_utf8_invalid_at(text, len)) < len)
    return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: not UTF-8 at byte %zu", bad);
  text += bom;
  len -= bom;
  c.s = text;
  c.n = len;
  c.at = 0;
  c.too_deep = 0;
  skip_space(&c);
  if (c.at == len) return gs_fail(err, GS_ERR_JSON, "", "is not JSON: it holds no value");
  if (!value(&c, 0)) {
    if (c.too_deep) return gs_fail(err, GS_ERR_TOO_LONG, "", "nests deeper than %d levels, more than the reader takes", GS_JSON_DEPTH);
    if (c.at >= len) return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: it ends too early");
    return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: unexpected character at byte %zu", c.at + bom);
  }
  skip_space(&c);
  if (c.at != len) return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: text follows the value at byte %zu", c.at + bom);
  c.at = 0;
  skip_space(&c);
  if (text[c.at] != '{') {
    const char ch = text[c.at];
    return gs_fail(err, GS_ERR_NOT_OBJECT, "", "must hold a JSON object, not %s",
                   ch == '[' ? "an array" : ch == '"' ? "a string" : ch == 't' || ch == 'f' ? "a boolean" : ch == 'n' ? "null" : "a number");
  }
  jsmn_init(&p);
  count = jsmn_parse(&p, text, len, toks, cap);
  if (count == JSMN_ERROR_NOMEM)
    return gs_fail(err, GS_ERR_TOO_LONG, "", "has more than %u JSON tokens", cap);
  if (count == JSMN_ERROR_PART) return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: it ends too early");
  if (count < 0) return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: unexpected character at byte %zu", (size_t)p.pos + bom);
  if (count < 1 || toks[0].type != JSMN_OBJECT) return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON");
  out->text = text;
  out->toks = toks;
  out->count = count;
  return GS_OK;
}

/* The index of the token after the value at index, skipping its children. */
int gs_json_next(const gs_json *j, int index) {
  int pending = 1;
  while (pending > 0 && index < j->count) {
    const jsmntok_t *t = &j->toks[index++];
    pending--;
    if (t->type == JSMN_OBJECT) pending += 2 * t->size;
    else if (t->type == JSMN_ARRAY) pending += t->size;
  }
  return index;
}

static unsigned hex_value(char h) {
  return (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
}

/* The code point of the \uXXXX escape at s (grammar already checked). */
static unsigned hex4(const char *s) {
  return hex_value(s[0]) << 12 | hex_value(s[1]) << 8 | hex_value(s[2]) << 4 | hex_value(s[3]);
}

/* Appends code point u as UTF-8 (a lone surrogate as U+FFFD, as most readers do). */
static size_t put_utf8(unsigned u, char *out) {
  if (u >= 0xD800 && u <= 0xDFFF) u = 0xFFFD;
  if (u < 0x80) {
    out[0] = (char)u;
    return 1;
  }
  if (u < 0x800) {
    out[0] = (char)(0xC0 | u >> 6);
    out[1] = (char)(0x80 | (u & 0x3F));
    return 2;
  }
  if (u < 0x10000) {
    out[0] = (char)(0xE0 | u >> 12);
    out[1] = (char)(0x80 | (u >> 6 & 0x3F));
    out[2] = (char)(0x80 | (u & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | u >> 18);
  out[1] = (char)(0x80 | (u >> 12 & 0x3F));
  out[2] = (char)(0x80 | (u >> 6 & 0x3F));
  out[3] = (char)(0x80 | (u & 0x3F));
  return 4;
}

/* A string token's value with its escapes decoded (RFC 8259 section 7), into buf; its
 * length, or (size_t)-1 when it needs more than cap - 1 bytes. Keys and values are
 * compared decoded, so "hidden\u005fsize" is hidden_size as every JSON reader sees it. */
size_t gs_json_string(const gs_json *j, int index, char *buf, size_t cap) {
  const jsmntok_t *t = &j->toks[index];
  const char *s = j->text + t->start, *end = j->text + t->end;
  size_t o = 0;
  while (s < end) {
    char piece[8];
    size_t n = 1;
    if (*s != '\\') piece[0] = *s++;
    else if (s[1] != 'u') {
      static const char FROM[] = "\"\\/bfnrt", TO[] = "\"\\/\b\f\n\r\t";
      piece[0] = TO[strchr(FROM, s[1]) - FROM];
      s += 2;
    } else {
      unsigned u = hex4(s + 2);
      s += 6;
      if (u >= 0xD800 && u <= 0xDBFF && end - s >= 6 && s[0] == '\\' && s[1] == 'u') {
        unsigned low = hex4(s + 2);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
          s += 6;
        }
      }
      n = put_utf8(u, piece);
    }
    if (o + n >= cap) return (size_t)-1;
    memcpy(buf + o, piece, n);
    o += n;
  }
  if (cap > 0) buf[o] = '\0';
  return o;
}

int gs_json_string_is(const gs_json *j, int index, const char *s) {
  char decoded[GS_JSON_NAME_CAP];
  size_t n;
  if (j->toks[index].type != JSMN_STRING) return 0;
  n = gs_json_string(j, index, decoded, sizeof decoded);
  return n != (size_t)-1 && strlen(s) == n && memcmp(decoded, s, n) == 0;
}

/* The value of key in the object at index object, or -1. As in Python's json module,
 * the last of repeated keys wins. */
int gs_json_find(const gs_json *j, int object, const char *key) {
  int i = object + 1, k, found = -1;
  if (object < 0) return -1; /* a sub-config the document leaves out: no keys (families/gemma.c) */
  for (k = 0; k < j->toks[object].size && i + 1 < j->count; k++) {
    if (gs_json_string_is(j, i, key)) found = i + 1;
    i = gs_json_next(j, i + 1);
  }
  return found;
}

int gs_json_is_null(const gs_json *j, int index) {
  const jsmntok_t *t = &j->toks[index];
  return t->type == JSMN_PRIMITIVE && j->text[t->start] == 'n';
}

/* The text of a number token, in a bounded copy (the document is not NUL-terminated
 * after the token). gs_json_parse has checked its grammar already. */
static int number_token(const gs_json *j, int index, const char *field, char *raw, size_t raw_cap, gs_error *err) {
  const jsmntok_t *t = &j->toks[index];
  size_t n = (size_t)(t->end - t->start);
  if (t->type != JSMN_PRIMITIVE || j->text[t->start] == 't' || j->text[t->start] == 'f' || j->text[t->start] == 'n')
    return gs_fail(err, GS_ERR_TYPE, field, "must be a number, not %s", type_name(t, j->text));
  if (j->text[t->start] == 'N' || j->text[t->start] == 'I' || j->text[t->start + (n > 1)] == 'I')
    return gs_fail(err, GS_ERR_RANGE, field, "is %s, not a number the reader can use",
                   j->text[t->start] == 'N' ? "NaN" : j->text[t->start] == '-' ? "-Infinity" : "Infinity");
  if (n >= raw_cap) return gs_fail(err, GS_ERR_RANGE, field, "is a number too long to read");
  memcpy(raw, j->text + t->start, n);
  raw[n] = '\0';
  return GS_OK;
}

int gs_json_number(const gs_json *j, int index, const char *field, double *out, gs_error *err) {
  char raw[64];
  int rc = number_token(j, index, field, raw, sizeof raw, err);
  if (rc != GS_OK) return rc;
  if (!gs_exact_decimal(raw, out))
    return gs_fail(err, GS_ERR_RANGE, field, "%s has more than 15 significant digits or a power of ten beyond 22", raw);
  return GS_OK;
}

/* Any number JSON's grammar allows, read whole by the one number reader (gs_read_number):
 * for what the program wrote itself (fit --json's errors, which may be 9.7e-09, past the
 * exact case that gs_json_number keeps for configs), read back natively; a build for
 * WebAssembly refuses past the exact case as gs_json_number does. */
int gs_json_any_number(const gs_json *j, int index, const char *field, double *out, gs_error *err) {
  char raw[64];
  int rc = number_token(j, index, field, raw, sizeof raw, err);
  if (rc != GS_OK) return rc;
  switch (gs_read_number(raw, out)) {
  case GS_NUMBER_OK: return GS_OK;
  case GS_NUMBER_TOO_LARGE: return gs_fail(err, GS_ERR_RANGE, field, "%s is past the largest number a double holds", raw);
  case GS_NUMBER_TOO_SMALL: return gs_fail(err, GS_ERR_RANGE, field, "%s is below the smallest normal double", raw);
  case GS_NUMBER_TOO_PRECISE: return gs_fail(err, GS_ERR_RANGE, field, "%s has more than 15 significant digits or a power of ten beyond 22", raw);
  default: return gs_fail(err, GS_ERR_TYPE, field, "%s is not a number", raw);
  }
}

/* A count: a whole number of at least 1, written as digits alone. 4096.0 and 4.096e3
 * are refused rather than rounded, since a fraction may hide past a double's precision;
 * the digits are read exactly, up to 2^53 so that every count is exact in a double. */
int gs_json_whole(const gs_json *j, int index, const char *field, uint64_t min, uint64_t *out, gs_error *err) {
  char raw[64];
  uint64_t value = 0;
  size_t i;
  int rc = number_token(j, index, field, raw, sizeof raw, err);
  if (rc != GS_OK) return rc;
  if (raw[0] == '-') return gs_fail(err, GS_ERR_RANGE, field, "must be a whole number of at least %llu, not %s", (unsigned long long)min, raw);
  for (i = 0; raw[i] >= '0' && raw[i] <= '9'; i++) {
    value = value * 10 + (uint64_t)(raw[i] - '0');
    if (value > (UINT64_C(1) << 53)) return gs_fail(err, GS_ERR_RANGE, field, "is too large: %s (at most 2^53)", raw);
  }
  if (raw[i] != '\0') return gs_fail(err, GS_ERR_RANGE, field, "must be a whole number written as digits alone, not %s", raw);
  if (value < min) return gs_fail(err, GS_ERR_RANGE, field, "must be at least %llu, not %s", (unsigned long long)min, raw);
  *out = value;
  return GS_OK;
}

int gs_json_count(const gs_json *j, int index, const char *field, uint64_t *out, gs_error *err) {
  return gs_json_whole(j, index, field, 1, out, err);
}

int gs_json_bool(const gs_json *j, int index, const char *field, int *out, gs_error *err) {
  const jsmntok_t *t = &j->toks[index];
  char c = j->text[t->start];
  if (t->type != JSMN_PRIMITIVE || (c != 't' && c != 'f'))
    return gs_fail(err, GS_ERR_TYPE, field, "must be true or false, not %s", type_name(t, j->text));
  *out = c == 't';
  return GS_OK;
}
