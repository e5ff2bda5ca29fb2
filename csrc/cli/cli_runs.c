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

#include "cli.h"

/* The runs file's GPU names (../shared/reference/decode-measured/README.md, "gpu") as
 * catalogue GPUs, the link inside their servers and their generation. Where the README
 * says the form factor is not stated (A100-80GB, H100-80GB) the SXM part is taken, as
 * most of those rows' sources say (gpt-fast: hybrid cube mesh; S9, S11, S12: SXM). */
typedef struct {
  const char *run_name, *gpu, *link, *generation;
} gpu_row;

static const gpu_row GPUS[] = {
    {"A100-SXM4-80GB", "a100-80gb-sxm", "nvlink3", "ampere"}, {"A100-80GB", "a100-80gb-sxm", "nvlink3", "ampere"},
    {"A100-SXM4-40GB", "a100-40gb-sxm", "nvlink3", "ampere"}, {"A100-PCIe-80GB", "a100-80gb-pcie", "pcie4", "ampere"},
    {"H100-SXM5-80GB", "h100-sxm", "nvlink4", "hopper"},      {"H100-80GB", "h100-sxm", "nvlink4", "hopper"},
    {"H100-PCIe-80GB", "h100-pcie", "pcie5", "hopper"},       {"H100-NVL-94GB", "h100-nvl", "pcie5", "hopper"},
    {"H200", "h200", "nvlink4", "hopper"},                    {"GH200 120GB", "gh200", "nvlink4", "hopper"},
    {"B200", "b200", "nvlink5", "blackwell"},                 {"L40S", "l40s", "pcie4", "ada"},
    {"L40", "l40", "pcie4", "ada"},                           {"RTX 4090", "rtx-4090", "pcie4", "ada"},
    {"MI300X", "mi300x", "infinity-fabric", "cdna3"},
};

/* The bandwidth a ring moves data at, one way. The catalogue's links print the data
 * sheet's figure, which for NVLink, PCIe and Infinity Fabric counts both directions
 * together; a ring all-reduce sends one way. NVLink 3 and 4: NCCL's per-link figure
 * times the GPU's links (NVIDIA/nccl src/graph/topo.h: SM80_NVLINK_BW 20.0 GB/s x 12
 * links on an A100 = 240; SM90_NVLINK_BW 20.6 x 18 links on an H100 = 370.8); PCIe:
 * NCCL's PCI_BW of 12 GB/s for Gen3 x16, doubled a generation (24 for Gen4, 48 for
 * Gen5); NVLink 5 and Infinity Fabric: half the sheet's both-ways figure (900 and 448).
 * A table of this fit's own, until the catalogue carries one-way ring bandwidths. */
typedef struct {
  const char *link;
  double one_way;
} ring_bw_row;

static const ring_bw_row RING_BW[] = {{"nvlink3", 240e9}, {"nvlink4", 370.8e9}, {"nvlink5", 900e9},
                                      {"pcie4", 24e9},    {"pcie5", 48e9},      {"infinity-fabric", 448e9}};

double cli_ring_one_way(const char *link_key, double sheet) {
  size_t i;
  for (i = 0; i < sizeof RING_BW / sizeof RING_BW[0]; i++)
    if (strcmp(RING_BW[i].link, link_key) == 0) return RING_BW[i].one_way;
  return sheet;
}

/* The generation of a catalogue GPU key ("" when the table has none). */
const char *cli_gpu_generation(const char *gpu_key) {
  size_t i;
  for (i = 0; i < sizeof GPUS / sizeof GPUS[0]; i++)
    if (strcmp(GPUS[i].gpu, gpu_key) == 0) return GPUS[i].generation;
  return "";
}

/* The engine a run's software names, as --engine takes it. NIM serves TensorRT-LLM
 * engines (its rows say "TensorRT-LLM backend"), so it counts as trt-llm. */
const char *cli_engine_of(const char *software) {
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

int cli_run_setting(const gs_run *r, cli_run_setting_t *s, char *why, size_t cap) {
  const gs_model_entry *e = find_model(r->repo[0] ? r->repo : r->model);
  const gpu_row *g = NULL;
  gs_error err;
  gs_hardware_text text;
  size_t i;
  memset(s, 0, sizeof *s);
  if (!e) return snprintf(why, cap, "model '%s' is not in the catalogue", r->repo[0] ? r->repo : r->model), 0;
  for (i = 0; i < sizeof GPUS / sizeof GPUS[0]; i++)
    if (strcmp(GPUS[i].run_name, r->gpu) == 0) g = &GPUS[i];
  if (!g) return snprintf(why, cap, "GPU '%s' has no catalogue entry this fit knows", r->gpu), 0;
  if (gs_builtin_gpu(g->gpu, &s->gpu, &text, &err) != GS_OK)
    return snprintf(why, cap, "GPU '%s' (%s) is not in the catalogue", r->gpu, g->gpu), 0;
  if (gs_builtin_link(g->link, &s->link, NULL, &err) != GS_OK || gs_builtin_link("ib-ndr", &s->plan.between, NULL, &err) != GS_OK)
    return snprintf(why, cap, "link '%s' is not in the catalogue", g->link), 0;
  s->link.bandwidth = cli_ring_one_way(g->link, s->link.bandwidth);
  if (gs_builtin_model(e->key, 0, &s->model, &err) != GS_OK) return snprintf(why, cap, "model %s: %s", e->key, err.what), 0;
  /* the run's weight bits on a 16-bit checkpoint; a checkpoint stored otherwise (MXFP4,
   * block FP8) is priced as stored */
  if (r->weight_bits == 0) return snprintf(why, cap, "weight_bits is not stated"), 0;
  if (r->weight_bits != (double)(uint64_t)r->weight_bits)
    return snprintf(why, cap, "weight_bits %g is not a whole number of bits, as --bits stores them", r->weight_bits), 0;
  if (s->model.stored_bytes == 2 * s->model.params && r->weight_bits != 16 &&
      gs_builtin_model(e->key, (uint64_t)r->weight_bits, &s->model, &err) != GS_OK)
    return snprintf(why, cap, "model %s at %g bits: %s", e->key, r->weight_bits, err.what), 0;
  if (r->tp > 1 && r->pp > 1) return snprintf(why, cap, "tp %llu and pp %llu together: the fit prices one or the other", (unsigned long long)r->tp, (unsigned long long)r->pp), 0;
  s->plan.gpus = r->tp * r->pp;
  s->plan.split = r->pp > 1 ? GS_GROUPS : GS_SLICES;
  s->plan.words = r->batch;
  s->plan.per_server = 8;
  s->plan.chat_tokens = r->input_tokens + r->output_tokens / 2;
  if (s->plan.chat_tokens == 0) s->plan.chat_tokens = 1;
  s->plan.cache_bits = r->kv_bits ? r->kv_bits : 16;
  s->plan.cache_per_chat = 1;
  s->plan.read_cache = 1;
  s->plan.nccl = s->gpu.arch == GS_ARCH_NONE ? GS_NCCL_LESSON : GS_NCCL_AUTO;
  s->plan.between.base_us = s->link.base_us;
  if (gs_plan_check(&s->model, &s->plan, &err) != GS_OK) return snprintf(why, cap, "%s: %s", err.field, err.what), 0;
  snprintf(s->gpu_key, sizeof s->gpu_key, "%s", g->gpu);
  snprintf(s->model_key, sizeof s->model_key, "%s", e->key);
  s->generation = g->generation;
  s->engine = cli_engine_of(r->software);
  return 1;
}
