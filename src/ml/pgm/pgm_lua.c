/*
 * pgm_lua.c - luma.pgm.native, the native kernels of luma.pgm: discrete
 * factor products, divisions, marginals, reductions and normalisation
 * (src/ml/pgm/factor.c).  A factor crosses as three arguments: a table of
 * variable ids (integers), a table of their cardinalities and an n x 1
 * matrix of values (last variable fastest).  Every table about to be made
 * is checked against the state's memory limit first, so a clique too big
 * for it is refused by its size, before anything is allocated.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "pgm/dsep.h"
#include "pgm/factor.h"
#include "budget.h"

/* A factor's scope read from the tables at vi (ids) and ci (cards) into
 * the arrays vars/card (LUMA_PGM_MAX_VARS each); returns the count. */
static int read_scope(lua_State *L, int vi, int ci, int64_t *vars, int64_t *card) {
  luaL_checktype(L, vi, LUA_TTABLE);
  luaL_checktype(L, ci, LUA_TTABLE);
  const lua_Integer n = luaL_len(L, vi);
  if (n > LUMA_PGM_MAX_VARS)
    luma_arg_error(L, vi, "a factor has at most %d variables, got %I", LUMA_PGM_MAX_VARS, n);
  if (luaL_len(L, ci) != n)
    luma_arg_error(L, ci, "%I cardinalities for %I variables", luaL_len(L, ci), n);
  for (lua_Integer j = 0; j < n; j++) {
    int isnum = 0;
    lua_geti(L, vi, j + 1);
    vars[j] = (int64_t)lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum) luma_arg_error(L, vi, "variable %I is not an integer id", j + 1);
    for (lua_Integer k = 0; k < j; k++)
      if (vars[k] == vars[j]) luma_arg_error(L, vi, "variable %I appears twice", (lua_Integer)vars[j]);
    lua_geti(L, ci, j + 1);
    card[j] = (int64_t)lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || card[j] < 1) luma_arg_error(L, ci, "cardinality %I must be an integer >= 1", j + 1);
  }
  return (int)n;
}

/* Refuses a table of `cells` values that the memory limit (or the largest
 * matrix) cannot hold, naming its size; the message has no location (the
 * Lua side raises it at its caller's line). */
static void check_cells(lua_State *L, double cells, int nv, const char *what) {
  const double bytes = cells * (double)sizeof(double);
  if (what == NULL) what = "a table";
  if (cells > (double)LUMA_MAX_ELEMENTS) {
    /* exact as an integer while it fits one, as Lua would print it */
    if (cells < 9.2e18)
      lua_pushfstring(L, "%s over %d variables would have %I cells (%I bytes), more than any "
                      "matrix may hold", what, nv, (lua_Integer)cells,
                      (lua_Integer)(bytes < 9.2e18 ? bytes : 0));
    else
      lua_pushfstring(L, "%s over %d variables would have %f cells, more than any matrix may "
                      "hold", what, nv, cells);
    lua_error(L);
  }
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL && info->limit != 0) {
    const double left = info->limit > info->used ? (double)(info->limit - info->used) : 0;
    if (bytes > left) {
      lua_pushfstring(L, "%s over %d variables would have %I cells (%I bytes), more than the "
                      "%I bytes left under the memory limit", what, nv, (lua_Integer)cells,
                      (lua_Integer)bytes, (lua_Integer)left);
      lua_error(L);
    }
  }
}

static double cells_of(int nv, const int64_t *card) {
  double c = 1;
  for (int j = 0; j < nv; j++) c *= (double)card[j];
  return c;
}

/* The values at arg as a factor of `size` entries (a contiguous copy
 * replaces a strided view on the stack). */
static double *read_values(lua_State *L, int arg, int64_t size) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows * m->cols != size)
    luma_arg_error(L, arg, "%I values for a table of %I cells", (lua_Integer)(m->rows * m->cols),
                   (lua_Integer)size);
  /* (an empty matrix may have 2^31 - 1 rows of no columns: no loop over them) */
  if (size == 0 || luma_mat_is_contiguous(m)) return m->data;
  luma_Mat *c = luma_matrix_new(L, size, 1);
  int64_t k = 0;
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) c->data[k++] = LUMA_AT(m, i, j);
  lua_replace(L, arg);
  return c->data;
}

static void push_ints(lua_State *L, int n, const int64_t *x) {
  lua_createtable(L, n, 0);
  for (int j = 0; j < n; j++) {
    lua_pushinteger(L, (lua_Integer)x[j]);
    lua_rawseti(L, -2, j + 1);
  }
}

/* combine(va, ca, A, vb, cb, B, op) -> vars, card, values */
static int p_combine(lua_State *L) {
  lua_settop(L, 7);
  int64_t va[LUMA_PGM_MAX_VARS], ca[LUMA_PGM_MAX_VARS], vb[LUMA_PGM_MAX_VARS],
      cb[LUMA_PGM_MAX_VARS], vo[LUMA_PGM_MAX_VARS], co[LUMA_PGM_MAX_VARS];
  const int na = read_scope(L, 1, 2, va, ca), nb = read_scope(L, 4, 5, vb, cb);
  static const char *const ops[] = {"mul", "div", "add", "sub", NULL};
  const int op = luaL_checkoption(L, 7, NULL, ops);
  luma_PgmFactor a = {na, va, ca, NULL, (int64_t)cells_of(na, ca)};
  luma_PgmFactor b = {nb, vb, cb, NULL, (int64_t)cells_of(nb, cb)};
  a.val = read_values(L, 3, a.size);
  b.val = read_values(L, 6, b.size);
  int no = na;
  memcpy(vo, va, sizeof(int64_t) * (size_t)na);
  memcpy(co, ca, sizeof(int64_t) * (size_t)na);
  for (int j = 0; j < nb; j++) {
    int found = 0;
    for (int k = 0; k < na; k++)
      if (va[k] == vb[j]) {
        if (ca[k] != cb[j])
          luma_arg_error(L, 5, "variable %I has cardinality %I here but %I in the first factor",
                         (lua_Integer)vb[j], (lua_Integer)cb[j], (lua_Integer)ca[k]);
        found = 1;
      }
    if (!found) {
      if (no == LUMA_PGM_MAX_VARS)
        luma_arg_error(L, 4, "the product would have more than %d variables", LUMA_PGM_MAX_VARS);
      vo[no] = vb[j];
      co[no++] = cb[j];
    }
  }
  const double cells = cells_of(no, co);
  check_cells(L, cells, no, NULL);
  push_ints(L, no, vo);
  push_ints(L, no, co);
  luma_Mat *m = luma_matrix_new(L, (int64_t)cells, 1);
  luma_PgmFactor out = {no, vo, co, m->data, (int64_t)cells};
  luma_Threads *t = luma_meter(L, (uint64_t)cells * (uint64_t)(no + 1));
  luma_pgm_combine(t, &a, &b, &out, (luma_PgmOp)op);
  luma_meter_done(L, t);
  return 3;
}

/* marginal(va, ca, A, keep, mode) -> vars, card, values: keep is a table
 * of the ids to keep (others are summed or maxed out). */
static int p_marginal(lua_State *L) {
  lua_settop(L, 5);
  int64_t va[LUMA_PGM_MAX_VARS], ca[LUMA_PGM_MAX_VARS], vo[LUMA_PGM_MAX_VARS],
      co[LUMA_PGM_MAX_VARS];
  const int na = read_scope(L, 1, 2, va, ca);
  luaL_checktype(L, 4, LUA_TTABLE);
  static const char *const modes[] = {"sum", "max", "logsum", NULL};
  const int mode = luaL_checkoption(L, 5, NULL, modes);
  luma_PgmFactor a = {na, va, ca, NULL, (int64_t)cells_of(na, ca)};
  a.val = read_values(L, 3, a.size);
  const lua_Integer nk = luaL_len(L, 4);
  int no = 0;
  for (int j = 0; j < na; j++) {
    for (lua_Integer k = 1; k <= nk; k++) {
      lua_geti(L, 4, k);
      const int keep = lua_tointeger(L, -1) == va[j] && lua_isinteger(L, -1);
      lua_pop(L, 1);
      if (keep) {
        vo[no] = va[j];
        co[no++] = ca[j];
        break;
      }
    }
  }
  const double cells = cells_of(no, co);
  push_ints(L, no, vo);
  push_ints(L, no, co);
  luma_Mat *m = luma_matrix_new(L, (int64_t)cells, 1);
  double *scratch = NULL;
  if (mode == LUMA_PGM_LOGSUM)
    scratch = lua_newuserdatauv(L, sizeof(double) * (size_t)cells, 0);
  luma_PgmFactor out = {no, vo, co, m->data, (int64_t)cells};
  luma_Threads *t = luma_meter(L, (uint64_t)a.size * (uint64_t)(na + 1) * (mode == 2 ? 2 : 1));
  luma_pgm_marginal(t, &a, &out, (luma_PgmMode)mode, scratch);
  luma_meter_done(L, t);
  if (scratch) lua_pop(L, 1);
  return 3;
}

/* reduce(va, ca, A, evidence) -> vars, card, values: evidence maps ids to
 * 1-based states; ids not in the factor are ignored. */
static int p_reduce(lua_State *L) {
  lua_settop(L, 4);
  int64_t va[LUMA_PGM_MAX_VARS], ca[LUMA_PGM_MAX_VARS], vo[LUMA_PGM_MAX_VARS],
      co[LUMA_PGM_MAX_VARS], state[LUMA_PGM_MAX_VARS];
  int fixed[LUMA_PGM_MAX_VARS];
  const int na = read_scope(L, 1, 2, va, ca);
  luaL_checktype(L, 4, LUA_TTABLE);
  luma_PgmFactor a = {na, va, ca, NULL, (int64_t)cells_of(na, ca)};
  a.val = read_values(L, 3, a.size);
  int no = 0;
  for (int j = 0; j < na; j++) {
    lua_geti(L, 4, (lua_Integer)va[j]);
    fixed[j] = !lua_isnil(L, -1);
    state[j] = 0;
    if (fixed[j]) {
      int isnum = 0;
      const lua_Integer s = lua_tointegerx(L, -1, &isnum);
      if (!isnum || s < 1 || s > ca[j])
        luma_arg_error(L, 4, "state of variable %I must be an integer in [1, %I]",
                       (lua_Integer)va[j], (lua_Integer)ca[j]);
      state[j] = s - 1;
    } else {
      vo[no] = va[j];
      co[no++] = ca[j];
    }
    lua_pop(L, 1);
  }
  const double cells = cells_of(no, co);
  push_ints(L, no, vo);
  push_ints(L, no, co);
  luma_Mat *m = luma_matrix_new(L, (int64_t)cells, 1);
  luma_PgmFactor out = {no, vo, co, m->data, (int64_t)cells};
  luma_Threads *t = luma_meter(L, (uint64_t)cells * (uint64_t)(no + 1));
  luma_pgm_reduce(t, &a, fixed, state, &out);
  luma_meter_done(L, t);
  return 3;
}

/* normalize(A, log) -> values, total: A / sum(A) (log: A - logsumexp(A));
 * a zero total (-inf in log space) leaves the values as they are. */
static int p_normalize(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *a = luma_matrix_check(L, 1);
  const int64_t n = a->rows * a->cols;
  const double *x = read_values(L, 1, n);
  const int logspace = lua_toboolean(L, 2);
  luma_Mat *m = luma_matrix_new(L, n, 1);
  luma_charge(L, 3 * (uint64_t)n);
  double total = 0;
  if (logspace) {
    double mx = -INFINITY;
    for (int64_t i = 0; i < n; i++)
      if (x[i] > mx) mx = x[i];
    if (mx > -INFINITY) {
      for (int64_t i = 0; i < n; i++) total += exp(x[i] - mx);
      total = mx + log(total);
    } else {
      total = -INFINITY;
    }
    for (int64_t i = 0; i < n; i++) m->data[i] = total > -INFINITY ? x[i] - total : x[i];
  } else {
    for (int64_t i = 0; i < n; i++) total += x[i];
    for (int64_t i = 0; i < n; i++) m->data[i] = total != 0 ? x[i] / total : x[i];
  }
  lua_pushnumber(L, total);
  return 2;
}

/* check_cells(cards [, what]) -> cells: refuses a table with these
 * cardinalities that the memory limit cannot hold; what names it in the
 * message ("clique {A, B}"). */
static int p_check_cells(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const char *what = luaL_optstring(L, 2, NULL);
  const lua_Integer n = luaL_len(L, 1);
  double cells = 1;
  for (lua_Integer j = 1; j <= n; j++) {
    lua_geti(L, 1, j);
    cells *= lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  check_cells(L, cells, (int)n, what);
  lua_pushnumber(L, cells);
  return 1;
}

/* A compiled DAG for d-separation queries: the compressed parents and
 * children, and the scratch a query needs, in one userdata. */
static const char DAG_NAME[] = "luma.pgm.Dag";

typedef struct Dag {
  luma_PgmDag g;
  uint8_t *mark;
  int64_t *stack;
} Dag;

/* dag_compile(n, parents) -> dag: parents[i] lists node i's parents
 * (1-based positions). */
static int p_dag_compile(lua_State *L) {
  const int64_t n = (int64_t)luma_check_int_range(L, 1, "n", 1, (lua_Integer)1 << 30);
  luaL_checktype(L, 2, LUA_TTABLE);
  int64_t m = 0;
  for (int64_t i = 1; i <= n; i++) {
    if (lua_geti(L, 2, (lua_Integer)i) != LUA_TTABLE)
      luma_arg_error(L, 2, "parents[%I] must be a table", (lua_Integer)i);
    m += (int64_t)luaL_len(L, -1);
    lua_pop(L, 1);
  }
  const size_t bytes = sizeof(Dag) + sizeof(int64_t) * (size_t)(2 * (n + 1) + 2 * m + 2 * n) +
                       (size_t)n;
  Dag *d = lua_newuserdatauv(L, bytes, 0);
  luaL_setmetatable(L, DAG_NAME);
  int64_t *pptr = (int64_t *)(d + 1), *cptr = pptr + n + 1, *pidx = cptr + n + 1,
          *cidx = pidx + m;
  d->stack = cidx + m;
  d->mark = (uint8_t *)(d->stack + 2 * n);
  luma_charge(L, (uint64_t)(4 * (n + m)));
  for (int64_t i = 0; i <= n; i++) pptr[i] = cptr[i] = 0;
  int64_t e = 0;
  for (int64_t i = 0; i < n; i++) {
    lua_geti(L, 2, (lua_Integer)(i + 1));
    const lua_Integer k = luaL_len(L, -1);
    for (lua_Integer j = 1; j <= k; j++) {
      lua_geti(L, -1, j);
      int isnum = 0;
      const lua_Integer p = lua_tointegerx(L, -1, &isnum);
      lua_pop(L, 1);
      if (!isnum || p < 1 || p > n)
        luma_arg_error(L, 2, "parents[%I][%I] must be a node position in [1, %I]",
                       (lua_Integer)(i + 1), j, (lua_Integer)n);
      pidx[e++] = p - 1;
      cptr[p]++; /* children counts, shifted by one */
    }
    pptr[i + 1] = e;
    lua_pop(L, 1);
  }
  for (int64_t i = 0; i < n; i++) cptr[i + 1] += cptr[i];
  /* fill children in node order, using the marks as no scratch: a
   * running copy of cptr lives in the stack area */
  int64_t *next = d->stack;
  for (int64_t i = 0; i < n; i++) next[i] = cptr[i];
  for (int64_t i = 0; i < n; i++)
    for (int64_t k = pptr[i]; k < pptr[i + 1]; k++) cidx[next[pidx[k]]++] = i;
  for (int64_t i = 0; i < n; i++) d->mark[i] = 0;
  d->g = (luma_PgmDag){n, pptr, pidx, cptr, cidx};
  return 1;
}

/* Marks the 1-based positions of the table at arg with bit. */
static void mark_set(lua_State *L, int arg, Dag *d, uint8_t bit) {
  luaL_checktype(L, arg, LUA_TTABLE);
  const lua_Integer k = luaL_len(L, arg);
  for (lua_Integer j = 1; j <= k; j++) {
    lua_geti(L, arg, j);
    int isnum = 0;
    const lua_Integer p = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || p < 1 || p > d->g.n) {
      for (int64_t i = 0; i < d->g.n; i++) d->mark[i] = 0;
      luma_arg_error(L, arg, "entry %I must be a node position in [1, %I]", j,
                     (lua_Integer)d->g.n);
    }
    d->mark[p - 1] |= bit;
  }
}

/* d_separated(dag, x, y, z) -> boolean: x, y, z tables of 1-based node
 * positions (disjoint: the caller checks). */
static int p_d_separated(lua_State *L) {
  Dag *d = luaL_checkudata(L, 1, DAG_NAME);
  mark_set(L, 2, d, 1);
  mark_set(L, 3, d, 2);
  mark_set(L, 4, d, 4);
  luma_charge(L, (uint64_t)(4 * (d->g.n + d->g.pptr[d->g.n])));
  const int sep = luma_pgm_d_separated(&d->g, d->mark, d->stack);
  for (int64_t i = 0; i < d->g.n; i++) d->mark[i] = 0;
  lua_pushboolean(L, sep);
  return 1;
}

int luma_open_pgm_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"combine", p_combine, "combine(va, ca, A, vb, cb, B, op) -> vars, card, values",
       "The product (op \"mul\"; \"add\" in log space) or quotient (\"div\", 0/0 = 0; \"sub\" "
       "in log space) of two factors given as variable ids, cardinalities and values (last "
       "variable fastest). Returns the result's ids, cardinalities and n x 1 values."},
      {"marginal", p_marginal, "marginal(va, ca, A, keep, mode) -> vars, card, values",
       "The factor with every variable not in keep summed (mode \"sum\"), maxed (\"max\") or "
       "log-sum-exp'ed (\"logsum\") out. Returns ids, cardinalities and values."},
      {"reduce", p_reduce, "reduce(va, ca, A, evidence) -> vars, card, values",
       "The factor restricted to evidence (a table from variable id to 1-based state). "
       "Returns ids, cardinalities and values of the remaining variables."},
      {"normalize", p_normalize, "normalize(A, log) -> values, total",
       "The values divided by their sum (minus their log-sum-exp in log space). Returns the "
       "normalised values and the total."},
      {"check_cells", p_check_cells, "check_cells(cards [, what = \"a table\"]) -> cells",
       "Refuses, naming its size (and what it is), a table with these cardinalities that the "
       "state's memory limit cannot hold. Returns its number of cells."},
      {"dag_compile", p_dag_compile, "dag_compile(n, parents) -> dag",
       "A DAG of n nodes compiled for d-separation queries; parents[i] lists node i's "
       "parents (1-based positions). Returns an opaque handle."},
      {"d_separated", p_d_separated, "d_separated(dag, x, y, z) -> boolean",
       "Whether the node sets x and y (tables of 1-based positions, disjoint from z) are "
       "d-separated given z, by Bayes ball. Returns a boolean."},
      {NULL, NULL, NULL, NULL}};
  if (luaL_newmetatable(L, DAG_NAME)) {
    lua_pushliteral(L, "luma.pgm.Dag");
    lua_setfield(L, -2, "__name");
  }
  lua_pop(L, 1);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.pgm.native", funcs);
  luma_doc_set(L, -1, "luma.pgm.native", NULL,
               "The native kernels of luma.pgm: discrete factor operations.");
  return 1;
}
