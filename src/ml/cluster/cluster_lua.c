/* luma.cluster.native: the table the parts of luma.cluster register into. */
/* SPDX-License-Identifier: MIT */
#include "cluster/cluster_lua.h"

#include "core/matrix_lua.h"

int luma_open_cluster_native(lua_State *L) {
  lua_newtable(L);
  int t = lua_gettop(L);
  luma_cluster_register_kmeans(L, t);
  luma_cluster_register_hierarchy(L, t);
  luma_cluster_register_graph(L, t);
  luma_doc_set(L, t, "luma.cluster.native", NULL,
               "The native kernels of luma.cluster: k-means assignment and update steps, "
               "merge trees, graph construction and community detection.");
  return 1;
}
