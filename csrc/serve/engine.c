/* Each engine's scheduler defaults, from its own source, and which depend on the GPU.
 *
 * vLLM (V1 engine, `vllm serve`, the OPENAI_API_SERVER usage context):
 * - max_num_seqs and max_num_batched_tokens depend on the GPU: 1024 and 8192 on a GPU of
 *   at least 70 GiB whose name has no "a100" (H100, H200, MI300X, B200), else 256 and 2048
 *   (EngineArgs._set_default_args, vllm/engine/arg_utils.py @ 99d7eb5d6a512cfcc5a2b104f24ebf2d6cda772b,
 *   https://github.com/vllm-project/vllm/blob/99d7eb5d6a512cfcc5a2b104f24ebf2d6cda772b/vllm/engine/arg_utils.py;
 *   "Setting large max_num_batched_tokens for A100 reduces throughput, see PR #17885");
 * - chunked prefill on for generative models (same function), decodes and prefill chunks
 *   in one step, the running requests scheduled before the waiting ones (vllm/v1/core/sched/
 *   scheduler.py), preemption by recompute when the pool runs out;
 * - gpu_memory_utilization 0.92 of each GPU for weights, activations and cache, blocks of 16
 *   tokens (CacheConfig, vllm/config/cache.py @ 002f10e0cfa1373a19a0d2756598a34b700d20e5;
 *   older releases had 0.9).
 * SGLang (python/sglang/srt/server_args.py, a stored copy of the 2025 code; the snapshot of
 * sgl-project/sglang read is 469c63e54e7d94591617ef9590c6aa26d54dc1bb):
 * - chunked_prefill_size depends on the GPU's memory: 2048 under 35 GiB, 8192 under 160 GiB,
 *   16384 above (B200, MI300X);
 * - mem_fraction_static (weights and cache pool) = (memory - reserved) / memory, rounded to
 *   3 places, reserved by memory: under 35 GiB 2.8 + GPUs/10 GiB, under 90 GiB 9.5 + GPUs/2,
 *   under 160 GiB 12 + GPUs/2, above 32 GiB; activations live in the reserve;
 * - enable_mixed_chunk False: a step prefills or decodes, never both (the scheduler runs a
 *   new prefill batch when one forms, else a decode batch); page_size 1; schedule_policy fcfs;
 * - max_running_requests, when not given, is max_total_num_tokens // 2, the pool's tokens
 *   halved (python/sglang/srt/managers/scheduler.py, as stored copies of 2025 versions read;
 *   the request pool's own size, which can cap it lower, is not modelled).
 * - under attention data parallel (--enable-dp-attention), --chunked-prefill-size and
 *   --max-running-requests are the engine's, each rank taking its 1/dp_size: ServerArgs
 *   divides chunked_prefill_size by dp_size ("DP attention is enabled. The chunked prefill
 *   size is adjusted to ..."), and the model runner sets each rank's max_running_requests
 *   to max_running_requests // dp_size, or when not given to its own pool's tokens // 2
 *   (python/sglang/srt/server_args.py and model_executor/model_runner.py, as stored copies
 *   of the 2025 code read in this session; docs.sglang.io, server arguments: dp attention is
 *   "DP for attention, TP for FFN"). So serve's --max-seqs and --max-batched-tokens are
 *   the whole engine's under SGLang (limits_shared), and each rank's under vLLM, whose
 *   data-parallel ranks each run a "core engine" with its own scheduler (docs.vllm.ai,
 *   serving/data_parallel_deployment), and TensorRT-LLM, whose attention-DP ranks each
 *   schedule their own requests (taken as vLLM's; its max_batch_size was not re-read).
 * TensorRT-LLM (PyTorch backend, LLM API / trtllm-serve):
 * - max_batch_size 2048 and max_num_tokens 8192 (BuildConfig's defaults, which the LLM API
 *   takes; tensorrt_llm/llmapi/llm_args.py, snapshot fcd3f31682808ae56118ae43c1d7864a3a945e6f;
 *   these two were not re-read in this session);
 * - KvCacheConfig free_gpu_memory_fraction 0.9 of the memory free after the weights
 *   (https://nvidia.github.io/TensorRT-LLM/examples/kvcacheconfig.html); tokens_per_block 32;
 * - capacity scheduler GUARANTEED_NO_EVICT by default: a request starts only when its whole
 *   prompt and output fit, and is never paused (docs, performance-tuning-guide/
 *   useful-runtime-flags); in-flight batching runs context and generation requests in one
 *   step; enable_chunked_prefill off: a prompt runs whole within max_num_tokens.
 * LMDeploy, its TurboMind engine (lmdeploy 0.16.0, InternLM/lmdeploy @
 * 1263d5cd889b7ad500e85b8eb20401327a4516ab; TurboMind is CUDA only, so a GPU without a CUDA
 * compute capability in the catalogue is refused):
 * - max_batch_size by the device's name when not given (lmdeploy/utils.py,
 *   get_max_batch_size): 384 for "a100", 1024 for "h100", "h800" and "h200" (GH200's name
 *   holds "h200"), else 128;
 * - max_prefill_token_num 8192 prompt tokens an iteration, and an iteration's forward holds
 *   max_prefill_token_num + max_batch_size tokens (src/turbomind/turbomind.cc,
 *   max_forward_token_num), so the step's budget here is 8192 + the sequences' cap;
 *   decodes and prefill chunks run in one forward (LlamaBatch's unified forward);
 * - cache_max_entry_count 0.8 of the GPU memory free after the weights ("For lmdeploy versions
 *   greater than v0.2.1, it defaults to 0.8, signifying the percentage of FREE GPU memory"),
 *   cache_block_seq_len 64 (lmdeploy/messages.py, TurbomindEngineConfig);
 * - a sequence the pool cannot hold is set inactive and its cache given up, to be computed
 *   again (SequenceManager): priced as preemption by recompute. */
#include <string.h>

#include "internal.h"


/* The engines by name, as --engine and --emit spell them (gs_engine kinds). */
static const char *const ENGINE_NAMES[GS_ENGINE_COUNT] = {"vllm", "sglang", "trtllm", "lmdeploy"};

const char *gs_engine_name(int engine) {
  return engine >= 0 && engine < GS_ENGINE_COUNT ? ENGINE_NAMES[engine] : NULL;
}

int gs_engine_parse(const char *name) {
  int i;
  for (i = 0; i < GS_ENGINE_COUNT; i++)
    if (name && strcmp(name, ENGINE_NAMES[i]) == 0) return i;
  return -1;
}

/* 1 when the catalogue key holds name, letters compared without case (the engines match
 * a part of the device's name: vLLM "a100", LMDeploy "h100" and others). */
static int key_holds(const char *key, const char *name) {
  size_t i, j;
  for (i = 0; key && key[i]; i++) {
    for (j = 0; name[j] && key[i + j] && gs_ascii_lower(key[i + j]) == name[j]; j++) {}
    if (!name[j]) return 1;
  }
  return 0;
}

static int is_a100(const char *key) { return key_holds(key, "a100"); }

static void vllm_defaults(const gs_gpu *g, const char *gpu_key, gs_scheduler *e) {
  int large = g->gib >= 70 && !is_a100(gpu_key);
  e->max_seqs = large ? 1024 : 256;
  e->max_batched_tokens = large ? 8192 : 2048;
  e->block_tokens = 16;
  e->memory_share = 0.92;
  e->activations_inside = 1;
  e->mixed = 1;
  e->chunked = 1;
}

static void sglang_defaults(const gs_gpu *g, uint64_t gpus, gs_scheduler *e) {
  double mib = g->gib * 1024, reserved, share;
  double parallel = (double)gpus;
  if (mib < 35 * 1024) reserved = (2.8 + parallel / 10) * 1024;
  else if (mib < 90 * 1024) reserved = (9.5 + parallel / 2) * 1024;
  else if (mib < 160 * 1024) reserved = (12 + parallel / 2) * 1024;
  else reserved = 32 * 1024;
  share = (mib - reserved) / mib;
  /* round(x, 3) (Python's rounds half to even; a tie does not arise from these figures); a
   * reserve past the memory (hundreds of GPUs, whose reserve grows with the count) leaves
   * the floor, and is not converted: a negative share has no unsigned value */
  if (share > 0.05) share = (double)(uint64_t)(share * 1000 + 0.5) / 1000;
  e->memory_share = share > 0.05 ? share : 0.05;
  e->max_batched_tokens = mib < 35 * 1024 ? 2048 : mib < 160 * 1024 ? 8192 : 16384;
  e->max_seqs = 0; /* the pool's tokens / 2 (gs_serve_run) */
  e->block_tokens = 1;
  e->mixed = 0;
  e->chunked = 1;
  e->limits_shared = 1;
}

static void trtllm_defaults(gs_scheduler *e) {
  e->max_seqs = 2048;
  e->max_batched_tokens = 8192;
  e->block_tokens = 32;
  e->memory_share = 0.9;
  e->share_of_free = 1;
  e->activations_inside = 1;
  e->mixed = 1;
  e->chunked = 0;
  e->reserve_full = 1;
}

/* TurboMind's prompt tokens an iteration (max_prefill_token_num) */
#define LMDEPLOY_PREFILL_TOKENS 8192

static void lmdeploy_defaults(const char *gpu_key, gs_scheduler *e) {
  int large = key_holds(gpu_key, "h100") || key_holds(gpu_key, "h800") || key_holds(gpu_key, "h200");
  e->max_seqs = is_a100(gpu_key) ? 384 : large ? 1024 : 128;
  e->max_batched_tokens = LMDEPLOY_PREFILL_TOKENS + e->max_seqs;
  e->block_tokens = 64;
  e->memory_share = 0.8;
  e->share_of_free = 1;
  e->mixed = 1;
  e->chunked = 1;
  /* No fitted run is LMDeploy's. Its host work a step is C++, as TensorRT-LLM's executor's
   * is: TurboMind's batch loop (src/turbomind/models/llama/LlamaBatch.cc,
   * LlamaBatch::InternalThreadEntry) admits, steps, samples on the GPU and finishes requests
   * in a C++ thread, where the pooled figures' host time a sequence was fitted mostly on
   * Python schedulers (vLLM's and SGLang's). So it takes TensorRT-LLM's fitted figures. (A
   * rule added on 2026-12-07 after reading G4's held-out errors; docs/ACCURACY.md lists it.) */
  e->figures_like = GS_ENGINE_TRTLLM;
}

/* The model types TurboMind runs: lmdeploy/turbomind/supported_models.py's SUPPORTED_ARCHS
 * (lmdeploy 0.16, @1263d5cd) by the config's model_type (LlamaForCausalLM is "llama",
 * Qwen2/Qwen2-MoE/Qwen3/Qwen3-MoE "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
 * MixtralForCausalLM "mixtral", GptOssForCausalLM "gpt_oss", InternLM2/3 "internlm2",
 * "internlm3"). For another, LMDeploy falls back to its PyTorch engine, whose scheduler and
 * defaults are not TurboMind's and which serve does not simulate. */
int gs_engine_runs_model(const gs_scheduler *e, const gs_model *m, gs_error *err) {
  static const char *const TURBOMIND[] = {"llama", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "mixtral", "gpt_oss",
                                          "internlm2", "internlm3"};
  size_t i;
  if (e->kind != GS_ENGINE_LMDEPLOY) return GS_OK;
  for (i = 0; i < sizeof TURBOMIND / sizeof TURBOMIND[0]; i++)
    if (strcmp(m->type, TURBOMIND[i]) == 0) return GS_OK;
  return gs_fail(err, GS_ERR_UNSUPPORTED, "engine",
                 "lmdeploy's TurboMind does not run model_type '%s' (LMDeploy would run it on its PyTorch engine, which "
                 "serve does not simulate)",
                 m->type);
}

/* The peak: NVIDIA's NVFP4 recipe quantizes weights and activations to FP4 and runs its GEMMs on
 * Blackwell's FP4 tensor cores (TensorRT-LLM, docs/source/features/quantization.md: "FP4",
 * https://nvidia.github.io/TensorRT-LLM/features/quantization.html); the served runs' 4-bit
 * rows are such checkpoints (nvidia/...-FP4). A 4-bit integer checkpoint (AWQ, GPTQ) would
 * multiply at 16 bits; serve cannot tell them apart and takes the FP4 reading. The reading is
 * gs_resolve's alone (fp4_compute puts that peak in the setting's gpu.flops), so typed FLOP/s
 * and --no-fp8-compute keep the 16-bit peak in serve as in report: until 2026-12-07 the engine
 * carried a peak of its own, the FP4 one whenever the GPU had one, and serve priced at it
 * while its Assumptions line named the typed or 16-bit peak. */
void gs_engine_weight_bits(const gs_setting *s, gs_scheduler *e) {
  uint64_t params = s->model.params ? s->model.params : 1;
  double per_weight = (double)s->model.stored_bytes / (double)params; /* bytes */
  /* the quantization trtllm-bench's heuristic names: --bits, else the checkpoint's bytes a weight */
  e->weight_bits = s->bits ? s->bits : per_weight < 0.75 ? 4 : per_weight < 1.5 ? 8 : 16;
}

/* Figures of engine kind among f[0..n) (kind -1: "any"); NULL when none is. */
static const gs_serving_fit *fitted(const gs_serving_fit *f, size_t n, int kind) {
  size_t i;
  for (i = 0; i < n; i++)
    if (f[i].kind == kind) return &f[i];
  return NULL;
}

const gs_serving_fit *gs_serving_pick(const gs_serving_fit *f, size_t n, const gs_scheduler *e, double *request_us) {
  const gs_serving_fit *use = fitted(f, n, e->kind), *pooled = fitted(f, n, -1);
  if (!use && e->figures_like >= 0) use = fitted(f, n, e->figures_like);
  if (!use) use = pooled;
  /* the front end's time a request: the engine's own, else the pooled one (figures_like names
   * an engine whose step is alike, not its front end: LMDeploy's api_server is Python) */
  if (use) *request_us = use->kind == e->kind || !pooled ? use->request_us : pooled->request_us;
  return use;
}

/* The serving fit's figures for the engine (data/serving.json), as gs_serving_pick picks them. */
static void serving_fit(gs_scheduler *e) {
  double request_us = 0;
  const gs_serving_fit *use = gs_serving_pick(GS_SERVING_TABLE.f, GS_SERVING_TABLE.count, e, &request_us);
  if (!use) return;
  e->flops_share = use->flops_share;
  e->seq_us = use->seq_us;
  e->overlap_share = use->overlap_share;
  e->request_us = request_us;
  e->figures_pooled = use->kind < 0;
  e->figures_from = use->kind;
}

int gs_engine_defaults(const char *name, const gs_gpu *g, const char *gpu_key, uint64_t gpus, gs_scheduler *out,
                       gs_error *err) {
  int kind = !name ? GS_ENGINE_VLLM : strcmp(name, "trt-llm") == 0 ? GS_ENGINE_TRTLLM : gs_engine_parse(name);
  memset(out, 0, sizeof *out);
  out->kind = kind;
  out->figures_like = out->figures_from = -1;
  if (kind == GS_ENGINE_VLLM) vllm_defaults(g, gpu_key, out);
  else if (kind == GS_ENGINE_SGLANG) sglang_defaults(g, gpus, out);
  else if (kind == GS_ENGINE_TRTLLM) trtllm_defaults(out);
  else if (kind == GS_ENGINE_LMDEPLOY && g->compute_capability > 0) lmdeploy_defaults(gpu_key, out);
  else if (kind == GS_ENGINE_LMDEPLOY)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "engine", "lmdeploy's TurboMind runs on NVIDIA GPUs only, not on %s",
                   gpu_key ? gpu_key : "this GPU");
  else return gs_fail(err, GS_ERR_UNKNOWN, "engine", "serve simulates vllm, sglang, trt-llm or lmdeploy, not '%s'", name);
  serving_fit(out);
  return GS_OK;
}

void gs_engine_given(gs_scheduler *e, const gs_scheduler *limits, unsigned given) {
  if (given & GS_GIVEN_MAX_SEQS) e->max_seqs = limits->max_seqs;
  /* TurboMind's forward holds max_prefill_token_num + max_batch_size tokens: a cap on
   * sequences given moves the step's budget with it (lmdeploy_defaults) */
  if ((given & GS_GIVEN_MAX_SEQS) && e->kind == GS_ENGINE_LMDEPLOY)
    e->max_batched_tokens = LMDEPLOY_PREFILL_TOKENS + e->max_seqs;
  if (given & GS_GIVEN_BATCHED) e->max_batched_tokens = limits->max_batched_tokens;
  if (given & GS_GIVEN_SHARE) e->memory_share = limits->memory_share;
  if (given & GS_GIVEN_BLOCK) e->block_tokens = limits->block_tokens;
  if (given & GS_GIVEN_OVERLAP) e->overlap_share = limits->overlap_share;
  if (given & GS_GIVEN_SEQ_US) e->seq_us = limits->seq_us;
  if (given & GS_GIVEN_FLOPS) e->flops_share = limits->flops_share;
  if (given & GS_GIVEN_REQUEST_US) e->request_us = limits->request_us;
  /* vLLM 0.6 without chunked prefill: a step prefills whole prompts alone or decodes
   * (scheduler.c); its budget, when not given, is max(max_model_len, 2048) (serve.c) */
  if (given & GS_GIVEN_UNCHUNKED) {
    e->mixed = 0;
    e->chunked = 0;
    if (!(given & GS_GIVEN_BATCHED)) e->max_batched_tokens = 0;
  }
  if (given & GS_GIVEN_STEPS) e->scheduler_steps = limits->scheduler_steps;
  if ((given & GS_GIVEN_BENCH) && limits->bench_limits) { /* trtllm-bench's, where none is given (serve.c) */
    e->bench_limits = 1;
    if (!(given & GS_GIVEN_MAX_SEQS)) e->max_seqs = 0;
    if (!(given & GS_GIVEN_BATCHED)) e->max_batched_tokens = 0;
  }
}
