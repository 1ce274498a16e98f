/*
 * maxflow.c - Boykov-Kolmogorov maximum flow (see maxflow.h).
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "pgm/maxflow.h"

/* parent[] values other than an arc */
#define TERMINAL (-1) /* a root: its parent is s or t */
#define ORPHAN (-2)   /* lost its tree arc; adoption decides */
#define NONE (-3)     /* a free node */

#define INF_DIST INT64_MAX

void luma_maxflow_build(luma_Maxflow *g, int64_t m, const int64_t *from, const int64_t *to,
                        const double *cap, const double *rev, int64_t *count) {
  const int64_t n = g->n;
  memset(count, 0, (size_t)(n + 1) * sizeof(int64_t));
  for (int64_t e = 0; e < m; e++) {
    if (from[e] == to[e]) continue; /* a self-loop never carries s-t flow */
    count[from[e] + 1]++;
    count[to[e] + 1]++;
  }
  for (int64_t i = 0; i < n; i++) count[i + 1] += count[i];
  memcpy(g->first, count, (size_t)(n + 1) * sizeof(int64_t));
  g->arcs = count[n];
  for (int64_t e = 0; e < m; e++) {
    const int64_t i = from[e], j = to[e];
    if (i == j) continue;
    const int64_t a = count[i]++, b = count[j]++;
    g->head[a] = j;
    g->head[b] = i;
    g->sister[a] = b;
    g->sister[b] = a;
    g->rcap[a] = cap[e];
    g->rcap[b] = rev ? rev[e] : 0;
  }
}

void luma_maxflow_terminals(luma_Maxflow *g, const double *cs, const double *ct) {
  double flow = 0;
  for (int64_t i = 0; i < g->n; i++) {
    flow += cs[i] < ct[i] ? cs[i] : ct[i];
    g->tcap[i] = cs[i] - ct[i];
  }
  g->flow = flow;
}

/* ------------------------------------------------------------ the queues */

typedef struct Search {
  luma_Maxflow *g;
  int64_t first_active, last_active; /* FIFO through g->next; -1: empty */
  int64_t orphan_head, orphans;      /* circular FIFO in g->orphans */
  int64_t time;
  luma_WorkBatch work;
} Search;

static void push_active(Search *s, int64_t i) {
  luma_Maxflow *g = s->g;
  if (g->next[i] != -1) return; /* already queued */
  g->next[i] = i;               /* the last one points at itself */
  if (s->last_active >= 0)
    g->next[s->last_active] = i;
  else
    s->first_active = i;
  s->last_active = i;
}

/* The next active node of a tree, or -1 (free nodes left in the queue are
 * dropped). */
static int64_t pop_active(Search *s) {
  luma_Maxflow *g = s->g;
  while (s->first_active >= 0) {
    const int64_t i = s->first_active;
    const int64_t nx = g->next[i];
    s->first_active = nx == i ? -1 : nx;
    if (s->first_active < 0) s->last_active = -1;
    g->next[i] = -1;
    if (g->parent[i] != NONE) return i;
  }
  return -1;
}

/* A node is queued only while its parent is ORPHAN, so the queue never
 * holds more than n. */
/* Charges work done; a stop is seen by the main loop (luma_work_status)
 * after the current augmentation and adoption, which must finish to leave
 * valid trees. */
static void charge(Search *s, uint64_t units) {
  if (luma_work_add(&s->work, units)) return;
}

static void make_orphan(Search *s, int64_t i) {
  luma_Maxflow *g = s->g;
  g->parent[i] = ORPHAN;
  int64_t slot = s->orphan_head + s->orphans++;
  if (slot >= g->n) slot -= g->n;
  g->orphans[slot] = i;
}

static int64_t pop_orphan(Search *s) {
  const int64_t o = s->g->orphans[s->orphan_head];
  if (++s->orphan_head == s->g->n) s->orphan_head = 0;
  s->orphans--;
  return o;
}

/* ---------------------------------------------------------- the three stages */

/* Growth from the active node p: the arc from the source tree into the
 * sink tree found, or -1 when p has no free or opposite neighbour left. */
static int64_t grow(Search *s, int64_t p) {
  luma_Maxflow *g = s->g;
  const int in_source = g->tree[p] == LUMA_MF_SOURCE;
  for (int64_t a = g->first[p]; a < g->first[p + 1]; a++) {
    const int64_t back = g->sister[a];
    /* the residual arc the tree would use: p -> q from s, q -> p to t */
    if (!(g->rcap[in_source ? a : back] > 0)) continue;
    const int64_t q = g->head[a];
    if (g->tree[q] == LUMA_MF_FREE) {
      g->tree[q] = g->tree[p];
      g->parent[q] = back; /* tree arcs point from child to parent */
      g->stamp[q] = g->stamp[p];
      g->dist[q] = g->dist[p] + 1;
      push_active(s, q);
    } else if (g->tree[q] != g->tree[p]) {
      return in_source ? a : back;
    }
  }
  return -1;
}

/* Augments the path through the arc `bridge` (source tree -> sink tree)
 * by its bottleneck; nodes whose tree arc saturates become orphans. */
static void augment(Search *s, int64_t bridge) {
  luma_Maxflow *g = s->g;
  const int64_t tail = g->head[g->sister[bridge]], headn = g->head[bridge];
  double f = g->rcap[bridge];
  int64_t steps = 1;
  int64_t i = tail;
  /* audit-loops: the walks below follow the path found, charged at the end */
  for (int64_t a; (a = g->parent[i]) != TERMINAL; i = g->head[a], steps++)
    if (g->rcap[g->sister[a]] < f) f = g->rcap[g->sister[a]];
  if (g->tcap[i] < f) f = g->tcap[i];
  i = headn;
  /* audit-loops: the path's sink half, charged at the end */
  for (int64_t a; (a = g->parent[i]) != TERMINAL; i = g->head[a], steps++)
    if (g->rcap[a] < f) f = g->rcap[a];
  if (-g->tcap[i] < f) f = -g->tcap[i];

  g->rcap[g->sister[bridge]] += f;
  g->rcap[bridge] -= f;
  /* source side: flow runs parent -> child, along sister[parent arc] */
  for (i = tail;;) { /* audit-loops: the same path again, charged at the end */
    const int64_t a = g->parent[i];
    if (a == TERMINAL) {
      g->tcap[i] -= f;
      if (g->tcap[i] == 0) make_orphan(s, i);
      break;
    }
    g->rcap[a] += f;
    g->rcap[g->sister[a]] -= f;
    const int64_t up = g->head[a];
    if (g->rcap[g->sister[a]] == 0) make_orphan(s, i);
    i = up;
  }
  /* sink side: flow runs child -> parent, along the parent arc */
  for (i = headn;;) { /* audit-loops: the same path again, charged at the end */
    const int64_t a = g->parent[i];
    if (a == TERMINAL) {
      g->tcap[i] += f;
      if (g->tcap[i] == 0) make_orphan(s, i);
      break;
    }
    g->rcap[g->sister[a]] += f;
    g->rcap[a] -= f;
    const int64_t up = g->head[a];
    if (g->rcap[a] == 0) make_orphan(s, i);
    i = up;
  }
  g->flow += f;
  charge(s, (uint64_t)(2 * steps));
}

/* The distance from q to its tree's terminal through parent arcs, or
 * INF_DIST when the path meets an orphan; the nodes passed get this
 * round's stamp and their distances. */
static int64_t origin_distance(Search *s, int64_t q) {
  luma_Maxflow *g = s->g;
  int64_t d = 0, j = q;
  for (;;) { /* audit-loops: a walk up a tree (at most n steps), charged after it */
    if (g->stamp[j] == s->time) {
      d += g->dist[j];
      break;
    }
    const int64_t a = g->parent[j];
    d++;
    if (a == TERMINAL) {
      g->stamp[j] = s->time;
      g->dist[j] = 1;
      break;
    }
    if (a == ORPHAN || a == NONE) return INF_DIST;
    j = g->head[a];
  }
  charge(s, (uint64_t)d);
  /* audit-loops: the same walk again, as far as it went */
  for (j = q; g->stamp[j] != s->time; j = g->head[g->parent[j]]) {
    g->stamp[j] = s->time;
    g->dist[j] = d--;
  }
  return g->stamp[q] == s->time ? g->dist[q] : INF_DIST;
}

/* Adoption of the orphan p: the nearest neighbour of its tree with a
 * residual arc towards p's terminal and a path to it becomes its parent;
 * without one, p is freed, its children become orphans and the neighbours
 * that could take p back become active. */
static void adopt(Search *s, int64_t p) {
  luma_Maxflow *g = s->g;
  const int in_source = g->tree[p] == LUMA_MF_SOURCE;
  int64_t best = NONE, best_dist = INF_DIST;
  charge(s, (uint64_t)(g->first[p + 1] - g->first[p] + 1));
  for (int64_t a = g->first[p]; a < g->first[p + 1]; a++) {
    /* the arc p -> q of the tree: q -> p carries s's flow, p -> q t's */
    if (!(g->rcap[in_source ? g->sister[a] : a] > 0)) continue;
    const int64_t q = g->head[a];
    if (g->tree[q] != g->tree[p] || g->parent[q] == NONE) continue;
    const int64_t d = origin_distance(s, q);
    if (d < best_dist) {
      best_dist = d;
      best = a;
    }
  }
  if (best != NONE) {
    g->parent[p] = best;
    g->stamp[p] = s->time;
    g->dist[p] = best_dist + 1;
    return;
  }
  for (int64_t a = g->first[p]; a < g->first[p + 1]; a++) {
    const int64_t q = g->head[a];
    if (g->tree[q] != g->tree[p]) continue;
    if (g->rcap[in_source ? g->sister[a] : a] > 0) push_active(s, q);
    const int64_t qa = g->parent[q];
    if (qa >= 0 && g->head[qa] == p) make_orphan(s, q);
  }
  g->tree[p] = LUMA_MF_FREE;
  g->parent[p] = NONE;
}

luma_LoopStatus luma_maxflow_solve(luma_Threads *t, luma_Maxflow *g, unsigned char *side) {
  const int64_t n = g->n;
  Search s = {g, -1, -1, 0, 0, 0, {t, 0}};
  for (int64_t i = 0; i < n; i++) {
    g->next[i] = -1;
    g->stamp[i] = 0;
    g->dist[i] = 1;
    if (g->tcap[i] > 0) {
      g->tree[i] = LUMA_MF_SOURCE;
      g->parent[i] = TERMINAL;
      push_active(&s, i);
    } else if (g->tcap[i] < 0) {
      g->tree[i] = LUMA_MF_SINK;
      g->parent[i] = TERMINAL;
      push_active(&s, i);
    } else {
      g->tree[i] = LUMA_MF_FREE;
      g->parent[i] = NONE;
    }
  }
  if (luma_work_add(&s.work, (uint64_t)n)) return luma_work_status(t);
  int64_t current = -1; /* the active node being grown, kept after an augmentation */
  for (;;) {
    int64_t p = current;
    if (p < 0 || g->parent[p] == NONE) {
      p = pop_active(&s);
      if (p < 0) break;
    }
    current = -1;
    if (luma_work_add(&s.work, (uint64_t)(g->first[p + 1] - g->first[p] + 1)))
      return luma_work_status(t);
    const int64_t bridge = grow(&s, p);
    if (bridge < 0) continue; /* p is exhausted: it stays out of the queue */
    current = p;
    s.time++;
    augment(&s, bridge);
    while (s.orphans > 0) adopt(&s, pop_orphan(&s));
    if (luma_work_status(t) != LUMA_LOOP_DONE) return luma_work_status(t);
  }
  luma_work_flush(&s.work);
  for (int64_t i = 0; i < n; i++) side[i] = g->tree[i] == LUMA_MF_SOURCE;
  return luma_work_status(t);
}
