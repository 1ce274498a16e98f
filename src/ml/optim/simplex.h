/*
 * simplex.h - dense two-phase simplex for linear programs in standard
 * form (no Lua): min c'x subject to A x = b, x >= 0, with b >= 0.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SIMPLEX_H
#define LUMA_ML_SIMPLEX_H

#include <stdint.h>

#include "core/parallel.h"

typedef enum luma_LpStatus {
  LUMA_LP_OPTIMAL,
  LUMA_LP_INFEASIBLE,
  LUMA_LP_UNBOUNDED,
  LUMA_LP_MAX_ITER,
  LUMA_LP_STOPPED /* the meter stopped the pivots (luma_work_status says why) */
} luma_LpStatus;

/* Scratch for luma_simplex, in doubles (the tableau and the basis). */
int64_t luma_simplex_work(int64_t m, int64_t n);

/* Solves the program with A m x n row-major and b >= 0.  Phase I
 * minimises the sum of m artificial variables; phase II the cost, with
 * the artificials barred from entering.  Pricing is Dantzig's (most
 * negative reduced cost) and switches to Bland's rule (first improving
 * column, lowest-index leaving row) after a run of degenerate pivots, so
 * it cannot cycle; the reduced costs live in the tableau's last row and
 * are updated by each pivot.  tol: pivot and optimality tolerance.  On
 * LUMA_LP_OPTIMAL, x (n) holds the solution.  *pivots counts the pivots
 * of both phases.  Every pivot (O(m (n + m))) is charged to the meter t
 * (may be NULL); a stopped meter ends the run with LUMA_LP_STOPPED. */
luma_LpStatus luma_simplex(luma_Threads *t, const double *c, const double *a, const double *b, int64_t m,
                           int64_t n, int64_t max_iter, double tol, double *x, double *work,
                           int64_t *pivots);

#endif
