/*
 * tsa.c - the ARMA filter and the sample autocovariances (see tsa.h).
 *
 * The autocovariance divides by n (notes 003 §1.20 L1348-1356, §3 item 26:
 * the biased estimator, whose Toeplitz matrices are positive
 * semi-definite) unless adjusted; the MA part of the filter sums from
 * theta_0 = 1 (notes 003 L1394-1398, with the erratum on its limits).
 */
#include "tsa/tsa.h"

void luma_tsa_arma_filter(const double *ar, int64_t p, const double *ma, int64_t q,
                          const double *e, double *x, int64_t n) {
  for (int64_t t = 0; t < n; t++) {
    double s = e[t];
    for (int64_t j = 1; j <= q && j <= t; j++) s += ma[j - 1] * e[t - j];
    for (int64_t i = 1; i <= p && i <= t; i++) s += ar[i - 1] * x[t - i];
    x[t] = s;
  }
}

void luma_tsa_acovf(const double *x, int64_t n, double mean, int64_t nlags, int adjusted,
                    double *out) {
  for (int64_t h = 0; h <= nlags; h++) {
    double s = 0;
    for (int64_t t = 0; t + h < n; t++) s += (x[t] - mean) * (x[t + h] - mean);
    out[h] = s / (double)(adjusted ? n - h : n);
  }
}
