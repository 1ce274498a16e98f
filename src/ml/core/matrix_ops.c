/*
 * matrix_ops.c - element-wise kernels with broadcasting, and the product.
 *
 * Each operation expands into its own loops (through the macros below), so
 * the switch on the operation happens once per call, not per element, and
 * the contiguous case is a single flat loop the compiler can vectorize.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include <cblas.h>

#include "core/matrix_ops.h"
#include "core/vecmath.h"

int luma_broadcast_shape(const luma_Mat *a, const luma_Mat *b, int64_t *rows, int64_t *cols) {
  if (a->rows != b->rows && a->rows != 1 && b->rows != 1) return 0;
  if (a->cols != b->cols && a->cols != 1 && b->cols != 1) return 0;
  *rows = a->rows == 1 ? b->rows : a->rows;
  *cols = a->cols == 1 ? b->cols : a->cols;
  return 1;
}

luma_Mat luma_broadcast_to(const luma_Mat *a, int64_t rows, int64_t cols) {
  luma_Mat v = *a;
  if (a->rows == 1 && rows != 1) v.rs = 0;
  if (a->cols == 1 && cols != 1) v.cs = 0;
  v.rows = rows;
  v.cols = cols;
  return v;
}

/* Same layout and contiguous: one flat loop over all elements. */
static int flat3(const luma_Mat *a, const luma_Mat *b, const luma_Mat *o) {
  return luma_mat_is_contiguous(o) && luma_mat_is_contiguous(a) && luma_mat_is_contiguous(b) &&
         a->rows == o->rows && a->cols == o->cols && b->rows == o->rows && b->cols == o->cols;
}

#define BINARY_LOOP(EXPR)                                                        \
  do {                                                                           \
    if (flat3(a, b, out)) {                                                      \
      const double *pa = a->data, *pb = b->data; /* out may alias a or b */               \
      double *po = out->data;                                                    \
      int64_t n = out->rows * out->cols;                                         \
      for (int64_t k = 0; k < n; k++) {                                          \
        double x = pa[k], y = pb[k];                                             \
        po[k] = (EXPR);                                                          \
      }                                                                          \
    } else {                                                                     \
      for (int64_t i = 0; i < out->rows; i++)                                    \
        for (int64_t j = 0; j < out->cols; j++) {                                \
          double x = LUMA_AT(a, i, j), y = LUMA_AT(b, i, j);                     \
          LUMA_AT(out, i, j) = (EXPR);                                           \
        }                                                                        \
    }                                                                            \
  } while (0)

/* x - floor(x / y) y with the sign of y, as Lua's % on floats and NumPy's
 * mod: fmod's exact remainder, moved into y's side when the signs differ
 * (so -1 % inf is inf, and any x % 0 is NaN). */
static inline double floored_mod(double x, double y) {
  double r = fmod(x, y);
  if (r != 0 && (r < 0) != (y < 0)) r += y;
  return r;
}

static void binary_serial(luma_BinaryOp op, const luma_Mat *a, const luma_Mat *b,
                          luma_Mat *out) {
  switch (op) {
    case LUMA_OP_ADD: BINARY_LOOP(x + y); break;
    case LUMA_OP_SUB: BINARY_LOOP(x - y); break;
    case LUMA_OP_MUL: BINARY_LOOP(x * y); break;
    case LUMA_OP_DIV: BINARY_LOOP(x / y); break;
    case LUMA_OP_POW: BINARY_LOOP(pow(x, y)); break;
    case LUMA_OP_IDIV: BINARY_LOOP(floor(x / y)); break;
    case LUMA_OP_MOD: BINARY_LOOP(floored_mod(x, y)); break;
    /* NaN propagates, as in NumPy's maximum/minimum. */
    case LUMA_OP_MAXIMUM: BINARY_LOOP(isnan(x) || x > y ? x : y); break;
    case LUMA_OP_MINIMUM: BINARY_LOOP(isnan(x) || x < y ? x : y); break;
    case LUMA_OP_EQ: BINARY_LOOP((double)(x == y)); break;
    case LUMA_OP_NE: BINARY_LOOP((double)(x != y)); break;
    case LUMA_OP_LT: BINARY_LOOP((double)(x < y)); break;
    case LUMA_OP_LE: BINARY_LOOP((double)(x <= y)); break;
    case LUMA_OP_GT: BINARY_LOOP((double)(x > y)); break;
    case LUMA_OP_GE: BINARY_LOOP((double)(x >= y)); break;
    case LUMA_OP_BINARY_COUNT: break;
  }
}

#define UNARY_LOOP(EXPR)                                                         \
  do {                                                                           \
    if (luma_mat_is_contiguous(a) && luma_mat_is_contiguous(out)) {              \
      const double *pa = a->data;                                                \
      double *po = out->data;                                                    \
      int64_t n = out->rows * out->cols;                                         \
      for (int64_t k = 0; k < n; k++) {                                          \
        double x = pa[k];                                                        \
        po[k] = (EXPR);                                                          \
      }                                                                          \
    } else {                                                                     \
      for (int64_t i = 0; i < out->rows; i++)                                    \
        for (int64_t j = 0; j < out->cols; j++) {                                \
          double x = LUMA_AT(a, i, j);                                           \
          LUMA_AT(out, i, j) = (EXPR);                                           \
        }                                                                        \
    }                                                                            \
  } while (0)

/* log(1 + e^x) without overflow for large x or loss for very negative x. */
static inline double softplus(double x) {
  return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

/* The functions libmvec vectorizes, on contiguous data. */
static int vectorized(luma_UnaryOp op, const luma_Mat *a, luma_Mat *out) {
  if (!luma_mat_is_contiguous(a) || !luma_mat_is_contiguous(out)) return 0;
  luma_VecFunc f;
  switch (op) {
    case LUMA_OP_EXP: f = LUMA_VEC_EXP; break;
    case LUMA_OP_LOG: f = LUMA_VEC_LOG; break;
    case LUMA_OP_SIN: f = LUMA_VEC_SIN; break;
    case LUMA_OP_COS: f = LUMA_VEC_COS; break;
    default: return 0;
  }
  luma_vec_apply(f, a->data, out->data, a->rows * a->cols);
  return 1;
}

static void unary_serial(luma_UnaryOp op, const luma_Mat *a, luma_Mat *out) {
  if (vectorized(op, a, out)) return;
  switch (op) {
    case LUMA_OP_NEG: UNARY_LOOP(-x); break;
    case LUMA_OP_EXP: UNARY_LOOP(exp(x)); break;
    case LUMA_OP_LOG: UNARY_LOOP(log(x)); break;
    case LUMA_OP_LOG1P: UNARY_LOOP(log1p(x)); break;
    case LUMA_OP_EXPM1: UNARY_LOOP(expm1(x)); break;
    case LUMA_OP_SQRT: UNARY_LOOP(sqrt(x)); break;
    case LUMA_OP_ABS: UNARY_LOOP(fabs(x)); break;
    case LUMA_OP_SIGN: UNARY_LOOP(isnan(x) ? x : (double)((x > 0) - (x < 0))); break;
    case LUMA_OP_FLOOR: UNARY_LOOP(floor(x)); break;
    case LUMA_OP_CEIL: UNARY_LOOP(ceil(x)); break;
    /* Half to even, as NumPy's round: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2. */
    case LUMA_OP_ROUND: UNARY_LOOP(nearbyint(x)); break;
    case LUMA_OP_SIN: UNARY_LOOP(sin(x)); break;
    case LUMA_OP_COS: UNARY_LOOP(cos(x)); break;
    case LUMA_OP_TANH: UNARY_LOOP(tanh(x)); break;
    case LUMA_OP_SIGMOID: UNARY_LOOP(luma_sigmoid(x)); break;
    case LUMA_OP_SOFTPLUS: UNARY_LOOP(softplus(x)); break;
    case LUMA_OP_RELU: UNARY_LOOP(x > 0 ? x : (isnan(x) ? x : 0.0)); break;
    case LUMA_OP_ISNAN: UNARY_LOOP((double)(isnan(x) != 0)); break;
    case LUMA_OP_ISFINITE: UNARY_LOOP((double)(isfinite(x) != 0)); break;
    case LUMA_OP_UNARY_COUNT: break;
  }
}

/* ------------------------------------------------- threaded element-wise */

/* Elements per chunk: large enough to hide the hand-off (a few
 * microseconds), small enough that an interrupt lands within well under a
 * millisecond of work. */
#define ELEMENTS_PER_CHUNK 32768
/* Below this many elements the loop runs in one chunk on the caller. */
#define PARALLEL_MIN_ELEMENTS 65536

/* An element-wise loop cut along the longer dimension of out: chunk
 * [begin, end) is a band of rows (or of columns for a single wide row), a
 * sub-view of each operand, so a contiguous operand stays contiguous and
 * every element is computed exactly as in one serial pass. */
typedef struct ElementwiseJob {
  int binary, by_rows;
  int op;
  luma_Mat a, b, out;
} ElementwiseJob;

luma_Mat luma_mat_band(const luma_Mat *m, int by_rows, int64_t begin, int64_t end) {
  luma_Mat v = *m;
  if (by_rows) {
    v.data += begin * m->rs;
    v.rows = end - begin;
  } else {
    v.data += begin * m->cs;
    v.cols = end - begin;
  }
  return v;
}

static void elementwise_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const ElementwiseJob *job = ctx;
  luma_Mat a = luma_mat_band(&job->a, job->by_rows, begin, end);
  luma_Mat out = luma_mat_band(&job->out, job->by_rows, begin, end);
  if (job->binary) {
    luma_Mat b = luma_mat_band(&job->b, job->by_rows, begin, end);
    binary_serial((luma_BinaryOp)job->op, &a, &b, &out);
  } else {
    unary_serial((luma_UnaryOp)job->op, &a, &out);
  }
}

int luma_mat_band_loop(int64_t rows, int64_t cols, luma_Loop *loop) {
  int by_rows = rows > 1 || cols == 1;
  int64_t extent = by_rows ? rows : cols, width = by_rows ? cols : 1;
  int64_t grain = extent;
  if (rows * cols >= PARALLEL_MIN_ELEMENTS) {
    grain = width > 0 ? ELEMENTS_PER_CHUNK / width : extent;
    if (grain < 1) grain = 1;
  }
  loop->n = extent;
  loop->grain = grain;
  loop->cost = (uint64_t)(width > 0 ? width : 1);
  loop->calls_blas = 0;
  return by_rows;
}

static luma_LoopStatus elementwise(luma_Threads *t, ElementwiseJob *job) {
  int64_t rows = job->out.rows, cols = job->out.cols;
  if (rows == 0 || cols == 0) return luma_work_status(t); /* not a loop over 2^31 empty rows */
  if (t == NULL) { /* unmetered (small, charged by the caller): one band of all rows */
    job->by_rows = 1;
    elementwise_chunk(job, 0, 0, rows);
    return LUMA_LOOP_DONE;
  }
  luma_Loop loop = {0, 0, 0, 0, elementwise_chunk, job};
  job->by_rows = luma_mat_band_loop(rows, cols, &loop);
  return luma_parallel_for(t, &loop);
}

luma_LoopStatus luma_mat_binary(luma_Threads *t, luma_BinaryOp op, const luma_Mat *a,
                                const luma_Mat *b, luma_Mat *out) {
  ElementwiseJob job = {1, 0, (int)op, *a, *b, *out};
  return elementwise(t, &job);
}

luma_LoopStatus luma_mat_unary(luma_Threads *t, luma_UnaryOp op, const luma_Mat *a,
                               luma_Mat *out) {
  ElementwiseJob job = {0, 0, (int)op, *a, *a, *out};
  return elementwise(t, &job);
}

void luma_mat_clamp(const luma_Mat *a, double lo, double hi, luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return;
  UNARY_LOOP(isnan(x) ? x : (x < lo ? lo : (x > hi ? hi : x)));
}

void luma_mat_scale(const luma_Mat *a, double alpha, luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return;
  UNARY_LOOP(alpha * x);
}

int luma_mat_equal(const luma_Mat *a, const luma_Mat *b) {
  if (a->rows != b->rows || a->cols != b->cols) return 0;
  for (int64_t i = 0; i < a->rows; i++)
    for (int64_t j = 0; j < a->cols; j++)
      if (!(LUMA_AT(a, i, j) == LUMA_AT(b, i, j))) return 0;
  return 1;
}

void luma_mat_where(const luma_Mat *mask, const luma_Mat *a, const luma_Mat *b, luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return;
  for (int64_t i = 0; i < out->rows; i++)
    for (int64_t j = 0; j < out->cols; j++)
      LUMA_AT(out, i, j) = LUMA_AT(mask, i, j) != 0 ? LUMA_AT(a, i, j) : LUMA_AT(b, i, j);
}

/* ---------------------------------------------------------------- product */

/* How BLAS reads m in row-major terms: as is (NoTrans, lda = rs) or as the
 * transpose of a row-major matrix (Trans, lda = cs).  Returns 0 when
 * neither works. */
static int blas_layout(const luma_Mat *m, enum CBLAS_TRANSPOSE *trans, int64_t *ld) {
  int64_t rows = m->rows > 1 ? m->rows : 1, cols = m->cols > 1 ? m->cols : 1;
  if ((m->cs == 1 || m->cols <= 1) && (m->rs >= cols || m->rows <= 1)) {
    *trans = CblasNoTrans;
    *ld = m->rows <= 1 ? cols : m->rs;
    return 1;
  }
  if ((m->rs == 1 || m->rows <= 1) && (m->cs >= rows || m->cols <= 1)) {
    *trans = CblasTrans;
    *ld = m->cols <= 1 ? rows : m->cs;
    return 1;
  }
  return 0;
}

int luma_mat_blas_ready(const luma_Mat *m) {
  enum CBLAS_TRANSPOSE t;
  int64_t ld;
  return blas_layout(m, &t, &ld);
}

void luma_mat_gemm(double alpha, const luma_Mat *a, const luma_Mat *b, double beta, luma_Mat *out) {
  int64_t m = a->rows, k = a->cols, n = b->cols;
  if (m == 0 || n == 0) return;
  if (k == 0) {
    if (beta == 0) luma_mat_fill(out, 0.0);
    else luma_mat_scale(out, beta, out);
    return;
  }
  enum CBLAS_TRANSPOSE ta, tb, to;
  int64_t lda, ldb, ldo;
  blas_layout(a, &ta, &lda);
  blas_layout(b, &tb, &ldb);
  blas_layout(out, &to, &ldo);
  if (to == CblasNoTrans) {
    cblas_dgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, alpha, a->data, (int)lda,
                b->data, (int)ldb, beta, out->data, (int)ldo);
  } else {
    /* out is stored transposed: compute out^T = b^T a^T instead. */
    enum CBLAS_TRANSPOSE fa = ta == CblasNoTrans ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE fb = tb == CblasNoTrans ? CblasTrans : CblasNoTrans;
    cblas_dgemm(CblasRowMajor, fb, fa, (int)n, (int)m, (int)k, alpha, b->data, (int)ldb,
                a->data, (int)lda, beta, out->data, (int)ldo);
  }
}

void luma_mat_matmul(const luma_Mat *a, const luma_Mat *b, luma_Mat *out) {
  luma_mat_gemm(1.0, a, b, 0.0, out);
}

void luma_mat_matmul_small(const luma_Mat *a, const luma_Mat *b, luma_Mat *out) {
  int64_t inner = a->cols, ars = a->rs, acs = a->cs, brs = b->rs, bcs = b->cs;
  for (int64_t i = 0; i < out->rows; i++) {
    const double *ai = a->data + i * ars;
    double *oi = out->data + i * out->rs;
    for (int64_t j = 0; j < out->cols; j++) {
      const double *pa = ai, *pb = b->data + j * bcs;
      double sum = 0.0;
      for (int64_t k = 0; k < inner; k++, pa += acs, pb += brs) sum += *pa * *pb;
      oi[j * out->cs] = sum;
    }
  }
}
