/*
 * hmm_lua.c - luma.hmm.native, the recursions of luma.hmm: the scaled
 * forward-backward pass and Viterbi decoding over a matrix of log
 * emission probabilities (src/ml/hmm/hmm.c).  Arguments are checked
 * here; scratch comes from the Lua allocator as userdata (collected,
 * never leaked on an error).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "hmm/hmm.h"

static void *scratch(lua_State *L, int64_t bytes) {
  return lua_newuserdatauv(L, (size_t)(bytes > 0 ? bytes : 1), 0);
}

/* The k elements of a 1 x k or k x 1 matrix at arg, copied into dst. */
static void vector_arg(lua_State *L, int arg, const char *what, int64_t k, double *dst) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows * m->cols != k || (m->rows != 1 && m->cols != 1))
    luma_arg_error(L, arg, "%s must have %I elements (one per state)", what, (lua_Integer)k);
  for (int64_t j = 0; j < k; j++) dst[j] = m->rows == 1 ? LUMA_AT(m, 0, j) : LUMA_AT(m, j, 0);
}

static void square_arg(lua_State *L, int arg, const char *what, int64_t k, double *dst) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != k || m->cols != k)
    luma_arg_error(L, arg, "%s must be %I x %I (one row per state)", what, (lua_Integer)k,
                   (lua_Integer)k);
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < k; j++) dst[i * k + j] = LUMA_AT(m, i, j);
}

/* Sequence offsets from lengths at arg (nil: one sequence of n rows; a
 * matrix of positive integers summing to n).  Pushes the scratch. */
static int64_t *offsets_arg(lua_State *L, int arg, int64_t n, int64_t *nseq) {
  if (lua_isnoneornil(L, arg)) {
    int64_t *off = scratch(L, 2 * (int64_t)sizeof(int64_t));
    off[0] = 0;
    off[1] = n;
    *nseq = 1;
    return off;
  }
  luma_Mat *m = luma_matrix_check(L, arg);
  const int64_t count = m->rows * m->cols;
  if (count < 1 || (m->rows != 1 && m->cols != 1))
    luma_arg_error(L, arg, "lengths must be a non-empty vector");
  int64_t *off = scratch(L, (count + 1) * (int64_t)sizeof(int64_t));
  off[0] = 0;
  for (int64_t s = 0; s < count; s++) {
    const double v = m->rows == 1 ? LUMA_AT(m, 0, s) : LUMA_AT(m, s, 0);
    if (!(v >= 1) || v != floor(v) || v > (double)n)
      luma_arg_error(L, arg, "lengths[%I] must be a positive integer", (lua_Integer)(s + 1));
    off[s + 1] = off[s] + (int64_t)v;
  }
  if (off[count] != n)
    luma_arg_error(L, arg, "lengths sum to %I but there are %I rows", (lua_Integer)off[count],
                   (lua_Integer)n);
  *nseq = count;
  return off;
}

static luma_Mat *log_emis_arg(lua_State *L) {
  luma_Mat *e = luma_matrix_check(L, 1);
  if (e->rows < 1 || e->cols < 1) luma_arg_error(L, 1, "log_emis must not be empty");
  return e;
}

/* forward_backward(log_emis, startprob, transmat [, lengths [, opts]]) -> result */
static int h_forward_backward(lua_State *L) {
  lua_settop(L, 5);
  luma_Mat *e = log_emis_arg(L);
  luma_check_options(L, 5, "backward|filtered|gamma|xi");
  const int64_t n = e->rows, k = e->cols;
  const int want_filtered = luma_opt_boolean(L, 5, "filtered", 0);
  const int want_gamma = luma_opt_boolean(L, 5, "gamma", 1);
  const int want_xi = luma_opt_boolean(L, 5, "xi", 0);
  const int backward = luma_opt_boolean(L, 5, "backward", 1) || want_gamma || want_xi;
  double *start = scratch(L, k * (int64_t)sizeof(double));
  double *trans = scratch(L, k * k * (int64_t)sizeof(double));
  vector_arg(L, 2, "startprob", k, start);
  square_arg(L, 3, "transmat", k, trans);
  int64_t nseq;
  const int64_t *off = offsets_arg(L, 4, n, &nseq);
  double *work = scratch(L, luma_hmm_fb_work(n, k, nseq) * (int64_t)sizeof(double));
  int64_t *zero_at = scratch(L, nseq * (int64_t)sizeof(int64_t));
  lua_createtable(L, 0, 6);
  const int res = lua_gettop(L);
  luma_HmmOut out = {0};
  out.zero_at = zero_at;
  out.loglik = luma_matrix_new(L, nseq, 1)->data;
  lua_setfield(L, res, "seq_loglik");
  if (want_filtered) {
    out.filtered = luma_matrix_new(L, n, k);
    lua_setfield(L, res, "filtered");
  }
  if (want_gamma) {
    out.gamma = luma_matrix_new(L, n, k);
    lua_setfield(L, res, "gamma");
  }
  if (want_xi) {
    out.xi = luma_matrix_new(L, n, k * k);
    lua_setfield(L, res, "xi");
  }
  if (backward) out.xi_sum = scratch(L, nseq * k * k * (int64_t)sizeof(double));
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t,
                      luma_hmm_forward_backward(t, e, start, trans, off, nseq, backward, &out,
                                                work));
  double total = 0;
  for (int64_t s = 0; s < nseq; s++) {
    total += out.loglik[s];
    if (zero_at[s] >= 0) {
      lua_pushinteger(L, (lua_Integer)(zero_at[s] + 1));
      lua_setfield(L, res, "zero_at");
      break;
    }
  }
  lua_pushnumber(L, total);
  lua_setfield(L, res, "loglik");
  const int zero = lua_getfield(L, res, "zero_at") != LUA_TNIL;
  lua_pop(L, 1);
  if (backward && !zero) {
    luma_Mat *xs = luma_matrix_new(L, k, k);
    for (int64_t j = 0; j < k * k; j++) {
      double sum = 0;
      for (int64_t s = 0; s < nseq; s++) sum += out.xi_sum[s * k * k + j];
      xs->data[j] = sum;
    }
    lua_setfield(L, res, "xi_sum");
  }
  lua_pushvalue(L, res);
  return 1;
}

/* viterbi(log_emis, log_startprob, log_transmat [, lengths]) -> logprob, path */
static int h_viterbi(lua_State *L) {
  lua_settop(L, 4);
  luma_Mat *e = log_emis_arg(L);
  const int64_t n = e->rows, k = e->cols;
  if (k > INT32_MAX) luma_arg_error(L, 1, "too many states");
  double *start = scratch(L, k * (int64_t)sizeof(double));
  double *trans = scratch(L, k * k * (int64_t)sizeof(double));
  vector_arg(L, 2, "log_startprob", k, start);
  square_arg(L, 3, "log_transmat", k, trans);
  int64_t nseq;
  const int64_t *off = offsets_arg(L, 4, n, &nseq);
  void *work = scratch(L, luma_hmm_viterbi_work(n, k, nseq));
  double *logprob = scratch(L, nseq * (int64_t)sizeof(double));
  int64_t *path = scratch(L, n * (int64_t)sizeof(int64_t));
  luma_Mat *p = luma_matrix_new(L, n, 1);
  const int p_idx = lua_gettop(L);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_hmm_viterbi(t, e, start, trans, off, nseq, logprob, path, work));
  for (int64_t r = 0; r < n; r++) p->data[r] = (double)(path[r] + 1);
  double total = 0;
  for (int64_t s = 0; s < nseq; s++) total += logprob[s];
  lua_pushnumber(L, total);
  lua_pushvalue(L, p_idx);
  return 2;
}

int luma_open_hmm_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"forward_backward", h_forward_backward,
       "forward_backward(log_emis, startprob, transmat [, lengths [, {backward = true, filtered "
       "= false, gamma = true, xi = false}]]) -> result",
       "The scaled forward-backward pass of a hidden Markov model (Rabiner 1989, sec. III-A; "
       "Bishop, PRML sec. 13.2.4) over log_emis (n x k: log p(x_t | z_t = j)), one or more "
       "sequences back to back (lengths: a vector of positive integers summing to n; nil, one "
       "sequence). startprob (k) weights the first step, transmat (k x k) is row-stochastic. "
       "Returns a table: loglik (the total log-likelihood), seq_loglik (nseq x 1), zero_at "
       "(the first row of zero probability, if any), filtered (n x k, p(z_t | x_1..t)), gamma "
       "(n x k, p(z_t | x)), xi (n x k*k, row t holds p(z_{t-1} = i, z_t = j | x) at column "
       "(i-1)*k + j; zero on the first row of each sequence) and xi_sum (k x k, the sum of "
       "xi over all steps) as requested. Sequences run as a parallel loop."},
      {"viterbi", h_viterbi,
       "viterbi(log_emis, log_startprob, log_transmat [, lengths]) -> logprob, path",
       "Viterbi decoding (Viterbi 1967; Rabiner 1989, sec. III-B) in log space over log_emis "
       "(n x k), per sequence (lengths as in forward_backward). Ties go to the lowest state. "
       "Returns the total log-probability of the best paths and the path (n x 1, states "
       "1..k)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.hmm.native", funcs);
  luma_doc_set(L, -1, "luma.hmm.native", NULL,
               "The native recursions of luma.hmm: the scaled forward-backward pass and Viterbi "
               "decoding over a matrix of log emission probabilities.");
  return 1;
}
