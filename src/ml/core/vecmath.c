/*
 * vecmath.c - libmvec dispatch for the element-wise kernels.
 *
 * libmvec's entry points follow the x86-64 vector function ABI: the AVX2
 * ("d") variants take and return 4 doubles in a ymm register, the AVX-512
 * ("e") variants 8 doubles in a zmm register.  Callers must themselves be
 * compiled for that instruction set, hence the target attributes, and must
 * only run where the CPU has it, hence __builtin_cpu_supports.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/vecmath.h"

#if defined(__x86_64__) && defined(__GNUC__)

typedef double v4d __attribute__((vector_size(32)));
typedef double v8d __attribute__((vector_size(64)));

v4d _ZGVdN4v_exp(v4d);
v4d _ZGVdN4v_log(v4d);
v4d _ZGVdN4v_sin(v4d);
v4d _ZGVdN4v_cos(v4d);
v8d _ZGVeN8v_exp(v8d);
v8d _ZGVeN8v_log(v8d);
v8d _ZGVeN8v_sin(v8d);
v8d _ZGVeN8v_cos(v8d);
/* weak: a glibc before 2.35 lacks them, and the scalar loop takes over */
v4d _ZGVdN4v_tanh(v4d) __attribute__((weak));
v8d _ZGVeN8v_tanh(v8d) __attribute__((weak));

static double scalar(luma_VecFunc f, double x) {
  switch (f) {
    case LUMA_VEC_EXP: return exp(x);
    case LUMA_VEC_LOG: return log(x);
    case LUMA_VEC_SIN: return sin(x);
    case LUMA_VEC_COS: return cos(x);
    case LUMA_VEC_TANH: return tanh(x);
  }
  return x;
}

__attribute__((target("avx512f"))) static int64_t apply8(luma_VecFunc f, const double *x,
                                                         double *y, int64_t n) {
  v8d (*g)(v8d) = f == LUMA_VEC_EXP    ? _ZGVeN8v_exp
                  : f == LUMA_VEC_LOG  ? _ZGVeN8v_log
                  : f == LUMA_VEC_SIN  ? _ZGVeN8v_sin
                  : f == LUMA_VEC_TANH ? _ZGVeN8v_tanh
                                       : _ZGVeN8v_cos;
  int64_t k = 0;
  if (!g) return 0;
  for (; k + 8 <= n; k += 8) {
    v8d v;
    memcpy(&v, x + k, sizeof v); /* unaligned load */
    v = g(v);
    memcpy(y + k, &v, sizeof v);
  }
  return k;
}

__attribute__((target("avx2"))) static int64_t apply4(luma_VecFunc f, const double *x,
                                                      double *y, int64_t n) {
  v4d (*g)(v4d) = f == LUMA_VEC_EXP    ? _ZGVdN4v_exp
                  : f == LUMA_VEC_LOG  ? _ZGVdN4v_log
                  : f == LUMA_VEC_SIN  ? _ZGVdN4v_sin
                  : f == LUMA_VEC_TANH ? _ZGVdN4v_tanh
                                       : _ZGVdN4v_cos;
  int64_t k = 0;
  if (!g) return 0;
  for (; k + 4 <= n; k += 4) {
    v4d v;
    memcpy(&v, x + k, sizeof v);
    v = g(v);
    memcpy(y + k, &v, sizeof v);
  }
  return k;
}

void luma_vec_apply(luma_VecFunc f, const double *x, double *y, int64_t n) {
  int64_t done = 0;
  if (__builtin_cpu_supports("avx512f"))
    done = apply8(f, x, y, n);
  else if (__builtin_cpu_supports("avx2"))
    done = apply4(f, x, y, n);
  for (int64_t k = done; k < n; k++) y[k] = scalar(f, x[k]);
}

#else

void luma_vec_apply(luma_VecFunc f, const double *x, double *y, int64_t n) {
  for (int64_t k = 0; k < n; k++) {
    switch (f) {
      case LUMA_VEC_EXP: y[k] = exp(x[k]); break;
      case LUMA_VEC_LOG: y[k] = log(x[k]); break;
      case LUMA_VEC_SIN: y[k] = sin(x[k]); break;
      case LUMA_VEC_COS: y[k] = cos(x[k]); break;
      case LUMA_VEC_TANH: y[k] = tanh(x[k]); break;
    }
  }
}

#endif
