/*
 * dsep.c - d-separation by Bayes ball (see dsep.h).
 * SPDX-License-Identifier: MIT
 */
#include "pgm/dsep.h"

enum { IN_X = 1, IN_Y = 2, IN_Z = 4, ANC = 8, UP = 16, DOWN = 32 };

int luma_pgm_d_separated(const luma_PgmDag *g, uint8_t *mark, int64_t *stack) {
  int64_t top = 0;
  /* Z and its ancestors */
  for (int64_t i = 0; i < g->n; i++)
    if (mark[i] & IN_Z) {
      mark[i] |= ANC;
      stack[top++] = i;
    }
  while (top > 0) {
    const int64_t i = stack[--top];
    for (int64_t e = g->pptr[i]; e < g->pptr[i + 1]; e++) {
      const int64_t p = g->pidx[e];
      if (!(mark[p] & ANC)) {
        mark[p] |= ANC;
        stack[top++] = p;
      }
    }
  }
  /* the walk: an entry is node * 2 + (1: arrived from a child, going up) */
  for (int64_t i = 0; i < g->n; i++)
    if (mark[i] & IN_X) {
      mark[i] |= UP;
      stack[top++] = i * 2 + 1;
    }
  int separated = 1;
  while (top > 0 && separated) {
    const int64_t entry = stack[--top];
    const int64_t i = entry / 2;
    const int up = (int)(entry % 2);
    const int in_z = (mark[i] & IN_Z) != 0;
    if (!in_z && (mark[i] & IN_Y)) separated = 0;
    if (!in_z && up) {
      for (int64_t e = g->pptr[i]; e < g->pptr[i + 1]; e++) {
        const int64_t p = g->pidx[e];
        if (!(mark[p] & UP)) { mark[p] |= UP; stack[top++] = p * 2 + 1; }
      }
    }
    if (!in_z) {
      for (int64_t e = g->cptr[i]; e < g->cptr[i + 1]; e++) {
        const int64_t c = g->cidx[e];
        if (!(mark[c] & DOWN)) { mark[c] |= DOWN; stack[top++] = c * 2; }
      }
    }
    if (!up && (mark[i] & ANC)) {
      for (int64_t e = g->pptr[i]; e < g->pptr[i + 1]; e++) {
        const int64_t p = g->pidx[e];
        if (!(mark[p] & UP)) { mark[p] |= UP; stack[top++] = p * 2 + 1; }
      }
    }
  }
  for (int64_t i = 0; i < g->n; i++) mark[i] &= (uint8_t)(IN_X | IN_Y | IN_Z);
  return separated;
}
