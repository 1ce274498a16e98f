/*
 * doc.c - the documentation registry behind help().
 *
 * Records live in two registry tables: one keyed by the documented object
 * (weak keys, so documenting a value never keeps it alive) and one keyed by
 * qualified name (weak values).  Each record is a table
 * {name = "luma.matrix.zeros", signature = "zeros(rows, cols)", doc = "..."}
 * to which Lua code may add fields (estimators add `params`).
 * SPDX-License-Identifier: MIT
 */
#include "core.h"

static const char BY_OBJECT = 'o';
static const char BY_NAME = 'n';

/* Pushes the registry table stored at key, creating it with the given weak
 * mode on first use. */
static void push_weak_table(lua_State *L, const void *key, const char *mode) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* Stores the record on top of the stack for the object at obj; pops it. */
static void store_record(lua_State *L, int obj) {
  obj = lua_absindex(L, obj);
  push_weak_table(L, &BY_OBJECT, "k");
  lua_pushvalue(L, obj);
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  if (lua_getfield(L, -1, "name") == LUA_TSTRING) {
    push_weak_table(L, &BY_NAME, "v");
    lua_insert(L, -2);
    lua_pushvalue(L, obj);
    lua_rawset(L, -3);
  }
  lua_pop(L, 2);
}

void luma_doc_set(lua_State *L, int idx, const char *qualname, const char *signature,
                  const char *doc) {
  idx = lua_absindex(L, idx);
  lua_createtable(L, 0, 3);
  lua_pushstring(L, qualname);
  lua_setfield(L, -2, "name");
  if (signature) {
    lua_pushstring(L, signature);
    lua_setfield(L, -2, "signature");
  }
  if (doc) {
    lua_pushstring(L, doc);
    lua_setfield(L, -2, "doc");
  }
  store_record(L, idx);
}

void luma_register_funcs(lua_State *L, int tidx, const char *prefix, const luma_Func *funcs) {
  tidx = lua_absindex(L, tidx);
  for (const luma_Func *f = funcs; f->name; f++) {
    lua_pushcfunction(L, f->func);
    const char *qualname = lua_pushfstring(L, "%s.%s", prefix, f->name);
    luma_doc_set(L, -2, qualname, f->signature, f->doc);
    lua_pop(L, 1);
    lua_setfield(L, tidx, f->name);
  }
}

/* luma.doc.get(x): the record of x (an object, or a qualified name). */
static int doc_get(lua_State *L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TSTRING) {
    push_weak_table(L, &BY_NAME, "v");
    lua_pushvalue(L, 1);
    if (lua_rawget(L, -2) == LUA_TNIL) return 1;
    lua_replace(L, 1);
  }
  push_weak_table(L, &BY_OBJECT, "k");
  lua_pushvalue(L, 1);
  lua_rawget(L, -2);
  return 1;
}

/* luma.doc.set(x, record): documents x; record.name is required. */
static int doc_set(lua_State *L) {
  luaL_checkany(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  if (lua_getfield(L, 2, "name") != LUA_TSTRING)
    return luma_arg_error(L, 2, "record needs a string field 'name'");
  lua_pop(L, 1);
  lua_pushvalue(L, 2);
  store_record(L, 1);
  return 0;
}

/* luma.doc.set_members(tbl, prefix, records): documents tbl[key] with
 * records[key] for every key, naming it prefix.key unless the record has a
 * name; a key tbl does not have is an error (a misspelt record). */
static int doc_set_members(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const char *prefix = luaL_checkstring(L, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, 3)) {
    if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
      return luma_arg_error(L, 3, "records must be tables keyed by member name");
    const char *key = lua_tostring(L, -2);
    if (lua_getfield(L, 1, key) == LUA_TNIL)
      return luma_arg_error(L, 1, "no member '%s' to document", key);
    if (lua_getfield(L, -2, "name") == LUA_TNIL) {
      lua_pushfstring(L, "%s.%s", prefix, key);
      lua_setfield(L, -4, "name");
    }
    lua_pop(L, 1);
    lua_pushvalue(L, -2);
    store_record(L, -2);
    lua_pop(L, 2);
  }
  return 0;
}

/* luma.doc.names(): sorted-free array of every documented qualified name. */
static int doc_names(lua_State *L) {
  push_weak_table(L, &BY_NAME, "v");
  lua_newtable(L);
  lua_Integer n = 0;
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, ++n);
  }
  return 1;
}

void luma_open_doc(lua_State *L, int tidx) {
  static const luma_Func funcs[] = {
      {"get", doc_get, "doc.get(x) -> record | nil",
       "Returns the documentation record of x (a documented value or its qualified name such "
       "as \"luma.matrix.zeros\"), or nil. A record has fields name, signature and doc."},
      {"set", doc_set, "doc.set(x, record) -> nothing",
       "Documents x with record, a table with at least a string field name; Lua modules "
       "use it to make their functions known to help()."},
      {"set_members", doc_set_members, "doc.set_members(tbl, prefix, records) -> nothing",
       "Documents several members at once: tbl[key] gets records[key], named prefix.key "
       "unless the record names itself. Returns nothing; a record for a member tbl lacks is "
       "an error."},
      {"names", doc_names, "doc.names() -> table of strings",
       "Returns an array of every documented qualified name, in no particular order."},
      {NULL, NULL, NULL, NULL}};
  tidx = lua_absindex(L, tidx);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.doc", funcs);
  luma_doc_set(L, -1, "luma.doc", NULL,
               "The documentation registry that help() reads; every module fills it.");
  lua_setfield(L, tidx, "doc");
}
