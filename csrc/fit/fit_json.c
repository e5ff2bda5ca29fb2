/* data/efficiency.json's text, as `gpusplit fit --json` writes it and gs_efficiency_read
 * (csrc/read/efficiency.c) reads it back: the all-reduce start-up by generation, each
 * group's figures with the runs they were fitted on, and the runs skipped (fit.h). */
#include "fit/fit.h"

static void json_str_field(const gs_out *o, const char *key, const char *v, int comma) {
  gs_out_format(o, "%s\"%s\":", comma ? "," : "", key);
  gs_out_json_string(o, v);
}

/* 15 significant digits: every figure is rounded to 0.1 or 0.01 (round_to), so the text
 * reads back as the same double, through the JSON reader's exact decimals. */
static void json_num_field(const gs_out *o, const char *key, double v) {
  char buf[40];
  gs_out_format(o, ",\"%s\":%s", key, gs_plain(buf, sizeof buf, v));
}

void fit_json(const gs_out *o, const gs_runs *runs, const priced_run *p, const fit_result *fr, size_t ok) {
  size_t i, g;
  gs_out_text(o, "{\"_source\":\"gpusplit fit: achieved efficiency fitted to measured decode runs, least squares of relative error "
         "with each source weighted alike (csrc/cli/cli_fit.c); the all-reduce start-up above NCCL's constants fitted to "
         "NVIDIA's measured all-reduces (tests/measured). Each figure names the runs it was fitted on.\",");
  gs_out_format(o, "\"runs\":%zu,\"priced\":%zu,\"median_engine\":", runs->count, ok);
  gs_out_json_string(o, fr->median_engine);
  gs_out_text(o, ",\"allreduce\":[");
  for (g = 0, i = 0; g < FIT_GEN_COUNT; g++) {
    if (!fr->ar.rows[g]) continue;
    gs_out_format(o, "%s{", i++ ? "," : "");
    json_str_field(o, "generation", GS_GENERATIONS[g], 0);
    json_num_field(o, "allreduce_us", fr->ar.us[g]);
    gs_out_format(o, ",\"rows\":%zu", fr->ar.rows[g]);
    json_num_field(o, "mean_square_us2", fr->ar.rms_us[g]);
    gs_out_text(o, "}");
  }
  gs_out_text(o, "],\"startup_runs\":{");
  for (g = 0; g < GS_GENERATION_COUNT; g++) gs_out_format(o, "%s\"%s\":%zu", g ? "," : "", GS_GENERATIONS[g], fr->startup_runs[g]);
  gs_out_text(o, "},\"figures\":[");
  for (g = 0; g < fr->count; g++) {
    const fit_figure *x = &fr->f[g];
    size_t k, n = 0;
    gs_out_format(o, "%s{", g ? "," : "");
    json_str_field(o, "engine", x->engine, 0);
    json_str_field(o, "generation", x->generation, 1);
#define FIGURE(member, kind, flag) json_num_field(o, #member, x->e.member);
    GS_EFFICIENCY_FIELDS(FIGURE)
#undef FIGURE
    json_str_field(o, "allreduce_from", x->allreduce_fitted ? "runs" : "nccl-tests", 1);
    gs_out_format(o, ",\"pooled\":%s", x->pooled ? "true" : "false");
    gs_out_format(o, ",\"runs\":%zu,\"ttft_runs\":%zu", x->runs, x->ttft_runs);
    json_str_field(o, "sources", x->sources, 1);
    json_num_field(o, "median_error", x->median_error);
    if (x->left_out_error >= 0) json_num_field(o, "left_out_error", x->left_out_error);
    else gs_out_text(o, ",\"left_out_error\":null");
    /* a median over no first words is none, not 0 */
    if (x->ttft_errors) json_num_field(o, "ttft_median_error", x->ttft_median_error);
    else gs_out_text(o, ",\"ttft_median_error\":null");
    gs_out_text(o, ",\"ids\":\"");
    for (k = 0; k < runs->count; k++)
      if (fit_in_group(&p[k], x->engine, x->generation)) {
        if (n++) gs_out_text(o, ",");
        gs_out_json_text(o, p[k].run->id);
      }
    gs_out_text(o, "\"}");
  }
  gs_out_text(o, "],\"skipped\":[");
  for (i = 0, g = 0; i < runs->count; i++) {
    if (p[i].ok) continue;
    gs_out_format(o, "%s{", g++ ? "," : "");
    json_str_field(o, "id", p[i].run->id, 0);
    json_str_field(o, "why", p[i].why, 1);
    gs_out_text(o, "}");
  }
  gs_out_text(o, "]}\n");
}

