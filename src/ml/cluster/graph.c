/*
 * graph.c - sparse graphs, connected components, modularity and the
 * bottom of a graph Laplacian's spectrum (see graph.h).
 *
 * Laplacians follow von Luxburg, A tutorial on spectral clustering (2007):
 * L = D - W (sec. 3.1), L_sym = D^-1/2 L D^-1/2 (sec. 3.2); L_rw = D^-1 L
 * is not symmetric, and its eigenvectors are D^-1/2 times those of L_sym
 * (the caller's business).  Notes 000 Ch. 10, with the erratum that L_rw
 * is symmetric corrected.
 * SPDX-License-Identifier: MIT
 */
#include "cluster/graph.h"

#include <math.h>
#include <string.h>

#include <cblas.h>

#include "linalg/lapack.h"

/* ------------------------------------------------------------ building */

int64_t luma_csr_entries_work(int64_t n, int64_t cap) { return 2 * cap + n + 1; }

int64_t luma_csr_from_entries(int64_t n, int64_t count, const int64_t *ri, const int64_t *ci,
                              const double *w, int mirror, double scale, int drop_diagonal,
                              luma_Csr *out, int64_t *iwork, double *dwork) {
  const int64_t cap = mirror ? 2 * count : count;
  int64_t *tr = iwork, *tc = iwork + cap, *cnt = iwork + 2 * cap;
  /* by column */
  memset(cnt, 0, (size_t)(n + 1) * sizeof *cnt);
  for (int64_t e = 0; e < count; e++) {
    const int64_t i = ri[e], j = ci[e];
    if (i == j && drop_diagonal) continue;
    cnt[j + 1]++;
    if (mirror && i != j) cnt[i + 1]++;
  }
  for (int64_t j = 0; j < n; j++) cnt[j + 1] += cnt[j];
  const int64_t total = cnt[n];
  for (int64_t e = 0; e < count; e++) {
    const int64_t i = ri[e], j = ci[e];
    if (i == j && drop_diagonal) continue;
    int64_t p = cnt[j]++;
    tr[p] = i, tc[p] = j, dwork[p] = w[e];
    if (mirror && i != j) {
      p = cnt[i]++;
      tr[p] = j, tc[p] = i, dwork[p] = w[e];
    }
  }
  /* by row (stable: columns stay sorted within a row) */
  int64_t *ptr = out->ptr;
  memset(ptr, 0, (size_t)(n + 1) * sizeof *ptr);
  for (int64_t t = 0; t < total; t++) ptr[tr[t] + 1]++;
  for (int64_t i = 0; i < n; i++) ptr[i + 1] += ptr[i];
  memcpy(cnt, ptr, (size_t)n * sizeof *cnt);
  for (int64_t t = 0; t < total; t++) {
    const int64_t p = cnt[tr[t]]++;
    out->col[p] = tc[t];
    out->val[p] = dwork[t] * scale;
  }
  /* duplicates summed, zeros dropped, compacted in place */
  int64_t q = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t start = ptr[i], end = ptr[i + 1];
    const int64_t row = q;
    ptr[i] = q;
    for (int64_t p = start; p < end; p++) {
      if (q > row && out->col[q - 1] == out->col[p]) {
        out->val[q - 1] += out->val[p];
      } else {
        out->col[q] = out->col[p];
        out->val[q] = out->val[p];
        q++;
      }
    }
    int64_t r = row;
    for (int64_t p = row; p < q; p++)
      if (out->val[p] != 0) {
        out->col[r] = out->col[p];
        out->val[r] = out->val[p];
        r++;
      }
    q = r;
  }
  ptr[n] = q;
  out->n = n;
  return q;
}

int64_t luma_csr_dense_count(const luma_Mat *a, int drop_diagonal) {
  int64_t count = 0;
  for (int64_t i = 0; i < a->rows; i++)
    for (int64_t j = 0; j < a->cols; j++)
      if (LUMA_AT(a, i, j) != 0 && !(drop_diagonal && i == j)) count++;
  return count;
}

void luma_csr_from_dense(const luma_Mat *a, int drop_diagonal, luma_Csr *out) {
  int64_t q = 0;
  out->n = a->rows;
  for (int64_t i = 0; i < a->rows; i++) {
    out->ptr[i] = q;
    for (int64_t j = 0; j < a->cols; j++) {
      const double v = LUMA_AT(a, i, j);
      if (v != 0 && !(drop_diagonal && i == j)) {
        out->col[q] = j;
        out->val[q] = v;
        q++;
      }
    }
  }
  out->ptr[a->rows] = q;
}

/* The weight of (i, j), 0 when absent (binary search in row i). */
static double weight_of(const luma_Csr *g, int64_t i, int64_t j) {
  int64_t lo = g->ptr[i], hi = g->ptr[i + 1];
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (g->col[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < g->ptr[i + 1] && g->col[lo] == j ? g->val[lo] : 0.0;
}

int luma_csr_check_symmetric(const luma_Csr *g, double tol, int64_t *bad_i, int64_t *bad_j) {
  for (int64_t i = 0; i < g->n; i++)
    for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++) {
      const int64_t j = g->col[p];
      const double a = g->val[p], b = weight_of(g, j, i);
      if (fabs(a - b) > tol * fmax(fabs(a), fabs(b))) {
        *bad_i = i < j ? i : j;
        *bad_j = i < j ? j : i;
        return 1;
      }
    }
  return 0;
}

int64_t luma_csr_components(const luma_Csr *g, int64_t *label, int64_t *queue) {
  for (int64_t i = 0; i < g->n; i++) label[i] = -1;
  int64_t c = 0;
  for (int64_t s = 0; s < g->n; s++) {
    if (label[s] >= 0) continue;
    int64_t head = 0, tail = 0;
    queue[tail++] = s;
    label[s] = c;
    while (head < tail) {
      const int64_t i = queue[head++];
      for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++) {
        const int64_t j = g->col[p];
        if (label[j] < 0) {
          label[j] = c;
          queue[tail++] = j;
        }
      }
    }
    c++;
  }
  return c;
}

/* ---------------------------------------------------------- modularity */

double luma_modularity(const luma_Csr *g, const int64_t *label, int64_t ncomm, double gamma,
                       int null_model, double *work) {
  double *in = work, *tot = work + ncomm, *size = work + 2 * ncomm;
  memset(work, 0, (size_t)(3 * ncomm) * sizeof *work);
  double two_m = 0;
  for (int64_t i = 0; i < g->n; i++) {
    const int64_t c = label[i];
    size[c] += 1;
    for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++) {
      tot[c] += g->val[p];
      if (label[g->col[p]] == c) in[c] += g->val[p];
    }
  }
  for (int64_t c = 0; c < ncomm; c++) two_m += tot[c];
  if (!(two_m > 0)) return NAN;
  const double n = (double)g->n;
  const double p_er = n > 1 ? two_m / (n * (n - 1)) : 0.0;
  double q = 0;
  for (int64_t c = 0; c < ncomm; c++) {
    const double expected = null_model == 0 ? tot[c] * tot[c] / two_m
                                            : p_er * size[c] * (size[c] - 1);
    q += in[c] - gamma * expected;
  }
  return q / two_m;
}

/* --------------------------------------------------- Laplacian spectrum */

/* Components of at most this many nodes go to dense LAPACK whatever
 * dense_max says: below it a Lanczos basis would not fit. */
static int64_t dense_threshold(const luma_LaplacianEig *o) {
  const int64_t floor_ = 2 * o->k + 42;
  return o->dense_max > floor_ ? o->dense_max : floor_;
}

/* The Lanczos basis size for r wanted pairs. */
static int64_t lanczos_dim(int64_t r) { return 2 * r + 1 > r + 40 ? 2 * r + 1 : r + 40; }

static int64_t dense_need(int64_t s, int64_t *iwork) {
  *iwork = 3 + 5 * s;
  return s * s + s + 1 + 6 * s + 2 * s * s;
}

static int64_t lanczos_need(int64_t s, int64_t m, int64_t nz, int64_t *iwork) {
  *iwork = 3 + 5 * m;
  return s * (m + 1) + s + s * m + 2 * m * m + m + 2 * (m + 1) + nz + 1 + 6 * m + 2 * m * m;
}

int64_t luma_laplacian_eig_work(const luma_LaplacianEig *o, int64_t n, int64_t nnz, int64_t c,
                                int64_t largest, int64_t *iwork) {
  const int64_t thr = dense_threshold(o);
  int64_t iw_dense = 0, iw_lanczos = 0;
  int64_t solver = dense_need(largest < thr ? largest : thr, &iw_dense);
  if (largest > thr) {
    const int64_t need = lanczos_need(largest, lanczos_dim(o->k), o->k + 2, &iw_lanczos);
    if (need > solver) solver = need;
  }
  const int64_t iw_solver = iw_dense > iw_lanczos ? iw_dense : iw_lanczos;
  /* nodes, pos, starts, candidate component/offset/order, the local
   * operator's rows and columns, solver */
  *iwork = 2 * n + (c + 1) + 3 * n + (n + 1) + nnz + iw_solver;
  /* degrees, inverse square roots, candidate vectors and values, the
   * local operator's entries and diagonal, one component's values, solver */
  return 2 * n + n * (o->k + 1) + n + nnz + n + o->k + solver;
}

/* One component: its nodes (global ids), their local positions, and for
 * the Lanczos products its operator M in local compressed rows (the
 * diagonal apart). */
typedef struct Comp {
  const luma_Csr *g;
  const int64_t *nodes; /* s */
  const int64_t *pos;   /* global -> local */
  int64_t s;
  const double *deg, *dinv;
  int normalized;
  double sigma; /* unnormalized: M = sigma I - L */
  int64_t *lptr, *lcol; /* s + 1, the component's entries */
  double *lval, *ldiag; /* entries, s */
} Comp;

/* Fills the local operator: M = D^-1/2 W D^-1/2 (zero diagonal) or
 * sigma I - L = (sigma - d) I + W, in local indices. */
static void comp_operator(Comp *c) {
  const luma_Csr *g = c->g;
  int64_t q = 0;
  for (int64_t a = 0; a < c->s; a++) {
    const int64_t i = c->nodes[a];
    c->lptr[a] = q;
    for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++) {
      const int64_t j = g->col[p];
      if (j == i) continue;
      c->lcol[q] = c->pos[j];
      c->lval[q] = c->normalized ? g->val[p] * c->dinv[i] * c->dinv[j] : g->val[p];
      q++;
    }
    c->ldiag[a] = c->normalized ? 0.0 : c->sigma - c->deg[i];
  }
  c->lptr[c->s] = q;
}

/* y = M x on the component. */
static void comp_matvec(const Comp *c, const double *x, double *y) {
  const int64_t *lptr = c->lptr, *lcol = c->lcol;
  const double *lval = c->lval;
  for (int64_t a = 0; a < c->s; a++) {
    double acc = c->ldiag[a] * x[a];
    for (int64_t p = lptr[a]; p < lptr[a + 1]; p++) acc += lval[p] * x[lcol[p]];
    y[a] = acc;
  }
}

/* Eigen-decomposition of the symmetric m x m matrix a (column-major,
 * upper triangle read): ascending values w, vectors overwrite a. */
static int syevd(int64_t m, double *a, double *w, double *work, int64_t lwork, int64_t *iwork_,
                 int64_t liwork) {
  const lapack_int nn = (lapack_int)m, lda = (lapack_int)(m > 0 ? m : 1);
  const lapack_int lw = (lapack_int)lwork, liw = (lapack_int)liwork;
  lapack_int info = 0;
  /* iwork_ holds int64s; LAPACK's integers may be narrower: reuse the
   * buffer as lapack_int, which fits */
  dsyevd_("V", "U", &nn, a, &lda, w, work, &lw, (lapack_int *)iwork_, &liw, &info, 1, 1);
  return info == 0 ? 0 : -1;
}

/* Dense: eigenpairs 1..r (the 0th is the null vector) of the component's
 * Laplacian into vals/vecs (s each, consecutive). */
static int dense_pairs(const Comp *c, int64_t r, double *vals, double *vecs, double *work,
                       int64_t *iwork) {
  const int64_t s = c->s;
  const luma_Csr *g = c->g;
  double *a = work, *w = work + s * s, *lw = w + s;
  memset(a, 0, (size_t)(s * s) * sizeof *a);
  for (int64_t b = 0; b < s; b++) {
    const int64_t i = c->nodes[b];
    a[b * s + b] = c->normalized ? 1.0 : c->deg[i];
    for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++) {
      const int64_t j = g->col[p];
      if (j == i) continue;
      a[b * s + c->pos[j]] = c->normalized ? -g->val[p] * c->dinv[i] * c->dinv[j] : -g->val[p];
    }
  }
  int64_t liw = 0;
  const int64_t lwork = dense_need(s, &liw) - s * s - s; /* 1 + 6s + 2s^2 */
  if (syevd(s, a, w, lw, lwork, iwork, liw) != 0) return -1;
  for (int64_t t = 0; t < r; t++) {
    vals[t] = w[t + 1] > 0 ? w[t + 1] : 0.0;
    memcpy(vecs + t * s, a + (t + 1) * s, (size_t)s * sizeof *vecs);
  }
  return 0;
}

/* h = V^T w for the nz columns of V (s x nz, column-major), then w -= V h:
 * one classical Gram-Schmidt pass. */
static void gs_pass(double *w, const double *V, int64_t nz, int64_t s, double *h) {
  cblas_dgemv(CblasColMajor, CblasTrans, (int)s, (int)nz, 1.0, V, (int)s, w, 1, 0.0, h, 1);
  cblas_dgemv(CblasColMajor, CblasNoTrans, (int)s, (int)nz, -1.0, V, (int)s, h, 1, 1.0, w, 1);
}

static double norm2(const double *w, int64_t s) { return cblas_dnrm2((int)s, w, 1); }


/* A random unit vector orthogonal to the locked Z and to the j columns of
 * V. */
static void random_start(double *v, const double *Z, int64_t nz, const double *V, int64_t s,
                         int64_t j, double *h, double *hz, uint64_t *rng) {
  for (int attempt = 0; attempt < 8; attempt++) {
    for (int64_t a = 0; a < s; a++) v[a] = 2 * luma_cluster_uniform(rng) - 1;
    for (int pass = 0; pass < 2; pass++) {
      gs_pass(v, Z, nz, s, hz);
      if (j > 0) gs_pass(v, V, j, s, h);
    }
    const double nv = norm2(v, s);
    if (nv > 1e-8) {
      for (int64_t a = 0; a < s; a++) v[a] /= nv;
      return;
    }
  }
}

/* Thick-restart Lanczos (Wu and Simon 2000) for the r largest eigenpairs
 * of M on the component, deflated by nz known orthonormal eigenvectors Z
 * (s x nz): the basis is kept orthogonal to Z and to itself (classical
 * Gram-Schmidt, repeated when it cancels much of the vector), the projected matrix T = V^T M V is
 * formed from those projections, and on restart the l best Ritz vectors
 * plus the residual direction start the next basis.  The r Ritz values
 * (as Laplacian eigenvalues, ascending) and vectors go to vals/vecs.
 * Returns 1 converged, 0 not, -1 LAPACK failed, -2 stopped by the meter. */
static int lanczos_pairs(const Comp *c, const luma_LaplacianEig *o, int64_t r, const double *Z,
                         int64_t nz, double *vals, double *vecs, double *work, int64_t *iwork,
                         uint64_t *rng, int64_t *matvecs) {
  const int64_t s = c->s, m = lanczos_dim(r);
  const double anorm = c->normalized ? 1.0 : c->sigma;
  double *V = work, *w = V + s * (m + 1), *tmp = w + s, *T = tmp + s * m, *S = T + m * m;
  double *theta = S + m * m, *h = theta + m, *h2 = h + (m + 1), *hz = h2 + (m + 1);
  double *lw = hz + nz;
  int64_t liw = 0;
  const int64_t lwork = 1 + 6 * m + 2 * m * m;
  (void)lanczos_need(s, m, nz, &liw);
  const int64_t l = r + (m - r) / 2;
  int64_t j0 = 0;
  int converged = 0;
  double beta = 0;
  memset(T, 0, (size_t)(m * m) * sizeof *T);
  random_start(V, Z, nz, V, s, 0, h, hz, rng);
  for (;;) {
    for (int64_t j = j0; j < m; j++) {
      /* one product over the component's entries, two Gram-Schmidt passes */
      if (luma_work_charge(o->meter, (uint64_t)(c->lptr[s] + s * (2 * (j + 1) + nz))))
        return -2;
      double *v = V + j * s;
      comp_matvec(c, v, w);
      (*matvecs)++;
      const int64_t jj = j + 1;
      gs_pass(w, Z, nz, s, hz);
      const double before = norm2(w, s);
      gs_pass(w, V, jj, s, h);
      beta = norm2(w, s);
      if (beta < 0.7071067811865476 * before) {
        /* much cancelled: a second pass (Daniel, Gragg, Kaufman and
         * Stewart 1976) */
        gs_pass(w, Z, nz, s, hz);
        gs_pass(w, V, jj, s, h2);
        for (int64_t i = 0; i <= j; i++) h[i] += h2[i];
        beta = norm2(w, s);
      }
      for (int64_t i = 0; i <= j; i++) T[i + j * m] = h[i];
      double *next = V + (j + 1) * s;
      if (beta > 1e-12 * anorm) {
        for (int64_t a = 0; a < s; a++) next[a] = w[a] / beta;
      } else {
        /* an invariant subspace: carry on from a fresh direction */
        beta = 0;
        random_start(next, Z, nz, V, s, j + 1, h, hz, rng);
      }
    }
    memcpy(S, T, (size_t)(m * m) * sizeof *S);
    if (syevd(m, S, theta, lw, lwork, iwork, liw) != 0) return -1;
    /* residual norms of the r largest Ritz pairs: |beta S[m-1, t]| */
    converged = 1;
    for (int64_t t = m - r; t < m; t++)
      if (fabs(beta * S[(m - 1) + t * m]) > o->tol * anorm) converged = 0;
    if (converged || *matvecs >= o->max_matvec) break;
    /* restart with the l largest Ritz vectors and the residual direction */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)s, (int)l, (int)m, 1.0, V,
                (int)s, S + (m - l) * m, (int)m, 0.0, tmp, (int)s);
    memcpy(V, tmp, (size_t)(s * l) * sizeof *V);
    memcpy(V + l * s, V + m * s, (size_t)s * sizeof *V);
    memset(T, 0, (size_t)(m * m) * sizeof *T);
    for (int64_t i = 0; i < l; i++) T[i + i * m] = theta[m - l + i];
    j0 = l;
  }
  /* the r largest, descending: Laplacian eigenvalues ascending */
  for (int64_t t = 0; t < r; t++) {
    const int64_t col = m - 1 - t;
    const double lam = (c->normalized ? 1.0 : c->sigma) - theta[col];
    vals[t] = lam > 0 ? lam : 0.0;
    cblas_dgemv(CblasColMajor, CblasNoTrans, (int)s, (int)m, 1.0, V, (int)s, S + col * m, 1, 0.0,
                vecs + t * s, 1);
  }
  return converged;
}

/* The r bottom eigenpairs of a large component after its null vector z
 * (vecs follows z in memory, r + 1 vectors of room): one Lanczos run for
 * r pairs, then checks for missed multiplicities.  Single-vector Lanczos
 * finds one vector per distinct eigenvalue (a cycle's repeated eigenvalues
 * would be skipped), so a run deflated by every vector found looks for the
 * next smallest; while it is below the largest kept value it replaces
 * that one (the sorted order kept), and the check repeats.  Returns as
 * lanczos_pairs. */
static int lanczos_bottom(const Comp *c, const luma_LaplacianEig *o, int64_t r, const double *z,
                          double *vals, double *vecs, double *work, int64_t *iwork,
                          uint64_t *rng, int64_t *matvecs) {
  const int64_t s = c->s;
  const double anorm = c->normalized ? 1.0 : c->sigma;
  int status = lanczos_pairs(c, o, r, z, 1, vals, vecs, work, iwork, rng, matvecs);
  if (status < 0) return status;
  int converged = status;
  double *extra = vecs + r * s;
  for (int64_t round = 0; round <= r + 8; round++) {
    double mu = 0;
    status = lanczos_pairs(c, o, 1, z, r + 1, &mu, extra, work, iwork, rng, matvecs);
    if (status < 0) return status;
    if (!(mu < vals[r - 1] - 100 * o->tol * anorm)) break;
    converged = converged && status;
    /* insert mu, dropping the largest */
    int64_t t = r - 1;
    while (t > 0 && vals[t - 1] > mu) {
      vals[t] = vals[t - 1];
      memcpy(vecs + t * s, vecs + (t - 1) * s, (size_t)s * sizeof *vecs);
      t--;
    }
    vals[t] = mu;
    memcpy(vecs + t * s, extra, (size_t)s * sizeof *vecs);
  }
  return converged;
}

int luma_laplacian_eig(const luma_Csr *g, const int64_t *label, int64_t c,
                       const luma_LaplacianEig *o, double *evals, double *evecs, double *work,
                       int64_t *iwork, luma_LaplacianEigInfo *info) {
  const int64_t n = g->n, k = o->k;
  const int64_t nnz = g->ptr[n];
  double *deg = work, *dinv = deg + n, *cvec = dinv + n, *cval = cvec + n * (k + 1);
  double *lval = cval + n, *ldiag = lval + nnz, *solver = ldiag + n;
  int64_t *nodes = iwork, *pos = nodes + n, *start = pos + n, *ccomp = start + (c + 1);
  int64_t *coff = ccomp + n, *order = coff + n, *lptr = order + n, *lcol = lptr + (n + 1);
  int64_t *isolver = lcol + nnz;
  info->matvecs = 0;
  info->converged = 1;
  info->interrupted = 0;
  double maxdeg = 0;
  for (int64_t i = 0; i < n; i++) {
    double d = 0;
    for (int64_t p = g->ptr[i]; p < g->ptr[i + 1]; p++)
      if (g->col[p] != i) d += g->val[p];
    deg[i] = d;
    dinv[i] = d > 0 ? 1.0 / sqrt(d) : 1.0;
    if (d > maxdeg) maxdeg = d;
  }
  /* nodes grouped by component (counting sort), local positions */
  memset(start, 0, (size_t)(c + 1) * sizeof *start);
  for (int64_t i = 0; i < n; i++) start[label[i] + 1]++;
  for (int64_t b = 0; b < c; b++) start[b + 1] += start[b];
  {
    int64_t *fill = order; /* scratch cursor, overwritten below */
    memcpy(fill, start, (size_t)c * sizeof *fill);
    for (int64_t i = 0; i < n; i++) {
      const int64_t p = fill[label[i]]++;
      nodes[p] = i;
      pos[i] = p - start[label[i]];
    }
  }
  uint64_t rng = o->seed;
  int64_t ncand = 0, used = 0;
  for (int64_t b = 0; b < c; b++) {
    const int64_t s = start[b + 1] - start[b];
    Comp comp = {g,    nodes + start[b], pos,  s,    deg,  dinv, o->normalized, 2 * maxdeg,
                 lptr, lcol,             lval, ldiag};
    /* the null vector */
    double *z = cvec + used;
    double norm = 0;
    for (int64_t a = 0; a < s; a++) {
      const int64_t i = comp.nodes[a];
      z[a] = o->normalized && s > 1 ? sqrt(deg[i]) : 1.0;
      norm += z[a] * z[a];
    }
    for (int64_t a = 0; a < s; a++) z[a] /= sqrt(norm);
    cval[ncand] = 0.0, ccomp[ncand] = b, coff[ncand] = used;
    ncand++, used += s;
    const int64_t r = k - c < s - 1 ? k - c : s - 1;
    if (r <= 0) continue;
    double *vals = solver; /* r values, then the vectors after the solver's scratch */
    double *vecs = cvec + used;
    int status;
    if (s <= dense_threshold(o)) {
      status = dense_pairs(&comp, r, vals, vecs, solver + r, isolver);
    } else {
      comp_operator(&comp);
      status = lanczos_bottom(&comp, o, r, z, vals, vecs, solver + r, isolver, &rng,
                              &info->matvecs);
      if (status == -2) {
        info->interrupted = 1;
        return 0;
      }
      if (status == 0) info->converged = 0;
      if (status == 1) status = 0;
    }
    if (status != 0) return -1;
    for (int64_t t = 0; t < r; t++) {
      cval[ncand] = vals[t], ccomp[ncand] = b, coff[ncand] = used;
      ncand++, used += s;
    }
  }
  /* the k smallest: by value, null vectors of larger components first
   * (insertion sort of the candidate order: at most n candidates, mostly
   * few) */
  for (int64_t t = 0; t < ncand; t++) {
    int64_t q = t;
    const int64_t id = t;
    while (q > 0) {
      const int64_t prev = order[q - 1];
      const double a = cval[prev], bv = cval[id];
      const int64_t sa = start[ccomp[prev] + 1] - start[ccomp[prev]];
      const int64_t sb = start[ccomp[id] + 1] - start[ccomp[id]];
      if (a < bv || (a == bv && sa >= sb)) break;
      order[q] = prev;
      q--;
    }
    order[q] = id;
  }
  memset(evecs, 0, (size_t)(n * k) * sizeof *evecs);
  const int64_t keep = ncand < k ? ncand : k;
  for (int64_t t = 0; t < keep; t++) {
    const int64_t id = order[t], b = ccomp[id];
    const int64_t s = start[b + 1] - start[b];
    const double *v = cvec + coff[id];
    double big = 0;
    for (int64_t a = 0; a < s; a++)
      if (fabs(v[a]) > fabs(big)) big = v[a];
    const double sign = big < 0 ? -1.0 : 1.0;
    for (int64_t a = 0; a < s; a++) evecs[nodes[start[b] + a] * k + t] = sign * v[a];
    evals[t] = cval[id];
  }
  for (int64_t t = keep; t < k; t++) evals[t] = NAN;
  return 0;
}
