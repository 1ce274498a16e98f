/*
 * pairwise.h - pairwise distance and kernel (Gram) matrices between the
 * rows of two matrices (no Lua).
 *
 * Rows are samples: x is n x d, y is m x d, the result n x m.  y == NULL
 * means y = x (the "self" case): the result is then exactly symmetric,
 * computed once per pair and mirrored, and its diagonal is the exact value
 * of a point with itself (distance 0, RBF 1, ...) unless the row holds a
 * NaN.  A NaN in a row gives NaN in that row (and column) of the result.
 *
 * Euclidean, squared Euclidean, cosine and the kernels of an inner product
 * or a squared distance go through BLAS (dsyrk for x with itself, dgemm
 * otherwise): |x|^2 + |y|^2 - 2 x.y, negatives from cancellation clamped
 * to 0.  Manhattan, Chebyshev, Minkowski and the Laplacian kernel are
 * blocked loops.
 *
 * Inputs may have any layout; a computation copies what BLAS (or the
 * loops, which want unit column stride) cannot read into caller-provided
 * scratch, sized by the *_work functions.  out must not overlap x or y.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_PAIRWISE_H
#define LUMA_ML_PAIRWISE_H

#include <stddef.h>

#include "core/matrix.h"
#include "core/parallel.h"

typedef enum luma_Metric {
  LUMA_METRIC_EUCLIDEAN,
  LUMA_METRIC_SQEUCLIDEAN,
  LUMA_METRIC_MANHATTAN,
  LUMA_METRIC_CHEBYSHEV,
  LUMA_METRIC_MINKOWSKI, /* needs p >= 1; p = inf is Chebyshev */
  LUMA_METRIC_COSINE     /* 1 - cosine similarity, in [0, 2] */
} luma_Metric;

typedef enum luma_Kernel {
  LUMA_KERNEL_LINEAR,             /* x.y */
  LUMA_KERNEL_POLYNOMIAL,         /* (gamma x.y + coef0)^degree */
  LUMA_KERNEL_RBF,                /* exp(-gamma |x-y|^2) */
  LUMA_KERNEL_LAPLACIAN,          /* exp(-gamma |x-y|_1) */
  LUMA_KERNEL_SIGMOID,            /* tanh(gamma x.y + coef0) */
  LUMA_KERNEL_RATIONAL_QUADRATIC, /* (1 + |x-y|^2 / (2 alpha l^2))^-alpha */
  LUMA_KERNEL_COSINE              /* x.y / (|x| |y|), 0 for a zero vector */
} luma_Kernel;

typedef struct luma_KernelParams {
  double gamma, coef0;
  int degree;
  double alpha, length_scale;
} luma_KernelParams;

/* Doubles of scratch that the computation with these operands needs
 * (y NULL for the self case). */
size_t luma_pairwise_distances_work(luma_Metric metric, const luma_Mat *x, const luma_Mat *y,
                                    const luma_Mat *out);
size_t luma_pairwise_kernel_work(luma_Kernel kernel, const luma_Mat *x, const luma_Mat *y,
                                 const luma_Mat *out);

/* Both computations below run as a parallel loop over t's threads (t
 * NULL: serially) with results independent of the thread count, and
 * return the loop's status (interrupted or over budget: out is partly
 * written).
 *
 * out (n x m) = distances between the rows of x and of y.  p is the
 * Minkowski exponent (ignored by the other metrics).  Cosine follows
 * scikit-learn: a zero vector is at distance 1 from everything (and 0 from
 * itself in the self case). */
luma_LoopStatus luma_pairwise_distances(luma_Threads *t, luma_Metric metric, double p,
                                        const luma_Mat *x, const luma_Mat *y, luma_Mat *out,
                                        double *work);

/* out (n x m) = the kernel between the rows of x and of y. */
luma_LoopStatus luma_pairwise_kernel(luma_Threads *t, luma_Kernel kernel,
                                     const luma_KernelParams *kp, const luma_Mat *x,
                                     const luma_Mat *y, luma_Mat *out, double *work);

/* out (n x 1) = k(x_i, x_i) for each row, without a Gram matrix. */
void luma_pairwise_kernel_diag(luma_Kernel kernel, const luma_KernelParams *kp, const luma_Mat *x,
                               luma_Mat *out);

/* For operands that are not dense (sparse matrices): out (n x m, unit
 * column stride) holds the Gram matrix x.y, computed by the caller, and
 * is turned in place into the metric (is_kernel 0, which a luma_Metric)
 * or kernel (is_kernel 1, which a luma_Kernel), as the dense path
 * finishes it.  a and b are the rows' squared norms, or their inverse
 * norms (0 for a zero row) when luma_pairwise_gram_inverse_norms says so.
 * self: y is x (the upper part mirrored, the diagonal exact).  Returns 0,
 * or -1 for a metric or kernel that is not a function of the Gram matrix
 * (Manhattan, Chebyshev, Minkowski, Laplacian). */
int luma_pairwise_finish_gram(int is_kernel, int which, const luma_KernelParams *kp, luma_Mat *out,
                              const double *a, const double *b, int self);
int luma_pairwise_gram_inverse_norms(int is_kernel, int which);

/* Mahalanobis distances are Euclidean distances between whitened rows. */
enum { LUMA_PAIRWISE_OK, LUMA_PAIRWISE_NOT_FINITE, LUMA_PAIRWISE_NOT_SYMMETRIC,
       LUMA_PAIRWISE_NOT_POSITIVE_DEFINITE };

/* Lower Cholesky factor L of the d x d matrix m (m = L L^T), column-major
 * into factor (d*d doubles).  m must be finite, symmetric (to a relative
 * 1e-10 of its largest element) and positive definite; returns
 * LUMA_PAIRWISE_OK or the first condition that fails. */
int luma_pairwise_cholesky(const luma_Mat *m, double *factor);

/* z (n x d, row-major contiguous) = the rows of x whitened with the factor
 * of m: z_i = L^-1 x_i when m is the covariance, z_i = L^T x_i when m is
 * its inverse (from_inverse), so that |z_i - z_j| is the Mahalanobis
 * distance. */
void luma_pairwise_whiten(const double *factor, int from_inverse, const luma_Mat *x, luma_Mat *z);

#endif
