/*
 * nmf.c - the coordinate-descent sweep of NMF (see nmf.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "core/dot.h"
#include "decomposition/nmf.h"

/* Rows per chunk: 512 rows of k^2 multiply-adds (k = 20: 200,000). */
#define GRAIN 512

typedef struct Job {
  luma_Mat *w;
  const luma_Mat *hht, *xht;
  const int64_t *order;
  double *partial; /* one violation sum per chunk */
} Job;

/* The columns are the outer loop and the chunk's rows the inner one, as
 * in scikit-learn: consecutive updates then touch different rows and
 * overlap in the pipeline, where row-by-row the next column's gradient
 * waits on this column's division (measured: twice as fast).  Each row
 * still sees its columns in order, so the arithmetic is the same. */
static void sweep_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const int64_t k = job->w->cols;
  const int64_t wrs = job->w->rs, wcs = job->w->cs, hrs = job->hht->rs, hcs = job->hht->cs;
  double *w = job->w->data;
  double violation = 0;
  for (int64_t s = 0; s < k; s++) {
    const int64_t t = job->order[s];
    const double *ht = job->hht->data + t * hrs;
    const double hess = ht[t * hcs];
    for (int64_t i = i0; i < i1; i++) {
      double *wi = w + i * wrs;
      double grad;
      if (wcs == 1 && hcs == 1) {
        /* luma_dot's partial sums: one chain of k dependent additions
         * would bound the sweep by the adder's latency */
        grad = luma_dot(ht, wi, k) - LUMA_AT(job->xht, i, t);
      } else {
        grad = -LUMA_AT(job->xht, i, t);
        for (int64_t r = 0; r < k; r++) grad += ht[r * hcs] * wi[r * wcs];
      }
      const double wit = wi[t * wcs];
      const double pg = wit == 0 ? (grad < 0 ? grad : 0) : grad;
      violation += fabs(pg);
      if (hess != 0) {
        const double v = wit - grad / hess;
        wi[t * wcs] = v > 0 ? v : 0;
      }
    }
  }
  job->partial[chunk] = violation;
}

int64_t luma_nmf_cd_work(int64_t n) { return n > 0 ? (n + GRAIN - 1) / GRAIN : 1; }

luma_LoopStatus luma_nmf_cd_sweep(luma_Threads *t, luma_Mat *w, const luma_Mat *hht,
                                  const luma_Mat *xht, const int64_t *order, double *violation,
                                  double *work) {
  const int64_t n = w->rows, k = w->cols;
  Job job = {w, hht, xht, order, work};
  luma_Loop loop = {n, GRAIN, (uint64_t)(k * (k + 4)), 0, sweep_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double total = 0;
  for (int64_t c = 0; c < luma_nmf_cd_work(n) && n > 0; c++) total += work[c];
  *violation = total;
  return LUMA_LOOP_DONE;
}
