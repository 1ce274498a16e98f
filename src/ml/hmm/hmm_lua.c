/* hmm_lua.c - luma.hmm.native, the native kernels of luma.hmm. */
#include "core/matrix_lua.h"

int luma_open_hmm_native(lua_State *L) {
  static const luma_Func funcs[] = {{NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.hmm.native", funcs);
  luma_doc_set(L, -1, "luma.hmm.native", NULL, "The native kernels of luma.hmm.");
  return 1;
}
