/*
 * sparse.c - CSR kernels (sparse.h).  No Lua; memory comes from the
 * caller, work goes to the meter.
 *
 * Serial loops charge the meter a row at a time through a luma_WorkBatch
 * (one unit per entry or element touched, plus one per row), so a
 * sandboxed host's limits and luma_interrupt stop them within about
 * LUMA_WORK_CHUNK units.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numtext.h"
#include "sparse/sparse.h"
#include "stats/random.h"

/* ------------------------------------------------------------ checks */

luma_SpFault luma_sp_validate(luma_Threads *t, const luma_Sparse *a, int64_t *where) {
  luma_WorkBatch w = {t, 0};
  *where = 0;
  if (a->indptr[0] != 0) return LUMA_SP_BAD_START;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    /* before reading indices[start..end): both ends must lie in [0, nnz] */
    if (end < start || end > a->nnz) {
      *where = i;
      return end < start ? LUMA_SP_NOT_MONOTONE : LUMA_SP_BAD_END;
    }
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return LUMA_SP_OK;
    for (int64_t k = start; k < end; k++) {
      int64_t c = a->indices[k];
      if (c < 0 || c >= a->cols) {
        *where = k;
        return LUMA_SP_OUT_OF_RANGE;
      }
      if (k > start && c <= a->indices[k - 1]) {
        *where = k;
        return LUMA_SP_UNSORTED;
      }
    }
  }
  luma_work_flush(&w);
  if (a->indptr[a->rows] != a->nnz) {
    *where = a->rows;
    return LUMA_SP_BAD_END;
  }
  return LUMA_SP_OK;
}

/* ------------------------------------------------------- conversions */

void luma_sp_transpose(luma_Threads *t, const luma_Sparse *a, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t *ptr = out->indptr; /* a->cols + 1 */
  if (luma_work_add(&w, (uint64_t)a->cols + 1)) return;
  memset(ptr, 0, ((size_t)a->cols + 1) * sizeof *ptr);
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) ptr[a->indices[k] + 1]++;
  }
  for (int64_t c = 0; c < a->cols; c++) ptr[c + 1] += ptr[c];
  /* scatter with ptr[c] as row c's cursor; afterwards ptr[c] is where row
   * c + 1 starts, so one shift restores the row starts */
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, 2 * (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) {
      int64_t dst = ptr[a->indices[k]]++;
      out->indices[dst] = i;
      out->data[dst] = a->data[k];
    }
  }
  memmove(ptr + 1, ptr, (size_t)a->cols * sizeof *ptr);
  ptr[0] = 0;
  out->nnz = a->nnz;
  luma_work_flush(&w);
}

/* The counting sort of COO triplets into canonical order (duplicates
 * still there); v may be NULL (values zero). */
static int coo_sort(luma_Threads *t, int64_t n, const int64_t *i, const int64_t *j,
                    const double *v, luma_Sparse *tmp, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t *ptr = tmp->indptr; /* tmp->rows + 1 = columns + 1 */
  if (luma_work_add(&w, (uint64_t)tmp->rows + 1 + 3 * (uint64_t)n)) return 1;
  memset(ptr, 0, ((size_t)tmp->rows + 1) * sizeof *ptr);
  for (int64_t k = 0; k < n; k++) ptr[j[k] + 1]++;
  for (int64_t c = 0; c < tmp->rows; c++) ptr[c + 1] += ptr[c];
  for (int64_t k = 0; k < n; k++) {
    int64_t dst = ptr[j[k]]++;
    tmp->indices[dst] = i[k];
    tmp->data[dst] = v ? v[k] : 0.0;
  }
  memmove(ptr + 1, ptr, (size_t)tmp->rows * sizeof *ptr);
  ptr[0] = 0;
  tmp->nnz = n;
  luma_work_flush(&w);
  luma_sp_transpose(t, tmp, out);
  return luma_work_status(t) != LUMA_LOOP_DONE;
}

int64_t luma_sp_from_coo(luma_Threads *t, int64_t n, const int64_t *i, const int64_t *j,
                          const double *v, luma_Sparse *tmp, luma_Sparse *out) {
  if (coo_sort(t, n, i, j, v, tmp, out)) return -1;
  if (luma_work_charge(t, (uint64_t)n + (uint64_t)out->rows)) return -1;
  int64_t kept = 0, start = 0;
  for (int64_t r = 0; r < out->rows; r++) {
    int64_t end = out->indptr[r + 1], first = kept;
    for (int64_t k = start; k < end; k++) {
      if (kept > first && out->indices[kept - 1] == out->indices[k]) {
        out->data[kept - 1] += out->data[k];
      } else {
        out->indices[kept] = out->indices[k];
        out->data[kept] = out->data[k];
        kept++;
      }
    }
    out->indptr[r + 1] = kept;
    start = end;
  }
  out->nnz = kept;
  return kept;
}

int64_t luma_sp_count_dense(luma_Threads *t, const luma_Mat *m, double tol) {
  luma_WorkBatch w = {t, 0};
  int64_t count = 0;
  for (int64_t i = 0; i < m->rows; i++) {
    if (luma_work_add(&w, (uint64_t)m->cols + 1)) return 0;
    for (int64_t j = 0; j < m->cols; j++) count += !(fabs(LUMA_AT(m, i, j)) <= tol);
  }
  luma_work_flush(&w);
  return count;
}

void luma_sp_from_dense(luma_Threads *t, const luma_Mat *m, double tol, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t k = 0;
  out->indptr[0] = 0;
  for (int64_t i = 0; i < m->rows; i++) {
    if (luma_work_add(&w, (uint64_t)m->cols + 1)) return;
    for (int64_t j = 0; j < m->cols; j++) {
      double x = LUMA_AT(m, i, j);
      if (fabs(x) <= tol) continue;
      out->indices[k] = j;
      out->data[k++] = x;
    }
    out->indptr[i + 1] = k;
  }
  luma_work_flush(&w);
}

void luma_sp_to_dense(luma_Threads *t, const luma_Sparse *a, luma_Mat *out) {
  luma_WorkBatch w = {t, 0};
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(a->cols + end - start) + 1)) return;
    for (int64_t j = 0; j < a->cols; j++) LUMA_AT(out, i, j) = 0.0;
    for (int64_t k = start; k < end; k++) LUMA_AT(out, i, a->indices[k]) = a->data[k];
  }
  luma_work_flush(&w);
}

/* ------------------------------------------------------------ random */

/* Inserts x into the open-addressing set; 0 if it was there already. */
static int set_insert(int64_t *slots, int bits, int64_t x) {
  uint64_t mask = ((uint64_t)1 << bits) - 1;
  uint64_t h = ((uint64_t)x * 0x9E3779B97F4A7C15u) >> (64 - bits);
  /* audit-loops: a hash probe at most half full, O(1) expected steps; the caller charges each draw */
  for (;; h = (h + 1) & mask) {
    if (slots[h] == x) return 0;
    if (slots[h] < 0) {
      slots[h] = x;
      return 1;
    }
  }
}

int luma_sp_random(luma_Threads *t, struct luma_Rng *rng, int64_t k, int64_t *slots, int bits,
                    int64_t *pos_i, int64_t *pos_j, luma_Sparse *tmp, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t rows = out->rows, cols = out->cols, total = rows * cols;
  size_t nslots = (size_t)1 << bits;
  if (luma_work_add(&w, (uint64_t)nslots)) return 1;
  for (size_t s = 0; s < nslots; s++) slots[s] = -1;
  /* Floyd's sampling: after the step for x, the set is a uniform k'-subset
   * of 0..x (Bentley and Floyd, "A sample of brilliance", CACM 30(9),
   * 1987) */
  for (int64_t x = total - k; x < total; x++) {
    if (luma_work_add(&w, 8)) return 1;
    int64_t r = (int64_t)luma_rng_below(rng, (uint64_t)x + 1);
    if (!set_insert(slots, bits, r)) set_insert(slots, bits, x);
  }
  int64_t n = 0;
  for (size_t s = 0; s < nslots; s++) {
    if (slots[s] < 0) continue;
    pos_i[n] = slots[s] / cols;
    pos_j[n++] = slots[s] % cols;
  }
  luma_work_flush(&w);
  if (coo_sort(t, n, pos_i, pos_j, NULL, tmp, out)) return 1;
  /* values in row-major order of the positions: reproducible from the
   * generator whatever the hash table's order */
  for (int64_t e = 0; e < n; e++) {
    if (luma_work_add(&w, 4)) return 1;
    out->data[e] = luma_rng_uniform(rng);
  }
  luma_work_flush(&w);
  return 0;
}

/* ----------------------------------------------------------- queries */

double luma_sp_get(const luma_Sparse *a, int64_t i, int64_t j) {
  int64_t lo = a->indptr[i], hi = a->indptr[i + 1];
  /* audit-loops: a binary search, O(log n) steps */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (a->indices[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < a->indptr[i + 1] && a->indices[lo] == j ? a->data[lo] : 0.0;
}

int64_t luma_sp_take_count(const luma_Sparse *a, const int64_t *rows, int64_t n) {
  int64_t count = 0;
  for (int64_t r = 0; r < n; r++) count += a->indptr[rows[r] + 1] - a->indptr[rows[r]];
  return count;
}

void luma_sp_take(luma_Threads *t, const luma_Sparse *a, const int64_t *rows, int64_t n,
                   luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t k = 0;
  out->indptr[0] = 0;
  for (int64_t r = 0; r < n; r++) {
    int64_t start = a->indptr[rows[r]], len = a->indptr[rows[r] + 1] - start;
    if (luma_work_add(&w, 2 * (uint64_t)len + 1)) return;
    memcpy(out->indices + k, a->indices + start, (size_t)len * sizeof *out->indices);
    memcpy(out->data + k, a->data + start, (size_t)len * sizeof *out->data);
    k += len;
    out->indptr[r + 1] = k;
  }
  out->nnz = k;
  luma_work_flush(&w);
}

/* --------------------------------------------------------- reductions */

double luma_sp_sum(luma_Threads *t, const luma_Sparse *a) {
  luma_WorkBatch w = {t, 0};
  double s = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return s;
    for (int64_t k = start; k < end; k++) s += a->data[k];
  }
  luma_work_flush(&w);
  return s;
}

double luma_sp_sum_squares(luma_Threads *t, const luma_Sparse *a) {
  luma_WorkBatch w = {t, 0};
  double s = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return s;
    for (int64_t k = start; k < end; k++) s += a->data[k] * a->data[k];
  }
  luma_work_flush(&w);
  return s;
}

void luma_sp_sum_dim(luma_Threads *t, const luma_Sparse *a, int dim, luma_Mat *out) {
  luma_WorkBatch w = {t, 0};
  if (dim == 1) {
    if (luma_work_add(&w, (uint64_t)a->cols)) return;
    for (int64_t j = 0; j < a->cols; j++) LUMA_AT(out, 0, j) = 0.0;
  }
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return;
    if (dim == 1) {
      for (int64_t k = start; k < end; k++) LUMA_AT(out, 0, a->indices[k]) += a->data[k];
    } else {
      double s = 0;
      for (int64_t k = start; k < end; k++) s += a->data[k];
      LUMA_AT(out, i, 0) = s;
    }
  }
  luma_work_flush(&w);
}

/* ------------------------------------------------------------ scaling */

/* Element k of a vector matrix (n x 1 or 1 x n). */
static double vec_at(const luma_Mat *v, int64_t k) {
  return v->cols == 1 ? LUMA_AT(v, k, 0) : LUMA_AT(v, 0, k);
}

void luma_sp_scale(luma_Threads *t, const luma_Sparse *a, int mode, double alpha,
                    const luma_Mat *v, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  out->indptr[0] = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, 3 * (uint64_t)(end - start) + 1)) return;
    double f = mode == LUMA_SP_ROWS ? vec_at(v, i) : alpha;
    for (int64_t k = start; k < end; k++) {
      out->indices[k] = a->indices[k];
      out->data[k] = a->data[k] * (mode == LUMA_SP_COLS ? vec_at(v, a->indices[k]) : f);
    }
    out->indptr[i + 1] = end;
  }
  luma_work_flush(&w);
}

int64_t luma_sp_count_nonzero(luma_Threads *t, const luma_Sparse *a) {
  luma_WorkBatch w = {t, 0};
  int64_t count = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return 0;
    for (int64_t k = start; k < end; k++) count += a->data[k] != 0.0;
  }
  luma_work_flush(&w);
  return count;
}

void luma_sp_drop_zeros(luma_Threads *t, const luma_Sparse *a, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t kept = 0;
  out->indptr[0] = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, 2 * (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) {
      if (a->data[k] == 0.0) continue;
      out->indices[kept] = a->indices[k];
      out->data[kept++] = a->data[k];
    }
    out->indptr[i + 1] = kept;
  }
  luma_work_flush(&w);
}

/* ----------------------------------------------- sparse x dense products */

/* Entries (plus one per row) per block of a sparse x dense product: about
 * four meter chunks of multiply-adds. */
static int64_t block_entries(int64_t out_cols) {
  int64_t per = 4 * LUMA_WORK_CHUNK / (out_cols > 0 ? out_cols : 1);
  return per > 0 ? per : 1;
}

typedef struct CsrDenseJob {
  const luma_Sparse *a;
  const luma_Mat *b;
  luma_Mat *out;
  int64_t per_block;
} CsrDenseJob;

/* The first row r whose work prefix indptr[r] + r reaches x (rows if
 * none): where a block of equal work starts.  Depends only on the data,
 * never on the thread count. */
static int64_t block_start(const luma_Sparse *a, int64_t x) {
  int64_t lo = 0, hi = a->rows;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (a->indptr[mid] + mid < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static void csr_dense_rows(const luma_Sparse *a, const luma_Mat *b, luma_Mat *out, int64_t r0,
                           int64_t r1) {
  int64_t n = out->cols;
  for (int64_t i = r0; i < r1; i++) {
    double *restrict o = out->data + i * out->rs;
    for (int64_t c = 0; c < n; c++) o[c] = 0.0;
    for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) {
      double v = a->data[k];
      const double *restrict br = b->data + a->indices[k] * b->rs;
      for (int64_t c = 0; c < n; c++) o[c] += v * br[c];
    }
  }
}

static void csr_dense_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const CsrDenseJob *job = ctx;
  for (int64_t blk = begin; blk < end; blk++)
    csr_dense_rows(job->a, job->b, job->out, block_start(job->a, blk * job->per_block),
                   block_start(job->a, (blk + 1) * job->per_block));
}

luma_LoopStatus luma_sp_matmul_dense(luma_Threads *t, const luma_Sparse *a, const luma_Mat *b,
                                      luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return luma_work_status(t);
  int64_t per = block_entries(out->cols), total = a->nnz + a->rows;
  CsrDenseJob job = {a, b, out, per};
  luma_Loop loop = {(total + per - 1) / per, 1, (uint64_t)per * (uint64_t)out->cols, 0,
                    csr_dense_chunk, &job};
  return luma_parallel_for(t, &loop);
}

typedef struct DenseCsrJob {
  const luma_Mat *a;
  const luma_Sparse *b;
  luma_Mat *out;
} DenseCsrJob;

static void dense_csr_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const DenseCsrJob *job = ctx;
  const luma_Mat *a = job->a;
  const luma_Sparse *b = job->b;
  int64_t n = job->out->cols;
  for (int64_t i = begin; i < end; i++) {
    double *restrict o = job->out->data + i * job->out->rs;
    for (int64_t c = 0; c < n; c++) o[c] = 0.0;
    for (int64_t r = 0; r < b->rows; r++) {
      double x = LUMA_AT(a, i, r);
      for (int64_t e = b->indptr[r]; e < b->indptr[r + 1]; e++) o[b->indices[e]] += x * b->data[e];
    }
  }
}

luma_LoopStatus luma_sp_dense_matmul(luma_Threads *t, const luma_Mat *a, const luma_Sparse *b,
                                      luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return luma_work_status(t);
  uint64_t per_row = (uint64_t)b->nnz + (uint64_t)b->rows + (uint64_t)out->cols;
  int64_t grain = (int64_t)(LUMA_WORK_CHUNK / per_row) + 1;
  DenseCsrJob job = {a, b, out};
  luma_Loop loop = {out->rows, grain, per_row, 0, dense_csr_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* a^T b: strips of output columns, each summed by one thread over all of
 * a's entries in their order, so the result does not depend on the
 * strip width or the thread count. */
typedef struct TDenseJob {
  const luma_Sparse *a;
  const luma_Mat *b;
  luma_Mat *out;
  int64_t width;
} TDenseJob;

static void tdense_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const TDenseJob *job = ctx;
  const luma_Sparse *a = job->a;
  luma_Mat *out = job->out;
  for (int64_t s = begin; s < end; s++) {
    int64_t c0 = s * job->width, c1 = c0 + job->width < out->cols ? c0 + job->width : out->cols;
    for (int64_t i = 0; i < out->rows; i++)
      for (int64_t c = c0; c < c1; c++) out->data[i * out->rs + c] = 0.0;
    for (int64_t r = 0; r < a->rows; r++) {
      const double *restrict br = job->b->data + r * job->b->rs;
      for (int64_t e = a->indptr[r]; e < a->indptr[r + 1]; e++) {
        double v = a->data[e];
        double *restrict o = out->data + a->indices[e] * out->rs;
        for (int64_t c = c0; c < c1; c++) o[c] += v * br[c];
      }
    }
  }
}

luma_LoopStatus luma_sp_tmatmul_dense(luma_Threads *t, const luma_Sparse *a, const luma_Mat *b,
                                       luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return luma_work_status(t);
  /* strips of at least 8 columns (a pass over the index arrays per
   * strip), enough of them for every thread */
  int64_t strips = (out->cols + 7) / 8, want = 2 * (int64_t)(t != NULL ? t->count : 1);
  if (strips > want) strips = want;
  if (strips < 1) strips = 1;
  int64_t width = (out->cols + strips - 1) / strips;
  strips = (out->cols + width - 1) / width;
  TDenseJob job = {a, b, out, width};
  uint64_t cost = (uint64_t)(a->nnz + a->rows + out->rows) * (uint64_t)width;
  luma_Loop loop = {strips, 1, cost, 0, tdense_chunk, &job};
  return luma_parallel_for(t, &loop);
}

typedef struct DenseTJob {
  const luma_Mat *d;
  const luma_Sparse *s;
  luma_Mat *out;
} DenseTJob;

static void dense_t_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const DenseTJob *job = ctx;
  const luma_Sparse *s = job->s;
  for (int64_t i = begin; i < end; i++) {
    double *o = job->out->data + i * job->out->rs;
    for (int64_t j = 0; j < s->rows; j++) {
      double acc = 0.0;
      for (int64_t e = s->indptr[j]; e < s->indptr[j + 1]; e++)
        acc += LUMA_AT(job->d, i, s->indices[e]) * s->data[e];
      o[j] = acc;
    }
  }
}

luma_LoopStatus luma_sp_dense_tmatmul(luma_Threads *t, const luma_Mat *d, const luma_Sparse *s,
                                       luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return luma_work_status(t);
  uint64_t per_row = (uint64_t)s->nnz + (uint64_t)s->rows;
  int64_t grain = (int64_t)(LUMA_WORK_CHUNK / per_row) + 1;
  DenseTJob job = {d, s, out};
  luma_Loop loop = {out->rows, grain, per_row, 0, dense_t_chunk, &job};
  return luma_parallel_for(t, &loop);
}

typedef struct SpDenseOutJob {
  const luma_Sparse *a, *b;
  luma_Mat *out;
} SpDenseOutJob;

static void sp_dense_out_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const SpDenseOutJob *job = ctx;
  const luma_Sparse *a = job->a, *b = job->b;
  for (int64_t i = begin; i < end; i++) {
    double *restrict o = job->out->data + i * job->out->rs;
    for (int64_t c = 0; c < b->cols; c++) o[c] = 0.0;
    for (int64_t e = a->indptr[i]; e < a->indptr[i + 1]; e++) {
      int64_t r = a->indices[e];
      double v = a->data[e];
      for (int64_t f = b->indptr[r]; f < b->indptr[r + 1]; f++) o[b->indices[f]] += v * b->data[f];
    }
  }
}

luma_LoopStatus luma_sp_matmul_to_dense(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b,
                                         luma_Mat *out) {
  if (out->rows == 0 || out->cols == 0) return luma_work_status(t);
  /* the cost of a row: its entries times b's mean row length, plus the
   * zeroing of the output row */
  uint64_t per_row = (uint64_t)(b->rows > 0 ? b->nnz / b->rows + 1 : 1) *
                         (uint64_t)(a->rows > 0 ? a->nnz / a->rows + 1 : 1) +
                     (uint64_t)b->cols;
  int64_t grain = (int64_t)(LUMA_WORK_CHUNK / per_row) + 1;
  SpDenseOutJob job = {a, b, out};
  luma_Loop loop = {out->rows, grain, per_row, 0, sp_dense_out_chunk, &job};
  return luma_parallel_for(t, &loop);
}

/* ------------------------------------------------------ column ranges */

int64_t luma_sp_col_range_count(luma_Threads *t, const luma_Sparse *a, int64_t c0, int64_t c1) {
  luma_WorkBatch w = {t, 0};
  int64_t count = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return 0;
    for (int64_t k = start; k < end; k++) count += a->indices[k] >= c0 && a->indices[k] < c1;
  }
  luma_work_flush(&w);
  return count;
}

void luma_sp_col_range(luma_Threads *t, const luma_Sparse *a, int64_t c0, int64_t c1,
                        luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  int64_t kept = 0;
  out->indptr[0] = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, 2 * (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) {
      if (a->indices[k] < c0 || a->indices[k] >= c1) continue;
      out->indices[kept] = a->indices[k] - c0;
      out->data[kept++] = a->data[k];
    }
    out->indptr[i + 1] = kept;
  }
  luma_work_flush(&w);
}

double luma_sp_max_abs_sum(luma_Threads *t, const luma_Sparse *a, int dim, double *acc) {
  luma_WorkBatch w = {t, 0};
  double best = 0.0;
  if (dim == 1) {
    if (luma_work_add(&w, (uint64_t)a->cols)) return 0.0;
    for (int64_t j = 0; j < a->cols; j++) acc[j] = 0.0;
  }
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return 0.0;
    if (dim == 1) {
      for (int64_t k = start; k < end; k++) acc[a->indices[k]] += fabs(a->data[k]);
    } else {
      double s = 0.0;
      for (int64_t k = start; k < end; k++) s += fabs(a->data[k]);
      if (s > best || isnan(s)) best = s;
    }
  }
  if (dim == 1)
    for (int64_t j = 0; j < a->cols; j++)
      if (acc[j] > best || isnan(acc[j])) best = acc[j];
  luma_work_flush(&w);
  return best;
}

/* ------------------------------------------- element-wise, reductions */

void luma_sp_map(luma_Threads *t, const luma_Sparse *a, int op, double p, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  out->indptr[0] = 0;
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, 3 * (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) {
      double v = a->data[k];
      out->indices[k] = a->indices[k];
      out->data[k] = op == LUMA_SP_ABS ? fabs(v) : op == LUMA_SP_POW ? pow(v, p) : (double)(v > p);
    }
    out->indptr[i + 1] = end;
  }
  luma_work_flush(&w);
}

void luma_sp_extreme(luma_Threads *t, const luma_Sparse *a, int dim, int want_max, luma_Mat *out,
                      int64_t *count) {
  luma_WorkBatch w = {t, 0};
  int64_t n = dim == 1 ? a->cols : a->rows;
  if (luma_work_add(&w, (uint64_t)n)) return;
  double start_value = want_max ? -INFINITY : INFINITY;
  for (int64_t j = 0; j < n; j++) {
    count[j] = 0;
    out->data[j * (dim == 1 ? out->cs : out->rs)] = start_value;
  }
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t s = a->indptr[i], e = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(e - s) + 1)) return;
    for (int64_t k = s; k < e; k++) {
      int64_t j = dim == 1 ? a->indices[k] : i;
      double *o = &out->data[j * (dim == 1 ? out->cs : out->rs)];
      double v = a->data[k];
      /* NaN wins, as in the dense reductions */
      if (isnan(v) || (want_max ? v > *o : v < *o)) *o = v;
      count[j]++;
    }
  }
  /* a line with fewer stored entries than its length holds zeros too */
  int64_t len = dim == 1 ? a->rows : a->cols;
  for (int64_t j = 0; j < n; j++) {
    double *o = &out->data[j * (dim == 1 ? out->cs : out->rs)];
    if (count[j] < len && !isnan(*o) && (want_max ? 0.0 > *o : 0.0 < *o)) *o = 0.0;
    if (len == 0) *o = NAN;
  }
  luma_work_flush(&w);
}

/* ---------------------------------------------- sparse x sparse (Gustavson) */

/* Rows of a x b in blocks on the pool.  Each running chunk takes a slot:
 * a marker (b->cols integers: the last row that touched each column) and
 * an accumulator (b->cols doubles); at most `slots` chunks run at once and
 * each gives its slot back before it ends.  Rows are independent and
 * each writes only its own place, so the product is the same for any
 * number of threads. */
typedef struct SpGemmJob {
  const luma_Sparse *a, *b;
  luma_Sparse *out;    /* NULL: the counting pass, into counts */
  int64_t *counts;     /* row i's count at counts[i + 1] */
  int64_t *marker;     /* slots x b->cols */
  double *acc;         /* slots x b->cols */
  int slots;
  atomic_int busy[LUMA_MAX_THREADS];
} SpGemmJob;

static int claim_slot(SpGemmJob *job) {
  for (int s = 0; s < job->slots; s++)
    if (!atomic_exchange(&job->busy[s], 1)) return s;
  return 0; /* unreachable while slots >= the threads running chunks */
}

/* Sorts a row's distinct column indices ascending: insertion sort for
 * short runs, quicksort (median of three) above them, and heapsort
 * below a depth of 2 log2 n, so no input takes more than O(n log n)
 * (Musser, "Introspective sorting and selection algorithms", Software:
 * Practice and Experience 27(8), 1997).  Inline, with no comparison
 * callback: qsort's callback made the product three times slower than
 * SciPy's, whose rows come out unsorted. */
static void insertion_sort(int64_t *v, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    int64_t x = v[i], j = i;
    for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
    v[j] = x;
  }
}

static void sift_down(int64_t *v, int64_t root, int64_t n) {
  for (int64_t child; (child = 2 * root + 1) < n; root = child) {
    if (child + 1 < n && v[child + 1] > v[child]) child++;
    if (v[root] >= v[child]) return;
    int64_t tmp = v[root];
    v[root] = v[child];
    v[child] = tmp;
  }
}

static void heap_sort(int64_t *v, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) sift_down(v, i, n);
  for (int64_t end = n - 1; end > 0; end--) {
    int64_t tmp = v[0];
    v[0] = v[end];
    v[end] = tmp;
    sift_down(v, 0, end);
  }
}

static void intro_sort(int64_t *v, int64_t n, int depth) {
  /* audit-loops: at most 2 log2 n partitions before heapsort, O(n log n) in all; the pass
   * that sorts a row charges it twice its multiply-adds, which the row's length n bounds */
  while (n > 24) {
    if (depth-- == 0) {
      heap_sort(v, n);
      return;
    }
    int64_t a = v[0], b = v[n / 2], c = v[n - 1];
    int64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
    int64_t i = 0, j = n - 1;
    for (;;) { /* audit-loops: Hoare's partition, n steps: v[0..j] <= pivot <= v[j+1..n-1] */
      while (v[i] < pivot) i++; /* audit-loops: within the partition's n steps */
      while (v[j] > pivot) j--; /* audit-loops: within the partition's n steps */
      if (i >= j) break;
      int64_t tmp = v[i];
      v[i++] = v[j];
      v[j--] = tmp;
    }
    /* the smaller side by recursion, the larger by the loop */
    if (j + 1 < n - j - 1) {
      intro_sort(v, j + 1, depth);
      v += j + 1;
      n -= j + 1;
    } else {
      intro_sort(v + j + 1, n - j - 1, depth);
      n = j + 1;
    }
  }
  insertion_sort(v, n);
}

static void sort_columns(int64_t *v, int64_t n) {
  intro_sort(v, n, 2 * (64 - __builtin_clzll((uint64_t)n | 1)));
}

/* Row i's distinct columns. */
static int64_t count_row(const luma_Sparse *a, const luma_Sparse *b, int64_t i, int64_t *marker) {
  int64_t count = 0;
  for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) {
    int64_t r = a->indices[k];
    for (int64_t e = b->indptr[r]; e < b->indptr[r + 1]; e++) {
      if (marker[b->indices[e]] == i) continue;
      marker[b->indices[e]] = i;
      count++;
    }
  }
  return count;
}

/* Row i of the product into out (its indptr set), columns in order. */
static void fill_row(const luma_Sparse *a, const luma_Sparse *b, int64_t i, luma_Sparse *out,
                     int64_t *marker, double *acc) {
  int64_t first = out->indptr[i], pos = first;
  for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) {
    int64_t r = a->indices[k];
    double v = a->data[k];
    for (int64_t e = b->indptr[r]; e < b->indptr[r + 1]; e++) {
      int64_t c = b->indices[e];
      if (marker[c] != i) {
        marker[c] = i;
        acc[c] = v * b->data[e];
        out->indices[pos++] = c;
      } else {
        acc[c] += v * b->data[e];
      }
    }
  }
  int64_t len = pos - first;
  /* the row's columns in order: sort them when that is cheaper than a
   * scan of every column's marker */
  uint64_t sort_cost = (uint64_t)len * (uint64_t)(64 - __builtin_clzll((uint64_t)len | 1));
  if (sort_cost < (uint64_t)b->cols) {
    sort_columns(out->indices + first, len);
  } else {
    pos = first;
    for (int64_t c = 0; c < b->cols; c++)
      if (marker[c] == i) out->indices[pos++] = c;
  }
  for (int64_t p = first; p < first + len; p++) out->data[p] = acc[out->indices[p]];
}

static void spgemm_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  SpGemmJob *job = ctx;
  int slot = claim_slot(job);
  int64_t *marker = job->marker + (size_t)slot * (size_t)job->b->cols;
  for (int64_t i = begin; i < end; i++) {
    if (job->out == NULL) job->counts[i + 1] = count_row(job->a, job->b, i, marker);
    else fill_row(job->a, job->b, i, job->out, marker, job->acc + (size_t)slot * (size_t)job->b->cols);
  }
  atomic_store(&job->busy[slot], 0);
}

/* One pass; the loop charges each row the average of the multiply-adds
 * (the entries of b that a's row reads), twice that when filling (the
 * sort or scan). */
static luma_LoopStatus spgemm_pass(luma_Threads *t, SpGemmJob *job) {
  const luma_Sparse *a = job->a, *b = job->b;
  luma_LoopStatus st = luma_work_charge(t, (uint64_t)job->slots * (uint64_t)b->cols + 1);
  if (st != LUMA_LOOP_DONE) return st;
  for (int s = 0; s < job->slots; s++) atomic_init(&job->busy[s], 0);
  for (size_t c = 0; c < (size_t)job->slots * (size_t)b->cols; c++) job->marker[c] = -1;
  double flops = (double)a->nnz * ((double)b->nnz / (double)(b->rows > 0 ? b->rows : 1));
  uint64_t per_row = (uint64_t)(flops / (double)(a->rows > 0 ? a->rows : 1)) + 1;
  if (job->out != NULL) per_row *= 2;
  int64_t grain = (int64_t)(LUMA_WORK_CHUNK / per_row) + 1;
  luma_Loop loop = {a->rows, grain, per_row, 0, spgemm_chunk, job};
  return luma_parallel_for(t, &loop);
}

int64_t luma_sp_matmul_count(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b,
                              int64_t *out_indptr, int64_t *marker, int slots) {
  SpGemmJob job = {.a = a, .b = b, .counts = out_indptr, .marker = marker, .slots = slots};
  out_indptr[0] = 0;
  if (spgemm_pass(t, &job) != LUMA_LOOP_DONE) return -1;
  if (luma_work_charge(t, (uint64_t)a->rows + 1) != LUMA_LOOP_DONE) return -1;
  for (int64_t i = 0; i < a->rows; i++) out_indptr[i + 1] += out_indptr[i];
  return out_indptr[a->rows];
}

int luma_sp_matmul(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b, luma_Sparse *out,
                    int64_t *marker, double *acc, int slots) {
  SpGemmJob job = {.a = a, .b = b, .out = out, .marker = marker, .acc = acc, .slots = slots};
  return spgemm_pass(t, &job) != LUMA_LOOP_DONE;
}

/* ------------------------------------------------- element-wise a op b */

/* x where keep is 1, +0.0 where it is 0, without a branch (a product
 * with keep would turn an infinity into NaN). */
static inline double keep_or_zero(double x, int keep) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits &= (uint64_t)0 - (uint64_t)keep;
  memcpy(&x, &bits, sizeof bits);
  return x;
}

/* NaN wins, as in NumPy's maximum and minimum. */
static inline double max_nan(double x, double y) { return isnan(x) || x > y ? x : y; }
static inline double min_nan(double x, double y) { return isnan(x) || x < y ? x : y; }
#define OP_ADD(x, y) ((x) + (y))
#define OP_SUB(x, y) ((x) - (y))
#define OP_MUL(x, y) ((x) * (y))

/* Row i of a op b: the merge of its two sorted column lists, writing the
 * nonzero results to indices and data unless indices is NULL, and
 * returning their count.  While both lists have entries the step takes
 * from either or both without a branch (which side comes next is a coin
 * toss on real data); exact cancellations are not stored, as in SciPy,
 * and a product (both_only) keeps only the positions stored in both. */
#define MERGE_ROW(name, OP, both_only)                                                       \
  static int64_t name(const luma_Sparse *a, const luma_Sparse *b, int64_t i, int64_t *indices, \
                      double *data) {                                                        \
    int64_t ka = a->indptr[i], ea = a->indptr[i + 1], kb = b->indptr[i], eb = b->indptr[i + 1]; \
    int64_t n = 0;                                                                           \
    while (ka < ea && kb < eb) {                                                             \
      int64_t ca = a->indices[ka], cb = b->indices[kb];                                      \
      int take_a = ca <= cb, take_b = cb <= ca;                                              \
      double x = keep_or_zero(a->data[ka], take_a), y = keep_or_zero(b->data[kb], take_b);   \
      double v = OP(x, y);                                                                   \
      int keep = v != 0.0 && (!(both_only) || (take_a & take_b));                            \
      if (indices != NULL && keep) {                                                         \
        indices[n] = take_a ? ca : cb;                                                       \
        data[n] = v;                                                                         \
      }                                                                                      \
      n += keep;                                                                             \
      ka += take_a;                                                                          \
      kb += take_b;                                                                          \
    }                                                                                        \
    for (; !(both_only) && ka < ea; ka++) {                                                  \
      double v = OP(a->data[ka], 0.0);                                                       \
      if (v == 0.0) continue;                                                                \
      if (indices != NULL) {                                                                 \
        indices[n] = a->indices[ka];                                                         \
        data[n] = v;                                                                         \
      }                                                                                      \
      n++;                                                                                   \
    }                                                                                        \
    for (; !(both_only) && kb < eb; kb++) {                                                  \
      double v = OP(0.0, b->data[kb]);                                                       \
      if (v == 0.0) continue;                                                                \
      if (indices != NULL) {                                                                 \
        indices[n] = b->indices[kb];                                                         \
        data[n] = v;                                                                         \
      }                                                                                      \
      n++;                                                                                   \
    }                                                                                        \
    return n;                                                                                \
  }

MERGE_ROW(merge_add, OP_ADD, 0)
MERGE_ROW(merge_sub, OP_SUB, 0)
MERGE_ROW(merge_mul, OP_MUL, 1)
MERGE_ROW(merge_max, max_nan, 0)
MERGE_ROW(merge_min, min_nan, 0)

typedef int64_t (*MergeRow)(const luma_Sparse *a, const luma_Sparse *b, int64_t i,
                            int64_t *indices, double *data);

static MergeRow merge_of(int op) {
  switch (op) {
  case LUMA_SP_ADD: return merge_add;
  case LUMA_SP_SUB: return merge_sub;
  case LUMA_SP_MUL: return merge_mul;
  case LUMA_SP_MAX: return merge_max;
  default: return merge_min;
  }
}

typedef struct BinopJob {
  const luma_Sparse *a, *b;
  MergeRow merge;
  int64_t *counts;  /* the counting pass: row i's count goes to counts[i + 1] */
  luma_Sparse *out; /* the filling pass */
} BinopJob;

static void binop_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const BinopJob *job = ctx;
  for (int64_t i = begin; i < end; i++) {
    if (job->out == NULL) {
      job->counts[i + 1] = job->merge(job->a, job->b, i, NULL, NULL);
    } else {
      int64_t at = job->out->indptr[i];
      job->merge(job->a, job->b, i, job->out->indices + at, job->out->data + at);
    }
  }
}

/* One pass over blocks of rows on the pool: rows are independent, and
 * each writes only its own place, so the result is the same for any
 * number of threads. */
static luma_LoopStatus binop_pass(luma_Threads *t, BinopJob *job) {
  const luma_Sparse *a = job->a, *b = job->b;
  uint64_t per_row = (uint64_t)((a->nnz + b->nnz) / (a->rows > 0 ? a->rows : 1)) + 1;
  int64_t grain = (int64_t)(LUMA_WORK_CHUNK / per_row) + 1;
  luma_Loop loop = {a->rows, grain, per_row, 0, binop_chunk, job};
  return luma_parallel_for(t, &loop);
}

int64_t luma_sp_binop_count(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b, int op,
                             int64_t *out_indptr) {
  BinopJob job = {a, b, merge_of(op), out_indptr, NULL};
  out_indptr[0] = 0;
  if (binop_pass(t, &job) != LUMA_LOOP_DONE) return -1;
  luma_WorkBatch w = {t, 0};
  if (luma_work_add(&w, (uint64_t)a->rows)) return -1;
  luma_work_flush(&w);
  for (int64_t i = 0; i < a->rows; i++) out_indptr[i + 1] += out_indptr[i];
  return out_indptr[a->rows];
}

int luma_sp_binop(luma_Threads *t, const luma_Sparse *a, const luma_Sparse *b, int op,
                  luma_Sparse *out) {
  BinopJob job = {a, b, merge_of(op), NULL, out};
  return binop_pass(t, &job) != LUMA_LOOP_DONE;
}

void luma_sp_axpy_dense(luma_Threads *t, const luma_Sparse *a, double alpha, luma_Mat *out) {
  luma_WorkBatch w = {t, 0};
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) LUMA_AT(out, i, a->indices[k]) += alpha * a->data[k];
  }
  luma_work_flush(&w);
}

void luma_sp_mul_dense(luma_Threads *t, const luma_Sparse *a, const luma_Mat *d, luma_Sparse *out) {
  luma_WorkBatch w = {t, 0};
  memcpy(out->indptr, a->indptr, ((size_t)a->rows + 1) * sizeof *a->indptr);
  for (int64_t i = 0; i < a->rows; i++) {
    int64_t start = a->indptr[i], end = a->indptr[i + 1];
    if (luma_work_add(&w, 3 * (uint64_t)(end - start) + 1)) return;
    for (int64_t k = start; k < end; k++) {
      out->indices[k] = a->indices[k];
      out->data[k] = a->data[k] * LUMA_AT(d, i, a->indices[k]);
    }
  }
  luma_work_flush(&w);
}

/* ------------------------------------------------------------ LIBSVM */

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Parses the text; fills out and y when they are not NULL.  Numbers are
 * read by strtod under the C locale (numtext.h), entered once for the
 * whole text: nothing here can unwind. */
static void libsvm_parse(luma_Threads *t, const char *text, size_t len, luma_LibsvmScan *scan,
                         luma_Sparse *out, double *y) {
  luma_WorkBatch w = {t, 0};
  const char *p = text, *end = text + len;
  int64_t row = 0, nz = 0, max_index = 0;
  memset(scan, 0, sizeof *scan);
  if (out) out->indptr[0] = 0;
  locale_t saved = luma_locale_enter();
  for (int64_t line = 1; p < end; line++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (eol == NULL) eol = end;
    if (luma_work_add(&w, 4 * (uint64_t)(eol - p) + 1)) {
      scan->fault = LUMA_LIBSVM_STOPPED;
      break;
    }
    const char *stop = memchr(p, '#', (size_t)(eol - p));
    if (stop == NULL) stop = eol;
    scan->line = line;
    while (p < stop && is_blank(*p)) p++;
    if (p == stop) { /* blank or comment line */
      p = eol + (eol < end);
      continue;
    }
    char *after;
    double label = strtod(p, &after);
    if (after == p || (after < stop && !is_blank(*after)) || after > stop || !isfinite(label)) {
      scan->fault = LUMA_LIBSVM_BAD_LABEL;
      break;
    }
    p = after;
    int64_t prev = 0;
    while (p < stop) { /* the line's bytes are charged above */
      while (p < stop && is_blank(*p)) p++;
      if (p == stop) break;
      const char *tok = p;
      while (p < stop && !is_blank(*p)) p++;
      if (p - tok > 4 && memcmp(tok, "qid:", 4) == 0) continue; /* query ids: not features */
      int64_t index = 0;
      const char *q = tok;
      while (q < p && *q >= '0' && *q <= '9') {
        if (index <= LUMA_MAX_DIM) index = index * 10 + (*q - '0');
        q++;
      }
      if (q == tok || q == p || *q != ':') {
        scan->fault = LUMA_LIBSVM_BAD_TOKEN;
        break;
      }
      if (index < 1 || index > LUMA_MAX_DIM) {
        scan->fault = LUMA_LIBSVM_BAD_INDEX;
        scan->index = index > LUMA_MAX_DIM ? LUMA_MAX_DIM + 1 : index;
        break;
      }
      if (index <= prev) {
        scan->fault = LUMA_LIBSVM_UNORDERED;
        scan->index = index;
        break;
      }
      q++;
      double value = strtod(q, &after);
      if (after == q || after != p || !isfinite(value)) {
        scan->fault = LUMA_LIBSVM_BAD_VALUE;
        scan->index = index;
        break;
      }
      if (out) {
        out->indices[nz] = index - 1;
        out->data[nz] = value;
      }
      nz++;
      prev = index;
      if (index > max_index) max_index = index;
    }
    if (scan->fault != LUMA_LIBSVM_OK) break;
    if (out) {
      y[row] = label;
      out->indptr[row + 1] = nz;
    }
    row++;
    p = eol + (eol < end);
  }
  luma_locale_leave(saved);
  luma_work_flush(&w);
  scan->rows = row;
  scan->nnz = nz;
  scan->max_index = max_index;
}

void luma_libsvm_scan(luma_Threads *t, const char *text, size_t len, luma_LibsvmScan *scan) {
  libsvm_parse(t, text, len, scan, NULL, NULL);
}

void luma_libsvm_fill(luma_Threads *t, const char *text, size_t len, luma_Sparse *out, double *y) {
  luma_LibsvmScan scan;
  libsvm_parse(t, text, len, &scan, out, y);
}
