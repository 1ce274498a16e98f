/*
 * classstats.c - per-class sufficient statistics (see classstats.h).
 * SPDX-License-Identifier: MIT
 */
#include "generative/classstats.h"

#include <math.h>

int64_t luma_class_codes(const luma_Mat *y, const luma_Mat *classes, int64_t *codes) {
  const int64_t k = classes->rows;
  for (int64_t i = 0; i < y->rows; i++) {
    const double v = LUMA_AT(y, i, 0);
    int64_t lo = 0, hi = k - 1;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (LUMA_AT(classes, mid, 0) < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (k == 0 || LUMA_AT(classes, lo, 0) != v) return i;
    codes[i] = lo;
  }
  return -1;
}

void luma_class_sums(const luma_Mat *x, const int64_t *codes, int64_t k, double *counts,
                     luma_Mat *sums) {
  const int64_t n = x->rows, d = x->cols;
  for (int64_t c = 0; c < k; c++) {
    counts[c] = 0;
    for (int64_t j = 0; j < d; j++) LUMA_AT(sums, c, j) = 0;
  }
  for (int64_t i = 0; i < n; i++) {
    const int64_t c = codes[i];
    const double *row = x->data + i * x->rs;
    double *acc = sums->data + c * sums->rs;
    counts[c] += 1;
    if (x->cs == 1 && sums->cs == 1) {
      for (int64_t j = 0; j < d; j++) acc[j] += row[j];
    } else {
      for (int64_t j = 0; j < d; j++) acc[j * sums->cs] += row[j * x->cs];
    }
  }
}

int64_t luma_first_nonfinite(const luma_Mat *x) {
  if (x->cols == 0) return -1; /* no elements, however many rows */
  for (int64_t i = 0; i < x->rows; i++) {
    const double *row = x->data + i * x->rs;
    /* x - x is 0 for finite x and NaN for NaN and +-Inf: summing a row
     * first keeps the common (all finite) case branch-free. */
    double probe = 0;
    for (int64_t j = 0; j < x->cols; j++) probe += row[j * x->cs] - row[j * x->cs];
    if (probe != 0 || probe != probe) {
      for (int64_t j = 0; j < x->cols; j++)
        if (!isfinite(row[j * x->cs])) return i * x->cols + j;
    }
  }
  return -1;
}

int64_t luma_class_moments(const luma_Mat *x, const int64_t *codes, int64_t k, double *counts,
                           luma_Mat *means, luma_Mat *vars) {
  const int64_t n = x->rows, d = x->cols;
  luma_class_sums(x, codes, k, counts, means);
  /* A non-finite element makes its column's class sum non-finite (Inf or
   * NaN); finite sums can only overflow to Inf with huge finite inputs,
   * which the exact scan below tells apart. */
  for (int64_t c = 0; c < k; c++) {
    for (int64_t j = 0; j < d; j++) {
      if (!isfinite(LUMA_AT(means, c, j))) {
        const int64_t bad = luma_first_nonfinite(x);
        if (bad >= 0) return bad;
      }
    }
  }
  for (int64_t c = 0; c < k; c++) {
    const double inv = counts[c] > 0 ? 1.0 / counts[c] : NAN;
    for (int64_t j = 0; j < d; j++) LUMA_AT(means, c, j) *= inv;
  }
  if (vars == NULL) return -1;
  for (int64_t c = 0; c < k; c++)
    for (int64_t j = 0; j < d; j++) LUMA_AT(vars, c, j) = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t c = codes[i];
    const double *row = x->data + i * x->rs;
    const double *mu = means->data + c * means->rs;
    double *acc = vars->data + c * vars->rs;
    if (x->cs == 1 && means->cs == 1 && vars->cs == 1) {
      for (int64_t j = 0; j < d; j++) {
        const double dev = row[j] - mu[j];
        acc[j] += dev * dev;
      }
    } else {
      for (int64_t j = 0; j < d; j++) {
        const double dev = row[j * x->cs] - mu[j * means->cs];
        acc[j * vars->cs] += dev * dev;
      }
    }
  }
  for (int64_t c = 0; c < k; c++) {
    const double inv = counts[c] > 0 ? 1.0 / counts[c] : NAN;
    for (int64_t j = 0; j < d; j++) LUMA_AT(vars, c, j) *= inv;
  }
  return -1;
}

void luma_class_center(const luma_Mat *x, const int64_t *codes, const luma_Mat *means,
                       const double *scale, luma_Mat *out) {
  const int64_t n = x->rows, d = x->cols;
  for (int64_t i = 0; i < n; i++) {
    const double *row = x->data + i * x->rs;
    const double *mu = means->data + codes[i] * means->rs;
    double *dst = out->data + i * out->rs;
    if (scale != NULL) {
      for (int64_t j = 0; j < d; j++)
        dst[j * out->cs] = (row[j * x->cs] - mu[j * means->cs]) * scale[j];
    } else {
      for (int64_t j = 0; j < d; j++) dst[j * out->cs] = row[j * x->cs] - mu[j * means->cs];
    }
  }
}
