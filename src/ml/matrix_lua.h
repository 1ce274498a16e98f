/*
 * matrix_lua.h - what binding files share about matrix userdata
 * (internal; the public face is luma_MatrixRef in luma.h).
 */
#ifndef LUMA_ML_MATRIX_LUA_H
#define LUMA_ML_MATRIX_LUA_H

#include "core.h"
#include "matrix.h"

/* Pushes a new owned rows x cols matrix; elements are uninitialized.
 * Raises a Lua error for negative or absurd sizes, a memory error when
 * memory runs out. */
luma_Mat *luma_matrix_new(lua_State *L, int64_t rows, int64_t cols);

/* The matrix at idx, or NULL. */
luma_Mat *luma_matrix_test(lua_State *L, int idx);

/* The matrix at arg, or a "luma.Matrix expected" argument error. */
luma_Mat *luma_matrix_check(lua_State *L, int arg);

/* Pushes a view that shares the storage of the matrix at base_idx. */
luma_Mat *luma_matrix_push_view(lua_State *L, int base_idx, luma_Mat view);

/* Adds documented methods to the matrix type (for binding files beyond
 * matrix_lua.c). */
void luma_matrix_add_methods(lua_State *L, const luma_Func *methods);

/* Adds metamethods (__add, ...) to the matrix type's metatable. */
void luma_matrix_add_metamethods(lua_State *L, const luaL_Reg *metamethods);

/* Opens the element-wise and product bindings: methods on the matrix type,
 * functions into the luma.matrix table at module_idx. */
void luma_open_matrix_ops(lua_State *L, int module_idx);

/* Opens reductions, scans, sorting, dot/outer/kron and comparisons. */
void luma_open_reduce(lua_State *L, int module_idx);

#endif
