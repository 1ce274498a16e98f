/*
 * dot.h - the inner product of the hot loops: the SVM solvers' kernel
 * evaluations, NMF's coordinate-descent gradients (no Lua).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CORE_DOT_H
#define LUMA_ML_CORE_DOT_H

#include <stdint.h>

/* a.b over d contiguous elements, with four partial sums: independent
 * additions pipeline (and vectorize) where one running sum waits on each
 * addition. */
static inline double luma_dot(const double *a, const double *b, int64_t d) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= d; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < d; k++) s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}

#endif
