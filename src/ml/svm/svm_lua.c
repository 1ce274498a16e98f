/*
 * svm_lua.c - Lua binding of the SVM solvers (luma.svm.native): the SMO
 * dual solver of smo.c and the linear solvers of linear.c, behind
 * luma.svm's estimators.
 *
 * Each function takes the data matrix and one table of options, checks
 * all of it, copies index and label columns into scratch userdata, and
 * only then runs the kernel, which frees what it allocates before
 * returning; errors are raised afterwards, so none leaks memory.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "sparse/sparse_lua.h"
#include "svm/linear.h"
#include "svm/smo.h"

/* ----------------------------------------------------------- options */

/* opts[key] as a number (def when absent) in [lo, hi] (NaN refused). */
static double opt_number(lua_State *L, int arg, const char *key, double def, double lo,
                         double hi) {
  double v = def;
  int t = lua_getfield(L, arg, key);
  if (t != LUA_TNIL) {
    if (t != LUA_TNUMBER)
      luma_arg_error(L, arg, "option '%s' must be a number, got a %s", key, luaL_typename(L, -1));
    v = lua_tonumber(L, -1);
    if (!(v >= lo && v <= hi))
      luma_arg_error(L, arg, "option '%s' must be in [%f, %f], got %f", key, lo, hi, v);
  }
  lua_pop(L, 1);
  return v;
}

static lua_Integer opt_integer(lua_State *L, int arg, const char *key, lua_Integer def,
                               lua_Integer lo, lua_Integer hi) {
  lua_Integer v = def;
  int t = lua_getfield(L, arg, key);
  if (t != LUA_TNIL) {
    int isint = 0;
    v = lua_tointegerx(L, -1, &isint);
    if (!isint || v < lo || v > hi)
      luma_arg_error(L, arg, "option '%s' must be an integer in [%I, %I]", key, (lua_Integer)lo,
                     (lua_Integer)hi);
  }
  lua_pop(L, 1);
  return v;
}

/* opts[key] as one of the '\0'-free names (position), def when absent. */
static int opt_name(lua_State *L, int arg, const char *key, const char *const *names, int def,
                    const char *list) {
  int t = lua_getfield(L, arg, key);
  int found = def;
  if (t != LUA_TNIL) {
    const char *s = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    found = -1;
    for (int k = 0; s && names[k]; k++)
      if (strcmp(names[k], s) == 0) found = k;
    if (found < 0) luma_arg_error(L, arg, "option '%s' must be one of %s", key, list);
  }
  lua_pop(L, 1);
  return found;
}

/* opts[key] as an n x 1 (or 1 x n) matrix copied into new scratch, or
 * NULL when absent and optional.  The scratch userdata stays on the
 * stack. */
static double *opt_column(lua_State *L, int arg, const char *key, int64_t n, int required) {
  lua_getfield(L, arg, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    if (required) luma_arg_error(L, arg, "option '%s' (an n x 1 matrix) is required", key);
    return NULL;
  }
  luma_Mat *m = luma_matrix_test(L, -1);
  if (!m) luma_arg_error(L, arg, "option '%s' must be a luma.Matrix, got a %s", key,
                         luaL_typename(L, -1));
  if (!((m->cols == 1 && m->rows == n) || (m->rows == 1 && m->cols == n)))
    luma_arg_error(L, arg, "option '%s' is %I x %I, expected %I x 1", key, (lua_Integer)m->rows,
                   (lua_Integer)m->cols, (lua_Integer)n);
  double *out = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(double), 0);
  for (int64_t i = 0; i < n; i++) out[i] = m->cols == 1 ? LUMA_AT(m, i, 0) : LUMA_AT(m, 0, i);
  lua_remove(L, -2);
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(out[i]))
      luma_arg_error(L, arg, "option '%s' has a non-finite element at row %I", key,
                     (lua_Integer)(i + 1));
  return out;
}

/* opts.rows: n row indices (1-based) into a matrix of `limit` rows, as
 * 0-based scratch left on the stack; n is the column's length. */
static int64_t *opt_rows(lua_State *L, int arg, int64_t limit, int64_t *n) {
  lua_getfield(L, arg, "rows");
  luma_Mat *m = luma_matrix_test(L, -1);
  if (!m || m->cols != 1 || m->rows < 1)
    luma_arg_error(L, arg, "option 'rows' must be a non-empty n x 1 matrix of row indices");
  *n = m->rows;
  int64_t *rows = lua_newuserdatauv(L, (size_t)m->rows * sizeof(int64_t), 0);
  for (int64_t i = 0; i < m->rows; i++) {
    double v = LUMA_AT(m, i, 0);
    if (!(v >= 1 && v <= (double)limit) || v != floor(v))
      luma_arg_error(L, arg, "rows[%I] = %f is not a row index in 1..%I", (lua_Integer)(i + 1), v,
                     (lua_Integer)limit);
    rows[i] = (int64_t)v - 1;
  }
  lua_remove(L, -2);
  return rows;
}

static void check_options_table(lua_State *L, int arg, const char *valid) {
  luaL_checktype(L, arg, LUA_TTABLE);
  luma_check_options(L, arg, valid);
}

/* Ends a native run: commits what the meter spent and raises its error if
 * it stopped the solver, or the memory error. */
static void finish(lua_State *L, luma_Threads *t, int no_memory, const char *fname) {
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
  if (no_memory)
    luaL_error(L, "%s: not enough memory for the solver (lower cache_size or the data size)",
               fname);
}

/* ---------------------------------------------------------------- SMO */

static const char *const formulation_names[] = {"c_svc", "nu_svc", "one_class", "epsilon_svr",
                                                "nu_svr", NULL};
static const char *const kernel_names[] = {"linear", "poly", "rbf", "sigmoid", "laplacian",
                                           "precomputed", NULL};
static const int kernel_values[] = {LUMA_KERNEL_LINEAR, LUMA_KERNEL_POLYNOMIAL, LUMA_KERNEL_RBF,
                                    LUMA_KERNEL_SIGMOID, LUMA_KERNEL_LAPLACIAN,
                                    LUMA_SVM_PRECOMPUTED};

/* smo(X, opts) -> coef, rho, info */
static int svm_smo(lua_State *L) {
  /* the points as a dense matrix or a CSR one (rows are what the kernel reads) */
  luma_Sparse *sx = luma_sparse_test(L, 1);
  if (sx == NULL && luma_sparse_csc_test(L, 1))
    luma_arg_error(L, 1, "the kernel reads rows: give X as a CSR matrix (X:tocsr())");
  luma_Mat *x = sx ? NULL : luma_matrix_check(L, 1);
  const int64_t x_rows = sx ? sx->rows : x->rows, x_cols = sx ? sx->cols : x->cols;
  check_options_table(L, 2,
                      "type|rows|y|weight|kernel|gamma|coef0|degree|C|nu|epsilon|diag|tol|"
                      "shrinking|max_iter|cache_size");
  lua_settop(L, 2);
  luma_SvmProblem p;
  memset(&p, 0, sizeof p);
  p.type = (luma_SvmFormulation)opt_name(L, 2, "type", formulation_names, 0,
                                         "c_svc, nu_svc, one_class, epsilon_svr, nu_svr");
  int kernel = opt_name(L, 2, "kernel", kernel_names, 2,
                        "linear, poly, rbf, sigmoid, laplacian, precomputed");
  p.kernel = kernel_values[kernel];
  p.x = x;
  p.sx = sx;
  if (sx && p.kernel == LUMA_SVM_PRECOMPUTED)
    luma_arg_error(L, 1, "a precomputed Gram matrix must be dense");
  if (p.kernel == LUMA_SVM_PRECOMPUTED && x_rows != x_cols)
    luma_arg_error(L, 1, "a precomputed kernel must be square, got %I x %I", (lua_Integer)x_rows,
                   (lua_Integer)x_cols);
  p.rows = opt_rows(L, 2, x_rows, &p.l);
  const int classes = p.type == LUMA_SVM_C_SVC || p.type == LUMA_SVM_NU_SVC;
  double *y = opt_column(L, 2, "y", p.l, p.type != LUMA_SVM_ONE_CLASS);
  if (classes)
    for (int64_t i = 0; i < p.l; i++)
      if (y[i] != 1 && y[i] != -1)
        luma_arg_error(L, 2, "y[%I] = %f: classes must be +1 or -1", (lua_Integer)(i + 1), y[i]);
  p.y = y;
  double *w = opt_column(L, 2, "weight", p.l, 0);
  for (int64_t i = 0; w && i < p.l; i++)
    if (w[i] <= 0)
      luma_arg_error(L, 2, "weight[%I] = %f must be > 0", (lua_Integer)(i + 1), w[i]);
  p.weight = w;
  p.kp.gamma = opt_number(L, 2, "gamma", 1.0 / (double)(x_cols > 0 ? x_cols : 1), 0, HUGE_VAL);
  p.kp.coef0 = opt_number(L, 2, "coef0", 0, -HUGE_VAL, HUGE_VAL);
  p.kp.degree = (int)opt_integer(L, 2, "degree", 3, 0, 1 << 20);
  if (!isfinite(p.kp.gamma) || !isfinite(p.kp.coef0))
    luma_arg_error(L, 2, "options 'gamma' and 'coef0' must be finite");
  p.C = opt_number(L, 2, "C", 1, 0, HUGE_VAL);
  if (!(p.C > 0)) luma_arg_error(L, 2, "option 'C' must be > 0");
  p.nu = opt_number(L, 2, "nu", 0.5, 0, 1);
  if (!(p.nu > 0) && (p.type == LUMA_SVM_NU_SVC || p.type == LUMA_SVM_ONE_CLASS ||
                      p.type == LUMA_SVM_NU_SVR))
    luma_arg_error(L, 2, "option 'nu' must be in (0, 1]");
  p.epsilon = opt_number(L, 2, "epsilon", 0.1, 0, HUGE_VAL);
  p.diag = opt_number(L, 2, "diag", 0, 0, HUGE_VAL);
  p.tol = opt_number(L, 2, "tol", 1e-3, 0, HUGE_VAL);
  if (!(p.tol > 0) || !isfinite(p.epsilon) || !isfinite(p.diag) || !isfinite(p.tol))
    luma_arg_error(L, 2, "options 'tol' (> 0), 'epsilon' and 'diag' must be finite");
  lua_getfield(L, 2, "shrinking");
  p.shrinking = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
  lua_pop(L, 1);
  p.max_iter = (int64_t)opt_integer(L, 2, "max_iter", -1, -1, LUA_MAXINTEGER);
  p.cache_mb = opt_number(L, 2, "cache_size", 200, 0, 1 << 20);
  if (!(p.cache_mb > 0)) luma_arg_error(L, 2, "option 'cache_size' must be > 0 (MB)");
  if (p.kernel == LUMA_SVM_PRECOMPUTED) {
    for (int64_t i = 0; i < p.l; i++)
      for (int64_t j = 0; j < p.l; j++)
        if (!isfinite(LUMA_AT(x, p.rows[i], p.rows[j])))
          luma_arg_error(L, 1, "the Gram matrix has a non-finite element at (%I, %I)",
                         (lua_Integer)(p.rows[i] + 1), (lua_Integer)(p.rows[j] + 1));
  } else if (sx) {
    for (int64_t i = 0; i < p.l; i++)
      for (int64_t e = sx->indptr[p.rows[i]]; e < sx->indptr[p.rows[i] + 1]; e++)
        if (!isfinite(sx->data[e])) luma_arg_error(L, 1, "X has a non-finite stored value");
  } else {
    for (int64_t i = 0; i < p.l; i++)
      for (int64_t j = 0; j < x->cols; j++)
        if (!isfinite(LUMA_AT(x, p.rows[i], j))) luma_matrix_check_finite(L, 1, x, "X", 1);
  }

  luma_Mat *coef = luma_matrix_new(L, p.l, 1);
  void *ud = NULL;
  lua_Alloc alloc = lua_getallocf(L, &ud);
  luma_Threads *t = luma_threads_of(L);
  luma_SvmSolution sol;
  luma_SvmStatus st = luma_svm_solve(t, alloc, ud, &p, coef->data, &sol);
  finish(L, t, st == LUMA_SVM_NO_MEMORY, "smo");
  lua_pushnumber(L, sol.rho);
  lua_createtable(L, 0, 4);
  lua_pushnumber(L, sol.obj);
  lua_setfield(L, -2, "obj");
  lua_pushnumber(L, sol.r);
  lua_setfield(L, -2, "r");
  lua_pushinteger(L, (lua_Integer)sol.iterations);
  lua_setfield(L, -2, "iterations");
  lua_pushboolean(L, !sol.reached_max_iter);
  lua_setfield(L, -2, "converged");
  return 3;
}

/* ------------------------------------------------------------- linear */

static const char *const linear_names[] = {"svc_dual", "svr_dual", "svc_l1", NULL};

/* linear(X, opts) -> w, dual, info */
static int svm_linear(lua_State *L) {
  luma_Sparse *sx = luma_sparse_test(L, 1), *scx = sx ? NULL : luma_sparse_csc_test(L, 1);
  luma_Mat *x = sx || scx ? NULL : luma_matrix_check(L, 1);
  check_options_table(L, 2, "solver|y|C|bias|loss|epsilon|tol|max_iter|seed");
  lua_settop(L, 2);
  const int which = opt_name(L, 2, "solver", linear_names, 0, "svc_dual, svr_dual, svc_l1");
  /* the dual solvers read rows (CSR), the primal one columns (CSC) */
  if (sx && which == LUMA_LINEAR_SVC_L1_PRIMAL)
    luma_arg_error(L, 1, "the l1 primal solver reads columns: give X as a CSC matrix (X:tocsc())");
  if (scx && which != LUMA_LINEAR_SVC_L1_PRIMAL)
    luma_arg_error(L, 1, "the dual solvers read rows: give X as a CSR matrix (X:tocsr())");
  const luma_Sparse *stored = sx ? sx : scx;
  const int64_t l = sx ? sx->rows : scx ? scx->cols : x->rows;
  const int64_t d = sx ? sx->cols : scx ? scx->rows : x->cols;
  if (l < 1) luma_arg_error(L, 1, "X has no rows");
  double *y = opt_column(L, 2, "y", l, 1);
  if (which != LUMA_LINEAR_SVR_DUAL)
    for (int64_t i = 0; i < l; i++)
      if (y[i] != 1 && y[i] != -1)
        luma_arg_error(L, 2, "y[%I] = %f: classes must be +1 or -1", (lua_Integer)(i + 1), y[i]);
  double *C = opt_column(L, 2, "C", l, 1);
  for (int64_t i = 0; i < l; i++)
    if (!(C[i] > 0)) luma_arg_error(L, 2, "C[%I] = %f must be > 0", (lua_Integer)(i + 1), C[i]);
  luma_LinearSvm p;
  memset(&p, 0, sizeof p);
  p.y = y;
  p.C = C;
  p.bias = opt_number(L, 2, "bias", 0, 0, HUGE_VAL);
  p.loss = (int)opt_integer(L, 2, "loss", 2, 1, 2);
  p.epsilon = opt_number(L, 2, "epsilon", 0, 0, HUGE_VAL);
  p.tol = opt_number(L, 2, "tol", 1e-4, 0, HUGE_VAL);
  if (!isfinite(p.bias) || !isfinite(p.epsilon) || !(p.tol > 0) || !isfinite(p.tol))
    luma_arg_error(L, 2, "options 'bias', 'epsilon' and 'tol' (> 0) must be finite");
  p.max_iter = (int64_t)opt_integer(L, 2, "max_iter", 1000, 1, LUA_MAXINTEGER);
  p.seed = (uint64_t)opt_integer(L, 2, "seed", 0, LUA_MININTEGER, LUA_MAXINTEGER);
  /* rows with unit column stride, finite */
  luma_Mat dense;
  if (stored) {
    for (int64_t e = 0; e < stored->nnz; e++)
      if (!isfinite(stored->data[e])) luma_arg_error(L, 1, "X has a non-finite stored value");
    p.sx = sx;
    p.scx = scx;
  } else {
    dense = *x;
    if (x->cs != 1 && d > 1) {
      double *copy = lua_newuserdatauv(L, (size_t)(l * d > 0 ? l * d : 1) * sizeof(double), 0);
      dense = luma_mat_dense(copy, l, d);
      luma_mat_copy(&dense, x);
    }
    dense.cs = 1;
    luma_matrix_check_finite(L, 1, &dense, "X", 1);
    p.x = &dense;
  }
  const int64_t wd = d + (p.bias > 0);
  int64_t niwork = 0;
  int64_t nwork = luma_linear_svm_work(l, wd, which, scx ? scx->nnz : -1, &niwork);
  double *work = lua_newuserdatauv(L, (size_t)(nwork > 0 ? nwork : 1) * sizeof(double), 0);
  int64_t *iwork = lua_newuserdatauv(L, (size_t)(niwork > 0 ? niwork : 1) * sizeof(int64_t), 0);
  luma_Mat *w = luma_matrix_new(L, wd, 1);
  luma_Mat *dual = NULL;
  if (which == LUMA_LINEAR_SVC_L1_PRIMAL)
    lua_pushnil(L);
  else
    dual = luma_matrix_new(L, l, 1);
  luma_Threads *t = luma_threads_of(L);
  p.threads = t; /* max_iter alone bounds the passes: every step is charged */
  luma_LinearSvmResult r;
  if (which == LUMA_LINEAR_SVC_DUAL)
    r = luma_linear_svc_dual(&p, w->data, dual->data, work, iwork);
  else if (which == LUMA_LINEAR_SVR_DUAL)
    r = luma_linear_svr_dual(&p, w->data, dual->data, work, iwork);
  else
    r = luma_linear_svc_l1(&p, w->data, work, iwork);
  finish(L, t, 0, "linear");
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, (lua_Integer)r.iterations);
  lua_setfield(L, -2, "iterations");
  lua_pushboolean(L, r.converged);
  lua_setfield(L, -2, "converged");
  return 3;
}

int luma_open_svm_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"smo", svm_smo, "smo(X, opts) -> coef, rho, info",
       "Solves one SVM dual by SMO (Fan, Chen & Lin's WSS 3, shrinking, LRU kernel cache) over "
       "the rows opts.rows (1-based) of X, or of the Gram matrix X when opts.kernel is "
       "\"precomputed\". opts: type (c_svc, nu_svc, one_class, epsilon_svr, nu_svr), y (+1/-1 "
       "or targets), weight (per-row factors of the bound), kernel (linear, poly, rbf, "
       "sigmoid, laplacian, precomputed), gamma, coef0, degree, C, nu, epsilon, diag (added "
       "to k(x, x)), tol, shrinking, max_iter (-1: libsvm's cap), cache_size (MB). Returns the "
       "decision coefficients (f(x) = sum coef_i k(x_i, x) - rho), rho and {obj, r, "
       "iterations, converged}. Kernel rows are computed by the state's threads."},
      {"linear", svm_linear, "linear(X, opts) -> w, dual, info",
       "Linear SVM by coordinate descent (LIBLINEAR's methods): opts.solver \"svc_dual\" "
       "(Hsieh et al. 2008, loss 1 or 2), \"svr_dual\" (epsilon-insensitive, loss 1 or 2), "
       "\"svc_l1\" (L1 penalty, squared hinge, primal). opts: y, C (per-row column), bias (> 0 "
       "appends that constant feature; its weight is w's last element), epsilon, tol, max_iter "
       "(passes), seed (the visiting order). Returns w, the dual variables (nil for svc_l1) "
       "and {iterations, converged}."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.svm.native", funcs);
  luma_doc_set(L, -1, "luma.svm.native", NULL,
               "The SVM solvers behind luma.svm: SMO for the kernel machines, coordinate "
               "descent for the linear ones.");
  return 1;
}
