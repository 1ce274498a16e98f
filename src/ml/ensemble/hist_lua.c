/*
 * hist_lua.c - Lua binding of the histogram gradient boosting kernels
 * (luma.ensemble.native).
 *
 * bin() returns the binned training data as a userdata of type
 * luma.ensemble.BinnedData (one block: bins, per-feature counts and
 * thresholds), so the collector sees its size; it lives only during a
 * fit.  Grown trees cross into Lua as plain tables of n x 1 matrices
 * (node_count, n_features, children_left, children_right (1-based, -1 at
 * leaves), feature (1-based, -2 at leaves), threshold, bin_threshold,
 * missing_go_to_left, value (shrinkage included), gain, count), which the
 * prediction functions check before use.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "ensemble/hist.h"
#include "stats/random.h"

static const luma_Type binned_type = {
    "luma.ensemble.BinnedData", NULL, NULL,
    "Training data of a histogram gradient boosting fit, each feature cut into at most 255 "
    "quantile bins (plus one for missing values); made by luma.ensemble.native.bin.",
    NULL};

static void *scratch(lua_State *L, size_t bytes) {
  return lua_newuserdatauv(L, bytes > 0 ? bytes : 1, 0);
}

static luma_HgbBinned *check_binned(lua_State *L, int arg) {
  return luma_type_check(L, arg, &binned_type);
}

/* bin(X [, opts]) -> binned, thresholds (d x 255, NaN padded), n_bins (d x 1) */
static int h_bin(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_check_options(L, 2, "max_bins|subsample|seed");
  lua_Integer max_bins = luma_opt_integer(L, 2, "max_bins", LUMA_HGB_VALUE_BINS);
  if (max_bins < 2 || max_bins > LUMA_HGB_VALUE_BINS)
    luma_arg_error(L, 2, "option 'max_bins' must be an integer in [2, 255], got %I", max_bins);
  lua_Integer subsample = luma_opt_integer(L, 2, "subsample", 200000);
  if (subsample < 1) luma_arg_error(L, 2, "option 'subsample' must be an integer >= 1");
  uint64_t seed = (uint64_t)luma_opt_integer(L, 2, "seed", 0);
  int64_t n = x->rows, d = x->cols;
  if (n < 1 || d < 1 || n > INT32_MAX - 1 || d > (1 << 24))
    luma_arg_error(L, 1, "X is %I x %I: it needs 1 to %d rows and 1 to %d columns",
                   (lua_Integer)n, (lua_Integer)d, INT32_MAX - 1, 1 << 24);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < d; j++)
      if (isinf(LUMA_AT(x, i, j)))
        luma_arg_error(L, 1, "X has an infinite value at row %I, column %I (NaN marks a "
                       "missing value; infinities are not allowed)",
                       (lua_Integer)(i + 1), (lua_Integer)(j + 1));
  size_t bytes = sizeof(luma_HgbBinned) + 16 + (size_t)n * (size_t)d +
                 (size_t)d * (sizeof(int32_t) + 1 + LUMA_HGB_VALUE_BINS * sizeof(double));
  luma_HgbBinned *b = lua_newuserdatauv(L, bytes, 0);
  int binned_idx = lua_gettop(L);
  luma_type_register(L, &binned_type);
  lua_pop(L, 1);
  luma_type_setmetatable(L, &binned_type);
  b->n = n;
  b->d = d;
  b->thresholds = (double *)(b + 1);
  b->n_bins = (int32_t *)(b->thresholds + d * LUMA_HGB_VALUE_BINS);
  b->has_missing = (uint8_t *)(b->n_bins + d);
  b->bins = b->has_missing + d;
  /* the rows the thresholds come from: all, or a seeded subsample
   * without replacement (scikit-learn: 200,000 rows) */
  int64_t m = n <= subsample ? n : subsample;
  int64_t *rows = NULL;
  if (m < n) {
    rows = scratch(L, (size_t)m * sizeof(int64_t));
    int64_t *tmp = scratch(L, (size_t)n * sizeof(int64_t));
    luma_Rng rng;
    luma_rng_seed(&rng, seed);
    luma_rng_sample(&rng, n, m, rows, tmp);
    lua_pop(L, 1);
  }
  double *values = scratch(L, (size_t)m * sizeof(double));
  void *sort_work = scratch(L, luma_hgb_thresholds_work_bytes(m));
  luma_Mat *thr = luma_matrix_new(L, d, LUMA_HGB_VALUE_BINS);
  luma_Mat *counts = luma_matrix_new(L, d, 1);
  for (int64_t j = 0; j < d; j++) {
    int64_t k = 0;
    for (int64_t r = 0; r < m; r++) {
      double v = LUMA_AT(x, rows ? rows[r] : r, j);
      if (!isnan(v)) values[k++] = v;
    }
    double *t = b->thresholds + j * LUMA_HGB_VALUE_BINS;
    int c = luma_hgb_thresholds(values, k, (int)max_bins, t, sort_work);
    b->n_bins[j] = c + 1;
    for (int q = 0; q < LUMA_HGB_VALUE_BINS; q++) LUMA_AT(thr, j, q) = q < c ? t[q] : NAN;
    LUMA_AT(counts, j, 0) = c + 1;
  }
  luma_Threads *th = luma_threads_of(L);
  luma_threads_finish(L, th, luma_hgb_map(th, x, b));
  lua_pushvalue(L, binned_idx);
  lua_insert(L, -3);
  return 3;
}

/* A contiguous row-major n x k matrix argument (written in place). */
static luma_Mat *check_dense(lua_State *L, int arg, const char *what, int64_t rows, int64_t cols) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != rows || (cols > 0 && m->cols != cols) || !luma_mat_is_contiguous(m))
    luma_arg_error(L, arg, "%s must be a contiguous %I-row matrix%s", what, (lua_Integer)rows,
                   cols > 0 ? " of the right width" : "");
  return m;
}

/* gradients(loss, y, raw, g, h [, w]): fills g and h (n x k) in place */
static int h_gradients(lua_State *L) {
  lua_settop(L, 6);
  static const char *const losses[] = {"squared_error", "poisson", "binomial", "multinomial",
                                       NULL};
  luma_HgbLoss loss = (luma_HgbLoss)luaL_checkoption(L, 1, NULL, losses);
  luma_Mat *y = luma_matrix_check(L, 2);
  if (y->cols != 1 || y->rows < 1) luma_arg_error(L, 2, "y must be a non-empty column");
  int64_t n = y->rows;
  luma_Mat *raw = check_dense(L, 3, "raw", n, 0);
  int64_t k = raw->cols;
  if (k < 1 || (loss != LUMA_HGB_MULTINOMIAL && k != 1))
    luma_arg_error(L, 3, "raw must have one column (several for the multinomial loss)");
  luma_Mat *g = check_dense(L, 4, "g", n, k);
  luma_Mat *h = check_dense(L, 5, "h", n, k);
  if (g->data == h->data || luma_mat_overlaps(g, raw) || luma_mat_overlaps(h, raw) ||
      luma_mat_overlaps(g, h))
    luma_arg_error(L, 5, "g, h and raw must not share memory");
  double *yc = scratch(L, (size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    double v = LUMA_AT(y, i, 0);
    if (!isfinite(v)) luma_arg_error(L, 2, "y has a non-finite value at row %I", (lua_Integer)(i + 1));
    if (loss == LUMA_HGB_MULTINOMIAL && !(v >= 0 && v < (double)k && v == floor(v)))
      luma_arg_error(L, 2, "class codes must be integers in 0..%I", (lua_Integer)(k - 1));
    yc[i] = v;
  }
  double *wc = NULL;
  if (!lua_isnoneornil(L, 6)) {
    luma_Mat *w = luma_matrix_check(L, 6);
    if (w->rows != n || w->cols != 1) luma_arg_error(L, 6, "w must be %I x 1", (lua_Integer)n);
    wc = scratch(L, (size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++) wc[i] = LUMA_AT(w, i, 0);
  }
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_hgb_gradients(t, loss, n, k, yc, wc, raw->data, g->data, h->data));
  return 0;
}

static const char *const ARRAYS[] = {"children_left", "children_right", "feature", "threshold",
                                     "bin_threshold", "missing_go_to_left", "value", "gain",
                                     "count", NULL};

static void push_tree(lua_State *L, const luma_HgbNode *nodes, int64_t count, int64_t d) {
  lua_createtable(L, 0, 12);
  lua_pushinteger(L, (lua_Integer)count);
  lua_setfield(L, -2, "node_count");
  lua_pushinteger(L, (lua_Integer)d);
  lua_setfield(L, -2, "n_features");
  luma_Mat *m[9];
  for (int a = 0; a < 9; a++) {
    m[a] = luma_matrix_new(L, count, 1);
    lua_setfield(L, -2, ARRAYS[a]);
  }
  for (int64_t i = 0; i < count; i++) {
    const luma_HgbNode *nd = &nodes[i];
    int leaf = nd->left < 0;
    LUMA_AT(m[0], i, 0) = leaf ? -1 : nd->left + 1;
    LUMA_AT(m[1], i, 0) = leaf ? -1 : nd->right + 1;
    LUMA_AT(m[2], i, 0) = leaf ? -2 : nd->feature + 1;
    LUMA_AT(m[3], i, 0) = leaf ? -2 : nd->threshold;
    LUMA_AT(m[4], i, 0) = leaf ? -2 : nd->bin;
    LUMA_AT(m[5], i, 0) = leaf ? 0 : nd->missing_left;
    LUMA_AT(m[6], i, 0) = nd->value;
    LUMA_AT(m[7], i, 0) = leaf ? 0 : nd->gain;
    LUMA_AT(m[8], i, 0) = (double)nd->count;
  }
}

/* grow(binned, g, h, k, opts, raw) -> tree; raw's column k gets the leaf values */
static int h_grow(lua_State *L) {
  lua_settop(L, 6);
  luma_HgbBinned *b = check_binned(L, 1);
  luma_Mat *g = check_dense(L, 2, "g", b->n, 0);
  luma_Mat *h = check_dense(L, 3, "h", b->n, g->cols);
  lua_Integer k = luma_check_int_range(L, 4, "k", 1, g->cols);
  luaL_checktype(L, 5, LUA_TTABLE);
  luma_check_options(L, 5, "max_leaf_nodes|max_depth|min_samples_leaf|l2_regularization|"
                           "learning_rate|constant_hessian");
  luma_HgbParams p;
  p.max_leaf_nodes = luma_opt_integer(L, 5, "max_leaf_nodes", 31);
  if (p.max_leaf_nodes < 2 || p.max_leaf_nodes > (1 << 20))
    luma_arg_error(L, 5, "option 'max_leaf_nodes' must be an integer in [2, %d]", 1 << 20);
  lua_Integer depth = luma_opt_integer(L, 5, "max_depth", -1);
  if (depth != -1 && depth < 1) luma_arg_error(L, 5, "option 'max_depth' must be >= 1");
  p.max_depth = depth < 0 ? INT64_MAX : depth;
  p.min_samples_leaf = luma_opt_integer(L, 5, "min_samples_leaf", 20);
  if (p.min_samples_leaf < 1) luma_arg_error(L, 5, "option 'min_samples_leaf' must be >= 1");
  p.l2 = luma_opt_number(L, 5, "l2_regularization", 0);
  p.shrinkage = luma_opt_number(L, 5, "learning_rate", 0.1);
  p.constant_hessian = luma_opt_boolean(L, 5, "constant_hessian", 0);
  p.min_hessian = 1e-3;
  luma_Mat *raw = check_dense(L, 6, "raw", b->n, g->cols);
  if (luma_mat_overlaps(raw, g) || luma_mat_overlaps(raw, h))
    luma_arg_error(L, 6, "raw must not share memory with g or h");
  int64_t stride = g->cols;
  luma_HgbNode *nodes = scratch(L, (size_t)(2 * p.max_leaf_nodes) * sizeof(luma_HgbNode));
  void *work = scratch(L, luma_hgb_grow_work_bytes(b->n, b->d, p.max_leaf_nodes));
  luma_Threads *t = luma_threads_of(L);
  luma_LoopStatus status;
  int64_t count = luma_hgb_grow(t, &p, b, g->data + (k - 1), h->data + (k - 1), stride, nodes,
                                raw->data + (k - 1), work, &status);
  luma_threads_finish(L, t, status);
  push_tree(L, nodes, count, b->d);
  return 1;
}

static lua_Integer tree_int(lua_State *L, int idx, const char *key, lua_Integer lo,
                            lua_Integer hi) {
  lua_getfield(L, idx, key);
  int ok = 0;
  lua_Integer v = lua_tointegerx(L, -1, &ok);
  if (!ok || lua_type(L, -1) != LUA_TNUMBER || v < lo || v > hi)
    luma_arg_error(L, idx, "not a tree: field '%s' must be an integer in [%I, %I]", key, lo, hi);
  lua_pop(L, 1);
  return v;
}

/* The checked prediction nodes of the tree table at idx (scratch pushed). */
static luma_HgbNode *read_tree(lua_State *L, int idx, int64_t *d) {
  if (!lua_istable(L, idx))
    luma_arg_error(L, idx, "tree table expected, got %s", luaL_typename(L, idx));
  int64_t n = tree_int(L, idx, "node_count", 1, INT32_MAX - 1);
  *d = tree_int(L, idx, "n_features", 1, 1 << 24);
  luma_Mat *m[9];
  for (int a = 0; a < 9; a++) {
    lua_getfield(L, idx, ARRAYS[a]);
    m[a] = luma_matrix_test(L, -1);
    if (!m[a] || m[a]->rows != n || m[a]->cols != 1)
      luma_arg_error(L, idx, "not a tree: field '%s' must be a %I x 1 matrix", ARRAYS[a],
                     (lua_Integer)n);
    lua_pop(L, 1);
  }
  luma_HgbNode *nodes = scratch(L, (size_t)n * sizeof(luma_HgbNode));
  for (int64_t i = 0; i < n; i++) {
    double l = LUMA_AT(m[0], i, 0), r = LUMA_AT(m[1], i, 0), f = LUMA_AT(m[2], i, 0);
    int leaf = l == -1;
    if (leaf ? r != -1
             : !(l > (double)(i + 1) && l <= (double)n && r > (double)(i + 1) && r <= (double)n &&
                 l == floor(l) && r == floor(r) && f >= 1 && f <= (double)*d && f == floor(f) &&
                 !isnan(LUMA_AT(m[3], i, 0))))
      luma_arg_error(L, idx, "not a tree: node %I has invalid children or feature",
                     (lua_Integer)(i + 1));
    memset(&nodes[i], 0, sizeof nodes[i]);
    nodes[i].left = leaf ? -1 : (int32_t)l - 1;
    nodes[i].right = leaf ? -1 : (int32_t)r - 1;
    nodes[i].feature = leaf ? -1 : (int32_t)f - 1;
    nodes[i].threshold = LUMA_AT(m[3], i, 0);
    nodes[i].missing_left = LUMA_AT(m[5], i, 0) != 0;
    nodes[i].value = LUMA_AT(m[6], i, 0);
  }
  return nodes;
}

/* predict(tree, X, out [, k = 1]): adds each row's leaf value to out[:, k] */
static int h_predict(lua_State *L) {
  lua_settop(L, 4);
  int64_t d;
  luma_HgbNode *nodes = read_tree(L, 1, &d);
  luma_Mat *x = luma_matrix_check(L, 2);
  if (x->cols != d)
    luma_arg_error(L, 2, "X has %I columns but the tree was grown on %I", (lua_Integer)x->cols,
                   (lua_Integer)d);
  for (int64_t i = 0; i < x->rows; i++)
    for (int64_t j = 0; j < x->cols; j++)
      if (isinf(LUMA_AT(x, i, j)))
        luma_arg_error(L, 2, "X has an infinite value at row %I, column %I",
                       (lua_Integer)(i + 1), (lua_Integer)(j + 1));
  luma_Mat *out = check_dense(L, 3, "out", x->rows, 0);
  lua_Integer k = luma_check_int_range(L, 4, "k", 1, out->cols > 0 ? out->cols : 1);
  if (out->cols < 1) luma_arg_error(L, 3, "out must have a column");
  if (luma_mat_overlaps(out, x)) luma_arg_error(L, 3, "out must not share memory with X");
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_hgb_predict(t, nodes, x, out->data + (k - 1), out->cols));
  return 0;
}

int luma_open_ensemble_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"bin", h_bin, "bin(X [, {max_bins = 255, subsample = 200000, seed = 0}]) -> "
                     "binned, thresholds, n_bins",
       "Cuts each feature of X into at most max_bins bins at quantile midpoints of (a seeded "
       "subsample of) its non-missing values, NaN into bin 256. Returns the binned data (a "
       "luma.ensemble.BinnedData), the thresholds (d x 255, NaN beyond each feature's "
       "count) and the bins used per feature (d x 1)."},
      {"gradients", h_gradients, "gradients(loss, y, raw, g, h [, w = nil]) -> nothing",
       "Writes the gradients and hessians of loss (\"squared_error\", \"poisson\", "
       "\"binomial\", \"multinomial\") at the raw predictions (n x k) into g and h (n x k, "
       "contiguous), times the weights w. y holds targets, or class codes 0..k-1. Returns "
       "nothing."},
      {"grow", h_grow, "grow(binned, g, h, k, opts, raw) -> tree",
       "Grows one tree best-first on column k of the gradients g and hessians h and adds its "
       "leaf values to column k of raw. opts: max_leaf_nodes (31), max_depth, "
       "min_samples_leaf (20), l2_regularization (0), learning_rate (0.1), "
       "constant_hessian. Returns the tree table."},
      {"predict", h_predict, "predict(tree, X, out [, k = 1]) -> nothing",
       "Adds the leaf value of each row of X (NaN follows missing_go_to_left) to column k of "
       "out. Returns nothing."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.ensemble.native", funcs);
  luma_doc_set(L, -1, "luma.ensemble.native", NULL,
               "The histogram gradient boosting kernels behind "
               "luma.ensemble.HistGradientBoostingClassifier/Regressor: binning, gradients, "
               "leaf-wise growth on histograms and prediction.");
  return 1;
}
