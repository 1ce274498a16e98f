/*
 * state.c - creating and closing Luma states: the limiting allocator, the
 * instruction-count hook, the warning sink and the sandbox.
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <lualib.h>

#include "core.h"
#include "core/numtext.h"
#include "budget.h"

/* ------------------------------------------------------------ allocator */

/* Why the current run stopped (info->stopped): once a limit is exceeded or
 * the host interrupts, the run is over.  Every later instruction, in any
 * coroutine, raises the same error again until the host's next run, so a
 * script cannot swallow it with pcall and keep looping, and message
 * handlers and finalizers that Lua would run with hooks off are skipped
 * (sandbox.c). */
enum {
  STOP_NONE = LUMA_STOP_NONE,
  STOP_INSTRUCTIONS = LUMA_STOP_INSTRUCTIONS,
  STOP_TIME = LUMA_STOP_TIME,
  STOP_INTERRUPT = LUMA_STOP_INTERRUPT
};

/* New strings of at least BIG_BLOCK bytes are charged to the run's
 * budget, one unit per BIG_BLOCK_BYTES_PER_UNIT bytes (the bulk-copy rate
 * of safelib.c): the instruction or call that makes one ("..",
 * string.upper, sub, format, rep...) copied or wrote all of it, and a
 * loop of `s .. "x"` on 64 MB ran for half a minute between two count
 * hooks.  (Matrices and other userdata are charged by their kernels.) */
enum { BIG_BLOCK = 1 << 16, BIG_BLOCK_BYTES_PER_UNIT = 32 };

/* Whether a run may not have a new string of `size` bytes: over the
 * budget, past the deadline or interrupted.  The first such refusal ends
 * the run (info->stopped), and later big strings of the same run are
 * refused too; the script sees a memory error, its next count hook the
 * stop (and luma_pcall reports the stop).  Outside a run nothing is
 * refused for this, so a host pushing a long string between two runs
 * never meets an error it did not protect against. */
static int refuse_big_string(luma_StateInfo *info, size_t size) {
  if (!info->in_run) return 0;
  if (info->stopped != STOP_NONE) return 1;
  uint64_t units = size / BIG_BLOCK_BYTES_PER_UNIT;
  info->instructions = units > UINT64_MAX - info->instructions ? UINT64_MAX
                                                                : info->instructions + units;
  if (info->instruction_limit != 0 && info->instructions > info->instruction_limit)
    info->stopped = STOP_INSTRUCTIONS;
  else if (atomic_load(&info->interrupted))
    info->stopped = STOP_INTERRUPT;
  else if (info->time_limit > 0 && luma_monotonic_seconds() > info->deadline)
    info->stopped = STOP_TIME;
  return info->stopped != STOP_NONE;
}

/* lua_Alloc that keeps a byte count and refuses to grow past the limit;
 * Lua turns the refusal into a catchable memory error (after an emergency
 * collection).  Big strings are charged (refuse_big_string). */
/* Blocks of at least HUGE_PAGE_BLOCK bytes (matrices, mostly) ask the
 * kernel for transparent huge pages where the machine leaves that to the
 * program (/sys/kernel/mm/transparent_hugepage/enabled = madvise), as
 * NumPy does for its arrays: the first write to each 4 KiB page of a new
 * block is a page fault, and on this project's machines those faults
 * took half the time of an operation that writes a large result (a
 * sparse matrix of 10^7 entries scaled: 88 ms, then 40 ms with huge pages).
 * Only the 2 MiB-aligned interior is advised; a kernel without THP
 * refuses the advice, which changes nothing. */
enum { HUGE_PAGE = 2 << 20, HUGE_PAGE_BLOCK = 4 << 20 };

static void advise_huge_pages(void *block, size_t size) {
  uintptr_t start = ((uintptr_t)block + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  uintptr_t end = ((uintptr_t)block + size) & ~(uintptr_t)(HUGE_PAGE - 1);
  if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  luma_StateInfo *info = ud;
  size_t old = ptr ? osize : 0; /* for new blocks osize is a type tag */
  if (nsize == 0) {
    free(ptr);
    info->used -= old;
    return NULL;
  }
  if (info->limit != 0 && nsize > old && nsize - old > info->limit - info->used)
    return NULL;
  if (ptr == NULL && osize == LUA_TSTRING && nsize >= BIG_BLOCK && refuse_big_string(info, nsize))
    return NULL;
  /* malloc for a new block: realloc(NULL, n) costs a call more, on every
   * table, closure and userdata (a small view is about 250 instructions
   * of allocation and freeing in all) */
  void *block = ptr == NULL ? malloc(nsize) : realloc(ptr, nsize);
  if (block == NULL) return NULL;
  if (nsize >= HUGE_PAGE_BLOCK && nsize > old) advise_huge_pages(block, nsize);
  info->used = info->used - old + nsize;
  return block;
}

luma_StateInfo *luma_state_info(lua_State *L) {
  void *ud = NULL;
  lua_Alloc f = lua_getallocf(L, &ud);
  return f == limited_alloc ? (luma_StateInfo *)ud : NULL;
}

size_t luma_memory_used(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  return info ? info->used : 0;
}

int luma_is_sandboxed(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  return info != NULL && info->sandbox;
}

void luma_check_unsandboxed(lua_State *L, const char *fname) {
  if (luma_is_sandboxed(L)) luaL_error(L, "'%s' is not available in a sandboxed state", fname);
}

/* ------------------------------------------------------ instruction hook */

enum { HOOK_GRANULARITY = 1000 };

static void limit_hook(lua_State *L, lua_Debug *ar);
static void normal_hook(lua_State *L, luma_StateInfo *info);

/* Pushes the message of why the run stopped. */
static void push_stop_message(lua_State *L, const luma_StateInfo *info) {
  switch (info->stopped) {
  case STOP_TIME:
    lua_pushfstring(L, "time limit exceeded (%f s)", (lua_Number)info->time_limit);
    break;
  case STOP_INTERRUPT: lua_pushliteral(L, "interrupted!"); break;
  default:
    if (info->stop_detail[0] != '\0')
      lua_pushfstring(L, "instruction limit exceeded (%I instructions): %s",
                      (lua_Integer)info->instruction_limit, info->stop_detail);
    else
      lua_pushfstring(L, "instruction limit exceeded (%I instructions)",
                      (lua_Integer)info->instruction_limit);
  }
}

/* Raises the stop's error where the script is, as luaL_error would. */
static int raise_stop(lua_State *L, const luma_StateInfo *info) {
  luaL_where(L, 1);
  push_stop_message(L, info);
  lua_concat(L, 2);
  return lua_error(L);
}

int luma_state_end_run(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return 0;
  info->in_run = 0;
  if (info->watchdog != NULL) luma_watchdog_disarm(info->watchdog);
  /* no hook on calls is left between runs (a nudge's, an interrupt's, a
   * stop's): the host's own calls, a buffer's closing among them, would
   * meet the stop outside any protected call */
  normal_hook(L, info);
  return info->stopped != STOP_NONE;
}

void luma_state_push_stop(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL && info->stopped != STOP_NONE) push_stop_message(L, info);
  else lua_pushliteral(L, "limit exceeded");
}

/* Ends the run: from now on every instruction of this thread fails (other
 * coroutines fail at their next hook, within HOOK_GRANULARITY).  Counts
 * only, not calls: the message handler that the error itself calls (a C
 * function, running no instruction) must not fail too.  The first reason
 * stays, with its detail (what was refused, which worker ran out), which
 * every later raise repeats: a pcall between the stop and the host must
 * not leave the host a vaguer message. */
static void fail_from_now_on(lua_State *L, luma_StateInfo *info, int why, const char *detail) {
  if (info->stopped == STOP_NONE) {
    info->stopped = why;
    snprintf(info->stop_detail, sizeof info->stop_detail, "%s", detail ? detail : "");
  }
  lua_sethook(L, limit_hook, LUA_MASKCOUNT, 1);
}

static int stop_run(lua_State *L, int why, const char *detail) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return luaL_error(L, why == STOP_INTERRUPT ? "interrupted!" : "limit exceeded");
  fail_from_now_on(L, info, why, detail);
  return raise_stop(L, info);
}

int luma_state_limit_error(lua_State *L) { return stop_run(L, STOP_INSTRUCTIONS, NULL); }
int luma_state_time_error(lua_State *L) { return stop_run(L, STOP_TIME, NULL); }
int luma_state_interrupt_error(lua_State *L) { return stop_run(L, STOP_INTERRUPT, NULL); }

int luma_state_limit_error_detail(lua_State *L, const char *detail) {
  if (luma_state_info(L) == NULL) return luaL_error(L, "instruction limit exceeded: %s", detail);
  return stop_run(L, STOP_INSTRUCTIONS, detail);
}

int luma_state_stop_reason(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return LUMA_STOP_NONE;
  if (info->stopped != STOP_NONE) return info->stopped;
  return atomic_load(&info->interrupted) ? LUMA_STOP_INTERRUPT : LUMA_STOP_NONE;
}

int luma_state_stopped(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  return info != NULL && (info->stopped != STOP_NONE || atomic_load(&info->interrupted));
}

int luma_state_refuse_cost(lua_State *L, const char *what, double cost, uint64_t left) {
  char detail[sizeof ((luma_StateInfo *)0)->stop_detail];
  luma_snprintf_c(detail, sizeof detail, "%s would cost about %.3g units of work, more than the %llu left",
           what, cost, (unsigned long long)left);
  return luma_state_limit_error_detail(L, detail);
}

void luma_charge(lua_State *L, uint64_t units) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return;
  if (info->stopped != STOP_NONE) raise_stop(L, info);
  /* counted with or without a limit: the clock is read whenever the count
   * passes a multiple of LUMA_CHARGE_CLOCK_UNITS, so a loop of small
   * charges meets the deadline as a large charge does */
  uint64_t before = info->instructions;
  info->instructions = units > UINT64_MAX - before ? UINT64_MAX : before + units;
  if (info->instruction_limit != 0 && info->instructions > info->instruction_limit)
    luma_state_limit_error(L);
  /* luma_state_check_interrupt's test, with the info at hand (the stop
   * was checked above): every small operation charges */
  if (atomic_load(&info->interrupted)) luma_state_interrupt_error(L);
  if (info->time_limit > 0 &&
      before / LUMA_CHARGE_CLOCK_UNITS != info->instructions / LUMA_CHARGE_CLOCK_UNITS &&
      luma_monotonic_seconds() > info->deadline)
    luma_state_time_error(L);
}

double luma_state_deadline(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  return info != NULL && info->time_limit > 0 ? info->deadline : 0;
}

/* The count hook of every thread of a state with limits, and of every
 * coroutine (sandbox.c): a run that has stopped fails again; otherwise
 * the interrupt flag, the instruction count every HOOK_GRANULARITY and the
 * clock at the same moments (a clock read costs about 20 ns).  The call
 * and return events of luma_interrupt's hook land here too. */
static void limit_hook(lua_State *L, lua_Debug *ar) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) { /* only luma_interrupt hooks a state Luma did not make */
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted!");
    return;
  }
  if (info->stopped != STOP_NONE) raise_stop(L, info);
  if (atomic_load(&info->interrupted)) luma_state_interrupt_error(L);
  if (info->instruction_limit != 0 && ar->event == LUA_HOOKCOUNT) {
    info->instructions += (uint64_t)lua_gethookcount(L);
    if (info->instructions > info->instruction_limit) luma_state_limit_error(L);
  }
  if (info->time_limit > 0 && luma_monotonic_seconds() > info->deadline) luma_state_time_error(L);
  /* a nudge (the watchdog's, or one a coroutine kept from an earlier run)
   * found nothing to stop: back to the usual pace */
  if (lua_gethookcount(L) != HOOK_GRANULARITY || lua_gethookmask(L) != LUA_MASKCOUNT)
    lua_sethook(L, limit_hook, LUA_MASKCOUNT, HOOK_GRANULARITY);
}

/* The hook a state's main thread runs with when nothing is pending. */
static void normal_hook(lua_State *L, luma_StateInfo *info) {
  if (info != NULL && (info->instruction_limit != 0 || info->time_limit > 0))
    lua_sethook(L, limit_hook, LUA_MASKCOUNT, HOOK_GRANULARITY);
  else
    lua_sethook(L, NULL, 0, 0);
}

void luma_state_hook_thread(lua_State *co) {
  lua_sethook(co, limit_hook, LUA_MASKCOUNT, HOOK_GRANULARITY);
}

/* The watchdog's call at the deadline (from its own thread): the main
 * thread's hook and that of the coroutine running then fire at their
 * next instruction, whose clock check raises the time-limit error,
 * however long the instructions before it took. */
static void nudge_at_deadline(void *arg, void *target) {
  luma_StateInfo *info = arg;
  int mask = LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT;
  lua_sethook(info->main_thread, limit_hook, mask, 1);
  if (target != NULL && target != info->main_thread) lua_sethook(target, limit_hook, mask, 1);
}

void luma_state_running(lua_State *L, lua_State *running) {
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL && info->watchdog != NULL) luma_watchdog_target(info->watchdog, running);
}

void luma_state_restart_budget(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return;
  atomic_store(&info->interrupted, 0);
  info->stopped = STOP_NONE;
  info->stop_detail[0] = '\0';
  info->instructions = 0;
  info->in_run = 1;
  normal_hook(L, info);
  if (info->time_limit > 0) {
    info->deadline = luma_monotonic_seconds() + info->time_limit;
    if (info->watchdog == NULL) info->watchdog = luma_watchdog_new(nudge_at_deadline, info);
    if (info->watchdog != NULL) {
      luma_watchdog_target(info->watchdog, L);
      luma_watchdog_arm(info->watchdog, info->deadline);
    }
  }
  luma_threads_new_run(L);
}

void luma_state_drop_time_limit(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return;
  info->time_limit = 0;
  /* a forked worker has no watchdog thread, only its memory, whose lock
   * the parent's thread may have held at the fork: never touched again */
  info->watchdog = NULL;
  normal_hook(L, info);
}

void luma_state_check_interrupt(lua_State *L) {
  luma_StateInfo *info = luma_state_info(L);
  if (info == NULL) return;
  if (info->stopped != STOP_NONE) raise_stop(L, info);
  if (atomic_load(&info->interrupted)) luma_state_interrupt_error(L);
}

/* Only async-signal-safe steps: an atomic store and lua_sethook, which Lua
 * documents as safe to call asynchronously.  The hook goes on the main
 * thread; a running coroutine sees the flag at its next count hook. */
void luma_interrupt(lua_State *L) {
  if (L == NULL) return;
  luma_StateInfo *info = luma_state_info(L);
  if (info != NULL) atomic_store(&info->interrupted, 1);
  lua_sethook(L, limit_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* --------------------------------------------------------------- warnings */

static void deliver_warning(luma_StateInfo *info) {
  info->warn_buf[info->warn_len] = '\0';
  if (info->warn)
    info->warn(info->warn_ud, info->warn_buf);
  else
    fprintf(stderr, "luma warning: %s\n", info->warn_buf);
  info->warn_len = 0;
}

/* lua_WarnFunction: joins the pieces of a warning (tocont) into one message
 * and handles the "@on"/"@off" control messages, as stock Lua does. */
static void warn_sink(void *ud, const char *msg, int tocont) {
  luma_StateInfo *info = ud;
  if (!info->warn_continued && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0) info->warn_on = 1;
    else if (strcmp(msg, "@off") == 0) info->warn_on = 0;
    return;
  }
  if (info->warn_on) {
    size_t room = sizeof info->warn_buf - 1 - info->warn_len;
    size_t n = strlen(msg);
    if (n > room) n = room; /* an over-long warning is truncated, not lost */
    memcpy(info->warn_buf + info->warn_len, msg, n);
    info->warn_len += n;
  }
  info->warn_continued = tocont;
  if (!tocont && info->warn_on) deliver_warning(info);
}

/* ---------------------------------------------------------------- sandbox */

/* load() that accepts text chunks only: binary chunks can crash the VM. */
static int sandboxed_load(lua_State *L) {
  lua_settop(L, 4);
  lua_pushliteral(L, "t");
  lua_replace(L, 3);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 4, LUA_MULTRET);
  return lua_gettop(L);
}

/* Keeps only the named fields of the table at the top of the stack. */
static void keep_fields(lua_State *L, const char *const *keep) {
  lua_newtable(L);
  for (const char *const *k = keep; *k; k++) {
    lua_getfield(L, -2, *k);
    lua_setfield(L, -2, *k);
  }
  lua_replace(L, -2);
}

static void apply_sandbox(lua_State *L) {
  static const char *const os_keep[] = {"clock", "time", "date", "difftime", NULL};
  static const char *const debug_keep[] = {"traceback", NULL};

  lua_pushnil(L);
  lua_setglobal(L, "dofile");
  lua_pushnil(L);
  lua_setglobal(L, "loadfile");
  lua_getglobal(L, "load");
  lua_pushcclosure(L, sandboxed_load, 1);
  lua_setglobal(L, "load");

  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getglobal(L, "os");
  keep_fields(L, os_keep);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "os");
  lua_setfield(L, -2, "os");
  lua_getglobal(L, "debug");
  keep_fields(L, debug_keep);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "debug");
  lua_setfield(L, -2, "debug");
  lua_pop(L, 1);

  /* require: only package.preload (where Luma's own modules live). */
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "searchers");
  lua_createtable(L, 1, 0);
  lua_rawgeti(L, -2, 1); /* the preload searcher is always first */
  lua_rawseti(L, -2, 1);
  lua_setfield(L, -3, "searchers");
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_setfield(L, -2, "loadlib");
  lua_pushnil(L);
  lua_setfield(L, -2, "searchpath");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "path");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "cpath");
  lua_pop(L, 1);
  luma_safelib_open(L);
}

static void open_standard_libs(lua_State *L, int sandbox) {
  static const luaL_Reg all[] = {
      {LUA_GNAME, luaopen_base},       {LUA_LOADLIBNAME, luaopen_package},
      {LUA_COLIBNAME, luaopen_coroutine}, {LUA_TABLIBNAME, luaopen_table},
      {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
      {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_OSLIBNAME, luaopen_os},
      {LUA_DBLIBNAME, luaopen_debug},  {LUA_IOLIBNAME, luaopen_io},
      {NULL, NULL}};
  for (const luaL_Reg *lib = all; lib->func; lib++) {
    if (sandbox && lib->func == luaopen_io) continue;
    luaL_requiref(L, lib->name, lib->func, 1);
    lua_pop(L, 1);
  }
  if (sandbox) apply_sandbox(L);
  luma_sandbox_guard(L, sandbox);
}

/* ----------------------------------------------------------- public API */

static int open_state(lua_State *L) {
  const luma_Options *opts = lua_touserdata(L, 1);
  open_standard_libs(L, opts->sandbox);
  if (luma_openlibs(L) != LUA_OK) return lua_error(L);
  if (opts->print) luma_capture_stdout(L);
  return 0;
}

static int panic(lua_State *L) {
  /* Only reached if a host calls a raising API outside a protected call;
   * Lua aborts after this returns, so at least say why. */
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "luma: unprotected error in Lua API call: %s\n", msg ? msg : "?");
  return 0;
}

const char *luma_version(void) {
  return LUMA_VERSION;
}

/* The options of version 0.1, the struct a size of 0 stands for: its last
 * member is print_ud.  A later version that adds members reads them only
 * when the host's size covers them. */
#define OPTIONS_0_1_SIZE (offsetof(luma_Options, print_ud) + sizeof(void *))

lua_State *luma_newstate(const luma_Options *host_opts) {
  luma_Options given = {0};
  if (host_opts != NULL) {
    size_t size = host_opts->size == 0 ? OPTIONS_0_1_SIZE : host_opts->size;
    if (size < OPTIONS_0_1_SIZE || size > sizeof given) return NULL;
    memcpy(&given, host_opts, size);
  }
  const luma_Options *opts = &given;
  luma_StateInfo *info = calloc(1, sizeof *info);
  if (info == NULL) return NULL;
  info->limit = opts->memory_limit;
  info->instruction_limit = opts->instruction_limit;
  info->sandbox = opts->sandbox;
  info->warn = opts->warn;
  info->warn_ud = opts->warn_ud;
  info->warn_on = 1;
  info->threads = opts->threads;
  info->time_limit = opts->time_limit > 0 ? opts->time_limit : 0;
  info->print = opts->print;
  info->print_ud = opts->print_ud;
  atomic_init(&info->interrupted, 0);

  lua_State *L = lua_newstate(limited_alloc, info);
  if (L == NULL) {
    free(info);
    return NULL;
  }
  info->main_thread = L;
  lua_atpanic(L, panic);
  lua_setwarnf(L, warn_sink, info);
  lua_pushcfunction(L, open_state);
  lua_pushlightuserdata(L, (void *)opts);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    luma_close(L);
    return NULL;
  }
  return L;
}

void luma_close(lua_State *L) {
  if (L == NULL) return;
  luma_StateInfo *info = luma_state_info(L);
  lua_close(L);
  if (info != NULL) luma_watchdog_free(info->watchdog);
  free(info);
}
