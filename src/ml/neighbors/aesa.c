/*
 * aesa.c - the metric-space indexes of notes 000 §5.2.1 that bound
 * distances through stored ones: AESA (Vidal 1986) and linear AESA with
 * buoys (the notes' "buoys" are the base prototypes of LAESA, Micó,
 * Oncina & Vidal 1994).  Both need only the triangle inequality, so any
 * metric works, a callback included.
 *
 * Bounds.  For a point x_i whose distance to the query is known,
 * d(q, x_j) >= d(q, x_i) - d(x_i, x_j) (the notes' lower bound) and also
 * d(q, x_j) >= d(x_i, x_j) - d(q, x_i); the bound used is the larger,
 * |d(q, x_i) - d(x_i, x_j)|, as in Vidal's AESA.  The notes' upper bound
 * is d(q, x_j) <= d(q, x_i) + d(x_i, x_j).
 *
 * Every elimination test is strict and carries a rounding slack: relative
 * on the current k-th distance and absolute, scaled by the largest
 * distance involved, on the bound (a difference of distances is only as
 * exact as the distances themselves).
 * SPDX-License-Identifier: MIT
 */
#include "neighbors/search.h"

/* ------------------------------------------------------ stored distances */

typedef struct PairJob {
  luma_NnIndex *ix;
  const luma_NnMetric *m;
  atomic_int failed;
} PairJob;

/* Rows [b, e): d(i, j) for every j > i. */
static void pair_rows(void *ctx, int64_t k, int64_t b, int64_t e) {
  (void)k;
  PairJob *job = ctx;
  luma_NnIndex *ix = job->ix;
  int64_t n = ix->n, d = ix->d;
  for (int64_t i = b; i < e; i++) {
    double *out = ix->pair + i * n - i * (i + 1) / 2;
    for (int64_t j = i + 1; j < n; j++) {
      double rd = luma_nn_rdist(job->m, ix->data + i * d, ix->data + j * d, d);
      if (rd != rd) {
        atomic_store(&job->failed, 1);
        return;
      }
      out[j - i - 1] = luma_nn_to_dist(job->m, rd);
    }
  }
}

luma_NnStatus luma_nn_pair_build(luma_Threads *t, luma_NnIndex *ix, const luma_NnMetric *m) {
  PairJob job = {ix, m, 0};
  atomic_init(&job.failed, 0);
  luma_Loop loop = {ix->n, 16, (uint64_t)ix->n * (uint64_t)(ix->d + 1) / 2, 0, pair_rows, &job};
  luma_LoopStatus done = luma_parallel_for(t, &loop);
  luma_NnStatus status = luma_nn_status(done, atomic_load(&job.failed));
  if (status != LUMA_NN_OK) return status;
  ix->scale = 0;
  for (int64_t i = 0; i < ix->n * (ix->n - 1) / 2; i++)
    ix->scale = ix->pair[i] > ix->scale ? ix->pair[i] : ix->scale;
  return LUMA_NN_OK;
}

/* ------------------------------------------------------------------ AESA */

/* The notes' AESA: evaluate the candidate with the lowest lower bound,
 * tighten every live bound with it, eliminate the points whose bound
 * exceeds the k-th distance (or the radius), repeat until none is left.
 * Starts from row 0 (every bound is 0; ties go to the smaller index). */
void luma_nn_aesa_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         luma_NnResult *r, luma_NnScratch *s) {
  int64_t n = ix->n, d = ix->d;
  double *lb = s->lb;
  unsigned char *gone = s->mark;
  double slack = luma_nn_slack(d), widen = 1 + slack, dmax = 0;
  for (int64_t j = 0; j < n; j++) {
    lb[j] = 0;
    gone[j] = 0;
  }
  int64_t cur = 0;
  while (cur >= 0) {
    double rd = luma_nn_eval(m, q, ix->data + cur * d, d, r);
    if (r->failed) return;
    double dq = luma_nn_to_dist(m, rd);
    gone[cur] = 1;
    luma_nn_offer(r, rd, cur);
    dmax = dq > dmax ? dq : dmax;
    double limit = luma_nn_to_dist(m, r->bound) * widen + slack * (dmax + ix->scale);
    int64_t next = -1;
    double best = INFINITY;
    for (int64_t j = 0; j < n; j++) {
      if (gone[j]) continue;
      double b = fabs(dq - luma_nn_pair_at(ix, cur, j));
      if (b > lb[j]) lb[j] = b;
      if (lb[j] > limit) {
        gone[j] = 1;
      } else if (lb[j] < best || next < 0) {
        best = lb[j];
        next = j;
      }
    }
    cur = next;
  }
}

/* ----------------------------------------------------------- linear AESA */

typedef struct BuoyJob {
  luma_NnIndex *ix;
  const luma_NnMetric *m;
  int64_t b; /* the buoy whose row is computed */
  atomic_int failed;
} BuoyJob;

static void buoy_row(void *ctx, int64_t k, int64_t j0, int64_t j1) {
  (void)k;
  BuoyJob *job = ctx;
  luma_NnIndex *ix = job->ix;
  int64_t d = ix->d;
  const double *buoy = ix->data + ix->buoys[job->b] * d;
  double *out = ix->buoy_dist + job->b * ix->n;
  for (int64_t j = j0; j < j1; j++) {
    double rd = luma_nn_rdist(job->m, buoy, ix->data + j * d, d);
    if (rd != rd) {
      atomic_store(&job->failed, 1);
      return;
    }
    out[j] = luma_nn_to_dist(job->m, rd);
  }
}

/* Buoys by farthest-first traversal: row 0, then repeatedly the row
 * farthest from the buoys chosen so far (the smallest index on ties), which
 * spreads them over the data as LAESA's base-prototype selection does. */
luma_NnStatus luma_nn_laesa_build(luma_Threads *t, luma_NnIndex *ix, const luma_NnMetric *m) {
  int64_t n = ix->n, nb = ix->n_buoys;
  BuoyJob job = {ix, m, 0, 0};
  atomic_init(&job.failed, 0);
  for (int64_t b = 0; b < nb; b++) {
    int64_t pick = 0;
    if (b > 0) {
      double far = -1;
      for (int64_t j = 0; j < n; j++) {
        double near = INFINITY;
        int taken = 0;
        for (int64_t c = 0; c < b; c++) {
          double v = ix->buoy_dist[c * n + j];
          near = v < near ? v : near;
          taken |= ix->buoys[c] == j;
        }
        if (!taken && near > far) {
          far = near;
          pick = j;
        }
      }
    }
    ix->buoys[b] = pick;
    job.b = b;
    luma_Loop loop = {n, 1024, (uint64_t)(ix->d + 1), 0, buoy_row, &job};
    luma_LoopStatus done = luma_parallel_for(t, &loop);
    luma_NnStatus status = luma_nn_status(done, atomic_load(&job.failed));
    if (status != LUMA_NN_OK) return status;
  }
  ix->scale = 0;
  for (int64_t i = 0; i < nb * n; i++)
    ix->scale = ix->buoy_dist[i] > ix->scale ? ix->buoy_dist[i] : ix->scale;
  return LUMA_NN_OK;
}

/* The notes' linear AESA: distances to the B buoys give every point a
 * lower bound L_n = max_m |d(q, b_m) - d(b_m, x_n)| and an upper bound
 * U_n = min_m d(q, b_m) + d(b_m, x_n).  Pre-elimination drops the points
 * whose L exceeds the k-th smallest U (the notes' rule is for k = 1: the
 * smallest U) or the radius; the rest are evaluated in increasing order of
 * L until the next L exceeds the current k-th distance. */
void luma_nn_laesa_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                          luma_NnResult *r, luma_NnScratch *s) {
  int64_t n = ix->n, d = ix->d, nb = ix->n_buoys;
  double *lb = s->lb, *qb = s->qb;
  luma_NnKey *keys = s->keys;
  unsigned char *buoy = s->mark;
  double slack = luma_nn_slack(d), widen = 1 + slack, dmax = 0;
  for (int64_t b = 0; b < nb; b++) {
    double rd = luma_nn_eval(m, q, ix->data + ix->buoys[b] * d, d, r);
    if (r->failed) return;
    qb[b] = luma_nn_to_dist(m, rd);
    dmax = qb[b] > dmax ? qb[b] : dmax;
    luma_nn_offer(r, rd, ix->buoys[b]);
  }
  int64_t nk = 0;
  for (int64_t j = 0; j < n; j++) {
    double lo = 0, hi = INFINITY;
    for (int64_t b = 0; b < nb; b++) {
      double dbj = ix->buoy_dist[b * n + j];
      double l = fabs(qb[b] - dbj), u = qb[b] + dbj;
      lo = l > lo ? l : lo;
      hi = u < hi ? u : hi;
    }
    lb[j] = lo;
    buoy[j] = 0;
    if (j != r->self) keys[nk++] = (luma_NnKey){hi, j};
  }
  for (int64_t b = 0; b < nb; b++) buoy[ix->buoys[b]] = 1;
  double pre = luma_nn_to_dist(m, r->bound); /* radius queries: the radius */
  if (r->mode == LUMA_NN_KNN && r->k <= nk) {
    luma_nn_select_keys(keys, nk, r->k - 1);
    pre = keys[r->k - 1].v;
  }
  double margin = slack * (dmax + ix->scale);
  int64_t nc = 0;
  for (int64_t j = 0; j < n; j++)
    if (!buoy[j] && j != r->self && !(lb[j] > pre * widen + margin))
      keys[nc++] = (luma_NnKey){lb[j], j};
  luma_nn_sort_keys(keys, nc);
  for (int64_t c = 0; c < nc; c++) {
    double limit = luma_nn_to_dist(m, r->bound) * widen + slack * (dmax + ix->scale);
    if (keys[c].v > limit) break;
    int64_t j = keys[c].i;
    double rd = luma_nn_eval(m, q, ix->data + j * d, d, r);
    if (r->failed) return;
    double dq = luma_nn_to_dist(m, rd);
    dmax = dq > dmax ? dq : dmax;
    luma_nn_offer(r, rd, j);
  }
}
