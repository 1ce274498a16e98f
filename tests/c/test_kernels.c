/*
 * test_kernels.c - every path of src/ml/core/smalldots.c and narrow.c
 * (the plain one, AVX2 and AVX-512 where this CPU has them), whichever
 * the dispatch would choose, against a direct computation.  The data are
 * small integers, so every product is exact in any order of summation and
 * the paths must agree exactly, ties included (duplicated vectors: the
 * lowest index); entries past the columns, in the strides' slack, must
 * stay as they were.
 *
 * Prints "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/narrow.c"
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

/* ------------------------------------------------------------ narrow.c */

#define NARROW_ROWS 9
#define NARROW_D 9
#define NARROW_C 70
#define SLACK 3 /* extra columns in every stride */

typedef void (*Product)(int64_t, int64_t, int64_t, const double *, int64_t, const double *,
                        int64_t, double *, int64_t);

static void check(const char *name, int ok, int64_t rows, int64_t d, int64_t c) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s: rows %lld d %lld c %lld\n", name, (long long)rows, (long long)d,
           (long long)c);
  }
}

/* x q, and s += x^T p, each against the plain loops. */
static void narrow_case(const char *name, Product xq, Product xtp, int64_t rows, int64_t d,
                        int64_t c) {
  static double x[NARROW_ROWS * (NARROW_D + SLACK)], q[NARROW_D * (NARROW_C + SLACK)];
  static double p[NARROW_ROWS * (NARROW_C + SLACK)], want_p[NARROW_ROWS * (NARROW_C + SLACK)];
  static double s_[NARROW_D * (NARROW_C + SLACK)], want_s[NARROW_D * (NARROW_C + SLACK)];
  const int64_t ldx = d + SLACK, ldq = c + SLACK, ldp = c + SLACK, lds = c + SLACK;
  for (int64_t i = 0; i < rows * ldx; i++) x[i] = small_int();
  for (int64_t i = 0; i < d * ldq; i++) q[i] = small_int();
  for (int64_t i = 0; i < rows * ldp; i++) p[i] = want_p[i] = 99; /* the slack's sentinel */
  for (int64_t i = 0; i < d * lds; i++) s_[i] = want_s[i] = small_int();
  xq_plain(rows, d, c, x, ldx, q, ldq, want_p, ldp);
  xq(rows, d, c, x, ldx, q, ldq, p, ldp);
  int ok = 1;
  for (int64_t i = 0; i < rows * ldp; i++) ok &= p[i] == want_p[i];
  check(name, ok, rows, d, c);
  xtp_plain(rows, d, c, x, ldx, p, ldp, want_s, lds);
  xtp(rows, d, c, x, ldx, p, ldp, s_, lds);
  ok = 1;
  for (int64_t i = 0; i < d * lds; i++) ok &= s_[i] == want_s[i];
  check(name, ok, rows, d, c);
}

static void narrow_cases(const char *name, Product xq, Product xtp) {
  static const int64_t cs[] = {1, 7, 8, 9, 30, 32, 33, 64, 70};
  for (int64_t rows = 1; rows <= NARROW_ROWS; rows++)
    for (int64_t d = 1; d <= NARROW_D; d++)
      for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) narrow_case(name, xq, xtp, rows, d, cs[k]);
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
#if LUMA_X86_VECTORS
  if (__builtin_cpu_supports("avx512f")) narrow_cases("narrow avx512", xq512, xtp512);
#endif
  narrow_cases("narrow dispatch", luma_narrow_xq, luma_narrow_xtp);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
