/*
 * factor.h - matrix factorization kernels for recommenders (no Lua):
 * alternating least squares half-sweeps (explicit ratings, as notes 001
 * §K's AltMin, and implicit feedback, Hu, Koren & Volinsky 2008), the
 * AltMin objective, and stochastic gradient epochs with biases (Funk
 * 2006; Koren, Bell & Volinsky 2009, eq. 5).
 *
 * Factors are row-major contiguous n x k arrays (one row a user or an
 * item).  Ratings are a canonical CSR (sparse/sparse.h) whose rows are
 * the side being solved for: users x items for the users' half-sweep,
 * its transpose for the items'.  Work is charged to the meter of
 * core/parallel.h; a kernel that stopped leaves its output incomplete.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_RECOMMEND_FACTOR_H
#define LUMA_ML_RECOMMEND_FACTOR_H

#include <stdint.h>

#include "core/parallel.h"
#include "sparse/sparse.h"

typedef struct luma_AlsSweep {
  const luma_Sparse *R; /* rows: the side solved for; columns: the other side */
  const double *V;      /* the other side's factors, R->cols x k */
  double *U;            /* out: R->rows x k (read first as the CG starting point) */
  int64_t k;
  double reg; /* lambda, added to every diagonal */
  /* Implicit feedback: preference 1 and confidence 1 + alpha * r for each
   * stored r (0 for the rest), and gram = V'V (k x k).  gram NULL: explicit. */
  const double *gram;
  double alpha;
  int cg_steps; /* implicit only: > 0 conjugate-gradient steps from U, 0 Cholesky */
} luma_AlsSweep;

/* Scratch doubles luma_als_sweep needs. */
int64_t luma_als_scratch(int64_t rows, int64_t k);

/* For every row r of R, row r of U becomes the minimizer of
 *   explicit: sum_{j in row r} (R_rj - u.v_j)^2 + reg |u|^2
 *   implicit: sum_{all j} c_rj (p_rj - u.v_j)^2 + reg |u|^2
 * i.e. the solution of (sum v_j v_j' + reg I) u = sum R_rj v_j, or of
 * (V'V + sum (c_rj - 1) v_j v_j' + reg I) u = sum c_rj v_j (HKV eq. 4); a
 * row without entries gets u = 0 (explicit) or the solution of
 * (V'V + reg I) u = 0, also 0.  Rows run in parallel.  Returns
 * LUMA_LOOP_DONE, or why the meter stopped. */
luma_LoopStatus luma_als_sweep(luma_Threads *t, const luma_AlsSweep *s, double *scratch);

/* The AltMin objective sum_{(i,j) stored} (R_ij - u_i.v_j)^2
 * + reg (|U|_F^2 + |V|_F^2), U R->rows x k, V R->cols x k. */
double luma_als_objective(const luma_Sparse *R, const double *U, const double *V, int64_t k,
                          double reg);

typedef struct luma_SgdEpoch {
  const int64_t *user, *item; /* 0-based, one pair a rating */
  const double *rating;
  const int64_t *order; /* the visiting order of the ratings, a permutation */
  int64_t n;
  double *P, *Q; /* user and item factors, k columns */
  double *bu, *bi; /* biases, or NULL for none (then mean is not used either) */
  double mean;     /* the global mean rating */
  int64_t k;
  double lr, reg, reg_bias;
} luma_SgdEpoch;

/* One pass of stochastic gradient descent over the ratings in `order`:
 * for each, e = r - (mean + bu + bi + p.q), then bu += lr (e - reg_bias
 * bu), bi likewise, p += lr (e q - reg p), q += lr (e p_old - reg q).
 * Returns the sum of e^2 seen (before each update), or NaN if the meter
 * stopped. */
double luma_sgd_epoch(luma_Threads *t, const luma_SgdEpoch *e);

#endif
