/* The one reader of a command's flags (issue 27 item 5): argv read against a table of
 * flags, each with its kind, its range, where its value is stored and its help line. The
 * tables stay with the commands (csrc/cli/); this reader turns text into values and
 * refuses what it cannot read, in one wording for every command. It does no I/O: a
 * refusal is one line in a gs_error, which the command prints (exit 2).
 *
 * Its rules, the same for every command:
 *   --flag VALUE and --flag=VALUE; a value never starts with "--" ("--counts --json"
 *   lacks the counts), but --flag=VALUE takes any text;
 *   a flag that takes a value given twice is refused, and so is a second positional;
 *   --help or -h anywhere asks for the help (GS_FLAGS_HELP), which the command prints on
 *   standard output and exits 0. */
#ifndef GPUSPLIT_FLAGS_H
#define GPUSPLIT_FLAGS_H

#include "gpusplit.h"

enum gs_flag_kind {
  GS_FLAG_SWITCH,  /* no value: an int at `at` set to 1, or `bit` set in the unsigned at `at` */
  GS_FLAG_WHOLE,   /* a whole number from 1 to *most, written as digits, into a uint64_t */
  GS_FLAG_REAL,    /* a finite number (gs_read_number, or any spelling strtod reads whole),
                      within [lo, hi] ((lo, hi] when lo_open) when lo < hi, into a double */
  GS_FLAG_TEXT,    /* the text as given, into a const char * (the command reads it) */
  GS_FLAG_PATH,    /* a file's path, into a const char * */
  GS_FLAG_CHOICE,  /* one of meta's words ("lesson|real"), its place from 1 into an int */
  GS_FLAG_REFUSED, /* refused here, for the reason in help ("what the plan chooses") */
  GS_FLAG_NOTE     /* no flag: a line of the help as it is (a heading, a note) */
};

/* One flag. A positional's name has no leading "--" ("RUNS.csv"): positionals are read in
 * the table's order, one word each. */
typedef struct {
  const char *name;
  int kind;               /* enum gs_flag_kind */
  const char *meta;       /* the value's name in the help ("N"); a choice's words */
  size_t at;              /* where the value goes: an offset in the set's struct */
  unsigned bit;           /* SWITCH: the bit set at `at` (0: an int set to 1); WHOLE, REAL,
                             TEXT: the bit set in the unsigned at `mark` when given (0: none) */
  size_t mark;
  const uint64_t *most;   /* WHOLE: the largest accepted */
  double lo, hi;          /* REAL: its range when lo < hi */
  int lo_open;            /* REAL: lo itself refused */
  int needed;             /* refused when absent */
  const char *help;       /* lines joined by "\n"; NULL: not listed (a note says it) */
} gs_flag;

/* A table and the struct its values go into; kept: when not NULL, each argv word that
 * one of its flags took, in order (the caller gives room for argc), and their count. */
typedef struct {
  const gs_flag *flags;
  size_t n;
  void *base;
  char **kept;
  int *kept_n;
} gs_flag_set;

enum { GS_FLAGS_HELP = 1 };

/* A table's rows, at an offset the table's file computes (offsetof of its struct). */
#define GS_SWITCH(name, at, bit, help) {name, GS_FLAG_SWITCH, NULL, at, bit, 0, NULL, 0, 0, 0, 0, help}
#define GS_WHOLE(name, meta, at, most, help) {name, GS_FLAG_WHOLE, meta, at, 0, 0, most, 0, 0, 0, 0, help}
#define GS_REAL(name, meta, at, help) {name, GS_FLAG_REAL, meta, at, 0, 0, NULL, 0, 0, 0, 0, help}
#define GS_REAL_IN(name, meta, at, lo, hi, lo_open, help) {name, GS_FLAG_REAL, meta, at, 0, 0, NULL, lo, hi, lo_open, 0, help}
#define GS_TYPED(name, meta, at, bit, mark, help) {name, GS_FLAG_REAL, meta, at, bit, mark, NULL, 0, 0, 0, 0, help}
#define GS_TEXT(name, meta, at, help) {name, GS_FLAG_TEXT, meta, at, 0, 0, NULL, 0, 0, 0, 0, help}
#define GS_PATH(name, meta, at, help) {name, GS_FLAG_PATH, meta, at, 0, 0, NULL, 0, 0, 0, 0, help}
#define GS_NEEDED_PATH(name, at, help) {name, GS_FLAG_PATH, NULL, at, 0, 0, NULL, 0, 0, 0, 1, help}
#define GS_CHOICE(name, words, at, help) {name, GS_FLAG_CHOICE, words, at, 0, 0, NULL, 0, 0, 0, 0, help}
#define GS_REFUSED(name, why) {name, GS_FLAG_REFUSED, NULL, 0, 0, 0, NULL, 0, 0, 0, 0, why}
#define GS_NOTE(text) {"", GS_FLAG_NOTE, NULL, 0, 0, 0, NULL, 0, 0, 0, 0, text}

/* Reads argv[1..argc-1] (argv[0]: the command's name, for the messages) against sets, the
 * first set that names a flag taking it. GS_OK, GS_FLAGS_HELP, or GS_ERR_RANGE with the
 * one line in err->what. The values stay argv's. */
int gs_flags_read(const gs_flag_set *sets, size_t set_n, int argc, char *const *argv, gs_error *err);

/* A value as the kinds above read it, flag naming it in the message. */
int gs_flag_number(const char *flag, const char *text, double *out, gs_error *err);
int gs_flag_whole(const char *flag, const char *text, uint64_t most, uint64_t *out, gs_error *err);

/* A flag's line of the help, without its newline: the name and meta in a column of 19,
 * then its help's lines indented to that column. (size_t)-1 if it needs cap or more. */
size_t gs_flag_help(const gs_flag *f, char *buf, size_t cap);

#endif
