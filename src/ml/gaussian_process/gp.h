/*
 * gp.h - the dense linear algebra Gaussian processes need beyond
 * luma.linalg (no Lua).
 *
 * The gradient of a GP's log marginal likelihood (Rasmussen & Williams
 * 2006, eq. 5.9) and the Laplace classifier's (Alg. 5.1) need the inverse
 * of K = L L^T given its Cholesky factor L.  LAPACK's dpotri forms it in
 * n^3 / 3 + n^3 / 3 flops (the triangular inverse, then its product with
 * its transpose), a third of what a solve against the identity costs
 * (2 n^3), which is what keeps a hyperparameter fit on 2,000 points
 * within scikit-learn's time.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_GP_H
#define LUMA_ML_GP_H

#include "core/matrix.h"

/* out = (L L^T)^-1, full and exactly symmetric, from the lower triangle
 * of the n x n factor l (its upper triangle is not read).  out must be a
 * contiguous row-major n x n matrix distinct from l.  Returns 0, or the
 * 1-based index of a zero diagonal element of l (then out is unspecified). */
int64_t luma_gp_cho_inverse(const luma_Mat *l, luma_Mat *out);

#endif
