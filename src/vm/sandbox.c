/*
 * sandbox.c - what keeps a script inside its limits where Lua itself would
 * let it out, and what keeps one run from changing the next.
 *
 * Lua runs message handlers of errors raised from a hook, and every
 * finalizer, with hooks off: a handler or a __gc that loops would never
 * meet the instruction limit, the clock or luma_interrupt.  So xpcall's
 * handler is skipped once the run has stopped (its error is final anyway),
 * and sandboxed states refuse __gc metamethods.  Coroutines get the count
 * hook when created, so the limits and interrupts reach them even in a
 * state without limits (the REPL's Ctrl-C).
 *
 * Sealing (luma_seal) records every table reachable from the globals, the
 * string metatable and Luma's type metatables; before each later run those
 * tables are put back as recorded, so a script that rewrites
 * string.upper or a matrix method changes nothing for the next run.
 * docs/RELIABILITY.md states the model.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "core.h"
#include "luma.h"

/* ------------------------------------------------------------- xpcall */

/* The message handler xpcall installs: the script's own handler, unless
 * the run has stopped (then Lua may be calling it from the hook that
 * raised the stop, with hooks off, and the error must reach the host
 * unchanged anyway). */
static int guarded_handler(lua_State *L) {
  if (luma_state_stopped(L)) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

/* Continuation of xpcall (also its return after a plain call): true and
 * the results, or false and the handler's value. */
static int finish_xpcall(lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

/* xpcall(f, msgh, ...) with the handler wrapped in guarded_handler; like
 * the standard one it can yield across f. */
static int guarded_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, guarded_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1); /* first result when f succeeds */
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2); /* f, handler, true, f, args... */
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_xpcall);
  return finish_xpcall(L, status, 2);
}

/* --------------------------------------------------------- coroutines */

/* coroutine.create: the new thread gets the count hook. */
static int hooked_create(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  lua_State *co = lua_tothread(L, -1);
  if (co != NULL) luma_state_hook_thread(co);
  return 1;
}

/* Calls upvalue 1 (coroutine.resume, or the function coroutine.wrap
 * made) with the arguments, telling the state that `co` runs meanwhile
 * (luma_state_running: the deadline's watchdog nudges it).  Through a
 * protected call, so that the running thread is set back even when the
 * call raises (a wrapped coroutine's error), then the error goes on. */
static int run_as(lua_State *L, lua_State *co) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  luma_state_running(L, co);
  int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
  luma_state_running(L, L);
  if (status != LUA_OK) return lua_error(L);
  return lua_gettop(L);
}

/* coroutine.resume, telling the state which thread runs. */
static int tracked_resume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  if (co == NULL) return lua_tocfunction(L, lua_upvalueindex(1))(L); /* stock's argument error */
  return run_as(L, co);
}

/* The function coroutine.wrap returns, telling the state which thread
 * runs (upvalue 2). */
static int tracked_wrapped(lua_State *L) {
  return run_as(L, lua_tothread(L, lua_upvalueindex(2)));
}

/* coroutine.wrap: the standard wrapper keeps its thread as its first
 * upvalue; that thread gets the count hook, and the wrapper is wrapped
 * in tracked_wrapped. */
static int hooked_wrap(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  if (lua_getupvalue(L, -1, 1) != NULL) {
    lua_State *co = lua_tothread(L, -1);
    if (co == NULL) {
      lua_pop(L, 1);
      return 1;
    }
    luma_state_hook_thread(co);
    lua_pushcclosure(L, tracked_wrapped, 2);
  }
  return 1;
}

static void wrap_field(lua_State *L, const char *name, lua_CFunction wrapper) {
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, wrapper, 1);
  lua_setfield(L, -2, name);
}

/* ------------------------------------------------------ setmetatable */

/* setmetatable refusing __gc: a finalizer runs with hooks off, so no limit
 * could stop one that loops, neither during the run nor in luma_close. */
static int sandboxed_setmetatable(lua_State *L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    int has_gc = lua_getfield(L, 2, "__gc") != LUA_TNIL;
    lua_pop(L, 1);
    if (has_gc)
      return luaL_argerror(L, 2, "__gc metamethods are not available in a sandboxed state");
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

void luma_sandbox_guard(lua_State *L, int sandbox) {
  lua_pushglobaltable(L);
  lua_pushcfunction(L, guarded_xpcall);
  lua_setfield(L, -2, "xpcall");
  if (sandbox) wrap_field(L, "setmetatable", sandboxed_setmetatable);
  lua_pop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_getfield(L, -1, LUA_COLIBNAME) == LUA_TTABLE) {
    wrap_field(L, "create", hooked_create);
    wrap_field(L, "wrap", hooked_wrap);
    wrap_field(L, "resume", tracked_resume);
  }
  lua_pop(L, 2);
}

/* ------------------------------------------------------------ sealing */

/* The registry holds the seal under this key: a table of
 *   copies[T] = a shallow copy of T        (T: every sealed table)
 *   metas[T]  = T's metatable, or false
 *   types     = the registry's "luma.*" names when sealed. */
static const char SEAL_KEY = 0;
enum { SEAL_COPIES = 1, SEAL_METAS, SEAL_TYPES };

static int is_luma_type_name(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  return strncmp(lua_tostring(L, idx), "luma.", 5) == 0;
}

/* Weak tables (caches) are left out: a copy would hold their entries. */
static int is_weak(lua_State *L, int idx) {
  if (!lua_getmetatable(L, idx)) return 0;
  int weak = lua_getfield(L, -1, "__mode") != LUA_TNIL;
  lua_pop(L, 2);
  return weak;
}

/* Records the table at the top of the stack and every table reachable from
 * it (through keys, values and metatables); pops it.  The work list is a
 * Lua table, so deep nesting costs no C stack. */
static void record_reachable(lua_State *L, int copies, int metas) {
  lua_newtable(L);
  lua_insert(L, -2);
  int todo = lua_gettop(L) - 1;
  lua_rawseti(L, todo, 1);
  lua_Integer pending = 1;
  while (pending > 0) {
    lua_rawgeti(L, todo, pending);
    lua_pushnil(L);
    lua_rawseti(L, todo, pending--);
    int t = lua_gettop(L);
    lua_pushvalue(L, t);
    if (lua_rawget(L, copies) != LUA_TNIL || is_weak(L, t)) {
      lua_pop(L, 2);
      continue;
    }
    lua_pop(L, 1);
    lua_newtable(L);
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
      for (int i = -2; i <= -1; i++)
        if (lua_type(L, i) == LUA_TTABLE) {
          lua_pushvalue(L, i);
          lua_rawseti(L, todo, ++pending);
        }
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, copy);
    }
    lua_pushvalue(L, t);
    lua_insert(L, copy);
    lua_rawset(L, copies); /* copies[T] = copy */
    lua_pushvalue(L, t);
    if (lua_getmetatable(L, t)) {
      if (lua_type(L, -1) == LUA_TTABLE) {
        lua_pushvalue(L, -1);
        lua_rawseti(L, todo, ++pending);
      }
    } else {
      lua_pushboolean(L, 0);
    }
    lua_rawset(L, metas); /* metas[T] = its metatable or false */
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static int seal(lua_State *L) {
  lua_createtable(L, 3, 0);
  int sealed = lua_gettop(L);
  lua_newtable(L);
  int copies = lua_gettop(L);
  lua_newtable(L);
  int metas = lua_gettop(L);
  lua_newtable(L);
  int types = lua_gettop(L);
  lua_pushglobaltable(L);
  record_reachable(L, copies, metas);
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) record_reachable(L, copies, metas);
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, LUA_REGISTRYINDEX)) {
    if (is_luma_type_name(L, -2) && lua_type(L, -1) == LUA_TTABLE) {
      lua_pushvalue(L, -2);
      lua_pushboolean(L, 1);
      lua_rawset(L, types);
      record_reachable(L, copies, metas);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_rawseti(L, sealed, SEAL_TYPES);
  lua_rawseti(L, sealed, SEAL_METAS);
  lua_rawseti(L, sealed, SEAL_COPIES);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &SEAL_KEY);
  return 0;
}

/* Puts the table at `t` back to `copy` (absolute indices). */
static void restore_table(lua_State *L, int t, int copy) {
  lua_pushnil(L);
  while (lua_next(L, t)) { /* clearing existing fields is allowed in next */
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, copy) == LUA_TNIL) {
      lua_pushvalue(L, -2);
      lua_pushnil(L);
      lua_rawset(L, t);
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, copy)) {
    lua_pushvalue(L, -2);
    lua_rawget(L, t);
    if (!lua_rawequal(L, -1, -2)) {
      lua_pushvalue(L, -3);
      lua_pushvalue(L, -3);
      lua_rawset(L, t);
    }
    lua_pop(L, 2);
  }
}

/* Forgets the registry's Luma types registered after sealing (by a module
 * a run loaded): the next run registers them afresh, with the module. */
static void forget_new_types(lua_State *L, int types) {
  lua_pushnil(L);
  while (lua_next(L, LUA_REGISTRYINDEX)) {
    int forget = 0;
    if (is_luma_type_name(L, -2)) {
      lua_pushvalue(L, -2);
      forget = lua_rawget(L, types) == LUA_TNIL;
      lua_pop(L, 1);
    }
    if (forget) {
      /* the same metatable is also under its luma_Type's address */
      int mt = lua_gettop(L);
      lua_pushnil(L);
      while (lua_next(L, LUA_REGISTRYINDEX)) {
        if (lua_type(L, -2) == LUA_TLIGHTUSERDATA && lua_rawequal(L, -1, mt)) {
          lua_pushvalue(L, -2);
          lua_pushnil(L);
          lua_rawset(L, LUA_REGISTRYINDEX);
        }
        lua_pop(L, 1);
      }
      lua_pushvalue(L, -2);
      lua_pushnil(L);
      lua_rawset(L, LUA_REGISTRYINDEX);
    }
    lua_pop(L, 1);
  }
}

static int restore(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &SEAL_KEY) != LUA_TTABLE) return 0;
  int sealed = lua_gettop(L);
  lua_rawgeti(L, sealed, SEAL_COPIES);
  int copies = lua_gettop(L);
  lua_rawgeti(L, sealed, SEAL_METAS);
  int metas = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, copies)) {
    int t = lua_gettop(L) - 1;
    restore_table(L, t, t + 1);
    lua_pushvalue(L, t);
    if (lua_rawget(L, metas) != LUA_TTABLE) { /* false: it had none */
      lua_pop(L, 1);
      lua_pushnil(L);
    }
    if (!lua_getmetatable(L, t)) lua_pushnil(L);
    if (!lua_rawequal(L, -1, -2)) {
      lua_pop(L, 1);
      lua_setmetatable(L, t);
    }
    lua_settop(L, t);
  }
  lua_rawgeti(L, sealed, SEAL_TYPES);
  forget_new_types(L, lua_gettop(L));
  return 0;
}

int luma_seal(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) {
    lua_pushliteral(L, "luma_seal: not a state made by luma_newstate");
    return LUMA_EARG;
  }
  lua_pushcfunction(L, seal);
  int status = lua_pcall(L, 0, 0, 0);
  if (status == LUA_OK) info->sealed = 1;
  return status;
}

int luma_sandbox_restore(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL || !info->sealed) return LUA_OK;
  lua_pushcfunction(L, restore);
  return lua_pcall(L, 0, 0, 0);
}
