/*
 * registry.c - userdata type registry and Lua-style argument checking.
 */
#include <math.h>
#include <stdarg.h>

#include "core.h"

void luma_type_register(lua_State *L, const luma_Type *type) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, type) != LUA_TNIL) return;
  lua_pop(L, 1);
  luaL_newmetatable(L, type->name); /* also sets __name for messages */
  if (type->metamethods) luaL_setfuncs(L, type->metamethods, 0);
  if (type->methods) {
    lua_newtable(L);
    luma_register_funcs(L, -1, type->name, type->methods);
    if (type->index) {
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, "__methods");
      lua_pushcclosure(L, type->index, 1);
    }
    lua_setfield(L, -2, "__index");
  }
  if (type->doc) luma_doc_set(L, -1, type->name, NULL, type->doc);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, type);
}

void luma_type_setmetatable(lua_State *L, const luma_Type *type) {
  luma_type_register(L, type);
  lua_setmetatable(L, -2);
}

void *luma_type_test(lua_State *L, int idx, const luma_Type *type) {
  void *p = lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, type);
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? p : NULL;
}

void *luma_type_check(lua_State *L, int idx, const luma_Type *type) {
  void *p = luma_type_test(L, idx, type);
  if (p == NULL) luaL_typeerror(L, idx, type->name);
  return p;
}

int luma_arg_error(lua_State *L, int arg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  return luaL_argerror(L, arg, msg);
}

lua_Integer luma_check_int_range(lua_State *L, int arg, const char *what, lua_Integer lo,
                                 lua_Integer hi) {
  lua_Integer v = luaL_checkinteger(L, arg);
  if (v < lo || v > hi)
    luma_arg_error(L, arg, "%s must be in [%I, %I], got %I", what, lo, hi, v);
  return v;
}

lua_Number luma_check_finite(lua_State *L, int arg, const char *what) {
  lua_Number v = luaL_checknumber(L, arg);
  if (!isfinite(v)) luma_arg_error(L, arg, "%s must be finite, got %f", what, v);
  return v;
}
