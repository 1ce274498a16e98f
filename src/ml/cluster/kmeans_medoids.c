/*
 * kmeans_medoids.c - PAM's BUILD and SWAP (FastPAM1), see kmeans_medoids.h.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "cluster/kmeans_medoids.h"

/* Candidates per chunk: each costs a pass over one row of d. */
#define GRAIN 16

static int64_t chunks_of(int64_t n) { return (n + GRAIN - 1) / GRAIN; }

typedef struct Job {
  const double *d;
  int64_t n, k;
  const unsigned char *is_medoid;
  const int64_t *near;       /* position of each row's nearest medoid */
  const double *dn, *ds;     /* distances to the nearest and second nearest */
  const double *loss;        /* k: the cost of removing each medoid */
  double *part;              /* per chunk: best change, its medoid, its candidate, then k deltas */
} Job;

static int64_t stride_of(int64_t k) { return k + 3; }

int64_t luma_kmedoids_work(int64_t n, int64_t k) {
  return chunks_of(n) * stride_of(k) + 3 * n + k + (n + 7) / 8 + 1;
}

/* Nearest and second-nearest medoid of every row. */
static void nearest(const double *d, int64_t n, int64_t k, const int64_t *medoids, int64_t *near,
                    double *dn, double *ds) {
  for (int64_t o = 0; o < n; o++) {
    double a = INFINITY, b = INFINITY;
    int64_t at = 0;
    for (int64_t m = 0; m < k; m++) {
      const double v = d[medoids[m] * n + o];
      if (v < a) {
        b = a;
        a = v;
        at = m;
      } else if (v < b) {
        b = v;
      }
    }
    near[o] = at;
    dn[o] = a;
    ds[o] = b;
  }
}

/* ----------------------------------------------------------------- BUILD */

static void build_chunk(void *ctx, int64_t chunk, int64_t c0, int64_t c1) {
  const Job *job = ctx;
  const int64_t n = job->n;
  double *p = job->part + chunk * stride_of(job->k);
  p[0] = -INFINITY; /* best gain */
  p[2] = -1;
  for (int64_t c = c0; c < c1; c++) {
    if (job->is_medoid[c]) continue;
    const double *row = job->d + c * n;
    double gain = 0;
    if (job->dn) {
      for (int64_t o = 0; o < n; o++) {
        const double v = job->dn[o] - row[o];
        if (v > 0) gain += v;
      }
    } else { /* the first medoid: the smallest row sum */
      for (int64_t o = 0; o < n; o++) gain -= row[o];
    }
    /* the first candidate counts whatever its gain: distances near
     * DBL_MAX make every gain -inf or NaN, and no pick at all left the
     * medoids unset (found by the API fuzzer) */
    if (p[2] < 0 || gain > p[0]) {
      p[0] = gain;
      p[2] = (double)c;
    }
  }
}

luma_LoopStatus luma_kmedoids_build(luma_Threads *t, const double *d, int64_t n, int64_t k,
                                    int64_t *medoids, double *work) {
  const int64_t chunks = chunks_of(n), stride = stride_of(k);
  double *part = work, *dn = part + chunks * stride;
  unsigned char *is_medoid = (unsigned char *)(dn + n);
  memset(is_medoid, 0, (size_t)n);
  Job job = {d, n, k, is_medoid, NULL, NULL, NULL, NULL, part};
  luma_Loop loop = {n, GRAIN, (uint64_t)n, 0, build_chunk, &job};
  for (int64_t m = 0; m < k; m++) {
    luma_LoopStatus status = luma_parallel_for(t, &loop);
    if (status != LUMA_LOOP_DONE) return status;
    double best = -INFINITY;
    int64_t pick = -1;
    for (int64_t q = 0; q < chunks; q++) { /* chunk order: the lowest candidate on ties */
      const double *p = part + q * stride;
      if (p[2] >= 0 && (pick < 0 || p[0] > best)) {
        best = p[0];
        pick = (int64_t)p[2];
      }
    }
    if (pick < 0) break; /* cannot happen for k <= n: a non-medoid row is left */
    medoids[m] = pick;
    is_medoid[pick] = 1;
    const double *row = d + pick * n;
    if (m == 0) {
      memcpy(dn, row, (size_t)n * sizeof(double));
      job.dn = dn;
    } else {
      for (int64_t o = 0; o < n; o++)
        if (row[o] < dn[o]) dn[o] = row[o];
    }
  }
  return LUMA_LOOP_DONE;
}

/* ------------------------------------------------------------------ SWAP */

/* FastPAM1: for candidate c, delta[m] = the change of the total when c
 * replaces medoid m, for all m in one pass over the rows. */
static void swap_chunk(void *ctx, int64_t chunk, int64_t c0, int64_t c1) {
  const Job *job = ctx;
  const int64_t n = job->n, k = job->k;
  double *p = job->part + chunk * stride_of(k), *delta = p + 3;
  p[0] = INFINITY;
  p[1] = p[2] = -1;
  for (int64_t c = c0; c < c1; c++) {
    if (job->is_medoid[c]) continue;
    const double *row = job->d + c * n;
    double shared = 0;
    if (k == 1) {
      for (int64_t o = 0; o < n; o++) shared += row[o] - job->dn[o];
      delta[0] = 0;
    } else {
      memcpy(delta, job->loss, (size_t)k * sizeof(double));
      for (int64_t o = 0; o < n; o++) {
        const double v = row[o], a = job->dn[o];
        if (v < a) {
          shared += v - a;
          delta[job->near[o]] += a - job->ds[o];
        } else if (v < job->ds[o]) {
          delta[job->near[o]] += v - job->ds[o];
        }
      }
    }
    for (int64_t m = 0; m < k; m++) {
      const double change = delta[m] + shared;
      if (change < p[0]) {
        p[0] = change;
        p[1] = (double)m;
        p[2] = (double)c;
      }
    }
  }
}

luma_LoopStatus luma_kmedoids_swap(luma_Threads *t, const double *d, int64_t n, int64_t k,
                                   int64_t *medoids, int64_t max_iter, int64_t *labels,
                                   double *total, int64_t *n_iter, double *work) {
  const int64_t chunks = chunks_of(n), stride = stride_of(k);
  double *part = work, *dn = part + chunks * stride, *ds = dn + n, *loss = ds + n;
  unsigned char *is_medoid = (unsigned char *)(loss + k);
  memset(is_medoid, 0, (size_t)n);
  for (int64_t m = 0; m < k; m++) is_medoid[medoids[m]] = 1;
  Job job = {d, n, k, is_medoid, labels, dn, ds, loss, part};
  luma_Loop loop = {n, GRAIN, (uint64_t)n, 0, swap_chunk, &job};
  int64_t it = 0;
  for (;;) {
    nearest(d, n, k, medoids, labels, dn, ds);
    double td = 0;
    for (int64_t o = 0; o < n; o++) td += dn[o];
    *total = td;
    if (it >= max_iter) break;
    for (int64_t m = 0; m < k; m++) loss[m] = 0;
    if (k > 1)
      for (int64_t o = 0; o < n; o++) loss[labels[o]] += ds[o] - dn[o];
    luma_LoopStatus status = luma_parallel_for(t, &loop);
    if (status != LUMA_LOOP_DONE) return status;
    double best = INFINITY;
    int64_t bm = -1, bc = -1;
    for (int64_t q = 0; q < chunks; q++) {
      const double *p = part + q * stride;
      if (p[2] >= 0 && p[0] < best) {
        best = p[0];
        bm = (int64_t)p[1];
        bc = (int64_t)p[2];
      }
    }
    /* a relative threshold: rounding cannot make PAM cycle */
    if (bc < 0 || !(best < -1e-12 * td)) break;
    is_medoid[medoids[bm]] = 0;
    is_medoid[bc] = 1;
    medoids[bm] = bc;
    it++;
  }
  *n_iter = it;
  return LUMA_LOOP_DONE;
}
