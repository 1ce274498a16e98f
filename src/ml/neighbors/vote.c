/*
 * vote.c - what the neighbour models do with neighbour lists (see
 * neighbors.h): class votes, weighted means, inverse-distance weights, and
 * the k smallest entries of each row of a score matrix (kernel kNN).
 * SPDX-License-Identifier: MIT
 */
#include "neighbors/search.h"

void luma_nn_vote(const luma_NnLists *l, const int64_t *codes, luma_Mat *votes) {
  for (int64_t i = 0; i < l->m; i++) {
    for (int64_t c = 0; c < votes->cols; c++) LUMA_AT(votes, i, c) = 0;
    for (int64_t p = l->off[i]; p < l->off[i + 1]; p++)
      LUMA_AT(votes, i, codes[l->ind[p]]) += l->w ? l->w[p] : 1;
  }
}

void luma_nn_average(const luma_NnLists *l, const luma_Mat *y, luma_Mat *out) {
  for (int64_t i = 0; i < l->m; i++) {
    double total = 0;
    for (int64_t c = 0; c < out->cols; c++) LUMA_AT(out, i, c) = 0;
    for (int64_t p = l->off[i]; p < l->off[i + 1]; p++) {
      double w = l->w ? l->w[p] : 1;
      total += w;
      for (int64_t c = 0; c < out->cols; c++) LUMA_AT(out, i, c) += w * LUMA_AT(y, l->ind[p], c);
    }
    for (int64_t c = 0; c < out->cols; c++)
      LUMA_AT(out, i, c) = total != 0 ? LUMA_AT(out, i, c) / total : NAN;
  }
}

void luma_nn_inverse_distance(int64_t m, const int64_t *off, const double *dist, double *w) {
  for (int64_t i = 0; i < m; i++) {
    int zero = 0;
    for (int64_t p = off[i]; p < off[i + 1]; p++) zero |= dist[p] == 0;
    for (int64_t p = off[i]; p < off[i + 1]; p++)
      w[p] = zero ? (dist[p] == 0 ? 1 : 0) : 1 / dist[p];
  }
}

void luma_nn_select_rows(const luma_Mat *s, int64_t k, luma_Mat *vals, luma_Mat *cols,
                         void *scratch) {
  luma_NnResult r;
  for (int64_t i = 0; i < s->rows; i++) {
    luma_nn_result_init(&r, LUMA_NN_KNN, k, scratch, INFINITY, -1);
    for (int64_t j = 0; j < s->cols; j++) {
      double v = LUMA_AT(s, i, j);
      luma_nn_offer(&r, v == v ? v : INFINITY, j); /* NaN ranks with +inf, after it by index */
    }
    luma_nn_heap_sort(r.heap, r.size);
    for (int64_t j = 0; j < r.size; j++) {
      LUMA_AT(vals, i, j) = LUMA_AT(s, i, r.heap[j].id);
      LUMA_AT(cols, i, j) = (double)(r.heap[j].id + 1);
    }
  }
}
