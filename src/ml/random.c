/*
 * random.c - xoshiro256** and the samplers built on it.
 */
#include <math.h>

#include "random.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void luma_rng_seed(luma_Rng *rng, uint64_t seed) {
  for (int k = 0; k < 4; k++) rng->s[k] = splitmix64(&seed);
  rng->has_spare = 0;
  rng->spare = 0;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t luma_rng_next(luma_Rng *rng) {
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

void luma_rng_jump(luma_Rng *rng) {
  static const uint64_t JUMP[] = {0x180ec6d33cfd0aba, 0xd5a61266f0c9392c, 0xa9582618e03fc9aa,
                                  0x39abdc4529b1661c};
  uint64_t acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++)
    for (int b = 0; b < 64; b++) {
      if (JUMP[i] & ((uint64_t)1 << b))
        for (int k = 0; k < 4; k++) acc[k] ^= rng->s[k];
      luma_rng_next(rng);
    }
  for (int k = 0; k < 4; k++) rng->s[k] = acc[k];
  rng->has_spare = 0;
}

double luma_rng_uniform(luma_Rng *rng) {
  return (double)(luma_rng_next(rng) >> 11) * 0x1.0p-53;
}

double luma_rng_normal(luma_Rng *rng) {
  if (rng->has_spare) {
    rng->has_spare = 0;
    return rng->spare;
  }
  double u, v, s;
  do {
    u = 2.0 * luma_rng_uniform(rng) - 1.0;
    v = 2.0 * luma_rng_uniform(rng) - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  double f = sqrt(-2.0 * log(s) / s);
  rng->spare = v * f;
  rng->has_spare = 1;
  return u * f;
}

uint64_t luma_rng_below(luma_Rng *rng, uint64_t n) {
  /* Lemire's multiply-shift with rejection of the biased low products. */
  unsigned __int128 m = (unsigned __int128)luma_rng_next(rng) * n;
  uint64_t low = (uint64_t)m;
  if (low < n) {
    uint64_t threshold = -n % n;
    while (low < threshold) {
      m = (unsigned __int128)luma_rng_next(rng) * n;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

void luma_rng_fill_uniform(luma_Rng *rng, luma_Mat *m, double lo, double hi) {
  double width = hi - lo;
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = lo + width * luma_rng_uniform(rng);
}

void luma_rng_fill_normal(luma_Rng *rng, luma_Mat *m, double mean, double std) {
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = mean + std * luma_rng_normal(rng);
}
