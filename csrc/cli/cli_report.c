/* `gpusplit report`: the lesson's portfolio project, past the lesson. For one model,
 * GPU, link and plan: the fewest GPUs that fit, the best count, and a row per count, as
 * a table or as JSON; or, with --explain --gpus N, the sums for one count. */
#include <string.h>

#include "cli.h"

/* The three searches; each is 0 when no count up to max_n fits. */
typedef struct {
  uint64_t fewest, best, best_dividing_heads;
} searches;

static gs_plan plan_of(const cli_report_options *o, uint64_t gpus) {
  gs_plan p = o->plan;
  p.gpus = gpus;
  return p;
}

/* The fewest counts that fit; with --divide-heads, among those that divide the heads. */
static int fewest(const cli_report_options *o, uint64_t *out) {
  gs_plan p = plan_of(o, 1);
  int rc;
  *out = 0;
  rc = gs_fewest_n(&o->model, &o->gpu, &p, o->max_n, o->divide_heads, out);
  return rc == GS_ERR_NONE_FITS ? GS_OK : rc;
}

static int search(const cli_report_options *o, searches *out) {
  gs_plan p = plan_of(o, 1);
  int rc;
  memset(out, 0, sizeof *out);
  if ((rc = fewest(o, &out->fewest)) != GS_OK) return rc;
  if (!o->divide_heads &&
      (rc = gs_best_n(&o->model, &o->gpu, &o->link, &p, o->max_n, 0, &out->best)) != GS_OK && rc != GS_ERR_NONE_FITS)
    return rc;
  if ((rc = gs_best_n(&o->model, &o->gpu, &o->link, &p, o->max_n, 1, &out->best_dividing_heads)) != GS_OK &&
      rc != GS_ERR_NONE_FITS)
    return rc;
  if (o->divide_heads) out->best = out->best_dividing_heads;
  return GS_OK;
}

static void print_count_or_none(FILE *f, uint64_t n, const char *none) {
  if (n) fprintf(f, "%llu", (unsigned long long)n);
  else fputs(none, f);
}

static void json_link(const gs_link *l, const gs_hardware_text *t) {
  printf("{\"key\":");
  cli_json_string(stdout, t->key);
  printf(",\"name\":");
  cli_json_string(stdout, t->name);
  printf(",\"kind\":\"%s\",\"bandwidth\":", gs_link_kind_name(l->kind));
  cli_json_double(stdout, l->bandwidth);
  printf(",\"step_us\":");
  cli_json_double(stdout, l->step_us);
  printf(",\"base_us\":");
  cli_json_double(stdout, l->base_us);
  printf("}");
}

/* The achieved efficiency (all 0: off, the peaks) and the prompt, issue 19. */
static void print_json_efficiency(const cli_report_options *o) {
  const gs_efficiency *e = &o->plan.efficiency;
  printf(",\"efficiency\":{\"from\":");
  if (o->efficiency_text[0]) cli_json_string(stdout, o->efficiency_text);
  else printf("null");
  printf(",\"bandwidth_share\":");
  cli_json_double(stdout, e->bandwidth_share);
  printf(",\"layer_us\":");
  cli_json_double(stdout, e->layer_us);
  printf(",\"flops_share\":");
  cli_json_double(stdout, e->flops_share);
  printf(",\"allreduce_us\":");
  cli_json_double(stdout, e->allreduce_us);
  printf("},\"prompt_tokens\":");
  print_count_or_none(stdout, o->plan.prompt_tokens, "null");
}

static void print_json(const cli_report_options *o, const searches *found) {
  size_t i;
  const gs_model *m = &o->model;
  const gs_plan *s = &o->plan;
  printf("{\"model\":{\"name\":");
  cli_json_string(stdout, o->model_name);
  printf(",\"type\":");
  cli_json_string(stdout, m->type);
  printf(",\"params\":%llu,\"weight_bytes\":%llu,\"stored_bytes\":%llu,\"active_params\":%llu,"
         "\"cache_bytes_per_token\":%llu,\"layers\":%llu,\"hidden\":%llu,\"heads\":%llu,\"kv_heads\":%llu,"
         "\"head_dim\":%llu,\"experts\":%llu,\"experts_per_token\":%llu,\"window\":%llu,\"bits\":%llu,\"note\":",
         (unsigned long long)m->params, (unsigned long long)m->stored_bytes, (unsigned long long)m->stored_bytes,
         (unsigned long long)m->active_params, (unsigned long long)(m->cache_full_bytes + m->cache_window_bytes),
         (unsigned long long)m->layers, (unsigned long long)m->hidden, (unsigned long long)m->heads,
         (unsigned long long)m->kv_heads, (unsigned long long)m->head_dim, (unsigned long long)m->experts,
         (unsigned long long)m->experts_per_token, (unsigned long long)m->window, (unsigned long long)o->bits);
  cli_json_string(stdout, m->note);
  printf("},\"gpu\":{\"key\":");
  cli_json_string(stdout, o->gpu_text.key);
  printf(",\"name\":");
  cli_json_string(stdout, o->gpu_text.name);
  printf(",\"arch\":\"%s\",\"gib\":", gs_arch_name(o->gpu.arch));
  cli_json_double(stdout, o->gpu.gib);
  printf(",\"usable\":");
  cli_json_double(stdout, o->gpu.usable);
  printf(",\"usable_bytes\":%llu,\"bandwidth\":", (unsigned long long)gs_usable_bytes(&o->gpu));
  cli_json_double(stdout, o->gpu.bandwidth);
  printf(",\"flops\":");
  cli_json_double(stdout, o->gpu.flops);
  printf("},\"link\":");
  json_link(&o->link, &o->link_text);
  printf(",\"between\":");
  json_link(&s->between, &o->between_text);
  printf(",\"per_server\":");
  print_count_or_none(stdout, s->per_server, "null");
  printf(",\"split\":\"%s\",\"words\":%llu,\"chat_tokens\":%llu,\"cache_bits\":%llu,\"cache_per_chat\":%s,\"nccl\":\"%s\","
         "\"overlap\":%s,\"read_cache\":%s,\"divide_heads\":%s,\"max_n\":%llu,\"fewest\":",
         gs_split_name(s->split), (unsigned long long)s->words, (unsigned long long)s->chat_tokens,
         (unsigned long long)s->cache_bits, s->cache_per_chat ? "true" : "false", s->nccl == GS_NCCL_AUTO ? "auto" : "lesson",
         s->overlap ? "true" : "false", s->read_cache ? "true" : "false", o->divide_heads ? "true" : "false",
         (unsigned long long)o->max_n);
  print_count_or_none(stdout, found->fewest, "null");
  printf(",\"best\":");
  print_count_or_none(stdout, found->best, "null");
  printf(",\"best_dividing_heads\":");
  print_count_or_none(stdout, found->best_dividing_heads, "null");
  print_json_efficiency(o);
  printf(",\"rows\":[");
  for (i = 0; i < o->count_n; i++) {
    gs_cost_result c;
    gs_plan p = plan_of(o, o->counts[i]);
    gs_time t;
    gs_cost(m, &o->gpu, &o->link, &p, &c, NULL);
    t = c.time;
    printf("%s{\"gpus\":%llu,\"servers\":%llu,\"fits\":%s,\"read_bytes\":%llu,\"memory\":{\"weights\":%llu,\"cache\":%llu,"
           "\"working\":%llu,\"total\":%llu},\"protocol\":",
           i ? "," : "", (unsigned long long)p.gpus, (unsigned long long)c.servers, c.fits ? "true" : "false",
           (unsigned long long)c.read_bytes, (unsigned long long)c.memory.weights, (unsigned long long)c.memory.cache,
           (unsigned long long)c.memory.working, (unsigned long long)c.memory.total);
    if (c.protocol == GS_PROTO_NONE) printf("null");
    else printf("\"%s\"", gs_protocol_name(c.protocol));
    printf(",\"time\":{\"read\":");
    cli_json_double(stdout, t.read);
    printf(",\"transfer\":");
    cli_json_double(stdout, t.transfer);
    printf(",\"total\":");
    cli_json_double(stdout, t.total);
    printf(",\"share\":");
    cli_json_double(stdout, t.share);
    printf(",\"swap\":");
    cli_json_double(stdout, c.swap);
    printf(",\"words_per_s\":");
    cli_json_double(stdout, t.words_per_s);
    printf(",\"total_words_per_s\":");
    cli_json_double(stdout, t.total_words_per_s);
    printf(",\"first_word\":");
    if (p.prompt_tokens) cli_json_double(stdout, c.first_word);
    else printf("null");
    printf("},\"bound\":\"%s\"}", gs_bound_name(c.bound));
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

static const char *split_words(int split) {
  return split == GS_SLICES ? "slices of every layer (tensor parallel)"
         : split == GS_GROUPS ? "groups of layers (pipeline)"
                              : "slices within each server, groups of layers across servers";
}

static void print_header(const cli_report_options *o) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], c2[GS_FIGURE_CAP];
  const gs_model *m = &o->model;
  const gs_plan *s = &o->plan;
  fputs("Model: ", stdout);
  cli_put_text(stdout, o->model_name); /* a path the user gave */
  printf(" (%s), %s weights, %s GiB %s, %llu layers, hidden %llu, %llu heads, %llu key/value heads\n", m->type,
         gs_grouped(a, sizeof a, m->params), gs_fixed(b, sizeof b, (double)m->stored_bytes / (double)GS_GIB, 2),
         storage_words(o, c, sizeof c), (unsigned long long)m->layers, (unsigned long long)m->hidden,
         (unsigned long long)m->heads, (unsigned long long)m->kv_heads);
  if (m->experts)
    printf("Experts: %llu of %llu a token; %s weights active a token. Words at once read the experts they pick: "
           "a planning assumption of uniform, independent choices\n",
           (unsigned long long)m->experts_per_token, (unsigned long long)m->experts, gs_grouped(a, sizeof a, m->active_params));
  if (m->window) printf("Sliding window: %llu tokens on some layers\n", (unsigned long long)m->window);
  if (m->cache_latent) printf("Attention cache: a compressed latent that every slice holds whole\n");
  if (m->note[0]) printf("Counted %s\n", m->note);
  printf("GPU: %s, %s GiB, ", o->gpu_text.name, gs_plain(a, sizeof a, o->gpu.gib));
  printf("%s GiB usable, %s GB/s, %s TFLOP/s\n", gs_fixed(a, sizeof a, (double)gs_usable_bytes(&o->gpu) / (double)GS_GIB, 1),
         gs_fixed_grouped(b, sizeof b, o->gpu.bandwidth / 1e9, 0), gs_fixed_grouped(c, sizeof c, o->gpu.flops / 1e12, 0));
  printf("Link: %s, %s GB/s, ", o->link_text.name, gs_fixed_grouped(a, sizeof a, o->link.bandwidth / 1e9, 0));
  printf("%s us a step, base %s us\n", gs_plain(b, sizeof b, o->link.step_us), gs_plain(c, sizeof c, o->link.base_us));
  if (o->link_from_gpus)
    printf("Link fitted to a log of %llu GPUs: its regime for %s-byte messages; NCCL's base latency held, the step "
           "latency solved as (fitted latency - base) / 2(n - 1)\n",
           (unsigned long long)o->link_from_gpus, gs_grouped(a, sizeof a, gs_message_bytes(m) * s->words));
  if (s->per_server)
    printf("Servers: %llu GPUs each, joined by %s, %s GB/s, %s us a step\n", (unsigned long long)s->per_server,
           o->between_text.name, gs_fixed_grouped(a, sizeof a, s->between.bandwidth / 1e9, 0), gs_plain(b, sizeof b, s->between.step_us));
  printf("Split: %s; %llu chat%s at once, each getting a word a step\n", split_words(s->split), (unsigned long long)s->words,
         s->words == 1 ? "" : "s");
  printf("Cache: %s tokens a chat at %llu bits, %s\n", gs_grouped(a, sizeof a, s->chat_tokens), (unsigned long long)s->cache_bits,
         s->cache_per_chat ? "one for each chat" : "one chat's (the lesson's)");
  if (s->nccl == GS_NCCL_AUTO)
    printf("All-reduce: NCCL's cheapest ring protocol (v2.30.7 tuning tables; Tree, NVLS and CollNet left out)\n");
  if (s->overlap) printf("Overlap: each layer's all-reduce hides behind the next layer's reading\n");
  if (s->read_cache) printf("Each step also reads every chat's cache\n");
  if (o->divide_heads) printf("Only counts that divide the %llu heads\n", (unsigned long long)m->heads);
  if (o->efficiency_text[0]) {
    const gs_efficiency *e = &o->plan.efficiency;
    printf("Achieved efficiency: ");
    cli_put_text(stdout, o->efficiency_text);
    printf(": %s of the bandwidth, %s us a layer a step, %s of the FLOP/s in a prefill, all-reduces +%s us\n",
           e->bandwidth_share > 0 ? gs_plain(a, sizeof a, e->bandwidth_share) : "all", gs_plain(b, sizeof b, e->layer_us),
           e->flops_share > 0 ? gs_plain(c, sizeof c, e->flops_share) : "all", gs_plain(c2, sizeof c2, e->allreduce_us));
  }
  if (s->prompt_tokens)
    printf("First word: each chat's prompt of %s tokens%s\n", gs_grouped(a, sizeof a, s->prompt_tokens),
           s->words == 1 ? "" : ", the chats' prompts prefilled together");
}

static void print_table(const cli_report_options *o, const searches *found) {
  size_t i;
  const gs_model *m = &o->model;
  print_header(o);
  printf("Fewest GPUs that fit (up to %llu): ", (unsigned long long)o->max_n);
  print_count_or_none(stdout, found->fewest, "none");
  printf("\nBest GPU count (up to %llu): ", (unsigned long long)o->max_n);
  print_count_or_none(stdout, found->best, "none");
  printf("\nBest count that divides the %llu heads: ", (unsigned long long)m->heads);
  print_count_or_none(stdout, found->best_dividing_heads, "none");
  printf("\n\n%5s %12s %10s %12s %10s %5s %10s %10s %10s %8s %9s %11s %9s", "GPUs", "weights GiB", "cache GiB", "working GiB",
         "total GiB", "fits", "read ms", "wait ms", "total ms", "waiting", "words/s", "all words/s", "bound");
  printf(o->plan.prompt_tokens ? " %12s\n" : "\n", "first word ms");
  for (i = 0; i < o->count_n; i++) {
    gs_view v;
    gs_cost_result c;
    gs_plan p = plan_of(o, o->counts[i]);
    char w[GS_FIGURE_CAP], ca[GS_FIGURE_CAP], k[GS_FIGURE_CAP], mm[GS_FIGURE_CAP], r[GS_FIGURE_CAP], x[GS_FIGURE_CAP],
        t[GS_FIGURE_CAP];
    gs_view_make(m, &o->gpu, &o->link, &p, &v, NULL);
    gs_cost(m, &o->gpu, &o->link, &p, &c, NULL);
    printf("%5llu %12s %10s %12s %10s %5s", (unsigned long long)p.gpus, bare(w, v.weights), bare(ca, v.cache), bare(k, v.working),
           bare(mm, v.memory), v.fits ? "yes" : "no");
    if (v.fits)
      printf(" %10s %10s %10s %8s %9s %11s %9s", bare(r, v.read), bare(x, v.transfer), bare(t, v.time), v.waiting, v.words_per_s,
             v.words_all, gs_bound_name(c.bound));
    else
      printf(" %10s %10s %10s %8s %9s %11s %9s", "-", "-", "-", "-", "-", "-", "-");
    if (o->plan.prompt_tokens) printf(" %12s", v.fits ? gs_fixed_grouped(r, sizeof r, c.first_word * 1e3, 2) : "-");
    if (o->plan.nccl == GS_NCCL_AUTO && v.fits) printf("  %s", gs_protocol_name(c.protocol));
    if (c.servers > 1) printf("  %llu servers", (unsigned long long)c.servers);
    printf("\n");
  }
  printf("\nA row that does not fit shows no time: its weights, cache and working memory exceed the usable memory.\n");
  printf("words/s is for each chat; all words/s, for the %llu chat%s together.\n", (unsigned long long)o->plan.words,
         o->plan.words == 1 ? "" : "s");
  printf("bound: what sets the step: reading the memory, computing, or waiting on the link.\n");
}

static int print_explain(const cli_report_options *o) {
  char text[GS_EXPLAIN_CAP];
  gs_plan p = plan_of(o, o->explain_gpus);
  gs_error err;
  if (gs_explain(&o->model, &o->gpu, &o->link, &p, text, sizeof text, &err) != GS_OK) return cli_bad_error("--explain", &err);
  print_header(o);
  printf("\n");
  fputs(text, stdout);
  return CLI_OK;
}

int cli_report(int argc, char **argv) {
  cli_report_options o;
  searches found;
  int rc = cli_report_parse(argc, argv, &o);
  if (rc != CLI_OK) return rc == CLI_BAD_INPUT ? CLI_BAD_INPUT : CLI_OK;
  if (o.explain_gpus) return print_explain(&o);
  if ((rc = search(&o, &found)) != GS_OK) return cli_bad("report: the model could not price this split (status %d)", rc);
  if (o.json) print_json(&o, &found);
  else print_table(&o, &found);
  return CLI_OK;
}
