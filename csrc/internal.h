/* Helpers shared by the library's files; not part of the public API. */
#ifndef GPUSPLIT_INTERNAL_H
#define GPUSPLIT_INTERNAL_H

#include <stdarg.h>

#include "gpusplit.h"

/* BEYOND_WIDGET: the code for what the lesson's widget never asks (typed figures, real
 * rules, logs, prices, servers, fixed costs, rates below a word a second). 0 in the lesson's
 * module (GS_LESSON_ONLY, csrc/wasm/lesson.c), which takes the lesson's settings by name
 * alone and so leaves all of it out, each use a constant 0 that the compiler drops with the
 * code it guards; 1 in every other build. The page's size is the reason (its budget,
 * docs/ARCHITECTURE.md "Speed and size"). */
#ifdef GS_LESSON_ONLY
#define BEYOND_WIDGET 0
#else
#define BEYOND_WIDGET 1
#endif

/* jsmn (zserge/jsmn, Debian's libjsmn-dev): json.c holds its code, the other files
 * see its token type only. */
#ifndef JSMN_STATIC
#define JSMN_HEADER
#endif
#include <jsmn.h>

/* data/ as typed tables (build/tables*.c, written by scripts/tables.c with the readers of
 * hardware.c and config.c): every GPU and link with its texts, and each catalogue model in
 * GS_MODELS' order as stored. Only the tool that writes them reads data/'s JSON
 * (-DGS_DATA_FROM_JSON). */
typedef struct {
  const char *key, *name, *link, *source; /* as gs_hardware_text holds them; "" when the build has none */
} gs_table_text;
typedef struct {
  gs_gpu gpu;
  gs_table_text text;
} gs_gpu_entry;
typedef struct {
  gs_link link;
  gs_table_text text;
} gs_link_entry;
extern const gs_gpu_entry GS_GPU_TABLE[];
extern const size_t GS_GPU_TABLE_COUNT;
extern const gs_link_entry GS_LINK_TABLE[];
extern const size_t GS_LINK_TABLE_COUNT;
extern const gs_model GS_MODEL_TABLE[];

/* The GPU generations the achieved efficiency is fitted by (data/gpus.json's "generation",
 * not NCCL's arch: Ada is its own): NVIDIA's four, whose all-reduce start-up NVIDIA measured,
 * then AMD's cdna3. */
#define GS_GENERATION_COUNT 5
extern const char *const GS_GENERATIONS[GS_GENERATION_COUNT];
/* The names measured runs give one GPU (data/gpus.json's "measured_as"), at most these. */
#define GS_MEASURED_AS_MAX 4
/* A GPU's place in the fit: its generation ("" when the fit has none) and the runs' names
 * for it (NULL after the last). build/tables.c and tables_module.c hold one a GPU. */
typedef struct {
  const char *key, *generation;
  const char *measured_as[GS_MEASURED_AS_MAX];
} gs_gpu_fit_entry;
extern const gs_gpu_fit_entry GS_GPU_FIT_TABLE[];
extern const size_t GS_GPU_FIT_TABLE_COUNT;
/* The same read from data/gpus.json (hardware.c), for scripts/tables.c. */
typedef struct {
  char generation[16];
  char measured_as[GS_MEASURED_AS_MAX][32];
  size_t measured_count;
} gs_gpu_fit_text;
int gs_gpu_fit_parse(const char *json, size_t len, const char *key, gs_gpu_fit_text *out, gs_error *err);
/* A catalogue GPU's generation; "" when the fit has none (csrc/read/efficiency.c). */
const char *gs_gpu_generation(const char *gpu_key);
/* The catalogue key of the GPU measured runs name run_name: of the entries that list the
 * name, the PCIe card when over_pcie and a board on another link otherwise (a name that
 * leaves the form open, A100-80GB, is on both); NULL when none lists it. */
const char *gs_gpu_measured_as(const char *run_name, int over_pcie);

/* Fills err (if not NULL) and returns code. */
int gs_fail(gs_error *err, int code, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* snprintf for messages: %s, %d, %u, %llu, %zu and %% only (csrc/core/error.c). */
int gs_format(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* gs_format with a va_list; returns the length it wrote. */
size_t gs_vformat(char *buf, size_t cap, const char *fmt, va_list ap);

/* core/primitives.c: the working-memory constants, the parts a chat's cache is shared
 * into, the chats whose caches the GPUs hold, the working bytes beside them, a plan's
 * cache tokens, and the bytes a step of W words reads on all GPUs. Everything in core/
 * above the primitives (checks.c, split.c, experts.c, prefill.c, step.c, explain.c)
 * calls down to these. */
extern const uint64_t GS_ACTIVATION_TOKENS;
extern const uint64_t GS_OVERHEAD_GIB;
uint64_t gs_cache_parts(const gs_model *m, const gs_plan *p);
uint64_t gs_held_chats(const gs_plan *p);
uint64_t gs_working_bytes(const gs_model *m);
uint64_t gs_plan_tokens(const gs_plan *p);
uint64_t gs_step_read_bytes(const gs_model *m, uint64_t words);
/* The cache of `full` tokens in the layers that keep every token and `kept` tokens in the
 * sliding layers, each number at `bits` bits: the one rule of a cache's bytes, for a plan's
 * chat (gs_plan_cache_bytes, at its tokens and bits) and for a served step's chats at their
 * own contexts (mixed_step.c). The model's figures are at 16 bits; bytes16 x bits / 16 is
 * taken as q x bits + r x bits / 16 so that no product overflows. Always inlined, so the
 * lesson's module compiles to the bytes it did before the served step shared the rule. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint64_t gs_cache_bytes_at(const gs_model *m, uint64_t full, uint64_t kept, uint64_t bits) {
  uint64_t bytes16 = m->cache_full_bytes * full + m->cache_window_bytes * kept;
  if (bits == 16) return bytes16;
  return bytes16 / 16 * bits + ((bytes16 % 16) * bits + 15) / 16;
}
/* a / b rounded up (b > 0): every share of bytes rounds up to a whole byte */
static inline uint64_t gs_ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }
/* An ASCII capital as its small letter; any other byte as it is (names are matched
 * without case: catalogue keys, runs files' notes). */
static inline char gs_ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* 1 when any achieved-efficiency figure is on (not 0). */
static inline int gs_efficiency_on(const gs_efficiency *e) {
#define FIGURE_ON(member, kind, flag) e->member != 0 ||
  return GS_EFFICIENCY_FIELDS(FIGURE_ON) 0;
#undef FIGURE_ON
}

/* Bytes a second the GPU reads at: its bandwidth, or the share of it achieved. */
static inline double gs_read_rate(const gs_gpu *g, const gs_efficiency *e) {
  return e->bandwidth_share > 0 ? g->bandwidth * e->bandwidth_share : g->bandwidth;
}
/* primitives.c: seconds to read bytes and to compute operations at the achieved shares;
 * split.c: a step's busy time and transfers as the split arranges them. */
double gs_read_seconds(uint64_t bytes, const gs_gpu *g, const gs_efficiency *e);
double gs_compute_seconds(double ops, uint64_t n, const gs_gpu *g, const gs_efficiency *e);
double gs_compute_seconds_kept(double ops, double kept, uint64_t n, const gs_gpu *g, const gs_efficiency *e);
void gs_split_time(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double busy, uint64_t size,
                   gs_time *time, double *swap, int *protocol);

/* experts.c: expert parallelism (--experts spread), for the checks, the split's step,
 * the prefill and the decode step. */
uint64_t gs_spread_chats(const gs_plan *p);
int gs_spread_check(const gs_model *m, const gs_plan *p, gs_error *err);
/* The GPUs experts are spread over: a server's under slices-groups across servers (a
 * pipeline stage each), else all (experts.c). */
uint64_t gs_spread_stage_gpus(const gs_plan *p);
/* whole experts on every GPU and uniform routing, as the decode step and first word price them */
int gs_spread_whole_check(const gs_plan *p, gs_error *err);
uint64_t gs_spread_weights(const gs_model *m, uint64_t n);
uint64_t gs_spread_read_bytes(const gs_model *m, uint64_t n, uint64_t tokens);
/* the bytes of its own experts' slices one GPU reads when `tokens` tokens pass, the experts
 * spread over `ranks` ranks and each cut over `cut` GPUs (whole: cut 1), its rank routed
 * `skew` times the mean (1: uniform) */
uint64_t gs_spread_routed_bytes(const gs_model *m, uint64_t ranks, uint64_t cut, uint64_t tokens, double skew);
/* primitives.c: gs_routed_share for experts each word picks `skew` times as often */
double gs_routed_share_skewed(const gs_model *m, uint64_t words, double skew);
/* core/mixed_step.c: the operations a served step's attention takes over all layers (its
 * scores and weighted sum), shared with the spread experts' step (mixed_spread.c). */
double gs_attention_ops(const gs_model *m, const gs_step_work *w);
double gs_output_ops(const gs_model *m, uint64_t seqs);
/* w plus another rank's work (for --explain's typical step). */
void gs_step_work_sum(gs_step_work *w, const gs_step_work *add);
/* Seconds one all-to-all takes when each GPU of r sends size bytes; the bytes each GPU
 * sends within its server and between servers, when not NULL. */
double gs_all_to_all(uint64_t size, const gs_ring *r, double *bytes_within, double *bytes_between);

/* serve/load.c: each request's lengths and arrival under the load (reqs has room for
 * load->requests). serve/stats.c: a figure's distribution over values (sorted in place),
 * the pooled gaps' distribution, and one gap added. */
void gs_load_fill(const gs_load *load, gs_serve_req *reqs);
void gs_dist_of(double *values, size_t n, gs_dist *out);
void gs_itl_dist(const gs_itl_hist *h, gs_dist *out);
void gs_itl_add(gs_itl_hist *h, double gap);
/* serve/scheduler.c: one engine instance run over its requests (mine, in arrival order;
 * run and wait have room for mine_n each); released: a closed loop's first request not yet
 * arrived. area gets the requests in the system integrated over time. */
typedef struct {
  const gs_model *m;
  const gs_gpu *g;
  const gs_link *l;
  const gs_plan *p;
  const gs_scheduler *e;
  const gs_load *load;
  gs_serve_req *reqs;
  uint32_t *mine, *run, *wait;
  size_t mine_n, released;
  uint64_t pool;
  gs_serve_result *out;
  gs_itl_hist *itl;
  double area;
} gs_serve_sim_args;
/* a holds one args for each of `ranks` attention ranks run in lock step (1 but under
 * attention data parallel); each rank's mine, run and wait its own. */
int gs_serve_instance(gs_serve_sim_args *a, size_t ranks, gs_error *err);
/* a holds one args for each of `flight` micro-batches a pipeline of `stages` stages keeps
 * in flight, each its own scheduler over its own requests and pool (serve/pipeline.c);
 * under spread experts each micro-batch is `ranks` attention ranks in lock step, a[b x
 * ranks + r] its rank r (ranks 1 otherwise). */
int gs_serve_pipeline(gs_serve_sim_args *a, size_t flight, size_t ranks, uint64_t stages, gs_error *err);
/* serve/serve.c: the steps a request of prompt and output tokens takes at the least under
 * engine e: its output's, and its prompt's chunks by the token budget (one chunk when the
 * prompt runs whole, or the budget is 0: not yet set). serve's bound on a load
 * (GS_SERVE_MAX_STEPS) sums them; the serving rows cut their requests by it. */
uint64_t gs_serve_request_steps(const gs_scheduler *e, uint64_t prompt, uint64_t output);
/* Prefill and decode on separate copies (serve/disagg.c): a holds the prefill copies' args,
 * then the decode copies' (each a load of kind batch: releases are the deployment's); the
 * requests' outputs in `outputs` while the prefill copies see one output token each. */
typedef struct {
  gs_serve_sim_args *a;     /* a lane each: copy x ranks + rank (gs_disagg_lane) */
  size_t prefill, decode;  /* copies of each */
  size_t ranks, decode_ranks; /* a prefill copy's and a decode copy's attention ranks (0 or 1: one engine, not data
                                 parallel) */
  size_t requests;         /* all the deployment's */
  size_t released;         /* a closed loop's first request not yet arrived; requests otherwise */
  size_t landing_offset;   /* a decode copy's hand-offs on the way: room for its requests at its mine + this */
  uint32_t *finishing;     /* room for the requests */
  const double *outputs;   /* each request's output tokens */
  double link_seconds;     /* a hand-off's start-up */
  double link_bytes_per_s; /* the links a hand-off goes over together */
  uint64_t cache_bits;
} gs_serve_disagg_args;
int gs_serve_disagg(gs_serve_disagg_args *d, gs_error *err);
size_t gs_disagg_lane(size_t id, size_t prefill, size_t decode_copies, size_t prefill_ranks, size_t decode_ranks,
                      int decode);
/* read/runs.c: an RFC 4180 CSV record at a time (the decode runs' reader and the serving
 * runs'), and a run's source: the note's leading tag ("P2"), else the source cell. */
#define GS_CSV_FIELD_CAP GS_RUNS_FIELD_CAP
typedef struct {
  const char *at, *end;
  size_t line; /* the line the current record starts on, 1-based */
  size_t next_line;
} gs_csv;
int gs_csv_record(gs_csv *c, char f[][GS_CSV_FIELD_CAP], int cap, int *n, gs_error *err);
int gs_run_source(const char *note, const char *source, size_t line, char *out, size_t cap, gs_error *err);

/* read/serving_runs.c: measured serving runs, the CSV of tests/measured/serving-runs.csv
 * (../shared/reference/serving-measured/runs.csv's columns; its README says what each
 * holds). Required columns: id, hf_repo, gpu, tp, input_tokens, output_tokens,
 * throughput_tok_s, of which id, hf_repo and gpu may not be empty; the others may be
 * absent, and any other cell empty (0: not stated). A note's "rate_qps=R" is the rate of
 * an open loop the row was measured at; its "N requests" or "N prompts" the requests sent;
 * its engine flags for the sequences and tokens a step, the engine's limits, and vLLM 0.6's
 * scheduler steps and chunked prefill off; "ShareGPT", lengths
 * drawn from ShareGPT's conversations;
 * its "PD-DISAGGREGATED: P prefill + D decode" with
 * "--tp-size N", prefill and decode on separate copies of N GPUs (serving-gathered-README.md);
 * its "IN-PROCESS", a benchmark that drove the engine without a server. */
#define GS_SERVING_RUNS_MAX 512
typedef struct {
  char id[64], repo[128], gpu[64], software[128], source[64];
  double weight_bits, input_tokens, output_tokens; /* lengths: the configured or mean tokens */
  uint64_t kv_bits, tp, pp, ep, dp, attn_dp, concurrency; /* pp, dp: 1 when not stated; the rest 0 */
  double throughput, itl_ms, ttft_ms; /* output tokens a second (the deployment's); ms; 0: not given */
  int prefill_only;   /* the note starts PREFILL-ONLY: the throughput counts input tokens */
  int sharegpt;       /* the note names ShareGPT: the lengths are its conversations', the columns their means */
  double rate;        /* the note's rate_qps: requests a second of an open loop; 0: none */
  uint64_t requests;  /* the requests the note says were sent ("500 requests", "500 of 500 prompts"); 0: none */
  uint64_t max_seqs, max_batched_tokens; /* the engine's limits the note gives ("max-num-seqs 512",
                                            "--max_num_tokens 16384"); 0: none */
  uint64_t scheduler_steps; /* vLLM's "--num-scheduler-steps N" or "scheduler steps N"; 0: none */
  int unchunked;            /* the note says "chunked prefill FALSE" or "--enable-chunked-prefill=False" */
  uint64_t pd_prefill, pd_decode; /* the note's "PD-DISAGGREGATED: P prefill + D decode": copies of
                                     each, each of the note's "--tp-size N" GPUs (tp); 0: none */
  int in_process;           /* the note says IN-PROCESS: the benchmark drove the engine in its own process,
                               no server between (serve_rows.c counts trtllm-bench's rows so too) */
} gs_serving_run;
typedef struct {
  size_t count;
  gs_serving_run rows[GS_SERVING_RUNS_MAX];
} gs_serving_runs;
int gs_serving_runs_parse(const char *text, size_t len, gs_runs_scratch *scratch, gs_serving_runs *out, gs_error *err);

/* a * b and a + b, or 0 when the result would not fit in 64 bits. */
int gs_mul(uint64_t a, uint64_t b, uint64_t *out);
int gs_add(uint64_t a, uint64_t b, uint64_t *out);

/* A parsed JSON document: the text and jsmn's tokens over it. */
typedef struct {
  const char *text;
  const jsmntok_t *toks;
  int count; /* tokens used */
} gs_json;

/* The largest document the reader takes (a real config.json is under 100 KB; the
 * command line reads files of up to this size), its deepest nesting (real configs nest
 * three levels), and the longest string a key or name is compared as. */
#define GS_JSON_MAX_BYTES (4u << 20)
#define GS_JSON_DEPTH 64
#define GS_JSON_NAME_CAP 256

/* The most tokens one document may have; a real config.json has under 300 (Gemma 3's
 * layer_types list is the longest seen). */
#define GS_JSON_TOKENS 4096

int gs_json_parse(const char *text, size_t len, jsmntok_t *toks, unsigned cap, gs_json *out, gs_error *err);
int gs_json_find(const gs_json *j, int object, const char *key);
int gs_json_next(const gs_json *j, int index);
int gs_json_is_null(const gs_json *j, int index);
int gs_json_count(const gs_json *j, int index, const char *field, uint64_t *out, gs_error *err);
/* Like gs_json_count, but min may be 0. */
int gs_json_whole(const gs_json *j, int index, const char *field, uint64_t min, uint64_t *out, gs_error *err);
int gs_json_number(const gs_json *j, int index, const char *field, double *out, gs_error *err);
/* Any number in JSON's grammar, through gs_read_number: for files the program writes itself. */
int gs_json_any_number(const gs_json *j, int index, const char *field, double *out, gs_error *err);
/* A decimal number (JSON's grammar, NUL-terminated) as the nearest double, when it has at
 * most 15 significant digits and a power of ten within 22 (json.c); 0 otherwise. */
int gs_exact_decimal(const char *raw, double *out);
/* number.c: the whole of text (NUL-terminated) as one number in JSON's grammar, nothing
 * before or after it, as the nearest double: GS_NUMBER_OK, or why not. The one reader of
 * a runs file's decimal cells and of the command line's figures. */
enum gs_number_status {
  GS_NUMBER_OK = 0,
  GS_NUMBER_NOT,         /* not a number, or more than one ("7,5", "1.2.3", "6.43ms", " 5") */
  GS_NUMBER_TOO_LARGE,   /* past the largest double (1e400) */
  GS_NUMBER_TOO_SMALL,   /* not 0, but below the smallest normal double (1e-310) */
  GS_NUMBER_TOO_PRECISE  /* a build for WebAssembly only: past Clinger's exact case */
};
int gs_read_number(const char *text, double *out);
int gs_json_bool(const gs_json *j, int index, const char *field, int *out, gs_error *err);
int gs_json_string_is(const gs_json *j, int index, const char *s);
/* vLLM 0.6's max_model_len for a config's JSON, 0 where not derived here (read/max_len.c). */
uint64_t gs_config_max_len(const gs_json *j);
/* A string token decoded into buf; its length, or (size_t)-1 if it needs cap or more. */
size_t gs_json_string(const gs_json *j, int index, char *buf, size_t cap);

/* mxfp4_peak.c: one peak for routed experts stored MXFP4 (FP8 peak) beside 16-bit weights. */
double gs_mxfp4_peak(const gs_model *m, double flops16, double flops_fp8);

/* tally.c: weights counted tensor by tensor, and the bits each takes as stored. */
enum gs_part {
  GS_PART_TABLE = 0,     /* the embedding and output tables */
  GS_PART_ATTENTION = 1, /* attention projections */
  GS_PART_NORM = 2,      /* norms, biases and other vectors */
  GS_PART_MLP = 3,       /* a dense or shared feed-forward block */
  GS_PART_ROUTER = 4,    /* a mixture-of-experts router */
  GS_PART_EXPERT = 5,    /* routed experts */
  GS_PART_VISION = 6     /* a vision tower and its projector */
};

typedef struct {
  gs_storage storage;
  uint64_t params, bits;               /* every weight, and its stored bits */
  uint64_t routed_params, routed_bits; /* of those, the routed experts' */
  uint64_t unread_params, unread_bits; /* and those a word does not pass through */
  uint64_t table_params;               /* and the embedding and output tables' */
  int code;                            /* GS_OK, or the first failure (err says which) */
  gs_error *err;
} gs_tally;

/* copies x a rows x cols matrix (rows out, cols in, as nn.Linear's weight). */
void gs_tally_matrix(gs_tally *t, int part, uint64_t copies, uint64_t rows, uint64_t cols);
/* copies x a vector of len values (a norm, a bias, a table row), never quantized. */
void gs_tally_vector(gs_tally *t, int part, uint64_t copies, uint64_t len);
/* a x b, or 0 with the tally failed when it would not fit in 64 bits. */
uint64_t gs_tally_mul(gs_tally *t, uint64_t a, uint64_t b);
/* A vector a block-FP8 checkpoint keeps at 32 bits (DeepSeek-V3's e_score_correction_bias). */
void gs_tally_vector_fp32(gs_tally *t, uint64_t copies, uint64_t len);

/* config.c: the language model's keys (the top object, or text_config's) for a family. */
typedef struct {
  const gs_json *json;
  int object;    /* token of the object holding the keys */
  gs_error *err;
  int classed;   /* 1 when model_type names the configuration class, whose defaults then apply */
} gs_config;

/* A count of at least 1: required when def is NULL, else def when absent or null. */
int gs_config_count(const gs_config *c, const char *key, const uint64_t *def, uint64_t *out);
/* A count with its configuration class's default: def when the key is absent and the config
 * names its class (classed); otherwise as gs_config_count with no default. A key present as
 * null is refused, as the class would fail on None. */
int gs_config_class(const gs_config *c, const char *key, uint64_t def, uint64_t *out);
/* 1 when key is not in the object at all (a null is present: Python passes None). */
int gs_config_absent(const gs_config *c, const char *key);
/* A whole number, 0 or more, def when absent or null. */
int gs_config_whole(const gs_config *c, const char *key, uint64_t def, uint64_t *out);
int gs_config_bool(const gs_config *c, const char *key, int def, int *out);
/* 1 when key is present and not null. */
int gs_config_has(const gs_config *c, const char *key);
/* layer_types, when present: how many of the layers are "sliding_attention"; each entry
 * must be that or "full_attention". *present is 0 when the key is absent or null. */
int gs_config_layer_types(const gs_config *c, uint64_t layers, uint64_t *sliding, int *present);
/* A list of layer numbers (absent or null: none) as flags: listed[i] is 1 when it names
 * layer i. listed has room for cap layers; more layers are refused. */
#define GS_MAX_LISTED_LAYERS 4096
int gs_config_layer_flags(const gs_config *c, const char *key, uint64_t layers, unsigned char *listed, size_t cap);
int gs_config_refuse(const gs_config *c, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* families/: each family fills a model from its config and tallies its weights. */
typedef struct {
  const char *type;                                               /* model_type */
  int (*count)(const gs_config *c, gs_tally *t, gs_model *m);     /* 0 or a gs_status */
  unsigned formats; /* the stored formats (1 << enum gs_store) its checkpoints use beyond 16 bits */
  unsigned fp8_scale_bits; /* with GS_STORE_FP8_BLOCK: the bits its checkpoints give a block's scale */
} gs_family;

extern const gs_family GS_FAMILIES[];
extern const size_t GS_FAMILY_COUNT;

/* families/decoder.c: the parts most decoders share. */
/* A configuration class's defaults for the keys every decoder has (transformers'
 * configuration_<family>.py); kv_heads 0: the heads, head_dim 0: hidden_size / heads. */
typedef struct {
  uint64_t vocab, hidden, layers, heads, kv_heads, head_dim;
} gs_class_defaults;
/* hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads and vocab_size,
 * and head_dim, with the class's defaults when the config names its class (gs_config_class);
 * without model_type the first four and vocab_size are required, num_key_value_heads
 * defaults to the heads and head_dim to d->head_dim, else hidden_size / heads. */
int gs_decoder_read(const gs_config *c, const gs_class_defaults *d, gs_model *m);
/* The embedding table, the output table unless tied, and the final norm. */
int gs_decoder_tables(const gs_config *c, gs_tally *t, const gs_model *m, int tied_default);
/* q, k, v and o projections in every layer, with their biases when asked. */
void gs_decoder_attention(gs_tally *t, const gs_model *m, int qkv_bias, int o_bias);
/* copies of a gated feed-forward block (gate, up, down) of the given width. */
void gs_decoder_mlp(gs_tally *t, int part, uint64_t copies, uint64_t hidden, uint64_t width, int bias);
/* The grouped-heads cache: sliding of the layers keep at most window tokens. */
int gs_decoder_cache(gs_model *m, uint64_t sliding, uint64_t window, gs_error *err);
/* sliding_window (absent or null: none) on every layer, as Mistral, Mixtral and Phi-3 use it. */
int gs_decoder_cache_all_sliding(const gs_config *c, gs_model *m);

/* view.c, for the modules' buffers (csrc/wasm/abi.c): strings handed to JavaScript one
 * after another, each ended by a NUL. gs_pack_text writes s at buf + at and returns where
 * the next begins, or at itself when s does not fit (which abi.c reports as an error). */
size_t gs_pack_text(char *buf, size_t cap, size_t at, const char *s);
/* The places a share of the step is shown with, in the view and the sums alike. */
int gs_share_places(double share);

/* plan_counts.c, for plan.c: the next step of the ladder 1, 2, 3, 4, 6, 8, 12, 16, ...
 * (chats at once, and counts past GS_PLAN_EVERY_COUNT); the fewest GPUs from `from` to
 * `to` that hold one sliced copy of the model with one chat (0: none). */
uint64_t gs_plan_next_step(uint64_t w);
uint64_t gs_plan_fewest_holding(const gs_setting *s, uint64_t from, uint64_t to);
/* The same among the counts the setting takes (gs_count_allowed). */
uint64_t gs_plan_fewest_allowed(const gs_setting *s, uint64_t from, uint64_t to);

/* lesson_figures.c: the figures the lesson quotes (gpusplit numbers), each from the model's
 * own functions, for its three models (GS_MODELS' lesson ones, in order) on its GPU and its
 * fast and slow links. Each takes model index m, a count n, a link index (or link) and the
 * words; the first failure of the model is kept (failed: what failed, and err), for the
 * caller to say: none is expected, the lesson's settings being valid. */
enum { GS_LESSON_8B, GS_LESSON_70B, GS_LESSON_405B, GS_LESSON_MODELS };
enum { GS_LESSON_FAST, GS_LESSON_SLOW, GS_LESSON_LINKS };
#define GS_LESSON_MAX_N 64 /* the lesson's searches: any count up to 64 */
typedef struct {
  gs_model shape[GS_LESSON_MODELS];
  gs_gpu gpu;
  gs_link link[GS_LESSON_LINKS];
  char link_label[GS_LESSON_LINKS][64];
  const char *failed; /* NULL while the model has not failed */
  gs_error err;
} gs_lesson;
gs_time gs_lesson_time(gs_lesson *l, int m, uint64_t n, const gs_link *link, int split, uint64_t words);
double gs_lesson_total(gs_lesson *l, int m, uint64_t n, int link, uint64_t words);
double gs_lesson_share(gs_lesson *l, int m, uint64_t n, int link, uint64_t words);
/* The time with the link's bandwidth halved: its data sheet's rate counted both ways. */
double gs_lesson_halved(gs_lesson *l, int m, uint64_t n, int link, uint64_t words);
/* Memory and fitting on the fast link, one chat; reading 1/n of the weights and computing. */
gs_memory gs_lesson_memory(gs_lesson *l, int m, uint64_t n);
int gs_lesson_fits(gs_lesson *l, int m, uint64_t n);
double gs_lesson_read_time(gs_lesson *l, int m, uint64_t n);
double gs_lesson_compute_time(gs_lesson *l, int m, uint64_t n, uint64_t words);
/* The working memory's activations: the working bytes of one GPU less its 1 GiB allowance. */
uint64_t gs_lesson_activation_bytes(gs_lesson *l, int m);
/* The searches up to GS_LESSON_MAX_N (one chat, slices), and the best of GS_COUNTS. */
uint64_t gs_lesson_best(gs_lesson *l, int m, int link, uint64_t words, int divide_heads);
uint64_t gs_lesson_fewest(gs_lesson *l, int m);
uint64_t gs_lesson_best_offered(gs_lesson *l, int m, int link);
/* One all-reduce of words words' messages over n GPUs, microseconds. */
double gs_lesson_allreduce_us(const gs_lesson *l, int m, uint64_t words, uint64_t n, int link);

#endif
