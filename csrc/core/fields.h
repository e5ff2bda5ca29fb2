/* Every figure of a priced count that leaves the library, listed once. From these lists
 * come the modules' buffers (csrc/wasm/abi.c), web/src/fields.js, which both pages read by
 * name (written by scripts/fields_js.c), the JSON of `report` and `fixture`
 * (csrc/cli/json_out.c), and the fields the parity test walks (tests/js/parity.test.mjs).
 *
 * X(KIND, id, "json.path", expression over `const gs_priced *r`), where KIND is
 *   U64   a byte count or total: exact, a BigInt in JavaScript, digits in the JSON
 *   COUNT a small whole number (below 2^53): a Number, a JSON number
 *   BOOL  0 or 1: a boolean
 *   F64   a double: bit for bit in JavaScript, 17 significant digits in the JSON
 *   OPT   a double that may be absent (negative): as F64, or null
 *   TEXT  a figure as a person reads it (csrc/core/view.c): a string
 *   NAME  a name or "" for none: a string, or null
 * A path has at most one dot: "memory.total" is "total" in the object "memory", and the
 * lines of one object stand together.
 *
 * To add a figure: one line here, in the place its object's JSON wants it, and the place a
 * page shows it (it reads it by its path). Nothing else lists figures by position. */
#ifndef GPUSPLIT_FIELDS_H
#define GPUSPLIT_FIELDS_H

#include "gpusplit.h"

/* One priced count (gs_price). */
#define GS_SETTING_FIELDS(X)                                                                   \
  X(COUNT, gpus, "gpus", r->plan.gpus)                                                         \
  X(NAME, split, "split", gs_split_name(r->plan.split))                                        \
  X(COUNT, words, "words", r->plan.words)                                                      \
  X(U64, params, "params", r->setting->model.params)                                           \
  X(U64, weight_bytes, "weight_bytes", r->setting->model.stored_bytes)                         \
  X(U64, usable_bytes, "usable_bytes", r->cost.usable_bytes)                                   \
  X(U64, read_bytes, "read_bytes", r->cost.read_bytes)                                         \
  X(U64, active_params, "active_params", r->setting->model.active_params)                      \
  X(U64, memory_weights, "memory.weights", r->cost.memory.weights)                             \
  X(U64, memory_cache, "memory.cache", r->cost.memory.cache)                                   \
  X(U64, memory_working, "memory.working", r->cost.memory.working)                             \
  X(U64, memory_total, "memory.total", r->cost.memory.total)                                   \
  X(BOOL, fits, "fits", r->cost.fits)                                                          \
  X(F64, time_read, "time.read", r->cost.time.read)                                            \
  X(F64, time_transfer, "time.transfer", r->cost.time.transfer)                                \
  X(F64, time_total, "time.total", r->cost.time.total)                                         \
  X(F64, time_share, "time.share", r->cost.time.share)                                         \
  X(F64, time_words_per_s, "time.words_per_s", r->cost.time.words_per_s)                       \
  X(F64, time_total_words_per_s, "time.total_words_per_s", r->cost.time.total_words_per_s)     \
  X(F64, time_swap, "time.swap", r->cost.swap)                                                 \
  X(F64, time_idle, "time.idle", r->cost.time.idle)                                            \
  X(OPT, time_first_word, "time.first_word", r->plan.prompt_tokens ? r->cost.first_word : -1)  \
  X(COUNT, servers, "servers", r->cost.servers)                                                \
  X(NAME, protocol, "protocol", r->cost.protocol == GS_PROTO_NONE ? "" : gs_protocol_name(r->cost.protocol)) \
  X(F64, compute, "compute", r->cost.compute)                                                  \
  X(NAME, bound, "bound", gs_bound_name(r->cost.bound))                                        \
  X(BOOL, view_fits, "view.fits", r->view.fits)                                                \
  X(TEXT, view_memory, "view.memory", r->view.memory)                                          \
  X(TEXT, view_weights, "view.weights", r->view.weights)                                       \
  X(TEXT, view_cache, "view.cache", r->view.cache)                                             \
  X(TEXT, view_working, "view.working", r->view.working)                                       \
  X(TEXT, view_usable, "view.usable", r->view.usable)                                          \
  X(TEXT, view_time, "view.time", r->view.time)                                                \
  X(TEXT, view_read, "view.read", r->view.read)                                                \
  X(TEXT, view_transfer, "view.transfer", r->view.transfer)                                    \
  X(TEXT, view_waiting, "view.waiting", r->view.waiting)                                       \
  X(TEXT, view_words_per_s, "view.words_per_s", r->view.words_per_s)                           \
  X(TEXT, view_words_all, "view.words_all", r->view.words_all)                                 \
  X(TEXT, view_idle, "view.idle", r->view.idle)                                                \
  X(TEXT, view_first_word, "view.first_word", r->view.first_word)                              \
  X(F64, view_mem_bar, "view.mem_bar", r->view.mem_bar)                                        \
  X(F64, view_limit_bar, "view.limit_bar", r->view.limit_bar)                                  \
  X(F64, view_wait_bar, "view.wait_bar", r->view.wait_bar)                                    \
  X(TEXT, view_step_name, "view.step_name", r->view.step_name)                                 \
  X(TEXT, view_words_note, "view.words_note", r->view.words_note)                              \
  X(TEXT, view_cache_note, "view.cache_note", r->view.cache_note)                              \
  X(TEXT, view_waiting_note, "view.waiting_note", r->view.waiting_note)                        \
  X(TEXT, view_batches_note, "view.batches_note", r->view.batches_note)                        \
  X(TEXT, view_axis_1, "view.axis_1", r->view.axis[0])                                         \
  X(TEXT, view_axis_2, "view.axis_2", r->view.axis[1])                                         \
  X(TEXT, view_axis_3, "view.axis_3", r->view.axis[2])                                         \
  X(TEXT, view_axis_4, "view.axis_4", r->view.axis[3]) \
  X(COUNT, deploy_gpus, "deploy.gpus", r->deploy.gpus)                                         \
  X(F64, deploy_words_per_s, "deploy.words_per_s", r->deploy.words_per_s)                      \
  X(OPT, deploy_chats_fit, "deploy.chats_fit", (double)r->deploy.chats_fit)                    \
  X(OPT, deploy_chats_fit_words_per_s, "deploy.chats_fit_words_per_s", r->deploy.chats_fit_words_per_s) \
  X(OPT, deploy_cost_per_million, "deploy.cost_per_million", r->deploy.cost_per_million) \
  X(OPT, deploy_prompt_cost_per_million, "deploy.prompt_cost_per_million", r->deploy.prompt_cost_per_million)

/* One row of the chart (gs_chart_of), r being a gs_chart_row. */
#define GS_CHART_FIELDS(X)                     \
  X(COUNT, gpus, "gpus", r->gpus)              \
  X(BOOL, fits, "fits", r->fits)               \
  X(F64, read_bar, "read_bar", r->read_bar)    \
  X(F64, wait_bar, "wait_bar", r->wait_bar)    \
  X(TEXT, time, "time", r->time)

/* One GPU of the timeline (gs_timeline_of), r being a gs_timeline_row. */
#define GS_TIMELINE_FIELDS(X)                              \
  X(F64, idle_before, "idle_before", r->idle_before)       \
  X(F64, read, "read", r->read)                            \
  X(F64, wait, "wait", r->wait)                            \
  X(F64, idle_after, "idle_after", r->idle_after)          \
  X(COUNT, repeat, "repeat", r->repeat)                    \
  X(TEXT, text, "text", r->text)

/* One point of the plan's frontier chart (gs_plan_chart_of, csrc/emit/plan_chart.c), r being
 * a gs_chart_point: its layout, its figures, where its dot sits and its words. */
#define GS_FRONTIER_FIELDS(X)                                                                  \
  X(COUNT, gpus, "gpus", r->layout.gpus)                                                       \
  X(NAME, split, "split", gs_split_name(r->layout.split))                                      \
  X(NAME, experts, "experts", r->layout.experts == GS_EXPERTS_SPREAD ? "spread" : "slices")    \
  X(COUNT, words, "words", r->layout.words)                                                    \
  X(COUNT, in_flight, "in_flight", r->layout.in_flight)                                        \
  X(COUNT, replicas, "replicas", r->layout.replicas)                                           \
  X(F64, word_s, "word_s", r->layout.word_s)                                                   \
  X(OPT, first_s, "first_s", r->layout.first_s > 0 ? r->layout.first_s : -1)                  \
  X(F64, words_per_s, "words_per_s", r->layout.words_per_s)                                    \
  X(F64, per_gpu, "per_gpu", r->layout.per_gpu)                                                \
  X(OPT, cost_per_million, "cost_per_million", r->layout.cost_per_million)                     \
  X(F64, x, "x", r->x)                                                                         \
  X(F64, y, "y", r->y)                                                                         \
  X(BOOL, moved, "moved", r->moved)                                                            \
  X(TEXT, flags, "flags", r->flags)                                                            \
  X(TEXT, figures, "figures", r->figures)                                                      \
  X(TEXT, view_ms, "view.ms", r->ms)                                                           \
  X(TEXT, view_chat, "view.chat", r->chat)                                                     \
  X(TEXT, view_gpu, "view.gpu", r->gpu)                                                        \
  X(TEXT, view_first, "view.first", r->first)                                                  \
  X(TEXT, engine, "engine", r->engine)                                                         \
  X(TEXT, lesson, "lesson", r->lesson)

/* One numbered tick of the frontier chart's axes, r being a gs_chart_tick. */
#define GS_TICK_FIELDS(X)        \
  X(F64, at, "at", r->at)        \
  X(TEXT, text, "text", r->text)

/* How many fields of each buffer a list has: U64 in the 64-bit buffer, COUNT, BOOL and
 * F64 in the double buffer, TEXT and NAME in the text buffer. */
#define GS_IS_U64_U64 1
#define GS_IS_U64_COUNT 0
#define GS_IS_U64_BOOL 0
#define GS_IS_U64_F64 0
#define GS_IS_U64_TEXT 0
#define GS_IS_U64_NAME 0
#define GS_IS_U64_OPT 0
#define GS_IS_F64_U64 0
#define GS_IS_F64_COUNT 1
#define GS_IS_F64_BOOL 1
#define GS_IS_F64_F64 1
#define GS_IS_F64_TEXT 0
#define GS_IS_F64_NAME 0
#define GS_IS_F64_OPT 1
#define GS_COUNT_U64(kind, id, path, expr) +GS_IS_U64_##kind
#define GS_COUNT_F64(kind, id, path, expr) +GS_IS_F64_##kind
#define GS_COUNT_TEXT(kind, id, path, expr) +(1 - GS_IS_U64_##kind - GS_IS_F64_##kind)

#endif
