/*
 * fuzz_chunk.c - the Lua chunk runner of a sandboxed state.
 *
 * Each input is run as a script by luma_run_string in a fresh sandboxed
 * state with memory and instruction limits, as a host would run a user's
 * script.  Whatever the script does, the run must end with a Lua status
 * and the state must still run a fresh script afterwards; a sandbox
 * escape (a file created on disk, io reachable) is a finding too.
 * SPDX-License-Identifier: MIT
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  luma_blas_set_threads(1);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0; /* scripts, not data: keep executions fast */
  char *code = malloc(size + 1);
  memcpy(code, data, size);
  code[size] = '\0';
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.memory_limit = (size_t)32 << 20;
  opts.instruction_limit = 200000;
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) fuzz_fail("luma_newstate", "returned NULL");
  int status = luma_run_string(L, code, "=fuzz", LUA_MULTRET);
  if (status != LUA_OK && lua_type(L, -1) != LUA_TSTRING && status != LUA_ERRRUN)
    fuzz_fail("luma_run_string", "error value is not a string");
  lua_settop(L, 0);
  if (luma_run_string(L, "return io == nil and os.execute == nil and package.loadlib == nil "
                         "and debug.sethook == nil", "=sandbox", 1) != LUA_OK ||
      !lua_toboolean(L, -1)) {
    /* A script may overwrite its own globals (io = 1); that is not an
     * escape.  Check the registry's loaded table instead. */
    lua_settop(L, 0);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, "io");
    if (!lua_isnil(L, -1)) fuzz_fail("sandbox", "the io library is loaded");
  }
  lua_settop(L, 0);
  /* A fresh script still runs (one free of globals the script may have
   * replaced; a state the script filled to its memory limit may refuse
   * with a memory error, which is an answer too). */
  status = luma_run_string(L, "return 1 + 1", "=alive", 1);
  if (!(status == LUA_OK && lua_tointeger(L, -1) == 2) && status != LUA_ERRMEM)
    fuzz_fail("state no longer runs a fresh script", lua_tostring(L, -1));
  lua_settop(L, 0);
  luma_close(L);
  free(code);
  return 0;
}
