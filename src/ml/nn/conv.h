/*
 * conv.h - convolution and pooling over a batch of samples (no Lua), the
 * kernels of luma.nn's Conv1d, Conv2d and pooling layers.
 *
 * Layout: a batch is an N x (C H W) row-major matrix, a sample a row
 * holding its channels-first C x H x W tensor flattened row-major (a 1-D
 * signal is H = 1).  Convolution is im2col and one dgemm per sample and
 * group (Chellapilla, Puri & Simard, "High performance convolutional
 * neural networks for document processing", 2006): the receptive fields
 * of the sample are copied as columns of a (C/groups kH kW) x (oH oW)
 * matrix, so the layer is the product of the out x (C/groups kH kW)
 * weight (PyTorch's out x in/groups x kH x kW, flattened) with it.
 * The backward pass: the input gradient is W^T G scattered back by
 * col2im, the weight gradient G col^T summed over samples, the bias
 * gradient G's sums per channel.
 *
 * Samples run in chunks on the pool; the chunks depend on the shapes
 * only and sums over samples are combined in chunk order, so results are
 * bit-identical for any thread count.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CONV_H
#define LUMA_ML_CONV_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* The geometry of a 2-D window operation (a convolution or a pooling). */
typedef struct luma_NnConv {
  int64_t channels, height, width;    /* the input sample, C x H x W */
  int64_t out_channels, groups;       /* convolution only */
  int64_t k_h, k_w;                   /* kernel (pooling: the window) */
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int64_t out_h, out_w;               /* set by luma_nn_conv_shape */
} luma_NnConv;

/* Fills out_h, out_w as PyTorch: floor((H + 2p - d (k - 1) - 1) / s) + 1;
 * 0 when a dimension is empty (the dilated kernel larger than the padded
 * input). */
int luma_nn_conv_shape(luma_NnConv *c);

/* The scratch a convolution of n samples needs, in doubles (the caller
 * allocates it, from the state's allocator): `slots` im2col matrices, one
 * for each thread that may run a chunk at once (t's count), and for the
 * backward pass one partial dW and db per chunk of samples.  -1 when that
 * is more than LUMA_MAX_ELEMENTS. */
int64_t luma_nn_conv_scratch(const luma_NnConv *c, int64_t n, int slots, int backward);

/* Y (N x out oH oW) = conv(X (N x C H W), W (out x C/groups kH kW)) + b
 * (b 1 x out, or NULL), with scratch as luma_nn_conv_scratch says for
 * (N, slots, 0).  X, W contiguous row-major, Y too.  Returns the loop's
 * status. */
luma_LoopStatus luma_nn_conv_forward(luma_Threads *t, const luma_NnConv *c, const luma_Mat *X,
                                     const luma_Mat *W, const luma_Mat *b, luma_Mat *Y,
                                     double *scratch, int slots);

/* From G (Y's shape): dX (X's shape), dW (W's) and db (1 x out), each
 * computed only when not NULL; all contiguous row-major; scratch for
 * (N, slots, 1).  Returns as the forward. */
luma_LoopStatus luma_nn_conv_backward(luma_Threads *t, const luma_NnConv *c, const luma_Mat *X,
                                      const luma_Mat *W, const luma_Mat *G, luma_Mat *dX,
                                      luma_Mat *dW, luma_Mat *db, double *scratch, int slots);

/* Transposed convolution (PyTorch's ConvTranspose2d), described by the
 * convolution c it is the adjoint of: its input X is N x (out_channels
 * out_h out_w), its output Y N x (channels height width), its weight W
 * c's, out_channels x (channels/groups kH kW) (PyTorch's in x out/groups
 * x kH x kW, flattened), b 1 x channels or NULL.  Set out_h, out_w (the
 * input's size) and the window, then luma_nn_conv_transpose_shape fills
 * height and width as PyTorch: (n - 1) s - 2 p + d (k - 1) + op + 1; 0
 * when the output would be empty. */
int luma_nn_conv_transpose_shape(luma_NnConv *c, int64_t op_h, int64_t op_w);

/* Y = col2im(W^T X) + b, scratch as luma_nn_conv_scratch(c, N, slots, 0). */
luma_LoopStatus luma_nn_conv_transpose_forward(luma_Threads *t, const luma_NnConv *c,
                                               const luma_Mat *X, const luma_Mat *W,
                                               const luma_Mat *b, luma_Mat *Y, double *scratch,
                                               int slots);

/* From G (Y's shape): dX = conv(G, W), dW = the convolution's weight
 * gradient with G as its input and X as its output's gradient, db G's
 * sums per channel; each only when not NULL; scratch as
 * luma_nn_conv_scratch(c, N, slots, 1). */
luma_LoopStatus luma_nn_conv_transpose_backward(luma_Threads *t, const luma_NnConv *c,
                                                const luma_Mat *X, const luma_Mat *W,
                                                const luma_Mat *G, luma_Mat *dX, luma_Mat *dW,
                                                luma_Mat *db, double *scratch, int slots);

typedef enum luma_NnPool {
  LUMA_NN_POOL_MAX,     /* the window's maximum (padding never wins) */
  LUMA_NN_POOL_AVG,     /* the window's mean, padding counted as zeros */
  LUMA_NN_POOL_ADAPTIVE /* mean over [floor(i H / oH), ceil((i + 1) H / oH)) */
} luma_NnPool;

/* Y (N x C oH oW) = pool(X (N x C H W)); for the adaptive kind out_h,
 * out_w are given and the window fields unused.  Contiguous row-major. */
luma_LoopStatus luma_nn_pool_forward(luma_Threads *t, luma_NnPool kind, const luma_NnConv *c,
                                     const luma_Mat *X, luma_Mat *Y);

/* dX from G: the max kind gives each window's gradient to its first
 * maximal element in row-major window order (a NaN counts as maximal, as
 * PyTorch), the mean kinds spread it evenly over the window. */
luma_LoopStatus luma_nn_pool_backward(luma_Threads *t, luma_NnPool kind, const luma_NnConv *c,
                                      const luma_Mat *X, const luma_Mat *G, luma_Mat *dX);

#endif
