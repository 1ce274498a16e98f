/*
 * special.c - special functions (see special.h).
 *
 * Methods: digamma and trigamma by recurrence up to x >= 10 and their
 * asymptotic series; the incomplete gamma function by its power series
 * below x = a + 1 and Lentz's continued fraction above; the incomplete
 * beta function by its continued fraction on the side of (a+1)/(a+b+2)
 * where it converges fast (both as in Numerical Recipes, 3rd ed., 6.2 and
 * 6.4); inverses by Halley iterations from the classic starting values;
 * erfcinv from Acklam's inverse-normal approximation refined by Halley
 * steps on erfc, so tails keep their relative accuracy.
 * SPDX-License-Identifier: MIT
 */
#include <float.h>
#include <math.h>

#include "stats/special.h"

#define EPS DBL_EPSILON
#define TINY 1e-300
#define MAX_ITER 100000

double luma_sf_lgamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

double luma_sf_digamma(double x) {
  if (isnan(x) || (x <= 0 && x == floor(x))) return NAN;
  if (x < 0) return luma_sf_digamma(1 - x) - M_PI / tan(M_PI * x); /* reflection */
  double r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  double f = 1 / (x * x);
  /* ln x - 1/(2x) - sum B_2k / (2k x^2k) */
  double series = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 +
                  f * (-1.0 / 132 + f * (691.0 / 32760 + f * (-1.0 / 12)))))));
  return r + log(x) - 0.5 / x + series;
}

double luma_sf_trigamma(double x) {
  if (isnan(x) || (x <= 0 && x == floor(x))) return NAN;
  if (x < 0) { /* psi1(1 - x) + psi1(x) = pi^2 / sin^2(pi x) */
    double s = sin(M_PI * x);
    return M_PI * M_PI / (s * s) - luma_sf_trigamma(1 - x);
  }
  double r = 0;
  while (x < 10) {
    r += 1 / (x * x);
    x += 1;
  }
  double f = 1 / (x * x);
  /* 1/x + 1/(2x^2) + sum B_2k / x^(2k+1) */
  double series = (1 + f * (1.0 / 6 + f * (-1.0 / 30 + f * (1.0 / 42 + f * (-1.0 / 30 +
                  f * (5.0 / 66 + f * (-691.0 / 2730 + f * (7.0 / 6)))))))) / x;
  return r + series + 0.5 * f;
}

double luma_sf_lbeta(double a, double b) {
  if (!(a > 0 && b > 0)) return NAN;
  return luma_sf_lgamma(a) + luma_sf_lgamma(b) - luma_sf_lgamma(a + b);
}

double luma_sf_mvlgamma(double x, int d) {
  if (d < 1 || !(x > 0.5 * (d - 1))) return NAN;
  double s = 0.25 * d * (d - 1) * log(M_PI);
  for (int j = 1; j <= d; j++) s += luma_sf_lgamma(x + 0.5 * (1 - j));
  return s;
}

/* ------------------------------------------------------------ erf inverses */

/* Acklam's inverse of the standard normal cdf (relative error < 1.2e-9). */
static double normal_quantile_guess(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  if (p < 0.02425) {
    double q = sqrt(-2 * log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - 0.02425) return -normal_quantile_guess(1 - p);
  double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double luma_sf_erfcinv(double q) {
  if (isnan(q) || q < 0 || q > 2) return NAN;
  if (q == 0) return INFINITY;
  if (q == 2) return -INFINITY;
  if (q > 1) return -luma_sf_erfcinv(2 - q);
  /* erfc(x) = q  <=>  x = -Phi^-1(q / 2) / sqrt 2 */
  double x = -normal_quantile_guess(q / 2) / M_SQRT2;
  for (int it = 0; it < 4; it++) { /* Halley on erfc(x) - q */
    double f = erfc(x) - q, fp = -M_2_SQRTPI * exp(-x * x);
    if (fp == 0) break;
    double step = f / fp;
    x -= step / (1 + x * step); /* f'' / f' = -2x */
  }
  return x;
}

double luma_sf_erfinv(double y) {
  if (isnan(y) || y < -1 || y > 1) return NAN;
  if (fabs(y) > 0.5) return y > 0 ? luma_sf_erfcinv(1 - y) : -luma_sf_erfcinv(1 + y);
  double x = -normal_quantile_guess((1 - y) / 2) / M_SQRT2;
  for (int it = 0; it < 4; it++) { /* Halley on erf(x) - y */
    double f = erf(x) - y, fp = M_2_SQRTPI * exp(-x * x);
    double step = f / fp;
    x -= step / (1 + x * step);
  }
  return x;
}

/* ------------------------------------------------------ incomplete gamma */

/* log of x^a e^-x / Gamma(a): the prefactor of both expansions */
static double gamma_prefactor_log(double a, double x) { return a * log(x) - x - luma_sf_lgamma(a); }

static double gamma_series(double a, double x) { /* P(a, x) for x < a + 1 */
  double ap = a, del = 1 / a, sum = del;
  for (int n = 0; n < MAX_ITER; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (fabs(del) < fabs(sum) * EPS) break;
  }
  return sum * exp(gamma_prefactor_log(a, x));
}

static double gamma_fraction(double a, double x) { /* Q(a, x) for x >= a + 1 */
  double b = x + 1 - a, c = 1 / TINY, d = 1 / b, h = d;
  for (int i = 1; i < MAX_ITER; i++) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < TINY) d = TINY;
    c = b + an / c;
    if (fabs(c) < TINY) c = TINY;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < EPS) break;
  }
  return exp(gamma_prefactor_log(a, x)) * h;
}

double luma_sf_gammainc(double a, double x) {
  if (isnan(a) || isnan(x) || !(a > 0) || x < 0) return NAN;
  if (x == 0) return 0;
  if (isinf(x)) return 1;
  return x < a + 1 ? gamma_series(a, x) : 1 - gamma_fraction(a, x);
}

double luma_sf_gammaincc(double a, double x) {
  if (isnan(a) || isnan(x) || !(a > 0) || x < 0) return NAN;
  if (x == 0) return 1;
  if (isinf(x)) return 0;
  return x < a + 1 ? 1 - gamma_series(a, x) : gamma_fraction(a, x);
}

/* Solves P(a, x) = p (lower) or Q(a, x) = q (upper) by Halley steps from
 * Numerical Recipes' starting values (invgammp). */
static double gamma_inverse(double a, double p, int upper) {
  if (isnan(a) || isnan(p) || !(a > 0) || p < 0 || p > 1) return NAN;
  double lower_p = upper ? 1 - p : p;
  if ((upper ? p : 1 - p) == 0) return INFINITY;
  if (lower_p == 0 && !upper) return 0;
  if (upper && p == 1) return 0;
  double gln = luma_sf_lgamma(a), a1 = a - 1, lna1 = 0, afac = 0, x;
  if (a > 1) {
    lna1 = log(a1);
    afac = exp(a1 * (lna1 - 1) - gln);
    double pp = lower_p < 0.5 ? lower_p : (upper ? p : 1 - p);
    double t = sqrt(-2 * log(pp));
    x = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
    if (lower_p < 0.5) x = -x;
    x = fmax(1e-3, a * pow(1 - 1 / (9 * a) - x / (3 * sqrt(a)), 3));
  } else {
    double t = 1 - a * (0.253 + a * 0.12);
    if (lower_p < t) x = pow(lower_p / t, 1 / a);
    else x = 1 - log1p(-(lower_p - t) / (1 - t));
    if (upper && p < 1e-10) x = -log(p) + a1 * log(-log(p)); /* deep upper tail */
  }
  for (int j = 0; j < 200; j++) {
    if (x <= 0) return 0;
    double err = upper ? p - luma_sf_gammaincc(a, x) : luma_sf_gammainc(a, x) - p;
    double t = a > 1 ? afac * exp(-(x - a1) + a1 * (log(x) - lna1))
                     : exp(-x + a1 * log(x) - gln); /* the density */
    if (t == 0) break;
    double u = err / t;
    double step = u / (1 - 0.5 * fmin(1, u * (a1 / x - 1)));
    x -= step;
    if (x <= 0) x = 0.5 * (x + step);
    if (fabs(step) < 1e-15 * x) break;
  }
  return x;
}

double luma_sf_gammaincinv(double a, double p) { return gamma_inverse(a, p, 0); }
double luma_sf_gammainccinv(double a, double q) { return gamma_inverse(a, q, 1); }

/* ------------------------------------------------------- incomplete beta */

static double beta_fraction(double a, double b, double x) {
  double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
  if (fabs(d) < TINY) d = TINY;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < MAX_ITER; m++) {
    int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fabs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (fabs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fabs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (fabs(c) < TINY) c = TINY;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < EPS) break;
  }
  return h;
}

double luma_sf_betainc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x) || !(a > 0 && b > 0) || x < 0 || x > 1) return NAN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  double lbt = a * log(x) + b * log1p(-x) - luma_sf_lbeta(a, b);
  if (x < (a + 1) / (a + b + 2)) return exp(lbt) * beta_fraction(a, b, x) / a;
  return 1 - exp(lbt) * beta_fraction(b, a, 1 - x) / b;
}

double luma_sf_betaincinv(double a, double b, double p) {
  if (isnan(a) || isnan(b) || isnan(p) || !(a > 0 && b > 0) || p < 0 || p > 1) return NAN;
  if (p == 0) return 0;
  if (p == 1) return 1;
  double x;
  if (a >= 1 && b >= 1) {
    double pp = p < 0.5 ? p : 1 - p, t = sqrt(-2 * log(pp));
    x = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t;
    if (p < 0.5) x = -x;
    double al = (x * x - 3) / 6, h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
    double w = x * sqrt(al + h) / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5.0 / 6 - 2 / (3 * h));
    x = a / (a + b * exp(2 * w));
  } else {
    double lna = log(a / (a + b)), lnb = log(b / (a + b));
    double t = exp(a * lna) / a, u = exp(b * lnb) / b, w = t + u;
    x = p < t / w ? pow(a * w * p, 1 / a) : 1 - pow(b * w * (1 - p), 1 / b);
  }
  double afac = -luma_sf_lbeta(a, b), a1 = a - 1, b1 = b - 1;
  for (int j = 0; j < 200; j++) {
    if (x == 0 || x == 1) return x;
    double err = luma_sf_betainc(a, b, x) - p;
    double t = exp(a1 * log(x) + b1 * log1p(-x) + afac);
    if (t == 0) break;
    double u = err / t;
    double step = u / (1 - 0.5 * fmin(1, u * (a1 / x - b1 / (1 - x))));
    x -= step;
    if (x <= 0) x = 0.5 * (x + step);
    if (x >= 1) x = 0.5 * (x + step + 1);
    if (fabs(step) < 1e-15 * x && j > 0) break;
  }
  return x;
}

/* ------------------------------------------------------ normal log-cdf */

/* log Phi(z): log1p(-Q) on the right, where Phi is near 1 (Q = Phi(-z));
 * log of Phi = erfc(-z / sqrt 2) / 2 in the middle and moderate left tail,
 * where glibc's erfc keeps its relative accuracy; beyond z = -20 the
 * asymptotic expansion Phi(z) = phi(z) / |z| (1 - 1/z^2 + 3/z^4 - ...)
 * (Abramowitz and Stegun 26.2.12), whose terms shrink fast there. */
double luma_sf_log_ndtr(double z) {
  if (isnan(z)) return NAN;
  if (z > 0) return log1p(-0.5 * erfc(z / M_SQRT2));
  if (z > -20) return log(0.5 * erfc(-z / M_SQRT2));
  if (isinf(z)) return -INFINITY;
  double z2 = z * z, term = 1, sum = 1;
  for (int k = 1; k < 50; k++) {
    term *= -(2 * k - 1) / z2;
    sum += term;
    if (fabs(term) < EPS * 0.1) break;
  }
  return -0.5 * z2 - log(-z) - 0.5 * log(2 * M_PI) + log(sum);
}

/* -------------------------------------------------------------- others */

double luma_sf_log1pexp(double x) {
  if (x <= -37) return exp(x);
  if (x <= 18) return log1p(exp(x));
  if (x <= 33.3) return x + exp(-x);
  return x;
}

double luma_sf_lchoose(double n, double k) {
  if (!(k >= 0 && n >= k)) return NAN;
  return luma_sf_lgamma(n + 1) - luma_sf_lgamma(k + 1) - luma_sf_lgamma(n - k + 1);
}
