/*
 * reduce.c - reductions, scans and sorting over lanes of a matrix.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/reduce.h"

#define AT(lane, k) ((lane).p[(k) * (lane).stride])

/* Four partial sums: independent dependency chains run faster and the
 * rounding error grows more slowly than with one running total. */
static double lane_sum(luma_Lane l) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= l.n; k += 4) {
    s0 += AT(l, k);
    s1 += AT(l, k + 1);
    s2 += AT(l, k + 2);
    s3 += AT(l, k + 3);
  }
  for (; k < l.n; k++) s0 += AT(l, k);
  return (s0 + s1) + (s2 + s3);
}

static double lane_sum_sq_dev(luma_Lane l, double mean) {
  double s = 0;
  for (int64_t k = 0; k < l.n; k++) {
    double d = AT(l, k) - mean;
    s += d * d;
  }
  return s;
}

static double lane_sum_exp_shifted(luma_Lane l, double shift) {
  double s = 0;
  for (int64_t k = 0; k < l.n; k++) s += exp(AT(l, k) - shift);
  return s;
}

/* Position of the smallest (sign = 1) or largest (sign = -1) element; the
 * first NaN wins, as in NumPy. */
static int64_t lane_argext(luma_Lane l, int sign) {
  int64_t best = 0;
  for (int64_t k = 0; k < l.n; k++) {
    double v = AT(l, k);
    if (isnan(v)) return k;
    if (sign * v < sign * AT(l, best)) best = k;
  }
  return best;
}

/* p-norm; the 2-norm scales by the largest magnitude first so squares
 * cannot overflow or underflow. */
static double lane_norm(luma_Lane l, double p) {
  if (p == INFINITY || p == -INFINITY) {
    double m = p > 0 ? 0 : INFINITY;
    for (int64_t k = 0; k < l.n; k++) {
      double a = fabs(AT(l, k));
      if (isnan(a)) return a;
      if (p > 0 ? a > m : a < m) m = a;
    }
    return m;
  }
  if (p == 0) {
    double c = 0;
    for (int64_t k = 0; k < l.n; k++) c += AT(l, k) != 0;
    return c;
  }
  if (p == 1) {
    double s = 0;
    for (int64_t k = 0; k < l.n; k++) s += fabs(AT(l, k));
    return s;
  }
  double scale = lane_norm(l, INFINITY);
  if (scale == 0 || !isfinite(scale)) return scale;
  double s = 0;
  if (p == 2) { /* t * t, not pow(t, 2): the same value, ten times sooner */
    for (int64_t k = 0; k < l.n; k++) {
      double t = fabs(AT(l, k)) / scale;
      s += t * t;
    }
    return scale * sqrt(s);
  }
  for (int64_t k = 0; k < l.n; k++) s += pow(fabs(AT(l, k)) / scale, p);
  return scale * pow(s, 1.0 / p);
}

double luma_reduce_lane(luma_Reduce op, luma_Lane l, double param) {
  switch (op) {
    case LUMA_RED_SUM: return lane_sum(l);
    case LUMA_RED_PROD: {
      double s = 1;
      for (int64_t k = 0; k < l.n; k++) s *= AT(l, k);
      return s;
    }
    case LUMA_RED_MEAN: return l.n ? lane_sum(l) / (double)l.n : NAN;
    case LUMA_RED_VAR:
    case LUMA_RED_STD: {
      double dof = (double)l.n - param;
      if (l.n == 0 || dof <= 0) return NAN;
      double v = lane_sum_sq_dev(l, lane_sum(l) / (double)l.n) / dof;
      return op == LUMA_RED_STD ? sqrt(v) : v;
    }
    case LUMA_RED_MIN:
    case LUMA_RED_MAX:
      return l.n ? AT(l, lane_argext(l, op == LUMA_RED_MIN ? 1 : -1)) : NAN;
    case LUMA_RED_ARGMIN: return l.n ? (double)lane_argext(l, 1) : NAN;
    case LUMA_RED_ARGMAX: return l.n ? (double)lane_argext(l, -1) : NAN;
    case LUMA_RED_NORM: return lane_norm(l, param);
    case LUMA_RED_ANY:
      for (int64_t k = 0; k < l.n; k++)
        if (AT(l, k) != 0) return 1;
      return 0;
    case LUMA_RED_ALL:
      for (int64_t k = 0; k < l.n; k++)
        if (AT(l, k) == 0) return 0;
      return 1;
    case LUMA_RED_LOGSUMEXP: {
      if (l.n == 0) return -INFINITY;
      double m = AT(l, lane_argext(l, -1));
      if (!isfinite(m)) return m; /* NaN, +inf, or all -inf */
      return m + log(lane_sum_exp_shifted(l, m));
    }
    case LUMA_RED_COUNT: break;
  }
  return NAN;
}

static luma_Lane lane_of(const luma_Mat *a, int dim, int64_t k) {
  luma_Lane l;
  if (dim == 1) {
    l.p = a->data + k * a->cs;
    l.n = a->rows;
    l.stride = a->rs;
  } else {
    l.p = a->data + k * a->rs;
    l.n = a->cols;
    l.stride = a->cs;
  }
  return l;
}

static int64_t lane_count(const luma_Mat *a, int dim) { return dim == 1 ? a->cols : a->rows; }

void luma_reduce_dim(luma_Threads *t, luma_Reduce op, const luma_Mat *a, int dim, double param,
                     luma_Mat *out) {
  int64_t lanes = lane_count(a, dim);
  luma_WorkBatch w = {t, 0};
  for (int64_t k = 0; k < lanes; k++) {
    luma_Lane lane = lane_of(a, dim, k);
    if (luma_work_add(&w, (uint64_t)lane.n + 1)) return;
    double v = luma_reduce_lane(op, lane, param);
    if (dim == 1)
      LUMA_AT(out, 0, k) = v;
    else
      LUMA_AT(out, k, 0) = v;
  }
  luma_work_flush(&w);
}

double luma_reduce_all(luma_Threads *t, luma_Reduce op, const luma_Mat *a, double param) {
  int64_t n = a->rows * a->cols;
  /* One pass over the elements (two for var, std, norm and logsumexp),
   * charged at once: a pass over memory is short. */
  if (luma_work_charge(t, (uint64_t)n) != LUMA_LOOP_DONE) return NAN;
  if (n == 0 || luma_mat_is_contiguous(a)) {
    luma_Lane l = {a->data, n, 1};
    return luma_reduce_lane(op, l, param);
  }
  /* Strided: combine the row lanes. */
  switch (op) {
    case LUMA_RED_SUM:
    case LUMA_RED_MEAN: {
      double s = 0;
      for (int64_t i = 0; i < a->rows; i++) s += lane_sum(lane_of(a, 2, i));
      return op == LUMA_RED_SUM ? s : (n ? s / (double)n : NAN);
    }
    case LUMA_RED_PROD:
    case LUMA_RED_ANY:
    case LUMA_RED_ALL: {
      double r = op == LUMA_RED_ANY ? 0 : 1;
      for (int64_t i = 0; i < a->rows; i++) {
        double v = luma_reduce_lane(op, lane_of(a, 2, i), param);
        if (op == LUMA_RED_PROD) r *= v;
        else if (op == LUMA_RED_ANY) r = r || v;
        else r = r && v;
      }
      return r;
    }
    case LUMA_RED_VAR:
    case LUMA_RED_STD: {
      double dof = (double)n - param;
      if (n == 0 || dof <= 0) return NAN;
      double mean = luma_reduce_all(NULL, LUMA_RED_MEAN, a, 0), ss = 0;
      for (int64_t i = 0; i < a->rows; i++) ss += lane_sum_sq_dev(lane_of(a, 2, i), mean);
      return op == LUMA_RED_STD ? sqrt(ss / dof) : ss / dof;
    }
    case LUMA_RED_MIN:
    case LUMA_RED_MAX:
    case LUMA_RED_ARGMIN:
    case LUMA_RED_ARGMAX: {
      if (n == 0) return NAN;
      int sign = (op == LUMA_RED_MIN || op == LUMA_RED_ARGMIN) ? 1 : -1;
      int64_t bi = 0, bj = 0;
      for (int64_t i = 0; i < a->rows; i++) {
        int64_t j = lane_argext(lane_of(a, 2, i), sign);
        double v = LUMA_AT(a, i, j), best = LUMA_AT(a, bi, bj);
        if (isnan(best)) break;
        if (isnan(v) || sign * v < sign * best) {
          bi = i;
          bj = j;
        }
      }
      if (op == LUMA_RED_MIN || op == LUMA_RED_MAX) return LUMA_AT(a, bi, bj);
      return (double)(bi * a->cols + bj);
    }
    case LUMA_RED_NORM: {
      if (param == INFINITY || param == -INFINITY || param == 0 || param == 1) {
        double r = param == -INFINITY ? INFINITY : 0;
        for (int64_t i = 0; i < a->rows; i++) {
          double v = lane_norm(lane_of(a, 2, i), param);
          if (isnan(v)) return v;
          if (param == INFINITY) r = v > r ? v : r;
          else if (param == -INFINITY) r = v < r ? v : r;
          else r += v;
        }
        return r;
      }
      double scale = luma_reduce_all(NULL, LUMA_RED_NORM, a, INFINITY);
      if (scale == 0 || !isfinite(scale)) return scale;
      double s = 0;
      for (int64_t i = 0; i < a->rows; i++)
        for (int64_t j = 0; j < a->cols; j++) {
          double r = fabs(LUMA_AT(a, i, j)) / scale;
          s += param == 2 ? r * r : pow(r, param);
        }
      return scale * (param == 2 ? sqrt(s) : pow(s, 1.0 / param));
    }
    case LUMA_RED_LOGSUMEXP: {
      if (n == 0) return -INFINITY;
      double m = luma_reduce_all(NULL, LUMA_RED_MAX, a, 0), s = 0;
      if (!isfinite(m)) return m;
      for (int64_t i = 0; i < a->rows; i++) s += lane_sum_exp_shifted(lane_of(a, 2, i), m);
      return m + log(s);
    }
    case LUMA_RED_COUNT: break;
  }
  return NAN;
}

/* ----------------------------------------------------------------- scans */

void luma_scan_dim(luma_Threads *t, luma_Scan op, const luma_Mat *a, int dim, luma_Mat *out) {
  if (a->rows == 0 || a->cols == 0) return;
  int64_t lanes = lane_count(a, dim);
  luma_WorkBatch w = {t, 0};
  for (int64_t k = 0; k < lanes; k++) {
    luma_Lane in = lane_of(a, dim, k);
    if (luma_work_add(&w, (uint64_t)in.n + 1)) return;
    luma_Lane o = lane_of(out, dim, k);
    double *po = (double *)o.p;
    switch (op) {
      case LUMA_SCAN_CUMSUM: {
        double s = 0;
        for (int64_t i = 0; i < in.n; i++) po[i * o.stride] = s += AT(in, i);
        break;
      }
      case LUMA_SCAN_CUMPROD: {
        double s = 1;
        for (int64_t i = 0; i < in.n; i++) po[i * o.stride] = s *= AT(in, i);
        break;
      }
      case LUMA_SCAN_SOFTMAX:
      case LUMA_SCAN_LOG_SOFTMAX: {
        /* Shift by the maximum: exp never overflows, and x - max is exact
         * where x - logsumexp(x) would lose the low digits of large x. */
        if (in.n == 0) break;
        double m = AT(in, lane_argext(in, -1));
        if (!isfinite(m)) m = 0; /* NaN propagates; all -inf gives NaN as in NumPy */
        double total = lane_sum_exp_shifted(in, m);
        double log_total = log(total);
        for (int64_t i = 0; i < in.n; i++) {
          double shifted = AT(in, i) - m;
          po[i * o.stride] =
              op == LUMA_SCAN_SOFTMAX ? exp(shifted) / total : shifted - log_total;
        }
        break;
      }
    }
  }
  luma_work_flush(&w);
}

/* --------------------------------------------------------------- sorting */

/* Ascending order with NaN last; 0 for ties (keeps the sort stable). */
static int compare_values(double x, double y) {
  int xn = isnan(x), yn = isnan(y);
  if (xn || yn) return xn - yn;
  return (x > y) - (x < y);
}

/* The sort order: ascending or descending, NaN last either way. */
static int compare_order(double x, double y, int descending) {
  if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
  return descending ? compare_values(y, x) : compare_values(x, y);
}

/* Merges the sorted runs pos[0..half) and pos[half..n). */
static void merge(luma_Lane l, int descending, int64_t *pos, int64_t *tmp, int64_t half,
                  int64_t n) {
  int64_t i = 0, j = half, k = 0;
  while (i < half && j < n) {
    /* Take from the right run only when strictly before the left one. */
    if (compare_order(AT(l, pos[j]), AT(l, pos[i]), descending) < 0)
      tmp[k++] = pos[j++];
    else
      tmp[k++] = pos[i++];
  }
  while (i < half) tmp[k++] = pos[i++];
  while (j < n) tmp[k++] = pos[j++];
  memcpy(pos, tmp, (size_t)n * sizeof *pos);
}

/* Stable merge sort of the positions pos[0..n) by the lane's values. */
static void merge_sort(luma_Lane l, int descending, int64_t *pos, int64_t *tmp, int64_t n) {
  if (n < 2) return;
  int64_t half = n / 2;
  merge_sort(l, descending, pos, tmp, half);
  merge_sort(l, descending, pos + half, tmp, n - half);
  merge(l, descending, pos, tmp, half, n);
}

uint64_t luma_sort_cost(int64_t n) {
  uint64_t levels = 1;
  while (levels < 63 && ((int64_t)1 << levels) < n) levels++;
  return (uint64_t)n * levels;
}

/* Runs below this length are sorted in one piece, charged up front. */
#define SORT_PIECE 4096

/* merge_sort with the meter: big runs charge each merge (n units) as it
 * comes, so a long sort stops within one merge of the budget.  Returns
 * nonzero when stopped. */
static int metered_sort(luma_Threads *t, luma_Lane l, int descending, int64_t *pos, int64_t *tmp,
                        int64_t n) {
  if (n <= SORT_PIECE) {
    if (luma_work_charge(t, luma_sort_cost(n)) != LUMA_LOOP_DONE) return 1;
    merge_sort(l, descending, pos, tmp, n);
    return 0;
  }
  int64_t half = n / 2;
  if (metered_sort(t, l, descending, pos, tmp, half) ||
      metered_sort(t, l, descending, pos + half, tmp, n - half) ||
      luma_work_charge(t, (uint64_t)n) != LUMA_LOOP_DONE)
    return 1;
  merge(l, descending, pos, tmp, half, n);
  return 0;
}

void luma_sort_dim(luma_Threads *t, const luma_Mat *a, int dim, int descending, luma_Mat *out,
                   luma_Mat *idx, int64_t *work) {
  if (a->rows == 0 || a->cols == 0) return;
  int64_t lanes = lane_count(a, dim);
  for (int64_t k = 0; k < lanes; k++) {
    luma_Lane in = lane_of(a, dim, k);
    int64_t *pos = work, *tmp = work + in.n;
    for (int64_t i = 0; i < in.n; i++) pos[i] = i;
    if (metered_sort(t, in, descending, pos, tmp, in.n)) return;
    if (out) {
      /* Gather first: out may be the input itself. */
      double *sorted = (double *)tmp;
      for (int64_t i = 0; i < in.n; i++) sorted[i] = AT(in, pos[i]);
      luma_Lane o = lane_of(out, dim, k);
      for (int64_t i = 0; i < in.n; i++) ((double *)o.p)[i * o.stride] = sorted[i];
    }
    if (idx) {
      luma_Lane o = lane_of(idx, dim, k);
      for (int64_t i = 0; i < in.n; i++) ((double *)o.p)[i * o.stride] = (double)pos[i];
    }
  }
}

static int compare_for_qsort(const void *x, const void *y) {
  return compare_values(*(const double *)x, *(const double *)y);
}

int64_t luma_unique(luma_Threads *t, const luma_Mat *a, double *values, double *counts,
                    double *work) {
  if (a->rows == 0 || a->cols == 0) return 0;
  /* qsort runs in one piece: charged up front */
  if (luma_work_charge(t, luma_sort_cost(a->rows * a->cols) + (uint64_t)(a->rows * a->cols)))
    return 0;
  int64_t n = 0;
  for (int64_t i = 0; i < a->rows; i++)
    for (int64_t j = 0; j < a->cols; j++) work[n++] = LUMA_AT(a, i, j);
  qsort(work, (size_t)n, sizeof *work, compare_for_qsort);
  int64_t m = 0;
  for (int64_t k = 0; k < n; k++) {
    if (m > 0 && compare_values(values[m - 1], work[k]) == 0) {
      counts[m - 1] += 1;
    } else {
      values[m] = work[k];
      counts[m++] = 1;
    }
  }
  return m;
}

void luma_unique_positions(luma_Threads *t, const luma_Mat *a, const double *values, int64_t m,
                           luma_Mat *out) {
  if (a->rows == 0 || a->cols == 0) return;
  if (luma_work_charge(t, (uint64_t)(a->rows * a->cols) * luma_sort_cost(m) / (m > 0 ? (uint64_t)m : 1)))
    return;
  for (int64_t i = 0; i < a->rows; i++)
    for (int64_t j = 0; j < a->cols; j++) {
      double v = LUMA_AT(a, i, j);
      int64_t lo = 0, hi = m - 1; /* v is one of the values: find it */
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (compare_values(values[mid], v) < 0) lo = mid + 1;
        else hi = mid;
      }
      LUMA_AT(out, i, j) = (double)(lo + 1);
    }
}
