/* `gpusplit report`'s flags: read, checked, and turned into a model, a GPU and a link. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fit_work.h"

static const char REPORT_HEAD[] =
    "usage: gpusplit report [FLAGS]\n"
    "\n"
    "The fewest GPUs that fit, the best count, and for each count the memory per GPU and\n"
    "the time for one word, with the share of it spent waiting on the link.\n"
    "\n";
static const char REPORT_TAIL[] =
    "\n"
    "Figures may be written in any form strtod reads: 2.039e12, 600e9, 0.92; counts and\n"
    "bits as digits. Every flag takes --flag VALUE or --flag=VALUE, once.\n";

static const uint64_t BITS_MOST = 32;
enum { /* each efficiency figure's place in GS_EFFICIENCY_FIELDS: its bit of efficiency_typed */
#define EFFICIENCY_PLACE(member, kind, flag) E_##member,
  GS_EFFICIENCY_FIELDS(EFFICIENCY_PLACE)
#undef EFFICIENCY_PLACE
  E_COUNT
};
#define AT(member) offsetof(cli_report_flags, member)
#define GPU_FIGURE(name, meta, member, bit, help) GS_TYPED(name, meta, AT(q.gpu.member), bit, AT(q.gpu_typed), help)
#define LINK_FIGURE(name, meta, member, bit, help) GS_TYPED(name, meta, AT(q.link.member), bit, AT(q.link_typed), help)
#define EFFICIENCY(name, meta, member, help) \
  GS_TYPED(name, meta, AT(q.efficiency.member), 1u << E_##member, AT(q.efficiency_typed), help)

/* report's flags, where each goes (a gs_request, csrc/gpusplit.h, whose rules live in
 * csrc/read/resolve.c) and its help. To add a flag: its row here, and the code that uses
 * it; a switch is a bit of enum gs_switch. */
const gs_flag CLI_REPORT_FLAGS[] = {
    GS_NOTE("The model:"),
    GS_TEXT("--model", "NAME|PATH", AT(q.model_key), "a built-in model (gpusplit list models) or a Hugging Face\n"
                                                     "config.json of a family the reader counts (default 70b)"),
    GS_WHOLE("--bits", "B", AT(q.bits), &BITS_MOST, "bits of every weight, 1 to 32 (default: as the config stores them)"),
    GS_NOTE("The machines (each flag below overrides one figure of --gpu or --link):"),
    GS_TEXT("--gpu", "NAME", AT(q.gpu_key), "a GPU from gpusplit list gpus (default lesson, the lesson's GPU)"),
    GPU_FIGURE("--gpu-gib", "N", gib, GS_TYPED_GIB, "GPU memory in GiB"),
    GPU_FIGURE("--usable", "F", usable, GS_TYPED_USABLE, "share of it a server may use, 0.01 to 1 (default 0.92)"),
    GPU_FIGURE("--gpu-bw", "B", bandwidth, GS_TYPED_GPU_BW, "bytes per second the GPU reads its memory"),
    GPU_FIGURE("--gpu-flops", "F", flops, GS_TYPED_FLOPS, "16-bit operations per second"),
    GS_TEXT("--link", "NAME", AT(q.link_key), "the link within a server, from gpusplit list links (default fast)"),
    LINK_FIGURE("--link-bw", "B", bandwidth, GS_TYPED_LINK_BW, "link bytes per second"),
    LINK_FIGURE("--step-us", "U", step_us, GS_TYPED_STEP_US, "latency of one ring step, microseconds"),
    LINK_FIGURE("--base-us", "U", base_us, GS_TYPED_BASE_US, "latency once per all-reduce, microseconds (default 6.6)"),
    GS_TYPED_CHOICE("--link-kind", "nvlink|pci|net", AT(link_kind), GS_TYPED_KIND, AT(q.link_typed),
                    "what the link is, for real rules: NVLink, PCIe or a network (NCCL's\n"
                    "rules and the ring's bandwidth one way go by it)"),
    GS_WHOLE("--per-server", "G", AT(q.per_server), &GS_MAX_GPUS, "GPUs one server holds (default: every GPU in one server)"),
    GS_TEXT("--between", "NAME", AT(q.between_key), "the link between servers (default ib-ndr)"),
    GS_PATH("--link-from", "LOG", AT(link_from), "the link fitted to an nccl-tests all_reduce_perf log (gpusplit\n"
                                                "calibrate): the fit for this report's message size, with NCCL's\n"
                                                "6.6 us base held and the step latency solved for the log's count"),
    GS_NOTE("How it is split and served:"),
    GS_CHOICE("--split", "slices|groups|slices-groups", AT(split),
              "slices (every layer cut, tensor parallel), groups (of layers,\n"
              "pipeline) or slices-groups (slices in a server, groups across)"),
    GS_WHOLE("--words", "N", AT(q.words), &GS_MAX_WORDS, "chats that each get their next word in one step (default 1)"),
    GS_WHOLE("--chat-tokens", "N", AT(q.chat_tokens), &GS_MAX_CHAT_TOKENS, "tokens a chat's cache holds (default 8192)"),
    GS_WHOLE("--cache-bits", "B", AT(q.cache_bits), &BITS_MOST, "bits of each cached number, 1 to 32 (default 16)"),
    GS_SWITCH("--cache-per-chat", AT(q.switches), GS_SW_CACHE_PER_CHAT, "each chat keeps its own cache (default: the lesson's one chat)"),
    GS_WHOLE("--in-flight", "B", AT(q.in_flight), &GS_MAX_GPUS, "groups: B batches of --words chats in flight, each group working\n"
                                                               "on one at every moment (at most the groups; default 1)"),
    GS_WHOLE("--replicas", "R", AT(q.replicas), &GS_MAX_GPUS, "R copies of the layout, each serving its own chats (default 1)"),
    GS_TYPED("--gpu-hour", "PRICE", AT(q.gpu_hour), 1, AT(given), "what one GPU costs an hour, in any currency: each row adds the\n"
                                                   "cost of a million words, and of a million prompt tokens at the\n"
                                                   "first word's pace (no price is kept: they change weekly)"),
    GS_CHOICE("--experts", "slices|spread", AT(experts), "a mixture of experts' routed experts cut across the GPUs\n"
                                                         "(default), or spread: E/n whole experts a GPU, attention copied on\n"
                                                         "each (data-parallel), tokens sent to their experts and back"),
    GS_NOTE("The rules:"),
    GS_CHOICE("--assume", "lesson|real", AT(assume), "the lesson's toy rules, or real hardware's: a cache for each chat\n"
                                                     "read every step, counts dividing the heads, servers of the GPU's\n"
                                                     "usual size, NCCL's rules at the one-way ring bandwidth, the first\n"
                                                     "word of a 1,024-token prompt, every engine's efficiency pooled.\n"
                                                     "Default: real for a catalogue GPU, a typed figure replacing that\n"
                                                     "figure only (the Assumptions line names it), else lesson.\n"
                                                     "Each switch below can still be set either way."),
    GS_NOTE("What the lesson leaves out (each off under the lesson's rules):"),
    GS_CHOICE("--nccl", "lesson|auto", AT(nccl), "the lesson's all-reduce cost, or NCCL's cheapest ring protocol"),
    GS_SWITCH("--overlap", AT(q.switches), GS_SW_OVERLAP, "each layer's all-reduce hides behind the next layer's reading"),
    GS_SWITCH("--read-cache", AT(q.switches), GS_SW_READ_CACHE, "each step also reads every chat's cache"),
    GS_SWITCH("--divide-heads", AT(q.switches), GS_SW_DIVIDE_HEADS, "offer and search only counts that divide the attention heads"),
    GS_SWITCH("--fp8-compute", AT(q.switches), GS_SW_FP8_COMPUTE, "8-bit weights multiply in FP8 at the GPU's FP8 peak (real rules'\n"
                                                                  "default with --bits 8 on a GPU that has FP8 tensor cores)"),
    GS_NOTE("  --no-cache-per-chat, --no-read-cache, --no-divide-heads, --no-overlap,\n"
            "  --no-fp8-compute   each off (--no-fp8-compute also keeps 4-bit weights and MXFP4\n"
            "                     experts at the 16-bit peak, where real rules price them at\n"
            "                     the GPU's FP4 or FP8 one)"),
    GS_SWITCH("--no-cache-per-chat", AT(q.switches_off), GS_SW_CACHE_PER_CHAT, NULL),
    GS_SWITCH("--no-read-cache", AT(q.switches_off), GS_SW_READ_CACHE, NULL),
    GS_SWITCH("--no-divide-heads", AT(q.switches_off), GS_SW_DIVIDE_HEADS, NULL),
    GS_SWITCH("--no-overlap", AT(q.switches_off), GS_SW_OVERLAP, NULL),
    GS_SWITCH("--no-fp8-compute", AT(q.switches_off), GS_SW_FP8_COMPUTE, NULL),
    GS_NOTE("Achieved efficiency (off under the lesson's rules: the data sheet's peaks):"),
    GS_TEXT("--engine", "E|none", AT(q.engine), "the figures fitted for engine E (trt-llm, vllm, sglang, llama.cpp,\n"
                                                "lmdeploy, gpt-fast, mlc, ...; median: the median engine; any, the\n"
                                                "default: every engine's runs pooled) on the GPU's generation,\n"
                                                "from data/efficiency.json (gpusplit fit)"),
    GS_PATH("--efficiency-from", "RUNS.csv", AT(efficiency_from), "the figures fitted to your own measured runs"),
    /* each figure of GS_EFFICIENCY_FIELDS, in its order (checked below) */
    EFFICIENCY("--bw-share", "F", bandwidth_share, "share of the memory bandwidth a step reads at, 0.01 to 1"),
    EFFICIENCY("--layer-us", "U", layer_us, "fixed cost of each layer in each step, microseconds"),
    EFFICIENCY("--flops-share", "F", flops_share, "share of the FLOP/s a prefill computes at, 0.01 to 1"),
    EFFICIENCY("--allreduce-us", "U", allreduce_us, "start-up each all-reduce pays above the tables', microseconds"),
    EFFICIENCY("--per-step-us", "U", step_us, "fixed cost of each step, whatever the layers (scheduling,\n"
                                              "sampling), microseconds"),
    EFFICIENCY("--request-us", "U", request_us, "fixed cost a served request's first word pays once (receiving,\n"
                                                "tokenizing, scheduling, answering), microseconds"),
    GS_TEXT("--prompt-tokens", "P", AT(prompt_tokens), "each chat's prompt: adds the time to the first word"),
    GS_NOTE("The report:"),
    GS_TEXT("--counts", "LIST", AT(counts), "GPU counts to show, comma-separated (default 1,2,4,8,16; under real\n"
                                            "rules the powers of two up to --max-n)"),
    GS_WHOLE("--max-n", "N", AT(q.max_n), &GS_MAX_GPUS, "highest count the fewest and best searches try (default 64)"),
    GS_SWITCH("--explain", AT(explain), 0, "with --gpus N: the sums for N GPUs, with the numbers put in"),
    GS_WHOLE("--gpus", "N", AT(gpus), &GS_MAX_GPUS, "the GPU count --explain shows"),
    GS_SWITCH("--json", AT(json), 0, "one JSON object instead of the table"),
    GS_TEXT("--emit", "vllm|sglang|trtllm", AT(emit), "instead, the command that starts that engine on the\n"
                                                     "layout of --counts N (one count), as the figures priced it"),
};
const size_t CLI_REPORT_FLAG_N = sizeof CLI_REPORT_FLAGS / sizeof CLI_REPORT_FLAGS[0];
_Static_assert(E_COUNT == 6, "a row of CLI_REPORT_FLAGS for every efficiency figure");

/* A served load's engine takes report's --request-us, the same figure (a request's front end,
 * csrc/gpusplit.h gs_scheduler). It refuses report's flags it would take and not use (each
 * accepted and ignored until 2026-12-07): --flops-share, a prefill's share, where a served
 * step computes at --step-flops-share; --chat-tokens, which the load's lengths decide;
 * --usable, where an engine takes --memory-share; --no-read-cache, a rule no served decode
 * keeps. */
int cli_served_report_flags(const cli_report_flags *rf, cli_load_flags *lf) {
  if (rf->q.efficiency_typed & (1u << E_flops_share))
    return cli_bad("--flops-share: a served step computes at --step-flops-share (the serving fit's by default), "
                   "not at report's prefill share");
  if (rf->q.chat_tokens) return cli_bad("--chat-tokens: a served load's lengths decide each chat's tokens; leave it out");
  if (rf->q.gpu_typed & GS_TYPED_USABLE)
    return cli_bad("--usable: a served engine takes --memory-share of each GPU's memory, not report's usable share");
  if (rf->q.switches_off & GS_SW_READ_CACHE)
    return cli_bad("--no-read-cache: a served step reads every chat's cache, as its decodes must; leave it out");
  if (rf->q.efficiency_typed & (1u << E_request_us)) {
    lf->limits.request_us = rf->q.efficiency.request_us;
    lf->given |= CLI_LOAD_REQUEST_US;
  }
  return CLI_OK;
}

/* Each efficiency figure's flag and its name in the checks' errors. */
static const struct {
  const char *flag, *field;
} EFFICIENCY_FLAGS[] = {
#define EFFICIENCY_FLAG(member, kind, flag) {flag, #member},
    GS_EFFICIENCY_FIELDS(EFFICIENCY_FLAG)
#undef EFFICIENCY_FLAG
};

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

/* The choices read (each its place from 1) into the request: the split, NCCL's rules, the
 * experts and the rules; and the price. */
static int choices(const cli_report_flags *f, gs_request *q) {
  if (f->split) q->split = f->split - 1; /* slices, groups, slices-groups: enum gs_split's order */
  if (f->link_kind) q->link.kind = f->link_kind - 1; /* nvlink, pci, net: enum gs_link_kind's order */
  if (f->nccl == 2) q->switches |= GS_SW_NCCL_AUTO;
  if (f->nccl == 1) q->switches_off |= GS_SW_NCCL_AUTO;
  if (f->experts == 2) q->experts = GS_EXPERTS_SPREAD;
  if (f->assume) q->assume = f->assume == 1 ? GS_ASSUME_LESSON : GS_ASSUME_REAL;
  if ((f->given & 1) && !(q->gpu_hour > 0)) return cli_bad("--gpu-hour: must be a price from 0.001 to 1000000 an hour");
  if (q->switches & q->switches_off) return cli_bad("report: a switch and its --no- form together");
  return CLI_OK;
}

/* A resolver's failure as the flag a person typed: "--gpu-gib: ...", "data/models/x.json: ...". */
static int resolve_failed(const gs_setting *s, const cli_report_flags *f, const gs_error *err) {
  const char *part = s->failed;
  /* the built-in table without its pooled figures: this build's failure, not the input's */
  if (strcmp(part, "efficiency") == 0 && strcmp(err->field, "efficiency") == 0) {
    cli_bad("data/efficiency.json (built in): %s", err->what);
    return CLI_FAILED;
  }
  if (strcmp(part, "efficiency") == 0) return cli_bad("--%s: %s", err->field, err->what);
  if (strcmp(part, "model") == 0) {
    if (strcmp(err->field, "bits") == 0) return cli_bad("--bits: %s", err->what);
    char file[CLI_PATH_CAP];
    if (s->model_entry) snprintf(file, sizeof file, "data/models/%s", s->model_entry->file);
    return cli_bad_error(s->model_entry ? file : s->model_name ? s->model_name : "", err);
  }
  if (strcmp(part, "log") == 0) {
    if (strcmp(err->field, "figures") == 0) return cli_bad("--link-from: %s", err->what);
    return cli_bad_error(f->link_from, err);
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
    if (rc != GS_OK && s->divide_heads && s->model.heads % o->counts[i] != 0 && strcmp(err.field, "gpus") == 0)
      return cli_bad("--counts: %s (--divide-heads)", err.what);
    if (rc != GS_OK && strcmp(err.field, "expert_ranks") == 0) return cli_bad("--expert-ranks: %s", err.what);
    if (rc != GS_OK) return cli_bad("--counts: %s: %s", err.field, err.what);
    o->counts[kept++] = o->counts[i];
  }
  o->count_n = kept;
  if (kept == 0) return cli_bad("--counts: none of the default counts suits these settings; give --counts");
  return CLI_OK;
}

/* Achieved efficiency: a fit to --efficiency-from's runs (in *fitted, which the caller
 * frees), each figure typed in place of one; gs_resolve applies them (and under real rules,
 * with none of them, every engine's pooled). And the prompt. */
static int load_efficiency(const cli_report_flags *f, gs_request *q, fit_result **fitted) {
  gs_error err;
  size_t i;
  int rc;
  if (f->efficiency_from) {
    /* a fit to the user's runs keeps data/efficiency.json's all-reduce start-up (NVIDIA's
     * measured all-reduces) */
    if (!(*fitted = malloc(sizeof **fitted))) return cli_bad("--efficiency-from: out of memory");
    if ((rc = fit_read_builtin(*fitted)) != CLI_OK || (rc = fit_runs_file(f->efficiency_from, *fitted)) != CLI_OK) return rc;
    q->efficiencies = *fitted;
  }
  if (gs_efficiency_check(&q->efficiency, &err) != GS_OK) {
    for (i = 0; i < E_COUNT; i++)
      if (strcmp(err.field, EFFICIENCY_FLAGS[i].field) == 0) return cli_bad("%s: %s", EFFICIENCY_FLAGS[i].flag, err.what);
    return cli_bad("%s: %s", err.field, err.what);
  }
  if (f->prompt_tokens && strcmp(f->prompt_tokens, "none") == 0) q->no_prompt = 1;
  else if (f->prompt_tokens &&
           (rc = cli_parse_whole("--prompt-tokens", f->prompt_tokens, GS_MAX_CHAT_TOKENS, &q->prompt_tokens)) != CLI_OK)
    return rc;
  return CLI_OK;
}

/* The request's texts: the model's config.json and the link's log, read whole. */
static int read_texts(const cli_report_flags *f, gs_request *q, char **model_text, char **log_text) {
  int rc;
  if (!q->model_key) q->model_key = "70b";
  if (!gs_find_model(q->model_key)) {
    if ((rc = read_model(q->model_key, model_text, &q->model_len)) != CLI_OK) return rc;
    q->model_text = *model_text;
    q->model_label = q->model_key;
    q->model_key = NULL;
  }
  if (!q->gpu_key) q->gpu_key = "lesson";
  /* a NULL link: the lesson's fast link, or under real rules the GPU's own */
  if (!q->between_key) q->between_key = "ib-ndr";
  if (f->link_from &&
      (rc = cli_read_file(f->link_from, GS_MEASURED_MAX_BYTES, "an all_reduce_perf log", log_text, &q->log_len)) != CLI_OK)
    return rc;
  q->log_text = *log_text;
  return CLI_OK;
}

int cli_report_resolve(const cli_report_flags *f, cli_report_options *o) {
  gs_request q = f->q;
  char *model_text = NULL, *log_text = NULL;
  fit_result *fitted = NULL;
  gs_error err;
  int rc;
  memset(o, 0, sizeof *o);
  o->json = f->json;
  if ((rc = choices(f, &q)) == CLI_OK && (rc = read_texts(f, &q, &model_text, &log_text)) == CLI_OK &&
      (rc = load_efficiency(f, &q, &fitted)) == CLI_OK && gs_resolve(&q, &o->setting, &err) != GS_OK)
    rc = resolve_failed(&o->setting, f, &err);
  free(model_text);
  free(log_text);
  free(fitted);
  if (rc != CLI_OK) return rc;
  snprintf(o->efficiency_text, sizeof o->efficiency_text, "%s", o->setting.efficiency_from);
  if (f->explain != (f->gpus != 0)) return cli_bad("--explain and --gpus N go together: --explain --gpus N");
  if (f->emit && (rc = cli_emit_parse(f->emit, f->counts, o->json || f->explain, &o->emit)) != CLI_OK) return rc;
  if (f->gpus) {
    gs_plan p = o->setting.plan;
    p.gpus = o->explain_gpus = f->gpus;
    if (gs_plan_check(&o->setting.model, &p, &err) != GS_OK) return cli_bad("--gpus: %s", err.what);
  }
  return choose_counts(f->counts, o);
}

int cli_report_parse(int argc, char **argv, cli_report_options *o) {
  cli_report_flags f;
  gs_flag_set set;
  int rc;
  memset(&f, 0, sizeof f);
  set = (gs_flag_set){CLI_REPORT_FLAGS, CLI_REPORT_FLAG_N, &f, NULL, NULL};
  if ((rc = cli_flags_or_help(&set, 1, argc, argv, REPORT_HEAD, REPORT_TAIL)) != CLI_OK) return rc;
  return cli_report_resolve(&f, o);
}
