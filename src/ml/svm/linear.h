/*
 * linear.h - linear SVMs by coordinate descent, LIBLINEAR's methods
 * (no Lua).
 *
 * Dual coordinate descent of Hsieh, Chang, Lin, Keerthi & Sundararajan
 * ("A dual coordinate descent method for large-scale linear SVM", ICML
 * 2008) for the L2-regularized L1-loss (hinge) and L2-loss (squared
 * hinge) classifiers and their epsilon-insensitive regression forms (Ho &
 * Lin, JMLR 13, 2012), with its shrinking; and the primal coordinate
 * descent with Newton steps and line search for the L1-regularized
 * L2-loss classifier (Yuan, Chang, Hsieh & Lin, JMLR 11, 2010), all as
 * LIBLINEAR implements them (Fan et al., JMLR 9, 2008).
 *
 * Rows of x are samples (row-major with unit column stride); a bias > 0
 * appends a constant feature of that value, whose weight is the last
 * element of w (and is regularized, as in LIBLINEAR).  Coordinates are
 * visited in a random order drawn from seed, so results depend only on
 * it.  Scratch is the caller's.  Every coordinate step is charged to the
 * meter `threads` (may be NULL) in batches; when it stops, the run ends
 * with `stopped` set (luma_work_status says why).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SVM_LINEAR_H
#define LUMA_ML_SVM_LINEAR_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"
#include "sparse/sparse.h"

typedef struct luma_LinearSvm {
  const luma_Mat *x;   /* l x d, unit column stride (NULL with sx) */
  const luma_Sparse *sx; /* or a CSR l x d (the dual solvers) */
  const luma_Sparse *scx; /* or the CSC arrays of X, d "rows" of l (the l1 primal solver) */
  const double *y;     /* classes +1/-1, or regression targets */
  const double *C;     /* per-sample penalty (C x weights) */
  double bias;         /* value of the appended constant feature; <= 0: none */
  int loss;            /* 1: hinge / epsilon-insensitive, 2: their squares */
  double epsilon;      /* regression: the insensitive zone */
  double tol;
  int64_t max_iter;    /* passes over the data */
  uint64_t seed;
  luma_Threads *threads;
} luma_LinearSvm;

typedef struct luma_LinearSvmResult {
  int64_t iterations;
  int converged;
  int stopped; /* the meter stopped the run */
} luma_LinearSvmResult;

enum { LUMA_LINEAR_SVC_DUAL, LUMA_LINEAR_SVR_DUAL, LUMA_LINEAR_SVC_L1_PRIMAL };

/* Scratch doubles (returned) and int64s (*iwork) a solver needs for l
 * samples and wd weights (d, plus one with a bias); sparse_nnz is the
 * entries of a sparse X, or -1 for a dense one. */
int64_t luma_linear_svm_work(int64_t l, int64_t wd, int which, int64_t sparse_nnz,
                             int64_t *iwork);

/* w (d + (bias > 0) doubles) = the classifier's weights by dual coordinate
 * descent; alpha (l doubles, out) the dual variables. */
luma_LinearSvmResult luma_linear_svc_dual(const luma_LinearSvm *p, double *w, double *alpha,
                                          double *work, int64_t *iwork);

/* The same for regression (beta = alpha - alpha*, l doubles). */
luma_LinearSvmResult luma_linear_svr_dual(const luma_LinearSvm *p, double *w, double *beta,
                                          double *work, int64_t *iwork);

/* The L1-regularized L2-loss classifier in the primal, on x or scx. */
luma_LinearSvmResult luma_linear_svc_l1(const luma_LinearSvm *p, double *w, double *work,
                                        int64_t *iwork);

#endif
