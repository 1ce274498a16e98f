/*
 * hist.h - histogram gradient boosting kernels (no Lua): feature binning,
 * gradient and hessian computation, leaf-wise tree growth on histograms,
 * and prediction (scikit-learn's HistGradientBoosting, after LightGBM: Ke
 * et al., NeurIPS 2017).
 *
 * Each feature is cut into at most 255 bins at quantile midpoints (all
 * distinct values when there are few); bin 255 holds missing values.  A
 * tree is grown best-first: the leaf whose best split reduces the loss
 * most is split next, up to max_leaf_nodes.  A split is scored from
 * per-bin sums of gradients and hessians (second-order gain, Chen and
 * Guestrin 2016, eq. 7):
 *   G_L^2 / (H_L + l2) + G_R^2 / (H_R + l2) - G^2 / (H + l2).
 * The histograms of the smaller child are summed from its samples and
 * the larger child's are the parent's minus those (histogram
 * subtraction).  Missing values go to the side that gains more: each
 * feature with missing values is scanned with them on the right and then
 * on the left.  Histograms are built feature by feature on the native
 * threads; every sum runs in a fixed order, so results do not depend on
 * the thread count.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_HIST_H
#define LUMA_ML_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* Value bins per feature (the missing-value bin is one more). */
#define LUMA_HGB_VALUE_BINS 255
#define LUMA_HGB_MISSING_BIN 255

/* Binned training data. */
typedef struct luma_HgbBinned {
  int64_t n, d;
  uint8_t *bins;        /* feature-major: bins[j * n + i] */
  int32_t *n_bins;      /* value bins used by feature j (its thresholds + 1) */
  uint8_t *has_missing; /* whether feature j had a missing value */
  double *thresholds;   /* feature j, bin b: x <= thresholds[j * 255 + b] */
} luma_HgbBinned;

/* The bin thresholds of one feature from its non-missing values (sorted
 * in place; work holds luma_hgb_thresholds_work_bytes(n) bytes):
 * midpoints between consecutive distinct values when there are at most
 * max_bins of them, else the max_bins - 1 midpoint percentiles
 * 100 i / max_bins (numpy's "midpoint" method), as scikit-learn.  Returns
 * how many thresholds were written to out. */
size_t luma_hgb_thresholds_work_bytes(int64_t n);
int luma_hgb_thresholds(double *values, int64_t n, int max_bins, double *out, void *work);

/* Maps x (n x d) to bins with the thresholds already in b (binary search;
 * NaN to the missing bin), feature by feature in parallel. */
luma_LoopStatus luma_hgb_map(luma_Threads *t, const luma_Mat *x, luma_HgbBinned *b);

typedef enum luma_HgbLoss {
  LUMA_HGB_SQUARED_ERROR, /* g = f - y, h = 1 */
  LUMA_HGB_POISSON,       /* log link: g = e^f - y, h = e^f */
  LUMA_HGB_BINOMIAL,      /* g = p - y, h = p (1 - p), p = sigmoid(f) */
  LUMA_HGB_MULTINOMIAL    /* g_k = p_k - [y = k], h_k = p_k (1 - p_k), p = softmax(f) */
} luma_HgbLoss;

/* Gradients and hessians (n x k, row-major) of the loss at raw (n x k),
 * times the sample weights w (NULL: ones); y holds targets, or class
 * codes 0..k-1 for the multinomial loss (0/1 for the binomial one). */
luma_LoopStatus luma_hgb_gradients(luma_Threads *t, luma_HgbLoss loss, int64_t n, int64_t k,
                                   const double *y, const double *w, const double *raw,
                                   double *g, double *h);

typedef struct luma_HgbParams {
  int64_t max_leaf_nodes;  /* >= 2 */
  int64_t max_depth;       /* INT64_MAX: none */
  int64_t min_samples_leaf;
  double l2;               /* l2_regularization */
  double min_hessian;      /* least hessian sum of a child (1e-3) */
  double shrinkage;        /* learning rate, applied to leaf values */
  int constant_hessian;    /* h = 1 everywhere: counts stand for hessian sums */
} luma_HgbParams;

/* A node of a grown tree. */
typedef struct luma_HgbNode {
  int32_t left, right, feature, bin; /* children -1 at leaves */
  int32_t missing_left, depth;
  double threshold; /* real threshold: x <= threshold goes left */
  double value;     /* leaf value, shrinkage included */
  double gain;
  int64_t count;
} luma_HgbNode;

/* Scratch bytes luma_hgb_grow needs. */
size_t luma_hgb_grow_work_bytes(int64_t n, int64_t d, int64_t max_leaf_nodes);

/* Grows one tree on the gradients g and hessians h (stride: the distance
 * between consecutive samples' entries, for the k-th column of an n x k
 * array) into nodes (capacity 2 max_leaf_nodes - 1), adds each sample's
 * leaf value to raw[i * stride] and returns the node count (or -1 when a
 * loop was stopped; *status says why). */
int64_t luma_hgb_grow(luma_Threads *t, const luma_HgbParams *p, const luma_HgbBinned *b,
                      const double *g, const double *h, int64_t stride, luma_HgbNode *nodes,
                      double *raw, void *work, luma_LoopStatus *status);

/* out[i * stride] += the value of row i's leaf, for the rows of x (NaN
 * follows missing_left), in parallel. */
luma_LoopStatus luma_hgb_predict(luma_Threads *t, const luma_HgbNode *nodes, const luma_Mat *x,
                                 double *out, int64_t stride);

#endif
