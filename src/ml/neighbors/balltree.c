/*
 * balltree.c - the ball tree (Omohundro 1989; Uhlmann 1991), for any
 * metric: only the triangle inequality is used.
 *
 * Construction (as scikit-learn's): a node holding more than leaf_size
 * rows is split at its middle row along the axis of largest spread (the
 * lower half of the ordered rows to the left); rows that are all equal
 * stay in one leaf.  Each node keeps a centre (the mean of its rows) and a
 * radius (the largest distance from the centre to one of its rows), both
 * computed with the metric, so a callback metric is also called on
 * centres, which are not rows of the data.
 *
 * Search: a point x of a node with centre c and radius R satisfies
 * d(q, x) >= d(q, c) - R, so the node is skipped when that bound, less its
 * rounding slack, exceeds the current k-th distance.  Children are visited
 * nearer bound first.
 * SPDX-License-Identifier: MIT
 */
#include "neighbors/search.h"

int64_t luma_nn_ball_capacity(int64_t n, int64_t leaf_size) {
  /* A split halves a range of more than leaf_size rows, so every leaf
   * keeps at least floor((leaf_size + 1) / 2) of them. */
  int64_t min_leaf = (leaf_size + 1) / 2;
  if (min_leaf < 1) min_leaf = 1;
  int64_t leaves = n / min_leaf;
  return leaves >= 1 ? 2 * leaves - 1 : 1;
}

static int64_t add_node(luma_NnBallNode *nodes, int64_t *count, int64_t s, int64_t e) {
  nodes[*count] = (luma_NnBallNode){s, e, -1, -1};
  return (*count)++;
}

/* Whether rows perm[s..e) spread along some axis; sets the widest. */
static int widest_axis(const luma_Mat *x, const int64_t *perm, int64_t s, int64_t e,
                       int64_t *axis) {
  double spread = 0;
  int found = 0;
  for (int64_t k = 0; k < x->cols; k++) {
    double lo = LUMA_AT(x, perm[s], k), hi = lo;
    for (int64_t i = s + 1; i < e; i++) {
      double v = LUMA_AT(x, perm[i], k);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    if (hi - lo > spread) {
      spread = hi - lo;
      *axis = k;
      found = 1;
    }
  }
  return found;
}

int64_t luma_nn_ball_build(const luma_Mat *x, int64_t leaf_size, int64_t *perm,
                           luma_NnBallNode *nodes, void *keys_work, int64_t *depth) {
  int64_t n = x->rows, count = 0;
  luma_NnKey *keys = keys_work;
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  add_node(nodes, &count, 0, n);
  for (int64_t id = 0; id < count; id++) {
    int64_t s = nodes[id].start, e = nodes[id].end, axis = 0;
    if (e - s <= leaf_size || !widest_axis(x, perm, s, e, &axis)) continue;
    int64_t cnt = e - s, half = cnt / 2;
    for (int64_t i = 0; i < cnt; i++)
      keys[i] = (luma_NnKey){LUMA_AT(x, perm[s + i], axis), perm[s + i]};
    luma_nn_select_keys(keys, cnt, half);
    for (int64_t i = 0; i < cnt; i++) perm[s + i] = keys[i].i;
    int64_t left = add_node(nodes, &count, s, s + half);
    int64_t right = add_node(nodes, &count, s + half, e);
    nodes[id].left = left;
    nodes[id].right = right;
  }
  *depth = luma_nn_tree_depth(&nodes[0].left, &nodes[0].right, sizeof(luma_NnBallNode), count,
                              (int64_t *)keys_work);
  return count;
}

luma_NnStatus luma_nn_ball_bounds(luma_NnIndex *ix, const luma_NnMetric *m) {
  int64_t d = ix->d;
  for (int64_t id = 0; id < ix->n_nodes; id++) {
    const luma_NnBallNode *a = &ix->ball[id];
    double *c = ix->centroid + id * d;
    for (int64_t k = 0; k < d; k++) c[k] = 0;
    for (int64_t i = a->start; i < a->end; i++)
      for (int64_t k = 0; k < d; k++) c[k] += ix->data[i * d + k];
    double cnt = (double)(a->end - a->start);
    for (int64_t k = 0; k < d; k++) c[k] /= cnt;
    double radius = 0;
    for (int64_t i = a->start; i < a->end; i++) {
      double rd = luma_nn_rdist(m, c, ix->data + i * d, d);
      if (rd != rd) return LUMA_NN_METRIC_FAILED;
      double dist = luma_nn_to_dist(m, rd);
      radius = dist > radius ? dist : radius;
    }
    ix->radius[id] = radius;
  }
  return LUMA_NN_OK;
}

typedef struct Entry {
  int64_t node;
  double lb;
} Entry;

/* The node's lower bound on d(q, x), less its rounding slack; NaN when the
 * callback failed (r->failed is then set). */
static double node_bound(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         int64_t id, luma_NnResult *r, double slack) {
  double dq = luma_nn_to_dist(m, luma_nn_eval(m, q, ix->centroid + id * ix->d, ix->d, r));
  double radius = ix->radius[id];
  return dq - radius - slack * (dq + radius);
}

/* The k-th distance so far, widened by the slack (inf until k are found). */
static double limit(const luma_NnMetric *m, const luma_NnResult *r, double widen) {
  return luma_nn_to_dist(m, r->bound) * widen;
}

void luma_nn_ball_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                         luma_NnResult *r, luma_NnScratch *s) {
  int64_t d = ix->d;
  double slack = luma_nn_slack(d), widen = 1 + slack;
  Entry *stack = s->stack;
  int64_t top = 0;
  stack[top++] = (Entry){0, node_bound(ix, m, q, 0, r, slack)};
  while (top > 0 && !r->failed) {
    Entry e = stack[--top];
    if (e.lb > limit(m, r, widen)) continue;
    const luma_NnBallNode *a = &ix->ball[e.node];
    if (a->left < 0) {
      for (int64_t i = a->start; i < a->end; i++) {
        double rd = luma_nn_eval(m, q, ix->data + i * d, d, r);
        if (r->failed) return;
        luma_nn_offer(r, rd, ix->perm[i]);
      }
      continue;
    }
    Entry l = {a->left, node_bound(ix, m, q, a->left, r, slack)};
    Entry rr = {a->right, node_bound(ix, m, q, a->right, r, slack)};
    if (r->failed) return;
    Entry near = rr.lb < l.lb ? rr : l, far = rr.lb < l.lb ? l : rr;
    double lim = limit(m, r, widen);
    if (!(far.lb > lim)) stack[top++] = far;
    if (!(near.lb > lim)) stack[top++] = near;
  }
}
