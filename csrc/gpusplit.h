/* gpusplit: the cost of splitting one large language model over several GPUs.
 *
 * The lesson "splitting one big model over several GPUs" (shared/seed) defines every
 * formula here; its reference code is gpu_split.py. Bytes are uint64_t, times are
 * seconds in doubles; a name says its unit where it is neither. Structs are plain and
 * owned by the caller. Functions that can fail return GS_OK or a negative gs_status
 * and fill a caller's gs_error; nothing here allocates, does I/O or keeps state.
 *
 * Glossary. The code keeps the lesson's words, which the widget teaches with; an engineer
 * reads them as (docs/ARCHITECTURE.md has the same list, with where each lives):
 *   word            one generated token ("time per word")
 *   chat            one request: one sequence being decoded
 *   words           words at once: the batch, the chats that each get a word in one step
 *   step            one decode iteration: every chat of the batch gets its next word
 *   swap            one all-reduce of a layer's partial results (slices); under groups,
 *                   one hand-off of the activations to the next group
 *   slices          tensor parallelism (TP): every layer cut into n slices
 *   groups          pipeline parallelism (PP): n groups of whole layers, one after another
 *   slices-groups   TP inside each server, PP across servers
 *   in_flight       micro-batches: batches of `words` chats in the pipeline, one a group
 *   replicas        data parallelism: copies of the layout, each serving its own chats
 *   experts spread  expert parallelism with data-parallel attention
 *   read            a step's busy time: the longer of reading the memory and computing
 *   transfer        a step's waiting on the link: its all-reduces or hand-offs
 *   share           the share of a step spent waiting: transfer / total
 *   first word      time to first token (TTFT): the prefill of the batch's prompts
 *   cache           the KV cache (for MLA, the compressed latent)
 *   working         activations and workspace beside the weights and the cache
 *   usable          the share of a GPU's memory a server may claim
 *   between         the network between servers
 *   efficiency      what an engine achieves of the peaks (a bandwidth share, fixed costs),
 *                   fitted to measured runs (docs/ACCURACY.md)
 *   lesson / real   the lesson's toy rules, or real hardware's (gs_assume)
 *   request, setting, priced   the question by name (gs_request); resolved into a model,
 *                   machine and plan (gs_setting, gs_resolve); one count's cost (gs_price)
 *   layout, frontier  one way to deploy; the layouts no other beats on both time a word
 *                   and words a second a GPU (gs_plan_search) */
#ifndef GPUSPLIT_H
#define GPUSPLIT_H

#include <stddef.h>
#include <stdint.h>

enum gs_status {
  GS_OK = 0,
  GS_ERR_JSON = -1,      /* the text is not JSON, or is cut short */
  GS_ERR_NOT_OBJECT = -2,/* the JSON is not an object where one is needed */
  GS_ERR_MISSING = -3,   /* a required field is absent */
  GS_ERR_TYPE = -4,      /* a field has the wrong JSON type */
  GS_ERR_RANGE = -5,     /* a value is zero, negative, fractional, not finite or too large */
  GS_ERR_SHAPE = -6,     /* fields disagree, such as head counts that do not divide */
  GS_ERR_OVERFLOW = -7,  /* a byte or operation total would not fit in 64 bits */
  GS_ERR_SPLIT = -8,     /* a split the model does not know */
  GS_ERR_TOO_LONG = -9,  /* more JSON tokens or text than the reader's fixed buffer holds */
  GS_ERR_NONE_FITS = -10,/* no GPU count up to the limit fits the model */
  GS_ERR_UNKNOWN = -11,  /* a name (model, link) that the data does not hold */
  GS_ERR_UNSUPPORTED = -12 /* a model type, layout or stored format the reader cannot count exactly */
};

/* What went wrong, for a one-line message: "<field>: <what>". */
typedef struct {
  int code;        /* a gs_status */
  char field[48];  /* the field or setting at fault; "" when none applies */
  char what[512];  /* what is wrong with it, one phrase */
} gs_error;

/* How the weights are stored (a config's quantization_config, or --bits). */
enum gs_store {
  GS_STORE_16 = 0,      /* every weight at 16 bits, the config's default */
  GS_STORE_BITS = 1,    /* every weight at `bits` bits (--bits) */
  GS_STORE_MXFP4 = 2,   /* routed experts' matrices in MXFP4: 4 bits plus an 8-bit scale per 32 values */
  GS_STORE_FP8_BLOCK = 3/* linear weights at 8 bits plus a scale of scale_bits per block_rows x block_cols block */
};

typedef struct {
  int kind;            /* enum gs_store */
  uint64_t bits;       /* GS_STORE_BITS: bits of every weight, 1 to 32 */
  uint64_t block_rows; /* GS_STORE_FP8_BLOCK: weight_block_size */
  uint64_t block_cols;
  uint64_t scale_bits; /* GS_STORE_FP8_BLOCK: bits of one block's scale (weight_scale_inv) */
} gs_storage;

/* A model derived once from its config.json: every total the cost needs. Weights are
 * counted tensor by tensor as the family's transformers modeling file builds them. */
typedef struct {
  char type[32];         /* model_type, as the config gives it ("llama" when absent) */
  uint64_t hidden;       /* hidden_size: numbers in one word's hidden vector */
  uint64_t layers;       /* num_hidden_layers */
  uint64_t heads;        /* num_attention_heads */
  uint64_t kv_heads;     /* key/value heads (for MLA, the attention heads) */
  uint64_t head_dim;     /* width of one attention head (for MLA, the value head) */
  uint64_t vocab;        /* vocab_size */
  uint64_t params;       /* every weight counted */
  uint64_t stored_bytes; /* the bytes those weights take as stored */
  uint64_t routed_params;/* of params, those in routed experts, all layers */
  uint64_t routed_bytes; /* their stored bytes */
  uint64_t unread_params;/* of params, those a word does not pass through (a vision tower) */
  uint64_t unread_bytes; /* their stored bytes */
  uint64_t table_params; /* of params, the embedding and output tables: a prefill looks the one up and
                            multiplies by the other once a prompt (csrc/core/prefill.c) */
  uint64_t experts;      /* routed experts in each mixture-of-experts layer; 0 when dense */
  uint64_t experts_per_token; /* routed experts each token uses */
  uint64_t moe_layers;   /* layers with routed experts; 0 when dense */
  uint64_t active_params;/* weights one word uses: all it passes through but the routed experts, plus k of them */
  uint64_t cache_full_bytes;   /* attention cache one token adds over the layers that keep every token */
  uint64_t cache_window_bytes; /* the same over the sliding-window layers */
  uint64_t window;       /* tokens a sliding-window layer keeps; 0 when none slides */
  int cache_latent;      /* 1: a compressed latent (MLA) that every slice holds whole */
  uint64_t read_topk;    /* tokens of each chat whose cache a step reads on the layers that keep every
                            token (DeepSeek Sparse Attention's index_topk); 0: every token */
  uint64_t cache_index_bytes; /* of cache_full_bytes, what a token adds that a step reads for every
                            token even so (DeepSeek Sparse Attention's indexer keys) */
  uint64_t ffn_width;    /* the widest feed-forward intermediate one token passes through */
  uint64_t max_len;      /* the longest sequence vLLM 0.6 derives from the config (its max_model_len when not
                            given; csrc/read/max_len.c); 0 where that rule is not followed here */
  int routed_mxfp4;      /* 1: the routed experts stored MXFP4 as the config gives them (gpt-oss), every
                            other weight at 16 bits; 0 otherwise, and under --bits */
  char note[160];        /* what the count leaves out or adds, for people; "" when nothing */
} gs_model;

/* The GPU generations NCCL's tables tell apart (src/graph/tuning.cc, compCapIndex), or
 * none: a GPU NCCL does not run on (AMD's run RCCL), or one not named. */
enum gs_arch { GS_ARCH_NONE = 0, GS_ARCH_VOLTA = 1, GS_ARCH_AMPERE = 2, GS_ARCH_HOPPER = 3, GS_ARCH_BLACKWELL = 4 };
/* Their names, in order: data/gpus.json's "arch", report's JSON and the pages (web/src/fields.js). */
#define GS_ARCH_NAMES "none", "volta", "ampere", "hopper", "blackwell"

/* One GPU. */
typedef struct {
  double gib;       /* memory, GiB */
  double usable;    /* share of the memory a server may use, 0 < usable <= 1 */
  double bandwidth; /* bytes per second the GPU reads its own memory */
  double flops;     /* 16-bit operations per second */
  double flops_fp8; /* 8-bit floating-point operations per second, dense; 0: no FP8 tensor cores */
  int arch;         /* enum gs_arch, for --nccl auto */
  /* Catalogue facts for realistic defaults (data/gpus.json); nothing prices with them yet.
   * 0 where the catalogue does not give them. */
  int per_server;         /* GPUs in the usual server: 8 for SXM and OAM boards (DGX, HGX) */
  int compute_capability; /* x10 (80, 89, 90, 100, 120), which NCCL indexes its tables by */
  int nvlinks;            /* NVLink links to the server's NVSwitch fabric */
  double ring_bw;         /* bytes/s one way a ring gets over NVLink: nvlinks x NCCL's per-link rate */
  double flops_fp4;       /* 4-bit floating-point (NVFP4, MXFP4) operations per second, dense; 0: none */
  double flops16;         /* the 16-bit peak while flops holds the FP8 or FP4 one (W8A8, W4A4): the operations
                             such a checkpoint leaves at 16 bits run at it (gs_compute_seconds_kept); 0: none apart */
} gs_gpu;

/* The kinds of link NCCL's latency tables tell apart (NCCL_HW_NVLINK, _PCI, _NET). */
enum gs_link_kind { GS_LINK_NVLINK = 0, GS_LINK_PCI = 1, GS_LINK_NET = 2 };
#define GS_LINK_KIND_NAMES "nvlink", "pci", "net"

/* The link between GPUs, with NCCL's ring all-reduce start-up. */
typedef struct {
  double bandwidth; /* bytes per second */
  double step_us;   /* latency of one ring step, microseconds */
  double base_us;   /* latency paid once per all-reduce, microseconds */
  int kind;         /* enum gs_link_kind */
  double ring_bw;   /* bytes/s one way NCCL's topology gives this PCIe link or NIC; 0 for NVLink,
                       whose figure is the GPU's (gs_gpu.ring_bw). Nothing prices with it yet. */
} gs_link;

/* How the model is split. */
enum gs_split {
  GS_SLICES = 0,       /* tensor parallelism: every layer cut into n slices */
  GS_GROUPS = 1,       /* pipeline parallelism: n groups of whole layers, one after another */
  GS_SLICES_GROUPS = 2 /* slices inside each server, groups across servers (vLLM's advice) */
};

/* How a mixture of experts' routed experts are laid out (--experts; csrc/core/experts.c).
 * spread is expert parallelism with data-parallel attention, as DeepSeek serves V3 (its
 * attention data-parallel, its experts spread: arXiv 2412.19437, section 3.4) and vLLM's
 * --enable-expert-parallel with --data-parallel-size does: each GPU holds E/n whole experts and a copy of every other
 * weight, serves its own 1/n of the chats, and sends each token to the GPUs of the experts
 * it picks and back (an all-to-all dispatch and combine in each MoE layer). */
enum gs_experts {
  GS_EXPERTS_SLICES = 0, /* every expert cut across the GPUs, as every other weight (the lesson's) */
  GS_EXPERTS_SPREAD = 1  /* E/n whole experts a GPU, attention copied (data-parallel) */
};

/* How attention is laid out beside spread experts (serve's --attention; csrc/core/mixed_spread.c):
 * data, each GPU an attention rank serving its own requests (DeepSeek's V3 serving, vLLM's
 * -dp N --enable-expert-parallel, SGLang's --enable-dp-attention); or slices, attention and
 * every other copied weight cut over the GPUs as tensor parallelism cuts them, the routed
 * experts still spread whole (TP with EP: SGLang's --tp N --ep N, vLLM's -tp N
 * --enable-expert-parallel). Under experts sliced, attention is sliced and this is unread. */
enum gs_attention {
  GS_ATTENTION_DATA = 0,  /* the default beside spread experts: report's and plan's spread */
  GS_ATTENTION_SLICES = 1
};

/* Whose all-reduce cost: the lesson's (NCCL's LL start-up with the link's full speed), or
 * NCCL's own choice of the cheapest protocol (csrc/core/nccl.c). */
enum gs_nccl { GS_NCCL_LESSON = 0, GS_NCCL_AUTO = 1 };

/* Bytes one of n GPUs holds. */
typedef struct {
  uint64_t weights; /* its share of the weights */
  uint64_t cache;   /* its share of one chat's attention cache, shared by key/value head */
  uint64_t working; /* working memory, not shared */
  uint64_t total;
} gs_memory;

/* One step that gives each of `words` words its next word. */
typedef struct {
  double read;        /* busy time: the longer of reading and computing (the lesson's "read") */
  double transfer;    /* waiting on the link: all-reduces or hand-offs */
  double total;       /* read + transfer */
  double share;       /* transfer / total */
  double words_per_s; /* 1 / total: for each chat */
  double total_words_per_s; /* words / total: for all chats together */
  double idle;        /* share of the step the first GPU neither reads, computes nor sends: 0 under
                         slices; under groups about (n-1)/n, less the hand-off it sends */
} gs_time;

/* The lesson's constants that are not data (cited where they are defined, csrc/core/primitives.c). */
extern const uint64_t GS_GIB;
extern const uint64_t GS_ALL_REDUCES_PER_LAYER;
extern const uint64_t GS_CHAT_TOKENS;
extern const uint64_t GS_MAX_GPUS;
extern const uint64_t GS_MAX_WORDS;
extern const uint64_t GS_MAX_CHAT_TOKENS;

/* The largest counts a config may give (config.c refuses more, by name). Real models
 * have under 200 layers, 128 heads and 384 routed experts; the bounds are far above
 * that, and they keep every loop over layers short and the expected-experts share
 * E x (1 - (1 - k/E)^W) within 1e-10 of its exact value: k/E is then at least 2^-16, so
 * the rounding of 1 - k/E (2^-53) is a small part of it. */
#define GS_MAX_LAYERS 65536
#define GS_MAX_HEADS 65536
#define GS_MAX_EXPERTS 65536

/* What a real engine achieves of the peaks (issue 19), fitted to measured runs by
 * `gpusplit fit` (csrc/cli/cli_fit.c) and kept in data/efficiency.json. Every field 0 is
 * "off": the data sheet's peaks and the tables' start-up, exactly the lesson's figures. */
typedef struct {
  double bandwidth_share; /* share of the GPU's memory bandwidth a step reads at, 0.01 to 1; 0: all of it */
  double layer_us;        /* fixed cost of each layer in each step (kernel launches, synchronisation), microseconds */
  double flops_share;     /* share of the GPU's FLOP/s a prefill computes at, 0.01 to 1; 0: all of it (a decode step: all) */
  double allreduce_us;    /* start-up each all-reduce pays above NCCL's (or the lesson's) constants, microseconds */
  double step_us;         /* fixed cost of each step, whatever the layers (scheduling, sampling), microseconds */
  double request_us;      /* fixed cost a served request's first word pays once (receiving it, tokenizing,
                             scheduling, answering: a server's share of the time to the first token), microseconds */
} gs_efficiency;

/* gs_efficiency's figures, each once: X(member, kind, flag), kind GS_EFF_SHARE (0, off, or a
 * share from 0.01 to 1) or GS_EFF_US (microseconds, 0 to 1e6), flag the report option that
 * types it. The member's name is its key in data/efficiency.json and in report's and fit's
 * JSON. To add a figure: its member above, one line here, and where it is used. */
enum { GS_EFF_SHARE, GS_EFF_US };
#define GS_EFFICIENCY_FIELDS(X)                  \
  X(bandwidth_share, GS_EFF_SHARE, "--bw-share") \
  X(layer_us, GS_EFF_US, "--layer-us")           \
  X(flops_share, GS_EFF_SHARE, "--flops-share")  \
  X(allreduce_us, GS_EFF_US, "--allreduce-us")   \
  X(step_us, GS_EFF_US, "--per-step-us")         \
  X(request_us, GS_EFF_US, "--request-us")

/* An all-reduce measured on one server (nccl-tests' all_reduce_perf, tests/measured), for a
 * catalogue GPU on its own link: data/allreduce.json names the table, and scripts/tables.c
 * reads its 16-bit rows of the first sweep into this typed table (build/efficiency_table.c),
 * so the command line and the explorer's module price from the very same doubles. Times
 * are us[count][size]; every count was measured at the same sizes. */
#define GS_AR_COUNTS_MAX 4
#define GS_AR_SIZES_MAX 24
typedef struct {
  const char *gpu, *link;  /* the catalogue's keys: the GPU and its own link */
  const char *file;        /* where the rows are, for the Assumptions line */
  const char *source_dir;  /* the NCCL folder of the file the rows came from */
  size_t counts, sizes;
  uint64_t gpus[GS_AR_COUNTS_MAX];  /* ascending */
  uint64_t bytes[GS_AR_SIZES_MAX];  /* ascending */
  double us[GS_AR_COUNTS_MAX][GS_AR_SIZES_MAX];
} gs_allreduce_table;

/* What a setting asks: how the model is laid out and served. A field left 0 takes the
 * lesson's value, so a plan of gpus, split and words alone is the lesson's setting. */
typedef struct {
  uint64_t gpus;        /* 1 to GS_MAX_GPUS */
  int split;            /* enum gs_split */
  uint64_t words;       /* words at once: chats that each get their next word in one step */
  uint64_t per_server;  /* GPUs one server holds; 0: every GPU in one server */
  gs_link between;      /* the link between servers, used when there is more than one */
  uint64_t chat_tokens; /* tokens a chat's cache holds; 0: GS_CHAT_TOKENS */
  uint64_t cache_bits;  /* bits of each cached number; 0: 16 */
  int cache_per_chat;   /* 1: each of the words' chats keeps its own cache (the lesson: one chat) */
  int overlap;          /* 1: each layer's all-reduce hides behind the next layer's reading */
  int read_cache;       /* 1: each step also reads every chat's cache */
  int nccl;             /* enum gs_nccl */
  uint64_t in_flight;   /* groups and slices-groups: batches of `words` chats kept in flight, one a
                           group at every moment, up to the groups; 0 or 1: the lesson's one batch */
  gs_efficiency efficiency; /* all 0: the peaks (the lesson) */
  uint64_t prompt_tokens; /* tokens of each chat's prompt, for the first word's time; 0: none asked */
  int experts;            /* enum gs_experts; slices: the lesson's */
  const gs_allreduce_table *measured; /* real rules on a GPU and link with a measured table: its
                                         all-reduces on one server; NULL: NCCL's rules */
  int attention;          /* enum gs_attention, under spread experts; data: the default */
  uint64_t expert_ranks;  /* under spread experts, served only (serve's --expert-ranks): the ranks the
                             routed experts are spread over, E/ranks a rank, each expert cut over the
                             rank's gpus/ranks GPUs as slices cut a weight; 0: gpus (whole experts) */
  double skew;            /* under spread experts, served only (serve's --skew): the busiest expert rank's
                             share of the routed tokens over the mean, 1 to the ranks; 0: 1 (uniform) */
} gs_plan;

/* NCCL's protocols (NCCL_PROTO_LL, _LL128, _SIMPLE); none when nothing is sent. */
enum gs_protocol { GS_PROTO_NONE = -1, GS_PROTO_LL = 0, GS_PROTO_LL128 = 1, GS_PROTO_SIMPLE = 2, GS_PROTO_MEASURED = 3 };


/* A ring of GPUs for one all-reduce: csrc/core/nccl.c prices it. */
typedef struct {
  uint64_t gpus, servers;
  const gs_link *intra;   /* within a server */
  const gs_link *between; /* between servers, when servers > 1 */
  int arch;               /* enum gs_arch: NCCL's LL cap on one server depends on it */
  int nccl;               /* enum gs_nccl */
  double extra_us;        /* start-up above the tables' (gs_efficiency.allreduce_us); 0: none */
  const gs_allreduce_table *measured; /* with nccl auto: the measured times where they reach; NULL: none */
} gs_ring;

/* Seconds one all-reduce of size bytes takes, and the protocol it uses. */
double gs_ring_allreduce(uint64_t size, const gs_ring *r, int *protocol);
double gs_ring_steps(uint64_t gpus);
/* The lesson's rule on one server: an all-reduce's start-up over gpus GPUs, base_us + 2(n-1)
 * step_us (microseconds), and the share of the message each GPU sends, 2(n-1)/n. */
double gs_ring_startup_us(const gs_link *l, uint64_t gpus);
double gs_ring_sent_share(uint64_t gpus);
const char *gs_protocol_name(int protocol);

/* What sets a step's length: reading the memory, computing, or waiting on the link. */
enum gs_bound { GS_BOUND_READ = 0, GS_BOUND_COMPUTE = 1, GS_BOUND_WAIT = 2 };
const char *gs_bound_name(int bound);

/* Everything one setting costs. */
typedef struct {
  gs_memory memory;      /* bytes one GPU holds */
  uint64_t usable_bytes; /* what one GPU may use */
  int fits;              /* memory.total <= usable_bytes */
  uint64_t read_bytes;   /* bytes one GPU reads in one step */
  double compute;        /* seconds one GPU computes in one step */
  uint64_t servers;      /* servers the GPUs span */
  double swap;           /* seconds one all-reduce (slices) or hand-off (groups) takes within a server */
  int protocol;          /* the NCCL protocol chosen for that all-reduce (enum gs_protocol) */
  gs_time time;
  int bound;             /* enum gs_bound: what sets the step */
  double first_word;     /* seconds to the first word of plan.prompt_tokens (csrc/core/prefill.c); 0 when none asked */
} gs_cost_result;

/* core/checks.c and core/step.c: checks and the one cost function. A model from gs_model_parse is checked
 * already; gs_plan_check bounds the words and GPUs so that every total fits 64 bits. */
int gs_gpu_check(const gs_gpu *g, gs_error *err);
int gs_link_check(const gs_link *l, gs_error *err);
int gs_plan_check(const gs_model *m, const gs_plan *p, gs_error *err);
int gs_efficiency_check(const gs_efficiency *e, gs_error *err);
int gs_split_parse(const char *name, int *split, gs_error *err);
const char *gs_split_name(int split);
uint64_t gs_usable_bytes(const gs_gpu *g);
uint64_t gs_message_bytes(const gs_model *m);
uint64_t gs_chat_cache_bytes(const gs_model *m);
/* A token's cache, over every layer (full and windowed); the all-reduces a word makes
 * under slices (GS_ALL_REDUCES_PER_LAYER a layer): the lesson's "swaps". */
uint64_t gs_cache_bytes_per_token(const gs_model *m);
uint64_t gs_swaps_per_word(const gs_model *m);
/* One chat's cache at the plan's tokens and bits; the servers the plan's GPUs span. */
uint64_t gs_plan_cache_bytes(const gs_model *m, const gs_plan *p);
/* What a step reads of one chat's cache at the plan's tokens and bits: all of it, or under
 * sparse attention (read_topk) the indexer's keys of every token and the rest of read_topk. */
uint64_t gs_plan_cache_read_bytes(const gs_model *m, const gs_plan *p);
uint64_t gs_plan_servers(const gs_plan *p);
/* The batches of `words` chats the plan keeps in flight: in_flight, or 1. */
uint64_t gs_plan_batches(const gs_plan *p);
double gs_routed_share(const gs_model *m, uint64_t words);
double gs_allreduce_time(uint64_t size, uint64_t n, const gs_link *l);
double gs_handoff_time(uint64_t size, const gs_link *l);
int gs_cost(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_cost_result *out,
            gs_error *err);
/* prefill.c: seconds to the first word when the plan's words chats each send a prompt of
 * plan.prompt_tokens tokens together (gs_cost fills first_word with it). */
int gs_first_word(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double *seconds, gs_error *err);

/* config.c: a config.json's text to a derived model; the error names the field. bits is
 * 0 to keep the stored format the config gives, or the bits of every weight. */
int gs_model_parse(const char *json, size_t len, uint64_t bits, gs_model *out, gs_error *err);
/* The model types the reader counts, comma-separated, into buf (cut to cap); returns buf. */
const char *gs_supported_types(char *buf, size_t cap);

/* hardware.c: data/gpus.json and data/links.json text to structs. An entry is found by
 * its key or its name in any case; text, when not NULL, gets its key, name and source. */
typedef struct {
  char key[32];
  char name[64];
  char link[32];     /* a GPU's: the catalogue link its GPUs usually share a server by ("nvlink4") */
  char source[2048]; /* "" in the module, whose data has no sources */
} gs_hardware_text;

int gs_gpu_parse(const char *json, size_t len, const char *key, gs_gpu *out, gs_hardware_text *text, gs_error *err);
int gs_link_parse(const char *json, size_t len, const char *key, gs_link *out, gs_hardware_text *text, gs_error *err);
/* The keys of the "gpus" or "links" array, comma-separated, into buf. */
int gs_hardware_keys(const char *json, size_t len, const char *array, char *buf, size_t cap, gs_error *err);
const char *gs_arch_name(int arch);
const char *gs_link_kind_name(int kind);
/* nccl.c: NCCL's ring LL step latency for a kind of link, microseconds. */
double gs_nccl_ll_step_us(int kind);

/* format.c: figures as text. Fixed-point rounds half-up on an exact tie, as JavaScript's
 * toFixed does. Each returns buf, cut to cap. */
char *gs_fixed(char *buf, size_t cap, double x, int places);
char *gs_fixed_grouped(char *buf, size_t cap, double x, int places);
char *gs_grouped(char *buf, size_t cap, uint64_t x);
/* A rate with its unit, at 0 places in the largest unit that shows it as 1 or more:
 * "2,039 GB/s" (from 1e9), "1 MB/s"; "312 TFLOP/s" (from 1e12), "1 MFLOP/s". */
char *gs_bytes_rate(char *buf, size_t cap, double bytes_per_s);
char *gs_flops_rate(char *buf, size_t cap, double flops);
char *gs_words_rate(char *buf, size_t cap, double words_per_s);

/* data.c and the generated catalogue (scripts/catalogue.mjs): the built-in models and
 * hardware from data/, and the settings the widget offers. */
typedef struct {
  const char *key;           /* "8b" */
  const char *name;          /* "8B" */
  const char *file;          /* "llama31_8b_config.json", in data/models/ */
  const char *json;          /* that file's text */
  const char *model;         /* the Hugging Face repository ("" in the lesson's module) */
  const char *source;        /* where the config and its total were found ("" likewise) */
  uint64_t published_params; /* the published parameter count; 0 when the total is in bytes */
  uint64_t published_bytes;  /* the published bytes of a 16-bit checkpoint; 0 when not published */
  int lesson;                /* 1 for the lesson's three models, which the widget offers */
} gs_model_entry;

extern const gs_model_entry GS_MODELS[];
extern const size_t GS_MODEL_COUNT;
extern const char *const GS_LINK_KEYS[];
extern const size_t GS_LINK_COUNT;
extern const uint64_t GS_COUNTS[];
extern const size_t GS_COUNT_COUNT;
extern const uint64_t GS_WORDS[];
extern const size_t GS_WORDS_COUNT;
/* The entry whose key, name or repository is name, in any case; NULL when none is. */
const gs_model_entry *gs_find_model(const char *name);
int gs_builtin_model(const char *key, uint64_t bits, gs_model *out, gs_error *err);
/* The built-in GPU and link of that key or name ("lesson", "h100-sxm"; "fast", "ib-ndr"),
 * and the keys of each catalogue. */
int gs_builtin_gpu(const char *key, gs_gpu *out, gs_hardware_text *text, gs_error *err);
int gs_builtin_link(const char *key, gs_link *out, gs_hardware_text *text, gs_error *err);
int gs_builtin_keys(const char *array, char *buf, size_t cap, gs_error *err);

/* UTF-8 (utf8.c): the length of the valid sequence at text (0 if none starts there);
 * the offset of the first invalid byte (len if none); and len less a sequence cut open
 * at the end, for text cut to fit a buffer. */
size_t gs_utf8_sequence(const char *text, size_t len);
size_t gs_utf8_invalid_at(const char *text, size_t len);
size_t gs_utf8_whole(const char *text, size_t len);

/* The one escaping of text from the user (a path, a name, a log's field), for every
 * message, output and page (utf8.c). GS_ESCAPE_TEXT writes C0 controls, DEL and bytes that
 * are not UTF-8 as \xNN, and C1 controls, U+2028, U+2029 and the bidirectional overrides
 * and isolates as \uXXXX; GS_ESCAPE_JSON writes the same as JSON escapes (\u00NN, \uXXXX,
 * \ufffd for a byte that is not UTF-8) and escapes quotes and backslashes. Everything
 * else passes as it is. gs_escape_next puts the piece at text (len > 0) into out (room for
 * GS_ESCAPE_CAP) and returns the bytes it covers; gs_escape escapes len bytes of text
 * into buf, cut only between whole pieces, and returns the length written. */
enum gs_escape_style { GS_ESCAPE_TEXT = 0, GS_ESCAPE_JSON = 1 };
#define GS_ESCAPE_CAP 8
size_t gs_escape_next(const char *text, size_t len, int style, char *out);
size_t gs_escape(char *buf, size_t cap, const char *text, size_t len, int style);

/* The longest step gs_cost returns (it refuses a setting that would take longer), and
 * the room any figure's text needs: 1e27 ms with digit groups, two places and a unit is
 * 43 characters. */
#define GS_MAX_STEP_SECONDS 1e24
#define GS_FIGURE_CAP 48
/* The room a sentence of figures needs: the widget's notes and a timeline row's text. */
#define GS_NOTE_CAP 320

/* measured.c: all-reduce times as measured, from the text of an nccl-tests all_reduce_perf
 * log or of a table in ../shared/reference/allreduce-measured (rows of one GPU count, sweep
 * 1, from one source_dir). Sizes ascend; times are microseconds. */
#define GS_MEASURED_MAX 256
#define GS_MEASURED_MAX_BYTES (1u << 20)
typedef struct {
  uint64_t bytes;
  double time_us;
} gs_measured_row;

typedef struct {
  uint64_t gpus;
  char type[16]; /* the data type the log names ("float", "half") */
  size_t count;
  gs_measured_row rows[GS_MEASURED_MAX];
} gs_measured;

int gs_nccl_log_parse(const char *text, size_t len, gs_measured *out, gs_error *err);
int gs_measured_csv_parse(const char *text, size_t len, const char *source_dir, uint64_t gpus, gs_measured *out, gs_error *err);

/* calibrate.c: the measured times fitted as latency + bytes x 2(n-1)/n / bandwidth, in
 * up to three regimes of size (NCCL's protocols), each of at least GS_REGIME_MIN_ROWS. */
#define GS_REGIME_MIN_ROWS 3
#define GS_REGIME_NOISE 0.01
/* A fitted bandwidth lies within a link's range (core/checks.c): above the most, the times show
 * no growth and the regime keeps its latency alone; below the least, the fit is refused. */
#define GS_FIT_MAX_BANDWIDTH 1e16
#define GS_FIT_MIN_BANDWIDTH 1e6
typedef struct {
  uint64_t from_bytes, to_bytes; /* the measured sizes it covers */
  size_t rows;
  double latency_us;
  double bandwidth;              /* bytes per second; 0 when the times do not grow with size */
  double rms_rel_error;          /* root mean square of (fit - measured) / measured */
} gs_regime;

typedef struct {
  uint64_t gpus;
  size_t count;
  gs_regime regimes[3];
} gs_fit;

int gs_fit_measured(const gs_measured *m, gs_fit *out, gs_error *err);
const gs_regime *gs_fit_regime(const gs_fit *f, uint64_t bytes);
double gs_fit_predict_us(const gs_fit *f, uint64_t bytes);
/* The regime holding `bytes` as a link of that kind for any GPU count (NCCL's base held,
 * the step latency solved for). */
int gs_fit_link(const gs_fit *f, uint64_t bytes, int kind, gs_link *out, gs_error *err);

/* runs.c: measured decode runs, from the text of a CSV file in the shared format of
 * ../shared/reference/decode-measured/runs.csv (a header row naming the columns, then one
 * run a row; RFC 4180 quoting). Required columns: id, hf_repo, weight_bits, gpu, tp,
 * batch, itl_ms; optional: model, kv_bits, gpus, pp, ep, input_tokens, output_tokens, ttft_ms,
 * software, interconnect, source, note (an empty cell is "not stated", 0 below). */
#define GS_RUNS_MAX 1024
#define GS_RUNS_MAX_BYTES (1u << 20)
/* Each text a run keeps is kept whole: a cell longer than its member holds (63 bytes for
 * id and gpu, 127 for model, hf_repo, software and interconnect, 255 for the source) is
 * refused, naming its column and line, never cut. */
typedef struct {
  char id[64];
  char model[128];
  char repo[128];       /* hf_repo (the Hub's repository names are at most 96 characters) */
  char gpu[64];
  char software[128];
  char interconnect[128]; /* as stated ("PCIe (per README)"); "" when not */
  char source[256];     /* the note's leading source tag ("S7"), else the source cell */
  double weight_bits;  /* bits a weight, as stated (EXL2's 2.5 too); 0 when the cell is empty */
  uint64_t kv_bits, gpus, tp, pp, ep, batch, input_tokens, output_tokens; /* pp, ep: 1 when not stated */
  double itl_ms, ttft_ms; /* ttft_ms 0 when not given */
  int random_weights;  /* the note says the run used random ("fake") or dummy weights */
  int derived;         /* the note says itl_ms is derived from the end-to-end latency, prefill included */
  int serving;         /* the note says batch is a serving benchmark's concurrency, not a static batch */
  int speculative;     /* the note or software says words were drafted ahead (speculative decoding, MTP) */
} gs_run;

typedef struct {
  size_t count;
  gs_run rows[GS_RUNS_MAX];
} gs_runs;

/* Room for one CSV record's fields while a runs file is read: the caller's, so that the
 * library keeps no state (128 KiB: a caller keeps it off a small stack). */
#define GS_RUNS_COLUMNS 64
#define GS_RUNS_FIELD_CAP 2048
typedef struct {
  char field[GS_RUNS_COLUMNS][GS_RUNS_FIELD_CAP];
} gs_runs_scratch;
int gs_runs_parse(const char *text, size_t len, gs_runs_scratch *scratch, gs_runs *out, gs_error *err);

/* explain.c: the sums of one priced count with the numbers put in (gs_explain_of, below),
 * lines of text; GS_EXPLAIN_CAP is room enough. */
#define GS_EXPLAIN_CAP 4096

/* view.c: what a person sees for one setting, the same in the terminal and the widget. */
typedef struct {
  int fits;              /* 1 if the memory fits the usable memory */
  char memory[GS_FIGURE_CAP];       /* total per GPU: "34.93 GiB" */
  char weights[GS_FIGURE_CAP];      /* "32.85 GiB" */
  char cache[GS_FIGURE_CAP];        /* "0.63 GiB" */
  char working[GS_FIGURE_CAP];      /* "1.45 GiB" */
  char usable[GS_FIGURE_CAP];       /* "73.6 GiB" */
  char time[GS_FIGURE_CAP];         /* "18.94 ms", or "Does not fit" */
  char read[GS_FIGURE_CAP];         /* "17.30 ms", or "" when it does not fit */
  char transfer[GS_FIGURE_CAP];     /* "1.64 ms", or "" */
  char waiting[GS_FIGURE_CAP];      /* "8.7%", or "" */
  char words_per_s[GS_FIGURE_CAP];  /* "52.8" for each chat, or "" */
  char words_all[GS_FIGURE_CAP];    /* "3,379.2" for all the words' chats together, or "" */
  char idle[GS_FIGURE_CAP];         /* the first GPU's idle share, "75.0%", or "" */
  char first_word[GS_FIGURE_CAP];   /* the first word's time, "312.45 ms", or "" when no prompt is priced */
  double mem_bar;        /* percent of the usable memory, at most 100 */
  double limit_bar;      /* where the usable limit falls on a bar of the whole: 100 when it fits */
  double wait_bar;       /* percent of the time spent waiting; 0 when it does not fit */
  /* What the widget says of it, in words (gs_view_plan, which knows the plan): */
  char step_name[GS_FIGURE_CAP];   /* "Time for one word", or "Time for one step" for many words */
  char words_note[GS_NOTE_CAP];    /* "52.8 words a second for the one chat", or "" */
  char cache_note[GS_NOTE_CAP];    /* "The cache is one chat's, 8,192 tokens long." */
  char waiting_note[GS_NOTE_CAP];  /* "1.64 ms of 18.94 ms waiting, in 160 swaps; 17.30 ms reading", or "" */
  char batches_note[GS_NOTE_CAP];  /* batches in flight: why smaller bunches gain nothing; else "" */
  char axis[4][GS_FIGURE_CAP];     /* the step's quarters, "4.73 ms" to "18.94 ms", or "" */
} gs_view;

/* One row of the chart: one GPU count. */
typedef struct {
  uint64_t gpus;
  int fits;
  double read_bar;  /* percent of the slowest setting that fits */
  double wait_bar;
  char time[GS_FIGURE_CAP];    /* "18.94 ms", or "Does not fit" */
} gs_chart_row;

/* One GPU's part of one word's step, in percent of the step: idle, reading, waiting (the
 * swap or its hand-off), idle. They add up to 100. */
typedef struct {
  double idle_before, read, wait, idle_after;
  uint64_t repeat;        /* reading then waiting repeats this many times (slices: once a layer), else 1 */
  char text[GS_NOTE_CAP]; /* "GPU 2: reading 17.30 ms, waiting 0.01 ms in its hand-off, idle 51.92 ms (75.0%)" */
} gs_timeline_row;

/* The most rows a chart draws (gs_chart_of). */
#define GS_MAX_CHART 64

/* ---- The boundary: what a person asks, resolved once, priced once. ----
 * The command line and both modules fill a gs_request, call gs_resolve, then price counts
 * with gs_price or gs_sweep; views, the timeline, the chart and the sums read the priced
 * result and compute nothing again. */

/* The switches of a plan and its search: one encoding in the command line and both
 * modules. To add a switch: a bit here, its rule in csrc/read/resolve.c, its flag in
 * csrc/cli/report_options.c. */
enum gs_switch {
  GS_SW_CACHE_PER_CHAT = 1, /* each chat keeps its own cache */
  GS_SW_OVERLAP = 2,        /* each layer's all-reduce hides behind the next layer's reading */
  GS_SW_READ_CACHE = 4,     /* each step also reads every chat's cache */
  GS_SW_NCCL_AUTO = 8,      /* NCCL's cheapest ring protocol (enum gs_nccl) */
  GS_SW_DIVIDE_HEADS = 16,  /* offer and search only counts that divide the attention heads */
  GS_SW_FP8_COMPUTE = 32    /* 8-bit weights multiply in FP8 (W8A8) at the GPU's FP8 peak */
};

/* Which typed figures of a gs_request replace the catalogue entry's (bits of gpu_typed,
 * link_typed and between_typed). */
enum gs_typed {
  GS_TYPED_GIB = 1, GS_TYPED_USABLE = 2, GS_TYPED_GPU_BW = 4, GS_TYPED_FLOPS = 8, GS_TYPED_ARCH = 16,
  GS_TYPED_LINK_BW = 1, GS_TYPED_STEP_US = 2, GS_TYPED_BASE_US = 4, GS_TYPED_KIND = 8,
  GS_TYPED_ALL = 31
};

/* Which rules a setting takes (issue 19). The lesson's are a toy on purpose: one chat's
 * cache, every count, one server, the lesson's all-reduce at the sheet's link figure, the
 * peaks. Real hardware's: a cache for each chat read every step, counts that divide the
 * heads, servers of the GPU's usual size, NCCL's rules with the one-way ring bandwidth,
 * the first word of a 1,024-token prompt, and data/efficiency.json's achieved efficiency
 * for the GPU's generation. Each switch can still be set either way. */
enum gs_assume {
  GS_ASSUME_DEFAULT = 0, /* real for a catalogue GPU other than the lesson's with no figure typed; else lesson */
  GS_ASSUME_LESSON = 1,
  GS_ASSUME_REAL = 2
};

/* The tokens of the prompt whose first word real rules time, when none is asked. */
#define GS_REAL_PROMPT_TOKENS 1024

/* What a person asks, by name or typed figure. Zeros and NULLs take the defaults named. */
typedef struct {
  const char *model_key;   /* a catalogue key, name or repository; NULL when model_text is given (default 70b) */
  const char *model_text;  /* a config.json's text, model_len bytes */
  size_t model_len;
  const char *model_label; /* how the report names a model given as text (its path); NULL: "config.json" */
  uint64_t bits;           /* every weight at this many bits; 0: as the config stores them */
  const char *gpu_key;     /* NULL: the lesson's GPU */
  unsigned gpu_typed;      /* enum gs_typed: figures of gpu that replace the catalogue's */
  gs_gpu gpu;
  const char *link_key;    /* NULL: the lesson's fast link */
  unsigned link_typed;
  gs_link link;
  const char *between_key; /* the link between servers; NULL: ib-ndr */
  unsigned between_typed;
  gs_link between;         /* its base_us is always the link's: the start-up is paid once */
  const char *log_text;    /* an nccl-tests all_reduce_perf log the link is fitted to; NULL: none */
  size_t log_len;
  int split;               /* enum gs_split */
  uint64_t words;          /* 0: 1 */
  uint64_t per_server;     /* 0: every GPU in one server */
  uint64_t chat_tokens;    /* 0: GS_CHAT_TOKENS */
  uint64_t cache_bits;     /* 0: 16 */
  unsigned switches;       /* enum gs_switch: switched on */
  unsigned switches_off;   /* enum gs_switch: switched off, whatever the assumptions */
  int assume;              /* enum gs_assume */
  int no_prompt;           /* 1: time no first word, whatever the assumptions */
  uint64_t in_flight;      /* batches kept in flight under groups (gs_plan); 0: one */
  uint64_t replicas;       /* copies of the layout, each serving its own chats; 0: one */
  gs_efficiency efficiency;/* typed achieved-efficiency figures, each in place of the engine's */
  unsigned efficiency_typed;/* which figures of efficiency are typed: bit i the i-th of GS_EFFICIENCY_FIELDS;
                               0: every figure of efficiency that is not 0 */
  const char *engine;      /* the engine whose fitted figures price (data/efficiency.json): "" every
                              engine's pooled, "median" the median engine, "none" the peaks; NULL: none
                              named (under real rules every engine's pooled unless a figure is typed) */
  const struct fit_result_s *efficiencies; /* the fit to price with (csrc/read/efficiency.h); NULL: data/efficiency.json */
  uint64_t prompt_tokens;  /* tokens of each chat's prompt, for the first word's time; 0: none */
  double gpu_hour;         /* what one GPU costs an hour, in the user's currency; 0: no cost */
  uint64_t max_n;          /* the highest count the searches try; 0: 64 */
  int experts;             /* enum gs_experts */
  uint64_t expert_ranks;   /* under spread experts, served only: gs_plan's expert_ranks; 0: the GPUs */
} gs_request;

/* A GPU's or a link's names as a setting keeps them: its key, name and (a GPU's) usual
 * link. Its source stays in the catalogue (gs_builtin_gpu's gs_hardware_text). */
typedef struct {
  char key[32];
  char name[64];
  char link[32];
} gs_hardware_names;

/* A request resolved: the model, the machine and the plan, every rule applied. */
typedef struct {
  gs_model model;
  gs_gpu gpu;
  gs_link link;              /* as priced: the catalogue's, typed, or fitted to the log */
  gs_plan plan;              /* every field but gpus, which each price names */
  int divide_heads;          /* GS_SW_DIVIDE_HEADS */
  int fp8_compute;           /* GS_SW_FP8_COMPUTE: gpu.flops is the GPU's FP8 peak */
  int fp4_compute;           /* real rules, 4-bit weights on a GPU with an FP4 peak: gpu.flops is that peak */
  int mxfp4_compute;         /* real rules, MXFP4 experts as stored on Blackwell: gpu.flops blends the FP8 and
                                16-bit peaks (gs_mxfp4_peak) */
  uint64_t max_n;
  uint64_t bits;             /* the request's bits */
  uint64_t fitted_gpus;      /* the log's GPU count; 0 when no log was given */
  uint64_t replicas;         /* copies of the layout (1 or more) */
  double gpu_hour;           /* the price of a GPU hour; 0 when none was given */
  int real;                  /* 1: real hardware's rules (enum gs_assume), 0: the lesson's */
  int allreduce_unfitted;    /* fitted figures apply, but none of the fit's decode runs on the GPU's
                                generation takes an all-reduce: no start-up fitted to other GPUs'
                                runs is added */
  char assumptions[768];     /* the rules that hold, in one line, for every place figures are shown
                                (room for every clause at its longest with every figure typed) */
  char efficiency_from[512]; /* which achieved-efficiency figures price, in one line; "" when off */
  /* "70B", or the request's model_label for a config given as text ("config.json" when it
   * has none): pointed at, not copied, as jsmn's tokens point into their text, so the
   * request's label must outlive the setting */
  const char *model_name;
  const gs_model_entry *model_entry; /* the catalogue's model (its file in data/models/); NULL for a config given as text */
  gs_hardware_names gpu_text, link_text, between_text;
  char failed[16];           /* after a failure, the request's part at fault: "model", "gpu",
                                "link", "efficiency", "plan", "log" or "between" */
} gs_setting;

/* A layout served: its replicas, the chats that fit it, and what a word costs. */
typedef struct {
  uint64_t gpus;             /* replicas x the layout's GPUs */
  double words_per_s;        /* replicas x the layout's words a second for all its chats */
  int64_t chats_fit;         /* with a cache for each chat: the most chats of the plan's tokens
                                one layout holds at once; -1 when the cache is not each chat's */
  double chats_fit_words_per_s; /* all replicas' words a second at that many chats a layout; -1 likewise */
  double cost_per_million;   /* the price of a million words at words_per_s; -1 when no price was given */
  double prompt_cost_per_million; /* the price of a million prompt tokens prefilled at the first
                                     word's pace; -1 when no price or no prompt was given */
} gs_deploy;

/* One count priced: the cost, what a person sees, and the plan that gave them. */
typedef struct {
  const gs_setting *setting;
  gs_plan plan;        /* the setting's plan with this count */
  gs_cost_result cost;
  gs_view view;
  gs_deploy deploy;
} gs_priced;

/* Counts 1 to max_n priced once, with the three searches over them. */
typedef struct {
  uint64_t gpus;
  int allowed;         /* 0: the plan cannot take this count (heads, whole servers) */
  gs_cost_result cost; /* when allowed */
} gs_sweep_row;

typedef struct {
  size_t count;                 /* rows filled: max_n */
  uint64_t fewest;              /* the fewest allowed counts that fit; 0: none */
  uint64_t best;                /* the allowed count with the shortest step; 0: none */
  uint64_t best_dividing_heads; /* the same among the counts that divide the heads */
} gs_sweep;

/* resolve.c: bytes a second one way that a ring gets over link l between GPUs g: NVLink, the
 * GPU's NCCL figure (gs_gpu.ring_bw); PCIe and networks, the link's (gs_link.ring_bw); where
 * the catalogue has neither, half a sheet that adds both directions (NVLink, PCIe), or the
 * network's line rate, which is one way already. */
double gs_ring_one_way(const gs_gpu *g, const gs_link *l);
/* resolve.c: the request's model, machine and plan, checked; err names the request's
 * field ("model", "gpu", "gpu gib", "link", "between", "log", "words", "nccl", ...). */
int gs_resolve(const gs_request *q, gs_setting *out, gs_error *err);
/* Whether the setting's plan can take n GPUs: GS_OK, GS_ERR_SHAPE when it cannot (a count
 * that does not divide the heads under GS_SW_DIVIDE_HEADS, or does not fill whole
 * servers), or another error. */
int gs_count_allowed(const gs_setting *s, uint64_t n, gs_error *err);
/* The highest count the searches try when none is asked (`report --max-n`): the budget
 * the pages name ("no count up to 64 holds it"). */
#define GS_DEFAULT_MAX_N 64
/* price.c: a setting of parts already checked (a model, a GPU, a link and a plan), under
 * the lesson's rules, with GS_DEFAULT_MAX_N and one replica: for callers that hold parts
 * rather than a request (the lesson's figures, `numbers`, the tests), so that they too
 * price through gs_price, gs_sweep_run and the views below. */
void gs_setting_of(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_setting *out);
/* price.c: one count priced; every count 1..max_n priced once into rows (room for cap; rows
 * NULL: only the searches are kept). */
int gs_price(const gs_setting *s, uint64_t n, gs_priced *out, gs_error *err);
/* A count the sweep priced, shown: its view and how it serves (replicas, chats, cost). */
int gs_priced_of(const gs_setting *s, uint64_t n, const gs_cost_result *c, gs_priced *out, gs_error *err);
int gs_sweep_run(const gs_setting *s, gs_sweep_row *rows, size_t cap, gs_sweep *out, gs_error *err);
/* price.c: gs_sweep_run's fewest alone (0: none up to max_n), the search stopped where it is
 * found; an error only from a count below it. */
int gs_fewest_run(const gs_setting *s, uint64_t *fewest, gs_error *err);
/* The chart over counts of a sweep (each within it, and allowed), bars scaled to the slowest that fits. */
int gs_chart_of(const gs_sweep_row *rows, size_t row_n, const uint64_t *counts, size_t count_n, gs_chart_row *out,
                size_t cap, gs_error *err);
int gs_timeline_of(const gs_priced *p, gs_timeline_row *rows, size_t cap, gs_error *err);
/* The largest count the widget offers (GS_COUNTS), and the chart over them all, each priced
 * once (now, when one of them, not again); GS_ERR_SHAPE when the plan cannot take one. */
#define GS_OFFERED_MAX 16
int gs_offered_chart(const gs_setting *s, const gs_priced *now, gs_chart_row *out, size_t cap, gs_error *err);
int gs_explain_of(const gs_priced *p, char *buf, size_t cap, gs_error *err);
/* The same, as a page shows them: a count that does not fit without the time's sums. */
int gs_explain_shown(const gs_priced *p, char *buf, size_t cap, gs_error *err);
/* The sums for a page: each space inside a term (an operator and its operands, a number
 * and its unit) made a no-break space, U+00A0, so lines break only between terms. */
int gs_explain_glue(char *buf, size_t cap, gs_error *err);
void gs_view_of(const gs_cost_result *c, gs_view *out);
/* The view's words that depend on the plan and model as well (step_name ... axis). */
void gs_view_plan(gs_priced *r);

/* ---- The plan: every layout within a budget of GPUs, and the best for a target ----
 * csrc/core/plan.c (`gpusplit plan`, the explorer's frontier chart; not in the lesson's
 * module). A layout is one copy's GPU count, split, experts, chats at once and batches in
 * flight, served by as many replicas as the budget holds. */
typedef struct {
  uint64_t gpus;          /* one copy's */
  int split;              /* enum gs_split */
  int experts;            /* enum gs_experts */
  uint64_t words;         /* chats at once in a batch */
  uint64_t in_flight;     /* batches in flight (groups); 1 otherwise */
  uint64_t replicas;      /* copies the budget holds: gpus_max / gpus */
  double word_s;          /* seconds a word for each chat: the step */
  double first_s;         /* seconds to the first word; 0 when no prompt is priced */
  double words_per_s;     /* all replicas' words a second */
  double per_gpu;         /* words a second a GPU */
  double cost_per_million;/* -1 when no price was given */
} gs_layout;

typedef struct {
  uint64_t gpus_max;      /* the budget, 1 to GS_MAX_GPUS */
  double target_word_s;   /* 0: none */
  double target_first_s;  /* 0: none */
} gs_plan_ask;

/* The most points a frontier holds (a search that finds more is refused by name). */
#define GS_PLAN_MAX_POINTS 256
/* With the lesson's one chat's cache, memory does not bound the chats: the search stops here. */
#define GS_PLAN_MAX_WORDS 4096
/* Every count up to this is searched (the sweep's default reach, `report --max-n`); past it
 * only the counts of csrc/core/plan_counts.c, so that a budget of GS_MAX_GPUS costs about
 * what 64 do. */
#define GS_PLAN_EVERY_COUNT 64
/* The most counts searched past GS_PLAN_EVERY_COUNT (each kind of gs_plan_counts adds
 * fewer than this together: 20 steps, 32 of servers, the divisors of at most 65,536 heads). */
#define GS_PLAN_MAX_SPARSE 192
/* The kinds of counts searched past GS_PLAN_EVERY_COUNT (gs_plan_result.sparse_kinds). */
enum gs_plan_sparse { GS_PLAN_STEPS = 1, GS_PLAN_SERVERS = 2, GS_PLAN_HEADS = 4, GS_PLAN_FEWEST = 8 };

typedef struct {
  uint64_t tried;         /* layouts priced */
  size_t count;           /* points on the frontier, fastest first */
  gs_layout points[GS_PLAN_MAX_POINTS];
  int has_choice;         /* a target was given and a layout meets it */
  gs_layout choice;       /* the layout meeting the targets with the most words a second a GPU */
  char why[512];          /* with targets and no choice, or an empty frontier: why */
  uint64_t budget;        /* the ask's gpus_max */
  uint64_t every_to;      /* every count from 1 to this was searched: the budget, or at most GS_PLAN_EVERY_COUNT */
  size_t sparse_n;        /* counts searched past every_to, ascending */
  uint64_t sparse[GS_PLAN_MAX_SPARSE];
  unsigned sparse_kinds;  /* enum gs_plan_sparse: why those counts */
  uint64_t per_server, heads; /* the setting's, for the words of gs_plan_searched */
} gs_plan_result;

/* Every layout of the setting's model and machine within a.gpus_max GPUs: slices (within
 * servers and across), groups, slices-groups, experts sliced or spread, batches in flight
 * 1 or one a group, chats 1, 2, 3, 4, 6, 8, 12, ... up to what fits; every count up to
 * GS_PLAN_EVERY_COUNT, and past it the counts gs_plan_counts names. A first-word target
 * needs a setting that prices the first word (a prompt). */
int gs_plan_search(const gs_setting *s, const gs_plan_ask *a, gs_plan_result *out, gs_error *err);
/* The counts a search of gpus_max GPUs tries past every count up to GS_PLAN_EVERY_COUNT,
 * into out's every_to, sparse and sparse_kinds: the steps 96, 128, 192, 256, ... (powers
 * of two and 1.5 times them, as the chats' ladder), whole servers in those steps, with
 * --divide-heads the heads' divisors, and the fewest GPUs that hold the model; each one the
 * setting allows. */
void gs_plan_counts(const gs_setting *s, uint64_t gpus_max, gs_plan_result *out);
/* Which counts a search tried, in words, for every place the plan is shown: "" when every
 * count up to the budget was; else "Past 64 GPUs a copy only 96, 128, ... were searched
 * (...)". Returns buf (cut to cap, so give it GS_PLAN_SEARCHED_CAP). */
#define GS_PLAN_SEARCHED_CAP 2048
char *gs_plan_searched(const gs_plan_result *r, char *buf, size_t cap);
/* The report flags that price one copy of a layout as the plan did (`--counts N --split S
 * ...`), into buf; returns buf. */
char *gs_layout_flags(const gs_layout *l, char *buf, size_t cap);
/* A layout priced through gs_price, for its sums (gs_explain_of): s's plan with l's. */
int gs_layout_price(const gs_setting *s, const gs_layout *l, gs_setting *scratch, gs_priced *out, gs_error *err);
/* s with l's plan in scratch, as gs_layout_price prices it (split, experts, chats, batches
 * in flight, replicas). */
void gs_layout_setting(const gs_setting *s, const gs_layout *l, gs_setting *scratch);

/* ---- The plan's frontier as a chart (csrc/emit/plan_chart.c; the explorer's) ----
 * The plot is GS_CHART_ASPECT times as wide as it is tall. Across: words a second a GPU, on
 * a scale of tens (1, 2, 5, 10, ...); up: words a second for each chat, from 0. Each point's
 * dot is placed where no other dot covers any of it (a point too near the one before it is
 * moved across, and the chart says so); its layout is named in an engine's terms and in the
 * lesson's words. */
#define GS_CHART_ASPECT 2
#define GS_CHART_TICKS 16
#define GS_CHART_LABEL_CAP 160
typedef struct {
  gs_layout layout;
  double x, y;                       /* the dot's centre, percent of the plot inside half a dot of each edge */
  int moved;                         /* 1: moved across from its figure's place, so that no dot covers it */
  char flags[160];                   /* the report flags that price it (gs_layout_flags) */
  char figures[200];                 /* its figures as a person reads them, in one line: */
  char ms[GS_FIGURE_CAP];            /* ms a word */
  char chat[GS_FIGURE_CAP];          /* words a second a chat */
  char gpu[GS_FIGURE_CAP];           /* words a second a GPU */
  char first[GS_FIGURE_CAP];         /* ms to the first word; "" when no prompt is priced */
  char engine[GS_CHART_LABEL_CAP];   /* "TP 4 \u00d7 PP 2, batch 8, 2 replicas" */
  char lesson[GS_CHART_LABEL_CAP];   /* "slices in a server, groups across 2 servers, 8 chats at once, 2 copies" */
} gs_chart_point;

typedef struct {
  double at;                         /* percent along the axis, as a point's x or y */
  char text[GS_FIGURE_CAP];          /* the number, as a person reads it */
} gs_chart_tick;

typedef struct {
  size_t count;                      /* points: the frontier's, then the choice when it is not one of them */
  gs_chart_point points[GS_PLAN_MAX_POINTS + 1];
  double dot;                        /* a dot's diameter, percent of the plot's width */
  size_t x_n, y_n;
  gs_chart_tick x_ticks[GS_CHART_TICKS], y_ticks[GS_CHART_TICKS];
} gs_plan_chart;

/* The chart of a search's frontier over s (the setting it searched), with `extra` (the
 * choice, or NULL) after the points. */
int gs_plan_chart_of(const gs_setting *s, const gs_plan_result *r, const gs_layout *extra, gs_plan_chart *out, gs_error *err);
/* A layout in an engine's terms ("TP 4 \u00d7 PP 2, 2 replicas") and in the lesson's words. */
int gs_layout_words(const gs_setting *s, const gs_layout *l, char *engine, char *lesson, size_t cap, gs_error *err);
/* log10(x) for x > 0 by the four operations alone (no libm: native and wasm agree). */
double gs_log10(double x);

/* ---- A served load (issue 29): the mixed step, the engine's scheduler, the load ----
 * csrc/core/mixed_step.c prices one engine step that carries decoding chats, each at its
 * own context, beside prefill chunks; csrc/serve/ simulates an engine's scheduler step by
 * step under a load and gathers the requests' times. Not yet fitted to or checked against
 * measured serving runs: the figures say so wherever they are shown. */

/* What one step computes: each sequence scheduled in it adds `tokens` new tokens after
 * `context` tokens already in its cache (a decode: 1 token; a prefill chunk: many). */
typedef struct {
  uint64_t seqs;          /* sequences in the step */
  uint64_t tokens;        /* new tokens computed, all sequences */
  uint64_t cache_full;    /* tokens of cache read in the layers that keep every token: the contexts */
  uint64_t cache_kept;    /* tokens read in the sliding layers: each context capped at the window */
  uint64_t pairs_full;    /* (token, earlier token) pairs attention scores in every-token layers */
  uint64_t pairs_kept;    /* the same in the sliding layers, each token's reach capped at the window */
} gs_step_work;

/* One step priced (all seconds; ops on all GPUs together). */
typedef struct {
  uint64_t read_bytes;    /* one GPU: its share of the weights the step's tokens pick and of the caches */
  double read;            /* seconds one GPU reads them */
  double gemm_ops;        /* 2 x (active weights less the tables) a token, and the output table once a sequence */
  double attention_ops;   /* 4 x width a pair a layer (scores and weighted sum) */
  double compute;         /* seconds one GPU computes its share */
  double busy;            /* the overlap form: max(read, compute) + overlap_share x min(read, compute) */
  gs_time time;           /* busy time and transfers as gs_split_time arranges them, fixed costs in */
  double swap;            /* one all-reduce or hand-off */
  double seconds;         /* the step: time.read + time.transfer */
} gs_mixed_cost;

/* Adds one sequence's share of a step: `tokens` new tokens after `context` cached ones. */
void gs_step_work_add(const gs_model *m, gs_step_work *w, uint64_t context, uint64_t tokens);
/* The step's time under plan p (its gpus, split, cache bits, efficiency); overlap_share 0
 * to 1 is how much of the shorter of reading and computing is not hidden by the longer.
 * Refused: --experts spread (not yet priced per step), a step with no token. */
int gs_mixed_step(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double overlap_share,
                  const gs_step_work *w, gs_mixed_cost *out, gs_error *err);
/* The same step under spread experts (csrc/core/mixed_spread.c): w holds `ranks` works, one
 * for each attention rank (p->gpus of them under attention data, 1 under attention slices),
 * all joined by the expert layers; the step lasts as its slowest rank's. The cost's
 * read_bytes, read and compute are the slowest rank's, its ops all GPUs'. */
int gs_mixed_step_spread(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double overlap_share,
                         const gs_step_work *w, uint64_t ranks, gs_mixed_cost *out, gs_error *err);
/* The attention ranks of a served plan: its GPUs under spread experts with attention data
 * parallel, else 1. */
uint64_t gs_attention_ranks(const gs_plan *p);
/* The ranks a served plan's spread experts are spread over (csrc/core/experts.c):
 * p->expert_ranks, or its GPUs when 0. */
uint64_t gs_expert_ranks(const gs_plan *p);
/* The most attention ranks a served engine may have (the simulation keeps each rank's
 * state on the stack, about 400 bytes a rank): enough for SGLang's 72-rank decode of
 * DeepSeek (lmsys.org, 2025-05-05, large-scale expert parallelism) and a 256-GPU one. */
#define GS_SERVE_MAX_RANKS 256
/* A served pipeline's stages: its groups (groups: one a GPU; slices-groups across servers:
 * one a server), else 1. */
uint64_t gs_pipeline_stages(const gs_plan *p);
/* The most stages a served pipeline may have (each stage's clock is kept on the stack). */
#define GS_SERVE_MAX_STAGES 1024

/* An engine's scheduler (csrc/serve/engine.c holds each engine's defaults and their sources). */
typedef struct {
  int kind;                    /* enum gs_engine (csrc/emit/launch.c's names) */
  uint64_t max_seqs;           /* sequences a step may hold; 0: the pool's tokens / 2 (SGLang's rule) */
  uint64_t max_batched_tokens; /* new tokens a step may compute */
  uint64_t block_tokens;       /* tokens a cache block holds */
  double memory_share;         /* share of each GPU's memory the engine takes (vLLM, SGLang: weights and cache
                                  within it; TensorRT-LLM: the cache's share of what the weights leave) */
  int share_of_free;           /* 1: memory_share is of the memory left after weights (TensorRT-LLM) */
  int activations_inside;      /* 1: the working memory is taken out of the share (vLLM profiles it inside) */
  int mixed;                   /* 1: prefill chunks run beside decodes in one step; 0: a step prefills or decodes */
  int chunked;                 /* 1: a prompt may be split across steps by the token budget */
  int reserve_full;            /* 1: a request is admitted only with room for its whole prompt and output, never
                                  preempted (TensorRT-LLM's GUARANTEED_NO_EVICT); 0: preempted and recomputed */
  double overlap_share;        /* gs_mixed_step's; 0: the larger of reading and computing (today's rule) */
  double seq_us;               /* the engine's own time a step for each sequence it holds (scheduling, sampling,
                                  detokenising on the host), microseconds; 0: none */
  double flops_share;          /* share of the GPU's FLOP/s a served step computes at; 0: the plan's efficiency */
  int limits_shared;           /* 1: max_seqs and max_batched_tokens are the whole engine's, shared out over its
                                  attention ranks (SGLang divides them by dp_size); 0: each rank's own (vLLM's
                                  and TensorRT-LLM's ranks each run their own scheduler) */
  int bench_limits;            /* 1: TensorRT-LLM's limits as trtllm-bench sets them from the load
                                  (gs_bench_limits): max_seqs and max_batched_tokens 0 until then */
  uint64_t weight_bits;        /* the weights' bits as a quantization names them (4, 8, 16; gs_engine_weight_bits) */
  int figures_pooled;          /* 1: the serving fit holds fewer than 6 runs of this engine, and its step figures are the
                                  fit of every fitted run pooled (data/serving.json's "any") */
  int figures_like;            /* enum gs_engine whose fitted figures this engine takes when the fit holds none of its
                                  own (an engine whose host loop is alike: engine.c); -1: none, the pooled ones */
  int figures_from;            /* enum gs_engine whose fitted figures the step takes (its own, or figures_like's);
                                  -1: every fitted run's pooled (figures_pooled) */
  uint64_t scheduler_steps;    /* decode steps one scheduling runs (vLLM 0.6's --num-scheduler-steps, multi-step
                                  scheduling; scheduler.c); 0 or 1: one */
  double request_us;           /* the time a request spends before the engine's scheduler takes it (received,
                                  tokenized, handed over: the front end), microseconds, paid once by its first
                                  token and its whole time; a closed loop's next request pays it too; 0: none */
} gs_scheduler;

/* The weights' bits of setting s as trtllm-bench's heuristic names them, into e->weight_bits.
 * A served step computes at the setting's own peak, gs_resolve's (its FP4 one for 4-bit
 * weights on a GPU with FP4 tensor cores, unless FLOP/s are typed or --no-fp8-compute). */
void gs_engine_weight_bits(const gs_setting *s, gs_scheduler *e);

/* The serving fit (data/serving.json, written by gpusplit fit --serving): for each engine,
 * the figures a served step takes that no data sheet gives, fitted to the fitted sources of
 * tests/measured/serving-runs.csv (its README names them); gs_engine_defaults applies them. */
typedef struct {
  int kind;             /* enum gs_engine; -1: every fitted run pooled ("any") */
  double flops_share;   /* gs_scheduler's */
  double seq_us;        /* gs_scheduler's */
  double overlap_share; /* gs_scheduler's */
  double request_us;    /* gs_scheduler's */
  uint64_t rows;        /* the fitted runs it was fitted on */
} gs_serving_fit;
#define GS_SERVING_FIT_MAX 8
typedef struct {
  gs_serving_fit f[GS_SERVING_FIT_MAX];
  size_t count;
  char summary[512]; /* the fitted runs and the held-out error, in one line */
} gs_serving_table;
extern const gs_serving_table GS_SERVING_TABLE;
/* The figures among f[0..n) engine e's step takes: its own kind's when there are some, else
 * those of the engine it is like (e->figures_like), else the pooled ones (kind -1); NULL when
 * none is there. *request_us: the front end's time a request, the engine's own or else the
 * pooled one's (an engine alike in its step is not in its front end). */
const gs_serving_fit *gs_serving_pick(const gs_serving_fit *f, size_t n, const gs_scheduler *e, double *request_us);
/* data/serving.json's text read into t (scripts/tables.c compiles it into GS_SERVING_TABLE). */
int gs_serving_read(const char *text, gs_serving_table *t, gs_error *err);

/* The engine's defaults for a GPU (its memory, its catalogue key: vLLM treats A100s apart)
 * and the GPUs of one instance; name vllm (NULL too), sglang, trtllm or trt-llm, lmdeploy (as --engine
 * names it for the fitted efficiency); GS_ERR_UNKNOWN for another. */
int gs_engine_defaults(const char *name, const gs_gpu *g, const char *gpu_key, uint64_t gpus, gs_scheduler *out,
                       gs_error *err);
/* GS_OK when the engine runs the model's type (every type for vLLM, SGLang and TensorRT-LLM
 * here; LMDeploy's TurboMind a list of them, engine.c), else GS_ERR_UNSUPPORTED naming it.
 * gs_serve_run and its kin check it. */
int gs_engine_runs_model(const gs_scheduler *e, const gs_model *m, gs_error *err);
/* Which of an engine's limits were given (the rest are the engine's own at each count). */
enum gs_served_given {
  GS_GIVEN_MAX_SEQS = 1, GS_GIVEN_BATCHED = 2, GS_GIVEN_SHARE = 4, GS_GIVEN_BLOCK = 8, GS_GIVEN_OVERLAP = 16,
  GS_GIVEN_SEQ_US = 32, GS_GIVEN_FLOPS = 64, GS_GIVEN_BENCH = 8192,
  GS_GIVEN_UNCHUNKED = 16384, /* vLLM 0.6 with --enable-chunked-prefill=False (engine.c) */
  GS_GIVEN_STEPS = 32768,     /* scheduler_steps */
  GS_GIVEN_REQUEST_US = 65536 /* request_us (report's --request-us, the same figure) */
};
/* The limits of `given` (enum gs_served_given bits) copied from limits into e, over its
 * defaults: serve's one layout and each layout of the served plan take them alike. */
void gs_engine_given(gs_scheduler *e, const gs_scheduler *limits, unsigned given);

/* How requests arrive (csrc/serve/load.c). */
enum gs_load_kind {
  GS_LOAD_BATCH = 0,  /* all requests at t = 0 */
  GS_LOAD_CLOSED = 1, /* `concurrency` in flight, a new one as one ends */
  GS_LOAD_OPEN = 2    /* Poisson arrivals at `rate` a second */
};
typedef struct {
  int kind;
  uint64_t requests;      /* 1 to GS_SERVE_MAX_REQUESTS */
  uint64_t concurrency;   /* GS_LOAD_CLOSED */
  double rate;            /* GS_LOAD_OPEN: requests a second */
  uint64_t prompt_tokens, output_tokens; /* each request's, when no pairs are given */
  uint64_t seed;
  const uint64_t *prompts, *outputs; /* pairs lengths of requests, replayed in order (gs_lengths_parse); NULL: none */
  size_t pairs;
} gs_load;
/* A lengths file's text: "PROMPT,OUTPUT" a line (csrc/read/lengths.c) into prompts and
 * outputs, room for cap; *count the pairs read. */
int gs_lengths_parse(const char *text, size_t len, uint64_t *prompts, uint64_t *outputs, size_t cap, size_t *count,
                     gs_error *err);
/* n requests' lengths drawn from a table of count pairs (csrc/serve/draw.c), as vLLM's
 * benchmark draws ShareGPT's: the table shuffled with the seed (prompts and outputs are
 * shuffled in place), request i taking shuffled pair i, and past the table's end a pair
 * picked uniformly at random from it. */
void gs_lengths_draw(uint64_t *prompts, uint64_t *outputs, size_t count, uint64_t seed, size_t n, uint64_t *draw_prompts,
                     uint64_t *draw_outputs);
/* n lengths rescaled to the mean given: each l to max(1, l x mean x n / sum), rounded half
 * up in integers; GS_OK, or GS_ERR_RANGE naming field when a length would pass most. */
int gs_lengths_rescale(uint64_t *lengths, size_t n, uint64_t mean, uint64_t most, const char *field, gs_error *err);
/* n requests' lengths drawn from a lengths table's text (data/sharegpt_lengths.csv's form)
 * with the seed, each side then rescaled to its mean where one is given (0: as drawn), into
 * prompts and outputs (room for n each); table is scratch room for 2 x cap numbers, cap at
 * least the text's lines. GS_ERR_RANGE naming --prompt-tokens, --output-tokens or lengths
 * when a rescaled length, or a prompt and output together, would pass GS_MAX_CHAT_TOKENS.
 * `serve --lengths sharegpt` and validate's rows drawn from ShareGPT share it. */
int gs_lengths_draw_rescaled(const char *text, uint64_t *table, size_t cap, uint64_t seed, size_t n, uint64_t mean_prompt,
                             uint64_t mean_output, uint64_t *prompts, uint64_t *outputs, gs_error *err);
/* The mean of a load's requests' lengths (lengths: its prompts or outputs), pairs replayed
 * in order (csrc/serve/load.c; exact: the sums stay below 2^53). */
double gs_load_mean(const gs_load *l, const uint64_t *lengths);
#define GS_SERVE_MAX_REQUESTS 250000
/* The most tokens a load may hold, all requests' prompts and outputs: 2^32. */
#define GS_SERVE_MAX_TOKENS 4294967296u
/* The most steps a load may take, its requests' output tokens plus their prompts' chunks:
 * 2^22. A step with one chat in flight costs 45 to 90 ns to simulate (measured on this
 * project's 2-core machine, idle and loaded), so the worst load answers in under 0.5 s. */
#define GS_SERVE_MAX_STEPS 4194304u
/* The most rank-steps a run may take (sim_guard): each step of a copy's attention ranks
 * counts them all, idle ones too, at about 9 ns each (the same machine). 64 ranks through
 * the most steps a load may take: every load a copy of 64 ranks ran before 256 were
 * allowed still runs, in under 3 s; a load that keeps a few of many ranks busy for as
 * many steps is refused by name. */
#define GS_SERVE_MAX_RANK_STEPS (64ull * GS_SERVE_MAX_STEPS)

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014; the constants of Vigna's splitmix64.c): the next 64 bits of *state. */
uint64_t gs_splitmix64(uint64_t *state);
/* The natural logarithm of x > 0 from + - * / only (load.c says how): agrees with libm's
 * log within a few ulp, the same bits native and in wasm. */
double gs_log(double x);

/* Percentiles of a figure over requests (or gaps between tokens), seconds. */
typedef struct {
  double mean, p50, p90, p99;
} gs_dist;

/* One request as the simulation tracks it. */
typedef struct {
  double arrival, first_token, last_token, finish; /* seconds */
  uint64_t prompt, output;   /* tokens */
  uint64_t computed;         /* tokens whose cache is computed */
  uint64_t generated;        /* output tokens so far */
  uint64_t blocks;           /* cache blocks held */
  uint64_t preempted;        /* times preempted */
  uint64_t step_tokens;      /* tokens scheduled in the step being built; 0: none */
  int state;                 /* 0 not arrived, 1 waiting, 2 running, 3 done, 4 done but still computed to the end
                                of a multi-step window (csrc/serve/scheduler.c) */
} gs_serve_req;

/* The gaps between tokens, pooled, in bins of 1/256 of a power of two (exact bins: the
 * bits of the double), each with its count and sum, so percentiles are within 0.4% and
 * the mean exact. */
#define GS_ITL_EXP_MIN 983   /* 2^-40 s: a biased exponent; shorter gaps count in the first bin */
#define GS_ITL_EXP_MAX 1047  /* 2^24 s */
#define GS_ITL_BINS ((GS_ITL_EXP_MAX - GS_ITL_EXP_MIN + 1) * 256)
typedef struct {
  uint64_t count[GS_ITL_BINS];
  double sum[GS_ITL_BINS];
  uint64_t total;
  double total_sum;
} gs_itl_hist;

/* The caller's memory for a run of n requests (nothing in the library allocates). */
#define GS_SERVE_IDS 8
typedef struct {
  gs_serve_req *reqs;  /* n */
  uint32_t *ids;       /* GS_SERVE_IDS n: a copy's requests, its running list, its waiting ring (3 n),
                          and for prefill and decode on separate copies the decode copies' too and the
                          hand-offs on the way (8 n) */
  double *scratch;     /* n: sorting */
  gs_itl_hist *itl;
  size_t cap;          /* n */
} gs_serve_space;

typedef struct {
  gs_dist ttft, tpot, itl, e2e;  /* seconds */
  double output_tokens_per_s, total_tokens_per_s, requests_per_s; /* the whole deployment */
  double duration;               /* first arrival to last completion, seconds */
  double mean_in_flight;         /* requests arrived and not done, averaged over the duration */
  uint64_t gpus;                 /* the whole deployment's */
  uint64_t steps, preemptions;
  uint64_t rank_steps;           /* each rank's steps, an idle rank's dummy pass too: the run's work (sim_guard bounds it) */
  uint64_t computed_tokens;      /* tokens all steps computed: each prompt's and output's but the last once, and again
                                    what a preemption made recompute */
  uint64_t pool_blocks;          /* blocks one instance's pool holds */
  uint64_t peak_blocks;          /* the most any instance held at once */
  uint64_t pool_tokens;          /* pool_blocks x block_tokens */
  uint64_t max_seqs;             /* the engine's cap on sequences as run (its rule applied when it was 0), a rank's */
  uint64_t max_batched_tokens;   /* the tokens a step of one rank may compute, as run */
  uint64_t ranks;                /* attention ranks an engine copy runs in lock step (1 but under attention data) */
  uint64_t stages;               /* a pipeline's stages (gs_pipeline_stages); 1 without groups */
  uint64_t in_flight;            /* micro-batches a pipeline keeps in flight, each its own scheduler; 1 without groups */
  uint64_t prefill_copies, decode_copies; /* prefill and decode on separate copies (gs_serve_run_disagg); 0 and 0: not */
  uint64_t prefill_gpus;         /* GPUs a prefill copy holds (0 but beside prefill copies); the pool, caps and ranks
                                    above are a decode copy's */
  int overloaded;                /* open loop: the rate is above sustainable_rate */
  double sustainable_rate;       /* open loop: requests a second all instances complete saturated; 0 otherwise */
  gs_mixed_cost typical;         /* the step with the median count of tokens, for --explain */
  gs_step_work typical_work;
} gs_serve_result;

/* Simulates the load on `replicas` copies of the setting's layout (plan p with its gpus),
 * requests shared round-robin, each copy run by engine e; fills out. */
int gs_serve_run(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t replicas,
                 const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out, gs_error *err);
/* A copy's GPUs in a run of `replicas` replicas: a replica's, or beside prefill copies a
 * decode copy's (a prefill copy's are r->prefill_gpus). */
uint64_t gs_serve_copy_gpus(const gs_serve_result *r, uint64_t replicas);
/* Prefill and decode on separate copies of the layout (csrc/serve/disagg.c). */
typedef struct {
  uint64_t prefill, decode; /* copies that only prefill, copies that only decode */
  uint64_t prefill_gpus;    /* GPUs a prefill copy holds, in the layout's split, experts and attention; 0: the
                               layout's own count, as a decode copy holds */
  const gs_scheduler *prefill_engine; /* a prefill copy's engine (its defaults for its own count); NULL: the
                                         decode copies' */
} gs_disagg;
/* The load on d->prefill copies of the layout that prefill and d->decode that decode, each
 * request's cache sent from one to the other over the link (csrc/serve/disagg.c); one engine
 * a copy: no attention data parallel, no groups. space->ids has room for 8 n. */
int gs_serve_run_disagg(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const gs_disagg *d,
                        const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out, gs_error *err);
/* The same without an open loop's saturated pass first, as gs_serve_run_only. */
int gs_serve_run_disagg_only(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const gs_disagg *d,
                             const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out,
                             gs_error *err);
/* e's max_seqs and max_batched_tokens, where 0, as trtllm-bench sets them for the load l
 * (csrc/serve/bench_limits.c names its source): from the memory the weights leave at the
 * load's mean lengths, the token cap raised to hold the longest prompt beside a full batch;
 * GS_ERR_NONE_FITS when its estimate holds no request. */
int gs_bench_limits(const gs_model *m, const gs_gpu *g, const gs_plan *p, const gs_scheduler *e, const gs_load *l,
                    uint64_t *max_seqs, uint64_t *max_tokens, gs_error *err);
/* The pool of one instance: blocks of e->block_tokens tokens on each GPU. */
int gs_serve_pool(const gs_model *m, const gs_gpu *g, const gs_plan *p, const gs_scheduler *e, uint64_t *blocks,
                  gs_error *err);
/* The same load without an open loop's saturated pass first (sustainable_rate 0, never
 * overloaded): for searches that set the rate themselves (csrc/serve/plan_served.c). */
int gs_serve_run_only(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t replicas,
                      const gs_scheduler *e, const gs_load *load, gs_serve_space *space, gs_serve_result *out, gs_error *err);

/* ---- The plan of a served load (csrc/serve/plan_served.c; `gpusplit plan` with a load,
 * service targets or engine limits) ----
 * Each layout (a copy's count up to GS_SERVED_MAX_COUNT, slices, groups or slices-groups,
 * experts sliced, and where a per-token target makes it matter the engine's cap on
 * sequences) simulated by gs_serve_run's scheduler. With a load, the fewest replicas within
 * the budget that hold it within the targets; without one, the highest Poisson rate one
 * copy holds within them, and replicas = budget / count copies. */
enum gs_served_stat { GS_STAT_MEAN = 0, GS_STAT_P50 = 1, GS_STAT_P90 = 2, GS_STAT_P99 = 3 };
/* The largest copy searched, and the most layouts x request-tokens (requests x (prompt +
 * output)) a search may take, checked before it starts, so that a budget of 64 GPUs with
 * targets answers within 2 s of CPU time (183 layouts of 70B on H100 at the default 1,000
 * requests of 1,024 + 128 tokens, 211e6, took 1.4 s; 127 layouts of 8B on L40S at 3,400
 * requests, 495e6, took 2.5 s). */
#define GS_SERVED_MAX_COUNT 64
#define GS_SERVED_MAX_WORK 250000000u
/* The prefill and decode copies a disaggregated layout of the plan takes (--disaggregate):
 * 1:1, 1:2, 2:1, 1:3, 3:1. */
#define GS_SERVED_PD_RATIOS 5
/* Room for every layout of a copy up to GS_SERVED_MAX_COUNT: slices, groups, slices-groups,
 * and slices with prefill and decode apart at each ratio; a mixture's experts spread beside
 * data-parallel and sliced attention, and the data-parallel ones apart at each ratio. */
#define GS_SERVED_LAYOUTS_MAX (GS_SERVED_MAX_COUNT * (5 + 2 * GS_SERVED_PD_RATIOS))
typedef struct {
  uint64_t gpus_max;       /* the budget, 1 to GS_MAX_GPUS */
  int has_load;            /* 1: load is the whole deployment's; 0: search each layout's Poisson rate */
  gs_load load;            /* its lengths, requests and seed always; kind, rate, concurrency with has_load */
  const char *engine;      /* vllm (NULL too), sglang, trt-llm, lmdeploy */
  gs_scheduler limits;     /* the limits given (mask `given`) */
  unsigned given;          /* enum gs_served_given */
  double target_ttft_s, target_tpot_s; /* 0: none */
  int stat;                /* enum gs_served_stat: which figure the targets hold */
  int disaggregate;        /* 1: also slices with prefill and decode on separate copies (gs_serve_run_disagg) */
} gs_served_ask;

typedef struct {
  gs_layout layout;        /* gpus (a copy's), split, experts, replicas; word_s and first_s the held
                              stat of time per output token and to the first token; words_per_s
                              output tokens a second, all replicas; per_gpu the same a GPU */
  uint64_t max_seqs;       /* the engine's cap on sequences as run */
  int max_seqs_given;      /* 1: the cap was set (by the ask or the search), not the engine's default */
  double rate;             /* requests a second the deployment holds (all replicas) */
  double copy_rate;        /* without a load: one copy's Poisson rate simulated; 0 with a load */
  uint64_t rate_m;         /* copy_rate as a decimal, rate_m x 10^-rate_k, the double it reads back as */
  int rate_k;
  int saturated;           /* without targets or a load: the rate is the sustainable one (all at once) */
  gs_dist ttft, tpot;      /* the simulated run's, seconds */
  uint64_t preemptions;
  uint64_t prefill, decode;/* a unit's copies that prefill and that decode (0 and 0: each copy one engine that does
                              both); the layout's replicas are units, R units run as R x prefill and R x decode */
  int attention;           /* enum gs_attention beside spread experts (layout.experts); GS_ATTENTION_DATA otherwise,
                              unread */
} gs_served_point;
/* The GPUs a point's deployment takes: its copies (or units of prefill and decode copies),
 * each of layout.gpus GPUs. */
uint64_t gs_served_gpus(const gs_served_point *pt);

typedef struct {
  uint64_t layouts;        /* layouts the search took */
  uint64_t simulated;      /* simulations run */
  uint64_t pruned;         /* rate searches skipped (caps' tries too): the choice or a frontier point beat the ceiling */
  size_t count;            /* frontier points, the shortest time per output token first */
  gs_served_point points[GS_PLAN_MAX_POINTS];
  int has_choice;
  gs_served_point choice;  /* with targets: the layout that holds the load (or the most rate) per GPU best */
  char why[768];           /* targets and no choice, or nothing fits: why (two points' flags, 256 each at most) */
  gs_served_point searched[GS_SERVED_LAYOUTS_MAX]; /* the layouts searched (layouts of them), as last tried */
} gs_served_result;

/* The search; space has room for a.load.requests. GS_ERR_RANGE names a bad ask before any
 * simulation (the budget, a target, the work bound). */
int gs_plan_served(const gs_setting *s, const gs_served_ask *a, gs_serve_space *space, gs_served_result *out,
                   gs_error *err);
/* The serve flags that give a point's figures again (`--counts N --split S ...`); buf. */
char *gs_served_flags(const gs_served_ask *a, const gs_served_point *pt, char *buf, size_t cap);
/* The figure of a distribution a stat names. */
double gs_served_stat_of(const gs_dist *d, int stat);

/* ---- The lesson's four figures, as small SVGs (csrc/core/figure.c) ---- */
enum gs_figure_kind {
  GS_FIGURE_WEIGHTS_SPLIT = 0,   /* Figure 1: the large model's weights against one GPU, then split four ways */
  GS_FIGURE_TIME_PER_WORD = 1,   /* Figure 2: one word's reading and waiting by GPU count */
  GS_FIGURE_STOPS_HELPING = 2,   /* Figure 3: the small model's words a second on both links */
  GS_FIGURE_SLICES_VS_GROUPS = 3,/* Figure 4: one word on four GPUs, slices against groups */
  GS_FIGURE_COUNT = 4
};
/* What the figures draw: the lesson's small and large models (8B and 70B), its GPU and its
 * fast and slow links; the names are the models' as the lesson writes them ("8B"). */
typedef struct {
  const gs_model *small, *large;
  const char *small_name, *large_name;
  const gs_gpu *gpu;
  const gs_link *fast, *slow;
} gs_figure_input;
/* "weights-split", "time-per-word", "stops-helping", "slices-vs-groups": the lesson's file
 * names without ".svg"; NULL for a kind it does not know. */
const char *gs_figure_name(int kind);
/* The kind a name gives, or -1. */
int gs_figure_parse(const char *name);
/* Writes one figure, NUL-terminated, into buf of cap bytes and its length into *len. A
 * buffer too small is GS_ERR_TOO_LONG, and buf then holds no figure (""). */
int gs_figure(int kind, const gs_figure_input *in, char *buf, size_t cap, size_t *len, gs_error *err);

/* ---- The engine's command line: a priced layout as a launch command (csrc/emit/launch.c) ----
 * `report --emit ENGINE` prints the command that starts vLLM, SGLang or TensorRT-LLM on the
 * layout the figures priced: the parallel sizes, the cache's type, the memory share and the
 * limits the figures assumed. A setting the engine cannot start exactly is refused by name
 * (GS_ERR_UNSUPPORTED, field "emit"), never written as a command that runs something else. */
enum gs_engine { GS_ENGINE_VLLM = 0, GS_ENGINE_SGLANG = 1, GS_ENGINE_TRTLLM = 2, GS_ENGINE_LMDEPLOY = 3, GS_ENGINE_COUNT = 4 };
/* The engines below this have a launch command (gs_launch); LMDeploy's scheduler is simulated
 * by serve, but its command is not written. */
#define GS_LAUNCH_ENGINES 3
/* "vllm", "sglang", "trtllm", "lmdeploy"; NULL for one it does not know. */
const char *gs_engine_name(int engine);
/* The engine a name gives, or -1. */
int gs_engine_parse(const char *name);

/* What one copy of a layout is in an engine's terms. */
typedef struct {
  uint64_t tp;           /* tensor parallel: the GPUs each layer's attention (and dense weights) is cut over */
  uint64_t pp;           /* pipeline parallel: stages of whole layers, one after another */
  uint64_t ep;           /* expert parallel: the GPUs the routed experts are spread over; 1 when each
                            expert is cut as every other weight is; 0 for a dense model */
  uint64_t attention_dp; /* attention data parallel: copies of attention, each serving its own chats; 1: none */
  uint64_t replicas;     /* data-parallel copies of the whole layout, each serving its own chats */
  uint64_t servers;      /* servers one copy spans */
  uint64_t chats;        /* the most chats one scheduler keeps running: a copy's chats at once
                            (times the batches in flight), or each attention copy's own */
  uint64_t batches;      /* batches of chats in flight through the pipeline (gs_plan_batches) */
} gs_launch_sizes;

/* The sizes of the setting's layout on n GPUs; the same errors as gs_count_allowed. */
int gs_launch_sizes_of(const gs_setting *s, uint64_t n, gs_launch_sizes *out, gs_error *err);
/* The room a launch command takes (the model's name is at most 4,095 bytes of it). */
#define GS_LAUNCH_CAP 8192
/* The shell lines that start the engine on the setting's layout of n GPUs, into buf:
 * comments naming the engine's version and what the command holds, then the command (for
 * TensorRT-LLM, the YAML file its --extra_llm_api_options reads first, as a here-document).
 * GS_ERR_UNSUPPORTED (field "emit") when the engine cannot start that layout exactly. */
int gs_launch(const gs_setting *s, uint64_t n, int engine, char *buf, size_t cap, gs_error *err);

#endif
