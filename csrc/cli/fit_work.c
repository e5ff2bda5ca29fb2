/* What fit, validate and report --efficiency-from share (fit_work.h): a runs file read with
 * room for the fit, the figures they start from (data/efficiency.json's typed table, or a fit
 * to the user's runs), the all-reduce tables read, and the fit's failures said. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_work.h"

int fit_read_builtin(fit_result *fr) {
  *fr = GS_EFFICIENCY_TABLE;
  return CLI_OK;
}

int fit_runs_file(const char *path, fit_result *fr) {
  fit_work w;
  int rc;
  if ((rc = fit_work_open(path, path, &w)) != CLI_OK) return rc;
  rc = cli_fit_runs(w.runs, w.p, fr);
  fit_work_close(&w);
  return rc;
}


/* Reads a runs file into memory the caller frees. */
int cli_read_runs(const char *path, gs_runs **out) {
  char *text;
  size_t len;
  gs_error err;
  int rc;
  gs_runs *runs = malloc(sizeof *runs);
  gs_runs_scratch *scratch = malloc(sizeof *scratch);
  if (!runs || !scratch) {
    free(runs);
    free(scratch);
    return cli_bad("%s: out of memory", path);
  }
  if ((rc = cli_read_file(path, GS_RUNS_MAX_BYTES, "a runs file", &text, &len)) != CLI_OK) {
    free(runs);
    free(scratch);
    return rc;
  }
  rc = gs_runs_parse(text, len, scratch, runs, &err);
  free(scratch);
  free(text);
  if (rc != GS_OK) {
    free(runs);
    return cli_bad_error(path, &err);
  }
  *out = runs;
  return CLI_OK;
}

int fit_work_open(const char *path, const char *who, fit_work *w) {
  int rc;
  memset(w, 0, sizeof *w);
  if ((rc = cli_read_runs(path, &w->runs)) != CLI_OK) return rc;
  w->p = calloc(w->runs->count, sizeof *w->p);
  w->e = calloc(w->runs->count, sizeof *w->e);
  w->fr = malloc(sizeof *w->fr);
  if (w->p && w->e && w->fr) return CLI_OK;
  fit_work_close(w);
  return cli_bad("%s: out of memory", who);
}

void fit_work_close(fit_work *w) {
  free(w->p);
  free(w->e);
  free(w->fr);
  free(w->runs);
  memset(w, 0, sizeof *w);
}

int cli_fit_runs(const gs_runs *runs, priced_run *p, fit_result *fr) {
  gs_error err;
  if (fit_runs(runs, p, fr, &err) != GS_OK) return cli_bad("fit: %s", err.what);
  return CLI_OK;
}

int cli_fit_allreduce(const char *dir, ar_fit *out) {
  char *texts[FIT_AR_SYSTEM_COUNT] = {0};
  size_t lens[FIT_AR_SYSTEM_COUNT], a, at;
  int rc = CLI_OK, failure;
  gs_error err;
  for (a = 0; a < FIT_AR_SYSTEM_COUNT && rc == CLI_OK; a++) {
    char path[CLI_PATH_CAP];
    /* the folder's path whole, or refused by name: a cut one names another folder */
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, FIT_AR_SYSTEMS[a].file) >= sizeof path)
      rc = cli_bad("--allreduce: the folder's path is %zu bytes, longer than a file's path in it may be (%d bytes): %s", strlen(dir),
                   CLI_PATH_CAP - 1, dir);
    else rc = cli_read_file(path, GS_MEASURED_MAX_BYTES, "a measured all-reduce table", &texts[a], &lens[a]);
  }
  if (rc == CLI_OK && fit_allreduce((const char *const *)texts, lens, out, &at, &failure, &err) != GS_OK) {
    if (failure == FIT_AR_GPU) rc = cli_bad("fit: %s: %s", FIT_AR_SYSTEMS[at].gpu, err.what);
    else rc = cli_bad("fit: --allreduce: %s/%s: %s", dir, FIT_AR_SYSTEMS[at].file, err.what);
  }
  for (a = 0; a < FIT_AR_SYSTEM_COUNT; a++) free(texts[a]);
  return rc;
}

int cli_left_out_bound(const gs_runs *runs, const priced_run *p, const char *path) {
  gs_error err;
  if (fit_left_out_bound(runs, p, &err) != GS_OK) return cli_bad("%s: %s", path, err.what);
  return CLI_OK;
}

void cli_put_skipped(const gs_runs *runs, const priced_run *p) {
  size_t i;
  for (i = 0; i < runs->count; i++)
    if (!p[i].ok) {
      printf("  ");
      cli_put_text(stdout, p[i].run->id);
      printf(": ");
      cli_put_text(stdout, p[i].why);
      printf("\n");
    }
}
