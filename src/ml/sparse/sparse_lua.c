/*
 * sparse_lua.c - Lua binding of the CSR kernels: the luma.SparseMatrix
 * type and the luma.sparse module (docs/SPARSE.md).
 *
 * Memory: a sparse matrix is one full userdata holding its header and its
 * three arrays, so the state's allocator charges it to the memory limit
 * and the collector sees its size (as for dense matrices, no __gc).
 * Sparse matrices are immutable: every operation returns a new one, so
 * one can be shared, saved or handed to a host without copies.
 * Temporaries (COO triplets, sort buffers, accumulators) are scratch
 * userdata, collected like any garbage, so an error never leaks them.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "core/numtext.h"
#include "sparse/sparse_lua.h"
#include "stats/random.h"

typedef struct SparseUD {
  luma_Sparse m;
} SparseUD;

/* The arrays start 16-byte aligned after the header. */
#define ARRAYS_OFFSET ((sizeof(SparseUD) + 15) & ~(size_t)15)

static const luma_Type sparse_type; /* defined at the end, with its methods */

/* The name of the C function running (for errors raised on its behalf). */
static const char *running_function(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name) return ar.name;
  return "?";
}

luma_Sparse *luma_sparse_new(lua_State *L, int64_t rows, int64_t cols, int64_t nnz) {
  if (rows < 0 || cols < 0 || rows > LUMA_MAX_DIM || cols > LUMA_MAX_DIM || nnz < 0 ||
      nnz > LUMA_MAX_ELEMENTS || (double)nnz > (double)rows * (double)cols)
    luaL_error(L, "'%s' cannot create a %I x %I luma.SparseMatrix with %I entries (sizes must "
               "be >= 0, each at most 2^31 - 1, and the entries at most 2^40 and rows x cols)",
               running_function(L), (lua_Integer)rows, (lua_Integer)cols, (lua_Integer)nnz);
  size_t bytes = ARRAYS_OFFSET + ((size_t)rows + 1 + 2 * (size_t)nnz) * 8;
  SparseUD *ud = lua_newuserdatauv(L, bytes, 0);
  char *base = (char *)ud + ARRAYS_OFFSET;
  ud->m.rows = rows;
  ud->m.cols = cols;
  ud->m.nnz = nnz;
  ud->m.indptr = (int64_t *)base;
  ud->m.indices = ud->m.indptr + rows + 1;
  ud->m.data = (double *)(ud->m.indices + nnz);
  ud->m.indptr[0] = 0;
  luma_type_setmetatable(L, &sparse_type);
  return &ud->m;
}

luma_Sparse *luma_sparse_test(lua_State *L, int idx) {
  SparseUD *ud = luma_type_test(L, idx, &sparse_type);
  return ud ? &ud->m : NULL;
}

static luma_Sparse *check_sparse(lua_State *L, int arg) {
  return &((SparseUD *)luma_type_check(L, arg, &sparse_type))->m;
}

/* A buffer collected as garbage (pushed; stays referenced by the stack). */
static void *scratch(lua_State *L, size_t bytes) {
  return lua_newuserdatauv(L, bytes ? bytes : 1, 0);
}

/* A CSR whose arrays are scratch (capacity nnz, which may exceed rows x
 * cols while duplicates are in it). */
static luma_Sparse scratch_csr(lua_State *L, int64_t rows, int64_t cols, int64_t nnz) {
  luma_Sparse m = {rows, cols, nnz, NULL, NULL, NULL};
  m.indptr = scratch(L, ((size_t)rows + 1) * sizeof(int64_t));
  m.indices = scratch(L, (size_t)nnz * sizeof(int64_t));
  m.data = scratch(L, (size_t)nnz * sizeof(double));
  return m;
}

/* A new sparse matrix holding a copy of a (a scratch CSR of exact size). */
static luma_Sparse *push_copy(lua_State *L, const luma_Sparse *a) {
  luma_Sparse *c = luma_sparse_new(L, a->rows, a->cols, a->nnz);
  luma_charge(L, (uint64_t)(a->rows + 1 + 2 * a->nnz));
  memcpy(c->indptr, a->indptr, ((size_t)a->rows + 1) * sizeof(int64_t));
  memcpy(c->indices, a->indices, (size_t)a->nnz * sizeof(int64_t));
  memcpy(c->data, a->data, (size_t)a->nnz * sizeof(double));
  return c;
}

/* The pool's meter, whatever the work: for kernels whose cost only they
 * can tell (a product's inner loops depend on which rows meet), so it is
 * charged as it happens rather than estimated up front. */
static luma_Threads *pool_meter(lua_State *L) { return luma_threads_of(L); }

/* -------------------------------------------------------- arguments */

static int64_t check_size(lua_State *L, int arg, const char *what) {
  return luma_check_int_range(L, arg, what, 0, LUMA_MAX_DIM);
}

/* Element k of a vector matrix (n x 1 or 1 x n). */
static double vec_at(const luma_Mat *v, int64_t k) {
  return v->cols == 1 ? LUMA_AT(v, k, 0) : LUMA_AT(v, 0, k);
}

/* The vector at arg: a luma.Matrix with one row or one column, or a
 * table of numbers (copied into a new column left on the stack). */
static luma_Mat vector_arg(lua_State *L, int arg, const char *what) {
  luma_Mat *m = luma_matrix_test(L, arg);
  if (m != NULL) {
    if (m->rows != 1 && m->cols != 1)
      luma_arg_error(L, arg, "%s must be a vector (n x 1 or 1 x n), got a %I x %I matrix", what,
                     (lua_Integer)m->rows, (lua_Integer)m->cols);
    return *m;
  }
  if (!lua_istable(L, arg)) luaL_typeerror(L, arg, "luma.Matrix or table");
  lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
  luma_charge(L, 2 * (uint64_t)n);
  luma_Mat *c = luma_matrix_new(L, n, 1);
  for (lua_Integer k = 1; k <= n; k++) {
    int isnum = 0;
    lua_rawgeti(L, arg, k);
    double v = lua_tonumberx(L, -1, &isnum);
    if (!isnum || lua_type(L, -1) == LUA_TSTRING)
      luma_arg_error(L, arg, "%s[%I] is a %s, expected a number", what, k, luaL_typename(L, -1));
    lua_pop(L, 1);
    c->data[k - 1] = v;
  }
  return *c;
}

static int64_t vec_len(const luma_Mat *v) { return v->rows * v->cols; }

/* Element k of an index vector as a 0-based index below n. */
static int64_t index_at(lua_State *L, int arg, const luma_Mat *v, int64_t k, int64_t n,
                        const char *what) {
  double x = vec_at(v, k);
  if (!isfinite(x) || x != floor(x))
    luma_arg_error(L, arg, "%s[%I] is %f, not an integer index", what, (lua_Integer)(k + 1), x);
  if (!(x >= 1 && x <= (double)n)) {
    if (fabs(x) < 9e18) /* prints as the integer it is */
      luma_arg_error(L, arg, "%s[%I] is %I, out of range [1, %I]", what, (lua_Integer)(k + 1),
                     (lua_Integer)x, (lua_Integer)n);
    luma_arg_error(L, arg, "%s[%I] is %f, out of range [1, %I]", what, (lua_Integer)(k + 1), x,
                   (lua_Integer)n);
  }
  return (int64_t)x - 1;
}

/* dim argument of the reductions: 0 (all), 1 or 2. */
static int opt_dim(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return 0;
  lua_Integer d = luaL_checkinteger(L, arg);
  if (d != 1 && d != 2) luma_arg_error(L, arg, "dim must be 1 or 2, got %I", d);
  return (int)d;
}

/* A dense operand the product kernels can read by rows: itself, or a
 * row-major copy that replaces it on the stack. */
static luma_Mat row_major_operand(lua_State *L, int idx) {
  luma_Mat *m = luma_matrix_check(L, idx);
  if (m->cs == 1 || m->cols <= 1) return *m;
  luma_Mat *c = luma_matrix_new(L, m->rows, m->cols);
  luma_charge(L, (uint64_t)(m->rows * m->cols));
  luma_mat_copy(c, m);
  lua_replace(L, idx);
  return *c;
}

/* The dense result of a product: out at out_arg (unit column stride, not
 * sharing memory with the dense operand) or a new matrix. */
static luma_Mat *product_result(lua_State *L, int out_arg, int64_t rows, int64_t cols,
                                const luma_Mat *operand) {
  int given = !lua_isnoneornil(L, out_arg);
  luma_Mat *out = luma_matrix_result(L, out_arg, rows, cols);
  if (given) {
    if (out->cs != 1 && out->cols > 1)
      luma_arg_error(L, out_arg, "out must have unit column stride (a row-major matrix)");
    if (luma_mat_overlaps(out, operand))
      luma_arg_error(L, out_arg, "out must not share memory with an operand of a product");
  }
  return out;
}

static int inner_mismatch(lua_State *L, int arg, int64_t ar, int64_t ac, int64_t br,
                          int64_t bc) {
  return luma_arg_error(L, arg, "cannot multiply %I x %I by %I x %I (inner dimensions differ)",
                        (lua_Integer)ar, (lua_Integer)ac, (lua_Integer)br, (lua_Integer)bc);
}

/* ------------------------------------------------------ constructors */

/* csr(rows, cols, i, j, v) */
static int s_csr(lua_State *L) {
  int64_t rows = check_size(L, 1, "rows"), cols = check_size(L, 2, "cols");
  lua_settop(L, 5);
  luma_Mat mi = vector_arg(L, 3, "i"), mj = vector_arg(L, 4, "j"), mv = vector_arg(L, 5, "v");
  int64_t n = vec_len(&mi);
  if (vec_len(&mj) != n)
    return luma_arg_error(L, 4, "i has %I elements but j has %I", (lua_Integer)n,
                          (lua_Integer)vec_len(&mj));
  if (vec_len(&mv) != n)
    return luma_arg_error(L, 5, "i has %I elements but v has %I", (lua_Integer)n,
                          (lua_Integer)vec_len(&mv));
  int64_t *ii = scratch(L, (size_t)n * sizeof(int64_t));
  int64_t *jj = scratch(L, (size_t)n * sizeof(int64_t));
  double *vv = scratch(L, (size_t)n * sizeof(double));
  luma_charge(L, 3 * (uint64_t)n);
  for (int64_t k = 0; k < n; k++) {
    ii[k] = index_at(L, 3, &mi, k, rows, "i");
    jj[k] = index_at(L, 4, &mj, k, cols, "j");
    vv[k] = vec_at(&mv, k);
  }
  luma_Sparse tmp = scratch_csr(L, cols, rows, n), out = scratch_csr(L, rows, cols, n);
  luma_Threads *t = luma_meter(L, 6 * (uint64_t)n + (uint64_t)(rows + cols));
  luma_sp_from_coo(t, n, ii, jj, vv, &tmp, &out);
  luma_meter_done(L, t);
  push_copy(L, &out);
  return 1;
}

/* from_dense(M [, tol = 0]) */
static int s_from_dense(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  double tol = 0;
  if (!lua_isnoneornil(L, 2)) {
    tol = luma_check_finite(L, 2, "tol");
    if (tol < 0) return luma_arg_error(L, 2, "tol must be >= 0, got %f", tol);
  }
  uint64_t units = (uint64_t)(m->rows * m->cols + m->rows);
  luma_Threads *t = luma_meter(L, units);
  int64_t nnz = luma_sp_count_dense(t, m, tol);
  luma_meter_done(L, t);
  luma_Sparse *s = luma_sparse_new(L, m->rows, m->cols, nnz);
  t = luma_meter(L, units);
  luma_sp_from_dense(t, m, tol, s);
  luma_meter_done(L, t);
  return 1;
}

/* eye(n [, m = n]) */
static int s_eye(lua_State *L) {
  int64_t rows = check_size(L, 1, "n");
  int64_t cols = lua_isnoneornil(L, 2) ? rows : check_size(L, 2, "m");
  int64_t k = rows < cols ? rows : cols;
  luma_Sparse *s = luma_sparse_new(L, rows, cols, k);
  luma_charge(L, (uint64_t)(rows + 2 * k));
  for (int64_t i = 0; i < rows; i++) {
    if (i < k) {
      s->indices[i] = i;
      s->data[i] = 1.0;
    }
    s->indptr[i + 1] = i < k ? i + 1 : k;
  }
  return 1;
}

/* random(rows, cols, density [, generator]) */
static int s_random(lua_State *L) {
  int64_t rows = check_size(L, 1, "rows"), cols = check_size(L, 2, "cols");
  double density = luma_check_finite(L, 3, "density");
  if (density < 0 || density > 1)
    return luma_arg_error(L, 3, "density must be in [0, 1], got %f", density);
  luma_Rng *rng = luma_random_opt_generator(L, 4);
  /* SciPy's count: round(density * rows * cols), halves to even */
  double want = nearbyint(density * (double)rows * (double)cols);
  if (want > (double)LUMA_MAX_ELEMENTS)
    return luma_arg_error(L, 3, "density %f of %I x %I asks for %f entries, more than 2^40",
                          density, (lua_Integer)rows, (lua_Integer)cols, want);
  int64_t k = (int64_t)want;
  int bits = 1;
  while (((int64_t)1 << bits) < 2 * k) bits++;
  lua_settop(L, 4);
  int64_t *slots = scratch(L, ((size_t)1 << bits) * sizeof(int64_t));
  int64_t *pos_i = scratch(L, (size_t)k * sizeof(int64_t));
  int64_t *pos_j = scratch(L, (size_t)k * sizeof(int64_t));
  luma_Sparse tmp = scratch_csr(L, cols, rows, k);
  luma_Sparse *s = luma_sparse_new(L, rows, cols, k);
  luma_Threads *t = pool_meter(L);
  luma_sp_random(t, rng, k, slots, bits, pos_i, pos_j, &tmp, s);
  luma_meter_done(L, t);
  return 1;
}

static int s_issparse(lua_State *L) {
  lua_pushboolean(L, luma_sparse_test(L, 1) != NULL);
  return 1;
}

/* ---------------------------------------------------------- queries */

static int s_shape(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  lua_pushinteger(L, a->rows);
  lua_pushinteger(L, a->cols);
  return 2;
}

static int s_rows(lua_State *L) {
  lua_pushinteger(L, check_sparse(L, 1)->rows);
  return 1;
}

static int s_cols(lua_State *L) {
  lua_pushinteger(L, check_sparse(L, 1)->cols);
  return 1;
}

static int s_nnz(lua_State *L) {
  lua_pushinteger(L, check_sparse(L, 1)->nnz);
  return 1;
}

/* find(): the stored entries as three n x 1 columns, row by row. */
static int s_find(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luma_charge(L, (uint64_t)(3 * a->nnz + a->rows));
  luma_Mat *i = luma_matrix_new(L, a->nnz, 1);
  luma_Mat *j = luma_matrix_new(L, a->nnz, 1);
  luma_Mat *v = luma_matrix_new(L, a->nnz, 1);
  for (int64_t r = 0; r < a->rows; r++)
    for (int64_t e = a->indptr[r]; e < a->indptr[r + 1]; e++) {
      i->data[e] = (double)(r + 1);
      j->data[e] = (double)(a->indices[e] + 1);
      v->data[e] = a->data[e];
    }
  return 3;
}

static int s_get(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  int64_t i = luma_check_index(L, 2, "row", a->rows), j = luma_check_index(L, 3, "column", a->cols);
  lua_pushnumber(L, luma_sp_get(a, i, j));
  return 1;
}

static int s_todense(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luma_Mat *out = luma_matrix_result(L, 2, a->rows, a->cols);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->rows * a->cols + a->nnz + a->rows));
  luma_sp_to_dense(t, a, out);
  luma_meter_done(L, t);
  return 1;
}

/* Pushes the rows rows[0..n-1] of the sparse matrix at 1. */
static void push_rows(lua_State *L, const luma_Sparse *a, const int64_t *rows, int64_t n) {
  luma_charge(L, (uint64_t)n);
  luma_Sparse *out = luma_sparse_new(L, n, a->cols, luma_sp_take_count(a, rows, n));
  luma_Threads *t = luma_meter(L, 2 * (uint64_t)out->nnz + (uint64_t)n);
  luma_sp_take(t, a, rows, n, out);
  luma_meter_done(L, t);
}

static int s_row(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  int64_t i = luma_check_index(L, 2, "row", a->rows);
  push_rows(L, a, &i, 1);
  return 1;
}

static int s_take(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  lua_settop(L, 2);
  luma_Mat idx = vector_arg(L, 2, "indices");
  int64_t n = vec_len(&idx);
  int64_t *rows = scratch(L, (size_t)n * sizeof(int64_t));
  luma_charge(L, (uint64_t)n);
  for (int64_t k = 0; k < n; k++) rows[k] = index_at(L, 2, &idx, k, a->rows, "indices");
  push_rows(L, a, rows, n);
  return 1;
}

/* sub(r1, r2): rows r1..r2, inclusive and 1-based. */
static int s_sub(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  if (!lua_isnoneornil(L, 4) || !lua_isnoneornil(L, 5))
    return luma_arg_error(L, 4, "a sparse matrix's sub selects rows only (sub(r1, r2)); "
                          "column ranges are not supported");
  int64_t r1 = lua_isnoneornil(L, 2) ? 0 : luma_check_index(L, 2, "first row", a->rows);
  int64_t r2 = lua_isnoneornil(L, 3) ? a->rows - 1 : luma_check_index(L, 3, "last row", a->rows);
  if (r2 < r1 && a->rows > 0)
    return luma_arg_error(L, 3, "last row %I is before first row %I", (lua_Integer)(r2 + 1),
                          (lua_Integer)(r1 + 1));
  int64_t n = r2 - r1 + 1, start = a->indptr[r1], count = a->indptr[r2 + 1] - start;
  luma_Sparse *out = luma_sparse_new(L, n, a->cols, count);
  luma_charge(L, (uint64_t)(n + 2 * count));
  for (int64_t i = 0; i <= n; i++) out->indptr[i] = a->indptr[r1 + i] - start;
  memcpy(out->indices, a->indices + start, (size_t)count * sizeof(int64_t));
  memcpy(out->data, a->data + start, (size_t)count * sizeof(double));
  return 1;
}

static int s_t(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luma_Sparse *out = luma_sparse_new(L, a->cols, a->rows, a->nnz);
  luma_Threads *t = luma_meter(L, 3 * (uint64_t)a->nnz + (uint64_t)(a->rows + a->cols));
  luma_sp_transpose(t, a, out);
  luma_meter_done(L, t);
  return 1;
}

/* sum and mean: a number, or a dense 1 x cols (dim 1) / rows x 1 (dim 2). */
static int reduce(lua_State *L, int mean) {
  luma_Sparse *a = check_sparse(L, 1);
  int dim = opt_dim(L, 2);
  if (dim == 0) {
    luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows));
    double s = luma_sp_sum(t, a);
    luma_meter_done(L, t);
    lua_pushnumber(L, mean ? s / ((double)a->rows * (double)a->cols) : s);
    return 1;
  }
  luma_Mat *out = dim == 1 ? luma_matrix_new(L, 1, a->cols) : luma_matrix_new(L, a->rows, 1);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows + a->cols));
  luma_sp_sum_dim(t, a, dim, out);
  luma_meter_done(L, t);
  if (mean) {
    double n = dim == 1 ? (double)a->rows : (double)a->cols;
    int64_t len = out->rows * out->cols;
    for (int64_t k = 0; k < len; k++) out->data[k] /= n;
  }
  return 1;
}

static int s_sum(lua_State *L) { return reduce(L, 0); }
static int s_mean(lua_State *L) { return reduce(L, 1); }

static int s_norm(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  const char *kind = luaL_optstring(L, 2, "fro");
  if (strcmp(kind, "fro") != 0)
    return luma_arg_error(L, 2, "unknown norm '%s' (valid: fro)", kind);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows));
  double s = luma_sp_sum_squares(t, a);
  luma_meter_done(L, t);
  lua_pushnumber(L, sqrt(s));
  return 1;
}

/* ---------------------------------------------------------- scaling */

static int push_scaled(lua_State *L, const luma_Sparse *a, int mode, double alpha,
                       const luma_Mat *v) {
  luma_Sparse *out = luma_sparse_new(L, a->rows, a->cols, a->nnz);
  luma_Threads *t = luma_meter(L, 3 * (uint64_t)a->nnz + (uint64_t)a->rows);
  luma_sp_scale(t, a, mode, alpha, v, out);
  luma_meter_done(L, t);
  return 1;
}

static int s_scale(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  return push_scaled(L, a, LUMA_SP_ALL, luaL_checknumber(L, 2), NULL);
}

static int multiply_by(lua_State *L, int mode) {
  luma_Sparse *a = check_sparse(L, 1);
  lua_settop(L, 2);
  luma_Mat v = vector_arg(L, 2, "v");
  int64_t want = mode == LUMA_SP_ROWS ? a->rows : a->cols;
  if (vec_len(&v) != want)
    return luma_arg_error(L, 2, "v has %I elements but the matrix is %I x %I (%s)",
                          (lua_Integer)vec_len(&v), (lua_Integer)a->rows, (lua_Integer)a->cols,
                          mode == LUMA_SP_ROWS ? "one per row" : "one per column");
  return push_scaled(L, a, mode, 1.0, &v);
}

static int s_multiply_rows(lua_State *L) { return multiply_by(L, LUMA_SP_ROWS); }
static int s_multiply_cols(lua_State *L) { return multiply_by(L, LUMA_SP_COLS); }

static int s_eliminate_zeros(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  uint64_t units = (uint64_t)(a->nnz + a->rows);
  luma_Threads *t = luma_meter(L, units);
  int64_t kept = luma_sp_count_nonzero(t, a);
  luma_meter_done(L, t);
  luma_Sparse *out = luma_sparse_new(L, a->rows, a->cols, kept);
  t = luma_meter(L, 2 * units);
  luma_sp_drop_zeros(t, a, out);
  luma_meter_done(L, t);
  return 1;
}

/* ---------------------------------------------------------- products */

static int sparse_sparse(lua_State *L, const luma_Sparse *a, const luma_Sparse *b) {
  if (a->cols != b->rows) return inner_mismatch(L, 2, a->rows, a->cols, b->rows, b->cols);
  int64_t *indptr = scratch(L, ((size_t)a->rows + 1) * sizeof(int64_t));
  int64_t *marker = scratch(L, (size_t)b->cols * sizeof(int64_t));
  luma_Threads *t = pool_meter(L);
  int64_t nnz = luma_sp_matmul_count(t, a, b, indptr, marker);
  luma_meter_done(L, t);
  if (nnz > LUMA_MAX_ELEMENTS)
    return luma_arg_error(L, 2, "the product would hold %I entries, more than 2^40",
                          (lua_Integer)nnz);
  double *acc = scratch(L, (size_t)b->cols * sizeof(double));
  luma_Sparse *out = luma_sparse_new(L, a->rows, b->cols, nnz);
  memcpy(out->indptr, indptr, ((size_t)a->rows + 1) * sizeof(int64_t));
  t = pool_meter(L);
  luma_sp_matmul(t, a, b, out, marker, acc);
  luma_meter_done(L, t);
  return 1;
}

/* S:matmul(X [, out]) with S at 1 and X at 2. */
static int s_matmul(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luma_Sparse *b = luma_sparse_test(L, 2);
  if (b != NULL) {
    if (!lua_isnoneornil(L, 3))
      return luma_arg_error(L, 3, "a sparse x sparse product is sparse and takes no out");
    return sparse_sparse(L, a, b);
  }
  if (luma_matrix_test(L, 2) == NULL) return luaL_typeerror(L, 2, "luma.Matrix or luma.SparseMatrix");
  lua_settop(L, 3);
  luma_Mat bm = row_major_operand(L, 2);
  if (a->cols != bm.rows) return inner_mismatch(L, 2, a->rows, a->cols, bm.rows, bm.cols);
  luma_Mat *out = product_result(L, 3, a->rows, bm.cols, &bm);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows) * (uint64_t)bm.cols);
  luma_sp_matmul_dense(t, a, &bm, out);
  luma_meter_done(L, t);
  return 1;
}

int luma_sparse_dense_matmul(lua_State *L) {
  luma_Mat *a = luma_matrix_check(L, 1);
  luma_Sparse *b = check_sparse(L, 2);
  if (a->cols != b->rows) return inner_mismatch(L, 2, a->rows, a->cols, b->rows, b->cols);
  lua_settop(L, 3);
  luma_Mat *out = product_result(L, 3, a->rows, b->cols, a);
  uint64_t per_row = (uint64_t)(b->nnz + b->rows + b->cols);
  luma_Threads *t = luma_meter(L, per_row * (uint64_t)a->rows);
  luma_sp_dense_matmul(t, a, b, out);
  luma_meter_done(L, t);
  return 1;
}

/* S * x, x * S: a number scales, a matrix (sparse or dense) multiplies. */
static int s_mul(lua_State *L) {
  lua_settop(L, 2);
  if (lua_type(L, 1) == LUA_TNUMBER)
    return push_scaled(L, check_sparse(L, 2), LUMA_SP_ALL, lua_tonumber(L, 1), NULL);
  if (lua_type(L, 2) == LUA_TNUMBER)
    return push_scaled(L, check_sparse(L, 1), LUMA_SP_ALL, lua_tonumber(L, 2), NULL);
  if (luma_sparse_test(L, 1)) return s_matmul(L);
  if (luma_matrix_test(L, 1)) return luma_sparse_dense_matmul(L);
  return luaL_typeerror(L, 1, "luma.Matrix, luma.SparseMatrix or number");
}

static int s_len(lua_State *L) {
  lua_pushinteger(L, check_sparse(L, 1)->rows);
  return 1;
}

/* The entries printed by tostring, at most. */
#define SHOWN_ENTRIES 20

static int s_tostring(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  lua_pushfstring(L, "sparse matrix %I x %I (CSR), %I stored entr%s", (lua_Integer)a->rows,
                  (lua_Integer)a->cols, (lua_Integer)a->nnz, a->nnz == 1 ? "y" : "ies");
  luaL_addvalue(&b);
  luma_charge(L, SHOWN_ENTRIES * 8);
  int64_t shown = 0;
  char num[64];
  /* the rows holding the first entries: a binary search would find
   * them, but an empty prefix is walked at most to the first entry */
  for (int64_t i = 0; i < a->rows && shown < SHOWN_ENTRIES; i++) {
    if (i % 4096 == 0) luma_charge(L, 4096);
    for (int64_t k = a->indptr[i]; k < a->indptr[i + 1] && shown < SHOWN_ENTRIES; k++, shown++) {
      luma_snprintf_c(num, sizeof num, "%.10g", a->data[k]);
      lua_pushfstring(L, "\n  (%I, %I)  %s", (lua_Integer)(i + 1),
                      (lua_Integer)(a->indices[k] + 1), num);
      luaL_addvalue(&b);
    }
  }
  if (shown < a->nnz) luaL_addstring(&b, "\n  ...");
  luaL_pushresult(&b);
  return 1;
}

/* ------------------------------------------------------------ LIBSVM */

static const char *libsvm_fault(luma_LibsvmFault f) {
  switch (f) {
  case LUMA_LIBSVM_BAD_LABEL: return "the label is not a finite number";
  case LUMA_LIBSVM_BAD_TOKEN: return "expected index:value";
  case LUMA_LIBSVM_BAD_INDEX: return "a feature index is not in [1, 2^31 - 1] (LIBSVM indices start at 1)";
  case LUMA_LIBSVM_BAD_VALUE: return "a feature value is not a finite number";
  case LUMA_LIBSVM_UNORDERED: return "feature indices must increase along a line";
  default: return "stopped";
  }
}

/* read_libsvm(source [, {text = false, n_features = nil}]) -> X, y */
static int s_read_libsvm(lua_State *L) {
  size_t len;
  const char *source = luaL_checklstring(L, 1, &len);
  luma_check_options(L, 2, "text|n_features");
  int is_text = luma_opt_boolean(L, 2, "text", 0);
  lua_Integer n_features = luma_opt_integer(L, 2, "n_features", -1);
  if (n_features > LUMA_MAX_DIM)
    return luma_arg_error(L, 2, "n_features must be at most 2^31 - 1, got %I", n_features);
  lua_settop(L, 2);
  const char *text = source, *what = "the text";
  if (!is_text) {
    luma_check_unsandboxed(L, "read_libsvm");
    what = source;
    struct stat st;
    if (stat(source, &st) != 0)
      return luma_arg_error(L, 1, "cannot open %s (%s)", source, strerror(errno));
    if (!S_ISREG(st.st_mode)) return luma_arg_error(L, 1, "%s is not a regular file", source);
    len = (size_t)st.st_size;
    char *bytes = scratch(L, len + 1); /* sized before the file is opened: no FILE can leak */
    FILE *f = fopen(source, "rb");
    if (f == NULL) return luma_arg_error(L, 1, "cannot open %s (%s)", source, strerror(errno));
    size_t got = fread(bytes, 1, len, f);
    fclose(f);
    if (got != len) return luma_arg_error(L, 1, "cannot read %s (it changed size)", source);
    bytes[len] = '\0';
    text = bytes;
  }
  luma_LibsvmScan scan;
  luma_Threads *t = pool_meter(L);
  luma_libsvm_scan(t, text, len, &scan);
  luma_meter_done(L, t);
  if (scan.fault != LUMA_LIBSVM_OK) {
    if (scan.fault == LUMA_LIBSVM_UNORDERED || scan.fault == LUMA_LIBSVM_BAD_VALUE)
      return luma_arg_error(L, 1, "%s, line %I, feature %I: %s", what, (lua_Integer)scan.line,
                            (lua_Integer)scan.index, libsvm_fault(scan.fault));
    return luma_arg_error(L, 1, "%s, line %I: %s", what, (lua_Integer)scan.line,
                          libsvm_fault(scan.fault));
  }
  int64_t cols = scan.max_index;
  if (n_features >= 0) {
    if (scan.max_index > n_features)
      return luma_arg_error(L, 2, "%s has feature index %I but n_features is %I", what,
                            (lua_Integer)scan.max_index, n_features);
    cols = n_features;
  }
  luma_Sparse *x = luma_sparse_new(L, scan.rows, cols, scan.nnz);
  luma_Mat *y = luma_matrix_new(L, scan.rows, 1);
  t = pool_meter(L);
  luma_libsvm_fill(t, text, len, x, y->data);
  luma_meter_done(L, t);
  return 2;
}

/* ---------------------------------------------------------- registration */

static const luaL_Reg sparse_metamethods[] = {
    {"__tostring", s_tostring}, {"__len", s_len}, {"__mul", s_mul}, {NULL, NULL}};

static const luma_Func sparse_methods[] = {
    {"shape", s_shape, "S:shape() -> rows, cols", "Returns the number of rows and of columns."},
    {"rows", s_rows, "S:rows() -> integer", "Returns the number of rows (also #S)."},
    {"cols", s_cols, "S:cols() -> integer", "Returns the number of columns."},
    {"nnz", s_nnz, "S:nnz() -> integer",
     "Returns the number of stored entries (explicit zeros included; see eliminate_zeros)."},
    {"find", s_find, "S:find() -> i, j, v",
     "Returns the stored entries as three n x 1 columns: 1-based rows, 1-based columns and "
     "values, row by row and by column within a row (SciPy's find, MATLAB's [i, j, v] = "
     "find(S), stored zeros included)."},
    {"get", s_get, "S:get(i, j) -> number",
     "Returns element (i, j), 1-based: the stored value, or 0 (a binary search in row i)."},
    {"todense", s_todense, "S:todense([out = nil]) -> matrix",
     "Returns the dense luma.Matrix with S's elements (into out, rows x cols, if given)."},
    {"row", s_row, "S:row(i) -> sparse", "Returns row i as a new 1 x cols sparse matrix."},
    {"take", s_take, "S:take(indices) -> sparse",
     "Returns the rows listed in indices (a vector matrix or a table of 1-based row numbers, "
     "repeats allowed), in that order, as a new sparse matrix."},
    {"sub", s_sub, "S:sub([r1 = 1 [, r2 = rows]]) -> sparse",
     "Returns rows r1..r2 (inclusive, 1-based) as a new sparse matrix; rows only (a column "
     "range is an error)."},
    {"t", s_t, "S:t() -> sparse",
     "Returns the transpose as a new CSR matrix (a counting sort by column: S's CSC form read "
     "as the transpose's CSR), canonical."},
    {"sum", s_sum, "S:sum([dim = nil]) -> number | matrix",
     "Sum of all elements; dim 1: the column sums (a dense 1 x cols matrix); dim 2: the row "
     "sums (rows x 1)."},
    {"mean", s_mean, "S:mean([dim = nil]) -> number | matrix",
     "Mean of all elements, implicit zeros included (dim 1: per column, 1 x cols; dim 2: per "
     "row, rows x 1). An empty matrix's mean is nan."},
    {"norm", s_norm, "S:norm([kind = \"fro\"]) -> number",
     "The Frobenius norm, sqrt of the sum of squares (the only kind so far)."},
    {"scale", s_scale, "S:scale(alpha) -> sparse",
     "Returns alpha * S (also S * alpha and alpha * S); the structure is kept, zeros and all."},
    {"multiply_rows", s_multiply_rows, "S:multiply_rows(v) -> sparse",
     "Returns diag(v) * S: row i scaled by v[i] (v a vector matrix or table of rows numbers), "
     "as row normalizers do."},
    {"multiply_cols", s_multiply_cols, "S:multiply_cols(v) -> sparse",
     "Returns S * diag(v): column j scaled by v[j] (v of cols numbers), as TF-IDF weights "
     "columns."},
    {"eliminate_zeros", s_eliminate_zeros, "S:eliminate_zeros() -> sparse",
     "Returns a copy without the stored entries that are exactly zero (SciPy's "
     "eliminate_zeros works in place; sparse matrices here are immutable)."},
    {"matmul", s_matmul, "S:matmul(X [, out = nil]) -> matrix | sparse",
     "Matrix product. X dense (k x n): a dense result, threaded over blocks of S's rows and "
     "bit-identical for any thread count, into out if given. X sparse: a sparse result by "
     "Gustavson's algorithm (sorted columns, products that cancel kept as stored zeros). "
     "S * X is the same."},
    {NULL, NULL, NULL, NULL}};

static const luma_Type sparse_type = {
    "luma.SparseMatrix", sparse_methods, sparse_metamethods,
    "Sparse float64 matrix in compressed sparse row (CSR) form, 1-based, immutable (every "
    "operation returns a new matrix). Columns are sorted within each row with no duplicates; "
    "stored zeros are allowed until eliminate_zeros. Made by luma.sparse.csr, from_dense, "
    "eye, random and read_libsvm; docs/SPARSE.md.",
    NULL};

int luma_open_sparse(lua_State *L) {
  static const luma_Func funcs[] = {
      {"csr", s_csr, "csr(rows, cols, i, j, v) -> sparse",
       "A rows x cols CSR matrix from coordinates: entry k is v[k] at (i[k], j[k]), 1-based "
       "(i, j, v vector matrices or tables of equal length). Duplicate positions are summed, "
       "as SciPy does."},
      {"from_dense", s_from_dense, "from_dense(M [, tol = 0]) -> sparse",
       "The elements of the dense matrix M with |x| > tol (NaN kept: it is not zero)."},
      {"eye", s_eye, "eye(n [, m = n]) -> sparse", "The n x m sparse identity."},
      {"random", s_random, "random(rows, cols, density [, generator = luma.random.default()]) -> sparse",
       "A random sparse matrix with round(density * rows * cols) entries at uniformly chosen "
       "distinct positions, values uniform on [0, 1), drawn from generator (default: the "
       "state's), as scipy.sparse.random."},
      {"issparse", s_issparse, "issparse(x) -> boolean", "True if x is a luma.SparseMatrix."},
      {"dense_matmul", luma_sparse_dense_matmul, "dense_matmul(D, S [, out = nil]) -> matrix",
       "The dense product D * S of a dense D and a sparse S (also D:matmul(S) and D * S), "
       "threaded over D's rows, into out if given."},
      {"read_libsvm", s_read_libsvm,
       "read_libsvm(source [, {text = false, n_features = nil}]) -> X, y",
       "Reads LIBSVM / SVMlight data (\"label index:value ...\", 1-based increasing indices, "
       "'#' comments, qid ignored) from the file source, or from the string source itself "
       "with text = true. X is sparse (cols: the largest index, or n_features), y a rows x 1 "
       "matrix of labels. Malformed lines are errors naming the line."},
      {NULL, NULL, NULL, NULL}};
  luma_type_register(L, &sparse_type);
  lua_pop(L, 1);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.sparse", funcs);
  luma_doc_set(L, -1, "luma.sparse", NULL,
               "Sparse matrices in CSR form (luma.SparseMatrix): constructors csr, from_dense, "
               "eye, random, read_libsvm; products with dense and sparse matrices. Methods: "
               "help(\"luma.SparseMatrix\"). Modelled on scipy.sparse; docs/SPARSE.md.");
  return 1;
}
