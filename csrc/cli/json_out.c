/* The command line's one JSON writer for figures: the lists of csrc/core/fields.h, each
 * figure under its path, objects opened and closed as the paths' first parts change. */
#include <string.h>

#include "cli.h"

/* Tracks the object ("memory" of "memory.total") the members so far stand in. */
typedef struct {
  FILE *f;
  int style;
  int first;          /* no member written yet at the current level */
  char group[32];     /* the open object's name; "" at the top */
} writer;

/* Opens, closes or keeps the object of path, and writes its member's key. */
static void key(writer *w, const char *path) {
  const char *dot = strchr(path, '.');
  size_t glen = dot ? (size_t)(dot - path) : 0;
  if (w->group[0] && (glen != strlen(w->group) || strncmp(path, w->group, glen) != 0)) {
    fputc('}', w->f);
    w->group[0] = '\0';
    w->first = 0;
  }
  if (glen && !w->group[0]) {
    fprintf(w->f, "%s\"%.*s\":{", w->first ? "" : ",", (int)glen, path);
    snprintf(w->group, sizeof w->group, "%.*s", (int)glen, path);
    w->first = 1;
  }
  fprintf(w->f, "%s\"%s\":", w->first ? "" : ",", dot ? dot + 1 : path);
  w->first = 0;
}

static void end(writer *w) {
  if (w->group[0]) fputc('}', w->f);
}

static void put_u64(writer *w, const char *path, uint64_t x) {
  key(w, path);
  fprintf(w->f, w->style == CLI_JSON_STRINGS ? "\"%llu\"" : "%llu", (unsigned long long)x);
}
static void put_count(writer *w, const char *path, uint64_t x) {
  key(w, path);
  fprintf(w->f, "%llu", (unsigned long long)x);
}
static void put_bool(writer *w, const char *path, int x) {
  key(w, path);
  fputs(x ? "true" : "false", w->f);
}
static void put_f64(writer *w, const char *path, double x) {
  key(w, path);
  cli_json_double(w->f, x);
}
static void put_opt(writer *w, const char *path, double x) {
  key(w, path);
  if (x < 0) fputs("null", w->f);
  else cli_json_double(w->f, x);
}
static void put_text(writer *w, const char *path, const char *s) {
  key(w, path);
  cli_json_string(w->f, s);
}
static void put_name(writer *w, const char *path, const char *s) {
  key(w, path);
  if (s[0]) cli_json_string(w->f, s);
  else fputs("null", w->f);
}

#define PUT_U64(w, path, e) put_u64(w, path, (uint64_t)(e))
#define PUT_COUNT(w, path, e) put_count(w, path, (uint64_t)(e))
#define PUT_BOOL(w, path, e) put_bool(w, path, (e) != 0)
#define PUT_F64(w, path, e) put_f64(w, path, (e))
#define PUT_OPT(w, path, e) put_opt(w, path, (e))
#define PUT_TEXT(w, path, e) put_text(w, path, (e))
#define PUT_NAME(w, path, e) put_name(w, path, (e))
#define PUT(kind, id, path, expr) PUT_##kind(&w, path, expr);

void cli_json_setting(FILE *f, const gs_priced *r, int style) {
  writer w = {f, style, 1, ""};
  GS_SETTING_FIELDS(PUT)
  end(&w);
}

/* report's members before its rows: the header lists, the achieved efficiency (all 0:
 * off, the peaks) under the words of where it comes from (efficiency_from, "" for none),
 * then the prompt. */
void cli_json_report_head(FILE *out, const gs_setting *r, const gs_sweep *f, const char *efficiency_from) {
  writer w = {out, CLI_JSON_NUMBERS, 1, ""};
  const gs_efficiency *e = &r->plan.efficiency;
  GS_REPORT_HEAD_FIELDS(PUT)
  put_name(&w, "efficiency.from", efficiency_from);
#define EFFICIENCY(member, kind, flag) put_f64(&w, "efficiency." #member, e->member);
  GS_EFFICIENCY_FIELDS(EFFICIENCY)
#undef EFFICIENCY
  GS_REPORT_TAIL_FIELDS(PUT)
  end(&w);
}

void cli_json_chart(FILE *f, const gs_chart_row *rows, size_t n) {
  size_t i;
  fputc('[', f);
  for (i = 0; i < n; i++) {
    const gs_chart_row *r = &rows[i];
    writer w = {f, CLI_JSON_NUMBERS, 1, ""};
    fputs(i ? ",{" : "{", f);
    GS_CHART_FIELDS(PUT)
    end(&w);
    fputc('}', f);
  }
  fputc(']', f);
}

void cli_json_timeline(FILE *f, const gs_timeline_row *rows, size_t n) {
  size_t i;
  fputc('[', f);
  for (i = 0; i < n; i++) {
    const gs_timeline_row *r = &rows[i];
    writer w = {f, CLI_JSON_NUMBERS, 1, ""};
    fputs(i ? ",{" : "{", f);
    GS_TIMELINE_FIELDS(PUT)
    end(&w);
    fputc('}', f);
  }
  fputc(']', f);
}
