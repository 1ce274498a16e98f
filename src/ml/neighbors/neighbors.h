/*
 * neighbors.h - nearest-neighbour indexes over the rows of a matrix (no
 * Lua): brute force through BLAS, KD-tree, ball tree, and the metric-space
 * indexes of notes 000 Ch. 5 (Orchard, AESA, linear AESA with buoys).
 *
 * An index lives in one block of memory that the caller provides (the
 * binding makes it a userdata, so the collector sees its size): a header
 * (luma_NnIndex) followed by its arrays.  The caller fills the shape fields
 * of a header, asks luma_nn_index_bytes for the size, copies the header to
 * the start of the block and calls luma_nn_index_attach, which points the
 * array fields into the block; then a build function fills them.
 *
 * Distances.  Every index compares the same "reduced distance" of a pair,
 * computed by the same function in the same order of operations (metric.h):
 * the sum of squares for Euclidean, of |.|^p for Minkowski, the sum of
 * absolute differences, the largest one, or the value of a callback.  So
 * all indexes agree bit for bit, and the brute force's BLAS form is only a
 * filter: a pair is recomputed directly whenever the Gram-matrix value,
 * less its rounding bound, could reach the current k-th distance.
 *
 * Ties: neighbours are ordered by (distance, index), the smaller index
 * first among equal distances (scikit-learn's rule).  Pruning tests are
 * strict and carry a rounding slack (luma_nn_slack), so a point at exactly
 * the current k-th distance with a smaller index is never pruned away.
 *
 * Indices written into result matrices are 1-based, as Lua reads them;
 * indices in integer arrays (perm, lists, codes, CSR lists) are 0-based.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NEIGHBORS_H
#define LUMA_ML_NEIGHBORS_H

#include <stddef.h>
#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

typedef enum luma_NnAlgorithm {
  LUMA_NN_BRUTE,
  LUMA_NN_KD_TREE,
  LUMA_NN_BALL_TREE,
  LUMA_NN_ORCHARD,
  LUMA_NN_AESA,
  LUMA_NN_LAESA
} luma_NnAlgorithm;

typedef enum luma_NnMetricKind {
  LUMA_NN_EUCLIDEAN, /* reduced: sum of squares */
  LUMA_NN_MANHATTAN,
  LUMA_NN_CHEBYSHEV,
  LUMA_NN_MINKOWSKI, /* reduced: sum of |u - v|^p, p > 1 and finite */
  LUMA_NN_COSINE,    /* 1 - cosine similarity (not a metric: brute force only) */
  LUMA_NN_CALLBACK   /* the caller's function */
} luma_NnMetricKind;

typedef enum luma_NnSplit {
  LUMA_NN_SPLIT_MEDIAN,          /* notes 000 §5.2.2: the median point is the node's */
  LUMA_NN_SPLIT_SLIDING_MIDPOINT /* Maneewongvatana & Mount 1999 */
} luma_NnSplit;

/* A distance d(u, v) >= 0 between two rows of length d; NaN stops the
 * computation (the caller records why, e.g. a Lua error). */
typedef double (*luma_NnCallback)(void *ctx, const double *u, const double *v, int64_t d);

typedef struct luma_NnMetric {
  luma_NnMetricKind kind;
  double p;           /* Minkowski exponent */
  luma_NnCallback fn; /* LUMA_NN_CALLBACK */
  void *ctx;
} luma_NnMetric;

/* A KD-tree node covers the rows [start, end) of the index's data.  A leaf
 * has left = right = -1.  An internal node splits on `axis` at `value`:
 * the left child covers [start, cut) (coordinates <= value), the right
 * child [cut + own, end) (coordinates >= value); with own = 1 the row at
 * cut is the node's own point (the median split).  An empty side is -1. */
typedef struct luma_NnKdNode {
  int64_t start, end, cut, left, right;
  int32_t axis, own;
  double value;
} luma_NnKdNode;

/* A ball-tree node covers rows [start, end); its children split the range
 * at its middle; a leaf has left = right = -1. */
typedef struct luma_NnBallNode {
  int64_t start, end, left, right;
} luma_NnBallNode;

typedef struct luma_NnIndex {
  /* Shape, set by the caller before luma_nn_index_bytes. */
  luma_NnAlgorithm algorithm;
  luma_NnMetricKind metric;
  double p;
  int64_t n, d;
  int64_t leaf_size;  /* trees */
  luma_NnSplit split; /* KD-tree */
  int64_t n_nodes;    /* trees */
  int64_t depth;      /* trees: the longest root-to-leaf path, in nodes */
  int64_t n_buoys;    /* linear AESA */
  int whiten;         /* Mahalanobis: 0 none, 1 factor of the covariance, 2 of its inverse */
  /* Set by the build: the largest stored pairwise distance (metric-space
   * indexes), which scales their rounding slack. */
  double scale;
  /* Arrays inside the block (luma_nn_index_attach); NULL when unused. */
  double *data;           /* n x d, row-major: tree order for trees */
  double *rowval;         /* brute force: scaled squared norms (Euclidean), inverse norms (cosine) */
  double *factor;         /* d x d Cholesky factor (column-major) when whiten != 0 */
  int64_t *perm;          /* trees: original index of each data row */
  luma_NnKdNode *kd;      /* n_nodes */
  double *lo, *hi;        /* KD-tree: n_nodes x d bounding boxes */
  luma_NnBallNode *ball;  /* n_nodes */
  double *centroid;       /* ball tree: n_nodes x d */
  double *radius;         /* ball tree: n_nodes */
  double *pair;           /* Orchard, AESA: the n (n - 1) / 2 distances d(i, j), i < j */
  int32_t *lists;         /* Orchard: row i = the other points by distance to i */
  int64_t *buoys;         /* linear AESA: n_buoys data rows */
  double *buoy_dist;      /* linear AESA: n_buoys x n distances */
} luma_NnIndex;

typedef enum luma_NnStatus {
  LUMA_NN_OK = 0,
  LUMA_NN_INTERRUPTED,  /* the state's interrupt flag */
  LUMA_NN_OVER_BUDGET,  /* the instruction budget */
  LUMA_NN_METRIC_FAILED /* the callback returned NaN */
} luma_NnStatus;

/* ---------------------------------------------------------------- index */

/* Bytes of the block for the header's shape (header included); 0 when the
 * size overflows. */
size_t luma_nn_index_bytes(const luma_NnIndex *shape);

/* Points the array fields of the header at the start of a block of
 * luma_nn_index_bytes bytes into the block itself. */
void luma_nn_index_attach(luma_NnIndex *ix);

/* Copies the rows of x into ix->data (in tree order: row i is x's row
 * perm[i] when perm is set) and computes the brute force's row values. */
void luma_nn_index_fill(luma_NnIndex *ix, const luma_Mat *x);

/* Recomputes the derived arrays after the stored ones were restored
 * (row values; nothing else is derived). */
void luma_nn_index_refresh(luma_NnIndex *ix);

/* ---------------------------------------------------------------- build */

/* Trees are built in scratch (perm: n, nodes: the capacity, keys: n pairs
 * of 16 bytes) before the index is allocated with the node count. */
int64_t luma_nn_kd_capacity(int64_t n, int64_t leaf_size, luma_NnSplit split);
int64_t luma_nn_ball_capacity(int64_t n, int64_t leaf_size);
size_t luma_nn_tree_keys_bytes(int64_t n);

/* Builds the node ranges; returns the node count and sets *depth. */
int64_t luma_nn_kd_build(const luma_Mat *x, int64_t leaf_size, luma_NnSplit split,
                         int64_t *perm, luma_NnKdNode *nodes, void *keys, int64_t *depth);
int64_t luma_nn_ball_build(const luma_Mat *x, int64_t leaf_size, int64_t *perm,
                           luma_NnBallNode *nodes, void *keys, int64_t *depth);

/* After luma_nn_index_fill: the KD-tree's boxes; the ball tree's centroids
 * and radii (distances through the metric, so a callback may fail). */
void luma_nn_kd_boxes(luma_NnIndex *ix);
luma_NnStatus luma_nn_ball_bounds(luma_NnIndex *ix, const luma_NnMetric *m);

/* Metric-space indexes, after luma_nn_index_fill: the pairwise distances
 * (Orchard, AESA), Orchard's sorted lists (scratch: luma_nn_orchard_work
 * bytes per thread), the buoys and their distances (linear AESA).  They
 * run as parallel loops over t (NULL: serially; callbacks need NULL). */
luma_NnStatus luma_nn_pair_build(luma_Threads *t, luma_NnIndex *ix, const luma_NnMetric *m);
size_t luma_nn_orchard_work(int64_t n, int slots);
luma_NnStatus luma_nn_orchard_build(luma_Threads *t, luma_NnIndex *ix, void *work, int slots);
luma_NnStatus luma_nn_laesa_build(luma_Threads *t, luma_NnIndex *ix, const luma_NnMetric *m);

/* Checks a restored index's stored arrays (every node range, child,
 * permutation, list and buoy in bounds; each child after its parent and
 * covering its side's non-empty range, so no node is reachable twice) and
 * sets ix->depth.  work: luma_nn_index_check_work bytes.  Returns NULL
 * when sound, else what is wrong. */
size_t luma_nn_index_check_work(const luma_NnIndex *ix);
const char *luma_nn_index_check(luma_NnIndex *ix, void *work);

/* -------------------------------------------------------------- queries */

typedef struct luma_NnQuery {
  const luma_NnIndex *ix;
  luma_NnMetric metric;
  const luma_Mat *q; /* m x d queries (whitened for Mahalanobis); NULL: the
                      * index's own rows, each never its own neighbour */
  int64_t k;         /* k-nearest: k >= 1; radius queries: 0 */
  double radius;     /* radius queries: neighbours at distance <= radius */
  /* Outputs.  k-nearest: dist and ind are m x k; radius queries: total x 1
   * (luma_nn_radius_fill), segment i starting at offsets[i]. */
  luma_Mat *dist, *ind;
  luma_Mat *evals;   /* m x 1 distance evaluations per query, or NULL */
} luma_NnQuery;

/* The number of queries (q's rows, or n for the index's own rows). */
int64_t luma_nn_query_count(const luma_NnQuery *qr);

/* Bytes of scratch a query call needs for `slots` concurrent chunks (the
 * thread count, or 1 without threads). */
size_t luma_nn_query_work(const luma_NnQuery *qr, int slots);

/* k-nearest neighbours, sorted by (distance, index). */
luma_NnStatus luma_nn_kneighbors(luma_Threads *t, const luma_NnQuery *qr, void *work, int slots);

/* Radius queries in two passes: counts[i] = the neighbours of query i
 * (and evals); then the sorted neighbours into dist and ind (contiguous
 * columns of the total count) from offsets[i], the prefix sums of the
 * counts.  Both passes find the same points: the search is deterministic. */
luma_NnStatus luma_nn_radius_count(luma_Threads *t, const luma_NnQuery *qr, int64_t *counts,
                                   void *work, int slots);
luma_NnStatus luma_nn_radius_fill(luma_Threads *t, const luma_NnQuery *qr,
                                  const int64_t *offsets, void *work, int slots);

/* ----------------------------------------------------- model helpers */

/* Neighbour lists in CSR form: the neighbours of query i are ind[off[i] ..
 * off[i+1]) (0-based training rows), with weights w (NULL: all 1). */
typedef struct luma_NnLists {
  int64_t m;
  const int64_t *off;
  const int64_t *ind;
  const double *w;
} luma_NnLists;

/* votes (m x c) = the weight of each class among the neighbours; codes
 * holds each training row's class 0..c-1. */
void luma_nn_vote(const luma_NnLists *lists, const int64_t *codes, luma_Mat *votes);

/* out (m x q) = the weighted mean of the neighbours' rows of y (n x q);
 * NaN for a query without neighbours or weights summing to 0. */
void luma_nn_average(const luma_NnLists *lists, const luma_Mat *y, luma_Mat *out);

/* Inverse-distance weights 1/d, except that a query with neighbours at
 * distance 0 gives those weight 1 and the others 0 (scikit-learn's rule). */
void luma_nn_inverse_distance(int64_t m, const int64_t *off, const double *dist, double *w);

/* The k smallest entries of each row of s (n x m), by (value, column):
 * their values and (1-based) columns into the rows of vals and cols
 * (n x k); scratch holds k pairs (16 bytes each).  NaN sorts last. */
void luma_nn_select_rows(const luma_Mat *s, int64_t k, luma_Mat *vals, luma_Mat *cols,
                         void *scratch);

#endif
