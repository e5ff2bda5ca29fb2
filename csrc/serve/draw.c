/* Requests' lengths drawn from a table of (prompt, output) pairs, as vLLM's benchmark draws
 * ShareGPT's (vllm/benchmarks/datasets/sharegpt.py, ShareGPTDataset): it shuffles the
 * conversations with random.seed(seed), walks them in that order keeping the pairs
 * is_valid_sequence keeps (prompt and output of at least 4 tokens, prompt at most 1,024, the
 * two at most 2,048), and when it has fewer than the requests asked for, adds copies of
 * random.choice(samples) (maybe_oversample_requests). The table given is already filtered
 * (data/sharegpt_lengths.csv), so shuffling it draws the same distribution; the order is
 * splitmix64's, not Python's Mersenne Twister's, so a seed does not pick vLLM's very
 * requests. Integers only: the same draws native and in wasm. */
#include <string.h>

#include "internal.h"

/* A uniform integer in [0, n), n >= 1, without bias: 64-bit draws below 2^64 mod n are
 * drawn again (the rest cover each residue equally often). */
static uint64_t below(uint64_t *state, uint64_t n) {
  uint64_t threshold = (0 - n) % n, x;
  do x = gs_splitmix64(state);
  while (x < threshold);
  return x % n;
}

void gs_lengths_draw(uint64_t *prompts, uint64_t *outputs, size_t count, uint64_t seed, size_t n, uint64_t *draw_prompts,
                     uint64_t *draw_outputs) {
  /* Its own stream, apart from the Poisson arrivals' (load.c seeds those with seed itself). */
  uint64_t state = seed ^ 0x5348415245475054u, t; /* "SHAREGPT" */
  size_t i, j, shuffled = n < count ? n : count;
  for (i = 0; i < shuffled; i++) { /* Fisher-Yates, as far as the draws reach */
    j = i + (size_t)below(&state, count - i);
    t = prompts[i], prompts[i] = prompts[j], prompts[j] = t;
    t = outputs[i], outputs[i] = outputs[j], outputs[j] = t;
  }
  for (i = 0; i < n; i++) {
    j = i < count ? i : (size_t)below(&state, count);
    draw_prompts[i] = prompts[j];
    draw_outputs[i] = outputs[j];
  }
}

/* The sum l x mean x n stays below 2^64: a length of the table is at most 2,048 (2^11), a
 * mean at most GS_MAX_CHAT_TOKENS (2^24), n at most GS_SERVE_MAX_REQUESTS (< 2^18); twice
 * that is 2^54. Longer lengths or larger means are refused rather than wrapped. */
int gs_lengths_rescale(uint64_t *lengths, size_t n, uint64_t mean, uint64_t most, const char *field, gs_error *err) {
  uint64_t sum = 0, x;
  size_t i;
  if (n == 0 || n > GS_SERVE_MAX_REQUESTS || mean == 0 || mean > GS_MAX_CHAT_TOKENS)
    return gs_fail(err, GS_ERR_RANGE, field, "a mean of 1 to %llu tokens over 1 to %d requests",
                   (unsigned long long)GS_MAX_CHAT_TOKENS, GS_SERVE_MAX_REQUESTS);
  for (i = 0; i < n; i++) {
    if (lengths[i] == 0 || lengths[i] > 2048) return gs_fail(err, GS_ERR_RANGE, field, "a drawn length of 1 to 2048 tokens");
    sum += lengths[i];
  }
  for (i = 0; i < n; i++) {
    x = (2 * lengths[i] * mean * (uint64_t)n + sum) / (2 * sum);
    if (x > most)
      return gs_fail(err, GS_ERR_RANGE, field, "rescaled to a mean of %llu, a length of %llu tokens becomes %llu, above %llu",
                     (unsigned long long)mean, (unsigned long long)lengths[i], (unsigned long long)x, (unsigned long long)most);
    lengths[i] = x ? x : 1;
  }
  return GS_OK;
}

int gs_lengths_draw_rescaled(const char *text, uint64_t *table, size_t cap, uint64_t seed, size_t n, uint64_t mean_prompt,
                             uint64_t mean_output, uint64_t *prompts, uint64_t *outputs, gs_error *err) {
  size_t count, i;
  int rc;
  if ((rc = gs_lengths_parse(text, strlen(text), table, table + cap, cap, &count, err)) != GS_OK) return rc;
  gs_lengths_draw(table, table + cap, count, seed, n, prompts, outputs);
  if ((mean_prompt && (rc = gs_lengths_rescale(prompts, n, mean_prompt, GS_MAX_CHAT_TOKENS, "--prompt-tokens", err)) != GS_OK) ||
      (mean_output && (rc = gs_lengths_rescale(outputs, n, mean_output, GS_MAX_CHAT_TOKENS, "--output-tokens", err)) != GS_OK))
    return rc;
  for (i = 0; i < n; i++)
    if (prompts[i] + outputs[i] > GS_MAX_CHAT_TOKENS)
      return gs_fail(err, GS_ERR_RANGE, "lengths", "rescaled, a prompt and an output of %llu tokens together, above %llu",
                     (unsigned long long)(prompts[i] + outputs[i]), (unsigned long long)GS_MAX_CHAT_TOKENS);
  return GS_OK;
}
