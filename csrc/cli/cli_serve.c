/* `gpusplit serve`: a load served by one layout, simulated step by step by an engine's
 * scheduler (gs_serve_run, csrc/serve/). Parses and prints only: the model, the machine
 * and the rules are read by report's own flags (cli_report_parse), the load and the
 * engine's limits here. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "read/efficiency.h"

void cli_serving_fit_note(const gs_scheduler *e, const char *among, char *out, size_t cap) {
  out[0] = '\0';
  if (e->figures_pooled) /* serve_fit.c gives an engine of fewer runs no figures of its own */
    snprintf(out, cap, "; fewer than %d runs of %s are among %s: its step takes the figures fitted to all of them pooled",
             FIT_MIN_RUNS, gs_engine_name(e->kind), among);
  else if (e->figures_from >= 0 && e->figures_from != e->kind) /* engine.c's figures_like */
    snprintf(out, cap, "; fewer than %d runs of %s are among %s: its step takes %s's fitted figures (a host loop in C++ "
             "alike), its front end the pooled one", FIT_MIN_RUNS, gs_engine_name(e->kind), among,
             gs_engine_name(e->figures_from));
}

static const char SERVE_HEAD[] =
    "usage: gpusplit serve --model M --gpu G --counts N [--split S] [--in-flight B]\n"
    "                      [--replicas R | --prefill-copies P --decode-copies D]\n"
    "                      [--experts slices|spread] [--attention data|slices]\n"
    "                      [--expert-ranks EP] [--skew S]\n"
    "                      [--concurrency C | --rate R] [--requests N] [--prompt-tokens P]\n"
    "                      [--output-tokens O] [--lengths FILE|sharegpt] [--seed S]\n"
    "                      [--engine vllm|sglang|trt-llm] [--limits engine|trtllm-bench]\n"
    "                      [--max-seqs N] [--max-batched-tokens N] [--memory-share F]\n"
    "                      [--block-tokens N] [--chunked-prefill on|off] [--scheduler-steps N]\n"
    "                      [--overlap-share F] [--seq-us U] [--request-us U]\n"
    "                      [--step-flops-share F] [--explain] [--json]\n"
    "\n"
    "A load served by one layout, simulated step by step: requests arrive, their prompts\n"
    "are prefilled in chunks beside other chats' decoding, the cache pool fills, the engine\n"
    "caps the batch. Prints time to the first token, time per output token, the gaps\n"
    "between tokens and the whole request as mean, p50, p90 and p99, and the tokens a\n"
    "second. The engine's step figures are fitted to measured serving runs (data/serving.json;\n"
    "the output's Fitted line names the runs and the error on runs the fit never saw).\n"
    "\n";

typedef struct {
  cli_load_flags lf;     /* the load and the engine's limits (load_flags.c) */
  gs_disagg disagg;      /* --prefill-copies and --decode-copies; 0 and 0: not given; --prefill-counts */
  unsigned copies_given; /* 1: --prefill-copies, 2: --decode-copies */
  int json, explain;
  int attention;         /* 0: not given; 1: data; 2: slices */
  uint64_t expert_ranks; /* --expert-ranks; 0: not given (every GPU a rank) */
  double skew;           /* --skew; 0: not given (uniform) */
} serve_options;

#define AT(member) offsetof(serve_options, member)
static const uint64_t COPIES_MOST = GS_SERVE_MAX_RANKS - 1, PREFILL_COUNTS_MOST = GS_SERVE_MAX_RANKS; /* a copy's ranks */
#define COPIES(name, member, bit, help) \
  {name, GS_FLAG_WHOLE, "N", AT(member), bit, AT(copies_given), &COPIES_MOST, 0, 0, 0, 0, help}
#define DECIDED(flag) GS_REFUSED(flag, "what the served load decides")
/* serve's heading of the load's flags (CLI_LOAD_FLAGS, shared with plan), then its own,
 * and report's that a served load decides. */
static const gs_flag SERVE_LOAD_HEAD[] = {GS_NOTE("The load (default: all --requests sent at once):")};
static const gs_flag SERVE_FLAGS[] = {
    GS_NOTE("The layout: --counts N (one count), --split, --replicas (requests shared round-robin),\n"
            "--experts (a mixture's experts sliced, or spread whole over the GPUs),\n"
            "--in-flight B under groups: B micro-batches in the pipeline (default one a\n"
            "stage), each its own scheduler with 1/B of the cache pool, as vLLM's virtual\n"
            "engines; --max-seqs and --max-batched-tokens are each micro-batch's.\n"
            "The model, the machines and the rules take report's flags (gpusplit report --help)."),
    GS_CHOICE("--attention", "data|slices", AT(attention),
              "beside --experts spread: data (default),\n"
              "each GPU an attention rank with its own requests, cache pool and\n"
              "scheduler, all joined by the expert layers each step (any count the\n"
              "experts divide); or slices, attention cut over the GPUs (TP with EP;\n"
              "the count divides the heads). Under data, --max-seqs and\n"
              "--max-batched-tokens are each rank's for vllm and trt-llm, the whole\n"
              "engine's for sglang (1/N a rank)"),
    GS_WHOLE("--expert-ranks", "EP", AT(expert_ranks), &GS_MAX_GPUS,
             "beside --experts spread: the experts spread over EP\n"
             "ranks of N/EP GPUs, each expert cut over its rank's GPUs\n"
             "(TensorRT-LLM's --ep_size EP with --tp_size N; 1: every\n"
             "expert cut over all N, SGLang's --enable-dp-attention\n"
             "without --ep-size); EP divides N and the experts (default N)"),
    GS_REAL_IN("--skew", "S", AT(skew), 1, 65536, 0,
               "beside --experts spread: the busiest expert rank's share\n"
               "of the routed tokens over the mean, 1 (default: uniform\n"
               "routing) to the ranks of experts; it computes, reads and\n"
               "receives as that share says, and every step waits for it"),
    COPIES("--prefill-copies", disagg.prefill, 1,
           "prefill and decode on separate copies of the layout, as\n"
           "SGLang's PD disaggregation: N copies only prefill, and each\n"
           "request's cache goes over the link to one of the\n"
           "--decode-copies, which only decode (round-robin both; give both);\n"
           "under --attention data each copy's ranks in turn, the cache\n"
           "whole from a prefill rank's GPU to a decode rank's"),
    COPIES("--decode-copies", disagg.decode, 2, "copies that only decode (with --prefill-copies)"),
    GS_WHOLE("--prefill-counts", "N", AT(disagg.prefill_gpus), &PREFILL_COUNTS_MOST,
             "the GPUs of each prefill copy, in the layout's split, experts\n"
             "and attention (default: --counts, as each decode copy holds)"),
    GS_SWITCH("--explain", AT(explain), 0, "the sums of the step in which half the requests were done"),
    GS_SWITCH("--json", AT(json), 0, "one JSON object instead of the table"),
    DECIDED("--words"), DECIDED("--gpus"), DECIDED("--max-n"), DECIDED("--cache-per-chat"),
    DECIDED("--no-cache-per-chat"), DECIDED("--emit"),
    /* report's flags a served load would take and not use (until 2026-12-07): serve's own
     * here, a served plan's too in cli_served_report_flags */
    GS_REFUSED("--gpu-hour", "a price, which serve does not print (plan --gpu-hour does)"),
};

/* serve's flags and report's, each by its table, then what they say together. */
static int read_flags(int argc, char **argv, serve_options *o, cli_report_flags *rf) {
  gs_flag_set sets[4] = {{SERVE_LOAD_HEAD, 1, o, NULL, NULL},
                         {CLI_LOAD_FLAGS, CLI_LOAD_FLAG_N, &o->lf, NULL, NULL},
                         {SERVE_FLAGS, sizeof SERVE_FLAGS / sizeof SERVE_FLAGS[0], o, NULL, NULL},
                         {CLI_REPORT_FLAGS, CLI_REPORT_FLAG_N, rf, NULL, NULL}};
  const char *engine;
  int rc;
  cli_load_defaults(&o->lf);
  if ((rc = cli_flags_or_help_shown(sets, 4, 3, argc, argv, SERVE_HEAD, "")) != CLI_OK) return rc;
  engine = rf->q.engine;
  if (engine && strcmp(engine, "vllm") != 0 && strcmp(engine, "sglang") != 0 && strcmp(engine, "trt-llm") != 0 &&
      strcmp(engine, "lmdeploy") != 0)
    return cli_bad("--engine: serve simulates vllm, sglang, trt-llm or lmdeploy, not '%s'", engine);
  if (o->expert_ranks && rf->experts != 2) /* --experts spread: its place in "slices|spread" */
    return cli_bad("--expert-ranks: ranks of experts are priced beside --experts spread only");
  rf->q.expert_ranks = o->expert_ranks; /* the counts are checked with them (report_options.c) */
  if (o->copies_given && o->copies_given != 3)
    return cli_bad("--prefill-copies: give it with --decode-copies, one count each");
  if (o->copies_given && rf->q.replicas > 1)
    return cli_bad("--replicas: prefill and decode copies are the deployment; leave out --replicas");
  if (o->disagg.prefill_gpus && !o->copies_given)
    return cli_bad("--prefill-counts: the GPUs of a prefill copy, given with --prefill-copies and --decode-copies");
  if ((rc = cli_served_report_flags(rf, &o->lf)) != CLI_OK) return rc;
  return cli_load_check(&o->lf, rf->prompt_tokens, rf->q.engine, "serve");
}

/* The engine's defaults for this GPU and count, then each limit given. */
static int engine_limits(const serve_options *o, const char *engine, const gs_setting *s, uint64_t gpus, gs_scheduler *e) {
  gs_error err;
  if (gs_engine_defaults(engine, &s->gpu, s->gpu_text.key, gpus, e, &err) != GS_OK) return cli_bad("--engine: %s", err.what);
  gs_engine_given(e, &o->lf.limits, o->lf.given & CLI_LOAD_LIMITS);
  gs_engine_weight_bits(s, e);
  return CLI_OK;
}

/* The rules of the serving figures, in one line. */
static void serving_line(char *buf, size_t cap, const gs_scheduler *e, const gs_serve_result *r) {
  char share[32], pipeline[192], steps[128];
  snprintf(share, sizeof share, "%s", gs_plain((char[32]){0}, 32, e->overlap_share));
  snprintf(steps, sizeof steps, "a step prefills or decodes, a decode batch running %llu steps a scheduling",
           (unsigned long long)e->scheduler_steps);
  snprintf(pipeline, sizeof pipeline,
           "; a pipeline of %llu stages with %llu micro-batch%s in flight, each its own scheduler and 1/%llu of the pool, "
           "each stage holding a micro-batch for 1/%llu of its step",
           (unsigned long long)r->stages, (unsigned long long)r->in_flight, r->in_flight == 1 ? "" : "es",
           (unsigned long long)r->in_flight, (unsigned long long)r->stages);
  snprintf(buf, cap,
           "%s's scheduler simulated step by step (max %llu sequences and %llu tokens a step%s, %s, %s; a pool of %llu "
           "blocks of %llu tokens at %s of %s); a step's busy time max(read, compute) + %s x min, computing at %s of "
           "the peak, plus %s us a sequence%s; each request %s ms in the front end before the scheduler takes it; "
           "requests shared round-robin over the %s%s",
           gs_engine_name(e->kind), (unsigned long long)r->max_seqs, (unsigned long long)r->max_batched_tokens,
           e->bench_limits ? " as trtllm-bench sets them for this load" : "",
           !e->mixed ? (e->scheduler_steps > 1 ? steps : "a step prefills or decodes") : e->chunked ? "prefill chunks beside decodes" : "whole prompts beside decodes",
           e->reserve_full ? "a request's whole cache reserved, never preempted" : "preemption by recompute",
           (unsigned long long)r->pool_blocks, (unsigned long long)e->block_tokens,
           gs_plain((char[32]){0}, 32, e->memory_share), e->share_of_free ? "the memory the weights leave" : "memory", share,
           e->flops_share > 0 ? gs_plain((char[32]){0}, 32, e->flops_share) : "report's share",
           gs_plain((char[32]){0}, 32, e->seq_us),
           r->stages > 1 ? pipeline : "", gs_plain((char[32]){0}, 32, e->request_us * 1e-3),
           r->prefill_copies ? (r->ranks > 1 ? "prefill copies, each request's cache then sent over the link to the "
                                               "decode copies in turn (whole, from its rank's GPU to its rank's), its "
                                               "first token out when the cache lands"
                                             : "prefill copies, each request's cache then sent over the link to the decode "
                                               "copies in turn (each GPU its share at once), its first token out when the "
                                               "cache lands")
                             : "replicas",
           r->ranks > 1 ? " and over each copy's attention ranks, each with its own scheduler and pool, their steps joined by "
                          "the expert layers (a step lasts as the slowest rank's)"
                        : "");
}

static void print_dist_row(const char *name, const gs_dist *d) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], e[GS_FIGURE_CAP];
  printf("  %-28s %12s %12s %12s %12s\n", name, gs_fixed_grouped(a, sizeof a, d->mean * 1e3, 2),
         gs_fixed_grouped(b, sizeof b, d->p50 * 1e3, 2), gs_fixed_grouped(c, sizeof c, d->p90 * 1e3, 2),
         gs_fixed_grouped(e, sizeof e, d->p99 * 1e3, 2));
}

static void print_table(const gs_setting *s, const serve_options *o, const gs_scheduler *e, const gs_serve_result *r,
                        const char *serving) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP];
  uint64_t copy_gpus = gs_serve_copy_gpus(r, s->replicas);
  char spread[224] = "", ranks[96] = "", skew[64] = "", pooled[224] = "";
  if (s->plan.experts == GS_EXPERTS_SPREAD) { /* the ranks of experts, the routing, the attention */
    if (s->plan.expert_ranks)
      snprintf(ranks, sizeof ranks, " over %llu rank%s of %llu GPUs, each expert cut over them",
               (unsigned long long)s->plan.expert_ranks, s->plan.expert_ranks == 1 ? "" : "s",
               (unsigned long long)(copy_gpus / s->plan.expert_ranks));
    if (s->plan.skew > 1)
      snprintf(skew, sizeof skew, "the busiest rank routed %s times the mean", gs_plain((char[32]){0}, 32, s->plan.skew));
    snprintf(spread, sizeof spread, ", experts spread%s, %s, attention %s", ranks, skew[0] ? skew : "routing uniform",
             s->plan.attention == GS_ATTENTION_DATA ? "data-parallel" : "sliced");
  }
  printf("Serve: %s on %llu x %s (%s%s), ", s->model_name, (unsigned long long)copy_gpus, s->gpu_text.name,
         gs_split_name(s->plan.split), spread);
  if (r->prefill_copies && r->prefill_gpus != copy_gpus)
    printf("%llu prefill cop%s of %llu GPU%s and %llu decode cop%s", (unsigned long long)r->prefill_copies,
           r->prefill_copies == 1 ? "y" : "ies", (unsigned long long)r->prefill_gpus, r->prefill_gpus == 1 ? "" : "s",
           (unsigned long long)r->decode_copies, r->decode_copies == 1 ? "y" : "ies");
  else if (r->prefill_copies)
    printf("%llu prefill cop%s and %llu decode cop%s", (unsigned long long)r->prefill_copies,
           r->prefill_copies == 1 ? "y" : "ies", (unsigned long long)r->decode_copies, r->decode_copies == 1 ? "y" : "ies");
  else printf("%llu replica%s", (unsigned long long)s->replicas, s->replicas == 1 ? "" : "s");
  printf(": %llu GPU%s\n", (unsigned long long)r->gpus, r->gpus == 1 ? "" : "s");
  if (o->lf.sharegpt) {
    printf("Load: %llu requests drawn from ShareGPT's lengths (seed %llu; prompts %s, outputs %s tokens on average), ",
           (unsigned long long)o->lf.load.requests, (unsigned long long)o->lf.load.seed,
           gs_fixed(a, sizeof a, gs_load_mean(&o->lf.load, o->lf.load.prompts), 1), gs_fixed(b, sizeof b, gs_load_mean(&o->lf.load, o->lf.load.outputs), 1));
  } else if (o->lf.load.pairs) {
    printf("Load: %llu requests with lengths from ", (unsigned long long)o->lf.load.requests);
    cli_put_text(stdout, o->lf.lengths);
    printf(" (%zu pairs, replayed in order), ", o->lf.load.pairs);
  } else {
    printf("Load: %llu requests of %llu prompt and %llu output tokens, ", (unsigned long long)o->lf.load.requests,
           (unsigned long long)o->lf.load.prompt_tokens, (unsigned long long)o->lf.load.output_tokens);
  }
  if (o->lf.load.kind == GS_LOAD_CLOSED) printf("%llu in flight (closed loop)", (unsigned long long)o->lf.load.concurrency);
  else if (o->lf.load.kind == GS_LOAD_OPEN) printf("Poisson at %s a second (seed %llu)", gs_plain(a, sizeof a, o->lf.load.rate), (unsigned long long)o->lf.load.seed);
  else printf("all sent at once");
  cli_serving_fit_note(e, "them", pooled, sizeof pooled);
  printf("\nAssumptions: %s\nServing: %s\nFitted: %s%s\n\n", s->assumptions, serving, GS_SERVING_TABLE.summary, pooled);
  printf("  %-28s %12s %12s %12s %12s\n", "ms", "mean", "p50", "p90", "p99");
  print_dist_row("time to first token", &r->ttft);
  print_dist_row("time per output token", &r->tpot);
  print_dist_row("gap between tokens", &r->itl);
  print_dist_row("whole request", &r->e2e);
  printf("\nOutput tokens a second %s, all tokens %s, requests %s (over %s s, first arrival to last completion)\n",
         gs_fixed_grouped(a, sizeof a, r->output_tokens_per_s, 1), gs_fixed_grouped(b, sizeof b, r->total_tokens_per_s, 1),
         gs_fixed_grouped(c, sizeof c, r->requests_per_s, 3), gs_fixed_grouped((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, r->duration, 2));
  printf("Cache pool: %llu blocks an instance%s, at most %llu used (%s%%); %llu preemptions; %llu steps\n",
         (unsigned long long)r->pool_blocks,
         r->ranks > 1 ? " (each attention rank's)" : r->in_flight > 1 ? " (each micro-batch's)" : "", (unsigned long long)r->peak_blocks,
         gs_fixed(a, sizeof a, 100.0 * (double)r->peak_blocks / (double)r->pool_blocks, 1), (unsigned long long)r->preemptions,
         (unsigned long long)r->steps);
  if (o->lf.load.kind == GS_LOAD_OPEN)
    printf("%s: the deployment completes %s requests a second when every request waits (all sent at once)\n",
           r->overloaded ? "Overloaded" : "Held", gs_fixed_grouped(a, sizeof a, r->sustainable_rate, 3));
}

/* The sums of the typical step. */
static void print_explain(const gs_serve_result *r) {
  const gs_mixed_cost *c = &r->typical;
  const gs_step_work *w = &r->typical_work;
  printf("\nThe step in which half the requests were done: %llu sequences, %llu tokens, %llu tokens of cache read\n",
         (unsigned long long)w->seqs, (unsigned long long)w->tokens, (unsigned long long)w->cache_full);
  if (r->ranks > 1)
    printf("  over %llu attention ranks joined by the expert layers: read and compute are the slowest rank's, the "
           "operations all GPUs'\n",
           (unsigned long long)r->ranks);
  printf("  read    %llu bytes a GPU = %s ms\n", (unsigned long long)c->read_bytes,
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->read * 1e3, 3));
  printf("  compute (%s GEMM + %s attention) operations = %s ms a GPU\n",
         gs_plain((char[32]){0}, 32, c->gemm_ops), gs_plain((char[32]){0}, 32, c->attention_ops),
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->compute * 1e3, 3));
  printf("  busy    %s ms; transfers %s ms; step %s ms\n", gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->busy * 1e3, 3),
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->time.transfer * 1e3, 3),
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->seconds * 1e3, 3));
}

/* The layout: one count, a plan the served step can price; attention data-parallel
 * (the default beside spread experts) or sliced. */
static int serve_plan(cli_report_options *r, int attention, double skew, gs_plan *p) {
  const gs_model *m = &r->setting.model;
  gs_error err;
  *p = r->setting.plan;
  if (r->count_n != 1) return cli_bad("serve: --counts N is needed, one GPU count for the layout");
  p->gpus = r->counts[0];
  p->words = 1;
  p->in_flight = r->setting.plan.in_flight; /* 0: one a stage (serve.c) */
  if (attention == 1 && p->experts != GS_EXPERTS_SPREAD)
    return cli_bad("--attention: data parallel attention is priced beside --experts spread only");
  p->attention = attention == 2 ? GS_ATTENTION_SLICES : GS_ATTENTION_DATA;
  if (p->experts == GS_EXPERTS_SPREAD && p->attention == GS_ATTENTION_SLICES && r->setting.divide_heads &&
      m->heads % p->gpus != 0)
    return cli_bad("--counts: %llu does not divide the %llu heads, as sliced attention needs (--attention data cuts no head)",
                   (unsigned long long)p->gpus, (unsigned long long)m->heads);
  r->setting.plan.attention = p->attention;
  if (skew > 0 && p->experts != GS_EXPERTS_SPREAD) return cli_bad("--skew: a routing skew is priced beside --experts spread only");
  p->skew = skew;
  if (skew > 0 && gs_plan_check(m, p, &err) != GS_OK) return cli_bad("--skew: %s", err.what);
  r->setting.plan.skew = skew;
  return CLI_OK;
}

/* --prefill-counts: a count the setting takes (as --counts is checked), and the engine's
 * defaults for it (SGLang's memory share and chunk depend on the count), each limit given. */
static int prefill_layout(const cli_report_options *r, serve_options *o, const char *engine, const gs_plan *p,
                          gs_scheduler *e) {
  gs_plan pre = *p;
  gs_error err;
  int rc;
  if (!o->disagg.prefill_gpus) return CLI_OK;
  pre.gpus = o->disagg.prefill_gpus;
  if (gs_count_allowed(&r->setting, pre.gpus, &err) != GS_OK && !(p->experts == GS_EXPERTS_SPREAD && p->attention == GS_ATTENTION_DATA))
    return cli_bad("--prefill-counts: %s", err.what);
  if (gs_plan_check(&r->setting.model, &pre, &err) != GS_OK) return cli_bad("--prefill-counts: %s", err.what);
  if ((rc = engine_limits(o, engine, &r->setting, pre.gpus, e)) != CLI_OK) return rc;
  o->disagg.prefill_engine = e;
  return CLI_OK;
}

static int simulate(const cli_report_options *r, const serve_options *o, const gs_plan *p, const gs_scheduler *e,
                    gs_serve_result *out) {
  size_t n = (size_t)o->lf.load.requests;
  gs_serve_space sp;
  gs_error err;
  int rc;
  sp.cap = n;
  sp.reqs = malloc(n * sizeof *sp.reqs);
  sp.ids = malloc(GS_SERVE_IDS * n * sizeof *sp.ids);
  sp.scratch = malloc(n * sizeof *sp.scratch);
  sp.itl = malloc(sizeof *sp.itl);
  rc = !sp.reqs || !sp.ids || !sp.scratch || !sp.itl ? cli_bad("serve: out of memory for %zu requests", n) : CLI_OK;
  if (rc == CLI_OK &&
      (o->copies_given ? gs_serve_run_disagg(&r->setting.model, &r->setting.gpu, &r->setting.link, p, &o->disagg, e, &o->lf.load,
                                             &sp, out, &err)
                       : gs_serve_run(&r->setting.model, &r->setting.gpu, &r->setting.link, p, r->setting.replicas, e,
                                      &o->lf.load, &sp, out, &err)) != GS_OK)
    rc = strcmp(err.field, "requests") == 0 || strcmp(err.field, "concurrency") == 0 || strcmp(err.field, "replicas") == 0
             ? cli_bad("--%s: %s", err.field, err.what)
         : strcmp(err.field, "memory_share") == 0 ? cli_bad("--memory-share: %s", err.what)
         : strcmp(err.field, "max_batched_tokens") == 0 ? cli_bad("--max-batched-tokens: %s", err.what)
                                                        : cli_bad_error("serve", &err);
  free(sp.reqs);
  free(sp.ids);
  free(sp.scratch);
  free(sp.itl);
  return rc;
}

int cli_serve(int argc, char **argv) {
  serve_options o;
  cli_report_flags *f = calloc(1, sizeof *f);
  cli_report_options *r = malloc(sizeof *r);
  char serving[1536];
  int rc;
  gs_plan p;
  gs_scheduler e, prefill_engine;
  gs_serve_result out;
  memset(&o, 0, sizeof o);
  if (!r || !f) rc = cli_bad("serve: out of memory");
  else if ((rc = read_flags(argc, argv, &o, f)) == CLI_OK && (rc = cli_report_resolve(f, r)) == CLI_OK &&
           (rc = serve_plan(r, o.attention, o.skew, &p)) == CLI_OK && (rc = engine_limits(&o, f->q.engine, &r->setting, p.gpus, &e)) == CLI_OK &&
           (rc = prefill_layout(r, &o, f->q.engine, &p, &prefill_engine)) == CLI_OK) {
    o.lf.load.prompt_tokens = p.prompt_tokens ? p.prompt_tokens : 1024;
    p.prompt_tokens = 0;
    if ((rc = cli_load_lengths(&o.lf)) == CLI_OK && (rc = simulate(r, &o, &p, &e, &out)) == CLI_OK) {
      serving_line(serving, sizeof serving, &e, &out);
      gs_out sink = cli_out(stdout);
      if (o.json) gs_out_serve(&sink, &r->setting, &o.lf.load, o.lf.sharegpt ? "sharegpt" : "file", &e, &out, serving);
      else print_table(&r->setting, &o, &e, &out, serving);
      if (o.explain && !o.json) print_explain(&out);
    }
  }
  if (rc == CLI_HELPED) rc = CLI_OK;
  free(r);
  free(f);
  free(o.lf.pairs);
  return rc;
}
