/* Achieved efficiency fitted to measured decode runs (the types in fit.h; `gpusplit fit`,
 * csrc/cli/cli_fit.c, reads the files and prints it).
 *
 * The fit (documented least squares; no libm):
 * 1. All-reduce start-up above NCCL's constants, by GPU generation: over NVIDIA's measured
 *    all-reduces (tests/measured, NCCL rows from 8 to 64 KiB on 2, 4 and 8 GPUs) the
 *    constant d that minimises the squared difference between measured and priced times
 *    (NCCL's rules, the catalogue GPU, the one-way ring bandwidth of runs_setting.c
 *    (gs_ring_one_way)): the mean difference, 0 if negative.
 * 2. For every engine's runs pooled (ANY_ENGINE), for each engine, and for either and a GPU
 *    generation, each with at least FIT_MIN_RUNS runs (an engine with fewer, or whose share
 *    lands on 1, is priced with every engine's pooled figures): the bandwidth share s and
 *    the fixed costs (a layer's, a step's, an all-reduce's start-up) that minimise
 *    sum of w_i ((predicted_i - measured_i) / measured_i)^2 over its runs, w_i being
 *    1 / (the runs of the same source in the group), so that every source counts alike
 *    (the runs README asks for this: S7 and S8 are most rows). The prediction is linear in
 *    the fixed costs for a given s, so s is searched on a grid of 0.01 from 0.20 to 1 and
 *    the costs solved in closed form for each (fit_bandwidth), rounded to 0.1 us.
 * 3. With those fixed, the FLOP/s share f that minimises the same sum over the first
 *    word's time of the runs that give ttft_ms, searched on a grid of 0.01 from 0.05 to 1.
 * The figures are printed rounded as they are used, so a model given them reproduces the
 * fit's predictions exactly. */
#include <stdlib.h>
#include <string.h>

#include "fit/fit.h"

/* The all-reduce systems the start-up is fitted on: a table of tests/measured, its NCCL
 * folder (source_dir) and the catalogue GPU, whose own link and generation (data/gpus.json)
 * price it (the Makefile's VALIDATE list). */
const fit_ar_system FIT_AR_SYSTEMS[FIT_AR_SYSTEM_COUNT] = {{"a100_sxm_nccl.csv", "nccl/2.27.3", "a100-80gb-sxm"},
                                                           {"h100_sxm_nccl.csv", "nccl/2.27.3", "h100-sxm"},
                                                           {"h200_sxm_nccl.csv", "nccl/2.26.2", "h200"},
                                                           {"b200_sxm_nccl.csv", "nccl/2.27.3", "b200"},
                                                           {"l40s_nccl.csv", "nccl/2.27.3", "l40s"}};
/* The sizes the start-up is fitted on: where the start-up, not the bandwidth, decides the
 * time (a decode step's messages: hidden x 2 bytes x words, 8 KiB for one word of a 4,096-wide
 * model); larger sizes measure the bandwidth, which the one-way table prices. */
#define AR_FROM 8192
#define AR_TO 65536
/* x to the nearest 1 / scale, as the decimal it prints as reads back (k / scale is the
 * double nearest that decimal; k x step would not be). */
static double round_to(double x, double scale) {
  double k = x * scale + 0.5;
  return (double)(long long)k / scale;
}

/* One system's rows of 8 to 64 KiB on 2, 4 and 8 GPUs: each one's measured time less the
 * priced one, summed (and squared) into its generation's. */
static int fit_system(const fit_ar_system *sy, const char *text, size_t len, double *sum, double *sq, ar_fit *out,
                      int *failure, gs_error *err) {
  gs_measured m;
  gs_gpu gpu;
  gs_link link;
  gs_hardware_text t;
  uint64_t gpus;
  size_t i, tables = 0;
  int gi;
  *failure = FIT_AR_GPU;
  if (gs_builtin_gpu(sy->gpu, &gpu, &t, err) != GS_OK || gs_builtin_link(t.link, &link, NULL, err) != GS_OK) return err->code;
  if ((gi = fit_gen_index(gs_gpu_generation(sy->gpu))) < 0) return gs_fail(err, GS_ERR_UNKNOWN, "generation", "has no measured all-reduces");
  link.bandwidth = gs_ring_one_way(&gpu, &link);
  for (gpus = 2; gpus <= 8; gpus *= 2) {
    /* a table with no rows at one GPU count is read at the others; one that does not
     * parse is refused, naming it, rather than fitted on nothing */
    if (gs_measured_csv_parse(text, len, sy->dir, gpus, &m, err) != GS_OK) {
      if (err->code == GS_ERR_UNKNOWN) continue;
      *failure = FIT_AR_TABLE;
      return err->code;
    }
    tables++;
    for (i = 0; i < m.count; i++) {
      gs_ring r;
      int protocol;
      double d;
      if (m.rows[i].bytes < AR_FROM || m.rows[i].bytes > AR_TO) continue;
      memset(&r, 0, sizeof r);
      r.gpus = gpus;
      r.servers = 1;
      r.intra = &link;
      r.arch = gpu.arch;
      r.nccl = GS_NCCL_AUTO;
      d = m.rows[i].time_us - gs_ring_allreduce(m.rows[i].bytes, &r, &protocol) * 1e6;
      sum[gi] += d;
      sq[gi] += d * d;
      out->rows[gi]++;
    }
  }
  *failure = FIT_AR_TABLE;
  if (!tables) return gs_fail(err, GS_ERR_MISSING, "table", "has no rows from %s on 2, 4 or 8 GPUs", sy->dir);
  return GS_OK;
}

int fit_allreduce(const char *const texts[], const size_t lens[], ar_fit *out, size_t *at, int *failure, gs_error *err) {
  double sum[FIT_GEN_COUNT] = {0}, sq[FIT_GEN_COUNT] = {0};
  size_t a;
  int rc;
  memset(out, 0, sizeof *out);
  for (a = 0; a < FIT_AR_SYSTEM_COUNT; a++) {
    *at = a;
    if ((rc = fit_system(&FIT_AR_SYSTEMS[a], texts[a], lens[a], sum, sq, out, failure, err)) != GS_OK) return rc;
  }
  for (a = 0; a < FIT_GEN_COUNT; a++) {
    double mean;
    if (!out->rows[a]) continue;
    mean = sum[a] / (double)out->rows[a];
    out->us[a] = mean > 0 ? round_to(mean, 10) : 0;
    /* the residuals' mean square about the fitted constant, reported as its square: the
     * fit needs no square root; rms_us holds the mean square (us^2) */
    out->rms_us[a] = sq[a] / (double)out->rows[a] - 2 * out->us[a] * mean + out->us[a] * out->us[a];
  }
  return GS_OK;
}

/* Runs the fit leaves out (they are priced and shown all the same): a mixture of experts
 * run with random or dummy weights for more than one word at once, whose router does not
 * pick experts as a trained one does (the runs README, S7: "Random weights may change MoE
 * routing"), so the bytes a step reads are not the model's. */
int fit_excluded(const priced_run *p) { return p->s.model.experts > 0 && p->run->random_weights && p->run->batch > 1; }

int fit_in_group(const priced_run *p, const char *engine, const char *generation) {
  return p->ok && !fit_excluded(p) && (strcmp(engine, ANY_ENGINE) == 0 || strcmp(p->s.engine, engine) == 0) && (strcmp(generation, "all") == 0 || strcmp(p->s.generation, generation) == 0);
}

/* Room kept at the end of a group's sources for " and 1024 more". */
#define MORE_ROOM 16

/* w_i = 1 / (runs of the same source in the group); sources gets their names, each whole,
 * as many as cap holds, then how many more there are. */
static size_t weigh(priced_run *p, size_t n, const char *engine, const char *generation, char *sources, size_t cap) {
  size_t i, j, count = 0, at = 0, more = 0;
  sources[0] = '\0';
  for (i = 0; i < n; i++) {
    size_t same = 0, first = 1;
    p[i].weight = 0;
    if (!fit_in_group(&p[i], engine, generation)) continue;
    count++;
    for (j = 0; j < n; j++)
      if (fit_in_group(&p[j], engine, generation) && strcmp(p[j].run->source, p[i].run->source) == 0) {
        same++;
        if (j < i) first = 0;
      }
    p[i].weight = 1.0 / (double)same;
    if (first && at + strlen(p[i].run->source) + 2 + MORE_ROOM < cap)
      at += (size_t)gs_format(sources + at, cap - at, "%s%s", at ? "," : "", p[i].run->source);
    else if (first) more++;
  }
  if (more) gs_format(sources + at, cap - at, "%s%zu more", at ? " and " : "", more);
  return count;
}

/* The prompts a serving benchmark's first word waits for. Its requests arrive together at
 * its concurrency (a closed loop: GenAI-Perf, vllm bench serve), and an engine prefills as
 * many whole prompts at once as its token budget a step holds; a prompt longer than the
 * budget is prefilled alone, in chunks. The budget is the engines' default: 8,192 tokens
 * (TensorRT-LLM's BuildConfig.max_num_tokens; vLLM's max_num_batched_tokens for its OpenAI
 * server on a GPU of 70 GB or more, vllm/engine/arg_utils.py). S8's NIM runs of 200-token
 * prompts wait longer as the concurrency grows (36, 166 and 581 ms at 1, 10 and 50 on
 * 4 H100s); S11's 20,000-token prompts at a concurrency of 8 wait for one. */
#define STEP_TOKEN_BUDGET 8192

static uint64_t serving_prompts(const gs_run *run, uint64_t concurrency) {
  uint64_t fit = run->input_tokens > 0 ? STEP_TOKEN_BUDGET / run->input_tokens : 1;
  return fit < 1 ? 1 : fit < concurrency ? fit : concurrency;
}

/* The run's time per word as the model gives it with e: a step; or, where the run's
 * itl_ms is derived from the end-to-end latency (prefill included), that latency over the
 * output tokens, (first word + (output - 1) x step) / output, as the run measured it.
 * With first_word, the time to the first word. */
static int derived(const priced_run *p) { return p->run->derived && p->run->input_tokens > 0 && p->run->output_tokens > 1; }

double fit_predict(const priced_run *p, const gs_efficiency *e, int first_word) {
  gs_plan plan = p->s.plan;
  gs_cost_result c;
  gs_error err;
  plan.efficiency = *e;
  /* a request's fixed cost is a server's: an offline or static-batch run pays none */
  if (!p->run->serving) plan.efficiency.request_us = 0;
  if (first_word || derived(p)) plan.prompt_tokens = p->run->input_tokens;
  if (first_word && p->run->serving) plan.words = serving_prompts(p->run, plan.words);
  if (gs_cost(&p->s.model, &p->s.gpu, &p->s.link, &plan, &c, &err) != GS_OK) return -1;
  if (first_word) return c.first_word;
  if (derived(p)) return (c.first_word + (double)(p->run->output_tokens - 1) * c.time.total) / (double)p->run->output_tokens;
  return c.time.total;
}

double fit_median(double *e, size_t n) {
  size_t i, j;
  if (n == 0) return 0;
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && e[j] < e[j - 1]; j--) {
      double t = e[j];
      e[j] = e[j - 1];
      e[j - 1] = t;
    }
  return n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

double fit_rel(double predicted, double measured) {
  double r = (predicted - measured) / measured;
  return r < 0 ? -r : r;
}

static int has_ttft(const priced_run *p) { return p->weight > 0 && p->run->ttft_ms > 0 && p->run->input_tokens > 0; }

/* Step 2: the bandwidth share s, the fixed cost a layer c and, where the group has runs on
 * more than one GPU, the start-up each all-reduce pays above NCCL's constants a, with the
 * FLOP/s share in f->e (used by the runs whose itl_ms includes the prefill). For a given s
 * the prediction is A_i + L_i c + R_i a, A_i being it with c = a = 0 and L_i, R_i its
 * change for a microsecond of each (a fixed cost is paid once a layer a step, and once in
 * the prefill, whose share of a derived itl_ms is 1 / output; an all-reduce start-up once
 * an all-reduce), so the c and a that minimise sum w_i ((A_i + L_i c + R_i a) / t_i - 1)^2
 * solve two normal equations (one, with a the generation's fit to NVIDIA's measured
 * all-reduces, when every run is on one GPU), each held to 0..1000 us. An engine's
 * all-reduce is its own kernel or NCCL's called from its step, so the bare nccl-tests
 * start-up does not bound it either way. */
/* The fixed costs: a layer's, an all-reduce's start-up, a step's. */
enum { FIXED_LAYER, FIXED_ALLREDUCE, FIXED_STEP, FIXED_COUNT };

typedef struct {
  double m[FIXED_COUNT][FIXED_COUNT], b[FIXED_COUNT];
} normal_sums;

/* Solves the normal equations over the costs in `use` (a bit each) by elimination; 0 when
 * they are singular. */
static int solve_subset(const normal_sums *n, unsigned use, double *x) {
  double a[FIXED_COUNT][FIXED_COUNT + 1];
  int idx[FIXED_COUNT], k = 0, i, j, r;
  for (i = 0; i < FIXED_COUNT; i++) {
    x[i] = 0;
    if (use & (1u << i)) idx[k++] = i;
  }
  for (i = 0; i < k; i++) {
    for (j = 0; j < k; j++) a[i][j] = n->m[idx[i]][idx[j]];
    a[i][k] = n->b[idx[i]];
  }
  for (i = 0; i < k; i++) {
    if (!(a[i][i] > 1e-12 * (n->m[idx[i]][idx[i]] > 0 ? n->m[idx[i]][idx[i]] : 1))) return 0;
    for (r = 0; r < k; r++) {
      double f;
      if (r == i) continue;
      f = a[r][i] / a[i][i];
      for (j = i; j <= k; j++) a[r][j] -= f * a[i][j];
    }
  }
  for (i = 0; i < k; i++) x[idx[i]] = a[i][k] / a[i][i];
  return 1;
}

/* The least-squares costs held to 0 or more: of every subset whose solution is all
 * non-negative, the one with the least sum (sum w (z - x.theta)^2, up to its constant). */
static void solve_fixed_costs(const normal_sums *n, unsigned allowed, double *costs) {
  double best = 0, x[FIXED_COUNT];
  unsigned use;
  int i, j, found = 0;
  for (i = 0; i < FIXED_COUNT; i++) costs[i] = 0;
  for (use = 1; use < (1u << FIXED_COUNT); use++) {
    double q = 0;
    int ok = (use & ~allowed) == 0 && solve_subset(n, use, x);
    for (i = 0; ok && i < FIXED_COUNT; i++) ok = x[i] >= 0;
    if (!ok) continue;
    for (i = 0; i < FIXED_COUNT; i++) {
      q -= 2 * x[i] * n->b[i];
      for (j = 0; j < FIXED_COUNT; j++) q += x[i] * n->m[i][j] * x[j];
    }
    if (!found || q < best) {
      best = q;
      found = 1;
      for (i = 0; i < FIXED_COUNT; i++) costs[i] = x[i];
    }
  }
}

/* The all-reduce start-up a run of the group is priced with: the group's own fit, else the
 * generation's (allreduce, or the run's own generation's for an all-generation group). */
static double run_allreduce(const fit_figure *f, double allreduce, const fit_result *fr, const priced_run *p) {
  if (f->allreduce_fitted) return f->e.allreduce_us;
  return allreduce >= 0 ? allreduce : fit_allreduce_for(fr, p->s.generation);
}

static double clamp_us(double us) { return us < 0 ? 0 : us > 100000 ? 100000 : round_to(us, 10); }

static void fit_bandwidth(priced_run *p, size_t n, double allreduce, const fit_result *fr, fit_figure *f) {
  double best = -1;
  int k;
  size_t i;
  for (k = 20; k <= 100; k++) {
    gs_efficiency e = f->e;
    normal_sums ns;
    double costs[FIXED_COUNT], sum = 0;
    unsigned allowed = 1u << FIXED_LAYER;
    uint64_t fewest = 0, most = 0;
    int fitted_a, priced = 1; /* priced: every run priced at this share (else it is no candidate) */
    memset(&ns, 0, sizeof ns);
    e.bandwidth_share = (double)k / 100;
    for (i = 0; i < n && priced; i++) {
      gs_efficiency z = e;
      double t, base, up[FIXED_COUNT], x[FIXED_COUNT], r;
      int a, b;
      if (p[i].weight == 0) continue;
      t = p[i].run->itl_ms * 1e-3;
      z.layer_us = z.allreduce_us = z.step_us = 0;
      base = fit_predict(&p[i], &z, 0);
      z.layer_us = 10;
      up[FIXED_LAYER] = fit_predict(&p[i], &z, 0);
      z.layer_us = 0;
      z.allreduce_us = 10;
      up[FIXED_ALLREDUCE] = fit_predict(&p[i], &z, 0);
      z.allreduce_us = 0;
      z.step_us = 10;
      up[FIXED_STEP] = fit_predict(&p[i], &z, 0);
      /* fit_predict's -1 (the model refused the run) is no time to put in the sums */
      for (a = 0; a < FIXED_COUNT; a++) priced = priced && base >= 0 && up[a] >= 0;
      if (!priced) break;
      for (a = 0; a < FIXED_COUNT; a++) x[a] = (up[a] - base) / 10 / t;
      r = 1 - base / t;
      if (x[FIXED_ALLREDUCE] != 0) allowed |= 1u << FIXED_ALLREDUCE;
      if (fewest == 0 || p[i].s.model.layers < fewest) fewest = p[i].s.model.layers;
      if (p[i].s.model.layers > most) most = p[i].s.model.layers;
      for (a = 0; a < FIXED_COUNT; a++) {
        ns.b[a] += p[i].weight * x[a] * r;
        for (b = 0; b < FIXED_COUNT; b++) ns.m[a][b] += p[i].weight * x[a] * x[b];
      }
    }
    if (!priced) continue;
    /* a step's cost and a layer's are told apart only by models of different depths */
    if (most > fewest) allowed |= 1u << FIXED_STEP;
    solve_fixed_costs(&ns, allowed, costs);
    fitted_a = (allowed >> FIXED_ALLREDUCE) & 1;
    e.layer_us = clamp_us(costs[FIXED_LAYER]);
    e.step_us = clamp_us(costs[FIXED_STEP]);
    e.allreduce_us = fitted_a ? clamp_us(costs[FIXED_ALLREDUCE]) : 0;
    for (i = 0; i < n && priced; i++) {
      double r, y;
      if (p[i].weight == 0) continue;
      if (!fitted_a) e.allreduce_us = allreduce >= 0 ? allreduce : fit_allreduce_for(fr, p[i].s.generation);
      if ((y = fit_predict(&p[i], &e, 0)) < 0) priced = 0;
      r = y / (p[i].run->itl_ms * 1e-3) - 1;
      sum += p[i].weight * r * r;
    }
    if (priced && (best < 0 || sum < best)) {
      best = sum;
      f->e.bandwidth_share = e.bandwidth_share;
      f->e.layer_us = e.layer_us;
      f->e.step_us = e.step_us;
      f->allreduce_fitted = fitted_a;
      if (fitted_a) f->e.allreduce_us = e.allreduce_us;
    }
  }
}

/* Whether a run's first word is computed, not read: with the group's figures so far, its
 * prefill at 0.99 of the FLOP/s takes longer than at all of them. A prefill bound by reading
 * the weights (S2's prompts of one token, 32 to 64 at once) does not depend on the share,
 * and fitting the share to it only lowers it until computing takes the time of whatever
 * else the run waited for (LMDeploy's share came out 0.08). */
static int compute_bound(const priced_run *p, const gs_efficiency *so_far) {
  gs_efficiency e = *so_far;
  double full;
  e.request_us = 0;
  e.flops_share = 1;
  full = fit_predict(p, &e, 1);
  e.flops_share = 0.99;
  return fit_predict(p, &e, 1) > full;
}

/* Step 3: the FLOP/s share f over the runs that give ttft_ms and whose prefill is computed,
 * not read (compute_bound), searched on a grid of 0.01 from 0.05 to 1, and with it a served
 * request's fixed cost c over every served run: for a given f the first word
 * is P_i + c on a serving run and P_i on another, so the c that minimises
 * sum w_i ((P_i + c) / t_i - 1)^2 over the serving runs is sum w (t - P) / t^2 over
 * sum w / t^2, held to 0..0.1 s; the serving runs tell c from f apart only when their
 * prefills differ in tokens. When fewer than FIT_MIN_RUNS runs give a computed first word (as
 * for a group's figures: a share fitted to two first words carries their two settings), or no two
 * served ones differ, for c, the fallback's: the engine's own over every generation, or the
 * pooled engines' (a prefill and a server measured somewhere, not the data sheet's peak and
 * nothing). */
static void fit_flops(priced_run *p, size_t n, double allreduce, const fit_result *fr, fit_figure *f, const gs_efficiency *fallback) {
  double first[GS_RUNS_MAX];
  int informs[GS_RUNS_MAX]; /* the run's first word is computed (compute_bound) */
  size_t computed = 0;
  double best = -1;
  uint64_t fewest = 0, most = 0; /* the serving runs' prefill tokens */
  int k;
  size_t i;
  f->ttft_runs = 0;
  for (i = 0; i < n; i++) {
    uint64_t tokens;
    gs_efficiency so_far = f->e;
    informs[i] = 0;
    if (!has_ttft(&p[i])) continue;
    so_far.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
    informs[i] = compute_bound(&p[i], &so_far);
    computed += (size_t)informs[i];
    f->ttft_runs++;
    if (!p[i].run->serving) continue;
    tokens = p[i].run->input_tokens * serving_prompts(p[i].run, p[i].s.plan.words);
    if (fewest == 0 || tokens < fewest) fewest = tokens;
    if (tokens > most) most = tokens;
  }
  if (computed < FIT_MIN_RUNS) {
    f->e.flops_share = fallback->flops_share;
    f->e.request_us = fallback->request_us;
    return;
  }
  for (k = 5; k <= 100; k++) {
    gs_efficiency e = f->e;
    double sum = 0, over = 0, under = 0;
    e.flops_share = (double)k / 100;
    e.request_us = 0;
    for (i = 0; i < n; i++) {
      double t;
      if (!has_ttft(&p[i])) continue;
      e.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
      first[i] = fit_predict(&p[i], &e, 1);
      t = p[i].run->ttft_ms * 1e-3;
      if (p[i].run->serving && most > fewest) {
        over += p[i].weight * (t - first[i]) / (t * t);
        under += p[i].weight / (t * t);
      }
    }
    e.request_us = under > 0 ? clamp_us(over / under * 1e6) : fallback->request_us;
    for (i = 0; i < n; i++) {
      double r;
      if (!informs[i]) continue;
      r = (first[i] + (p[i].run->serving ? e.request_us * 1e-6 : 0)) / (p[i].run->ttft_ms * 1e-3) - 1;
      sum += p[i].weight * r * r;
    }
    if (best < 0 || sum < best) {
      best = sum;
      f->e.flops_share = e.flops_share;
      f->e.request_us = e.request_us;
    }
  }
}

/* Steps 2 and 3 for one group, twice: the runs whose itl_ms includes the prefill need
 * the FLOP/s share, and the first word needs the bandwidth share. */
static void fit_group(priced_run *p, size_t n, const fit_result *fr, fit_figure *f, const gs_efficiency *fallback) {
  double errs[GS_RUNS_MAX];
  double allreduce = strcmp(f->generation, "all") == 0 ? -1 : fit_allreduce_for(fr, f->generation);
  int round;
  size_t i, m;
  f->runs = weigh(p, n, f->engine, f->generation, f->sources, sizeof f->sources);
  memset(&f->e, 0, sizeof f->e);
  f->allreduce_fitted = 0;
  f->left_out_error = -1; /* until fit_note_left_out measures it */
  f->e.flops_share = fallback->flops_share;
  f->e.request_us = fallback->request_us;
  for (round = 0; round < 2; round++) {
    fit_bandwidth(p, n, allreduce, fr, f);
    fit_flops(p, n, allreduce, fr, f, fallback);
  }
  if (!f->allreduce_fitted) f->e.allreduce_us = allreduce >= 0 ? allreduce : 0;
  for (i = 0, m = 0; i < n; i++) {
    gs_efficiency e = f->e;
    if (p[i].weight == 0) continue;
    e.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
    errs[m++] = fit_rel(fit_predict(&p[i], &e, 0), p[i].run->itl_ms * 1e-3);
  }
  f->median_error = fit_median(errs, m);
  for (i = 0, m = 0; i < n; i++) {
    gs_efficiency e = f->e;
    if (!has_ttft(&p[i]) || f->e.flops_share == 0) continue;
    e.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
    errs[m++] = fit_rel(fit_predict(&p[i], &e, 1), p[i].run->ttft_ms * 1e-3);
  }
  f->ttft_median_error = fit_median(errs, m);
  f->ttft_errors = m;
}

/* An engine with no figures of its own (fewer than FIT_MIN_RUNS runs, or a share fitted at
 * the grid's top): it keeps its runs and sources, and how far off every engine's pooled
 * figures (on each run's generation, as gs_efficiency_pick gives them) are on them; e is the
 * pooled all-generation figures. */
static void pool_engine(priced_run *p, size_t n, const fit_result *fr, fit_figure *f) {
  double errs[GS_RUNS_MAX], first[GS_RUNS_MAX];
  size_t i, m = 0, k = 0;
  f->runs = weigh(p, n, f->engine, f->generation, f->sources, sizeof f->sources);
  f->e = fr->f[0].e;
  f->allreduce_fitted = fr->f[0].allreduce_fitted;
  f->left_out_error = -1;
  f->pooled = 1;
  f->ttft_runs = 0;
  for (i = 0; i < n; i++) {
    gs_efficiency e;
    if (p[i].weight == 0 || !gs_efficiency_pick(fr, ANY_ENGINE, p[i].s.generation, &e)) continue;
    errs[m++] = fit_rel(fit_predict(&p[i], &e, 0), p[i].run->itl_ms * 1e-3);
    if (!has_ttft(&p[i]) || e.flops_share == 0) continue;
    first[k++] = fit_rel(fit_predict(&p[i], &e, 1), p[i].run->ttft_ms * 1e-3);
    f->ttft_runs++;
  }
  f->median_error = fit_median(errs, m);
  f->ttft_median_error = fit_median(first, k);
  f->ttft_errors = k;
}

static int has_engine(const fit_result *fr, const char *engine) {
  size_t i;
  for (i = 0; i < fr->count; i++)
    if (strcmp(fr->f[i].engine, engine) == 0) return 1;
  return 0;
}

/* Prices every run; the skipped keep why. */
size_t fit_price_runs(const gs_runs *runs, priced_run *p) {
  size_t i, ok = 0;
  for (i = 0; i < runs->count; i++) {
    p[i].run = &runs->rows[i];
    p[i].ok = fit_run_setting(&runs->rows[i], &p[i].s, p[i].why, sizeof p[i].why);
    ok += (size_t)p[i].ok;
  }
  return ok;
}

/* The fitted runs on each generation whose time takes an all-reduce (it grows with the
 * start-up, as fit_bandwidth tells the runs that inform one): a generation with none has
 * nothing of its own to tell a start-up by (gs_efficiency_pick). */
static void count_startup_runs(const priced_run *p, size_t n, fit_result *fr) {
  size_t i;
  for (i = 0; i < n; i++) {
    gs_efficiency z = {0};
    double base;
    int g;
    if (!p[i].ok || fit_excluded(&p[i]) || (g = gs_generation_index(p[i].s.generation)) < 0) continue;
    base = fit_predict(&p[i], &z, 0);
    z.allreduce_us = 10;
    if (base >= 0 && fit_predict(&p[i], &z, 0) > base) fr->startup_runs[g]++;
  }
}

/* The mean of predicted over measured time per word with an engine's all-generation
 * figures, over every run the fit uses, whatever its engine. */
static double mean_ratio(const priced_run *p, size_t n, const fit_result *fr, const fit_figure *f) {
  double sum = 0;
  size_t i, m = 0;
  for (i = 0; i < n; i++) {
    gs_efficiency e = f->e;
    if (!p[i].ok || fit_excluded(&p[i])) continue;
    e.allreduce_us = run_allreduce(f, -1, fr, &p[i]);
    sum += fit_predict(&p[i], &e, 0) / (p[i].run->itl_ms * 1e-3);
    m++;
  }
  return m ? sum / (double)m : 0;
}

int fit_runs(const gs_runs *runs, priced_run *p, fit_result *fr, gs_error *err) {
  size_t i, j, e_count, own;
  double shares[MAX_GROUPS], speed[MAX_GROUPS];
  const gs_efficiency peaks = {0}; /* the pooled group's fallback: the sheet's peaks, no server */
  ar_fit ar = fr->ar; /* kept */
  memset(fr, 0, sizeof *fr);
  fr->ar = ar;
  if (fit_price_runs(runs, p) == 0) return gs_fail(err, GS_ERR_NONE_FITS, "runs", "no run has a model and GPU the catalogue knows");
  count_startup_runs(p, runs->count, fr);
  /* every engine's runs pooled (ANY_ENGINE): the figures when no engine is named, and the
   * FLOP/s share of an engine no run of which gives ttft_ms */
  gs_format(fr->f[0].engine, sizeof fr->f[0].engine, "%s", ANY_ENGINE);
  gs_format(fr->f[0].generation, sizeof fr->f[0].generation, "all");
  fit_group(p, runs->count, fr, &fr->f[0], &peaks);
  fr->count = 1;
  for (i = 0; i < runs->count && fr->count < MAX_GROUPS; i++) {
    fit_figure *f = &fr->f[fr->count];
    if (!p[i].ok || has_engine(fr, p[i].s.engine)) continue;
    gs_format(f->engine, sizeof f->engine, "%s", p[i].s.engine);
    gs_format(f->generation, sizeof f->generation, "all");
    if (weigh(p, runs->count, f->engine, f->generation, f->sources, sizeof f->sources) < FIT_MIN_RUNS) f->pooled = 1;
    else fit_group(p, runs->count, fr, f, &fr->f[0].e);
    /* a share at the grid's top, as below: its runs do not tell the bandwidth from the fixed
     * costs apart, and the engine has no figures of its own */
    if (f->e.bandwidth_share >= 1) f->pooled = 1;
    fr->count++;
  }
  e_count = fr->count;
  /* engine and generation, where the runs allow (an engine with no figures of its own is
   * priced with every engine's pooled, whatever its generation) */
  for (i = 0; i < e_count; i++) {
    int g;
    if (fr->f[i].pooled) continue;
    for (g = 0; g < GS_GENERATION_COUNT && fr->count < MAX_GROUPS; g++) {
      const char *gen = GS_GENERATIONS[g];
      size_t n = 0;
      for (j = 0; j < runs->count; j++) n += (size_t)fit_in_group(&p[j], fr->f[i].engine, gen);
      if (n < FIT_MIN_RUNS || n == fr->f[i].runs) continue;
      gs_format(fr->f[fr->count].engine, sizeof fr->f[0].engine, "%s", fr->f[i].engine);
      gs_format(fr->f[fr->count].generation, sizeof fr->f[0].generation, "%s", gen);
      fit_group(p, runs->count, fr, &fr->f[fr->count], &fr->f[i].e);
      /* a share at the grid's top, all of the bandwidth, says these runs do not tell the
       * bandwidth from the fixed costs apart: the engine's all-generation figures stand */
      if (fr->f[fr->count].e.bandwidth_share >= 1) continue;
      fr->count++;
    }
  }
  /* an engine with no figures of its own, once the pooled figures of every generation are
   * there */
  for (i = 1; i < e_count; i++)
    if (fr->f[i].pooled) pool_engine(p, runs->count, fr, &fr->f[i]);
  /* the median engine: of those with figures of their own, the one whose all-generation
   * figures price the fitted runs in the middle of the engines' (each engine's mean of
   * predicted over measured time on every run the fit uses, sorted; the lower of two middle
   * ones); every engine pooled when none has */
  gs_format(fr->median_engine, sizeof fr->median_engine, "%s", ANY_ENGINE);
  for (i = 1, own = 0; i < e_count; i++)
    if (!fr->f[i].pooled) shares[own++] = speed[i] = mean_ratio(p, runs->count, fr, &fr->f[i]);
  fit_median(shares, own);
  for (i = 1; own && i < e_count; i++)
    if (!fr->f[i].pooled && speed[i] == shares[(own - 1) / 2]) {
      gs_format(fr->median_engine, sizeof fr->median_engine, "%s", fr->f[i].engine);
      break;
    }
  return GS_OK;
}

