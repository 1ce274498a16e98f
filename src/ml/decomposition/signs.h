/*
 * signs.h - helpers of the SVD-based solvers (no Lua): the sign rule of
 * scikit-learn's svd_flip, and the centred transpose that hands a tall
 * matrix to LAPACK in the layout it factors fastest.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SIGNS_H
#define LUMA_ML_SIGNS_H

#include <stdint.h>

#include "core/matrix.h"

/* signs[i] = the sign (+1 or -1; +1 for an all-zero row) of the entry of
 * row i of m largest in magnitude, the first such entry on ties: the
 * factor svd_flip applies to make it positive.  One pass over m. */
void luma_max_abs_signs(const luma_Mat *m, double *signs);

/* out (cols x rows, row-major contiguous) = (x - 1 mean)^T, by square
 * tiles so that both the reads and the writes stay in cache; mean holds
 * x->cols values (NULL: no centring). */
void luma_centred_transpose(const luma_Mat *x, const double *mean, double *out);

#endif
