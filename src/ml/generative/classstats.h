/*
 * classstats.h - per-class sufficient statistics of labelled rows (no Lua).
 *
 * The generative classifiers (luma.discriminant, luma.naive_bayes) fit one
 * Gaussian (or one count vector) per class.  These kernels make that one
 * or two passes over X instead of one selection and reduction per class:
 * class codes are 0-based here (the binding converts from Lua's 1..k).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CLASSSTATS_H
#define LUMA_ML_CLASSSTATS_H

#include <stdint.h>

#include "core/matrix.h"

/* codes[i] = the 0-based index of y[i] in the ascending classes (k x 1),
 * by binary search.  Returns -1 on success, or the 0-based row of the first
 * value of y that is not among the classes. */
int64_t luma_class_codes(const luma_Mat *y, const luma_Mat *classes, int64_t *codes);

/* Per-class counts (k), means (k x d) and, when vars is not NULL, biased
 * variances (k x d, dividing by the class count: the maximum-likelihood
 * estimate).  Two passes (sums, then squared deviations from the means),
 * so the variances do not suffer the cancellation of E[x^2] - E[x]^2.
 * A class without rows gets count 0 and NaN statistics.  Returns -1, or
 * the flat index i * d + j of the first non-finite element of x (then the
 * outputs are unspecified). */
int64_t luma_class_moments(const luma_Mat *x, const int64_t *codes, int64_t k, double *counts,
                           luma_Mat *means, luma_Mat *vars);

/* Per-class column sums (k x d) and counts (k), without any check. */
void luma_class_sums(const luma_Mat *x, const int64_t *codes, int64_t k, double *counts,
                     luma_Mat *sums);

/* out[i][j] = (x[i][j] - means[codes[i]][j]) * scale[j] (scale NULL: 1).
 * out may be x itself. */
void luma_class_center(const luma_Mat *x, const int64_t *codes, const luma_Mat *means,
                       const double *scale, luma_Mat *out);

/* The flat index i * cols + j of the first non-finite element, or -1. */
int64_t luma_first_nonfinite(const luma_Mat *x);

#endif
