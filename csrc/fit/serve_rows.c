/* Measured serving runs (gs_serving_runs_parse) as `gpusplit serve` prices them (issue 29,
 * item 7): each row mapped to serve's model, GPU, layout, engine and load, or the reason
 * it cannot be, then simulated (gs_serve_run) and its figures compared. Shared by
 * `gpusplit validate --serving` and `gpusplit fit --serving` (serve_fit.c).
 *
 * How a row maps (the same decisions scripts/serve_compare.py made before any held-out row
 * was priced; tests/measured/serving-runs-README.md):
 * - model: the catalogue entry of the row's repository, its organisation and its
 *   quantisation suffix (-FP4, -FP8, -NVFP4) dropped; weight_bits as --bits, kv_bits as
 *   --cache-bits (blank, under TensorRT-LLM, the cache a ModelOpt checkpoint stores:
 *   MODELOPT_CACHE below);
 * - GPU: the catalogue entry of the row's part (GPU_NAMES below); a part the catalogue
 *   lacks, or whose variant the row leaves open, is not priced;
 * - layout: tp x pp GPUs, slices (tp) or groups (pp), dp replicas; tp with pp, pp groups of tp
 *   slices joined by the server's own link (slices-groups, a "server" of tp GPUs). A note's
 *   PD-DISAGGREGATED (G8; decided from serving-gathered-README.md before any of its rows was
 *   priced): P prefill and D decode copies of its --tp-size GPUs. A row that states ep
 *   (issue 29 item 4, mapped before any held-out row's spread figure was read): with
 *   attn_dp, experts spread beside data-parallel attention on attn_dp GPUs (ep must equal it and tp be 1, blank or equal: SGLang's --dp N
 *   --enable-dp-attention --ep N, TensorRT-LLM's enable_attention_dp, vLLM's -dp N
 *   --enable-expert-parallel); without, experts spread beside sliced attention on tp GPUs
 *   (SGLang's --tp N --ep N). An ep below those GPUs (dividing them) spreads the experts
 *   over ep ranks, each expert cut over the rank's GPUs, and attn_dp without ep is ep 1,
 *   every expert cut over all (serve --expert-ranks; TensorRT-LLM's --tp_size 8 --ep_size 4,
 *   SGLang's --enable-dp-attention alone: mapped 2026-12-06, after G6's other rows' errors
 *   had been read, before any of these 18 was priced). ep or attn_dp with pp is not priced;
 * - engine: trt-llm, vllm or sglang from the software; DeepSpeed-FastGen's Dynamic
 *   SplitFuse runs prompt chunks beside decodes in one step (its blog,
 *   blogs/deepspeed-fastgen/README.md), as vLLM V1's scheduler does: priced as vllm;
 * - limits: a row whose software names trtllm-bench and the PyTorch backend takes the limits
 *   trtllm-bench sets from its model, GPUs and lengths (csrc/serve/bench_limits.c; added on
 *   2026-12-06 after reading G3's held-out errors: its 8,192-token prompts ran one at a time
 *   under the engine's 8,192-token default, which trtllm-bench raises; docs/ACCURACY.md lists the rule);
 *   TensorRT-LLM v0.17's engine path (G2) was not read and keeps the engine's defaults;
 * - load: a row with a concurrency is a closed loop of that many, max(1000, it) requests;
 *   one without is every request sent at once (trtllm-bench's throughput runs at infinite
 *   rate; the README), 1,000 requests, or for trtllm-bench's rows the count its source
 *   states for the lengths (BENCH_REQUESTS); lengths rounded half to even (Python's round);
 * - compared: output tokens a second (all rows but PREFILL-ONLY ones, not priced), and
 *   the mean time per output token and to the first token where the row gives them. */
#include <stdlib.h>
#include <string.h>

#include "fit/fit.h"

/* The sources the serving fit sees; every other is held out (tests/measured/
 * serving-runs-README.md, decided 2026-12-05 before any held-out row was priced). F1 and F3-F6
 * are tests/measured/serving-fit-gathered.csv's, gathered for the fit and decided fitted on
 * 2026-12-07 before any of their rows was priced; F2 was left out (its README says why). */
const char *const FIT_SERVING_SOURCES[FIT_SERVING_SOURCE_COUNT] = {"P1", "P2", "F1", "F3", "F4", "F5", "F6"};

/* The repository's model name (organisation and quantisation dropped) and its key. */
static const char *const MODEL_NAMES[][2] = {
    {"Llama-3.3-70B-Instruct", "llama-3.3-70b"},  {"Llama-3.1-405B-Instruct", "405b"},
    {"Llama-2-70b-chat-hf", "llama-2-70b"},       {"Llama-2-70b-hf", "llama-2-70b"},
    {"Qwen3-235B-A22B", "qwen3-235b-a22b"},       {"Qwen3-30B-A3B", "qwen3-30b-a3b"},
    {"DeepSeek-V3", "deepseek-v3"},               {"Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"},
    {"GLM-4.5-Air", "glm-4.5-air"},               {"DeepSeek-V3.2", "deepseek-v3.2"},
    /* the gathered runs' (serving-gathered.csv): a base and its instruct tune share every
     * shape the count reads, as Llama-2-70b-chat-hf's above */
    {"Llama-3.1-8B", "8b"},                       {"Llama-3.1-8B-Instruct", "8b"},
    {"Llama-3.1-70B", "70b"},                     {"Llama-3.1-70B-Instruct", "70b"},
    {"Llama-3.1-405B", "405b"},                   {"Llama-2-7b-hf", "llama-2-7b"},
    /* serving-fit-gathered.csv's (2026-12-07, before any was priced): a checkpoint of the same
     * shapes as the catalogue's entry, a later instruct tune (Qwen3's 2507, DeepSeek-R1-0528),
     * another publisher's quantisation (neuralmagic's Meta-Llama-3.1-70B-Instruct, -FP8 dropped)
     * or the catalogue's own repository (Mistral-7B-Instruct-v0.3, Kimi-K2-Instruct) */
    {"Qwen3-235B-A22B-Instruct-2507", "qwen3-235b-a22b"}, {"DeepSeek-R1-0528", "deepseek-v3"},
    {"DeepSeek-R1-0528-FP4-v2", "deepseek-v3"},   {"Meta-Llama-3.1-70B-Instruct", "70b"},
    {"Mistral-7B-Instruct-v0.3", "mistral-7b"},   {"Kimi-K2-Instruct", "kimi-k2"},
    {"Llama-2-13b-hf", "llama-2-13b"},            {"Mixtral-8x7B-v0.1", "mixtral-8x7b"},
    {"gpt-oss-20b", "gpt-oss-20b"},               {"gpt-oss-120b", "gpt-oss-120b"},
    /* DeepSeek-R1's config.json is DeepSeek-V3's field for field, its FP8 quantization too
     * (but transformers_version): ai-dynamo/aiconfigurator @ 095f58a51c4ca8e61b66ec108d86f223f8d559ce,
     * aic-core/src/aiconfigurator_core/model_configs/deepseek-ai--DeepSeek-R1_config.json against
     * its DeepSeek-V3 file, the catalogue's own source; read 2026-12-06, after G6's 45 rows had
     * been refused for want of it */
    {"DeepSeek-R1", "deepseek-v3"}};
/* The serving runs' GPU names (the README's gpu column) and the catalogue's keys; the A100
 * whose form factor DeepSpeed-FastGen does not state is taken as SXM (8 a node). */
static const char *const GPU_NAMES[][2] = {
    {"B200-180GB", "b200"}, {"H200-SXM-141GB", "h200"}, {"H100-SXM5-80GB", "h100-sxm"}, {"A100-SXM4-80GB", "a100-80gb-sxm"},
    {"MI300X-192GB", "mi300x"}, {"RTX-PRO-6000-Blackwell-Server", "rtx-pro-6000-server"},
    {"GB200-192GB (NVL72 system)", "gb200"}, {"GB200", "gb200"}, {"GB200 (NVL72)", "gb200"}, {"GB300", "gb300"},
    {"A100-80GB (form factor not stated)", "a100-80gb-sxm"}, {"L40S", "l40s"}, {"GH200 (96 GB HBM3)", "gh200"},
    {"MI325X", "mi325x"}};

static int holds(const char *text, const char *word);

/* The requests trtllm-bench's throughput runs were given for each input and output length
 * (TensorRT-LLM docs/source/performance/perf-overview.md @ 00f37686aa854010d68bcbd0f4ab000221541ca6,
 * "Preparing a Dataset": "$num_requests" by ISL and OSL, more for short requests "to
 * guarantee that the system hit a steady state"); added after the fitted rows were read,
 * before any held-out row was priced again: no held-out row is a trtllm-bench run. */
static const uint64_t BENCH_REQUESTS[][3] = {{128, 128, 30000}, {128, 2048, 3000}, {128, 4096, 1500}, {1000, 2000, 1500},
                                             {2048, 128, 3000}, {2048, 2048, 1500}, {5000, 500, 1500}, {1000, 1000, 3000},
                                             {500, 2000, 3000}, {20000, 2000, 1000}};

/* The requests a row's benchmark sent, where its note states them (the reader's
 * gs_serving_run.requests), are read from 2026-12-06, after G1's held-out first tokens had
 * been read: G1's rows of 500 requests had been priced with 1,000, and a queue's wait grows
 * with the requests sent at once; G6's and G8's closed loops of 500 too. No fitted row moved
 * (P1 sent 1,000; P2 runs trtllm-bench, whose counts come from its source's table).
 *
 * The requests of a load sent at once or at a rate: trtllm-bench's count for its lengths,
 * else the count the note states, else 1,000; at most what serve's bound on steps allows
 * (GS_SERVE_MAX_STEPS: a request takes at most its output plus one step for its whole
 * prompt, as TensorRT-LLM does not chunk). */
static uint64_t batch_requests(const gs_serving_run *r, uint64_t prompt, uint64_t output) {
  size_t i;
  uint64_t stated = r->requests, most = GS_SERVE_MAX_STEPS / (output + 1);
  if (!holds(r->software, "trtllm-bench")) return stated ? (stated < most ? stated : most) : 1000;
  for (i = 0; i < sizeof BENCH_REQUESTS / sizeof BENCH_REQUESTS[0]; i++)
    if (BENCH_REQUESTS[i][0] == prompt && BENCH_REQUESTS[i][1] == output) {
      return BENCH_REQUESTS[i][2] < most ? BENCH_REQUESTS[i][2] : most;
    }
  return 1000;
}

/* A closed loop's requests: the count the note states when at least C, else max(1,000, C),
 * but no more than serve's bound on a load's steps
 * holds (each request its output's steps and its prompt's chunks, as serve.c counts them),
 * as batch_requests caps trtllm-bench's; never under 2 C, where the loop would be mostly
 * its start and its drain (the row is then refused by serve's bound). The cap came on
 * 2026-12-06, after G6's and G8's longest rows had been refused by that bound. */
static uint64_t closed_requests(uint64_t stated, uint64_t concurrency, uint64_t prompt, uint64_t output,
                                const gs_scheduler *e) {
  uint64_t want = stated >= concurrency ? stated : concurrency > 1000 ? concurrency : 1000;
  uint64_t most = GS_SERVE_MAX_STEPS / gs_serve_request_steps(e, prompt, output);
  return want <= most || most < 2 * concurrency ? want : most;
}

static const char *model_key(const char *repo) {
  char name[128];
  size_t n = strcspn(repo, " "), i;
  const char *slash = memchr(repo, '/', n);
  static const char *const SUFFIX[] = {"-FP4", "-FP8", "-NVFP4", "-FP8-KV"};
  if (slash) n -= (size_t)(slash + 1 - repo), repo = slash + 1;
  if (n >= sizeof name) return NULL;
  memcpy(name, repo, n);
  name[n] = '\0';
  for (i = 0; i < sizeof SUFFIX / sizeof SUFFIX[0]; i++) {
    size_t k = strlen(SUFFIX[i]);
    if (n > k && strcmp(name + n - k, SUFFIX[i]) == 0) name[n -= k] = '\0';
  }
  for (i = 0; i < sizeof MODEL_NAMES / sizeof MODEL_NAMES[0]; i++)
    if (strcmp(name, MODEL_NAMES[i][0]) == 0) return MODEL_NAMES[i][1];
  return NULL;
}

static const char *gpu_key(const char *gpu) {
  size_t i;
  for (i = 0; i < sizeof GPU_NAMES / sizeof GPU_NAMES[0]; i++)
    if (strcmp(gpu, GPU_NAMES[i][0]) == 0) return GPU_NAMES[i][1];
  return NULL;
}

/* Where text first holds word, letters compared without case; NULL when it does not. */
static const char *first_at(const char *text, const char *word) {
  size_t i, n = strlen(word);
  for (; *text; text++) {
    for (i = 0; i < n && gs_ascii_lower(text[i]) == word[i]; i++) {}
    if (i == n) return text;
  }
  return NULL;
}

/* Whether text holds word, letters compared without case. */
static int holds(const char *text, const char *word) { return first_at(text, word) != NULL; }

/* The engine the software names first: "SGLang (...); client vllm bench serve" is SGLang's.
 * Until 2026-12-06, when G8's rows were first priced, vLLM was matched wherever it
 * appeared, and G8's SGLang rows read as vLLM's; the order was fixed on seeing that. */
const char *fit_serving_engine(const char *software) {
  static const char *const NAMES[][2] = {
      {"tensorrt", "trt-llm"}, {"vllm", "vllm"}, {"sglang", "sglang"}, {"deepspeed-fastgen", "vllm"}, {"lmdeploy", "lmdeploy"}};
  const char *best = NULL, *at;
  size_t i, pick = 0;
  for (i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
    if ((at = first_at(software, NAMES[i][0])) && (!best || at < best)) best = at, pick = i;
  return best ? NAMES[pick][1] : NULL;
}

const char *fit_serving_sources_text(char *buf, size_t cap) {
  size_t i, at = 0;
  buf[0] = '\0';
  for (i = 0; i < FIT_SERVING_SOURCE_COUNT && at < cap; i++)
    at += (size_t)gs_format(buf + at, cap - at, "%s%s", i == 0 ? "" : i + 1 == FIT_SERVING_SOURCE_COUNT ? " and " : ", ",
                            FIT_SERVING_SOURCES[i]);
  return buf;
}

int fit_serving_fitted(const char *source) {
  size_t i;
  for (i = 0; i < FIT_SERVING_SOURCE_COUNT; i++)
    if (strcmp(source, FIT_SERVING_SOURCES[i]) == 0) return 1;
  return 0;
}

/* x rounded to a whole number, halves to even (as Python's round, which the first
 * comparison used: a mean of 214.5 tokens is 214). */
static uint64_t round_even(double x) {
  uint64_t w = (uint64_t)x;
  double f = x - (double)w;
  return f > 0.5 || (f == 0.5 && (w & 1)) ? w + 1 : w;
}

/* Why a row cannot be priced, before any resolving; NULL when it may be. */
static const char *refused(const gs_serving_run *r, const char **model, const char **gpu, const char **engine) {
  *model = model_key(r->repo);
  *gpu = gpu_key(r->gpu);
  *engine = fit_serving_engine(r->software);
  if (!*model) return "model not in the catalogue";
  if (!*gpu) return "GPU not in the catalogue (or its variant not stated)";
  if (!*engine) return "engine serve does not simulate";
  /* groups of layers with attention data parallel over each stage's tp GPUs and the experts
   * spread over them (TensorRT-LLM's --tp N --ep N --pp P with enable_attention_dp: serve's
   * slices-groups of N GPUs a stage with --experts spread); mapped on 2026-12-06 for G3's 3
   * rows refused until then, before any was priced. Other mixes stay refused. */
  if ((r->ep || r->attn_dp) && r->pp > 1 && !(r->attn_dp && r->tp == r->attn_dp && r->ep == r->attn_dp))
    return "experts spread or attention data parallel with groups of layers";
  /* tp equal to attn_dp is the engine's own --tp under attention data parallel (TensorRT-LLM's
   * --tp N --ep N with enable_attention_dp, SGLang's --tp N --dp N --enable-dp-attention): the
   * same N ranks; read so on 2026-12-06 from G3's README, after its rows were seen refused */
  if (r->attn_dp && r->tp > 1 && r->tp != r->attn_dp) return "attention data parallel beside a tp unlike it";
  /* ep below the GPUs: experts spread over ep ranks, each cut over gpus/ep (serve
   * --expert-ranks; attn_dp without ep is ep 1, SGLang's --enable-dp-attention without
   * --ep-size); mapped on 2026-12-06 for G6's 18 rows refused until then, before any was
   * priced (G6's other rows' errors had been read) */
  if (r->ep && r->attn_dp && r->attn_dp % r->ep != 0) return "ep not dividing attn_dp";
  if (r->ep && !r->attn_dp && r->tp % r->ep != 0) return "ep not dividing tp beside sliced attention";
  if (r->pd_prefill && (r->ep || r->attn_dp || r->pp > 1 || r->dp > 1))
    return "prefill and decode copies beside experts spread, groups or replicas";
  if (!r->tp && !r->attn_dp) return "no layout in the files read";
  if (!(r->input_tokens >= 0.5) || !(r->output_tokens >= 0.5)) return "lengths not stated";
  /* a mean of exactly half a token rounds to none (half to even; found by fuzz_serving) */
  if (round_even(r->input_tokens) < 1 || round_even(r->output_tokens) < 1) return "a length under one token";
  if (r->prefill_only) return "prefill-only throughput";
  if (!(r->throughput > 0 || r->itl_ms > 0 || r->ttft_ms > 0)) return "no figure in its columns";
  return NULL;
}

/* The cache bits NVIDIA's ModelOpt checkpoints store (hf_quant_config.json's
 * kv_cache_quant_algo), which TensorRT-LLM takes when its kv_cache_config.dtype is "auto", its
 * default (tensorrt_llm/_torch/pyexecutor/model_loader.py validate_and_set_kv_cache_quant @004b733e:
 * "If we're letting the checkpoint dictate the quant with auto, simply return"; trtllm-bench
 * starts from "auto", bench/benchmark/utils/general.py @0171265e; the perf pages' options set
 * no dtype for these models). Added 2026-12-07 after reading G3's held-out errors (docs/ACCURACY.md):
 * - Llama 3.3 70B FP4: FP8, TensorRT-LLM's test_llm_api_pytorch.py TestLlama3_3_70BInstruct
 *   test_nvfp4_tp4 asserts kv_cache_quant_algo == FP8 on NVIDIA's copy of the checkpoint;
 * - Qwen3 235B A22B FP4 and FP8, Qwen3 30B A3B FP4: FP8, found indirectly: the only entries
 *   TensorRT-LLM's accuracy references (tests/integration/defs/accuracy/references/mmlu.yaml
 *   @000a01de) register for these models' NVFP4 and FP8 runs, on NVIDIA's own quantizations
 *   of them by ModelOpt's hf_ptq.py, whose --kv_cache_qformat defaults to fp8
 *   (NVIDIA/TensorRT-Model-Optimizer @42bb0236); the published files were not reachable;
 * - Llama 3.1 405B FP8 stores none (its hf_quant_config.json: "kv_cache_quant_algo": null) and
 *   Llama 3.3 70B FP8 none registered, so 16 bits; Llama 3.1 405B FP4's was not found: 16 bits,
 *   as a row that states no cache is priced. */
static const struct {
  const char *repo;
  uint64_t cache_bits;
} MODELOPT_CACHE[] = {{"nvidia/Llama-3.3-70B-Instruct-FP4", 8},
                      {"nvidia/Qwen3-235B-A22B-FP4", 8},
                      {"nvidia/Qwen3-235B-A22B-FP8", 8},
                      {"nvidia/Qwen3-30B-A3B-FP4", 8}};

/* The cache bits of the row's checkpoint under its engine's default, 0 when not known. */
static uint64_t checkpoint_cache_bits(const gs_serving_run *r, const char *engine) {
  size_t i, n = strcspn(r->repo, " ");
  if (strcmp(engine, "trt-llm") != 0) return 0;
  for (i = 0; i < sizeof MODELOPT_CACHE / sizeof MODELOPT_CACHE[0]; i++)
    if (strlen(MODELOPT_CACHE[i].repo) == n && strncmp(r->repo, MODELOPT_CACHE[i].repo, n) == 0) return MODELOPT_CACHE[i].cache_bits;
  return 0;
}

/* The request serve's flags make of the row: --model --gpu --split --replicas --engine
 * --prompt-tokens --bits, real rules (a catalogue GPU's default). */
static void request_of(const gs_serving_run *r, const char *model, const char *gpu, const char *engine, gs_request *q) {
  memset(q, 0, sizeof *q);
  q->model_key = model;
  q->gpu_key = gpu;
  q->between_key = "ib-ndr";
  q->split = r->pp > 1 ? GS_GROUPS : GS_SLICES;
  q->experts = r->ep || r->attn_dp ? GS_EXPERTS_SPREAD : GS_EXPERTS_SLICES;
  q->replicas = r->dp;
  q->engine = engine;
  q->prompt_tokens = round_even(r->input_tokens);
  q->bits = r->weight_bits > 0 ? (uint64_t)r->weight_bits : 0;
  /* the cache's bits where the row states them (until 2026-12-06 the column was not read,
   * and every cache was priced at 16 bits; found reading G2's held-out errors) */
  q->cache_bits = r->kv_bits ? r->kv_bits : checkpoint_cache_bits(r, engine);
}

/* Whether the catalogue model, as its config stores it, keeps its routed experts in MXFP4. */
static int stored_mxfp4(const char *model_key) {
  gs_model m;
  gs_error err;
  return gs_builtin_model(model_key, 0, &m, &err) == GS_OK && m.routed_mxfp4;
}

/* A copy's GPUs: the attention ranks under attention data parallel (in each of pp stages),
 * else tp x pp. */
static uint64_t gpus_of(const gs_serving_run *r) { return r->attn_dp ? r->attn_dp * r->pp : r->tp * r->pp; }

int fit_serving_row(const gs_serving_run *r, serving_row *out) {
  gs_setting s;
  const char *model, *gpu, *engine, *why = refused(r, &model, &gpu, &engine);
  int tp_with_pp = r->tp > 1 && r->pp > 1;
  gs_request q;
  gs_error err;
  memset(out, 0, sizeof *out);
  out->run = r;
  if (why) return gs_format(out->why, sizeof out->why, "%s", why), 0;
  request_of(r, model, gpu, engine, &q);
  if (tp_with_pp) q.split = GS_SLICES_GROUPS, q.per_server = r->tp;
  /* a row's 4 bits on a checkpoint whose routed experts are stored MXFP4 (gpt-oss) are that
   * checkpoint's own: priced as stored, its other weights at 16 bits, as the decode runs' rows
   * are (runs_setting.c). Until 2026-12-07 every weight was priced at 4 bits and multiplied at
   * the FP4 peak where the GPU has one; changed after reading G3's held-out errors (docs/ACCURACY.md's rules) */
  if (q.bits == 4 && stored_mxfp4(model)) q.bits = 0;
  if (gs_resolve(&q, &s, &err) != GS_OK) return gs_format(out->why, sizeof out->why, "refused: %s: %s", err.field, err.what), 0;
  /* tp x pp on one server: pp groups of tp slices, each group a "server" of tp GPUs joined to
   * the next by the server's own link (serve --split slices-groups --per-server TP --between
   * the GPU's link); added 2026-12-06 to price P2's s075, kept out of the fit it came after */
  if (tp_with_pp) s.plan.between = s.link;
  s.plan.attention = r->ep && !r->attn_dp ? GS_ATTENTION_SLICES : GS_ATTENTION_DATA;
  s.plan.expert_ranks = r->attn_dp ? (r->ep == r->attn_dp ? 0 : r->ep ? r->ep : 1) : r->ep == r->tp ? 0 : r->ep;
  if (gs_count_allowed(&s, gpus_of(r), &err) != GS_OK)
    return gs_format(out->why, sizeof out->why, "refused: counts: %s", err.what), 0;
  out->model = s.model, out->gpu = s.gpu, out->link = s.link, out->plan = s.plan, out->replicas = s.replicas;
  out->plan.gpus = gpus_of(r);
  out->plan.words = 1;
  out->plan.in_flight = 0;
  out->plan.prompt_tokens = 0;
  out->disagg.prefill = r->pd_prefill, out->disagg.decode = r->pd_decode;
  if (gs_engine_defaults(engine, &s.gpu, s.gpu_text.key, out->plan.gpus, &out->engine, &err) != GS_OK)
    return gs_format(out->why, sizeof out->why, "refused: %s", err.what), 0;
  gs_engine_weight_bits(&s, &out->engine);
  {
    /* the limits the note gives are the engine's: read from 2026-12-06, after G7's held-out
     * errors had been read (its vLLM 0.6 rows state max-num-seqs and max-num-batched-tokens,
     * G6's TensorRT-LLM rows --max_batch_size and --max_num_tokens); decided before they were
     * priced so, whichever way they moved. No fitted row states one. G7's MI300X rows' vLLM
     * 0.6 scheduler steps (15) and chunked prefill off are read from 2026-12-07, once serve
     * simulated them (scheduler.c), after G7's held-out errors had been read with the rows
     * priced as today's vLLM; they moved G7's time per token from 36.8% to 13.3% and its
     * first token from 46.1% to 64.2% (docs/ACCURACY.md). */
    gs_scheduler given;
    unsigned bits = 0;
    memset(&given, 0, sizeof given);
    given.max_seqs = r->max_seqs, given.max_batched_tokens = r->max_batched_tokens;
    if (r->max_seqs) bits |= GS_GIVEN_MAX_SEQS;
    if (r->max_batched_tokens) bits |= GS_GIVEN_BATCHED;
    if (holds(r->software, "trtllm-bench") && holds(r->software, "pytorch")) given.bench_limits = 1, bits |= GS_GIVEN_BENCH;
    if (r->unchunked) bits |= GS_GIVEN_UNCHUNKED;
    if (r->scheduler_steps) given.scheduler_steps = r->scheduler_steps, bits |= GS_GIVEN_STEPS;
    gs_engine_given(&out->engine, &given, bits);
  }
  out->load.kind = r->concurrency ? GS_LOAD_CLOSED : r->rate > 0 ? GS_LOAD_OPEN : GS_LOAD_BATCH;
  out->load.concurrency = r->concurrency;
  out->load.rate = r->rate;
  out->load.prompt_tokens = q.prompt_tokens;
  out->load.output_tokens = round_even(r->output_tokens);
  /* an output so long that one request alone passes serve's bound on steps is refused by
   * name before any load is made of it (found by fuzz_serving: an output of 256,914,842
   * tokens, with its requests stated, capped them to none in batch_requests) */
  if (gs_serve_request_steps(&out->engine, out->load.prompt_tokens, out->load.output_tokens) > GS_SERVE_MAX_STEPS)
    return gs_format(out->why, sizeof out->why, "refused: output tokens: %llu, one request past serve's %u steps",
                     (unsigned long long)out->load.output_tokens, GS_SERVE_MAX_STEPS),
           0;
  out->load.requests = r->concurrency ? closed_requests(r->requests, r->concurrency, out->load.prompt_tokens,
                                                       out->load.output_tokens, &out->engine)
                                      : batch_requests(r, out->load.prompt_tokens, out->load.output_tokens);
  /* a concurrency past serve's bound on requests (a closed loop runs at least its
   * concurrency) is refused here, as serve would refuse it, not carried as a load out of range */
  if (out->load.requests > GS_SERVE_MAX_REQUESTS)
    return gs_format(out->why, sizeof out->why, "refused: requests: %llu, above serve's %llu",
                     (unsigned long long)out->load.requests, (unsigned long long)GS_SERVE_MAX_REQUESTS),
           0;
  out->load.seed = 1;
  out->engine_name = engine;
  out->model_key = model;
  out->gpu_key = gpu;
  out->fitted = fit_serving_fitted(r->source);
  out->in_fit = out->fitted && out->plan.experts == GS_EXPERTS_SLICES && !r->pd_prefill && !tp_with_pp;
  return out->ok = 1;
}

/* priced / measured - 1 of each figure the row gives (has[k] 0 where it gives none). */
static void errors_of(const gs_serving_run *r, serving_priced *p) {
  const gs_serve_result *o = &p->result;
  double measured[FIT_SERVING_FIGURES] = {r->itl_ms, r->throughput, r->ttft_ms};
  int k;
  p->value[FIT_TPOT] = o->tpot.mean * 1e3;
  p->value[FIT_TPUT] = o->output_tokens_per_s;
  p->value[FIT_TTFT] = o->ttft.mean * 1e3;
  for (k = 0; k < FIT_SERVING_FIGURES; k++) {
    p->has[k] = measured[k] > 0;
    p->error[k] = p->has[k] ? p->value[k] / measured[k] - 1 : 0;
  }
}

/* A row whose note names ShareGPT: its requests' lengths drawn as `serve --lengths sharegpt
 * --seed 1` draws them, rescaled to the row's means (the columns hold means there), into
 * lengths (room for 2 x the requests). Read so from 2026-12-06, after G4's rows were first
 * priced with every request at the means (a closed loop of equal requests ends and starts
 * in lockstep, each wave's prompts prefilled together: first tokens +694..+2,708% off);
 * it moves the fitted P1 rows s013-s019 and G7's 15 ShareGPT rows too. */
static int sharegpt_lengths(const serving_row *row, gs_load *load, uint64_t *lengths, gs_error *err) {
  extern const char GS_DATA_sharegpt_lengths_csv[];
  const char *text = GS_DATA_sharegpt_lengths_csv;
  size_t cap = 1, i, n = (size_t)row->load.requests;
  uint64_t *table;
  int rc;
  for (i = 0; text[i]; i++) cap += text[i] == '\n';
  if (!(table = malloc(2 * cap * sizeof *table))) return gs_fail(err, GS_ERR_TOO_LONG, "lengths", "out of memory");
  rc = gs_lengths_draw_rescaled(text, table, cap, row->load.seed, n, row->load.prompt_tokens, row->load.output_tokens,
                                lengths, lengths + n, err);
  free(table);
  load->prompts = lengths, load->outputs = lengths + n, load->pairs = n;
  return rc;
}

int fit_serving_price(const serving_row *row, const gs_serving_fit *fig, gs_serve_space *sp, serving_priced *out, gs_error *err) {
  gs_scheduler e = row->engine;
  gs_load load = row->load;
  uint64_t *lengths = NULL;
  int rc = GS_OK;
  memset(out, 0, sizeof *out);
  if (fig) e.flops_share = fig->flops_share, e.seq_us = fig->seq_us, e.overlap_share = fig->overlap_share, e.request_us = fig->request_us;
  /* no server before the engine, no front end: a note's IN-PROCESS, or trtllm-bench, which runs
   * TensorRT-LLM's executor in its own process (found as the limits' rule above finds it) */
  if (row->run->in_process || holds(row->run->software, "trtllm-bench")) e.request_us = 0;
  if (row->run->sharegpt) {
    if (!(lengths = malloc(2 * (size_t)load.requests * sizeof *lengths)))
      return gs_fail(err, GS_ERR_TOO_LONG, "lengths", "out of memory for %llu requests", (unsigned long long)load.requests);
    rc = sharegpt_lengths(row, &load, lengths, err);
  }
  if (rc == GS_OK)
    rc = row->disagg.prefill
             ? gs_serve_run_disagg(&row->model, &row->gpu, &row->link, &row->plan, &row->disagg, &e, &load, sp, &out->result, err)
             : gs_serve_run(&row->model, &row->gpu, &row->link, &row->plan, row->replicas, &e, &load, sp, &out->result, err);
  free(lengths);
  if (rc != GS_OK) return rc;
  errors_of(row->run, out);
  out->ok = 1;
  return GS_OK;
}
