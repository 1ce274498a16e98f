/*
 * hierarchy.c - agglomerative clustering (nearest-neighbour chain, the
 * generic algorithm under a connectivity graph), Prim's minimum spanning
 * tree, SciPy's relabelling of merges, and the DBSCAN expansion.  See
 * hierarchy.h; notes 003 §1.19 (minimum spanning tree).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "cluster/hierarchy.h"
#include "neighbors/search.h"

/* How many active clusters ahead the scans prefetch their distances:
 * a cluster's distances to the clusters below it lie one per row of the
 * condensed array, a stride no hardware prefetcher follows. */
#define PREFETCH 16

/* d(a, b), a != b, from the condensed array. */
static inline double *at(double *D, int64_t n, int64_t a, int64_t b) {
  return a < b ? D + luma_hc_index(n, a, b) : D + luma_hc_index(n, b, a);
}

/* The Lance-Williams update of d(i, x u y) from d(i, x), d(i, y) and
 * d(x, y) (Ward's on squared distances). */
static inline double lance_williams(luma_HcMethod m, double dxi, double dyi, double dxy,
                                    double nx, double ny, double ni) {
  switch (m) {
  case LUMA_HC_SINGLE: return dxi < dyi ? dxi : dyi;
  case LUMA_HC_COMPLETE: return dxi > dyi ? dxi : dyi;
  case LUMA_HC_AVERAGE: return (nx * dxi + ny * dyi) / (nx + ny);
  case LUMA_HC_WARD: {
    double v = ((nx + ni) * dxi + (ny + ni) * dyi - ni * dxy) / (nx + ny + ni);
    return v > 0 ? v : 0;
  }
  }
  return NAN;
}

/* The merge height reported for an internal distance. */
static inline double height(luma_HcMethod m, double v) {
  return m == LUMA_HC_WARD ? sqrt(v) : v;
}

/* Removes slot x from the sorted active list act (length *na). */
static void deactivate(int64_t *act, int64_t *na, int64_t x) {
  int64_t lo = 0, hi = *na - 1;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (act[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  memmove(act + lo, act + lo + 1, (size_t)(*na - lo - 1) * sizeof(int64_t));
  (*na)--;
}

/* ------------------------------------------------------ condensed distances */

typedef struct CondensedJob {
  const luma_NnMetric *m;
  const double *x;
  int64_t n, d;
  double *out;
} CondensedJob;

static void condensed_rows(void *ctx, int64_t k, int64_t b, int64_t e) {
  (void)k;
  const CondensedJob *job = ctx;
  const int64_t n = job->n, d = job->d;
  for (int64_t i = b; i < e; i++) {
    double *row = job->out + luma_hc_index(n, i, i + 1);
    const double *u = job->x + i * d;
    for (int64_t j = i + 1; j < n; j++)
      row[j - i - 1] = luma_nn_to_dist(job->m, luma_nn_rdist(job->m, u, job->x + j * d, d));
  }
}

luma_LoopStatus luma_hc_condensed(luma_Threads *t, const luma_NnMetric *m, const double *x,
                                  int64_t n, int64_t d, double *out) {
  CondensedJob job = {m, x, n, d, out};
  luma_Loop loop = {n, 16, (uint64_t)(n / 2 + 1) * (uint64_t)(d + 1), 0, condensed_rows, &job};
  return luma_parallel_for(t, &loop);
}

/* ----------------------------------------------- nearest-neighbour chain */

static void record(double *Z, int64_t k, int64_t x, int64_t y, double h, double size) {
  Z[4 * k] = (double)x;
  Z[4 * k + 1] = (double)y;
  Z[4 * k + 2] = h;
  Z[4 * k + 3] = size;
}

int luma_hc_nn_chain(int64_t n, double *D, luma_HcMethod method, double *Z, int64_t *iwork,
                     luma_Threads *meter) {
  int64_t *act = iwork, *chain = iwork + n, *size = iwork + 2 * n;
  int64_t na = n, len = 0;
  for (int64_t i = 0; i < n; i++) {
    act[i] = i;
    size[i] = 1;
  }
  /* every link of the chain scans the active clusters, and a merge
   * updates them: both charged, in batches */
  luma_WorkBatch work = {meter, 0};
  for (int64_t k = 0; k < n - 1; k++) {
    if (luma_work_add(&work, (uint64_t)na)) return 1;
    if (len == 0) chain[len++] = act[0];
    int64_t x, y;
    double best;
    for (;;) {
      if (luma_work_add(&work, (uint64_t)na)) return 1;
      x = chain[len - 1];
      /* Prefer the previous element of the chain on ties: no cycles. */
      if (len > 1) {
        y = chain[len - 2];
        best = *at(D, n, x, y);
      } else {
        y = -1;
        best = INFINITY;
      }
      /* d(a, x) = D[x - 1 + a n - a (a + 1) / 2 - a] below x, D[above + a] above. */
      const int64_t above = luma_hc_index(n, x, x + 1) - (x + 1);
      for (int64_t p = 0; p < na; p++) {
        int64_t a = act[p];
        /* The column below x is one element per row: fetch ahead. */
        if (p + PREFETCH < na && act[p + PREFETCH] != x) {
          int64_t f = act[p + PREFETCH];
          __builtin_prefetch(D + (f < x ? x - 1 + f * n - f * (f + 1) / 2 - f : above + f));
        }
        if (a == x) continue;
        double v = a < x ? D[x - 1 + a * n - a * (a + 1) / 2 - a] : D[above + a];
        if (v < best) {
          best = v;
          y = a;
        }
      }
      if (len > 1 && y == chain[len - 2]) break;
      chain[len++] = y;
    }
    len -= 2;
    if (x > y) {
      int64_t s = x;
      x = y;
      y = s;
    }
    const double nx = (double)size[x], ny = (double)size[y];
    record(Z, k, x, y, height(method, best), nx + ny);
    size[x] = 0;
    size[y] = (int64_t)(nx + ny);
    deactivate(act, &na, x);
    for (int64_t p = 0; p < na; p++) {
      int64_t a = act[p];
      if (p + PREFETCH < na) {
        int64_t f = act[p + PREFETCH];
        if (f != y) {
          __builtin_prefetch(at(D, n, f, x));
          __builtin_prefetch(at(D, n, f, y), 1);
        }
      }
      if (a == y) continue;
      double *ay = at(D, n, a, y);
      *ay = lance_williams(method, *at(D, n, a, x), *ay, best, nx, ny, (double)size[a]);
    }
  }
  luma_work_flush(&work);
  return 0;
}

/* Ward's linkage on points: the same chain over centroids, d^2(A, B) =
 * 2 |A| |B| / (|A| + |B|) |c_A - c_B|^2 (the Lance-Williams recurrence in
 * closed form; Ward 1963), so no distance matrix: O(n d) memory, and
 * every scan reads the centroids in order. */
static inline double ward2(const double *cent, const int64_t *size, int64_t d, int64_t a,
                           int64_t b) {
  const double na = (double)size[a], nb = (double)size[b];
  return 2 * (na * nb) / (na + nb) * luma_nn_sqdist(cent + a * d, cent + b * d, d);
}

int luma_hc_ward_chain(int64_t n, int64_t d, double *cent, double *Z, int64_t *iwork,
                       luma_Threads *meter) {
  int64_t *act = iwork, *chain = iwork + n, *size = iwork + 2 * n;
  int64_t na = n, len = 0;
  for (int64_t i = 0; i < n; i++) {
    act[i] = i;
    size[i] = 1;
  }
  /* every link of the chain scans the active centroids: charged in batches */
  luma_WorkBatch work = {meter, 0};
  for (int64_t k = 0; k < n - 1; k++) {
    if (len == 0) chain[len++] = act[0];
    int64_t x, y;
    double best;
    for (;;) {
      if (luma_work_add(&work, (uint64_t)(na * (d + 1)))) return 1;
      x = chain[len - 1];
      if (len > 1) {
        y = chain[len - 2];
        best = ward2(cent, size, d, x, y);
      } else {
        y = -1;
        best = INFINITY;
      }
      for (int64_t p = 0; p < na; p++) {
        int64_t a = act[p];
        if (a == x) continue;
        double v = ward2(cent, size, d, x, a);
        if (v < best) {
          best = v;
          y = a;
        }
      }
      if (len > 1 && y == chain[len - 2]) break;
      chain[len++] = y;
    }
    len -= 2;
    if (x > y) {
      int64_t s = x;
      x = y;
      y = s;
    }
    const double nx = (double)size[x], ny = (double)size[y];
    record(Z, k, x, y, sqrt(best), nx + ny);
    for (int64_t j = 0; j < d; j++)
      cent[y * d + j] = (nx * cent[x * d + j] + ny * cent[y * d + j]) / (nx + ny);
    size[x] = 0;
    size[y] = (int64_t)(nx + ny);
    deactivate(act, &na, x);
  }
  luma_work_flush(&work);
  return 0;
}

/* ------------------------------------------------------ connectivity graph */

static int64_t uf_find(int64_t *parent, int64_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

int64_t luma_hc_connect_components(int64_t n, const double *D, unsigned char *A,
                                   int64_t *iwork, double *dwork) {
  int64_t *parent = iwork, *comp = iwork + n;
  for (int64_t i = 0; i < n; i++) parent[i] = i;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i + 1; j < n; j++)
      if (A[luma_hc_index(n, i, j)]) {
        int64_t a = uf_find(parent, i), b = uf_find(parent, j);
        if (a != b) parent[a < b ? b : a] = a < b ? a : b;
      }
  /* Components numbered by their smallest point (a root is its smallest). */
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t r = uf_find(parent, i);
    comp[i] = r == i ? count++ : comp[r];
  }
  if (count == 1) return 1;
  /* Per component p, the closest point of every later component q: reuse
   * parent as the best pair's first point, and D's scan order (i, then j
   * ascending) keeps the first pair of smallest distance. */
  int64_t *bi = parent, *bj = iwork + 2 * n;
  double *best = dwork;
  for (int64_t p = 0; p < count; p++) {
    for (int64_t q = 0; q < count; q++) best[q] = INFINITY;
    for (int64_t i = 0; i < n; i++) {
      if (comp[i] != p) continue;
      for (int64_t j = 0; j < n; j++) {
        int64_t q = comp[j];
        if (q <= p) continue;
        double v = i < j ? D[luma_hc_index(n, i, j)] : D[luma_hc_index(n, j, i)];
        if (v < best[q]) {
          best[q] = v;
          bi[q] = i;
          bj[q] = j;
        }
      }
    }
    for (int64_t q = p + 1; q < count; q++) {
      int64_t i = bi[q] < bj[q] ? bi[q] : bj[q], j = bi[q] < bj[q] ? bj[q] : bi[q];
      A[luma_hc_index(n, i, j)] = 1;
    }
  }
  return count;
}

/* The nearest adjacent active cluster of c (smaller slot on ties). */
static void nearest(int64_t n, const double *D, const unsigned char *A, const int64_t *act,
                    int64_t na, int64_t c, int64_t *nn, double *mind) {
  double best = INFINITY;
  int64_t arg = -1;
  for (int64_t p = 0; p < na; p++) {
    int64_t a = act[p];
    if (a == c) continue;
    int64_t ix = a < c ? luma_hc_index(n, a, c) : luma_hc_index(n, c, a);
    if (A[ix] && D[ix] < best) {
      best = D[ix];
      arg = a;
    }
  }
  nn[c] = arg;
  mind[c] = best;
}

int luma_hc_generic(int64_t n, double *D, unsigned char *A, luma_HcMethod method, double *Z,
                    int64_t *iwork, double *dwork, luma_Threads *meter) {
  int64_t *act = iwork, *nn = iwork + n, *size = iwork + 2 * n;
  double *mind = dwork;
  int64_t na = n;
  for (int64_t i = 0; i < n; i++) {
    act[i] = i;
    size[i] = 1;
  }
  if (luma_work_charge(meter, (uint64_t)n * (uint64_t)n)) return 1;
  for (int64_t i = 0; i < n; i++) nearest(n, D, A, act, na, i, nn, mind);
  /* a search for the closest pair scans the active clusters and may
   * rescan one's neighbours; a merge updates them: all charged, in batches */
  luma_WorkBatch work = {meter, 0};
  for (int64_t k = 0; k < n - 1; k++) {
    if (luma_work_add(&work, 2 * (uint64_t)na)) return 1;
    /* mind[c] is a lower bound of c's nearest adjacent distance: the
     * smallest bound that is still exact is the closest adjacent pair. */
    int64_t c, b;
    for (;;) {
      if (luma_work_add(&work, 2 * (uint64_t)na)) return 1;
      c = -1;
      for (int64_t p = 0; p < na; p++)
        if (c < 0 || mind[act[p]] < mind[c]) c = act[p];
      b = nn[c];
      if (b < 0) return 2; /* no adjacent pair left: the graph was not connected */
      int64_t ix = b < c ? luma_hc_index(n, b, c) : luma_hc_index(n, c, b);
      if (size[b] > 0 && A[ix] && D[ix] == mind[c]) break;
      nearest(n, D, A, act, na, c, nn, mind);
    }
    const int64_t x = c < b ? c : b, y = c < b ? b : c;
    const double dxy = mind[c];
    const double nx = (double)size[x], ny = (double)size[y];
    record(Z, k, x, y, height(method, dxy), nx + ny);
    size[x] = 0;
    size[y] = (int64_t)(nx + ny);
    deactivate(act, &na, x);
    for (int64_t p = 0; p < na; p++) {
      int64_t a = act[p];
      if (a == y) continue;
      const int64_t ixa = a < x ? luma_hc_index(n, a, x) : luma_hc_index(n, x, a);
      const int64_t iya = a < y ? luma_hc_index(n, a, y) : luma_hc_index(n, y, a);
      const int ax = A[ixa], ay = A[iya];
      double v;
      if (method == LUMA_HC_WARD || (ax && ay))
        v = lance_williams(method, D[ixa], D[iya], dxy, nx, ny, (double)size[a]);
      else
        v = ax ? D[ixa] : D[iya];
      D[iya] = v;
      A[iya] = (unsigned char)(ax || ay);
      if (A[iya] && v < mind[a]) {
        mind[a] = v;
        nn[a] = y;
      }
    }
    nearest(n, D, A, act, na, y, nn, mind);
  }
  luma_work_flush(&work);
  return 0;
}

/* ----------------------------------------------------- minimum spanning tree */

int luma_hc_mst(int64_t n, const double *x, int64_t d, const luma_NnMetric *m,
                const luma_Mat *dm, int64_t *from, int64_t *to, double *w, double *dwork,
                int64_t *iwork, luma_Threads *meter) {
  double *key = dwork;
  int64_t *rest = iwork, *parent = iwork + n;
  int64_t nr = n - 1;
  for (int64_t i = 0; i < n; i++) {
    key[i] = INFINITY;
    parent[i] = 0;
    if (i > 0) rest[i - 1] = i;
  }
  int64_t cur = 0;
  for (int64_t k = 0; k < n - 1; k++) {
    /* a step scans the points outside the tree */
    if (luma_work_charge(meter, (uint64_t)nr * (uint64_t)(d > 0 ? d : 1))) return 1;
    double best = INFINITY;
    int64_t arg = -1, at_p = 0;
    for (int64_t p = 0; p < nr; p++) {
      int64_t j = rest[p];
      double v = x ? luma_nn_rdist(m, x + cur * d, x + j * d, d) : LUMA_AT(dm, cur, j);
      if (v < key[j]) {
        key[j] = v;
        parent[j] = cur;
      }
      if (key[j] < best || arg < 0) {
        best = key[j];
        arg = j;
        at_p = p;
      }
    }
    from[k] = parent[arg];
    to[k] = arg;
    w[k] = x ? luma_nn_to_dist(m, best) : best;
    memmove(rest + at_p, rest + at_p + 1, (size_t)(nr - at_p - 1) * sizeof(int64_t));
    nr--;
    cur = arg;
  }
  return 0;
}

/* --------------------------------------------------------------- labelling */

/* Indices 0..m-1 stably sorted by key (bottom-up merge sort). */
static void stable_order(int64_t m, const double *Z, int64_t *order, int64_t *tmp) {
  for (int64_t i = 0; i < m; i++) order[i] = i;
  for (int64_t width = 1; width < m; width *= 2) {
    for (int64_t lo = 0; lo < m; lo += 2 * width) {
      int64_t mid = lo + width < m ? lo + width : m;
      int64_t hi = lo + 2 * width < m ? lo + 2 * width : m;
      int64_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi)
        tmp[o++] = Z[4 * order[b] + 2] < Z[4 * order[a] + 2] ? order[b++] : order[a++];
      while (a < mid) tmp[o++] = order[a++];
      while (b < hi) tmp[o++] = order[b++];
    }
    memcpy(order, tmp, (size_t)m * sizeof(int64_t));
  }
}

void luma_hc_label(int64_t n, double *Z, int sort, int64_t *iwork, double *dwork) {
  const int64_t m = n - 1;
  if (m < 1) return;
  if (sort) {
    stable_order(m, Z, iwork, iwork + m);
    for (int64_t r = 0; r < m; r++) memcpy(dwork + 4 * r, Z + 4 * iwork[r], 4 * sizeof(double));
    memcpy(Z, dwork, (size_t)(4 * m) * sizeof(double));
  }
  /* Union-find over the 2n - 1 clusters: a merged cluster's id is n + its row. */
  int64_t *parent = iwork, *size = iwork + 2 * n;
  for (int64_t i = 0; i < 2 * n - 1; i++) {
    parent[i] = i;
    size[i] = i < n ? 1 : 0;
  }
  for (int64_t r = 0; r < m; r++) {
    int64_t a = uf_find(parent, (int64_t)Z[4 * r]), b = uf_find(parent, (int64_t)Z[4 * r + 1]);
    if (a > b) {
      int64_t s = a;
      a = b;
      b = s;
    }
    const int64_t c = n + r;
    parent[a] = parent[b] = c;
    size[c] = size[a] + size[b];
    Z[4 * r] = (double)a;
    Z[4 * r + 1] = (double)b;
    Z[4 * r + 3] = (double)size[c];
  }
}

/* ------------------------------------------------------------------ DBSCAN */

int64_t luma_hc_dbscan(int64_t n, const int64_t *off, const int64_t *ind, const double *w,
                       double min_samples, unsigned char *core, int64_t *stack,
                       double *labels) {
  for (int64_t i = 0; i < n; i++) {
    double total = 0;
    for (int64_t p = off[i]; p < off[i + 1]; p++) total += w ? w[ind[p]] : 1;
    core[i] = total >= min_samples;
    labels[i] = 0;
  }
  int64_t clusters = 0;
  for (int64_t i = 0; i < n; i++) {
    if (labels[i] != 0 || !core[i]) continue;
    const double label = (double)++clusters;
    int64_t top = 0;
    labels[i] = label;
    stack[top++] = i;
    while (top > 0) {
      int64_t v = stack[--top];
      for (int64_t p = off[v]; p < off[v + 1]; p++) {
        int64_t u = ind[p];
        if (labels[u] != 0) continue;
        labels[u] = label; /* labelled when reached: each point stacked once */
        if (core[u]) stack[top++] = u;
      }
    }
  }
  return clusters;
}
