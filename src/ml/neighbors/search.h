/*
 * search.h - what the index kernels share (internal to src/ml/neighbors,
 * no Lua): the reduced distance of a pair, the rounding slack of pruning
 * tests, the per-query result collector (a bounded max-heap for k-nearest,
 * a counter or a writer for radius queries), and each index's search.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NEIGHBORS_SEARCH_H
#define LUMA_ML_NEIGHBORS_SEARCH_H

#include <float.h>
#include <math.h>
#include <stdatomic.h>

#include "neighbors/neighbors.h"

/* ------------------------------------------------------ reduced distance */

/* Four partial sums: independent dependency chains, and one fixed order of
 * additions for a pair wherever it is computed (every index agrees). */
static inline double luma_nn_sqdist(const double *u, const double *v, int64_t d) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= d; k += 4) {
    double e0 = u[k] - v[k], e1 = u[k + 1] - v[k + 1], e2 = u[k + 2] - v[k + 2],
           e3 = u[k + 3] - v[k + 3];
    s0 += e0 * e0;
    s1 += e1 * e1;
    s2 += e2 * e2;
    s3 += e3 * e3;
  }
  for (; k < d; k++) s0 += (u[k] - v[k]) * (u[k] - v[k]);
  return (s0 + s1) + (s2 + s3);
}

static inline double luma_nn_absdist(const double *u, const double *v, int64_t d) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= d; k += 4) {
    s0 += fabs(u[k] - v[k]);
    s1 += fabs(u[k + 1] - v[k + 1]);
    s2 += fabs(u[k + 2] - v[k + 2]);
    s3 += fabs(u[k + 3] - v[k + 3]);
  }
  for (; k < d; k++) s0 += fabs(u[k] - v[k]);
  return (s0 + s1) + (s2 + s3);
}

/* 1 - u.v / (|u| |v|) in [0, 2]; a zero (or overflowing) vector is at
 * distance 1 from everything, as in scikit-learn. */
static inline double luma_nn_cosdist(const double *u, const double *v, int64_t d) {
  double uv = 0, uu = 0, vv = 0;
  for (int64_t k = 0; k < d; k++) {
    uv += u[k] * v[k];
    uu += u[k] * u[k];
    vv += v[k] * v[k];
  }
  double s = sqrt(uu) * sqrt(vv);
  if (!(s > 0) || isinf(s)) return 1;
  double c = 1 - uv / s;
  return c < 0 ? 0 : c > 2 ? 2 : c == c ? c : 1;
}

/* The reduced distance of a pair (NaN only from a failing callback). */
static inline double luma_nn_rdist(const luma_NnMetric *m, const double *u, const double *v,
                                   int64_t d) {
  switch (m->kind) {
  case LUMA_NN_EUCLIDEAN: return luma_nn_sqdist(u, v, d);
  case LUMA_NN_MANHATTAN: return luma_nn_absdist(u, v, d);
  case LUMA_NN_CHEBYSHEV: {
    double r = 0;
    for (int64_t k = 0; k < d; k++) {
      double e = fabs(u[k] - v[k]);
      r = e > r ? e : r;
    }
    return r;
  }
  case LUMA_NN_MINKOWSKI: {
    double s = 0;
    for (int64_t k = 0; k < d; k++) s += pow(fabs(u[k] - v[k]), m->p);
    return s;
  }
  case LUMA_NN_COSINE: return luma_nn_cosdist(u, v, d);
  case LUMA_NN_CALLBACK: return m->fn(m->ctx, u, v, d);
  }
  return NAN;
}

static inline double luma_nn_to_dist(const luma_NnMetric *m, double rd) {
  if (m->kind == LUMA_NN_EUCLIDEAN) return sqrt(rd);
  if (m->kind == LUMA_NN_MINKOWSKI) return pow(rd, 1 / m->p);
  return rd;
}

static inline double luma_nn_to_rdist(const luma_NnMetric *m, double dist) {
  if (m->kind == LUMA_NN_EUCLIDEAN) return dist * dist;
  if (m->kind == LUMA_NN_MINKOWSKI) return pow(dist, m->p);
  return dist;
}

/* Relative rounding slack of a bound against a computed distance: a sum
 * of d rounded terms is within (d + 2) eps of its exact value, and a bound
 * and a distance compared with each other are each that far off, so
 * pruning compares bound > limit (1 + slack) and never loses a point at
 * exactly the limit (which may win its tie on the index). */
static inline double luma_nn_slack(int64_t d) { return (4.0 * (double)d + 16.0) * DBL_EPSILON; }

/* ------------------------------------------------------ result collector */

typedef struct luma_NnPair {
  double rd;
  int64_t id;
} luma_NnPair;

static inline int luma_nn_before(double ra, int64_t ia, double rb, int64_t ib) {
  return ra < rb || (ra == rb && ia < ib);
}

enum { LUMA_NN_KNN, LUMA_NN_COUNT, LUMA_NN_COLLECT };

typedef struct luma_NnResult {
  int mode;
  int64_t k, size;     /* k-nearest: heap capacity and fill */
  luma_NnPair *heap;   /* k-nearest: max-heap on (rd, id) */
  double *crd, *cid;   /* collect: where the reduced distances and ids go */
  int64_t capacity;    /* collect: room there */
  double bound;        /* prune above: the k-th reduced distance once full, or the radius */
  int64_t count;       /* radius: found so far */
  int64_t self;        /* an index never reported (the query's own row), or -1 */
  int64_t evals;       /* distance evaluations */
  int failed;          /* the callback failed: stop */
} luma_NnResult;

/* k-nearest: an empty heap of capacity k; radius (rbound, a reduced
 * distance): counting, or collecting into crd/cid when they are set. */
static inline void luma_nn_result_init(luma_NnResult *r, int mode, int64_t k, luma_NnPair *heap,
                                       double rbound, int64_t self) {
  r->mode = mode;
  r->k = k;
  r->size = 0;
  r->heap = heap;
  r->crd = r->cid = NULL;
  r->capacity = 0;
  r->bound = mode == LUMA_NN_KNN ? INFINITY : rbound;
  r->count = 0;
  r->self = self;
  r->evals = 0;
  r->failed = 0;
}

/* Offers point id at reduced distance rd. */
static inline void luma_nn_offer(luma_NnResult *r, double rd, int64_t id) {
  if (id == r->self) return;
  if (r->mode != LUMA_NN_KNN) {
    if (rd <= r->bound) {
      if (r->mode == LUMA_NN_COLLECT && r->count < r->capacity) {
        r->crd[r->count] = rd;
        r->cid[r->count] = (double)id;
      }
      r->count++;
    }
    return;
  }
  luma_NnPair *h = r->heap;
  int64_t i;
  if (r->size < r->k) {
    /* sift up */
    i = r->size++;
    while (i > 0) {
      int64_t parent = (i - 1) / 2;
      if (!luma_nn_before(h[parent].rd, h[parent].id, rd, id)) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = (luma_NnPair){rd, id};
  } else if (luma_nn_before(rd, id, h[0].rd, h[0].id)) {
    /* replace the worst and sift down */
    i = 0;
    for (;;) {
      int64_t c = 2 * i + 1;
      if (c >= r->k) break;
      if (c + 1 < r->k && luma_nn_before(h[c].rd, h[c].id, h[c + 1].rd, h[c + 1].id)) c++;
      if (!luma_nn_before(rd, id, h[c].rd, h[c].id)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = (luma_NnPair){rd, id};
  } else {
    return;
  }
  if (r->size == r->k) r->bound = h[0].rd;
}

/* Evaluates the reduced distance of the query to a row and counts it;
 * a NaN (a failing callback) marks the result failed. */
static inline double luma_nn_eval(const luma_NnMetric *m, const double *q, const double *row,
                                  int64_t d, luma_NnResult *r) {
  double rd = luma_nn_rdist(m, q, row, d);
  r->evals++;
  if (rd != rd) r->failed = 1;
  return rd;
}

/* The status of a finished loop whose chunks may have flagged a failing
 * metric (read after the loop has returned). */
static inline luma_NnStatus luma_nn_status(luma_LoopStatus s, int failed) {
  if (failed) return LUMA_NN_METRIC_FAILED;
  return s == LUMA_LOOP_DONE          ? LUMA_NN_OK
         : s == LUMA_LOOP_INTERRUPTED ? LUMA_NN_INTERRUPTED
                                      : LUMA_NN_OVER_BUDGET;
}

/* Sorts a k-nearest heap into ascending (rd, id) order, in place. */
void luma_nn_heap_sort(luma_NnPair *heap, int64_t n);

/* Sorts the parallel arrays rd, id ascending by (rd, id), in place. */
void luma_nn_sort_columns(double *rd, double *id, int64_t n);

/* --------------------------------------------------------- tree building */

/* A row's coordinate on the split axis and its index (which breaks ties,
 * so keys are distinct). */
typedef struct luma_NnKey {
  double v;
  int64_t i;
} luma_NnKey;

/* Puts the key of rank kth at a[kth], smaller keys before it and larger
 * ones after. */
void luma_nn_select_keys(luma_NnKey *a, int64_t n, int64_t kth);

/* Sorts keys ascending (heapsort: in place, O(n log n) for any input). */
void luma_nn_sort_keys(luma_NnKey *a, int64_t n);

/* The longest root-to-leaf path (in nodes) of count nodes whose children
 * come after them; left/right are the first node's child fields, stride
 * the node size; depth: count scratch entries. */
int64_t luma_nn_tree_depth(const int64_t *left, const int64_t *right, size_t stride,
                           int64_t count, int64_t *depth);

/* -------------------------------------------------------------- searches */

/* Scratch of one search (per thread), laid out by luma_nn_search_layout. */
typedef struct luma_NnScratch {
  void *stack;         /* trees: depth + 2 entries of 16 bytes */
  double *lb;          /* AESA, linear AESA: n lower bounds */
  double *qb;          /* linear AESA: distances to the buoys */
  luma_NnKey *keys;    /* linear AESA: n (bound, row) keys */
  unsigned char *mark; /* AESA, Orchard, linear AESA: n per-row flags */
} luma_NnScratch;

/* Per-thread scratch areas ("slots") of a parallel loop: a chunk claims a
 * free one with an atomic flag and releases it when done.  At most
 * `count` chunks run at once (one per thread), so one is always free. */
typedef struct luma_NnSlots {
  atomic_int *busy;
  char *base;
  size_t stride;
  int count;
} luma_NnSlots;

static inline size_t luma_nn_round16(size_t v) { return (v + 15) / 16 * 16; }

static inline size_t luma_nn_slots_bytes(int count, size_t stride) {
  return luma_nn_round16((size_t)count * sizeof(atomic_int)) + (size_t)count * stride;
}

static inline void luma_nn_slots_init(luma_NnSlots *s, void *work, int count, size_t stride) {
  s->busy = work;
  s->base = (char *)work + luma_nn_round16((size_t)count * sizeof(atomic_int));
  s->stride = stride;
  s->count = count;
  for (int i = 0; i < count; i++) atomic_init(&s->busy[i], 0);
}

static inline char *luma_nn_slot_claim(luma_NnSlots *s) {
  for (;;)
    for (int i = 0; i < s->count; i++) {
      int expected = 0;
      if (atomic_compare_exchange_strong(&s->busy[i], &expected, 1))
        return s->base + (size_t)i * s->stride;
    }
}

static inline void luma_nn_slot_release(luma_NnSlots *s, char *slot) {
  atomic_store(&s->busy[(size_t)(slot - s->base) / s->stride], 0);
}

size_t luma_nn_search_work(const luma_NnIndex *ix);
void luma_nn_search_layout(const luma_NnIndex *ix, void *base, luma_NnScratch *s);

/* One query q (length d) against the index: every point offered to r. */
void luma_nn_kd_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                       luma_NnResult *r, luma_NnScratch *s);
void luma_nn_ball_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         luma_NnResult *r, luma_NnScratch *s);
void luma_nn_orchard_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                            luma_NnResult *r, luma_NnScratch *s);
void luma_nn_aesa_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         luma_NnResult *r, luma_NnScratch *s);
void luma_nn_laesa_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                          luma_NnResult *r, luma_NnScratch *s);

/* The brute force over a block of queries (rows of q, contiguous, count
 * rows), each with its own result; scratch from luma_nn_brute_work. */
size_t luma_nn_brute_work(const luma_NnIndex *ix, const luma_NnMetric *m, int64_t rows);
void luma_nn_brute_block(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         int64_t rows, luma_NnResult *results, void *work);

/* d(i, j) from the stored triangle (Orchard, AESA). */
static inline double luma_nn_pair_at(const luma_NnIndex *ix, int64_t i, int64_t j) {
  if (i == j) return 0;
  if (i > j) {
    int64_t t = i;
    i = j;
    j = t;
  }
  return ix->pair[i * ix->n - i * (i + 1) / 2 + (j - i - 1)];
}

#endif
