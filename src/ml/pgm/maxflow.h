/*
 * maxflow.h - maximum flow / minimum s-t cut by the Boykov-Kolmogorov
 * algorithm (no Lua).
 *
 * Y. Boykov and V. Kolmogorov, "An experimental comparison of
 * min-cut/max-flow algorithms for energy minimization in vision", IEEE
 * PAMI 26(9), 2004.  Two search trees grow from the source s and the sink
 * t over non-saturated residual arcs; where they touch, the path s ..
 * t is augmented by its bottleneck; the nodes whose tree arc saturated
 * become orphans, which look for a new parent in their own tree (one whose
 * path still reaches the terminal: the nearest, by the distance labels
 * and time stamps of the paper, section 3.2.3) or are freed.  The search
 * ends when neither tree can grow; the source tree is then the set of
 * nodes reachable from s in the residual graph, the source side of a
 * minimum cut.
 *
 * The graph: n nodes, m edges i - j each with a capacity i -> j and a
 * capacity j -> i (an undirected edge has both), stored as 2m arcs in
 * compressed rows (arcs leaving node i are first[i] .. first[i+1]-1, arc
 * a and its reverse sister[a]), and per node the capacity from s and to
 * t.  A node with both keeps only their difference: min(cs, ct) is
 * pushed s -> i -> t at once (the paper's section 3.3 does the same).
 * Capacities are doubles; the algorithm subtracts a path's bottleneck
 * from the arc that set it, which leaves exactly 0, so saturation tests
 * are exact.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_MAXFLOW_H
#define LUMA_ML_MAXFLOW_H

#include <stdint.h>

#include "core/parallel.h"

typedef struct luma_Maxflow {
  int64_t n;        /* nodes */
  int64_t arcs;     /* 2 x the edges kept (self-loops are dropped) */
  int64_t *first;   /* n + 1 */
  int64_t *head;    /* arcs: the node an arc enters */
  int64_t *sister;  /* arcs: the reverse arc */
  double *rcap;     /* arcs: residual capacity */
  double *tcap;     /* n: residual terminal capacity, > 0 from s, < 0 to t */
  /* search state, n each */
  int64_t *parent;  /* the arc to the parent in the tree, or LUMA_MF_* below */
  int64_t *next;    /* link in the queue of active nodes; -1: not queued */
  int64_t *stamp;   /* when dist was last known right */
  int64_t *dist;    /* arcs to the terminal */
  int64_t *orphans; /* the orphan queue */
  unsigned char *tree; /* LUMA_MF_FREE, LUMA_MF_SOURCE or LUMA_MF_SINK */
  double flow;      /* the flow pushed so far */
} luma_Maxflow;

enum { LUMA_MF_FREE = 0, LUMA_MF_SOURCE = 1, LUMA_MF_SINK = 2 };

/* The arrays of a graph of n nodes and m edges are the caller's, sized as
 * above with arcs = 2m.  luma_maxflow_build fills first, head, sister and
 * rcap from the edge list (0-based from[e], to[e], capacities cap[e] for
 * from -> to and rev[e] for to -> from, rev NULL for 0; all >= 0 and
 * finite, checked by the caller; edges from a node to itself are
 * dropped) and sets g->arcs; count is n + 1 int64 scratch. */
void luma_maxflow_build(luma_Maxflow *g, int64_t m, const int64_t *from, const int64_t *to,
                        const double *cap, const double *rev, int64_t *count);

/* Sets the terminal capacities (cs[i] from s, ct[i] to t, >= 0 and
 * finite) and the flow to sum min(cs, ct). */
void luma_maxflow_terminals(luma_Maxflow *g, const double *cs, const double *ct);

/* Runs the search to the maximum flow (g->flow) over the graph made by
 * build and terminals; side[i] = 1 for the source side of the minimum
 * cut found, 0 for the sink side.  Work is charged to t's meter; a
 * stopped meter returns its status (the graph is then half done). */
luma_LoopStatus luma_maxflow_solve(luma_Threads *t, luma_Maxflow *g, unsigned char *side);

#endif
