/*
 * range_pass.c - one pass of the randomized range finder (see range_pass.h).
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include <cblas.h>

#include "core/narrow.h"
#include "decomposition/range_pass.h"

/* Rows of X per block: about 1 MB, so that the second product reads the
 * block from the core's cache, not from memory. */
static int64_t block_of(int64_t d) {
  const int64_t b = 131072 / (d > 0 ? d : 1);
  return b < 16 ? 16 : b;
}

/* Partial sums (d c + c + 1 doubles per chunk) take at most this many
 * doubles in all (32 MB), and there are at most MAX_CHUNKS chunks: enough
 * to balance two to eight threads. */
#define PARTIAL_BUDGET (4 << 20)
#define MAX_CHUNKS 32

static int64_t grain_of(int64_t n, int64_t d, int64_t c) {
  const int64_t block = block_of(d);
  int64_t chunks = PARTIAL_BUDGET / (d * c + c + 1);
  if (chunks > MAX_CHUNKS) chunks = MAX_CHUNKS;
  if (chunks < 1) chunks = 1;
  int64_t grain = (n + chunks - 1) / chunks;
  grain = (grain + block - 1) / block * block; /* whole blocks */
  return grain < block ? block : grain;
}

/* Up to this many columns the products come from core/narrow.c where it
 * is vectorized: BLAS's packing of each block cost a third of the pass. */
#define NARROW_MAX_C 64

static int64_t chunks_of(int64_t n, int64_t grain) { return n > 0 ? (n + grain - 1) / grain : 0; }

/* Per chunk: the partial S (d c), the column sums of P_b (c), |A_b|_F^2
 * (1); then, per chunk, P_b when P is not kept (block c) and a copy of the
 * block when X's rows are not contiguous (block d). */
static int64_t stride_of(int64_t d, int64_t c) { return d * c + c + 1; }

static int64_t scratch_of(const luma_Mat *x, int64_t c) {
  const int64_t d = x->cols;
  return block_of(d) * (c + (x->cs == 1 && x->rs >= d ? 0 : d));
}

typedef struct Pass {
  const luma_Mat *x;
  const double *mean, *q, *mq; /* mq: mean Q (c), NULL without mean */
  int64_t c, stride, scratch;
  double *p, *part, *buf;
  int want_ss;
  int narrow; /* the products from core/narrow.c, not BLAS */
} Pass;

static void pass_chunk(void *ctx, int64_t chunk, int64_t i0, int64_t i1) {
  const Pass *ps = ctx;
  const luma_Mat *x = ps->x;
  const int64_t d = x->cols, c = ps->c, block = block_of(d);
  double *s = ps->part + chunk * ps->stride, *colsum = s + d * c, *ss = colsum + c;
  double *pbuf = ps->buf + chunk * ps->scratch, *xbuf = pbuf + block * c;
  memset(s, 0, (size_t)ps->stride * sizeof(double));
  if (d == 0 || c == 0) { /* empty products, no valid leading dimension for BLAS */
    if (ps->p) memset(ps->p + i0 * c, 0, (size_t)((i1 - i0) * c) * sizeof(double));
    return;
  }
  for (int64_t r0 = i0; r0 < i1; r0 += block) {
    const int64_t rb = i1 - r0 < block ? i1 - r0 : block;
    const double *xb = x->data + r0 * x->rs;
    int64_t ld = x->rs;
    if (x->cs != 1 || x->rs < d) { /* a strided or broadcast view: copy the block */
      for (int64_t r = 0; r < rb; r++)
        for (int64_t j = 0; j < d; j++) xbuf[r * d + j] = LUMA_AT(x, r0 + r, j);
      xb = xbuf;
      ld = d;
    }
    double *pb = ps->p ? ps->p + r0 * c : pbuf;
    if (ps->narrow)
      luma_narrow_xq(rb, d, c, xb, ld, ps->q, c, pb, c);
    else
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rb, (int)c, (int)d, 1.0, xb,
                  (int)ld, ps->q, (int)c, 0.0, pb, (int)c);
    if (ps->mq) {
      for (int64_t r = 0; r < rb; r++)
        for (int64_t j = 0; j < c; j++) {
          pb[r * c + j] -= ps->mq[j];
          colsum[j] += pb[r * c + j];
        }
    }
    if (ps->narrow)
      luma_narrow_xtp(rb, d, c, xb, ld, pb, c, s, c);
    else
      cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)d, (int)c, (int)rb, 1.0, xb,
                  (int)ld, pb, (int)c, 1.0, s, (int)c);
    if (ps->want_ss) {
      double acc = 0;
      for (int64_t r = 0; r < rb; r++) {
        const double *row = xb + r * ld;
        for (int64_t j = 0; j < d; j++) {
          const double v = row[j] - (ps->mean ? ps->mean[j] : 0);
          acc += v * v;
        }
      }
      *ss += acc;
    }
  }
}

int64_t luma_range_pass_work(int64_t n, int64_t d, int64_t c) {
  const int64_t chunks = chunks_of(n, grain_of(n, d, c));
  /* partials, copy-block scratch (sized for a strided X), mean Q, the
   * column sums' total */
  return chunks * (stride_of(d, c) + block_of(d) * (c + d)) + 2 * c;
}

luma_LoopStatus luma_range_pass(luma_Threads *t, const luma_Mat *x, const double *mean,
                                const double *q, int64_t c, double *s, double *p, double *ss,
                                double *work) {
  const int64_t n = x->rows, d = x->cols, grain = grain_of(n, d, c);
  const int64_t chunks = chunks_of(n, grain), stride = stride_of(d, c);
  double *part = work, *buf = part + chunks * stride;
  double *mq = buf + chunks * block_of(d) * (c + d), *colsum = mq + c;
  if (mean) {
    for (int64_t j = 0; j < c; j++) mq[j] = 0;
    for (int64_t i = 0; i < d; i++)
      for (int64_t j = 0; j < c; j++) mq[j] += mean[i] * q[i * c + j];
  }
  const int narrow = c <= NARROW_MAX_C && luma_narrow_available();
  Pass ps = {x,    mean, q,          mean ? mq : NULL, c, stride, scratch_of(x, c), p, part,
             buf, ss != NULL, narrow};
  luma_Loop loop = {n, grain, (uint64_t)(4 * d * c + 3 * d), !narrow, pass_chunk, &ps};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status != LUMA_LOOP_DONE) return status;
  memset(s, 0, (size_t)(d * c) * sizeof(double));
  double total = 0;
  for (int64_t j = 0; j < c; j++) colsum[j] = 0;
  for (int64_t k = 0; k < chunks; k++) {
    const double *pk = part + k * stride;
    for (int64_t e = 0; e < d * c; e++) s[e] += pk[e];
    for (int64_t j = 0; j < c; j++) colsum[j] += pk[d * c + j];
    total += pk[d * c + c];
  }
  if (mean) /* A^T P = X^T P - mean^T (1^T P) */
    for (int64_t i = 0; i < d; i++)
      for (int64_t j = 0; j < c; j++) s[i * c + j] -= mean[i] * colsum[j];
  if (ss) *ss = total;
  return LUMA_LOOP_DONE;
}
