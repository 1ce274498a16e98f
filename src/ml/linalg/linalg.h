/*
 * linalg.h - decompositions and solvers over LAPACK (no Lua).
 *
 * Inputs are luma_Mat with any strides and are never modified.  Outputs
 * are row-major contiguous matrices of the documented shapes, allocated by
 * the caller.  Scratch memory comes from the caller too, sized by the
 * matching *_work function (which runs LAPACK's lwork = -1 query), so a
 * binding can take it from the Lua allocator: memory limits then apply
 * and nothing leaks when an error is raised afterwards.
 *
 * Every function returns a luma_LaStatus; none prints or aborts.
 * Dimensions must fit LAPACK's int (the binding checks).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_LINALG_H
#define LUMA_ML_LINALG_H

#include <stddef.h>

#include "linalg/lapack.h"
#include "core/matrix.h"
#include "core/parallel.h"

typedef enum luma_LaStatus {
  LUMA_LA_OK = 0,
  LUMA_LA_SINGULAR,       /* exactly or numerically singular */
  LUMA_LA_NOT_PD,         /* Cholesky failed: not positive definite */
  LUMA_LA_B_NOT_PD,       /* generalized problem: B not positive definite */
  LUMA_LA_NO_CONVERGENCE, /* an iterative eigen/SVD solver did not converge */
  LUMA_LA_INTERNAL,       /* LAPACK rejected an argument (a bug) */
  LUMA_LA_STOPPED         /* the meter stopped an iterative solver (luma_work_status says why) */
} luma_LaStatus;

/* Scratch: nd doubles and ni LAPACK integers. */
typedef struct luma_LaWork {
  double *d;
  lapack_int *i;
} luma_LaWork;

typedef struct luma_LaSize {
  size_t nd, ni;
} luma_LaSize;

/* The reciprocal condition number below which solve and inv call a matrix
 * singular: n * machine epsilon, where the solution has lost every digit. */
double luma_la_singular_rcond(int64_t n);

/* The induced 1-norm (largest column sum of |a_ij|), or with by_rows the
 * infinity-norm (largest row sum). */
double luma_la_norm_induced(const luma_Mat *a, int by_rows);

/* x = A^-1 b through LU with partial pivoting (A n x n, b n x k).
 * When the pivots look near-singular, *rcond receives the reciprocal
 * condition estimate (else INFINITY); below luma_la_singular_rcond the
 * result is LUMA_LA_SINGULAR. */
luma_LaSize luma_la_solve_work(int64_t n, int64_t k);
luma_LaStatus luma_la_solve(const luma_Mat *a, const luma_Mat *b, luma_Mat *x, luma_LaWork w,
                            double *rcond);

/* The same for symmetric positive definite A, through Cholesky. */
luma_LaSize luma_la_solve_spd_work(int64_t n, int64_t k);
luma_LaStatus luma_la_solve_spd(const luma_Mat *a, const luma_Mat *b, luma_Mat *x,
                                luma_LaWork w);

/* x = A^-1 b (or A^-T b) for triangular A; x may not overlap a or b. */
luma_LaStatus luma_la_solve_triangular(const luma_Mat *a, const luma_Mat *b, int lower,
                                       int transpose, int unit_diagonal, luma_Mat *x);

/* Minimum-norm least squares through the SVD (dgelsd): x is n x k, s the
 * min(m, n) singular values, *rank the effective rank at rcond. */
luma_LaSize luma_la_lstsq_work(int64_t m, int64_t n, int64_t k);
luma_LaStatus luma_la_lstsq(const luma_Mat *a, const luma_Mat *b, double rcond, luma_Mat *x,
                            luma_Mat *s, int64_t *rank, luma_LaWork w);

luma_LaSize luma_la_inv_work(int64_t n);
luma_LaStatus luma_la_inv(const luma_Mat *a, luma_Mat *out, luma_LaWork w, double *rcond);

/* sign and log|det A|; sign 0 and logabs -inf for a singular matrix. */
luma_LaSize luma_la_slogdet_work(int64_t n);
void luma_la_slogdet(const luma_Mat *a, double *sign, double *logabs, luma_LaWork w);

/* out = L (lower) with A = L L^T, or U = L^T when upper. */
luma_LaStatus luma_la_cholesky(const luma_Mat *a, int upper, luma_Mat *out);

/* A = P L U: p m x m, l m x k (unit lower), u k x n, k = min(m, n). */
luma_LaSize luma_la_lu_work(int64_t m, int64_t n);
void luma_la_lu(const luma_Mat *a, luma_Mat *p, luma_Mat *l, luma_Mat *u, luma_LaWork w);

/* A = Q R: reduced (q m x k, r k x n) or complete (q m x m, r m x n);
 * q may be NULL when only R is wanted. */
luma_LaSize luma_la_qr_work(int64_t m, int64_t n, int complete);
void luma_la_qr(const luma_Mat *a, int complete, luma_Mat *q, luma_Mat *r, luma_LaWork w);

/* Symmetric eigendecomposition (dsyevd, lower triangle): w ascending,
 * v's columns the eigenvectors (v may be NULL for values only). */
luma_LaSize luma_la_eigh_work(int64_t n, int vectors);
luma_LaStatus luma_la_eigh(const luma_Mat *a, luma_Mat *w, luma_Mat *v, luma_LaWork wk);

/* A v = lambda B v, A symmetric, B symmetric positive definite (dsygvd);
 * the eigenvectors are B-orthonormal. */
luma_LaSize luma_la_eigh_generalized_work(int64_t n, int vectors);
luma_LaStatus luma_la_eigh_generalized(const luma_Mat *a, const luma_Mat *b, luma_Mat *w,
                                       luma_Mat *v, luma_LaWork wk);

/* General eigenproblem (dgeev): eigenvalues wr + i wi (n x 1 each);
 * complex conjugate pairs are adjacent, positive imaginary part first.
 * vr, vi (n x n, may be NULL) hold the real and imaginary parts of the
 * right eigenvectors (unit 2-norm). */
luma_LaSize luma_la_eig_work(int64_t n, int vectors);
luma_LaStatus luma_la_eig(const luma_Mat *a, luma_Mat *wr, luma_Mat *wi, luma_Mat *vr,
                          luma_Mat *vi, luma_LaWork w);

/* A = U diag(s) Vt (dgesdd), s descending.  mode 'N': s only; 'S': thin
 * (u m x k, vt k x n); 'A': full (u m x m, vt n x n). */
luma_LaSize luma_la_svd_work(int64_t m, int64_t n, char mode);
luma_LaStatus luma_la_svd(const luma_Mat *a, char mode, luma_Mat *u, luma_Mat *s, luma_Mat *vt,
                          luma_LaWork w);

/* Modified Gram-Schmidt on A's columns (notes 001, L926-936): columns
 * whose remainder has norm <= tol times their original norm are dropped.
 * q (m x n) receives the basis in its first *rank columns and r (n x n)
 * the coefficients, so A = Q[:, 1..rank] R[1..rank, :].  Each column
 * (O(m rank)) is charged to t (may be NULL); LUMA_LA_STOPPED when it
 * stopped, else LUMA_LA_OK. */
luma_LaStatus luma_la_gram_schmidt(luma_Threads *t, const luma_Mat *a, double tol, luma_Mat *q,
                                   luma_Mat *r, int64_t *rank);

/* Power method with peeling (notes 001, L1192-1219): the k dominant
 * eigenpairs of symmetric A.  start (n x k) holds the starting vectors
 * (Gaussian); deflated (n x n) is scratch.  Iterates until successive
 * unit vectors differ by at most tol (up to sign) or max_iter; returns
 * LUMA_LA_NO_CONVERGENCE if some pair did not settle.  The eigenvalue is
 * the Rayleigh quotient v'Av (signed, where the notes' |Av| loses the
 * sign).  Each iteration (a product with the n x n matrix) is charged to
 * the meter t (may be NULL); LUMA_LA_STOPPED when it stopped. */
luma_LaStatus luma_la_power_iteration(luma_Threads *t, const luma_Mat *a, int64_t k,
                                      int64_t max_iter, double tol, luma_Mat *start,
                                      luma_Mat *deflated, luma_Mat *values, luma_Mat *vectors,
                                      double *scratch);

#endif
