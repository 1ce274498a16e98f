/*
 * vecmath.h - SIMD versions of elementary functions over flat arrays,
 * through glibc's libmvec (AVX-512 or AVX2, chosen at run time; max error
 * 4 ulp as glibc documents), with a scalar fallback elsewhere.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_VECMATH_H
#define LUMA_ML_VECMATH_H

#include <stdint.h>

typedef enum luma_VecFunc {
  LUMA_VEC_EXP,
  LUMA_VEC_LOG,
  LUMA_VEC_SIN,
  LUMA_VEC_COS,
  LUMA_VEC_TANH /* libmvec's since glibc 2.35; scalar tanh with an older one */
} luma_VecFunc;

/* y[k] = f(x[k]) for k < n; x and y may be the same array. */
void luma_vec_apply(luma_VecFunc f, const double *x, double *y, int64_t n);

#endif
