/*
 * nmf.c - the coordinate-descent sweep of NMF (see nmf.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include <cblas.h>

#include "core/dot.h"
#include "decomposition/nmf.h"

/* Rows per chunk: 512 rows of k^2 multiply-adds (k = 20: 200,000). */
#define GRAIN 512

typedef struct Job {
  luma_Mat *w;
  const luma_Mat *hht, *xht;
  const int64_t *order;
  double *partial; /* one violation sum per chunk */
  /* the fused sweep: XHt's rows from X and Ht in each chunk */
  const luma_Mat *x, *ht;
  double l1;
} Job;

/* The columns are the outer loop and the chunk's rows the inner one, as
 * in scikit-learn: consecutive updates then touch different rows and
 * overlap in the pipeline, where row-by-row the next column's gradient
 * waits on this column's division (measured: twice as fast).  Each row
 * still sees its columns in order, so the arithmetic is the same. */
static double sweep_rows(const Job *job, int64_t i0, int64_t i1) {
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
  return violation;
}

static void sweep_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  job->partial[chunk] = sweep_rows(job, i0, i1);
}

int64_t luma_nmf_cd_work(int64_t n) { return n > 0 ? (n + GRAIN - 1) / GRAIN : 1; }

luma_LoopStatus luma_nmf_cd_sweep(luma_Threads *t, luma_Mat *w, const luma_Mat *hht,
                                  const luma_Mat *xht, const int64_t *order, double *violation,
                                  double *work) {
  const int64_t n = w->rows, k = w->cols;
  Job job = {w, hht, xht, order, work, NULL, NULL, 0};
  luma_Loop loop = {n, GRAIN, (uint64_t)(k * (k + 4)), 0, sweep_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double total = 0;
  for (int64_t c = 0; c < luma_nmf_cd_work(n) && n > 0; c++) total += work[c];
  *violation = total;
  return LUMA_LOOP_DONE;
}

/* ---------------------------------------------------------------- fused */

/* How dgemm reads m (row-major): rows contiguous (no transpose, ld the
 * row stride) or columns contiguous (m^T stored row-major, ld the column
 * stride).  Returns 0 when neither holds. */
static int blas_layout(const luma_Mat *m, CBLAS_TRANSPOSE *trans, int64_t *ld) {
  if (m->cs == 1 && m->rs >= (m->cols > 1 ? m->cols : 1)) {
    *trans = CblasNoTrans;
    *ld = m->rs;
    return 1;
  }
  if (m->rs == 1 && m->cs >= (m->rows > 1 ? m->rows : 1)) {
    *trans = CblasTrans;
    *ld = m->cs;
    return 1;
  }
  return 0;
}

int luma_nmf_blas_ready(const luma_Mat *m) {
  CBLAS_TRANSPOSE trans;
  int64_t ld;
  return blas_layout(m, &trans, &ld);
}

/* Rows of X per chunk: about 1 MB of X (its product with Ht then packs
 * Ht once per MB), at least 16. */
static int64_t fused_grain(int64_t d) {
  const int64_t g = 131072 / (d > 0 ? d : 1);
  return g < 16 ? 16 : g;
}

static void fused_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const luma_Mat *x = job->x, *ht = job->ht;
  const int64_t k = job->w->cols, d = x->cols, rb = i1 - i0;
  CBLAS_TRANSPOSE ta = CblasNoTrans, tb = CblasNoTrans;
  int64_t lda = 1, ldb = 1;
  blas_layout(x, &ta, &lda);
  blas_layout(ht, &tb, &ldb);
  const double *a = x->data + i0 * x->rs;
  double *c = job->xht->data + i0 * k; /* contiguous n x k */
  if (d == 0) /* an empty product (and no valid leading dimension for BLAS) */
    for (int64_t e = 0; e < rb * k; e++) c[e] = 0;
  else if (rb > 0 && k > 0)
    cblas_dgemm(CblasRowMajor, ta, tb, (int)rb, (int)k, (int)d, 1.0, a, (int)lda, ht->data,
                (int)ldb, 0.0, c, (int)k);
  if (job->l1 != 0)
    for (int64_t e = 0; e < rb * k; e++) c[e] -= job->l1;
  job->partial[chunk] = sweep_rows(job, i0, i1);
}

int64_t luma_nmf_cd_fused_work(int64_t n, int64_t d, int64_t k) {
  const int64_t g = fused_grain(d);
  return n * k + (n > 0 ? (n + g - 1) / g : 1);
}

luma_LoopStatus luma_nmf_cd_fused_sweep(luma_Threads *t, const luma_Mat *x, const luma_Mat *ht,
                                        luma_Mat *w, const luma_Mat *hht, double l1,
                                        const int64_t *order, double *violation, double *work) {
  const int64_t n = w->rows, k = w->cols, d = x->cols, grain = fused_grain(d);
  const int64_t chunks = n > 0 ? (n + grain - 1) / grain : 0;
  luma_Mat xht = {work, n, k, k, 1};
  Job job = {w, hht, &xht, order, work + n * k, x, ht, l1};
  luma_Loop loop = {n, grain, (uint64_t)(2 * d * k + k * (k + 4)), 1, fused_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double total = 0;
  for (int64_t c = 0; c < chunks; c++) total += job.partial[c];
  *violation = total;
  return LUMA_LOOP_DONE;
}
