/*
 * matrix.h - the dense float64 matrix kernel (no Lua).
 *
 * A luma_Mat describes elements somewhere in memory: element (i, j),
 * 0-based, is data[i*rs + j*cs].  Owned storage, views and host buffers
 * all look the same here; who owns the memory is the binding's business.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_MATRIX_H
#define LUMA_ML_MATRIX_H

#include <stddef.h>
#include <stdint.h>

typedef struct luma_Mat {
  double *data;
  int64_t rows, cols;
  int64_t rs, cs; /* strides between rows and between columns, in elements */
} luma_Mat;

#define LUMA_AT(m, i, j) ((m)->data[(i) * (m)->rs + (j) * (m)->cs])

/* Whether m is a row or a column (or has no elements): a vector, whose
 * element k luma_vec_at reads.  A binding that takes a vector of n
 * elements checks both: a 2 x 3 matrix has 6 elements, but reading its
 * element 5 as (5, 0) would run past its rows. */
static inline int luma_mat_is_vector(const luma_Mat *m) {
  return m->rows == 1 || m->cols == 1 || m->rows * m->cols == 0;
}

static inline double luma_vec_at(const luma_Mat *v, int64_t k) {
  return v->rows == 1 ? LUMA_AT(v, 0, k) : LUMA_AT(v, k, 0);
}

/* The largest element count a matrix may have: keeps byte sizes and
 * index arithmetic far from overflow. */
#define LUMA_MAX_ELEMENTS (((int64_t)1) << 40)
/* The largest number of rows or of columns (2^31 - 1): every dimension
 * fits a C int (BLAS, LAPACK, Lua table sizes), and a loop over the rows
 * of an empty matrix stays short. */
#define LUMA_MAX_DIM ((int64_t)2147483647)

/* Number of elements, or -1 if a size is negative or above LUMA_MAX_DIM,
 * or rows*cols is above LUMA_MAX_ELEMENTS. */
int64_t luma_mat_checked_size(int64_t rows, int64_t cols);

/* Nonzero when elements are row-major and contiguous (rs == cols, cs == 1,
 * allowing any stride along a dimension of length 1). */
int luma_mat_is_contiguous(const luma_Mat *m);

/* A row-major contiguous description of `data` with the given shape. */
luma_Mat luma_mat_dense(double *data, int64_t rows, int64_t cols);

/* Views: no copying, the result points into m. Indices are 0-based and
 * must be in range (the binding checks them). */
luma_Mat luma_mat_transpose(const luma_Mat *m);
luma_Mat luma_mat_block(const luma_Mat *m, int64_t r0, int64_t c0, int64_t rows, int64_t cols);

/* Nonzero when the address ranges of a's and b's elements intersect
 * (a conservative test: interleaved strided views count as overlapping). */
int luma_mat_overlaps(const luma_Mat *a, const luma_Mat *b);

/* The k-th diagonal (k > 0 above the main one, k < 0 below) as an n x 1
 * view; n is 0 when k lies outside the matrix. */
luma_Mat luma_mat_diagonal(const luma_Mat *m, int64_t k);

/* Gathers rows (along_cols 0) or columns (1) of src: dst row i is src row
 * index[i] (0-based, in range).  dst must not overlap src. */
void luma_mat_take(luma_Mat *dst, const luma_Mat *src, const int64_t *index, int along_cols);

void luma_mat_fill(luma_Mat *m, double value);
void luma_mat_set_identity(luma_Mat *m);
/* dst and src must have the same shape; they may not overlap unless equal. */
void luma_mat_copy(luma_Mat *dst, const luma_Mat *src);

#endif
