/*
 * classstats_lua.c - Lua binding of the per-class statistics kernels
 * (luma.generative.native), the fast path of the generative classifiers.
 *
 * Class codes are n x 1 matrices of integers 1..k on the Lua side (what
 * luma.estimator.encode_labels makes); they are checked and converted to
 * 0-based int64 scratch, allocated as userdata so an error never leaks it.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "budget.h"
#include "generative/classstats.h"
#include "core/matrix_lua.h"

/* Pushes scratch for n int64 codes (collected with the userdata). */
static int64_t *new_codes(lua_State *L, int64_t n) {
  return lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(int64_t), 0);
}

/* The codes at arg (an n x 1 matrix of integers 1..k) as 0-based scratch
 * pushed on the stack. */
static int64_t *check_codes(lua_State *L, int arg, int64_t n, int64_t k) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != n || m->cols != 1)
    luma_arg_error(L, arg, "codes must be %I x 1, got %I x %I", (lua_Integer)n,
                   (lua_Integer)m->rows, (lua_Integer)m->cols);
  int64_t *codes = new_codes(L, n);
  for (int64_t i = 0; i < n; i++) {
    const double v = LUMA_AT(m, i, 0);
    if (!(v >= 1 && v <= (double)k) || v != floor(v))
      luma_arg_error(L, arg, "codes[%I] = %f is not an integer in 1..%I", (lua_Integer)(i + 1),
                     v, (lua_Integer)k);
    codes[i] = (int64_t)v - 1;
  }
  return codes;
}

static int64_t check_count(lua_State *L, int arg) {
  lua_Integer k = luaL_checkinteger(L, arg);
  if (k < 1 || k > (1 << 24)) luma_arg_error(L, arg, "k must be in 1..%d", 1 << 24);
  return (int64_t)k;
}

/* Pushes nil, i, j, value for the flat index of a non-finite element. */
static int push_nonfinite(lua_State *L, const luma_Mat *x, int64_t flat) {
  const int64_t i = flat / x->cols, j = flat % x->cols;
  lua_pushnil(L);
  lua_pushinteger(L, (lua_Integer)(i + 1));
  lua_pushinteger(L, (lua_Integer)(j + 1));
  lua_pushnumber(L, LUMA_AT(x, i, j));
  return 4;
}

static int cs_codes(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *y = luma_matrix_check(L, 1);
  luma_Mat *classes = luma_matrix_check(L, 2);
  if (y->cols != 1) luma_arg_error(L, 1, "y must be a column, got %I x %I",
                                   (lua_Integer)y->rows, (lua_Integer)y->cols);
  if (classes->cols != 1 || classes->rows < 1)
    luma_arg_error(L, 2, "classes must be a non-empty column");
  int64_t *codes = new_codes(L, y->rows);
  /* each label's binary search among the classes, charged up front */
  uint64_t depth = 1;
  while (depth < 64 && ((uint64_t)1 << depth) < (uint64_t)classes->rows) depth++;
  luma_charge(L, (uint64_t)y->rows * (2 * depth + 4));
  int64_t bad = luma_class_codes(y, classes, codes);
  if (bad >= 0)
    luma_arg_error(L, 1, "y[%I] = %f is not one of the classes", (lua_Integer)(bad + 1),
                   LUMA_AT(y, bad, 0));
  luma_Mat *out = luma_matrix_new(L, y->rows, 1);
  for (int64_t i = 0; i < y->rows; i++) LUMA_AT(out, i, 0) = (double)(codes[i] + 1);
  return 1;
}

static int cs_moments(lua_State *L) {
  lua_settop(L, 4); /* scratch goes above the arguments */
  luma_Mat *x = luma_matrix_check(L, 1);
  int64_t k = check_count(L, 3);
  int with_vars = lua_isnoneornil(L, 4) ? 1 : lua_toboolean(L, 4);
  int64_t *codes = check_codes(L, 2, x->rows, k);
  luma_Mat *counts = luma_matrix_new(L, k, 1);
  luma_Mat *means = luma_matrix_new(L, k, x->cols);
  luma_Mat *vars = with_vars ? luma_matrix_new(L, k, x->cols) : NULL;
  if (!with_vars) lua_pushnil(L);
  /* one pass for the sums, one for the deviations: charged up front */
  luma_charge(L, (uint64_t)(x->rows * x->cols) * (with_vars ? 5 : 2) + 4 * (uint64_t)(k * x->cols));
  int64_t bad = luma_class_moments(x, codes, k, counts->data, means, vars);
  if (bad >= 0) return push_nonfinite(L, x, bad);
  return 3;
}

static int cs_sums(lua_State *L) {
  lua_settop(L, 3);
  luma_Mat *x = luma_matrix_check(L, 1);
  int64_t k = check_count(L, 3);
  int64_t *codes = check_codes(L, 2, x->rows, k);
  luma_Mat *counts = luma_matrix_new(L, k, 1);
  luma_Mat *sums = luma_matrix_new(L, k, x->cols);
  luma_charge(L, 2 * (uint64_t)(x->rows * x->cols) + 2 * (uint64_t)(k * x->cols));
  luma_class_sums(x, codes, k, counts->data, sums);
  return 2;
}

static int cs_center(lua_State *L) {
  lua_settop(L, 5);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_Mat *means = luma_matrix_check(L, 3);
  if (means->cols != x->cols)
    luma_arg_error(L, 3, "means has %I columns but X has %I", (lua_Integer)means->cols,
                   (lua_Integer)x->cols);
  int64_t *codes = check_codes(L, 2, x->rows, means->rows);
  const double *scale = NULL;
  if (!lua_isnoneornil(L, 4)) {
    luma_Mat *s = luma_matrix_check(L, 4);
    if (!luma_mat_is_vector(s) || s->rows * s->cols != x->cols)
      luma_arg_error(L, 4, "scale must be a vector of %I elements", (lua_Integer)x->cols);
    double *copy = lua_newuserdatauv(L, (size_t)(x->cols > 0 ? x->cols : 1) * sizeof(double), 0);
    for (int64_t j = 0; j < x->cols; j++)
      copy[j] = luma_vec_at(s, j);
    scale = copy;
  }
  luma_Mat *out = luma_matrix_result(L, 5, x->rows, x->cols);
  luma_matrix_check_no_overlap(L, 5, out, x);
  if (luma_mat_overlaps(out, means)) luma_arg_error(L, 5, "out overlaps means");
  luma_charge(L, 3 * (uint64_t)(x->rows * x->cols));
  luma_class_center(x, codes, means, scale, out);
  return 1;
}

static int cs_first_nonfinite(lua_State *L) {
  luma_Mat *x = luma_matrix_check(L, 1);
  int64_t bad = luma_first_nonfinite(x);
  if (bad < 0) return 0;
  push_nonfinite(L, x, bad);
  return 3; /* i, j, value above the nil */
}

int luma_open_generative_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"codes", cs_codes, "codes(y, classes)",
       "The n x 1 column of codes 1..k giving the position of each value of the column y in "
       "the ascending k x 1 classes (binary search); a value not among the classes is an "
       "error."},
      {"moments", cs_moments, "moments(X, codes, k [, with_vars = true])",
       "Per-class counts (k x 1), means (k x d) and biased variances (k x d, divided by the "
       "class count) of the rows of X grouped by codes (1..k), in two passes over X. A class "
       "without rows gets count 0 and NaN statistics. If X has a NaN or infinite element, "
       "returns nil, i, j, value for the first one instead."},
      {"sums", cs_sums, "sums(X, codes, k)",
       "Per-class counts (k x 1) and column sums (k x d) of the rows of X grouped by codes."},
      {"center", cs_center, "center(X, codes, means [, scale] [, out])",
       "X minus the mean of each row's class, (X[i] - means[codes[i]]) times scale (a row or "
       "column of d elements, optional), element-wise. out may be X itself."},
      {"first_nonfinite", cs_first_nonfinite, "first_nonfinite(X)",
       "Nothing when every element of X is finite; otherwise the row, column and value of "
       "the first NaN or infinite element (row-major order)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.generative.native", funcs);
  luma_doc_set(L, -1, "luma.generative.native", NULL,
               "Per-class statistics of labelled rows in one or two passes over the data: the "
               "native kernels behind luma.discriminant and luma.naive_bayes.");
  return 1;
}
