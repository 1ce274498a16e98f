/*
 * hierarchy.h - agglomerative clustering, minimum spanning trees and the
 * DBSCAN expansion (no Lua).
 *
 * Distances between n points are kept "condensed", as SciPy keeps them:
 * the n (n - 1) / 2 values d(i, j), i < j, row after row
 * (luma_hc_index).  Clusters live in slots: a merge of the clusters in
 * slots x < y leaves the new cluster in slot y (SciPy's and fastcluster's
 * convention), so a slot's own point is always a member of the cluster in
 * it, and a merge is recorded as the two slots' points.
 *
 * Merge records (the rows of Z, n - 1 of them, row-major n - 1 x 4) are
 * (a, b, distance, size) with 0-based ids; luma_hc_label turns them into
 * SciPy's linkage matrix: rows in merge order (stably sorted by distance
 * when asked), a < b, leaves 0..n-1 and the cluster of row r numbered
 * n + r.
 *
 * Algorithms (Müllner, "Modern hierarchical, agglomerative clustering
 * algorithms", arXiv:1109.2378, 2011): the nearest-neighbour chain for
 * complete, average and Ward linkage (reducible methods: merging two
 * mutual nearest neighbours never brings another cluster closer), Prim's
 * minimum spanning tree for single linkage, and the generic algorithm
 * with lower bounds on each cluster's nearest-neighbour distance for
 * merges restricted by a connectivity graph.  Distances to a merged
 * cluster follow the Lance-Williams updates (Ward's on squared
 * distances, so no square root per update).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_HIERARCHY_H
#define LUMA_ML_HIERARCHY_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"
#include "neighbors/neighbors.h"

typedef enum luma_HcMethod {
  LUMA_HC_SINGLE,
  LUMA_HC_COMPLETE,
  LUMA_HC_AVERAGE,
  LUMA_HC_WARD
} luma_HcMethod;

/* Position of d(i, j), i < j, in the condensed array of n points. */
static inline int64_t luma_hc_index(int64_t n, int64_t i, int64_t j) {
  return i * n - i * (i + 1) / 2 + (j - i - 1);
}

/* out (condensed) = the distances between the rows of x (n x d, row-major
 * contiguous) under metric m (not a callback), as a parallel loop over
 * rows; returns the loop's status. */
luma_LoopStatus luma_hc_condensed(luma_Threads *t, const luma_NnMetric *m, const double *x,
                                  int64_t n, int64_t d, double *out);

/* Nearest-neighbour chain (complete, average or Ward) over the condensed
 * distances D (overwritten): n - 1 merge records into Z.  iwork: 3n
 * int64.  Returns 0, or 1 when the meter stopped it (Z incomplete). */
int luma_hc_nn_chain(int64_t n, double *D, luma_HcMethod method, double *Z, int64_t *iwork,
                     luma_Threads *meter);

/* Ward's linkage of the rows of cent (n x d, row-major, overwritten by
 * the centroids) by the same chain without a distance matrix: merge
 * records into Z as luma_hc_nn_chain.  iwork: 3n int64.  Returns 0 or 1
 * (stopped by the meter). */
int luma_hc_ward_chain(int64_t n, int64_t d, double *cent, double *Z, int64_t *iwork,
                       luma_Threads *meter);

/* Adds to the condensed adjacency A (0/1 bytes) the edge of smallest
 * distance D between every two connected components (scikit-learn's
 * completion of a disconnected connectivity graph).  iwork: 3n int64,
 * dwork: n doubles.  Returns the number of components before completion. */
int64_t luma_hc_connect_components(int64_t n, const double *D, unsigned char *A,
                                   int64_t *iwork, double *dwork);

/* The generic algorithm restricted to adjacent clusters (A, condensed,
 * updated: a merged cluster is adjacent to what either part was; A must
 * connect all points).  Ward uses its Lance-Williams update on every
 * pair; single, complete and average combine only the distances of
 * adjacent pairs: the smaller, the larger, or their size-weighted mean,
 * and a pair adjacent through one part alone keeps that part's distance
 * (scikit-learn's structured linkages).  iwork: 3n int64, dwork: n
 * doubles.  Returns 0, 1 (stopped by the meter) or 2 (A not connected). */
int luma_hc_generic(int64_t n, double *D, unsigned char *A, luma_HcMethod method, double *Z,
                    int64_t *iwork, double *dwork, luma_Threads *meter);

/* Prim's minimum spanning tree of the complete graph on n points, with
 * distances from the rows of x (n x d, row-major contiguous) under m, or
 * (x NULL) read from the n x n matrix dm.  Edge k joins from[k] (in the
 * tree) to to[k] (added k-th) at weight w[k], in the order Prim's
 * algorithm adds them, starting from point 0, the smaller index first
 * among equal distances.  dwork: n doubles, iwork: 2n int64.  Returns 0,
 * or 1 when the meter stopped it. */
int luma_hc_mst(int64_t n, const double *x, int64_t d, const luma_NnMetric *m,
                const luma_Mat *dm, int64_t *from, int64_t *to, double *w, double *dwork,
                int64_t *iwork, luma_Threads *meter);

/* Relabels the merge records Z (rows (a, b, distance, ...) with a and b
 * points of the merged clusters) into SciPy's linkage matrix: with sort,
 * rows stably sorted by distance first (valid for monotone merge
 * sequences: chain and spanning-tree results); then a, b become the
 * current cluster ids (smaller first) and column 4 the merged size.
 * iwork: 4n int64, dwork: 4n doubles. */
void luma_hc_label(int64_t n, double *Z, int sort, int64_t *iwork, double *dwork);

/* DBSCAN (Ester et al. 1996) from neighbourhoods in CSR form (the
 * neighbours of point i, itself included, are ind[off[i] .. off[i+1]),
 * 0-based): core[i] = 1 when the neighbourhood's weight (w, or 1 each)
 * reaches min_samples; labels (n doubles): 0 for noise, clusters 1, 2,
 * ... numbered in the order of their first core point, each border point
 * in the first cluster that reaches it (scikit-learn's order).  stack: n
 * int64.  Returns the number of clusters. */
int64_t luma_hc_dbscan(int64_t n, const int64_t *off, const int64_t *ind, const double *w,
                       double min_samples, unsigned char *core, int64_t *stack,
                       double *labels);

#endif
