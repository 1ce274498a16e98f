-- The estimator contract (luma.estimator) through small estimators written
-- in Lua: schema validation, parameters, cloning, the fit/predict protocol
-- and its errors.  Expected values are closed forms on tiny data.
local luma = require("luma")
local estimator = require("luma.estimator")
local M = luma.matrix

-- Predicts a constant: the mean of y shifted by `offset` (a regressor).
local Constant = estimator.class{
  name = "test.Constant",
  kind = "regressor",
  doc = "Predicts mean(y) + offset.",
  params = {
    { name = "offset", type = "number", default = 0, doc = "added to the mean" },
    { name = "scale", type = "number", default = 1, gt = 0, doc = "multiplies the mean" },
    { name = "mode", type = "string", default = "mean", values = { "mean", "median" },
      doc = "statistic" },
    { name = "seed", type = "seed", doc = "unused; checks the seed type" },
  },
  fit = function(self, X, y)
    self.value = y:mean() * self.params.scale + self.params.offset
    self.fits = (self.fits or 0) + 1 -- reset by every fit: must stay 1
  end,
  predict = function(self, X)
    return luma.full(X:rows(), 1, self.value)
  end,
}

-- Wraps another estimator (a parameter of type estimator).
local Wrapper = estimator.class{
  name = "test.Wrapper",
  kind = "regressor",
  doc = "Fits its inner estimator.",
  params = { { name = "inner", type = "estimator", default = nil, doc = "the estimator" } },
  fit = function(self, X, y) self.fitted_inner = self.params.inner:clone():fit(X, y) end,
  predict = function(self, X) return self.fitted_inner:predict(X) end,
}

-- Classifies by the sign of the first column, keeping the labels.
local Sign = estimator.class{
  name = "test.Sign",
  kind = "classifier",
  doc = "Label of the larger class for x1 >= 0, the smaller otherwise.",
  params = {},
  fit = function(self, X, y)
    local _, classes = estimator.encode_labels(y)
    self.classes = classes
  end,
  predict = function(self, X)
    local codes = X:col(1):ge(0):add(1)
    return estimator.decode_labels(codes, self.classes)
  end,
}

local X = M{{1, 2}, {3, 4}, {5, 6}}
local y = M{1, 2, 6}

describe("estimator contract #smoke", function()
  it("builds instances from the schema's defaults and validated values", function()
    local m = Constant{}
    assert.same({ offset = 0, scale = 1, mode = "mean" }, m:get_params())
    m = Constant{ offset = 2, mode = "median", seed = 7 }
    assert.equal(2, m.params.offset)
    assert.equal("median", m:get_params().mode)
    assert.equal("Constant(offset=2, mode=\"median\", seed=7)", tostring(m))
    assert.equal("test.Constant", tostring(Constant))
  end)

  it("rejects unknown and ill-typed parameters, listing the valid ones", function()
    assert.has_error(function() Constant{ offest = 1 } end,
      "test.Constant: unknown parameter 'offest' (valid: offset, scale, mode, seed)")
    assert.has_error(function() Constant{ offset = "1" } end,
      "test.Constant: parameter 'offset' must be a number, got \"1\"")
    assert.has_error(function() Constant{ scale = 0 } end,
      "test.Constant: parameter 'scale' must be a number > 0, got 0")
    assert.has_error(function() Constant{ mode = "mode" } end,
      "test.Constant: parameter 'mode' must be one of \"mean\", \"median\", got \"mode\"")
    assert.has_error(function() Constant{ seed = 1.5 } end,
      "test.Constant: parameter 'seed' must be a seed (or nil), got 1.5")
    assert.has_error(function() Constant(3) end,
      "test.Constant: parameters must be given as a table, got number")
    assert.has_error(function() Constant{}:set_params{ offset = 0 / 0 } end)
  end)

  it("fits, returns itself and predicts", function()
    local m = Constant{ offset = 1 }
    assert.equal(m, m:fit(X, y))
    assert.is_true(m:is_fitted())
    assert.equal(2, m.n_features_in)
    assert.matrix_near({{4}, {4}}, m:predict(M{{0, 0}, {1, 1}})) -- mean 3, plus 1
  end)

  it("starts fresh on every fit", function()
    local m = Constant{}
    m:fit(X, y)
    m.extra = "left over"
    m:fit(X, M{0, 0, 3})
    assert.equal(1, m.fits)
    assert.is_nil(m.extra)
    assert.equal(1, m.value)
  end)

  it("refuses to predict before fit or on the wrong number of columns", function()
    assert.has_error(function() Constant{}:predict(X) end,
      "test.Constant: predict called before fit")
    local m = Constant{}:fit(X, y)
    assert.has_error(function() m:predict(M{1, 2}) end,
      "bad argument #1 to 'predict' (X has 1 columns but test.Constant was fitted on 2)")
    assert.has_error(function() m:predict({1, 2}) end,
      "bad argument #1 to 'predict' (X must be a luma.Matrix, got table)")
  end)

  it("checks fit's arguments", function()
    assert.has_error(function() Constant{}:fit(X, M{1, 2}) end,
      "bad argument #2 to 'fit' (X has 3 rows but y has 2)")
    assert.has_error(function() Constant{}:fit(X) end,
      "bad argument #2 to 'fit' (test.Constant needs targets y)")
    assert.has_error(function() Constant{}:fit(X, M{1, 0 / 0, 2}) end,
      "bad argument #2 to 'fit' (y contains NaN; drop or impute those rows first)")
    assert.has_error(function() Constant{}:fit("X", y) end,
      "bad argument #1 to 'fit' (X must be a luma.Matrix, got string)")
  end)

  it("scores regressors by R^2 and classifiers by accuracy", function()
    local m = Constant{}:fit(X, y)
    assert.equal(0, m:score(X, y)) -- predicting the mean: R^2 = 0
    local c = Sign{}:fit(M{-1, 1, 2}, M{10, 20, 20})
    assert.matrix_near({{10}, {20}}, c.classes)
    assert.matrix_near({{20}, {10}, {20}}, c:predict(M{3, -3, 0}))
    assert.equal(2 / 3, c:score(M{3, -3, 0}, M{20, 20, 20}))
  end)

  it("clones unfitted copies that do not share state", function()
    local m = Constant{ offset = 5 }:fit(X, y)
    local c = m:clone()
    assert.is_false(c:is_fitted())
    assert.same(m:get_params(), c:get_params())
    c:set_params{ offset = 6 }
    assert.equal(5, m.params.offset)
  end)

  it("addresses nested parameters as name__param", function()
    local w = Wrapper{ inner = Constant{ offset = 1 } }
    local params = w:get_params()
    assert.equal(1, params.inner__offset)
    assert.equal("mean", params.inner__mode)
    w:set_params{ inner__offset = 10 }
    assert.equal(10, w.params.inner.params.offset)
    assert.matrix_near({{13}}, w:fit(X, y):predict(M{{0, 0}}))
    local shallow = w:get_params(false)
    assert.is_nil(shallow.inner__offset)
    local c = w:clone()
    assert.are_not.equal(w.params.inner, c.params.inner) -- cloned, not shared
    assert.has_error(function() w:set_params{ inner__bogus = 1 } end,
      "test.Constant: unknown parameter 'bogus' (valid: offset, scale, mode, seed)")
    assert.has_error(function() Constant{}:set_params{ mode__x = 1 } end,
      "test.Constant: parameter 'mode' is not an estimator, so 'mode__x' cannot be set")
  end)

  it("documents the class and its instances for help()", function()
    local text = luma.help(Constant{})
    assert.truthy(text:find("test.Constant: Constant{offset = 0, scale = 1", 1, true))
    assert.truthy(text:find("Predicts mean(y) + offset.", 1, true))
    assert.truthy(text:find("scale", 1, true) and text:find("multiplies the mean", 1, true))
  end)

  it("gives each fit a generator that leaves the stored seed untouched", function()
    local g = luma.random.Generator(3)
    local a = estimator.rng(g):random()
    local b = estimator.rng(g):random()
    assert.equal(a, b)
    assert.equal(luma.random.Generator(9):random(), estimator.rng(9):random())
    assert.equal(luma.random.default(), estimator.rng(nil))
  end)

  it("encodes labels to 1..k and back", function()
    local codes, classes = estimator.encode_labels(M{30, 10, 20, 10})
    assert.matrix_near({{3}, {1}, {2}, {1}}, codes)
    assert.matrix_near({{10}, {20}, {30}}, classes)
    assert.matrix_near({{30}, {10}, {20}, {10}}, estimator.decode_labels(codes, classes))
  end)
end)
