/* `gpusplit serve`: a load served by one layout, simulated step by step by an engine's
 * scheduler (gs_serve_run, csrc/serve/). Parses and prints only: the model, the machine
 * and the rules are read by report's own flags (cli_report_parse), the load and the
 * engine's limits here. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char SERVE_HELP[] =
    "usage: gpusplit serve --model M --gpu G --counts N [--split S] [--replicas R]\n"
    "                      [--concurrency C | --rate R] [--requests N] [--prompt-tokens P]\n"
    "                      [--output-tokens O] [--seed S] [--engine vllm|sglang|trt-llm]\n"
    "                      [--max-seqs N] [--max-batched-tokens N] [--memory-share F]\n"
    "                      [--block-tokens N] [--overlap-share F] [--seq-us U]\n"
    "                      [--step-flops-share F] [--explain] [--json]\n"
    "\n"
    "A load served by one layout, simulated step by step: requests arrive, their prompts\n"
    "are prefilled in chunks beside other chats' decoding, the cache pool fills, the engine\n"
    "caps the batch. Prints time to the first token, time per output token, the gaps\n"
    "between tokens and the whole request as mean, p50, p90 and p99, and the tokens a\n"
    "second. The engine's step figures are fitted to measured serving runs (data/serving.json;\n"
    "the output's Fitted line names the runs and the error on runs the fit never saw).\n"
    "\n"
    "The load (default: all --requests sent at once):\n"
    "  --concurrency C      closed loop: C requests in flight, a new one as one ends\n"
    "  --rate R             open loop: Poisson arrivals, R requests a second\n"
    "  --requests N         requests in all, 1 to 250000 (default 1000); the load at most\n"
    "                       4194304 steps: each request's output plus its prompt's chunks\n"
    "  --prompt-tokens P    each prompt (default 1024: vllm bench serve's random input)\n"
    "  --output-tokens O    each output (default 128: its random output)\n"
    "  --seed S             the arrivals' seed (default 1)\n"
    "  --lengths FILE       each request's prompt and output from FILE, \"PROMPT,OUTPUT\" a\n"
    "                       line ('#' comments), replayed in order (instead of the two above)\n"
    "The engine, one instance per copy of the layout (defaults: the engine's own, some\n"
    "depending on the GPU; csrc/serve/engine.c names the sources):\n"
    "  --engine E           vllm (default), sglang or trt-llm; also picks report's fitted\n"
    "                       efficiency for that engine\n"
    "  --max-seqs N         sequences a step holds\n"
    "  --max-batched-tokens N  tokens a step computes (the prefill chunk budget)\n"
    "  --memory-share F     share of each GPU's memory the engine takes, 0.01 to 1\n"
    "  --block-tokens N     tokens a cache block holds\n"
    "The engine's step, each default the engine's fitted figure (data/serving.json):\n"
    "  --overlap-share F    busy = max(read, compute) + F x min(read, compute), 0 to 1\n"
    "  --seq-us U           the engine's host time a step for each sequence it holds, us\n"
    "  --step-flops-share F share of the GPU's peak FLOP/s a step computes at, 0.01 to 1\n"
    "                       (4-bit weights on a GPU with FP4 tensor cores: the FP4 peak)\n"
    "The layout: --counts N (one count), --split, --replicas (requests shared round-robin).\n"
    "The model, the machines and the rules take report's flags (gpusplit report --help).\n"
    "  --explain            the sums of the step in which half the requests were done\n"
    "  --json               one JSON object instead of the table\n";

typedef struct {
  gs_load load;
  const char *engine;  /* NULL: vllm */
  const char *limits[7]; /* --max-seqs, --max-batched-tokens, --memory-share, --block-tokens, --overlap-share, --seq-us,
                            --step-flops-share */
  int json, explain;
  const char *lengths;   /* --lengths FILE, or NULL */
  int prompt_given;      /* report's --prompt-tokens was given */
  uint64_t *pairs;       /* the file's prompts, then its outputs (malloc'd, 2 x cap) */
} serve_options;

static const char *const OWN[] = {"--concurrency", "--rate", "--requests", "--output-tokens", "--seed", "--lengths", "--max-seqs",
                                  "--max-batched-tokens", "--memory-share", "--block-tokens", "--overlap-share", "--seq-us", "--step-flops-share"};
enum { O_CONCURRENCY, O_RATE, O_REQUESTS, O_OUTPUT, O_SEED, O_LENGTHS, O_LIMITS, O_COUNT = O_LIMITS + 7 };
/* report's flags that a served load decides itself */
static const char *const REFUSED[] = {"--words", "--in-flight", "--gpus", "--max-n", "--cache-per-chat", "--no-cache-per-chat", "--emit"};

static int flag_is(const char *arg, const char *flag) {
  size_t n = strcspn(arg, "=");
  return strlen(flag) == n && strncmp(arg, flag, n) == 0;
}

/* The load's figures from the flags' texts. */
static int parse_load(const char **v, serve_options *o) {
  gs_load *l = &o->load;
  int rc;
  l->requests = 1000;
  l->output_tokens = 128;
  l->seed = 1;
  l->kind = GS_LOAD_BATCH;
  if (v[O_CONCURRENCY] && v[O_RATE]) return cli_bad("serve: --concurrency and --rate are two loads; give one");
  o->lengths = v[O_LENGTHS];
  if (o->lengths && (v[O_OUTPUT] || o->prompt_given))
    return cli_bad("--lengths: gives each request's prompt and output; leave out --prompt-tokens and --output-tokens");
  if (v[O_REQUESTS] && (rc = cli_parse_whole("--requests", v[O_REQUESTS], GS_SERVE_MAX_REQUESTS, &l->requests)) != CLI_OK) return rc;
  if (v[O_OUTPUT] && (rc = cli_parse_whole("--output-tokens", v[O_OUTPUT], GS_MAX_CHAT_TOKENS, &l->output_tokens)) != CLI_OK)
    return rc;
  if (v[O_SEED] && (rc = cli_parse_whole("--seed", v[O_SEED], UINT64_MAX, &l->seed)) != CLI_OK) return rc;
  if (v[O_CONCURRENCY]) {
    l->kind = GS_LOAD_CLOSED;
    if ((rc = cli_parse_whole("--concurrency", v[O_CONCURRENCY], GS_SERVE_MAX_REQUESTS, &l->concurrency)) != CLI_OK) return rc;
  }
  if (v[O_RATE]) {
    l->kind = GS_LOAD_OPEN;
    if ((rc = cli_parse_number("--rate", v[O_RATE], &l->rate)) != CLI_OK) return rc;
    if (!(l->rate > 0 && l->rate <= 1e9)) return cli_bad("--rate: must be above 0 and at most 1e9 requests a second, not '%s'", v[O_RATE]);
  }
  return CLI_OK;
}

/* Splits argv into serve's own flags and report's (rest, rest[0] = "serve"). */
static int split_args(int argc, char **argv, serve_options *o, char **rest, int *rest_n) {
  const char *v[O_COUNT] = {0};
  int i, k;
  *rest_n = 0;
  rest[(*rest_n)++] = argv[0];
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      fputs(SERVE_HELP, stdout);
      return CLI_HELPED;
    }
    if (strcmp(arg, "--json") == 0 || strcmp(arg, "--explain") == 0) {
      *(arg[2] == 'j' ? &o->json : &o->explain) = 1;
      continue;
    }
    for (k = 0; k < (int)(sizeof REFUSED / sizeof REFUSED[0]); k++)
      if (flag_is(arg, REFUSED[k])) return cli_bad("serve: %s is what the served load decides; leave it out", REFUSED[k]);
    for (k = 0; k < O_COUNT && !flag_is(arg, OWN[k]); k++) {}
    if (k < O_COUNT) {
      if (eq) v[k] = eq + 1;
      else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) v[k] = argv[++i];
      else return cli_bad("%s: needs a value", OWN[k]);
      if (k >= O_LIMITS) o->limits[k - O_LIMITS] = v[k];
      continue;
    }
    if (flag_is(arg, "--prompt-tokens")) o->prompt_given = 1;
    if (flag_is(arg, "--engine")) {
      o->engine = eq ? eq + 1 : (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[i + 1] : NULL);
      if (!o->engine) return cli_bad("--engine: needs a value");
      if (strcmp(o->engine, "vllm") != 0 && strcmp(o->engine, "sglang") != 0 && strcmp(o->engine, "trt-llm") != 0)
        return cli_bad("--engine: serve simulates vllm, sglang or trt-llm, not '%s'", o->engine);
    }
    rest[(*rest_n)++] = argv[i];
  }
  return parse_load(v, o);
}

/* The engine's defaults for this GPU and count, then each limit given. */
static int engine_limits(const serve_options *o, const gs_setting *s, uint64_t gpus, gs_scheduler *e) {
  uint64_t *whole[] = {&e->max_seqs, &e->max_batched_tokens, NULL, &e->block_tokens, NULL, NULL, NULL};
  const uint64_t maxima[] = {GS_SERVE_MAX_REQUESTS, GS_MAX_WORDS, 0, 65536, 0, 0, 0};
  gs_error err;
  size_t i;
  int rc;
  if (gs_engine_defaults(o->engine, &s->gpu, s->gpu_text.key, gpus, e, &err) != GS_OK) return cli_bad("--engine: %s", err.what);
  gs_engine_peak(s, e);
  for (i = 0; i < 7; i++) {
    if (!o->limits[i]) continue;
    if (whole[i] && (rc = cli_parse_whole(OWN[O_LIMITS + i], o->limits[i], maxima[i], whole[i])) != CLI_OK) return rc;
    if (i == 2 && ((rc = cli_parse_number("--memory-share", o->limits[i], &e->memory_share)) != CLI_OK ||
                   !(e->memory_share >= 0.01 && e->memory_share <= 1)))
      return rc != CLI_OK ? rc : cli_bad("--memory-share: must be from 0.01 to 1, not '%s'", o->limits[i]);
    if (i == 4 && ((rc = cli_parse_number("--overlap-share", o->limits[i], &e->overlap_share)) != CLI_OK ||
                   !(e->overlap_share >= 0 && e->overlap_share <= 1)))
      return rc != CLI_OK ? rc : cli_bad("--overlap-share: must be from 0 to 1, not '%s'", o->limits[i]);
    if (i == 5 && ((rc = cli_parse_number("--seq-us", o->limits[i], &e->seq_us)) != CLI_OK ||
                   !(e->seq_us >= 0 && e->seq_us <= 1e6)))
      return rc != CLI_OK ? rc : cli_bad("--seq-us: must be from 0 to 1e6, not '%s'", o->limits[i]);
    if (i == 6 && ((rc = cli_parse_number("--step-flops-share", o->limits[i], &e->flops_share)) != CLI_OK ||
                   !(e->flops_share >= 0.01 && e->flops_share <= 1)))
      return rc != CLI_OK ? rc : cli_bad("--step-flops-share: must be from 0.01 to 1, not '%s'", o->limits[i]);
  }
  return CLI_OK;
}

/* The rules of the serving figures, in one line. */
static void serving_line(char *buf, size_t cap, const gs_plan *p, const gs_scheduler *e, const gs_serve_result *r) {
  char share[32];
  snprintf(share, sizeof share, "%s", gs_plain((char[32]){0}, 32, e->overlap_share));
  snprintf(buf, cap,
           "%s's scheduler simulated step by step (max %llu sequences and %llu tokens a step, %s, %s; a pool of %llu "
           "blocks of %llu tokens at %s of memory); a step's busy time max(read, compute) + %s x min, computing at %s of "
           "the peak, plus %s us a sequence%s; requests shared round-robin over the replicas",
           gs_engine_name(e->kind), (unsigned long long)r->max_seqs, (unsigned long long)e->max_batched_tokens,
           e->mixed ? "prefill chunks beside decodes" : "a step prefills or decodes",
           e->reserve_full ? "a request's whole cache reserved, never preempted" : "preemption by recompute",
           (unsigned long long)r->pool_blocks, (unsigned long long)e->block_tokens,
           gs_plain((char[32]){0}, 32, e->memory_share), share,
           e->flops_share > 0 ? gs_plain((char[32]){0}, 32, e->flops_share) : "report's share",
           gs_plain((char[32]){0}, 32, e->seq_us),
           p->split == GS_SLICES ? "" : "; a pipeline's groups work one step at a time (no micro-batches in flight yet)");
}

static void json_dist(const char *key, const gs_dist *d) {
  printf(",\"%s\":{\"mean\":", key);
  cli_json_double(stdout, d->mean * 1e3);
  printf(",\"p50\":");
  cli_json_double(stdout, d->p50 * 1e3);
  printf(",\"p90\":");
  cli_json_double(stdout, d->p90 * 1e3);
  printf(",\"p99\":");
  cli_json_double(stdout, d->p99 * 1e3);
  printf("}");
}

static const char *load_name(int kind) { return kind == GS_LOAD_CLOSED ? "closed" : kind == GS_LOAD_OPEN ? "open" : "batch"; }

static void print_json(const gs_setting *s, const serve_options *o, const gs_scheduler *e, const gs_serve_result *r,
                       const char *serving) {
  printf("{\"assumptions\":");
  cli_json_string(stdout, s->assumptions);
  printf(",\"serving_assumptions\":");
  cli_json_string(stdout, serving);
  printf(",\"serving_fit\":");
  cli_json_string(stdout, GS_SERVING_TABLE.summary);
  printf(",\"validated\":%s,\"model\":", GS_SERVING_TABLE.count ? "true" : "false");
  cli_json_string(stdout, s->model_name);
  printf(",\"gpu\":");
  cli_json_string(stdout, s->gpu_text.name);
  printf(",\"engine\":\"%s\",\"split\":\"%s\",\"gpus_per_replica\":%llu,\"replicas\":%llu,\"gpus\":%llu", gs_engine_name(e->kind),
         gs_split_name(s->plan.split), (unsigned long long)(r->gpus / s->replicas), (unsigned long long)s->replicas,
         (unsigned long long)r->gpus);
  printf(",\"load\":{\"kind\":\"%s\",\"requests\":%llu,\"concurrency\":%llu,\"rate\":", load_name(o->load.kind),
         (unsigned long long)o->load.requests, (unsigned long long)o->load.concurrency);
  if (o->load.kind == GS_LOAD_OPEN) cli_json_double(stdout, o->load.rate);
  else printf("null");
  if (o->load.pairs) printf(",\"prompt_tokens\":null,\"output_tokens\":null,\"length_pairs\":%zu", o->load.pairs);
  else
    printf(",\"prompt_tokens\":%llu,\"output_tokens\":%llu", (unsigned long long)o->load.prompt_tokens,
           (unsigned long long)o->load.output_tokens);
  printf(",\"seed\":%llu}", (unsigned long long)o->load.seed);
  json_dist("ttft_ms", &r->ttft);
  json_dist("tpot_ms", &r->tpot);
  json_dist("itl_ms", &r->itl);
  json_dist("e2e_ms", &r->e2e);
  printf(",\"output_tokens_per_s\":");
  cli_json_double(stdout, r->output_tokens_per_s);
  printf(",\"total_tokens_per_s\":");
  cli_json_double(stdout, r->total_tokens_per_s);
  printf(",\"requests_per_s\":");
  cli_json_double(stdout, r->requests_per_s);
  printf(",\"duration_s\":");
  cli_json_double(stdout, r->duration);
  printf(",\"mean_in_flight\":");
  cli_json_double(stdout, r->mean_in_flight);
  printf(",\"steps\":%llu,\"preemptions\":%llu,\"pool_blocks\":%llu,\"pool_tokens\":%llu,\"pool_peak_blocks\":%llu",
         (unsigned long long)r->steps, (unsigned long long)r->preemptions, (unsigned long long)r->pool_blocks,
         (unsigned long long)r->pool_tokens, (unsigned long long)r->peak_blocks);
  printf(",\"pool_peak_share\":");
  cli_json_double(stdout, (double)r->peak_blocks / (double)r->pool_blocks);
  printf(",\"overloaded\":%s,\"sustainable_rate\":", r->overloaded ? "true" : "false");
  if (o->load.kind == GS_LOAD_OPEN) cli_json_double(stdout, r->sustainable_rate);
  else printf("null");
  printf("}\n");
}

static void print_dist_row(const char *name, const gs_dist *d) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], e[GS_FIGURE_CAP];
  printf("  %-28s %12s %12s %12s %12s\n", name, gs_fixed_grouped(a, sizeof a, d->mean * 1e3, 2),
         gs_fixed_grouped(b, sizeof b, d->p50 * 1e3, 2), gs_fixed_grouped(c, sizeof c, d->p90 * 1e3, 2),
         gs_fixed_grouped(e, sizeof e, d->p99 * 1e3, 2));
}

static void print_table(const gs_setting *s, const serve_options *o, const gs_serve_result *r, const char *serving) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP];
  printf("Serve: %s on %llu x %s (%s), %llu replica%s: %llu GPU%s\n", s->model_name,
         (unsigned long long)(r->gpus / s->replicas), s->gpu_text.name, gs_split_name(s->plan.split),
         (unsigned long long)s->replicas, s->replicas == 1 ? "" : "s", (unsigned long long)r->gpus, r->gpus == 1 ? "" : "s");
  if (o->load.pairs) {
    printf("Load: %llu requests with lengths from ", (unsigned long long)o->load.requests);
    cli_put_text(stdout, o->lengths);
    printf(" (%zu pairs, replayed in order), ", o->load.pairs);
  } else {
    printf("Load: %llu requests of %llu prompt and %llu output tokens, ", (unsigned long long)o->load.requests,
           (unsigned long long)o->load.prompt_tokens, (unsigned long long)o->load.output_tokens);
  }
  if (o->load.kind == GS_LOAD_CLOSED) printf("%llu in flight (closed loop)", (unsigned long long)o->load.concurrency);
  else if (o->load.kind == GS_LOAD_OPEN) printf("Poisson at %s a second (seed %llu)", gs_plain(a, sizeof a, o->load.rate), (unsigned long long)o->load.seed);
  else printf("all sent at once");
  printf("\nAssumptions: %s\nServing: %s\nFitted: %s\n\n", s->assumptions, serving, GS_SERVING_TABLE.summary);
  printf("  %-28s %12s %12s %12s %12s\n", "ms", "mean", "p50", "p90", "p99");
  print_dist_row("time to first token", &r->ttft);
  print_dist_row("time per output token", &r->tpot);
  print_dist_row("gap between tokens", &r->itl);
  print_dist_row("whole request", &r->e2e);
  printf("\nOutput tokens a second %s, all tokens %s, requests %s (over %s s, first arrival to last completion)\n",
         gs_fixed_grouped(a, sizeof a, r->output_tokens_per_s, 1), gs_fixed_grouped(b, sizeof b, r->total_tokens_per_s, 1),
         gs_fixed_grouped(c, sizeof c, r->requests_per_s, 3), gs_fixed_grouped((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, r->duration, 2));
  printf("Cache pool: %llu blocks an instance, at most %llu used (%s%%); %llu preemptions; %llu steps\n",
         (unsigned long long)r->pool_blocks, (unsigned long long)r->peak_blocks,
         gs_fixed(a, sizeof a, 100.0 * (double)r->peak_blocks / (double)r->pool_blocks, 1), (unsigned long long)r->preemptions,
         (unsigned long long)r->steps);
  if (o->load.kind == GS_LOAD_OPEN)
    printf("%s: the deployment completes %s requests a second when every request waits (all sent at once)\n",
           r->overloaded ? "Overloaded" : "Held", gs_fixed_grouped(a, sizeof a, r->sustainable_rate, 3));
}

/* The sums of the typical step. */
static void print_explain(const gs_serve_result *r) {
  const gs_mixed_cost *c = &r->typical;
  const gs_step_work *w = &r->typical_work;
  printf("\nThe step in which half the requests were done: %llu sequences, %llu tokens, %llu tokens of cache read\n",
         (unsigned long long)w->seqs, (unsigned long long)w->tokens, (unsigned long long)w->cache_full);
  printf("  read    %llu bytes a GPU = %s ms\n", (unsigned long long)c->read_bytes,
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->read * 1e3, 3));
  printf("  compute (%s GEMM + %s attention) operations = %s ms a GPU\n",
         gs_plain((char[32]){0}, 32, c->gemm_ops), gs_plain((char[32]){0}, 32, c->attention_ops),
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->compute * 1e3, 3));
  printf("  busy    %s ms; transfers %s ms; step %s ms\n", gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->busy * 1e3, 3),
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->time.transfer * 1e3, 3),
         gs_fixed((char[GS_FIGURE_CAP]){0}, GS_FIGURE_CAP, c->seconds * 1e3, 3));
}

/* --lengths FILE read into o->pairs (prompts, then outputs) and the load. */
static int read_lengths(serve_options *o) {
  char *text;
  size_t len, cap, i, count;
  gs_error err;
  int rc;
  if (!o->lengths) return CLI_OK;
  if ((rc = cli_read_file(o->lengths, 64u << 20, "a lengths file", &text, &len)) != CLI_OK) return rc;
  for (cap = 1, i = 0; i < len; i++) cap += text[i] == '\n';
  if (cap > GS_SERVE_MAX_REQUESTS) cap = GS_SERVE_MAX_REQUESTS;
  o->pairs = malloc(2 * cap * sizeof *o->pairs);
  if (!o->pairs) rc = cli_bad("--lengths: out of memory for %zu pairs", cap);
  else if (gs_lengths_parse(text, len, o->pairs, o->pairs + cap, cap, &count, &err) != GS_OK) rc = cli_bad_error(o->lengths, &err);
  free(text);
  if (rc != CLI_OK) return rc;
  o->load.prompts = o->pairs;
  o->load.outputs = o->pairs + cap;
  o->load.pairs = count;
  return CLI_OK;
}

/* The layout: one count, a plan the served step can price. */
static int serve_plan(const cli_report_options *r, gs_plan *p) {
  *p = r->setting.plan;
  if (r->count_n != 1) return cli_bad("serve: --counts N is needed, one GPU count for the layout");
  p->gpus = r->counts[0];
  p->words = 1;
  p->in_flight = 0;
  if (p->experts != GS_EXPERTS_SLICES) return cli_bad("--experts: serve prices experts sliced only, not yet spread");
  return CLI_OK;
}

static int simulate(const cli_report_options *r, const serve_options *o, const gs_plan *p, const gs_scheduler *e,
                    gs_serve_result *out) {
  size_t n = (size_t)o->load.requests;
  gs_serve_space sp;
  gs_error err;
  int rc;
  sp.cap = n;
  sp.reqs = malloc(n * sizeof *sp.reqs);
  sp.ids = malloc(3 * n * sizeof *sp.ids);
  sp.scratch = malloc(n * sizeof *sp.scratch);
  sp.itl = malloc(sizeof *sp.itl);
  rc = !sp.reqs || !sp.ids || !sp.scratch || !sp.itl ? cli_bad("serve: out of memory for %zu requests", n) : CLI_OK;
  if (rc == CLI_OK && gs_serve_run(&r->setting.model, &r->setting.gpu, &r->setting.link, p, r->setting.replicas, e, &o->load,
                                   &sp, out, &err) != GS_OK)
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
  cli_report_options *r = malloc(sizeof *r);
  char **rest = malloc(((size_t)argc + 1) * sizeof *rest), serving[1024];
  int rest_n, rc;
  gs_plan p;
  gs_scheduler e;
  gs_serve_result out;
  memset(&o, 0, sizeof o);
  if (!r || !rest) rc = cli_bad("serve: out of memory");
  else if ((rc = split_args(argc, argv, &o, rest, &rest_n)) == CLI_OK && (rc = cli_report_parse(rest_n, rest, r)) == CLI_OK &&
           (rc = serve_plan(r, &p)) == CLI_OK && (rc = engine_limits(&o, &r->setting, p.gpus, &e)) == CLI_OK) {
    o.load.prompt_tokens = p.prompt_tokens ? p.prompt_tokens : 1024;
    p.prompt_tokens = 0;
    if ((rc = read_lengths(&o)) == CLI_OK && (rc = simulate(r, &o, &p, &e, &out)) == CLI_OK) {
      serving_line(serving, sizeof serving, &p, &e, &out);
      if (o.json) print_json(&r->setting, &o, &e, &out, serving);
      else print_table(&r->setting, &o, &out, serving);
      if (o.explain && !o.json) print_explain(&out);
    }
  }
  if (rc == CLI_HELPED) rc = CLI_OK;
  free(r);
  free(rest);
  free(o.pairs);
  return rc;
}
