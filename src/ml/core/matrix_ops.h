/*
 * matrix_ops.h - element-wise kernels with broadcasting, and the matrix
 * product through BLAS (no Lua).
 *
 * Broadcasting: an operand whose row (or column) count is 1 is repeated
 * along that dimension, so a 1 x c row vector applies to every row, an
 * r x 1 column vector to every column and a 1 x 1 matrix to everything.
 * Kernels take the broadcast operands as strided descriptors with stride 0
 * along repeated dimensions: one loop serves every case.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_MATRIX_OPS_H
#define LUMA_ML_MATRIX_OPS_H

#include <math.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* 1 / (1 + e^-x), evaluated on the side where exp cannot overflow (the
 * sigmoid method's, and the fused backward passes' of luma.nn). */
static inline double luma_sigmoid(double x) {
  if (x >= 0) return 1.0 / (1.0 + exp(-x));
  double e = exp(x);
  return e / (1.0 + e);
}

typedef enum luma_BinaryOp {
  LUMA_OP_ADD, LUMA_OP_SUB, LUMA_OP_MUL, LUMA_OP_DIV, LUMA_OP_POW, LUMA_OP_IDIV, LUMA_OP_MOD,
  LUMA_OP_MAXIMUM, LUMA_OP_MINIMUM,
  LUMA_OP_EQ, LUMA_OP_NE, LUMA_OP_LT, LUMA_OP_LE, LUMA_OP_GT, LUMA_OP_GE,
  LUMA_OP_BINARY_COUNT
} luma_BinaryOp;

typedef enum luma_UnaryOp {
  LUMA_OP_NEG, LUMA_OP_EXP, LUMA_OP_LOG, LUMA_OP_LOG1P, LUMA_OP_EXPM1, LUMA_OP_SQRT,
  LUMA_OP_ABS, LUMA_OP_SIGN, LUMA_OP_FLOOR, LUMA_OP_CEIL, LUMA_OP_ROUND, LUMA_OP_SIN,
  LUMA_OP_COS, LUMA_OP_TANH, LUMA_OP_SIGMOID, LUMA_OP_SOFTPLUS, LUMA_OP_RELU,
  LUMA_OP_ISNAN, LUMA_OP_ISFINITE,
  LUMA_OP_UNARY_COUNT
} luma_UnaryOp;

/* The broadcast shape of a and b into *rows, *cols; 0 if incompatible. */
int luma_broadcast_shape(const luma_Mat *a, const luma_Mat *b, int64_t *rows, int64_t *cols);

/* a viewed with shape rows x cols, repeating size-1 dimensions (stride 0).
 * The shape must be a broadcast target of a. */
luma_Mat luma_broadcast_to(const luma_Mat *a, int64_t rows, int64_t cols);

/* out = a OP b element-wise; all three have out's shape (broadcast first).
 * out may be a or b (same layout) for in-place use.  Large operands are
 * split into bands of rows over t's threads (t NULL: serial); every
 * element is computed as in a serial pass, so the result does not depend
 * on the thread count.  Returns t's loop status (interrupted, over
 * budget: out is then partly written). */
luma_LoopStatus luma_mat_binary(luma_Threads *t, luma_BinaryOp op, const luma_Mat *a,
                                const luma_Mat *b, luma_Mat *out);

/* out = OP(a); same shapes; out may be a.  Threads as luma_mat_binary. */
luma_LoopStatus luma_mat_unary(luma_Threads *t, luma_UnaryOp op, const luma_Mat *a,
                               luma_Mat *out);

/* out = min(max(a, lo), hi). */
void luma_mat_clamp(const luma_Mat *a, double lo, double hi, luma_Mat *out);

/* out = mask != 0 ? a : b, all with out's shape (broadcast first). */
void luma_mat_where(const luma_Mat *mask, const luma_Mat *a, const luma_Mat *b, luma_Mat *out);

/* out = alpha * a (out may be a). */
void luma_mat_scale(const luma_Mat *a, double alpha, luma_Mat *out);

/* Whether a and b have the same shape and equal elements (a NaN equals
 * nothing, as element by element). */
int luma_mat_equal(const luma_Mat *a, const luma_Mat *b);

/* Whether BLAS can read m as it is (possibly as a transpose), without a
 * copy: unit stride along one dimension and a leading dimension that
 * covers the other. */
int luma_mat_blas_ready(const luma_Mat *m);

/* Rows [begin, end) of m (by_rows), or columns [begin, end): the band of
 * an element-wise loop cut into chunks (a contiguous m stays contiguous
 * when cut by rows). */
luma_Mat luma_mat_band(const luma_Mat *m, int by_rows, int64_t begin, int64_t end);

/* Fills n, grain and cost of loop for an element-wise pass over a rows x
 * cols matrix cut into bands (one band on the caller below 65,536
 * elements, else bands of about 32,768 elements); returns by_rows for
 * luma_mat_band.  An empty shape must not be looped over. */
int luma_mat_band_loop(int64_t rows, int64_t cols, luma_Loop *loop);

/* out = a * b (matrix product) through dgemm; a is m x k, b is k x n, out
 * is m x n and must be BLAS-ready and must not overlap a or b.  Operands
 * that are not BLAS-ready must be copied by the caller first. */
void luma_mat_matmul(const luma_Mat *a, const luma_Mat *b, luma_Mat *out);

/* The product of small operands, m n k at most LUMA_MATMUL_SMALL
 * multiply-adds, by three loops (any strides; out must not overlap a or
 * b): below that size dgemm's own set-up (a lock, buffers, packing) costs
 * more than the arithmetic.  Each element is the sum over k in order,
 * without fused multiply-adds, so it may differ from dgemm's in the last
 * bit. */
#define LUMA_MATMUL_SMALL 512
void luma_mat_matmul_small(const luma_Mat *a, const luma_Mat *b, luma_Mat *out);

/* out = alpha a b + beta out, as luma_mat_matmul otherwise (beta = 0
 * ignores what out held, NaN included). */
void luma_mat_gemm(double alpha, const luma_Mat *a, const luma_Mat *b, double beta, luma_Mat *out);

#endif
