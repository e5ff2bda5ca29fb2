/* `gpusplit plan`: every layout within a budget of GPUs (gs_plan_search, csrc/core/plan.c),
 * printed as a frontier: for each time a word, the layout with the most words a second a
 * GPU, each named by the report flags that price it again. Targets mark the best layout
 * that meets them, or say why none does. The model, the machine and the rules are read by
 * report's own flags (cli_report_parse), so a point's flags added to them reproduce it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char PLAN_HEAD[] =
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
    "\n";
static const char PLAN_TAIL[] =
    "\n"
    "The model, the machines and the rules take report's flags (gpusplit report --help):\n"
    "--model, --bits, --gpu, --link, --per-server, --between, --assume, --engine, --chat-tokens,\n"
    "--prompt-tokens, --gpu-hour, ... The plan chooses --split, --experts, --words,\n"
    "--in-flight, --replicas and the count itself, so those are refused here.\n";

typedef struct {
  gs_plan_ask ask;
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
};

/* The plan's flags and report's, read by one table each; report's words kept, whole, for
 * the points' commands (a value with a space or a quote is kept as typed; the command is
 * for a person to read). */
static int read_flags(int argc, char **argv, plan_options *o, cli_report_flags *rf, char **kept) {
  gs_flag_set sets[2] = {{PLAN_FLAGS, sizeof PLAN_FLAGS / sizeof PLAN_FLAGS[0], o, NULL, NULL},
                         {CLI_REPORT_FLAGS, CLI_REPORT_FLAG_N, rf, kept, &o->report_n}};
  int rc = cli_flags_or_help(sets, 2, argc, argv, PLAN_HEAD, PLAN_TAIL);
  o->report_args = kept;
  o->ask.target_word_s = o->word_ms / 1e3;
  o->ask.target_first_s = o->first_ms / 1e3;
  return rc;
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
  kept = malloc(((size_t)argc + 1) * sizeof *kept);
  if (!kept) return cli_bad("plan: out of memory");
  rc = read_flags(argc, argv, &o, &flags, kept);
  if (rc == CLI_OK) rc = cli_report_resolve(&flags, &report);
  /* the first word is priced only for a prompt: a target on it would be met by every layout */
  if (rc == CLI_OK && o.ask.target_first_s > 0 && report.setting.plan.prompt_tokens == 0)
    rc = cli_bad("--target-first-ms: these settings price no first word (no prompt); give --prompt-tokens N, "
                 "or real rules' 1,024 without --prompt-tokens none");
  if (rc == CLI_OK && o.emit) rc = cli_emit_plan_check(o.emit, o.json, o.ask.target_word_s > 0 || o.ask.target_first_s > 0);
  if (rc == CLI_OK && gs_plan_search(&report.setting, &o.ask, &result, &err) != GS_OK) rc = cli_bad_error("plan", &err);
  if (rc == CLI_OK && o.emit) rc = cli_emit_plan(&report.setting, &result, o.emit);
  else if (rc == CLI_OK && o.json) print_json(&o, &report, &result);
  else if (rc == CLI_OK) print_table(&o, &report, &result);
  free(kept);
  if (rc == CLI_HELPED) return CLI_OK;
  return rc;
}
