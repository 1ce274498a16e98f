/*
 * tsa_lua.c - luma.tsa.native, the native kernels of luma.tsa: the ARMA
 * filter and the sample autocovariances over a series (a column or row
 * vector, any strides: copied into contiguous scratch first).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "core/matrix_lua.h"
#include "tsa/tsa.h"

/* The vector at arg (n x 1 or 1 x n) as n contiguous doubles; finite
 * unless allow_nan. */
static double *vector(lua_State *L, int arg, const char *what, int64_t *n) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != 1 && m->cols != 1)
    luma_arg_error(L, arg, "%s must be a vector (n x 1 or 1 x n), got %I x %I", what,
                   (lua_Integer)m->rows, (lua_Integer)m->cols);
  *n = m->rows * m->cols;
  double *dst = lua_newuserdatauv(L, (size_t)(*n > 0 ? *n : 1) * sizeof(double), 0);
  for (int64_t k = 0; k < *n; k++) {
    const double v = m->rows == 1 ? LUMA_AT(m, 0, k) : LUMA_AT(m, k, 0);
    if (!isfinite(v))
      luma_arg_error(L, arg, "%s has a non-finite element at %I", what, (lua_Integer)(k + 1));
    dst[k] = v;
  }
  return dst;
}

/* arma_filter(ar, ma, e) -> x */
static int t_arma_filter(lua_State *L) {
  lua_settop(L, 3);
  int64_t p, q, n;
  const double *ar = vector(L, 1, "ar", &p);
  const double *ma = vector(L, 2, "ma", &q);
  const double *e = vector(L, 3, "e", &n);
  luma_Mat *x = luma_matrix_new(L, n, 1);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_tsa_arma_filter(t, ar, p, ma, q, e, x->data, n));
  return 1;
}

/* acovf(x, nlags [, {adjusted = false, demean = true}]) -> (nlags + 1) x 1 */
static int t_acovf(lua_State *L) {
  lua_settop(L, 3);
  luma_check_options(L, 3, "adjusted|demean");
  const int adjusted = luma_opt_boolean(L, 3, "adjusted", 0);
  const int demean = luma_opt_boolean(L, 3, "demean", 1);
  int64_t n;
  const double *x = vector(L, 1, "x", &n);
  const lua_Integer nlags = luma_check_int_range(L, 2, "nlags", 0, n > 0 ? n - 1 : 0);
  if (n < 1) luma_arg_error(L, 1, "x is empty");
  double mean = 0;
  if (demean) {
    for (int64_t t = 0; t < n; t++) mean += x[t];
    mean /= (double)n;
  }
  luma_Mat *out = luma_matrix_new(L, (int64_t)nlags + 1, 1);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_tsa_acovf(t, x, n, mean, (int64_t)nlags, adjusted, out->data));
  return 1;
}

int luma_open_tsa_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"arma_filter", t_arma_filter, "arma_filter(ar, ma, e) -> x",
       "The ARMA recursion x_t = sum_i ar_i x_{t-i} + e_t + sum_j ma_j e_{t-j}, zero before "
       "the start (ar, ma and e vectors). Returns the n x 1 series x."},
      {"acovf", t_acovf, "acovf(x, nlags [, {adjusted = false, demean = true}]) -> matrix",
       "Sample autocovariances of the vector x at lags 0..nlags, dividing by n (by n - h "
       "when adjusted), about the mean unless demean is false. Returns (nlags + 1) x 1."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.tsa.native", funcs);
  luma_doc_set(L, -1, "luma.tsa.native", NULL,
               "The native kernels of luma.tsa: the ARMA filter and the sample "
               "autocovariances.");
  return 1;
}
