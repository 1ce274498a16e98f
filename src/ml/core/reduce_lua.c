/*
 * reduce_lua.c - Lua binding of reductions, scans, sorting and the small
 * vector/matrix products (dot, outer, trace, kron) and comparisons.
 *
 * Dimensions: dim = 1 reduces down each column (result 1 x cols), dim = 2
 * along each row (result rows x 1); no dim reduces every element to one
 * number.  Scans and sorts keep the shape and default to the length of a
 * vector, or to dim 1 for a matrix (softmax: dim 2, one row per sample).
 * Indices returned to Lua are 1-based.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "budget.h"
#include "core/dot.h"
#include "core/matrix_lua.h"
#include "core/reduce.h"

/* Optional dimension argument: 0 for "all", else 1 or 2. */
static int opt_dim(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return 0;
  return (int)luma_check_int_range(L, arg, "dim", 1, 2);
}

/* Default dimension of a scan or sort: along a vector, down a matrix. */
static int scan_dim(lua_State *L, int arg, const luma_Mat *a, int matrix_default) {
  int dim = opt_dim(L, arg);
  if (dim) return dim;
  if (a->rows == 1 && a->cols != 1) return 2;
  if (a->cols == 1) return 1;
  return matrix_default;
}

/* Result of a dimension reduction: out at out_arg or a new matrix. */
static luma_Mat *reduced_result(lua_State *L, const luma_Mat *a, int dim, int out_arg) {
  int64_t rows = dim == 1 ? 1 : a->rows, cols = dim == 1 ? a->cols : 1;
  if (lua_isnoneornil(L, out_arg)) return luma_matrix_new(L, rows, cols);
  luma_Mat *out = luma_matrix_check(L, out_arg);
  if (out->rows != rows || out->cols != cols)
    luma_arg_error(L, out_arg, "out is %I x %I but the result is %I x %I", (lua_Integer)out->rows,
                   (lua_Integer)out->cols, (lua_Integer)rows, (lua_Integer)cols);
  lua_pushvalue(L, out_arg);
  return out;
}

/* Result with a's shape (scans, sorts). */
static luma_Mat *same_shape_result(lua_State *L, const luma_Mat *a, int out_arg) {
  if (lua_isnoneornil(L, out_arg)) return luma_matrix_new(L, a->rows, a->cols);
  luma_Mat *out = luma_matrix_check(L, out_arg);
  if (out->rows != a->rows || out->cols != a->cols)
    luma_arg_error(L, out_arg, "out is %I x %I but the result is %I x %I", (lua_Integer)out->rows,
                   (lua_Integer)out->cols, (lua_Integer)a->rows, (lua_Integer)a->cols);
  lua_pushvalue(L, out_arg);
  return out;
}

/* The elements of a, as work units (a 2^31 x 0 matrix has none). */
static uint64_t elements(const luma_Mat *a) { return (uint64_t)(a->rows * a->cols); }

static void add_one(luma_Mat *m) {
  if (m->rows == 0 || m->cols == 0) return;
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) += 1;
}

/* A:op([dim [, out]]) with an optional parameter before out. */
static int reduce(lua_State *L, luma_Reduce op, double param, int dim_arg, int out_arg) {
  luma_Mat *a = luma_matrix_check(L, 1);
  int dim = opt_dim(L, dim_arg);
  int is_arg = op == LUMA_RED_ARGMIN || op == LUMA_RED_ARGMAX;
  if (dim == 0) {
    luma_Threads *t = luma_meter(L, elements(a));
    double v = luma_reduce_all(t, op, a, param);
    luma_meter_done(L, t);
    if (!is_arg) {
      lua_pushnumber(L, v);
      return 1;
    }
    if (a->rows * a->cols == 0)
      return luma_arg_error(L, 1, "the matrix is empty: it has no extremum to locate");
    int64_t pos = (int64_t)v;
    lua_pushinteger(L, pos / a->cols + 1);
    lua_pushinteger(L, pos % a->cols + 1);
    return 2;
  }
  luma_Mat *out = reduced_result(L, a, dim, out_arg);
  if (is_arg && (dim == 1 ? a->rows : a->cols) == 0)
    return luma_arg_error(L, 2, "dimension %d of the matrix is empty: it has no extremum to locate",
                          dim);
  luma_Threads *t = luma_meter(L, elements(a) + elements(out));
  luma_reduce_dim(t, op, a, dim, param, out);
  luma_meter_done(L, t);
  if (is_arg) add_one(out);
  return 1;
}

#define SIMPLE_REDUCE(fname, OP) \
  static int fname(lua_State *L) { return reduce(L, OP, 0, 2, 3); }
SIMPLE_REDUCE(r_sum, LUMA_RED_SUM)
SIMPLE_REDUCE(r_prod, LUMA_RED_PROD)
SIMPLE_REDUCE(r_mean, LUMA_RED_MEAN)
SIMPLE_REDUCE(r_min, LUMA_RED_MIN)
SIMPLE_REDUCE(r_max, LUMA_RED_MAX)
SIMPLE_REDUCE(r_argmin, LUMA_RED_ARGMIN)
SIMPLE_REDUCE(r_argmax, LUMA_RED_ARGMAX)
SIMPLE_REDUCE(r_logsumexp, LUMA_RED_LOGSUMEXP)

static int any_all(lua_State *L, luma_Reduce op) {
  if (lua_isnoneornil(L, 2)) {
    luma_Mat *a = luma_matrix_check(L, 1);
    luma_Threads *t = luma_meter(L, elements(a));
    double v = luma_reduce_all(t, op, a, 0);
    luma_meter_done(L, t);
    lua_pushboolean(L, v != 0);
    return 1;
  }
  return reduce(L, op, 0, 2, 3);
}
static int r_any(lua_State *L) { return any_all(L, LUMA_RED_ANY); }
static int r_all(lua_State *L) { return any_all(L, LUMA_RED_ALL); }

/* A:var([dim [, ddof [, out]]]) */
static int var_std(lua_State *L, luma_Reduce op) {
  double ddof = luaL_optnumber(L, 3, 0);
  if (!(ddof >= 0)) return luma_arg_error(L, 3, "ddof must be >= 0");
  return reduce(L, op, ddof, 2, 4);
}
static int r_var(lua_State *L) { return var_std(L, LUMA_RED_VAR); }
static int r_std(lua_State *L) { return var_std(L, LUMA_RED_STD); }

/* A:norm([p [, dim [, out]]]): p a number, math.huge, -math.huge, "fro"
 * or "inf"; the vector p-norm of the elements (of each lane with dim). */
static int r_norm(lua_State *L) {
  double p = 2;
  if (lua_type(L, 2) == LUA_TSTRING) {
    const char *s = lua_tostring(L, 2);
    if (strcmp(s, "fro") == 0) p = 2;
    else if (strcmp(s, "inf") == 0) p = INFINITY;
    else if (strcmp(s, "-inf") == 0) p = -INFINITY;
    else return luma_arg_error(L, 2, "unknown norm '%s' (use a number, \"fro\" or \"inf\")", s);
  } else if (!lua_isnoneornil(L, 2)) {
    p = luaL_checknumber(L, 2);
    if (isnan(p) || (p < 1 && p != 0 && p != -INFINITY))
      return luma_arg_error(L, 2, "p must be 0, >= 1 or +-inf, got %f", p);
  }
  return reduce(L, LUMA_RED_NORM, p, 3, 4);
}

/* ------------------------------------------------------------------ scans */

static int scan(lua_State *L, luma_Scan op, int matrix_default) {
  luma_Mat *a = luma_matrix_check(L, 1);
  int dim = scan_dim(L, 2, a, matrix_default);
  luma_Mat *out = same_shape_result(L, a, 3);
  luma_Threads *t = luma_meter(L, 2 * elements(a));
  luma_scan_dim(t, op, a, dim, out);
  luma_meter_done(L, t);
  return 1;
}
static int r_cumsum(lua_State *L) { return scan(L, LUMA_SCAN_CUMSUM, 1); }
static int r_cumprod(lua_State *L) { return scan(L, LUMA_SCAN_CUMPROD, 1); }
static int r_softmax(lua_State *L) { return scan(L, LUMA_SCAN_SOFTMAX, 2); }
static int r_log_softmax(lua_State *L) { return scan(L, LUMA_SCAN_LOG_SOFTMAX, 2); }

/* ---------------------------------------------------------------- sorting */

/* A:sort([dim [, descending [, out]]]) / A:argsort(...) */
static int sort(lua_State *L, int want_indices) {
  luma_Mat *a = luma_matrix_check(L, 1);
  int dim = scan_dim(L, 2, a, 1);
  int descending = lua_toboolean(L, 3);
  int64_t n = elements(a) == 0 ? 0 : dim == 1 ? a->rows : a->cols; /* lane length */
  lua_settop(L, 4); /* scratch goes above the arguments */
  /* Scratch stays on the stack (reachable) until the function returns. */
  int64_t *work = lua_newuserdatauv(L, (size_t)(2 * (n > 0 ? n : 1)) * sizeof(int64_t), 0);
  luma_Mat *out = same_shape_result(L, a, 4);
  luma_Threads *t = luma_meter(L, luma_sort_cost(n) * (uint64_t)(dim == 1 ? a->cols : a->rows));
  luma_sort_dim(t, a, dim, descending, want_indices ? NULL : out, want_indices ? out : NULL, work);
  luma_meter_done(L, t);
  if (want_indices) add_one(out);
  return 1;
}
static int r_sort(lua_State *L) { return sort(L, 0); }
static int r_argsort(lua_State *L) { return sort(L, 1); }

/* A:unique() -> values, counts (both k x 1, values ascending, NaN last). */
static int r_unique(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1);
  luma_check_options(L, 2, "inverse");
  int inverse = luma_opt_boolean(L, 2, "inverse", 0);
  int64_t n = a->rows * a->cols;
  size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
  double *work = lua_newuserdatauv(L, 3 * bytes, 0);
  luma_Threads *t = luma_meter(L, luma_sort_cost(n) + (uint64_t)n);
  int64_t m = luma_unique(t, a, work + n, work + 2 * n, work);
  luma_meter_done(L, t);
  luma_Mat *values = luma_matrix_new(L, m, 1);
  luma_Mat *counts = luma_matrix_new(L, m, 1);
  if (m > 0) {
    memcpy(values->data, work + n, (size_t)m * sizeof(double));
    memcpy(counts->data, work + 2 * n, (size_t)m * sizeof(double));
  }
  if (!inverse) return 2;
  luma_Mat *positions = luma_matrix_new(L, a->rows, a->cols);
  t = luma_meter(L, luma_sort_cost(m) * (uint64_t)n / (uint64_t)(m > 0 ? m : 1));
  luma_unique_positions(t, a, values->data, m, positions);
  luma_meter_done(L, t);
  return 3;
}

/* ------------------------------------------------ products and comparison */

/* Element k (row-major order) of a matrix used as a flat vector. */
static double flat_at(const luma_Mat *m, int64_t k) {
  return LUMA_AT(m, k / m->cols, k % m->cols);
}

/* dot(a, b): sum of products of two vectors (any orientation) or of two
 * matrices of the same shape (the Frobenius inner product). */
static int r_dot(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1), *b = luma_matrix_check(L, 2);
  int64_t n = a->rows * a->cols;
  int vectors = (a->rows == 1 || a->cols == 1) && (b->rows == 1 || b->cols == 1);
  if (vectors ? n != b->rows * b->cols : (a->rows != b->rows || a->cols != b->cols))
    return luma_arg_error(L, 2, "cannot take the dot product of %I x %I and %I x %I",
                          (lua_Integer)a->rows, (lua_Integer)a->cols, (lua_Integer)b->rows,
                          (lua_Integer)b->cols);
  luma_charge(L, 2 * (uint64_t)n);
  double s = 0;
  if (luma_mat_is_contiguous(a) && luma_mat_is_contiguous(b)) {
    s = luma_dot(a->data, b->data, n); /* (10 times the strided loop's speed) */
  } else if (vectors) {
    /* strided vectors (a column view): one stride each, no division per
     * element as flat_at needs (54 us for a 4096-element column before) */
    const int64_t sa = a->rows == 1 ? a->cs : a->rs, sb = b->rows == 1 ? b->cs : b->rs;
    for (int64_t k = 0; k < n; k++) s += a->data[k * sa] * b->data[k * sb];
  } else {
    /* the same row-major order as flat_at */
    for (int64_t i = 0; i < a->rows; i++)
      for (int64_t j = 0; j < a->cols; j++) s += LUMA_AT(a, i, j) * LUMA_AT(b, i, j);
  }
  lua_pushnumber(L, s);
  return 1;
}

/* outer(a, b [, out]): the elements of a times those of b, n x m. */
static int r_outer(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1), *b = luma_matrix_check(L, 2);
  int64_t n = a->rows * a->cols, m = b->rows * b->cols;
  luma_Mat shape = {NULL, n, m, 0, 0};
  lua_settop(L, 3);
  luma_Mat *out = same_shape_result(L, &shape, 3);
  if (n == 0 || m == 0) return 1;
  luma_charge(L, elements(out));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) LUMA_AT(out, i, j) = flat_at(a, i) * flat_at(b, j);
  return 1;
}

static int r_trace(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1);
  double s = 0;
  for (int64_t k = 0; k < a->rows && k < a->cols; k++) s += LUMA_AT(a, k, k);
  lua_pushnumber(L, s);
  return 1;
}

/* A:kron(B [, out]): the Kronecker product, (ra*rb) x (ca*cb). */
static int r_kron(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1), *b = luma_matrix_check(L, 2);
  int64_t rows = a->rows * b->rows, cols = a->cols * b->cols; /* each < 2^62 */
  if (luma_mat_checked_size(rows, cols) < 0)
    return luma_arg_error(L, 2, "the Kronecker product would be %I x %I: too large (at most "
                          "2^31 - 1 rows and columns, 2^40 elements)", (lua_Integer)rows,
                          (lua_Integer)cols);
  luma_Mat shape = {NULL, rows, cols, 0, 0};
  lua_settop(L, 3);
  luma_Mat *out = same_shape_result(L, &shape, 3);
  if (rows == 0 || cols == 0) return 1;
  luma_charge(L, elements(out));
  for (int64_t i = 0; i < a->rows; i++)
    for (int64_t j = 0; j < a->cols; j++)
      for (int64_t p = 0; p < b->rows; p++)
        for (int64_t q = 0; q < b->cols; q++)
          LUMA_AT(out, i * b->rows + p, j * b->cols + q) = LUMA_AT(a, i, j) * LUMA_AT(b, p, q);
  return 1;
}

/* A:allclose(B [, rtol [, atol]]): same shape and |a - b| <= atol + rtol*|b|
 * everywhere (NumPy's rule and defaults: rtol 1e-5, atol 1e-8); NaN is
 * never close. */
static int r_allclose(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1), *b = luma_matrix_check(L, 2);
  double rtol = luaL_optnumber(L, 3, 1e-5), atol = luaL_optnumber(L, 4, 1e-8);
  if (!(rtol >= 0)) return luma_arg_error(L, 3, "rtol must be >= 0, got %f", rtol);
  if (!(atol >= 0)) return luma_arg_error(L, 4, "atol must be >= 0, got %f", atol);
  int close = a->rows == b->rows && a->cols == b->cols;
  if (close) luma_charge(L, elements(a));
  for (int64_t i = 0; close && elements(a) > 0 && i < a->rows; i++)
    for (int64_t j = 0; close && j < a->cols; j++) {
      double x = LUMA_AT(a, i, j), y = LUMA_AT(b, i, j);
      close = x == y || fabs(x - y) <= atol + rtol * fabs(y);
    }
  lua_pushboolean(L, close);
  return 1;
}

/* A:equal(B): same shape and exactly equal elements. */
static int r_equal(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1), *b = luma_matrix_check(L, 2);
  int same = a->rows == b->rows && a->cols == b->cols;
  if (same) luma_charge(L, elements(a));
  for (int64_t i = 0; same && elements(a) > 0 && i < a->rows; i++)
    for (int64_t j = 0; same && j < a->cols; j++) same = LUMA_AT(a, i, j) == LUMA_AT(b, i, j);
  lua_pushboolean(L, same);
  return 1;
}

static const luma_Func reduce_methods[] = {
    {"sum", r_sum, "A:sum([dim = nil [, out = nil]]) -> number | matrix",
     "Sum of all elements (a number), or along dim: 1 down each column (1 x cols), 2 along each "
     "row (rows x 1)."},
    {"prod", r_prod, "A:prod([dim = nil [, out = nil]]) -> number | matrix",
     "Product of the elements, all or along dim."},
    {"mean", r_mean, "A:mean([dim = nil [, out = nil]]) -> number | matrix",
     "Arithmetic mean, of all elements (NumPy's ndarray.mean) or along dim: 1 gives one per "
     "column, as luma.stats.mean, 2 one per row (NaN if empty)."},
    {"var", r_var, "A:var([dim = nil [, ddof = 0 [, out = nil]]]) -> number | matrix",
     "Variance: sum of squared deviations / (n - ddof); ddof 0 (population) by default."},
    {"std", r_std, "A:std([dim = nil [, ddof = 0 [, out = nil]]]) -> number | matrix",
     "Standard deviation, sqrt of A:var."},
    {"min", r_min, "A:min([dim = nil [, out = nil]]) -> number | matrix",
     "Smallest element, all or along dim (NaN propagates)."},
    {"max", r_max, "A:max([dim = nil [, out = nil]]) -> number | matrix",
     "Largest element, all or along dim (NaN propagates)."},
    {"argmin", r_argmin, "A:argmin([dim = nil [, out = nil]]) -> row, col | matrix",
     "Position of the smallest element: row, col (1-based) over all elements, or a matrix of "
     "1-based indices along dim. First occurrence wins; a NaN counts as the extreme."},
    {"argmax", r_argmax, "A:argmax([dim = nil [, out = nil]]) -> row, col | matrix",
     "Position of the largest element, as argmin."},
    {"norm", r_norm, "A:norm([p = 2 [, dim = nil [, out = nil]]]) -> number | matrix",
     "Vector p-norm of the elements (p = 2 by default; 1, any p >= 1, 0 counts nonzeros, "
     "math.huge or \"inf\" the largest magnitude, \"fro\" = 2), all or along dim. Spectral "
     "norms are in luma.linalg."},
    {"any", r_any, "A:any([dim = nil [, out = nil]]) -> boolean | matrix",
     "True if any element is nonzero (1/0 along dim)."},
    {"all", r_all, "A:all([dim = nil [, out = nil]]) -> boolean | matrix",
     "True if every element is nonzero (1/0 along dim)."},
    {"logsumexp", r_logsumexp, "A:logsumexp([dim = nil [, out = nil]]) -> number | matrix",
     "log(sum(exp(x))) computed stably (shifted by the maximum); -inf for no elements."},
    {"cumsum", r_cumsum, "A:cumsum([dim = nil [, out = nil]]) -> matrix",
     "Running sums along dim (default: along a vector, down the columns of a matrix)."},
    {"cumprod", r_cumprod, "A:cumprod([dim = nil [, out = nil]]) -> matrix",
     "Running products, as cumsum."},
    {"softmax", r_softmax, "A:softmax([dim = nil [, out = nil]]) -> matrix",
     "exp(x - logsumexp) along dim (default: each row of a matrix, the length of a vector)."},
    {"log_softmax", r_log_softmax, "A:log_softmax([dim = nil [, out = nil]]) -> matrix",
     "x - logsumexp(x) along dim, as softmax, without exponentiating."},
    {"sort", r_sort, "A:sort([dim = nil [, descending = false [, out = nil]]]) -> matrix",
     "Stable sort along dim (default: along a vector, down the columns of a matrix); NaN last."},
    {"argsort", r_argsort, "A:argsort([dim = nil [, descending = false [, out = nil]]]) -> matrix",
     "1-based positions that sort A along dim (stable: ties keep their order)."},
    {"unique", r_unique, "A:unique([{inverse = false}]) -> values, counts [, inverse]",
     "The distinct values ascending and how often each occurs, as two k x 1 matrices; with "
     "inverse, also each element's position 1..k among the values (A's shape), so that "
     "values:take(positions) rebuilds A's elements."},
    {"dot", r_dot, "A:dot(B) -> number",
     "Sum of products: two vectors of equal length (any orientation) or two matrices of equal "
     "shape."},
    {"outer", r_outer, "A:outer(B [, out = nil]) -> matrix",
     "Outer product of the elements of A and of B, n x m."},
    {"trace", r_trace, "A:trace() -> number", "Sum of the diagonal elements."},
    {"kron", r_kron, "A:kron(B [, out = nil]) -> matrix", "Kronecker product."},
    {"allclose", r_allclose, "A:allclose(B [, rtol = 1e-05 [, atol = 1e-08]]) -> boolean",
     "True if the shapes match and |a - b| <= atol + rtol*|b| everywhere (defaults 1e-5, 1e-8)."},
    {"equal", r_equal, "A:equal(B) -> boolean",
     "True if the shapes match and every element is equal."},
    {NULL, NULL, NULL, NULL}};

void luma_open_reduce(lua_State *L, int module_idx) {
  static const luma_Func funcs[] = {
      {"dot", r_dot, "dot(a, b) -> number",
       "Sum of products of two vectors or equal-shape matrices."},
      {"outer", r_outer, "outer(a, b [, out = nil]) -> matrix",
       "Outer product of the elements of a and b."},
      {"kron", r_kron, "kron(A, B [, out = nil]) -> matrix", "Kronecker product."},
      {"allclose", r_allclose, "allclose(A, B [, rtol = 1e-05 [, atol = 1e-08]]) -> boolean",
       "Tolerance equality with NumPy's rule and defaults."},
      {NULL, NULL, NULL, NULL}};
  module_idx = lua_absindex(L, module_idx);
  luma_matrix_add_methods(L, reduce_methods);
  luma_register_funcs(L, module_idx, "luma.matrix", funcs);
}
