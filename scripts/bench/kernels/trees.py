# The peer side of the tree and ensemble rows (scikit-learn, XGBoost):
#   python3 trees.py MODEL N D DATA_DIR [THREADS]
# The data are make_classification(N, D, random_state=0) saved once as
# DATA_DIR/classification-NxD-{X,y}.npy (trees.lua reads the same files;
# `python3 trees.py data N D DATA_DIR` only writes them).  The last
# fifth of the rows is a test set where a row reports accuracy.
import os
import sys
import time
import numpy as np

model, n, d, data_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
threads = int(sys.argv[5]) if len(sys.argv) > 5 else 1
prefix = os.path.join(data_dir, "classification-%dx%d" % (n, d))
if not os.path.exists(prefix + "-y.npy"):
    from sklearn.datasets import make_classification
    os.makedirs(data_dir, exist_ok=True)
    X, y = make_classification(n_samples=n, n_features=d, random_state=0)
    np.save(prefix + "-X.npy", X)
    np.save(prefix + "-y.npy", y.astype(float).reshape(-1, 1))
if model == "data":
    sys.exit(0)
X = np.load(prefix + "-X.npy")
y = np.load(prefix + "-y.npy").ravel()

if model == "tree":
    from sklearn.tree import DecisionTreeClassifier
    t0 = time.perf_counter()
    DecisionTreeClassifier(random_state=0).fit(X, y)
    print("time", time.perf_counter() - t0)
