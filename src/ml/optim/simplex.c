/*
 * simplex.c - dense two-phase simplex (see simplex.h).
 *
 * The tableau has m constraint rows and a last row of reduced costs; its
 * columns are the n variables, the m artificials and the right-hand side
 * (whose entry in the last row is minus the objective value).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "optim/simplex.h"

/* Degenerate pivots in a row before pricing switches to Bland's rule. */
#define DEGENERATE_RUN 50

typedef struct Tableau {
  double *t;
  int64_t m, cols, width; /* width = cols + 1 (the rhs) */
  int64_t *basis;
  luma_WorkBatch work; /* the pivots' charges */
} Tableau;

#define T_AT(tb, i, j) ((tb)->t[(i) * (tb)->width + (j)])

int64_t luma_simplex_work(int64_t m, int64_t n) {
  return (m + 1) * (n + m + 1) + m; /* the basis indices fit in doubles' space */
}

static void pivot(Tableau *tb, int64_t r, int64_t e) {
  double *row = &T_AT(tb, r, 0);
  double inv = 1.0 / row[e];
  for (int64_t j = 0; j < tb->width; j++) row[j] *= inv;
  row[e] = 1.0;
  for (int64_t i = 0; i <= tb->m; i++) {
    if (i == r) continue;
    double *other = &T_AT(tb, i, 0), f = other[e];
    if (f == 0.0) continue;
    for (int64_t j = 0; j < tb->width; j++) other[j] -= f * row[j];
    other[e] = 0.0;
  }
  tb->basis[r] = e;
}

/* The simplex on the current reduced-cost row over columns 0..allowed-1. */
static luma_LpStatus run(Tableau *tb, int64_t allowed, int64_t max_iter, double tol,
                         int64_t *pivots) {
  int64_t degenerate = 0, rhs = tb->cols;
  /* pricing, the ratio test and the pivot's update of the whole tableau */
  const uint64_t per_pivot = (uint64_t)(allowed + tb->m + (tb->m + 1) * tb->width);
  for (;;) {
    if (luma_work_add(&tb->work, per_pivot)) return LUMA_LP_STOPPED;
    int bland = degenerate >= DEGENERATE_RUN;
    int64_t enter = -1;
    double best = -tol;
    for (int64_t j = 0; j < allowed; j++) {
      double d = T_AT(tb, tb->m, j);
      if (d < best) {
        enter = j;
        if (bland) break;
        best = d;
      }
    }
    if (enter < 0) return LUMA_LP_OPTIMAL;
    if (*pivots >= max_iter) return LUMA_LP_MAX_ITER;
    int64_t leave = -1;
    double ratio = 0, size = 0;
    for (int64_t i = 0; i < tb->m; i++) {
      double a = T_AT(tb, i, enter);
      if (a <= tol) continue;
      double q = T_AT(tb, i, rhs) / a;
      int better = leave < 0 || q < ratio - 1e-12;
      if (!better && fabs(q - ratio) <= 1e-12) /* a tie */
        better = bland ? tb->basis[i] < tb->basis[leave] : a > size;
      if (better) leave = i, ratio = q, size = a;
    }
    if (leave < 0) return LUMA_LP_UNBOUNDED;
    degenerate = ratio <= 1e-12 ? degenerate + 1 : 0;
    pivot(tb, leave, enter);
    ++*pivots;
  }
}

luma_LpStatus luma_simplex(luma_Threads *t, const double *c, const double *a, const double *b,
                           int64_t m, int64_t n, int64_t max_iter, double tol, double *x,
                           double *work, int64_t *pivots) {
  Tableau tb = {work, m, n + m, n + m + 1, NULL, {t, 0}};
  tb.basis = (int64_t *)(work + (m + 1) * tb.width);
  int64_t rhs = tb.cols;
  *pivots = 0;
  /* building the tableau, and later the phase II costs: each touches it once */
  if (luma_work_add(&tb.work, 2 * (uint64_t)((m + 1) * tb.width))) return LUMA_LP_STOPPED;
  memset(work, 0, (size_t)((m + 1) * tb.width) * sizeof *work);
  double scale = 1;
  for (int64_t i = 0; i < m; i++) {
    memcpy(&T_AT(&tb, i, 0), a + i * n, (size_t)n * sizeof *a);
    T_AT(&tb, i, n + i) = 1.0;
    T_AT(&tb, i, rhs) = b[i];
    tb.basis[i] = n + i;
    if (fabs(b[i]) > scale) scale = fabs(b[i]);
    /* phase I costs: 1 on the artificials, so d_j = -sum_i T_ij */
    for (int64_t j = 0; j < n; j++) T_AT(&tb, m, j) -= T_AT(&tb, i, j);
    T_AT(&tb, m, rhs) -= b[i];
  }
  luma_LpStatus st = run(&tb, tb.cols, max_iter, tol, pivots);
  if (st == LUMA_LP_MAX_ITER || st == LUMA_LP_STOPPED) return st;
  if (-T_AT(&tb, m, rhs) > 1e-9 * scale) return LUMA_LP_INFEASIBLE;
  /* Drive the artificials still basic (at zero) out; a row without a
   * usable variable is redundant and keeps its artificial at zero. */
  for (int64_t i = 0; i < m; i++) {
    if (tb.basis[i] < n) continue;
    if (luma_work_add(&tb.work, (uint64_t)(n + (m + 1) * tb.width))) return LUMA_LP_STOPPED;
    for (int64_t j = 0; j < n; j++)
      if (fabs(T_AT(&tb, i, j)) > tol) {
        pivot(&tb, i, j);
        break;
      }
  }
  /* phase II reduced costs: d_j = c_j - sum_i c_B(i) T_ij */
  for (int64_t j = 0; j < tb.width; j++) T_AT(&tb, m, j) = j < n ? c[j] : 0.0;
  for (int64_t i = 0; i < m; i++) {
    int64_t k = tb.basis[i];
    double ck = k < n ? c[k] : 0.0;
    if (ck == 0.0) continue;
    for (int64_t j = 0; j < tb.width; j++) T_AT(&tb, m, j) -= ck * T_AT(&tb, i, j);
  }
  st = run(&tb, n, max_iter, tol, pivots);
  luma_work_flush(&tb.work);
  if (st != LUMA_LP_OPTIMAL) return st;
  memset(x, 0, (size_t)n * sizeof *x);
  for (int64_t i = 0; i < m; i++)
    if (tb.basis[i] < n) x[tb.basis[i]] = T_AT(&tb, i, rhs);
  return LUMA_LP_OPTIMAL;
}
