/*
 * capture.c - a host's capture of standard output (luma_Options.print):
 * print, io.write and io.stdout:write hand their text to the host's
 * callback instead of writing to the process's stdout.  Other files
 * (io.stderr, opened files) are untouched.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include <lauxlib.h>
#include <lualib.h>

#include "core.h"
#include "core/numtext.h"

static void deliver(lua_State *L, const char *text, size_t len) {
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL && info->print != NULL && len > 0) info->print(info->print_ud, text, len);
}

/* print(...): the arguments through tostring, tab-separated, one line. */
static int captured_print(lua_State *L) {
  int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&b, '\t');
    luaL_tolstring(L, i, NULL);
    luaL_addvalue(&b);
  }
  luaL_addchar(&b, '\n');
  luaL_pushresult(&b);
  size_t len;
  const char *s = lua_tolstring(L, -1, &len);
  deliver(L, s, len);
  return 0;
}

/* The arguments from `first` on, as the io library writes them (numbers
 * in LUA_INTEGER_FMT / LUA_NUMBER_FMT), delivered as one piece. */
static void deliver_arguments(lua_State *L, int first) {
  int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = first; i <= n; i++) {
    if (lua_type(L, i) == LUA_TNUMBER) {
      char num[64];
      int len = lua_isinteger(L, i)
                    ? snprintf(num, sizeof num, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, i))
                    : luma_snprintf_c(num, sizeof num, LUA_NUMBER_FMT, (LUAI_UACNUMBER)lua_tonumber(L, i));
      luaL_addlstring(&b, num, (size_t)len);
    } else {
      size_t len;
      const char *s = lua_tolstring(L, i, &len);
      if (s == NULL) luaL_typeerror(L, i, "string");
      luaL_addlstring(&b, s, len);
    }
  }
  luaL_pushresult(&b);
  size_t len;
  const char *s = lua_tolstring(L, -1, &len);
  deliver(L, s, len);
}

/* io.write(...): captured while the default output is io.stdout.
 * Upvalues: the original io.write, io.output, io.stdout. */
static int captured_io_write(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_call(L, 0, 1);
  int to_stdout = lua_rawequal(L, -1, lua_upvalueindex(3));
  lua_pop(L, 1);
  if (!to_stdout) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
  }
  deliver_arguments(L, 1);
  lua_pushvalue(L, lua_upvalueindex(3)); /* io.write returns the file */
  return 1;
}

/* file:write(...): captured for io.stdout.  Upvalues: the original
 * method, io.stdout. */
static int captured_file_write(lua_State *L) {
  if (!lua_rawequal(L, 1, lua_upvalueindex(2))) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
  }
  deliver_arguments(L, 2);
  lua_settop(L, 1);
  return 1;
}

void luma_capture_stdout(lua_State *L) {
  lua_pushcfunction(L, captured_print);
  lua_setglobal(L, "print");
  if (lua_getglobal(L, "io") != LUA_TTABLE) { /* sandboxed: no io library */
    lua_pop(L, 1);
    return;
  }
  int io = lua_gettop(L);
  lua_getfield(L, io, "write");
  lua_getfield(L, io, "output");
  lua_getfield(L, io, "stdout");
  lua_pushcclosure(L, captured_io_write, 3);
  lua_setfield(L, io, "write");
  /* The method table shared by every file handle. */
  if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TTABLE &&
      lua_getfield(L, -1, "__index") == LUA_TTABLE) {
    lua_getfield(L, -1, "write");
    lua_getfield(L, io, "stdout");
    lua_pushcclosure(L, captured_file_write, 2);
    lua_setfield(L, -2, "write");
  }
  lua_settop(L, io - 1);
}
