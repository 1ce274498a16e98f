/*
 * nmf_lua.c - Lua binding of the decomposition kernels
 * (luma.decomposition.native): the coordinate-descent sweep of NMF.
 */
#include <math.h>

#include "core/matrix_lua.h"
#include "decomposition/nmf.h"

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
  int64_t *order = lua_newuserdatauv(L, (size_t)(k > 0 ? k : 1) * sizeof(int64_t), 0);
  int seen_ok = 1;
  if (lua_isnoneornil(L, 4)) {
    for (int64_t t = 0; t < k; t++) order[t] = t;
  } else {
    luma_Mat *o = luma_matrix_check(L, 4);
    if (o->rows * o->cols != k)
      luma_arg_error(L, 4, "order must have %I elements", (lua_Integer)k);
    for (int64_t t = 0; t < k; t++) {
      const double v = o->rows == 1 ? LUMA_AT(o, 0, t) : LUMA_AT(o, t, 0);
      if (!(v >= 1 && v <= (double)k) || v != floor(v)) seen_ok = 0;
      else order[t] = (int64_t)v - 1;
    }
    if (!seen_ok) luma_arg_error(L, 4, "order must hold column numbers 1..%I", (lua_Integer)k);
  }
  double *work = lua_newuserdatauv(L, (size_t)luma_nmf_cd_work(n) * sizeof(double), 0);
  double violation = 0;
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_nmf_cd_sweep(t, w, hht, xht, order, &violation, work));
  lua_pushnumber(L, violation);
  return 1;
}

int luma_open_decomposition_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"cd_sweep", d_cd_sweep, "cd_sweep(W, HHt, XHt [, order = 1..k]) -> number",
       "One coordinate-descent sweep of NMF over the columns of W (in order), in place: "
       "W[i][t] <- max(0, W[i][t] - ((W HHt)[i][t] - XHt[i][t]) / HHt[t][t]) (scikit-learn's "
       "_update_cdnmf_fast), rows as a parallel loop. Returns the sum of the absolute "
       "projected gradients (the violation)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.decomposition.native", funcs);
  luma_doc_set(L, -1, "luma.decomposition.native", NULL,
               "The native kernels of luma.decomposition: the coordinate-descent sweep of NMF.");
  return 1;
}
