/* What a person asks, resolved once into a model, a machine and a plan. The command line
 * (csrc/cli/report_options.c) and both modules (csrc/wasm/) fill a gs_request and call
 * gs_resolve, so every rule below is applied in one place:
 * - the model by catalogue name or config.json text, at the request's bits;
 * - the GPU and the links from the catalogue, each typed figure in place of one of theirs;
 * - the link between servers starts up as the link does (the start-up is paid once an
 *   all-reduce, whichever links it crosses);
 * - NCCL's own protocols need a GPU generation NCCL's tables name;
 * - a fitted log gives the link's figures, so typed link figures beside it are refused;
 * - the plan's defaults (one word, GS_CHAT_TOKENS, 16-bit cache) and its check for one GPU.
 * To add a setting: a field in gs_request (csrc/gpusplit.h), its rule here, its flag in
 * csrc/cli/report_options.c and its argument in the modules. */
#include <string.h>

#include "internal.h"
#include "read/efficiency.h"

/* The lesson's module takes the lesson's settings by name alone (its widget types no figure
 * and asks for no rule past the lesson), so what serves typed figures, real rules, logs and
 * prices is left out of it: each use of BEYOND_WIDGET (internal.h) below is a constant 0
 * there. */

static int failed(gs_setting *out, const char *part, int rc) {
  gs_format(out->failed, sizeof out->failed, "%s", part);
  return rc;
}

static int resolve_model(const gs_request *q, gs_setting *out, gs_error *err) {
  const gs_model_entry *e;
  int rc;
  if (q->model_text) {
#ifdef GS_LESSON_ONLY
    /* the lesson's module carries no config reader: it offers its three models */
    return gs_fail(err, GS_ERR_UNSUPPORTED, "model", "this module reads no config.json");
#else
    out->model_name = q->model_label ? q->model_label : "config.json";
    if (memchr(q->model_text, '\0', q->model_len))
      return gs_fail(err, GS_ERR_JSON, "", "is not valid JSON: it holds a NUL byte");
    return gs_model_parse(q->model_text, q->model_len, q->bits, &out->model, err);
#endif
  }
  e = gs_find_model(q->model_key ? q->model_key : "70b");
  if (!e) return gs_fail(err, GS_ERR_UNKNOWN, "model", "no built-in model is named '%s'", q->model_key);
  out->model_name = e->name;
  out->model_entry = e;
  if ((rc = gs_builtin_model(e->key, q->bits, &out->model, err)) != GS_OK) return rc;
  return GS_OK;
}

/* A GPU by key (the lesson's when none), each typed figure in place of the catalogue's;
 * with no key and every figure typed, a GPU of its own (no generation unless typed). */
/* A catalogue entry's names, without its source. */
static void names_of(const gs_hardware_text *t, gs_hardware_names *out) {
  gs_format(out->key, sizeof out->key, "%s", t->key);
  gs_format(out->name, sizeof out->name, "%s", t->name);
  gs_format(out->link, sizeof out->link, "%s", t->link);
}

static int resolve_gpu(const gs_request *q, gs_setting *out, gs_error *err) {
  const unsigned figures = GS_TYPED_GIB | GS_TYPED_USABLE | GS_TYPED_GPU_BW | GS_TYPED_FLOPS;
  unsigned t = BEYOND_WIDGET ? q->gpu_typed : 0;
  gs_hardware_text text;
  int rc;
  if (!q->gpu_key && (t & figures) == figures) {
    memset(&out->gpu, 0, sizeof out->gpu);
    memset(&out->gpu_text, 0, sizeof out->gpu_text);
  } else if ((rc = gs_builtin_gpu(q->gpu_key ? q->gpu_key : "lesson", &out->gpu, &text, err)) != GS_OK) {
    return rc;
  } else {
    names_of(&text, &out->gpu_text);
  }
  if (t & GS_TYPED_GIB) out->gpu.gib = q->gpu.gib;
  if (t & GS_TYPED_USABLE) out->gpu.usable = q->gpu.usable;
  if (t & GS_TYPED_GPU_BW) out->gpu.bandwidth = q->gpu.bandwidth;
  if (t & GS_TYPED_FLOPS) out->gpu.flops = q->gpu.flops;
  if (t & GS_TYPED_ARCH) out->gpu.arch = q->gpu.arch;
  /* named "Custom GPU" under the lesson's rules only (gs_resolve): under real ones it is
   * still the catalogue's GPU, and the assumptions name each figure typed in its place */
  if (!BEYOND_WIDGET) return GS_OK; /* the lesson's GPU, checked when its table was written */
  if (out->gpu.arch < GS_ARCH_NONE || out->gpu.arch > GS_ARCH_BLACKWELL)
    return gs_fail(err, GS_ERR_RANGE, "gpu arch", "must be an enum gs_arch");
  return gs_gpu_check(&out->gpu, err);
}

/* A link by key (def when none), each typed figure in place of the catalogue's; with no
 * key and its kind, bandwidth, step and base typed, a link of its own (the modules'); with no
 * key and some figures typed, the default link with those in place of its own (the
 * command line's --link-bw, --step-us, --base-us).
 * base_us, when not negative, is the start-up it must have. *latencies_typed (when not
 * NULL) says whether a typed latency differs from the one it replaces: 1 the step's, 2 the
 * base's, 0 neither. */
static int resolve_link(const char *key, const char *def, unsigned t, const gs_link *typed, double base_us, gs_link *out,
                        gs_hardware_names *names, int *latencies_typed, gs_error *err) {
  /* a link of its own has its bandwidth and latencies typed (the start-up may be given as
   * base_us); otherwise typed figures replace some of the default link's */
  const unsigned figures = GS_TYPED_LINK_BW | GS_TYPED_STEP_US | GS_TYPED_KIND | (base_us >= 0 ? 0 : GS_TYPED_BASE_US);
  int custom = !key && (t & figures) == figures, rc;
  gs_hardware_text text;
  if (custom) {
    memset(out, 0, sizeof *out);
    memset(names, 0, sizeof *names);
  } else if ((rc = gs_builtin_link(key ? key : def, out, &text, err)) != GS_OK) {
    return rc;
  } else {
    names_of(&text, names);
  }
  if (!BEYOND_WIDGET) return GS_OK;
  /* only a catalogue link's latencies can be said to be replaced; a link typed whole has
   * none of its own to compare (NCCL's rules price it with NCCL's latencies for its kind) */
  if (latencies_typed && !custom)
    *latencies_typed = (t & GS_TYPED_STEP_US) && typed->step_us != out->step_us   ? 1
                       : (t & GS_TYPED_BASE_US) && typed->base_us != out->base_us ? 2
                                                                                  : 0;
  if (t & GS_TYPED_LINK_BW) out->bandwidth = typed->bandwidth;
  /* a -0 typed is 0 (IEEE 754: -0 + +0 is +0), so no figure prints as "-0" */
  if (t & GS_TYPED_STEP_US) out->step_us = typed->step_us + 0.0;
  if (t & GS_TYPED_BASE_US) out->base_us = typed->base_us + 0.0;
  if (t & GS_TYPED_KIND) out->kind = typed->kind;
  if (base_us >= 0) out->base_us = base_us;
  if (t & (GS_TYPED_LINK_BW | GS_TYPED_STEP_US | GS_TYPED_BASE_US | GS_TYPED_KIND))
    gs_format(names->name, sizeof names->name, "Custom link");
  return gs_link_check(out, err);
}

double gs_ring_one_way(const gs_gpu *g, const gs_link *l) {
  if (l->kind == GS_LINK_NVLINK && g->ring_bw > 0) return g->ring_bw;
  if (l->ring_bw > 0) return l->ring_bw;
  return l->kind == GS_LINK_NET ? l->bandwidth : l->bandwidth / 2;
}

/* Whether real hardware's rules hold (enum gs_assume), and the switches they turn on. */
static unsigned real_switches(const gs_request *q, gs_setting *out) {
  unsigned on = GS_SW_CACHE_PER_CHAT | GS_SW_READ_CACHE | GS_SW_DIVIDE_HEADS;
  if (!BEYOND_WIDGET) return 0;
  /* a catalogue GPU keeps its rules when some of its figures are typed: each replaces that
   * figure only (a GPU of its own, every figure typed and no key, has no rules of its own) */
  out->real = q->assume == GS_ASSUME_REAL || (q->assume == GS_ASSUME_DEFAULT && q->gpu_key && strcmp(out->gpu_text.key, "lesson") != 0);
  if (!out->real) return 0;
  /* NCCL's rules where NCCL runs; AMD's GPUs run RCCL, whose tables are not NCCL's */
  if (out->gpu.arch != GS_ARCH_NONE) on |= GS_SW_NCCL_AUTO;
  /* 8-bit weights on a GPU with FP8 tensor cores are served as FP8 (W8A8): TensorRT-LLM's
   * and vLLM's FP8 checkpoints multiply in FP8, so a prefill runs at the FP8 peak (the
   * measured runs' "precision FP8", tests/measured/decode-runs-README.md); what such a
   * checkpoint leaves at 16 bits, the output table and attention, keeps the 16-bit peak
   * (flops16, set in resolve_plan; the same ModelOpt configs as 4-bit's, below) */
  if (q->bits == 8 && out->gpu.flops_fp8 > 0 && !(q->gpu_typed & GS_TYPED_FLOPS)) on |= GS_SW_FP8_COMPUTE;
  return on;
}

/* ", typed: ..." naming each GPU and link figure typed in place of the catalogue's, into buf
 * ("" when none). */
static void say_typed(const gs_request *q, const gs_setting *out, char *buf, size_t cap) {
  char f[GS_FIGURE_CAP], items[160] = "";
  const gs_gpu *g = &out->gpu;
  const gs_link *l = &out->link;
  size_t at = 0;
  unsigned t = q->gpu_typed, k = q->link_typed;
  if (t & GS_TYPED_GIB)
    at += (size_t)gs_format(items + at, sizeof items - at, ", %s GiB", gs_fixed(f, sizeof f, g->gib, g->gib == (double)(uint64_t)g->gib ? 0 : 2));
  if ((t & GS_TYPED_USABLE) && at < sizeof items)
    at += (size_t)gs_format(items + at, sizeof items - at, ", %s usable", gs_fixed(f, sizeof f, g->usable, 2));
  if ((t & GS_TYPED_GPU_BW) && at < sizeof items)
    at += (size_t)gs_format(items + at, sizeof items - at, ", %s read", gs_bytes_rate(f, sizeof f, g->bandwidth));
  if ((t & GS_TYPED_FLOPS) && at < sizeof items) at += (size_t)gs_format(items + at, sizeof items - at, ", %s", gs_flops_rate(f, sizeof f, g->flops));
  if ((k & GS_TYPED_LINK_BW) && at < sizeof items)
    at += (size_t)gs_format(items + at, sizeof items - at, ", a %s link", gs_bytes_rate(f, sizeof f, l->bandwidth));
  if ((k & GS_TYPED_STEP_US) && at < sizeof items)
    at += (size_t)gs_format(items + at, sizeof items - at, ", %s us a link step", gs_fixed(f, sizeof f, l->step_us, 1));
  if ((k & GS_TYPED_BASE_US) && at < sizeof items)
    at += (size_t)gs_format(items + at, sizeof items - at, ", %s us all-reduce start-up", gs_fixed(f, sizeof f, l->base_us, 1));
  if ((k & GS_TYPED_KIND) && at < sizeof items)
    gs_format(items + at, sizeof items - at, ", a link of %s's kind", l->kind == GS_LINK_NVLINK ? "NVLink" : l->kind == GS_LINK_PCI ? "PCIe" : "a network");
  gs_format(buf, cap, "%s%s", items[0] ? "; typed: " : "", items[0] ? items + 2 : "");
}

/* The one line that says which rules hold, for the report's header and the JSON. */
static void say_assumptions(const gs_request *q, gs_setting *out) {
  const gs_plan *p = &out->plan;
  char servers[96] = "one server", typed[200], rule[200], unfitted[160] = "";
  if (p->per_server) gs_format(servers, sizeof servers, "servers of %llu joined by %s", (unsigned long long)p->per_server,
                               out->between_text.name[0] ? out->between_text.name : "the link between servers");
  const char *fp8 = out->fp8_compute    ? ", 8-bit weights at the FP8 peak, attention and the output table at 16 bits"
                    : out->fp4_compute   ? ", 4-bit weights at the FP4 peak, attention and the output table at 16 bits"
                    : out->mxfp4_compute ? ", MXFP4 experts at the FP8 peak and the rest at 16 bits"
                                         : "";
  if (!out->real) {
    gs_format(out->assumptions, sizeof out->assumptions, "the lesson's rules%s%s",
              q->assume == GS_ASSUME_LESSON ? ", as asked" : " (a GPU of the lesson's or typed)", fp8);
    return;
  }
  say_typed(q, out, typed, sizeof typed);
  if (BEYOND_WIDGET && out->allreduce_unfitted)
    gs_format(unfitted, sizeof unfitted, ", no all-reduce start-up fitted to other GPUs' runs (none of the fit's decode runs on %s takes an all-reduce)",
              gs_gpu_generation(out->gpu_text.key)[0] ? gs_gpu_generation(out->gpu_text.key) : out->gpu_text.name);
  if (p->measured)
    gs_format(rule, sizeof rule, "all-reduces as measured on one server (%s, %s: %llu to %llu GPUs, nothing fitted added), "
              "NCCL's rules beyond at the one-way ring bandwidth",
              p->measured->file, p->measured->source_dir, (unsigned long long)p->measured->gpus[0],
              (unsigned long long)p->measured->gpus[p->measured->counts - 1]);
  gs_format(out->assumptions, sizeof out->assumptions, "real: %s, %s, %s, %s, %s%s%s%s%s", p->cache_per_chat ? "a cache for each chat" : "one chat's cache",
            p->read_cache ? "read every step" : "not read", out->divide_heads ? "counts dividing the heads" : "every count", servers,
            p->measured ? rule : p->nccl == GS_NCCL_AUTO ? "NCCL's rules at the one-way ring bandwidth" : "the lesson's all-reduce at the one-way ring bandwidth",
            unfitted, p->prompt_tokens ? ", the first word timed" : "", fp8, typed);
}

/* The plan past the GPU count, with the lesson's defaults (or real hardware's), checked
 * for one GPU. */
static int resolve_plan(const gs_request *q, int own_latencies, gs_setting *out, gs_error *err) {
  gs_plan *p = &out->plan;
  gs_plan one;
  unsigned assumed = real_switches(q, out), switches;
  int rc;
  /* a link of the person's own latencies (typed, or a fitted log) is priced by the
   * lesson's all-reduce: real rules do not put NCCL's latencies in its place */
  if (own_latencies) assumed &= ~(unsigned)GS_SW_NCCL_AUTO;
  switches = (q->switches | assumed) & ~q->switches_off;
  p->split = q->split;
  p->words = q->words ? q->words : 1;
  p->per_server = q->per_server;
  p->chat_tokens = q->chat_tokens ? q->chat_tokens : GS_CHAT_TOKENS;
  p->cache_bits = q->cache_bits ? q->cache_bits : 16;
  p->cache_per_chat = (switches & GS_SW_CACHE_PER_CHAT) != 0;
  p->overlap = (switches & GS_SW_OVERLAP) != 0;
  p->read_cache = (switches & GS_SW_READ_CACHE) != 0;
  p->nccl = switches & GS_SW_NCCL_AUTO ? GS_NCCL_AUTO : GS_NCCL_LESSON;
  p->in_flight = q->in_flight;
  /* p->efficiency: gs_resolve's, the engine's figures and the typed ones (zero in the lesson's module) */
  p->prompt_tokens = q->no_prompt ? 0 : q->prompt_tokens;
  p->experts = q->experts; /* gs_plan_check refuses what spread cannot price */
  p->expert_ranks = q->expert_ranks;
  if (BEYOND_WIDGET && (rc = gs_efficiency_check(&p->efficiency, err)) != GS_OK) return rc;
  if (q->prompt_tokens > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, "prompt_tokens", "must be from 1 to %llu", (unsigned long long)GS_MAX_CHAT_TOKENS);
  out->divide_heads = (switches & GS_SW_DIVIDE_HEADS) != 0;
  if (BEYOND_WIDGET && (switches & GS_SW_FP8_COMPUTE)) {
    if (q->bits != 8) return gs_fail(err, GS_ERR_SHAPE, "fp8_compute", "needs 8-bit weights (--bits 8)");
    if (q->gpu_typed & GS_TYPED_FLOPS) return gs_fail(err, GS_ERR_SHAPE, "fp8_compute", "type the FP8 peak itself as the flops");
    if (out->gpu.flops_fp8 <= 0) return gs_fail(err, GS_ERR_UNSUPPORTED, "fp8_compute", "%s has no FP8 tensor cores", out->gpu_text.name);
    /* what an FP8 checkpoint leaves at 16 bits (the output table, attention) keeps the
     * 16-bit peak, as a 4-bit one's below: FP8_DEFAULT_CFG quantizes the linear layers'
     * weights and inputs beside the same _default_disabled_quantizer_cfg */
    out->gpu.flops16 = out->gpu.flops;
    out->gpu.flops = out->gpu.flops_fp8;
    out->fp8_compute = 1;
  }
  /* 4-bit weights on a GPU with an FP4 peak (data/gpus.json's flops_fp4: Blackwell's NVFP4,
   * CDNA4's MXFP4) are served as FP4 (W4A4), so a prefill multiplies at that peak, as 8-bit
   * weights at the FP8 one; typed FLOP/s or --no-fp8-compute keep the 16-bit peak. What such a
   * checkpoint leaves at 16 bits (the output table, attention) keeps the 16-bit peak, flops16
   * (gs_compute_seconds_kept) */
  if (BEYOND_WIDGET && out->real && q->bits == 4 && out->gpu.flops_fp4 > 0 && !(q->gpu_typed & GS_TYPED_FLOPS) &&
      !(q->switches_off & GS_SW_FP8_COMPUTE)) {
    out->gpu.flops16 = out->gpu.flops;
    out->gpu.flops = out->gpu.flops_fp4;
    out->fp4_compute = 1;
  }
  /* routed experts stored MXFP4 (gpt-oss) served as stored on Blackwell: they multiply with
   * MXFP8 activations at the FP8 peak and every other weight stays 16-bit (gs_mxfp4_peak) */
  if (BEYOND_WIDGET && out->real && !q->bits && out->model.routed_mxfp4 && out->gpu.arch == GS_ARCH_BLACKWELL &&
      out->gpu.flops_fp8 > 0 && !(q->gpu_typed & GS_TYPED_FLOPS) && !(q->switches_off & GS_SW_FP8_COMPUTE)) {
    out->gpu.flops = gs_mxfp4_peak(&out->model, out->gpu.flops, out->gpu.flops_fp8);
    out->mxfp4_compute = 1;
  }
  if (out->real && !q->per_server) p->per_server = (uint64_t)out->gpu.per_server;
  if (out->real && !q->prompt_tokens && !q->no_prompt) p->prompt_tokens = GS_REAL_PROMPT_TOKENS;
  out->max_n = q->max_n ? q->max_n : GS_DEFAULT_MAX_N;
  out->replicas = 1;
  if (!BEYOND_WIDGET) {
    one = *p;
    one.gpus = 1;
    return gs_plan_check(&out->model, &one, err);
  }
  out->replicas = q->replicas ? q->replicas : 1;
  if (out->replicas > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "replicas", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  /* a price a person types: any currency, from a thousandth to a million an hour */
  if (q->gpu_hour != 0 && !(q->gpu_hour >= 1e-3 && q->gpu_hour <= 1e6))
    return gs_fail(err, GS_ERR_RANGE, "gpu_hour", "must be a price from 0.001 to 1000000 an hour");
  out->gpu_hour = q->gpu_hour;
  if (out->max_n > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "max_n", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (p->nccl == GS_NCCL_AUTO && out->gpu.arch == GS_ARCH_NONE)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "nccl",
                   "auto needs an NVIDIA GPU of a generation NCCL's tables name; %s runs RCCL or is typed without one",
                   out->gpu_text.name);
  if (q->in_flight > GS_MAX_GPUS)
    return gs_fail(err, GS_ERR_RANGE, "in_flight", "must be from 1 to %llu", (unsigned long long)GS_MAX_GPUS);
  if (q->in_flight > 1 && p->split == GS_SLICES)
    return gs_fail(err, GS_ERR_SHAPE, "in_flight", "slices keep no batches in flight: every GPU works on the one batch");
  /* one GPU makes one group: the batches in flight and the ranks of experts are checked
   * against each count */
  one = *p;
  one.gpus = 1;
  one.in_flight = 0;
  one.expert_ranks = 0;
  return gs_plan_check(&out->model, &one, err);
}

#ifndef GS_LESSON_ONLY
/* The link fitted to the request's log, at this plan's message size, of the chosen
 * link's kind (gpusplit calibrate; report --link-from). */
static int resolve_log(const gs_request *q, gs_setting *out, gs_error *err) {
  gs_measured measured; /* 4 KiB, on the stack: the library keeps no state */
  gs_fit fit;
  gs_link fitted;
  uint64_t bytes;
  int rc;
  if (q->link_typed & (GS_TYPED_LINK_BW | GS_TYPED_STEP_US | GS_TYPED_BASE_US))
    return gs_fail(err, GS_ERR_SHAPE, "figures", "it gives the link's figures; leave out --link-bw, --step-us and --base-us");
  if ((rc = gs_nccl_log_parse(q->log_text, q->log_len, &measured, err)) != GS_OK ||
      (rc = gs_fit_measured(&measured, &fit, err)) != GS_OK)
    return rc;
  if (!gs_mul(gs_message_bytes(&out->model), out->plan.words, &bytes))
    return gs_fail(err, GS_ERR_OVERFLOW, "words", "the message of every word would not fit in 64 bits");
  if ((rc = gs_fit_link(&fit, bytes, out->link.kind, &fitted, err)) != GS_OK) return rc;
  out->link = fitted;
  out->fitted_gpus = fit.gpus;
  gs_format(out->link_text.name, sizeof out->link_text.name, "Fitted to a log of %llu GPUs", (unsigned long long)fit.gpus);
  return GS_OK;
}
#else
/* The lesson's module carries no log reader. */
static int resolve_log(const gs_request *q, gs_setting *out, gs_error *err) {
  (void)q;
  (void)out;
  return gs_fail(err, GS_ERR_UNSUPPORTED, "log", "the lesson's module fits no logs");
}
#endif

int gs_resolve(const gs_request *q, gs_setting *out, gs_error *err) {
  const char *default_link;
  int latencies_typed = 0, rc;
  memset(out, 0, sizeof *out);
  if (!BEYOND_WIDGET && (q->gpu_typed || q->link_typed || q->between_typed || q->log_text || q->assume == GS_ASSUME_REAL ||
                       q->switches || q->per_server || q->in_flight || q->replicas > 1 || q->experts || q->expert_ranks ||
                       q->gpu_hour != 0 || q->prompt_tokens || gs_efficiency_on(&q->efficiency)))
    return failed(out, "plan", gs_fail(err, GS_ERR_UNSUPPORTED, "plan",
                                       "the lesson's module takes the lesson's settings by name (build/gpusplit.wasm has the rest)"));
  out->bits = q->bits;
  if (q->bits > 32) return failed(out, "model", gs_fail(err, GS_ERR_RANGE, "bits", "must be from 1 to 32"));
  if ((rc = resolve_model(q, out, err)) != GS_OK) return failed(out, "model", rc);
  if ((rc = resolve_gpu(q, out, err)) != GS_OK) return failed(out, "gpu", rc);
  /* under real rules a GPU's own link (the catalogue's "link") is the default, not the lesson's */
  real_switches(q, out);
  if (!out->real && (q->gpu_typed & (GS_TYPED_GIB | GS_TYPED_USABLE | GS_TYPED_GPU_BW | GS_TYPED_FLOPS)))
    gs_format(out->gpu_text.name, sizeof out->gpu_text.name, "Custom GPU");
  default_link = out->real && out->gpu_text.link[0] ? out->gpu_text.link : "fast";
  if ((rc = resolve_link(q->link_key, default_link, q->link_typed, &q->link, -1, &out->link, &out->link_text, &latencies_typed,
                         err)) != GS_OK)
    return failed(out, "link", rc);
  /* an engine's fitted figures, applied once for every front end (csrc/read/efficiency.c) */
  if (BEYOND_WIDGET &&
      (rc = gs_efficiency_resolve(q, out, &out->plan.efficiency, out->efficiency_from, sizeof out->efficiency_from, err)) != GS_OK)
    return failed(out, "efficiency", rc);
  if ((rc = resolve_plan(q, latencies_typed || q->log_text, out, err)) != GS_OK) return failed(out, "plan", rc);
  if (!BEYOND_WIDGET) return GS_OK;
  /* NCCL's own rules price a ring's all-reduce with NCCL's latencies for the link's kind
   * (csrc/core/nccl.c), so typed or fitted latencies would go unused: refused, unless the
   * split is groups, which hands on over the link and runs no all-reduce */
  if (out->plan.nccl == GS_NCCL_AUTO && out->plan.split != GS_GROUPS && (q->log_text || latencies_typed))
    return failed(out, "plan", gs_fail(err, GS_ERR_UNSUPPORTED, "nccl",
                                       "auto prices each all-reduce with NCCL's own latencies, so %s would go unused; leave "
                                       "it out or use NCCL's lesson rule",
                                       q->log_text ? "--link-from" : latencies_typed == 1 ? "--step-us" : "--base-us"));
  if (q->log_text && (rc = resolve_log(q, out, err)) != GS_OK) return failed(out, "log", rc);
  /* the link between servers is asked for by name or figures, or needed by servers of a
   * size; the start-up is paid once an all-reduce, whichever links it crosses */
  if ((q->between_key || q->between_typed || out->plan.per_server) &&
      (rc = resolve_link(q->between_key, "ib-ndr", q->between_typed, &q->between, out->link.base_us, &out->plan.between,
                         &out->between_text, NULL, err)) != GS_OK)
    return failed(out, "between", rc);
  /* real rings move data one way, at NCCL's topology figure, not the sheet's both-ways one */
  if (out->real && !(q->link_typed & GS_TYPED_LINK_BW) && !q->log_text) out->link.bandwidth = gs_ring_one_way(&out->gpu, &out->link);
  if (out->real && !(q->between_typed & GS_TYPED_LINK_BW) && out->plan.per_server)
    out->plan.between.bandwidth = gs_ring_one_way(&out->gpu, &out->plan.between);
  /* a catalogue GPU on its own catalogue link that was measured (data/allreduce.json): its
   * all-reduces on one server are the measured ones; a typed or fitted link is another link */
  if (out->real && out->plan.nccl == GS_NCCL_AUTO && !q->link_typed && !q->log_text)
    out->plan.measured = gs_allreduce_measured(out->gpu_text.key, out->link_text.key);
  say_assumptions(q, out);
  return GS_OK;
}
