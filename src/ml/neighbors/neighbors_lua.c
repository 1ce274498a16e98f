/*
 * neighbors_lua.c - Lua binding of the nearest-neighbour indexes
 * (luma.neighbors.native): build(X, opts) returns a luma.neighbors.Index
 * userdata whose whole structure lives inside the userdata (the collector
 * sees its size); query and query_radius search it; state and restore
 * turn it into plain matrices and back for luma.save, checking every
 * stored range so that a hostile file cannot make a search read out of
 * bounds.  vote, average, inverse_distance and select_rows serve the
 * neighbour models.
 *
 * A metric given as a Lua function is kept as the index's user value and
 * called with two 1 x d row matrices (the same two matrices for every call
 * of one build or query: copy them to keep them).  Its errors propagate
 * unchanged; a result that is not a number >= 0 is an error.  Searches
 * with it run on the calling thread only.
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "neighbors/neighbors.h"
#include "pairwise/pairwise.h"

static const luma_Type index_type;

static const char *const ALGORITHMS = "brute|kd_tree|ball_tree|orchard|aesa|laesa";
static const char *const ALGORITHM_NAMES[] = {"brute", "kd_tree", "ball_tree",
                                              "orchard", "aesa", "laesa"};
static const char *const METRIC_NAMES[] = {"euclidean", "manhattan", "chebyshev",
                                           "minkowski", "cosine", "function"};
static const char *const SPLITS = "median|sliding_midpoint";
static const char *const SPLIT_NAMES[] = {"median", "sliding_midpoint"};

#define DEFAULT_LEAF_SIZE 30
#define DEFAULT_BUOYS 16

/* ------------------------------------------------------------- helpers */

static luma_NnIndex *check_index(lua_State *L, int arg) {
  return luma_type_check(L, arg, &index_type);
}

/* Scratch userdata on the stack (collected even if an error follows). */
static void *scratch(lua_State *L, size_t bytes) {
  return lua_newuserdatauv(L, bytes ? bytes : 1, 0);
}

/* "nan" rather than the platform's "-nan". */
static void push_number_text(lua_State *L, double v) {
  if (v != v)
    lua_pushliteral(L, "nan");
  else
    lua_pushfstring(L, "%f", v);
}

/* -------------------------------------------------------- metric callback */

enum { CB_OK, CB_ERROR, CB_NOT_NUMBER, CB_BAD_VALUE };

typedef struct Callback {
  lua_State *L;
  int fn, u_idx, v_idx; /* stack slots */
  luma_Mat *u, *v;
  int status;
  int type;     /* CB_NOT_NUMBER: what came back */
  double value; /* CB_BAD_VALUE */
} Callback;

static double call_metric(void *ctx, const double *u, const double *v, int64_t d) {
  Callback *cb = ctx;
  lua_State *L = cb->L;
  memcpy(cb->u->data, u, (size_t)d * sizeof(double));
  memcpy(cb->v->data, v, (size_t)d * sizeof(double));
  lua_pushvalue(L, cb->fn);
  lua_pushvalue(L, cb->u_idx);
  lua_pushvalue(L, cb->v_idx);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    cb->status = CB_ERROR; /* the error object stays on top */
    return NAN;
  }
  if (lua_type(L, -1) != LUA_TNUMBER) {
    cb->status = CB_NOT_NUMBER;
    cb->type = lua_type(L, -1);
    lua_pop(L, 1);
    return NAN;
  }
  double r = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!(r >= 0)) {
    cb->status = CB_BAD_VALUE;
    cb->value = r;
    return NAN;
  }
  return r;
}

/* Pushes the two row matrices and fills the callback for the function at
 * fn_idx. */
static void callback_init(lua_State *L, Callback *cb, int fn_idx, int64_t d) {
  luaL_checkstack(L, 8, "metric function");
  cb->L = L;
  cb->fn = fn_idx;
  cb->u = luma_matrix_new(L, 1, d);
  cb->u_idx = lua_gettop(L);
  cb->v = luma_matrix_new(L, 1, d);
  cb->v_idx = lua_gettop(L);
  cb->status = CB_OK;
}

/* Raises what made the callback fail (its own error unchanged). */
static int callback_error(lua_State *L, const Callback *cb) {
  if (cb->status == CB_ERROR) return lua_error(L);
  if (cb->status == CB_NOT_NUMBER)
    return luaL_error(L, "luma.neighbors: the metric function returned %s (it must return a "
                      "number >= 0)", lua_typename(L, cb->type));
  push_number_text(L, cb->value);
  return luaL_error(L, "luma.neighbors: the metric function returned %s (it must return a "
                    "number >= 0)", lua_tostring(L, -1));
}

/* After a kernel: raises the callback's failure, an interrupt or the
 * instruction limit. */
static void finish_status(lua_State *L, luma_Threads *t, const Callback *cb, luma_NnStatus s) {
  if (s == LUMA_NN_METRIC_FAILED) callback_error(L, cb);
  if (t)
    luma_threads_finish(L, t, s == LUMA_NN_OK            ? LUMA_LOOP_DONE
                              : s == LUMA_NN_INTERRUPTED ? LUMA_LOOP_INTERRUPTED
                                                         : LUMA_LOOP_OVER_BUDGET);
}

/* The metric of an index at idx (its function, if any, is its user
 * value, pushed for the callback); t: the thread pool, or NULL when the
 * metric calls Lua. */
static luma_NnMetric metric_of(lua_State *L, const luma_NnIndex *ix, int idx, Callback *cb,
                               luma_Threads **t, int *slots) {
  luma_NnMetric m = {ix->metric, ix->p, NULL, NULL};
  if (ix->metric == LUMA_NN_CALLBACK) {
    lua_getiuservalue(L, idx, 1);
    callback_init(L, cb, lua_gettop(L), ix->d);
    m.fn = call_metric;
    m.ctx = cb;
    *t = NULL;
    *slots = 1;
  } else {
    *t = luma_threads_of(L);
    *slots = (*t)->count;
  }
  return m;
}

/* ---------------------------------------------------------------- build */

/* The metric named by opts.metric (a name or a function at opts_arg). */
typedef struct MetricChoice {
  luma_NnMetricKind kind;
  double p;
  int mahalanobis;
  const char *name;
} MetricChoice;

static MetricChoice parse_metric(lua_State *L, int opts) {
  MetricChoice c = {LUMA_NN_EUCLIDEAN, 2, 0, "euclidean"};
  if (lua_isnoneornil(L, opts)) return c;
  int t = lua_getfield(L, opts, "metric");
  if (t == LUA_TFUNCTION) {
    lua_pop(L, 1);
    c.kind = LUMA_NN_CALLBACK;
    c.name = "function";
    return c;
  }
  if (t != LUA_TNIL && t != LUA_TSTRING)
    luma_arg_error(L, opts, "option 'metric' must be a name or a function, got %s",
                   luaL_typename(L, -1));
  const char *s = t == LUA_TNIL ? "euclidean" : lua_tostring(L, -1);
  static const struct {
    const char *name;
    luma_NnMetricKind kind;
  } names[] = {{"euclidean", LUMA_NN_EUCLIDEAN}, {"l2", LUMA_NN_EUCLIDEAN},
               {"manhattan", LUMA_NN_MANHATTAN}, {"cityblock", LUMA_NN_MANHATTAN},
               {"l1", LUMA_NN_MANHATTAN},        {"chebyshev", LUMA_NN_CHEBYSHEV},
               {"infinity", LUMA_NN_CHEBYSHEV},  {"minkowski", LUMA_NN_MINKOWSKI},
               {"cosine", LUMA_NN_COSINE},       {"mahalanobis", LUMA_NN_EUCLIDEAN}};
  size_t i = 0, count = sizeof names / sizeof names[0];
  while (i < count && strcmp(names[i].name, s) != 0) i++;
  if (i == count)
    luma_arg_error(L, opts, "unknown metric '%s' (valid: euclidean, l2, manhattan, cityblock, "
                   "l1, chebyshev, infinity, minkowski, cosine, mahalanobis, or a function)", s);
  lua_pop(L, 1);
  c.kind = names[i].kind;
  c.name = names[i].name;
  c.mahalanobis = i == count - 1;
  if (c.kind == LUMA_NN_MINKOWSKI) {
    /* the exponents with exact special forms get them */
    int pt = lua_getfield(L, opts, "p");
    double p = pt == LUA_TNUMBER ? lua_tonumber(L, -1) : pt == LUA_TNIL ? 2 : NAN;
    lua_pop(L, 1);
    if (!(p >= 1))
      luma_arg_error(L, opts, "option 'p' must be a number >= 1 for minkowski (p < 1 is not a "
                     "metric)");
    c.p = p;
    c.kind = p == 1 ? LUMA_NN_MANHATTAN : p == 2 ? LUMA_NN_EUCLIDEAN
             : isinf(p) ? LUMA_NN_CHEBYSHEV : LUMA_NN_MINKOWSKI;
  }
  return c;
}

/* Whether the algorithm can use the metric: trees and the metric-space
 * indexes need a true metric (cosine is not one); the KD-tree bounds boxes
 * coordinate by coordinate, so it needs a Minkowski-type metric. */
static int supports(luma_NnAlgorithm a, luma_NnMetricKind k) {
  if (a == LUMA_NN_BRUTE) return 1;
  if (k == LUMA_NN_COSINE) return 0;
  if (a == LUMA_NN_KD_TREE) return k != LUMA_NN_CALLBACK;
  return 1;
}

/* Whitens x with opts.cov or opts.VI (Mahalanobis); pushes the whitened
 * copy and the factor userdata (below it); returns the copy. */
static luma_Mat *mahalanobis(lua_State *L, int opts, const luma_Mat *x, int *whiten,
                             double **factor) {
  int has_cov = lua_getfield(L, opts, "cov") != LUA_TNIL;
  int has_vi = lua_getfield(L, opts, "VI") != LUA_TNIL;
  if (has_cov == has_vi)
    luma_arg_error(L, opts, has_cov ? "give option 'cov' or option 'VI', not both"
                                    : "metric 'mahalanobis' needs option 'cov' (the covariance "
                                      "matrix) or 'VI' (its inverse)");
  const char *key = has_cov ? "cov" : "VI";
  luma_Mat *m = luma_matrix_test(L, has_cov ? -2 : -1);
  if (!m)
    luma_arg_error(L, opts, "option '%s' must be a luma.Matrix, got %s", key,
                   luaL_typename(L, has_cov ? -2 : -1));
  int64_t d = x->cols;
  if (m->rows != d || m->cols != d)
    luma_arg_error(L, opts, "option '%s' is %I x %I but X has %I columns", key,
                   (lua_Integer)m->rows, (lua_Integer)m->cols, (lua_Integer)d);
  *factor = scratch(L, (size_t)(d * d) * sizeof(double));
  switch (luma_pairwise_cholesky(m, *factor)) {
  case LUMA_PAIRWISE_NOT_FINITE: luma_arg_error(L, opts, "option '%s' has NaN or infinite elements", key); break;
  case LUMA_PAIRWISE_NOT_SYMMETRIC: luma_arg_error(L, opts, "option '%s' is not symmetric", key); break;
  case LUMA_PAIRWISE_NOT_POSITIVE_DEFINITE:
    luma_arg_error(L, opts, "option '%s' is not positive definite", key);
    break;
  }
  *whiten = has_cov ? 1 : 2;
  luma_Mat *z = luma_matrix_new(L, x->rows, d);
  luma_pairwise_whiten(*factor, has_vi, x, z);
  return z;
}

/* Allocates the index userdata for the shape (with one user value for
 * the metric function) and attaches its arrays. */
static luma_NnIndex *new_index(lua_State *L, const luma_NnIndex *shape) {
  size_t bytes = luma_nn_index_bytes(shape);
  if (bytes == 0) luaL_error(L, "luma.neighbors: the index is too large");
  luma_NnIndex *ix = lua_newuserdatauv(L, bytes, 1);
  *ix = *shape;
  luma_nn_index_attach(ix);
  return ix;
}

static lua_Integer opt_count(lua_State *L, int opts, const char *key, lua_Integer dflt,
                             lua_Integer hi) {
  lua_Integer v = luma_opt_integer(L, opts, key, dflt);
  if (v < 1) luma_arg_error(L, opts, "option '%s' = %I must be >= 1", key, v);
  if (v > hi) luma_arg_error(L, opts, "option '%s' = %I must be <= %I", key, v, hi);
  return v;
}

/* build(X [, opts]) */
static int nn_build(lua_State *L) {
  luma_Mat *x = luma_matrix_check(L, 1);
  lua_settop(L, 2);
  luaL_checkstack(L, 32, "build");
  luma_check_options(L, 2, "algorithm|metric|p|cov|VI|leaf_size|split|buoys");
  if (x->rows < 1 || x->cols < 1)
    luma_arg_error(L, 1, "X is %I x %I (an index needs at least one row and one column)",
                   (lua_Integer)x->rows, (lua_Integer)x->cols);
  if (x->cols > INT_MAX || x->rows > INT_MAX)
    luma_arg_error(L, 1, "X is %I x %I, too large (dimensions up to %d)", (lua_Integer)x->rows,
                   (lua_Integer)x->cols, INT_MAX);
  luma_matrix_check_finite(L, 1, x, "X", 1);
  luma_NnAlgorithm alg = (luma_NnAlgorithm)luma_opt_choice(L, 2, "algorithm", ALGORITHMS, 0);
  MetricChoice mc = parse_metric(L, 2);
  if (!supports(alg, mc.kind))
    luma_arg_error(L, 2, "metric '%s' is not supported by algorithm '%s'%s", mc.name,
                   ALGORITHM_NAMES[alg],
                   mc.kind == LUMA_NN_COSINE ? " (cosine distance is not a metric: use 'brute')"
                                             : " (use 'ball_tree', 'laesa' or 'brute')");
  int64_t n = x->rows, d = x->cols;
  luma_NnIndex shape;
  memset(&shape, 0, sizeof shape);
  shape.algorithm = alg;
  shape.metric = mc.kind;
  shape.p = mc.p;
  shape.n = n;
  shape.d = d;
  shape.leaf_size = opt_count(L, 2, "leaf_size", DEFAULT_LEAF_SIZE, INT_MAX);
  shape.split = (luma_NnSplit)luma_opt_choice(L, 2, "split", SPLITS, 0);
  lua_Integer buoys = opt_count(L, 2, "buoys", n < DEFAULT_BUOYS ? n : DEFAULT_BUOYS, n);
  shape.n_buoys = alg == LUMA_NN_LAESA ? buoys : 0;
  if (alg == LUMA_NN_ORCHARD && n > INT32_MAX)
    luma_arg_error(L, 1, "X has %I rows, too many for 'orchard'", (lua_Integer)n);
  double *factor = NULL;
  if (mc.mahalanobis) x = mahalanobis(L, 2, x, &shape.whiten, &factor);

  /* Trees: the node ranges in scratch, then the index with their count. */
  int64_t *perm = NULL;
  void *nodes = NULL;
  if (alg == LUMA_NN_KD_TREE || alg == LUMA_NN_BALL_TREE) {
    perm = scratch(L, (size_t)n * sizeof(int64_t));
    void *keys = scratch(L, luma_nn_tree_keys_bytes(n));
    if (alg == LUMA_NN_KD_TREE) {
      int64_t cap = luma_nn_kd_capacity(n, shape.leaf_size, shape.split);
      nodes = scratch(L, (size_t)cap * sizeof(luma_NnKdNode));
      shape.n_nodes = luma_nn_kd_build(x, shape.leaf_size, shape.split, perm, nodes, keys,
                                       &shape.depth);
    } else {
      int64_t cap = luma_nn_ball_capacity(n, shape.leaf_size);
      nodes = scratch(L, (size_t)cap * sizeof(luma_NnBallNode));
      shape.n_nodes = luma_nn_ball_build(x, shape.leaf_size, perm, nodes, keys, &shape.depth);
    }
  }
  luma_NnIndex *ix = new_index(L, &shape);
  int ix_idx = lua_gettop(L);
  if (factor) memcpy(ix->factor, factor, (size_t)(d * d) * sizeof(double));
  if (alg == LUMA_NN_KD_TREE) {
    memcpy(ix->perm, perm, (size_t)n * sizeof(int64_t));
    memcpy(ix->kd, nodes, (size_t)shape.n_nodes * sizeof(luma_NnKdNode));
  } else if (alg == LUMA_NN_BALL_TREE) {
    memcpy(ix->perm, perm, (size_t)n * sizeof(int64_t));
    memcpy(ix->ball, nodes, (size_t)shape.n_nodes * sizeof(luma_NnBallNode));
  }
  luma_nn_index_fill(ix, x);
  if (mc.kind == LUMA_NN_CALLBACK) {
    lua_getfield(L, 2, "metric");
    lua_setiuservalue(L, ix_idx, 1);
  }

  Callback cb;
  luma_Threads *t = NULL;
  int slots = 1;
  luma_NnMetric m = metric_of(L, ix, ix_idx, &cb, &t, &slots);
  switch (alg) {
  case LUMA_NN_KD_TREE: luma_nn_kd_boxes(ix); break;
  case LUMA_NN_BALL_TREE: finish_status(L, NULL, &cb, luma_nn_ball_bounds(ix, &m)); break;
  case LUMA_NN_AESA: finish_status(L, t, &cb, luma_nn_pair_build(t, ix, &m)); break;
  case LUMA_NN_ORCHARD: {
    finish_status(L, t, &cb, luma_nn_pair_build(t, ix, &m));
    /* sorting the lists calls no metric: threads even for a callback */
    luma_Threads *tl = luma_threads_of(L);
    void *work = scratch(L, luma_nn_orchard_work(n, tl->count));
    finish_status(L, tl, &cb, luma_nn_orchard_build(tl, ix, work, tl->count));
    break;
  }
  case LUMA_NN_LAESA: finish_status(L, t, &cb, luma_nn_laesa_build(t, ix, &m)); break;
  case LUMA_NN_BRUTE: break;
  }
  lua_pushvalue(L, ix_idx);
  luma_type_setmetatable(L, &index_type);
  return 1;
}

/* -------------------------------------------------------------- queries */

/* The queries at arg: nil (the index's own rows) or a matrix with the
 * index's columns, whitened like the index; pushes what it makes. */
static const luma_Mat *check_queries(lua_State *L, int arg, const luma_NnIndex *ix) {
  if (lua_isnoneornil(L, arg)) return NULL;
  luma_Mat *q = luma_matrix_test(L, arg);
  if (!q) luma_arg_error(L, arg, "queries must be a luma.Matrix or nil, got %s", luaL_typename(L, arg));
  if (q->cols != ix->d)
    luma_arg_error(L, arg, "the queries have %I columns but the index has %I",
                   (lua_Integer)q->cols, (lua_Integer)ix->d);
  luma_matrix_check_finite(L, arg, q, "the query matrix", 1);
  if (!ix->whiten) return q;
  luma_Mat *z = luma_matrix_new(L, q->rows, q->cols);
  luma_pairwise_whiten(ix->factor, ix->whiten == 2, q, z);
  return z;
}

/* index:query(Q, k) -> dist, ind, evals */
static int ix_query(lua_State *L) {
  luma_NnIndex *ix = check_index(L, 1);
  lua_settop(L, 3);
  lua_Integer k = luaL_checkinteger(L, 3);
  int self = lua_isnil(L, 2);
  int64_t most = self ? ix->n - 1 : ix->n;
  if (k < 1) luma_arg_error(L, 3, "k = %I must be >= 1", k);
  if (k > most)
    luma_arg_error(L, 3, self ? "k = %I must be <= %I (the indexed points other than the query's own)"
                              : "k = %I must be <= %I (the number of indexed points)",
                   k, (lua_Integer)most);
  luma_NnQuery qr;
  memset(&qr, 0, sizeof qr);
  qr.ix = ix;
  qr.q = check_queries(L, 2, ix);
  qr.k = k;
  int64_t m = luma_nn_query_count(&qr);
  qr.dist = luma_matrix_new(L, m, k);
  int out = lua_gettop(L);
  qr.ind = luma_matrix_new(L, m, k);
  qr.evals = luma_matrix_new(L, m, 1);
  Callback cb;
  luma_Threads *t;
  int slots;
  qr.metric = metric_of(L, ix, 1, &cb, &t, &slots);
  void *work = scratch(L, luma_nn_query_work(&qr, slots));
  finish_status(L, t, &cb, luma_nn_kneighbors(t, &qr, work, slots));
  lua_pushvalue(L, out);
  lua_pushvalue(L, out + 1);
  lua_pushvalue(L, out + 2);
  return 3;
}

/* index:query_radius(Q, r) -> dist, ind, counts, evals */
static int ix_query_radius(lua_State *L) {
  luma_NnIndex *ix = check_index(L, 1);
  lua_settop(L, 3);
  lua_Number r = luaL_checknumber(L, 3);
  if (!(r > 0)) {
    push_number_text(L, r);
    luma_arg_error(L, 3, "radius = %s must be > 0", lua_tostring(L, -1));
  }
  luma_NnQuery qr;
  memset(&qr, 0, sizeof qr);
  qr.ix = ix;
  qr.q = check_queries(L, 2, ix);
  qr.radius = r;
  int64_t m = luma_nn_query_count(&qr);
  luma_Mat *counts_out = luma_matrix_new(L, m, 1);
  int counts_idx = lua_gettop(L);
  qr.evals = luma_matrix_new(L, m, 1);
  Callback cb;
  luma_Threads *t;
  int slots;
  qr.metric = metric_of(L, ix, 1, &cb, &t, &slots);
  void *work = scratch(L, luma_nn_query_work(&qr, slots));
  int64_t *offsets = scratch(L, (size_t)(m + 1) * sizeof(int64_t));
  finish_status(L, t, &cb, luma_nn_radius_count(t, &qr, offsets + 1, work, slots));
  offsets[0] = 0;
  for (int64_t i = 0; i < m; i++) {
    LUMA_AT(counts_out, i, 0) = (double)offsets[i + 1];
    offsets[i + 1] += offsets[i];
  }
  qr.dist = luma_matrix_new(L, offsets[m], 1);
  int dist_idx = lua_gettop(L);
  qr.ind = luma_matrix_new(L, offsets[m], 1);
  if (t) t = luma_threads_of(L); /* a fresh budget reading for the second pass */
  finish_status(L, t, &cb, luma_nn_radius_fill(t, &qr, offsets, work, slots));
  lua_pushvalue(L, dist_idx);
  lua_pushvalue(L, dist_idx + 1);
  lua_pushvalue(L, counts_idx);
  lua_pushvalue(L, counts_idx + 1);
  return 4;
}

/* ------------------------------------------------------- info and state */

static int ix_info(lua_State *L) {
  luma_NnIndex *ix = check_index(L, 1);
  lua_createtable(L, 0, 10);
  lua_pushstring(L, ALGORITHM_NAMES[ix->algorithm]);
  lua_setfield(L, -2, "algorithm");
  lua_pushstring(L, ix->whiten ? "mahalanobis" : METRIC_NAMES[ix->metric]);
  lua_setfield(L, -2, "metric");
  if (ix->metric == LUMA_NN_MINKOWSKI) {
    lua_pushnumber(L, ix->p);
    lua_setfield(L, -2, "p");
  }
  lua_pushinteger(L, (lua_Integer)ix->n);
  lua_setfield(L, -2, "n");
  lua_pushinteger(L, (lua_Integer)ix->d);
  lua_setfield(L, -2, "d");
  if (ix->algorithm == LUMA_NN_KD_TREE || ix->algorithm == LUMA_NN_BALL_TREE) {
    lua_pushinteger(L, (lua_Integer)ix->leaf_size);
    lua_setfield(L, -2, "leaf_size");
    lua_pushinteger(L, (lua_Integer)ix->n_nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushinteger(L, (lua_Integer)ix->depth);
    lua_setfield(L, -2, "depth");
  }
  if (ix->algorithm == LUMA_NN_KD_TREE) {
    lua_pushstring(L, SPLIT_NAMES[ix->split]);
    lua_setfield(L, -2, "split");
  }
  if (ix->algorithm == LUMA_NN_LAESA) {
    lua_pushinteger(L, (lua_Integer)ix->n_buoys);
    lua_setfield(L, -2, "buoys");
  }
  lua_pushinteger(L, (lua_Integer)luma_nn_index_bytes(ix));
  lua_setfield(L, -2, "bytes");
  return 1;
}

static void set_matrix(lua_State *L, const char *key, const double *src, int64_t rows,
                       int64_t cols) {
  luma_Mat *m = luma_matrix_new(L, rows, cols);
  if (rows * cols > 0) memcpy(m->data, src, (size_t)(rows * cols) * sizeof(double));
  lua_setfield(L, -2, key);
}

static void set_ints(lua_State *L, const char *key, const int64_t *src, int64_t rows,
                     int64_t cols) {
  luma_Mat *m = luma_matrix_new(L, rows, cols);
  for (int64_t i = 0; i < rows * cols; i++) m->data[i] = (double)src[i];
  lua_setfield(L, -2, key);
}

/* index:state() -> a table of plain values (the persistence format) */
static int ix_state(lua_State *L) {
  luma_NnIndex *ix = check_index(L, 1);
  if (ix->metric == LUMA_NN_CALLBACK)
    luma_arg_error(L, 1, "an index with a metric function cannot be saved (functions are "
                   "never saved)");
  int64_t n = ix->n, d = ix->d, nn = ix->n_nodes;
  lua_createtable(L, 0, 16);
  lua_pushstring(L, ALGORITHM_NAMES[ix->algorithm]);
  lua_setfield(L, -2, "algorithm");
  lua_pushstring(L, METRIC_NAMES[ix->metric]);
  lua_setfield(L, -2, "metric");
  lua_pushnumber(L, ix->p);
  lua_setfield(L, -2, "p");
  lua_pushinteger(L, ix->whiten);
  lua_setfield(L, -2, "whiten");
  lua_pushinteger(L, (lua_Integer)ix->leaf_size);
  lua_setfield(L, -2, "leaf_size");
  lua_pushstring(L, SPLIT_NAMES[ix->split]);
  lua_setfield(L, -2, "split");
  set_matrix(L, "data", ix->data, n, d);
  if (ix->whiten) set_matrix(L, "factor", ix->factor, d, d);
  if (ix->perm) set_ints(L, "perm", ix->perm, n, 1);
  if (ix->kd) {
    luma_Mat *m = luma_matrix_new(L, nn, 8);
    for (int64_t i = 0; i < nn; i++) {
      const luma_NnKdNode *a = &ix->kd[i];
      double row[8] = {(double)a->start, (double)a->end, (double)a->cut,  (double)a->left,
                       (double)a->right, (double)a->axis, (double)a->own, a->value};
      memcpy(m->data + i * 8, row, sizeof row);
    }
    lua_setfield(L, -2, "nodes");
    set_matrix(L, "lo", ix->lo, nn, d);
    set_matrix(L, "hi", ix->hi, nn, d);
  }
  if (ix->ball) {
    set_ints(L, "nodes", (const int64_t *)ix->ball, nn, 4);
    set_matrix(L, "centroid", ix->centroid, nn, d);
    set_matrix(L, "radius", ix->radius, nn, 1);
  }
  if (ix->pair) set_matrix(L, "pair", ix->pair, n * (n - 1) / 2, 1);
  if (ix->lists) {
    luma_Mat *m = luma_matrix_new(L, n, n - 1);
    for (int64_t i = 0; i < n * (n - 1); i++) m->data[i] = ix->lists[i];
    lua_setfield(L, -2, "lists");
  }
  if (ix->buoys) {
    set_ints(L, "buoys", ix->buoys, ix->n_buoys, 1);
    set_matrix(L, "buoy_dist", ix->buoy_dist, ix->n_buoys, n);
  }
  return 1;
}

/* t[key] as a matrix of the given shape (rows < 0: any), or an error. */
static luma_Mat *field_matrix(lua_State *L, int t, const char *key, int64_t rows, int64_t cols) {
  lua_getfield(L, t, key);
  luma_Mat *m = luma_matrix_test(L, -1);
  if (!m) luma_arg_error(L, 1, "field '%s' must be a luma.Matrix, got %s", key, luaL_typename(L, -1));
  if ((rows >= 0 && m->rows != rows) || (cols >= 0 && m->cols != cols))
    luma_arg_error(L, 1, "field '%s' is %I x %I, expected %I x %I", key, (lua_Integer)m->rows,
                   (lua_Integer)m->cols, (lua_Integer)(rows >= 0 ? rows : m->rows),
                   (lua_Integer)(cols >= 0 ? cols : m->cols));
  return m;
}

static lua_Integer field_integer(lua_State *L, int t, const char *key, lua_Integer lo,
                                 lua_Integer hi) {
  lua_getfield(L, t, key);
  int isint = 0;
  lua_Integer v = lua_tointegerx(L, -1, &isint);
  if (!isint || lua_type(L, -1) != LUA_TNUMBER || v < lo || v > hi)
    luma_arg_error(L, 1, "field '%s' must be an integer in [%I, %I]", key, lo, hi);
  lua_pop(L, 1);
  return v;
}

static int field_choice(lua_State *L, int t, const char *key, const char *const *names, int count) {
  lua_getfield(L, t, key);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  for (int i = 0; i < count; i++)
    if (strcmp(s, names[i]) == 0) {
      lua_pop(L, 1);
      return i;
    }
  return luma_arg_error(L, 1, "field '%s' is not a known name", key);
}

/* Element i of m (row-major order) as an integer in [lo, hi]. */
static int64_t int_at(lua_State *L, const luma_Mat *m, int64_t i, int64_t lo, int64_t hi,
                      const char *key) {
  double v = LUMA_AT(m, i / m->cols, i % m->cols);
  if (!(v >= (double)lo && v <= (double)hi) || v != floor(v))
    luma_arg_error(L, 1, "field '%s' has an element that is not an integer in [%I, %I]", key,
                   (lua_Integer)lo, (lua_Integer)hi);
  return (int64_t)v;
}

static void copy_doubles(double *dst, const luma_Mat *m) {
  for (int64_t i = 0; m->cols > 0 && i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) *dst++ = LUMA_AT(m, i, j);
}

/* restore(state) -> index (checked; nothing is rebuilt) */
static int nn_restore(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  luaL_checkstack(L, 40, "restore");
  luma_NnIndex shape;
  memset(&shape, 0, sizeof shape);
  shape.algorithm = (luma_NnAlgorithm)field_choice(L, 1, "algorithm", ALGORITHM_NAMES, 6);
  shape.metric = (luma_NnMetricKind)field_choice(L, 1, "metric", METRIC_NAMES, 5);
  lua_getfield(L, 1, "p");
  shape.p = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN;
  if (shape.metric == LUMA_NN_MINKOWSKI && !(shape.p > 1 && !isinf(shape.p)))
    luma_arg_error(L, 1, "field 'p' must be a finite number > 1 for minkowski");
  if (!supports(shape.algorithm, shape.metric))
    luma_arg_error(L, 1, "the metric is not supported by the algorithm");
  shape.whiten = (int)field_integer(L, 1, "whiten", 0, 2);
  shape.leaf_size = field_integer(L, 1, "leaf_size", 1, INT_MAX);
  shape.split = (luma_NnSplit)field_choice(L, 1, "split", SPLIT_NAMES, 2);
  luma_Mat *data = field_matrix(L, 1, "data", -1, -1);
  int64_t n = data->rows, d = data->cols;
  if (n < 1 || d < 1 || n > INT_MAX || d > INT_MAX)
    luma_arg_error(L, 1, "field 'data' is %I x %I", (lua_Integer)n, (lua_Integer)d);
  shape.n = n;
  shape.d = d;
  luma_Mat *factor = shape.whiten ? field_matrix(L, 1, "factor", d, d) : NULL;
  luma_Mat *perm = NULL, *nodes = NULL, *lo = NULL, *hi = NULL, *centroid = NULL, *radius = NULL,
           *pair = NULL, *lists = NULL, *buoys = NULL, *buoy_dist = NULL;
  switch (shape.algorithm) {
  case LUMA_NN_KD_TREE:
  case LUMA_NN_BALL_TREE: {
    int kd = shape.algorithm == LUMA_NN_KD_TREE;
    perm = field_matrix(L, 1, "perm", n, 1);
    nodes = field_matrix(L, 1, "nodes", -1, kd ? 8 : 4);
    shape.n_nodes = nodes->rows;
    if (shape.n_nodes < 1 || shape.n_nodes > 2 * n)
      luma_arg_error(L, 1, "field 'nodes' has %I rows", (lua_Integer)shape.n_nodes);
    if (kd) {
      lo = field_matrix(L, 1, "lo", shape.n_nodes, d);
      hi = field_matrix(L, 1, "hi", shape.n_nodes, d);
    } else {
      centroid = field_matrix(L, 1, "centroid", shape.n_nodes, d);
      radius = field_matrix(L, 1, "radius", shape.n_nodes, 1);
    }
    break;
  }
  case LUMA_NN_ORCHARD:
  case LUMA_NN_AESA:
    if (n > INT32_MAX) luma_arg_error(L, 1, "field 'data' has too many rows");
    pair = field_matrix(L, 1, "pair", n * (n - 1) / 2, 1);
    if (shape.algorithm == LUMA_NN_ORCHARD) lists = field_matrix(L, 1, "lists", n, n - 1);
    break;
  case LUMA_NN_LAESA:
    buoys = field_matrix(L, 1, "buoys", -1, 1);
    shape.n_buoys = buoys->rows;
    if (shape.n_buoys < 1 || shape.n_buoys > n)
      luma_arg_error(L, 1, "field 'buoys' has %I rows", (lua_Integer)shape.n_buoys);
    buoy_dist = field_matrix(L, 1, "buoy_dist", shape.n_buoys, n);
    break;
  case LUMA_NN_BRUTE: break;
  }
  luma_NnIndex *ix = new_index(L, &shape);
  int ix_idx = lua_gettop(L);
  copy_doubles(ix->data, data);
  if (factor) copy_doubles(ix->factor, factor);
  if (perm)
    for (int64_t i = 0; i < n; i++) ix->perm[i] = int_at(L, perm, i, 0, n - 1, "perm");
  if (lo) {
    for (int64_t i = 0; i < shape.n_nodes; i++) {
      luma_NnKdNode *a = &ix->kd[i];
      a->start = int_at(L, nodes, i * 8, 0, n, "nodes");
      a->end = int_at(L, nodes, i * 8 + 1, 0, n, "nodes");
      a->cut = int_at(L, nodes, i * 8 + 2, 0, n, "nodes");
      a->left = int_at(L, nodes, i * 8 + 3, -1, shape.n_nodes - 1, "nodes");
      a->right = int_at(L, nodes, i * 8 + 4, -1, shape.n_nodes - 1, "nodes");
      a->axis = (int32_t)int_at(L, nodes, i * 8 + 5, 0, d - 1, "nodes");
      a->own = (int32_t)int_at(L, nodes, i * 8 + 6, 0, 1, "nodes");
      a->value = LUMA_AT(nodes, i, 7);
    }
    copy_doubles(ix->lo, lo);
    copy_doubles(ix->hi, hi);
  }
  if (centroid) {
    for (int64_t i = 0; i < shape.n_nodes; i++) {
      luma_NnBallNode *a = &ix->ball[i];
      a->start = int_at(L, nodes, i * 4, 0, n, "nodes");
      a->end = int_at(L, nodes, i * 4 + 1, 0, n, "nodes");
      a->left = int_at(L, nodes, i * 4 + 2, -1, shape.n_nodes - 1, "nodes");
      a->right = int_at(L, nodes, i * 4 + 3, -1, shape.n_nodes - 1, "nodes");
    }
    copy_doubles(ix->centroid, centroid);
    copy_doubles(ix->radius, radius);
  }
  if (pair) copy_doubles(ix->pair, pair);
  if (lists)
    for (int64_t i = 0; i < n * (n - 1); i++) ix->lists[i] = (int32_t)int_at(L, lists, i, 0, n - 1, "lists");
  if (buoys) {
    for (int64_t b = 0; b < shape.n_buoys; b++) ix->buoys[b] = int_at(L, buoys, b, 0, n - 1, "buoys");
    copy_doubles(ix->buoy_dist, buoy_dist);
  }
  const char *why = luma_nn_index_check(ix, scratch(L, luma_nn_index_check_work(ix)));
  if (why) luma_arg_error(L, 1, "not a sound neighbors index: %s", why);
  luma_nn_index_refresh(ix);
  lua_pushvalue(L, ix_idx);
  luma_type_setmetatable(L, &index_type);
  return 1;
}

static int ix_tostring(lua_State *L) {
  luma_NnIndex *ix = check_index(L, 1);
  lua_pushfstring(L, "luma.neighbors.Index(%s, %s, %I x %I)", ALGORITHM_NAMES[ix->algorithm],
                  ix->whiten ? "mahalanobis" : METRIC_NAMES[ix->metric], (lua_Integer)ix->n,
                  (lua_Integer)ix->d);
  return 1;
}

/* ---------------------------------------------------------- model helpers */

/* CSR offsets of neighbour lists laid out like the matrix at arg (m x k,
 * or one column with the counts per query at counts_arg), as scratch. */
static const int64_t *check_offsets(lua_State *L, int arg, int counts_arg, int64_t *m) {
  luma_Mat *ind = luma_matrix_check(L, arg);
  int64_t total = ind->rows * ind->cols;
  int64_t *off;
  if (lua_isnoneornil(L, counts_arg)) {
    *m = ind->rows;
    off = scratch(L, (size_t)(*m + 1) * sizeof(int64_t));
    for (int64_t i = 0; i <= *m; i++) off[i] = i * ind->cols;
    return off;
  }
  luma_Mat *c = luma_matrix_check(L, counts_arg);
  if (c->cols != 1 || ind->cols != 1)
    luma_arg_error(L, counts_arg, "with counts, the lists and the counts must be columns");
  *m = c->rows;
  off = scratch(L, (size_t)(*m + 1) * sizeof(int64_t));
  off[0] = 0;
  for (int64_t i = 0; i < *m; i++) {
    double v = LUMA_AT(c, i, 0);
    if (!(v >= 0 && v <= (double)(total - off[i])) || v != floor(v))
      luma_arg_error(L, counts_arg, "counts[%I] is not a count of the remaining entries",
                     (lua_Integer)(i + 1));
    off[i + 1] = off[i] + (int64_t)v;
  }
  if (off[*m] != total)
    luma_arg_error(L, counts_arg, "counts sum to %I but there are %I entries",
                   (lua_Integer)off[*m], (lua_Integer)total);
  return off;
}

/* Neighbour lists from ind (m x k, or a column with counts): 1-based rows
 * of a training set of n rows, as CSR scratch. */
static luma_NnLists check_lists(lua_State *L, int ind_arg, int counts_arg, int64_t n) {
  luma_NnLists l;
  l.off = check_offsets(L, ind_arg, counts_arg, &l.m);
  luma_Mat *ind = luma_matrix_check(L, ind_arg);
  int64_t total = ind->rows * ind->cols;
  int64_t *ids = scratch(L, (size_t)total * sizeof(int64_t));
  for (int64_t p = 0; p < total; p++) {
    double v = LUMA_AT(ind, p / ind->cols, p % ind->cols);
    if (!(v >= 1 && v <= (double)n) || v != floor(v))
      luma_arg_error(L, ind_arg, "ind has an entry that is not a row in 1..%I", (lua_Integer)n);
    ids[p] = (int64_t)v - 1;
  }
  l.ind = ids;
  l.w = NULL;
  return l;
}

/* The weights at arg (nil, or a matrix shaped like ind) as scratch. */
static const double *check_weights(lua_State *L, int arg, int ind_arg) {
  if (lua_isnoneornil(L, arg)) return NULL;
  luma_Mat *w = luma_matrix_check(L, arg);
  luma_Mat *ind = luma_matrix_check(L, ind_arg);
  if (w->rows != ind->rows || w->cols != ind->cols)
    luma_arg_error(L, arg, "weights are %I x %I but ind is %I x %I", (lua_Integer)w->rows,
                   (lua_Integer)w->cols, (lua_Integer)ind->rows, (lua_Integer)ind->cols);
  double *copy = scratch(L, (size_t)(w->rows * w->cols) * sizeof(double));
  copy_doubles(copy, w);
  for (int64_t i = 0; i < w->rows * w->cols; i++)
    if (!(copy[i] >= 0) || isinf(copy[i]))
      luma_arg_error(L, arg, "weights must be finite and >= 0");
  return copy;
}

/* vote(ind, codes, classes [, weights [, counts]]) -> votes */
static int nn_vote(lua_State *L) {
  lua_settop(L, 5);
  luma_Mat *codes = luma_matrix_check(L, 2);
  lua_Integer c = luma_check_int_range(L, 3, "classes", 1, 1 << 24);
  if (codes->cols != 1) luma_arg_error(L, 2, "codes must be a column");
  int64_t *cs = scratch(L, (size_t)codes->rows * sizeof(int64_t));
  for (int64_t i = 0; i < codes->rows; i++) {
    double v = LUMA_AT(codes, i, 0);
    if (!(v >= 1 && v <= (double)c) || v != floor(v))
      luma_arg_error(L, 2, "codes[%I] is not a class in 1..%I", (lua_Integer)(i + 1), c);
    cs[i] = (int64_t)v - 1;
  }
  luma_NnLists l = check_lists(L, 1, 5, codes->rows);
  l.w = check_weights(L, 4, 1);
  luma_Mat *votes = luma_matrix_new(L, l.m, c);
  luma_nn_vote(&l, cs, votes);
  return 1;
}

/* average(ind, y [, weights [, counts]]) -> means */
static int nn_average(lua_State *L) {
  lua_settop(L, 4);
  luma_Mat *y = luma_matrix_check(L, 2);
  luma_NnLists l = check_lists(L, 1, 4, y->rows);
  l.w = check_weights(L, 3, 1);
  luma_Mat *out = luma_matrix_new(L, l.m, y->cols);
  luma_nn_average(&l, y, out);
  return 1;
}

/* inverse_distance(dist [, counts]) -> weights */
static int nn_inverse_distance(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *dist = luma_matrix_check(L, 1);
  luma_matrix_check_finite(L, 1, dist, "dist", 0);
  for (int64_t i = 0; dist->cols > 0 && i < dist->rows; i++)
    for (int64_t j = 0; j < dist->cols; j++)
      if (LUMA_AT(dist, i, j) < 0) luma_arg_error(L, 1, "dist has a negative element");
  int64_t m;
  const int64_t *off = check_offsets(L, 1, 2, &m);
  double *d = scratch(L, (size_t)(dist->rows * dist->cols) * sizeof(double));
  copy_doubles(d, dist);
  luma_Mat *w = luma_matrix_new(L, dist->rows, dist->cols);
  luma_nn_inverse_distance(m, off, d, w->data);
  return 1;
}

/* select_rows(S, k) -> values, columns */
static int nn_select_rows(lua_State *L) {
  luma_Mat *s = luma_matrix_check(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  if (k < 1) luma_arg_error(L, 2, "k = %I must be >= 1", k);
  if (k > s->cols)
    luma_arg_error(L, 2, "k = %I must be <= %I (the columns of S)", k, (lua_Integer)s->cols);
  lua_settop(L, 2);
  void *work = scratch(L, (size_t)k * 16);
  luma_Mat *vals = luma_matrix_new(L, s->rows, k);
  luma_Mat *cols = luma_matrix_new(L, s->rows, k);
  luma_nn_select_rows(s, k, vals, cols, work);
  return 2;
}

/* ------------------------------------------------------------- register */

static const luma_Func index_methods[] = {
    {"query", ix_query, "index:query(Q, k) -> dist, ind, evals",
     "The k nearest indexed points of each row of Q: distances and 1-based indices (m x k "
     "each, sorted by distance, the smaller index first on ties) and the number of distance "
     "evaluations per query (m x 1). Q = nil queries the indexed points themselves, each "
     "without itself."},
    {"query_radius", ix_query_radius, "index:query_radius(Q, r) -> dist, ind, counts, evals",
     "Every indexed point within distance r (> 0, inclusive) of each row of Q: distances and "
     "1-based indices as columns holding the queries' neighbours one query after another "
     "(each sorted), the count per query (m x 1) and the distance evaluations per query. "
     "Q = nil queries the indexed points themselves, each without itself."},
    {"info", ix_info, "index:info() -> table",
     "A table describing the index: algorithm, metric, n, d, and nodes, depth, leaf_size, "
     "split, buoys where they apply, and its size in bytes."},
    {"state", ix_state, "index:state() -> table",
     "The index as a table of plain values and matrices (what luma.save writes); "
     "luma.neighbors.native.restore turns it back into an index without rebuilding."},
    {NULL, NULL, NULL, NULL}};

static const luaL_Reg index_metamethods[] = {{"__tostring", ix_tostring}, {NULL, NULL}};

static const luma_Type index_type = {
    "luma.neighbors.Index", index_methods, index_metamethods,
    "A nearest-neighbour index over the rows of a matrix (brute force, KD-tree, ball tree, "
    "Orchard, AESA or linear AESA), made by luma.neighbors.index.",
    NULL};

int luma_open_neighbors_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"build", nn_build, "build(X [, opts])",
       "An index over the rows of X (finite, at least 1 x 1). opts: algorithm (\"brute\" "
       "default, \"kd_tree\", \"ball_tree\", \"orchard\", \"aesa\", \"laesa\"), metric "
       "(\"euclidean\" default, \"manhattan\", \"chebyshev\", \"minkowski\" with p >= 1, "
       "\"cosine\" (brute only), \"mahalanobis\" with cov or VI, or a function of two row "
       "matrices), leaf_size (trees, default 30), split (KD-tree: \"median\" or "
       "\"sliding_midpoint\"), buoys (laesa, default min(16, n))."},
      {"restore", nn_restore, "restore(state)",
       "The index saved by index:state(), after checking every stored range."},
      {"vote", nn_vote, "vote(ind, codes, classes [, weights [, counts]])",
       "Class votes (m x classes) of neighbour lists: ind holds 1-based training rows (m x k, "
       "or a column with counts per query), codes the class 1..classes of each training row."},
      {"average", nn_average, "average(ind, y [, weights [, counts]])",
       "The weighted mean of the neighbours' rows of y for each query; NaN without neighbours."},
      {"inverse_distance", nn_inverse_distance, "inverse_distance(dist [, counts])",
       "Weights 1/d; a query with neighbours at distance 0 gives those weight 1 and the rest 0."},
      {"select_rows", nn_select_rows, "select_rows(S, k)",
       "The k smallest entries of each row of S and their 1-based columns (the smaller column "
       "first on ties, NaN last)."},
      {NULL, NULL, NULL, NULL}};
  luma_type_register(L, &index_type);
  lua_pop(L, 1);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.neighbors.native", funcs);
  luma_doc_set(L, -1, "luma.neighbors.native", NULL,
               "Native half of luma.neighbors: the index structures (build, restore, "
               "luma.neighbors.Index methods) and the neighbour models' vote and average.");
  return 1;
}
