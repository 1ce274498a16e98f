/*
 * linear_lua.c - luma.linear.native: the native kernels under luma.linear
 * (moments without copying X, elastic-net coordinate descent).  The
 * estimators themselves are Lua (the package lua/luma/linear/).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "linear/linear.h"
#include "linear/sgd.h"
#include "core/matrix_lua.h"
#include "sparse/sparse_lua.h"

static int check_blas_dim(lua_State *L, int arg, const char *what, int64_t v) {
  if (v > 0x7fffffff) luma_arg_error(L, arg, "%s has %I rows or columns, too many for BLAS", what, (lua_Integer)v);
  return (int)v;
}

/* moments(X, Y [, weights [, center]]) -> G, XtY, xmean, ymean, yty */
static int l_moments(lua_State *L) {
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_Mat *y = luma_matrix_check(L, 2);
  luma_Mat *w = lua_isnoneornil(L, 3) ? NULL : luma_matrix_check(L, 3);
  int center = lua_isnoneornil(L, 4) ? 1 : lua_toboolean(L, 4);
  check_blas_dim(L, 1, "X", x->cols);
  check_blas_dim(L, 2, "Y", y->cols);
  if (y->rows != x->rows)
    luma_arg_error(L, 2, "X has %I rows but y has %I", (lua_Integer)x->rows, (lua_Integer)y->rows);
  if (w) {
    if (w->rows != x->rows || w->cols != 1)
      luma_arg_error(L, 3, "weights must be %I x 1, got %I x %I", (lua_Integer)x->rows,
                     (lua_Integer)w->rows, (lua_Integer)w->cols);
    double total = 0;
    for (int64_t i = 0; i < w->rows; i++) {
      double v = LUMA_AT(w, i, 0);
      if (!(isfinite(v) && v >= 0))
        luma_arg_error(L, 3, "weights must be finite and >= 0 (row %I is %f)", (lua_Integer)(i + 1), v);
      total += v;
    }
    if (!(total > 0)) luma_arg_error(L, 3, "weights sum to 0");
  }
  if (x->rows == 0) luma_arg_error(L, 1, "X has no rows");
  int64_t d = x->cols, k = y->cols;
  luma_Mat *gram = luma_matrix_new(L, d, d);
  luma_Mat *xty = luma_matrix_new(L, d, k);
  luma_Mat *xmean = luma_matrix_new(L, 1, d);
  luma_Mat *ymean = luma_matrix_new(L, 1, k);
  luma_Mat *yty = luma_matrix_new(L, 1, k);
  double *scratch = lua_newuserdatauv(L, (size_t)luma_linear_moments_work(d, k) * sizeof(double), 0);
  luma_Threads *t = luma_threads_of(L);
  int rc = luma_linear_moments(t, x, y, w, center, xmean->data, ymean->data, gram->data, xty->data,
                               yty->data, scratch);
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises when the meter stopped */
  lua_pop(L, 1);
  /* the kernel sees a non-finite sum: a NaN or Inf, named where it is, or
   * values whose squares overflow */
  if (rc == LUMA_LINEAR_X_NOT_FINITE) {
    luma_matrix_check_finite(L, 1, x, "X", 1);
    luma_arg_error(L, 1, "X has values too large to square (its Gram matrix overflows)");
  }
  if (rc == LUMA_LINEAR_Y_NOT_FINITE) {
    luma_matrix_check_finite(L, 2, y, "y", 0);
    luma_arg_error(L, 2, "y has values too large to square");
  }
  return 5;
}

/* A contiguous column of length d at arg (the coefficients, updated). */
static luma_Mat *check_column(lua_State *L, int arg, const char *what, int64_t d) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != d || m->cols != 1)
    luma_arg_error(L, arg, "%s must be %I x 1, got %I x %I", what, (lua_Integer)d,
                   (lua_Integer)m->rows, (lua_Integer)m->cols);
  if (d > 1 && m->rs != 1) luma_arg_error(L, arg, "%s must be contiguous", what);
  return m;
}

static luma_Mat *check_contiguous(lua_State *L, int arg, const char *what) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (!luma_mat_is_contiguous(m)) luma_arg_error(L, arg, "%s must be contiguous (copy it)", what);
  check_blas_dim(L, arg, what, m->rows);
  check_blas_dim(L, arg, what, m->cols);
  return m;
}

/* Reads the options shared by both forms; w is at w_arg, the options at
 * opts_arg, an optional generator at opts_arg + 1.  Runs the descent and
 * pushes w, converged, sweeps, gap. */
static int run_cd(lua_State *L, luma_EnetProblem *p, int w_arg, int opts_arg) {
  luma_check_options(L, opts_arg, "l1|l2|positive|max_iter|tol");
  p->l1 = luma_opt_number(L, opts_arg, "l1", 0);
  p->l2 = luma_opt_number(L, opts_arg, "l2", 0);
  p->positive = luma_opt_boolean(L, opts_arg, "positive", 0);
  p->max_iter = luma_opt_integer(L, opts_arg, "max_iter", 1000);
  p->tol = luma_opt_number(L, opts_arg, "tol", 1e-4);
  if (p->max_iter < 1) luma_arg_error(L, opts_arg, "max_iter must be >= 1");
  p->rng = lua_isnoneornil(L, opts_arg + 1) ? NULL : luma_random_opt_generator(L, opts_arg + 1);
  luma_Mat *w = check_column(L, w_arg, "w", p->d);
  double *scratch = lua_newuserdatauv(L, (size_t)luma_enet_cd_work(p) * sizeof(double), 0);
  int64_t sweeps = 0;
  double gap = 0;
  /* the sweeps are bounded by max_iter only: every update is charged */
  luma_Threads *t = luma_threads_of(L);
  p->threads = t;
  int converged = luma_enet_cd(p, w->data, scratch, &sweeps, &gap);
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
  lua_pop(L, 1);
  lua_pushvalue(L, w_arg);
  lua_pushboolean(L, converged);
  lua_pushinteger(L, (lua_Integer)sweeps);
  lua_pushnumber(L, gap);
  return 4;
}

/* enet_gram(G, q, yty, w, opts [, rng]) */
static int l_enet_gram(lua_State *L) {
  luma_Mat *g = check_contiguous(L, 1, "G");
  if (g->rows != g->cols) luma_arg_error(L, 1, "G must be square");
  luma_Mat *q = check_column(L, 2, "q", g->rows);
  luma_EnetProblem p = {0};
  p.n = 0;
  p.d = g->rows;
  p.gram = g->data;
  p.xty = q->data;
  p.yty = luaL_checknumber(L, 3);
  return run_cd(L, &p, 4, 5);
}

/* enet_residual(Xt, y, w, opts [, rng]): Xt is X^T, d x n contiguous. */
static int l_enet_residual(lua_State *L) {
  luma_Mat *xt = check_contiguous(L, 1, "Xt");
  luma_Mat *y = check_column(L, 2, "y", xt->cols);
  luma_EnetProblem p = {0};
  p.n = xt->cols;
  p.d = xt->rows;
  p.xt = xt->data;
  p.y = y->data;
  double yty = 0;
  for (int64_t i = 0; i < p.n; i++) yty += p.y[i] * p.y[i];
  p.yty = yty;
  return run_cd(L, &p, 3, 4);
}

/* enet_sparse(X, y, xm, sw, w, opts [, rng]): X a luma.SparseCSC (n x d),
 * y the centred weighted target (n x 1), xm the weighted column means
 * (1 x d, or nil: no centring), sw the square roots of the sample weights
 * (n x 1, or nil: ones). */
static int l_enet_sparse(lua_State *L) {
  luma_Sparse *x = luma_sparse_csc_test(L, 1);
  if (x == NULL) return luaL_typeerror(L, 1, "luma.SparseCSC");
  int64_t n = x->cols, d = x->rows; /* the arrays hold X^T */
  luma_Mat *y = check_column(L, 2, "y", n);
  luma_EnetProblem p = {0};
  p.n = n;
  p.d = d;
  p.xcsc = x;
  p.y = y->data;
  if (!lua_isnil(L, 3)) {
    luma_Mat *xm = luma_matrix_check(L, 3);
    if (xm->rows * xm->cols != d || !luma_mat_is_contiguous(xm))
      luma_arg_error(L, 3, "xm must be a contiguous 1 x %I matrix", (lua_Integer)d);
    p.xm = xm->data;
  }
  p.wsum = (double)n;
  if (!lua_isnil(L, 4)) {
    luma_Mat *sw = check_column(L, 4, "sw", n);
    p.sw = sw->data;
    p.wsum = 0;
    for (int64_t i = 0; i < n; i++) {
      if (!(p.sw[i] >= 0) || !isfinite(p.sw[i])) luma_arg_error(L, 4, "sw must be finite and >= 0");
      p.wsum += p.sw[i] * p.sw[i];
    }
  }
  for (int64_t e = 0; e < x->nnz; e++)
    if (!isfinite(x->data[e])) luma_arg_error(L, 1, "X has a non-finite stored value");
  double yty = 0;
  for (int64_t i = 0; i < n; i++) yty += p.y[i] * p.y[i];
  p.yty = yty;
  return run_cd(L, &p, 5, 6);
}

/* saga(X, y, W, b, opts [, rng]) -> W, b, converged, epochs */
static int l_saga(lua_State *L) {
  luma_Sparse *sx = luma_sparse_test(L, 1);
  luma_Mat *x = sx ? NULL : luma_matrix_check(L, 1);
  luma_Mat *y = luma_matrix_check(L, 2);
  luma_Mat *w = luma_matrix_check(L, 3);
  luma_Mat *b = luma_matrix_check(L, 4);
  int64_t n = sx ? sx->rows : x->rows, d = sx ? sx->cols : x->cols, k = w->cols;
  if (n == 0) luma_arg_error(L, 1, "X has no rows");
  if (y->rows != n || y->cols != 1)
    luma_arg_error(L, 2, "y must be %I x 1, got %I x %I", (lua_Integer)n, (lua_Integer)y->rows,
                   (lua_Integer)y->cols);
  if (w->rows != d || !luma_mat_is_contiguous(w))
    luma_arg_error(L, 3, "W must be a contiguous %I x k matrix", (lua_Integer)d);
  if (b->rows != 1 || b->cols != k || !luma_mat_is_contiguous(b))
    luma_arg_error(L, 4, "b must be a contiguous 1 x %I matrix", (lua_Integer)k);
  luma_check_options(L, 5, "l1|l2|fit_intercept|max_iter|tol|sample_weight");
  luma_SagaProblem p = {0};
  p.x = x;
  p.sx = sx;
  p.k = k;
  p.l1 = luma_opt_number(L, 5, "l1", 0);
  p.l2 = luma_opt_number(L, 5, "l2", 0);
  p.fit_intercept = luma_opt_boolean(L, 5, "fit_intercept", 1);
  p.max_iter = luma_opt_integer(L, 5, "max_iter", 100);
  p.tol = luma_opt_number(L, 5, "tol", 1e-4);
  if (p.max_iter < 1) luma_arg_error(L, 5, "max_iter must be >= 1");
  p.rng = luma_random_opt_generator(L, 6);
  int64_t *labels = lua_newuserdatauv(L, (size_t)n * sizeof *labels, 0);
  for (int64_t i = 0; i < n; i++) {
    double v = LUMA_AT(y, i, 0);
    int64_t lo = k == 1 ? 0 : 1, hi = k == 1 ? 1 : k;
    if (!(v >= (double)lo && v <= (double)hi && v == floor(v)))
      luma_arg_error(L, 2, "y must hold %s (%f at row %I)", k == 1 ? "0 or 1" : "class codes 1..k",
                     v, (lua_Integer)(i + 1));
    labels[i] = (int64_t)v - (k == 1 ? 0 : 1);
  }
  p.y = labels;
  if (lua_getfield(L, 5, "sample_weight") != LUA_TNIL) {
    luma_Mat *sw = luma_matrix_test(L, -1);
    if (!sw || sw->rows != n || sw->cols != 1)
      luma_arg_error(L, 5, "sample_weight must be a %I x 1 matrix", (lua_Integer)n);
    double *weights = lua_newuserdatauv(L, (size_t)n * sizeof *weights, 0);
    double total = 0;
    for (int64_t i = 0; i < n; i++) {
      weights[i] = LUMA_AT(sw, i, 0);
      if (!(isfinite(weights[i]) && weights[i] >= 0))
        luma_arg_error(L, 5, "sample_weight must be finite and >= 0");
      total += weights[i];
    }
    if (!(total > 0)) luma_arg_error(L, 5, "sample_weight sums to 0");
    for (int64_t i = 0; i < n; i++) weights[i] *= (double)n / total;
    p.weights = weights;
  }
  double *scratch =
      lua_newuserdatauv(L, (size_t)luma_logistic_saga_work(n, d, k) * sizeof(double), 0);
  int64_t epochs = 0;
  luma_Threads *t = luma_threads_of(L);
  p.threads = t;
  int converged = luma_logistic_saga(&p, w->data, b->data, scratch, &epochs);
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  lua_pushboolean(L, converged);
  lua_pushinteger(L, (lua_Integer)epochs);
  return 4;
}

/* sgd(X, y, w, b, opts [, rng]) -> w, b, epochs, converged, t */
static int l_sgd(lua_State *L) {
  luma_Sparse *sx = luma_sparse_test(L, 1);
  luma_Mat *x = sx ? NULL : luma_matrix_check(L, 1);
  luma_Mat *y = luma_matrix_check(L, 2);
  luma_Mat *w = luma_matrix_check(L, 3);
  luma_Mat *b = luma_matrix_check(L, 4);
  int64_t n = sx ? sx->rows : x->rows, d = sx ? sx->cols : x->cols;
  if (y->rows != n || y->cols != 1)
    luma_arg_error(L, 2, "y must be %I x 1, got %I x %I", (lua_Integer)n, (lua_Integer)y->rows,
                   (lua_Integer)y->cols);
  if (w->rows != d || w->cols != 1 || !luma_mat_is_contiguous(w))
    luma_arg_error(L, 3, "w must be a contiguous %I x 1 matrix", (lua_Integer)d);
  if (b->rows != 1 || b->cols != 1) luma_arg_error(L, 4, "b must be a 1 x 1 matrix");
  luma_check_options(L, 5, "loss|penalty|alpha|l1_ratio|learning_rate|eta0|power_t|fit_intercept|shuffle|"
                           "max_iter|tol|n_iter_no_change|sample_weight|weight_pos|weight_neg");
  luma_SgdProblem p = {0};
  p.x = x;
  p.sx = sx;
  p.loss = (luma_SgdLoss)luma_opt_choice(L, 5, "loss", "hinge|log_loss|modified_huber|squared_error", 0);
  p.rate = (luma_SgdRate)luma_opt_choice(L, 5, "learning_rate", "optimal|constant|invscaling", 0);
  p.alpha = luma_opt_number(L, 5, "alpha", 1e-4);
  int penalty = luma_opt_choice(L, 5, "penalty", "l2|l1|elasticnet|none", 0);
  p.l1_ratio = penalty == 0 ? 0.0 : penalty == 1 ? 1.0 : luma_opt_number(L, 5, "l1_ratio", 0.15);
  p.no_penalty = penalty == 3;
  p.eta0 = luma_opt_number(L, 5, "eta0", 0);
  p.power_t = luma_opt_number(L, 5, "power_t", 0.5);
  p.fit_intercept = luma_opt_boolean(L, 5, "fit_intercept", 1);
  p.shuffle = luma_opt_boolean(L, 5, "shuffle", 1);
  p.max_iter = luma_opt_integer(L, 5, "max_iter", 1000);
  p.n_iter_no_change = luma_opt_integer(L, 5, "n_iter_no_change", 5);
  p.tol = luma_opt_number(L, 5, "tol", -INFINITY); /* absent: no stopping on the loss */
  p.weight_pos = luma_opt_number(L, 5, "weight_pos", 1);
  p.weight_neg = luma_opt_number(L, 5, "weight_neg", 1);
  if (!(p.alpha >= 0) || !(p.l1_ratio >= 0 && p.l1_ratio <= 1) || p.max_iter < 1 ||
      p.n_iter_no_change < 1)
    luma_arg_error(L, 5, "alpha >= 0, l1_ratio in [0, 1], max_iter >= 1 and n_iter_no_change >= 1");
  if (p.rate == LUMA_SGD_OPTIMAL && !(p.alpha > 0))
    luma_arg_error(L, 5, "the optimal learning rate needs alpha > 0");
  if (p.rate != LUMA_SGD_OPTIMAL && !(p.eta0 > 0))
    luma_arg_error(L, 5, "learning rates constant and invscaling need eta0 > 0");
  p.rng = luma_random_opt_generator(L, 6);
  lua_settop(L, 6);
  double *ys = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof(double), 0);
  for (int64_t i = 0; i < n; i++) ys[i] = LUMA_AT(y, i, 0);
  p.y = ys;
  if (lua_getfield(L, 5, "sample_weight") != LUA_TNIL) {
    luma_Mat *sw = luma_matrix_test(L, -1);
    if (!sw || sw->rows != n || sw->cols != 1)
      luma_arg_error(L, 5, "sample_weight must be a %I x 1 matrix", (lua_Integer)n);
    double *weights = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof(double), 0);
    for (int64_t i = 0; i < n; i++) weights[i] = LUMA_AT(sw, i, 0);
    p.weights = weights;
  }
  double *scratch = lua_newuserdatauv(L, (size_t)luma_sgd_work(n, d) * sizeof(double) + 8, 0);
  double *wv = w->data, bv = LUMA_AT(b, 0, 0), t = 1;
  int64_t epochs = 0;
  luma_Threads *th = luma_threads_of(L);
  p.threads = th;
  int result = luma_sgd_fit(&p, wv, &bv, scratch, &epochs, &t);
  luma_threads_finish(L, th, LUMA_LOOP_DONE);
  if (result < 0)
    return luaL_error(L, "SGD diverged (the weights overflowed): lower eta0 or alpha, or scale X");
  LUMA_AT(b, 0, 0) = bv;
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  lua_pushinteger(L, (lua_Integer)epochs);
  lua_pushboolean(L, result == 1);
  lua_pushnumber(L, t);
  return 5;
}

int luma_open_linear_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"moments", l_moments, "moments(X, Y [, weights [, center = true]])",
       "G, XtY, xmean, ymean, yty: with weights w (n x 1, default ones) and N = sum w, the "
       "weighted column means (1 x d, 1 x k; zeros when center is false), G = sum w_i (x_i - "
       "xmean)(x_i - xmean)^T, XtY = sum w_i (x_i - xmean)(y_i - ymean)^T and yty the weighted "
       "sums of squares of each centred target (1 x k). X is centred a block of rows at a time, "
       "never copied whole. NaN or Inf in X or Y is an error."},
      {"enet_gram", l_enet_gram, "enet_gram(G, q, yty, w, opts [, rng])",
       "Elastic-net coordinate descent on 1/2 |y - Xw|^2 + l1 |w|_1 + l2/2 |w|^2 given G = "
       "X^T X, q = X^T y and yty = |y|^2 (each coordinate O(d)). w (d x 1, contiguous) is the "
       "warm start and is updated in place. opts: l1, l2, positive, max_iter (sweeps, 1000), "
       "tol (duality gap relative to yty, 1e-4); rng: random coordinate order. Returns w, "
       "converged, sweeps, gap."},
      {"enet_residual", l_enet_residual, "enet_residual(Xt, y, w, opts [, rng])",
       "The same descent keeping the residual y - Xw instead of a Gram matrix (each coordinate "
       "O(n)); Xt is X^T as a contiguous d x n matrix."},
      {"enet_sparse", l_enet_sparse, "enet_sparse(X, y, xm, sw, w, opts [, rng])",
       "The residual-form descent over the columns of a sparse X (a luma.SparseCSC), each "
       "update costing the column's entries: the columns are used centred on xm (1 x d, or "
       "nil) and scaled by sw (the square roots of the sample weights, n x 1, or nil) without "
       "being formed; y is the centred, weighted target. Options and results as "
       "enet_residual."},
      {"saga", l_saga, "saga(X, y, W, b, opts [, rng])",
       "Logistic regression by SAGA on (1/n) sum_i s_i loss_i + l2/2 |W|^2 + l1 |W|_1 (s the "
       "sample weights rescaled to mean 1): binary when W has one column (y in {0, 1}), "
       "multinomial otherwise (y in 1..k). W (d x k) and b (1 x k) are the warm start, updated "
       "in place. opts: l1, l2, fit_intercept, max_iter (epochs, 100), tol (1e-4, on the "
       "largest relative change of W over an epoch), sample_weight. Returns W, b, converged, "
       "epochs. X may be a CSR luma.SparseMatrix: each step then touches only the sample's "
       "features (the others' updates applied in closed form when next needed)."},
      {"sgd", l_sgd, "sgd(X, y, w, b, opts [, rng]) -> w, b, epochs, converged, t",
       "Plain SGD of a linear model (scikit-learn's _plain_sgd): X dense or CSR sparse, y "
       "(n x 1; +-1 for the classification losses), w (d x 1) and b (1 x 1) the warm start, "
       "updated in place. opts: loss (hinge, log_loss, modified_huber, squared_error), penalty "
       "(l2, l1, elasticnet, none), alpha, l1_ratio (elasticnet), learning_rate (optimal, constant, invscaling), eta0, power_t, "
       "fit_intercept, shuffle, max_iter, tol, n_iter_no_change, sample_weight, weight_pos, "
       "weight_neg. Returns w, b, the epochs run, whether it stopped on the loss, and t "
       "(steps + 1)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.linear.native", funcs);
  luma_doc_set(L, -1, "luma.linear.native", NULL,
               "Native kernels of luma.linear: centred weighted moments and elastic-net "
               "coordinate descent.");
  return 1;
}
