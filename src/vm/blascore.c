/*
 * blascore.c - which OpenBLAS kernels this CPU can run, when OpenBLAS
 * itself picked weaker ones.
 *
 * OpenBLAS chooses its kernels by the CPU's model number.  A virtual CPU
 * that hides it ("Intel(R) Xeon(R) Processor", as on this project's
 * machines) gets the Prescott kernels of 2004 even when it has AVX-512:
 * dgemm ran at 19 GFLOP/s there against 97 with OPENBLAS_CORETYPE=SkylakeX.
 * The choice is made when the library loads and cannot change after, so
 * the luma binary starts itself again with OPENBLAS_CORETYPE set (main.c)
 * and luma.config() reports both names for hosts (docs/EMBEDDING.md).
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "core.h"
#include "core/blas.h"

/* How capable a core type's kernels are: 0 SSE3 and older, 1 AVX, 2 AVX2
 * and FMA, 3 AVX-512. */
static int rank_of(const char *core) {
  static const char *const avx512[] = {"SkylakeX", "Cooperlake", "SapphireRapids"};
  static const char *const avx2[] = {"Haswell", "Zen"};
  for (size_t i = 0; i < sizeof avx512 / sizeof *avx512; i++)
    if (strcmp(core, avx512[i]) == 0) return 3;
  for (size_t i = 0; i < sizeof avx2 / sizeof *avx2; i++)
    if (strcmp(core, avx2[i]) == 0) return 2;
  return strcmp(core, "Sandybridge") == 0 ? 1 : 0;
}

const char *luma_blas_core(void) { return luma_blas_corename(); }

const char *luma_blas_better_core(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const char *best = NULL;
  int rank = 0;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    best = "SkylakeX";
    rank = 3;
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    best = "Haswell";
    rank = 2;
  }
  const char *current = luma_blas_corename();
  return best != NULL && current != NULL && rank > rank_of(current) ? best : NULL;
#else
  return NULL;
#endif
}
