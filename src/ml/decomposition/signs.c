/*
 * signs.c - helpers of the SVD-based solvers (see signs.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "decomposition/signs.h"

void luma_max_abs_signs(const luma_Mat *m, double *signs) {
  for (int64_t i = 0; i < m->rows; i++) {
    double best = -1, value = 0;
    for (int64_t j = 0; j < m->cols; j++) {
      const double v = LUMA_AT(m, i, j);
      if (fabs(v) > best) {
        best = fabs(v);
        value = v;
      }
    }
    signs[i] = value < 0 ? -1.0 : 1.0;
  }
}

/* Tile edge of the transpose: 64 x 64 doubles (32 KB) read and written. */
#define TILE 64

void luma_centred_transpose(const luma_Mat *x, const double *mean, double *out) {
  const int64_t n = x->rows, d = x->cols;
  for (int64_t i0 = 0; i0 < n; i0 += TILE) {
    const int64_t i1 = i0 + TILE < n ? i0 + TILE : n;
    for (int64_t j0 = 0; j0 < d; j0 += TILE) {
      const int64_t j1 = j0 + TILE < d ? j0 + TILE : d;
      for (int64_t j = j0; j < j1; j++) {
        const double mu = mean ? mean[j] : 0;
        double *row = out + j * n;
        for (int64_t i = i0; i < i1; i++) row[i] = LUMA_AT(x, i, j) - mu;
      }
    }
  }
}
