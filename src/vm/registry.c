/*
 * registry.c - userdata type registry and Lua-style argument checking.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "core.h"

enum { TYPE_SLOTS = sizeof ((luma_StateInfo *)0)->types / sizeof ((luma_StateInfo *)0)->types[0] };

/* The state's cache slot of type: the one holding it, else the free slot
 * where it goes; NULL in a state Luma did not make (luma.so in a stock
 * Lua) or when every slot is taken (more types than slots). */
static struct luma_TypeSlot *type_slot(luma_StateInfo *info, const luma_Type *type) {
  if (info == NULL) return NULL;
  size_t h = (size_t)(((uintptr_t)type * (uintptr_t)0x9E3779B97F4A7C15u) >> 59);
  struct luma_TypeSlot *slot = &info->types[h % TYPE_SLOTS];
  if (slot->type == type) return slot; /* the usual case, first probe */
  for (size_t k = 0; k < TYPE_SLOTS; k++) {
    slot = &info->types[(h + k) % TYPE_SLOTS];
    if (slot->type == type || slot->type == NULL) return slot;
  }
  return NULL;
}

void luma_type_register(lua_State *L, const luma_Type *type) {
  struct luma_TypeSlot *slot = type_slot(luma_state_info(L), type);
  if (slot != NULL && slot->type == type) { /* an array read: no hashing of a pointer key */
    lua_rawgeti(L, LUA_REGISTRYINDEX, slot->ref);
    return;
  }
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
      lua_pushvalue(L, -2);
      lua_pushcclosure(L, type->index, 2);
    }
    lua_setfield(L, -2, "__index");
  }
  if (type->doc) luma_doc_set(L, -1, type->name, NULL, type->doc);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, type);
  if (slot != NULL) { /* filled last: a memory error in luaL_ref leaves it free */
    lua_pushvalue(L, -1);
    slot->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    slot->metatable = lua_topointer(L, -1);
    slot->type = type;
  }
}

void luma_type_setmetatable(lua_State *L, const luma_Type *type) {
  luma_type_register(L, type);
  lua_setmetatable(L, -2);
}

/* The metatable is compared by address: a table's address identifies it
 * while it lives, and the registry keeps every type's metatable for the
 * state's life.  Allocates nothing and raises nothing (luma_get_matrix
 * calls it outside any protected call). */
void *luma_type_test(lua_State *L, int idx, const luma_Type *type) {
  void *p = lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  const void *mt = lua_topointer(L, -1);
  const void *expected;
  struct luma_TypeSlot *slot = type_slot(luma_state_info(L), type);
  if (slot != NULL && slot->type == type) {
    expected = slot->metatable;
  } else {
    lua_rawgetp(L, LUA_REGISTRYINDEX, type);
    expected = lua_type(L, -1) == LUA_TTABLE ? lua_topointer(L, -1) : NULL;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return mt == expected ? p : NULL;
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

/* ------------------------------------------------------ option tables */

/* The 0-based position of word in a '|'-separated list, or -1. */
static int list_index(const char *list, const char *word) {
  size_t len = strlen(word);
  int index = 0;
  for (const char *p = list; *p; index++) {
    const char *end = strchr(p, '|');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && strncmp(p, word, n) == 0) return index;
    p += n + (end != NULL);
  }
  return -1;
}

void luma_check_options(lua_State *L, int arg, const char *valid) {
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    if (lua_type(L, -2) != LUA_TSTRING || list_index(valid, lua_tostring(L, -2)) < 0)
      luma_arg_error(L, arg, "unknown option '%s' (valid: %s)", luaL_tolstring(L, -2, NULL),
                     valid);
    lua_pop(L, 1);
  }
}

int luma_opt_boolean(lua_State *L, int arg, const char *key, int dflt) {
  if (lua_isnoneornil(L, arg)) return dflt;
  int t = lua_getfield(L, arg, key);
  int v = t == LUA_TNIL ? dflt : lua_toboolean(L, -1);
  if (t != LUA_TNIL && t != LUA_TBOOLEAN)
    luma_arg_error(L, arg, "option '%s' must be a boolean, got %s", key, luaL_typename(L, -1));
  lua_pop(L, 1);
  return v;
}

double luma_opt_number(lua_State *L, int arg, const char *key, double dflt) {
  if (lua_isnoneornil(L, arg)) return dflt;
  int t = lua_getfield(L, arg, key);
  double v = dflt;
  if (t != LUA_TNIL) {
    int isnum = 0;
    v = lua_tonumberx(L, -1, &isnum);
    if (!isnum || t == LUA_TSTRING || !(v >= 0) || isinf(v))
      luma_arg_error(L, arg, "option '%s' must be a finite number >= 0", key);
  }
  lua_pop(L, 1);
  return v;
}

lua_Integer luma_opt_integer(lua_State *L, int arg, const char *key, lua_Integer dflt) {
  if (lua_isnoneornil(L, arg)) return dflt;
  lua_Integer v = dflt;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    int isint = 0;
    v = lua_tointegerx(L, -1, &isint);
    if (!isint || lua_type(L, -1) == LUA_TSTRING)
      luma_arg_error(L, arg, "option '%s' must be an integer", key);
  }
  lua_pop(L, 1);
  return v;
}

int luma_opt_choice(lua_State *L, int arg, const char *key, const char *choices, int dflt) {
  if (lua_isnoneornil(L, arg)) return dflt;
  if (lua_getfield(L, arg, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return dflt;
  }
  int index = lua_type(L, -1) == LUA_TSTRING ? list_index(choices, lua_tostring(L, -1)) : -1;
  lua_pop(L, 1);
  if (index >= 0) return index;
  return luma_arg_error(L, arg, "option '%s' must be one of %s", key, choices);
}

