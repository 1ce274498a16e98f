/*
 * kdtree.c - the KD-tree (Friedman, Bentley & Finkel 1977; notes 000
 * §5.2.2 and the construction and pruning rules of its §3).
 *
 * Construction.  A node holding more than leaf_size rows splits on the
 * axis along which its rows spread most (FBF 1977's choice of a "specified
 * dimension"; the notes leave the rule open).
 *   - "median" (the notes' rule): the rows are ordered by that coordinate
 *     (ties by row index) and the middle one -- the row closest to the
 *     median, the lower of the two middle rows for an even count -- becomes
 *     the node's own point with the split value v = its coordinate; the
 *     rows before it go left, the rows after it right.  With leaf_size = 1
 *     every node holds exactly one point and the tree has N nodes, as in
 *     the notes.  Depth is at most log2(N) + 1.
 *   - "sliding_midpoint" (Maneewongvatana & Mount 1999): v is the middle
 *     of the rows' extent on the axis; rows with coordinate < v go left,
 *     the others right; if no row lies below v, v slides down to the
 *     smallest coordinate and the rows at it go left.  No node point.
 * Rows whose coordinates are all equal stay in one leaf whatever its size.
 * The notes' partition L = {x < v}, R = {x >= v} cannot hold with ties at
 * v (equal coordinates may fall on both sides of the median row), so the
 * invariant kept is left <= v <= right, which is what pruning needs.
 *
 * Search.  Depth first, the child nearer the query first.  The notes prune
 * the far side when (v - q_k)^2 >= delta^2; here each node keeps the
 * bounding box of its rows, and a node is skipped when the reduced
 * distance from the query to its box exceeds the current k-th one.  The
 * box lies beyond the split plane, so this prunes at least what the
 * notes' test prunes.  The test is strict (with a rounding slack) instead
 * of >=, so that a point at exactly the k-th distance with a smaller index
 * is still found (the tie rule).
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "neighbors/search.h"

typedef luma_NnKey Key;

size_t luma_nn_tree_keys_bytes(int64_t n) { return (size_t)(n > 0 ? n : 1) * 2 * sizeof(Key); }

int64_t luma_nn_kd_capacity(int64_t n, int64_t leaf_size, luma_NnSplit split) {
  (void)leaf_size;
  /* median: each node holds at least one row of its own or in its leaf;
   * sliding midpoint: a binary tree with at most n non-empty leaves. */
  return split == LUMA_NN_SPLIT_MEDIAN ? (n > 0 ? n : 1) : (n > 0 ? 2 * n - 1 : 1);
}

static int key_less(const Key *a, const Key *b) { return a->v < b->v || (a->v == b->v && a->i < b->i); }

static void key_sift(Key *a, int64_t i, int64_t n) {
  Key x = a[i];
  /* audit-loops: a sift down the heap: O(log n) steps */
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && key_less(&a[c], &a[c + 1])) c++;
    if (!key_less(&x, &a[c])) break;
    a[i] = a[c];
    i = c;
  }
  a[i] = x;
}

void luma_nn_sort_keys(Key *a, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) key_sift(a, i, n);
  for (int64_t end = n - 1; end > 0; end--) {
    Key t = a[0];
    a[0] = a[end];
    a[end] = t;
    key_sift(a, 0, end);
  }
}

/* Quickselect with a median-of-three pivot, falling back to heapsort after
 * 2 log2(n) + 4 rounds so that no input makes it quadratic. */
void luma_nn_select_keys(Key *a, int64_t n, int64_t kth) {
  int64_t lo = 0, hi = n - 1;
  int rounds = 4;
  for (int64_t m = n; m > 1; m >>= 1) rounds += 2;
  while (hi > lo) {
    if (rounds-- == 0) {
      luma_nn_sort_keys(a + lo, hi - lo + 1);
      return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    if (key_less(&a[mid], &a[lo])) { Key t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
    if (key_less(&a[hi], &a[lo])) { Key t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
    if (key_less(&a[hi], &a[mid])) { Key t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
    Key pivot = a[mid];
    int64_t i = lo, j = hi;
    while (i <= j) {
      /* audit-loops: the partition scans stop at the pivot or its median-of-three guards */
      while (key_less(&a[i], &pivot)) i++;
      /* audit-loops: as above, from the right */
      while (key_less(&pivot, &a[j])) j--;
      if (i <= j) {
        Key t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (kth <= j)
      hi = j;
    else if (kth >= i)
      lo = i;
    else
      return;
  }
}

/* The axis of largest spread of rows perm[s..e) (the first on ties) and
 * its extent; spread 0 when all rows are equal. */
static int64_t widest_axis(const luma_Mat *x, const int64_t *perm, int64_t s, int64_t e,
                           double *lo_out, double *hi_out) {
  int64_t best = 0;
  double spread = -1;
  for (int64_t k = 0; k < x->cols; k++) {
    double lo = LUMA_AT(x, perm[s], k), hi = lo;
    for (int64_t i = s + 1; i < e; i++) {
      double v = LUMA_AT(x, perm[i], k);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    /* hi - lo may overflow to inf; inf still compares as the widest. */
    if (hi - lo > spread) {
      spread = hi - lo;
      best = k;
      *lo_out = lo;
      *hi_out = hi;
    }
  }
  return spread > 0 ? best : -1;
}

/* Moves rows with coordinate < v (or <= v) to the front; returns their
 * count. */
static int64_t partition_rows(const luma_Mat *x, int64_t *perm, int64_t s, int64_t e, int64_t axis,
                              double v, int inclusive) {
  int64_t i = s;
  for (int64_t j = s; j < e; j++) {
    double c = LUMA_AT(x, perm[j], axis);
    if (c < v || (inclusive && c == v)) {
      int64_t t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
      i++;
    }
  }
  return i - s;
}

static int64_t add_node(luma_NnKdNode *nodes, int64_t *count, int64_t s, int64_t e) {
  if (s == e) return -1;
  nodes[*count] = (luma_NnKdNode){s, e, s, -1, -1, 0, 0, 0};
  return (*count)++;
}

int64_t luma_nn_tree_depth(const int64_t *left, const int64_t *right, size_t stride,
                           int64_t count, int64_t *depth) {
  int64_t deepest = 1;
  depth[0] = 1;
  for (int64_t i = 0; i < count; i++) {
    int64_t l = *(const int64_t *)((const char *)left + (size_t)i * stride);
    int64_t r = *(const int64_t *)((const char *)right + (size_t)i * stride);
    if (l >= 0) depth[l] = depth[i] + 1;
    if (r >= 0) depth[r] = depth[i] + 1;
    if (depth[i] > deepest) deepest = depth[i];
  }
  return deepest;
}

int64_t luma_nn_kd_build(const luma_Mat *x, int64_t leaf_size, luma_NnSplit split,
                         int64_t *perm, luma_NnKdNode *nodes, void *keys_work, int64_t *depth) {
  int64_t n = x->rows, count = 0;
  Key *keys = keys_work;
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  add_node(nodes, &count, 0, n);
  /* Nodes are processed in creation order; children are appended. */
  for (int64_t id = 0; id < count; id++) {
    luma_NnKdNode *a = &nodes[id];
    int64_t s = a->start, e = a->end;
    if (e - s <= leaf_size) continue;
    double lo = 0, hi = 0;
    int64_t axis = widest_axis(x, perm, s, e, &lo, &hi);
    if (axis < 0) continue;
    int64_t cut, own;
    double value;
    if (split == LUMA_NN_SPLIT_MEDIAN) {
      int64_t cnt = e - s, rank = (cnt - 1) / 2;
      for (int64_t i = 0; i < cnt; i++) keys[i] = (Key){LUMA_AT(x, perm[s + i], axis), perm[s + i]};
      luma_nn_select_keys(keys, cnt, rank);
      for (int64_t i = 0; i < cnt; i++) perm[s + i] = keys[i].i;
      cut = s + rank;
      own = 1;
      value = keys[rank].v;
    } else {
      /* lo/2 + hi/2 cannot overflow where (lo + hi)/2 can */
      value = lo / 2 + hi / 2;
      int64_t nl = partition_rows(x, perm, s, e, axis, value, 0);
      if (nl == 0) {
        value = lo;
        nl = partition_rows(x, perm, s, e, axis, value, 1);
      }
      cut = s + nl;
      own = 0;
    }
    int64_t left = add_node(nodes, &count, s, cut);
    int64_t right = add_node(nodes, &count, cut + own, e);
    a = &nodes[id];
    a->cut = cut;
    a->own = (int32_t)own;
    a->axis = (int32_t)axis;
    a->value = value;
    a->left = left;
    a->right = right;
  }
  *depth = luma_nn_tree_depth(&nodes[0].left, &nodes[0].right, sizeof(luma_NnKdNode), count,
                              (int64_t *)keys_work);
  return count;
}

void luma_nn_kd_boxes(luma_NnIndex *ix) {
  int64_t d = ix->d;
  for (int64_t id = ix->n_nodes - 1; id >= 0; id--) {
    const luma_NnKdNode *a = &ix->kd[id];
    double *lo = ix->lo + id * d, *hi = ix->hi + id * d;
    for (int64_t k = 0; k < d; k++) {
      lo[k] = INFINITY;
      hi[k] = -INFINITY;
    }
    int64_t rows[2] = {a->start, a->end};
    if (a->left >= 0 || a->right >= 0) {
      rows[0] = a->cut;
      rows[1] = a->cut + a->own;
      int64_t kids[2] = {a->left, a->right};
      for (int c = 0; c < 2; c++) {
        if (kids[c] < 0) continue;
        const double *clo = ix->lo + kids[c] * d, *chi = ix->hi + kids[c] * d;
        for (int64_t k = 0; k < d; k++) {
          lo[k] = clo[k] < lo[k] ? clo[k] : lo[k];
          hi[k] = chi[k] > hi[k] ? chi[k] : hi[k];
        }
      }
    }
    for (int64_t i = rows[0]; i < rows[1]; i++) {
      const double *row = ix->data + i * d;
      for (int64_t k = 0; k < d; k++) {
        lo[k] = row[k] < lo[k] ? row[k] : lo[k];
        hi[k] = row[k] > hi[k] ? row[k] : hi[k];
      }
    }
  }
}

/* Reduced distance from q to the box of a node (0 inside it). */
static double box_rdist(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                        int64_t id) {
  int64_t d = ix->d;
  const double *lo = ix->lo + id * d, *hi = ix->hi + id * d;
  double s = 0;
  for (int64_t k = 0; k < d; k++) {
    double g = q[k] < lo[k] ? lo[k] - q[k] : q[k] > hi[k] ? q[k] - hi[k] : 0;
    switch (m->kind) {
    case LUMA_NN_EUCLIDEAN: s += g * g; break;
    case LUMA_NN_MANHATTAN: s += g; break;
    case LUMA_NN_CHEBYSHEV: s = g > s ? g : s; break;
    case LUMA_NN_MINKOWSKI: s += pow(g, m->p); break;
    default: return 0;
    }
  }
  return s;
}

typedef struct Entry {
  int64_t node;
  double lb;
} Entry;

void luma_nn_kd_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                       luma_NnResult *r, luma_NnScratch *s) {
  int64_t d = ix->d;
  double widen = 1 + luma_nn_slack(d);
  Entry *stack = s->stack;
  int64_t top = 0;
  stack[top++] = (Entry){0, box_rdist(ix, m, q, 0)};
  while (top > 0) {
    Entry e = stack[--top];
    if (e.lb > r->bound * widen) continue;
    const luma_NnKdNode *a = &ix->kd[e.node];
    if (a->left < 0 && a->right < 0) {
      for (int64_t i = a->start; i < a->end; i++) {
        double rd = luma_nn_eval(m, q, ix->data + i * d, d, r);
        luma_nn_offer(r, rd, ix->perm[i]);
      }
      continue;
    }
    if (a->own) luma_nn_offer(r, luma_nn_eval(m, q, ix->data + a->cut * d, d, r), ix->perm[a->cut]);
    double lbl = a->left >= 0 ? box_rdist(ix, m, q, a->left) : INFINITY;
    double lbr = a->right >= 0 ? box_rdist(ix, m, q, a->right) : INFINITY;
    /* the nearer child is searched first: pushed last */
    int left_first = lbl < lbr || (lbl == lbr && q[a->axis] < a->value);
    Entry near = left_first ? (Entry){a->left, lbl} : (Entry){a->right, lbr};
    Entry far = left_first ? (Entry){a->right, lbr} : (Entry){a->left, lbl};
    if (far.node >= 0 && !(far.lb > r->bound * widen)) stack[top++] = far;
    if (near.node >= 0 && !(near.lb > r->bound * widen)) stack[top++] = near;
  }
}
