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
/* Where each kind's next figure of a list goes: GS_ABI_PACK(kind, id, path, expr) writes one
 * figure of a list of csrc/core/fields.h (with `r` the record and `pk` a pointer to the packer in scope);
 * a string that does not fit sets full. */
typedef struct {
  uint64_t *u64;
  double *f64;
  char *text;
  size_t text_cap, nu, nf, at;
  int full;
} gs_abi_packer;
void gs_abi_pack_text(gs_abi_packer *p, const char *s);
#define GS_ABI_PACK_U64(p, e) (p)->u64[(p)->nu++] = (uint64_t)(e)
#define GS_ABI_PACK_COUNT(p, e) (p)->f64[(p)->nf++] = (double)(e)
#define GS_ABI_PACK_BOOL(p, e) (p)->f64[(p)->nf++] = (e) ? 1 : 0
#define GS_ABI_PACK_F64(p, e) (p)->f64[(p)->nf++] = (e)
#define GS_ABI_PACK_OPT(p, e) (p)->f64[(p)->nf++] = (e)
#define GS_ABI_PACK_TEXT(p, e) gs_abi_pack_text(p, (e))
#define GS_ABI_PACK_NAME(p, e) gs_abi_pack_text(p, (e))
#define GS_ABI_PACK(kind, id, path, expr) GS_ABI_PACK_##kind(pk, expr);

/* The small numbers a call gives beside its figures (the fewest count, a sweep's best). */
void gs_abi_summary(size_t i, double x);

#endif
