/* libFuzzer target: the command line, its argv taken from the input (one argument a
 * line, at most 24). It runs in-process with stdout and stderr caught in memory, and
 * must exit 0, 1 or 2; on 2 say why in exactly one line; and never print a figure that
 * is infinite, NaN or cut short (digit groups ending in a comma). Run with `make fuzz`.
 * glibc's open_memstream and assignable stdout/stderr keep this harness Linux-only. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 24 };

/* A name in the catalogue's sources that holds the word: AMD's link between its GPUs
 * (data/gpus.json, MI325X and MI355X), which `list gpus` prints as text, not a figure. */
static const char *const NAMES[] = {"infinity fabric", "infinity-fabric"};

/* Whether text at i starts one of NAMES, case-insensitively. */
static int names_at(const char *text, size_t len, size_t i) {
  size_t j, k;
  for (j = 0; j < sizeof NAMES / sizeof NAMES[0]; j++) {
    size_t n = strlen(NAMES[j]);
    for (k = 0; k < n && i + k < len && tolower((unsigned char)text[i + k]) == NAMES[j][k]; k++) {}
    if (k == n) return 1;
  }
  return 0;
}

/* word, case-insensitively, standing alone (no letter either side) in text, and not the
 * start of one of NAMES */
static int has_word(const char *text, size_t len, const char *word) {
  size_t n = strlen(word), i, k;
  for (i = 0; i + n <= len; i++) {
    for (k = 0; k < n && tolower((unsigned char)text[i + k]) == word[k]; k++) {}
    if (k < n) continue;
    if ((i > 0 && isalpha((unsigned char)text[i - 1])) || (i + n < len && isalpha((unsigned char)text[i + n]))) continue;
    if (names_at(text, len, i)) continue;
    return 1;
  }
  return 0;
}

/* One of the flags that make a plan a served one (gpusplit plan --help: "A served load (any
 * flag below)"), by its prefix: the targets, the load's and the engine's. */
static int served_flag(const char *arg) {
  static const char *const SERVED[] = {"--target-tpot", "--target-ttft", "--target-stat", "--concurrency", "--rate",
                                       "--requests", "--lengths", "--seed", "--output-tokens", "--max-seqs",
                                       "--max-batched", "--memory-share", "--block-tokens", "--chunked", "--scheduler",
                                       "--limits", "--overlap", "--seq-us", "--step-flops", "--disaggregate"};
  size_t k;
  for (k = 0; k < sizeof SERVED / sizeof SERVED[0]; k++)
    if (strncmp(arg, SERVED[k], strlen(SERVED[k])) == 0) return 1;
  return 0;
}

/* Arguments that would make one run slow or touch the machine rather than the program:
 * the fixture's large random sets, and devices or FIFOs read as a config. */
static int unsafe(char **argv, int argc) {
  int i;
  for (i = 1; i < argc; i++)
    if (strstr(argv[i], "/dev") || strstr(argv[i], "/proc") || strstr(argv[i], "/sys") || strstr(argv[i], "--random") ||
        strstr(argv[i], "--families"))
      return 1;
  /* serve's time grows with its load (a step for every token of a request alone): sizes of
   * more than three digits could take seconds under the sanitizers */
  for (i = 1; i < argc; i++)
    if ((strncmp(argv[i], "--requests", 10) == 0 || strstr(argv[i], "-tokens") || strncmp(argv[i], "--concurrency", 13) == 0) &&
        ((i + 1 < argc && strlen(argv[i + 1]) > 3) || (strchr(argv[i], '=') && strlen(strchr(argv[i], '=')) > 4)))
      return 1;
  /* a served plan simulates every layout within its budget: with --disaggregate about twice
   * as many, each copy of a unit its own scheduler (977 requests of 8B on up to 4 L4s took
   * 0.8 s natively), and without it 8B within 84 GPUs and the default 1,000 requests took
   * 2.4 s natively and 54 s under the sanitizers, past the 5 s limit. A plan given any of
   * a served plan's flags has its load held to two digits here (the default is 1,000
   * requests, so --requests must be given) */
  for (i = 1; i < argc; i++)
    if (strcmp(argv[i], "--disaggregate") == 0 || (strcmp(argv[1], "plan") == 0 && served_flag(argv[i]))) {
      int j, small = 0;
      for (j = 1; j < argc; j++)
        if (strncmp(argv[j], "--requests", 10) == 0)
          small = strchr(argv[j], '=') ? strlen(strchr(argv[j], '=')) <= 3 : j + 1 < argc && strlen(argv[j + 1]) <= 2;
      if (!small) return 1;
    }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1), *argv[MAX_ARGS + 2], *out = NULL, *err = NULL;
  size_t out_len = 0, err_len = 0, i;
  int argc = 1, status, flagged = 0;
  FILE *saved_out = stdout, *saved_err = stderr;
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  argv[0] = "gpusplit";
  argv[argc++] = text;
  for (i = 0; i < size && argc <= MAX_ARGS; i++)
    if (text[i] == '\n') {
      text[i] = '\0';
      argv[argc++] = text + i + 1;
    }
  if (i < size) text[i] = '\0'; /* the rest is dropped */
  argv[argc] = NULL;
  if (unsafe(argv, argc)) {
    free(text);
    return 0;
  }
  for (i = 1; i < (size_t)argc; i++)
    flagged |= has_word(argv[i], strlen(argv[i]), "inf") || has_word(argv[i], strlen(argv[i]), "nan") ||
               has_word(argv[i], strlen(argv[i]), "infinity") || strchr(argv[i], ',') != NULL;
  stdout = open_memstream(&out, &out_len);
  stderr = open_memstream(&err, &err_len);
  if (!stdout || !stderr) abort();
  status = cli_run(argc, argv);
  fclose(stdout);
  fclose(stderr);
  stdout = saved_out;
  stderr = saved_err;
  if (status != CLI_OK && status != CLI_FAILED && status != CLI_BAD_INPUT) abort();
  if (status == CLI_BAD_INPUT && (err_len == 0 || memchr(err, '\n', err_len) != err + err_len - 1)) abort();
  if (status == CLI_OK && err_len != 0) abort();
  if (!flagged) {
    if (has_word(out, out_len, "inf") || has_word(out, out_len, "nan") || has_word(out, out_len, "infinity")) abort();
    for (i = 4; i + 1 < out_len; i++) /* ",000," then a space or the line's end: a figure cut short */
      if (out[i - 4] == ',' && isdigit((unsigned char)out[i - 3]) && isdigit((unsigned char)out[i - 2]) &&
          isdigit((unsigned char)out[i - 1]) && out[i] == ',' && (out[i + 1] == ' ' || out[i + 1] == '\n'))
        abort();
  }
  free(out);
  free(err);
  free(text);
  return 0;
}
