/*
 * graph.h - graph kernels of luma.cluster (no Lua): weighted undirected
 * graphs in compressed sparse row form, connected components, the bottom
 * eigenpairs of graph Laplacians (spectral clustering), modularity and
 * Louvain community detection.
 *
 * A graph is its symmetric adjacency matrix A (n x n, A_ij = A_ji >= 0)
 * stored by rows: the neighbours of node i are col[ptr[i] .. ptr[i+1]),
 * sorted, each once, with weights val[...].  Degrees are row sums,
 * k_i = sum_j A_ij, and 2m = sum_i k_i (a self-loop A_ii counts once).
 * Every buffer is the caller's: each kernel has a *_work function giving
 * the sizes it needs.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CLUSTER_GRAPH_H
#define LUMA_ML_CLUSTER_GRAPH_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* SplitMix64 (Steele, Lea and Flood 2014): the kernels' own small
 * generator, seeded by the caller (no global state). */
static inline uint64_t luma_cluster_splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* A uniform double in [0, 1). */
static inline double luma_cluster_uniform(uint64_t *state) {
  return (double)(luma_cluster_splitmix(state) >> 11) * 0x1.0p-53;
}

typedef struct luma_Csr {
  int64_t n;
  int64_t *ptr; /* n + 1 */
  int64_t *col; /* ptr[n] */
  double *val;  /* ptr[n] */
} luma_Csr;

/* ------------------------------------------------------------ building */

/* From `count` entries (ri[e], ci[e], w[e]), 0-based in [0, n): A_ij is
 * the sum of the weights of the entries (i, j), plus those of (j, i) when
 * `mirror` (each entry an undirected edge), times `scale`; entries on the
 * diagonal are dropped when drop_diagonal, and zero sums are dropped.
 * out->ptr has n + 1 slots, out->col and out->val `cap` = count (x2 when
 * mirror); work: luma_csr_entries_work(n, cap) int64s and cap doubles.
 * Two stable counting sorts (by column, then by row): O(n + count).
 * Returns the number of stored entries. */
int64_t luma_csr_entries_work(int64_t n, int64_t cap);
int64_t luma_csr_from_entries(int64_t n, int64_t count, const int64_t *ri, const int64_t *ci,
                              const double *w, int mirror, double scale, int drop_diagonal,
                              luma_Csr *out, int64_t *iwork, double *dwork);

/* The nonzero elements of the square matrix a (the diagonal skipped when
 * drop_diagonal): count them first, then fill out (capacity the count). */
int64_t luma_csr_dense_count(const luma_Mat *a, int drop_diagonal);
void luma_csr_from_dense(const luma_Mat *a, int drop_diagonal, luma_Csr *out);

/* Zero when A is symmetric within tol (|A_ij - A_ji| <= tol max(|A_ij|,
 * |A_ji|)); otherwise nonzero with the first offending (i, j). */
int luma_csr_check_symmetric(const luma_Csr *g, double tol, int64_t *bad_i, int64_t *bad_j);

/* Connected components by breadth-first search: label[i] in 0..c-1,
 * numbered by their smallest node; queue: n int64s.  Returns c. */
int64_t luma_csr_components(const luma_Csr *g, int64_t *label, int64_t *queue);

/* --------------------------------------------------- Laplacian spectrum */

typedef struct luma_LaplacianEig {
  int normalized;     /* 1: L_sym = I - D^-1/2 A D^-1/2; 0: L = D - A */
  int64_t k;          /* eigenpairs wanted (the k smallest) */
  double tol;         /* Lanczos: Ritz residuals below tol x the spectrum's bound */
  int64_t max_matvec; /* Lanczos: products per component before giving up */
  int64_t dense_max;  /* components of at most this many nodes: dense LAPACK */
  uint64_t seed;      /* the Lanczos start vectors */
  luma_Threads *meter; /* the work is charged to it, and it stops the solver (or NULL) */
} luma_LaplacianEig;

typedef struct luma_LaplacianEigInfo {
  int64_t matvecs;      /* graph products, all components */
  int converged;        /* every Lanczos run met tol */
  int interrupted;      /* stopped by the meter (budget, interrupt or deadline) */
} luma_LaplacianEigInfo;

/* Sizes of the work buffers of luma_laplacian_eig for a graph of n nodes
 * and nnz stored entries in c components, the largest of `largest` nodes:
 * doubles returned, int64s in *iwork. */
int64_t luma_laplacian_eig_work(const luma_LaplacianEig *o, int64_t n, int64_t nnz, int64_t c,
                                int64_t largest, int64_t *iwork);

/* The k smallest eigenvalues (ascending, into evals) and unit
 * eigenvectors (columns of evecs, n x k row-major) of L_sym or L, the
 * graph's diagonal ignored.  Components are solved separately (the
 * Laplacian is block diagonal): each contributes its null vector (D^1/2 1
 * or 1 on the component, normalized: eigenvalue 0 exactly, Luxburg 2007
 * Prop. 2 and 4) and its next eigenpairs, from dense LAPACK (dsyevd) on
 * small components and thick-restart Lanczos with full
 * reorthogonalization (Wu and Simon 2000) on large ones, followed by
 * deflated runs that catch repeated eigenvalues; the k smallest of
 * all are kept (null vectors of larger components first).  Each vector's
 * entry of largest magnitude is made positive.  label/c: from
 * luma_csr_components.  An isolated node counts as degree 1.  Returns 0,
 * or -1 when LAPACK failed. */
int luma_laplacian_eig(const luma_Csr *g, const int64_t *label, int64_t c,
                       const luma_LaplacianEig *o, double *evals, double *evecs, double *work,
                       int64_t *iwork, luma_LaplacianEigInfo *info);

/* ---------------------------------------------------------- modularity */

/* Modularity of the partition `label` (0-based, < ncomm) with resolution
 * gamma: Q = (1/2m) sum_ij (A_ij - gamma P_ij) [c_i = c_j] with the
 * configuration null model P_ij = k_i k_j / 2m (null_model 0) or the
 * Erdos-Renyi one P_ij = 2m / (n (n - 1)) for i != j, P_ii = 0 (1).
 * work: 3 ncomm doubles.  An empty graph (m = 0) gives NaN. */
double luma_modularity(const luma_Csr *g, const int64_t *label, int64_t ncomm, double gamma,
                       int null_model, double *work);

/* ------------------------------------------------------------ Louvain */

typedef struct luma_LouvainOpts {
  double resolution;  /* gamma of the configuration null model */
  double threshold;   /* stop when a level raises Q by at most this */
  int64_t max_levels; /* aggregation levels at most */
  uint64_t seed;      /* the order nodes are visited in */
  luma_Threads *meter; /* the work is charged to it, and it stops the method (or NULL) */
} luma_LouvainOpts;

/* Work of luma_louvain for n nodes and nnz stored entries: doubles
 * returned, int64s in *iwork. */
int64_t luma_louvain_work(int64_t n, int64_t nnz, int64_t *iwork);

/* Louvain community detection (Blondel, Guillaume, Lambiotte and Lefebvre
 * 2008): local moves of single nodes to the neighbouring community of
 * largest modularity gain, in a seeded random order, until no node moves;
 * then the communities become the nodes of a weighted graph (internal
 * weights as self-loops) and the moves start again.  Each coarse level's
 * partition is refined by single-node moves on the original graph (Rotta
 * and Noack 2011) before the next aggregation; the method stops when a
 * level raises Q by at most threshold.  label (n): the final communities,
 * 0-based, numbered by their smallest node; history (max_levels): Q after
 * each level.  Returns the number of levels, or -1 when the meter stopped it. */
int64_t luma_louvain(const luma_Csr *g, const luma_LouvainOpts *o, int64_t *label,
                     double *history, double *work, int64_t *iwork);

#endif
