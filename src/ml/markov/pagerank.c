/*
 * pagerank.c - PageRank power iteration over in-edge CSR (see pagerank.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "markov/pagerank.h"

/* Nodes per chunk: 8192 nodes and their in-edges (about 80,000 for the
 * average degree 10) are a few tens of microseconds of work. */
#define PR_GRAIN 8192

void luma_pagerank_build(luma_PrGraph *g, const int64_t *from, const int64_t *to,
                         const double *w, int64_t *count) {
  const int64_t n = g->n, m = g->m;
  memset(count, 0, (size_t)(n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; i++) g->out[i] = 0;
  for (int64_t e = 0; e < m; e++) {
    count[to[e] + 1]++;
    g->out[from[e]] += w ? w[e] : 1.0;
  }
  for (int64_t j = 0; j < n; j++) count[j + 1] += count[j];
  memcpy(g->ptr, count, (size_t)(n + 1) * sizeof(int64_t));
  /* counting sort by destination, stable in edge order */
  for (int64_t e = 0; e < m; e++) {
    const int64_t slot = count[to[e]]++;
    const int64_t i = from[e];
    const double we = w ? w[e] : 1.0;
    g->src[slot] = i;
    g->share[slot] = g->out[i] > 0 ? we / g->out[i] : 0;
  }
}

int64_t luma_pagerank_chunks(int64_t n) { return n > 0 ? (n + PR_GRAIN - 1) / PR_GRAIN : 0; }

typedef struct PrJob {
  const luma_PrGraph *g;
  double damping, jump; /* jump = damping * dangling mass */
  const double *v, *u, *x;
  double *next, *errs;
} PrJob;

static void pr_chunk(void *ctx, int64_t chunk, int64_t j0, int64_t j1) {
  const PrJob *job = ctx;
  const luma_PrGraph *g = job->g;
  const double d = job->damping, tele = 1 - job->damping;
  double err = 0;
  for (int64_t j = j0; j < j1; j++) {
    double s = 0;
    for (int64_t e = g->ptr[j]; e < g->ptr[j + 1]; e++) s += job->x[g->src[e]] * g->share[e];
    const double nx = d * s + job->jump * job->u[j] + tele * job->v[j];
    err += fabs(nx - job->x[j]);
    job->next[j] = nx;
  }
  job->errs[chunk] = err;
}

luma_LoopStatus luma_pagerank(luma_Threads *t, const luma_PrGraph *g, double damping,
                              const double *v, const double *u, double tol, int64_t max_iter,
                              double *x, double *next, double *errs, int64_t *iters,
                              double *err) {
  const int64_t n = g->n, chunks = luma_pagerank_chunks(n);
  const int64_t per_node = n > 0 ? g->m / n + 2 : 2;
  *iters = 0;
  *err = INFINITY;
  for (int64_t it = 0; it < max_iter; it++) {
    double dangling = 0;
    for (int64_t i = 0; i < n; i++)
      if (!(g->out[i] > 0)) dangling += x[i];
    PrJob job = {g, damping, damping * dangling, v, u, x, next, errs};
    luma_Loop loop = {n, PR_GRAIN, (uint64_t)per_node, 0, pr_chunk, &job};
    const luma_LoopStatus st = luma_parallel_for(t, &loop);
    if (st != LUMA_LOOP_DONE) return st;
    double total = 0, sum = 0;
    for (int64_t c = 0; c < chunks; c++) total += errs[c];
    /* renormalize against rounding drift (the exact iterate sums to 1) */
    for (int64_t i = 0; i < n; i++) sum += next[i];
    for (int64_t i = 0; i < n; i++) x[i] = next[i] / sum;
    *iters = it + 1;
    *err = total;
    if (total < tol) break;
  }
  return LUMA_LOOP_DONE;
}
