/*
 * blas.c - OpenBLAS's extensions looked up at run time (blas.h).
 *
 * The BLAS that answers cblas_dgemm is found with dladdr and opened again
 * with RTLD_NOLOAD: dlsym on that handle searches it and its dependencies
 * (OpenBLAS's libblas.so.3 is a thin library over libopenblas.so.0), and
 * works when Luma itself was loaded with RTLD_LOCAL (stock Lua's require),
 * where a lookup in the global scope would miss them.
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "core/blas.h"
#include "linalg/lapack.h"

static struct {
  pthread_once_t once;
  int (*get_threads)(void);
  void (*set_threads)(int);
  char *(*corename)(void);
  char *(*config)(void);
  int (*shutdown)(void);
  const char *blas_file, *lapack_file;
} openblas = {.once = PTHREAD_ONCE_INIT};

/* The file that defines fn, links resolved (the alternatives' links
 * name the library chosen), and a handle to it (not counted twice: the
 * library stays loaded as long as Luma, which links it). */
static const char *file_of(void *fn, void **handle) {
  Dl_info info;
  if (dladdr(fn, &info) == 0 || info.dli_fname == NULL) return NULL;
  if (handle != NULL) {
    *handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (*handle != NULL) dlclose(*handle);
  }
  char *real = realpath(info.dli_fname, NULL); /* kept for the process */
  return real != NULL ? real : info.dli_fname;
}

/* Object pointers and function pointers convert through memcpy (ISO C has
 * no cast between them). */
#define LOOKUP(h, name, field) do { \
    void *p_ = dlsym(h, name); \
    memcpy(&openblas.field, &p_, sizeof p_); \
  } while (0)

static void look_up(void) {
  void *h = NULL;
  openblas.blas_file = file_of((void *)(size_t)cblas_dgemm, &h);
  openblas.lapack_file = file_of((void *)(size_t)dgetrf_, NULL);
  if (h == NULL) h = RTLD_DEFAULT; /* a static link: the program has it all */
  LOOKUP(h, "openblas_get_num_threads", get_threads);
  LOOKUP(h, "openblas_set_num_threads", set_threads);
  LOOKUP(h, "openblas_get_corename", corename);
  LOOKUP(h, "openblas_get_config", config);
  LOOKUP(h, "blas_thread_shutdown_", shutdown);
}

int luma_blas_get_threads(void) {
  pthread_once(&openblas.once, look_up);
  return openblas.get_threads != NULL ? openblas.get_threads() : 1;
}

void luma_blas_set_threads(int n) {
  pthread_once(&openblas.once, look_up);
  if (openblas.set_threads != NULL) openblas.set_threads(n);
}

void luma_blas_park_threads(void) {
  pthread_once(&openblas.once, look_up);
  if (openblas.shutdown != NULL) openblas.shutdown();
}

const char *luma_blas_corename(void) {
  pthread_once(&openblas.once, look_up);
  return openblas.corename != NULL ? openblas.corename() : NULL;
}

const char *luma_blas_build_config(void) {
  pthread_once(&openblas.once, look_up);
  return openblas.config != NULL ? openblas.config() : NULL;
}

const char *luma_blas_file(void) {
  pthread_once(&openblas.once, look_up);
  return openblas.blas_file;
}

const char *luma_lapack_file(void) {
  pthread_once(&openblas.once, look_up);
  return openblas.lapack_file;
}
