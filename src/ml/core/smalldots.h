/*
 * smalldots.h - nearest vectors by |v|^2 - 2 x.v for a block of rows and
 * a few vectors of small dimension (k-means' assignment, d = 20, k = 16),
 * where BLAS's packing of the rows costs as much as its products.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CORE_SMALLDOTS_H
#define LUMA_ML_CORE_SMALLDOTS_H

#include <stdint.h>

/* The vectors' columns come in groups of this many (see luma_small_nearest). */
#define LUMA_SMALL_DOTS_GROUP 16

/* Whether luma_small_nearest runs vectorized on this CPU (AVX2 and FMA,
 * or AVX-512); elsewhere it is correct but slower than BLAS. */
int luma_small_dots_available(void);

/* For each row r < rows of x (row stride ldx, d coordinates) the column
 * c < cols minimising bias[c] - 2 sum_j x[r ldx + j] vt[j ldv + c]: kept
 * in best[r], label[r] = c when strictly below best[r] (ties keep the
 * lowest c).  vt holds the vectors as columns, d x ldv, and vt and bias
 * must be readable up to cols rounded up to LUMA_SMALL_DOTS_GROUP, the
 * padding columns zero and their bias +inf. */
void luma_small_nearest(int64_t rows, int64_t cols, int64_t d, const double *x, int64_t ldx,
                        const double *vt, int64_t ldv, const double *bias, double *best,
                        int64_t *label);

/* The same choice from products already computed: g[r ld + c] = x_r.v_c
 * for c < cols, label c0 + c.  Updates best and label as above. */
void luma_nearest_of_products(int64_t rows, int64_t cols, const double *g, int64_t ld,
                              const double *bias, int64_t c0, double *best, int64_t *label);

#endif
