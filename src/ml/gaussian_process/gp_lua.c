/*
 * gp_lua.c - Lua binding of the Gaussian-process kernels
 * (luma.gaussian_process.native).
 * SPDX-License-Identifier: MIT
 */
#include "budget.h"
#include "gaussian_process/gp.h"
#include "core/matrix_lua.h"

static int gp_cho_inverse(lua_State *L) {
  lua_settop(L, 2);
  luma_Mat *l = luma_matrix_check(L, 1);
  if (l->rows != l->cols)
    luma_arg_error(L, 1, "L must be square, got %I x %I", (lua_Integer)l->rows,
                   (lua_Integer)l->cols);
  if (l->rows > 0x7fffffff) luma_arg_error(L, 1, "L is too large for LAPACK");
  /* dpotri cannot be stopped: 2n^3/3 flops refused up front when over
   * the budget, with the copies around it */
  const double n = (double)l->rows;
  luma_charge_uninterruptible(L, 2 * n * n * n / 3 + 3 * n * n,
                              "luma.gaussian_process.native.cho_inverse");
  luma_Mat *out = luma_matrix_new(L, l->rows, l->cols);
  int64_t bad = luma_gp_cho_inverse(l, out);
  if (bad)
    return luaL_error(L, "luma.gaussian_process.native.cho_inverse: L[%I][%I] is zero (the "
                      "factored matrix is singular)", (lua_Integer)bad, (lua_Integer)bad);
  return 1;
}

int luma_open_gaussian_process_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"cho_inverse", gp_cho_inverse, "cho_inverse(L)",
       "(L L^T)^-1, full and symmetric, from the lower-triangular Cholesky factor L (LAPACK "
       "dpotri: 2n^3/3 flops); a zero on L's diagonal is an error."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.gaussian_process.native", funcs);
  luma_doc_set(L, -1, "luma.gaussian_process.native", NULL,
               "Native kernels of luma.gaussian_process: the inverse of a matrix from its "
               "Cholesky factor, for log marginal likelihood gradients.");
  return 1;
}
