/*
 * api_fuzz.c - the driver of the Lua API fuzzer (tests/c/api_fuzz.lua).
 *
 * Runs the script in a Luma state with a memory limit (so "huge size"
 * arguments meet the allocator's refusal instead of the machine's RAM) and
 * gives it guarded_call(f, ...), which calls f through luma_pcall with a
 * fresh instruction budget, so a function that loops forever on a bad
 * argument is reported instead of hanging the suite.  Under the sanitizer
 * build (make check) any memory error or undefined behaviour aborts the
 * process, which the test runner reports as a failure.
 *
 *   api_fuzz [script]   (default tests/c/api_fuzz.lua; LUMA_API_FUZZ_VERBOSE=1
 *                        names each function before calling it)
 * Prints the script's report and "N passed, N failed".
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cblas.h>

#include "luma.h"

static int noop(lua_State *L) {
  (void)L;
  return 0;
}

/* guarded_call(f, ...) -> true, results... | false, status word, message */
static int guarded_call(lua_State *L) {
  int nargs = lua_gettop(L) - 1;
  luaL_checkany(L, 1);
  int status = luma_pcall(L, nargs, LUA_MULTRET);
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    /* give the caller a fresh budget again: the callee may have used it up */
    lua_pushcfunction(L, noop);
    luma_pcall(L, 0, 0);
    return lua_gettop(L);
  }
  lua_pushboolean(L, 0);
  lua_pushstring(L, luma_status_string(status));
  lua_pushvalue(L, -3);
  lua_pushcfunction(L, noop);
  luma_pcall(L, 0, 0);
  return 3;
}

/* Removes the scratch directory and whatever the calls left in it. */
static void remove_scratch(const char *dir) {
  DIR *d = opendir(dir);
  if (d != NULL) {
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      remove(path);
    }
    closedir(d);
  }
  rmdir(dir);
}

/* Warnings are expected by the thousand (bad arguments provoke them) and
 * say nothing about the API's health: counted for the report, not printed,
 * so `make test` shows only real problems. */
static void count_warning(void *ud, const char *msg) {
  (void)msg;
  (*(long *)ud)++;
}

int main(int argc, char **argv) {
  const char *script = argc > 1 ? argv[1] : "tests/c/api_fuzz.lua";
  openblas_set_num_threads(1);
  long warnings = 0;
  luma_Options opts = {0};
  opts.memory_limit = (size_t)256 << 20;
  opts.instruction_limit = 50000000;
  opts.warn = count_warning;
  opts.warn_ud = &warnings;
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) {
    printf("cannot create a state\n0 passed, 1 failed\n");
    return 1;
  }
  lua_register(L, "guarded_call", guarded_call);
  /* Functions that print (help, the REPL's printer) write to /dev/null
   * while the script runs; the report comes back as its result. */
  fflush(stdout);
  int saved_stdout = dup(1), devnull = open("/dev/null", O_WRONLY);
  if (saved_stdout >= 0 && devnull >= 0) dup2(devnull, 1);
  int status = luaL_loadfilex(L, script, "t");
  /* The calls run in a scratch directory: a string argument that some
   * function takes for a file name ("abc") lands there, not in the tree. */
  char cwd[4096], scratch[] = "/tmp/luma-api-fuzz-XXXXXX";
  int moved = getcwd(cwd, sizeof cwd) != NULL && mkdtemp(scratch) != NULL && chdir(scratch) == 0;
  if (status == LUA_OK) {
    /* no instruction limit on the script's own loop in practice: every
     * guarded_call restarts the budget */
    status = luma_pcall(L, 0, 1);
  }
  fflush(stdout);
  if (moved && chdir(cwd) == 0) remove_scratch(scratch);
  if (saved_stdout >= 0 && devnull >= 0) dup2(saved_stdout, 1);
  if (devnull >= 0) close(devnull);
  if (saved_stdout >= 0) close(saved_stdout);
  int passed = 0, failed = 1;
  if (status != LUA_OK) {
    printf("api_fuzz: %s\n", lua_tostring(L, -1));
  } else if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "report");
    printf("%s\napi_fuzz: %ld warnings (not printed)\n", lua_tostring(L, -1), warnings);
    lua_pop(L, 1);
    lua_getfield(L, -1, "passed");
    lua_getfield(L, -2, "failed");
    passed = (int)lua_tointeger(L, -2);
    failed = (int)lua_tointeger(L, -1);
  }
  luma_close(L); /* LeakSanitizer: closing frees everything */
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
