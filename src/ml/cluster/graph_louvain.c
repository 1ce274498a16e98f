/*
 * graph_louvain.c - Louvain community detection (see graph.h).
 *
 * Blondel, Guillaume, Lambiotte and Lefebvre, Fast unfolding of
 * communities in large networks, J. Stat. Mech. (2008) P10008: the gain
 * of moving an isolated node u into community C is proportional to
 * k_u,in(C) - gamma Sigma_tot(C) k_u / 2m (their eq. 2 with the constant
 * terms dropped), gamma the resolution of Reichardt and Bornholdt (2006).
 * Notes 003 §1.19 name the method only.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "cluster/graph.h"

int64_t luma_louvain_work(int64_t n, int64_t nnz, int64_t *iwork) {
  /* two CSR buffers, aggregation entries, the builder, per-node arrays */
  *iwork = 2 * (n + 1) + 2 * nnz + 2 * nnz + luma_csr_entries_work(n, nnz) + 5 * n;
  return 2 * nnz + nnz + nnz + 3 * n + 3 * n;
}

/* Renumbers comm (values < n) as 0..c-1 by first appearance; returns c.
 * map: n scratch. */
static int64_t renumber(int64_t *comm, int64_t n, int64_t *map) {
  for (int64_t i = 0; i < n; i++) map[i] = -1;
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++) {
    if (map[comm[i]] < 0) map[comm[i]] = c++;
    comm[i] = map[comm[i]];
  }
  return c;
}

/* Appends Q to the history when it is the first or raises the last by
 * more than threshold (a level that changed nothing adds nothing). */
static void record(double *history, int64_t *levels, double q, double threshold) {
  if (*levels == 0 || q - history[*levels - 1] > threshold) history[(*levels)++] = q;
}

/* One level of local moves on g from singletons, or from the partition
 * in comm when `init`; comm gets the communities (not yet renumbered).
 * Returns 0, or -1 when the meter stopped it. */
static int one_level(const luma_Csr *g, const luma_LouvainOpts *o, uint64_t *rng, int64_t *comm,
                     int init, int64_t *order, int64_t *list, double *k, double *tot,
                     double *nw) {
  const int64_t n = g->n;
  double two_m = 0;
  for (int64_t i = 0; i < n; i++) {
    double d = 0;
    for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++) d += g->val[p];
    k[i] = d, tot[i] = 0, nw[i] = 0, order[i] = i;
    if (!init) comm[i] = i;
    two_m += d;
  }
  for (int64_t i = 0; i < n; i++) tot[comm[i]] += k[i];
  for (int64_t i = n - 1; i > 0; i--) {
    const int64_t j = (int64_t)(luma_cluster_splitmix(rng) % (uint64_t)(i + 1));
    const int64_t t = order[i];
    order[i] = order[j], order[j] = t;
  }
  const double scale = o->resolution / two_m;
  for (int64_t sweep = 0; sweep < 10000; sweep++) {
    /* a sweep visits every node and its entries */
    if (luma_work_charge(o->meter, (uint64_t)(n + g->ptr[n]))) return -1;
    int64_t moves = 0;
    for (int64_t t = 0; t < n; t++) {
      const int64_t u = order[t], cu = comm[u];
      int64_t len = 0;
      list[len++] = cu; /* staying is always a candidate */
      for (int64_t p = g->ptr[u]; p < g->ptr[u + 1]; p++) {
        const int64_t v = g->col[p];
        if (v == u) continue;
        const int64_t cv = comm[v];
        if (nw[cv] == 0 && cv != cu) list[len++] = cv;
        nw[cv] += g->val[p];
      }
      tot[cu] -= k[u];
      int64_t best = cu;
      double best_gain = nw[cu] - scale * tot[cu] * k[u];
      for (int64_t q = 1; q < len; q++) {
        const int64_t c = list[q];
        const double gain = nw[c] - scale * tot[c] * k[u];
        if (gain > best_gain) best_gain = gain, best = c;
      }
      tot[best] += k[u];
      if (best != cu) {
        comm[u] = best;
        moves++;
      }
      for (int64_t q = 0; q < len; q++) nw[list[q]] = 0;
    }
    if (moves == 0) break;
  }
  return 0;
}

int64_t luma_louvain(const luma_Csr *g, const luma_LouvainOpts *o, int64_t *label,
                     double *history, double *work, int64_t *iwork) {
  const int64_t n = g->n, nnz = g->ptr[n];
  int64_t *ptr_a = iwork, *ptr_b = ptr_a + (n + 1), *col_a = ptr_b + (n + 1);
  int64_t *col_b = col_a + nnz, *ri = col_b + nnz, *ci = ri + nnz, *bw = ci + nnz;
  int64_t *comm = bw + luma_csr_entries_work(n, nnz), *order = comm + n, *list = order + n;
  int64_t *map = list + n;
  double *val_a = work, *val_b = val_a + nnz, *wv = val_b + nnz, *bd = wv + nnz;
  double *k = bd + nnz, *tot = k + n, *nw = tot + n, *mw = nw + n;
  luma_Csr bufs[2] = {{0, ptr_a, col_a, val_a}, {0, ptr_b, col_b, val_b}};
  uint64_t rng = o->seed;
  for (int64_t i = 0; i < n; i++) label[i] = i, comm[i] = i;
  double q_prev = luma_modularity(g, comm, n, o->resolution, 0, mw);
  const luma_Csr *cur = g;
  int64_t levels = 0;
  int init = 0;
  while (levels < o->max_levels) {
    const int64_t N = cur->n;
    if (one_level(cur, o, &rng, comm, init, order, list, k, tot, nw) != 0) return -1;
    const int64_t c = renumber(comm, N, map);
    for (int64_t i = 0; i < n; i++) label[i] = comm[label[i]];
    const double q = luma_modularity(cur, comm, c, o->resolution, 0, mw);
    if (cur != g) {
      /* a coarse level: refine its partition by moving single nodes of
       * the original graph (the multilevel refinement of Rotta and Noack,
       * J. Exp. Algorithmics 16, 2011, at the finest level) */
      record(history, &levels, q, o->threshold);
      for (int64_t i = 0; i < n; i++) comm[i] = label[i], label[i] = i;
      cur = g;
      init = 1;
      continue;
    }
    const int improved = q - q_prev > o->threshold;
    record(history, &levels, q, o->threshold);
    if (!improved || c == N) break;
    q_prev = q;
    /* the communities as nodes: A'_CD = sum of A_ij over i in C, j in D */
    int64_t e = 0;
    for (int64_t i = 0; i < N; i++)
      for (int64_t p = cur->ptr[i]; p < cur->ptr[i + 1]; p++) {
        ri[e] = comm[i], ci[e] = comm[cur->col[p]], wv[e] = cur->val[p];
        e++;
      }
    luma_Csr *next = cur == &bufs[0] ? &bufs[1] : &bufs[0];
    luma_csr_from_entries(c, e, ri, ci, wv, 0, 1.0, 0, next, bw, bd);
    cur = next;
    init = 0;
  }
  renumber(label, n, map);
  return levels;
}
