/* The commands' side of the one flag reader (csrc/read/flags.h): its refusal printed as one
 * line (exit 2), and a command's help printed from its table on standard output. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_number(const char *flag, const char *text, double *out) {
  gs_error err;
  return gs_flag_number(flag, text, out, &err) == GS_OK ? CLI_OK : cli_bad("%s", err.what);
}

int cli_parse_whole(const char *flag, const char *text, uint64_t max, uint64_t *out) {
  gs_error err;
  return gs_flag_whole(flag, text, max, out, &err) == GS_OK ? CLI_OK : cli_bad("%s", err.what);
}

int cli_read_flags(const gs_flag_set *sets, size_t set_n, int argc, char **argv) {
  gs_error err;
  int rc = gs_flags_read(sets, set_n, argc, argv, &err);
  if (rc == GS_FLAGS_HELP) return CLI_HELPED;
  return rc == GS_OK ? CLI_OK : cli_bad("%s", err.what);
}

void cli_help(const char *head, const gs_flag_set *sets, size_t shown, const char *tail) {
  char line[2048];
  size_t i, k;
  fputs(head, stdout);
  for (k = 0; k < shown; k++)
    for (i = 0; i < sets[k].n; i++) {
      const gs_flag *f = &sets[k].flags[i];
      if (!f->help || f->kind == GS_FLAG_REFUSED) continue;
      if (gs_flag_help(f, line, sizeof line) != (size_t)-1) printf("%s\n", line);
    }
  fputs(tail, stdout);
}

int cli_flags_or_help_shown(const gs_flag_set *sets, size_t set_n, size_t shown, int argc, char **argv, const char *head,
                            const char *tail) {
  int rc = cli_read_flags(sets, set_n, argc, argv);
  if (rc == CLI_HELPED) cli_help(head, sets, shown, tail);
  return rc;
}

int cli_flags_or_help(const gs_flag_set *sets, size_t set_n, int argc, char **argv, const char *head, const char *tail) {
  return cli_flags_or_help_shown(sets, set_n, 1, argc, argv, head, tail);
}
