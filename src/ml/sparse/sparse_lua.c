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
#include "core/matrix_ops.h"
#include "core/numtext.h"
#include "sparse/npz.h"
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

static const luma_Type csc_type;

/* The userdata of a rows x cols matrix whose compressed arrays have
 * `major` pointers (rows for CSR, cols for CSC) and nnz entries. */
static luma_Sparse *alloc_sparse(lua_State *L, int64_t rows, int64_t cols, int64_t nnz, int csc) {
  if (rows < 0 || cols < 0 || rows > LUMA_MAX_DIM || cols > LUMA_MAX_DIM || nnz < 0 ||
      nnz > LUMA_MAX_ELEMENTS || (double)nnz > (double)rows * (double)cols)
    luaL_error(L, "'%s' cannot create a %I x %I %s with %I entries (sizes must "
               "be >= 0, each at most 2^31 - 1, and the entries at most 2^40 and rows x cols)",
               running_function(L), (lua_Integer)rows, (lua_Integer)cols,
               csc ? "luma.SparseCSC" : "luma.SparseMatrix", (lua_Integer)nnz);
  int64_t major = csc ? cols : rows, minor = csc ? rows : cols;
  size_t bytes = ARRAYS_OFFSET + ((size_t)major + 1 + 2 * (size_t)nnz) * 8;
  SparseUD *ud = lua_newuserdatauv(L, bytes, 0);
  char *base = (char *)ud + ARRAYS_OFFSET;
  ud->m.rows = major;
  ud->m.cols = minor;
  ud->m.nnz = nnz;
  ud->m.indptr = (int64_t *)base;
  ud->m.indices = ud->m.indptr + major + 1;
  ud->m.data = (double *)(ud->m.indices + nnz);
  ud->m.indptr[0] = 0;
  luma_type_setmetatable(L, csc ? &csc_type : &sparse_type);
  return &ud->m;
}

luma_Sparse *luma_sparse_new(lua_State *L, int64_t rows, int64_t cols, int64_t nnz) {
  return alloc_sparse(L, rows, cols, nnz, 0);
}

luma_Sparse *luma_sparse_csc_new(lua_State *L, int64_t rows, int64_t cols, int64_t nnz) {
  return alloc_sparse(L, rows, cols, nnz, 1);
}

luma_Sparse *luma_sparse_csc_test(lua_State *L, int idx) {
  SparseUD *ud = luma_type_test(L, idx, &csc_type);
  return ud ? &ud->m : NULL;
}

static luma_Sparse *check_csc(lua_State *L, int arg) {
  return &((SparseUD *)luma_type_check(L, arg, &csc_type))->m;
}

/* Either kind at idx (*csc says which), or NULL. */
static luma_Sparse *test_any(lua_State *L, int idx, int *csc) {
  luma_Sparse *a = luma_sparse_test(L, idx);
  *csc = a == NULL;
  return a != NULL ? a : luma_sparse_csc_test(L, idx);
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
static luma_Sparse *push_copy_as(lua_State *L, const luma_Sparse *a, int csc) {
  luma_Sparse *c = csc ? luma_sparse_csc_new(L, a->cols, a->rows, a->nnz)
                       : luma_sparse_new(L, a->rows, a->cols, a->nnz);
  luma_charge(L, (uint64_t)(a->rows + 1 + 2 * a->nnz));
  memcpy(c->indptr, a->indptr, ((size_t)a->rows + 1) * sizeof(int64_t));
  memcpy(c->indices, a->indices, (size_t)a->nnz * sizeof(int64_t));
  memcpy(c->data, a->data, (size_t)a->nnz * sizeof(double));
  return c;
}

/* A new matrix of the other kind holding the same elements as a (its
 * arrays transposed by a counting sort): CSR to CSC or back. */
static luma_Sparse *push_converted(lua_State *L, const luma_Sparse *a, int to_csc) {
  luma_Sparse *out = to_csc ? luma_sparse_csc_new(L, a->rows, a->cols, a->nnz)
                            : luma_sparse_new(L, a->cols, a->rows, a->nnz);
  luma_Threads *t = luma_meter(L, 3 * (uint64_t)a->nnz + (uint64_t)(a->rows + a->cols));
  luma_sp_transpose(t, a, out);
  luma_meter_done(L, t);
  return out;
}

/* The matrix m read transposed (a view: strides swapped). */
static luma_Mat transposed(const luma_Mat *m) {
  luma_Mat v = *m;
  v.rows = m->cols;
  v.cols = m->rows;
  v.rs = m->cs;
  v.cs = m->rs;
  return v;
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

/* csr(rows, cols, i, j, v) and csc(...): a CSC matrix is built as the
 * CSR of its transpose (i and j swapped), so both share the sort.  With
 * one argument, a matrix of the other kind is converted. */
static int build(lua_State *L, int csc) {
  int other;
  luma_Sparse *given = test_any(L, 1, &other);
  if (given != NULL && lua_isnoneornil(L, 2)) {
    if (other == csc) { /* already of this kind: immutable, so itself */
      lua_settop(L, 1);
      return 1;
    }
    push_converted(L, given, csc);
    return 1;
  }
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
  int64_t major = csc ? cols : rows, minor = csc ? rows : cols;
  luma_Sparse tmp = scratch_csr(L, minor, major, n), out = scratch_csr(L, major, minor, n);
  luma_Threads *t = luma_meter(L, 6 * (uint64_t)n + (uint64_t)(rows + cols));
  luma_sp_from_coo(t, n, csc ? jj : ii, csc ? ii : jj, vv, &tmp, &out);
  luma_meter_done(L, t);
  push_copy_as(L, &out, csc);
  return 1;
}

static int s_csr(lua_State *L) { return build(L, 0); }
static int s_csc(lua_State *L) { return build(L, 1); }

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
  int csc;
  lua_pushboolean(L, test_any(L, 1, &csc) != NULL);
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

/* The 0-based inclusive range [*lo, *hi] from 1-based arguments at arg and
 * arg + 1 (absent: the whole extent n). */
static void check_range(lua_State *L, int arg, int64_t n, const char *first, const char *last,
                        int64_t *lo, int64_t *hi) {
  *lo = lua_isnoneornil(L, arg) ? 0 : luma_check_index(L, arg, first, n);
  *hi = lua_isnoneornil(L, arg + 1) ? n - 1 : luma_check_index(L, arg + 1, last, n);
  if (*hi < *lo && n > 0)
    luma_arg_error(L, arg + 1, "%s %I is before %s %I", last, (lua_Integer)(*hi + 1), first,
                   (lua_Integer)(*lo + 1));
}

/* Pushes the block of a's compressed arrays with majors [m1, m2] and
 * minors [n1, n2] (0-based, inclusive), of the same kind. */
static void push_block(lua_State *L, const luma_Sparse *a, int csc, int64_t m1, int64_t m2,
                       int64_t n1, int64_t n2) {
  int64_t nm = m2 - m1 + 1, nn = n2 - n1 + 1;
  if (nm < 0) nm = 0;
  if (nn < 0) nn = 0;
  luma_Sparse view = {nm, a->cols, a->indptr[m1 + nm] - a->indptr[m1], a->indptr + m1, a->indices,
                      a->data};
  uint64_t units = (uint64_t)(view.nnz + nm);
  luma_Threads *t = luma_meter(L, units);
  int64_t count = luma_sp_col_range_count(t, &view, n1, n1 + nn);
  luma_meter_done(L, t);
  luma_Sparse *out = csc ? luma_sparse_csc_new(L, nn, nm, count) : luma_sparse_new(L, nm, nn, count);
  t = luma_meter(L, 2 * units);
  luma_sp_col_range(t, &view, n1, n1 + nn, out);
  luma_meter_done(L, t);
}

/* S:sub([r1 [, r2 [, c1 [, c2]]]]): rows r1..r2, columns c1..c2, inclusive
 * and 1-based, for either kind. */
static int s_sub(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  int64_t rows = csc ? a->cols : a->rows, cols = csc ? a->rows : a->cols;
  int64_t r1, r2, c1, c2;
  check_range(L, 2, rows, "first row", "last row", &r1, &r2);
  check_range(L, 4, cols, "first column", "last column", &c1, &c2);
  if (csc)
    push_block(L, a, 1, c1, c2, r1, r2);
  else
    push_block(L, a, 0, r1, r2, c1, c2);
  return 1;
}

/* The columns listed at arg (1-based, repeats allowed) as 0-based
 * indices in a new scratch array. */
static int64_t *index_list(lua_State *L, int arg, int64_t n, int64_t *count) {
  luma_Mat idx = vector_arg(L, arg, "indices");
  *count = vec_len(&idx);
  int64_t *out = scratch(L, (size_t)*count * sizeof(int64_t));
  luma_charge(L, (uint64_t)*count);
  for (int64_t k = 0; k < *count; k++) out[k] = index_at(L, arg, &idx, k, n, "indices");
  return out;
}

/* Pushes the majors list[0..n-1] of a (rows of a CSR, columns of a CSC)
 * as a new matrix of the same kind. */
static void push_majors(lua_State *L, const luma_Sparse *a, int csc, const int64_t *list,
                        int64_t n) {
  luma_charge(L, (uint64_t)n);
  int64_t count = luma_sp_take_count(a, list, n);
  luma_Sparse *out = csc ? luma_sparse_csc_new(L, a->cols, n, count)
                         : luma_sparse_new(L, n, a->cols, count);
  luma_Threads *t = luma_meter(L, 2 * (uint64_t)out->nnz + (uint64_t)n);
  luma_sp_take(t, a, list, n, out);
  luma_meter_done(L, t);
}

/* S:take_cols(indices) for either kind: a CSC takes its compressed
 * columns directly; a CSR goes through its CSC form and back (three
 * passes over the entries, no sort). */
static int s_take_cols(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  lua_settop(L, 2);
  int64_t n;
  int64_t *list = index_list(L, 2, csc ? a->rows : a->cols, &n);
  if (csc) {
    push_majors(L, a, 1, list, n);
    return 1;
  }
  luma_Sparse *c = push_converted(L, a, 1);
  push_majors(L, c, 1, list, n);
  push_converted(L, luma_sparse_csc_test(L, -1), 0);
  return 1;
}

/* S:col(j): column j as a rows x 1 matrix of the same kind. */
static int s_col(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  int64_t j = luma_check_index(L, 2, "column", csc ? a->rows : a->cols);
  if (csc)
    push_block(L, a, 1, j, j, 0, a->cols - 1);
  else
    push_block(L, a, 0, 0, a->rows - 1, j, j);
  return 1;
}

static int s_format(lua_State *L) {
  int csc;
  if (test_any(L, 1, &csc) == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  lua_pushstring(L, csc ? "csc" : "csr");
  return 1;
}

static int s_tocsr(lua_State *L) {
  lua_settop(L, 1);
  return build(L, 0);
}

static int s_tocsc(lua_State *L) {
  lua_settop(L, 1);
  return build(L, 1);
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

/* S:norm([kind]): "fro", 1 (the largest column sum of |x|) or "inf" (the
 * largest row sum), as scipy.sparse.linalg.norm; either kind. */
static int s_norm(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  int dim = 0; /* 0: Frobenius, 1: over columns, 2: over rows */
  if (lua_type(L, 2) == LUA_TNUMBER) {
    double k = lua_tonumber(L, 2);
    if (k == 1) dim = 1;
    else if (isinf(k) && k > 0) dim = 2;
    else return luma_arg_error(L, 2, "unknown norm %f (valid: \"fro\", 1, \"inf\")", k);
  } else if (!lua_isnoneornil(L, 2)) {
    const char *kind = luaL_checkstring(L, 2);
    if (strcmp(kind, "inf") == 0) dim = 2;
    else if (strcmp(kind, "fro") != 0)
      return luma_arg_error(L, 2, "unknown norm '%s' (valid: \"fro\", 1, \"inf\")", kind);
  }
  if (dim == 0) {
    luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows));
    double s = luma_sp_sum_squares(t, a);
    luma_meter_done(L, t);
    lua_pushnumber(L, sqrt(s));
    return 1;
  }
  if (csc) dim = 3 - dim; /* the arrays hold the transpose */
  double *acc = dim == 1 ? scratch(L, (size_t)a->cols * sizeof(double)) : NULL;
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows + a->cols));
  double n = luma_sp_max_abs_sum(t, a, dim, acc);
  luma_meter_done(L, t);
  lua_pushnumber(L, n);
  return 1;
}

/* ---------------------------------------------------------- scaling */

static int push_scaled(lua_State *L, const luma_Sparse *a, int csc, int mode, double alpha,
                       const luma_Mat *v) {
  luma_Sparse *out = csc ? luma_sparse_csc_new(L, a->cols, a->rows, a->nnz)
                         : luma_sparse_new(L, a->rows, a->cols, a->nnz);
  luma_Threads *t = luma_meter(L, 3 * (uint64_t)a->nnz + (uint64_t)a->rows);
  luma_sp_scale(t, a, mode, alpha, v, out);
  luma_meter_done(L, t);
  return 1;
}

static int s_scale(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  return push_scaled(L, a, csc, LUMA_SP_ALL, luaL_checknumber(L, 2), NULL);
}

static int multiply_by(lua_State *L, int mode) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  lua_settop(L, 2);
  luma_Mat v = vector_arg(L, 2, "v");
  int64_t rows = csc ? a->cols : a->rows, cols = csc ? a->rows : a->cols;
  int64_t want = mode == LUMA_SP_ROWS ? rows : cols;
  if (vec_len(&v) != want)
    return luma_arg_error(L, 2, "v has %I elements but the matrix is %I x %I (%s)",
                          (lua_Integer)vec_len(&v), (lua_Integer)rows, (lua_Integer)cols,
                          mode == LUMA_SP_ROWS ? "one per row" : "one per column");
  if (csc) mode = mode == LUMA_SP_ROWS ? LUMA_SP_COLS : LUMA_SP_ROWS;
  return push_scaled(L, a, csc, mode, 1.0, &v);
}

static int s_multiply_rows(lua_State *L) { return multiply_by(L, LUMA_SP_ROWS); }
static int s_multiply_cols(lua_State *L) { return multiply_by(L, LUMA_SP_COLS); }

static int s_eliminate_zeros(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  uint64_t units = (uint64_t)(a->nnz + a->rows);
  luma_Threads *t = luma_meter(L, units);
  int64_t kept = luma_sp_count_nonzero(t, a);
  luma_meter_done(L, t);
  luma_Sparse *out = csc ? luma_sparse_csc_new(L, a->cols, a->rows, kept)
                         : luma_sparse_new(L, a->rows, a->cols, kept);
  t = luma_meter(L, 2 * units);
  luma_sp_drop_zeros(t, a, out);
  luma_meter_done(L, t);
  return 1;
}

/* ----------------------------------------------------- element-wise */

static int push_mapped(lua_State *L, int op, double p) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  luma_Sparse *out = csc ? luma_sparse_csc_new(L, a->cols, a->rows, a->nnz)
                         : luma_sparse_new(L, a->rows, a->cols, a->nnz);
  luma_Threads *t = luma_meter(L, 3 * (uint64_t)a->nnz + (uint64_t)a->rows);
  luma_sp_map(t, a, op, p, out);
  luma_meter_done(L, t);
  return 1;
}

static int s_abs(lua_State *L) { return push_mapped(L, LUMA_SP_ABS, 0); }

static int s_pow(lua_State *L) {
  double p = luma_check_finite(L, 2, "p");
  if (!(p > 0)) return luma_arg_error(L, 2, "p must be > 0 (0^p is not 0), got %f", p);
  return push_mapped(L, LUMA_SP_POW, p);
}

/* S:binarize([threshold = 0]): 1 where an element exceeds threshold; the
 * others are not stored (scikit-learn's binarize of a sparse matrix). */
static int s_binarize(lua_State *L) {
  double th = lua_isnoneornil(L, 2) ? 0.0 : luma_check_finite(L, 2, "threshold");
  if (th < 0)
    return luma_arg_error(L, 2, "threshold must be >= 0 for a sparse matrix (its zeros would "
                          "become 1), got %f", th);
  lua_settop(L, 1);
  push_mapped(L, LUMA_SP_GT, th);
  lua_replace(L, 1);
  return s_eliminate_zeros(L);
}

/* S:max([dim]) and S:min([dim]), implicit zeros included. */
static int extreme(lua_State *L, int want_max) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  int dim = opt_dim(L, 2);
  int whole = dim == 0;
  if (whole) dim = 2;
  int64_t rows = csc ? a->cols : a->rows, cols = csc ? a->rows : a->cols;
  luma_Mat *out = dim == 1 ? luma_matrix_new(L, 1, cols) : luma_matrix_new(L, rows, 1);
  luma_Mat view = csc ? transposed(out) : *out;
  int sdim = csc ? 3 - dim : dim;
  int64_t *count = scratch(L, (size_t)(sdim == 1 ? a->cols : a->rows) * sizeof(int64_t));
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows + a->cols));
  luma_sp_extreme(t, a, sdim, want_max, &view, count);
  luma_meter_done(L, t);
  lua_pop(L, 1);
  if (!whole) return 1;
  if (rows == 0 || cols == 0) {
    lua_pushnumber(L, NAN);
    return 1;
  }
  double best = out->data[0];
  for (int64_t i = 1; i < rows && !isnan(best); i++) {
    double v = out->data[i];
    if (isnan(v) || (want_max ? v > best : v < best)) best = v;
  }
  lua_pushnumber(L, best);
  return 1;
}

static int s_max(lua_State *L) { return extreme(L, 1); }
static int s_min(lua_State *L) { return extreme(L, 0); }

/* S:coo() -> i, j, v: the stored entries as three nnz x 1 matrices
 * (1-based positions), in storage order (by rows for CSR, by columns for
 * CSC). */
static int s_coo(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  luma_Mat *mi = luma_matrix_new(L, a->nnz, 1);
  luma_Mat *mj = luma_matrix_new(L, a->nnz, 1);
  luma_Mat *mv = luma_matrix_new(L, a->nnz, 1);
  luma_charge(L, 3 * (uint64_t)a->nnz + (uint64_t)a->rows);
  luma_Mat *major = csc ? mj : mi, *minor = csc ? mi : mj;
  for (int64_t r = 0; r < a->rows; r++)
    for (int64_t k = a->indptr[r]; k < a->indptr[r + 1]; k++) {
      major->data[k] = (double)(r + 1);
      minor->data[k] = (double)(a->indices[k] + 1);
      mv->data[k] = a->data[k];
    }
  return 3;
}

/* ---------------------------------------------------------- products */

static int sparse_sparse(lua_State *L, const luma_Sparse *a, const luma_Sparse *b) {
  if (a->cols != b->rows) return inner_mismatch(L, 2, a->rows, a->cols, b->rows, b->cols);
  /* a marker and an accumulator for each thread that may run rows */
  const int slots = luma_threads_count(L);
  const size_t per_slot = (size_t)b->cols > 0 ? (size_t)b->cols : 1;
  int64_t *indptr = scratch(L, ((size_t)a->rows + 1) * sizeof(int64_t));
  int64_t *marker = scratch(L, (size_t)slots * per_slot * sizeof(int64_t));
  luma_Threads *t = pool_meter(L);
  int64_t nnz = luma_sp_matmul_count(t, a, b, indptr, marker, slots);
  luma_meter_done(L, t);
  if (nnz > LUMA_MAX_ELEMENTS)
    return luma_arg_error(L, 2, "the product would hold %I entries, more than 2^40",
                          (lua_Integer)nnz);
  double *acc = scratch(L, (size_t)slots * per_slot * sizeof(double));
  luma_Sparse *out = luma_sparse_new(L, a->rows, b->cols, nnz);
  memcpy(out->indptr, indptr, ((size_t)a->rows + 1) * sizeof(int64_t));
  t = pool_meter(L);
  luma_sp_matmul(t, a, b, out, marker, acc, slots);
  luma_meter_done(L, t);
  return 1;
}

/* The dense product arrays^T * X for X dense at 2 (out at 3): a CSC times
 * a dense matrix, or S:tmatmul(X) = S^T X for a CSR S. */
static int tmatmul(lua_State *L, const luma_Sparse *a) {
  lua_settop(L, 3);
  luma_Mat bm = row_major_operand(L, 2);
  if (a->rows != bm.rows) return inner_mismatch(L, 2, a->cols, a->rows, bm.rows, bm.cols);
  luma_Mat *out = product_result(L, 3, a->cols, bm.cols, &bm);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows + a->cols) * (uint64_t)bm.cols);
  luma_sp_tmatmul_dense(t, a, &bm, out);
  luma_meter_done(L, t);
  return 1;
}

/* S:tmatmul(X [, out]) = S^T X for a dense X, without forming S^T (the
 * gradient X^T r of a linear model). */
static int s_tmatmul(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  luma_matrix_check(L, 2);
  if (!csc) return tmatmul(L, a);
  lua_settop(L, 3);
  luma_Mat bm = row_major_operand(L, 2);
  if (a->cols != bm.rows) return inner_mismatch(L, 2, a->rows, a->cols, bm.rows, bm.cols);
  luma_Mat *out = product_result(L, 3, a->rows, bm.cols, &bm);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows) * (uint64_t)bm.cols);
  luma_sp_matmul_dense(t, a, &bm, out);
  luma_meter_done(L, t);
  return 1;
}

/* S:matmul(X [, out]) with S at 1 and X at 2. */
static int s_matmul(lua_State *L) {
  int csc, bcsc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  luma_Sparse *b = test_any(L, 2, &bcsc);
  if (b != NULL) {
    if (!lua_isnoneornil(L, 3))
      return luma_arg_error(L, 3, "a sparse x sparse product is sparse and takes no out");
    lua_settop(L, 2);
    /* Gustavson's algorithm reads both as CSR */
    if (csc) a = push_converted(L, a, 0);
    if (bcsc) b = push_converted(L, b, 0);
    return sparse_sparse(L, a, b);
  }
  if (luma_matrix_test(L, 2) == NULL)
    return luaL_typeerror(L, 2, "luma.Matrix, luma.SparseMatrix or luma.SparseCSC");
  if (csc) return tmatmul(L, a);
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
  int csc;
  luma_Sparse *b = test_any(L, 2, &csc);
  if (b == NULL) return luaL_typeerror(L, 2, "luma.SparseMatrix or luma.SparseCSC");
  if (csc) { /* D * C = D * (arrays)^T */
    if (a->cols != b->cols) return inner_mismatch(L, 2, a->rows, a->cols, b->cols, b->rows);
    lua_settop(L, 3);
    luma_Mat *out = product_result(L, 3, a->rows, b->rows, a);
    luma_Threads *t = luma_meter(L, (uint64_t)(b->nnz + b->rows) * (uint64_t)a->rows);
    luma_sp_dense_tmatmul(t, a, b, out);
    luma_meter_done(L, t);
    return 1;
  }
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
  int csc;
  if (lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 2) == LUA_TNUMBER) {
    int num = lua_type(L, 1) == LUA_TNUMBER ? 1 : 2;
    luma_Sparse *a = test_any(L, 3 - num, &csc);
    if (a == NULL) return luaL_typeerror(L, 3 - num, "luma.SparseMatrix or luma.SparseCSC");
    return push_scaled(L, a, csc, LUMA_SP_ALL, lua_tonumber(L, num), NULL);
  }
  if (test_any(L, 1, &csc)) return s_matmul(L);
  if (luma_matrix_test(L, 1)) return luma_sparse_dense_matmul(L);
  return luaL_typeerror(L, 1, "luma.Matrix, luma.SparseMatrix or number");
}

/* ---------------------------------------------- element-wise arithmetic */

/* The shape a sparse matrix has (a CSC's arrays are its transpose's). */
static void logical_shape(const luma_Sparse *a, int csc, int64_t *rows, int64_t *cols) {
  *rows = csc ? a->cols : a->rows;
  *cols = csc ? a->rows : a->cols;
}

static int shape_mismatch(lua_State *L, int arg, const char *verb, int64_t r1, int64_t c1,
                          int64_t r2, int64_t c2) {
  return luma_arg_error(L, arg, "cannot %s a %I x %I and a %I x %I matrix element-wise", verb,
                        (lua_Integer)r1, (lua_Integer)c1, (lua_Integer)r2, (lua_Integer)c2);
}

/* a op b for the sparse matrices at 1 and 2: sparse, in the first one's
 * format (the second is converted when the formats differ, as SciPy
 * converts to the left operand's). */
static int sparse_binop(lua_State *L, int op, const char *verb) {
  int acsc, bcsc;
  luma_Sparse *a = test_any(L, 1, &acsc), *b = test_any(L, 2, &bcsc);
  int64_t rows, cols, brows, bcols;
  logical_shape(a, acsc, &rows, &cols);
  logical_shape(b, bcsc, &brows, &bcols);
  if (rows != brows || cols != bcols) return shape_mismatch(L, 2, verb, rows, cols, brows, bcols);
  lua_settop(L, 2);
  if (acsc != bcsc) b = push_converted(L, b, acsc);
  int64_t *indptr = scratch(L, ((size_t)a->rows + 1) * sizeof(int64_t));
  uint64_t units = (uint64_t)(a->nnz + b->nnz + a->rows);
  luma_Threads *t = luma_meter(L, units);
  int64_t nnz = luma_sp_binop_count(t, a, b, op, indptr);
  luma_meter_done(L, t);
  luma_Sparse *out = acsc ? luma_sparse_csc_new(L, rows, cols, nnz)
                          : luma_sparse_new(L, rows, cols, nnz);
  memcpy(out->indptr, indptr, ((size_t)a->rows + 1) * sizeof(int64_t));
  t = luma_meter(L, units);
  luma_sp_binop(t, a, b, op, out);
  luma_meter_done(L, t);
  return 1;
}

/* dense_sign * D + sparse_sign * S as a new dense matrix, for the dense D
 * and sparse S at the given indices (SciPy's sum of a sparse and a dense
 * matrix is dense too). */
static int dense_sum(lua_State *L, int dense_idx, double dense_sign, int sparse_idx,
                     double sparse_sign, const char *verb) {
  luma_Mat *d = luma_matrix_check(L, dense_idx);
  int csc;
  luma_Sparse *a = test_any(L, sparse_idx, &csc);
  int64_t rows, cols;
  logical_shape(a, csc, &rows, &cols);
  if (d->rows != rows || d->cols != cols)
    return dense_idx == 1 ? shape_mismatch(L, 2, verb, d->rows, d->cols, rows, cols)
                          : shape_mismatch(L, 2, verb, rows, cols, d->rows, d->cols);
  luma_Mat *out = luma_matrix_new(L, rows, cols);
  luma_charge(L, (uint64_t)(rows * cols));
  luma_mat_scale(d, dense_sign, out);
  luma_Mat view = csc ? transposed(out) : *out;
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows));
  luma_sp_axpy_dense(t, a, sparse_sign, &view);
  luma_meter_done(L, t);
  return 1;
}

int luma_sparse_arith(lua_State *L, int subtract) {
  lua_settop(L, 2);
  const char *verb = subtract ? "subtract" : "add";
  int csc1, csc2;
  luma_Sparse *a = test_any(L, 1, &csc1), *b = test_any(L, 2, &csc2);
  if (a != NULL && b != NULL) return sparse_binop(L, subtract ? LUMA_SP_SUB : LUMA_SP_ADD, verb);
  double sign = subtract ? -1.0 : 1.0;
  if (a != NULL && luma_matrix_test(L, 2)) return dense_sum(L, 2, sign, 1, 1.0, verb);
  if (b != NULL && luma_matrix_test(L, 1)) return dense_sum(L, 1, 1.0, 2, sign, verb);
  int num = lua_type(L, 1) == LUA_TNUMBER ? 1 : lua_type(L, 2) == LUA_TNUMBER ? 2 : 0;
  luma_Sparse *s = num == 1 ? b : a;
  int csc = num == 1 ? csc2 : csc1;
  if (num != 0 && s != NULL) {
    if (lua_tonumber(L, num) != 0)
      return luma_arg_error(L, num, "cannot %s a nonzero number and a sparse matrix (every "
                            "element would become stored): use S:todense()", verb);
    return push_scaled(L, s, csc, LUMA_SP_ALL, num == 1 ? sign : 1.0, NULL); /* 0 - S = -S */
  }
  return luaL_typeerror(L, a == NULL ? 1 : 2, "luma.SparseMatrix, luma.SparseCSC, luma.Matrix or 0");
}

static int s_add(lua_State *L) { return luma_sparse_arith(L, 0); }
static int s_subtract(lua_State *L) { return luma_sparse_arith(L, 1); }

static int s_unm(lua_State *L) {
  int csc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  return push_scaled(L, a, csc, LUMA_SP_ALL, -1.0, NULL);
}

/* S:multiply(x): element-wise product, as SciPy's multiply: a number
 * scales, a sparse matrix of S's shape keeps the positions stored in
 * both, a dense one of S's shape gives S's structure, and a dense row
 * (1 x cols) or column (rows x 1) broadcasts as multiply_cols and
 * multiply_rows do. */
static int s_multiply(lua_State *L) {
  int csc, bcsc;
  luma_Sparse *a = test_any(L, 1, &csc);
  if (a == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  lua_settop(L, 2);
  if (lua_type(L, 2) == LUA_TNUMBER)
    return push_scaled(L, a, csc, LUMA_SP_ALL, lua_tonumber(L, 2), NULL);
  if (test_any(L, 2, &bcsc) != NULL) return sparse_binop(L, LUMA_SP_MUL, "multiply");
  luma_Mat *d = luma_matrix_test(L, 2);
  if (d == NULL)
    return luaL_typeerror(L, 2, "number, luma.Matrix, luma.SparseMatrix or luma.SparseCSC");
  int64_t rows, cols;
  logical_shape(a, csc, &rows, &cols);
  if (d->rows == rows && d->cols == cols) {
    luma_Sparse *out = csc ? luma_sparse_csc_new(L, rows, cols, a->nnz)
                           : luma_sparse_new(L, rows, cols, a->nnz);
    luma_Mat view = csc ? transposed(d) : *d;
    luma_Threads *t = luma_meter(L, 3 * (uint64_t)a->nnz + (uint64_t)a->rows);
    luma_sp_mul_dense(t, a, &view, out);
    luma_meter_done(L, t);
    return 1;
  }
  if (d->rows == 1 && d->cols == cols) return s_multiply_cols(L);
  if (d->cols == 1 && d->rows == rows) return s_multiply_rows(L);
  return shape_mismatch(L, 2, "multiply", rows, cols, d->rows, d->cols);
}

/* S:maximum(T), S:minimum(T): element-wise, implicit zeros included. */
static int extremum(lua_State *L, int op, const char *verb) {
  int csc, bcsc;
  if (test_any(L, 1, &csc) == NULL) return luaL_typeerror(L, 1, "luma.SparseMatrix or luma.SparseCSC");
  if (test_any(L, 2, &bcsc) == NULL) return luaL_typeerror(L, 2, "luma.SparseMatrix or luma.SparseCSC");
  return sparse_binop(L, op, verb);
}

static int s_maximum(lua_State *L) { return extremum(L, LUMA_SP_MAX, "take the maximum of"); }
static int s_minimum(lua_State *L) { return extremum(L, LUMA_SP_MIN, "take the minimum of"); }

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

/* ------------------------------------------------------------- CSC */

/* A CSC matrix's arrays are the CSR of its transpose: a->rows is its
 * column count, a->cols its row count. */

static int c_shape(lua_State *L) {
  luma_Sparse *a = check_csc(L, 1);
  lua_pushinteger(L, a->cols);
  lua_pushinteger(L, a->rows);
  return 2;
}

static int c_rows(lua_State *L) {
  lua_pushinteger(L, check_csc(L, 1)->cols);
  return 1;
}

static int c_cols(lua_State *L) {
  lua_pushinteger(L, check_csc(L, 1)->rows);
  return 1;
}

static int c_nnz(lua_State *L) {
  lua_pushinteger(L, check_csc(L, 1)->nnz);
  return 1;
}

static int c_get(lua_State *L) {
  luma_Sparse *a = check_csc(L, 1);
  int64_t i = luma_check_index(L, 2, "row", a->cols), j = luma_check_index(L, 3, "column", a->rows);
  lua_pushnumber(L, luma_sp_get(a, j, i));
  return 1;
}

static int c_todense(lua_State *L) {
  luma_Sparse *a = check_csc(L, 1);
  luma_Mat *out = luma_matrix_result(L, 2, a->cols, a->rows);
  luma_Mat view = transposed(out);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->rows * a->cols + a->nnz + a->rows));
  luma_sp_to_dense(t, a, &view);
  luma_meter_done(L, t);
  return 1;
}

/* C:t(): the same arrays read as a CSR (SciPy's csc.T is a csr_matrix). */
static int c_t(lua_State *L) {
  push_copy_as(L, check_csc(L, 1), 0);
  return 1;
}

static int c_reduce(lua_State *L, int mean) {
  luma_Sparse *a = check_csc(L, 1);
  int dim = opt_dim(L, 2);
  if (dim == 0) {
    luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows));
    double s = luma_sp_sum(t, a);
    luma_meter_done(L, t);
    lua_pushnumber(L, mean ? s / ((double)a->rows * (double)a->cols) : s);
    return 1;
  }
  /* column sums (dim 1) are the arrays' row sums, written through a
   * transposed view of the 1 x cols result */
  luma_Mat *out = dim == 1 ? luma_matrix_new(L, 1, a->rows) : luma_matrix_new(L, a->cols, 1);
  luma_Mat view = transposed(out);
  luma_Threads *t = luma_meter(L, (uint64_t)(a->nnz + a->rows + a->cols));
  luma_sp_sum_dim(t, a, 3 - dim, &view);
  luma_meter_done(L, t);
  if (mean) {
    double n = dim == 1 ? (double)a->cols : (double)a->rows;
    int64_t len = out->rows * out->cols;
    for (int64_t k = 0; k < len; k++) out->data[k] /= n;
  }
  return 1;
}

static int c_sum(lua_State *L) { return c_reduce(L, 0); }
static int c_mean(lua_State *L) { return c_reduce(L, 1); }

/* C:take(indices): rows, through the CSR form (row selection is the
 * CSR's; cross-validation splits select rows). */
static int c_take(lua_State *L) {
  luma_Sparse *a = check_csc(L, 1);
  lua_settop(L, 2);
  luma_Mat idx = vector_arg(L, 2, "indices");
  int64_t n = vec_len(&idx);
  int64_t *rows = scratch(L, (size_t)n * sizeof(int64_t));
  luma_charge(L, (uint64_t)n);
  for (int64_t k = 0; k < n; k++) rows[k] = index_at(L, 2, &idx, k, a->cols, "indices");
  luma_Sparse *r = push_converted(L, a, 0);
  push_rows(L, r, rows, n);
  push_converted(L, luma_sparse_test(L, -1), 1);
  return 1;
}

static int c_len(lua_State *L) {
  lua_pushinteger(L, check_csc(L, 1)->cols);
  return 1;
}

static int c_tostring(lua_State *L) {
  luma_Sparse *a = check_csc(L, 1);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  lua_pushfstring(L, "sparse matrix %I x %I (CSC), %I stored entr%s", (lua_Integer)a->cols,
                  (lua_Integer)a->rows, (lua_Integer)a->nnz, a->nnz == 1 ? "y" : "ies");
  luaL_addvalue(&b);
  luma_charge(L, SHOWN_ENTRIES * 8);
  int64_t shown = 0;
  char num[64];
  for (int64_t j = 0; j < a->rows && shown < SHOWN_ENTRIES; j++) {
    if (j % 4096 == 0) luma_charge(L, 4096);
    for (int64_t k = a->indptr[j]; k < a->indptr[j + 1] && shown < SHOWN_ENTRIES; k++, shown++) {
      luma_snprintf_c(num, sizeof num, "%.10g", a->data[k]);
      lua_pushfstring(L, "\n  (%I, %I)  %s", (lua_Integer)(a->indices[k] + 1),
                      (lua_Integer)(j + 1), num);
      luaL_addvalue(&b);
    }
  }
  if (shown < a->nnz) luaL_addstring(&b, "\n  ...");
  luaL_pushresult(&b);
  return 1;
}

/* The bytes of the file at path (argument arg), '\0'-terminated, in a
 * scratch buffer left on the stack. */
static char *read_file(lua_State *L, int arg, const char *path, size_t *len) {
  struct stat st;
  if (stat(path, &st) != 0) luma_arg_error(L, arg, "cannot open %s (%s)", path, strerror(errno));
  if (!S_ISREG(st.st_mode)) luma_arg_error(L, arg, "%s is not a regular file", path);
  *len = (size_t)st.st_size;
  char *bytes = scratch(L, *len + 1); /* sized before the file is opened: no FILE can leak */
  FILE *f = fopen(path, "rb");
  if (f == NULL) luma_arg_error(L, arg, "cannot open %s (%s)", path, strerror(errno));
  size_t got = fread(bytes, 1, *len, f);
  fclose(f);
  if (got != *len) luma_arg_error(L, arg, "cannot read %s (it changed size)", path);
  bytes[*len] = '\0';
  return bytes;
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
    text = read_file(L, 1, source, &len);
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

/* --------------------------------------------------------------- .npz */

/* One array of an .npz: the member name.npy extracted and parsed. */
typedef struct NpzArray {
  const unsigned char *bytes;
  luma_NpzNpy npy;
} NpzArray;

static int npz_array(lua_State *L, const unsigned char *zip, size_t len, const char *what,
                     const char *name, NpzArray *a, int required) {
  char member[32];
  snprintf(member, sizeof member, "%s.npy", name);
  luma_ZipMember m;
  const char *fault = luma_zip_find(zip, len, member, &m);
  if (fault != NULL && strcmp(fault, "missing member") == 0) {
    if (!required) return 0;
    luma_arg_error(L, 1, "%s is not a scipy.sparse .npz (no member %s)", what, member);
  }
  if (fault != NULL) luma_arg_error(L, 1, "%s: %s (member %s)", what, fault, member);
  if (m.size > (uint64_t)LUMA_MAX_ELEMENTS * 8 + 4096)
    luma_arg_error(L, 1, "%s: member %s is impossibly large", what, member);
  unsigned char *out = scratch(L, (size_t)m.size);
  luma_charge(L, m.packed + m.size);
  fault = luma_zip_extract(zip, len, &m, out);
  if (fault != NULL) luma_arg_error(L, 1, "%s: %s (member %s)", what, fault, member);
  fault = luma_npz_parse_npy(out, (size_t)m.size, &a->npy);
  if (fault != NULL) luma_arg_error(L, 1, "%s: %s (member %s)", what, fault, member);
  if (a->npy.big_endian || a->npy.fortran)
    luma_arg_error(L, 1, "%s: %s has dtype %s%s; only little-endian C-order arrays are read", what,
                   member, a->npy.descr, a->npy.fortran ? " in Fortran order" : "");
  a->bytes = out;
  return 1;
}

/* An array of integers (indices, indptr, shape, row, col), 1-D. */
static void npz_int_array(lua_State *L, const char *what, const char *name, const NpzArray *a) {
  char k = a->npy.kind;
  if (!((k == 'i' || k == 'u') && (a->npy.size == 1 || a->npy.size == 2 || a->npy.size == 4 ||
                                    a->npy.size == 8)))
    luma_arg_error(L, 1, "%s: %s.npy has dtype %s, not an integer type", what, name, a->npy.descr);
  if (a->npy.ndim != 1)
    luma_arg_error(L, 1, "%s: %s.npy has %d dimensions, not 1", what, name, a->npy.ndim);
}

/* read_npz(source [, {bytes = false}]) -> sparse (CSR or CSC; COO as CSR) */
static int s_read_npz(lua_State *L) {
  size_t len;
  const char *source = luaL_checklstring(L, 1, &len);
  luma_check_options(L, 2, "bytes");
  int is_bytes = luma_opt_boolean(L, 2, "bytes", 0);
  lua_settop(L, 2);
  const unsigned char *zip = (const unsigned char *)source;
  const char *what = "the bytes";
  if (!is_bytes) {
    luma_check_unsandboxed(L, "read_npz");
    what = source;
    zip = (const unsigned char *)read_file(L, 1, source, &len);
  }
  NpzArray fmt, shape, data, ind, ptr;
  npz_array(L, zip, len, what, "format", &fmt, 1);
  char format[4] = {0};
  if (fmt.npy.kind != 'S' || fmt.npy.ndim != 0 || fmt.npy.size > 3)
    return luma_arg_error(L, 1, "%s: format.npy is not a bytes scalar such as b'csr' (dtype %s)",
                          what, fmt.npy.descr);
  memcpy(format, fmt.bytes + fmt.npy.data, (size_t)fmt.npy.size);
  int csc = strcmp(format, "csc") == 0, coo = strcmp(format, "coo") == 0;
  if (!csc && !coo && strcmp(format, "csr") != 0)
    return luma_arg_error(L, 1, "%s holds a '%s' matrix; read_npz reads csr, csc and coo", what,
                          format);
  npz_array(L, zip, len, what, "shape", &shape, 1);
  npz_int_array(L, what, "shape", &shape);
  if (shape.npy.count != 2)
    return luma_arg_error(L, 1, "%s: shape.npy has %I elements, not 2", what,
                          (lua_Integer)shape.npy.count);
  int64_t rows = luma_npz_int(&shape.npy, shape.bytes, 0), cols = luma_npz_int(&shape.npy, shape.bytes, 1);
  if (rows < 0 || cols < 0 || rows > LUMA_MAX_DIM || cols > LUMA_MAX_DIM)
    return luma_arg_error(L, 1, "%s: shape (%I, %I) is out of range [0, 2^31 - 1]", what,
                          (lua_Integer)rows, (lua_Integer)cols);
  npz_array(L, zip, len, what, "data", &data, 1);
  char k = data.npy.kind;
  if (!((k == 'f' && (data.npy.size == 4 || data.npy.size == 8)) ||
        ((k == 'i' || k == 'u') && (data.npy.size == 1 || data.npy.size == 2 || data.npy.size == 4 ||
                                     data.npy.size == 8)) ||
        (k == 'b' && data.npy.size == 1)))
    return luma_arg_error(L, 1, "%s: data.npy has dtype %s; read_npz reads float, integer and "
                          "bool data (as float64)", what, data.npy.descr);
  if (data.npy.ndim != 1)
    return luma_arg_error(L, 1, "%s: data.npy has %d dimensions, not 1", what, data.npy.ndim);
  int64_t nnz = (int64_t)data.npy.count;
  if (nnz > LUMA_MAX_ELEMENTS || (double)nnz > (double)rows * (double)cols)
    return luma_arg_error(L, 1, "%s: %I entries do not fit a %I x %I matrix", what, (lua_Integer)nnz,
                          (lua_Integer)rows, (lua_Integer)cols);
  if (coo) {
    NpzArray r, c;
    npz_array(L, zip, len, what, "row", &r, 1);
    npz_array(L, zip, len, what, "col", &c, 1);
    npz_int_array(L, what, "row", &r);
    npz_int_array(L, what, "col", &c);
    if ((int64_t)r.npy.count != nnz || (int64_t)c.npy.count != nnz)
      return luma_arg_error(L, 1, "%s: row, col and data have %I, %I and %I elements", what,
                            (lua_Integer)r.npy.count, (lua_Integer)c.npy.count, (lua_Integer)nnz);
    int64_t *ii = scratch(L, (size_t)nnz * sizeof(int64_t));
    int64_t *jj = scratch(L, (size_t)nnz * sizeof(int64_t));
    double *vv = scratch(L, (size_t)nnz * sizeof(double));
    luma_charge(L, 3 * (uint64_t)nnz);
    for (int64_t e = 0; e < nnz; e++) {
      ii[e] = luma_npz_int(&r.npy, r.bytes, (uint64_t)e);
      jj[e] = luma_npz_int(&c.npy, c.bytes, (uint64_t)e);
      if (ii[e] < 0 || ii[e] >= rows || jj[e] < 0 || jj[e] >= cols)
        return luma_arg_error(L, 1, "%s: entry %I is at (%I, %I), outside the %I x %I shape "
                              "(0-based)", what, (lua_Integer)(e + 1), (lua_Integer)ii[e],
                              (lua_Integer)jj[e], (lua_Integer)rows, (lua_Integer)cols);
      vv[e] = luma_npz_float(&data.npy, data.bytes, (uint64_t)e);
    }
    luma_Sparse tmp = scratch_csr(L, cols, rows, nnz), out = scratch_csr(L, rows, cols, nnz);
    luma_Threads *t = luma_meter(L, 6 * (uint64_t)nnz + (uint64_t)(rows + cols));
    luma_sp_from_coo(t, nnz, ii, jj, vv, &tmp, &out);
    luma_meter_done(L, t);
    push_copy_as(L, &out, 0);
    return 1;
  }
  npz_array(L, zip, len, what, "indices", &ind, 1);
  npz_array(L, zip, len, what, "indptr", &ptr, 1);
  npz_int_array(L, what, "indices", &ind);
  npz_int_array(L, what, "indptr", &ptr);
  int64_t major = csc ? cols : rows, minor = csc ? rows : cols;
  if ((int64_t)ptr.npy.count != major + 1)
    return luma_arg_error(L, 1, "%s: indptr has %I elements but a %I x %I %s matrix needs %I", what,
                          (lua_Integer)ptr.npy.count, (lua_Integer)rows, (lua_Integer)cols, format,
                          (lua_Integer)(major + 1));
  if ((int64_t)ind.npy.count != nnz)
    return luma_arg_error(L, 1, "%s: indices has %I elements but data has %I", what,
                          (lua_Integer)ind.npy.count, (lua_Integer)nnz);
  luma_Sparse *s = alloc_sparse(L, rows, cols, nnz, csc);
  luma_charge(L, (uint64_t)(major + 1 + 2 * nnz));
  for (int64_t i = 0; i <= major; i++) s->indptr[i] = luma_npz_int(&ptr.npy, ptr.bytes, (uint64_t)i);
  for (int64_t e = 0; e < nnz; e++) {
    s->indices[e] = luma_npz_int(&ind.npy, ind.bytes, (uint64_t)e);
    s->data[e] = luma_npz_float(&data.npy, data.bytes, (uint64_t)e);
  }
  int64_t where;
  luma_Threads *t = luma_meter(L, (uint64_t)(major + 1 + nnz));
  luma_SpFault fault = luma_sp_validate(t, s, &where);
  luma_meter_done(L, t);
  const char *line = csc ? "column" : "row", *other = csc ? "row" : "column";
  switch (fault) {
  case LUMA_SP_OK: return 1;
  case LUMA_SP_BAD_START: return luma_arg_error(L, 1, "%s: indptr does not start at 0", what);
  case LUMA_SP_NOT_MONOTONE:
    return luma_arg_error(L, 1, "%s: indptr decreases at %s %I", what, line, (lua_Integer)(where + 1));
  case LUMA_SP_BAD_END:
    return luma_arg_error(L, 1, "%s: indptr ends at %I but there are %I entries", what,
                          (lua_Integer)s->indptr[major], (lua_Integer)nnz);
  case LUMA_SP_OUT_OF_RANGE:
    return luma_arg_error(L, 1, "%s: entry %I has %s index %I, outside [0, %I)", what,
                          (lua_Integer)(where + 1), other, (lua_Integer)s->indices[where],
                          (lua_Integer)minor);
  case LUMA_SP_UNSORTED: break;
  }
  /* SciPy allows unsorted and duplicate indices (has_canonical_format
   * false): rebuild through the COO sort, which sums duplicates */
  int64_t *ii = scratch(L, (size_t)nnz * sizeof(int64_t));
  luma_charge(L, (uint64_t)(nnz + major));
  for (int64_t i = 0; i < major; i++)
    for (int64_t e = s->indptr[i]; e < s->indptr[i + 1]; e++) ii[e] = i;
  luma_Sparse tmp = scratch_csr(L, minor, major, nnz), out = scratch_csr(L, major, minor, nnz);
  t = luma_meter(L, 6 * (uint64_t)nnz + (uint64_t)(rows + cols));
  luma_sp_from_coo(t, nnz, ii, s->indices, s->data, &tmp, &out);
  luma_meter_done(L, t);
  push_copy_as(L, &out, csc);
  return 1;
}

/* Appends name.npy: numpy.save's header and the elements (little-endian
 * int32, int64 or float64, or the 3 bytes of the format). */
static void npz_put(lua_State *L, luma_ZipWriter *w, const char *name, const char *descr, int ndim,
                    const void *src, int64_t n, int kind, int deflate) {
  char header[128];
  size_t h = luma_npz_npy_header(header, descr, ndim, (uint64_t)n);
  size_t esize = kind == 4 ? 4 : kind == 3 ? 3 : 8;
  size_t bytes = h + (size_t)n * esize;
  unsigned char *buf = scratch(L, bytes);
  luma_charge(L, 2 * (uint64_t)n);
  memcpy(buf, header, h);
  unsigned char *p = buf + h;
  for (int64_t k = 0; k < n; k++) {
    uint64_t bits;
    if (kind == 8) {
      memcpy(&bits, (const double *)src + k, 8);
    } else if (kind == 3) {
      memcpy(p, src, 3);
      break;
    } else {
      bits = (uint64_t)((const int64_t *)src)[k];
    }
    for (size_t b = 0; b < esize; b++) p[(size_t)k * esize + b] = (unsigned char)(bits >> (8 * b));
  }
  char member[32];
  snprintf(member, sizeof member, "%s.npy", name);
  const char *fault = luma_zip_add(w, member, buf, bytes, deflate);
  lua_pop(L, 1);
  if (fault != NULL) luaL_error(L, "'%s': %s", running_function(L), fault);
}

/* Builds the archive of the sparse matrix at arg; pushes a scratch
 * buffer and returns the writer over it. */
static luma_ZipWriter npz_build(lua_State *L, int arg, int opts) {
  int csc;
  luma_Sparse *a = test_any(L, arg, &csc);
  if (a == NULL) luaL_typeerror(L, arg, "luma.SparseMatrix or luma.SparseCSC");
  luma_check_options(L, opts, "compressed");
  int deflate = luma_opt_boolean(L, opts, "compressed", 1);
#ifndef LUMA_HAVE_ZLIB
  if (deflate)
    luma_arg_error(L, opts, "compressed .npz needs zlib, and this Luma was built without it "
                   "(pass {compressed = false})");
#endif
  int64_t major = a->rows, rows = csc ? a->cols : a->rows, cols = csc ? a->rows : a->cols;
  /* SciPy's index dtype: int32 while every index and count fits */
  int64_t biggest = a->nnz > rows ? a->nnz : rows;
  if (cols > biggest) biggest = cols;
  int wide = biggest > 2147483647;
  const char *idescr = wide ? "<i8" : "<i4";
  int ikind = wide ? 7 : 4;
  size_t isize = wide ? 8 : 4;
  size_t cap = luma_zip_bound(128 + (size_t)a->nnz * isize, 11, deflate) +
               luma_zip_bound(128 + ((size_t)major + 1) * isize, 10, deflate) +
               luma_zip_bound(128 + 3, 10, deflate) + luma_zip_bound(128 + 16, 9, deflate) +
               luma_zip_bound(128 + (size_t)a->nnz * 8, 8, deflate) + luma_zip_tail_bound(5);
  luma_ZipWriter w;
  memset(&w, 0, sizeof w);
  w.buf = scratch(L, cap);
  w.cap = cap;
  int64_t shape[2] = {rows, cols};
  npz_put(L, &w, "indices", idescr, 1, a->indices, a->nnz, ikind, deflate);
  npz_put(L, &w, "indptr", idescr, 1, a->indptr, major + 1, ikind, deflate);
  npz_put(L, &w, "format", "|S3", 0, csc ? "csc" : "csr", 1, 3, deflate);
  npz_put(L, &w, "shape", "<i8", 1, shape, 2, 7, deflate);
  npz_put(L, &w, "data", "<f8", 1, a->data, a->nnz, 8, deflate);
  luma_zip_finish(&w);
  return w;
}

/* write_npz(path, S [, {compressed = true}]) */
static int s_write_npz(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  luma_check_unsandboxed(L, "write_npz");
  luma_ZipWriter w = npz_build(L, 2, 3);
  FILE *f = fopen(path, "wb");
  if (f == NULL) return luma_arg_error(L, 1, "cannot open %s (%s)", path, strerror(errno));
  size_t put = fwrite(w.buf, 1, w.len, f);
  int closed = fclose(f);
  if (put != w.len || closed != 0)
    return luma_arg_error(L, 1, "cannot write %s (%s)", path, strerror(errno));
  return 0;
}

/* npz_bytes(S [, {compressed = true}]) -> string */
static int s_npz_bytes(lua_State *L) {
  luma_ZipWriter w = npz_build(L, 1, 2);
  lua_pushlstring(L, (const char *)w.buf, w.len);
  return 1;
}

/* ---------------------------------------------------------- registration */

static const luaL_Reg sparse_metamethods[] = {
    {"__tostring", s_tostring}, {"__len", s_len}, {"__mul", s_mul}, {"__add", s_add},
    {"__sub", s_subtract},      {"__unm", s_unm}, {NULL, NULL}};

static const luma_Func sparse_methods[] = {
    {"shape", s_shape, "S:shape() -> rows, cols", "Returns the number of rows and of columns."},
    {"rows", s_rows, "S:rows() -> integer", "Returns the number of rows (also #S)."},
    {"cols", s_cols, "S:cols() -> integer", "Returns the number of columns."},
    {"nnz", s_nnz, "S:nnz() -> integer",
     "Returns the number of stored entries (explicit zeros included; see eliminate_zeros)."},
    {"get", s_get, "S:get(i, j) -> number",
     "Returns element (i, j), 1-based: the stored value, or 0 (a binary search in row i)."},
    {"todense", s_todense, "S:todense([out = nil]) -> matrix",
     "Returns the dense luma.Matrix with S's elements (into out, rows x cols, if given)."},
    {"row", s_row, "S:row(i) -> sparse", "Returns row i as a new 1 x cols sparse matrix."},
    {"take", s_take, "S:take(indices) -> sparse",
     "Returns the rows listed in indices (a vector matrix or a table of 1-based row numbers, "
     "repeats allowed), in that order, as a new sparse matrix."},
    {"sub", s_sub, "S:sub([r1 = 1 [, r2 = rows [, c1 = 1 [, c2 = cols]]]]) -> sparse",
     "Returns rows r1..r2 and columns c1..c2 (inclusive, 1-based) as a new sparse matrix of "
     "the same kind (a copy: there are no sparse views)."},
    {"col", s_col, "S:col(j) -> sparse",
     "Returns column j as a new rows x 1 sparse matrix of the same kind."},
    {"take_cols", s_take_cols, "S:take_cols(indices) -> sparse",
     "Returns the columns listed in indices (1-based, repeats allowed), in that order, as a new "
     "sparse matrix of the same kind (a CSR goes through its CSC form: no sort)."},
    {"abs", s_abs, "S:abs() -> sparse", "Returns |S| (same structure)."},
    {"pow", s_pow, "S:pow(p) -> sparse",
     "Returns S with each stored value raised to p > 0 (so zeros stay zero; same structure)."},
    {"binarize", s_binarize, "S:binarize([threshold = 0]) -> sparse",
     "Returns 1 where an element exceeds threshold (>= 0) and stores nothing elsewhere, as "
     "scikit-learn's binarize on a sparse matrix."},
    {"max", s_max, "S:max([dim = nil]) -> number | matrix",
     "The largest element, implicit zeros included (dim 1: per column, 1 x cols; dim 2: per "
     "row, rows x 1); NaN if any."},
    {"min", s_min, "S:min([dim = nil]) -> number | matrix",
     "The smallest element, implicit zeros included (dim 1: per column; dim 2: per row)."},
    {"coo", s_coo, "S:coo() -> i, j, v",
     "The stored entries as three nnz x 1 matrices: 1-based rows, 1-based columns and values, "
     "in storage order."},
    {"format", s_format, "S:format() -> string", "Returns \"csr\" or \"csc\"."},
    {"tocsr", s_tocsr, "S:tocsr() -> sparse",
     "Returns the matrix in CSR form (S itself if it is CSR: matrices are immutable)."},
    {"tocsc", s_tocsc, "S:tocsc() -> sparse",
     "Returns the matrix in compressed sparse column form (a luma.SparseCSC; one counting sort)."},
    {"tmatmul", s_tmatmul, "S:tmatmul(X [, out = nil]) -> matrix",
     "Returns S^T X for a dense X (rows x n) without forming S^T: threaded over strips of the "
     "result's columns, bit-identical for any thread count; into out if given."},
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
     "The Frobenius norm (\"fro\", sqrt of the sum of squares), 1 (the largest column sum "
     "of |x|) or \"inf\" (the largest row sum), as scipy.sparse.linalg.norm."},
    {"scale", s_scale, "S:scale(alpha) -> sparse",
     "Returns alpha * S (also S * alpha and alpha * S); the structure is kept, zeros and all."},
    {"multiply_rows", s_multiply_rows, "S:multiply_rows(v) -> sparse",
     "Returns diag(v) * S: row i scaled by v[i] (v a vector matrix or table of rows numbers), "
     "as row normalizers do."},
    {"multiply_cols", s_multiply_cols, "S:multiply_cols(v) -> sparse",
     "Returns S * diag(v): column j scaled by v[j] (v of cols numbers), as TF-IDF weights "
     "columns."},
    {"multiply", s_multiply, "S:multiply(x) -> sparse",
     "The element-wise product of S and x, as SciPy's multiply: a number scales; a sparse "
     "matrix of S's shape keeps the positions stored in both (products equal to zero are not "
     "stored); a dense matrix of S's shape gives S's structure; a dense 1 x cols row or rows x "
     "1 column multiplies each column or row (as multiply_cols, multiply_rows). The result "
     "has S's format. S + T and S - T add and subtract two sparse matrices (a sparse result "
     "in the left one's format, exact zeros not stored) or a sparse and a dense one (dense); "
     "-S negates."},
    {"maximum", s_maximum, "S:maximum(T) -> sparse",
     "The element-wise maximum of S and the sparse T of S's shape, implicit zeros included "
     "(NaN wins), in S's format: SciPy's maximum."},
    {"minimum", s_minimum, "S:minimum(T) -> sparse",
     "The element-wise minimum of S and the sparse T of S's shape, implicit zeros included "
     "(NaN wins), in S's format: SciPy's minimum."},
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


static const luaL_Reg csc_metamethods[] = {
    {"__tostring", c_tostring}, {"__len", c_len}, {"__mul", s_mul}, {"__add", s_add},
    {"__sub", s_subtract},      {"__unm", s_unm}, {NULL, NULL}};

static const luma_Func csc_methods[] = {
    {"shape", c_shape, "C:shape() -> rows, cols", "Returns the number of rows and of columns."},
    {"rows", c_rows, "C:rows() -> integer", "Returns the number of rows (also #C)."},
    {"cols", c_cols, "C:cols() -> integer", "Returns the number of columns."},
    {"nnz", c_nnz, "C:nnz() -> integer", "Returns the number of stored entries (zeros included)."},
    {"get", c_get, "C:get(i, j) -> number",
     "Returns element (i, j), 1-based: the stored value, or 0 (a binary search in column j)."},
    {"todense", c_todense, "C:todense([out = nil]) -> matrix",
     "Returns the dense luma.Matrix with C's elements (into out, rows x cols, if given)."},
    {"abs", s_abs, "C:abs() -> sparse", "Returns |C| (same structure)."},
    {"pow", s_pow, "C:pow(p) -> sparse",
     "Returns C with each stored value raised to p > 0 (so zeros stay zero; same structure)."},
    {"binarize", s_binarize, "C:binarize([threshold = 0]) -> sparse",
     "Returns 1 where an element exceeds threshold (>= 0) and stores nothing elsewhere, as "
     "scikit-learn's binarize on a sparse matrix."},
    {"max", s_max, "C:max([dim = nil]) -> number | matrix",
     "The largest element, implicit zeros included (dim 1: per column, 1 x cols; dim 2: per "
     "row, rows x 1); NaN if any."},
    {"min", s_min, "C:min([dim = nil]) -> number | matrix",
     "The smallest element, implicit zeros included (dim 1: per column; dim 2: per row)."},
    {"coo", s_coo, "C:coo() -> i, j, v",
     "The stored entries as three nnz x 1 matrices: 1-based rows, 1-based columns and values, "
     "in storage order."},
    {"format", s_format, "C:format() -> string", "Returns \"csc\"."},
    {"tocsr", s_tocsr, "C:tocsr() -> sparse",
     "Returns the matrix in CSR form (a luma.SparseMatrix; one counting sort)."},
    {"tocsc", s_tocsc, "C:tocsc() -> sparse", "Returns C itself (matrices are immutable)."},
    {"t", c_t, "C:t() -> sparse",
     "Returns the transpose as a CSR matrix holding the same arrays (no sort, as SciPy's csc.T)."},
    {"col", s_col, "C:col(j) -> sparse", "Returns column j as a new rows x 1 CSC matrix."},
    {"take", c_take, "C:take(indices) -> sparse",
     "Returns the rows listed in indices (1-based, repeats allowed), in order, as a new CSC "
     "matrix (through the CSR form: row selection is the CSR's strength)."},
    {"take_cols", s_take_cols, "C:take_cols(indices) -> sparse",
     "Returns the columns listed in indices (1-based, repeats allowed), in that order, as a new "
     "CSC matrix."},
    {"sub", s_sub, "C:sub([r1 = 1 [, r2 = rows [, c1 = 1 [, c2 = cols]]]]) -> sparse",
     "Returns rows r1..r2 and columns c1..c2 (inclusive, 1-based) as a new CSC matrix."},
    {"sum", c_sum, "C:sum([dim = nil]) -> number | matrix",
     "Sum of all elements; dim 1: the column sums (a dense 1 x cols matrix); dim 2: the row "
     "sums (rows x 1)."},
    {"mean", c_mean, "C:mean([dim = nil]) -> number | matrix",
     "Mean of all elements, implicit zeros included (dim 1: per column; dim 2: per row)."},
    {"norm", s_norm, "C:norm([kind = \"fro\"]) -> number",
     "The Frobenius norm (\"fro\"), 1 (the largest column sum of |x|) or \"inf\" (the largest "
     "row sum)."},
    {"scale", s_scale, "C:scale(alpha) -> sparse", "Returns alpha * C (also C * alpha, alpha * C)."},
    {"multiply_rows", s_multiply_rows, "C:multiply_rows(v) -> sparse",
     "Returns diag(v) * C: row i scaled by v[i]."},
    {"multiply_cols", s_multiply_cols, "C:multiply_cols(v) -> sparse",
     "Returns C * diag(v): column j scaled by v[j]."},
    {"multiply", s_multiply, "C:multiply(x) -> sparse",
     "The element-wise product of C and x, as SciPy's multiply: a number scales; a sparse "
     "matrix of C's shape keeps the positions stored in both (products equal to zero are not "
     "stored); a dense matrix of C's shape gives C's structure; a dense 1 x cols row or rows x "
     "1 column multiplies each column or row (as multiply_cols, multiply_rows). The result "
     "has C's format. C + T and C - T add and subtract two sparse matrices (a sparse result "
     "in the left one's format, exact zeros not stored) or a sparse and a dense one (dense); "
     "-C negates."},
    {"maximum", s_maximum, "C:maximum(T) -> sparse",
     "The element-wise maximum of C and the sparse T of C's shape, implicit zeros included "
     "(NaN wins), in C's format: SciPy's maximum."},
    {"minimum", s_minimum, "C:minimum(T) -> sparse",
     "The element-wise minimum of C and the sparse T of C's shape, implicit zeros included "
     "(NaN wins), in C's format: SciPy's minimum."},
    {"eliminate_zeros", s_eliminate_zeros, "C:eliminate_zeros() -> sparse",
     "Returns a copy without the stored entries that are exactly zero."},
    {"matmul", s_matmul, "C:matmul(X [, out = nil]) -> matrix | sparse",
     "Matrix product. X dense: a dense result, threaded over strips of its columns and "
     "bit-identical for any thread count (into out if given). X sparse: a CSR result "
     "(Gustavson's algorithm on the CSR forms). C * X is the same; D * C for a dense D is "
     "threaded over D's rows."},
    {"tmatmul", s_tmatmul, "C:tmatmul(X [, out = nil]) -> matrix",
     "Returns C^T X for a dense X without forming C^T (threaded over blocks of C's columns)."},
    {NULL, NULL, NULL, NULL}};

static const luma_Type csc_type = {
    "luma.SparseCSC", csc_methods, csc_metamethods,
    "Sparse float64 matrix in compressed sparse column (CSC) form, 1-based, immutable: "
    "scipy.sparse.csc_matrix. Rows are sorted within each column with no duplicates. Made by "
    "luma.sparse.csc, S:tocsc() and read_npz; column slicing and C^T X are cheap. "
    "docs/SPARSE.md.",
    NULL};

int luma_open_sparse(lua_State *L) {
  static const luma_Func funcs[] = {
      {"csr", s_csr, "csr(rows, cols, i, j, v) | csr(S) -> sparse",
       "A rows x cols CSR matrix from coordinates: entry k is v[k] at (i[k], j[k]), 1-based "
       "(i, j, v vector matrices or tables of equal length). Duplicate positions are summed, "
       "as SciPy does. csr(S) returns the CSR form of a sparse matrix S."},
      {"csc", s_csc, "csc(rows, cols, i, j, v) | csc(S) -> sparse",
       "A rows x cols matrix in compressed sparse column form (luma.SparseCSC) from coordinates "
       "as csr takes them (duplicates summed), or the CSC form of a sparse matrix S."},
      {"from_dense", s_from_dense, "from_dense(M [, tol = 0]) -> sparse",
       "The elements of the dense matrix M with |x| > tol (NaN kept: it is not zero)."},
      {"eye", s_eye, "eye(n [, m = n]) -> sparse", "The n x m sparse identity."},
      {"random", s_random, "random(rows, cols, density [, generator = luma.random.default()]) -> sparse",
       "A random sparse matrix with round(density * rows * cols) entries at uniformly chosen "
       "distinct positions, values uniform on [0, 1), drawn from generator (default: the "
       "state's), as scipy.sparse.random."},
      {"issparse", s_issparse, "issparse(x) -> boolean", "True if x is a sparse matrix (luma.SparseMatrix or luma.SparseCSC)."},
      {"dense_matmul", luma_sparse_dense_matmul, "dense_matmul(D, S [, out = nil]) -> matrix",
       "The dense product D * S of a dense D and a sparse S (also D:matmul(S) and D * S), "
       "threaded over D's rows, into out if given."},
      {"read_libsvm", s_read_libsvm,
       "read_libsvm(source [, {text = false, n_features = nil}]) -> X, y",
       "Reads LIBSVM / SVMlight data (\"label index:value ...\", 1-based increasing indices, "
       "'#' comments, qid ignored) from the file source, or from the string source itself "
       "with text = true. X is sparse (cols: the largest index, or n_features), y a rows x 1 "
       "matrix of labels. Malformed lines are errors naming the line."},
      {"read_npz", s_read_npz, "read_npz(source [, {bytes = false}]) -> sparse",
       "Reads a sparse matrix saved by scipy.sparse.save_npz (compressed or not) from the file "
       "source, or from the string source itself with bytes = true. A csr or csc matrix "
       "comes back in its own form, a coo one as CSR; float, integer and bool data become "
       "float64; unsorted or duplicate indices are sorted and summed. Anything malformed is an "
       "error naming what."},
      {"write_npz", s_write_npz, "write_npz(path, S [, {compressed = true}]) -> nothing",
       "Writes S as scipy.sparse.save_npz does (a zip of indices, indptr, format, shape and "
       "data .npy arrays, deflated unless compressed = false), so scipy.sparse.load_npz reads "
       "it."},
      {"npz_bytes", s_npz_bytes, "npz_bytes(S [, {compressed = true}]) -> string",
       "The bytes write_npz would write (for hosts and sandboxed states without files)."},
      {NULL, NULL, NULL, NULL}};
  luma_type_register(L, &sparse_type);
  lua_pop(L, 1);
  luma_type_register(L, &csc_type);
  lua_pop(L, 1);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.sparse", funcs);
  luma_doc_set(L, -1, "luma.sparse", NULL,
               "Sparse matrices in CSR form (luma.SparseMatrix): constructors csr, from_dense, "
               "eye, random, read_libsvm; products with dense and sparse matrices. Methods: "
               "help(\"luma.SparseMatrix\"). Modelled on scipy.sparse; docs/SPARSE.md.");
  return 1;
}
