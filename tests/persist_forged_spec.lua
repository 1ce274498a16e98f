-- Forged and damaged model files (issue 28, item 15): files whose bytes
-- are sound but whose objects are not must fail in luma.load, naming the
-- file, the type and the problem, instead of loading and failing later
-- inside a method ("lua/luma/Table.lua:767: bad argument #1 to 'get'").
-- Each forgery is a saved object read back as plain tables
-- (luma.serial.decode), edited, and written again with luma.serial.encode.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local serial = luma.serial
local persist = luma.persist

local g = luma.random.Generator(7)
local X = g:normal(24, 3)
local y = X * luma.matrix{ 1, -2, 0.5 } + g:normal(24, 1) * 0.1

-- The plain tables luma.save writes for obj.
local function plain(obj) return serial.decode(persist.encode(obj)) end

-- The error of decoding a forged plain value; it must not be located in
-- the library.
local function refusal(forged)
  local ok, err = pcall(persist.decode, serial.encode(forged))
  assert.is_false(ok, "the forged value loaded")
  assert.is_string(err)
  assert.is_nil(err:find("^lua/luma/"), err)
  return err
end

describe("a forged luma.Table", function()
  local T = luma.Table({ x = { 1.5, 0 / 0, -2 }, city = { "Paris", false, "Lyon" } },
    { columns = { "x", "city" } })

  it("with n beyond its rows fails to load", function()
    local p = plain(T)
    p.n = 1 << 40
    assert.equal("luma.load: the string holds an invalid luma.Table (n is 1099511627776, not a "
      .. "row count in 0..2147483647)", refusal(p))
    p.n = 4
    assert.equal("luma.load: the string holds an invalid luma.Table (the numeric columns must be "
      .. "one 4 x 1 matrix, got 3 x 1)", refusal(p))
  end)

  it("with bad names, kinds or categories fails to load", function()
    local p = plain(T)
    p.names[2] = "x"
    assert.matches("column name 'x' appears twice", refusal(p), 1, true)
    p = plain(T)
    p.kinds[1] = "complex"
    assert.matches("column 'x' has the unknown kind complex", refusal(p), 1, true)
    p = plain(T)
    p.categoricals[1].codes = luma.matrix{ 1, 3, 2 }
    assert.matches("column 'city': code 3 in row 2 is not in 1..2 (NaN: missing)", refusal(p),
      1, true)
    p = plain(T)
    p.categoricals = {}
    assert.matches("categoricals must list the 1 categorical columns", refusal(p), 1, true)
    p = plain(T.city)
    p.categories = { "a", 7 }
    assert.equal("luma.load: the string holds an invalid luma.Categorical (the categorical: "
      .. "category 2 is a number, not a string)", refusal(p))
  end)

  it("named by the file it came from", function()
    local p = plain(T)
    p.n = -1
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(serial.encode(p))
    f:close()
    local ok, err = pcall(luma.load, path)
    os.remove(path)
    assert.is_false(ok)
    assert.matches("^luma.load: " .. path:gsub("%p", "%%%0") .. " holds an invalid luma.Table "
      .. "%(n is %-1, not a row count", err)
  end)
end)

describe("a forged search", function()
  local search = luma.model_selection.GridSearch{ estimator = luma.linear.Ridge{},
    param_grid = { alpha = { 0.1, 1 } }, cv = 3 }:fit(X, y)

  it("Results fail to load when printing or refitting could not use them", function()
    local p = plain(search.results)
    p.primary = 7
    assert.equal("luma.load: the string holds an invalid luma.model_selection.Results (primary "
      .. "is a number, not a scorer name)", refusal(p))
    p = plain(search.results)
    p[2].rank_test_score = 3
    assert.matches("row 2: rank_test_score is 3, not a rank in 1..2", refusal(p), 1, true)
    p = plain(search.results)
    p[1].mean_test_score = "high"
    assert.matches("row 1: mean_test_score is a string, not a number", refusal(p), 1, true)
    p = plain(search.results)
    p[1].params = nil
    assert.matches("row 1 has no params table", refusal(p), 1, true)
  end)

  it("Results written before scikit-learn's key names load under them", function()
    local p = plain(search.results)
    for _, row in ipairs(p) do
      for _, stat in ipairs({ "mean", "std", "rank" }) do
        row[stat .. "_score"], row[stat .. "_test_score"] = row[stat .. "_test_score"], nil
      end
    end
    local back = persist.decode(serial.encode(p))
    assert.equal(search.results[2].rank_test_score, back[2].rank_test_score)
    assert.equal(search.results[1].mean_test_score, back[1].mean_test_score)
    assert.is_nil(back[1].mean_score)
    assert.equal(tostring(search.results), tostring(back))
  end)

  it("with a best row outside its results fails to load", function()
    local p = plain(search)
    p.state.best_index = 5
    assert.equal("luma.load: the string holds an invalid luma.model_selection.GridSearch "
      .. "(best_index 5 is not a row of the results (1..2))", refusal(p))
    p = plain(search)
    p.state.best_estimator = "Ridge"
    assert.matches("fitted field best_estimator is a string, not estimator", refusal(p), 1, true)
  end)

  it("samplers and generators are checked by their constructors", function()
    local p = plain(luma.model_selection.uniform(0, 1))
    p.lo = "zero"
    assert.matches("^luma.load: the string holds an invalid luma.model_selection.Sampler %(bad "
      .. "argument #1 to 'uniform' %(number expected, got string%)%)$", refusal(p))
    p = plain(luma.random.Generator(1))
    p.state = "short"
    assert.matches("invalid luma.Generator (bad argument #1 to 'set_state' (not a generator "
      .. "state (5 bytes, expected 32)))", refusal(p), 1, true)
  end)
end)

describe("a forged estimator", function()
  local ridge = luma.linear.Ridge{ alpha = 0.5 }:fit(X, y)

  it("with fitted fields predict could not use fails to load", function()
    local p = plain(ridge)
    p.state.coef = "weights"
    assert.equal("luma.load: the string holds an invalid luma.linear.Ridge (coef must be a 3 x k "
      .. "matrix)", refusal(p))
    p = plain(ridge)
    p.state.intercept = luma.zeros(2, 2)
    assert.matches("intercept must be a number or a 1 x 1 matrix", refusal(p), 1, true)
    local logistic = plain(luma.linear.LogisticRegression{}:fit(X, X:col(1):gt(0)))
    logistic.state.classes = luma.matrix{ 0, 1, 2 }
    assert.matches("coef has 1 columns for 3 classes", refusal(logistic), 1, true)
  end)

  it("with a malformed record or contract fields fails to load", function()
    local p = plain(ridge)
    p.state.n_features_in = 0.5
    assert.matches("n_features_in is 0.5, not a column count", refusal(p), 1, true)
    p = plain(ridge)
    p.state.__fitted = "yes"
    assert.matches("__fitted is yes, not true", refusal(p), 1, true)
    p = plain(ridge)
    p.state.feature_names_in = { "a", "b" }
    assert.matches("feature_names_in must be a list of 3 column names", refusal(p), 1, true)
    p = plain(ridge)
    p.params = 3
    assert.matches("params is a number, not a table of fields", refusal(p), 1, true)
    p = plain(ridge)
    p.params.alpha = -1
    assert.matches("^luma.load: the string holds an invalid luma.linear.Ridge %(.*alpha", refusal(p))
    p = plain(ridge)
    p.__luma_version = "one"
    assert.matches("its version tag is one, not an integer >= 1", refusal(p), 1, true)
    p = plain(ridge)
    p.state.__index = {}
    assert.matches("'__index' cannot be a fitted field", refusal(p), 1, true)
  end)

  it("in a pipeline whose steps are not {name, estimator} pairs fails to load", function()
    local pipe = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{},
      luma.linear.Ridge{}):fit(X, y)
    local p = plain(pipe)
    p.params.steps[2] = { "ridge", 42 }
    assert.matches("^luma.load: the string holds an invalid luma.pipeline.Pipeline %(steps entry "
      .. "'ridge' must be an estimator or \"passthrough\", got 42%)$", refusal(p))
    p = plain(pipe)
    p.params.steps[2][2].state.coef = "w" -- a nested model is checked as it loads
    assert.matches("holds an invalid luma.linear.Ridge (coef must be", refusal(p), 1, true)
  end)

  it("still loads when sound, unfitted or fitted", function()
    local back = persist.decode(persist.encode(ridge))
    assert.matrix_near(ridge:predict(X), back:predict(X), 0)
    assert.is_false(persist.decode(persist.encode(luma.linear.Ridge{})):is_fitted())
  end)
end)

describe("luma.save's refusals", function()
  it("are located at the caller, however deep the value", function()
    local ok, err = pcall(persist.encode, { a = { b = { c = print } } })
    assert.is_false(ok)
    assert.equal("luma.save: value.a.b.c is a function and cannot be saved", err)
  end)
end)
