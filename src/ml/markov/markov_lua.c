/*
 * markov_lua.c - luma.markov.native, the native kernels of luma.markov:
 * PageRank over an edge list (src/ml/markov/pagerank.c).  Arguments are
 * checked here; the graph and the scratch live in userdata from the Lua
 * allocator (collected, never leaked on an error).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "markov/pagerank.h"

static void *scratch(lua_State *L, int64_t count, size_t size) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * size, 0);
}

/* A distribution option of n entries: non-negative, finite, positive sum;
 * normalized into dst.  Absent: dflt (or uniform when dflt is NULL). */
static void distribution_opt(lua_State *L, int arg, const char *key, int64_t n,
                             const double *dflt, double *dst) {
  luma_Mat *m = NULL;
  if (lua_istable(L, arg)) {
    lua_getfield(L, arg, key);
    if (!lua_isnil(L, -1)) {
      m = luma_matrix_test(L, -1);
      if (m == NULL) luma_arg_error(L, arg, "option '%s' must be a matrix", key);
    }
    lua_pop(L, 1); /* the options table keeps it alive */
  }
  if (m == NULL) {
    for (int64_t i = 0; i < n; i++) dst[i] = dflt ? dflt[i] : 1.0 / (double)n;
    return;
  }
  if (m->rows * m->cols != n || (m->rows != 1 && m->cols != 1))
    luma_arg_error(L, arg, "option '%s' must have %I entries (one per node)", key,
                   (lua_Integer)n);
  double sum = 0;
  for (int64_t i = 0; i < n; i++) {
    const double v = m->rows == 1 ? LUMA_AT(m, 0, i) : LUMA_AT(m, i, 0);
    if (!isfinite(v) || v < 0)
      luma_arg_error(L, arg, "option '%s' has a negative or non-finite entry at %I", key,
                     (lua_Integer)(i + 1));
    dst[i] = v;
    sum += v;
  }
  if (!(sum > 0)) luma_arg_error(L, arg, "option '%s' sums to 0", key);
  for (int64_t i = 0; i < n; i++) dst[i] /= sum;
}

/* pagerank(edges, n_nodes [, opts]) -> scores, n_iter, err */
static int m_pagerank(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *E = luma_matrix_check(L, 1);
  const int64_t n = (int64_t)luma_check_int_range(L, 2, "n_nodes", 1, (lua_Integer)1 << 40);
  luma_check_options(L, 3, "damping|tol|max_iter|personalization|dangling|start");
  const double damping = luma_opt_number(L, 3, "damping", 0.85);
  const double tol = luma_opt_number(L, 3, "tol", 1e-10);
  const lua_Integer max_iter = luma_opt_integer(L, 3, "max_iter", 1000);
  if (!(damping >= 0 && damping < 1))
    luma_arg_error(L, 3, "damping must be in [0, 1), got %f", damping);
  if (!(tol > 0)) luma_arg_error(L, 3, "tol must be > 0");
  if (max_iter < 1) luma_arg_error(L, 3, "max_iter must be >= 1");
  if (E->cols != 2 && E->cols != 3)
    luma_arg_error(L, 1, "edges must be m x 2 (from, to) or m x 3 (from, to, weight), got %I "
                   "columns", (lua_Integer)E->cols);
  const int64_t m = E->rows;
  int64_t *from = scratch(L, m, sizeof(int64_t));
  int64_t *to = scratch(L, m, sizeof(int64_t));
  double *w = E->cols == 3 ? scratch(L, m, sizeof(double)) : NULL;
  for (int64_t e = 0; e < m; e++) {
    for (int c = 0; c < 2; c++) {
      const double v = LUMA_AT(E, e, c);
      if (!(v >= 1 && v <= (double)n) || v != floor(v))
        luma_arg_error(L, 1, "edge %I has %s node %f: nodes are integers 1..%I",
                       (lua_Integer)(e + 1), c == 0 ? "source" : "target", v, (lua_Integer)n);
      (c == 0 ? from : to)[e] = (int64_t)v - 1;
    }
    if (w) {
      w[e] = LUMA_AT(E, e, 2);
      if (!isfinite(w[e]) || w[e] < 0)
        luma_arg_error(L, 1, "edge %I has weight %f: weights must be finite and >= 0",
                       (lua_Integer)(e + 1), w[e]);
    }
  }
  double *v = scratch(L, n, sizeof(double));
  double *u = scratch(L, n, sizeof(double));
  distribution_opt(L, 3, "personalization", n, NULL, v);
  distribution_opt(L, 3, "dangling", n, v, u);
  luma_PrGraph g = {n, m, scratch(L, n + 1, sizeof(int64_t)), scratch(L, m, sizeof(int64_t)),
                    scratch(L, m, sizeof(double)), scratch(L, n, sizeof(double))};
  int64_t *count = scratch(L, n + 1, sizeof(int64_t));
  double *next = scratch(L, n, sizeof(double));
  double *errs = scratch(L, luma_pagerank_chunks(n), sizeof(double));
  luma_Mat *x = luma_matrix_new(L, n, 1);
  const int x_idx = lua_gettop(L);
  distribution_opt(L, 3, "start", n, NULL, x->data);
  luma_pagerank_build(&g, from, to, w, count);
  int64_t iters;
  double err;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_pagerank(t, &g, damping, v, u, tol, (int64_t)max_iter, x->data,
                                          next, errs, &iters, &err));
  lua_pushvalue(L, x_idx);
  lua_pushinteger(L, (lua_Integer)iters);
  lua_pushnumber(L, err);
  return 3;
}

int luma_open_markov_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"pagerank", m_pagerank,
       "pagerank(edges, n_nodes [, {damping = 0.85, tol = 1e-10, max_iter = 1000, "
       "personalization = uniform, dangling = personalization, start = uniform}]) -> scores, "
       "n_iter, err",
       "PageRank by power iteration (Page et al. 1999) over the graph of edges (m x 2 "
       "from/to node numbers 1..n_nodes, or m x 3 with non-negative weights; repeated edges "
       "add), pulled over in-edges in compressed sparse form as a parallel loop. Dangling "
       "nodes jump by the dangling vector. Stops when the L1 change is below tol. Returns "
       "the scores (n_nodes x 1, summing to 1), the iterations run and the last change."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.markov.native", funcs);
  luma_doc_set(L, -1, "luma.markov.native", NULL,
               "The native kernels of luma.markov: PageRank over an edge list.");
  return 1;
}
