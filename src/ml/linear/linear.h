/*
 * linear.h - kernels of the linear models (no Lua): weighted, centred
 * second moments without copying X, and elastic-net coordinate descent.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_LINEAR_H
#define LUMA_ML_LINEAR_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"
#include "sparse/sparse.h"
#include "stats/random.h"

enum { LUMA_LINEAR_OK = 0, LUMA_LINEAR_X_NOT_FINITE, LUMA_LINEAR_Y_NOT_FINITE, LUMA_LINEAR_STOPPED };

/* Rows of X that luma_linear_moments centres at a time. */
#define LUMA_LINEAR_BLOCK 2048

/* Scratch luma_linear_moments needs, in doubles. */
int64_t luma_linear_moments_work(int64_t d, int64_t k);

/* With weights w (n x 1, or NULL for ones) and N = sum w:
 *   xmean = sum_i w_i x_i / N, ymean likewise (zeros when !center),
 *   gram  = sum_i w_i (x_i - xmean)(x_i - xmean)^T   (d x d, full),
 *   xty   = sum_i w_i (x_i - xmean)(y_i - ymean)^T   (d x k),
 *   yty   = sum_i w_i |y_i - ymean|^2 per target     (k).
 * One pass over X: LUMA_LINEAR_BLOCK rows at a time are shifted by the
 * mean of the first block into scratch and folded in with dsyrk/dgemm;
 * the small remaining offset is removed at the end by a rank-one
 * correction.  X is never copied whole.
 * Outputs are contiguous row-major.  Each block is charged to the meter
 * (may be NULL) before it is folded in.  Returns LUMA_LINEAR_STOPPED when
 * the meter stopped (luma_work_status says why; the outputs are then
 * partial), LUMA_LINEAR_X_NOT_FINITE or _Y_NOT_FINITE when a NaN or Inf
 * reached the moments. */
int luma_linear_moments(luma_Threads *meter, const luma_Mat *x, const luma_Mat *y, const luma_Mat *w,
                        int center, double *xmean, double *ymean, double *gram, double *xty,
                        double *yty, double *scratch);

/* One elastic-net problem for coordinate descent, in scikit-learn's
 * scaling: minimise over w
 *   1/2 |y - X w|^2 + l1 |w|_1 + l2/2 |w|^2
 * (the caller multiplies alpha * l1_ratio and alpha * (1 - l1_ratio) by N
 * to get (1/2N)|y - Xw|^2 + alpha * penalty).  Either the Gram form
 * (gram = X^T X, xty = X^T y: each coordinate costs O(d)) or the residual
 * form (xt = X^T, d x n contiguous, and y: O(n) per coordinate). */
typedef struct luma_EnetProblem {
  int64_t n, d;
  const double *gram; /* d x d, or NULL for the residual form */
  /* The sparse residual form: X as CSC (the arrays of the CSR of X^T,
   * d x n), the columns used as sw o (x_j - xm_j) -- sw the square roots
   * of the sample weights (NULL: ones, wsum = n), xm the weighted column
   * means (NULL: no centring) -- never formed: the residual is kept as
   * r0 + c sw, so an update costs the column's entries (y is then the
   * centred, weighted target). */
  const luma_Sparse *xcsc;
  const double *sw, *xm;
  double wsum;
  const double *xty;  /* d (Gram form) */
  const double *xt;   /* d x n (residual form) */
  const double *y;    /* n (residual form) */
  double yty;         /* |y|^2 */
  double l1, l2;
  int positive;       /* constrain w >= 0 */
  int64_t max_iter;   /* sweeps over all coordinates */
  double tol;         /* duality-gap target, relative to |y|^2 */
  luma_Rng *rng;      /* non-NULL: coordinates in random order */
  luma_Threads *threads; /* the meter every coordinate update is charged to, or NULL */
} luma_EnetProblem;

/* Scratch for luma_enet_cd, in doubles. */
int64_t luma_enet_cd_work(const luma_EnetProblem *p);

/* Coordinate descent from the given w (warm start; zeros for a cold one).
 * Cycles over the active set (nonzero coordinates) between full sweeps,
 * and stops when the duality gap falls below tol * |y|^2 after a sweep
 * whose largest change is below tol times the largest coefficient, or
 * after max_iter sweeps.  Returns 1 when converged, 0 otherwise; *sweeps
 * and *gap report the work done and the final duality gap.  Each update
 * (O(d) or O(n)) and each gap is charged to p->threads; when the meter
 * stops, the descent returns 0 at once (luma_work_status says why). */
int luma_enet_cd(const luma_EnetProblem *p, double *w, double *scratch, int64_t *sweeps,
                 double *gap);

/* Logistic regression by SAGA (Defazio, Bach and Lacoste-Julien 2014) for
 * the l1 / elastic-net penalties, minimising the mean-scaled objective
 *   (1/n) sum_i s_i loss_i(x_i W + b) + l2/2 |W|^2 + l1 |W|_1
 * (s_i the weights rescaled to mean 1).  K = 1 is the binary model (y in
 * {0, 1}, the sigmoid), K >= 2 the multinomial one (y in 0..K-1, the
 * softmax).  Each step picks a sample at random, corrects its stored
 * gradient, takes a gradient step with the table average and applies the
 * soft threshold of l1 (the proximal step) to every weight: the data are
 * dense, so this costs no more than the step itself. */
typedef struct luma_SagaProblem {
  const luma_Mat *x;       /* n x d (unused when sx is set) */
  const luma_Sparse *sx;   /* or a CSR n x d: the lazy form below */
  const int64_t *y;        /* n labels */
  const double *weights;   /* n, mean 1, or NULL */
  int64_t k;               /* columns of W: 1 (binary) or the classes */
  double l1, l2;
  int fit_intercept;
  int64_t max_iter;        /* epochs of n steps */
  double tol;              /* stop when max |W change| / max |W| < tol over an epoch */
  luma_Rng *rng;
  luma_Threads *threads;   /* the meter each step is charged to, or NULL */
} luma_SagaProblem;

/* With a sparse X (p->sx), a step touches only the sample's features:
 * the others' updates w <- soft(w (1 - step l2) - step avg, step l1), the
 * same for every step a feature is absent, are applied in closed form when
 * the feature is next used and at the end of each epoch (the "just in
 * time" updates of Schmidt, Le Roux and Bach's SAG code): the same
 * iterates as the dense steps, to rounding, at O(nnz) per epoch.
 *
 * Scratch for luma_logistic_saga, in doubles. */
int64_t luma_logistic_saga_work(int64_t n, int64_t d, int64_t k);

/* Runs SAGA from W (d x k, row-major) and b (k); returns 1 when it
 * converged within max_iter epochs, setting *epochs.  Each step (O(d k))
 * is charged to p->threads; when the meter stops SAGA returns 0 at once. */
int luma_logistic_saga(const luma_SagaProblem *p, double *w, double *b, double *scratch,
                       int64_t *epochs);

#endif
