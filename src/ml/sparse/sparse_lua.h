/*
 * sparse_lua.h - what other bindings share about luma.SparseMatrix
 * userdata (the serializer saves and loads them, the dense product hands
 * a sparse right operand over).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SPARSE_LUA_H
#define LUMA_ML_SPARSE_LUA_H

#include "core.h"
#include "sparse/sparse.h"

/* Pushes a new rows x cols sparse matrix with room for exactly nnz
 * entries, inside one userdata (so the state's allocator and collector
 * see its size); the arrays are uninitialized except indptr[0] = 0.
 * Raises an error naming the running function for impossible sizes. */
luma_Sparse *luma_sparse_new(lua_State *L, int64_t rows, int64_t cols, int64_t nnz);

/* The CSR matrix at idx, or NULL. */
luma_Sparse *luma_sparse_test(lua_State *L, int idx);

/* A CSC matrix (luma.SparseCSC) of rows x cols with nnz entries: its
 * arrays are those of the CSR of its transpose (the returned struct is
 * cols x rows), and the CSC matrix at idx, or NULL. */
luma_Sparse *luma_sparse_csc_new(lua_State *L, int64_t rows, int64_t cols, int64_t nnz);
luma_Sparse *luma_sparse_csc_test(lua_State *L, int idx);

/* D:matmul(S [, out]) for a dense D at 1 and a sparse S (CSR or CSC) at 2: the dense
 * product binding hands such calls over here. */
int luma_sparse_dense_matmul(lua_State *L);

/* The sum (subtract = 0) or difference of the values at 1 and 2, one of
 * them sparse: the sparse matrices' __add and __sub, which a dense
 * matrix's + and - call when its other operand is sparse. */
int luma_sparse_arith(lua_State *L, int subtract);

#endif
