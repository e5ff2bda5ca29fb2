/* Helpers shared by the library's files; not part of the public API. */
#ifndef GPUSPLIT_INTERNAL_H
#define GPUSPLIT_INTERNAL_H

#include "gpusplit.h"

/* jsmn (zserge/jsmn, Debian's libjsmn-dev): json.c holds its code, the other files
 * see its token type only. */
#ifndef JSMN_STATIC
#define JSMN_HEADER
#endif
#include <jsmn.h>

/* Fills err (if not NULL) and returns code. */
int gs_fail(gs_error *err, int code, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* snprintf for messages: %s, %d, %u, %llu, %zu and %% only (csrc/error.c). */
int gs_format(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* a * b and a + b, or 0 when the result would not fit in 64 bits. */
int gs_mul(uint64_t a, uint64_t b, uint64_t *out);
int gs_add(uint64_t a, uint64_t b, uint64_t *out);

/* A parsed JSON document: the text and jsmn's tokens over it. */
typedef struct {
  const char *text;
  const jsmntok_t *toks;
  int count; /* tokens used */
} gs_json;

/* The most tokens one document may have; a Llama config.json has under 100. */
#define GS_JSON_TOKENS 1024

int gs_json_parse(const char *text, size_t len, jsmntok_t *toks, unsigned cap, gs_json *out, gs_error *err);
int gs_json_find(const gs_json *j, int object, const char *key);
int gs_json_next(const gs_json *j, int index);
int gs_json_is_null(const gs_json *j, int index);
int gs_json_count(const gs_json *j, int index, const char *field, uint64_t *out, gs_error *err);
int gs_json_number(const gs_json *j, int index, const char *field, double *out, gs_error *err);
int gs_json_bool(const gs_json *j, int index, const char *field, int *out, gs_error *err);
int gs_json_string_is(const gs_json *j, int index, const char *s);

#endif
