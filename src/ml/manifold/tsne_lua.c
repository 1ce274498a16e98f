/*
 * tsne_lua.c - Lua binding of the manifold kernels (luma.manifold.native):
 * the pieces of t-SNE that loop over points (perplexity calibration,
 * neighbour selection, the sparse joint probabilities, the exact and
 * Barnes-Hut gradients).  Index matrices are 1-based on the Lua side and
 * converted to 0-based int64 scratch (userdata) here.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "core/matrix_lua.h"
#include "manifold/graph.h"
#include "manifold/tsne.h"

static void *scratch(lua_State *L, int64_t count, size_t size) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * size, 0);
}

/* The integers of m (values in base..limit) minus one, as int64 scratch:
 * 1-based indices become 0-based (base 1), 0-based offsets stay as they
 * are (base 0, then add one back). */
static int64_t *indices(lua_State *L, int arg, const luma_Mat *m, int64_t limit, int64_t base) {
  const int64_t count = m->rows * m->cols;
  int64_t *out = scratch(L, count, sizeof(int64_t));
  int64_t at = 0;
  for (int64_t i = 0; m->cols > 0 && i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) {
      const double v = LUMA_AT(m, i, j);
      if (!(v >= (double)base && v <= (double)limit) || v != floor(v))
        luma_arg_error(L, arg, "entry %I is %f, not an integer in %I..%I", (lua_Integer)(at + 1), v,
                       (lua_Integer)base, (lua_Integer)limit);
      out[at++] = (int64_t)v - 1;
    }
  return out;
}

/* conditional(D2, perplexity [, {exclude_self = true}]) -> P */
static int m_conditional(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *d2 = luma_matrix_check(L, 1);
  const double perplexity = luma_check_finite(L, 2, "perplexity");
  luma_check_options(L, 3, "exclude_self");
  const int exclude = luma_opt_boolean(L, 3, "exclude_self", 1);
  if (!(perplexity > 0)) luma_arg_error(L, 2, "perplexity must be > 0");
  if (exclude && d2->rows != d2->cols)
    luma_arg_error(L, 1, "D2 must be square with exclude_self, got %I x %I",
                   (lua_Integer)d2->rows, (lua_Integer)d2->cols);
  luma_Mat *p = luma_matrix_new(L, d2->rows, d2->cols);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_tsne_conditional(t, d2, perplexity, exclude, p));
  return 1;
}

/* select(D2, row0, k) -> idx, dist (row0 = 0: no point to leave out) */
static int m_select(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *d2 = luma_matrix_check(L, 1);
  const lua_Integer row0 = luma_check_int_range(L, 2, "row0", 0, d2->cols > 0 ? d2->cols : 1);
  const int exclude = row0 > 0;
  const lua_Integer k = luma_check_int_range(L, 3, "k", 1,
                                             d2->cols > exclude ? d2->cols - exclude : 1);
  if (exclude && row0 - 1 + d2->rows > d2->cols)
    luma_arg_error(L, 1, "rows %I..%I of D2 are not points of its %I columns", row0,
                   row0 - 1 + (lua_Integer)d2->rows, (lua_Integer)d2->cols);
  int64_t *idx = scratch(L, d2->rows * k, sizeof(int64_t));
  luma_Mat *dist = luma_matrix_new(L, d2->rows, k);
  const int dist_idx = lua_gettop(L);
  luma_Mat *out = luma_matrix_new(L, d2->rows, k);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_tsne_select(t, d2, row0 - 1, exclude, k, idx, dist->data));
  for (int64_t e = 0; e < d2->rows * k; e++) out->data[e] = (double)(idx[e] + 1);
  lua_pushvalue(L, dist_idx);
  return 2;
}

/* The per-neighbour values at argument 2 (n x k like nbr, finite, >= 0)
 * as n k contiguous doubles; nbr must have neighbours (k >= 1). */
static double *neighbour_values(lua_State *L, const luma_Mat *nbr, const char *what) {
  const int64_t n = nbr->rows, k = nbr->cols;
  luma_Mat *m = luma_matrix_check(L, 2);
  if (k < 1) luma_arg_error(L, 1, "nbr has no columns (no neighbours)");
  if (m->rows != n || m->cols != k)
    luma_arg_error(L, 2, "%s must be %I x %I like nbr", what, (lua_Integer)n, (lua_Integer)k);
  double *out = scratch(L, n * k, sizeof(double));
  for (int64_t i = 0; i < n; i++)
    for (int64_t a = 0; a < k; a++) {
      const double v = LUMA_AT(m, i, a);
      if (!(v >= 0) || !isfinite(v)) luma_arg_error(L, 2, "%s must be finite and >= 0", what);
      out[i * k + a] = v;
    }
  return out;
}

/* joint(nbr, cond) -> indptr, cols, vals */
static int m_joint(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *nbr = luma_matrix_check(L, 1);
  const int64_t n = nbr->rows, k = nbr->cols;
  double *cv = neighbour_values(L, nbr, "cond");
  int64_t *nb = indices(L, 1, nbr, n, 1);
  int64_t *work = scratch(L, luma_tsne_joint_work(n, k), sizeof(int64_t));
  int64_t *indptr = scratch(L, n + 1, sizeof(int64_t));
  int64_t *cols = scratch(L, 2 * n * k, sizeof(int64_t));
  double *vals = scratch(L, 2 * n * k, sizeof(double));
  const int64_t nnz = luma_tsne_joint(n, k, nb, cv, indptr, cols, vals, work);
  luma_Mat *ip = luma_matrix_new(L, n + 1, 1);
  for (int64_t i = 0; i <= n; i++) ip->data[i] = (double)indptr[i];
  luma_Mat *cm = luma_matrix_new(L, nnz, 1);
  luma_Mat *vm = luma_matrix_new(L, nnz, 1);
  for (int64_t e = 0; e < nnz; e++) {
    cm->data[e] = (double)(cols[e] + 1);
    vm->data[e] = vals[e];
  }
  return 3;
}

static void check_embedding(lua_State *L, int arg, const luma_Mat *y, int max_dims) {
  if (y->cols < 1 || y->cols > max_dims)
    luma_arg_error(L, arg, "Y must have 1..%d columns, got %I", max_dims, (lua_Integer)y->cols);
  for (int64_t i = 0; i < y->rows; i++)
    for (int64_t a = 0; a < y->cols; a++)
      if (!isfinite(LUMA_AT(y, i, a))) luma_arg_error(L, arg, "Y has a non-finite element");
}

/* grad_exact(Y, P [, {dof = 1, gaussian = false, error = true}]) -> grad, kl */
static int m_grad_exact(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *y = luma_matrix_check(L, 1);
  luma_Mat *p = luma_matrix_check(L, 2);
  luma_check_options(L, 3, "dof|gaussian|error");
  const double dof = luma_opt_number(L, 3, "dof", 1.0);
  const int gaussian = luma_opt_boolean(L, 3, "gaussian", 0);
  const int error = luma_opt_boolean(L, 3, "error", 1);
  check_embedding(L, 1, y, 1 << 20);
  if (p->rows != y->rows || p->cols != y->rows)
    luma_arg_error(L, 2, "P must be %I x %I", (lua_Integer)y->rows, (lua_Integer)y->rows);
  if (!(dof > 0)) luma_arg_error(L, 3, "dof must be > 0");
  double *work = scratch(L, luma_tsne_exact_work(y->rows), sizeof(double));
  luma_Mat *grad = luma_matrix_new(L, y->rows, y->cols);
  double kl = NAN;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_tsne_grad_exact(t, y, p, dof, gaussian, error, grad, &kl, work));
  if (error) lua_pushnumber(L, kl);
  else lua_pushnil(L);
  return 2;
}

/* grad_bh(Y, indptr, cols, vals [, {theta = 0.5, dof = 1, error = true}]) -> grad, kl */
static int m_grad_bh(lua_State *L) {
  lua_settop(L, 5);
  luma_Mat *y = luma_matrix_check(L, 1);
  luma_Mat *ip = luma_matrix_check(L, 2);
  luma_Mat *cm = luma_matrix_check(L, 3);
  luma_Mat *vm = luma_matrix_check(L, 4);
  luma_check_options(L, 5, "theta|dof|error");
  const double theta = luma_opt_number(L, 5, "theta", 0.5);
  const double dof = luma_opt_number(L, 5, "dof", 1.0);
  const int error = luma_opt_boolean(L, 5, "error", 1);
  check_embedding(L, 1, y, 3);
  const int64_t n = y->rows;
  if (!(dof > 0)) luma_arg_error(L, 5, "dof must be > 0");
  if (ip->rows * ip->cols != n + 1)
    luma_arg_error(L, 2, "indptr must have %I entries", (lua_Integer)(n + 1));
  const int64_t nnz = cm->rows * cm->cols;
  if (!luma_mat_is_vector(vm) || vm->rows * vm->cols != nnz)
    luma_arg_error(L, 4, "vals must be a vector with as many entries as cols");
  int64_t *cols = indices(L, 3, cm, n, 1);
  int64_t *indptr = indices(L, 2, ip, nnz, 0);
  double *vals = scratch(L, nnz, sizeof(double));
  for (int64_t e = 0; e < nnz; e++) vals[e] = luma_vec_at(vm, e);
  for (int64_t i = 0; i <= n; i++) indptr[i] += 1; /* back to the stored 0..nnz */
  for (int64_t i = 0; i < n; i++)
    if (indptr[i] > indptr[i + 1] || indptr[n] != nnz)
      luma_arg_error(L, 2, "indptr must be non-decreasing from 0 to #cols");
  luma_Mat *grad = luma_matrix_new(L, n, y->cols);
  const int grad_idx = lua_gettop(L);
  double kl = NAN;
  luma_Threads *t = luma_threads_of(L);
  int64_t nodes = 4 * n + 64, need = 0;
  for (;;) {
    double *work = scratch(L, luma_tsne_bh_work(n, y->cols, nodes), sizeof(double));
    luma_threads_finish(L, t, luma_tsne_grad_bh(t, y, indptr, cols, vals, theta, dof, error, grad,
                                                &kl, work, nodes, &need));
    lua_pop(L, 1);
    if (need == 0) break;
    nodes = need;
  }
  lua_pushvalue(L, grad_idx);
  if (error) lua_pushnumber(L, kl);
  else lua_pushnil(L);
  return 2;
}

/* shortest_paths(nbr, len) -> D */
static int m_shortest_paths(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *nbr = luma_matrix_check(L, 1);
  const int64_t n = nbr->rows, k = nbr->cols;
  double *lv = neighbour_values(L, nbr, "len");
  int64_t *nb = indices(L, 1, nbr, n, 1);
  int64_t *work = scratch(L, luma_graph_paths_work(n, k), sizeof(int64_t));
  luma_Mat *out = luma_matrix_new(L, n, n);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_graph_paths(t, n, k, nb, lv, out, work));
  return 1;
}

int luma_open_manifold_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"conditional", m_conditional, "conditional(D2, perplexity [, {exclude_self = true}]) -> P",
       "Conditional probabilities p_{j|i} = exp(-beta_i D2[i][j]) / sum_j of each row of the "
       "squared distances D2, beta_i set by bisection so that the row's entropy is log "
       "perplexity (within 1e-5; scikit-learn's rule, distances rounded to float first). "
       "exclude_self leaves out the diagonal of a square D2. Returns a matrix shaped as D2."},
      {"select", m_select, "select(D2, row0, k) -> idx, dist",
       "The k nearest points of each row of D2 (b x n squared distances of points row0 .. "
       "row0 + b - 1 to all n, the point itself left out; row0 = 0: rows of other points, "
       "nothing left out), ascending (ties by index). Returns their 1-based indices and "
       "distances, two b x k matrices."},
      {"shortest_paths", m_shortest_paths, "shortest_paths(nbr, len) -> D",
       "All-pairs shortest path lengths on the undirected neighbour graph with an edge of "
       "length len[i][a] between point i and nbr[i][a] (both n x k, nbr 1-based): Dijkstra "
       "from every point, points as a parallel loop. Returns the n x n matrix (inf where "
       "there is no path)."},
      {"joint", m_joint, "joint(nbr, cond) -> indptr, cols, vals",
       "The symmetric joint probabilities (C + C^T) / sum of conditional probabilities cond "
       "on the neighbour graph nbr (n x k, 1-based), as compressed rows: indptr ((n + 1) x "
       "1, 0-based offsets), cols (1-based, ascending per row) and vals. Returns three "
       "columns."},
      {"grad_exact", m_grad_exact,
       "grad_exact(Y, P [, {dof = 1, gaussian = false, error = true}]) -> grad, kl",
       "The exact gradient of KL(P || Q) for the embedding Y (n x c) and the dense joint P "
       "(n x n): Student-t Q with dof degrees of freedom, or with gaussian the symmetric SNE "
       "kernel exp(-d^2). Returns the n x c gradient and the divergence (nil without "
       "error)."},
      {"grad_bh", m_grad_bh,
       "grad_bh(Y, indptr, cols, vals [, {theta = 0.5, dof = 1, error = true}]) -> grad, kl",
       "The Barnes-Hut gradient of KL(P || Q) for an embedding in 2 or 3 dimensions and the "
       "sparse joint P (as joint returns it): attraction over P's entries, repulsion from a "
       "quadtree / octree whose cells count as one point when width^2 / distance^2 < "
       "theta^2. Returns the n x c gradient and the divergence (nil without error)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.manifold.native", funcs);
  luma_doc_set(L, -1, "luma.manifold.native", NULL,
               "The native kernels of luma.manifold: t-SNE's perplexity calibration, "
               "neighbour selection, joint probabilities and gradients (exact and "
               "Barnes-Hut), as parallel loops over points.");
  return 1;
}
