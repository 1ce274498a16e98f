/*
 * hmm.c - scaled forward-backward and Viterbi recursions (see hmm.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "hmm/hmm.h"

/* ------------------------------------------------------ forward-backward */

typedef struct FbJob {
  const luma_Mat *log_emis;
  const double *start, *trans;
  const int64_t *offsets;
  int64_t k;
  int backward;
  luma_HmmOut *out;
  double *rows; /* n x (2k + 2): b_t, alpha-hat_t, c_t, m_t */
  double *seqs; /* nseq x 3k: beta rolling pair and a temporary */
} FbJob;

/* One sequence: rows [r0, r1). */
static void fb_sequence(const FbJob *job, int64_t s) {
  const int64_t k = job->k, w = 2 * k + 2;
  const int64_t r0 = job->offsets[s], r1 = job->offsets[s + 1];
  const double *A = job->trans;
  luma_HmmOut *out = job->out;
  double loglik = 0;
  int64_t zero_at = -1;
  /* forward */
  for (int64_t r = r0; r < r1; r++) {
    double *b = job->rows + r * w, *alpha = b + k, *cm = alpha + k;
    double m = -INFINITY;
    for (int64_t j = 0; j < k; j++) {
      const double v = LUMA_AT(job->log_emis, r, j);
      if (v > m) m = v;
    }
    for (int64_t j = 0; j < k; j++) b[j] = exp(LUMA_AT(job->log_emis, r, j) - m);
    if (r == r0) {
      for (int64_t j = 0; j < k; j++) alpha[j] = job->start[j] * b[j];
    } else {
      const double *prev = alpha - w;
      for (int64_t j = 0; j < k; j++) alpha[j] = 0;
      for (int64_t i = 0; i < k; i++) {
        const double a = prev[i];
        if (a == 0) continue;
        const double *Ai = A + i * k;
        for (int64_t j = 0; j < k; j++) alpha[j] += a * Ai[j];
      }
      for (int64_t j = 0; j < k; j++) alpha[j] *= b[j];
    }
    double c = 0;
    for (int64_t j = 0; j < k; j++) c += alpha[j];
    if (!(c > 0) || !isfinite(c) || !isfinite(m)) {
      zero_at = r;
      loglik = -INFINITY;
      break;
    }
    for (int64_t j = 0; j < k; j++) alpha[j] /= c;
    cm[0] = c;
    cm[1] = m;
    loglik += log(c) + m;
    if (out->filtered)
      for (int64_t j = 0; j < k; j++) LUMA_AT(out->filtered, r, j) = alpha[j];
  }
  if (out->loglik) out->loglik[s] = loglik;
  if (out->zero_at) out->zero_at[s] = zero_at;
  if (zero_at >= 0 || !job->backward) return;
  /* backward, with gamma and xi as beta goes */
  double *beta = job->seqs + s * 3 * k, *next = beta + k, *tmp = next + k;
  double *xs = out->xi_sum ? out->xi_sum + s * k * k : NULL;
  if (xs) memset(xs, 0, (size_t)(k * k) * sizeof(double));
  for (int64_t j = 0; j < k; j++) next[j] = 1;
  for (int64_t r = r1 - 1; r >= r0; r--) {
    const double *alpha = job->rows + r * w + k;
    if (out->gamma)
      for (int64_t j = 0; j < k; j++) LUMA_AT(out->gamma, r, j) = alpha[j] * next[j];
    if (out->xi && r == r0)
      for (int64_t j = 0; j < k * k; j++) LUMA_AT(out->xi, r, j) = 0;
    if (r == r0) break;
    /* tmp_j = b_rj beta_rj / c_r; beta_{r-1,i} = sum_j A_ij tmp_j;
     * xi_{r-1,r}(i, j) = alpha-hat_{r-1,i} A_ij tmp_j */
    const double *b = job->rows + r * w, *c = b + 2 * k;
    const double *prev = alpha - w;
    for (int64_t j = 0; j < k; j++) tmp[j] = b[j] * next[j] / c[0];
    for (int64_t i = 0; i < k; i++) {
      const double *Ai = A + i * k;
      double sum = 0;
      for (int64_t j = 0; j < k; j++) {
        const double x = Ai[j] * tmp[j];
        sum += x;
        const double v = prev[i] * x;
        if (xs) xs[i * k + j] += v;
        if (out->xi) LUMA_AT(out->xi, r, i * k + j) = v;
      }
      beta[i] = sum;
    }
    double *swap = next;
    next = beta;
    beta = swap;
  }
}

static void fb_chunk(void *ctx, int64_t chunk, int64_t s0, int64_t s1) {
  (void)chunk;
  for (int64_t s = s0; s < s1; s++) fb_sequence(ctx, s);
}

int64_t luma_hmm_fb_work(int64_t n, int64_t k, int64_t nseq) {
  return n * (2 * k + 2) + nseq * 3 * k;
}

luma_LoopStatus luma_hmm_forward_backward(luma_Threads *t, const luma_Mat *log_emis,
                                          const double *startprob, const double *transmat,
                                          const int64_t *offsets, int64_t nseq, int backward,
                                          luma_HmmOut *out, double *work) {
  const int64_t n = log_emis->rows, k = log_emis->cols;
  FbJob job = {log_emis, startprob, transmat, offsets, k, backward, out, work,
               work + n * (2 * k + 2)};
  const int64_t per = nseq > 0 ? n / nseq + 1 : 1;
  luma_Loop loop = {nseq, 1, (uint64_t)(per * k * (k + 2) * (backward ? 3 : 1)), 0, fb_chunk,
                    &job};
  return luma_parallel_for(t, &loop);
}

/* --------------------------------------------------------------- Viterbi */

typedef struct VJob {
  const luma_Mat *log_emis;
  const double *start, *trans;
  const int64_t *offsets;
  int64_t k;
  double *logprob;
  int64_t *path;
  double *delta;   /* nseq x 2k: the rolling pair */
  int32_t *back;   /* n x k backpointers */
} VJob;

static void viterbi_sequence(const VJob *job, int64_t s) {
  const int64_t k = job->k;
  const int64_t r0 = job->offsets[s], r1 = job->offsets[s + 1];
  double *cur = job->delta + s * 2 * k, *nxt = cur + k;
  for (int64_t j = 0; j < k; j++) cur[j] = job->start[j] + LUMA_AT(job->log_emis, r0, j);
  for (int64_t r = r0 + 1; r < r1; r++) {
    int32_t *bp = job->back + r * k;
    for (int64_t j = 0; j < k; j++) {
      double best = -INFINITY;
      int32_t arg = 0;
      for (int64_t i = 0; i < k; i++) {
        const double v = cur[i] + job->trans[i * k + j];
        if (v > best) {
          best = v;
          arg = (int32_t)i;
        }
      }
      nxt[j] = best + LUMA_AT(job->log_emis, r, j);
      bp[j] = arg;
    }
    double *swap = cur;
    cur = nxt;
    nxt = swap;
  }
  double best = -INFINITY;
  int64_t state = 0;
  for (int64_t j = 0; j < k; j++)
    if (cur[j] > best) {
      best = cur[j];
      state = j;
    }
  job->logprob[s] = best;
  for (int64_t r = r1 - 1; r >= r0; r--) {
    job->path[r] = state;
    if (r > r0) state = job->back[r * k + state];
  }
}

static void viterbi_chunk(void *ctx, int64_t chunk, int64_t s0, int64_t s1) {
  (void)chunk;
  for (int64_t s = s0; s < s1; s++) viterbi_sequence(ctx, s);
}

int64_t luma_hmm_viterbi_work(int64_t n, int64_t k, int64_t nseq) {
  return nseq * 2 * k * (int64_t)sizeof(double) + n * k * (int64_t)sizeof(int32_t);
}

luma_LoopStatus luma_hmm_viterbi(luma_Threads *t, const luma_Mat *log_emis,
                                 const double *log_start, const double *log_trans,
                                 const int64_t *offsets, int64_t nseq, double *logprob,
                                 int64_t *path, void *work) {
  const int64_t n = log_emis->rows, k = log_emis->cols;
  double *delta = work;
  VJob job = {log_emis, log_start, log_trans, offsets, k, logprob, path, delta,
              (int32_t *)(delta + nseq * 2 * k)};
  const int64_t per = nseq > 0 ? n / nseq + 1 : 1;
  luma_Loop loop = {nseq, 1, (uint64_t)(per * k * (k + 1)), 0, viterbi_chunk, &job};
  return luma_parallel_for(t, &loop);
}
