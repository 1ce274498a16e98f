/*
 * threads.c - each state's thread pool for native loops: created on first
 * use inside a userdata (so the collector closes it with the state),
 * configured per state, and tied to the state's limits: loops stop on the
 * state's interrupt flag and on what is left of its instruction budget.
 *
 * The pool's meter (core/parallel.h) counts the units native work spent
 * since they were last added to the state's instruction count; they are
 * added (committed) whenever a binding takes the pool (luma_threads_of)
 * and when it is done (luma_threads_finish), so a binding that calls
 * back into Lua, which runs other bindings, loses no charge: between two
 * commits t->budget is exactly what the state has left.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>

#include "core.h"
#include "core/blas.h"
#include "core/parallel.h"
#include "budget.h"

/* Registry keys: the pool userdata and its metatable (addresses only). */
static const char POOL_KEY = 0;
static const char POOL_META_KEY = 0;

static int pool_gc(lua_State *L) {
  luma_threads_shutdown(lua_touserdata(L, 1));
  return 0;
}

/* The thread count a new pool starts with: the host's option, else
 * LUMA_NUM_THREADS (ignored with a warning unless a positive integer),
 * else the cores; never more than the cores.  OpenBLAS keeps its own
 * setting (OPENBLAS_NUM_THREADS) until a script calls luma.config. */
static int initial_count(lua_State *L) {
  int cores = luma_threads_cores();
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL && info->threads > 0) return info->threads < cores ? info->threads : cores;
  const char *env = getenv("LUMA_NUM_THREADS");
  if (env != NULL && *env != '\0') {
    char *end = NULL;
    long n = strtol(env, &end, 10);
    if (*end == '\0' && n >= 1) return n < cores ? (int)n : cores;
    lua_warning(L, "LUMA_NUM_THREADS must be a positive integer; using the number of cores", 0);
  }
  return cores;
}

static luma_Threads *pool_of(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &POOL_KEY) == LUA_TUSERDATA) {
    luma_Threads *t = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return t;
  }
  lua_pop(L, 1);
  luma_Threads *t = lua_newuserdatauv(L, sizeof *t, 0);
  luma_threads_init(t, initial_count(L));
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &POOL_META_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, pool_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &POOL_META_KEY);
  }
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &POOL_KEY);
  return t;
}

/* Adds the meter's units to the state's count and reads the budget left. */
static void commit(luma_StateInfo *info, luma_Threads *t) {
  uint64_t spent = atomic_exchange(&t->spent, 0);
  t->budget = UINT64_MAX;
  if (info == NULL || info->instruction_limit == 0) return;
  info->instructions = spent > UINT64_MAX - info->instructions ? UINT64_MAX
                                                               : info->instructions + spent;
  t->budget = info->instructions < info->instruction_limit
                  ? info->instruction_limit - info->instructions
                  : 0;
}

luma_Threads *luma_threads_of(lua_State *L) {
  luma_Threads *t = pool_of(L);
  luma_StateInfo *info = luma_state_info(L);
  commit(info, t);
  atomic_store(&t->stop, LUMA_LOOP_DONE);
  t->interrupt = info ? &info->interrupted : NULL;
  t->deadline = luma_state_deadline(L);
  return t;
}

void luma_threads_finish(lua_State *L, luma_Threads *t, int status) {
  if (status == LUMA_LOOP_DONE) status = luma_work_status(t);
  commit(luma_state_info(L), t);
  atomic_store(&t->stop, LUMA_LOOP_DONE);
  switch ((luma_LoopStatus)status) {
  case LUMA_LOOP_DONE: return;
  case LUMA_LOOP_INTERRUPTED: luma_state_interrupt_error(L); return;
  case LUMA_LOOP_OVER_BUDGET: luma_state_limit_error(L); return;
  case LUMA_LOOP_TIMEOUT: luma_state_time_error(L); return;
  }
}

void luma_threads_new_run(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &POOL_KEY) == LUA_TUSERDATA)
    luma_work_reset(lua_touserdata(L, -1));
  lua_pop(L, 1);
}

luma_Threads *luma_meter(lua_State *L, uint64_t units) {
  if (units < LUMA_WORK_CHUNK) {
    luma_charge(L, units);
    return NULL;
  }
  return luma_threads_of(L);
}

void luma_meter_done(lua_State *L, luma_Threads *t) {
  if (t != NULL) luma_threads_finish(L, t, LUMA_LOOP_DONE);
}

void luma_charge_uninterruptible(lua_State *L, double cost, const char *what) {
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL && info->instruction_limit != 0) {
    luma_Threads *t = luma_threads_of(L); /* commits what the pool spent */
    luma_threads_finish(L, t, LUMA_LOOP_DONE);
    if (!(cost <= (double)t->budget)) luma_state_refuse_cost(L, what, cost, t->budget);
  }
  luma_charge(L, cost < 1.8e19 ? (uint64_t)cost : UINT64_MAX);
}

void luma_threads_configure(lua_State *L, int count) {
  int cores = luma_threads_cores();
  if (count > cores) count = cores;
  luma_threads_set_count(pool_of(L), count);
  luma_blas_set_threads(count);
}

int luma_threads_count(lua_State *L) { return pool_of(L)->count; }
