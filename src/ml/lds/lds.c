/*
 * lds.c - Kalman filter, RTS smoother and state recursion (see lds.h).
 *
 * Filter (notes 003 §1.14 L944-958, §3 item 14; Bishop eqs. 13.84-13.92):
 * the prediction a_t = A mu_{t-1}, P_t = A V_{t-1} A^T + Q (a_1 = mu0,
 * P_1 = P0), the gain K = P C^T F^-1 with F = C P C^T + R, the update
 * mu_t = a_t + K (x_t - C a_t) and V_t in Joseph form (Bucy and Joseph
 * 1968), which keeps V_t symmetric positive semi-definite whatever the
 * rounding.  Smoother (notes 003 §3 item 15, with the corrected
 * cross-covariance Vs_{t+1} J_t^T; Rauch, Tung and Striebel 1965; Bishop
 * eqs. 13.100-13.104).
 * SPDX-License-Identifier: MIT
 */
#include "lds/lds.h"

#include <math.h>
#include <string.h>


/* c = a b: a r x k, b k x s. */
static void mm(int64_t r, int64_t k, int64_t s, const double *a, const double *b, double *c) {
  for (int64_t i = 0; i < r; i++) {
    double *ci = c + i * s;
    for (int64_t j = 0; j < s; j++) ci[j] = 0;
    for (int64_t l = 0; l < k; l++) {
      const double ail = a[i * k + l];
      const double *bl = b + l * s;
      for (int64_t j = 0; j < s; j++) ci[j] += ail * bl[j];
    }
  }
}

/* c = a b^T (+ c when add): a r x k, b s x k. */
static void mmt(int64_t r, int64_t k, int64_t s, const double *a, const double *b, double *c,
                int add) {
  for (int64_t i = 0; i < r; i++)
    for (int64_t j = 0; j < s; j++) {
      double acc = 0;
      for (int64_t l = 0; l < k; l++) acc += a[i * k + l] * b[j * k + l];
      c[i * s + j] = add ? c[i * s + j] + acc : acc;
    }
}

static void symmetrize(int64_t m, double *v) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = i + 1; j < m; j++) {
      const double s = 0.5 * (v[i * m + j] + v[j * m + i]);
      v[i * m + j] = s;
      v[j * m + i] = s;
    }
}

/* Lower Cholesky factor of the symmetric a (n x n) into l; 0 if a is not
 * positive definite. */
static int cholesky(int64_t n, const double *a, double *l) {
  for (int64_t j = 0; j < n; j++) {
    double d = a[j * n + j];
    for (int64_t k = 0; k < j; k++) d -= l[j * n + k] * l[j * n + k];
    if (!(d > 0)) return 0;
    d = sqrt(d);
    l[j * n + j] = d;
    for (int64_t i = j + 1; i < n; i++) {
      double s = a[i * n + j];
      for (int64_t k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / d;
      l[j * n + i] = 0;
    }
  }
  return 1;
}

/* Solves (l l^T) x = b in place, b n x k. */
static void chol_solve(int64_t n, int64_t k, const double *l, double *b) {
  for (int64_t c = 0; c < k; c++) {
    for (int64_t i = 0; i < n; i++) {
      double s = b[i * k + c];
      for (int64_t j = 0; j < i; j++) s -= l[i * n + j] * b[j * k + c];
      b[i * k + c] = s / l[i * n + i];
    }
    for (int64_t i = n - 1; i >= 0; i--) {
      double s = b[i * k + c];
      for (int64_t j = i + 1; j < n; j++) s -= l[j * n + i] * b[j * k + c];
      b[i * k + c] = s / l[i * n + i];
    }
  }
}


int64_t luma_lds_filter_work(int64_t m, int64_t p) {
  return 5 * m * m + 3 * m * p + 2 * p * p + 2 * m + 2 * p;
}

luma_LdsStatus luma_lds_filter(const luma_LdsModel *mdl, const double *x, int64_t n,
                               double *pred_mean, double *pred_cov, double *filt_mean,
                               double *filt_cov, double *loglik, double *total, double *work,
                               luma_Threads *meter, int64_t *bad_step) {
  const int64_t m = mdl->m, p = mdl->p, mm2 = m * m;
  double *a = work;           /* m: predicted mean */
  double *P = a + m;          /* m x m: predicted covariance */
  double *mu = P + mm2;       /* m: filtered mean */
  double *V = mu + m;         /* m x m: filtered covariance */
  double *T = V + mm2;        /* m x m scratch */
  double *IKC = T + mm2;      /* m x m: I - K C */
  double *PCt = IKC + mm2;    /* m x p: P C^T */
  double *K = PCt + m * p;    /* m x p: gain */
  double *KR = K + m * p;     /* m x p: K R */
  double *F = KR + m * p;     /* p x p: innovation covariance */
  double *L = F + p * p;      /* p x p: its Cholesky factor */
  double *v = L + p * p;      /* p: innovation */
  double *w = v + p;          /* p: L^-1 v */
  const double log2pi = log(2 * M_PI);
  double sum = 0;
  memcpy(a, mdl->mu0, (size_t)m * sizeof(double));
  memcpy(P, mdl->P0, (size_t)mm2 * sizeof(double));
  luma_WorkBatch batch = {meter, 0};
  const uint64_t step = (uint64_t)luma_lds_filter_work(m, p) * (uint64_t)(m + p); /* ~flops */
  for (int64_t t = 0; t < n; t++) {
    if (luma_work_add(&batch, step)) return LUMA_LDS_STOPPED;
    if (pred_mean) memcpy(pred_mean + t * m, a, (size_t)m * sizeof(double));
    if (pred_cov) memcpy(pred_cov + t * mm2, P, (size_t)mm2 * sizeof(double));
    const double *xt = x + t * p;
    double ll = 0;
    if (isnan(xt[0])) {
      memcpy(mu, a, (size_t)m * sizeof(double));
      memcpy(V, P, (size_t)mm2 * sizeof(double));
    } else {
      /* F = C P C^T + R, PCt = P C^T */
      mmt(m, m, p, P, mdl->C, PCt, 0);
      mm(p, m, p, mdl->C, PCt, F);
      for (int64_t i = 0; i < p * p; i++) F[i] += mdl->R[i];
      symmetrize(p, F);
      if (!cholesky(p, F, L)) {
        *bad_step = t;
        return LUMA_LDS_INNOVATION;
      }
      for (int64_t i = 0; i < p; i++) {
        double s = xt[i];
        for (int64_t j = 0; j < m; j++) s -= mdl->C[i * m + j] * a[j];
        v[i] = s;
      }
      /* log N(v | 0, F) = -(p log 2 pi + log det F + |L^-1 v|^2) / 2 */
      double logdet = 0, quad = 0;
      for (int64_t i = 0; i < p; i++) {
        double s = v[i];
        for (int64_t j = 0; j < i; j++) s -= L[i * p + j] * w[j];
        w[i] = s / L[i * p + i];
        quad += w[i] * w[i];
        logdet += log(L[i * p + i]);
      }
      ll = -0.5 * ((double)p * log2pi + quad) - logdet;
      /* K^T = F^-1 (P C^T)^T, solved as p x m then transposed */
      for (int64_t i = 0; i < p; i++)
        for (int64_t j = 0; j < m; j++) T[i * m + j] = PCt[j * p + i];
      chol_solve(p, m, L, T);
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < p; j++) K[i * p + j] = T[j * m + i];
      for (int64_t i = 0; i < m; i++) {
        double s = a[i];
        for (int64_t j = 0; j < p; j++) s += K[i * p + j] * v[j];
        mu[i] = s;
      }
      /* Joseph form: V = (I - K C) P (I - K C)^T + K R K^T */
      mm(m, p, m, K, mdl->C, IKC);
      for (int64_t i = 0; i < mm2; i++) IKC[i] = -IKC[i];
      for (int64_t i = 0; i < m; i++) IKC[i * m + i] += 1;
      mm(m, m, m, IKC, P, T);
      mmt(m, m, m, T, IKC, V, 0);
      mm(m, p, p, K, mdl->R, KR);
      mmt(m, p, m, KR, K, V, 1);
      symmetrize(m, V);
    }
    sum += ll;
    if (loglik) loglik[t] = ll;
    if (filt_mean) memcpy(filt_mean + t * m, mu, (size_t)m * sizeof(double));
    if (filt_cov) memcpy(filt_cov + t * mm2, V, (size_t)mm2 * sizeof(double));
    /* predict t + 1: a = A mu, P = A V A^T + Q */
    for (int64_t i = 0; i < m; i++) {
      double s = 0;
      for (int64_t j = 0; j < m; j++) s += mdl->A[i * m + j] * mu[j];
      a[i] = s;
    }
    mm(m, m, m, mdl->A, V, T);
    mmt(m, m, m, T, mdl->A, P, 0);
    for (int64_t i = 0; i < mm2; i++) P[i] += mdl->Q[i];
    symmetrize(m, P);
  }
  *total = sum;
  luma_work_flush(&batch);
  return LUMA_LDS_OK;
}

int64_t luma_lds_smooth_work(int64_t m) { return 4 * m * m + m; }

luma_LdsStatus luma_lds_smooth(int64_t m, int64_t n, const double *A, const double *pred_mean,
                               const double *pred_cov, const double *filt_mean,
                               const double *filt_cov, double *smooth_mean, double *smooth_cov,
                               double *cross_cov, double *work, luma_Threads *meter,
                               int64_t *bad_step) {
  const int64_t mm2 = m * m;
  double *L = work;        /* m x m: Cholesky factor of P_{t+1} */
  double *Jt = L + mm2;    /* m x m: J_t^T = P_{t+1}^-1 A V_t */
  double *D = Jt + mm2;    /* m x m: Vs_{t+1} - P_{t+1} */
  double *T = D + mm2;     /* m x m scratch */
  double *e = T + mm2;      /* m: mus_{t+1} - a_{t+1} */
  if (n < 1) return LUMA_LDS_OK;
  memcpy(smooth_mean + (n - 1) * m, filt_mean + (n - 1) * m, (size_t)m * sizeof(double));
  memcpy(smooth_cov + (n - 1) * mm2, filt_cov + (n - 1) * mm2, (size_t)mm2 * sizeof(double));
  memset(cross_cov, 0, (size_t)mm2 * sizeof(double));
  luma_WorkBatch batch = {meter, 0};
  const uint64_t step = (uint64_t)(8 * mm2 * m); /* ~flops of a step */
  for (int64_t t = n - 2; t >= 0; t--) {
    if (luma_work_add(&batch, step)) return LUMA_LDS_STOPPED;
    const double *Pn = pred_cov + (t + 1) * mm2;
    const double *Vt = filt_cov + t * mm2;
    if (!cholesky(m, Pn, L)) {
      *bad_step = t + 1;
      return LUMA_LDS_PREDICTED;
    }
    mm(m, m, m, A, Vt, Jt); /* A V_t; V_t symmetric, so J_t^T = P^-1 A V_t */
    chol_solve(m, m, L, Jt);
    const double *mun = smooth_mean + (t + 1) * m;
    const double *an = pred_mean + (t + 1) * m;
    for (int64_t i = 0; i < m; i++) e[i] = mun[i] - an[i];
    double *mus = smooth_mean + t * m;
    for (int64_t i = 0; i < m; i++) {
      double s = filt_mean[t * m + i];
      for (int64_t j = 0; j < m; j++) s += Jt[j * m + i] * e[j]; /* J = Jt^T */
      mus[i] = s;
    }
    const double *Vsn = smooth_cov + (t + 1) * mm2;
    for (int64_t i = 0; i < mm2; i++) D[i] = Vsn[i] - Pn[i];
    /* Vs_t = V_t + J D J^T = V_t + Jt^T D Jt */
    mm(m, m, m, D, Jt, T);         /* D Jt */
    double *Vs = smooth_cov + t * mm2;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < m; j++) {
        double s = Vt[i * m + j];
        for (int64_t l = 0; l < m; l++) s += Jt[l * m + i] * T[l * m + j];
        Vs[i * m + j] = s;
      }
    symmetrize(m, Vs);
    /* cov(z_{t+1}, z_t) = Vs_{t+1} J_t^T */
    mm(m, m, m, Vsn, Jt, cross_cov + (t + 1) * mm2);
  }
  luma_work_flush(&batch);
  return LUMA_LDS_OK;
}

int luma_lds_recurse(int64_t m, int64_t n, const double *A, double *w, luma_Threads *meter) {
  luma_WorkBatch batch = {meter, 0};
  for (int64_t t = 1; t < n; t++) {
    if (luma_work_add(&batch, (uint64_t)(m * (2 * m + 1)))) return 1;
    const double *prev = w + (t - 1) * m;
    double *cur = w + t * m;
    for (int64_t i = 0; i < m; i++) {
      double s = 0;
      for (int64_t j = 0; j < m; j++) s += A[i * m + j] * prev[j];
      cur[i] += s;
    }
  }
  luma_work_flush(&batch);
  return 0;
}
