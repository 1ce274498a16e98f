/*
 * grid_mrf.h - the binary image-denoising Markov random field on an
 * H x W grid of 4-neighbours (no Lua).
 *
 * Spins x_i in {-1, +1} (row-major, i = r W + c), an external field f_i
 * per pixel (f = eta y + h for a noisy image y: Bishop, Pattern
 * Recognition and Machine Learning, 2006, sec. 8.3.3; Barber, BRML,
 * 2012, sec. 4.2.5 / example 28.5) and one coupling beta on every
 * neighbour pair:
 *   E(x) = -beta sum_{i~j} x_i x_j - sum_i f_i x_i,   p(x) = exp(-E(x)) / Z.
 * Inference: iterated conditional modes, Gibbs sampling, loopy belief
 * propagation (sum- and max-product) and, for beta >= 0, the exact MAP by
 * a minimum s-t cut (Greig, Porteous and Seheult 1989; Boykov and
 * Kolmogorov 2004; maxflow.h).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_GRID_MRF_H
#define LUMA_ML_GRID_MRF_H

#include <stdint.h>

#include "core/parallel.h"
#include "pgm/maxflow.h"
#include "stats/random.h"

/* E(x) for spins x (n = H W), the field f and beta. */
double luma_grid_energy(const double *x, const double *f, double beta, int64_t H, int64_t W);

/* Iterated conditional modes (Besag 1986) from x, in raster order: each
 * pixel takes the spin of lower energy given its neighbours (a tie keeps
 * the current one), so E never increases.  Stops after a sweep that
 * changes nothing, or after max_sweeps; *sweeps and *changed (in the last
 * sweep) report. */
luma_LoopStatus luma_grid_icm(luma_Threads *t, double *x, const double *f, double beta,
                              int64_t H, int64_t W, int64_t max_sweeps, int64_t *sweeps,
                              int64_t *changed);

/* Gibbs sampling from x in raster order: p(x_i = +1 | rest) =
 * sigmoid(2 (f_i + beta sum_j x_j)).  burn_in sweeps are discarded, then
 * after each of n_sweeps more, freq[i] counts x_i = +1 (divided by
 * n_sweeps at the end: the estimate of the marginal).  x ends as the last
 * sample. */
luma_LoopStatus luma_grid_gibbs(luma_Threads *t, luma_Rng *rng, double *x, const double *f,
                                double beta, int64_t H, int64_t W, int64_t burn_in,
                                int64_t n_sweeps, double *freq);

/* Loopy belief propagation with parallel (flooding) updates.  Messages
 * are normalized, msg[4 i + d] = m_{k -> i}(+1) from the neighbour k of i
 * in direction d (up, down, left, right; 1/2 where the grid ends):
 *   sum-product  m_{i->j}(x_j) ∝ sum_{x_i} exp(beta x_i x_j + f_i x_i) prod_{k~i, k!=j} m_{k->i}(x_i)
 *   max-product  the same with max for the sum
 * (Koller and Friedman, Probabilistic Graphical Models, 2009, sec. 11.3
 * and 13.3; Barber sec. 5.1).  Each new message is damped,
 * (1 - damping) new + damping old; the iteration stops when no message
 * changed by more than tol or after max_iter.  belief[i] is then the
 * normalized belief b_i(+1) (a marginal estimate, or a max-marginal).
 * msg holds 4 H W numbers (set them to 1/2 to start), next the same,
 * errs luma_grid_bp_chunks(H, W), factors 2 H W scratch.  *iters and *delta (the last largest
 * change) report. */
int64_t luma_grid_bp_chunks(int64_t H, int64_t W);
luma_LoopStatus luma_grid_bp(luma_Threads *t, const double *f, double beta, int64_t H,
                             int64_t W, int max_product, double damping, double tol,
                             int64_t max_iter, double *msg, double *next, double *errs,
                             double *factors, double *belief, int64_t *iters, double *delta);

/* The graph of the MAP problem for beta >= 0 in g (n = H W nodes, arrays
 * sized for m = H (W - 1) + W (H - 1) edges), its flow set to 0:
 * source side = +1.  A neighbour pair costs 2 beta when its spins differ
 * (-beta x_i x_j = -beta + 2 beta [x_i != x_j]) and pixel i costs 2|f_i|
 * when its spin disagrees with the sign of f_i, so
 *   E(x) = cut(x) - beta (#pairs) - sum |f_i|. */
void luma_grid_cut_graph(luma_Maxflow *g, const double *f, double beta, int64_t H, int64_t W);

#endif
