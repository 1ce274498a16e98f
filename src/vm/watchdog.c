/*
 * watchdog.c - a thread per state with a time limit that wakes at the
 * run's deadline and nudges the running script (state.c).
 *
 * The count hook reads the clock only every HOOK_GRANULARITY
 * instructions, and one instruction can cost a lot: comparing two equal
 * 60 MB strings, or `next` at the start of a table whose array part is
 * empty, scans all of it.  A loop of such instructions ran three times
 * its time limit between two hooks.  At the deadline the watchdog sets a
 * hook that fires at the next instruction, as luma_interrupt does from
 * the host's thread (lua_sethook, which Lua documents as safe to call
 * asynchronously), on the main thread and on the coroutine running then
 * (the target, which the sandbox's coroutine.resume and wrap set).
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "core.h"

struct luma_Watchdog {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  double deadline;  /* luma_monotonic_seconds() to nudge at; 0: disarmed */
  int quit;
  void (*nudge)(void *arg, void *target);
  void *arg;
  void *target;     /* what the running thread last set */
};

static struct timespec to_timespec(double seconds) {
  struct timespec ts;
  ts.tv_sec = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec += 1;
    ts.tv_nsec -= 1000000000L;
  }
  return ts;
}

static void *watch(void *p) {
  luma_Watchdog *w = p;
  pthread_mutex_lock(&w->lock);
  while (!w->quit) {
    if (w->deadline == 0) {
      pthread_cond_wait(&w->wake, &w->lock);
    } else if (luma_monotonic_seconds() >= w->deadline) {
      w->nudge(w->arg, w->target);
      w->deadline = 0;
    } else {
      struct timespec until = to_timespec(w->deadline);
      pthread_cond_timedwait(&w->wake, &w->lock, &until);
    }
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

luma_Watchdog *luma_watchdog_new(void (*nudge)(void *arg, void *target), void *arg) {
  luma_Watchdog *w = calloc(1, sizeof *w);
  if (w == NULL) return NULL;
  w->nudge = nudge;
  w->arg = arg;
  pthread_condattr_t attr;
  int ok = pthread_condattr_init(&attr) == 0;
  /* the clock of luma_monotonic_seconds, which the deadline is read on */
  ok = ok && pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0;
  ok = ok && pthread_cond_init(&w->wake, &attr) == 0;
  pthread_condattr_destroy(&attr);
  if (!ok) {
    free(w);
    return NULL;
  }
  if (pthread_mutex_init(&w->lock, NULL) != 0) {
    pthread_cond_destroy(&w->wake);
    free(w);
    return NULL;
  }
  if (pthread_create(&w->thread, NULL, watch, w) != 0) {
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    free(w);
    return NULL;
  }
  return w;
}

/* Under the lock, so that once it returns no nudge is still using the
 * target it replaced (which may then be freed). */
void luma_watchdog_target(luma_Watchdog *w, void *target) {
  pthread_mutex_lock(&w->lock);
  w->target = target;
  pthread_mutex_unlock(&w->lock);
}

void luma_watchdog_arm(luma_Watchdog *w, double deadline) {
  pthread_mutex_lock(&w->lock);
  w->deadline = deadline;
  pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->lock);
}

/* Once it returns, no nudge comes until the next arm. */
void luma_watchdog_disarm(luma_Watchdog *w) {
  pthread_mutex_lock(&w->lock);
  w->deadline = 0;
  pthread_mutex_unlock(&w->lock);
}

void luma_watchdog_free(luma_Watchdog *w) {
  if (w == NULL) return;
  pthread_mutex_lock(&w->lock);
  w->quit = 1;
  pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
  pthread_mutex_destroy(&w->lock);
  pthread_cond_destroy(&w->wake);
  free(w);
}
