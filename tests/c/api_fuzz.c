/*
 * api_fuzz.c - the driver of the Lua API fuzzer (tests/c/api_fuzz.lua)
 * and of the limits probe (tests/c/limits_probe.lua, --probe).
 *
 * Runs the script in a Luma state with a memory limit (so "huge size"
 * arguments meet the allocator's refusal instead of the machine's RAM) and
 * gives it guarded_call(f, ...), which calls f through luma_pcall with a
 * fresh instruction budget, so a function that loops forever on a bad
 * argument is reported instead of hanging the suite.  Under the sanitizer
 * build (make check) any memory error or undefined behaviour aborts the
 * process, which the test runner reports as a failure.
 *
 * Both scripts walk the registry of tests/c/api_registry.lua (found next
 * to the script), which the driver loads and hands over as the global
 * `api_registry`, with the native types' metatables as `native_types`.
 *
 * --probe runs the script in a sandboxed state with a small instruction
 * budget (PROBE_BUDGET, also the global `probe_budget`) and the same
 * memory limit, as an attacker's script would run, and watches every
 * call: one running past WATCHDOG_SECONDS, or a crash, ends the process
 * with the call named (set_current(description) names it).
 *
 *   api_fuzz [--probe] [script]   (default tests/c/api_fuzz.lua;
 *       LUMA_API_FUZZ_VERBOSE=1 names each function before calling it;
 *       LUMA_PROBE_ONLY=text probes only the names containing text;
 *       LUMA_PROBE_FROM=name starts at that name)
 * Prints the script's report and "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/blas.h"
#include "luma.h"

/* The probe's instruction budget per call (see docs/RELIABILITY.md). */
#define PROBE_BUDGET 500000
/* A probe call running this long is interrupted (luma_interrupt, as a
 * host would: metered native loops and Lua code stop, the call is
 * reported as slow and the probe goes on); one still running at
 * WATCHDOG_SECONDS is a hang: the process ends, naming it. */
#define INTERRUPT_SECONDS 5
#define WATCHDOG_SECONDS 30
static lua_State *probed_state;

/* What the probe is calling, for the watchdog and the crash handler. */
static char current[512] = "(startup)";
static atomic_llong call_started_ms;

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* set_current(description): names the call about to run. */
static int set_current(lua_State *L) {
  snprintf(current, sizeof current, "%s", luaL_checkstring(L, 1));
  atomic_store(&call_started_ms, now_ms());
  return 0;
}

static void say_current(const char *what) {
  /* async-signal-safe: write(2) only */
  ssize_t r = write(2, what, strlen(what));
  r = write(2, current, strlen(current));
  r = write(2, "\n0 passed, 1 failed\n", 21);
  (void)r;
}

static void on_crash(int sig) {
  say_current(sig == SIGSEGV ? "limits probe: segmentation fault in " : "limits probe: crash in ");
  _exit(1);
}

static void *watchdog(void *arg) {
  (void)arg;
  long long interrupted = 0;
  for (;;) {
    sleep(1);
    long long started = atomic_load(&call_started_ms);
    if (started > 0 && started != interrupted && now_ms() - started > INTERRUPT_SECONDS * 1000LL) {
      interrupted = started;
      luma_interrupt(probed_state);
    }
    if (started > 0 && now_ms() - started > WATCHDOG_SECONDS * 1000LL) {
      say_current("limits probe: a call ran past the watchdog (" "30" " s): ");
      _exit(1);
    }
  }
  return NULL;
}

/* The registry's "luma.*" metatables as a plain table (global
 * native_types): the walk needs them, and a sandboxed script has no
 * debug.getregistry. */
static void set_native_types(lua_State *L) {
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, LUA_REGISTRYINDEX)) {
    if (lua_type(L, -2) == LUA_TSTRING && strncmp(lua_tostring(L, -2), "luma.", 5) == 0 &&
        lua_istable(L, -1)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, -4);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_setglobal(L, "native_types");
}

/* Runs tests/c/api_registry.lua (next to the script) into the global
 * api_registry. */
static int load_registry(lua_State *L, const char *script) {
  char path[4096];
  const char *slash = strrchr(script, '/');
  int dir = slash ? (int)(slash - script) : 1;
  snprintf(path, sizeof path, "%.*s/api_registry.lua", dir, slash ? script : ".");
  int status = luaL_loadfilex(L, path, "t");
  if (status == LUA_OK) status = luma_pcall(L, 0, 1);
  if (status != LUA_OK) return status;
  lua_setglobal(L, "api_registry");
  set_native_types(L);
  return LUA_OK;
}

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
  int probe = argc > 1 && strcmp(argv[1], "--probe") == 0;
  const char *script = argc > 1 + probe ? argv[1 + probe] : "tests/c/api_fuzz.lua";
  luma_blas_set_threads(1);
  long warnings = 0;
  luma_Options opts = {0};
  opts.memory_limit = (size_t)256 << 20;
  opts.instruction_limit = probe ? PROBE_BUDGET : 50000000;
  opts.sandbox = probe;
  opts.warn = count_warning;
  opts.warn_ud = &warnings;
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) {
    printf("cannot create a state\n0 passed, 1 failed\n");
    return 1;
  }
  lua_register(L, "guarded_call", guarded_call);
  lua_register(L, "set_current", set_current);
  lua_pushinteger(L, opts.instruction_limit);
  lua_setglobal(L, "probe_budget");
  /* LUMA_PROBE_ONLY=text: probe only the targets whose name contains it */
  lua_pushstring(L, getenv("LUMA_PROBE_ONLY"));
  lua_setglobal(L, "probe_only");
  /* make check runs the probe under ASan: calls are slower there */
  lua_pushboolean(L, getenv("LUMA_SANITIZED") != NULL && strcmp(getenv("LUMA_SANITIZED"), "1") == 0);
  lua_setglobal(L, "probe_sanitized");
  /* LUMA_PROBE_FROM=name: start at that target (resuming after a hang) */
  lua_pushstring(L, getenv("LUMA_PROBE_FROM"));
  lua_setglobal(L, "probe_from");
  if (probe) {
    pthread_t dog;
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    signal(SIGABRT, on_crash);
    probed_state = L;
    if (pthread_create(&dog, NULL, watchdog, NULL) == 0) pthread_detach(dog);
  }
  /* Functions that print (help, the REPL's printer) write to /dev/null
   * while the script runs; the report comes back as its result. */
  fflush(stdout);
  int saved_stdout = dup(1), devnull = open("/dev/null", O_WRONLY);
  if (saved_stdout >= 0 && devnull >= 0) dup2(devnull, 1);
  int status = load_registry(L, script);
  if (status == LUA_OK) status = luaL_loadfilex(L, script, "t");
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
