/* Achieved efficiency fitted to measured decode runs (for `gpusplit fit`, csrc/cli/cli_fit.c),
 * picked for a report (cli_efficiency, from data/efficiency.json), and the decode table of
 * `gpusplit validate --runs`: helpers that call no command.
 *
 * The fit (documented least squares; no libm):
 * 1. All-reduce start-up above NCCL's constants, by GPU generation: over NVIDIA's measured
 *    all-reduces (tests/measured, NCCL rows from 8 to 64 KiB on 2, 4 and 8 GPUs) the
 *    constant d that minimises the squared difference between measured and priced times
 *    (NCCL's rules, the catalogue GPU, the one-way ring bandwidth of runs_setting.c (gs_ring_one_way)): the mean
 *    difference, 0 if negative.
 * 2. For each engine (and each engine and GPU generation with at least FIT_MIN_RUNS runs),
 *    the bandwidth share s and the fixed cost a layer c that minimise
 *    sum of w_i ((predicted_i - measured_i) / measured_i)^2 over its runs, w_i being
 *    1 / (the runs of the same source in the group), so that every source counts alike
 *    (the runs README asks for this: S7 and S8 are most rows). The prediction is linear
 *    in c for a given s, so s is searched on a grid of 0.01 from 0.20 to 1 and c solved in
 *    closed form for each (weighted least squares of one unknown, held to 0..1000 us and
 *    rounded to 0.1 us); the pair with the least sum wins.
 * 3. With s and c fixed, the FLOP/s share f that minimises the same sum over the first
 *    word's time of the runs that give ttft_ms, searched on a grid of 0.01 from 0.05 to 1.
 * The figures are printed rounded as they are used, so a model given them reproduces the
 * fit's predictions exactly. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"

#define FIT_MIN_RUNS 6
/* The engine name of every engine's runs pooled, the figures when none is named. */
#define ANY_ENGINE "any"
#define MAX_GROUPS 64

typedef struct {
  const gs_run *run;
  cli_run_setting_t s;
  int ok;
  char why[160];
  double weight; /* within the group being fitted */
} priced_run;

/* The all-reduce systems the start-up is fitted on: a table of tests/measured, its NCCL
 * folder (source_dir) and the catalogue GPU and link (the Makefile's VALIDATE list). */
typedef struct {
  const char *file, *dir, *gpu, *link, *generation;
} ar_system;

static const ar_system AR_SYSTEMS[] = {{"a100_sxm_nccl.csv", "nccl/2.27.3", "a100-80gb-sxm", "nvlink3", "ampere"},
                                       {"h100_sxm_nccl.csv", "nccl/2.27.3", "h100-sxm", "nvlink4", "hopper"},
                                       {"h200_sxm_nccl.csv", "nccl/2.26.2", "h200", "nvlink4", "hopper"},
                                       {"b200_sxm_nccl.csv", "nccl/2.27.3", "b200", "nvlink5", "blackwell"},
                                       {"l40s_nccl.csv", "nccl/2.27.3", "l40s", "pcie4", "ada"}};
/* The sizes the start-up is fitted on: where the start-up, not the bandwidth, decides the
 * time (a decode step's messages: hidden x 2 bytes x words, 8 KiB for one word of a 4,096-wide
 * model); larger sizes measure the bandwidth, which the one-way table prices. */
#define AR_FROM 8192
#define AR_TO 65536
static const char *const GENERATIONS[] = {"ampere", "ada", "hopper", "blackwell"};
#define GEN_COUNT 4

typedef struct {
  double us[GEN_COUNT];
  size_t rows[GEN_COUNT];
  double rms_us[GEN_COUNT];
} ar_fit;

static int gen_index(const char *g) {
  int i;
  for (i = 0; i < GEN_COUNT; i++)
    if (strcmp(GENERATIONS[i], g) == 0) return i;
  return -1;
}

/* x to the nearest 1 / scale, as the decimal it prints as reads back (k / scale is the
 * double nearest that decimal; k x step would not be). */
static double round_to(double x, double scale) {
  double k = x * scale + 0.5;
  return (double)(long long)k / scale;
}

static int fit_allreduce(const char *dir, ar_fit *out) {
  double sum[GEN_COUNT] = {0}, sq[GEN_COUNT] = {0};
  size_t a;
  memset(out, 0, sizeof *out);
  for (a = 0; a < sizeof AR_SYSTEMS / sizeof AR_SYSTEMS[0]; a++) {
    const ar_system *sy = &AR_SYSTEMS[a];
    char path[1024], *text;
    size_t len, i;
    gs_gpu gpu;
    gs_link link;
    gs_error err;
    uint64_t gpus;
    int gi = gen_index(sy->generation), rc;
    snprintf(path, sizeof path, "%s/%s", dir, sy->file);
    if ((rc = cli_read_file(path, GS_MEASURED_MAX_BYTES, "a measured all-reduce table", &text, &len)) != CLI_OK) return rc;
    if (gs_builtin_gpu(sy->gpu, &gpu, NULL, &err) != GS_OK || gs_builtin_link(sy->link, &link, NULL, &err) != GS_OK) {
      free(text);
      return cli_bad("fit: %s: %s", sy->gpu, err.what);
    }
    link.bandwidth = cli_ring_one_way(sy->gpu, sy->link, link.bandwidth);
    for (gpus = 2; gpus <= 8; gpus *= 2) {
      static gs_measured m;
      if (gs_measured_csv_parse(text, len, sy->dir, gpus, &m, &err) != GS_OK) continue;
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
    free(text);
  }
  for (a = 0; a < GEN_COUNT; a++) {
    double mean;
    if (!out->rows[a]) continue;
    mean = sum[a] / (double)out->rows[a];
    out->us[a] = mean > 0 ? round_to(mean, 10) : 0;
    /* the residuals' mean square about the fitted constant, reported as its square: the
     * fit needs no square root; rms_us holds the mean square (us^2) */
    out->rms_us[a] = sq[a] / (double)out->rows[a] - 2 * out->us[a] * mean + out->us[a] * out->us[a];
  }
  return CLI_OK;
}

/* A group's figures. */
typedef struct {
  char engine[24], generation[16];
  gs_efficiency e;
  size_t runs, ttft_runs;
  char sources[128];
  double median_error, ttft_median_error; /* of |relative error|, with these figures */
  int allreduce_fitted; /* 1: e.allreduce_us fitted to the group's runs on several GPUs; 0: the
                           generation's fit to NVIDIA's measured all-reduces */
  double left_out_error; /* an engine's (all generations): the median |relative error| of its runs
                            priced with a fit that left their source out; -1: not measured */
} fit_figure;

typedef struct fit_result_s {
  fit_figure f[MAX_GROUPS];
  size_t count;
  char median_engine[24];
  ar_fit ar;
} fit_result;

static int read_efficiency(const char *text, size_t len, fit_result *fr, gs_error *err);

/* A run's errors when its source is left out of the fit (left_out_errors, below). */
typedef struct {
  double own, any, peak, first;
} left_out_error;
static int left_out_errors(const gs_runs *runs, const priced_run *p, const ar_fit *ar, left_out_error *out);
static void note_left_out(const gs_runs *runs, const priced_run *p, const left_out_error *e, fit_result *fr);

static double allreduce_for(const fit_result *fr, const char *generation) {
  int gi = gen_index(generation);
  return gi >= 0 ? fr->ar.us[gi] : 0;
}

/* Runs the fit leaves out (they are priced and shown all the same): a mixture of experts
 * run with random or dummy weights for more than one word at once, whose router does not
 * pick experts as a trained one does (the runs README, S7: "Random weights may change MoE
 * routing"), so the bytes a step reads are not the model's. */
static int fit_excluded(const priced_run *p) { return p->s.model.experts > 0 && p->run->random_weights && p->run->batch > 1; }

static int in_group(const priced_run *p, const char *engine, const char *generation) {
  return p->ok && !fit_excluded(p) && (strcmp(engine, ANY_ENGINE) == 0 || strcmp(p->s.engine, engine) == 0) && (strcmp(generation, "all") == 0 || strcmp(p->s.generation, generation) == 0);
}

/* w_i = 1 / (runs of the same source in the group). */
static size_t weigh(priced_run *p, size_t n, const char *engine, const char *generation, char *sources, size_t cap) {
  size_t i, j, count = 0, at = 0;
  sources[0] = '\0';
  for (i = 0; i < n; i++) {
    size_t same = 0, first = 1;
    p[i].weight = 0;
    if (!in_group(&p[i], engine, generation)) continue;
    count++;
    for (j = 0; j < n; j++)
      if (in_group(&p[j], engine, generation) && strcmp(p[j].run->source, p[i].run->source) == 0) {
        same++;
        if (j < i) first = 0;
      }
    p[i].weight = 1.0 / (double)same;
    if (first && at + strlen(p[i].run->source) + 2 < cap)
      at += (size_t)snprintf(sources + at, cap - at, "%s%s", at ? "," : "", p[i].run->source);
  }
  return count;
}

/* The run's time per word as the model gives it with e: a step; or, where the run's
 * itl_ms is derived from the end-to-end latency (prefill included), that latency over the
 * output tokens, (first word + (output - 1) x step) / output, as the run measured it.
 * With first_word, the time to the first word. */
static int derived(const priced_run *p) { return p->run->derived && p->run->input_tokens > 0 && p->run->output_tokens > 1; }

static double predict(const priced_run *p, const gs_efficiency *e, int first_word) {
  gs_plan plan = p->s.plan;
  gs_cost_result c;
  gs_error err;
  plan.efficiency = *e;
  if (first_word || derived(p)) plan.prompt_tokens = p->run->input_tokens;
  /* a serving benchmark's requests arrive one by one: a first word waits for its own
   * prompt's prefill, not for a batch of them */
  if (first_word && p->run->serving) plan.words = 1;
  if (gs_cost(&p->s.model, &p->s.gpu, &p->s.link, &plan, &c, &err) != GS_OK) return -1;
  if (first_word) return c.first_word;
  if (derived(p)) return (c.first_word + (double)(p->run->output_tokens - 1) * c.time.total) / (double)p->run->output_tokens;
  return c.time.total;
}

static double median_abs(double *e, size_t n) {
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

static double rel(double predicted, double measured) {
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
  return allreduce >= 0 ? allreduce : allreduce_for(fr, p->s.generation);
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
    int fitted_a;
    memset(&ns, 0, sizeof ns);
    e.bandwidth_share = (double)k / 100;
    for (i = 0; i < n; i++) {
      gs_efficiency z = e;
      double t, base, x[FIXED_COUNT], r;
      int a, b;
      if (p[i].weight == 0) continue;
      t = p[i].run->itl_ms * 1e-3;
      z.layer_us = z.allreduce_us = z.step_us = 0;
      base = predict(&p[i], &z, 0);
      z.layer_us = 10;
      x[FIXED_LAYER] = (predict(&p[i], &z, 0) - base) / 10 / t;
      z.layer_us = 0;
      z.allreduce_us = 10;
      x[FIXED_ALLREDUCE] = (predict(&p[i], &z, 0) - base) / 10 / t;
      z.allreduce_us = 0;
      z.step_us = 10;
      x[FIXED_STEP] = (predict(&p[i], &z, 0) - base) / 10 / t;
      r = 1 - base / t;
      if (x[FIXED_ALLREDUCE] != 0) allowed |= 1u << FIXED_ALLREDUCE;
      if (fewest == 0 || p[i].s.model.layers < fewest) fewest = p[i].s.model.layers;
      if (p[i].s.model.layers > most) most = p[i].s.model.layers;
      for (a = 0; a < FIXED_COUNT; a++) {
        ns.b[a] += p[i].weight * x[a] * r;
        for (b = 0; b < FIXED_COUNT; b++) ns.m[a][b] += p[i].weight * x[a] * x[b];
      }
    }
    /* a step's cost and a layer's are told apart only by models of different depths */
    if (most > fewest) allowed |= 1u << FIXED_STEP;
    solve_fixed_costs(&ns, allowed, costs);
    fitted_a = (allowed >> FIXED_ALLREDUCE) & 1;
    e.layer_us = clamp_us(costs[FIXED_LAYER]);
    e.step_us = clamp_us(costs[FIXED_STEP]);
    e.allreduce_us = fitted_a ? clamp_us(costs[FIXED_ALLREDUCE]) : 0;
    for (i = 0; i < n; i++) {
      double r;
      if (p[i].weight == 0) continue;
      if (!fitted_a) e.allreduce_us = allreduce >= 0 ? allreduce : allreduce_for(fr, p[i].s.generation);
      r = predict(&p[i], &e, 0) / (p[i].run->itl_ms * 1e-3) - 1;
      sum += p[i].weight * r * r;
    }
    if (best < 0 || sum < best) {
      best = sum;
      f->e.bandwidth_share = e.bandwidth_share;
      f->e.layer_us = e.layer_us;
      f->e.step_us = e.step_us;
      f->allreduce_fitted = fitted_a;
      if (fitted_a) f->e.allreduce_us = e.allreduce_us;
    }
  }
}

/* Step 3: the FLOP/s share over the runs that give ttft_ms; when none do, fallback: the
 * engine's own over every generation, or for an engine with none the median of the
 * engines' that have one (a prefill measured somewhere, not the data sheet's peak). */
static void fit_flops(priced_run *p, size_t n, double allreduce, const fit_result *fr, fit_figure *f, double fallback) {
  double best = -1;
  int k;
  size_t i;
  f->ttft_runs = 0;
  for (i = 0; i < n; i++) f->ttft_runs += (size_t)has_ttft(&p[i]);
  if (f->ttft_runs == 0) {
    f->e.flops_share = fallback;
    return;
  }
  for (k = 5; k <= 100; k++) {
    gs_efficiency e = f->e;
    double sum = 0;
    e.flops_share = (double)k / 100;
    for (i = 0; i < n; i++) {
      double r;
      if (!has_ttft(&p[i])) continue;
      e.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
      r = predict(&p[i], &e, 1) / (p[i].run->ttft_ms * 1e-3) - 1;
      sum += p[i].weight * r * r;
    }
    if (best < 0 || sum < best) {
      best = sum;
      f->e.flops_share = e.flops_share;
    }
  }
}

/* Steps 2 and 3 for one group, twice: the runs whose itl_ms includes the prefill need
 * the FLOP/s share, and the first word needs the bandwidth share. */
static void fit_group(priced_run *p, size_t n, const fit_result *fr, fit_figure *f, double flops_fallback) {
  static double errs[GS_RUNS_MAX];
  double allreduce = strcmp(f->generation, "all") == 0 ? -1 : allreduce_for(fr, f->generation);
  int round;
  size_t i, m;
  f->runs = weigh(p, n, f->engine, f->generation, f->sources, sizeof f->sources);
  memset(&f->e, 0, sizeof f->e);
  f->allreduce_fitted = 0;
  f->left_out_error = -1; /* until note_left_out measures it */
  f->e.flops_share = flops_fallback;
  for (round = 0; round < 2; round++) {
    fit_bandwidth(p, n, allreduce, fr, f);
    fit_flops(p, n, allreduce, fr, f, flops_fallback);
  }
  if (!f->allreduce_fitted) f->e.allreduce_us = allreduce >= 0 ? allreduce : 0;
  for (i = 0, m = 0; i < n; i++) {
    gs_efficiency e = f->e;
    if (p[i].weight == 0) continue;
    e.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
    errs[m++] = rel(predict(&p[i], &e, 0), p[i].run->itl_ms * 1e-3);
  }
  f->median_error = median_abs(errs, m);
  for (i = 0, m = 0; i < n; i++) {
    gs_efficiency e = f->e;
    if (!has_ttft(&p[i]) || f->e.flops_share == 0) continue;
    e.allreduce_us = run_allreduce(f, allreduce, fr, &p[i]);
    errs[m++] = rel(predict(&p[i], &e, 1), p[i].run->ttft_ms * 1e-3);
  }
  f->ttft_median_error = median_abs(errs, m);
}

static int has_engine(const fit_result *fr, const char *engine) {
  size_t i;
  for (i = 0; i < fr->count; i++)
    if (strcmp(fr->f[i].engine, engine) == 0) return 1;
  return 0;
}

/* Prices every run; the skipped keep why. */
static size_t price_runs(const gs_runs *runs, priced_run *p) {
  size_t i, ok = 0;
  for (i = 0; i < runs->count; i++) {
    p[i].run = &runs->rows[i];
    p[i].ok = cli_run_setting(&runs->rows[i], &p[i].s, p[i].why, sizeof p[i].why);
    ok += (size_t)p[i].ok;
  }
  return ok;
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
    sum += predict(&p[i], &e, 0) / (p[i].run->itl_ms * 1e-3);
    m++;
  }
  return m ? sum / (double)m : 0;
}

static int cli_fit_runs(const gs_runs *runs, const char *allreduce_dir, priced_run *p, fit_result *fr) {
  size_t i, j, e_count;
  int rc;
  double shares[MAX_GROUPS], speed[MAX_GROUPS];
  ar_fit ar = fr->ar; /* kept when allreduce_dir is NULL */
  memset(fr, 0, sizeof *fr);
  fr->ar = ar;
  if (allreduce_dir && (rc = fit_allreduce(allreduce_dir, &fr->ar)) != CLI_OK) return rc;
  if (price_runs(runs, p) == 0) return cli_bad("fit: no run has a model and GPU the catalogue knows");
  /* every engine's runs pooled (ANY_ENGINE): the figures when no engine is named, and the
   * FLOP/s share of an engine no run of which gives ttft_ms */
  snprintf(fr->f[0].engine, sizeof fr->f[0].engine, "%s", ANY_ENGINE);
  snprintf(fr->f[0].generation, sizeof fr->f[0].generation, "all");
  fit_group(p, runs->count, fr, &fr->f[0], 0);
  fr->count = 1;
  for (i = 0; i < runs->count && fr->count < MAX_GROUPS; i++) {
    if (!p[i].ok || has_engine(fr, p[i].s.engine)) continue;
    snprintf(fr->f[fr->count].engine, sizeof fr->f[0].engine, "%s", p[i].s.engine);
    snprintf(fr->f[fr->count].generation, sizeof fr->f[0].generation, "all");
    fit_group(p, runs->count, fr, &fr->f[fr->count], fr->f[0].e.flops_share);
    fr->count++;
  }
  e_count = fr->count;
  /* engine and generation, where the runs allow */
  for (i = 0; i < e_count; i++) {
    int g;
    for (g = 0; g < GEN_COUNT + 1 && fr->count < MAX_GROUPS; g++) {
      const char *gen = g < GEN_COUNT ? GENERATIONS[g] : "cdna3";
      size_t n = 0;
      for (j = 0; j < runs->count; j++) n += (size_t)in_group(&p[j], fr->f[i].engine, gen);
      if (n < FIT_MIN_RUNS || n == fr->f[i].runs) continue;
      snprintf(fr->f[fr->count].engine, sizeof fr->f[0].engine, "%s", fr->f[i].engine);
      snprintf(fr->f[fr->count].generation, sizeof fr->f[0].generation, "%s", gen);
      fit_group(p, runs->count, fr, &fr->f[fr->count], fr->f[i].e.flops_share);
      /* a share at the grid's top, all of the bandwidth, says these runs do not tell the
       * bandwidth from the fixed costs apart: the engine's all-generation figures stand */
      if (fr->f[fr->count].e.bandwidth_share >= 1) continue;
      fr->count++;
    }
  }
  /* the median engine: the one whose all-generation figures price the fitted runs in the
   * middle of the engines' (each engine's mean of predicted over measured time on every
   * run the fit uses, sorted; the lower of two middle ones) */
  for (i = 1; i < e_count; i++) shares[i - 1] = speed[i] = mean_ratio(p, runs->count, fr, &fr->f[i]);
  median_abs(shares, e_count - 1);
  for (i = 1; i < e_count; i++)
    if (speed[i] == shares[(e_count - 2) / 2]) {
      snprintf(fr->median_engine, sizeof fr->median_engine, "%s", fr->f[i].engine);
      break;
    }
  return CLI_OK;
}

/* The figures for an engine ("" for every engine pooled, "median" for the median engine)
 * on a GPU generation: the engine's own for that generation, else its all-generation ones
 * with that generation's all-reduce start-up. NULL when the engine has none. */
static const fit_figure *cli_fit_pick(const fit_result *fr, const char *engine, const char *generation, gs_efficiency *out) {
  const fit_figure *all = NULL;
  size_t i;
  if (!engine[0]) engine = ANY_ENGINE;
  else if (strcmp(engine, "median") == 0) engine = fr->median_engine;
  for (i = 0; i < fr->count; i++) {
    if (strcmp(fr->f[i].engine, engine) != 0) continue;
    if (strcmp(fr->f[i].generation, generation) == 0) {
      *out = fr->f[i].e;
      return &fr->f[i];
    }
    if (strcmp(fr->f[i].generation, "all") == 0) all = &fr->f[i];
  }
  if (!all) return NULL;
  *out = all->e;
  if (!all->allreduce_fitted) out->allreduce_us = allreduce_for(fr, generation);
  return all;
}

static void json_str_field(const char *key, const char *v, int comma) {
  printf("%s\"%s\":", comma ? "," : "", key);
  cli_json_string(stdout, v);
}

/* 15 significant digits: every figure is rounded to 0.1 or 0.01 (round_to), so the text
 * reads back as the same double, through the JSON reader's exact decimals. */
static void json_num_field(const char *key, double v) {
  char buf[40];
  printf(",\"%s\":%s", key, gs_plain(buf, sizeof buf, v));
}

static void print_run_line(const priced_run *p, const gs_efficiency *e) {
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP];
  gs_efficiency off = {0};
  double peak = predict(p, &off, 0), fitted = predict(p, e, 0), t = p->run->itl_ms * 1e-3;
  printf("%-6s %-28.28s %-15s %-10s %-6s %4llu %3llu %9s %9s %9s %7s%%", p->run->id, p->s.model_key, p->s.gpu_key, p->s.engine,
         p->run->source, (unsigned long long)p->run->batch, (unsigned long long)p->s.plan.gpus, gs_fixed(a, sizeof a, peak * 1e3, 2),
         gs_fixed(b, sizeof b, fitted * 1e3, 2), gs_fixed(c, sizeof c, t * 1e3, 2), gs_fixed(d, sizeof d, (fitted - t) / t * 100, 1));
  if (p->run->ttft_ms > 0 && p->run->input_tokens > 0 && e->flops_share > 0) {
    double fw = predict(p, e, 1), m = p->run->ttft_ms * 1e-3;
    printf("  first word %s ms, measured %s ms, %s%%", gs_fixed(a, sizeof a, fw * 1e3, 1), gs_fixed(b, sizeof b, m * 1e3, 1),
           gs_fixed(c, sizeof c, (fw - m) / m * 100, 1));
  }
  printf("\n");
}

static void print_fit(const gs_runs *runs, const priced_run *p, const fit_result *fr, int json) {
  size_t i, ok = 0, g;
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], f[GS_FIGURE_CAP];
  for (i = 0; i < runs->count; i++) ok += (size_t)p[i].ok;
  if (json) {
    printf("{\"_source\":\"gpusplit fit: achieved efficiency fitted to measured decode runs, least squares of relative error "
           "with each source weighted alike (csrc/cli/cli_fit.c); the all-reduce start-up above NCCL's constants fitted to "
           "NVIDIA's measured all-reduces (tests/measured). Each figure names the runs it was fitted on.\",");
    printf("\"runs\":%zu,\"priced\":%zu,\"median_engine\":", runs->count, ok);
    cli_json_string(stdout, fr->median_engine);
    printf(",\"allreduce\":[");
    for (g = 0, i = 0; g < GEN_COUNT; g++) {
      if (!fr->ar.rows[g]) continue;
      printf("%s{", i++ ? "," : "");
      json_str_field("generation", GENERATIONS[g], 0);
      json_num_field("allreduce_us", fr->ar.us[g]);
      printf(",\"rows\":%zu", fr->ar.rows[g]);
      json_num_field("mean_square_us2", fr->ar.rms_us[g]);
      printf("}");
    }
    printf("],\"figures\":[");
    for (g = 0; g < fr->count; g++) {
      const fit_figure *x = &fr->f[g];
      size_t k, n = 0;
      printf("%s{", g ? "," : "");
      json_str_field("engine", x->engine, 0);
      json_str_field("generation", x->generation, 1);
      json_num_field("bandwidth_share", x->e.bandwidth_share);
      json_num_field("layer_us", x->e.layer_us);
      json_num_field("flops_share", x->e.flops_share);
      json_num_field("allreduce_us", x->e.allreduce_us);
      json_num_field("step_us", x->e.step_us);
      json_str_field("allreduce_from", x->allreduce_fitted ? "runs" : "nccl-tests", 1);
      printf(",\"runs\":%zu,\"ttft_runs\":%zu", x->runs, x->ttft_runs);
      json_str_field("sources", x->sources, 1);
      json_num_field("median_error", x->median_error);
      if (x->left_out_error >= 0) json_num_field("left_out_error", x->left_out_error);
      else printf(",\"left_out_error\":null");
      json_num_field("ttft_median_error", x->ttft_median_error);
      printf(",\"ids\":\"");
      for (k = 0; k < runs->count; k++)
        if (in_group(&p[k], x->engine, x->generation)) printf("%s%s", n++ ? "," : "", p[k].run->id);
      printf("\"}");
    }
    printf("],\"skipped\":[");
    for (i = 0, g = 0; i < runs->count; i++) {
      if (p[i].ok) continue;
      printf("%s{", g++ ? "," : "");
      json_str_field("id", p[i].run->id, 0);
      json_str_field("why", p[i].why, 1);
      printf("}");
    }
    printf("]}\n");
    return;
  }
  printf("Runs: %zu read, %zu priced, %zu skipped\n", runs->count, ok, runs->count - ok);
  printf("\nAll-reduce start-up above NCCL's constants (tests/measured, 8 to 64 KiB, 2-8 GPUs):\n");
  for (g = 0; g < GEN_COUNT; g++)
    if (fr->ar.rows[g]) printf("  %-10s %s us  (%zu rows)\n", GENERATIONS[g], gs_fixed(a, sizeof a, fr->ar.us[g], 1), fr->ar.rows[g]);
  printf("\nEfficiency (least squares of relative error, each source weighted alike); median engine: %s\n", fr->median_engine);
  printf("%-10s %-10s %5s %9s %9s %9s %6s %10s %6s %10s  %s\n", "engine", "generation", "runs", "bandwidth", "layer us",
         "step us", "flops", "allreduce", "error", "1st error", "sources");
  for (g = 0; g < fr->count; g++) {
    const fit_figure *x = &fr->f[g];
    char st[GS_FIGURE_CAP];
    char fe[GS_FIGURE_CAP + 1];
    if (x->ttft_runs) snprintf(fe, sizeof fe, "%s%%", gs_fixed(f, sizeof f, x->ttft_median_error * 100, 1));
    else snprintf(fe, sizeof fe, "-");
    printf("%-10s %-10s %5zu %9s %9s %9s %6s %10s %5s%% %10s  %s\n", x->engine, x->generation, x->runs,
           gs_fixed(a, sizeof a, x->e.bandwidth_share, 2), gs_fixed(b, sizeof b, x->e.layer_us, 1), gs_fixed(st, sizeof st, x->e.step_us, 1),
           x->e.flops_share > 0 ? gs_fixed(c, sizeof c, x->e.flops_share, 2) : "-",
           strcmp(x->generation, "all") || x->allreduce_fitted ? gs_fixed(d, sizeof d, x->e.allreduce_us, 1) : "by gen",
           gs_fixed(e, sizeof e, x->median_error * 100, 1), fe, x->sources);
  }
  printf("\n%-6s %-28s %-15s %-10s %-6s %4s %3s %9s %9s %9s %8s\n", "id", "model", "gpu", "engine", "source", "batch", "n",
         "peak ms", "fitted ms", "measured", "error");
  for (i = 0; i < runs->count; i++) {
    gs_efficiency eff;
    if (!p[i].ok) continue;
    if (!cli_fit_pick(fr, p[i].s.engine, p[i].s.generation, &eff)) continue;
    print_run_line(&p[i], &eff);
  }
  printf("\nSkipped:\n");
  for (i = 0; i < runs->count; i++)
    if (!p[i].ok) {
      printf("  %s: ", p[i].run->id);
      cli_put_text(stdout, p[i].why);
      printf("\n");
    }
}

/* Reads a runs file into memory the caller frees. */
int cli_read_runs(const char *path, gs_runs **out) {
  char *text;
  size_t len;
  gs_error err;
  int rc;
  gs_runs *runs = malloc(sizeof *runs);
  if (!runs) return cli_bad("%s: out of memory", path);
  if ((rc = cli_read_file(path, GS_RUNS_MAX_BYTES, "a runs file", &text, &len)) != CLI_OK) {
    free(runs);
    return rc;
  }
  rc = gs_runs_parse(text, len, runs, &err);
  free(text);
  if (rc != GS_OK) {
    free(runs);
    return cli_bad_error(path, &err);
  }
  *out = runs;
  return CLI_OK;
}

int cli_fit_file(const char *path, const char *allreduce_dir, int json) {
  gs_runs *runs;
  priced_run *p;
  fit_result *fr;
  left_out_error *e;
  int rc;
  if ((rc = cli_read_runs(path, &runs)) != CLI_OK) return rc;
  p = calloc(runs->count, sizeof *p);
  e = calloc(runs->count, sizeof *e);
  fr = malloc(sizeof *fr);
  if (!p || !e || !fr) rc = cli_bad("fit: out of memory");
  else if ((rc = cli_fit_runs(runs, allreduce_dir, p, fr)) == CLI_OK) {
    /* how far off each engine's figures are on runs of a source the fit left out; a file of
     * one source says nothing of that */
    if (left_out_errors(runs, p, &fr->ar, e) == CLI_OK) note_left_out(runs, p, e, fr);
    print_fit(runs, p, fr, json);
  }
  free(p);
  free(e);
  free(fr);
  free(runs);
  return rc;
}

/* data/efficiency.json (this command's --json on the shared runs), embedded in the program
 * by the Makefile (build/efficiency_file.c), back into a fit_result. */
extern const char GS_DATA_efficiency_json[];

static int text_of(const gs_json *j, int object, const char *key, char *buf, size_t cap, gs_error *err) {
  int at = gs_json_find(j, object, key);
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, key, "is missing");
  if (j->toks[at].type != JSMN_STRING || gs_json_string(j, at, buf, cap) == (size_t)-1)
    return gs_fail(err, GS_ERR_TYPE, key, "must be a string of under %zu bytes", cap);
  return GS_OK;
}

static int number_of(const gs_json *j, int object, const char *key, double *out, gs_error *err) {
  int at = gs_json_find(j, object, key);
  if (at < 0) return gs_fail(err, GS_ERR_MISSING, key, "is missing");
  return gs_json_number(j, at, key, out, err);
}

static int read_efficiency(const char *text, size_t len, fit_result *fr, gs_error *err) {
  static jsmntok_t toks[GS_JSON_TOKENS];
  gs_json j;
  int rc, list, at, i;
  memset(fr, 0, sizeof *fr);
  if ((rc = gs_json_parse(text, len, toks, GS_JSON_TOKENS, &j, err)) != GS_OK) return rc;
  if ((rc = text_of(&j, 0, "median_engine", fr->median_engine, sizeof fr->median_engine, err)) != GS_OK) return rc;
  if ((list = gs_json_find(&j, 0, "allreduce")) < 0 || toks[list].type != JSMN_ARRAY)
    return gs_fail(err, GS_ERR_MISSING, "allreduce", "must be an array");
  for (i = 0, at = list + 1; i < toks[list].size; i++, at = gs_json_next(&j, at)) {
    char gen[16];
    double us;
    int g;
    if ((rc = text_of(&j, at, "generation", gen, sizeof gen, err)) != GS_OK || (rc = number_of(&j, at, "allreduce_us", &us, err)) != GS_OK)
      return rc;
    if ((g = gen_index(gen)) < 0) return gs_fail(err, GS_ERR_RANGE, "generation", "'%s' is not one the fit knows", gen);
    fr->ar.us[g] = us;
    fr->ar.rows[g] = 1;
  }
  if ((list = gs_json_find(&j, 0, "figures")) < 0 || toks[list].type != JSMN_ARRAY)
    return gs_fail(err, GS_ERR_MISSING, "figures", "must be an array");
  for (i = 0, at = list + 1; i < toks[list].size && fr->count < MAX_GROUPS; i++, at = gs_json_next(&j, at)) {
    fit_figure *f = &fr->f[fr->count];
    double runs;
    char from[16];
    int lo;
    if ((rc = text_of(&j, at, "engine", f->engine, sizeof f->engine, err)) != GS_OK ||
        (rc = text_of(&j, at, "generation", f->generation, sizeof f->generation, err)) != GS_OK ||
        (rc = text_of(&j, at, "sources", f->sources, sizeof f->sources, err)) != GS_OK ||
        (rc = number_of(&j, at, "bandwidth_share", &f->e.bandwidth_share, err)) != GS_OK ||
        (rc = number_of(&j, at, "layer_us", &f->e.layer_us, err)) != GS_OK ||
        (rc = number_of(&j, at, "flops_share", &f->e.flops_share, err)) != GS_OK ||
        (rc = number_of(&j, at, "allreduce_us", &f->e.allreduce_us, err)) != GS_OK ||
        (rc = number_of(&j, at, "step_us", &f->e.step_us, err)) != GS_OK ||
        (rc = number_of(&j, at, "median_error", &f->median_error, err)) != GS_OK ||
        (rc = number_of(&j, at, "runs", &runs, err)) != GS_OK)
      return rc;
    if ((rc = gs_efficiency_check(&f->e, err)) != GS_OK) return rc;
    if ((rc = text_of(&j, at, "allreduce_from", from, sizeof from, err)) != GS_OK) return rc;
    if (strcmp(from, "runs") != 0 && strcmp(from, "nccl-tests") != 0)
      return gs_fail(err, GS_ERR_RANGE, "allreduce_from", "must be runs or nccl-tests");
    f->allreduce_fitted = strcmp(from, "runs") == 0;
    f->left_out_error = -1;
    if ((lo = gs_json_find(&j, at, "left_out_error")) >= 0 && !gs_json_is_null(&j, lo) &&
        (rc = gs_json_number(&j, lo, "left_out_error", &f->left_out_error, err)) != GS_OK)
      return rc;
    f->runs = (size_t)runs;
    fr->count++;
  }
  return GS_OK;
}

/* The figures of the embedded data/efficiency.json, or of a fit to the user's runs file;
 * the engine ("": every engine pooled; "median": the median engine) on the GPU's generation. Prints why not
 * and returns CLI_BAD_INPUT; *picked names what was taken. */
/* The figures for engine ("" the median) on the GPU's generation, said in picked; NULL
 * when the fit has none. */
static const fit_figure *pick_engine(const fit_result *fr, const char *engine, const char *gpu_key, gs_efficiency *out,
                                     char *picked, size_t cap) {
  const char *generation = cli_gpu_generation(gpu_key);
  const fit_figure *f;
  double left_out = -1;
  size_t i;
  char off[96] = "; not tested on a source the fit left out";
  if (!generation[0]) generation = "all";
  if (!(f = cli_fit_pick(fr, engine, generation, out))) return NULL;
  /* how far off the engine's figures are on sources the fit left out (gpusplit fit) */
  for (i = 0; i < fr->count; i++)
    if (strcmp(fr->f[i].engine, f->engine) == 0 && strcmp(fr->f[i].generation, "all") == 0) left_out = fr->f[i].left_out_error;
  if (left_out >= 0) {
    char pct_text[GS_FIGURE_CAP];
    snprintf(off, sizeof off, "; %s%% off on sources left out of the fit", gs_fixed(pct_text, sizeof pct_text, left_out * 100, 1));
  }
  snprintf(picked, cap, "%s%s %s%s (fitted on %zu run%s of %s%s)", f->engine,
           !engine[0] ? " (every engine's runs pooled, the default)" : strcmp(engine, "median") == 0 ? ", the median engine," : "",
           strcmp(f->generation, "all") ? "on " : "over every GPU generation", strcmp(f->generation, "all") ? f->generation : "",
           f->runs, f->runs == 1 ? "" : "s", f->sources, off);
  return f;
}

int cli_efficiency_quiet(const char *engine, const char *gpu_key, gs_efficiency *out, char *picked, size_t cap, int *found) {
  fit_result *fr = malloc(sizeof *fr);
  gs_error err;
  int rc = CLI_FAILED;
  if (!fr) return CLI_FAILED;
  *found = 0;
  /* the built-in figures unreadable is this build's failure (exit 1), never the peaks */
  if (read_efficiency(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), fr, &err) != GS_OK)
    fprintf(stderr, "gpusplit: data/efficiency.json (built in): %s: %s\n", err.field, err.what);
  else {
    *found = pick_engine(fr, engine ? engine : "", gpu_key, out, picked, cap) != NULL;
    rc = CLI_OK;
  }
  free(fr);
  return rc;
}

int cli_efficiency(const char *runs_path, const char *engine, const char *gpu_key, gs_efficiency *out, char *picked, size_t cap) {
  fit_result *fr = malloc(sizeof *fr);
  int rc = CLI_OK;
  if (!fr) return cli_bad("--engine: out of memory");
  if (runs_path) {
    gs_runs *runs;
    priced_run *p;
    if ((rc = cli_read_runs(runs_path, &runs)) != CLI_OK) {
      free(fr);
      return rc;
    }
    gs_error err;
    p = calloc(runs->count, sizeof *p);
    /* the all-reduce start-up is data/efficiency.json's (NVIDIA's measured all-reduces) */
    if (read_efficiency(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), fr, &err) != GS_OK)
      rc = cli_bad("data/efficiency.json: %s: %s", err.field, err.what);
    else rc = p ? cli_fit_runs(runs, NULL, p, fr) : cli_bad("--efficiency-from: out of memory");
    free(p);
    free(runs);
  } else {
    gs_error err;
    if (read_efficiency(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), fr, &err) != GS_OK)
      rc = cli_bad("data/efficiency.json: %s: %s", err.field, err.what);
  }
  if (rc == CLI_OK) {
    if (!engine) engine = "";
    if (!pick_engine(fr, engine, gpu_key, out, picked, cap)) {
      char names[512];
      size_t i, at = 0;
      names[0] = '\0';
      for (i = 0; i < fr->count && at < sizeof names; i++)
        if (strcmp(fr->f[i].generation, "all") == 0 && strcmp(fr->f[i].engine, ANY_ENGINE) != 0)
          at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", fr->f[i].engine);
      rc = cli_bad("--engine: no figures for '%s' (engines: %s, or median; any: every engine pooled)", engine, names);
    }
  }
  free(fr);
  return rc;
}

/* `gpusplit validate --runs FILE`: each run the catalogue can price, predicted at the peaks,
 * with the figures of its engine (data/efficiency.json) and with the median engine's (as
 * when no engine is given), against the measured time; medians by source and by GPU. */
typedef struct {
  char key[64];
  double e[GS_RUNS_MAX], n[GS_RUNS_MAX], f[GS_RUNS_MAX], k[GS_RUNS_MAX];
  size_t ne, nn, nf, nk;
} err_bucket;

static err_bucket *bucket(err_bucket *b, size_t *count, size_t cap, const char *key) {
  size_t i;
  for (i = 0; i < *count; i++)
    if (strcmp(b[i].key, key) == 0) return &b[i];
  if (*count == cap) return NULL;
  memset(&b[*count], 0, sizeof b[0]);
  snprintf(b[*count].key, sizeof b[0].key, "%s", key);
  return &b[(*count)++];
}

static const char *pct(char *buf, size_t cap, double *e, size_t n) {
  char a[GS_FIGURE_CAP];
  if (n == 0) return "-";
  snprintf(buf, cap, "%s%% (%zu)", gs_fixed(a, sizeof a, median_abs(e, n) * 100, 1), n);
  return buf;
}

static void print_buckets(const char *title, err_bucket *b, size_t n) {
  size_t i;
  char w[64], x[64], y[64], z[64];
  printf("\n%-22s %14s %18s %18s %18s\n", title, "at the peaks", "engine given", "no engine", "first word");
  for (i = 0; i < n; i++)
    printf("%-22s %14s %18s %18s %18s\n", b[i].key, pct(w, sizeof w, b[i].k, b[i].nk), pct(x, sizeof x, b[i].e, b[i].ne),
           pct(y, sizeof y, b[i].n, b[i].nn), pct(z, sizeof z, b[i].f, b[i].nf));
}

int cli_validate_runs(const char *path, const char *fit_from) {
  static err_bucket sources[64], gpus[64], all[1];
  size_t ns = 0, ng = 0, na = 0, i;
  gs_runs *runs;
  priced_run *p;
  fit_result *fr;
  gs_error err;
  int rc;
  if ((rc = cli_read_runs(path, &runs)) != CLI_OK) return rc;
  p = calloc(runs->count, sizeof *p);
  fr = malloc(sizeof *fr);
  if (!p || !fr) rc = cli_bad("validate: out of memory");
  else if (read_efficiency(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), fr, &err) != GS_OK)
    rc = cli_bad("data/efficiency.json: %s: %s", err.field, err.what);
  else if (fit_from) {
    gs_runs *other;
    priced_run *q;
    if ((rc = cli_read_runs(fit_from, &other)) == CLI_OK) {
      q = calloc(other->count, sizeof *q);
      rc = q ? cli_fit_runs(other, NULL, q, fr) : cli_bad("validate: out of memory");
      free(q);
      free(other);
    }
  }
  if (rc != CLI_OK) {
    free(p);
    free(fr);
    free(runs);
    return rc;
  }
  price_runs(runs, p);
  printf("Decode runs of %s priced with the catalogue's model and GPU, a cache for each chat read at\n", path);
  printf("every step, NCCL's rules, servers of 8 and the one-way ring bandwidth; efficiency %s.\n",
         fit_from ? "fitted to the --efficiency-from runs" : "from data/efficiency.json");
  printf("%-6s %-16.16s %-14s %-10s %-5s %5s %3s %8s %8s %8s %9s %8s %8s %s\n", "id", "model", "gpu", "engine", "src", "batch", "n",
         "peak ms", "engine", "any", "measured", "error", "no eng.", "first word: predicted / measured ms, error");
  for (i = 0; i < runs->count; i++) {
    gs_efficiency own, med, off = {0};
    const fit_figure *f;
    double peak, with, without, t = p[i].run->itl_ms * 1e-3;
    char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP], c[GS_FIGURE_CAP], d[GS_FIGURE_CAP], e[GS_FIGURE_CAP], g[GS_FIGURE_CAP];
    err_bucket *bk[3];
    int k, has_own;
    if (!p[i].ok) continue;
    if (!cli_fit_pick(fr, "", p[i].s.generation, &med)) continue;
    has_own = (f = cli_fit_pick(fr, p[i].s.engine, p[i].s.generation, &own)) != NULL;
    if (!has_own) own = med;
    (void)f;
    peak = predict(&p[i], &off, 0);
    with = predict(&p[i], &own, 0);
    without = predict(&p[i], &med, 0);
    bk[0] = bucket(sources, &ns, 64, p[i].run->source);
    bk[1] = bucket(gpus, &ng, 64, p[i].s.gpu_key);
    bk[2] = bucket(all, &na, 1, "all");
    printf("%-6s %-16.16s %-14s %-10s %-5s %5llu %3llu %8s %8s %8s %9s %7s%% %7s%%", p[i].run->id, p[i].s.model_key, p[i].s.gpu_key,
           has_own ? p[i].s.engine : "(any)", p[i].run->source, (unsigned long long)p[i].run->batch,
           (unsigned long long)p[i].s.plan.gpus, gs_fixed(a, sizeof a, peak * 1e3, 2), gs_fixed(b, sizeof b, with * 1e3, 2),
           gs_fixed(c, sizeof c, without * 1e3, 2), gs_fixed(d, sizeof d, t * 1e3, 2), gs_fixed(e, sizeof e, (with - t) / t * 100, 1),
           gs_fixed(g, sizeof g, (without - t) / t * 100, 1));
    for (k = 0; k < 3; k++) {
      if (!bk[k]) continue;
      if (has_own) bk[k]->e[bk[k]->ne++] = rel(with, t);
      bk[k]->k[bk[k]->nk++] = rel(peak, t);
      bk[k]->n[bk[k]->nn++] = rel(without, t);
    }
    if (p[i].run->ttft_ms > 0 && p[i].run->input_tokens > 0) {
      double fw = predict(&p[i], &own, 1), m = p[i].run->ttft_ms * 1e-3;
      printf("  %s / %s, %s%%", gs_fixed(a, sizeof a, fw * 1e3, 1), gs_fixed(b, sizeof b, m * 1e3, 1), gs_fixed(c, sizeof c, (fw - m) / m * 100, 1));
      for (k = 0; k < 3; k++)
        if (bk[k]) bk[k]->f[bk[k]->nf++] = rel(fw, m);
    }
    if (fit_excluded(&p[i])) printf("  (left out of the fit: MoE with random weights)");
    printf("\n");
  }
  print_buckets("median |error| by source", sources, ns);
  print_buckets("by GPU", gpus, ng);
  print_buckets("all runs", all, na);
  printf("\nengine given: the run's engine's figures (runs whose engine has none are left out of that column);\n"
         "no engine: every engine's runs pooled (any; the median engine is %s); (n): runs. Skipped:\n", fr->median_engine);
  for (i = 0; i < runs->count; i++)
    if (!p[i].ok) {
      printf("  %s: ", p[i].run->id);
      cli_put_text(stdout, p[i].why);
      printf("\n");
    }
  free(p);
  free(fr);
  free(runs);
  return CLI_OK;
}

/* Runs never seen: for each source, the figures fitted again on every other source's runs
 * (the all-reduce start-up of fr kept), and that source's runs priced with them. For run i,
 * the |relative error| of its time per word with its engine's figures (own, -1 when the other
 * sources fit no such engine), with every engine's pooled (any), at the peaks, and of its
 * first word (first, -1 when it gives none). A run the fit leaves out or cannot price is -1
 * throughout. Fails when fewer than two sources are priced. */
static int left_out_errors(const gs_runs *runs, const priced_run *p, const ar_fit *ar, left_out_error *out) {
  char names[64][16];
  size_t i, s, nsrc = 0;
  gs_runs *rest = malloc(sizeof *rest);
  priced_run *q = calloc(runs->count, sizeof *q);
  fit_result *fr = malloc(sizeof *fr);
  int rc = CLI_OK;
  if (!rest || !q || !fr) rc = cli_bad("--leave-source-out: out of memory");
  for (i = 0; rc == CLI_OK && i < runs->count; i++) {
    out[i].own = out[i].any = out[i].peak = out[i].first = -1;
    if (!p[i].ok || fit_excluded(&p[i])) continue;
    for (s = 0; s < nsrc && strcmp(names[s], runs->rows[i].source) != 0; s++) continue;
    if (s == nsrc && nsrc < 64) snprintf(names[nsrc++], sizeof names[0], "%s", runs->rows[i].source);
  }
  if (rc == CLI_OK && nsrc < 2) rc = CLI_FAILED; /* no source can be left out: the caller says so */
  for (s = 0; rc == CLI_OK && s < nsrc; s++) {
    rest->count = 0;
    for (i = 0; i < runs->count; i++)
      if (strcmp(runs->rows[i].source, names[s]) != 0) rest->rows[rest->count++] = runs->rows[i];
    memset(fr, 0, sizeof *fr);
    fr->ar = *ar;
    if (cli_fit_runs(rest, NULL, q, fr) != CLI_OK) continue;
    for (i = 0; i < runs->count; i++) {
      gs_efficiency own, any, off = {0};
      double t = p[i].run->itl_ms * 1e-3;
      int has_own;
      if (!p[i].ok || fit_excluded(&p[i]) || strcmp(runs->rows[i].source, names[s]) != 0) continue;
      if (!cli_fit_pick(fr, "", p[i].s.generation, &any)) continue;
      has_own = cli_fit_pick(fr, p[i].s.engine, p[i].s.generation, &own) != NULL;
      out[i].any = rel(predict(&p[i], &any, 0), t);
      out[i].peak = rel(predict(&p[i], &off, 0), t);
      if (has_own) out[i].own = rel(predict(&p[i], &own, 0), t);
      if (p[i].run->ttft_ms > 0 && p[i].run->input_tokens > 0)
        out[i].first = rel(predict(&p[i], has_own ? &own : &any, 1), p[i].run->ttft_ms * 1e-3);
    }
  }
  free(rest);
  free(q);
  free(fr);
  return rc;
}

/* Each engine's left_out_error (and the pooled one's), from the runs' errors. */
static void note_left_out(const gs_runs *runs, const priced_run *p, const left_out_error *e, fit_result *fr) {
  static double errs[GS_RUNS_MAX];
  size_t g, i, m;
  for (g = 0; g < fr->count; g++) {
    fit_figure *f = &fr->f[g];
    int pooled = strcmp(f->engine, ANY_ENGINE) == 0;
    f->left_out_error = -1;
    if (strcmp(f->generation, "all") != 0) continue;
    for (i = 0, m = 0; i < runs->count; i++) {
      double x = pooled ? e[i].any : e[i].own;
      if (x >= 0 && (pooled || strcmp(p[i].s.engine, f->engine) == 0)) errs[m++] = x;
    }
    if (m) f->left_out_error = median_abs(errs, m);
  }
}

/* `gpusplit validate --runs FILE --leave-source-out`: how far off the fit is on runs it
 * never saw, from the file alone: medians by source left out and over all. */
int cli_validate_left_out(const char *path) {
  static err_bucket sources[64], all[1];
  size_t ns = 0, na = 0, i;
  gs_runs *runs;
  priced_run *p;
  fit_result *fr;
  left_out_error *e;
  gs_error err;
  int rc;
  if ((rc = cli_read_runs(path, &runs)) != CLI_OK) return rc;
  p = calloc(runs->count, sizeof *p);
  e = calloc(runs->count, sizeof *e);
  fr = malloc(sizeof *fr);
  if (!p || !e || !fr) rc = cli_bad("validate: out of memory");
  else if (read_efficiency(GS_DATA_efficiency_json, strlen(GS_DATA_efficiency_json), fr, &err) != GS_OK)
    rc = cli_bad("data/efficiency.json: %s: %s", err.field, err.what);
  if (rc == CLI_OK) {
    price_runs(runs, p);
    if ((rc = left_out_errors(runs, p, &fr->ar, e)) == CLI_FAILED)
      rc = cli_bad("validate: --leave-source-out needs runs of two sources or more");
  }
  if (rc == CLI_OK) {
    printf("Each source's runs of %s priced with figures fitted on the other sources' runs only.\n", path);
    for (i = 0; i < runs->count; i++) {
      err_bucket *bk[2];
      int k;
      if (e[i].any < 0) continue;
      bk[0] = bucket(sources, &ns, 64, runs->rows[i].source);
      bk[1] = bucket(all, &na, 1, "all");
      for (k = 0; k < 2; k++) {
        if (!bk[k]) continue;
        if (e[i].own >= 0) bk[k]->e[bk[k]->ne++] = e[i].own;
        bk[k]->n[bk[k]->nn++] = e[i].any;
        bk[k]->k[bk[k]->nk++] = e[i].peak;
        if (e[i].first >= 0) bk[k]->f[bk[k]->nf++] = e[i].first;
      }
    }
    print_buckets("source left out", sources, ns);
    print_buckets("all runs", all, na);
    printf("\nengine given: the run's engine's figures as the other sources fit them (a source whose engine\n"
           "no other source ran is left out of that column); no engine: the other sources' runs of every\n"
           "engine pooled; (n): runs.\n");
  }
  free(p);
  free(e);
  free(fr);
  free(runs);
  return rc;
}
