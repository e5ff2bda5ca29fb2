/* Prefill and decode on separate copies (issue 29 item 4; csrc/serve/disagg.c). Expected
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

/* 70B on copies of `gpus` H100s: prefill and decode copies (d), or one copy (d NULL). */
static int run(const gs_plan *p, const gs_disagg *d, const gs_scheduler *e, const gs_load *load, gs_serve_result *r,
               gs_error *err) {
  gs_model m = ts_builtin("70b");
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

static gs_serve_result served(const gs_plan *p, const gs_disagg *d, const gs_scheduler *e, const gs_load *load) {
  gs_serve_result r;
  gs_error err;
  if (run(p, d, e, load, &r, &err) != GS_OK) fail_msg("serve: %s: %s", err.field, err.what);
  return r;
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
  gs_disagg d = {1, 1};
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
  gs_disagg d = {1, 1};
  gs_load l = ts_load(GS_LOAD_BATCH, 1, 1000, 1);
  gs_serve_result one, split;
  (void)state;
  one = served(&p, NULL, &e, &l);
  split = served(&p, &d, &e, &l);
  ts_assert_close(split.e2e.mean, one.e2e.mean + handoff(4), 1e-12);
  ts_assert_close(split.ttft.mean, split.e2e.mean, 1e-12);
}

/* A closed loop of one request in flight: each request arrives when the one before ends,
 * so the requests a second are 1 / e2e and the span is the requests' e2e end to end. */
static void a_closed_loop_of_one_runs_end_to_end(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = slices(2);
  gs_disagg d = {1, 2};
  gs_load l = ts_load(GS_LOAD_CLOSED, 4, 1000, 32);
  gs_serve_result r;
  (void)state;
  l.concurrency = 1;
  r = served(&p, &d, &e, &l);
  ts_assert_close(r.duration, 4 * r.e2e.mean, 1e-9);
  ts_assert_close(r.requests_per_s * r.e2e.mean, 1, 1e-9);
  ts_assert_close(r.e2e.mean, r.ttft.mean + 31 * r.tpot.mean, 1e-9);
}

/* Two prefill copies take two requests sent at once side by side: each prefills one
 * request alone, so both first tokens come as one request's alone does. */
static void two_prefill_copies_prefill_side_by_side(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan p = slices(2);
  gs_disagg one_p = {1, 2}, two_p = {2, 2};
  gs_load single = ts_load(GS_LOAD_BATCH, 1, 1000, 32), pair = ts_load(GS_LOAD_BATCH, 2, 1000, 32);
  gs_serve_result alone, both;
  (void)state;
  alone = served(&p, &one_p, &e, &single);
  both = served(&p, &two_p, &e, &pair);
  ts_assert_close(both.ttft.p99, alone.ttft.mean, 1e-12);
  ts_assert_close(both.e2e.mean, alone.e2e.mean, 1e-12);
}

/* Only one engine a copy: attention data parallel, groups and copies past 64 are refused. */
static void other_layouts_are_refused(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_plan groups = slices(2);
  gs_disagg d = {1, 1}, many = {40, 40};
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_request_is_a_handoff_later),
      cmocka_unit_test(one_token_is_done_on_landing),
      cmocka_unit_test(a_closed_loop_of_one_runs_end_to_end),
      cmocka_unit_test(two_prefill_copies_prefill_side_by_side),
      cmocka_unit_test(other_layouts_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
