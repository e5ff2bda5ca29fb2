/* The limits trtllm-bench sets: TensorRT-LLM's benchmark (`trtllm-bench throughput`,
 * PyTorch backend) picks max_batch_size and max_num_tokens from the model, the GPUs and
 * the dataset's mean lengths unless both are given, and runs without chunked prefill
 * unless asked, raising max_num_tokens to hold the longest prompt beside a full batch.
 * Published TensorRT-LLM throughput tables are measured this way (issue 29; the serving
 * runs' sources P2 and G3 name trtllm-bench with the PyTorch backend).
 *
 * Sources, read in this session:
 * - tensorrt_llm/bench/benchmark/utils/general.py @ 0171265edef1c67ef334e0db2427148161aa2815,
 *   get_settings: the heuristic at the dataset's avg_isl and avg_osl and the
 *   kv_cache_free_gpu_mem_fraction (trtllm-bench's default 0.90, the engine's cache share
 *   here); with chunked prefill off (its default), max_num_tokens = max(heuristic,
 *   max_isl + max_batch_size);
 * - tensorrt_llm/bench/build/tuning.py @ 04cba882084a25665e7f80f5bda71b35b9790b6f,
 *   calc_engine_setting and finetune_setting: the cache a token takes over every layer,
 *   2 x layers x max(tp, kv heads) x head size x the cache's bytes; the engine
 *   param_count x bytes per weight (2, 1 for FP8, 0.5 for NVFP4); the requests the rest of
 *   tp x pp GPUs' memory holds at that share, at ISL + OSL tokens each; then
 *   raw_bs = min(requests, 4096) / pp, raw_tokens = min(raw_bs x (1 + ISL / OSL), 32768),
 *   each rounded up to a step (batch: at least 64, by 32 under 256, by 128 under 1024, else
 *   by 256; tokens: at least 2048, by 256 under 4096, by 512 under 8192, else by 1024);
 * - tensorrt_llm/bench/build/build.py (same era): quantizations other than NVFP4, FP8 and
 *   none (gpt-oss's MXFP4 among them) take the defaults, 2048 sequences and 8192 tokens.
 * Later releases size the engine from the checkpoint's bytes and, under attention data
 * parallel, each rank apart (tensorrt_llm/bench/tuning/heuristics.py @ 0b42cea); this
 * follows the earlier form, whose release the published tables' pages predate less. */
#include <string.h>

#include "internal.h"

static const double GIB = 1024.0 * 1024.0 * 1024.0;

/* ceil(x) for 0 <= x < 2^53, without libm (the model links none). */
static uint64_t ceil_of(double x) {
  uint64_t whole = (uint64_t)x;
  return (double)whole < x ? whole + 1 : whole;
}

/* finetune_setting: the batch and token caps, each rounded up to its step. */
static void finetune(double requests, double isl, double osl, uint64_t pp, uint64_t *bs, uint64_t *tokens) {
  double raw_bs = (requests < 4096 ? requests : 4096) / (double)pp;
  double raw_token = raw_bs * (1 + isl / osl);
  uint64_t t;
  if (raw_token > 32768) raw_token = 32768;
  if (raw_bs < 256) *bs = 32 * ceil_of(raw_bs / 32) > 64 ? 32 * ceil_of(raw_bs / 32) : 64;
  else if (raw_bs < 1024) *bs = 128 * ceil_of(raw_bs / 128);
  else *bs = 256 * ceil_of(raw_bs / 256);
  if (raw_token < 4096) t = 256 * ceil_of(raw_token / 256), *tokens = t > 2048 ? t : 2048;
  else if (raw_token < 8192) *tokens = 512 * ceil_of(raw_token / 512);
  else *tokens = 1024 * ceil_of(raw_token / 1024);
}

int gs_bench_limits(const gs_model *m, const gs_gpu *g, const gs_plan *p, const gs_scheduler *e, const gs_load *l,
                    uint64_t *max_seqs, uint64_t *max_tokens, gs_error *err) {
  uint64_t pp = gs_pipeline_stages(p), tp = p->gpus / pp, kv = m->kv_heads > tp ? m->kv_heads : tp;
  uint64_t bs = 2048, tokens = 8192, max_isl = 0, i;
  double isl = l->pairs ? gs_load_mean(l, l->prompts) : (double)l->prompt_tokens;
  double osl = l->pairs ? gs_load_mean(l, l->outputs) : (double)l->output_tokens;
  double kv_bytes = p->cache_bits ? (double)p->cache_bits / 8 : 2;
  double weight_bytes = e->weight_bits == 4 ? 0.5 : e->weight_bits == 8 ? 1 : e->weight_bits == 16 ? 2 : 0;
  double per_token, engine, cache, requests;
  for (i = 0; i < (l->pairs ? l->pairs : 1); i++) {
    uint64_t prompt = l->pairs ? l->prompts[i] : l->prompt_tokens;
    if (prompt > max_isl) max_isl = prompt;
  }
  /* gpt-oss's checkpoints are MXFP4, a quantization the heuristic leaves to the defaults */
  if (weight_bytes > 0 && strcmp(m->type, "gpt_oss") != 0) {
    per_token = 2 * (double)m->layers * (double)kv * (double)m->head_dim * kv_bytes / GIB;
    engine = (double)m->params * weight_bytes / GIB;
    cache = (g->gib * (double)p->gpus - engine) * e->memory_share;
    requests = per_token > 0 ? cache / (per_token * (isl + osl)) : 0;
    if (!(requests >= 1))
      return gs_fail(err, GS_ERR_NONE_FITS, "limits",
                     "trtllm-bench finds no room for one request's cache on %llu GPUs (its own estimate)",
                     (unsigned long long)p->gpus);
    finetune(requests, isl, osl, pp, &bs, &tokens);
  }
  if (*max_seqs == 0) *max_seqs = bs;
  if (*max_tokens == 0) *max_tokens = tokens > max_isl + *max_seqs ? tokens : max_isl + *max_seqs;
  return GS_OK;
}
