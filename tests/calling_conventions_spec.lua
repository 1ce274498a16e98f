-- Calling conventions of errors (issue 14): a method called on something
-- that is not an instance ("bad self") and a bad argument fail with one
-- phrasing, located at the user's line (this file), never inside
-- lua/luma/*.lua.  The API fuzzer (tests/c/api_fuzz.lua) checks the same
-- over every public function and method; these pin the central checks.
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
