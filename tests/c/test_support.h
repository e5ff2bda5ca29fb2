/* Helpers the C tests share: the built-in model, GPU and link, loaded through the public
 * API, with any error failing the running cmocka test. Include after <cmocka.h>. */
#ifndef GPUSPLIT_TEST_SUPPORT_H
#define GPUSPLIT_TEST_SUPPORT_H

#include <stddef.h>

#include "gpusplit.h"

/* The files in data/, as build/data_files.c embeds them (NUL-terminated). */
extern const char GS_DATA_gpus_json[];
extern const char GS_DATA_links_json[];

/* Fills out with the built-in model "8b", "70b" or "405b"; fails the test on error. */
void ts_model(const char *key, gs_model *out);
/* A catalogue or built-in model by its key (gs_builtin_model); fails the test on error. */
gs_model ts_builtin(const char *key);
/* An H100 SXM's sheet figures (data/gpus.json), round enough to check by hand. */
gs_gpu ts_h100(void);
/* The caller's memory for a served run of n requests (gs_serve_space), allocated; fails
 * the test when it cannot be; ts_space_free gives it back. */
gs_serve_space ts_space(size_t n);
void ts_space_free(gs_serve_space *sp);
/* vLLM's limits on an H100, priced by the bare mixed step (the serving fit's figures off). */
gs_scheduler ts_bare_vllm(void);
/* A load of n requests of fixed lengths, seed 1 (its rate or concurrency the caller's). */
gs_load ts_load(int kind, uint64_t n, uint64_t prompt, uint64_t output);
/* Fills out with data/gpu.json's GPU; fails the test on error. */
void ts_gpu(gs_gpu *out);
/* Fills out with the link "fast" or "slow" from data/links.json; fails the test on error. */
void ts_link(const char *key, gs_link *out);
/* A built-in model, the built-in GPU and a built-in link; fails the test on error. */
void ts_setting(const char *model, const char *link, gs_model *s, gs_gpu *g, gs_link *l);
/* A plan of n GPUs. */
gs_plan ts_plan(uint64_t n, int split, uint64_t words);
/* gs_cost for a model, GPU and link; fails the test unless it returns GS_OK. */
gs_cost_result ts_cost_of(const gs_model *m, const gs_gpu *g, const gs_link *l, uint64_t n, int split, uint64_t words);
/* gs_cost for a built-in model, the built-in GPU and a built-in link. */
gs_cost_result ts_cost(const char *model, uint64_t n, const char *link, int split, uint64_t words);
/* The time of ts_cost, for a built-in model, the built-in GPU and a built-in link; fails the
 * test unless it returns GS_OK. */
gs_time ts_time(const char *model, uint64_t n, const char *link, int split, uint64_t words);
/* Parts priced through the library's one way (gs_setting_of, then gs_price): the priced
 * count (its setting is ts_price's own, until the next call), its sums (gs_explain_of), and
 * the sweep's searches up to max_n (gs_sweep_run; with divide_heads, the count allowed only
 * when it divides the heads), failing the test unless the sweep runs. */
int ts_price(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, gs_priced *out, gs_error *err);
int ts_explain(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, char *buf, size_t cap, gs_error *err);
gs_sweep ts_sweep(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, uint64_t max_n, int divide_heads);
/* The chart over counts (gs_chart_of) of a sweep up to the largest of them (at most 128). */
int ts_chart(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, const uint64_t *counts, size_t count_n,
             gs_chart_row *rows);
/* The view of the same priced (ts_price); fails the test unless it prices. */
gs_view ts_view(const char *model, uint64_t n, const char *link, int split, uint64_t words);
/* gs_model_parse on NUL-terminated text (16-bit weights), with err cleared first. */
int ts_parse(const char *json, gs_model *out, gs_error *err);
/* ts_parse that fails the test unless the text reads. */
gs_model ts_parse_ok(const char *json);
/* Fails the test unless the text is refused with this code on this field, with a message
 * (containing `words`, unless NULL). */
void ts_refused(const char *json, int code, const char *field, const char *words);
/* One quantity of the lesson's, through gs_cost with the fast link and slices. */
gs_memory ts_memory(const gs_model *m, uint64_t n);
int ts_fits(const gs_model *m, const gs_gpu *g, uint64_t n);
double ts_read_time(const gs_model *m, const gs_gpu *g, uint64_t n);
double ts_compute_time(const gs_model *m, const gs_gpu *g, uint64_t n, uint64_t words);
/* Fails the test unless |actual - expected| <= rel * |expected|. */
void ts_assert_close(double actual, double expected, double rel);

#endif
