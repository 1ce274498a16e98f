/*
 * matrix.c - shape logic and elementary fills/copies of the matrix kernel.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "core/matrix.h"

int64_t luma_mat_checked_size(int64_t rows, int64_t cols) {
  if (rows < 0 || cols < 0 || rows > LUMA_MAX_DIM || cols > LUMA_MAX_DIM) return -1;
  if (rows != 0 && cols > LUMA_MAX_ELEMENTS / rows) return -1;
  return rows * cols;
}

int luma_mat_is_contiguous(const luma_Mat *m) {
  return (m->cs == 1 || m->cols <= 1) && (m->rs == m->cols || m->rows <= 1);
}

luma_Mat luma_mat_dense(double *data, int64_t rows, int64_t cols) {
  luma_Mat m = {data, rows, cols, cols, 1};
  return m;
}

luma_Mat luma_mat_transpose(const luma_Mat *m) {
  luma_Mat t = {m->data, m->cols, m->rows, m->cs, m->rs};
  return t;
}

luma_Mat luma_mat_block(const luma_Mat *m, int64_t r0, int64_t c0, int64_t rows, int64_t cols) {
  luma_Mat b = {m->data, rows, cols, m->rs, m->cs};
  if (rows > 0 && cols > 0) b.data = m->data + r0 * m->rs + c0 * m->cs;
  return b;
}

/* Loops below run over rows, then columns: an empty matrix (2^31 - 1 rows
 * of nothing) must return before the row loop, not walk it. */
static int is_empty(const luma_Mat *m) { return m->rows == 0 || m->cols == 0; }

void luma_mat_fill(luma_Mat *m, double value) {
  if (is_empty(m)) return;
  if (luma_mat_is_contiguous(m)) {
    int64_t n = m->rows * m->cols;
    for (int64_t k = 0; k < n; k++) m->data[k] = value;
    return;
  }
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = value;
}

void luma_mat_set_identity(luma_Mat *m) {
  luma_mat_fill(m, 0.0);
  int64_t n = m->rows < m->cols ? m->rows : m->cols;
  for (int64_t k = 0; k < n; k++) LUMA_AT(m, k, k) = 1.0;
}

void luma_mat_copy(luma_Mat *dst, const luma_Mat *src) {
  if (is_empty(src)) return;
  if (dst->data == src->data && dst->rs == src->rs && dst->cs == src->cs) return;
  if (luma_mat_is_contiguous(dst) && luma_mat_is_contiguous(src)) {
    size_t n = (size_t)(src->rows * src->cols);
    if (n) memmove(dst->data, src->data, n * sizeof(double));
    return;
  }
  for (int64_t i = 0; i < src->rows; i++)
    for (int64_t j = 0; j < src->cols; j++) LUMA_AT(dst, i, j) = LUMA_AT(src, i, j);
}

/* The first and last addresses m's elements occupy. */
static inline void span(const luma_Mat *m, const double **lo, const double **hi) {
  int64_t dr = (m->rows - 1) * m->rs, dc = (m->cols - 1) * m->cs;
  *lo = m->data + (dr < 0 ? dr : 0) + (dc < 0 ? dc : 0);
  *hi = m->data + (dr > 0 ? dr : 0) + (dc > 0 ? dc : 0);
}

int luma_mat_overlaps(const luma_Mat *a, const luma_Mat *b) {
  if (a->rows == 0 || a->cols == 0 || b->rows == 0 || b->cols == 0) return 0;
  const double *alo, *ahi, *blo, *bhi;
  span(a, &alo, &ahi);
  span(b, &blo, &bhi);
  return !(ahi < blo || bhi < alo);
}

luma_Mat luma_mat_diagonal(const luma_Mat *m, int64_t k) {
  int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0;
  int64_t n = m->rows - r0 < m->cols - c0 ? m->rows - r0 : m->cols - c0;
  luma_Mat d = {m->data, n > 0 ? n : 0, 1, m->rs + m->cs, 1};
  if (n > 0) d.data = m->data + r0 * m->rs + c0 * m->cs;
  return d;
}

void luma_mat_take(luma_Mat *dst, const luma_Mat *src, const int64_t *index, int along_cols) {
  if (is_empty(dst)) return;
  if (along_cols) {
    for (int64_t i = 0; i < dst->rows; i++)
      for (int64_t j = 0; j < dst->cols; j++) LUMA_AT(dst, i, j) = LUMA_AT(src, i, index[j]);
    return;
  }
  int rows_dense = src->cs == 1 && dst->cs == 1;
  for (int64_t i = 0; i < dst->rows; i++) {
    const double *from = src->data + index[i] * src->rs;
    double *to = dst->data + i * dst->rs;
    if (rows_dense) {
      if (dst->cols) memcpy(to, from, (size_t)dst->cols * sizeof(double));
    } else {
      for (int64_t j = 0; j < dst->cols; j++) to[j * dst->cs] = from[j * src->cs];
    }
  }
}
