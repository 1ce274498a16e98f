# 5-fold cross-validated Ridge on diabetes with scikit-learn, whole process.
# SPDX-License-Identifier: MIT
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import cross_val_score
X, y = load_diabetes(return_X_y=True)
print("%.6f" % cross_val_score(Ridge(alpha=1.0), X, y, cv=5).mean())
