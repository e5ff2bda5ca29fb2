/* Real machines (issue 8): servers and the link between them, the three splits, chats
 * at once, the cache's tokens and bits, overlap, reading the cache, NCCL's protocols,
 * --explain, and the GPU and link catalogues. Every new path, switched off or on one
 * server, must give the lesson's figures bit for bit; switched on, the figures below
 * are worked by hand from the rules each cites. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"
#include "test_support.h"

static gs_cost_result cost(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p) {
  gs_cost_result c;
  gs_error err = {0, "", ""};
  int rc = gs_cost(m, g, l, p, &c, &err);
  if (rc != GS_OK) fail_msg("gs_cost(%llu GPUs): status %d, %s: %s", (unsigned long long)p->gpus, rc, err.field, err.what);
  return c;
}

static void assert_same_cost(const gs_cost_result *a, const gs_cost_result *b) {
  assert_memory_equal(&a->memory, &b->memory, sizeof a->memory);
  assert_true(a->fits == b->fits && a->read_bytes == b->read_bytes);
  assert_memory_equal(&a->time, &b->time, sizeof a->time); /* bit for bit */
}

/* Each switch off, each default written out, and one server however it is described:
 * the lesson's figures, bit for bit, for all three lesson models, counts, links, splits
 * and words. */
static void every_new_path_switched_off_or_on_one_server_is_the_lesson(void **state) {
  static const char *const models[] = {"8b", "70b", "405b"}, *const links[] = {"fast", "slow"};
  static const uint64_t counts[] = {1, 2, 4, 8, 16}, words[] = {1, 16, 64};
  gs_link between;
  size_t a, b, c, d, split;
  (void)state;
  ts_link("ib-ndr", &between);
  for (a = 0; a < 3; a++)
    for (b = 0; b < 2; b++)
      for (c = 0; c < 5; c++)
        for (d = 0; d < 3; d++)
          for (split = 0; split < 2; split++) {
            gs_model m;
            gs_gpu g;
            gs_link l;
            gs_plan lesson = ts_plan(counts[c], (int)split, words[d]), p;
            gs_cost_result base, other;
            ts_setting(models[a], links[b], &m, &g, &l);
            base = cost(&m, &g, &l, &lesson);
            p = lesson;
            p.per_server = 16; /* every GPU in one server of 16 */
            p.between = between;
            p.chat_tokens = 8192;
            p.cache_bits = 16;
            p.nccl = GS_NCCL_LESSON;
            other = cost(&m, &g, &l, &p);
            assert_same_cost(&base, &other);
            assert_int_equal(other.servers, 1);
            if (split == GS_SLICES) { /* slices-groups on one server is slices */
              p.split = GS_SLICES_GROUPS;
              other = cost(&m, &g, &l, &p);
              assert_same_cost(&base, &other);
            }
            if (words[d] == 1) { /* one chat: a cache each is the lesson's one cache */
              p = lesson;
              p.cache_per_chat = 1;
              other = cost(&m, &g, &l, &p);
              assert_same_cost(&base, &other);
            }
            assert_true(base.time.total_words_per_s == (double)words[d] / base.time.total);
          }
}

/* Issue 8: 64 words at once on 8B over 16 GPUs on the slow link take one step for all 64
 * chats; each chat gets a word a step (350.9 a second alone, 261.9 with 64), the server
 * 64 times that. */
static void words_at_once_give_each_chat_and_all_chats_their_words_a_second(void **state) {
  gs_cost_result c = ts_cost("8b", 16, "slow", GS_SLICES, 64), one = ts_cost("8b", 16, "slow", GS_SLICES, 1);
  char text[GS_FIGURE_CAP];
  (void)state;
  assert_string_equal(gs_fixed(text, sizeof text, one.time.words_per_s, 1), "350.9");
  assert_string_equal(gs_fixed(text, sizeof text, c.time.words_per_s, 1), "261.9");
  assert_true(c.time.total_words_per_s == 64 / c.time.total);
  assert_string_equal(gs_fixed_grouped(text, sizeof text, c.time.total_words_per_s, 1), "16,763.9");
}

/* 70B on 4 GPUs (lesson: the chat's cache is 671,088,640 bytes a GPU). */
static void the_cache_grows_with_chats_tokens_and_bits_as_asked(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(4, GS_SLICES, 64);
  gs_cost_result c, base;
  (void)state;
  ts_setting("70b", "fast", &m, &g, &l);
  base = cost(&m, &g, &l, &p);
  assert_int_equal(base.memory.cache, UINT64_C(671088640));
  p.cache_per_chat = 1;
  c = cost(&m, &g, &l, &p);
  assert_int_equal(c.memory.cache, UINT64_C(671088640) * 64);
  assert_int_equal(c.memory.total - c.memory.cache, base.memory.total - base.memory.cache);
  p.cache_per_chat = 0;
  p.cache_bits = 8;
  assert_int_equal(cost(&m, &g, &l, &p).memory.cache, UINT64_C(671088640) / 2);
  p.cache_bits = 3; /* 2,684,354,560 x 3 / 16 = 503,316,480 for the chat, 125,829,120 a GPU */
  assert_int_equal(cost(&m, &g, &l, &p).memory.cache, UINT64_C(125829120));
  p.cache_bits = 0;
  p.chat_tokens = 4096;
  assert_int_equal(cost(&m, &g, &l, &p).memory.cache, UINT64_C(671088640) / 2);
  p.chat_tokens = 1; /* one token: 327,680 bytes, a quarter a GPU */
  assert_int_equal(cost(&m, &g, &l, &p).memory.cache, UINT64_C(81920));
}

/* --read-cache: each GPU also reads its share of every chat's cache in each step. */
static void reading_the_cache_adds_every_chats_share_to_each_step(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(4, GS_SLICES, 16);
  gs_cost_result base, c;
  (void)state;
  ts_setting("70b", "fast", &m, &g, &l);
  base = cost(&m, &g, &l, &p);
  p.read_cache = 1;
  c = cost(&m, &g, &l, &p);
  assert_int_equal(c.read_bytes - base.read_bytes, UINT64_C(671088640) * 16);
  assert_true(c.time.read == (double)c.read_bytes / g.bandwidth);
}

/* --overlap: 70B on 4 GPUs reads 17.30 ms over 80 layers, 216 us a layer, far longer
 * than a layer's two swaps of 10.24 us; so every pair hides but the last layer's. */
static void with_overlap_only_the_last_layers_swaps_wait_when_reading_is_longer(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l;
  gs_plan p = ts_plan(4, GS_SLICES, 1);
  gs_cost_result c;
  (void)state;
  ts_setting("70b", "fast", &m, &g, &l);
  p.overlap = 1;
  c = cost(&m, &g, &l, &p);
  assert_true(c.time.transfer == 2 * c.swap);
  assert_true(c.time.read == cost(&m, &g, &l, &(gs_plan){.gpus = 4, .split = GS_SLICES, .words = 1}).time.read);
  /* a link slower than the reading: each pair waits for what the reading does not cover */
  l.step_us = 1000;
  c = cost(&m, &g, &l, &p);
  ts_assert_close(c.time.transfer, 79 * (2 * c.swap - c.time.read / 80) + 2 * c.swap, 1e-12);
}

/* Across servers: a ring of 16 GPUs in 2 servers of 8 crosses the network twice (2(N-1)
 * steps), which pay its step latency, and moves at its speed; within one server of 16 it
 * does not. Groups hand on between servers once over the network. */
static void crossing_servers_costs_more_than_staying_in_one(void **state) {
  gs_model m;
  gs_gpu g;
  gs_link l, ib;
  gs_plan p = ts_plan(16, GS_SLICES, 1);
  gs_cost_result one, two;
  double steps = 30, startup;
  (void)state;
  ts_setting("70b", "fast", &m, &g, &l);
  ts_link("ib-ndr", &ib);
  p.between = ib;
  one = cost(&m, &g, &l, &p);
  p.per_server = 8;
  two = cost(&m, &g, &l, &p);
  assert_int_equal(two.servers, 2);
  assert_true(two.time.transfer > one.time.transfer && two.time.total > one.time.total);
  startup = (6.6 + (steps - 2) * 0.6 + 2 * 2.7) * 1e-6;
  ts_assert_close(two.swap, startup + steps / 16 * 16384 / 50e9, 1e-12);
  p.split = GS_GROUPS;
  two = cost(&m, &g, &l, &p);
  ts_assert_close(two.time.transfer, 14 * ((6.6 + 0.6) * 1e-6 + 16384 / 600e9) + ((6.6 + 2.7) * 1e-6 + 16384 / 50e9), 1e-12);
  /* slices-groups: two groups of 8 slices; each layer's swaps stay in a server */
  p.split = GS_SLICES_GROUPS;
  two = cost(&m, &g, &l, &p);
  ts_assert_close(two.swap, gs_allreduce_time(16384, 8, &l), 1e-15);
  ts_assert_close(two.time.transfer, 160 * two.swap + ((6.6 + 2.7) * 1e-6 + 16384 / 50e9), 1e-12);
  p.gpus = 12; /* not whole servers of 8 */
  assert_int_equal(gs_cost(&m, &g, &l, &p, &two, NULL), GS_ERR_SHAPE);
}

/* NCCL's ring model (tuning.cc v2.30.7) for 8 H100s on one NVLink server, with a ring
 * bus bandwidth of 360 GB/s, worked by hand from its tables:
 *   LL     lat 6.6 + 14 x 0.6 = 15.0 us, busBw min(141, 180) = 141, algBw 141 x 8/14
 *   LL128  lat 14.0 + 14 x 1.9 = 40.6 us, busBw 0.92 x 360 = 331.2, algBw x 8/14
 *   Simple lat 8.4 + 14 x 3.4 = 56.0 us, busBw 360, algBw 360 x 8/14
 * LL is cheapest up to 3.59e6 bytes, LL128 up to 3.64e7, then Simple. */
static void nccl_picks_its_cheapest_protocol_at_the_thresholds_of_its_tables(void **state) {
  static const struct {
    uint64_t size;
    int protocol;
    double us; /* 0: not checked */
  } cases[] = {{16384, GS_PROTO_LL, 15.203}, {262144, GS_PROTO_LL, 18.254}, {3500000, GS_PROTO_LL, 0},
               {3700000, GS_PROTO_LL128, 0},   {4194304, GS_PROTO_LL128, 62.762}, {36000000, GS_PROTO_LL128, 0},
               {37000000, GS_PROTO_SIMPLE, 0}, {67108864, GS_PROTO_SIMPLE, 382.224}};
  gs_link nv = {.bandwidth = 360e9, .step_us = 0.6, .base_us = 6.6, .kind = GS_LINK_NVLINK};
  gs_ring r = {.gpus = 8, .servers = 1, .intra = &nv, .arch = GS_ARCH_HOPPER, .nccl = GS_NCCL_AUTO};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int protocol;
    double t = gs_ring_allreduce(cases[i].size, &r, &protocol);
    char text[GS_FIGURE_CAP];
    if (protocol != cases[i].protocol)
      fail_msg("%llu bytes: %s, not %s", (unsigned long long)cases[i].size, gs_protocol_name(protocol),
               gs_protocol_name(cases[i].protocol));
    if (cases[i].us > 0) {
      snprintf(text, sizeof text, "%.3f", cases[i].us);
      assert_string_equal(gs_fixed(text, sizeof text, t * 1e6, 3), text);
    }
  }
}

/* NCCL turns LL128 off on PCIe; across 2 servers of 8 on an Intel host every step pays at
 * least the 1 us net overhead, the 2 crossing steps NET's 2.7, and LL's bus bandwidth is
 * half the ring's slowest link (50 GB/s), under the 2-server cap of 39 GB/s. */
static void nccl_across_servers_and_on_pcie_follows_its_tables(void **state) {
  gs_link pci = {.bandwidth = 64e9, .step_us = 1.0, .base_us = 6.6, .kind = GS_LINK_PCI};
  gs_link nv = {.bandwidth = 600e9, .step_us = 0.6, .base_us = 6.6, .kind = GS_LINK_NVLINK};
  gs_link ib = {.bandwidth = 50e9, .step_us = 2.7, .base_us = 6.6, .kind = GS_LINK_NET};
  gs_ring r = {.gpus = 8, .servers = 1, .intra = &pci, .arch = GS_ARCH_AMPERE, .nccl = GS_NCCL_AUTO};
  uint64_t size;
  int protocol;
  double t;
  (void)state;
  for (size = 1024; size < (UINT64_C(1) << 32); size *= 2) {
    gs_ring_allreduce(size, &r, &protocol);
    assert_int_not_equal(protocol, GS_PROTO_LL128);
  }
  r.intra = &nv;
  r.between = &ib;
  r.gpus = 16;
  r.servers = 2;
  t = gs_ring_allreduce(16384, &r, &protocol);
  assert_int_equal(protocol, GS_PROTO_LL);
  ts_assert_close(t, (6.6 + 28 * 1.0 + 2 * 2.7) * 1e-6 + 16384 / (25e9 * 16 / 30), 1e-12);
}

/* --explain writes the lesson's hand sums for 70B on 4 GPUs, and ends at the view's
 * figures for other settings too. */
static void the_explained_sums_are_the_lessons_and_end_at_the_reports_figures(void **state) {
  static const char *const lesson[] = {"70,553,706,496 x 2 / 4 = 35,276,853,248", "671,088,640", "1,560,281,088",
                                       "37,508,222,976", "10.24 us a swap", "1.64 ms", "6.6 + 6 x 0.6 = 10.2 us",
                                       "24,576 bytes", "18.94 ms", "8.7%"};
  static const int splits[] = {GS_SLICES, GS_GROUPS, GS_SLICES_GROUPS};
  char text[GS_EXPLAIN_CAP];
  gs_model m;
  gs_gpu g;
  gs_link l, ib;
  gs_plan p = ts_plan(4, GS_SLICES, 1);
  gs_error err;
  size_t i, s;
  (void)state;
  ts_setting("70b", "fast", &m, &g, &l);
  ts_link("ib-ndr", &ib);
  assert_int_equal(ts_explain(&m, &g, &l, &p, text, sizeof text, &err), GS_OK);
  for (i = 0; i < sizeof lesson / sizeof lesson[0]; i++)
    if (!strstr(text, lesson[i])) fail_msg("the sums lack \"%s\":\n%s", lesson[i], text);
  for (s = 0; s < 3; s++) {
    gs_priced r;
    const gs_view *v = &r.view;
    char waiting[GS_FIGURE_CAP + 16];
    p = ts_plan(16, splits[s], 64);
    p.per_server = 8;
    p.between = ib;
    p.overlap = s == 2;
    p.nccl = s == 0 ? GS_NCCL_AUTO : GS_NCCL_LESSON;
    assert_int_equal(ts_explain(&m, &g, &l, &p, text, sizeof text, &err), GS_OK);
    assert_int_equal(ts_price(&m, &g, &l, &p, &r, &err), GS_OK);
    snprintf(waiting, sizeof waiting, "= %s", v->waiting);
    if (!strstr(text, v->time) || !strstr(text, waiting) || !strstr(text, v->words_per_s))
      fail_msg("split %d: the sums do not end at %s, %s, %s:\n%s", splits[s], v->time, v->waiting, v->words_per_s, text);
  }
  assert_int_equal(ts_explain(&m, &g, &l, &p, text, 64, &err), GS_ERR_TOO_LONG);
}

/* Every catalogue entry has a source and figures in the range of real parts. */
static void every_catalogue_entry_has_a_source_and_sane_figures(void **state) {
  char keys[1024], *key;
  gs_error err;
  size_t n = 0;
  (void)state;
  assert_int_equal(gs_builtin_keys("gpus", keys, sizeof keys, &err), GS_OK);
  for (key = strtok(keys, ", "); key; key = strtok(NULL, ", "), n++) {
    gs_gpu g;
    gs_hardware_text t;
    assert_int_equal(gs_builtin_gpu(key, &g, &t, &err), GS_OK);
    /* the largest memory, 288 GB, is Blackwell Ultra's and MI355X's */
    if (strlen(t.source) < 40 || !(g.gib >= 16 && g.gib <= 288) || !(g.bandwidth >= 2e11 && g.bandwidth <= 1e13) ||
        !(g.flops >= 5e13 && g.flops <= 5e15))
      fail_msg("GPU %s: %g GiB, %g B/s, %g FLOP/s, source \"%s\"", key, g.gib, g.bandwidth, g.flops, t.source);
  }
  assert_true(n >= 25); /* the lesson's, the issue's thirteen, three more and issue 30's eight */
  assert_int_equal(gs_builtin_keys("links", keys, sizeof keys, &err), GS_OK);
  for (n = 0, key = strtok(keys, ", "); key; key = strtok(NULL, ", "), n++) {
    gs_link l;
    gs_hardware_text t;
    assert_int_equal(gs_builtin_link(key, &l, &t, &err), GS_OK);
    if (strlen(t.source) < 40 || !(l.bandwidth >= 1e10 && l.bandwidth <= 2e12) || l.base_us != 6.6)
      fail_msg("link %s: %g B/s, source \"%s\"", key, l.bandwidth, t.source);
  }
  assert_true(n >= 11);
  assert_int_equal(gs_builtin_gpu("RTX 4090", &(gs_gpu){0}, NULL, &err), GS_OK); /* by name, in any case */
  assert_int_equal(gs_builtin_gpu("h300", &(gs_gpu){0}, NULL, &err), GS_ERR_UNKNOWN);
  assert_non_null(strstr(err.what, "names: lesson, a100-40gb-sxm"));
}

/* The fit's GPUs are the catalogue's (data/gpus.json's generation and measured_as): a name
 * the measured runs give is found on the entry that lists it, a name that leaves the form
 * open (A100-80GB, H100-80GB) on the PCIe card only over PCIe, and every entry's generation
 * is one the fit knows, NVIDIA's Ada apart from NCCL's Ampere (the runs README's L40S). */
static void the_runs_gpus_and_generations_are_the_catalogues(void **state) {
  size_t i, k, m;
  gs_gpu g;
  (void)state;
  assert_string_equal(gs_gpu_measured_as("H100-SXM5-80GB", 0), "h100-sxm");
  assert_string_equal(gs_gpu_measured_as("H100-SXM5-80GB", 1), "h100-sxm"); /* its label says SXM */
  assert_string_equal(gs_gpu_measured_as("A100-80GB", 0), "a100-80gb-sxm");
  assert_string_equal(gs_gpu_measured_as("A100-80GB", 1), "a100-80gb-pcie");
  assert_string_equal(gs_gpu_measured_as("H100-80GB", 1), "h100-pcie");
  assert_string_equal(gs_gpu_measured_as("GH200 120GB", 0), "gh200");
  assert_null(gs_gpu_measured_as("h100-sxm", 0)); /* a catalogue key is no run's name */
  assert_null(gs_gpu_measured_as("TPU v5e", 0));
  assert_string_equal(gs_gpu_generation("l40s"), "ada");
  assert_int_equal(gs_builtin_gpu("l40s", &g, NULL, NULL), GS_OK);
  assert_int_equal(g.arch, GS_ARCH_AMPERE);
  assert_string_equal(gs_gpu_generation("lesson"), "");
  assert_string_equal(gs_gpu_generation("no-such-gpu"), "");
  assert_true(GS_GPU_FIT_TABLE_COUNT >= 14);
  for (i = 0; i < GS_GPU_FIT_TABLE_COUNT; i++) {
    const char *gen = GS_GPU_FIT_TABLE[i].generation;
    for (k = 0; gen[0] && k < GS_GENERATION_COUNT && strcmp(GS_GENERATIONS[k], gen) != 0; k++) {}
    if (k == GS_GENERATION_COUNT) fail_msg("GPU %s: generation '%s'", GS_GPU_FIT_TABLE[i].key, gen);
    assert_int_equal(gs_builtin_gpu(GS_GPU_FIT_TABLE[i].key, &g, NULL, NULL), GS_OK);
    /* each name a run gives finds one entry on its link's side (a name on two entries is
     * on one PCIe card and one board) */
    for (k = 0; k < GS_MEASURED_AS_MAX && GS_GPU_FIT_TABLE[i].measured_as[k]; k++) {
      const char *name = GS_GPU_FIT_TABLE[i].measured_as[k];
      for (m = 0; m < 2; m++)
        if (strcmp(gs_gpu_measured_as(name, (int)m), GS_GPU_FIT_TABLE[i].key) == 0) break;
      if (m == 2) fail_msg("run name '%s' of %s finds %s and %s", name, GS_GPU_FIT_TABLE[i].key, gs_gpu_measured_as(name, 0),
                           gs_gpu_measured_as(name, 1));
    }
  }
}

/* The catalogue's ring figures are NCCL's arithmetic (topo.h at v2.30.7): a GPU's NVLink ring
 * bandwidth is its links times NCCL's per-link rate for its compute capability (20.0 GB/s
 * for 8.x, 20.6 for 9.0, 40.1 for 10.0); a PCIe Gen4 x16 link's is 16 x 120 / 80 = 24 GB/s;
 * a 400 Gb/s NIC's 400,000 / 8,000 = 50 GB/s. SXM boards sit 8 to a server. */
static void ring_figures_follow_nccls_topology_constants(void **state) {
  static const char *const KEYS[] = {"a100-80gb-sxm", "h100-sxm", "h200", "b200", "gh200", "gb200", "gb300", "b300", "h800", "h20"};
  gs_gpu g;
  gs_link l;
  gs_error err;
  size_t i;
  (void)state;
  for (i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) {
    double rate;
    assert_int_equal(gs_builtin_gpu(KEYS[i], &g, NULL, &err), GS_OK);
    rate = g.compute_capability >= 100 ? 40.1e9 : g.compute_capability >= 90 ? 20.6e9 : 20.0e9;
    if (g.ring_bw != g.nvlinks * rate) fail_msg("%s: ring_bw %g, %d links x %g", KEYS[i], g.ring_bw, g.nvlinks, rate);
  }
  assert_int_equal(gs_builtin_gpu("a100-80gb-sxm", &g, NULL, &err), GS_OK);
  assert_int_equal(g.per_server, 8);
  assert_true(g.ring_bw == 240e9);
  assert_int_equal(gs_builtin_gpu("l40s", &g, NULL, &err), GS_OK);
  assert_int_equal(g.per_server, 0); /* a PCIe card: no usual server size is claimed */
  assert_true(g.ring_bw == 0);
  assert_int_equal(gs_builtin_link("pcie4", &l, NULL, &err), GS_OK);
  assert_true(l.ring_bw == 16 * 120 / 80 * 1e9);
  assert_int_equal(gs_builtin_link("ib-ndr", &l, NULL, &err), GS_OK);
  assert_true(l.ring_bw == 400000 / 8000 * 1e9);
  assert_int_equal(gs_builtin_link("nvlink4", &l, NULL, &err), GS_OK);
  assert_true(l.ring_bw == 0);
}

/* Issue 30's GPUs: each is a catalogue entry that real rules price (the default for a
 * catalogue GPU) with its own figures, its usual server and its NVLink ring where it has
 * one; GB200 and GB300 share one NVLink domain of 72 (NVL72), H800 has 8 links, not 18. */
static void issue_30s_gpus_are_priced_under_real_rules(void **state) {
  static const struct {
    const char *key;
    int per_server, nvlinks;
  } GPUS[] = {{"rtx-pro-6000-server", 0, 0}, {"gb200", 72, 18}, {"gb300", 72, 18}, {"b300", 8, 18},
              {"h800", 8, 8},                 {"h20", 8, 18},  {"mi325x", 8, 0},  {"mi355x", 8, 0}};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof GPUS / sizeof GPUS[0]; i++) {
    static gs_setting s;
    gs_request q;
    gs_priced p;
    gs_error err;
    memset(&q, 0, sizeof q);
    q.model_key = "70b";
    q.gpu_key = GPUS[i].key;
    if (gs_resolve(&q, &s, &err) != GS_OK) fail_msg("%s: %s: %s", GPUS[i].key, err.field, err.what);
    assert_true(s.real);
    assert_int_equal(s.gpu.per_server, GPUS[i].per_server);
    assert_int_equal(s.gpu.nvlinks, GPUS[i].nvlinks);
    assert_int_equal(s.plan.per_server, (uint64_t)GPUS[i].per_server);
    if (gs_price(&s, 8, &p, &err) != GS_OK) fail_msg("%s at 8: %s: %s", GPUS[i].key, err.field, err.what);
    assert_true(p.cost.fits && p.cost.time.total > 0 && p.cost.time.total < 1);
    /* the step reads its share of the 70B's 16-bit weights at no more than the sheet's rate */
    assert_true(p.cost.time.total >= (double)p.cost.read_bytes / s.gpu.bandwidth);
    /* FP4 where the sheet prints it, never without FP8, and at least twice the 16-bit peak */
    assert_true(s.gpu.flops_fp4 == 0 || (s.gpu.flops_fp8 > 0 && s.gpu.flops_fp4 >= 2 * s.gpu.flops_fp8 * 0.99));
    assert_true(s.gpu.flops16 == 0); /* 16-bit weights: one peak */
  }
}

/* 70B resolved on a catalogue GPU at `bits`, with `switches_off` and, when typed_flops > 0,
 * those FLOP/s typed. */
static void resolve_70b(const char *gpu, unsigned bits, unsigned switches_off, double typed_flops, gs_setting *s) {
  gs_request q;
  gs_error err;
  memset(&q, 0, sizeof q);
  q.model_key = "70b";
  q.gpu_key = gpu;
  q.bits = bits;
  q.switches_off = switches_off;
  if (typed_flops > 0) {
    q.gpu_typed = GS_TYPED_FLOPS;
    q.gpu.flops = typed_flops;
  }
  if (gs_resolve(&q, s, &err) != GS_OK) fail_msg("%s, %u bits: %s: %s", gpu, bits, err.field, err.what);
}

/* 4-bit weights on a GPU with an FP4 peak compute at it, in report and serve alike, and keep
 * the sheet's 16-bit peak apart for what the checkpoint leaves at 16 bits (the output table,
 * attention); on a GPU without one, with --no-fp8-compute or with the FLOP/s typed, the one
 * peak, which serve keeps too. */
static void four_bit_weights_keep_the_16_bit_peak_apart(void **state) {
  static const struct {
    const char *gpu;
    double flops16, fp4; /* data/gpus.json's flops and flops_fp4 */
  } CASES[] = {{"b200", 2.25e15, 9e15}, {"rtx-pro-6000-server", 5e14, 2e15}, {"h100-sxm", 0, 0}};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    static gs_setting s;
    resolve_70b(CASES[i].gpu, 4, 0, 0, &s);
    if (CASES[i].fp4 > 0) {
      assert_true(s.gpu.flops == CASES[i].fp4);
      assert_true(s.gpu.flops16 == CASES[i].flops16);
    } else {
      assert_true(s.gpu.flops16 == 0);
    }
    /* --no-fp8-compute and typed FLOP/s keep the 16-bit peak (serve prices at the setting's
     * own peak: tests/c/cli_test.sh) */
    resolve_70b(CASES[i].gpu, 4, GS_SW_FP8_COMPUTE, 0, &s);
    assert_true(s.gpu.flops16 == 0 && (CASES[i].fp4 == 0 || s.gpu.flops == CASES[i].flops16));
    resolve_70b(CASES[i].gpu, 4, 0, 1e15, &s);
    assert_true(s.gpu.flops == 1e15 && s.gpu.flops16 == 0);
  }
}

/* 8-bit weights on a GPU with FP8 tensor cores (W8A8) compute at the FP8 peak, and what an FP8
 * checkpoint leaves at 16 bits (the output table, attention) keeps the sheet's 16-bit peak
 * apart (ModelOpt's FP8_DEFAULT_CFG quantizes the linear layers only: resolve.c); a GPU
 * without FP8, --no-fp8-compute and 16-bit weights keep one peak. */
static void eight_bit_weights_keep_the_16_bit_peak_apart(void **state) {
  static const struct {
    const char *gpu;
    unsigned bits, switches_off;
    double flops, flops16; /* data/gpus.json's flops_fp8 and flops, or flops alone */
  } CASES[] = {{"h100-sxm", 8, 0, 1.979e15, 9.895e14},
               {"mi300x", 8, 0, 2.6149e15, 1.3074e15},
               {"h100-sxm", 8, GS_SW_FP8_COMPUTE, 9.895e14, 0},
               {"h100-sxm", 16, 0, 9.895e14, 0},
               {"a100-80gb-sxm", 8, 0, 3.12e14, 0}};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    static gs_setting s;
    resolve_70b(CASES[i].gpu, CASES[i].bits, CASES[i].switches_off, 0, &s);
    if (s.gpu.flops != CASES[i].flops || s.gpu.flops16 != CASES[i].flops16)
      fail_msg("case %zu (%s, %u bits): flops %g and flops16 %g", i, CASES[i].gpu, CASES[i].bits, s.gpu.flops, s.gpu.flops16);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_new_path_switched_off_or_on_one_server_is_the_lesson),
      cmocka_unit_test(words_at_once_give_each_chat_and_all_chats_their_words_a_second),
      cmocka_unit_test(the_cache_grows_with_chats_tokens_and_bits_as_asked),
      cmocka_unit_test(reading_the_cache_adds_every_chats_share_to_each_step),
      cmocka_unit_test(with_overlap_only_the_last_layers_swaps_wait_when_reading_is_longer),
      cmocka_unit_test(crossing_servers_costs_more_than_staying_in_one),
      cmocka_unit_test(nccl_picks_its_cheapest_protocol_at_the_thresholds_of_its_tables),
      cmocka_unit_test(nccl_across_servers_and_on_pcie_follows_its_tables),
      cmocka_unit_test(the_explained_sums_are_the_lessons_and_end_at_the_reports_figures),
      cmocka_unit_test(every_catalogue_entry_has_a_source_and_sane_figures),
      cmocka_unit_test(the_runs_gpus_and_generations_are_the_catalogues),
      cmocka_unit_test(ring_figures_follow_nccls_topology_constants),
      cmocka_unit_test(issue_30s_gpus_are_priced_under_real_rules),
      cmocka_unit_test(four_bit_weights_keep_the_16_bit_peak_apart),
      cmocka_unit_test(eight_bit_weights_keep_the_16_bit_peak_apart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
