/*
 * range_pass.h - one pass of the randomized range finder over a tall
 * matrix (no Lua).
 *
 * For A = X - 1 mean (implicit centring, mean may be NULL) and a d x c
 * block Q, one read of X gives S = A^T (A Q) (d x c), optionally P = A Q
 * (n x c) and |A|_F^2.  The rows are cut into chunks of a parallel loop;
 * each chunk walks its rows in blocks that stay in the core's cache and
 * multiplies each block twice (P_b = A_b Q, S_chunk += A_b^T P_b) with
 * core/narrow.c's unpacked kernels for up to 64 columns where they are
 * vectorized, else single-threaded dgemm, so X comes from memory once and
 * no BLAS thread team is woken for the small products.  The chunks' partial sums are
 * added in chunk order: the same bits for any thread count.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_RANGE_PASS_H
#define LUMA_ML_RANGE_PASS_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* Doubles of work luma_range_pass needs for an n x d X and c columns. */
int64_t luma_range_pass_work(int64_t n, int64_t d, int64_t c);

/* x: n x d (any strides); mean: d values or NULL; q: d x c row-major
 * contiguous; s: d x c row-major contiguous (written); p: n x c
 * row-major contiguous or NULL; ss: |A|_F^2 or NULL (not computed). */
luma_LoopStatus luma_range_pass(luma_Threads *t, const luma_Mat *x, const double *mean,
                                const double *q, int64_t c, double *s, double *p, double *ss,
                                double *work);

#endif
