/*
 * hist.c - histogram gradient boosting (hist.h): binning, gradients,
 * leaf-wise growth with histogram subtraction, prediction.  Split search
 * and growth follow scikit-learn 1.2's splitting.pyx and grower.py.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "ensemble/hist.h"
#include "tree/sort.h"

/* scikit-learn adds this to hessian sums before dividing. */
#define HESS_EPS 1e-15
/* Thresholds are clipped below +inf, which only a split on NaN uses. */
#define ALMOST_INF 1e300

/* ------------------------------------------------------------- binning */

size_t luma_hgb_thresholds_work_bytes(int64_t n) {
  return luma_argsort_work_bytes(n) + (size_t)(n > 0 ? n : 1) * (sizeof(int32_t) + sizeof(double));
}

int luma_hgb_thresholds(double *v, int64_t n, int max_bins, double *out, void *work) {
  if (n == 0) return 0;
  /* sort v through the radix argsort the trees use */
  double *sorted = (double *)((char *)work + luma_argsort_work_bytes(n));
  int32_t *order = (int32_t *)(sorted + n);
  luma_argsort_doubles(v, n, order, work);
  for (int64_t i = 0; i < n; i++) sorted[i] = v[order[i]];
  memcpy(v, sorted, (size_t)n * sizeof(double));
  int64_t distinct = 1;
  for (int64_t i = 1; i < n; i++) distinct += v[i] > v[i - 1];
  int count = 0;
  if (distinct <= max_bins) {
    double prev = v[0];
    for (int64_t i = 1; i < n; i++)
      if (v[i] > prev) {
        out[count++] = (prev + v[i]) * 0.5;
        prev = v[i];
      }
  } else {
    /* np.percentile(v, 100 i / max_bins, method="midpoint"), i = 1..max_bins-1 */
    for (int i = 1; i < max_bins; i++) {
      double q = 100.0 * i / max_bins;
      double pos = q / 100.0 * (double)(n - 1);
      int64_t lo = (int64_t)floor(pos), hi = (int64_t)ceil(pos);
      out[count++] = (v[lo] + v[hi]) * 0.5;
    }
  }
  for (int i = 0; i < count; i++)
    if (out[i] > ALMOST_INF) out[i] = ALMOST_INF;
  return count;
}

/* How many of the m sorted thresholds are below v: the index of the
 * first one >= v, v's bin.  Branch-free: the trip count depends on m
 * only and each step a mask, since the data make the comparisons
 * unpredictable. */
static int32_t count_below(const double *thr, int32_t m, double v) {
  const double *base = thr;
  int32_t len = m;
  while (len > 1) {
    int32_t half = len / 2;
    int32_t below = -(int32_t)(base[half - 1] < v); /* all ones or zero: no branch */
    base += half & below;
    len -= half;
  }
  return (int32_t)(base - thr) + (len == 1 && base[0] < v);
}

typedef struct MapJob {
  const luma_Mat *x;
  luma_HgbBinned *b;
} MapJob;

static void map_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  MapJob *job = ctx;
  luma_HgbBinned *b = job->b;
  for (int64_t j = begin; j < end; j++) {
    const double *thr = b->thresholds + j * LUMA_HGB_VALUE_BINS;
    int32_t m = b->n_bins[j] - 1;
    uint8_t *col = b->bins + j * b->n;
    uint8_t missing = 0;
    for (int64_t i = 0; i < b->n; i++) {
      double v = LUMA_AT(job->x, i, j);
      if (isnan(v)) {
        col[i] = LUMA_HGB_MISSING_BIN;
        missing = 1;
        continue;
      }
      col[i] = (uint8_t)count_below(thr, m, v);
    }
    b->has_missing[j] = missing;
  }
}

luma_LoopStatus luma_hgb_map(luma_Threads *t, const luma_Mat *x, luma_HgbBinned *b) {
  MapJob job = {x, b};
  luma_Loop loop = {b->d, 1, (uint64_t)b->n * 8 + 1, 0, map_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* ----------------------------------------------------------- gradients */

typedef struct GradJob {
  luma_HgbLoss loss;
  int64_t k;
  const double *y, *w, *raw;
  double *g, *h;
} GradJob;

/* Gradients and hessians are kept at single precision, as scikit-learn
 * and LightGBM keep them (sums are double): the splits then agree with
 * theirs, and the precision is ample for a direction of descent. */
static double single(double v) { return (double)(float)v; }

static void grad_chunk(void *ctx, int64_t chunk, int64_t begin, int64_t end) {
  (void)chunk;
  GradJob *job = ctx;
  int64_t k = job->k;
  for (int64_t i = begin; i < end; i++) {
    double w = job->w ? job->w[i] : 1.0;
    const double *f = job->raw + i * k;
    double *g = job->g + i * k, *h = job->h + i * k;
    double y = job->y[i];
    switch (job->loss) {
    case LUMA_HGB_SQUARED_ERROR:
      g[0] = w * (f[0] - y);
      h[0] = w;
      break;
    case LUMA_HGB_POISSON: {
      double mu = exp(f[0]);
      g[0] = w * (mu - y);
      h[0] = w * mu;
      break;
    }
    case LUMA_HGB_BINOMIAL: {
      double p = 1.0 / (1.0 + exp(-f[0]));
      g[0] = w * (p - y);
      h[0] = w * p * (1.0 - p);
      break;
    }
    case LUMA_HGB_MULTINOMIAL: {
      double top = f[0], s = 0;
      for (int64_t c = 1; c < k; c++)
        if (f[c] > top) top = f[c];
      for (int64_t c = 0; c < k; c++) s += exp(f[c] - top);
      for (int64_t c = 0; c < k; c++) {
        double p = exp(f[c] - top) / s;
        g[c] = w * (p - ((double)c == y ? 1.0 : 0.0));
        h[c] = w * p * (1.0 - p);
      }
      break;
    }
    }
    for (int64_t c = 0; c < k; c++) {
      g[c] = single(g[c]);
      h[c] = single(h[c]);
    }
  }
}

luma_LoopStatus luma_hgb_gradients(luma_Threads *t, luma_HgbLoss loss, int64_t n, int64_t k,
                                   const double *y, const double *w, const double *raw,
                                   double *g, double *h) {
  GradJob job = {loss, k, y, w, raw, g, h};
  luma_Loop loop = {n, 16384, (uint64_t)(8 * k + 8), 0, grad_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* -------------------------------------------------------------- growth */

typedef struct Bin {
  double g, h;
  int64_t count;
} Bin;

/* A frontier node: its samples, sums and best split. */
typedef struct Leaf {
  int32_t node, slot; /* node id, histogram slot */
  int64_t start, end;
  double sum_g, sum_h;
  int found;
  int32_t feature, bin, missing_left;
  double gain, gl, hl, gr, hr;
  int64_t nl, nr;
} Leaf;

typedef struct Grow {
  const luma_HgbParams *p;
  const luma_HgbBinned *b;
  const double *g, *h;
  int64_t stride;
  luma_Threads *threads;
  int32_t *samples, *right; /* right: the right side while partitioning */
  double *og, *oh; /* the node's gradients and hessians in sample order */
  Bin *hist;       /* slots x d x 256 */
  int32_t *free_slots;
  int32_t n_free;
  Leaf *heap;
  int64_t heap_size;
  int64_t *range; /* per node: start, end */
  luma_HgbNode *nodes;
  int64_t count;
  luma_LoopStatus status;
} Grow;

#define SLOT_BINS 256

static Bin *slot_hist(const Grow *gr, int32_t slot) {
  return gr->hist + (int64_t)slot * gr->b->d * SLOT_BINS;
}

typedef struct HistJob {
  Grow *gr;
  Bin *out;
  int64_t start, end;
} HistJob;

/* The histograms of m features (m <= 4) in one pass over a node's
 * samples: each sample's index, gradient and hessian are read once for
 * the group instead of once per feature.  Inlined for each constant m,
 * so the unused features' lines drop out and the rest stay in registers. */
#define HIST_GROUP 4
static inline __attribute__((always_inline)) void
hist_group(const Grow *gr, const HistJob *job, int64_t j0, int m, int root, int constant) {
  const luma_HgbBinned *b = gr->b;
  /* the columns and histograms past the group's m alias the first: never
   * used, and no pointer is formed beyond the arrays */
  const uint8_t *c0 = b->bins + j0 * b->n, *c1 = m > 1 ? c0 + b->n : c0,
                *c2 = m > 2 ? c1 + b->n : c0, *c3 = m > 3 ? c2 + b->n : c0;
  Bin *h0 = job->out + j0 * SLOT_BINS, *h1 = m > 1 ? h0 + SLOT_BINS : h0,
      *h2 = m > 2 ? h1 + SLOT_BINS : h0, *h3 = m > 3 ? h2 + SLOT_BINS : h0;
  memset(h0, 0, (size_t)m * SLOT_BINS * sizeof(Bin));
  const int32_t *samples = gr->samples;
  const double *og = gr->og, *oh = gr->oh;
#define HIST_ADD(F)                                                                          \
  do {                                                                                       \
    Bin *bin = &h##F[c##F[s]];                                                               \
    bin->g += g;                                                                             \
    if (!constant) bin->h += h;                                                              \
    bin->count++;                                                                            \
  } while (0)
  for (int64_t i = job->start; i < job->end; i++) {
    /* the root's samples are in their own order: read straight down */
    int64_t s = root ? i : samples[i];
    double g = og[i], h = constant ? 0 : oh[i];
    HIST_ADD(0);
    if (m > 1) HIST_ADD(1);
    if (m > 2) HIST_ADD(2);
    if (m > 3) HIST_ADD(3);
  }
#undef HIST_ADD
  if (constant)
    for (int c = 0; c < m * SLOT_BINS; c++) h0[c].h = (double)h0[c].count;
}

static void hist_pass(const Grow *gr, const HistJob *job, int64_t j0, int m, int root,
                      int constant) {
  /* constant arguments for each case, so each gets its own unrolled loop */
#define HIST_CASE(M)                                                                       \
  case M:                                                                                  \
    if (root) constant ? hist_group(gr, job, j0, M, 1, 1) : hist_group(gr, job, j0, M, 1, 0); \
    else constant ? hist_group(gr, job, j0, M, 0, 1) : hist_group(gr, job, j0, M, 0, 0);      \
    break;
  switch (m) {
    HIST_CASE(1)
    HIST_CASE(2)
    HIST_CASE(3)
    HIST_CASE(4)
  }
#undef HIST_CASE
}

static void hist_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  HistJob *job = ctx;
  const Grow *gr = job->gr;
  int root = job->start == 0 && job->end == gr->b->n;
  /* the chunk's features in near-equal groups of at most HIST_GROUP */
  int64_t groups = (end - begin + HIST_GROUP - 1) / HIST_GROUP;
  for (int64_t q = 0, j = begin; q < groups; q++) {
    int m = (int)((end - j) / (groups - q) + ((end - j) % (groups - q) != 0));
    hist_pass(gr, job, j, m, root, gr->p->constant_hessian);
    j += m;
  }
}

typedef struct GatherJob {
  Grow *gr;
  int64_t start;
} GatherJob;

static void gather_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  GatherJob *job = ctx;
  Grow *gr = job->gr;
  for (int64_t i = job->start + begin; i < job->start + end; i++) {
    int64_t s = gr->samples[i];
    gr->og[i] = gr->g[s * gr->stride];
    gr->oh[i] = gr->h[s * gr->stride];
  }
}

static void build_hist(Grow *gr, int64_t start, int64_t end, Bin *out) {
  /* small nodes: one thread avoids waking the others */
  luma_Threads *t = (end - start) * gr->b->d >= 32768 ? gr->threads : NULL;
  GatherJob gather = {gr, start};
  luma_Loop gloop = {end - start, 16384, 2, 0, gather_chunk, &gather};
  luma_LoopStatus st = luma_parallel_for(end - start >= 32768 ? t : NULL, &gloop);
  HistJob job = {gr, out, start, end};
  /* one chunk per thread's share of the features, grouped within it */
  int64_t workers = t ? t->count : 1;
  int64_t grain = (gr->b->d + workers - 1) / workers;
  luma_Loop loop = {gr->b->d, grain, (uint64_t)(end - start) + 1, 0, hist_chunk, &job};
  if (st == LUMA_LOOP_DONE) st = luma_parallel_for(t, &loop);
  if (st != LUMA_LOOP_DONE) gr->status = st;
}

static double node_value(double g, double h, double l2) { return -g / (h + l2 + HESS_EPS); }

/* Loss reduction of a split (scikit-learn's _split_gain: the parent's
 * G v minus the children's, with v = -G / (H + l2)). */
static double split_gain(double gl, double hl, double gr_, double hr, double g, double h,
                         double l2) {
  return g * node_value(g, h, l2) - gl * node_value(gl, hl, l2) - gr_ * node_value(gr_, hr, l2);
}

static void consider(Leaf *leaf, const luma_HgbParams *p, int32_t feature, int32_t bin,
                     int missing_left, double gl, double hl, int64_t nl) {
  double gr_ = leaf->sum_g - gl, hr = leaf->sum_h - hl;
  double gain = split_gain(gl, hl, gr_, hr, leaf->sum_g, leaf->sum_h, p->l2);
  if (gain > leaf->gain && gain > 0) {
    leaf->found = 1;
    leaf->gain = gain;
    leaf->feature = feature;
    leaf->bin = bin;
    leaf->missing_left = missing_left;
    leaf->gl = gl;
    leaf->hl = hl;
    leaf->gr = gr_;
    leaf->hr = hr;
    leaf->nl = nl;
    leaf->nr = (leaf->end - leaf->start) - nl;
  }
}

/* Best split of a leaf from its histograms: each feature scanned with
 * missing values on the right, and again on the left when it has any;
 * the first feature wins ties. */
static void find_split(Grow *gr, Leaf *leaf) {
  const luma_HgbParams *p = gr->p;
  const luma_HgbBinned *b = gr->b;
  const Bin *all = slot_hist(gr, leaf->slot);
  int64_t n = leaf->end - leaf->start;
  leaf->found = 0;
  leaf->gain = -1;
  for (int32_t j = 0; j < b->d; j++) {
    const Bin *hist = all + (int64_t)j * SLOT_BINS;
    int32_t nb = b->n_bins[j];
    int missing = b->has_missing[j];
    double gl = 0, hl = 0;
    int64_t nl = 0;
    int32_t end = nb - 1 + missing;
    for (int32_t bin = 0; bin < end; bin++) {
      gl += hist[bin].g;
      hl += hist[bin].h;
      nl += hist[bin].count;
      if (nl < p->min_samples_leaf) continue;
      if (n - nl < p->min_samples_leaf) break;
      if (hl < p->min_hessian) continue;
      if (leaf->sum_h - hl < p->min_hessian) break;
      consider(leaf, p, j, bin, 0, gl, hl, nl);
    }
    if (missing) {
      double grr = 0, hrr = 0;
      int64_t nr = 0;
      for (int32_t bin = nb - 2; bin >= 0; bin--) {
        grr += hist[bin + 1].g;
        hrr += hist[bin + 1].h;
        nr += hist[bin + 1].count;
        if (nr < p->min_samples_leaf) continue;
        if (n - nr < p->min_samples_leaf) break;
        if (hrr < p->min_hessian) continue;
        if (leaf->sum_h - hrr < p->min_hessian) break;
        consider(leaf, p, j, bin, 1, leaf->sum_g - grr, leaf->sum_h - hrr, n - nr);
      }
    }
  }
  /* a feature without missing values in training sends them at
   * prediction to the child with more samples (scikit-learn's rule) */
  if (leaf->found && !b->has_missing[leaf->feature]) leaf->missing_left = leaf->nl > leaf->nr;
}

static int above(const Leaf *a, const Leaf *b) {
  return a->gain > b->gain || (a->gain == b->gain && a->node < b->node);
}

static void push(Grow *gr, Leaf leaf) {
  Leaf *h = gr->heap;
  int64_t i = gr->heap_size++;
  h[i] = leaf;
  while (i > 0) {
    int64_t up = (i - 1) / 2;
    if (!above(&h[i], &h[up])) break;
    Leaf t = h[i];
    h[i] = h[up];
    h[up] = t;
    i = up;
  }
}

static Leaf pop(Grow *gr) {
  Leaf *h = gr->heap;
  Leaf top = h[0];
  h[0] = h[--gr->heap_size];
  int64_t i = 0;
  /* audit-loops: a sift down the heap: O(log n) steps, the caller charges the split */
  for (;;) {
    int64_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < gr->heap_size && above(&h[l], &h[m])) m = l;
    if (r < gr->heap_size && above(&h[r], &h[m])) m = r;
    if (m == i) break;
    Leaf t = h[i];
    h[i] = h[m];
    h[m] = t;
    i = m;
  }
  return top;
}

static int32_t new_node(Grow *gr, int64_t start, int64_t end, double g, double h, int32_t depth) {
  int32_t id = (int32_t)gr->count++;
  luma_HgbNode *nd = &gr->nodes[id];
  memset(nd, 0, sizeof *nd);
  nd->left = nd->right = -1;
  nd->feature = -1;
  nd->depth = depth;
  nd->value = node_value(g, h, gr->p->l2);
  nd->count = end - start;
  gr->range[2 * id] = start;
  gr->range[2 * id + 1] = end;
  return id;
}

/* Moves the leaf's samples going left to the front, keeping the order
 * within each side (scikit-learn's split_indices does too, and sums run
 * in sample order); returns the split. */
static int64_t partition(Grow *gr, const Leaf *leaf) {
  const uint8_t *col = gr->b->bins + (int64_t)leaf->feature * gr->b->n;
  int64_t pos = leaf->start, r = 0;
  for (int64_t i = leaf->start; i < leaf->end; i++) {
    int32_t s = gr->samples[i];
    uint8_t bin = col[s];
    int left = bin == LUMA_HGB_MISSING_BIN ? leaf->missing_left : bin <= leaf->bin;
    /* both stores, one kept: the sides are unpredictable, and pos <= i
     * only overwrites samples already read */
    gr->samples[pos] = s;
    gr->right[r] = s;
    pos += left;
    r += !left;
  }
  memcpy(gr->samples + pos, gr->right, (size_t)r * sizeof(int32_t));
  return pos;
}

size_t luma_hgb_grow_work_bytes(int64_t n, int64_t d, int64_t max_leaf_nodes) {
  size_t un = (size_t)(n > 0 ? n : 1), slots = (size_t)max_leaf_nodes + 1;
  size_t nodes = 2 * (size_t)max_leaf_nodes;
  return un * (2 * sizeof(int32_t) + 2 * sizeof(double)) +
         slots * ((size_t)d * SLOT_BINS * sizeof(Bin) + sizeof(int32_t)) + nodes * sizeof(Leaf) +
         nodes * 2 * sizeof(int64_t) + 64;
}

int64_t luma_hgb_grow(luma_Threads *t, const luma_HgbParams *p, const luma_HgbBinned *b,
                      const double *g, const double *h, int64_t stride, luma_HgbNode *nodes,
                      double *raw, void *work, luma_LoopStatus *status) {
  int64_t n = b->n, slots = p->max_leaf_nodes + 1, cap = 2 * p->max_leaf_nodes;
  Grow gr;
  memset(&gr, 0, sizeof gr);
  gr.p = p;
  gr.b = b;
  gr.g = g;
  gr.h = h;
  gr.stride = stride;
  gr.threads = t;
  gr.nodes = nodes;
  gr.status = LUMA_LOOP_DONE;
  /* doubles first, then the rest, keeping every array aligned */
  gr.og = work;
  gr.oh = gr.og + n;
  gr.hist = (Bin *)(gr.oh + n);
  gr.heap = (Leaf *)(gr.hist + slots * b->d * SLOT_BINS);
  gr.range = (int64_t *)(gr.heap + cap);
  gr.samples = (int32_t *)(gr.range + 2 * cap);
  gr.right = gr.samples + n;
  gr.free_slots = gr.right + n;
  for (int32_t s = 0; s < slots; s++) gr.free_slots[s] = (int32_t)(slots - 1 - s);
  gr.n_free = (int32_t)slots;

  double sg = 0, sh = 0;
  for (int64_t i = 0; i < n; i++) {
    gr.samples[i] = (int32_t)i;
    sg += g[i * stride];
    sh += p->constant_hessian ? 1.0 : h[i * stride];
  }
  Leaf root = {0};
  root.node = new_node(&gr, 0, n, sg, sh, 0);
  root.start = 0;
  root.end = n;
  root.sum_g = sg;
  root.sum_h = sh;
  int64_t n_leaves = 1;
  if (n >= 2 * p->min_samples_leaf && p->max_depth > 0) {
    root.slot = gr.free_slots[--gr.n_free];
    build_hist(&gr, 0, n, slot_hist(&gr, root.slot));
    find_split(&gr, &root);
    if (root.found) push(&gr, root);
  }
  while (gr.heap_size > 0 && n_leaves < p->max_leaf_nodes && gr.status == LUMA_LOOP_DONE) {
    Leaf leaf = pop(&gr);
    int64_t pos = partition(&gr, &leaf);
    luma_HgbNode *parent = &nodes[leaf.node];
    int32_t depth = parent->depth + 1;
    int32_t l = new_node(&gr, leaf.start, pos, leaf.gl, leaf.hl, depth);
    int32_t r = new_node(&gr, pos, leaf.end, leaf.gr, leaf.hr, depth);
    parent = &nodes[leaf.node];
    parent->left = l;
    parent->right = r;
    parent->feature = leaf.feature;
    parent->bin = leaf.bin;
    parent->missing_left = leaf.missing_left;
    parent->gain = leaf.gain;
    parent->threshold = leaf.bin == b->n_bins[leaf.feature] - 1
                            ? INFINITY /* all values left, missing values right */
                            : b->thresholds[(int64_t)leaf.feature * LUMA_HGB_VALUE_BINS + leaf.bin];
    n_leaves++;
    Leaf kids[2];
    kids[0] = (Leaf){l, -1, leaf.start, pos, leaf.gl, leaf.hl, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    kids[1] = (Leaf){r, -1, pos, leaf.end, leaf.gr, leaf.hr, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int split[2];
    for (int c = 0; c < 2; c++)
      split[c] = n_leaves < p->max_leaf_nodes && (int64_t)depth < p->max_depth &&
                 kids[c].end - kids[c].start >= 2 * p->min_samples_leaf;
    if (split[0] || split[1]) {
      /* the smaller child from its samples, the larger by subtraction in
       * the parent's slot */
      int small = (kids[0].end - kids[0].start) < (kids[1].end - kids[1].start) ? 0 : 1;
      kids[small].slot = gr.free_slots[--gr.n_free];
      kids[1 - small].slot = leaf.slot;
      Bin *hs = slot_hist(&gr, kids[small].slot), *hl = slot_hist(&gr, leaf.slot);
      build_hist(&gr, kids[small].start, kids[small].end, hs);
      for (int64_t k = 0; k < b->d * SLOT_BINS; k++) {
        hl[k].g -= hs[k].g;
        hl[k].h -= hs[k].h;
        hl[k].count -= hs[k].count;
      }
      for (int c = 0; c < 2; c++) {
        if (split[c]) find_split(&gr, &kids[c]);
        if (split[c] && kids[c].found) push(&gr, kids[c]);
        else gr.free_slots[gr.n_free++] = kids[c].slot;
      }
    } else {
      gr.free_slots[gr.n_free++] = leaf.slot;
    }
  }
  *status = gr.status;
  if (gr.status != LUMA_LOOP_DONE) return -1;
  /* leaves: shrink the values and add them to the raw predictions */
  for (int64_t id = 0; id < gr.count; id++) {
    luma_HgbNode *nd = &nodes[id];
    if (nd->left >= 0) continue;
    nd->value *= p->shrinkage;
    nd->feature = -1;
    for (int64_t i = gr.range[2 * id]; i < gr.range[2 * id + 1]; i++)
      raw[(int64_t)gr.samples[i] * stride] += nd->value;
  }
  return gr.count;
}

/* ---------------------------------------------------------- prediction */

typedef struct PredictJob {
  const luma_HgbNode *nodes;
  const luma_Mat *x;
  double *out;
  int64_t stride;
} PredictJob;

static void predict_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  PredictJob *job = ctx;
  const luma_HgbNode *nodes = job->nodes;
  for (int64_t i = begin; i < end; i++) {
    int32_t c = 0;
    while (nodes[c].left >= 0) {
      double v = LUMA_AT(job->x, i, nodes[c].feature);
      int left = isnan(v) ? nodes[c].missing_left : v <= nodes[c].threshold;
      c = left ? nodes[c].left : nodes[c].right;
    }
    job->out[i * job->stride] += nodes[c].value;
  }
}

luma_LoopStatus luma_hgb_predict(luma_Threads *t, const luma_HgbNode *nodes, const luma_Mat *x,
                                 double *out, int64_t stride) {
  PredictJob job = {nodes, x, out, stride};
  luma_Loop loop = {x->rows, 4096, 32, 0, predict_chunk, &job};
  return luma_parallel_for(t, &loop);
}
