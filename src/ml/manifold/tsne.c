/*
 * tsne.c - t-SNE kernels (see tsne.h).
 * SPDX-License-Identifier: MIT
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "manifold/tsne.h"

/* scikit-learn's constants: the entropy tolerance and step cap of the
 * bisection, the floor of an all-zero row sum, and the floor of P and Q
 * in the KL divergence (np.finfo(np.double).eps). */
#define PERPLEXITY_TOLERANCE 1e-5
#define SEARCH_STEPS 100
#define EPSILON_DBL 1e-8
#define MACHINE_EPSILON DBL_EPSILON
/* Deepest tree level: cells narrower than this are leaves holding every
 * point that falls in them (duplicates). */
#define MAX_DEPTH 64

static int64_t chunks_of(int64_t n, int64_t grain) { return n > 0 ? (n + grain - 1) / grain : 0; }

/* Rows per chunk for a loop costing `per_row` operations a row: about
 * 100,000 operations per chunk. */
static int64_t grain_for(int64_t per_row) {
  int64_t g = 100000 / (per_row > 0 ? per_row : 1);
  return g < 1 ? 1 : g;
}

/* ----------------------------------------------------------- perplexity */

typedef struct CondJob {
  const luma_Mat *d2;
  double perplexity;
  int exclude_self;
  luma_Mat *p;
} CondJob;

static void cond_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  (void)chunk;
  const CondJob *job = ctx;
  const int64_t m = job->d2->cols;
  const double target = log(job->perplexity);
  for (int64_t i = i0; i < i1; i++) {
    double beta_min = -INFINITY, beta_max = INFINITY, beta = 1.0;
    for (int step = 0; step < SEARCH_STEPS; step++) {
      double sum = 0;
      for (int64_t j = 0; j < m; j++) {
        double v = 0;
        if (!(job->exclude_self && j == i)) {
          v = exp(-(double)(float)LUMA_AT(job->d2, i, j) * beta);
          sum += v;
        }
        LUMA_AT(job->p, i, j) = v;
      }
      if (sum == 0.0) sum = EPSILON_DBL;
      double weighted = 0;
      for (int64_t j = 0; j < m; j++) {
        LUMA_AT(job->p, i, j) /= sum;
        weighted += (double)(float)LUMA_AT(job->d2, i, j) * LUMA_AT(job->p, i, j);
      }
      const double diff = log(sum) + beta * weighted - target;
      if (fabs(diff) <= PERPLEXITY_TOLERANCE) break;
      if (diff > 0) {
        beta_min = beta;
        beta = beta_max == INFINITY ? beta * 2.0 : (beta + beta_max) / 2.0;
      } else {
        beta_max = beta;
        beta = beta_min == -INFINITY ? beta / 2.0 : (beta + beta_min) / 2.0;
      }
    }
  }
}

luma_LoopStatus luma_tsne_conditional(luma_Threads *t, const luma_Mat *d2, double perplexity,
                                      int exclude_self, luma_Mat *p) {
  CondJob job = {d2, perplexity, exclude_self, p};
  const int64_t m = d2->cols;
  luma_Loop loop = {d2->rows, grain_for(m * 30), (uint64_t)(m * 30), 0, cond_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* ------------------------------------------------------------ neighbours */

typedef struct SelJob {
  const luma_Mat *d2;
  int64_t row0, k;
  int exclude_self;
  int64_t *idx;
  double *dist;
} SelJob;

/* (a, ia) comes after (b, ib) in the order by distance, then index. */
static int after(double a, int64_t ia, double b, int64_t ib) { return a > b || (a == b && ia > ib); }

/* Max-heap of the k best so far, ordered by `after`. */
static void sift_down(double *hd, int64_t *hi, int64_t size, int64_t at) {
  /* audit-loops: a sift down the heap: O(log n) steps */
  for (;;) {
    int64_t l = 2 * at + 1, r = l + 1, top = at;
    if (l < size && after(hd[l], hi[l], hd[top], hi[top])) top = l;
    if (r < size && after(hd[r], hi[r], hd[top], hi[top])) top = r;
    if (top == at) return;
    double td = hd[at]; hd[at] = hd[top]; hd[top] = td;
    int64_t ti = hi[at]; hi[at] = hi[top]; hi[top] = ti;
    at = top;
  }
}

static void sift_up(double *hd, int64_t *hi, int64_t at) {
  while (at > 0) {
    int64_t parent = (at - 1) / 2;
    if (!after(hd[at], hi[at], hd[parent], hi[parent])) return;
    double td = hd[at]; hd[at] = hd[parent]; hd[parent] = td;
    int64_t ti = hi[at]; hi[at] = hi[parent]; hi[parent] = ti;
    at = parent;
  }
}

static void select_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  (void)chunk;
  const SelJob *job = ctx;
  const int64_t n = job->d2->cols, k = job->k;
  for (int64_t i = i0; i < i1; i++) {
    double *hd = job->dist + i * k;
    int64_t *hi = job->idx + i * k;
    int64_t size = 0;
    for (int64_t j = 0; j < n; j++) {
      if (job->exclude_self && j == job->row0 + i) continue;
      const double v = LUMA_AT(job->d2, i, j);
      if (size < k) {
        hd[size] = v;
        hi[size] = j;
        sift_up(hd, hi, size++);
      } else if (after(hd[0], hi[0], v, j)) {
        hd[0] = v;
        hi[0] = j;
        sift_down(hd, hi, size, 0);
      }
    }
    /* heap sort in place: ascending */
    for (int64_t end = size - 1; end > 0; end--) {
      double td = hd[0]; hd[0] = hd[end]; hd[end] = td;
      int64_t ti = hi[0]; hi[0] = hi[end]; hi[end] = ti;
      sift_down(hd, hi, end, 0);
    }
  }
}

luma_LoopStatus luma_tsne_select(luma_Threads *t, const luma_Mat *d2, int64_t row0,
                                 int exclude_self, int64_t k, int64_t *idx, double *dist) {
  SelJob job = {d2, row0, k, exclude_self, idx, dist};
  const int64_t n = d2->cols;
  luma_Loop loop = {d2->rows, grain_for(n * 2), (uint64_t)(n * 2), 0, select_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* ---------------------------------------------------------- joint sparse */

int64_t luma_tsne_joint_work(int64_t n, int64_t k) { return 2 * (n + 1) + 2 * n * k; }

int64_t luma_tsne_joint(int64_t n, int64_t k, const int64_t *nbr, const double *cond,
                        int64_t *indptr, int64_t *cols, double *vals, int64_t *work) {
  int64_t *count = work, *fill = work + (n + 1);
  int64_t *order = work + 2 * (n + 1); /* 2 n k entry numbers */
  for (int64_t i = 0; i <= n; i++) count[i] = 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t a = 0; a < k; a++) {
      count[i]++;
      count[nbr[i * k + a]]++;
    }
  /* entry e < n k is (i, nbr, cond) of row i; e >= n k its transpose */
  fill[0] = 0;
  for (int64_t i = 0; i < n; i++) fill[i + 1] = fill[i] + count[i];
  for (int64_t i = 0; i < n; i++) count[i] = fill[i];
  for (int64_t i = 0; i < n; i++)
    for (int64_t a = 0; a < k; a++) {
      const int64_t e = i * k + a, j = nbr[e];
      order[count[i]++] = e;
      order[count[j]++] = n * k + e;
    }
  double total = 0;
  int64_t nnz = 0;
  indptr[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t start = nnz;
    /* insertion sort of this row's entries by column (rows hold about 2 k) */
    for (int64_t s = fill[i]; s < fill[i + 1]; s++) {
      const int64_t e = order[s];
      const int64_t col = e < n * k ? nbr[e] : (e - n * k) / k;
      const double v = cond[e < n * k ? e : e - n * k];
      int64_t at = nnz;
      while (at > start && cols[at - 1] > col) at--;
      if (at > start && cols[at - 1] == col) {
        vals[at - 1] += v;
      } else {
        memmove(cols + at + 1, cols + at, (size_t)(nnz - at) * sizeof(int64_t));
        memmove(vals + at + 1, vals + at, (size_t)(nnz - at) * sizeof(double));
        cols[at] = col;
        vals[at] = v;
        nnz++;
      }
      total += v;
    }
    indptr[i + 1] = nnz;
  }
  const double scale = total > MACHINE_EPSILON ? total : MACHINE_EPSILON;
  for (int64_t e = 0; e < nnz; e++) vals[e] /= scale;
  return nnz;
}

/* ------------------------------------------------------- exact gradient */

typedef struct ExactJob {
  const luma_Mat *y, *p;
  double dof, z;
  int gaussian, compute_error;
  luma_Mat *grad;
  double *zpart, *klpart;
} ExactJob;

/* The kernel value of squared distance d2. */
static double kernel(double d2, double dof, int gaussian) {
  if (gaussian) return exp(-d2);
  const double base = 1.0 + d2 / dof;
  return dof == 1.0 ? 1.0 / base : pow(base, -(dof + 1.0) / 2.0);
}

static double sqdist(const luma_Mat *y, int64_t i, int64_t j) {
  double s = 0;
  for (int64_t a = 0; a < y->cols; a++) {
    const double v = LUMA_AT(y, i, a) - LUMA_AT(y, j, a);
    s += v * v;
  }
  return s;
}

static void exact_sum_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  ExactJob *job = ctx;
  double z = 0;
  for (int64_t i = i0; i < i1; i++)
    for (int64_t j = 0; j < job->y->rows; j++)
      if (j != i) z += kernel(sqdist(job->y, i, j), job->dof, job->gaussian);
  job->zpart[chunk] = z;
}

static void exact_grad_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  ExactJob *job = ctx;
  const int64_t n = job->y->rows, c = job->y->cols;
  double kl = 0;
  for (int64_t i = i0; i < i1; i++) {
    for (int64_t a = 0; a < c; a++) LUMA_AT(job->grad, i, a) = 0;
    for (int64_t j = 0; j < n; j++) {
      if (j == i) continue;
      const double w = kernel(sqdist(job->y, i, j), job->dof, job->gaussian);
      double q = w / job->z;
      if (q < MACHINE_EPSILON) q = MACHINE_EPSILON;
      const double pij = LUMA_AT(job->p, i, j);
      const double pq = job->gaussian ? pij - q : (pij - q) * w;
      for (int64_t a = 0; a < c; a++)
        LUMA_AT(job->grad, i, a) += pq * (LUMA_AT(job->y, i, a) - LUMA_AT(job->y, j, a));
      if (job->compute_error)
        kl += pij * log((pij > MACHINE_EPSILON ? pij : MACHINE_EPSILON) / q);
    }
    const double scale = job->gaussian ? 4.0 : 2.0 * (job->dof + 1.0) / job->dof;
    for (int64_t a = 0; a < c; a++) LUMA_AT(job->grad, i, a) *= scale;
  }
  job->klpart[chunk] = kl;
}

int64_t luma_tsne_exact_work(int64_t n) { return 2 * (chunks_of(n, grain_for(n * 8)) + 1); }

luma_LoopStatus luma_tsne_grad_exact(luma_Threads *t, const luma_Mat *y, const luma_Mat *p,
                                     double dof, int gaussian, int compute_error,
                                     luma_Mat *grad, double *kl, double *work) {
  const int64_t n = y->rows;
  const int64_t grain = grain_for(n * 8), chunks = chunks_of(n, grain);
  ExactJob job = {y, p, dof, 0, gaussian, compute_error, grad, work, work + chunks + 1};
  luma_Loop loop = {n, grain, (uint64_t)(n * (y->cols + 4)), 0, exact_sum_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double z = 0;
  for (int64_t q = 0; q < chunks; q++) z += work[q];
  job.z = z;
  loop.fn = exact_grad_chunk;
  loop.cost = (uint64_t)(n * (3 * y->cols + 8));
  status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double total = 0;
  for (int64_t q = 0; q < chunks; q++) total += job.klpart[q];
  *kl = total;
  return LUMA_LOOP_DONE;
}

/* ------------------------------------------------------------ the tree */

/* A cell of the quadtree (c = 2) or octree (c = 3).  Cells are cubes;
 * a leaf holds one point, or several that coincide (or lie closer than
 * the deepest level resolves). */
typedef struct Node {
  double com[3];    /* centre of mass */
  double mid[3];    /* centre of the cube */
  double half;      /* half its width */
  int64_t count;    /* points below */
  int64_t point;    /* a point of a leaf, -1 for an inner cell or an empty leaf */
  int32_t child[8]; /* -1: none */
  int32_t depth;
  int32_t leaf;
} Node;

typedef struct Tree {
  Node *nodes;
  int64_t used, cap;
  int c;
} Tree;

static int64_t new_node(Tree *tr, const double *mid, double half, int32_t depth) {
  if (tr->used >= tr->cap) return -1;
  Node *nd = &tr->nodes[tr->used];
  for (int a = 0; a < 3; a++) {
    nd->com[a] = 0;
    nd->mid[a] = a < tr->c ? mid[a] : 0;
  }
  nd->half = half;
  nd->count = 0;
  nd->point = -1;
  for (int q = 0; q < 8; q++) nd->child[q] = -1;
  nd->depth = depth;
  nd->leaf = 1;
  return tr->used++;
}

static int octant(const Node *nd, const double *x, int c) {
  int q = 0;
  for (int a = 0; a < c; a++)
    if (x[a] > nd->mid[a]) q |= 1 << a;
  return q;
}

/* The child of cell `at` in octant q, made if missing (-1: out of room). */
static int64_t child_of(Tree *tr, int64_t at, int q) {
  if (tr->nodes[at].child[q] >= 0) return tr->nodes[at].child[q];
  double mid[3];
  const Node *nd = &tr->nodes[at];
  const double h = nd->half / 2;
  for (int a = 0; a < tr->c; a++) mid[a] = nd->mid[a] + ((q >> a) & 1 ? h : -h);
  const int32_t depth = nd->depth + 1;
  const int64_t made = new_node(tr, mid, h, depth);
  if (made < 0) return -1;
  tr->nodes[at].child[q] = (int32_t)made;
  return made;
}

static void add_mass(Node *nd, const double *x, int c) {
  const double w = (double)nd->count;
  for (int a = 0; a < c; a++) nd->com[a] = (nd->com[a] * w + x[a]) / (w + 1);
  nd->count++;
}

/* Inserts point i at x; 0 when the tree is out of room. */
static int insert(Tree *tr, const luma_Mat *y, int64_t i) {
  const int c = tr->c;
  double x[3];
  for (int a = 0; a < c; a++) x[a] = LUMA_AT(y, i, a);
  int64_t at = 0;
  /* audit-loops: one level of the tree a step, at most MAX_DEPTH */
  for (;;) {
    Node *nd = &tr->nodes[at];
    if (nd->leaf) {
      if (nd->count == 0) {
        nd->point = i;
        add_mass(nd, x, c);
        return 1;
      }
      int same = 1;
      for (int a = 0; a < c; a++) same = same && LUMA_AT(y, nd->point, a) == x[a];
      if (same || nd->depth >= MAX_DEPTH) {
        add_mass(nd, x, c);
        return 1;
      }
      /* split: the resident point moves one level down */
      const int64_t resident = nd->point;
      double r[3];
      for (int a = 0; a < c; a++) r[a] = LUMA_AT(y, resident, a);
      const int64_t down = child_of(tr, at, octant(&tr->nodes[at], r, c));
      if (down < 0) return 0;
      nd = &tr->nodes[at];
      Node *dn = &tr->nodes[down];
      dn->point = resident;
      dn->count = nd->count;
      for (int a = 0; a < 3; a++) dn->com[a] = nd->com[a];
      nd->leaf = 0;
      nd->point = -1;
    }
    add_mass(&tr->nodes[at], x, c);
    const int64_t next = child_of(tr, at, octant(&tr->nodes[at], x, c));
    if (next < 0) return 0;
    at = next;
  }
}

static int build(Tree *tr, const luma_Mat *y) {
  const int c = tr->c;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int a = 0; a < c; a++) {
    lo[a] = INFINITY;
    hi[a] = -INFINITY;
    for (int64_t i = 0; i < y->rows; i++) {
      const double v = LUMA_AT(y, i, a);
      if (v < lo[a]) lo[a] = v;
      if (v > hi[a]) hi[a] = v;
    }
  }
  double mid[3] = {0, 0, 0}, half = 0;
  for (int a = 0; a < c; a++) {
    mid[a] = (lo[a] + hi[a]) / 2;
    const double h = (hi[a] - lo[a]) / 2;
    if (h > half) half = h;
  }
  half = half * (1 + 1e-6) + 1e-12; /* every point strictly inside */
  tr->used = 0;
  if (new_node(tr, mid, half, 0) < 0) return 0;
  for (int64_t i = 0; i < y->rows; i++)
    if (!insert(tr, y, i)) return 0;
  return 1;
}

/* ---------------------------------------------------- Barnes-Hut forces */

typedef struct BHJob {
  const luma_Mat *y;
  const Tree *tree;
  const int64_t *indptr, *cols;
  const double *vals;
  double theta2, dof, z;
  int compute_error;
  double *neg;    /* n x c repulsive sums */
  double *zpart;  /* per chunk */
  double *klpart; /* per chunk */
  luma_Mat *grad;
} BHJob;

static double qz_of(double d2, double dof) {
  const double q = dof / (dof + d2);
  return dof == 1.0 ? q : pow(q, (dof + 1.0) / 2.0);
}

static void negative_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  BHJob *job = ctx;
  const Tree *tr = job->tree;
  const int c = tr->c;
  int64_t stack[8 * MAX_DEPTH + 16];
  double zsum = 0;
  for (int64_t i = i0; i < i1; i++) {
    double x[3] = {0, 0, 0}, f[3] = {0, 0, 0};
    for (int a = 0; a < c; a++) x[a] = LUMA_AT(job->y, i, a);
    int64_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node *nd = &tr->nodes[stack[--top]];
      if (nd->count == 0) continue;
      double diff[3] = {0, 0, 0}, d2 = 0;
      for (int a = 0; a < c; a++) {
        diff[a] = x[a] - nd->com[a];
        d2 += diff[a] * diff[a];
      }
      const double width2 = 4 * nd->half * nd->half;
      if (nd->leaf || width2 < job->theta2 * d2) {
        double size = (double)nd->count;
        if (nd->leaf && d2 == 0) size -= 1; /* the point itself (and its copies) */
        if (size <= 0) continue;
        const double q = qz_of(d2, job->dof);
        zsum += size * q;
        const double mult = size * q * q;
        for (int a = 0; a < c; a++) f[a] += mult * diff[a];
        continue;
      }
      for (int q = 0; q < 8; q++)
        if (nd->child[q] >= 0) stack[top++] = nd->child[q];
    }
    for (int a = 0; a < c; a++) job->neg[i * c + a] = f[a];
  }
  job->zpart[chunk] = zsum;
}

static void positive_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  BHJob *job = ctx;
  const int64_t c = job->y->cols;
  const double scale = 2.0 * (job->dof + 1.0) / job->dof;
  double kl = 0;
  for (int64_t i = i0; i < i1; i++) {
    double f[3] = {0, 0, 0};
    for (int64_t e = job->indptr[i]; e < job->indptr[i + 1]; e++) {
      const int64_t j = job->cols[e];
      double diff[3] = {0, 0, 0}, d2 = 0;
      for (int64_t a = 0; a < c; a++) {
        diff[a] = LUMA_AT(job->y, i, a) - LUMA_AT(job->y, j, a);
        d2 += diff[a] * diff[a];
      }
      const double q = qz_of(d2, job->dof);
      const double pij = job->vals[e];
      for (int64_t a = 0; a < c; a++) f[a] += pij * q * diff[a];
      if (job->compute_error) {
        double qn = q / job->z;
        if (qn < MACHINE_EPSILON) qn = MACHINE_EPSILON;
        kl += pij * log((pij > MACHINE_EPSILON ? pij : MACHINE_EPSILON) / qn);
      }
    }
    for (int64_t a = 0; a < c; a++)
      LUMA_AT(job->grad, i, a) = scale * (f[a] - job->neg[i * c + a] / job->z);
  }
  job->klpart[chunk] = kl;
}

#define BH_GRAIN 64

int64_t luma_tsne_bh_work(int64_t n, int64_t c, int64_t nodes) {
  const int64_t node_doubles = (int64_t)((sizeof(Node) + sizeof(double) - 1) / sizeof(double));
  return n * c + 2 * (chunks_of(n, BH_GRAIN) + 1) + nodes * node_doubles;
}

luma_LoopStatus luma_tsne_grad_bh(luma_Threads *t, const luma_Mat *y, const int64_t *indptr,
                                  const int64_t *cols, const double *vals, double theta,
                                  double dof, int compute_error, luma_Mat *grad, double *kl,
                                  double *work, int64_t nodes, int64_t *need_nodes) {
  const int64_t n = y->rows, c = y->cols, chunks = chunks_of(n, BH_GRAIN);
  *need_nodes = 0;
  double *neg = work, *zpart = work + n * c, *klpart = zpart + chunks + 1;
  Tree tr = {(Node *)(klpart + chunks + 1), 0, nodes, (int)c};
  if (!build(&tr, y)) {
    *need_nodes = 2 * nodes + 64;
    return LUMA_LOOP_DONE;
  }
  BHJob job = {y, &tr, indptr, cols, vals, theta * theta, dof, 0, compute_error, neg, zpart,
               klpart, grad};
  luma_Loop loop = {n, BH_GRAIN, (uint64_t)(64 * (c + 4)), 0, negative_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double z = 0;
  for (int64_t q = 0; q < chunks; q++) z += zpart[q];
  job.z = z > MACHINE_EPSILON ? z : MACHINE_EPSILON;
  loop.fn = positive_chunk;
  loop.cost = (uint64_t)(4 * (indptr[n] / (n > 0 ? n : 1) + 1) * (c + 4));
  status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  double total = 0;
  for (int64_t q = 0; q < chunks; q++) total += klpart[q];
  *kl = total;
  return LUMA_LOOP_DONE;
}
