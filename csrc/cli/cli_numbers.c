/* `gpusplit numbers`: every number the lesson quotes, grouped like its show_numbers.py,
 * then the page's own sentences with their figures, section by section. Every figure is
 * computed here from the model; the words around them are the lesson's. */
#include <string.h>

#include "cli.h"

enum { M8, M70, M405, MODELS };
enum { FAST, SLOW, LINKS };

typedef struct {
  gs_model shape[MODELS];
  gs_gpu gpu;
  gs_link link[LINKS];
  char link_label[LINKS][64];
} lesson;

/* A ring of buffers, so that one printf can hold several formatted figures. */
static char *slot(void) {
  static char ring[32][64];
  static unsigned next;
  return ring[next++ % 32];
}

static const char *fixed(double x, int places) { return gs_fixed(slot(), 64, x, places); }
static const char *grouped(uint64_t x) { return gs_grouped(slot(), 64, x); }
static const char *gib(uint64_t bytes) { return fixed((double)bytes / (double)GS_GIB, 2); }
static const char *ms(double seconds) { return fixed(seconds * 1e3, 2); }
static const char *pct(double share, int places) {
  char *s = slot();
  snprintf(s, 64, "%s%%", gs_fixed(slot(), 64, share * 100, places));
  return s;
}
static const char *yes_no(int b) { return b ? "yes" : "no"; }
static unsigned long long u(uint64_t x) { return (unsigned long long)x; }

/* The first failure of the model on a lesson's setting (none is expected: the lesson's
 * settings are all valid); said on stderr when it happens, and the command then exits 1. */
static int model_failed;

static void failure(const char *what, const gs_error *err) {
  if (!model_failed) cli_bad("numbers: %s: %s: %s", what, err->field, err->what);
  model_failed = 1;
}

/* One setting's cost. */
static gs_cost_result cost(const gs_model *s, const gs_gpu *g, const gs_link *link, uint64_t n, int split, uint64_t words) {
  gs_cost_result c;
  gs_plan p = {0};
  gs_error err;
  p.gpus = n;
  p.split = split;
  p.words = words;
  memset(&c, 0, sizeof c);
  if (gs_cost(s, g, link, &p, &c, &err) != GS_OK) failure("a setting", &err);
  return c;
}
static gs_time wt(const lesson *l, int m, uint64_t n, const gs_link *link, int split, uint64_t words) {
  return cost(&l->shape[m], &l->gpu, link, n, split, words).time;
}
static gs_memory memory_of(const lesson *l, const gs_model *s, uint64_t n) {
  return cost(s, &l->gpu, &l->link[FAST], n, GS_SLICES, 1).memory;
}
static int fits(const lesson *l, const gs_model *s, uint64_t n) { return cost(s, &l->gpu, &l->link[FAST], n, GS_SLICES, 1).fits; }
/* Each GPU reads its 1/n of the weights for one word. */
static double read_time(const lesson *l, const gs_model *s, uint64_t n) {
  return (double)cost(s, &l->gpu, &l->link[FAST], n, GS_SLICES, 1).read_bytes / l->gpu.bandwidth;
}
static double compute_time(const lesson *l, const gs_model *s, uint64_t n, uint64_t words) {
  return cost(s, &l->gpu, &l->link[FAST], n, GS_SLICES, words).compute;
}
/* Lesson 18's numbers for one token's cache and the working memory's activations. */
static uint64_t kv_bytes_per_token(const gs_model *s) { return s->cache_full_bytes + s->cache_window_bytes; }
static uint64_t activation_bytes(const lesson *l, const gs_model *s) { return memory_of(l, s, 1).working - GS_GIB; }
static double total(const lesson *l, int m, uint64_t n, int link, uint64_t words) {
  return wt(l, m, n, &l->link[link], GS_SLICES, words).total;
}
static double share(const lesson *l, int m, uint64_t n, int link, uint64_t words) {
  return wt(l, m, n, &l->link[link], GS_SLICES, words).share;
}
static uint64_t best(const lesson *l, int m, int link, uint64_t words, int divide_heads) {
  uint64_t n = 0;
  gs_plan p = {0};
  p.gpus = 1;
  p.split = GS_SLICES;
  p.words = words;
  gs_error err;
  if (gs_best_n(&l->shape[m], &l->gpu, &l->link[link], &p, 64, divide_heads, &n, &err) != GS_OK) failure("the best count", &err);
  return n;
}
static uint64_t fewest(const lesson *l, int m) {
  uint64_t n = 0;
  gs_plan p = {0};
  p.gpus = 1;
  p.split = GS_SLICES;
  p.words = 1;
  gs_error err;
  if (gs_fewest_n(&l->shape[m], &l->gpu, &p, 64, 0, &n, &err) != GS_OK) failure("the fewest count", &err);
  return n;
}
/* The best of the counts the page offers, for one user. */
static uint64_t best_offered(const lesson *l, int m, int link) {
  uint64_t found = 0;
  double best_total = 0;
  size_t i;
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    double t = total(l, m, GS_COUNTS[i], link, 1);
    if (fits(l, &l->shape[m], GS_COUNTS[i]) && (found == 0 || t < best_total)) {
      found = GS_COUNTS[i];
      best_total = t;
    }
  }
  return found;
}
/* The word time if the data sheet's link rate counts both directions: half each way. */
static double halved(const lesson *l, int m, uint64_t n, int link, uint64_t words) {
  gs_link half = l->link[link];
  half.bandwidth /= 2;
  return wt(l, m, n, &half, GS_SLICES, words).total;
}
static double allreduce_us(const lesson *l, int m, uint64_t words, uint64_t n, int link) {
  return gs_allreduce_time(gs_message_bytes(&l->shape[m]) * words, n, &l->link[link]) * 1e6;
}

static void print_settings(const lesson *l) {
  int k;
  printf("GPU: %s GiB, %s GiB usable (%s of its %s GiB), %s GB/s, %s TFLOP/s\n", gs_plain(slot(), 64, l->gpu.gib),
         fixed((double)gs_usable_bytes(&l->gpu) / (double)GS_GIB, 1), pct(l->gpu.usable, 0), gs_plain(slot(), 64, l->gpu.gib),
         gs_fixed_grouped(slot(), 64, l->gpu.bandwidth / 1e9, 0), fixed(l->gpu.flops / 1e12, 0));
  for (k = 0; k < LINKS; k++)
    printf("%s: %s GB/s, %s us a step, base %s us\n", l->link_label[k], fixed(l->link[k].bandwidth / 1e9, 0),
           gs_plain(slot(), 64, l->link[k].step_us), gs_plain(slot(), 64, l->link[k].base_us));
}

static void print_models(const lesson *l) {
  int m;
  size_t i;
  printf("\n== Models (16 bits)\n");
  for (m = 0; m < MODELS; m++) {
    const gs_model *s = &l->shape[m];
    printf("%s: %s weights, %s GiB, %llu layers, hidden %llu, %llu heads, %llu key/value heads, message %s bytes, "
           "%llu swaps a word, fewest GPUs %llu\n",
           GS_MODELS[m].name, grouped(s->params), gib(s->stored_bytes), u(s->layers), u(s->hidden), u(s->heads),
           u(s->kv_heads), grouped(gs_message_bytes(s)), u(GS_ALL_REDUCES_PER_LAYER * s->layers), u(fewest(l, m)));
  }
  printf("\n== Memory per GPU in GiB: weights + cache + working = total, fits\n");
  for (m = 0; m < MODELS; m++) {
    for (i = 0; i < GS_COUNT_COUNT; i++) {
      gs_memory mem;
      mem = memory_of(l, &l->shape[m], GS_COUNTS[i]);
      printf("%s x%llu: %s + %s + %s = %s fits=%s\n", GS_MODELS[m].name, u(GS_COUNTS[i]), gib(mem.weights), gib(mem.cache),
             gib(mem.working), gib(mem.total), yes_no(fits(l, &l->shape[m], GS_COUNTS[i])));
    }
  }
}

static void print_times(const lesson *l) {
  int m, k;
  size_t i, w;
  printf("\n== One word, one user, GPUs slice every layer: read ms | wait ms | total ms | wait share | words/s\n");
  for (m = 0; m < MODELS; m++)
    for (i = 0; i < GS_COUNT_COUNT; i++)
      for (k = 0; k < LINKS; k++) {
        gs_time t = wt(l, m, GS_COUNTS[i], &l->link[k], GS_SLICES, 1);
        printf("%s x%llu %s: %s | %s | %s | %s | %s\n", GS_MODELS[m].name, u(GS_COUNTS[i]), l->link_label[k], ms(t.read),
               ms(t.transfer), ms(t.total), pct(t.share, 1), fixed(t.words_per_s, 1));
      }
  printf("\n== Best whole-number GPU count (any count that fits, up to 64), by words at once: fast/slow\n");
  for (m = 0; m < MODELS; m++) {
    printf("%s:", GS_MODELS[m].name);
    for (w = 0; w < GS_WORDS_COUNT; w++)
      printf(" %llu word%s %llu/%llu;", u(GS_WORDS[w]), GS_WORDS[w] == 1 ? "" : "s", u(best(l, m, FAST, GS_WORDS[w], 0)), u(best(l, m, SLOW, GS_WORDS[w], 0)));
    printf("\n");
  }
  printf("\n== Best GPU count that divides the model's attention heads (up to 64), one user: fast/slow\n");
  for (m = 0; m < MODELS; m++)
    printf("%s, %llu heads: %llu/%llu\n", GS_MODELS[m].name, u(l->shape[m].heads), u(best(l, m, FAST, 1, 1)),
           u(best(l, m, SLOW, 1, 1)));
  printf("\n== Best of the counts the page offers (1, 2, 4, 8, 16), one user: fast/slow\n");
  for (m = 0; m < MODELS; m++)
    printf("%s: %llu/%llu\n", GS_MODELS[m].name, u(best_offered(l, m, FAST)), u(best_offered(l, m, SLOW)));
  printf("\n== 8B: speed-up of each doubling, by link\n");
  for (k = 0; k < LINKS; k++) {
    printf("%s:", l->link_label[k]);
    for (i = 0; i + 1 < GS_COUNT_COUNT; i++) printf(" x%s", fixed(total(l, M8, GS_COUNTS[i], k, 1) / total(l, M8, GS_COUNTS[i + 1], k, 1), 2));
    printf("\n");
  }
  printf("\n== 70B on 8 GPUs, words at once: total ms | wait share\n");
  for (w = 0; w < GS_WORDS_COUNT; w++)
    printf("%llu: %s %s | %s  %s %s | %s\n", u(GS_WORDS[w]), l->link_label[FAST], ms(total(l, M70, 8, FAST, GS_WORDS[w])),
           pct(share(l, M70, 8, FAST, GS_WORDS[w]), 1), l->link_label[SLOW], ms(total(l, M70, 8, SLOW, GS_WORDS[w])),
           pct(share(l, M70, 8, SLOW, GS_WORDS[w]), 1));
  printf("\n== Layer groups (pipeline), one user: total ms | wait share\n");
  for (m = 0; m < MODELS; m++)
    for (i = 0; i < GS_COUNT_COUNT; i++) {
      gs_time f = wt(l, m, GS_COUNTS[i], &l->link[FAST], GS_GROUPS, 1), s = wt(l, m, GS_COUNTS[i], &l->link[SLOW], GS_GROUPS, 1);
      printf("%s x%llu: fast %s | %s slow %s | %s one GPU busy at a time: %s of GPUs\n", GS_MODELS[m].name, u(GS_COUNTS[i]),
             ms(f.total), pct(f.share, 2), ms(s.total), pct(s.share, 2), pct(1.0 / (double)GS_COUNTS[i], 1));
    }
  printf("\n== If the sheet's link rates count both directions (halve them), 70B on 8 GPUs, total ms: as written -> halved\n");
  for (w = 1; w <= 64; w += 63)
    for (k = 0; k < LINKS; k++)
      printf("%llu word%s, %s: %s -> %s (%s more)\n", u(w), w == 1 ? "" : "s", l->link_label[k], ms(total(l, M70, 8, k, w)),
             ms(halved(l, M70, 8, k, w)), pct(halved(l, M70, 8, k, w) / total(l, M70, 8, k, w) - 1, 0));
}

/* A list of shares "a, b, c and d" for the counts after the first, or for the words. */
static const char *share_list(const lesson *l, int m, int link, int by_words) {
  char list[64], *s = slot();
  size_t i, first = by_words ? 0 : 1, end = by_words ? GS_WORDS_COUNT : GS_COUNT_COUNT;
  list[0] = '\0';
  for (i = first; i < end; i++) {
    double x = by_words ? share(l, m, 8, link, GS_WORDS[i]) : share(l, m, GS_COUNTS[i], link, 1);
    size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s", i == first ? "" : i + 1 == end ? " and " : ", ", pct(x, 1));
  }
  memcpy(s, list, sizeof list);
  return s;
}

/* The page: the weights must fit. */
static void page_fit(const lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  const gs_model *s405 = &l->shape[M405];
  gs_memory m4 = memory_of(l, &l->shape[M70], 4);
  gs_memory m2 = memory_of(l, &l->shape[M70], 2);
  gs_memory m405 = memory_of(l, &l->shape[M405], 16);
  gs_time t70_4 = wt(l, M70, 4, &l->link[FAST], GS_SLICES, 1);

  printf("\n== The page: the weights must fit\n");
  printf("A model with 70 billion weights takes %s GiB at 16 bits; one GPU can use %s GiB (%s of its %s GiB).\n", gib(s70->stored_bytes),
         fixed((double)gs_usable_bytes(&l->gpu) / (double)GS_GIB, 1), pct(l->gpu.usable, 0), gs_plain(slot(), 64, l->gpu.gib));
  printf("Split four ways, each GPU holds %s GiB. With the cache and working space: %s GiB each, %s ms a word and %s of that spent waiting.\n",
         gib(m4.weights), gib(m4.total), ms(t70_4.total), pct(t70_4.share, 1));
  printf("The 405B model takes %s GiB and needs at least %llu GPUs; on 16: %s GiB each.\n", gib(s405->stored_bytes),
         u(fewest(l, M405)), gib(m405.total));
  printf("The fewest GPUs that fit are %llu for the 8B model, %llu for the 70B and %llu for the 405B.\n", u(fewest(l, M8)),
         u(fewest(l, M70)), u(fewest(l, M405)));
  printf("With two GPUs each holds about %s GiB of weights, and with the chat's cache and working space %s GiB.\n", gib(m2.weights),
         gib(m2.total));
}

/* The page: the memory sum, by hand (70B on 4 GPUs). */
static void page_memory_sum(const lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  gs_memory m4 = memory_of(l, &l->shape[M70], 4);

  printf("\n== The page: the memory sum, by hand (70B on 4 GPUs, bytes)\n");
  printf("Weights: %s x 2 / 4 = %s. Cache: %s bytes a token, %s for the chat, shared by key/value head: %s.\n",
         grouped(s70->params), grouped(m4.weights), grouped(kv_bytes_per_token(s70)),
         grouped(kv_bytes_per_token(s70) * GS_CHAT_TOKENS), grouped(m4.cache));
  printf("Working space: %s plus a 1 GiB allowance, %s in all. The sum is %s bytes, or %s GiB.\n",
         grouped(activation_bytes(l, s70)), grouped(m4.working), grouped(m4.total), gib(m4.total));
  printf("Each model has %llu key/value heads, so past %llu GPUs each GPU keeps a copy of one.\n", u(s70->kv_heads), u(s70->kv_heads));
}

/* The page: slicing every layer, and the swap. */
static void page_slices(const lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  const gs_model *s405 = &l->shape[M405];
  gs_time t70_4 = wt(l, M70, 4, &l->link[FAST], GS_SLICES, 1);
  double sent = gs_ring_steps(4) / 4 * (double)gs_message_bytes(&l->shape[M70]); /* each GPU of a ring of 4 sends 2(n - 1)/n of the message */

  printf("\n== The page: slicing every layer, and the swap\n");
  printf("One GPU would need %s ms to read the 70B model's weights; four GPUs each read a quarter, in %s ms.\n",
         ms(read_time(l, s70, 1)), ms(read_time(l, s70, 4)));
  printf("%llu swaps for every word of the 70B model, each message %s bytes, about %s microseconds of start-up on 4 GPUs: the %llu swaps cost %s ms.\n",
         u(GS_ALL_REDUCES_PER_LAYER * s70->layers), grouped(gs_message_bytes(s70)), fixed(allreduce_us(l, M70, 1, 4, FAST), 0),
         u(GS_ALL_REDUCES_PER_LAYER * s70->layers), ms(t70_4.transfer));
  printf("Each GPU sends %s x %s = %s bytes; the start-up is %s microseconds and sending takes %s microseconds, so a swap takes %s.\n",
         fixed(gs_ring_steps(4) / 4, 1), grouped(gs_message_bytes(s70)), gs_fixed_grouped(slot(), 64, sent, 0),
         fixed(l->link[FAST].base_us + gs_ring_steps(4) * l->link[FAST].step_us, 1), fixed(sent / l->link[FAST].bandwidth * 1e6, 3),
         fixed(allreduce_us(l, M70, 1, 4, FAST), 2));
  printf("Start-up is %s of it.\n", pct((l->link[FAST].base_us + gs_ring_steps(4) * l->link[FAST].step_us) / allreduce_us(l, M70, 1, 4, FAST), 1));
  printf("With 64 words in each swap on 8 GPUs, a swap takes %s microseconds on the fast link and %s on the slow one.\n",
         fixed(allreduce_us(l, M70, 64, 8, FAST), 2), fixed(allreduce_us(l, M70, 64, 8, SLOW), 2));
  printf("The 405B model: %llu for each word, each message %s bytes.\n", u(GS_ALL_REDUCES_PER_LAYER * s405->layers),
         grouped(gs_message_bytes(s405)));
  printf("At 2, 4, 8 and 16 GPUs the waiting takes %s, %s, %s and %s of each word.\n", pct(share(l, M70, 2, FAST, 1), 1),
         pct(share(l, M70, 4, FAST, 1), 1), pct(share(l, M70, 8, FAST, 1), 1), pct(share(l, M70, 16, FAST, 1), 1));
}

/* The page: when more GPUs stop helping (8B, fast link). */
static void page_stops_helping(const lesson *l) {
  const gs_model *s8 = &l->shape[M8];
  gs_time t8_2 = wt(l, M8, 2, &l->link[FAST], GS_SLICES, 1);
  gs_time t8_16 = wt(l, M8, 16, &l->link[FAST], GS_SLICES, 1);
  double g1 = total(l, M8, 1, FAST, 1);
  double g2 = total(l, M8, 2, FAST, 1);
  double g4 = total(l, M8, 4, FAST, 1);
  double g8 = total(l, M8, 8, FAST, 1);
  double g16 = total(l, M8, 16, FAST, 1);
  size_t i;

  printf("\n== The page: when more GPUs stop helping (8B, fast link)\n");
  printf("Words come %s, %s and %s times faster with each doubling from 1 GPU to 8, and %s times for the last doubling.\n",
         fixed(g1 / g2, 2), fixed(g2 / g4, 2), fixed(g4 / g8, 2), fixed(g8 / g16, 2));
  printf("Check one cell, 2 GPUs: each GPU reads %s bytes: %s ms. A message is %s bytes; start-up %s microseconds, sending %s microseconds: %s in all.\n",
         grouped(s8->stored_bytes / 2), ms(t8_2.read), grouped(gs_message_bytes(s8)),
         fixed(l->link[FAST].base_us + gs_ring_steps(2) * l->link[FAST].step_us, 1),
         fixed((double)gs_message_bytes(s8) / l->link[FAST].bandwidth * 1e6, 3), fixed(allreduce_us(l, M8, 1, 2, FAST), 2));
  printf("A word makes %llu swaps, %s ms. The total is %s + %s = %s ms, and waiting is %s of it.\n",
         u(GS_ALL_REDUCES_PER_LAYER * s8->layers), ms(t8_2.transfer), ms(t8_2.read), ms(t8_2.transfer), ms(t8_2.total),
         pct(t8_2.share, 1));
  printf("Past 8 GPUs the waiting (%s ms on the fast link) outgrows the reading (%s ms).\n", ms(t8_16.transfer), ms(t8_16.read));
  printf("| GPUs | Fast link | Slow link |\n");
  for (i = 0; i < GS_COUNT_COUNT; i++)
    printf("| %llu | %s | %s |\n", u(GS_COUNTS[i]), ms(total(l, M8, GS_COUNTS[i], FAST, 1)), ms(total(l, M8, GS_COUNTS[i], SLOW, 1)));
  printf("Waiting takes %s of a word on the fast link at 2, 4, 8 and 16 GPUs, and %s on the slow link.\n", share_list(l, M8, FAST, 0),
         share_list(l, M8, SLOW, 0));
  printf("The fastest count for one user is %llu on the fast link and %llu on the slow one for the 8B model, %llu and %llu for the 70B model, %llu and %llu for the 405B.\n",
         u(best(l, M8, FAST, 1, 0)), u(best(l, M8, SLOW, 1, 0)), u(best(l, M70, FAST, 1, 0)), u(best(l, M70, SLOW, 1, 0)),
         u(best(l, M405, FAST, 1, 0)), u(best(l, M405, SLOW, 1, 0)));
  printf("Among the counts the page offers, %llu is best for the 8B model and %llu for the others on both links.\n",
         u(best_offered(l, M8, FAST)), u(best_offered(l, M70, FAST)));
  printf("The 70B model gets %s times faster, from %s to %s ms a word on the fast link, and the 8B model gets slower, from %s to %s words a second.\n",
         fixed(total(l, M70, 8, FAST, 1) / total(l, M70, 16, FAST, 1), 2), ms(total(l, M70, 8, FAST, 1)), ms(total(l, M70, 16, FAST, 1)),
         fixed(1 / g8, 0), fixed(1 / g16, 0));
  printf("Words a second, 8B, 8 to 16 GPUs: from %s to %s and the slow link %s to %s.\n", fixed(1 / g8, 0), fixed(1 / g16, 0),
         fixed(1 / total(l, M8, 8, SLOW, 1), 0), fixed(1 / total(l, M8, 16, SLOW, 1), 0));
}

/* The page: many words at once (70B on 8 GPUs). */
static void page_many_words(const lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  size_t i;

  printf("\n== The page: many words at once (70B on 8 GPUs)\n");
  printf("For one user the link matters little: the 70B model on 8 GPUs takes %s ms a word on the fast link and %s ms on the slow one.\n", ms(total(l, M70, 8, FAST, 1)),
         ms(total(l, M70, 8, SLOW, 1)));
  printf("With 64 words in each swap, the same split takes %s ms on the fast link and %s ms on the slow one.\n",
         ms(total(l, M70, 8, FAST, 64)), ms(total(l, M70, 8, SLOW, 64)));
  printf("| Words | Fast link | Slow link |\n");
  for (i = 0; i < GS_WORDS_COUNT; i++)
    printf("| %llu | %s | %s |\n", u(GS_WORDS[i]), ms(total(l, M70, 8, FAST, GS_WORDS[i])), ms(total(l, M70, 8, SLOW, GS_WORDS[i])));
  printf("Waiting takes %s of the step on the fast link at 1, 16 and 64 words, and %s on the slow link.\n",
         share_list(l, M70, FAST, 1), share_list(l, M70, SLOW, 1));
  printf("The slow link costs %s ms more at 1 word and %s ms more at 64.\n", ms(total(l, M70, 8, SLOW, 1) - total(l, M70, 8, FAST, 1)),
         ms(total(l, M70, 8, SLOW, 64) - total(l, M70, 8, FAST, 64)));
  printf("For 64 words on 8 GPUs calculation takes %s ms, still under the %s ms of reading, and for one word on one GPU "
         "calculation takes %s ms against %s ms of reading.\n",
         ms(compute_time(l, s70, 8, 64)), ms(read_time(l, s70, 8)), ms(compute_time(l, s70, 1, 1)),
         ms(read_time(l, s70, 1)));
  printf("If both figures count both directions, the 70B model on 8 GPUs goes from %s to %s ms on the fast link and from %s to %s ms on the slow one.\n",
         ms(total(l, M70, 8, FAST, 1)), ms(halved(l, M70, 8, FAST, 1)), ms(total(l, M70, 8, SLOW, 1)), ms(halved(l, M70, 8, SLOW, 1)));
  printf("With 64 words at once the slow link goes from %s to %s ms, %s more.\n", ms(total(l, M70, 8, SLOW, 64)),
         ms(halved(l, M70, 8, SLOW, 64)), pct(halved(l, M70, 8, SLOW, 64) / total(l, M70, 8, SLOW, 64) - 1, 0));
}

/* The page: groups of layers (70B on 4 GPUs, fast link). */
static void page_groups(const lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  gs_time t70_4 = wt(l, M70, 4, &l->link[FAST], GS_SLICES, 1);
  gs_time groups = wt(l, M70, 4, &l->link[FAST], GS_GROUPS, 1);

  printf("\n== The page: groups of layers (70B on 4 GPUs, fast link)\n");
  printf("Waiting nearly vanishes: %s ms a word on four GPUs, against %s ms of reading alone, %s of it waiting.\n", ms(groups.total),
         ms(read_time(l, s70, 1)), pct(groups.share, 2));
  printf("Each group reads in turn: 4 x %s = %s ms, plus 3 hand-offs of %s microseconds.\n", ms(read_time(l, s70, 4)),
         ms(groups.read), fixed(gs_handoff_time(gs_message_bytes(s70), &l->link[FAST]) * 1e6, 1));
  printf("Slices against groups: %s ms against %s ms; each GPU's share read in %s ms.\n", ms(t70_4.total), ms(groups.total),
         ms(read_time(l, s70, 4)));
}

/* The page: what the toy leaves out, and what the tests check. */
static void page_leaves_out(const lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  const gs_model *s8 = &l->shape[M8];
  const gs_model *s405 = &l->shape[M405];

  printf("\n== The page: what the toy leaves out, and what the tests check\n");
  printf("A word makes %llu, %llu and %llu swaps. The fewest GPUs that fit are %llu, %llu and %llu.\n",
         u(GS_ALL_REDUCES_PER_LAYER * s8->layers), u(GS_ALL_REDUCES_PER_LAYER * s70->layers),
         u(GS_ALL_REDUCES_PER_LAYER * s405->layers), u(fewest(l, M8)), u(fewest(l, M70)), u(fewest(l, M405)));
  printf("Serving software needs the count to divide the attention heads, the %llu, %llu and %llu the three models have, so %llu GPUs is not a usable count.\n",
         u(s8->heads), u(s70->heads), u(s405->heads), u(best(l, M70, FAST, 1, 0)));
  printf("Among the counts that do divide them, the fastest are %llu for the 8B model, %llu for the 70B and %llu for the 405B, on both links.\n",
         u(best(l, M8, FAST, 1, 1)), u(best(l, M70, FAST, 1, 1)), u(best(l, M405, FAST, 1, 1)));
  printf("The best counts are %llu and %llu, %llu and %llu, and %llu and %llu; among the counts that divide the heads they are %llu, %llu and %llu.\n",
         u(best(l, M8, FAST, 1, 0)), u(best(l, M8, SLOW, 1, 0)), u(best(l, M70, FAST, 1, 0)), u(best(l, M70, SLOW, 1, 0)),
         u(best(l, M405, FAST, 1, 0)), u(best(l, M405, SLOW, 1, 0)), u(best(l, M8, SLOW, 1, 1)), u(best(l, M70, SLOW, 1, 1)),
         u(best(l, M405, SLOW, 1, 1)));
}

/* The page, section by section: each sentence the lesson writes with a figure in it. */
static void print_page(const lesson *l) {
  page_fit(l);
  page_memory_sum(l);
  page_slices(l);
  page_stops_helping(l);
  page_many_words(l);
  page_groups(l);
  page_leaves_out(l);
}

static int load(lesson *l) {
  gs_hardware_text text;
  gs_error err;
  int m, k;
  for (m = 0; m < MODELS; m++)
    if (gs_builtin_model(GS_MODELS[m].key, 0, &l->shape[m], &err) != GS_OK) return cli_bad_error(GS_MODELS[m].file, &err);
  if (gs_builtin_gpu("lesson", &l->gpu, NULL, &err) != GS_OK) return cli_bad_error("data/gpus.json", &err);
  for (k = 0; k < LINKS; k++)
    if (gs_builtin_link(GS_LINK_KEYS[k], &l->link[k], &text, &err) != GS_OK) return cli_bad_error("data/links.json", &err);
    else snprintf(l->link_label[k], sizeof l->link_label[k], "%s", text.name);
  return CLI_OK;
}

int cli_numbers(int argc, char **argv) {
  lesson l;
  gs_flag_set none = {NULL, 0, NULL, NULL, NULL}; /* it takes no flag */
  int rc = cli_flags_or_help(&none, 1, argc, argv,
                             "usage: gpusplit numbers\n\nPrints every number the lesson quotes, computed from data/ by the cost model.\n", "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  if ((rc = load(&l)) != CLI_OK) return rc;
  print_settings(&l);
  print_models(&l);
  print_times(&l);
  print_page(&l);
  return model_failed ? CLI_FAILED : CLI_OK;
}
