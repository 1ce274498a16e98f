/*
 * smo.h - the SMO dual solver of the support vector machines (no Lua).
 *
 * One solver for the five libsvm formulations (C-SVC, nu-SVC, one-class,
 * epsilon-SVR, nu-SVR): sequential minimal optimization with the
 * second-order working-set selection of Fan, Chen & Lin (JMLR 6, 2005,
 * "Working set selection using second order information for training
 * support vector machines", WSS 3), shrinking, and an LRU cache of kernel
 * rows, as LIBSVM implements it (Chang & Lin, ACM TIST 2, 2011).  The
 * nu formulations follow Schölkopf et al. (Neural Computation 12, 2000)
 * through the extra equality constraint of Chang & Lin's Solver_NU.
 * docs/SVM.md writes the algorithm out.
 *
 * Kernel rows missing from the cache are computed as a parallel loop over
 * their entries (each entry on its own, so any thread count gives the same
 * bits).  The cache and every scratch array come from the caller's
 * allocator (lua_Alloc semantics, used only from the calling thread), so a
 * host's memory limit covers them; nothing is left allocated on return.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SVM_SMO_H
#define LUMA_ML_SVM_SMO_H

#include <stddef.h>
#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"
#include "pairwise/pairwise.h"
#include "sparse/sparse.h"

/* lua_Alloc's contract: (ud, ptr, old size, new size); new size 0 frees. */
typedef void *(*luma_SvmAllocFn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef enum luma_SvmFormulation {
  LUMA_SVM_C_SVC,       /* min 1/2 a'Qa - e'a, y'a = 0, 0 <= a_i <= C_i */
  LUMA_SVM_NU_SVC,      /* min 1/2 a'Qa, y'a = 0, e'a = nu sum w, 0 <= a_i <= w_i */
  LUMA_SVM_ONE_CLASS,   /* min 1/2 a'Ka, e'a = nu sum w, 0 <= a_i <= w_i */
  LUMA_SVM_EPSILON_SVR, /* the 2l-variable dual of notes 003 §1.16 (a and a*) */
  LUMA_SVM_NU_SVR       /* the same with epsilon a variable, e'(a + a*) = C nu sum w */
} luma_SvmFormulation;

/* kernel value meaning x holds a Gram matrix: k(i, j) = x[i][j]. */
#define LUMA_SVM_PRECOMPUTED (-1)

typedef struct luma_SvmProblem {
  luma_SvmFormulation type;
  int64_t l;            /* training points */
  const luma_Mat *x;    /* data (n x d), or a Gram matrix (n x n) */
  const luma_Sparse *sx; /* or the data as a CSR matrix (x NULL; not precomputed) */
  const int64_t *rows;  /* the l points' rows of x, 0-based */
  const double *y;      /* classes +1/-1 (SVC), targets (SVR); unused by one-class */
  const double *weight; /* per point factors of the bound (NULL: all 1) */
  int kernel;           /* LINEAR, POLYNOMIAL, RBF, SIGMOID or LAPLACIAN of
                           luma_Kernel, or LUMA_SVM_PRECOMPUTED */
  luma_KernelParams kp;
  double C, nu, epsilon;
  double diag;          /* added to k(x_i, x_i) (the L2-SVM's 1/gamma); 0 */
  double tol;           /* KKT stopping tolerance (libsvm's eps) */
  int shrinking;
  int64_t max_iter;     /* <= 0: libsvm's cap, max(10^7, 100 l) */
  double cache_mb;      /* kernel cache size in MB (at least two rows) */
} luma_SvmProblem;

typedef struct luma_SvmSolution {
  double rho;           /* decision f(x) = sum coef_i k(x_i, x) - rho */
  double obj;           /* the dual objective at the solution */
  double r;             /* nu solvers: the scale (nu-SVC: C = 1/r; nu-SVR: epsilon = -r) */
  int64_t iterations;
  int reached_max_iter; /* stopped by max_iter before the KKT tolerance */
} luma_SvmSolution;

typedef enum luma_SvmStatus {
  LUMA_SVM_OK = 0,
  LUMA_SVM_STOPPED,     /* the meter stopped the run (luma_work_status says why) */
  LUMA_SVM_NO_MEMORY    /* the allocator refused even two kernel rows */
} luma_SvmStatus;

/* Solves p; coef (l doubles) receives the decision coefficients: y_i a_i
 * for classification, a_i - a*_i for regression, a_i for one-class, so
 * that f(x) = sum_i coef_i k(x_i, x) - rho.  The kernel rows are charged
 * to the meter t by their parallel loops, and every iteration (O(l): the
 * working-set selection and the gradient update) in batches, cached rows
 * or not; t may be NULL (serial, no stop checks). */
luma_SvmStatus luma_svm_solve(luma_Threads *t, luma_SvmAllocFn alloc, void *ud,
                              const luma_SvmProblem *p, double *coef, luma_SvmSolution *out);

#endif
