/* Measured serving runs (gs_serving_runs_parse): the CSV of tests/measured/serving-runs.csv,
 * whose columns ../shared/reference/serving-measured/README.md defines, read from text with
 * the decode runs' CSV reader (runs.c). The header names the columns in any order; unknown
 * columns are passed over. Counts are digits; lengths, bits, throughput and times decimals
 * (gs_read_number), each cell read whole or refused naming its column and line. */
#include <string.h>

#include "internal.h"

enum { C_ID, C_REPO, C_WBITS, C_KVBITS, C_GPU, C_TP, C_PP, C_EP, C_DP, C_ADP, C_CONC, C_IN, C_OUT, C_TPUT, C_ITL, C_TTFT,
       C_SOFTWARE, C_SOURCE, C_NOTE, C_KNOWN };
static const char *const COLUMNS[C_KNOWN] = {"id", "hf_repo", "weight_bits", "kv_bits", "gpu", "tp", "pp", "ep", "dp", "attn_dp",
                                             "concurrency", "input_tokens", "output_tokens", "throughput_tok_s", "itl_ms",
                                             "ttft_ms", "software", "source", "note"};
static const int REQUIRED[] = {C_ID, C_REPO, C_GPU, C_TP, C_IN, C_OUT, C_TPUT};
static const int FILLED[] = {C_ID, C_REPO, C_GPU}; /* the rest may be empty: not stated */
#define MAX_COLUMNS GS_RUNS_COLUMNS

/* A decimal from 0 to 1e12 (0 when empty); a count is one whose value is whole (a
 * concurrency of "1000.0" is read as 1000). */
static int cell(const char *s, int column, size_t line, int whole, double *out, gs_error *err) {
  *out = 0;
  if (!s[0]) return GS_OK;
  if (gs_read_number(s, out) != GS_NUMBER_OK || !(*out >= 0 && *out <= 1e12) || (whole && *out != (double)(uint64_t)*out))
    return gs_fail(err, GS_ERR_RANGE, COLUMNS[column], "line %zu: must be %s from 0 to 1e12, written as digits", line,
                   whole ? "a whole number" : "a number");
  return GS_OK;
}

static int text(char *dst, size_t cap, const char *src, int column, size_t line, gs_error *err) {
  size_t n = strlen(src);
  if (n >= cap) return gs_fail(err, GS_ERR_TOO_LONG, COLUMNS[column], "line %zu: is longer than the %zu bytes kept", line, cap - 1);
  memcpy(dst, src, n + 1);
  return GS_OK;
}

/* The note's "rate_qps=R" (serving-gathered-README.md: a row measured at a request rate
 * carries it so): R requests a second, above 0 and at most 1e9; 0 when the note has none,
 * or "rate_qps=inf" (every request sent at once). */
static int note_rate(const char *note, size_t line, double *rate, gs_error *err) {
  static const char KEY[] = "rate_qps=";
  const char *at = strstr(note, KEY);
  char digits[32];
  size_t n;
  *rate = 0;
  if (!at) return GS_OK;
  at += sizeof KEY - 1;
  if (strncmp(at, "inf", 3) == 0) return GS_OK;
  n = strspn(at, "0123456789.eE+-");
  if (n == 0 || n >= sizeof digits) return gs_fail(err, GS_ERR_RANGE, "note", "line %zu: rate_qps= must be followed by a number", line);
  memcpy(digits, at, n);
  digits[n] = '\0';
  if (gs_read_number(digits, rate) != GS_NUMBER_OK || !(*rate > 0 && *rate <= 1e9))
    return gs_fail(err, GS_ERR_RANGE, "note", "line %zu: rate_qps must be a number above 0 and at most 1e9", line);
  return GS_OK;
}

/* The whole number after `key` in note (at most 1,024); 0 when the key is absent. */
static int note_count(const char *note, const char *key, size_t line, uint64_t *out, gs_error *err) {
  const char *at = strstr(note, key);
  uint64_t v = 0;
  *out = 0;
  if (!at) return GS_OK;
  for (at += strlen(key); *at >= '0' && *at <= '9' && v <= 1024; at++) v = v * 10 + (uint64_t)(*at - '0');
  if (v < 1 || v > 1024) return gs_fail(err, GS_ERR_RANGE, "note", "line %zu: %s must be followed by a count from 1 to 1024", line, key);
  *out = v;
  return GS_OK;
}

/* A whole number written with or without thousands' commas ("16,000") at text, its end in *end. */
static uint64_t number_at(const char *text, const char **end) {
  uint64_t n = 0;
  while (*text >= '0' && *text <= '9') {
    if (n > UINT64_MAX / 100) break;
    n = n * 10 + (uint64_t)(*text++ - '0');
    if (*text == ',' && text[1] >= '0' && text[1] <= '9' && text[2] >= '0' && text[2] <= '9' && text[3] >= '0' &&
        text[3] <= '9')
      text++;
  }
  *end = text;
  return n;
}

/* The requests a row's note says its benchmark sent: "N requests", "N prompts", or "N of M
 * prompts" (M sent, N completed); 0 when it says none, or says two that differ, or
 * hedges one ("3000 or 1500 requests"). Read from 2026-12-06 (csrc/fit/serve_rows.c says
 * why). */
static uint64_t note_requests(const char *note) {
  uint64_t found = 0;
  const char *at = note;
  for (; *at; at++) {
    const char *end, *after;
    uint64_t n, sent;
    if (!(*at >= '1' && *at <= '9') || (at > note && ((at[-1] >= '0' && at[-1] <= '9') || at[-1] == ',' || at[-1] == '.')))
      continue;
    n = sent = number_at(at, &end);
    if (strncmp(end, " of ", 4) == 0 && end[4] >= '1' && end[4] <= '9') sent = number_at(end + 4, &after), end = after;
    if (strncmp(end, " requests", 9) != 0 && strncmp(end, " prompts", 8) != 0) continue;
    if ((at - note >= 3 && strncmp(at - 3, "or ", 3) == 0) || (found && found != sent) || n == 0) return 0;
    found = sent;
  }
  return found;
}

/* The value a note gives each of the names (an engine's flag, "max-num-seqs 512",
 * "--max_batch_size=512"): the number after the name and a space, '=' or ':'; 0 when none
 * is given as a number ("max-num-batched-tokens default"), or two differ. Read from
 * 2026-12-06 (csrc/fit/serve_rows.c says why). */
static uint64_t note_limit(const char *note, const char *const *names, size_t name_n) {
  uint64_t found = 0;
  size_t k;
  for (k = 0; k < name_n; k++) {
    const char *at = note;
    size_t len = strlen(names[k]);
    while ((at = strstr(at, names[k])) != NULL) {
      const char *end, *v = at + len;
      uint64_t n;
      at = v;
      if (*v == ' ' || *v == '=' || *v == ':') v++;
      if (!(*v >= '1' && *v <= '9')) continue;
      n = number_at(v, &end);
      if (found && found != n) return 0;
      found = n;
    }
  }
  return found;
}

/* A note's "PD-DISAGGREGATED: P prefill + D decode ... --tp-size N" (serving-gathered-
 * README.md, G8): P and D copies of N GPUs, tp N where the tp cell is empty. */
static int note_pd(const char *note, size_t line, gs_serving_run *r, gs_error *err) {
  static const char KEY[] = "PD-DISAGGREGATED: ";
  static const char PLUS[] = " prefill + ";
  const char *at = strstr(note, KEY), *decode;
  uint64_t tp;
  int rc;
  if (!at) return GS_OK;
  at += sizeof KEY - 1;
  decode = at + strspn(at, "0123456789");
  if (strncmp(decode, PLUS, sizeof PLUS - 1) != 0 ||
      strncmp(decode + sizeof PLUS - 1 + strspn(decode + sizeof PLUS - 1, "0123456789"), " decode", 7) != 0)
    return gs_fail(err, GS_ERR_SHAPE, "note", "line %zu: PD-DISAGGREGATED: must read \"P prefill + D decode\"", line);
  if ((rc = note_count(at, "", line, &r->pd_prefill, err)) != GS_OK ||
      (rc = note_count(decode, PLUS, line, &r->pd_decode, err)) != GS_OK)
    return rc;
  if ((rc = note_count(note, "--tp-size ", line, &tp, err)) != GS_OK) return rc;
  if (r->tp == 0) r->tp = tp;
  return GS_OK;
}

static int read_row(const char *const *v, size_t line, gs_serving_run *r, gs_error *err) {
  double x[C_KNOWN] = {0};
  static const int WHOLE[] = {C_KVBITS, C_TP, C_PP, C_EP, C_DP, C_ADP, C_CONC}, REAL[] = {C_WBITS, C_IN, C_OUT, C_TPUT, C_ITL, C_TTFT};
  size_t i;
  int rc;
  memset(r, 0, sizeof *r);
  for (i = 0; i < sizeof FILLED / sizeof FILLED[0]; i++)
    if (!v[FILLED[i]][0]) return gs_fail(err, GS_ERR_MISSING, COLUMNS[FILLED[i]], "line %zu: is empty", line);
  for (i = 0; i < sizeof WHOLE / sizeof WHOLE[0]; i++)
    if ((rc = cell(v[WHOLE[i]], WHOLE[i], line, 1, &x[WHOLE[i]], err)) != GS_OK) return rc;
  for (i = 0; i < sizeof REAL / sizeof REAL[0]; i++)
    if ((rc = cell(v[REAL[i]], REAL[i], line, 0, &x[REAL[i]], err)) != GS_OK) return rc;
  if ((rc = text(r->id, sizeof r->id, v[C_ID], C_ID, line, err)) != GS_OK ||
      (rc = text(r->repo, sizeof r->repo, v[C_REPO], C_REPO, line, err)) != GS_OK ||
      (rc = text(r->gpu, sizeof r->gpu, v[C_GPU], C_GPU, line, err)) != GS_OK ||
      (rc = text(r->software, sizeof r->software, v[C_SOFTWARE], C_SOFTWARE, line, err)) != GS_OK ||
      (rc = gs_run_source(v[C_NOTE], v[C_SOURCE], line, r->source, sizeof r->source, err)) != GS_OK)
    return rc;
  r->weight_bits = x[C_WBITS], r->input_tokens = x[C_IN], r->output_tokens = x[C_OUT];
  r->throughput = x[C_TPUT], r->itl_ms = x[C_ITL], r->ttft_ms = x[C_TTFT];
  r->kv_bits = (uint64_t)x[C_KVBITS], r->tp = (uint64_t)x[C_TP], r->ep = (uint64_t)x[C_EP], r->attn_dp = (uint64_t)x[C_ADP];
  r->pp = x[C_PP] >= 1 ? (uint64_t)x[C_PP] : 1;
  r->dp = x[C_DP] >= 1 ? (uint64_t)x[C_DP] : 1;
  r->concurrency = (uint64_t)x[C_CONC];
  r->prefill_only = strstr(v[C_NOTE], "PREFILL-ONLY") != NULL;
  r->sharegpt = strstr(v[C_NOTE], "ShareGPT") != NULL;
  r->requests = note_requests(v[C_NOTE]);
  {
    static const char *const SEQS[] = {"max-num-seqs", "max_num_seqs", "max_batch_size", "max-running-requests"};
    static const char *const TOKENS[] = {"max-num-batched-tokens", "max_num_batched_tokens", "max_num_tokens"};
    r->max_seqs = note_limit(v[C_NOTE], SEQS, sizeof SEQS / sizeof SEQS[0]);
    r->max_batched_tokens = note_limit(v[C_NOTE], TOKENS, sizeof TOKENS / sizeof TOKENS[0]);
  }
  {
    /* vLLM 0.6's scheduling flags (G7's MI300X rows): read from 2026-12-07 (serve_rows.c) */
    static const char *const STEPS[] = {"scheduler steps", "--num-scheduler-steps", "--num-scheduler-step"};
    r->scheduler_steps = note_limit(v[C_NOTE], STEPS, sizeof STEPS / sizeof STEPS[0]);
    r->unchunked = strstr(v[C_NOTE], "chunked prefill FALSE") || strstr(v[C_NOTE], "--enable-chunked-prefill=False");
  }
  /* the note says the benchmark had no server before the engine (read from 2026-12-07) */
  r->in_process = strstr(v[C_NOTE], "IN-PROCESS") != NULL;
  if ((rc = note_pd(v[C_NOTE], line, r, err)) != GS_OK) return rc;
  return note_rate(v[C_NOTE], line, &r->rate, err);
}

/* The header's column of each known name (-1: absent). */
static int header(char f[][GS_CSV_FIELD_CAP], int n, int *at, gs_error *err) {
  int k, j;
  size_t i;
  for (k = 0; k < C_KNOWN; k++)
    for (at[k] = -1, j = 0; j < n; j++)
      if (strcmp(f[j], COLUMNS[k]) == 0) {
        if (at[k] >= 0) return gs_fail(err, GS_ERR_SHAPE, COLUMNS[k], "the header names this column twice");
        at[k] = j;
      }
  for (i = 0; i < sizeof REQUIRED / sizeof REQUIRED[0]; i++)
    if (at[REQUIRED[i]] < 0)
      return gs_fail(err, GS_ERR_MISSING, COLUMNS[REQUIRED[i]], "the header has no such column (a serving runs file starts id,model,hf_repo,...)");
  return GS_OK;
}

int gs_serving_runs_parse(const char *text_in, size_t len, gs_runs_scratch *scratch, gs_serving_runs *out, gs_error *err) {
  char(*f)[GS_CSV_FIELD_CAP] = scratch->field;
  int at[C_KNOWN], n, header_n, rc, k;
  gs_csv c;
  out->count = 0;
  if (len > GS_RUNS_MAX_BYTES) return gs_fail(err, GS_ERR_TOO_LONG, "runs", "is longer than %u bytes", GS_RUNS_MAX_BYTES);
  if (memchr(text_in, '\0', len) || gs_utf8_invalid_at(text_in, len) < len)
    return gs_fail(err, GS_ERR_JSON, "runs", "is not a UTF-8 CSV text file");
  c.at = text_in, c.end = text_in + len, c.line = c.next_line = 1;
  if (len >= 3 && memcmp(text_in, "\xef\xbb\xbf", 3) == 0) c.at += 3; /* a byte-order mark */
  if ((rc = gs_csv_record(&c, f, MAX_COLUMNS, &header_n, err)) <= 0)
    return rc < 0 ? err->code : gs_fail(err, GS_ERR_MISSING, "runs", "is empty: it needs a header row and runs");
  if ((rc = header(f, header_n, at, err)) != GS_OK) return rc;
  while ((rc = gs_csv_record(&c, f, MAX_COLUMNS, &n, err)) > 0) {
    const char *v[C_KNOWN];
    if (n == 1 && f[0][0] == '\0') continue;
    if (n != header_n) return gs_fail(err, GS_ERR_SHAPE, "runs", "line %zu: %d fields where the header has %d", c.line, n, header_n);
    if (out->count == GS_SERVING_RUNS_MAX) return gs_fail(err, GS_ERR_TOO_LONG, "runs", "more than %d runs", GS_SERVING_RUNS_MAX);
    for (k = 0; k < C_KNOWN; k++) v[k] = at[k] >= 0 ? f[at[k]] : "";
    if ((rc = read_row(v, c.line, &out->rows[out->count], err)) != GS_OK) return rc;
    out->count++;
  }
  if (rc < 0) return err->code;
  if (out->count == 0) return gs_fail(err, GS_ERR_MISSING, "runs", "has a header but no runs");
  return GS_OK;
}
