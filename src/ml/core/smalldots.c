/*
 * smalldots.c - see smalldots.h.  Register-blocked products: four rows by
 * a group of columns held in vector registers while j runs over the d
 * coordinates, each step one broadcast of x per row and a load of each of
 * the group's vectors of vt.  Nothing is packed: for d in the tens,
 * OpenBLAS's copy of each block of rows into its panel format took as long
 * as its multiply (perf, k-means on 2e5 x 20, k = 16), while here the rows
 * are read in place.  With AVX-512 the choice of the nearest column is
 * vectorized too, from the registers.
 * SPDX-License-Identifier: MIT
 */
#include "core/smalldots.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define LUMA_X86_VECTORS 1
#else
#define LUMA_X86_VECTORS 0
#endif

/* -------------------------------------------------- from the products */

static void nearest1(const double *g, int64_t cols, const double *bias, int64_t c0,
                     double *best, int64_t *label) {
  double b = *best;
  int64_t l = *label;
  for (int64_t c = 0; c < cols; c++) {
    const double v = bias[c] - 2 * g[c];
    l = v < b ? c0 + c : l;
    b = v < b ? v : b;
  }
  *best = b;
  *label = l;
}

/* Four rows at a time: their chains of compare-and-selects are
 * independent and overlap in the pipeline (one row's chain waits on each
 * step); selects, not a branch, since which column wins is data (a
 * mispredicted branch a row cost a third of k-means' step, perf). */
static void nearest4(const double *g, int64_t ld, int64_t cols, const double *bias, int64_t c0,
                     double *best, int64_t *label) {
  double b0 = best[0], b1 = best[1], b2 = best[2], b3 = best[3];
  int64_t l0 = label[0], l1 = label[1], l2 = label[2], l3 = label[3];
  for (int64_t c = 0; c < cols; c++) {
    const double v0 = bias[c] - 2 * g[c], v1 = bias[c] - 2 * g[ld + c];
    const double v2 = bias[c] - 2 * g[2 * ld + c], v3 = bias[c] - 2 * g[3 * ld + c];
    l0 = v0 < b0 ? c0 + c : l0;
    b0 = v0 < b0 ? v0 : b0;
    l1 = v1 < b1 ? c0 + c : l1;
    b1 = v1 < b1 ? v1 : b1;
    l2 = v2 < b2 ? c0 + c : l2;
    b2 = v2 < b2 ? v2 : b2;
    l3 = v3 < b3 ? c0 + c : l3;
    b3 = v3 < b3 ? v3 : b3;
  }
  best[0] = b0, best[1] = b1, best[2] = b2, best[3] = b3;
  label[0] = l0, label[1] = l1, label[2] = l2, label[3] = l3;
}

void luma_nearest_of_products(int64_t rows, int64_t cols, const double *g, int64_t ld,
                              const double *bias, int64_t c0, double *best, int64_t *label) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) nearest4(g + r * ld, ld, cols, bias, c0, best + r, label + r);
  for (; r < rows; r++) nearest1(g + r * ld, cols, bias, c0, best + r, label + r);
}

/* Products of up to four rows with a group of columns, plainly: the
 * fallback, and the remainder rows of no vector path. */
static void products(int64_t rows, int64_t d, const double *x, int64_t ldx, const double *vt,
                     int64_t ldv, double *g) {
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < LUMA_SMALL_DOTS_GROUP; c++) {
      double s = 0;
      for (int64_t j = 0; j < d; j++) s += x[r * ldx + j] * vt[j * ldv + c];
      g[r * LUMA_SMALL_DOTS_GROUP + c] = s;
    }
}

#if LUMA_X86_VECTORS

#include <immintrin.h>

int luma_small_dots_available(void) {
  return __builtin_cpu_supports("avx512f") ||
         (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
}

/* ------------------------------------------------------------- AVX-512 */

/* The row's nearest of the group's 16 columns from its products (lo: the
 * first 8, hi: the rest), against the best so far. */
__attribute__((target("avx512f"), always_inline)) static inline void
pick16(__m512d lo, __m512d hi, const double *bias, int64_t c0, double *best, int64_t *label) {
  const __m512d minus2 = _mm512_set1_pd(-2);
  const __m512d vlo = _mm512_fmadd_pd(minus2, lo, _mm512_loadu_pd(bias));
  const __m512d vhi = _mm512_fmadd_pd(minus2, hi, _mm512_loadu_pd(bias + 8));
  const double m = _mm512_reduce_min_pd(_mm512_min_pd(vlo, vhi));
  if (m < *best) { /* the first column equal to the minimum */
    const __m512d all = _mm512_set1_pd(m);
    const unsigned a = _mm512_cmp_pd_mask(vlo, all, _CMP_EQ_OQ);
    const unsigned b = _mm512_cmp_pd_mask(vhi, all, _CMP_EQ_OQ);
    *best = m;
    *label = c0 + (a ? __builtin_ctz(a) : 8 + __builtin_ctz(b));
  }
}

__attribute__((target("avx512f"))) static void
nearest512(int64_t rows, int64_t cols, int64_t d, const double *x, int64_t ldx, const double *vt,
           int64_t ldv, const double *bias, double *best, int64_t *label) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const double *x0 = x + r * ldx, *x1 = x0 + ldx, *x2 = x1 + ldx, *x3 = x2 + ldx;
    for (int64_t c = 0; c < cols; c += LUMA_SMALL_DOTS_GROUP) {
      __m512d a0 = _mm512_setzero_pd(), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0,
              b3 = a0;
      const double *v = vt + c;
      for (int64_t j = 0; j < d; j++, v += ldv) {
        const __m512d lo = _mm512_loadu_pd(v), hi = _mm512_loadu_pd(v + 8);
        __m512d s = _mm512_set1_pd(x0[j]);
        a0 = _mm512_fmadd_pd(s, lo, a0);
        b0 = _mm512_fmadd_pd(s, hi, b0);
        s = _mm512_set1_pd(x1[j]);
        a1 = _mm512_fmadd_pd(s, lo, a1);
        b1 = _mm512_fmadd_pd(s, hi, b1);
        s = _mm512_set1_pd(x2[j]);
        a2 = _mm512_fmadd_pd(s, lo, a2);
        b2 = _mm512_fmadd_pd(s, hi, b2);
        s = _mm512_set1_pd(x3[j]);
        a3 = _mm512_fmadd_pd(s, lo, a3);
        b3 = _mm512_fmadd_pd(s, hi, b3);
      }
      pick16(a0, b0, bias + c, c, best + r, label + r);
      pick16(a1, b1, bias + c, c, best + r + 1, label + r + 1);
      pick16(a2, b2, bias + c, c, best + r + 2, label + r + 2);
      pick16(a3, b3, bias + c, c, best + r + 3, label + r + 3);
    }
  }
  for (; r < rows; r++) {
    const double *xr = x + r * ldx;
    for (int64_t c = 0; c < cols; c += LUMA_SMALL_DOTS_GROUP) {
      __m512d a = _mm512_setzero_pd(), b = a;
      const double *v = vt + c;
      for (int64_t j = 0; j < d; j++, v += ldv) {
        const __m512d s = _mm512_set1_pd(xr[j]);
        a = _mm512_fmadd_pd(s, _mm512_loadu_pd(v), a);
        b = _mm512_fmadd_pd(s, _mm512_loadu_pd(v + 8), b);
      }
      pick16(a, b, bias + c, c, best + r, label + r);
    }
  }
}

/* ---------------------------------------------------------------- AVX2 */

/* The products of four rows with a group of 16 columns, eight at a time
 * (eight accumulators fill the FMA units' pipelines), into g. */
__attribute__((target("avx2,fma"))) static void products4(int64_t d, const double *x,
                                                          int64_t ldx, const double *vt,
                                                          int64_t ldv, double *g) {
  const int64_t ld = LUMA_SMALL_DOTS_GROUP;
  const double *x0 = x, *x1 = x0 + ldx, *x2 = x1 + ldx, *x3 = x2 + ldx;
  for (int64_t c = 0; c < LUMA_SMALL_DOTS_GROUP; c += 8) {
    __m256d a0 = _mm256_setzero_pd(), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0,
            b3 = a0;
    const double *v = vt + c;
    for (int64_t j = 0; j < d; j++, v += ldv) {
      const __m256d lo = _mm256_loadu_pd(v), hi = _mm256_loadu_pd(v + 4);
      __m256d s = _mm256_broadcast_sd(x0 + j);
      a0 = _mm256_fmadd_pd(s, lo, a0);
      b0 = _mm256_fmadd_pd(s, hi, b0);
      s = _mm256_broadcast_sd(x1 + j);
      a1 = _mm256_fmadd_pd(s, lo, a1);
      b1 = _mm256_fmadd_pd(s, hi, b1);
      s = _mm256_broadcast_sd(x2 + j);
      a2 = _mm256_fmadd_pd(s, lo, a2);
      b2 = _mm256_fmadd_pd(s, hi, b2);
      s = _mm256_broadcast_sd(x3 + j);
      a3 = _mm256_fmadd_pd(s, lo, a3);
      b3 = _mm256_fmadd_pd(s, hi, b3);
    }
    double *o = g + c;
    _mm256_storeu_pd(o, a0);
    _mm256_storeu_pd(o + 4, b0);
    _mm256_storeu_pd(o + ld, a1);
    _mm256_storeu_pd(o + ld + 4, b1);
    _mm256_storeu_pd(o + 2 * ld, a2);
    _mm256_storeu_pd(o + 2 * ld + 4, b2);
    _mm256_storeu_pd(o + 3 * ld, a3);
    _mm256_storeu_pd(o + 3 * ld + 4, b3);
  }
}

#endif

/* ------------------------------------------------------------ dispatch */

#if !LUMA_X86_VECTORS
int luma_small_dots_available(void) { return 0; }
#endif

/* Products a block of up to four rows at a time into g, then the choice
 * from them: AVX2's path (products4) and the plain one. */
static void nearest_blocked(int avx2, int64_t rows, int64_t cols, int64_t d, const double *x,
                            int64_t ldx, const double *vt, int64_t ldv, const double *bias,
                            double *best, int64_t *label) {
  double g[4 * LUMA_SMALL_DOTS_GROUP];
  for (int64_t r = 0; r < rows; r += 4) {
    const int64_t rb = rows - r < 4 ? rows - r : 4;
    for (int64_t c = 0; c < cols; c += LUMA_SMALL_DOTS_GROUP) {
      const int64_t cb = cols - c < LUMA_SMALL_DOTS_GROUP ? cols - c : LUMA_SMALL_DOTS_GROUP;
#if LUMA_X86_VECTORS
      if (avx2 && rb == 4) products4(d, x + r * ldx, ldx, vt + c, ldv, g);
      else
#endif
        products(rb, d, x + r * ldx, ldx, vt + c, ldv, g);
      luma_nearest_of_products(rb, cb, g, LUMA_SMALL_DOTS_GROUP, bias + c, c, best + r,
                               label + r);
    }
  }
}

void luma_small_nearest(int64_t rows, int64_t cols, int64_t d, const double *x, int64_t ldx,
                        const double *vt, int64_t ldv, const double *bias, double *best,
                        int64_t *label) {
  int avx2 = 0;
#if LUMA_X86_VECTORS
  if (__builtin_cpu_supports("avx512f")) {
    nearest512(rows, cols, d, x, ldx, vt, ldv, bias, best, label);
    return;
  }
  avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  nearest_blocked(avx2, rows, cols, d, x, ldx, vt, ldv, bias, best, label);
}
