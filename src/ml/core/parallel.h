/*
 * parallel.h - a parallel-for over a small pool of worker threads (no Lua).
 *
 * A loop over n items is cut into chunks [k*grain, min((k+1)*grain, n)):
 * the cut depends only on n and grain, never on the number of threads.
 * Threads (the caller included) claim chunks from a shared counter, so
 * uneven chunks balance themselves.  A kernel whose chunks write disjoint
 * outputs, or that combines one partial result per chunk in chunk order
 * afterwards, is therefore bit-identical for any thread count.
 *
 * Between chunks every thread checks three stop conditions: an interrupt
 * flag that anyone may set at any time (a signal handler, another thread),
 * a work budget (items x cost units) and a deadline on the monotonic
 * clock.  A stopped loop returns early
 * with the reason; the caller turns it into an error.
 *
 * The work meter: kernels that loop outside luma_parallel_for (serial
 * scans, sorts, samplers, parsers, encoders) charge the same budget and
 * poll the same three conditions through luma_work_charge, about every
 * LUMA_WORK_CHUNK units (tens of microseconds of work):
 *
 *     for (...) {
 *       if (luma_work_charge(t, units_of_next_piece)) return;  // stopped
 *       ...do the piece...
 *     }
 *
 * One unit is about one element touched by a simple operation (an add, a
 * comparison, a copy): a loop over n elements doing c flops each charges
 * about n*c; docs/EMBEDDING.md has the cost model.  Once a loop or a
 * charge stops, the meter stays stopped (every later charge and loop
 * returns the same status) until the owner resets it for the next call;
 * the binding then raises the state's error.  Charges are atomic, so
 * chunk functions running on worker threads may charge too.
 *
 * Fork: worker threads do not survive fork().  The pool remembers the
 * process that started them; in a forked child it forgets them and
 * starts new ones on the next loop, so a fork pool's workers can run
 * threaded kernels (there is no pthread_atfork handler and no global
 * list of pools: each pool checks for itself).
 *
 * A pool serves one Lua state, which one thread uses at a time; a chunk
 * function must not start a loop on the same pool (a nested loop runs
 * serially in the calling thread instead of deadlocking).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_PARALLEL_H
#define LUMA_ML_PARALLEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

/* The most threads a pool starts (the caller plus LUMA_MAX_THREADS - 1). */
#define LUMA_MAX_THREADS 64

/* One chunk of a loop: items [begin, end), the chunk's index k. */
typedef void (*luma_ChunkFn)(void *ctx, int64_t k, int64_t begin, int64_t end);

typedef enum luma_LoopStatus {
  LUMA_LOOP_DONE = 0,
  LUMA_LOOP_INTERRUPTED, /* the interrupt flag was set */
  LUMA_LOOP_OVER_BUDGET, /* the next chunk would have exceeded the budget */
  LUMA_LOOP_TIMEOUT      /* the deadline passed */
} luma_LoopStatus;

typedef struct luma_Loop {
  int64_t n;      /* items */
  int64_t grain;  /* items per chunk (>= 1) */
  uint64_t cost;  /* budget units per item: the work an item does, which also
                   * decides whether the loop is worth waking the workers;
                   * 0 when the chunks charge their own work as they go */
  int calls_blas; /* chunks call BLAS: pinned to one thread while threads run */
  luma_ChunkFn fn;
  void *ctx;
} luma_Loop;

typedef struct luma_Threads {
  int count;   /* threads a loop may use, the caller included (>= 1) */
  int started; /* worker threads running */
  pid_t owner; /* the process that started them */
  pthread_t workers[LUMA_MAX_THREADS - 1];
  pthread_mutex_t mu;
  pthread_cond_t wake, idle;
  uint64_t generation; /* bumped for each loop; workers wait for a new value */
  uint64_t spawned_at; /* the generation when the running workers started */
  int busy;            /* workers not yet finished with the current loop */
  int quit;
  int running;         /* a loop is in progress (nesting runs serially) */
  /* The current loop. */
  luma_Loop loop;
  int64_t chunks;
  atomic_llong next;
  atomic_int stop; /* a luma_LoopStatus other than DONE ends the loop */
  /* Stop conditions, set by the owner before a loop. */
  atomic_int *interrupt; /* nonzero stops loops; may be NULL */
  uint64_t budget;                        /* units a loop may spend; UINT64_MAX: no limit */
  double deadline;                        /* CLOCK_MONOTONIC seconds; 0: none */
  atomic_ullong spent;                    /* units spent since the owner's last reset */
} luma_Threads;

/* Units a kernel charges at a time (a few tens of microseconds of work):
 * often enough to stop within a millisecond, rarely enough to cost
 * nothing measurable. */
#define LUMA_WORK_CHUNK 65536

/* Charges `units` of work about to be done to t's budget and checks the
 * interrupt flag, the deadline and whether the meter already stopped.
 * Returns LUMA_LOOP_DONE (0) to go on, or why to stop (then the work must
 * not be done).  t may be NULL: nothing is charged or checked. */
luma_LoopStatus luma_work_charge(luma_Threads *t, uint64_t units);

/* The meter's state: LUMA_LOOP_DONE, or why the last loop or charge
 * stopped (t may be NULL). */
luma_LoopStatus luma_work_status(const luma_Threads *t);

/* Starts a fresh meter: nothing spent, not stopped (the owner calls it
 * when it sets the budget for a new call). */
void luma_work_reset(luma_Threads *t);

/* Kernels whose cost per item depends on the data (iterative special
 * functions, root finding) charge the time they took instead, one unit
 * per LUMA_NS_PER_UNIT nanoseconds, or `units` if that is more:
 *
 *     double since = luma_work_clock();
 *     for (...) { ...item...; if (luma_work_timed(t, &since, 1)) break; }
 */
#define LUMA_NS_PER_UNIT 1.0
double luma_work_clock(void);
luma_LoopStatus luma_work_timed(luma_Threads *t, double *since, uint64_t units);

/* Small pieces of work (a lane, a row) charged in batches of about
 * LUMA_WORK_CHUNK units:
 *
 *     luma_WorkBatch w = {t, 0};
 *     for (...) { if (luma_work_add(&w, piece_units)) return; ...piece... }
 *     luma_work_flush(&w);
 */
typedef struct luma_WorkBatch {
  luma_Threads *t;
  uint64_t pending;
} luma_WorkBatch;

/* Adds units; charges the batch once it reaches LUMA_WORK_CHUNK.  Nonzero:
 * stop (luma_work_status(t) says why). */
static inline int luma_work_add(luma_WorkBatch *w, uint64_t units) {
  w->pending += units;
  if (w->pending < LUMA_WORK_CHUNK) return 0;
  uint64_t batch = w->pending;
  w->pending = 0;
  return luma_work_charge(w->t, batch) != LUMA_LOOP_DONE;
}

/* Charges what is left of the batch. */
static inline void luma_work_flush(luma_WorkBatch *w) {
  if (w->pending > 0) luma_work_charge(w->t, w->pending);
  w->pending = 0;
}

/* Initializes t in place (its memory is the caller's) for count threads;
 * no thread starts before the first loop that can use one. */
void luma_threads_init(luma_Threads *t, int count);

/* Stops and joins the workers (no-op in a forked child, which has none). */
void luma_threads_shutdown(luma_Threads *t);

/* Changes the thread count (clamped to [1, LUMA_MAX_THREADS]); running
 * workers stop and the next loop starts as many as it needs. */
void luma_threads_set_count(luma_Threads *t, int count);

/* The number of online processors (at least 1). */
int luma_threads_cores(void);

/* Runs loop->fn over every chunk of loop->n items and returns when all
 * have run or the loop stopped (the status says why; chunks already
 * started finish first).  Each chunk is charged (end - begin) * cost
 * units to the meter before it runs; a meter already stopped runs
 * nothing.  t may be NULL: the caller runs every chunk, with no stop
 * checks. */
luma_LoopStatus luma_parallel_for(luma_Threads *t, const luma_Loop *loop);

#endif
