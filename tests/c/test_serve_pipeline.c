/* A served pipeline with micro-batches in flight (issue 29 item 4; csrc/serve/pipeline.c).
 * Expected figures are worked by hand from the rule there: a micro-batch's step, priced
 * whole, holds each of the S stages for 1/S of it, a stage works one micro-batch at a
 * time, first come first served. Not read from a run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"
#include "internal.h"

/* 70B on `gpus` H100s by groups, `flight` micro-batches in flight (0: serve's default). */
static int run(uint64_t gpus, uint64_t flight, const gs_scheduler *e, const gs_load *load, gs_serve_result *r, gs_error *err) {
  gs_model m = ts_builtin("70b");
  gs_gpu g = ts_h100();
  gs_link l;
  gs_plan p;
  gs_serve_space sp = ts_space((size_t)load->requests);
  int rc;
  ts_link("fast", &l);
  memset(&p, 0, sizeof p);
  p.gpus = gpus;
  p.split = GS_GROUPS;
  p.words = 1;
  p.in_flight = flight;
  memset(err, 0, sizeof *err);
  rc = gs_serve_run(&m, &g, &l, &p, 1, e, load, &sp, r, err);
  ts_space_free(&sp);
  return rc;
}

static gs_serve_result served(uint64_t gpus, uint64_t flight, const gs_scheduler *e, const gs_load *load) {
  gs_serve_result r;
  gs_error err;
  if (run(gpus, flight, e, load, &r, &err) != GS_OK) fail_msg("serve: %s: %s", err.field, err.what);
  return r;
}

/* Two requests of one output token each (done at their first token), sent at once, on two
 * stages with two micro-batches in flight: each instance holds one request, so each step
 * is the same work, a whole step T, a stage T/2. The first leaves stage 2 at T; the
 * second enters stage 1 when the first leaves it, at T/2, and leaves stage 2 at 3T/2.
 * One request alone, one micro-batch, takes T. So the mean first token is 5T/4 and the
 * last completion 3T/2. */
static void two_micro_batches_overlap_by_a_stage(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_load one = ts_load(GS_LOAD_BATCH, 1, 512, 1), two = ts_load(GS_LOAD_BATCH, 2, 512, 1);
  gs_serve_result alone, pair;
  double t;
  (void)state;
  alone = served(2, 1, &e, &one);
  t = alone.ttft.mean;
  assert_true(t > 0);
  assert_int_equal(alone.stages, 2);
  assert_int_equal(alone.in_flight, 1);
  pair = served(2, 2, &e, &two);
  assert_int_equal(pair.in_flight, 2);
  ts_assert_close(pair.ttft.mean, 1.25 * t, 1e-12);
  ts_assert_close(pair.duration, 1.5 * t, 1e-12);
  /* each instance's pool is half the one instance's */
  assert_true(pair.pool_blocks == alone.pool_blocks / 2);
}

/* The host's time is one host's: with 100 ms of it for each sequence, longer than a
 * stage's T/2, two micro-batches of one request each are scheduled one after the other,
 * at h and 2h, so the second is through at 2h + T where one alone takes h + T. */
static void one_host_schedules_the_micro_batches_in_turn(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_load one = ts_load(GS_LOAD_BATCH, 1, 512, 1), two = ts_load(GS_LOAD_BATCH, 2, 512, 1);
  gs_serve_result alone, pair;
  (void)state;
  e.seq_us = 1e5;
  alone = served(2, 1, &e, &one);
  assert_true(alone.ttft.mean > 0.1 && (alone.ttft.mean - 0.1) / 2 < 0.1); /* h + T, a stage T/2 under h */
  pair = served(2, 2, &e, &two);
  ts_assert_close(pair.duration, alone.ttft.mean + 0.1, 1e-12);
}

/* The default: one micro-batch a stage. */
static void serve_keeps_one_micro_batch_a_stage(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_load l = ts_load(GS_LOAD_CLOSED, 200, 256, 32);
  gs_serve_result r;
  (void)state;
  l.concurrency = 16;
  r = served(4, 0, &e, &l);
  assert_int_equal(r.stages, 4);
  assert_int_equal(r.in_flight, 4);
}

/* A pipeline whose instances are each capped at 16 sequences: one micro-batch in flight
 * holds 16 requests at a time; four hold 64, each step of 16 reading the same weights as
 * one of 16 alone. So four complete more, but no more than four times as much (every stage
 * always busy). The same tokens are computed either way. */
static void micro_batches_raise_throughput_up_to_the_stages(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_load l = ts_load(GS_LOAD_BATCH, 64, 256, 64);
  gs_serve_result one, four;
  (void)state;
  e.max_seqs = 16;
  one = served(4, 1, &e, &l);
  four = served(4, 4, &e, &l);
  assert_true(four.output_tokens_per_s > 2 * one.output_tokens_per_s);
  assert_true(four.output_tokens_per_s <= 4 * one.output_tokens_per_s);
  assert_int_equal(four.preemptions, 0);
  assert_true(four.computed_tokens == one.computed_tokens);
}

/* Little's law holds for a closed loop through a pipeline as for any (test_serve.c's
 * bound: C = 8 of N = 800, the drain at most 1%). */
static void closed_loop_through_a_pipeline_obeys_littles_law(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_load l = ts_load(GS_LOAD_CLOSED, 800, 256, 32);
  gs_serve_result r;
  (void)state;
  l.concurrency = 8;
  r = served(4, 4, &e, &l);
  ts_assert_close(r.requests_per_s * r.e2e.mean, 8, 0.02);
  ts_assert_close(r.mean_in_flight, 8, 0.02);
  ts_assert_close(r.e2e.mean, r.ttft.mean + r.tpot.mean * 31, 1e-9);
}

/* A closed loop needs a request for each micro-batch in flight. */
static void fewer_requests_in_flight_than_micro_batches_is_refused(void **state) {
  gs_scheduler e = ts_bare_vllm();
  gs_load l = ts_load(GS_LOAD_CLOSED, 100, 256, 32);
  gs_serve_result r;
  gs_error err;
  (void)state;
  l.concurrency = 2;
  assert_int_equal(run(4, 4, &e, &l, &r, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "concurrency");
  assert_int_equal(run(4, GS_SERVE_MAX_RANKS + 1, &e, &l, &r, &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "in_flight");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_micro_batches_overlap_by_a_stage),
      cmocka_unit_test(one_host_schedules_the_micro_batches_in_turn),
      cmocka_unit_test(serve_keeps_one_micro_batch_a_stage),
      cmocka_unit_test(micro_batches_raise_throughput_up_to_the_stages),
      cmocka_unit_test(closed_loop_through_a_pipeline_obeys_littles_law),
      cmocka_unit_test(fewer_requests_in_flight_than_micro_batches_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
