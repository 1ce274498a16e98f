/*
 * gmm.h - the per-row work of Gaussian mixtures with full or tied
 * covariances (no Lua): the E-step's log-responsibilities and the
 * M-step's weighted moments, as parallel loops over blocks of rows.
 *
 * Both are what scikit-learn's GaussianMixture computes with one BLAS
 * call per component; fused per row here, so that X is read once per
 * step instead of twice per component and no n x d temporaries are made.
 * Rows are the chunks of a parallel-for (core/parallel.h): the E-step
 * writes disjoint rows, the M-step keeps one partial sum per chunk and
 * adds them in chunk order, so results are bit-identical for any thread
 * count.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_GMM_H
#define LUMA_ML_GMM_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* log_resp[i][c] = log w_c + log N(x_i | mu_c, Sigma_c) - norm[i], with
 * norm[i] the log-sum-exp over c (log p(x_i)), for k components:
 * means k x d (row-major, contiguous), chol k blocks of d x d row-major
 * (tied: one block) with chol_c chol_c^T = Sigma_c^-1, bias[c] = log w_c
 * + log det chol_c - (d/2) log 2 pi.  log_resp is n x k, norm n elements
 * (either may be strided: a luma_Mat each).  work: luma_gmm_estep_work
 * doubles. */
int64_t luma_gmm_estep_work(int64_t n, int64_t d, int64_t k);
luma_LoopStatus luma_gmm_estep(luma_Threads *t, const luma_Mat *x, const double *means,
                               const double *chol, int tied, const double *bias, int64_t k,
                               luma_Mat *log_resp, luma_Mat *norm, double *work);

/* Weighted moments of the rows for k components with weights r (n x k;
 * exponentiated first when is_log): nk[c] = sum_i r_ic, means[c] = sum_i
 * r_ic x_i / nk[c] (k x d row-major) and, when scatter is not NULL, the
 * scatter about those means, scatter[c] = sum_i r_ic (x_i - mu_c)(x_i -
 * mu_c)^T (k blocks of d x d row-major).  Two passes over X, the second
 * about the new means (no cancellation).  nk[c] gets eps_nk added before
 * dividing (scikit-learn's 10 eps, so an empty component divides by no
 * zero).  work: luma_gmm_moments_work doubles. */
int64_t luma_gmm_moments_work(int64_t n, int64_t d, int64_t k, int with_scatter);
luma_LoopStatus luma_gmm_moments(luma_Threads *t, const luma_Mat *x, const luma_Mat *r,
                                 int is_log, int64_t k, double eps_nk, double *nk,
                                 double *means, double *scatter, double *work);

#endif
