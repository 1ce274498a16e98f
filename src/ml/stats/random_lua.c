/*
 * random_lua.c - luma.random: Generator objects, the per-state default
 * generator, and the rand/randn matrix constructors that draw from them.
 *
 * No C globals: the default generator lives in the Lua registry, so
 * states are independent and a state's draws depend only on its seeds.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "stats/random.h"

/* The seed of every state's default generator until luma.random.seed is
 * called: scripts are reproducible unless they ask for entropy. */
#define DEFAULT_SEED 0

static const luma_Type generator_type;
static const char DEFAULT_KEY = 'g';

static luma_Rng *push_generator(lua_State *L) {
  luma_Rng *rng = lua_newuserdatauv(L, sizeof *rng, 0);
  memset(rng, 0, sizeof *rng);
  luma_type_setmetatable(L, &generator_type);
  return rng;
}

static uint64_t entropy_seed(void) {
  uint64_t seed;
  if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) == (ssize_t)sizeof seed) return seed;
  struct timespec ts; /* no entropy source: the clock is better than a constant */
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
}

/* The seed argument at arg: an integer, or none/nil for an entropy seed. */
static uint64_t check_seed(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return entropy_seed();
  return (uint64_t)luaL_checkinteger(L, arg);
}

static luma_Rng *default_generator(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY) == LUA_TUSERDATA) {
    luma_Rng *rng = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return rng;
  }
  lua_pop(L, 1);
  luma_Rng *rng = push_generator(L);
  luma_rng_seed(rng, DEFAULT_SEED);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY);
  return rng;
}

luma_Rng *luma_random_opt_generator(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return default_generator(L);
  return luma_type_check(L, arg, &generator_type);
}

static luma_Rng *check_generator(lua_State *L) { return luma_type_check(L, 1, &generator_type); }

/* Budget units of one draw of each kind (about its time in nanoseconds
 * over two): the loops filling a matrix are charged up front, rows x cols
 * draws, since the shape is the caller's to choose (issue 28). */
enum {
  COST_UNIFORM = 2, COST_INTEGER = 4, COST_NORMAL = 8, COST_EXPONENTIAL = 16, COST_GAMMA = 24,
  COST_BETA = 48, COST_POISSON = 48, COST_BINOMIAL = 64, COST_JUMP = 1024
};

/* Optional rows, cols at arg, arg+1: NULL when both are absent (a scalar
 * draw), else a new matrix pushed (cols defaults to 1, as in zeros) and
 * its draws of `cost` units each charged. */
static luma_Mat *opt_shape_matrix(lua_State *L, int arg, uint64_t cost) {
  if (lua_isnoneornil(L, arg) && lua_isnoneornil(L, arg + 1)) return NULL;
  int64_t rows = luma_check_int_range(L, arg, "rows", 0, LUMA_MAX_ELEMENTS);
  int64_t cols =
      lua_isnoneornil(L, arg + 1) ? 1 : luma_check_int_range(L, arg + 1, "cols", 0, LUMA_MAX_ELEMENTS);
  luma_Mat *m = luma_matrix_new(L, rows, cols);
  luma_charge(L, (uint64_t)(rows * cols) * cost);
  return m;
}

static int g_random(lua_State *L) {
  lua_pushnumber(L, luma_rng_uniform(check_generator(L)));
  return 1;
}

/* g:uniform([rows, cols [, lo, hi]]) */
static int g_uniform(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  double lo = lua_isnoneornil(L, 4) ? 0.0 : luma_check_finite(L, 4, "lo");
  double hi = lua_isnoneornil(L, 5) ? 1.0 : luma_check_finite(L, 5, "hi");
  if (!(lo < hi)) return luma_arg_error(L, 5, "hi must be greater than lo (%f <= %f)", hi, lo);
  luma_Mat *m = opt_shape_matrix(L, 2, COST_UNIFORM);
  if (m == NULL) {
    lua_pushnumber(L, lo + (hi - lo) * luma_rng_uniform(rng));
    return 1;
  }
  luma_rng_fill_uniform(rng, m, lo, hi);
  return 1;
}

/* g:normal([rows, cols [, mean, std]]) */
static int g_normal(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  double mean = lua_isnoneornil(L, 4) ? 0.0 : luma_check_finite(L, 4, "mean");
  double std = lua_isnoneornil(L, 5) ? 1.0 : luma_check_finite(L, 5, "std");
  if (std < 0) return luma_arg_error(L, 5, "std must be >= 0, got %f", std);
  luma_Mat *m = opt_shape_matrix(L, 2, COST_NORMAL);
  if (m == NULL) {
    lua_pushnumber(L, mean + std * luma_rng_normal(rng));
    return 1;
  }
  luma_rng_fill_normal(rng, m, mean, std);
  return 1;
}

static lua_Integer draw_integer(luma_Rng *rng, lua_Integer lo, uint64_t span) {
  uint64_t offset = span ? luma_rng_below(rng, span) : luma_rng_next(rng);
  return (lua_Integer)((uint64_t)lo + offset);
}

/* The samplers with required parameters take them first, then an
 * optional shape: g:gamma(shape [, rows [, cols]]).  Each draws either a
 * number or fills a new matrix. */
typedef double (*Sampler)(luma_Rng *rng, const double *params);

static double sample_exponential(luma_Rng *rng, const double *p) {
  return luma_rng_exponential(rng) / p[0];
}
static double sample_gamma(luma_Rng *rng, const double *p) { return luma_rng_gamma(rng, p[0]); }
static double sample_beta(luma_Rng *rng, const double *p) { return luma_rng_beta(rng, p[0], p[1]); }
static double sample_poisson(luma_Rng *rng, const double *p) {
  return (double)luma_rng_poisson(rng, p[0]);
}
static double sample_binomial(luma_Rng *rng, const double *p) {
  return (double)luma_rng_binomial(rng, (int64_t)p[0], p[1]);
}

static int draw(lua_State *L, Sampler sampler, const double *params, int shape_arg,
                int integral, uint64_t cost) {
  luma_Rng *rng = check_generator(L);
  luma_Mat *m = opt_shape_matrix(L, shape_arg, cost);
  if (m == NULL) {
    double v = sampler(rng, params);
    if (integral) lua_pushinteger(L, (lua_Integer)v);
    else lua_pushnumber(L, v);
    return 1;
  }
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = sampler(rng, params);
  return 1;
}

/* A positive finite parameter. */
static double check_positive(lua_State *L, int arg, const char *what) {
  double v = luma_check_finite(L, arg, what);
  if (!(v > 0)) luma_arg_error(L, arg, "%s must be > 0, got %f", what, v);
  return v;
}

static int g_exponential(lua_State *L) {
  double params[1] = {lua_isnoneornil(L, 2) ? 1.0 : check_positive(L, 2, "rate")};
  return draw(L, sample_exponential, params, 3, 0, COST_EXPONENTIAL);
}

static int g_gamma(lua_State *L) {
  double params[1] = {check_positive(L, 2, "shape")};
  return draw(L, sample_gamma, params, 3, 0, COST_GAMMA);
}

static int g_beta(lua_State *L) {
  double params[2] = {check_positive(L, 2, "a"), check_positive(L, 3, "b")};
  return draw(L, sample_beta, params, 4, 0, COST_BETA);
}

static int g_poisson(lua_State *L) {
  double lambda = luma_check_finite(L, 2, "lambda");
  if (lambda < 0 || lambda > 1e15) return luma_arg_error(L, 2, "lambda must be in [0, 1e15], got %f", lambda);
  double params[1] = {lambda};
  return draw(L, sample_poisson, params, 3, 1, COST_POISSON);
}

static int g_binomial(lua_State *L) {
  double n = (double)luma_check_int_range(L, 2, "n", 0, (lua_Integer)1 << 53);
  double p = luma_check_finite(L, 3, "p");
  if (p < 0 || p > 1) return luma_arg_error(L, 3, "p must be in [0, 1], got %f", p);
  double params[2] = {n, p};
  return draw(L, sample_binomial, params, 4, 1, COST_BINOMIAL);
}

/* g:integers(lo, hi [, rows, cols]): uniform on lo..hi inclusive */
static int g_integers(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  lua_Integer lo = luaL_checkinteger(L, 2), hi = luaL_checkinteger(L, 3);
  if (hi < lo) return luma_arg_error(L, 3, "hi %I is below lo %I", hi, lo);
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 means the full 2^64 range */
  luma_Mat *m = opt_shape_matrix(L, 4, COST_INTEGER);
  if (m == NULL) {
    lua_pushinteger(L, draw_integer(rng, lo, span));
    return 1;
  }
  for (int64_t i = 0; i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) LUMA_AT(m, i, j) = (double)draw_integer(rng, lo, span);
  return 1;
}

/* g:permutation(n): 1..n in random order (Fisher-Yates), as an n x 1 matrix */
static int g_permutation(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  int64_t n = luma_check_int_range(L, 2, "n", 0, LUMA_MAX_ELEMENTS);
  luma_Mat *m = luma_matrix_new(L, n, 1);
  luma_charge(L, (uint64_t)n * (1 + COST_INTEGER));
  for (int64_t k = 0; k < n; k++) m->data[k] = (double)(k + 1);
  for (int64_t k = n - 1; k > 0; k--) {
    int64_t r = (int64_t)luma_rng_below(rng, (uint64_t)k + 1);
    double t = m->data[k];
    m->data[k] = m->data[r];
    m->data[r] = t;
  }
  return 1;
}

/* The population argument of choice: an integer n (the values 1..n), a
 * vector matrix (its elements) or a table (its elements, any values). */
typedef struct Population {
  int64_t n;
  luma_Mat *values; /* the vector, or NULL */
  int is_table;
} Population;

static Population check_population(lua_State *L, int arg) {
  Population pop = {0, NULL, 0};
  if (lua_isinteger(L, arg)) {
    pop.n = luma_check_int_range(L, arg, "population size", 1, LUMA_MAX_ELEMENTS);
  } else if ((pop.values = luma_matrix_test(L, arg)) != NULL) {
    if (pop.values->rows != 1 && pop.values->cols != 1)
      luma_arg_error(L, arg, "population must be a vector, got a %I x %I matrix",
                     (lua_Integer)pop.values->rows, (lua_Integer)pop.values->cols);
    pop.n = pop.values->rows * pop.values->cols;
  } else if (lua_istable(L, arg)) {
    pop.is_table = 1;
    pop.n = (int64_t)lua_rawlen(L, arg);
  } else {
    luaL_typeerror(L, arg, "integer, vector or table");
  }
  if (pop.n == 0) luma_arg_error(L, arg, "population is empty");
  return pop;
}

/* Entry i (0-based) of a numeric population. */
static double population_value(const Population *pop, int64_t i) {
  const luma_Mat *v = pop->values;
  if (v == NULL) return (double)(i + 1);
  return v->rows == 1 ? LUMA_AT(v, 0, i) : LUMA_AT(v, i, 0);
}

/* Reads and validates choice's weights (option p) into w (n doubles):
 * finite, >= 0 and summing to 1 within 1e-8. Returns the number of
 * positive weights. */
static int64_t check_weights(lua_State *L, int opt, int64_t n, double *w) {
  luma_Mat *m = luma_matrix_test(L, -1);
  if (m == NULL && !lua_istable(L, -1))
    luma_arg_error(L, opt, "option 'p' must be a vector or a table of probabilities");
  int64_t len = m ? m->rows * m->cols : (int64_t)lua_rawlen(L, -1);
  if ((m && m->rows != 1 && m->cols != 1) || len != n)
    luma_arg_error(L, opt, "option 'p' has %I entries but the population has %I",
                   (lua_Integer)len, (lua_Integer)n);
  double total = 0;
  int64_t positive = 0;
  for (int64_t k = 0; k < n; k++) {
    if (m) {
      w[k] = m->rows == 1 ? LUMA_AT(m, 0, k) : LUMA_AT(m, k, 0);
    } else {
      lua_rawgeti(L, -1, k + 1);
      w[k] = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER)
        luma_arg_error(L, opt, "option 'p': entry %I is a %s, expected a number",
                       (lua_Integer)(k + 1), luaL_typename(L, -1));
      lua_pop(L, 1);
    }
    if (!(w[k] >= 0) || isinf(w[k]))
      luma_arg_error(L, opt, "option 'p': entry %I is %f, expected a probability",
                     (lua_Integer)(k + 1), w[k]);
    total += w[k];
    positive += w[k] > 0;
  }
  if (fabs(total - 1) > 1e-8)
    luma_arg_error(L, opt, "option 'p' sums to %f, not 1", total);
  return positive;
}

/* g:choice(population [, size [, {replace = true, p = weights}]]) */
static int g_choice(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  Population pop = check_population(L, 2);
  int scalar = lua_isnoneornil(L, 3);
  int64_t k = scalar ? 1 : luma_check_int_range(L, 3, "size", 0, LUMA_MAX_ELEMENTS);
  luma_check_options(L, 4, "replace|p");
  int replace = luma_opt_boolean(L, 4, "replace", 1);
  if (!replace && k > pop.n)
    return luma_arg_error(L, 3, "cannot take %I of %I without replacement", (lua_Integer)k,
                          (lua_Integer)pop.n);
  lua_settop(L, 4);
  /* the draws, a pass over the weights, a binary search per weighted draw
   * (or the sampler's pass over the population): charged up front */
  uint64_t depth = 1;
  while (depth < 64 && ((uint64_t)1 << depth) < (uint64_t)pop.n) depth++;
  luma_charge(L, (uint64_t)k * (COST_INTEGER + 2 * depth) + 4 * (uint64_t)pop.n);
  int64_t *picked = lua_newuserdatauv(L, (size_t)k * sizeof *picked, 0); /* 5 */
  int weighted = !lua_isnil(L, 4) && lua_getfield(L, 4, "p") != LUA_TNIL; /* 6 */
  if (weighted) {
    double *w = lua_newuserdatauv(L, 2 * (size_t)pop.n * sizeof *w, 0); /* 7 */
    lua_pushvalue(L, 6);
    int64_t positive = check_weights(L, 4, pop.n, w);
    if (replace) {
      for (int64_t i = 1; i < pop.n; i++) w[i] += w[i - 1]; /* running totals */
      for (int64_t i = 0; i < k; i++) picked[i] = luma_rng_weighted_index(rng, w, pop.n);
    } else {
      if (k > positive)
        return luma_arg_error(L, 3, "cannot take %I without replacement: only %I entries of "
                              "p are positive", (lua_Integer)k, (lua_Integer)positive);
      double *scratch = lua_newuserdatauv(L, 2 * (size_t)pop.n * sizeof *scratch, 0);
      luma_rng_weighted_sample(rng, w, pop.n, k, picked, scratch);
    }
  } else if (replace) {
    for (int64_t i = 0; i < k; i++) picked[i] = (int64_t)luma_rng_below(rng, (uint64_t)pop.n);
  } else {
    int64_t *scratch = lua_newuserdatauv(L, (size_t)pop.n * sizeof *scratch, 0);
    luma_rng_sample(rng, pop.n, k, picked, scratch);
  }
  if (pop.is_table) {
    if (scalar) {
      lua_rawgeti(L, 2, picked[0] + 1);
      return 1;
    }
    lua_createtable(L, (int)k, 0);
    for (int64_t i = 0; i < k; i++) {
      lua_rawgeti(L, 2, picked[i] + 1);
      lua_rawseti(L, -2, i + 1);
    }
    return 1;
  }
  if (scalar) {
    if (pop.values) lua_pushnumber(L, population_value(&pop, picked[0]));
    else lua_pushinteger(L, picked[0] + 1);
    return 1;
  }
  luma_Mat *out = luma_matrix_new(L, k, 1);
  for (int64_t i = 0; i < k; i++) out->data[i] = population_value(&pop, picked[i]);
  return 1;
}

/* g:shuffle(x): x's rows (a matrix) or elements (a table) in random
 * order, in place (Fisher-Yates); returns x. */
static int g_shuffle(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  luma_Mat *m = luma_matrix_test(L, 2);
  if (m == NULL && !lua_istable(L, 2)) return luaL_typeerror(L, 2, "luma.Matrix or table");
  int64_t n = m ? m->rows : (int64_t)lua_rawlen(L, 2);
  /* rows of nothing: no draws (not 2^31 of them); else charged (issue 24) */
  if (m && m->cols == 0) n = 0;
  luma_charge(L, (uint64_t)(n > 0 ? n : 0) * (uint64_t)(m ? 2 * m->cols + 4 : 8));
  if (m) luma_matrix_touch(L, 2);
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t r = (int64_t)luma_rng_below(rng, (uint64_t)i + 1);
    if (r == i) continue;
    if (m) {
      for (int64_t j = 0; j < m->cols; j++) {
        double t = LUMA_AT(m, i, j);
        LUMA_AT(m, i, j) = LUMA_AT(m, r, j);
        LUMA_AT(m, r, j) = t;
      }
    } else {
      lua_rawgeti(L, 2, i + 1);
      lua_rawgeti(L, 2, r + 1);
      lua_rawseti(L, 2, i + 1);
      lua_rawseti(L, 2, r + 1);
    }
  }
  lua_settop(L, 2);
  return 1;
}

static int g_jump(lua_State *L) {
  luma_rng_jump(check_generator(L));
  lua_settop(L, 1);
  return 1;
}

/* g:split(n): n generators on disjoint streams (the first takes g's
 * current stream); g itself moves past them. */
static int g_split(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  lua_Integer n = luma_check_int_range(L, 2, "n", 1, 1 << 20);
  luma_charge(L, (uint64_t)n * COST_JUMP);
  lua_createtable(L, (int)n, 0);
  for (lua_Integer k = 1; k <= n; k++) {
    *push_generator(L) = *rng;
    lua_rawseti(L, -2, k);
    luma_rng_jump(rng);
  }
  return 1;
}

static int g_copy(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  *push_generator(L) = *rng;
  return 1;
}

/* State as a 32-byte string: the four state words, little-endian. */
#define STATE_BYTES 32

static int g_state(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  char buf[STATE_BYTES];
  for (int k = 0; k < 4; k++)
    for (int b = 0; b < 8; b++) buf[8 * k + b] = (char)(rng->s[k] >> (8 * b));
  lua_pushlstring(L, buf, sizeof buf);
  return 1;
}

static int g_set_state(lua_State *L) {
  luma_Rng *rng = check_generator(L);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  if (len != STATE_BYTES)
    return luma_arg_error(L, 2, "not a generator state (%d bytes, expected %d)", (int)len,
                          STATE_BYTES);
  luma_Rng next;
  for (int k = 0; k < 4; k++) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; b--) w = (w << 8) | (unsigned char)s[8 * k + b];
    next.s[k] = w;
  }
  if ((next.s[0] | next.s[1] | next.s[2] | next.s[3]) == 0)
    return luma_arg_error(L, 2, "not a generator state (all-zero words)");
  *rng = next;
  lua_settop(L, 1);
  return 1;
}

static int g_tostring(lua_State *L) {
  check_generator(L);
  lua_pushliteral(L, "luma.Generator (xoshiro256**)");
  return 1;
}

static const luaL_Reg generator_metamethods[] = {{"__tostring", g_tostring}, {NULL, NULL}};

static const luma_Func generator_methods[] = {
    {"random", g_random, "g:random() -> number", "A uniform number in [0, 1)."},
    {"uniform", g_uniform,
     "g:uniform([rows = nil [, cols = 1]] [, lo = 0, hi = 1]) -> number | matrix",
     "Uniform on [lo, hi) (default [0, 1)): a number without a shape, else a rows x cols "
     "matrix (cols 1 if omitted)."},
    {"normal", g_normal,
     "g:normal([rows = nil [, cols = 1]] [, mean = 0, std = 1]) -> number | matrix",
     "Normal draws (default mean 0, std 1): a number without a shape, else a matrix."},
    {"integers", g_integers, "g:integers(lo, hi [, rows = nil [, cols = 1]]) -> integer | matrix",
     "Uniform integers on lo..hi inclusive, unbiased: an integer, or a matrix given a shape."},
    {"exponential", g_exponential,
     "g:exponential([rate = 1 [, rows = nil [, cols = 1]]]) -> number | matrix",
     "Exponential draws with the given rate (default 1, mean 1/rate)."},
    {"gamma", g_gamma, "g:gamma(shape [, rows = nil [, cols = 1]]) -> number | matrix",
     "Gamma draws with the given shape and scale 1 (Marsaglia-Tsang); multiply for another "
     "scale."},
    {"beta", g_beta, "g:beta(a, b [, rows = nil [, cols = 1]]) -> number | matrix",
     "Beta(a, b) draws (a ratio of gammas)."},
    {"poisson", g_poisson, "g:poisson(lambda [, rows = nil [, cols = 1]]) -> number | matrix",
     "Poisson draws (Knuth's product method below 10, Hormann's PTRS above)."},
    {"binomial", g_binomial, "g:binomial(n, p [, rows = nil [, cols = 1]]) -> number | matrix",
     "Binomial(n, p) draws (inversion for small n p, Hormann's BTRS otherwise)."},
    {"permutation", g_permutation, "g:permutation(n) -> matrix",
     "The integers 1..n in random order (Fisher-Yates) as an n x 1 matrix."},
    {"choice", g_choice,
     "g:choice(population [, size = nil [, {replace = true, p = uniform}]]) -> "
     "value | matrix | table",
     "Draws from population: an integer n (the values 1..n), a vector or a table. Without "
     "size one value, else size values (a column, or a table for a table population); "
     "replace = false draws distinct entries; p gives probabilities (summing to 1)."},
    {"shuffle", g_shuffle, "g:shuffle(x) -> x",
     "Puts the rows of matrix x (or the elements of table x) in random order, in place; "
     "returns x."},
    {"jump", g_jump, "g:jump() -> g",
     "Advances g by 2^128 draws (to a disjoint stream); returns g."},
    {"split", g_split, "g:split(n) -> table of Generators",
     "Returns a table of n generators on disjoint streams (for parallel work); g moves past "
     "them."},
    {"copy", g_copy, "g:copy() -> Generator",
     "A new generator in the same state (it repeats g's draws)."},
    {"state", g_state, "g:state() -> string", "The generator state as a string (for set_state)."},
    {"set_state", g_set_state, "g:set_state(s) -> g",
     "Restores a state from g:state(); returns g."},
    {NULL, NULL, NULL, NULL}};

static const luma_Type generator_type = {
    "luma.Generator", generator_methods, generator_metamethods,
    "Pseudo-random generator (xoshiro256**, seeded through splitmix64).", NULL};

static int r_generator(lua_State *L) {
  uint64_t seed = check_seed(L, 1);
  luma_rng_seed(push_generator(L), seed);
  return 1;
}

static int r_seed(lua_State *L) {
  luma_rng_seed(default_generator(L), check_seed(L, 1));
  return 0;
}

static int r_default(lua_State *L) {
  default_generator(L);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY);
  return 1;
}

int luma_open_random(lua_State *L) {
  static const luma_Func funcs[] = {
      {"Generator", r_generator, "Generator([seed = from system entropy]) -> Generator",
       "A new generator seeded with the integer seed (from system entropy if omitted)."},
      {"seed", r_seed, "seed([n = from system entropy]) -> nothing",
       "Reseeds this state's default generator (from system entropy if n is omitted). "
       "A new state's default generator starts from seed 0, so scripts are reproducible."},
      {"default", r_default, "default() -> Generator", "This state's default generator."},
      {NULL, NULL, NULL, NULL}};
  luma_type_register(L, &generator_type); /* help("luma.Generator") before any exists */
  lua_pop(L, 1);
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.random", funcs);
  luma_doc_set(L, -1, "luma.random", NULL,
               "Random numbers: Generator objects and the per-state default generator used "
               "by luma.rand, luma.randn and every function taking an optional generator.");
  return 1;
}

/* ------------------------------------------------- matrix constructors */

/* rand and randn: rows [, cols [, rng]] */
static int random_matrix(lua_State *L, int normal) {
  luma_Rng *rng = luma_random_opt_generator(L, 3);
  luma_Mat *m = opt_shape_matrix(L, 1, normal ? COST_NORMAL : COST_UNIFORM);
  if (m == NULL) return luaL_argerror(L, 1, "rows expected");
  if (normal) luma_rng_fill_normal(rng, m, 0.0, 1.0);
  else luma_rng_fill_uniform(rng, m, 0.0, 1.0);
  return 1;
}

static int m_rand(lua_State *L) { return random_matrix(L, 0); }
static int m_randn(lua_State *L) { return random_matrix(L, 1); }

void luma_open_random_matrix(lua_State *L, int module_idx) {
  static const luma_Func funcs[] = {
      {"rand", m_rand, "rand(rows [, cols = 1 [, rng = luma.random.default()]]) -> matrix",
       "A rows x cols matrix of uniform [0, 1) draws from rng (default: luma.random's)."},
      {"randn", m_randn, "randn(rows [, cols = 1 [, rng = luma.random.default()]]) -> matrix",
       "A rows x cols matrix of standard normal draws from rng (default: luma.random's)."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, module_idx, "luma.matrix", funcs);
}
