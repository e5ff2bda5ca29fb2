/* A served load on spread experts (issue 29 item 4): attention data-parallel, each GPU an
 * attention rank with its own requests and pool, the ranks' steps joined by the expert
 * layers; and attention sliced beside spread experts (TP with EP). Expected figures are
 * worked by hand from the model's totals and the rules in csrc/core/mixed_spread.c and
 * csrc/serve/serve.c, not read from a run. Qwen3-30B-A3B: 32 heads, 4 key/value heads,
 * 128 routed experts, 8 a token, no sliding window. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"
#include "internal.h"
#include "serve/sim.h"

static gs_plan spread_plan(uint64_t gpus, int attention) {
  gs_plan p;
  memset(&p, 0, sizeof p);
  p.gpus = gpus;
  p.split = GS_SLICES;
  p.words = 1;
  p.experts = GS_EXPERTS_SPREAD;
  p.attention = attention;
  return p;
}

static gs_scheduler engine(const char *name) {
  gs_scheduler e;
  gs_gpu g = ts_h100();
  gs_error err;
  if (gs_engine_defaults(name, &g, "h100-sxm", 8, &e, &err) != GS_OK) fail_msg("%s", err.what);
  e.flops_share = 0, e.seq_us = 0, e.overlap_share = 0, e.request_us = 0; /* the bare step: the mechanics alone */
  return e;
}

static gs_serve_result serve(const gs_plan *p, uint64_t replicas, const gs_scheduler *e, const gs_load *load) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_serve_result r;
  gs_serve_space sp = ts_space((size_t)load->requests);
  gs_error err;
  int rc;
  ts_link("fast", &l);
  memset(&err, 0, sizeof err);
  rc = gs_serve_run(&m, &g, &l, p, replicas, e, load, &sp, &r, &err);
  ts_space_free(&sp);
  if (rc != GS_OK) fail_msg("serve: %s: %s", err.field, err.what);
  return r;
}

/* Each rank's pool: 0.92 x 80 GiB less a rank's weights (every weight but the experts, and
 * 16 of the 128 experts whole) less the working memory (gs_working_bytes), in blocks of 16
 * tokens of a token's whole cache (a rank cuts no head). Sliced attention: 1/8 of the
 * copies, the same experts, a block shared into 4 (4 key/value heads). */
static void pool_is_each_ranks(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_scheduler e = engine("vllm");
  gs_plan data = spread_plan(8, GS_ATTENTION_DATA), sliced = spread_plan(8, GS_ATTENTION_SLICES);
  uint64_t blocks, copied = m.stored_bytes - m.routed_bytes, mine = m.routed_bytes / 8, block = m.cache_full_bytes * 16;
  double memory = 80.0 * 1073741824.0, working = (double)gs_working_bytes(&m);
  gs_error err;
  (void)state;
  assert_true(m.routed_bytes % 8 == 0 && m.window == 0 && m.cache_window_bytes == 0 && block % 4 == 0);
  assert_true(e.memory_share == 0.92 && e.block_tokens == 16 && e.activations_inside && !e.share_of_free);
  assert_int_equal(gs_serve_pool(&m, &g, &data, &e, &blocks, &err), GS_OK);
  assert_true(blocks == (uint64_t)((0.92 * memory - (double)(copied + mine) - working) / (double)block));
  assert_int_equal(gs_serve_pool(&m, &g, &sliced, &e, &blocks, &err), GS_OK);
  assert_true(blocks == (uint64_t)((0.92 * memory - (double)((copied + 7) / 8 + mine) - working) / (double)(block / 4)));
}

/* One token on one rank at context 0: it reads the copies whole (its own attention and
 * every other weight) and one whole expert a MoE layer (16 held x 8/128 picked = 1 expert:
 * routed bytes / 128); sliced, 1/8 of the copies and the same expert. No cache yet. */
static void one_token_reads_its_copies_and_one_expert(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_step_work w[8];
  gs_mixed_cost c;
  gs_plan data = spread_plan(8, GS_ATTENTION_DATA), sliced = spread_plan(8, GS_ATTENTION_SLICES);
  uint64_t copied = m.stored_bytes - m.unread_bytes - m.routed_bytes, expert = m.routed_bytes / 128;
  gs_error err;
  (void)state;
  ts_link("fast", &l);
  memset(w, 0, sizeof w);
  gs_step_work_add(&m, &w[3], 0, 1);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &data, 0, w, 8, &c, &err), GS_OK);
  assert_true(c.read_bytes == copied + expert);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &sliced, 0, &w[3], 1, &c, &err), GS_OK);
  assert_true(c.read_bytes == (copied + 7) / 8 + expert);
  /* the wrong count of works is refused by name */
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &data, 0, w, 1, &c, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "ranks");
}

/* The joined step: the all-to-all sends the busiest rank's tokens, so 4 tokens on every
 * rank move as long as 4 on one; the step lasts as the slowest rank's, whichever it is. With
 * attention sliced the transfers are the slices' all-reduces of every token, as under
 * experts sliced. */
static void joined_step_waits_for_the_busiest_rank(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_step_work all[8], one[8], other[8], sum;
  gs_mixed_cost a, b, c, s, t;
  gs_plan data = spread_plan(8, GS_ATTENTION_DATA), sliced = spread_plan(8, GS_ATTENTION_SLICES), plain = sliced;
  gs_error err;
  size_t r;
  (void)state;
  ts_link("fast", &l);
  memset(all, 0, sizeof all), memset(one, 0, sizeof one), memset(other, 0, sizeof other), memset(&sum, 0, sizeof sum);
  for (r = 0; r < 8; r++) gs_step_work_add(&m, &all[r], 100, 4);
  gs_step_work_add(&m, &one[0], 100, 4);
  gs_step_work_add(&m, &other[5], 100, 4);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &data, 0, all, 8, &a, &err), GS_OK);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &data, 0, one, 8, &b, &err), GS_OK);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &data, 0, other, 8, &c, &err), GS_OK);
  assert_true(a.time.transfer == b.time.transfer && a.time.transfer > 0);
  assert_true(b.seconds == c.seconds); /* which rank is busy does not matter */
  assert_true(a.seconds > b.seconds);   /* more tokens pick more experts and compute more */
  /* sliced attention: the same all-reduces as experts sliced for the same 32 tokens */
  for (r = 0; r < 8; r++) gs_step_work_add(&m, &sum, 100, 4);
  plain.experts = GS_EXPERTS_SLICES;
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &sliced, 0, &sum, 1, &s, &err), GS_OK);
  assert_int_equal(gs_mixed_step(&m, &g, &l, &plain, 0, &sum, &t, &err), GS_OK);
  assert_true(s.time.transfer == t.time.transfer);
  ts_assert_close(s.gemm_ops + s.attention_ops, t.gemm_ops + t.attention_ops, 1e-12);
}

/* 8 requests, all at once, on 8 ranks: one each, so no rank's pool ever holds more than
 * one request's blocks, ceil((512 + 64) / 16) = 36 (all on one rank would hold 8 x 36);
 * 16 requests, two each: 72. Every request then runs the same steps: one prefill and 63
 * decodes, 64 steps in all, and the same times. */
static void each_rank_serves_its_eighth(void **state) {
  gs_scheduler e = engine("vllm");
  gs_plan p = spread_plan(8, GS_ATTENTION_DATA);
  gs_load l = ts_load(GS_LOAD_BATCH, 8, 512, 64);
  gs_serve_result r;
  (void)state;
  r = serve(&p, 1, &e, &l);
  assert_int_equal(r.ranks, 8);
  assert_int_equal(r.peak_blocks, 36);
  assert_int_equal(r.steps, 64);
  assert_true(r.ttft.p50 == r.ttft.p99 && r.e2e.p50 == r.e2e.p99);
  l.requests = 16;
  r = serve(&p, 1, &e, &l);
  assert_int_equal(r.peak_blocks, 72);
  assert_int_equal(r.steps, 64);
  assert_int_equal(r.gpus, 8);
}

/* The invariants of any honest run hold under attention data parallel: percentiles in
 * order, e2e = ttft + tpot x (output - 1), every token computed once, and Little's law in
 * a closed loop of 16 (2 a rank) over 800 requests (drain at most 2%). */
static void invariants_hold_on_ranks(void **state) {
  gs_scheduler e = engine("vllm");
  gs_plan p = spread_plan(8, GS_ATTENTION_DATA);
  gs_load l = ts_load(GS_LOAD_OPEN, 400, 512, 64);
  gs_serve_result r;
  const gs_dist *d[4];
  size_t i;
  (void)state;
  l.rate = 20;
  r = serve(&p, 1, &e, &l);
  d[0] = &r.ttft, d[1] = &r.tpot, d[2] = &r.itl, d[3] = &r.e2e;
  for (i = 0; i < 4; i++) assert_true(d[i]->p50 > 0 && d[i]->p50 <= d[i]->p90 && d[i]->p90 <= d[i]->p99);
  ts_assert_close(r.e2e.mean, r.ttft.mean + r.tpot.mean * 63, 1e-9);
  assert_int_equal(r.preemptions, 0);
  assert_true(r.computed_tokens == 400 * (512 + 64 - 1));
  l = ts_load(GS_LOAD_CLOSED, 800, 256, 32);
  l.concurrency = 16;
  r = serve(&p, 1, &e, &l);
  ts_assert_close(r.requests_per_s * r.e2e.mean, 16, 0.02);
  ts_assert_close(r.mean_in_flight, 16, 0.02);
  /* fewer in flight than ranks: 4 ranks busy, one request each, the other 4 idle; every
   * request is served, Little's law holds, and a step carries fewer tokens than at 16 */
  {
    double tpot16 = r.tpot.mean;
    l.concurrency = 4;
    r = serve(&p, 1, &e, &l);
    ts_assert_close(r.requests_per_s * r.e2e.mean, 4, 0.02);
    ts_assert_close(r.mean_in_flight, 4, 0.02);
    assert_true(r.computed_tokens == 800 * (256 + 32 - 1));
    assert_true(r.tpot.mean < tpot16);
  }
}

/* SGLang's limits are the engine's, 1/8 a rank under 8 attention ranks (8192 / 8 = 1024
 * tokens a step); vLLM's each rank's own. Sliced attention is one rank: SGLang's whole. */
static void sglang_shares_its_limits_over_ranks(void **state) {
  gs_scheduler s = engine("sglang"), v = engine("vllm");
  gs_plan data = spread_plan(8, GS_ATTENTION_DATA), sliced = spread_plan(8, GS_ATTENTION_SLICES);
  gs_load l = ts_load(GS_LOAD_BATCH, 16, 256, 8);
  gs_serve_result r;
  (void)state;
  assert_true(s.max_batched_tokens == 8192 && v.max_batched_tokens == 8192);
  r = serve(&data, 1, &s, &l);
  assert_int_equal(r.max_batched_tokens, 1024);
  r = serve(&data, 1, &v, &l);
  assert_int_equal(r.max_batched_tokens, 8192);
  r = serve(&sliced, 1, &s, &l);
  assert_int_equal(r.max_batched_tokens, 8192);
  assert_int_equal(r.ranks, 1);
}

/* Under real rules a count must divide the heads, unless the experts are spread beside
 * data-parallel attention, which cuts no head: 64 GPUs divide Qwen3-30B-A3B's 128 experts
 * and not its 32 heads. */
static void counts_need_not_divide_heads_beside_data_attention(void **state) {
  static gs_setting s;
  gs_request q;
  gs_error err;
  (void)state;
  memset(&q, 0, sizeof q);
  q.model_key = "qwen3-30b-a3b";
  q.gpu_key = "h100-sxm";
  q.assume = GS_ASSUME_REAL;
  q.words = 1;
  q.experts = GS_EXPERTS_SPREAD;
  assert_int_equal(gs_resolve(&q, &s, &err), GS_OK);
  assert_true(s.divide_heads);
  assert_int_equal(gs_count_allowed(&s, 64, &err), GS_OK);
  assert_int_equal(gs_count_allowed(&s, 48, &err), GS_ERR_SHAPE); /* 128 experts do not spread over 48 */
  s.plan.attention = GS_ATTENTION_SLICES;
  assert_int_equal(gs_count_allowed(&s, 64, &err), GS_ERR_SHAPE);
  assert_string_equal(err.field, "gpus");
  s.plan.experts = GS_EXPERTS_SLICES, s.plan.attention = GS_ATTENTION_DATA;
  assert_int_equal(gs_count_allowed(&s, 64, &err), GS_ERR_SHAPE); /* experts sliced cut the heads */
}

/* Experts spread over fewer ranks than GPUs (--expert-ranks): E/EP experts a rank, each cut
 * over the rank's 8/EP GPUs. Routing uniform, a GPU then reads and computes what it does
 * with whole experts: 16 experts' worth of slices a GPU whatever EP (EP 1: 128 experts,
 * each an eighth). One token on rank 3 picks 8 of 128 experts: with EP 1 a GPU reads an
 * eighth of each, one expert's bytes, as EP 8's one whole expert. What differs is how the
 * tokens reach the experts: under attention data with EP below the GPUs, every rank's
 * tokens are gathered and all-reduced (the slices' all-reduces of all of them, as sliced
 * attention sends), not sent by an all-to-all. */
static void experts_cut_over_a_ranks_gpus(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_step_work one[8], all[8], sum;
  gs_mixed_cost a, b, c, d, e;
  gs_plan whole = spread_plan(8, GS_ATTENTION_DATA), cut = whole, sliced = spread_plan(8, GS_ATTENTION_SLICES), sliced4 = sliced;
  uint64_t copied = m.stored_bytes - m.unread_bytes - m.routed_bytes, expert = (m.routed_bytes + 127) / 128;
  gs_error err;
  size_t r;
  (void)state;
  ts_link("fast", &l);
  cut.expert_ranks = 1, sliced4.expert_ranks = 4;
  memset(one, 0, sizeof one), memset(all, 0, sizeof all), memset(&sum, 0, sizeof sum);
  gs_step_work_add(&m, &one[3], 0, 1);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &cut, 0, one, 8, &a, &err), GS_OK);
  assert_true(a.read_bytes == copied + expert);
  for (r = 0; r < 8; r++) gs_step_work_add(&m, &all[r], 100, 4), gs_step_work_add(&m, &sum, 100, 4);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &whole, 0, all, 8, &a, &err), GS_OK);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &cut, 0, all, 8, &b, &err), GS_OK);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &sliced, 0, &sum, 1, &c, &err), GS_OK);
  assert_true(b.read_bytes == a.read_bytes && b.gemm_ops == a.gemm_ops && b.compute == a.compute);
  assert_true(b.time.transfer == c.time.transfer); /* all 32 tokens all-reduced, as sliced attention */
  assert_true(a.time.transfer != b.time.transfer); /* the busiest rank's 4 in an all-to-all */
  /* sliced attention: EP 4 (TensorRT-LLM's --tp_size 8 --ep_size 4) prices as EP 8 */
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &sliced4, 0, &sum, 1, &d, &err), GS_OK);
  assert_true(d.read_bytes == c.read_bytes && d.time.transfer == c.time.transfer && d.compute == c.compute);
  /* a count the ranks do not divide is refused by the step too */
  sliced4.expert_ranks = 3;
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &sliced4, 0, &sum, 1, &e, &err), GS_ERR_SHAPE);
  assert_string_equal(err.field, "expert_ranks");
}

/* The checks: ranks that divide the GPUs and the experts, spread experts only; and the
 * decode step and first word of report and plan, which price whole experts only, refuse
 * them by name rather than price them as whole. */
static void expert_ranks_are_checked_and_refused_where_not_priced(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_cost_result c;
  gs_plan p = spread_plan(8, GS_ATTENTION_DATA);
  gs_error err;
  (void)state;
  ts_link("fast", &l);
  p.expert_ranks = 3;
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_ERR_SHAPE);
  assert_string_equal(err.field, "expert_ranks");
  p.gpus = 6; /* 3 ranks of 2 GPUs: 128 experts do not spread over 3 */
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_ERR_SHAPE);
  assert_string_equal(err.field, "experts");
  p.gpus = 8, p.expert_ranks = 4;
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_OK);
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "expert_ranks");
  p.expert_ranks = 8; /* as many ranks as GPUs: today's whole experts */
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  p.experts = GS_EXPERTS_SLICES, p.expert_ranks = 2;
  assert_int_equal(gs_plan_check(&m, &p, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "expert_ranks");
}

/* The bytes of `picked` experts of qwen3-30b-a3b's 128, rounded up as experts.c rounds. */
static uint64_t expert_bytes(const gs_model *m, double picked) {
  double x = picked * ((double)m->routed_bytes / 128);
  return (uint64_t)x + ((double)(uint64_t)x < x);
}

/* A skewed router (--skew S): the busiest expert rank gets S times the mean routed tokens.
 * Qwen3-30B-A3B on 8 GPUs, 4 tokens on each rank (32 in all), S = 2: the busiest GPU
 * computes twice the mean expert operations (2 x routed_active x 32 / 8 more), reads its
 * 16 experts as picked with probability 2 x 8/128 = 1/8 a token, 16 x (1 - (7/8)^32)
 * experts' bytes, and receives 2 x 32 / 8 = 8 tokens in the all-to-all, as a step of 8
 * tokens a rank sends uniformly. S = 1 is uniform routing, bit for bit. */
static void a_skewed_router_waits_for_its_busiest_rank(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_step_work four[8], eight[8];
  gs_mixed_cost u, one, s2, e8;
  gs_plan p = spread_plan(8, GS_ATTENTION_DATA), q;
  uint64_t copied = m.stored_bytes - m.unread_bytes - m.routed_bytes;
  double routed_active = (double)m.routed_params * 8 / 128, miss = 1, uniform_miss = 1, picked, bytes;
  gs_cost_result c;
  gs_error err;
  size_t r;
  int i;
  (void)state;
  ts_link("fast", &l);
  memset(four, 0, sizeof four), memset(eight, 0, sizeof eight);
  for (r = 0; r < 8; r++) gs_step_work_add(&m, &four[r], 100, 4), gs_step_work_add(&m, &eight[r], 100, 8);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &p, 0, four, 8, &u, &err), GS_OK);
  q = p, q.skew = 1;
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &q, 0, four, 8, &one, &err), GS_OK);
  assert_true(one.seconds == u.seconds && one.read_bytes == u.read_bytes);
  q.skew = 2;
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &q, 0, four, 8, &s2, &err), GS_OK);
  ts_assert_close(s2.compute - u.compute, 2 * routed_active * 32 / 8 / g.flops, 1e-9);
  /* the same rank's cache either way: the difference is the experts' bytes, skewed less uniform */
  for (i = 0; i < 32; i++) miss *= 7.0 / 8, uniform_miss *= 15.0 / 16;
  picked = 16 * (1 - miss);
  bytes = picked * ((double)m.routed_bytes / 128);
  assert_true(u.read_bytes > copied);
  assert_true(s2.read_bytes - u.read_bytes == (uint64_t)bytes + ((double)(uint64_t)bytes < bytes) - expert_bytes(&m, 16 * (1 - uniform_miss)));
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &p, 0, eight, 8, &e8, &err), GS_OK);
  assert_true(s2.time.transfer == e8.time.transfer && s2.time.transfer > u.time.transfer);
  /* refused: beyond the ranks, beside sliced experts, and in report's decode step */
  q.skew = 9;
  assert_int_equal(gs_plan_check(&m, &q, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "skew");
  q.skew = 2;
  assert_int_equal(gs_cost(&m, &g, &l, &q, &c, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "skew");
  q.experts = GS_EXPERTS_SLICES;
  assert_int_equal(gs_plan_check(&m, &q, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "skew");
}

/* Spread experts in a pipeline (serve's --split slices-groups --per-server 2 --experts
 * spread on 4 GPUs: 2 stages of 2 attention ranks; csrc/serve/pipeline.c). Each GPU holds
 * half the copied weights (its stage's layers), a quarter of the experts, and half of
 * each token's cache. One request of one output token, one micro-batch in flight: its
 * first token is the ranks' step over one stage's 2 GPUs through every layer (rank 0
 * prefills, rank 1 idles) plus one hand-off of its 512 tokens' hidden vectors between the
 * stages. Two micro-batches in flight complete more than one. The report's decode step
 * refuses the layout by name. */
static void spread_experts_in_a_pipeline(void **state) {
  gs_model m = ts_builtin("qwen3-30b-a3b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_scheduler e = engine("vllm");
  gs_plan p = spread_plan(4, GS_ATTENTION_DATA), stage = spread_plan(2, GS_ATTENTION_DATA);
  gs_load one = ts_load(GS_LOAD_BATCH, 1, 512, 1), many = ts_load(GS_LOAD_CLOSED, 200, 512, 64);
  many.concurrency = 32;
  gs_step_work w[2];
  gs_mixed_cost c;
  gs_serve_result r1, r2;
  uint64_t blocks, copied = m.stored_bytes - m.routed_bytes, block = m.cache_full_bytes * 16;
  double memory = 80.0 * 1073741824.0, working = (double)gs_working_bytes(&m), want;
  gs_error err;
  (void)state;
  ts_link("fast", &l);
  p.split = GS_SLICES_GROUPS, p.per_server = 2, p.between = l;
  assert_int_equal(gs_attention_ranks(&p), 2);
  assert_int_equal(gs_serve_pool(&m, &g, &p, &e, &blocks, &err), GS_OK);
  assert_true(copied % 2 == 0 && m.routed_bytes % 4 == 0 && block % 2 == 0);
  assert_true(blocks == (uint64_t)((0.92 * memory - (double)(copied / 2 + m.routed_bytes / 4) - working) / (double)(block / 2)));
  memset(w, 0, sizeof w);
  gs_step_work_add(&m, &w[0], 0, 512);
  assert_int_equal(gs_mixed_step_spread(&m, &g, &l, &stage, 0, w, 2, &c, &err), GS_OK);
  want = c.seconds + gs_handoff_time(gs_message_bytes(&m) * 512, &l);
  p.in_flight = 1;
  r1 = serve(&p, 1, &e, &one);
  assert_int_equal(r1.stages, 2);
  assert_int_equal(r1.ranks, 2);
  assert_true(fabs(r1.ttft.mean - want) <= 1e-12 * want);
  r1 = serve(&p, 1, &e, &many);
  p.in_flight = 2;
  r2 = serve(&p, 1, &e, &many);
  assert_int_equal(r2.in_flight, 2);
  assert_true(r2.output_tokens_per_s > 1.2 * r1.output_tokens_per_s);
  /* the decode step prices whole experts on every GPU of one stage only */
  p.words = 1;
  assert_int_equal(gs_spread_whole_check(&p, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "experts");
  p.split = GS_GROUPS;
  assert_int_equal(gs_spread_check(&m, &p, &err), GS_ERR_UNSUPPORTED);
}

/* A run stops by name once its ranks' steps pass the bound (GS_SERVE_MAX_RANK_STEPS), an idle
 * rank's dummy pass counted: 64 ranks through the most steps a load may take run, and one
 * rank-step more is refused (an open loop's few requests on many ranks, which no check before
 * the run can bound). */
static void a_run_stops_past_its_rank_steps(void **state) {
  gs_serve_result out;
  gs_error err;
  (void)state;
  memset(&out, 0, sizeof out);
  out.steps = GS_SERVE_MAX_STEPS;
  out.rank_steps = 64ull * GS_SERVE_MAX_STEPS;
  assert_int_equal(sim_guard(&out, &err), GS_OK);
  out.rank_steps++;
  assert_int_equal(sim_guard(&out, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "requests");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_run_stops_past_its_rank_steps),
      cmocka_unit_test(pool_is_each_ranks),
      cmocka_unit_test(one_token_reads_its_copies_and_one_expert),
      cmocka_unit_test(joined_step_waits_for_the_busiest_rank),
      cmocka_unit_test(each_rank_serves_its_eighth),
      cmocka_unit_test(invariants_hold_on_ranks),
      cmocka_unit_test(sglang_shares_its_limits_over_ranks),
      cmocka_unit_test(counts_need_not_divide_heads_beside_data_attention),
      cmocka_unit_test(experts_cut_over_a_ranks_gpus),
      cmocka_unit_test(expert_ranks_are_checked_and_refused_where_not_priced),
      cmocka_unit_test(a_skewed_router_waits_for_its_busiest_rank),
      cmocka_unit_test(spread_experts_in_a_pipeline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
