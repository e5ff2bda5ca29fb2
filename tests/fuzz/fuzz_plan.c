/* libFuzzer target: the plan's inputs (gs_plan_search, csrc/core/plan.c): a catalogue model
 * and GPU, the rules and switches, servers, the cache's tokens and bits, a prompt, a price,
 * typed GPU figures at their extremes, the budget and the targets, all from the input's
 * bytes. Whatever the request, the search must answer or refuse with one line, and what it
 * answers must hold together: a frontier of points none of which dominates another, fastest
 * first; each within the budget and at a count the search says it tried; every figure
 * finite and above 0 and printed with digits; a choice that meets the targets, its first
 * word priced when a first-word target is given; a reason for an empty frontier; the
 * counts searched said whole. Budgets span 1 to 65,536: past 64 the search tries a few
 * counts only (csrc/core/plan_counts.c), so each input runs in milliseconds.
 *
 * Input, one byte each unless said: model, GPU, rules, switches, servers, chat tokens,
 * cache bits, prompt, price, then three typed GPU figures (gib, bandwidth, flops; each as
 * fuzz_config.c's: below 0xF0 one of EXTREMES, else the next 8 bytes raw), the budget (2
 * bytes), and the two targets (each a figure in ms). Missing bytes read as 0. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_check.h"

/* The frontier as the explorer's chart (csrc/emit/plan_chart.c), the choice after it: every
 * dot inside the plot and clear of every other, ticks ascending from 0 to 100, every point
 * named in engine terms and the lesson's words. */
static void check_chart(const gs_setting *s, const gs_plan_result *p) {
  static gs_plan_chart c;
  gs_error err;
  size_t i, j;
  if (gs_plan_chart_of(s, p, p->has_choice ? &p->choice : NULL, &c, &err) != GS_OK) abort();
  if (c.count != p->count + (p->has_choice ? 1 : 0)) abort();
  if (c.count == 0) return;
  if (!(c.dot > 0 && c.dot <= 2.4) || c.x_n < 2 || c.y_n < 2) abort();
  for (i = 1; i < c.x_n; i++)
    if (!(c.x_ticks[i].at > c.x_ticks[i - 1].at)) abort();
  for (i = 1; i < c.y_n; i++)
    if (!(c.y_ticks[i].at > c.y_ticks[i - 1].at)) abort();
  if (c.x_ticks[0].at != 0 || c.y_ticks[0].at != 0 || c.x_ticks[c.x_n - 1].at != 100 || c.y_ticks[c.y_n - 1].at != 100) abort();
  for (i = 0; i < c.count; i++) {
    const gs_chart_point *a = &c.points[i];
    if (!(a->x >= 0 && a->x <= 100 && a->y >= 0 && a->y <= 100) || !a->engine[0] || !a->lesson[0]) abort();
    for (j = i + 1; j < c.count; j++) {
      double across = (a->x - c.points[j].x) * (100 - c.dot) / 100;
      double up = (a->y - c.points[j].y) * (100 - c.dot * GS_CHART_ASPECT) / 100;
      if ((across < 0 ? -across : across) < c.dot && (up < 0 ? -up : up) < c.dot * GS_CHART_ASPECT) abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double EXTREMES[] = {0, 4.9e-324, 1e-300, 1e-3, 0.01, 0.5, 1, 24, 80, 1e6, 1e9, 600e9, 2.039e12,
                                  312e12, 1e16, 1e19, 1e300, -1, 1.0 / 0.0, 0.0 / 0.0};
#define EXTREME_COUNT (sizeof EXTREMES / sizeof EXTREMES[0])
static const char *const GPUS[] = {NULL, "h100-sxm", "h200", "l4", "l40s", "a100-80gb-sxm", "b200", "mi300x"};
static const uint64_t PER_SERVER[] = {0, 1, 2, 3, 6, 8, 72, 65536};
static const uint64_t TOKENS[] = {0, 1, 2, 1024, 8192, 131072, 1048576};
static const uint64_t BUDGETS[] = {1, 2, 63, 64, 65, 95, 96, 97, 1000, 65535, 65536};

typedef struct {
  const uint8_t *at, *end;
} reader;

static uint8_t next_byte(reader *r) { return r->at < r->end ? *r->at++ : 0; }

static double next_figure(reader *r) {
  uint8_t pick = next_byte(r);
  double x;
  if (pick < 0xF0) return EXTREMES[pick % EXTREME_COUNT];
  if (r->end - r->at < 8) return EXTREMES[0];
  memcpy(&x, r->at, 8);
  r->at += 8;
  return x;
}

/* The request the bytes ask for; the GPU's figures typed when the rules byte says so. */
static void read_request(reader *r, gs_request *q) {
  uint8_t model = next_byte(r), gpu = next_byte(r), rules = next_byte(r);
  memset(q, 0, sizeof *q);
  q->model_key = GS_MODELS[model % GS_MODEL_COUNT].key;
  q->gpu_key = GPUS[gpu % (sizeof GPUS / sizeof GPUS[0])];
  q->assume = rules % 3;
  q->switches = next_byte(r) & 63u;
  q->per_server = PER_SERVER[next_byte(r) % (sizeof PER_SERVER / sizeof PER_SERVER[0])];
  q->chat_tokens = TOKENS[next_byte(r) % (sizeof TOKENS / sizeof TOKENS[0])];
  q->cache_bits = next_byte(r) % 33u;
  {
    uint8_t prompt = next_byte(r);
    q->no_prompt = prompt == 1;
    q->prompt_tokens = prompt > 1 ? TOKENS[prompt % (sizeof TOKENS / sizeof TOKENS[0])] : 0;
  }
  q->gpu_hour = next_byte(r) & 1u ? 2.5 : 0;
  if (rules & 4u) {
    q->gpu_typed = GS_TYPED_GIB | GS_TYPED_GPU_BW | GS_TYPED_FLOPS;
    q->gpu.gib = next_figure(r);
    q->gpu.bandwidth = next_figure(r);
    q->gpu.flops = next_figure(r);
  }
}

/* A rate as the table and the explorer print it: digits, never 0 for a positive rate. */
static void check_rate(double x) {
  char text[GS_FIGURE_CAP];
  if (!isfinite(x) || !(x > 0)) abort();
  gs_words_rate(text, sizeof text, x);
  fuzz_check_text(text);
  if (strcmp(text, "0.0") == 0) abort();
}

static int searched(const gs_plan_result *p, uint64_t n) {
  size_t i;
  if (n <= p->every_to) return 1;
  for (i = 0; i < p->sparse_n; i++)
    if (p->sparse[i] == n) return 1;
  return 0;
}

static void check_point(const gs_plan_ask *a, const gs_plan_result *p, const gs_layout *l) {
  char flags[160];
  if (l->gpus < 1 || l->gpus > a->gpus_max || !searched(p, l->gpus) || l->replicas != a->gpus_max / l->gpus) abort();
  if (!isfinite(l->word_s) || !(l->word_s > 0) || !isfinite(l->first_s) || l->first_s < 0) abort();
  check_rate(1 / l->word_s);
  check_rate(l->per_gpu);
  check_rate(l->words_per_s);
  if (strlen(gs_layout_flags(l, flags, sizeof flags)) + 1 >= sizeof flags) abort(); /* a command cut short */
}

static void check_result(const gs_setting *s, const gs_plan_ask *a, const gs_plan_result *p) {
  char said[GS_PLAN_SEARCHED_CAP];
  size_t i, j;
  for (i = 0; i < p->count; i++) {
    check_point(a, p, &p->points[i]);
    if (i && !(p->points[i - 1].word_s <= p->points[i].word_s)) abort();
    for (j = 0; j < p->count; j++)
      if (i != j && p->points[i].word_s <= p->points[j].word_s && p->points[i].per_gpu >= p->points[j].per_gpu) abort();
  }
  if (p->has_choice) {
    check_point(a, p, &p->choice);
    if ((a->target_word_s > 0 && p->choice.word_s > a->target_word_s) ||
        (a->target_first_s > 0 && !(p->choice.first_s > 0 && p->choice.first_s <= a->target_first_s)))
      abort();
  }
  if (a->target_first_s > 0 && s->plan.prompt_tokens == 0) abort(); /* refused before the search */
  if ((p->count == 0 || ((a->target_word_s > 0 || a->target_first_s > 0) && !p->has_choice)) && p->why[0] == '\0') abort();
  if (strlen(p->why) + 1 >= sizeof p->why) abort();
  gs_plan_searched(p, said, sizeof said);
  if (strlen(said) + 1 >= sizeof said || (said[0] != '\0') != (a->gpus_max > GS_PLAN_EVERY_COUNT)) abort();
  if (p->every_to != (a->gpus_max < GS_PLAN_EVERY_COUNT ? a->gpus_max : GS_PLAN_EVERY_COUNT)) abort();
  for (i = 1; i < p->sparse_n; i++)
    if (!(p->sparse[i - 1] < p->sparse[i])) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static gs_setting setting;
  static gs_plan_result result;
  reader r = {data, data + size};
  gs_request q;
  gs_plan_ask a;
  gs_error err;
  int rc;
  read_request(&r, &q);
  memset(&a, 0, sizeof a);
  {
    uint8_t hi = next_byte(&r), lo = next_byte(&r);
    a.gpus_max = hi & 0x80u ? BUDGETS[lo % (sizeof BUDGETS / sizeof BUDGETS[0])] : (((uint64_t)hi << 8) | lo) % 65537u;
  }
  a.target_word_s = next_figure(&r) / 1e3;
  a.target_first_s = next_figure(&r) / 1e3;
  if (gs_resolve(&q, &setting, &err) != GS_OK) return 0;
  rc = gs_plan_search(&setting, &a, &result, &err);
  if (rc != GS_OK) {
    if (err.what[0] == '\0' || strchr(err.what, '\n')) abort(); /* a refusal says why, in one line */
    return 0;
  }
  if (a.gpus_max < 1 || a.gpus_max > GS_MAX_GPUS || !(a.target_word_s >= 0) || !(a.target_first_s >= 0)) abort();
  check_result(&setting, &a, &result);
  check_chart(&setting, &result);
  return 0;
}
