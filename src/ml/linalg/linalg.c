/*
 * linalg.c - decompositions and solvers over LAPACK (see linalg.h).
 *
 * LAPACK is column-major and overwrites its input, so every routine first
 * copies its input into a column-major scratch buffer (a row-major
 * symmetric matrix is its own column-major image and needs no
 * transposition) and copies results back into the row-major outputs.
 * NumPy does the same copies; they cost O(n^2) next to O(n^3) work.
 * SPDX-License-Identifier: MIT
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "linalg/linalg.h"

/* LAPACK wants leading dimensions >= 1 even for empty matrices. */
static lapack_int ld(int64_t n) { return n > 1 ? (lapack_int)n : 1; }

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The optimal lwork a query reported (work[0] of an lwork = -1 call). */
static size_t queried(double w) { return w > 1 ? (size_t)w + 1 : 1; }

#define BLOCK 32

/* buf (column-major, leading dimension ldb) = a, in cache-sized tiles. */
static void to_colmajor(const luma_Mat *a, double *buf, int64_t ldb) {
  for (int64_t i0 = 0; i0 < a->rows; i0 += BLOCK)
    for (int64_t j0 = 0; j0 < a->cols; j0 += BLOCK)
      for (int64_t j = j0; j < min64(j0 + BLOCK, a->cols); j++)
        for (int64_t i = i0; i < min64(i0 + BLOCK, a->rows); i++)
          buf[i + j * ldb] = LUMA_AT(a, i, j);
}

static void from_colmajor(const double *buf, int64_t ldb, luma_Mat *out) {
  for (int64_t i0 = 0; i0 < out->rows; i0 += BLOCK)
    for (int64_t j0 = 0; j0 < out->cols; j0 += BLOCK)
      for (int64_t i = i0; i < min64(i0 + BLOCK, out->rows); i++)
        for (int64_t j = j0; j < min64(j0 + BLOCK, out->cols); j++)
          LUMA_AT(out, i, j) = buf[i + j * ldb];
}

/* In-place transpose of a contiguous square matrix: turns LAPACK's
 * column-major eigenvectors into row-major columns. */
static void transpose_square(luma_Mat *m) {
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = i + 1; j < m->cols; j++) {
      double t = LUMA_AT(m, i, j);
      LUMA_AT(m, i, j) = LUMA_AT(m, j, i);
      LUMA_AT(m, j, i) = t;
    }
}

double luma_la_norm_induced(const luma_Mat *a, int by_rows) {
  double best = 0;
  int64_t outer = by_rows ? a->rows : a->cols, inner = by_rows ? a->cols : a->rows;
  for (int64_t p = 0; p < outer; p++) {
    double s = 0;
    for (int64_t q = 0; q < inner; q++) s += fabs(by_rows ? LUMA_AT(a, p, q) : LUMA_AT(a, q, p));
    if (s > best || isnan(s)) best = s;
  }
  return best;
}

double luma_la_singular_rcond(int64_t n) { return (double)max64(n, 1) * DBL_EPSILON; }

/* LU-factors buf, which holds A^T column-major (A's row-major copy).
 * Singular means a zero pivot, or a reciprocal condition number below
 * luma_la_singular_rcond.  The estimate (dgecon: several triangular
 * solves, a sixth of the time of the factorization at n = 1000) is made
 * only when the pivots' magnitudes spread over more than 1e-3 /
 * singular_rcond, the usual symptom of near-singularity under partial
 * pivoting.  An ill-conditioned matrix with even pivots (Kahan's, say)
 * passes unreported, as it does in NumPy. */
static luma_LaStatus lu_factor_checked(const luma_Mat *a, double *buf, lapack_int *ipiv,
                                       double *gecon_work, lapack_int *gecon_iwork,
                                       double *rcond) {
  int64_t n = a->rows;
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0;
  dgetrf_(&nn, &nn, buf, &lda, ipiv, &info);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) {
    *rcond = 0;
    return LUMA_LA_SINGULAR;
  }
  double umin = INFINITY, umax = 0;
  for (int64_t i = 0; i < n; i++) {
    double u = fabs(buf[i + i * n]);
    if (u < umin) umin = u;
    if (u > umax) umax = u;
  }
  if (umin >= 1e3 * luma_la_singular_rcond(n) * umax) return LUMA_LA_OK;
  double anorm = luma_la_norm_induced(a, 1); /* the 1-norm of A^T */
  dgecon_("1", &nn, buf, &lda, &anorm, rcond, gecon_work, gecon_iwork, &info, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  return *rcond < luma_la_singular_rcond(n) ? LUMA_LA_SINGULAR : LUMA_LA_OK;
}

/* ------------------------------------------------------------- solving */

luma_LaSize luma_la_solve_work(int64_t n, int64_t k) {
  luma_LaSize s = {(size_t)(n * n + n * k + 4 * n), (size_t)(2 * n)};
  return s;
}

luma_LaStatus luma_la_solve(const luma_Mat *a, const luma_Mat *b, luma_Mat *x, luma_LaWork w,
                            double *rcond) {
  int64_t n = a->rows, k = b->cols;
  *rcond = INFINITY;
  if (n == 0) return LUMA_LA_OK;
  double *lu = w.d, *bx = lu + n * n, *gecon_work = bx + n * k;
  /* A's row-major copy is A^T column-major: factor that and solve with
   * the transposed factors, saving a transposition of A. */
  luma_Mat dense = luma_mat_dense(lu, n, n);
  luma_mat_copy(&dense, a);
  luma_LaStatus st = lu_factor_checked(a, lu, w.i, gecon_work, w.i + n, rcond);
  if (st != LUMA_LA_OK || k == 0) return st;
  to_colmajor(b, bx, n);
  lapack_int nn = (lapack_int)n, nk = (lapack_int)k, lda = ld(n), info = 0;
  dgetrs_("T", &nn, &nk, lu, &lda, w.i, bx, &lda, &info, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  from_colmajor(bx, n, x);
  return LUMA_LA_OK;
}

luma_LaSize luma_la_solve_spd_work(int64_t n, int64_t k) {
  luma_LaSize s = {(size_t)(n * n + n * k), 0};
  return s;
}

luma_LaStatus luma_la_solve_spd(const luma_Mat *a, const luma_Mat *b, luma_Mat *x,
                                luma_LaWork w) {
  int64_t n = a->rows, k = b->cols;
  if (n == 0) return LUMA_LA_OK;
  double *c = w.d, *bx = c + n * n;
  to_colmajor(a, c, n);
  lapack_int nn = (lapack_int)n, nk = (lapack_int)k, lda = ld(n), info = 0;
  dpotrf_("L", &nn, c, &lda, &info, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) return LUMA_LA_NOT_PD;
  if (k == 0) return LUMA_LA_OK;
  to_colmajor(b, bx, n);
  dpotrs_("L", &nn, &nk, c, &lda, bx, &lda, &info, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  from_colmajor(bx, n, x);
  return LUMA_LA_OK;
}

luma_LaStatus luma_la_solve_triangular(const luma_Mat *a, const luma_Mat *b, int lower,
                                       int transpose, int unit_diagonal, luma_Mat *x) {
  int64_t n = a->rows, k = b->cols;
  if (!unit_diagonal)
    for (int64_t i = 0; i < n; i++)
      if (LUMA_AT(a, i, i) == 0) return LUMA_LA_SINGULAR;
  luma_mat_copy(x, b);
  if (n == 0 || k == 0) return LUMA_LA_OK;
  /* a is BLAS-ready: row-major with unit column stride, or the transpose
   * of such a matrix, which flips the triangle and the transposition. */
  int row_major = a->cs == 1 && (a->rs >= a->cols || a->rows <= 1);
  int64_t lda = row_major ? max64(a->rs, max64(n, 1)) : max64(a->cs, max64(n, 1));
  if (!row_major) {
    lower = !lower;
    transpose = !transpose;
  }
  cblas_dtrsm(CblasRowMajor, CblasLeft, lower ? CblasLower : CblasUpper,
              transpose ? CblasTrans : CblasNoTrans, unit_diagonal ? CblasUnit : CblasNonUnit,
              (lapack_int)n, (lapack_int)k, 1.0, a->data, (lapack_int)lda, x->data, (lapack_int)max64(k, 1));
  return LUMA_LA_OK;
}

luma_LaSize luma_la_lstsq_work(int64_t m, int64_t n, int64_t k) {
  int64_t ldb = max64(max64(m, n), 1), minmn = min64(m, n);
  lapack_int mm = (lapack_int)m, nn = (lapack_int)n, nk = (lapack_int)k, lda = ld(m),
             lb = (lapack_int)ldb, rank = 0, info = 0, lwork = -1, iwork_size = 1;
  double dummy = 0, rcond = -1, opt = 0;
  dgelsd_(&mm, &nn, &nk, &dummy, &lda, &dummy, &lb, &dummy, &rcond, &rank, &opt, &lwork,
          &iwork_size, &info);
  luma_LaSize s = {(size_t)(m * n + ldb * k + minmn) + queried(opt),
                   (size_t)(iwork_size > 1 ? iwork_size : 1)};
  return s;
}

luma_LaStatus luma_la_lstsq(const luma_Mat *a, const luma_Mat *b, double rcond, luma_Mat *x,
                            luma_Mat *s, int64_t *rank, luma_LaWork w) {
  int64_t m = a->rows, n = a->cols, k = b->cols;
  int64_t ldb = max64(max64(m, n), 1), minmn = min64(m, n);
  *rank = 0;
  if (m == 0 || n == 0 || k == 0) {
    luma_mat_fill(x, 0.0);
    return LUMA_LA_OK;
  }
  luma_LaSize size = luma_la_lstsq_work(m, n, k);
  double *ac = w.d, *bx = ac + m * n, *sv = bx + ldb * k, *work = sv + minmn;
  to_colmajor(a, ac, m);
  to_colmajor(b, bx, ldb);
  lapack_int mm = (lapack_int)m, nn = (lapack_int)n, nk = (lapack_int)k, lda = ld(m),
             lb = (lapack_int)ldb, r = 0, info = 0,
             lwork = (lapack_int)(size.nd - (size_t)(m * n + ldb * k + minmn));
  dgelsd_(&mm, &nn, &nk, ac, &lda, bx, &lb, sv, &rcond, &r, work, &lwork, w.i, &info);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) return LUMA_LA_NO_CONVERGENCE;
  from_colmajor(bx, ldb, x);
  for (int64_t i = 0; i < minmn; i++) LUMA_AT(s, i, 0) = sv[i];
  *rank = r;
  return LUMA_LA_OK;
}

/* ------------------------------------------------ inverse, determinant */

luma_LaSize luma_la_inv_work(int64_t n) {
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0, lwork = -1, ipiv = 0;
  double dummy = 0, opt = 0;
  dgetri_(&nn, &dummy, &lda, &ipiv, &opt, &lwork, &info);
  luma_LaSize s = {queried(opt) + (size_t)(4 * n), (size_t)(2 * n)};
  return s;
}

luma_LaStatus luma_la_inv(const luma_Mat *a, luma_Mat *out, luma_LaWork w, double *rcond) {
  int64_t n = a->rows;
  *rcond = INFINITY;
  if (n == 0) return LUMA_LA_OK;
  /* out's row-major copy of A is A^T column-major, and inv(A^T) =
   * inv(A)^T read back row-major is inv(A): no transposition needed. */
  luma_mat_copy(out, a);
  luma_LaStatus st = lu_factor_checked(a, out->data, w.i, w.d, w.i + n, rcond);
  if (st != LUMA_LA_OK) return st;
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0,
             lwork = (lapack_int)(luma_la_inv_work(n).nd - (size_t)(4 * n));
  dgetri_(&nn, out->data, &lda, w.i, w.d + 4 * n, &lwork, &info);
  if (info < 0) return LUMA_LA_INTERNAL;
  return info > 0 ? LUMA_LA_SINGULAR : LUMA_LA_OK;
}

luma_LaSize luma_la_slogdet_work(int64_t n) {
  luma_LaSize s = {(size_t)(n * n), (size_t)n};
  return s;
}

void luma_la_slogdet(const luma_Mat *a, double *sign, double *logabs, luma_LaWork w) {
  int64_t n = a->rows;
  *sign = 1;
  *logabs = 0;
  if (n == 0) return;
  luma_Mat dense = luma_mat_dense(w.d, n, n); /* A^T column-major: same determinant */
  luma_mat_copy(&dense, a);
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0;
  dgetrf_(&nn, &nn, w.d, &lda, w.i, &info);
  if (info > 0) {
    *sign = 0;
    *logabs = -INFINITY;
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    double u = w.d[i + i * n];
    if (u < 0) *sign = -*sign;
    if (w.i[i] != i + 1) *sign = -*sign; /* each row interchange flips the sign */
    *logabs += log(fabs(u));
  }
}

/* ------------------------------------------------------- factorizations */

luma_LaStatus luma_la_cholesky(const luma_Mat *a, int upper, luma_Mat *out) {
  int64_t n = a->rows;
  if (n == 0) return LUMA_LA_OK;
  /* Row-major out seen column-major is A^T; dpotrf's upper factor U of
   * that, read back row-major, is U^T = L with A = L L^T, built from A's
   * lower triangle. */
  luma_mat_copy(out, a);
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0;
  dpotrf_("U", &nn, out->data, &lda, &info, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) return LUMA_LA_NOT_PD;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i + 1; j < n; j++) LUMA_AT(out, i, j) = 0;
  if (upper) transpose_square(out);
  return LUMA_LA_OK;
}

luma_LaSize luma_la_lu_work(int64_t m, int64_t n) {
  /* The buffer holds the factor (m * n) and later the permutation (m):
   * for an m x 0 matrix the second is the larger. */
  luma_LaSize s = {(size_t)max64(max64(m * n, m), 1), (size_t)max64(min64(m, n), 1)};
  return s;
}

void luma_la_lu(const luma_Mat *a, luma_Mat *p, luma_Mat *l, luma_Mat *u, luma_LaWork w) {
  int64_t m = a->rows, n = a->cols, k = min64(m, n);
  double *buf = w.d;
  to_colmajor(a, buf, m);
  if (k > 0) {
    lapack_int mm = (lapack_int)m, nn = (lapack_int)n, lda = ld(m), info = 0;
    dgetrf_(&mm, &nn, buf, &lda, w.i, &info); /* info > 0: U singular, still valid */
  }
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) LUMA_AT(l, i, j) = i > j ? buf[i + j * m] : i == j ? 1 : 0;
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < n; j++) LUMA_AT(u, i, j) = i <= j ? buf[i + j * m] : 0;
  /* dgetrf swapped row i with row ipiv[i]: L U holds A's rows in the
   * order perm, so A = P L U with P[perm[i]][i] = 1.  p's first column
   * stores perm while it is built. */
  double *perm = buf; /* the factor has been copied out */
  for (int64_t i = 0; i < m; i++) perm[i] = (double)i;
  for (int64_t i = 0; i < k; i++) {
    int64_t r = w.i[i] - 1;
    double t = perm[i];
    perm[i] = perm[r];
    perm[r] = t;
  }
  luma_mat_fill(p, 0.0);
  for (int64_t i = 0; i < m; i++) LUMA_AT(p, (int64_t)perm[i], i) = 1;
}

luma_LaSize luma_la_qr_work(int64_t m, int64_t n, int complete) {
  int64_t k = min64(m, n), qcols = complete ? m : k, width = max64(n, qcols);
  lapack_int mm = (lapack_int)m, nn = (lapack_int)n, kk = (lapack_int)k,
             qc = (lapack_int)qcols, lda = ld(m), info = 0, lwork = -1;
  double dummy = 0, opt1 = 0, opt2 = 0;
  dgeqrf_(&mm, &nn, &dummy, &lda, &dummy, &opt1, &lwork, &info);
  dorgqr_(&mm, &qc, &kk, &dummy, &lda, &dummy, &opt2, &lwork, &info);
  size_t lw = queried(opt1 > opt2 ? opt1 : opt2);
  luma_LaSize s = {(size_t)(m * width + k) + lw, 0};
  return s;
}

void luma_la_qr(const luma_Mat *a, int complete, luma_Mat *q, luma_Mat *r, luma_LaWork w) {
  int64_t m = a->rows, n = a->cols, k = min64(m, n), qcols = complete ? m : k;
  int64_t width = max64(n, qcols);
  double *buf = w.d, *tau = buf + m * width, *work = tau + k;
  lapack_int lwork = (lapack_int)(luma_la_qr_work(m, n, complete).nd - (size_t)(m * width + k));
  lapack_int mm = (lapack_int)m, nn = (lapack_int)n, kk = (lapack_int)k,
             qc = (lapack_int)qcols, lda = ld(m), info = 0;
  to_colmajor(a, buf, m);
  if (m > 0 && n > 0) dgeqrf_(&mm, &nn, buf, &lda, tau, work, &lwork, &info);
  for (int64_t i = 0; i < r->rows; i++)
    for (int64_t j = 0; j < n; j++) LUMA_AT(r, i, j) = i <= j && i < k ? buf[i + j * m] : 0;
  if (q == NULL || m == 0) return;
  dorgqr_(&mm, &qc, &kk, buf, &lda, tau, work, &lwork, &info);
  from_colmajor(buf, m, q);
}

/* ------------------------------------------------------------ spectra */

luma_LaSize luma_la_eigh_work(int64_t n, int vectors) {
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0, lwork = -1, liwork = -1, iopt = 0;
  double dummy = 0, opt = 0;
  dsyevd_(vectors ? "V" : "N", "U", &nn, &dummy, &lda, &dummy, &opt, &lwork, &iopt, &liwork,
          &info, 1, 1);
  luma_LaSize s = {(vectors ? 0 : (size_t)(n * n)) + queried(opt),
                   (size_t)(iopt > 1 ? iopt : 1)};
  return s;
}

luma_LaStatus luma_la_eigh(const luma_Mat *a, luma_Mat *w, luma_Mat *v, luma_LaWork wk) {
  int64_t n = a->rows;
  if (n == 0) return LUMA_LA_OK;
  luma_LaSize size = luma_la_eigh_work(n, v != NULL);
  double *buf = v ? v->data : wk.d, *work = v ? wk.d : wk.d + n * n;
  luma_Mat dense = luma_mat_dense(buf, n, n);
  luma_mat_copy(&dense, a); /* symmetric: its own column-major image */
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0,
             lwork = (lapack_int)(size.nd - (v ? 0 : (size_t)(n * n))),
             liwork = (lapack_int)size.ni;
  /* "U" column-major is the row-major lower triangle. */
  dsyevd_(v ? "V" : "N", "U", &nn, buf, &lda, w->data, work, &lwork, wk.i, &liwork, &info, 1, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) return LUMA_LA_NO_CONVERGENCE;
  if (v) transpose_square(v);
  return LUMA_LA_OK;
}

luma_LaSize luma_la_eigh_generalized_work(int64_t n, int vectors) {
  lapack_int one = 1, nn = (lapack_int)n, lda = ld(n), info = 0, lwork = -1, liwork = -1,
             iopt = 0;
  double dummy = 0, opt = 0;
  dsygvd_(&one, vectors ? "V" : "N", "U", &nn, &dummy, &lda, &dummy, &lda, &dummy, &opt, &lwork,
          &iopt, &liwork, &info, 1, 1);
  luma_LaSize s = {(size_t)(n * n) * (vectors ? 1 : 2) + queried(opt),
                   (size_t)(iopt > 1 ? iopt : 1)};
  return s;
}

luma_LaStatus luma_la_eigh_generalized(const luma_Mat *a, const luma_Mat *b, luma_Mat *w,
                                       luma_Mat *v, luma_LaWork wk) {
  int64_t n = a->rows;
  if (n == 0) return LUMA_LA_OK;
  luma_LaSize size = luma_la_eigh_generalized_work(n, v != NULL);
  double *abuf = v ? v->data : wk.d, *bbuf = v ? wk.d : wk.d + n * n, *work = bbuf + n * n;
  luma_Mat ad = luma_mat_dense(abuf, n, n), bd = luma_mat_dense(bbuf, n, n);
  luma_mat_copy(&ad, a);
  luma_mat_copy(&bd, b);
  lapack_int one = 1, nn = (lapack_int)n, lda = ld(n), info = 0,
             lwork = (lapack_int)(size.nd - (size_t)(n * n) * (v ? 1 : 2)),
             liwork = (lapack_int)size.ni;
  dsygvd_(&one, v ? "V" : "N", "U", &nn, abuf, &lda, bbuf, &lda, w->data, work, &lwork, wk.i,
          &liwork, &info, 1, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > n) return LUMA_LA_B_NOT_PD;
  if (info > 0) return LUMA_LA_NO_CONVERGENCE;
  if (v) transpose_square(v);
  return LUMA_LA_OK;
}

luma_LaSize luma_la_eig_work(int64_t n, int vectors) {
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0, lwork = -1;
  double dummy = 0, opt = 0;
  dgeev_("N", vectors ? "V" : "N", &nn, &dummy, &lda, &dummy, &dummy, &dummy, &lda, &dummy,
         &lda, &opt, &lwork, &info, 1, 1);
  luma_LaSize s = {(size_t)(n * n) * (vectors ? 2 : 1) + queried(opt), 0};
  return s;
}

luma_LaStatus luma_la_eig(const luma_Mat *a, luma_Mat *wr, luma_Mat *wi, luma_Mat *vr,
                          luma_Mat *vi, luma_LaWork w) {
  int64_t n = a->rows;
  if (n == 0) return LUMA_LA_OK;
  int vectors = vr != NULL;
  luma_LaSize size = luma_la_eig_work(n, vectors);
  double *ac = w.d, *vbuf = ac + n * n, *work = vbuf + (vectors ? n * n : 0);
  to_colmajor(a, ac, n);
  lapack_int nn = (lapack_int)n, lda = ld(n), info = 0, one = 1,
             lwork = (lapack_int)(size.nd - (size_t)(n * n) * (vectors ? 2 : 1));
  dgeev_("N", vectors ? "V" : "N", &nn, ac, &lda, wr->data, wi->data, NULL, &one, vbuf,
         vectors ? &lda : &one, work, &lwork, &info, 1, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) return LUMA_LA_NO_CONVERGENCE;
  if (!vectors) return LUMA_LA_OK;
  /* dgeev stores a conjugate pair's vector as two real columns: the real
   * part, then the imaginary part of the first member of the pair. */
  for (int64_t j = 0; j < n; j++) {
    if (wi->data[j] == 0 || j + 1 == n) {
      for (int64_t i = 0; i < n; i++) {
        LUMA_AT(vr, i, j) = vbuf[i + j * n];
        LUMA_AT(vi, i, j) = 0;
      }
      continue;
    }
    for (int64_t i = 0; i < n; i++) {
      double re = vbuf[i + j * n], im = vbuf[i + (j + 1) * n];
      LUMA_AT(vr, i, j) = re;
      LUMA_AT(vi, i, j) = im;
      LUMA_AT(vr, i, j + 1) = re;
      LUMA_AT(vi, i, j + 1) = -im;
    }
    j++;
  }
  return LUMA_LA_OK;
}

/* The SVD works on A^T, which is A's row-major copy read column-major:
 * A^T = U' S V'^T gives A = V' S U'^T, and LAPACK's column-major V'^T and
 * U' are, read row-major, exactly A's U and Vt.  So dgesdd writes straight
 * into the outputs and nothing is transposed. */
luma_LaSize luma_la_svd_work(int64_t m, int64_t n, char mode) {
  int64_t k = min64(m, n);
  int64_t ucols = mode == 'A' ? m : k;
  lapack_int mm = (lapack_int)n, nn = (lapack_int)m, lda = ld(n), ldu = ld(n),
             ldvt = ld(ucols), info = 0, lwork = -1, iwork = 0;
  double dummy = 0, opt = 0;
  char jobz[2] = {mode, 0};
  dgesdd_(jobz, &mm, &nn, &dummy, &lda, &dummy, &dummy, &ldu, &dummy, &ldvt, &opt, &lwork,
          &iwork, &info, 1);
  luma_LaSize s = {(size_t)(m * n + k) + queried(opt), (size_t)max64(8 * k, 1)};
  return s;
}

luma_LaStatus luma_la_svd(const luma_Mat *a, char mode, luma_Mat *u, luma_Mat *s, luma_Mat *vt,
                          luma_LaWork w) {
  int64_t m = a->rows, n = a->cols, k = min64(m, n);
  if (k == 0) { /* nothing to decompose: orthogonal factors are identities */
    if (u) luma_mat_set_identity(u);
    if (vt) luma_mat_set_identity(vt);
    return LUMA_LA_OK;
  }
  int64_t ucols = mode == 'A' ? m : k;
  luma_LaSize size = luma_la_svd_work(m, n, mode);
  double *at = w.d, *sv = at + m * n, *work = sv + k, dummy = 0;
  luma_Mat dense = luma_mat_dense(at, m, n);
  luma_mat_copy(&dense, a);
  lapack_int mm = (lapack_int)n, nn = (lapack_int)m, lda = ld(n), ldu = ld(n),
             ldvt = ld(ucols), info = 0, lwork = (lapack_int)(size.nd - (size_t)(m * n + k));
  char jobz[2] = {mode, 0};
  dgesdd_(jobz, &mm, &nn, at, &lda, sv, vt ? vt->data : &dummy, &ldu, u ? u->data : &dummy,
          &ldvt, work, &lwork, w.i, &info, 1);
  if (info < 0) return LUMA_LA_INTERNAL;
  if (info > 0) return LUMA_LA_NO_CONVERGENCE;
  for (int64_t i = 0; i < k; i++) LUMA_AT(s, i, 0) = sv[i];
  return LUMA_LA_OK;
}

/* --------------------------------------------- the notes' own methods */

luma_LaStatus luma_la_gram_schmidt(luma_Threads *t, const luma_Mat *a, double tol, luma_Mat *q,
                                   luma_Mat *r, int64_t *rank) {
  int64_t m = a->rows, n = a->cols, found = 0;
  *rank = 0;
  if (luma_work_charge(t, (uint64_t)(m * n + n * n)) != LUMA_LOOP_DONE) return LUMA_LA_STOPPED;
  luma_mat_fill(q, 0.0);
  luma_mat_fill(r, 0.0);
  luma_WorkBatch batch = {t, 0};
  for (int64_t j = 0; j < n; j++) {
    /* the column's projections on the basis so far, and its norms */
    if (luma_work_add(&batch, (uint64_t)(m * (4 * found + 6)))) return LUMA_LA_STOPPED;
    luma_Mat v = luma_mat_block(q, 0, found, m, 1); /* candidate column */
    double norm0 = 0;
    for (int64_t i = 0; i < m; i++) {
      LUMA_AT(&v, i, 0) = LUMA_AT(a, i, j);
      norm0 += LUMA_AT(a, i, j) * LUMA_AT(a, i, j);
    }
    norm0 = sqrt(norm0);
    /* Modified Gram-Schmidt: project out each basis vector from the
     * updated remainder, the stable variant the notes allude to. */
    for (int64_t b = 0; b < found; b++) {
      double dot = 0;
      for (int64_t i = 0; i < m; i++) dot += LUMA_AT(q, i, b) * LUMA_AT(&v, i, 0);
      LUMA_AT(r, b, j) = dot;
      for (int64_t i = 0; i < m; i++) LUMA_AT(&v, i, 0) -= dot * LUMA_AT(q, i, b);
    }
    double norm = 0;
    for (int64_t i = 0; i < m; i++) norm += LUMA_AT(&v, i, 0) * LUMA_AT(&v, i, 0);
    norm = sqrt(norm);
    if (found < m && norm > 0 && norm > tol * norm0) {
      for (int64_t i = 0; i < m; i++) LUMA_AT(&v, i, 0) /= norm;
      LUMA_AT(r, found, j) = norm;
      found++;
    } else {
      for (int64_t i = 0; i < m; i++) LUMA_AT(&v, i, 0) = 0; /* dependent: dropped */
    }
  }
  luma_work_flush(&batch);
  *rank = found;
  return LUMA_LA_OK;
}

luma_LaStatus luma_la_power_iteration(luma_Threads *t, const luma_Mat *a, int64_t k,
                                      int64_t max_iter, double tol, luma_Mat *start,
                                      luma_Mat *deflated, luma_Mat *values, luma_Mat *vectors,
                                      double *scratch) {
  int64_t n = a->rows;
  luma_LaStatus status = LUMA_LA_OK;
  /* an iteration: the product with the n x n matrix, the normalization */
  const uint64_t per_iteration = 2 * (uint64_t)(n * n) + 6 * (uint64_t)n;
  if (luma_work_charge(t, (uint64_t)(n * n)) != LUMA_LOOP_DONE) return LUMA_LA_STOPPED;
  luma_mat_copy(deflated, a);
  double *x = scratch, *z = scratch + n;
  for (int64_t p = 0; p < k; p++) {
    for (int64_t i = 0; i < n; i++) x[i] = LUMA_AT(start, i, p);
    double nx = cblas_dnrm2((lapack_int)n, x, 1);
    if (nx > 0) cblas_dscal((lapack_int)n, 1 / nx, x, 1);
    int settled = 0;
    for (int64_t it = 0; it < max_iter && !settled; it++) {
      if (luma_work_charge(t, per_iteration) != LUMA_LOOP_DONE) return LUMA_LA_STOPPED;
      cblas_dgemv(CblasRowMajor, CblasNoTrans, (lapack_int)n, (lapack_int)n, 1.0, deflated->data,
                  (lapack_int)n, x, 1, 0.0, z, 1);
      double nz = cblas_dnrm2((lapack_int)n, z, 1);
      if (nz == 0) { /* x lies in the null space: eigenvalue 0, exactly */
        settled = 1;
        break;
      }
      /* Distance to the previous iterate up to sign: a negative dominant
       * eigenvalue flips the sign at every step. */
      double same = 0, flipped = 0;
      for (int64_t i = 0; i < n; i++) {
        z[i] /= nz;
        same += (z[i] - x[i]) * (z[i] - x[i]);
        flipped += (z[i] + x[i]) * (z[i] + x[i]);
      }
      settled = sqrt(same < flipped ? same : flipped) <= tol;
      memcpy(x, z, (size_t)n * sizeof *x);
    }
    if (!settled) status = LUMA_LA_NO_CONVERGENCE;
    /* the Rayleigh quotient and the peeling: two passes over the matrix */
    if (luma_work_charge(t, per_iteration + 2 * (uint64_t)(n * n)) != LUMA_LOOP_DONE)
      return LUMA_LA_STOPPED;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (lapack_int)n, (lapack_int)n, 1.0, deflated->data,
                (lapack_int)n, x, 1, 0.0, z, 1);
    double lambda = cblas_ddot((lapack_int)n, x, 1, z, 1);
    LUMA_AT(values, p, 0) = lambda;
    for (int64_t i = 0; i < n; i++) LUMA_AT(vectors, i, p) = x[i];
    /* Peeling: remove the found component, A <- A - lambda v v^T. */
    cblas_dger(CblasRowMajor, (lapack_int)n, (lapack_int)n, -lambda, x, 1, x, 1, deflated->data,
               (lapack_int)n);
  }
  return status;
}
