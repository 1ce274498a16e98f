/*
 * optim_lua.c - the native half of luma.optim (luma.optim.native): the
 * L-BFGS(-B) engine over a Lua function or a native objective, and the
 * native objectives (luma.Objective userdata: logistic and softmax
 * losses).  luma.optim.minimize (lua/luma/optim/minimize.lua) validates
 * options and builds the result table; this file only checks what it reads.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "core/parallel.h"
#include "optim/optim.h"
#include "optim/simplex.h"

/* ------------------------------------------------------ objective type */

enum { KIND_LOGISTIC = 1, KIND_SOFTMAX = 2 };

typedef struct ObjectiveUD {
  luma_Objective obj;
  int kind;
  union {
    luma_LogisticLoss logistic;
    luma_SoftmaxLoss softmax;
  } u;
} ObjectiveUD;

static const luma_Type objective_type;

static ObjectiveUD *test_objective(lua_State *L, int idx) {
  return luma_type_test(L, idx, &objective_type);
}

static double *new_buffer(lua_State *L, int64_t count) {
  if (count < 1) count = 1;
  return lua_newuserdatauv(L, (size_t)count * sizeof(double), 0);
}

/* Reads X (argument 1) into (data, lda, col_major), copying it when no
 * dimension has unit stride; the matrix used is stored as user value 1 of
 * the objective at ud_idx.  Checks that every element is finite. */
static void take_X(lua_State *L, int ud_idx, const double **data, int64_t *lda, int *col_major) {
  luma_Mat *X = luma_matrix_check(L, 1);
  if (X->rows < 1 || X->cols < 1) luma_arg_error(L, 1, "X is empty");
  if (X->rows > 2147483647 || X->cols > 2147483647)
    luma_arg_error(L, 1, "X is too large for BLAS");
  luma_matrix_check_finite(L, 1, X, "X", 1);
  if (X->cs == 1 && (X->rs >= X->cols || X->rows == 1)) {
    *data = X->data, *lda = X->rows == 1 ? X->cols : X->rs, *col_major = 0;
    lua_pushvalue(L, 1);
  } else if (X->rs == 1 && (X->cs >= X->rows || X->cols == 1)) {
    *data = X->data, *lda = X->cols == 1 ? X->rows : X->cs, *col_major = 1;
    lua_pushvalue(L, 1);
  } else {
    luma_Mat *c = luma_matrix_new(L, X->rows, X->cols);
    luma_mat_copy(c, X);
    *data = c->data, *lda = X->cols, *col_major = 0;
  }
  lua_setiuservalue(L, ud_idx, 1);
}

/* A column of n labels or weights (argument arg). */
static luma_Mat *check_vector(lua_State *L, int arg, const char *what, int64_t n) {
  luma_Mat *v = luma_matrix_check(L, arg);
  if (!((v->cols == 1 && v->rows == n) || (v->rows == 1 && v->cols == n)))
    luma_arg_error(L, arg, "%s is %I x %I but X has %I rows", what, (lua_Integer)v->rows,
                   (lua_Integer)v->cols, (lua_Integer)n);
  return v;
}

static double vget(const luma_Mat *v, int64_t i) {
  return v->cols == 1 ? LUMA_AT(v, i, 0) : LUMA_AT(v, 0, i);
}

/* opts (argument 3): C, fit_intercept, sample_weight [, n_classes]. */
static const double *take_weights(lua_State *L, int ud_idx, int64_t n) {
  if (lua_isnoneornil(L, 3) || lua_getfield(L, 3, "sample_weight") == LUA_TNIL) {
    if (!lua_isnoneornil(L, 3)) lua_pop(L, 1);
    return NULL;
  }
  int idx = lua_gettop(L);
  if (!luma_matrix_test(L, idx)) luma_arg_error(L, 3, "sample_weight must be a matrix");
  luma_Mat *w = luma_matrix_test(L, idx);
  if (!((w->cols == 1 && w->rows == n) || (w->rows == 1 && w->cols == n)))
    luma_arg_error(L, 3, "sample_weight is %I x %I but X has %I rows", (lua_Integer)w->rows,
                   (lua_Integer)w->cols, (lua_Integer)n);
  double *buf = new_buffer(L, n);
  for (int64_t i = 0; i < n; i++) {
    buf[i] = vget(w, i);
    if (!isfinite(buf[i]) || buf[i] < 0)
      luma_arg_error(L, 3, "sample_weight must be finite and >= 0 (%f at row %I)", buf[i],
                     (lua_Integer)(i + 1));
  }
  lua_setiuservalue(L, ud_idx, 3);
  lua_pop(L, 1);
  return buf;
}

/* logistic_loss(X, y [, {C = 1, fit_intercept = true, sample_weight}]) */
static int o_logistic_loss(lua_State *L) {
  luma_check_options(L, 3, "C|fit_intercept|sample_weight");
  double C = luma_opt_number(L, 3, "C", 1.0);
  if (!(C > 0)) luma_arg_error(L, 3, "C must be > 0");
  int fit_intercept = luma_opt_boolean(L, 3, "fit_intercept", 1);
  ObjectiveUD *o = lua_newuserdatauv(L, sizeof *o, 4);
  memset(o, 0, sizeof *o);
  luma_type_setmetatable(L, &objective_type);
  int ud = lua_gettop(L);
  luma_LogisticLoss *p = &o->u.logistic;
  take_X(L, ud, &p->X, &p->lda, &p->col_major);
  luma_Mat *X = luma_matrix_test(L, 1);
  p->n = X->rows, p->d = X->cols;
  luma_Mat *y = check_vector(L, 2, "y", p->n);
  double *yb = new_buffer(L, p->n);
  int has_zero = 0, has_minus = 0;
  for (int64_t i = 0; i < p->n; i++) {
    double v = vget(y, i);
    if (v == 0) has_zero = 1;
    else if (v == -1) has_minus = 1;
    else if (v != 1)
      luma_arg_error(L, 2, "y must hold labels -1/+1 or 0/1 (%f at row %I)", v,
                     (lua_Integer)(i + 1));
    yb[i] = v == 1 ? 1.0 : -1.0;
  }
  if (has_zero && has_minus) luma_arg_error(L, 2, "y mixes the codings 0/1 and -1/+1");
  lua_setiuservalue(L, ud, 2);
  p->y = yb;
  p->sw = take_weights(L, ud, p->n);
  p->work = new_buffer(L, luma_logistic_work_size(p->n, p->d));
  lua_setiuservalue(L, ud, 4);
  p->C = C, p->fit_intercept = fit_intercept;
  o->kind = KIND_LOGISTIC;
  o->obj.n = p->d + (fit_intercept ? 1 : 0);
  o->obj.eval = luma_logistic_loss_eval;
  o->obj.ctx = p;
  lua_settop(L, ud);
  return 1;
}

/* softmax_loss(X, y [, {C, fit_intercept, sample_weight, n_classes}]) */
static int o_softmax_loss(lua_State *L) {
  luma_check_options(L, 3, "C|fit_intercept|sample_weight|n_classes");
  double C = luma_opt_number(L, 3, "C", 1.0);
  if (!(C > 0)) luma_arg_error(L, 3, "C must be > 0");
  int fit_intercept = luma_opt_boolean(L, 3, "fit_intercept", 1);
  lua_Integer K = luma_opt_integer(L, 3, "n_classes", 0);
  ObjectiveUD *o = lua_newuserdatauv(L, sizeof *o, 4);
  memset(o, 0, sizeof *o);
  luma_type_setmetatable(L, &objective_type);
  int ud = lua_gettop(L);
  luma_SoftmaxLoss *p = &o->u.softmax;
  take_X(L, ud, &p->X, &p->lda, &p->col_major);
  luma_Mat *X = luma_matrix_test(L, 1);
  p->n = X->rows, p->d = X->cols;
  luma_Mat *y = check_vector(L, 2, "y", p->n);
  int64_t *yb = lua_newuserdatauv(L, (size_t)p->n * sizeof *yb, 0);
  int64_t maxlab = 0;
  for (int64_t i = 0; i < p->n; i++) {
    double v = vget(y, i);
    if (!(v >= 1 && v <= 1e9 && v == floor(v)))
      luma_arg_error(L, 2, "y must hold class indices 1, 2, ..., K (%f at row %I)", v,
                     (lua_Integer)(i + 1));
    yb[i] = (int64_t)v - 1;
    if ((int64_t)v > maxlab) maxlab = (int64_t)v;
  }
  if (K == 0) K = maxlab < 2 ? 2 : maxlab;
  if (K < maxlab)
    luma_arg_error(L, 3, "n_classes is %I but y has class %I", (lua_Integer)K, (lua_Integer)maxlab);
  if ((int64_t)K * p->n > LUMA_MAX_ELEMENTS || K > 2147483647)
    luma_arg_error(L, 3, "n_classes too large");
  lua_setiuservalue(L, ud, 2);
  p->y = yb, p->K = K;
  p->sw = take_weights(L, ud, p->n);
  p->work = new_buffer(L, p->n * K + p->n);
  lua_setiuservalue(L, ud, 4);
  p->C = C, p->fit_intercept = fit_intercept;
  o->kind = KIND_SOFTMAX;
  o->obj.n = (p->d + (fit_intercept ? 1 : 0)) * K;
  o->obj.eval = luma_softmax_loss_eval;
  o->obj.ctx = p;
  /* two n x d x K products, the exponentials and sums, the penalty */
  o->obj.cost = (uint64_t)(4 * p->n * p->d * K + 16 * p->n * K + 2 * p->d * K);
  lua_settop(L, ud);
  return 1;
}

/* Copies a parameter column (n x 1, or 1 x n) into buf. */
static void read_params(lua_State *L, int arg, const char *fname, int64_t n, double *buf) {
  luma_Mat *x = luma_matrix_check(L, arg);
  if (!((x->cols == 1 && x->rows == n) || (x->rows == 1 && x->cols == n)))
    luma_arg_error(L, arg, "x is %I x %I, expected %I x 1", (lua_Integer)x->rows,
                   (lua_Integer)x->cols, (lua_Integer)n);
  (void)fname;
  for (int64_t i = 0; i < n; i++) buf[i] = vget(x, i);
}

/* A native objective's threads for one call's evaluations: the logistic
 * loss runs its rows on the state's pool, whose meter charges the work;
 * the end raises the limit, time or interrupt error if the meter stopped
 * (the evaluation then returned NaN). */
static luma_Threads *objective_threads_begin(lua_State *L, ObjectiveUD *o) {
  luma_Threads *t = luma_threads_of(L);
  if (o != NULL && o->kind == KIND_LOGISTIC) o->u.logistic.threads = t;
  return t;
}

/* Raises the meter's error if the run stopped. */
static void objective_threads_end(lua_State *L, ObjectiveUD *o, luma_Threads *t) {
  if (o != NULL && o->kind == KIND_LOGISTIC) o->u.logistic.threads = NULL;
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
}

/* obj(x [, want_grad]) -> value [, grad] */
static int obj_call(lua_State *L) {
  ObjectiveUD *o = luma_type_check(L, 1, &objective_type);
  int64_t n = o->obj.n;
  double *x = new_buffer(L, n);
  read_params(L, 2, "__call", n, x);
  int want = lua_toboolean(L, 3);
  luma_Mat *g = NULL;
  if (want) g = luma_matrix_new(L, n, 1);
  luma_Threads *t = objective_threads_begin(L, o);
  double v = luma_work_charge(t, o->obj.cost) == LUMA_LOOP_DONE
                 ? o->obj.eval(o->obj.ctx, x, g ? g->data : NULL)
                 : NAN;
  objective_threads_end(L, o, t);
  lua_pushnumber(L, v);
  if (!want) return 1;
  lua_pushvalue(L, -2);
  return 2;
}

static int obj_size(lua_State *L) {
  ObjectiveUD *o = luma_type_check(L, 1, &objective_type);
  lua_pushinteger(L, (lua_Integer)o->obj.n);
  return 1;
}

static int obj_info(lua_State *L) {
  ObjectiveUD *o = luma_type_check(L, 1, &objective_type);
  lua_createtable(L, 0, 6);
  if (o->kind == KIND_LOGISTIC) {
    luma_LogisticLoss *p = &o->u.logistic;
    lua_pushstring(L, "logistic");
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, (lua_Integer)p->n), lua_setfield(L, -2, "n_samples");
    lua_pushinteger(L, (lua_Integer)p->d), lua_setfield(L, -2, "n_features");
    lua_pushinteger(L, 1), lua_setfield(L, -2, "n_classes");
    lua_pushnumber(L, p->C), lua_setfield(L, -2, "C");
    lua_pushboolean(L, p->fit_intercept), lua_setfield(L, -2, "fit_intercept");
  } else {
    luma_SoftmaxLoss *p = &o->u.softmax;
    lua_pushstring(L, "softmax");
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, (lua_Integer)p->n), lua_setfield(L, -2, "n_samples");
    lua_pushinteger(L, (lua_Integer)p->d), lua_setfield(L, -2, "n_features");
    lua_pushinteger(L, (lua_Integer)p->K), lua_setfield(L, -2, "n_classes");
    lua_pushnumber(L, p->C), lua_setfield(L, -2, "C");
    lua_pushboolean(L, p->fit_intercept), lua_setfield(L, -2, "fit_intercept");
  }
  lua_pushinteger(L, (lua_Integer)o->obj.n), lua_setfield(L, -2, "n_params");
  return 1;
}

static int obj_tostring(lua_State *L) {
  ObjectiveUD *o = luma_type_check(L, 1, &objective_type);
  lua_pushfstring(L, "luma.Objective(%s, %I parameters)",
                  o->kind == KIND_LOGISTIC ? "logistic" : "softmax", (lua_Integer)o->obj.n);
  return 1;
}

static int o_is_objective(lua_State *L) {
  lua_pushboolean(L, test_objective(L, 1) != NULL);
  return 1;
}

/* ------------------------------------------------------- L-BFGS binding */

/* A Lua objective seen as a luma_Objective.  Stack slots: the function,
 * the x matrix handed to it, the gradient matrix it may fill. */
typedef struct LuaObjective {
  lua_State *L;
  int fidx, xidx, gidx, cbidx;
  luma_Mat *xm, *gm;
  int64_t n;
  const luma_LbfgsResult *r;
} LuaObjective;

static lua_Integer current_iteration(const luma_LbfgsResult *r) {
  return r->nfev <= 1 ? 0 : (lua_Integer)r->iterations + 1;
}

static void fill_x(LuaObjective *c, const double *x) {
  for (int64_t i = 0; i < c->n; i++) c->xm->data[i] = x[i];
}

static double lua_eval(void *ctx, const double *x, double *grad) {
  LuaObjective *c = ctx;
  lua_State *L = c->L;
  fill_x(c, x);
  lua_pushvalue(L, c->fidx);
  lua_pushvalue(L, c->xidx);
  lua_pushboolean(L, grad != NULL);
  lua_pushvalue(L, c->gidx);
  lua_call(L, 3, 2);
  if (lua_type(L, -2) != LUA_TNUMBER)
    luaL_error(L, "luma.optim.minimize: objective returned %s at iteration %I, expected a number",
               luaL_typename(L, -2), current_iteration(c->r));
  double v = lua_tonumber(L, -2);
  if (isnan(v))
    luaL_error(L, "luma.optim.minimize: objective returned NaN at iteration %I",
               current_iteration(c->r));
  if (grad) {
    luma_Mat *g = luma_matrix_test(L, -1);
    if (!g)
      luaL_error(L, "luma.optim.minimize: objective returned %s as the gradient at iteration %I, "
                    "expected a %I x 1 matrix",
                 luaL_typename(L, -1), current_iteration(c->r), (lua_Integer)c->n);
    if (g->rows != c->n || g->cols != 1)
      luaL_error(L, "luma.optim.minimize: gradient is %I x %I at iteration %I, expected %I x 1",
                 (lua_Integer)g->rows, (lua_Integer)g->cols, current_iteration(c->r),
                 (lua_Integer)c->n);
    for (int64_t i = 0; i < c->n; i++) {
      grad[i] = LUMA_AT(g, i, 0);
      if (!isfinite(grad[i]) && isfinite(v))
        luaL_error(L, "luma.optim.minimize: gradient has %f at row %I at iteration %I", grad[i],
                   (lua_Integer)(i + 1), current_iteration(c->r));
    }
  }
  lua_pop(L, 2);
  return v;
}

static int lua_callback(void *ctx, int64_t iter, const double *x, double f, double gnorm) {
  LuaObjective *c = ctx;
  lua_State *L = c->L;
  fill_x(c, x);
  lua_pushvalue(L, c->cbidx);
  lua_pushinteger(L, (lua_Integer)iter);
  lua_pushvalue(L, c->xidx);
  lua_pushnumber(L, f);
  lua_pushnumber(L, gnorm);
  lua_call(L, 4, 1);
  int stop = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return stop;
}

static const char *const status_names[] = {
    "gtol", "ftol", "xtol", "max_iter", "max_fun", "line_search", "callback", "nan_value",
    "nan_grad", "stopped"};

/* lbfgs(f, x0, opts) -> x, fun, grad_norm, iterations, nfev, ngev, status
 * opts: m, max_iter, max_fun, gtol, ftol, xtol, lower, upper (n x 1
 * matrices), callback(iter, x, f, gnorm) -> stop. */
static int o_lbfgs(lua_State *L) {
  ObjectiveUD *native = test_objective(L, 1);
  if (!native) luaL_checktype(L, 1, LUA_TFUNCTION);
  luma_Mat *x0 = luma_matrix_check(L, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  int64_t n = x0->rows;
  if (x0->cols != 1) luma_arg_error(L, 2, "x0 must be a column");
  if (native && native->obj.n != n)
    luma_arg_error(L, 2, "x0 has %I rows but the objective has %I parameters", (lua_Integer)n,
                   (lua_Integer)native->obj.n);
  luma_LbfgsOptions o;
  memset(&o, 0, sizeof o);
  lua_getfield(L, 3, "m");
  o.m = (int)luaL_optinteger(L, -1, 10);
  lua_getfield(L, 3, "max_iter");
  o.max_iter = (int64_t)luaL_optinteger(L, -1, 15000);
  lua_getfield(L, 3, "max_fun");
  o.max_fun = (int64_t)luaL_optinteger(L, -1, 15000);
  lua_getfield(L, 3, "gtol");
  o.gtol = luaL_optnumber(L, -1, 1e-5);
  lua_getfield(L, 3, "ftol");
  o.ftol = luaL_optnumber(L, -1, 2.220446049250313e-09);
  lua_getfield(L, 3, "xtol");
  o.xtol = luaL_optnumber(L, -1, 0.0);
  lua_pop(L, 6);
  if (o.m < 1 || o.m > 1000) luma_arg_error(L, 3, "m must be in [1, 1000]");
  double *lower = NULL, *upper = NULL;
  lua_getfield(L, 3, "lower");
  lua_getfield(L, 3, "upper");
  if (!lua_isnil(L, -2) || !lua_isnil(L, -1)) {
    luma_Mat *lo = luma_matrix_test(L, -2), *up = luma_matrix_test(L, -1);
    if (!lo || !up || lo->rows != n || up->rows != n || lo->cols != 1 || up->cols != 1)
      luma_arg_error(L, 3, "lower and upper must both be %I x 1 matrices", (lua_Integer)n);
    lower = new_buffer(L, 2 * n);
    upper = lower + n;
    for (int64_t i = 0; i < n; i++) lower[i] = LUMA_AT(lo, i, 0), upper[i] = LUMA_AT(up, i, 0);
    o.lower = lower, o.upper = upper;
  }
  /* the Lua function's slots */
  LuaObjective c;
  memset(&c, 0, sizeof c);
  c.L = L, c.n = n, c.fidx = 1;
  c.xm = luma_matrix_new(L, n, 1);
  c.xidx = lua_gettop(L);
  c.gm = luma_matrix_new(L, n, 1);
  c.gidx = lua_gettop(L);
  lua_getfield(L, 3, "callback");
  c.cbidx = lua_gettop(L);
  if (!lua_isnil(L, c.cbidx)) {
    luaL_checktype(L, c.cbidx, LUA_TFUNCTION);
    o.callback = lua_callback;
    o.callback_ctx = &c;
  }
  luma_Objective lobj = {n, lua_eval, &c, 0};
  const luma_Objective *obj = native ? &native->obj : &lobj;
  double *work = new_buffer(L, (int64_t)luma_lbfgs_work_size(n, o.m));
  luma_Mat *xr = luma_matrix_new(L, n, 1);
  for (int64_t i = 0; i < n; i++) xr->data[i] = LUMA_AT(x0, i, 0);
  luma_LbfgsResult r;
  c.r = &r;
  luma_Threads *t = objective_threads_begin(L, native);
  o.threads = t; /* max_iter alone bounds the iterations: each is charged */
  luma_lbfgs(obj, xr->data, &o, work, &r);
  objective_threads_end(L, native, t);
  if (r.status == LUMA_LBFGS_NAN_VALUE)
    return luaL_error(L, "luma.optim.minimize: objective returned %s at iteration %I",
                      isnan(r.f) ? "NaN" : "an infinite value", current_iteration(&r));
  if (r.status == LUMA_LBFGS_NAN_GRAD)
    return luaL_error(L, "luma.optim.minimize: gradient has a non-finite element at iteration %I",
                      current_iteration(&r));
  lua_pushnumber(L, r.f);
  lua_pushnumber(L, r.gnorm);
  lua_pushinteger(L, (lua_Integer)r.iterations);
  lua_pushinteger(L, (lua_Integer)r.nfev);
  lua_pushinteger(L, (lua_Integer)r.ngev);
  lua_pushstring(L, status_names[r.status]);
  return 7;
}

static const luma_Func objective_methods[] = {
    {"size", obj_size, "obj:size() -> integer", "The number of parameters."},
    {"info", obj_info, "obj:info() -> table",
     "A table {kind, n_samples, n_features, n_classes, n_params, C, fit_intercept}."},
    {NULL, NULL, NULL, NULL}};

static const luaL_Reg objective_metamethods[] = {
    {"__call", obj_call}, {"__tostring", obj_tostring}, {NULL, NULL}};

static const luma_Type objective_type = {
    "luma.Objective", objective_methods, objective_metamethods,
    "A native objective: obj(x [, want_grad]) -> value [, grad]; luma.optim.minimize runs "
    "L-BFGS on it without calling Lua per evaluation.",
    NULL};

/* simplex(c, A, b [, max_iter [, tol]]) -> status, x | nil, pivots:
 * min c'x s.t. A x = b, x >= 0 with b >= 0 (luma.optim.linprog's core). */
static int o_simplex(lua_State *L) {
  luma_Mat *c = luma_matrix_check(L, 1), *a = luma_matrix_check(L, 2), *b = luma_matrix_check(L, 3);
  lua_Integer max_iter = luaL_optinteger(L, 4, 10000);
  double tol = luaL_optnumber(L, 5, 1e-10);
  int64_t m = a->rows, n = a->cols;
  if (c->rows != n || c->cols != 1 || !luma_mat_is_contiguous(c))
    luma_arg_error(L, 1, "c must be a contiguous %I x 1 matrix", (lua_Integer)n);
  if (!luma_mat_is_contiguous(a)) luma_arg_error(L, 2, "A must be contiguous");
  if (b->rows != m || b->cols != 1 || !luma_mat_is_contiguous(b))
    luma_arg_error(L, 3, "b must be a contiguous %I x 1 matrix", (lua_Integer)m);
  for (int64_t i = 0; i < m; i++)
    if (!(b->data[i] >= 0)) luma_arg_error(L, 3, "b must be >= 0 (row %I)", (lua_Integer)(i + 1));
  if (max_iter < 1) luma_arg_error(L, 4, "max_iter must be >= 1");
  if (!(tol > 0)) luma_arg_error(L, 5, "tol must be > 0");
  if (luma_mat_checked_size(m + 1, n + m + 1) < 0) luma_arg_error(L, 2, "the tableau would be too large");
  double *work = lua_newuserdatauv(L, (size_t)luma_simplex_work(m, n) * sizeof(double), 0);
  luma_Mat *x = luma_matrix_new(L, n, 1);
  int64_t pivots = 0;
  /* max_iter alone bounds the pivots (2^n of them on a Klee-Minty cube):
   * each one is charged */
  luma_Threads *t = luma_threads_of(L);
  luma_LpStatus st = luma_simplex(t, c->data, a->data, b->data, m, n, (int64_t)max_iter, tol,
                                  x->data, work, &pivots);
  luma_threads_finish(L, t, LUMA_LOOP_DONE);
  static const char *const names[] = {"optimal", "infeasible", "unbounded", "max_iter"};
  lua_pushstring(L, names[st]);
  if (st == LUMA_LP_OPTIMAL) lua_pushvalue(L, -2);
  else lua_pushnil(L);
  lua_pushinteger(L, (lua_Integer)pivots);
  return 3;
}

int luma_open_optim_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"lbfgs", o_lbfgs, "lbfgs(f, x0, opts)",
       "The L-BFGS(-B) engine behind luma.optim.minimize (use that instead)."},
      {"logistic_loss", o_logistic_loss,
       "logistic_loss(X, y [, {C = 1, fit_intercept = true, sample_weight = nil}]) -> Objective",
       "Native binary logistic loss C * sum_i s_i log(1 + exp(-y_i (x_i.w + b))) + |w|^2 / 2."},
      {"softmax_loss", o_softmax_loss,
       "softmax_loss(X, y [, {C = 1, fit_intercept = true, sample_weight = nil, n_classes = "
       "max label}]) -> Objective",
       "Native multinomial cross-entropy C * sum_i s_i (-log softmax(x_i W + b)_{y_i}) + "
       "|W|_F^2 / 2."},
      {"is_objective", o_is_objective, "is_objective(v) -> boolean",
       "True when v is a luma.Objective."},
      {"simplex", o_simplex, "simplex(c, A, b [, max_iter = 10000 [, tol = 1e-10]])",
       "The dense two-phase simplex behind luma.optim.linprog: min c'x s.t. A x = b, x >= 0 "
       "with b >= 0. Returns the status (\"optimal\", \"infeasible\", \"unbounded\", "
       "\"max_iter\"), x (nil unless optimal) and the pivots."},
      {NULL, NULL, NULL, NULL}};
  luma_type_register(L, &objective_type);
  lua_pop(L, 1);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.optim.native", funcs);
  return 1;
}
