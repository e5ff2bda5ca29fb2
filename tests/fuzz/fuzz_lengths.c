/* libFuzzer target: the lengths reader (csrc/read/lengths.c), given any bytes. A text it
 * accepts must give at least one pair, each prompt and output at least 1 and together at
 * most GS_MAX_CHAT_TOKENS; a refusal must say why in a NUL-terminated message. Run with
 * `make fuzz`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpusplit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CAP = 4096 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint64_t prompts[CAP], outputs[CAP];
  gs_error err;
  size_t i, count;
  if (gs_lengths_parse((const char *)data, size, prompts, outputs, CAP, &count, &err) != GS_OK) {
    if (memchr(err.what, '\0', sizeof err.what) == NULL || err.code >= 0 || !err.what[0]) abort();
    return 0;
  }
  if (count < 1 || count > CAP) abort();
  for (i = 0; i < count; i++)
    if (prompts[i] < 1 || outputs[i] < 1 || prompts[i] + outputs[i] > GS_MAX_CHAT_TOKENS) abort();
  return 0;
}
