/*
 * test_embed.c - tests of the C embedding API (luma.h): states, limits,
 * sandbox, running code, matrices across the boundary, misuse, threads.
 * Prints one line per failed check and ends with "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "luma.h"

static int passed = 0, failed = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      passed++;                                                                \
    } else {                                                                   \
      failed++;                                                                \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
    }                                                                          \
  } while (0)

/* Runs code expecting success; returns the string result (static copy). */
static const char *eval_string(lua_State *L, const char *code) {
  static char result[512];
  int top = lua_gettop(L);
  int status = luma_run_string(L, code, "=test", 1);
  const char *s = lua_tostring(L, -1);
  snprintf(result, sizeof result, "%s%s", status == LUA_OK ? "" : "ERROR: ", s ? s : "(nil)");
  lua_settop(L, top);
  return result;
}

/* Runs code expecting failure; returns the status and copies the message. */
static int run_failing(lua_State *L, const char *code, char *msg, size_t size) {
  int top = lua_gettop(L);
  int status = luma_run_string(L, code, "=test", 0);
  const char *s = lua_tostring(L, -1);
  snprintf(msg, size, "%s", status != LUA_OK && s ? s : "");
  lua_settop(L, top);
  return status;
}

static void test_basic_state(void) {
  lua_State *L = luma_newstate(NULL);
  CHECK(L != NULL);
  CHECK(strcmp(eval_string(L, "return luma.VERSION"), LUMA_VERSION) == 0);
  CHECK(strcmp(eval_string(L, "return tostring(1 + 2)"), "3") == 0);
  CHECK(strcmp(eval_string(L, "return type(io)"), "table") == 0);
  CHECK(luma_memory_used(L) > 0);
  char msg[512];
  CHECK(run_failing(L, "x = = 1", msg, sizeof msg) == LUA_ERRSYNTAX);
  CHECK(strstr(msg, "unexpected symbol") != NULL);
  CHECK(run_failing(L, "local function f() error('boom') end f()", msg, sizeof msg) ==
        LUA_ERRRUN);
  CHECK(strstr(msg, "test:1: boom") == msg);
  CHECK(strstr(msg, "stack traceback:") != NULL);
  CHECK(luma_run_string(L, NULL, NULL, 0) == LUA_ERRRUN);
  lua_pop(L, 1);
  CHECK(luma_run_file(L, "/nonexistent/file.lua", 0) == LUA_ERRFILE);
  CHECK(strstr(lua_tostring(L, -1), "cannot open /nonexistent/file.lua") != NULL);
  lua_pop(L, 1);
  CHECK(luma_run_file(L, NULL, 0) == LUA_ERRFILE);
  lua_pop(L, 1);
  /* Several results. */
  CHECK(luma_run_string(L, "return 1, 2, 3", NULL, LUA_MULTRET) == LUA_OK);
  CHECK(lua_gettop(L) == 3 && lua_tointeger(L, 3) == 3);
  lua_settop(L, 0);
  luma_close(L);
  luma_close(NULL); /* harmless */
}

/* luma_version is the library's own version; luma_Options.size: 0 and
 * sizeof both give the options asked for, sizes the library does not know
 * give NULL rather than options half read. */
static void test_version_and_options_size(void) {
  CHECK(strcmp(luma_version(), LUMA_VERSION) == 0);
  luma_Options opts = {0};
  opts.sandbox = 1;
  lua_State *L = luma_newstate(&opts); /* size 0: this version's struct */
  CHECK(L != NULL);
  CHECK(strcmp(eval_string(L, "return type(io)"), "nil") == 0);
  luma_close(L);
  opts.size = sizeof opts;
  L = luma_newstate(&opts);
  CHECK(L != NULL);
  CHECK(strcmp(eval_string(L, "return type(io)"), "nil") == 0);
  luma_close(L);
  opts.size = sizeof opts + 8; /* a host built against a newer luma.h */
  CHECK(luma_newstate(&opts) == NULL);
  opts.size = offsetof(luma_Options, sandbox); /* shorter than any version */
  CHECK(luma_newstate(&opts) == NULL);
}

static void test_memory_limit(void) {
  luma_Options opts = {0};
  opts.memory_limit = 8u << 20;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  char msg[512];
  /* A 2000 x 2000 matrix needs 32 MB. */
  CHECK(run_failing(L, "local A = luma.zeros(2000, 2000)", msg, sizeof msg) == LUA_ERRMEM);
  CHECK(strstr(msg, "not enough memory") != NULL);
  CHECK(run_failing(L, "local t = {} for i = 1, 1e7 do t[i] = i end", msg, sizeof msg) ==
        LUA_ERRMEM);
  CHECK(luma_memory_used(L) <= opts.memory_limit);
  /* The state survives and runs a fresh script. */
  CHECK(strcmp(eval_string(L, "return tostring(luma.zeros(100, 100):rows())"), "100") == 0);
  /* A script can catch its own memory error with pcall. */
  CHECK(strcmp(eval_string(L, "local ok, e = pcall(luma.zeros, 5000, 5000) "
                              "return tostring(ok) .. ' ' .. e"),
               "false not enough memory") == 0);
  luma_close(L);

  /* Too small to hold even an empty state. */
  opts.memory_limit = 1024;
  CHECK(luma_newstate(&opts) == NULL);
}

static void test_instruction_limit(void) {
  luma_Options opts = {0};
  opts.instruction_limit = 1000000;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  char msg[512];
  CHECK(run_failing(L, "while true do end", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded") != NULL);
  /* pcall cannot swallow the limit and loop on. */
  CHECK(run_failing(L, "while true do pcall(function() while true do end end) end", msg,
                    sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded") != NULL);
  /* Coroutines inherit the limit. */
  CHECK(run_failing(L, "coroutine.wrap(function() while true do end end)()", msg,
                    sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded") != NULL);
  /* Each run gets a fresh budget: this one fits. */
  CHECK(strcmp(eval_string(L, "local s = 0 for i = 1, 1000 do s = s + i end "
                              "return tostring(s)"),
               "500500") == 0);
  luma_close(L);
}

/* Native loops (src/ml/core/parallel.c) are charged to the instruction
 * budget: one call with few VM instructions but ~10^8 units of work (a
 * 3000 x 3000 distance matrix, 50 features) fails at the budget.  The
 * traceback starts in the C function: the loop itself raised the error,
 * not the VM hook after the call returned. */
static void test_instruction_limit_in_native_loops(void) {
  static const char *const threads[] = {"1", "2"};
  for (int k = 0; k < 2; k++) {
    luma_Options opts = {0};
    opts.instruction_limit = 1000000;
    opts.threads = atoi(threads[k]);
    lua_State *L = luma_newstate(&opts);
    CHECK(L != NULL);
    char msg[512];
    /* uniform draws are the cheapest (2 units each): the budget runs out
     * in the distances, not in making the data */
    CHECK(run_failing(L, "X = luma.random.Generator(1):uniform(3000, 50) "
                         "return luma.pairwise.distances(X)",
                      msg, sizeof msg) == LUA_ERRRUN);
    CHECK(strstr(msg, "instruction limit exceeded") != NULL);
    CHECK(strstr(msg, "[C]: in function 'luma.pairwise.distances'") != NULL);
    /* An element-wise loop: 6 x 10^5 elements to fill, then 6 x 10^5 to
     * exponentiate, over a 10^6 budget. */
    CHECK(run_failing(L, "return luma.zeros(1000, 600):exp()", msg, sizeof msg) == LUA_ERRRUN);
    CHECK(strstr(msg, "instruction limit exceeded") != NULL);
    CHECK(strstr(msg, "[C]: in method 'exp'") != NULL);
    /* The next run has a fresh budget, and small loops fit in it. */
    CHECK(strcmp(eval_string(L, "return tostring(luma.pairwise.distances("
                                "luma.matrix{{0, 0}, {3, 4}}):get(1, 2))"),
                 "5.0") == 0);
    luma_close(L);
  }
}

/* Issue 24: limits bind inside serial native kernels too.  A sandboxed
 * state with a 256 MB memory limit and a small budget: degenerate shapes
 * cost nothing, a sort, a sum, a tostring over many elements and a
 * sampler with a huge count end at the budget from inside the C
 * function; a script that catches the limit error with pcall cannot go
 * on; one BLAS product that cannot be interrupted is refused up front
 * with its estimated cost; the next run works. */
static void test_limits_in_serial_kernels(void) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.memory_limit = (size_t)256 << 20;
  opts.instruction_limit = 2000000;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  char msg[1024];
  /* 2^31 - 1 rows of nothing: every kernel returns at once */
  CHECK(strcmp(eval_string(L, "local E = luma.zeros(2^31 - 1, 0) "
                              "local s = E:sum() + E:t():sum() + E:t():norm() "
                              "local S = E:t():sort() local T = E:take({}, 2) "
                              "return tostring(E:t()):sub(1, 24) .. ' ' .. s .. ' ' .. "
                              "S:cols() .. ' ' .. T:rows() .. ' ' .. #E:t():totable()"),
               "matrix 0 x 2147483647 (v 0.0 2147483647 2147483647 0") == 0);
  /* the largest dimension */
  CHECK(run_failing(L, "return luma.zeros(2^31, 0)", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "rows must be in [0, 2147483647], got 2147483648") != NULL);
  CHECK(run_failing(L, "return luma.zeros(3, 0):reshape(2^31, 0)", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "cannot reshape 3 x 0 (0 elements) into 2147483648 x 0") != NULL);
  CHECK(run_failing(L, "return luma.ones(2^20, 1):kron(luma.ones(2^12, 1))", msg, sizeof msg) ==
        LUA_ERRRUN);
  CHECK(strstr(msg, "the Kronecker product would be 4294967296 x 1: too large") != NULL);
  /* serial kernels stop at the budget from inside (the traceback starts
   * in the C function) */
  static const char *const kernels[][2] = {
      {"local A = luma.arange(1500000, 1, -1):reshape(1500, 1000) return A:sort()", "'sort'"},
      {"local A = luma.arange(1, 1500000):t() return A:unique()", "'unique'"},
      {"local A = luma.ones(1500, 1000) return A:sum(2), A:sum(1), A:cumsum()", "'sum'"},
      {"local A = luma.ones(500, 1000) return A:totable()", "'totable'"},
      {"return luma.special.gammainccinv(luma.full(200, 1, 2^31), 0.9999)", "gammainccinv"},
  };
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
    CHECK(run_failing(L, kernels[k][0], msg, sizeof msg) == LUA_ERRRUN);
    CHECK(strstr(msg, "instruction limit exceeded (2000000 instructions)") != NULL);
    CHECK(strstr(msg, "[C]: in ") != NULL && strstr(msg, kernels[k][1]) != NULL);
  }
  /* pcall cannot swallow a limit raised inside native code */
  CHECK(run_failing(L, "local A = luma.ones(1500, 1000) "
                       "for i = 1, 100 do pcall(A.sort, A) end return 'went on'",
                    msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded") != NULL);
  /* one uninterruptible product: refused before it starts */
  CHECK(run_failing(L, "local A = luma.ones(1000, 1000) return A * A", msg, sizeof msg) ==
        LUA_ERRRUN);
  CHECK(strstr(msg, "this matrix product would cost about 1e+09 units of work, more than the") !=
        NULL);
  CHECK(strcmp(eval_string(L, "return tostring((luma.ones(2, 3) * luma.ones(3, 2)):sum())"),
               "12.0") == 0);
  luma_close(L);
}

/* luma_interrupt from another thread stops a long native loop (a
 * Minkowski distance matrix needing about 10^9 pow calls, minutes of
 * work) from inside: the error is raised by the C function (the traceback
 * starts there).  The state then runs the next script normally. */
typedef struct Interrupter {
  lua_State *L;
  int delay_ms;
} Interrupter;

static void *interrupt_later(void *arg) {
  Interrupter *it = arg;
  struct timespec ts = {0, (long)it->delay_ms * 1000000L};
  nanosleep(&ts, NULL);
  luma_interrupt(it->L);
  return NULL;
}

static void test_interrupt_native_loop(void) {
  luma_Options opts = {0};
  opts.threads = 2;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  pthread_t thread;
  Interrupter it = {L, 200};
  pthread_create(&thread, NULL, interrupt_later, &it);
  char msg[512];
  int status = run_failing(L, "local X = luma.random.Generator(1):normal(6000, 100) "
                              "return luma.pairwise.distances(X, 'minkowski', {p = 3})",
                           msg, sizeof msg);
  pthread_join(thread, NULL);
  CHECK(status == LUA_ERRRUN);
  CHECK(strstr(msg, "interrupted!") != NULL);
  CHECK(strstr(msg, "[C]: in function 'luma.pairwise.distances'") != NULL);
  CHECK(strcmp(eval_string(L, "return tostring(1 + 1)"), "2") == 0);
  /* a serial kernel (a 6 x 10^6 merge sort, ~1 s) stops the same way */
  it.delay_ms = 100; /* the data made first: under a sanitizer that alone takes 100 ms */
  CHECK(strcmp(eval_string(L, "A = luma.random.Generator(1):normal(6000, 1000) return 'ok'"),
               "ok") == 0);
  pthread_create(&thread, NULL, interrupt_later, &it);
  status = run_failing(L, "return A:sort()", msg, sizeof msg);
  pthread_join(thread, NULL);
  CHECK(status == LUA_ERRRUN);
  CHECK(strstr(msg, "interrupted!") != NULL);
  CHECK(strstr(msg, "[C]: in method 'sort'") != NULL);
  /* An interrupt requested while nothing runs does not hit the next run. */
  luma_interrupt(L);
  CHECK(strcmp(eval_string(L, "return tostring(luma.zeros(300, 300):exp():sum())"), "90000.0") == 0);
  luma_close(L);
}

/* The wall-clock limit: a Lua loop, a threaded native loop and a wait
 * for worker processes each end with the time-limit error; pcall cannot
 * swallow it; the next run has its own time. */
static void test_time_limit(void) {
  luma_Options opts = {0};
  opts.time_limit = 0.3;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  char msg[512];
  CHECK(run_failing(L, "while true do end", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "time limit exceeded (0.3 s)") != NULL);
  CHECK(run_failing(L, "while true do pcall(function() while true do end end) end", msg,
                    sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "time limit exceeded") != NULL);
  /* minutes of native work in one call: stopped between chunks */
  CHECK(run_failing(L, "local X = luma.random.Generator(1):normal(6000, 100) "
                       "return luma.pairwise.distances(X, 'minkowski', {p = 3})",
                    msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "time limit exceeded") != NULL);
  CHECK(strstr(msg, "[C]: in function 'luma.pairwise.distances'") != NULL);
  /* a serial kernel: a 6 x 10^6 merge sort */
  CHECK(run_failing(L, "local A = luma.random.Generator(1):normal(6000, 1000) return A:sort()",
                    msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "time limit exceeded") != NULL);
  CHECK(strstr(msg, "[C]: in method 'sort'") != NULL);
  /* waiting for workers that spin for a minute: killed, reaped */
  CHECK(run_failing(L, "return luma.parallel.map(function() local t = os.clock() "
                       "while os.clock() - t < 60 do end end, {1, 2}, {n_jobs = 2})",
                    msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "time limit exceeded") != NULL);
  CHECK(strcmp(eval_string(L, "return tostring(6 * 7)"), "42") == 0);
  /* a long string made after the deadline is refused inside the run (the
   * script sees a memory error, the host the stop), but between runs the
   * host's own long strings are not */
  CHECK(run_failing(L, "local s = string.rep('a', 1 << 20) "
                       "while true do pcall(function() local t = s .. 'x' end) end",
                    msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "time limit exceeded") != NULL);
  lua_pushlstring(L, msg, 1);
  luaL_Buffer b;
  char *big = luaL_buffinitsize(L, &b, (size_t)1 << 20);
  memset(big, 'b', (size_t)1 << 20);
  luaL_pushresultsize(&b, (size_t)1 << 20);
  CHECK(lua_rawlen(L, -1) == (size_t)1 << 20);
  lua_settop(L, 0);
  CHECK(strcmp(eval_string(L, "return tostring(#string.rep('c', 1 << 20))"), "1048576") == 0);
  luma_close(L);
}

/* luma_Options.print receives print, io.write and io.stdout:write output;
 * io.stderr and other files are untouched. */
typedef struct Captured {
  char text[256];
  size_t len;
  int calls;
} Captured;

static void capture(void *ud, const char *text, size_t len) {
  Captured *c = ud;
  if (c->len + len < sizeof c->text) {
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
  }
  c->calls++;
}

static void test_print_capture(void) {
  Captured cap = {{0}, 0, 0};
  luma_Options opts = {0};
  opts.print = capture;
  opts.print_ud = &cap;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  CHECK(strcmp(eval_string(L, "print('a', 1, 2.5, nil) io.write('b', 3, 1.0) "
                              "io.stdout:write('c'):write('d') "
                              "local f = io.tmpfile() f:write('not captured') f:close() "
                              "return 'ok'"),
               "ok") == 0);
  CHECK(strcmp(cap.text, "a\t1\t2.5\tnil\nb31cd") == 0);
  CHECK(cap.calls == 4);
  /* a matrix prints through its __tostring */
  cap.len = 0;
  cap.text[0] = '\0';
  CHECK(strcmp(eval_string(L, "print(luma.zeros(1, 2)) return 'ok'"), "ok") == 0);
  CHECK(strstr(cap.text, "matrix 1 x 2") != NULL);
  luma_close(L);
  /* sandboxed: print only (there is no io) */
  Captured cap2 = {{0}, 0, 0};
  opts.sandbox = 1;
  opts.print_ud = &cap2;
  L = luma_newstate(&opts);
  CHECK(strcmp(eval_string(L, "print('sandboxed') return 'ok'"), "ok") == 0);
  CHECK(strcmp(cap2.text, "sandboxed\n") == 0);
  luma_close(L);
}

static void test_sandbox(void) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  static const char *const absent[] = {
      "return io",          "return os.execute", "return os.exit",     "return os.remove",
      "return os.rename",   "return os.tmpname", "return os.getenv",   "return dofile",
      "return loadfile",    "return package.loadlib", "return debug.sethook",
      "return debug.getinfo", "return package.searchpath", NULL};
  char denied[256];
  CHECK(run_failing(L, "luma.save(1, '/tmp/luma-sandbox-test')", denied, sizeof denied) ==
        LUA_ERRRUN);
  CHECK(strstr(denied, "'luma.save' is not available in a sandboxed state") != NULL);
  CHECK(run_failing(L, "luma.load('/etc/passwd')", denied, sizeof denied) == LUA_ERRRUN);
  CHECK(strstr(denied, "'luma.load' is not available in a sandboxed state") != NULL);
  CHECK(run_failing(L, "luma.io.read_csv('/etc/passwd')", denied, sizeof denied) == LUA_ERRRUN);
  CHECK(strstr(denied, "'luma.io.read_csv' is not available in a sandboxed state") != NULL);
  CHECK(run_failing(L, "luma.io.write_npy('/tmp/x.npy', luma.zeros(1))", denied,
                    sizeof denied) == LUA_ERRRUN);
  CHECK(strstr(denied, "'luma.io.write_npy' is not available in a sandboxed state") != NULL);
  CHECK(strcmp(eval_string(L, "return luma.persist.decode(luma.persist.encode({1, 2}))[2]"),
               "2") == 0); /* in-memory encoding stays available */
  for (const char *const *code = absent; *code; code++) {
    const char *r = eval_string(L, *code);
    if (strcmp(r, "(nil)") != 0) printf("  sandbox leak: %s -> %s\n", *code, r);
    CHECK(strcmp(r, "(nil)") == 0);
  }
  CHECK(strcmp(eval_string(L, "return type(os.time())"), "number") == 0);
  CHECK(strcmp(eval_string(L, "return debug.traceback('x'):sub(1, 1)"), "x") == 0);
  CHECK(strcmp(eval_string(L, "return tostring(luma.config().sandboxed)"), "true") == 0);
  /* Binary chunks are refused by load. */
  CHECK(strncmp(eval_string(L, "local f, e = load(string.dump(function() end)) return e"),
                "attempt to load a binary chunk", 30) == 0);
  /* Only Luma's own modules can be required. */
  CHECK(strcmp(eval_string(L, "return type(require('luma.repl'))"), "table") == 0);
  char msg[512];
  CHECK(run_failing(L, "require('lfs')", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "module 'lfs' not found") != NULL);
  CHECK(run_failing(L, "require('socket.core')", msg, sizeof msg) == LUA_ERRRUN);
  /* The host itself may not run binary chunks in a sandboxed state either. */
  lua_State *plain = luaL_newstate();
  luaL_openlibs(plain);
  luaL_loadstring(plain, "return 1");
  lua_getglobal(plain, "string");
  lua_getfield(plain, -1, "dump");
  lua_pushvalue(plain, -3);
  lua_call(plain, 1, 1);
  size_t len;
  const char *bytecode = lua_tolstring(plain, -1, &len);
  char *copy = malloc(len + 1);
  memcpy(copy, bytecode, len);
  copy[len] = '\0';
  lua_close(plain);
  CHECK(luma_run_string(L, copy, "=bin", 0) == LUA_ERRSYNTAX);
  lua_pop(L, 1);
  free(copy);
  /* After every refusal the state still works. */
  CHECK(strcmp(eval_string(L, "return tostring(luma.eye(3):get(2, 2))"), "1.0") == 0);
  luma_close(L);
}

/* Issue 8: every refusal of a sandboxed, limited state is a catchable Lua
 * error, and after each one the host goes on and the same state runs a
 * fresh script. */
static void test_sandbox_refusals_keep_state(void) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.memory_limit = 16u << 20;
  opts.instruction_limit = 2000000;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  static const struct {
    const char *code, *expect;
  } refused[] = {
      {"io.open('/etc/passwd')", "attempt to index a nil value (global 'io')"},
      {"os.execute('true')", "attempt to call a nil value (field 'execute')"},
      {"os.remove('/tmp/x')", "attempt to call a nil value (field 'remove')"},
      {"os.rename('/tmp/x', '/tmp/y')", "attempt to call a nil value (field 'rename')"},
      {"os.exit(3)", "attempt to call a nil value (field 'exit')"},
      {"os.getenv('HOME')", "attempt to call a nil value (field 'getenv')"},
      {"os.tmpname()", "attempt to call a nil value (field 'tmpname')"},
      {"package.loadlib('libc.so.6', 'system')", "attempt to call a nil value (field 'loadlib')"},
      {"require('luma_c_module_that_is_not_there')", "module 'luma_c_module_that_is_not_there' not found"},
      {"dofile('/etc/passwd')", "attempt to call a nil value (global 'dofile')"},
      {"loadfile('/etc/passwd')", "attempt to call a nil value (global 'loadfile')"},
      {"debug.sethook()", "attempt to call a nil value (field 'sethook')"},
      {"debug.getregistry()", "attempt to call a nil value (field 'getregistry')"},
      {"debug.setupvalue(print, 1, nil)", "attempt to call a nil value (field 'setupvalue')"},
      {"assert(load(string.dump(function() end)))", "attempt to load a binary chunk"},
      {"assert(load(string.dump(function() end), 'x', 'b'))", "attempt to load a binary chunk"},
      {"local s = string.dump(function() end) "
       "assert(load(function() local r = s s = nil return r end))",
       "attempt to load a binary chunk"},
      {"luma.save(1, '/tmp/luma-sandbox')", "'luma.save' is not available in a sandboxed state"},
      {"luma.load('/etc/passwd')", "'luma.load' is not available in a sandboxed state"},
      {"luma.io.read_npy('/etc/passwd')", "'luma.io.read_npy' is not available"},
      {"luma.io.read_libsvm('/etc/passwd')", "'luma.io.read_libsvm' is not available"},
      {"luma.io.write_csv('/tmp/x', luma.zeros(1))", "'luma.io.write_csv' is not available"},
      {"luma.io.write_libsvm('/tmp/x', luma.zeros(1), luma.zeros(1))",
       "'luma.io.write_libsvm' is not available"},
      {"luma.pool.run(function() return '' end, 2, 2)", "'luma.parallel.run' is not available"},
      {"local t = {} for i = 1, 1e8 do t[i] = {} end", "not enough memory"},
      {"local s = string.rep('x', 1 << 30)", "not enough memory"},
      {"luma.zeros(4000, 4000)", "not enough memory"},
      {"while true do end", "instruction limit exceeded"},
      {"local ok = pcall(function() while true do end end) while true do end",
       "instruction limit exceeded"},
      {NULL, NULL}};
  char msg[1024];
  int n = 0;
  for (int k = 0; refused[k].code; k++) {
    int status = run_failing(L, refused[k].code, msg, sizeof msg);
    int ok = status != LUA_OK && strstr(msg, refused[k].expect) != NULL;
    if (!ok) printf("  not refused as expected: %s -> %d %s\n", refused[k].code, status, msg);
    CHECK(ok);
    /* The same state runs a fresh script straight after. */
    const char *r = eval_string(L, "local A = luma.eye(3) * 2 return tostring(A:sum())");
    if (strcmp(r, "6.0") != 0) printf("  after %s: %s\n", refused[k].code, r);
    CHECK(strcmp(r, "6.0") == 0);
    n++;
  }
  CHECK(n >= 29);
  /* Only the preload searcher: no Lua file search, no C loaders. */
  CHECK(strcmp(eval_string(L, "return tostring(#package.searchers) .. '|' .. package.path .. "
                              "'|' .. package.cpath"),
               "1||") == 0);
  /* Memory and instruction errors are catchable from the script itself. */
  CHECK(strcmp(eval_string(L, "local ok, e = pcall(string.rep, 'x', 1 << 30) "
                              "return tostring(ok) .. ' ' .. e"),
               "false not enough memory") == 0);
  /* The instruction limit is caught by the host: pcall inside the script
   * returns, but the next instruction fails again (by design). */
  CHECK(strstr(eval_string(L, "local ok, e = pcall(function() while true do end end) "
                              "return 'swallowed'"),
               "ERROR: instruction limit exceeded") != NULL);
  CHECK(luma_memory_used(L) <= opts.memory_limit);
  luma_close(L);
}

/* Host-level failures: a host that calls luma_pcall on its own function
 * after errors of every kind keeps a working state; the stack is balanced. */
static int host_function_that_raises(lua_State *L) {
  return luaL_error(L, "raised by the host (%d)", (int)lua_tointeger(L, 1));
}

static void test_host_continues_after_errors(void) {
  luma_Options opts = {0};
  opts.memory_limit = 16u << 20;
  opts.instruction_limit = 1000000;
  lua_State *L = luma_newstate(&opts);
  for (int round = 0; round < 20; round++) {
    int top = lua_gettop(L);
    lua_pushcfunction(L, host_function_that_raises);
    lua_pushinteger(L, round);
    CHECK(luma_pcall(L, 1, 0) == LUA_ERRRUN);
    CHECK(strstr(lua_tostring(L, -1), "raised by the host") != NULL);
    lua_settop(L, top);
    char msg[256];
    CHECK(run_failing(L, "error({})", msg, sizeof msg) == LUA_ERRRUN);
    CHECK(strstr(msg, "error object is a table value") != NULL);
    CHECK(run_failing(L, "error(setmetatable({}, {__tostring = function() return 'custom' end}))",
                      msg, sizeof msg) == LUA_ERRRUN);
    CHECK(strcmp(msg, "custom") == 0);
    CHECK(run_failing(L, "luma.zeros(3000, 3000)", msg, sizeof msg) == LUA_ERRMEM);
    CHECK(run_failing(L, "repeat until false", msg, sizeof msg) == LUA_ERRRUN);
    CHECK(run_failing(L, "local x = (", msg, sizeof msg) == LUA_ERRSYNTAX);
    CHECK(lua_gettop(L) == top);
  }
  CHECK(strcmp(eval_string(L, "return tostring(luma.ones(2, 2):sum())"), "4.0") == 0);
  luma_close(L);
}

static int released = 0;
static void release_buffer(void *ctx, double *data) {
  released++;
  CHECK(ctx == (void *)&released);
  CHECK(data != NULL);
}

static void test_matrices(void) {
  lua_State *L = luma_newstate(NULL);
  double src[6] = {1, 2, 3, 4, 5, 6};
  CHECK(luma_push_matrix(L, 2, 3, src) == LUA_OK);
  lua_setglobal(L, "A");
  CHECK(strcmp(eval_string(L, "return tostring(A:get(2, 1))"), "4.0") == 0);
  CHECK(luma_push_matrix(L, 2, 3, NULL) == LUMA_EARG);
  CHECK(luma_push_matrix(L, -1, 3, src) == LUMA_EARG);
  CHECK(luma_push_matrix(L, 0, 3, NULL) == LUA_OK); /* empty needs no data */
  lua_pop(L, 1);
  CHECK(lua_gettop(L) == 0);

  /* Results read back from Lua: a view of a copy, strides and all. */
  CHECK(luma_run_string(L, "return A:t()", NULL, 1) == LUA_OK);
  luma_MatrixRef ref;
  CHECK(luma_get_matrix(L, -1, &ref) == LUA_OK);
  CHECK(ref.rows == 3 && ref.cols == 2 && ref.row_stride == 1 && ref.col_stride == 3);
  CHECK(ref.data[2 * ref.row_stride + 1 * ref.col_stride] == 6.0);
  lua_pop(L, 1);
  lua_pushnumber(L, 1.0);
  CHECK(luma_get_matrix(L, -1, &ref) == LUMA_ETYPE);
  CHECK(luma_get_matrix(L, 5, &ref) == LUMA_ETYPE); /* an empty slot */
  lua_pop(L, 1);

  /* A wrapped host buffer is shared, not copied, and released once. */
  double host[4] = {1, 2, 3, 4};
  released = 0;
  CHECK(luma_wrap_matrix(L, host, 2, 2, 2, 1, release_buffer, &released) == LUA_OK);
  lua_setglobal(L, "H");
  CHECK(luma_run_string(L, "H:set(1, 1, 10); V = H:col(2); H = nil; collectgarbage()", NULL,
                        0) == LUA_OK);
  CHECK(host[0] == 10.0);
  CHECK(released == 0); /* the view V keeps the buffer alive */
  CHECK(luma_run_string(L, "V:set(2, 1, 40); V = nil; collectgarbage(); collectgarbage()",
                        NULL, 0) == LUA_OK);
  CHECK(host[3] == 40.0);
  CHECK(released == 1);
  CHECK(luma_wrap_matrix(L, NULL, 2, 2, 2, 1, release_buffer, &released) == LUMA_EARG);
  CHECK(luma_wrap_matrix(L, host, 2, 2, 2, 1, release_buffer, &released) == LUA_OK);
  lua_pop(L, 1);
  luma_close(L); /* closing collects the last wrapper */
  CHECK(released == 2);
  CHECK(strcmp(luma_status_string(LUMA_ETYPE), "value is not a matrix") == 0);
}

/* luma_check_matrix raises a Lua-style argument error inside a C function. */
static int needs_matrix(lua_State *L) {
  luma_MatrixRef m = luma_check_matrix(L, 1);
  lua_pushinteger(L, m.rows * m.cols);
  return 1;
}

static void test_check_matrix_in_c_function(void) {
  lua_State *L = luma_newstate(NULL);
  lua_register(L, "needs_matrix", needs_matrix);
  CHECK(strcmp(eval_string(L, "return tostring(needs_matrix(luma.zeros(2, 5)))"), "10") == 0);
  char msg[512];
  CHECK(run_failing(L, "needs_matrix(42)", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "bad argument #1 to 'needs_matrix' (luma.Matrix expected, got number)") !=
        NULL);
  luma_close(L);
}

/* Luma opened into a state the host made itself. */
static void test_openlibs_foreign_state(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  CHECK(luma_openlibs(L) == LUA_OK);
  CHECK(strcmp(eval_string(L, "return tostring(luma.ones(2, 2):get(1, 2))"), "1.0") == 0);
  CHECK(strcmp(eval_string(L, "return tostring(require('luma') == luma)"), "true") == 0);
  CHECK(luma_memory_used(L) == 0); /* not a luma_newstate state */
  lua_close(L);
}

static char last_warning[256];
static void capture_warning(void *ud, const char *msg) {
  (*(int *)ud)++;
  snprintf(last_warning, sizeof last_warning, "%s", msg);
}

static void test_warnings(void) {
  int count = 0;
  luma_Options opts = {0};
  opts.warn = capture_warning;
  opts.warn_ud = &count;
  lua_State *L = luma_newstate(&opts);
  CHECK(luma_run_string(L, "warn('part one, ', 'part two')", NULL, 0) == LUA_OK);
  CHECK(count == 1);
  CHECK(strcmp(last_warning, "part one, part two") == 0);
  CHECK(luma_run_string(L, "warn('@off') warn('hidden') warn('@on') warn('shown')", NULL, 0) ==
        LUA_OK);
  CHECK(count == 2);
  CHECK(strcmp(last_warning, "shown") == 0);
  luma_close(L);
}

/* Independent states in two threads at once: no shared C state. */
static void *thread_body(void *arg) {
  int *ok = arg;
  lua_State *L = luma_newstate(NULL);
  *ok = L != NULL;
  for (int i = 0; i < 50 && *ok; i++) {
    int status = luma_run_string(
        L, "local A = luma.zeros(50, 50) for i = 1, 50 do A:set(i, i, i) end "
           "local s = 0 for i = 1, 50 do s = s + A:get(i, i) end assert(s == 1275)",
        NULL, 0);
    if (status != LUA_OK) *ok = 0;
  }
  luma_close(L);
  return NULL;
}

static void test_threads(void) {
  pthread_t t[2];
  int ok[2] = {0, 0};
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, thread_body, &ok[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  CHECK(ok[0] && ok[1]);
}

/* A native estimator: predicts shrink * mean(y) (a regressor). */
static int mean_fit(lua_State *L) {
  luma_MatrixRef y = luma_check_matrix(L, 3);
  double sum = 0;
  for (int64_t i = 0; i < y.rows; i++) sum += y.data[i * y.row_stride];
  lua_getfield(L, 1, "params");
  lua_getfield(L, -1, "shrink");
  lua_pushnumber(L, lua_tonumber(L, -1) * sum / (double)y.rows);
  lua_setfield(L, 1, "value");
  lua_settop(L, 1);
  return 1;
}

static int mean_predict(lua_State *L) {
  luma_MatrixRef X = luma_check_matrix(L, 2);
  lua_getfield(L, 1, "value");
  double v = lua_tonumber(L, -1);
  double *out = malloc((size_t)X.rows * sizeof *out);
  for (int64_t i = 0; i < X.rows; i++) out[i] = v;
  int status = luma_push_matrix(L, X.rows, 1, out);
  free(out);
  if (status != LUA_OK) return luaL_error(L, "out of memory");
  return 1;
}

static int define_mean(lua_State *L) {
  static const luma_ParamSpec params[] = {
      {"shrink", "number", "1.0", "[0, 1]", NULL, "multiplies the mean"},
      {"label", "string", "\"mean\"", NULL, "mean|median", "which statistic"},
      {NULL, NULL, NULL, NULL, NULL, NULL}};
  static const luaL_Reg methods[] = {{"fit", mean_fit}, {"predict", mean_predict}, {NULL, NULL}};
  static const luma_EstimatorSpec spec = {"host.Mean", "regressor", "Predicts shrink * mean(y).",
                                          params, methods};
  luma_define_estimator(L, &spec);
  return 1;
}

static void test_native_estimator(void) {
  lua_State *L = luma_newstate(NULL);
  CHECK(L != NULL);
  lua_pushcfunction(L, define_mean);
  CHECK(lua_pcall(L, 0, 1, 0) == LUA_OK);
  lua_setglobal(L, "Mean");
  CHECK(strcmp(eval_string(L, "local m = Mean{shrink = 0.5}:fit(luma.zeros(4, 2), "
                              "luma.matrix{1, 2, 3, 6}) return tostring(m:predict(luma.zeros(1, 2)):get(1, 1))"),
               "1.5") == 0);
  CHECK(strcmp(eval_string(L, "local s = luma.model_selection.GridSearch{estimator = Mean{}, "
                              "param_grid = {shrink = {0, 1}}, cv = 2}:fit(luma.zeros(6, 1), "
                              "luma.matrix{1, 2, 3, 4, 5, 6}) return tostring(s.best_params.shrink)"),
               "1") == 0);
  char msg[512];
  CHECK(run_failing(L, "Mean{shrink = 2}", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "host.Mean: parameter 'shrink' must be a number >= 0.0 and <= 1.0, got 2") !=
        NULL);
  CHECK(run_failing(L, "Mean{label = 'mode'}", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "must be one of \"mean\", \"median\"") != NULL);
  CHECK(run_failing(L, "Mean{}:predict(luma.zeros(1, 1))", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "host.Mean: predict called before fit") != NULL);
  CHECK(strstr(eval_string(L, "return luma.help(Mean{})"), "multiplies the mean") != NULL);
  luma_close(L);
}

/* Issue 28: a run that has stopped stays stopped.  Lua calls xpcall's
 * handler for an error raised from the count hook with hooks off, so a
 * looping handler would hang the host: it is skipped once the run stopped.
 * An interrupt, like the limits, cannot be swallowed by pcall, reaches a
 * running coroutine in a state without limits, and ends the run; the next
 * run is unaffected. */
static void test_stops_are_final(void) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.instruction_limit = 2000000;
  lua_State *L = luma_newstate(&opts);
  CHECK(L != NULL);
  char msg[512];
  CHECK(run_failing(L, "xpcall(function() error('x') end, function() while true do end end)", msg,
                    sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded (2000000 instructions)") != NULL);
  CHECK(run_failing(L, "xpcall(function() while true do end end, function(m) return m end) "
                       "while true do end", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded") != NULL);
  /* xpcall otherwise behaves as the standard one: the handler's value,
   * extra arguments, results, and a yield across it */
  CHECK(strcmp(eval_string(L, "local ok, e = xpcall(function() error('x', 0) end, "
                              "function(m) return 'handled ' .. m end) return tostring(ok) .. e"),
               "falsehandled x") == 0);
  CHECK(strcmp(eval_string(L, "return select(2, xpcall(function(a, b) return a * b end, print, 6, 7))"),
               "42") == 0);
  CHECK(strcmp(eval_string(L, "local co = coroutine.wrap(function() "
                              "return select(2, xpcall(function() return coroutine.yield(1) + 1 end, "
                              "print)) end) co() return tostring(co(41))"),
               "42") == 0);
  CHECK(run_failing(L, "xpcall(print)", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "bad argument #2 to 'xpcall' (function expected, got no value)") != NULL);
  CHECK(strcmp(eval_string(L, "return tostring(1 + 1)"), "2") == 0);
  luma_close(L);

  /* the interrupt, in a state without limits */
  L = luma_newstate(NULL);
  static const char *const loops[] = {
      "coroutine.wrap(function() while true do end end)()",
      "coroutine.resume(coroutine.create(function() while true do end end)) while true do end",
      "pcall(function() while true do end end) while true do end",
      "xpcall(function() while true do end end, function() while true do end end)",
      NULL};
  for (const char *const *code = loops; *code; code++) {
    pthread_t thread;
    Interrupter it = {L, 100};
    pthread_create(&thread, NULL, interrupt_later, &it);
    int status = run_failing(L, *code, msg, sizeof msg);
    pthread_join(thread, NULL);
    if (status != LUA_ERRRUN || strstr(msg, "interrupted!") == NULL)
      printf("  not interrupted: %s -> %s\n", *code, msg);
    CHECK(status == LUA_ERRRUN && strstr(msg, "interrupted!") != NULL);
    CHECK(strcmp(eval_string(L, "return tostring(1 + 1)"), "2") == 0);
  }
  luma_close(L);
}

/* Finalizers run with hooks off, so a sandboxed state refuses __gc (a
 * looping one would hang the run, or luma_close); others keep them. */
static void test_sandbox_refuses_finalizers(void) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.instruction_limit = 1000000;
  lua_State *L = luma_newstate(&opts);
  char msg[512];
  CHECK(run_failing(L, "setmetatable({}, {__gc = function() while true do end end}) "
                       "collectgarbage()", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "bad argument #2 to 'setmetatable' (__gc metamethods are not available in a "
                    "sandboxed state)") != NULL);
  CHECK(run_failing(L, "setmetatable({}, {__gc = true})", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strcmp(eval_string(L, "local mt = {__index = {a = 1}} return tostring(setmetatable({}, mt).a)"),
               "1") == 0);
  CHECK(strcmp(eval_string(L, "local t = setmetatable({}, {__metatable = 'x'}) "
                              "return select(2, pcall(setmetatable, t, {}))"),
               "cannot change a protected metatable") == 0);
  luma_close(L); /* nothing left to finalize: returns at once */
  L = luma_newstate(NULL);
  CHECK(strcmp(eval_string(L, "local n = 0 setmetatable({}, {__gc = function() n = n + 1 end}) "
                              "collectgarbage() return tostring(n)"),
               "1") == 0);
  luma_close(L);
}

/* luma_seal: what one run does to shared tables (the string library and
 * metatable, a matrix method, the luma table, a module, a global) is
 * undone before the next; the host's own setup before sealing stays. */
static void test_seal(void) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  lua_State *L = luma_newstate(&opts);
  CHECK(strcmp(eval_string(L, "greeting = 'hi' local _ = luma.linear.Ridge return 'ok'"), "ok") == 0);
  CHECK(luma_seal(L) == LUA_OK);
  CHECK(strcmp(eval_string(L, "string.upper = function() return 'pwned' end "
                              "getmetatable('').__index = {rep = function() return 'p' end} "
                              "local mt = getmetatable(luma.zeros(1, 1)) "
                              "mt.__index = function() return function() return 42 end end "
                              "luma.ones = nil luma.linear.Ridge = 1 luma.extra = {} "
                              "greeting = 'pwned' leaked = true "
                              "return ('abc'):rep(2) .. luma.zeros(2, 2):sum()"),
               "p42") == 0);
  CHECK(strcmp(eval_string(L, "return ('abc'):upper() .. luma.ones(2, 2):sum() .. "
                              "type(luma.linear.Ridge) .. tostring(luma.extra) .. greeting .. "
                              "tostring(leaked)"),
               "ABC4.0tablenilhinil") == 0);
  /* a module first loaded by a run is loaded afresh by the next */
  CHECK(strcmp(eval_string(L, "luma.cluster.KMeans = 1 return type(luma.cluster.KMeans)"),
               "number") == 0);
  CHECK(strcmp(eval_string(L, "return type(luma.cluster.KMeans)"), "table") == 0);
  /* a host's own call through luma_pcall is a run too */
  CHECK(luma_run_string(L, "string.len = nil", "=t", 0) == LUA_OK);
  lua_getglobal(L, "string");
  lua_getfield(L, -1, "len");
  CHECK(lua_isnil(L, -1)); /* left as the run left it until the next run */
  lua_pop(L, 2);
  CHECK(strcmp(eval_string(L, "return tostring(string.len('abc'))"), "3") == 0);
  luma_close(L);
  /* a state Luma did not make cannot be sealed */
  lua_State *plain = luaL_newstate();
  CHECK(luma_seal(plain) == LUMA_EARG);
  CHECK(strstr(lua_tostring(plain, -1), "not a state made by luma_newstate") != NULL);
  lua_close(plain);
}

/* Issue 28, the fork pool: a pool whose tasks never end stops with the
 * run's error (the time limit, luma_interrupt from another thread, an
 * interrupt inside a worker, a worker's instruction budget), within
 * twice the time allowed, leaving no child process, running or zombie;
 * no fold scores the stop as error_score; workers die with their parent. */
static const char *const LOOPING_CV =
    "local est = require('luma.estimator')\n"
    "local Loop = est.class{ name = 'host.Loop', kind = 'regressor', doc = 'loops',\n"
    "  params = {}, fit = function(self, X, y) while true do end end,\n"
    "  predict = function(self, X) return luma.zeros(X:rows(), 1) end }\n"
    "local g = luma.random.Generator(1)\n"
    "return luma.model_selection.cross_validate(Loop{}, g:normal(40, 2), g:normal(40, 1),\n"
    "  { cv = 4, n_jobs = 2 })\n";

static double monotonic(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* True when this process has no child left, running or a zombie. */
static int no_children(void) {
  errno = 0;
  return waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD;
}

/* The pids of the children of `parent`, from /proc (at most max). */
static int children_of(pid_t parent, pid_t *out, int max) {
  int n = 0;
  DIR *dir = opendir("/proc");
  if (dir == NULL) return 0;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL && n < max) {
    char path[300], line[256];
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
    FILE *f = fopen(path, "r");
    if (f == NULL) continue;
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "PPid:", 5) == 0) {
        if (atoi(line + 5) == (int)parent) out[n++] = (pid_t)atoi(e->d_name);
        break;
      }
    fclose(f);
  }
  closedir(dir);
  return n;
}

/* Gone, or a zombie nobody reaps (init in a container may not). */
static int is_dead(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 1;
  int dead = 0;
  if (fgets(line, sizeof line, f)) {
    const char *close_paren = strrchr(line, ')');
    dead = close_paren != NULL && close_paren[1] == ' ' && close_paren[2] == 'Z';
  }
  fclose(f);
  return dead;
}

static lua_State *sigint_state;
static void interrupt_on_sigint(int sig) {
  (void)sig;
  if (sigint_state) luma_interrupt(sigint_state);
}

static void test_pool_stops(void) {
  char msg[1024];
  int warnings = 0;
  luma_Options opts = {0};
  opts.warn = capture_warning;
  opts.warn_ud = &warnings;

  /* the time limit */
  opts.time_limit = 1.0;
  lua_State *L = luma_newstate(&opts);
  double t0 = monotonic();
  CHECK(run_failing(L, LOOPING_CV, msg, sizeof msg) == LUA_ERRRUN);
  double took = monotonic() - t0;
  CHECK(took < 2.0);
  CHECK(strstr(msg, "time limit exceeded (1.0 s)") != NULL);
  CHECK(no_children());
  CHECK(strcmp(eval_string(L, "return tostring(6 * 7)"), "42") == 0);
  luma_close(L);

  /* luma_interrupt from another thread at 0.5 s: it sends no signal, so
   * the parent must look at the flag while it waits (the time limit only
   * turns a regression into a failure instead of a hang) */
  opts.time_limit = 10;
  L = luma_newstate(&opts);
  pthread_t thread;
  Interrupter it = {L, 500};
  t0 = monotonic();
  pthread_create(&thread, NULL, interrupt_later, &it);
  CHECK(run_failing(L, LOOPING_CV, msg, sizeof msg) == LUA_ERRRUN);
  took = monotonic() - t0;
  pthread_join(thread, NULL);
  CHECK(took < 2.0);
  CHECK(strstr(msg, "interrupted!") != NULL);
  CHECK(no_children());
  CHECK(strcmp(eval_string(L, "return tostring(6 * 7)"), "42") == 0);
  luma_close(L);

  /* each worker runs out of the budget it inherited: the pool's error
   * says which worker and task, and ends the run here too */
  opts.instruction_limit = 20000000;
  opts.time_limit = 10; /* only if the pool failed to stop */
  L = luma_newstate(&opts);
  CHECK(run_failing(L, LOOPING_CV, msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "instruction limit exceeded (20000000 instructions): luma.parallel: worker ") !=
        NULL);
  CHECK(strstr(msg, "ran out of its instruction budget while running task ") != NULL);
  CHECK(no_children());
  CHECK(run_failing(L, "return luma.parallel.map(function(t) while true do end end, {1, 2, 3}, "
                       "{n_jobs = 2})", msg, sizeof msg) == LUA_ERRRUN);
  CHECK(strstr(msg, "ran out of its instruction budget while running task ") != NULL);
  CHECK(no_children());
  CHECK(strcmp(eval_string(L, "return tostring(6 * 7)"), "42") == 0);
  luma_close(L);

  /* SIGINT to one worker (a host whose handler calls luma_interrupt, as
   * the luma command's does): that worker stops, and so does the pool
   * (still under the 10 s time limit, against a hang) */
  opts.instruction_limit = 0;
  L = luma_newstate(&opts);
  sigint_state = L;
  void (*previous)(int) = signal(SIGINT, interrupt_on_sigint);
  t0 = monotonic();
  CHECK(run_failing(L, "return luma.parallel.map(function(t) if t == 1 then "
                       "io.popen('kill -INT $PPID'):close() end while true do end end, {1, 2}, "
                       "{n_jobs = 2})", msg, sizeof msg) == LUA_ERRRUN);
  took = monotonic() - t0;
  signal(SIGINT, previous);
  sigint_state = NULL;
  CHECK(took < 5.0);
  CHECK(strstr(msg, "interrupted!") != NULL);
  CHECK(no_children());
  luma_close(L);
  if (strstr(msg, "interrupted!") == NULL) printf("  worker SIGINT: %s\n", msg);
  CHECK(warnings == 0); /* no fold was scored as a failed fit */

  /* a parent killed outright takes its workers with it (Linux) */
  pid_t host = fork();
  if (host == 0) {
    lua_State *C = luma_newstate(NULL);
    luma_run_string(C, "luma.parallel.map(function() while true do end end, {1, 2}, "
                       "{n_jobs = 2})", "=child", 0);
    _exit(1);
  }
  pid_t workers[8];
  int n = 0;
  for (int tries = 0; tries < 200 && n < 2; tries++) {
    struct timespec ts = {0, 10000000L};
    nanosleep(&ts, NULL);
    n = children_of(host, workers, 8);
  }
  CHECK(n == 2);
  kill(host, SIGKILL);
  waitpid(host, NULL, 0);
  int all_dead = 0;
  for (int tries = 0; tries < 200 && !all_dead; tries++) {
    struct timespec ts = {0, 10000000L};
    nanosleep(&ts, NULL);
    all_dead = 1;
    for (int k = 0; k < n; k++) all_dead = all_dead && is_dead(workers[k]);
  }
  CHECK(all_dead);
  for (int k = 0; k < n && !all_dead; k++) kill(workers[k], SIGKILL); /* do not leave them */
}

/* luma_pcall's traceback, whose function names come from a cache, reads
 * exactly as luaL_traceback's (the reference, searching package.loaded at
 * every frame), before and after more modules are loaded. */
static int reference_handler(lua_State *L) {
  luaL_traceback(L, L, lua_tostring(L, 1), 1);
  return 1;
}

static void test_traceback_as_lua_writes_it(void) {
  lua_State *L = luma_newstate(NULL);
  static const char *const scripts[] = {
      "return luma.zeros('a')",
      "local A = luma.ones(2, 2) return A:sort('x')",
      "return string.rep()",
      ("local function f(n) if n == 0 then return luma.zeros('a') end return 1 + f(n - 1) end "
       "return f(40)"),
      "local t = setmetatable({}, {__index = function() error('deep', 2) end}) return t.x + 1",
      "require('luma.linear') return luma.linear.Ridge{alpha = 'x'}",
      "return luma.linear.Ridge():fit(luma.ones(2, 2), luma.ones(3, 1))",
  };
  for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
    CHECK(luaL_loadstring(L, scripts[i]) == LUA_OK);
    lua_pushvalue(L, -1);
    lua_pushcfunction(L, reference_handler);
    lua_insert(L, -2);
    CHECK(lua_pcall(L, 0, 0, -2) != LUA_OK);
    char expected[4096];
    snprintf(expected, sizeof expected, "%s", lua_tostring(L, -1));
    lua_pop(L, 2);
    CHECK(luma_pcall(L, 0, 0) == LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1), expected) == 0);
    CHECK(strstr(expected, "stack traceback:") != NULL);
    lua_pop(L, 1);
  }
  luma_close(L);
}

int main(void) {
  test_basic_state();
  test_version_and_options_size();
  test_memory_limit();
  test_instruction_limit();
  test_instruction_limit_in_native_loops();
  test_interrupt_native_loop();
  test_limits_in_serial_kernels();
  test_time_limit();
  test_print_capture();
  test_sandbox();
  test_sandbox_refusals_keep_state();
  test_host_continues_after_errors();
  test_matrices();
  test_check_matrix_in_c_function();
  test_openlibs_foreign_state();
  test_warnings();
  test_threads();
  test_native_estimator();
  test_stops_are_final();
  test_sandbox_refuses_finalizers();
  test_seal();
  test_pool_stops();
  test_traceback_as_lua_writes_it();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
