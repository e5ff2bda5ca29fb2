/* The command line's shared parts. The cli*.c files are the only ones that touch stdio
 * and argv. */
#ifndef GPUSPLIT_CLI_H
#define GPUSPLIT_CLI_H

#include <stdio.h>

#include "gpusplit.h"
#include "core/fields.h"
#include "emit/json.h"
#include "read/flags.h"

#define CLI_MAX_COUNTS 64
/* The longest --model path kept whole, with its NUL: Linux's PATH_MAX (a longer one
 * cannot be opened, and is refused by name). */
#define CLI_PATH_CAP 4096

/* Exit statuses. */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_BAD_INPUT = 2 };

/* Everything `gpusplit report` needs, after the flags are read and resolved. */
typedef struct {
  gs_setting setting;     /* the model, GPU, links and plan (gs_resolve) */
  uint64_t counts[CLI_MAX_COUNTS];
  size_t count_n;
  int json;
  uint64_t explain_gpus;  /* --explain --gpus N: N, or 0 */
  char efficiency_text[512]; /* which achieved-efficiency figures; "" when off */
  int emit;               /* --emit: 1 + enum gs_engine, the engine whose launch command to print; 0: none */
} cli_report_options;

/* Prints "gpusplit: <what>" on stderr as one line and returns CLI_BAD_INPUT. */
int cli_bad(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Prints a library error as one line: "gpusplit: <source>: <field>: <what>". */
int cli_bad_error(const char *source, const gs_error *err);

/* args.c: a flag's value as a finite double (gs_flag_number) and as a whole number from 1
 * to max written as digits (gs_flag_whole), each printing why not (CLI_BAD_INPUT). */
int cli_parse_number(const char *flag, const char *text, double *out);
int cli_parse_whole(const char *flag, const char *text, uint64_t max, uint64_t *out);
/* argv read against the tables (gs_flags_read): CLI_OK, CLI_HELPED, or CLI_BAD_INPUT after
 * saying why; cli_help prints head, the first `shown` sets' lines in order and tail on
 * stdout; cli_flags_or_help reads, and on --help prints the first set's table between head
 * and tail (cli_flags_or_help_shown: the first `shown` sets', for a command that shares a
 * table with another, as plan and serve share the load's). */
int cli_read_flags(const gs_flag_set *sets, size_t set_n, int argc, char **argv);
void cli_help(const char *head, const gs_flag_set *sets, size_t shown, const char *tail);
int cli_flags_or_help(const gs_flag_set *sets, size_t set_n, int argc, char **argv, const char *head, const char *tail);
int cli_flags_or_help_shown(const gs_flag_set *sets, size_t set_n, size_t shown, int argc, char **argv, const char *head,
                            const char *tail);

/* load_flags.c: the served load's and the engine's flags, one table that serve and plan
 * both read (CLI_LOAD_FLAGS); each flag given sets its bit in `given`. The engine's limits'
 * bits are the library's (enum gs_served_given), so `given & CLI_LOAD_LIMITS` is a
 * gs_served_ask's mask as it stands. */
enum cli_load_given {
  CLI_LOAD_MAX_SEQS = GS_GIVEN_MAX_SEQS, CLI_LOAD_BATCHED = GS_GIVEN_BATCHED, CLI_LOAD_SHARE = GS_GIVEN_SHARE,
  CLI_LOAD_BLOCK = GS_GIVEN_BLOCK, CLI_LOAD_OVERLAP = GS_GIVEN_OVERLAP, CLI_LOAD_SEQ_US = GS_GIVEN_SEQ_US,
  CLI_LOAD_FLOPS = GS_GIVEN_FLOPS, CLI_LOAD_BENCH = GS_GIVEN_BENCH, CLI_LOAD_UNCHUNKED = GS_GIVEN_UNCHUNKED,
  CLI_LOAD_STEPS = GS_GIVEN_STEPS, CLI_LOAD_REQUEST_US = GS_GIVEN_REQUEST_US,
  CLI_LOAD_LIMITS = GS_GIVEN_MAX_SEQS | GS_GIVEN_BATCHED | GS_GIVEN_SHARE | GS_GIVEN_BLOCK | GS_GIVEN_OVERLAP |
                    GS_GIVEN_SEQ_US | GS_GIVEN_FLOPS | GS_GIVEN_BENCH | GS_GIVEN_UNCHUNKED | GS_GIVEN_STEPS |
                    GS_GIVEN_REQUEST_US,
  CLI_LOAD_CONCURRENCY = 128, CLI_LOAD_RATE = 256, CLI_LOAD_REQUESTS = 512, CLI_LOAD_OUTPUT = 1024, CLI_LOAD_SEED = 2048,
  CLI_LOAD_LENGTHS = 4096
};
typedef struct {
  gs_load load;          /* requests, output tokens, seed, rate, concurrency and kind (cli_load_check) */
  gs_scheduler limits;   /* the engine's limits given (their bits of given) */
  unsigned given;        /* enum cli_load_given */
  const char *lengths;   /* --lengths FILE or sharegpt, or NULL */
  int sharegpt;          /* --lengths sharegpt */
  int prompt_given;      /* --prompt-tokens given (with sharegpt: the prompts' mean) */
  int limits_from;       /* --limits: 0 not given, 1 engine, 2 trtllm-bench */
  int chunked_from;      /* --chunked-prefill: 0 not given, 1 on, 2 off */
  uint64_t *pairs;       /* the file's prompts, then its outputs (malloc'd by cli_load_lengths; the caller frees) */
} cli_load_flags;
extern const gs_flag CLI_LOAD_FLAGS[];
extern const size_t CLI_LOAD_FLAG_N;
/* The defaults before the flags are read: 1,000 requests of 128 output tokens, seed 1, all
 * sent at once. */
void cli_load_defaults(cli_load_flags *l);
/* What the flags say together, for command cmd ("serve"): one load, lengths from a file
 * or from the flags (prompt: report's --prompt-tokens as given, or NULL), the load's kind,
 * and trtllm-bench's limits only with --engine trt-llm (engine: report's, or NULL). */
int cli_load_check(cli_load_flags *l, const char *prompt, const char *engine, const char *cmd);
/* --lengths FILE, when given, read into l->pairs and the load; --lengths sharegpt drawn
 * (l->load's requests, seed, and prompt and output tokens when given, as means). */
int cli_load_lengths(cli_load_flags *l);

/* The whole of a file, NUL-terminated, in memory the caller frees; at most max_bytes. */
int cli_read_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len);

/* fit_output.c: the fit of `gpusplit fit` (csrc/fit/, printed as a table, or --json as
 * data/efficiency.json); validate_runs.c: validate's decode tables. */
/* left_out: also each engine's error on runs of a source the fit left out (a refit a source) */
int cli_fit_file(const char *path, const char *allreduce_dir, int json, int left_out);
/* fit_from: refit on that runs file instead of data/efficiency.json's figures (NULL: not). */
int cli_validate_runs(const char *path, const char *fit_from);
/* validate --serving FILE [--leave-source-out], fit --serving FILE [--json] (validate_serving.c). */
int cli_validate_serving(const char *path, const char *more, int leave_out);
/* The Fitted line's note on whose serving figures engine e's step takes (engine.c's serving_fit):
 * empty for its own; else a clause starting "; " that says "among <among>" of the fitted runs. */
void cli_serving_fit_note(const gs_scheduler *e, const char *among, char *out, size_t cap);
int cli_fit_serving(const char *path, const char *more, const char *held_out, int json);
int cli_validate_left_out(const char *path);
/* A runs file read and parsed into memory the caller frees. */
int cli_read_runs(const char *path, gs_runs **out);

/* report_options.c: report's flags as its table reads them (CLI_REPORT_FLAGS), before
 * they are resolved; plan and serve read them beside their own. */
typedef struct {
  gs_request q;
  const char *counts, *link_from, *prompt_tokens, *efficiency_from, *emit;
  uint64_t gpus;  /* --gpus N of --explain; 0: not given */
  int split, nccl, experts, assume, link_kind; /* each choice's place from 1; 0: not given */
  int json, explain;
  unsigned given; /* 1: --gpu-hour */
} cli_report_flags;
/* report_options.c: report's --request-us into a served load's engine; report's flags it would not use refused. */
int cli_served_report_flags(const cli_report_flags *rf, cli_load_flags *lf);
extern const gs_flag CLI_REPORT_FLAGS[];
extern const size_t CLI_REPORT_FLAG_N;
/* Fills o from report's flags read: CLI_OK, CLI_HELPED (report --help, printed), or
 * CLI_BAD_INPUT after saying why; cli_report_resolve turns flags read into o. */
#define CLI_HELPED 3
int cli_report_parse(int argc, char **argv, cli_report_options *o);
int cli_report_resolve(const cli_report_flags *f, cli_report_options *o);

/* cli_emit.c: --emit ENGINE read (engine: 1 + enum gs_engine), with the one count it needs
 * (--counts, as given) and what it cannot go with (other_output: --json or --explain); and
 * the launch command of report's one count printed. */
int cli_emit_parse(const char *engine, const char *counts, int other_output, int *engine_out);
int cli_emit_print(const cli_report_options *o);
/* plan --emit ENGINE: checked before the search (an engine's name, no --json, a target to
 * choose by), then the launch command of the layout the targets chose. */
int cli_emit_plan_check(const char *engine, int json, int has_target);
int cli_emit_plan(const gs_setting *s, const gs_plan_result *r, const char *engine);

/* The commands (csrc/cli/main.c dispatches to them); each returns the exit status. To add
 * a command: a file of its own in csrc/cli/, its line here and in main.c's table. */
int cli_report(int argc, char **argv);
int cli_numbers(int argc, char **argv);
int cli_fixture(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_figure(int argc, char **argv);
int cli_fit(int argc, char **argv);
int cli_plan(int argc, char **argv);
int cli_serve(int argc, char **argv);
/* The whole command line, argv[0] being the program (main.c; the fuzz harness calls it). */
int cli_run(int argc, char **argv);

/* The library's JSON writer (csrc/emit/json.h) writing to f: cli_out's sink, and a
 * double, a quoted string and a part of a string (gs_out_double, _string, _text). */
gs_out cli_out(FILE *f);
void cli_json_double(FILE *f, double x);
void cli_json_string(FILE *f, const char *s);
void cli_json_text(FILE *f, const char *s);
/* Text from the user for a terminal: control characters and non-UTF-8 bytes as \xNN
 * (gs_escape_next, GS_ESCAPE_TEXT); and the same padded with spaces to width bytes. */
void cli_put_text(FILE *f, const char *s);
void cli_put_padded(FILE *f, const char *s, int width);

#endif
