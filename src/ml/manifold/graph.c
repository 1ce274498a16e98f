/*
 * graph.c - shortest paths on the neighbour graph (see graph.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "manifold/graph.h"

/* Sources per chunk: each is a Dijkstra run of O((n + e) log n). */
#define GRAIN 8

typedef struct Job {
  int64_t n;
  const int64_t *start, *adj; /* CSR of the undirected graph */
  const double *w;            /* edge lengths, as adj */
  luma_Mat *out;
  int64_t *heaps; /* per chunk: heap (n) and position (n) */
} Job;

/* The indexed min-heap of one Dijkstra run over the distances row d. */
typedef struct Heap {
  int64_t *node, *pos; /* pos[v] = index in node, -1 outside */
  int64_t size;
  const double *d;
  int64_t stride;
} Heap;

static double key(const Heap *h, int64_t v) { return h->d[v * h->stride]; }

static void swap_at(Heap *h, int64_t a, int64_t b) {
  int64_t t = h->node[a];
  h->node[a] = h->node[b];
  h->node[b] = t;
  h->pos[h->node[a]] = a;
  h->pos[h->node[b]] = b;
}

static void up(Heap *h, int64_t at) {
  while (at > 0) {
    int64_t parent = (at - 1) / 2;
    if (key(h, h->node[parent]) <= key(h, h->node[at])) return;
    swap_at(h, at, parent);
    at = parent;
  }
}

static void down(Heap *h, int64_t at) {
  /* audit-loops: a sift down the heap: O(log n) steps */
  for (;;) {
    int64_t l = 2 * at + 1, r = l + 1, top = at;
    if (l < h->size && key(h, h->node[l]) < key(h, h->node[top])) top = l;
    if (r < h->size && key(h, h->node[r]) < key(h, h->node[top])) top = r;
    if (top == at) return;
    swap_at(h, at, top);
    at = top;
  }
}

static void paths_chunk(void *ctx, int64_t chunk, int64_t s0, int64_t s1) {
  const Job *job = ctx;
  const int64_t n = job->n;
  Heap h = {job->heaps + chunk * 2 * n, job->heaps + chunk * 2 * n + n, 0, NULL, job->out->cs};
  for (int64_t s = s0; s < s1; s++) {
    double *d = &LUMA_AT(job->out, s, 0);
    h.d = d;
    for (int64_t v = 0; v < n; v++) {
      d[v * h.stride] = INFINITY;
      h.pos[v] = -1;
    }
    h.size = 0;
    d[s * h.stride] = 0;
    h.node[0] = s;
    h.pos[s] = 0;
    h.size = 1;
    while (h.size > 0) {
      const int64_t u = h.node[0];
      swap_at(&h, 0, h.size - 1);
      h.pos[u] = -2; /* settled */
      h.size--;
      if (h.size > 0) down(&h, 0);
      const double du = d[u * h.stride];
      for (int64_t e = job->start[u]; e < job->start[u + 1]; e++) {
        const int64_t v = job->adj[e];
        if (h.pos[v] == -2) continue;
        const double alt = du + job->w[e];
        if (alt < d[v * h.stride]) {
          d[v * h.stride] = alt;
          if (h.pos[v] == -1) {
            h.node[h.size] = v;
            h.pos[v] = h.size++;
          }
          up(&h, h.pos[v]);
        }
      }
    }
  }
}

int64_t luma_graph_paths_work(int64_t n, int64_t k) {
  const int64_t chunks = n > 0 ? (n + GRAIN - 1) / GRAIN : 0;
  return (n + 1) + 2 * n * k + chunks * 2 * n + 2 * n * k; /* start, adj, heaps, lengths */
}

luma_LoopStatus luma_graph_paths(luma_Threads *t, int64_t n, int64_t k, const int64_t *nbr,
                                 const double *len, luma_Mat *out, int64_t *work) {
  const int64_t chunks = n > 0 ? (n + GRAIN - 1) / GRAIN : 0;
  int64_t *start = work, *adj = work + (n + 1), *heaps = adj + 2 * n * k;
  double *w = (double *)(heaps + chunks * 2 * n);
  for (int64_t i = 0; i <= n; i++) start[i] = 0;
  for (int64_t e = 0; e < n * k; e++) {
    start[e / k + 1]++;
    start[nbr[e] + 1]++;
  }
  for (int64_t i = 0; i < n; i++) start[i + 1] += start[i];
  int64_t *fill = heaps; /* borrowed before the heaps are used */
  memcpy(fill, start, (size_t)n * sizeof(int64_t));
  for (int64_t e = 0; e < n * k; e++) {
    const int64_t i = e / k, j = nbr[e];
    adj[fill[i]] = j;
    w[fill[i]++] = len[e];
    adj[fill[j]] = i;
    w[fill[j]++] = len[e];
  }
  Job job = {n, start, adj, w, out, heaps};
  luma_Loop loop = {n, GRAIN, (uint64_t)(8 * (n + 2 * k * n / (n > 0 ? n : 1))), 0, paths_chunk, &job};
  return luma_parallel_for(t, &loop);
}
