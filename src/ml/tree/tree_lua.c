/*
 * tree_lua.c - Lua binding of the CART kernels (luma.tree.native): growing
 * one tree or a batch of trees in parallel, prediction, importances and
 * cost-complexity pruning.
 *
 * A tree crosses into Lua as a plain table of matrices (so luma.save keeps
 * it and the collector sees its size): node_count, max_depth, n_features,
 * n_classes (classification) or n_outputs (regression), and the node
 * arrays children_left, children_right, feature, threshold, impurity,
 * n_node_samples, weighted_n_node_samples (node_count x 1) and value
 * (node_count x width).  Node and feature ids are 1-based; leaves have
 * children -1 and feature and threshold -2, as in scikit-learn.  Every
 * function that takes a tree checks the table (sizes, children after
 * their parent, features in range), so a damaged table is an error and
 * never a crash.
 *
 * Growth needs a node capacity in advance (tree.h): trees are grown into
 * scratch slots from the Lua allocator, a batch of twice the thread count
 * at a time, then copied into right-sized matrices.
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "tree/tree.h"

#define CRITERIA \
  "gini|entropy|misclassification|gain_ratio|entropy_ratio|squared_error|friedman_mse|" \
  "absolute_error|poisson"
static const char *const CRITERION_NAMES[] = {
    "gini", "entropy", "misclassification", "gain_ratio", "entropy_ratio",
    "squared_error", "friedman_mse", "absolute_error", "poisson"};
#define BUILD_OPTIONS \
  "criterion|splitter|max_depth|min_samples_split|min_samples_leaf|min_weight_leaf|" \
  "min_impurity_decrease|max_features|max_leaf_nodes|n_classes|seed|n_bootstrap"

static void *scratch(lua_State *L, size_t bytes) {
  return lua_newuserdatauv(L, bytes > 0 ? bytes : 1, 0);
}

static lua_Integer opt_int_range(lua_State *L, int arg, const char *key, lua_Integer dflt,
                                 lua_Integer lo, lua_Integer hi) {
  lua_Integer v = luma_opt_integer(L, arg, key, dflt);
  if (v != dflt && (v < lo || v > hi))
    luma_arg_error(L, arg, "option '%s' must be an integer in [%I, %I], got %I", key, lo, hi, v);
  return v;
}

/* ------------------------------------------------------------ the data */

/* X as column-major scratch (pushed), checked finite. */
static double *column_major(lua_State *L, int arg, const luma_Mat *x, const char *fname) {
  if (x->rows < 1 || x->cols < 1)
    luma_arg_error(L, arg, "X is %I x %I: %s needs at least one row and one column",
                   (lua_Integer)x->rows, (lua_Integer)x->cols, fname);
  if (x->rows > INT32_MAX - 1 || x->cols > INT32_MAX - 1)
    luma_arg_error(L, arg, "X is %I x %I, too large for a tree (dimensions up to %d)",
                   (lua_Integer)x->rows, (lua_Integer)x->cols, INT32_MAX - 1);
  double *xc = scratch(L, (size_t)x->rows * (size_t)x->cols * sizeof(double));
  for (int64_t i = 0; i < x->rows; i++)
    for (int64_t j = 0; j < x->cols; j++) {
      double v = LUMA_AT(x, i, j);
      if (!isfinite(v))
        luma_arg_error(L, arg,
                       "X has %s at row %I, column %I: decision trees need finite values "
                       "(HistGradientBoostingClassifier/Regressor handle missing values)",
                       isnan(v) ? "NaN" : "an infinite value", (lua_Integer)(i + 1),
                       (lua_Integer)(j + 1));
      xc[j * x->rows + i] = v;
    }
  return xc;
}

/* Every element finite, for prediction (a NaN would silently go right). */
static void check_finite(lua_State *L, int arg, const luma_Mat *x) {
  for (int64_t i = 0; i < x->rows; i++)
    for (int64_t j = 0; j < x->cols; j++)
      if (!isfinite(LUMA_AT(x, i, j)))
        luma_arg_error(L, arg,
                       "X has %s at row %I, column %I: decision trees need finite values "
                       "(HistGradientBoostingClassifier/Regressor handle missing values)",
                       isnan(LUMA_AT(x, i, j)) ? "NaN" : "an infinite value",
                       (lua_Integer)(i + 1), (lua_Integer)(j + 1));
}

static void read_params(lua_State *L, int arg, int64_t d, luma_TreeParams *p) {
  luaL_checktype(L, arg, LUA_TTABLE);
  luma_check_options(L, arg, BUILD_OPTIONS);
  memset(p, 0, sizeof *p);
  p->criterion = (luma_TreeCriterion)luma_opt_choice(L, arg, "criterion", CRITERIA, 0);
  p->random_splits = luma_opt_choice(L, arg, "splitter", "best|random", 0);
  lua_Integer depth = opt_int_range(L, arg, "max_depth", -1, 1, INT32_MAX - 1);
  p->max_depth = depth < 0 ? INT64_MAX : depth;
  p->min_samples_split = opt_int_range(L, arg, "min_samples_split", 2, 2, INT32_MAX);
  p->min_samples_leaf = opt_int_range(L, arg, "min_samples_leaf", 1, 1, INT32_MAX);
  p->min_weight_leaf = luma_opt_number(L, arg, "min_weight_leaf", 0);
  p->min_impurity_decrease = luma_opt_number(L, arg, "min_impurity_decrease", 0);
  p->max_features = opt_int_range(L, arg, "max_features", d, 1, d);
  p->max_leaf_nodes = opt_int_range(L, arg, "max_leaf_nodes", 0, 2, INT32_MAX);
  p->n_classes = opt_int_range(L, arg, "n_classes", 0, 1, 1 << 24);
  p->seed = (uint64_t)luma_opt_integer(L, arg, "seed", 0);
  p->n_bootstrap = opt_int_range(L, arg, "n_bootstrap", 0, 1, (lua_Integer)1 << 40);
  int classifying = p->criterion < LUMA_TREE_SQUARED_ERROR;
  if (classifying != (p->n_classes > 0))
    luma_arg_error(L, arg, classifying ? "criterion '%s' needs option n_classes (classification)"
                                       : "criterion '%s' is for regression (no n_classes)",
                   CRITERION_NAMES[p->criterion]);
}

/* The targets at arg: class codes 1..k (n x 1) or real targets (n x m),
 * checked, into scratch on the stack. */
static void read_target(lua_State *L, int arg, luma_TreeParams *p, luma_TreeData *data) {
  luma_Mat *y = luma_matrix_check(L, arg);
  if (y->rows != data->n)
    luma_arg_error(L, arg, "X has %I rows but the targets have %I", (lua_Integer)data->n,
                   (lua_Integer)y->rows);
  if (p->n_classes > 0) {
    if (y->cols != 1) luma_arg_error(L, arg, "class codes must be one column");
    int32_t *codes = scratch(L, (size_t)data->n * sizeof(int32_t));
    for (int64_t i = 0; i < data->n; i++) {
      double v = LUMA_AT(y, i, 0);
      if (!(v >= 1 && v <= (double)p->n_classes) || v != floor(v))
        luma_arg_error(L, arg, "codes[%I] = %f is not an integer in 1..%I", (lua_Integer)(i + 1),
                       v, (lua_Integer)p->n_classes);
      codes[i] = (int32_t)v - 1;
    }
    data->codes = codes;
    return;
  }
  if (y->cols < 1 || y->cols > 1 << 20)
    luma_arg_error(L, arg, "the targets must have 1 to %d columns", 1 << 20);
  if (p->criterion == LUMA_TREE_ABSOLUTE_ERROR && y->cols != 1)
    luma_arg_error(L, arg, "criterion 'absolute_error' takes one target column, got %I",
                   (lua_Integer)y->cols);
  p->n_outputs = y->cols;
  double *t = scratch(L, (size_t)data->n * (size_t)y->cols * sizeof(double));
  for (int64_t i = 0; i < data->n; i++)
    for (int64_t k = 0; k < y->cols; k++) {
      double v = LUMA_AT(y, i, k);
      if (!isfinite(v))
        luma_arg_error(L, arg, "the targets have a non-finite value at row %I",
                       (lua_Integer)(i + 1));
      if (p->criterion == LUMA_TREE_POISSON && v < 0)
        luma_arg_error(L, arg, "criterion 'poisson' needs targets >= 0 (row %I has %f)",
                       (lua_Integer)(i + 1), v);
      t[i * y->cols + k] = v;
    }
  data->y = t;
}

static const double *read_weights(lua_State *L, int arg, int64_t n) {
  if (lua_isnoneornil(L, arg)) return NULL;
  luma_Mat *w = luma_matrix_check(L, arg);
  if (w->rows != n || w->cols != 1)
    luma_arg_error(L, arg, "sample weights must be %I x 1, got %I x %I", (lua_Integer)n,
                   (lua_Integer)w->rows, (lua_Integer)w->cols);
  double *out = scratch(L, (size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    double v = LUMA_AT(w, i, 0);
    if (!isfinite(v) || v < 0) luma_arg_error(L, arg, "sample weights must be finite and >= 0");
    out[i] = v;
  }
  return out;
}

/* ------------------------------------------------------- tree <-> Lua */

static const char *const ARRAYS[] = {"children_left", "children_right", "feature", "threshold",
                                     "impurity", "n_node_samples", "weighted_n_node_samples",
                                     NULL};

/* Pushes the Lua table of a grown tree. */
static void push_tree(lua_State *L, const luma_TreeNodes *t, int64_t d, int64_t n_classes) {
  int64_t n = t->count;
  lua_createtable(L, 0, 14);
  lua_pushinteger(L, (lua_Integer)n);
  lua_setfield(L, -2, "node_count");
  lua_pushinteger(L, (lua_Integer)t->max_depth);
  lua_setfield(L, -2, "max_depth");
  lua_pushinteger(L, (lua_Integer)d);
  lua_setfield(L, -2, "n_features");
  lua_pushinteger(L, (lua_Integer)t->width);
  lua_setfield(L, -2, n_classes > 0 ? "n_classes" : "n_outputs");
  luma_Mat *m[7];
  for (int a = 0; a < 7; a++) {
    m[a] = luma_matrix_new(L, n, 1);
    lua_setfield(L, -2, ARRAYS[a]);
  }
  for (int64_t i = 0; i < n; i++) {
    LUMA_AT(m[0], i, 0) = t->left[i] < 0 ? LUMA_TREE_LEAF : t->left[i] + 1;
    LUMA_AT(m[1], i, 0) = t->right[i] < 0 ? LUMA_TREE_LEAF : t->right[i] + 1;
    LUMA_AT(m[2], i, 0) = t->feature[i] < 0 ? LUMA_TREE_UNDEFINED : t->feature[i] + 1;
    LUMA_AT(m[3], i, 0) = t->threshold[i];
    LUMA_AT(m[4], i, 0) = t->impurity[i];
    LUMA_AT(m[5], i, 0) = (double)t->n_samples[i];
    LUMA_AT(m[6], i, 0) = t->weighted_n[i];
  }
  luma_Mat *v = luma_matrix_new(L, n, t->width);
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = 0; k < t->width; k++) LUMA_AT(v, i, k) = t->value[i * t->width + k];
  lua_setfield(L, -2, "value");
}

/* Scratch arrays for a tree of `cap` nodes and `width` value columns
 * (pushed as one userdata). */
static void alloc_nodes(lua_State *L, luma_TreeNodes *t, int64_t cap, int64_t width) {
  size_t c = (size_t)(cap > 0 ? cap : 1);
  size_t bytes = c * (3 * sizeof(int32_t) + 3 * sizeof(double) + sizeof(int64_t) +
                      (size_t)width * sizeof(double)) + 64;
  char *b = scratch(L, bytes);
  t->capacity = cap;
  t->count = 0;
  t->width = width;
  t->max_depth = 0;
  t->threshold = (double *)b;
  t->impurity = t->threshold + c;
  t->weighted_n = t->impurity + c;
  t->value = t->weighted_n + c;
  t->n_samples = (int64_t *)(t->value + c * (size_t)width);
  t->left = (int32_t *)(t->n_samples + c);
  t->right = t->left + c;
  t->feature = t->right + c;
}

static luma_Mat *tree_array(lua_State *L, int idx, const char *key, int64_t rows, int64_t cols) {
  lua_getfield(L, idx, key);
  luma_Mat *m = luma_matrix_test(L, -1);
  if (!m || m->rows != rows || (cols > 0 && m->cols != cols))
    luma_arg_error(L, idx, "not a tree: field '%s' must be a %I-row matrix", key,
                   (lua_Integer)rows);
  lua_pop(L, 1); /* the table keeps it alive */
  return m;
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

/* Reads and checks the tree table at idx into scratch (pushed): the full
 * arrays in *t, the compact prediction nodes returned.  *d gets the
 * feature count, *classes the class count (0 for regression). */
static luma_TreeNode *read_tree(lua_State *L, int idx, luma_TreeNodes *t, int64_t *d,
                                int64_t *classes) {
  if (!lua_istable(L, idx)) luma_arg_error(L, idx, "tree table expected, got %s",
                                           luaL_typename(L, idx));
  int64_t n = tree_int(L, idx, "node_count", 1, INT32_MAX - 1);
  *d = tree_int(L, idx, "n_features", 1, INT32_MAX - 1);
  lua_getfield(L, idx, "n_classes");
  int classification = !lua_isnil(L, -1);
  lua_pop(L, 1);
  int64_t width = tree_int(L, idx, classification ? "n_classes" : "n_outputs", 1, 1 << 24);
  *classes = classification ? width : 0;
  luma_Mat *m[7];
  for (int a = 0; a < 7; a++) m[a] = tree_array(L, idx, ARRAYS[a], n, 1);
  luma_Mat *v = tree_array(L, idx, "value", n, width);
  alloc_nodes(L, t, n, width);
  t->count = n;
  t->max_depth = 0;
  luma_TreeNode *nodes = scratch(L, (size_t)n * sizeof(luma_TreeNode));
  unsigned char *parents = scratch(L, (size_t)n);
  memset(parents, 0, (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    double l = LUMA_AT(m[0], i, 0), r = LUMA_AT(m[1], i, 0), f = LUMA_AT(m[2], i, 0);
    int leaf = l == LUMA_TREE_LEAF;
    if (leaf ? r != LUMA_TREE_LEAF
             : !(l > (double)(i + 1) && l <= (double)n && r > (double)(i + 1) &&
                 r <= (double)n && l == floor(l) && r == floor(r) && f >= 1 &&
                 f <= (double)*d && f == floor(f) && !isnan(LUMA_AT(m[3], i, 0))))
      luma_arg_error(L, idx, "not a tree: node %I has invalid children or feature",
                     (lua_Integer)(i + 1));
    t->left[i] = leaf ? LUMA_TREE_LEAF : (int32_t)l - 1;
    t->right[i] = leaf ? LUMA_TREE_LEAF : (int32_t)r - 1;
    t->feature[i] = leaf ? LUMA_TREE_UNDEFINED : (int32_t)f - 1;
    t->threshold[i] = LUMA_AT(m[3], i, 0);
    t->impurity[i] = LUMA_AT(m[4], i, 0);
    t->n_samples[i] = (int64_t)fmax(0, fmin(LUMA_AT(m[5], i, 0), 1e15));
    t->weighted_n[i] = LUMA_AT(m[6], i, 0);
    for (int64_t k = 0; k < width; k++) t->value[i * width + k] = LUMA_AT(v, i, k);
    nodes[i] = (luma_TreeNode){t->left[i], t->right[i], t->feature[i], 0, t->threshold[i]};
    if (!leaf) {
      if (parents[t->left[i]]++ || parents[t->right[i]]++ || t->left[i] == t->right[i])
        luma_arg_error(L, idx, "not a tree: a node below node %I has two parents",
                       (lua_Integer)(i + 1));
    }
  }
  for (int64_t i = 1; i < n; i++)
    if (!parents[i]) luma_arg_error(L, idx, "not a tree: node %I has no parent", (lua_Integer)(i + 1));
  lua_pop(L, 1); /* parents */
  return nodes;
}

/* X for prediction: a matrix with the tree's columns, finite. */
static luma_Mat *predict_input(lua_State *L, int arg, int64_t d) {
  luma_Mat *x = luma_matrix_check(L, arg);
  if (x->cols != d)
    luma_arg_error(L, arg, "X has %I columns but the tree was grown on %I",
                   (lua_Integer)x->cols, (lua_Integer)d);
  check_finite(L, arg, x);
  return x;
}

/* ------------------------------------------------------------- growth */

typedef struct GrowJob {
  const luma_TreeParams *base;
  const luma_TreeData *data;
  const uint64_t *seeds;
  luma_TreeNodes *slots;
  void **works;
  int *status;
} GrowJob;

static void grow_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)end;
  GrowJob *job = ctx;
  luma_TreeParams p = *job->base;
  p.seed = job->seeds[begin];
  job->status[k] = luma_tree_grow(&p, job->data, &job->slots[k], job->works[k]);
}

/* Grows one tree per seed (argument order: X, target, opts, seeds, w) and
 * leaves a list of tree tables on the stack. */
static void grow_trees(lua_State *L, const uint64_t *seeds, int64_t count) {
  luma_Mat *x = luma_matrix_check(L, 1);
  luma_TreeParams p;
  read_params(L, 3, x->cols, &p);
  luma_TreeData data = {NULL, NULL, x->rows, x->cols, NULL, NULL, NULL};
  data.xc = column_major(L, 1, x, "a tree");
  if (!p.random_splits) {
    uint32_t *ranks = scratch(L, (size_t)x->rows * (size_t)x->cols * sizeof(uint32_t));
    luma_tree_ranks(data.xc, x->rows, x->cols, ranks,
                    scratch(L, luma_tree_ranks_work_bytes(x->rows)));
    lua_pop(L, 1); /* the ranking's scratch */
    data.ranks = ranks;
  }
  read_target(L, 2, &p, &data);
  data.w = read_weights(L, 5, x->rows);
  int64_t width = luma_tree_width(&p), cap = luma_tree_capacity(&p, x->rows);
  luma_Threads *t = luma_threads_of(L);
  int64_t batch = 2 * (int64_t)luma_threads_count(L);
  if (batch > count) batch = count;
  luma_TreeNodes *slots = scratch(L, (size_t)batch * sizeof(luma_TreeNodes));
  void **works = scratch(L, (size_t)batch * sizeof(void *));
  int *status = scratch(L, (size_t)batch * sizeof(int));
  size_t work_bytes = luma_tree_work_bytes(&p, x->rows, x->cols);
  for (int64_t k = 0; k < batch; k++) {
    alloc_nodes(L, &slots[k], cap, width);
    works[k] = scratch(L, work_bytes);
  }
  lua_createtable(L, (int)(count < INT_MAX ? count : 0), 0);
  int list = lua_gettop(L);
  uint64_t cost = (uint64_t)x->rows * (uint64_t)p.max_features * 16 + 1;
  for (int64_t first = 0; first < count; first += batch) {
    int64_t m = count - first < batch ? count - first : batch;
    GrowJob job = {&p, &data, seeds + first, slots, works, status};
    luma_Loop loop = {m, 1, cost, 0, grow_chunk, &job};
    luma_threads_finish(L, t, luma_parallel_for(t, &loop));
    for (int64_t k = 0; k < m; k++) {
      if (status[k] != 0)
        luma_arg_error(L, 5, "no sample has a positive weight (tree %I)",
                       (lua_Integer)(first + k + 1));
      push_tree(L, &slots[k], x->cols, p.n_classes);
      lua_rawseti(L, list, (lua_Integer)(first + k + 1));
    }
  }
}

/* build(X, target, opts [, w]) */
static int t_build(lua_State *L) {
  lua_settop(L, 4);
  lua_pushnil(L);
  lua_insert(L, 4); /* the seeds' slot of build_forest */
  luaL_checktype(L, 3, LUA_TTABLE);
  uint64_t seed = (uint64_t)luma_opt_integer(L, 3, "seed", 0);
  grow_trees(L, &seed, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

/* build_forest(X, target, opts, seeds [, w]) */
static int t_build_forest(lua_State *L) {
  lua_settop(L, 5);
  luaL_checktype(L, 4, LUA_TTABLE);
  lua_Integer count = (lua_Integer)lua_rawlen(L, 4);
  if (count < 1 || count > (1 << 24))
    luma_arg_error(L, 4, "seeds must be a list of 1 to %d integers", 1 << 24);
  uint64_t *seeds = scratch(L, (size_t)count * sizeof(uint64_t));
  for (lua_Integer i = 0; i < count; i++) {
    lua_rawgeti(L, 4, i + 1);
    int ok = 0;
    lua_Integer s = lua_tointegerx(L, -1, &ok);
    if (!ok || lua_type(L, -1) != LUA_TNUMBER)
      luma_arg_error(L, 4, "seeds[%I] must be an integer", i + 1);
    seeds[i] = (uint64_t)s;
    lua_pop(L, 1);
  }
  lua_replace(L, 4); /* the scratch takes the seeds' slot (the copy is what is used) */
  grow_trees(L, seeds, count);
  return 1;
}

/* ---------------------------------------------------------- prediction */

/* apply(tree, X) -> n x 1 leaf ids (1-based) */
static int t_apply(lua_State *L) {
  lua_settop(L, 2);
  luma_TreeNodes t;
  int64_t d, classes;
  luma_TreeNode *nodes = read_tree(L, 1, &t, &d, &classes);
  luma_Mat *x = predict_input(L, 2, d);
  int64_t *leaf = scratch(L, (size_t)x->rows * sizeof(int64_t));
  luma_Threads *th = luma_threads_of(L);
  luma_threads_finish(L, th, luma_tree_apply(th, nodes, x, leaf));
  luma_Mat *out = luma_matrix_new(L, x->rows, 1);
  for (int64_t i = 0; i < x->rows; i++) LUMA_AT(out, i, 0) = (double)(leaf[i] + 1);
  return 1;
}

static luma_Mat *opt_matrix(lua_State *L, int arg, const char *key, int64_t rows, int64_t cols) {
  if (lua_isnoneornil(L, arg)) return NULL;
  lua_getfield(L, arg, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return NULL;
  }
  luma_Mat *m = luma_matrix_test(L, -1);
  if (!m || m->rows != rows || m->cols != cols)
    luma_arg_error(L, arg, "option '%s' must be a %I x %I matrix", key, (lua_Integer)rows,
                   (lua_Integer)cols);
  return m; /* left on the stack */
}

/* A contiguous copy of an n x 1 matrix (pushed). */
static double *column_copy(lua_State *L, const luma_Mat *m) {
  double *c = scratch(L, (size_t)m->rows * sizeof(double));
  for (int64_t i = 0; i < m->rows; i++) c[i] = LUMA_AT(m, i, 0);
  return c;
}

/* predict(tree, X [, opts]) -> n x width: value of each row's leaf, or
 * added into opts.out; opts.normalize divides by the leaf's total (class
 * counts to probabilities), opts.scale multiplies, opts.mask skips rows
 * whose mask is 0, opts.hits (n x 1) counts the rows added. */
static int t_predict(lua_State *L) {
  lua_settop(L, 3);
  luma_check_options(L, 3, "out|normalize|scale|mask|hits");
  luma_TreeNodes t;
  int64_t d, classes;
  luma_TreeNode *nodes = read_tree(L, 1, &t, &d, &classes);
  luma_Mat *x = predict_input(L, 2, d);
  int normalize = luma_opt_boolean(L, 3, "normalize", 0);
  double scale = 1;
  if (!lua_isnoneornil(L, 3)) {
    lua_getfield(L, 3, "scale");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
        luma_arg_error(L, 3, "option 'scale' must be a finite number");
      scale = lua_tonumber(L, -1);
    }
    lua_pop(L, 1);
  }
  luma_Mat *mask = opt_matrix(L, 3, "mask", x->rows, 1);
  const double *maskc = mask ? column_copy(L, mask) : NULL;
  luma_Mat *hits = opt_matrix(L, 3, "hits", x->rows, 1);
  double *hitsc = hits ? column_copy(L, hits) : NULL;
  luma_Mat *out = opt_matrix(L, 3, "out", x->rows, t.width);
  if (out) {
    if (luma_mat_overlaps(out, x) || (hits && luma_mat_overlaps(out, hits)) ||
        (mask && luma_mat_overlaps(out, mask)))
      luma_arg_error(L, 3, "out shares memory with another argument");
  } else {
    out = luma_matrix_new(L, x->rows, t.width);
    luma_mat_fill(out, 0);
  }
  int out_idx = lua_gettop(L);
  luma_Threads *th = luma_threads_of(L);
  luma_threads_finish(L, th, luma_tree_accumulate(th, nodes, t.value, t.width, normalize, scale,
                                                  x, maskc, out, hitsc));
  if (hits)
    for (int64_t i = 0; i < x->rows; i++) LUMA_AT(hits, i, 0) = hitsc[i];
  lua_pushvalue(L, out_idx);
  return 1;
}

/* decision_path(tree, X) -> n x node_count indicator */
static int t_decision_path(lua_State *L) {
  lua_settop(L, 2);
  luma_TreeNodes t;
  int64_t d, classes;
  luma_TreeNode *nodes = read_tree(L, 1, &t, &d, &classes);
  luma_Mat *x = predict_input(L, 2, d);
  if (luma_mat_checked_size(x->rows, t.count) < 0)
    luma_arg_error(L, 2, "the indicator would have too many elements");
  luma_Mat *out = luma_matrix_new(L, x->rows, t.count);
  luma_mat_fill(out, 0);
  for (int64_t i = 0; i < x->rows; i++) {
    int32_t k = 0;
    LUMA_AT(out, i, 0) = 1;
    while (nodes[k].left >= 0) {
      k = LUMA_AT(x, i, nodes[k].feature) <= nodes[k].threshold ? nodes[k].left : nodes[k].right;
      LUMA_AT(out, i, k) = 1;
    }
  }
  return 1;
}

/* importances(tree) -> d x 1 */
static int t_importances(lua_State *L) {
  lua_settop(L, 1);
  luma_TreeNodes t;
  int64_t d, classes;
  read_tree(L, 1, &t, &d, &classes);
  luma_Mat *out = luma_matrix_new(L, d, 1);
  double *tmp = scratch(L, (size_t)d * sizeof(double));
  luma_tree_importances(&t, d, tmp);
  for (int64_t j = 0; j < d; j++) LUMA_AT(out, j, 0) = tmp[j];
  lua_pushvalue(L, -2);
  return 1;
}

/* ------------------------------------------------------------- pruning */

static void check_prunable(lua_State *L, const luma_TreeNodes *t) {
  if (!(t->weighted_n[0] > 0))
    luma_arg_error(L, 1, "not a tree: the root's weighted_n_node_samples must be > 0");
}

/* prune_path(tree) -> alphas, impurities */
static int t_prune_path(lua_State *L) {
  lua_settop(L, 1);
  luma_TreeNodes t;
  int64_t d, classes;
  read_tree(L, 1, &t, &d, &classes);
  check_prunable(L, &t);
  double *alphas = scratch(L, (size_t)t.count * sizeof(double));
  double *imps = scratch(L, (size_t)t.count * sizeof(double));
  unsigned char *keep = scratch(L, 2 * (size_t)t.count);
  void *work = scratch(L, luma_tree_prune_work_bytes(t.count));
  luma_Threads *meter = luma_threads_of(L);
  int64_t k = luma_tree_prune(meter, &t, INFINITY, alphas, imps, keep, keep + t.count, work);
  luma_threads_finish(L, meter, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  luma_Mat *a = luma_matrix_new(L, k, 1);
  luma_Mat *b = luma_matrix_new(L, k, 1);
  for (int64_t i = 0; i < k; i++) {
    LUMA_AT(a, i, 0) = alphas[i];
    LUMA_AT(b, i, 0) = imps[i];
  }
  return 2;
}

/* prune(tree, ccp_alpha) -> the pruned tree (a new table) */
static int t_prune(lua_State *L) {
  lua_settop(L, 2);
  luma_TreeNodes t;
  int64_t d, classes;
  read_tree(L, 1, &t, &d, &classes);
  check_prunable(L, &t);
  double alpha = luaL_checknumber(L, 2);
  if (isnan(alpha) || alpha < 0) luma_arg_error(L, 2, "ccp_alpha must be a number >= 0");
  unsigned char *keep = scratch(L, 2 * (size_t)t.count);
  void *work = scratch(L, luma_tree_prune_work_bytes(t.count));
  luma_Threads *meter = luma_threads_of(L);
  luma_tree_prune(meter, &t, alpha, NULL, NULL, keep, keep + t.count, work);
  luma_threads_finish(L, meter, LUMA_LOOP_DONE); /* raises why the meter stopped, if it did */
  int64_t kept = 0;
  for (int64_t i = 0; i < t.count; i++) kept += keep[i];
  luma_TreeNodes out;
  alloc_nodes(L, &out, kept, t.width);
  int32_t *stack = scratch(L, 4 * (size_t)t.count * sizeof(int32_t));
  luma_tree_copy_pruned(&t, keep, keep + t.count, &out, stack);
  push_tree(L, &out, d, classes);
  return 1;
}

/* bootstrap(seed, n, n_draws) -> n x 1 counts */
static int t_bootstrap(lua_State *L) {
  uint64_t seed = (uint64_t)luaL_checkinteger(L, 1);
  lua_Integer n = luma_check_int_range(L, 2, "n", 1, (lua_Integer)1 << 31);
  lua_Integer draws = luma_check_int_range(L, 3, "n_draws", 1, (lua_Integer)1 << 40);
  luma_Mat *out = luma_matrix_new(L, n, 1);
  luma_tree_bootstrap(seed, n, draws, out->data);
  return 1;
}

int luma_open_tree_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"build", t_build, "build(X, target, opts [, sample_weight])",
       "Grows one CART tree on the rows of X (finite). target: class codes 1..k (n x 1) with "
       "opts.n_classes = k, or real targets (n x m). opts: criterion (gini, entropy, "
       "misclassification, gain_ratio, entropy_ratio for classes; squared_error, friedman_mse, "
       "absolute_error, poisson for targets), splitter (best or random), max_depth, "
       "min_samples_split, min_samples_leaf, min_weight_leaf, min_impurity_decrease, "
       "max_features (1..d), max_leaf_nodes (best-first growth), seed, n_bootstrap (draws "
       "with replacement that multiply the weights). Returns the tree as a table of node "
       "arrays (see luma.tree)."},
      {"build_forest", t_build_forest, "build_forest(X, target, opts, seeds [, sample_weight])",
       "Grows one tree per integer of the list seeds (opts.seed ignored) on the native "
       "threads; tree i depends only on seeds[i], whatever the thread count. Returns the "
       "list of tree tables."},
      {"apply", t_apply, "apply(tree, X)", "The leaf (1-based node id) of each row of X."},
      {"predict", t_predict, "predict(tree, X [, opts])",
       "The value of each row's leaf (n x width). opts: out (added into, not overwritten), "
       "normalize (divide by the leaf's total: class counts to probabilities), scale, mask "
       "(n x 1: rows with 0 are skipped), hits (n x 1, incremented for the rows added)."},
      {"decision_path", t_decision_path, "decision_path(tree, X)",
       "The n x node_count indicator of the nodes each row passes through."},
      {"importances", t_importances, "importances(tree)",
       "Per feature, the weighted impurity decrease of the nodes that split on it, divided "
       "by the root's weight (not normalized)."},
      {"prune_path", t_prune_path, "prune_path(tree)",
       "The minimal cost-complexity pruning path: the effective alphas (ascending, the "
       "first 0) and the total leaf impurities of the successive subtrees."},
      {"prune", t_prune, "prune(tree, ccp_alpha)",
       "The subtree minimizing R(T) + ccp_alpha |leaves(T)|, as a new tree table."},
      {"bootstrap", t_bootstrap, "bootstrap(seed, n, n_draws)",
       "How often each of n rows is drawn among n_draws draws with replacement: the "
       "bootstrap build and build_forest use for a tree with that seed."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.tree.native", funcs);
  luma_doc_set(L, -1, "luma.tree.native", NULL,
               "The CART kernels behind luma.tree and the forests of luma.ensemble: growing "
               "trees (one, or many on the native threads), prediction, importances and "
               "cost-complexity pruning.");
  return 1;
}
