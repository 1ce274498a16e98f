/*
 * pgmgrid_lua.c - luma.pgm.grid_native, the native kernels of
 * luma.pgm.grid: Boykov-Kolmogorov max-flow (maxflow.c) and the grid
 * denoising MRF (grid_mrf.c).  Arguments are checked here (the Lua side
 * has already turned images into spins and fields); graphs and scratch
 * live in userdata from the Lua allocator, collected even after an error.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "pgm/grid_mrf.h"
#include "pgm/maxflow.h"

static void *scratch(lua_State *L, int64_t count, size_t size) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * size, 0);
}

/* The graph arrays for n nodes and 2m arcs, in userdata on the stack. */
static void graph_alloc(lua_State *L, luma_Maxflow *g, int64_t n, int64_t arcs) {
  g->n = n;
  g->first = scratch(L, n + 1, sizeof(int64_t));
  g->head = scratch(L, arcs, sizeof(int64_t));
  g->sister = scratch(L, arcs, sizeof(int64_t));
  g->rcap = scratch(L, arcs, sizeof(double));
  g->tcap = scratch(L, n, sizeof(double));
  g->parent = scratch(L, n, sizeof(int64_t));
  g->next = scratch(L, n, sizeof(int64_t));
  g->stamp = scratch(L, n, sizeof(int64_t));
  g->dist = scratch(L, n, sizeof(int64_t));
  g->orphans = scratch(L, n, sizeof(int64_t));
  g->tree = scratch(L, n, 1);
}

/* A capacity: finite and >= 0. */
static double capacity(lua_State *L, int arg, double v, const char *what, int64_t row) {
  if (!isfinite(v) || v < 0)
    luma_arg_error(L, arg, "%s in row %I is %f: capacities must be finite and >= 0", what,
                   (lua_Integer)(row + 1), v);
  return v;
}

/* maxflow(n_nodes, edges [, terminals [, source, sink]]) -> flow, side */
static int g_maxflow(lua_State *L) {
  lua_settop(L, 5);
  const int64_t n = (int64_t)luma_check_int_range(L, 1, "n_nodes", 1, (lua_Integer)1 << 36);
  luma_Mat *E = luma_matrix_check(L, 2);
  luma_Mat *T = lua_isnil(L, 3) ? NULL : luma_matrix_check(L, 3);
  const lua_Integer s = lua_isnil(L, 4) ? 0 : luma_check_int_range(L, 4, "source", 1, n);
  const lua_Integer tk = lua_isnil(L, 5) ? 0 : luma_check_int_range(L, 5, "sink", 1, n);
  if ((s == 0) != (tk == 0)) luma_arg_error(L, 4, "give both source and sink, or neither");
  if (s != 0 && s == tk) luma_arg_error(L, 5, "the sink must differ from the source");
  if (E->cols != 3 && E->cols != 4 && !(E->rows == 0))
    luma_arg_error(L, 2, "edges must be m x 3 (from, to, capacity) or m x 4 (from, to, capacity, "
                   "reverse capacity), got %I columns", (lua_Integer)E->cols);
  if (T && (T->rows != n || T->cols != 2))
    luma_arg_error(L, 3, "terminals must be %I x 2 (capacity from the source, to the sink), got "
                   "%I x %I", (lua_Integer)n, (lua_Integer)T->rows, (lua_Integer)T->cols);
  const int64_t m = E->rows;
  luma_charge(L, (uint64_t)(m * 8 + n * 4));
  int64_t *from = scratch(L, m, sizeof(int64_t));
  int64_t *to = scratch(L, m, sizeof(int64_t));
  double *cap = scratch(L, m, sizeof(double));
  double *rev = scratch(L, m, sizeof(double));
  double *cs = scratch(L, n, sizeof(double));
  double *ct = scratch(L, n, sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    cs[i] = T ? capacity(L, 3, LUMA_AT(T, i, 0), "the source capacity", i) : 0;
    ct[i] = T ? capacity(L, 3, LUMA_AT(T, i, 1), "the sink capacity", i) : 0;
  }
  /* with named terminals, their edges become terminal capacities and the
   * two nodes stay isolated; an edge s -> t adds its capacity directly */
  const int64_t s0 = s - 1, t0 = tk - 1;
  double direct = 0;
  int64_t kept = 0;
  for (int64_t e = 0; e < m; e++) {
    int64_t ends[2];
    for (int c = 0; c < 2; c++) {
      const double v = LUMA_AT(E, e, c);
      if (!(v >= 1 && v <= (double)n) || v != floor(v))
        luma_arg_error(L, 2, "edge %I has %s node %f: nodes are integers 1..%I",
                       (lua_Integer)(e + 1), c == 0 ? "source" : "target", v, (lua_Integer)n);
      ends[c] = (int64_t)v - 1;
    }
    const double c1 = capacity(L, 2, LUMA_AT(E, e, 2), "the capacity", e);
    const double c2 = E->cols == 4 ? capacity(L, 2, LUMA_AT(E, e, 3), "the reverse capacity", e) : 0;
    const int64_t i = ends[0], j = ends[1];
    if (s != 0 && (i == s0 || i == t0 || j == s0 || j == t0)) {
      if (i == s0 && j == t0) direct += c1;
      else if (i == t0 && j == s0) direct += c2;
      else if (i == s0 && j != s0) cs[j] += c1;
      else if (j == s0 && i != s0) cs[i] += c2;
      else if (j == t0 && i != t0) ct[i] += c1;
      else if (i == t0 && j != t0) ct[j] += c2;
      continue;
    }
    from[kept] = i;
    to[kept] = j;
    cap[kept] = c1;
    rev[kept] = c2;
    kept++;
  }
  luma_Maxflow g;
  graph_alloc(L, &g, n, 2 * kept);
  int64_t *count = scratch(L, n + 1, sizeof(int64_t));
  unsigned char *side = scratch(L, n, 1);
  luma_maxflow_build(&g, kept, from, to, cap, rev, count);
  luma_maxflow_terminals(&g, cs, ct);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_maxflow_solve(t, &g, side));
  lua_pushnumber(L, g.flow + direct);
  luma_Mat *out = luma_matrix_new(L, n, 1);
  for (int64_t i = 0; i < n; i++) out->data[i] = side[i];
  if (s != 0) {
    out->data[s0] = 1;
    out->data[t0] = 0;
  }
  return 2;
}

/* ------------------------------------------------------------------ grids */

/* The H x W matrix at arg copied row-major into a new userdata. */
static double *grid_copy(lua_State *L, int arg, int64_t H, int64_t W, const char *what) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != H || m->cols != W)
    luma_arg_error(L, arg, "%s must be %I x %I, got %I x %I", what, (lua_Integer)H, (lua_Integer)W,
                   (lua_Integer)m->rows, (lua_Integer)m->cols);
  double *d = scratch(L, H * W, sizeof(double));
  for (int64_t r = 0; r < H; r++)
    for (int64_t c = 0; c < W; c++) d[r * W + c] = LUMA_AT(m, r, c);
  return d;
}

/* The field f at arg: its shape, finite values. */
static double *field_arg(lua_State *L, int arg, int64_t *H, int64_t *W) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows < 1 || m->cols < 1)
    luma_arg_error(L, arg, "the grid must have at least one pixel, got %I x %I",
                   (lua_Integer)m->rows, (lua_Integer)m->cols);
  luma_matrix_check_finite(L, arg, m, "the field", 0);
  *H = m->rows;
  *W = m->cols;
  return grid_copy(L, arg, *H, *W, "the field");
}

/* Spins at arg: every value -1 or +1. */
static double *spins_arg(lua_State *L, int arg, int64_t H, int64_t W) {
  double *x = grid_copy(L, arg, H, W, "x");
  for (int64_t i = 0; i < H * W; i++)
    if (x[i] != 1 && x[i] != -1)
      luma_arg_error(L, arg, "x must hold spins -1 and +1, got %f at row %I, column %I", x[i],
                     (lua_Integer)(i / W + 1), (lua_Integer)(i % W + 1));
  return x;
}

static luma_Mat *push_grid(lua_State *L, const double *d, int64_t H, int64_t W) {
  luma_Mat *m = luma_matrix_new(L, H, W);
  memcpy(m->data, d, (size_t)(H * W) * sizeof(double));
  return m;
}

/* energy(x, f, beta) -> E */
static int g_energy(lua_State *L) {
  int64_t H, W;
  double *f = field_arg(L, 2, &H, &W);
  double *x = spins_arg(L, 1, H, W);
  const double beta = luma_check_finite(L, 3, "beta");
  luma_charge(L, (uint64_t)(6 * H * W));
  lua_pushnumber(L, luma_grid_energy(x, f, beta, H, W));
  return 1;
}

/* icm(x0, f, beta, max_sweeps) -> x, sweeps, changed */
static int g_icm(lua_State *L) {
  int64_t H, W;
  double *f = field_arg(L, 2, &H, &W);
  double *x = spins_arg(L, 1, H, W);
  const double beta = luma_check_finite(L, 3, "beta");
  const lua_Integer max_sweeps = luma_check_int_range(L, 4, "max_sweeps", 1, LUA_MAXINTEGER);
  int64_t sweeps, changed;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_grid_icm(t, x, f, beta, H, W, (int64_t)max_sweeps, &sweeps,
                                          &changed));
  push_grid(L, x, H, W);
  lua_pushinteger(L, (lua_Integer)sweeps);
  lua_pushinteger(L, (lua_Integer)changed);
  return 3;
}

/* gibbs(x0, f, beta, burn_in, n_sweeps [, generator]) -> x, freq */
static int g_gibbs(lua_State *L) {
  int64_t H, W;
  double *f = field_arg(L, 2, &H, &W);
  double *x = spins_arg(L, 1, H, W);
  const double beta = luma_check_finite(L, 3, "beta");
  const lua_Integer burn_in = luma_check_int_range(L, 4, "burn_in", 0, LUA_MAXINTEGER / 2);
  const lua_Integer n_sweeps = luma_check_int_range(L, 5, "n_sweeps", 1, LUA_MAXINTEGER / 2);
  luma_Rng *rng = luma_random_opt_generator(L, 6);
  double *freq = scratch(L, H * W, sizeof(double));
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_grid_gibbs(t, rng, x, f, beta, H, W, (int64_t)burn_in,
                                            (int64_t)n_sweeps, freq));
  push_grid(L, x, H, W);
  push_grid(L, freq, H, W);
  return 2;
}

/* bp(f, beta, max_product, damping, tol, max_iter) -> belief, iters, delta */
static int g_bp(lua_State *L) {
  int64_t H, W;
  double *f = field_arg(L, 1, &H, &W);
  const double beta = luma_check_finite(L, 2, "beta");
  if (fabs(beta) > 50)
    luma_arg_error(L, 2, "|beta| must be at most 50 for belief propagation (messages are kept "
                   "as probabilities), got %f", beta);
  const int max_product = lua_toboolean(L, 3);
  const double damping = luma_check_finite(L, 4, "damping");
  if (!(damping >= 0 && damping < 1)) luma_arg_error(L, 4, "damping must be in [0, 1), got %f", damping);
  const double tol = luma_check_finite(L, 5, "tol");
  if (!(tol >= 0)) luma_arg_error(L, 5, "tol must be >= 0, got %f", tol);
  const lua_Integer max_iter = luma_check_int_range(L, 6, "max_iter", 1, LUA_MAXINTEGER);
  double *msg = scratch(L, 4 * H * W, sizeof(double));
  double *next = scratch(L, 4 * H * W, sizeof(double));
  double *errs = scratch(L, luma_grid_bp_chunks(H, W), sizeof(double));
  double *factors = scratch(L, 2 * H * W, sizeof(double));
  for (int64_t i = 0; i < 4 * H * W; i++) msg[i] = 0.5;
  luma_Mat *belief = luma_matrix_new(L, H, W);
  const int out = lua_gettop(L);
  int64_t iters;
  double delta;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_grid_bp(t, f, beta, H, W, max_product, damping, tol,
                                         (int64_t)max_iter, msg, next, errs, factors, belief->data,
                                         &iters, &delta));
  lua_pushvalue(L, out);
  lua_pushinteger(L, (lua_Integer)iters);
  lua_pushnumber(L, delta);
  return 3;
}

/* graphcut(f, beta) -> x, flow */
static int g_graphcut(lua_State *L) {
  int64_t H, W;
  double *f = field_arg(L, 1, &H, &W);
  const double beta = luma_check_finite(L, 2, "beta");
  if (beta < 0)
    luma_arg_error(L, 2, "graph cut needs an attractive coupling, beta >= 0, got %f (with "
                   "beta < 0 the MAP problem is not submodular: use icm or bp)", beta);
  const int64_t n = H * W;
  luma_charge(L, (uint64_t)(10 * n));
  luma_Maxflow g;
  graph_alloc(L, &g, n, 2 * (H * (W - 1) + W * (H - 1)));
  unsigned char *side = scratch(L, n, 1);
  luma_grid_cut_graph(&g, f, beta, H, W);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_maxflow_solve(t, &g, side));
  luma_Mat *x = luma_matrix_new(L, H, W);
  for (int64_t r = 0; r < H; r++)
    for (int64_t c = 0; c < W; c++) LUMA_AT(x, r, c) = side[r * W + c] ? 1 : -1;
  lua_pushnumber(L, g.flow);
  return 2;
}

int luma_open_pgm_grid_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"maxflow", g_maxflow,
       "maxflow(n_nodes, edges [, terminals [, source, sink]]) -> flow, side",
       "Maximum flow and a minimum s-t cut by the Boykov-Kolmogorov algorithm over n_nodes "
       "nodes, edges m x 3 (from, to, capacity) or m x 4 (and the reverse capacity), terminals "
       "n_nodes x 2 (capacities from the source and to the sink) or, with source and sink "
       "nodes, none. Returns the flow and side (n_nodes x 1, 1 on the source side)."},
      {"energy", g_energy, "energy(x, f, beta) -> E",
       "The grid MRF energy -beta sum x_i x_j - sum f_i x_i of the spins x (-1/+1)."},
      {"icm", g_icm, "icm(x0, f, beta, max_sweeps) -> x, sweeps, changed",
       "Iterated conditional modes on the grid MRF from x0."},
      {"gibbs", g_gibbs, "gibbs(x0, f, beta, burn_in, n_sweeps [, generator]) -> x, freq",
       "Gibbs sampling of the grid MRF in raster order; freq is the frequency of +1 per pixel."},
      {"bp", g_bp, "bp(f, beta, max_product, damping, tol, max_iter) -> belief, iters, delta",
       "Loopy belief propagation (sum- or max-product) on the grid MRF; belief is b_i(+1)."},
      {"graphcut", g_graphcut, "graphcut(f, beta) -> x, flow",
       "The exact MAP spins of the attractive grid MRF (beta >= 0) by a minimum s-t cut."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.pgm.grid_native", funcs);
  luma_doc_set(L, -1, "luma.pgm.grid_native", NULL,
               "The native kernels of luma.pgm.grid: max-flow and the grid denoising MRF.");
  return 1;
}
