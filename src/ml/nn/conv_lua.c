/*
 * conv_lua.c - luma.nn.native's convolution and pooling (conv.h) for
 * luma.nn's Conv1d, Conv2d and pooling layers, which check shapes first
 * and report errors at their caller's line; these checks are the
 * backstop for a direct call.
 * SPDX-License-Identifier: MIT
 */
#include "nn/conv_lua.h"

#include "budget.h"
#include "core/matrix_lua.h"
#include "nn/conv.h"

#define MAX_SIZE ((lua_Integer)1 << 31)

/* The matrix at arg as a contiguous row-major matrix: itself, or a copy
 * that replaces it on the stack (so it stays referenced). */
static luma_Mat *dense(lua_State *L, int arg) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (luma_mat_is_contiguous(m)) return m;
  luma_Mat *copy = luma_matrix_new(L, m->rows, m->cols);
  luma_mat_copy(copy, m);
  lua_replace(L, arg);
  return copy;
}

/* The window geometry from arguments at (C, H, W, kH, kW, sH, sW, pH, pW)
 * starting at arg; out_h, out_w computed (adaptive: kH, kW are them). */
static void read_window(lua_State *L, int arg, luma_NnConv *c, int adaptive) {
  c->channels = luma_check_int_range(L, arg, "channels", 1, MAX_SIZE);
  c->height = luma_check_int_range(L, arg + 1, "height", 1, MAX_SIZE);
  c->width = luma_check_int_range(L, arg + 2, "width", 1, MAX_SIZE);
  c->k_h = luma_check_int_range(L, arg + 3, "kernel height", 1, MAX_SIZE);
  c->k_w = luma_check_int_range(L, arg + 4, "kernel width", 1, MAX_SIZE);
  /* every product of sizes below (a sample, a window, the columns of
   * im2col) then stays far from overflow */
  if ((double)c->channels * (double)c->height * (double)c->width > (double)LUMA_MAX_DIM ||
      (double)c->channels * (double)c->k_h * (double)c->k_w > (double)LUMA_MAX_DIM)
    luma_arg_error(L, arg, "a sample or a kernel has more than %I elements",
                   (lua_Integer)LUMA_MAX_DIM);
  if (adaptive) {
    c->out_h = c->k_h;
    c->out_w = c->k_w;
    return;
  }
  c->stride_h = luma_check_int_range(L, arg + 5, "stride height", 1, MAX_SIZE);
  c->stride_w = luma_check_int_range(L, arg + 6, "stride width", 1, MAX_SIZE);
  c->pad_h = luma_check_int_range(L, arg + 7, "padding height", 0, MAX_SIZE);
  c->pad_w = luma_check_int_range(L, arg + 8, "padding width", 0, MAX_SIZE);
  if (c->dil_h == 0) c->dil_h = c->dil_w = 1;
  if (!luma_nn_conv_shape(c))
    luma_arg_error(L, arg + 3, "the kernel is larger than the padded input");
}

/* Reads the convolution geometry at arg: the window, then dH, dW, groups. */
static void read_conv(lua_State *L, int arg, luma_NnConv *c) {
  c->dil_h = luma_check_int_range(L, arg + 9, "dilation height", 1, MAX_SIZE);
  c->dil_w = luma_check_int_range(L, arg + 10, "dilation width", 1, MAX_SIZE);
  c->groups = luma_check_int_range(L, arg + 11, "groups", 1, MAX_SIZE);
  read_window(L, arg, c, 0);
  if (c->channels % c->groups != 0)
    luma_arg_error(L, arg + 11, "%I channels are not divisible by %I groups",
                   (lua_Integer)c->channels, (lua_Integer)c->groups);
}

static void check_cols(lua_State *L, int arg, const luma_Mat *m, int64_t cols, const char *what) {
  if (m->cols != cols)
    luma_arg_error(L, arg, "%s has %I columns but the geometry needs %I", what,
                   (lua_Integer)m->cols, (lua_Integer)cols);
}

static void check_weight(lua_State *L, int arg, const luma_Mat *W, luma_NnConv *c) {
  int64_t k = c->channels / c->groups * c->k_h * c->k_w;
  if (W->cols != k || W->rows < 1 || W->rows % c->groups != 0)
    luma_arg_error(L, arg, "W is %I x %I but must be out x %I with out divisible by %I groups",
                   (lua_Integer)W->rows, (lua_Integer)W->cols, (lua_Integer)k,
                   (lua_Integer)c->groups);
  c->out_channels = W->rows;
}

/* Pushes the scratch of a convolution (conv.h) from the state's
 * allocator, so the state's memory limit covers it; sets *slots. */
static double *push_scratch(lua_State *L, luma_Threads *t, const luma_NnConv *c, int64_t n,
                            int backward, int *slots) {
  /* the threads that may run chunks at once: the caller and the workers */
  *slots = 1;
  if (t) *slots = t->count > t->started + 1 ? t->count : t->started + 1;
  int64_t count = luma_nn_conv_scratch(c, n, *slots, backward);
  if (count < 0) luaL_error(L, "not enough memory (the convolution's scratch is too large)");
  return lua_newuserdatauv(L, (size_t)(count > 0 ? count : 1) * sizeof(double), 0);
}

/* conv2d(x, W, b, C, H, W, kH, kW, sH, sW, pH, pW, dH, dW, groups) -> Y */
static int c_conv2d(lua_State *L) {
  luma_NnConv c = {0};
  read_conv(L, 4, &c);
  lua_settop(L, 15);
  luma_Mat *x = dense(L, 1), *w = dense(L, 2), *b = NULL;
  check_cols(L, 1, x, c.channels * c.height * c.width, "x");
  check_weight(L, 2, w, &c);
  if (!lua_isnil(L, 3)) {
    b = luma_matrix_check(L, 3);
    if (b->rows != 1 || b->cols != c.out_channels)
      luma_arg_error(L, 3, "b is %I x %I but must be 1 x %I", (lua_Integer)b->rows,
                     (lua_Integer)b->cols, (lua_Integer)c.out_channels);
  }
  luma_Mat *y = luma_matrix_new(L, x->rows, c.out_channels * c.out_h * c.out_w);
  luma_Threads *t = luma_threads_of(L);
  int slots;
  double *scratch = push_scratch(L, t, &c, x->rows, 0, &slots);
  luma_threads_finish(L, t, luma_nn_conv_forward(t, &c, x, w, b, y, scratch, slots));
  lua_pop(L, 1);
  return 1;
}

/* conv2d_backward(x, W, G, want_x, want_w, want_b, C, H, W, kH, kW, sH,
 * sW, pH, pW, dH, dW, groups) -> dX, dW, db (nil where not wanted) */
static int c_conv2d_backward(lua_State *L) {
  luma_NnConv c = {0};
  read_conv(L, 7, &c);
  lua_settop(L, 18);
  luma_Mat *x = dense(L, 1), *w = dense(L, 2), *g = dense(L, 3);
  check_cols(L, 1, x, c.channels * c.height * c.width, "x");
  check_weight(L, 2, w, &c);
  check_cols(L, 3, g, c.out_channels * c.out_h * c.out_w, "G");
  if (g->rows != x->rows)
    luma_arg_error(L, 3, "G has %I rows but x has %I", (lua_Integer)g->rows,
                   (lua_Integer)x->rows);
  int want_x = lua_toboolean(L, 4), want_w = lua_toboolean(L, 5), want_b = lua_toboolean(L, 6);
  luma_Mat *dx = NULL, *dw = NULL, *db = NULL;
  if (want_x) dx = luma_matrix_new(L, x->rows, x->cols); else lua_pushnil(L);
  if (want_w) dw = luma_matrix_new(L, w->rows, w->cols); else lua_pushnil(L);
  if (want_b) db = luma_matrix_new(L, 1, c.out_channels); else lua_pushnil(L);
  luma_Threads *t = luma_threads_of(L);
  int slots;
  double *scratch = push_scratch(L, t, &c, x->rows, 1, &slots);
  luma_threads_finish(L, t, luma_nn_conv_backward(t, &c, x, w, g, dx, dw, db, scratch, slots));
  lua_pop(L, 1);
  return 3;
}

/* The transposed convolution's geometry from (x, W) and the arguments
 * (C, H, W, kH, kW, sH, sW, pH, pW, dH, dW, groups, opH, opW) at arg: C x H
 * x W is its input, so c's output; W's columns give c's channels. */
static void read_transpose(lua_State *L, int arg, const luma_Mat *x, const luma_Mat *w,
                           luma_NnConv *c) {
  c->out_channels = luma_check_int_range(L, arg, "channels", 1, MAX_SIZE);
  c->out_h = luma_check_int_range(L, arg + 1, "height", 1, MAX_SIZE);
  c->out_w = luma_check_int_range(L, arg + 2, "width", 1, MAX_SIZE);
  c->k_h = luma_check_int_range(L, arg + 3, "kernel height", 1, MAX_SIZE);
  c->k_w = luma_check_int_range(L, arg + 4, "kernel width", 1, MAX_SIZE);
  c->stride_h = luma_check_int_range(L, arg + 5, "stride height", 1, MAX_SIZE);
  c->stride_w = luma_check_int_range(L, arg + 6, "stride width", 1, MAX_SIZE);
  c->pad_h = luma_check_int_range(L, arg + 7, "padding height", 0, MAX_SIZE);
  c->pad_w = luma_check_int_range(L, arg + 8, "padding width", 0, MAX_SIZE);
  c->dil_h = luma_check_int_range(L, arg + 9, "dilation height", 1, MAX_SIZE);
  c->dil_w = luma_check_int_range(L, arg + 10, "dilation width", 1, MAX_SIZE);
  c->groups = luma_check_int_range(L, arg + 11, "groups", 1, MAX_SIZE);
  int64_t op_h = luma_check_int_range(L, arg + 12, "output padding height", 0, MAX_SIZE);
  int64_t op_w = luma_check_int_range(L, arg + 13, "output padding width", 0, MAX_SIZE);
  /* PyTorch's rule; it also keeps c's output at the input's size */
  if ((op_h >= c->stride_h && op_h >= c->dil_h) || (op_w >= c->stride_w && op_w >= c->dil_w))
    luma_arg_error(L, arg + 12, "output padding must be smaller than the stride or the dilation");
  if ((double)c->out_channels * (double)c->out_h * (double)c->out_w > (double)LUMA_MAX_DIM ||
      (double)c->k_h * (double)c->k_w > (double)LUMA_MAX_DIM)
    luma_arg_error(L, arg, "a sample or a kernel has more than %I elements",
                   (lua_Integer)LUMA_MAX_DIM);
  if (c->out_channels % c->groups != 0)
    luma_arg_error(L, arg + 11, "%I channels are not divisible by %I groups",
                   (lua_Integer)c->out_channels, (lua_Integer)c->groups);
  int64_t k = c->k_h * c->k_w;
  if (w->rows != c->out_channels || w->cols % k != 0 || w->cols == 0)
    luma_arg_error(L, 2, "W is %I x %I but must be %I x (out/groups %I)", (lua_Integer)w->rows,
                   (lua_Integer)w->cols, (lua_Integer)c->out_channels, (lua_Integer)k);
  c->channels = w->cols / k * c->groups;
  if (!luma_nn_conv_transpose_shape(c, op_h, op_w))
    luma_arg_error(L, arg + 7, "the output would be empty (%I x %I)", (lua_Integer)c->height,
                   (lua_Integer)c->width);
  if ((double)c->channels * (double)c->height * (double)c->width > (double)LUMA_MAX_DIM ||
      (double)c->channels / (double)c->groups * (double)k > (double)LUMA_MAX_DIM)
    luma_arg_error(L, arg, "the output or the kernel has more than %I elements",
                   (lua_Integer)LUMA_MAX_DIM);
  check_cols(L, 1, x, c->out_channels * c->out_h * c->out_w, "x");
}

/* conv_transpose2d(x, W, b, C, H, W, kH, kW, sH, sW, pH, pW, dH, dW,
 * groups, opH, opW) -> Y */
static int c_conv_transpose2d(lua_State *L) {
  lua_settop(L, 17);
  luma_Mat *x = dense(L, 1), *w = dense(L, 2), *b = NULL;
  luma_NnConv c = {0};
  read_transpose(L, 4, x, w, &c);
  if (!lua_isnil(L, 3)) {
    b = luma_matrix_check(L, 3);
    if (b->rows != 1 || b->cols != c.channels)
      luma_arg_error(L, 3, "b is %I x %I but must be 1 x %I", (lua_Integer)b->rows,
                     (lua_Integer)b->cols, (lua_Integer)c.channels);
  }
  luma_Mat *y = luma_matrix_new(L, x->rows, c.channels * c.height * c.width);
  luma_Threads *t = luma_threads_of(L);
  int slots;
  double *scratch = push_scratch(L, t, &c, x->rows, 0, &slots);
  luma_threads_finish(L, t,
                      luma_nn_conv_transpose_forward(t, &c, x, w, b, y, scratch, slots));
  lua_pop(L, 1);
  return 1;
}

/* conv_transpose2d_backward(x, W, G, want_x, want_w, want_b, C, H, W, kH,
 * kW, sH, sW, pH, pW, dH, dW, groups, opH, opW) -> dX, dW, db */
static int c_conv_transpose2d_backward(lua_State *L) {
  lua_settop(L, 20);
  luma_Mat *x = dense(L, 1), *w = dense(L, 2), *g = dense(L, 3);
  luma_NnConv c = {0};
  read_transpose(L, 7, x, w, &c);
  check_cols(L, 3, g, c.channels * c.height * c.width, "G");
  if (g->rows != x->rows)
    luma_arg_error(L, 3, "G has %I rows but x has %I", (lua_Integer)g->rows,
                   (lua_Integer)x->rows);
  int want_x = lua_toboolean(L, 4), want_w = lua_toboolean(L, 5), want_b = lua_toboolean(L, 6);
  luma_Mat *dx = NULL, *dw = NULL, *db = NULL;
  if (want_x) dx = luma_matrix_new(L, x->rows, x->cols); else lua_pushnil(L);
  if (want_w) dw = luma_matrix_new(L, w->rows, w->cols); else lua_pushnil(L);
  if (want_b) db = luma_matrix_new(L, 1, c.channels); else lua_pushnil(L);
  luma_Threads *t = luma_threads_of(L);
  int slots;
  double *scratch = push_scratch(L, t, &c, x->rows, 1, &slots);
  luma_threads_finish(
      L, t, luma_nn_conv_transpose_backward(t, &c, x, w, g, dx, dw, db, scratch, slots));
  lua_pop(L, 1);
  return 3;
}

static const char *const POOLS[] = {"max", "avg", "adaptive", NULL};

/* pool2d(kind, x, C, H, W, kH, kW [, sH, sW, pH, pW]) -> Y */
static int c_pool2d(lua_State *L) {
  luma_NnPool kind = (luma_NnPool)luaL_checkoption(L, 1, NULL, POOLS);
  luma_NnConv c = {0};
  read_window(L, 3, &c, kind == LUMA_NN_POOL_ADAPTIVE);
  lua_settop(L, 11);
  luma_Mat *x = dense(L, 2);
  check_cols(L, 2, x, c.channels * c.height * c.width, "x");
  luma_Mat *y = luma_matrix_new(L, x->rows, c.channels * c.out_h * c.out_w);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_nn_pool_forward(t, kind, &c, x, y));
  return 1;
}

/* pool2d_backward(kind, x, G, C, H, W, kH, kW [, sH, sW, pH, pW]) -> dX */
static int c_pool2d_backward(lua_State *L) {
  luma_NnPool kind = (luma_NnPool)luaL_checkoption(L, 1, NULL, POOLS);
  luma_NnConv c = {0};
  read_window(L, 4, &c, kind == LUMA_NN_POOL_ADAPTIVE);
  lua_settop(L, 12);
  luma_Mat *x = dense(L, 2), *g = dense(L, 3);
  check_cols(L, 2, x, c.channels * c.height * c.width, "x");
  check_cols(L, 3, g, c.channels * c.out_h * c.out_w, "G");
  if (g->rows != x->rows)
    luma_arg_error(L, 3, "G has %I rows but x has %I", (lua_Integer)g->rows,
                   (lua_Integer)x->rows);
  luma_Mat *dx = luma_matrix_new(L, x->rows, x->cols);
  luma_Threads *t = luma_threads_of(L);
  luma_threads_finish(L, t, luma_nn_pool_backward(t, kind, &c, x, g, dx));
  return 1;
}

void luma_nn_conv_register(lua_State *L, int idx) {
  static const luma_Func funcs[] = {
      {"conv2d", c_conv2d, "conv2d(x, W, b, C, H, W, kH, kW, sH, sW, pH, pW, dH, dW, groups) -> matrix",
       "The 2-D convolution of luma.nn.Conv2d and Conv1d (H = 1): x is N x (C H W), each row a "
       "channels-first sample; W out x (C/groups kH kW) (PyTorch's weight, flattened); b 1 x "
       "out or nil; strides s, zero padding p, dilations d. Returns N x (out oH oW), by im2col "
       "and dgemm."},
      {"conv2d_backward", c_conv2d_backward,
       "conv2d_backward(x, W, G, want_x, want_w, want_b, C, H, W, kH, kW, sH, sW, pH, pW, dH, "
       "dW, groups) -> dX, dW, db",
       "The gradients of conv2d at x, W and b from G, the gradient at its output (nil for "
       "those not wanted): col2im of W^T G, the sum over samples of G col^T, and G's sums per "
       "channel."},
      {"conv_transpose2d", c_conv_transpose2d,
       "conv_transpose2d(x, W, b, C, H, W, kH, kW, sH, sW, pH, pW, dH, dW, groups, opH, opW) -> matrix",
       "The transposed 2-D convolution of luma.nn.ConvTranspose2d: x is N x (C H W), W C x "
       "(out/groups kH kW) (PyTorch's in x out/groups x kH x kW, flattened), b 1 x out or nil; "
       "returns N x (out oH oW), oH = (H - 1) sH - 2 pH + dH (kH - 1) + opH + 1, by dgemm and "
       "col2im (the adjoint of conv2d)."},
      {"conv_transpose2d_backward", c_conv_transpose2d_backward,
       "conv_transpose2d_backward(x, W, G, want_x, want_w, want_b, C, H, W, kH, kW, sH, sW, pH, "
       "pW, dH, dW, groups, opH, opW) -> dX, dW, db",
       "The gradients of conv_transpose2d at x, W and b from G (nil for those not wanted): "
       "conv2d of G by W, the convolution's weight gradient with G and x swapped, and G's "
       "sums per channel."},
      {"pool2d", c_pool2d, "pool2d(kind, x, C, H, W, kH, kW [, sH, sW, pH, pW]) -> matrix",
       "Pooling of luma.nn's pooling layers over N x (C H W) rows: kind \"max\" (padding "
       "never wins), \"avg\" (padding counted as zeros) with windows kH x kW, strides s and "
       "padding p; \"adaptive\": means over oH x oW = kH x kW adaptive windows."},
      {"pool2d_backward", c_pool2d_backward,
       "pool2d_backward(kind, x, G, C, H, W, kH, kW [, sH, sW, pH, pW]) -> matrix",
       "The gradient of pool2d at x from G: a max window's to its first maximal element, a "
       "mean's spread evenly over its window."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, idx, "luma.nn.native", funcs);
}
