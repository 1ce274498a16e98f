/*
 * graph_lua.c - the graph kernels of luma.cluster.native: a sparse graph
 * type built from a dense adjacency matrix or an edge list, connected
 * components, the bottom Laplacian eigenpairs, modularity and Louvain.
 * Node numbers and labels are 1-based on the Lua side.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "cluster/cluster_lua.h"
#include "cluster/graph.h"
#include "core/blas.h"
#include "core/matrix_lua.h"
#include "core/parallel.h"

static const luma_Type graph_type = {
    "luma.cluster.Graph", NULL, NULL,
    "A weighted undirected graph in compressed sparse row form (made by "
    "luma.cluster.native.graph): the input of the native graph kernels.",
    NULL};

/* The userdata: the header, then ptr (n + 1), col (cap), val (cap). */
typedef struct Graph {
  luma_Csr csr;
  int64_t cap;
} Graph;

static void *scratch(lua_State *L, int64_t count, size_t size) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * size, 0);
}

static Graph *check_graph(lua_State *L, int arg) { return luma_type_check(L, arg, &graph_type); }

/* Pushes a graph userdata for n nodes and cap entries. */
static Graph *push_graph(lua_State *L, int64_t n, int64_t cap) {
  const size_t head = (sizeof(Graph) + 15) / 16 * 16;
  Graph *g = lua_newuserdatauv(L, head + (size_t)(n + 1 + 2 * cap) * 8, 0);
  luma_type_register(L, &graph_type);
  lua_pop(L, 1);
  luma_type_setmetatable(L, &graph_type);
  char *base = (char *)g + head;
  g->csr.n = n;
  g->csr.ptr = (int64_t *)base;
  g->csr.col = g->csr.ptr + (n + 1);
  g->csr.val = (double *)(void *)(g->csr.col + cap);
  g->cap = cap;
  return g;
}

/* graph(G, n [, {format = "dense", directed = false, scale = 1,
 * drop_diagonal = false}]) -> Graph */
static int g_graph(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *m = luma_matrix_check(L, 1);
  const lua_Integer n = luma_check_int_range(L, 2, "n", 0, INT32_MAX);
  luma_check_options(L, 3, "format|directed|scale|drop_diagonal");
  const int format = luma_opt_choice(L, 3, "format", "dense|edges", 0);
  const int directed = luma_opt_boolean(L, 3, "directed", 0);
  const double scale = luma_opt_number(L, 3, "scale", 1.0);
  const int drop = luma_opt_boolean(L, 3, "drop_diagonal", 0);
  if (format == 0) {
    if (m->rows != n || m->cols != n)
      luma_arg_error(L, 1, "the adjacency matrix must be %I x %I, got %I x %I", n, n,
                     (lua_Integer)m->rows, (lua_Integer)m->cols);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        const double v = LUMA_AT(m, i, j);
        if (isnan(v))
          luma_arg_error(L, 1, "weights must be finite and non-negative, got NaN at row %I, "
                         "column %I", (lua_Integer)(i + 1), (lua_Integer)(j + 1));
        if (!isfinite(v) || v < 0)
          luma_arg_error(L, 1, "weights must be finite and non-negative, got %f at row %I, "
                         "column %I", v, (lua_Integer)(i + 1), (lua_Integer)(j + 1));
      }
    const int64_t count = luma_csr_dense_count(m, drop);
    Graph *g = push_graph(L, n, count);
    luma_csr_from_dense(m, drop, &g->csr);
    if (scale != 1.0)
      for (int64_t p = 0; p < count; p++) g->csr.val[p] *= scale;
    return 1;
  }
  if (m->cols != 2 && m->cols != 3)
    luma_arg_error(L, 1, "an edge list has 2 columns (i, j) or 3 (i, j, weight), got %I",
                   (lua_Integer)m->cols);
  const int64_t count = m->rows;
  int64_t *ri = scratch(L, count, sizeof(int64_t));
  int64_t *ci = scratch(L, count, sizeof(int64_t));
  double *w = scratch(L, count, sizeof(double));
  for (int64_t e = 0; e < count; e++) {
    for (int c = 0; c < 2; c++) {
      const double v = LUMA_AT(m, e, c);
      if (!(v >= 1 && v <= (double)n) || v != floor(v))
        luma_arg_error(L, 1, "edge %I: node %f is not an integer in 1..%I", (lua_Integer)(e + 1),
                       v, n);
      (c == 0 ? ri : ci)[e] = (int64_t)v - 1;
    }
    w[e] = m->cols == 3 ? LUMA_AT(m, e, 2) : 1.0;
    if (isnan(w[e]))
      luma_arg_error(L, 1, "weights must be finite and non-negative, got NaN at edge %I",
                     (lua_Integer)(e + 1));
    if (!isfinite(w[e]) || w[e] < 0)
      luma_arg_error(L, 1, "weights must be finite and non-negative, got %f at edge %I", w[e],
                     (lua_Integer)(e + 1));
  }
  const int64_t cap = directed ? count : 2 * count;
  int64_t *iwork = scratch(L, luma_csr_entries_work(n, cap), sizeof(int64_t));
  double *dwork = scratch(L, cap, sizeof(double));
  Graph *g = push_graph(L, n, cap);
  luma_csr_from_entries(n, count, ri, ci, w, !directed, scale, drop, &g->csr, iwork, dwork);
  return 1;
}

/* graph_info(g) -> n, stored entries */
static int g_info(lua_State *L) {
  Graph *g = check_graph(L, 1);
  lua_pushinteger(L, (lua_Integer)g->csr.n);
  lua_pushinteger(L, (lua_Integer)g->csr.ptr[g->csr.n]);
  return 2;
}

/* dense(g) -> n x n adjacency matrix */
static int g_dense(lua_State *L) {
  Graph *g = check_graph(L, 1);
  const int64_t n = g->csr.n;
  luma_Mat *a = luma_matrix_new(L, n, n);
  luma_mat_fill(a, 0.0);
  for (int64_t i = 0; i < n; i++)
    for (int64_t p = g->csr.ptr[i]; p < g->csr.ptr[i + 1]; p++)
      LUMA_AT(a, i, g->csr.col[p]) = g->csr.val[p];
  return 1;
}

/* edges(g) -> E x 3 (i, j, weight), every stored entry (both directions) */
static int g_edges(lua_State *L) {
  Graph *g = check_graph(L, 1);
  const int64_t n = g->csr.n;
  luma_Mat *e = luma_matrix_new(L, g->csr.ptr[n], 3);
  for (int64_t i = 0; i < n; i++)
    for (int64_t p = g->csr.ptr[i]; p < g->csr.ptr[i + 1]; p++) {
      LUMA_AT(e, p, 0) = (double)(i + 1);
      LUMA_AT(e, p, 1) = (double)(g->csr.col[p] + 1);
      LUMA_AT(e, p, 2) = g->csr.val[p];
    }
  return 1;
}

/* symmetric(g [, tol = 1e-10]) -> true | false, i, j */
static int g_symmetric(lua_State *L) {
  Graph *g = check_graph(L, 1);
  const double tol = luaL_optnumber(L, 2, 1e-10);
  int64_t i = 0, j = 0;
  if (!luma_csr_check_symmetric(&g->csr, tol, &i, &j)) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_pushinteger(L, (lua_Integer)(i + 1));
  lua_pushinteger(L, (lua_Integer)(j + 1));
  return 3;
}

/* components(g) -> count, labels (n x 1) */
static int g_components(lua_State *L) {
  Graph *g = check_graph(L, 1);
  const int64_t n = g->csr.n;
  int64_t *label = scratch(L, n, sizeof(int64_t));
  int64_t *queue = scratch(L, n, sizeof(int64_t));
  luma_Mat *out = luma_matrix_new(L, n, 1);
  const int64_t c = luma_csr_components(&g->csr, label, queue);
  for (int64_t i = 0; i < n; i++) out->data[i] = (double)(label[i] + 1);
  lua_pushinteger(L, (lua_Integer)c);
  lua_insert(L, -2);
  return 2;
}

/* The labels argument: n integers in 1..n, 0-based into scratch; the
 * number of communities (the largest label). */
static int64_t *check_labels(lua_State *L, int arg, int64_t n, int64_t *ncomm) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows * m->cols != n || (m->rows != 1 && m->cols != 1))
    luma_arg_error(L, arg, "labels must be a vector of %I entries, got %I x %I", (lua_Integer)n,
                   (lua_Integer)m->rows, (lua_Integer)m->cols);
  int64_t *label = scratch(L, n, sizeof(int64_t));
  int64_t top = 0;
  for (int64_t i = 0; i < n; i++) {
    const double v = m->rows == 1 ? LUMA_AT(m, 0, i) : LUMA_AT(m, i, 0);
    if (!(v >= 1 && v <= (double)n) || v != floor(v))
      luma_arg_error(L, arg, "label %I is %f, not an integer in 1..%I", (lua_Integer)(i + 1), v,
                     (lua_Integer)n);
    label[i] = (int64_t)v - 1;
    if (label[i] + 1 > top) top = label[i] + 1;
  }
  *ncomm = top;
  return label;
}

/* modularity(g, labels [, {resolution = 1, null_model = "configuration"}]) -> Q */
static int g_modularity(lua_State *L) {
  lua_settop(L, 3);
  Graph *g = check_graph(L, 1);
  int64_t ncomm = 0;
  int64_t *label = check_labels(L, 2, g->csr.n, &ncomm);
  luma_check_options(L, 3, "resolution|null_model");
  const double gamma = luma_opt_number(L, 3, "resolution", 1.0);
  const int null_model = luma_opt_choice(L, 3, "null_model", "configuration|erdos_renyi", 0);
  double *work = scratch(L, 3 * ncomm, sizeof(double));
  lua_pushnumber(L, luma_modularity(&g->csr, label, ncomm, gamma, null_model, work));
  return 1;
}

/* louvain(g [, {resolution = 1, threshold = 1e-7, max_levels = 100,
 * seed = 0}]) -> labels (n x 1), history (levels x 1) */
static int g_louvain(lua_State *L) {
  lua_settop(L, 2);
  Graph *g = check_graph(L, 1);
  luma_check_options(L, 2, "resolution|threshold|max_levels|seed");
  luma_LouvainOpts o;
  o.resolution = luma_opt_number(L, 2, "resolution", 1.0);
  o.threshold = luma_opt_number(L, 2, "threshold", 1e-7);
  o.max_levels = luma_opt_integer(L, 2, "max_levels", 100);
  o.seed = (uint64_t)luma_opt_integer(L, 2, "seed", 0);
  if (o.max_levels < 1) luma_arg_error(L, 2, "option 'max_levels' must be >= 1");
  const int64_t n = g->csr.n, nnz = g->csr.ptr[n];
  int64_t niwork = 0;
  const int64_t nwork = luma_louvain_work(n, nnz, &niwork);
  double *work = scratch(L, nwork, sizeof(double));
  int64_t *iwork = scratch(L, niwork, sizeof(int64_t));
  int64_t *label = scratch(L, n, sizeof(int64_t));
  double *history = scratch(L, o.max_levels, sizeof(double));
  luma_Mat *out = luma_matrix_new(L, n, 1);
  const int out_idx = lua_gettop(L);
  luma_Threads *t = luma_threads_of(L);
  o.meter = t;
  int64_t levels = 0;
  if (nnz > 0) levels = luma_louvain(&g->csr, &o, label, history, work, iwork);
  else
    for (int64_t i = 0; i < n; i++) label[i] = i;
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  for (int64_t i = 0; i < n; i++) out->data[i] = (double)(label[i] + 1);
  luma_Mat *h = luma_matrix_new(L, levels, 1);
  for (int64_t l = 0; l < levels; l++) h->data[l] = history[l];
  lua_pushvalue(L, out_idx);
  lua_insert(L, -2);
  return 2;
}

/* laplacian_eig(g, k [, {normalized = true, tol = 1e-10, max_matvec,
 * dense_max = 300, seed = 0}]) -> values (k x 1), vectors (n x k),
 * degrees (n x 1), info {components, matvecs, converged} */
static int g_laplacian_eig(lua_State *L) {
  lua_settop(L, 3);
  Graph *g = check_graph(L, 1);
  const int64_t n = g->csr.n;
  const lua_Integer k = luma_check_int_range(L, 2, "k", 1, n > 0 ? n : 1);
  luma_check_options(L, 3, "normalized|tol|max_matvec|dense_max|seed");
  luma_LaplacianEig o;
  o.normalized = luma_opt_boolean(L, 3, "normalized", 1);
  o.k = k;
  o.tol = luma_opt_number(L, 3, "tol", 1e-10);
  o.max_matvec = luma_opt_integer(L, 3, "max_matvec", 20 * n + 1000);
  o.dense_max = luma_opt_integer(L, 3, "dense_max", 300);
  o.seed = (uint64_t)luma_opt_integer(L, 3, "seed", 0);
  if (!(o.tol > 0)) luma_arg_error(L, 3, "option 'tol' must be > 0");
  if (n < 1) luma_arg_error(L, 1, "the graph has no nodes");
  /* components first: the work depends on the largest */
  int64_t *label = scratch(L, n, sizeof(int64_t));
  int64_t *queue = scratch(L, n, sizeof(int64_t));
  const int64_t c = luma_csr_components(&g->csr, label, queue);
  memset(queue, 0, (size_t)n * sizeof *queue);
  int64_t largest = 0;
  for (int64_t i = 0; i < n; i++)
    if (++queue[label[i]] > largest) largest = queue[label[i]];
  int64_t niwork = 0;
  const int64_t nwork = luma_laplacian_eig_work(&o, n, g->csr.ptr[n], c, largest, &niwork);
  double *work = scratch(L, nwork, sizeof(double));
  int64_t *iwork = scratch(L, niwork, sizeof(int64_t));
  luma_Mat *vals = luma_matrix_new(L, k, 1);
  const int vals_idx = lua_gettop(L);
  luma_Mat *vecs = luma_matrix_new(L, n, k);
  const int vecs_idx = lua_gettop(L);
  luma_Mat *deg = luma_matrix_new(L, n, 1);
  const int deg_idx = lua_gettop(L);
  luma_Threads *t = luma_threads_of(L);
  o.meter = t;
  luma_LaplacianEigInfo info;
  /* the solver's BLAS products are small (n x 40 blocks): one BLAS thread,
   * as in a parallel loop, instead of workers spinning between calls */
  const int blas_threads = luma_blas_get_threads();
  luma_blas_set_threads(1);
  const int status =
      luma_laplacian_eig(&g->csr, label, c, &o, vals->data, vecs->data, work, iwork, &info);
  luma_blas_set_threads(blas_threads);
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  if (status != 0) return luaL_error(L, "laplacian_eig: the LAPACK eigensolver failed");
  memcpy(deg->data, work, (size_t)n * sizeof *deg->data); /* the kernel's degrees */
  lua_pushvalue(L, vals_idx);
  lua_pushvalue(L, vecs_idx);
  lua_pushvalue(L, deg_idx);
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, (lua_Integer)c);
  lua_setfield(L, -2, "components");
  lua_pushinteger(L, (lua_Integer)info.matvecs);
  lua_setfield(L, -2, "matvecs");
  lua_pushboolean(L, info.converged);
  lua_setfield(L, -2, "converged");
  return 4;
}

void luma_cluster_register_graph(lua_State *L, int t) {
  static const luma_Func funcs[] = {
      {"graph", g_graph,
       "graph(G, n [, {format = \"dense\", directed = false, scale = 1, drop_diagonal = false}]) "
       "-> Graph",
       "A weighted undirected graph of n nodes from an n x n adjacency matrix (format "
       "\"dense\") or an edge list (\"edges\": rows i, j [, weight = 1], 1-based; each row adds "
       "its weight to A_ij and A_ji, or to A_ij alone when directed), weights times scale, "
       "duplicates summed. Weights must be finite and non-negative."},
      {"graph_info", g_info, "graph_info(g) -> n, entries",
       "The number of nodes and of stored adjacency entries of a graph."},
      {"dense", g_dense, "dense(g) -> matrix", "The n x n adjacency matrix of a graph."},
      {"edges", g_edges, "edges(g) -> matrix",
       "The stored entries of a graph's adjacency matrix as an E x 3 list (i, j, weight), by "
       "row then column, both directions of each edge."},
      {"symmetric", g_symmetric, "symmetric(g [, tol = 1e-10]) -> true | false, i, j",
       "Whether the adjacency matrix is symmetric (relative tolerance tol); if not, a pair "
       "(i, j) where A_ij differs from A_ji."},
      {"components", g_components, "components(g) -> count, labels",
       "Connected components by breadth-first search: their count and each node's component "
       "(n x 1, numbered by smallest node)."},
      {"modularity", g_modularity,
       "modularity(g, labels [, {resolution = 1, null_model = \"configuration\"}]) -> Q",
       "Newman's modularity of the partition labels (integers 1..n) with the configuration "
       "(k_i k_j / 2m) or Erdos-Renyi (2m / (n (n - 1)), i != j) null model."},
      {"louvain", g_louvain,
       "louvain(g [, {resolution = 1, threshold = 1e-7, max_levels = 100, seed = 0}]) -> "
       "labels, history",
       "Louvain community detection (Blondel et al. 2008): the communities (n x 1, numbered by "
       "smallest node) and the modularity after each level."},
      {"laplacian_eig", g_laplacian_eig,
       "laplacian_eig(g, k [, {normalized = true, tol = 1e-10, max_matvec = 20 n + 1000, "
       "dense_max = 300, seed = 0}]) -> values, vectors, degrees, info",
       "The k smallest eigenpairs of L_sym (normalized) or L = D - A, the diagonal ignored, "
       "component by component (dense LAPACK on small ones, thick-restart Lanczos on large "
       "ones); info: components, matvecs, converged."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, t, "luma.cluster.native", funcs);
}
