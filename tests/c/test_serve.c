/* A served load (issue 29): the mixed step against today's decode step, the seeded load,
 * the logarithm against libm, and the invariants any honest run obeys (percentiles in
 * order, e2e = ttft + tpot x (output - 1), Little's law in a closed loop, the same seed the
 * same figures, preemption when the pool is small and none when the engine reserves).
 * Expected figures are worked from the formulas in the comments, not read from a run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static gs_plan serve_plan(uint64_t gpus) {
  gs_plan p;
  memset(&p, 0, sizeof p);
  p.gpus = gpus;
  p.split = GS_SLICES;
  p.words = 1;
  return p;
}

/* splitmix64 from seed 1234567: the first five outputs of Vigna's splitmix64.c, as its
 * users' test vectors give them (and a Python transcription of the three lines agrees). */
static void splitmix_matches_the_reference(void **state) {
  static const uint64_t expected[] = {6457827717110365317u, 3203168211198807973u, 9817491932198370423u,
                                      4593380528125082431u, 16408922859458223821u};
  uint64_t s = 1234567;
  size_t i;
  (void)state;
  for (i = 0; i < 5; i++) assert_true(gs_splitmix64(&s) == expected[i]);
}

/* gs_log within 2 ulp of libm's log (glibc's is correctly rounded to within 1 ulp) over
 * random (0, 1], the edges of the reduction, huge and subnormal values. */
static void log_agrees_with_libm(void **state) {
  double fixed[] = {1, 2, 0.5, 1.4142135623730951, 1.4142135623730949, 0.7071067811865476, 10, 1e-300, 5e-324,
                    1e300, 1.7976931348623157e308, 1 + 2.220446049250313e-16, 1 - 1.1102230246251565e-16};
  uint64_t s = 7;
  size_t i;
  (void)state;
  assert_true(gs_log(1) == 0);
  for (i = 0; i < sizeof fixed / sizeof fixed[0] + 100000; i++) {
    double x = i < sizeof fixed / sizeof fixed[0] ? fixed[i] : (double)((gs_splitmix64(&s) >> 11) + 1) / 9007199254740992.0;
    double want = log(x), got = gs_log(x), ulp = nextafter(fabs(want), INFINITY) - fabs(want);
    if (!(fabs(got - want) <= 2 * ulp)) fail_msg("log(%.17g): %.17g, libm %.17g", x, got, want);
  }
}

/* A decode at batch 1 whose chat holds chat_tokens tokens is today's step (gs_cost with a
 * cache for each chat, read every step): the same bytes read, and, read-bound with the
 * overlap share 0, the same time to the last bit. The compute differs by exactly the
 * stated terms: the tables less one output multiply, and attention's 4 x heads x head_dim
 * x layers x (T + 1) for a token that attends T cached tokens and itself. */
static void decode_at_batch_one_is_todays_step(void **state) {
  gs_model m = ts_builtin("70b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p = serve_plan(4);
  gs_cost_result c;
  gs_step_work w;
  gs_mixed_cost mc;
  gs_error err;
  uint64_t T = 4096;
  double attention = 4.0 * (double)(m.heads * m.head_dim) * (double)m.layers * (double)(T + 1);
  (void)state;
  ts_link("fast", &l);
  p.chat_tokens = T;
  p.cache_per_chat = 1;
  p.read_cache = 1;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  memset(&w, 0, sizeof w);
  gs_step_work_add(&m, &w, T, 1);
  assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 0, &w, &mc, &err), GS_OK);
  assert_true(mc.read_bytes == c.read_bytes);
  assert_true(c.compute < mc.read); /* read-bound, so the time is the reading's */
  assert_true(mc.seconds == c.time.total);
  ts_assert_close(mc.attention_ops, attention, 1e-15);
  ts_assert_close(mc.gemm_ops, (double)(2 * (m.active_params - m.table_params)) + (double)(2 * m.vocab * m.hidden), 1e-15);
  ts_assert_close(mc.compute * 4 * g.flops, mc.gemm_ops + mc.attention_ops, 1e-12);
  /* with an engine's efficiency (fixed costs a step and a layer, an all-reduce start-up, a
   * bandwidth share, a FLOP/s share) both pay the same through gs_split_time */
  p.efficiency.bandwidth_share = 0.8;
  p.efficiency.layer_us = 30;
  p.efficiency.step_us = 1500;
  p.efficiency.allreduce_us = 10;
  p.efficiency.flops_share = 0.5;
  assert_int_equal(gs_cost(&m, &g, &l, &p, &c, &err), GS_OK);
  assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 0, &w, &mc, &err), GS_OK);
  assert_true(mc.compute < mc.read);
  assert_true(mc.seconds == c.time.total);
}

/* The overlap form: busy = max + share x min, and share 0 is the larger alone. */
static void overlap_share_adds_its_part_of_the_shorter(void **state) {
  gs_model m = ts_builtin("8b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p = serve_plan(1);
  gs_step_work w;
  gs_mixed_cost a, b;
  gs_error err;
  (void)state;
  ts_link("fast", &l);
  memset(&w, 0, sizeof w);
  gs_step_work_add(&m, &w, 0, 2048); /* a prefill chunk: compute-bound */
  assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 0, &w, &a, &err), GS_OK);
  assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 0.5, &w, &b, &err), GS_OK);
  assert_true(a.compute > a.read);
  assert_true(a.busy == a.compute);
  assert_true(b.busy == b.compute + 0.5 * b.read);
  assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 1.5, &w, &b, &err), GS_ERR_RANGE);
}

/* A 4-bit (W4A4) step: the output table and attention run at the 16-bit peak kept apart
 * (g.flops16), every other operation at the FP4 peak in g.flops (primitives.c says why).
 * A prefill chunk of 2,048 tokens on one GPU, at 4 times the 16-bit peak: its compute is
 * (all - kept) / FP4 + kept / 16-bit, kept = 2 x vocab x hidden once the sequence plus
 * attention's operations; and without a peak apart, all / FP4 as before, which is less. */
static void four_bit_steps_keep_the_output_table_and_attention_at_16_bits(void **state) {
  gs_model m = ts_builtin("8b");
  gs_gpu g = ts_h100(), fp4;
  gs_link l;
  gs_plan p = serve_plan(1);
  gs_step_work w;
  gs_mixed_cost kept, whole;
  gs_error err;
  double output, want;
  (void)state;
  ts_link("fast", &l);
  memset(&w, 0, sizeof w);
  gs_step_work_add(&m, &w, 0, 2048);
  fp4 = g;
  fp4.flops = 4 * g.flops;
  assert_int_equal(gs_mixed_step(&m, &fp4, &l, &p, 0, &w, &whole, &err), GS_OK);
  fp4.flops16 = g.flops;
  assert_int_equal(gs_mixed_step(&m, &fp4, &l, &p, 0, &w, &kept, &err), GS_OK);
  output = 2.0 * (double)m.vocab * (double)m.hidden;
  want = (kept.gemm_ops + kept.attention_ops - output - kept.attention_ops) / (4 * g.flops) +
         (output + kept.attention_ops) / g.flops;
  ts_assert_close(kept.compute, want, 1e-12);
  ts_assert_close(whole.compute, (whole.gemm_ops + whole.attention_ops) / (4 * g.flops), 1e-15);
  assert_true(kept.gemm_ops == whole.gemm_ops && kept.attention_ops == whole.attention_ops);
  assert_true(kept.compute > whole.compute);
  /* the same through the spread experts' step, on a mixture of experts */
  {
    gs_model moe = ts_builtin("qwen3-30b-a3b");
    gs_step_work ranks[1];
    gs_mixed_cost a, b;
    gs_plan sp = serve_plan(1);
    sp.experts = GS_EXPERTS_SPREAD;
    memset(ranks, 0, sizeof ranks);
    gs_step_work_add(&moe, &ranks[0], 0, 2048);
    fp4.flops16 = 0;
    assert_int_equal(gs_mixed_step_spread(&moe, &fp4, &l, &sp, 0, ranks, 1, &a, &err), GS_OK);
    fp4.flops16 = g.flops;
    assert_int_equal(gs_mixed_step_spread(&moe, &fp4, &l, &sp, 0, ranks, 1, &b, &err), GS_OK);
    output = 2.0 * (double)moe.vocab * (double)moe.hidden;
    ts_assert_close(b.compute - a.compute, (output + a.attention_ops) * (1 / g.flops - 1 / (4 * g.flops)), 1e-9);
  }
}

/* A sliding window caps each token's reach: context 2, 5 new tokens, window 4 reach
 * 3, 4, 5, 6, 7 in full layers (25) and 3, 4, 4, 4, 4 in sliding ones (19); the cache read
 * is 2 tokens in both. */
static void window_caps_each_tokens_reach(void **state) {
  gs_model m;
  gs_step_work w;
  (void)state;
  memset(&m, 0, sizeof m);
  m.window = 4;
  memset(&w, 0, sizeof w);
  gs_step_work_add(&m, &w, 2, 5);
  assert_true(w.pairs_full == 25 && w.pairs_kept == 19 && w.cache_full == 2 && w.cache_kept == 2);
  gs_step_work_add(&m, &w, 9, 1); /* a decode at context 9: reach 10, capped 4; reads 9 and 4 */
  assert_true(w.pairs_full == 35 && w.pairs_kept == 23 && w.cache_full == 11 && w.cache_kept == 6);
  assert_true(w.seqs == 2 && w.tokens == 6);
}

static gs_serve_result serve(const char *model, uint64_t gpus, uint64_t replicas, const gs_scheduler *e, const gs_load *load) {
  gs_model m = ts_builtin(model);
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p = serve_plan(gpus);
  gs_serve_result r;
  gs_error err;
  gs_serve_space sp = ts_space((size_t)load->requests);
  int rc;
  ts_link("fast", &l);
  memset(&err, 0, sizeof err);
  rc = gs_serve_run(&m, &g, &l, &p, replicas, e, load, &sp, &r, &err);
  ts_space_free(&sp);
  if (rc != GS_OK) fail_msg("serve: %s: %s", err.field, err.what);
  return r;
}

static gs_scheduler engine(const char *name) {
  gs_scheduler e;
  gs_gpu g = ts_h100();
  gs_error err;
  if (gs_engine_defaults(name, &g, "h100-sxm", 1, &e, &err) != GS_OK) fail_msg("%s", err.what);
  /* the scheduler's mechanics, priced by the bare mixed step: the serving fit's figures off */
  e.flops_share = 0, e.seq_us = 0, e.overlap_share = 0, e.request_us = 0;
  return e;
}

static void in_order(const gs_dist *d) {
  assert_true(d->p50 > 0);
  assert_true(d->p50 <= d->p90 && d->p90 <= d->p99);
}

/* Every run: percentiles in order, and with fixed lengths the means obey
 * e2e = ttft + tpot x (output - 1), since each request's do. */
static void percentiles_in_order_and_e2e_adds_up(void **state) {
  const char *engines[] = {"vllm", "sglang", "trt-llm"};
  size_t i;
  (void)state;
  for (i = 0; i < 3; i++) {
    gs_scheduler e = engine(engines[i]);
    gs_load l = ts_load(GS_LOAD_OPEN, 300, 512, 64);
    gs_serve_result r;
    l.rate = 4;
    r = serve("8b", 1, 1, &e, &l);
    in_order(&r.ttft);
    in_order(&r.tpot);
    in_order(&r.itl);
    in_order(&r.e2e);
    ts_assert_close(r.e2e.mean, r.ttft.mean + r.tpot.mean * 63, 1e-9);
    ts_assert_close(r.itl.mean, r.tpot.mean, 1e-9); /* no request is preempted here: the pooled gaps are the per-request ones */
    assert_int_equal(r.preemptions, 0);
    assert_true(r.computed_tokens == 300 * (512 + 64 - 1));
    assert_true(r.output_tokens_per_s > 0 && r.total_tokens_per_s > r.output_tokens_per_s);
  }
}

/* Little's law in a closed loop: C requests are in the system from the start until the
 * last C drain, so throughput x mean e2e = C x (1 - at most C/N of drain). With C = 8 and
 * N = 800 the drain is at most 1%: 2% is allowed. */
static void closed_loop_obeys_littles_law(void **state) {
  gs_scheduler e = engine("vllm");
  gs_load l = ts_load(GS_LOAD_CLOSED, 800, 256, 32);
  gs_serve_result r;
  (void)state;
  l.concurrency = 8;
  r = serve("8b", 1, 1, &e, &l);
  ts_assert_close(r.requests_per_s * r.e2e.mean, 8, 0.02);
  ts_assert_close(r.mean_in_flight, 8, 0.02);
  /* two replicas of the same, 4 each: the same law for the deployment */
  r = serve("8b", 1, 2, &e, &l);
  ts_assert_close(r.requests_per_s * r.e2e.mean, 8, 0.02);
  assert_int_equal(r.gpus, 2);
}

/* The same seed gives the same figures; another seed other arrivals. */
static void same_seed_same_figures(void **state) {
  gs_scheduler e = engine("vllm");
  gs_load l = ts_load(GS_LOAD_OPEN, 200, 300, 40);
  gs_serve_result a, b, c;
  (void)state;
  l.rate = 20;
  a = serve("8b", 1, 1, &e, &l);
  b = serve("8b", 1, 1, &e, &l);
  assert_memory_equal(&a, &b, sizeof a);
  l.seed = 2;
  c = serve("8b", 1, 1, &e, &l);
  assert_true(c.ttft.mean != a.ttft.mean);
}

/* A pool that holds a few requests' caches: vLLM preempts and recomputes, every request
 * still ends; TensorRT-LLM reserves each whole cache and never preempts. */
static void small_pool_preempts_unless_reserved(void **state) {
  gs_scheduler e = engine("vllm"), t = engine("trt-llm");
  gs_load l = ts_load(GS_LOAD_BATCH, 64, 2000, 2000);
  gs_serve_result r;
  (void)state;
  e.memory_share = 0.3; /* 8B's 16 GB of weights and 4.6 GB of working memory in 24 GB: ~3.4 GB of cache, ~26k tokens */
  r = serve("8b", 1, 1, &e, &l);
  assert_true(r.preemptions > 0);
  /* each preempted request computes its cache again: more than each token once */
  assert_true(r.computed_tokens > 64 * (2000 + 2000 - 1));
  assert_true(r.peak_blocks <= r.pool_blocks);
  assert_true(r.e2e.p50 > 0 && r.steps > 0);
  t.memory_share = 0.06; /* a share of what the weights leave: about the same pool */
  r = serve("8b", 1, 1, &t, &l);
  assert_int_equal(r.preemptions, 0);
  assert_true(r.computed_tokens == 64 * (2000 + 2000 - 1)); /* every prompt token and output token but the last, once */
  assert_true(r.peak_blocks <= r.pool_blocks);
}

/* An open loop far above what the deployment completes is overloaded; far below, held. */
static void overload_is_named(void **state) {
  gs_scheduler e = engine("vllm");
  gs_load l = ts_load(GS_LOAD_OPEN, 300, 512, 64);
  gs_serve_result r;
  (void)state;
  l.rate = 1e6;
  r = serve("8b", 1, 1, &e, &l);
  assert_true(r.overloaded && r.sustainable_rate > 0 && r.sustainable_rate < 1e6);
  l.rate = r.sustainable_rate / 10;
  r = serve("8b", 1, 1, &e, &l);
  assert_false(r.overloaded);
}

/* One request alone, worked step by step with the priced step (tested above): a prompt of
 * 5,000 tokens under a budget of 2,048 is prefilled in chunks of 2,048, 2,048 and 904, each
 * reading the cache the earlier chunks wrote; the third step samples the first token, and
 * each of the 3 later tokens takes one decode step at context 5,000, 5,001 and 5,002. So
 * ttft is the three chunks' sum and e2e that plus the three decodes, and the pooled gaps
 * are exactly those decodes. */
static void one_request_is_its_chunks_then_its_decodes(void **state) {
  gs_model m = ts_builtin("8b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p = serve_plan(1);
  gs_scheduler e = engine("vllm");
  gs_load load = ts_load(GS_LOAD_BATCH, 1, 5000, 4);
  const uint64_t steps[][2] = {{0, 2048}, {2048, 2048}, {4096, 904}, {5000, 1}, {5001, 1}, {5002, 1}};
  double ttft = 0, e2e = 0, decode_max = 0;
  gs_serve_result r;
  gs_error err;
  size_t i;
  (void)state;
  ts_link("fast", &l);
  e.max_batched_tokens = 2048;
  for (i = 0; i < 6; i++) {
    gs_step_work w;
    gs_mixed_cost c;
    memset(&w, 0, sizeof w);
    gs_step_work_add(&m, &w, steps[i][0], steps[i][1]);
    assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 0, &w, &c, &err), GS_OK);
    e2e += c.seconds;
    if (i < 3) ttft += c.seconds;
    else if (c.seconds > decode_max) decode_max = c.seconds;
  }
  r = serve("8b", 1, 1, &e, &load);
  assert_int_equal(r.steps, 6);
  assert_true(r.computed_tokens == 5000 + 3);
  ts_assert_close(r.ttft.mean, ttft, 1e-12);
  ts_assert_close(r.e2e.mean, e2e, 1e-12);
  ts_assert_close(r.tpot.mean, (e2e - ttft) / 3, 1e-12);
  assert_true(r.itl.p99 <= decode_max * (1 + 1e-12));
  /* SGLang's steps are the same for one request alone: nothing to keep apart */
  e = engine("sglang");
  e.max_batched_tokens = 2048;
  r = serve("8b", 1, 1, &e, &load);
  assert_int_equal(r.steps, 6);
  assert_true(r.max_seqs == r.pool_tokens / 2); /* SGLang's max_total_num_tokens // 2 */
  ts_assert_close(r.e2e.mean, e2e, 1e-12);
}

/* A front end of request_us (the time before the scheduler takes a request): one request
 * alone pays it once, before its first token, so its first token and its whole time are the
 * steps' sums above plus it, its time per token unmoved, and the tokens a second counted from
 * its sending. A closed loop still obeys Little's law as its clients count (each request in
 * flight from its sending), and completes fewer requests a second: each spends the front
 * end outside the engine. */
static void a_front_end_delays_each_request_once(void **state) {
  gs_scheduler e = engine("vllm");
  gs_load load = ts_load(GS_LOAD_BATCH, 1, 5000, 4), closed = ts_load(GS_LOAD_CLOSED, 800, 256, 32);
  gs_serve_result bare, front;
  (void)state;
  e.max_batched_tokens = 2048;
  bare = serve("8b", 1, 1, &e, &load);
  e.request_us = 30000;
  front = serve("8b", 1, 1, &e, &load);
  assert_int_equal(front.steps, bare.steps);
  ts_assert_close(front.ttft.mean, bare.ttft.mean + 0.03, 1e-12);
  ts_assert_close(front.e2e.mean, bare.e2e.mean + 0.03, 1e-12);
  ts_assert_close(front.tpot.mean, bare.tpot.mean, 1e-12);
  ts_assert_close(front.output_tokens_per_s, 4 / (bare.e2e.mean + 0.03), 1e-12);
  e = engine("vllm");
  closed.concurrency = 8;
  bare = serve("8b", 1, 1, &e, &closed);
  e.request_us = 20000;
  front = serve("8b", 1, 1, &e, &closed);
  ts_assert_close(front.requests_per_s * front.e2e.mean, 8, 0.02);
  ts_assert_close(front.mean_in_flight, 8, 0.02);
  assert_true(front.requests_per_s < bare.requests_per_s);
  assert_true(front.ttft.p50 > 0.02); /* every first token waits out the front end */
}

/* Arrivals while others decode: vLLM puts each new prompt beside the running decodes in one
 * step; SGLang's default runs a prefill step of its own while the decoders wait. The same
 * tokens are computed either way, in more steps under SGLang, and its decoders' worst gaps
 * are those prefill steps. (With mixed set, SGLang's steps would be vLLM's: this fails.) */
static void sglang_keeps_prefill_and_decode_apart(void **state) {
  gs_scheduler v = engine("vllm"), sg = engine("sglang");
  gs_load load = ts_load(GS_LOAD_OPEN, 40, 600, 30);
  gs_serve_result a, b;
  (void)state;
  load.rate = 50; /* arrivals while others decode */
  a = serve("8b", 1, 1, &v, &load);
  b = serve("8b", 1, 1, &sg, &load);
  /* SGLang runs a separate step for each arrival's prefill, so more steps for the same tokens */
  assert_true(a.computed_tokens == b.computed_tokens);
  assert_true(b.steps > a.steps);
  /* and its decoders wait out those steps: the worst gap between tokens is a prefill step */
  assert_true(b.itl.p99 > b.itl.p50);
}

/* The lengths reader: pairs a line, blanks and comments skipped, CRLF taken; a bad line is
 * refused by its number; and a load replays the pairs in order, so two requests of
 * (100, 10) and (3000, 50) compute 109 + 3049 tokens. */
static void lengths_are_read_and_replayed(void **state) {
  const char *good = "# prompt,output\n100, 10\n\n  3000 ,50\r\n";
  uint64_t prompts[4], outputs[4];
  size_t count;
  gs_error err;
  gs_scheduler e = engine("vllm");
  gs_load load = ts_load(GS_LOAD_BATCH, 2, 0, 0);
  gs_serve_result r;
  (void)state;
  assert_int_equal(gs_lengths_parse(good, strlen(good), prompts, outputs, 4, &count, &err), GS_OK);
  assert_true(count == 2 && prompts[0] == 100 && outputs[0] == 10 && prompts[1] == 3000 && outputs[1] == 50);
  assert_int_equal(gs_lengths_parse("1,2\nx\n", 6, prompts, outputs, 4, &count, &err), GS_ERR_RANGE);
  assert_non_null(strstr(err.what, "line 2"));
  assert_int_equal(gs_lengths_parse("0,2\n", 4, prompts, outputs, 4, &count, &err), GS_ERR_RANGE);
  assert_int_equal(gs_lengths_parse("1,2,3\n", 6, prompts, outputs, 4, &count, &err), GS_ERR_RANGE);
  assert_int_equal(gs_lengths_parse("16777216,1\n", 11, prompts, outputs, 4, &count, &err), GS_ERR_RANGE);
  assert_int_equal(gs_lengths_parse("# none\n", 7, prompts, outputs, 4, &count, &err), GS_ERR_MISSING);
  assert_int_equal(gs_lengths_parse("1,1\n2,2\n", 8, prompts, outputs, 1, &count, &err), GS_ERR_TOO_LONG);
  load.prompts = prompts;
  load.outputs = outputs;
  load.pairs = 2;
  assert_int_equal(gs_lengths_parse(good, strlen(good), prompts, outputs, 4, &count, &err), GS_OK);
  r = serve("8b", 1, 1, &e, &load);
  assert_true(r.computed_tokens == 109 + 3049);
  in_order(&r.e2e);
}

/* vLLM's limits depend on the GPU: an 80 GB H100 gets 1024 and 8192, an A100 80GB 256 and
 * 2048 (its name excepted), a 48 GB L40S 256 and 2048; SGLang's chunk 8192 under 160 GiB,
 * 16384 above; an unknown engine is refused. */
static void engine_defaults_follow_the_gpu(void **state) {
  gs_gpu g = ts_h100();
  gs_scheduler e;
  gs_error err;
  (void)state;
  assert_int_equal(gs_engine_defaults("vllm", &g, "h100-sxm", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 1024 && e.max_batched_tokens == 8192 && e.block_tokens == 16 && e.mixed);
  assert_int_equal(gs_engine_defaults("vllm", &g, "a100-80gb-sxm", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 256 && e.max_batched_tokens == 2048);
  g.gib = 48;
  assert_int_equal(gs_engine_defaults("vllm", &g, "l40s", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 256);
  g.gib = 180;
  assert_int_equal(gs_engine_defaults("sglang", &g, "b200", 1, &e, &err), GS_OK);
  assert_true(e.max_batched_tokens == 16384 && !e.mixed && e.max_seqs == 0); /* 0: from the pool */
  g.gib = 80;
  assert_int_equal(gs_engine_defaults("sglang", &g, "h100-sxm", 2, &e, &err), GS_OK);
  /* (81920 - (9.5 + 2/2) x 1024) / 81920 = 0.86875, to 3 places 0.869 */
  assert_true(e.memory_share == 0.869);
  /* a reserve past the memory: 9.5 + 256/2 GiB of 80 leaves SGLang's floor, 0.05 (a negative
   * share once reached an unsigned conversion: fuzz_serving, under UBSan) */
  assert_int_equal(gs_engine_defaults("sglang", &g, "h100-sxm", 256, &e, &err), GS_OK);
  assert_true(e.memory_share == 0.05);
  assert_int_equal(gs_engine_defaults("tgi", &g, "h100-sxm", 1, &e, &err), GS_ERR_UNKNOWN);
  /* LMDeploy's TurboMind (lmdeploy 0.16.0: utils.py get_max_batch_size, messages.py
   * TurbomindEngineConfig, turbomind.cc's max_forward_token_num): 384 on an A100, 1024 on an
   * H100 or H200, 128 elsewhere; 8192 prompt tokens beside the decodes; blocks of 64 tokens;
   * 0.8 of the memory the weights leave; CUDA only. */
  g.compute_capability = 90;
  assert_int_equal(gs_engine_defaults("lmdeploy", &g, "a100-80gb-sxm", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 384 && e.max_batched_tokens == 8192 + 384);
  assert_true(e.block_tokens == 64 && e.memory_share == 0.8 && e.share_of_free && e.mixed && e.chunked && !e.reserve_full);
  assert_int_equal(gs_engine_defaults("lmdeploy", &g, "gh200", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 1024);
  assert_int_equal(gs_engine_defaults("lmdeploy", &g, "h100-nvl", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 1024);
  assert_int_equal(gs_engine_defaults("lmdeploy", &g, "b200", 1, &e, &err), GS_OK);
  assert_true(e.max_seqs == 128 && e.max_batched_tokens == 8192 + 128);
  { /* a cap on sequences given moves the step's budget with it, unless a budget is given too */
    gs_scheduler lim;
    memset(&lim, 0, sizeof lim);
    lim.max_seqs = 256, lim.max_batched_tokens = 4000;
    gs_engine_given(&e, &lim, GS_GIVEN_MAX_SEQS);
    assert_true(e.max_seqs == 256 && e.max_batched_tokens == 8192 + 256);
    gs_engine_given(&e, &lim, GS_GIVEN_MAX_SEQS | GS_GIVEN_BATCHED);
    assert_true(e.max_batched_tokens == 4000);
  }
  { /* TurboMind runs the model types lmdeploy's supported_models.py lists, no other; the
     * other engines every type */
    gs_model m;
    memset(&m, 0, sizeof m);
    strcpy(m.type, "qwen3_moe");
    assert_int_equal(gs_engine_runs_model(&e, &m, &err), GS_OK);
    strcpy(m.type, "deepseek_v3");
    assert_int_equal(gs_engine_runs_model(&e, &m, &err), GS_ERR_UNSUPPORTED);
    assert_string_equal(err.field, "engine");
    e.kind = GS_ENGINE_VLLM;
    assert_int_equal(gs_engine_runs_model(&e, &m, &err), GS_OK);
    e.kind = GS_ENGINE_LMDEPLOY;
  }
  g.compute_capability = 0; /* an AMD GPU in the catalogue */
  assert_int_equal(gs_engine_defaults("lmdeploy", &g, "mi300x", 1, &e, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "engine");
}

/* vLLM 0.6 without chunked prefill and with multi-step scheduling (scheduler.c): a closed
 * loop of 2 with three requests of 1,000-token prompts and outputs of 2, 6 and 2 tokens. Both
 * first prompts are prefilled in one step, then one decode step ends the first request and
 * releases the third. With one scheduler step the third is prefilled next, alone (the
 * second pauses); with 4, the window's 3 remaining steps run first while the third waits,
 * the second decoding at contexts 1,001 to 1,003 and the first, done, still computed beside
 * it at the same contexts (its tokens dropped). So the third's first token comes later by
 * exactly those three steps of two decodes, the mean first token by a third of them, and 3
 * tokens more are computed in as many steps (the window after the third's prefill ends the
 * run at its first step, both requests done). The budget not given is
 * max(max_model_len, 2048): 8B's file gives 131072 (llama31_8b_config.json). */
static void multi_step_keeps_arrivals_waiting_out_the_window(void **state) {
  gs_model m = ts_builtin("8b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p = serve_plan(1);
  gs_scheduler e = engine("vllm"), given;
  gs_load load = ts_load(GS_LOAD_CLOSED, 3, 1000, 2);
  const uint64_t prompts[] = {1000, 1000, 1000}, outputs[] = {2, 6, 2};
  gs_serve_result one, four;
  gs_error err;
  double window = 0;
  uint64_t at;
  (void)state;
  ts_link("fast", &l);
  load.concurrency = 2;
  load.prompts = prompts, load.outputs = outputs, load.pairs = 3;
  memset(&given, 0, sizeof given);
  gs_engine_given(&e, &given, GS_GIVEN_UNCHUNKED);
  assert_true(e.mixed == 0 && e.chunked == 0 && e.max_batched_tokens == 0);
  one = serve("8b", 1, 1, &e, &load);
  assert_int_equal(one.max_batched_tokens, 131072);
  given.scheduler_steps = 4;
  gs_engine_given(&e, &given, GS_GIVEN_UNCHUNKED | GS_GIVEN_STEPS);
  four = serve("8b", 1, 1, &e, &load);
  for (at = 1001; at <= 1003; at++) {
    gs_step_work w;
    gs_mixed_cost c;
    memset(&w, 0, sizeof w);
    gs_step_work_add(&m, &w, at, 1);
    gs_step_work_add(&m, &w, at, 1);
    assert_int_equal(gs_mixed_step(&m, &g, &l, &p, 0, &w, &c, &err), GS_OK);
    window += c.seconds;
  }
  assert_true(four.computed_tokens == one.computed_tokens + 3);
  assert_int_equal(four.steps, one.steps);
  ts_assert_close(four.ttft.mean - one.ttft.mean, window / 3, 1e-9);
  /* several scheduler steps beside chunked prefill are not simulated: refused */
  e = engine("vllm");
  gs_engine_given(&e, &given, GS_GIVEN_STEPS);
  {
    gs_plan q = serve_plan(1);
    gs_serve_space sp = ts_space(3);
    gs_serve_result r;
    assert_int_equal(gs_serve_run(&m, &g, &l, &q, 1, &e, &load, &sp, &r, &err), GS_ERR_UNSUPPORTED);
    assert_string_equal(err.field, "scheduler_steps");
    ts_space_free(&sp);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(splitmix_matches_the_reference),
      cmocka_unit_test(log_agrees_with_libm),
      cmocka_unit_test(decode_at_batch_one_is_todays_step),
      cmocka_unit_test(overlap_share_adds_its_part_of_the_shorter),
      cmocka_unit_test(four_bit_steps_keep_the_output_table_and_attention_at_16_bits),
      cmocka_unit_test(window_caps_each_tokens_reach),
      cmocka_unit_test(percentiles_in_order_and_e2e_adds_up),
      cmocka_unit_test(closed_loop_obeys_littles_law),
      cmocka_unit_test(same_seed_same_figures),
      cmocka_unit_test(small_pool_preempts_unless_reserved),
      cmocka_unit_test(overload_is_named),
      cmocka_unit_test(one_request_is_its_chunks_then_its_decodes),
      cmocka_unit_test(a_front_end_delays_each_request_once),
      cmocka_unit_test(sglang_keeps_prefill_and_decode_apart),
      cmocka_unit_test(lengths_are_read_and_replayed),
      cmocka_unit_test(engine_defaults_follow_the_gpu),
      cmocka_unit_test(multi_step_keeps_arrivals_waiting_out_the_window),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
