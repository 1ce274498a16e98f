/*
 * matrix_lua.h - what binding files share about matrix userdata
 * (internal; the public face is luma_MatrixRef in luma.h).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_MATRIX_LUA_H
#define LUMA_ML_MATRIX_LUA_H

#include "core.h"
#include "core/matrix.h"

/* Pushes a new owned rows x cols matrix; elements are uninitialized.
 * Raises a Lua error for negative or absurd sizes, a memory error when
 * memory runs out. */
luma_Mat *luma_matrix_new(lua_State *L, int64_t rows, int64_t cols);

/* The matrix at idx, or NULL. */
luma_Mat *luma_matrix_test(lua_State *L, int idx);

/* The matrix at arg, or a "luma.Matrix expected" argument error. */
luma_Mat *luma_matrix_check(lua_State *L, int arg);

/* An argument error unless every element of m (argument arg, named what
 * in the message: "X", "centers") is finite: "bad argument #arg to 'f'
 * (X has a non-finite element, nan at row 2, column 3)", the first in
 * row-major order, 1-based.  For data (data != 0: samples, where a NaN is
 * a missing value) a NaN adds "; impute missing values first, e.g. with
 * luma.preprocessing.SimpleImputer" -- the Lua side's text too
 * (luma.util.args.nonfinite). */
void luma_matrix_check_finite(lua_State *L, int arg, const luma_Mat *m, const char *what,
                              int data);

/* Counts one in-place write into the storage of the matrix at idx (its
 * own, or its view's base's): what A:version() reports, so that
 * luma.autograd can refuse a backward through changed values.  Every
 * binding that writes into a matrix it did not just create calls it
 * (luma_matrix_result does for an out argument). */
void luma_matrix_touch(lua_State *L, int idx);

/* Argument arg as a 1-based index into n rows or columns ("row",
 * "column" in the message); returns it 0-based.  Inline: get and set
 * call it on every scalar access. */
static inline int64_t luma_check_index(lua_State *L, int arg, const char *what, int64_t n) {
  int isint = 0;
  lua_Integer i = lua_tointegerx(L, arg, &isint);
  if (!isint) i = luaL_checkinteger(L, arg); /* raises its usual error */
  if (i < 1 || i > n)
    luma_arg_error(L, arg, "%s index %I out of range [1, %I]", what, i, (lua_Integer)n);
  return i - 1;
}

/* Pushes a view that shares the storage of the matrix at base_idx. */
luma_Mat *luma_matrix_push_view(lua_State *L, int base_idx, luma_Mat view);

/* Adds documented methods to the matrix type (for binding files beyond
 * matrix_lua.c). */
void luma_matrix_add_methods(lua_State *L, const luma_Func *methods);

/* Adds metamethods (__add, ...) to the matrix type's metatable. */
void luma_matrix_add_metamethods(lua_State *L, const luaL_Reg *metamethods);

/* A number or matrix argument; a number becomes a 1 x 1 matrix (stride 0)
 * that broadcasts anywhere. */
typedef struct luma_Operand {
  luma_Mat m;
  double scalar;
} luma_Operand;
void luma_matrix_operand(lua_State *L, int arg, luma_Operand *op);
/* The same without raising: 0 when the argument is neither. */
int luma_matrix_operand_test(lua_State *L, int arg, luma_Operand *op);

/* Output convention of every allocating operation: an optional `out`
 * matrix at out_arg of exactly the result's shape receives the result;
 * without it a new matrix is allocated.  Either way the result is left on
 * top of the stack. */
luma_Mat *luma_matrix_result(lua_State *L, int out_arg, int64_t rows, int64_t cols);

/* out may be exactly an input (same elements, same layout), never another
 * view onto an input's memory: that would read elements already written. */
void luma_matrix_check_no_overlap(lua_State *L, int out_arg, const luma_Mat *out,
                                  const luma_Mat *in);

/* A BLAS-readable version of the matrix at idx: itself, or a contiguous
 * copy that replaces it on the stack (so it stays referenced). */
luma_Mat luma_matrix_blas_operand(lua_State *L, int idx);

/* An argument error unless both dimensions of m fit BLAS's int. */
void luma_matrix_check_blas_size(lua_State *L, const luma_Mat *m, int arg);

/* Opens the element-wise and product bindings: methods on the matrix type,
 * functions into the luma.matrix table at module_idx. */
void luma_open_matrix_ops(lua_State *L, int module_idx);

/* Opens reductions, scans, sorting, dot/outer/kron and comparisons. */
void luma_open_reduce(lua_State *L, int module_idx);

/* Opens diag, linspace, arange, stacking, reshape, take, select, assign,
 * tile and slice. */
void luma_open_shape(lua_State *L, int module_idx);

/* Opens rand and randn (drawing from luma.random generators). */
void luma_open_random_matrix(lua_State *L, int module_idx);

/* The luma.Generator at arg, or this state's default one if arg is none or
 * nil. */
struct luma_Rng *luma_random_opt_generator(lua_State *L, int arg);

#endif
