/* `gpusplit report`: the lesson's portfolio project. For one model, GPU and link: the
 * fewest GPUs that fit, the best count, and a row per count, as a table or as JSON. */
#include <string.h>

#include "cli.h"

/* The three searches; each is 0 when no count up to max_n fits. */
typedef struct {
  uint64_t fewest, best, best_dividing_heads;
} searches;

static int search(const cli_report_options *o, searches *out) {
  int rc;
  memset(out, 0, sizeof *out);
  if ((rc = gs_fewest_n(&o->shape, &o->gpu, o->max_n, &out->fewest)) != GS_OK && rc != GS_ERR_NONE_FITS) return rc;
  if ((rc = gs_best_n(&o->shape, &o->gpu, &o->link, o->split, o->words, o->max_n, 0, &out->best)) != GS_OK &&
      rc != GS_ERR_NONE_FITS)
    return rc;
  if ((rc = gs_best_n(&o->shape, &o->gpu, &o->link, o->split, o->words, o->max_n, 1, &out->best_dividing_heads)) != GS_OK &&
      rc != GS_ERR_NONE_FITS)
    return rc;
  return GS_OK;
}

static void print_count_or_none(FILE *f, uint64_t n, const char *none) {
  if (n) fprintf(f, "%llu", (unsigned long long)n);
  else fputs(none, f);
}

static void print_json(const cli_report_options *o, const searches *found) {
  size_t i;
  printf("{\"model\":{\"name\":");
  cli_json_string(stdout, o->model_name);
  printf(",\"params\":%llu,\"weight_bytes\":%llu,\"layers\":%llu,\"hidden\":%llu,\"heads\":%llu,\"kv_heads\":%llu,"
         "\"head_dim\":%llu},",
         (unsigned long long)gs_param_count(&o->shape), (unsigned long long)gs_weight_bytes(&o->shape),
         (unsigned long long)o->shape.layers, (unsigned long long)o->shape.hidden, (unsigned long long)o->shape.heads,
         (unsigned long long)o->shape.kv_heads, (unsigned long long)o->shape.head_dim);
  printf("\"gpu\":{\"gib\":");
  cli_json_double(stdout, o->gpu.gib);
  printf(",\"usable\":");
  cli_json_double(stdout, o->gpu.usable);
  printf(",\"usable_bytes\":%llu,\"bandwidth\":", (unsigned long long)gs_usable_bytes(&o->gpu));
  cli_json_double(stdout, o->gpu.bandwidth);
  printf(",\"flops\":");
  cli_json_double(stdout, o->gpu.flops);
  printf("},\"link\":{\"bandwidth\":");
  cli_json_double(stdout, o->link.bandwidth);
  printf(",\"step_us\":");
  cli_json_double(stdout, o->link.step_us);
  printf(",\"base_us\":");
  cli_json_double(stdout, o->link.base_us);
  printf("},\"split\":\"%s\",\"words\":%llu,\"fewest\":", gs_split_name(o->split), (unsigned long long)o->words);
  print_count_or_none(stdout, found->fewest, "null");
  printf(",\"best\":");
  print_count_or_none(stdout, found->best, "null");
  printf(",\"best_dividing_heads\":");
  print_count_or_none(stdout, found->best_dividing_heads, "null");
  printf(",\"rows\":[");
  for (i = 0; i < o->count_n; i++) {
    gs_memory m;
    gs_time t;
    uint64_t n = o->counts[i];
    gs_memory_per_gpu(&o->shape, n, &m);
    gs_word_time(&o->shape, &o->gpu, &o->link, n, o->split, o->words, &t);
    printf("%s{\"gpus\":%llu,\"fits\":%s,\"memory\":{\"weights\":%llu,\"cache\":%llu,\"working\":%llu,\"total\":%llu},"
           "\"time\":{\"read\":",
           i ? "," : "", (unsigned long long)n, gs_fits(&o->shape, &o->gpu, n) ? "true" : "false",
           (unsigned long long)m.weights, (unsigned long long)m.cache, (unsigned long long)m.working,
           (unsigned long long)m.total);
    cli_json_double(stdout, t.read);
    printf(",\"transfer\":");
    cli_json_double(stdout, t.transfer);
    printf(",\"total\":");
    cli_json_double(stdout, t.total);
    printf(",\"share\":");
    cli_json_double(stdout, t.share);
    printf(",\"words_per_s\":");
    cli_json_double(stdout, t.words_per_s);
    printf("}}");
  }
  printf("]}\n");
}

/* figure without the " GiB" or " ms" unit that its column heading gives. */
static const char *bare(char out[32], const char *figure) {
  snprintf(out, 32, "%.*s", (int)strcspn(figure, " "), figure);
  return out;
}

static void print_table(const cli_report_options *o, const searches *found) {
  char a[40], b[40], c[40];
  size_t i;
  printf("Model: %s, %s weights, %s GiB at 16 bits, %llu layers, hidden %llu, %llu heads, %llu key/value heads\n",
         o->model_name, gs_grouped(a, sizeof a, gs_param_count(&o->shape)),
         gs_fixed(b, sizeof b, (double)gs_weight_bytes(&o->shape) / (double)GS_GIB, 2), (unsigned long long)o->shape.layers,
         (unsigned long long)o->shape.hidden, (unsigned long long)o->shape.heads, (unsigned long long)o->shape.kv_heads);
  printf("GPU: %s GiB, ", gs_plain(a, sizeof a, o->gpu.gib));
  printf("%s GiB usable, %s GB/s, %s TFLOP/s\n", gs_fixed(a, sizeof a, (double)gs_usable_bytes(&o->gpu) / (double)GS_GIB, 1),
         gs_fixed_grouped(b, sizeof b, o->gpu.bandwidth / 1e9, 0), gs_fixed_grouped(c, sizeof c, o->gpu.flops / 1e12, 0));
  printf("Link: %s, %s GB/s, ", o->link_label, gs_fixed_grouped(a, sizeof a, o->link.bandwidth / 1e9, 0));
  printf("%s us a step, base %s us\n", gs_plain(b, sizeof b, o->link.step_us), gs_plain(c, sizeof c, o->link.base_us));
  printf("Split: %s; %llu word%s at once\n", o->split == GS_SLICES ? "slices of every layer (tensor parallel)" : "groups of layers (pipeline)",
         (unsigned long long)o->words, o->words == 1 ? "" : "s");
  printf("Fewest GPUs that fit (up to %llu): ", (unsigned long long)o->max_n);
  print_count_or_none(stdout, found->fewest, "none");
  printf("\nBest GPU count (up to %llu): ", (unsigned long long)o->max_n);
  print_count_or_none(stdout, found->best, "none");
  printf("\nBest count that divides the %llu heads: ", (unsigned long long)o->shape.heads);
  print_count_or_none(stdout, found->best_dividing_heads, "none");
  printf("\n\n%5s %12s %10s %12s %10s %5s %10s %10s %10s %8s %9s\n", "GPUs", "weights GiB", "cache GiB", "working GiB",
         "total GiB", "fits", "read ms", "wait ms", "total ms", "waiting", "words/s");
  for (i = 0; i < o->count_n; i++) {
    gs_view v;
    uint64_t n = o->counts[i];
    char w[32], ca[32], k[32], m[32], r[32], x[32], t[32];
    gs_view_make(&o->shape, &o->gpu, &o->link, n, o->split, o->words, &v);
    printf("%5llu %12s %10s %12s %10s %5s", (unsigned long long)n, bare(w, v.weights), bare(ca, v.cache), bare(k, v.working),
           bare(m, v.memory), v.fits ? "yes" : "no");
    if (v.fits)
      printf(" %10s %10s %10s %8s %9s\n", bare(r, v.read), bare(x, v.transfer), bare(t, v.time), v.waiting, v.words_per_s);
    else
      printf(" %10s %10s %10s %8s %9s\n", "-", "-", "-", "-", "-");
  }
  printf("\nA row that does not fit shows no time: its weights, cache and working memory exceed the usable memory.\n");
}

int cli_report(int argc, char **argv) {
  cli_report_options o;
  searches found;
  int rc = cli_report_parse(argc, argv, &o);
  if (rc != CLI_OK) return rc == CLI_BAD_INPUT ? CLI_BAD_INPUT : CLI_OK;
  if ((rc = search(&o, &found)) != GS_OK) return cli_bad("report: the model could not price this split (status %d)", rc);
  if (o.json) print_json(&o, &found);
  else print_table(&o, &found);
  return CLI_OK;
}
