/*
 * sort.c - the radix argsort of sort.h.  A double's bits become an
 * unsigned key in the same order (negative values: every bit flipped;
 * others: the sign bit set); (key, index) pairs are then sorted 11 bits
 * per pass from the least significant digit, a stable counting sort each,
 * skipping the passes where all keys share the digit (the high bits of
 * data in a narrow range).  About six passes over n pairs, against the
 * log2 n passes of a comparison sort.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "tree/sort.h"

typedef struct KeyIndex {
  uint64_t key;
  int64_t index;
} KeyIndex;

size_t luma_argsort_work_bytes(int64_t n) { return 2 * (size_t)(n > 0 ? n : 1) * sizeof(KeyIndex); }

void luma_argsort_doubles(const double *v, int64_t n, int32_t *order, void *work) {
  KeyIndex *a = work, *b = a + n;
  for (int64_t i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, &v[i], sizeof u);
    a[i].key = (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
    a[i].index = i;
  }
  int64_t count[1 << 11];
  for (int shift = 0; shift < 64 && n > 1; shift += 11) {
    memset(count, 0, sizeof count);
    for (int64_t i = 0; i < n; i++) count[(a[i].key >> shift) & 2047]++;
    if (count[(a[0].key >> shift) & 2047] == n) continue;
    int64_t run = 0;
    for (int d = 0; d < 2048; d++) {
      int64_t c = count[d];
      count[d] = run;
      run += c;
    }
    for (int64_t i = 0; i < n; i++) b[count[(a[i].key >> shift) & 2047]++] = a[i];
    KeyIndex *t = a;
    a = b;
    b = t;
  }
  for (int64_t i = 0; i < n; i++) order[i] = (int32_t)a[i].index;
}
