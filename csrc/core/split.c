/* A step's time as the split arranges it (gs_split_time): from one GPU's busy time and the
 * bytes one all-reduce moves, the all-reduces or hand-offs that follow, the fixed costs
 * and the share the first GPU waits. The decode step (step.c) and the prefill
 * (prefill.c) both end here. */
#include <string.h>

#include "internal.h"


/* The all-reduces of one step over `layers` layers, ar seconds each, two a layer. With
 * overlap each layer's pair hides behind the next layer's reading (read_per_layer), up to
 * its length; the last layer of each of the `groups` groups has no next layer to hide
 * behind. Without it they all wait, as in the lesson. */
static double allreduce_wait(uint64_t layers, uint64_t groups, double ar, double read_per_layer, int overlap) {
  double pair = (double)GS_ALL_REDUCES_PER_LAYER * ar, exposed;
  if (!overlap) return (double)(GS_ALL_REDUCES_PER_LAYER * layers) * ar;
  exposed = pair > read_per_layer ? pair - read_per_layer : 0;
  return (double)(layers - groups) * exposed + (double)groups * pair;
}


/* A step's busy time and its transfers as the split arranges them, from one GPU's busy
 * time (the longer of reading and computing) and the bytes one all-reduce moves:
 * - slices: one ring of all n GPUs, crossing servers when they span several;
 * - groups: n groups each read in turn and hand one message on n-1 times, the hand-offs
 *   between servers over the between link;
 * - slices-groups: on one server, slices; across servers, a group a server, sliced
 *   inside by a ring of that server's GPUs, handing on over the between link.
 * Each layer's fixed cost (gs_efficiency.layer_us) is paid once a layer a step, whoever
 * runs it; 0 adds nothing. */
void gs_split_time(const gs_model *m, const gs_gpu *g, const gs_link *l, const gs_plan *p, double busy, uint64_t size,
                   gs_time *time, double *swap, int *protocol) {
  uint64_t n = p->gpus, servers = gs_plan_servers(p);
  double fixed = (double)m->layers * p->efficiency.layer_us * 1e-6 + p->efficiency.step_us * 1e-6;
  double group_busy = 0, sent = 0; /* the first GPU's group's work, and the hand-off it sends */
  gs_ring ring;
  memset(&ring, 0, sizeof ring);
  ring.intra = l;
  ring.between = &p->between;
  ring.arch = g->arch;
  ring.nccl = p->nccl;
  ring.extra_us = p->efficiency.allreduce_us;
  ring.measured = p->measured;
  *protocol = GS_PROTO_NONE;
  if (p->split == GS_SLICES || (p->split == GS_SLICES_GROUPS && servers == 1)) {
    if (fixed > 0) busy += fixed;
    ring.gpus = n;
    ring.servers = servers;
#ifndef GS_LESSON_ONLY
    /* spread experts: a dispatch and a combine a MoE layer, each GPU sending its tokens k
     * times (size is its own tokens' message); no all-reduce (csrc/core/experts.c) */
    if (p->experts == GS_EXPERTS_SPREAD) {
      *swap = gs_all_to_all(size * m->experts_per_token, &ring, NULL, NULL);
      time->transfer = (double)(2 * m->moe_layers) * *swap;
      time->read = busy;
      return;
    }
#endif
    *swap = gs_ring_allreduce(size, &ring, protocol);
    time->transfer = allreduce_wait(m->layers, 1, *swap, busy / (double)m->layers, p->overlap);
    time->read = busy;
  } else if (p->split == GS_GROUPS) {
    *swap = gs_handoff_time(size, l);
    if (servers == 1) time->transfer = (double)(n - 1) * *swap;
    else time->transfer = (double)(n - servers) * *swap + (double)(servers - 1) * gs_handoff_time(size, &p->between);
    time->read = (double)n * busy;
    if (fixed > 0) time->read += fixed;
    /* the first GPU reads its turn (its layers' share of the fixed cost too) and hands on
     * once: within its server unless a server holds one GPU */
    group_busy = busy + (fixed > 0 ? fixed / (double)n : 0);
    if (n > 1) sent = p->per_server == 1 ? gs_handoff_time(size, &p->between) : *swap;
  } else { /* slices-groups across servers: servers groups of n / servers slices */
    double rings;
    ring.gpus = n / servers;
    ring.servers = 1;
    *swap = gs_ring_allreduce(size, &ring, protocol);
    time->read = (double)servers * busy;
    if (fixed > 0) time->read += fixed;
    rings = allreduce_wait(m->layers, servers, *swap, time->read / (double)m->layers, p->overlap);
    time->transfer = rings + (double)(servers - 1) * gs_handoff_time(size, &p->between);
    /* the first server's group reads its layers with their all-reduces, then hands on */
    group_busy = (time->read + rings) / (double)servers;
    sent = gs_handoff_time(size, &p->between);
  }
  /* the share of the step the first GPU neither reads, computes nor sends */
  if (group_busy > 0) {
    double total = time->read + time->transfer;
    time->idle = (total - group_busy - sent) / total;
  }
}
