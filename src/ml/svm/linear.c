/*
 * linear.c - coordinate descent for linear SVMs (see linear.h): LIBLINEAR's
 * dual solvers with shrinking (Hsieh et al. 2008; Ho & Lin 2012) and its
 * primal solver for the L1 penalty (Yuan et al. 2010), written anew over
 * dense rows.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/dot.h"
#include "svm/linear.h"

#define INF HUGE_VAL

/* splitmix64: a small deterministic stream for the visiting order. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* A random permutation of index[0, n) in place (Fisher-Yates). */
static void shuffle(int64_t *index, int64_t n, uint64_t *state) {
  for (int64_t i = 0; i < n; i++) {
    int64_t j = i + (int64_t)(next_random(state) % (uint64_t)(n - i));
    int64_t t = index[i];
    index[i] = index[j];
    index[j] = t;
  }
}

static void swap_index(int64_t *index, int64_t a, int64_t b) {
  int64_t t = index[a];
  index[a] = index[b];
  index[b] = t;
}

static const double *row_of(const luma_LinearSvm *p, int64_t i) {
  return p->x->data + i * p->x->rs;
}

static int64_t rows_of(const luma_LinearSvm *p) { return p->sx ? p->sx->rows : p->x->rows; }
static int64_t cols_of(const luma_LinearSvm *p) { return p->sx ? p->sx->cols : p->x->cols; }

/* w.x_i with the bias feature (a sparse row: its stored entries). */
static double margin(const luma_LinearSvm *p, const double *w, int64_t i) {
  const int64_t d = cols_of(p);
  double v;
  if (p->sx) {
    v = 0;
    for (int64_t e = p->sx->indptr[i]; e < p->sx->indptr[i + 1]; e++)
      v += w[p->sx->indices[e]] * p->sx->data[e];
  } else {
    v = luma_dot(w, row_of(p, i), d);
  }
  return p->bias > 0 ? v + w[d] * p->bias : v;
}

/* w += a x_i with the bias feature (w never overlaps the data: restrict
 * lets the loop vectorize). */
static void add_row(const luma_LinearSvm *p, double *restrict w, double a, int64_t i) {
  const int64_t d = cols_of(p);
  if (p->sx) {
    for (int64_t e = p->sx->indptr[i]; e < p->sx->indptr[i + 1]; e++)
      w[p->sx->indices[e]] += a * p->sx->data[e];
  } else {
    const double *restrict x = row_of(p, i);
    for (int64_t k = 0; k < d; k++) w[k] += a * x[k];
  }
  if (p->bias > 0) w[d] += a * p->bias;
}

static double squared_norm(const luma_LinearSvm *p, int64_t i) {
  const double b = p->bias > 0 ? p->bias * p->bias : 0;
  if (p->sx) {
    double s = 0;
    for (int64_t e = p->sx->indptr[i]; e < p->sx->indptr[i + 1]; e++)
      s += p->sx->data[e] * p->sx->data[e];
    return s + b;
  }
  const double *x = row_of(p, i);
  return luma_dot(x, x, p->x->cols) + b;
}

int64_t luma_linear_svm_work(int64_t l, int64_t wd, int which, int64_t sparse_nnz,
                             int64_t *iwork) {
  if (which == LUMA_LINEAR_SVC_L1_PRIMAL) {
    *iwork = wd;
    return l + wd + (sparse_nnz >= 0 ? sparse_nnz + l : l * wd);
  }
  *iwork = l;
  return l;
}

/* Hsieh et al. 2008, Algorithm 1 with shrinking (their Section 3.2): for
 * min_a 1/2 a'Qa - e'a, 0 <= a_i <= U_i, Q = YXX'Y + D, one coordinate
 * at a time in a random order: G = y_i w.x_i - 1 + D_ii a_i, projected,
 * a_i <- min(max(a_i - G/Q_ii, 0), U_i), w += (change) y_i x_i.
 * L1 loss: U_i = C_i, D = 0; L2 loss: U_i = inf, D_ii = 1/(2 C_i). */
luma_LinearSvmResult luma_linear_svc_dual(const luma_LinearSvm *p, double *w, double *alpha,
                                          double *work, int64_t *index) {
  const int64_t l = rows_of(p), wd = cols_of(p) + (p->bias > 0);
  double *QD = work;
  uint64_t state = p->seed;
  luma_LinearSvmResult r = {0, 0, 0};
  memset(w, 0, (size_t)wd * sizeof *w);
  for (int64_t i = 0; i < l; i++) {
    alpha[i] = 0;
    QD[i] = squared_norm(p, i) + (p->loss == 2 ? 0.5 / p->C[i] : 0);
    index[i] = i;
  }
  double PGmax_old = INF, PGmin_old = -INF;
  int64_t active = l;
  /* a step: the margin and the update of w, O(d) each */
  const uint64_t per_step = 2 * (uint64_t)wd + 8;
  luma_WorkBatch meter = {p->threads, 0};
  while (r.iterations < p->max_iter) {
    double PGmax_new = -INF, PGmin_new = INF;
    shuffle(index, active, &state);
    for (int64_t s = 0; s < active; s++) {
      if (luma_work_add(&meter, per_step)) {
        r.stopped = 1;
        return r;
      }
      const int64_t i = index[s];
      const double yi = p->y[i] > 0 ? 1 : -1;
      const double diag = p->loss == 2 ? 0.5 / p->C[i] : 0;
      const double U = p->loss == 2 ? INF : p->C[i];
      const double G = yi * margin(p, w, i) - 1 + alpha[i] * diag;
      double PG = 0;
      if (alpha[i] == 0) {
        if (G > PGmax_old) { /* stays at 0: shrink */
          swap_index(index, s--, --active);
          continue;
        }
        if (G < 0) PG = G;
      } else if (alpha[i] == U) {
        if (G < PGmin_old) { /* stays at U: shrink */
          swap_index(index, s--, --active);
          continue;
        }
        if (G > 0) PG = G;
      } else {
        PG = G;
      }
      if (PG > PGmax_new) PGmax_new = PG;
      if (PG < PGmin_new) PGmin_new = PG;
      if (fabs(PG) > 1e-12) {
        const double old = alpha[i];
        alpha[i] = fmin(fmax(alpha[i] - G / QD[i], 0.0), U);
        add_row(p, w, (alpha[i] - old) * yi, i);
      }
    }
    r.iterations++;
    if (PGmax_new - PGmin_new <= p->tol) {
      if (active == l) {
        r.converged = 1;
        break;
      }
      /* converged on the active set: check every variable once more */
      active = l;
      PGmax_old = INF;
      PGmin_old = -INF;
      continue;
    }
    PGmax_old = PGmax_new > 0 ? PGmax_new : INF;
    PGmin_old = PGmin_new < 0 ? PGmin_new : -INF;
  }
  luma_work_flush(&meter);
  return r;
}

/* Ho & Lin 2012 (LIBLINEAR's L2R_L1LOSS_SVR_DUAL / L2LOSS_SVR_DUAL): with
 * beta = alpha - alpha*, min_beta 1/2 beta'(XX' + lambda I)beta - y'beta
 * + eps |beta|_1, -U <= beta_i <= U, one coordinate at a time by the
 * closed-form minimizer of the one-variable piecewise quadratic. L1 loss:
 * U = C_i, lambda = 0; L2 loss: U = inf, lambda = 1/(2 C_i).  Stops when
 * the summed violation falls below tol times its first value. */
luma_LinearSvmResult luma_linear_svr_dual(const luma_LinearSvm *p, double *w, double *beta,
                                          double *work, int64_t *index) {
  const int64_t l = rows_of(p), wd = cols_of(p) + (p->bias > 0);
  double *QD = work;
  uint64_t state = p->seed;
  luma_LinearSvmResult r = {0, 0, 0};
  memset(w, 0, (size_t)wd * sizeof *w);
  for (int64_t i = 0; i < l; i++) {
    beta[i] = 0;
    QD[i] = squared_norm(p, i);
    index[i] = i;
  }
  double Gmax_old = INF, Gnorm1_init = -1;
  int64_t active = l;
  const double eps = p->epsilon;
  const uint64_t per_step = 2 * (uint64_t)wd + 8;
  luma_WorkBatch meter = {p->threads, 0};
  while (r.iterations < p->max_iter) {
    double Gmax_new = 0, Gnorm1_new = 0;
    shuffle(index, active, &state);
    for (int64_t s = 0; s < active; s++) {
      if (luma_work_add(&meter, per_step)) {
        r.stopped = 1;
        return r;
      }
      const int64_t i = index[s];
      const double lambda = p->loss == 2 ? 0.5 / p->C[i] : 0;
      const double U = p->loss == 2 ? INF : p->C[i];
      const double G = -p->y[i] + lambda * beta[i] + margin(p, w, i);
      const double H = QD[i] + lambda;
      const double Gp = G + eps, Gn = G - eps;
      double violation = 0;
      if (beta[i] == 0) {
        if (Gp < 0)
          violation = -Gp;
        else if (Gn > 0)
          violation = Gn;
        else if (Gp > Gmax_old && Gn < -Gmax_old) {
          swap_index(index, s--, --active);
          continue;
        }
      } else if (beta[i] >= U) {
        if (Gp > 0)
          violation = Gp;
        else if (Gp < -Gmax_old) {
          swap_index(index, s--, --active);
          continue;
        }
      } else if (beta[i] <= -U) {
        if (Gn < 0)
          violation = -Gn;
        else if (Gn > Gmax_old) {
          swap_index(index, s--, --active);
          continue;
        }
      } else {
        violation = beta[i] > 0 ? fabs(Gp) : fabs(Gn);
      }
      if (violation > Gmax_new) Gmax_new = violation;
      Gnorm1_new += violation;
      /* the Newton direction of the piecewise quadratic */
      double dir;
      if (Gp < H * beta[i])
        dir = -Gp / H;
      else if (Gn > H * beta[i])
        dir = -Gn / H;
      else
        dir = -beta[i];
      if (fabs(dir) < 1e-12) continue;
      const double old = beta[i];
      beta[i] = fmin(fmax(beta[i] + dir, -U), U);
      if (beta[i] != old) add_row(p, w, beta[i] - old, i);
    }
    if (r.iterations == 0) Gnorm1_init = Gnorm1_new;
    r.iterations++;
    if (Gnorm1_new <= p->tol * Gnorm1_init) {
      if (active == l) {
        r.converged = 1;
        break;
      }
      active = l;
      Gmax_old = INF;
      continue;
    }
    Gmax_old = Gmax_new;
  }
  luma_work_flush(&meter);
  return r;
}

/* Yuan et al. 2010 (LIBLINEAR's L1R_L2LOSS_SVC): min |w|_1 + sum_i C_i
 * max(0, 1 - y_i w.x_i)^2 one weight at a time, a Newton step on the
 * smooth part with the soft threshold of the L1 term, then a backtracking
 * line search (sufficient decrease sigma = 0.01, at most 20 halvings) that
 * first tries a cheap upper bound of the loss change; with shrinking of
 * weights that stay at zero.  Stops when the summed violation falls below
 * tol times its first value. */
/* A column of the primal solver: y_i x_ij for the samples i it holds,
 * every sample when idx is NULL. */
typedef struct Column {
  int64_t n;
  const int64_t *idx;
  const double *val;
} Column;

/* Runs body for each entry (i, v) of column c: two loops, so the dense
 * one stays a plain loop over i. */
#define FOR_ENTRIES(c, i, v, body)                                   \
  do {                                                               \
    if ((c).idx != NULL) {                                           \
      for (int64_t k_ = 0; k_ < (c).n; k_++) {                       \
        const int64_t i = (c).idx[k_];                               \
        const double v = (c).val[k_];                                \
        body                                                         \
      }                                                              \
    } else {                                                         \
      for (int64_t i = 0; i < (c).n; i++) {                          \
        const double v = (c).val[i];                                 \
        body                                                         \
      }                                                              \
    }                                                                \
  } while (0)

/* Column j of the data the solver built in `col` (dense: l values a
 * column; sparse: scx's entries, then the bias column of l values). */
static Column column_of(const luma_LinearSvm *p, const double *col, int64_t l, int64_t d, int64_t j) {
  if (p->scx == NULL) return (Column){l, NULL, col + j * l};
  if (j == d) return (Column){l, NULL, col + p->scx->nnz};
  const int64_t at = p->scx->indptr[j];
  return (Column){p->scx->indptr[j + 1] - at, p->scx->indices + at, col + at};
}

/* Yuan, Chang, Hsieh & Lin 2010, Section 4.1.2 (LIBLINEAR's
 * solve_l1r_l2_svc): coordinate descent on w_j with a Newton direction
 * over the samples whose margin b_i = 1 - y_i w.x_i is positive, and an
 * Armijo line search that only touches the samples column j holds. */
luma_LinearSvmResult luma_linear_svc_l1(const luma_LinearSvm *p, double *w, double *work,
                                        int64_t *index) {
  const int64_t l = p->scx ? p->scx->cols : p->x->rows;
  const int64_t d = p->scx ? p->scx->rows : p->x->cols, wd = d + (p->bias > 0);
  const int64_t entries = p->scx ? p->scx->nnz + l : l * wd;
  double *b = work;            /* b_i = 1 - y_i w.x_i */
  double *xj_sq = work + l;    /* sum_i C_i x_ij^2 */
  double *col = work + l + wd; /* the columns' y_i x_ij */
  const double sigma = 0.01;
  const int max_line_search = 20;
  uint64_t state = p->seed;
  luma_LinearSvmResult r = {0, 0, 0};
  /* the columns y_i x_ij and their weighted norms */
  if (luma_work_charge(p->threads, 3 * (uint64_t)entries + (uint64_t)wd) != LUMA_LOOP_DONE) {
    r.stopped = 1;
    return r;
  }
  if (p->scx != NULL) {
    for (int64_t e = 0; e < p->scx->nnz; e++)
      col[e] = p->scx->data[e] * (p->y[p->scx->indices[e]] > 0 ? 1 : -1);
    for (int64_t i = 0; i < l && wd > d; i++) col[p->scx->nnz + i] = p->bias * (p->y[i] > 0 ? 1 : -1);
  } else {
    for (int64_t j = 0; j < wd; j++)
      for (int64_t i = 0; i < l; i++)
        col[j * l + i] = (j < d ? LUMA_AT(p->x, i, j) : p->bias) * (p->y[i] > 0 ? 1 : -1);
  }
  for (int64_t j = 0; j < wd; j++) {
    w[j] = 0;
    index[j] = j;
    double sq = 0;
    const Column c = column_of(p, col, l, d, j);
    FOR_ENTRIES(c, i, v, { sq += p->C[i] * v * v; });
    xj_sq[j] = sq;
  }
  for (int64_t i = 0; i < l; i++) b[i] = 1;
  double Gmax_old = INF, Gnorm1_init = -1;
  int64_t active = wd;
  /* a coordinate: its gradient and curvature over its column's samples;
   * each try of the line search and a rebuild of b are charged where
   * they happen */
  luma_WorkBatch meter = {p->threads, 0};
  while (r.iterations < p->max_iter) {
    double Gmax_new = 0, Gnorm1_new = 0;
    shuffle(index, active, &state);
    for (int64_t s = 0; s < active; s++) {
      const int64_t j = index[s];
      const Column c = column_of(p, col, l, d, j);
      if (luma_work_add(&meter, 2 * (uint64_t)c.n + 8)) {
        r.stopped = 1;
        return r;
      }
      double G_loss = 0, H = 0;
      FOR_ENTRIES(c, i, v, {
        if (b[i] > 0) {
          const double t = p->C[i] * v;
          G_loss -= t * b[i];
          H += t * v;
        }
      });
      G_loss *= 2;
      const double G = G_loss;
      H = fmax(2 * H, 1e-12);
      const double Gp = G + 1, Gn = G - 1;
      double violation = 0;
      if (w[j] == 0) {
        if (Gp < 0)
          violation = -Gp;
        else if (Gn > 0)
          violation = Gn;
        else if (Gp > Gmax_old / (double)l && Gn < -Gmax_old / (double)l) {
          swap_index(index, s--, --active);
          continue;
        }
      } else {
        violation = w[j] > 0 ? fabs(Gp) : fabs(Gn);
      }
      if (violation > Gmax_new) Gmax_new = violation;
      Gnorm1_new += violation;
      double dir;
      if (Gp < H * w[j])
        dir = -Gp / H;
      else if (Gn > H * w[j])
        dir = -Gn / H;
      else
        dir = -w[j];
      if (fabs(dir) < 1e-12) continue;
      double delta = fabs(w[j] + dir) - fabs(w[j]) + G * dir;
      double d_old = 0, loss_old = 0, loss_new = 0;
      int tries;
      for (tries = 0; tries < max_line_search; tries++) {
        if (luma_work_add(&meter, 3 * (uint64_t)c.n)) {
          r.stopped = 1;
          return r;
        }
        const double d_diff = d_old - dir;
        double cond = fabs(w[j] + dir) - fabs(w[j]) - sigma * delta;
        if (xj_sq[j] * dir * dir + G_loss * dir + cond <= 0) {
          /* the bound already guarantees the decrease: take the step */
          FOR_ENTRIES(c, i, v, { b[i] += d_diff * v; });
          break;
        }
        /* only the samples column j holds change their loss */
        loss_new = 0;
        FOR_ENTRIES(c, i, v, {
          if (tries == 0 && b[i] > 0) loss_old += p->C[i] * b[i] * b[i];
          b[i] += d_diff * v;
          if (b[i] > 0) loss_new += p->C[i] * b[i] * b[i];
        });
        cond += loss_new - loss_old;
        if (cond <= 0) break;
        d_old = dir;
        dir *= 0.5;
        delta *= 0.5;
      }
      w[j] += dir;
      if (tries >= max_line_search) {
        if (luma_work_add(&meter, (uint64_t)(l + entries))) {
          r.stopped = 1;
          return r;
        }
        /* b drifted through the halvings: recompute it */
        for (int64_t i = 0; i < l; i++) b[i] = 1;
        for (int64_t k = 0; k < wd; k++) {
          if (w[k] == 0) continue;
          const Column ck = column_of(p, col, l, d, k);
          const double wk = w[k];
          FOR_ENTRIES(ck, i, v, { b[i] -= wk * v; });
        }
      }
    }
    if (r.iterations == 0) Gnorm1_init = Gnorm1_new;
    r.iterations++;
    if (Gnorm1_new <= p->tol * Gnorm1_init) {
      if (active == wd) {
        r.converged = 1;
        break;
      }
      active = wd;
      Gmax_old = INF;
      continue;
    }
    Gmax_old = Gmax_new;
  }
  luma_work_flush(&meter);
  return r;
}
