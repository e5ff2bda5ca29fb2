/* Every figure that leaves the library, listed once: a priced count, a chart row, a
 * timeline GPU, a GPU, a link, report's header, what a module's call hands over beside its
 * records, and what a page hands in. From these lists come the modules' buffers
 * (csrc/wasm/abi.c, abi.h), web/src/fields.js, which both pages read by name (written by
 * scripts/fields_js.c), the JSON of `report` and `fixture` (csrc/cli/json_out.c), and the
 * fields the parity tests walk (tests/js/parity.test.mjs, explorer.test.mjs).
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

/* ---- The machine and the header: report's JSON header and the explorer's records ----
 * A GPU and a link, under a path prefix P ("gpu." in report's header, "" in a module's
 * record): G the gs_gpu (L the gs_link) and T its gs_hardware_text. The explorer's module
 * hands them over after each GPU or link step; report prints them in its header. */
#define GS_GPU_FIELDS(X, P, G, T)                                  \
  X(TEXT, key, P "key", (T)->key)                                  \
  X(TEXT, name, P "name", (T)->name)                               \
  X(TEXT, arch, P "arch", gs_arch_name((G)->arch))                 \
  X(F64, gib, P "gib", (G)->gib)                                   \
  X(F64, usable, P "usable", (G)->usable)                          \
  X(U64, usable_bytes, P "usable_bytes", gs_usable_bytes(G))       \
  X(F64, bandwidth, P "bandwidth", (G)->bandwidth)                 \
  X(F64, flops, P "flops", (G)->flops)

#define GS_LINK_FIELDS(X, P, L, T)                                 \
  X(TEXT, key, P "key", (T)->key)                                  \
  X(TEXT, name, P "name", (T)->name)                               \
  X(TEXT, kind, P "kind", gs_link_kind_name((L)->kind))            \
  X(F64, bandwidth, P "bandwidth", (L)->bandwidth)                 \
  X(F64, step_us, P "step_us", (L)->step_us)                       \
  X(F64, base_us, P "base_us", (L)->base_us)

/* The module's records of a resolved setting, r being a const gs_setting *: its GPU, its
 * link as priced (after a log, the fitted one), the log's GPU count, and what the plan
 * step adds (the all-reduce's message for the plan's words). */
#define GS_GPU_RECORD(X) GS_GPU_FIELDS(X, "", &r->gpu, &r->gpu_text)
#define GS_LINK_RECORD(X) GS_LINK_FIELDS(X, "", &r->link, &r->link_text)
#define GS_LOG_FIELDS(X) X(COUNT, gpus, "gpus", r->fitted_gpus)
#define GS_PLANNED_FIELDS(X) X(COUNT, message_bytes, "message_bytes", gs_message_bytes(&r->model) * r->plan.words)

/* The rules that hold in a resolved setting S (a const gs_setting *): real hardware's or the
 * lesson's, and the one line that says them (report's "Assumptions:"); and the switches as
 * they hold after resolving (the person's own under the lesson's rules, set by real rules
 * under theirs). report's header prints both (GS_REPORT_HEAD_FIELDS); the explorer's plan()
 * hands them over (GS_RULES_RECORD), so the page says the rules in report's own words. */
#define GS_RULES_FIELDS(X, S)                                      \
  X(TEXT, assume, "assume", (S)->real ? "real" : "lesson")         \
  X(TEXT, assumptions, "assumptions", (S)->assumptions)
#define GS_SWITCHES_HELD_FIELDS(X, S)                                            \
  X(BOOL, cache_per_chat, "cache_per_chat", (S)->plan.cache_per_chat)            \
  X(TEXT, nccl, "nccl", (S)->plan.nccl == GS_NCCL_AUTO ? "auto" : "lesson")      \
  X(BOOL, overlap, "overlap", (S)->plan.overlap)                                 \
  X(BOOL, read_cache, "read_cache", (S)->plan.read_cache)                        \
  X(BOOL, divide_heads, "divide_heads", (S)->divide_heads)

/* The explorer's rules after plan() (csrc/wasm/explorer.c), r being a const gs_abi_rules *
 * (csrc/wasm/abi.h): the rules and the switches that hold, which achieved-efficiency figures
 * price (report's "efficiency.from"; "" the peaks), and the engine whose fitted figures
 * price (report's --engine; "" none named, or the lesson's rules, which price at the peaks). */
#define GS_RULES_RECORD(X)                                                       \
  GS_RULES_FIELDS(X, r->setting)                                                 \
  X(NAME, efficiency_from, "efficiency.from", r->setting->efficiency_from)       \
  X(NAME, engine, "engine", r->engine)                                           \
  GS_SWITCHES_HELD_FIELDS(X, r->setting)

/* report's JSON before its rows (csrc/cli/json_out.c), r being the const gs_setting * and
 * f the const gs_sweep * of its counts. Keys are kept as they were printed: weight_bytes
 * and stored_bytes are both the stored bytes (the first the row's name for them, the
 * second the config's). After these come the efficiency (GS_EFFICIENCY_FIELDS), then
 * GS_REPORT_TAIL_FIELDS, then the rows. A count that is 0 for none is an OPT of -1. */
#define GS_REPORT_HEAD_FIELDS(X)                                                                   \
  GS_RULES_FIELDS(X, r)                                                                            \
  X(TEXT, model_name, "model.name", r->model_name)                                                 \
  X(TEXT, model_type, "model.type", r->model.type)                                                 \
  X(U64, model_params, "model.params", r->model.params)                                            \
  X(U64, model_weight_bytes, "model.weight_bytes", r->model.stored_bytes)                          \
  X(U64, model_stored_bytes, "model.stored_bytes", r->model.stored_bytes)                          \
  X(U64, model_active_params, "model.active_params", r->model.active_params)                       \
  X(U64, model_cache_bytes, "model.cache_bytes_per_token", r->model.cache_full_bytes + r->model.cache_window_bytes) \
  X(U64, model_layers, "model.layers", r->model.layers)                                            \
  X(U64, model_hidden, "model.hidden", r->model.hidden)                                            \
  X(U64, model_heads, "model.heads", r->model.heads)                                               \
  X(U64, model_kv_heads, "model.kv_heads", r->model.kv_heads)                                      \
  X(U64, model_head_dim, "model.head_dim", r->model.head_dim)                                      \
  X(U64, model_experts, "model.experts", r->model.experts)                                         \
  X(U64, model_experts_per_token, "model.experts_per_token", r->model.experts_per_token)           \
  X(U64, model_window, "model.window", r->model.window)                                            \
  X(U64, model_bits, "model.bits", r->bits)                                                        \
  X(TEXT, model_note, "model.note", r->model.note)                                                 \
  GS_GPU_FIELDS(X, "gpu.", &r->gpu, &r->gpu_text)                                                  \
  GS_LINK_FIELDS(X, "link.", &r->link, &r->link_text)                                              \
  GS_LINK_FIELDS(X, "between.", &r->plan.between, &r->between_text)                                \
  X(OPT, per_server, "per_server", r->plan.per_server ? (double)r->plan.per_server : -1)            \
  X(TEXT, expert_layout, "expert_layout", r->plan.experts == GS_EXPERTS_SPREAD ? "spread" : "slices") \
  X(TEXT, split, "split", gs_split_name(r->plan.split))                                            \
  X(COUNT, words, "words", r->plan.words)                                                          \
  X(COUNT, chat_tokens, "chat_tokens", r->plan.chat_tokens)                                        \
  X(COUNT, cache_bits, "cache_bits", r->plan.cache_bits)                                           \
  GS_SWITCHES_HELD_FIELDS(X, r)                                                                    \
  X(COUNT, in_flight, "in_flight", gs_plan_batches(&r->plan))                                      \
  X(COUNT, replicas, "replicas", r->replicas)                                                      \
  X(COUNT, max_n, "max_n", r->max_n)                                                               \
  X(OPT, gpu_hour, "gpu_hour", r->gpu_hour > 0 ? r->gpu_hour : -1)                                 \
  X(OPT, fewest, "fewest", f->fewest ? (double)f->fewest : -1)                                     \
  X(OPT, best, "best", f->best ? (double)f->best : -1)                                             \
  X(OPT, best_dividing_heads, "best_dividing_heads", f->best_dividing_heads ? (double)f->best_dividing_heads : -1)
#define GS_REPORT_TAIL_FIELDS(X) \
  X(OPT, prompt_tokens, "prompt_tokens", r->plan.prompt_tokens ? (double)r->plan.prompt_tokens : -1)

/* ---- What a module's call hands over beside its records (summary_f64()) ----
 * r being a const gs_abi_shown * or gs_abi_swept * (csrc/wasm/abi.h): all doubles. */
/* The widget's show() (csrc/wasm/lesson.c): the fewest GPUs that hold the model, up to the
 * setting's max_n (0: none), the chart's rows, and whether kept_busy() has a setting. */
#define GS_SHOWN_FIELDS(X)                                 \
  X(COUNT, fewest, "fewest", r->found->fewest)             \
  X(COUNT, budget, "budget", r->setting->max_n)            \
  X(COUNT, chart_rows, "chart_rows", r->chart_rows)        \
  X(BOOL, busy, "busy", r->busy)
/* The explorer's sweep() (csrc/wasm/explorer.c): the chart's rows, the fewest and the best
 * counts (0: none), as report finds them. */
#define GS_SWEPT_FIELDS(X)                              \
  X(COUNT, count, "count", r->count)                    \
  X(COUNT, fewest, "fewest", r->fewest)                 \
  X(COUNT, best, "best", r->best)

/* The explorer's frontier() (csrc/wasm/explorer.c), r being a const gs_abi_charted *: the
 * frontier's points, the index of the target's choice (-1: none; when the choice is not on
 * the frontier it follows the points), the layouts tried, whether a target was taken, a
 * dot's diameter (percent of the plot's width), the axes' ticks across and up, and, when no
 * layout fits, the fewest GPUs that hold the model (0: none, or some layout fits). */
#define GS_CHARTED_FIELDS(X)                           \
  X(COUNT, count, "count", r->found->count)            \
  X(F64, chosen, "chosen", r->chosen)                  \
  X(COUNT, tried, "tried", r->found->tried)            \
  X(BOOL, targeted, "targeted", r->targeted)           \
  X(F64, dot, "dot", r->chart->dot)                    \
  X(COUNT, across, "across", r->chart->x_n)            \
  X(COUNT, up, "up", r->chart->y_n)                    \
  X(COUNT, fewest, "fewest", r->fewest)

/* ---- What JavaScript hands in by name (a record it writes, which the module reads) ----
 * The full widget module's machine() (csrc/wasm/lesson.c), r being a gs_abi_machine *: the
 * settings past the lesson, each a double. Kinds: enum gs_link_kind and gs_arch. */
#define GS_MACHINE_FIELDS(X)                                          \
  X(COUNT, per_server, "per_server", r->per_server)                   \
  X(COUNT, chat_tokens, "chat_tokens", r->chat_tokens)                \
  X(COUNT, cache_bits, "cache_bits", r->cache_bits)                   \
  X(COUNT, switches, "switches", r->switches)                         \
  X(F64, between_bandwidth, "between.bandwidth", r->between_bandwidth) \
  X(F64, between_step_us, "between.step_us", r->between_step_us)      \
  X(COUNT, between_kind, "between.kind", r->between_kind)             \
  X(COUNT, link_kind, "link_kind", r->link_kind)                      \
  X(COUNT, arch, "arch", r->arch)

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
