/*
 * lds.h - the linear dynamical system's recursions (no Lua): the Kalman
 * filter, the Rauch-Tung-Striebel smoother with the lag-one
 * cross-covariances, and the state recursion of sampling.
 *
 * The model (Bishop, Pattern Recognition and Machine Learning, sec. 13.3):
 *   z_1 ~ N(mu0, P0),  z_t = A z_{t-1} + w_t,  w_t ~ N(0, Q),
 *   x_t = C z_t + v_t,  v_t ~ N(0, R),
 * state dimension m, observation dimension p.  Matrices are contiguous
 * row-major; a sequence of n covariances is n blocks of m x m (an n x m^2
 * matrix whose row t is the t-th covariance, row by row).
 *
 * Hand-written small-matrix code: every step costs O(m^3 + m^2 p + p^3)
 * flops, far below the call overhead of BLAS for the small dimensions of
 * state-space models.  The recursion is sequential (each step needs the
 * previous one), so it runs on one thread and charges its work to the
 * state's meter (core/parallel.h) in batches, stopping when the meter does.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_LDS_H
#define LUMA_ML_LDS_H

#include <stdint.h>

#include "core/parallel.h"

typedef struct luma_LdsModel {
  int64_t m, p;
  const double *A, *Q, *C, *R, *mu0, *P0; /* m x m, m x m, p x m, p x p, m, m x m */
} luma_LdsModel;

typedef enum luma_LdsStatus {
  LUMA_LDS_OK = 0,
  LUMA_LDS_STOPPED,       /* the meter stopped it: budget, interrupt or deadline */
  LUMA_LDS_INNOVATION,    /* C P C^T + R not positive definite at *bad_step */
  LUMA_LDS_PREDICTED      /* the predicted covariance not positive definite at *bad_step */
} luma_LdsStatus;

/* The Kalman filter over x (n x p, row-major; a row whose first element
 * is NaN is missing: the update is skipped and the prediction carried).
 * Outputs (any may be NULL): pred_mean n x m and pred_cov n x m^2, the
 * one-step predictions E[z_t | x_1..x_{t-1}] and their covariances
 * (row 1: mu0, P0); filt_mean and filt_cov, the filtered E[z_t | x_1..x_t]
 * and covariances, updated in Joseph form, (I - K C) P (I - K C)^T +
 * K R K^T, and symmetrized; loglik n, log N(x_t | C a_t, C P_t C^T + R)
 * (0 for a missing row).  *total receives the summed log-likelihood.
 * work: luma_lds_filter_work doubles.  On failure *bad_step is the
 * 0-based step. */
int64_t luma_lds_filter_work(int64_t m, int64_t p);
luma_LdsStatus luma_lds_filter(const luma_LdsModel *mdl, const double *x, int64_t n,
                               double *pred_mean, double *pred_cov, double *filt_mean,
                               double *filt_cov, double *loglik, double *total, double *work,
                               luma_Threads *meter, int64_t *bad_step);

/* The RTS smoother from the filter's four outputs: smooth_mean n x m,
 * smooth_cov n x m^2 and cross_cov n x m^2, whose row t (t >= 2,
 * 1-based) is cov(z_t, z_{t-1} | x_1..x_n) = Vs_t J_{t-1}^T, with J_t =
 * V_t A^T P_{t+1}^-1; row 1 is zero.  work: luma_lds_smooth_work
 * doubles. */
int64_t luma_lds_smooth_work(int64_t m);
luma_LdsStatus luma_lds_smooth(int64_t m, int64_t n, const double *A, const double *pred_mean,
                               const double *pred_cov, const double *filt_mean,
                               const double *filt_cov, double *smooth_mean, double *smooth_cov,
                               double *cross_cov, double *work, luma_Threads *meter,
                               int64_t *bad_step);

/* z_1 = w_1, z_t = A z_{t-1} + w_t for t = 2..n, in place over w (n x m
 * row-major): the state path of a sample from its noise draws.  Each step
 * (m^2) is charged to the meter (may be NULL); returns nonzero when it
 * stopped. */
int luma_lds_recurse(int64_t m, int64_t n, const double *A, double *w, luma_Threads *meter);

#endif
