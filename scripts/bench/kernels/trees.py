# The peer side of the tree and ensemble rows (scikit-learn, XGBoost):
#   python3 trees.py MODEL N D DATA_DIR [THREADS]
# MODEL: tree (DecisionTreeClassifier fit), forest (RandomForestClassifier,
# 100 trees, fit + predict, n_jobs = THREADS), hgb (HistGradientBoosting-
# Classifier, 100 iterations, fit; OpenMP threads from OMP_NUM_THREADS, set
# by the row), xgb (XGBoost's hist method, 31 leaves grown loss-guided,
# learning rate 0.1, 100 rounds).  The data are make_classification(N, D,
# random_state=0) saved once as DATA_DIR/classification-NxD-{X,y}.npy
# (trees.lua reads the same files; `python3 trees.py data N D DATA_DIR`
# only writes them).  Rows report the time on stdout; hgb and xgb fit the
# first 80% of the rows and print the test accuracy on the rest to stderr.
# SPDX-License-Identifier: MIT
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
elif model == "forest":
    from sklearn.ensemble import RandomForestClassifier
    t0 = time.perf_counter()
    m = RandomForestClassifier(n_estimators=100, n_jobs=threads, random_state=0).fit(X, y)
    m.predict(X)
    print("time", time.perf_counter() - t0)
elif model in ("hgb", "xgb"):
    cut = n * 4 // 5
    Xtr, ytr, Xte, yte = X[:cut], y[:cut], X[cut:], y[cut:]
    if model == "hgb":
        from sklearn.ensemble import HistGradientBoostingClassifier
        m = HistGradientBoostingClassifier(max_iter=100, early_stopping=False)
    else:
        import xgboost
        m = xgboost.XGBClassifier(tree_method="hist", grow_policy="lossguide", max_leaves=31,
                                  max_depth=0, learning_rate=0.1, n_estimators=100,
                                  max_bin=255, n_jobs=threads)
    t0 = time.perf_counter()
    m.fit(Xtr, ytr)
    elapsed = time.perf_counter() - t0
    print("accuracy", (m.predict(Xte) == yte).mean(), file=sys.stderr)
    print("time", elapsed)
