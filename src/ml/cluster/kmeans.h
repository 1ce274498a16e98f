/*
 * kmeans.h - k-means iterations (no Lua): Lloyd's algorithm and Elkan's
 * accelerated variant, and the nearest-centre assignment that predict,
 * score and the mini-batch updates share.
 *
 * The rows x (n x d) are row-major and contiguous (the binding packs a
 * view); w holds n sample weights, or is NULL for weight 1 each; centres
 * are k x d row-major.  Labels are 0-based here.
 *
 * Work is a parallel loop over fixed chunks of rows (core/parallel.h):
 * each chunk writes its own rows' labels and one partial sum of the
 * cluster totals, which are added in chunk order afterwards, so results
 * are bit-identical for any thread count.
 *
 * Lloyd's assignment computes |c|^2 - 2 x.c for blocks of rows and
 * centres with one BLAS product each (the |x|^2 term does not change the
 * nearest centre) and accumulates the weighted sums of the new centres
 * in the same pass.  Elkan's variant keeps an upper bound on each row's
 * distance to its centre and a lower bound to every other centre (n x k)
 * and skips the distances the triangle inequality rules out (Elkan,
 * "Using the triangle inequality to accelerate k-means", ICML 2003).
 * Both follow scikit-learn 1.2.1 (_k_means_lloyd.pyx, _k_means_elkan.pyx):
 * the iteration stops when no label changes, or when the sum of squared
 * centre shifts is at most tol; without the first, a last assignment
 * makes the labels match the final centres.  A cluster left empty takes
 * the row farthest from its centre (scikit-learn's relocation).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_KMEANS_H
#define LUMA_ML_KMEANS_H

#include <stdint.h>

#include "core/parallel.h"

typedef struct luma_KMeansData {
  const double *x; /* n x d, row-major contiguous */
  const double *w; /* n weights, or NULL */
  int64_t n, d;
} luma_KMeansData;

typedef enum luma_KMeansAlgorithm { LUMA_KMEANS_LLOYD, LUMA_KMEANS_ELKAN } luma_KMeansAlgorithm;

typedef struct luma_KMeansResult {
  int64_t n_iter;
  double inertia;   /* sum_i w_i |x_i - c_label(i)|^2 */
  int converged;    /* stopped before max_iter (labels stable or shift <= tol) */
  int64_t relocated; /* empty clusters re-seeded over the run */
} luma_KMeansResult;

/* Doubles of scratch a fit needs. */
int64_t luma_kmeans_fit_work(luma_KMeansAlgorithm algorithm, int64_t n, int64_t d, int64_t k);

/* Runs at most max_iter iterations from centers (k x d, updated in place)
 * and leaves the final labels (n, 0-based) and the result.  work:
 * luma_kmeans_fit_work doubles. */
luma_LoopStatus luma_kmeans_fit(luma_Threads *t, luma_KMeansAlgorithm algorithm,
                                const luma_KMeansData *data, int64_t k, int64_t max_iter,
                                double tol, double *centers, int64_t *labels,
                                luma_KMeansResult *result, double *work);

/* Doubles of scratch an assignment needs. */
int64_t luma_kmeans_assign_work(int64_t n, int64_t d, int64_t k);

/* labels[i] = the nearest centre of row i (ties: the lowest index);
 * dist[i] (if not NULL) = its squared distance, computed directly;
 * *inertia = sum_i w_i dist[i].  When sums is not NULL it receives the
 * weighted sums of each cluster's rows (k x d) and weights their total
 * weights (k).  work: luma_kmeans_assign_work doubles. */
luma_LoopStatus luma_kmeans_assign(luma_Threads *t, const luma_KMeansData *data, int64_t k,
                                   const double *centers, int64_t *labels, double *dist,
                                   double *inertia, double *sums, double *weights,
                                   double *work);

#endif
