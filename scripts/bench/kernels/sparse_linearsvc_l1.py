# The peer of sparse_linearsvc_l1.lua: the same sparse matrix and labels
# (built from the same formula with NumPy and scipy.sparse), fitted by
# scikit-learn's LinearSVC(penalty="l1", dual=False) (LIBLINEAR); best of
# 2 fits.
# SPDX-License-Identifier: MIT
import sys, time, warnings
import numpy as np
import scipy.sparse as sp
from sklearn.svm import LinearSVC
warnings.simplefilter("ignore")
argv = [int(float(a)) for a in sys.argv[1:]]
n, m, per = (argv + [50000, 50000, 20][len(argv):])[:3]
e = np.arange(n * per, dtype=float)
a = e * 0.6180339887498949
f = a - np.floor(a)
S = sp.csr_matrix((e % 3 + 1, (np.floor(e / per).astype(np.int64),
                               np.floor(f ** 2 * m).astype(np.int64))), shape=(n, m))
S.sum_duplicates()
norms = np.sqrt(np.asarray(S.multiply(S).sum(axis=1)).ravel())
S = sp.csr_matrix(sp.diags(1 / norms) @ S)
j = np.arange(m, dtype=float)
w = (j * 7 % 11) / 11 - 0.45
y = (S @ w > 0).astype(int)
best = float("inf")
for _ in range(2):
    t0 = time.perf_counter()
    model = LinearSVC(penalty="l1", dual=False, random_state=1).fit(S, y)
    best = min(best, time.perf_counter() - t0)
print("passes %d accuracy %.4f zero weights %d" % (model.n_iter_, model.score(S, y),
      int((model.coef_ == 0).sum())), file=sys.stderr)
print("time", best)
