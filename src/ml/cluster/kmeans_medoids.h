/*
 * kmeans_medoids.h - k-medoids by PAM (no Lua): the greedy BUILD and the
 * SWAP phase of Kaufman and Rousseeuw (Finding Groups in Data, 1990,
 * ch. 2), SWAP evaluated as FastPAM1 (Schubert and Rousseeuw, "Faster
 * k-medoids clustering", SISAP 2019): every (medoid, non-medoid) exchange
 * in O(n^2) per iteration instead of O(k n^2), the same choices as PAM.
 *
 * d is an n x n dissimilarity matrix (row-major, contiguous); medoids are
 * 0-based row numbers.  Candidates are the chunks of a parallel loop
 * (core/parallel.h), each keeping its best exchange, compared in chunk
 * order afterwards (ties: the lowest candidate, then the lowest medoid),
 * so results are identical for any thread count.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_KMEANS_MEDOIDS_H
#define LUMA_ML_KMEANS_MEDOIDS_H

#include <stdint.h>

#include "core/parallel.h"

/* Doubles of scratch for BUILD and SWAP. */
int64_t luma_kmedoids_work(int64_t n, int64_t k);

/* BUILD: medoids[0] minimizes the summed dissimilarity to all rows; each
 * next one lowers that total most. */
luma_LoopStatus luma_kmedoids_build(luma_Threads *t, const double *d, int64_t n, int64_t k,
                                    int64_t *medoids, double *work);

/* SWAP from medoids (updated in place): the best exchange of a medoid
 * and a non-medoid while it lowers the total dissimilarity, at most
 * max_iter exchanges.  Leaves labels (n, 0..k-1, the nearest medoid;
 * ties: the lower medoid position), the total dissimilarity and the
 * exchanges made. */
luma_LoopStatus luma_kmedoids_swap(luma_Threads *t, const double *d, int64_t n, int64_t k,
                                   int64_t *medoids, int64_t max_iter, int64_t *labels,
                                   double *total, int64_t *n_iter, double *work);

#endif
