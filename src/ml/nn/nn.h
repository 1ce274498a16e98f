/*
 * nn.h - the fused element-wise kernels of luma.nn and luma.autograd
 * (no Lua): one optimizer step over a parameter matrix, and the backward
 * pass of an activation, each in a single pass over memory where the Lua
 * side would otherwise chain several whole-matrix operations and
 * temporaries.  Every kernel evaluates the same floating-point operations
 * in the same order as that chain, so the results are bit-identical --
 * but for the rectifiers' backward passes, which select g or 0 (g a)
 * rather than multiply by 1 or 0 (a), so that an inactive unit passes no
 * NaN on, as in PyTorch.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NN_H
#define LUMA_ML_NN_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* ---------------------------------------------------- optimizer steps */

typedef enum luma_NnRule {
  LUMA_NN_SGD,      /* p -= lr g */
  LUMA_NN_MOMENTUM, /* s1 = m s1 + lr g; p -= s1 */
  LUMA_NN_NESTEROV, /* s1 = m s1 + lr g; p -= m s1; p -= lr g */
  LUMA_NN_ADAGRAD,  /* s1 += g^2; p -= lr g / den(s1) */
  LUMA_NN_RMSPROP,  /* s1 = rho s1 + (1 - rho) g^2; p -= lr g / den(s1) */
  LUMA_NN_ADAM      /* s1, s2 the moments; p -= (lr / c1) s1 / den(s2 / c2) */
} luma_NnRule;

typedef struct luma_NnStep {
  luma_NnRule rule;
  double lr;
  double momentum;     /* MOMENTUM, NESTEROV */
  double rho;          /* RMSPROP */
  double beta1, beta2; /* ADAM */
  double c1, c2;       /* ADAM's bias corrections 1 - beta^t (1 without) */
  double eps;          /* ADAGRAD, RMSPROP, ADAM */
  int eps_outside;     /* den(v) = sqrt(v) + eps, else sqrt(v + eps) */
  double decay;        /* p *= decay first (AdamW's 1 - lr wd; else 1) */
} luma_NnStep;

/* One step of rule s over the parameter p with gradient g and the rule's
 * state s1, s2 (unused ones may be NULL), all of p's shape; any strides.
 * Large parameters are cut into bands of rows run on the pool t (each
 * element's update is independent: bit-identical for any thread count);
 * returns the loop's status (a stopped step leaves some bands undone). */
luma_LoopStatus luma_nn_step(luma_Threads *t, const luma_NnStep *s, luma_Mat *p,
                             const luma_Mat *g, luma_Mat *s1, luma_Mat *s2);

/* ------------------------------------------------------ affine layers */

/* out = x W + b (b a 1 x n row repeated down the rows, or NULL for none):
 * the bias is written first and dgemm adds the product onto it, one pass
 * over out instead of a product and a broadcast sum.  x is m x k, W k x n
 * (any BLAS-ready views: a transposed weight needs no copy), out m x n,
 * BLAS-ready and sharing no memory with x or W. */
void luma_nn_affine(const luma_Mat *x, const luma_Mat *W, const luma_Mat *b, luma_Mat *out);

/* ------------------------------------------------ activation backward */

typedef enum luma_NnActivation {
  LUMA_NN_RELU,       /* x > 0 ? g : 0 */
  LUMA_NN_LEAKY_RELU, /* x > 0 ? g : g a */
  LUMA_NN_ELU,        /* g (x > 0 ? 1 : y + a) */
  LUMA_NN_TANH,       /* g (1 - y^2) */
  LUMA_NN_SIGMOID,    /* g y (1 - y) */
  LUMA_NN_SOFTPLUS    /* g sigmoid(x) */
} luma_NnActivation;

/* out = the gradient at the input of activation f, from the gradient g at
 * its output y = f(x) (a its parameter); all of one shape, any strides;
 * out may be g itself. */
void luma_nn_activation_backward(luma_NnActivation f, double a, const luma_Mat *g,
                                 const luma_Mat *x, const luma_Mat *y, luma_Mat *out);

#endif
