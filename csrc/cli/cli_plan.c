/* `gpusplit plan`: every layout within a budget of GPUs (gs_plan_search, csrc/core/plan.c),
 * printed as a frontier: for each time a word, the layout with the most words a second a
 * GPU, each named by the report flags that price it again. Targets mark the best layout
 * that meets them, or say why none does. The model, the machine and the rules are read by
 * report's own flags (cli_report_parse), so a point's flags added to them reproduce it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char PLAN_HELP[] =
    "usage: gpusplit plan --model M --gpu G [--link L] [--per-server S] [--between B]\n"
    "                     --gpus-max N [--target-word-ms T] [--target-first-ms F] [--json]\n"
    "\n"
    "Every layout within N GPUs: slices within servers and across, groups of layers,\n"
    "slices-groups (slices in a server, groups across), a mixture's experts sliced or\n"
    "spread, one batch in flight or one a group, chats at once 1, 2, 3, 4, 6, 8, 12, ...\n"
    "up to what fits, each served by as many replicas as N GPUs hold: at every count up to\n"
    "64, and past 64 at the counts it names (steps of x 1.5 and x 4/3, whole servers, the\n"
    "heads' divisors, the fewest that hold the model). It prints the frontier: for each\n"
    "time a word some layout reaches, the layout with the most words a second a GPU, with\n"
    "the report flags that give its figures again.\n"
    "\n"
    "  --gpus-max N         the budget of GPUs, 1 to 65536\n"
    "  --target-word-ms T   mark the best layout whose time a word is at most T ms\n"
    "  --target-first-ms F  ... and whose first word comes within F ms (needs a prompt:\n"
    "                       real rules' 1,024 tokens, or --prompt-tokens N)\n"
    "  --json               one JSON object instead of the table\n"
    "  --emit vllm|sglang|trtllm  instead, the command that starts that engine on the\n"
    "                       layout the targets choose (gpusplit report --help)\n"
    "\n"
    "The model, the machines and the rules take report's flags (gpusplit report --help):\n"
    "--model, --bits, --gpu, --link, --per-server, --between, --assume, --engine, --chat-tokens,\n"
    "--prompt-tokens, --gpu-hour, ... The plan chooses --split, --experts, --words,\n"
    "--in-flight, --replicas and the count itself, so those are refused here.\n"
    "\n"
    "A served load (any flag below): each layout is simulated by serve's scheduler\n"
    "(gpusplit serve --help), not yet fitted to measured serving runs. Layouts: a copy of\n"
    "up to 64 GPUs, slices, groups or slices-groups, experts sliced, and with a per-token\n"
    "target and no --max-seqs the best three again at the engine's cap halved, down to 32.\n"
    "  --target-ttft-ms T   time to the first token within T ms (--target-first-ms too)\n"
    "  --target-tpot-ms T   time per output token within T ms (--target-word-ms too)\n"
    "  --target-stat S      the figure the targets hold: mean, p50, p90 (default) or p99\n"
    "  --concurrency C | --rate R  the deployment's load (serve's); each layout takes the\n"
    "                       fewest replicas that hold it within the targets. Without one,\n"
    "                       each layout's copy gets the highest Poisson rate it holds within\n"
    "                       them (searched within 1/128 of the rate it completes saturated),\n"
    "                       per GPU and, with --gpu-hour, requests a dollar buys\n"
    "  --requests N --output-tokens O --seed S --lengths FILE  serve's, for each run;\n"
    "                       report's --prompt-tokens (default 1024) and --engine\n"
    "  --max-seqs N --max-batched-tokens N --memory-share F --block-tokens N\n"
    "  --overlap-share F    the engine's limits, as serve takes them\n"
    "Limit, checked first: layouts x requests x (prompt + output tokens) at most 250000000\n"
    "(under 2 s of CPU for 64 GPUs). A point's serve flags give its figures again: without a\n"
    "load, one copy at its --rate.\n";

/* Flags the plan chooses itself: given, they would be ignored, so they are refused. */
static const char *const CHOSEN[] = {"--split", "--experts", "--words", "--in-flight", "--replicas", "--counts",
                                     "--max-n", "--gpus", "--explain"};

/* The served plan's own flags (any of them makes the plan simulate a served load). */
static const char *const SERVED[] = {"--concurrency", "--rate", "--requests", "--output-tokens", "--seed", "--lengths",
                                     "--max-seqs", "--max-batched-tokens", "--memory-share", "--block-tokens",
                                     "--overlap-share", "--target-ttft-ms", "--target-tpot-ms", "--target-stat"};
enum { S_CONC, S_RATE, S_REQUESTS, S_OUTPUT, S_SEED, S_LENGTHS, S_SEQS, S_BATCHED, S_SHARE, S_BLOCK, S_OVERLAP, S_TTFT, S_TPOT,
       S_STAT, S_COUNT };

typedef struct {
  gs_plan_ask ask;
  const char *served[S_COUNT]; /* the served flags' texts; NULL: not given */
  int serving;                 /* 1: one was given */
  const char *engine;          /* report's --engine, which the served plan simulates too */
  gs_served_ask sask;
  uint64_t *pairs;             /* --lengths FILE's prompts then outputs (malloc'd) */
  int json;
  const char *emit; /* --emit ENGINE: the chosen layout's launch command instead; NULL: none */
  char **report_args; /* report's flags as given, whole, for a point's command (argv's own) */
  int report_n;
} plan_options;

/* A time in ms from a flag, above 0 and at most a day. */
static int parse_ms(const char *flag, const char *text, double *seconds) {
  char *end;
  double x;
  errno = 0;
  x = strtod(text, &end);
  if (text[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(x) || !(x > 0) || x > 86400e3)
    return cli_bad("%s: must be a time in ms above 0 and at most 86400000, not '%s'", flag, text);
  *seconds = x / 1e3;
  return CLI_OK;
}

static int is_chosen(const char *arg) {
  size_t i, n = strcspn(arg, "=");
  for (i = 0; i < sizeof CHOSEN / sizeof CHOSEN[0]; i++)
    if (strlen(CHOSEN[i]) == n && strncmp(arg, CHOSEN[i], n) == 0) return 1;
  return 0;
}

/* A served flag at argv[*i] taken into o (1), not one (0), or no value (CLI_BAD_INPUT). */
static int served_flag(int argc, char **argv, int *i, plan_options *o) {
  const char *arg = argv[*i], *eq = strchr(arg, '=');
  size_t k, n = eq ? (size_t)(eq - arg) : strlen(arg);
  for (k = 0; k < S_COUNT && !(strlen(SERVED[k]) == n && strncmp(arg, SERVED[k], n) == 0); k++) {
  }
  if (k == S_COUNT) return 0;
  if (eq) o->served[k] = eq + 1;
  else if (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0) o->served[k] = argv[++*i];
  else return cli_bad("%s: needs a value", SERVED[k]);
  o->serving = 1;
  return 1;
}

/* Splits argv into the plan's own flags and report's, which go to rest (rest[0] = "plan"). */
static int split_args(int argc, char **argv, plan_options *o, char **rest, int *rest_n) {
  const char *gpus_max = NULL;
  int i;
  *rest_n = 0;
  rest[(*rest_n)++] = argv[0];
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i], *value = NULL, *eq = strchr(arg, '=');
    const char *own[] = {"--gpus-max", "--target-word-ms", "--target-first-ms", "--emit"};
    size_t k, n = eq ? (size_t)(eq - arg) : strlen(arg);
    int rc;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      fputs(PLAN_HELP, stdout);
      return CLI_HELPED;
    }
    if (strcmp(arg, "--json") == 0) {
      o->json = 1;
      continue;
    }
    if (is_chosen(arg)) return cli_bad("plan: %.*s is what the plan chooses; leave it out", (int)n, arg);
    if ((rc = served_flag(argc, argv, &i, o)) == CLI_BAD_INPUT) return rc;
    if (rc) continue;
    if (strlen("--engine") == n && strncmp(arg, "--engine", n) == 0)
      o->engine = eq ? eq + 1 : i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[i + 1] : NULL;
    for (k = 0; k < 4; k++)
      if (strlen(own[k]) == n && strncmp(arg, own[k], n) == 0) break;
    if (k < 4) {
      if (eq) value = eq + 1;
      else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) value = argv[++i];
      else return cli_bad("%s: needs a value", own[k]);
      if (k == 0) gpus_max = value;
      else if (k == 3) o->emit = value;
      else if ((rc = parse_ms(own[k], value, k == 1 ? &o->ask.target_word_s : &o->ask.target_first_s)) != CLI_OK) return rc;
      continue;
    }
    rest[(*rest_n)++] = argv[i];
  }
  /* kept for the points' commands: report's flags as given, whole (a value with a space or
   * a quote is kept as typed; the command is for a person to read) */
  o->report_args = rest + 1;
  o->report_n = *rest_n - 1;
  if (!gpus_max) return cli_bad("plan: --gpus-max N is needed: the budget of GPUs");
  return cli_parse_whole("--gpus-max", gpus_max, GS_MAX_GPUS, &o->ask.gpus_max);
}

/* A served plan's whole-number flags: (index, the most it takes, where it goes). */
static int served_wholes(plan_options *o) {
  gs_served_ask *a = &o->sask;
  uint64_t *to[] = {&a->load.concurrency, &a->load.requests, &a->load.output_tokens, &a->load.seed, &a->limits.max_seqs,
                    &a->limits.max_batched_tokens, &a->limits.block_tokens};
  const int at[] = {S_CONC, S_REQUESTS, S_OUTPUT, S_SEED, S_SEQS, S_BATCHED, S_BLOCK};
  const uint64_t most[] = {GS_SERVE_MAX_REQUESTS, GS_SERVE_MAX_REQUESTS, GS_MAX_CHAT_TOKENS, UINT64_MAX, GS_SERVE_MAX_REQUESTS,
                           GS_MAX_WORDS, 65536};
  const unsigned given[] = {0, 0, 0, 0, GS_GIVEN_MAX_SEQS, GS_GIVEN_BATCHED, GS_GIVEN_BLOCK};
  size_t k;
  int rc;
  for (k = 0; k < sizeof at / sizeof at[0]; k++) {
    if (!o->served[at[k]]) continue;
    if ((rc = cli_parse_whole(SERVED[at[k]], o->served[at[k]], most[k], to[k])) != CLI_OK) return rc;
    a->given |= given[k];
  }
  return CLI_OK;
}

/* A served plan's figures with a fraction: the rate, the two shares, the targets. */
static int served_numbers(plan_options *o) {
  gs_served_ask *a = &o->sask;
  const char **v = o->served;
  int rc;
  if (v[S_RATE] && ((rc = cli_parse_number("--rate", v[S_RATE], &a->load.rate)) != CLI_OK || !(a->load.rate > 0 && a->load.rate <= 1e9)))
    return rc != CLI_OK ? rc : cli_bad("--rate: must be above 0 and at most 1e9 requests a second, not '%s'", v[S_RATE]);
  if (v[S_SHARE] && ((rc = cli_parse_number("--memory-share", v[S_SHARE], &a->limits.memory_share)) != CLI_OK ||
                     !(a->limits.memory_share >= 0.01 && a->limits.memory_share <= 1)))
    return rc != CLI_OK ? rc : cli_bad("--memory-share: must be from 0.01 to 1, not '%s'", v[S_SHARE]);
  if (v[S_OVERLAP] && ((rc = cli_parse_number("--overlap-share", v[S_OVERLAP], &a->limits.overlap_share)) != CLI_OK ||
                       !(a->limits.overlap_share >= 0 && a->limits.overlap_share <= 1)))
    return rc != CLI_OK ? rc : cli_bad("--overlap-share: must be from 0 to 1, not '%s'", v[S_OVERLAP]);
  a->given |= (v[S_SHARE] ? GS_GIVEN_SHARE : 0) | (v[S_OVERLAP] ? GS_GIVEN_OVERLAP : 0);
  if ((o->ask.target_word_s > 0 && v[S_TPOT]) || (o->ask.target_first_s > 0 && v[S_TTFT]))
    return cli_bad("plan: --target-word-ms is --target-tpot-ms and --target-first-ms is --target-ttft-ms in a served plan; give one of each");
  a->target_tpot_s = o->ask.target_word_s;
  a->target_ttft_s = o->ask.target_first_s;
  if (v[S_TPOT] && (rc = parse_ms("--target-tpot-ms", v[S_TPOT], &a->target_tpot_s)) != CLI_OK) return rc;
  if (v[S_TTFT] && (rc = parse_ms("--target-ttft-ms", v[S_TTFT], &a->target_ttft_s)) != CLI_OK) return rc;
  return CLI_OK;
}

/* --lengths FILE: its pairs into the load. */
static int served_lengths(plan_options *o) {
  char *text;
  size_t len, cap = 1, i, count;
  gs_error err;
  int rc;
  if ((rc = cli_read_file(o->served[S_LENGTHS], 64u << 20, "a lengths file", &text, &len)) != CLI_OK) return rc;
  for (i = 0; i < len; i++) cap += text[i] == '\n';
  if (cap > GS_SERVE_MAX_REQUESTS) cap = GS_SERVE_MAX_REQUESTS;
  if (!(o->pairs = malloc(2 * cap * sizeof *o->pairs))) rc = cli_bad("--lengths: out of memory for %zu pairs", cap);
  else if (gs_lengths_parse(text, len, o->pairs, o->pairs + cap, cap, &count, &err) != GS_OK)
    rc = cli_bad_error(o->served[S_LENGTHS], &err);
  free(text);
  o->sask.load.prompts = o->pairs;
  o->sask.load.outputs = o->pairs + cap;
  o->sask.load.pairs = rc == CLI_OK ? count : 0;
  return rc;
}

/* The served plan's ask from its flags and report's setting (the prompt: report's
 * --prompt-tokens, or serve's 1,024). */
static int served_ask(plan_options *o, const cli_report_options *r) {
  static const char *const STATS[] = {"mean", "p50", "p90", "p99"};
  gs_served_ask *a = &o->sask;
  const char **v = o->served;
  int rc, k;
  a->gpus_max = o->ask.gpus_max;
  a->engine = o->engine;
  a->stat = GS_STAT_P90;
  a->load.requests = 1000;
  a->load.output_tokens = 128;
  a->load.seed = 1;
  a->load.prompt_tokens = r->setting.plan.prompt_tokens ? r->setting.plan.prompt_tokens : 1024;
  if (o->emit) return cli_bad("--emit: not with a served plan yet; plan without the load and target flags, or serve the choice");
  if (v[S_CONC] && v[S_RATE]) return cli_bad("plan: --concurrency and --rate are two loads; give one");
  if (v[S_LENGTHS] && v[S_OUTPUT]) return cli_bad("--lengths: gives each request's prompt and output; leave out --output-tokens");
  for (k = 0; v[S_STAT] && k < 4 && strcmp(v[S_STAT], STATS[k]) != 0; k++) {
  }
  if (k == 4) return cli_bad("--target-stat: mean, p50, p90 or p99, not '%s'", v[S_STAT]);
  if (v[S_STAT]) a->stat = k;
  if ((rc = served_wholes(o)) != CLI_OK || (rc = served_numbers(o)) != CLI_OK) return rc;
  a->has_load = v[S_CONC] || v[S_RATE];
  a->load.kind = v[S_CONC] ? GS_LOAD_CLOSED : v[S_RATE] ? GS_LOAD_OPEN : GS_LOAD_BATCH;
  if (v[S_CONC] && a->load.concurrency > a->load.requests) return cli_bad("--concurrency: must be at most the requests");
  if (v[S_LENGTHS]) return served_lengths(o);
  return CLI_OK;
}

/* report's flags as given, one space between them: as a JSON string, or escaped for a
 * terminal as report escapes what a person typed (cli_put_text). */
static void json_flags(const plan_options *o) {
  char piece[GS_ESCAPE_CAP];
  int i;
  putchar('"');
  for (i = 0; i < o->report_n; i++) {
    size_t len = strlen(o->report_args[i]), at = 0;
    if (i) putchar(' ');
    while (at < len) {
      at += gs_escape_next(o->report_args[i] + at, len - at, GS_ESCAPE_JSON, piece);
      fputs(piece, stdout);
    }
  }
  putchar('"');
}

static void text_flags(const plan_options *o) {
  int i;
  for (i = 0; i < o->report_n; i++) {
    if (i) putchar(' ');
    cli_put_text(stdout, o->report_args[i]);
  }
}

/* Which counts were searched, when not every one up to the budget (GS_PLAN_EVERY_COUNT). */
static void json_searched(const gs_plan_result *p) {
  char said[GS_PLAN_SEARCHED_CAP];
  size_t i;
  if (p->budget <= p->every_to) return;
  printf(",\"every_count_to\":%llu,\"counts_past\":[", (unsigned long long)p->every_to);
  for (i = 0; i < p->sparse_n; i++) printf("%s%llu", i ? "," : "", (unsigned long long)p->sparse[i]);
  printf("],\"searched\":");
  cli_json_string(stdout, gs_plan_searched(p, said, sizeof said));
}

static void json_ms_or_null(double s, int present) {
  if (present) cli_json_double(stdout, s);
  else printf("null");
}

static void json_point(const gs_layout *l, int has_prompt) {
  char flags[160];
  printf("{\"gpus\":%llu,\"split\":\"%s\",\"experts\":\"%s\",\"words\":%llu,\"in_flight\":%llu,\"replicas\":%llu,\"total_gpus\":%llu",
         (unsigned long long)l->gpus, gs_split_name(l->split), l->experts == GS_EXPERTS_SPREAD ? "spread" : "slices",
         (unsigned long long)l->words, (unsigned long long)l->in_flight, (unsigned long long)l->replicas,
         (unsigned long long)(l->gpus * l->replicas));
  printf(",\"time_per_word\":");
  cli_json_double(stdout, l->word_s);
  printf(",\"first_word\":");
  json_ms_or_null(l->first_s, has_prompt);
  printf(",\"words_per_s_each\":");
  cli_json_double(stdout, 1 / l->word_s);
  printf(",\"words_per_s\":");
  cli_json_double(stdout, l->words_per_s);
  printf(",\"words_per_s_per_gpu\":");
  cli_json_double(stdout, l->per_gpu);
  printf(",\"cost_per_million\":");
  json_ms_or_null(l->cost_per_million, l->cost_per_million >= 0);
  printf(",\"flags\":");
  cli_json_string(stdout, gs_layout_flags(l, flags, sizeof flags));
  printf("}");
}

static void print_json(const plan_options *o, const cli_report_options *r, const gs_plan_result *p) {
  int prompt = r->setting.plan.prompt_tokens != 0;
  size_t i;
  printf("{\"assumptions\":");
  cli_json_string(stdout, r->setting.assumptions);
  printf(",\"model\":");
  cli_json_string(stdout, r->setting.model_name);
  printf(",\"gpu\":");
  cli_json_string(stdout, r->setting.gpu_text.name);
  printf(",\"gpus_max\":%llu,\"target_word\":", (unsigned long long)o->ask.gpus_max);
  json_ms_or_null(o->ask.target_word_s, o->ask.target_word_s > 0);
  printf(",\"target_first_word\":");
  json_ms_or_null(o->ask.target_first_s, o->ask.target_first_s > 0);
  printf(",\"tried\":%llu", (unsigned long long)p->tried);
  json_searched(p);
  printf(",\"report_flags\":");
  json_flags(o);
  printf(",\"frontier\":[");
  for (i = 0; i < p->count; i++) {
    if (i) printf(",");
    json_point(&p->points[i], prompt);
  }
  printf("],\"choice\":");
  if (p->has_choice) json_point(&p->choice, prompt);
  else printf("null");
  printf(",\"why\":");
  if (p->why[0]) cli_json_string(stdout, p->why);
  else printf("null");
  printf("}\n");
}

static int same_layout(const gs_layout *a, const gs_layout *b) {
  return a->gpus == b->gpus && a->split == b->split && a->experts == b->experts && a->words == b->words &&
         a->in_flight == b->in_flight;
}

static void print_point(const gs_layout *l, int prompt, int chosen) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], f[GS_FIGURE_CAP], flags[160];
  printf("%s %9s %9s %10s %11s %12s %5llu", chosen ? "*" : " ", gs_fixed_grouped(a, sizeof a, l->word_s * 1e3, 2),
         gs_words_rate(b, sizeof b, 1 / l->word_s), prompt ? gs_fixed_grouped(c, sizeof c, l->first_s * 1e3, 1) : "-",
         gs_words_rate(d, sizeof d, l->per_gpu), gs_words_rate(e, sizeof e, l->words_per_s),
         (unsigned long long)(l->gpus * l->replicas));
  if (l->cost_per_million >= 0) printf(" %9s", gs_fixed_grouped(f, sizeof f, l->cost_per_million, 2));
  printf("  %s\n", gs_layout_flags(l, flags, sizeof flags));
}

/* How a point is priced again: report's flags as given, whole and escaped. */
static void print_notes(const plan_options *o) {
  printf("A point's figures again: gpusplit report ");
  text_flags(o);
  printf(" <its flags>\n");
}

static void print_table(const plan_options *o, const cli_report_options *r, const gs_plan_result *p) {
  const gs_setting *s = &r->setting;
  int prompt = s->plan.prompt_tokens != 0, shown = 0;
  char a[GS_FIGURE_CAP], said[GS_PLAN_SEARCHED_CAP];
  size_t i;
  printf("Plan: ");
  cli_put_text(stdout, s->model_name); /* a path the user gave */
  printf(" on %s, up to %llu GPUs", s->gpu_text.name, (unsigned long long)o->ask.gpus_max);
  if (s->plan.per_server) printf(" in servers of %llu joined by %s", (unsigned long long)s->plan.per_server, s->between_text.name);
  printf("\nAssumptions: %s\n", s->assumptions);
  printf("Tried %llu layouts. The frontier, fastest first: for each time a word, the layout with the most words a second a "
         "GPU; each uses as many replicas as %llu GPUs hold.\n",
         (unsigned long long)p->tried, (unsigned long long)o->ask.gpus_max);
  if (gs_plan_searched(p, said, sizeof said)[0]) printf("%s.\n", said);
  printf("\n");
  if (p->count == 0) {
    /* an empty frontier says why rather than print a table's header alone */
    printf("No layout fits: %s.\n\n", p->why);
    print_notes(o);
    return;
  }
  printf("  %9s %9s %10s %11s %12s %5s", "ms a word", "words/s", "first ms", "words/s/GPU", "words/s all", "GPUs");
  if (s->gpu_hour > 0) printf(" %9s", "a million");
  printf("  %s\n", "layout (report flags)");
  for (i = 0; i < p->count; i++) {
    int chosen = p->has_choice && same_layout(&p->points[i], &p->choice);
    shown |= chosen;
    print_point(&p->points[i], prompt, chosen);
  }
  if (p->has_choice && !shown) {
    printf("  and the layout chosen, not on the frontier (its first word meets the target):\n");
    print_point(&p->choice, prompt, 1);
  }
  printf("\n");
  if (o->ask.target_word_s > 0 || o->ask.target_first_s > 0) {
    printf("Target:");
    if (o->ask.target_word_s > 0) printf(" a word within %s ms", gs_plain(a, sizeof a, o->ask.target_word_s * 1e3));
    if (o->ask.target_first_s > 0)
      printf("%s the first word within %s ms", o->ask.target_word_s > 0 ? " and" : "", gs_plain(a, sizeof a, o->ask.target_first_s * 1e3));
    if (p->has_choice) printf(": the layout marked *, the most words a second a GPU among those that meet it\n");
    else printf(": none meets it: %s\n", p->why);
  }
  printf("words/s is for each chat; words/s/GPU is all chats' over all GPUs; words/s all, over every replica.\n");
  if (s->gpu_hour > 0) printf("a million: the cost of a million words at %s a GPU hour.\n", gs_plain(a, sizeof a, s->gpu_hour));
  print_notes(o);
}

/* The load's flags as given, for serve (the cap on sequences is in a point's own flags). */
static void served_load_flags(const plan_options *o, int json) {
  static const int LOAD[] = {S_CONC, S_RATE, S_REQUESTS, S_OUTPUT, S_SEED, S_LENGTHS, S_BATCHED, S_SHARE, S_BLOCK, S_OVERLAP};
  size_t k;
  int said = 0;
  for (k = 0; k < sizeof LOAD / sizeof LOAD[0]; k++) {
    if (!o->served[LOAD[k]] || (LOAD[k] == S_RATE && !o->sask.has_load)) continue;
    printf("%s%s ", said++ || !json ? " " : "", SERVED[LOAD[k]]); /* text: after report's flags */
    if (json) cli_json_text(stdout, o->served[LOAD[k]]);
    else cli_put_text(stdout, o->served[LOAD[k]]);
  }
}

static void json_ms_dist(const char *key, const gs_dist *d) {
  const double v[] = {d->mean, d->p50, d->p90, d->p99};
  const char *names[] = {"mean", "p50", "p90", "p99"};
  size_t k;
  printf(",\"%s\":{", key);
  for (k = 0; k < 4; k++) {
    printf("%s\"%s\":", k ? "," : "", names[k]);
    cli_json_double(stdout, v[k] * 1e3);
  }
  printf("}");
}

static void json_served_point(const plan_options *o, const gs_served_point *pt, double gpu_hour) {
  const gs_layout *l = &pt->layout;
  double gpus = (double)(l->gpus * l->replicas);
  char flags[200];
  printf("{\"gpus\":%llu,\"split\":\"%s\",\"experts\":\"slices\",\"attention\":\"slices\",\"replicas\":%llu,"
         "\"total_gpus\":%llu,\"max_seqs\":%llu,\"time_per_word\":",
         (unsigned long long)l->gpus, gs_split_name(l->split), (unsigned long long)l->replicas,
         (unsigned long long)(l->gpus * l->replicas), (unsigned long long)pt->max_seqs);
  cli_json_double(stdout, l->word_s);
  printf(",\"first_word\":");
  cli_json_double(stdout, l->first_s);
  printf(",\"words_per_s\":");
  cli_json_double(stdout, l->words_per_s);
  printf(",\"words_per_s_per_gpu\":");
  cli_json_double(stdout, l->per_gpu);
  printf(",\"cost_per_million\":");
  json_ms_or_null(l->cost_per_million, l->cost_per_million >= 0);
  printf(",\"load\":{\"kind\":\"%s\",\"requests_per_s\":", o->sask.has_load ? "given" : pt->saturated ? "saturated" : "poisson");
  cli_json_double(stdout, pt->rate);
  printf(",\"requests_per_s_per_gpu\":");
  cli_json_double(stdout, pt->rate / gpus);
  printf(",\"requests_per_dollar\":");
  json_ms_or_null(gpu_hour > 0 ? pt->rate * 3600 / (gpus * gpu_hour) : 0, gpu_hour > 0);
  printf(",\"copy_rate\":");
  json_ms_or_null(pt->copy_rate, !o->sask.has_load);
  printf("}");
  json_ms_dist("ttft_ms", &pt->ttft);
  json_ms_dist("tpot_ms", &pt->tpot);
  printf(",\"preemptions\":%llu,\"flags\":", (unsigned long long)pt->preemptions);
  cli_json_string(stdout, gs_served_flags(&o->sask, pt, flags, sizeof flags));
  printf("}");
}

static const char *const STAT_NAMES[] = {"mean", "p50", "p90", "p99"};

static void served_json(const plan_options *o, const cli_report_options *r, const gs_served_result *p) {
  const gs_served_ask *a = &o->sask;
  size_t i;
  printf("{\"assumptions\":");
  cli_json_string(stdout, r->setting.assumptions);
  printf(",\"model\":");
  cli_json_string(stdout, r->setting.model_name);
  printf(",\"gpu\":");
  cli_json_string(stdout, r->setting.gpu_text.name);
  printf(",\"gpus_max\":%llu,\"served\":true,\"validated\":false,\"engine\":\"%s\",\"target_stat\":\"%s\",\"target_word\":",
         (unsigned long long)a->gpus_max, a->engine ? a->engine : "vllm", STAT_NAMES[a->stat]);
  json_ms_or_null(a->target_tpot_s, a->target_tpot_s > 0);
  printf(",\"target_first_word\":");
  json_ms_or_null(a->target_ttft_s, a->target_ttft_s > 0);
  printf(",\"tried\":%llu,\"simulated\":%llu,\"pruned\":%llu,\"report_flags\":", (unsigned long long)p->layouts,
         (unsigned long long)p->simulated, (unsigned long long)p->pruned);
  json_flags(o);
  printf(",\"load_flags\":\"");
  served_load_flags(o, 1);
  printf("\",\"frontier\":[");
  for (i = 0; i < p->count; i++) {
    if (i) printf(",");
    json_served_point(o, &p->points[i], r->setting.gpu_hour);
  }
  printf("],\"choice\":");
  if (p->has_choice) json_served_point(o, &p->choice, r->setting.gpu_hour);
  else printf("null");
  printf(",\"why\":");
  if (p->why[0]) cli_json_string(stdout, p->why);
  else printf("null");
  printf("}\n");
}

static void served_row(const plan_options *o, const gs_served_point *pt, double gpu_hour, int chosen) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], f[GS_FIGURE_CAP], flags[200];
  const gs_layout *l = &pt->layout;
  double gpus = (double)(l->gpus * l->replicas);
  printf("%s %9s %10s %11s %10s %11s %5llu", chosen ? "*" : " ", gs_fixed_grouped(a, sizeof a, l->word_s * 1e3, 2),
         gs_fixed_grouped(b, sizeof b, l->first_s * 1e3, 1), gs_fixed_grouped(c, sizeof c, pt->rate, 3),
         gs_fixed_grouped(d, sizeof d, pt->rate / gpus, 4), gs_fixed_grouped(e, sizeof e, l->per_gpu, 1), (unsigned long long)gpus);
  if (gpu_hour > 0) printf(" %9s %10s", gs_fixed_grouped(f, sizeof f, l->cost_per_million, 2),
                           gs_fixed_grouped(a, sizeof a, pt->rate * 3600 / (gpus * gpu_hour), 1));
  printf("  %s\n", gs_served_flags(&o->sask, pt, flags, sizeof flags));
}

static void served_table(const plan_options *o, const cli_report_options *r, const gs_served_result *p) {
  const gs_served_ask *a = &o->sask;
  const gs_setting *s = &r->setting;
  const char *stat = STAT_NAMES[a->stat];
  char x[GS_FIGURE_CAP];
  size_t i;
  int shown = 0;
  printf("Plan: ");
  cli_put_text(stdout, s->model_name);
  printf(" on %s, up to %llu GPUs, served by %s's scheduler simulated step by step (not yet fitted to measured serving runs)\n",
         s->gpu_text.name, (unsigned long long)a->gpus_max, a->engine ? a->engine : "vllm");
  printf("Assumptions: %s\n", s->assumptions);
  if (a->has_load) printf("Load: the deployment's, given; each layout with the fewest replicas that hold it within the targets.\n");
  else printf("Load: none given; each layout's copy at the highest Poisson rate it holds within the targets (without targets, "
              "the rate it completes saturated), as many copies as %llu GPUs hold.\n", (unsigned long long)a->gpus_max);
  printf("Simulated %llu layouts in %llu runs (%llu rate searches skipped: the choice or a frontier point beat the ceiling). The "
         "frontier, shortest time per output token first:\n\n", (unsigned long long)p->layouts, (unsigned long long)p->simulated,
         (unsigned long long)p->pruned);
  if (p->count == 0) {
    printf("None: %s.\n", p->why);
    return;
  }
  printf("  %4s tpot %4s ttft %11s %10s %11s %5s", stat, stat, "requests/s", "req/s/GPU", "tok/s/GPU", "GPUs");
  if (s->gpu_hour > 0) printf(" %9s %10s", "a million", "req per $");
  printf("  layout (serve flags)\n");
  for (i = 0; i < p->count; i++) {
    int chosen = p->has_choice && memcmp(&p->points[i], &p->choice, sizeof p->choice) == 0;
    shown |= chosen;
    served_row(o, &p->points[i], s->gpu_hour, chosen);
  }
  if (p->has_choice && !shown) {
    printf("  and the layout chosen, not on the frontier:\n");
    served_row(o, &p->choice, s->gpu_hour, 1);
  }
  printf("\n");
  if (a->target_ttft_s > 0 || a->target_tpot_s > 0) {
    printf("Target (%s):", stat);
    if (a->target_tpot_s > 0) printf(" time per output token within %s ms", gs_plain(x, sizeof x, a->target_tpot_s * 1e3));
    if (a->target_ttft_s > 0) printf("%s to the first token within %s ms", a->target_tpot_s > 0 ? ";" : "", gs_plain(x, sizeof x, a->target_ttft_s * 1e3));
    if (p->has_choice) printf(": the layout marked *, the most output tokens a second a GPU among those that hold it\n");
    else printf(": none holds it: %s\n", p->why);
  }
  if (s->gpu_hour > 0) printf("a million: a million output tokens at %s a GPU hour; req per $: requests a dollar buys.\n", gs_plain(x, sizeof x, s->gpu_hour));
  printf("A point's figures again: gpusplit serve ");
  text_flags(o);
  served_load_flags(o, 0);
  printf(" <its flags>\n");
}

/* The served plan: its ask, the space for its runs, the search, the output. */
static int plan_served(plan_options *o, const cli_report_options *r) {
  static gs_served_result result;
  gs_serve_space sp;
  gs_error err;
  size_t n;
  int rc = served_ask(o, r);
  if (rc != CLI_OK) return rc;
  n = (size_t)o->sask.load.requests;
  sp.cap = n;
  sp.reqs = malloc(n * sizeof *sp.reqs);
  sp.ids = malloc(3 * n * sizeof *sp.ids);
  sp.scratch = malloc(n * sizeof *sp.scratch);
  sp.itl = malloc(sizeof *sp.itl);
  if (!sp.reqs || !sp.ids || !sp.scratch || !sp.itl) rc = cli_bad("plan: out of memory for %zu requests", n);
  else if (gs_plan_served(&r->setting, &o->sask, &sp, &result, &err) != GS_OK)
    rc = strcmp(err.field, "memory_share") == 0 ? cli_bad("--memory-share: %s", err.what)
         : strcmp(err.field, "max_batched_tokens") == 0 ? cli_bad("--max-batched-tokens: %s", err.what)
         : strcmp(err.field, "requests") == 0 || strcmp(err.field, "concurrency") == 0 ? cli_bad("--%s: %s", err.field, err.what)
                                                                                       : cli_bad_error("plan", &err);
  else if (o->json) served_json(o, r, &result);
  else served_table(o, r, &result);
  free(sp.reqs);
  free(sp.ids);
  free(sp.scratch);
  free(sp.itl);
  return rc;
}

int cli_plan(int argc, char **argv) {
  static cli_report_options report;
  static gs_plan_result result;
  plan_options o;
  char **rest;
  int rest_n, rc;
  gs_error err;
  memset(&o, 0, sizeof o);
  rest = malloc(((size_t)argc + 1) * sizeof *rest);
  if (!rest) return cli_bad("plan: out of memory");
  rc = split_args(argc, argv, &o, rest, &rest_n);
  if (rc == CLI_OK) rc = cli_report_parse(rest_n, rest, &report);
  /* the first word is priced only for a prompt: a target on it would be met by every layout */
  if (rc == CLI_OK && !o.serving && o.ask.target_first_s > 0 && report.setting.plan.prompt_tokens == 0)
    rc = cli_bad("--target-first-ms: these settings price no first word (no prompt); give --prompt-tokens N, "
                 "or real rules' 1,024 without --prompt-tokens none");
  if (rc == CLI_OK && o.serving) {
    rc = plan_served(&o, &report);
    free(rest);
    free(o.pairs);
    return rc == CLI_HELPED ? CLI_OK : rc;
  }
  if (rc == CLI_OK && o.emit) rc = cli_emit_plan_check(o.emit, o.json, o.ask.target_word_s > 0 || o.ask.target_first_s > 0);
  if (rc == CLI_OK && gs_plan_search(&report.setting, &o.ask, &result, &err) != GS_OK) rc = cli_bad_error("plan", &err);
  if (rc == CLI_OK && o.emit) rc = cli_emit_plan(&report.setting, &result, o.emit);
  else if (rc == CLI_OK && o.json) print_json(&o, &report, &result);
  else if (rc == CLI_OK) print_table(&o, &report, &result);
  free(rest);
  if (rc == CLI_HELPED) return CLI_OK;
  return rc;
}
