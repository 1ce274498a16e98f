/*
 * pagerank.h - PageRank by power iteration over a compressed sparse
 * graph built from an edge list (no Lua).
 *
 * The chain (Page, Brin, Motwani and Winograd 1999; Langville and Meyer,
 * Google's PageRank and Beyond, 2006, ch. 4): from node i, with
 * probability `damping` follow an out-edge chosen proportionally to its
 * weight, otherwise jump to a node drawn from the personalization vector
 * v; a dangling node (no out-edges) jumps to a node drawn from the
 * dangling vector u.  Rows of the transition matrix are row-stochastic
 * and distributions row vectors: x_{k+1} = x_k G with
 *   x_{k+1}[j] = damping (sum_{i -> j} x_k[i] w_ij / W_i
 *                         + u[j] sum_{dangling i} x_k[i])
 *              + (1 - damping) v[j].
 * The iteration pulls over in-edges (the transposed graph in CSR form),
 * so each node's new score is written by one chunk of a parallel-for and
 * the L1 change is summed per chunk in chunk order: bit-identical for any
 * thread count.  It stops when ||x_{k+1} - x_k||_1 < tol.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_PAGERANK_H
#define LUMA_ML_PAGERANK_H

#include <stdint.h>

#include "core/parallel.h"

/* The in-edge graph: for node j, edges ptr[j] .. ptr[j+1]-1 come from
 * src[e] with weight share[e] = w / (out-weight of src[e]); out[i] is the
 * out-weight of node i (0: dangling). */
typedef struct luma_PrGraph {
  int64_t n, m;
  int64_t *ptr; /* n + 1 */
  int64_t *src; /* m */
  double *share; /* m */
  double *out;   /* n */
} luma_PrGraph;

/* Builds g from m edges (from[e], to[e] 0-based, weight w[e] >= 0, or
 * NULL for 1): the caller sets g->n, g->m and the arrays (sizes above);
 * count is n + 1 int64 scratch.  Edges of weight 0 are kept (no share). */
void luma_pagerank_build(luma_PrGraph *g, const int64_t *from, const int64_t *to,
                         const double *w, int64_t *count);

/* Power iteration from x (n, a distribution; overwritten with the result)
 * with v and u distributions (n each); next: n scratch, errs: one double
 * per chunk (luma_pagerank_chunks).  Returns the loop status; *iters and
 * *err get the iterations run and the last L1 change. */
int64_t luma_pagerank_chunks(int64_t n);
luma_LoopStatus luma_pagerank(luma_Threads *t, const luma_PrGraph *g, double damping,
                              const double *v, const double *u, double tol, int64_t max_iter,
                              double *x, double *next, double *errs, int64_t *iters,
                              double *err);

#endif
