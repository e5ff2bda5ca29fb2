/* `gpusplit report`: the lesson's portfolio project. For one model, GPU and link: the
 * fewest GPUs that fit, the best count, and a row per count, as a table or as JSON. */
#include <string.h>

#include "cli.h"

/* The three searches; each is 0 when no count up to max_n fits. */
typedef struct {
  uint64_t fewest, best, best_dividing_heads;
} searches;

static gs_plan plan_of(const cli_report_options *o, uint64_t gpus) {
  gs_plan p;
  p.gpus = gpus;
  p.split = o->split;
  p.words = o->words;
  return p;
}

static int search(const cli_report_options *o, searches *out) {
  gs_plan p = plan_of(o, 1);
  int rc;
  memset(out, 0, sizeof *out);
  if ((rc = gs_fewest_n(&o->model, &o->gpu, &p, o->max_n, &out->fewest)) != GS_OK && rc != GS_ERR_NONE_FITS) return rc;
  if ((rc = gs_best_n(&o->model, &o->gpu, &o->link, &p, o->max_n, 0, &out->best)) != GS_OK && rc != GS_ERR_NONE_FITS) return rc;
  if ((rc = gs_best_n(&o->model, &o->gpu, &o->link, &p, o->max_n, 1, &out->best_dividing_heads)) != GS_OK &&
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
  const gs_model *m = &o->model;
  printf("{\"model\":{\"name\":");
  cli_json_string(stdout, o->model_name);
  printf(",\"type\":");
  cli_json_string(stdout, m->type);
  printf(",\"params\":%llu,\"weight_bytes\":%llu,\"stored_bytes\":%llu,\"active_params\":%llu,"
         "\"cache_bytes_per_token\":%llu,\"layers\":%llu,\"hidden\":%llu,\"heads\":%llu,\"kv_heads\":%llu,"
         "\"head_dim\":%llu,\"experts\":%llu,\"experts_per_token\":%llu,\"window\":%llu,\"note\":",
         (unsigned long long)m->params, (unsigned long long)m->stored_bytes, (unsigned long long)m->stored_bytes,
         (unsigned long long)m->active_params, (unsigned long long)(m->cache_full_bytes + m->cache_window_bytes),
         (unsigned long long)m->layers, (unsigned long long)m->hidden, (unsigned long long)m->heads,
         (unsigned long long)m->kv_heads, (unsigned long long)m->head_dim, (unsigned long long)m->experts,
         (unsigned long long)m->experts_per_token, (unsigned long long)m->window);
  cli_json_string(stdout, m->note);
  printf("},");
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
    gs_cost_result c;
    gs_plan p = plan_of(o, o->counts[i]);
    gs_time t;
    gs_cost(m, &o->gpu, &o->link, &p, &c, NULL);
    t = c.time;
    printf("%s{\"gpus\":%llu,\"fits\":%s,\"read_bytes\":%llu,\"memory\":{\"weights\":%llu,\"cache\":%llu,\"working\":%llu,"
           "\"total\":%llu},\"time\":{\"read\":",
           i ? "," : "", (unsigned long long)p.gpus, c.fits ? "true" : "false", (unsigned long long)c.read_bytes,
           (unsigned long long)c.memory.weights, (unsigned long long)c.memory.cache, (unsigned long long)c.memory.working,
           (unsigned long long)c.memory.total);
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
static const char *bare(char out[GS_FIGURE_CAP], const char *figure) {
  snprintf(out, GS_FIGURE_CAP, "%.*s", (int)strcspn(figure, " "), figure);
  return out;
}

/* How the weights are stored, for the header: "at 16 bits", "as stored (mxfp4)". */
static const char *storage_words(const cli_report_options *o, char *buf, size_t cap) {
  if (o->bits) snprintf(buf, cap, "at %llu bits", (unsigned long long)o->bits);
  else if (o->model.stored_bytes == 2 * o->model.params) snprintf(buf, cap, "at 16 bits");
  else snprintf(buf, cap, "as the config stores them");
  return buf;
}

static void print_table(const cli_report_options *o, const searches *found) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP];
  size_t i;
  const gs_model *m = &o->model;
  fputs("Model: ", stdout);
  cli_put_text(stdout, o->model_name); /* a path the user gave */
  printf(" (%s), %s weights, %s GiB %s, %llu layers, hidden %llu, %llu heads, %llu key/value heads\n", m->type, gs_grouped(a, sizeof a, m->params),
         gs_fixed(b, sizeof b, (double)m->stored_bytes / (double)GS_GIB, 2), storage_words(o, c, sizeof c),
         (unsigned long long)m->layers, (unsigned long long)m->hidden, (unsigned long long)m->heads,
         (unsigned long long)m->kv_heads);
  if (m->experts)
    printf("Experts: %llu of %llu a token; %s weights active a token. Words at once read the experts they pick: "
           "a planning assumption of uniform, independent choices\n",
           (unsigned long long)m->experts_per_token, (unsigned long long)m->experts, gs_grouped(a, sizeof a, m->active_params));
  if (m->window) printf("Sliding window: %llu tokens on some layers\n", (unsigned long long)m->window);
  if (m->cache_latent) printf("Attention cache: a compressed latent that every slice holds whole\n");
  if (m->note[0]) printf("Counted %s\n", m->note);
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
  printf("\nBest count that divides the %llu heads: ", (unsigned long long)m->heads);
  print_count_or_none(stdout, found->best_dividing_heads, "none");
  printf("\n\n%5s %12s %10s %12s %10s %5s %10s %10s %10s %8s %9s\n", "GPUs", "weights GiB", "cache GiB", "working GiB",
         "total GiB", "fits", "read ms", "wait ms", "total ms", "waiting", "words/s");
  for (i = 0; i < o->count_n; i++) {
    gs_view v;
    gs_plan p = plan_of(o, o->counts[i]);
    char w[GS_FIGURE_CAP], ca[GS_FIGURE_CAP], k[GS_FIGURE_CAP], mm[GS_FIGURE_CAP], r[GS_FIGURE_CAP], x[GS_FIGURE_CAP],
        t[GS_FIGURE_CAP];
    gs_view_make(m, &o->gpu, &o->link, &p, &v, NULL);
    printf("%5llu %12s %10s %12s %10s %5s", (unsigned long long)p.gpus, bare(w, v.weights), bare(ca, v.cache), bare(k, v.working),
           bare(mm, v.memory), v.fits ? "yes" : "no");
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
