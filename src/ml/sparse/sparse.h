/*
 * sparse.h - compressed sparse row (CSR) matrices of float64 (no Lua).
 *
 * Layout, as scipy.sparse.csr_matrix: row i holds the entries
 * indptr[i] .. indptr[i+1]-1 of indices (0-based columns) and data.  The
 * canonical form every kernel here produces and every kernel may assume:
 * indptr[0] = 0, indptr non-decreasing, indptr[rows] = nnz, and within a
 * row the column indices strictly increase (sorted, no duplicates).
 * Stored zeros are allowed (a product may cancel); luma_sp_drop_zeros
 * removes them.
 *
 * Memory belongs to the caller (the binding allocates it where the Lua
 * state charges it); kernels that need an output size first have a
 * counting pass.  Work is charged to the meter of core/parallel.h; a
 * kernel that returns nonzero (or whose meter stopped) left its output
 * incomplete, and the caller must discard it.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SPARSE_H
#define LUMA_ML_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

typedef struct luma_Sparse {
  int64_t rows, cols, nnz;
  int64_t *indptr;  /* rows + 1 */
  int64_t *indices; /* nnz column indices, 0-based */
  double *data;     /* nnz values */
} luma_Sparse;

/* What is wrong with a CSR read from outside (a file), or LUMA_SP_OK. */
typedef enum luma_SpFault {
  LUMA_SP_OK = 0,
  LUMA_SP_BAD_START,    /* indptr[0] != 0 */
  LUMA_SP_NOT_MONOTONE, /* indptr[i+1] < indptr[i] (at row *where) */
  LUMA_SP_BAD_END,      /* indptr[rows] != nnz */
  LUMA_SP_OUT_OF_RANGE, /* a column index outside [0, cols) (entry *where) */
  LUMA_SP_UNSORTED      /* a row's indices not strictly increasing (entry *where) */
} luma_SpFault;

/* Checks the canonical form; *where is the row or entry at fault. */
luma_SpFault luma_sp_validate(luma_Threads *t, const luma_Sparse *a, int64_t *where);

/* COO triplets (0-based, already range-checked) to canonical CSR:
 * entries are bucketed by column into tmp (a CSR of the transposed
 * shape, nnz = n), then by row into out (nnz = n): two stable counting
 * sorts, so each row comes out sorted and equal positions keep their
 * input order; duplicates are then summed in that order, as SciPy sums
 * them.  Returns the final nnz (<= n; out's arrays are compacted in
 * place and out->nnz set), or -1 if the meter stopped. */
int64_t luma_sp_from_coo(luma_Threads *t, int64_t n, const int64_t *i, const int64_t *j,
                          const double *v, luma_Sparse *tmp, luma_Sparse *out);

/* out = a^T; out has a->nnz entries allocated and the transposed shape.
 * A counting sort by column (a CSC view of a, turned into the CSR of the
 * transpose); the output is canonical whatever the order within a's
 * rows. */
void luma_sp_transpose(luma_Threads *t, const luma_Sparse *a, luma_Sparse *out);

/* Entries of a dense matrix with |x| > tol (NaN counts: it is not zero). */
int64_t luma_sp_count_dense(luma_Threads *t, const luma_Mat *m, double tol);
void luma_sp_from_dense(luma_Threads *t, const luma_Mat *m, double tol, luma_Sparse *out);
void luma_sp_to_dense(luma_Threads *t, const luma_Sparse *a, luma_Mat *out);

/* The k (<= rows * cols) positions of a random sparse matrix, uniformly
 * among all sets of k positions (Floyd's algorithm; `slots` is a hash
 * table of 2^bits int64 entries, 2^bits >= 2k), with uniform [0, 1)
 * values drawn in row-major order of the positions; tmp is a scratch CSR
 * of the transposed shape with k entries.  Returns nonzero if stopped. */
struct luma_Rng;
int luma_sp_random(luma_Threads *t, struct luma_Rng *rng, int64_t k, int64_t *slots, int bits,
                    int64_t *pos_i, int64_t *pos_j, luma_Sparse *tmp, luma_Sparse *out);

/* Element (i, j) (0-based): a binary search in row i. */
double luma_sp_get(const luma_Sparse *a, int64_t i, int64_t j);

/* Rows `rows[0..n-1]` (0-based, in range) of a, in that order: the entries
 * they hold, then the copy into out (out->nnz = the count). */
int64_t luma_sp_take_count(const luma_Sparse *a, const int64_t *rows, int64_t n);
void luma_sp_take(luma_Threads *t, const luma_Sparse *a, const int64_t *rows, int64_t n,
                   luma_Sparse *out);

/* Reductions.  dim 1: out is 1 x cols (column sums), dim 2: rows x 1. */
double luma_sp_sum(luma_Threads *t, const luma_Sparse *a);
double luma_sp_sum_squares(luma_Threads *t, const luma_Sparse *a);
void luma_sp_sum_dim(luma_Threads *t, const luma_Sparse *a, int dim, luma_Mat *out);

/* out = a with every value multiplied by alpha, by v[i] for row i
 * (LUMA_SP_ROWS) or by v[j] for column j (LUMA_SP_COLS); out has a's
 * structure (indptr and indices copied here).  v is a vector matrix of
 * the right length, read as v[k] through its strides. */
enum { LUMA_SP_ALL, LUMA_SP_ROWS, LUMA_SP_COLS };
void luma_sp_scale(luma_Threads *t, const luma_Sparse *a, int mode, double alpha,
                    const luma_Mat *v, luma_Sparse *out);

/* Entries whose value is not exactly zero, and the copy without the
 * others. */
int64_t luma_sp_count_nonzero(luma_Threads *t, const luma_Sparse *a);
void luma_sp_drop_zeros(luma_Threads *t, const luma_Sparse *a, luma_Sparse *out);

/* out (a->rows x b->cols) = a * b for a dense b; b and out have unit
 * column stride and out does not overlap b.  Rows are cut into blocks of
 * about equal work (a function of the data only) run in parallel, each
 * row summed in its entries' order: bit-identical for any thread count. */
luma_LoopStatus luma_sp_matmul_dense(luma_Threads *t, const luma_Sparse *a, const luma_Mat *b,
                                      luma_Mat *out);

/* out (a->rows x b->cols) = a * b for a dense a, sparse b; out has unit
 * column stride and does not overlap a.  Parallel over a's rows. */
luma_LoopStatus luma_sp_dense_matmul(luma_Threads *t, const luma_Mat *a, const luma_Sparse *b,
                                      luma_Mat *out);

/* out (a->cols x b->cols) = a^T b for a dense b (a->rows x n): the
 * product of a CSC matrix (whose arrays are those of the CSR a, read as
 * the CSR of its transpose) with a dense one, and X^T r for a CSR X.
 * Threaded over strips of output columns; each element is summed in a's
 * entry order by one thread: bit-identical for any thread count.  b and
 * out have unit column stride; out does not overlap b. */
luma_LoopStatus luma_sp_tmatmul_dense(luma_Threads *t, const luma_Sparse *a, const luma_Mat *b,
                                       luma_Mat *out);

/* out (d->rows x s->rows) = d s^T for a dense d (any strides) and CSR s:
 * dense x CSC.  Threaded over d's rows; out has unit column stride. */
luma_LoopStatus luma_sp_dense_tmatmul(luma_Threads *t, const luma_Mat *d, const luma_Sparse *s,
                                       luma_Mat *out);

/* out (a->rows x b->cols, dense, unit column stride) = a b for CSR a and
 * b: each output row scattered from b's rows by one thread (threaded over
 * a's rows, bit-identical for any thread count).  Gram matrices of sparse
 * rows: a times the CSR of b's transpose. */
luma_LoopStatus luma_sp_matmul_to_dense(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b,
                                         luma_Mat *out);

/* The entries of columns [c0, c1) (0-based), shifted to start at column
 * 0: their count, and the copy into out (out->cols = c1 - c0). */
int64_t luma_sp_col_range_count(luma_Threads *t, const luma_Sparse *a, int64_t c0, int64_t c1);
void luma_sp_col_range(luma_Threads *t, const luma_Sparse *a, int64_t c0, int64_t c1,
                        luma_Sparse *out);

/* The largest sum of absolute values over the columns (dim 1, the
 * matrix 1-norm; acc holds a->cols doubles) or over the rows (dim 2, the
 * infinity norm).  NaN propagates. */
double luma_sp_max_abs_sum(luma_Threads *t, const luma_Sparse *a, int dim, double *acc);

/* out = op applied to each stored value (the structure is kept): |v|
 * (LUMA_SP_ABS), v^p (LUMA_SP_POW; the caller makes sure 0^p = 0, p > 0),
 * 1 or 0 as v > p (LUMA_SP_GT; p >= 0, so implicit zeros stay 0). */
enum { LUMA_SP_ABS, LUMA_SP_POW, LUMA_SP_GT };
void luma_sp_map(luma_Threads *t, const luma_Sparse *a, int op, double p, luma_Sparse *out);

/* The largest (want_max) or smallest element of each column (dim 1, out
 * a 1 x cols matrix) or row (dim 2, rows x 1), implicit zeros included
 * (a line with fewer stored entries than its length has a 0); NaN wins;
 * an empty line gives NaN.  count holds cols (dim 1) or rows integers. */
void luma_sp_extreme(luma_Threads *t, const luma_Sparse *a, int dim, int want_max, luma_Mat *out,
                      int64_t *count);

/* Sparse times sparse by Gustavson's row-by-row algorithm (Gustavson,
 * "Two fast algorithms for sparse matrices", ACM TOMS 4(3), 1978), rows
 * in blocks on the pool.  The symbolic pass fills out_indptr (a->rows +
 * 1) and returns the result's nnz, or -1 if the meter stopped; the
 * numeric pass fills out (indptr already set), each row's columns sorted,
 * and returns nonzero if stopped.  marker holds slots x b->cols integers
 * and acc slots x b->cols doubles, slots at least the pool's threads. */
int64_t luma_sp_matmul_count(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b,
                              int64_t *out_indptr, int64_t *marker, int slots);
int luma_sp_matmul(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b, luma_Sparse *out,
                    int64_t *marker, double *acc, int slots);

/* Element-wise a op b of two canonical CSRs of one shape, as SciPy's
 * csr_binop_csr: each row's sorted column lists are merged, an implicit
 * zero standing in for a missing entry (LUMA_SP_MUL keeps only the
 * positions stored in both), and results equal to zero are not stored.
 * MAX and MIN let NaN win.  The counting pass fills out_indptr (rows + 1)
 * and returns the nnz, or -1 if the meter stopped; the second fills out
 * (indptr already set) and returns nonzero if stopped.  The same holds
 * for two CSC arrays (a CSC is the CSR of the transpose). */
enum { LUMA_SP_ADD, LUMA_SP_SUB, LUMA_SP_MUL, LUMA_SP_MAX, LUMA_SP_MIN };
int64_t luma_sp_binop_count(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b, int op,
                             int64_t *out_indptr);
int luma_sp_binop(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b, int op,
                  luma_Sparse *out);

/* out += alpha * a for a dense out of a's shape (read it transposed for
 * a CSC). */
void luma_sp_axpy_dense(luma_Threads *t, const luma_Sparse *a, double alpha, luma_Mat *out);

/* out = a .* d at a's stored positions (out has a's structure and nnz;
 * products that are zero stay stored, as in SciPy's multiply by a dense
 * matrix); d has a's shape (transposed for a CSC). */
void luma_sp_mul_dense(luma_Threads *t, const luma_Sparse *a, const luma_Mat *d, luma_Sparse *out);

/* LIBSVM / SVMlight text: "label index:value index:value ... # comment"
 * per line, indices 1-based and strictly increasing, blank and comment
 * lines skipped, "qid:n" tokens ignored.  The scan counts what the fill
 * needs; both stop at the first fault, reported with its 1-based line. */
typedef enum luma_LibsvmFault {
  LUMA_LIBSVM_OK = 0,
  LUMA_LIBSVM_BAD_LABEL,    /* the label is not a finite number */
  LUMA_LIBSVM_BAD_TOKEN,    /* a token is not index:value */
  LUMA_LIBSVM_BAD_INDEX,    /* an index is not an integer in [1, 2^31 - 1] */
  LUMA_LIBSVM_BAD_VALUE,    /* a value is not a finite number */
  LUMA_LIBSVM_UNORDERED,    /* indices not strictly increasing */
  LUMA_LIBSVM_STOPPED       /* the meter stopped */
} luma_LibsvmFault;

typedef struct luma_LibsvmScan {
  int64_t rows, nnz, max_index; /* max_index: the largest 1-based index, 0 if none */
  luma_LibsvmFault fault;
  int64_t line;  /* of the fault */
  int64_t index; /* the offending index (LUMA_LIBSVM_UNORDERED, BAD_INDEX) */
} luma_LibsvmScan;

/* text[len] must be '\0' (strtod must not run past the buffer). */
void luma_libsvm_scan(luma_Threads *t, const char *text, size_t len, luma_LibsvmScan *scan);
/* Fills out (rows, nnz and indptr sized from the scan; cols set by the
 * caller) and y (rows values). */
void luma_libsvm_fill(luma_Threads *t, const char *text, size_t len, luma_Sparse *out, double *y);

#endif
