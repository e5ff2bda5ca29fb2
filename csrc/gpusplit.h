/* gpusplit: the cost of splitting one large language model over several GPUs.
 *
 * The lesson "splitting one big model over several GPUs" (shared/seed) defines every
 * formula here; its reference code is gpu_split.py. Bytes are uint64_t, times are
 * seconds in doubles; a name says its unit where it is neither. Structs are plain and
 * owned by the caller. Functions that can fail return GS_OK or a negative gs_status
 * and fill a caller's gs_error; nothing here allocates, does I/O or keeps state. */
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
  GS_ERR_UNKNOWN = -11   /* a name (model, link) that the data does not hold */
};

/* What went wrong, for a one-line message: "<field>: <what>". */
typedef struct {
  int code;        /* a gs_status */
  char field[48];  /* the field or setting at fault; "" when none applies */
  char what[160];  /* what is wrong with it, one phrase */
} gs_error;

/* A Llama-style model's shape, as read from its config.json. */
typedef struct {
  uint64_t hidden;       /* hidden_size: numbers in one word's hidden vector */
  uint64_t intermediate; /* intermediate_size: width of the feed-forward block */
  uint64_t layers;       /* num_hidden_layers */
  uint64_t heads;        /* num_attention_heads */
  uint64_t kv_heads;     /* num_key_value_heads (absent: = heads) */
  uint64_t head_dim;     /* head_dim (absent: hidden / heads) */
  uint64_t vocab;        /* vocab_size */
  int tied;              /* tie_word_embeddings: 1 if input and output tables are one */
} gs_shape;

/* One GPU. */
typedef struct {
  double gib;       /* memory, GiB */
  double usable;    /* share of the memory a server may use, 0 < usable <= 1 */
  double bandwidth; /* bytes per second the GPU reads its own memory */
  double flops;     /* 16-bit operations per second */
} gs_gpu;

/* The link between GPUs, with NCCL's ring all-reduce start-up. */
typedef struct {
  double bandwidth; /* bytes per second */
  double step_us;   /* latency of one ring step, microseconds */
  double base_us;   /* latency paid once per all-reduce, microseconds */
} gs_link;

/* How the model is split. */
enum gs_split {
  GS_SLICES = 0, /* tensor parallelism: every layer cut into n slices */
  GS_GROUPS = 1  /* pipeline parallelism: n groups of whole layers, one after another */
};

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
  double words_per_s; /* 1 / total */
} gs_time;

/* The lesson's constants that are not data (cited where they are defined, csrc/model.c). */
extern const uint64_t GS_GIB;
extern const uint64_t GS_ALL_REDUCES_PER_LAYER;
extern const uint64_t GS_CHAT_TOKENS;
extern const uint64_t GS_MAX_GPUS;
extern const uint64_t GS_MAX_WORDS;

/* model.c: the arithmetic. Shapes must have passed gs_shape_check, and words
 * gs_words_check; GPU counts are 1..GS_MAX_GPUS. */
int gs_shape_check(const gs_shape *s, gs_error *err);
int gs_words_check(const gs_shape *s, uint64_t words, gs_error *err);
int gs_gpu_check(const gs_gpu *g, gs_error *err);
int gs_link_check(const gs_link *l, gs_error *err);
int gs_split_parse(const char *name, int *split);
const char *gs_split_name(int split);
uint64_t gs_param_count(const gs_shape *s);
uint64_t gs_weight_bytes(const gs_shape *s);
uint64_t gs_kv_bytes_per_token(const gs_shape *s);
uint64_t gs_activation_bytes(const gs_shape *s);
uint64_t gs_message_bytes(const gs_shape *s);
uint64_t gs_usable_bytes(const gs_gpu *g);
void gs_memory_per_gpu(const gs_shape *s, uint64_t n, gs_memory *out);
int gs_fits(const gs_shape *s, const gs_gpu *g, uint64_t n);
double gs_read_time(const gs_shape *s, const gs_gpu *g, uint64_t n);
double gs_compute_time(const gs_shape *s, const gs_gpu *g, uint64_t n, uint64_t words);
double gs_allreduce_time(uint64_t size, uint64_t n, const gs_link *l);
double gs_handoff_time(uint64_t size, const gs_link *l);
int gs_word_time(const gs_shape *s, const gs_gpu *g, const gs_link *l, uint64_t n,
                 int split, uint64_t words, gs_time *out);
int gs_best_n(const gs_shape *s, const gs_gpu *g, const gs_link *l, int split, uint64_t words,
              uint64_t max_n, int divide_heads, uint64_t *best);
int gs_fewest_n(const gs_shape *s, const gs_gpu *g, uint64_t max_n, uint64_t *fewest);

/* shape.c: a config.json's text to a shape; the error names the field. */
int gs_shape_parse(const char *json, size_t len, gs_shape *out, gs_error *err);

/* hardware.c: data/gpu.json and data/links.json text to structs. */
int gs_gpu_parse(const char *json, size_t len, gs_gpu *out, gs_error *err);
int gs_link_parse(const char *json, size_t len, const char *key, gs_link *out, char *label,
                  size_t label_cap, gs_error *err);

/* format.c: figures as text. Fixed-point rounds half-up on an exact tie, as JavaScript's
 * toFixed does. Each returns buf, cut to cap. */
char *gs_fixed(char *buf, size_t cap, double x, int places);
char *gs_fixed_grouped(char *buf, size_t cap, double x, int places);
char *gs_grouped(char *buf, size_t cap, uint64_t x);

/* data.c: the built-in models and hardware from data/, and the settings the widget offers. */
typedef struct {
  const char *key;  /* "8b" */
  const char *name; /* "8B" */
  const char *file; /* "llama31_8b_config.json" */
  const char *json; /* that file's text */
} gs_model_entry;

extern const gs_model_entry GS_MODELS[];
extern const size_t GS_MODEL_COUNT;
extern const char *const GS_LINK_KEYS[];
extern const size_t GS_LINK_COUNT;
extern const uint64_t GS_COUNTS[];
extern const size_t GS_COUNT_COUNT;
extern const uint64_t GS_WORDS[];
extern const size_t GS_WORDS_COUNT;
int gs_builtin_model(const char *key, gs_shape *out, gs_error *err);
int gs_builtin_gpu(gs_gpu *out, gs_error *err);
int gs_builtin_link(const char *key, gs_link *out, char *label, size_t label_cap, gs_error *err);

/* view.c: what a person sees for one setting, the same in the terminal and the widget. */
typedef struct {
  int fits;              /* 1 if the memory fits the usable memory */
  char memory[24];       /* total per GPU: "34.93 GiB" */
  char weights[24];      /* "32.85 GiB" */
  char cache[24];        /* "0.63 GiB" */
  char working[24];      /* "1.45 GiB" */
  char usable[24];       /* "73.6 GiB" */
  char time[24];         /* "18.94 ms", or "Does not fit" */
  char read[24];         /* "17.30 ms", or "" when it does not fit */
  char transfer[24];     /* "1.64 ms", or "" */
  char waiting[24];      /* "8.7%", or "" */
  char words_per_s[24];  /* "52.8", or "" */
  double mem_bar;        /* percent of the usable memory, at most 100 */
  double wait_bar;       /* percent of the time spent waiting; 0 when it does not fit */
} gs_view;

/* One row of the chart: one GPU count. */
typedef struct {
  uint64_t gpus;
  int fits;
  double read_bar;  /* percent of the slowest setting that fits */
  double wait_bar;
  char time[24];    /* "18.94 ms", or "Does not fit" */
} gs_chart_row;

int gs_view_make(const gs_shape *s, const gs_gpu *g, const gs_link *l, uint64_t n, int split,
                 uint64_t words, gs_view *out);
int gs_chart_make(const gs_shape *s, const gs_gpu *g, const gs_link *l, int split, uint64_t words,
                  const uint64_t *counts, size_t count_n, gs_chart_row *rows);

#endif
