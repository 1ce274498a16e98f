-- luma.pipeline: composites built from small Lua estimators, checked
-- against doing the same steps by hand.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local pipeline = luma.pipeline
local ms = luma.model_selection
local M = luma.matrix

-- Centres and scales columns (population std, 1 where it is 0).
local Scale = estimator.class{
  name = "test.Scale", kind = "transformer", requires_y = false, doc = "standardizes",
  params = { { name = "with_mean", type = "boolean", default = true, doc = "centre" } },
  fit = function(self, X)
    self.mean = self.params.with_mean and X:mean(1) or luma.zeros(1, X:cols())
    local sd = X:std(1)
    self.scale = sd:add(sd:eq(0))
  end,
  transform = function(self, X) return (X - self.mean):div(self.scale) end,
  inverse_transform = function(self, X) return X:mul(self.scale) + self.mean end,
}

-- Multiplies columns by a factor.
local Times = estimator.class{
  name = "test.Times", kind = "transformer", requires_y = false, doc = "scales",
  params = { { name = "factor", type = "number", default = 2, doc = "factor" } },
  fit = function() end,
  transform = function(self, X) return X * self.params.factor end,
}

local Ridge = estimator.class{
  name = "test.Ridge", kind = "regressor", doc = "ridge",
  params = { { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty" } },
  fit = function(self, X, y)
    local xm, ym = X:mean(1), y:mean()
    local Xc = X - xm
    self.coef = luma.linalg.solve(Xc:t() * Xc + luma.eye(X:cols()) * self.params.alpha,
      Xc:t() * (y - ym))
    self.intercept = ym - (xm * self.coef):get(1, 1)
  end,
  predict = function(self, X) return X * self.coef + self.intercept end,
}

local g = luma.random.Generator(5)
local X = g:normal(40, 3) * 3 + 10
local y = X * M{1, -2, 0.5} + g:normal(40, 1)

describe("Pipeline #smoke", function()
  it("fits each step on the output of the previous ones", function()
    local p = pipeline.Pipeline{ steps = { { "scale", Scale{} }, { "ridge", Ridge{ alpha = 3 } } } }
    assert.equal(p, p:fit(X, y))
    local s = Scale{}:fit(X, y)
    local r = Ridge{ alpha = 3 }:fit(s:transform(X), y)
    assert.matrix_near(r:predict(s:transform(X)), p:predict(X), 1e-12)
    assert.is_true(math.abs(p:score(X, y) - r:score(s:transform(X), y)) < 1e-12)
    assert.equal(p.params.steps[1][2], p.named_steps.scale)
    assert.equal("regressor", p:kind_of())
  end)

  it("addresses inner parameters and replaces steps", function()
    local p = pipeline.make_pipeline(Scale{}, Ridge{})
    assert.equal("scale", p.params.steps[1][1])
    assert.equal("ridge", p.params.steps[2][1])
    local params = p:get_params()
    assert.equal(1, params.ridge__alpha)
    assert.is_true(params.scale__with_mean)
    p:set_params{ ridge__alpha = 7, scale = "passthrough" }
    assert.equal(7, p.params.steps[2][2].params.alpha)
    p:fit(X, y)
    assert.matrix_near(Ridge{ alpha = 7 }:fit(X, y):predict(X), p:predict(X), 1e-12)
    local c = p:clone()
    assert.are_not.equal(p.params.steps[2][2], c.params.steps[2][2])
    assert.equal(7, c:get_params().ridge__alpha)
    assert.has_error(function() p:set_params{ ridge__beta = 1 } end)
    assert.has_error(function() p:set_params{ scale__with_mean = false } end)
  end)

  it("names repeated classes apart", function()
    local p = pipeline.make_pipeline(Times{}, Times{ factor = 3 }, Ridge{})
    assert.equal("times-1", p.params.steps[1][1])
    assert.equal("times-2", p.params.steps[2][1])
  end)

  it("transforms and inverts through transformer chains", function()
    local p = pipeline.make_pipeline(Scale{}, Times{ factor = 4 })
    local Z = p:fit_transform(X)
    assert.matrix_near(Scale{}:fit(X):transform(X) * 4, Z, 1e-12)
    local q = pipeline.make_pipeline(Scale{}, Scale{ with_mean = false })
    assert.matrix_near(X, q:fit(X):inverse_transform(q:transform(X)), 1e-12)
  end)

  it("runs inside grid search with step__param names", function()
    local p = pipeline.make_pipeline(Scale{}, Ridge{})
    local search = ms.GridSearch{ estimator = p, cv = 3,
      param_grid = { ridge__alpha = { 0.1, 100 }, scale__with_mean = { true, false } } }
    search:fit(X, y)
    assert.equal(4, #search.results)
    assert.equal(0.1, search.best_params.ridge__alpha)
    assert.is_true(search:score(X, y) > 0.9)
  end)

  it("rejects malformed steps", function()
    assert.has_error(function() pipeline.Pipeline{ steps = {} }:fit(X, y) end)
    assert.has_error(function() pipeline.Pipeline{ steps = { { "a", 3 } } }:fit(X, y) end,
      "steps entry 'a' must be an estimator or \"passthrough\", got 3")
    assert.has_error(function()
      pipeline.Pipeline{ steps = { { "a", Scale{} }, { "a", Ridge{} } } }:fit(X, y)
    end, "steps: the name 'a' is used twice")
    assert.has_error(function()
      pipeline.Pipeline{ steps = { { "a__b", Ridge{} } } }:fit(X, y)
    end, "steps entry 1: name 'a__b' must be non-empty and free of '__'")
    assert.has_error(function() pipeline.make_pipeline(Scale{}):predict(X) end)
    assert.has_error(function() pipeline.make_pipeline(Scale{}):fit(X):predict(X) end)
  end)
end)

describe("FeatureUnion and ColumnTransformer #smoke", function()
  it("places transformer outputs side by side", function()
    local u = pipeline.FeatureUnion{ transformer_list = { { "id", "passthrough" },
      { "twice", Times{} }, { "gone", "drop" } } }
    local Z = u:fit_transform(X)
    assert.matrix_near(luma.hstack{ X, X * 2 }, Z)
    assert.equal(3, u:get_params().twice__factor * 1.5)
  end)

  it("transforms column subsets and handles the remainder", function()
    local ct = pipeline.ColumnTransformer{ transformers = { { "scaled", Scale{}, { 1, 3 } },
      { "tripled", Times{ factor = 3 }, 2 } } }
    local Z = ct:fit_transform(X)
    local cols13 = X:take({ 1, 3 }, 2)
    assert.matrix_near(luma.hstack{ Scale{}:fit(cols13):transform(cols13), X:col(2) * 3 }, Z, 1e-12)
    local keep = pipeline.ColumnTransformer{ transformers = { { "s", Scale{}, { 2 } } },
      remainder = "passthrough" }
    local Z2 = keep:fit_transform(X)
    assert.matrix_near(X:take({ 1, 3 }, 2), Z2:sub(nil, nil, 2, 3))
    assert.equal(1, pipeline.ColumnTransformer{ transformers = { { "s", Scale{}, { 2 } } } }
      :fit_transform(X):cols())
    assert.has_error(function()
      pipeline.ColumnTransformer{ transformers = { { "s", Scale{}, { 4 } } } }:fit(X)
    end, "ColumnTransformer: columns of 's': 4 is not a column index in 1..3")
  end)
end)

describe("feature names through composites", function()
  local pp = luma.preprocessing

  it("names a matrix's columns x1 .. xd and passes them through scalers", function()
    local s = pp.StandardScaler{}:fit(X)
    assert.same({ "x1", "x2", "x3" }, s:get_feature_names_out())
    assert.same({ "a", "b", "c" }, s:get_feature_names_out{ "a", "b", "c" })
    assert.has_error(function() s:get_feature_names_out{ "a" } end,
      "bad argument #1 to 'get_feature_names_out' (input_features must be a list of 3 names)")
    assert.has_error(function() pp.StandardScaler{}:get_feature_names_out() end,
      "luma.preprocessing.StandardScaler: get_feature_names_out called before fit")
  end)

  it("chains names through a pipeline's steps", function()
    local p = pipeline.make_pipeline(pp.SimpleImputer{}, pp.PolynomialFeatures{ include_bias = false },
      Ridge{})
    p:fit(X:sub(nil, nil, 1, 2), y)
    -- PolynomialFeatures of degree 2 on x1, x2 (scikit-learn's order)
    assert.same({ "x1", "x2", "x1^2", "x1 x2", "x2^2" }, p:get_feature_names_out())
    assert.same({ "u", "v", "u^2", "u v", "v^2" }, p:get_feature_names_out{ "u", "v" })
  end)

  it("names a ColumnTransformer's outputs, the remainder's last", function()
    local ct = pipeline.ColumnTransformer{ transformers = { { "poly",
      pp.PolynomialFeatures{ include_bias = false, interaction_only = true }, { 1, 3 } } },
      remainder = pp.MinMaxScaler{} }
    local Z = ct:fit_transform(X)
    assert.same({ "x1", "x3", "x1 x3", "x2" }, ct:get_feature_names_out())
    -- the remainder is fitted on the columns no entry names (x2)
    assert.matrix_near(pp.MinMaxScaler{}:fit_transform(X:col(2)), Z:col(4), 1e-15)
    assert.is_false(ct:get_params().remainder__clip)
    ct:set_params{ verbose_feature_names_out = true }
    assert.same({ "poly__x1", "poly__x3", "poly__x1 x3", "remainder__x2" }, ct:get_feature_names_out())
    local twice = pipeline.ColumnTransformer{ transformers = { { "a", "passthrough", { 1 } },
      { "b", Scale{}, { 1 } } } }:fit(X)
    assert.has_error(function() twice:get_feature_names_out() end)
  end)

  it("refuses names on a matrix and unknown remainders", function()
    assert.has_error(function()
      pipeline.ColumnTransformer{ transformers = { { "s", Scale{}, "city" } } }:fit(X)
    end, "ColumnTransformer: columns of 's': 'city' is a column name but X is a matrix "
      .. "(give a luma.Table, or column indices)")
    assert.has_error(function()
      pipeline.ColumnTransformer{ transformers = { { "s", Scale{}, { 1 } } }, remainder = "keep" }:fit(X)
    end)
  end)

  it("prefixes a FeatureUnion's names with the entry names", function()
    local u = pipeline.FeatureUnion{ transformer_list = { { "id", "passthrough" },
      { "s", pp.StandardScaler{} } } }:fit(X)
    assert.same({ "id__x1", "id__x2", "id__x3", "s__x1", "s__x2", "s__x3" }, u:get_feature_names_out())
  end)
end)
