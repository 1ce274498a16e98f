/*
 * hmm.h - the recursions of hidden Markov models over a matrix of log
 * emission probabilities (no Lua): the scaled forward-backward pass and
 * Viterbi decoding.
 *
 * The observations are one or more sequences stored back to back: rows
 * offsets[s] .. offsets[s + 1] - 1 of the n x k matrix log_emis hold
 * log p(x_t | z_t = j) of sequence s.  Sequences are the chunks of a
 * parallel-for (core/parallel.h): each writes its own rows and its own
 * per-sequence sums, which the caller adds in sequence order, so results
 * are bit-identical for any thread count.
 *
 * Forward-backward (Rabiner 1989, sec. III; Bishop, PRML sec. 13.2.4) is
 * scaled: with m_t = max_j log_emis[t][j] and b_tj = exp(log_emis[t][j] -
 * m_t) in (0, 1], alpha-hat_t = b_t .* (alpha-hat_{t-1} A) / c_t with c_t
 * the normalizer, so log p(x_1..T) = sum_t (log c_t + m_t) never under-
 * or overflows whatever T.  The first step applies no transition:
 * alpha-hat_1 is proportional to startprob .* b_1.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_HMM_H
#define LUMA_ML_HMM_H

#include <stdint.h>

#include "core/matrix.h"
#include "core/parallel.h"

/* What luma_hmm_forward_backward writes; any output pointer may be NULL.
 *   loglik[s]    log p(sequence s)  (-inf when it has zero probability)
 *   zero_at[s]   -1, or the first row (0-based, global) whose
 *                normalizer c_t is 0 or not finite
 *   filtered     n x k, alpha-hat_t = p(z_t | x_1..t)
 *   gamma        n x k, p(z_t | x_1..T)
 *   xi           n x k*k, row t = p(z_{t-1} = i, z_t = j | x) at column
 *                i*k + j (the first row of each sequence is zero)
 *   xi_sum       nseq blocks of k x k: sum over t of xi_t, per sequence
 * work: luma_hmm_fb_work doubles. */
typedef struct luma_HmmOut {
  double *loglik;
  int64_t *zero_at;
  luma_Mat *filtered, *gamma, *xi;
  double *xi_sum;
} luma_HmmOut;

int64_t luma_hmm_fb_work(int64_t n, int64_t k, int64_t nseq);
luma_LoopStatus luma_hmm_forward_backward(luma_Threads *t, const luma_Mat *log_emis,
                                          const double *startprob, const double *transmat,
                                          const int64_t *offsets, int64_t nseq, int backward,
                                          luma_HmmOut *out, double *work);

/* Viterbi decoding (Viterbi 1967; Rabiner 1989, sec. III-B) in log space:
 * path[t] (0-based state, ties to the lowest state) maximizes the joint
 * log probability, logprob[s] that maximum for sequence s.  log_start (k)
 * and log_trans (k x k row-major) are logarithms (-inf allowed).  work:
 * luma_hmm_viterbi_work bytes (doubles and backpointers). */
int64_t luma_hmm_viterbi_work(int64_t n, int64_t k, int64_t nseq);
luma_LoopStatus luma_hmm_viterbi(luma_Threads *t, const luma_Mat *log_emis,
                                 const double *log_start, const double *log_trans,
                                 const int64_t *offsets, int64_t nseq, double *logprob,
                                 int64_t *path, void *work);

#endif
