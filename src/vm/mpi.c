/*
 * mpi.c - luma.mpi, the Open MPI engine behind luma.parallel's "mpi"
 * backend (docs/PARALLEL.md).
 *
 * `mpirun -np N luma script.lua` runs the same script on N ranks.  Every
 * rank reaches each luma.parallel.map call with the same data and the same
 * task function, so only task numbers and results travel: rank 0
 * coordinates and ranks 1..N-1 work.  A worker says it is ready, rank 0
 * answers with the next task number from its counter (so a worker that
 * drew cheap tasks takes more of them, as in the fork pool), the worker
 * runs fn(i) and sends back the bytes it returned, and asks again (while
 * tasks are short and plenty, a worker holds a few, sent ahead, so it
 * never waits for rank 0 in between).  When the tasks are done (or one
 * failed) rank 0 tells each worker the map is over, and share() sends one
 * payload from rank 0 to every rank so they all return the same table.
 * With one rank (a plain `luma script.lua`) rank 0 runs the tasks itself.
 *
 * Waiting is a probe-and-nap loop rather than a blocking receive: Open
 * MPI's blocking calls spin, and a coordinator spinning on one of two
 * cores would halve the workers' speed.
 *
 * Failures never hang the job:
 *   - a failing task reaches rank 0 as its error message, which names the
 *     task and the rank in the error every rank raises;
 *   - a rank that exits in the middle of a task (os.exit in the task)
 *     tells rank 0 from its exit handler before it goes;
 *   - every rank sends a heartbeat to its peers (rank 0 to each worker,
 *     workers to rank 0) once a second from a thread, so a rank that dies
 *     silently, or hangs, is noticed after LUMA_MPI_TIMEOUT seconds of
 *     silence (default 60) by whoever waits for it;
 *   - after a lost rank, or when the process exits with a failure status,
 *     the exit handler calls MPI_Abort instead of MPI_Finalize (which
 *     would wait for the lost rank forever), so the launcher ends the job.
 *
 * MPI is one per process, so its state here is process-wide (the one
 * exception to "no C globals"): started on first use (MPI_Init_thread
 * with MPI_THREAD_MULTIPLE for the heartbeat thread), shut down by an
 * exit handler.  Built only when Open MPI's headers are installed
 * (LUMA_HAVE_MPI, set by the Makefile from pkg-config); otherwise
 * `available` is false and luma.parallel explains how to enable it.
 * Open MPI itself is loaded with dlopen on first use (see "loading Open
 * MPI" below), never linked.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "core/numtext.h"
#include "core/matrix_lua.h"

/* ------------------------------------------------------------- digest */

/* One 64-bit word into the running hash (multiply-xorshift). */
static uint64_t mix(uint64_t h, uint64_t w) {
  h ^= w;
  h *= 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

/* digest(s) -> 16 hex digits of a string's or a matrix's contents: what
 * luma.parallel compares across ranks to check that every rank holds the
 * same data (a matrix by shape and element bits, without a copy). */
static int mpi_digest(lua_State *L) {
  uint64_t h = 0x243F6A8885A308D3ull;
  luma_MatrixRef m;
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t len = 0;
    const unsigned char *s = (const unsigned char *)lua_tolstring(L, 1, &len);
    h = mix(h, (uint64_t)len);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      h = mix(h, w);
    }
    uint64_t tail = 0;
    memcpy(&tail, s + i, len - i);
    h = mix(h, tail);
  } else if (luma_get_matrix(L, 1, &m) == LUA_OK) {
    h = mix(mix(h, (uint64_t)m.rows), (uint64_t)m.cols);
    for (int64_t i = 0; m.cols > 0 && i < m.rows; i++)
      for (int64_t j = 0; j < m.cols; j++) {
        uint64_t w;
        memcpy(&w, &m.data[i * m.row_stride + j * m.col_stride], 8);
        h = mix(h, w);
      }
  } else {
    return luma_arg_error(L, 1, "a string or a matrix expected, got %s", luaL_typename(L, 1));
  }
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  lua_pushstring(L, hex);
  return 1;
}

/* allgather(M) with one rank: a copy of M and {its rows}. */
static int allgather_alone(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_mat_copy(luma_matrix_new(L, m->rows, m->cols), m);
  lua_createtable(L, 1, 0);
  lua_pushinteger(L, (lua_Integer)m->rows);
  lua_rawseti(L, -2, 1);
  return 2;
}

#ifdef LUMA_HAVE_MPI

#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>

#include "core/blas.h"
#include "core/parallel.h"

/* ---------------------------------------------------- loading Open MPI */

/* Open MPI is not linked: libmpi and its twenty-odd libraries (hwloc,
 * libevent, PMIx...) are loaded with dlopen when a script first uses MPI,
 * so that hosts that never do (most) do not load them, and a machine
 * without Open MPI runs everything else (docs/ARCHITECTURE.md).  Its
 * functions are called through this table, and its predefined handles
 * (MPI_COMM_WORLD, MPI_BYTE...), which in Open MPI are the addresses of
 * objects in libmpi, are looked up by those objects' names.  The library
 * is LUMA_LIBMPI, the soname of the libmpi the build found, unless
 * LUMA_MPI_LIBRARY names another file. */
#define MPI_FUNCTIONS(X) X(Abort) X(Allgather) X(Comm_dup) X(Comm_free) X(Comm_rank) \
  X(Comm_set_errhandler) X(Comm_size) X(Finalize) X(Get_count) X(Iallgather) X(Iallgatherv) \
  X(Improbe) X(Init_thread) X(Initialized) X(Isend) X(Issend) X(Mrecv) X(Send) X(Test) \
  X(Testall) X(Waitall)

static struct {
  pthread_once_t once;
  int loaded;
  char why[400]; /* when not loaded */
#define FIELD(f) __typeof__(&MPI_##f) f;
  MPI_FUNCTIONS(FIELD)
#undef FIELD
  void *comm_world, *errors_return, *request_null, *byte_type, *double_type, *long_long_type;
} mpi = {.once = PTHREAD_ONCE_INIT};

#undef MPI_COMM_WORLD
#define MPI_COMM_WORLD ((MPI_Comm)mpi.comm_world)
#undef MPI_ERRORS_RETURN
#define MPI_ERRORS_RETURN ((MPI_Errhandler)mpi.errors_return)
#undef MPI_REQUEST_NULL
#define MPI_REQUEST_NULL ((MPI_Request)mpi.request_null)
#undef MPI_BYTE
#define MPI_BYTE ((MPI_Datatype)mpi.byte_type)
#undef MPI_DOUBLE
#define MPI_DOUBLE ((MPI_Datatype)mpi.double_type)
#undef MPI_LONG_LONG
#define MPI_LONG_LONG ((MPI_Datatype)mpi.long_long_type)

static void load_mpi(void) {
  const char *file = getenv("LUMA_MPI_LIBRARY");
  if (file == NULL || *file == '\0') file = LUMA_LIBMPI;
  /* RTLD_GLOBAL: Open MPI's own plugins (mca_*.so) take its symbols from
   * the global scope, they do not link libmpi */
  void *h = dlopen(file, RTLD_NOW | RTLD_GLOBAL);
  if (h == NULL) {
    snprintf(mpi.why, sizeof mpi.why, "Open MPI's library cannot be loaded (%s); install Open "
             "MPI (Debian: apt install libopenmpi3) or run without MPI", dlerror());
    return;
  }
  const char *missing = NULL;
  void *p;
#define LOOK_UP(field, name) \
  if ((p = dlsym(h, name)) == NULL) missing = name; \
  memcpy(&mpi.field, &p, sizeof p);
#define LOOK_UP_FUNCTION(f) LOOK_UP(f, "MPI_" #f)
  MPI_FUNCTIONS(LOOK_UP_FUNCTION)
  LOOK_UP(comm_world, "ompi_mpi_comm_world")
  LOOK_UP(errors_return, "ompi_mpi_errors_return")
  LOOK_UP(request_null, "ompi_request_null")
  LOOK_UP(byte_type, "ompi_mpi_byte")
  LOOK_UP(double_type, "ompi_mpi_double")
  LOOK_UP(long_long_type, "ompi_mpi_long_long_int")
#undef LOOK_UP_FUNCTION
#undef LOOK_UP
  if (missing != NULL) {
    snprintf(mpi.why, sizeof mpi.why, "%s is not Open MPI's library (it has no %s)", file,
             missing);
    return;
  }
  mpi.loaded = 1;
}

/* Whether Open MPI is loaded (loading it on first call). */
static int mpi_loaded(void) {
  pthread_once(&mpi.once, load_mpi);
  return mpi.loaded;
}

/* Message tags.  Every message but BEAT and BYE starts with three 64-bit
 * words: the map's number (epoch) and two numbers whose meaning depends on
 * the tag; bytes may follow. */
enum {
  TAG_READY = 1, /* worker -> 0: n tasks; bytes: the digest of its inputs */
  TAG_TASK,      /* 0 -> worker: task number, 0 when the map is over */
  TAG_RESULT,    /* worker -> 0: task, failed?; bytes: result or error message */
  TAG_EXIT,      /* worker -> 0: task, exit status (from the exit handler) */
  TAG_SHARE,     /* 0 -> worker: -, broken?; bytes: the payload every rank returns */
  TAG_BEAT,      /* heartbeat, empty */
  TAG_BYE        /* the sender is shutting MPI down, empty */
};
#define HEAD_WORDS 3
#define HEAD_BYTES (HEAD_WORDS * 8)

typedef struct Identity {
  int pid;
  char host[60];
} Identity;

static struct World {
  int state; /* 0: not started, 1: running, 2: shut down */
  int rank, size;
  pid_t pid; /* the process that started MPI (fork-pool children are not it) */
  MPI_Comm comm; /* a duplicate of MPI_COMM_WORLD, errors returned */
  Identity *who; /* pid and host of every rank, for messages */
  double timeout; /* seconds of silence before a peer is presumed lost */
  double *heard;  /* when each rank was last heard from */
  char *gone;     /* ranks lost */
  long long epoch; /* maps finished (the same count on every rank) */
  atomic_llong task; /* on a worker: the task being run, 0 between tasks */
  atomic_int busy;   /* a Lua state is inside run or share */
  int broken;        /* a rank was lost: no more maps, MPI_Abort at exit */
  char lost[320];    /* why, once broken */
  char *buf;         /* receive buffer */
  size_t cap;
  /* heartbeats */
  int beating;
  pthread_t beat;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int quit;
  MPI_Request *beat_req; /* one per rank */
} world = {.mu = PTHREAD_MUTEX_INITIALIZER};

static const char BEAT_BYTE = 0;

static double now(void) { return luma_monotonic_seconds(); }

/* Waiting for a message: a few immediate retries, then naps of growing
 * length.  *w counts the retries up from a negative start, then holds the
 * next nap in microseconds; callers reset it when a message arrives.
 * A worker waiting for its next task retries many times (a message that
 * has just arrived often needs one more probe, which moves it into MPI's
 * queues, and on a busy machine any sleep may cost a whole time slice)
 * and naps from 10 us to 0.5 ms, so that a task is never late by more
 * than that.  Other waits, rank 0's above all, start at 0.2 ms and go up
 * to 1 ms without retries: every wake-up is CPU taken from the workers,
 * and workers hold tasks ahead, so rank 0 may answer a little late;
 * once every task is handed out, rank 0 naps 50 to 100 us, since the
 * last results decide when the map ends. */
#define WORKER_START (-64)
static void nap_for(int *w, int first, int most) {
  if (*w < 0) {
    (*w)++;
    return;
  }
  int us = *w < first ? first : *w;
  struct timespec ts = {0, (long)us * 1000};
  nanosleep(&ts, NULL);
  *w = 2 * us < most ? 2 * us : most;
}

static void nap_worker(int *w) { nap_for(w, 10, 500); }
static void nap(int *w) { nap_for(w, 200, 1000); }
static void nap_tail(int *w) { nap_for(w, 50, 100); }

/* Marks the job broken: rank r is gone, `what` says how ("exited with
 * status 7 during task 3"). */
static void lose(int r, const char *what) {
  snprintf(world.lost, sizeof world.lost, "rank %d (pid %d on %s) %s", r, world.who[r].pid,
           world.who[r].host, what);
  world.gone[r] = 1;
  world.broken = 1;
}

/* lose() for a rank that fell silent, naming the task it was running. */
static void lose_silent(int r, double silent, long long task) {
  char what[96];
  if (task > 0)
    snprintf(what, sizeof what, "sent nothing for %.0f s during task %lld: presumed lost", silent,
             task);
  else
    snprintf(what, sizeof what, "sent nothing for %.0f s: presumed lost", silent);
  lose(r, what);
}

/* ------------------------------------------------------------ messages */

static void put_head(unsigned char *p, long long epoch, long long a, long long b) {
  long long w[HEAD_WORDS] = {epoch, a, b};
  memcpy(p, w, HEAD_BYTES);
}

/* Sends a header and bytes (small control messages: eager, no wait). */
static int send_msg(int to, int tag, long long a, long long b, const char *bytes, size_t len) {
  unsigned char stack[HEAD_BYTES + 128];
  unsigned char *p = len <= 128 ? stack : malloc(HEAD_BYTES + len);
  if (p == NULL) return MPI_ERR_NO_MEM;
  put_head(p, world.epoch, a, b);
  if (len) memcpy(p + HEAD_BYTES, bytes, len);
  int rc = mpi.Send(p, (int)(HEAD_BYTES + len), MPI_BYTE, to, tag, world.comm);
  if (p != stack) free(p);
  return rc;
}

typedef struct Msg {
  int from, tag;
  long long epoch, a, b;
  const char *bytes; /* in world.buf, valid until the next receive */
  size_t len;
} Msg;

/* Receives one waiting message with `tag` from `from` (or MPI_ANY_TAG,
 * MPI_ANY_SOURCE) into m.  Returns 1 if one arrived, 0 if none is
 * waiting, -1 on an MPI error.  Any message refreshes its sender's heard
 * time; heartbeats are returned too (tag BEAT) so callers see that the
 * peer is alive. */
static int poll_msg(int from, int tag, Msg *m) {
  int flag = 0;
  MPI_Message handle;
  MPI_Status st;
  if (mpi.Improbe(from, tag, world.comm, &flag, &handle, &st) != MPI_SUCCESS) return -1;
  if (!flag) return 0;
  int count = 0;
  mpi.Get_count(&st, MPI_BYTE, &count);
  if ((size_t)count > world.cap) {
    char *b = realloc(world.buf, (size_t)count);
    if (b == NULL) return -1;
    world.buf = b;
    world.cap = (size_t)count;
  }
  if (mpi.Mrecv(world.buf, count, MPI_BYTE, &handle, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
  m->from = st.MPI_SOURCE;
  m->tag = st.MPI_TAG;
  m->epoch = m->a = m->b = 0;
  m->bytes = NULL;
  m->len = 0;
  if (count >= HEAD_BYTES) {
    long long w[HEAD_WORDS];
    memcpy(w, world.buf, HEAD_BYTES);
    m->epoch = w[0];
    m->a = w[1];
    m->b = w[2];
    m->bytes = world.buf + HEAD_BYTES;
    m->len = (size_t)count - HEAD_BYTES;
  }
  world.heard[m->from] = now();
  return 1;
}

/* ---------------------------------------------------------- heartbeats */

static void send_beats(void) {
  int first = world.rank == 0 ? 1 : 0, last = world.rank == 0 ? world.size - 1 : 0;
  for (int p = first; p <= last; p++) {
    int done = 1;
    if (world.beat_req[p] != MPI_REQUEST_NULL) mpi.Test(&world.beat_req[p], &done, MPI_STATUS_IGNORE);
    if (done)
      mpi.Issend(&BEAT_BYTE, 0, MPI_BYTE, p, TAG_BEAT, world.comm, &world.beat_req[p]);
  }
}

static void *beat_main(void *arg) {
  (void)arg;
  double period = world.timeout / 4 < 1 ? world.timeout / 4 : 1;
  pthread_mutex_lock(&world.mu);
  while (!world.quit) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double t = (double)until.tv_sec + (double)until.tv_nsec * 1e-9 + period;
    until.tv_sec = (time_t)t;
    until.tv_nsec = (long)((t - (double)until.tv_sec) * 1e9);
    pthread_cond_timedwait(&world.cv, &world.mu, &until);
    if (world.quit) break;
    pthread_mutex_unlock(&world.mu);
    send_beats();
    pthread_mutex_lock(&world.mu);
  }
  pthread_mutex_unlock(&world.mu);
  return NULL;
}

static void start_beats(void) {
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&world.cv, &attr);
  pthread_condattr_destroy(&attr);
  world.beat_req = malloc(sizeof(MPI_Request) * (size_t)world.size);
  if (world.beat_req == NULL) return;
  for (int p = 0; p < world.size; p++) world.beat_req[p] = MPI_REQUEST_NULL;
  world.quit = 0;
  world.beating = pthread_create(&world.beat, NULL, beat_main, NULL) == 0;
}

static void stop_beats(void) {
  if (!world.beating) return;
  pthread_mutex_lock(&world.mu);
  world.quit = 1;
  pthread_cond_signal(&world.cv);
  pthread_mutex_unlock(&world.mu);
  pthread_join(world.beat, NULL);
  world.beating = 0;
}

/* ------------------------------------------------------- start and end */

/* Launchers (mpirun, srun with PMIx) set one of these in every rank. */
static int launched(void) {
  static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", NULL};
  for (int k = 0; vars[k]; k++)
    if (getenv(vars[k]) != NULL) return 1;
  return 0;
}

/* Waits until `from` sends BYE (other messages are dropped: heartbeats,
 * results of tasks abandoned after a failure).  0 when it came, -1 when
 * the peer fell silent for the timeout. */
static int await_bye(int from) {
  int us = 0;
  world.heard[from] = now();
  for (;;) {
    Msg m;
    int got = poll_msg(from, MPI_ANY_TAG, &m);
    if (got < 0) return -1;
    if (got > 0) {
      if (m.tag == TAG_BYE) return 0;
      us = 0;
      continue;
    }
    if (now() - world.heard[from] > world.timeout) return -1;
    nap(&us);
  }
}

/* Ends MPI for this process: an orderly MPI_Finalize when every peer
 * says goodbye, MPI_Abort otherwise (the launcher then ends the job). */
static void shut_down(int status) {
  stop_beats();
  if (world.broken || status != 0) {
    mpi.Abort(MPI_COMM_WORLD, status != 0 ? status : 1);
    return;
  }
  int ok = 1;
  if (world.size > 1) {
    int first = world.rank == 0 ? 1 : 0, last = world.rank == 0 ? world.size - 1 : 0;
    for (int p = first; p <= last; p++) send_msg(p, TAG_BYE, 0, 0, NULL, 0);
    for (int p = first; p <= last && ok; p++) ok = await_bye(p) == 0;
    if (ok && world.beat_req != NULL) mpi.Waitall(world.size, world.beat_req, MPI_STATUSES_IGNORE);
  }
  if (!ok) {
    mpi.Abort(MPI_COMM_WORLD, 1);
    return;
  }
  mpi.Comm_free(&world.comm);
  mpi.Finalize();
}

/* The exit handler (on_exit, so it sees the status). */
static void at_exit(int status, void *arg) {
  (void)arg;
  if (world.state != 1 || getpid() != world.pid) return;
  world.state = 2;
  long long task = atomic_load(&world.task);
  if (world.rank > 0 && task > 0) {
    /* Exiting in the middle of a task: tell rank 0, which then fails the
     * map naming this rank and task, and give it two seconds to say so
     * (its own exit usually ends the job sooner) before the launcher,
     * seeing this process end without MPI_Finalize, ends the job. */
    stop_beats();
    send_msg(0, TAG_EXIT, task, status, NULL, 0);
    struct timespec ts = {2, 0};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    return;
  }
  shut_down(status);
}

/* Starts MPI in this process (once). */
static void world_start(lua_State *L) {
  if (world.state == 1) return;
  if (world.state == 2) luaL_error(L, "luma.parallel: MPI is already shut down in this process");
  if (!mpi_loaded()) { /* located at the script's call */
    luaL_where(L, 2);
    lua_pushfstring(L, "luma.mpi: %s", mpi.why);
    lua_concat(L, 2);
    lua_error(L);
  }
  /* The waits here probe and nap; Open MPI's own habit when cores are
   * oversubscribed, a sched_yield in every probe that finds nothing,
   * would hand the core to another process at each probe (unless the
   * user asked for it).  Set before any MPI call: the first one reads
   * the environment. */
  setenv("OMPI_MCA_mpi_yield_when_idle", "0", 0);
  int flag = 0;
  mpi.Initialized(&flag);
  if (flag) luaL_error(L, "luma.parallel: MPI was started by someone else in this process");
  int provided = 0;
  if (mpi.Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    luaL_error(L, "luma.parallel: MPI_Init_thread failed");
  mpi.Comm_dup(MPI_COMM_WORLD, &world.comm);
  mpi.Comm_set_errhandler(world.comm, MPI_ERRORS_RETURN);
  mpi.Comm_rank(world.comm, &world.rank);
  mpi.Comm_size(world.comm, &world.size);
  world.pid = getpid();
  world.timeout = 60;
  const char *env = getenv("LUMA_MPI_TIMEOUT");
  if (env != NULL && *env != '\0') {
    char *end = NULL;
    double t = luma_strtod_c(env, &end);
    if (*end == '\0' && t > 0) world.timeout = t;
    else lua_warning(L, "LUMA_MPI_TIMEOUT must be a number of seconds > 0; using 60", 0);
  }
  world.heard = calloc((size_t)world.size, sizeof *world.heard);
  world.gone = calloc((size_t)world.size, 1);
  world.who = calloc((size_t)world.size, sizeof *world.who);
  if (world.heard == NULL || world.gone == NULL || world.who == NULL)
    luaL_error(L, "luma.parallel: out of memory starting MPI");
  Identity me = {.pid = (int)world.pid};
  gethostname(me.host, sizeof me.host - 1);
  mpi.Allgather(&me, (int)sizeof me, MPI_BYTE, world.who, (int)sizeof me, MPI_BYTE, world.comm);
  atomic_init(&world.task, 0);
  atomic_init(&world.busy, 0);
  world.state = 1;
  on_exit(at_exit, NULL);
  if (world.size > 1 && provided >= MPI_THREAD_MULTIPLE) start_beats();
  /* Ranks are the parallelism (one per core), so each runs with one
   * thread for native loops and BLAS, unless LUMA_NUM_THREADS says
   * otherwise: idle OpenBLAS threads spin for a while after each call,
   * and on rank 0 or between maps they took cores from working ranks. */
  if (world.size > 1 && getenv("LUMA_NUM_THREADS") == NULL) luma_threads_configure(L, 1);
}

/* ---------------------------------------------------------------- guard */

/* A to-be-closed value on the stack of run/share: releases the world and
 * puts back the thread counts however the call ends. */
typedef struct Guard {
  luma_Threads *threads;
  int count, blas, pinned;
  int gc_mode; /* the collector's mode before a worker's tasks */
} Guard;

static int guard_close(lua_State *L) {
  Guard *g = lua_touserdata(L, 1);
  if (g->pinned) {
    luma_threads_set_count(g->threads, g->count);
    luma_blas_set_threads(g->blas);
    if (g->gc_mode == LUA_GCINC) lua_gc(L, LUA_GCINC, 0, 0);
    g->pinned = 0;
  }
  atomic_store(&world.task, 0);
  atomic_store(&world.busy, 0);
  return 0;
}

/* Starts MPI if needed and takes the world for one call; pushes the
 * guard.  After a lost rank only share may still run (so the workers
 * learn why the job failed). */
static Guard *enter(lua_State *L, const char *fname, int even_broken) {
  luma_check_unsandboxed(L, fname);
  world_start(L);
  if (world.broken && !even_broken)
    luaL_error(L, "luma.parallel: %s; no more tasks can run in this job", world.lost);
  int expected = 0;
  if (!atomic_compare_exchange_strong(&world.busy, &expected, 1))
    luaL_error(L, "luma.parallel: another Lua state of this process is using MPI");
  Guard *g = lua_newuserdatauv(L, sizeof *g, 0);
  memset(g, 0, sizeof *g);
  if (luaL_newmetatable(L, "luma.mpi.guard")) {
    lua_pushcfunction(L, guard_close);
    lua_setfield(L, -2, "__close");
  }
  lua_setmetatable(L, -2);
  lua_toclose(L, -1);
  return g;
}

/* ------------------------------------------------------------- the map */

/* Calls the task function (stack index 1) on task i: it returns true and
 * bytes, or false and an error message.  Leaves the bytes (or message) on
 * the stack and returns them; *failed says which. */
static const char *call_task(lua_State *L, long long i, size_t *len, int *failed) {
  lua_pushvalue(L, 1);
  lua_pushinteger(L, (lua_Integer)i);
  if (lua_pcall(L, 1, 2, 0) != LUA_OK) {
    *failed = 1;
  } else {
    *failed = !lua_toboolean(L, -2);
    lua_remove(L, -2);
  }
  const char *s = lua_tolstring(L, -1, len);
  if (s == NULL) {
    lua_pop(L, 1);
    lua_pushfstring(L, "task %I returned no bytes", (lua_Integer)i);
    *failed = 1;
    s = lua_tolstring(L, -1, len);
  }
  return s;
}

/* Tasks a worker may hold at once: the one it runs and the next ones,
 * already sent, so that it does not wait for rank 0 between short tasks.
 * Rank 0 shares two cores with the workers, so its answer to a result
 * can come 2-4 ms late (it naps, then waits for a core): grid-search fits
 * of a millisecond idled the workers a quarter of the time when they held
 * a single task near the end of the map.  So a worker holds two tasks from
 * the start (when there are plenty), and, once tasks are known to be
 * short, no fewer than three and up to half a fair share of those left
 * (guided self-scheduling), which keeps the imbalance at the end to a few
 * short tasks.  Long tasks are held one at a time: a task queued behind a
 * long one could wait while another worker idles. */
#define QUEUE 16
#define SHORT_TASK 0.05 /* seconds */

/* Rank 0's view of the map while it coordinates. */
typedef struct Peer {
  long long queue[QUEUE]; /* tasks sent and not yet answered, in order */
  int held;               /* how many */
  int ready;              /* it reached the map (said READY) */
  int over;               /* told the map is over, or lost */
} Peer;

typedef struct Coord {
  Peer *peers;
  long long n, next, delivered;
  double start;  /* when the map started */
  int open;      /* workers not yet told the map is over */
  char why[512]; /* the first failure; once set no task is handed out */
} Coord;

/* Tops up worker r's queue, or tells it the map is over once it holds
 * no task and none is left (or a failure stopped the map). */
static void dispatch(Coord *c, int r) {
  Peer *p = &c->peers[r];
  if (p->over) return;
  long long workers = world.size - 1, left = c->n - c->next + 1, hold = 1;
  if (c->delivered == 0) {
    if (left >= 4 * workers) hold = 2;
  } else if ((now() - c->start) * (double)workers / (double)c->delivered < SHORT_TASK) {
    hold = left / (2 * workers) < QUEUE ? left / (2 * workers) : QUEUE;
    if (hold < 3) hold = 3;
  }
  while (c->why[0] == '\0' && c->next <= c->n && p->held < hold && !world.gone[r]) {
    p->queue[p->held++] = c->next;
    send_msg(r, TAG_TASK, c->next++, 0, NULL, 0);
  }
  if (p->held > 0 && !world.gone[r]) return;
  p->over = 1;
  c->open--;
  if (!world.gone[r]) send_msg(r, TAG_TASK, 0, 0, NULL, 0);
}

/* Records the first failure and stops handing out tasks: idle workers
 * are told at once, busy ones when they deliver, and those that have not
 * reached the map yet when they do (so no message of this map is left
 * over for the next). */
static void stop_all(Coord *c, const char *why) {
  if (c->why[0] == '\0') snprintf(c->why, sizeof c->why, "luma.parallel: %s", why);
  for (int r = 1; r < world.size; r++)
    if ((c->peers[r].ready && c->peers[r].held == 0) || world.gone[r]) dispatch(c, r);
}

/* Calls progress(done, n) (stack index 4) if there is one. */
static void report(lua_State *L, int progress, long long done, long long n) {
  if (!progress) return;
  lua_pushvalue(L, 4);
  lua_pushinteger(L, (lua_Integer)done);
  lua_pushinteger(L, (lua_Integer)n);
  lua_call(L, 2, 0);
}

/* Rank 0 with workers: hands out tasks and collects the results into the
 * table at stack index 5.  Returns run's values. */
static int coordinate(lua_State *L, long long n, const char *digest, size_t dlen, int progress) {
  Coord c = {.n = n, .next = 1, .open = world.size - 1};
  c.peers = lua_newuserdatauv(L, sizeof(Peer) * (size_t)world.size, 0);
  memset(c.peers, 0, sizeof(Peer) * (size_t)world.size);
  int mismatch = 0, us = 0;
  c.start = now();
  for (int r = 1; r < world.size; r++) world.heard[r] = c.start;
  while (c.open > 0) {
    Msg m;
    int got = poll_msg(MPI_ANY_SOURCE, MPI_ANY_TAG, &m);
    if (got < 0) return luaL_error(L, "luma.parallel: MPI failed while waiting for the workers");
    if (got == 0) {
      double t = now();
      for (int r = 1; r < world.size; r++) {
        if (c.peers[r].over || t - world.heard[r] <= world.timeout) continue;
        lose_silent(r, t - world.heard[r], c.peers[r].held ? c.peers[r].queue[0] : 0);
        stop_all(&c, world.lost);
      }
      /* with every task handed out, the workers wait for share as soon
       * as the last results are in: answer quickly */
      if (c.next > c.n) nap_tail(&us);
      else nap(&us);
      continue;
    }
    us = 0;
    int r = m.from;
    if (r < 1 || c.peers[r].over) continue;
    Peer *p = &c.peers[r];
    char what[160];
    switch (m.tag) {
    case TAG_READY:
      p->ready = 1;
      if (m.epoch != world.epoch || m.a != n) {
        snprintf(what, sizeof what, "rank %d is at map #%lld with %lld tasks, rank 0 at map #%lld "
                 "with %lld tasks: the ranks are not running the same script", r, m.epoch + 1,
                 m.a, world.epoch + 1, n);
        stop_all(&c, what);
      } else if (!mismatch && (m.len != dlen || memcmp(m.bytes, digest, dlen) != 0)) {
        mismatch = r;
        lua_pushlstring(L, m.bytes, m.len); /* stack index 8: its digest */
        snprintf(what, sizeof what, "the task's inputs differ between rank 0 and rank %d", r);
        stop_all(&c, what);
      }
      dispatch(&c, r);
      break;
    case TAG_RESULT:
      if (m.epoch != world.epoch || p->held == 0 || m.a != p->queue[0]) break;
      memmove(p->queue, p->queue + 1, sizeof p->queue[0] * (size_t)--p->held);
      if (m.b) {
        snprintf(what, sizeof what, "task %lld failed on rank %d: ", m.a, r);
        size_t keep = strlen(what);
        size_t room = sizeof what - keep - 1;
        size_t len = m.len < room ? m.len : room;
        memcpy(what + keep, m.bytes, len);
        what[keep + len] = '\0';
        stop_all(&c, what);
      } else {
        lua_pushlstring(L, m.bytes, m.len);
        lua_rawseti(L, 5, (lua_Integer)m.a);
        report(L, progress, ++c.delivered, n);
      }
      dispatch(&c, r);
      break;
    case TAG_EXIT:
      snprintf(what, sizeof what, "exited with status %lld during task %lld", m.b, m.a);
      p->held = 0;
      lose(r, what);
      stop_all(&c, world.lost);
      break;
    case TAG_BYE:
      lose(r, "shut MPI down (its script ended) while rank 0 waited for it");
      stop_all(&c, world.lost);
      break;
    default: /* heartbeats */
      break;
    }
  }
  if (c.why[0] == '\0') {
    lua_pushvalue(L, 5);
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, c.why);
  if (!mismatch) return 2;
  lua_pushinteger(L, mismatch);
  lua_pushvalue(L, 8);
  return 4;
}

/* Waits for a message with `tag` from rank 0, watching its heartbeats:
 * an error when it falls silent or shuts down. */
static void await_root(lua_State *L, int tag, Msg *m) {
  int us = WORKER_START;
  world.heard[0] = now();
  for (;;) {
    int got = poll_msg(0, MPI_ANY_TAG, m);
    if (got < 0) luaL_error(L, "luma.parallel: MPI failed while waiting for rank 0");
    if (got > 0) {
      if (m->tag == tag) return;
      if (m->tag == TAG_BYE) {
        lose(0, "shut MPI down (its script ended) while this rank waited for it");
        luaL_error(L, "luma.parallel: %s", world.lost);
      }
      us = WORKER_START;
      continue;
    }
    double silent = now() - world.heard[0];
    if (silent > world.timeout) {
      lose_silent(0, silent, 0);
      luaL_error(L, "luma.parallel: %s", world.lost);
    }
    nap_worker(&us);
  }
}

/* A worker: says it is ready, then runs tasks until rank 0 says the map
 * is over. */
static int work(lua_State *L, Guard *g, long long n, const char *digest, size_t dlen) {
  /* Ranks share the cores like fork-pool workers: one thread each; and,
   * like them, Lua's generational collector while tasks run: tasks make
   * short-lived garbage, which minor collections free without marking
   * the whole heap (the grid-search fits used 12% less time). */
  g->threads = luma_threads_of(L);
  g->count = luma_threads_count(L);
  g->blas = luma_blas_get_threads();
  g->gc_mode = lua_gc(L, LUA_GCGEN, 0, 0);
  g->pinned = 1;
  luma_threads_set_count(g->threads, 1);
  luma_blas_set_threads(1);
  if (send_msg(0, TAG_READY, n, 0, digest, dlen) != MPI_SUCCESS)
    return luaL_error(L, "luma.parallel: cannot reach rank 0");
  for (;;) {
    Msg m;
    await_root(L, TAG_TASK, &m);
    if (m.a == 0) break;
    atomic_store(&world.task, m.a);
    size_t len = 0;
    int failed = 0;
    const char *s = call_task(L, m.a, &len, &failed);
    atomic_store(&world.task, 0);
    if (len > (size_t)(INT32_MAX - HEAD_BYTES)) {
      lua_pop(L, 1);
      lua_pushfstring(L, "its result is too large to send (%I bytes)", (lua_Integer)len);
      s = lua_tolstring(L, -1, &len);
      failed = 1;
    }
    if (send_msg(0, TAG_RESULT, m.a, failed, s, len) != MPI_SUCCESS)
      return luaL_error(L, "luma.parallel: cannot send task %I's result to rank 0",
                        (lua_Integer)m.a);
    lua_pop(L, 1);
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* run(fn, n, digest [, progress]): see luma_open_mpi. */
static int mpi_run(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  long long n = (long long)luma_check_int_range(L, 2, "n", 0, (lua_Integer)1 << 40);
  size_t dlen = 0;
  const char *digest = luaL_checklstring(L, 3, &dlen);
  int progress = !lua_isnoneornil(L, 4);
  if (progress) luaL_checktype(L, 4, LUA_TFUNCTION);
  lua_settop(L, 4);
  lua_createtable(L, n < (1 << 24) ? (int)n : 0, 0); /* 5: results */
  Guard *g = enter(L, "luma.mpi.run", 0);           /* 6 */
  if (world.rank > 0) return work(L, g, n, digest, dlen);
  if (world.size > 1) return coordinate(L, n, digest, dlen, progress); /* 7: peers */
  for (long long i = 1; i <= n; i++) { /* a single rank runs the tasks itself */
    size_t len = 0;
    int failed = 0;
    const char *s = call_task(L, i, &len, &failed);
    if (failed) {
      lua_pushnil(L);
      lua_pushfstring(L, "luma.parallel: task %I failed on rank 0: %s", (lua_Integer)i, s);
      return 2;
    }
    lua_rawseti(L, 5, (lua_Integer)i);
    report(L, progress, i, n);
  }
  lua_pushvalue(L, 5);
  return 1;
}

/* share([bytes]): rank 0 passes bytes, which every rank returns. */
static int mpi_share(lua_State *L) {
  if (world.state != 1) return luaL_error(L, "luma.mpi.share: no map has run (call run first)");
  lua_settop(L, 1);
  enter(L, "luma.mpi.share", 1); /* 2 */
  if (world.rank > 0) {
    Msg m;
    await_root(L, TAG_SHARE, &m);
    if (m.epoch != world.epoch)
      return luaL_error(L, "luma.parallel: rank 0 shared the results of map #%I during map #%I",
                        (lua_Integer)m.epoch + 1, (lua_Integer)world.epoch + 1);
    if (m.b && !world.broken) {
      world.broken = 1;
      snprintf(world.lost, sizeof world.lost, "the job lost a rank (rank 0 says which)");
    }
    lua_pushlstring(L, m.bytes, m.len);
    world.epoch++;
    return 1;
  }
  size_t len = 0;
  const char *s = luaL_checklstring(L, 1, &len);
  if (len > (size_t)(INT32_MAX - HEAD_BYTES))
    return luaL_error(L, "luma.parallel: the results are too large to share (%I bytes)",
                      (lua_Integer)len);
  /* Non-blocking sends, so that rank 0 keeps draining heartbeats, and
   * watching for lost ranks, while a large payload goes. */
  unsigned char *p = lua_newuserdatauv(L, HEAD_BYTES + len, 0);
  put_head(p, world.epoch, 0, world.broken);
  memcpy(p + HEAD_BYTES, s, len);
  MPI_Request *req = lua_newuserdatauv(L, sizeof(MPI_Request) * (size_t)world.size, 0);
  double start = now();
  for (int r = 0; r < world.size; r++) {
    req[r] = MPI_REQUEST_NULL;
    if (r == 0 || world.gone[r]) continue;
    mpi.Isend(p, (int)(HEAD_BYTES + len), MPI_BYTE, r, TAG_SHARE, world.comm, &req[r]);
    world.heard[r] = start;
  }
  int us = 0;
  for (;;) {
    int done = 0;
    mpi.Testall(world.size, req, &done, MPI_STATUSES_IGNORE);
    if (done) break;
    /* only heartbeats: a worker that already has the payload may be
     * saying it is ready for the next map */
    Msg m;
    if (poll_msg(MPI_ANY_SOURCE, TAG_BEAT, &m) > 0) {
      us = 0;
      continue;
    }
    double t = now();
    for (int r = 1; r < world.size; r++)
      if (req[r] != MPI_REQUEST_NULL && t - world.heard[r] > world.timeout) {
        lose_silent(r, t - world.heard[r], 0);
        return luaL_error(L, "luma.parallel: %s", world.lost);
      }
    nap(&us);
  }
  world.epoch++;
  lua_pushvalue(L, 1);
  return 1;
}

/* ------------------------------------------------------------ allgather */

/* Waits for a non-blocking collective while watching the peers: rank 0
 * watches every worker's heartbeats, a worker rank 0's (heartbeats run
 * between rank 0 and each worker only), and a peer that shuts MPI down
 * or falls silent is an error.  Short naps (2 to 20 us): the collective
 * itself only progresses while someone tests it (a gradient exchange
 * took 560 us with naps up to 50 us, 450 us with these, as with a
 * blocking MPI_Wait). */
static void await_collective(lua_State *L, MPI_Request *req, const char *fname) {
  int us = WORKER_START;
  double start = now();
  for (int r = 0; r < world.size; r++) world.heard[r] = start;
  for (;;) {
    int done = 0;
    if (mpi.Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      luaL_error(L, "%s: MPI failed during the exchange", fname);
    if (done) return;
    Msg m;
    int got = poll_msg(MPI_ANY_SOURCE, TAG_BEAT, &m);
    if (got == 0) got = poll_msg(MPI_ANY_SOURCE, TAG_BYE, &m);
    if (got < 0) luaL_error(L, "%s: MPI failed during the exchange", fname);
    if (got > 0) {
      if (m.tag == TAG_BYE) {
        lose(m.from, "shut MPI down (its script ended) during an exchange");
        luaL_error(L, "%s: %s", fname, world.lost);
      }
      us = WORKER_START;
      continue;
    }
    double t = now();
    for (int r = world.rank == 0 ? 1 : 0; r < (world.rank == 0 ? world.size : 1); r++)
      if (t - world.heard[r] > world.timeout) {
        lose_silent(r, t - world.heard[r], 0);
        luaL_error(L, "%s: %s", fname, world.lost);
      }
    nap_for(&us, 2, 20);
  }
}

/* allgather(M [, out]) -> S, counts: the rows of every rank's M stacked
 * in rank order (all with M's columns), and how many each rank gave: the
 * exchange of data-parallel training.  MPI_Iallgather of the row counts,
 * then MPI_Iallgatherv of the elements straight into S, both watched by
 * await_collective. */
static int mpi_allgather(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_Mat *out = lua_isnoneornil(L, 2) ? NULL : luma_matrix_check(L, 2);
  /* a script run alone never starts MPI for this */
  if (world.state != 1 && !launched()) return allgather_alone(L);
  lua_settop(L, 2);
  enter(L, "luma.mpi.allgather", 0); /* 3 */
  int n = world.size;
  const double *mine = m->data;
  if (!luma_mat_is_contiguous(m)) { /* 4: a contiguous copy */
    luma_Mat *c = luma_matrix_new(L, m->rows, m->cols);
    luma_mat_copy(c, m);
    mine = c->data;
  }
  /* every rank's rows and columns */
  long long *shapes = lua_newuserdatauv(L, sizeof(long long) * 2 * (size_t)n, 0);
  long long shape[2] = {(long long)m->rows, (long long)m->cols};
  MPI_Request req;
  if (mpi.Iallgather(shape, 2, MPI_LONG_LONG, shapes, 2, MPI_LONG_LONG, world.comm, &req) !=
      MPI_SUCCESS)
    return luaL_error(L, "luma.mpi.allgather: MPI failed during the exchange");
  await_collective(L, &req, "luma.mpi.allgather");
  int *counts = lua_newuserdatauv(L, sizeof(int) * (size_t)n, 0);
  int *displs = lua_newuserdatauv(L, sizeof(int) * (size_t)n, 0);
  long long total = 0, rows = 0;
  for (int r = 0; r < n; r++) {
    if (shapes[2 * r] > 0 && shapes[2 * r + 1] != m->cols)
      return luaL_error(L, "luma.mpi.allgather: rank %d gave %I columns but this rank %I", r,
                        (lua_Integer)shapes[2 * r + 1], (lua_Integer)m->cols);
    long long c = shapes[2 * r] * m->cols;
    if (c > INT32_MAX - total)
      return luaL_error(L, "luma.mpi.allgather: more than 2^31 elements in all");
    counts[r] = (int)c;
    displs[r] = (int)total;
    total += c;
    rows += shapes[2 * r];
  }
  /* into out when it has the shape (a buffer kept between calls saves
   * faulting in fresh pages every time), else a new matrix */
  luma_Mat *stacked = NULL;
  if (out != NULL && out->rows == (int64_t)rows && out->cols == m->cols &&
      luma_mat_is_contiguous(out) && !luma_mat_overlaps(out, m)) {
    stacked = out;
    lua_pushvalue(L, 2);
  } else {
    stacked = luma_matrix_new(L, (int64_t)rows, m->cols);
  }
  int stacked_idx = lua_gettop(L);
  if (mpi.Iallgatherv(mine, (int)(m->rows * m->cols), MPI_DOUBLE, stacked->data, counts, displs,
                      MPI_DOUBLE, world.comm, &req) != MPI_SUCCESS)
    return luaL_error(L, "luma.mpi.allgather: MPI failed during the exchange");
  await_collective(L, &req, "luma.mpi.allgather");
  lua_pushvalue(L, stacked_idx);
  lua_createtable(L, n, 0);
  for (int r = 0; r < n; r++) {
    lua_pushinteger(L, (lua_Integer)shapes[2 * r]);
    lua_rawseti(L, -2, r + 1);
  }
  return 2;
}

/* rank() / size(): MPI is started only when a launcher started us. */
static int mpi_rank(lua_State *L) {
  if (world.state != 1 && launched()) world_start(L);
  lua_pushinteger(L, world.state == 1 ? world.rank : 0);
  return 1;
}

static int mpi_size(lua_State *L) {
  if (world.state != 1 && launched()) world_start(L);
  lua_pushinteger(L, world.state == 1 ? world.size : 1);
  return 1;
}

/* __index of luma.mpi: `available` (and `why` when it is false) are read
 * from the library, which reading them loads. */
static int mpi_index(lua_State *L) {
  const char *key = lua_tostring(L, 2);
  if (key == NULL || (strcmp(key, "available") != 0 && strcmp(key, "why") != 0)) return 0;
  int loaded = mpi_loaded();
  lua_pushboolean(L, loaded);
  lua_setfield(L, 1, "available");
  if (!loaded) {
    lua_pushfstring(L, "luma.parallel: the mpi backend needs Open MPI: %s", mpi.why);
    lua_setfield(L, 1, "why");
  }
  lua_pushstring(L, key);
  lua_rawget(L, 1);
  return 1;
}

#else /* no Open MPI in this build */

static int not_built(lua_State *L) {
  return luaL_error(L, "luma.mpi: not in this build (install libopenmpi-dev and rebuild)");
}
#define mpi_run not_built
#define mpi_share not_built

static int mpi_allgather(lua_State *L) { return allgather_alone(L); }

static int mpi_rank(lua_State *L) {
  lua_pushinteger(L, 0);
  return 1;
}

static int mpi_size(lua_State *L) {
  lua_pushinteger(L, 1);
  return 1;
}

#endif

int luma_open_mpi(lua_State *L) {
  static const luma_Func funcs[] = {
      {"run", mpi_run, "run(fn, n, digest [, progress = nil])",
       "Runs fn(1..n) across the ranks of the MPI job (starting MPI on first use): fn(i) returns "
       "true and bytes, or false and an error message. digest describes the task's inputs and "
       "is compared with every rank's; progress(done, n) is called on rank 0. On rank 0 returns "
       "the bytes by task number, or nil and a message (plus the rank and its digest when "
       "inputs differ); on the other ranks returns true when the map is over. Every rank then "
       "calls share."},
      {"share", mpi_share, "share([bytes = nil])",
       "Sends rank 0's bytes to every rank after run: rank 0 passes them, the others nothing. "
       "Returns rank 0's bytes on every rank."},
      {"allgather", mpi_allgather, "allgather(M [, out = nil]) -> S, counts",
       "The rows of every rank's M stacked in rank order, on every rank, and counts[r + 1], "
       "the rows rank r gave: the exchange of data-parallel training (luma.nn.DataParallel). "
       "S is out when out is a contiguous matrix of S's shape (a buffer kept between calls). "
       "Every rank must call it at the same point of the script, with the same number of "
       "columns (ranks may give different numbers of rows). Raises an error when a peer shuts "
       "down or falls silent (LUMA_MPI_TIMEOUT). Alone, returns a copy of M and {rows}."},
      {"rank", mpi_rank, "rank()",
       "This process's rank in the MPI job (MPI starts when a launcher started the process). "
       "Returns an integer, 0 outside an MPI job."},
      {"size", mpi_size, "size()",
       "The number of ranks in the MPI job (MPI starts when a launcher started the process). "
       "Returns an integer, 1 outside an MPI job."},
      {"digest", mpi_digest, "digest(s)",
       "Hashes a string, or a matrix's shape and elements (64-bit multiply-xorshift). Returns "
       "16 hex digits."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.mpi", funcs);
#ifdef LUMA_HAVE_MPI
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, mpi_index);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
#else
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "available");
#endif
  luma_doc_set(L, -1, "luma.mpi", NULL,
               "The Open MPI engine behind luma.parallel's \"mpi\" backend (docs/PARALLEL.md). "
               "Open MPI is loaded when a script first uses it (run, or rank and size under a "
               "launcher), or reads available: false in a build without Open MPI or when its "
               "library cannot be loaded, and then why says so.");
  return 1;
}
