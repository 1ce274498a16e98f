/*
 * lapack.h - the Fortran LAPACK routines Luma calls, as liblapack.so.3
 * exports them (Debian ships no LAPACKE header with OpenBLAS).
 *
 * Fortran conventions: every argument by pointer, matrices column-major
 * (a row-major n x n buffer is the transpose, so symmetric inputs need no
 * copy), integers are int (Debian's BLAS and LAPACK, OpenBLAS among them,
 * use 32-bit integers), and each CHARACTER argument adds a hidden
 * length argument at the end (gfortran passes them as size_t).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_LAPACK_H
#define LUMA_ML_LAPACK_H

#include <stddef.h>

typedef int lapack_int;

/* LU */
void dgetrf_(const lapack_int *m, const lapack_int *n, double *a, const lapack_int *lda,
             lapack_int *ipiv, lapack_int *info);
void dgetrs_(const char *trans, const lapack_int *n, const lapack_int *nrhs, const double *a,
             const lapack_int *lda, const lapack_int *ipiv, double *b, const lapack_int *ldb,
             lapack_int *info, size_t trans_len);
void dgetri_(const lapack_int *n, double *a, const lapack_int *lda, const lapack_int *ipiv,
             double *work, const lapack_int *lwork, lapack_int *info);
void dgecon_(const char *norm, const lapack_int *n, const double *a, const lapack_int *lda,
             const double *anorm, double *rcond, double *work, lapack_int *iwork,
             lapack_int *info, size_t norm_len);

/* Cholesky and triangular */
void dpotrf_(const char *uplo, const lapack_int *n, double *a, const lapack_int *lda,
             lapack_int *info, size_t uplo_len);
void dpotrs_(const char *uplo, const lapack_int *n, const lapack_int *nrhs, const double *a,
             const lapack_int *lda, double *b, const lapack_int *ldb, lapack_int *info,
             size_t uplo_len);
void dtrtrs_(const char *uplo, const char *trans, const char *diag, const lapack_int *n,
             const lapack_int *nrhs, const double *a, const lapack_int *lda, double *b,
             const lapack_int *ldb, lapack_int *info, size_t uplo_len, size_t trans_len,
             size_t diag_len);

/* QR and least squares */
void dgeqrf_(const lapack_int *m, const lapack_int *n, double *a, const lapack_int *lda,
             double *tau, double *work, const lapack_int *lwork, lapack_int *info);
void dorgqr_(const lapack_int *m, const lapack_int *n, const lapack_int *k, double *a,
             const lapack_int *lda, const double *tau, double *work, const lapack_int *lwork,
             lapack_int *info);
void dgelsd_(const lapack_int *m, const lapack_int *n, const lapack_int *nrhs, double *a,
             const lapack_int *lda, double *b, const lapack_int *ldb, double *s,
             const double *rcond, lapack_int *rank, double *work, const lapack_int *lwork,
             lapack_int *iwork, lapack_int *info);

/* Eigenvalues and singular values */
void dsyevd_(const char *jobz, const char *uplo, const lapack_int *n, double *a,
             const lapack_int *lda, double *w, double *work, const lapack_int *lwork,
             lapack_int *iwork, const lapack_int *liwork, lapack_int *info, size_t jobz_len,
             size_t uplo_len);
void dsygvd_(const lapack_int *itype, const char *jobz, const char *uplo, const lapack_int *n,
             double *a, const lapack_int *lda, double *b, const lapack_int *ldb, double *w,
             double *work, const lapack_int *lwork, lapack_int *iwork,
             const lapack_int *liwork, lapack_int *info, size_t jobz_len, size_t uplo_len);
void dgeev_(const char *jobvl, const char *jobvr, const lapack_int *n, double *a,
            const lapack_int *lda, double *wr, double *wi, double *vl, const lapack_int *ldvl,
            double *vr, const lapack_int *ldvr, double *work, const lapack_int *lwork,
            lapack_int *info, size_t jobvl_len, size_t jobvr_len);
void dgesdd_(const char *jobz, const lapack_int *m, const lapack_int *n, double *a,
             const lapack_int *lda, double *s, double *u, const lapack_int *ldu, double *vt,
             const lapack_int *ldvt, double *work, const lapack_int *lwork, lapack_int *iwork,
             lapack_int *info, size_t jobz_len);

#endif
