/* The one compute peak of a checkpoint whose routed experts are stored MXFP4 (gpt-oss),
 * served as stored on Blackwell. TensorRT-LLM's GPT-OSS page (examples/models/core/gpt_oss/
 * README.md, "MoE Support Matrix") gives the MoE's activations as mxfp8 on Blackwell and bf16
 * on Hopper, with the MXFP4 weights, "All the other weights are in bf16": the experts'
 * GEMMs run at the FP8 peak, every other GEMM at the 16-bit one. A step is priced at one peak,
 * so this is the rate at which a token's GEMM operations take the time the two parts take
 * together: with f the routed experts' share of a token's operations (k of E experts in each
 * mixture-of-experts layer, over the weights it multiplies: the active ones less the tables),
 * 1 / (f / FP8 + (1 - f) / 16-bit). Attention's scores take the same blend, where they would
 * run at 16 bits; at gpt-oss's lengths they are a small part. Divisions only: no libm. */
#include "internal.h"

double gs_mxfp4_peak(const gs_model *m, double flops16, double flops_fp8) {
  double multiplied = (double)(m->active_params - m->table_params), routed;
  if (m->experts == 0 || multiplied <= 0) return flops16;
  routed = (double)m->routed_params / (double)m->experts * (double)m->experts_per_token / multiplied;
  if (!(routed > 0)) return flops16;
  if (routed > 1) routed = 1;
  return 1 / (routed / flops_fp8 + (1 - routed) / flops16);
}
