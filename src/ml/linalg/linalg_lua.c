/*
 * linalg_lua.c - luma.linalg: argument checking, scratch from the Lua
 * allocator, and LAPACK status codes turned into errors that say what is
 * wrong with the matrix.
 * SPDX-License-Identifier: MIT
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "linalg/linalg.h"
#include "core/matrix_lua.h"
#include "core/matrix_ops.h"
#include "budget.h"
#include "stats/random.h"

/* ------------------------------------------------------------- helpers */

/* A matrix argument fit for LAPACK: finite, and small enough for its int
 * dimensions. */
static luma_Mat *check_lapack_matrix(lua_State *L, int arg) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows > INT_MAX / 8 || m->cols > INT_MAX / 8)
    luma_arg_error(L, arg, "%I x %I is too large for LAPACK", (lua_Integer)m->rows,
                   (lua_Integer)m->cols);
  for (int64_t i = 0; m->cols > 0 && i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++)
      if (!isfinite(LUMA_AT(m, i, j)))
        luma_arg_error(L, arg, "matrix has a non-finite element (%f at [%I][%I])",
                       LUMA_AT(m, i, j), (lua_Integer)(i + 1), (lua_Integer)(j + 1));
  return m;
}

/* A LAPACK routine cannot be stopped once called: its cost, about
 * rows x cols x min(rows, cols) flops for a factorization or a
 * decomposition of a, is charged before it runs, and refused with the
 * limit error when the budget left is smaller (src/vm/budget.h). */
static void charge_lapack(lua_State *L, const luma_Mat *a, const char *fname) {
  const double k = (double)(a->rows < a->cols ? a->rows : a->cols);
  char what[64];
  snprintf(what, sizeof what, "luma.linalg.%s", fname);
  luma_charge_uninterruptible(L, (double)a->rows * (double)a->cols * (k > 1 ? k : 1), what);
}

static luma_Mat *check_square(lua_State *L, int arg) {
  luma_Mat *m = check_lapack_matrix(L, arg);
  if (m->rows != m->cols)
    luma_arg_error(L, arg, "expected a square matrix, got %I x %I", (lua_Integer)m->rows,
                   (lua_Integer)m->cols);
  return m;
}

/* Symmetric routines read one triangle; a clearly asymmetric input is a
 * mistake worth reporting rather than a silently different answer. */
static luma_Mat *check_symmetric(lua_State *L, int arg) {
  luma_Mat *m = check_square(L, arg);
  double scale = 0, worst = 0;
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) {
      double v = fabs(LUMA_AT(m, i, j)), d = fabs(LUMA_AT(m, i, j) - LUMA_AT(m, j, i));
      if (v > scale) scale = v;
      if (d > worst) worst = d;
    }
  if (worst > 1e-8 * (scale > 1 ? scale : 1))
    luma_arg_error(L, arg, "matrix is not symmetric (max |A - A^T| = %f); symmetrize it "
                   "with (A + A:t()) / 2 or use eig", worst);
  return m;
}

/* Scratch memory from the Lua allocator (pushed; freed by the collector,
 * even if an error is raised before the end). */
static luma_LaWork push_work(lua_State *L, luma_LaSize size) {
  size_t nd = size.nd ? size.nd : 1, ni = size.ni ? size.ni : 1;
  if (nd > ((size_t)1 << 40) || ni > ((size_t)1 << 40))
    luaL_error(L, "luma.linalg: workspace too large");
  luma_LaWork w;
  w.d = lua_newuserdatauv(L, nd * sizeof(double) + ni * sizeof(lapack_int), 0);
  w.i = (lapack_int *)(w.d + nd);
  return w;
}

static int raise_status(lua_State *L, const char *fname, luma_LaStatus st) {
  switch (st) {
  case LUMA_LA_OK: return 0;
  case LUMA_LA_SINGULAR: return luaL_error(L, "luma.linalg.%s: matrix is singular", fname);
  case LUMA_LA_NOT_PD:
    return luaL_error(L, "luma.linalg.%s: matrix is not positive definite", fname);
  case LUMA_LA_B_NOT_PD:
    return luaL_error(L, "luma.linalg.%s: B is not positive definite", fname);
  case LUMA_LA_NO_CONVERGENCE: return luaL_error(L, "luma.linalg.%s: did not converge", fname);
  default: return luaL_error(L, "luma.linalg.%s: LAPACK rejected an argument (a bug)", fname);
  }
}

/* Solvers report how close to singular the matrix was. */
static void raise_singular(lua_State *L, const char *fname, double rcond) {
  luaL_error(L, "luma.linalg.%s: matrix is singular (reciprocal condition number %f, below "
             "%f)", fname, rcond, luma_la_singular_rcond(1));
}

/* The right-hand side b of A x = b: rows must match A's. */
static luma_Mat *check_rhs(lua_State *L, int arg, const luma_Mat *a) {
  luma_Mat *b = check_lapack_matrix(L, arg);
  if (b->rows != a->rows)
    luma_arg_error(L, arg, "A is %I x %I but b has %I rows (expected %I)", (lua_Integer)a->rows,
                   (lua_Integer)a->cols, (lua_Integer)b->rows, (lua_Integer)a->rows);
  return b;
}

/* ---------------------------------------------------------- solving */

static int la_solve(lua_State *L) {
  luma_Mat *a = check_square(L, 1), *b = check_rhs(L, 2, a);
  luma_check_options(L, 3, "assume");
  int spd = luma_opt_choice(L, 3, "assume", "general|spd", 0) == 1;
  charge_lapack(L, a, "solve");
  lua_settop(L, 3);
  luma_Mat *x = luma_matrix_new(L, b->rows, b->cols);
  if (spd) {
    luma_LaWork w = push_work(L, luma_la_solve_spd_work(a->rows, b->cols));
    raise_status(L, "solve", luma_la_solve_spd(a, b, x, w));
  } else {
    double rcond;
    luma_LaWork w = push_work(L, luma_la_solve_work(a->rows, b->cols));
    luma_LaStatus st = luma_la_solve(a, b, x, w, &rcond);
    if (st == LUMA_LA_SINGULAR) raise_singular(L, "solve", rcond);
    raise_status(L, "solve", st);
  }
  lua_settop(L, 4);
  return 1;
}

static int la_solve_triangular(lua_State *L) {
  luma_Mat *a = check_square(L, 1), *b = check_rhs(L, 2, a);
  luma_check_options(L, 3, "lower|trans|unit_diagonal");
  int lower = luma_opt_boolean(L, 3, "lower", 1), trans = luma_opt_boolean(L, 3, "trans", 0);
  int unit = luma_opt_boolean(L, 3, "unit_diagonal", 0);
  lua_settop(L, 3);
  luma_Mat ac = *a;
  if (!luma_mat_blas_ready(a)) {
    luma_Mat *c = luma_matrix_new(L, a->rows, a->cols);
    luma_mat_copy(c, a);
    ac = *c;
  }
  luma_Mat *x = luma_matrix_new(L, b->rows, b->cols);
  raise_status(L, "solve_triangular", luma_la_solve_triangular(&ac, b, lower, trans, unit, x));
  return 1;
}

static int la_lstsq(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1), *b = check_rhs(L, 2, a);
  luma_check_options(L, 3, "rcond");
  int64_t m = a->rows, n = a->cols, k = b->cols;
  double rcond = luma_opt_number(L, 3, "rcond", DBL_EPSILON * (double)(m > n ? m : n));
  charge_lapack(L, a, "lstsq");
  lua_settop(L, 3);
  luma_Mat *x = luma_matrix_new(L, n, k);
  luma_Mat *s = luma_matrix_new(L, m < n ? m : n, 1);
  luma_LaWork w = push_work(L, luma_la_lstsq_work(m, n, k));
  int64_t rank;
  raise_status(L, "lstsq", luma_la_lstsq(a, b, rcond, x, s, &rank, w));
  lua_pop(L, 1);
  lua_pushinteger(L, rank);
  lua_insert(L, -2);
  return 3; /* x, rank, s */
}

static int la_inv(lua_State *L) {
  luma_Mat *a = check_square(L, 1);
  charge_lapack(L, a, "inv");
  lua_settop(L, 1);
  luma_Mat *out = luma_matrix_new(L, a->rows, a->cols);
  luma_LaWork w = push_work(L, luma_la_inv_work(a->rows));
  double rcond;
  luma_LaStatus st = luma_la_inv(a, out, w, &rcond);
  if (st == LUMA_LA_SINGULAR) raise_singular(L, "inv", rcond);
  raise_status(L, "inv", st);
  lua_pop(L, 1);
  return 1;
}

static void slogdet(lua_State *L, luma_Mat *a, double *sign, double *logabs) {
  charge_lapack(L, a, "slogdet");
  luma_LaWork w = push_work(L, luma_la_slogdet_work(a->rows));
  luma_la_slogdet(a, sign, logabs, w);
  lua_pop(L, 1);
}

static int la_slogdet(lua_State *L) {
  double sign, logabs;
  slogdet(L, check_square(L, 1), &sign, &logabs);
  lua_pushnumber(L, sign);
  lua_pushnumber(L, logabs);
  return 2;
}

static int la_det(lua_State *L) {
  double sign, logabs;
  slogdet(L, check_square(L, 1), &sign, &logabs);
  lua_pushnumber(L, sign * exp(logabs));
  return 1;
}

/* ------------------------------------------------------ factorizations */

static int la_cholesky(lua_State *L) {
  luma_Mat *a = check_symmetric(L, 1);
  luma_check_options(L, 2, "upper");
  int upper = luma_opt_boolean(L, 2, "upper", 0);
  charge_lapack(L, a, "cholesky");
  luma_Mat *out = luma_matrix_new(L, a->rows, a->cols);
  raise_status(L, "cholesky", luma_la_cholesky(a, upper, out));
  return 1;
}

static int la_lu(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  charge_lapack(L, a, "lu");
  int64_t m = a->rows, n = a->cols, k = m < n ? m : n;
  lua_settop(L, 1);
  luma_Mat *p = luma_matrix_new(L, m, m), *l = luma_matrix_new(L, m, k),
           *u = luma_matrix_new(L, k, n);
  luma_la_lu(a, p, l, u, push_work(L, luma_la_lu_work(m, n)));
  lua_pop(L, 1);
  return 3;
}

static int la_qr(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  luma_check_options(L, 2, "mode");
  int mode = luma_opt_choice(L, 2, "mode", "reduced|complete|r", 0);
  charge_lapack(L, a, "qr");
  int64_t m = a->rows, n = a->cols, k = m < n ? m : n;
  int complete = mode == 1;
  lua_settop(L, 2);
  luma_Mat *q = mode == 2 ? NULL : luma_matrix_new(L, m, complete ? m : k);
  luma_Mat *r = luma_matrix_new(L, complete ? m : k, n);
  luma_la_qr(a, complete, q, r, push_work(L, luma_la_qr_work(m, n, complete)));
  lua_pop(L, 1);
  return mode == 2 ? 1 : 2;
}

/* Reverses the order of eigenpairs (values n x 1, vectors' columns). */
static void reverse_pairs(luma_Mat *w, luma_Mat *v) {
  int64_t n = w->rows;
  for (int64_t a = 0, b = n - 1; a < b; a++, b--) {
    double t = w->data[a];
    w->data[a] = w->data[b];
    w->data[b] = t;
    if (v)
      for (int64_t i = 0; i < n; i++) {
        t = LUMA_AT(v, i, a);
        LUMA_AT(v, i, a) = LUMA_AT(v, i, b);
        LUMA_AT(v, i, b) = t;
      }
  }
}

/* eigh(A [, opts]) and eigh_generalized(A, B [, opts]) */
static int symmetric_eigen(lua_State *L, int generalized) {
  const char *fname = generalized ? "eigh_generalized" : "eigh";
  luma_Mat *a = check_symmetric(L, 1), *b = NULL;
  charge_lapack(L, a, fname);
  int opt = generalized ? 3 : 2;
  if (generalized) {
    b = check_symmetric(L, 2);
    if (b->rows != a->rows)
      return luma_arg_error(L, 2, "A is %I x %I but B is %I x %I", (lua_Integer)a->rows,
                            (lua_Integer)a->cols, (lua_Integer)b->rows, (lua_Integer)b->cols);
  }
  luma_check_options(L, opt, "order|vectors");
  int descending = luma_opt_choice(L, opt, "order", "ascending|descending", 0) == 1;
  int vectors = luma_opt_boolean(L, opt, "vectors", 1);
  lua_settop(L, opt);
  int64_t n = a->rows;
  luma_Mat *w = luma_matrix_new(L, n, 1);
  luma_Mat *v = vectors ? luma_matrix_new(L, n, n) : NULL;
  luma_LaStatus st;
  if (generalized)
    st = luma_la_eigh_generalized(a, b, w, v, push_work(L, luma_la_eigh_generalized_work(n, vectors)));
  else
    st = luma_la_eigh(a, w, v, push_work(L, luma_la_eigh_work(n, vectors)));
  raise_status(L, fname, st);
  lua_pop(L, 1);
  if (descending) reverse_pairs(w, v);
  return vectors ? 2 : 1;
}

static int la_eigh(lua_State *L) { return symmetric_eigen(L, 0); }
static int la_eigh_generalized(lua_State *L) { return symmetric_eigen(L, 1); }

static int la_eig(lua_State *L) {
  luma_Mat *a = check_square(L, 1);
  charge_lapack(L, a, "eig");
  luma_check_options(L, 2, "vectors");
  int vectors = luma_opt_boolean(L, 2, "vectors", 1);
  int64_t n = a->rows;
  lua_settop(L, 2);
  luma_Mat *wr = luma_matrix_new(L, n, 1), *wi = luma_matrix_new(L, n, 1);
  luma_Mat *vr = vectors ? luma_matrix_new(L, n, n) : NULL;
  luma_Mat *vi = vectors ? luma_matrix_new(L, n, n) : NULL;
  raise_status(L, "eig", luma_la_eig(a, wr, wi, vr, vi, push_work(L, luma_la_eig_work(n, vectors))));
  lua_pop(L, 1);
  return vectors ? 4 : 2;
}

/* Singular values only, as a new matrix on the stack. */
static luma_Mat *push_singular_values(lua_State *L, const char *fname, luma_Mat *a) {
  charge_lapack(L, a, fname);
  int64_t k = a->rows < a->cols ? a->rows : a->cols;
  luma_Mat *s = luma_matrix_new(L, k, 1);
  raise_status(L, fname, luma_la_svd(a, 'N', NULL, s, NULL,
                                     push_work(L, luma_la_svd_work(a->rows, a->cols, 'N'))));
  lua_pop(L, 1);
  return s;
}

/* Pushes U, s and Vt of a's SVD (mode 'S' thin or 'A' full). */
static void push_svd(lua_State *L, const char *fname, const luma_Mat *a, char mode, luma_Mat **u,
                     luma_Mat **s, luma_Mat **vt) {
  charge_lapack(L, a, fname);
  int64_t m = a->rows, n = a->cols, k = m < n ? m : n;
  *u = luma_matrix_new(L, m, mode == 'A' ? m : k);
  *s = luma_matrix_new(L, k, 1);
  *vt = luma_matrix_new(L, mode == 'A' ? n : k, n);
  raise_status(L, fname, luma_la_svd(a, mode, *u, *s, *vt, push_work(L, luma_la_svd_work(m, n, mode))));
  lua_pop(L, 1);
}

static int la_svd(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  luma_check_options(L, 2, "mode");
  int mode = luma_opt_choice(L, 2, "mode", "thin|full|values", 0);
  lua_settop(L, 2);
  if (mode == 2) {
    push_singular_values(L, "svd", a);
    return 1;
  }
  luma_Mat *u, *s, *vt;
  push_svd(L, "svd", a, mode == 1 ? 'A' : 'S', &u, &s, &vt);
  return 3;
}

/* The default cutoff on singular values, relative to the largest: the
 * rounding level of the decomposition (NumPy's matrix_rank/pinv rule). */
static double default_rtol(const luma_Mat *a) {
  return DBL_EPSILON * (double)(a->rows > a->cols ? a->rows : a->cols);
}

static int la_pinv(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  luma_check_options(L, 2, "rtol");
  double rtol = luma_opt_number(L, 2, "rtol", default_rtol(a));
  int64_t m = a->rows, n = a->cols, k = m < n ? m : n;
  lua_settop(L, 2);
  luma_Mat *u, *s, *vt;
  push_svd(L, "pinv", a, 'S', &u, &s, &vt);
  /* pinv = V diag(1/s) U^T over the singular values above the cutoff:
   * scale U's columns, then one product. */
  double cutoff = k > 0 ? rtol * s->data[0] : 0;
  for (int64_t j = 0; j < k; j++) {
    double inv = s->data[j] > cutoff ? 1 / s->data[j] : 0;
    for (int64_t i = 0; i < m; i++) LUMA_AT(u, i, j) *= inv;
  }
  luma_Mat v = luma_mat_transpose(vt), ut = luma_mat_transpose(u);
  luma_Mat *out = luma_matrix_new(L, n, m);
  luma_mat_matmul(&v, &ut, out);
  return 1;
}

/* The number of singular values above tol (default: relative cutoff). */
static int64_t count_above(const luma_Mat *s, double cutoff) {
  int64_t r = 0;
  for (int64_t i = 0; i < s->rows; i++) r += s->data[i] > cutoff;
  return r;
}

static int la_rank(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  luma_check_options(L, 2, "tol");
  lua_settop(L, 2);
  luma_Mat *s = push_singular_values(L, "rank", a);
  double smax = s->rows > 0 ? s->data[0] : 0;
  double tol = luma_opt_number(L, 2, "tol", default_rtol(a) * smax);
  lua_pushinteger(L, count_above(s, tol));
  return 1;
}

/* norm(A [, p]): induced 1, 2 and infinity norms, Frobenius ("fro") and
 * nuclear ("nuc"). */
static int matrix_norm(lua_State *L, luma_Mat *a, int arg, double *out) {
  if (lua_isnoneornil(L, arg) || (lua_type(L, arg) == LUA_TNUMBER && lua_tonumber(L, arg) == 2)) {
    luma_Mat *s = push_singular_values(L, "norm", a);
    *out = s->rows > 0 ? s->data[0] : 0;
    lua_pop(L, 1);
    return 0;
  }
  if (lua_type(L, arg) == LUA_TNUMBER) {
    double p = lua_tonumber(L, arg);
    if (p == 1 || p == INFINITY) {
      *out = luma_la_norm_induced(a, p == INFINITY);
      return 0;
    }
  } else if (lua_type(L, arg) == LUA_TSTRING) {
    const char *p = lua_tostring(L, arg);
    if (strcmp(p, "inf") == 0) {
      *out = luma_la_norm_induced(a, 1);
      return 0;
    }
    if (strcmp(p, "fro") == 0 || strcmp(p, "nuc") == 0) {
      luma_Mat *s = push_singular_values(L, "norm", a);
      double acc = 0;
      for (int64_t i = 0; i < s->rows; i++) acc += p[0] == 'f' ? s->data[i] * s->data[i] : s->data[i];
      *out = p[0] == 'f' ? sqrt(acc) : acc;
      lua_pop(L, 1);
      return 0;
    }
  }
  return luma_arg_error(L, arg, "matrix norm p must be 1, 2, math.huge, \"inf\", \"fro\" or "
                        "\"nuc\"");
}

static int la_norm(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  double v;
  matrix_norm(L, a, 2, &v);
  lua_pushnumber(L, v);
  return 1;
}

/* cond(A [, p]): s_max / s_min for p = 2, else norm(A, p) norm(inv(A), p);
 * infinite for a singular matrix. */
static int la_cond(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  lua_settop(L, 2);
  if (lua_isnil(L, 2) || (lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) == 2)) {
    luma_Mat *s = push_singular_values(L, "cond", a);
    double smin = s->rows > 0 ? s->data[s->rows - 1] : 0;
    lua_pushnumber(L, s->rows == 0 ? 0 : smin > 0 ? s->data[0] / smin : INFINITY);
    return 1;
  }
  if (a->rows != a->cols)
    return luma_arg_error(L, 1, "cond with p other than 2 needs a square matrix, got %I x %I",
                          (lua_Integer)a->rows, (lua_Integer)a->cols);
  double na, ni;
  matrix_norm(L, a, 2, &na);
  luma_Mat *inv = luma_matrix_new(L, a->rows, a->cols);
  double rcond;
  luma_LaStatus st = luma_la_inv(a, inv, push_work(L, luma_la_inv_work(a->rows)), &rcond);
  if (st == LUMA_LA_SINGULAR) {
    lua_pushnumber(L, INFINITY);
    return 1;
  }
  raise_status(L, "cond", st);
  matrix_norm(L, inv, 2, &ni);
  lua_pushnumber(L, na * ni);
  return 1;
}

/* null_space and orth: columns of V (or U) past (or up to) the numerical
 * rank, from the full SVD. */
static int subspace(lua_State *L, int null) {
  const char *fname = null ? "null_space" : "orth";
  luma_Mat *a = check_lapack_matrix(L, 1);
  luma_check_options(L, 2, "rtol");
  double rtol = luma_opt_number(L, 2, "rtol", default_rtol(a));
  int64_t m = a->rows, n = a->cols, k = m < n ? m : n;
  lua_settop(L, 2);
  luma_Mat *u, *s, *vt;
  push_svd(L, fname, a, 'A', &u, &s, &vt);
  int64_t rank = count_above(s, k > 0 ? rtol * s->data[0] : 0);
  luma_Mat basis;
  if (null) {
    luma_Mat v = luma_mat_transpose(vt);
    basis = luma_mat_block(&v, 0, rank, n, n - rank);
  } else {
    basis = luma_mat_block(u, 0, 0, m, rank);
  }
  luma_mat_copy(luma_matrix_new(L, basis.rows, basis.cols), &basis);
  return 1;
}

static int la_null_space(lua_State *L) { return subspace(L, 1); }
static int la_orth(lua_State *L) { return subspace(L, 0); }

/* matrix_power(A, k): by repeated squaring; negative k inverts first. */
static int la_matrix_power(lua_State *L) {
  luma_Mat *a = check_square(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  charge_lapack(L, a, "matrix_power"); /* one product; the products of large k are matmuls */
  int64_t n = a->rows;
  lua_settop(L, 2);
  luma_Mat *base = luma_matrix_new(L, n, n); /* 3 */
  if (k < 0) {
    double rcond;
    luma_LaStatus st = luma_la_inv(a, base, push_work(L, luma_la_inv_work(n)), &rcond);
    if (st == LUMA_LA_SINGULAR) raise_singular(L, "matrix_power", rcond);
    raise_status(L, "matrix_power", st);
    lua_pop(L, 1);
  } else {
    luma_mat_copy(base, a);
  }
  lua_Unsigned e = k < 0 ? (lua_Unsigned)0 - (lua_Unsigned)k : (lua_Unsigned)k;
  luma_Mat *result = luma_matrix_new(L, n, n); /* 4 */
  luma_mat_set_identity(result);
  luma_Mat *tmp = luma_matrix_new(L, n, n);    /* 5 */
  for (; e; e >>= 1) {
    if (e & 1) {
      luma_mat_matmul(result, base, tmp);
      luma_mat_copy(result, tmp);
    }
    if (e > 1) {
      luma_mat_matmul(base, base, tmp);
      luma_mat_copy(base, tmp);
    }
  }
  lua_settop(L, 4);
  return 1;
}

static int la_gram_schmidt(lua_State *L) {
  luma_Mat *a = check_lapack_matrix(L, 1);
  luma_check_options(L, 2, "tol");
  double tol = luma_opt_number(L, 2, "tol", 1e-10);
  int64_t m = a->rows, n = a->cols, rank;
  lua_settop(L, 2);
  luma_Mat *q = luma_matrix_new(L, m, n), *r = luma_matrix_new(L, n, n); /* 3, 4 */
  luma_Threads *t = luma_threads_of(L);
  luma_la_gram_schmidt(t, a, tol, q, r, &rank);
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  luma_Mat qb = luma_mat_block(q, 0, 0, m, rank), rb = luma_mat_block(r, 0, 0, rank, n);
  luma_mat_copy(luma_matrix_new(L, m, rank), &qb);
  luma_mat_copy(luma_matrix_new(L, rank, n), &rb);
  return 2;
}

static int la_power_iteration(lua_State *L) {
  luma_Mat *a = check_symmetric(L, 1);
  luma_check_options(L, 2, "k|max_iter|tol|rng");
  int64_t n = a->rows;
  lua_Integer k = luma_opt_integer(L, 2, "k", 1), max_iter = luma_opt_integer(L, 2, "max_iter", 1000);
  if (k < 1 || k > n)
    return luma_arg_error(L, 2, "option 'k' must be in [1, %I], got %I", (lua_Integer)n, k);
  if (max_iter < 1) return luma_arg_error(L, 2, "option 'max_iter' must be >= 1");
  double tol = luma_opt_number(L, 2, "tol", 1e-10);
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) lua_getfield(L, 2, "rng");
  else lua_pushnil(L);
  luma_Rng *rng = luma_random_opt_generator(L, 3);
  luma_Mat *values = luma_matrix_new(L, k, 1), *vectors = luma_matrix_new(L, n, k); /* 4, 5 */
  luma_Mat *start = luma_matrix_new(L, n, k), *deflated = luma_matrix_new(L, n, n);
  luma_rng_fill_normal(rng, start, 0, 1); /* the notes' Gaussian start, x0 ~ N(0, I) */
  double *scratch = lua_newuserdatauv(L, 2 * (size_t)n * sizeof(double), 0);
  /* max_iter alone bounds the iterations: each is charged */
  luma_Threads *t = luma_threads_of(L);
  luma_LaStatus st = luma_la_power_iteration(t, a, k, max_iter, tol, start, deflated, values,
                                             vectors, scratch);
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
  if (st == LUMA_LA_NO_CONVERGENCE)
    return luaL_error(L, "luma.linalg.power_iteration: did not converge in %I iterations "
                      "(two eigenvalues of nearly equal magnitude?); raise max_iter or use eigh",
                      max_iter);
  lua_settop(L, 5);
  return 2;
}

int luma_open_linalg(lua_State *L) {
  static const luma_Func funcs[] = {
      {"solve", la_solve, "solve(A, B [, {assume = \"general\"}]) -> matrix",
       "Solves A X = B for square A (B a vector or a matrix of right-hand sides): LU with "
       "partial pivoting, or Cholesky when A is symmetric positive definite. Errors when A is "
       "singular to working precision (reciprocal condition number below n * eps)."},
      {"solve_triangular", la_solve_triangular,
       "solve_triangular(A, B [, {lower = true, trans = false, unit_diagonal = false}]) -> matrix",
       "Solves A X = B (or A^T X = B) by substitution, reading only A's given triangle."},
      {"lstsq", la_lstsq, "lstsq(A, B [, {rcond = eps * max(m, n)}]) -> X, rank, s",
       "Minimum-norm least-squares solution of A X = B through the SVD; returns X, the "
       "effective rank and the singular values (those below rcond * s_max count as zero)."},
      {"inv", la_inv, "inv(A) -> matrix",
       "The inverse of square A (an error if A is singular); prefer "
       "solve for systems."},
      {"pinv", la_pinv, "pinv(A [, {rtol = eps * max(m, n)}]) -> matrix",
       "Moore-Penrose pseudo-inverse through the SVD, singular values below rtol * s_max "
       "treated as zero."},
      {"det", la_det, "det(A) -> number", "Determinant through LU (0 for a singular matrix)."},
      {"slogdet", la_slogdet, "slogdet(A) -> sign, logabsdet",
       "Sign and natural log of |det A| (0 and -inf when singular): no overflow."},
      {"cholesky", la_cholesky, "cholesky(A [, {upper = false}]) -> matrix",
       "L lower triangular with A = L L^T (or U = L^T with upper), for symmetric positive "
       "definite A; an error otherwise."},
      {"lu", la_lu, "lu(A) -> P, L, U", "P, L, U with A = P L U: P a permutation, L unit lower "
       "triangular (m x k), U upper triangular (k x n), k = min(m, n)."},
      {"qr", la_qr, "qr(A [, {mode = \"reduced\"}]) -> Q, R",
       "Q, R with A = Q R, Q with orthonormal columns (m x k, or m x m when complete) and R "
       "upper triangular; mode \"r\" returns R only."},
      {"eigh", la_eigh, "eigh(A [, {order = \"ascending\", vectors = true}]) -> w, V",
       "Eigenvalues (a column) and eigenvectors (the columns of V) of symmetric A: A V = V "
       "diag(w)."},
      {"eigh_generalized", la_eigh_generalized,
       "eigh_generalized(A, B [, {order = \"ascending\", vectors = true}]) -> w, V",
       "Solves A v = lambda B v for symmetric A and symmetric positive definite B; vectors "
       "are B-orthonormal (V^T B V = I). Options as eigh."},
      {"eig", la_eig, "eig(A [, {vectors = true}]) -> w, Vr, Vi",
       "Eigenvalues of a general square matrix as real and imaginary parts (columns wr, wi), "
       "then the eigenvectors' real and imaginary parts (Vr, Vi): A (Vr + i Vi) = (Vr + i Vi) "
       "diag(wr + i wi). Conjugate pairs are adjacent."},
      {"svd", la_svd, "svd(A [, {mode = \"thin\"}]) -> U, s, Vt",
       "U, s, Vt with A = U diag(s) Vt and s descending (a column); thin: U m x k and Vt "
       "k x n; full: square U and Vt; values: s only."},
      {"rank", la_rank, "rank(A [, {tol = eps * max(m, n) * s_max}]) -> integer",
       "Numerical rank: the number of singular values above tol."},
      {"norm", la_norm, "norm(A [, p = 2]) -> number",
       "Matrix norm: 2 (largest singular value, default), 1 (largest column sum), math.huge "
       "or \"inf\" (largest row sum), \"fro\" (Frobenius), \"nuc\" (sum of singular values)."},
      {"cond", la_cond, "cond(A [, p = 2]) -> number",
       "Condition number kappa_p(A), defined as numpy.linalg.cond defines it (Golub and Van "
       "Loan, Matrix Computations, sec. 2.6.2). p = 2 (the default): s_max / s_min, the "
       "ratio of the extreme singular values from the SVD (any shape; inf when s_min is 0). "
       "p = 1, math.huge or \"inf\", \"fro\", \"nuc\": norm(A, p) * norm(inv(A), p) for "
       "a square A, inf when A is singular. Returns a number."},
      {"null_space", la_null_space, "null_space(A [, {rtol = eps * max(m, n)}]) -> matrix",
       "An orthonormal basis of the null space (columns), from the SVD."},
      {"orth", la_orth, "orth(A [, {rtol = eps * max(m, n)}]) -> matrix",
       "An orthonormal basis of the column space (columns), from the SVD."},
      {"matrix_power", la_matrix_power, "matrix_power(A, k) -> matrix",
       "A^k for an integer k by repeated squaring (k = 0 gives I; k < 0 inverts first)."},
      {"gram_schmidt", la_gram_schmidt, "gram_schmidt(A [, {tol = 1e-10}]) -> Q, R",
       "Modified Gram-Schmidt on A's columns (Golub and Van Loan, Matrix Computations, "
       "sec. 5.2.8): Q with orthonormal columns "
       "spanning them and R with A = Q R. A column whose remainder is at most tol times its "
       "norm is dependent and adds no column to Q."},
      {"power_iteration", la_power_iteration,
       "power_iteration(A [, {k = 1, max_iter = 1000, tol = 1e-10, rng = default}]) -> "
       "values, vectors",
       "The k dominant eigenpairs of symmetric A by the power method with peeling (Golub "
       "and Van Loan, Matrix Computations, sec. 7.3): values (k x 1, by decreasing magnitude) and vectors (n x k). Starts from "
       "Gaussian vectors drawn from rng (default: luma.random's); an error if it does not "
       "converge."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.linalg", funcs);
  luma_doc_set(L, -1, "luma.linalg", NULL,
               "Linear algebra through LAPACK (OpenBLAS): solvers, inverses, determinants, "
               "decompositions (cholesky, lu, qr, eigh, eig, svd), norms, rank, subspaces, "
               "and Gram-Schmidt and power iteration.");
  return 1;
}
