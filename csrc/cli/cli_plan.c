/* `gpusplit plan`: every layout within a budget of GPUs (gs_plan_search, csrc/core/plan.c),
 * printed as a frontier: for each time a word, the layout with the most words a second a
 * GPU, each named by the report flags that price it again. Targets mark the best layout
 * that meets them, or say why none does. The model, the machine and the rules are read by
 * report's own flags (cli_report_parse), so a point's flags added to them reproduce it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "read/efficiency.h"

static const char PLAN_HEAD[] =
    "usage: gpusplit plan --model M --gpu G [--link L] [--per-server S] [--between B]\n"
    "                     --gpus-max N [--target-word-ms T] [--target-first-ms F] [--json]\n"
    "                     [--target-ttft-ms T] [--target-tpot-ms T] [--target-stat S]\n"
    "                     [--concurrency C | --rate R] [serve's load and engine flags]\n"
    "\n"
    "Every layout within N GPUs: slices within servers and across, groups of layers,\n"
    "slices-groups (slices in a server, groups across), a mixture's experts sliced or\n"
    "spread, one batch in flight or one a group, chats at once 1, 2, 3, 4, 6, 8, 12, ...\n"
    "up to what fits, each served by as many replicas as N GPUs hold: at every count up to\n"
    "64, and past 64 at the counts it names (steps of x 1.5 and x 4/3, whole servers, the\n"
    "heads' divisors, the fewest that hold the model). It prints the frontier: for each\n"
    "time a word some layout reaches, the layout with the most words a second a GPU, with\n"
    "the report flags that give its figures again.\n"
    "\n";
static const char PLAN_TAIL[] =
    "\n"
    "The model, the machines and the rules take report's flags (gpusplit report --help):\n"
    "--model, --bits, --gpu, --link, --per-server, --between, --assume, --engine, --chat-tokens,\n"
    "--prompt-tokens, --gpu-hour, ... The plan chooses --split, --experts, --words,\n"
    "--in-flight, --replicas and the count itself, so those are refused here.\n"
    "\n"
    "A served plan's limit, checked first: layouts x requests x (prompt + output tokens) at\n"
    "most 250000000 (under 2 s of CPU for 64 GPUs). A point's serve flags give its figures\n"
    "again: without a load, one copy at its --rate.\n";

typedef struct {
  gs_plan_ask ask;
  cli_load_flags lf;           /* a served plan's load and engine limits (serve's table, load_flags.c) */
  double ttft_ms, tpot_ms;     /* a served plan's targets; 0: none */
  int stat;                    /* --target-stat: 1 + enum gs_served_stat; 0: not given (p90) */
  int serving;                 /* 1: a served plan (any of the flags above given) */
  gs_served_ask sask;
  char **load_args;            /* the load's flags as given, whole, for a point's serve command */
  int load_n;
  int json;
  const char *emit; /* --emit ENGINE: the chosen layout's launch command instead; NULL: none */
  char **report_args; /* report's flags as given, whole, for a point's command (argv's own) */
  int report_n;
  double word_ms, first_ms; /* the targets as given; 0: none */
} plan_options;

#define AT(member) offsetof(plan_options, member)
#define CHOSEN(flag) GS_REFUSED(flag, "what the plan chooses")
/* plan's own flags, read before report's, and report's that the plan chooses itself: given,
 * they would be ignored, so they are refused. */
static const gs_flag PLAN_FLAGS[] = {
    {"--gpus-max", GS_FLAG_WHOLE, "N", AT(ask.gpus_max), 0, 0, &GS_MAX_GPUS, 0, 0, 0, 1, "the budget of GPUs, 1 to 65536"},
    GS_REAL_IN("--target-word-ms", "T", AT(word_ms), 0, 86400e3, 1, "mark the best layout whose time a word is at most T ms"),
    GS_REAL_IN("--target-first-ms", "F", AT(first_ms), 0, 86400e3, 1, "... and whose first word comes within F ms (needs a prompt:\n"
                                                                     "real rules' 1,024 tokens, or --prompt-tokens N)"),
    GS_SWITCH("--json", AT(json), 0, "one JSON object instead of the table"),
    GS_TEXT("--emit", "vllm|sglang|trtllm", AT(emit), "instead, the command that starts that engine on the\n"
                                                     "layout the targets choose (gpusplit report --help)"),
    CHOSEN("--split"), CHOSEN("--experts"), CHOSEN("--words"), CHOSEN("--in-flight"), CHOSEN("--replicas"),
    CHOSEN("--counts"), CHOSEN("--max-n"), CHOSEN("--gpus"), CHOSEN("--explain"),
    GS_NOTE("\nA served load (any flag below): each layout is simulated by serve's scheduler\n"
            "(gpusplit serve --help; its step fitted to measured serving runs). Layouts: a copy of\n"
            "up to 64 GPUs, slices, groups or slices-groups, experts sliced; a mixture's experts\n"
            "also spread over slices beside data-parallel or sliced attention, on counts its\n"
            "experts divide; and with a per-token target and no --max-seqs the best three again\n"
            "at the engine's cap halved, down to 32 (under SGLang's attention data parallel, the\n"
            "whole engine's cap, as its --max-seqs gives it)."),
    GS_REAL_IN("--target-ttft-ms", "T", AT(ttft_ms), 0, 86400e3, 1, "time to the first token within T ms (--target-first-ms too)"),
    GS_REAL_IN("--target-tpot-ms", "T", AT(tpot_ms), 0, 86400e3, 1, "time per output token within T ms (--target-word-ms too)"),
    GS_CHOICE("--target-stat", "mean|p50|p90|p99", AT(stat), "the figure the targets hold (default p90)"),
    GS_SWITCH("--disaggregate", AT(sask.disaggregate), 0,
              "also each count of slices, and of a mixture's experts spread\n"
              "beside data-parallel attention, as prefill and decode on separate\n"
              "copies (serve --prefill-copies P --decode-copies D) at 1:1, 1:2,\n"
              "2:1, 1:3 and 3:1; the replicas of such a layout are units of them"),
    GS_NOTE("The load, serve's: --concurrency or --rate is the deployment's, and each layout takes\n"
            "the fewest replicas that hold it within the targets. Without one, each layout's copy\n"
            "gets the highest Poisson rate it holds within them (searched within 1/128 of the rate\n"
            "it completes saturated), per GPU and, with --gpu-hour, requests a dollar buys."),
};

/* The plan's flags, the load's (serve's table) and report's, read by one table each;
 * report's words and the load's kept, whole, for the points' commands (a value with a space
 * or a quote is kept as typed; the command is for a person to read). */
static int read_flags(int argc, char **argv, plan_options *o, cli_report_flags *rf, char **kept, char **load_kept) {
  gs_flag_set sets[3] = {{PLAN_FLAGS, sizeof PLAN_FLAGS / sizeof PLAN_FLAGS[0], o, NULL, NULL},
                         {CLI_LOAD_FLAGS, CLI_LOAD_FLAG_N, &o->lf, load_kept, &o->load_n},
                         {CLI_REPORT_FLAGS, CLI_REPORT_FLAG_N, rf, kept, &o->report_n}};
  int rc;
  cli_load_defaults(&o->lf);
  rc = cli_flags_or_help_shown(sets, 3, 2, argc, argv, PLAN_HEAD, PLAN_TAIL);
  o->report_args = kept;
  o->load_args = load_kept;
  o->ask.target_word_s = o->word_ms / 1e3;
  o->ask.target_first_s = o->first_ms / 1e3;
  o->serving = o->lf.given || o->ttft_ms > 0 || o->tpot_ms > 0 || o->stat || o->sask.disaggregate;
  return rc;
}

/* The served plan's ask from its flags and report's (the prompt: report's --prompt-tokens,
 * or serve's 1,024; the engine: report's --engine). */
static int served_ask(plan_options *o, const cli_report_flags *rf, const cli_report_options *r) {
  gs_served_ask *a = &o->sask;
  int rc;
  if (o->emit) return cli_bad("--emit: not with a served plan yet; plan without the load and target flags, or serve the choice");
  if ((o->word_ms > 0 && o->tpot_ms > 0) || (o->first_ms > 0 && o->ttft_ms > 0))
    return cli_bad("plan: --target-word-ms is --target-tpot-ms and --target-first-ms is --target-ttft-ms in a served plan; give one of each");
  if ((rc = cli_served_report_flags(rf, &o->lf)) != CLI_OK ||
      (rc = cli_load_check(&o->lf, rf->prompt_tokens, rf->q.engine, "plan")) != CLI_OK)
    return rc;
  a->gpus_max = o->ask.gpus_max;
  a->engine = rf->q.engine;
  a->stat = o->stat ? o->stat - 1 : GS_STAT_P90;
  a->load = o->lf.load;
  a->load.prompt_tokens = r->setting.plan.prompt_tokens ? r->setting.plan.prompt_tokens : 1024;
  a->limits = o->lf.limits;
  a->given = o->lf.given & CLI_LOAD_LIMITS;
  a->has_load = (o->lf.given & (CLI_LOAD_CONCURRENCY | CLI_LOAD_RATE)) != 0;
  a->target_tpot_s = (o->tpot_ms > 0 ? o->tpot_ms : o->word_ms) / 1e3;
  a->target_ttft_s = (o->ttft_ms > 0 ? o->ttft_ms : o->first_ms) / 1e3;
  if (a->load.kind == GS_LOAD_CLOSED && a->load.concurrency > a->load.requests) return cli_bad("--concurrency: must be at most the requests");
  o->lf.load.prompt_tokens = a->load.prompt_tokens; /* sharegpt's prompts' mean */
  if ((rc = cli_load_lengths(&o->lf)) != CLI_OK) return rc;
  a->load.prompts = o->lf.load.prompts;
  a->load.outputs = o->lf.load.outputs;
  a->load.pairs = o->lf.load.pairs;
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
  /* attention: data parallel beside spread experts (today's spread), else as the split
   * places it; the load held: every replica's chats at once (issue 29 item 6) */
  printf(",\"attention\":\"%s\",\"load\":{\"kind\":\"static\",\"chats\":%llu}",
         l->experts == GS_EXPERTS_SPREAD ? "data" : "slices", (unsigned long long)(l->words * l->in_flight * l->replicas));
  printf(",\"flags\":");
  cli_json_string(stdout, gs_layout_flags(l, flags, sizeof flags));
  printf("}");
}

/* The opening of both plans' JSON: the rules, the model and the GPU. */
static void json_head(const cli_report_options *r) {
  printf("{\"assumptions\":");
  cli_json_string(stdout, r->setting.assumptions);
  printf(",\"model\":");
  cli_json_string(stdout, r->setting.model_name);
  printf(",\"gpu\":");
  cli_json_string(stdout, r->setting.gpu_text.name);
}

static void print_json(const plan_options *o, const cli_report_options *r, const gs_plan_result *p) {
  int prompt = r->setting.plan.prompt_tokens != 0;
  size_t i;
  json_head(r);
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

/* The load's flags as given, whole, for serve (text: each after a space, following report's
 * flags); the cap on sequences is left out, as it is in a point's own flags. */
static void served_load_flags(const plan_options *o, int json) {
  int i, said = 0;
  for (i = 0; i < o->load_n; i++) {
    const char *w = o->load_args[i];
    if (strncmp(w, "--max-seqs", 10) == 0 && (w[10] == '\0' || w[10] == '=')) {
      i += w[10] == '\0'; /* its value, the next word */
      continue;
    }
    printf("%s", said++ || !json ? " " : "");
    if (json) cli_json_text(stdout, w);
    else cli_put_text(stdout, w);
  }
}

static const char *const STAT_NAMES[] = {"mean", "p50", "p90", "p99"};

static void served_json(const plan_options *o, const cli_report_options *r, const gs_served_result *p) {
  const gs_served_ask *a = &o->sask;
  gs_out out = cli_out(stdout);
  size_t i;
  json_head(r);
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
    gs_out_served_point(&out, a, &p->points[i], r->setting.gpu_hour);
  }
  printf("],\"choice\":");
  if (p->has_choice) gs_out_served_point(&out, a, &p->choice, r->setting.gpu_hour);
  else printf("null");
  printf(",\"why\":");
  if (p->why[0]) cli_json_string(stdout, p->why);
  else printf("null");
  printf("}\n");
}

static void served_row(const plan_options *o, const gs_served_point *pt, double gpu_hour, int chosen) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], f[GS_FIGURE_CAP], flags[256];
  const gs_layout *l = &pt->layout;
  double gpus = (double)gs_served_gpus(pt);
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
  {
    /* whether the engine's step takes its own fitted figures or every fitted run's pooled, as serve's Fitted line says */
    gs_scheduler e;
    gs_error err;
    char note[224] = "";
    if (gs_engine_defaults(a->engine, &s->gpu, s->gpu_text.key, 1, &e, &err) == GS_OK)
      cli_serving_fit_note(&e, "its runs", note, sizeof note);
    printf(" on %s, up to %llu GPUs, served by %s's scheduler simulated step by step (its step fitted: data/serving.json%s)\n",
           s->gpu_text.name, (unsigned long long)a->gpus_max, a->engine ? a->engine : "vllm", note);
  }
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
static int plan_served(plan_options *o, const cli_report_flags *rf, const cli_report_options *r) {
  static gs_served_result result;
  gs_serve_space sp;
  gs_error err;
  size_t n;
  int rc = served_ask(o, rf, r);
  if (rc != CLI_OK) return rc;
  n = (size_t)o->sask.load.requests;
  sp.cap = n;
  sp.reqs = malloc(n * sizeof *sp.reqs);
  sp.ids = malloc(GS_SERVE_IDS * n * sizeof *sp.ids);
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
  static cli_report_flags flags;
  static gs_plan_result result;
  plan_options o;
  char **kept;
  int rc;
  gs_error err;
  memset(&o, 0, sizeof o);
  memset(&flags, 0, sizeof flags);
  kept = malloc(2 * ((size_t)argc + 1) * sizeof *kept);
  if (!kept) return cli_bad("plan: out of memory");
  rc = read_flags(argc, argv, &o, &flags, kept, kept + argc + 1);
  if (rc == CLI_OK) rc = cli_report_resolve(&flags, &report);
  /* the first word is priced only for a prompt: a target on it would be met by every layout */
  if (rc == CLI_OK && !o.serving && o.ask.target_first_s > 0 && report.setting.plan.prompt_tokens == 0)
    rc = cli_bad("--target-first-ms: these settings price no first word (no prompt); give --prompt-tokens N, "
                 "or real rules' 1,024 without --prompt-tokens none");
  if (rc == CLI_OK && o.serving) {
    rc = plan_served(&o, &flags, &report);
    free(kept);
    free(o.lf.pairs);
    return rc;
  }
  if (rc == CLI_OK && o.emit) rc = cli_emit_plan_check(o.emit, o.json, o.ask.target_word_s > 0 || o.ask.target_first_s > 0);
  if (rc == CLI_OK && gs_plan_search(&report.setting, &o.ask, &result, &err) != GS_OK) rc = cli_bad_error("plan", &err);
  if (rc == CLI_OK && o.emit) rc = cli_emit_plan(&report.setting, &result, o.emit);
  else if (rc == CLI_OK && o.json) print_json(&o, &report, &result);
  else if (rc == CLI_OK) print_table(&o, &report, &result);
  free(kept);
  if (rc == CLI_HELPED) return CLI_OK;
  return rc;
}
