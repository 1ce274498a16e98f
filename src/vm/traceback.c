/*
 * traceback.c - the tracebacks of luma_pcall's errors, as luaL_traceback
 * writes them, with the names of library functions looked up in a cache.
 *
 * luaL_traceback names a function by searching package.loaded two levels
 * deep at every frame.  With Luma's modules loaded that is thousands of
 * table entries per frame: an error cost about 0.5 ms, most of the API
 * fuzzer's time.  The cache maps each function found there to its name,
 * in the order the search would find it, and is made again when the
 * number of loaded modules changes.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include <lauxlib.h>

#include "core.h"

/* As luaL_traceback: the first LEVELS_FIRST frames and the last
 * LEVELS_LAST of a deeper stack. */
enum { LEVELS_FIRST = 10, LEVELS_LAST = 11 };

static const char *const NAMES_KEY = "luma.traceback_names";

static int count_entries(lua_State *L, int t) {
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    n++;
  }
  return n;
}

/* Records, for each function in the table at `t` and in the tables it
 * holds, its first-found name ("module.field"); "_G." is left off, as
 * luaL_traceback does. */
static void record_names(lua_State *L, int names, int t, const char *prefix) {
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      if (lua_type(L, -1) == LUA_TFUNCTION) {
        lua_pushvalue(L, -1);
        if (lua_rawget(L, names) == LUA_TNIL) {
          lua_pushvalue(L, -2);
          if (prefix == NULL || strcmp(prefix, LUA_GNAME) == 0)
            lua_pushvalue(L, -4);
          else
            lua_pushfstring(L, "%s.%s", prefix, lua_tostring(L, -4));
          lua_rawset(L, names);
        }
        lua_pop(L, 1);
      } else if (prefix == NULL && lua_type(L, -1) == LUA_TTABLE) {
        record_names(L, names, lua_gettop(L), lua_tostring(L, -2));
      }
    }
    lua_pop(L, 1);
  }
}

/* Pushes the cache for the current package.loaded: a table of
 * function -> name (weak keys) whose field 0 is the number of loaded
 * modules it was made for. */
static void push_names(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  int loaded = lua_gettop(L);
  int modules = count_entries(L, loaded);
  if (lua_getfield(L, LUA_REGISTRYINDEX, NAMES_KEY) == LUA_TTABLE &&
      lua_rawgeti(L, -1, 0) == LUA_TNUMBER && lua_tointeger(L, -1) == modules) {
    lua_pop(L, 1);
    lua_remove(L, loaded);
    return;
  }
  lua_settop(L, loaded);
  lua_newtable(L);
  int names = lua_gettop(L);
  lua_newtable(L);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, names);
  record_names(L, names, loaded, NULL);
  lua_pushinteger(L, modules);
  lua_rawseti(L, names, 0);
  lua_pushvalue(L, names);
  lua_setfield(L, LUA_REGISTRYINDEX, NAMES_KEY);
  lua_remove(L, loaded);
}

/* Pushes how the frame's function is named, as luaL_traceback does. */
static void push_function_name(lua_State *L, int names, lua_Debug *ar) {
  lua_getinfo(L, "f", ar);
  if (lua_rawget(L, names) == LUA_TSTRING) {
    lua_pushfstring(L, "function '%s'", lua_tostring(L, -1));
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  if (*ar->namewhat != '\0')
    lua_pushfstring(L, "%s '%s'", ar->namewhat, ar->name);
  else if (*ar->what == 'm')
    lua_pushliteral(L, "main chunk");
  else if (*ar->what != 'C')
    lua_pushfstring(L, "function <%s:%d>", ar->short_src, ar->linedefined);
  else
    lua_pushliteral(L, "?");
}

static int last_level(lua_State *L) {
  lua_Debug ar;
  int low = 1, high = 1;
  while (lua_getstack(L, high, &ar)) {
    low = high;
    high *= 2;
  }
  while (low < high) {
    int mid = (low + high) / 2;
    if (lua_getstack(L, mid, &ar)) low = mid + 1;
    else high = mid;
  }
  return high - 1;
}

void luma_traceback(lua_State *L, const char *msg, int level) {
  push_names(L);
  int names = lua_gettop(L);
  luaL_Buffer b;
  lua_Debug ar;
  int last = last_level(L);
  int show = last - level > LEVELS_FIRST + LEVELS_LAST ? LEVELS_FIRST : -1;
  luaL_buffinit(L, &b);
  if (msg != NULL) {
    luaL_addstring(&b, msg);
    luaL_addchar(&b, '\n');
  }
  luaL_addstring(&b, "stack traceback:");
  while (lua_getstack(L, level++, &ar)) {
    if (show-- == 0) {
      int skip = last - level - LEVELS_LAST + 1;
      lua_pushfstring(L, "\n\t...\t(skipping %d levels)", skip);
      luaL_addvalue(&b);
      level += skip;
      continue;
    }
    lua_getinfo(L, "Slnt", &ar);
    if (ar.currentline <= 0)
      lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
    else
      lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
    luaL_addvalue(&b);
    push_function_name(L, names, &ar);
    luaL_addvalue(&b);
    if (ar.istailcall) luaL_addstring(&b, "\n\t(...tail calls...)");
  }
  luaL_pushresult(&b);
  lua_remove(L, names);
}
