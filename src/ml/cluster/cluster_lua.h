/* The native half of luma.cluster, one registration function per part
 * (each adds its functions to the table at index `t`). */
/* SPDX-License-Identifier: MIT */
#ifndef LUMA_CLUSTER_LUA_H
#define LUMA_CLUSTER_LUA_H

#include <lua.h>

void luma_cluster_register_kmeans(lua_State *L, int t);
void luma_cluster_register_hierarchy(lua_State *L, int t);
void luma_cluster_register_graph(lua_State *L, int t);

#endif
