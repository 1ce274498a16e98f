/*
 * pool.c - a fork-based process pool (luma.parallel's engine).
 *
 * run(fn, n_tasks, n_jobs) forks n_jobs workers that inherit the whole
 * Lua state copy-on-write.  Workers take tasks one at a time from a counter
 * in a shared anonymous mapping (so a worker that drew cheap tasks takes
 * more of them), call fn(i) and write each returned string (the Lua side
 * encodes results with luma.persist) back through a pipe as [u64 task][u64
 * length][bytes].  The parent collects the strings, then reaps the
 * workers: a worker that dies is an error naming the signal or exit status
 * and the task it was running, never a hang.  Workers pin OpenBLAS to one thread so n_jobs
 * processes do not oversubscribe the cores.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cblas.h>

#include "core.h"
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

/* The worker's life: take tasks until none are left, send each result,
 * exit without returning into the parent's Lua frames. */
static void run_worker(lua_State *L, int fn_idx, Board *board, int k, int n_tasks, int fd,
                       int threads) {
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
    size_t len = 0;
    const char *s = NULL;
    if (lua_pcall(L, 1, 1, 0) == LUA_OK) s = lua_tolstring(L, -1, &len);
    if (s == NULL) _exit(3); /* the Lua side catches errors: this is a bug */
    unsigned char head[16];
    for (int b = 0; b < 8; b++) {
      head[b] = (unsigned char)((uint64_t)i >> (8 * b));
      head[8 + b] = (unsigned char)((uint64_t)len >> (8 * b));
    }
    if (write_all(fd, head, sizeof head) != 0 || write_all(fd, s, len) != 0) _exit(4);
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

/* Reads what is available from w; stores complete results in the table at
 * results_idx.  Returns 0 on EOF, 1 otherwise. */
static int read_some(lua_State *L, Worker *w, int results_idx, int slot, int n_tasks) {
  if (w->head_got < sizeof w->head) {
    ssize_t r = read(w->fd, w->head + w->head_got, sizeof w->head - w->head_got);
    if (r < 0 && errno == EINTR) return 1;
    if (r <= 0) return 0;
    w->head_got += (size_t)r;
    if (w->head_got < sizeof w->head) return 1;
    w->task = read_u64(w->head);
    w->length = read_u64(w->head + 8);
    if (w->task < 1 || w->task > (uint64_t)n_tasks || w->length > ((uint64_t)1 << 40))
      luaL_error(L, "luma.parallel: garbled message from worker %d", (int)w->pid);
    w->body = lua_newuserdatauv(L, w->length ? w->length : 1, 0);
    lua_replace(L, slot);
    w->body_got = 0;
  }
  if (w->body_got < w->length) {
    ssize_t r = read(w->fd, w->body + w->body_got, w->length - w->body_got);
    if (r < 0 && errno == EINTR) return 1;
    if (r <= 0) return 0;
    w->body_got += (uint64_t)r;
  }
  if (w->body_got == w->length) {
    lua_pushlstring(L, w->body, w->length);
    lua_rawseti(L, results_idx, (lua_Integer)w->task);
    w->delivered++;
    w->head_got = 0;
  }
  return 1;
}

/* Kills and reaps every worker still running (after an error). */
static void stop_all(Worker *workers, int n) {
  for (int k = 0; k < n; k++) {
    if (workers[k].fd >= 0) close(workers[k].fd);
    workers[k].fd = -1;
    if (workers[k].pid > 0) {
      kill(workers[k].pid, SIGKILL);
      waitpid(workers[k].pid, NULL, 0);
      workers[k].pid = 0;
    }
  }
}

typedef struct Collect {
  Worker *workers;
  int n_jobs, n_tasks;
} Collect;

/* collect(results, progress or nil, Collect*): reads every worker's
 * results into the table results until all pipes close.  pool_run calls it
 * protected, so that any way out of here (an error or the instruction
 * limit raised in the progress callback, Ctrl-C, a memory error, a garbled
 * message) reaches the code that kills and reaps the workers. */
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
    for (int k = 0; k < n_jobs; k++) {
      pfds[k].fd = workers[k].fd;
      pfds[k].events = POLLIN;
      pfds[k].revents = 0;
    }
    /* Waiting runs no Lua code, so the time limit and Ctrl-C are checked
     * here: poll wakes up for the deadline and returns EINTR on a signal. */
    double deadline = luma_state_deadline(L);
    int timeout = -1;
    if (deadline > 0) {
      double left = deadline - luma_monotonic_seconds();
      if (left <= 0) luma_state_time_error(L);
      timeout = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
    }
    int ready = poll(pfds, (nfds_t)n_jobs, timeout);
    if (ready < 0) {
      if (errno != EINTR) return luaL_error(L, "luma.parallel: poll failed (%s)", strerror(errno));
      luma_state_check_interrupt(L);
      continue;
    }
    if (ready == 0) continue; /* the deadline: checked above */
    for (int k = 0; k < n_jobs; k++) {
      if (workers[k].fd < 0 || !(pfds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      int before = workers[k].delivered;
      if (!read_some(L, &workers[k], 1, 4, n_tasks)) {
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
  lua_createtable(L, n_tasks, 0); /* 5: results */
  Worker *workers = lua_newuserdatauv(L, sizeof(Worker) * (size_t)n_jobs, 0); /* 6 */
  memset(workers, 0, sizeof(Worker) * (size_t)n_jobs);
  for (int k = 0; k < n_jobs; k++) workers[k].fd = -1;
  BoardRef *owner = new_board(L, n_jobs); /* 7 */
  Board *board = owner->board;
  fflush(NULL); /* nothing buffered may be written twice */
  /* Workers inherit one BLAS thread from here: n_jobs processes must not
   * oversubscribe the cores, and calling openblas_set_num_threads in a
   * freshly forked child left every BLAS call there 2.3 times slower. */
  int blas_threads = openblas_get_num_threads();
  openblas_set_num_threads(1);
  for (int k = 0; k < n_jobs; k++) {
    int fds[2];
    if (pipe(fds) != 0) {
      stop_all(workers, k);
      openblas_set_num_threads(blas_threads);
      return luaL_error(L, "luma.parallel: cannot create a pipe (%s)", strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      stop_all(workers, k);
      openblas_set_num_threads(blas_threads);
      return luaL_error(L, "luma.parallel: cannot start a worker (%s)", strerror(errno));
    }
    if (pid == 0) {
      close(fds[0]);
      for (int j = 0; j < k; j++) close(workers[j].fd);
      run_worker(L, 1, board, k, n_tasks, fds[1], threads);
    }
    close(fds[1]);
    workers[k].pid = pid;
    workers[k].fd = fds[0];
  }
  openblas_set_num_threads(blas_threads);
  Collect c = {workers, n_jobs, n_tasks};
  lua_pushcfunction(L, collect);
  lua_pushvalue(L, 5);
  lua_pushvalue(L, 4);
  lua_pushlightuserdata(L, &c);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
    stop_all(workers, n_jobs);
    release_board(owner);
    return lua_error(L);
  }
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
