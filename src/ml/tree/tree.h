/*
 * tree.h - CART decision trees (no Lua): growth, prediction, impurity
 * importances and minimal cost-complexity pruning.
 *
 * Growth follows notes 000 §9.1.1 and scikit-learn's tree builders
 * (Breiman et al. 1984): at each node, over a random subset of features,
 * the samples are sorted by the feature (per-node sorting of the
 * feature's precomputed integer ranks by a radix sort: O(n) passes per
 * feature and node, so a tree of depth d on N rows costs O(d N D) after
 * the O(N D log N) ranking) and every threshold halfway between two
 * consecutive distinct values is scored by the criterion.  Depth-first growth numbers nodes in preorder
 * (left child first), as scikit-learn does; best-first growth (notes 002
 * §1.8 T2, for max_leaf_nodes) always expands the frontier node whose
 * split decreases the weighted impurity most.
 *
 * Ties: within a feature the first (lowest) threshold wins; between
 * features the lowest feature index wins, whatever order the features are
 * visited in, so a tree on all features does not depend on the seed.
 *
 * Arrays use scikit-learn's layout with 0-based node and feature ids:
 * left/right are -1 at leaves, feature and threshold are -2 there, value
 * holds weighted class counts (classification) or the node prediction
 * (regression, one column per output).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_TREE_H
#define LUMA_ML_TREE_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

#define LUMA_TREE_LEAF (-1)
#define LUMA_TREE_UNDEFINED (-2)

typedef enum luma_TreeCriterion {
  LUMA_TREE_GINI,
  LUMA_TREE_ENTROPY,           /* Shannon entropy in bits (log base 2) */
  LUMA_TREE_MISCLASSIFICATION, /* 1 - max_c p_c: notes 002's 0-1 split cost */
  LUMA_TREE_GAIN_RATIO,        /* C4.5: entropy gain / split information */
  LUMA_TREE_ENTROPY_RATIO,     /* notes 000: entropy gain / H(Y) of the node */
  LUMA_TREE_SQUARED_ERROR,
  LUMA_TREE_FRIEDMAN_MSE,      /* squared error, Friedman's improvement score */
  LUMA_TREE_ABSOLUTE_ERROR,    /* one output: mean absolute deviation from the median */
  LUMA_TREE_POISSON            /* half Poisson deviance (targets >= 0) */
} luma_TreeCriterion;

typedef struct luma_TreeParams {
  luma_TreeCriterion criterion;
  int random_splits;         /* extremely randomized trees: one uniform threshold per feature */
  int64_t max_depth;         /* the root has depth 0; nodes at max_depth are leaves */
  int64_t min_samples_split; /* >= 2 */
  int64_t min_samples_leaf;  /* >= 1 */
  double min_weight_leaf;    /* least total weight in a leaf */
  double min_impurity_decrease;
  int64_t max_features;      /* non-constant features to score per node, 1..d */
  int64_t max_leaf_nodes;    /* 0: depth-first growth; >= 2: best-first growth */
  int64_t n_classes;         /* classification: classes k >= 1; 0: regression */
  int64_t n_outputs;         /* regression: target columns (1 for absolute_error) */
  uint64_t seed;             /* feature order, random thresholds and the bootstrap */
  int64_t n_bootstrap;       /* > 0: weights times the counts of this many draws with replacement */
} luma_TreeParams;

/* Training data.  X is column-major (xc[j * n + i]) so that gathering one
 * feature of a node's samples reads one contiguous column. */
typedef struct luma_TreeData {
  const double *xc;
  const uint32_t *ranks; /* column-major dense ranks of each feature (luma_tree_ranks) */
  int64_t n, d;
  const int32_t *codes; /* classification: class 0..k-1 of each row */
  const double *y;      /* regression: n x n_outputs, row-major */
  const double *w;      /* sample weights (>= 0), or NULL for ones */
} luma_TreeData;

/* A grown tree in caller-provided arrays of `capacity` nodes. */
typedef struct luma_TreeNodes {
  int64_t capacity, count, width, max_depth;
  int32_t *left, *right, *feature;
  double *threshold, *impurity, *weighted_n;
  int64_t *n_samples;
  double *value; /* capacity x width */
} luma_TreeNodes;

/* ranks[j * n + i] = the position of x_ij among the distinct values of
 * feature j (0-based, equal values share one), from column-major xc:
 * nodes sort these integers (a radix sort) instead of the values.  work
 * holds luma_tree_ranks_work_bytes(n) bytes. */
size_t luma_tree_ranks_work_bytes(int64_t n);
void luma_tree_ranks(const double *xc, int64_t n, int64_t d, uint32_t *ranks, void *work);

/* Value columns: the classes, or the outputs. */
int64_t luma_tree_width(const luma_TreeParams *p);

/* Nodes a tree can have on data of n rows (2 x leaves - 1, with the
 * leaves bounded by the samples, max_leaf_nodes, max_depth and
 * min_samples_leaf). */
int64_t luma_tree_capacity(const luma_TreeParams *p, int64_t n);

/* Scratch bytes luma_tree_grow needs for n rows and d features. */
size_t luma_tree_work_bytes(const luma_TreeParams *p, int64_t n, int64_t d);

/* Grows one tree into out (capacity from luma_tree_capacity).  work holds
 * luma_tree_work_bytes bytes, 16-byte aligned.  Returns 0, or -1 when no
 * sample has a positive weight. */
int luma_tree_grow(const luma_TreeParams *p, const luma_TreeData *data, luma_TreeNodes *out,
                   void *work);

/* The bootstrap of luma_tree_grow: counts[i] = how often row i is among
 * n_draws draws with replacement from the stream of `seed`. */
void luma_tree_bootstrap(uint64_t seed, int64_t n, int64_t n_draws, double *counts);

/* A tree for prediction: compact nodes read from the arrays (checked by
 * the binding: children of node i are > i, features < d). */
typedef struct luma_TreeNode {
  int32_t left, right, feature, pad;
  double threshold;
} luma_TreeNode;

/* Leaf (0-based node id) of each row of x (a strided n x d matrix) for
 * rows [0, n), in parallel.  A NaN goes right (x <= t is false). */
luma_LoopStatus luma_tree_apply(luma_Threads *t, const luma_TreeNode *nodes, const luma_Mat *x,
                                int64_t *leaf);

/* Adds scale * value[leaf] (row-normalized first when normalize is set)
 * to out (n x width) for the rows whose mask is nonzero (mask NULL: all),
 * in parallel; hits[i] += 1 for each row added, when hits is not NULL. */
luma_LoopStatus luma_tree_accumulate(luma_Threads *t, const luma_TreeNode *nodes,
                                     const double *value, int64_t width, int normalize,
                                     double scale, const luma_Mat *x, const double *mask,
                                     luma_Mat *out, double *hits);

/* Impurity-decrease importance of each feature (d), summed over the
 * internal nodes: w_t i_t - w_left i_left - w_right i_right, divided by
 * the root's weight (not normalized). */
void luma_tree_importances(const luma_TreeNodes *tree, int64_t d, double *out);

/* Minimal cost-complexity pruning (Breiman et al. 1984, ch. 3; notes 000
 * §9.1.1's weakest link).  R(t) = w_t / w_root * impurity_t.  Repeatedly
 * collapses the internal node with the least
 * g(t) = (R(t) - R(branch t)) / (leaves of t - 1), the lowest node id
 * among equals.  path: writes the successive alphas and total leaf
 * impurities (at most count entries, the first alpha 0) and returns how
 * many (alphas and impurities may be NULL).  It stops before the first
 * g above ccp_alpha (INFINITY: the whole path) and marks in keep the
 * nodes of the pruned tree, in leaf those that are leaves of it.  work
 * holds luma_tree_prune_work_bytes(count) bytes, 8-byte aligned. */
size_t luma_tree_prune_work_bytes(int64_t count);
/* Each prune's search over the nodes (the path has up to count / 2 of
 * them: O(count^2) in all) and each walk up to the root is charged to
 * the meter t (may be NULL); -1 when it stopped. */
int64_t luma_tree_prune(luma_Threads *t, const luma_TreeNodes *tree, double ccp_alpha,
                        double *alphas, double *impurities, unsigned char *keep,
                        unsigned char *leaf, void *work);

/* The kept nodes of tree (keep/leaf from luma_tree_prune) copied into out
 * (capacity: the kept count) in preorder, left child first; returns the
 * node count.  stack holds 4 * tree->count integers. */
int64_t luma_tree_copy_pruned(const luma_TreeNodes *tree, const unsigned char *keep,
                              const unsigned char *leaf, luma_TreeNodes *out, int32_t *stack);

#endif
