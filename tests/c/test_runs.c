/* The measured-runs reader (csrc/read/runs.c) on small files written by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "test_support.h"

static gs_runs runs;
static gs_runs_scratch scratch;

static int parse(const char *text, gs_error *err) {
  memset(err, 0, sizeof *err);
  return gs_runs_parse(text, strlen(text), &scratch, &runs, err);
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
      {"id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,nan\n", "itl_ms", "'nan' is not a number: must be milliseconds from 0.001"},
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

/* Issue 28: a number cell is read whole or refused, naming its column and line; the
 * issue's cells each once read by their first digits. */
static void a_number_cell_is_read_whole_or_refused(void **state) {
  static const struct {
    const char *itl, *bits, *field;
  } cases[] = {
      {"\"7,5\"", "16", "itl_ms"}, {"1.2.3", "16", "itl_ms"}, {"6.43ms", "16", "itl_ms"}, {"1e1x", "16", "itl_ms"},
      {"20 ms", "16", "itl_ms"},   {" 20", "16", "itl_ms"},   {"+20", "16", "itl_ms"},    {".5", "16", "itl_ms"},
      {"5.", "16", "itl_ms"},      {"0x10", "16", "itl_ms"},  {"020", "16", "itl_ms"},    {"1e", "16", "itl_ms"},
      {"inf", "16", "itl_ms"},     {"5", "\"4,5\"", "weight_bits"}, {"5", "8bit", "weight_bits"}, {"5", "4.", "weight_bits"},
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[256];
    gs_error err;
    snprintf(text, sizeof text, "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,%s,H200,1,1,%s\n", cases[i].bits, cases[i].itl);
    if (parse(text, &err) == GS_OK) fail_msg("case %zu (%s, %s) was read", i, cases[i].itl, cases[i].bits);
    if (strcmp(err.field, cases[i].field) != 0 || !strstr(err.what, "line 2: ") || !strstr(err.what, "is not a number"))
      fail_msg("case %zu: '%s: %s'", i, err.field, err.what);
  }
}

/* A time with 17 significant digits is read as the double it names (Python's repr of
 * 10 / 3 is 3.3333333333333335, the double nearest 10/3), one with 15 by the exact path,
 * an exponent as written; under a microsecond or over a day is refused. */
static void a_time_of_17_digits_is_read_correctly_rounded(void **state) {
  const char *text = "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,ttft_ms\n"
                     "a,org/m,16,H200,1,1,3.3333333333333335,1e1\n"
                     "b,org/m,2.5,H200,1,1,0.1000000000000000055511151231257827,1.5E+3\n"
                     "c,org/m,16,H200,1,1,0.001,86400000\n";
  gs_error err;
  (void)state;
  assert_int_equal(parse(text, &err), GS_OK);
  assert_true(runs.rows[0].itl_ms == 10.0 / 3.0);
  assert_true(runs.rows[0].ttft_ms == 10.0);
  assert_true(runs.rows[1].itl_ms == 0.1); /* 0.1's double written out to 34 digits */
  assert_true(runs.rows[1].ttft_ms == 1500.0);
  assert_true(runs.rows[2].itl_ms == 0.001);
  assert_int_equal(parse("id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,0.0009\n", &err), GS_ERR_RANGE);
  assert_string_equal(err.field, "itl_ms");
  assert_int_equal(parse("id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,86400000.5\n", &err), GS_ERR_RANGE);
  assert_int_equal(parse("id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\nm1,a,16,H200,1,1,1e-400\n", &err), GS_ERR_RANGE);
}

/* The library's reader itself: the whole text or nothing, and what a double cannot hold
 * named as such. */
static void the_number_reader_takes_the_whole_text(void **state) {
  double x = 7;
  (void)state;
  assert_int_equal(gs_read_number("-0.5e-3", &x), GS_NUMBER_OK);
  assert_true(x == -0.5e-3);
  assert_int_equal(gs_read_number("123456789012345678901234567890", &x), GS_NUMBER_OK);
  assert_true(x == 123456789012345678901234567890.0);
  assert_int_equal(gs_read_number("1e400", &x), GS_NUMBER_TOO_LARGE);
  assert_int_equal(gs_read_number("1e-310", &x), GS_NUMBER_TOO_SMALL);
  assert_int_equal(gs_read_number("0e-999", &x), GS_NUMBER_OK);
  assert_true(x == 0);
  x = 7;
  assert_int_equal(gs_read_number("", &x), GS_NUMBER_NOT);
  assert_int_equal(gs_read_number("5 ", &x), GS_NUMBER_NOT);
  assert_int_equal(gs_read_number("-", &x), GS_NUMBER_NOT);
  assert_int_equal(gs_read_number("NaN", &x), GS_NUMBER_NOT);
  assert_true(x == 7); /* untouched when refused */
}

/* Issue 28: texts are kept whole or refused by name, never cut (ids were cut to 15 bytes,
 * so eight ids alike in their first 15 printed the same). */
static void texts_are_kept_whole_or_refused(void **state) {
  char text[1024], id[80], source[300];
  gs_error err;
  (void)state;
  memset(id, 'i', 63);
  id[63] = '\0';
  memset(source, 's', 255);
  source[255] = '\0';
  snprintf(text, sizeof text, "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,source,note\n%s,org/m,16,H200,1,1,5,%s,no tag\n", id, source);
  assert_int_equal(parse(text, &err), GS_OK);
  assert_string_equal(runs.rows[0].id, id);
  assert_string_equal(runs.rows[0].source, source);
  snprintf(text, sizeof text, "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\n%sx,org/m,16,H200,1,1,5\n", id);
  assert_int_equal(parse(text, &err), GS_ERR_TOO_LONG);
  assert_string_equal(err.field, "id");
  assert_non_null(strstr(err.what, "line 2: is 64 bytes, longer than the 63"));
  snprintf(text, sizeof text, "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,source,note\na,org/m,16,H200,1,1,5,%sx,no tag\n", source);
  assert_int_equal(parse(text, &err), GS_ERR_TOO_LONG);
  assert_string_equal(err.field, "source");
  /* a long source cell is not kept when the note's tag names the source */
  snprintf(text, sizeof text, "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms,source,note\na,org/m,16,H200,1,1,5,%sx,S3; tagged\n", source);
  assert_int_equal(parse(text, &err), GS_OK);
  assert_string_equal(runs.rows[0].source, "S3");
  memset(id, 'g', 64);
  id[64] = '\0';
  snprintf(text, sizeof text, "id,hf_repo,weight_bits,gpu,tp,batch,itl_ms\na,org/m,16,%s,1,1,5\n", id);
  assert_int_equal(parse(text, &err), GS_ERR_TOO_LONG);
  assert_string_equal(err.field, "gpu");
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
  assert_int_equal(gs_runs_parse(text, n, &scratch, &runs, &err), GS_OK);
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
      cmocka_unit_test(a_number_cell_is_read_whole_or_refused),
      cmocka_unit_test(a_time_of_17_digits_is_read_correctly_rounded),
      cmocka_unit_test(the_number_reader_takes_the_whole_text),
      cmocka_unit_test(texts_are_kept_whole_or_refused),
      cmocka_unit_test(the_shared_runs_file_reads_whole),
  };
  return cmocka_run_group_tests_name("runs", tests, NULL, NULL);
}
