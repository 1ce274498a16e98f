/*
 * tsa.h - time-series recursions (no Lua): the ARMA filter that
 * simulation and residuals run through, and the sample autocovariances.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_TSA_H
#define LUMA_ML_TSA_H

#include <stdint.h>

#include "core/parallel.h"

/* x_t = sum_{i=1}^{p} ar[i-1] x_{t-i} + e_t + sum_{j=1}^{q} ma[j-1] e_{t-j}
 * for t = 0..n-1, with x and e zero before the start (scipy's lfilter
 * with b = [1, ma], a = [1, -ar]).  e and x are n contiguous doubles and
 * must not overlap.  The work is charged to meter (may be NULL) as it
 * goes; returns LUMA_LOOP_DONE, or why the meter stopped it (x is then
 * incomplete). */
luma_LoopStatus luma_tsa_arma_filter(luma_Threads *meter, const double *ar, int64_t p,
                                     const double *ma, int64_t q, const double *e, double *x,
                                     int64_t n);

/* out[h] = (1/n) sum_{t=0}^{n-1-h} (x_t - mean)(x_{t+h} - mean) for h =
 * 0..nlags (nlags < n), or divided by n - h when adjusted.  Charged to
 * meter lag by lag; returns as luma_tsa_arma_filter. */
luma_LoopStatus luma_tsa_acovf(luma_Threads *meter, const double *x, int64_t n, double mean,
                               int64_t nlags, int adjusted, double *out);

#endif
