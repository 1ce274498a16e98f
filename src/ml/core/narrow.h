/*
 * narrow.h - products of a block of rows with a narrow matrix (a few tens
 * of columns), read in place: the randomized range finder's X Q and
 * X^T (X Q), where OpenBLAS's packing of the block took a third of the
 * time (perf, PCA on 5e4 x 1000, 30 columns).  No Lua.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CORE_NARROW_H
#define LUMA_ML_CORE_NARROW_H

#include <stdint.h>

/* Whether the products below run vectorized here (AVX-512); elsewhere
 * they are correct but slower than BLAS, which callers should use. */
int luma_narrow_available(void);

/* p = x q: x is rows x d (row stride ldx), q is d x c (ldq), p is
 * rows x c (ldp); all row-major. */
void luma_narrow_xq(int64_t rows, int64_t d, int64_t c, const double *x, int64_t ldx,
                    const double *q, int64_t ldq, double *p, int64_t ldp);

/* s += x^T p: x is rows x d (ldx), p is rows x c (ldp), s is d x c (lds). */
void luma_narrow_xtp(int64_t rows, int64_t d, int64_t c, const double *x, int64_t ldx,
                     const double *p, int64_t ldp, double *s, int64_t lds);

#endif
