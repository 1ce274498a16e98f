/*
 * tree.c - growing CART trees (tree.h): criteria, the best and the random
 * splitter, depth-first and best-first growth.
 *
 * A node is a range [start, end) of the samples array.  Finding its split
 * gathers (value, sample) pairs of one feature at a time, sorts them and
 * scans the thresholds in order, moving one sample at a time from the
 * right child to the left one; the criterion is kept as running sums
 * (class weights, or weighted targets), so a threshold costs O(classes)
 * or O(outputs).  The chosen split then partitions the range in place.
 *
 * The formulas follow scikit-learn 1.2's _criterion.pyx, including its
 * "proxy" scores (a monotone transform of the impurity decrease that is
 * cheaper to evaluate) and its improvement
 *   w_t / w_root * (i_t - w_left / w_t * i_left - w_right / w_t * i_right),
 * which min_impurity_decrease (the notes' gain threshold, notes 000 §9.1.1
 * stopping rule 1) is compared with.  Notes 000 writes the split objective
 * with unweighted child costs but the gain with weighted ones (its
 * erratum list, "split objective"); the weighted form is used for every
 * criterion, which for the squared error is the same thing (SSE sums).
 * The notes' split test x <= t (vs. the node test x < t, erratum "split
 * <= vs test <") is x <= t throughout: left holds x <= threshold.
 * SPDX-License-Identifier: MIT
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/random.h"
#include "tree/sort.h"
#include "tree/tree.h"

#define EPS DBL_EPSILON

/* One gathered feature value and its sample. */
typedef struct Pair {
  double v;
  int32_t s, pad;
} Pair;

/* One gathered feature rank and its sample. */
typedef struct Key {
  uint32_t k;
  int32_t s;
} Key;

/* A node whose split is known: the range, where the split falls and its
 * improvement (frontier entries of best-first growth, stack entries of
 * depth-first growth). */
typedef struct Record {
  int64_t start, end, pos;
  int32_t node, depth, parent, is_left, is_leaf, pad;
  double improvement;
} Record;

typedef struct Split {
  int found;
  int32_t feature;
  double threshold, proxy, improvement;
  int64_t pos; /* start + samples going left, after partitioning */
} Split;

/* Everything one growth needs; pointers into the work area. */
typedef struct Grower {
  const luma_TreeParams *p;
  const luma_TreeData *data;
  luma_TreeNodes *out;
  luma_Rng rng;
  int64_t n, d, width, max_depth;
  double w_root;
  int32_t *samples; /* positively weighted samples, partitioned by node */
  Pair *pairs;      /* (value, sample) scratch: random splits, medians */
  Key *keys, *keys_tmp; /* the node's ranks of one feature, and radix scratch */
  double *sw;       /* effective sample weights */
  int32_t *features;
  double *total, *left, *right; /* width-long running sums */
  Record *records;
  /* absolute_error: Fenwick trees over the node's target ranks */
  double *fw_left, *fw_right, *fy_left, *fy_right;
  int32_t *rank;    /* rank of each sample's target within the node */
  double *sorted_y; /* the node's targets in ascending order */
  Pair *ypairs;
} Grower;

static size_t round16(size_t b) { return (b + 15) & ~(size_t)15; }

/* ------------------------------------------------------------ sorting */

static void pair_swap(Pair *a, int64_t i, int64_t j) {
  Pair t = a[i];
  a[i] = a[j];
  a[j] = t;
}

static void insertion_sort(Pair *a, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    Pair x = a[i];
    int64_t j = i;
    while (j > 0 && a[j - 1].v > x.v) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
  }
}

static void sift_down(Pair *a, int64_t start, int64_t end) {
  int64_t root = start;
  /* audit-loops: a sift down the heap: O(log n) steps */
  for (;;) {
    int64_t child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && a[child].v < a[child + 1].v) child++;
    if (!(a[root].v < a[child].v)) return;
    pair_swap(a, root, child);
    root = child;
  }
}

static void heap_sort(Pair *a, int64_t n) {
  for (int64_t start = (n - 2) / 2; start >= 0; start--) sift_down(a, start, n);
  for (int64_t end = n - 1; end > 0; end--) {
    pair_swap(a, 0, end);
    sift_down(a, 0, end);
  }
}

static double median3(const Pair *a, int64_t n) {
  double x = a[0].v, y = a[n / 2].v, z = a[n - 1].v;
  if (x < y) return y < z ? y : (x < z ? z : x);
  return x < z ? x : (y < z ? z : y);
}

/* Introsort with a three-way partition (Dijkstra), so runs of equal
 * values -- common in small nodes and discrete features -- cost one pass. */
static void intro_sort(Pair *a, int64_t n, int depth_limit) {
  while (n > 16) {
    if (depth_limit-- == 0) {
      heap_sort(a, n);
      return;
    }
    double pivot = median3(a, n);
    int64_t lt = 0, i = 0, gt = n;
    while (i < gt) {
      if (a[i].v < pivot) pair_swap(a, i++, lt++);
      else if (a[i].v > pivot) pair_swap(a, i, --gt);
      else i++;
    }
    /* recurse into the smaller side, loop on the larger */
    if (lt < n - gt) {
      intro_sort(a, lt, depth_limit);
      a += gt;
      n -= gt;
    } else {
      intro_sort(a + gt, n - gt, depth_limit);
      n = lt;
    }
  }
  insertion_sort(a, n);
}

static void sort_pairs(Pair *a, int64_t n) {
  int depth = 0;
  for (int64_t m = n; m > 1; m >>= 1) depth += 2;
  intro_sort(a, n, depth);
}

/* Sorts keys whose ranks lie in [lo, lo + range]: insertion sort for a
 * few, else an LSD radix sort whose digits are sized to the range and to
 * n (a binary feature takes one counting pass).  Returns a or tmp,
 * whichever holds the result. */
static Key *sort_keys(Key *a, Key *tmp, int64_t n, uint32_t lo, uint32_t range) {
  if (n <= 32) {
    for (int64_t i = 1; i < n; i++) {
      Key x = a[i];
      int64_t j = i;
      while (j > 0 && a[j - 1].k > x.k) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return a;
  }
  int bits = 32 - __builtin_clz(range), max_digit = 4;
  while (max_digit < 11 && ((int64_t)1 << (max_digit + 1)) <= n) max_digit++;
  int passes = (bits + max_digit - 1) / max_digit;
  int digit = (bits + passes - 1) / passes;
  uint32_t mask = (1u << digit) - 1;
  int64_t count[1 << 11];
  /* audit-loops: radix passes: at most 8 (32-bit keys, digits of 4 bits or more) */
  for (int pass = 0; pass < passes; pass++) {
    int shift = pass * digit;
    memset(count, 0, ((size_t)mask + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) count[((a[i].k - lo) >> shift) & mask]++;
    int64_t run = 0;
    for (uint32_t b = 0; b <= mask; b++) {
      int64_t c = count[b];
      count[b] = run;
      run += c;
    }
    for (int64_t i = 0; i < n; i++) tmp[count[((a[i].k - lo) >> shift) & mask]++] = a[i];
    Key *t = a;
    a = tmp;
    tmp = t;
  }
  return a;
}

size_t luma_tree_ranks_work_bytes(int64_t n) {
  return luma_argsort_work_bytes(n) + round16((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
}

void luma_tree_ranks(const double *xc, int64_t n, int64_t d, uint32_t *ranks, void *work) {
  int32_t *order = (int32_t *)((char *)work + luma_argsort_work_bytes(n));
  for (int64_t j = 0; j < d; j++) {
    const double *col = xc + j * n;
    luma_argsort_doubles(col, n, order, work);
    uint32_t r = 0;
    for (int64_t i = 0; i < n; i++) {
      if (i > 0 && col[order[i]] > col[order[i - 1]]) r++;
      ranks[j * n + order[i]] = r;
    }
  }
}

/* ------------------------------------------------------- classification */

static int is_classification(const luma_TreeParams *p) { return p->n_classes > 0; }

static double gini(const double *c, int64_t k, double w) {
  double sq = 0;
  for (int64_t j = 0; j < k; j++) sq += c[j] * c[j];
  return 1.0 - sq / (w * w);
}

static double entropy(const double *c, int64_t k, double w) {
  double h = 0;
  for (int64_t j = 0; j < k; j++)
    if (c[j] > 0) {
      double q = c[j] / w;
      h -= q * log2(q);
    }
  return h;
}

static double misclassification(const double *c, int64_t k, double w) {
  double best = 0;
  for (int64_t j = 0; j < k; j++)
    if (c[j] > best) best = c[j];
  return 1.0 - best / w;
}

static double class_impurity(luma_TreeCriterion crit, const double *c, int64_t k, double w) {
  switch (crit) {
  case LUMA_TREE_GINI: return gini(c, k, w);
  case LUMA_TREE_MISCLASSIFICATION: return misclassification(c, k, w);
  default: return entropy(c, k, w);
  }
}

/* Split information of C4.5 (Quinlan 1993): the entropy of the partition
 * itself, in bits. */
static double split_information(double wl, double wr) {
  double w = wl + wr, ql = wl / w, qr = wr / w;
  return -(ql * log2(ql) + qr * log2(qr));
}

/* ----------------------------------------------------------- regression */

/* Squared error of a node from its sums: sq/W - sum_k (s_k/W)^2, averaged
 * over the outputs (scikit-learn's MSE.node_impurity). */
static double mse_impurity(const double *s, double sq, int64_t m, double w) {
  double imp = sq / w;
  for (int64_t k = 0; k < m; k++) imp -= (s[k] / w) * (s[k] / w);
  return imp / (double)m;
}

/* The weighted median of (value, weight) pairs sorted by value, with
 * scikit-learn's rule (WeightedMedianCalculator): the first value at which
 * the running weight reaches half the total, or the midpoint of it and the
 * next one when the running weight equals half exactly. */
static double weighted_median(const Pair *a, int64_t n, const double *sw) {
  double total = 0;
  for (int64_t i = 0; i < n; i++) total += sw[a[i].s];
  double half = total / 2, run = 0;
  for (int64_t i = 0; i < n; i++) {
    run += sw[a[i].s];
    if (run == half && i + 1 < n) return (a[i].v + a[i + 1].v) / 2;
    if (run >= half) return a[i].v;
  }
  return n > 0 ? a[n - 1].v : 0;
}

/* ----------------------------------------------------- node statistics */

static double target(const Grower *g, int32_t s, int64_t k) {
  return g->data->y[(int64_t)s * g->p->n_outputs + k];
}

/* Sorts the range's targets (one output) into g->ypairs and returns the
 * sum of |y - median| w and the median. */
static double absolute_deviation(Grower *g, int64_t start, int64_t end, double *median) {
  int64_t n = end - start;
  for (int64_t i = 0; i < n; i++) {
    int32_t s = g->samples[start + i];
    g->ypairs[i].v = target(g, s, 0);
    g->ypairs[i].s = s;
  }
  sort_pairs(g->ypairs, n);
  double m = weighted_median(g->ypairs, n, g->sw), dev = 0;
  for (int64_t i = 0; i < n; i++) dev += g->sw[g->ypairs[i].s] * fabs(g->ypairs[i].v - m);
  *median = m;
  return dev;
}

/* Half Poisson deviance per unit weight: sum w y log(y / mean) / W (the
 * terms y - mean sum to zero), averaged over outputs; infinite when a mean
 * is not positive (scikit-learn's Poisson.poisson_loss). */
static double poisson_impurity(const Grower *g, int64_t start, int64_t end, const double *s,
                               double w) {
  int64_t m = g->p->n_outputs;
  double loss = 0;
  for (int64_t k = 0; k < m; k++) {
    double mean = s[k] / w;
    if (mean <= EPS) return INFINITY;
    for (int64_t i = start; i < end; i++) {
      int32_t smp = g->samples[i];
      double y = target(g, smp, k);
      if (y > 0) loss += g->sw[smp] * y * log(y / mean);
    }
  }
  return loss / (w * (double)m);
}

/* Weight, impurity and (when value is not NULL) the prediction of the
 * range; leaves g->total holding the sums. */
static double node_stats(Grower *g, int64_t start, int64_t end, double *weight, double *value) {
  const luma_TreeParams *p = g->p;
  int64_t width = g->width;
  double *tot = g->total, w = 0, sq = 0;
  memset(tot, 0, (size_t)width * sizeof(double));
  if (is_classification(p)) {
    for (int64_t i = start; i < end; i++) {
      int32_t s = g->samples[i];
      tot[g->data->codes[s]] += g->sw[s];
      w += g->sw[s];
    }
  } else {
    for (int64_t i = start; i < end; i++) {
      int32_t s = g->samples[i];
      double ws = g->sw[s];
      w += ws;
      for (int64_t k = 0; k < width; k++) {
        double y = target(g, s, k);
        tot[k] += ws * y;
        sq += ws * y * y;
      }
    }
  }
  *weight = w;
  double imp;
  switch (p->criterion) {
  case LUMA_TREE_SQUARED_ERROR:
  case LUMA_TREE_FRIEDMAN_MSE:
    imp = mse_impurity(tot, sq, width, w);
    break;
  case LUMA_TREE_POISSON:
    imp = poisson_impurity(g, start, end, tot, w);
    break;
  case LUMA_TREE_ABSOLUTE_ERROR: {
    double median;
    imp = absolute_deviation(g, start, end, &median) / w;
    if (value) value[0] = median;
    return imp;
  }
  default:
    imp = class_impurity(p->criterion, tot, width, w);
  }
  if (value) {
    if (is_classification(p))
      memcpy(value, tot, (size_t)width * sizeof(double));
    else
      for (int64_t k = 0; k < width; k++) value[k] = tot[k] / w;
  }
  return imp;
}

/* ------------------------------------------------------ scoring splits */

/* The proxy score of a split from the running sums (left in g->left,
 * right = total - left): larger is better. */
static double proxy(Grower *g, double wl, double wr, double node_imp) {
  const luma_TreeParams *p = g->p;
  int64_t m = g->width;
  double *l = g->left, *r = g->right, *t = g->total;
  for (int64_t k = 0; k < m; k++) r[k] = t[k] - l[k];
  switch (p->criterion) {
  case LUMA_TREE_SQUARED_ERROR: {
    double pl = 0, pr = 0;
    for (int64_t k = 0; k < m; k++) {
      pl += l[k] * l[k];
      pr += r[k] * r[k];
    }
    return pl / wl + pr / wr;
  }
  case LUMA_TREE_FRIEDMAN_MSE: {
    double sl = 0, sr = 0;
    for (int64_t k = 0; k < m; k++) {
      sl += l[k];
      sr += r[k];
    }
    double diff = wr * sl - wl * sr;
    return diff * diff / (wl * wr);
  }
  case LUMA_TREE_POISSON: {
    double pl = 0, pr = 0;
    for (int64_t k = 0; k < m; k++) {
      if (l[k] <= EPS || r[k] <= EPS) return -INFINITY;
      pl -= l[k] * log(l[k] / wl);
      pr -= r[k] * log(r[k] / wr);
    }
    return -pl - pr;
  }
  case LUMA_TREE_GAIN_RATIO: {
    double il = entropy(l, m, wl), ir = entropy(r, m, wr), w = wl + wr;
    return (node_imp - wl / w * il - wr / w * ir) / split_information(wl, wr);
  }
  default: {
    double il = class_impurity(p->criterion, l, m, wl);
    double ir = class_impurity(p->criterion, r, m, wr);
    return -wr * ir - wl * il;
  }
  }
}

/* The improvement of a partitioned split (scikit-learn's
 * impurity_improvement), from the children's impurities; the ratio
 * criteria divide the entropy decrease by H(Y) of the node (notes 000's
 * "gain ratio") or by the split information (C4.5). */
static double improvement(const Grower *g, double imp, double il, double ir, double wl,
                          double wr) {
  double w = wl + wr;
  double gain = imp - wr / w * ir - wl / w * il;
  double scaled = w / g->w_root * gain;
  if (g->p->criterion == LUMA_TREE_ENTROPY_RATIO) return imp > 0 ? scaled / imp : 0;
  if (g->p->criterion == LUMA_TREE_GAIN_RATIO) return scaled / split_information(wl, wr);
  return scaled;
}

/* Fenwick tree (1-based positions 1..n) over doubles. */
static void fen_add(double *f, int64_t n, int64_t i, double v) {
  for (; i <= n; i += i & -i) f[i] += v;
}

static double fen_sum(const double *f, int64_t i) {
  double s = 0;
  for (; i > 0; i -= i & -i) s += f[i];
  return s;
}

/* The smallest position whose prefix weight reaches `target` (n when none). */
static int64_t fen_search(const double *f, int64_t n, double target) {
  int64_t pos = 0, step = 1;
  while (step * 2 <= n) step *= 2;
  double run = 0;
  for (; step > 0; step >>= 1)
    if (pos + step <= n && run + f[pos + step] < target) {
      pos += step;
      run += f[pos];
    }
  return pos + 1 > n ? n : pos + 1;
}

/* sum |y - median| w of one side, from its two Fenwick trees (weights and
 * weighted targets by rank). */
static double fen_deviation(const Grower *g, const double *fw, const double *fy, int64_t n,
                            double wtot) {
  int64_t r = fen_search(fw, n, wtot / 2);
  double m = g->sorted_y[r - 1];
  double wle = fen_sum(fw, r), yle = fen_sum(fy, r);
  double yall = fen_sum(fy, n);
  return (m * wle - yle) + ((yall - yle) - m * (wtot - wle));
}

/* Prepares the node's target ranks for absolute_error: sorted_y holds the
 * node's targets ascending, rank[s] the 1-based position of sample s. */
static void prepare_ranks(Grower *g, int64_t start, int64_t end) {
  int64_t n = end - start;
  for (int64_t i = 0; i < n; i++) {
    int32_t s = g->samples[start + i];
    g->ypairs[i].v = target(g, s, 0);
    g->ypairs[i].s = s;
  }
  sort_pairs(g->ypairs, n);
  for (int64_t i = 0; i < n; i++) {
    g->sorted_y[i] = g->ypairs[i].v;
    g->rank[g->ypairs[i].s] = (int32_t)(i + 1);
  }
}

/* Adds sample s to the left sums (and, for absolute_error, moves it
 * between the Fenwick trees). */
static void move_left(Grower *g, int32_t s, int64_t n_node) {
  double ws = g->sw[s];
  if (is_classification(g->p)) {
    g->left[g->data->codes[s]] += ws;
  } else if (g->p->criterion == LUMA_TREE_ABSOLUTE_ERROR) {
    double y = target(g, s, 0);
    int64_t r = g->rank[s];
    fen_add(g->fw_left, n_node, r, ws);
    fen_add(g->fy_left, n_node, r, ws * y);
    fen_add(g->fw_right, n_node, r, -ws);
    fen_add(g->fy_right, n_node, r, -ws * y);
  } else {
    for (int64_t k = 0; k < g->width; k++) g->left[k] += ws * target(g, s, k);
  }
}

/* Resets the left side to empty before scanning a feature. */
static void reset_left(Grower *g, int64_t start, int64_t end) {
  memset(g->left, 0, (size_t)g->width * sizeof(double));
  if (g->p->criterion != LUMA_TREE_ABSOLUTE_ERROR) return;
  int64_t n = end - start;
  memset(g->fw_left, 0, (size_t)(n + 1) * sizeof(double));
  memset(g->fy_left, 0, (size_t)(n + 1) * sizeof(double));
  memset(g->fw_right, 0, (size_t)(n + 1) * sizeof(double));
  memset(g->fy_right, 0, (size_t)(n + 1) * sizeof(double));
  for (int64_t i = start; i < end; i++) {
    int32_t s = g->samples[i];
    fen_add(g->fw_right, n, g->rank[s], g->sw[s]);
    fen_add(g->fy_right, n, g->rank[s], g->sw[s] * target(g, s, 0));
  }
}

static double scan_proxy(Grower *g, double wl, double wr, double node_imp, int64_t n_node) {
  if (g->p->criterion == LUMA_TREE_ABSOLUTE_ERROR)
    return -(fen_deviation(g, g->fw_left, g->fy_left, n_node, wl) +
             fen_deviation(g, g->fw_right, g->fy_right, n_node, wr));
  return proxy(g, wl, wr, node_imp);
}

/* Whether a candidate beats the best so far: a larger score, or an equal
 * one on a lower feature (within one feature the first threshold wins). */
static int better(const Split *best, double score, int32_t feature) {
  if (!best->found) return score > -INFINITY;
  return score > best->proxy || (score == best->proxy && feature < best->feature);
}

/* Scans the sorted keys of one feature for its best threshold. */
static void scan_feature(Grower *g, const Key *a, int64_t start, int64_t end, int32_t f,
                         double node_w, double node_imp, Split *best) {
  const luma_TreeParams *p = g->p;
  const double *col = g->data->xc + (int64_t)f * g->n;
  int64_t n_node = end - start, msl = p->min_samples_leaf;
  reset_left(g, start, end);
  double wl = 0;
  for (int64_t i = 0; i + 1 < n_node; i++) {
    move_left(g, a[i].s, n_node);
    wl += g->sw[a[i].s];
    if (a[i + 1].k == a[i].k) continue; /* equal values stay together */
    int64_t nl = i + 1, nr = n_node - nl;
    if (nl < msl) continue;
    if (nr < msl) break;
    double wr = node_w - wl;
    if (wl < p->min_weight_leaf || wr < p->min_weight_leaf) continue;
    double score = scan_proxy(g, wl, wr, node_imp, n_node);
    if (better(best, score, f)) {
      best->found = 1;
      best->feature = f;
      best->proxy = score;
      /* halfway, unless rounding lands on the upper value (then the lower) */
      double lo = col[a[i].s], hi = col[a[i + 1].s];
      double t = lo / 2.0 + hi / 2.0;
      if (t == hi || isinf(t)) t = lo;
      best->threshold = t;
    }
  }
}

/* The random splitter's candidate on one feature (Geurts et al. 2006): a
 * uniform threshold between the node's extremes, scored directly. */
static void random_feature(Grower *g, int64_t start, int64_t end, int32_t f, double lo,
                           double hi, double node_w, double node_imp, Split *best) {
  const luma_TreeParams *p = g->p;
  const double *col = g->data->xc + (int64_t)f * g->n;
  double t = lo + luma_rng_uniform(&g->rng) * (hi - lo);
  if (t >= hi) t = lo;
  int64_t nl = 0, n_node = end - start;
  double wl = 0;
  memset(g->left, 0, (size_t)g->width * sizeof(double));
  int mae = p->criterion == LUMA_TREE_ABSOLUTE_ERROR;
  for (int64_t i = start; i < end; i++) {
    int32_t s = g->samples[i];
    if (col[s] <= t) {
      nl++;
      wl += g->sw[s];
      if (!mae) move_left(g, s, n_node);
    }
  }
  int64_t nr = n_node - nl;
  double wr = node_w - wl;
  if (nl < p->min_samples_leaf || nr < p->min_samples_leaf) return;
  if (wl < p->min_weight_leaf || wr < p->min_weight_leaf) return;
  double score;
  if (mae) {
    /* both sides' deviations from their medians, by sorting each side */
    int64_t k = 0;
    for (int64_t i = start; i < end; i++)
      if (col[g->samples[i]] <= t) g->pairs[k++] = (Pair){target(g, g->samples[i], 0), g->samples[i], 0};
    int64_t kl = k;
    for (int64_t i = start; i < end; i++)
      if (!(col[g->samples[i]] <= t))
        g->pairs[k++] = (Pair){target(g, g->samples[i], 0), g->samples[i], 0};
    sort_pairs(g->pairs, kl);
    sort_pairs(g->pairs + kl, k - kl);
    double dev = 0;
    double ml = weighted_median(g->pairs, kl, g->sw);
    double mr = weighted_median(g->pairs + kl, k - kl, g->sw);
    for (int64_t i = 0; i < kl; i++) dev += g->sw[g->pairs[i].s] * fabs(g->pairs[i].v - ml);
    for (int64_t i = kl; i < k; i++) dev += g->sw[g->pairs[i].s] * fabs(g->pairs[i].v - mr);
    score = -dev;
  } else {
    score = proxy(g, wl, wr, node_imp);
  }
  if (better(best, score, f)) {
    best->found = 1;
    best->feature = f;
    best->proxy = score;
    best->threshold = t;
  }
}

/* Moves the range's samples with x_f <= t to the front; returns the split
 * position. */
static int64_t partition(Grower *g, int64_t start, int64_t end, int32_t f, double t) {
  const double *col = g->data->xc + (int64_t)f * g->n;
  int64_t i = start, j = end;
  while (i < j) {
    if (col[g->samples[i]] <= t) {
      i++;
    } else {
      j--;
      int32_t tmp = g->samples[i];
      g->samples[i] = g->samples[j];
      g->samples[j] = tmp;
    }
  }
  return i;
}

/* Best split of a node (Fisher-Yates over the features, as scikit-learn:
 * up to max_features non-constant ones are scored; constant ones do not
 * count).  On success the range is partitioned and split->improvement is
 * set. */
static void find_split(Grower *g, int64_t start, int64_t end, double node_w, double node_imp,
                       Split *best) {
  const luma_TreeParams *p = g->p;
  int64_t d = g->d, n_node = end - start, visited = 0, remaining = d;
  best->found = 0;
  best->proxy = -INFINITY;
  if (p->criterion == LUMA_TREE_ABSOLUTE_ERROR && !p->random_splits)
    prepare_ranks(g, start, end);
  while (remaining > 0 && visited < p->max_features) {
    int64_t j = (int64_t)luma_rng_below(&g->rng, (uint64_t)remaining);
    int32_t f = g->features[j];
    g->features[j] = g->features[remaining - 1];
    g->features[remaining - 1] = f;
    remaining--;
    const double *col = g->data->xc + (int64_t)f * g->n;
    if (p->random_splits) {
      double lo = INFINITY, hi = -INFINITY;
      for (int64_t i = start; i < end; i++) {
        double v = col[g->samples[i]];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (!(hi > lo)) continue; /* constant here */
      visited++;
      random_feature(g, start, end, f, lo, hi, node_w, node_imp, best);
    } else {
      const uint32_t *rank = g->data->ranks + (int64_t)f * g->n;
      uint32_t lo = UINT32_MAX, hi = 0;
      for (int64_t i = 0; i < n_node; i++) {
        int32_t s = g->samples[start + i];
        uint32_t k = rank[s];
        g->keys[i] = (Key){k, s};
        if (k < lo) lo = k;
        if (k > hi) hi = k;
      }
      if (hi == lo) continue; /* constant here */
      visited++;
      const Key *sorted = sort_keys(g->keys, g->keys_tmp, n_node, lo, hi - lo);
      scan_feature(g, sorted, start, end, f, node_w, node_imp, best);
    }
  }
  if (!best->found) return;
  best->pos = partition(g, start, end, best->feature, best->threshold);
  double wl, wr;
  double il = node_stats(g, start, best->pos, &wl, NULL);
  double ir = node_stats(g, best->pos, end, &wr, NULL);
  best->improvement = improvement(g, node_imp, il, ir, wl, wr);
}

/* ------------------------------------------------------------- growth */

/* Creates the node of a range, decides whether it is a leaf and finds its
 * split (scikit-learn's stopping rules: depth, min_samples_split, twice
 * min_samples_leaf and min_weight_leaf, a pure node, no valid split, an
 * improvement below min_impurity_decrease). */
static void add_node(Grower *g, int64_t start, int64_t end, int32_t depth, int32_t parent,
                     int is_left, Record *rec) {
  const luma_TreeParams *p = g->p;
  luma_TreeNodes *o = g->out;
  int32_t id = (int32_t)o->count++;
  double w;
  double imp = node_stats(g, start, end, &w, o->value + (int64_t)id * g->width);
  int64_t n_node = end - start;
  int leaf = depth >= g->max_depth || n_node < p->min_samples_split ||
             n_node < 2 * p->min_samples_leaf || w < 2 * p->min_weight_leaf || imp <= EPS;
  Split s = {0};
  if (!leaf) {
    find_split(g, start, end, w, imp, &s);
    leaf = !s.found || s.improvement + EPS < p->min_impurity_decrease;
  }
  o->left[id] = o->right[id] = LUMA_TREE_LEAF;
  o->feature[id] = leaf ? LUMA_TREE_UNDEFINED : s.feature;
  o->threshold[id] = leaf ? LUMA_TREE_UNDEFINED : s.threshold;
  o->impurity[id] = imp;
  o->weighted_n[id] = w;
  o->n_samples[id] = n_node;
  if (parent >= 0) {
    if (is_left) o->left[parent] = id;
    else o->right[parent] = id;
  }
  if (depth > o->max_depth) o->max_depth = depth;
  *rec = (Record){start, end, leaf ? end : s.pos, id, depth, parent, is_left, leaf, 0,
                  leaf ? 0.0 : s.improvement};
}

static void grow_depth_first(Grower *g, int64_t n_samples) {
  /* the stack holds children waiting to be created: right pushed before
   * left, so nodes are numbered in preorder, left first */
  Record *stack = g->records;
  int64_t top = 0;
  stack[top++] = (Record){0, n_samples, 0, -1, 0, -1, 0, 0, 0, 0};
  while (top > 0) {
    Record r = stack[--top];
    Record made;
    add_node(g, r.start, r.end, r.depth, r.parent, r.is_left, &made);
    if (made.is_leaf) continue;
    stack[top++] = (Record){made.pos, made.end, 0, -1, made.depth + 1, made.node, 0, 0, 0, 0};
    stack[top++] = (Record){made.start, made.pos, 0, -1, made.depth + 1, made.node, 1, 0, 0, 0};
  }
}

/* Max-heap of frontier records: larger improvement first, then the lower
 * node id. */
static int above(const Record *a, const Record *b) {
  return a->improvement > b->improvement ||
         (a->improvement == b->improvement && a->node < b->node);
}

static void heap_push(Record *h, int64_t *n, Record r) {
  int64_t i = (*n)++;
  h[i] = r;
  while (i > 0) {
    int64_t up = (i - 1) / 2;
    if (!above(&h[i], &h[up])) break;
    Record t = h[i];
    h[i] = h[up];
    h[up] = t;
    i = up;
  }
}

static Record heap_pop(Record *h, int64_t *n) {
  Record top = h[0];
  h[0] = h[--(*n)];
  int64_t i = 0;
  /* audit-loops: a sift down the heap: O(log n) steps */
  for (;;) {
    int64_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < *n && above(&h[l], &h[m])) m = l;
    if (r < *n && above(&h[r], &h[m])) m = r;
    if (m == i) break;
    Record t = h[i];
    h[i] = h[m];
    h[m] = t;
    i = m;
  }
  return top;
}

static void grow_best_first(Grower *g, int64_t n_samples) {
  luma_TreeNodes *o = g->out;
  Record *heap = g->records;
  int64_t size = 0, splits_left = g->p->max_leaf_nodes - 1;
  Record r;
  add_node(g, 0, n_samples, 0, -1, 0, &r);
  heap_push(heap, &size, r);
  while (size > 0) {
    r = heap_pop(heap, &size);
    if (r.is_leaf || splits_left <= 0) {
      o->feature[r.node] = LUMA_TREE_UNDEFINED;
      o->threshold[r.node] = LUMA_TREE_UNDEFINED;
      continue;
    }
    splits_left--;
    Record left, right;
    add_node(g, r.start, r.pos, r.depth + 1, r.node, 1, &left);
    add_node(g, r.pos, r.end, r.depth + 1, r.node, 0, &right);
    heap_push(heap, &size, left);
    heap_push(heap, &size, right);
  }
}

int64_t luma_tree_width(const luma_TreeParams *p) {
  return is_classification(p) ? p->n_classes : p->n_outputs;
}

int64_t luma_tree_capacity(const luma_TreeParams *p, int64_t n) {
  int64_t leaves = n < 1 ? 1 : n;
  if (p->min_samples_leaf > 1 && n / p->min_samples_leaf < leaves)
    leaves = n / p->min_samples_leaf < 1 ? 1 : n / p->min_samples_leaf;
  if (p->max_leaf_nodes > 0 && p->max_leaf_nodes < leaves) leaves = p->max_leaf_nodes;
  if (p->max_depth < 62 && ((int64_t)1 << p->max_depth) < leaves)
    leaves = (int64_t)1 << p->max_depth;
  return 2 * leaves - 1;
}

size_t luma_tree_work_bytes(const luma_TreeParams *p, int64_t n, int64_t d) {
  size_t un = (size_t)(n > 0 ? n : 1), width = (size_t)luma_tree_width(p);
  size_t b = round16(un * sizeof(int32_t));               /* samples */
  b += round16(un * sizeof(Pair));                        /* pairs */
  b += 2 * round16(un * sizeof(Key));                     /* keys */
  b += round16(un * sizeof(double));                      /* sw */
  b += round16((size_t)(d > 0 ? d : 1) * sizeof(int32_t)); /* features */
  b += round16(3 * width * sizeof(double));               /* sums */
  b += round16((size_t)luma_tree_capacity(p, n) * sizeof(Record));
  if (p->criterion == LUMA_TREE_ABSOLUTE_ERROR) {
    b += 4 * round16((un + 1) * sizeof(double));
    b += round16(un * sizeof(int32_t)) + round16(un * sizeof(double)) + round16(un * sizeof(Pair));
  }
  return b;
}

static void *carve(char **cursor, size_t bytes) {
  void *p = *cursor;
  *cursor += round16(bytes);
  return p;
}

void luma_tree_bootstrap(uint64_t seed, int64_t n, int64_t n_draws, double *counts) {
  luma_Rng rng;
  luma_rng_seed(&rng, seed);
  memset(counts, 0, (size_t)n * sizeof(double));
  for (int64_t i = 0; i < n_draws; i++) counts[luma_rng_below(&rng, (uint64_t)n)] += 1;
}

int luma_tree_grow(const luma_TreeParams *p, const luma_TreeData *data, luma_TreeNodes *out,
                   void *work) {
  Grower g;
  memset(&g, 0, sizeof g);
  g.p = p;
  g.data = data;
  g.out = out;
  g.n = data->n;
  g.d = data->d;
  g.width = luma_tree_width(p);
  g.max_depth = p->max_depth;
  size_t un = (size_t)(g.n > 0 ? g.n : 1);
  char *cur = work;
  g.samples = carve(&cur, un * sizeof(int32_t));
  g.pairs = carve(&cur, un * sizeof(Pair));
  g.keys = carve(&cur, un * sizeof(Key));
  g.keys_tmp = carve(&cur, un * sizeof(Key));
  g.sw = carve(&cur, un * sizeof(double));
  g.features = carve(&cur, (size_t)(g.d > 0 ? g.d : 1) * sizeof(int32_t));
  g.total = carve(&cur, 3 * (size_t)g.width * sizeof(double));
  g.left = g.total + g.width;
  g.right = g.left + g.width;
  g.records = carve(&cur, (size_t)luma_tree_capacity(p, g.n) * sizeof(Record));
  if (p->criterion == LUMA_TREE_ABSOLUTE_ERROR) {
    g.fw_left = carve(&cur, (un + 1) * sizeof(double));
    g.fy_left = carve(&cur, (un + 1) * sizeof(double));
    g.fw_right = carve(&cur, (un + 1) * sizeof(double));
    g.fy_right = carve(&cur, (un + 1) * sizeof(double));
    g.rank = carve(&cur, un * sizeof(int32_t));
    g.sorted_y = carve(&cur, un * sizeof(double));
    g.ypairs = carve(&cur, un * sizeof(Pair));
  } else {
    g.ypairs = g.pairs; /* absolute deviations of a node (medians) only */
  }

  luma_rng_seed(&g.rng, p->seed);
  if (p->n_bootstrap > 0) {
    luma_tree_bootstrap(p->seed, g.n, p->n_bootstrap, g.sw);
    luma_rng_jump(&g.rng); /* the feature draws use another stream */
  } else {
    for (int64_t i = 0; i < g.n; i++) g.sw[i] = 1;
  }
  if (data->w)
    for (int64_t i = 0; i < g.n; i++) g.sw[i] *= data->w[i];
  int64_t m = 0;
  g.w_root = 0;
  for (int64_t i = 0; i < g.n; i++) {
    if (g.sw[i] != 0) g.samples[m++] = (int32_t)i;
    g.w_root += g.sw[i];
  }
  if (m == 0 || !(g.w_root > 0)) return -1;
  for (int64_t j = 0; j < g.d; j++) g.features[j] = (int32_t)j;

  out->count = 0;
  out->max_depth = 0;
  out->width = g.width;
  if (p->max_leaf_nodes > 0)
    grow_best_first(&g, m);
  else
    grow_depth_first(&g, m);
  return 0;
}

/* ---------------------------------------------------------- prediction */

typedef struct ApplyJob {
  const luma_TreeNode *nodes;
  const luma_Mat *x;
  int64_t *leaf;
  const double *value, *mask;
  int64_t width;
  int normalize;
  double scale;
  luma_Mat *out;
  double *hits;
} ApplyJob;

static int64_t find_leaf(const luma_TreeNode *nodes, const luma_Mat *x, int64_t i) {
  int32_t k = 0;
  while (nodes[k].left >= 0)
    k = LUMA_AT(x, i, nodes[k].feature) <= nodes[k].threshold ? nodes[k].left : nodes[k].right;
  return k;
}

static void apply_chunk(void *ctx, int64_t chunk, int64_t begin, int64_t end) {
  (void)chunk;
  ApplyJob *job = ctx;
  for (int64_t i = begin; i < end; i++) job->leaf[i] = find_leaf(job->nodes, job->x, i);
}

/* Rows per chunk: enough work per chunk to amortize the hand-off. */
#define APPLY_GRAIN 2048

luma_LoopStatus luma_tree_apply(luma_Threads *t, const luma_TreeNode *nodes, const luma_Mat *x,
                                int64_t *leaf) {
  ApplyJob job = {nodes, x, leaf, NULL, NULL, 0, 0, 0, NULL, NULL};
  luma_Loop loop = {x->rows, APPLY_GRAIN, 32, 0, apply_chunk, &job};
  return luma_parallel_for(t, &loop);
}

static void accumulate_chunk(void *ctx, int64_t chunk, int64_t begin, int64_t end) {
  (void)chunk;
  ApplyJob *job = ctx;
  for (int64_t i = begin; i < end; i++) {
    if (job->mask && job->mask[i] == 0) continue;
    const double *v = job->value + find_leaf(job->nodes, job->x, i) * job->width;
    double f = job->scale;
    if (job->normalize) {
      double s = 0;
      for (int64_t k = 0; k < job->width; k++) s += v[k];
      f = s > 0 ? f / s : 0;
    }
    for (int64_t k = 0; k < job->width; k++) LUMA_AT(job->out, i, k) += f * v[k];
    if (job->hits) job->hits[i] += 1;
  }
}

luma_LoopStatus luma_tree_accumulate(luma_Threads *t, const luma_TreeNode *nodes,
                                     const double *value, int64_t width, int normalize,
                                     double scale, const luma_Mat *x, const double *mask,
                                     luma_Mat *out, double *hits) {
  ApplyJob job = {nodes, x, NULL, value, mask, width, normalize, scale, out, hits};
  luma_Loop loop = {x->rows, APPLY_GRAIN, (uint64_t)(32 + width), 0, accumulate_chunk, &job};
  return luma_parallel_for(t, &loop);
}

void luma_tree_importances(const luma_TreeNodes *tree, int64_t d, double *out) {
  memset(out, 0, (size_t)d * sizeof(double));
  for (int64_t i = 0; i < tree->count; i++) {
    int32_t l = tree->left[i], r = tree->right[i];
    if (l < 0) continue;
    out[tree->feature[i]] += tree->weighted_n[i] * tree->impurity[i] -
                             tree->weighted_n[l] * tree->impurity[l] -
                             tree->weighted_n[r] * tree->impurity[r];
  }
  if (tree->count > 0 && tree->weighted_n[0] > 0)
    for (int64_t j = 0; j < d; j++) out[j] /= tree->weighted_n[0];
}

/* ------------------------------------------------------------- pruning */

size_t luma_tree_prune_work_bytes(int64_t count) {
  size_t c = (size_t)(count > 0 ? count : 1);
  return c * (2 * sizeof(double) + 3 * sizeof(int64_t) + 1);
}

/* scikit-learn's _cost_complexity_prune (sklearn/tree/_tree.pyx). */
int64_t luma_tree_prune(luma_Threads *t, const luma_TreeNodes *tree, double ccp_alpha,
                        double *alphas, double *impurities, unsigned char *keep,
                        unsigned char *leaf, void *work) {
  int64_t n = tree->count;
  luma_WorkBatch batch = {t, 8 * (uint64_t)n};
  double *r_node = work, *r_branch = r_node + n;
  int64_t *stack = (int64_t *)(r_branch + n), *n_leaves = stack + n, *parent = n_leaves + n;
  unsigned char *candidate = (unsigned char *)(parent + n);
  double w_root = tree->weighted_n[0];
  for (int64_t i = 0; i < n; i++) {
    r_node[i] = tree->weighted_n[i] * tree->impurity[i] / w_root;
    r_branch[i] = 0;
    n_leaves[i] = 0;
    parent[i] = -1;
    keep[i] = 1;
    leaf[i] = tree->left[i] < 0;
    candidate[i] = !leaf[i];
  }
  for (int64_t i = 0; i < n; i++)
    if (tree->left[i] >= 0) parent[tree->left[i]] = parent[tree->right[i]] = i;
  for (int64_t i = 0; i < n; i++) {
    if (!leaf[i]) continue;
    r_branch[i] = r_node[i];
    double r = r_node[i];
    /* a walk up to the root: a step per level (a degenerate tree has n) */
    if (luma_work_add(&batch, 4)) return -1;
    for (int64_t k = i; k != 0;) {
      if (luma_work_add(&batch, 4)) return -1;
      k = parent[k];
      r_branch[k] += r;
      n_leaves[k] += 1;
    }
  }
  int64_t count = 0;
  if (alphas) alphas[count] = 0;
  if (impurities) impurities[count] = r_branch[0];
  count++;
  while (candidate[0]) {
    /* the search for the weakest link, the subtree cut and the walk up */
    if (luma_work_add(&batch, 4 * (uint64_t)n)) return -1;
    double alpha = INFINITY;
    int64_t best = -1;
    for (int64_t i = 0; i < n; i++) {
      if (!candidate[i]) continue;
      double g = (r_node[i] - r_branch[i]) / (double)(n_leaves[i] - 1);
      if (g < alpha) {
        alpha = g;
        best = i;
      }
    }
    if (best < 0 || alpha > ccp_alpha) break;
    /* the branch below best leaves the subtree */
    int64_t top = 0;
    stack[top++] = best;
    while (top > 0) {
      int64_t k = stack[--top];
      if (!keep[k]) continue;
      candidate[k] = 0;
      leaf[k] = 0;
      keep[k] = 0;
      if (tree->left[k] >= 0) {
        stack[top++] = tree->left[k];
        stack[top++] = tree->right[k];
      }
    }
    keep[best] = 1;
    leaf[best] = 1;
    int64_t pruned = n_leaves[best] - 1;
    n_leaves[best] = 0;
    double diff = r_node[best] - r_branch[best];
    r_branch[best] = r_node[best];
    for (int64_t k = parent[best]; k >= 0; k = parent[k]) {
      n_leaves[k] -= pruned;
      r_branch[k] += diff;
    }
    if (alphas) alphas[count] = alpha;
    if (impurities) impurities[count] = r_branch[0];
    count++;
  }
  luma_work_flush(&batch);
  return count;
}

int64_t luma_tree_copy_pruned(const luma_TreeNodes *tree, const unsigned char *keep,
                              const unsigned char *leaf, luma_TreeNodes *out, int32_t *stack) {
  /* stack entries: original node, new parent, is_left (3 ints each) */
  int64_t top = 0, count = 0, width = tree->width;
  out->max_depth = 0;
  stack[0] = 0;
  stack[1] = -1;
  stack[2] = 0;
  top = 1;
  int32_t *depth = stack + 3 * tree->count; /* new node depths */
  while (top > 0) {
    top--;
    int32_t k = stack[3 * top], par = stack[3 * top + 1], is_left = stack[3 * top + 2];
    if (!keep[k]) continue;
    int32_t id = (int32_t)count++;
    int is_leaf = leaf[k];
    out->left[id] = out->right[id] = LUMA_TREE_LEAF;
    out->feature[id] = is_leaf ? LUMA_TREE_UNDEFINED : tree->feature[k];
    out->threshold[id] = is_leaf ? LUMA_TREE_UNDEFINED : tree->threshold[k];
    out->impurity[id] = tree->impurity[k];
    out->weighted_n[id] = tree->weighted_n[k];
    out->n_samples[id] = tree->n_samples[k];
    memcpy(out->value + (int64_t)id * width, tree->value + (int64_t)k * width,
           (size_t)width * sizeof(double));
    depth[id] = par >= 0 ? depth[par] + 1 : 0;
    if (depth[id] > out->max_depth) out->max_depth = depth[id];
    if (par >= 0) {
      if (is_left) out->left[par] = id;
      else out->right[par] = id;
    }
    if (!is_leaf) {
      int32_t *e = stack + 3 * top;
      e[0] = tree->right[k];
      e[1] = id;
      e[2] = 0;
      e[3] = tree->left[k];
      e[4] = id;
      e[5] = 1;
      top += 2;
    }
  }
  out->count = count;
  out->width = width;
  return count;
}
