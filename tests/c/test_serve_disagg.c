/* Prefill and decode on separate copies (issue 29 item 4; csrc/serve/disagg.c), of slices and
 * of spread experts beside data-parallel attention. Expected
 * figures are worked from the rule there and compared with the same requests served by
 * one copy, whose steps are the same work: a prefill copy's step computes the prompt as
 * the one copy's first step does, and a decode copy's steps decode one sequence at the
 * same contexts. The hand-off is worked by hand: 70B keeps 2 x 80 layers x 8 heads x 128
 * x 2 bytes = 327,680 bytes a token, sent over each of the copy's GPUs' links at once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"
#include "internal.h"

static gs_plan slices(uint64_t gpus) { return ts_plan(gpus, GS_SLICES, 1); }

/* A model on copies of H100s: prefill and decode copies (d), or one copy (d NULL). */
static int run_model(const char *model, const gs_plan *p, const gs_disagg *d, const gs_scheduler *e, const gs_load *load,
                     gs_serve_result *r, gs_error *err) {
  gs_model m = ts_builtin(model);
  gs_gpu g = ts_h100();
  gs_link l;
  gs_serve_space sp = ts_space((size_t)load->requests);
  int rc;
  ts_link("fast", &l);
  memset(err, 0, sizeof *err);
  rc = d ? gs_serve_run_disagg(&m, &g, &l, p, d, e, load, &sp, r, err) : gs_serve_run(&m, &g, &l, p, 1, e, load, &sp, r, err);
  ts_space_free(&sp);
  return rc;
}

static gs_serve_result served_model(const char *model, const gs_plan *p, const gs_disagg *d, const gs_scheduler *e,
                                    const gs_load *load) {
  gs_serve_result r;
  gs_error err;
  if (run_model(model, p, d, e, load, &r, &err) != GS_OK) fail_msg("serve: %s: %s", err.field, err.what);
  return r;
}

/* 70B's (the slices' tests) */
static int run(const gs_plan *p, const gs_disagg *d, const gs_scheduler *e, const gs_load *load, gs_serve_result *r,
               gs_error *err) {
  return run_model("70b", p, d, e, load, r, err);
}
static gs_serve_result served(const gs_plan *p, const gs_disagg *d, const gs_scheduler *e, const gs_load *load) {
  return served_model("70b", p, d, e, load);
}

/* The hand-off of a 1,000-token prompt from a copy of n GPUs: the link's start-up plus
 * 1,000 x 327,680 bytes over n links. */
static double handoff(uint64_t n) {
  gs_link l;
  ts_link("fast", &l);
  return l.base_us * 1e-6 + 1000.0 * 327680.0 / ((double)n * l.bandwidth);
}

/* One request of 1,000 + 32 tokens: its first token comes a hand-off later than on one
 * copy, and its 31 decodes take as long, so the whole request is a hand-off longer. */
static void one_request_is_a_handoff_later(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = slices(2);
  gs_disagg d = {1, 1, 0, NULL};
  gs_load l = ts_load(GS_LOAD_BATCH, 1, 1000, 32);
  gs_serve_result one, split;
  (void)state;
  one = served(&p, NULL, &e, &l);
  split = served(&p, &d, &e, &l);
  ts_assert_close(split.ttft.mean, one.ttft.mean + handoff(2), 1e-12);
  ts_assert_close(split.tpot.mean, one.tpot.mean, 1e-12);
  ts_assert_close(split.e2e.mean, one.e2e.mean + handoff(2), 1e-12);
  assert_int_equal(split.gpus, 4);
  assert_int_equal(split.prefill_copies, 1);
  assert_int_equal(split.decode_copies, 1);
}

/* A request of one output token is done when its cache lands: nothing to decode. */
static void one_token_is_done_on_landing(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = slices(4);
  gs_disagg d = {1, 1, 0, NULL};
  gs_load l = ts_load(GS_LOAD_BATCH, 1, 1000, 1);
  gs_serve_result one, split;
  (void)state;
  one = served(&p, NULL, &e, &l);
  split = served(&p, &d, &e, &l);
  ts_assert_close(split.e2e.mean, one.e2e.mean + handoff(4), 1e-12);
  ts_assert_close(split.ttft.mean, split.e2e.mean, 1e-12);
}

/* A closed loop of one request in flight on 1 prefill and 2 decode copies: each request
 * arrives when the one before ends, so the requests a second are 1 / e2e and the span is the
 * requests' e2e end to end, and with fixed lengths each e2e is its first token and 31 gaps. */
static void closed_loop_of_one_runs_end_to_end(const char *model, const gs_plan *p, uint64_t requests) {
  gs_scheduler e = ts_bare_vllm();
  gs_disagg d = {1, 2, 0, NULL};
  gs_load l = ts_load(GS_LOAD_CLOSED, requests, 1000, 32);
  gs_serve_result r;
  l.concurrency = 1;
  r = served_model(model, p, &d, &e, &l);
  ts_assert_close(r.duration, (double)requests * r.e2e.mean, 1e-9);
  ts_assert_close(r.requests_per_s * r.e2e.mean, 1, 1e-9);
  ts_assert_close(r.e2e.mean, r.ttft.mean + 31 * r.tpot.mean, 1e-9);
}

static void a_closed_loop_of_one_runs_end_to_end(void **state) {
  gs_plan p = slices(2);
  (void)state;
  closed_loop_of_one_runs_end_to_end("70b", &p, 4);
}

/* Two prefill copies take two requests sent at once side by side: each prefills one
 * request alone, so both first tokens come as one request's alone does. */
static void two_prefill_copies_prefill_side_by_side(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = slices(2);
  gs_disagg one_p = {1, 2, 0, NULL}, two_p = {2, 2, 0, NULL};
  gs_load single = ts_load(GS_LOAD_BATCH, 1, 1000, 32), pair = ts_load(GS_LOAD_BATCH, 2, 1000, 32);
  gs_serve_result alone, both;
  (void)state;
  alone = served(&p, &one_p, &e, &single);
  both = served(&p, &two_p, &e, &pair);
  ts_assert_close(both.ttft.p99, alone.ttft.mean, 1e-12);
  ts_assert_close(both.e2e.mean, alone.e2e.mean, 1e-12);
}

/* Prefill copies of their own size: a request's prompt is computed as on one copy of the
 * prefill count, its cache goes over the smaller copy's links (each of its GPUs sends or
 * takes its share), and its decodes run as on one copy of the decode count. */
static void prefill_copies_of_their_own_size(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan two = slices(2), four = slices(4);
  gs_disagg smaller = {1, 1, 2, NULL}, larger = {1, 1, 4, NULL};
  gs_load l = ts_load(GS_LOAD_BATCH, 1, 1000, 32);
  gs_serve_result on_two, on_four, split;
  (void)state;
  on_two = served(&two, NULL, &e, &l);
  on_four = served(&four, NULL, &e, &l);
  split = served(&four, &smaller, &e, &l); /* prefill on 2, decode on 4 */
  ts_assert_close(split.ttft.mean, on_two.ttft.mean + handoff(2), 1e-12);
  ts_assert_close(split.tpot.mean, on_four.tpot.mean, 1e-12);
  assert_int_equal(split.gpus, 6);
  assert_int_equal(split.prefill_gpus, 2);
  split = served(&two, &larger, &e, &l); /* prefill on 4, decode on 2 */
  ts_assert_close(split.ttft.mean, on_four.ttft.mean + handoff(2), 1e-12);
  ts_assert_close(split.tpot.mean, on_two.tpot.mean, 1e-12);
  assert_int_equal(split.gpus, 6);
}

/* Only one engine a copy: groups and copies past 256 are refused. */
static void other_layouts_are_refused(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan groups = slices(2);
  gs_disagg d = {1, 1, 0, NULL}, many = {200, 100, 0, NULL};
  gs_load l = ts_load(GS_LOAD_BATCH, 100, 256, 8);
  gs_serve_result r;
  gs_error err;
  (void)state;
  groups.split = GS_GROUPS;
  assert_int_equal(run(&groups, &d, &e, &l, &r, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "disaggregate");
  groups.split = GS_SLICES;
  assert_int_equal(run(&groups, &many, &e, &l, &r, &err), GS_ERR_UNSUPPORTED);
}

/* Copies of spread experts beside data-parallel attention (DeepSeek's deployments, SGLang's
 * PD disaggregation with --enable-dp-attention). Qwen3-30B-A3B: 48 layers, 4 key/value heads
 * of 128, so 2 x 48 x 4 x 128 x 2 bytes = 98,304 bytes of cache a token. */
static gs_plan data_parallel(uint64_t gpus) {
  gs_plan p = slices(gpus);
  p.experts = GS_EXPERTS_SPREAD;
  p.attention = GS_ATTENTION_DATA;
  return p;
}

/* A request's cache is whole on its attention rank's one GPU, and goes over that GPU's one
 * link: 1,000 x 98,304 bytes over one link, where a sliced copy of 4 sends a quarter over
 * each of its four. One request on copies of 4 ranks: its first token and its whole request
 * come that hand-off later than on one copy, its decodes as long. */
static void a_rank_sends_its_whole_cache_over_one_link(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = data_parallel(4);
  gs_disagg d = {1, 1, 0, NULL};
  gs_load l = ts_load(GS_LOAD_BATCH, 1, 1000, 32);
  gs_serve_result one, split;
  gs_link link;
  double handoff;
  (void)state;
  ts_link("fast", &link);
  handoff = link.base_us * 1e-6 + 1000.0 * 98304.0 / link.bandwidth;
  one = served_model("qwen3-30b-a3b", &p, NULL, &e, &l);
  split = served_model("qwen3-30b-a3b", &p, &d, &e, &l);
  ts_assert_close(split.ttft.mean, one.ttft.mean + handoff, 1e-12);
  ts_assert_close(split.tpot.mean, one.tpot.mean, 1e-12);
  ts_assert_close(split.e2e.mean, one.e2e.mean + handoff, 1e-12);
  assert_int_equal(split.gpus, 8);
  assert_int_equal(split.ranks, 4);
}

/* Request i goes to copy i mod copies, and of that copy's requests, in turn, to its ranks
 * (SGLang's round-robin router, then its data-parallel controller's round-robin): with 2
 * prefill and 3 decode copies of 2 ranks, lanes 0-3 prefill and 4-9 decode. */
static void requests_go_to_copies_then_ranks_in_turn(void **state) {
  static const size_t prefill[6] = {0, 2, 1, 3, 0, 2}, decode[6] = {4, 6, 8, 5, 7, 9};
  size_t i;
  (void)state;
  for (i = 0; i < 6; i++) {
    assert_int_equal(gs_disagg_lane(i, 2, 3, 2, 2, 0), prefill[i]);
    assert_int_equal(gs_disagg_lane(i, 2, 3, 2, 2, 1), decode[i]);
  }
}

/* The same on copies of 2 attention ranks. */
static void a_data_parallel_closed_loop_of_one_runs_end_to_end(void **state) {
  gs_plan p = data_parallel(2);
  (void)state;
  closed_loop_of_one_runs_end_to_end("qwen3-30b-a3b", &p, 6);
}

/* The copies times their ranks are at most 256: 32 copies of 8 ranks run, 33 are refused. */
static void copies_times_ranks_past_256_are_refused(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = data_parallel(8);
  gs_disagg fits = {16, 16, 0, NULL}, past = {17, 16, 0, NULL};
  gs_load l = ts_load(GS_LOAD_BATCH, 64, 256, 8);
  gs_serve_result r;
  gs_error err;
  (void)state;
  assert_int_equal(run_model("qwen3-30b-a3b", &p, &fits, &e, &l, &r, &err), GS_OK);
  assert_int_equal(r.gpus, 256);
  assert_int_equal(run_model("qwen3-30b-a3b", &p, &past, &e, &l, &r, &err), GS_ERR_UNSUPPORTED);
  assert_string_equal(err.field, "disaggregate");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_request_is_a_handoff_later),
      cmocka_unit_test(one_token_is_done_on_landing),
      cmocka_unit_test(a_closed_loop_of_one_runs_end_to_end),
      cmocka_unit_test(two_prefill_copies_prefill_side_by_side),
      cmocka_unit_test(other_layouts_are_refused),
      cmocka_unit_test(a_rank_sends_its_whole_cache_over_one_link),
      cmocka_unit_test(prefill_copies_of_their_own_size),
      cmocka_unit_test(requests_go_to_copies_then_ranks_in_turn),
      cmocka_unit_test(a_data_parallel_closed_loop_of_one_runs_end_to_end),
      cmocka_unit_test(copies_times_ranks_past_256_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
