/*
 * estimator.c - native estimator classes: luma_define_estimator turns a C
 * spec into the table luma.estimator.class expects, so native and Lua
 * estimators share one implementation of the contract.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "core/numtext.h"

/* Sets the bounds of an interval "[lo, hi)" on the param table at -1:
 * min/gt for the lower end, max/lt for the upper; "inf" ends are open. */
static void set_range(lua_State *L, const char *spec_name, const luma_ParamSpec *p) {
  char open, close, lo[32], hi[32];
  if (sscanf(p->range, " %c %31[^, ] , %31[^] )] %c", &open, lo, hi, &close) != 4 ||
      (open != '[' && open != '(') || (close != ']' && close != ')'))
    luaL_error(L, "%s: parameter '%s' has a malformed range \"%s\" (use \"[0, inf)\")",
               spec_name, p->name, p->range);
  double a = strcmp(lo, "-inf") == 0 ? -HUGE_VAL : luma_strtod_c(lo, NULL);
  double b = strcmp(hi, "inf") == 0 ? HUGE_VAL : luma_strtod_c(hi, NULL);
  if (isfinite(a)) {
    lua_pushnumber(L, a);
    lua_setfield(L, -2, open == '[' ? "min" : "gt");
  }
  if (isfinite(b)) {
    lua_pushnumber(L, b);
    lua_setfield(L, -2, close == ']' ? "max" : "lt");
  }
}

/* values "a|b|c" as a list of strings on the param table at -1. */
static void set_values(lua_State *L, const char *values) {
  lua_newtable(L);
  lua_Integer n = 0;
  for (const char *p = values; *p;) {
    const char *end = strchr(p, '|');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    lua_pushlstring(L, p, len);
    lua_rawseti(L, -2, ++n);
    p += len + (end != NULL);
  }
  lua_setfield(L, -2, "values");
}

static void push_param(lua_State *L, const char *spec_name, const luma_ParamSpec *p) {
  lua_newtable(L);
  lua_pushstring(L, p->name);
  lua_setfield(L, -2, "name");
  lua_pushstring(L, p->type ? p->type : "any");
  lua_setfield(L, -2, "type");
  lua_pushstring(L, p->doc ? p->doc : "");
  lua_setfield(L, -2, "doc");
  if (p->value) {
    lua_pushfstring(L, "return %s", p->value);
    if (luaL_loadbufferx(L, lua_tostring(L, -1), lua_rawlen(L, -1), "=default", "t") != LUA_OK)
      luaL_error(L, "%s: default of '%s' is not a Lua literal (%s)", spec_name, p->name,
                 lua_tostring(L, -1));
    lua_call(L, 0, 1);
    lua_setfield(L, -3, "default");
    lua_pop(L, 1);
  }
  if (p->range) set_range(L, spec_name, p);
  if (p->values) set_values(L, p->values);
}

void luma_define_estimator(lua_State *L, const luma_EstimatorSpec *spec) {
  luaL_checkstack(L, 8, "luma_define_estimator");
  lua_getglobal(L, "require");
  lua_pushliteral(L, "luma.estimator");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "class");
  lua_newtable(L);
  lua_pushstring(L, spec->name);
  lua_setfield(L, -2, "name");
  lua_pushstring(L, spec->kind);
  lua_setfield(L, -2, "kind");
  lua_pushstring(L, spec->doc ? spec->doc : "");
  lua_setfield(L, -2, "doc");
  lua_newtable(L);
  lua_Integer n = 0;
  for (const luma_ParamSpec *p = spec->params; p && p->name; p++) {
    push_param(L, spec->name, p);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "params");
  for (const luaL_Reg *m = spec->methods; m && m->name; m++) {
    lua_pushcfunction(L, m->func);
    lua_setfield(L, -2, m->name);
  }
  lua_call(L, 1, 1);
  lua_remove(L, -2); /* the luma.estimator module */
}
