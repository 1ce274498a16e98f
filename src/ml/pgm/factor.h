/*
 * factor.h - discrete factors (tables over variables with finite
 * cardinalities) and the operations exact inference is built of (no Lua).
 *
 * A factor over variables v_1..v_k with cardinalities c_1..c_k holds
 * c_1 * ... * c_k values in row-major order: the last variable varies
 * fastest, so the stride of v_j is c_{j+1} * ... * c_k.  Variables are
 * integer ids chosen by the caller; a variable appears at most once in a
 * factor.  Products and marginals walk the output (or input) with an
 * odometer over the assignments and keep each operand's offset up to date
 * by strides, a variable absent from an operand having stride 0 (Koller
 * and Friedman, Probabilistic Graphical Models, 2009, Alg. 10.A.1).
 * In log space a product is a sum and a sum-marginal is log-sum-exp.
 * Work is charged to the meter t (NULL: unmetered); every function returns
 * the meter's status, nonzero when it stopped (the output is then
 * incomplete).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_PGM_FACTOR_H
#define LUMA_ML_PGM_FACTOR_H

#include <stdint.h>

#include "core/parallel.h"

/* The most variables a factor may have (its table would be far beyond any
 * memory long before). */
#define LUMA_PGM_MAX_VARS 64

typedef struct luma_PgmFactor {
  int nv;               /* number of variables */
  const int64_t *vars;  /* nv ids */
  const int64_t *card;  /* nv cardinalities, each >= 1 */
  double *val;          /* the product of card values */
  int64_t size;
} luma_PgmFactor;

typedef enum luma_PgmOp {
  LUMA_PGM_MUL = 0, /* a * b */
  LUMA_PGM_DIV,     /* a / b, with 0 / 0 = 0 (a separator update) */
  LUMA_PGM_ADD,     /* a + b: the product in log space */
  LUMA_PGM_SUB      /* a - b, with -inf - -inf = -inf: division in log space */
} luma_PgmOp;

typedef enum luma_PgmMode {
  LUMA_PGM_SUM = 0, /* sum out */
  LUMA_PGM_MAX,     /* max out (in either space) */
  LUMA_PGM_LOGSUM   /* log-sum-exp out (sum in log space) */
} luma_PgmMode;

/* out = a (op) b over out's variables, which the caller sets to the union
 * of a's and b's (any order); out->val has out->size entries. */
luma_LoopStatus luma_pgm_combine(luma_Threads *t, const luma_PgmFactor *a,
                                 const luma_PgmFactor *b, luma_PgmFactor *out, luma_PgmOp op);

/* out = a with the variables not in out summed, maxed or log-sum-exp'ed
 * out; out's variables are a subset of a's, in a's order.  scratch: out->size
 * doubles for LUMA_PGM_LOGSUM (the running maxima), else unused. */
luma_LoopStatus luma_pgm_marginal(luma_Threads *t, const luma_PgmFactor *a, luma_PgmFactor *out,
                                  luma_PgmMode mode, double *scratch);

/* out = a restricted to the assignment state[j] (0-based) of each of a's
 * variables with fixed[j] nonzero; out's variables are the others, in a's
 * order. */
luma_LoopStatus luma_pgm_reduce(luma_Threads *t, const luma_PgmFactor *a, const int *fixed,
                                const int64_t *state, luma_PgmFactor *out);

#endif
