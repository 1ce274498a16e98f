/*
 * shape_lua.c - building and rearranging matrices: diag, linspace,
 * arange, stacking, reshape and flatten, gathering rows or columns by
 * index (take), boolean-mask selection, strided slices and assignment
 * into views.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "core/matrix_ops.h"

static int64_t check_count(lua_State *L, int arg, const char *what) {
  return luma_check_int_range(L, arg, what, 0, LUMA_MAX_ELEMENTS);
}

/* n * reps rows (or columns) of a repeated matrix, or -1 past LUMA_MAX_DIM. */
static int64_t repeated(int64_t n, int64_t reps) {
  return n != 0 && reps > LUMA_MAX_DIM / n ? -1 : n * reps;
}

static int is_vector(const luma_Mat *m) { return m->rows == 1 || m->cols == 1; }

/* Element k (0-based, row-major) of a vector. */
static double vector_at(const luma_Mat *v, int64_t k) {
  return v->rows == 1 ? LUMA_AT(v, 0, k) : LUMA_AT(v, k, 0);
}

/* An index vector argument (a matrix vector or a table of integers, values
 * in 1..n) as 0-based int64s in scratch memory pushed on the stack. */
static int64_t *check_indices(lua_State *L, int arg, int64_t n, int64_t *count) {
  luma_Mat *m = luma_matrix_test(L, arg);
  if (m == NULL && !lua_istable(L, arg))
    luaL_typeerror(L, arg, "index vector (luma.Matrix or table)");
  if (m && !is_vector(m))
    luma_arg_error(L, arg, "indices must be a vector, got a %I x %I matrix", (lua_Integer)m->rows,
                   (lua_Integer)m->cols);
  int64_t len = m ? m->rows * m->cols : (int64_t)lua_rawlen(L, arg);
  int64_t *index = lua_newuserdatauv(L, (size_t)len * sizeof *index, 0);
  luma_charge(L, (uint64_t)len * (m ? 1 : 4));
  for (int64_t k = 0; k < len; k++) {
    double v;
    if (m) {
      v = vector_at(m, k);
    } else {
      int isnum = 0;
      lua_rawgeti(L, arg, k + 1);
      v = lua_tonumberx(L, -1, &isnum);
      if (!isnum || lua_type(L, -1) == LUA_TSTRING)
        luma_arg_error(L, arg, "index %I is a %s, expected an integer", (lua_Integer)(k + 1),
                       luaL_typename(L, -1));
      lua_pop(L, 1);
    }
    if (!(v >= 1 && v <= (double)n && v == floor(v)))
      luma_arg_error(L, arg, "index %f (entry %I) is not an integer in [1, %I]", v,
                     (lua_Integer)(k + 1), (lua_Integer)n);
    index[k] = (int64_t)v - 1;
  }
  *count = len;
  return index;
}

/* dim argument: 1 (rows, the default) or 2 (columns). */
static int check_dim(lua_State *L, int arg) {
  return (int)(lua_isnoneornil(L, arg) ? 1 : luma_check_int_range(L, arg, "dim", 1, 2));
}

/* The number of nonzero elements of a mask (charged: one unit each, the
 * caller's second pass over it included). */
static int64_t count_nonzero(lua_State *L, const luma_Mat *mask) {
  int64_t count = 0;
  if (mask->rows == 0 || mask->cols == 0) return 0;
  luma_charge(L, 2 * (uint64_t)(mask->rows * mask->cols));
  for (int64_t i = 0; i < mask->rows; i++)
    for (int64_t j = 0; j < mask->cols; j++) count += LUMA_AT(mask, i, j) != 0;
  return count;
}

/* ---------------------------------------------------------- construction */

/* A table of numbers as a new column vector (pushed). */
static luma_Mat *table_vector(lua_State *L, int arg) {
  int64_t n = (int64_t)lua_rawlen(L, arg);
  luma_Mat *v = luma_matrix_new(L, n, 1);
  luma_charge(L, 4 * (uint64_t)n);
  for (int64_t k = 0; k < n; k++) {
    int isnum = 0;
    lua_rawgeti(L, arg, k + 1);
    v->data[k] = lua_tonumberx(L, -1, &isnum);
    if (!isnum || lua_type(L, -1) == LUA_TSTRING)
      luma_arg_error(L, arg, "element [%I] is a %s, expected a number", (lua_Integer)(k + 1),
                     luaL_typename(L, -1));
    lua_pop(L, 1);
  }
  return v;
}

/* diag(v [, k]) builds a square matrix with v on diagonal k;
 * diag(A [, k]) copies A's diagonal k into a column vector. */
static int m_diag(lua_State *L) {
  lua_Integer k = luaL_optinteger(L, 2, 0);
  luma_Mat *a = lua_istable(L, 1) ? table_vector(L, 1) : luma_matrix_check(L, 1);
  if (k < -LUMA_MAX_ELEMENTS || k > LUMA_MAX_ELEMENTS)
    return luma_arg_error(L, 2, "diagonal offset %I is out of range", k);
  if (is_vector(a)) {
    int64_t len = a->rows * a->cols, n = len + (k < 0 ? -k : k);
    luma_Mat *m = luma_matrix_new(L, n, n);
    luma_charge(L, (uint64_t)(n * n));
    luma_mat_fill(m, 0.0);
    luma_Mat d = luma_mat_diagonal(m, k);
    for (int64_t i = 0; i < len; i++) LUMA_AT(&d, i, 0) = vector_at(a, i);
    return 1;
  }
  luma_Mat d = luma_mat_diagonal(a, k);
  luma_mat_copy(luma_matrix_new(L, d.rows, 1), &d);
  return 1;
}

/* linspace(a, b, n): n evenly spaced values from a to b inclusive. */
static int m_linspace(lua_State *L) {
  double a = luma_check_finite(L, 1, "start"), b = luma_check_finite(L, 2, "stop");
  int64_t n = lua_isnoneornil(L, 3) ? 50 : luma_check_int_range(L, 3, "n", 0, LUMA_MAX_DIM);
  luma_Mat *m = luma_matrix_new(L, n, 1);
  luma_charge(L, (uint64_t)n);
  double step = n > 1 ? (b - a) / (double)(n - 1) : 0.0;
  for (int64_t i = 0; i < n; i++) m->data[i] = a + (double)i * step;
  if (n > 1) m->data[n - 1] = b; /* exact end point despite rounding */
  return 1;
}

/* arange(n) is 1..n; arange(first, last [, step]) runs like Lua's numeric
 * for: from first while not past last, both ends inclusive. */
static int m_arange(lua_State *L) {
  double first = 1, last, step = 1;
  if (lua_isnoneornil(L, 2)) {
    last = luma_check_finite(L, 1, "n");
  } else {
    first = luma_check_finite(L, 1, "first");
    last = luma_check_finite(L, 2, "last");
    if (!lua_isnoneornil(L, 3)) step = luma_check_finite(L, 3, "step");
    if (step == 0) return luma_arg_error(L, 3, "step must not be 0");
  }
  /* A relative slack so that arange(0, 1, 0.1) includes 1 despite 0.1's
   * binary representation. */
  double span = (last - first) / step;
  double count = span < 0 ? 0 : floor(span + 1e-10 * (1 + fabs(span))) + 1;
  if (count > (double)LUMA_MAX_DIM)
    return luma_arg_error(L, 1, "arange would have %f elements (at most 2^31 - 1)", count);
  luma_Mat *m = luma_matrix_new(L, (int64_t)count, 1);
  luma_charge(L, (uint64_t)count);
  for (int64_t i = 0; i < m->rows; i++) m->data[i] = first + (double)i * step;
  return 1;
}

/* The matrices of a stack call: a table of matrices, checked to agree in
 * the dimension that is not stacked. */
static int64_t stack_inputs(lua_State *L, int along_cols, int64_t *other) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  if (n == 0) luma_arg_error(L, 1, "expected a non-empty list of matrices");
  int64_t total = 0;
  for (lua_Integer k = 1; k <= n; k++) {
    lua_rawgeti(L, 1, k);
    luma_Mat *m = luma_matrix_test(L, -1);
    if (m == NULL)
      luma_arg_error(L, 1, "entry %I is a %s, expected a luma.Matrix", k, luaL_typename(L, -1));
    int64_t keep = along_cols ? m->rows : m->cols, grow = along_cols ? m->cols : m->rows;
    if (k == 1) *other = keep;
    if (keep != *other)
      luma_arg_error(L, 1, "entry %I has %I %s but entry 1 has %I", k, (lua_Integer)keep,
                     along_cols ? "rows" : "columns", (lua_Integer)*other);
    total += grow;
    lua_pop(L, 1);
  }
  return total;
}

static int stack(lua_State *L, int along_cols) {
  int64_t other = 0, total = stack_inputs(L, along_cols, &other);
  luma_Mat *out = along_cols ? luma_matrix_new(L, other, total) : luma_matrix_new(L, total, other);
  luma_charge(L, (uint64_t)(out->rows * out->cols) + (uint64_t)lua_rawlen(L, 1));
  int64_t at = 0;
  for (lua_Integer k = 1; k <= (lua_Integer)lua_rawlen(L, 1); k++) {
    lua_rawgeti(L, 1, k);
    luma_Mat *m = luma_matrix_test(L, -1);
    luma_Mat dst = along_cols ? luma_mat_block(out, 0, at, m->rows, m->cols)
                              : luma_mat_block(out, at, 0, m->rows, m->cols);
    luma_mat_copy(&dst, m);
    at += along_cols ? m->cols : m->rows;
    lua_pop(L, 1);
  }
  return 1;
}

static int m_hstack(lua_State *L) { return stack(L, 1); }
static int m_vstack(lua_State *L) { return stack(L, 0); }

/* find(mask): the 1-based row-major positions of mask's nonzero elements,
 * as a column vector. */
static int m_find(lua_State *L) {
  luma_Mat *mask = luma_matrix_check(L, 1);
  luma_Mat *out = luma_matrix_new(L, count_nonzero(L, mask), 1);
  int64_t at = 0;
  for (int64_t i = 0; out->rows > 0 && i < mask->rows; i++)
    for (int64_t j = 0; j < mask->cols; j++)
      if (LUMA_AT(mask, i, j) != 0) out->data[at++] = (double)(i * mask->cols + j + 1);
  return 1;
}

/* -------------------------------------------------------------- methods */

static int m_diag_view(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  lua_Integer k = luaL_optinteger(L, 2, 0);
  if (k <= -m->rows || k >= m->cols)
    return luma_arg_error(L, 2, "diagonal %I is outside a %I x %I matrix", k,
                          (lua_Integer)m->rows, (lua_Integer)m->cols);
  luma_matrix_push_view(L, 1, luma_mat_diagonal(m, k));
  return 1;
}

/* reshape(rows, cols): row-major order; one size may be -1 (inferred).
 * A view when A is contiguous, else a copy. */
static int m_reshape(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t n = m->rows * m->cols;
  lua_Integer rows = luaL_checkinteger(L, 2), cols = luaL_checkinteger(L, 3);
  if (rows == -1 && cols > 0 && n % cols == 0) rows = n / cols;
  else if (cols == -1 && rows > 0 && n % rows == 0) cols = n / rows;
  if (rows < 0 || cols < 0 || luma_mat_checked_size(rows, cols) != n)
    return luma_arg_error(L, 2, "cannot reshape %I x %I (%I elements) into %I x %I",
                          (lua_Integer)m->rows, (lua_Integer)m->cols, (lua_Integer)n, rows, cols);
  if (luma_mat_is_contiguous(m)) {
    luma_matrix_push_view(L, 1, luma_mat_dense(m->data, rows, cols));
    return 1;
  }
  luma_Mat *out = luma_matrix_new(L, rows, cols);
  luma_charge(L, (uint64_t)n);
  luma_Mat as_src_shape = luma_mat_dense(out->data, m->rows, m->cols);
  luma_mat_copy(&as_src_shape, m);
  return 1;
}

static int m_contiguous(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  if (luma_mat_is_contiguous(m)) {
    lua_settop(L, 1);
    return 1;
  }
  luma_Mat *out = luma_matrix_new(L, m->rows, m->cols);
  luma_charge(L, (uint64_t)(m->rows * m->cols));
  luma_mat_copy(out, m);
  return 1;
}

static int m_flatten(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_Mat *out = luma_matrix_new(L, m->rows * m->cols, 1);
  luma_charge(L, (uint64_t)(m->rows * m->cols));
  luma_Mat as_src_shape = luma_mat_dense(out->data, m->rows, m->cols);
  luma_mat_copy(&as_src_shape, m);
  return 1;
}

/* take(indices [, dim [, out]]): rows (dim 1) or columns (dim 2) gathered
 * in the order of indices; repeats allowed. */
static int m_take(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int along_cols = check_dim(L, 3) == 2;
  lua_settop(L, 4); /* the index scratch goes above the optional out */
  int64_t count;
  int64_t *index = check_indices(L, 2, along_cols ? m->cols : m->rows, &count);
  luma_Mat *out = along_cols ? luma_matrix_result(L, 4, m->rows, count)
                             : luma_matrix_result(L, 4, count, m->cols);
  if (!lua_isnoneornil(L, 4) && luma_mat_overlaps(out, m))
    return luma_arg_error(L, 4, "out must not share memory with the matrix taken from");
  luma_charge(L, (uint64_t)(out->rows * out->cols));
  luma_mat_take(out, m, index, along_cols);
  return 1;
}

/* select(mask): elements where mask (A's shape) is nonzero, row-major, as a
 * column; select(mask, dim): the rows (dim 1) or columns (dim 2) whose
 * entry in the vector mask is nonzero. */
static int m_select(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1), *mask = luma_matrix_check(L, 2);
  if (lua_isnoneornil(L, 3)) {
    if (mask->rows != m->rows || mask->cols != m->cols)
      return luma_arg_error(L, 2, "mask is %I x %I but the matrix is %I x %I (pass dim to "
                            "select rows or columns)", (lua_Integer)mask->rows,
                            (lua_Integer)mask->cols, (lua_Integer)m->rows, (lua_Integer)m->cols);
    luma_Mat *out = luma_matrix_new(L, count_nonzero(L, mask), 1);
    int64_t at = 0;
    for (int64_t i = 0; out->rows > 0 && i < m->rows; i++)
      for (int64_t j = 0; j < m->cols; j++)
        if (LUMA_AT(mask, i, j) != 0) out->data[at++] = LUMA_AT(m, i, j);
    return 1;
  }
  int along_cols = check_dim(L, 3) == 2;
  int64_t n = along_cols ? m->cols : m->rows;
  if (!is_vector(mask) || mask->rows * mask->cols != n)
    return luma_arg_error(L, 2, "mask must be a vector of %I entries (one per %s), got %I x %I",
                          (lua_Integer)n, along_cols ? "column" : "row",
                          (lua_Integer)mask->rows, (lua_Integer)mask->cols);
  int64_t count = count_nonzero(L, mask);
  int64_t *index = lua_newuserdatauv(L, (size_t)count * sizeof *index, 0);
  for (int64_t k = 0, at = 0; k < n; k++)
    if (vector_at(mask, k) != 0) index[at++] = k;
  luma_Mat *out = along_cols ? luma_matrix_new(L, m->rows, count)
                             : luma_matrix_new(L, count, m->cols);
  luma_charge(L, (uint64_t)(out->rows * out->cols));
  luma_mat_take(out, m, index, along_cols);
  return 1;
}

/* assign(B [, mask]): copies B (a number or a matrix broadcasting to A's
 * shape) into A in place, only where mask is nonzero if given. */
static int m_assign(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_Operand src;
  luma_matrix_operand(L, 2, &src);
  int64_t rows, cols;
  if (!luma_broadcast_shape(m, &src.m, &rows, &cols) || rows != m->rows || cols != m->cols)
    return luma_arg_error(L, 2, "cannot assign a %I x %I matrix into a %I x %I one",
                          (lua_Integer)src.m.rows, (lua_Integer)src.m.cols,
                          (lua_Integer)m->rows, (lua_Integer)m->cols);
  if (luma_mat_overlaps(m, &src.m) && !(src.m.data == m->data && src.m.rs == m->rs &&
                                        src.m.cs == m->cs)) {
    luma_Mat *c = luma_matrix_new(L, src.m.rows, src.m.cols); /* read before writing */
    luma_mat_copy(c, &src.m);
    src.m = *c;
  }
  luma_Mat b = luma_broadcast_to(&src.m, rows, cols);
  luma_charge(L, (uint64_t)(rows * cols));
  if (lua_isnoneornil(L, 3)) {
    luma_mat_copy(m, &b);
  } else {
    luma_Mat *mask = luma_matrix_check(L, 3);
    if (mask->rows != rows || mask->cols != cols)
      return luma_arg_error(L, 3, "mask is %I x %I but the matrix is %I x %I",
                            (lua_Integer)mask->rows, (lua_Integer)mask->cols, (lua_Integer)rows,
                            (lua_Integer)cols);
    luma_mat_where(mask, &b, m, m);
  }
  luma_matrix_touch(L, 1);
  lua_settop(L, 1);
  return 1;
}

/* tile(reps_rows [, reps_cols]): A repeated as a block matrix. */
static int m_tile(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t rr = check_count(L, 2, "row repetitions");
  int64_t rc = lua_isnoneornil(L, 3) ? 1 : check_count(L, 3, "column repetitions");
  int64_t rows = repeated(m->rows, rr), cols = repeated(m->cols, rc);
  if (rows < 0 || cols < 0 || luma_mat_checked_size(rows, cols) < 0)
    return luma_arg_error(L, 2, "tiling %I x %I by %I x %I is too large (at most 2^31 - 1 rows "
                          "and columns, 2^40 elements)", (lua_Integer)m->rows,
                          (lua_Integer)m->cols, (lua_Integer)rr, (lua_Integer)rc);
  luma_Mat *out = luma_matrix_new(L, rows, cols);
  /* An empty result has nothing to copy: without this, tiling a 0 x n
   * matrix by 1e18 looped 1e18 times in C, past any instruction limit. */
  if (out->rows == 0 || out->cols == 0) return 1;
  luma_charge(L, (uint64_t)(rows * cols) + (uint64_t)(rr * rc)); /* the copies, one per block */
  for (int64_t a = 0; a < rr; a++)
    for (int64_t b = 0; b < rc; b++) {
      luma_Mat dst = luma_mat_block(out, a * m->rows, b * m->cols, m->rows, m->cols);
      luma_mat_copy(&dst, m);
    }
  return 1;
}

/* A slice argument over n entries: nil (all), an index i, or a table
 * {first, last [, step]} with step >= 1. */
static void check_range(lua_State *L, int arg, int64_t n, const char *what, int64_t *first,
                        int64_t *count, int64_t *step) {
  *first = 0;
  *count = n;
  *step = 1;
  if (lua_isnoneornil(L, arg)) return;
  lua_Integer f, l, s = 1;
  if (lua_istable(L, arg)) {
    lua_rawgeti(L, arg, 1);
    lua_rawgeti(L, arg, 2);
    lua_rawgeti(L, arg, 3);
    int ok_f, ok_l, ok_s = 1;
    f = lua_tointegerx(L, -3, &ok_f);
    l = lua_isnil(L, -2) ? (ok_l = 1, (lua_Integer)n) : lua_tointegerx(L, -2, &ok_l);
    if (!lua_isnil(L, -1)) s = lua_tointegerx(L, -1, &ok_s);
    lua_pop(L, 3);
    if (!ok_f || !ok_l || !ok_s)
      luma_arg_error(L, arg, "%s range must be {first, last [, step]} of integers", what);
  } else {
    f = l = luaL_checkinteger(L, arg);
  }
  if (s < 1) luma_arg_error(L, arg, "%s step must be >= 1, got %I (use take to reorder)", what, s);
  if (f < 1 || f > n || l < f || l > n)
    luma_arg_error(L, arg, "%s range %I..%I is not within [1, %I]", what, f, l, (lua_Integer)n);
  *first = f - 1;
  *count = (l - f) / s + 1;
  *step = s;
}

/* slice(rows, cols): a view; each of rows and cols is nil (all), an index,
 * or {first, last [, step]}. */
static int m_slice(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t r0, nr, rstep, c0, nc, cstep;
  check_range(L, 2, m->rows, "row", &r0, &nr, &rstep);
  check_range(L, 3, m->cols, "column", &c0, &nc, &cstep);
  luma_Mat v = luma_mat_block(m, r0, c0, nr, nc);
  v.rs *= rstep;
  v.cs *= cstep;
  luma_matrix_push_view(L, 1, v);
  return 1;
}

void luma_open_shape(lua_State *L, int module_idx) {
  static const luma_Func funcs[] = {
      {"diag", m_diag, "diag(x [, k = 0]) -> matrix",
       "From a vector (matrix or table): the square matrix with x on diagonal k (0 main, > 0 "
       "above, < 0 below). From a matrix: a copy of its diagonal k as a column."},
      {"linspace", m_linspace, "linspace(a, b [, n = 50]) -> matrix",
       "n (default 50) evenly spaced numbers from a to b inclusive, as a column."},
      {"arange", m_arange, "arange(n) | arange(first, last [, step = 1]) -> matrix",
       "1..n, or first, first+step, ... up to last inclusive (like Lua's numeric for), as a "
       "column."},
      {"hstack", m_hstack, "hstack{A, B, ...} -> matrix",
       "The matrices side by side (same row counts)."},
      {"vstack", m_vstack, "vstack{A, B, ...} -> matrix", "The matrices on top of each other (same "
       "column counts)."},
      {"find", m_find, "find(mask) -> matrix",
       "The 1-based row-major positions of mask's nonzero elements, as a column."},
      {NULL, NULL, NULL, NULL}};
  static const luma_Func methods[] = {
      {"diag", m_diag_view, "A:diag([k = 0]) -> matrix view",
       "Diagonal k of A as an n x 1 view (writes go to A: A:diag():add(1, A:diag()) adds 1 "
       "to the diagonal)."},
      {"reshape", m_reshape, "A:reshape(rows, cols) -> matrix",
       "A's elements in row-major order with a new shape (one size may be -1): a view when A "
       "is contiguous, else a copy."},
      {"contiguous", m_contiguous, "A:contiguous() -> matrix",
       "A itself if it is contiguous, else a contiguous copy."},
      {"flatten", m_flatten, "A:flatten() -> matrix",
       "A copy of A's elements in row-major order as a column."},
      {"take", m_take, "A:take(indices [, dim = 1 [, out = nil]]) -> matrix",
       "Rows (dim 1, default) or columns (dim 2) of A in the order of indices (a vector or a "
       "table, 1-based, repeats allowed), as a new matrix or into out."},
      {"select", m_select, "A:select(mask [, dim = nil]) -> matrix",
       "Without dim: the elements where mask (A's shape) is nonzero, row-major, as a column. "
       "With dim 1 or 2: the rows or columns whose mask entry is nonzero."},
      {"assign", m_assign, "A:assign(B [, mask = nil]) -> A",
       "Copies B (a number, or a matrix broadcasting to A's shape) into A in place, where mask "
       "is nonzero if given; works through views: A:sub(1, 2):assign(0). Returns A."},
      {"tile", m_tile, "A:tile(reps_rows [, reps_cols = 1]) -> matrix",
       "A repeated as a block matrix."},
      {"slice", m_slice, "A:slice(rows, cols) -> matrix view",
       "A view of A; rows and cols are each nil (all), an index, or {first, last [, step]}, "
       "step >= 1: A:slice({1, 9, 2}, nil) is every other row."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, module_idx, "luma.matrix", funcs);
  luma_matrix_add_methods(L, methods);
}
