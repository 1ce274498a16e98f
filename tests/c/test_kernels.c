/*
 * test_kernels.c - every path of src/ml/core/smalldots.c (the plain one,
 * AVX2 and AVX-512 where this CPU has them), whichever the dispatch would
 * choose, against a direct computation.  The data are small integers, so
 * every product is exact in any order of summation and the paths must
 * agree exactly, ties included (duplicated vectors: the lowest index).
 *
 * Prints "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/smalldots.c"

#define MAX_ROWS 9
#define MAX_D 33
#define MAX_COLS 48 /* 40 rounded up to the group */

static int passed, failed;

typedef void (*Path)(int64_t, int64_t, int64_t, const double *, int64_t, const double *,
                     int64_t, const double *, double *, int64_t *);

static void plain(int64_t rows, int64_t cols, int64_t d, const double *x, int64_t ldx,
                  const double *vt, int64_t ldv, const double *bias, double *best,
                  int64_t *label) {
  nearest_blocked(0, rows, cols, d, x, ldx, vt, ldv, bias, best, label);
}

#if LUMA_X86_VECTORS
static void avx2(int64_t rows, int64_t cols, int64_t d, const double *x, int64_t ldx,
                 const double *vt, int64_t ldv, const double *bias, double *best,
                 int64_t *label) {
  nearest_blocked(1, rows, cols, d, x, ldx, vt, ldv, bias, best, label);
}
#endif

static double small_int(void) { return (double)(rand() % 7 - 3); }

/* One case: rows x d data, cols vectors (the last a copy of the first when
 * tie), each row's best preset to `start`. */
static void one_case(const char *name, Path path, int64_t rows, int64_t cols, int64_t d, int tie,
                     double start) {
  double x[MAX_ROWS * (MAX_D + 1)], vt[MAX_D * MAX_COLS], bias[MAX_COLS];
  double best[MAX_ROWS], want_best[MAX_ROWS];
  int64_t label[MAX_ROWS], want_label[MAX_ROWS];
  const int64_t ldx = d + 1, ldv = MAX_COLS; /* strides wider than the data */
  for (int64_t i = 0; i < rows * ldx; i++) x[i] = small_int();
  for (int64_t i = 0; i < MAX_D * MAX_COLS; i++) vt[i] = 0;
  for (int64_t c = 0; c < cols; c++)
    for (int64_t j = 0; j < d; j++) vt[j * ldv + c] = tie && c == cols - 1 ? vt[j * ldv] : small_int();
  for (int64_t c = 0; c < MAX_COLS; c++) {
    double s = 0;
    for (int64_t j = 0; j < d; j++) s += vt[j * ldv + c] * vt[j * ldv + c];
    bias[c] = c < cols ? s : INFINITY;
  }
  for (int64_t r = 0; r < rows; r++) {
    want_best[r] = best[r] = start;
    want_label[r] = label[r] = -1;
    for (int64_t c = 0; c < cols; c++) {
      double dot = 0;
      for (int64_t j = 0; j < d; j++) dot += x[r * ldx + j] * vt[j * ldv + c];
      const double v = bias[c] - 2 * dot;
      if (v < want_best[r]) want_best[r] = v, want_label[r] = c;
    }
  }
  path(rows, cols, d, x, ldx, vt, ldv, bias, best, label);
  int ok = 1;
  for (int64_t r = 0; r < rows; r++) ok &= best[r] == want_best[r] && label[r] == want_label[r];
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s: rows %lld cols %lld d %lld tie %d start %g\n", name, (long long)rows,
           (long long)cols, (long long)d, tie, start);
  }
}

static void cases(const char *name, Path path) {
  static const int64_t ds[] = {1, 3, 20, 33}, cols[] = {1, 5, 16, 17, 40};
  for (int64_t rows = 1; rows <= MAX_ROWS; rows++)
    for (size_t a = 0; a < sizeof ds / sizeof ds[0]; a++)
      for (size_t b = 0; b < sizeof cols / sizeof cols[0]; b++)
        for (int tie = 0; tie < 2; tie++) {
          one_case(name, path, rows, cols[b], ds[a], tie && cols[b] > 1, INFINITY);
          /* a best already below every candidate stays, label included */
          one_case(name, path, rows, cols[b], ds[a], 0, -1e9);
        }
}

int main(void) {
  srand(7);
  cases("plain", plain);
#if LUMA_X86_VECTORS
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) cases("avx2", avx2);
  else printf("skipped: avx2 (this CPU lacks it)\n");
  if (__builtin_cpu_supports("avx512f")) cases("avx512", nearest512);
  else printf("skipped: avx512 (this CPU lacks it)\n");
#endif
  cases("dispatch", luma_small_nearest);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
