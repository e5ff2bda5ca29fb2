/* The modules' buffers, written from the lists of csrc/core/fields.h in their order, each
 * kind counted on its own; scripts/fields_js.c walks the same lists to give JavaScript each
 * figure's buffer and index, so neither side lists a position by hand. */
#include <string.h>

#include "abi.h"

enum {
  SETTING_U64 = 0 GS_SETTING_FIELDS(GS_COUNT_U64),
  SETTING_F64 = 0 GS_SETTING_FIELDS(GS_COUNT_F64),
  SETTING_TEXT = 0 GS_SETTING_FIELDS(GS_COUNT_TEXT),
  CHART_F64 = 0 GS_CHART_FIELDS(GS_COUNT_F64),
  CHART_TEXT = 0 GS_CHART_FIELDS(GS_COUNT_TEXT),
  TIMELINE_F64 = 0 GS_TIMELINE_FIELDS(GS_COUNT_F64),
  TIMELINE_TEXT = 0 GS_TIMELINE_FIELDS(GS_COUNT_TEXT)
};
/* The chart and the timeline hand over no 64-bit integers: their figures are small. */
_Static_assert((0 GS_CHART_FIELDS(GS_COUNT_U64)) == 0 && (0 GS_TIMELINE_FIELDS(GS_COUNT_U64)) == 0,
               "chart and timeline figures travel as doubles and text");

static uint64_t out_setting_u64[SETTING_U64];
static double out_setting_f64[SETTING_F64];
/* a text is a figure (GS_FIGURE_CAP) or a sentence (GS_NOTE_CAP): room for either */
static char out_setting_text[SETTING_TEXT * GS_NOTE_CAP];
static double out_chart_f64[GS_ABI_ROWS * CHART_F64];
static char out_chart_text[GS_ABI_ROWS * CHART_TEXT * GS_FIGURE_CAP];
static double out_timeline_f64[GS_ABI_ROWS * TIMELINE_F64];
static char out_timeline_text[GS_ABI_ROWS * TIMELINE_TEXT * GS_NOTE_CAP];
static double out_summary[8];
static char explain_text[GS_EXPLAIN_CAP];
static char error_text[640];

EXPORT uint64_t *setting_u64(void) { return out_setting_u64; }
EXPORT double *setting_f64(void) { return out_setting_f64; }
EXPORT char *setting_text(void) { return out_setting_text; }
EXPORT double *chart_f64(void) { return out_chart_f64; }
EXPORT char *chart_text(void) { return out_chart_text; }
EXPORT double *timeline_f64(void) { return out_timeline_f64; }
EXPORT char *timeline_text(void) { return out_timeline_text; }
EXPORT double *summary_f64(void) { return out_summary; }
EXPORT char *explain_buffer(void) { return explain_text; }
EXPORT char *error_buffer(void) { return error_text; }

int gs_abi_fail(int rc, const gs_error *err) {
  if (err) gs_format(error_text, sizeof error_text, "%s%s%s", err->field, err->field[0] ? ": " : "", err->what);
  else gs_format(error_text, sizeof error_text, "status %d", rc);
  return rc;
}

static int too_long(const char *what) {
  gs_error err;
  return gs_abi_fail(gs_fail(&err, GS_ERR_TOO_LONG, what, "does not fit the module's buffer"), &err);
}

void gs_abi_pack_text(gs_abi_packer *p, const char *s) {
  size_t next = gs_pack_text(p->text, p->text_cap, p->at, s);
  if (next == p->at) p->full = 1;
  p->at = next;
}

int gs_abi_put_setting(const gs_priced *r) {
  gs_abi_packer packer = {out_setting_u64, out_setting_f64, out_setting_text, sizeof out_setting_text, 0, 0, 0, 0}, *pk = &packer;
  GS_SETTING_FIELDS(GS_ABI_PACK)
  return pk->full ? too_long("setting") : GS_OK;
}

int gs_abi_put_chart(const gs_chart_row *rows, size_t n) {
  gs_abi_packer packer = {NULL, out_chart_f64, out_chart_text, sizeof out_chart_text, 0, 0, 0, 0}, *pk = &packer;
  size_t i;
  if (n > GS_ABI_ROWS) return too_long("chart");
  for (i = 0; i < n; i++) {
    const gs_chart_row *r = &rows[i];
    GS_CHART_FIELDS(GS_ABI_PACK)
  }
  return pk->full ? too_long("chart") : GS_OK;
}

int gs_abi_put_timeline(const gs_timeline_row *rows, size_t n) {
  gs_abi_packer packer = {NULL, out_timeline_f64, out_timeline_text, sizeof out_timeline_text, 0, 0, 0, 0}, *pk = &packer;
  size_t i;
  if (n > GS_ABI_ROWS) return too_long("timeline");
  for (i = 0; i < n; i++) {
    const gs_timeline_row *r = &rows[i];
    GS_TIMELINE_FIELDS(GS_ABI_PACK)
  }
  return pk->full ? too_long("timeline") : GS_OK;
}

int gs_abi_put_explain(const gs_priced *r) {
  gs_error err;
  int rc = gs_explain_of(r, explain_text, sizeof explain_text, &err);
  return rc == GS_OK ? GS_OK : gs_abi_fail(rc, &err);
}

int gs_abi_glue_explain(void) {
  gs_error err;
  int rc = gs_explain_glue(explain_text, sizeof explain_text, &err);
  return rc == GS_OK ? GS_OK : gs_abi_fail(rc, &err);
}

void gs_abi_summary(size_t i, double x) {
  if (i < sizeof out_summary / sizeof out_summary[0]) out_summary[i] = x;
}
