/* `gpusplit report`'s flags: read, checked, and turned into a model, a GPU and a link. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char REPORT_HELP[] =
    "usage: gpusplit report [FLAGS]\n"
    "\n"
    "The fewest GPUs that fit, the best count, and for each count the memory per GPU and\n"
    "the time for one word, with the share of it spent waiting on the link.\n"
    "\n"
    "  --model NAME|PATH  a built-in model (gpusplit list models) or a Hugging Face\n"
    "                     config.json of a family the reader counts (default 70b)\n"
    "  --bits B           bits of every weight, 1 to 32 (default: as the config stores them)\n"
    "  --gpu-gib N        GPU memory in GiB (default 80)\n"
    "  --usable F         share of it a server may use, 0 < F <= 1 (default 0.92)\n"
    "  --gpu-bw B         bytes per second the GPU reads its memory (default 2.039e12)\n"
    "  --gpu-flops F      16-bit operations per second (default 312e12)\n"
    "  --link fast|slow   the lesson's NVLink-like or PCIe-like link (default fast)\n"
    "  --link-bw B        link bytes per second (overrides --link's)\n"
    "  --step-us U        latency of one ring step, microseconds (overrides --link's)\n"
    "  --base-us U        latency once per all-reduce, microseconds (default 6.6)\n"
    "  --split slices|groups  slices of every layer, or groups of layers (default slices)\n"
    "  --words N          words moving through together (default 1)\n"
    "  --counts LIST      GPU counts to show, comma-separated (default 1,2,4,8,16)\n"
    "  --max-n N          highest count the fewest and best searches try (default 64)\n"
    "  --json             one JSON object instead of the table\n"
    "\n"
    "Numbers may be written in any form strtod reads: 2.039e12, 600e9, 0.92.\n";

/* Help was printed: not an error, and nothing else to do. */
#define HELPED 1

static const char *const VALUE_FLAGS[] = {"--model", "--bits", "--gpu-gib", "--usable", "--gpu-bw", "--gpu-flops", "--link", "--link-bw",
                                          "--step-us", "--base-us", "--split", "--words", "--counts", "--max-n"};
enum { F_MODEL, F_BITS, F_GPU_GIB, F_USABLE, F_GPU_BW, F_GPU_FLOPS, F_LINK, F_LINK_BW, F_STEP_US, F_BASE_US, F_SPLIT, F_WORDS,
       F_COUNTS, F_MAX_N, F_COUNT };

/* A flag's value as a finite double, the whole text read. A value strtod cannot hold
 * (ERANGE) is named for what it is: too small (1e-310) or too large (1e400). */
static int parse_number(const char *flag, const char *text, double *out) {
  char *end;
  double x;
  if (text[0] == '\0' || isspace((unsigned char)text[0])) return cli_bad("%s: must be a number, not '%s'", flag, text);
  errno = 0;
  x = strtod(text, &end);
  if (*end != '\0') return cli_bad("%s: must be a number, not '%s'", flag, text);
  if (errno == ERANGE && fabs(x) <= 1) return cli_bad("%s: '%s' is too small to use", flag, text);
  if (errno == ERANGE) return cli_bad("%s: '%s' is too large: it must be a finite number", flag, text);
  if (!isfinite(x)) return cli_bad("%s: must be a finite number, not '%s'", flag, text);
  *out = x;
  return CLI_OK;
}

/* A flag's value as a whole number from 1 to max, written as digits alone: 4.0 and
 * 4.0000000000000001 are refused rather than rounded, as config.json's counts are. */
int cli_parse_whole(const char *flag, const char *text, uint64_t max, uint64_t *out) {
  uint64_t x = 0;
  size_t i;
  if (text[0] == '\0') return cli_bad("%s: must be a whole number, not ''", flag);
  for (i = 0; text[i] != '\0'; i++) {
    if (text[i] < '0' || text[i] > '9') return cli_bad("%s: must be a whole number written as digits, not '%s'", flag, text);
    if (x > max) continue; /* already too large; keep checking that it is all digits */
    x = x * 10 + (uint64_t)(text[i] - '0');
  }
  if (x < 1 || x > max) return cli_bad("%s: must be from 1 to %llu, not '%s'", flag, (unsigned long long)max, text);
  *out = x;
  return CLI_OK;
}

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

/* Reads the whole of path, NUL-terminated, into memory the caller frees. */
static int read_file(const char *path, char **text, size_t *len) {
  enum { MAX_BYTES = 4 << 20 };
  FILE *f = fopen(path, "rb");
  char *buf;
  size_t n;
  if (!f) return cli_bad("%s: cannot read it: %s", path, strerror(errno));
  buf = malloc(MAX_BYTES + 1);
  if (!buf) {
    fclose(f);
    return cli_bad("%s: out of memory", path);
  }
  n = fread(buf, 1, MAX_BYTES + 1, f);
  if (ferror(f)) {
    int e = errno;
    fclose(f);
    free(buf);
    return cli_bad("%s: cannot read it: %s", path, strerror(e));
  }
  fclose(f);
  if (n > MAX_BYTES) {
    free(buf);
    return cli_bad("%s: is larger than %d MiB, too large for a config.json", path, MAX_BYTES >> 20);
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return CLI_OK;
}

/* 1 unless opening path says it is not there (not there as a file: a name, then). */
static int file_exists(const char *path) {
  FILE *f;
  errno = 0;
  f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL || errno != ENOENT;
}

static int load_model(const char *model, cli_report_options *o) {
  const gs_model_entry *e = gs_find_model(model);
  gs_error err;
  char *text = NULL;
  size_t len = 0;
  int rc;
  if (e) {
    snprintf(o->model_name, sizeof o->model_name, "%s", e->name);
    snprintf(o->model_source, sizeof o->model_source, "data/models/%s", e->file);
    if (gs_builtin_model(e->key, o->bits, &o->model, &err) != GS_OK) return cli_bad_error(o->model_source, &err);
    return CLI_OK;
  }
  snprintf(o->model_name, sizeof o->model_name, "%s", model);
  snprintf(o->model_source, sizeof o->model_source, "%s", model);
  if (!strchr(model, '/') && !file_exists(model)) {
    char names[1024];
    size_t at = 0, i;
    names[0] = '\0';
    for (i = 0; i < GS_MODEL_COUNT && at < sizeof names; i++)
      at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", GS_MODELS[i].key);
    return cli_bad("--model: no built-in model is named '%s' and no file has that name (names: %s)", model, names);
  }
  if ((rc = read_file(model, &text, &len)) != CLI_OK) return rc;
  if (memchr(text, '\0', len)) {
    free(text);
    return cli_bad("%s: is not valid JSON: it holds a NUL byte", model);
  }
  rc = gs_model_parse(text, len, o->bits, &o->model, &err);
  free(text);
  return rc == GS_OK ? CLI_OK : cli_bad_error(model, &err);
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

/* Splits argv into flag values; --flag VALUE and --flag=VALUE both work. */
static int collect(int argc, char **argv, const char **values, int *json) {
  int i;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    int f;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      fputs(REPORT_HELP, stdout);
      return HELPED;
    }
    if (strcmp(arg, "--json") == 0) {
      *json = 1;
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

/* The GPU and link: the data's figures, then each flag given in place of one. */
static int load_hardware(const char **v, cli_report_options *o) {
  const char *link_key = v[F_LINK] ? v[F_LINK] : "fast";
  double *targets[] = {&o->gpu.gib, &o->gpu.usable, &o->gpu.bandwidth, &o->gpu.flops,
                       &o->link.bandwidth, &o->link.step_us, &o->link.base_us};
  const int flags[] = {F_GPU_GIB, F_USABLE, F_GPU_BW, F_GPU_FLOPS, F_LINK_BW, F_STEP_US, F_BASE_US};
  gs_error err;
  size_t i;
  int rc;
  if (gs_builtin_gpu(&o->gpu, &err) != GS_OK) return cli_bad_error("data/gpu.json", &err);
  if (strcmp(link_key, "fast") != 0 && strcmp(link_key, "slow") != 0)
    return cli_bad("--link: must be fast or slow, not '%s'", link_key);
  if (gs_builtin_link(link_key, &o->link, o->link_label, sizeof o->link_label, &err) != GS_OK)
    return cli_bad_error("data/links.json", &err);
  for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    if (!v[flags[i]]) continue;
    if ((rc = parse_number(VALUE_FLAGS[flags[i]], v[flags[i]], targets[i])) != CLI_OK) return rc;
    if (flags[i] >= F_LINK_BW) snprintf(o->link_label, sizeof o->link_label, "Custom link");
  }
  if (gs_gpu_check(&o->gpu, &err) != GS_OK || gs_link_check(&o->link, &err) != GS_OK)
    return cli_bad("%s: %s", flag_for(err.field), err.what);
  return CLI_OK;
}

/* Fills o from argv; returns CLI_OK, HELPED, or CLI_BAD_INPUT after printing why. */
int cli_report_parse(int argc, char **argv, cli_report_options *o) {
  const char *v[F_COUNT] = {0};
  gs_error err;
  int rc;
  memset(o, 0, sizeof *o);
  if ((rc = collect(argc, argv, v, &o->json)) != CLI_OK) return rc;
  if (v[F_BITS] && (rc = cli_parse_whole("--bits", v[F_BITS], 32, &o->bits)) != CLI_OK) return rc;
  if ((rc = load_model(v[F_MODEL] ? v[F_MODEL] : "70b", o)) != CLI_OK) return rc;
  if ((rc = load_hardware(v, o)) != CLI_OK) return rc;
  if (gs_split_parse(v[F_SPLIT] ? v[F_SPLIT] : "slices", &o->split) != GS_OK)
    return cli_bad("--split: must be slices or groups, not '%s'", v[F_SPLIT]);
  o->words = 1;
  if (v[F_WORDS] && (rc = cli_parse_whole("--words", v[F_WORDS], GS_MAX_WORDS, &o->words)) != CLI_OK) return rc;
  {
    gs_plan p;
    p.gpus = 1;
    p.split = o->split;
    p.words = o->words;
    if (gs_plan_check(&o->model, &p, &err) != GS_OK) return cli_bad("--words: %s", err.what);
  }
  o->max_n = 64;
  if (v[F_MAX_N] && (rc = cli_parse_whole("--max-n", v[F_MAX_N], GS_MAX_GPUS, &o->max_n)) != CLI_OK) return rc;
  if (v[F_COUNTS]) return parse_counts(v[F_COUNTS], o);
  for (o->count_n = 0; o->count_n < GS_COUNT_COUNT; o->count_n++) o->counts[o->count_n] = GS_COUNTS[o->count_n];
  return CLI_OK;
}
