/* The measured-runs reader (csrc/read/runs.c) on small files written by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static gs_runs runs;

static int parse(const char *text, gs_error *err) {
  memset(err, 0, sizeof *err);
  return gs_runs_parse(text, strlen(text), &runs, err);
}

/* Columns in another order, a quoted note with commas, "" and a newline, CRLF line ends,
 * an empty ttft, pp and ep, a blank line, and a column the reader does not know. */
static void a_runs_file_reads_field_by_field(void **state) {
  const char *text = "itl_ms,gpu,id,hf_repo,weight_bits,tp,pp,ep,batch,ttft_ms,input_tokens,software,note,extra,interconnect\r\n"
                     "6.428,A100-80GB,m001,meta-llama/Llama-2-7b-hf,8,1,,,1,,5,\"gpt-fast, compiled\",\"S1; a \"\"quote\"\",\nsecond line\",x,PCIe (per README)\r\n"
                     "\r\n"
                     "12.5,H100-SXM5-80GB,m002,org/model,2.5,8,2,4,64,340.29,128,vLLM,\"H1; end-to-end, derived; concurrency 64\",y,\n";
  gs_error err;
  (void)state;
  assert_int_equal(parse(text, &err), GS_OK);
  assert_int_equal(runs.count, 2);
  assert_string_equal(runs.rows[0].id, "m001");
  assert_string_equal(runs.rows[0].gpu, "A100-80GB");
  assert_string_equal(runs.rows[0].software, "gpt-fast, compiled");
  assert_string_equal(runs.rows[0].source, "S1");
  assert_true(runs.rows[0].itl_ms == 6.428);
  assert_true(runs.rows[0].ttft_ms == 0);
  assert_true(runs.rows[0].weight_bits == 8);
  assert_int_equal(runs.rows[0].pp, 1);
  assert_int_equal(runs.rows[0].ep, 1);
  assert_string_equal(runs.rows[0].interconnect, "PCIe (per README)");
  assert_string_equal(runs.rows[1].interconnect, "");
  assert_int_equal(runs.rows[0].input_tokens, 5);
  assert_int_equal(runs.rows[0].output_tokens, 0);
  assert_int_equal(runs.rows[0].derived, 0);
  assert_string_equal(runs.rows[1].source, "H1");
  assert_true(runs.rows[1].weight_bits == 2.5);
  assert_int_equal(runs.rows[1].tp, 8);
  assert_int_equal(runs.rows[1].pp, 2);
  assert_int_equal(runs.rows[1].ep, 4);
  assert_int_equal(runs.rows[1].batch, 64);
  assert_true(runs.rows[1].ttft_ms == 340.29);
  assert_int_equal(runs.rows[1].derived, 1);
  assert_int_equal(runs.rows[1].serving, 1);
}

/* A note "as previous row with ..." keeps the previous row's method (S11's FP8-cache row:
 * a serving benchmark like the row before it); a row that does not say so keeps its own. */
static void a_row_as_the_previous_keeps_its_method(void **state) {
  const char *text = "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,note\n"
                     "a,org/m,16,H100-80GB,1,8,15.18,\"S11; 150 requests at concurrency 8\"\n"
                     "b,org/m,16,H100-80GB,1,8,12.93,\"S11; as previous row with FP8 (e4m3) KV cache\"\n"
                     "c,org/m,16,H100-80GB,1,8,12.93,\"S11; a static batch\"\n";
  gs_error err;
  (void)state;
  assert_int_equal(parse(text, &err), GS_OK);
  assert_int_equal(runs.count, 3);
  assert_int_equal(runs.rows[0].serving, 1);
  assert_int_equal(runs.rows[1].serving, 1);
  assert_int_equal(runs.rows[2].serving, 0);
}

/* A run that drafted words ahead says so in its note or software, in any case; a note that
 * says it did not (S10's "no MTP/speculation") and a word that only holds the letters
 * ("smtp") do not. */
static void speculative_decoding_is_told_from_the_note(void **state) {
  const char *text = "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,software,note\n"
                     "a,org/m,16,H200,1,1,5,vLLM,\"S1; EAGLE-3 draft heads\"\n"
                     "b,org/m,16,H200,1,1,5,vLLM,\"S1; with Speculative decoding (ngram)\"\n"
                     "c,org/m,16,H200,1,1,5,TensorRT-LLM,\"S1; MTP 3 layers\"\n"
                     "d,org/m,16,H200,1,1,5,SGLang (Medusa),S1\n"
                     "e,org/m,16,H200,1,1,5,TensorRT-LLM,\"S10; Baseline: CUDA Graph + EP8TP8, no MTP/speculation\"\n"
                     "f,org/m,16,H200,1,1,5,vLLM,\"S1; results mailed over smtp\"\n";
  gs_error err;
  size_t i;
  (void)state;
  assert_int_equal(parse(text, &err), GS_OK);
  assert_int_equal(runs.count, 6);
  for (i = 0; i < 4; i++) assert_int_equal(runs.rows[i].speculative, 1);
  assert_int_equal(runs.rows[4].speculative, 0);
  assert_int_equal(runs.rows[5].speculative, 0);
}

static void bad_runs_files_are_refused_with_the_line_and_column(void **state) {
  static const struct {
    const char *text, *field, *words;
  } cases[] = {
      {"", "runs", "is empty"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\n", "runs", "no runs"},
      {"id,hf_repo,weight_bits,gpu,tp,batch\nm1,a,16,H200,1,1\n", "itl_ms", "no such column"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,id\nm1,a,16,H200,1,1,5,m\n", "id", "twice"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,5,6\n", "runs", "line 2: 8 fields where the header has 7"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,0\n", "itl_ms", "line 2"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,nan\n", "itl_ms", "milliseconds above 0"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1.5,1,5\n", "tp", "whole number"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,0,5\n", "batch", "from 1"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,0.5,H200,1,1,5\n", "weight_bits", "from 1 to 32"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,,1,1,5\n", "gpu", "line 2: is empty"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,\"a,16,H200,1,1,5\n", "runs", "not closed"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,\"a\"b,16,H200,1,1,5\n", "runs", "after a closing quote"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a\"b,16,H200,1,1,5\n", "runs", "quote inside"},
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,\xff,16,H200,1,1,5\n", "runs", "not UTF-8"},
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gs_error err;
    int rc = parse(cases[i].text, &err);
    if (rc == GS_OK) fail_msg("case %zu was read", i);
    if (strcmp(err.field, cases[i].field) != 0 || !strstr(err.what, cases[i].words))
      fail_msg("case %zu: '%s: %s', expected '%s' and '%s'", i, err.field, err.what, cases[i].field, cases[i].words);
  }
}

static void the_shared_runs_file_reads_whole(void **state) {
  FILE *f = fopen("tests/measured/decode-runs.csv", "rb");
  static char text[GS_RUNS_MAX_BYTES];
  size_t n;
  gs_error err;
  (void)state;
  assert_non_null(f);
  n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  assert_int_equal(gs_runs_parse(text, n, &runs, &err), GS_OK);
  /* the README: m001-m270, a subset, 135 rows; S7 and S8 have 62 and 25 */
  assert_int_equal(runs.count, 135);
  assert_string_equal(runs.rows[0].id, "m001");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_runs_file_reads_field_by_field),
      cmocka_unit_test(a_row_as_the_previous_keeps_its_method),
      cmocka_unit_test(speculative_decoding_is_told_from_the_note),
      cmocka_unit_test(bad_runs_files_are_refused_with_the_line_and_column),
      cmocka_unit_test(the_shared_runs_file_reads_whole),
  };
  return cmocka_run_group_tests_name("runs", tests, NULL, NULL);
}
