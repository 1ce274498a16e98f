/*
 * narrow.c - see narrow.h.  Register-blocked AVX-512 kernels: a tile of
 * four rows (x q) or four features (x^T p) by up to 32 columns, four
 * registers of eight, is sixteen accumulators, enough to keep both FMA
 * units busy through their latency; the columns past c are masked off,
 * so any c works without padding.  Each step broadcasts four values of x
 * and loads four registers of q or p: x is read where it lies, unpacked.
 * SPDX-License-Identifier: MIT
 */
#include "core/narrow.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define LUMA_X86_VECTORS 1
#else
#define LUMA_X86_VECTORS 0
#endif

/* The plain products: the fallback, and the reference in tests. */
static void xq_plain(int64_t rows, int64_t d, int64_t c, const double *x, int64_t ldx,
                     const double *q, int64_t ldq, double *p, int64_t ldp) {
  for (int64_t r = 0; r < rows; r++)
    for (int64_t k = 0; k < c; k++) {
      double s = 0;
      for (int64_t j = 0; j < d; j++) s += x[r * ldx + j] * q[j * ldq + k];
      p[r * ldp + k] = s;
    }
}

static void xtp_plain(int64_t rows, int64_t d, int64_t c, const double *x, int64_t ldx,
                      const double *p, int64_t ldp, double *s, int64_t lds) {
  for (int64_t j = 0; j < d; j++)
    for (int64_t k = 0; k < c; k++) {
      double a = 0;
      for (int64_t r = 0; r < rows; r++) a += x[r * ldx + j] * p[r * ldp + k];
      s[j * lds + k] += a;
    }
}

#if LUMA_X86_VECTORS

#include <immintrin.h>

int luma_narrow_available(void) { return __builtin_cpu_supports("avx512f"); }

/* The tile's registers are written out one by one: -O2 neither unrolls
 * loops over small arrays of registers nor keeps such arrays in registers
 * (they went to the stack and the kernel ran slower than BLAS). */

/* The lanes of column group g (up to 32 columns from g) in register k. */
static __mmask8 mask_of(int64_t c, int64_t g, int k) {
  const int64_t left = c - g - 8 * k;
  return (__mmask8)(left >= 8 ? 0xff : left <= 0 ? 0 : (1u << left) - 1);
}

#define GROUP_MASKS(c, g)                                                                \
  const __mmask8 m0 = mask_of(c, g, 0), m1 = mask_of(c, g, 1), m2 = mask_of(c, g, 2),   \
                 m3 = mask_of(c, g, 3)
/* b0..b3: the group's four registers of a row of q or p */
#define LOAD_GROUP(row)                                                                  \
  const __m512d b0 = _mm512_maskz_loadu_pd(m0, (row)), b1 = _mm512_maskz_loadu_pd(m1, (row) + 8), \
                b2 = _mm512_maskz_loadu_pd(m2, (row) + 16),                              \
                b3 = _mm512_maskz_loadu_pd(m3, (row) + 24)
#define ZERO_LINE(t) __m512d t##0 = _mm512_setzero_pd(), t##1 = t##0, t##2 = t##0, t##3 = t##0
/* t0..t3 += v * b0..b3 */
#define FMA_LINE(t, v)                                                                   \
  do {                                                                                   \
    const __m512d v_ = (v);                                                              \
    t##0 = _mm512_fmadd_pd(v_, b0, t##0);                                                \
    t##1 = _mm512_fmadd_pd(v_, b1, t##1);                                                \
    t##2 = _mm512_fmadd_pd(v_, b2, t##2);                                                \
    t##3 = _mm512_fmadd_pd(v_, b3, t##3);                                                \
  } while (0)
#define STORE_LINE(o, t)                                                                 \
  do {                                                                                   \
    _mm512_mask_storeu_pd((o), m0, t##0);                                                \
    _mm512_mask_storeu_pd((o) + 8, m1, t##1);                                            \
    _mm512_mask_storeu_pd((o) + 16, m2, t##2);                                           \
    _mm512_mask_storeu_pd((o) + 24, m3, t##3);                                           \
  } while (0)
#define ADD_LINE(o, t)                                                                   \
  do {                                                                                   \
    _mm512_mask_storeu_pd((o), m0, _mm512_add_pd(_mm512_maskz_loadu_pd(m0, (o)), t##0)); \
    _mm512_mask_storeu_pd((o) + 8, m1,                                                   \
                          _mm512_add_pd(_mm512_maskz_loadu_pd(m1, (o) + 8), t##1));      \
    _mm512_mask_storeu_pd((o) + 16, m2,                                                  \
                          _mm512_add_pd(_mm512_maskz_loadu_pd(m2, (o) + 16), t##2));     \
    _mm512_mask_storeu_pd((o) + 24, m3,                                                  \
                          _mm512_add_pd(_mm512_maskz_loadu_pd(m3, (o) + 24), t##3));     \
  } while (0)

__attribute__((target("avx512f"))) static void xq512(int64_t rows, int64_t d, int64_t c,
                                                     const double *x, int64_t ldx,
                                                     const double *q, int64_t ldq, double *p,
                                                     int64_t ldp) {
  for (int64_t g = 0; g < c; g += 32) {
    GROUP_MASKS(c, g);
    int64_t r = 0;
    for (; r + 4 <= rows; r += 4) { /* four rows of p */
      const double *x0 = x + r * ldx, *x1 = x0 + ldx, *x2 = x1 + ldx, *x3 = x2 + ldx;
      ZERO_LINE(u);
      ZERO_LINE(v);
      ZERO_LINE(w);
      ZERO_LINE(z);
      for (int64_t j = 0; j < d; j++) {
        LOAD_GROUP(q + j * ldq + g);
        FMA_LINE(u, _mm512_set1_pd(x0[j]));
        FMA_LINE(v, _mm512_set1_pd(x1[j]));
        FMA_LINE(w, _mm512_set1_pd(x2[j]));
        FMA_LINE(z, _mm512_set1_pd(x3[j]));
      }
      double *o = p + r * ldp + g;
      STORE_LINE(o, u);
      STORE_LINE(o + ldp, v);
      STORE_LINE(o + 2 * ldp, w);
      STORE_LINE(o + 3 * ldp, z);
    }
    for (; r < rows; r++) {
      ZERO_LINE(u);
      for (int64_t j = 0; j < d; j++) {
        LOAD_GROUP(q + j * ldq + g);
        FMA_LINE(u, _mm512_set1_pd(x[r * ldx + j]));
      }
      STORE_LINE(p + r * ldp + g, u);
    }
  }
}

__attribute__((target("avx512f"))) static void xtp512(int64_t rows, int64_t d, int64_t c,
                                                      const double *x, int64_t ldx,
                                                      const double *p, int64_t ldp, double *s,
                                                      int64_t lds) {
  for (int64_t g = 0; g < c; g += 32) {
    GROUP_MASKS(c, g);
    int64_t j = 0;
    for (; j + 4 <= d; j += 4) { /* four rows of s, features j..j+3 */
      ZERO_LINE(u);
      ZERO_LINE(v);
      ZERO_LINE(w);
      ZERO_LINE(z);
      for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * ldx + j;
        LOAD_GROUP(p + r * ldp + g);
        FMA_LINE(u, _mm512_set1_pd(xr[0]));
        FMA_LINE(v, _mm512_set1_pd(xr[1]));
        FMA_LINE(w, _mm512_set1_pd(xr[2]));
        FMA_LINE(z, _mm512_set1_pd(xr[3]));
      }
      double *o = s + j * lds + g;
      ADD_LINE(o, u);
      ADD_LINE(o + lds, v);
      ADD_LINE(o + 2 * lds, w);
      ADD_LINE(o + 3 * lds, z);
    }
    for (; j < d; j++) {
      ZERO_LINE(u);
      for (int64_t r = 0; r < rows; r++) {
        LOAD_GROUP(p + r * ldp + g);
        FMA_LINE(u, _mm512_set1_pd(x[r * ldx + j]));
      }
      ADD_LINE(s + j * lds + g, u);
    }
  }
}

#else

int luma_narrow_available(void) { return 0; }

#endif

void luma_narrow_xq(int64_t rows, int64_t d, int64_t c, const double *x, int64_t ldx,
                    const double *q, int64_t ldq, double *p, int64_t ldp) {
#if LUMA_X86_VECTORS
  if (__builtin_cpu_supports("avx512f")) {
    xq512(rows, d, c, x, ldx, q, ldq, p, ldp);
    return;
  }
#endif
  xq_plain(rows, d, c, x, ldx, q, ldq, p, ldp);
}

void luma_narrow_xtp(int64_t rows, int64_t d, int64_t c, const double *x, int64_t ldx,
                     const double *p, int64_t ldp, double *s, int64_t lds) {
#if LUMA_X86_VECTORS
  if (__builtin_cpu_supports("avx512f")) {
    xtp512(rows, d, c, x, ldx, p, ldp, s, lds);
    return;
  }
#endif
  xtp_plain(rows, d, c, x, ldx, p, ldp, s, lds);
}
