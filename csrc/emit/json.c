/* The library's one JSON writer for figures (json.h): the lists of csrc/core/fields.h, each
 * figure under its path, objects opened and closed as the paths' first parts change; used
 * by report's, fixture's and fit's JSON. Native only (json.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/fields.h"
#include "emit/json.h"

/* 17 significant digits: enough for any double to read back as itself. */
char *gs_exact(char *buf, size_t cap, double x) {
  snprintf(buf, cap, "%.17g", x);
  return buf;
}

/* 15 significant digits, trailing zeros dropped: a constant as a person wrote it (0.6,
 * 6.6, 80), for labels; figures the lesson quotes go through gs_fixed. */
char *gs_plain(char *buf, size_t cap, double x) {
  if (x == 0) x = 0; /* -0 (--step-us -0) prints as 0, as toFixed prints it */
  snprintf(buf, cap, "%.15g", x);
  return buf;
}

void gs_out_text(const gs_out *o, const char *s) { o->put(o->to, s, strlen(s)); }

void gs_out_format(const gs_out *o, const char *fmt, ...) {
  char buf[GS_OUT_FORMAT_CAP];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  o->put(o->to, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void gs_out_json_text(const gs_out *o, const char *s) {
  size_t len = strlen(s), at = 0;
  char piece[GS_ESCAPE_CAP];
  while (at < len) {
    at += gs_escape_next(s + at, len - at, GS_ESCAPE_JSON, piece);
    gs_out_text(o, piece);
  }
}

void gs_out_json_string(const gs_out *o, const char *s) {
  o->put(o->to, "\"", 1);
  gs_out_json_text(o, s);
  o->put(o->to, "\"", 1);
}

void gs_out_double(const gs_out *o, double x) {
  char buf[40];
  gs_out_text(o, gs_exact(buf, sizeof buf, x));
}

/* Tracks the object ("memory" of "memory.total") the members so far stand in. */
typedef struct {
  const gs_out *o;
  int style;
  int first;      /* no member written yet at the current level */
  char group[32]; /* the open object's name; "" at the top */
} writer;

/* Opens, closes or keeps the object of path, and writes its member's key. */
static void key(writer *w, const char *path) {
  const char *dot = strchr(path, '.');
  size_t glen = dot ? (size_t)(dot - path) : 0;
  if (w->group[0] && (glen != strlen(w->group) || strncmp(path, w->group, glen) != 0)) {
    gs_out_text(w->o, "}");
    w->group[0] = '\0';
    w->first = 0;
  }
  if (glen && !w->group[0]) {
    gs_out_format(w->o, "%s\"%.*s\":{", w->first ? "" : ",", (int)glen, path);
    snprintf(w->group, sizeof w->group, "%.*s", (int)glen, path);
    w->first = 1;
  }
  gs_out_format(w->o, "%s\"%s\":", w->first ? "" : ",", dot ? dot + 1 : path);
  w->first = 0;
}

static void end(writer *w) {
  if (w->group[0]) gs_out_text(w->o, "}");
}

static void put_u64(writer *w, const char *path, uint64_t x) {
  key(w, path);
  gs_out_format(w->o, w->style == GS_OUT_STRINGS ? "\"%llu\"" : "%llu", (unsigned long long)x);
}
static void put_count(writer *w, const char *path, uint64_t x) {
  key(w, path);
  gs_out_format(w->o, "%llu", (unsigned long long)x);
}
static void put_bool(writer *w, const char *path, int x) {
  key(w, path);
  gs_out_text(w->o, x ? "true" : "false");
}
static void put_f64(writer *w, const char *path, double x) {
  key(w, path);
  gs_out_double(w->o, x);
}
static void put_opt(writer *w, const char *path, double x) {
  key(w, path);
  if (x < 0) gs_out_text(w->o, "null");
  else gs_out_double(w->o, x);
}
static void put_text(writer *w, const char *path, const char *s) {
  key(w, path);
  gs_out_json_string(w->o, s);
}
static void put_name(writer *w, const char *path, const char *s) {
  key(w, path);
  if (s[0]) gs_out_json_string(w->o, s);
  else gs_out_text(w->o, "null");
}

#define PUT_U64(w, path, e) put_u64(w, path, (uint64_t)(e))
#define PUT_COUNT(w, path, e) put_count(w, path, (uint64_t)(e))
#define PUT_BOOL(w, path, e) put_bool(w, path, (e) != 0)
#define PUT_F64(w, path, e) put_f64(w, path, (e))
#define PUT_OPT(w, path, e) put_opt(w, path, (e))
#define PUT_TEXT(w, path, e) put_text(w, path, (e))
#define PUT_NAME(w, path, e) put_name(w, path, (e))
#define PUT(kind, id, path, expr) PUT_##kind(&w, path, expr);

void gs_out_setting(const gs_out *o, const gs_priced *r, int style) {
  writer w = {o, style, 1, ""};
  GS_SETTING_FIELDS(PUT)
  end(&w);
}

void gs_out_chart(const gs_out *o, const gs_chart_row *rows, size_t n) {
  size_t i;
  gs_out_text(o, "[");
  for (i = 0; i < n; i++) {
    const gs_chart_row *r = &rows[i];
    writer w = {o, GS_OUT_NUMBERS, 1, ""};
    gs_out_text(o, i ? ",{" : "{");
    GS_CHART_FIELDS(PUT)
    end(&w);
    gs_out_text(o, "}");
  }
  gs_out_text(o, "]");
}

void gs_out_timeline(const gs_out *o, const gs_timeline_row *rows, size_t n) {
  size_t i;
  gs_out_text(o, "[");
  for (i = 0; i < n; i++) {
    const gs_timeline_row *r = &rows[i];
    writer w = {o, GS_OUT_NUMBERS, 1, ""};
    gs_out_text(o, i ? ",{" : "{");
    GS_TIMELINE_FIELDS(PUT)
    end(&w);
    gs_out_text(o, "}");
  }
  gs_out_text(o, "]");
}

/* report's members before its rows: the header lists, the achieved efficiency (all 0:
 * off, the peaks) under the words of where it comes from (efficiency_from, "" for none),
 * then the prompt. */
void gs_out_report_head(const gs_out *o, const gs_setting *r, const gs_sweep *f, const char *efficiency_from) {
  writer w = {o, GS_OUT_NUMBERS, 1, ""};
  const gs_efficiency *e = &r->plan.efficiency;
  GS_REPORT_HEAD_FIELDS(PUT)
  put_name(&w, "efficiency.from", efficiency_from);
#define EFFICIENCY(member, kind, flag) put_f64(&w, "efficiency." #member, e->member);
  GS_EFFICIENCY_FIELDS(EFFICIENCY)
#undef EFFICIENCY
  GS_REPORT_TAIL_FIELDS(PUT)
  end(&w);
}
