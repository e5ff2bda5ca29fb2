/* The checks a GPU, a link, an efficiency and a plan pass before anything is priced: every
 * figure in its range, and every total a step makes within 64 bits; and the rule of which
 * GPU counts a setting may take (gs_count_allowed), which the price and the plan apply. */
#include <math.h>
#include <string.h>

#include "internal.h"


/* isfinite and comparisons only: no libm call that could differ between builds. */
static int positive(double x) { return isfinite(x) && x > 0; }

/* The ranges a hardware figure may take. They are wide (a millionth of today's slowest
 * part to a thousand times its fastest) and they keep every result finite: with them the
 * longest step stays far below GS_MAX_STEP_SECONDS, and no figure is infinite, NaN or
 * wider than GS_FIGURE_CAP. Each bound is written out as the message quotes it. */
typedef struct {
  const char *field, *unit;
  double low, high;
  const char *low_text, *high_text;
  int low_open; /* 1: the low bound itself is refused (a bandwidth of 0) */
} figure_range;

static const figure_range GPU_USABLE = {"gpu usable", "", 0.01, 1, "0.01", "1", 0};
static const figure_range GPU_BANDWIDTH = {"gpu bandwidth", "bytes per second", 1e6, 1e16, "1e6", "1e16", 0};
static const figure_range GPU_FLOPS = {"gpu flops", "operations per second", 1e6, 1e19, "1e6", "1e19", 0};
static const figure_range LINK_BANDWIDTH = {"link bandwidth", "bytes per second", 1e6, 1e16, "1e6", "1e16", 0};
static const figure_range LINK_STEP = {"link step_us", "microseconds", 0, 1e6, "0", "1e6", 0};
static const figure_range LINK_BASE = {"link base_us", "microseconds", 0, 1e6, "0", "1e6", 0};

static int check_range(const figure_range *r, double x, gs_error *err) {
  const char *space = r->unit[0] ? " " : "";
  if (!isfinite(x)) return gs_fail(err, GS_ERR_RANGE, r->field, "must be a finite number%s%s", r->unit[0] ? " of " : "", r->unit);
  if (x <= 0 && r->low > 0) return gs_fail(err, GS_ERR_RANGE, r->field, "must be above 0%s%s", r->unit[0] ? ", in " : "", r->unit);
  if (x < 0) return gs_fail(err, GS_ERR_RANGE, r->field, "must be 0 or more%s%s", r->unit[0] ? " " : "", r->unit);
  if (x < r->low) return gs_fail(err, GS_ERR_RANGE, r->field, "is too small: at least %s%s%s", r->low_text, space, r->unit);
  if (x > r->high) return gs_fail(err, GS_ERR_RANGE, r->field, "is too large: at most %s%s%s", r->high_text, space, r->unit);
  return GS_OK;
}

int gs_gpu_check(const gs_gpu *g, gs_error *err) {
  int rc;
  if (!positive(g->gib)) return gs_fail(err, GS_ERR_RANGE, "gpu gib", "must be a number above 0");
  if (g->usable > 0 && g->usable < GPU_USABLE.low)
    return gs_fail(err, GS_ERR_RANGE, "gpu usable", "is too small: at least 0.01 of the memory");
  if ((rc = check_range(&GPU_USABLE, g->usable, err)) != GS_OK ||
      (rc = check_range(&GPU_BANDWIDTH, g->bandwidth, err)) != GS_OK || (rc = check_range(&GPU_FLOPS, g->flops, err)) != GS_OK)
    return rc;
  if (!(g->gib * (double)GS_GIB * g->usable < 18446744073709551616.0))
    return gs_fail(err, GS_ERR_OVERFLOW, "gpu gib", "the usable bytes would overflow 64 bits");
  if (gs_usable_bytes(g) < 1) return gs_fail(err, GS_ERR_RANGE, "gpu gib", "is too small: it leaves less than one usable byte");
  if (g->arch < GS_ARCH_NONE || g->arch > GS_ARCH_BLACKWELL) return gs_fail(err, GS_ERR_RANGE, "gpu arch", "is not a GPU generation NCCL knows");
  return GS_OK;
}

int gs_link_check(const gs_link *l, gs_error *err) {
  int rc;
  if (l->kind < GS_LINK_NVLINK || l->kind > GS_LINK_NET) return gs_fail(err, GS_ERR_RANGE, "link kind", "must be nvlink, pci or net");
  if ((rc = check_range(&LINK_BANDWIDTH, l->bandwidth, err)) != GS_OK || (rc = check_range(&LINK_STEP, l->step_us, err)) != GS_OK ||
      (rc = check_range(&LINK_BASE, l->base_us, err)) != GS_OK)
    return rc;
  return GS_OK;
}

static int share_check(const char *field, double x, gs_error *err) {
  if (!isfinite(x) || x < 0 || x > 1 || (x > 0 && x < 0.01))
    return gs_fail(err, GS_ERR_RANGE, field, "must be 0 (off) or a share from 0.01 to 1");
  return GS_OK;
}

/* Every figure 0 is off; each other is a share from 0.01 to 1 or a fixed cost of at most a
 * second (GS_EFFICIENCY_FIELDS). */
int gs_efficiency_check(const gs_efficiency *e, gs_error *err) {
  int rc;
  /* kind is a constant: each figure compiles to one call, as if written out */
#define CHECK_FIGURE(member, kind, flag)                                                                 \
  {                                                                                                      \
    static const figure_range range = {#member, "microseconds", 0, 1e6, "0", "1e6", 0};                  \
    if ((rc = kind == GS_EFF_SHARE ? share_check(#member, e->member, err) : check_range(&range, e->member, err)) != GS_OK) \
      return rc;                                                                                         \
  }
  GS_EFFICIENCY_FIELDS(CHECK_FIGURE)
#undef CHECK_FIGURE
  return GS_OK;
}

/* The groups of layers the plan's GPUs make: each GPU one under groups, each server one
 * under slices-groups, none under slices. */
static uint64_t plan_groups(const gs_plan *p) {
  if (p->split == GS_GROUPS) return p->gpus;
  if (p->split == GS_SLICES_GROUPS) return gs_plan_servers(p);
  return 0;
}



/* 1 when one chat's cache at the plan's tokens fits in 64 bits at 32 bits a number. */
static int cache_fits(const gs_model *m, const gs_plan *p) {
  uint64_t tokens = gs_plan_tokens(p), kept = m->window < tokens ? m->window : tokens, a, b, sum;
  return gs_mul(m->cache_full_bytes, tokens, &a) && gs_mul(m->cache_window_bytes, kept, &b) && gs_add(a, b, &sum) &&
         gs_mul(sum, 2, &sum);
}


/* 1 when what one GPU holds and reads fits in 64 bits for every count: each is largest
 * on one GPU, with the whole of the weights and the caches (parts of 1). */
static int totals_fit(const gs_model *m, const gs_plan *p) {
  uint64_t chat = gs_plan_cache_bytes(m, p), held, total, read;
  return gs_mul(chat, gs_held_chats(p), &held) && gs_add(m->stored_bytes, held, &total) && gs_add(total, gs_working_bytes(m), &total) &&
         gs_mul(chat, p->words, &read) && gs_add(m->stored_bytes, read, &read);
}

/* Words at once multiply the message, the operations and (per chat) the cache; each must
 * stay within 64 bits, as must the bytes one step reads (the model's own totals were
 * checked when derived). Servers must hold whole groups under slices-groups. */
int gs_plan_check(const gs_model *m, const gs_plan *p, gs_error *err) {
  uint64_t product, servers;
  int rc;
  if (p->gpus < 1 || p->gpus > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "gpus", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (p->split != GS_SLICES && p->split != GS_GROUPS && p->split != GS_SLICES_GROUPS)
    return gs_fail(err, GS_ERR_SPLIT, "split", "must be slices, groups or slices-groups");
  if (p->words < 1 || p->words > GS_MAX_WORDS)
    return gs_fail(err, GS_ERR_RANGE, "words", "must be a whole number from 1 to %llu", (unsigned long long)GS_MAX_WORDS);
  if (p->per_server > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "per_server", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (p->chat_tokens > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "chat_tokens", "must be from 1 to %llu", (unsigned long long)GS_MAX_CHAT_TOKENS);
  if (p->cache_bits > 32) return gs_fail(err, GS_ERR_RANGE, "cache_bits", "must be from 1 to 32");
  if (p->nccl != GS_NCCL_LESSON && p->nccl != GS_NCCL_AUTO) return gs_fail(err, GS_ERR_RANGE, "nccl", "must be lesson or auto");
#ifdef GS_LESSON_ONLY
  if (p->nccl == GS_NCCL_AUTO) return gs_fail(err, GS_ERR_UNSUPPORTED, "nccl", "auto is not in the lesson's module (build/gpusplit.wasm has it)");
#endif
  if ((rc = gs_efficiency_check(&p->efficiency, err)) != GS_OK) return rc;
  if (p->prompt_tokens > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "prompt_tokens", "must be from 1 to %llu", (unsigned long long)GS_MAX_CHAT_TOKENS);
  if (p->prompt_tokens && (!gs_mul(p->prompt_tokens, p->words, &product) || !gs_mul(gs_message_bytes(m), product, &product)))
    return gs_fail(err, GS_ERR_OVERFLOW, "prompt_tokens", "%llu tokens for %llu chats would overflow 64 bits",
                   (unsigned long long)p->prompt_tokens, (unsigned long long)p->words);
  if (!cache_fits(m, p))
    return gs_fail(err, GS_ERR_OVERFLOW, "chat_tokens", "a cache of %llu tokens would overflow 64 bits", (unsigned long long)gs_plan_tokens(p));
  if (!gs_mul(gs_message_bytes(m), p->words, &product) || !gs_mul(2 * m->active_params, p->words, &product) ||
      !gs_mul(gs_plan_cache_bytes(m, p), p->words, &product) || !totals_fit(m, p))
    return gs_fail(err, GS_ERR_OVERFLOW, "words", "%llu words at once would overflow 64 bits", (unsigned long long)p->words);
  /* lesson: groups "pay off when many chats keep every group busy": one batch a group */
  if (p->in_flight > 1 && p->split == GS_SLICES)
    return gs_fail(err, GS_ERR_SHAPE, "in_flight", "slices keep no batches in flight: every GPU works on the one batch");
  if (p->in_flight > 1 && p->in_flight > plan_groups(p))
    return gs_fail(err, GS_ERR_SHAPE, "in_flight", "%llu batches in flight need as many groups; %llu GPUs make %llu",
                   (unsigned long long)p->in_flight, (unsigned long long)p->gpus, (unsigned long long)plan_groups(p));
  if (!gs_mul(product, gs_plan_batches(p), &product))
    return gs_fail(err, GS_ERR_OVERFLOW, "in_flight", "%llu batches in flight would overflow 64 bits", (unsigned long long)p->in_flight);
  servers = gs_plan_servers(p);
#ifdef GS_LESSON_ONLY
  /* the lesson's module has one server: its widget offers no servers of a size */
  if (servers > 1) return gs_fail(err, GS_ERR_UNSUPPORTED, "per_server", "the lesson's module has one server");
#endif
  if (servers > 1) {
    if ((rc = gs_link_check(&p->between, err)) != GS_OK) {
      gs_error inner = *err;
      return gs_fail(err, rc, "between", "%s: %s", inner.field, inner.what);
    }
    if (p->split == GS_SLICES_GROUPS && p->gpus % p->per_server != 0)
      return gs_fail(err, GS_ERR_SHAPE, "gpus", "%llu GPUs do not fill whole servers of %llu, as slices-groups needs",
                     (unsigned long long)p->gpus, (unsigned long long)p->per_server);
    if (p->split == GS_SLICES_GROUPS && servers > m->layers)
      return gs_fail(err, GS_ERR_SHAPE, "gpus", "%llu servers would make more groups than the %llu layers",
                     (unsigned long long)servers, (unsigned long long)m->layers);
  }
#ifndef GS_LESSON_ONLY
  return gs_spread_check(m, p, err);
#else
  return GS_OK; /* the lesson's module sets no experts (its models are dense) */
#endif
}

int gs_split_parse(const char *name, int *split, gs_error *err) {
  if (strcmp(name, "slices") == 0) *split = GS_SLICES;
  else if (strcmp(name, "groups") == 0) *split = GS_GROUPS;
  else if (strcmp(name, "slices-groups") == 0) *split = GS_SLICES_GROUPS;
  else return gs_fail(err, GS_ERR_SPLIT, "split", "must be slices, groups or slices-groups");
  return GS_OK;
}

const char *gs_split_name(int split) {
  return split == GS_SLICES ? "slices" : split == GS_GROUPS ? "groups" : split == GS_SLICES_GROUPS ? "slices-groups" : "unknown";
}

/* The rule of which GPU counts a setting may take: a plan that passes its checks, and
 * with --divide-heads (real rules) a count that divides the attention heads, unless the
 * experts are spread beside data-parallel attention, which cuts no head. */
int gs_count_allowed(const gs_setting *s, uint64_t n, gs_error *err) {
  gs_plan p = s->plan;
  int whole_heads = 0;
  p.gpus = n;
#ifndef GS_LESSON_ONLY
  /* experts spread beside data-parallel attention cut no head: each GPU holds every head
   * (csrc/core/mixed_spread.c), so only the experts must divide (gs_spread_check) */
  whole_heads = p.experts == GS_EXPERTS_SPREAD && p.attention == GS_ATTENTION_DATA;
#endif
  if (s->divide_heads && n != 0 && s->model.heads % n != 0 && !whole_heads)
    return gs_fail(err, GS_ERR_SHAPE, "gpus", "%llu does not divide the %llu heads", (unsigned long long)n,
                   (unsigned long long)s->model.heads);
  return gs_plan_check(&s->model, &p, err);
}
