/* The library's JSON writer (csrc/emit/json.c): the figures csrc/core/fields.h lists, and
 * the strings and numbers around them, written through a sink the caller gives, so that the
 * library does no I/O (the command line's sink writes to a FILE). */
#ifndef GPUSPLIT_EMIT_JSON_H
#define GPUSPLIT_EMIT_JSON_H

#include "internal.h"

/* A double with 17 significant digits, enough to read back as itself (for JSON), and
 * with 15, trailing zeros dropped: a constant as a person wrote it (0.6, 6.6, 80). Both
 * are libc's printf (%.17g, %.15g), which the modules leave out (csrc/core/error.c): this
 * file is linked by the command line only (the Makefile's ARGS). */
char *gs_exact(char *buf, size_t cap, double x);
char *gs_plain(char *buf, size_t cap, double x);

/* Where text goes: put(to, text, len) for each piece, in order. */
typedef struct {
  void (*put)(void *to, const char *text, size_t len);
  void *to;
} gs_out;

/* s as it is; fmt's text (at most GS_OUT_FORMAT_CAP - 1 bytes: keys and numbers). */
#define GS_OUT_FORMAT_CAP 256
void gs_out_text(const gs_out *o, const char *s);
void gs_out_format(const gs_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* s escaped as JSON (a byte that is not UTF-8 becomes U+FFFD: JSON must be UTF-8, RFC
 * 8259 section 8.1), without the quotes (a part of a JSON string), and as a quoted string. */
void gs_out_json_text(const gs_out *o, const char *s);
void gs_out_json_string(const gs_out *o, const char *s);
/* A double with 17 significant digits (gs_exact): it reads back as itself. */
void gs_out_double(const gs_out *o, double x);
/* The members of a JSON object (no braces, no comma before the first) for a priced
 * setting's figures (GS_SETTING_FIELDS): byte counts as numbers, or as strings of digits
 * for JavaScript, whose numbers hold integers exactly only up to 2^53. */
enum { GS_OUT_NUMBERS = 0, GS_OUT_STRINGS = 1 };
void gs_out_setting(const gs_out *o, const gs_priced *r, int style);
/* Arrays of objects: the chart's rows (GS_CHART_FIELDS), the timeline's (GS_TIMELINE_FIELDS). */
void gs_out_chart(const gs_out *o, const gs_chart_row *rows, size_t n);
void gs_out_timeline(const gs_out *o, const gs_timeline_row *rows, size_t n);
/* report's JSON members before its rows (GS_REPORT_HEAD_FIELDS, the efficiency under
 * efficiency_from's words, "" for none, then GS_REPORT_TAIL_FIELDS). */
void gs_out_report_head(const gs_out *o, const gs_setting *r, const gs_sweep *f, const char *efficiency_from);

/* serve_json.c: a distribution's mean, p50, p90 and p99 in ms as a member ",\"key\":{...}";
 * `gpusplit serve --json`'s object for a load (lengths: its lengths' source, "sharegpt" or
 * "file", when it has pairs; serving: the step's assumptions line); a point of the served
 * plan's frontier (gpu_hour 0: no price). */
void gs_out_dist_ms(const gs_out *o, const char *key, const gs_dist *d);
void gs_out_serve(const gs_out *o, const gs_setting *s, const gs_load *l, const char *lengths, const gs_scheduler *e,
                  const gs_serve_result *r, const char *serving);
void gs_out_served_point(const gs_out *o, const gs_served_ask *a, const gs_served_point *pt, double gpu_hour);

/* serve_json.c: a distribution's mean, p50, p90 and p99 in ms as a member ",\"key\":{...}";
 * `gpusplit serve --json`'s object for a load (lengths: its lengths' source, "sharegpt" or
 * "file", when it has pairs; serving: the step's assumptions line); a point of the served
 * plan's frontier (gpu_hour 0: no price). */
void gs_out_dist_ms(const gs_out *o, const char *key, const gs_dist *d);
void gs_out_serve(const gs_out *o, const gs_setting *s, const gs_load *l, const char *lengths, const gs_scheduler *e,
                  const gs_serve_result *r, const char *serving);
void gs_out_served_point(const gs_out *o, const gs_served_ask *a, const gs_served_point *pt, double gpu_hour);

#endif
