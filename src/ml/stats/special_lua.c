/*
 * special_lua.c - luma.special: the special functions over numbers and
 * matrices.  Arguments broadcast like the element-wise matrix operations;
 * numbers in give a number out.  With numbers, an argument outside the
 * function's domain is an error naming it; inside matrices it gives NaN
 * at that element (as NumPy and SciPy do), so one bad entry does not stop
 * a whole computation.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "core/matrix_ops.h"
#include "stats/special.h"

typedef double (*Fn1)(double);
typedef double (*Fn2)(double, double);
typedef double (*Fn3)(double, double, double);

typedef struct Spec {
  int arity;
  Fn1 f1;
  Fn2 f2;
  Fn3 f3;
  const char *domain; /* for the error with number arguments */
} Spec;

static double call(const Spec *s, const double *v) {
  switch (s->arity) {
  case 1: return s->f1(v[0]);
  case 2: return s->f2(v[0], v[1]);
  default: return s->f3(v[0], v[1], v[2]);
  }
}

static int apply(lua_State *L, const Spec *s) {
  luma_Operand ops[3];
  int any_matrix = 0;
  for (int k = 0; k < s->arity; k++) {
    luma_matrix_operand(L, k + 1, &ops[k]);
    if (luma_matrix_test(L, k + 1)) any_matrix = 1;
  }
  /* Iterative functions cost what the arguments say (0.1 s for one
   * gammainccinv near a = 2^31): each value is charged the time it took
   * (core/parallel.h, luma_work_timed), at least one unit. */
  double since = luma_work_clock();
  if (!any_matrix) {
    double v[3];
    for (int k = 0; k < s->arity; k++) v[k] = ops[k].scalar;
    double r = call(s, v);
    luma_charge(L, (uint64_t)((luma_work_clock() - since) * 1e9 / LUMA_NS_PER_UNIT) + 1);
    int nan_in = 0;
    for (int k = 0; k < s->arity; k++) nan_in |= isnan(v[k]);
    if (isnan(r) && !nan_in) return luaL_error(L, "luma.special: %s", s->domain);
    lua_pushnumber(L, r);
    return 1;
  }
  int64_t rows = ops[0].m.rows, cols = ops[0].m.cols;
  for (int k = 1; k < s->arity; k++) {
    luma_Mat shape = {NULL, rows, cols, 0, 0};
    if (!luma_broadcast_shape(&shape, &ops[k].m, &rows, &cols))
      return luma_arg_error(L, k + 1, "shapes %I x %I and %I x %I do not broadcast together",
                            (lua_Integer)shape.rows, (lua_Integer)shape.cols,
                            (lua_Integer)ops[k].m.rows, (lua_Integer)ops[k].m.cols);
  }
  luma_Mat b[3];
  for (int k = 0; k < s->arity; k++) b[k] = luma_broadcast_to(&ops[k].m, rows, cols);
  luma_Mat *out = luma_matrix_new(L, rows, cols);
  if (rows == 0 || cols == 0) return 1;
  luma_Threads *t = luma_threads_of(L);
  since = luma_work_clock();
  double v[3];
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      for (int k = 0; k < s->arity; k++) v[k] = LUMA_AT(&b[k], i, j);
      LUMA_AT(out, i, j) = call(s, v);
      if (luma_work_timed(t, &since, 1) != LUMA_LOOP_DONE) {
        i = rows; /* stopped: raised below */
        break;
      }
    }
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
  return 1;
}

static double lgamma1(double x) { return luma_sf_lgamma(x); }
static double beta2(double a, double b) { return exp(luma_sf_lbeta(a, b)); }
static double expit1(double x) { return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x)); }
static double logit1(double p) { return (p >= 0 && p <= 1) ? log(p / (1 - p)) : NAN; }
static double choose2(double n, double k) {
  double r = exp(luma_sf_lchoose(n, k));
  /* integers: the nearest integer is the exact binomial coefficient
   * whenever it is below 2^53 */
  return (n == floor(n) && k == floor(k) && r < 9007199254740992.0) ? floor(r + 0.5) : r;
}
static double mvlgamma2(double x, double d) {
  return (d >= 1 && d == floor(d) && d < 1e6) ? luma_sf_mvlgamma(x, (int)d) : NAN;
}
static double gamma1(double x) { return tgamma(x); }
static double erf1(double x) { return erf(x); }
static double erfc1(double x) { return erfc(x); }

#define F1(name, fn, domain) \
  static int name(lua_State *L) { static const Spec s = {1, fn, NULL, NULL, domain}; return apply(L, &s); }
#define F2(name, fn, domain) \
  static int name(lua_State *L) { static const Spec s = {2, NULL, fn, NULL, domain}; return apply(L, &s); }
#define F3(name, fn, domain) \
  static int name(lua_State *L) { static const Spec s = {3, NULL, NULL, fn, domain}; return apply(L, &s); }

F1(s_lgamma, lgamma1, "lgamma is undefined at non-positive integers")
F1(s_gamma, gamma1, "gamma is undefined at non-positive integers")
F1(s_digamma, luma_sf_digamma, "digamma is undefined at non-positive integers")
F1(s_trigamma, luma_sf_trigamma, "trigamma is undefined at non-positive integers")
F2(s_beta, beta2, "beta needs a > 0 and b > 0")
F2(s_lbeta, luma_sf_lbeta, "lbeta needs a > 0 and b > 0")
F2(s_mvlgamma, mvlgamma2, "mvlgamma(x, d) needs an integer d >= 1 and x > (d - 1) / 2")
F1(s_erf, erf1, "erf")
F1(s_erfc, erfc1, "erfc")
F1(s_erfinv, luma_sf_erfinv, "erfinv needs y in [-1, 1]")
F1(s_erfcinv, luma_sf_erfcinv, "erfcinv needs y in [0, 2]")
F2(s_gammainc, luma_sf_gammainc, "gammainc(a, x) needs a > 0 and x >= 0")
F2(s_gammaincc, luma_sf_gammaincc, "gammaincc(a, x) needs a > 0 and x >= 0")
F2(s_gammaincinv, luma_sf_gammaincinv, "gammaincinv(a, p) needs a > 0 and p in [0, 1]")
F2(s_gammainccinv, luma_sf_gammainccinv, "gammainccinv(a, q) needs a > 0 and q in [0, 1]")
F3(s_betainc, luma_sf_betainc, "betainc(a, b, x) needs a > 0, b > 0 and x in [0, 1]")
F3(s_betaincinv, luma_sf_betaincinv, "betaincinv(a, b, p) needs a > 0, b > 0 and p in [0, 1]")
F1(s_log_ndtr, luma_sf_log_ndtr, "log_ndtr")
F1(s_log1pexp, luma_sf_log1pexp, "log1pexp")
F1(s_logit, logit1, "logit needs p in [0, 1]")
F1(s_expit, expit1, "expit")
F2(s_lchoose, luma_sf_lchoose, "lchoose(n, k) needs 0 <= k <= n")
F2(s_choose, choose2, "choose(n, k) needs 0 <= k <= n")

int luma_open_special(lua_State *L) {
  static const luma_Func funcs[] = {
      {"lgamma", s_lgamma, "lgamma(x) -> number | matrix", "log |Gamma(x)|."},
      {"gamma", s_gamma, "gamma(x) -> number | matrix", "Gamma(x)."},
      {"digamma", s_digamma, "digamma(x) -> number | matrix", "psi(x) = d/dx log Gamma(x)."},
      {"trigamma", s_trigamma, "trigamma(x) -> number | matrix", "psi'(x)."},
      {"beta", s_beta, "beta(a, b) -> number | matrix",
       "B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b)."},
      {"lbeta", s_lbeta, "lbeta(a, b) -> number | matrix", "log B(a, b)."},
      {"mvlgamma", s_mvlgamma, "mvlgamma(x, d) -> number | matrix",
       "log of the multivariate gamma function Gamma_d(x) (Wishart densities)."},
      {"erf", s_erf, "erf(x) -> number | matrix", "The error function."},
      {"erfc", s_erfc, "erfc(x) -> number | matrix", "1 - erf(x), accurate in the tail."},
      {"erfinv", s_erfinv, "erfinv(y) -> number | matrix", "The inverse of erf on [-1, 1]."},
      {"erfcinv", s_erfcinv, "erfcinv(y) -> number | matrix",
       "The inverse of erfc on [0, 2], accurate for tiny y."},
      {"gammainc", s_gammainc, "gammainc(a, x) -> number | matrix",
       "Regularized lower incomplete gamma P(a, x)."},
      {"gammaincc", s_gammaincc, "gammaincc(a, x) -> number | matrix",
       "Regularized upper incomplete gamma Q(a, x) = 1 - P(a, x), computed directly."},
      {"gammaincinv", s_gammaincinv, "gammaincinv(a, p) -> number | matrix", "x with P(a, x) = p."},
      {"gammainccinv", s_gammainccinv, "gammainccinv(a, q) -> number | matrix",
       "x with Q(a, x) = q."},
      {"betainc", s_betainc, "betainc(a, b, x) -> number | matrix",
       "Regularized incomplete beta I_x(a, b)."},
      {"betaincinv", s_betaincinv, "betaincinv(a, b, p) -> number | matrix",
       "x with I_x(a, b) = p."},
      {"log_ndtr", s_log_ndtr, "log_ndtr(z) -> number | matrix",
       "log of the standard normal cdf Phi(z), accurate in both tails (an asymptotic "
       "expansion below z = -20: Abramowitz and Stegun 26.2.12)."},
      {"log1pexp", s_log1pexp, "log1pexp(x) -> number | matrix",
       "log(1 + e^x) without overflow (softplus)."},
      {"logit", s_logit, "logit(p) -> number | matrix", "log(p / (1 - p))."},
      {"expit", s_expit, "expit(x) -> number | matrix", "1 / (1 + e^-x), without overflow."},
      {"lchoose", s_lchoose, "lchoose(n, k) -> number | matrix",
       "log of the binomial coefficient, real n and k."},
      {"choose", s_choose, "choose(n, k) -> number | matrix",
       "The binomial coefficient; exact for integers while it is below 2^53."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.special", funcs);
  luma_doc_set(L, -1, "luma.special", NULL,
               "Special functions over numbers or matrices (broadcasting): gamma family, beta, "
               "error function and inverses, log of the normal cdf, incomplete gamma and "
               "beta and their inverses, log1pexp, logit, expit, binomial coefficients. "
               "logsumexp is the matrix method A:logsumexp().");
  return 1;
}
