/*
 * dsep.h - d-separation in a DAG by Bayes ball (no Lua).
 *
 * Shachter's Bayes ball as Koller and Friedman's "Reachable" (Probabilistic
 * Graphical Models, 2009, Alg. 3.1): mark Z and its ancestors, then walk
 * (node, direction) pairs from X; a trail arriving from a child passes a
 * node not in Z to its parents and children, one arriving from a parent
 * passes a node not in Z to its children and, if the node is in Z or has
 * a descendant in Z, back up to its parents.  X and Y are d-separated
 * given Z when no node of Y is reached.  O(nodes + edges) per query.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_PGM_DSEP_H
#define LUMA_ML_PGM_DSEP_H

#include <stdint.h>

/* The DAG in compressed form: node i's parents are pidx[pptr[i] ..
 * pptr[i+1]-1], its children cidx[cptr[i] .. cptr[i+1]-1] (0-based). */
typedef struct luma_PgmDag {
  int64_t n;
  const int64_t *pptr, *pidx, *cptr, *cidx;
} luma_PgmDag;

/* Marks: a byte per node, bit 0 X, bit 1 Y, bit 2 Z (the caller sets
 * them; this function uses bits 3-5 as scratch and clears them again).
 * stack: 2 n int64 scratch.  Returns 1 when X and Y are d-separated by Z. */
int luma_pgm_d_separated(const luma_PgmDag *g, uint8_t *mark, int64_t *stack);

#endif
