/*
 * optim.h - native objectives and the L-BFGS(-B) engine (no Lua).
 *
 * An objective is a struct with an eval callback computing the value at x
 * and, when grad is not NULL, the gradient into grad.  The Lua binding
 * (optim_lua.c) wraps Lua functions in the same struct, so the engine
 * below serves both; it never allocates (the caller hands it scratch).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_OPTIM_H
#define LUMA_ML_OPTIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/matrix.h"

typedef double (*luma_ObjectiveEval)(void *ctx, const double *x, double *grad);

typedef struct luma_Objective {
  int64_t n; /* number of parameters */
  luma_ObjectiveEval eval;
  void *ctx;
  /* Budget units one evaluation costs that eval does not charge itself
   * (0 for a Lua function, which the VM counts, and for an objective
   * whose loops charge the meter): luma_lbfgs charges it per evaluation. */
  uint64_t cost;
} luma_Objective;

/* ------------------------------------------------------ logistic losses */

/* Binary logistic loss, the brief's convention (scikit-learn's):
 *   L(w, b) = C * sum_i s_i log(1 + exp(-y_i (x_i.w + b))) + 1/2 |w|^2
 * with y_i in {-1, +1}, s_i the sample weights (1 when sw is NULL) and the
 * intercept b (the last parameter, present when fit_intercept) not
 * penalized.  Parameters: w (d), then b.  X is n x d with unit column
 * stride (row-major, lda = row stride) or unit row stride (transposed). */
typedef struct luma_LogisticLoss {
  const double *X;
  int64_t n, d, lda;
  int col_major;      /* X(i, j) = X[i + j*lda] instead of X[i*lda + j] */
  const double *y;    /* n labels, -1 or +1 */
  const double *sw;   /* n weights or NULL */
  double C;
  int fit_intercept;
  double *work;       /* luma_logistic_work_size(n, d) doubles of scratch */
  /* Threads for the row-major evaluation, set by the caller around a run
   * of evaluations (NULL: serial).  A stopped meter makes eval return NaN;
   * the caller raises the meter's error. */
  struct luma_Threads *threads;
} luma_LogisticLoss;

/* Scratch doubles the binary logistic loss needs for n x d data. */
int64_t luma_logistic_work_size(int64_t n, int64_t d);

double luma_logistic_loss_eval(void *ctx, const double *w, double *grad);

/* Multinomial (softmax) cross-entropy with L2, same convention:
 *   L(W, b) = C * sum_i s_i (-log softmax(x_i W + b)_{y_i}) + 1/2 |W|_F^2
 * with W d x K stored row-major in the parameter vector (element (j, k) at
 * j*K + k), followed by the K intercepts b when fit_intercept (not
 * penalized).  y holds 0-based class indices. */
typedef struct luma_SoftmaxLoss {
  const double *X;
  int64_t n, d, lda, K;
  int col_major;
  const int64_t *y;   /* n class indices in [0, K) */
  const double *sw;
  double C;
  int fit_intercept;
  double *work;       /* n*K + n doubles of scratch */
} luma_SoftmaxLoss;

double luma_softmax_loss_eval(void *ctx, const double *w, double *grad);

/* --------------------------------------------------------------- L-BFGS */

typedef enum luma_LbfgsStatus {
  LUMA_LBFGS_GTOL = 0,       /* projected gradient inf-norm <= gtol */
  LUMA_LBFGS_FTOL,           /* relative reduction of f <= ftol */
  LUMA_LBFGS_XTOL,           /* step inf-norm <= xtol */
  LUMA_LBFGS_MAX_ITER,
  LUMA_LBFGS_MAX_FUN,
  LUMA_LBFGS_LINE_SEARCH,    /* no acceptable step along a descent direction */
  LUMA_LBFGS_CALLBACK,       /* the callback asked to stop */
  LUMA_LBFGS_NAN_VALUE,      /* the objective returned NaN (or -inf/+inf at x0) */
  LUMA_LBFGS_NAN_GRAD,       /* the gradient has a non-finite element */
  LUMA_LBFGS_STOPPED         /* the meter stopped the run (luma_work_status says why) */
} luma_LbfgsStatus;

typedef struct luma_LbfgsOptions {
  int m;                     /* memory (pairs kept) */
  int64_t max_iter, max_fun;
  double gtol, ftol, xtol;
  const double *lower, *upper; /* NULL, or n bounds (may be +-inf) */
  /* Called after each iteration; a nonzero return stops the run. */
  int (*callback)(void *ctx, int64_t iter, const double *x, double f, double gnorm);
  void *callback_ctx;
  /* The meter each iteration (O(m n)) and evaluation (obj->cost) is
   * charged to, or NULL. */
  struct luma_Threads *threads;
} luma_LbfgsOptions;

typedef struct luma_LbfgsResult {
  double f, gnorm;
  int64_t iterations, nfev, ngev;
  luma_LbfgsStatus status;
} luma_LbfgsResult;

/* Scratch doubles luma_lbfgs needs for n parameters and memory m. */
size_t luma_lbfgs_work_size(int64_t n, int m);

/* Minimizes obj from x (overwritten with the result).  Unbounded problems
 * use a strong Wolfe line search (Nocedal & Wright, Algorithms 3.5-3.6);
 * with bounds, x is first projected into the box and the two-loop
 * direction is computed on the free variables, followed by an Armijo
 * search along the projected path.  work holds luma_lbfgs_work_size(n, m)
 * doubles. */
void luma_lbfgs(const luma_Objective *obj, double *x, const luma_LbfgsOptions *o, double *work,
                luma_LbfgsResult *r);

#endif
