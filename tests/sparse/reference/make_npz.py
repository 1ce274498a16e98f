# Writes the .npz fixtures of tests/sparse/npz_spec.lua with SciPy, as
# users' files are written:
#     /usr/bin/python3 tests/sparse/reference/make_npz.py
# (Debian's python3-scipy; scipy 1.10).  Values are small integers and
# halves, so the Lua test compares them exactly.
# SPDX-License-Identifier: MIT
import os
import numpy as np
import scipy.sparse as sp

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
os.makedirs(OUT, exist_ok=True)


def out(name):
    return os.path.join(OUT, name)


# the 4 x 5 matrix every fixture holds (some in another dtype or layout)
D = np.array([[0, 1.5, 0, 0, -2],
              [0, 0, 0, 0, 0],
              [3, 0, 0.5, 0, 0],
              [0, 0, 4, 0, 7]])
A = sp.csr_matrix(D)

sp.save_npz(out("csr_compressed.npz"), A, compressed=True)
sp.save_npz(out("csc_stored.npz"), A.tocsc(), compressed=False)
sp.save_npz(out("coo_int64.npz"), sp.coo_matrix(
    (np.array([1, 2, 3, -4], dtype=np.int64), (np.array([0, 2, 2, 3]), np.array([1, 0, 0, 4]))),
    shape=(4, 5)))  # (3, 1) twice: 2 + 3
sp.save_npz(out("csr_float32.npz"), A.astype(np.float32))
# unsorted columns and a duplicate in row 1, as csr_matrix keeps them
U = sp.csr_matrix((np.array([-2.0, 1.0, 0.5]), np.array([4, 1, 1]), np.array([0, 3, 3, 3, 3])),
                  shape=(4, 5))
sp.save_npz(out("csr_unsorted.npz"), U)
sp.save_npz(out("complex.npz"), A.astype(np.complex128))
sp.save_npz(out("dia.npz"), sp.dia_matrix(D))
# a column index out of range (5 in a 5-column matrix): SciPy writes it
# without a full check
np.savez(out("bad_index.npz"), indices=np.array([1, 5], dtype=np.int32),
         indptr=np.array([0, 2, 2, 2, 2], dtype=np.int32), format=b"csr",
         shape=(4, 5), data=np.array([1.0, 2.0]))
