/*
 * kmeans.c - Lloyd's and Elkan's k-means iterations (see kmeans.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include <cblas.h>

#include "cluster/kmeans.h"
#include "core/smalldots.h"

/* Rows per BLAS block and the most centres per block: the block of
 * products |c|^2 - 2 x.c lives on the stack (64 KB). */
#define ROW_BLOCK 256
#define CENTRE_BLOCK 32
/* Up to this many features the products come from luma_small_dots, not
 * BLAS, whose packing of the rows dominates for few features (smalldots.c). */
#define SMALL_DOTS_MAX_D 64
/* The partial sums, one per chunk (k d + k + 2 doubles each), take at most
 * this many doubles (32 MB) in all, which sets the chunk size for large
 * k d; chunks are at least ROW_BLOCK rows. */
#define PARTIAL_BUDGET (4 << 20)

/* Per-chunk partial layout: k x d sums, k weights, label changes, inertia. */
static int64_t stride_of(int64_t d, int64_t k) { return k * d + k + 2; }

static int64_t grain_of(int64_t n, int64_t d, int64_t k) {
  int64_t chunks = PARTIAL_BUDGET / stride_of(d, k);
  if (chunks < 1) chunks = 1;
  int64_t grain = (n + chunks - 1) / chunks;
  return grain < ROW_BLOCK ? ROW_BLOCK : grain;
}

static int64_t chunks_of(int64_t n, int64_t grain) { return n > 0 ? (n + grain - 1) / grain : 0; }

static double sqdist(const double *a, const double *b, int64_t d) {
  double s = 0;
  for (int64_t j = 0; j < d; j++) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}

/* --------------------------------------------------------------- shared */

typedef struct Job {
  const luma_KMeansData *data;
  int64_t k, stride;
  const double *centers; /* the centres the rows are assigned to */
  const double *cnorm;   /* their squared norms (Lloyd) */
  const double *ct;      /* or NULL: the centres transposed, d x ldc (Lloyd, few features), */
  const double *cbias;   /* and their norms padded with +inf to ldc */
  int64_t ldc;
  int64_t *labels;
  double *dist;          /* optional per-row squared distances */
  int update;            /* accumulate the new centres' sums */
  int inertia;           /* accumulate sum_i w_i |x_i - c|^2 (and fill dist) */
  double *part;          /* one partial per chunk */
  /* Elkan */
  double *upper, *lower;     /* n, n x k */
  const double *half;        /* k x k: half the distances between centres */
  const double *next;        /* k: half the distance to the nearest other centre */
  const double *shift;       /* k: how far each centre moved */
} Job;

typedef double v2d __attribute__((vector_size(16)));

static double weight_of(const luma_KMeansData *data, int64_t i) {
  return data->w ? data->w[i] : 1.0;
}

/* Adds row i, with label c, to the chunk's partial sums. */
static void accumulate(const Job *job, double *p, int64_t i, int64_t c) {
  const int64_t d = job->data->d;
  const double *restrict xi = job->data->x + i * d;
  double *restrict s = p + c * d;
  if (job->data->w) {
    const double w = job->data->w[i];
    for (int64_t j = 0; j < d; j++) s[j] += w * xi[j];
    p[job->k * d + c] += w;
  } else { /* unweighted: 1 * x is x exactly, so the sums are the same.
            * Two at a time as vectors, written out: -O2 (GCC 12) does not
            * vectorize loops, and the sums were a sixth of the step */
    int64_t j = 0;
    for (; j + 2 <= d; j += 2) {
      v2d a, b;
      memcpy(&a, s + j, sizeof a);
      memcpy(&b, xi + j, sizeof b);
      a += b;
      memcpy(s + j, &a, sizeof a);
    }
    for (; j < d; j++) s[j] += xi[j];
    p[job->k * d + c] += 1;
  }
}

static double *chunk_partial(const Job *job, int64_t chunk) {
  double *p = job->part + chunk * job->stride;
  memset(p, 0, (size_t)job->stride * sizeof(double));
  return p;
}

/* ---------------------------------------------------------------- Lloyd */

static void lloyd_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const luma_KMeansData *data = job->data;
  const int64_t d = data->d, k = job->k;
  double *p = chunk_partial(job, chunk);
  double buf[ROW_BLOCK * CENTRE_BLOCK], best[ROW_BLOCK];
  int64_t label[ROW_BLOCK];
  for (int64_t r0 = i0; r0 < i1; r0 += ROW_BLOCK) {
    const int64_t rb = i1 - r0 < ROW_BLOCK ? i1 - r0 : ROW_BLOCK;
    for (int64_t r = 0; r < rb; r++) {
      best[r] = INFINITY;
      label[r] = 0;
    }
    if (job->ct) {
      luma_small_nearest(rb, k, d, data->x + r0 * d, d, job->ct, job->ldc, job->cbias, best,
                         label);
    } else {
      for (int64_t c0 = 0; c0 < k; c0 += CENTRE_BLOCK) {
        const int64_t cb = k - c0 < CENTRE_BLOCK ? k - c0 : CENTRE_BLOCK;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rb, (int)cb, (int)d, 1.0,
                    data->x + r0 * d, (int)d, job->centers + c0 * d, (int)d, 0.0, buf, (int)cb);
        /* strict: ties keep the lowest index */
        luma_nearest_of_products(rb, cb, buf, cb, job->cnorm + c0, c0, best, label);
      }
    }
    for (int64_t r = 0; r < rb; r++) {
      const int64_t i = r0 + r, c = label[r];
      if (job->labels[i] != c) p[k * d + k] += 1;
      job->labels[i] = c;
      if (job->update) accumulate(job, p, i, c);
      if (job->inertia) {
        const double e = sqdist(data->x + i * d, job->centers + c * d, d);
        if (job->dist) job->dist[i] = e;
        p[k * d + k + 1] += weight_of(data, i) * e;
      }
    }
  }
}

/* The squared distance of each row to its labelled centre, and their
 * weighted sum in the chunk's partial. */
static void inertia_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const int64_t d = job->data->d, k = job->k;
  double *p = job->part + chunk * job->stride;
  double s = 0;
  for (int64_t i = i0; i < i1; i++) {
    const double e = sqdist(job->data->x + i * d, job->centers + job->labels[i] * d, d);
    if (job->dist) job->dist[i] = e;
    s += weight_of(job->data, i) * e;
  }
  p[k * d + k + 1] = s;
}

/* Adds the chunks' partials in chunk order into total (stride doubles). */
static void reduce(const Job *job, int64_t chunks, double *total) {
  memset(total, 0, (size_t)job->stride * sizeof(double));
  for (int64_t q = 0; q < chunks; q++) {
    const double *p = job->part + q * job->stride;
    for (int64_t j = 0; j < job->stride; j++) total[j] += p[j];
  }
}

/* ------------------------------------------------------------- updating */

/* scikit-learn's _relocate_empty_clusters_dense: each empty cluster takes
 * one of the rows farthest from their centres (old centres), farthest
 * first (ties: lowest row), moving its weight out of that row's cluster.
 * Nothing moves when every row sits on its centre (more clusters than
 * distinct rows).  far: n doubles of scratch.  Returns the clusters
 * re-seeded. */
static int64_t relocate_empty(const luma_KMeansData *data, int64_t k, const double *old,
                              const int64_t *labels, double *sums, double *weights, double *far) {
  const int64_t n = data->n, d = data->d;
  int64_t empty = 0;
  for (int64_t c = 0; c < k; c++) empty += weights[c] == 0;
  if (empty == 0) return 0;
  double top = 0;
  for (int64_t i = 0; i < n; i++) {
    far[i] = sqdist(data->x + i * d, old + labels[i] * d, d);
    if (far[i] > top) top = far[i];
  }
  if (top == 0) return 0;
  int64_t moved = 0;
  for (int64_t c = 0; c < k; c++) {
    if (weights[c] != 0) continue;
    int64_t at = 0;
    for (int64_t i = 1; i < n; i++)
      if (far[i] > far[at]) at = i;
    if (!(far[at] > 0)) break;
    far[at] = -1; /* taken */
    const double w = weight_of(data, at);
    const double *xi = data->x + at * d;
    const int64_t from = labels[at];
    for (int64_t j = 0; j < d; j++) {
      sums[from * d + j] -= w * xi[j];
      sums[c * d + j] = w * xi[j];
    }
    weights[c] = w;
    weights[from] -= w;
    moved++;
  }
  return moved;
}

/* New centres from the sums (a cluster of weight 0 keeps its centre) and
 * each centre's shift |new - old|; returns the sum of squared shifts. */
static double average(int64_t k, int64_t d, const double *sums, const double *weights,
                      const double *old, double *centers, double *shift) {
  double total = 0;
  for (int64_t c = 0; c < k; c++) {
    double s = 0;
    for (int64_t j = 0; j < d; j++) {
      const double v = weights[c] > 0 ? sums[c * d + j] / weights[c] : old[c * d + j];
      const double t = v - old[c * d + j];
      centers[c * d + j] = v;
      s += t * t;
    }
    shift[c] = sqrt(s);
    total += s;
  }
  return total;
}

static void norms(int64_t k, int64_t d, const double *centers, double *out) {
  for (int64_t c = 0; c < k; c++) {
    double s = 0;
    for (int64_t j = 0; j < d; j++) s += centers[c * d + j] * centers[c * d + j];
    out[c] = s;
  }
}

/* The row width of Lloyd's transposed centres: k rounded up to a group
 * of luma_small_nearest, or 0 when BLAS computes the products. */
static int64_t transposed_width(int64_t d, int64_t k) {
  if (d > SMALL_DOTS_MAX_D || !luma_small_dots_available()) return 0;
  return (k + LUMA_SMALL_DOTS_GROUP - 1) / LUMA_SMALL_DOTS_GROUP * LUMA_SMALL_DOTS_GROUP;
}

/* Doubles of the transposed centres and their padded norms. */
static int64_t transposed_size(int64_t d, int64_t k) { return (d + 1) * transposed_width(d, k); }

/* Lloyd's view of the centres: their squared norms and, for
 * luma_small_nearest, their transpose (d x ldc, the padding zero) and the
 * norms again padded with +inf (transposed_size doubles at ct). */
static void lloyd_centres(Job *job, int64_t d, const double *centers, double *cnorm,
                          double *ct) {
  const int64_t k = job->k, ldc = transposed_width(d, k);
  norms(k, d, centers, cnorm);
  job->cnorm = cnorm;
  job->ct = ldc ? ct : NULL;
  job->cbias = ldc ? ct + d * ldc : NULL;
  job->ldc = ldc;
  if (!ldc) return;
  for (int64_t j = 0; j < d; j++)
    for (int64_t c = 0; c < ldc; c++) ct[j * ldc + c] = c < k ? centers[c * d + j] : 0;
  for (int64_t c = 0; c < ldc; c++) ct[d * ldc + c] = c < k ? cnorm[c] : INFINITY;
}

/* ----------------------------------------------------------------- Elkan */

/* Half the distances between centres (k x k) and, per centre, the
 * smallest half distance to another one. */
static void centre_distances(int64_t k, int64_t d, const double *centers, double *half,
                             double *next) {
  for (int64_t a = 0; a < k; a++) {
    half[a * k + a] = 0;
    for (int64_t b = 0; b < a; b++) {
      const double h = sqrt(sqdist(centers + a * d, centers + b * d, d)) / 2;
      half[a * k + b] = half[b * k + a] = h;
    }
  }
  for (int64_t a = 0; a < k; a++) {
    double m = INFINITY;
    for (int64_t b = 0; b < k; b++)
      if (b != a && half[a * k + b] < m) m = half[a * k + b];
    next[a] = m;
  }
}

/* scikit-learn's init_bounds_dense: each row's nearest centre, skipping
 * the centres c with d(x, best) <= d(best, c) / 2. */
static void elkan_init_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const int64_t d = job->data->d, k = job->k;
  (void)chunk;
  for (int64_t i = i0; i < i1; i++) {
    const double *xi = job->data->x + i * d;
    double *lower = job->lower + i * k;
    for (int64_t c = 0; c < k; c++) lower[c] = 0;
    int64_t best = 0;
    double m = sqrt(sqdist(xi, job->centers, d));
    lower[0] = m;
    for (int64_t c = 1; c < k; c++) {
      if (m > job->half[best * k + c]) {
        const double e = sqrt(sqdist(xi, job->centers + c * d, d));
        lower[c] = e;
        if (e < m) {
          m = e;
          best = c;
        }
      }
    }
    job->labels[i] = best;
    job->upper[i] = m;
  }
}

/* scikit-learn's elkan_iter_chunked_dense: the bounds rule out most
 * distances; the labels and, with update, the sums of the new centres. */
static void elkan_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const int64_t d = job->data->d, k = job->k;
  double *p = chunk_partial(job, chunk);
  for (int64_t i = i0; i < i1; i++) {
    const double *xi = job->data->x + i * d;
    double *lower = job->lower + i * k;
    double upper = job->upper[i];
    const int64_t old = job->labels[i];
    int64_t label = old;
    int tight = 0;
    if (!(job->next[label] >= upper)) {
      for (int64_t c = 0; c < k; c++) {
        if (c == label || !(upper > lower[c]) || !(upper > job->half[label * k + c])) continue;
        if (!tight) {
          upper = sqrt(sqdist(xi, job->centers + label * d, d));
          lower[label] = upper;
          tight = 1;
        }
        if (upper > lower[c] && upper > job->half[label * k + c]) {
          const double e = sqrt(sqdist(xi, job->centers + c * d, d));
          lower[c] = e;
          if (e < upper) {
            label = c;
            upper = e;
          }
        }
      }
      job->labels[i] = label;
      job->upper[i] = upper;
    }
    if (label != old) p[k * d + k] += 1;
    if (job->update) accumulate(job, p, i, label);
  }
}

/* The bounds after the centres moved by shift. */
static void bounds_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Job *job = ctx;
  const int64_t k = job->k;
  (void)chunk;
  for (int64_t i = i0; i < i1; i++) {
    job->upper[i] += job->shift[job->labels[i]];
    double *lower = job->lower + i * k;
    for (int64_t c = 0; c < k; c++) {
      const double v = lower[c] - job->shift[c];
      lower[c] = v < 0 ? 0 : v;
    }
  }
}

/* ------------------------------------------------------------------ fit */

int64_t luma_kmeans_assign_work(int64_t n, int64_t d, int64_t k) {
  const int64_t stride = stride_of(d, k);
  return chunks_of(n, grain_of(n, d, k)) * stride + stride + k + transposed_size(d, k);
}

luma_LoopStatus luma_kmeans_assign(luma_Threads *t, const luma_KMeansData *data, int64_t k,
                                   const double *centers, int64_t *labels, double *dist,
                                   double *inertia, double *sums, double *weights,
                                   double *work) {
  const int64_t n = data->n, d = data->d, grain = grain_of(n, d, k);
  const int64_t chunks = chunks_of(n, grain), stride = stride_of(d, k);
  double *part = work, *total = part + chunks * stride, *cnorm = total + stride;
  Job job = {data, k, stride, centers, cnorm, NULL, NULL, 0, labels, dist, sums != NULL, 1, part,
             NULL, NULL, NULL, NULL, NULL};
  lloyd_centres(&job, d, centers, cnorm, cnorm + k);
  luma_Loop loop = {n, grain, (uint64_t)(2 * k * d + 3 * d), 1, lloyd_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  reduce(&job, chunks, total);
  *inertia = total[k * d + k + 1];
  if (sums) {
    memcpy(sums, total, (size_t)(k * d) * sizeof(double));
    memcpy(weights, total + k * d, (size_t)k * sizeof(double));
  }
  return LUMA_LOOP_DONE;
}

int64_t luma_kmeans_fit_work(luma_KMeansAlgorithm algorithm, int64_t n, int64_t d, int64_t k) {
  const int64_t stride = stride_of(d, k);
  int64_t size = chunks_of(n, grain_of(n, d, k)) * stride /* partials */
                 + stride                                 /* their total */
                 + 2 * k * d                              /* old centres, their copy */
                 + 2 * k                                  /* norms, shifts */
                 + n                                      /* relocation distances */
                 + transposed_size(d, k);                 /* Lloyd's transposed centres */
  if (algorithm == LUMA_KMEANS_ELKAN) size += n + n * k + k * k + k;
  return size;
}

luma_LoopStatus luma_kmeans_fit(luma_Threads *t, luma_KMeansAlgorithm algorithm,
                                const luma_KMeansData *data, int64_t k, int64_t max_iter,
                                double tol, double *centers, int64_t *labels,
                                luma_KMeansResult *result, double *work) {
  const int64_t n = data->n, d = data->d, grain = grain_of(n, d, k);
  const int64_t chunks = chunks_of(n, grain), stride = stride_of(d, k);
  double *part = work, *total = part + chunks * stride;
  double *old = total + stride, *cnorm = old + k * d, *shift = cnorm + k, *far = shift + k;
  double *ct = far + n, *upper = ct + transposed_size(d, k), *lower = upper + n;
  double *half = lower + n * k, *next = half + k * k;
  const int elkan = algorithm == LUMA_KMEANS_ELKAN && k > 1;
  Job job = {data, k, stride, old, cnorm, NULL, NULL, 0, labels, NULL, 1, 0, part, upper, lower,
             half, next, shift};
  luma_Loop loop = {n, grain, (uint64_t)(2 * k * d + 3 * d), !elkan,
                    elkan ? elkan_chunk : lloyd_chunk, &job};
  luma_LoopStatus status;
  memset(result, 0, sizeof *result);
  for (int64_t i = 0; i < n; i++) labels[i] = -1;
  if (elkan) {
    memcpy(old, centers, (size_t)(k * d) * sizeof(double));
    centre_distances(k, d, old, half, next);
    luma_Loop init = {n, grain, (uint64_t)(k * (d + 2)), 0, elkan_init_chunk, &job};
    if ((status = luma_parallel_for(t, &init)) != LUMA_LOOP_DONE) return status;
  }
  int strict = 0;
  int64_t it = 0;
  while (it < max_iter) {
    memcpy(old, centers, (size_t)(k * d) * sizeof(double));
    if (!elkan) lloyd_centres(&job, d, old, cnorm, ct);
    if ((status = luma_parallel_for(t, &loop)) != LUMA_LOOP_DONE) return status;
    reduce(&job, chunks, total);
    double *sums = total, *weights = total + k * d;
    result->relocated += relocate_empty(data, k, old, labels, sums, weights, far);
    const double moved = average(k, d, sums, weights, old, centers, shift);
    it++;
    if (elkan) {
      luma_Loop bounds = {n, grain, (uint64_t)(k + 2), 0, bounds_chunk, &job};
      if ((status = luma_parallel_for(t, &bounds)) != LUMA_LOOP_DONE) return status;
      centre_distances(k, d, centers, half, next);
    }
    /* Lloyd's first pass changes every label (they start at -1); so does
     * Elkan's in scikit-learn, whose old labels start at -1 too */
    if (total[k * d + k] == 0 && !(elkan && it == 1)) {
      strict = 1;
      break;
    }
    if (moved <= tol) break;
  }
  result->n_iter = it;
  result->converged = it < max_iter || strict;
  if (!strict && it > 0) { /* labels of the final centres */
    memcpy(old, centers, (size_t)(k * d) * sizeof(double));
    if (!elkan) lloyd_centres(&job, d, old, cnorm, ct);
    job.update = 0;
    if ((status = luma_parallel_for(t, &loop)) != LUMA_LOOP_DONE) return status;
  } else if (it == 0) { /* max_iter 0: the labels of the initial centres */
    memcpy(old, centers, (size_t)(k * d) * sizeof(double));
    lloyd_centres(&job, d, old, cnorm, ct);
    job.update = 0;
    loop.fn = lloyd_chunk;
    loop.calls_blas = 1;
    if ((status = luma_parallel_for(t, &loop)) != LUMA_LOOP_DONE) return status;
  }
  job.centers = centers;
  loop.fn = inertia_chunk;
  loop.calls_blas = 0;
  if ((status = luma_parallel_for(t, &loop)) != LUMA_LOOP_DONE) return status;
  double inertia = 0;
  for (int64_t q = 0; q < chunks; q++) inertia += part[q * stride + k * d + k + 1];
  result->inertia = inertia;
  return LUMA_LOOP_DONE;
}
