/*
 * pairwise_lua.c - Lua binding of the distance and kernel matrices
 * (luma.pairwise).
 *
 * Calls read distances(X [, Y] [, metric [, opts]]): argument 2 is Y when
 * it is a matrix, or a nil placeholder when more arguments follow;
 * otherwise the name starts at argument 2.  Options are one table, checked
 * against the names the chosen metric or kernel accepts; opts.out is the
 * output matrix of the library-wide convention (exactly the result's
 * shape, written and returned; it must not share memory with X or Y).
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "pairwise/pairwise.h"
#include "sparse/sparse_lua.h"

/* Mahalanobis is Euclidean on whitened rows: not a kernel metric. */
#define METRIC_MAHALANOBIS (-1)

typedef struct Name {
  const char *name;
  int value;
  const char *const *options; /* what opts may hold besides out */
} Name;

static const char *const no_options[] = {NULL};
static const char *const minkowski_options[] = {"p", NULL};
static const char *const mahalanobis_options[] = {"cov", "VI", NULL};
static const char *const gamma_option[] = {"gamma", NULL};
static const char *const polynomial_options[] = {"gamma", "coef0", "degree", NULL};
static const char *const sigmoid_options[] = {"gamma", "coef0", NULL};
static const char *const rq_options[] = {"alpha", "length_scale", NULL};

static const Name metric_names[] = {
    {"euclidean", LUMA_METRIC_EUCLIDEAN, no_options},
    {"sqeuclidean", LUMA_METRIC_SQEUCLIDEAN, no_options},
    {"manhattan", LUMA_METRIC_MANHATTAN, no_options},
    {"cityblock", LUMA_METRIC_MANHATTAN, no_options},
    {"chebyshev", LUMA_METRIC_CHEBYSHEV, no_options},
    {"minkowski", LUMA_METRIC_MINKOWSKI, minkowski_options},
    {"cosine", LUMA_METRIC_COSINE, no_options},
    {"mahalanobis", METRIC_MAHALANOBIS, mahalanobis_options},
    {NULL, 0, NULL}};

static const Name kernel_names[] = {
    {"linear", LUMA_KERNEL_LINEAR, no_options},
    {"polynomial", LUMA_KERNEL_POLYNOMIAL, polynomial_options},
    {"rbf", LUMA_KERNEL_RBF, gamma_option},
    {"laplacian", LUMA_KERNEL_LAPLACIAN, gamma_option},
    {"sigmoid", LUMA_KERNEL_SIGMOID, sigmoid_options},
    {"rational_quadratic", LUMA_KERNEL_RATIONAL_QUADRATIC, rq_options},
    {"cosine", LUMA_KERNEL_COSINE, no_options},
    {NULL, 0, NULL}};

/* One call's operands and where its name and options are. */
typedef struct Call {
  luma_Mat *x, *y; /* y NULL: Y is X */
  int name_arg, opts_arg;
  const Name *name;
} Call;

static void check_blas_size(lua_State *L, int arg, const char *what, const luma_Mat *m) {
  if (m->rows > INT_MAX || m->cols > INT_MAX)
    luma_arg_error(L, arg, "%s is %I x %I, too large for BLAS (dimensions up to %d)", what,
                   (lua_Integer)m->rows, (lua_Integer)m->cols, INT_MAX);
}

/* X [, Y]: sets x, y and the position of the name. */
static void parse_operands(lua_State *L, Call *c, int allow_y) {
  c->x = luma_matrix_check(L, 1);
  c->y = allow_y ? luma_matrix_test(L, 2) : NULL;
  if (c->y || (allow_y && lua_isnoneornil(L, 2) && lua_gettop(L) >= 3))
    c->name_arg = 3;
  else
    c->name_arg = 2;
  c->opts_arg = c->name_arg + 1;
  check_blas_size(L, 1, "X", c->x);
  if (!c->y) return;
  check_blas_size(L, 2, "Y", c->y);
  if (c->x->cols != c->y->cols)
    luma_arg_error(L, 2, "X is %I x %I but Y is %I x %I (they need the same number of columns)",
                   (lua_Integer)c->x->rows, (lua_Integer)c->x->cols, (lua_Integer)c->y->rows,
                   (lua_Integer)c->y->cols);
  /* The same matrix passed twice is the self case (exact symmetry). */
  if (c->x->data == c->y->data && c->x->rows == c->y->rows && c->x->rs == c->y->rs &&
      c->x->cs == c->y->cs)
    c->y = NULL;
}

static void push_list(lua_State *L, const char *const *items, const char *last) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (const char *const *s = items; *s; s++) {
    if (s != items) luaL_addstring(&b, ", ");
    luaL_addstring(&b, *s);
  }
  if (last) {
    if (items[0]) luaL_addstring(&b, ", ");
    luaL_addstring(&b, last);
  }
  luaL_pushresult(&b);
}

static void push_names(lua_State *L, const Name *names) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (const Name *n = names; n->name; n++) {
    if (n != names) luaL_addstring(&b, ", ");
    luaL_addstring(&b, n->name);
  }
  luaL_pushresult(&b);
}

/* The name at c->name_arg (def when absent and def is given); then checks
 * that opts is a table of options this name accepts. */
static void parse_name(lua_State *L, Call *c, const Name *names, const char *what,
                       const char *def) {
  const char *s;
  if (def && lua_isnoneornil(L, c->name_arg)) {
    s = def;
  } else if (lua_type(L, c->name_arg) == LUA_TSTRING) {
    s = lua_tostring(L, c->name_arg);
  } else if (c->name_arg == 2 && lua_isnoneornil(L, 2)) {
    luma_arg_error(L, 2, "%s name expected", what);
    return;
  } else {
    luma_arg_error(L, c->name_arg, "%s%s name expected, got %s",
                   c->name_arg == 2 ? "matrix Y or " : "", what,
                   luaL_typename(L, c->name_arg));
    return;
  }
  for (c->name = names; c->name->name; c->name++)
    if (strcmp(c->name->name, s) == 0) break;
  if (!c->name->name) {
    push_names(L, names);
    luma_arg_error(L, c->name_arg, "unknown %s '%s' (valid: %s)", what, s, lua_tostring(L, -1));
  }
  int o = c->opts_arg;
  if (lua_isnoneornil(L, o)) return;
  if (!lua_istable(L, o)) luma_arg_error(L, o, "options table expected, got %s", luaL_typename(L, o));
  lua_pushnil(L);
  while (lua_next(L, o)) {
    int known = lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "out") == 0;
    for (const char *const *opt = c->name->options; !known && *opt; opt++)
      known = lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), *opt) == 0;
    if (!known) {
      const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                       : luaL_typename(L, -2);
      push_list(L, c->name->options, "out");
      luma_arg_error(L, o, "unknown option '%s' for %s '%s' (valid: %s)", key, what,
                     c->name->name, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
}

/* Pushes opts[key]; returns its type (LUA_TNIL when there are no opts). */
static int get_option(lua_State *L, const Call *c, const char *key) {
  if (!lua_istable(L, c->opts_arg)) {
    lua_pushnil(L);
    return LUA_TNIL;
  }
  return lua_getfield(L, c->opts_arg, key);
}

/* opts[key] as a number satisfying the condition `ok` (def when absent). */
static double number_option(lua_State *L, const Call *c, const char *key, double def,
                            int (*ok)(double), const char *requirement) {
  int t = get_option(L, c, key);
  double v = def;
  if (t != LUA_TNIL) {
    if (t != LUA_TNUMBER)
      luma_arg_error(L, c->opts_arg, "%s must be %s, got a %s", key, requirement,
                     luaL_typename(L, -1));
    v = lua_tonumber(L, -1);
    if (isnan(v)) luma_arg_error(L, c->opts_arg, "%s must be %s, got NaN", key, requirement);
    if (!ok(v)) luma_arg_error(L, c->opts_arg, "%s must be %s, got %f", key, requirement, v);
  }
  lua_pop(L, 1);
  return v;
}

static int positive_finite(double v) { return isfinite(v) && v > 0; }
static int is_finite(double v) { return isfinite(v); }
static int minkowski_exponent(double v) { return v >= 1; }

/* The result: opts.out (checked) or a new rows x cols matrix, on top of
 * the stack. */
static luma_Mat *result(lua_State *L, const Call *c, int64_t rows, int64_t cols) {
  if (get_option(L, c, "out") == LUA_TNIL) {
    lua_pop(L, 1);
    return luma_matrix_new(L, rows, cols);
  }
  luma_Mat *out = luma_matrix_test(L, -1);
  if (!out)
    luma_arg_error(L, c->opts_arg, "out must be a luma.Matrix, got a %s", luaL_typename(L, -1));
  if (out->rows != rows || out->cols != cols)
    luma_arg_error(L, c->opts_arg, "out is %I x %I but the result is %I x %I",
                   (lua_Integer)out->rows, (lua_Integer)out->cols, (lua_Integer)rows,
                   (lua_Integer)cols);
  return out;
}

/* Addresses a matrix's elements span (inclusive); empty matrices span
 * nothing. */
static int span(const luma_Mat *m, const double **lo, const double **hi) {
  if (m->rows == 0 || m->cols == 0) return 0;
  int64_t dr = (m->rows - 1) * m->rs, dc = (m->cols - 1) * m->cs;
  *lo = m->data + (dr < 0 ? dr : 0) + (dc < 0 ? dc : 0);
  *hi = m->data + (dr > 0 ? dr : 0) + (dc > 0 ? dc : 0);
  return 1;
}

static void check_no_overlap(lua_State *L, const Call *c, const luma_Mat *out, const luma_Mat *in,
                             const char *what) {
  const double *olo, *ohi, *ilo, *ihi;
  if (in && span(out, &olo, &ohi) && span(in, &ilo, &ihi) && !(ohi < ilo || ihi < olo))
    luma_arg_error(L, c->opts_arg, "out shares memory with %s (use a separate matrix)", what);
}

/* Scratch as a userdata (freed by the collector even if an error follows);
 * NULL when none is needed. */
static double *scratch(lua_State *L, size_t count) {
  return count ? lua_newuserdatauv(L, count * sizeof(double), 0) : NULL;
}

/* Whitens X (and Y) for Mahalanobis: replaces c->x, c->y by the whitened
 * copies, left on the stack. */
static void whiten(lua_State *L, Call *c) {
  int has_cov = get_option(L, c, "cov") != LUA_TNIL;
  int has_vi = get_option(L, c, "VI") != LUA_TNIL;
  if (has_cov == has_vi)
    luma_arg_error(L, c->opts_arg, has_cov ? "give opts.cov or opts.VI, not both"
                                           : "mahalanobis needs opts.cov (the covariance "
                                             "matrix) or opts.VI (its inverse)");
  const char *key = has_cov ? "cov" : "VI";
  luma_Mat *m = luma_matrix_test(L, has_cov ? -2 : -1);
  if (!m)
    luma_arg_error(L, c->opts_arg, "%s must be a luma.Matrix, got a %s", key,
                   luaL_typename(L, has_cov ? -2 : -1));
  int64_t d = c->x->cols;
  if (m->rows != d || m->cols != d)
    luma_arg_error(L, c->opts_arg, "%s is %I x %I but X has %I columns (it must be %I x %I)", key,
                   (lua_Integer)m->rows, (lua_Integer)m->cols, (lua_Integer)d, (lua_Integer)d,
                   (lua_Integer)d);
  double *factor = scratch(L, (size_t)(d * d));
  /* the checks, the copy and dpotrf (d^3/3 flops, which cannot be
   * stopped): refused up front when over the budget */
  luma_charge_uninterruptible(L, (double)d * (double)d * ((double)d / 3 + 4),
                              has_cov ? "the Cholesky factor of opts.cov"
                                      : "the Cholesky factor of opts.VI");
  switch (luma_pairwise_cholesky(m, factor)) {
  case LUMA_PAIRWISE_NOT_FINITE:
    luma_arg_error(L, c->opts_arg, "%s has NaN or infinite elements", key);
    break;
  case LUMA_PAIRWISE_NOT_SYMMETRIC:
    luma_arg_error(L, c->opts_arg, "%s is not symmetric", key);
    break;
  case LUMA_PAIRWISE_NOT_POSITIVE_DEFINITE:
    luma_arg_error(L, c->opts_arg, "%s is not positive definite (%s must be symmetric positive "
                   "definite)", key, has_cov ? "a covariance" : "the inverse covariance");
    break;
  }
  luma_Mat *zx = luma_matrix_new(L, c->x->rows, d);
  luma_pairwise_whiten(factor, has_vi, c->x, zx);
  luma_Mat *zy = NULL;
  if (c->y) {
    zy = luma_matrix_new(L, c->y->rows, d);
    luma_pairwise_whiten(factor, has_vi, c->y, zy);
  }
  c->x = zx;
  c->y = zy;
}

/* ------------------------------------------------------ sparse input */

static luma_KernelParams kernel_params(lua_State *L, const Call *c);

static int is_sparse(lua_State *L, int idx) {
  return luma_sparse_test(L, idx) != NULL || luma_sparse_csc_test(L, idx) != NULL;
}

/* The operand at idx as a CSR matrix: itself, or a copy (of a CSC or a
 * dense matrix) left on the stack. */
static luma_Sparse *csr_operand(lua_State *L, int idx) {
  luma_Sparse *s = luma_sparse_test(L, idx);
  if (s) return s;
  luma_Sparse *c = luma_sparse_csc_test(L, idx);
  if (c) {
    luma_Sparse *out = luma_sparse_new(L, c->cols, c->rows, c->nnz);
    luma_Threads *t = luma_meter(L, 3 * (uint64_t)c->nnz + (uint64_t)(c->rows + c->cols));
    luma_sp_transpose(t, c, out);
    luma_meter_done(L, t);
    return out;
  }
  luma_Mat *m = luma_matrix_test(L, idx);
  if (!m) luaL_typeerror(L, idx, "luma.Matrix or sparse matrix");
  uint64_t units = (uint64_t)(m->rows * m->cols + m->rows);
  luma_Threads *t = luma_meter(L, units);
  int64_t nnz = luma_sp_count_dense(t, m, 0);
  luma_meter_done(L, t);
  luma_Sparse *out = luma_sparse_new(L, m->rows, m->cols, nnz);
  t = luma_meter(L, units);
  luma_sp_from_dense(t, m, 0, out);
  luma_meter_done(L, t);
  return out;
}

/* Squared norms (or inverse norms, 0 for a zero row) of a's rows. */
static double *row_values_sparse(lua_State *L, const luma_Sparse *a, int inverse) {
  double *v = scratch(L, (size_t)a->rows + 1);
  luma_charge(L, (uint64_t)(a->nnz + a->rows));
  for (int64_t i = 0; i < a->rows; i++) {
    double s = 0;
    for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) s += a->data[k] * a->data[k];
    v[i] = !inverse ? s : s == 0 ? 0 : 1 / sqrt(s);
  }
  return v;
}

/* distances or kernel with a sparse X or Y (a dense other operand is
 * converted): the Gram matrix by a sparse product, then the finish of the
 * dense path.  Only what is a function of x.y and the norms. */
static int sparse_pairwise(lua_State *L, int is_kernel) {
  const char *fname = is_kernel ? "kernel" : "distances";
  Call c;
  int has_y = is_sparse(L, 2) || luma_matrix_test(L, 2) != NULL;
  c.name_arg = has_y || (lua_isnoneornil(L, 2) && lua_gettop(L) >= 3) ? 3 : 2;
  c.opts_arg = c.name_arg + 1;
  lua_settop(L, c.opts_arg); /* conversions go above the arguments */
  luma_Sparse *x = csr_operand(L, 1);
  luma_Sparse *y = has_y ? csr_operand(L, 2) : NULL;
  if (y && x->cols != y->cols)
    luma_arg_error(L, 2, "X is %I x %I but Y is %I x %I (they need the same number of columns)",
                   (lua_Integer)x->rows, (lua_Integer)x->cols, (lua_Integer)y->rows,
                   (lua_Integer)y->cols);
  luma_Mat xs = {NULL, x->rows, x->cols, x->cols, 1}, ys = xs;
  if (y) {
    ys.rows = y->rows;
    ys.cols = y->cols;
  }
  c.x = &xs;
  c.y = y ? &ys : NULL;
  parse_name(L, &c, is_kernel ? kernel_names : metric_names, is_kernel ? "kernel" : "metric",
             is_kernel ? NULL : "euclidean");
  luma_KernelParams kp = {0, 0, 3, 1, 1};
  if (is_kernel) kp = kernel_params(L, &c);
  int which = c.name->value;
  luma_Mat probe = {NULL, 0, 0, 0, 1};
  if (which == METRIC_MAHALANOBIS || luma_pairwise_finish_gram(is_kernel, which, &kp, &probe, NULL, NULL, 0) != 0)
    luma_arg_error(L, c.name_arg, "%s '%s' does not take sparse matrices (%s)", is_kernel ? "kernel" : "metric",
                   c.name->name, is_kernel ? "linear, polynomial, rbf, sigmoid, rational_quadratic and cosine do"
                                           : "euclidean, sqeuclidean and cosine do");
  luma_Mat *out = result(L, &c, x->rows, y ? y->rows : x->rows);
  int out_idx = lua_gettop(L);
  if (out->cs != 1 && out->cols > 1)
    luma_arg_error(L, c.opts_arg, "out must have unit column stride for sparse operands (%s)", fname);
  const luma_Sparse *other = y ? y : x;
  luma_Sparse *yt = luma_sparse_new(L, other->cols, other->rows, other->nnz);
  luma_Threads *t = luma_meter(L, 3 * (uint64_t)other->nnz + (uint64_t)(other->rows + other->cols));
  luma_sp_transpose(t, other, yt);
  luma_meter_done(L, t);
  t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_sp_matmul_to_dense(t, x, yt, out));
  int inverse = luma_pairwise_gram_inverse_norms(is_kernel, which);
  double *a = row_values_sparse(L, x, inverse);
  double *b = y ? row_values_sparse(L, y, inverse) : a;
  luma_charge(L, (uint64_t)(out->rows * out->cols));
  luma_pairwise_finish_gram(is_kernel, which, &kp, out, a, b, y == NULL);
  lua_pushvalue(L, out_idx);
  return 1;
}

/* distances(X [, Y] [, metric [, opts]]) */
static int p_distances(lua_State *L) {
  if (is_sparse(L, 1) || is_sparse(L, 2)) return sparse_pairwise(L, 0);
  Call c;
  parse_operands(L, &c, 1);
  parse_name(L, &c, metric_names, "metric", "euclidean");
  int metric = c.name->value;
  double p = 0;
  if (metric == LUMA_METRIC_MINKOWSKI) {
    p = number_option(L, &c, "p", NAN, minkowski_exponent, "a number >= 1 (math.huge: Chebyshev)");
    if (isnan(p))
      luma_arg_error(L, c.opts_arg, "minkowski needs opts.p, a number >= 1");
  }
  luma_Mat *out = result(L, &c, c.x->rows, c.y ? c.y->rows : c.x->rows);
  int out_idx = lua_gettop(L);
  check_no_overlap(L, &c, out, c.x, "X");
  check_no_overlap(L, &c, out, c.y, "Y");
  if (metric == METRIC_MAHALANOBIS) {
    whiten(L, &c);
    metric = LUMA_METRIC_EUCLIDEAN;
  }
  double *work = scratch(L, luma_pairwise_distances_work(metric, c.x, c.y, out));
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_pairwise_distances(t, metric, p, c.x, c.y, out, work));
  lua_pushvalue(L, out_idx);
  return 1;
}

/* Kernel options, with scikit-learn's defaults (gamma 1/n_features; 1 for
 * matrices without columns, where every distance is 0 anyway). */
static luma_KernelParams kernel_params(lua_State *L, const Call *c) {
  int64_t d = c->x->cols;
  luma_KernelParams kp;
  kp.gamma = number_option(L, c, "gamma", d > 0 ? 1.0 / (double)d : 1.0, positive_finite,
                           "a finite number > 0");
  kp.coef0 = number_option(L, c, "coef0", 1, is_finite, "a finite number");
  kp.alpha = number_option(L, c, "alpha", 1, positive_finite, "a finite number > 0");
  kp.length_scale = number_option(L, c, "length_scale", 1, positive_finite, "a finite number > 0");
  kp.degree = 3;
  int t = get_option(L, c, "degree");
  if (t != LUA_TNIL) {
    int isint = 0;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (t != LUA_TNUMBER || !isint || v < 1 || v > INT_MAX)
      luma_arg_error(L, c->opts_arg, "degree must be an integer >= 1, got %s",
                     luaL_tolstring(L, -1, NULL));
    kp.degree = (int)v;
  }
  lua_pop(L, 1);
  return kp;
}

/* kernel(X [, Y], name [, opts]) */
static int p_kernel(lua_State *L) {
  if (is_sparse(L, 1) || is_sparse(L, 2)) return sparse_pairwise(L, 1);
  Call c;
  parse_operands(L, &c, 1);
  parse_name(L, &c, kernel_names, "kernel", NULL);
  luma_KernelParams kp = kernel_params(L, &c);
  luma_Mat *out = result(L, &c, c.x->rows, c.y ? c.y->rows : c.x->rows);
  int out_idx = lua_gettop(L);
  check_no_overlap(L, &c, out, c.x, "X");
  check_no_overlap(L, &c, out, c.y, "Y");
  luma_Kernel kernel = (luma_Kernel)c.name->value;
  double *work = scratch(L, luma_pairwise_kernel_work(kernel, c.x, c.y, out));
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_pairwise_kernel(t, kernel, &kp, c.x, c.y, out, work));
  lua_pushvalue(L, out_idx);
  return 1;
}

/* kernel_diag(X, name [, opts]) */
static int p_kernel_diag(lua_State *L) {
  Call c;
  parse_operands(L, &c, 0);
  parse_name(L, &c, kernel_names, "kernel", NULL);
  luma_KernelParams kp = kernel_params(L, &c);
  luma_Mat *out = result(L, &c, c.x->rows, 1);
  check_no_overlap(L, &c, out, c.x, "X");
  luma_pairwise_kernel_diag((luma_Kernel)c.name->value, &kp, c.x, out);
  return 1;
}

int luma_open_pairwise(lua_State *L) {
  static const luma_Func funcs[] = {
      {"distances", p_distances,
       "distances(X [, Y = X] [, metric = \"euclidean\" [, {p = nil, cov = nil, VI = nil, "
       "out = nil}]]) -> matrix",
       "Distances between the rows of X and of Y (Y omitted or nil: X with itself, exactly "
       "symmetric with a zero diagonal), an n x m matrix. metric: \"euclidean\" (default), "
       "\"sqeuclidean\", \"manhattan\" (or \"cityblock\"), \"chebyshev\", \"minkowski\" "
       "(opts.p >= 1), \"cosine\" (1 - cosine similarity; a zero vector is at distance 1, as in "
       "scikit-learn), \"mahalanobis\" (opts.cov, symmetric positive definite, or opts.VI, its "
       "inverse). Euclidean, squared Euclidean and cosine use BLAS (|x|^2 + |y|^2 - 2 x.y, "
       "negatives from rounding clamped to 0; \"minkowski\" with p = 2 is the exact direct "
       "sum). opts.out receives the result. A NaN in a row gives NaN in that row. X and Y may "
       "be sparse (luma.sparse) for euclidean, sqeuclidean and cosine: the Gram matrix comes "
       "from a threaded sparse product; the result is dense."},
      {"kernel", p_kernel,
       "kernel(X [, Y = X], name [, {gamma = 1/n_features, coef0 = 1, degree = 3, "
       "alpha = 1, length_scale = 1, out = nil}]) -> matrix",
       "Kernel (Gram) matrix between the rows of X and of Y (Y omitted or nil: X with itself, "
       "exactly symmetric). name: \"linear\" x.y; \"polynomial\" (gamma x.y + coef0)^degree; "
       "\"rbf\" exp(-gamma |x-y|^2); \"laplacian\" exp(-gamma |x-y|_1); \"sigmoid\" "
       "tanh(gamma x.y + coef0); \"rational_quadratic\" (1 + |x-y|^2 / (2 alpha "
       "length_scale^2))^-alpha; \"cosine\" x.y / (|x| |y|), 0 for a zero vector. Defaults as "
       "scikit-learn: gamma = 1/n_features, coef0 = 1, degree = 3, alpha = 1, "
       "length_scale = 1. opts.out receives the result. X and Y may be sparse (luma.sparse) "
       "for every kernel but laplacian; the result is dense."},
      {"kernel_diag", p_kernel_diag,
       "kernel_diag(X, name [, {gamma = 1/n_features, coef0 = 1, degree = 3, alpha = 1, "
       "length_scale = 1}]) -> matrix",
       "The n x 1 column k(x_i, x_i) of the kernel for each row of X, without the Gram "
       "matrix (same names and options as kernel)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.pairwise", funcs);
  luma_doc_set(L, -1, "luma.pairwise", NULL,
               "Pairwise distance matrices (distances) and kernel matrices (kernel, kernel_diag) "
               "between the rows of matrices. Kernel objects with sums, products, scaling, "
               "normalization and centering are in luma.kernels.");
  return 1;
}
