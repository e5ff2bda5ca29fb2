/* The requests' figures as distributions: the mean, and the 50th, 90th and 99th
 * percentiles by linear interpolation between the closest ranks (numpy's default, which
 * `vllm bench serve` uses: np.percentile); the gaps between tokens pooled in exact bins. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* The p-th percentile of n sorted values: rank p/100 (n - 1), between its two neighbours. */
static double percentile(const double *sorted, size_t n, double p) {
  double rank = p / 100 * (double)(n - 1), below;
  size_t i = (size_t)rank;
  if (i + 1 >= n) return sorted[n - 1];
  below = rank - (double)i;
  return sorted[i] + (sorted[i + 1] - sorted[i]) * below;
}

void gs_dist_of(double *values, size_t n, gs_dist *out) {
  double sum = 0;
  size_t i;
  memset(out, 0, sizeof *out);
  if (n == 0) return;
  for (i = 0; i < n; i++) sum += values[i];
  qsort(values, n, sizeof values[0], by_value);
  out->mean = sum / (double)n;
  out->p50 = percentile(values, n, 50);
  out->p90 = percentile(values, n, 90);
  out->p99 = percentile(values, n, 99);
  /* the mean of rounded sums can fall a last bit outside [min, max] when all are equal */
  if (out->mean < values[0]) out->mean = values[0];
  if (out->mean > values[n - 1]) out->mean = values[n - 1];
}

/* A gap's bin: its biased exponent and the top 8 bits of its fraction, from its bits. */
static size_t bin_of(double gap) {
  uint64_t bits, e;
  memcpy(&bits, &gap, sizeof bits);
  e = bits >> 52;
  if (e < GS_ITL_EXP_MIN) return 0;
  if (e > GS_ITL_EXP_MAX) return GS_ITL_BINS - 1;
  return (size_t)((e - GS_ITL_EXP_MIN) * 256 + ((bits >> 44) & 0xff));
}

void gs_itl_add(gs_itl_hist *h, double gap) {
  size_t b = bin_of(gap > 0 ? gap : 0);
  h->count[b]++;
  h->sum[b] += gap;
  h->total++;
  h->total_sum += gap;
}

/* The value at rank ceil(p/100 x total) (nearest rank: the bins hold no order within),
 * given as its bin's mean; exact when a bin's gaps are equal, within 1/256 otherwise. */
static double itl_percentile(const gs_itl_hist *h, double p) {
  uint64_t rank = (uint64_t)(p / 100 * (double)h->total), seen = 0;
  size_t b;
  if ((double)rank < p / 100 * (double)h->total) rank++;
  if (rank == 0) rank = 1;
  for (b = 0; b < GS_ITL_BINS; b++) {
    seen += h->count[b];
    if (seen >= rank) return h->sum[b] / (double)h->count[b];
  }
  return 0;
}

void gs_itl_dist(const gs_itl_hist *h, gs_dist *out) {
  memset(out, 0, sizeof *out);
  if (h->total == 0) return;
  out->mean = h->total_sum / (double)h->total;
  out->p50 = itl_percentile(h, 50);
  out->p90 = itl_percentile(h, 90);
  out->p99 = itl_percentile(h, 99);
}
