# Grid search of a scaler + logistic regression pipeline on breast_cancer
# with scikit-learn: 20 values of C (10^-3 .. 10^3, geometric) x 5
# stratified folds, n_jobs from argv[1] (default 1); best of 3 searches.
# SPDX-License-Identifier: MIT
import sys, time
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
n_jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 1
X, y = load_breast_cancer(return_X_y=True)
grid = {"logisticregression__C": list(10.0 ** (-3 + 6 * np.arange(20) / 19))}
best = float("inf")
for _ in range(3):
    search = GridSearchCV(make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)), grid, cv=5, n_jobs=n_jobs)
    t0 = time.perf_counter()
    search.fit(X, y)
    best = min(best, time.perf_counter() - t0)
print("best C %.6g, score %.6f" % (search.best_params_["logisticregression__C"], search.best_score_), file=sys.stderr)
print("time", best)
