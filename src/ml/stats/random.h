/*
 * random.h - the xoshiro256** pseudo-random generator (no Lua, no globals).
 *
 * xoshiro256** (Blackman and Vigna, 2018): 256 bits of state, period
 * 2^256 - 1, passes BigCrush, and has a jump function that advances a
 * stream by 2^128 draws, which is how independent streams are made.
 * Seeds are expanded to state with splitmix64, as the authors recommend.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_RANDOM_H
#define LUMA_ML_RANDOM_H

#include <stdint.h>

#include "core/matrix.h"

typedef struct luma_Rng {
  uint64_t s[4];
} luma_Rng;

void luma_rng_seed(luma_Rng *rng, uint64_t seed);
uint64_t luma_rng_next(luma_Rng *rng);
/* Advances the stream by 2^128 draws. */
void luma_rng_jump(luma_Rng *rng);

/* Uniform on [0, 1) with 53 random bits. */
double luma_rng_uniform(luma_Rng *rng);
/* Standard normal by the 256-layer ziggurat (Marsaglia and Tsang 2000):
 * one 64-bit draw for about 99% of values (the layer, the sign and 53
 * bits of position come from the same word). */
double luma_rng_normal(luma_Rng *rng);
/* Uniform integer in [0, n), n >= 1, without modulo bias (Lemire 2019). */
uint64_t luma_rng_below(luma_Rng *rng, uint64_t n);

/* k distinct indices of 0..n-1 in random order (partial Fisher-Yates);
 * scratch holds n integers. */
void luma_rng_sample(luma_Rng *rng, int64_t n, int64_t k, int64_t *out, int64_t *scratch);

/* An index of 0..n-1 drawn with probability proportional to the weight
 * whose running total cumulative[] holds (cumulative[n-1] > 0). */
int64_t luma_rng_weighted_index(luma_Rng *rng, const double *cumulative, int64_t n);

/* k distinct indices drawn with probabilities proportional to weights,
 * successively without replacement (Efraimidis-Spirakis keys u^(1/w));
 * at least k weights must be positive.  scratch holds 2n doubles. */
void luma_rng_weighted_sample(luma_Rng *rng, const double *weights, int64_t n, int64_t k,
                              int64_t *out, double *scratch);

/* Samplers behind luma.dist (parameters already validated). */
double luma_rng_exponential(luma_Rng *rng);          /* rate 1 */
double luma_rng_gamma(luma_Rng *rng, double shape);  /* scale 1, shape > 0 */
double luma_rng_beta(luma_Rng *rng, double a, double b);
int64_t luma_rng_poisson(luma_Rng *rng, double lambda);           /* lambda >= 0 */
int64_t luma_rng_binomial(luma_Rng *rng, int64_t n, double p);   /* 0 <= p <= 1 */

/* Fill every element of m (any strides). */
void luma_rng_fill_uniform(luma_Rng *rng, luma_Mat *m, double lo, double hi);
void luma_rng_fill_normal(luma_Rng *rng, luma_Mat *m, double mean, double std);

#endif
