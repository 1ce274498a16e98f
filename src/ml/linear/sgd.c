/*
 * sgd.c - plain SGD for linear models (sgd.h), following the update of
 * scikit-learn 1.2's _plain_sgd (Bottou's "optimal" schedule, the weight
 * scale for the l2 shrinkage, the cumulative l1 penalty).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "linear/sgd.h"

/* Clip of dloss, as scikit-learn: a huge gradient step is garbage. */
#define MAX_DLOSS 1e12

static double loss_value(luma_SgdLoss loss, double p, double y) {
  double z = p * y;
  switch (loss) {
  case LUMA_SGD_HINGE: return z <= 1.0 ? 1.0 - z : 0.0;
  case LUMA_SGD_LOG:
    if (z > 18) return exp(-z);
    if (z < -18) return -z;
    return log1p(exp(-z));
  case LUMA_SGD_MODIFIED_HUBER:
    if (z >= 1.0) return 0.0;
    if (z >= -1.0) return (1.0 - z) * (1.0 - z);
    return -4.0 * z;
  case LUMA_SGD_SQUARED: return 0.5 * (p - y) * (p - y);
  }
  return 0.0;
}

static double loss_derivative(luma_SgdLoss loss, double p, double y) {
  double z = p * y;
  switch (loss) {
  case LUMA_SGD_HINGE: return z <= 1.0 ? -y : 0.0;
  case LUMA_SGD_LOG:
    if (z > 18.0) return -y * exp(-z);
    if (z < -18.0) return -y;
    return -y / (exp(z) + 1.0);
  case LUMA_SGD_MODIFIED_HUBER:
    if (z >= 1.0) return 0.0;
    if (z >= -1.0) return -2.0 * (1.0 - z) * y;
    return -4.0 * y;
  case LUMA_SGD_SQUARED: return p - y;
  }
  return 0.0;
}

int64_t luma_sgd_work(int64_t n, int64_t d) { return d + n; }

/* One sample's entries: indices (NULL: all d in order) and values. */
typedef struct Row {
  const int64_t *ind;
  const double *val;
  int64_t nnz, stride;
} Row;

static Row row_of(const luma_SgdProblem *p, int64_t i) {
  Row r;
  if (p->sx) {
    int64_t s = p->sx->indptr[i];
    r.ind = p->sx->indices + s;
    r.val = p->sx->data + s;
    r.nnz = p->sx->indptr[i + 1] - s;
    r.stride = 1;
  } else {
    r.ind = NULL;
    r.val = p->x->data + i * p->x->rs;
    r.nnz = p->x->cols;
    r.stride = p->x->cs;
  }
  return r;
}

static double row_dot(const Row *r, const double *w) {
  double s = 0;
  for (int64_t e = 0; e < r->nnz; e++) s += r->val[e * r->stride] * w[r->ind ? r->ind[e] : e];
  return s;
}

/* Tsuruoka et al.'s cumulative penalty on the sample's nonzero features:
 * each weight may have taken at most u of l1 shrinkage so far, q[j] what
 * it took, and catches up when its feature next appears.  A dense row's
 * zeros are skipped as a sparse row's absent entries are (scikit-learn
 * penalises every feature of a dense row), so both give the same model. */
static void l1_penalty(const Row *r, double *w, double *q, double wscale, double u) {
  for (int64_t e = 0; e < r->nnz; e++) {
    if (r->val[e * r->stride] == 0.0) continue;
    int64_t j = r->ind ? r->ind[e] : e;
    double z = w[j];
    if (wscale * w[j] > 0.0) {
      double v = w[j] - (u + q[j]) / wscale;
      w[j] = v > 0.0 ? v : 0.0;
    } else if (wscale * w[j] < 0.0) {
      double v = w[j] + (u - q[j]) / wscale;
      w[j] = v < 0.0 ? v : 0.0;
    }
    q[j] += wscale * (w[j] - z);
  }
}

int luma_sgd_fit(const luma_SgdProblem *p, double *w, double *b, double *scratch, int64_t *epochs,
                 double *t_out) {
  int64_t n = p->sx ? p->sx->rows : p->x->rows, d = p->sx ? p->sx->cols : p->x->cols;
  double *q = scratch;
  int64_t *order = (int64_t *)(scratch + d);
  memset(q, 0, (size_t)d * sizeof *q);
  for (int64_t i = 0; i < n; i++) order[i] = i;
  double l1_ratio = p->l1_ratio, wscale = 1.0, u = 0.0, t = 1.0, best = INFINITY;
  int64_t no_improvement = 0;
  int use_l1 = !p->no_penalty && l1_ratio > 0.0 && p->alpha > 0.0;
  int use_l2 = !p->no_penalty && l1_ratio < 1.0 && p->alpha > 0.0;
  double optimal_init = 0.0;
  if (p->rate == LUMA_SGD_OPTIMAL) { /* Bottou's heuristic, as scikit-learn */
    double typw = sqrt(1.0 / sqrt(p->alpha));
    double dl = loss_derivative(p->loss, -typw, 1.0);
    double initial_eta0 = typw / (dl > 1.0 ? dl : 1.0);
    optimal_init = 1.0 / (initial_eta0 * p->alpha);
  }
  luma_WorkBatch work = {p->threads, 0};
  int converged = 0;
  for (*epochs = 1; *epochs <= p->max_iter; ++*epochs) {
    if (p->shuffle) /* Fisher-Yates */
      for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)luma_rng_below(p->rng, (uint64_t)(i + 1)), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
      }
    double sumloss = 0.0;
    for (int64_t s = 0; s < n; s++) {
      int64_t i = order[s];
      Row r = row_of(p, i);
      if (luma_work_add(&work, 3 * (uint64_t)r.nnz + 8)) return 0;
      double eta = p->rate == LUMA_SGD_OPTIMAL ? 1.0 / (p->alpha * (optimal_init + t - 1.0))
                   : p->rate == LUMA_SGD_INVSCALING ? p->eta0 / pow(t, p->power_t)
                                                    : p->eta0;
      double y = p->y[i], pred = row_dot(&r, w) * wscale + *b;
      sumloss += loss_value(p->loss, pred, y);
      double dloss = loss_derivative(p->loss, pred, y);
      if (dloss < -MAX_DLOSS) dloss = -MAX_DLOSS;
      if (dloss > MAX_DLOSS) dloss = MAX_DLOSS;
      double update = -eta * dloss * (y > 0.0 ? p->weight_pos : p->weight_neg) *
                      (p->weights ? p->weights[i] : 1.0);
      if (use_l2) {
        double shrink = 1.0 - (1.0 - l1_ratio) * eta * p->alpha;
        wscale *= shrink > 0.0 ? shrink : 0.0;
      }
      if (update != 0.0) {
        double step = update / wscale;
        for (int64_t e = 0; e < r.nnz; e++) w[r.ind ? r.ind[e] : e] += r.val[e * r.stride] * step;
        if (p->fit_intercept) *b += update;
      }
      if (use_l1) {
        u += l1_ratio * eta * p->alpha;
        l1_penalty(&r, w, q, wscale, u);
      }
      /* a tiny scale loses the weights' digits: fold it in (scikit-learn
       * does below 1e-9) */
      if (wscale < 1e-9) {
        for (int64_t j = 0; j < d; j++) w[j] *= wscale;
        wscale = 1.0;
      }
      t += 1.0;
    }
    if (!isfinite(*b)) return -1;
    if (p->tol > -INFINITY && sumloss > best - p->tol * (double)n)
      no_improvement++;
    else
      no_improvement = 0;
    if (sumloss < best) best = sumloss;
    if (no_improvement >= p->n_iter_no_change) {
      converged = 1;
      break;
    }
  }
  if (*epochs > p->max_iter) *epochs = p->max_iter;
  for (int64_t j = 0; j < d; j++) w[j] *= wscale;
  for (int64_t j = 0; j < d; j++)
    if (!isfinite(w[j])) return -1;
  luma_work_flush(&work);
  *t_out = t;
  return converged;
}
