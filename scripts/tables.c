/* Build tool: data/ as typed C tables, derived by the library's own readers (hardware.c,
 * config.c) from the JSON, so no build parses data/ at run time. Doubles are written as
 * hexadecimal floats (C11 6.4.4.2), so each reads back as the very double the reader made.
 *   build/tables --full    every GPU, link and catalogue model, with names and sources
 *                          (the command line and the tests)
 *   build/tables --module  the same without sources, which no page shows (the modules)
 *   build/tables --lesson  the lesson's GPU, its two links and its three models (the widget)
 *   build/tables --efficiency  data/efficiency.json's fitted figures and the measured
 *                          all-reduces data/allreduce.json names (the command line and the
 *                          explorer's module; the widget's prices at the peaks and the
 *                          lesson's all-reduce)
 * Every variant also holds what the lesson's widget offers (data/widget.json, offered()).
 * To add a figure to the tables: its line in gpu(), link() or model() below.
 * Usage: build/tables --full > build/tables.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "read/efficiency.h"

extern const char GS_DATA_widget_json[];
extern const char GS_DATA_gpus_json[];
extern const char GS_DATA_efficiency_json[];
extern const char GS_DATA_serving_json[];

enum { FULL, MODULE, LESSON, EFFICIENCY };

/* s as a C string literal. */
static void quoted(const char *s) {
  size_t i;
  putchar('"');
  for (i = 0; s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\' || c == '?') printf("\\%c", c); /* '?': no trigraphs */
    else if (c < 0x20 || c >= 0x7f) printf("\\%03o", c);
    else putchar(c);
  }
  putchar('"');
}

static void text(const char *name, const char *s) {
  printf("   .%s = ", name);
  quoted(s);
  printf(",\n");
}

static void u64(const char *name, uint64_t x) { printf("   .%s = UINT64_C(%llu),\n", name, (unsigned long long)x); }
static void dbl(const char *name, double x) { printf("   .%s = %a,\n", name, x); }

static void hardware_text(const gs_hardware_text *t, int mode) {
  printf("  {\n");
  text("key", t->key);
  text("name", mode == LESSON ? "" : t->name);
  text("link", t->link);
  text("source", mode == FULL ? t->source : "");
  printf("  },\n");
}

static int model(const gs_model_entry *e) {
  gs_model m;
  gs_error err;
  if (gs_builtin_model(e->key, 0, &m, &err) != GS_OK) {
    fprintf(stderr, "tables: %s: %s: %s\n", e->key, err.field, err.what);
    return 1;
  }
  printf("  {\n");
  text("type", m.type);
  u64("hidden", m.hidden);
  u64("layers", m.layers);
  u64("heads", m.heads);
  u64("kv_heads", m.kv_heads);
  u64("head_dim", m.head_dim);
  u64("vocab", m.vocab);
  u64("params", m.params);
  u64("stored_bytes", m.stored_bytes);
  u64("routed_params", m.routed_params);
  u64("routed_bytes", m.routed_bytes);
  u64("unread_params", m.unread_params);
  u64("table_params", m.table_params);
  u64("unread_bytes", m.unread_bytes);
  u64("experts", m.experts);
  u64("experts_per_token", m.experts_per_token);
  u64("moe_layers", m.moe_layers);
  u64("active_params", m.active_params);
  u64("cache_full_bytes", m.cache_full_bytes);
  u64("cache_window_bytes", m.cache_window_bytes);
  u64("read_topk", m.read_topk);
  u64("cache_index_bytes", m.cache_index_bytes);
  u64("window", m.window);
  printf("   .cache_latent = %d,\n", m.cache_latent);
  u64("ffn_width", m.ffn_width);
  u64("max_len", m.max_len);
  printf("   .routed_mxfp4 = %d,\n", m.routed_mxfp4);
  text("note", m.note);
  printf("  },\n");
  return 0;
}

static int gpu(const char *key, int mode) {
  gs_gpu g;
  gs_hardware_text t;
  gs_error err;
  memset(&t, 0, sizeof t);
  if (gs_builtin_gpu(key, &g, &t, &err) != GS_OK) return fprintf(stderr, "tables: gpu %s: %s\n", key, err.what), 1;
  printf(" {{\n");
  dbl("gib", g.gib);
  dbl("usable", g.usable);
  dbl("bandwidth", g.bandwidth);
  dbl("flops", g.flops);
  dbl("flops_fp8", g.flops_fp8);
  printf("   .arch = %d,\n   .per_server = %d,\n   .compute_capability = %d,\n   .nvlinks = %d,\n", g.arch, g.per_server,
         g.compute_capability, g.nvlinks);
  dbl("ring_bw", g.ring_bw);
  dbl("flops_fp4", g.flops_fp4);
  printf("  },\n");
  hardware_text(&t, mode);
  printf(" },\n");
  return 0;
}

static int link(const char *key, int mode) {
  gs_link l;
  gs_hardware_text t;
  gs_error err;
  memset(&t, 0, sizeof t); /* a link has no "link" text: none is read into it */
  if (gs_builtin_link(key, &l, &t, &err) != GS_OK) return fprintf(stderr, "tables: link %s: %s\n", key, err.what), 1;
  printf(" {{\n");
  dbl("bandwidth", l.bandwidth);
  dbl("step_us", l.step_us);
  dbl("base_us", l.base_us);
  printf("   .kind = %d,\n", l.kind);
  dbl("ring_bw", l.ring_bw);
  printf("  },\n");
  hardware_text(&t, mode);
  printf(" },\n");
  return 0;
}

/* A GPU's place in the efficiency fit: its generation and the runs' names for it. */
static int gpu_fit(const char *key, int mode) {
  gs_gpu_fit_text t;
  gs_error err;
  size_t i;
  (void)mode;
  if (gs_gpu_fit_parse(GS_DATA_gpus_json, strlen(GS_DATA_gpus_json), key, &t, &err) != GS_OK)
    return fprintf(stderr, "tables: gpu %s: %s: %s\n", key, err.field, err.what), 1;
  printf(" {\n");
  text("key", key);
  text("generation", t.generation);
  printf("   .measured_as = {");
  for (i = 0; i < t.measured_count; i++) {
    if (i) printf(", ");
    quoted(t.measured_as[i]);
  }
  if (!t.measured_count) printf("NULL");
  printf("},\n },\n");
  return 0;
}

/* data/serving.json as GS_SERVING_TABLE, read by its own reader (csrc/read/serving.c), in
 * the same generated file as the efficiency: every build that links one links both. */
static int serving(void) {
  static gs_serving_table t;
  gs_error err;
  size_t i;
  if (gs_serving_read(GS_DATA_serving_json, &t, &err) != GS_OK)
    return fprintf(stderr, "tables: data/serving.json: %s: %s\n", err.field, err.what), 1;
  printf("\nconst gs_serving_table GS_SERVING_TABLE = {\n .f = {\n");
  for (i = 0; i < t.count; i++)
    printf("  {.kind = %d, .flops_share = %a, .seq_us = %a, .overlap_share = %a, .request_us = %a, .rows = UINT64_C(%llu)},\n",
           t.f[i].kind, t.f[i].flops_share, t.f[i].seq_us, t.f[i].overlap_share, t.f[i].request_us,
           (unsigned long long)t.f[i].rows);
  if (!t.count) printf("  {.kind = 0},\n"); /* no empty braces in ISO C */
  printf(" },\n .count = %zu,\n", t.count);
  text("summary", t.summary);
  printf("};\n");
  return 0;
}

/* data/efficiency.json as a fit_result (csrc/read/efficiency.h), read by its own reader. */
static int efficiency(void) {
  static fit_result fr;
  static jsmntok_t toks[GS_JSON_TOKENS];
  gs_error err;
  size_t i;
  int g;
  if (gs_efficiency_read(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), toks, GS_JSON_TOKENS, &fr, &err) != GS_OK)
    return fprintf(stderr, "tables: data/efficiency.json: %s: %s\n", err.field, err.what), 1;
  printf("/* Generated by scripts/tables.c from data/efficiency.json: do not edit. */\n#include \"read/efficiency.h\"\n\n");
  printf("const fit_result GS_EFFICIENCY_TABLE = {\n .f = {\n");
  for (i = 0; i < fr.count; i++) {
    const fit_figure *f = &fr.f[i];
    printf("  {\n");
    text("engine", f->engine);
    text("generation", f->generation);
    text("sources", f->sources);
#define FIGURE(member, kind, flag) dbl("e." #member, f->e.member);
    GS_EFFICIENCY_FIELDS(FIGURE)
#undef FIGURE
    u64("runs", f->runs);
    dbl("median_error", f->median_error);
    dbl("left_out_error", f->left_out_error);
    printf("   .allreduce_fitted = %d,\n   .pooled = %d,\n  },\n", f->allreduce_fitted, f->pooled);
  }
  printf(" },\n .count = %zu,\n", fr.count);
  text("median_engine", fr.median_engine);
  printf(" .ar = {.us = {");
  for (g = 0; g < FIT_GEN_COUNT; g++) printf("%s%a", g ? ", " : "", fr.ar.us[g]);
  printf("}, .rows = {");
  for (g = 0; g < FIT_GEN_COUNT; g++) printf("%s%zu", g ? ", " : "", fr.ar.rows[g]);
  printf("}},\n .startup_runs = {");
  for (g = 0; g < GS_GENERATION_COUNT; g++) printf("%s%zu", g ? ", " : "", fr.startup_runs[g]);
  printf("},\n};\n");
  return serving();
}

/* A file's whole text, NUL-terminated, into buf; its length, or (size_t)-1 when it cannot. */
static size_t file_text(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  size_t n;
  if (!f) return (size_t)-1;
  n = fread(buf, 1, cap - 1, f);
  if (ferror(f) || !feof(f)) n = (size_t)-1;
  fclose(f);
  if (n != (size_t)-1) buf[n] = '\0';
  return n;
}

/* One entry of data/allreduce.json's "tables" into t: its texts, and every GPU count its
 * source_dir measured (read by the library's own reader, gs_measured_csv_parse), each at
 * the same sizes. The GPU and link must be the catalogue's, the link the GPU's own. */
static int allreduce_entry(const gs_json *j, int at, char texts[4][128], gs_allreduce_table *t) {
  static const char *const KEYS[4] = {"gpu", "link", "file", "source_dir"};
  static char csv[GS_MEASURED_MAX_BYTES];
  static gs_measured m;
  gs_gpu g;
  gs_hardware_text h;
  gs_error err;
  size_t len, k;
  uint64_t n;
  int f;
  memset(t, 0, sizeof *t);
  for (f = 0; f < 4; f++) {
    int v = gs_json_find(j, at, KEYS[f]);
    if (v < 0 || j->toks[v].type != JSMN_STRING || gs_json_string(j, v, texts[f], 128) == (size_t)-1)
      return fprintf(stderr, "tables: data/allreduce.json: each table needs \"%s\", a string\n", KEYS[f]), 1;
  }
  if (gs_builtin_gpu(texts[0], &g, &h, &err) != GS_OK || strcmp(h.link, texts[1]) != 0)
    return fprintf(stderr, "tables: data/allreduce.json: %s is not a catalogue GPU whose own link is %s\n", texts[0], texts[1]), 1;
  if ((len = file_text(texts[2], csv, sizeof csv)) == (size_t)-1)
    return fprintf(stderr, "tables: data/allreduce.json: cannot read %s (run from the repository's top)\n", texts[2]), 1;
  for (n = 2; n <= GS_MAX_GPUS && t->counts < GS_AR_COUNTS_MAX; n++) {
    if (gs_measured_csv_parse(csv, len, texts[3], n, &m, &err) != GS_OK) {
      if (err.code == GS_ERR_UNKNOWN) continue; /* no rows at this count */
      return fprintf(stderr, "tables: %s: %s %s\n", texts[2], err.field, err.what), 1;
    }
    if (m.count < 2 || m.count > GS_AR_SIZES_MAX || (t->counts && m.count != t->sizes))
      return fprintf(stderr, "tables: %s: %llu GPUs: 2 to %d sizes, the same at every count\n", texts[2], (unsigned long long)n, GS_AR_SIZES_MAX), 1;
    for (k = 0; k < m.count; k++) {
      if ((t->counts && t->bytes[k] != m.rows[k].bytes) || (k && m.rows[k].bytes <= m.rows[k - 1].bytes))
        return fprintf(stderr, "tables: %s: the sizes differ between counts or do not rise\n", texts[2]), 1;
      t->bytes[k] = m.rows[k].bytes;
      t->us[t->counts][k] = m.rows[k].time_us;
    }
    t->sizes = m.count;
    t->gpus[t->counts++] = n;
  }
  if (!t->counts) return fprintf(stderr, "tables: %s: no 16-bit rows from %s\n", texts[2], texts[3]), 1;
  return 0;
}

/* data/allreduce.json's tables as GS_ALLREDUCE_TABLE (internal.h's gs_allreduce_table). */
static int allreduce(void) {
  static char json[1 << 16];
  static jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_error err;
  size_t len, i, c, k;
  int list, at, n = 0;
  if ((len = file_text("data/allreduce.json", json, sizeof json)) == (size_t)-1 ||
      gs_json_parse(json, len, toks, GS_JSON_TOKENS, &j, &err) != GS_OK || (list = gs_json_find(&j, 0, "tables")) < 0 ||
      toks[list].type != JSMN_ARRAY)
    return fprintf(stderr, "tables: data/allreduce.json: cannot be read, or has no \"tables\" array\n"), 1;
  printf("\nconst gs_allreduce_table GS_ALLREDUCE_TABLE[] = {\n");
  for (i = 0, at = list + 1; i < (size_t)toks[list].size; i++, at = gs_json_next(&j, at), n++) {
    char texts[4][128];
    gs_allreduce_table t;
    if (allreduce_entry(&j, at, texts, &t)) return 1;
    printf("  {\n");
    text("gpu", texts[0]);
    text("link", texts[1]);
    text("file", texts[2]);
    text("source_dir", texts[3]);
    printf("   .counts = %zu,\n   .sizes = %zu,\n   .gpus = {", t.counts, t.sizes);
    for (c = 0; c < t.counts; c++) printf("%sUINT64_C(%llu)", c ? ", " : "", (unsigned long long)t.gpus[c]);
    printf("},\n   .bytes = {");
    for (k = 0; k < t.sizes; k++) printf("%sUINT64_C(%llu)", k ? ", " : "", (unsigned long long)t.bytes[k]);
    printf("},\n   .us = {");
    for (c = 0; c < t.counts; c++) {
      printf("%s{", c ? ", " : "");
      for (k = 0; k < t.sizes; k++) printf("%s%a", k ? ", " : "", t.us[c][k]);
      printf("}");
    }
    printf("},\n  },\n");
  }
  printf("};\nconst size_t GS_ALLREDUCE_TABLE_COUNT = %d;\n", n);
  return 0;
}

/* Each key of a catalogue ("a, b, c", as gs_builtin_keys writes them) through one. */
static int each(const char *array, int mode, int (*one)(const char *, int)) {
  char keys[4096], key[64];
  const char *at = keys;
  gs_error err;
  size_t n = 0;
  if (gs_builtin_keys(array, keys, sizeof keys, &err) != GS_OK) return fprintf(stderr, "tables: %s: %s\n", array, err.what), 1;
  while (*at) {
    size_t len = strcspn(at, ",");
    if (len >= sizeof key) return fprintf(stderr, "tables: a key of %s is too long\n", array), 1;
    memcpy(key, at, len);
    key[len] = '\0';
    at += len;
    while (*at == ',' || *at == ' ') at++;
    /* the lesson's module holds its GPU and its two links alone */
    if (mode == LESSON && strcmp(key, "lesson") != 0 && strcmp(key, "fast") != 0 && strcmp(key, "slow") != 0) continue;
    if (one(key, mode)) return 1;
    n++;
  }
  printf("};\nconst size_t GS_%s_TABLE_COUNT = %zu;\n\n", one == gpu_fit ? "GPU_FIT" : strcmp(array, "gpus") == 0 ? "GPU" : "LINK", n);
  return 0;
}

/* One value of data/widget.json as text: a key of under 16 bytes, or a whole number from 1
 * to 65,536 written in digits. 0, or 1 when it is neither. */
static int value_text(const gs_json *j, int at, int strings, char out[16]) {
  double x;
  gs_error err;
  if (strings) return j->toks[at].type != JSMN_STRING || gs_json_string(j, at, out, 16) == (size_t)-1;
  if (gs_json_number(j, at, "value", &x, &err) != GS_OK || !(x >= 1 && x <= 65536) || x != (double)(uint64_t)x) return 1;
  snprintf(out, 16, "%llu", (unsigned long long)x);
  return 0;
}

/* One offered list of data/widget.json ("gpus", "link", "words"): its "offered" values in
 * order (numbers rising), and its "default" among them. Prints why not and returns 1. */
static int offered_list(const gs_json *j, const char *field, int strings, char values[][16], size_t cap, size_t *n) {
  int at = gs_json_find(j, 0, field), list, item, k;
  char def[16];
  size_t i;
  *n = 0;
  if (at < 0 || (list = gs_json_find(j, at, "offered")) < 0 || j->toks[list].type != JSMN_ARRAY || j->toks[list].size < 1 ||
      (size_t)j->toks[list].size > cap || (item = gs_json_find(j, at, "default")) < 0)
    return fprintf(stderr, "tables: data/widget.json: %s needs \"offered\" (1 to %zu) and \"default\"\n", field, cap), 1;
  for (k = 0, at = list + 1; k < j->toks[list].size; k++, at = gs_json_next(j, at), (*n)++)
    if (value_text(j, at, strings, values[*n]) ||
        (!strings && *n > 0 && !(strtoull(values[*n], NULL, 10) > strtoull(values[*n - 1], NULL, 10))))
      return fprintf(stderr, "tables: data/widget.json: %s: each offered is %s\n", field,
                     strings ? "a key of under 16 bytes" : "a whole number from 1 to 65,536, rising"), 1;
  if (!value_text(j, item, strings, def))
    for (i = 0; i < *n; i++)
      if (strcmp(values[i], def) == 0) return 0;
  return fprintf(stderr, "tables: data/widget.json: %s: default is not one it offers\n", field), 1;
}

/* What the lesson's widget offers (data/widget.json): GS_COUNTS (at most GS_OFFERED_MAX,
 * the chart's), GS_LINK_KEYS (each a link of data/links.json) and GS_WORDS. */
static int offered(void) {
  static jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  gs_error err;
  char counts[16][16], links[8][16], words[16][16];
  size_t nc, nl, nw, i;
  if (gs_json_parse(GS_DATA_widget_json, strlen(GS_DATA_widget_json), toks, GS_JSON_TOKENS, &j, &err) != GS_OK)
    return fprintf(stderr, "tables: data/widget.json: %s: %s\n", err.field, err.what), 1;
  if (offered_list(&j, "gpus", 0, counts, 16, &nc) || offered_list(&j, "link", 1, links, 8, &nl) ||
      offered_list(&j, "words", 0, words, 16, &nw))
    return 1;
  if (strtoull(counts[nc - 1], NULL, 10) > GS_OFFERED_MAX)
    return fprintf(stderr, "tables: data/widget.json: gpus: the chart holds counts up to %d\n", GS_OFFERED_MAX), 1;
  for (i = 0; i < nl; i++)
    if (gs_builtin_link(links[i], &(gs_link){0}, NULL, &err) != GS_OK)
      return fprintf(stderr, "tables: data/widget.json: link '%s': %s\n", links[i], err.what), 1;
  printf("/* What the lesson's widget offers: data/widget.json. */\nconst uint64_t GS_COUNTS[] = {");
  for (i = 0; i < nc; i++) printf("%s%s", i ? ", " : "", counts[i]);
  printf("};\nconst size_t GS_COUNT_COUNT = %zu;\nconst char *const GS_LINK_KEYS[] = {", nc);
  for (i = 0; i < nl; i++) printf("%s\"%s\"", i ? ", " : "", links[i]);
  printf("};\nconst size_t GS_LINK_COUNT = %zu;\nconst uint64_t GS_WORDS[] = {", nl);
  for (i = 0; i < nw; i++) printf("%s%s", i ? ", " : "", words[i]);
  printf("};\nconst size_t GS_WORDS_COUNT = %zu;\n\n", nw);
  return 0;
}

int main(int argc, char **argv) {
  int mode = argc == 2 && strcmp(argv[1], "--module") == 0       ? MODULE
             : argc == 2 && strcmp(argv[1], "--lesson") == 0     ? LESSON
             : argc == 2 && strcmp(argv[1], "--efficiency") == 0 ? EFFICIENCY
                                                                 : FULL;
  size_t i;
  if (argc != 2 || (mode == FULL && strcmp(argv[1], "--full") != 0)) {
    fprintf(stderr, "usage: build/tables --full|--module|--lesson|--efficiency > TABLES.c\n");
    return 2;
  }
  if (mode == EFFICIENCY) return efficiency() || allreduce();
  printf("/* Generated by scripts/tables.c from data/: do not edit. */\n#include \"internal.h\"\n\n");
  if (offered()) return 1;
  printf("const gs_gpu_entry GS_GPU_TABLE[] = {\n");
  if (each("gpus", mode, gpu)) return 1;
  /* the fit's generations and the runs' names: the lesson's module fits nothing */
  if (mode != LESSON) printf("const gs_gpu_fit_entry GS_GPU_FIT_TABLE[] = {\n");
  if (mode != LESSON && each("gpus", mode, gpu_fit)) return 1;
  printf("const gs_link_entry GS_LINK_TABLE[] = {\n");
  if (each("links", mode, link)) return 1;
  /* the models in the order of GS_MODELS (the catalogue the same build links) */
  printf("const gs_model GS_MODEL_TABLE[] = {\n");
  for (i = 0; i < GS_MODEL_COUNT; i++)
    if ((mode != LESSON || GS_MODELS[i].lesson) && model(&GS_MODELS[i])) return 1;
  printf("};\n");
  return 0;
}
