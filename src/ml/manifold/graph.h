/*
 * graph.h - shortest paths on the neighbour graph (no Lua), for Isomap.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_GRAPH_H
#define LUMA_ML_GRAPH_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* All-pairs shortest path lengths on the undirected graph with an edge
 * i - nbr[i][a] of length len[i][a] for each of the k neighbours of each
 * of the n points (nbr 0-based, n x k row-major): Dijkstra from every
 * source with an indexed binary heap, sources as the chunks of a parallel
 * loop (each writes its row of out, n x n; unreachable: +inf).  work:
 * luma_graph_paths_work(n, k) int64s. */
int64_t luma_graph_paths_work(int64_t n, int64_t k);
luma_LoopStatus luma_graph_paths(luma_Threads *t, int64_t n, int64_t k, const int64_t *nbr,
                                 const double *len, luma_Mat *out, int64_t *work);

#endif
