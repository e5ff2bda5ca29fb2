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
