/* `gpusplit report`'s flags: read, checked, and turned into a model, a GPU and a link. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fit_work.h"

static const char REPORT_HELP[] =
    "usage: gpusplit report [FLAGS]\n"
    "\n"
    "The fewest GPUs that fit, the best count, and for each count the memory per GPU and\n"
    "the time for one word, with the share of it spent waiting on the link.\n"
    "\n"
    "The model:\n"
    "  --model NAME|PATH  a built-in model (gpusplit list models) or a Hugging Face\n"
    "                     config.json of a family the reader counts (default 70b)\n"
    "  --bits B           bits of every weight, 1 to 32 (default: as the config stores them)\n"
    "The machines (each flag below overrides one figure of --gpu or --link):\n"
    "  --gpu NAME         a GPU from gpusplit list gpus (default lesson, the lesson's GPU)\n"
    "  --gpu-gib N        GPU memory in GiB\n"
    "  --usable F         share of it a server may use, 0.01 to 1 (default 0.92)\n"
    "  --gpu-bw B         bytes per second the GPU reads its memory\n"
    "  --gpu-flops F      16-bit operations per second\n"
    "  --link NAME        the link within a server, from gpusplit list links (default fast)\n"
    "  --link-bw B        link bytes per second\n"
    "  --step-us U        latency of one ring step, microseconds\n"
    "  --base-us U        latency once per all-reduce, microseconds (default 6.6)\n"
    "  --per-server G     GPUs one server holds (default: every GPU in one server)\n"
    "  --between NAME     the link between servers (default ib-ndr)\n"
    "  --link-from LOG    the link fitted to an nccl-tests all_reduce_perf log (gpusplit\n"
    "                     calibrate): the fit for this report's message size, with NCCL's\n"
    "                     6.6 us base held and the step latency solved for the log's count\n"
    "How it is split and served:\n"
    "  --split S          slices (every layer cut, tensor parallel), groups (of layers,\n"
    "                     pipeline) or slices-groups (slices in a server, groups across)\n"
    "  --words N          chats that each get their next word in one step (default 1)\n"
    "  --chat-tokens N    tokens a chat's cache holds (default 8192)\n"
    "  --cache-bits B     bits of each cached number, 1 to 32 (default 16)\n"
    "  --cache-per-chat   each chat keeps its own cache (default: the lesson's one chat)\n"
    "  --in-flight B      groups: B batches of --words chats in flight, each group working\n"
    "                     on one at every moment (at most the groups; default 1)\n"
    "  --replicas R       R copies of the layout, each serving its own chats (default 1)\n"
    "  --gpu-hour PRICE   what one GPU costs an hour, in any currency: each row adds the\n"
    "                     cost of a million words, and of a million prompt tokens at the\n"
    "                     first word's pace (no price is kept: they change weekly)\n"
    "  --experts slices|spread  a mixture of experts' routed experts cut across the GPUs\n"
    "                     (default), or spread: E/n whole experts a GPU, attention copied on\n"
    "                     each (data-parallel), tokens sent to their experts and back\n"
    ;
/* A second part: C99 compilers need take no string longer than 4,095 characters. */
static const char REPORT_HELP_RULES[] =
    "The rules:\n"
    "  --assume lesson|real  the lesson's toy rules, or real hardware's: a cache for each chat\n"
    "                     read every step, counts dividing the heads, servers of the GPU's\n"
    "                     usual size, NCCL's rules at the one-way ring bandwidth, the first\n"
    "                     word of a 1,024-token prompt, every engine's efficiency pooled.\n"
    "                     Default: real for a catalogue GPU, a typed figure replacing that\n"
    "                     figure only (the Assumptions line names it), else lesson.\n"
    "                     Each switch below can still be set either way.\n"
    "What the lesson leaves out (each off under the lesson's rules):\n"
    "  --nccl lesson|auto the lesson's all-reduce cost, or NCCL's cheapest ring protocol\n"
    "  --overlap          each layer's all-reduce hides behind the next layer's reading\n"
    "  --read-cache       each step also reads every chat's cache\n"
    "  --divide-heads     offer and search only counts that divide the attention heads\n"
    "  --fp8-compute      8-bit weights multiply in FP8 at the GPU's FP8 peak (real rules'\n"
    "                     default with --bits 8 on a GPU that has FP8 tensor cores)\n"
    "  --no-cache-per-chat, --no-read-cache, --no-divide-heads, --no-overlap,\n"
    "  --no-fp8-compute   each off\n"
    "Achieved efficiency (off under the lesson's rules: the data sheet's peaks):\n"
    "  --engine E|none    the figures fitted for engine E (trt-llm, vllm, sglang, llama.cpp,\n"
    "                     lmdeploy, gpt-fast, mlc, ...; median: the median engine; any, the\n"
    "                     default: every engine's runs pooled) on the GPU's generation,\n"
    "                     from data/efficiency.json (gpusplit fit)\n"
    "  --efficiency-from RUNS.csv  the figures fitted to your own measured runs\n"
    "  --bw-share F       share of the memory bandwidth a step reads at, 0.01 to 1\n"
    "  --layer-us U       fixed cost of each layer in each step, microseconds\n"
    "  --per-step-us U    fixed cost of each step, whatever the layers (scheduling,\n"
    "                     sampling), microseconds\n"
    "  --flops-share F    share of the FLOP/s a prefill computes at, 0.01 to 1\n"
    "  --allreduce-us U   start-up each all-reduce pays above the tables', microseconds\n"
    "  --request-us U     fixed cost a served request's first word pays once (receiving,\n"
    "                     tokenizing, scheduling, answering), microseconds\n"
    "  --prompt-tokens P  each chat's prompt: adds the time to the first word\n"
    "The report:\n"
    "  --counts LIST      GPU counts to show, comma-separated (default 1,2,4,8,16; under real\n"
    "                     rules the powers of two up to --max-n)\n"
    "  --max-n N          highest count the fewest and best searches try (default 64)\n"
    "  --explain --gpus N the sums for N GPUs, with the numbers put in\n"
    "  --json             one JSON object instead of the table\n"
    "  --emit vllm|sglang|trtllm  instead, the command that starts that engine on the\n"
    "                     layout of --counts N (one count), as the figures priced it\n"
    "\n"
    "Figures may be written in any form strtod reads: 2.039e12, 600e9, 0.92; counts and\n"
    "bits as digits.\n";


/* report's flags. To add a flag: its name here and in the enum below, its line in the help
 * above, and where it goes in the request (gs_request, csrc/gpusplit.h), whose rule lives in
 * csrc/read/resolve.c; a switch is a bit of enum gs_switch and a name in SWITCHES. */
static const char *const VALUE_FLAGS[] = {"--model", "--bits", "--gpu", "--gpu-gib", "--usable", "--gpu-bw", "--gpu-flops",
                                          "--link", "--link-bw", "--step-us", "--base-us", "--per-server", "--between",
                                          "--split", "--words", "--chat-tokens", "--cache-bits", "--nccl", "--counts",
                                          "--max-n", "--gpus", "--link-from", "--in-flight",
                                          "--replicas", "--gpu-hour", "--prompt-tokens", "--engine",
                                          "--efficiency-from", "--assume", "--experts", "--emit"
/* then each achieved-efficiency figure's flag, in GS_EFFICIENCY_FIELDS's order */
#define EFFICIENCY_FLAG(member, kind, flag) , flag
                                          GS_EFFICIENCY_FIELDS(EFFICIENCY_FLAG)
#undef EFFICIENCY_FLAG
};
#define ONE_MORE(member, kind, flag) +1
enum { F_MODEL, F_BITS, F_GPU, F_GPU_GIB, F_USABLE, F_GPU_BW, F_GPU_FLOPS, F_LINK, F_LINK_BW, F_STEP_US, F_BASE_US,
       F_PER_SERVER, F_BETWEEN, F_SPLIT, F_WORDS, F_CHAT_TOKENS, F_CACHE_BITS, F_NCCL, F_COUNTS, F_MAX_N, F_GPUS, F_LINK_FROM,
       F_IN_FLIGHT, F_REPLICAS, F_GPU_HOUR, F_PROMPT_TOKENS, F_ENGINE, F_EFFICIENCY_FROM, F_ASSUME, F_EXPERTS, F_EMIT,
       F_EFFICIENCY, /* the first efficiency figure's flag */
       F_COUNT = F_EFFICIENCY GS_EFFICIENCY_FIELDS(ONE_MORE) };
#undef ONE_MORE
_Static_assert(sizeof VALUE_FLAGS / sizeof VALUE_FLAGS[0] == F_COUNT, "a name for every value flag");
/* Where each efficiency flag's figure goes in gs_efficiency, and its name in the checks'
 * errors. */
static const struct {
  size_t offset;
  const char *field;
} EFFICIENCY_FIGURES[] = {
#define EFFICIENCY_FIGURE(member, kind, flag) {offsetof(gs_efficiency, member), #member},
    GS_EFFICIENCY_FIELDS(EFFICIENCY_FIGURE)
#undef EFFICIENCY_FIGURE
};

static const char *const SWITCHES[] = {"--json",         "--overlap",         "--read-cache",    "--divide-heads",
                                       "--cache-per-chat", "--explain",       "--no-overlap",    "--no-read-cache",
                                       "--no-divide-heads", "--no-cache-per-chat", "--fp8-compute", "--no-fp8-compute"};
enum { S_JSON, S_OVERLAP, S_READ_CACHE, S_DIVIDE_HEADS, S_CACHE_PER_CHAT, S_EXPLAIN, S_NO_OVERLAP, S_NO_READ_CACHE,
       S_NO_DIVIDE_HEADS, S_NO_CACHE_PER_CHAT, S_FP8_COMPUTE, S_NO_FP8_COMPUTE, S_COUNT };

static int parse_counts(const char *text, cli_report_options *o) {
  char item[64];
  const char *p = text;
  o->count_n = 0;
  for (;;) {
    size_t n = strcspn(p, ",");
    int rc;
    if (n == 0) return cli_bad("--counts: must be whole numbers separated by commas, not '%s'", text);
    if (o->count_n == CLI_MAX_COUNTS) return cli_bad("--counts: at most %d counts", CLI_MAX_COUNTS);
    if (n >= sizeof item) return cli_bad("--counts: '%.20s...' is not a GPU count", p);
    memcpy(item, p, n);
    item[n] = '\0';
    if ((rc = cli_parse_whole("--counts", item, GS_MAX_GPUS, &o->counts[o->count_n])) != CLI_OK) return rc;
    o->count_n++;
    if (p[n] == '\0') return CLI_OK;
    p += n + 1;
  }
}

/* 1 unless opening path says it is not there (not there as a file: a name, then). */
static int file_exists(const char *path) {
  FILE *f;
  errno = 0;
  f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL || errno != ENOENT;
}

/* The config.json a --model path names, read into memory the caller frees; a name that
 * is neither a catalogue model nor a file lists the catalogue's names. */
static int read_model(const char *model, char **text, size_t *len) {
  char names[1024];
  size_t at = 0, i;
  if (strlen(model) >= CLI_PATH_CAP) return cli_bad("--model: the path is longer than %d bytes", CLI_PATH_CAP - 1);
  if (strchr(model, '/') || file_exists(model)) return cli_read_file(model, 4 << 20, "a config.json", text, len);
  names[0] = '\0';
  for (i = 0; i < GS_MODEL_COUNT && at < sizeof names; i++)
    at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", GS_MODELS[i].key);
  return cli_bad("--model: no built-in model is named '%s' and no file has that name (names: %s)", model, names);
}

/* The flag a gs_gpu_check or gs_link_check field belongs to. */
static const char *flag_for(const char *field) {
  static const char *const map[][2] = {{"gpu gib", "--gpu-gib"}, {"gpu usable", "--usable"},
                                       {"gpu bandwidth", "--gpu-bw"}, {"gpu flops", "--gpu-flops"},
                                       {"link bandwidth", "--link-bw"}, {"link step_us", "--step-us"},
                                       {"link base_us", "--base-us"}};
  size_t i;
  for (i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(field, map[i][0]) == 0) return map[i][1];
  return field;
}

/* The flag a gs_plan_check field belongs to: "chat_tokens" is --chat-tokens. */
static const char *flag_of(const char *field) {
  static char flag[64];
  size_t i;
  snprintf(flag, sizeof flag, "--%s", field);
  for (i = 2; flag[i]; i++)
    if (flag[i] == '_') flag[i] = '-';
  return flag;
}

/* Splits argv into flag values and switches; --flag VALUE and --flag=VALUE both work. */
static int collect(int argc, char **argv, const char **values, int *switches) {
  int i;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    int f;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      fputs(REPORT_HELP, stdout);
      fputs(REPORT_HELP_RULES, stdout);
      return CLI_HELPED;
    }
    for (f = 0; f < S_COUNT; f++)
      if (strcmp(arg, SWITCHES[f]) == 0) break;
    if (f < S_COUNT) {
      switches[f] = 1;
      continue;
    }
    for (f = 0; f < F_COUNT; f++)
      if (strlen(VALUE_FLAGS[f]) == name_len && strncmp(arg, VALUE_FLAGS[f], name_len) == 0) break;
    if (f == F_COUNT) return cli_bad("report: unknown flag '%s' (see gpusplit report --help)", arg);
    /* A flag's value never starts with "--": "--counts --max-n 4" lacks the counts. */
    if (eq) values[f] = eq + 1;
    else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) values[f] = argv[++i];
    else return cli_bad("%s: needs a value", VALUE_FLAGS[f]);
  }
  return CLI_OK;
}

/* The typed figures of the GPU and the link, each in place of the catalogue's. */
static int typed_figures(const char **v, gs_request *q) {
  static const struct {
    int flag;
    unsigned bit;
    int link; /* 1: a figure of the link */
  } FIGURES[] = {{F_GPU_GIB, GS_TYPED_GIB, 0},     {F_USABLE, GS_TYPED_USABLE, 0},  {F_GPU_BW, GS_TYPED_GPU_BW, 0},
                 {F_GPU_FLOPS, GS_TYPED_FLOPS, 0}, {F_LINK_BW, GS_TYPED_LINK_BW, 1}, {F_STEP_US, GS_TYPED_STEP_US, 1},
                 {F_BASE_US, GS_TYPED_BASE_US, 1}};
  double *targets[] = {&q->gpu.gib, &q->gpu.usable, &q->gpu.bandwidth, &q->gpu.flops,
                       &q->link.bandwidth, &q->link.step_us, &q->link.base_us};
  size_t i;
  int rc;
  for (i = 0; i < sizeof FIGURES / sizeof FIGURES[0]; i++) {
    if (!v[FIGURES[i].flag]) continue;
    if ((rc = cli_parse_number(VALUE_FLAGS[FIGURES[i].flag], v[FIGURES[i].flag], targets[i])) != CLI_OK) return rc;
    if (FIGURES[i].link) q->link_typed |= FIGURES[i].bit;
    else q->gpu_typed |= FIGURES[i].bit;
  }
  return CLI_OK;
}

/* The settings a request's counts take from the flags, each checked as a whole number. */
static int plan_figures(const char **v, gs_request *q) {
  static const struct {
    int flag;
    uint64_t max;
  } WHOLE[] = {{F_WORDS, 0},  {F_PER_SERVER, 0}, {F_CHAT_TOKENS, 0}, {F_CACHE_BITS, 32},
               {F_MAX_N, 0},  {F_IN_FLIGHT, 0},  {F_REPLICAS, 0}};
  uint64_t *targets[] = {&q->words, &q->per_server, &q->chat_tokens, &q->cache_bits, &q->max_n, &q->in_flight, &q->replicas};
  const uint64_t *maxima[] = {&GS_MAX_WORDS, &GS_MAX_GPUS, &GS_MAX_CHAT_TOKENS, NULL, &GS_MAX_GPUS, &GS_MAX_GPUS, &GS_MAX_GPUS};
  size_t i;
  int rc;
  for (i = 0; i < sizeof WHOLE / sizeof WHOLE[0]; i++) {
    uint64_t max = maxima[i] ? *maxima[i] : WHOLE[i].max;
    if (v[WHOLE[i].flag] && (rc = cli_parse_whole(VALUE_FLAGS[WHOLE[i].flag], v[WHOLE[i].flag], max, targets[i])) != CLI_OK)
      return rc;
  }
  if (v[F_GPU_HOUR] && (rc = cli_parse_number("--gpu-hour", v[F_GPU_HOUR], &q->gpu_hour)) != CLI_OK) return rc;
  if (v[F_GPU_HOUR] && !(q->gpu_hour > 0)) return cli_bad("--gpu-hour: must be a price from 0.001 to 1000000 an hour");
  gs_error err;
  if (gs_split_parse(v[F_SPLIT] ? v[F_SPLIT] : "slices", &q->split, &err) != GS_OK)
    return cli_bad("--split: %s, not '%s'", err.what, v[F_SPLIT]);
  if (v[F_NCCL] && strcmp(v[F_NCCL], "auto") == 0) q->switches |= GS_SW_NCCL_AUTO;
  else if (v[F_NCCL] && strcmp(v[F_NCCL], "lesson") == 0) q->switches_off |= GS_SW_NCCL_AUTO;
  else if (v[F_NCCL]) return cli_bad("--nccl: must be lesson or auto, not '%s'", v[F_NCCL]);
  if (v[F_EXPERTS] && strcmp(v[F_EXPERTS], "spread") == 0) q->experts = GS_EXPERTS_SPREAD;
  else if (v[F_EXPERTS] && strcmp(v[F_EXPERTS], "slices") != 0)
    return cli_bad("--experts: must be slices or spread, not '%s'", v[F_EXPERTS]);
  if (v[F_ASSUME] && strcmp(v[F_ASSUME], "lesson") == 0) q->assume = GS_ASSUME_LESSON;
  else if (v[F_ASSUME] && strcmp(v[F_ASSUME], "real") == 0) q->assume = GS_ASSUME_REAL;
  else if (v[F_ASSUME]) return cli_bad("--assume: must be lesson or real, not '%s'", v[F_ASSUME]);
  return CLI_OK;
}

/* A resolver's failure as the flag a person typed: "--gpu-gib: ...", "data/models/x.json: ...". */
static int resolve_failed(const gs_setting *s, const char **v, const gs_error *err) {
  const char *part = s->failed;
  /* the built-in table without its pooled figures: this build's failure, not the input's */
  if (strcmp(part, "efficiency") == 0 && strcmp(err->field, "efficiency") == 0) {
    cli_bad("data/efficiency.json (built in): %s", err->what);
    return CLI_FAILED;
  }
  if (strcmp(part, "efficiency") == 0) return cli_bad("--%s: %s", err->field, err->what);
  if (strcmp(part, "model") == 0) {
    if (strcmp(err->field, "bits") == 0) return cli_bad("--bits: %s", err->what);
    return cli_bad_error(s->model_file, err);
  }
  if (strcmp(part, "log") == 0) {
    if (strcmp(err->field, "figures") == 0) return cli_bad("--link-from: %s", err->what);
    return cli_bad_error(v[F_LINK_FROM], err);
  }
  if (strcmp(part, "gpu") == 0 && err->code == GS_ERR_UNKNOWN) return cli_bad("--gpu: %s", err->what);
  if (strcmp(part, "link") == 0 && err->code == GS_ERR_UNKNOWN) return cli_bad("--link: %s", err->what);
  if (strcmp(part, "between") == 0) return cli_bad("--between: %s", err->what);
  if (strcmp(part, "plan") == 0 && strcmp(err->field, "nccl") == 0) return cli_bad("--nccl: %s", err->what);
  if (strcmp(part, "plan") == 0) return cli_bad("%s: %s", flag_of(err->field), err->what);
  return cli_bad("%s: %s", flag_for(err->field), err->what);
}

/* The counts to show: --counts, or the lesson's that the plan can take; each checked. */
static int choose_counts(const char *given, cli_report_options *o) {
  const gs_setting *s = &o->setting;
  size_t i, kept = 0;
  int rc;
  if (given) {
    if ((rc = parse_counts(given, o)) != CLI_OK) return rc;
  } else if (s->real) {
    /* real servers: powers of two up to the searches' limit, so the fewest and the best show */
    uint64_t n;
    for (o->count_n = 0, n = 1; n <= s->max_n && o->count_n < CLI_MAX_COUNTS; n *= 2) o->counts[o->count_n++] = n;
  } else {
    for (o->count_n = 0; o->count_n < GS_COUNT_COUNT; o->count_n++) o->counts[o->count_n] = GS_COUNTS[o->count_n];
  }
  for (i = 0; i < o->count_n; i++) {
    gs_error err;
    rc = gs_count_allowed(s, o->counts[i], &err);
    if (rc == GS_ERR_SHAPE && !given) continue;
    if (rc != GS_OK && s->divide_heads && s->model.heads % o->counts[i] != 0)
      return cli_bad("--counts: %s (--divide-heads)", err.what);
    if (rc != GS_OK) return cli_bad("--counts: %s: %s", err.field, err.what);
    o->counts[kept++] = o->counts[i];
  }
  o->count_n = kept;
  if (kept == 0) return cli_bad("--counts: none of the default counts suits these settings; give --counts");
  return CLI_OK;
}

/* Achieved efficiency: the engine named, a fit to --efficiency-from's runs (in *fitted,
 * which the caller frees), each figure typed in place of one; gs_resolve applies them (and
 * under real rules, with none of them, every engine's pooled). And the prompt. */
static int load_efficiency(const char **v, gs_request *q, fit_result **fitted) {
  gs_error err;
  size_t i;
  int rc;
  q->engine = v[F_ENGINE];
  if (v[F_EFFICIENCY_FROM]) {
    /* a fit to the user's runs keeps data/efficiency.json's all-reduce start-up (NVIDIA's
     * measured all-reduces) */
    if (!(*fitted = malloc(sizeof **fitted))) return cli_bad("--efficiency-from: out of memory");
    if ((rc = fit_read_builtin(*fitted)) != CLI_OK || (rc = fit_runs_file(v[F_EFFICIENCY_FROM], *fitted)) != CLI_OK) return rc;
    q->efficiencies = *fitted;
  }
  for (i = 0; i < F_COUNT - F_EFFICIENCY; i++) {
    double *target = (double *)(void *)((char *)&q->efficiency + EFFICIENCY_FIGURES[i].offset);
    if (!v[F_EFFICIENCY + i]) continue;
    if ((rc = cli_parse_number(VALUE_FLAGS[F_EFFICIENCY + i], v[F_EFFICIENCY + i], target)) != CLI_OK) return rc;
    q->efficiency_typed |= 1u << i;
  }
  if (gs_efficiency_check(&q->efficiency, &err) != GS_OK) {
    for (i = 0; i < F_COUNT - F_EFFICIENCY; i++)
      if (strcmp(err.field, EFFICIENCY_FIGURES[i].field) == 0) return cli_bad("%s: %s", VALUE_FLAGS[F_EFFICIENCY + i], err.what);
    return cli_bad("%s: %s", err.field, err.what);
  }
  if (v[F_PROMPT_TOKENS] && strcmp(v[F_PROMPT_TOKENS], "none") == 0) q->no_prompt = 1;
  else if (v[F_PROMPT_TOKENS] &&
           (rc = cli_parse_whole("--prompt-tokens", v[F_PROMPT_TOKENS], GS_MAX_CHAT_TOKENS, &q->prompt_tokens)) != CLI_OK)
    return rc;
  return CLI_OK;
}

/* Fills o from argv; returns CLI_OK, CLI_HELPED, or CLI_BAD_INPUT after printing why. */
int cli_report_parse(int argc, char **argv, cli_report_options *o) {
  static const struct {
    int sw;
    unsigned bit;
    int off; /* 1: switched off */
  } SWITCH_BITS[] = {{S_OVERLAP, GS_SW_OVERLAP, 0},          {S_READ_CACHE, GS_SW_READ_CACHE, 0},
                     {S_DIVIDE_HEADS, GS_SW_DIVIDE_HEADS, 0},  {S_CACHE_PER_CHAT, GS_SW_CACHE_PER_CHAT, 0},
                     {S_NO_OVERLAP, GS_SW_OVERLAP, 1},       {S_NO_READ_CACHE, GS_SW_READ_CACHE, 1},
                     {S_NO_DIVIDE_HEADS, GS_SW_DIVIDE_HEADS, 1}, {S_NO_CACHE_PER_CHAT, GS_SW_CACHE_PER_CHAT, 1},
                     {S_FP8_COMPUTE, GS_SW_FP8_COMPUTE, 0},    {S_NO_FP8_COMPUTE, GS_SW_FP8_COMPUTE, 1}};
  const char *v[F_COUNT] = {0};
  int sw[S_COUNT] = {0};
  gs_request q;
  char *model_text = NULL, *log_text = NULL;
  fit_result *fitted = NULL;
  size_t i;
  gs_error err;
  int rc;
  memset(o, 0, sizeof *o);
  memset(&q, 0, sizeof q);
  if ((rc = collect(argc, argv, v, sw)) != CLI_OK) return rc;
  o->json = sw[S_JSON];
  for (i = 0; i < sizeof SWITCH_BITS / sizeof SWITCH_BITS[0]; i++) {
    if (!sw[SWITCH_BITS[i].sw]) continue;
    if (SWITCH_BITS[i].off) q.switches_off |= SWITCH_BITS[i].bit;
    else q.switches |= SWITCH_BITS[i].bit;
  }
  if (q.switches & q.switches_off) return cli_bad("report: a switch and its --no- form together");
  if (v[F_BITS] && (rc = cli_parse_whole("--bits", v[F_BITS], 32, &q.bits)) != CLI_OK) return rc;
  q.model_key = v[F_MODEL] ? v[F_MODEL] : "70b";
  if (!gs_find_model(q.model_key)) {
    if ((rc = read_model(q.model_key, &model_text, &q.model_len)) != CLI_OK) return rc;
    q.model_text = model_text;
    q.model_label = q.model_key;
    q.model_key = NULL;
  }
  q.gpu_key = v[F_GPU] ? v[F_GPU] : "lesson";
  q.link_key = v[F_LINK]; /* NULL: the lesson's fast link, or under real rules the GPU's own */
  q.between_key = v[F_BETWEEN] ? v[F_BETWEEN] : "ib-ndr";
  if ((rc = typed_figures(v, &q)) != CLI_OK || (rc = plan_figures(v, &q)) != CLI_OK ||
      (rc = load_efficiency(v, &q, &fitted)) != CLI_OK) {
    free(model_text);
    free(fitted);
    return rc;
  }
  if (v[F_LINK_FROM] &&
      (rc = cli_read_file(v[F_LINK_FROM], GS_MEASURED_MAX_BYTES, "an all_reduce_perf log", &log_text, &q.log_len)) != CLI_OK) {
    free(model_text);
    free(fitted);
    return rc;
  }
  q.log_text = log_text;
  rc = gs_resolve(&q, &o->setting, &err);
  free(model_text);
  free(log_text);
  free(fitted);
  if (rc != GS_OK) return resolve_failed(&o->setting, v, &err);
  snprintf(o->efficiency_text, sizeof o->efficiency_text, "%s", o->setting.efficiency_from);
  if (sw[S_EXPLAIN] != (v[F_GPUS] != NULL)) return cli_bad("--explain and --gpus N go together: --explain --gpus N");
  if (v[F_EMIT] && (rc = cli_emit_parse(v[F_EMIT], v[F_COUNTS], o->json || sw[S_EXPLAIN], &o->emit)) != CLI_OK) return rc;
  if (v[F_GPUS]) {
    gs_plan p = o->setting.plan;
    if ((rc = cli_parse_whole("--gpus", v[F_GPUS], GS_MAX_GPUS, &o->explain_gpus)) != CLI_OK) return rc;
    p.gpus = o->explain_gpus;
    if (gs_plan_check(&o->setting.model, &p, &err) != GS_OK) return cli_bad("--gpus: %s", err.what);
  }
  return choose_counts(v[F_COUNTS], o);
}
