/*
 * decomposition_lua.c - Lua binding of the decomposition kernels
 * (luma.decomposition.native): the coordinate-descent sweep of NMF and
 * the sign rule of svd_flip.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "core/matrix_lua.h"
#include "decomposition/nmf.h"
#include "decomposition/range_pass.h"
#include "decomposition/signs.h"

/* The sweep's column order from argument arg (nil: 1..k), 0-based. */
static int64_t *order_arg(lua_State *L, int arg, int64_t k) {
  int64_t *order = lua_newuserdatauv(L, (size_t)(k > 0 ? k : 1) * sizeof(int64_t), 0);
  int seen_ok = 1;
  if (lua_isnoneornil(L, arg)) {
    for (int64_t t = 0; t < k; t++) order[t] = t;
  } else {
    luma_Mat *o = luma_matrix_check(L, arg);
    if (!luma_mat_is_vector(o) || o->rows * o->cols != k)
      luma_arg_error(L, arg, "order must be a vector of %I elements", (lua_Integer)k);
    for (int64_t t = 0; t < k; t++) {
      const double v = luma_vec_at(o, t);
      if (!(v >= 1 && v <= (double)k) || v != floor(v)) seen_ok = 0;
      else order[t] = (int64_t)v - 1;
    }
    if (!seen_ok) luma_arg_error(L, arg, "order must hold column numbers 1..%I", (lua_Integer)k);
  }
  return order;
}

/* m itself when dgemm can read it, else a contiguous copy (on the stack). */
static const luma_Mat *blas_operand(lua_State *L, const luma_Mat *m) {
  if (luma_nmf_blas_ready(m)) return m;
  luma_Mat *c = luma_matrix_new(L, m->rows, m->cols);
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(c, i, j) = LUMA_AT(m, i, j);
  return c;
}

/* cd_sweep(W, HHt, XHt [, order]) -> violation */
static int d_cd_sweep(lua_State *L) {
  lua_settop(L, 4);
  luma_Mat *w = luma_matrix_check(L, 1);
  luma_Mat *hht = luma_matrix_check(L, 2);
  luma_Mat *xht = luma_matrix_check(L, 3);
  const int64_t n = w->rows, k = w->cols;
  if (hht->rows != k || hht->cols != k)
    luma_arg_error(L, 2, "HHt must be %I x %I (W has %I columns)", (lua_Integer)k,
                   (lua_Integer)k, (lua_Integer)k);
  if (xht->rows != n || xht->cols != k)
    luma_arg_error(L, 3, "XHt must be %I x %I like W", (lua_Integer)n, (lua_Integer)k);
  if (luma_mat_overlaps(w, hht) || luma_mat_overlaps(w, xht))
    luma_arg_error(L, 1, "W overlaps HHt or XHt");
  int64_t *order = order_arg(L, 4, k);
  double *work = lua_newuserdatauv(L, (size_t)luma_nmf_cd_work(n) * sizeof(double), 0);
  double violation = 0;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_nmf_cd_sweep(t, w, hht, xht, order, &violation, work));
  lua_pushnumber(L, violation);
  return 1;
}

/* cd_fused_sweep(X, Ht, W, HHt [, l1 [, order]]) -> violation */
static int d_cd_fused_sweep(lua_State *L) {
  lua_settop(L, 6);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_Mat *ht = luma_matrix_check(L, 2);
  luma_Mat *w = luma_matrix_check(L, 3);
  luma_Mat *hht = luma_matrix_check(L, 4);
  const double l1 = luaL_optnumber(L, 5, 0);
  const int64_t n = w->rows, k = w->cols, d = x->cols;
  if (x->rows != n)
    luma_arg_error(L, 1, "X has %I rows but W has %I", (lua_Integer)x->rows, (lua_Integer)n);
  if (ht->rows != d || ht->cols != k)
    luma_arg_error(L, 2, "Ht must be %I x %I (X has %I columns, W %I)", (lua_Integer)d,
                   (lua_Integer)k, (lua_Integer)d, (lua_Integer)k);
  if (hht->rows != k || hht->cols != k)
    luma_arg_error(L, 4, "HHt must be %I x %I (W has %I columns)", (lua_Integer)k,
                   (lua_Integer)k, (lua_Integer)k);
  if (luma_mat_overlaps(w, x) || luma_mat_overlaps(w, ht) || luma_mat_overlaps(w, hht))
    luma_arg_error(L, 3, "W overlaps X, Ht or HHt");
  int64_t *order = order_arg(L, 6, k);
  const luma_Mat *xb = blas_operand(L, x), *htb = blas_operand(L, ht);
  double *work =
      lua_newuserdatauv(L, (size_t)luma_nmf_cd_fused_work(n, d, k) * sizeof(double), 0);
  double violation = 0;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_nmf_cd_fused_sweep(t, xb, htb, w, hht, l1, order, &violation,
                                                    work));
  lua_pushnumber(L, violation);
  return 1;
}

/* max_abs_signs(M) -> signs */
static int d_max_abs_signs(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_Mat *out = luma_matrix_new(L, m->rows, 1);
  luma_max_abs_signs(m, out->data);
  return 1;
}

/* The mean at arg, a 1 x d row or a d x 1 column (any other shape with d
 * elements would be read past its rows), copied contiguous (pushed). */
static const double *check_mean(lua_State *L, int arg, int64_t d) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (!luma_mat_is_vector(m) || m->rows * m->cols != d)
    luma_arg_error(L, arg, "mean must be a vector of %I elements (one per column of X), got %I x %I",
                   (lua_Integer)d, (lua_Integer)m->rows, (lua_Integer)m->cols);
  double *copy = lua_newuserdatauv(L, (size_t)(d > 0 ? d : 1) * sizeof(double), 0);
  for (int64_t j = 0; j < d; j++) copy[j] = luma_vec_at(m, j);
  return copy;
}

/* centred_transpose(X [, mean]) -> (X - mean)^T */
static int d_centred_transpose(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *x = luma_matrix_check(L, 1);
  const double *mean = lua_isnoneornil(L, 2) ? NULL : check_mean(L, 2, x->cols);
  luma_Mat *out = luma_matrix_new(L, x->cols, x->rows);
  luma_centred_transpose(x, mean, out->data);
  return 1;
}

/* range_pass(X, mean, Q [, keep_P [, want_ss]]) -> S, P or nil, ss or nil */
static int d_range_pass(lua_State *L) {
  lua_settop(L, 5);
  luma_Mat *x = luma_matrix_check(L, 1);
  const int64_t n = x->rows, d = x->cols;
  const double *mean = lua_isnil(L, 2) ? NULL : check_mean(L, 2, d);
  luma_Mat *qm = luma_matrix_check(L, 3);
  if (qm->rows != d)
    luma_arg_error(L, 3, "Q must have %I rows (one per column of X), got %I", (lua_Integer)d,
                   (lua_Integer)qm->rows);
  const int64_t c = qm->cols;
  const int keep_p = lua_toboolean(L, 4), want_ss = lua_toboolean(L, 5);
  /* Q in one contiguous row-major block (it may be a transposed view) */
  double *q = lua_newuserdatauv(L, (size_t)(d * c > 0 ? d * c : 1) * sizeof(double), 0);
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = 0; j < c; j++) q[i * c + j] = LUMA_AT(qm, i, j);
  double *work = lua_newuserdatauv(L, (size_t)luma_range_pass_work(n, d, c) * sizeof(double), 0);
  const int top = lua_gettop(L);
  luma_Mat *s = luma_matrix_new(L, d, c);
  luma_Mat *p = keep_p ? luma_matrix_new(L, n, c) : NULL;
  double ss = 0;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_range_pass(t, x, mean, q, c, s->data, p ? p->data : NULL,
                                            want_ss ? &ss : NULL, work));
  lua_settop(L, top + 1 + keep_p);
  if (!keep_p) lua_pushnil(L);
  if (want_ss) lua_pushnumber(L, ss);
  else lua_pushnil(L);
  return 3;
}

int luma_open_decomposition_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"cd_sweep", d_cd_sweep, "cd_sweep(W, HHt, XHt [, order = 1..k]) -> number",
       "One coordinate-descent sweep of NMF over the columns of W (in order), in place: "
       "W[i][t] <- max(0, W[i][t] - ((W HHt)[i][t] - XHt[i][t]) / HHt[t][t]) (scikit-learn's "
       "_update_cdnmf_fast), rows as a parallel loop. Returns the sum of the absolute "
       "projected gradients (the violation)."},
      {"cd_fused_sweep", d_cd_fused_sweep,
       "cd_fused_sweep(X, Ht, W, HHt [, l1 = 0 [, order = 1..k]]) -> number",
       "cd_sweep(W, HHt, X Ht - l1, order) with the product X Ht computed chunk by chunk "
       "of rows inside the sweep (single-threaded dgemm on the pool's threads, the chunk's "
       "rows of the product still in cache when they are swept). Returns the violation."},
      {"max_abs_signs", d_max_abs_signs, "max_abs_signs(M) -> signs",
       "For each row of M, the sign (+1 or -1; +1 for a zero row) of its entry largest in "
       "magnitude (the first on ties): scikit-learn's svd_flip rule. Returns a rows x 1 "
       "matrix."},
      {"centred_transpose", d_centred_transpose, "centred_transpose(X [, mean = nil]) -> matrix",
       "(X - 1 mean)^T as a new contiguous matrix (mean a row or column of X's width, nil: "
       "no centring), transposed by cache tiles. Returns a cols x rows matrix."},
      {"range_pass", d_range_pass,
       "range_pass(X, mean, Q [, keep_P = false [, want_ss = false]]) -> S, P, ss",
       "One pass over X of the randomized range finder, for A = X - 1 mean (mean nil: A = "
       "X): S = A^T (A Q), P = A Q when keep_P (else nil) and |A|_F^2 when want_ss (else "
       "nil). Each block of rows is read from memory once for both products; rows as a "
       "parallel loop, partial sums added in chunk order."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.decomposition.native", funcs);
  luma_doc_set(L, -1, "luma.decomposition.native", NULL,
               "The native kernels of luma.decomposition: the coordinate-descent sweep of NMF "
               "and svd_flip's sign rule.");
  return 1;
}
