/* UTF-8 checks (RFC 3629, section 4's byte sequences): configs must be UTF-8 (RFC 8259,
 * section 8.1), and whatever the library quotes back in a message must stay valid when
 * a message is cut to fit its buffer. */
#include "internal.h"

size_t gs_utf8_sequence(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  unsigned char c = s[0], lo = 0x80, hi = 0xBF;
  size_t n, i;
  if (len == 0) return 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;      /* no overlong forms */
    else if (c == 0xED) hi = 0x9F; /* no surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    else if (c == 0xF4) hi = 0x8F; /* nothing above U+10FFFF */
  } else return 0;
  if (len < n) return 0;
  for (i = 1; i < n; i++) {
    unsigned char b = s[i];
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) return 0;
  }
  return n;
}

size_t gs_utf8_invalid_at(const char *text, size_t len) {
  size_t at = 0;
  while (at < len) {
    size_t n = gs_utf8_sequence(text + at, len - at);
    if (n == 0) return at;
    at += n;
  }
  return len;
}

size_t gs_utf8_whole(const char *text, size_t len) {
  size_t at = 0;
  while (at < len) {
    size_t n = gs_utf8_sequence(text + at, len - at);
    if (n == 0) {
      /* a sequence the cut left open at the end is dropped; any other bad byte stays */
      if (len - at < 4 && (unsigned char)text[at] >= 0xC2) return at;
      n = 1;
    }
    at += n;
  }
  return len;
}

/* The code point of a valid sequence of n bytes. */
static uint32_t code_point(const unsigned char *s, size_t n) {
  if (n == 1) return s[0];
  if (n == 2) return (uint32_t)(s[0] & 0x1F) << 6 | (uint32_t)(s[1] & 0x3F);
  if (n == 3) return (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (uint32_t)(s[2] & 0x3F);
  return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 | (uint32_t)(s[2] & 0x3F) << 6 | (uint32_t)(s[3] & 0x3F);
}

/* Characters that change how the text around them is shown rather than being shown:
 * C0 controls and DEL (ESC starts a terminal's escape sequences), C1 controls (U+0080 to
 * U+009F; U+009B is a one-character CSI), the line and paragraph separators U+2028 and
 * U+2029 (a line break in a page's text), and the bidirectional embeddings, overrides and
 * isolates U+202A to U+202E and U+2066 to U+2069 (Unicode's UAX #9), which can make text
 * read in another order than it is stored (CVE-2021-42574, "Trojan Source"). */
static int hidden_effect(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

static void hex_escape(char *out, const char *prefix, uint32_t x, int digits) {
  static const char HEX[] = "0123456789abcdef";
  size_t at = 0;
  int i;
  while (*prefix) out[at++] = *prefix++;
  for (i = digits - 1; i >= 0; i--) out[at++] = HEX[(x >> (4 * i)) & 0xF];
  out[at] = '\0';
}

size_t gs_escape_next(const char *text, size_t len, int style, char *out) {
  size_t n = gs_utf8_sequence(text, len), i;
  uint32_t cp;
  if (n == 0) { /* a byte that is not UTF-8: JSON must be UTF-8 (RFC 8259, 8.1), so U+FFFD there */
    if (style == GS_ESCAPE_JSON) hex_escape(out, "\\u", 0xFFFD, 4);
    else hex_escape(out, "\\x", (unsigned char)text[0], 2);
    return 1;
  }
  cp = code_point((const unsigned char *)text, n);
  if (hidden_effect(cp)) {
    if (cp < 0x80) hex_escape(out, style == GS_ESCAPE_JSON ? "\\u00" : "\\x", cp, 2);
    else hex_escape(out, "\\u", cp, 4);
  } else if (style == GS_ESCAPE_JSON && (cp == '"' || cp == '\\')) {
    out[0] = '\\';
    out[1] = (char)cp;
    out[2] = '\0';
  } else {
    for (i = 0; i < n; i++) out[i] = text[i];
    out[n] = '\0';
  }
  return n;
}

size_t gs_escape(char *buf, size_t cap, const char *text, size_t len, int style) {
  size_t at = 0, from = 0;
  if (cap == 0) return 0;
  while (from < len) {
    char piece[GS_ESCAPE_CAP];
    size_t n = gs_escape_next(text + from, len - from, style, piece), k = 0;
    while (piece[k]) k++;
    if (at + k + 1 > cap) break; /* cut between whole pieces only */
    for (k = 0; piece[k]; k++) buf[at++] = piece[k];
    from += n;
  }
  buf[at] = '\0';
  return at;
}
