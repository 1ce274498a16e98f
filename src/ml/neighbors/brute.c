/*
 * brute.c - brute-force neighbours of a block of queries (see search.h).
 *
 * Euclidean and cosine go through BLAS: one dgemm per panel of training
 * rows gives Q X^T, and the Gram identity |q - x|^2 = |q|^2 + |x|^2 - 2 q.x
 * (luma.pairwise's) gives every pair's distance approximately.  The
 * approximation is only a filter: its rounding error is at most
 * c (|q|^2 + |x|^2) with c = luma_nn_slack(d) (a dot product of length d is
 * within d eps |q| |x| of its exact value, each norm within d eps of its
 * own, and the direct recomputation within (d + 2) eps), so a pair whose
 * approximation minus that bound exceeds the current k-th distance is
 * skipped, and every other pair is recomputed directly and offered to the
 * result.  Results are therefore exactly those of the direct formula, as
 * in the trees, with a partial selection (the result's bounded heap)
 * instead of a sort; after the first k pairs few pass the filter.  Memory
 * stays bounded: one block x PANEL Gram panel per thread, whatever the
 * number of queries.
 *
 * Other metrics compare each query of the block with a panel of training
 * rows small enough to stay in L1.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include <cblas.h>

#include "neighbors/search.h"

/* Training rows per dgemm panel.  With blocks of up to 512 queries
 * (index.c) the Gram panel (2 MB) is filtered while still in cache, and
 * the packing of each panel is shared by the whole block (measured on
 * 100,000 x 64 points: blocks of 512 took 0.87 of the time of blocks of
 * 64, whose panel packing alone was a fifth of the run). */
#define PANEL 512
/* Bytes of training rows compared with each query in the direct loops. */
#define DIRECT_BYTES 16384

static int uses_gemm(const luma_NnMetric *m) {
  return m->kind == LUMA_NN_EUCLIDEAN || m->kind == LUMA_NN_COSINE;
}

size_t luma_nn_brute_work(const luma_NnIndex *ix, const luma_NnMetric *m, int64_t rows) {
  (void)ix;
  if (!uses_gemm(m)) return 0;
  return (size_t)rows * (PANEL + 1) * sizeof(double);
}

/* Two lanes of doubles and of comparison results (GCC/Clang vector
 * extensions: SSE2 on x86-64, plain code elsewhere). */
typedef double v2d __attribute__((vector_size(16)));
typedef long long v2l __attribute__((vector_size(16)));

static inline v2d load2(const double *p) {
  v2d v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* Euclidean: candidates are pairs with (1 - c)(|q|^2 + |x|^2) - 2 q.x <=
 * bound, i.e. approximation - c (|q|^2 + |x|^2) <= bound.  The index keeps
 * h = (1 - c) |x|^2 / 2 per row, so the test reads h - q.x <= (bound -
 * (1 - c) |q|^2) / 2.  Columns are tested eight at a time without
 * branches, and only a block with a candidate is looked at one by one.  A
 * NaN (overflow) counts as a candidate: its exact value decides. */
static void filter_euclidean(const luma_NnIndex *ix, const double *q, double qa, const double *g,
                             int64_t j0, int64_t j1, luma_NnResult *r) {
  int64_t d = ix->d;
  const double *h = ix->rowval;
  double base = (1 - luma_nn_slack(d)) * qa, limit = (r->bound - base) / 2;
  int64_t j = j0;
  for (; j + 8 <= j1; j += 8) {
    const double *gj = g + (j - j0);
    v2d lim = {limit, limit};
    /* all lanes above the limit: no candidate in the block */
    v2l above = (load2(h + j) - load2(gj) > lim) & (load2(h + j + 2) - load2(gj + 2) > lim) &
                (load2(h + j + 4) - load2(gj + 4) > lim) & (load2(h + j + 6) - load2(gj + 6) > lim);
    if (above[0] & above[1]) continue;
    for (int64_t i = j; i < j + 8; i++) {
      if (h[i] - g[i - j0] > limit) continue;
      luma_nn_offer(r, luma_nn_sqdist(q, ix->data + i * d, d), i);
      limit = (r->bound - base) / 2;
    }
  }
  for (; j < j1; j++) {
    if (h[j] - g[j - j0] > limit) continue;
    luma_nn_offer(r, luma_nn_sqdist(q, ix->data + j * d, d), j);
    limit = (r->bound - base) / 2;
  }
}

/* Cosine: the approximation 1 - q.x / (|q| |x|) is within c of the exact
 * value (the norms' errors are relative too). */
static void filter_cosine(const luma_NnIndex *ix, const double *q, double qa, const double *g,
                          int64_t j0, int64_t j1, luma_NnResult *r) {
  int64_t d = ix->d;
  double c = luma_nn_slack(d);
  const double *xa = ix->rowval;
  for (int64_t j = j0; j < j1; j++) {
    double t = 1 - g[j - j0] * qa * xa[j] - c;
    if (t > r->bound) continue;
    luma_nn_offer(r, luma_nn_cosdist(q, ix->data + j * d, d), j);
  }
}

static void gemm_block(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                       int64_t rows, luma_NnResult *results, double *work) {
  int64_t n = ix->n, d = ix->d;
  double *g = work, *qa = work + rows * PANEL;
  for (int64_t i = 0; i < rows; i++) {
    const double *qi = q + i * d;
    double s = 0;
    for (int64_t k = 0; k < d; k++) s += qi[k] * qi[k];
    qa[i] = m->kind == LUMA_NN_EUCLIDEAN ? s : s > 0 && !isinf(s) ? 1 / sqrt(s) : 0;
  }
  for (int64_t j0 = 0; j0 < n; j0 += PANEL) {
    int64_t j1 = j0 + PANEL < n ? j0 + PANEL : n;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)(j1 - j0), (int)d, 1.0,
                q, (int)d, ix->data + j0 * d, (int)d, 0.0, g, PANEL);
    for (int64_t i = 0; i < rows; i++) {
      if (m->kind == LUMA_NN_EUCLIDEAN)
        filter_euclidean(ix, q + i * d, qa[i], g + i * PANEL, j0, j1, &results[i]);
      else
        filter_cosine(ix, q + i * d, qa[i], g + i * PANEL, j0, j1, &results[i]);
    }
  }
  for (int64_t i = 0; i < rows; i++) results[i].evals = n;
}

static void direct_block(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         int64_t rows, luma_NnResult *results) {
  int64_t n = ix->n, d = ix->d;
  int64_t panel = DIRECT_BYTES / (d * (int64_t)sizeof(double));
  if (panel < 1) panel = 1;
  for (int64_t j0 = 0; j0 < n; j0 += panel) {
    int64_t j1 = j0 + panel < n ? j0 + panel : n;
    for (int64_t i = 0; i < rows; i++) {
      luma_NnResult *r = &results[i];
      const double *qi = q + i * d;
      for (int64_t j = j0; j < j1; j++) {
        double rd = luma_nn_eval(m, qi, ix->data + j * d, d, r);
        if (r->failed) return;
        luma_nn_offer(r, rd, j);
      }
    }
  }
}

void luma_nn_brute_block(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         int64_t rows, luma_NnResult *results, void *work) {
  if (uses_gemm(m))
    gemm_block(ix, m, q, rows, results, work);
  else
    direct_block(ix, m, q, rows, results);
}
