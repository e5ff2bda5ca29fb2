/* `gpusplit serve`: a load served by one layout, simulated step by step by an engine's
 * scheduler (gs_serve_run, csrc/serve/). Parses and prints only: the model, the machine
 * and the rules are read by report's own flags (cli_report_parse), the load and the
 * engine's limits here. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char SERVE_HEAD[] =
    "usage: gpusplit serve --model M --gpu G --counts N [--split S] [--replicas R]\n"
    "                      [--concurrency C | --rate R] [--requests N] [--prompt-tokens P]\n"
    "                      [--output-tokens O] [--seed S] [--engine vllm|sglang|trt-llm]\n"
    "                      [--max-seqs N] [--max-batched-tokens N] [--memory-share F]\n"
    "                      [--block-tokens N] [--overlap-share F] [--explain] [--json]\n"
    "\n"
    "A load served by one layout, simulated step by step: requests arrive, their prompts\n"
    "are prefilled in chunks beside other chats' decoding, the cache pool fills, the engine\n"
    "caps the batch. Prints time to the first token, time per output token, the gaps\n"
    "between tokens and the whole request as mean, p50, p90 and p99, and the tokens a\n"
    "second. The serving figures are not yet fitted to or checked against measured runs.\n"
    "\n";

typedef struct {
  gs_load load;
  gs_scheduler limits;   /* the engine's limits given (bits of given) */
  unsigned given;        /* enum given_bit */
  int json, explain;
  const char *lengths;   /* --lengths FILE or sharegpt, or NULL */
  int sharegpt;          /* --lengths sharegpt */
  int prompt_given;      /* --prompt-tokens given (with sharegpt: the prompts' mean) */
  uint64_t *pairs;       /* the file's prompts, then its outputs (malloc'd, 2 x cap) */
} serve_options;

enum given_bit { G_CONCURRENCY = 1, G_RATE = 2, G_OUTPUT = 4, G_MAX_SEQS = 8, G_MAX_BATCHED = 16, G_MEMORY = 32, G_BLOCK = 64,
                 G_OVERLAP = 128 };
static const uint64_t BLOCK_MOST = 65536, SEED_MOST = UINT64_MAX, REQUESTS_MOST = GS_SERVE_MAX_REQUESTS;
#define AT(member) offsetof(serve_options, member)
#define GIVEN(name, meta, member, most, bit, help) {name, GS_FLAG_WHOLE, meta, AT(member), bit, AT(given), most, 0, 0, 0, 0, help}
#define SHARE(name, meta, member, lo, bit, help) {name, GS_FLAG_REAL, meta, AT(member), bit, AT(given), NULL, lo, 1, 0, 0, help}
#define DECIDED(flag) GS_REFUSED(flag, "what the served load decides")
/* serve's own flags, read before report's, and report's that a served load decides. */
static const gs_flag SERVE_FLAGS[] = {
    GS_NOTE("The load (default: all --requests sent at once):"),
    GIVEN("--concurrency", "C", load.concurrency, &REQUESTS_MOST, G_CONCURRENCY, "closed loop: C requests in flight, a new one as one ends"),
    {"--rate", GS_FLAG_REAL, "R", AT(load.rate), G_RATE, AT(given), NULL, 0, 1e9, 1, 0, "open loop: Poisson arrivals, R requests a second"},
    GS_WHOLE("--requests", "N", AT(load.requests), &REQUESTS_MOST, "requests in all, 1 to 250000 (default 1000); the load at most\n"
                                                                  "4194304 steps: each request's output plus its prompt's chunks"),
    GS_NOTE("  --prompt-tokens P  each prompt (default 1024: vllm bench serve's random input)"),
    GIVEN("--output-tokens", "O", load.output_tokens, &GS_MAX_CHAT_TOKENS, G_OUTPUT, "each output (default 128: its random output)"),
    GS_WHOLE("--seed", "S", AT(load.seed), &SEED_MOST, "the arrivals' seed (default 1)"),
    GS_PATH("--lengths", "FILE", AT(lengths), "each request's prompt and output from FILE, \"PROMPT,OUTPUT\" a\n"
                                             "line ('#' comments), replayed in order (instead of the two above);\n"
                                             "or sharegpt: drawn from ShareGPT's lengths as vLLM's benchmark\n"
                                             "draws them (data/sharegpt_lengths.csv, shuffled with --seed),\n"
                                             "rescaled to the means --prompt-tokens and --output-tokens give"),
    GS_NOTE("The engine, one instance per copy of the layout (defaults: the engine's own, some\n"
            "depending on the GPU; csrc/serve/engine.c names the sources):\n"
            "  --engine E         vllm (default), sglang or trt-llm; also picks report's fitted\n"
            "                     efficiency for that engine"),
    GIVEN("--max-seqs", "N", limits.max_seqs, &REQUESTS_MOST, G_MAX_SEQS, "sequences a step holds"),
    GIVEN("--max-batched-tokens", "N", limits.max_batched_tokens, &GS_MAX_WORDS, G_MAX_BATCHED,
          "tokens a step computes (the prefill chunk budget)"),
    SHARE("--memory-share", "F", limits.memory_share, 0.01, G_MEMORY, "share of each GPU's memory the engine takes, 0.01 to 1"),
    GIVEN("--block-tokens", "N", limits.block_tokens, &BLOCK_MOST, G_BLOCK, "tokens a cache block holds"),
    SHARE("--overlap-share", "F", limits.overlap_share, 0, G_OVERLAP, "busy = max(read, compute) + F x min(read, compute), 0 to 1\n"
                                                                     "(default 0: the larger of the two, as report prices a step)"),
    GS_NOTE("The layout: --counts N (one count), --split, --replicas (requests shared round-robin).\n"
            "The model, the machines and the rules take report's flags (gpusplit report --help)."),
    GS_SWITCH("--explain", AT(explain), 0, "the sums of the step in which half the requests were done"),
    GS_SWITCH("--json", AT(json), 0, "one JSON object instead of the table"),
    DECIDED("--words"), DECIDED("--in-flight"), DECIDED("--gpus"), DECIDED("--max-n"), DECIDED("--cache-per-chat"),
    DECIDED("--no-cache-per-chat"), DECIDED("--emit"),
};

/* serve's flags and report's, each by its table, then what they say together. */
static int read_flags(int argc, char **argv, serve_options *o, cli_report_flags *rf) {
  gs_flag_set sets[2] = {{SERVE_FLAGS, sizeof SERVE_FLAGS / sizeof SERVE_FLAGS[0], o, NULL, NULL},
                         {CLI_REPORT_FLAGS, CLI_REPORT_FLAG_N, rf, NULL, NULL}};
  const char *engine = rf->q.engine;
  int rc;
  o->load.requests = 1000;
  o->load.output_tokens = 128;
  o->load.seed = 1;
  o->load.kind = GS_LOAD_BATCH;
  if ((rc = cli_flags_or_help(sets, 2, argc, argv, SERVE_HEAD, "")) != CLI_OK) return rc;
  engine = rf->q.engine;
  if (engine && strcmp(engine, "vllm") != 0 && strcmp(engine, "sglang") != 0 && strcmp(engine, "trt-llm") != 0)
    return cli_bad("--engine: serve simulates vllm, sglang or trt-llm, not '%s'", engine);
  if ((o->given & G_CONCURRENCY) && (o->given & G_RATE)) return cli_bad("serve: --concurrency and --rate are two loads; give one");
  o->sharegpt = o->lengths && strcmp(o->lengths, "sharegpt") == 0;
  o->prompt_given = rf->prompt_tokens != NULL;
  if (o->lengths && !o->sharegpt && ((o->given & G_OUTPUT) || rf->prompt_tokens))
    return cli_bad("--lengths: gives each request's prompt and output; leave out --prompt-tokens and --output-tokens");
  if (o->sharegpt && rf->prompt_tokens && strcmp(rf->prompt_tokens, "none") == 0)
    return cli_bad("--prompt-tokens: with --lengths sharegpt, the prompts' mean in tokens, not 'none'");
  if (o->given & G_CONCURRENCY) o->load.kind = GS_LOAD_CLOSED;
  if (o->given & G_RATE) o->load.kind = GS_LOAD_OPEN;
  return CLI_OK;
}

/* The engine's defaults for this GPU and count, then each limit given. */
static int engine_limits(const serve_options *o, const char *engine, const gs_setting *s, uint64_t gpus, gs_scheduler *e) {
  const gs_scheduler *l = &o->limits;
  gs_error err;
  if (gs_engine_defaults(engine, &s->gpu, s->gpu_text.key, gpus, e, &err) != GS_OK) return cli_bad("--engine: %s", err.what);
  if (o->given & G_MAX_SEQS) e->max_seqs = l->max_seqs;
  if (o->given & G_MAX_BATCHED) e->max_batched_tokens = l->max_batched_tokens;
  if (o->given & G_MEMORY) e->memory_share = l->memory_share;
  if (o->given & G_BLOCK) e->block_tokens = l->block_tokens;
  if (o->given & G_OVERLAP) e->overlap_share = l->overlap_share;
  return CLI_OK;
}

/* The rules of the serving figures, in one line. */
static void serving_line(char *buf, size_t cap, const gs_plan *p, const gs_scheduler *e, const gs_serve_result *r) {
  char share[32];
  snprintf(share, sizeof share, "%s", gs_plain((char[32]){0}, 32, e->overlap_share));
  snprintf(buf, cap,
           "%s's scheduler simulated step by step (max %llu sequences and %llu tokens a step, %s, %s; a pool of %llu "
           "blocks of %llu tokens at %s of memory); a step's busy time max(read, compute) + %s x min%s; requests shared "
           "round-robin over the replicas; not yet fitted to or validated against measured serving runs",
           gs_engine_name(e->kind), (unsigned long long)r->max_seqs, (unsigned long long)e->max_batched_tokens,
           e->mixed ? "prefill chunks beside decodes" : "a step prefills or decodes",
           e->reserve_full ? "a request's whole cache reserved, never preempted" : "preemption by recompute",
           (unsigned long long)r->pool_blocks, (unsigned long long)e->block_tokens,
           gs_plain((char[32]){0}, 32, e->memory_share), share,
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

/* The mean of the requests' lengths, pairs replayed in order (exact: sums below 2^53). */
static double mean_length(const gs_load *l, const uint64_t *lengths) {
  uint64_t sum = 0, i;
  for (i = 0; i < l->requests; i++) sum += lengths[i % l->pairs];
  return (double)sum / (double)l->requests;
}

static const char *load_name(int kind) { return kind == GS_LOAD_CLOSED ? "closed" : kind == GS_LOAD_OPEN ? "open" : "batch"; }

static void print_json(const gs_setting *s, const serve_options *o, const gs_scheduler *e, const gs_serve_result *r,
                       const char *serving) {
  printf("{\"assumptions\":");
  cli_json_string(stdout, s->assumptions);
  printf(",\"serving_assumptions\":");
  cli_json_string(stdout, serving);
  printf(",\"validated\":false,\"model\":");
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
  if (o->load.pairs) {
    printf(",\"prompt_tokens\":null,\"output_tokens\":null,\"length_pairs\":%zu,\"lengths\":", o->load.pairs);
    cli_json_string(stdout, o->sharegpt ? "sharegpt" : "file");
    printf(",\"mean_prompt_tokens\":");
    cli_json_double(stdout, mean_length(&o->load, o->load.prompts));
    printf(",\"mean_output_tokens\":");
    cli_json_double(stdout, mean_length(&o->load, o->load.outputs));
  }
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
  if (o->sharegpt) {
    printf("Load: %llu requests drawn from ShareGPT's lengths (seed %llu; prompts %s, outputs %s tokens on average), ",
           (unsigned long long)o->load.requests, (unsigned long long)o->load.seed,
           gs_fixed(a, sizeof a, mean_length(&o->load, o->load.prompts), 1), gs_fixed(b, sizeof b, mean_length(&o->load, o->load.outputs), 1));
  } else if (o->load.pairs) {
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
  printf("\nAssumptions: %s\nServing: %s\n\n", s->assumptions, serving);
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

/* ShareGPT's lengths (data/sharegpt_lengths.csv, compiled in): the table read, each request's
 * pair drawn from it with the seed into o->pairs, and rescaled to the means given. */
static int draw_sharegpt(serve_options *o) {
  extern const char GS_DATA_sharegpt_lengths_csv[];
  const char *text = GS_DATA_sharegpt_lengths_csv;
  size_t len = strlen(text), cap = 1, i, count, n = (size_t)o->load.requests;
  uint64_t *table;
  gs_error err;
  int rc = CLI_OK;
  for (i = 0; i < len; i++) cap += text[i] == '\n';
  table = malloc(2 * cap * sizeof *table);
  o->pairs = malloc(2 * n * sizeof *o->pairs);
  if (!table || !o->pairs) rc = cli_bad("--lengths sharegpt: out of memory for %zu requests", n);
  else if (gs_lengths_parse(text, len, table, table + cap, cap, &count, &err) != GS_OK) rc = cli_bad_error("sharegpt", &err);
  if (rc == CLI_OK) {
    gs_lengths_draw(table, table + cap, count, o->load.seed, n, o->pairs, o->pairs + n);
    if ((o->prompt_given && gs_lengths_rescale(o->pairs, n, o->load.prompt_tokens, GS_MAX_CHAT_TOKENS, "--prompt-tokens", &err) != GS_OK) ||
        ((o->given & G_OUTPUT) && gs_lengths_rescale(o->pairs + n, n, o->load.output_tokens, GS_MAX_CHAT_TOKENS, "--output-tokens", &err) != GS_OK))
      rc = cli_bad("%s: %s", err.field, err.what);
  }
  for (i = 0; rc == CLI_OK && i < n; i++)
    if (o->pairs[i] + o->pairs[n + i] > GS_MAX_CHAT_TOKENS)
      rc = cli_bad("--lengths sharegpt: rescaled, a prompt and an output of %llu tokens together, above %llu",
                   (unsigned long long)(o->pairs[i] + o->pairs[n + i]), (unsigned long long)GS_MAX_CHAT_TOKENS);
  free(table);
  o->load.prompts = o->pairs;
  o->load.outputs = o->pairs + n;
  o->load.pairs = n;
  return rc;
}

/* --lengths FILE read into o->pairs (prompts, then outputs) and the load; or sharegpt's. */
static int read_lengths(serve_options *o) {
  char *text;
  size_t len, cap, i, count;
  gs_error err;
  int rc;
  if (!o->lengths) return CLI_OK;
  if (o->sharegpt) return draw_sharegpt(o);
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
  cli_report_flags *f = calloc(1, sizeof *f);
  cli_report_options *r = malloc(sizeof *r);
  char serving[1024];
  int rc;
  gs_plan p;
  gs_scheduler e;
  gs_serve_result out;
  memset(&o, 0, sizeof o);
  if (!r || !f) rc = cli_bad("serve: out of memory");
  else if ((rc = read_flags(argc, argv, &o, f)) == CLI_OK && (rc = cli_report_resolve(f, r)) == CLI_OK &&
           (rc = serve_plan(r, &p)) == CLI_OK && (rc = engine_limits(&o, f->q.engine, &r->setting, p.gpus, &e)) == CLI_OK) {
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
  free(f);
  free(o.pairs);
  return rc;
}
