/*
 * tsa.c - the ARMA filter and the sample autocovariances (see tsa.h).
 *
 * The autocovariance divides by n (notes 003 §1.20 L1348-1356, §3 item 26:
 * the biased estimator, whose Toeplitz matrices are positive
 * semi-definite) unless adjusted; the MA part of the filter sums from
 * theta_0 = 1 (notes 003 L1394-1398, with the erratum on its limits).
 * SPDX-License-Identifier: MIT
 */
#include "tsa/tsa.h"

luma_LoopStatus luma_tsa_arma_filter(luma_Threads *meter, const double *ar, int64_t p,
                                     const double *ma, int64_t q, const double *e, double *x,
                                     int64_t n) {
  luma_WorkBatch batch = {meter, 0};
  for (int64_t t = 0; t < n; t++) {
    if (luma_work_add(&batch, (uint64_t)(1 + p + q))) return luma_work_status(meter);
    double s = e[t];
    for (int64_t j = 1; j <= q && j <= t; j++) s += ma[j - 1] * e[t - j];
    for (int64_t i = 1; i <= p && i <= t; i++) s += ar[i - 1] * x[t - i];
    x[t] = s;
  }
  luma_work_flush(&batch);
  return LUMA_LOOP_DONE;
}

luma_LoopStatus luma_tsa_acovf(luma_Threads *meter, const double *x, int64_t n, double mean,
                               int64_t nlags, int adjusted, double *out) {
  for (int64_t h = 0; h <= nlags; h++) {
    const luma_LoopStatus st = luma_work_charge(meter, (uint64_t)(n - h));
    if (st != LUMA_LOOP_DONE) return st;
    double s = 0;
    for (int64_t t = 0; t + h < n; t++) s += (x[t] - mean) * (x[t + h] - mean);
    out[h] = s / (double)(adjusted ? n - h : n);
  }
  return LUMA_LOOP_DONE;
}
