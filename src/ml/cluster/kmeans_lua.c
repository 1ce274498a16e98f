/*
 * kmeans_lua.c - the k-means kernels of luma.cluster.native: Lloyd's and
 * Elkan's iterations (kmeans.c) and the nearest-centre assignment.
 * Arguments are checked here; views are packed into contiguous scratch
 * (userdata, collected on an error) before a kernel runs.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "cluster/cluster_lua.h"
#include "cluster/kmeans.h"
#include "cluster/kmeans_medoids.h"
#include "core/matrix_lua.h"

static void *scratch(lua_State *L, int64_t count, size_t size) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * size, 0);
}

/* The rows of m as a contiguous row-major array: m's own storage when it
 * already is, else a packed copy (checked finite either way; data: m
 * holds samples, see luma_matrix_check_finite). */
static const double *rows_of(lua_State *L, int arg, const luma_Mat *m, const char *what,
                             int data) {
  luma_matrix_check_finite(L, arg, m, what, data);
  if (luma_mat_is_contiguous(m)) return m->data;
  double *dst = scratch(L, m->rows * m->cols, sizeof(double));
  luma_Mat out = luma_mat_dense(dst, m->rows, m->cols);
  luma_mat_copy(&out, m);
  return dst;
}

/* X at arg 1 and centres at arg 2 (k x d, k >= 1). */
static void check_pair(lua_State *L, luma_Mat **x, luma_Mat **c) {
  *x = luma_matrix_check(L, 1);
  *c = luma_matrix_check(L, 2);
  if ((*x)->cols < 1) luma_arg_error(L, 1, "X has no columns");
  if ((*c)->rows < 1) luma_arg_error(L, 2, "centers has no rows");
  if ((*c)->cols != (*x)->cols)
    luma_arg_error(L, 2, "centers has %I columns but X has %I", (lua_Integer)(*c)->cols,
                   (lua_Integer)(*x)->cols);
}

/* The optional weights (option "weights" of the table at arg): n x 1,
 * finite and >= 0; NULL when absent. */
static const double *weights_of(lua_State *L, int arg, int64_t n) {
  if (lua_type(L, arg) != LUA_TTABLE) return NULL;
  lua_getfield(L, arg, "weights");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return NULL;
  }
  luma_Mat *w = luma_matrix_test(L, -1);
  if (w == NULL || w->rows != n || w->cols != 1)
    luma_arg_error(L, arg, "weights must be an %I x 1 matrix", (lua_Integer)n);
  double *out = scratch(L, n, sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    out[i] = LUMA_AT(w, i, 0);
    if (!(out[i] >= 0) || !isfinite(out[i]))
      luma_arg_error(L, arg, "weights must be finite and >= 0");
  }
  lua_remove(L, -2); /* the scratch stays on the stack, the matrix goes */
  return out;
}

static void push_labels(lua_State *L, const int64_t *labels, int64_t n) {
  luma_Mat *m = luma_matrix_new(L, n, 1);
  for (int64_t i = 0; i < n; i++) LUMA_AT(m, i, 0) = (double)(labels[i] + 1);
}

/* fit(X, centers [, {weights, algorithm, max_iter, tol}]) */
static int k_fit(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *xm, *cm;
  check_pair(L, &xm, &cm);
  luma_check_options(L, 3, "weights|algorithm|max_iter|tol");
  const int algorithm = luma_opt_choice(L, 3, "algorithm", "lloyd|elkan", 0);
  const lua_Integer max_iter = luma_opt_integer(L, 3, "max_iter", 300);
  const double tol = luma_opt_number(L, 3, "tol", 0);
  if (max_iter < 0) luma_arg_error(L, 3, "max_iter must be >= 0");
  const int64_t n = xm->rows, d = xm->cols, k = cm->rows;
  if (k > n)
    luma_arg_error(L, 2, "%I centers for %I rows (at most one per row)", (lua_Integer)k,
                   (lua_Integer)n);
  const double *w = weights_of(L, 3, n);
  const double *x = rows_of(L, 1, xm, "X", 1);
  rows_of(L, 2, cm, "centers", 0);
  const luma_KMeansAlgorithm alg = algorithm == 1 ? LUMA_KMEANS_ELKAN : LUMA_KMEANS_LLOYD;
  double *work = scratch(L, luma_kmeans_fit_work(alg, n, d, k), sizeof(double));
  int64_t *labels = scratch(L, n, sizeof(int64_t));
  luma_Mat *centers = luma_matrix_new(L, k, d);
  const int centers_idx = lua_gettop(L);
  luma_Mat given = *cm;
  luma_mat_copy(centers, &given);
  luma_KMeansData data = {x, w, n, d};
  luma_KMeansResult result;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_kmeans_fit(t, alg, &data, k, (int64_t)max_iter, tol,
                                            centers->data, labels, &result, work));
  push_labels(L, labels, n);
  lua_pushvalue(L, centers_idx);
  lua_pushnumber(L, result.inertia);
  lua_pushinteger(L, (lua_Integer)result.n_iter);
  lua_pushboolean(L, result.converged);
  lua_pushinteger(L, (lua_Integer)result.relocated);
  return 6;
}

/* assign(X, centers [, {weights, sums = false}]) */
static int k_assign(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *xm, *cm;
  check_pair(L, &xm, &cm);
  luma_check_options(L, 3, "weights|sums");
  const int want_sums = luma_opt_boolean(L, 3, "sums", 0);
  const int64_t n = xm->rows, d = xm->cols, k = cm->rows;
  const double *w = weights_of(L, 3, n);
  const double *x = rows_of(L, 1, xm, "X", 1);
  const double *c = rows_of(L, 2, cm, "centers", 0);
  double *work = scratch(L, luma_kmeans_assign_work(n, d, k), sizeof(double));
  int64_t *labels = scratch(L, n, sizeof(int64_t));
  luma_Mat *dist = luma_matrix_new(L, n, 1);
  const int dist_idx = lua_gettop(L);
  luma_Mat *sums = NULL, *weights = NULL;
  int sums_idx = 0;
  if (want_sums) {
    sums = luma_matrix_new(L, k, d);
    weights = luma_matrix_new(L, k, 1);
    sums_idx = lua_gettop(L) - 1;
  }
  double inertia = 0;
  luma_KMeansData data = {x, w, n, d};
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_kmeans_assign(t, &data, k, c, labels, dist->data, &inertia,
                                               sums ? sums->data : NULL,
                                               weights ? weights->data : NULL, work));
  push_labels(L, labels, n);
  lua_pushvalue(L, dist_idx);
  lua_pushnumber(L, inertia);
  if (!want_sums) return 3;
  lua_pushvalue(L, sums_idx);
  lua_pushvalue(L, sums_idx + 1);
  return 5;
}

/* kmedoids(D, k [, {medoids = nil, max_iter = 300}]) */
static int k_medoids(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *dm = luma_matrix_check(L, 1);
  const int64_t n = dm->rows;
  if (dm->cols != n)
    luma_arg_error(L, 1, "D must be square, got %I x %I", (lua_Integer)n, (lua_Integer)dm->cols);
  /* (k = 1 medoid of no points made the swap search index past D) */
  if (n == 0) luma_arg_error(L, 1, "D must have at least one row, got 0 x 0");
  const int64_t k = luma_check_int_range(L, 2, "k", 1, n);
  luma_check_options(L, 3, "medoids|max_iter");
  const lua_Integer max_iter = luma_opt_integer(L, 3, "max_iter", 300);
  if (max_iter < 0) luma_arg_error(L, 3, "max_iter must be >= 0");
  int64_t *medoids = scratch(L, k, sizeof(int64_t));
  int given = 0;
  if (lua_type(L, 3) == LUA_TTABLE) {
    lua_getfield(L, 3, "medoids");
    luma_Mat *g = luma_matrix_test(L, -1);
    if (g != NULL) {
      if (!luma_mat_is_vector(g) || g->rows * g->cols != k)
        luma_arg_error(L, 3, "medoids must be a vector of %I row numbers", (lua_Integer)k);
      for (int64_t m = 0; m < k; m++) {
        const double v = luma_vec_at(g, m);
        if (!(v >= 1 && v <= (double)n) || v != floor(v))
          luma_arg_error(L, 3, "medoids must be row numbers in 1..%I", (lua_Integer)n);
        for (int64_t q = 0; q < m; q++)
          if (medoids[q] == (int64_t)v - 1) luma_arg_error(L, 3, "medoids must be distinct");
        medoids[m] = (int64_t)v - 1;
      }
      given = 1;
    } else if (!lua_isnil(L, -1)) {
      luma_arg_error(L, 3, "medoids must be a matrix of row numbers");
    }
    lua_pop(L, 1);
  }
  const double *d = rows_of(L, 1, dm, "D", 0);
  double *work = scratch(L, luma_kmedoids_work(n, k), sizeof(double));
  int64_t *labels = scratch(L, n, sizeof(int64_t));
  luma_Mat *out = luma_matrix_new(L, k, 1);
  const int out_idx = lua_gettop(L);
  luma_Threads *t = luma_threads_of(L);
  if (!given) luma_threads_finish(L, t, luma_kmedoids_build(t, d, n, k, medoids, work));
  double total = 0;
  int64_t n_iter = 0;
  luma_threads_finish(L, t, luma_kmedoids_swap(t, d, n, k, medoids, (int64_t)max_iter, labels,
                                               &total, &n_iter, work));
  for (int64_t m = 0; m < k; m++) LUMA_AT(out, m, 0) = (double)(medoids[m] + 1);
  lua_pushvalue(L, out_idx);
  push_labels(L, labels, n);
  lua_pushnumber(L, total);
  lua_pushinteger(L, (lua_Integer)n_iter);
  return 4;
}

void luma_cluster_register_kmeans(lua_State *L, int t) {
  static const luma_Func funcs[] = {
      {"kmeans_fit", k_fit,
       "kmeans_fit(X, centers [, {weights = nil, algorithm = \"lloyd\", max_iter = 300, "
       "tol = 0}]) -> labels, centers, inertia, n_iter, converged, relocated",
       "Runs k-means from the k x d centers on the rows of X: Lloyd's iterations (BLAS "
       "products per block of rows) or Elkan's (triangle-inequality bounds), until no label "
       "changes, the summed squared centre shift is at most tol, or max_iter iterations; "
       "an empty cluster takes the row farthest from its centre. weights: n x 1 sample "
       "weights. Returns the labels (n x 1, 1..k), the new centers, the weighted inertia, "
       "the iterations run, whether they stopped before max_iter, and how many empty "
       "clusters were re-seeded."},
      {"kmeans_assign", k_assign,
       "kmeans_assign(X, centers [, {weights = nil, sums = false}]) -> labels, dist, inertia "
       "[, sums, counts]",
       "The nearest of the k x d centers for each row of X (ties: the lowest index). "
       "Returns the labels (n x 1, 1..k), the squared distances to them (n x 1), their "
       "weighted sum, and with sums the weighted sums of each cluster's rows (k x d) and "
       "their weights (k x 1)."},
      {"kmedoids", k_medoids,
       "kmedoids(D, k [, {medoids = nil, max_iter = 300}]) -> medoids, labels, total, n_iter",
       "k-medoids by PAM on the symmetric n x n dissimilarities D: BUILD (unless medoids, "
       "k row numbers, are given), then SWAP (FastPAM1: the best exchange of a medoid and "
       "a non-medoid while it lowers the total, at most max_iter). Returns the medoids "
       "(k x 1 row numbers), the labels (n x 1, 1..k: the nearest medoid), the total "
       "dissimilarity to the nearest medoids and the exchanges made."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, t, "luma.cluster.native", funcs);
}
