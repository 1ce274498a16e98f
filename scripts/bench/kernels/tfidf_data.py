# The tf-idf-like matrix and labels of tfidf_data.lua (its comment gives
# the formula), built with NumPy and scipy.sparse:
#   S, y = tfidf_data.make(n, m, per)
# SPDX-License-Identifier: MIT
import numpy as np
import scipy.sparse as sp


def make(n, m, per):
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
    return S, (S @ w > 0).astype(int)
