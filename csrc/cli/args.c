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

void cli_help(const char *head, const gs_flag *flags, size_t n, const char *tail) {
  char line[2048];
  size_t i;
  fputs(head, stdout);
  for (i = 0; i < n; i++) {
    if (!flags[i].help || flags[i].kind == GS_FLAG_REFUSED) continue;
    if (gs_flag_help(&flags[i], line, sizeof line) != (size_t)-1) printf("%s\n", line);
  }
  fputs(tail, stdout);
}

int cli_flags_or_help(const gs_flag_set *sets, size_t set_n, int argc, char **argv, const char *head, const char *tail) {
  int rc = cli_read_flags(sets, set_n, argc, argv);
  if (rc == CLI_HELPED) cli_help(head, sets[0].flags, sets[0].n, tail);
  return rc;
}
