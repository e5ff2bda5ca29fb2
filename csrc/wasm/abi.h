/* What both modules (lesson.c for the widget, explorer.c for the explorer) hand to
 * JavaScript: the figures csrc/core/fields.h lists, in three static buffers per list (64-bit
 * integers, doubles, NUL-ended strings), which web/src/fields.js names; the sums; and one
 * line of error. No Emscripten glue, no imports. */
#ifndef GPUSPLIT_ABI_H
#define GPUSPLIT_ABI_H

#include "internal.h"
#include "core/fields.h"

#define EXPORT __attribute__((used, visibility("default")))

/* The most chart rows and timeline GPUs a module hands over. */
#define GS_ABI_ROWS 64

/* The doubles summary_f64() holds: room for the longest of GS_SHOWN_FIELDS, GS_SWEPT_FIELDS
 * and the frontier's. */
#define GS_ABI_SUMMARY 8

/* What the calls of GS_SHOWN_FIELDS, GS_SWEPT_FIELDS, GS_CHARTED_FIELDS and GS_RULES_RECORD
 * (csrc/core/fields.h) hand over, and what GS_MACHINE_FIELDS hands in. */
typedef struct {
  const gs_setting *setting; /* as show() resolved it */
  const gs_sweep *found;     /* its searches up to the setting's max_n */
  uint64_t chart_rows;
  int busy;
} gs_abi_shown;
typedef struct {
  uint64_t count, fewest, best;
} gs_abi_swept;
typedef struct {
  const gs_plan_result *found;
  const gs_plan_chart *chart;
  double chosen; /* -1: none */
  int targeted;
  uint64_t fewest;
} gs_abi_charted;
typedef struct {
  const gs_setting *setting; /* as plan() resolved it */
  const char *engine;        /* the engine whose fitted figures price; "" none named */
} gs_abi_rules;
typedef struct {
  double per_server, chat_tokens, cache_bits, switches, between_bandwidth, between_step_us, between_kind, link_kind, arch;
} gs_abi_machine;

/* Where each kind's next figure of a record goes (csrc/wasm/abi.c packs them). */
typedef struct {
  uint64_t *u64;
  double *f64;
  char *text;
  size_t text_cap, nu, nf, at;
  int full; /* a string did not fit */
} gs_abi_packer;
void gs_abi_pack_text(gs_abi_packer *p, const char *s);
/* GS_OK, or after a string that did not fit, an error naming the record. */
int gs_abi_packed(const gs_abi_packer *p, const char *what);
#define GS_ABI_PACK_U64(p, e) (p)->u64[(p)->nu++] = (uint64_t)(e)
#define GS_ABI_PACK_COUNT(p, e) (p)->f64[(p)->nf++] = (double)(e)
#define GS_ABI_PACK_BOOL(p, e) (p)->f64[(p)->nf++] = (e) ? 1 : 0
#define GS_ABI_PACK_F64(p, e) (p)->f64[(p)->nf++] = (e)
#define GS_ABI_PACK_OPT(p, e) (p)->f64[(p)->nf++] = (e)
#define GS_ABI_PACK_TEXT(p, e) gs_abi_pack_text(p, (e))
#define GS_ABI_PACK_NAME(p, e) gs_abi_pack_text(p, (e))
/* GS_ABI_PACK(kind, id, path, expr) writes one figure of a list of csrc/core/fields.h, with
 * `r` the record and `pk` a pointer to the packer in scope. */
#define GS_ABI_PACK(kind, id, path, expr) GS_ABI_PACK_##kind(pk, expr);

/* One record of a list of csrc/core/fields.h, its three buffers and their exports
 * (name_u64, name_f64, name_text, which web/src/module_memory.js finds by the list's name),
 * and put_name(r), which packs the record of r (of type TYPE) into them. */
#define GS_ABI_RECORD(name, LIST, TYPE)                                                                 \
  uint64_t *name##_u64(void);                                                                          \
  double *name##_f64(void);                                                                            \
  char *name##_text(void);                                                                             \
  static uint64_t name##_u64_out[(0 LIST(GS_COUNT_U64)) + 1];                                          \
  static double name##_f64_out[(0 LIST(GS_COUNT_F64)) + 1];                                            \
  static char name##_text_out[(0 LIST(GS_COUNT_TEXT)) * GS_NOTE_CAP + 1];                              \
  EXPORT uint64_t *name##_u64(void) { return name##_u64_out; }                                         \
  EXPORT double *name##_f64(void) { return name##_f64_out; }                                           \
  EXPORT char *name##_text(void) { return name##_text_out; }                                           \
  static int put_##name(TYPE r) {                                                                      \
    gs_abi_packer packer = {name##_u64_out, name##_f64_out, name##_text_out, sizeof name##_text_out, 0, 0, 0, 0}; \
    gs_abi_packer *pk = &packer;                                                                       \
    LIST(GS_ABI_PACK)                                                                                  \
    return gs_abi_packed(pk, #name);                                                                  \
  }

/* A list of doubles alone (COUNT, BOOL, F64, OPT), packed into summary_f64(): r a pointer to
 * its struct. */
#define GS_ABI_PUT_SUMMARY(LIST, r)                                                                    \
  do {                                                                                                 \
    gs_abi_packer packer = {NULL, summary_f64(), NULL, 0, 0, 0, 0, 0}, *pk = &packer;                  \
    _Static_assert((0 LIST(GS_COUNT_F64)) <= GS_ABI_SUMMARY && (0 LIST(GS_COUNT_U64)) == 0 &&          \
                       (0 LIST(GS_COUNT_TEXT)) == 0, "a summary is at most GS_ABI_SUMMARY doubles");  \
    LIST(GS_ABI_PACK)                                                                                  \
  } while (0)

/* The exports of the buffers; only JavaScript calls them. */
uint64_t *setting_u64(void);
double *setting_f64(void);
char *setting_text(void);
double *chart_f64(void);
char *chart_text(void);
double *timeline_f64(void);
char *timeline_text(void);
double *summary_f64(void);
char *explain_buffer(void);
char *error_buffer(void);

/* rc, after writing err (or "status rc" when err is NULL) as the one line error_buffer holds. */
int gs_abi_fail(int rc, const gs_error *err);
/* A priced count's figures, n chart rows, n timeline rows, the sums; each into its buffers. */
int gs_abi_put_setting(const gs_priced *r);
int gs_abi_put_chart(const gs_chart_row *rows, size_t n);
int gs_abi_put_timeline(const gs_timeline_row *rows, size_t n);
int gs_abi_put_explain(const gs_priced *r);
int gs_abi_glue_explain(void);

#endif
