/*
 * lda.c - the per-document kernels of LatentDirichletAllocation (lda.h).
 * SPDX-License-Identifier: MIT
 */
#include "text/lda.h"

#include <float.h>
#include <math.h>

#define EULER 0.577215664901532860606512090082402431

double luma_lda_psi(double x) {
  if (x <= 1e-6) return -EULER - 1.0 / x; /* psi(x) = -gamma - 1/x + O(x) */
  double result = 0;
  /* psi(x) = psi(x + 1) - 1/x, up to x >= 6: at most 6 steps */
  while (x < 6) {
    result -= 1.0 / x;
    x += 1;
  }
  /* psi(x) ~ ln x - 1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) */
  double r = 1.0 / x;
  result += log(x) - 0.5 * r;
  r = r * r;
  result -= r * ((1.0 / 12.0) - r * ((1.0 / 120.0) - r * (1.0 / 252.0)));
  return result;
}

void luma_lda_dirichlet_expectation(luma_Threads *t, const luma_Mat *m, luma_Mat *out) {
  luma_WorkBatch w = {t, 0};
  for (int64_t i = 0; i < m->rows; i++) {
    if (luma_work_add(&w, 8 * (uint64_t)m->cols + 1)) return;
    double s = 0;
    for (int64_t j = 0; j < m->cols; j++) s += LUMA_AT(m, i, j);
    const double ps = luma_lda_psi(s);
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(out, i, j) = luma_lda_psi(LUMA_AT(m, i, j)) - ps;
  }
  luma_work_flush(&w);
}

/* exp(E[log theta]) of gamma + prior (gamma gets the prior added), as
 * scikit-learn's _dirichlet_expectation_1d. */
static void expect_1d(double *gamma, int64_t k, double prior, double *out) {
  double total = 0;
  for (int64_t j = 0; j < k; j++) {
    gamma[j] += prior;
    total += gamma[j];
  }
  const double pt = luma_lda_psi(total);
  for (int64_t j = 0; j < k; j++) out[j] = exp(luma_lda_psi(gamma[j]) - pt);
}

/* The E-step over documents [d0, d1) into sstats (or not, NULL), with
 * scratch of luma_lda_scratch_block doubles.  Nonzero: stopped. */
static int estep_range(luma_Threads *t, const luma_Sparse *x, const luma_Mat *ew, double prior,
                       int max_iter, double tol, luma_Mat *doc_topic, double *sstats,
                       double *scratch, int64_t d0, int64_t d1) {
  const int64_t k = ew->rows, V = ew->cols;
  double *gamma = scratch, *last = scratch + k, *edt = scratch + 2 * k, *norm = scratch + 3 * k;
  luma_WorkBatch w = {t, 0};
  for (int64_t d = d0; d < d1; d++) {
    const int64_t a = x->indptr[d], n = x->indptr[d + 1] - a;
    const int64_t *ids = x->indices + a;
    const double *cnt = x->data + a;
    double *ewd = norm + n; /* exp(E[log beta]) of the document's words, k x n */
    if (luma_work_add(&w, 2 * (uint64_t)(k * n + k) + 1)) return 1;
    for (int64_t j = 0; j < k; j++)
      for (int64_t p = 0; p < n; p++) ewd[j * n + p] = LUMA_AT(ew, j, ids[p]);
    /* exp(E[log theta]) of the starting gamma (no prior added) */
    double total = 0;
    for (int64_t j = 0; j < k; j++) {
      gamma[j] = LUMA_AT(doc_topic, d, j);
      total += gamma[j];
    }
    const double pt = luma_lda_psi(total);
    for (int64_t j = 0; j < k; j++) edt[j] = exp(luma_lda_psi(gamma[j]) - pt);
    for (int it = 0; it < max_iter; it++) {
      if (luma_work_add(&w, 4 * (uint64_t)(k * n + k) + 1)) return 1;
      for (int64_t j = 0; j < k; j++) last[j] = gamma[j];
      for (int64_t p = 0; p < n; p++) {
        double sum = 0;
        for (int64_t j = 0; j < k; j++) sum += edt[j] * ewd[j * n + p];
        norm[p] = cnt[p] / (sum + DBL_EPSILON);
      }
      for (int64_t j = 0; j < k; j++) {
        double sum = 0;
        for (int64_t p = 0; p < n; p++) sum += norm[p] * ewd[j * n + p];
        gamma[j] = edt[j] * sum;
      }
      expect_1d(gamma, k, prior, edt);
      double change = 0;
      for (int64_t j = 0; j < k; j++) change += fabs(last[j] - gamma[j]);
      if (change / (double)k < tol) break;
    }
    for (int64_t j = 0; j < k; j++) LUMA_AT(doc_topic, d, j) = gamma[j];
    if (sstats) {
      for (int64_t p = 0; p < n; p++) {
        double sum = 0;
        for (int64_t j = 0; j < k; j++) sum += edt[j] * ewd[j * n + p];
        norm[p] = cnt[p] / (sum + DBL_EPSILON);
      }
      for (int64_t j = 0; j < k; j++)
        for (int64_t p = 0; p < n; p++) sstats[j * V + ids[p]] += edt[j] * norm[p];
    }
  }
  luma_work_flush(&w);
  return 0;
}

int64_t luma_lda_blocks(const luma_Sparse *x, int64_t k, int want_sstats) {
  int64_t b = x->rows / 64;
  if (b > 4) b = 4;
  /* each block past the first holds its own k x V expected counts: at
   * most 32 MB of them */
  while (want_sstats && b > 1 && (double)(b - 1) * (double)k * (double)x->cols * 8 > 32e6) b--;
  return b < 1 ? 1 : b;
}

size_t luma_lda_scratch_block(const luma_Sparse *x, int64_t k) {
  int64_t longest = 0;
  for (int64_t d = 0; d < x->rows; d++)
    if (x->indptr[d + 1] - x->indptr[d] > longest) longest = x->indptr[d + 1] - x->indptr[d];
  return (size_t)(3 * k + longest * (k + 1) + 1);
}

typedef struct EstepJob {
  luma_Threads *t;
  const luma_Sparse *x;
  const luma_Mat *ew;
  double prior, tol;
  int max_iter;
  luma_Mat *doc_topic;
  double *sstats; /* block 0's (the result), or NULL */
  double *scratch;
  size_t per_block;
  int64_t blocks;
} EstepJob;

static void estep_block(void *ctx, int64_t b, int64_t begin, int64_t end) {
  (void)begin;
  (void)end;
  const EstepJob *j = ctx;
  const int64_t n = j->x->rows, size = (n + j->blocks - 1) / j->blocks;
  const int64_t d0 = b * size, d1 = d0 + size < n ? d0 + size : n;
  const size_t kv = (size_t)(j->ew->rows * j->ew->cols);
  double *own = NULL;
  if (j->sstats) own = b == 0 ? j->sstats : j->scratch + (size_t)j->blocks * j->per_block +
                                                (size_t)(b - 1) * kv;
  estep_range(j->t, j->x, j->ew, j->prior, j->max_iter, j->tol, j->doc_topic, own,
              j->scratch + (size_t)b * j->per_block, d0, d1);
}

int luma_lda_estep(luma_Threads *t, const luma_Sparse *x, const luma_Mat *ew, double prior,
                   int max_iter, double tol, luma_Mat *doc_topic, luma_Mat *sstats,
                   int64_t blocks, double *scratch) {
  const size_t kv = (size_t)(ew->rows * ew->cols);
  EstepJob job = {t, x, ew, prior, tol, max_iter, doc_topic, sstats ? sstats->data : NULL, scratch,
                  luma_lda_scratch_block(x, ew->rows), blocks};
  if (sstats) {
    double *rest = scratch + (size_t)blocks * job.per_block;
    for (size_t q = 0; q < (size_t)(blocks - 1) * kv; q++) rest[q] = 0;
  }
  /* cost 0: each block charges its documents as it goes (and a loop of
   * few blocks must not count as small work for the parallel-for) */
  luma_Loop loop = {blocks, 1, 0, 0, estep_block, &job};
  if (luma_parallel_for(t, &loop) != LUMA_LOOP_DONE || luma_work_status(t) != LUMA_LOOP_DONE)
    return 1;
  /* the blocks' expected counts, added in block order */
  if (sstats)
    for (int64_t b = 1; b < blocks; b++) {
      if (luma_work_charge(t, kv)) return 1;
      const double *own = scratch + (size_t)blocks * job.per_block + (size_t)(b - 1) * kv;
      for (size_t q = 0; q < kv; q++) sstats->data[q] += own[q];
    }
  return 0;
}

double luma_lda_doc_bound(luma_Threads *t, const luma_Sparse *x, const luma_Mat *edt,
                          const luma_Mat *ec) {
  const int64_t k = ec->rows;
  luma_WorkBatch w = {t, 0};
  double score = 0;
  for (int64_t d = 0; d < x->rows; d++) {
    const int64_t a = x->indptr[d], b = x->indptr[d + 1];
    if (luma_work_add(&w, 4 * (uint64_t)((b - a) * k) + 1)) return NAN;
    for (int64_t p = a; p < b; p++) {
      const int64_t v = x->indices[p];
      double m = -INFINITY;
      for (int64_t j = 0; j < k; j++) {
        const double z = LUMA_AT(edt, d, j) + LUMA_AT(ec, j, v);
        if (z > m) m = z;
      }
      double s = 0;
      for (int64_t j = 0; j < k; j++) s += exp(LUMA_AT(edt, d, j) + LUMA_AT(ec, j, v) - m);
      score += x->data[p] * (m + log(s));
    }
  }
  luma_work_flush(&w);
  return score;
}
