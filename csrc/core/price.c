/* A resolved setting priced: one count (gs_price), or every count up to the setting's
 * max_n once (gs_sweep_run), with the searches the report and the pages show: the fewest
 * counts that fit, and the count with the shortest step, among all and among those that
 * divide the heads. Each count is priced once; what is shown of it is read from here. */
#include <string.h>

#include "internal.h"

int gs_price(const gs_setting *s, uint64_t n, gs_priced *out, gs_error *err) {
  int rc;
  memset(out, 0, sizeof *out);
  out->setting = s;
  out->plan = s->plan;
  out->plan.gpus = n;
  if ((rc = gs_cost(&s->model, &s->gpu, &s->link, &out->plan, &out->cost, err)) != GS_OK) return rc;
  gs_view_of(&out->cost, &out->view);
  gs_view_plan(out);
  return GS_OK;
}

/* The first count that fits is the fewest; the shortest step is the best, the first on a
 * tie, as Python's min() takes (the lesson's best_gpu_count). The fewest is found from the
 * memory alone, so a count whose time cannot be priced does not hide it. */
int gs_sweep_run(const gs_setting *s, gs_sweep_row *rows, size_t cap, gs_sweep *out, gs_error *err) {
  double best_total = 0, best_heads_total = 0;
  uint64_t n;
  memset(out, 0, sizeof *out);
  if (s->max_n > cap)
    return gs_fail(err, GS_ERR_TOO_LONG, "max_n", "a sweep of %llu counts needs room for them; it has %zu",
                   (unsigned long long)s->max_n, cap);
  for (n = 1; n <= s->max_n; n++) {
    gs_sweep_row *r = &rows[n - 1];
    gs_plan p = s->plan;
    int divides = s->model.heads % n == 0, rc;
    memset(r, 0, sizeof *r);
    r->gpus = n;
    p.gpus = n;
    rc = gs_count_allowed(s, n, err);
    if (rc == GS_ERR_SHAPE) continue;
    if (rc != GS_OK) return rc;
    if ((rc = gs_cost(&s->model, &s->gpu, &s->link, &p, &r->cost, err)) != GS_OK) return rc;
    r->allowed = 1;
    if (!r->cost.fits) continue;
    if (!out->fewest) out->fewest = n;
    if (!out->best || r->cost.time.total < best_total) {
      out->best = n;
      best_total = r->cost.time.total;
    }
    if (divides && (!out->best_dividing_heads || r->cost.time.total < best_heads_total)) {
      out->best_dividing_heads = n;
      best_heads_total = r->cost.time.total;
    }
  }
  out->count = (size_t)s->max_n;
  return GS_OK;
}
