/*
 * special.h - special functions for distributions and statistics (no Lua).
 *
 * All take and return doubles; arguments outside the domain give NaN.
 * The incomplete gamma and beta functions are regularized:
 * P(a, x) = gamma(a, x) / Gamma(a), Q = 1 - P (computed directly, so the
 * upper tail keeps its relative accuracy), I_x(a, b) = B(x; a, b) / B(a, b).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_SPECIAL_H
#define LUMA_ML_SPECIAL_H

double luma_sf_lgamma(double x); /* log |Gamma(x)| (thread-safe) */
double luma_sf_digamma(double x);
double luma_sf_trigamma(double x);
double luma_sf_lbeta(double a, double b);
double luma_sf_mvlgamma(double x, int d); /* log of the multivariate gamma Gamma_d(x) */
double luma_sf_erfinv(double y);
double luma_sf_erfcinv(double y);
double luma_sf_gammainc(double a, double x);  /* P(a, x) */
double luma_sf_gammaincc(double a, double x); /* Q(a, x) */
double luma_sf_gammaincinv(double a, double p);
double luma_sf_gammainccinv(double a, double q);
double luma_sf_betainc(double a, double b, double x);
double luma_sf_betaincinv(double a, double b, double p);
double luma_sf_log_ndtr(double z); /* log of the standard normal cdf, also far in the tails */
double luma_sf_log1pexp(double x); /* log(1 + e^x) without overflow */
double luma_sf_lchoose(double n, double k);

#endif
