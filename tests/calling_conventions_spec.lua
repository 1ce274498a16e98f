-- Calling conventions of errors (issue 14): a method called on something
-- that is not an instance ("bad self") and a bad argument fail with one
-- phrasing, located at the user's line (this file), never inside
-- lua/luma/*.lua.  The API fuzzer (tests/c/api_fuzz.lua) checks the same
-- over every public function and method; these pin the central checks.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")

local X, y = luma.eye(3), luma.matrix{ 1, 2, 3 }

-- The error of fn(), which must be raised.
local function error_of(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return tostring(err)
end

describe("bad self", function()
  it("is reported by an estimator's methods, at the caller's line", function()
    local model = luma.linear.Ridge{}
    local err = error_of(function() model.fit(X, y) end) -- model:fit(X, y) meant
    assert.matches("^[^\n]*calling_conventions_spec%.lua:%d+: bad self to 'fit' %(luma%.linear%."
      .. "Ridge expected, got luma%.Matrix%)", err)
    err = error_of(function() luma.linear.Ridge.methods.fit(nil, X, y) end)
    assert.matches("calling_conventions_spec%.lua:%d+: bad self to 'fit' %(luma%.linear%.Ridge "
      .. "expected, got nil%)", err)
    -- an instance of another class is not an instance of this one
    err = error_of(function() luma.linear.Ridge.methods.predict(luma.linear.Lasso{}, X) end)
    assert.matches("bad self to 'predict' %(luma%.linear%.Ridge expected, got "
      .. "luma%.linear%.Lasso%)", err)
    -- the methods every estimator shares
    err = error_of(function() model.get_params(true) end)
    assert.matches("calling_conventions_spec%.lua:%d+: bad self to 'get_params' %(an estimator "
      .. "expected, got boolean%)", err)
  end)

  it("leaves the methods' own argument errors where they were", function()
    local err = error_of(function() luma.linear.Ridge{}:fit(X, "y") end)
    assert.matches("calling_conventions_spec%.lua:%d+: bad argument #2 to 'fit'", err)
  end)

  it("is reported by distributions and conjugate priors", function()
    local d = luma.dist.Normal{}
    local err = error_of(function() d.pdf(0) end) -- d:pdf(0) meant
    assert.matches("calling_conventions_spec%.lua:%d+: bad self to 'pdf' %(luma%.dist%.Normal "
      .. "expected, got number%)", err)
    err = error_of(function() luma.bayes.BetaBernoulli.map(nil) end)
    assert.matches("calling_conventions_spec%.lua:%d+: bad self to 'map' %(luma%.bayes%."
      .. "BetaBernoulli expected, got nil%)", err)
    -- class functions are not methods; aliases stay one function
    assert.near(2, luma.dist.Normal.fit(luma.matrix{ 1, 2, 3 }).mu, 1e-15)
    assert.equal(luma.dist.Poisson.pdf, luma.dist.Poisson.pmf)
  end)

  it("is reported by Tables, Categoricals and splitters", function()
    local T = luma.Table{ a = { 1, 2 } }
    assert.matches("calling_conventions_spec%.lua:%d+: bad self to 'nrows' %(luma%.Table "
      .. "expected, got nil%)", error_of(function() T.nrows() end))
    local c = luma.Table.Categorical{ "x", "y" }
    assert.matches("bad self to 'get' %(luma%.Categorical expected, got number%)",
      error_of(function() c.get(1) end))
    local cv = luma.model_selection.KFold{ n_splits = 2 }
    assert.matches("calling_conventions_spec%.lua:%d+: bad self to 'split' %(luma%."
      .. "model_selection%.KFold expected, got luma%.Matrix%)",
      error_of(function() cv.split(X) end))
  end)
end)

describe("bad arguments", function()
  it("name the function and the problem at the caller's line", function()
    support.errors_with("calling_conventions_spec%.lua:%d+: bad argument #1 to 'get' %(row index "
      .. "in 1%.%.2 expected, got 3%)", function() luma.Table.Categorical{ "x", "y" }:get(3) end)
    support.errors_with("calling_conventions_spec%.lua:%d+: luma%.datasets%.make_blobs: n_samples "
      .. "must be an integer <= 2147483647, got 9223372036854775807",
      function() luma.datasets.make_blobs(math.maxinteger) end)
    support.errors_with("calling_conventions_spec%.lua:%d+: check_cv: cv must be an integer >= 2, "
      .. "got 1", function() luma.model_selection.check_cv(1, X) end)
    support.errors_with("calling_conventions_spec%.lua:%d+: bad argument #1 to 'cross_val_predict' "
      .. "%(an estimator expected, got number%)",
      function() luma.model_selection.cross_val_predict(5, X, y) end)
  end)

  it("raised by a class's fit reach the caller of fit, whatever their depth", function()
    -- GridSearch's fit raises at its own caller, the contract's fit wrapper
    support.errors_with("calling_conventions_spec%.lua:%d+: GridSearch: the estimator parameter "
      .. "is required", function() luma.model_selection.GridSearch{}:fit(X, y) end)
    support.errors_with("calling_conventions_spec%.lua:%d+: bad argument #1 to 'fit' %(X is 0 x 3; "
      .. "Ridge needs at least one row and one column%)",
      function() luma.linear.Ridge{}:fit(luma.zeros(0, 3), luma.zeros(0, 1)) end)
  end)

  it("of metrics name the metric called, at the caller's line", function()
    -- f1_score checks through confusion_matrix, two calls down
    support.errors_with("calling_conventions_spec%.lua:%d+: luma%.metrics%.f1_score: y_true must "
      .. "be a luma%.Matrix, a list of labels, a categorical column or a one%-column luma%.Table, "
      .. "got nil", function() luma.metrics.f1_score(nil, y) end)
  end)

  it("keep the argument checks of a called function at the user's line (args.relay)", function()
    support.errors_with("calling_conventions_spec%.lua:%d+: bad argument #1 to 'take'",
      function() luma.Table.Categorical{ "x", "y" }:take{ 5 } end)
  end)
end)

-- Issue 29, item 7: state and value errors raised with no location (a
-- family's checks raise with level 0) or inside the library came without
-- the user's file and line; relays (luma.util.args) now raise them at the
-- caller's line, as luaL_error does for a C function.
describe("errors of values and state", function()
  -- err, line: the error of fn() and the line fn runs its call on (fn
  -- calls `at()` on the line of the call).
  local line
  local function at() line = debug.getinfo(2, "l").currentline end
  local function located(fn, text)
    local err = error_of(fn)
    assert.matches("^[^\n]*calling_conventions_spec%.lua:" .. line .. ": ", err)
    assert.truthy(err:find(text, 1, true), err)
  end
  local Xs = luma.random.Generator(1):normal(5, 3)

  it("carry the caller's line for models", function()
    located(function() at(); luma.cluster.KMeans{ n_clusters = 10 }:fit(Xs) end,
      "n_clusters = 10 is more than the 5 rows of X")
    located(function() at(); luma.manifold.TSNE{ perplexity = 30 }:fit_transform(Xs) end,
      "perplexity = 30 must be less than n_samples = 5")
    located(function() at(); luma.decomposition.PCA{ n_components = 7 }:fit(Xs) end,
      "n_components = 7 is more than min(n_samples, n_features)")
    located(function() at(); luma.tsa.ARIMA{ order = { -1, 0, 0 } } end,
      "parameter 'order' must be {p, d, q}: 3 integers >= 0, got {-1, 0, 0}")
    located(function() at(); luma.tsa.ARIMA{}:forecast(3) end, "forecast called before fit")
    local bad = Xs:copy()
    bad:set(2, 3, 0 / 0)
    local svc = luma.svm.SVC{}:fit(Xs, luma.matrix{ 1, 2, 1, 2, 1 })
    located(function() at(); svc:predict(bad) end, "X has a non-finite element, nan at row 2")
  end)

  it("carry the caller's line for functions and luma.save", function()
    located(function() at(); luma.tsa.arma_generate({ 1.5 }, {}, 10) end,
      "arma_generate: the AR coefficients are not stationary")
    located(function() at(); luma.tsa.acf(nil) end, "bad argument #1 to 'acf'")
    located(function() at(); luma.cluster.knn_graph(nil, 2) end, "bad argument #1 to 'knn_graph'")
    located(function() at(); luma.markov.n_step(nil, 2) end, "bad argument to 'n_step'")
    located(function() at(); luma.kernels.rbf(true) end, "options table expected")
    located(function() at(); luma.optim.schedules.cosine(true) end, "options table expected")
    located(function() at(); luma.model_selection.train_test_split(X, y, { size = 1 }) end,
      "unknown option 'size'")
    located(function() at(); luma.save(X, "/nonexistent/x.luma") end,
      "luma.save: cannot write /nonexistent/x.luma")
    located(function() at(); luma.persist.save(X, "/nonexistent/x.luma") end,
      "luma.save: cannot write /nonexistent/x.luma")
    located(function() at(); luma.load("/nonexistent/x.luma") end, "/nonexistent/x.luma")
    -- label readers (luma.util.labels) raise for their caller's caller
    located(function() at(); require("luma.estimator").encode_labels({ { 1 } }) end,
      "y[1] is a table; labels are numbers, strings or booleans")
    -- a NaN label matches no other (it used to fail inside the library)
    assert.equal(0, luma.metrics.matthews_corrcoef(luma.matrix{ 0 / 0, 1 }, luma.matrix{ 1, 0 / 0 }))
  end)
end)
