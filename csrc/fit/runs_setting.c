/* Measured decode runs (gs_runs_parse) turned into settings the model prices: the
 * catalogue's model, GPU and link for each run, or the reason it cannot be priced. Shared
 * by `gpusplit fit`, `validate --runs` and `report --efficiency-from`.
 *
 * Each run is priced with realistic settings, as an engineer would give them as flags:
 * a cache for each chat (--cache-per-chat), read at every step (--read-cache), holding
 * the prompt and half the output on average; NCCL's rules (--nccl auto; the lesson's on
 * AMD's GPUs, which run RCCL); servers of 8 (--per-server 8); tp slices, or pp groups of
 * layers; the run's weight bits on a 16-bit checkpoint (--bits), its cache bits when the
 * run states them. */
#include <string.h>

#include "fit/fit.h"

/* The engine a run's software names, as --engine takes it (GS_ENGINE_COUNT of them, with
 * "other"). NIM serves TensorRT-LLM engines (its rows say "TensorRT-LLM backend"), so it
 * counts as trt-llm. */
const char *fit_engine_of(const char *software) {
  static const char *const MAP[][2] = {{"TensorRT-LLM", "trt-llm"}, {"NIM", "trt-llm"},     {"vLLM", "vllm"},
                                       {"SGLang", "sglang"},        {"llama.cpp", "llama.cpp"}, {"LMDeploy", "lmdeploy"},
                                       {"gpt-fast", "gpt-fast"},    {"MLC", "mlc"},          {"ExLlama", "exllamav2"},
                                       {"FasterTransformer", "fastertransformer"}};
  size_t i;
  for (i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
    if (strstr(software, MAP[i][0])) return MAP[i][1];
  return "other";
}

/* A run's repository, or its chat or instruct tune's base: a tune keeps its base's shape
 * (meta-llama's model cards: "fine-tuned versions" of the same architecture). */
static const gs_model_entry *find_model(const char *repo) {
  static const char *const TUNES[] = {"-Instruct", "-chat-hf", "-chat"};
  /* quantised copies, named as their model cards name the model they were quantised from
   * (huggingface.co/amd/Llama-3.1-70B-Instruct-FP8-KV and -405B-: "quantized from
   * meta-llama/Llama-3.1-...-Instruct"); the run's weight_bits gives their bits */
  static const char *const COPIES[][2] = {{"amd/Llama-3.1-70B-Instruct-FP8-KV", "meta-llama/Llama-3.1-70B-Instruct"},
                                          {"amd/Llama-3.1-405B-Instruct-FP8-KV", "meta-llama/Llama-3.1-405B-Instruct"}};
  const gs_model_entry *e;
  size_t c;
  for (c = 0; c < sizeof COPIES / sizeof COPIES[0]; c++)
    if (strcmp(repo, COPIES[c][0]) == 0) repo = COPIES[c][1];
  e = gs_find_model(repo);
  char base[128];
  size_t i, n = strlen(repo);
  for (i = 0; !e && i < sizeof TUNES / sizeof TUNES[0]; i++) {
    size_t t = strlen(TUNES[i]);
    if (n > t && n - t + 4 < sizeof base && strcmp(repo + n - t, TUNES[i]) == 0) {
      memcpy(base, repo, n - t);
      base[n - t] = '\0';
      if (strcmp(TUNES[i], "-chat-hf") == 0) strcat(base, "-hf");
      e = gs_find_model(base);
    }
  }
  return e;
}

/* x as %g writes a count of bits (below 10^4, at most 4 decimals): its digits, no trailing
 * zeros. */
static const char *plain_bits(char *buf, size_t cap, double x) {
  size_t n;
  gs_fixed(buf, cap, x, 4);
  n = strlen(buf);
  while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
  if (n > 0 && buf[n - 1] == '.') buf[--n] = '\0';
  return buf;
}

int fit_run_setting(const gs_run *r, fit_run_setting_t *s, char *why, size_t cap) {
  gs_setting setting;
  const gs_model_entry *e = find_model(r->repo[0] ? r->repo : r->model);
  /* the catalogue GPU the runs' name is measured_as (data/gpus.json); where the label leaves
   * the form open (A100-80GB), the run's interconnect closes it: over PCIe it is the PCIe
   * card (S4's A100s, "PCIe (per README)"), with its own bandwidth and link */
  const char *gpu = gs_gpu_measured_as(r->gpu, strstr(r->interconnect, "PCIe") != NULL);
  gs_request q;
  gs_error err;
  char bits[GS_FIGURE_CAP];
  memset(s, 0, sizeof *s);
  if (!e) return gs_format(why, cap, "model '%s' is not in the catalogue", r->repo[0] ? r->repo : r->model), 0;
  if (!gpu) return gs_format(why, cap, "GPU '%s' has no catalogue entry this fit knows", r->gpu), 0;
  if (r->weight_bits == 0) return gs_format(why, cap, "weight_bits is not stated"), 0;
  if (r->weight_bits != (double)(uint64_t)r->weight_bits)
    return gs_format(why, cap, "weight_bits %s is not a whole number of bits, as --bits stores them", plain_bits(bits, sizeof bits, r->weight_bits)), 0;
  if (r->tp > 1 && r->pp > 1) return gs_format(why, cap, "tp %llu and pp %llu together: the fit prices one or the other", (unsigned long long)r->tp, (unsigned long long)r->pp), 0;
  /* drafted words: several a step, which the model (a word a step) does not price */
  if (r->speculative) return gs_format(why, cap, "speculative decoding: the model prices a word a step"), 0;
  /* an engine's expert parallelism keeps attention sliced over the GPUs and spreads the
   * experts; --experts spread serves each GPU's own chats instead (data-parallel
   * attention), so such a run is not priced as either */
  if (r->ep > 1) return gs_format(why, cap, "ep %llu: experts spread beside sliced attention is not a layout the model prices", (unsigned long long)r->ep), 0;
  /* the run as `report --assume real` prices it (gs_resolve): a cache for each chat read
   * every step, NCCL's rules where NCCL runs, the one-way ring bandwidth, the GPU's own
   * link, servers of its usual size; the efficiency and the prompt are the fit's to set */
  memset(&q, 0, sizeof q);
  q.assume = GS_ASSUME_REAL;
  q.model_key = e->key;
  q.gpu_key = gpu; /* and under real rules its own link */
  q.split = r->pp > 1 ? GS_GROUPS : GS_SLICES;
  q.words = r->batch;
  q.chat_tokens = r->input_tokens + r->output_tokens / 2 ? r->input_tokens + r->output_tokens / 2 : 1;
  q.cache_bits = r->kv_bits ? r->kv_bits : 16;
  q.switches_off = GS_SW_DIVIDE_HEADS; /* the run's count is given, whatever the heads */
  q.no_prompt = 1;
  q.engine = "none"; /* the fit sets the efficiency it prices with */
  /* the run's weight bits on a 16-bit checkpoint; a checkpoint stored otherwise (MXFP4,
   * block FP8) is priced as stored */
  if (gs_resolve(&q, &setting, &err) != GS_OK)
    return gs_format(why, cap, "%s: %s%s%s", setting.failed, err.field, err.field[0] ? ": " : "", err.what), 0;
  if (setting.model.stored_bytes == 2 * setting.model.params && r->weight_bits != 16) {
    q.bits = (uint64_t)r->weight_bits;
    if (gs_resolve(&q, &setting, &err) != GS_OK)
      return gs_format(why, cap, "model %s at %s bits: %s", e->key, plain_bits(bits, sizeof bits, r->weight_bits), err.what), 0;
  }
  s->model = setting.model;
  s->gpu = setting.gpu;
  s->link = setting.link;
  s->plan = setting.plan;
  s->plan.gpus = r->tp * r->pp;
  if (gs_plan_check(&s->model, &s->plan, &err) != GS_OK) return gs_format(why, cap, "%s: %s", err.field, err.what), 0;
  gs_format(s->gpu_key, sizeof s->gpu_key, "%s", gpu);
  gs_format(s->model_key, sizeof s->model_key, "%s", e->key);
  s->generation = gs_gpu_generation(gpu);
  s->engine = fit_engine_of(r->software);
  return 1;
}
