/*
 * hierarchy_lua.c - the hierarchy kernels of luma.cluster.native: the
 * linkage matrix of agglomerative clustering, the minimum spanning tree,
 * and the DBSCAN expansion.  Arguments are checked here; scratch (the
 * condensed distances included) is userdata, so the collector sees it and
 * an error leaks nothing.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "cluster/cluster_lua.h"
#include "cluster/hierarchy.h"
#include "core/matrix_lua.h"

static void *scratch(lua_State *L, size_t count, size_t each) {
  return lua_newuserdatauv(L, (count > 0 ? count : 1) * each, 0);
}

/* The rows of X as one row-major block (X itself when contiguous), checked
 * finite. */
static const double *rows_of(lua_State *L, int arg, const luma_Mat *x) {
  luma_matrix_check_finite(L, arg, x, "X", 1);
  if (luma_mat_is_contiguous(x)) return x->data;
  double *out = scratch(L, (size_t)(x->rows * x->cols), sizeof(double));
  luma_Mat dst = luma_mat_dense(out, x->rows, x->cols);
  luma_mat_copy(&dst, x);
  return out;
}

/* A precomputed distance matrix: square, finite, >= 0 and symmetric (to a
 * relative 1e-10 of its largest element). */
static void check_distance_matrix(lua_State *L, int arg, const luma_Mat *d) {
  if (d->rows != d->cols)
    luma_arg_error(L, arg, "a precomputed distance matrix must be square, got %I x %I",
                   (lua_Integer)d->rows, (lua_Integer)d->cols);
  double big = 0;
  for (int64_t i = 0; i < d->rows; i++)
    for (int64_t j = 0; j < d->cols; j++) {
      double v = LUMA_AT(d, i, j);
      if (!isfinite(v) || v < 0)
        luma_arg_error(L, arg, "distances must be finite and >= 0 (element [%I][%I] is %f)",
                       (lua_Integer)(i + 1), (lua_Integer)(j + 1), v);
      big = v > big ? v : big;
    }
  for (int64_t i = 0; i < d->rows; i++)
    for (int64_t j = i + 1; j < d->cols; j++)
      if (fabs(LUMA_AT(d, i, j) - LUMA_AT(d, j, i)) > 1e-10 * big)
        luma_arg_error(L, arg, "the precomputed distance matrix is not symmetric ([%I][%I] = "
                       "%f but [%I][%I] = %f)", (lua_Integer)(i + 1), (lua_Integer)(j + 1),
                       LUMA_AT(d, i, j), (lua_Integer)(j + 1), (lua_Integer)(i + 1),
                       LUMA_AT(d, j, i));
}

/* The metric option: its kind (with p), or precomputed (returns 1). */
static int check_metric(lua_State *L, int arg, luma_NnMetric *m) {
  static const char *const names =
      "euclidean|l2|manhattan|l1|cityblock|chebyshev|minkowski|cosine|precomputed";
  static const luma_NnMetricKind kinds[] = {LUMA_NN_EUCLIDEAN, LUMA_NN_EUCLIDEAN,
                                            LUMA_NN_MANHATTAN, LUMA_NN_MANHATTAN,
                                            LUMA_NN_MANHATTAN, LUMA_NN_CHEBYSHEV,
                                            LUMA_NN_MINKOWSKI, LUMA_NN_COSINE};
  int which = luma_opt_choice(L, arg, "metric", names, 0);
  memset(m, 0, sizeof *m);
  if (which == 8) return 1;
  m->kind = kinds[which];
  m->p = luma_opt_number(L, arg, "p", 2);
  if (m->kind == LUMA_NN_MINKOWSKI) {
    if (!(m->p >= 1)) luma_arg_error(L, arg, "option 'p' must be >= 1, got %f", m->p);
    if (m->p == 1) m->kind = LUMA_NN_MANHATTAN;
    if (m->p == 2) m->kind = LUMA_NN_EUCLIDEAN;
  }
  return 0;
}

/* n (n - 1) / 2 as a count of doubles, or an error when too many. */
static size_t condensed_size(lua_State *L, int64_t n) {
  if (n > 1 && (n - 1) > LUMA_MAX_ELEMENTS / n * 2)
    luaL_error(L, "linkage: %I points need too many pairwise distances", (lua_Integer)n);
  return (size_t)(n * (n - 1) / 2);
}

/* The condensed adjacency of a connectivity graph: an n x n matrix
 * (nonzero = edge, symmetrized) or an edge list E x 2 or E x 3 (1-based i,
 * j; a third column, as kneighbors_graph gives, is ignored). */
static unsigned char *adjacency(lua_State *L, int arg, const luma_Mat *c, int64_t n) {
  unsigned char *A = scratch(L, (size_t)(n * (n - 1) / 2), 1);
  memset(A, 0, (size_t)(n * (n - 1) / 2));
  if (c->rows == n && c->cols == n) {
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = i + 1; j < n; j++) {
        double a = LUMA_AT(c, i, j), b = LUMA_AT(c, j, i);
        if (a != a || b != b) luma_arg_error(L, arg, "connectivity has a NaN element");
        A[luma_hc_index(n, i, j)] = a != 0 || b != 0;
      }
    return A;
  }
  if (c->cols != 2 && c->cols != 3)
    luma_arg_error(L, arg, "connectivity must be %I x %I (dense) or an edge list E x 2 or E x 3, "
                   "got %I x %I", (lua_Integer)n, (lua_Integer)n, (lua_Integer)c->rows,
                   (lua_Integer)c->cols);
  for (int64_t e = 0; e < c->rows; e++) {
    double a = LUMA_AT(c, e, 0), b = LUMA_AT(c, e, 1);
    if (!(a >= 1 && a <= (double)n && a == floor(a) && b >= 1 && b <= (double)n && b == floor(b)))
      luma_arg_error(L, arg, "connectivity edge %I joins %f and %f: both must be point numbers "
                     "1..%I", (lua_Integer)(e + 1), a, b, (lua_Integer)n);
    int64_t i = (int64_t)a - 1, j = (int64_t)b - 1;
    if (i != j) A[i < j ? luma_hc_index(n, i, j) : luma_hc_index(n, j, i)] = 1;
  }
  return A;
}

/* linkage(X, {method, metric, p, connectivity}) -> Z, components */
static int h_linkage(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_check_options(L, 2, "method|metric|p|connectivity");
  const luma_HcMethod method =
      (luma_HcMethod)luma_opt_choice(L, 2, "method", "single|complete|average|ward", 3);
  luma_NnMetric metric;
  const int precomputed = check_metric(L, 2, &metric);
  if (precomputed) check_distance_matrix(L, 1, x);
  if (method == LUMA_HC_WARD && !precomputed && metric.kind != LUMA_NN_EUCLIDEAN)
    luma_arg_error(L, 2, "Ward linkage needs the euclidean metric (or precomputed Euclidean "
                   "distances)");
  const int64_t n = x->rows, d = x->cols;
  if (n < 1) luma_arg_error(L, 1, "X has no rows");
  if (d < 1) luma_arg_error(L, 1, "X has no columns");
  luma_Mat *conn = NULL;
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "connectivity");
    conn = luma_matrix_test(L, -1);
    if (conn == NULL && !lua_isnil(L, -1))
      luma_arg_error(L, 2, "option 'connectivity' must be a matrix");
    lua_pop(L, 1); /* the options table keeps it alive */
  }
  const double *rows = precomputed ? NULL : rows_of(L, 1, x);
  const size_t pairs = condensed_size(L, n);
  luma_Mat *z = luma_matrix_new(L, n - 1, 4);
  const int z_idx = lua_gettop(L);
  int64_t *iwork = scratch(L, (size_t)(4 * n), sizeof(int64_t));
  double *dwork = scratch(L, (size_t)(4 * n), sizeof(double));
  luma_Threads *t = luma_threads_of(L);
  int64_t components = 1;
  int sort = 1;
  if (method == LUMA_HC_SINGLE && conn == NULL) {
    /* Single linkage is the minimum spanning tree, sorted (Gower & Ross
     * 1969): no distance matrix, O(n) memory beyond X. */
    int64_t *from = scratch(L, (size_t)n, sizeof(int64_t));
    int64_t *to = scratch(L, (size_t)n, sizeof(int64_t));
    double *w = scratch(L, (size_t)n, sizeof(double));
    luma_hc_mst(n, rows, d, &metric, precomputed ? x : NULL, from, to, w, dwork,
                           iwork, t);
    luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
    for (int64_t k = 0; k < n - 1; k++) {
      z->data[4 * k] = (double)from[k];
      z->data[4 * k + 1] = (double)to[k];
      z->data[4 * k + 2] = w[k];
    }
  } else if (method == LUMA_HC_WARD && !precomputed && conn == NULL) {
    double *cent = scratch(L, (size_t)(n * d), sizeof(double));
    memcpy(cent, rows, (size_t)(n * d) * sizeof(double));
    luma_hc_ward_chain(n, d, cent, z->data, iwork, t);
    luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  } else {
    double *D = scratch(L, pairs, sizeof(double));
    if (precomputed) {
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) D[luma_hc_index(n, i, j)] = LUMA_AT(x, i, j);
    } else {
      luma_threads_finish(L, t, luma_hc_condensed(t, &metric, rows, n, d, D));
    }
    if (method == LUMA_HC_WARD)
      for (size_t i = 0; i < pairs; i++) D[i] *= D[i];
    if (conn == NULL) {
      luma_hc_nn_chain(n, D, method, z->data, iwork, t);
    } else {
      unsigned char *A = adjacency(L, 2, conn, n);
      components = luma_hc_connect_components(n, D, A, iwork, dwork);
      if (luma_hc_generic(n, D, A, method, z->data, iwork, dwork, t) == 2) return luaL_error(L, "linkage: the connectivity graph is not connected");
      sort = 0;
    }
    luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  }
  luma_hc_label(n, z->data, sort, iwork, dwork);
  for (int64_t k = 0; k < n - 1; k++) {
    z->data[4 * k] += 1;
    z->data[4 * k + 1] += 1;
  }
  lua_pushvalue(L, z_idx);
  lua_pushinteger(L, (lua_Integer)components);
  return 2;
}

/* mst(X, {metric, p}) -> edges, weights */
static int h_mst(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_check_options(L, 2, "metric|p");
  luma_NnMetric metric;
  const int precomputed = check_metric(L, 2, &metric);
  if (precomputed) check_distance_matrix(L, 1, x);
  const int64_t n = x->rows;
  if (n < 1) luma_arg_error(L, 1, "X has no rows");
  if (x->cols < 1) luma_arg_error(L, 1, "X has no columns");
  const double *rows = precomputed ? NULL : rows_of(L, 1, x);
  int64_t *iwork = scratch(L, (size_t)(2 * n), sizeof(int64_t));
  int64_t *from = scratch(L, (size_t)n, sizeof(int64_t));
  int64_t *to = scratch(L, (size_t)n, sizeof(int64_t));
  double *dwork = scratch(L, (size_t)n, sizeof(double));
  luma_Mat *edges = luma_matrix_new(L, n - 1, 2);
  luma_Mat *w = luma_matrix_new(L, n - 1, 1);
  luma_Threads *t = luma_threads_of(L);
  luma_hc_mst(n, rows, x->cols, &metric, precomputed ? x : NULL, from, to, w->data,
                         dwork, iwork, t);
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  for (int64_t k = 0; k < n - 1; k++) {
    edges->data[2 * k] = (double)(from[k] + 1);
    edges->data[2 * k + 1] = (double)(to[k] + 1);
  }
  return 2;
}

/* dbscan(ind, counts, min_samples [, weights]) -> labels, core_indices, clusters */
static int h_dbscan(lua_State *L) {
  lua_settop(L, 4);
  luma_Mat *ind = luma_matrix_check(L, 1);
  luma_Mat *counts = luma_matrix_check(L, 2);
  const double min_samples = luaL_checknumber(L, 3);
  luma_Mat *w = lua_isnil(L, 4) ? NULL : luma_matrix_check(L, 4);
  const int64_t n = counts->rows * counts->cols, total = ind->rows * ind->cols;
  if (!luma_mat_is_vector(ind)) luma_arg_error(L, 1, "ind must be a vector");
  if (!luma_mat_is_vector(counts)) luma_arg_error(L, 2, "counts must be a vector");
  if (w != NULL && (!luma_mat_is_vector(w) || w->rows * w->cols != n))
    luma_arg_error(L, 4, "weights must be a vector of %I elements (one per point)", (lua_Integer)n);
  int64_t *off = scratch(L, (size_t)(n + 1), sizeof(int64_t));
  int64_t *list = scratch(L, (size_t)total, sizeof(int64_t));
  double *wv = w ? scratch(L, (size_t)n, sizeof(double)) : NULL;
  off[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    double c = luma_vec_at(counts, i);
    if (!(c >= 0 && c == floor(c)) || off[i] + (int64_t)c > total)
      luma_arg_error(L, 2, "counts must be integers >= 0 summing to the length of ind");
    off[i + 1] = off[i] + (int64_t)c;
    if (wv) wv[i] = luma_vec_at(w, i);
  }
  if (off[n] != total)
    luma_arg_error(L, 2, "counts sum to %I but ind has %I elements", (lua_Integer)off[n],
                   (lua_Integer)total);
  for (int64_t p = 0; p < total; p++) {
    double v = luma_vec_at(ind, p);
    if (!(v >= 1 && v <= (double)n && v == floor(v)))
      luma_arg_error(L, 1, "ind[%I] = %f is not a point number 1..%I", (lua_Integer)(p + 1), v,
                     (lua_Integer)n);
    list[p] = (int64_t)v - 1;
  }
  unsigned char *core = scratch(L, (size_t)n, 1);
  int64_t *stack = scratch(L, (size_t)n, sizeof(int64_t));
  luma_Mat *labels = luma_matrix_new(L, n, 1);
  const int labels_idx = lua_gettop(L);
  int64_t clusters = luma_hc_dbscan(n, off, list, wv, min_samples, core, stack, labels->data);
  int64_t ncore = 0;
  for (int64_t i = 0; i < n; i++) ncore += core[i];
  luma_Mat *ci = luma_matrix_new(L, ncore, 1);
  for (int64_t i = 0, k = 0; i < n; i++)
    if (core[i]) ci->data[k++] = (double)(i + 1);
  lua_pushvalue(L, labels_idx);
  lua_insert(L, -2);
  lua_pushinteger(L, (lua_Integer)clusters);
  return 3;
}

void luma_cluster_register_hierarchy(lua_State *L, int t) {
  static const luma_Func funcs[] = {
      {"linkage", h_linkage,
       "linkage(X [, {method = \"ward\", metric = \"euclidean\", p = 2, connectivity = nil}]) "
       "-> Z, components",
       "The agglomerative merge tree of the rows of X (or of a precomputed distance matrix, "
       "metric \"precomputed\") in SciPy's linkage layout with 1-based ids: row r merges "
       "clusters Z[r][1] < Z[r][2] (leaves 1..n, row r makes n + r) at distance Z[r][3] into "
       "Z[r][4] points. method: single (Prim's minimum spanning tree), complete, average, ward "
       "(nearest-neighbour chain; Muellner 2011). connectivity (n x n, or an edge list E x 2 "
       "or E x 3 of 1-based points) restricts merges to adjacent clusters, completing a "
       "disconnected graph with the closest pair of every two components; components is their "
       "number."},
      {"mst", h_mst, "mst(X [, {metric = \"euclidean\", p = 2}]) -> edges, weights",
       "Prim's minimum spanning tree of the complete graph on the rows of X (or of a "
       "precomputed distance matrix): edges (n-1 x 2, 1-based (from, to)) in the order Prim's "
       "algorithm adds them from point 1, and their weights (n-1 x 1)."},
      {"dbscan", h_dbscan, "dbscan(ind, counts, min_samples [, weights]) -> labels, core, k",
       "The DBSCAN expansion of neighbourhoods given as flat 1-based indices with counts per "
       "point (each including the point itself): labels (n x 1, 0 noise, clusters 1..k in the "
       "order of their first core point), the core points' 1-based indices and k."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, t, "luma.cluster.native", funcs);
}
