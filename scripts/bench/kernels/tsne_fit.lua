-- Fit time of TSNE (Barnes-Hut, perplexity 30, 1,000 iterations, PCA
-- init) on the bundled digits (1,797 x 64); one fit.  The KL divergence
-- goes to stderr (tsne_fit.py prints scikit-learn's).
-- SPDX-License-Identifier: MIT
local X = luma.datasets.load("digits")
local t0 = luma.now()
local model = luma.manifold.TSNE{ perplexity = 30, n_iter = 1000, seed = 0 }
model:fit(X)
local elapsed = luma.now() - t0
io.stderr:write(string.format("KL divergence %.6f after %d iterations\n", model.kl_divergence, model.n_iter + 1))
print("time " .. elapsed)
