/*
 * pairwise.c - distance and kernel matrices between rows (see pairwise.h).
 *
 * The BLAS family computes the Gram matrix G = X Y^T (dsyrk when Y is X:
 * half the flops, and the result is symmetric by construction), then one
 * "finishing" pass turns G into the result using per-row values (squared
 * norms or inverse norms).  In the self case that pass walks the upper
 * triangle tile by tile and mirrors each tile, so both halves are
 * bit-identical and the lower triangle, which dsyrk leaves untouched, is
 * written while the tile is still in cache.
 *
 * The loop family (Manhattan, Chebyshev, Minkowski) compares one row of X
 * with a block of Y rows that stays in L1; each pair is summed in a fixed
 * order that does not depend on its position, so the self case computes a
 * pair once and mirrors it.
 */
#include <limits.h>
#include <math.h>

#include <cblas.h>

#include "linalg/lapack.h"
#include "pairwise/pairwise.h"
#include "core/vecmath.h"

/* Square tiles of the self-case finishing pass: the tile read and its
 * mirror (128 KB each) stay in L2 (measured: 128 beat 64 and 32 on the
 * 5000 x 5000 benchmark). */
#define TILE 128
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

/* target = x y^T (self: upper triangle of x x^T only). */
static void gram(const Plan *p, int self) {
  const luma_Mat *c = &p->target;
  int64_t n = c->rows, m = c->cols, d = p->x.cols;
  if (n == 0 || m == 0) return;
  if (d == 0) {
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < m; j++) c->data[i * c->rs + j] = 0;
    return;
  }
  enum CBLAS_TRANSPOSE tx, ty;
  int ldx, ldy;
  blas_layout(&p->x, &tx, &ldx);
  if (self) {
    cblas_dsyrk(CblasRowMajor, CblasUpper, tx, (int)n, (int)d, 1.0, p->x.data, ldx, 0.0,
                c->data, (int)c->rs);
    return;
  }
  blas_layout(&p->y, &ty, &ldy);
  cblas_dgemm(CblasRowMajor, tx, ty == CblasNoTrans ? CblasTrans : CblasNoTrans, (int)n, (int)m,
              (int)d, 1.0, p->x.data, ldx, p->y.data, ldy, 0.0, c->data, (int)c->rs);
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

static void finish_self(const Fin *f, const luma_Mat *c, const double *a) {
  int64_t n = c->rows;
  for (int64_t i0 = 0; i0 < n; i0 += TILE) {
    int64_t i1 = i0 + TILE < n ? i0 + TILE : n;
    for (int64_t j0 = i0; j0 < n; j0 += TILE) {
      int64_t j1 = j0 + TILE < n ? j0 + TILE : n;
      finish_block(f, c, i0, i1, j0, j1, 1, a, a);
      /* Contiguous writes, strided reads from the tile still in cache. */
      for (int64_t j = j0; j < j1; j++)
        for (int64_t i = i0; i < (j < i1 ? j : i1); i++)
          c->data[j * c->rs + i] = c->data[i * c->rs + j];
    }
  }
  finish_diagonal(f, c, a);
}

/* Runs the BLAS family end to end. */
static void blas_family(const Fin *f, int inverse_norms, const luma_Mat *x, const luma_Mat *y,
                        luma_Mat *out, double *work) {
  Plan p;
  plan(1, x, y, out, work, &p);
  int self = y == NULL;
  row_values(&p.x, inverse_norms, p.a);
  if (!self) row_values(&p.y, inverse_norms, p.b);
  gram(&p, self);
  if (self)
    finish_self(f, &p.target, p.a);
  else
    finish_block(f, &p.target, 0, p.target.rows, 0, p.target.cols, 0, p.a, p.b);
  if (p.copy_back) luma_mat_copy(&p.out, &p.target);
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

static void loop_family(RowDistance dist, double p, const luma_Mat *x, const luma_Mat *y,
                        luma_Mat *out, double *work) {
  Plan pl;
  plan(0, x, y, out, work, &pl);
  int self = y == NULL;
  const luma_Mat *px = &pl.x, *py = &pl.y;
  int64_t n = px->rows, m = py->rows, d = px->cols;
  int64_t block = d > 0 ? LOOP_BLOCK_BYTES / (d * (int64_t)sizeof(double)) : 256;
  if (block < 1) block = 1;
  if (block > 256) block = 256;
  for (int64_t j0 = 0; j0 < m; j0 += block) {
    int64_t j1 = j0 + block < m ? j0 + block : m;
    int64_t i_end = self ? j1 - 1 : n;
    for (int64_t i = 0; i < i_end; i++) {
      const double *u = px->data + i * px->rs;
      for (int64_t j = self && i + 1 > j0 ? i + 1 : j0; j < j1; j++) {
        double v = dist(u, py->data + j * py->rs, d, p);
        LUMA_AT(out, i, j) = v;
        if (self) LUMA_AT(out, j, i) = v;
      }
    }
  }
  if (self)
    for (int64_t i = 0; i < n; i++) LUMA_AT(out, i, i) = row_has_nan(px, i) ? NAN : 0;
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

void luma_pairwise_distances(luma_Metric metric, double p, const luma_Mat *x, const luma_Mat *y,
                             luma_Mat *out, double *work) {
  Fin f = {FIN_DIST, 0, 0, 0, 0, 0};
  switch (metric) {
  case LUMA_METRIC_EUCLIDEAN: blas_family(&f, 0, x, y, out, work); return;
  case LUMA_METRIC_SQEUCLIDEAN:
    f.op = FIN_SQDIST;
    blas_family(&f, 0, x, y, out, work);
    return;
  case LUMA_METRIC_COSINE:
    f.op = FIN_COS_DIST;
    blas_family(&f, 1, x, y, out, work);
    return;
  case LUMA_METRIC_MANHATTAN: loop_family(manhattan, 1, x, y, out, work); return;
  case LUMA_METRIC_CHEBYSHEV: loop_family(chebyshev, INFINITY, x, y, out, work); return;
  case LUMA_METRIC_MINKOWSKI:
    /* The special exponents have exact (and faster) forms; p = 2 here is
     * the direct sum of squares, free of the BLAS form's cancellation. */
    loop_family(p == 1 ? manhattan : p == 2 ? euclidean_direct : isinf(p) ? chebyshev : minkowski,
                p, x, y, out, work);
    return;
  }
}

void luma_pairwise_kernel(luma_Kernel kernel, const luma_KernelParams *kp, const luma_Mat *x,
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
  case LUMA_KERNEL_LAPLACIAN:
    loop_family(manhattan, 1, x, y, out, work);
    exp_scaled(out, -kp->gamma);
    return;
  }
  blas_family(&f, inverse_norms, x, y, out, work);
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
