/* `gpusplit numbers`: every number the lesson quotes, grouped like its show_numbers.py,
 * then the page's own sentences with their figures, section by section. Every figure is
 * computed here from the model; the words around them are the lesson's. */
#include <string.h>

#include "cli.h"
#include "internal.h"

enum { M8 = GS_LESSON_8B, M70 = GS_LESSON_70B, M405 = GS_LESSON_405B, MODELS = GS_LESSON_MODELS };
enum { FAST = GS_LESSON_FAST, SLOW = GS_LESSON_SLOW, LINKS = GS_LESSON_LINKS };
typedef gs_lesson lesson;

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

static void print_settings(lesson *l) {
  int k;
  printf("GPU: %s GiB, %s GiB usable (%s of its %s GiB), %s GB/s, %s TFLOP/s\n", gs_plain(slot(), 64, l->gpu.gib),
         fixed((double)gs_usable_bytes(&l->gpu) / (double)GS_GIB, 1), pct(l->gpu.usable, 0), gs_plain(slot(), 64, l->gpu.gib),
         gs_fixed_grouped(slot(), 64, l->gpu.bandwidth / 1e9, 0), fixed(l->gpu.flops / 1e12, 0));
  for (k = 0; k < LINKS; k++)
    printf("%s: %s GB/s, %s us a step, base %s us\n", l->link_label[k], fixed(l->link[k].bandwidth / 1e9, 0),
           gs_plain(slot(), 64, l->link[k].step_us), gs_plain(slot(), 64, l->link[k].base_us));
}

static void print_models(lesson *l) {
  int m;
  size_t i;
  printf("\n== Models (16 bits)\n");
  for (m = 0; m < MODELS; m++) {
    const gs_model *s = &l->shape[m];
    printf("%s: %s weights, %s GiB, %llu layers, hidden %llu, %llu heads, %llu key/value heads, message %s bytes, "
           "%llu swaps a word, fewest GPUs %llu\n",
           GS_MODELS[m].name, grouped(s->params), gib(s->stored_bytes), u(s->layers), u(s->hidden), u(s->heads),
           u(s->kv_heads), grouped(gs_message_bytes(s)), u(gs_swaps_per_word(s)), u(gs_lesson_fewest(l, m)));
  }
  printf("\n== Memory per GPU in GiB: weights + cache + working = total, fits\n");
  for (m = 0; m < MODELS; m++) {
    for (i = 0; i < GS_COUNT_COUNT; i++) {
      gs_memory mem;
      mem = gs_lesson_memory(l, m, GS_COUNTS[i]);
      printf("%s x%llu: %s + %s + %s = %s fits=%s\n", GS_MODELS[m].name, u(GS_COUNTS[i]), gib(mem.weights), gib(mem.cache),
             gib(mem.working), gib(mem.total), yes_no(gs_lesson_fits(l, m, GS_COUNTS[i])));
    }
  }
}

static void print_times(lesson *l) {
  int m, k;
  size_t i, w;
  printf("\n== One word, one user, GPUs slice every layer: read ms | wait ms | total ms | wait share | words/s\n");
  for (m = 0; m < MODELS; m++)
    for (i = 0; i < GS_COUNT_COUNT; i++)
      for (k = 0; k < LINKS; k++) {
        gs_time t = gs_lesson_time(l, m, GS_COUNTS[i], &l->link[k], GS_SLICES, 1);
        printf("%s x%llu %s: %s | %s | %s | %s | %s\n", GS_MODELS[m].name, u(GS_COUNTS[i]), l->link_label[k], ms(t.read),
               ms(t.transfer), ms(t.total), pct(t.share, 1), fixed(t.words_per_s, 1));
      }
  printf("\n== Best whole-number GPU count (any count that fits, up to 64), by words at once: fast/slow\n");
  for (m = 0; m < MODELS; m++) {
    printf("%s:", GS_MODELS[m].name);
    for (w = 0; w < GS_WORDS_COUNT; w++)
      printf(" %llu word%s %llu/%llu;", u(GS_WORDS[w]), GS_WORDS[w] == 1 ? "" : "s", u(gs_lesson_best(l, m, FAST, GS_WORDS[w], 0)), u(gs_lesson_best(l, m, SLOW, GS_WORDS[w], 0)));
    printf("\n");
  }
  printf("\n== Best GPU count that divides the model's attention heads (up to 64), one user: fast/slow\n");
  for (m = 0; m < MODELS; m++)
    printf("%s, %llu heads: %llu/%llu\n", GS_MODELS[m].name, u(l->shape[m].heads), u(gs_lesson_best(l, m, FAST, 1, 1)),
           u(gs_lesson_best(l, m, SLOW, 1, 1)));
  printf("\n== Best of the counts the page offers (1, 2, 4, 8, 16), one user: fast/slow\n");
  for (m = 0; m < MODELS; m++)
    printf("%s: %llu/%llu\n", GS_MODELS[m].name, u(gs_lesson_best_offered(l, m, FAST)), u(gs_lesson_best_offered(l, m, SLOW)));
  printf("\n== 8B: speed-up of each doubling, by link\n");
  for (k = 0; k < LINKS; k++) {
    printf("%s:", l->link_label[k]);
    for (i = 0; i + 1 < GS_COUNT_COUNT; i++) printf(" x%s", fixed(gs_lesson_total(l, M8, GS_COUNTS[i], k, 1) / gs_lesson_total(l, M8, GS_COUNTS[i + 1], k, 1), 2));
    printf("\n");
  }
  printf("\n== 70B on 8 GPUs, words at once: total ms | wait share\n");
  for (w = 0; w < GS_WORDS_COUNT; w++)
    printf("%llu: %s %s | %s  %s %s | %s\n", u(GS_WORDS[w]), l->link_label[FAST], ms(gs_lesson_total(l, M70, 8, FAST, GS_WORDS[w])),
           pct(gs_lesson_share(l, M70, 8, FAST, GS_WORDS[w]), 1), l->link_label[SLOW], ms(gs_lesson_total(l, M70, 8, SLOW, GS_WORDS[w])),
           pct(gs_lesson_share(l, M70, 8, SLOW, GS_WORDS[w]), 1));
  printf("\n== Layer groups (pipeline), one user: total ms | wait share\n");
  for (m = 0; m < MODELS; m++)
    for (i = 0; i < GS_COUNT_COUNT; i++) {
      gs_time f = gs_lesson_time(l, m, GS_COUNTS[i], &l->link[FAST], GS_GROUPS, 1), s = gs_lesson_time(l, m, GS_COUNTS[i], &l->link[SLOW], GS_GROUPS, 1);
      printf("%s x%llu: fast %s | %s slow %s | %s one GPU busy at a time: %s of GPUs\n", GS_MODELS[m].name, u(GS_COUNTS[i]),
             ms(f.total), pct(f.share, 2), ms(s.total), pct(s.share, 2), pct(1.0 / (double)GS_COUNTS[i], 1));
    }
  printf("\n== If the sheet's link rates count both directions (halve them), 70B on 8 GPUs, total ms: as written -> halved\n");
  for (w = 1; w <= 64; w += 63)
    for (k = 0; k < LINKS; k++)
      printf("%llu word%s, %s: %s -> %s (%s more)\n", u(w), w == 1 ? "" : "s", l->link_label[k], ms(gs_lesson_total(l, M70, 8, k, w)),
             ms(gs_lesson_halved(l, M70, 8, k, w)), pct(gs_lesson_halved(l, M70, 8, k, w) / gs_lesson_total(l, M70, 8, k, w) - 1, 0));
}

/* A list of shares "a, b, c and d" for the counts after the first, or for the words. */
static const char *share_list(lesson *l, int m, int link, int by_words) {
  char list[64], *s = slot();
  size_t i, first = by_words ? 0 : 1, end = by_words ? GS_WORDS_COUNT : GS_COUNT_COUNT;
  list[0] = '\0';
  for (i = first; i < end; i++) {
    double x = by_words ? gs_lesson_share(l, m, 8, link, GS_WORDS[i]) : gs_lesson_share(l, m, GS_COUNTS[i], link, 1);
    size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s", i == first ? "" : i + 1 == end ? " and " : ", ", pct(x, 1));
  }
  memcpy(s, list, sizeof list);
  return s;
}

/* The page: the weights must fit. */
static void page_fit(lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  const gs_model *s405 = &l->shape[M405];
  gs_memory m4 = gs_lesson_memory(l, M70, 4);
  gs_memory m2 = gs_lesson_memory(l, M70, 2);
  gs_memory m405 = gs_lesson_memory(l, M405, 16);
  gs_time t70_4 = gs_lesson_time(l, M70, 4, &l->link[FAST], GS_SLICES, 1);

  printf("\n== The page: the weights must fit\n");
  printf("A model with 70 billion weights takes %s GiB at 16 bits; one GPU can use %s GiB (%s of its %s GiB).\n", gib(s70->stored_bytes),
         fixed((double)gs_usable_bytes(&l->gpu) / (double)GS_GIB, 1), pct(l->gpu.usable, 0), gs_plain(slot(), 64, l->gpu.gib));
  printf("Split four ways, each GPU holds %s GiB. With the cache and working space: %s GiB each, %s ms a word and %s of that spent waiting.\n",
         gib(m4.weights), gib(m4.total), ms(t70_4.total), pct(t70_4.share, 1));
  printf("The 405B model takes %s GiB and needs at least %llu GPUs; on 16: %s GiB each.\n", gib(s405->stored_bytes),
         u(gs_lesson_fewest(l, M405)), gib(m405.total));
  printf("The fewest GPUs that fit are %llu for the 8B model, %llu for the 70B and %llu for the 405B.\n", u(gs_lesson_fewest(l, M8)),
         u(gs_lesson_fewest(l, M70)), u(gs_lesson_fewest(l, M405)));
  printf("With two GPUs each holds about %s GiB of weights, and with the chat's cache and working space %s GiB.\n", gib(m2.weights),
         gib(m2.total));
}

/* The page: the memory sum, by hand (70B on 4 GPUs). */
static void page_memory_sum(lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  gs_memory m4 = gs_lesson_memory(l, M70, 4);

  printf("\n== The page: the memory sum, by hand (70B on 4 GPUs, bytes)\n");
  printf("Weights: %s x 2 / 4 = %s. Cache: %s bytes a token, %s for the chat, shared by key/value head: %s.\n",
         grouped(s70->params), grouped(m4.weights), grouped(gs_cache_bytes_per_token(s70)),
         grouped(gs_cache_bytes_per_token(s70) * GS_CHAT_TOKENS), grouped(m4.cache));
  printf("Working space: %s plus a 1 GiB allowance, %s in all. The sum is %s bytes, or %s GiB.\n",
         grouped(gs_lesson_activation_bytes(l, M70)), grouped(m4.working), grouped(m4.total), gib(m4.total));
  printf("Each model has %llu key/value heads, so past %llu GPUs each GPU keeps a copy of one.\n", u(s70->kv_heads), u(s70->kv_heads));
}

/* The page: slicing every layer, and the swap. */
static void page_slices(lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  const gs_model *s405 = &l->shape[M405];
  gs_time t70_4 = gs_lesson_time(l, M70, 4, &l->link[FAST], GS_SLICES, 1);
  double sent = gs_ring_sent_share(4) * (double)gs_message_bytes(&l->shape[M70]); /* each GPU of a ring of 4 sends 2(n - 1)/n of the message */

  printf("\n== The page: slicing every layer, and the swap\n");
  printf("One GPU would need %s ms to read the 70B model's weights; four GPUs each read a quarter, in %s ms.\n",
         ms(gs_lesson_read_time(l, M70, 1)), ms(gs_lesson_read_time(l, M70, 4)));
  printf("%llu swaps for every word of the 70B model, each message %s bytes, about %s microseconds of start-up on 4 GPUs: the %llu swaps cost %s ms.\n",
         u(gs_swaps_per_word(s70)), grouped(gs_message_bytes(s70)), fixed(gs_lesson_allreduce_us(l, M70, 1, 4, FAST), 0),
         u(gs_swaps_per_word(s70)), ms(t70_4.transfer));
  printf("Each GPU sends %s x %s = %s bytes; the start-up is %s microseconds and sending takes %s microseconds, so a swap takes %s.\n",
         fixed(gs_ring_sent_share(4), 1), grouped(gs_message_bytes(s70)), gs_fixed_grouped(slot(), 64, sent, 0),
         fixed(gs_ring_startup_us(&l->link[FAST], 4), 1), fixed(sent / l->link[FAST].bandwidth * 1e6, 3),
         fixed(gs_lesson_allreduce_us(l, M70, 1, 4, FAST), 2));
  printf("Start-up is %s of it.\n", pct((gs_ring_startup_us(&l->link[FAST], 4)) / gs_lesson_allreduce_us(l, M70, 1, 4, FAST), 1));
  printf("With 64 words in each swap on 8 GPUs, a swap takes %s microseconds on the fast link and %s on the slow one.\n",
         fixed(gs_lesson_allreduce_us(l, M70, 64, 8, FAST), 2), fixed(gs_lesson_allreduce_us(l, M70, 64, 8, SLOW), 2));
  printf("The 405B model: %llu for each word, each message %s bytes.\n", u(gs_swaps_per_word(s405)),
         grouped(gs_message_bytes(s405)));
  printf("At 2, 4, 8 and 16 GPUs the waiting takes %s, %s, %s and %s of each word.\n", pct(gs_lesson_share(l, M70, 2, FAST, 1), 1),
         pct(gs_lesson_share(l, M70, 4, FAST, 1), 1), pct(gs_lesson_share(l, M70, 8, FAST, 1), 1), pct(gs_lesson_share(l, M70, 16, FAST, 1), 1));
}

/* The page: when more GPUs stop helping (8B, fast link). */
static void page_stops_helping(lesson *l) {
  const gs_model *s8 = &l->shape[M8];
  gs_time t8_2 = gs_lesson_time(l, M8, 2, &l->link[FAST], GS_SLICES, 1);
  gs_time t8_16 = gs_lesson_time(l, M8, 16, &l->link[FAST], GS_SLICES, 1);
  double g1 = gs_lesson_total(l, M8, 1, FAST, 1);
  double g2 = gs_lesson_total(l, M8, 2, FAST, 1);
  double g4 = gs_lesson_total(l, M8, 4, FAST, 1);
  double g8 = gs_lesson_total(l, M8, 8, FAST, 1);
  double g16 = gs_lesson_total(l, M8, 16, FAST, 1);
  size_t i;

  printf("\n== The page: when more GPUs stop helping (8B, fast link)\n");
  printf("Words come %s, %s and %s times faster with each doubling from 1 GPU to 8, and %s times for the last doubling.\n",
         fixed(g1 / g2, 2), fixed(g2 / g4, 2), fixed(g4 / g8, 2), fixed(g8 / g16, 2));
  printf("Check one cell, 2 GPUs: each GPU reads %s bytes: %s ms. A message is %s bytes; start-up %s microseconds, sending %s microseconds: %s in all.\n",
         grouped(s8->stored_bytes / 2), ms(t8_2.read), grouped(gs_message_bytes(s8)),
         fixed(gs_ring_startup_us(&l->link[FAST], 2), 1),
         fixed((double)gs_message_bytes(s8) / l->link[FAST].bandwidth * 1e6, 3), fixed(gs_lesson_allreduce_us(l, M8, 1, 2, FAST), 2));
  printf("A word makes %llu swaps, %s ms. The total is %s + %s = %s ms, and waiting is %s of it.\n",
         u(gs_swaps_per_word(s8)), ms(t8_2.transfer), ms(t8_2.read), ms(t8_2.transfer), ms(t8_2.total),
         pct(t8_2.share, 1));
  printf("Past 8 GPUs the waiting (%s ms on the fast link) outgrows the reading (%s ms).\n", ms(t8_16.transfer), ms(t8_16.read));
  printf("| GPUs | Fast link | Slow link |\n");
  for (i = 0; i < GS_COUNT_COUNT; i++)
    printf("| %llu | %s | %s |\n", u(GS_COUNTS[i]), ms(gs_lesson_total(l, M8, GS_COUNTS[i], FAST, 1)), ms(gs_lesson_total(l, M8, GS_COUNTS[i], SLOW, 1)));
  printf("Waiting takes %s of a word on the fast link at 2, 4, 8 and 16 GPUs, and %s on the slow link.\n", share_list(l, M8, FAST, 0),
         share_list(l, M8, SLOW, 0));
  printf("The fastest count for one user is %llu on the fast link and %llu on the slow one for the 8B model, %llu and %llu for the 70B model, %llu and %llu for the 405B.\n",
         u(gs_lesson_best(l, M8, FAST, 1, 0)), u(gs_lesson_best(l, M8, SLOW, 1, 0)), u(gs_lesson_best(l, M70, FAST, 1, 0)), u(gs_lesson_best(l, M70, SLOW, 1, 0)),
         u(gs_lesson_best(l, M405, FAST, 1, 0)), u(gs_lesson_best(l, M405, SLOW, 1, 0)));
  printf("Among the counts the page offers, %llu is best for the 8B model and %llu for the others on both links.\n",
         u(gs_lesson_best_offered(l, M8, FAST)), u(gs_lesson_best_offered(l, M70, FAST)));
  printf("The 70B model gets %s times faster, from %s to %s ms a word on the fast link, and the 8B model gets slower, from %s to %s words a second.\n",
         fixed(gs_lesson_total(l, M70, 8, FAST, 1) / gs_lesson_total(l, M70, 16, FAST, 1), 2), ms(gs_lesson_total(l, M70, 8, FAST, 1)), ms(gs_lesson_total(l, M70, 16, FAST, 1)),
         fixed(1 / g8, 0), fixed(1 / g16, 0));
  printf("Words a second, 8B, 8 to 16 GPUs: from %s to %s and the slow link %s to %s.\n", fixed(1 / g8, 0), fixed(1 / g16, 0),
         fixed(1 / gs_lesson_total(l, M8, 8, SLOW, 1), 0), fixed(1 / gs_lesson_total(l, M8, 16, SLOW, 1), 0));
}

/* The page: many words at once (70B on 8 GPUs). */
static void page_many_words(lesson *l) {
  size_t i;

  printf("\n== The page: many words at once (70B on 8 GPUs)\n");
  printf("For one user the link matters little: the 70B model on 8 GPUs takes %s ms a word on the fast link and %s ms on the slow one.\n", ms(gs_lesson_total(l, M70, 8, FAST, 1)),
         ms(gs_lesson_total(l, M70, 8, SLOW, 1)));
  printf("With 64 words in each swap, the same split takes %s ms on the fast link and %s ms on the slow one.\n",
         ms(gs_lesson_total(l, M70, 8, FAST, 64)), ms(gs_lesson_total(l, M70, 8, SLOW, 64)));
  printf("| Words | Fast link | Slow link |\n");
  for (i = 0; i < GS_WORDS_COUNT; i++)
    printf("| %llu | %s | %s |\n", u(GS_WORDS[i]), ms(gs_lesson_total(l, M70, 8, FAST, GS_WORDS[i])), ms(gs_lesson_total(l, M70, 8, SLOW, GS_WORDS[i])));
  printf("Waiting takes %s of the step on the fast link at 1, 16 and 64 words, and %s on the slow link.\n",
         share_list(l, M70, FAST, 1), share_list(l, M70, SLOW, 1));
  printf("The slow link costs %s ms more at 1 word and %s ms more at 64.\n", ms(gs_lesson_total(l, M70, 8, SLOW, 1) - gs_lesson_total(l, M70, 8, FAST, 1)),
         ms(gs_lesson_total(l, M70, 8, SLOW, 64) - gs_lesson_total(l, M70, 8, FAST, 64)));
  printf("For 64 words on 8 GPUs calculation takes %s ms, still under the %s ms of reading, and for one word on one GPU "
         "calculation takes %s ms against %s ms of reading.\n",
         ms(gs_lesson_compute_time(l, M70, 8, 64)), ms(gs_lesson_read_time(l, M70, 8)), ms(gs_lesson_compute_time(l, M70, 1, 1)),
         ms(gs_lesson_read_time(l, M70, 1)));
  printf("If both figures count both directions, the 70B model on 8 GPUs goes from %s to %s ms on the fast link and from %s to %s ms on the slow one.\n",
         ms(gs_lesson_total(l, M70, 8, FAST, 1)), ms(gs_lesson_halved(l, M70, 8, FAST, 1)), ms(gs_lesson_total(l, M70, 8, SLOW, 1)), ms(gs_lesson_halved(l, M70, 8, SLOW, 1)));
  printf("With 64 words at once the slow link goes from %s to %s ms, %s more.\n", ms(gs_lesson_total(l, M70, 8, SLOW, 64)),
         ms(gs_lesson_halved(l, M70, 8, SLOW, 64)), pct(gs_lesson_halved(l, M70, 8, SLOW, 64) / gs_lesson_total(l, M70, 8, SLOW, 64) - 1, 0));
}

/* The page: groups of layers (70B on 4 GPUs, fast link). */
static void page_groups(lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  gs_time t70_4 = gs_lesson_time(l, M70, 4, &l->link[FAST], GS_SLICES, 1);
  gs_time groups = gs_lesson_time(l, M70, 4, &l->link[FAST], GS_GROUPS, 1);

  printf("\n== The page: groups of layers (70B on 4 GPUs, fast link)\n");
  printf("Waiting nearly vanishes: %s ms a word on four GPUs, against %s ms of reading alone, %s of it waiting.\n", ms(groups.total),
         ms(gs_lesson_read_time(l, M70, 1)), pct(groups.share, 2));
  printf("Each group reads in turn: 4 x %s = %s ms, plus 3 hand-offs of %s microseconds.\n", ms(gs_lesson_read_time(l, M70, 4)),
         ms(groups.read), fixed(gs_handoff_time(gs_message_bytes(s70), &l->link[FAST]) * 1e6, 1));
  printf("Slices against groups: %s ms against %s ms; each GPU's share read in %s ms.\n", ms(t70_4.total), ms(groups.total),
         ms(gs_lesson_read_time(l, M70, 4)));
}

/* The page: what the toy leaves out, and what the tests check. */
static void page_leaves_out(lesson *l) {
  const gs_model *s70 = &l->shape[M70];
  const gs_model *s8 = &l->shape[M8];
  const gs_model *s405 = &l->shape[M405];

  printf("\n== The page: what the toy leaves out, and what the tests check\n");
  printf("A word makes %llu, %llu and %llu swaps. The fewest GPUs that fit are %llu, %llu and %llu.\n",
         u(gs_swaps_per_word(s8)), u(gs_swaps_per_word(s70)),
         u(gs_swaps_per_word(s405)), u(gs_lesson_fewest(l, M8)), u(gs_lesson_fewest(l, M70)), u(gs_lesson_fewest(l, M405)));
  printf("Serving software needs the count to divide the attention heads, the %llu, %llu and %llu the three models have, so %llu GPUs is not a usable count.\n",
         u(s8->heads), u(s70->heads), u(s405->heads), u(gs_lesson_best(l, M70, FAST, 1, 0)));
  printf("Among the counts that do divide them, the fastest are %llu for the 8B model, %llu for the 70B and %llu for the 405B, on both links.\n",
         u(gs_lesson_best(l, M8, FAST, 1, 1)), u(gs_lesson_best(l, M70, FAST, 1, 1)), u(gs_lesson_best(l, M405, FAST, 1, 1)));
  printf("The best counts are %llu and %llu, %llu and %llu, and %llu and %llu; among the counts that divide the heads they are %llu, %llu and %llu.\n",
         u(gs_lesson_best(l, M8, FAST, 1, 0)), u(gs_lesson_best(l, M8, SLOW, 1, 0)), u(gs_lesson_best(l, M70, FAST, 1, 0)), u(gs_lesson_best(l, M70, SLOW, 1, 0)),
         u(gs_lesson_best(l, M405, FAST, 1, 0)), u(gs_lesson_best(l, M405, SLOW, 1, 0)), u(gs_lesson_best(l, M8, SLOW, 1, 1)), u(gs_lesson_best(l, M70, SLOW, 1, 1)),
         u(gs_lesson_best(l, M405, SLOW, 1, 1)));
}

/* The page, section by section: each sentence the lesson writes with a figure in it. */
static void print_page(lesson *l) {
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
  lesson l = {0};
  gs_flag_set none = {NULL, 0, NULL, NULL, NULL}; /* it takes no flag */
  int rc = cli_flags_or_help(&none, 1, argc, argv,
                             "usage: gpusplit numbers\n\nPrints every number the lesson quotes, computed from data/ by the cost model.\n", "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  if ((rc = load(&l)) != CLI_OK) return rc;
  print_settings(&l);
  print_models(&l);
  print_times(&l);
  print_page(&l);
  /* none is expected: the lesson's settings are all valid */
  if (l.failed) cli_bad("numbers: %s: %s: %s", l.failed, l.err.field, l.err.what);
  return l.failed ? CLI_FAILED : CLI_OK;
}
