/* Weights counted tensor by tensor, and the bits each takes in the stored format. A family
 * names each tensor's part (attention, expert, ...), so one rule per format decides which
 * tensors it quantizes, the way the quantizer in transformers replaces modules. */
#include "internal.h"

/* MXFP4 (OCP Microscaling spec v1.0): 4-bit values in blocks of 32 along the input, each
 * block with one 8-bit shared scale; transformers' Mxfp4 quantizer converts only the
 * experts (gpt-oss's checkpoints: *_blocks and *_scales tensors). */
enum { MXFP4_VALUE_BITS = 4, MXFP4_BLOCK = 32, MXFP4_SCALE_BITS = 8 };
/* Block FP8 (DeepSeek-V3's and Qwen3's fp8 checkpoints, transformers' FineGrainedFP8): an
 * 8-bit value and one weight_scale_inv per block of every attention, feed-forward and
 * expert matrix; the scale's width is the family's (families.c). The tables, the norms and
 * a mixture's router stay at 16 bits: vLLM builds Qwen3-MoE's router with no quantization
 * (models/qwen3_moe.py, quant_config=None), and the Hub's counts of DeepSeek-V3-,
 * Qwen3-32B- and Qwen3-30B-A3B-FP8 hold exactly so (tests/c/test_families.c). */
enum { FP8_VALUE_BITS = 8 };

static void fail_overflow(gs_tally *t) {
  if (t->code == GS_OK) t->code = gs_fail(t->err, GS_ERR_OVERFLOW, "config", "the weight count would overflow 64 bits");
}

/* Adds copies x values weights of value_bits each plus extra_bits (scales) per copy. */
static void add(gs_tally *t, int part, uint64_t copies, uint64_t values, uint64_t value_bits, uint64_t extra_bits) {
  uint64_t params, bits, scale_bits;
  if (t->code != GS_OK) return;
  if (!gs_mul(copies, values, &params) || !gs_mul(params, value_bits, &bits) || !gs_mul(copies, extra_bits, &scale_bits) ||
      !gs_add(bits, scale_bits, &bits) || !gs_add(t->params, params, &t->params) || !gs_add(t->bits, bits, &t->bits)) {
    fail_overflow(t);
    return;
  }
  if (part == GS_PART_EXPERT &&
      (!gs_add(t->routed_params, params, &t->routed_params) || !gs_add(t->routed_bits, bits, &t->routed_bits)))
    fail_overflow(t);
  if (part == GS_PART_TABLE && !gs_add(t->table_params, params, &t->table_params)) fail_overflow(t);
  if (part == GS_PART_VISION &&
      (!gs_add(t->unread_params, params, &t->unread_params) || !gs_add(t->unread_bits, bits, &t->unread_bits)))
    fail_overflow(t);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

void gs_tally_matrix(gs_tally *t, int part, uint64_t copies, uint64_t rows, uint64_t cols) {
  uint64_t values, blocks, scale_bits;
  if (t->code != GS_OK) return;
  if (!gs_mul(rows, cols, &values)) {
    fail_overflow(t);
    return;
  }
  switch (t->storage.kind) {
  case GS_STORE_BITS:
    add(t, part, copies, values, t->storage.bits, 0);
    return;
  case GS_STORE_MXFP4:
    if (part != GS_PART_EXPERT) break;
    if (cols % MXFP4_BLOCK != 0) {
      t->code = gs_fail(t->err, GS_ERR_UNSUPPORTED, "quantization_config",
                        "mxfp4 needs expert inputs in whole blocks of 32, and one has %llu", (unsigned long long)cols);
      return;
    }
    add(t, part, copies, values, MXFP4_VALUE_BITS, rows * (cols / MXFP4_BLOCK) * MXFP4_SCALE_BITS);
    return;
  case GS_STORE_FP8_BLOCK:
    if (part != GS_PART_ATTENTION && part != GS_PART_MLP && part != GS_PART_EXPERT) break;
    if (!gs_mul(ceil_div(rows, t->storage.block_rows), ceil_div(cols, t->storage.block_cols), &blocks) ||
        !gs_mul(blocks, t->storage.scale_bits, &scale_bits)) {
      fail_overflow(t);
      return;
    }
    add(t, part, copies, values, FP8_VALUE_BITS, scale_bits);
    return;
  default:
    break;
  }
  add(t, part, copies, values, 16, 0);
}

void gs_tally_vector(gs_tally *t, int part, uint64_t copies, uint64_t len) {
  add(t, part, copies, len, t->storage.kind == GS_STORE_BITS ? t->storage.bits : 16, 0);
}

void gs_tally_vector_fp32(gs_tally *t, uint64_t copies, uint64_t len) {
  uint64_t bits = t->storage.kind == GS_STORE_BITS ? t->storage.bits : t->storage.kind == GS_STORE_FP8_BLOCK ? 32 : 16;
  add(t, GS_PART_NORM, copies, len, bits, 0);
}

uint64_t gs_tally_mul(gs_tally *t, uint64_t a, uint64_t b) {
  uint64_t product;
  if (gs_mul(a, b, &product)) return product;
  fail_overflow(t);
  return 0;
}
