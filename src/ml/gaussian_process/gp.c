/*
 * gp.c - the inverse of a matrix from its Cholesky factor (see gp.h).
 * SPDX-License-Identifier: MIT
 */
#include "gaussian_process/gp.h"

#include "linalg/lapack.h"

/* The one LAPACK routine this family adds to linalg/lapack.h's list. */
void dpotri_(const char *uplo, const lapack_int *n, double *a, const lapack_int *lda,
             lapack_int *info, size_t uplo_len);

int64_t luma_gp_cho_inverse(const luma_Mat *l, luma_Mat *out) {
  const int64_t n = l->rows;
  if (n == 0) return 0;
  for (int64_t i = 0; i < n; i++)
    if (LUMA_AT(l, i, i) == 0) return i + 1;
  /* The row-major lower triangle of L is, read column-major, the upper
   * triangle of U = L^T, and K = L L^T = U^T U: dpotri("U") on that
   * buffer writes K^-1's upper triangle column-major, i.e. its lower
   * triangle row-major, which is then mirrored. */
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j <= i; j++) out->data[i * n + j] = LUMA_AT(l, i, j);
  lapack_int nn = (lapack_int)n, lda = (lapack_int)n, info = 0;
  dpotri_("U", &nn, out->data, &lda, &info, 1);
  if (info > 0) return (int64_t)info;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i + 1; j < n; j++) out->data[i * n + j] = out->data[j * n + i];
  return 0;
}
