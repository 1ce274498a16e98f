-- luma.decomposition.KernelPCA (lua/luma/decomposition/kernel_pca.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr; X = StandardScaler().fit_transform(
-- wine data), Xn = X[:3] * 0.9 + 0.05:
-- rbf: KernelPCA(n_components=3, kernel="rbf", gamma=0.1,
--   fit_inverse_transform=True).fit(X): eigenvalues_, transform(X[:2]),
--   transform(Xn), inverse_transform(transform(Xn))[:, :4];
-- poly: KernelPCA(n_components=2, kernel="poly", degree=2,
--   fit_inverse_transform=True) (gamma 1/13, coef0 1): the same.
-- (The values are in sklearn_reference.lua, shared with truncated_svd_spec.lua.)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with

local rows = support.rows

local REF = require("decomposition.sklearn_reference")

local raw = luma.datasets.load("wine")
local X = (raw - raw:mean(1)):div(raw:std(1))
local Xn = X:sub(1, 3) * 0.9 + 0.05
local KPCA = luma.decomposition.KernelPCA

describe("luma.decomposition.KernelPCA", function()
  it("matches scikit-learn with an RBF kernel, pre-images included", function()
    local k = KPCA{ n_components = 3, kernel = "rbf", gamma = 0.1, fit_inverse_transform = true }:fit(X)
    assert.matrix_near(rows(REF.rbf.eigenvalues, 1), k.eigenvalues, 1e-10)
    assert.matrix_near(rows(REF.rbf.fit_transform, 3), k:transform(X:sub(1, 2)), 1e-9)
    assert.matrix_near(rows(REF.rbf.transform, 3), k:transform(Xn), 1e-9)
    assert.matrix_near(rows(REF.rbf.inverse, 4), k:inverse_transform(k:transform(Xn)):sub(nil, nil, 1, 4), 1e-8)
  end)

  it("matches scikit-learn with a polynomial kernel (gamma 1/n_features of each input)", function()
    local k = KPCA{ n_components = 2, kernel = "poly", degree = 2, fit_inverse_transform = true }:fit(X)
    assert.matrix_near(rows(REF.poly.eigenvalues, 1), k.eigenvalues, 1e-10)
    assert.matrix_near(rows(REF.poly.transform, 2), k:transform(Xn), 1e-9)
    assert.matrix_near(rows(REF.poly.inverse, 4), k:inverse_transform(k:transform(Xn)):sub(nil, nil, 1, 4), 1e-8)
  end)

  it("is PCA with a linear kernel (eigenvalues N lambda, same projections up to sign)", function()
    local k = KPCA{ n_components = 3 }:fit(X)
    local p = luma.decomposition.PCA{ n_components = 3 }:fit(X)
    assert.matrix_near(p.explained_variance * X:rows(), k.eigenvalues, 1e-9)
    assert.matrix_near(p:transform(Xn):abs(), k:transform(Xn):abs(), 1e-9)
    -- fit_transform's shortcut equals transform of the training rows
    assert.matrix_near(k:fit_transform(X):sub(1, 4), k:transform(X:sub(1, 4)), 1e-9)
  end)

  it("takes luma.kernels objects and precomputed Gram matrices", function()
    local obj = KPCA{ n_components = 2, kernel = luma.kernels.rbf{ gamma = 0.1 } }:fit(X)
    local named = KPCA{ n_components = 2, kernel = "rbf", gamma = 0.1 }:fit(X)
    assert.matrix_near(named.eigenvalues, obj.eigenvalues, 1e-12)
    local K = luma.kernels.rbf{ gamma = 0.1 }
    local pre = KPCA{ n_components = 2, kernel = "precomputed" }:fit(K(X))
    assert.matrix_near(named:transform(Xn), pre:transform(K(Xn, X)), 1e-10)
  end)

  it("refuses a non-PSD kernel, a missing pre-image map and NaN", function()
    local sig = KPCA{ kernel = "sigmoid", gamma = 5, coef0 = -3 }
    errors_with("not positive semi%-definite", function() sig:fit(X) end)
    local k = KPCA{ n_components = 2, kernel = "rbf" }:fit(X)
    errors_with("inverse_transform needs fit_inverse_transform = true", function() k:inverse_transform(luma.zeros(2, 13)) end)
    local bad = X:copy()
    bad:set(1, 3, 0 / 0)
    errors_with("KernelPCA: X has a non%-finite element", function() KPCA{}:fit(bad) end)
    errors_with("a precomputed kernel must be square", function() KPCA{ kernel = "precomputed" }:fit(X) end)
  end)
end)
