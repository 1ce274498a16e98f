/*
 * fuzz_common.h - shared helpers of the libFuzzer targets in tests/fuzz.
 *
 * Every target drives Luma through its public entry points (a Lua state
 * made by luma_newstate, the luma.* functions a script would call), so the
 * fuzzer sees exactly what a host or a script sees.  A finding is anything
 * other than a Lua error coming back: a sanitizer report, a crash, a state
 * that no longer runs a fresh script, or a Lua stack left unbalanced.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_FUZZ_COMMON_H
#define LUMA_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/blas.h" /* OpenBLAS's thread control, looked up at run time */

#include "luma.h"

/* Memory limit of the fuzzed states: a hostile file may ask for any size,
 * and the state's allocator must refuse it with a Lua error. */
#define FUZZ_MEMORY_LIMIT ((size_t)64 << 20)

/* Aborts (a libFuzzer finding) with a message. */
static inline void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz finding: %s: %s\n", what, detail ? detail : "");
  abort();
}

/* A fresh state for one input, with the memory limit: nothing carries
 * over between inputs, and closing it must free every byte (LeakSanitizer
 * checks each input whose mallocs and frees do not balance). */
static inline lua_State *fuzz_state(int sandbox) {
  static int blas_pinned = 0;
  if (!blas_pinned) {
    luma_blas_set_threads(1); /* no BLAS thread pool in the fuzzer */
    blas_pinned = 1;
  }
  luma_Options opts = {0};
  opts.sandbox = sandbox;
  opts.memory_limit = FUZZ_MEMORY_LIMIT;
  opts.instruction_limit = 10000000;
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) fuzz_fail("luma_newstate", "returned NULL");
  return L;
}

/* A per-process scratch file for the readers that take a path. */
static inline const char *fuzz_scratch_path(const char *suffix) {
  static char path[256];
  if (path[0] == '\0') {
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, sizeof path, "%s/luma-fuzz-%ld%s", dir, (long)getpid(), suffix);
  }
  return path;
}

static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) fuzz_fail("cannot write scratch file", path);
  if (size > 0 && fwrite(data, 1, size, f) != size) fuzz_fail("short write", path);
  if (fclose(f) != 0) fuzz_fail("cannot close scratch file", path);
}

/* Calls the function below nargs arguments; an error must be a Lua string
 * (never a crash).  Leaves the stack as it was before the function. */
static inline void fuzz_call(lua_State *L, int nargs, const char *what) {
  int base = lua_gettop(L) - nargs - 1;
  int status = luma_pcall(L, nargs, LUA_MULTRET);
  if (status != LUA_OK) {
    if (status != LUA_ERRRUN && status != LUA_ERRMEM)
      fuzz_fail(what, luma_status_string(status));
    if (lua_type(L, -1) != LUA_TSTRING) fuzz_fail(what, "error value is not a string");
  }
  lua_settop(L, base);
}

/* The state must still run a fresh script after whatever happened. */
static inline void fuzz_check_alive(lua_State *L) {
  int top = lua_gettop(L);
  if (luma_run_string(L, "return luma.zeros(2, 2):sum() + 1", "=alive", 1) != LUA_OK ||
      lua_tonumber(L, -1) != 1.0)
    fuzz_fail("state no longer runs a fresh script", lua_tostring(L, -1));
  lua_settop(L, top);
}

/* Pushes luma.<module>.<name> (module NULL: luma.<name>). */
static inline void fuzz_push_function(lua_State *L, const char *module, const char *name) {
  lua_getglobal(L, "luma");
  if (module) {
    lua_getfield(L, -1, module);
    lua_remove(L, -2);
  }
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
  if (!lua_isfunction(L, -1)) fuzz_fail("missing function", name);
}

#endif
