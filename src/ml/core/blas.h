/*
 * blas.h - what Luma asks of the BLAS beyond CBLAS, looked up at run time
 * (no Lua).
 *
 * Luma links BLAS and LAPACK through Debian's alternatives (-lblas
 * -llapack: libblas.so.3, liblapack.so.3), so the library in use is the
 * one the machine selects: OpenBLAS by default, the reference BLAS, BLIS...
 * OpenBLAS's extensions (its thread count, its kernel and build names) are
 * therefore looked up with dlsym in the loaded BLAS on first use; with
 * another BLAS, which runs on the calling thread, the thread count is 1
 * and setting it does nothing.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CORE_BLAS_H
#define LUMA_ML_CORE_BLAS_H

/* OpenBLAS's thread count, 1 for another BLAS. */
int luma_blas_get_threads(void);

/* Sets OpenBLAS's thread count (per process); nothing for another BLAS. */
void luma_blas_set_threads(int n);

/* Ends OpenBLAS's worker threads, which the next threaded call starts
 * again; nothing for another BLAS. */
void luma_blas_park_threads(void);

/* OpenBLAS's kernel name ("Haswell") and build description, or NULL for
 * another BLAS. */
const char *luma_blas_corename(void);
const char *luma_blas_build_config(void);

/* The files the BLAS and LAPACK routines come from (as the loader found
 * them: /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3), or NULL
 * when unknown (a static link). */
const char *luma_blas_file(void);
const char *luma_lapack_file(void);

#endif
