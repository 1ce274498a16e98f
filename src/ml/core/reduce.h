/*
 * reduce.h - reductions, scans and sorting over lanes of a matrix (no Lua).
 *
 * A lane is a strided run of elements: along dimension 1 the lanes are the
 * columns (each reduced down its rows, giving 1 x cols), along dimension 2
 * the rows (giving rows x 1).  Reducing "all" treats the whole matrix as
 * one set of elements.
 *
 * Work is charged to the meter t (core/parallel.h; NULL: unmetered) about
 * one unit per element visited (sorting: n log2 n); a stopped kernel
 * returns early with its output partly written (luma_work_status(t) says
 * why).  Empty matrices cost nothing, whatever their other dimension.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_REDUCE_H
#define LUMA_ML_REDUCE_H

#include "core/matrix.h"
#include "core/parallel.h"

typedef enum luma_Reduce {
  LUMA_RED_SUM, LUMA_RED_PROD, LUMA_RED_MEAN, LUMA_RED_VAR, LUMA_RED_STD,
  LUMA_RED_MIN, LUMA_RED_MAX, LUMA_RED_ARGMIN, LUMA_RED_ARGMAX,
  LUMA_RED_NORM, LUMA_RED_ANY, LUMA_RED_ALL, LUMA_RED_LOGSUMEXP, LUMA_RED_COUNT
} luma_Reduce;

/* A lane: n elements at p[0], p[stride], ... */
typedef struct luma_Lane {
  const double *p;
  int64_t n, stride;
} luma_Lane;

/* Reduces one lane.  `param` is ddof for var/std and p for norm (p may be
 * INFINITY).  arg{min,max} return the 0-based position (NaN counts as
 * the extreme, as in NumPy); min/max propagate NaN; an empty lane gives
 * the identity (0 for sum, 1 for prod, -inf for logsumexp) or NaN. */
double luma_reduce_lane(luma_Reduce op, luma_Lane lane, double param);

/* Reduces along dim (1 or 2) into out (1 x cols or rows x 1). */
void luma_reduce_dim(luma_Threads *t, luma_Reduce op, const luma_Mat *a, int dim, double param,
                     luma_Mat *out);

/* Reduces all elements (for argmin/argmax: the row-major position). */
double luma_reduce_all(luma_Threads *t, luma_Reduce op, const luma_Mat *a, double param);

typedef enum luma_Scan { LUMA_SCAN_CUMSUM, LUMA_SCAN_CUMPROD, LUMA_SCAN_SOFTMAX,
                         LUMA_SCAN_LOG_SOFTMAX } luma_Scan;

/* out = scan of a along dim; same shape; out may be a. */
void luma_scan_dim(luma_Threads *t, luma_Scan op, const luma_Mat *a, int dim, luma_Mat *out);

/* Stable sort of each lane along dim: values into out (may be a) and/or
 * 0-based positions into idx (either may be NULL).  NaN sorts last.
 * `work` needs 2 * (lane length) int64 slots. */
void luma_sort_dim(luma_Threads *t, const luma_Mat *a, int dim, int descending, luma_Mat *out,
                   luma_Mat *idx, int64_t *work);

/* The units sorting n elements is charged: n * ceil(log2 n), at least n. */
uint64_t luma_sort_cost(int64_t n);

/* Distinct values of a, ascending (NaN last, counted as one value), into
 * values[] and counts[] (each room for rows*cols); returns how many.
 * `work` needs rows*cols doubles. */
int64_t luma_unique(luma_Threads *t, const luma_Mat *a, double *values, double *counts,
                    double *work);

/* For each element of a, its 1-based position among the m ascending
 * distinct values (as luma_unique returns them) into out, a's shape. */
void luma_unique_positions(luma_Threads *t, const luma_Mat *a, const double *values, int64_t m,
                           luma_Mat *out);

#endif
