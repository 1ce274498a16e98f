-- Bad input to luma.svm: every case is a clear error (or, for a kernel
-- that is not positive semi-definite, a warning) naming the parameter or
-- the argument at fault.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local svm = luma.svm
local M = luma.matrix
local support = require("support")

local X, y = luma.datasets.load("iris")
local Xb, yb = X:sub(51, 150, nil, nil), y:sub(51, 150, nil, nil)

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

describe("luma.svm on bad input", function()
  it("refuses a single class", function()
    local one = luma.full(100, 1, 1)
    for _, C in ipairs({ svm.SVC, svm.NuSVC, svm.LinearSVC, svm.L2SVC, svm.KernelNearestPrototype }) do
      fails("needs at least 2 classes, y has only the class 1", function() C{}:fit(Xb, one) end)
    end
  end)

  it("refuses more than two classes in the binary-only variants", function()
    for _, C in ipairs({ svm.L2SVC, svm.NoBiasSVC, svm.SubgradientSVC }) do
      fails("is a binary classifier, but y has 3 classes", function() C{}:fit(X, y) end)
    end
  end)

  it("refuses non-finite values", function()
    local bad = Xb:copy()
    bad:set(7, 3, 0 / 0)
    fails("bad argument #1 to 'fit' (SVC: X has a non-finite element, nan at row 7, column 3"
      .. "; impute missing values first, e.g. with luma.preprocessing.SimpleImputer)",
      function() svm.SVC{}:fit(bad, yb) end)
    fails("SVR: X has a non-finite element", function() svm.SVR{}:fit(bad, yb) end)
    fails("OneClassSVM: X has a non-finite element", function() svm.OneClassSVM{}:fit(bad) end)
    fails("LinearSVC: X has a non-finite element", function() svm.LinearSVC{}:fit(bad, yb) end)
    bad:set(7, 3, math.huge)
    fails("X has a non-finite element, inf at row 7", function() svm.NuSVC{}:fit(bad, yb) end)
    fails("X has a non-finite element", function() svm.SVC{}:fit(Xb, yb):predict(bad) end)
    fails("y contains NaN", function() svm.SVR{}:fit(Xb, yb:mul(0 / 0)) end)
  end)

  it("checks precomputed Gram matrices", function()
    fails("SVC: a precomputed kernel must be a square Gram matrix, X is 100 x 4",
      function() svm.SVC{ kernel = "precomputed" }:fit(Xb, yb) end)
    local K = Xb * Xb:t()
    local asym = K:copy()
    asym:set(1, 2, asym:get(1, 2) + 1)
    fails("SVC: the precomputed Gram matrix is not symmetric", function()
      svm.SVC{ kernel = "precomputed" }:fit(asym, yb)
    end)
    local m = svm.SVC{ kernel = "precomputed" }:fit(K, yb)
    fails("bad argument #1 to 'predict' (X has 4 columns but luma.svm.SVC was fitted on 100)",
      function() m:predict(Xb) end)
  end)

  it("warns when the kernel is not positive semi-definite", function()
    -- a symmetric matrix with eigenvalues 3 and -1
    local K = M{ { 1, 2 }, { 2, 1 } }
    local warnings = support.capture_warnings(function()
      svm.SVC{ kernel = "precomputed" }:fit(K, M{ 0, 1 })
    end)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:find("luma.svm: SVC: the kernel is not positive semi-definite on "
      .. "the training data (smallest eigenvalue of the Gram matrix -1)", 1, true))
  end)

  it("refuses gamma <= 0, C <= 0 and nu outside (0, 1]", function()
    fails("SVC: parameter 'gamma' must be a number or string > 0, got 0", function() svm.SVC{ gamma = 0 } end)
    fails("SVR: parameter 'gamma' must be a number or string > 0, got -1", function() svm.SVR{ gamma = -1 } end)
    fails("SVC: parameter 'gamma' must be a number > 0, \"scale\" or \"auto\", got \"big\"",
      function() svm.SVC{ gamma = "big" }:fit(Xb, yb) end)
    fails("SVC: parameter 'C' must be a number > 0, got 0", function() svm.SVC{ C = 0 } end)
    fails("SVR: parameter 'C' must be a number > 0, got -2", function() svm.SVR{ C = -2 } end)
    fails("LinearSVC: parameter 'C' must be a number > 0", function() svm.LinearSVC{ C = 0 } end)
    fails("NuSVC: parameter 'nu' must be a number > 0 and <= 1, got 0", function() svm.NuSVC{ nu = 0 } end)
    fails("NuSVC: parameter 'nu' must be a number > 0 and <= 1, got 1.5", function() svm.NuSVC{ nu = 1.5 } end)
    fails("NuSVR: parameter 'nu' must be a number > 0 and <= 1", function() svm.NuSVR{ nu = -0.1 } end)
    fails("OneClassSVM: parameter 'nu' must be a number > 0 and <= 1", function() svm.OneClassSVM{ nu = 2 } end)
    fails("SVC: parameter 'nu' must be a number > 0 and <= 1", function() svm.SVC{ nu = 2 } end)
  end)

  it("refuses an infeasible nu as scikit-learn does", function()
    -- 10 points of one class and 40 of the other: nu (10 + 40)/2 <= 10 needs nu <= 0.4
    local Xs = X:sub(41, 90, nil, nil)
    local ys = y:sub(41, 90, nil, nil)
    svm.NuSVC{ nu = 0.4 }:fit(Xs, ys)
    fails("NuSVC: specified nu is infeasible (parameter 'nu' = 0.5", function()
      svm.NuSVC{ nu = 0.5 }:fit(Xs, ys)
    end)
  end)

  it("refuses to predict before fit or with the wrong number of features", function()
    fails("SVC: predict called before fit", function() svm.SVC{}:predict(Xb) end)
    fails("OneClassSVM: decision_function called before fit", function() svm.OneClassSVM{}:decision_function(Xb) end)
    fails("LinearSVR: predict called before fit", function() svm.LinearSVR{}:predict(Xb) end)
    local m = svm.SVC{}:fit(Xb, yb)
    fails("bad argument #1 to 'predict' (X has 3 columns but luma.svm.SVC was fitted on 4)",
      function() m:predict(Xb:sub(1, 5, 1, 3)) end)
    fails("bad argument #1 to 'score_samples' (X has 5 columns but luma.svm.OneClassSVM was fitted on 4)",
      function() svm.OneClassSVM{}:fit(Xb):score_samples(luma.zeros(2, 5)) end)
  end)

  it("names the parameter of other mistakes", function()
    fails("SVC: parameter 'kernel' must be \"linear\", \"poly\", \"rbf\", \"sigmoid\", \"precomputed\"",
      function() svm.SVC{ kernel = "gaussian" }:fit(Xb, yb) end)
    fails("SVC: class_weight names the label 7, which is not in y",
      function() svm.SVC{ class_weight = { [7] = 2 } }:fit(Xb, yb) end)
    fails("SVC: parameter 'class_weight' must be nil, \"balanced\" or a table",
      function() svm.SVC{ class_weight = "even" }:fit(Xb, yb) end)
    fails("LinearSVC: penalty = \"l1\" needs loss = \"squared_hinge\" and dual = false",
      function() svm.LinearSVC{ penalty = "l1" }:fit(Xb, yb) end)
    fails("SVR: y must be one column, got 2", function() svm.SVR{}:fit(Xb, luma.zeros(100, 2)) end)
    fails("bad argument #3 to 'fit' (sample_weight must be finite and >= 0)",
      function() svm.SVC{}:fit(Xb, yb, luma.full(100, 1, -1)) end)
    fails("SVC: parameter 'cache_size' must be a number > 0", function() svm.SVC{ cache_size = 0 } end)
  end)

  it("checks the native solver's arguments", function()
    local native = require("luma.svm.native")
    fails("bad argument #2 to 'smo' (option 'rows' must be a non-empty n x 1 matrix",
      function() native.smo(Xb, {}) end)
    fails("bad argument #2 to 'smo' (rows[1] = 101.0 is not a row index in 1..100)",
      function() native.smo(Xb, { rows = M{ 101 }, y = M{ 1 } }) end)
    fails("bad argument #2 to 'smo' (y[2] = 0.0: classes must be +1 or -1)",
      function() native.smo(Xb, { rows = M{ 1, 2 }, y = M{ 1, 0 } }) end)
    fails("bad argument #2 to 'linear' (option 'solver' must be one of svc_dual, svr_dual, svc_l1)",
      function() native.linear(Xb, { solver = "tron", y = luma.ones(100, 1), C = luma.ones(100, 1) }) end)
  end)
end)
