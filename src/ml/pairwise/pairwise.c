/*
 * pairwise.c - distance and kernel matrices between rows (see pairwise.h).
 *
 * The BLAS family computes the Gram matrix G = X Y^T, then "finishes" it
 * into the result using per-row values (squared norms or inverse norms).
 * Both happen band by band: a band of BAND rows of X against panels of Y
 * rows, one dgemm per panel, finished while the panel is in cache.  The
 * bands are the chunks of a parallel loop (core/parallel.h) and write
 * disjoint parts of the result, so any thread count gives the same bits.
 * In the self case (Y is X) a band computes only the upper triangle (half
 * the flops, like dsyrk) and mirrors each finished tile, so both halves
 * are bit-identical.
 *
 * The loop family (Manhattan, Chebyshev, Minkowski) compares one row of X
 * with a block of Y rows that stays in L1; the blocks are the chunks of a
 * parallel loop.  Each pair is summed in a fixed order that does not
 * depend on its position, so the self case computes a pair once and
 * mirrors it.
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>

#include <cblas.h>

#include "linalg/lapack.h"
#include "pairwise/pairwise.h"
#include "core/vecmath.h"

/* Square tiles of the self-case mirroring: the tile read and its mirror
 * (128 KB each) stay in L2 (measured: 128 beat 64 and 32 on the 5000 x
 * 5000 benchmark). */
#define TILE 128
/* Rows of X per band (one chunk of the parallel loop) and columns of the
 * result per dgemm panel: a 128 x 1024 panel (1 MB) is finished while it
 * is still in L2/L3. */
#define BAND TILE
#define PANEL 1024
/* Bytes of Y rows compared against each X row in the loop family. */
#define LOOP_BLOCK_BYTES 16384

/* --------------------------------------------------------------- layout */

/* How BLAS reads m in row-major terms: as is (NoTrans) or as the transpose
 * of a row-major matrix (Trans).  0 when neither works or the leading
 * dimension does not fit a BLAS int. */
static int blas_layout(const luma_Mat *m, enum CBLAS_TRANSPOSE *trans, int *ld) {
  int64_t rows = m->rows > 1 ? m->rows : 1, cols = m->cols > 1 ? m->cols : 1, l;
  if ((m->cs == 1 || m->cols <= 1) && (m->rs >= cols || m->rows <= 1)) {
    *trans = CblasNoTrans;
    l = m->rows <= 1 ? cols : m->rs;
  } else if ((m->rs == 1 || m->rows <= 1) && (m->cs >= rows || m->cols <= 1)) {
    *trans = CblasTrans;
    l = m->cols <= 1 ? rows : m->cs;
  } else {
    return 0;
  }
  if (l > INT_MAX) return 0;
  *ld = (int)l;
  return 1;
}

/* Whether BLAS can write m as a row-major matrix; if so, normalizes its
 * strides (cs 1, rs the leading dimension). */
static int row_major_target(luma_Mat *m) {
  enum CBLAS_TRANSPOSE t;
  int ld;
  if (!blas_layout(m, &t, &ld) || t != CblasNoTrans) return 0;
  m->rs = ld;
  m->cs = 1;
  return 1;
}

static int unit_column_stride(const luma_Mat *m) { return m->cs == 1 || m->cols <= 1; }

/* ----------------------------------------------------------------- plan */

/* Where one computation reads and writes.  Built twice: once without work
 * to count the scratch, once to lay it out, taking the same amounts. */
typedef struct Plan {
  luma_Mat x, y;    /* operands as read; y is x in the self case */
  luma_Mat target;  /* receives the result; row-major for the BLAS family */
  luma_Mat out;     /* the caller's out, or its transpose (see plan) */
  int copy_back;    /* target is scratch: copy into out at the end */
  double *a, *b;    /* per-row values of x and of y (b is a when self) */
} Plan;

static double *take(double *work, size_t *used, size_t count) {
  double *p = work ? work + *used : NULL;
  *used += count;
  return p;
}

/* m itself when ready, else a contiguous copy in work. */
static luma_Mat readable(const luma_Mat *m, int ready, double *work, size_t *used) {
  if (ready) return *m;
  double *buf = take(work, used, (size_t)(m->rows * m->cols));
  luma_Mat c = luma_mat_dense(buf, m->rows, m->cols);
  if (buf) luma_mat_copy(&c, m);
  return c;
}

static int blas_ready(const luma_Mat *m) {
  enum CBLAS_TRANSPOSE t;
  int ld;
  return blas_layout(m, &t, &ld);
}

static size_t plan(int use_blas, const luma_Mat *x, const luma_Mat *y, const luma_Mat *out,
                   double *work, Plan *p) {
  size_t used = 0;
  const luma_Mat *px = x, *py = y;
  p->out = *out;
  p->copy_back = 0;
  if (use_blas) {
    /* An out stored transposed receives D(y, x)^T = D(x, y): the finishing
     * formulas are symmetric in the two rows. */
    luma_Mat t = luma_mat_transpose(out);
    if (!row_major_target(&p->out) && row_major_target(&t)) {
      p->out = t;
      if (y) {
        px = y;
        py = x;
      }
    }
  }
  p->x = readable(px, use_blas ? blas_ready(px) : unit_column_stride(px), work, &used);
  p->y = py ? readable(py, use_blas ? blas_ready(py) : unit_column_stride(py), work, &used)
            : p->x;
  p->target = p->out;
  if (use_blas && !row_major_target(&p->target)) {
    double *buf = take(work, &used, (size_t)(p->out.rows * p->out.cols));
    p->target = luma_mat_dense(buf, p->out.rows, p->out.cols);
    p->copy_back = 1;
  }
  p->a = take(work, &used, (size_t)p->x.rows);
  p->b = py ? take(work, &used, (size_t)p->y.rows) : p->a;
  return used;
}

/* ------------------------------------------------------------ per row */

static double row_sqnorm(const luma_Mat *m, int64_t i) {
  const double *r = m->data + i * m->rs;
  double s = 0;
  for (int64_t k = 0; k < m->cols; k++) s += r[k * m->cs] * r[k * m->cs];
  return s;
}

/* Row values for the finishing pass: squared norms, or inverse norms (0
 * for a zero row, so that it has cosine similarity 0 with everything, as
 * scikit-learn's normalize leaves zero rows at zero). */
static void row_values(const luma_Mat *m, int inverse_norm, double *v) {
  for (int64_t i = 0; i < m->rows; i++) {
    double s = row_sqnorm(m, i);
    v[i] = !inverse_norm ? s : s == 0 ? 0 : 1 / sqrt(s);
  }
}

static int row_has_nan(const luma_Mat *m, int64_t i) {
  return isnan(row_sqnorm(m, i));
}

/* ------------------------------------------------------------- the Gram */

/* target[i0:i1, j0:j1] = x[i0:i1] y[j0:j1]^T. */
static void gram_block(const Plan *p, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  const luma_Mat *c = &p->target;
  int64_t d = p->x.cols;
  double *cij = c->data + i0 * c->rs + j0;
  if (d == 0) {
    for (int64_t i = 0; i < i1 - i0; i++)
      for (int64_t j = 0; j < j1 - j0; j++) cij[i * c->rs + j] = 0;
    return;
  }
  enum CBLAS_TRANSPOSE tx, ty;
  int ldx, ldy;
  blas_layout(&p->x, &tx, &ldx);
  blas_layout(&p->y, &ty, &ldy);
  /* Row i of a BLAS-ready operand starts at data + i * rs in either layout. */
  cblas_dgemm(CblasRowMajor, tx, ty == CblasNoTrans ? CblasTrans : CblasNoTrans, (int)(i1 - i0),
              (int)(j1 - j0), (int)d, 1.0, p->x.data + i0 * p->x.rs, ldx,
              p->y.data + j0 * p->y.rs, ldy, 0.0, cij, (int)c->rs);
}

/* ------------------------------------------------------- finishing pass */

typedef enum Finish {
  FIN_SQDIST,   /* a, b squared norms */
  FIN_DIST,
  FIN_COS_DIST, /* a, b inverse norms */
  FIN_COS_SIM,
  FIN_LINEAR,
  FIN_POLY,
  FIN_SIGMOID,
  FIN_RBF,      /* a, b squared norms */
  FIN_RQ
} Finish;

typedef struct Fin {
  Finish op;
  double gamma, coef0, alpha, rq_scale;
  int degree;
} Fin;

/* |x|^2 + |y|^2 - 2 x.y loses digits to cancellation when x and y are close
 * compared with their norms; a negative result is such an error (NaN
 * passes through). */
static inline double sqdist(double a, double b, double g) {
  double v = a + b - 2 * g;
  return v < 0 ? 0 : v;
}

static inline double clamp_cosine_distance(double v) {
  return v < 0 ? 0 : v > 2 ? 2 : v;
}

/* By squaring: exact for small degrees, no libm call. */
static double ipow(double base, int e) {
  double r = 1;
  /* audit-loops: one step per bit of the exponent */
  for (;;) {
    if (e & 1) r *= base;
    e >>= 1;
    if (!e) return r;
    base *= base;
  }
}

/* Rows i0..i1-1, columns j0..j1-1 of c (only j > i when upper), from the
 * Gram values there. */
static void finish_block(const Fin *f, const luma_Mat *c, int64_t i0, int64_t i1, int64_t j0,
                         int64_t j1, int upper, const double *a, const double *b) {
#define FOR_BLOCK(EXPR)                                                 \
  for (int64_t i = i0; i < i1; i++) {                                   \
    double *row = c->data + i * c->rs;                                  \
    const double ai = a[i];                                             \
    (void)ai;                                                           \
    for (int64_t j = upper && i + 1 > j0 ? i + 1 : j0; j < j1; j++) {   \
      const double g = row[j], bj = b[j];                               \
      (void)bj;                                                         \
      row[j] = (EXPR);                                                  \
    }                                                                   \
  }
  switch (f->op) {
  case FIN_SQDIST: FOR_BLOCK(sqdist(ai, bj, g)) break;
  case FIN_DIST: FOR_BLOCK(sqrt(sqdist(ai, bj, g))) break;
  case FIN_COS_DIST: FOR_BLOCK(clamp_cosine_distance(1 - g * ai * bj)) break;
  case FIN_COS_SIM: FOR_BLOCK(g * ai * bj) break;
  case FIN_LINEAR: break;
  case FIN_POLY: FOR_BLOCK(ipow(f->gamma * g + f->coef0, f->degree)) break;
  case FIN_SIGMOID: FOR_BLOCK(tanh(f->gamma * g + f->coef0)) break;
  case FIN_RQ: FOR_BLOCK(pow(1 + sqdist(ai, bj, g) * f->rq_scale, -f->alpha)) break;
  case FIN_RBF:
    FOR_BLOCK(-f->gamma * sqdist(ai, bj, g))
    for (int64_t i = i0; i < i1; i++) {
      int64_t js = upper && i + 1 > j0 ? i + 1 : j0;
      if (js < j1) luma_vec_apply(LUMA_VEC_EXP, c->data + i * c->rs + js,
                                  c->data + i * c->rs + js, j1 - js);
    }
    break;
  }
#undef FOR_BLOCK
}

/* The self-case diagonal: the exact value of a point with itself, NaN
 * for a row holding a NaN (a is then NaN); Gram-based kernels use G_ii. */
static void finish_diagonal(const Fin *f, const luma_Mat *c, const double *a) {
  for (int64_t i = 0; i < c->rows; i++) {
    double *cii = c->data + i * c->rs + i;
    switch (f->op) {
    case FIN_SQDIST:
    case FIN_DIST:
    case FIN_COS_DIST: *cii = isnan(a[i]) ? NAN : 0; break;
    case FIN_RBF:
    case FIN_RQ: *cii = isnan(a[i]) ? NAN : 1; break;
    case FIN_COS_SIM: *cii = isnan(a[i]) ? NAN : a[i] > 0 ? 1 : 0; break;
    case FIN_LINEAR:
    case FIN_POLY:
    case FIN_SIGMOID: finish_block(f, c, i, i + 1, i, i + 1, 0, a, a); break;
    }
  }
}

/* Copies the finished upper part of tile [i0, i1) x [j0, j1) into the
 * lower triangle: contiguous writes, strided reads from the tile still in
 * cache.  Band i0 writes rows j >= i0 only in columns [i0, i1), which no
 * other band writes. */
static void mirror_tile(const luma_Mat *c, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  for (int64_t j = j0; j < j1; j++)
    for (int64_t i = i0; i < (j < i1 ? j : i1); i++)
      c->data[j * c->rs + i] = c->data[i * c->rs + j];
}

typedef struct BlasJob {
  const Fin *f;
  const Plan *p;
  int self;
} BlasJob;

/* One chunk: rows [i0, i1) of the result (self: their upper part, mirrored). */
static void blas_band(void *ctx, int64_t k, int64_t i0, int64_t i1) {
  (void)k;
  const BlasJob *job = ctx;
  const Plan *p = job->p;
  const luma_Mat *c = &p->target;
  int64_t m = c->cols;
  for (int64_t j0 = job->self ? i0 : 0; j0 < m; j0 += PANEL) {
    int64_t j1 = j0 + PANEL < m ? j0 + PANEL : m;
    gram_block(p, i0, i1, j0, j1);
    if (!job->self) {
      finish_block(job->f, c, i0, i1, j0, j1, 0, p->a, p->b);
      continue;
    }
    for (int64_t t0 = j0; t0 < j1; t0 += TILE) {
      int64_t t1 = t0 + TILE < j1 ? t0 + TILE : j1;
      finish_block(job->f, c, i0, i1, t0, t1, 1, p->a, p->a);
      mirror_tile(c, i0, i1, t0, t1);
    }
  }
}

/* Runs the BLAS family end to end. */
static luma_LoopStatus blas_family(luma_Threads *t, const Fin *f, int inverse_norms,
                                   const luma_Mat *x, const luma_Mat *y, luma_Mat *out,
                                   double *work) {
  Plan p;
  plan(1, x, y, out, work, &p);
  int self = y == NULL;
  row_values(&p.x, inverse_norms, p.a);
  if (!self) row_values(&p.y, inverse_norms, p.b);
  BlasJob job = {f, &p, self};
  int64_t n = p.target.rows, m = p.target.cols;
  if (m == 0) return LUMA_LOOP_DONE;
  luma_Loop loop = {n, BAND, (uint64_t)m * (uint64_t)(p.x.cols + 1), 1, blas_band, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  if (self) finish_diagonal(f, &p.target, p.a);
  if (p.copy_back) luma_mat_copy(&p.out, &p.target);
  return LUMA_LOOP_DONE;
}

/* -------------------------------------------------------- loop family */

typedef double (*RowDistance)(const double *u, const double *v, int64_t d, double p);

/* Four partial sums: independent dependency chains, and the same order of
 * additions for a pair wherever it sits. */
static double manhattan(const double *u, const double *v, int64_t d, double p) {
  (void)p;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= d; k += 4) {
    s0 += fabs(u[k] - v[k]);
    s1 += fabs(u[k + 1] - v[k + 1]);
    s2 += fabs(u[k + 2] - v[k + 2]);
    s3 += fabs(u[k + 3] - v[k + 3]);
  }
  for (; k < d; k++) s0 += fabs(u[k] - v[k]);
  return (s0 + s1) + (s2 + s3);
}

static double euclidean_direct(const double *u, const double *v, int64_t d, double p) {
  (void)p;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t k = 0;
  for (; k + 4 <= d; k += 4) {
    double e0 = u[k] - v[k], e1 = u[k + 1] - v[k + 1], e2 = u[k + 2] - v[k + 2],
           e3 = u[k + 3] - v[k + 3];
    s0 += e0 * e0;
    s1 += e1 * e1;
    s2 += e2 * e2;
    s3 += e3 * e3;
  }
  for (; k < d; k++) s0 += (u[k] - v[k]) * (u[k] - v[k]);
  return sqrt((s0 + s1) + (s2 + s3));
}

/* fmax would drop a NaN: track it separately. */
static double chebyshev(const double *u, const double *v, int64_t d, double p) {
  (void)p;
  double m = 0;
  int has_nan = 0;
  for (int64_t k = 0; k < d; k++) {
    double e = fabs(u[k] - v[k]);
    has_nan |= e != e;
    m = e > m ? e : m;
  }
  return has_nan ? NAN : m;
}

static double minkowski(const double *u, const double *v, int64_t d, double p) {
  double s = 0;
  for (int64_t k = 0; k < d; k++) s += pow(fabs(u[k] - v[k]), p);
  return pow(s, 1 / p);
}

typedef struct LoopJob {
  RowDistance dist;
  double p;
  const Plan *pl;
  luma_Mat *out;
  int self;
} LoopJob;

/* One chunk: result columns [j0, j1) (self: with their mirrored rows). */
static void loop_block(void *ctx, int64_t k, int64_t j0, int64_t j1) {
  (void)k;
  const LoopJob *job = ctx;
  const luma_Mat *px = &job->pl->x, *py = &job->pl->y;
  luma_Mat *out = job->out;
  int64_t d = px->cols;
  int64_t i_end = job->self ? j1 - 1 : px->rows;
  for (int64_t i = 0; i < i_end; i++) {
    const double *u = px->data + i * px->rs;
    for (int64_t j = job->self && i + 1 > j0 ? i + 1 : j0; j < j1; j++) {
      double v = job->dist(u, py->data + j * py->rs, d, job->p);
      LUMA_AT(out, i, j) = v;
      if (job->self) LUMA_AT(out, j, i) = v;
    }
  }
}

static luma_LoopStatus loop_family(luma_Threads *t, RowDistance dist, double p,
                                   const luma_Mat *x, const luma_Mat *y, luma_Mat *out,
                                   double *work) {
  Plan pl;
  plan(0, x, y, out, work, &pl);
  int self = y == NULL;
  const luma_Mat *px = &pl.x;
  int64_t n = px->rows, m = pl.y.rows, d = px->cols;
  int64_t block = d > 0 ? LOOP_BLOCK_BYTES / (d * (int64_t)sizeof(double)) : 256;
  if (block < 1) block = 1;
  if (block > 256) block = 256;
  LoopJob job = {dist, p, &pl, out, self};
  luma_Loop loop = {m, block, (uint64_t)n * (uint64_t)(d + 1), 0, loop_block, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  if (self)
    for (int64_t i = 0; i < n; i++) LUMA_AT(out, i, i) = row_has_nan(px, i) ? NAN : 0;
  return LUMA_LOOP_DONE;
}

/* out = exp(scale * out), through libmvec along contiguous rows. */
static void exp_scaled(luma_Mat *out, double scale) {
  for (int64_t i = 0; i < out->rows; i++) {
    if (out->cs == 1) {
      double *row = out->data + i * out->rs;
      for (int64_t j = 0; j < out->cols; j++) row[j] *= scale;
      luma_vec_apply(LUMA_VEC_EXP, row, row, out->cols);
    } else {
      for (int64_t j = 0; j < out->cols; j++) LUMA_AT(out, i, j) = exp(scale * LUMA_AT(out, i, j));
    }
  }
}

/* ---------------------------------------------------------------- API */

static int metric_uses_blas(luma_Metric metric) {
  return metric == LUMA_METRIC_EUCLIDEAN || metric == LUMA_METRIC_SQEUCLIDEAN ||
         metric == LUMA_METRIC_COSINE;
}

size_t luma_pairwise_distances_work(luma_Metric metric, const luma_Mat *x, const luma_Mat *y,
                                    const luma_Mat *out) {
  Plan p;
  return plan(metric_uses_blas(metric), x, y, out, NULL, &p);
}

size_t luma_pairwise_kernel_work(luma_Kernel kernel, const luma_Mat *x, const luma_Mat *y,
                                 const luma_Mat *out) {
  Plan p;
  return plan(kernel != LUMA_KERNEL_LAPLACIAN, x, y, out, NULL, &p);
}

luma_LoopStatus luma_pairwise_distances(luma_Threads *t, luma_Metric metric, double p,
                                        const luma_Mat *x, const luma_Mat *y, luma_Mat *out,
                                        double *work) {
  Fin f = {FIN_DIST, 0, 0, 0, 0, 0};
  switch (metric) {
  case LUMA_METRIC_EUCLIDEAN: return blas_family(t, &f, 0, x, y, out, work);
  case LUMA_METRIC_SQEUCLIDEAN:
    f.op = FIN_SQDIST;
    return blas_family(t, &f, 0, x, y, out, work);
  case LUMA_METRIC_COSINE:
    f.op = FIN_COS_DIST;
    return blas_family(t, &f, 1, x, y, out, work);
  case LUMA_METRIC_MANHATTAN: return loop_family(t, manhattan, 1, x, y, out, work);
  case LUMA_METRIC_CHEBYSHEV: return loop_family(t, chebyshev, INFINITY, x, y, out, work);
  case LUMA_METRIC_MINKOWSKI:
    /* The special exponents have exact (and faster) forms; p = 2 here is
     * the direct sum of squares, free of the BLAS form's cancellation. */
    return loop_family(t,
                       p == 1       ? manhattan
                       : p == 2     ? euclidean_direct
                       : isinf(p)   ? chebyshev
                                    : minkowski,
                       p, x, y, out, work);
  }
  return LUMA_LOOP_DONE;
}

luma_LoopStatus luma_pairwise_kernel(luma_Threads *t, luma_Kernel kernel,
                                     const luma_KernelParams *kp, const luma_Mat *x,
                                     const luma_Mat *y, luma_Mat *out, double *work) {
  Fin f = {FIN_LINEAR, kp->gamma, kp->coef0, kp->alpha, 0, kp->degree};
  int inverse_norms = 0;
  switch (kernel) {
  case LUMA_KERNEL_LINEAR: break;
  case LUMA_KERNEL_POLYNOMIAL: f.op = FIN_POLY; break;
  case LUMA_KERNEL_SIGMOID: f.op = FIN_SIGMOID; break;
  case LUMA_KERNEL_RBF: f.op = FIN_RBF; break;
  case LUMA_KERNEL_RATIONAL_QUADRATIC:
    f.op = FIN_RQ;
    f.rq_scale = 1 / (2 * kp->alpha * kp->length_scale * kp->length_scale);
    break;
  case LUMA_KERNEL_COSINE:
    f.op = FIN_COS_SIM;
    inverse_norms = 1;
    break;
  case LUMA_KERNEL_LAPLACIAN: {
    luma_LoopStatus status = loop_family(t, manhattan, 1, x, y, out, work);
    if (status == LUMA_LOOP_DONE) exp_scaled(out, -kp->gamma);
    return status;
  }
  }
  return blas_family(t, &f, inverse_norms, x, y, out, work);
}

int luma_pairwise_finish_gram(int is_kernel, int which, const luma_KernelParams *kp, luma_Mat *out,
                              const double *a, const double *b, int self) {
  Fin f = {FIN_LINEAR, 0, 0, 0, 0, 0};
  if (!is_kernel) {
    switch ((luma_Metric)which) {
    case LUMA_METRIC_EUCLIDEAN: f.op = FIN_DIST; break;
    case LUMA_METRIC_SQEUCLIDEAN: f.op = FIN_SQDIST; break;
    case LUMA_METRIC_COSINE: f.op = FIN_COS_DIST; break;
    default: return -1;
    }
  } else {
    f.gamma = kp->gamma;
    f.coef0 = kp->coef0;
    f.alpha = kp->alpha;
    f.degree = kp->degree;
    switch ((luma_Kernel)which) {
    case LUMA_KERNEL_LINEAR: break;
    case LUMA_KERNEL_POLYNOMIAL: f.op = FIN_POLY; break;
    case LUMA_KERNEL_SIGMOID: f.op = FIN_SIGMOID; break;
    case LUMA_KERNEL_RBF: f.op = FIN_RBF; break;
    case LUMA_KERNEL_RATIONAL_QUADRATIC:
      f.op = FIN_RQ;
      f.rq_scale = 1 / (2 * kp->alpha * kp->length_scale * kp->length_scale);
      break;
    case LUMA_KERNEL_COSINE: f.op = FIN_COS_SIM; break;
    default: return -1;
    }
  }
  if (!self) {
    finish_block(&f, out, 0, out->rows, 0, out->cols, 0, a, b);
    return 0;
  }
  finish_block(&f, out, 0, out->rows, 0, out->cols, 1, a, a);
  mirror_tile(out, 0, out->rows, 0, out->cols);
  finish_diagonal(&f, out, a);
  return 0;
}

int luma_pairwise_gram_inverse_norms(int is_kernel, int which) {
  return is_kernel ? which == LUMA_KERNEL_COSINE : which == LUMA_METRIC_COSINE;
}

void luma_pairwise_kernel_diag(luma_Kernel kernel, const luma_KernelParams *kp, const luma_Mat *x,
                               luma_Mat *out) {
  for (int64_t i = 0; i < x->rows; i++) {
    double s = row_sqnorm(x, i), v = 0;
    switch (kernel) {
    case LUMA_KERNEL_LINEAR: v = s; break;
    case LUMA_KERNEL_POLYNOMIAL: v = ipow(kp->gamma * s + kp->coef0, kp->degree); break;
    case LUMA_KERNEL_SIGMOID: v = tanh(kp->gamma * s + kp->coef0); break;
    case LUMA_KERNEL_RBF:
    case LUMA_KERNEL_LAPLACIAN:
    case LUMA_KERNEL_RATIONAL_QUADRATIC: v = isnan(s) ? NAN : 1; break;
    case LUMA_KERNEL_COSINE: v = isnan(s) ? NAN : s > 0 ? 1 : 0; break;
    }
    LUMA_AT(out, i, 0) = v;
  }
}

/* ------------------------------------------------------------ Mahalanobis */

int luma_pairwise_cholesky(const luma_Mat *m, double *factor) {
  int64_t d = m->rows;
  double largest = 0;
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = 0; j < d; j++) {
      double v = LUMA_AT(m, i, j);
      if (!isfinite(v)) return LUMA_PAIRWISE_NOT_FINITE;
      if (fabs(v) > largest) largest = fabs(v);
    }
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = i + 1; j < d; j++)
      if (fabs(LUMA_AT(m, i, j) - LUMA_AT(m, j, i)) > 1e-10 * largest)
        return LUMA_PAIRWISE_NOT_SYMMETRIC;
  if (d == 0) return LUMA_PAIRWISE_OK;
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = 0; j < d; j++) factor[i + j * d] = LUMA_AT(m, i, j);
  lapack_int n = (lapack_int)d, info = 0;
  dpotrf_("L", &n, factor, &n, &info, 1);
  return info == 0 ? LUMA_PAIRWISE_OK : LUMA_PAIRWISE_NOT_POSITIVE_DEFINITE;
}

void luma_pairwise_whiten(const double *factor, int from_inverse, const luma_Mat *x, luma_Mat *z) {
  luma_mat_copy(z, x);
  if (x->rows == 0 || x->cols == 0) return;
  /* The row-major n x d buffer of z is the column-major d x n matrix Z^T,
   * whose columns are the rows to transform. */
  lapack_int d = (lapack_int)x->cols, n = (lapack_int)x->rows, info = 0;
  if (from_inverse)
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, d, n, 1.0, factor,
                d, z->data, d);
  else
    dtrtrs_("L", "N", "N", &d, &n, factor, &d, z->data, &d, &info, 1, 1, 1);
}
