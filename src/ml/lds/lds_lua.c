/*
 * lds_lua.c - luma.lds.native, the native kernels of luma.lds: the Kalman
 * filter and RTS smoother over a whole sequence, and the state recursion
 * of sampling.  Arguments are checked here; the model's matrices are
 * copied into contiguous scratch (userdata: collected, never leaked on an
 * error) and the results allocated before the kernel runs.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "core/parallel.h"
#include "lds/lds.h"

static double *scratch(lua_State *L, int64_t count) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * sizeof(double), 0);
}

/* The matrix at arg, rows x cols, finite, as contiguous scratch. */
static double *packed(lua_State *L, int arg, const char *what, int64_t rows, int64_t cols) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != rows || m->cols != cols)
    luma_arg_error(L, arg, "%s must be %I x %I, got %I x %I", what, (lua_Integer)rows,
                   (lua_Integer)cols, (lua_Integer)m->rows, (lua_Integer)m->cols);
  double *dst = scratch(L, rows * cols);
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      const double v = LUMA_AT(m, i, j);
      if (!isfinite(v))
        luma_arg_error(L, arg, "%s has a non-finite element at [%I][%I]", what,
                       (lua_Integer)(i + 1), (lua_Integer)(j + 1));
      dst[i * cols + j] = v;
    }
  return dst;
}

/* X (n x p) as contiguous scratch: each row all finite or all NaN
 * (missing); anything else is an argument error naming the row. */
static double *observations(lua_State *L, int arg, const luma_Mat *x) {
  double *dst = scratch(L, x->rows * x->cols);
  for (int64_t i = 0; i < x->rows; i++) {
    int64_t nans = 0;
    for (int64_t j = 0; j < x->cols; j++) {
      const double v = LUMA_AT(x, i, j);
      if (isnan(v))
        nans++;
      else if (!isfinite(v))
        luma_arg_error(L, arg, "X has an infinite element at row %I, column %I",
                       (lua_Integer)(i + 1), (lua_Integer)(j + 1));
      dst[i * x->cols + j] = v;
    }
    if (nans != 0 && nans != x->cols)
      luma_arg_error(L, arg,
                     "X row %I is partly NaN (a missing observation is a row of NaN "
                     "throughout)",
                     (lua_Integer)(i + 1));
  }
  return dst;
}

static void status_error(lua_State *L, luma_Threads *t, luma_LdsStatus st, int64_t step) {
  switch (st) {
  case LUMA_LDS_OK:
  case LUMA_LDS_STOPPED:
    luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
    return;
  case LUMA_LDS_INNOVATION:
    luaL_error(L, "kalman filter: the innovation covariance C P C^T + R is not positive "
                  "definite at step %I (R must be positive definite unless C P C^T is)",
               (lua_Integer)(step + 1));
    return;
  case LUMA_LDS_PREDICTED:
    luaL_error(L, "kalman smoother: the predicted state covariance A V A^T + Q is not "
                  "positive definite at step %I (the smoother needs it invertible: make Q "
                  "positive definite)",
               (lua_Integer)(step + 1));
    return;
  }
}

static void set_field(lua_State *L, int tidx, const char *name, int vidx) {
  lua_pushvalue(L, vidx);
  lua_setfield(L, tidx, name);
}

/* filter(X, A, Q, C, R, mu0, P0 [, {smooth = false, loglik_only = false}]) */
static int l_filter(lua_State *L) {
  lua_settop(L, 8);
  luma_check_options(L, 8, "smooth|loglik_only");
  const int smooth = luma_opt_boolean(L, 8, "smooth", 0);
  const int only = luma_opt_boolean(L, 8, "loglik_only", 0);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_Mat *a = luma_matrix_check(L, 2);
  luma_Mat *c = luma_matrix_check(L, 4);
  const int64_t n = x->rows, p = x->cols, m = a->rows;
  if (m < 1 || p < 1) luma_arg_error(L, 2, "A and X must not be empty");
  if (c->cols != m)
    luma_arg_error(L, 4, "C has %I columns but the state has %I dimensions",
                   (lua_Integer)c->cols, (lua_Integer)m);
  if (c->rows != p)
    luma_arg_error(L, 4, "C has %I rows but X has %I columns", (lua_Integer)c->rows,
                   (lua_Integer)p);
  luma_LdsModel mdl = {.m = m, .p = p};
  mdl.A = packed(L, 2, "A", m, m);
  mdl.Q = packed(L, 3, "Q", m, m);
  mdl.C = packed(L, 4, "C", p, m);
  mdl.R = packed(L, 5, "R", p, p);
  mdl.mu0 = packed(L, 6, "mu0", m, 1);
  mdl.P0 = packed(L, 7, "P0", m, m);
  const double *xs = observations(L, 1, x);
  double *work = scratch(L, luma_lds_filter_work(m, p) + (smooth ? luma_lds_smooth_work(m) : 0));
  luma_Threads *t = luma_threads_of(L);
  int64_t bad = 0;
  double total = 0;
  if (only) {
    status_error(L, t,
                 luma_lds_filter(&mdl, xs, n, NULL, NULL, NULL, NULL, NULL, &total, work,
                                 t, &bad),
                 bad);
    lua_pushnumber(L, total);
    return 1;
  }
  const int base = lua_gettop(L);
  luma_Mat *pm = luma_matrix_new(L, n, m);
  luma_Mat *pc = luma_matrix_new(L, n, m * m);
  luma_Mat *fm = luma_matrix_new(L, n, m);
  luma_Mat *fc = luma_matrix_new(L, n, m * m);
  luma_Mat *ll = luma_matrix_new(L, n, 1);
  luma_Mat *sm = NULL, *sc = NULL, *cc = NULL;
  if (smooth) {
    sm = luma_matrix_new(L, n, m);
    sc = luma_matrix_new(L, n, m * m);
    cc = luma_matrix_new(L, n, m * m);
  }
  status_error(L, t,
               luma_lds_filter(&mdl, xs, n, pm->data, pc->data, fm->data, fc->data, ll->data,
                               &total, work, t, &bad),
               bad);
  if (smooth)
    status_error(L, t,
                 luma_lds_smooth(m, n, mdl.A, pm->data, pc->data, fm->data, fc->data, sm->data,
                                 sc->data, cc->data, work + luma_lds_filter_work(m, p),
                                 t, &bad),
                 bad);
  lua_createtable(L, 0, 9);
  const int res = lua_gettop(L);
  set_field(L, res, "predicted_means", base + 1);
  set_field(L, res, "predicted_covariances", base + 2);
  set_field(L, res, "filtered_means", base + 3);
  set_field(L, res, "filtered_covariances", base + 4);
  set_field(L, res, "loglik_steps", base + 5);
  if (smooth) {
    set_field(L, res, "smoothed_means", base + 6);
    set_field(L, res, "smoothed_covariances", base + 7);
    set_field(L, res, "cross_covariances", base + 8);
  }
  lua_pushnumber(L, total);
  lua_setfield(L, res, "loglik");
  return 1;
}

/* recurse(A, W) -> Z */
static int l_recurse(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *a = luma_matrix_check(L, 1);
  luma_Mat *w = luma_matrix_check(L, 2);
  const int64_t m = a->rows, n = w->rows;
  if (w->cols != m)
    luma_arg_error(L, 2, "W has %I columns but A is %I x %I", (lua_Integer)w->cols,
                   (lua_Integer)a->rows, (lua_Integer)a->cols);
  const double *as = packed(L, 1, "A", m, m);
  luma_Mat *z = luma_matrix_new(L, n, m);
  luma_Threads *t = luma_threads_of(L); /* n steps of m^2: charged as they go */
  luma_work_charge(t, (uint64_t)(n * m));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) z->data[i * m + j] = LUMA_AT(w, i, j);
  luma_lds_recurse(m, n, as, z->data, t);
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  return 1;
}

int luma_open_lds_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"filter", l_filter,
       "filter(X, A, Q, C, R, mu0, P0 [, {smooth = false, loglik_only = false}]) -> result",
       "The Kalman filter (and with smooth the Rauch-Tung-Striebel smoother) of the linear "
       "dynamical system z_1 ~ N(mu0, P0), z_t = A z_{t-1} + N(0, Q), x_t = C z_t + N(0, R) "
       "over the rows of X (a row of NaN is missing). Returns a table of predicted_means, "
       "filtered_means, smoothed_means (n x m), predicted_covariances, filtered_covariances, "
       "smoothed_covariances, cross_covariances (n x m^2, row t the flattened m x m matrix; "
       "cross row t is cov(z_t, z_{t-1})), loglik_steps (n x 1) and loglik; with loglik_only "
       "just the log-likelihood (a number)."},
      {"recurse", l_recurse, "recurse(A, W) -> Z",
       "The state recursion z_1 = w_1, z_t = A z_{t-1} + w_t over the rows of W (n x m). "
       "Returns the n x m matrix Z."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.lds.native", funcs);
  luma_doc_set(L, -1, "luma.lds.native", NULL,
               "The native kernels of luma.lds: the Kalman filter, the RTS smoother and the "
               "state recursion of sampling.");
  return 1;
}
