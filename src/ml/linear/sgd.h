/*
 * sgd.h - plain stochastic gradient descent for linear models, as
 * scikit-learn's _plain_sgd (SGDClassifier, SGDRegressor), over a dense
 * or a CSR sparse X (no Lua).
 *
 * Each step takes one sample (in a new random order each epoch when
 * shuffling), p = x.w + b, the step size eta of the schedule, shrinks w
 * by (1 - (1 - l1_ratio) eta alpha) (kept as a scale factor, so a step
 * costs the sample's entries only), adds -eta dloss(p, y) s x, and for
 * the l1 part applies Tsuruoka, Tsujii and Ananiadou's cumulative
 * penalty (ACL 2009) to the sample's nonzero features (scikit-learn
 * applies it to every feature of a dense row; here a dense row is
 * treated as the sparse one with its elements, for the same model).  An epoch whose summed
 * loss is not below the best by tol n counts as no improvement; n of
 * them in a row stop the run.  Unlike scikit-learn, the intercept of a
 * sparse X is updated as a dense one's (no 0.01 decay), so both give the
 * same model.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SGD_H
#define LUMA_ML_SGD_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"
#include "sparse/sparse.h"
#include "stats/random.h"

typedef enum luma_SgdLoss {
  LUMA_SGD_HINGE,          /* max(0, 1 - y p), y in {-1, 1} */
  LUMA_SGD_LOG,            /* log(1 + e^(-y p)) */
  LUMA_SGD_MODIFIED_HUBER, /* (1 - y p)^2 for y p >= -1, else -4 y p */
  LUMA_SGD_SQUARED         /* (p - y)^2 / 2 */
} luma_SgdLoss;

typedef enum luma_SgdRate {
  LUMA_SGD_OPTIMAL,    /* 1 / (alpha (t0 + t - 1)), Bottou's t0 */
  LUMA_SGD_CONSTANT,   /* eta0 */
  LUMA_SGD_INVSCALING  /* eta0 / t^power_t */
} luma_SgdRate;

typedef struct luma_SgdProblem {
  const luma_Mat *x;       /* n x d, or NULL with sx */
  const luma_Sparse *sx;   /* CSR n x d */
  const double *y;         /* n targets (+-1 for the classification losses) */
  const double *weights;   /* n sample weights, or NULL */
  double weight_pos, weight_neg; /* class weights of y > 0 and y <= 0 */
  luma_SgdLoss loss;
  double alpha, l1_ratio;  /* penalty alpha (l1_ratio |w|_1 + (1 - l1_ratio)/2 |w|^2) */
  int no_penalty;          /* alpha then only sets the optimal schedule */
  luma_SgdRate rate;
  double eta0, power_t;
  int fit_intercept, shuffle;
  int64_t max_iter, n_iter_no_change;
  double tol;              /* -inf: no stopping on the loss */
  luma_Rng *rng;
  luma_Threads *threads;   /* the meter each step is charged to */
} luma_SgdProblem;

/* Scratch in doubles (the cumulative l1 penalties, the sample order). */
int64_t luma_sgd_work(int64_t n, int64_t d);

/* Runs from w (d) and *b; returns 1 when it stopped on the loss before
 * max_iter epochs, 0 otherwise or when the meter stopped it; *epochs and
 * *t (the steps taken plus one, scikit-learn's t_) report the work.
 * Returns -1 if the weights became non-finite. */
int luma_sgd_fit(const luma_SgdProblem *p, double *w, double *b, double *scratch, int64_t *epochs,
                 double *t);

#endif
