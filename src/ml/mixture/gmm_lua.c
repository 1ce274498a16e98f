/*
 * gmm_lua.c - Lua binding of the Gaussian-mixture kernels
 * (luma.mixture.native), the per-row work of GaussianMixture's full and
 * tied covariance types.  Arguments are checked here; matrices given as
 * views are copied into contiguous scratch (userdata: collected, never
 * leaked on an error) before the kernel runs.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "mixture/gmm.h"

static double *scratch(lua_State *L, int64_t count) {
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * sizeof(double), 0);
}

/* A contiguous row-major copy of m into dst. */
static void pack(const luma_Mat *m, double *dst) {
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) dst[i * m->cols + j] = LUMA_AT(m, i, j);
}


/* estep(X, means, chol, log_weights) -> log_resp, norm */
static int g_estep(lua_State *L) {
  lua_settop(L, 4);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_Mat *mu = luma_matrix_check(L, 2);
  luma_Mat *w = luma_matrix_check(L, 4);
  const int64_t n = x->rows, d = x->cols, k = mu->rows;
  if (mu->cols != d)
    luma_arg_error(L, 2, "means has %I columns but X has %I", (lua_Integer)mu->cols,
                   (lua_Integer)d);
  if (k < 1) luma_arg_error(L, 2, "means has no rows");
  if (!luma_mat_is_vector(w) || w->rows * w->cols != k)
    luma_arg_error(L, 4, "log_weights must be a vector of %I elements (one per mean)", (lua_Integer)k);
  luma_matrix_check_finite(L, 1, x, "X", 1);
  int tied = luma_matrix_test(L, 3) != NULL;
  if (!tied && !lua_istable(L, 3))
    luma_arg_error(L, 3, "chol must be a d x d matrix (tied) or a table of k of them");
  if (!tied && (lua_Integer)luaL_len(L, 3) != k)
    luma_arg_error(L, 3, "chol must hold %I matrices (one per mean)", (lua_Integer)k);
  const int64_t blocks = tied ? 1 : k;
  double *chol = scratch(L, blocks * d * d);
  double *means = scratch(L, k * d);
  double *bias = scratch(L, k);
  pack(mu, means);
  for (int64_t c = 0; c < blocks; c++) {
    luma_Mat *m;
    if (tied) {
      m = luma_matrix_test(L, 3);
    } else {
      lua_geti(L, 3, (lua_Integer)(c + 1));
      m = luma_matrix_test(L, -1);
      lua_pop(L, 1); /* the table keeps it alive */
      if (m == NULL) luma_arg_error(L, 3, "chol[%I] is not a matrix", (lua_Integer)(c + 1));
    }
    if (m->rows != d || m->cols != d)
      luma_arg_error(L, 3, "chol blocks must be %I x %I", (lua_Integer)d, (lua_Integer)d);
    pack(m, chol + c * d * d);
  }
  for (int64_t c = 0; c < k; c++) {
    const double *m = chol + (tied ? 0 : c * d * d);
    double logdet = 0;
    for (int64_t j = 0; j < d; j++) logdet += log(m[j * d + j]);
    const double lw = luma_vec_at(w, c);
    bias[c] = lw + logdet - 0.5 * (double)d * log(2 * M_PI);
  }
  double *work = scratch(L, luma_gmm_estep_work(n, d, k));
  luma_Mat *log_resp = luma_matrix_new(L, n, k);
  luma_Mat *norm = luma_matrix_new(L, n, 1);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t,
                      luma_gmm_estep(t, x, means, chol, tied, bias, k, log_resp, norm, work));
  return 2;
}

/* moments(X, R [, {log = false, scatter = true, eps = 0}]) -> nk, means [, scatter] */
static int g_moments(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_Mat *r = luma_matrix_check(L, 2);
  luma_check_options(L, 3, "log|scatter|eps");
  const int is_log = luma_opt_boolean(L, 3, "log", 0);
  const int with_scatter = luma_opt_boolean(L, 3, "scatter", 1);
  const double eps = luma_opt_number(L, 3, "eps", 0);
  const int64_t n = x->rows, d = x->cols, k = r->cols;
  if (r->rows != n)
    luma_arg_error(L, 2, "R has %I rows but X has %I", (lua_Integer)r->rows, (lua_Integer)n);
  if (k < 1) luma_arg_error(L, 2, "R has no columns");
  double *work = scratch(L, luma_gmm_moments_work(n, d, k, with_scatter));
  double *scatter = with_scatter ? scratch(L, k * d * d) : NULL;
  luma_Mat *nk = luma_matrix_new(L, k, 1);
  const int nk_idx = lua_gettop(L);
  luma_Mat *means = luma_matrix_new(L, k, d);
  const int means_idx = lua_gettop(L);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_gmm_moments(t, x, r, is_log, k, eps, nk->data, means->data,
                                             scatter, work));
  lua_pushvalue(L, nk_idx);
  lua_pushvalue(L, means_idx);
  if (!with_scatter) return 2;
  lua_createtable(L, (int)k, 0);
  for (int64_t c = 0; c < k; c++) {
    luma_Mat *s = luma_matrix_new(L, d, d);
    memcpy(s->data, scatter + c * d * d, (size_t)(d * d) * sizeof(double));
    lua_seti(L, -2, (lua_Integer)(c + 1));
  }
  return 3;
}

int luma_open_mixture_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"estep", g_estep, "estep(X, means, chol, log_weights) -> log_resp, norm",
       "The E-step of a Gaussian mixture with full or tied covariances: log_resp (n x k), "
       "log_weights[c] + log N(x_i | mu_c, Sigma_c) minus its log-sum-exp over c, and norm "
       "(n x 1), that log-sum-exp (log p(x_i)). means is k x d, log_weights k elements (any "
       "per-component constant: log weights, or a variational model's expected ones), chol a table of k "
       "d x d matrices M_c with M_c M_c^T = Sigma_c^-1 (or one matrix: tied). Rows run as a "
       "parallel loop. Returns two matrices."},
      {"moments", g_moments,
       "moments(X, R [, {log = false, scatter = true, eps = 0}]) -> nk, means [, scatter]",
       "Weighted moments of the rows of X for each column of the weights R (n x k; "
       "exponentiated first with log): nk (k x 1, column sums plus eps), means (k x d) and "
       "the scatter about them, a table of k d x d matrices sum_i r_ic (x_i - mu_c)(x_i - "
       "mu_c)^T. Two passes over X as parallel loops. Returns two matrices and a table."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.mixture.native", funcs);
  luma_doc_set(L, -1, "luma.mixture.native", NULL,
               "The per-row kernels of luma.mixture: the E-step and the weighted moments of "
               "Gaussian mixtures, as parallel loops over blocks of rows.");
  return 1;
}
