/*
 * recommend_lua.c - luma.recommend.native, the kernels of luma.recommend
 * (src/ml/recommend/factor.c): ALS half-sweeps, the AltMin objective and
 * SGD epochs.  Factor matrices are updated in place; they must be
 * row-major contiguous (as luma.zeros and copies are).  Scratch lives in
 * userdata from the Lua allocator.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "core/matrix_lua.h"
#include "recommend/factor.h"
#include "sparse/sparse_lua.h"
#include "budget.h"

static luma_Sparse *check_sparse(lua_State *L, int arg) {
  luma_Sparse *s = luma_sparse_test(L, arg);
  if (s == NULL) luma_arg_error(L, arg, "a sparse matrix expected");
  return s;
}

/* A contiguous factor matrix of `rows` rows (k columns if k > 0). */
static luma_Mat *check_factors(lua_State *L, int arg, const char *what, int64_t rows, int64_t k) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (!luma_mat_is_contiguous(m))
    luma_arg_error(L, arg, "%s must be a contiguous matrix (copy it first)", what);
  if (m->rows != rows || (k > 0 && m->cols != k))
    luma_arg_error(L, arg, "%s must be %I x %I, got %I x %I", what, (lua_Integer)rows,
                   (lua_Integer)(k > 0 ? k : m->cols), (lua_Integer)m->rows, (lua_Integer)m->cols);
  return m;
}

/* als_sweep(R, V, U, reg [, {gram, alpha, cg_steps}]) -> U */
static int r_als_sweep(lua_State *L) {
  lua_settop(L, 5);
  const luma_Sparse *R = check_sparse(L, 1);
  luma_Mat *V = check_factors(L, 2, "V", R->cols, 0);
  const int64_t k = V->cols;
  luma_Mat *U = check_factors(L, 3, "U", R->rows, k);
  const double reg = luma_check_finite(L, 4, "reg");
  if (!(reg > 0)) luma_arg_error(L, 4, "reg must be > 0");
  if (k < 1) luma_arg_error(L, 2, "V needs at least one column");
  luma_check_options(L, 5, "gram|alpha|cg_steps");
  luma_AlsSweep s = {R, V->data, U->data, k, reg, NULL, 0, 0};
  if (lua_istable(L, 5)) {
    lua_getfield(L, 5, "gram");
    if (!lua_isnil(L, -1)) {
      luma_Mat *G = luma_matrix_test(L, -1);
      if (G == NULL || !luma_mat_is_contiguous(G) || G->rows != k || G->cols != k)
        luma_arg_error(L, 5, "option 'gram' must be a contiguous %I x %I matrix", (lua_Integer)k,
                       (lua_Integer)k);
      s.gram = G->data;
    }
    lua_pop(L, 1); /* the options table keeps it alive */
    s.alpha = luma_opt_number(L, 5, "alpha", 1.0);
    const lua_Integer steps = luma_opt_integer(L, 5, "cg_steps", 0);
    if (steps > 1000) luma_arg_error(L, 5, "cg_steps must be at most 1000");
    s.cg_steps = (int)steps;
  }
  if (s.gram == NULL && s.cg_steps > 0)
    luma_arg_error(L, 5, "cg_steps needs the implicit problem's gram");
  if (luma_mat_overlaps(U, V)) luma_arg_error(L, 3, "U and V must not share memory");
  double *scratch = lua_newuserdatauv(L, (size_t)luma_als_scratch(R->rows, k) * sizeof(double), 0);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_als_sweep(t, &s, scratch));
  luma_matrix_touch(L, 3);
  lua_pushvalue(L, 3);
  return 1;
}

/* als_objective(R, U, V, reg) -> number */
static int r_als_objective(lua_State *L) {
  const luma_Sparse *R = check_sparse(L, 1);
  luma_Mat *U = check_factors(L, 2, "U", R->rows, 0);
  luma_Mat *V = check_factors(L, 3, "V", R->cols, U->cols);
  const double reg = luma_check_finite(L, 4, "reg");
  luma_charge(L, (uint64_t)(R->nnz + R->rows + R->cols) * (uint64_t)U->cols);
  lua_pushnumber(L, luma_als_objective(R, U->data, V->data, U->cols, reg));
  return 1;
}

/* A column of n 1-based indices in [1, limit], as 0-based integers. */
static int64_t *check_indices(lua_State *L, int arg, const char *what, int64_t n, int64_t limit) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows * m->cols != n || (m->rows != 1 && m->cols != 1))
    luma_arg_error(L, arg, "%s must have %I entries", what, (lua_Integer)n);
  int64_t *out = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(int64_t), 0);
  for (int64_t i = 0; i < n; i++) {
    const double v = m->rows == 1 ? LUMA_AT(m, 0, i) : LUMA_AT(m, i, 0);
    if (!(v >= 1 && v <= (double)limit) || v != floor(v))
      luma_arg_error(L, arg, "%s entry %I is %f, not an integer in [1, %I]", what,
                     (lua_Integer)(i + 1), v, (lua_Integer)limit);
    out[i] = (int64_t)v - 1;
  }
  return out;
}

/* A finite number option of any sign (luma_opt_number takes only >= 0). */
static double opt_finite(lua_State *L, int arg, const char *key, double dflt) {
  if (!lua_istable(L, arg)) return dflt;
  lua_getfield(L, arg, key);
  double v = dflt;
  if (!lua_isnil(L, -1)) {
    int ok = 0;
    v = lua_tonumberx(L, -1, &ok);
    if (!ok || !isfinite(v)) luma_arg_error(L, arg, "option '%s' must be a finite number", key);
  }
  lua_pop(L, 1);
  return v;
}

/* sgd_epoch(users, items, ratings, order, P, Q, {bu, bi, mean, lr, reg, reg_bias}) -> sse */
static int r_sgd_epoch(lua_State *L) {
  lua_settop(L, 7);
  luma_Mat *r = luma_matrix_check(L, 3);
  const int64_t n = r->rows * r->cols;
  if (!luma_mat_is_contiguous(r)) luma_arg_error(L, 3, "ratings must be contiguous");
  luma_Mat *P = luma_matrix_check(L, 5);
  luma_Mat *Q = luma_matrix_check(L, 6);
  if (!luma_mat_is_contiguous(P) || !luma_mat_is_contiguous(Q) || P->cols != Q->cols || P->cols < 1)
    luma_arg_error(L, 5, "P and Q must be contiguous with the same number of columns");
  if (luma_mat_overlaps(P, Q)) luma_arg_error(L, 6, "P and Q must not share memory");
  const int64_t *user = check_indices(L, 1, "users", n, P->rows);
  const int64_t *item = check_indices(L, 2, "items", n, Q->rows);
  const int64_t *order = check_indices(L, 4, "order", n, n);
  luma_check_options(L, 7, "bu|bi|mean|lr|reg|reg_bias");
  luma_SgdEpoch e = {user, item, r->data, order, n, P->data, Q->data, NULL, NULL, 0, P->cols,
                     luma_opt_number(L, 7, "lr", 0.005), luma_opt_number(L, 7, "reg", 0.02),
                     luma_opt_number(L, 7, "reg_bias", 0.02)};
  if (lua_istable(L, 7)) {
    lua_getfield(L, 7, "bu");
    lua_getfield(L, 7, "bi");
    if (!lua_isnil(L, -2) || !lua_isnil(L, -1)) {
      luma_Mat *bu = luma_matrix_test(L, -2), *bi = luma_matrix_test(L, -1);
      if (bu == NULL || bi == NULL || !luma_mat_is_contiguous(bu) || !luma_mat_is_contiguous(bi) ||
          bu->rows * bu->cols != P->rows || bi->rows * bi->cols != Q->rows)
        luma_arg_error(L, 7, "options 'bu' and 'bi' must be contiguous columns of %I and %I "
                       "biases", (lua_Integer)P->rows, (lua_Integer)Q->rows);
      e.bu = bu->data;
      e.bi = bi->data;
      e.mean = opt_finite(L, 7, "mean", 0);
    }
    lua_pop(L, 2);
  }
  luma_Threads *t = luma_meter(L, (uint64_t)n * (uint64_t)(4 * P->cols + 8));
  const double sse = luma_sgd_epoch(t, &e);
  luma_meter_done(L, t);
  luma_matrix_touch(L, 5);
  luma_matrix_touch(L, 6);
  lua_pushnumber(L, sse);
  return 1;
}

int luma_open_recommend_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"als_sweep", r_als_sweep,
       "als_sweep(R, V, U, reg [, {gram = nil, alpha = 1, cg_steps = 0}]) -> U",
       "One ALS half-sweep: each row of U (in place) solves the ridge problem of its row of the "
       "sparse R against the factors V; with gram = V'V the implicit-feedback problem of Hu, "
       "Koren and Volinsky (confidence 1 + alpha r), by cg_steps conjugate-gradient steps from U "
       "or, with 0, by Cholesky. Rows run on the state's threads. Returns U."},
      {"als_objective", r_als_objective, "als_objective(R, U, V, reg) -> number",
       "The AltMin objective: the squared error over R's stored entries plus reg times the "
       "squared Frobenius norms of U and V."},
      {"sgd_epoch", r_sgd_epoch,
       "sgd_epoch(users, items, ratings, order, P, Q [, {bu, bi, mean = 0, lr = 0.005, "
       "reg = 0.02, reg_bias = 0.02}]) -> sse",
       "One epoch of stochastic gradient descent over the ratings in the given order (a "
       "permutation of 1..n), updating P, Q and the biases bu, bi in place. Returns the sum of "
       "the squared errors met (each before its update)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, lua_gettop(L), "luma.recommend.native", funcs);
  return 1;
}
