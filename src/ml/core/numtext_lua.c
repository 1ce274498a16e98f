/*
 * numtext_lua.c - luma.util.native: string.format under the C locale, for
 * the text Luma's Lua modules write (SVG coordinates, tick labels, category
 * labels, tree exports, printed values).
 *
 * luma_pcall already runs a host's scripts under the C locale, but a stock
 * Lua host that set LC_NUMERIC and called `require "luma"` runs Luma's
 * modules in its own locale, where string.format("%.2f", 0.5) is "0,50".
 * SPDX-License-Identifier: MIT
 */
#include <lauxlib.h>
#include <lua.h>

#include "core.h"
#include "core/numtext.h"

/* The function in upvalue 1 (string.format, tostring) called with '.' as
 * the decimal point.  Already under a "." locale (the usual case) it is a
 * plain call; otherwise the call is protected so that an error gives the
 * thread its locale back before it propagates. */
static int call_c_locale(lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  if (luma_numeric_is_c()) {
    lua_call(L, n, 1);
    return 1;
  }
  locale_t saved = luma_locale_enter();
  int status = lua_pcall(L, n, 1, 0);
  luma_locale_leave(saved);
  if (status != LUA_OK) return lua_error(L);
  return 1;
}

int luma_open_util_native(lua_State *L) {
  lua_newtable(L);
  if (lua_getglobal(L, "string") != LUA_TTABLE ||
      lua_getfield(L, -1, "format") != LUA_TFUNCTION)
    return luaL_error(L, "luma.util.native needs the string library");
  lua_remove(L, -2);
  lua_pushcclosure(L, call_c_locale, 1);
  lua_setfield(L, -2, "format");
  if (lua_getglobal(L, "tostring") != LUA_TFUNCTION)
    return luaL_error(L, "luma.util.native needs the base library");
  lua_pushcclosure(L, call_c_locale, 1);
  lua_setfield(L, -2, "tostring");
  return 1;
}
