/* Seeded random settings for the parity tests (csrc/emit/random_setting.c). */
#ifndef GPUSPLIT_EMIT_RANDOM_SETTING_H
#define GPUSPLIT_EMIT_RANDOM_SETTING_H

#include "internal.h"

/* From *state: a plan's split (slices or groups), count and words; into config (room for cap
 * bytes) a config.json's text, Llama-style or (families) of every family the reader
 * counts; a GPU's and a link's figures; and with machines, servers, the link between them,
 * the three splits, the cache's tokens and bits, the switches, NCCL's rules, link kinds and
 * GPU generations. p, g and l start zeroed. */
void gs_random_setting(uint64_t *state, int families, int machines, char *config, size_t cap, gs_plan *p, gs_gpu *g, gs_link *l);

#endif
