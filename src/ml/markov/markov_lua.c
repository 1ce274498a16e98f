/* markov_lua.c - luma.markov.native, the native kernels of luma.markov. */
#include "core/matrix_lua.h"

int luma_open_markov_native(lua_State *L) {
  static const luma_Func funcs[] = {{NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.markov.native", funcs);
  luma_doc_set(L, -1, "luma.markov.native", NULL, "The native kernels of luma.markov.");
  return 1;
}
