/*
 * nn_lua.c - luma.nn.native: the fused kernels of nn.h for the Lua side
 * (luma.optim's stochastic optimizers, luma.autograd's activations).
 * They check what they read: matrices of one shape, writable operands
 * that share no memory with another operand (other than being it).
 * SPDX-License-Identifier: MIT
 */
#include "budget.h"
#include "core/matrix_ops.h"
#include "core/matrix_lua.h"
#include "nn/nn.h"
#include "nn/conv_lua.h"
#include "nn/rnn_lua.h"

/* The matrix at arg, which must have the shape of ref (argument 1 or 2). */
static luma_Mat *same_shape(lua_State *L, int arg, const luma_Mat *ref, const char *what,
                            const char *ref_what) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != ref->rows || m->cols != ref->cols)
    luma_arg_error(L, arg, "%s is %I x %I but %s is %I x %I", what, (lua_Integer)m->rows,
                   (lua_Integer)m->cols, ref_what, (lua_Integer)ref->rows,
                   (lua_Integer)ref->cols);
  return m;
}

/* An argument error when written (argument w_arg) shares memory with
 * other, unless it is exactly other: the kernels read each element before
 * writing the same one, never another. */
static void no_overlap(lua_State *L, int w_arg, const luma_Mat *written, const luma_Mat *other) {
  if (!other || !luma_mat_overlaps(written, other)) return;
  if (written->data == other->data && written->rs == other->rs && written->cs == other->cs)
    return;
  luma_arg_error(L, w_arg, "shares memory with another operand (use a copy)");
}

/* step(rule, p, g, s1, s2, lr, h1, h2, c1, c2, eps, eps_outside, decay):
 * one step of an optimizer in place (p, s1, s2 written). */
static int n_step(lua_State *L) {
  static const char *const rules[] = {"sgd", "momentum", "nesterov", "adagrad", "rmsprop",
                                      "adam", NULL};
  luma_NnStep s = {0};
  s.rule = (luma_NnRule)luaL_checkoption(L, 1, NULL, rules);
  luma_Mat *p = luma_matrix_check(L, 2);
  luma_Mat *g = same_shape(L, 3, p, "g", "p");
  int uses_s1 = s.rule != LUMA_NN_SGD, uses_s2 = s.rule == LUMA_NN_ADAM;
  luma_Mat *s1 = uses_s1 ? same_shape(L, 4, p, "s1", "p") : NULL;
  luma_Mat *s2 = uses_s2 ? same_shape(L, 5, p, "s2", "p") : NULL;
  s.lr = luaL_checknumber(L, 6);
  double h1 = luaL_optnumber(L, 7, 0), h2 = luaL_optnumber(L, 8, 0);
  s.momentum = s.rho = s.beta1 = h1;
  s.beta2 = h2;
  s.c1 = luaL_optnumber(L, 9, 1);
  s.c2 = luaL_optnumber(L, 10, 1);
  s.eps = luaL_optnumber(L, 11, 0);
  s.eps_outside = lua_toboolean(L, 12);
  s.decay = luaL_optnumber(L, 13, 1);
  luma_Mat *written[] = {p, s1, s2};
  const luma_Mat *all[] = {p, g, s1, s2};
  for (int w = 0; w < 3; w++) {
    if (!written[w]) continue;
    for (int o = 0; o < 4; o++)
      if (all[o] != written[w]) no_overlap(L, w == 0 ? 2 : w + 3, written[w], all[o]);
  }
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_nn_step(t, &s, p, g, s1, s2));
  luma_matrix_touch(L, 2);
  if (s1) luma_matrix_touch(L, 4);
  if (s2) luma_matrix_touch(L, 5);
  return 0;
}

/* affine(x, W [, b [, w_transposed = false]]) -> x W + b, or x W^T + b
 * (W out x in, PyTorch's layout). */
static int n_affine(lua_State *L) {
  luma_Mat *px = luma_matrix_check(L, 1), *pw = luma_matrix_check(L, 2);
  int has_b = !lua_isnoneornil(L, 3), transposed = lua_toboolean(L, 4);
  luma_matrix_check_blas_size(L, px, 1);
  luma_matrix_check_blas_size(L, pw, 2);
  int64_t k = transposed ? pw->cols : pw->rows, n = transposed ? pw->rows : pw->cols;
  if (px->cols != k)
    return luma_arg_error(L, 2, "x is %I x %I but W%s is %I x %I (inner dimensions differ)",
                          (lua_Integer)px->rows, (lua_Integer)px->cols, transposed ? "^T" : "",
                          (lua_Integer)k, (lua_Integer)n);
  luma_Mat *pb = NULL;
  if (has_b) {
    pb = luma_matrix_check(L, 3);
    if (pb->rows != 1 || pb->cols != n)
      return luma_arg_error(L, 3, "b is %I x %I but must be 1 x %I", (lua_Integer)pb->rows,
                            (lua_Integer)pb->cols, (lua_Integer)n);
  }
  luma_charge_uninterruptible(L, (double)px->rows * (double)n * (double)(k > 0 ? k : 1),
                              "this matrix product");
  lua_settop(L, 4);
  luma_Mat x = luma_matrix_blas_operand(L, 1), w = luma_matrix_blas_operand(L, 2);
  if (transposed) {
    luma_Mat t = {w.data, w.cols, w.rows, w.cs, w.rs};
    w = t;
  }
  luma_Mat *out = luma_matrix_new(L, px->rows, n);
  luma_nn_affine(&x, &w, pb, out);
  return 1;
}

/* activation_backward(name, g, x, y [, a = 0]) -> g f'(x), a new matrix. */
static int n_activation_backward(lua_State *L) {
  static const char *const names[] = {"relu", "leaky_relu", "elu", "tanh", "sigmoid",
                                      "softplus", NULL};
  luma_NnActivation f = (luma_NnActivation)luaL_checkoption(L, 1, NULL, names);
  luma_Mat *g = luma_matrix_check(L, 2);
  luma_Mat *x = same_shape(L, 3, g, "x", "g");
  luma_Mat *y = same_shape(L, 4, g, "y", "g");
  double a = luaL_optnumber(L, 5, 0);
  luma_Mat *out = luma_matrix_new(L, g->rows, g->cols);
  luma_charge(L, (uint64_t)(g->rows * g->cols));
  luma_nn_activation_backward(f, a, g, x, y, out);
  return 1;
}

int luma_open_nn_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"step", n_step,
       "step(rule, p, g, s1, s2, lr [, h1 [, h2 [, c1 = 1 [, c2 = 1 [, eps = 0 [, eps_outside "
       "[, decay = 1]]]]]]])",
       "One fused optimizer step in place (luma.optim's SGD, Momentum, Nesterov, Adagrad, "
       "RMSprop, Adam and AdamW use it). rule: \"sgd\", \"momentum\", \"nesterov\", "
       "\"adagrad\", \"rmsprop\" or \"adam\"; p the parameter, g its gradient, s1 and s2 the "
       "rule's state (Adam's two moments; s1 alone for the others, nil for sgd); h1 the "
       "momentum, rho or beta1, h2 beta2; c1, c2 Adam's bias corrections; decay multiplies p "
       "first (AdamW)."},
      {"affine", n_affine, "affine(x, W [, b [, w_transposed = false]]) -> matrix",
       "x W + b in one dgemm onto the bias rows (x W^T + b when w_transposed: W out x in, "
       "PyTorch's layout); b is 1 x out or nil."},
      {"activation_backward", n_activation_backward,
       "activation_backward(name, g, x, y [, a = 0]) -> matrix",
       "The gradient g f'(x) at the input of the activation name (\"relu\", \"leaky_relu\", "
       "\"elu\", \"tanh\", \"sigmoid\" or \"softplus\") from the gradient g at its output y = "
       "f(x); a is leaky_relu's slope or elu's alpha."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.nn.native", funcs);
  luma_nn_register_rnn(L, lua_gettop(L));
  luma_nn_conv_register(L, lua_gettop(L));
  return 1;
}
