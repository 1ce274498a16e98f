/*
 * lda.h - the per-document kernels of luma.text.LatentDirichletAllocation
 * (variational Bayes for LDA: Blei, Ng and Jordan, JMLR 2003; the online
 * form of Hoffman, Blei and Bach, NIPS 2010), as scikit-learn 1.2.1
 * computes them (no Lua).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_TEXT_LDA_H
#define LUMA_ML_TEXT_LDA_H

#include "core/matrix.h"
#include "core/parallel.h"
#include "sparse/sparse.h"

/* The digamma function by recurrence up to 6 and the asymptotic series
 * (the approximation scikit-learn's LDA uses, so results agree to the
 * last bits). */
double luma_lda_psi(double x);

/* out[i][j] = psi(m[i][j]) - psi(sum_j m[i][j]) (E[log theta] under
 * Dirichlet rows). */
void luma_lda_dirichlet_expectation(luma_Threads *t, const luma_Mat *m, luma_Mat *out);

/* The E-step: for each document d (row of x), starting from gamma =
 * doc_topic[d] (updated in place), iterates
 *   gamma <- prior + exp(E[log theta]) * (x_d / phi_norm) exp(E[log beta])^T
 * until the mean absolute change is below tol or max_iter passes.  With
 * sstats (k x V, contiguous rows, zeroed by the caller), adds the expected
 * counts exp(E[log theta_d]) outer (x_d / phi_norm) to it.  ew (k x V) is
 * exp(E[log beta]).  The documents are cut into `blocks` contiguous
 * blocks (luma_lda_blocks: a function of the data, so results do not
 * depend on the thread count) run in parallel, each with its own scratch
 * and expected counts, which are added in block order at the end; scratch
 * holds blocks * luma_lda_scratch_block(x, k) doubles, then (blocks - 1)
 * k V more when sstats is given.  Returns nonzero if the meter stopped. */
int64_t luma_lda_blocks(const luma_Sparse *x, int64_t k, int want_sstats);
size_t luma_lda_scratch_block(const luma_Sparse *x, int64_t k);
int luma_lda_estep(luma_Threads *t, const luma_Sparse *x, const luma_Mat *ew, double prior,
                   int max_iter, double tol, luma_Mat *doc_topic, luma_Mat *sstats,
                   int64_t blocks, double *scratch);

/* sum_d sum_{w in d} x_dw log sum_k exp(edt[d][k] + ec[k][w]). */
double luma_lda_doc_bound(luma_Threads *t, const luma_Sparse *x, const luma_Mat *edt,
                          const luma_Mat *ec);

#endif
