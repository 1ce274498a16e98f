/*
 * tsne.h - the numeric kernels of t-SNE (no Lua): perplexity calibration,
 * nearest-neighbour selection, the sparse joint probabilities, and the
 * gradient of KL(P || Q), exact or by Barnes-Hut (van der Maaten and
 * Hinton 2008; van der Maaten, Accelerating t-SNE using tree-based
 * algorithms, JMLR 2014; scikit-learn's _t_sne.py, _utils.pyx and
 * _barnes_hut_tsne.pyx).
 *
 * Loops over points are parallel-for chunks (core/parallel.h): each
 * point writes its own output row, sums keep one partial per chunk added
 * in chunk order, so results are bit-identical for any thread count.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_TSNE_H
#define LUMA_ML_TSNE_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* Conditional probabilities p_{j|i} = exp(-beta_i d2[i][j]) / sum, with
 * beta_i found by bisection so that the entropy of row i is log
 * perplexity (within 1e-5, at most 100 steps: scikit-learn's
 * _binary_search_perplexity).  d2: squared distances, n x m; with
 * exclude_self (the dense case, m = n) the diagonal is left out and gets
 * p = 0; otherwise (m neighbours per row) every column counts.  The
 * distances are rounded to float first, as scikit-learn does. */
luma_LoopStatus luma_tsne_conditional(luma_Threads *t, const luma_Mat *d2, double perplexity,
                                      int exclude_self, luma_Mat *p);

/* The k smallest entries of each row of d2 (b x n, the squared distances
 * of rows row0 .. row0 + b - 1 to all n points), with exclude_self
 * leaving out the point itself (column row0 + i): ascending, ties by
 * index.  idx gets 0-based columns, dist the distances (both b x k,
 * row-major). */
luma_LoopStatus luma_tsne_select(luma_Threads *t, const luma_Mat *d2, int64_t row0,
                                 int exclude_self, int64_t k, int64_t *idx, double *dist);

/* The joint P = (C + C^T) / sum of the conditional C given on the
 * neighbour graph (n rows of k neighbours nbr, values cond, row-major),
 * as CSR: indptr (n + 1), cols and vals (nnz entries, columns ascending
 * in each row).  Returns nnz; cols/vals must hold 2 n k entries, work
 * luma_tsne_joint_work(n, k) int64s. */
int64_t luma_tsne_joint_work(int64_t n, int64_t k);
int64_t luma_tsne_joint(int64_t n, int64_t k, const int64_t *nbr, const double *cond,
                        int64_t *indptr, int64_t *cols, double *vals, int64_t *work);

/* The exact gradient of KL(P || Q) for the embedding y (n x c) and the
 * dense joint P (n x n, zero diagonal): Student-t q_ij proportional to
 * (1 + |y_i - y_j|^2 / dof)^(-(dof + 1)/2) with gradient
 * 2 (dof + 1)/dof sum_j (p_ij - q_ij) w_ij (y_i - y_j), or with gaussian
 * symmetric SNE, q_ij proportional to exp(-|y_i - y_j|^2) and gradient
 * 4 sum_j (p_ij - q_ij)(y_i - y_j).  q is floored at DBL_EPSILON
 * (scikit-learn).  *kl gets KL(P || Q) when compute_error.  work:
 * luma_tsne_exact_work(n) doubles. */
int64_t luma_tsne_exact_work(int64_t n);
luma_LoopStatus luma_tsne_grad_exact(luma_Threads *t, const luma_Mat *y, const luma_Mat *p,
                                     double dof, int gaussian, int compute_error,
                                     luma_Mat *grad, double *kl, double *work);

/* The Barnes-Hut gradient for the sparse joint P (CSR) and an embedding
 * in 2 or 3 dimensions: attractive forces over P's entries, repulsive
 * ones from a quadtree / octree whose cells count as one point when
 * width^2 / distance^2 < theta^2.  work: luma_tsne_bh_work(n, c, nodes)
 * doubles with room for `nodes` tree nodes; returns LUMA_LOOP_DONE, or
 * sets *need_nodes (> nodes) and returns LUMA_LOOP_DONE without a
 * result when the tree did not fit (call again with more). */
int64_t luma_tsne_bh_work(int64_t n, int64_t c, int64_t nodes);
luma_LoopStatus luma_tsne_grad_bh(luma_Threads *t, const luma_Mat *y, const int64_t *indptr,
                                  const int64_t *cols, const double *vals, double theta,
                                  double dof, int compute_error, luma_Mat *grad, double *kl,
                                  double *work, int64_t nodes, int64_t *need_nodes);

#endif
