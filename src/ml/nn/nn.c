/*
 * nn.c - fused optimizer steps and activation backward passes (nn.h).
 *
 * Each loop body evaluates, element by element, the operations of the
 * update rule (docs/OPTIM.md) or the derivative in the order a chain of
 * whole-matrix operations would, so the fused result equals the chained
 * one bit for bit (tests/nn/kernels_spec.lua; the rectifiers' backward
 * passes aside: nn.h); what changes is one pass over memory instead of
 * six to ten, and no temporaries.
 * SPDX-License-Identifier: MIT
 */
#include "nn/nn.h"

#include <math.h>
#include <string.h>

#include "core/matrix_ops.h"

/* Whether every operand given (NULL ones skipped) is contiguous: then
 * the operands, all of one shape, are walked as one flat array. */
static int all_contiguous(const luma_Mat *const *m, int n) {
  for (int k = 0; k < n; k++)
    if (m[k] && !luma_mat_is_contiguous(m[k])) return 0;
  return 1;
}

/* One rule's update of element (*pp, gv, *a, *b) -- a, b its state --
 * repeated as its own loop per rule so that each is a tight loop the
 * compiler can vectorize.  The flat loop serves contiguous operands, the
 * other any strides.  A rule without state never touches a or b, which
 * then point into p. */
#define STEP_LOOP(...)                                                      \
  do {                                                                      \
    if (flat) {                                                             \
      double *P = p->data, *A = s1 ? s1->data : P, *B = s2 ? s2->data : P;  \
      const double *G = g->data;                                            \
      for (int64_t k = 0; k < n; k++) {                                     \
        double *pp = &P[k], *a = &A[k], *b = &B[k], gv = G[k];              \
        __VA_ARGS__;                                                        \
      }                                                                     \
    } else {                                                                \
      luma_Mat *sa = s1 ? s1 : p, *sb = s2 ? s2 : p;                        \
      for (int64_t i = 0; i < p->rows; i++)                                 \
        for (int64_t j = 0; j < p->cols; j++) {                             \
          double *pp = &LUMA_AT(p, i, j), *a = &LUMA_AT(sa, i, j);          \
          double *b = &LUMA_AT(sb, i, j), gv = LUMA_AT(g, i, j);            \
          __VA_ARGS__;                                                      \
        }                                                                   \
    }                                                                       \
  } while (0)

static void step_band(const luma_NnStep *s, luma_Mat *p, const luma_Mat *g, luma_Mat *s1,
                      luma_Mat *s2) {
  const luma_Mat *ops[] = {p, g, s1, s2};
  int flat = all_contiguous(ops, 4);
  int64_t n = p->rows * p->cols;
  const double lr = s->lr, m = s->momentum, rho = s->rho, b1 = s->beta1, b2 = s->beta2;
  const double inv_c2 = 1 / s->c2, rate = s->lr / s->c1, eps = s->eps, decay = s->decay;
  /* den(v): sqrt(v + eps) (the default) or sqrt(v) + eps */
  const double eps_in = s->eps_outside ? 0 : eps, eps_out = s->eps_outside ? eps : 0;
  if (decay != 1) STEP_LOOP((void)a, (void)b, (void)gv, *pp = *pp * decay);
  switch (s->rule) {
    case LUMA_NN_SGD:
      STEP_LOOP((void)a, (void)b, *pp = *pp - gv * lr);
      break;
    case LUMA_NN_MOMENTUM:
      STEP_LOOP((void)b, *a = *a * m + gv * lr, *pp = *pp - *a);
      break;
    case LUMA_NN_NESTEROV:
      STEP_LOOP((void)b, *a = *a * m + gv * lr, *pp = *pp - *a * m, *pp = *pp - gv * lr);
      break;
    case LUMA_NN_ADAGRAD:
      STEP_LOOP((void)b, *a = *a + gv * gv, *pp = *pp - gv / (sqrt(*a + eps_in) + eps_out) * lr);
      break;
    case LUMA_NN_RMSPROP:
      STEP_LOOP((void)b, *a = *a * rho + gv * gv * (1 - rho),
                *pp = *pp - gv / (sqrt(*a + eps_in) + eps_out) * lr);
      break;
    case LUMA_NN_ADAM:
      STEP_LOOP(*a = *a * b1 + gv * (1 - b1), *b = *b * b2 + gv * gv * (1 - b2),
                *pp = *pp - *a / (sqrt(*b * inv_c2 + eps_in) + eps_out) * rate);
      break;
  }
}

typedef struct StepJob {
  const luma_NnStep *s;
  luma_Mat p, g, s1, s2;
  int has_s1, has_s2, by_rows;
} StepJob;

static void step_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const StepJob *job = ctx;
  luma_Mat p = luma_mat_band(&job->p, job->by_rows, begin, end);
  luma_Mat g = luma_mat_band(&job->g, job->by_rows, begin, end);
  luma_Mat s1 = job->has_s1 ? luma_mat_band(&job->s1, job->by_rows, begin, end) : p;
  luma_Mat s2 = job->has_s2 ? luma_mat_band(&job->s2, job->by_rows, begin, end) : p;
  step_band(job->s, &p, &g, job->has_s1 ? &s1 : NULL, job->has_s2 ? &s2 : NULL);
}

luma_LoopStatus luma_nn_step(luma_Threads *t, const luma_NnStep *s, luma_Mat *p,
                             const luma_Mat *g, luma_Mat *s1, luma_Mat *s2) {
  if (p->rows == 0 || p->cols == 0) return luma_work_status(t);
  StepJob job = {s, *p, *g, s1 ? *s1 : *p, s2 ? *s2 : *p, s1 != NULL, s2 != NULL, 0};
  luma_Loop loop = {0, 0, 0, 0, step_chunk, &job};
  job.by_rows = luma_mat_band_loop(p->rows, p->cols, &loop);
  return luma_parallel_for(t, &loop);
}

void luma_nn_affine(const luma_Mat *x, const luma_Mat *W, const luma_Mat *b, luma_Mat *out) {
  if (b) {
    luma_Mat rows = luma_broadcast_to(b, out->rows, out->cols);
    luma_mat_copy(out, &rows);
  }
  luma_mat_gemm(1.0, x, W, b ? 1.0 : 0.0, out);
}

/* c ? t : f without a branch: the derivative of a rectifier depends on
 * the sign of its input, which a branch would mispredict half the time
 * (a relu backward pass ran 7 times slower with one). */
static inline double pick(int c, double t, double f) {
  uint64_t m = (uint64_t)0 - (uint64_t)(c != 0), bt, bf;
  memcpy(&bt, &t, sizeof bt);
  memcpy(&bf, &f, sizeof bf);
  uint64_t r = (bt & m) | (bf & ~m);
  double out;
  memcpy(&out, &r, sizeof out);
  return out;
}

/* out = EXPR, the gradient at the input from gv at the output, x and
 * y = f(x) (the loop is repeated per activation so each one is a tight,
 * branch-free loop). */
#define BACKWARD_LOOP(EXPR)                                                 \
  do {                                                                      \
    if (flat) {                                                             \
      for (int64_t k = 0; k < n; k++) {                                     \
        double gv = g->data[k], x = x_->data[k], y = y_->data[k];           \
        out->data[k] = (EXPR);                                              \
      }                                                                     \
    } else {                                                                \
      for (int64_t i = 0; i < out->rows; i++)                               \
        for (int64_t j = 0; j < out->cols; j++) {                           \
          double gv = LUMA_AT(g, i, j), x = LUMA_AT(x_, i, j), y = LUMA_AT(y_, i, j); \
          LUMA_AT(out, i, j) = (EXPR);                                      \
        }                                                                   \
    }                                                                       \
  } while (0)

void luma_nn_activation_backward(luma_NnActivation f, double a, const luma_Mat *g,
                                 const luma_Mat *x_, const luma_Mat *y_, luma_Mat *out) {
  const luma_Mat *ops[] = {out, g, x_, y_};
  int flat = all_contiguous(ops, 4);
  int64_t n = out->rows * out->cols;
  switch (f) {
    /* a rectifier passes g or none of it, as PyTorch's threshold_backward
     * (an inactive unit gets 0 even from a NaN or infinite g) */
    case LUMA_NN_RELU: BACKWARD_LOOP(((void)y, pick(x > 0, gv, 0.0))); break;
    case LUMA_NN_LEAKY_RELU: BACKWARD_LOOP(((void)y, pick(x > 0, gv, gv * a))); break;
    case LUMA_NN_ELU: BACKWARD_LOOP(gv * pick(x > 0, 1.0, y + a)); break;
    case LUMA_NN_TANH: BACKWARD_LOOP(((void)x, gv * (1 - y * y))); break;
    case LUMA_NN_SIGMOID: BACKWARD_LOOP(((void)x, gv * (y * (1 - y)))); break;
    case LUMA_NN_SOFTPLUS: BACKWARD_LOOP(((void)y, gv * luma_sigmoid(x))); break;
  }
}
