/*
 * pool.c - a fork-based process pool (luma.parallel's engine).
 *
 * run(fn, n_tasks, n_jobs) forks n_jobs workers that inherit the whole
 * Lua state copy-on-write.  Workers take tasks one at a time from a counter
 * in a shared anonymous mapping (so a worker that drew cheap tasks takes
 * more of them), call fn(i) and write each returned string (the Lua side
 * encodes results with luma.persist) back through a pipe as [u64 task][u64
 * length][bytes].  A worker whose call fails (the Lua side catches task
 * errors, so this is an interrupt, its instruction budget running out, or
 * a bug) writes a last frame, task 0 and a body of one reason byte and the
 * message, and exits; the parent raises it as the pool's error.  Reasons:
 * I an interrupt, L the instruction budget, T the clock (stops, raised
 * here as this state's own), S a stop's message with no stop behind it
 * (raised as it is), E anything else (naming the worker and its task).  The
 * parent collects the strings, then reaps the workers: a worker that dies
 * is an error naming the signal or exit status and the task it was
 * running, never a hang.
 *
 * No script hangs or outlives its host: the parent wakes at least every
 * WAIT_SLICE_MS to check the state's interrupt flag (luma_interrupt from
 * another thread sends no signal) and its deadline, and on any way out
 * kills and reaps every worker.  On Linux each worker also asks the
 * kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG), so a parent
 * killed outright (a second Ctrl-C, SIGKILL) takes its workers with it;
 * elsewhere such workers run their current task to its end and exit when
 * their pipe's reader is gone.  Workers pin OpenBLAS to one thread so
 * n_jobs processes do not oversubscribe the cores.
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "core.h"
#include "core/blas.h"
#include "core/parallel.h"

typedef struct Worker {
  pid_t pid;
  int fd;          /* read end of its pipe, -1 once closed */
  int delivered;   /* results received */
  /* the frame being read */
  unsigned char head[16];
  size_t head_got;
  uint64_t task, length, body_got;
  char *body;      /* userdata at a fixed stack slot while reading */
} Worker;

static int write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n > 0) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Shared between the parent and its workers: the next task to hand out
 * and the task each worker is running (0 when between tasks). */
typedef struct Board {
  atomic_llong next;
  atomic_llong running[];
} Board;

/* The board's owner on the Lua stack: unmapped by the collector, so an
 * error anywhere in pool_run cannot leak it. */
typedef struct BoardRef {
  Board *board;
  size_t size;
} BoardRef;

static void release_board(BoardRef *r) {
  if (r->board) munmap(r->board, r->size);
  r->board = NULL;
}

static int board_gc(lua_State *L) {
  release_board(lua_touserdata(L, 1));
  return 0;
}

/* Pushes the owner of a new board for n_jobs workers and returns it. */
static BoardRef *new_board(lua_State *L, int n_jobs) {
  BoardRef *r = lua_newuserdatauv(L, sizeof *r, 0);
  r->board = NULL;
  r->size = sizeof(Board) + (size_t)n_jobs * sizeof(atomic_llong);
  if (luaL_newmetatable(L, "luma.pool.board")) {
    lua_pushcfunction(L, board_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  void *p = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    luaL_error(L, "luma.parallel: cannot map the shared task counter (%s)", strerror(errno));
  r->board = p;
  atomic_init(&r->board->next, 1);
  for (int k = 0; k < n_jobs; k++) atomic_init(&r->board->running[k], 0);
  return r;
}

/* How a worker ends when it cannot go on (above 0: the parent reports
 * these statuses of a worker that sent no stop frame as they are). */
enum {
  WORKER_STOPPED = 3,   /* after its stop frame */
  WORKER_PIPE_LOST = 4, /* the parent stopped reading */
  WORKER_ORPHANED = 5,  /* the parent died before the worker started */
  STOP_MESSAGE_MAX = 4096,
  WAIT_SLICE_MS = 100   /* the longest the parent waits without a look at the state */
};

static void put_header(unsigned char head[16], uint64_t task, uint64_t length) {
  for (int b = 0; b < 8; b++) {
    head[b] = (unsigned char)(task >> (8 * b));
    head[8 + b] = (unsigned char)(length >> (8 * b));
  }
}

/* A worker whose call of fn failed (ok = 0, the error on the stack) or
 * returned something other than a string (ok = 1): tells the parent why
 * in a stop frame and exits.  No Lua code runs here: after an interrupt
 * or the instruction limit every instruction would fail again. */
static _Noreturn void worker_stops(lua_State *L, int fd, int ok) {
  char reason = 'E', text[96];
  const char *msg = text;
  if (ok) {
    snprintf(text, sizeof text, "the task function returned a %s value, not a string",
             luaL_typename(L, -1));
  } else {
    switch (luma_state_stop_reason(L)) {
    case LUMA_STOP_INTERRUPT: reason = 'I'; break;
    case LUMA_STOP_INSTRUCTIONS: reason = 'L'; break;
    case LUMA_STOP_TIME: reason = 'T'; break;
    default: break;
    }
    if (lua_type(L, -1) == LUA_TSTRING) msg = lua_tostring(L, -1);
    else snprintf(text, sizeof text, "(error object is a %s value)", luaL_typename(L, -1));
    /* A stop's message with no stop behind it (a state Luma did not make,
     * where luma_interrupt's error is raised once; or a script's own
     * error("interrupted!")): the Lua side raised it past the task's
     * pcall (luma.util.args.is_stop), and the parent raises it as it is. */
    size_t n = strlen(msg);
    if (reason == 'E' && ((n >= 12 && strcmp(msg + n - 12, "interrupted!") == 0) ||
                          strstr(msg, "limit exceeded (") != NULL))
      reason = 'S';
  }
  size_t len = strlen(msg);
  if (len > STOP_MESSAGE_MAX) len = STOP_MESSAGE_MAX;
  unsigned char head[16];
  put_header(head, 0, len + 1);
  if (write_all(fd, head, sizeof head) != 0 || write_all(fd, &reason, 1) != 0 ||
      write_all(fd, msg, len) != 0)
    _exit(WORKER_PIPE_LOST);
  _exit(WORKER_STOPPED);
}

/* The worker's life: take tasks until none are left, send each result,
 * exit without returning into the parent's Lua frames. */
static void run_worker(lua_State *L, int fn_idx, Board *board, int k, int n_tasks, int fd,
                       int threads, pid_t parent) {
#ifdef __linux__
  /* Die with the parent, whatever kills it; if it died before this line
   * the signal will never come, so check. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(WORKER_ORPHANED);
#else
  (void)parent;
#endif
  /* The inherited heap is all old: generational minor collections leave
   * its pages alone instead of marking (and so copying) each of them;
   * grid-search folds ran 10% faster. */
  lua_gc(L, LUA_GCGEN, 0, 0);
  /* Workers share the cores: one thread each for native loops unless the
   * caller asked for more. */
  luma_threads_set_count(luma_threads_of(L), threads);
  luma_state_drop_time_limit(L);
  for (;;) {
    long long i = atomic_fetch_add(&board->next, 1);
    if (i > n_tasks) break;
    atomic_store(&board->running[k], i);
    lua_pushvalue(L, fn_idx);
    lua_pushinteger(L, (lua_Integer)i);
    int ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
    if (!ok || lua_type(L, -1) != LUA_TSTRING) worker_stops(L, fd, ok);
    size_t len = 0;
    const char *s = lua_tolstring(L, -1, &len);
    unsigned char head[16];
    put_header(head, (uint64_t)i, (uint64_t)len);
    if (write_all(fd, head, sizeof head) != 0 || write_all(fd, s, len) != 0)
      _exit(WORKER_PIPE_LOST);
    atomic_store(&board->running[k], 0);
    lua_pop(L, 1);
  }
  fflush(NULL);
  _exit(0);
}

static uint64_t read_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int b = 7; b >= 0; b--) v = (v << 8) | p[b];
  return v;
}

/* What read_some found. */
enum { READ_EOF, READ_MORE, READ_STOP };

/* Reads what is available from w; stores complete results in the table at
 * results_idx.  READ_STOP once the worker's stop frame is complete (its
 * body stays in w->body, anchored at slot). */
static int read_some(lua_State *L, Worker *w, int results_idx, int slot, int n_tasks) {
  if (w->head_got < sizeof w->head) {
    ssize_t r = read(w->fd, w->head + w->head_got, sizeof w->head - w->head_got);
    if (r < 0 && errno == EINTR) return READ_MORE;
    if (r <= 0) return READ_EOF;
    w->head_got += (size_t)r;
    if (w->head_got < sizeof w->head) return READ_MORE;
    w->task = read_u64(w->head);
    w->length = read_u64(w->head + 8);
    int garbled = w->task == 0 ? w->length < 1 || w->length > STOP_MESSAGE_MAX + 1
                               : w->task > (uint64_t)n_tasks || w->length > ((uint64_t)1 << 40);
    if (garbled) luaL_error(L, "luma.parallel: garbled message from worker %d", (int)w->pid);
    w->body = lua_newuserdatauv(L, w->length ? w->length : 1, 0);
    lua_replace(L, slot);
    w->body_got = 0;
  }
  if (w->body_got < w->length) {
    ssize_t r = read(w->fd, w->body + w->body_got, w->length - w->body_got);
    if (r < 0 && errno == EINTR) return READ_MORE;
    if (r <= 0) return READ_EOF;
    w->body_got += (uint64_t)r;
  }
  if (w->body_got == w->length) {
    w->head_got = 0;
    if (w->task == 0) return READ_STOP;
    lua_pushlstring(L, w->body, w->length);
    lua_rawseti(L, results_idx, (lua_Integer)w->task);
    w->delivered++;
  }
  return READ_MORE;
}

/* Kills and reaps every worker still running (after an error).  SIGINT
 * waits meanwhile: a second Ctrl-C that killed the parent here would
 * leave the workers to PR_SET_PDEATHSIG, and zombies to init. */
static void stop_all(Worker *workers, int n) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  for (int k = 0; k < n; k++) {
    if (workers[k].fd >= 0) close(workers[k].fd);
    workers[k].fd = -1;
    if (workers[k].pid > 0) {
      kill(workers[k].pid, SIGKILL);
      while (waitpid(workers[k].pid, NULL, 0) < 0 && errno == EINTR) {
      }
      workers[k].pid = 0;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

typedef struct Collect {
  Worker *workers;
  Board *board;
  int n_jobs, n_tasks;
  sigset_t wait_mask; /* the caller's signal mask, in force only inside ppoll */
} Collect;

static void describe_task(char *out, size_t size, long long task) {
  if (task > 0) snprintf(out, size, "task %lld", task);
  else snprintf(out, size, "no task");
}

/* Raises what worker k's stop frame says: an interrupt and the limits as
 * this state's own (they end the run here too), anything else naming the
 * worker and its task. */
static int raise_worker_stop(lua_State *L, const Collect *c, int k) {
  const Worker *w = &c->workers[k];
  char task[48], detail[160];
  describe_task(task, sizeof task, atomic_load(&c->board->running[k]));
  switch (w->body[0]) {
  case 'I': return luma_state_interrupt_error(L);
  case 'T': return luma_state_time_error(L);
  case 'S': /* a stop's message without the stop: as it is */
    lua_pushlstring(L, w->body + 1, w->length - 1);
    return lua_error(L);
  case 'L':
    snprintf(detail, sizeof detail,
             "luma.parallel: worker %d (pid %d) ran out of its instruction budget while running %s",
             k + 1, (int)w->pid, task);
    return luma_state_limit_error_detail(L, detail);
  default:
    lua_pushfstring(L, "luma.parallel: worker %d (pid %d) failed while running %s: ", k + 1,
                    (int)w->pid, task);
    lua_pushlstring(L, w->body + 1, w->length - 1);
    lua_concat(L, 2);
    return lua_error(L);
  }
}

static int do_nothing(lua_State *L) {
  (void)L;
  return 0;
}

/* Raises the run's stop error if it stopped, was interrupted or is out of
 * time.  In a state Luma did not make there is no flag to read: there
 * luma_interrupt sets a call hook, which a call of an empty C function
 * runs. */
static void check_state(lua_State *L) {
  if (luma_state_info(L) == NULL) {
    lua_pushcfunction(L, do_nothing);
    lua_call(L, 0, 0);
    return;
  }
  luma_state_check_interrupt(L);
  double deadline = luma_state_deadline(L);
  if (deadline > 0 && luma_monotonic_seconds() >= deadline) luma_state_time_error(L);
}

/* The longest ppoll may wait (ms): WAIT_SLICE_MS, or less before the
 * deadline. */
static int wait_slice(lua_State *L) {
  double deadline = luma_state_deadline(L);
  if (deadline <= 0) return WAIT_SLICE_MS;
  double left_ms = (deadline - luma_monotonic_seconds()) * 1000;
  return left_ms >= WAIT_SLICE_MS ? WAIT_SLICE_MS : left_ms > 0 ? (int)left_ms + 1 : 0;
}

/* collect(results, progress or nil, Collect*): reads every worker's
 * results into the table results until all pipes close.  pool_run calls it
 * protected, so that any way out of here (an error or the instruction
 * limit raised in the progress callback, an interrupt, the deadline, a
 * worker's stop frame, a memory error, a garbled message) reaches the
 * code that kills and reaps the workers. */
static int collect(lua_State *L) {
  Collect *c = lua_touserdata(L, 3);
  Worker *workers = c->workers;
  int n_jobs = c->n_jobs, n_tasks = c->n_tasks;
  int has_progress = !lua_isnil(L, 2);
  lua_settop(L, 3);
  lua_pushnil(L); /* 4: the frame body being read */
  int open_pipes = n_jobs, done = 0;
  struct pollfd *pfds = lua_newuserdatauv(L, sizeof(struct pollfd) * (size_t)n_jobs, 0); /* 5 */
  while (open_pipes > 0) {
    /* Waiting runs no Lua code, so the interrupt flag (set by a signal
     * handler, which also makes ppoll return EINTR, or by another thread,
     * which does not) and the clock are read here, at least every
     * WAIT_SLICE_MS.  SIGINT is blocked but inside ppoll: its handler
     * (the luma command's sets the flag, then leaves the next Ctrl-C to
     * kill the process) runs only while the parent waits, and a second
     * one waits until the workers are reaped. */
    check_state(L);
    for (int k = 0; k < n_jobs; k++) {
      pfds[k].fd = workers[k].fd;
      pfds[k].events = POLLIN;
      pfds[k].revents = 0;
    }
    int ms = wait_slice(L);
    struct timespec slice = {ms / 1000, (long)(ms % 1000) * 1000000L};
    int ready = ppoll(pfds, (nfds_t)n_jobs, &slice, &c->wait_mask);
    if (ready < 0 && errno != EINTR)
      return luaL_error(L, "luma.parallel: poll failed (%s)", strerror(errno));
    if (ready <= 0) continue;
    for (int k = 0; k < n_jobs; k++) {
      if (workers[k].fd < 0 || !(pfds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      int before = workers[k].delivered;
      int got = read_some(L, &workers[k], 1, 4, n_tasks);
      if (got == READ_STOP) return raise_worker_stop(L, c, k);
      if (got == READ_EOF) {
        close(workers[k].fd);
        workers[k].fd = -1;
        open_pipes--;
      }
      if (has_progress && workers[k].delivered > before) {
        done += workers[k].delivered - before;
        lua_pushvalue(L, 2);
        lua_pushinteger(L, done);
        lua_pushinteger(L, n_tasks);
        lua_call(L, 2, 0);
      }
    }
  }
  return 0;
}

/* parallel.run(fn, n_tasks, n_jobs [, progress]) -> {string...} */
static int pool_run(lua_State *L) {
  luma_check_unsandboxed(L, "luma.parallel.run");
  luaL_checktype(L, 1, LUA_TFUNCTION);
  int n_tasks = (int)luma_check_int_range(L, 2, "n_tasks", 0, 1 << 24);
  int n_jobs = (int)luma_check_int_range(L, 3, "n_jobs", 1, 256);
  int has_progress = !lua_isnoneornil(L, 4);
  if (has_progress) luaL_checktype(L, 4, LUA_TFUNCTION);
  int threads = lua_isnoneornil(L, 5) ? 1
                                      : (int)luma_check_int_range(L, 5, "threads", 1,
                                                                  LUMA_MAX_THREADS);
  if (n_jobs > n_tasks) n_jobs = n_tasks > 0 ? n_tasks : 1;
  lua_settop(L, 4);
  luma_state_check_interrupt(L); /* no workers for a run that is over */
  lua_createtable(L, n_tasks, 0); /* 5: results */
  Worker *workers = lua_newuserdatauv(L, sizeof(Worker) * (size_t)n_jobs, 0); /* 6 */
  memset(workers, 0, sizeof(Worker) * (size_t)n_jobs);
  for (int k = 0; k < n_jobs; k++) workers[k].fd = -1;
  BoardRef *owner = new_board(L, n_jobs); /* 7 */
  Board *board = owner->board;
  fflush(NULL); /* nothing buffered may be written twice */
  /* Workers inherit one BLAS thread from here: n_jobs processes must not
   * oversubscribe the cores, and setting OpenBLAS's thread count in a
   * freshly forked child left every BLAS call there 2.3 times slower. */
  int blas_threads = luma_blas_get_threads();
  luma_blas_set_threads(1);
  pid_t parent = getpid();
  for (int k = 0; k < n_jobs; k++) {
    int fds[2];
    if (pipe(fds) != 0) {
      stop_all(workers, k);
      luma_blas_set_threads(blas_threads);
      return luaL_error(L, "luma.parallel: cannot create a pipe (%s)", strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      stop_all(workers, k);
      luma_blas_set_threads(blas_threads);
      return luaL_error(L, "luma.parallel: cannot start a worker (%s)", strerror(errno));
    }
    if (pid == 0) {
      close(fds[0]);
      for (int j = 0; j < k; j++) close(workers[j].fd);
      run_worker(L, 1, board, k, n_tasks, fds[1], threads, parent);
    }
    close(fds[1]);
    workers[k].pid = pid;
    workers[k].fd = fds[0];
  }
  luma_blas_set_threads(blas_threads);
  Collect c = {.workers = workers, .board = board, .n_jobs = n_jobs, .n_tasks = n_tasks};
  /* After the forks: workers keep the caller's mask. */
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &c.wait_mask);
  lua_pushcfunction(L, collect);
  lua_pushvalue(L, 5);
  lua_pushvalue(L, 4);
  lua_pushlightuserdata(L, &c);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
    stop_all(workers, n_jobs);
    pthread_sigmask(SIG_SETMASK, &c.wait_mask, NULL);
    release_board(owner);
    return lua_error(L);
  }
  pthread_sigmask(SIG_SETMASK, &c.wait_mask, NULL);
  for (int k = 0; k < n_jobs; k++) {
    int status = 0;
    while (waitpid(workers[k].pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid_t pid = workers[k].pid;
    workers[k].pid = 0;
    long long task = atomic_load(&board->running[k]);
    int failed = WIFSIGNALED(status) || WEXITSTATUS(status) != 0;
    if (!failed && task == 0) continue;
    stop_all(workers, n_jobs);
    char during[64] = "between tasks";
    if (task > 0) snprintf(during, sizeof during, "during task %lld", task);
    if (WIFSIGNALED(status))
      return luaL_error(L, "luma.parallel: worker %d (pid %d) died of signal %d (%s) %s, after "
                        "%d results", k + 1, (int)pid, WTERMSIG(status),
                        strsignal(WTERMSIG(status)), during, workers[k].delivered);
    return luaL_error(L, "luma.parallel: worker %d (pid %d) exited with status %d %s, after %d "
                      "results", k + 1, (int)pid, WEXITSTATUS(status), during,
                      workers[k].delivered);
  }
  release_board(owner); /* now rather than at the next collection */
  lua_settop(L, 5);
  return 1;
}

static int pool_isatty(lua_State *L) {
  lua_pushboolean(L, isatty(STDERR_FILENO));
  return 1;
}

int luma_open_pool(lua_State *L) {
  static const luma_Func funcs[] = {
      {"run", pool_run,
       "run(fn, n_tasks, n_jobs [, progress = nil [, threads = 1]]) -> table of strings",
       "Runs fn(1..n_tasks) in n_jobs forked workers; fn must return a string. Returns the "
       "strings by task number. progress(done, total) is called in this process; threads "
       "is each worker's thread count for native loops (BLAS runs single-threaded in "
       "workers)."},
      {"stderr_is_terminal", pool_isatty, "stderr_is_terminal() -> boolean",
       "True when standard error is a terminal (progress bars are drawn only then)."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.pool", funcs);
  luma_doc_set(L, -1, "luma.pool", NULL, "The fork-based process pool behind luma.parallel.");
  return 1;
}
