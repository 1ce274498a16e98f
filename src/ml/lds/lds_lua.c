/* lds_lua.c - luma.lds.native, the native kernels of luma.lds. */
#include "core/matrix_lua.h"

int luma_open_lds_native(lua_State *L) {
  static const luma_Func funcs[] = {{NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.lds.native", funcs);
  luma_doc_set(L, -1, "luma.lds.native", NULL, "The native kernels of luma.lds.");
  return 1;
}
