/*
 * gmm.c - E-step and weighted moments of Gaussian mixtures (see gmm.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "mixture/gmm.h"

/* Rows per chunk of the E-step: 256 rows of k d^2 multiply-adds each are
 * a few hundred microseconds for the sizes mixtures meet (k = 8, d = 10:
 * 200,000 flops). */
#define ESTEP_GRAIN 256
/* The M-step keeps a partial sum of k d (d + 1) / 2 + k (d + 1) doubles
 * per chunk: at most this many doubles in all (32 MB), which sets the
 * number of chunks for large k d^2. */
#define MOMENTS_BUDGET (4 << 20)
#define MOMENTS_MIN_GRAIN 256

static int64_t chunks_of(int64_t n, int64_t grain) { return n > 0 ? (n + grain - 1) / grain : 0; }

/* ---------------------------------------------------------------- E-step */

typedef struct EJob {
  const luma_Mat *x;
  const double *chol, *bias, *shift; /* shift[c] = mu_c chol_c (k x d) */
  int tied;
  int64_t k, d;
  luma_Mat *log_resp, *norm;
  double *work;
} EJob;

static void estep_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const EJob *job = ctx;
  const int64_t d = job->d, k = job->k;
  double *y = job->work + chunk * (d + k), *lp = y + d;
  for (int64_t i = i0; i < i1; i++) {
    double best = -INFINITY;
    for (int64_t c = 0; c < k; c++) {
      const double *m = job->chol + (job->tied ? 0 : c * d * d);
      const double *s = job->shift + c * d;
      for (int64_t j = 0; j < d; j++) y[j] = -s[j];
      for (int64_t a = 0; a < d; a++) {
        const double xa = LUMA_AT(job->x, i, a);
        const double *row = m + a * d;
        for (int64_t j = 0; j < d; j++) y[j] += xa * row[j];
      }
      double q = 0;
      for (int64_t j = 0; j < d; j++) q += y[j] * y[j];
      lp[c] = job->bias[c] - 0.5 * q;
      if (lp[c] > best) best = lp[c];
    }
    double total = 0;
    for (int64_t c = 0; c < k; c++) total += exp(lp[c] - best);
    const double lse = best + log(total);
    for (int64_t c = 0; c < k; c++) LUMA_AT(job->log_resp, i, c) = lp[c] - lse;
    LUMA_AT(job->norm, i, 0) = lse;
  }
}

int64_t luma_gmm_estep_work(int64_t n, int64_t d, int64_t k) {
  return chunks_of(n, ESTEP_GRAIN) * (d + k) + k * d;
}

luma_LoopStatus luma_gmm_estep(luma_Threads *t, const luma_Mat *x, const double *means,
                               const double *chol, int tied, const double *bias, int64_t k,
                               luma_Mat *log_resp, luma_Mat *norm, double *work) {
  const int64_t n = x->rows, d = x->cols;
  /* shift[c] = mu_c chol_c, so that y = x chol_c - shift[c] */
  double *shift = work + chunks_of(n, ESTEP_GRAIN) * (d + k);
  for (int64_t c = 0; c < k; c++) {
    const double *m = chol + (tied ? 0 : c * d * d);
    for (int64_t j = 0; j < d; j++) {
      double s = 0;
      for (int64_t a = 0; a < d; a++) s += means[c * d + a] * m[a * d + j];
      shift[c * d + j] = s;
    }
  }
  EJob job = {x, chol, bias, shift, tied, k, d, log_resp, norm, work};
  luma_Loop loop = {n, ESTEP_GRAIN, (uint64_t)(k * (d * d + d + 2)), 0, estep_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* --------------------------------------------------------------- moments */

typedef struct MJob {
  const luma_Mat *x, *r;
  int is_log;
  int64_t k, d, tri; /* tri = d (d + 1) / 2 */
  const double *means; /* pass 2 only */
  double *part;        /* per chunk: pass 1 k (d + 1), pass 2 k tri */
  int64_t stride;      /* doubles per chunk partial */
} MJob;

static double weight(const MJob *job, int64_t i, int64_t c) {
  const double v = LUMA_AT(job->r, i, c);
  return job->is_log ? exp(v) : v;
}

static void sums_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const MJob *job = ctx;
  const int64_t d = job->d, k = job->k;
  double *p = job->part + chunk * job->stride; /* k counts, then k x d sums */
  memset(p, 0, (size_t)(k * (d + 1)) * sizeof(double));
  for (int64_t i = i0; i < i1; i++) {
    for (int64_t c = 0; c < k; c++) {
      const double w = weight(job, i, c);
      double *s = p + k + c * d;
      p[c] += w;
      for (int64_t j = 0; j < d; j++) s[j] += w * LUMA_AT(job->x, i, j);
    }
  }
}

static void scatter_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const MJob *job = ctx;
  const int64_t d = job->d, k = job->k, tri = job->tri;
  double *p = job->part + chunk * job->stride; /* k upper triangles */
  double *diff = p + k * tri;                  /* d scratch */
  memset(p, 0, (size_t)(k * tri) * sizeof(double));
  for (int64_t i = i0; i < i1; i++) {
    for (int64_t c = 0; c < k; c++) {
      const double w = weight(job, i, c);
      const double *mu = job->means + c * d;
      double *s = p + c * tri;
      for (int64_t j = 0; j < d; j++) diff[j] = LUMA_AT(job->x, i, j) - mu[j];
      for (int64_t a = 0; a < d; a++) {
        const double wa = w * diff[a];
        double *row = s + a * d - a * (a - 1) / 2 - a; /* upper triangle row a from column a */
        for (int64_t b = a; b < d; b++) row[b] += wa * diff[b];
      }
    }
  }
}

static int64_t moments_grain(int64_t n, int64_t d, int64_t k) {
  const int64_t per = k * (d * (d + 1) / 2 + d + 1) + d;
  int64_t chunks = MOMENTS_BUDGET / (per > 0 ? per : 1);
  if (chunks < 1) chunks = 1;
  int64_t grain = chunks_of(n, chunks);
  return grain < MOMENTS_MIN_GRAIN ? MOMENTS_MIN_GRAIN : grain;
}

int64_t luma_gmm_moments_work(int64_t n, int64_t d, int64_t k, int with_scatter) {
  const int64_t grain = moments_grain(n, d, k);
  const int64_t stride = with_scatter ? k * (d * (d + 1) / 2 + d + 1) + d : k * (d + 1);
  return chunks_of(n, grain) * stride;
}

luma_LoopStatus luma_gmm_moments(luma_Threads *t, const luma_Mat *x, const luma_Mat *r,
                                 int is_log, int64_t k, double eps_nk, double *nk,
                                 double *means, double *scatter, double *work) {
  const int64_t n = x->rows, d = x->cols, tri = d * (d + 1) / 2;
  const int64_t grain = moments_grain(n, d, k), chunks = chunks_of(n, grain);
  const int64_t stride = scatter ? k * (tri + d + 1) + d : k * (d + 1);
  MJob job = {x, r, is_log, k, d, tri, NULL, work, stride};
  luma_Loop loop = {n, grain, (uint64_t)(k * (d + 2)), 0, sums_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  for (int64_t c = 0; c < k; c++) nk[c] = 0;
  for (int64_t c = 0; c < k * d; c++) means[c] = 0;
  for (int64_t q = 0; q < chunks; q++) { /* chunk order: deterministic */
    const double *p = work + q * stride;
    for (int64_t c = 0; c < k; c++) nk[c] += p[c];
    for (int64_t c = 0; c < k * d; c++) means[c] += p[k + c];
  }
  for (int64_t c = 0; c < k; c++) {
    nk[c] += eps_nk;
    for (int64_t j = 0; j < d; j++) means[c * d + j] /= nk[c];
  }
  if (scatter == NULL) return LUMA_LOOP_DONE;
  job.means = means;
  loop.fn = scatter_chunk;
  loop.cost = (uint64_t)(k * (tri + 2 * d + 1));
  status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  memset(scatter, 0, (size_t)(k * d * d) * sizeof(double));
  for (int64_t q = 0; q < chunks; q++) {
    const double *p = work + q * stride;
    for (int64_t c = 0; c < k; c++) {
      const double *s = p + c * tri;
      double *S = scatter + c * d * d;
      int64_t at = 0;
      for (int64_t a = 0; a < d; a++)
        for (int64_t b = a; b < d; b++) S[a * d + b] += s[at++];
    }
  }
  for (int64_t c = 0; c < k; c++) { /* mirror the upper triangle */
    double *S = scatter + c * d * d;
    for (int64_t a = 0; a < d; a++)
      for (int64_t b = 0; b < a; b++) S[a * d + b] = S[b * d + a];
  }
  return LUMA_LOOP_DONE;
}
