/*
 * attack_probe.c - the adversarial probe of issue 28 (docs/RELIABILITY.md,
 * "Adversarial probe"): scripts written to hang, exhaust or subvert a
 * host's state, each run in a fresh state of its own, and what the host
 * must see:
 *
 *   - the run ends with an error (not LUA_OK, unless the case allows it)
 *     within twice its limit of wall time, and the error is the expected
 *     kind (a substring of the message);
 *   - the same state then runs `return 1 + 1` and gets 2;
 *   - luma_close returns within 2 s;
 *   - no process the run started is left behind.
 *
 * The cases are in tests/c/attack_probe.lua (read here by a plain Lua
 * state).  Each runs in a forked child, its own process group, under a
 * watchdog in the parent: a case whose current phase (the run, luma_close,
 * ...) is GRACE seconds past its bound, or still running after WATCHDOG
 * seconds in all, is killed and fails naming what it was doing, so a hang
 * fails the probe instead of hanging `make test`.  The parent is also a child subreaper,
 * so a worker that outlives its case ends up here and is found.
 *
 *   attack_probe [cases.lua]      (default tests/c/attack_probe.lua)
 *   ATTACK_ONLY=text[,text...]    only the cases whose name contains one
 *
 * Prints "ok: <name> (<s> s, <message>)" or "FAIL: <name>: <why>" per case
 * and ends with "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "luma.h"

/* The limits of a case (issue 28). */
#define MEMORY_LIMIT ((size_t)256 << 20)
#define INSTRUCTION_LIMIT 10000000
#define TIME_LIMIT 2.0       /* s */
#define INTERRUPT_AT 1.0     /* s, the "interrupt" cases */
#define CLOSE_LIMIT 2.0      /* s for luma_close */
#define WATCHDOG 10.0        /* s for a whole case, state creation to close */
#define GRACE 2.0            /* s a phase may overrun its bound before the kill */
#define LEFTOVER_GRACE 0.5   /* s for workers to be gone after the run */

enum { MODE_LIMITS, MODE_TIME, MODE_INTERRUPT };

#define MAX_EXPECT 8

typedef struct Case {
  char *name, *code, *then, *not_prefix;
  char *expect[MAX_EXPECT];
  int nexpect, mode, sandbox, ok;
  double rss_mb;
} Case;

/* Written by the child, read by the parent (shared anonymous mapping): what
 * the child is doing, for the watchdog's message, and its verdict. */
typedef struct Report {
  char phase[96];
  double deadline; /* CLOCK_MONOTONIC time past which the phase hangs */
  int done, passed;
  char line[2048];
} Report;

static Report *report;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_for(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* A phase that runs `bound` seconds past its start (plus GRACE) is taken
 * for a hang and killed: a hung script fails at 2 x its limit + GRACE
 * rather than at the WATCHDOG, which keeps the probe short while cases
 * still hang. */
static void set_phase(const char *phase, double bound) {
  snprintf(report->phase, sizeof report->phase, "%s", phase);
  report->deadline = now() + bound + GRACE;
}

/* ------------------------------------------------------------- the list */

static char *dup_field(lua_State *L, int t, const char *key) {
  lua_getfield(L, t, key);
  const char *s = lua_tostring(L, -1);
  char *copy = s ? strdup(s) : NULL;
  lua_pop(L, 1);
  return copy;
}

static int bool_field(lua_State *L, int t, const char *key, int dflt) {
  lua_getfield(L, t, key);
  int v = lua_isnil(L, -1) ? dflt : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

static void free_cases(Case *cases, int n) {
  for (int i = 0; i < n; i++) {
    Case *c = &cases[i];
    free(c->name), free(c->code), free(c->then), free(c->not_prefix);
    for (int k = 0; k < c->nexpect; k++) free(c->expect[k]);
  }
  free(cases);
}

/* Reads the cases; returns their number, or -1 with a message printed. */
static int load_cases(const char *path, Case **out) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return -1;
  luaL_openlibs(L);
  if (luaL_dofile(L, path) != LUA_OK || !lua_istable(L, -1)) {
    printf("attack_probe: cannot read %s: %s\n", path,
           lua_isstring(L, -1) ? lua_tostring(L, -1) : "it returns no table");
    lua_close(L);
    return -1;
  }
  int n = (int)luaL_len(L, -1);
  Case *cases = calloc((size_t)(n > 0 ? n : 1), sizeof *cases);
  for (int i = 0; i < n; i++) {
    Case *c = &cases[i];
    lua_rawgeti(L, -1, i + 1);
    int t = lua_gettop(L);
    c->name = dup_field(L, t, "name");
    c->code = dup_field(L, t, "code");
    c->then = dup_field(L, t, "then");
    c->not_prefix = dup_field(L, t, "not_prefix");
    c->sandbox = bool_field(L, t, "sandbox", 1);
    c->ok = bool_field(L, t, "ok", 0);
    lua_getfield(L, t, "rss_mb");
    c->rss_mb = lua_tonumber(L, -1);
    lua_pop(L, 1);
    char *mode = dup_field(L, t, "mode");
    c->mode = mode == NULL || strcmp(mode, "limits") == 0 ? MODE_LIMITS
              : strcmp(mode, "time") == 0                 ? MODE_TIME
              : strcmp(mode, "interrupt") == 0            ? MODE_INTERRUPT
                                                          : -1;
    free(mode);
    lua_getfield(L, t, "expect");
    if (lua_isstring(L, -1)) {
      c->expect[c->nexpect++] = strdup(lua_tostring(L, -1));
    } else if (lua_istable(L, -1)) {
      for (int k = 1; k <= MAX_EXPECT; k++) {
        if (lua_rawgeti(L, -1, k) == LUA_TSTRING)
          c->expect[c->nexpect++] = strdup(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 2);
    if (c->name == NULL || c->code == NULL || c->nexpect == 0 || c->mode < 0) {
      printf("attack_probe: case %d of %s needs a name, code, expect and a known mode\n", i + 1,
             path);
      lua_close(L);
      return -1;
    }
  }
  lua_close(L);
  *out = cases;
  return n;
}

/* ------------------------------------------------------------ processes */

/* Reads the state, parent and process group of /proc/<pid>/stat. */
static int read_stat(const char *pid, char *state, long *ppid, long *pgrp) {
  char path[300], buf[1024];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  /* the command name may hold spaces and parentheses: fields follow the
   * last ')' */
  char *p = strrchr(buf, ')');
  if (p == NULL || sscanf(p + 1, " %c %ld %ld", state, ppid, pgrp) != 3) return -1;
  return 0;
}

/* Processes other than `self` whose parent is `parent` or whose process
 * group is `group` (either may be 0 for none), and zombie children of self
 * unless skip_zombies; their ids go in pids. */
static int find_processes(long parent, long group, long self, int skip_zombies, long *pids,
                          char *states, int max) {
  DIR *d = opendir("/proc");
  if (d == NULL) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < max) {
    if (!isdigit((unsigned char)e->d_name[0])) continue;
    long pid = strtol(e->d_name, NULL, 10), ppid, pgrp;
    char state;
    if (pid == self || read_stat(e->d_name, &state, &ppid, &pgrp) != 0) continue;
    /* a zombie is dead: a leftover only if it is the checker's own child,
     * never waited for */
    if (state == 'Z' && (skip_zombies || ppid != self)) continue;
    if ((parent != 0 && ppid == parent) || (group != 0 && pgrp == group)) {
      pids[n] = pid;
      states[n] = state;
      n++;
    }
  }
  closedir(d);
  return n;
}

/* Waits up to `grace` seconds for the processes of find_processes to be
 * gone; kills what is left and describes it in why (empty: none). */
static void check_leftovers(long parent, long group, double grace, int skip_zombies, char *why,
                            size_t size) {
  long pids[64];
  char states[64];
  int n;
  double until = now() + grace;
  while ((n = find_processes(parent, group, (long)getpid(), skip_zombies, pids, states, 64)) > 0 &&
         now() < until)
    sleep_for(0.02);
  why[0] = '\0';
  size_t used = 0;
  for (int i = 0; i < n; i++) {
    int w = snprintf(why + used, size - used, "%sprocess %ld%s", i ? ", " : "", pids[i],
                     states[i] == 'Z' ? " (a zombie: never waited for)" : "");
    if (w > 0 && (size_t)w < size - used) used += (size_t)w;
    kill((pid_t)pids[i], SIGKILL);
  }
}

/* ------------------------------------------------------------- a child */

typedef struct Verdict {
  char why[1536];
  size_t used;
} Verdict;

static void fail(Verdict *v, const char *fmt, ...) {
  if (v->used >= sizeof v->why - 1) return;
  if (v->used > 0) v->used += (size_t)snprintf(v->why + v->used, sizeof v->why - v->used, "; ");
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(v->why + v->used, sizeof v->why - v->used, fmt, ap);
  va_end(ap);
  if (w > 0) v->used += (size_t)w;
  if (v->used > sizeof v->why - 1) v->used = sizeof v->why - 1;
}

/* The first line of msg, at most `max` characters, into out. */
static void first_line(const char *msg, char *out, size_t max) {
  size_t n = 0;
  while (msg[n] && msg[n] != '\n' && n < max) n++;
  memcpy(out, msg, n);
  out[n] = '\0';
}

static lua_State *interrupted_state;

static void *interrupter(void *arg) {
  (void)arg;
  sleep_for(INTERRUPT_AT);
  luma_interrupt(interrupted_state);
  return NULL;
}

static void ignore_warning(void *ud, const char *msg) {
  (void)ud;
  (void)msg;
}

/* Peak resident set of this process, from /proc/self/status, in MB. */
static double peak_rss_mb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f == NULL) return -1;
  char line[256];
  double kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmHWM: %lf kB", &kb) == 1) break;
  fclose(f);
  return kb / 1024;
}

static void run_case(const Case *c) {
  Verdict v = {{0}, 0};
  luma_Options opts;
  memset(&opts, 0, sizeof opts);
  opts.sandbox = c->sandbox;
  opts.memory_limit = MEMORY_LIMIT;
  opts.warn = ignore_warning;
  /* the interrupt cases set no limit at all: the interrupt is what stops
   * them; "time" leaves out the instruction limit */
  opts.instruction_limit = c->mode == MODE_LIMITS ? INSTRUCTION_LIMIT : 0;
  opts.time_limit = c->mode == MODE_INTERRUPT ? 0 : TIME_LIMIT;
  const double limit = c->mode == MODE_INTERRUPT ? INTERRUPT_AT : TIME_LIMIT;

  set_phase("creating the state", WATCHDOG);
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) {
    snprintf(report->line, sizeof report->line, "FAIL: %s: luma_newstate returned NULL", c->name);
    report->done = 1;
    return;
  }
  /* an isolation case is a host that seals its state (luma.h) */
  if (c->then && luma_seal(L) != LUA_OK) fail(&v, "luma_seal failed");
  pthread_t thread;
  int threaded = 0;
  if (c->mode == MODE_INTERRUPT) {
    interrupted_state = L;
    threaded = pthread_create(&thread, NULL, interrupter, NULL) == 0;
    if (!threaded) fail(&v, "cannot start the interrupting thread");
  }

  set_phase("running the script", 2 * limit);
  double t0 = now();
  int status = luma_run_string(L, c->code, "=attack", 0);
  double took = now() - t0;
  char msg[256];
  first_line(status == LUA_OK ? "(no error)" : lua_isstring(L, -1) ? lua_tostring(L, -1) : "?",
             msg, sizeof msg - 1);
  set_phase("waiting for the interrupting thread", INTERRUPT_AT);
  if (threaded) pthread_join(thread, NULL);

  if (status == LUA_OK && !c->ok) fail(&v, "ended without an error");
  if (took > 2 * limit) fail(&v, "took %.2f s (more than twice the %g s limit)", took, limit);
  if (status != LUA_OK) {
    int matched = 0;
    for (int k = 0; k < c->nexpect; k++) matched |= strstr(msg, c->expect[k]) != NULL;
    if (!matched) {
      char expected[512] = "";
      for (int k = 0; k < c->nexpect; k++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s'%s'",
                 k ? " or " : "", c->expect[k]);
      fail(&v, "error is not %s: %.200s", expected, msg);
    }
    if (c->not_prefix && strncmp(msg, c->not_prefix, strlen(c->not_prefix)) == 0)
      fail(&v, "error located inside the library: %.200s", msg);
  }
  if (c->rss_mb > 0) {
    double rss = peak_rss_mb();
    if (!(rss >= 0 && rss < c->rss_mb)) fail(&v, "peak RSS %.0f MB (limit %g MB)", rss, c->rss_mb);
  }
  char left[512];
  set_phase("looking for leftover processes after the run", LEFTOVER_GRACE);
  check_leftovers((long)getpid(), (long)getpid(), LEFTOVER_GRACE, 0, left, sizeof left);
  if (left[0]) fail(&v, "left running after the run: %s", left);
  lua_settop(L, 0);

  if (c->then) {
    set_phase("running the second script", 2 * limit);
    if (luma_run_string(L, c->then, "=attack2", 0) != LUA_OK) {
      char m2[256];
      first_line(lua_isstring(L, -1) ? lua_tostring(L, -1) : "?", m2, 200);
      fail(&v, "run 2 must see the stock behaviour: %s", m2);
    }
    lua_settop(L, 0);
  }

  set_phase("running `return 1 + 1` after it", 2 * limit);
  if (luma_run_string(L, "return 1 + 1", "=next", 1) != LUA_OK) {
    char m3[256];
    first_line(lua_isstring(L, -1) ? lua_tostring(L, -1) : "?", m3, 200);
    fail(&v, "the next run fails: %s", m3);
  } else if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) != 2) {
    fail(&v, "the next run returns %s, not 2", luaL_typename(L, -1));
  }
  lua_settop(L, 0);

  set_phase("closing the state (luma_close)", CLOSE_LIMIT);
  double c0 = now();
  luma_close(L);
  double closing = now() - c0;
  if (closing > CLOSE_LIMIT) fail(&v, "luma_close took %.2f s", closing);
  set_phase("looking for leftover processes after luma_close", LEFTOVER_GRACE);
  check_leftovers((long)getpid(), (long)getpid(), 0, 0, left, sizeof left);
  if (left[0]) fail(&v, "left running after luma_close: %s", left);

  if (v.used == 0) {
    char shown[64];
    first_line(msg, shown, 60);
    snprintf(report->line, sizeof report->line, "ok: %s (%.2f s, %s)", c->name, took, shown);
    report->passed = 1;
  } else {
    snprintf(report->line, sizeof report->line, "FAIL: %s: %s", c->name, v.why);
  }
  report->done = 1;
}

/* ------------------------------------------------------------ the parent */

/* Runs one case in a child; returns 1 if it passed. */
static int probe(const Case *c) {
  memset(report, 0, sizeof *report);
  set_phase("starting", WATCHDOG);
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    printf("FAIL: %s: fork: %s\n", c->name, strerror(errno));
    return 0;
  }
  if (pid == 0) {
    setpgid(0, 0);
    run_case(c);
    fflush(stdout);
    _exit(0);
  }
  setpgid(pid, pid); /* as the child does: whichever runs first */
  int wstatus = 0, reaped = 0;
  double start = now(), t;
  while (!reaped && (t = now()) - start < WATCHDOG &&
         t < *(volatile double *)&report->deadline) {
    if (waitpid(pid, &wstatus, WNOHANG) == pid) reaped = 1;
    else sleep_for(0.01);
  }
  char line[sizeof report->line + 600];
  int passed = 0;
  if (!reaped) {
    kill(-pid, SIGKILL); /* the child and any worker in its group */
    waitpid(pid, &wstatus, 0);
    snprintf(line, sizeof line, "FAIL: %s: still running after %.1f s (%s); killed", c->name,
             now() - start, report->phase);
  } else if (WIFSIGNALED(wstatus)) {
    snprintf(line, sizeof line, "FAIL: %s: killed by signal %d (%s)", c->name,
             WTERMSIG(wstatus), report->phase);
  } else if (!report->done) {
    snprintf(line, sizeof line, "FAIL: %s: exited with status %d (%s)", c->name,
             WEXITSTATUS(wstatus), report->phase);
  } else {
    snprintf(line, sizeof line, "%s", report->line);
    passed = report->passed;
  }
  /* Orphans: descendants of the child that outlived it were reparented
   * here (the subreaper), and any left in its group is the case's too.
   * Dead ones are only ours to reap (the child reports the zombies it
   * never waited for). */
  char left[512];
  check_leftovers((long)getpid(), (long)pid, 0.2, 1, left, sizeof left);
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  if (left[0]) {
    if (passed) {
      snprintf(line, sizeof line, "FAIL: %s: outlived the case: %s; killed", c->name, left);
    } else {
      size_t used = strlen(line);
      snprintf(line + used, sizeof line - used, "; outlived the case: %s; killed", left);
    }
    passed = 0;
  }
  printf("%s\n", line);
  fflush(stdout);
  return passed;
}

/* Whether name contains one of the comma-separated texts of `only`. */
static int selected(const char *name, const char *only) {
  if (only == NULL || *only == '\0') return 1;
  char text[256];
  while (*only) {
    size_t n = strcspn(only, ",");
    snprintf(text, sizeof text, "%.*s", (int)(n < sizeof text ? n : sizeof text - 1), only);
    if (n > 0 && strstr(name, text) != NULL) return 1;
    only += n + (only[n] == ',');
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "tests/c/attack_probe.lua";
  const char *only = getenv("ATTACK_ONLY");
  setvbuf(stdout, NULL, _IOLBF, 0);
  Case *cases;
  int n = load_cases(path, &cases);
  if (n < 0) {
    printf("0 passed, 1 failed\n");
    return 1;
  }
  report = mmap(NULL, sizeof *report, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (report == MAP_FAILED) {
    printf("attack_probe: mmap: %s\n0 passed, 1 failed\n", strerror(errno));
    return 1;
  }
  /* workers orphaned by a case come here rather than to init */
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  int passed = 0, failed = 0;
  double t0 = now();
  for (int i = 0; i < n; i++) {
    if (!selected(cases[i].name, only)) continue;
    if (probe(&cases[i])) passed++;
    else failed++;
  }
  printf("attack_probe: %.1f s\n", now() - t0);
  printf("%d passed, %d failed\n", passed, failed);
  free_cases(cases, n);
  munmap(report, sizeof *report);
  return failed == 0 ? 0 : 1;
}
