/*
 * matrix_ops_lua.c - Lua binding of the element-wise kernels and the
 * matrix product: operators, named methods, and the output convention.
 *
 * Output convention (every allocating operation): an optional last
 * argument `out`, a matrix of exactly the result's shape, receives the
 * result and is returned; without it a new matrix is allocated.  `out` may
 * be one of the inputs itself (A:exp(A) works in place), but not a
 * different view of the same memory.
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "core/matrix_ops.h"
#include "sparse/sparse_lua.h"

/* ------------------------------------------------------------- binary */

static int binary(lua_State *L, luma_BinaryOp op) {
  luma_Operand a, b;
  luma_matrix_operand(L, 1, &a);
  if (!luma_matrix_operand_test(L, 2, &b)) {
    /* D + S and D - S (tested last: dense + dense pays nothing for it) */
    int sparse = luma_sparse_test(L, 2) || luma_sparse_csc_test(L, 2);
    if (sparse && (op == LUMA_OP_ADD || op == LUMA_OP_SUB) && lua_isnoneornil(L, 3))
      return luma_sparse_arith(L, op == LUMA_OP_SUB);
    luaL_typeerror(L, 2, "luma.Matrix or number");
  }
  int64_t rows, cols;
  if (!luma_broadcast_shape(&a.m, &b.m, &rows, &cols))
    return luma_arg_error(L, 2, "shapes %I x %I and %I x %I do not broadcast together",
                          (lua_Integer)a.m.rows, (lua_Integer)a.m.cols, (lua_Integer)b.m.rows,
                          (lua_Integer)b.m.cols);
  luma_Mat *out = luma_matrix_result(L, 3, rows, cols);
  if (!lua_isnoneornil(L, 3)) {
    luma_matrix_check_no_overlap(L, 3, out, &a.m);
    luma_matrix_check_no_overlap(L, 3, out, &b.m);
  }
  luma_Mat ba = luma_broadcast_to(&a.m, rows, cols), bb = luma_broadcast_to(&b.m, rows, cols);
  /* luma_meter: a small operation is charged at once and runs serially,
   * without the pool's bookkeeping */
  luma_Threads *t = luma_meter(L, (uint64_t)(rows * cols));
  luma_LoopStatus status = luma_mat_binary(t, op, &ba, &bb, out);
  if (t != NULL) luma_threads_finish(L, t, status);
  return 1;
}

#define BINARY_METHOD(fname, OP) \
  static int fname(lua_State *L) { return binary(L, OP); }
BINARY_METHOD(m_add, LUMA_OP_ADD)
BINARY_METHOD(m_sub, LUMA_OP_SUB)
BINARY_METHOD(m_mul, LUMA_OP_MUL)
BINARY_METHOD(m_div, LUMA_OP_DIV)
BINARY_METHOD(m_pow, LUMA_OP_POW)
BINARY_METHOD(m_idiv, LUMA_OP_IDIV)
BINARY_METHOD(m_mod, LUMA_OP_MOD)
BINARY_METHOD(m_maximum, LUMA_OP_MAXIMUM)
BINARY_METHOD(m_minimum, LUMA_OP_MINIMUM)
BINARY_METHOD(m_eq, LUMA_OP_EQ)
BINARY_METHOD(m_ne, LUMA_OP_NE)
BINARY_METHOD(m_lt, LUMA_OP_LT)
BINARY_METHOD(m_le, LUMA_OP_LE)
BINARY_METHOD(m_gt, LUMA_OP_GT)
BINARY_METHOD(m_ge, LUMA_OP_GE)

/* -------------------------------------------------------------- unary */

static int unary(lua_State *L, luma_UnaryOp op) {
  luma_Mat *a = luma_matrix_check(L, 1);
  luma_Mat *out = luma_matrix_result(L, 2, a->rows, a->cols);
  if (!lua_isnoneornil(L, 2)) luma_matrix_check_no_overlap(L, 2, out, a);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->rows * a->cols));
  luma_LoopStatus status = luma_mat_unary(t, op, a, out);
  if (t != NULL) luma_threads_finish(L, t, status);
  return 1;
}

#define UNARY_METHOD(fname, OP) \
  static int fname(lua_State *L) { return unary(L, OP); }
UNARY_METHOD(m_neg, LUMA_OP_NEG)
UNARY_METHOD(m_exp, LUMA_OP_EXP)
UNARY_METHOD(m_log, LUMA_OP_LOG)
UNARY_METHOD(m_log1p, LUMA_OP_LOG1P)
UNARY_METHOD(m_expm1, LUMA_OP_EXPM1)
UNARY_METHOD(m_sqrt, LUMA_OP_SQRT)
UNARY_METHOD(m_abs, LUMA_OP_ABS)
UNARY_METHOD(m_sign, LUMA_OP_SIGN)
UNARY_METHOD(m_floor, LUMA_OP_FLOOR)
UNARY_METHOD(m_ceil, LUMA_OP_CEIL)
UNARY_METHOD(m_round, LUMA_OP_ROUND)
UNARY_METHOD(m_sin, LUMA_OP_SIN)
UNARY_METHOD(m_cos, LUMA_OP_COS)
UNARY_METHOD(m_tanh, LUMA_OP_TANH)
UNARY_METHOD(m_sigmoid, LUMA_OP_SIGMOID)
UNARY_METHOD(m_softplus, LUMA_OP_SOFTPLUS)
UNARY_METHOD(m_relu, LUMA_OP_RELU)
UNARY_METHOD(m_isnan, LUMA_OP_ISNAN)
UNARY_METHOD(m_isfinite, LUMA_OP_ISFINITE)

static int m_clamp(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1);
  double lo = luaL_checknumber(L, 2), hi = luaL_checknumber(L, 3);
  if (!(lo <= hi)) return luma_arg_error(L, 3, "upper bound %f is below lower bound %f", hi, lo);
  luma_Mat *out = luma_matrix_result(L, 4, a->rows, a->cols);
  if (!lua_isnoneornil(L, 4)) luma_matrix_check_no_overlap(L, 4, out, a);
  luma_charge(L, (uint64_t)(out->rows * out->cols));
  luma_mat_clamp(a, lo, hi, out);
  return 1;
}

/* A:map(fn [, out]): fn(x) per element.  The slow path: one Lua call per
 * element, for what no kernel covers. */
static int m_map(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  luma_Mat *out = luma_matrix_result(L, 3, a->rows, a->cols);
  for (int64_t i = 0; i < a->rows && a->cols > 0; i++)
    for (int64_t j = 0; j < a->cols; j++) {
      lua_pushvalue(L, 2);
      lua_pushnumber(L, LUMA_AT(a, i, j));
      lua_call(L, 1, 1);
      int isnum = 0;
      double v = lua_tonumberx(L, -1, &isnum);
      if (!isnum)
        return luma_arg_error(L, 2, "the function returned a %s for element (%I, %I), not a number",
                              luaL_typename(L, -1), (lua_Integer)(i + 1), (lua_Integer)(j + 1));
      lua_pop(L, 1);
      LUMA_AT(out, i, j) = v;
    }
  return 1;
}

/* where(mask, a, b [, out]): a where mask is nonzero, else b. */
static int m_where(lua_State *L) {
  luma_Mat *mask = luma_matrix_check(L, 1);
  luma_Operand a, b;
  luma_matrix_operand(L, 2, &a);
  luma_matrix_operand(L, 3, &b);
  int64_t rows, cols, r2, c2;
  if (!luma_broadcast_shape(mask, &a.m, &rows, &cols) ||
      !luma_broadcast_shape(&(luma_Mat){NULL, rows, cols, 0, 0}, &b.m, &r2, &c2))
    return luma_arg_error(L, 3, "mask %I x %I, a %I x %I and b %I x %I do not broadcast together",
                          (lua_Integer)mask->rows, (lua_Integer)mask->cols, (lua_Integer)a.m.rows,
                          (lua_Integer)a.m.cols, (lua_Integer)b.m.rows, (lua_Integer)b.m.cols);
  luma_Mat *out = luma_matrix_result(L, 4, r2, c2);
  if (!lua_isnoneornil(L, 4)) {
    luma_matrix_check_no_overlap(L, 4, out, mask);
    luma_matrix_check_no_overlap(L, 4, out, &a.m);
    luma_matrix_check_no_overlap(L, 4, out, &b.m);
  }
  luma_Mat bm = luma_broadcast_to(mask, r2, c2), ba = luma_broadcast_to(&a.m, r2, c2),
           bb = luma_broadcast_to(&b.m, r2, c2);
  luma_charge(L, (uint64_t)(out->rows * out->cols));
  luma_mat_where(&bm, &ba, &bb, out);
  return 1;
}

/* ------------------------------------------------------------ product */

/* The matrix m at idx (checked already), or a BLAS-ready copy of it. */
static luma_Mat blas_operand_of(lua_State *L, int idx, const luma_Mat *m) {
  if (luma_mat_blas_ready(m)) return *m;
  luma_Mat *c = luma_matrix_new(L, m->rows, m->cols);
  luma_mat_copy(c, m);
  lua_replace(L, idx); /* the copy stays referenced while in use */
  return *c;
}

luma_Mat luma_matrix_blas_operand(lua_State *L, int idx) {
  return blas_operand_of(L, idx, luma_matrix_check(L, idx));
}

void luma_matrix_check_blas_size(lua_State *L, const luma_Mat *m, int arg) {
  if (m->rows > INT_MAX || m->cols > INT_MAX)
    luma_arg_error(L, arg, "%I x %I is too large for BLAS (dimensions up to %d)",
                   (lua_Integer)m->rows, (lua_Integer)m->cols, INT_MAX);
}

/* A:matmul(B [, out]) and A * B. */
static int m_matmul(lua_State *L) {
  luma_Mat *pa = luma_matrix_check(L, 1);
  luma_Mat *pb = luma_matrix_test(L, 2);
  if (pb == NULL) { /* dense x sparse, tested second: dense x dense pays nothing for it */
    if (luma_sparse_test(L, 2) || luma_sparse_csc_test(L, 2)) return luma_sparse_dense_matmul(L);
    pb = luma_matrix_check(L, 2);
  }
  if (pa->cols != pb->rows)
    return luma_arg_error(L, 2, "cannot multiply %I x %I by %I x %I (inner dimensions differ)",
                          (lua_Integer)pa->rows, (lua_Integer)pa->cols, (lua_Integer)pb->rows,
                          (lua_Integer)pb->cols);
  luma_matrix_check_blas_size(L, pa, 1);
  luma_matrix_check_blas_size(L, pb, 2);
  int64_t rows = pa->rows, cols = pb->cols;
  /* one dgemm cannot be interrupted: refused up front when over budget
   * (m n k multiply-adds; m n to zero the result when k is 0) */
  luma_charge_uninterruptible(L, (double)rows * (double)cols * (double)(pa->cols > 0 ? pa->cols : 1),
                              "this matrix product");
  lua_settop(L, 3);
  luma_Mat a = blas_operand_of(L, 1, pa), b = blas_operand_of(L, 2, pb);
  luma_Mat *out = luma_matrix_result(L, 3, rows, cols);
  if (!lua_isnil(L, 3)) {
    if (!luma_mat_blas_ready(out))
      return luma_arg_error(L, 3, "out must have unit stride along rows or columns");
    if (luma_mat_overlaps(out, &a) || luma_mat_overlaps(out, &b))
      return luma_arg_error(L, 3, "out must not share memory with an operand of a product");
  }
  if ((double)rows * (double)cols * (double)a.cols <= LUMA_MATMUL_SMALL)
    luma_mat_matmul_small(&a, &b, out);
  else
    luma_mat_matmul(&a, &b, out);
  return 1;
}

/* Scalar * matrix scales; matrix * matrix is the product. */
/* A matrix and a table with its own metamethod for the event (a
 * luma.autograd.Variable): the table's metamethod answers, as Lua would
 * have asked it had the table been on the left.  Returns 1 with the
 * result pushed, or 0. */
static int defer_to_table(lua_State *L, const char *event) {
  lua_settop(L, 2);
  for (int i = 1; i <= 2; i++) {
    if (lua_type(L, i) != LUA_TTABLE || luaL_getmetafield(L, i, event) == LUA_TNIL) continue;
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
  }
  return 0;
}

static int mm_mul(lua_State *L) {
  if (defer_to_table(L, "__mul")) return 1;
  if (lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 2) == LUA_TNUMBER) {
    int m_arg = lua_type(L, 1) == LUA_TNUMBER ? 2 : 1;
    luma_Mat *a = luma_matrix_check(L, m_arg);
    double alpha = luaL_checknumber(L, m_arg == 1 ? 2 : 1);
    luma_Mat *out = luma_matrix_new(L, a->rows, a->cols);
    luma_charge(L, (uint64_t)(out->rows * out->cols));
    luma_mat_scale(a, alpha, out);
    return 1;
  }
  lua_settop(L, 2);
  return m_matmul(L);
}

static int mm_div(lua_State *L) {
  if (defer_to_table(L, "__div")) return 1;
  if (lua_type(L, 2) != LUA_TNUMBER) {
    if (luma_matrix_test(L, 2))
      return luaL_error(L, "cannot divide by a matrix: use luma.linalg.solve(A, B) for A^-1 B, "
                           "or A:div(B) for element-wise division");
    return luaL_typeerror(L, 2, "number");
  }
  lua_settop(L, 2);
  return binary(L, LUMA_OP_DIV);
}

static int mm_add(lua_State *L) {
  if (defer_to_table(L, "__add")) return 1;
  return binary(L, LUMA_OP_ADD);
}

static int mm_sub(lua_State *L) {
  if (defer_to_table(L, "__sub")) return 1;
  return binary(L, LUMA_OP_SUB);
}

static int mm_unm(lua_State *L) {
  lua_settop(L, 1);
  return unary(L, LUMA_OP_NEG);
}

/* A ^ B, A // B, A % B: element-wise with broadcasting, a number on either
 * side (2 ^ A raises 2 to each element), as A:pow, A:idiv, A:mod. */
static int mm_pow(lua_State *L) {
  lua_settop(L, 2);
  return binary(L, LUMA_OP_POW);
}

static int mm_idiv(lua_State *L) {
  lua_settop(L, 2);
  return binary(L, LUMA_OP_IDIV);
}

static int mm_mod(lua_State *L) {
  lua_settop(L, 2);
  return binary(L, LUMA_OP_MOD);
}

/* A == B: the same shape and equal elements (docs/MATRIX.md): __eq must
 * answer with one boolean, so the element-wise comparison is A:eq(B).
 * Lua calls this only for two different objects, so A == A holds even
 * with NaN inside, and a matrix never equals another type. */
static int mm_eq(lua_State *L) {
  luma_Mat *a = luma_matrix_test(L, 1), *b = luma_matrix_test(L, 2);
  int equal = 0;
  if (a && b) {
    if (a->rows == b->rows && a->cols == b->cols) luma_charge(L, (uint64_t)(a->rows * a->cols));
    equal = luma_mat_equal(a, b);
  }
  lua_pushboolean(L, equal);
  return 1;
}

/* A < B and A <= B would need one boolean for many comparisons. */
static int mm_order(lua_State *L) {
  return luaL_error(L, "cannot order luma.Matrix values with <, <=, > or >=: use A:lt(B), "
                       "A:le(B), A:gt(B) or A:ge(B) for element-wise comparisons (1 where "
                       "true)");
}

/* -------------------------------------------------------- registration */

static const luma_Func op_methods[] = {
    {"add", m_add, "A:add(B [, out = nil]) -> matrix",
     "Element-wise A + B; B is a matrix (broadcast from 1 x c, r x 1 or 1 x 1) or a number. "
     "Also A + B."},
    {"subtract", m_sub, "A:subtract(B [, out = nil]) -> matrix",
     "Element-wise A - B with broadcasting. Also A - B. (A:sub is the sub-block view.)"},
    {"mul", m_mul, "A:mul(B [, out = nil]) -> matrix",
     "Element-wise (Hadamard) product with broadcasting. A * B is the matrix product."},
    {"div", m_div, "A:div(B [, out = nil]) -> matrix", "Element-wise A / B with broadcasting."},
    {"pow", m_pow, "A:pow(B [, out = nil]) -> matrix",
     "Element-wise A ^ B with broadcasting. Also A ^ B (and 2 ^ A, a number on either side)."},
    {"idiv", m_idiv, "A:idiv(B [, out = nil]) -> matrix",
     "Element-wise floor division floor(A / B) with broadcasting, as Lua's // on floats. Also "
     "A // B."},
    {"mod", m_mod, "A:mod(B [, out = nil]) -> matrix",
     "Element-wise floored modulo A - floor(A / B) B with broadcasting: the result has the sign "
     "of B, as Lua's % and NumPy's mod (x % 0 is NaN). Also A % B."},
    {"maximum", m_maximum, "A:maximum(B [, out = nil]) -> matrix",
     "Element-wise maximum (NaN propagates)."},
    {"minimum", m_minimum, "A:minimum(B [, out = nil]) -> matrix",
     "Element-wise minimum (NaN propagates)."},
    {"eq", m_eq, "A:eq(B [, out = nil]) -> matrix", "1 where A == B, else 0 (broadcasting)."},
    {"ne", m_ne, "A:ne(B [, out = nil]) -> matrix", "1 where A ~= B, else 0 (broadcasting)."},
    {"lt", m_lt, "A:lt(B [, out = nil]) -> matrix", "1 where A < B, else 0 (broadcasting)."},
    {"le", m_le, "A:le(B [, out = nil]) -> matrix", "1 where A <= B, else 0 (broadcasting)."},
    {"gt", m_gt, "A:gt(B [, out = nil]) -> matrix", "1 where A > B, else 0 (broadcasting)."},
    {"ge", m_ge, "A:ge(B [, out = nil]) -> matrix", "1 where A >= B, else 0 (broadcasting)."},
    {"neg", m_neg, "A:neg([out = nil]) -> matrix", "Element-wise -A. Also -A."},
    {"exp", m_exp, "A:exp([out = nil]) -> matrix", "Element-wise e^x."},
    {"log", m_log, "A:log([out = nil]) -> matrix",
     "Element-wise natural logarithm (NaN below 0, -inf at 0)."},
    {"log1p", m_log1p, "A:log1p([out = nil]) -> matrix",
     "Element-wise log(1 + x), accurate near 0."},
    {"expm1", m_expm1, "A:expm1([out = nil]) -> matrix", "Element-wise e^x - 1, accurate near 0."},
    {"sqrt", m_sqrt, "A:sqrt([out = nil]) -> matrix", "Element-wise square root."},
    {"abs", m_abs, "A:abs([out = nil]) -> matrix", "Element-wise absolute value."},
    {"sign", m_sign, "A:sign([out = nil]) -> matrix",
     "Element-wise sign: -1, 0 or 1 (NaN stays NaN)."},
    {"floor", m_floor, "A:floor([out = nil]) -> matrix", "Element-wise floor."},
    {"ceil", m_ceil, "A:ceil([out = nil]) -> matrix", "Element-wise ceiling."},
    {"round", m_round, "A:round([out = nil]) -> matrix",
     "Element-wise rounding, halves to even (as NumPy)."},
    {"sin", m_sin, "A:sin([out = nil]) -> matrix", "Element-wise sine."},
    {"cos", m_cos, "A:cos([out = nil]) -> matrix", "Element-wise cosine."},
    {"tanh", m_tanh, "A:tanh([out = nil]) -> matrix", "Element-wise hyperbolic tangent."},
    {"sigmoid", m_sigmoid, "A:sigmoid([out = nil]) -> matrix",
     "Element-wise logistic 1/(1+e^-x), computed without overflow."},
    {"softplus", m_softplus, "A:softplus([out = nil]) -> matrix",
     "Element-wise log(1+e^x), computed without overflow."},
    {"relu", m_relu, "A:relu([out = nil]) -> matrix", "Element-wise max(x, 0)."},
    {"isnan", m_isnan, "A:isnan([out = nil]) -> matrix", "1 where the element is NaN, else 0."},
    {"isfinite", m_isfinite, "A:isfinite([out = nil]) -> matrix",
     "1 where the element is finite, else 0."},
    {"clamp", m_clamp, "A:clamp(lo, hi [, out = nil]) -> matrix",
     "Element-wise min(max(x, lo), hi)."},
    {"map", m_map, "A:map(fn [, out = nil]) -> matrix",
     "Applies the Lua function fn to every element. The slow path (a Lua call per element): "
     "prefer the named operations."},
    {"matmul", m_matmul, "A:matmul(B [, out = nil]) -> matrix",
     "Matrix product through BLAS dgemm; transposed views are passed to BLAS without copying "
     "(products of at most 512 multiply-adds run plain loops instead, cheaper than dgemm's "
     "set-up). Also A * B."},
    {NULL, NULL, NULL, NULL}};

static const luaL_Reg op_metamethods[] = {
    {"__add", mm_add}, {"__sub", mm_sub},   {"__mul", mm_mul},     {"__div", mm_div},
    {"__unm", mm_unm}, {"__pow", mm_pow},   {"__idiv", mm_idiv},   {"__mod", mm_mod},
    {"__eq", mm_eq},   {"__lt", mm_order}, {"__le", mm_order}, {NULL, NULL}};

void luma_open_matrix_ops(lua_State *L, int module_idx) {
  static const luma_Func funcs[] = {
      {"where", m_where, "where(mask, a, b [, out = nil]) -> matrix",
       "Element-wise choice: a where mask is nonzero, else b; a and b are matrices or numbers, "
       "all broadcast together."},
      {"maximum", m_maximum, "maximum(a, b [, out = nil]) -> matrix",
       "Element-wise maximum (NaN propagates)."},
      {"minimum", m_minimum, "minimum(a, b [, out = nil]) -> matrix",
       "Element-wise minimum (NaN propagates)."},
      {"matmul", m_matmul, "matmul(A, B [, out = nil]) -> matrix", "Matrix product (BLAS dgemm)."},
      {NULL, NULL, NULL, NULL}};
  module_idx = lua_absindex(L, module_idx);
  luma_matrix_add_methods(L, op_methods);
  luma_matrix_add_metamethods(L, op_metamethods);
  luma_register_funcs(L, module_idx, "luma.matrix", funcs);
}
