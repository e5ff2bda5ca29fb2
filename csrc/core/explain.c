/* The sums of one setting with its numbers put in, as the lesson's "by hand" sections
 * write them (tests/lesson/lesson.txt: "The memory sum, by hand", "The swap, by hand").
 * The command line prints this for --explain, and the module returns it to the widget.
 * Every figure comes from gs_cost, so the sums end at the report's figures. */
#include <string.h>

#include "internal.h"

/* The lesson's module (-DGS_LESSON_ONLY) prices only the lesson's three Llama models at 16
 * bits on one server with none of report's switches (csrc/wasm/lesson.c offers no more, and
 * gs_explain_of refuses the rest there), so its sums leave out the lines past the lesson
 * (BEYOND_WIDGET, internal.h). */

typedef struct {
  char *buf;
  size_t cap, at;
} writer;

static void line(writer *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void line(writer *w, const char *fmt, ...) {
  va_list ap;
  if (w->at + 1 >= w->cap) return;
  va_start(ap, fmt);
  w->at += gs_vformat(w->buf + w->at, w->cap - w->at, fmt, ap);
  va_end(ap);
  if (w->at + 1 < w->cap) {
    w->buf[w->at++] = '\n';
    w->buf[w->at] = '\0';
  }
}

/* Figures as text, each in its own buffer of a small ring, so a line can hold several. */
typedef struct {
  char text[12][GS_FIGURE_CAP];
  int next;
} figures;

static char *slot(figures *f) { return f->text[f->next++ % 12]; }
static const char *count(figures *f, uint64_t x) { return gs_grouped(slot(f), GS_FIGURE_CAP, x); }
static const char *fixed(figures *f, double x, int places) { return gs_fixed_grouped(slot(f), GS_FIGURE_CAP, x, places); }
static const char *words(figures *f, double x) { return gs_words_rate(slot(f), GS_FIGURE_CAP, x); }
static const char *bytes_rate(figures *f, double x) { return gs_bytes_rate(slot(f), GS_FIGURE_CAP, x); }
static const char *flops_rate(figures *f, double x) { return gs_flops_rate(slot(f), GS_FIGURE_CAP, x); }

/* A constant as written (6.6, 0.6): nine places with the trailing zeros dropped. */
static const char *plain(figures *f, double x) {
  char *s = gs_fixed(slot(f), GS_FIGURE_CAP, x, 9);
  size_t n = strlen(s);
  while (n > 0 && s[n - 1] == '0') s[--n] = '\0';
  if (n > 0 && s[n - 1] == '.') s[--n] = '\0';
  return s;
}

static void memory_sums(writer *w, figures *f, const gs_model *m, const gs_plan *p, const gs_cost_result *c) {
  uint64_t n = p->gpus, tokens = p->chat_tokens ? p->chat_tokens : GS_CHAT_TOKENS, chat = gs_plan_cache_bytes(m, p);
  uint64_t per_token = m->cache_full_bytes, parts = gs_cache_parts(m, p), llama_shape = 0;
  /* 2 x layers x kv_heads x head_dim x 2, checked: it is only compared */
  int llama_like = gs_mul(4 * m->layers, m->kv_heads, &llama_shape) && gs_mul(llama_shape, m->head_dim, &llama_shape);
  if (n == 1) line(w, "Memory on the one GPU, in bytes:");
  else line(w, "Memory on each of %llu GPUs, in bytes:", (unsigned long long)n);
  if (!BEYOND_WIDGET || m->stored_bytes == 2 * m->params)
    line(w, "  weights: %s x 2 / %llu = %s", count(f, m->params), (unsigned long long)n, count(f, c->memory.weights));
  else
    line(w, "  weights: %s bytes as stored / %llu = %s", count(f, m->stored_bytes), (unsigned long long)n, count(f, c->memory.weights));
  if (!BEYOND_WIDGET || (!m->cache_latent && m->cache_window_bytes == 0 && llama_like && per_token == llama_shape))
    line(w, "  cache: 2 x %llu layers x %llu key/value heads x %llu values x 2 bytes = %s bytes a token",
         (unsigned long long)m->layers, (unsigned long long)m->kv_heads, (unsigned long long)m->head_dim, count(f, per_token));
  else
    line(w, "  cache: %s bytes a token on layers that keep every token, %s on sliding layers (window %llu)", count(f, per_token),
         count(f, m->cache_window_bytes), (unsigned long long)m->window);
  line(w, "    for a chat of %s tokens at %llu bits: %s;%s%s%s%s%s%s shared over %llu part%s%s: %s", count(f, tokens),
       (unsigned long long)(p->cache_bits ? p->cache_bits : 16), count(f, chat), p->cache_per_chat ? " one for each of " : "",
       p->cache_per_chat ? count(f, p->words) : "", p->cache_per_chat ? (p->words == 1 ? " chat," : " chats,") : "",
       gs_plan_batches(p) > 1 ? " for each of " : "", gs_plan_batches(p) > 1 ? count(f, gs_plan_batches(p)) : "",
       gs_plan_batches(p) > 1 ? " batches in flight," : "", (unsigned long long)parts, parts == 1 ? "" : "s",
       m->cache_latent ? " (a latent every slice holds whole)" : " (by key/value head)", count(f, c->memory.cache));
  line(w, "  working: %s tokens x (3 x %s + 4 x %s) x 2 bytes = %s; + %llu GiB = %s", count(f, GS_ACTIVATION_TOKENS),
       count(f, m->ffn_width), count(f, m->hidden), count(f, c->memory.working - GS_OVERHEAD_GIB * GS_GIB),
       (unsigned long long)GS_OVERHEAD_GIB, count(f, c->memory.working));
  line(w, "  total: %s + %s + %s = %s bytes, %s GiB, %s the %s GiB usable", count(f, c->memory.weights), count(f, c->memory.cache),
       count(f, c->memory.working), count(f, c->memory.total), fixed(f, (double)c->memory.total / (double)GS_GIB, 2),
       c->fits ? "within" : "over", fixed(f, (double)c->usable_bytes / (double)GS_GIB, 1));
  /* by how much a setting that does not fit is over (issue 31) */
  if (!c->fits)
    line(w, "It does not fit: %s bytes, %s GiB, more than a GPU can use, so no time is priced.",
         count(f, c->memory.total - c->usable_bytes), fixed(f, (double)(c->memory.total - c->usable_bytes) / (double)GS_GIB, 2));
}

/* One all-reduce of size bytes over the plan's ring, as the lesson writes it. */
static void swap_sums(writer *w, figures *f, const gs_link *l, const gs_plan *p, const gs_cost_result *c, uint64_t size) {
  uint64_t ring = p->split == GS_SLICES_GROUPS && c->servers > 1 ? p->gpus / c->servers : p->gpus;
  uint64_t steps = 2 * (ring - 1), crossing = p->split == GS_SLICES && c->servers > 1 ? 2 * (c->servers - 1) : 0;
  /* steps x size / ring, taken as (size / ring) x steps + (size % ring) x steps / ring so
   * that no product overflows: gs_plan_check bounds size, not steps x size */
  uint64_t sent = size / ring * steps + size % ring * steps / ring;
  double bandwidth = crossing && p->between.bandwidth < l->bandwidth ? p->between.bandwidth : l->bandwidth;
  if (ring == 1) {
    line(w, "  one GPU in the ring swaps with no one: 0 us a swap");
    return;
  }
  if (BEYOND_WIDGET && c->protocol == GS_PROTO_MEASURED) {
    line(w, "  a ring of %llu GPUs: %s bytes as measured (%s, %s): %s us a swap", (unsigned long long)ring, count(f, size),
         p->measured->file, p->measured->source_dir, fixed(f, c->swap * 1e6, 2));
    return;
  }
  if (BEYOND_WIDGET && p->nccl == GS_NCCL_AUTO) {
    line(w, "  a ring of %llu GPUs: NCCL's cheapest protocol for %s bytes is %s: %s us a swap", (unsigned long long)ring,
         count(f, size), gs_protocol_name(c->protocol), fixed(f, c->swap * 1e6, 2));
    return;
  }
  if (BEYOND_WIDGET && crossing)
    line(w, "  a ring all-reduce over %llu GPUs takes 2 x (%llu - 1) = %llu steps, %llu of them between servers; start-up "
         "%s + %llu x %s + %llu x %s = %s us",
         (unsigned long long)ring, (unsigned long long)ring, (unsigned long long)steps, (unsigned long long)crossing,
         plain(f, l->base_us), (unsigned long long)(steps - crossing), plain(f, l->step_us), (unsigned long long)crossing,
         plain(f, p->between.step_us),
         plain(f, l->base_us + (double)(steps - crossing) * l->step_us + (double)crossing * p->between.step_us));
  else
    line(w, "  a ring all-reduce over %llu GPUs takes 2 x (%llu - 1) = %llu steps; start-up %s + %llu x %s = %s us",
         (unsigned long long)ring, (unsigned long long)ring, (unsigned long long)steps, plain(f, l->base_us),
         (unsigned long long)steps, plain(f, l->step_us), plain(f, l->base_us + (double)steps * l->step_us));
  line(w, "  each GPU sends 2 x (%llu - 1) / %llu x %s = %s bytes at %s = %s us: %s us a swap",
       (unsigned long long)ring, (unsigned long long)ring, count(f, size), count(f, sent), bytes_rate(f, bandwidth),
       fixed(f, (double)sent / bandwidth * 1e6, 3), fixed(f, c->swap * 1e6, 2));
}

/* The fixed costs a step pays on top of its reading (gs_split_time); none under the
 * lesson's rules, so its sums stay as the lesson writes them. */
static void fixed_sums(writer *w, figures *f, const gs_model *m, const gs_plan *p) {
  const gs_efficiency *e = &p->efficiency;
  if (!BEYOND_WIDGET || (e->layer_us <= 0 && e->step_us <= 0)) return;
  line(w, "  fixed: %llu layers x %s us + %s us a step = %s ms, added to the reading", (unsigned long long)m->layers,
       plain(f, e->layer_us), plain(f, e->step_us), fixed(f, ((double)m->layers * e->layer_us + e->step_us) * 1e-3, 2));
}

#ifndef GS_LESSON_ONLY
/* Spread experts (csrc/core/experts.c): what a GPU holds, reads, computes and sends. */
static void spread_sums(writer *w, figures *f, const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p,
                        const gs_cost_result *c) {
  uint64_t n = p->gpus, chats = gs_spread_chats(p), copied = m->stored_bytes - m->routed_bytes, held = m->experts / n;
  uint64_t size = gs_message_bytes(m) * chats * m->experts_per_token, chat = gs_plan_cache_bytes(m, p);
  uint64_t read_copied = m->stored_bytes - m->unread_bytes - m->routed_bytes;
  double share = gs_routed_share(m, p->words), picked = (double)held * share, within, between;
  double read = gs_read_seconds(c->read_bytes, g, &p->efficiency), busy = read >= c->compute ? read : c->compute;
  gs_ring ring;
  memset(&ring, 0, sizeof ring);
  ring.gpus = n;
  ring.servers = c->servers;
  ring.intra = l;
  ring.between = &p->between;
  ring.extra_us = p->efficiency.allreduce_us;
  gs_all_to_all(size, &ring, &within, &between);
  line(w, "Memory on each of %llu GPUs, in bytes (experts spread: %s / %llu = %s whole expert%s a GPU, every other weight copied):",
       (unsigned long long)n, count(f, m->experts), (unsigned long long)n, count(f, held), held == 1 ? "" : "s");
  line(w, "  weights: %s copied + %s routed / %llu = %s", count(f, copied), count(f, m->routed_bytes), (unsigned long long)n,
       count(f, c->memory.weights));
  line(w, "  cache: each GPU serves its own ceil(%s / %llu) = %s chat%s and holds %s whole: %s x %s bytes = %s",
       count(f, p->words), (unsigned long long)n, count(f, chats), chats == 1 ? "" : "s", p->cache_per_chat ? "their caches" : "the one chat's cache",
       p->cache_per_chat ? count(f, chats) : "1", count(f, chat), count(f, c->memory.cache));
  line(w, "  working: %s; total: %s + %s + %s = %s bytes, %s GiB, %s the %s GiB usable", count(f, c->memory.working),
       count(f, c->memory.weights), count(f, c->memory.cache), count(f, c->memory.working), count(f, c->memory.total),
       fixed(f, (double)c->memory.total / (double)GS_GIB, 2), c->fits ? "within" : "over", fixed(f, (double)c->usable_bytes / (double)GS_GIB, 1));
  line(w, "Time for one word of each of %s chats:", count(f, p->words));
  line(w, "  reading: %s copied + %s x (1 - (1 - %llu/%llu)^%s) = %s of its experts the words pick%s, x %s bytes an expert%s = %s bytes "
       "at %s = %s ms",
       count(f, read_copied), count(f, held), (unsigned long long)m->experts_per_token, (unsigned long long)m->experts, count(f, p->words),
       fixed(f, picked, 3), picked < 1 ? ", at least 1 (the busiest GPU reads a whole one)" : "",
       count(f, m->routed_bytes / m->experts), p->read_cache ? ", + its chats' caches" : "", count(f, c->read_bytes),
       bytes_rate(f, gs_read_rate(g, &p->efficiency)),
       fixed(f, read * 1e3, 2));
  line(w, "  computing 2 x %s x %s chats / %s = %s ms; the longer, %s ms, counts", count(f, m->active_params), count(f, chats),
       flops_rate(f, g->flops), fixed(f, c->compute * 1e3, 2), fixed(f, busy * 1e3, 2));
  fixed_sums(w, f, m, p);
  if (n == 1) {
    line(w, "  one GPU holds every expert and sends nothing");
  } else {
    line(w, "  all-to-all: each GPU sends %s chats x %llu experts x %s x 2 bytes = %s bytes, %s within its server at %s%s%s%s: "
         "%s + %s us + the longer = %s us",
         count(f, chats), (unsigned long long)m->experts_per_token, count(f, m->hidden), count(f, size), count(f, (uint64_t)within),
         bytes_rate(f, l->bandwidth), c->servers > 1 ? " and " : "", c->servers > 1 ? count(f, (uint64_t)between) : "",
         c->servers > 1 ? " to other servers at the link between" : "", plain(f, l->base_us + p->efficiency.allreduce_us),
         plain(f, c->servers > 1 ? p->between.step_us : l->step_us), fixed(f, c->swap * 1e6, 2));
    line(w, "  a dispatch and a combine in each of %s MoE layers: 2 x %s x %s us = %s ms", count(f, m->moe_layers), count(f, m->moe_layers),
         fixed(f, c->swap * 1e6, 2), fixed(f, c->time.transfer * 1e3, 2));
  }
  line(w, "  total: %s + %s = %s ms a word; words a second: %s for each chat, %s for all %s together", fixed(f, c->time.read * 1e3, 2),
       fixed(f, c->time.transfer * 1e3, 2), fixed(f, c->time.total * 1e3, 2), words(f, c->time.words_per_s),
       words(f, c->time.total_words_per_s), count(f, p->words));
}
#endif

static void time_sums(writer *w, figures *f, const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p,
                      const gs_cost_result *c) {
  uint64_t n = p->gpus, size = gs_message_bytes(m) * p->words, swaps = GS_ALL_REDUCES_PER_LAYER * m->layers;
  double read = gs_read_seconds(c->read_bytes, g, &p->efficiency), busy = read >= c->compute ? read : c->compute;
  /* a step gives each of the words' chats one word; with one chat it is one word */
  const char *step = p->words * gs_plan_batches(p) == 1 ? "word" : "step";
  if (p->words == 1) line(w, "Time for one word:");
  else line(w, "Time for one step, one word for each of %s chats:", count(f, p->words));
  if (n > 1)
    line(w, "  the message is one word's hidden vector: %s numbers x 2 bytes x %s word%s = %s bytes", count(f, m->hidden),
         count(f, p->words), p->words == 1 ? "" : "s", count(f, size));
  if (n == 1) {
    line(w, "  one GPU holds every layer: it swaps with no one, waiting %s ms", fixed(f, c->time.transfer * 1e3, 2));
  } else if (p->split == GS_GROUPS) {
    char times[GS_FIGURE_CAP];
    if (n == 2) gs_format(times, sizeof times, "once");
    else gs_format(times, sizeof times, "%llu times", (unsigned long long)(n - 1));
    line(w, "  %llu groups hand it on %s, each (%s + %s us) + %s bytes at %s = %s us; %s between servers", (unsigned long long)n,
         times, plain(f, l->base_us), plain(f, l->step_us), count(f, size), bytes_rate(f, l->bandwidth),
         fixed(f, c->swap * 1e6, 2), count(f, c->servers - 1));
    line(w, "  waiting: %s ms", fixed(f, c->time.transfer * 1e3, 2));
  } else {
    swap_sums(w, f, l, p, c, size);
    if (BEYOND_WIDGET && p->split == GS_SLICES_GROUPS && c->servers > 1)
      line(w, "  %s swaps a %s (2 x %llu layers), and %s hand-offs between the %s servers' groups: waiting %s ms%s",
           count(f, swaps), step, (unsigned long long)m->layers, count(f, c->servers - 1), count(f, c->servers),
           fixed(f, c->time.transfer * 1e3, 2), p->overlap ? " after overlap" : "");
    else if (BEYOND_WIDGET && p->overlap)
      line(w, "  %s swaps a %s (2 x %llu layers) of %s us, each hidden behind the next layer's reading as far as it lasts: waiting %s ms",
           count(f, swaps), step, (unsigned long long)m->layers, fixed(f, c->swap * 1e6, 2), fixed(f, c->time.transfer * 1e3, 2));
    else
      line(w, "  %s swaps a %s (2 x %llu layers): %s x %s us = %s ms", count(f, swaps), step, (unsigned long long)m->layers,
           count(f, swaps), fixed(f, c->swap * 1e6, 2), fixed(f, c->time.transfer * 1e3, 2));
  }
  line(w, "  reading: %s bytes a GPU%s at %s = %s ms; computing 2 x %s x %s / (%llu x %s) = %s ms; the longer, %s ms, counts%s",
       count(f, c->read_bytes), p->read_cache ? " (with its share of every chat's cache)" : "",
       bytes_rate(f, gs_read_rate(g, &p->efficiency)),
       fixed(f, read * 1e3, 2), count(f, m->active_params), count(f, p->words), (unsigned long long)n, flops_rate(f, g->flops),
       fixed(f, c->compute * 1e3, 2), fixed(f, busy * 1e3, 2),
       p->split == GS_SLICES || c->servers == 1 ? (p->split == GS_GROUPS && n > 1 ? ", once for each group in turn" : "")
                                                 : ", once for each group in turn");
  fixed_sums(w, f, m, p);
  line(w, "  total: %s + %s = %s ms a %s; waiting %s / %s = %s%%", fixed(f, c->time.read * 1e3, 2), fixed(f, c->time.transfer * 1e3, 2),
       fixed(f, c->time.total * 1e3, 2), step, fixed(f, c->time.transfer * 1e3, 2), fixed(f, c->time.total * 1e3, 2),
       fixed(f, c->time.share * 100, gs_share_places(c->time.share)));
  if (gs_plan_batches(p) > 1)
    line(w, "  words a second: %s for each chat, %s for all %s together: %s batches of %s in flight, one a group at every moment",
         words(f, c->time.words_per_s), words(f, c->time.total_words_per_s), count(f, p->words * gs_plan_batches(p)),
         count(f, gs_plan_batches(p)), count(f, p->words));
  else if (p->words == 1)
    line(w, "  words a second: %s for the one chat", words(f, c->time.words_per_s));
  else
    line(w, "  words a second: %s for each chat, %s for all %s together", words(f, c->time.words_per_s),
         words(f, c->time.total_words_per_s), count(f, p->words));
}

#ifndef GS_LESSON_ONLY
/* Replicas, the chats that fit, and the cost of a word (csrc/core/price.c), when asked; the
 * lesson's module has none of them. */
static void deploy_sums(writer *w, figures *f, const gs_setting *s, const gs_priced *pr) {
  const gs_deploy *d = &pr->deploy;
  const gs_cost_result *c = &pr->cost;
  if (s->replicas > 1)
    line(w, "  replicas: %s copies of %s GPUs = %s GPUs; %s x %s = %s words a second", count(f, s->replicas),
         count(f, pr->plan.gpus), count(f, d->gpus), count(f, s->replicas), words(f, c->time.total_words_per_s),
         words(f, d->words_per_s));
  if (d->chats_fit >= 0) {
    uint64_t used = c->memory.weights + c->memory.working;
    uint64_t room = c->usable_bytes > used ? c->usable_bytes - used : 0;
    if (pr->plan.experts == GS_EXPERTS_SPREAD)
      line(w, "  chats that fit: %s usable - %s weights - %s working = %s bytes for caches; %s whole chats of %s bytes a GPU x %s "
           "GPUs: %s chats a layout, giving %s words a second in all",
           count(f, c->usable_bytes), count(f, c->memory.weights), count(f, c->memory.working), count(f, room),
           count(f, (uint64_t)d->chats_fit / pr->plan.gpus), count(f, gs_plan_cache_bytes(&s->model, &pr->plan)),
           count(f, pr->plan.gpus), count(f, (uint64_t)d->chats_fit), words(f, d->chats_fit_words_per_s));
    else
    line(w, "  chats that fit: %s usable - %s weights - %s working = %s bytes for caches; a chat's cache of %s bytes%s "
         "over %llu part%s: %s chats a layout, giving %s words a second in all",
         count(f, c->usable_bytes), count(f, c->memory.weights), count(f, c->memory.working), count(f, room),
         count(f, gs_plan_cache_bytes(&s->model, &pr->plan)), gs_plan_batches(&pr->plan) > 1 ? " in each batch in flight" : "",
         (unsigned long long)gs_cache_parts(&s->model, &pr->plan), gs_cache_parts(&s->model, &pr->plan) == 1 ? "" : "s",
         count(f, (uint64_t)d->chats_fit), words(f, d->chats_fit_words_per_s));
  }
  if (d->cost_per_million >= 0)
    line(w, "  cost: %s GPUs x %s an hour / 3,600 s / %s words a second x 1,000,000 = %s a million words", count(f, d->gpus),
         fixed(f, s->gpu_hour, 2), words(f, d->words_per_s), fixed(f, d->cost_per_million, 2));
  if (d->prompt_cost_per_million >= 0)
    line(w, "  prompt cost: %s GPUs x %s an hour / 3,600 s x %s s to the first word / (%s chats x %s prompt tokens) x 1,000,000 = "
         "%s a million prompt tokens",
         count(f, pr->plan.gpus), fixed(f, s->gpu_hour, 2), fixed(f, c->first_word, 4), count(f, pr->plan.words),
         count(f, pr->plan.prompt_tokens), fixed(f, d->prompt_cost_per_million, 2));
}
#endif

/* The sums of a priced count; with_time 0 leaves out the time's. */
static int explain_into(const gs_priced *pr, char *buf, size_t cap, int with_time, gs_error *err) {
  const gs_setting *s = pr->setting;
  writer w;
  figures f;
  if (cap == 0) return gs_fail(err, GS_ERR_TOO_LONG, "explain", "has no room");
  if (!BEYOND_WIDGET && (pr->plan.nccl != GS_NCCL_LESSON || pr->plan.overlap || pr->plan.read_cache || pr->plan.cache_per_chat ||
                       pr->cost.servers > 1 || s->model.stored_bytes != 2 * s->model.params || s->model.cache_latent ||
                       s->model.cache_window_bytes))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "explain", "the lesson's module writes only the lesson's sums");
  w.buf = buf;
  w.cap = cap;
  w.at = 0;
  buf[0] = '\0';
  f.next = 0;
#ifndef GS_LESSON_ONLY
  if (pr->plan.experts == GS_EXPERTS_SPREAD) spread_sums(&w, &f, &s->model, &s->gpu, &s->link, &pr->plan, &pr->cost);
  else
#endif
  {
    memory_sums(&w, &f, &s->model, &pr->plan, &pr->cost);
    if (with_time) time_sums(&w, &f, &s->model, &s->gpu, &s->link, &pr->plan, &pr->cost);
  }
#ifndef GS_LESSON_ONLY
  if (pr->cost.fits) deploy_sums(&w, &f, s, pr);
#endif
  if (w.at + 1 >= cap) return gs_fail(err, GS_ERR_TOO_LONG, "explain", "needs more than %zu bytes", cap);
  return GS_OK;
}

int gs_explain_of(const gs_priced *pr, char *buf, size_t cap, gs_error *err) { return explain_into(pr, buf, cap, 1, err); }

/* What a page shows: a count that does not fit gets its memory's sums, which say by how
 * much, and no time: a sum of a word it cannot make would read as one, beside a card that
 * says "Does not fit" (issue 31). The command line's --explain still prints both. */
int gs_explain_shown(const gs_priced *pr, char *buf, size_t cap, gs_error *err) {
  return explain_into(pr, buf, cap, pr->cost.fits, err);
}

/* Glue: whether the space at i joins two parts of one term, which a page must not break
 * apart: an operator and its operands (x, /, -, and what follows + and =), and a number
 * and its unit ("160 swaps", "73.6 GiB"). A line may still break before + and =, and
 * between words. */
static int is_gap(char c) { return c == ' ' || c == '\n' || c == '\0'; }
static int token_is(const char *t, size_t len, const char *word) { return strlen(word) == len && memcmp(t, word, len) == 0; }

static int glued(const char *buf, size_t i, size_t n) {
  size_t ls = i, re = i + 1, ll, k;
  const char *l, *r;
  int number = 1;
  while (ls > 0 && !is_gap(buf[ls - 1])) ls--;
  while (re < n && !is_gap(buf[re])) re++;
  l = buf + ls;
  ll = i - ls;
  r = buf + i + 1;
  /* a division by a bracketed product may break before its "/", as it is a term's longest */
  if (token_is(r, re - i - 1, "/")) return !(re + 1 < n && buf[re] == ' ' && buf[re + 1] == '(');
  if (token_is(r, re - i - 1, "x") || token_is(r, re - i - 1, "-")) return 1;
  if (token_is(l, ll, "x") || token_is(l, ll, "/") || token_is(l, ll, "-") || token_is(l, ll, "+") || token_is(l, ll, "="))
    return 1;
  for (k = 0; k < ll; k++)
    if (!((l[k] >= '0' && l[k] <= '9') || l[k] == ',' || l[k] == '.' || l[k] == '(' || l[k] == ')' || l[k] == '%')) number = 0;
  return number && ll > 0 && l[ll - 1] >= '0' && l[ll - 1] <= '9' && ((r[0] >= 'a' && r[0] <= 'z') || (r[0] >= 'A' && r[0] <= 'Z'));
}

int gs_explain_glue(char *buf, size_t cap, gs_error *err) {
  char out[GS_EXPLAIN_CAP]; /* on the stack: the library keeps no state */
  size_t i, o = 0, n = 0;
  while (n < cap && buf[n]) n++;
  for (i = 0; i < n; i++) {
    int glue = buf[i] == ' ' && i > 0 && i + 1 < n && !is_gap(buf[i - 1]) && !is_gap(buf[i + 1]) && glued(buf, i, n);
    if (o + (glue ? 2u : 1u) >= sizeof out) return gs_fail(err, GS_ERR_TOO_LONG, "explain", "needs more than %zu bytes", sizeof out);
    if (glue) {
      out[o++] = '\xC2'; /* U+00A0, the no-break space, in UTF-8 */
      out[o++] = '\xA0';
    } else {
      out[o++] = buf[i];
    }
  }
  if (o + 1 > cap) return gs_fail(err, GS_ERR_TOO_LONG, "explain", "needs more than %zu bytes", cap);
  memcpy(buf, out, o);
  buf[o] = '\0';
  return GS_OK;
}
