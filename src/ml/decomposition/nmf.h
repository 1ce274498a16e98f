/*
 * nmf.h - the coordinate-descent sweep of NMF (no Lua).
 *
 * One sweep updates every column t of W (in the given order) for the
 * problem min |X - W H|^2 with the Gram quantities HHt = H H^T (k x k,
 * penalties already on it) and XHt = X H^T (n x k):
 *   grad = (W HHt)[i][t] - XHt[i][t],  W[i][t] <- max(0, W[i][t] - grad / HHt[t][t])
 * (scikit-learn's _update_cdnmf_fast).  Row i's updates read only row i
 * of W, so rows are the chunks of a parallel loop and each row goes
 * through the columns in order, as in scikit-learn's loops: the same
 * arithmetic for any thread count (the dot products in (W HHt)[i][t]
 * are summed in four partial sums, so the last bits differ from
 * scikit-learn's single sum).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NMF_H
#define LUMA_ML_NMF_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* Updates W (n x k) in place; *violation gets the sum of |projected
 * gradient| over every (i, t) (partial sums per chunk, added in chunk
 * order).  order: the k columns, 0-based.  work: luma_nmf_cd_work(n)
 * doubles. */
int64_t luma_nmf_cd_work(int64_t n);
luma_LoopStatus luma_nmf_cd_sweep(luma_Threads *t, luma_Mat *w, const luma_Mat *hht,
                                  const luma_Mat *xht, const int64_t *order, double *violation,
                                  double *work);

/* The same sweep with XHt = X Ht - l1 computed in it: each chunk of rows
 * multiplies its rows of X by Ht (single-threaded dgemm, BLAS pinned to
 * one thread) into a buffer still in cache when the chunk's rows of W are
 * swept, so X H^T never makes a trip to memory and no BLAS thread team is
 * woken.  x: n x d, ht: d x k, each with contiguous rows or contiguous
 * columns (luma_nmf_blas_ready); hht has the l2 penalty on its diagonal.
 * Violation partials per chunk, added in chunk order: the same bits for
 * any thread count.  work: luma_nmf_cd_fused_work(n, d, k) doubles. */
int luma_nmf_blas_ready(const luma_Mat *m);
int64_t luma_nmf_cd_fused_work(int64_t n, int64_t d, int64_t k);
luma_LoopStatus luma_nmf_cd_fused_sweep(luma_Threads *t, const luma_Mat *x, const luma_Mat *ht,
                                        luma_Mat *w, const luma_Mat *hht, double l1,
                                        const int64_t *order, double *violation, double *work);

#endif
