/* A ring all-reduce's time, by the lesson's rule or by NCCL's own cost model.
 *
 * NCCL's model is read from NVIDIA/nccl src/graph/tuning.cc at v2.30.7-1 (master
 * 5067397, 2026-06-11; the 2.31 refactor moves the same tables to src/tuning/
 * cost_model.cc): ncclTunerConstantsDefaults for the tables, ncclTopoTuneModel for the
 * ring's latency and bandwidth, ncclTopoGetAlgoTime for the time, and src/enqueue.cc's
 * topoGetAlgoInfo, which takes the cheapest. Ring only: NCCL also scores Tree, NVLS and
 * CollNet, which may beat it; they are left out. */
#include "internal.h"

/* baseLatencies[Ring] and hwLatencies[kind][Ring] (and [NET][Tree] for one GPU a
 * server), microseconds, by protocol LL, LL128, Simple (tuning.cc lines 148-176). */
static const double STEP_US[3][3] = {{0.6, 1.9, 3.4},   /* NVLink */
                                     {1.0, 2.5, 5.7},   /* PCI */
                                     {2.7, 4.0, 14.0}}; /* NET */

#ifndef GS_LESSON_ONLY
static const double BASE_US[3] = {6.6, 14.0, 8.4};
static const double NET_TREE_STEP_US[3] = {5.0, 8.5, 14.0};

/* llMaxBws, GB/s, the LL protocol's cap on a ring's bus bandwidth: on one server by GPU
 * generation, across servers by CPU vendor, of which we take Intel's row (tuning.cc
 * 177-183, indexed as in lines 263-276), for 1, 2 and 3 or more servers. */
static const double LL_MAX_GBPS[5][3] = {{0, 0, 0},            /* none: refused earlier */
                                         {39.0, 39.0, 20.4},   /* Volta */
                                         {87.7, 39.0, 20.4},   /* Ampere */
                                         {141.0, 39.0, 20.4},  /* Hopper */
                                         {282.0, 39.0, 20.4}}; /* Blackwell */

/* NCCL's post overhead for each step of a ring that crosses servers, on an Intel host
 * (getNetOverhead: 1 us; Simple pays it 3 times). */
static const double NET_OVERHEAD_US = 1.0;

#endif

double gs_nccl_ll_step_us(int kind) { return STEP_US[kind][GS_PROTO_LL]; }

const char *gs_protocol_name(int protocol) {
  return protocol == GS_PROTO_LL         ? "LL"
         : protocol == GS_PROTO_LL128    ? "LL128"
         : protocol == GS_PROTO_SIMPLE   ? "Simple"
         : protocol == GS_PROTO_MEASURED ? "measured"
                                         : "none";
}

double gs_ring_steps(uint64_t gpus) { return (double)(2 * (gpus - 1)); }
double gs_ring_startup_us(const gs_link *l, uint64_t gpus) { return l->base_us + gs_ring_steps(gpus) * l->step_us; }
double gs_ring_sent_share(uint64_t gpus) { return gs_ring_steps(gpus) / (double)gpus; }

/* The steps of a ring over `servers` servers that cross from one to the next: 2(N - 1)
 * for an all-reduce (tuning.cc: nInterSteps). */
static double crossing_steps(uint64_t servers) { return servers > 1 ? (double)(2 * (servers - 1)) : 0; }

/* The lesson's rule, extended across servers as NCCL's tuning does for rings that cross:
 * the crossing steps pay the network link's step latency, and the ring moves at its
 * slowest link. On one server it is the lesson's startup + 2(n-1)/n x size / bandwidth. */
static double lesson_time(uint64_t size, const gs_ring *r) {
  double steps = gs_ring_steps(r->gpus), startup, bandwidth = r->intra->bandwidth;
  if (r->servers <= 1) {
    startup = gs_ring_startup_us(r->intra, r->gpus) * 1e-6;
  } else {
    double crossing = crossing_steps(r->servers);
    startup = (r->intra->base_us + (steps - crossing) * r->intra->step_us + crossing * r->between->step_us) * 1e-6;
    if (r->between->bandwidth < bandwidth) bandwidth = r->between->bandwidth;
  }
  return startup + gs_ring_sent_share(r->gpus) * (double)size / bandwidth;
}

#ifndef GS_LESSON_ONLY
/* NCCL's estimate for one protocol, or -1 when NCCL would not use it. The bus bandwidth
 * is the ring's slowest link: NCCL's topology search finds it as channels x bandwidth a
 * channel, which a calculator cannot run; it then halves it for LL (capped by llMaxBws),
 * takes 0.92 of it for LL128 (the per-channel cap is left out, since it needs the channel
 * count) and all of it for Simple. LL128 is on only over NVLink (tuning.cc 518-536). The
 * time is latency + size / (busBw x n / (2(n - 1))), as ncclTopoGetAlgoTime has it;
 * its "plateau" factor for Simple across servers, which also needs the channel count, is
 * left out. */
static double protocol_time(uint64_t size, const gs_ring *r, int p) {
  double steps = gs_ring_steps(r->gpus), crossing = crossing_steps(r->servers), latency, bus, intra_step;
  uint64_t column = r->servers <= 1 ? 0 : r->servers == 2 ? 1 : 2;
  if (p == GS_PROTO_LL128 && r->intra->kind != GS_LINK_NVLINK) return -1;
  intra_step = STEP_US[r->intra->kind][p];
  latency = BASE_US[p];
  bus = r->intra->bandwidth;
  if (r->servers > 1) {
    double overhead = p == GS_PROTO_SIMPLE ? 3 * NET_OVERHEAD_US : NET_OVERHEAD_US;
    double inter_step = (r->gpus == r->servers ? NET_TREE_STEP_US : STEP_US[GS_LINK_NET])[p];
    if (intra_step < overhead) intra_step = overhead;
    latency += crossing * inter_step;
    if (r->between->bandwidth < bus) bus = r->between->bandwidth;
  }
  latency += (steps - crossing) * intra_step;
  if (p == GS_PROTO_LL) {
    double cap = LL_MAX_GBPS[r->arch][column] * 1e9;
    bus = bus * 0.5 < cap ? bus * 0.5 : cap;
  } else if (p == GS_PROTO_LL128) {
    bus = bus * 0.92;
  }
  return latency * 1e-6 + (double)size / (bus * (double)r->gpus / steps);
}

#endif

/* The start-up a real engine pays above the tables' (gs_efficiency.allreduce_us, fitted
 * to NVIDIA's measured all-reduces by gpusplit fit); 0 adds nothing. */
static double extra(const gs_ring *r, double t) { return r->extra_us > 0 ? t + r->extra_us * 1e-6 : t; }

static double ring_time(uint64_t size, const gs_ring *r, int *protocol);

#ifndef GS_LESSON_ONLY
/* Whether the ring's measured table reaches it: one server, and a count from the table's
 * fewest to its most (nccl-tests ran on one server only; no row says what crossing to
 * another costs, nor what more GPUs than were measured cost). */
static int measured_reach(const gs_ring *r) {
  const gs_allreduce_table *t = r->measured;
  return r->nccl == GS_NCCL_AUTO && t && t->counts && t->sizes >= 2 && r->servers <= 1 && r->gpus >= t->gpus[0] &&
         r->gpus <= t->gpus[t->counts - 1];
}

/* One count's measured time for size bytes, microseconds: linear between the two sizes
 * measured around it; below the smallest, the smallest's (a message of a few bytes still
 * pays the whole start-up, which the smallest rows show as flat); above the largest, the
 * line through the two largest, where the time is bytes over the ring's bandwidth. */
static double measured_at(const gs_allreduce_table *t, size_t c, uint64_t size) {
  size_t i = 1;
  double lo, hi;
  if (size <= t->bytes[0]) return t->us[c][0];
  while (i < t->sizes - 1 && t->bytes[i] < size) i++;
  lo = (double)t->bytes[i - 1];
  hi = (double)t->bytes[i];
  return t->us[c][i - 1] + ((double)size - lo) / (hi - lo) * (t->us[c][i] - t->us[c][i - 1]);
}

/* Seconds from the table: at a measured count, its row; between two, linear in the count
 * (a ring's start-up grows with its 2(n - 1) steps, its bytes a GPU sends barely). */
static double measured_time(uint64_t size, const gs_ring *r) {
  const gs_allreduce_table *t = r->measured;
  size_t c = 0;
  double a, b;
  while (t->gpus[c] < r->gpus) c++;
  if (t->gpus[c] == r->gpus) return measured_at(t, c, size) * 1e-6;
  a = measured_at(t, c - 1, size);
  b = measured_at(t, c, size);
  return (a + (double)(r->gpus - t->gpus[c - 1]) / (double)(t->gpus[c] - t->gpus[c - 1]) * (b - a)) * 1e-6;
}
#endif

double gs_ring_allreduce(uint64_t size, const gs_ring *r, int *protocol) {
  *protocol = GS_PROTO_NONE;
  if (r->gpus <= 1) return 0.0;
#ifndef GS_LESSON_ONLY
  /* the measured time is NCCL's start-up and bandwidth both, as an engine's NCCL meets
   * them: nothing fitted is added to it */
  if (measured_reach(r)) {
    *protocol = GS_PROTO_MEASURED;
    return measured_time(size, r);
  }
#endif
  return extra(r, ring_time(size, r, protocol));
}

static double ring_time(uint64_t size, const gs_ring *r, int *protocol) {
  if (r->nccl != GS_NCCL_AUTO) {
    *protocol = GS_PROTO_LL;
    return lesson_time(size, r);
  }
#ifdef GS_LESSON_ONLY
  return -1; /* gs_plan_check refuses auto in the lesson's module */
#else
  {
    double best = -1;
    int p;
    /* the first strictly cheapest, as topoGetAlgoInfo keeps it */
    for (p = GS_PROTO_LL; p <= GS_PROTO_SIMPLE; p++) {
      double t = protocol_time(size, r, p);
      if (t >= 0 && (best < 0 || t < best)) {
        best = t;
        *protocol = p;
      }
    }
    return best;
  }
#endif
}
