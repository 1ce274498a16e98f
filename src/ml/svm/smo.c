/*
 * smo.c - SMO with second-order working-set selection, shrinking and an
 * LRU kernel cache (see smo.h and docs/SVM.md).
 *
 * The structure is LIBSVM's (Chang & Lin 2011, version 3 with the
 * per-point bounds scikit-learn added for sample weights), written anew
 * in C: the same working-set rule (Fan, Chen & Lin 2005, WSS 3 with
 * tau = 1e-12 for non-positive curvature), the same shrinking heuristic
 * and gradient reconstruction, the same rho from the free variables (or
 * the middle of the feasible interval), the same float kernel cache. That
 * makes the iterates follow LIBSVM's, so dual coefficients, intercepts and
 * support sets agree with it to the stopping tolerance.
 *
 * The dual is
 *   min_a 1/2 a'Qa + p'a   s.t.  y'a = delta,  0 <= a_i <= C_i
 * with y_i = +1 or -1 and Q_ij = y_i y_j k(x_i, x_j) (classification),
 * k(x_i, x_j) (one-class) or s_i s_j k over the doubled index set of
 * regression (s = +1 for a, -1 for a*).  The nu forms add e'a = const and
 * select working pairs within one sign of y.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "core/dot.h"
#include "svm/smo.h"

#define TAU 1e-12
#define INF HUGE_VAL

typedef signed char schar;

enum { AT_LOWER, AT_UPPER, FREE };

/* ------------------------------------------------------------ memory */

typedef struct Mem {
  luma_SvmAllocFn fn;
  void *ud;
} Mem;

static void *mem_alloc(const Mem *m, size_t bytes) {
  return m->fn(m->ud, NULL, 0, bytes > 0 ? bytes : 1);
}

static void mem_free(const Mem *m, void *p, size_t bytes) {
  if (p) m->fn(m->ud, p, bytes > 0 ? bytes : 1, 0);
}

/* ------------------------------------------------------------ kernel */

/* The kernel over l points whose rows are reached through per-position
 * pointers, so that swapping two positions (shrinking) swaps pointers. */
typedef struct Kern {
  int kind;
  luma_KernelParams kp;
  int64_t d;
  const double **x; /* row of each position (dense data kernels) */
  const luma_Sparse *sx; /* or a CSR matrix of the points ... */
  int64_t *si;      /* ... and the row of each position in it */
  double *xsq;      /* |x|^2 of each position (RBF) */
  const luma_Mat *gram;
  int64_t *gi;      /* Gram row of each position (precomputed) */
  double diag;
} Kern;

static double l1_distance(const double *a, const double *b, int64_t d) {
  double s = 0;
  for (int64_t k = 0; k < d; k++) s += fabs(a[k] - b[k]);
  return s;
}

/* base^e by repeated squaring (LIBSVM's powi: the exponent is an integer). */
static double powi(double base, int e) {
  double r = 1, b = base;
  for (int t = e; t > 0; t /= 2) {
    if (t % 2 == 1) r *= b;
    b *= b;
  }
  return r;
}

/* The merge of two sorted sparse rows (LIBSVM's Kernel::dot on its
 * svm_node lists): their dot product, or (l1) the sum of |a - b| over
 * the columns either holds. */
static double sparse_merge(const luma_Sparse *s, int64_t a, int64_t b, int l1) {
  int64_t p = s->indptr[a], pe = s->indptr[a + 1], q = s->indptr[b], qe = s->indptr[b + 1];
  double sum = 0;
  while (p < pe && q < qe) {
    const int64_t cp = s->indices[p], cq = s->indices[q];
    if (cp == cq) {
      sum += l1 ? fabs(s->data[p] - s->data[q]) : s->data[p] * s->data[q];
      p++;
      q++;
    } else if (cp < cq) {
      if (l1) sum += fabs(s->data[p]);
      p++;
    } else {
      if (l1) sum += fabs(s->data[q]);
      q++;
    }
  }
  for (; l1 && p < pe; p++) sum += fabs(s->data[p]);
  for (; l1 && q < qe; q++) sum += fabs(s->data[q]);
  return sum;
}

static double kdot(const Kern *k, int64_t i, int64_t j) {
  return k->sx ? sparse_merge(k->sx, k->si[i], k->si[j], 0) : luma_dot(k->x[i], k->x[j], k->d);
}

static double kl1(const Kern *k, int64_t i, int64_t j) {
  return k->sx ? sparse_merge(k->sx, k->si[i], k->si[j], 1) : l1_distance(k->x[i], k->x[j], k->d);
}

/* k(i, j) of a data kernel from the dot product of the two points (the
 * laplacian's from their l1 distance). */
static double kfinish(const Kern *k, int64_t i, int64_t j, double dot) {
  double v;
  switch (k->kind) {
  case LUMA_KERNEL_LINEAR: v = dot; break;
  case LUMA_KERNEL_POLYNOMIAL: v = powi(k->kp.gamma * dot + k->kp.coef0, k->kp.degree); break;
  case LUMA_KERNEL_RBF: v = exp(-k->kp.gamma * (k->xsq[i] + k->xsq[j] - 2 * dot)); break;
  case LUMA_KERNEL_SIGMOID: v = tanh(k->kp.gamma * dot + k->kp.coef0); break;
  default: v = exp(-k->kp.gamma * dot); break; /* laplacian: dot is the l1 distance */
  }
  return i == j ? v + k->diag : v;
}

static double kval(const Kern *k, int64_t i, int64_t j) {
  if (k->kind == LUMA_SVM_PRECOMPUTED) {
    const double v = LUMA_AT(k->gram, k->gi[i], k->gi[j]);
    return i == j ? v + k->diag : v;
  }
  return kfinish(k, i, j, k->kind == LUMA_KERNEL_LAPLACIAN ? kl1(k, i, j) : kdot(k, i, j));
}

static void kern_swap(Kern *k, int64_t i, int64_t j) {
  if (k->x) {
    const double *t = k->x[i];
    k->x[i] = k->x[j];
    k->x[j] = t;
  }
  if (k->si) {
    int64_t t = k->si[i];
    k->si[i] = k->si[j];
    k->si[j] = t;
  }
  if (k->xsq) {
    double t = k->xsq[i];
    k->xsq[i] = k->xsq[j];
    k->xsq[j] = t;
  }
  if (k->gi) {
    int64_t t = k->gi[i];
    k->gi[i] = k->gi[j];
    k->gi[j] = t;
  }
}

/* ------------------------------------------------------------- cache */

/* LIBSVM's cache: one entry per position holding data[0, len) of its Q
 * row; entries in use form a circular list in least-recently-used order.
 * size counts the floats the cache may still take. */
typedef struct Entry {
  struct Entry *prev, *next;
  float *data;
  int64_t len;
} Entry;

typedef struct Cache {
  const Mem *mem;
  int64_t l;
  int64_t size;
  Entry *head;
  Entry lru;
} Cache;

static void lru_delete(Entry *h) {
  h->prev->next = h->next;
  h->next->prev = h->prev;
}

static void lru_insert(Cache *c, Entry *h) {
  h->next = &c->lru;
  h->prev = c->lru.prev;
  h->prev->next = h;
  h->next->prev = h;
}

static void entry_drop(Cache *c, Entry *h) {
  lru_delete(h);
  mem_free(c->mem, h->data, (size_t)h->len * sizeof(float));
  c->size += h->len;
  h->data = NULL;
  h->len = 0;
}

/* Makes entry index hold at least len floats; *start is where the caller
 * must fill from (>= len: nothing to fill).  Returns 0 when memory fails
 * even with every other row dropped. */
static int cache_get(Cache *c, int64_t index, float **data, int64_t len, int64_t *start) {
  Entry *h = &c->head[index];
  if (h->len) lru_delete(h);
  int64_t more = len - h->len;
  if (more > 0) {
    while (c->size < more && c->lru.next != &c->lru) entry_drop(c, c->lru.next);
    float *grown;
    /* audit-loops: each try drops a cached row: at most the rows cached */
    for (;;) {
      grown = c->mem->fn(c->mem->ud, h->data, h->data ? (size_t)h->len * sizeof(float) : 0,
                         (size_t)len * sizeof(float));
      /* the allocator's limit, not ours: make room, sparing the most recent
       * row (the other row of a working pair, still in use) */
      if (grown || c->lru.next == &c->lru || c->lru.next == c->lru.prev) break;
      entry_drop(c, c->lru.next);
    }
    if (!grown) {
      if (h->len) lru_insert(c, h);
      return 0;
    }
    h->data = grown;
    c->size -= more;
    *start = h->len;
    h->len = len;
  } else {
    *start = len;
  }
  lru_insert(c, h);
  *data = h->data;
  return 1;
}

static void cache_swap(Cache *c, int64_t i, int64_t j) {
  if (i == j) return;
  Entry *hi = &c->head[i], *hj = &c->head[j];
  if (hi->len) lru_delete(hi);
  if (hj->len) lru_delete(hj);
  float *td = hi->data;
  hi->data = hj->data;
  hj->data = td;
  int64_t tl = hi->len;
  hi->len = hj->len;
  hj->len = tl;
  if (hi->len) lru_insert(c, hi);
  if (hj->len) lru_insert(c, hj);
  if (i > j) {
    int64_t t = i;
    i = j;
    j = t;
  }
  for (Entry *h = c->lru.next; h != &c->lru;) {
    Entry *next = h->next;
    if (h->len > i) {
      if (h->len > j) {
        float t = h->data[i];
        h->data[i] = h->data[j];
        h->data[j] = t;
      } else {
        entry_drop(c, h); /* the row ends between i and j: give it up */
      }
    }
    h = next;
  }
}

static void cache_free(Cache *c) {
  while (c->lru.next != &c->lru) entry_drop(c, c->lru.next);
}

/* ------------------------------------------------------------- Q rows */

enum { Q_SVC, Q_ONE_CLASS, Q_SVR };

/* Zeroed dense copies of one sparse point each, one for every thread
 * that may compute kernel entries at once (claimed through busy). */
typedef struct Scatter {
  double *data; /* slots x the points' dimension, zero between uses */
  int slots;
  atomic_int busy[LUMA_MAX_THREADS];
} Scatter;

typedef struct QMat {
  int form;
  Kern k;
  Cache cache;
  const schar *y; /* the solver's signs (Q_SVC), swapped with it */
  double *QD;     /* the diagonal of Q */
  /* Q_SVR: position -> (sign, kernel index); rows reordered into buffers */
  int64_t n;
  schar *sign;
  int64_t *index;
  float *buffer[2];
  int next_buffer;
  /* kernel-row loops, and the meter the solver charges its own work to */
  luma_Threads *t;
  int64_t grain;
  uint64_t entry_cost; /* units of one kernel entry */
  Scatter scatter;     /* sparse points with a dot-product kernel; data NULL otherwise */
  luma_WorkBatch work;
  luma_SvmStatus status;
} QMat;

/* Charges units of the solver's own work (scans of the gradient, uses of
 * a kernel row); 0 when the meter stopped (q->status set). */
static int charge(QMat *q, uint64_t units) {
  if (!luma_work_add(&q->work, units)) return 1;
  q->status = LUMA_SVM_STOPPED;
  return 0;
}

/* Entries [begin, begin + n) of kernel row i, each computed on its own
 * (the loop's chunks are relative to begin). */
typedef struct RowJob {
  const Kern *k;
  int64_t i, begin;
  float *out;
  const schar *y; /* NULL: no signs */
  Scatter *scatter; /* sparse points: dense copies of point i, one a running chunk */
} RowJob;

/* Entries [lo, hi) of row i for sparse points, from a dense copy of point
 * i: each dot product is then a pass over point j's entries with no
 * branch on which column comes next, and sums the same products in the
 * same order as the merge, so the values are the same. */
static void sparse_row(const RowJob *r, int64_t lo, int64_t hi) {
  const Kern *k = r->k;
  const luma_Sparse *s = k->sx;
  Scatter *sc = r->scatter;
  int slot = 0;
  for (int c = 0; c < sc->slots; c++)
    if (!atomic_exchange(&sc->busy[c], 1)) {
      slot = c;
      break;
    }
  double *buf = sc->data + (size_t)slot * (size_t)s->cols;
  const int64_t ri = k->si[r->i];
  for (int64_t e = s->indptr[ri]; e < s->indptr[ri + 1]; e++) buf[s->indices[e]] = s->data[e];
  const double yi = r->y ? r->y[r->i] : 1;
  for (int64_t j = lo; j < hi; j++) {
    const int64_t rj = k->si[j];
    double dot = 0;
    for (int64_t e = s->indptr[rj]; e < s->indptr[rj + 1]; e++) dot += buf[s->indices[e]] * s->data[e];
    const double v = kfinish(k, r->i, j, dot);
    r->out[j] = (float)(r->y ? yi * r->y[j] * v : v);
  }
  for (int64_t e = s->indptr[ri]; e < s->indptr[ri + 1]; e++) buf[s->indices[e]] = 0;
  atomic_store(&sc->busy[slot], 0);
}

static void row_chunk(void *ctx, int64_t chunk, int64_t b, int64_t e) {
  (void)chunk;
  const RowJob *r = ctx;
  const int64_t lo = r->begin + b, hi = r->begin + e;
  if (r->scatter != NULL) {
    sparse_row(r, lo, hi);
  } else if (r->y) {
    const double yi = r->y[r->i];
    for (int64_t j = lo; j < hi; j++) r->out[j] = (float)(yi * r->y[j] * kval(r->k, r->i, j));
  } else {
    for (int64_t j = lo; j < hi; j++) r->out[j] = (float)kval(r->k, r->i, j);
  }
}

/* out[begin, end) = row i of the kernel (times y_i y_j when y is given);
 * returns 0 when the loop was stopped (q->status says why). */
static int fill_row(QMat *q, int64_t i, float *out, int64_t begin, int64_t end, const schar *y) {
  if (begin >= end) return 1;
  RowJob job = {&q->k, i, begin, out, y, q->scatter.data != NULL ? &q->scatter : NULL};
  luma_Loop loop;
  memset(&loop, 0, sizeof loop);
  loop.n = end - begin;
  loop.grain = q->grain;
  loop.cost = q->entry_cost;
  loop.fn = row_chunk;
  loop.ctx = &job;
  luma_LoopStatus st = luma_parallel_for(q->t, &loop);
  if (st != LUMA_LOOP_DONE) q->status = LUMA_SVM_STOPPED;
  return st == LUMA_LOOP_DONE;
}

/* Q row i over positions [0, len), or NULL (q->status says why).  The
 * caller's pass over the row is charged here. */
static const float *get_Q(QMat *q, int64_t i, int64_t len) {
  float *data;
  int64_t start;
  if (!charge(q, (uint64_t)len + 8)) return NULL;
  if (q->form != Q_SVR) {
    if (!cache_get(&q->cache, i, &data, len, &start)) {
      q->status = LUMA_SVM_NO_MEMORY;
      return NULL;
    }
    if (!fill_row(q, i, data, start, len, q->form == Q_SVC ? q->y : NULL)) return NULL;
    return data;
  }
  /* regression: the kernel row of the point behind position i, all n
   * entries, then signed and reordered into one of two buffers (a working
   * pair needs two rows at once) */
  const int64_t real = q->index[i];
  if (!cache_get(&q->cache, real, &data, q->n, &start)) {
    q->status = LUMA_SVM_NO_MEMORY;
    return NULL;
  }
  if (!fill_row(q, real, data, start, q->n, NULL)) return NULL;
  float *buf = q->buffer[q->next_buffer];
  q->next_buffer = 1 - q->next_buffer;
  const float si = (float)q->sign[i];
  for (int64_t j = 0; j < len; j++) buf[j] = si * (float)q->sign[j] * data[q->index[j]];
  return buf;
}

static void swap_double(double *a, int64_t i, int64_t j) {
  double t = a[i];
  a[i] = a[j];
  a[j] = t;
}

static void q_swap(QMat *q, int64_t i, int64_t j) {
  if (q->form == Q_SVR) {
    schar ts = q->sign[i];
    q->sign[i] = q->sign[j];
    q->sign[j] = ts;
    int64_t ti = q->index[i];
    q->index[i] = q->index[j];
    q->index[j] = ti;
  } else {
    cache_swap(&q->cache, i, j);
    kern_swap(&q->k, i, j);
  }
  swap_double(q->QD, i, j);
}

/* ------------------------------------------------------------ solver */

typedef struct Solver {
  int nu;           /* Solver_NU: pairs within one sign of y, two rhos */
  int64_t l;
  int64_t active_size;
  schar *y;
  double *G;        /* gradient Qa + p */
  double *G_bar;    /* the gradient's part from variables at their bound */
  double *alpha, *p, *C;
  char *status;
  int64_t *active_set;
  double eps;
  int unshrink;
  QMat *Q;
  double r;         /* Solver_NU */
} Solver;

static void update_status(Solver *s, int64_t i) {
  if (s->alpha[i] >= s->C[i])
    s->status[i] = AT_UPPER;
  else if (s->alpha[i] <= 0)
    s->status[i] = AT_LOWER;
  else
    s->status[i] = FREE;
}

#define IS_UPPER(s, i) ((s)->status[i] == AT_UPPER)
#define IS_LOWER(s, i) ((s)->status[i] == AT_LOWER)
#define IS_FREE(s, i) ((s)->status[i] == FREE)

static void swap_index(Solver *s, int64_t i, int64_t j) {
  q_swap(s->Q, i, j);
  schar ty = s->y[i];
  s->y[i] = s->y[j];
  s->y[j] = ty;
  swap_double(s->G, i, j);
  char tst = s->status[i];
  s->status[i] = s->status[j];
  s->status[j] = tst;
  swap_double(s->alpha, i, j);
  swap_double(s->p, i, j);
  int64_t ta = s->active_set[i];
  s->active_set[i] = s->active_set[j];
  s->active_set[j] = ta;
  swap_double(s->G_bar, i, j);
  swap_double(s->C, i, j);
}

/* The gradient of the inactive (shrunk) variables from G_bar and the free
 * variables, by rows of whichever side is cheaper. */
static int reconstruct_gradient(Solver *s) {
  const int64_t l = s->l, active = s->active_size;
  if (active == l) return 1;
  int64_t nr_free = 0;
  for (int64_t j = active; j < l; j++) s->G[j] = s->G_bar[j] + s->p[j];
  for (int64_t j = 0; j < active; j++)
    if (IS_FREE(s, j)) nr_free++;
  if ((double)nr_free * (double)l > 2.0 * (double)active * (double)(l - active)) {
    for (int64_t i = active; i < l; i++) {
      const float *Q_i = get_Q(s->Q, i, active);
      if (!Q_i) return 0;
      for (int64_t j = 0; j < active; j++)
        if (IS_FREE(s, j)) s->G[i] += s->alpha[j] * Q_i[j];
    }
  } else {
    for (int64_t i = 0; i < active; i++)
      if (IS_FREE(s, i)) {
        const float *Q_i = get_Q(s->Q, i, l);
        if (!Q_i) return 0;
        const double a = s->alpha[i];
        for (int64_t j = active; j < l; j++) s->G[j] += a * Q_i[j];
      }
  }
  return 1;
}

/* WSS 3 (Fan, Chen & Lin 2005): i maximizes -y_i grad_i over I_up; j, among
 * the I_low variables violating the pair, minimizes the second-order
 * estimate -(grad difference)^2 / (curvature) of the objective's decrease.
 * Returns 1 when the maximal violation is below eps (optimal), 0 with a
 * pair, -1 on a failed row. */
static int select_standard(Solver *s, int64_t *out_i, int64_t *out_j) {
  double Gmax = -INF, Gmax2 = -INF, obj_diff_min = INF;
  int64_t Gmax_idx = -1, Gmin_idx = -1;
  const double *G = s->G, *QD = s->Q->QD;
  for (int64_t t = 0; t < s->active_size; t++) {
    if (s->y[t] == +1) {
      if (!IS_UPPER(s, t) && -G[t] >= Gmax) {
        Gmax = -G[t];
        Gmax_idx = t;
      }
    } else if (!IS_LOWER(s, t) && G[t] >= Gmax) {
      Gmax = G[t];
      Gmax_idx = t;
    }
  }
  const int64_t i = Gmax_idx;
  const float *Q_i = NULL;
  if (i != -1) {
    Q_i = get_Q(s->Q, i, s->active_size);
    if (!Q_i) return -1;
  }
  for (int64_t j = 0; j < s->active_size; j++) {
    if (s->y[j] == +1) {
      if (!IS_LOWER(s, j)) {
        const double grad_diff = Gmax + G[j];
        if (G[j] >= Gmax2) Gmax2 = G[j];
        if (grad_diff > 0) {
          double quad = QD[i] + QD[j] - 2.0 * s->y[i] * Q_i[j];
          double obj_diff = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
          if (obj_diff <= obj_diff_min) {
            Gmin_idx = j;
            obj_diff_min = obj_diff;
          }
        }
      }
    } else if (!IS_UPPER(s, j)) {
      const double grad_diff = Gmax - G[j];
      if (-G[j] >= Gmax2) Gmax2 = -G[j];
      if (grad_diff > 0) {
        double quad = QD[i] + QD[j] + 2.0 * s->y[i] * Q_i[j];
        double obj_diff = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
        if (obj_diff <= obj_diff_min) {
          Gmin_idx = j;
          obj_diff_min = obj_diff;
        }
      }
    }
  }
  if (Gmax + Gmax2 < s->eps || Gmin_idx == -1) return 1;
  *out_i = Gmax_idx;
  *out_j = Gmin_idx;
  return 0;
}

/* The nu solver's WSS 3: the same rule within y = +1 and within y = -1
 * (the extra constraint e'a = const keeps pairs inside one class). */
static int select_nu(Solver *s, int64_t *out_i, int64_t *out_j) {
  double Gmaxp = -INF, Gmaxp2 = -INF, Gmaxn = -INF, Gmaxn2 = -INF, obj_diff_min = INF;
  int64_t Gmaxp_idx = -1, Gmaxn_idx = -1, Gmin_idx = -1;
  const double *G = s->G, *QD = s->Q->QD;
  for (int64_t t = 0; t < s->active_size; t++) {
    if (s->y[t] == +1) {
      if (!IS_UPPER(s, t) && -G[t] >= Gmaxp) {
        Gmaxp = -G[t];
        Gmaxp_idx = t;
      }
    } else if (!IS_LOWER(s, t) && G[t] >= Gmaxn) {
      Gmaxn = G[t];
      Gmaxn_idx = t;
    }
  }
  const int64_t ip = Gmaxp_idx, in = Gmaxn_idx;
  const float *Q_ip = NULL, *Q_in = NULL;
  if (ip != -1) {
    Q_ip = get_Q(s->Q, ip, s->active_size);
    if (!Q_ip) return -1;
  }
  if (in != -1) {
    Q_in = get_Q(s->Q, in, s->active_size);
    if (!Q_in) return -1;
  }
  for (int64_t j = 0; j < s->active_size; j++) {
    if (s->y[j] == +1) {
      if (!IS_LOWER(s, j)) {
        const double grad_diff = Gmaxp + G[j];
        if (G[j] >= Gmaxp2) Gmaxp2 = G[j];
        if (grad_diff > 0) {
          double quad = QD[ip] + QD[j] - 2 * Q_ip[j];
          double obj_diff = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
          if (obj_diff <= obj_diff_min) {
            Gmin_idx = j;
            obj_diff_min = obj_diff;
          }
        }
      }
    } else if (!IS_UPPER(s, j)) {
      const double grad_diff = Gmaxn - G[j];
      if (-G[j] >= Gmaxn2) Gmaxn2 = -G[j];
      if (grad_diff > 0) {
        double quad = QD[in] + QD[j] - 2 * Q_in[j];
        double obj_diff = -(grad_diff * grad_diff) / (quad > 0 ? quad : TAU);
        if (obj_diff <= obj_diff_min) {
          Gmin_idx = j;
          obj_diff_min = obj_diff;
        }
      }
    }
  }
  if (fmax(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2) < s->eps || Gmin_idx == -1) return 1;
  *out_i = s->y[Gmin_idx] == +1 ? Gmaxp_idx : Gmaxn_idx;
  *out_j = Gmin_idx;
  return 0;
}

static int select_working_set(Solver *s, int64_t *i, int64_t *j) {
  return s->nu ? select_nu(s, i, j) : select_standard(s, i, j);
}

/* A variable at a bound whose gradient says it will stay there. */
static int be_shrunk(const Solver *s, int64_t i, double Gmax1, double Gmax2, double Gmax3,
                     double Gmax4) {
  if (IS_UPPER(s, i)) return s->y[i] == +1 ? -s->G[i] > Gmax1 : -s->G[i] > Gmax4;
  if (IS_LOWER(s, i)) return s->y[i] == +1 ? s->G[i] > Gmax2 : s->G[i] > Gmax3;
  return 0;
}

/* Shrinking: variables at a bound that the maximal violating pair says
 * will stay there leave the active set; once the violation is within
 * 10 eps, the gradient is rebuilt and everything comes back once (so the
 * final iterations check all variables). */
static int do_shrinking(Solver *s) {
  double Gmax1 = -INF, Gmax2 = -INF, Gmax3 = -INF, Gmax4 = -INF;
  const double *G = s->G;
  for (int64_t i = 0; i < s->active_size; i++) {
    if (s->nu) {
      if (!IS_UPPER(s, i)) {
        if (s->y[i] == +1) {
          if (-G[i] > Gmax1) Gmax1 = -G[i];
        } else if (-G[i] > Gmax4) {
          Gmax4 = -G[i];
        }
      }
      if (!IS_LOWER(s, i)) {
        if (s->y[i] == +1) {
          if (G[i] > Gmax2) Gmax2 = G[i];
        } else if (G[i] > Gmax3) {
          Gmax3 = G[i];
        }
      }
    } else if (s->y[i] == +1) {
      if (!IS_UPPER(s, i) && -G[i] >= Gmax1) Gmax1 = -G[i];
      if (!IS_LOWER(s, i) && G[i] >= Gmax2) Gmax2 = G[i];
    } else {
      if (!IS_UPPER(s, i) && -G[i] >= Gmax2) Gmax2 = -G[i];
      if (!IS_LOWER(s, i) && G[i] >= Gmax1) Gmax1 = G[i];
    }
  }
  if (!s->nu) {
    /* one pair of maxima serves both signs: y = -1 at its upper bound is
     * tested against Gmax2, at its lower bound against Gmax1 */
    Gmax3 = Gmax1;
    Gmax4 = Gmax2;
  }
  const double violation = s->nu ? fmax(Gmax1 + Gmax2, Gmax3 + Gmax4) : Gmax1 + Gmax2;
  if (!s->unshrink && violation <= s->eps * 10) {
    s->unshrink = 1;
    if (!reconstruct_gradient(s)) return 0;
    s->active_size = s->l;
  }
  for (int64_t i = 0; i < s->active_size; i++) {
    if (!be_shrunk(s, i, Gmax1, Gmax2, Gmax3, Gmax4)) continue;
    s->active_size--;
    while (s->active_size > i) {
      if (!be_shrunk(s, s->active_size, Gmax1, Gmax2, Gmax3, Gmax4)) {
        swap_index(s, i, s->active_size);
        break;
      }
      s->active_size--;
    }
  }
  return 1;
}

/* rho: the mean of y_i G_i over free variables, else the middle of the
 * interval the bounded ones allow. */
static double calculate_rho(Solver *s) {
  if (s->nu) {
    int64_t nr_free1 = 0, nr_free2 = 0;
    double ub1 = INF, ub2 = INF, lb1 = -INF, lb2 = -INF, sum_free1 = 0, sum_free2 = 0;
    for (int64_t i = 0; i < s->active_size; i++) {
      const double g = s->G[i];
      if (s->y[i] == +1) {
        if (IS_UPPER(s, i))
          lb1 = fmax(lb1, g);
        else if (IS_LOWER(s, i))
          ub1 = fmin(ub1, g);
        else {
          nr_free1++;
          sum_free1 += g;
        }
      } else {
        if (IS_UPPER(s, i))
          lb2 = fmax(lb2, g);
        else if (IS_LOWER(s, i))
          ub2 = fmin(ub2, g);
        else {
          nr_free2++;
          sum_free2 += g;
        }
      }
    }
    const double r1 = nr_free1 > 0 ? sum_free1 / (double)nr_free1 : (ub1 + lb1) / 2;
    const double r2 = nr_free2 > 0 ? sum_free2 / (double)nr_free2 : (ub2 + lb2) / 2;
    s->r = (r1 + r2) / 2;
    return (r1 - r2) / 2;
  }
  int64_t nr_free = 0;
  double ub = INF, lb = -INF, sum_free = 0;
  for (int64_t i = 0; i < s->active_size; i++) {
    const double yG = s->y[i] * s->G[i];
    if (IS_UPPER(s, i)) {
      if (s->y[i] == -1)
        ub = fmin(ub, yG);
      else
        lb = fmax(lb, yG);
    } else if (IS_LOWER(s, i)) {
      if (s->y[i] == +1)
        ub = fmin(ub, yG);
      else
        lb = fmax(lb, yG);
    } else {
      nr_free++;
      sum_free += yG;
    }
  }
  return nr_free > 0 ? sum_free / (double)nr_free : (ub + lb) / 2;
}

/* Adds sign * C * Q_i to G_bar (a variable reached or left its bound). */
static int shift_G_bar(Solver *s, int64_t i, double sign) {
  const float *Q_i = get_Q(s->Q, i, s->l);
  if (!Q_i) return 0;
  const double c = sign * s->C[i];
  for (int64_t k = 0; k < s->l; k++) s->G_bar[k] += c * Q_i[k];
  return 1;
}

/* The SMO iterations; alpha (feasible on entry) is permuted in place with
 * the other arrays; active_set maps positions back.  Returns 0 when a
 * kernel row failed (s->Q->status). */
static int solve(Solver *s, int64_t max_iter, int shrinking, luma_SvmSolution *out) {
  const int64_t l = s->l;
  for (int64_t i = 0; i < l; i++) {
    update_status(s, i);
    s->active_set[i] = i;
    s->G[i] = s->p[i];
    s->G_bar[i] = 0;
  }
  s->active_size = l;
  for (int64_t i = 0; i < l; i++) {
    if (IS_LOWER(s, i)) continue;
    const float *Q_i = get_Q(s->Q, i, l);
    if (!Q_i) return 0;
    const double a = s->alpha[i];
    for (int64_t j = 0; j < l; j++) s->G[j] += a * Q_i[j];
    if (IS_UPPER(s, i))
      for (int64_t j = 0; j < l; j++) s->G_bar[j] += s->C[i] * Q_i[j];
  }

  int64_t iter = 0;
  int64_t counter = (l < 1000 ? l : 1000) + 1;
  out->reached_max_iter = 0;
  for (;;) {
    if (iter >= max_iter) {
      if (s->active_size < l) {
        if (!reconstruct_gradient(s)) return 0;
        s->active_size = l;
      }
      out->reached_max_iter = 1;
      break;
    }
    /* the selection's two scans and the gradient update, O(active) each;
     * the rows they read are charged by get_Q */
    if (!charge(s->Q, 3 * (uint64_t)s->active_size + 16)) return 0;
    if (--counter == 0) {
      counter = l < 1000 ? l : 1000;
      if (shrinking && (!charge(s->Q, 2 * (uint64_t)s->active_size) || !do_shrinking(s))) return 0;
    }
    int64_t i = -1, j = -1;
    int sel = select_working_set(s, &i, &j);
    if (sel < 0) return 0;
    if (sel == 1) {
      /* optimal on the active set: check all variables before stopping */
      if (!reconstruct_gradient(s)) return 0;
      s->active_size = l;
      sel = select_working_set(s, &i, &j);
      if (sel < 0) return 0;
      if (sel == 1) break;
      counter = 1; /* shrink at the next iteration */
    }
    iter++;

    const float *Q_i = get_Q(s->Q, i, s->active_size);
    if (!Q_i) return 0;
    const float *Q_j = get_Q(s->Q, j, s->active_size);
    if (!Q_j) return 0;
    const double C_i = s->C[i], C_j = s->C[j];
    const double old_ai = s->alpha[i], old_aj = s->alpha[j];
    double *alpha = s->alpha;
    const double *QD = s->Q->QD, *G = s->G;
    /* the two-variable subproblem, solved exactly and clipped to the box
     * (the feasible segment of y_i a_i + y_j a_j = const) */
    if (s->y[i] != s->y[j]) {
      double quad = QD[i] + QD[j] + 2 * Q_i[j];
      if (quad <= 0) quad = TAU;
      const double delta = (-G[i] - G[j]) / quad;
      const double diff = alpha[i] - alpha[j];
      alpha[i] += delta;
      alpha[j] += delta;
      if (diff > 0) {
        if (alpha[j] < 0) {
          alpha[j] = 0;
          alpha[i] = diff;
        }
      } else if (alpha[i] < 0) {
        alpha[i] = 0;
        alpha[j] = -diff;
      }
      if (diff > C_i - C_j) {
        if (alpha[i] > C_i) {
          alpha[i] = C_i;
          alpha[j] = C_i - diff;
        }
      } else if (alpha[j] > C_j) {
        alpha[j] = C_j;
        alpha[i] = C_j + diff;
      }
    } else {
      double quad = QD[i] + QD[j] - 2 * Q_i[j];
      if (quad <= 0) quad = TAU;
      const double delta = (G[i] - G[j]) / quad;
      const double sum = alpha[i] + alpha[j];
      alpha[i] -= delta;
      alpha[j] += delta;
      if (sum > C_i) {
        if (alpha[i] > C_i) {
          alpha[i] = C_i;
          alpha[j] = sum - C_i;
        }
      } else if (alpha[j] < 0) {
        alpha[j] = 0;
        alpha[i] = sum;
      }
      if (sum > C_j) {
        if (alpha[j] > C_j) {
          alpha[j] = C_j;
          alpha[i] = sum - C_j;
        }
      } else if (alpha[i] < 0) {
        alpha[i] = 0;
        alpha[j] = sum;
      }
    }

    const double dai = alpha[i] - old_ai, daj = alpha[j] - old_aj;
    for (int64_t k = 0; k < s->active_size; k++) s->G[k] += Q_i[k] * dai + Q_j[k] * daj;

    const int ui = IS_UPPER(s, i), uj = IS_UPPER(s, j);
    update_status(s, i);
    update_status(s, j);
    if (ui != IS_UPPER(s, i) && !shift_G_bar(s, i, ui ? -1 : 1)) return 0;
    if (uj != IS_UPPER(s, j) && !shift_G_bar(s, j, uj ? -1 : 1)) return 0;
  }

  luma_work_flush(&s->Q->work);
  out->rho = calculate_rho(s);
  double v = 0;
  for (int64_t i = 0; i < l; i++) v += s->alpha[i] * (s->G[i] + s->p[i]);
  out->obj = v / 2;
  out->iterations = iter;
  return 1;
}

/* ------------------------------------------------------- formulations */

/* Everything one solve allocates, freed in one place. */
typedef struct Work {
  Mem mem;
  int64_t l, n;   /* variables, kernel points */
  double *xrows;  /* the points' rows, contiguous (dense data kernels) */
  int64_t xrows_len;
  const double **x;
  int64_t *si;    /* the points' rows of a sparse X */
  double *scatter; /* the kernel rows' dense copies of a sparse point */
  int64_t scatter_len;
  double *xsq;
  int64_t *gi;
  Entry *heads;
  double *QD;
  schar *sign;
  int64_t *index;
  float *buffer[2];
  schar *y;
  double *G, *G_bar, *alpha, *p, *C;
  char *status;
  int64_t *active_set;
} Work;

#define ALLOC(w, field, count)                                                         \
  ((w)->field = mem_alloc(&(w)->mem, (size_t)(count) * sizeof(*(w)->field)), (w)->field != NULL)
#define FREE(w, field, count) mem_free(&(w)->mem, (w)->field, (size_t)(count) * sizeof(*(w)->field))

static void work_free(Work *w) {
  const int64_t l = w->l, n = w->n;
  FREE(w, xrows, w->xrows_len);
  FREE(w, x, n);
  FREE(w, si, n);
  FREE(w, scatter, w->scatter_len);
  FREE(w, xsq, n);
  FREE(w, gi, n);
  FREE(w, heads, n);
  FREE(w, QD, l);
  FREE(w, sign, l);
  FREE(w, index, l);
  FREE(w, buffer[0], l);
  FREE(w, buffer[1], l);
  FREE(w, y, l);
  FREE(w, G, l);
  FREE(w, G_bar, l);
  FREE(w, alpha, l);
  FREE(w, p, l);
  FREE(w, C, l);
  FREE(w, status, l);
  FREE(w, active_set, l);
}

static double weight_of(const luma_SvmProblem *p, int64_t i) {
  return p->weight ? p->weight[i] : 1.0;
}

luma_SvmStatus luma_svm_solve(luma_Threads *t, luma_SvmAllocFn alloc, void *ud,
                              const luma_SvmProblem *p, double *coef, luma_SvmSolution *out) {
  memset(out, 0, sizeof *out);
  const int64_t n = p->l;
  const int regression = p->type == LUMA_SVM_EPSILON_SVR || p->type == LUMA_SVM_NU_SVR;
  const int64_t l = regression ? 2 * n : n;
  const int precomputed = p->kernel == LUMA_SVM_PRECOMPUTED;
  const int sparse = p->sx != NULL;
  const int64_t d = precomputed ? 0 : sparse ? p->sx->cols : p->x->cols;
  Work w;
  memset(&w, 0, sizeof w);
  w.mem.fn = alloc;
  w.mem.ud = ud;
  w.l = l;
  w.n = n;
  QMat q;
  memset(&q, 0, sizeof q);
  q.cache.mem = &w.mem;
  q.cache.lru.next = q.cache.lru.prev = &q.cache.lru;
  luma_SvmStatus status = LUMA_SVM_NO_MEMORY;

  int ok = ALLOC(&w, QD, l) && ALLOC(&w, heads, n) && ALLOC(&w, y, l) && ALLOC(&w, G, l) &&
           ALLOC(&w, G_bar, l) && ALLOC(&w, alpha, l) && ALLOC(&w, p, l) && ALLOC(&w, C, l) &&
           ALLOC(&w, status, l) && ALLOC(&w, active_set, l);
  if (ok && precomputed) ok = ALLOC(&w, gi, n);
  if (ok && sparse) ok = ALLOC(&w, si, n);
  /* a dense copy of a sparse point for each thread, for dot-product kernels */
  const int slots = t != NULL && t->count > 1 ? (t->count < LUMA_MAX_THREADS ? t->count : LUMA_MAX_THREADS) : 1;
  if (ok && sparse && p->kernel != LUMA_KERNEL_LAPLACIAN) {
    /* without the memory for them, the rows come from merges instead */
    w.scatter_len = (int64_t)slots * d;
    if (ALLOC(&w, scatter, w.scatter_len))
      memset(w.scatter, 0, (size_t)w.scatter_len * sizeof *w.scatter);
    else
      w.scatter_len = 0;
  }
  if (ok && !precomputed && !sparse) {
    w.xrows_len = n * d;
    ok = ALLOC(&w, xrows, n * d) && ALLOC(&w, x, n);
  }
  if (ok && p->kernel == LUMA_KERNEL_RBF) ok = ALLOC(&w, xsq, n);
  if (ok && regression)
    ok = ALLOC(&w, sign, l) && ALLOC(&w, index, l) && ALLOC(&w, buffer[0], l) &&
         ALLOC(&w, buffer[1], l);
  if (!ok) goto done;

  /* the kernel over the n points, in their given order */
  q.k.kind = p->kernel;
  q.k.kp = p->kp;
  q.k.d = d;
  q.k.diag = p->diag;
  q.k.gram = p->x;
  q.k.gi = w.gi;
  q.k.xsq = w.xsq;
  q.k.x = w.x;
  q.k.sx = p->sx;
  q.k.si = w.si;
  q.scatter.data = w.scatter;
  q.scatter.slots = slots;
  for (int c = 0; c < LUMA_MAX_THREADS; c++) atomic_init(&q.scatter.busy[c], 0);
  int64_t stored = 0; /* the points' entries, of a sparse X */
  for (int64_t i = 0; i < n; i++) {
    if (precomputed) {
      w.gi[i] = p->rows[i];
      continue;
    }
    if (sparse) {
      const int64_t r = p->rows[i];
      w.si[i] = r;
      stored += p->sx->indptr[r + 1] - p->sx->indptr[r];
      if (w.xsq) w.xsq[i] = sparse_merge(p->sx, r, r, 0);
      continue;
    }
    double *row = w.xrows + i * d;
    for (int64_t k = 0; k < d; k++) row[k] = LUMA_AT(p->x, p->rows[i], k);
    w.x[i] = row;
    if (w.xsq) w.xsq[i] = luma_dot(row, row, d);
  }
  memset(w.heads, 0, (size_t)n * sizeof *w.heads);
  q.cache.l = n;
  q.cache.head = w.heads;
  {
    double floats = p->cache_mb * (1 << 20) / (double)sizeof(float) -
                    (double)n * (double)sizeof(Entry) / (double)sizeof(float);
    q.cache.size = floats > 2.0 * (double)n ? (int64_t)floats : 2 * n;
  }
  q.QD = w.QD;
  q.n = n;
  q.t = t;
  q.work.t = t;
  /* copying the points, their norms and the kernel's diagonal; a kernel
   * entry costs a pass over two points (a merge of two sparse rows) */
  q.entry_cost = precomputed ? 1 : sparse ? 2 * (uint64_t)(stored / (n > 0 ? n : 1)) + 2 : (uint64_t)d + 1;
  if (!charge(&q, sparse ? (uint64_t)(4 * n + 2 * stored + w.scatter_len) : (uint64_t)(n * (d + 4)))) {
    status = q.status;
    goto done;
  }
  {
    /* about 64k operations per chunk: long enough to amortize waking a
     * thread, short enough to spread one row over several */
    int64_t g = precomputed ? 8192 : 65536 / ((int64_t)q.entry_cost + 8);
    q.grain = g < 64 ? 64 : g;
  }
  q.form = regression ? Q_SVR : p->type == LUMA_SVM_ONE_CLASS ? Q_ONE_CLASS : Q_SVC;
  q.y = w.y;
  for (int64_t i = 0; i < n; i++) w.QD[i] = kval(&q.k, i, i);
  if (regression) {
    q.sign = w.sign;
    q.index = w.index;
    q.buffer[0] = w.buffer[0];
    q.buffer[1] = w.buffer[1];
    for (int64_t k = 0; k < n; k++) {
      w.sign[k] = 1;
      w.sign[k + n] = -1;
      w.index[k] = k;
      w.index[k + n] = k;
      w.QD[k + n] = w.QD[k];
    }
  }

  Solver s;
  memset(&s, 0, sizeof s);
  s.l = l;
  s.y = w.y;
  s.G = w.G;
  s.G_bar = w.G_bar;
  s.alpha = w.alpha;
  s.p = w.p;
  s.C = w.C;
  s.status = w.status;
  s.active_set = w.active_set;
  s.eps = p->tol;
  s.Q = &q;
  s.nu = p->type == LUMA_SVM_NU_SVC || p->type == LUMA_SVM_NU_SVR;

  /* the formulation's linear term, signs, bounds and feasible start */
  switch (p->type) {
  case LUMA_SVM_C_SVC:
    for (int64_t i = 0; i < n; i++) {
      w.y[i] = p->y[i] > 0 ? +1 : -1;
      w.alpha[i] = 0;
      w.p[i] = -1;
      w.C[i] = p->C * weight_of(p, i);
    }
    break;
  case LUMA_SVM_NU_SVC: {
    double nu_l = 0;
    for (int64_t i = 0; i < n; i++) {
      w.y[i] = p->y[i] > 0 ? +1 : -1;
      w.C[i] = weight_of(p, i);
      w.p[i] = 0;
      nu_l += p->nu * w.C[i];
    }
    double sum_pos = nu_l / 2, sum_neg = nu_l / 2;
    for (int64_t i = 0; i < n; i++) {
      double *sum = w.y[i] == +1 ? &sum_pos : &sum_neg;
      w.alpha[i] = fmin(w.C[i], *sum);
      *sum -= w.alpha[i];
    }
    break;
  }
  case LUMA_SVM_ONE_CLASS: {
    double nu_l = 0;
    for (int64_t i = 0; i < n; i++) {
      w.y[i] = +1;
      w.C[i] = weight_of(p, i);
      w.p[i] = 0;
      nu_l += w.C[i] * p->nu;
    }
    for (int64_t i = 0; i < n; i++) {
      w.alpha[i] = nu_l > 0 ? fmin(w.C[i], nu_l) : 0;
      nu_l -= w.alpha[i];
    }
    break;
  }
  case LUMA_SVM_EPSILON_SVR:
    for (int64_t i = 0; i < n; i++) {
      w.alpha[i] = w.alpha[i + n] = 0;
      w.p[i] = p->epsilon - p->y[i];
      w.p[i + n] = p->epsilon + p->y[i];
      w.y[i] = +1;
      w.y[i + n] = -1;
      w.C[i] = w.C[i + n] = p->C * weight_of(p, i);
    }
    break;
  case LUMA_SVM_NU_SVR: {
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
      w.C[i] = w.C[i + n] = p->C * weight_of(p, i);
      sum += w.C[i] * p->nu;
    }
    sum /= 2;
    for (int64_t i = 0; i < n; i++) {
      w.alpha[i] = w.alpha[i + n] = fmin(sum, w.C[i]);
      sum -= w.alpha[i];
      w.p[i] = -p->y[i];
      w.y[i] = +1;
      w.p[i + n] = p->y[i];
      w.y[i + n] = -1;
    }
    break;
  }
  }

  int64_t max_iter = p->max_iter;
  if (max_iter <= 0) max_iter = l > INT64_MAX / 100 ? INT64_MAX : (100 * l > 10000000 ? 100 * l : 10000000);
  if (!solve(&s, max_iter, p->shrinking, out)) {
    status = q.status;
    goto done;
  }
  status = LUMA_SVM_OK;

  /* back to the given order, as decision coefficients */
  double *a = w.G_bar; /* free now: the solution in the original order */
  for (int64_t i = 0; i < l; i++) a[w.active_set[i]] = w.alpha[i];
  switch (p->type) {
  case LUMA_SVM_C_SVC:
    for (int64_t i = 0; i < n; i++) coef[i] = p->y[i] > 0 ? a[i] : -a[i];
    break;
  case LUMA_SVM_NU_SVC:
    /* the nu problem's solution scaled to the C-SVC it equals (C = 1/r) */
    for (int64_t i = 0; i < n; i++) coef[i] = (p->y[i] > 0 ? a[i] : -a[i]) / s.r;
    out->rho /= s.r;
    out->obj /= s.r * s.r;
    break;
  case LUMA_SVM_ONE_CLASS:
    for (int64_t i = 0; i < n; i++) coef[i] = a[i];
    break;
  default:
    for (int64_t i = 0; i < n; i++) coef[i] = a[i] - a[i + n];
    break;
  }
  out->r = s.r;

done:
  cache_free(&q.cache);
  work_free(&w);
  return status;
}
