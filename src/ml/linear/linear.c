/*
 * linear.c - kernels of the linear models: centred weighted moments and
 * elastic-net coordinate descent (see linear.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "linear/linear.h"

/* ------------------------------------------------------------- moments */

int64_t luma_linear_moments_work(int64_t d, int64_t k) {
  return LUMA_LINEAR_BLOCK * (d + k) + d + k;
}

static double weight_of(const luma_Mat *w, int64_t i) {
  return w ? LUMA_AT(w, i, 0) : 1.0;
}

static int all_finite(const double *v, int64_t count, int64_t stride) {
  for (int64_t i = 0; i < count; i++)
    if (!isfinite(v[i * stride])) return 0;
  return 1;
}

/* The shift subtracted before accumulating: the (unweighted) mean of the
 * first block of rows, zeros when !center.  It is within about
 * sigma / sqrt(block) of the true mean, so the final correction by the
 * remaining offset cancels only a few bits (unlike X^T X - n m m^T). */
static void block_shift(const luma_Mat *m, int center, double *shift) {
  memset(shift, 0, (size_t)m->cols * sizeof *shift);
  if (!center) return;
  int64_t rows = m->rows < LUMA_LINEAR_BLOCK ? m->rows : LUMA_LINEAR_BLOCK;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < m->cols; j++) shift[j] += LUMA_AT(m, i, j);
  for (int64_t j = 0; j < m->cols; j++) shift[j] /= (double)rows;
}

/* Rows r0 .. r0+count-1 of m minus shift, scaled by sqrt(w_i), into the
 * contiguous block b (count x cols); adds w_i (row - shift) to sums. */
static void shifted_block(const luma_Mat *m, const luma_Mat *w, const double *shift, int64_t r0,
                          int64_t count, double *b, double *sums) {
  int64_t c = m->cols;
  for (int64_t r = 0; r < count; r++) {
    double wi = weight_of(w, r0 + r), s = sqrt(wi);
    const double *row = m->data + (r0 + r) * m->rs;
    double *out = b + r * c;
    for (int64_t j = 0; j < c; j++) {
      double v = row[j * m->cs] - shift[j];
      sums[j] += wi * v;
      out[j] = s * v;
    }
  }
}

int luma_linear_moments(luma_Threads *meter, const luma_Mat *x, const luma_Mat *y, const luma_Mat *w,
                        int center, double *xmean, double *ymean, double *gram, double *xty,
                        double *yty, double *scratch) {
  int64_t n = x->rows, d = x->cols, k = y->cols;
  /* a block of m rows: shifting and scaling it, d(d+1)/2 + dk products per
   * row in dsyrk and dgemm, the target sums */
  const uint64_t per_row = (uint64_t)(d * (d + 1) / 2 + d * k + 2 * (d + k) + k);
  double wsum = w ? 0 : (double)n;
  if (w)
    for (int64_t i = 0; i < n; i++) wsum += weight_of(w, i);
  /* One pass over X and Y: moments of the shifted rows (x - a, y - c) and
   * their weighted sums s_x, s_y; the means are a + s_x/N, c + s_y/N. */
  double *bx = scratch, *by = bx + LUMA_LINEAR_BLOCK * d, *sx = by + LUMA_LINEAR_BLOCK * k,
         *sy = sx + d;
  block_shift(x, center, xmean);
  block_shift(y, center, ymean);
  memset(sx, 0, (size_t)(d + k) * sizeof *sx);
  memset(gram, 0, (size_t)(d * d) * sizeof *gram);
  memset(xty, 0, (size_t)(d * k) * sizeof *xty);
  memset(yty, 0, (size_t)k * sizeof *yty);
  /* no columns: nothing to accumulate, however many rows */
  for (int64_t r0 = 0; d + k > 0 && r0 < n; r0 += LUMA_LINEAR_BLOCK) {
    int64_t m = n - r0 < LUMA_LINEAR_BLOCK ? n - r0 : LUMA_LINEAR_BLOCK;
    if (luma_work_charge(meter, (uint64_t)m * per_row) != LUMA_LOOP_DONE) return LUMA_LINEAR_STOPPED;
    shifted_block(x, w, xmean, r0, m, bx, sx);
    shifted_block(y, w, ymean, r0, m, by, sy);
    for (int64_t r = 0; r < m; r++)
      for (int64_t t = 0; t < k; t++) yty[t] += by[r * k + t] * by[r * k + t];
    if (d > 0) {
      cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)d, (int)m, 1.0, bx, (int)d, 1.0,
                  gram, (int)d);
      if (k > 0)
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)d, (int)k, (int)m, 1.0, bx,
                    (int)d, by, (int)k, 1.0, xty, (int)k);
    }
  }
  /* Centring: sum w (x - m)(x - m)^T = sum w (x - a)(x - a)^T - s_x s_x^T / N,
   * and likewise for the cross and target moments. */
  if (center) {
    for (int64_t i = 0; i < d; i++)
      for (int64_t j = i; j < d; j++) gram[i * d + j] -= sx[i] * sx[j] / wsum;
    for (int64_t i = 0; i < d; i++)
      for (int64_t t = 0; t < k; t++) xty[i * k + t] -= sx[i] * sy[t] / wsum;
    for (int64_t t = 0; t < k; t++) yty[t] -= sy[t] * sy[t] / wsum;
    for (int64_t j = 0; j < d; j++) xmean[j] += sx[j] / wsum;
    for (int64_t t = 0; t < k; t++) ymean[t] += sy[t] / wsum;
  }
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = 0; j < i; j++) gram[i * d + j] = gram[j * d + i];
  /* A NaN or Inf anywhere in X reaches its column's mean or diagonal, one
   * in Y its target's; X^T Y can then only overflow. */
  if (!all_finite(xmean, d, 1) || !all_finite(gram, d, d + 1)) return LUMA_LINEAR_X_NOT_FINITE;
  if (!all_finite(ymean, k, 1) || !all_finite(yty, k, 1)) return LUMA_LINEAR_Y_NOT_FINITE;
  if (!all_finite(xty, d * k, 1)) return LUMA_LINEAR_X_NOT_FINITE;
  return LUMA_LINEAR_OK;
}

/* ------------------------------------------------- coordinate descent */

int64_t luma_enet_cd_work(const luma_EnetProblem *p) {
  /* Gram form: H = G w, X^T(y - Xw), the coordinate list;
   * residual form: R = y - X w, X^T R, the list, the column norms. */
  return p->gram ? 3 * p->d : p->n + (p->xcsc ? 4 : 3) * p->d;
}

typedef struct Cd {
  const luma_EnetProblem *p;
  double *w;
  double *h;       /* Gram form: G w; residual form: R = y - X w */
  double *xta;     /* X^T (y - X w) - l2 w, for the gap */
  int64_t *list;   /* the coordinates a sweep visits */
  double *colnorm; /* residual form: |x_j|^2 */
  double *a;       /* sparse form: sum_i w_i x_ij over column j's entries */
  double c, t;     /* sparse form: R = h + c sw, t = sum_i sw_i h_i */
  luma_WorkBatch work; /* the updates' charges, batched */
  uint64_t per_update; /* units one coordinate update costs */
  int stopped;         /* the meter stopped the descent */
} Cd;

/* The closed-form minimiser along coordinate j given z = x_j.(residual
 * without j) and the curvature |x_j|^2 (notes 001 §A's Laplace prior is
 * the l1 term; the soft threshold is its proximal step). */
static double coordinate_minimum(const luma_EnetProblem *p, double z, double curvature) {
  if (p->positive) return z > p->l1 ? (z - p->l1) / (curvature + p->l2) : 0.0;
  if (z > p->l1) return (z - p->l1) / (curvature + p->l2);
  if (z < -p->l1) return (z + p->l1) / (curvature + p->l2);
  return 0.0;
}

/* The sparse form's column j (sw o (x_j - xm_j)) dotted with the
 * residual h + c sw, in O(entries of j). */
static double sparse_dot(const Cd *cd, int64_t j) {
  const luma_EnetProblem *p = cd->p;
  const luma_Sparse *x = p->xcsc;
  double s = 0;
  for (int64_t e = x->indptr[j]; e < x->indptr[j + 1]; e++) {
    int64_t i = x->indices[e];
    s += (p->sw ? p->sw[i] : 1.0) * x->data[e] * cd->h[i];
  }
  s += cd->c * cd->a[j];
  if (p->xm) s -= p->xm[j] * (cd->t + cd->c * p->wsum);
  return s;
}

/* residual -= delta (column j): its entries in h, the centring in c. */
static void sparse_axpy(Cd *cd, int64_t j, double delta) {
  const luma_EnetProblem *p = cd->p;
  const luma_Sparse *x = p->xcsc;
  for (int64_t e = x->indptr[j]; e < x->indptr[j + 1]; e++) {
    int64_t i = x->indices[e];
    cd->h[i] -= delta * (p->sw ? p->sw[i] : 1.0) * x->data[e];
  }
  cd->t -= delta * cd->a[j];
  if (p->xm) cd->c += delta * p->xm[j];
}

/* Updates coordinate j; returns |change|. */
static double update(Cd *cd, int64_t j) {
  const luma_EnetProblem *p = cd->p;
  int64_t d = p->d, n = p->n;
  double wj = cd->w[j], next;
  if (p->xcsc) {
    double curvature = cd->colnorm[j];
    if (curvature == 0.0) return 0.0;
    next = coordinate_minimum(p, sparse_dot(cd, j) + curvature * wj, curvature);
    if (next != wj) sparse_axpy(cd, j, next - wj);
  } else if (p->gram) {
    const double *gj = p->gram + j * d; /* row j = column j */
    double curvature = gj[j];
    if (curvature == 0.0) return 0.0;
    next = coordinate_minimum(p, p->xty[j] - (cd->h[j] - curvature * wj), curvature);
    if (next != wj) cblas_daxpy((int)d, next - wj, gj, 1, cd->h, 1);
  } else {
    const double *xj = p->xt + j * n;
    double curvature = cd->colnorm[j];
    if (curvature == 0.0) return 0.0;
    double z = cblas_ddot((int)n, xj, 1, cd->h, 1) + curvature * wj;
    next = coordinate_minimum(p, z, curvature);
    if (next != wj) cblas_daxpy((int)n, wj - next, xj, 1, cd->h, 1);
  }
  cd->w[j] = next;
  return fabs(next - wj);
}

/* The duality gap of the current w (scikit-learn's dual point: the
 * residual scaled into the dual feasible set). */
static double duality_gap(Cd *cd) {
  const luma_EnetProblem *p = cd->p;
  int64_t d = p->d, n = p->n;
  double residual2, residual_dot_y;
  const double *w = cd->w;
  if (p->xcsc) { /* the residual h + c sw made explicit once per gap */
    residual2 = 0;
    residual_dot_y = 0;
    for (int64_t i = 0; i < n; i++) {
      double r = cd->h[i] + cd->c * (p->sw ? p->sw[i] : 1.0);
      residual2 += r * r;
      residual_dot_y += r * p->y[i];
    }
    for (int64_t j = 0; j < d; j++) cd->xta[j] = sparse_dot(cd, j) - p->l2 * w[j];
  } else if (p->gram) {
    double w_dot_xty = cblas_ddot((int)d, w, 1, p->xty, 1);
    residual2 = p->yty - 2 * w_dot_xty + cblas_ddot((int)d, w, 1, cd->h, 1);
    residual_dot_y = p->yty - w_dot_xty;
    for (int64_t j = 0; j < d; j++) cd->xta[j] = p->xty[j] - cd->h[j] - p->l2 * w[j];
  } else {
    residual2 = cblas_ddot((int)n, cd->h, 1, cd->h, 1);
    residual_dot_y = cblas_ddot((int)n, cd->h, 1, p->y, 1);
    for (int64_t j = 0; j < d; j++)
      cd->xta[j] = cblas_ddot((int)n, p->xt + j * n, 1, cd->h, 1) - p->l2 * w[j];
  }
  double dual_norm = 0, l1_norm = 0, w_norm2 = 0;
  for (int64_t j = 0; j < d; j++) {
    double a = p->positive ? cd->xta[j] : fabs(cd->xta[j]);
    if (a > dual_norm) dual_norm = a;
    l1_norm += fabs(w[j]);
    w_norm2 += w[j] * w[j];
  }
  double scale = 1.0, gap;
  if (dual_norm > p->l1) {
    scale = p->l1 / dual_norm;
    gap = 0.5 * residual2 * (1 + scale * scale);
  } else {
    gap = residual2;
  }
  return gap + p->l1 * l1_norm - scale * residual_dot_y + 0.5 * p->l2 * (1 + scale * scale) * w_norm2;
}

/* One sweep over count coordinates of the list (random picks with
 * replacement when p->rng is set); returns the largest change and sets
 * *w_max to the largest |w_j| visited. */
static double sweep(Cd *cd, int64_t count, double *w_max) {
  double change_max = 0;
  *w_max = 0;
  for (int64_t s = 0; s < count; s++) {
    if (luma_work_add(&cd->work, cd->per_update)) {
      cd->stopped = 1;
      return change_max;
    }
    int64_t j = cd->p->rng ? cd->list[luma_rng_below(cd->p->rng, (uint64_t)count)] : cd->list[s];
    double change = update(cd, j);
    if (change > change_max) change_max = change;
    if (fabs(cd->w[j]) > *w_max) *w_max = fabs(cd->w[j]);
  }
  return change_max;
}

int luma_enet_cd(const luma_EnetProblem *p, double *w, double *scratch, int64_t *sweeps,
                 double *gap) {
  int64_t d = p->d, n = p->n;
  /* an update reads and writes a row of G (O(d)) or a column of X and the
   * residual (O(n)); a gap costs d such dot products in the residual form */
  const int64_t mean_col = p->xcsc && d > 0 ? 2 * p->xcsc->nnz / d : 0;
  const uint64_t per_update = (uint64_t)(p->gram ? 2 * d : p->xcsc ? mean_col : 2 * n) + 8;
  const uint64_t per_gap =
      (uint64_t)(p->gram ? 4 * d : p->xcsc ? 2 * p->xcsc->nnz + 2 * n + 4 * d : d * n + 2 * n + 4 * d) + 8;
  Cd cd = {p, w, scratch, NULL, NULL, NULL, NULL, 0, 0, {p->threads, 0}, per_update, 0};
  double *next = scratch;
  *sweeps = 0;
  *gap = NAN;
  /* the start: G w, or the residual and the column norms */
  uint64_t start = p->gram ? (uint64_t)(d * d)
                   : p->xcsc ? 4 * (uint64_t)p->xcsc->nnz + (uint64_t)(n + d)
                             : 3 * (uint64_t)(d * n) + (uint64_t)n;
  if (luma_work_charge(p->threads, start) != LUMA_LOOP_DONE) return 0;
  if (p->xcsc) {
    const luma_Sparse *x = p->xcsc;
    memcpy(cd.h, p->y, (size_t)n * sizeof *cd.h);
    cd.xta = scratch + n;
    cd.list = (int64_t *)(scratch + n + d);
    cd.colnorm = scratch + n + 2 * d;
    cd.a = scratch + n + 3 * d;
    cd.t = 0;
    for (int64_t i = 0; i < n; i++) cd.t += (p->sw ? p->sw[i] : 1.0) * p->y[i];
    for (int64_t j = 0; j < d; j++) {
      double a = 0, sq = 0;
      for (int64_t e = x->indptr[j]; e < x->indptr[j + 1]; e++) {
        int64_t i = x->indices[e];
        double wi = p->sw ? p->sw[i] * p->sw[i] : 1.0;
        a += wi * x->data[e];
        sq += wi * x->data[e] * x->data[e];
      }
      cd.a[j] = a;
      /* |sw o (x_j - m)|^2 = sum w x^2 - 2 m a + m^2 W */
      double m = p->xm ? p->xm[j] : 0.0, norm = sq - 2 * m * a + m * m * p->wsum;
      cd.colnorm[j] = norm > 0 ? norm : 0.0;
    }
    for (int64_t j = 0; j < d; j++)
      if (w[j] != 0.0) sparse_axpy(&cd, j, w[j]);
  } else if (p->gram) {
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)d, (int)d, 1.0, p->gram, (int)d, w, 1, 0.0,
                cd.h, 1);
    next += d;
  } else {
    memcpy(cd.h, p->y, (size_t)n * sizeof *cd.h);
    for (int64_t j = 0; j < d; j++)
      if (w[j] != 0.0) cblas_daxpy((int)n, -w[j], p->xt + j * n, 1, cd.h, 1);
    next += n;
  }
  if (!p->xcsc) {
    cd.xta = next;
    cd.list = (int64_t *)(next + d);
  }
  if (!p->gram && !p->xcsc) {
    cd.colnorm = next + 2 * d;
    for (int64_t j = 0; j < d; j++) cd.colnorm[j] = cblas_ddot((int)n, p->xt + j * n, 1, p->xt + j * n, 1);
  }
  double target = p->tol * p->yty;
  int converged = 0, full = 1;
  int64_t count = d;
  for (int64_t j = 0; j < d; j++) cd.list[j] = j;
  while (*sweeps < p->max_iter) {
    double w_max, change = sweep(&cd, count, &w_max);
    if (cd.stopped) return 0;
    ++*sweeps;
    int settled = w_max == 0.0 || change / w_max < p->tol;
    if (full) {
      if (settled && luma_work_add(&cd.work, per_gap)) return 0;
      if (settled && (*gap = duality_gap(&cd)) < target) {
        converged = 1;
        break;
      }
      /* Iterate on the nonzero coordinates until they settle, then check
       * the whole set again. */
      count = 0;
      for (int64_t j = 0; j < d; j++)
        if (w[j] != 0.0) cd.list[count++] = j;
      full = count == 0 || count == d;
      if (full) {
        count = d;
        for (int64_t j = 0; j < d; j++) cd.list[j] = j;
      }
    } else if (settled) {
      full = 1;
      count = d;
      for (int64_t j = 0; j < d; j++) cd.list[j] = j;
    }
  }
  if (!converged) {
    if (luma_work_add(&cd.work, per_gap)) return 0;
    *gap = duality_gap(&cd);
  }
  luma_work_flush(&cd.work);
  return converged;
}

/* ---------------------------------------------------------------- SAGA */

int64_t luma_logistic_saga_work(int64_t n, int64_t d, int64_t k) {
  /* stored gradients (n k), their average over W (d k) and b (k), the
   * current sample's gradient (k), W at the start of the epoch (d k),
   * the sparse form's last step per feature (d) and powers of its
   * shrink factor (n + 1) */
  return n * k + 2 * d * k + 2 * k + d + n + 1;
}

/* m steps of w <- S_t(a w - c) (S_t the soft threshold at t >= 0, 0 < a
 * <= 1): what a weight goes through while its feature is absent.  The map
 * is affine in each of its three regimes (above t, below -t, zero); a
 * regime's iterates move monotonically to its fixed point, so the steps
 * spent in it have a closed form and the regime changes at most a few
 * times.  The negative regime is the positive one of (-w, -c).  powers
 * holds a^0 .. a^m, inv_one_minus_a 1 / (1 - a) (when a < 1). */
static double lazy_steps(double w, int64_t m, double a, double c, double t, const double *powers,
                         double inv_one_minus_a) {
  if (t == 0.0) /* no l1: the map is affine (the hot case: a multiply, no division) */
    return a == 1.0 ? w - (double)m * c : powers[m] * w - c * (1.0 - powers[m]) * inv_one_minus_a;
  double sign = 1.0;
  while (m > 0) {
    double u = a * w - c;
    if (u < -t) { /* mirror: S_t(a (-w) + c) = -S_t(a w - c) */
      w = -w;
      c = -c;
      sign = -sign;
      u = -u;
    }
    if (u <= t) { /* to zero; it stays there unless |c| > t */
      w = 0.0;
      m--;
      if (fabs(c) <= t) return 0.0;
      continue;
    }
    /* positive regime: w <- a w - q while a w - c > t, i.e. w > q / a */
    double q = c + t, edge = q / a;
    int64_t s;
    if (a == 1.0) {
      if (q <= 0) return sign * (w - (double)m * q);
      double k = ceil((w - edge) / q);
      s = k < 1 ? 1 : k > (double)m ? m : (int64_t)k;
      w -= (double)s * q;
    } else {
      double p = -q / (1.0 - a); /* the regime's fixed point */
      if (p >= edge) return sign * (p + powers[m] * (w - p));
      double r = (edge - p) / (w - p); /* in (0, 1): leave when a^k <= r */
      double k = r > 0 ? ceil(log(r) / log(a)) : 1;
      s = !(k >= 1) ? 1 : k > (double)m ? m : (int64_t)k;
      w = p + powers[s] * (w - p);
    }
    m -= s;
  }
  return sign * w;
}

/* SAGA over a CSR X with the lazy updates described in linear.h. */
static int saga_sparse(const luma_SagaProblem *p, double *w, double *b, double *scratch,
                       int64_t *epochs) {
  const luma_Sparse *x = p->sx;
  int64_t n = x->rows, d = x->cols, k = p->k, dk = d * k;
  double *memory = scratch, *avg_w = memory + n * k, *avg_b = avg_w + dk, *g = avg_b + k,
         *previous = g + k, *last = previous + dk, /* last step per feature, as doubles */
         *powers = last + d;
  memset(scratch, 0, (size_t)luma_logistic_saga_work(n, d, k) * sizeof *scratch);
  double largest = 0;
  if (luma_work_charge(p->threads, (uint64_t)(x->nnz + 2 * n)) != LUMA_LOOP_DONE) return 0;
  for (int64_t i = 0; i < n; i++) {
    double sq = p->fit_intercept ? 1.0 : 0.0;
    for (int64_t e = x->indptr[i]; e < x->indptr[i + 1]; e++) sq += x->data[e] * x->data[e];
    sq *= p->weights ? p->weights[i] : 1.0;
    if (sq > largest) largest = sq;
  }
  double lipschitz = largest * (k == 1 ? 0.25 : 0.5) + p->l2;
  double strong = 2.0 * (double)n * p->l2 < lipschitz ? 2.0 * (double)n * p->l2 : lipschitz;
  double step = 1.0 / (2.0 * lipschitz + strong), threshold = step * p->l1;
  double a = 1.0 - step * p->l2;
  powers[0] = 1.0;
  for (int64_t m = 1; m <= n; m++) powers[m] = powers[m - 1] * a;
  const double inv = a < 1.0 ? 1.0 / (1.0 - a) : 0.0;
  luma_WorkBatch work = {p->threads, 0};
  const double inv_n = 1.0 / (double)n;
  for (*epochs = 1; *epochs <= p->max_iter; ++*epochs) {
    memcpy(previous, w, (size_t)dk * sizeof *w);
    for (int64_t j = 0; j < d; j++) last[j] = -1;
    /* The samples are drawn two steps ahead (in the same order, and no
     * more than the epoch's n): a random row's indptr, indices and data
     * are cache misses, so step t prefetches the row pointer of step t + 2
     * and the entries of step t + 1. */
    int64_t next = (int64_t)luma_rng_below(p->rng, (uint64_t)n);
    int64_t after = n > 1 ? (int64_t)luma_rng_below(p->rng, (uint64_t)n) : 0;
    for (int64_t t = 0; t < n; t++) {
      int64_t i = next;
      next = after;
      if (t + 2 < n) {
        after = (int64_t)luma_rng_below(p->rng, (uint64_t)n);
        __builtin_prefetch(x->indptr + after);
      }
      if (t + 1 < n) {
        int64_t ns = x->indptr[next];
        __builtin_prefetch(x->indices + ns);
        __builtin_prefetch(x->data + ns);
      }
      int64_t s = x->indptr[i], e = x->indptr[i + 1];
      if (luma_work_add(&work, (uint64_t)((e - s) * 4 * k + 4 * k) + 8)) return 0;
      /* bring the sample's weights to the state after step t - 1 */
      for (int64_t f = s; f < e; f++) {
        int64_t j = x->indices[f], pending = t - 1 - (int64_t)last[j];
        if (pending > 0)
          for (int64_t c = 0; c < k; c++)
            w[j * k + c] = lazy_steps(w[j * k + c], pending, a, step * avg_w[j * k + c], threshold,
                                      powers, inv);
      }
      double sw = p->weights ? p->weights[i] : 1.0;
      for (int64_t c = 0; c < k; c++) {
        double z = b[c];
        for (int64_t f = s; f < e; f++) z += x->data[f] * w[x->indices[f] * k + c];
        g[c] = z;
      }
      if (k == 1) {
        double z = g[0], sig = z >= 0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z));
        g[0] = sw * (sig - (double)p->y[i]);
      } else {
        double top = g[0];
        for (int64_t c = 1; c < k; c++) if (g[c] > top) top = g[c];
        double total = 0;
        for (int64_t c = 0; c < k; c++) total += (g[c] = exp(g[c] - top));
        for (int64_t c = 0; c < k; c++) g[c] = sw * (g[c] / total - (c == p->y[i] ? 1.0 : 0.0));
      }
      double *stored = memory + i * k;
      for (int64_t f = s; f < e; f++) {
        int64_t j = x->indices[f];
        double xij = x->data[f];
        for (int64_t c = 0; c < k; c++) {
          double delta = (g[c] - stored[c]) * xij, *wjc = w + j * k + c;
          double v = *wjc - step * (delta + avg_w[j * k + c] + p->l2 * *wjc);
          /* (without l1 no soft threshold: its branch on the sign of v
           * would be a coin toss for the predictor) */
          *wjc = threshold == 0.0 ? v
                                  : (v > threshold ? v - threshold
                                                   : (v < -threshold ? v + threshold : 0.0));
          avg_w[j * k + c] += delta * inv_n;
        }
        last[j] = (double)t;
      }
      for (int64_t c = 0; c < k; c++) {
        double delta = g[c] - stored[c];
        if (p->fit_intercept) b[c] -= step * (delta + avg_b[c]);
        avg_b[c] += delta * inv_n;
        stored[c] = g[c];
      }
    }
    /* the end of the epoch: every weight brought to step n - 1 */
    if (luma_work_add(&work, (uint64_t)(dk + d))) return 0;
    for (int64_t j = 0; j < d; j++) {
      int64_t pending = n - 1 - (int64_t)last[j];
      if (pending > 0)
        for (int64_t c = 0; c < k; c++)
          w[j * k + c] = lazy_steps(w[j * k + c], pending, a, step * avg_w[j * k + c], threshold,
                                    powers, inv);
    }
    double change = 0, size = 0;
    for (int64_t j = 0; j < dk; j++) {
      double c = fabs(w[j] - previous[j]), m = fabs(w[j]);
      if (c > change) change = c;
      if (m > size) size = m;
    }
    if (size == 0 ? change == 0 : change / size < p->tol) {
      luma_work_flush(&work);
      return 1;
    }
  }
  *epochs = p->max_iter;
  luma_work_flush(&work);
  return 0;
}

/* The gradient of sample i's loss with respect to its linear predictor
 * z = x_i W + b, times its weight, into g (k values). */
static void sample_gradient(const luma_SagaProblem *p, const double *w, const double *b,
                            int64_t i, double *g) {
  int64_t d = p->x->cols, k = p->k;
  const double *xi = p->x->data + i * p->x->rs;
  int64_t cs = p->x->cs;
  double s = p->weights ? p->weights[i] : 1.0;
  for (int64_t c = 0; c < k; c++) {
    double z = b[c];
    for (int64_t j = 0; j < d; j++) z += xi[j * cs] * w[j * k + c];
    g[c] = z;
  }
  if (k == 1) { /* sigmoid(z) - y, computed without overflow */
    double z = g[0], sig = z >= 0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z));
    g[0] = s * (sig - (double)p->y[i]);
    return;
  }
  double top = g[0];
  for (int64_t c = 1; c < k; c++) if (g[c] > top) top = g[c];
  double total = 0;
  for (int64_t c = 0; c < k; c++) total += (g[c] = exp(g[c] - top));
  for (int64_t c = 0; c < k; c++) g[c] = s * (g[c] / total - (c == p->y[i] ? 1.0 : 0.0));
}

int luma_logistic_saga(const luma_SagaProblem *p, double *w, double *b, double *scratch,
                       int64_t *epochs) {
  if (p->sx) return saga_sparse(p, w, b, scratch, epochs);
  int64_t n = p->x->rows, d = p->x->cols, k = p->k, dk = d * k;
  double *memory = scratch, *avg_w = memory + n * k, *avg_b = avg_w + dk, *g = avg_b + k,
         *previous = g + k;
  memset(scratch, 0, (size_t)luma_logistic_saga_work(n, d, k) * sizeof *scratch);
  /* Step 1 / (2L + min(2 n mu, L)) with L the largest curvature of a
   * sample's loss (1/4 |x|^2 for the sigmoid, 1/2 for the softmax, plus
   * the intercept's 1) and mu = l2 the strong convexity. */
  double largest = 0;
  if (luma_work_charge(p->threads, (uint64_t)(n * (d + 2))) != LUMA_LOOP_DONE) return 0;
  for (int64_t i = 0; i < n; i++) {
    const double *xi = p->x->data + i * p->x->rs;
    double sq = p->fit_intercept ? 1.0 : 0.0;
    for (int64_t j = 0; j < d; j++) sq += xi[j * p->x->cs] * xi[j * p->x->cs];
    sq *= p->weights ? p->weights[i] : 1.0;
    if (sq > largest) largest = sq;
  }
  double lipschitz = largest * (k == 1 ? 0.25 : 0.5) + p->l2;
  double strong = 2.0 * (double)n * p->l2 < lipschitz ? 2.0 * (double)n * p->l2 : lipschitz;
  double step = 1.0 / (2.0 * lipschitz + strong), threshold = step * p->l1;
  /* a step: the sample's k margins over d features, the d x k update */
  const uint64_t per_step = (uint64_t)(3 * dk + 4 * k) + 8;
  luma_WorkBatch work = {p->threads, 0};
  for (*epochs = 1; *epochs <= p->max_iter; ++*epochs) {
    memcpy(previous, w, (size_t)dk * sizeof *w);
    for (int64_t t = 0; t < n; t++) {
      if (luma_work_add(&work, per_step)) return 0;
      int64_t i = (int64_t)luma_rng_below(p->rng, (uint64_t)n);
      const double *xi = p->x->data + i * p->x->rs;
      int64_t cs = p->x->cs;
      sample_gradient(p, w, b, i, g);
      double *stored = memory + i * k;
      for (int64_t j = 0; j < d; j++) {
        double xij = xi[j * cs];
        for (int64_t c = 0; c < k; c++) {
          double delta = (g[c] - stored[c]) * xij, *wjc = w + j * k + c;
          double v = *wjc - step * (delta + avg_w[j * k + c] + p->l2 * *wjc);
          *wjc = v > threshold ? v - threshold : (v < -threshold ? v + threshold : 0.0);
          avg_w[j * k + c] += delta / (double)n;
        }
      }
      for (int64_t c = 0; c < k; c++) {
        double delta = g[c] - stored[c];
        if (p->fit_intercept) b[c] -= step * (delta + avg_b[c]);
        avg_b[c] += delta / (double)n;
        stored[c] = g[c];
      }
    }
    double change = 0, size = 0;
    for (int64_t j = 0; j < dk; j++) {
      double c = fabs(w[j] - previous[j]), a = fabs(w[j]);
      if (c > change) change = c;
      if (a > size) size = a;
    }
    if (size == 0 ? change == 0 : change / size < p->tol) {
      luma_work_flush(&work);
      return 1;
    }
  }
  *epochs = p->max_iter;
  luma_work_flush(&work);
  return 0;
}
