/* kmeans_lua.c - the kmeans kernels of luma.cluster.native (to be filled). */
#include "cluster/cluster_lua.h"
#include "core/matrix_lua.h"

void luma_cluster_register_kmeans(lua_State *L, int t) {
  static const luma_Func funcs[] = {{NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, t, "luma.cluster.native", funcs);
}
