/* The served load's flags and the engine's limits: one table (CLI_LOAD_FLAGS) that
 * `gpusplit serve` reads for its one layout and `gpusplit plan` for every layout it
 * simulates, so both take the same words, ranges and help (issue 29 items 3, 5 and 6). Each
 * command prints its own heading before these rows. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const uint64_t STEPS_MOST = 256, BLOCK_MOST = 65536, SEED_MOST = UINT64_MAX, REQUESTS_MOST = GS_SERVE_MAX_REQUESTS;
#define AT(member) offsetof(cli_load_flags, member)
#define GIVEN(name, meta, member, most, bit, help) {name, GS_FLAG_WHOLE, meta, AT(member), bit, AT(given), most, 0, 0, 0, 0, help}
#define SHARE(name, meta, member, lo, bit, help) {name, GS_FLAG_REAL, meta, AT(member), bit, AT(given), NULL, lo, 1, 0, 0, help}
const gs_flag CLI_LOAD_FLAGS[] = {
    GIVEN("--concurrency", "C", load.concurrency, &REQUESTS_MOST, CLI_LOAD_CONCURRENCY,
          "closed loop: C requests in flight, a new one as one ends"),
    {"--rate", GS_FLAG_REAL, "R", AT(load.rate), CLI_LOAD_RATE, AT(given), NULL, 0, 1e9, 1, 0, "open loop: Poisson arrivals, R requests a second"},
    GIVEN("--requests", "N", load.requests, &REQUESTS_MOST, CLI_LOAD_REQUESTS, "requests in all, 1 to 250000 (default 1000); the load at most\n"
                                                                              "4194304 steps: each request's output plus its prompt's chunks"),
    GS_NOTE("  --prompt-tokens P  each prompt (default 1024: vllm bench serve's random input)"),
    GIVEN("--output-tokens", "O", load.output_tokens, &GS_MAX_CHAT_TOKENS, CLI_LOAD_OUTPUT, "each output (default 128: its random output)"),
    GIVEN("--seed", "S", load.seed, &SEED_MOST, CLI_LOAD_SEED, "the arrivals' seed (default 1)"),
    {"--lengths", GS_FLAG_PATH, "FILE", AT(lengths), CLI_LOAD_LENGTHS, AT(given), NULL, 0, 0, 0, 0,
     "each request's prompt and output from FILE, \"PROMPT,OUTPUT\" a\n"
     "line ('#' comments), replayed in order (instead of the two above);\n"
     "or sharegpt: drawn from ShareGPT's lengths as vLLM's benchmark\n"
     "draws them (data/sharegpt_lengths.csv, shuffled with --seed),\n"
     "rescaled to the means --prompt-tokens and --output-tokens give"},
    GS_NOTE("The engine, one instance per copy of the layout (defaults: the engine's own, some\n"
            "depending on the GPU; csrc/serve/engine.c names the sources):\n"
            "  --engine E         vllm (default), sglang, trt-llm or lmdeploy (its TurboMind);\n"
            "                     also picks report's fitted efficiency for that engine"),
    GS_CHOICE("--limits", "engine|trtllm-bench", AT(limits_from),
              "engine (default): the\n"
              "limits below not given are the engine's own; trtllm-bench: with\n"
              "trt-llm, --max-seqs and --max-batched-tokens not given are those\n"
              "trtllm-bench sets from the model, the GPUs and the load's mean\n"
              "lengths, as TensorRT-LLM's published throughput tables ran"),
    GIVEN("--max-seqs", "N", limits.max_seqs, &REQUESTS_MOST, CLI_LOAD_MAX_SEQS, "sequences a step holds"),
    GIVEN("--max-batched-tokens", "N", limits.max_batched_tokens, &GS_MAX_WORDS, CLI_LOAD_BATCHED,
          "tokens a step computes (the prefill chunk budget)"),
    GS_CHOICE("--chunked-prefill", "on|off", AT(chunked_from),
              "on (the engines' default but TensorRT-LLM's); off, with\n"
              "vllm: vLLM 0.6's scheduler without it, a step of whole prompts\n"
              "alone or of decodes, its --max-batched-tokens by default the\n"
              "model's max_model_len (at least 2048)"),
    GIVEN("--scheduler-steps", "N", limits.scheduler_steps, &STEPS_MOST, CLI_LOAD_STEPS,
          "with vllm and --chunked-prefill off: vLLM 0.6's multi-step\n"
          "scheduling (--num-scheduler-steps), a decode batch runs N steps\n"
          "before the scheduler runs again (default 1; serve only)"),
    SHARE("--memory-share", "F", limits.memory_share, 0.01, CLI_LOAD_SHARE, "share of each GPU's memory the engine takes, 0.01 to 1"),
    GIVEN("--block-tokens", "N", limits.block_tokens, &BLOCK_MOST, CLI_LOAD_BLOCK, "tokens a cache block holds"),
    GS_NOTE("The engine's step, each default the engine's fitted figure (data/serving.json):"),
    SHARE("--overlap-share", "F", limits.overlap_share, 0, CLI_LOAD_OVERLAP, "busy = max(read, compute) + F x min(read, compute), 0 to 1"),
    {"--seq-us", GS_FLAG_REAL, "U", AT(limits.seq_us), CLI_LOAD_SEQ_US, AT(given), NULL, 0, 1e6, 0, 0,
     "the engine's host time a step for each sequence it holds, us"},
    SHARE("--step-flops-share", "F", limits.flops_share, 0.01, CLI_LOAD_FLOPS, "share of the GPU's peak FLOP/s a step computes at, 0.01 to 1\n"
                                                                             "(8-bit or 4-bit weights on a GPU with FP8 or FP4 tensor cores:\n"
                                                                             "that peak, their attention and output table the 16-bit one;\n"
                                                                             "MXFP4 experts as stored on Blackwell: FP8's beside 16-bit)"),
    GS_NOTE("  --request-us U     (report's flag) a request's front end, us: the time before the\n"
            "                     scheduler takes it, paid once by its first token; 0 for a\n"
            "                     benchmark that drives the engine in its own process (report's\n"
            "                     --flops-share, a prefill's, is refused: --step-flops-share)"),
};
const size_t CLI_LOAD_FLAG_N = sizeof CLI_LOAD_FLAGS / sizeof CLI_LOAD_FLAGS[0];

void cli_load_defaults(cli_load_flags *l) {
  l->load.requests = 1000;
  l->load.output_tokens = 128;
  l->load.seed = 1;
  l->load.kind = GS_LOAD_BATCH;
}

int cli_load_check(cli_load_flags *l, const char *prompt, const char *engine, const char *cmd) {
  int vllm = !engine || strcmp(engine, "vllm") == 0, trtllm = engine && (strcmp(engine, "trt-llm") == 0 || strcmp(engine, "trtllm") == 0);
  if (l->limits_from == 2 && !trtllm)
    return cli_bad("--limits trtllm-bench: trtllm-bench sets TensorRT-LLM's limits; give --engine trt-llm");
  if (l->chunked_from == 2 && !vllm)
    return cli_bad("--chunked-prefill off: simulated for vllm (vLLM 0.6's scheduler), not %s", engine);
  if (l->chunked_from == 1 && trtllm)
    return cli_bad("--chunked-prefill on: TensorRT-LLM's chunked prefill is not simulated (serve runs its prompts whole)");
  if (l->chunked_from == 2) l->given |= CLI_LOAD_UNCHUNKED;
  if ((l->given & CLI_LOAD_STEPS) && l->limits.scheduler_steps > 1 && l->chunked_from != 2)
    return cli_bad("--scheduler-steps: vLLM 0.6's multi-step scheduling is simulated with --engine vllm --chunked-prefill off");
  if ((l->given & CLI_LOAD_STEPS) && l->limits.scheduler_steps > 1 && strcmp(cmd, "serve") != 0)
    return cli_bad("--scheduler-steps: simulated by serve, for one layout; %s's layouts include pipelines, where it is not", cmd);
  if ((l->given & CLI_LOAD_CONCURRENCY) && (l->given & CLI_LOAD_RATE))
    return cli_bad("%s: --concurrency and --rate are two loads; give one", cmd);
  l->sharegpt = l->lengths && strcmp(l->lengths, "sharegpt") == 0;
  l->prompt_given = prompt != NULL;
  if (l->lengths && !l->sharegpt && ((l->given & CLI_LOAD_OUTPUT) || prompt))
    return cli_bad("--lengths: gives each request's prompt and output; leave out --prompt-tokens and --output-tokens");
  /* report's 'none' (no prompt timed) has no served meaning: every request has a prompt, and
   * 'none' had been read as the default 1,024 (until 2026-12-07) */
  if (prompt && strcmp(prompt, "none") == 0)
    return cli_bad(l->sharegpt ? "--prompt-tokens: with --lengths sharegpt, the prompts' mean in tokens, not 'none'"
                               : "--prompt-tokens: a served request's prompt in tokens (default 1024), not 'none'");
  if (l->limits_from == 2) l->limits.bench_limits = 1, l->given |= CLI_LOAD_BENCH;
  if (l->given & CLI_LOAD_CONCURRENCY) l->load.kind = GS_LOAD_CLOSED;
  if (l->given & CLI_LOAD_RATE) l->load.kind = GS_LOAD_OPEN;
  return CLI_OK;
}

/* ShareGPT's lengths (data/sharegpt_lengths.csv, compiled in): the table read, each request's
 * pair drawn from it with the seed into l->pairs, and rescaled to the means given. */
static int draw_sharegpt(cli_load_flags *l) {
  extern const char GS_DATA_sharegpt_lengths_csv[];
  const char *text = GS_DATA_sharegpt_lengths_csv;
  size_t cap = 1, i, n = (size_t)l->load.requests;
  uint64_t *table;
  gs_error err;
  int rc = CLI_OK;
  for (i = 0; text[i]; i++) cap += text[i] == '\n';
  table = malloc(2 * cap * sizeof *table);
  l->pairs = malloc(2 * n * sizeof *l->pairs);
  if (!table || !l->pairs) rc = cli_bad("--lengths sharegpt: out of memory for %zu requests", n);
  else if (gs_lengths_draw_rescaled(text, table, cap, l->load.seed, n, l->prompt_given ? l->load.prompt_tokens : 0,
                                    (l->given & CLI_LOAD_OUTPUT) ? l->load.output_tokens : 0, l->pairs, l->pairs + n,
                                    &err) != GS_OK)
    rc = strcmp(err.field, "lengths") == 0 ? cli_bad("--lengths sharegpt: %s", err.what)
         : strncmp(err.field, "--", 2) == 0 ? cli_bad("%s: %s", err.field, err.what)
                                       : cli_bad_error("sharegpt", &err);
  free(table);
  l->load.prompts = l->pairs;
  l->load.outputs = l->pairs + n;
  l->load.pairs = n;
  return rc;
}

int cli_load_lengths(cli_load_flags *l) {
  char *text;
  size_t len, cap, i, count;
  gs_error err;
  int rc;
  if (!l->lengths) return CLI_OK;
  if (l->sharegpt) return draw_sharegpt(l);
  if ((rc = cli_read_file(l->lengths, 64u << 20, "a lengths file", &text, &len)) != CLI_OK) return rc;
  for (cap = 1, i = 0; i < len; i++) cap += text[i] == '\n';
  if (cap > GS_SERVE_MAX_REQUESTS) cap = GS_SERVE_MAX_REQUESTS;
  l->pairs = malloc(2 * cap * sizeof *l->pairs);
  if (!l->pairs) rc = cli_bad("--lengths: out of memory for %zu pairs", cap);
  else if (gs_lengths_parse(text, len, l->pairs, l->pairs + cap, cap, &count, &err) != GS_OK) rc = cli_bad_error(l->lengths, &err);
  free(text);
  if (rc != CLI_OK) return rc;
  l->load.prompts = l->pairs;
  l->load.outputs = l->pairs + cap;
  l->load.pairs = count;
  return CLI_OK;
}
