/* Measured decode runs (gs_runs_parse): the CSV of ../shared/reference/decode-measured/
 * runs.csv, read from text. Fields follow RFC 4180: separated by commas, a field in double
 * quotes may hold commas, newlines and "" for a quote. The header names the columns in
 * any order; unknown columns are passed over. Every row must have the header's number of
 * fields. Numbers: counts as digits; times and bits as decimals in JSON's grammar, each cell
 * read whole or refused (gs_read_number, number.c). */
#include <string.h>

#include "internal.h"

enum { C_ID, C_MODEL, C_REPO, C_WBITS, C_KVBITS, C_GPU, C_GPUS, C_TP, C_PP, C_EP, C_BATCH, C_IN, C_OUT, C_ITL, C_TTFT,
       C_SOFTWARE, C_INTERCONNECT, C_SOURCE, C_NOTE, C_KNOWN };
static const char *const COLUMNS[C_KNOWN] = {"id", "model", "hf_repo", "weight_bits", "kv_bits", "gpu", "gpus", "tp", "pp", "ep",
                                             "batch", "input_tokens", "output_tokens", "itl_ms", "ttft_ms", "software",
                                             "interconnect", "source", "note"};
static const int REQUIRED[] = {C_ID, C_REPO, C_WBITS, C_GPU, C_TP, C_BATCH, C_ITL};

#define MAX_COLUMNS GS_RUNS_COLUMNS
#define FIELD_CAP GS_CSV_FIELD_CAP
typedef gs_csv csv;

/* The next record's fields into f (a field of FIELD_CAP bytes or more is refused), their
 * count into *n; 0 at the end of the text, -1 on a bad quote. Also the serving runs'
 * reader's (serving_runs.c). */
int gs_csv_record(gs_csv *c, char f[][GS_CSV_FIELD_CAP], int cap, int *n, gs_error *err) {
  int count = 0;
  if (c->at >= c->end) return 0;
  c->line = c->next_line;
  for (;;) {
    size_t k = 0;
    int quoted = 0;
    if (c->at < c->end && *c->at == '"') {
      quoted = 1;
      c->at++;
    }
    for (;;) {
      char ch;
      if (c->at >= c->end) {
        if (quoted) return gs_fail(err, GS_ERR_JSON, "runs", "line %zu: a quoted field is not closed", c->line), -1;
        break;
      }
      ch = *c->at;
      if (quoted && ch == '"') {
        if (c->at + 1 < c->end && c->at[1] == '"') c->at++; /* "" is a quote */
        else {
          c->at++;
          if (c->at < c->end && *c->at != ',' && *c->at != '\n' && *c->at != '\r')
            return gs_fail(err, GS_ERR_JSON, "runs", "line %zu: text after a closing quote", c->line), -1;
          quoted = 0;
          continue;
        }
      } else if (!quoted && (ch == ',' || ch == '\n' || ch == '\r')) break;
      else if (!quoted && ch == '"') return gs_fail(err, GS_ERR_JSON, "runs", "line %zu: a quote inside an unquoted field", c->line), -1;
      if (ch == '\n') c->next_line++;
      if (count < cap) {
        if (k + 1 >= FIELD_CAP) return gs_fail(err, GS_ERR_TOO_LONG, "runs", "line %zu: a field is longer than %d bytes", c->line, FIELD_CAP - 1), -1;
        f[count][k++] = ch;
      }
      c->at++;
    }
    if (count < cap) f[count][k] = '\0';
    count++;
    if (c->at < c->end && *c->at == ',') {
      c->at++;
      continue;
    }
    if (c->at < c->end && *c->at == '\r') c->at++;
    if (c->at < c->end && *c->at == '\n') c->at++;
    c->next_line++;
    break;
  }
  if (count > cap) return gs_fail(err, GS_ERR_TOO_LONG, "runs", "line %zu: more than %d fields", c->line, cap), -1;
  *n = count;
  return 1;
}

static int blank(char f[][FIELD_CAP], int n) { return n == 1 && f[0][0] == '\0'; }

/* A count written as digits, at most 2^40 (far above any real run's), 0 when empty and
 * allowed to be. */
static int count_field(const char *s, const char *name, size_t line, int may_be_empty, uint64_t min, uint64_t *out, gs_error *err) {
  uint64_t x = 0;
  size_t i;
  if (!s[0]) {
    if (may_be_empty) return *out = 0, GS_OK;
    return gs_fail(err, GS_ERR_MISSING, name, "line %zu: is empty", line);
  }
  for (i = 0; s[i]; i++) {
    if (s[i] < '0' || s[i] > '9' || x > (UINT64_C(1) << 40)) return gs_fail(err, GS_ERR_RANGE, name, "line %zu: must be a whole number written as digits, from %llu to 2^40", line, (unsigned long long)min);
    x = x * 10 + (uint64_t)(s[i] - '0');
  }
  if (x < min || x > (UINT64_C(1) << 40)) return gs_fail(err, GS_ERR_RANGE, name, "line %zu: must be a whole number from %llu to 2^40", line, (unsigned long long)min);
  *out = x;
  return GS_OK;
}

/* A time from a microsecond to a day: no GPU step is shorter than a microsecond, and the
 * fit divides by a time's square, which a shorter one (1e-300) would take to 0. */
#define TIME_MIN_MS 0.001
#define TIME_MAX_MS 86400000.0
#define TIME_MUST "must be milliseconds from 0.001 (a microsecond) to 86400000 (a day), written as a decimal (6.43, 1.5e3)"
#define BITS_MUST "must be bits from 1 to 32, written as a decimal (4, 2.5)"

/* A decimal cell read whole (gs_read_number), or refused naming the column and the line,
 * quoting a cell of up to 40 bytes, and saying what it must be. */
static int decimal_cell(const char *s, const char *name, size_t line, const char *must, double *out, gs_error *err) {
  int rc = gs_read_number(s, out);
  if (rc == GS_NUMBER_OK) return GS_OK;
  if (rc == GS_NUMBER_NOT && strlen(s) <= 40) return gs_fail(err, GS_ERR_RANGE, name, "line %zu: '%s' is not a number: %s", line, s, must);
  if (rc == GS_NUMBER_NOT) return gs_fail(err, GS_ERR_RANGE, name, "line %zu: the cell is not a number: %s", line, must);
  return gs_fail(err, GS_ERR_RANGE, name, "line %zu: %s", line, must);
}

/* Milliseconds from TIME_MIN_MS to TIME_MAX_MS; 0 when empty and allowed. */
static int time_field(const char *s, const char *name, size_t line, int may_be_empty, double *out, gs_error *err) {
  int rc;
  if (!s[0]) {
    if (may_be_empty) return *out = 0, GS_OK;
    return gs_fail(err, GS_ERR_MISSING, name, "line %zu: is empty", line);
  }
  if ((rc = decimal_cell(s, name, line, TIME_MUST, out, err)) != GS_OK) return rc;
  if (!(*out >= TIME_MIN_MS) || !(*out <= TIME_MAX_MS)) return gs_fail(err, GS_ERR_RANGE, name, "line %zu: %s", line, TIME_MUST);
  return GS_OK;
}

/* Bits a weight: empty (not stated, 0) or a decimal from 1 to 32 (EXL2 states 2.5). */
static int bits_field(const char *s, size_t line, double *out, gs_error *err) {
  int rc;
  if (!s[0]) return *out = 0, GS_OK;
  if ((rc = decimal_cell(s, "weight_bits", line, BITS_MUST, out, err)) != GS_OK) return rc;
  if (!(*out >= 1) || !(*out <= 32)) return gs_fail(err, GS_ERR_RANGE, "weight_bits", "line %zu: %s", line, BITS_MUST);
  return GS_OK;
}

/* A cell kept whole in dst (cap bytes with its NUL), or refused naming its column. */
static int keep(char *dst, size_t cap, const char *src, const char *name, size_t line, gs_error *err) {
  size_t n = strlen(src);
  if (n >= cap) return gs_fail(err, GS_ERR_TOO_LONG, name, "line %zu: is %zu bytes, longer than the %zu this reader keeps", line, n, cap - 1);
  memcpy(dst, src, n + 1);
  return GS_OK;
}

static int letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Whether text holds word at the start of one of its words, letters compared without case
 * ("MTP" but not "smtp"). */
static int mentions(const char *text, const char *word) {
  size_t i, n = strlen(word);
  const char *start = text;
  for (; *text; text++) {
    if (text > start && letter(text[-1])) continue;
    for (i = 0; i < n && gs_ascii_lower(text[i]) == gs_ascii_lower(word[i]); i++) {}
    if (i == n) return 1;
  }
  return 0;
}

/* Whether a note says the run drafted words ahead (speculative decoding: a draft model,
 * EAGLE, Medusa, multi-token prediction), which gives several words a step; "no MTP/
 * speculation" (S10) says it did not. */
static int speculative(const char *note) {
  static const char *const SAYS[] = {"speculat", "draft model", "eagle", "medusa", "mtp"};
  static const char *const DENIES[] = {"no mtp", "no specul", "without specul", "without mtp", "no draft"};
  size_t i;
  for (i = 0; i < sizeof DENIES / sizeof DENIES[0]; i++)
    if (mentions(note, DENIES[i])) return 0;
  for (i = 0; i < sizeof SAYS / sizeof SAYS[0]; i++)
    if (mentions(note, SAYS[i])) return 1;
  return 0;
}

/* The note's leading tag, a capital letter and digits before a ';' ("S7", "H1"), else the
 * source cell, kept whole or refused. */
int gs_run_source(const char *note, const char *source, size_t line, char *out, size_t cap, gs_error *err) {
  size_t i = 1;
  if (note[0] >= 'A' && note[0] <= 'Z') {
    while (note[i] >= '0' && note[i] <= '9') i++;
    if (i > 1 && (note[i] == ';' || note[i] == '\0')) {
      if (i >= cap) return gs_fail(err, GS_ERR_TOO_LONG, "note", "line %zu: its source tag is %zu bytes, longer than the %zu this reader keeps", line, i, cap - 1);
      memcpy(out, note, i);
      out[i] = '\0';
      return GS_OK;
    }
  }
  return keep(out, cap, source, "source", line, err);
}

/* One row's cells (v, by column) into r; prev is the run before it (NULL for the first). */
static int read_run(const char *const *v, size_t line, const gs_run *prev, gs_run *r, gs_error *err) {
  int rc;
  memset(r, 0, sizeof *r);
  if (!v[C_ID][0]) return gs_fail(err, GS_ERR_MISSING, "id", "line %zu: is empty", line);
  if (!v[C_REPO][0] && !v[C_MODEL][0]) return gs_fail(err, GS_ERR_MISSING, "hf_repo", "line %zu: is empty, and so is model", line);
  if (!v[C_GPU][0]) return gs_fail(err, GS_ERR_MISSING, "gpu", "line %zu: is empty", line);
  if ((rc = keep(r->id, sizeof r->id, v[C_ID], "id", line, err)) != GS_OK ||
      (rc = keep(r->model, sizeof r->model, v[C_MODEL], "model", line, err)) != GS_OK ||
      (rc = keep(r->repo, sizeof r->repo, v[C_REPO], "hf_repo", line, err)) != GS_OK ||
      (rc = keep(r->gpu, sizeof r->gpu, v[C_GPU], "gpu", line, err)) != GS_OK ||
      (rc = keep(r->software, sizeof r->software, v[C_SOFTWARE], "software", line, err)) != GS_OK ||
      (rc = keep(r->interconnect, sizeof r->interconnect, v[C_INTERCONNECT], "interconnect", line, err)) != GS_OK ||
      (rc = gs_run_source(v[C_NOTE], v[C_SOURCE], line, r->source, sizeof r->source, err)) != GS_OK)
    return rc;
  r->derived = strstr(v[C_NOTE], "derived") != NULL;
  r->serving = strstr(v[C_NOTE], "concurrency") != NULL;
  r->random_weights = strstr(v[C_NOTE], "random (fake) weights") != NULL || strstr(v[C_NOTE], "dummy weights") != NULL;
  r->speculative = speculative(v[C_NOTE]) || speculative(v[C_SOFTWARE]);
  /* a note "as previous row with ..." (S11's FP8-cache row) was measured the previous
   * row's way: it keeps that row's method */
  if (prev && strstr(v[C_NOTE], "as previous row")) {
    r->derived |= prev->derived;
    r->serving |= prev->serving;
    r->random_weights |= prev->random_weights;
  }
  if ((rc = bits_field(v[C_WBITS], line, &r->weight_bits, err)) != GS_OK ||
      (rc = count_field(v[C_KVBITS], "kv_bits", line, 1, 1, &r->kv_bits, err)) != GS_OK ||
      (rc = count_field(v[C_GPUS], "gpus", line, 1, 1, &r->gpus, err)) != GS_OK ||
      (rc = count_field(v[C_TP], "tp", line, 0, 1, &r->tp, err)) != GS_OK ||
      (rc = count_field(v[C_PP], "pp", line, 1, 1, &r->pp, err)) != GS_OK ||
      (rc = count_field(v[C_EP], "ep", line, 1, 1, &r->ep, err)) != GS_OK ||
      (rc = count_field(v[C_BATCH], "batch", line, 0, 1, &r->batch, err)) != GS_OK ||
      (rc = count_field(v[C_IN], "input_tokens", line, 1, 0, &r->input_tokens, err)) != GS_OK ||
      (rc = count_field(v[C_OUT], "output_tokens", line, 1, 0, &r->output_tokens, err)) != GS_OK ||
      (rc = time_field(v[C_ITL], "itl_ms", line, 0, &r->itl_ms, err)) != GS_OK ||
      (rc = time_field(v[C_TTFT], "ttft_ms", line, 1, &r->ttft_ms, err)) != GS_OK)
    return rc;
  if (r->kv_bits > 32) return gs_fail(err, GS_ERR_RANGE, "kv_bits", "line %zu: must be from 1 to 32", line);
  if (r->pp == 0) r->pp = 1;
  if (r->ep == 0) r->ep = 1;
  return GS_OK;
}

int gs_runs_parse(const char *text, size_t len, gs_runs_scratch *scratch, gs_runs *out, gs_error *err) {
  char(*f)[FIELD_CAP] = scratch->field;
  int at[C_KNOWN], n, header_n, rc, k;
  size_t i;
  csv c;
  out->count = 0;
  if (len > GS_RUNS_MAX_BYTES) return gs_fail(err, GS_ERR_TOO_LONG, "runs", "is longer than %u bytes", GS_RUNS_MAX_BYTES);
  if (memchr(text, '\0', len)) return gs_fail(err, GS_ERR_JSON, "runs", "holds a NUL byte: not a CSV text file");
  if ((i = gs_utf8_invalid_at(text, len)) < len) return gs_fail(err, GS_ERR_JSON, "runs", "byte %zu is not UTF-8", i + 1);
  c.at = text;
  c.end = text + len;
  c.line = c.next_line = 1;
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) c.at += 3; /* a byte-order mark */
  if ((rc = gs_csv_record(&c, f, MAX_COLUMNS, &header_n, err)) <= 0)
    return rc < 0 ? err ? err->code : GS_ERR_JSON : gs_fail(err, GS_ERR_MISSING, "runs", "is empty: it needs a header row and runs");
  for (k = 0; k < C_KNOWN; k++) {
    int j;
    at[k] = -1;
    for (j = 0; j < header_n; j++)
      if (strcmp(f[j], COLUMNS[k]) == 0) {
        if (at[k] >= 0) return gs_fail(err, GS_ERR_SHAPE, COLUMNS[k], "the header names this column twice");
        at[k] = j;
      }
  }
  for (i = 0; i < sizeof REQUIRED / sizeof REQUIRED[0]; i++)
    if (at[REQUIRED[i]] < 0)
      return gs_fail(err, GS_ERR_MISSING, COLUMNS[REQUIRED[i]], "the header has no such column (a runs file in the shared format starts id,model,hf_repo,...)");
  for (;;) {
    const char *v[C_KNOWN];
    if ((rc = gs_csv_record(&c, f, MAX_COLUMNS, &n, err)) < 0) return err ? err->code : GS_ERR_JSON;
    if (rc == 0) break;
    if (blank(f, n)) continue;
    if (n != header_n)
      return gs_fail(err, GS_ERR_SHAPE, "runs", "line %zu: %d fields where the header has %d", c.line, n, header_n);
    if (out->count == GS_RUNS_MAX) return gs_fail(err, GS_ERR_TOO_LONG, "runs", "more than %d runs", GS_RUNS_MAX);
    for (k = 0; k < C_KNOWN; k++) v[k] = at[k] >= 0 ? f[at[k]] : "";
    if ((rc = read_run(v, c.line, out->count > 0 ? &out->rows[out->count - 1] : NULL, &out->rows[out->count], err)) != GS_OK) return rc;
    out->count++;
  }
  if (out->count == 0) return gs_fail(err, GS_ERR_MISSING, "runs", "has a header but no runs");
  return GS_OK;
}
