/*
 * random.c - xoshiro256** and the samplers built on it.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/random.h"
#include "stats/ziggurat_tables.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void luma_rng_seed(luma_Rng *rng, uint64_t seed) {
  for (int k = 0; k < 4; k++) rng->s[k] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The generator step, inlined into the fill loops. */
static inline uint64_t next(luma_Rng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t luma_rng_next(luma_Rng *rng) { return next(rng); }

void luma_rng_jump(luma_Rng *rng) {
  static const uint64_t JUMP[] = {0x180ec6d33cfd0aba, 0xd5a61266f0c9392c, 0xa9582618e03fc9aa,
                                  0x39abdc4529b1661c};
  uint64_t acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++)
    for (int b = 0; b < 64; b++) {
      if (JUMP[i] & ((uint64_t)1 << b))
        for (int k = 0; k < 4; k++) acc[k] ^= rng->s[k];
      next(rng);
    }
  for (int k = 0; k < 4; k++) rng->s[k] = acc[k];
}

/* 53 random bits scaled into [0, 1); the shifted value fits an int64, whose
 * conversion to double is a single instruction. */
static inline double uniform(luma_Rng *rng) {
  return (double)(int64_t)(next(rng) >> 11) * 0x1.0p-53;
}

double luma_rng_uniform(luma_Rng *rng) { return uniform(rng); }

/* The ziggurat's first test, on the 64 bits of one draw: layer from the
 * low 8 bits, sign from bit 8, the position in the layer from the high 53.
 * Sets *z and returns 1 inside the layer's core (about 99% of draws). */
static inline int normal_core(uint64_t bits, double *z) {
  int layer = (int)(bits & 0xff);
  double x = (double)(int64_t)(bits >> 11) * 0x1.0p-53 * ziggurat_x[layer];
  /* the sign bit set from bit 8, -x exactly: a branch here would be
   * mispredicted on every other draw */
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  u |= (bits & 0x100) << 55;
  memcpy(z, &u, sizeof u);
  return x < ziggurat_x[layer + 1];
}

/* The rest of a draw whose first bits missed the core: the tail, the
 * wedge, and fresh bits after a rejection.  Out of line, so the core's
 * loops stay small; it draws exactly what one loop over all the cases
 * would. */
static double normal_miss(luma_Rng *rng, uint64_t bits) {
  /* audit-loops: rejection sampling (the ziggurat): about 1.01 draws expected */
  for (;;) {
    int layer = (int)(bits & 0xff);
    double sign = (bits & 0x100) ? -1.0 : 1.0;
    double x = (double)(int64_t)(bits >> 11) * 0x1.0p-53 * ziggurat_x[layer];
    if (x < ziggurat_x[layer + 1]) return sign * x; /* inside the core: ~99% */
    if (layer == 0) {
      /* The tail beyond r, by Marsaglia's exponential rejection. */
      double a, b;
      /* audit-loops: Marsaglia's tail rejection: O(1) expected draws */
      do {
        a = -log(1.0 - uniform(rng)) / ZIGGURAT_R;
        b = -log(1.0 - uniform(rng));
      } while (b + b < a * a);
      return sign * (ZIGGURAT_R + a);
    }
    double y = ziggurat_y[layer] + uniform(rng) * (ziggurat_y[layer + 1] - ziggurat_y[layer]);
    if (y < exp(-0.5 * x * x)) return sign * x; /* in the wedge under the curve */
    bits = next(rng);
  }
}

static inline double normal(luma_Rng *rng) {
  uint64_t bits = next(rng);
  double z;
  return normal_core(bits, &z) ? z : normal_miss(rng, bits);
}

double luma_rng_normal(luma_Rng *rng) { return normal(rng); }

uint64_t luma_rng_below(luma_Rng *rng, uint64_t n) {
  /* Lemire's multiply-shift with rejection of the biased low products. */
  unsigned __int128 m = (unsigned __int128)next(rng) * n;
  uint64_t low = (uint64_t)m;
  if (low < n) {
    uint64_t threshold = -n % n;
    while (low < threshold) {
      m = (unsigned __int128)next(rng) * n;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

void luma_rng_fill_uniform(luma_Rng *rng, luma_Mat *m, double lo, double hi) {
  double width = hi - lo;
  luma_Rng local = *rng;
  if (luma_mat_is_contiguous(m)) {
    double *out = m->data;
    int64_t n = m->rows * m->cols;
    for (int64_t k = 0; k < n; k++) out[k] = lo + width * uniform(&local);
  } else {
    for (int64_t i = 0; i < m->rows; i++)
      for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = lo + width * uniform(&local);
  }
  *rng = local;
}

/* n draws into out, the same stream as n calls of normal: the state is
 * a local whose address is never taken, so it lives in registers, and
 * only a miss of the core copies it out and back. */
static void fill_normal_flat(luma_Rng *rng, double *out, int64_t n, double mean, double std) {
  luma_Rng state = *rng;
  for (int64_t k = 0; k < n; k++) {
    uint64_t bits = next(&state);
    double z;
    if (!normal_core(bits, &z)) {
      luma_Rng spill = state;
      z = normal_miss(&spill, bits);
      state = spill;
    }
    out[k] = mean + std * z;
  }
  *rng = state;
}

void luma_rng_fill_normal(luma_Rng *rng, luma_Mat *m, double mean, double std) {
  luma_Rng local = *rng;
  if (luma_mat_is_contiguous(m)) {
    fill_normal_flat(&local, m->data, m->rows * m->cols, mean, std);
  } else {
    for (int64_t i = 0; i < m->rows; i++)
      for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = mean + std * normal(&local);
  }
  *rng = local;
}

void luma_rng_sample(luma_Rng *rng, int64_t n, int64_t k, int64_t *out, int64_t *scratch) {
  for (int64_t i = 0; i < n; i++) scratch[i] = i;
  for (int64_t i = 0; i < k; i++) {
    int64_t r = i + (int64_t)luma_rng_below(rng, (uint64_t)(n - i));
    int64_t t = scratch[i];
    scratch[i] = scratch[r];
    scratch[r] = t;
    out[i] = scratch[i];
  }
}

int64_t luma_rng_weighted_index(luma_Rng *rng, const double *cumulative, int64_t n) {
  double target = uniform(rng) * cumulative[n - 1];
  int64_t lo = 0, hi = n - 1; /* the first index whose running total exceeds target */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cumulative[mid] > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* Keys sort descending; the key and index travel together. */
typedef struct KeyedIndex {
  double key;
  double index;
} KeyedIndex;

static int by_key_descending(const void *a, const void *b) {
  double ka = ((const KeyedIndex *)a)->key, kb = ((const KeyedIndex *)b)->key;
  return (ka < kb) - (ka > kb);
}

void luma_rng_weighted_sample(luma_Rng *rng, const double *weights, int64_t n, int64_t k,
                              int64_t *out, double *scratch) {
  KeyedIndex *keyed = (KeyedIndex *)scratch;
  for (int64_t i = 0; i < n; i++) {
    /* log(u) / w orders like u^(1/w); zero weights sort last. */
    double u = 1.0 - uniform(rng);
    keyed[i].key = weights[i] > 0 ? log(u) / weights[i] : -INFINITY;
    keyed[i].index = (double)i;
  }
  qsort(keyed, (size_t)n, sizeof *keyed, by_key_descending);
  for (int64_t i = 0; i < k; i++) out[i] = (int64_t)keyed[i].index;
}

/* ------------------------------------------------------------ samplers */

double luma_rng_exponential(luma_Rng *rng) { return -log1p(-uniform(rng)); }

/* lgamma without glibc's global signgam (lgamma itself is not
 * thread-safe); the arguments here are positive. */
static double log_gamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

double luma_rng_gamma(luma_Rng *rng, double shape) {
  if (shape < 1) {
    /* Boost to shape + 1 and scale back: G(a) = G(a + 1) U^(1/a). */
    double u = 1.0 - uniform(rng);
    return luma_rng_gamma(rng, shape + 1) * pow(u, 1 / shape);
  }
  /* Marsaglia and Tsang (2000), "A simple method for generating gamma
   * variables": a squeeze accepts about 98% without a logarithm. */
  double d = shape - 1.0 / 3, c = 1 / sqrt(9 * d);
  /* audit-loops: Marsaglia and Tsang accept about 98% of the draws */
  for (;;) {
    double x = normal(rng), v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    double u = uniform(rng);
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (log(u) < 0.5 * x * x + d * (1 - v + log(v))) return d * v;
  }
}

double luma_rng_beta(luma_Rng *rng, double a, double b) {
  double x = luma_rng_gamma(rng, a), y = luma_rng_gamma(rng, b);
  return x / (x + y);
}

int64_t luma_rng_poisson(luma_Rng *rng, double lambda) {
  if (lambda < 10) { /* multiply uniforms until below e^-lambda (Knuth) */
    double limit = exp(-lambda), prod = 1;
    int64_t k = -1;
    /* audit-loops: O(lambda) expected products, lambda < 10 */
    do {
      k++;
      prod *= uniform(rng);
    } while (prod > limit);
    return k;
  }
  /* PTRS, transformed rejection with squeeze (Hormann 1993, "The
   * transformed rejection method for generating Poisson random
   * variables"), constants from the paper. */
  double slam = sqrt(lambda), loglam = log(lambda);
  double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  /* audit-loops: PTRS accepts about 90% of the draws */
  for (;;) {
    double u = uniform(rng) - 0.5, v = uniform(rng), us = 0.5 - fabs(u);
    double k = floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return (int64_t)k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -lambda + k * loglam - log_gamma(k + 1))
      return (int64_t)k;
  }
}

int64_t luma_rng_binomial(luma_Rng *rng, int64_t n, double p) {
  if (p > 0.5) return n - luma_rng_binomial(rng, n, 1 - p);
  if (n == 0 || p == 0) return 0;
  double q = 1 - p;
  if ((double)n * p < 14) {
    /* Inversion: walk the pmf from 0 with its ratio recurrence. */
    double ratio = p / q, f0 = pow(q, (double)n);
    /* audit-loops: inversion: one draw expected (a rounding miss is rare) */
    for (;;) {
      double u = uniform(rng), f = f0;
      for (int64_t k = 0; k <= n; k++) {
        if (u < f) return k;
        u -= f;
        f *= ratio * (double)(n - k) / (double)(k + 1);
      }
      /* rounding left u above the total mass: draw again */
    }
  }
  /* BTRS (Hormann 1993, "The generation of binomial random variates"). */
  double spq = sqrt((double)n * p * q);
  double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
  double c = (double)n * p + 0.5, vr = 0.92 - 4.2 / b;
  double alpha = (2.83 + 5.1 / b) * spq, lpq = log(p / q);
  double m = floor((double)(n + 1) * p);
  double h = log_gamma(m + 1) + log_gamma((double)n - m + 1);
  /* audit-loops: BTRS accepts about 90% of the draws */
  for (;;) {
    double u = uniform(rng) - 0.5, v = uniform(rng), us = 0.5 - fabs(u);
    double k = floor((2 * a / us + b) * u + c);
    if (k < 0 || k > (double)n) continue;
    if (us >= 0.07 && v <= vr) return (int64_t)k;
    v = log(v * alpha / (a / (us * us) + b));
    if (v <= h - log_gamma(k + 1) - log_gamma((double)n - k + 1) + (k - m) * lpq)
      return (int64_t)k;
  }
}
