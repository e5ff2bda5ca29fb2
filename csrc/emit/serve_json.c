/* The served load's JSON: `gpusplit serve --json`'s object and a point of `gpusplit plan`'s
 * served frontier (issue 29 items 5 and 6), written through the caller's sink
 * (csrc/emit/json.h). The keys are the ones the issue names; the figures are the
 * simulation's (csrc/serve), in milliseconds where the key says _ms. */
#include "emit/json.h"

static const char *const STAT_KEYS[] = {"mean", "p50", "p90", "p99"};

void gs_out_dist_ms(const gs_out *o, const char *key, const gs_dist *d) {
  const double v[] = {d->mean, d->p50, d->p90, d->p99};
  size_t k;
  gs_out_format(o, ",\"%s\":{", key);
  for (k = 0; k < 4; k++) {
    gs_out_format(o, "%s\"%s\":", k ? "," : "", STAT_KEYS[k]);
    gs_out_double(o, v[k] * 1e3);
  }
  gs_out_text(o, "}");
}

static void double_or_null(const gs_out *o, double x, int present) {
  if (present) gs_out_double(o, x);
  else gs_out_text(o, "null");
}

static const char *load_name(int kind) { return kind == GS_LOAD_CLOSED ? "closed" : kind == GS_LOAD_OPEN ? "open" : "batch"; }

static void load_json(const gs_out *o, const gs_load *l, const char *lengths) {
  gs_out_format(o, ",\"load\":{\"kind\":\"%s\",\"requests\":%llu,\"concurrency\":%llu,\"rate\":", load_name(l->kind),
                (unsigned long long)l->requests, (unsigned long long)l->concurrency);
  double_or_null(o, l->rate, l->kind == GS_LOAD_OPEN);
  if (l->pairs) {
    gs_out_format(o, ",\"prompt_tokens\":null,\"output_tokens\":null,\"length_pairs\":%zu,\"lengths\":", l->pairs);
    gs_out_json_string(o, lengths);
    gs_out_text(o, ",\"mean_prompt_tokens\":");
    gs_out_double(o, gs_load_mean(l, l->prompts));
    gs_out_text(o, ",\"mean_output_tokens\":");
    gs_out_double(o, gs_load_mean(l, l->outputs));
  } else
    gs_out_format(o, ",\"prompt_tokens\":%llu,\"output_tokens\":%llu", (unsigned long long)l->prompt_tokens,
                  (unsigned long long)l->output_tokens);
  gs_out_format(o, ",\"seed\":%llu}", (unsigned long long)l->seed);
}

/* A named double member, after a comma. */
static void member(const gs_out *o, const char *key, double x) {
  gs_out_format(o, ",\"%s\":", key);
  gs_out_double(o, x);
}

void gs_out_serve(const gs_out *o, const gs_setting *s, const gs_load *l, const char *lengths, const gs_scheduler *e,
                  const gs_serve_result *r, const char *serving) {
  gs_out_text(o, "{\"assumptions\":");
  gs_out_json_string(o, s->assumptions);
  gs_out_text(o, ",\"serving_assumptions\":");
  gs_out_json_string(o, serving);
  gs_out_text(o, ",\"serving_fit\":");
  gs_out_json_string(o, GS_SERVING_TABLE.summary);
  /* true when no fitted run is the engine's: its step figures are every fitted run's pooled */
  gs_out_format(o, ",\"serving_fit_pooled\":%s", e->figures_pooled ? "true" : "false");
  /* the engine whose fitted figures the step takes: its own, another alike (engine.c), or "any" (pooled) */
  gs_out_format(o, ",\"serving_fit_engine\":\"%s\"", e->figures_from >= 0 ? gs_engine_name(e->figures_from) : "any");
  gs_out_format(o, ",\"validated\":%s,\"model\":", GS_SERVING_TABLE.count ? "true" : "false");
  gs_out_json_string(o, s->model_name);
  gs_out_text(o, ",\"gpu\":");
  gs_out_json_string(o, s->gpu_text.name);
  uint64_t copy_gpus = gs_serve_copy_gpus(r, s->replicas);
  gs_out_format(o, ",\"engine\":\"%s\",\"split\":\"%s\",\"gpus_per_replica\":%llu,\"replicas\":%llu,\"gpus\":%llu",
                gs_engine_name(e->kind), gs_split_name(s->plan.split), (unsigned long long)copy_gpus,
                (unsigned long long)(r->prefill_copies ? 1 : s->replicas), (unsigned long long)r->gpus);
  gs_out_format(o, ",\"prefill_copies\":%llu,\"decode_copies\":%llu,\"prefill_gpus\":%llu", (unsigned long long)r->prefill_copies,
                (unsigned long long)r->decode_copies, (unsigned long long)r->prefill_gpus);
  /* attention data-parallel only beside spread experts (csrc/core/mixed_spread.c) */
  gs_out_format(o, ",\"experts\":\"%s\",\"attention\":\"%s\",\"attention_ranks\":%llu,\"max_seqs\":%llu,\"max_batched_tokens\":%llu",
                s->plan.experts == GS_EXPERTS_SPREAD ? "spread" : "slices",
                s->plan.experts == GS_EXPERTS_SPREAD && s->plan.attention == GS_ATTENTION_DATA ? "data" : "slices",
                (unsigned long long)r->ranks, (unsigned long long)r->max_seqs, (unsigned long long)r->max_batched_tokens);
  /* the decode steps one scheduling runs (vLLM 0.6's multi-step scheduling); 1: one */
  gs_out_format(o, ",\"scheduler_steps\":%llu", (unsigned long long)(e->scheduler_steps > 1 ? e->scheduler_steps : 1));
  /* the ranks the experts are spread over (in each stage of a pipeline), each expert cut
   * over a rank's GPUs; 1 when every expert is cut over all (experts sliced) */
  gs_out_format(o, ",\"expert_ranks\":%llu",
                (unsigned long long)(s->plan.experts != GS_EXPERTS_SPREAD ? 1
                                     : s->plan.expert_ranks ? s->plan.expert_ranks : copy_gpus / r->stages));
  /* the busiest expert rank's share of the routed tokens over the mean; 1: uniform routing */
  member(o, "skew", s->plan.skew > 1 ? s->plan.skew : 1);
  gs_out_format(o, ",\"stages\":%llu,\"in_flight\":%llu", (unsigned long long)r->stages, (unsigned long long)r->in_flight);
  gs_out_format(o, ",\"limits\":\"%s\"", e->bench_limits ? "trtllm-bench" : "engine");
  load_json(o, l, lengths);
  gs_out_dist_ms(o, "ttft_ms", &r->ttft);
  gs_out_dist_ms(o, "tpot_ms", &r->tpot);
  gs_out_dist_ms(o, "itl_ms", &r->itl);
  gs_out_dist_ms(o, "e2e_ms", &r->e2e);
  member(o, "output_tokens_per_s", r->output_tokens_per_s);
  member(o, "total_tokens_per_s", r->total_tokens_per_s);
  member(o, "requests_per_s", r->requests_per_s);
  member(o, "duration_s", r->duration);
  member(o, "mean_in_flight", r->mean_in_flight);
  gs_out_format(o, ",\"steps\":%llu,\"preemptions\":%llu,\"pool_blocks\":%llu,\"pool_tokens\":%llu,\"pool_peak_blocks\":%llu",
                (unsigned long long)r->steps, (unsigned long long)r->preemptions, (unsigned long long)r->pool_blocks,
                (unsigned long long)r->pool_tokens, (unsigned long long)r->peak_blocks);
  member(o, "pool_peak_share", (double)r->peak_blocks / (double)r->pool_blocks);
  gs_out_format(o, ",\"overloaded\":%s,\"sustainable_rate\":", r->overloaded ? "true" : "false");
  double_or_null(o, r->sustainable_rate, l->kind == GS_LOAD_OPEN);
  gs_out_text(o, "}\n");
}

void gs_out_served_point(const gs_out *o, const gs_served_ask *a, const gs_served_point *pt, double gpu_hour) {
  const gs_layout *l = &pt->layout;
  double gpus = (double)gs_served_gpus(pt);
  uint64_t units = a->has_load ? l->replicas : 1;
  char flags[256];
  int spread = l->experts == GS_EXPERTS_SPREAD;
  gs_out_format(o, "{\"gpus\":%llu,\"split\":\"%s\",\"experts\":\"%s\",\"attention\":\"%s\",\"replicas\":%llu,"
                   "\"total_gpus\":%llu,\"max_seqs\":%llu,\"in_flight\":%llu",
                (unsigned long long)l->gpus, gs_split_name(l->split), spread ? "spread" : "slices",
                spread && pt->attention == GS_ATTENTION_DATA ? "data" : "slices", (unsigned long long)l->replicas,
                (unsigned long long)gs_served_gpus(pt), (unsigned long long)pt->max_seqs,
                (unsigned long long)l->in_flight);
  /* a unit's prefill and decode copies times the units the flags run (the deployment's with a load, one copy's without) */
  gs_out_format(o, ",\"prefill_copies\":%llu,\"decode_copies\":%llu", (unsigned long long)(pt->prefill * units),
                (unsigned long long)(pt->decode * units));
  member(o, "time_per_word", l->word_s);
  member(o, "first_word", l->first_s);
  member(o, "words_per_s", l->words_per_s);
  member(o, "words_per_s_per_gpu", l->per_gpu);
  gs_out_text(o, ",\"cost_per_million\":");
  double_or_null(o, l->cost_per_million, l->cost_per_million >= 0);
  gs_out_format(o, ",\"load\":{\"kind\":\"%s\"", a->has_load ? "given" : pt->saturated ? "saturated" : "poisson");
  member(o, "requests_per_s", pt->rate);
  member(o, "requests_per_s_per_gpu", pt->rate / gpus);
  gs_out_text(o, ",\"requests_per_dollar\":");
  double_or_null(o, gpu_hour > 0 ? pt->rate * 3600 / (gpus * gpu_hour) : 0, gpu_hour > 0);
  gs_out_text(o, ",\"copy_rate\":");
  double_or_null(o, pt->copy_rate, !a->has_load);
  gs_out_text(o, "}");
  gs_out_dist_ms(o, "ttft_ms", &pt->ttft);
  gs_out_dist_ms(o, "tpot_ms", &pt->tpot);
  gs_out_format(o, ",\"preemptions\":%llu,\"flags\":", (unsigned long long)pt->preemptions);
  gs_out_json_string(o, gs_served_flags(a, pt, flags, sizeof flags));
  gs_out_text(o, "}");
}
