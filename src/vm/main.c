/*
 * main.c - the `luma` command: run scripts, -e/-l/-i options, LUMA_INIT,
 * and the REPL when there is no script.  Options follow stock `lua`, so
 * whoever knows one knows the other; differences: an unknown option exits
 * with status 2, warnings are on by default, `help` is a global, and
 * print shows a table's contents (as luma.pprint) instead of its address.
 * SPDX-License-Identifier: MIT
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cli.h"
#include "core/blas.h"
#include "core.h"
#include "luma.h"

static const char *progname = "luma";

/* --------------------------------------------------- Ctrl-C interruption */

/* The state being run, for the signal handler; set only around calls. */
static lua_State *running_state = NULL;

/* luma_interrupt is async-signal-safe: it sets the state's interrupt flag
 * (polled by native loops) and a hook that raises at the next instruction. */
static void on_sigint(int sig) {
  (void)sig;
  signal(SIGINT, SIG_DFL); /* a second Ctrl-C kills a stuck C call */
  if (running_state) luma_interrupt(running_state);
}

int luma_cli_docall(lua_State *L, int narg, int nres) {
  lua_State *saved = running_state;
  running_state = L;
  void (*previous)(int) = signal(SIGINT, on_sigint);
  int status = luma_pcall(L, narg, nres);
  signal(SIGINT, previous);
  /* An interrupt that came after the last instruction must not carry over. */
  lua_sethook(L, NULL, 0, 0);
  running_state = saved;
  return status;
}

void luma_cli_report(lua_State *L, int status) {
  if (status == LUA_OK) return;
  const char *msg = lua_tostring(L, -1);
  if (msg == NULL) msg = "(error object is not a string)";
  fprintf(stderr, "%s: %s\n", progname, msg);
  fflush(stderr);
  lua_pop(L, 1);
}

/* ----------------------------------------------------------- arguments */

static void print_usage(FILE *out) {
  fprintf(out,
          "usage: %s [options] [script [args]]\n"
          "Available options are:\n"
          "  -e stat   execute string 'stat'\n"
          "  -i        enter interactive mode after executing 'script'\n"
          "  -l mod    require library 'mod' into global 'mod'\n"
          "  -l g=mod  require library 'mod' into global 'g'\n"
          "  -v        show version information (also --version)\n"
          "  -E        ignore environment variables (LUMA_INIT)\n"
          "  -h        show this help (also --help)\n"
          "  --        stop handling options\n"
          "  -         stop handling options and execute stdin\n"
          "With no script, runs the REPL on a terminal and reads a script from stdin "
          "otherwise.\n",
          progname);
}

static void print_version(void) {
  printf("Luma %s (%s)\n", LUMA_VERSION, LUA_RELEASE);
  fflush(stdout);
}

enum { HAS_E = 1, HAS_I = 2, HAS_V = 4, HAS_BIG_E = 8, HAS_HELP = 16 };

/* Scans options; returns the index of the script (argc if none), or -1 for
 * a bad option (with *bad set to its index).  Sets flags. */
static int scan_args(int argc, char **argv, int *flags, int *bad) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') return i;
    if (strcmp(a, "-") == 0) return i;
    if (strcmp(a, "--") == 0) return i + 1;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      *flags |= HAS_HELP;
    } else if (strcmp(a, "--version") == 0 || strcmp(a, "-v") == 0) {
      *flags |= HAS_V;
    } else if (strcmp(a, "-i") == 0) {
      *flags |= HAS_I | HAS_V;
    } else if (strcmp(a, "-E") == 0) {
      *flags |= HAS_BIG_E;
    } else if (a[1] == 'e' || a[1] == 'l') {
      if (a[1] == 'e') *flags |= HAS_E;
      if (a[2] == '\0') { /* argument in the next word */
        i++;
        if (i >= argc || argv[i] == NULL) {
          *bad = i - 1;
          return -1;
        }
      }
    } else {
      *bad = i;
      return -1;
    }
  }
  return argc;
}

/* The global `arg`: script at 0, its arguments at 1.., everything before
 * the script at negative indices (as stock lua). */
static void create_arg_table(lua_State *L, int argc, char **argv, int script) {
  int base = script < argc ? script : argc - 1;
  lua_createtable(L, argc - base - 1, base + 1);
  for (int i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - base);
  }
  lua_setglobal(L, "arg");
}

static int run_chunk_status(lua_State *L, int status) {
  if (status == LUA_OK) status = luma_cli_docall(L, 0, 0);
  luma_cli_report(L, status);
  return status;
}

static int run_string(lua_State *L, const char *code, const char *name) {
  return run_chunk_status(L, luaL_loadbuffer(L, code, strlen(code), name));
}

/* require 'mod' into global g (from "g=mod" or "mod"). */
static int run_require(lua_State *L, const char *spec) {
  const char *eq = strchr(spec, '=');
  const char *mod = eq ? eq + 1 : spec;
  lua_getglobal(L, "require");
  lua_pushstring(L, mod);
  int status = luma_cli_docall(L, 1, 1);
  if (status == LUA_OK) {
    if (eq)
      lua_pushlstring(L, spec, (size_t)(eq - spec));
    else
      lua_pushstring(L, mod);
    lua_insert(L, -2);
    lua_setglobal(L, lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  luma_cli_report(L, status);
  return status;
}

static int run_options(lua_State *L, char **argv, int script) {
  for (int i = 1; i < script; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || (a[1] != 'e' && a[1] != 'l')) continue;
    const char *value = a[2] ? a + 2 : argv[++i];
    int status = a[1] == 'e' ? run_string(L, value, "=(command line)") : run_require(L, value);
    if (status != LUA_OK) return status;
  }
  return LUA_OK;
}

static int run_init(lua_State *L) {
  const char *init = getenv("LUMA_INIT");
  if (init == NULL) return LUA_OK;
  if (init[0] == '@') return run_chunk_status(L, luaL_loadfile(L, init + 1));
  return run_string(L, init, "=LUMA_INIT");
}

/* Runs the script (NULL: stdin) with the remaining words as arguments. */
static int run_script(lua_State *L, int argc, char **argv, int script) {
  const char *fname = argv[script];
  if (strcmp(fname, "-") == 0 && strcmp(argv[script - 1], "--") != 0) fname = NULL;
  int status = luaL_loadfile(L, fname);
  if (status == LUA_OK) {
    int n = 0;
    luaL_checkstack(L, argc - script, "too many arguments to script");
    for (int i = script + 1; i < argc; i++, n++) lua_pushstring(L, argv[i]);
    status = luma_cli_docall(L, n, 0);
  }
  luma_cli_report(L, status);
  return status;
}

/* print(...) of the command: stock print (values tab-separated, a
 * newline, stdout flushed), except that a table prints as luma.pprint
 * shows it, its keys and values, rather than as "table: 0x..." (a table
 * with __tostring prints through it, as before).  Upvalue 1 is the
 * require of start-up, so a script's own global require does not matter. */
static int cli_print(lua_State *L) {
  int n = lua_gettop(L);
  for (int i = 1; i <= n; i++) {
    size_t len;
    const char *s;
    if (lua_type(L, i) == LUA_TTABLE) {
      lua_pushvalue(L, lua_upvalueindex(1));
      lua_pushliteral(L, "luma.pprint");
      lua_call(L, 1, 1);
      lua_getfield(L, -1, "pformat");
      lua_pushvalue(L, i);
      lua_call(L, 1, 1);
      s = lua_tolstring(L, -1, &len);
    } else {
      s = luaL_tolstring(L, i, &len);
    }
    if (i > 1) fwrite("\t", 1, 1, stdout);
    fwrite(s, 1, len, stdout);
    lua_settop(L, n);
  }
  fwrite("\n", 1, 1, stdout);
  fflush(stdout);
  return 0;
}

/* Globals the command adds for convenience: help(x) prints luma.help(x),
 * and print shows tables (cli_print). */
static int install_globals(lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushcclosure(L, cli_print, 1);
  lua_setglobal(L, "print");
  return run_string(L,
                    "help = function(...) return require('luma.repl').help(...) end",
                    "=(luma)");
}

static int protected_main(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  int flags = 0, bad = 0;
  int script = scan_args(argc, argv, &flags, &bad);
  if (script < 0) {
    const char *a = argv[bad];
    if ((a[1] == 'e' || a[1] == 'l') && a[2] == '\0')
      fprintf(stderr, "%s: '%s' needs an argument\n", progname, a);
    else
      fprintf(stderr, "%s: unrecognized option '%s'\n", progname, a);
    print_usage(stderr);
    lua_pushinteger(L, 2);
    return 1;
  }
  if (flags & HAS_HELP) {
    print_usage(stdout);
    lua_pushinteger(L, 0);
    return 1;
  }
  if ((flags & HAS_V) && !(flags & HAS_I)) print_version();
  create_arg_table(L, argc, argv, script);
  int status = install_globals(L);
  if (status == LUA_OK && !(flags & HAS_BIG_E)) status = run_init(L);
  if (status == LUA_OK) status = run_options(L, argv, script);
  if (status == LUA_OK && script < argc) status = run_script(L, argc, argv, script);
  if (status != LUA_OK) {
    lua_pushinteger(L, 1);
    return 1;
  }
  int exit_status = 0;
  if (flags & HAS_I) {
    exit_status = luma_repl_run(L, isatty(STDIN_FILENO));
  } else if (script == argc && !(flags & (HAS_E | HAS_V))) {
    if (isatty(STDIN_FILENO)) {
      exit_status = luma_repl_run(L, 1);
    } else {
      char dash[] = "-", *stdin_argv[] = {argv[0], dash};
      exit_status = run_script(L, 2, stdin_argv, 1) == LUA_OK ? 0 : 1;
    }
  }
  lua_pushinteger(L, exit_status);
  return 1;
}

/* When OpenBLAS took weaker kernels than this CPU runs (it did not
 * recognize the model, blascore.c), starts the program again with
 * OPENBLAS_CORETYPE naming the better ones: OpenBLAS reads it only as it
 * loads.  A user's own OPENBLAS_CORETYPE is left alone. */
static void restart_with_better_blas(char **argv) {
  if (getenv("OPENBLAS_CORETYPE") != NULL) return;
  const char *better = luma_blas_better_core();
  if (better == NULL || setenv("OPENBLAS_CORETYPE", better, 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE"); /* no /proc: go on as we are */
}

int main(int argc, char **argv) {
  restart_with_better_blas(argv);
  /* OpenBLAS starts its workers as it loads, and each spins on
   * sched_yield for about 2^28 cycles before it sleeps: on this project's
   * 2-CPU machines that spin halved the interpreter's speed for the first
   * 0.25 s of every script (docs/ARCHITECTURE.md, threads).  The process
   * is ours and no other thread has called the BLAS yet, so its workers
   * are ended now; the first threaded call starts them again. */
  luma_blas_park_threads();
  lua_State *L = luma_newstate(NULL);
  if (L == NULL) {
    fprintf(stderr, "%s: cannot create state: not enough memory\n", progname);
    return 1;
  }
  lua_pushcfunction(L, protected_main);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  int status = lua_pcall(L, 2, 1, 0);
  int exit_status = 1;
  if (status == LUA_OK)
    exit_status = (int)lua_tointeger(L, -1);
  else
    luma_cli_report(L, status);
  luma_close(L);
  return exit_status;
}
