/* `gpusplit figure NAME`: one of the lesson's four figures as an SVG on stdout, drawn by
 * the library (csrc/core/figure.c) for the lesson's 8B and 70B models, its GPU and its
 * fast and slow links. `make figures` writes all four into web/figures/. */
#include <errno.h>
#include <string.h>

#include "cli.h"

/* The largest figure is about 6 KB; four times that leaves room for longer names. */
enum { FIGURE_CAP = 1 << 15 };

static const char HELP[] =
    "usage: gpusplit figure weights-split|time-per-word|stops-helping|slices-vs-groups\n"
    "\n"
    "Writes one of the lesson's four figures as an SVG on stdout, every number on it from\n"
    "the cost model with the lesson's GPU and links:\n"
    "  weights-split     Figure 1: the 70B model's weights against one GPU, then split four ways\n"
    "  time-per-word     Figure 2: one word's reading and waiting on 2, 4, 8 and 16 GPUs\n"
    "  stops-helping     Figure 3: the 8B model's words a second on both links\n"
    "  slices-vs-groups  Figure 4: one word on four GPUs, slices against groups\n";

/* The figure's name, its place from 1 in gs_figure_name's order. */
static const gs_flag FIGURE_FLAGS[] = {
    {"NAME", GS_FLAG_CHOICE, "weights-split|time-per-word|stops-helping|slices-vs-groups", 0, 0, 0, NULL, 0, 0, 0, 1, NULL},
};

int cli_figure(int argc, char **argv) {
  static char svg[FIGURE_CAP];
  gs_model small, large;
  gs_gpu gpu;
  gs_link fast, slow;
  gs_figure_input in;
  gs_error err;
  size_t len = 0;
  int place = 0, kind;
  gs_flag_set set = {FIGURE_FLAGS, 1, &place, NULL, NULL};
  int rc = cli_flags_or_help(&set, 1, argc, argv, HELP, "");
  if (rc != CLI_OK) return rc == CLI_HELPED ? CLI_OK : rc;
  kind = place - 1;
  if (gs_builtin_model("8b", 0, &small, &err) != GS_OK || gs_builtin_model("70b", 0, &large, &err) != GS_OK)
    return cli_bad_error("data/models", &err);
  if (gs_builtin_gpu("lesson", &gpu, NULL, &err) != GS_OK) return cli_bad_error("data/gpus.json", &err);
  if (gs_builtin_link("fast", &fast, NULL, &err) != GS_OK || gs_builtin_link("slow", &slow, NULL, &err) != GS_OK)
    return cli_bad_error("data/links.json", &err);
  in.small = &small;
  in.large = &large;
  in.small_name = gs_find_model("8b")->name;
  in.large_name = gs_find_model("70b")->name;
  in.gpu = &gpu;
  in.fast = &fast;
  in.slow = &slow;
  if (gs_figure(kind, &in, svg, sizeof svg, &len, &err) != GS_OK) {
    fprintf(stderr, "gpusplit: figure: %s\n", err.what);
    return CLI_FAILED;
  }
  /* one write larger than stdio's buffer goes straight out, so a failure is seen here, with
   * its cause, and not at the final flush, which would have nothing left to write */
  errno = 0;
  if (fwrite(svg, 1, len, stdout) != len) {
    fprintf(stderr, "gpusplit: writing output: %s\n", errno ? strerror(errno) : "failed");
    return CLI_FAILED;
  }
  return CLI_OK;
}
