/*
 * optim.c - native objectives (binary and multinomial logistic losses
 * over BLAS) and the L-BFGS(-B) engine.  See optim.h.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "optim/optim.h"
#include "core/dot.h"
#include "core/parallel.h"
#include "core/vecmath.h"

/* ------------------------------------------------------ logistic losses */

/* Below this many elements a matrix-vector product is cheaper than the
 * hand-off to OpenBLAS's threads (which start at 9216 elements): small
 * fits, such as the folds of a grid search, were twice as slow with them. */
#define SMALL_GEMV_ELEMENTS (1 << 16)

/* y = X v or X^T v by plain loops, walking X in memory order. */
static void small_gemv(const double *X, int64_t n, int64_t d, int64_t lda, int col_major,
                       int trans, const double *v, double *y) {
  int64_t out = trans ? d : n;
  for (int64_t k = 0; k < out; k++) y[k] = 0.0;
  /* (i, j) at X[i*lda + j] row-major, X[j*lda + i] column-major */
  int64_t outer = col_major ? d : n, inner = col_major ? n : d;
  int rows_outer = !col_major;
  for (int64_t a = 0; a < outer; a++) {
    const double *line = X + a * lda;
    if (rows_outer != trans) { /* a dot product per output element */
      double s = 0.0;
      for (int64_t b = 0; b < inner; b++) s += line[b] * v[b];
      y[a] = s;
    } else { /* an axpy of each line into the output */
      double va = v[a];
      for (int64_t b = 0; b < inner; b++) y[b] += line[b] * va;
    }
  }
}

/* y = X v (trans 0, X n x d) or y = X^T v (trans 1). */
static void gemv_x(const double *X, int64_t n, int64_t d, int64_t lda, int col_major, int trans,
                   const double *v, double *y) {
  if (n * d < SMALL_GEMV_ELEMENTS) {
    small_gemv(X, n, d, lda, col_major, trans, v, y);
    return;
  }
  CBLAS_ORDER order = col_major ? CblasColMajor : CblasRowMajor;
  cblas_dgemv(order, trans ? CblasTrans : CblasNoTrans, (int)n, (int)d, 1.0, X, (int)lda, v, 1,
              0.0, y, 1);
}

/* Rows per chunk of the fused evaluation: 256 rows of a few hundred
 * features stay in the L2 cache between the two uses of each row. */
#define LOGISTIC_BLOCK 256

/* The loss of rows r0 .. r0+m-1 from their margins z (overwritten with
 * the derivative coefficients -C s_i y_i sigma(-m_i) when grad is
 * wanted); e is m doubles of scratch.  Returns sum s_i log(1 + e^-m_i). */
static double logistic_terms(const luma_LogisticLoss *p, int64_t r0, int64_t m, double *z,
                             double *e, int want_grad) {
  double f = 0.0;
  for (int64_t r = 0; r < m; r++) e[r] = -fabs(z[r]);
  luma_vec_apply(LUMA_VEC_EXP, e, e, m); /* exp(-|m|) */
  /* log(1 + exp(-m)) = max(-m, 0) + log(1 + exp(-|m|)) */
  for (int64_t r = 0; r < m; r++) {
    const int64_t i = r0 + r;
    const double s = p->sw ? p->sw[i] : 1.0, mi = z[r], ei = e[r];
    if (mi < 0) f -= s * mi;
    if (want_grad) {
      const double sig = mi >= 0 ? ei / (1.0 + ei) : 1.0 / (1.0 + ei); /* sigma(-m) */
      z[r] = -p->C * s * p->y[i] * sig;
    }
    e[r] = 1.0 + ei;
  }
  luma_vec_apply(LUMA_VEC_LOG, e, e, m);
  for (int64_t r = 0; r < m; r++) f += (p->sw ? p->sw[r0 + r] : 1.0) * e[r];
  return f;
}

/* One chunk of the row-major evaluation: out[0] its loss, out[1] its
 * intercept gradient, out[2 ..] its d gradient entries. */
typedef struct LogisticChunks {
  const luma_LogisticLoss *p;
  const double *w;
  double *partial; /* (d + 2) doubles per chunk */
  int want_grad;
} LogisticChunks;

static void logistic_chunk(void *ctx, int64_t k, int64_t r0, int64_t r1) {
  const LogisticChunks *c = ctx;
  const luma_LogisticLoss *p = c->p;
  const int64_t d = p->d, lda = p->lda, m = r1 - r0;
  const double b = p->fit_intercept ? c->w[d] : 0.0;
  double z[LOGISTIC_BLOCK], e[LOGISTIC_BLOCK] = {0}; /* zeroed: gcc cannot see logistic_terms fill it */
  double *out = c->partial + k * (d + 2);
  /* margins: the dot products of luma_dot keep four sums in flight (one
   * running sum per row made the fit latency-bound, issue 35) */
  for (int64_t r = 0; r < m; r++)
    z[r] = p->y[r0 + r] * (b + luma_dot(p->X + (r0 + r) * lda, c->w, d));
  out[0] = logistic_terms(p, r0, m, z, e, c->want_grad);
  if (!c->want_grad) return;
  /* gradient: four rows per pass over the gradient, which is then read
   * and written a quarter as often */
  double *g = out + 2, gb = 0.0;
  memset(g, 0, (size_t)d * sizeof *g);
  int64_t r = 0;
  for (; r + 4 <= m; r += 4) {
    const double *x0 = p->X + (r0 + r) * lda, *x1 = x0 + lda, *x2 = x1 + lda, *x3 = x2 + lda;
    const double c0 = z[r], c1 = z[r + 1], c2 = z[r + 2], c3 = z[r + 3];
    for (int64_t j = 0; j < d; j++) g[j] += (c0 * x0[j] + c1 * x1[j]) + (c2 * x2[j] + c3 * x3[j]);
    gb += (c0 + c1) + (c2 + c3);
  }
  for (; r < m; r++) {
    const double *x = p->X + (r0 + r) * lda, cr = z[r];
    for (int64_t j = 0; j < d; j++) g[j] += cr * x[j];
    gb += cr;
  }
  out[1] = gb;
}

int64_t luma_logistic_work_size(int64_t n, int64_t d) {
  int64_t chunks = (n + LOGISTIC_BLOCK - 1) / LOGISTIC_BLOCK;
  int64_t fused = chunks * (d + 2);
  return fused > 2 * n ? fused : 2 * n;
}

/* Row-major X in one pass: each chunk of rows gives its margins, then its
 * gradient contribution while it is still in cache (two gemv calls over
 * the whole of X read it twice from memory).  Chunks run on the threads
 * and their partial sums are added in chunk order, so the result is the
 * same for any thread count. */
static double logistic_fused(const luma_LogisticLoss *p, const double *w, double *grad) {
  const int64_t n = p->n, d = p->d;
  LogisticChunks c = {p, w, p->work, grad != NULL};
  luma_Loop loop = {n, LOGISTIC_BLOCK, (uint64_t)(2 * d + 8), 0, logistic_chunk, &c};
  if (luma_parallel_for(p->threads, &loop) != LUMA_LOOP_DONE) return NAN;
  const int64_t chunks = (n + LOGISTIC_BLOCK - 1) / LOGISTIC_BLOCK;
  double f = 0.0, gb = 0.0;
  if (grad) memset(grad, 0, (size_t)d * sizeof *grad);
  for (int64_t k = 0; k < chunks; k++) {
    const double *out = p->work + k * (d + 2);
    f += out[0];
    if (!grad) continue;
    gb += out[1];
    for (int64_t j = 0; j < d; j++) grad[j] += out[2 + j];
  }
  double reg = 0.0;
  for (int64_t j = 0; j < d; j++) reg += w[j] * w[j];
  if (grad) {
    for (int64_t j = 0; j < d; j++) grad[j] += w[j];
    if (p->fit_intercept) grad[d] = gb;
  }
  return p->C * f + 0.5 * reg;
}

double luma_logistic_loss_eval(void *ctx, const double *w, double *grad) {
  luma_LogisticLoss *p = ctx;
  if (!p->col_major) return logistic_fused(p, w, grad);
  const int64_t n = p->n, d = p->d;
  double *z = p->work, *e = p->work + n;
  const double b = p->fit_intercept ? w[d] : 0.0;
  gemv_x(p->X, n, d, p->lda, p->col_major, 0, w, z);
  for (int64_t i = 0; i < n; i++) {
    z[i] = p->y[i] * (z[i] + b); /* the margin m_i */
    e[i] = -fabs(z[i]);
  }
  luma_vec_apply(LUMA_VEC_EXP, e, e, n); /* exp(-|m|) */
  /* log(1 + exp(-m)) = max(-m, 0) + log(1 + exp(-|m|)) */
  double f = 0.0;
  for (int64_t i = 0; i < n; i++) {
    const double s = p->sw ? p->sw[i] : 1.0, m = z[i], ei = e[i];
    if (m < 0) f -= s * m;
    if (grad) {
      const double sig = m >= 0 ? ei / (1.0 + ei) : 1.0 / (1.0 + ei); /* sigma(-m) */
      z[i] = -p->C * s * p->y[i] * sig;
    }
    e[i] = 1.0 + ei;
  }
  luma_vec_apply(LUMA_VEC_LOG, e, e, n);
  for (int64_t i = 0; i < n; i++) f += (p->sw ? p->sw[i] : 1.0) * e[i];
  double reg = 0.0;
  for (int64_t j = 0; j < d; j++) reg += w[j] * w[j];
  f = p->C * f + 0.5 * reg;
  if (grad) {
    gemv_x(p->X, n, d, p->lda, p->col_major, 1, z, grad);
    for (int64_t j = 0; j < d; j++) grad[j] += w[j];
    if (p->fit_intercept) {
      double gb = 0.0;
      for (int64_t i = 0; i < n; i++) gb += z[i];
      grad[d] = gb;
    }
  }
  return f;
}

double luma_softmax_loss_eval(void *ctx, const double *w, double *grad) {
  luma_SoftmaxLoss *p = ctx;
  const int64_t n = p->n, d = p->d, K = p->K;
  double *Z = p->work, *zy = p->work + n * K;
  CBLAS_TRANSPOSE tx = p->col_major ? CblasTrans : CblasNoTrans;
  /* Z = X W (+ b) */
  cblas_dgemm(CblasRowMajor, tx, CblasNoTrans, (int)n, (int)K, (int)d, 1.0, p->X, (int)p->lda, w,
              (int)K, 0.0, Z, (int)K);
  const double *b = w + d * K;
  for (int64_t i = 0; i < n; i++) {
    double *zi = Z + i * K, mx = -INFINITY;
    for (int64_t k = 0; k < K; k++) {
      if (p->fit_intercept) zi[k] += b[k];
      if (zi[k] > mx) mx = zi[k];
    }
    if (!isfinite(mx)) mx = 0.0; /* NaN flows into the value */
    for (int64_t k = 0; k < K; k++) zi[k] -= mx;
    zy[i] = zi[p->y[i]];
  }
  luma_vec_apply(LUMA_VEC_EXP, Z, Z, n * K);
  double f = 0.0;
  for (int64_t i = 0; i < n; i++) {
    double *zi = Z + i * K, sum = 0.0;
    const double s = p->sw ? p->sw[i] : 1.0;
    for (int64_t k = 0; k < K; k++) sum += zi[k];
    f += s * (log(sum) - zy[i]);
    if (grad) {
      const double c = p->C * s / sum;
      for (int64_t k = 0; k < K; k++) zi[k] *= c;
      zi[p->y[i]] -= p->C * s;
    }
  }
  double reg = 0.0;
  for (int64_t j = 0; j < d * K; j++) reg += w[j] * w[j];
  f = p->C * f + 0.5 * reg;
  if (grad) {
    /* G_W = X^T R + W;  g_b = column sums of R */
    CBLAS_TRANSPOSE txt = p->col_major ? CblasNoTrans : CblasTrans;
    cblas_dgemm(CblasRowMajor, txt, CblasNoTrans, (int)d, (int)K, (int)n, 1.0, p->X, (int)p->lda,
                Z, (int)K, 0.0, grad, (int)K);
    for (int64_t j = 0; j < d * K; j++) grad[j] += w[j];
    if (p->fit_intercept) {
      double *gb = grad + d * K;
      for (int64_t k = 0; k < K; k++) gb[k] = 0.0;
      for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < K; k++) gb[k] += Z[i * K + k];
    }
  }
  return f;
}

/* --------------------------------------------------------------- L-BFGS */

size_t luma_lbfgs_work_size(int64_t n, int m) {
  return (size_t)(2 * (int64_t)m * n + 2 * (int64_t)m + 6 * n);
}

typedef struct Lbfgs {
  const luma_Objective *obj;
  const luma_LbfgsOptions *o;
  luma_LbfgsResult *r;
  int64_t n;
  int m, k, head;          /* pairs stored, index of the newest */
  double *S, *Y, *rho, *alpha;
  double *x, *g, *d, *xt, *gt, *pg;
} Lbfgs;

static double dot(const double *a, const double *b, int64_t n) {
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* Dot product over the free variables (free[i] != 0), or all when free is NULL. */
static double dot_free(const double *a, const double *b, const double *free_, int64_t n) {
  if (!free_) return dot(a, b, n);
  double s = 0.0;
  for (int64_t i = 0; i < n; i++)
    if (free_[i] != 0.0) s += a[i] * b[i];
  return s;
}

static int all_finite(const double *a, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(a[i])) return 0;
  return 1;
}

/* Evaluates at xt into gt; returns 0 when the value is NaN or the gradient
 * non-finite (status set). */
static int eval_at(Lbfgs *s, double *f) {
  if (luma_work_charge(s->o->threads, s->obj->cost + 2 * (uint64_t)s->n) != LUMA_LOOP_DONE) {
    s->r->status = LUMA_LBFGS_STOPPED;
    return 0;
  }
  s->r->nfev++;
  s->r->ngev++;
  *f = s->obj->eval(s->obj->ctx, s->xt, s->gt);
  if (isnan(*f)) {
    s->r->status = LUMA_LBFGS_NAN_VALUE;
    return 0;
  }
  if (isfinite(*f) && !all_finite(s->gt, s->n)) {
    s->r->status = LUMA_LBFGS_NAN_GRAD;
    return 0;
  }
  return 1;
}

/* phi(a) at x + a d: value into *f, derivative into *dphi.  Returns 0 on a
 * NaN (status set). */
static int phi(Lbfgs *s, double a, double *f, double *dphi) {
  for (int64_t i = 0; i < s->n; i++) s->xt[i] = s->x[i] + a * s->d[i];
  if (!eval_at(s, f)) return 0;
  *dphi = isfinite(*f) ? dot(s->gt, s->d, s->n) : NAN;
  return 1;
}

/* Minimizer of the cubic through (a, fa, da), (b, fb, db), kept inside the
 * interval with a 10% margin; bisection when the cubic has none. */
static double cubic_step(double a, double fa, double da, double b, double fb, double db) {
  double lo = a < b ? a : b, hi = a < b ? b : a, margin = 0.1 * (hi - lo);
  double t = NAN;
  if (isfinite(fa) && isfinite(fb) && isfinite(da) && isfinite(db)) {
    double d1 = da + db - 3.0 * (fa - fb) / (a - b);
    double disc = d1 * d1 - da * db;
    if (disc >= 0) {
      double d2 = (b > a ? 1.0 : -1.0) * sqrt(disc);
      double den = db - da + 2.0 * d2;
      if (den != 0) t = b - (b - a) * (db + d2 - d1) / den;
    }
  }
  if (!isfinite(t) || t < lo + margin || t > hi - margin) t = 0.5 * (lo + hi);
  return t;
}

/* Strong Wolfe line search (Nocedal & Wright Alg. 3.5 with zoom, Alg. 3.6;
 * c1 = 1e-4, c2 = 0.9).  On success xt, gt hold the accepted point.
 * Returns 1 found, 0 failed, -1 NaN. */
static int wolfe_search(Lbfgs *s, double f0, double dphi0, double a, double *f_out) {
  const double c1 = 1e-4, c2 = 0.9;
  double a_prev = 0.0, f_prev = f0, d_prev = dphi0, fa, da;
  double lo, flo, dlo, hi, fhi, dhi;
  int i;
  for (i = 0; i < 25; i++) {
    if (s->r->nfev >= s->o->max_fun) return 0;
    if (!phi(s, a, &fa, &da)) return -1;
    if (!isfinite(fa) || fa > f0 + c1 * a * dphi0 || (i > 0 && fa >= f_prev)) {
      lo = a_prev, flo = f_prev, dlo = d_prev, hi = a, fhi = fa, dhi = da;
      goto zoom;
    }
    if (fabs(da) <= -c2 * dphi0) {
      *f_out = fa;
      return 1;
    }
    if (da >= 0) {
      lo = a, flo = fa, dlo = da, hi = a_prev, fhi = f_prev, dhi = d_prev;
      goto zoom;
    }
    a_prev = a, f_prev = fa, d_prev = da;
    a *= 4.0;
  }
  return 0;
zoom:
  for (i = 0; i < 40; i++) {
    if (s->r->nfev >= s->o->max_fun) break;
    double at = isfinite(fhi) ? cubic_step(lo, flo, dlo, hi, fhi, dhi) : lo + 0.1 * (hi - lo);
    if (fabs(hi - lo) <= 1e-16 * fmax(1.0, fabs(lo))) break;
    if (!phi(s, at, &fa, &da)) return -1;
    if (!isfinite(fa) || fa > f0 + c1 * at * dphi0 || fa >= flo) {
      hi = at, fhi = fa, dhi = da;
    } else {
      if (fabs(da) <= -c2 * dphi0) {
        *f_out = fa;
        return 1;
      }
      if (da * (hi - lo) >= 0) hi = lo, fhi = flo, dhi = dlo;
      lo = at, flo = fa, dlo = da;
    }
  }
  /* No strong Wolfe point: settle for the best point with sufficient decrease. */
  if (lo > 0 && flo < f0) {
    if (!phi(s, lo, &fa, &da)) return -1;
    *f_out = fa;
    return 1;
  }
  return 0;
}

static void project(const luma_LbfgsOptions *o, double *x, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (x[i] < o->lower[i]) x[i] = o->lower[i];
    if (x[i] > o->upper[i]) x[i] = o->upper[i];
  }
}

/* Armijo backtracking along the projected path P(x + a d). */
static int projected_search(Lbfgs *s, double f0, double a, double *f_out) {
  const double c1 = 1e-4;
  for (int i = 0; i < 40; i++) {
    if (s->r->nfev >= s->o->max_fun) return 0;
    for (int64_t j = 0; j < s->n; j++) s->xt[j] = s->x[j] + a * s->d[j];
    project(s->o, s->xt, s->n);
    double f, dec = 0.0;
    if (!eval_at(s, &f)) return -1;
    for (int64_t j = 0; j < s->n; j++) dec += s->g[j] * (s->xt[j] - s->x[j]);
    if (isfinite(f) && f <= f0 + c1 * dec) {
      *f_out = f;
      return 1;
    }
    if (dec == 0.0) return 0; /* the projection leaves x where it is */
    a *= 0.5;
  }
  return 0;
}

/* Projected gradient (zero where a bound blocks descent); returns its inf-norm. */
static double projected_gradient(Lbfgs *s) {
  double norm = 0.0;
  for (int64_t i = 0; i < s->n; i++) {
    double gi = s->g[i];
    if (s->o->lower && ((s->x[i] <= s->o->lower[i] && gi > 0) ||
                        (s->x[i] >= s->o->upper[i] && gi < 0)))
      gi = 0.0;
    s->pg[i] = gi;
    if (fabs(gi) > norm) norm = fabs(gi);
  }
  return norm;
}

/* d = -H pg by the two-loop recursion, restricted to the free variables
 * when bounded (pg is zero on the active ones). */
static void direction(Lbfgs *s) {
  const int64_t n = s->n;
  const double *fr = s->o->lower ? s->pg : NULL; /* nonzero pg marks a free variable */
  double *q = s->d;
  for (int64_t i = 0; i < n; i++) q[i] = s->pg[i];
  int idx = s->head;
  double gamma = 1.0;
  int used = 0;
  for (int j = 0; j < s->k; j++, idx = (idx - 1 + s->m) % s->m) {
    double *sj = s->S + (int64_t)idx * n, *yj = s->Y + (int64_t)idx * n;
    double sy = dot_free(sj, yj, fr, n);
    if (!(sy > 0)) {
      s->alpha[idx] = NAN;
      continue;
    }
    s->rho[idx] = 1.0 / sy;
    if (!used) {
      double yy = dot_free(yj, yj, fr, n);
      gamma = sy / yy;
      used = 1;
    }
    double a = s->rho[idx] * dot_free(sj, q, fr, n);
    s->alpha[idx] = a;
    for (int64_t i = 0; i < n; i++) q[i] -= a * yj[i];
  }
  for (int64_t i = 0; i < n; i++) q[i] *= gamma;
  idx = (s->head - s->k + 1 + s->m) % s->m;
  for (int j = 0; j < s->k; j++, idx = (idx + 1) % s->m) {
    if (isnan(s->alpha[idx])) continue;
    double *sj = s->S + (int64_t)idx * n, *yj = s->Y + (int64_t)idx * n;
    double b = s->rho[idx] * dot_free(yj, q, fr, n);
    for (int64_t i = 0; i < n; i++) q[i] += (s->alpha[idx] - b) * sj[i];
  }
  for (int64_t i = 0; i < n; i++) {
    q[i] = -q[i];
    if (fr && fr[i] == 0.0) q[i] = 0.0;
  }
}

void luma_lbfgs(const luma_Objective *obj, double *x, const luma_LbfgsOptions *o, double *work,
                luma_LbfgsResult *r) {
  Lbfgs st;
  Lbfgs *s = &st;
  const int64_t n = obj->n;
  memset(r, 0, sizeof *r);
  s->obj = obj, s->o = o, s->r = r, s->n = n, s->m = o->m < 1 ? 1 : o->m, s->k = 0, s->head = -1;
  s->S = work, s->Y = work + (int64_t)s->m * n, s->rho = s->Y + (int64_t)s->m * n;
  s->alpha = s->rho + s->m, s->x = s->alpha + s->m, s->g = s->x + n, s->d = s->g + n;
  s->xt = s->d + n, s->gt = s->xt + n, s->pg = s->gt + n;
  memcpy(s->x, x, (size_t)n * sizeof *x);
  if (o->lower) project(o, s->x, n);
  memcpy(s->xt, s->x, (size_t)n * sizeof *x);
  double f;
  if (!eval_at(s, &f)) goto done_nan;
  if (!isfinite(f)) {
    r->status = LUMA_LBFGS_NAN_VALUE;
    goto done_nan;
  }
  memcpy(s->g, s->gt, (size_t)n * sizeof *x);
  for (;;) {
    /* the iteration's own work: the two-loop recursion over k pairs, the
     * new pair, the projected gradient */
    if (luma_work_charge(o->threads, (uint64_t)(4 * s->k + 10) * (uint64_t)n) != LUMA_LOOP_DONE) {
      r->status = LUMA_LBFGS_STOPPED;
      break;
    }
    double gnorm = projected_gradient(s);
    r->f = f, r->gnorm = gnorm;
    if (gnorm <= o->gtol) {
      r->status = LUMA_LBFGS_GTOL;
      break;
    }
    if (r->iterations >= o->max_iter) {
      r->status = LUMA_LBFGS_MAX_ITER;
      break;
    }
    if (r->nfev >= o->max_fun) {
      r->status = LUMA_LBFGS_MAX_FUN;
      break;
    }
    int found = 0;
    double fnew = f;
    for (int attempt = 0; attempt < 2 && !found; attempt++) {
      if (attempt == 1) {
        if (s->k == 0) break;
        s->k = 0; /* retry once from steepest descent */
      }
      direction(s);
      double gd = dot(s->g, s->d, n);
      if (!(gd < 0)) {
        s->k = 0;
        for (int64_t i = 0; i < n; i++) s->d[i] = -s->pg[i];
        gd = dot(s->g, s->d, n);
      }
      double a0 = 1.0;
      if (s->k == 0) {
        double dn = sqrt(dot(s->d, s->d, n));
        a0 = dn > 1.0 ? 1.0 / dn : 1.0;
      }
      found = o->lower ? projected_search(s, f, a0, &fnew) : wolfe_search(s, f, gd, a0, &fnew);
      if (found < 0) goto done_nan;
    }
    r->iterations++;
    if (!found) {
      r->status = r->nfev >= o->max_fun ? LUMA_LBFGS_MAX_FUN : LUMA_LBFGS_LINE_SEARCH;
      r->iterations--;
      break;
    }
    /* s = xt - x, y = gt - g into the next slot */
    int slot = (s->head + 1) % s->m;
    double *sv = s->S + (int64_t)slot * n, *yv = s->Y + (int64_t)slot * n, step = 0.0;
    for (int64_t i = 0; i < n; i++) {
      sv[i] = s->xt[i] - s->x[i];
      yv[i] = s->gt[i] - s->g[i];
      if (fabs(sv[i]) > step) step = fabs(sv[i]);
    }
    double sy = dot(sv, yv, n), yy = dot(yv, yv, n);
    if (sy > 2.2e-16 * yy) {
      s->head = slot;
      if (s->k < s->m) s->k++;
    }
    double fold = f;
    f = fnew;
    memcpy(s->x, s->xt, (size_t)n * sizeof *x);
    memcpy(s->g, s->gt, (size_t)n * sizeof *x);
    r->f = f;
    if (o->callback && o->callback(o->callback_ctx, r->iterations, s->x, f, projected_gradient(s))) {
      r->gnorm = projected_gradient(s);
      r->status = LUMA_LBFGS_CALLBACK;
      break;
    }
    if ((fold - f) <= o->ftol * fmax(fmax(fabs(fold), fabs(f)), 1.0)) {
      r->gnorm = projected_gradient(s);
      r->status = LUMA_LBFGS_FTOL;
      break;
    }
    if (step <= o->xtol) {
      r->gnorm = projected_gradient(s);
      r->status = LUMA_LBFGS_XTOL;
      break;
    }
  }
  memcpy(x, s->x, (size_t)n * sizeof *x);
  return;
done_nan:
  r->f = f;
  memcpy(x, s->x, (size_t)n * sizeof *x);
}
