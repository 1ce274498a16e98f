/*
 * parallel.c - the parallel-for of parallel.h: a pthread pool whose
 * workers sleep on a condition variable between loops.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/blas.h"
#include "core/parallel.h"

static void init_sync(luma_Threads *t) {
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->wake, NULL);
  pthread_cond_init(&t->idle, NULL);
}

static int clamp_count(int count) {
  return count < 1 ? 1 : count > LUMA_MAX_THREADS ? LUMA_MAX_THREADS : count;
}

void luma_threads_init(luma_Threads *t, int count) {
  memset(t, 0, sizeof *t);
  t->count = clamp_count(count);
  t->budget = UINT64_MAX;
  init_sync(t);
}

int luma_threads_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > LUMA_MAX_THREADS ? LUMA_MAX_THREADS : (int)n;
}

static double monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Stops the meter for `why` unless it already stopped (the first reason
 * stays); returns the reason in force. */
static luma_LoopStatus stop_with(luma_Threads *t, luma_LoopStatus why) {
  int expected = LUMA_LOOP_DONE;
  if (atomic_compare_exchange_strong(&t->stop, &expected, (int)why)) return why;
  return (luma_LoopStatus)expected;
}

luma_LoopStatus luma_work_charge(luma_Threads *t, uint64_t units) {
  if (t == NULL) return LUMA_LOOP_DONE;
  int stopped = atomic_load_explicit(&t->stop, memory_order_relaxed);
  if (stopped != LUMA_LOOP_DONE) return (luma_LoopStatus)stopped;
  if (t->interrupt && atomic_load_explicit(t->interrupt, memory_order_relaxed))
    return stop_with(t, LUMA_LOOP_INTERRUPTED);
  if (t->deadline > 0 && monotonic_seconds() > t->deadline) return stop_with(t, LUMA_LOOP_TIMEOUT);
  uint64_t before = atomic_fetch_add_explicit(&t->spent, units, memory_order_relaxed);
  if (t->budget != UINT64_MAX && (before + units < before || before + units > t->budget))
    return stop_with(t, LUMA_LOOP_OVER_BUDGET);
  return LUMA_LOOP_DONE;
}

double luma_work_clock(void) { return monotonic_seconds(); }

luma_LoopStatus luma_work_timed(luma_Threads *t, double *since, uint64_t units) {
  double now = monotonic_seconds();
  double timed = (now - *since) * 1e9 / LUMA_NS_PER_UNIT;
  *since = now;
  return luma_work_charge(t, timed > (double)units ? (uint64_t)timed : units);
}

luma_LoopStatus luma_work_status(const luma_Threads *t) {
  return t == NULL ? LUMA_LOOP_DONE : (luma_LoopStatus)atomic_load(&t->stop);
}

void luma_work_reset(luma_Threads *t) {
  atomic_store(&t->spent, 0);
  atomic_store(&t->stop, LUMA_LOOP_DONE);
}

/* Claims and runs chunks until none is left or the loop stops. */
static void run_chunks(luma_Threads *t) {
  const luma_Loop *loop = &t->loop;
  for (;;) {
    if (atomic_load_explicit(&t->stop, memory_order_relaxed) != LUMA_LOOP_DONE) return;
    long long k = atomic_fetch_add(&t->next, 1);
    if (k >= t->chunks) return;
    int64_t begin = (int64_t)k * loop->grain;
    int64_t end = loop->n - begin < loop->grain ? loop->n : begin + loop->grain;
    if (luma_work_charge(t, (uint64_t)(end - begin) * loop->cost) != LUMA_LOOP_DONE) return;
    loop->fn(loop->ctx, (int64_t)k, begin, end);
  }
}

static void *worker_main(void *arg) {
  luma_Threads *t = arg;
  pthread_mutex_lock(&t->mu);
  uint64_t seen = t->spawned_at; /* a loop may have begun before this thread ran */
  for (;;) {
    while (!t->quit && t->generation == seen) pthread_cond_wait(&t->wake, &t->mu);
    if (t->quit) break;
    seen = t->generation;
    pthread_mutex_unlock(&t->mu);
    run_chunks(t);
    pthread_mutex_lock(&t->mu);
    if (--t->busy == 0) pthread_cond_signal(&t->idle);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

/* Forgets workers inherited through fork (they do not exist here); their
 * lock may have been held at the fork, so the primitives start afresh. */
static void forget_if_forked(luma_Threads *t) {
  if (t->started == 0 || t->owner == getpid()) return;
  t->started = 0;
  t->busy = 0;
  t->quit = 0;
  init_sync(t);
}

/* Starts count - 1 workers, all at once (so they share spawned_at);
 * fewer if the system refuses threads: loops then run on fewer. */
static void start_workers(luma_Threads *t) {
  if (t->started > 0) return;
  t->owner = getpid();
  t->spawned_at = t->generation;
  while (t->started < t->count - 1) {
    if (pthread_create(&t->workers[t->started], NULL, worker_main, t) != 0) break;
    t->started++;
  }
}

void luma_threads_shutdown(luma_Threads *t) {
  forget_if_forked(t);
  if (t->started == 0) return;
  pthread_mutex_lock(&t->mu);
  t->quit = 1;
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->mu);
  for (int i = 0; i < t->started; i++) pthread_join(t->workers[i], NULL);
  t->started = 0;
  t->quit = 0;
}

void luma_threads_set_count(luma_Threads *t, int count) {
  count = clamp_count(count);
  if (count == t->count) return;
  luma_threads_shutdown(t);
  t->count = count;
}

/* Every chunk on the caller, unmetered: without a pool, or inside a
 * chunk of a running loop (the outer chunk paid for the work). */
static luma_LoopStatus run_serially(const luma_Loop *loop) {
  for (int64_t begin = 0, k = 0; begin < loop->n; begin += loop->grain, k++)
    loop->fn(loop->ctx, k, begin, loop->n - begin < loop->grain ? loop->n : begin + loop->grain);
  return LUMA_LOOP_DONE;
}

luma_LoopStatus luma_parallel_for(luma_Threads *t, const luma_Loop *loop) {
  if (loop->n <= 0) return luma_work_status(t);
  if (t == NULL || t->running) return run_serially(loop);
  if (luma_work_status(t) != LUMA_LOOP_DONE) return luma_work_status(t);
  forget_if_forked(t);
  t->loop = *loop;
  if (t->loop.grain < 1) t->loop.grain = 1;
  t->chunks = (loop->n - 1) / t->loop.grain + 1;
  atomic_store(&t->next, 0);
  t->running = 1;

  /* A loop charging less than LUMA_WORK_CHUNK units (tens of
   * microseconds) runs its chunks on the caller: waking the workers and
   * waiting for them costs about as much (issue 35: a grid search's 455 x
   * 30 logistic fits spent 40% of their time in the scheduler). */
  const int small = loop->cost > 0 && (uint64_t)loop->n < LUMA_WORK_CHUNK / loop->cost;
  int helpers = t->chunks > 1 && t->count > 1 && !small;
  int blas_threads = 0;
  if (helpers) {
    start_workers(t);
    helpers = t->started > 0;
  }
  if (helpers) {
    /* BLAS inside the chunks would start its own threads in every one
     * (OpenBLAS's setting is per process, so it is only touched when it
     * is not 1 already). */
    if (loop->calls_blas && luma_blas_get_threads() > 1) {
      blas_threads = luma_blas_get_threads();
      luma_blas_set_threads(1);
    }
    pthread_mutex_lock(&t->mu);
    t->busy = t->started;
    t->generation++;
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->mu);
  }
  run_chunks(t);
  if (helpers) {
    pthread_mutex_lock(&t->mu);
    while (t->busy > 0) pthread_cond_wait(&t->idle, &t->mu);
    pthread_mutex_unlock(&t->mu);
    if (blas_threads > 0) luma_blas_set_threads(blas_threads);
  }
  t->running = 0;
  return (luma_LoopStatus)atomic_load(&t->stop);
}
