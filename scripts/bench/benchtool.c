/*
 * benchtool - times whole commands for scripts/bench without a shell in
 * between (a shell would add about a millisecond to startup rows), and
 * measures the machine's memory bandwidth for the rows that report their
 * fraction of it.
 *
 *   benchtool N PROGRAM [ARGS...]
 *
 * Runs the program N times with stdout and stderr sent to /dev/null and
 * prints one line per run: "<wall seconds> <peak RSS in KiB> <exit status>".
 *
 *   benchtool stream [MIB_PER_ARRAY [THREADS]]
 *
 * A STREAM-like measurement (McCalpin's copy a = b and triad a = b + s c)
 * on every online core (or THREADS), each thread on its own slice, best of
 * STREAM_REPEATS timings of each.  The arrays default to 4 times the
 * last-level cache each, as STREAM's rules ask, so that no pass is served
 * from cache; at most an eighth of the memory each.  Bytes are counted as
 * STREAM does, 16 per element for copy and 24 for triad (reads plus writes,
 * not the write-allocate reads), which is how the rows count theirs.
 * Prints one line: "copy <GB/s> triad <GB/s> threads <n> mib <per array>".
 * SPDX-License-Identifier: MIT
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------- stream */

#define STREAM_REPEATS 5
#define STREAM_MAX_THREADS 256

typedef struct Slice {
  double *a, *b, *c;
  size_t begin, end;
  int op; /* 0: first touch, 1: copy, 2: triad */
} Slice;

static void *stream_slice(void *arg) {
  Slice *s = arg;
  double *restrict a = s->a;
  const double *restrict b = s->b;
  const double *restrict c = s->c;
  if (s->op == 0) {
    /* each thread faults in its own pages, so that no timed pass pays
     * for page faults */
    for (size_t i = s->begin; i < s->end; i++) {
      s->a[i] = 0.0;
      s->b[i] = 1.0;
      s->c[i] = 2.0;
    }
  } else if (s->op == 1) {
    for (size_t i = s->begin; i < s->end; i++) a[i] = b[i];
  } else {
    for (size_t i = s->begin; i < s->end; i++) a[i] = b[i] + 3.0 * c[i];
  }
  return NULL;
}

/* Runs op over the arrays on the threads; returns its wall time, or a
 * negative number when a thread could not be started. */
static double stream_pass(Slice *slices, int threads, int op) {
  pthread_t ids[STREAM_MAX_THREADS];
  double start = now();
  int started = 0;
  for (; started < threads; started++) {
    slices[started].op = op;
    if (pthread_create(&ids[started], NULL, stream_slice, &slices[started]) != 0) break;
  }
  for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
  return started == threads ? now() - start : -1.0;
}

/* The last-level cache in bytes (32 MiB when the system does not say). */
static long last_level_cache(void) {
  long size = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  size = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (size <= 0) size = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return size > 0 ? size : 32L << 20;
}

static int stream(int argc, char **argv) {
  long mib = argc > 2 ? atol(argv[2]) : 0;
  long threads = argc > 3 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);
  if (mib <= 0) {
    long cap = sysconf(_SC_PHYS_PAGES) / 8 * (sysconf(_SC_PAGESIZE) >> 10) >> 10;
    mib = 4 * (last_level_cache() >> 20);
    if (mib < 64) mib = 64;
    if (cap > 0 && mib > cap) mib = cap;
  }
  if (threads < 1) threads = 1;
  if (threads > STREAM_MAX_THREADS) threads = STREAM_MAX_THREADS;
  size_t n = (size_t)mib * (1u << 20) / sizeof(double);
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
         *c = malloc(n * sizeof(double));
  if (!a || !b || !c) {
    fprintf(stderr, "benchtool: cannot allocate 3 arrays of %ld MiB\n", mib);
    return 1;
  }
  Slice slices[STREAM_MAX_THREADS];
  for (long t = 0; t < threads; t++) {
    slices[t] = (Slice){a, b, c, n * (size_t)t / (size_t)threads,
                        n * (size_t)(t + 1) / (size_t)threads, 0};
  }
  double best[3] = {0, 1e300, 1e300};
  int ok = stream_pass(slices, (int)threads, 0) >= 0;
  for (int r = 0; ok && r < STREAM_REPEATS; r++) {
    for (int op = 1; ok && op <= 2; op++) {
      double t = stream_pass(slices, (int)threads, op);
      ok = t >= 0;
      if (ok && t < best[op]) best[op] = t;
    }
  }
  if (!ok) {
    fprintf(stderr, "benchtool: cannot start a thread\n");
  } else if (a[0] != 7.0 || a[n / 2] != 7.0 || a[n - 1] != 7.0) {
    /* the last triad left a = b + 3 c = 7 everywhere: a check that the
     * passes ran, and a use of their result */
    fprintf(stderr, "benchtool: stream arrays hold wrong values\n");
    ok = 0;
  } else {
    printf("copy %.3f triad %.3f threads %ld mib %ld\n", 16.0 * (double)n / best[1] * 1e-9,
           24.0 * (double)n / best[2] * 1e-9, threads, mib);
  }
  free(a);
  free(b);
  free(c);
  return ok ? 0 : 1;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "stream") == 0) return stream(argc, argv);
  if (argc < 3 || atoi(argv[1]) < 1) {
    fprintf(stderr, "usage: benchtool N PROGRAM [ARGS...]\n"
                    "       benchtool stream [MIB_PER_ARRAY [THREADS]]\n");
    return 2;
  }
  int runs = atoi(argv[1]);
  for (int r = 0; r < runs; r++) {
    double start = now();
    pid_t pid = fork();
    if (pid < 0) {
      perror("benchtool: fork");
      return 1;
    }
    if (pid == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) {
        dup2(devnull, STDOUT_FILENO);
        dup2(devnull, STDERR_FILENO);
      }
      execvp(argv[2], argv + 2);
      _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
      perror("benchtool: wait4");
      return 1;
    }
    double wall = now() - start;
    printf("%.6f %ld %d\n", wall, usage.ru_maxrss,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    fflush(stdout);
  }
  return 0;
}
