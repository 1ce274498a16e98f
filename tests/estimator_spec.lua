-- The estimator contract (luma.estimator) through small estimators written
-- in Lua: schema validation, parameters, cloning, the fit/predict protocol
-- and its errors, and the unsupervised kinds (clusterer, density,
-- transformer, outlier) with fit(X), score(X), score_samples, fit_predict
-- and fit_transform.  Expected values are closed forms on tiny data,
-- worked by hand in the comments.
-- SPDX-License-Identifier: MIT
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

  it("answers scikit-learn's fitted attribute names with Luma's", function()
    local m = Constant{}:fit(X, y)
    local ok, err = pcall(function() return m.value_ end)
    assert.is_false(ok)
    assert.equal("tests/estimator_spec.lua:" .. debug.getinfo(1, "l").currentline - 2
      .. ": test.Constant: Luma names fitted attributes without the trailing underscore: value",
      err)
    assert.has_error(function() return Constant{}.n_features_in_ end,
      "test.Constant: Luma names fitted attributes without the trailing underscore: n_features_in")
    -- only one trailing underscore is scikit-learn's; other absent keys stay nil
    assert.is_nil(m.value__)
    assert.is_nil(m._)
    assert.is_nil(m.missing)
    assert.equal(3, m.value)
    m.extra_ = 1 -- a field the instance holds is read as it is
    assert.equal(1, m.extra_)
    assert.is_function(m.fit)
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
      "bad argument #1 to 'predict' (X must be a luma.Matrix or a luma.Table, got table)")
  end)

  it("checks fit's arguments", function()
    assert.has_error(function() Constant{}:fit(X, M{1, 2}) end,
      "bad argument #2 to 'fit' (X has 3 rows but y has 2)")
    assert.has_error(function() Constant{}:fit(X) end,
      "bad argument #2 to 'fit' (test.Constant needs targets y)")
    assert.has_error(function() Constant{}:fit(X, M{1, 0 / 0, 2}) end,
      "bad argument #2 to 'fit' (y contains NaN; drop or impute those rows first)")
    assert.has_error(function() Constant{}:fit("X", y) end,
      "bad argument #1 to 'fit' (X must be a luma.Matrix or a luma.Table, got string)")
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

-- ------------------------------------------------- unsupervised kinds

-- The values of a column as a Lua list, for the 1-D estimators below.
local function values(X)
  local v = {}
  for i = 1, X:rows() do v[i] = X:get(i, 1) end
  return v
end

-- Two centres, the smallest and the largest training point; a point
-- belongs to the nearer one (the first on a tie).  score is minus the
-- within-cluster sum of squares, scikit-learn's KMeans.score.
local function nearest(self, x)
  local a, b = self.centres[1], self.centres[2]
  return math.abs(x - a) <= math.abs(x - b) and 1 or 2
end

local two_centres = {
  kind = "clusterer",
  doc = "Nearest of the smallest and the largest training point.",
  params = {},
  fit = function(self, X)
    local v = values(X)
    self.centres = { math.min(table.unpack(v)), math.max(table.unpack(v)) }
  end,
  predict = function(self, X)
    local labels = {}
    for i, x in ipairs(values(X)) do labels[i] = nearest(self, x) end
    return M(labels)
  end,
  score = function(self, X)
    local ss = 0
    for _, x in ipairs(values(X)) do ss = ss + (x - self.centres[nearest(self, x)]) ^ 2 end
    return -ss
  end,
}

-- A class from a shared spec plus the fields that differ.
local function class_from(base, extra)
  local spec = {}
  for k, v in pairs(base) do spec[k] = v end
  for k, v in pairs(extra) do spec[k] = v end
  return estimator.class(spec)
end

local TwoCentres = class_from(two_centres, { name = "test.TwoCentres" })

-- The same clusterer with its own fit_predict (one pass: the labels of
-- the fitted points, as k-means returns its last assignment), counting
-- the calls of each method.
local calls = {}
local CountedCentres = class_from(two_centres, {
  name = "test.CountedCentres",
  fit = function(self, X)
    calls.fit = (calls.fit or 0) + 1
    two_centres.fit(self, X)
  end,
  predict = function(self, X)
    calls.predict = (calls.predict or 0) + 1
    return two_centres.predict(self, X)
  end,
  fit_predict = function(self, X)
    calls.fit_predict = (calls.fit_predict or 0) + 1
    two_centres.fit(self, X)
    self.labels = two_centres.predict(self, X)
    return self.labels
  end,
})

-- A 1-D Gaussian, mean and variance by maximum likelihood (1/n);
-- score_samples is the log-density, so score is the mean log-likelihood.
local Gaussian = estimator.class{
  name = "test.Gaussian",
  kind = "density",
  doc = "N(mean, var) fitted by maximum likelihood.",
  params = {},
  fit = function(self, X)
    self.mean = X:mean()
    self.var = (X - self.mean):pow(2):mean()
  end,
  score_samples = function(self, X)
    return (X - self.mean):pow(2) * (-0.5 / self.var) - 0.5 * math.log(2 * math.pi * self.var)
  end,
}

-- Subtracts the training mean of every column.
local centre = {
  kind = "transformer",
  doc = "X minus its training column means.",
  params = {},
  fit = function(self, X) self.mean = X:mean(1) end,
  transform = function(self, X) return X - self.mean end,
}
local Centre = class_from(centre, { name = "test.Centre" })

-- The same with its own one-pass fit_transform, counted.
local CentreOnce = class_from(centre, {
  name = "test.CentreOnce",
  fit_transform = function(self, X)
    calls.fit_transform = (calls.fit_transform or 0) + 1
    self.mean = X:mean(1)
    return X - self.mean
  end,
})

-- Outliers lie more than `threshold` (population) standard deviations
-- from the training mean.  As in scikit-learn, score_samples is higher for
-- more normal points and decision_function = score_samples + threshold is
-- negative exactly for outliers.
local FarFromMean = estimator.class{
  name = "test.FarFromMean",
  kind = "outlier",
  doc = "Outlier beyond threshold standard deviations from the mean.",
  params = { { name = "threshold", type = "number", default = 1.2, gt = 0,
    doc = "distance in standard deviations" } },
  fit = function(self, X)
    self.mean = X:mean()
    self.sd = math.sqrt((X - self.mean):pow(2):mean())
  end,
  score_samples = function(self, X)
    local s = {}
    for i, x in ipairs(values(X)) do s[i] = -math.abs(x - self.mean) / self.sd end
    return M(s)
  end,
  decision_function = function(self, X)
    return self:score_samples(X) + self.params.threshold
  end,
  predict = function(self, X)
    local labels = {}
    for i, d in ipairs(values(self:decision_function(X))) do labels[i] = d < 0 and -1 or 1 end
    return M(labels)
  end,
}

-- 1-D points: {0, 1, 2} nearer 0 than 10, {9, 10} nearer 10.
local P = M{0, 1, 2, 9, 10}

describe("unsupervised estimators #smoke", function()
  it("fit a clusterer without y, label points and score by minus the inertia", function()
    local m = TwoCentres{}
    assert.equal(m, m:fit(P))
    assert.same({ 0, 10 }, m.centres)
    assert.equal(1, m.n_features_in)
    assert.matrix_near({{1}, {1}, {1}, {2}, {2}}, m:predict(P))
    -- within-cluster squares: 0 + 1 + 4 about 0, 1 + 0 about 10
    assert.equal(-6, m:score(P))
    -- 4 is nearer 0 (4 < 6), 7 nearer 10 (3 < 7): -(16 + 9)
    assert.equal(-25, m:score(M{4, 7}))
    assert.matrix_near({{1}, {1}, {1}, {2}, {2}}, TwoCentres{}:fit_predict(P))
  end)

  it("accept and ignore a y given to an unsupervised fit or score", function()
    local y5 = M{7, 7, 7, 7, 7}
    local m = TwoCentres{}:fit(P, y5)
    assert.same({ 0, 10 }, m.centres)
    assert.equal(-6, m:score(P, y5))
    assert.matrix_near({{1}, {1}, {1}, {2}, {2}}, TwoCentres{}:fit_predict(P, y5))
  end)

  it("reject a y of the wrong shape or type even where it is ignored", function()
    local m = TwoCentres{}:fit(P)
    assert.has_error(function() m:score(P, M{1, 2, 3, 4}) end,
      "bad argument #2 to 'score' (X has 5 rows but y has 4)")
    assert.has_error(function() m:score(P, "y") end,
      "bad argument #2 to 'score' (y must be a luma.Matrix, a list of labels, a categorical "
        .. "column or a one-column luma.Table, got string)")
    assert.has_error(function() TwoCentres{}:fit(P, M{1, 2}) end,
      "bad argument #2 to 'fit' (X has 5 rows but y has 2)")
    assert.has_error(function() TwoCentres{}:fit_predict(P, M{1, 2}) end,
      "bad argument #2 to 'fit_predict' (X has 5 rows but y has 2)")
  end)

  it("still require y where the class needs targets", function()
    local m = Constant{}:fit(X, y)
    assert.has_error(function() m:score(X) end,
      "bad argument #2 to 'score' (test.Constant needs targets y)")
    assert.has_error(function() m:score(X, M{1, 2}) end,
      "bad argument #2 to 'score' (X has 3 rows but y has 2)")
  end)

  it("use a class's own fit_predict instead of fit then predict", function()
    for k in pairs(calls) do calls[k] = nil end
    local m = CountedCentres{}
    assert.matrix_near({{1}, {1}, {1}, {2}, {2}}, m:fit_predict(P))
    assert.same({ fit_predict = 1 }, calls)
    local labels = m:fit_predict(P)
    assert.equal(m.labels, labels) -- its own result, passed on as it is
    assert.same({ fit_predict = 2 }, calls)
  end)

  it("give a class's own fit_predict fit's checks and bookkeeping", function()
    local m = CountedCentres{}:fit(M{-5, 5})
    m.extra = "left over"
    m:fit_predict(P)
    assert.is_nil(m.extra)
    assert.same({ 0, 10 }, m.centres)
    assert.is_true(m:is_fitted())
    assert.equal(1, m.n_features_in)
    assert.has_error(function() m:predict(M{{1, 2}}) end,
      "bad argument #1 to 'predict' (X has 2 columns but test.CountedCentres was fitted on 1)")
    assert.has_error(function() CountedCentres{}:fit_predict({ 1, 2 }) end,
      "bad argument #1 to 'fit_predict' (X must be a luma.Matrix or a luma.Table, got table)")
    local fresh = CountedCentres{}
    pcall(fresh.fit_predict, fresh, "X")
    assert.is_false(fresh:is_fitted())
  end)

  it("reset the state of a previous fit in the default fit_predict", function()
    local m = TwoCentres{}:fit(M{-5, 5})
    m.extra = "left over"
    assert.matrix_near({{1}, {1}, {1}, {2}, {2}}, m:fit_predict(P))
    assert.is_nil(m.extra)
    assert.same({ 0, 10 }, m.centres)
  end)

  it("score a density model by its mean log-likelihood", function()
    -- {1, ..., 5}: mean 3, variance (4 + 1 + 0 + 1 + 4) / 5 = 2
    local X5 = M{1, 2, 3, 4, 5}
    local g = Gaussian{}:fit(X5)
    assert.equal(3, g.mean)
    assert.equal(2, g.var)
    -- on the training data the mean squared deviation is var itself, so
    -- the average log-likelihood is -0.5 log(2 pi var) - 0.5
    local expected = -0.5 * math.log(2 * math.pi * 2) - 0.5
    assert.near(expected, g:score(X5), 1e-12)
    assert.near(expected, g:score(X5, X5), 1e-12) -- y ignored
    -- at the mean the log-density is -0.5 log(4 pi); at 5, 4 / 4 lower
    local at = g:score_samples(M{3, 5})
    assert.near(-0.5 * math.log(4 * math.pi), at:get(1, 1), 1e-12)
    assert.near(-0.5 * math.log(4 * math.pi) - 1, at:get(2, 1), 1e-12)
    assert.near(-0.5 * math.log(4 * math.pi) - 0.5, g:score(M{3, 5}), 1e-12)
  end)

  it("check score_samples like predict", function()
    assert.has_error(function() Gaussian{}:score_samples(P) end,
      "test.Gaussian: score_samples called before fit")
    assert.has_error(function() Gaussian{}:score(P) end,
      "test.Gaussian: score called before fit")
    local g = Gaussian{}:fit(P)
    assert.has_error(function() g:score_samples(M{{1, 2}}) end,
      "bad argument #1 to 'score_samples' (X has 2 columns but test.Gaussian was fitted on 1)")
    assert.has_error(function() g:score_samples(3) end,
      "bad argument #1 to 'score_samples' (X must be a luma.Matrix or a luma.Table, got number)")
  end)

  it("give transformers fit_transform, the same as fit then transform", function()
    local A = M{{1, 2}, {3, 4}, {5, 6}} -- column means 3 and 4
    local centred = {{-2, -2}, {0, 0}, {2, 2}}
    assert.matrix_near(centred, Centre{}:fit(A):transform(A))
    local m = Centre{}:fit(M{{0, 0}})
    m.extra = "left over"
    assert.matrix_near(centred, m:fit_transform(A))
    assert.is_nil(m.extra)
    assert.matrix_near({{1, 1}}, m:transform(M{{4, 5}}))
    assert.has_error(function() Centre{}:fit_transform("A") end,
      "bad argument #1 to 'fit_transform' (X must be a luma.Matrix or a luma.Table, got string)")
  end)

  it("use a class's own fit_transform, with fit's checks and bookkeeping", function()
    for k in pairs(calls) do calls[k] = nil end
    local A = M{{1, 2}, {3, 4}, {5, 6}}
    local m = CentreOnce{}:fit(M{{0, 0, 0}})
    m.extra = "left over"
    assert.matrix_near({{-2, -2}, {0, 0}, {2, 2}}, m:fit_transform(A))
    assert.same({ fit_transform = 1 }, calls)
    assert.is_nil(m.extra)
    assert.is_true(m:is_fitted())
    assert.equal(2, m.n_features_in)
    assert.matrix_near({{1, 1}}, m:transform(M{{4, 5}}))
    assert.has_error(function() CentreOnce{}:fit_transform("A") end,
      "bad argument #1 to 'fit_transform' (X must be a luma.Matrix or a luma.Table, got string)")
    assert.has_error(function() CentreOnce{}:fit_transform(A, M{1, 2}) end,
      "bad argument #2 to 'fit_transform' (X has 3 rows but y has 2)")
    assert.equal(1, calls.fit_transform) -- refused before the class's code ran
  end)

  it("define no score where no default makes sense", function()
    assert.is_nil(Centre{}.score)
    assert.is_nil(FarFromMean{}.score)
    assert.is_nil(TwoCentres{}.fit_transform)
    assert.is_nil(Centre{}.fit_predict)
    assert.is_nil(Gaussian{}.fit_predict)
  end)

  it("flag outliers +1 / -1 by distance to the mean", function()
    -- mean 5, population variance (9 + 1 + 1 + 1 + 0 + 0 + 4 + 16) / 8 = 4,
    -- sd 2: distances 1.5, 0.5, 0.5, 0.5, 0, 0, 1, 2; beyond 1.2 are 2 and 9
    local D = M{2, 4, 4, 4, 5, 5, 7, 9}
    local m = FarFromMean{}:fit(D)
    assert.equal(5, m.mean)
    assert.equal(2, m.sd)
    assert.matrix_near({{-1}, {1}, {1}, {1}, {1}, {1}, {1}, {-1}}, m:predict(D))
    assert.matrix_near({{-0.3}, {0.7}, {0.7}, {0.7}, {1.2}, {1.2}, {0.2}, {-0.8}},
      m:decision_function(D))
    assert.matrix_near({{-1.5}, {-0.5}}, m:score_samples(M{2, 4}))
    assert.matrix_near({{-1}, {1}, {1}, {1}, {1}, {1}, {1}, {-1}},
      FarFromMean{}:fit_predict(D))
    -- a wider threshold keeps 2 (1.5 sd) but not 9 (2 sd)
    assert.matrix_near({{1}, {1}, {-1}}, FarFromMean{ threshold = 1.6 }:fit(D):predict(M{2, 5, 9}))
  end)

  it("know the outlier kind", function()
    assert.equal("outlier", FarFromMean{}:kind_of())
    assert.has_error(function()
      estimator.class{ name = "test.Bad", kind = "anomaly", params = {}, fit = function() end }
    end, "spec.kind must be regressor, classifier, transformer, clusterer, density, outlier "
      .. "or meta")
  end)
end)

describe("classifier targets", function()
  -- scikit-learn's type_of_target: a target with a fractional part is
  -- continuous, and a classifier refuses it instead of fitting one class
  -- per distinct value.
  local X = luma.matrix{ { 0 }, { 1 }, { 2 }, { 3 } }

  it("refuse a continuous target with the remedy in the message", function()
    local continuous = luma.matrix{ 0.5, 1.25, 2.0, 3.5 }
    local ok, err = pcall(function() luma.linear.LogisticRegression{}:fit(X, continuous) end)
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'fit' %(continuous target: use a regressor or "
      .. "discretize y%)", err)
    assert.matches("^[^:]*estimator_spec%.lua:%d+:", err) -- located at the caller
    ok = pcall(function() luma.naive_bayes.GaussianNB{}:fit(X, continuous) end)
    assert.is_false(ok)
  end)

  it("accept integral labels stored as floats, negative ones included", function()
    local m = luma.linear.LogisticRegression{}:fit(X, luma.matrix{ -1.0, -1.0, 2.0, 2.0 })
    assert.matrix_near({ { -1 }, { 2 } }, m.classes, 0)
    -- and regressors take the same continuous target without complaint
    luma.linear.Ridge{}:fit(X, luma.matrix{ 0.5, 1.25, 2.0, 3.5 })
  end)
end)
