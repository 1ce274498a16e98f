-- Cross-validation, searches and curves over a ridge regression written in
-- Lua against the estimator contract (so this also proves that user-written
-- estimators run inside the model-selection machinery).  Scores are
-- recomputed by hand from the same folds.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local ms = luma.model_selection
local M = luma.matrix

-- Ridge through the normal equations on centred data.
local Ridge = estimator.class{
  name = "test.Ridge",
  kind = "regressor",
  doc = "Ridge regression (closed form).",
  params = {
    { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty" },
    { name = "fail_above", type = "number", default = math.huge, doc = "fit fails when "
      .. "alpha exceeds this (for error_score tests)" },
  },
  fit = function(self, X, y)
    if self.params.alpha > self.params.fail_above then error("alpha too large") end
    local xm, ym = X:mean(1), y:mean()
    local Xc = X - xm
    local A = Xc:t() * Xc + luma.eye(X:cols()) * self.params.alpha
    self.coef = luma.linalg.solve(A, Xc:t() * (y - ym))
    self.intercept = ym - (xm * self.coef):get(1, 1)
  end,
  predict = function(self, X) return X * self.coef + self.intercept end,
}

-- y = 1 + 2 x1 - x2 + noise, 30 samples.
local g = luma.random.Generator(11)
local X = g:normal(30, 2)
local y = X * M{2, -1} + 1 + g:normal(30, 1, 0, 0.5)

local function manual_scores(alpha, folds)
  local out = {}
  for k, split in ipairs(folds) do
    local m = Ridge{ alpha = alpha }:fit(X:take(split[1]), y:take(split[1]))
    out[k] = m:score(X:take(split[2]), y:take(split[2]))
  end
  return out
end

describe("cross-validation #smoke", function()
  local folds = ms.check_cv(ms.KFold{ n_splits = 3 }, X)

  it("scores each fold with a fresh clone", function()
    local r = ms.cross_validate(Ridge{ alpha = 0.5 }, X, y, { cv = ms.KFold{ n_splits = 3 },
      return_train_score = true, return_estimator = true })
    local expected = manual_scores(0.5, folds)
    assert.matrix_near(M(expected), r.test_score, 1e-12)
    for k = 1, 3 do
      assert.is_true(r.train_score:get(k, 1) >= r.test_score:get(k, 1) - 0.5)
      assert.is_true(r.fit_time:get(k, 1) >= 0 and r.score_time:get(k, 1) >= 0)
      assert.is_true(r.estimators[k]:is_fitted())
    end
    local scores = ms.cross_val_score(Ridge{ alpha = 0.5 }, X, y, { cv = 3 })
    assert.matrix_near(M(expected), scores, 1e-12)
  end)

  it("takes several scorers as functions", function()
    local neg_mae = function(est, Xt, yt) return -(est:predict(Xt) - yt):abs():mean() end
    local r = ms.cross_validate(Ridge{}, X, y, { cv = 3, scoring = { mae = neg_mae,
      r2 = function(est, Xt, yt) return est:score(Xt, yt) end } })
    assert.equal(3, r.test_mae:rows())
    assert.is_true(r.test_mae:get(1, 1) < 0)
    assert.equal(3, r.test_r2:rows())
  end)

  it("predicts every sample from the model that did not see it", function()
    local pred = ms.cross_val_predict(Ridge{}, X, y, { cv = 3 })
    local m = Ridge{}:fit(X:take(folds[2][1]), y:take(folds[2][1]))
    assert.matrix_near(m:predict(X:take(folds[2][2])), pred:take(folds[2][2]), 1e-12)
    assert.has_error(function()
      ms.cross_val_predict(Ridge{}, X, y, { cv = ms.ShuffleSplit{ n_splits = 2, seed = 1 } })
    end)
  end)
end)

describe("searches #smoke", function()
  it("grid-searches, ranks, refits and delegates", function()
    local search = ms.GridSearch{ estimator = Ridge{}, param_grid = { alpha = { 0.01, 1, 1000 } },
      cv = 3 }
    assert.equal(search, search:fit(X, y))
    local results = search.results
    assert.equal(3, #results)
    local folds = ms.check_cv(3, X)
    for c, alpha in ipairs({ 0.01, 1, 1000 }) do
      local s = manual_scores(alpha, folds)
      assert.is_true(math.abs(results[c].mean_test_score - (s[1] + s[2] + s[3]) / 3) < 1e-12)
      assert.equal(alpha, results[c].params.alpha)
      assert.is_true(math.abs(results[c].split2_test_score - s[2]) < 1e-12)
    end
    assert.equal(3, results[3].rank_test_score) -- a huge penalty fits worst
    assert.equal(1, results[search.best_index].rank_test_score)
    assert.is_true(search.best_params.alpha < 1000)
    for _, name in ipairs({ "best_params", "cv_results", "best_score", "best_estimator" }) do
      assert.has_error(function() return search[name .. "_"] end,
        "luma.model_selection.GridSearch: Luma names fitted attributes without the trailing "
          .. "underscore: " .. name)
    end
    local best = Ridge{ alpha = search.best_params.alpha }:fit(X, y)
    assert.matrix_near(best:predict(X), search:predict(X), 1e-12)
    local text = tostring(results)
    assert.truthy(text:find("rank_test_score", 1, true))
    assert.truthy(text:find("alpha=1000", 1, true))
  end)

  it("picks with a refit function and survives failing candidates", function()
    local search = ms.GridSearch{ estimator = Ridge{ fail_above = 10 },
      param_grid = { alpha = { 1, 100 } }, cv = 3,
      refit = function(results) return #results - 1 end }
    local warned = {}
    local saved = _G.warn
    _G.warn = function(msg) warned[#warned + 1] = msg end
    search:fit(X, y)
    _G.warn = saved
    assert.equal(1, search.best_index)
    assert.is_true(search.results[2].mean_test_score ~= search.results[2].mean_test_score) -- NaN
    assert.equal(3, #warned)
    assert.has_error(function()
      ms.GridSearch{ estimator = Ridge{ fail_above = 10 }, param_grid = { alpha = { 100 } },
        error_score = "raise" }:fit(X, y)
    end)
  end)

  it("draws random candidates reproducibly", function()
    local make = function()
      return ms.RandomSearch{ estimator = Ridge{}, n_iter = 4, seed = 3, cv = 3,
        param_distributions = { alpha = ms.log_uniform(1e-3, 1e3) } }:fit(X, y)
    end
    local a, b = make(), make()
    for c = 1, 4 do
      local alpha = a.results[c].params.alpha
      assert.is_true(alpha >= 1e-3 and alpha <= 1e3)
      assert.equal(alpha, b.results[c].params.alpha)
    end
    local lists = ms.RandomSearch{ estimator = Ridge{}, n_iter = 3, seed = 1, cv = 3,
      param_distributions = { alpha = { 0.1, 0.2 } } }:fit(X, y)
    for c = 1, 3 do
      local alpha = lists.results[c].params.alpha
      assert.is_true(alpha == 0.1 or alpha == 0.2)
    end
  end)

  it("nests inside cross-validation", function()
    local inner = ms.GridSearch{ estimator = Ridge{}, param_grid = { alpha = { 0.1, 10 } }, cv = 3 }
    local scores = ms.cross_val_score(inner, X, y, { cv = 3 })
    assert.equal(3, scores:rows())
    assert.is_false(inner:is_fitted()) -- the outer loop fitted clones
  end)

  it("traces validation and learning curves", function()
    local train, test = ms.validation_curve(Ridge{}, X, y, { param_name = "alpha",
      param_range = { 0.01, 100, 10000 }, cv = 3 })
    assert.same({3, 3}, {train:shape()})
    assert.is_true(train:row(1):mean() > train:row(3):mean()) -- more penalty, worse fit
    local sizes, tr, te = ms.learning_curve(Ridge{}, X, y, { cv = 3, train_sizes = { 0.5, 1.0 } })
    assert.matrix_near({{10}, {20}}, sizes)
    assert.same({2, 3}, {tr:shape()})
    assert.same({2, 3}, {te:shape()})
  end)

  it("rejects bad arguments", function()
    assert.has_error(function() ms.GridSearch{ estimator = Ridge{} }:fit(X, y) end)
    assert.has_error(function()
      ms.GridSearch{ estimator = Ridge{}, param_grid = { alpha = {} } }:fit(X, y)
    end)
    assert.has_error(function()
      ms.GridSearch{ estimator = Ridge{}, param_grid = { beta = { 1 } } }:fit(X, y)
    end)
    assert.has_error(function() ms.cross_validate(Ridge{}, X, M{1, 2}) end,
      "bad argument #3 to 'cross_validate' (X has 30 rows but y has 2)")
    assert.has_error(function() ms.cross_validate(Ridge{}, X, y, { folds = 3 }) end)
    assert.has_error(function() ms.cross_val_score(Ridge{}, X, y, { cv = 31 }) end)
    assert.has_error(function() ms.cross_validate({}, X, y) end,
      "bad argument #1 to 'cross_validate' (an estimator expected, got table)")
  end)
end)

describe("scoring by name", function()
  it("uses luma.metrics scorers, several at once, and refits by one of them", function()
    local r = ms.cross_validate(Ridge{}, X, y, { cv = 3, scoring = { "r2", "neg_mean_absolute_error" } })
    assert.equal(3, r.test_r2:rows())
    assert.is_true(r.test_neg_mean_absolute_error:get(1, 1) < 0)
    local search = ms.GridSearch{ estimator = Ridge{}, param_grid = { alpha = { 0.01, 1000 } }, cv = 3,
      scoring = { "r2", "neg_mean_squared_error" }, refit = "neg_mean_squared_error" }:fit(X, y)
    assert.equal(0.01, search.best_params.alpha)
    assert.is_true(search.results[1].mean_test_neg_mean_squared_error
      > search.results[2].mean_test_neg_mean_squared_error)
    assert.has_error(function() ms.cross_val_score(Ridge{}, X, y, { scoring = "f2" }) end)
  end)
end)

describe("agreement with scikit-learn", function()
  it("cross-validates ridge on diabetes fold by fold", function()
    -- sklearn 1.2.1: cross_val_score(Ridge(alpha=1.0), *load_diabetes(return_X_y=True), cv=5)
    local expected = { 0.3216646057684237, 0.44048456345852616, 0.42210353683412705,
      0.42466129269414277, 0.44196085794922524 }
    local Xd, yd = luma.datasets.load("diabetes")
    local scores = ms.cross_val_score(Ridge{ alpha = 1 }, Xd, yd, { cv = 5 })
    for k = 1, 5 do assert.is_true(math.abs(scores:get(k, 1) - expected[k]) < 1e-12) end
  end)
end)

-- An unsupervised estimator in the same machinery: a 1-D Gaussian density
-- whose variance is floored at min_var.  score(X) is the mean
-- log-likelihood -0.5 log(2 pi v) - sum (x - m)^2 / (2 v n) on held-out
-- rows (m, v from the training rows), recomputed by hand below.
local Gaussian = estimator.class{
  name = "test.Gaussian1D", kind = "density", doc = "1-D Gaussian with a variance floor",
  params = { { name = "min_var", type = "number", default = 0, min = 0, doc = "floor" } },
  fit = function(self, X)
    self.mean = X:mean()
    self.var = math.max(((X - self.mean):pow(2)):mean(), self.params.min_var)
  end,
  score_samples = function(self, X)
    return ((X - self.mean):pow(2) * (-0.5 / self.var)) - 0.5 * math.log(2 * math.pi * self.var)
  end,
}

describe("model selection without targets", function()
  local X = M{ 1, 2, 4, 7, 11, 16 }
  local function held_out_score(train, test, floor)
    local xs, ts = {}, {}
    for _, i in ipairs(train) do xs[#xs + 1] = X:get(i, 1) end
    for _, i in ipairs(test) do ts[#ts + 1] = X:get(i, 1) end
    local m, v = 0, 0
    for _, x in ipairs(xs) do m = m + x / #xs end
    for _, x in ipairs(xs) do v = v + (x - m) ^ 2 / #xs end
    v = math.max(v, floor)
    local s = 0
    for _, x in ipairs(ts) do s = s + (-0.5 * math.log(2 * math.pi * v) - (x - m) ^ 2 / (2 * v)) end
    return s / #ts
  end

  it("cross-validates a density model by its own score(X), y = nil", function()
    local scores = ms.cross_val_score(Gaussian{}, X, nil, { cv = 3 })
    -- KFold(3) without shuffling: contiguous blocks {1,2}, {3,4}, {5,6}
    local folds = { { { 3, 4, 5, 6 }, { 1, 2 } }, { { 1, 2, 5, 6 }, { 3, 4 } },
                    { { 1, 2, 3, 4 }, { 5, 6 } } }
    for k, f in ipairs(folds) do
      assert.near(held_out_score(f[1], f[2], 0), scores:get(k, 1), 1e-12)
    end
  end)

  it("grid-searches a density model's parameter with y = nil and refits the best", function()
    local search = ms.GridSearch{ estimator = Gaussian{}, param_grid = { min_var = { 0, 30, 1000 } },
      cv = 3 }:fit(X)
    local folds = { { { 3, 4, 5, 6 }, { 1, 2 } }, { { 1, 2, 5, 6 }, { 3, 4 } },
                    { { 1, 2, 3, 4 }, { 5, 6 } } }
    local best, best_floor = -math.huge, nil
    for _, floor in ipairs({ 0, 30, 1000 }) do
      local mean = 0
      for _, f in ipairs(folds) do mean = mean + held_out_score(f[1], f[2], floor) / 3 end
      if mean > best then best, best_floor = mean, floor end
    end
    assert.equal(best_floor, search.best_params.min_var)
    assert.near(best, search.best_score, 1e-12)
    assert.near(held_out_score({ 1, 2, 3, 4, 5, 6 }, { 1, 2, 3, 4, 5, 6 }, best_floor),
      search:score(X), 1e-12)
  end)
end)
