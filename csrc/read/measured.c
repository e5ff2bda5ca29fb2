/* Measured all-reduce times, read from text (not a path, so a pasted log reads the same):
 * - the output of nccl-tests' all_reduce_perf (github.com/NVIDIA/nccl-tests, its README's
 *   "Performance" section: a header "size count type redop root time algbw busbw #wrong"
 *   for the out-of-place run, the same for the in-place one, one row a message size);
 * - the CSV tables of ../shared/reference/allreduce-measured (gpus, message_bytes, dtype,
 *   time_us, message_elements, nccl_version, source_dir, sweep), of which the 16-bit rows
 *   (half, bfloat16) of the first sweep from one source_dir.
 * Each row keeps its size in bytes and its time in microseconds; of an nccl-tests row, the
 * faster of the out-of-place and in-place runs, which do the same all-reduce (a slower
 * one has waited on something else: the H100 log's 32-byte row takes 68 us out of place
 * and 13.5 in place, between rows of 13 and 15). */
#include <string.h>

#include "internal.h"

typedef struct {
  const char *at, *end;
  size_t line; /* 1-based number of the line `at` starts */
} lines;

/* The next line (without its newline) into *start and *len; 0 at the end of the text. */
static int next_line(lines *l, const char **start, size_t *len) {
  const char *nl;
  if (l->at >= l->end) return 0;
  nl = memchr(l->at, '\n', (size_t)(l->end - l->at));
  *start = l->at;
  *len = (size_t)((nl ? nl : l->end) - l->at);
  if (*len > 0 && (*start)[*len - 1] == '\r') (*len)--;
  l->at = nl ? nl + 1 : l->end;
  l->line++;
  return 1;
}

/* Splits a line on `sep` (a space or tab run when sep is ' '), up to cap fields of at most
 * 63 bytes each; the field count, or -1 when a field is longer. */
static int split(const char *s, size_t len, char sep, char fields[][64], int cap) {
  size_t i = 0;
  int n = 0;
  while (i < len) {
    size_t start, k;
    if (sep == ' ')
      while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= len) break;
    start = i;
    while (i < len && (sep == ' ' ? (s[i] != ' ' && s[i] != '\t') : s[i] != sep)) i++;
    k = i - start;
    if (n < cap) {
      if (k > 63) return -1;
      memcpy(fields[n], s + start, k);
      fields[n][k] = '\0';
    }
    n++;
    if (sep != ' ') {
      if (i < len) i++; /* past the separator */
      if (i == len && s[len - 1] == sep && n < cap) fields[n++][0] = '\0';
    }
  }
  return n;
}

/* A whole number written as digits, up to 2^53. */
static int whole(const char *s, uint64_t *out) {
  uint64_t x = 0;
  size_t i;
  if (!s[0]) return 0;
  for (i = 0; s[i]; i++) {
    if (s[i] < '0' || s[i] > '9' || x > (UINT64_C(1) << 53) / 10) return 0;
    x = x * 10 + (uint64_t)(s[i] - '0');
  }
  *out = x;
  return 1;
}

/* A decimal number in JSON's grammar ("13.67", "62648", "1e3"), read exactly. */
static int decimal(const char *s, double *out) {
  size_t i = 0;
  if (s[i] == '-') i++;
  if (s[i] < '0' || s[i] > '9') return 0;
  while (s[i] >= '0' && s[i] <= '9') i++;
  if (s[i] == '.') {
    if (s[++i] < '0' || s[i] > '9') return 0;
    while (s[i] >= '0' && s[i] <= '9') i++;
  }
  if (s[i] == 'e' || s[i] == 'E') {
    i++;
    if (s[i] == '+' || s[i] == '-') i++;
    if (s[i] < '0' || s[i] > '9') return 0;
    while (s[i] >= '0' && s[i] <= '9') i++;
  }
  return s[i] == '\0' && gs_exact_decimal(s, out);
}

/* A time as measured: a positive, finite number of microseconds, from 0.01 (nccl-tests
 * prints two decimals) to a thousand seconds. Outside that range a row is not a
 * measurement, and its fit would print figures wider than any column (a bandwidth of 40
 * digits from rows of 1e-22 us). */
#define TIME_MIN_US 0.01
#define TIME_MAX_US 1e9
static int read_time(const char *s, size_t line, const char *what, double *out, gs_error *err) {
  if (!decimal(s, out) || !(*out > 0))
    return gs_fail(err, GS_ERR_RANGE, "", "line %zu: the %s time '%s' is not a positive number of microseconds", line, what, s);
  if (*out < TIME_MIN_US || *out > TIME_MAX_US)
    return gs_fail(err, GS_ERR_RANGE, "", "line %zu: the %s time '%s' is not from 0.01 to 1e9 microseconds", line, what, s);
  return GS_OK;
}

static int add_row(gs_measured *m, uint64_t bytes, double time_us, size_t line, gs_error *err) {
  if (m->count == GS_MEASURED_MAX) return gs_fail(err, GS_ERR_TOO_LONG, "", "has more than %d rows", GS_MEASURED_MAX);
  if (m->count > 0 && bytes <= m->rows[m->count - 1].bytes)
    return gs_fail(err, GS_ERR_SHAPE, "", "line %zu: %llu bytes does not follow %llu: rows from two runs", line,
                   (unsigned long long)bytes, (unsigned long long)m->rows[m->count - 1].bytes);
  m->rows[m->count].bytes = bytes;
  m->rows[m->count].time_us = time_us;
  m->count++;
  return GS_OK;
}

static int is_comment(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  return i < len && s[i] == '#';
}

static int contains(const char *s, size_t len, const char *word) {
  size_t n = strlen(word), i;
  for (i = 0; i + n <= len; i++)
    if (memcmp(s + i, word, n) == 0) return 1;
  return 0;
}

/* The bytes of one element of each type nccl-tests names (src/common.cu, test_typenames;
 * "char" and "int" in its older versions); 0 for a name it does not use. */
static uint64_t type_bytes(const char *type) {
  static const struct {
    const char *name;
    uint64_t bytes;
  } TYPES[] = {{"int8", 1},   {"uint8", 1},  {"char", 1},  {"f8e4m3", 1}, {"f8e5m2", 1}, {"half", 2},  {"bfloat16", 2},
               {"int32", 4},  {"uint32", 4}, {"int", 4},   {"float", 4},  {"int64", 8},  {"uint64", 8}, {"double", 8}};
  size_t i;
  for (i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
    if (strcmp(type, TYPES[i].name) == 0) return TYPES[i].bytes;
  return 0;
}

/* Half a unit in the last decimal a figure is printed with ("12.34": 0.005). */
static double half_unit(const char *s) {
  const char *dot = strchr(s, '.');
  double h = 0.5;
  if (dot)
    for (dot++; *dot >= '0' && *dot <= '9'; dot++) h /= 10;
  return h;
}

/* 1 unless the row's bus bandwidth is plainly not an all-reduce's: nccl-tests prints busbw =
 * algbw x 2(n-1)/n for all_reduce_perf, and algbw x 1 or x (n-1)/n for every other
 * collective (each test's GetBw in src/). Each figure is rounded to its printed decimals, so a row
 * is refused only when no rounding of the two reconciles them. With 2 GPUs, 2(n-1)/n is
 * 1, as sendrecv_perf's is, and the row cannot tell them apart. */
static int all_reduce_bus(const char *algbw, const char *busbw, uint64_t gpus) {
  double a, b, factor = (double)(2 * (gpus - 1)) / (double)gpus, gap;
  if (gpus < 2 || !decimal(algbw, &a) || !decimal(busbw, &b)) return 1;
  gap = b - a * factor;
  if (gap < 0) gap = -gap;
  return gap <= half_unit(busbw) + factor * half_unit(algbw) + 1e-9;
}

/* Which collective a row's layout is, when it is not all_reduce_perf's (size, count, type,
 * redop, root): nccl-tests prints every test's rows in the same columns (src/util.cu,
 * writeBenchmarkLinePreamble) but with its own redop, root and size-to-count ratio
 * (each test's GetCollByteCount in src/): all-reduce sums (redop sum) with no root (-1), and its
 * size is count x the type's bytes. GS_OK for an all-reduce; else a refusal that names the
 * collective the row's layout is. */
static int check_collective(char f[][64], size_t line, uint64_t bytes, uint64_t gpus, gs_error *err) {
  uint64_t count, unit = type_bytes(f[2]);
  if (unit == 0)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "", "line %zu: type '%s' is not one nccl-tests names (float, half, bfloat16, ...)", line, f[2]);
  if (strcmp(f[3], "none") == 0)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "",
                   "line %zu: the reduction is 'none': a collective that does not reduce (all_gather, alltoall, broadcast, gather, "
                   "scatter), not all_reduce_perf",
                   line);
  if (strcmp(f[3], "sum") != 0) return gs_fail(err, GS_ERR_UNSUPPORTED, "", "line %zu: the reduction is '%s', not sum", line, f[3]);
  if (strcmp(f[4], "-1") != 0)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "", "line %zu: root '%s': a collective to one GPU (reduce_perf), not all_reduce_perf", line, f[4]);
  if (!whole(f[1], &count)) return gs_fail(err, GS_ERR_JSON, "", "line %zu: the count '%s' is not a whole number", line, f[1]);
  if (gpus >= 2 && count > 0 && bytes / count == unit * gpus && bytes % count == 0)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "",
                   "line %zu: %llu bytes is %llu GPUs x %llu '%s' elements: reduce_scatter_perf's layout, not all_reduce_perf", line,
                   (unsigned long long)bytes, (unsigned long long)gpus, (unsigned long long)count, f[2]);
  if (count > UINT64_MAX / unit || count * unit != bytes)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "", "line %zu: %llu bytes is not %llu '%s' elements of %llu bytes: not all_reduce_perf's layout",
                   line, (unsigned long long)bytes, (unsigned long long)count, f[2], (unsigned long long)unit);
  if (!all_reduce_bus(f[6], f[7], gpus) || !all_reduce_bus(f[10], f[11], gpus))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "",
                   "line %zu: busbw %s is not algbw %s x 2(n-1)/n for %llu GPUs: not an all-reduce (sendrecv_perf's busbw is its algbw)",
                   line, f[7], f[6], (unsigned long long)gpus);
  return GS_OK;
}

/* One data row: size, count, type, redop, root, then time, algbw, busbw, #wrong for the
 * out-of-place and the in-place run; gpus is the count the rank lines gave (0: none yet). */
static int log_row(const char *s, size_t len, size_t line, uint64_t gpus, gs_measured *m, gs_error *err) {
  char f[14][64];
  int n = split(s, len, ' ', f, 14);
  uint64_t bytes, wrong;
  double out_time, in_time;
  int k, rc;
  if (n < 0) return gs_fail(err, GS_ERR_JSON, "", "line %zu: a field is longer than 63 characters", line);
  if (n < 13) return gs_fail(err, GS_ERR_JSON, "", "line %zu is cut short: %d fields, not 13", line, n);
  if (n > 13) return gs_fail(err, GS_ERR_JSON, "", "line %zu has %d fields, not 13", line, n);
  if (!whole(f[0], &bytes) || bytes == 0) return gs_fail(err, GS_ERR_JSON, "", "line %zu: the size '%s' is not a whole number of bytes", line, f[0]);
  if (m->type[0] == '\0') gs_format(m->type, sizeof m->type, "%s", f[2]);
  else if (strcmp(m->type, f[2]) != 0)
    return gs_fail(err, GS_ERR_SHAPE, "", "line %zu: type '%s' after '%s': rows from two runs", line, f[2], m->type);
  if ((rc = check_collective(f, line, bytes, gpus, err)) != GS_OK) return rc;
  if ((rc = read_time(f[5], line, "out-of-place", &out_time, err)) != GS_OK ||
      (rc = read_time(f[9], line, "in-place", &in_time, err)) != GS_OK)
    return rc;
  for (k = 8; k <= 12; k += 4) {
    if (strcmp(f[k], "N/A") == 0)
      return gs_fail(err, GS_ERR_UNSUPPORTED, "", "line %zu: #wrong is N/A: run all_reduce_perf with -c 1 so the results are checked", line);
    if (!whole(f[k], &wrong)) return gs_fail(err, GS_ERR_JSON, "", "line %zu: #wrong '%s' is not a count", line, f[k]);
    if (wrong != 0)
      return gs_fail(err, GS_ERR_RANGE, "", "line %zu: %llu wrong results at %llu bytes: the run's sums were wrong", line,
                     (unsigned long long)wrong, (unsigned long long)bytes);
  }
  return add_row(m, bytes, out_time < in_time ? out_time : in_time, line, err);
}

int gs_nccl_log_parse(const char *text, size_t len, gs_measured *out, gs_error *err) {
  lines l;
  const char *s;
  size_t n, bad;
  uint64_t ranks = 0, block = 0;
  int header = 0, in_devices = 0, rc;
  memset(out, 0, sizeof *out);
  if (len > GS_MEASURED_MAX_BYTES)
    return gs_fail(err, GS_ERR_TOO_LONG, "", "is larger than %u bytes, more than an all_reduce_perf log", (unsigned)GS_MEASURED_MAX_BYTES);
  if ((bad = gs_utf8_invalid_at(text, len)) < len || memchr(text, '\0', len))
    return gs_fail(err, GS_ERR_JSON, "", "is not an all_reduce_perf log: it is not text (byte %zu)", bad < len ? bad : (size_t)((const char *)memchr(text, '\0', len) - text));
  l.at = text;
  l.end = text + len;
  l.line = 0;
  while (next_line(&l, &s, &n)) {
    if (is_comment(s, n)) {
      if (contains(s, n, "Collective test starting:") && !contains(s, n, "all_reduce_perf"))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "", "line %zu: another collective's test, not all_reduce_perf's output", l.line);
      if (contains(s, n, "Using devices")) {
        in_devices = 1;
        block = 0;
      } else if (in_devices && contains(s, n, " Rank ")) {
        block++;
      } else if (in_devices) {
        in_devices = 0;
        if (ranks && block && block != ranks)
          return gs_fail(err, GS_ERR_SHAPE, "", "line %zu: rows from two GPU counts (%llu and %llu)", l.line,
                         (unsigned long long)ranks, (unsigned long long)block);
        if (block) ranks = block;
      }
      if (contains(s, n, "size") && contains(s, n, "redop") && contains(s, n, "busbw")) header = 1;
      continue;
    }
    if (in_devices && block) { /* a data row right after the rank lines */
      in_devices = 0;
      if (ranks && block != ranks)
        return gs_fail(err, GS_ERR_SHAPE, "", "line %zu: rows from two GPU counts (%llu and %llu)", l.line,
                       (unsigned long long)ranks, (unsigned long long)block);
      ranks = block;
    }
    if (n == 0 || (n == 1 && s[0] == ' ')) continue;
    if (!header) return gs_fail(err, GS_ERR_JSON, "", "is not an all_reduce_perf log: line %zu comes before its header", l.line);
    if ((rc = log_row(s, n, l.line, ranks, out, err)) != GS_OK) return rc;
  }
  if (!header) return gs_fail(err, GS_ERR_JSON, "", "is not an all_reduce_perf log: it has no 'size count type redop' header");
  if (ranks == 0) return gs_fail(err, GS_ERR_MISSING, "", "names no GPUs: it lacks the '# Using devices' rank lines");
  if (ranks < 2) return gs_fail(err, GS_ERR_RANGE, "", "ran on one GPU, which swaps with no one");
  out->gpus = ranks;
  return GS_OK;
}

int gs_measured_csv_parse(const char *text, size_t len, const char *source_dir, uint64_t gpus, gs_measured *out, gs_error *err) {
  static const char HEADER[] = "gpus,message_bytes,dtype,time_us,message_elements,nccl_version,source_dir,sweep";
  lines l;
  const char *s;
  size_t n, bad;
  memset(out, 0, sizeof *out);
  if (len > GS_MEASURED_MAX_BYTES)
    return gs_fail(err, GS_ERR_TOO_LONG, "", "is larger than %u bytes", (unsigned)GS_MEASURED_MAX_BYTES);
  if ((bad = gs_utf8_invalid_at(text, len)) < len) return gs_fail(err, GS_ERR_JSON, "", "is not text (byte %zu)", bad);
  l.at = text;
  l.end = text + len;
  l.line = 0;
  if (!next_line(&l, &s, &n) || n != sizeof HEADER - 1 || memcmp(s, HEADER, n) != 0)
    return gs_fail(err, GS_ERR_JSON, "", "is not a measured all-reduce table: its first line is not '%s'", HEADER);
  while (next_line(&l, &s, &n)) {
    char f[9][64];
    int k = split(s, n, ',', f, 9), rc;
    uint64_t row_gpus, bytes, sweep;
    double time_us;
    if (n == 0) continue;
    if (k != 8) return gs_fail(err, GS_ERR_JSON, "", "line %zu has %d fields, not 8", l.line, k);
    if (!whole(f[0], &row_gpus) || !whole(f[1], &bytes) || bytes == 0 || !whole(f[7], &sweep))
      return gs_fail(err, GS_ERR_JSON, "", "line %zu: gpus, message_bytes and sweep must be whole numbers", l.line);
    if ((rc = read_time(f[3], l.line, "measured", &time_us, err)) != GS_OK) return rc;
    /* 16-bit rows only: the model's messages are 16-bit numbers */
    if (row_gpus != gpus || sweep != 1 || strcmp(f[6], source_dir) != 0 || (strcmp(f[2], "half") != 0 && strcmp(f[2], "bfloat16") != 0))
      continue;
    if (out->type[0] == '\0') gs_format(out->type, sizeof out->type, "%s", f[2]);
    if ((rc = add_row(out, bytes, time_us, l.line, err)) != GS_OK) return rc;
  }
  if (out->count == 0)
    return gs_fail(err, GS_ERR_UNKNOWN, "", "has no rows for %llu GPUs from %s", (unsigned long long)gpus, source_dir);
  out->gpus = gpus;
  return GS_OK;
}
