# scikit-learn's fit time of TSNE (Barnes-Hut, perplexity 30, 1,000
# iterations, PCA init) on digits (load_digits: the data Luma bundles);
# one fit.
# SPDX-License-Identifier: MIT
import sys, time
from sklearn.datasets import load_digits
from sklearn.manifold import TSNE
X = load_digits().data
t0 = time.perf_counter()
model = TSNE(perplexity=30, n_iter=1000, init="pca", random_state=0)
model.fit(X)
elapsed = time.perf_counter() - t0
print("KL divergence %.6f after %d iterations" % (model.kl_divergence_, model.n_iter_ + 1), file=sys.stderr)
print("time", elapsed)
