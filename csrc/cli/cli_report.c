/* `gpusplit report`: the lesson's portfolio project, past the lesson. For one model,
 * GPU, link and plan: the fewest GPUs that fit, the best count, and a row per count, as
 * a table or as JSON; or, with --explain --gpus N, the sums for one count. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Every count up to max_n priced once (gs_sweep_run), and the rows to show: from the
 * sweep, or priced once each when --counts goes past max_n. */
typedef struct {
  gs_sweep_row *rows;
  gs_sweep found;
} sweep;

static int sweep_all(const cli_report_options *o, sweep *out) {
  gs_error err;
  size_t cap = (size_t)o->setting.max_n;
  out->rows = malloc(cap * sizeof *out->rows);
  if (!out->rows) return cli_bad("report: out of memory for a sweep of %zu counts", cap);
  if (gs_sweep_run(&o->setting, out->rows, cap, &out->found, &err) != GS_OK) {
    free(out->rows);
    return cli_bad_error("report", &err);
  }
  return CLI_OK;
}

/* Count i of the report priced: the sweep's cost when it holds it, else priced now. */
static int row(const cli_report_options *o, const sweep *sw, size_t i, gs_priced *out) {
  uint64_t n = o->counts[i];
  gs_error err;
  int rc = n <= sw->found.count && sw->rows[n - 1].allowed ? gs_priced_of(&o->setting, n, &sw->rows[n - 1].cost, out, &err)
                                                           : gs_price(&o->setting, n, out, &err);
  return rc == GS_OK ? CLI_OK : cli_bad_error("report", &err);
}

static void print_count_or_none(FILE *f, uint64_t n, const char *none) {
  if (n) fprintf(f, "%llu", (unsigned long long)n);
  else fputs(none, f);
}

static int print_json(const cli_report_options *o, const sweep *sw) {
  size_t i;
  gs_out head = cli_out(stdout);
  printf("{");
  gs_out_report_head(&head, &o->setting, &sw->found, o->efficiency_text);
  printf(",\"rows\":[");
  for (i = 0; i < o->count_n; i++) {
    gs_priced r;
    gs_out out = cli_out(stdout);
    int rc = row(o, sw, i, &r);
    if (rc != CLI_OK) return rc;
    printf("%s{", i ? "," : "");
    gs_out_setting(&out, &r, GS_OUT_NUMBERS);
    printf("}");
  }
  printf("]}\n");
  return CLI_OK;
}

/* figure without the " GiB" or " ms" unit that its column heading gives. */
static int bare(const char *figure) { return (int)strcspn(figure, " "); }

/* How the weights are stored, for the header: "at 16 bits", "as stored (mxfp4)". */
static const char *storage_words(const gs_setting *o, char *buf, size_t cap) {
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

static void print_header(const cli_report_options *options) {
  const gs_setting *o = &options->setting;
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], c2[GS_FIGURE_CAP], c3[GS_FIGURE_CAP];
  const gs_model *m = &o->model;
  const gs_plan *s = &o->plan;
  printf("Assumptions: %s\n", o->assumptions);
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
  printf("%s GiB usable, %s, %s\n", gs_fixed(a, sizeof a, (double)gs_usable_bytes(&o->gpu) / (double)GS_GIB, 1),
         gs_bytes_rate(b, sizeof b, o->gpu.bandwidth), gs_flops_rate(c, sizeof c, o->gpu.flops));
  printf("Link: %s, %s, ", o->link_text.name, gs_bytes_rate(a, sizeof a, o->link.bandwidth));
  printf("%s us a step, base %s us\n", gs_plain(b, sizeof b, o->link.step_us), gs_plain(c, sizeof c, o->link.base_us));
  if (o->fitted_gpus)
    printf("Link fitted to a log of %llu GPUs: its regime for %s-byte messages; NCCL's base latency held, the step "
           "latency solved as (fitted latency - base) / 2(n - 1)\n",
           (unsigned long long)o->fitted_gpus, gs_grouped(a, sizeof a, gs_message_bytes(m) * s->words));
  if (s->per_server)
    printf("Servers: %llu GPUs each, joined by %s, %s, %s us a step\n", (unsigned long long)s->per_server,
           o->between_text.name, gs_bytes_rate(a, sizeof a, s->between.bandwidth), gs_plain(b, sizeof b, s->between.step_us));
  printf("Split: %s; %llu chat%s at once, each getting a word a step\n", split_words(s->split), (unsigned long long)s->words,
         s->words == 1 ? "" : "s");
  if (s->experts == GS_EXPERTS_SPREAD)
    printf("Experts: spread, %llu / n whole on each of n GPUs; attention and every other weight copied on each "
           "(data-parallel), each GPU serving its own chats; a dispatch and a combine (all-to-all) in each of %llu MoE layers\n",
           (unsigned long long)m->experts, (unsigned long long)m->moe_layers);
  if (o->replicas > 1) printf("Replicas: %llu copies of each layout, each serving its own chats\n", (unsigned long long)o->replicas);
  if (o->gpu_hour > 0) printf("Price: %s an hour a GPU, as typed\n", gs_plain(a, sizeof a, o->gpu_hour));
  if (gs_plan_batches(s) > 1)
    printf("In flight: %llu batches of %llu, each group working on one at every moment; each chat still waits a whole "
           "step a word\n", (unsigned long long)gs_plan_batches(s), (unsigned long long)s->words);
  printf("Cache: %s tokens a chat at %llu bits, %s\n", gs_grouped(a, sizeof a, s->chat_tokens), (unsigned long long)s->cache_bits,
         s->cache_per_chat ? "one for each chat" : "one chat's (the lesson's)");
  if (s->nccl == GS_NCCL_AUTO && s->measured)
    printf("All-reduce: as measured on %llu to %llu GPUs of one server (%s, %s; between sizes and counts, a straight line), with "
           "no fitted start-up added; across servers, NCCL's cheapest ring protocol\n",
           (unsigned long long)s->measured->gpus[0], (unsigned long long)s->measured->gpus[s->measured->counts - 1], s->measured->file,
           s->measured->source_dir);
  else if (s->nccl == GS_NCCL_AUTO)
    printf("All-reduce: NCCL's cheapest ring protocol (v2.30.7 tuning tables; Tree, NVLS and CollNet left out)\n");
  if (s->overlap) printf("Overlap: each layer's all-reduce hides behind the next layer's reading\n");
  if (s->read_cache) printf("Each step also reads every chat's cache\n");
  if (o->divide_heads) printf("Only counts that divide the %llu heads\n", (unsigned long long)m->heads);
  if (options->efficiency_text[0]) {
    const gs_efficiency *e = &o->plan.efficiency;
    printf("Achieved efficiency: ");
    cli_put_text(stdout, options->efficiency_text);
    printf(": %s of the bandwidth, %s us a layer and %s us a step fixed, %s of the FLOP/s in a prefill, all-reduces +%s us",
           e->bandwidth_share > 0 ? gs_plain(a, sizeof a, e->bandwidth_share) : "all", gs_plain(b, sizeof b, e->layer_us),
           gs_plain(c3, sizeof c3, e->step_us), e->flops_share > 0 ? gs_plain(c, sizeof c, e->flops_share) : "all",
           gs_plain(c2, sizeof c2, e->allreduce_us));
    /* one server's all-reduces are the measured ones, which take no start-up (core/nccl.c) */
    if (e->allreduce_us > 0 && s->nccl == GS_NCCL_AUTO && s->measured) printf(" across servers (one server's as measured)");
    if (e->request_us > 0) printf(", a request's first word +%s us", gs_plain(a, sizeof a, e->request_us));
    printf("\n");
  }
  if (s->prompt_tokens)
    printf("First word: each chat's prompt of %s tokens%s\n", gs_grouped(a, sizeof a, s->prompt_tokens),
           s->words == 1 ? "" : ", the chats' prompts prefilled together");
}

/* How a row serves, past the lesson: replicas, the chats that fit, the cost of a word. */
static void print_deploy(const gs_priced *r) {
  const gs_deploy *d = &r->deploy;
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP];
  if (!r->cost.fits) return;
  if (r->setting->replicas > 1)
    printf("  %llu GPUs in %llu replicas: %s words/s", (unsigned long long)d->gpus, (unsigned long long)r->setting->replicas,
           gs_words_rate(a, sizeof a, d->words_per_s));
  if (d->chats_fit >= 0)
    printf("  %s chats fit: %s words/s", gs_grouped(a, sizeof a, (uint64_t)d->chats_fit),
           gs_words_rate(b, sizeof b, d->chats_fit_words_per_s));
  if (d->cost_per_million >= 0) printf("  %s a million words", gs_fixed_grouped(a, sizeof a, d->cost_per_million, 2));
  if (d->prompt_cost_per_million >= 0)
    printf(", %s a million prompt tokens", gs_fixed_grouped(a, sizeof a, d->prompt_cost_per_million, 2));
}

static int print_table(const cli_report_options *o, const sweep *sw) {
  const gs_setting *st = &o->setting;
  size_t i;
  print_header(o);
  printf("Fewest GPUs that fit (up to %llu): ", (unsigned long long)st->max_n);
  print_count_or_none(stdout, sw->found.fewest, "none");
  printf("\nBest GPU count (up to %llu): ", (unsigned long long)st->max_n);
  print_count_or_none(stdout, sw->found.best, "none");
  printf("\nBest count that divides the %llu heads: ", (unsigned long long)st->model.heads);
  print_count_or_none(stdout, sw->found.best_dividing_heads, "none");
  printf("\n\n%5s %12s %10s %12s %10s %5s %10s %10s %10s %8s %9s %11s %9s", "GPUs", "weights GiB", "cache GiB", "working GiB",
         "total GiB", "fits", "read ms", "wait ms", "total ms", "waiting", "words/s", "all words/s", "bound");
  printf(st->plan.prompt_tokens ? " %12s\n" : "\n", "first word ms");
  for (i = 0; i < o->count_n; i++) {
    gs_priced r;
    const gs_view *v = &r.view;
    int rc = row(o, sw, i, &r);
    if (rc != CLI_OK) return rc;
    printf("%5llu %12.*s %10.*s %12.*s %10.*s %5s", (unsigned long long)r.plan.gpus, bare(v->weights), v->weights,
           bare(v->cache), v->cache, bare(v->working), v->working, bare(v->memory), v->memory, v->fits ? "yes" : "no");
    if (v->fits)
      printf(" %10.*s %10.*s %10.*s %8s %9s %11s %9s", bare(v->read), v->read, bare(v->transfer), v->transfer, bare(v->time),
             v->time, v->waiting, v->words_per_s, v->words_all, gs_bound_name(r.cost.bound));
    else
      printf(" %10s %10s %10s %8s %9s %11s %9s", "-", "-", "-", "-", "-", "-", "-");
    if (st->plan.prompt_tokens) printf(" %12.*s", v->fits ? bare(v->first_word) : 1, v->fits ? v->first_word : "-");
    if (st->plan.nccl == GS_NCCL_AUTO && v->fits) printf("  %s", gs_protocol_name(r.cost.protocol));
    if (r.cost.servers > 1) printf("  %llu servers", (unsigned long long)r.cost.servers);
    print_deploy(&r);
    printf("\n");
  }
  printf("\nA row that does not fit shows no time: its weights, cache and working memory exceed the usable memory.\n");
  printf("words/s is for each chat; all words/s, for the %llu chat%s together.\n", (unsigned long long)st->plan.words,
         st->plan.words == 1 ? "" : "s");
  printf("bound: what sets the step: reading the memory, computing, or waiting on the link.\n");
  return CLI_OK;
}

static int print_explain(const cli_report_options *o) {
  char text[GS_EXPLAIN_CAP];
  gs_priced r;
  gs_error err;
  if (gs_price(&o->setting, o->explain_gpus, &r, &err) != GS_OK || gs_explain_of(&r, text, sizeof text, &err) != GS_OK)
    return cli_bad_error("--explain", &err);
  print_header(o);
  printf("\n");
  fputs(text, stdout);
  return CLI_OK;
}

int cli_report(int argc, char **argv) {
  static cli_report_options o; /* its texts are large */
  sweep sw;
  int rc = cli_report_parse(argc, argv, &o);
  if (rc == CLI_HELPED) return CLI_OK;
  if (rc != CLI_OK) return rc; /* bad input 2, a failure 1 */
  if (o.explain_gpus) return print_explain(&o);
  if (o.emit) return cli_emit_print(&o);
  if ((rc = sweep_all(&o, &sw)) != CLI_OK) return rc;
  rc = o.json ? print_json(&o, &sw) : print_table(&o, &sw);
  free(sw.rows);
  return rc;
}
