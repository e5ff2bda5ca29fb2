/* Measured all-reduces (issue 9): the nccl-tests log reader, the table reader, the fit in
 * regimes and the link it gives. The fit is held to synthetic logs made from known
 * latencies and bandwidths, which it must recover; the real logs in tests/nccl-tests/ are
 * read by the command-line tests. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static const char HEADER[] =
    "# nThread 1 nGpus 4 minBytes 1024 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid 1 on host device  0 [0x0f] NVIDIA A100-SXM4-40GB\n"
    "#  Rank  1 Group  0 Pid 1 on host device  1 [0x15] NVIDIA A100-SXM4-40GB\n"
    "#  Rank  2 Group  0 Pid 1 on host device  2 [0x51] NVIDIA A100-SXM4-40GB\n"
    "#  Rank  3 Group  0 Pid 1 on host device  3 [0x54] NVIDIA A100-SXM4-40GB\n"
    "#\n"
    "#                                                              out-of-place                       in-place\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n";

/* A log of 4 GPUs from 1 KiB to 512 MiB: 20 us + 2(n-1)/n x bytes / 40 GB/s up to 1 MiB,
 * then 60 us + ... / 200 GB/s. Times are written with 6 decimals. */
static size_t synthetic_log(char *buf, size_t cap, const char *row_override, size_t override_at) {
  size_t at = (size_t)snprintf(buf, cap, "%s", HEADER), i;
  uint64_t bytes;
  for (i = 0, bytes = 1024; bytes <= (UINT64_C(1) << 29); bytes *= 2, i++) {
    double sent = 1.5 * (double)bytes, us = bytes <= 1048576 ? 20 + sent / 40e9 * 1e6 : 60 + sent / 200e9 * 1e6;
    if (row_override && i == override_at) at += (size_t)snprintf(buf + at, cap - at, "%s\n", row_override);
    else
      at += (size_t)snprintf(buf + at, cap - at, "%12llu %12llu     float     sum      -1 %9.6f   0.00   0.00      0 %9.6f   0.00   0.00      0\n",
                             (unsigned long long)bytes, (unsigned long long)(bytes / 4), us, us + 1);
  }
  return at;
}

static void a_fit_recovers_the_latencies_and_bandwidths_a_log_was_made_from(void **state) {
  static char log[16384];
  gs_measured m;
  gs_fit fit;
  gs_error err;
  gs_link link;
  size_t len = synthetic_log(log, sizeof log, NULL, 0);
  (void)state;
  assert_int_equal(gs_nccl_log_parse(log, len, &m, &err), GS_OK);
  assert_int_equal(m.gpus, 4);
  assert_int_equal(m.count, 20);
  assert_string_equal(m.type, "float");
  assert_true(m.rows[0].time_us < 20.04); /* the faster of the two runs: out of place */
  assert_int_equal(gs_fit_measured(&m, &fit, &err), GS_OK);
  assert_int_equal(fit.count, 2);
  assert_int_equal(fit.regimes[0].from_bytes, 1024);
  assert_int_equal(fit.regimes[0].to_bytes, 1048576);
  assert_int_equal(fit.regimes[1].from_bytes, 2097152);
  ts_assert_close(fit.regimes[0].latency_us, 20, 1e-6);
  ts_assert_close(fit.regimes[0].bandwidth, 40e9, 1e-6);
  ts_assert_close(fit.regimes[1].latency_us, 60, 1e-6);
  ts_assert_close(fit.regimes[1].bandwidth, 200e9, 1e-6);
  assert_true(fit.regimes[0].rms_rel_error < 1e-6);
  ts_assert_close(gs_fit_predict_us(&fit, 16384), 20 + 1.5 * 16384 / 40e9 * 1e6, 1e-6);
  /* the link: NCCL's 6.6 us base held, the step solved from 20 us over 2 x 3 steps */
  assert_int_equal(gs_fit_link(&fit, 16384, GS_LINK_NVLINK, &link, &err), GS_OK);
  assert_true(link.base_us == 6.6);
  ts_assert_close(link.step_us, (20 - 6.6) / 6, 1e-6);
  ts_assert_close(link.bandwidth, 40e9, 1e-6);
  /* and priced through it, a 4-GPU swap of 16 KiB is the fitted time */
  ts_assert_close(gs_allreduce_time(16384, 4, &link) * 1e6, 20 + 1.5 * 16384 / 40e9 * 1e6, 1e-6);
}

static void bad_logs_are_refused_with_one_reason(void **state) {
  static const struct {
    const char *row; /* replaces row 5 (16 KiB); NULL: the log is built otherwise */
    const char *expect;
  } rows[] = {
      {"       16384          4096     float     sum      -1      nan   0.00   0.00      0    20.00   0.00   0.00      0", "is not a positive number"},
      {"       16384          4096     float     sum      -1   -20.00   0.00   0.00      0    20.00   0.00   0.00      0", "is not a positive number"},
      {"       16384          4096     float     sum      -1    20.00   0.00   0.00      3    20.00   0.00   0.00      0", "3 wrong results"},
      {"       16384          4096     float     sum      -1    20.00   0.00   0.00    N/A    20.00   0.00   0.00    N/A", "-c 1"},
      {"       16384          4096     float     sum      -1    20.00   0.00", "cut short"},
      {"       16384          4096     float     max      -1    20.00   0.00   0.00      0    20.00   0.00   0.00      0", "not sum"},
      {"        1024           256     float     sum      -1    20.00   0.00   0.00      0    20.00   0.00   0.00      0", "rows from two runs"},
      {"#  Rank  0 Group  0 Pid 1 on host device  0 [0x0f] NVIDIA A100\n# Using devices\n#  Rank  0 Group  0 Pid 1 on host device  0 x\n#  Rank  1 Group  0 Pid 1 on host device  1 x\n#", "two GPU counts (4 and 2)"},
  };
  static char log[16384];
  gs_measured m;
  gs_error err;
  size_t i;
  (void)state;
  for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    size_t len = synthetic_log(log, sizeof log, rows[i].row, 4);
    if (gs_nccl_log_parse(log, len, &m, &err) == GS_OK || !strstr(err.what, rows[i].expect))
      fail_msg("case %zu: expected \"%s\", got \"%s\"", i, rows[i].expect, err.what);
  }
  assert_int_not_equal(gs_nccl_log_parse("hello, world\n", 13, &m, &err), GS_OK);
  assert_non_null(strstr(err.what, "not an all_reduce_perf log"));
  /* a header and two rows: read, but too few for a fit */
  {
    gs_fit fit;
    size_t len = (size_t)snprintf(log, sizeof log, "%s%s%s", HEADER,
                                  "1024 256 float sum -1 20.00 0.00 0.00 0 20.00 0.00 0.00 0\n",
                                  "2048 512 float sum -1 20.10 0.00 0.00 0 20.10 0.00 0.00 0\n");
    assert_int_equal(gs_nccl_log_parse(log, len, &m, &err), GS_OK);
    assert_int_equal(gs_fit_measured(&m, &fit, &err), GS_ERR_SHAPE);
    assert_non_null(strstr(err.what, "has 2 rows; a fit needs at least 3"));
  }
}

/* The measured tables: the 16-bit rows of sweep 1 from one source_dir, for one count. */
static void the_measured_table_reader_takes_one_count_one_folder_and_16_bit_rows(void **state) {
  static const char table[] =
      "gpus,message_bytes,dtype,time_us,message_elements,nccl_version,source_dir,sweep\n"
      "2,1024,half,10.05,512,2.27.3,nccl/2.27.3,1\n"
      "2,1024,int8,9.05,1024,2.27.3,nccl/2.27.3,1\n"
      "2,2048,half,10,1024,2.27.3,nccl/2.27.3,1\n"
      "2,2048,half,11,1024,2.27.3,nccl/2.27.3,2\n"
      "4,2048,half,12,1024,2.27.3,nccl/2.27.3,1\n"
      "2,4096,half,10.22,2048,2.29.2,nccl/2.29.2,1\n";
  gs_measured m;
  gs_error err;
  (void)state;
  assert_int_equal(gs_measured_csv_parse(table, strlen(table), "nccl/2.27.3", 2, &m, &err), GS_OK);
  assert_int_equal(m.count, 2);
  assert_true(m.rows[0].bytes == 1024 && m.rows[0].time_us == 10.05 && m.rows[1].time_us == 10);
  assert_int_equal(gs_measured_csv_parse(table, strlen(table), "nccl/2.27.3", 8, &m, &err), GS_ERR_UNKNOWN);
  assert_int_not_equal(gs_measured_csv_parse("gpus,bytes\n", 11, "x", 2, &m, &err), GS_OK);
  assert_non_null(strstr(err.what, "is not a measured all-reduce table"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_fit_recovers_the_latencies_and_bandwidths_a_log_was_made_from),
      cmocka_unit_test(bad_logs_are_refused_with_one_reason),
      cmocka_unit_test(the_measured_table_reader_takes_one_count_one_folder_and_16_bit_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
