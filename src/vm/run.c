/*
 * run.c - running chunks for a host: protected calls whose error messages
 * carry a traceback, and status codes turned into words.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include <lauxlib.h>

#include "core.h"
#include "core/numtext.h"

/* Message handler: appends a traceback to string messages; other error
 * values go through __tostring, or are described by type. */
static int traceback_handler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  luma_traceback(L, msg, 1);
  return 1;
}

int luma_pcall(lua_State *L, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  int restored = luma_sandbox_restore(L);
  if (restored != LUA_OK) { /* the message replaces the function and its arguments */
    lua_replace(L, base);
    lua_settop(L, base);
    return restored;
  }
  lua_pushcfunction(L, traceback_handler);
  lua_insert(L, base);
  luma_state_restart_budget(L);
  /* The run sees the C locale's numbers whatever LC_NUMERIC the host set:
   * Lua's own tostring, string.format and "..", and every message, write
   * 0.5 and never 0,5 (the thread's locale is the host's again on return;
   * lua_pcall never unwinds past here). */
  locale_t host_locale = luma_locale_enter();
  int status = lua_pcall(L, nargs, nresults, base);
  luma_locale_leave(host_locale);
  lua_remove(L, base);
  /* A run that stopped yet returned (its last statement a tail call to a
   * C function that caught the stop: `return pcall(f)`) or failed with
   * another message (the memory error of a big string refused once the
   * time was up, state.c) reports the stop instead. */
  if (luma_state_end_run(L)) {
    const char *msg = status == LUA_OK ? NULL : lua_tostring(L, base);
    luma_state_push_stop(L);
    int says_why = msg != NULL && strstr(msg, lua_tostring(L, -1)) != NULL;
    lua_pop(L, 1);
    if (!says_why) {
      lua_settop(L, base - 1);
      luma_state_push_stop(L);
      status = LUA_ERRRUN;
    }
  }
  return status;
}

static int load_text_only(lua_State *L) {
  return luma_is_sandboxed(L);
}

int luma_run_string(lua_State *L, const char *code, const char *chunkname, int nresults) {
  if (code == NULL) {
    lua_pushliteral(L, "luma_run_string: code is NULL");
    return LUA_ERRRUN;
  }
  int status = luaL_loadbufferx(L, code, strlen(code), chunkname ? chunkname : "=(string)",
                                load_text_only(L) ? "t" : "bt");
  if (status != LUA_OK) return status;
  return luma_pcall(L, 0, nresults);
}

int luma_run_file(lua_State *L, const char *path, int nresults) {
  if (path == NULL) {
    lua_pushliteral(L, "luma_run_file: path is NULL");
    return LUA_ERRFILE;
  }
  int status = luaL_loadfilex(L, path, load_text_only(L) ? "t" : "bt");
  if (status != LUA_OK) return status;
  return luma_pcall(L, 0, nresults);
}

const char *luma_status_string(int status) {
  switch (status) {
    case LUA_OK: return "ok";
    case LUA_YIELD: return "yielded";
    case LUA_ERRRUN: return "runtime error";
    case LUA_ERRSYNTAX: return "syntax error";
    case LUA_ERRMEM: return "not enough memory";
    case LUA_ERRERR: return "error in error handling";
    case LUA_ERRFILE: return "cannot open or read file";
    case LUMA_EARG: return "invalid argument";
    case LUMA_ETYPE: return "value is not a matrix";
    default: return "unknown status";
  }
}
