/*
 * orchard.c - Orchard's algorithm (Orchard 1991; notes 000 §5.2.1 and the
 * rules of its §3), for any metric.
 *
 * Build: the distances between all pairs (shared with AESA, aesa.c) and,
 * for each point x_i, the list L_i of the other points by increasing
 * distance to x_i (ties by index): O(N^2) storage.
 *
 * Search (the notes' 1-NN walk, generalised to k neighbours and radii):
 * start from x_0 as the current centre c and walk down L_c.  Every point x
 * within the current k-th distance R of q satisfies d(c, x) <= d(q, c) + R
 * (triangle inequality), so the walk stops at the first list element
 * farther than that from c.  For k = 1, R = d(q, c) and the test is the
 * notes' bound check d(q, c) <= d(c, x_j) / 2, made strict so that a point
 * at exactly the same distance with a smaller index is still reached.
 * Each element not yet seen is evaluated; when it is closer to q than c
 * (by distance, then index), the walk jumps to its list, from the top.
 * The centre only ever gets strictly closer, so the walk ends.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "neighbors/search.h"

typedef struct ListJob {
  luma_NnIndex *ix;
  luma_NnSlots slots;
} ListJob;

static void sort_rows(void *ctx, int64_t k, int64_t b, int64_t e) {
  (void)k;
  ListJob *job = ctx;
  luma_NnIndex *ix = job->ix;
  int64_t n = ix->n;
  char *slot = luma_nn_slot_claim(&job->slots);
  luma_NnKey *keys = (luma_NnKey *)slot;
  for (int64_t i = b; i < e; i++) {
    int64_t c = 0;
    for (int64_t j = 0; j < n; j++)
      if (j != i) keys[c++] = (luma_NnKey){luma_nn_pair_at(ix, i, j), j};
    luma_nn_sort_keys(keys, c);
    int32_t *list = ix->lists + i * (n - 1);
    for (int64_t j = 0; j < c; j++) list[j] = (int32_t)keys[j].i;
  }
  luma_nn_slot_release(&job->slots, slot);
}

size_t luma_nn_orchard_work(int64_t n, int slots) {
  return luma_nn_slots_bytes(slots < 1 ? 1 : slots,
                             luma_nn_round16((size_t)(n > 0 ? n : 1) * sizeof(luma_NnKey)));
}

luma_NnStatus luma_nn_orchard_build(luma_Threads *t, luma_NnIndex *ix, void *work, int slots) {
  if (slots < 1) slots = 1;
  ListJob job;
  job.ix = ix;
  luma_nn_slots_init(&job.slots, work, slots,
                     luma_nn_round16((size_t)(ix->n > 0 ? ix->n : 1) * sizeof(luma_NnKey)));
  luma_Loop loop = {ix->n, 8, (uint64_t)ix->n * 20, 0, sort_rows, &job};
  return luma_nn_status(luma_parallel_for(t, &loop), 0);
}

void luma_nn_orchard_search(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                            luma_NnResult *r, luma_NnScratch *s) {
  int64_t n = ix->n, d = ix->d;
  unsigned char *seen = s->mark;
  double slack = luma_nn_slack(d), widen = 1 + slack;
  memset(seen, 0, (size_t)n);
  int64_t c = 0;
  double rdc = luma_nn_eval(m, q, ix->data, d, r);
  if (r->failed) return;
  double dqc = luma_nn_to_dist(m, rdc), dmax = dqc;
  seen[0] = 1;
  luma_nn_offer(r, rdc, 0);
  const int32_t *list = ix->lists + c * (n - 1);
  for (int64_t pos = 0; pos < n - 1;) {
    int64_t j = list[pos];
    double reach = (dqc + luma_nn_to_dist(m, r->bound)) * widen + slack * (dmax + ix->scale);
    if (luma_nn_pair_at(ix, c, j) > reach) break;
    pos++;
    if (seen[j]) continue;
    seen[j] = 1;
    double rd = luma_nn_eval(m, q, ix->data + j * d, d, r);
    if (r->failed) return;
    double dq = luma_nn_to_dist(m, rd);
    dmax = dq > dmax ? dq : dmax;
    luma_nn_offer(r, rd, j);
    if (luma_nn_before(rd, j, rdc, c)) {
      c = j;
      rdc = rd;
      dqc = dq;
      list = ix->lists + c * (n - 1);
      pos = 0;
    }
  }
}
