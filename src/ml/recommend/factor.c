/*
 * factor.c - ALS half-sweeps, the AltMin objective and SGD epochs for
 * matrix factorization (see factor.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "recommend/factor.h"

/* At most this many chunks per sweep: each owns a k x k system, four
 * k-vectors and a block of ALS_BLOCK gathered factor rows of scratch. */
#define ALS_MAX_CHUNKS 256
/* A row's factor vectors are gathered this many at a time, and each
 * block added to the system by one dsyrk: BLAS's blocked kernel instead
 * of a rank-one update per entry. */
#define ALS_BLOCK 256

static int64_t als_grain(int64_t rows) {
  const int64_t g = (rows + ALS_MAX_CHUNKS - 1) / ALS_MAX_CHUNKS;
  return g > 0 ? g : 1;
}

int64_t luma_als_scratch(int64_t rows, int64_t k) {
  const int64_t chunks = rows > 0 ? (rows + als_grain(rows) - 1) / als_grain(rows) : 1;
  return chunks * (k * k + 4 * k + ALS_BLOCK * k);
}

/* In place, the lower Cholesky factor of the symmetric positive definite
 * k x k A (lower triangle read), then x = A^-1 b.  A + reg I with reg > 0
 * is positive definite; a pivot that rounding made non-positive is
 * clamped so the solve stays finite. */
static void cholesky_solve(double *A, int64_t k, const double *b, double *x) {
  for (int64_t j = 0; j < k; j++) {
    double d = A[j * k + j];
    for (int64_t p = 0; p < j; p++) d -= A[j * k + p] * A[j * k + p];
    d = d > 1e-300 ? sqrt(d) : 1e-150;
    A[j * k + j] = d;
    for (int64_t i = j + 1; i < k; i++) {
      double s = A[i * k + j];
      for (int64_t p = 0; p < j; p++) s -= A[i * k + p] * A[j * k + p];
      A[i * k + j] = s / d;
    }
  }
  for (int64_t i = 0; i < k; i++) { /* L y = b */
    double s = b[i];
    for (int64_t p = 0; p < i; p++) s -= A[i * k + p] * x[p];
    x[i] = s / A[i * k + i];
  }
  for (int64_t i = k - 1; i >= 0; i--) { /* L' x = y */
    double s = x[i];
    for (int64_t p = i + 1; p < k; p++) s -= A[p * k + i] * x[p];
    x[i] = s / A[i * k + i];
  }
}

static double dot(const double *a, const double *b, int64_t k) {
  double s = 0;
  for (int64_t f = 0; f < k; f++) s += a[f] * b[f];
  return s;
}

/* out = A x for the implicit system A = gram + reg I + sum (c - 1) v v'
 * over the row's entries, without forming A (HKV's sparse correction). */
static void implicit_product(const luma_AlsSweep *s, int64_t r, const double *x, double *out) {
  const int64_t k = s->k;
  for (int64_t i = 0; i < k; i++) out[i] = dot(s->gram + i * k, x, k) + s->reg * x[i];
  const luma_Sparse *R = s->R;
  for (int64_t e = R->indptr[r]; e < R->indptr[r + 1]; e++) {
    const double *v = s->V + R->indices[e] * k;
    const double w = s->alpha * R->data[e] * dot(v, x, k); /* (c - 1) v'x */
    for (int64_t f = 0; f < k; f++) out[f] += w * v[f];
  }
}

/* Conjugate gradient on the implicit system from x (Takacs, Pilaszy &
 * Tikk 2011: a few steps from the previous sweep's factors suffice). */
static void implicit_cg(const luma_AlsSweep *s, int64_t r, double *x, double *work) {
  const int64_t k = s->k;
  double *res = work, *dir = work + k, *Ad = work + 2 * k, *b = work + 3 * k;
  memset(b, 0, (size_t)k * sizeof(double));
  const luma_Sparse *R = s->R;
  for (int64_t e = R->indptr[r]; e < R->indptr[r + 1]; e++) {
    const double *v = s->V + R->indices[e] * k;
    const double c = 1 + s->alpha * R->data[e];
    for (int64_t f = 0; f < k; f++) b[f] += c * v[f];
  }
  implicit_product(s, r, x, Ad);
  for (int64_t f = 0; f < k; f++) res[f] = dir[f] = b[f] - Ad[f];
  double rr = dot(res, res, k);
  for (int step = 0; step < s->cg_steps && rr > 1e-30; step++) {
    implicit_product(s, r, dir, Ad);
    const double a = rr / dot(dir, Ad, k);
    for (int64_t f = 0; f < k; f++) {
      x[f] += a * dir[f];
      res[f] -= a * Ad[f];
    }
    const double next = dot(res, res, k);
    for (int64_t f = 0; f < k; f++) dir[f] = res[f] + next / rr * dir[f];
    rr = next;
  }
}

typedef struct SweepJob {
  const luma_AlsSweep *s;
  double *scratch;
} SweepJob;

/* Adds the row's terms to the system: A += sum w_e v_e v_e' (lower
 * triangle) and b += sum t_e v_e, with (w, t) = (1, r) explicit or
 * (alpha r, 1 + alpha r) implicit, in blocks of gathered rows
 * G_e = sqrt(w_e) v_e. */
static void accumulate(const luma_AlsSweep *s, int64_t r, double *A, double *b, double *G) {
  const luma_Sparse *R = s->R;
  const int64_t k = s->k;
  for (int64_t e0 = R->indptr[r]; e0 < R->indptr[r + 1]; e0 += ALS_BLOCK) {
    const int64_t e1 = e0 + ALS_BLOCK < R->indptr[r + 1] ? e0 + ALS_BLOCK : R->indptr[r + 1];
    for (int64_t e = e0; e < e1; e++) {
      const double *v = s->V + R->indices[e] * k;
      const double x = R->data[e];
      const double w = s->gram ? s->alpha * x : 1.0;     /* c - 1, or 1 */
      const double rhs = s->gram ? 1 + s->alpha * x : x; /* c p, or r */
      const double root = sqrt(w);
      double *g = G + (e - e0) * k;
      for (int64_t f = 0; f < k; f++) {
        g[f] = root * v[f];
        b[f] += rhs * v[f];
      }
    }
    /* row-major A's lower triangle is the column-major upper one */
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)k, (int)(e1 - e0), 1.0, G, (int)k,
                1.0, A, (int)k);
  }
}

static void sweep_chunk(void *ctx, int64_t chunk, int64_t r0, int64_t r1) {
  const SweepJob *job = ctx;
  const luma_AlsSweep *s = job->s;
  const int64_t k = s->k;
  double *A = job->scratch + chunk * (k * k + 4 * k + ALS_BLOCK * k), *b = A + k * k;
  double *G = b + 4 * k;
  for (int64_t r = r0; r < r1; r++) {
    double *u = s->U + r * k;
    if (s->gram && s->cg_steps > 0) {
      implicit_cg(s, r, u, b);
      continue;
    }
    if (s->gram) {
      memcpy(A, s->gram, (size_t)(k * k) * sizeof(double));
    } else {
      memset(A, 0, (size_t)(k * k) * sizeof(double));
    }
    memset(b, 0, (size_t)k * sizeof(double));
    accumulate(s, r, A, b, G);
    for (int64_t i = 0; i < k; i++) A[i * k + i] += s->reg;
    cholesky_solve(A, k, b, u);
  }
}

luma_LoopStatus luma_als_sweep(luma_Threads *t, const luma_AlsSweep *s, double *scratch) {
  const luma_Sparse *R = s->R;
  const int64_t k = s->k;
  /* cost per row: the entries' rank-one updates and the k^3 / 3
   * factorization, or the CG steps' products */
  const int64_t per_entry = R->rows > 0 ? R->nnz / R->rows + 1 : 1;
  const int64_t per_row = s->gram && s->cg_steps > 0
                              ? 2 * (s->cg_steps + 1) * (per_entry + k) * k
                              : per_entry * k * k / 2 + k * k * k / 3 + 1;
  SweepJob job = {s, scratch};
  luma_Loop loop = {R->rows, als_grain(R->rows), (uint64_t)per_row, 1, sweep_chunk, &job};
  return luma_parallel_for(t, &loop);
}

double luma_als_objective(const luma_Sparse *R, const double *U, const double *V, int64_t k,
                          double reg) {
  double loss = 0, norms = 0;
  for (int64_t i = 0; i < R->rows; i++) {
    const double *u = U + i * k;
    for (int64_t e = R->indptr[i]; e < R->indptr[i + 1]; e++) {
      const double d = R->data[e] - dot(u, V + R->indices[e] * k, k);
      loss += d * d;
    }
    norms += dot(u, u, k);
  }
  for (int64_t j = 0; j < R->cols; j++) norms += dot(V + j * k, V + j * k, k);
  return loss + reg * norms;
}

double luma_sgd_epoch(luma_Threads *t, const luma_SgdEpoch *e) {
  const int64_t k = e->k;
  luma_WorkBatch w = {t, 0};
  double sse = 0;
  for (int64_t s = 0; s < e->n; s++) {
    if (luma_work_add(&w, (uint64_t)(4 * k + 8))) return NAN;
    const int64_t at = e->order[s];
    double *p = e->P + e->user[at] * k, *q = e->Q + e->item[at] * k;
    double pred = dot(p, q, k);
    if (e->bu) pred += e->mean + e->bu[e->user[at]] + e->bi[e->item[at]];
    const double err = e->rating[at] - pred;
    sse += err * err;
    if (e->bu) {
      e->bu[e->user[at]] += e->lr * (err - e->reg_bias * e->bu[e->user[at]]);
      e->bi[e->item[at]] += e->lr * (err - e->reg_bias * e->bi[e->item[at]]);
    }
    for (int64_t f = 0; f < k; f++) {
      const double pf = p[f], qf = q[f];
      p[f] += e->lr * (err * qf - e->reg * pf);
      q[f] += e->lr * (err * pf - e->reg * qf);
    }
  }
  luma_work_flush(&w);
  return sse;
}
