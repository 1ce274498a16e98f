/* tsa_lua.c - luma.tsa.native, the native kernels of luma.tsa. */
#include "core/matrix_lua.h"

int luma_open_tsa_native(lua_State *L) {
  static const luma_Func funcs[] = {{NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.tsa.native", funcs);
  luma_doc_set(L, -1, "luma.tsa.native", NULL, "The native kernels of luma.tsa.");
  return 1;
}
