/* report --emit ENGINE: the launch command of the one layout the report prices, as the
 * library writes it (gs_launch, csrc/emit/launch.c). This file only reads the flag and prints. */
#include <string.h>

#include "cli.h"

int cli_emit_parse(const char *engine, const char *counts, int other_output, int *engine_out) {
  int e = gs_engine_parse(engine);
  if (e < 0 || e >= GS_LAUNCH_ENGINES) return cli_bad("--emit: must be vllm, sglang or trtllm, not '%s'", engine);
  if (other_output) return cli_bad("--emit: prints a command in place of the report; leave out --json and --explain");
  if (!counts || strchr(counts, ','))
    return cli_bad("--emit: starts one layout; give its GPU count alone, --counts N");
  *engine_out = 1 + e;
  return CLI_OK;
}

int cli_emit_print(const cli_report_options *o) {
  static char text[GS_LAUNCH_CAP];
  gs_error err;
  int engine = o->emit - 1;
  if (gs_launch(&o->setting, o->counts[0], engine, text, sizeof text, &err) != GS_OK)
    return cli_bad("--emit %s: %s", gs_engine_name(engine), err.what);
  fputs(text, stdout);
  return CLI_OK;
}

int cli_emit_plan_check(const char *engine, int json, int has_target) {
  int e = gs_engine_parse(engine);
  if (e < 0 || e >= GS_LAUNCH_ENGINES) return cli_bad("--emit: must be vllm, sglang or trtllm, not '%s'", engine);
  if (json) return cli_bad("--emit: prints a command in place of the plan; leave out --json");
  if (!has_target)
    return cli_bad("--emit: starts the layout a target chooses; give --target-word-ms or --target-first-ms");
  return CLI_OK;
}

int cli_emit_plan(const gs_setting *s, const gs_plan_result *r, const char *engine) {
  static gs_setting chosen; /* large (its texts) */
  static gs_priced priced;
  static char text[GS_LAUNCH_CAP];
  int e = gs_engine_parse(engine);
  gs_error err;
  if (!r->has_choice) return cli_bad("--emit %s: no layout meets the target: %s", engine, r->why);
  /* the chosen layout's setting, as the plan priced it */
  if (gs_layout_price(s, &r->choice, &chosen, &priced, &err) != GS_OK || gs_launch(&chosen, r->choice.gpus, e, text, sizeof text, &err) != GS_OK)
    return cli_bad("--emit %s: %s", engine, err.what);
  fputs(text, stdout);
  return CLI_OK;
}
