/*
 * test_threads.c - two threads, each with its own Luma state, fitting and
 * predicting at the same time (issue 8), each also running threaded native
 * loops on its own pool of two threads (src/ml/core/parallel.c).  Built with clang
 * -fsanitize=thread by `make check` (build-tsan): ThreadSanitizer reports
 * any data race, and there must be none because Luma keeps no shared C
 * state.  OpenBLAS is pinned to one thread (its own pool of worker threads
 * synchronizes in ways TSan cannot see, since the library is not
 * instrumented); the races looked for are Luma's.
 *
 * Prints "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/blas.h"
#include "luma.h"

/* A least-squares regressor defined in Lua, cross-validated in a
 * pipeline, saved to bytes and restored, and a distribution fitted: the
 * estimator, pipeline, model selection, persistence, LAPACK and random
 * layers all run in both threads at once. */
static const char *const SCRIPT =
    "local est = require('luma.estimator')\n"
    "local LS = est.class{ name = 'threads.LeastSquares', kind = 'regressor', doc = 'ls',\n"
    "  params = { { name = 'ridge', type = 'number', default = 0, min = 0, doc = 'r' } },\n"
    "  fit = function(self, X, y)\n"
    "    local A = X:t() * X + luma.eye(X:cols()) * self.params.ridge\n"
    "    self.coef = luma.linalg.solve(A, X:t() * y) end,\n"
    "  predict = function(self, X) return X * self.coef end }\n"
    "local g = luma.random.Generator(SEED)\n"
    "local w = luma.matrix{ 1, -2, 3 }\n"
    "local total = 0\n"
    "for round = 1, ROUNDS do\n"
    "  local X = g:normal(200, 3)\n"
    "  local y = X * w + g:normal(200, 1) * 0.01\n"
    "  local model = luma.pipeline.make_pipeline(LS{ ridge = 1e-6 })\n"
    "  local scores = luma.model_selection.cross_val_score(model, X, y, { cv = 4 })\n"
    "  model:fit(X, y)\n"
    "  local back = luma.persist.decode(luma.persist.encode(model))\n"
    "  local err = (back:predict(X) - model:predict(X)):abs():max()\n"
    "  assert(err == 0, 'restored model predicts differently')\n"
    "  assert(scores:min() > 0.99, 'poor fit ' .. scores:min())\n"
    "  local d = luma.dist.Normal.fit(g:normal(500, 1))\n"
    "  assert(math.abs(d.mu) < 0.3)\n"
    "  total = total + (model:predict(luma.matrix{ { 1, 1, 1 } }):get(1, 1))\n"
    "end\n"
    "-- threaded native loops (two pool threads per state): results must not\n"
    "-- depend on the thread count\n"
    "local Xd = g:normal(400, 20)\n"
    "local D2 = luma.pairwise.distances(Xd, 'manhattan')\n"
    "local E2 = g:normal(300, 250):exp()\n"
    "local D = luma.pairwise.distances(Xd)\n"
    "assert(D:eq(D:t()):all(), 'distance matrix not symmetric')\n"
    "luma.config{ threads = 1 }\n"
    "assert(luma.pairwise.distances(Xd, 'manhattan'):eq(D2):all(), 'threads changed distances')\n"
    "return total / ROUNDS + E2:sum() * 0\n";

typedef struct Job {
  int seed;
  int ok;
  double result;
  char error[512];
} Job;

static void *worker(void *arg) {
  Job *job = arg;
  luma_Options opts = {0};
  opts.threads = 2; /* the state's own pool threads run under TSan too */
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) {
    snprintf(job->error, sizeof job->error, "luma_newstate failed");
    return NULL;
  }
  lua_pushinteger(L, job->seed);
  lua_setglobal(L, "SEED");
  lua_pushinteger(L, 200);
  lua_setglobal(L, "ROUNDS");
  if (luma_run_string(L, SCRIPT, "=threads", 1) == LUA_OK) {
    job->result = lua_tonumber(L, -1);
    job->ok = 1;
  } else {
    snprintf(job->error, sizeof job->error, "%s", lua_tostring(L, -1));
  }
  luma_close(L);
  return NULL;
}

int main(void) {
  luma_blas_set_threads(1);
  int passed = 0, failed = 0;
  Job jobs[2] = {{1, 0, 0, ""}, {2, 0, 0, ""}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&t[i], NULL, worker, &jobs[i]) != 0) jobs[i].ok = -1;
  for (int i = 0; i < 2; i++)
    if (jobs[i].ok != -1) pthread_join(t[i], NULL);
  for (int i = 0; i < 2; i++) {
    /* w = (1, -2, 3): the prediction at (1, 1, 1) is close to 2 */
    int ok = jobs[i].ok == 1 && jobs[i].result > 1.99 && jobs[i].result < 2.01;
    if (ok) passed++;
    else {
      failed++;
      printf("FAIL thread %d: %s (result %g)\n", i + 1, jobs[i].error, jobs[i].result);
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
