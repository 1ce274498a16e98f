-- Calling conventions of luma.model_selection: the positional forms of the
-- options argument, the dataset info table in the options slot, result
-- shapes and printing, scikit-learn's result keys and class names, and
-- n_jobs = -1 / sandboxed n_jobs.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local ms = luma.model_selection
local M = luma.matrix

local g = luma.random.Generator(5)
local X = g:normal(40, 3)
local y = X * M{1, -2, 0.5} + g:normal(40, 1, 0, 0.1)
local Ridge = luma.linear.Ridge

describe("positional options", function()
  it("takes a fold count or a splitter where the options go", function()
    local by_table = ms.cross_val_score(Ridge{}, X, y, { cv = 4 })
    assert.matrix_near(by_table, ms.cross_val_score(Ridge{}, X, y, 4), 0)
    assert.matrix_near(by_table, ms.cross_val_score(Ridge{}, X, y, ms.KFold{ n_splits = 4 }), 0)
    assert.equal(4, ms.cross_validate(Ridge{}, X, y, 4).test_score:rows())
    assert.matrix_near(ms.cross_val_predict(Ridge{}, X, y, { cv = 4 }),
      ms.cross_val_predict(Ridge{}, X, y, 4), 0)
    local sizes = ms.learning_curve(Ridge{}, X, y, 4)
    assert.equal(5, sizes:rows())
  end)

  it("takes a test size where train_test_split's options go", function()
    -- 40 rows, test_size 0.2: 8 test rows, 32 training rows
    local Xtr, Xte, ytr, yte = ms.train_test_split(X, y, 0.2)
    assert.same({ 32, 8, 32, 8 }, { Xtr:rows(), Xte:rows(), ytr:rows(), yte:rows() })
    local A, B = ms.train_test_split(X, 0.25)
    assert.same({ 30, 10 }, { A:rows(), B:rows() })
    local C, D = ms.train_test_split(X, { test_size = 5 })
    assert.same({ 35, 5 }, { C:rows(), D:rows() })
  end)

  it("rejects other values at the user's call, naming the argument", function()
    support.errors_with("conventions_spec%.lua:%d+: bad argument #4 to 'cross_val_score' "
      .. "%(options table expected, got string%)", function()
        ms.cross_val_score(Ridge{}, X, y, "5")
      end)
    support.errors_with("bad argument #4 to 'cross_validate' %(options table expected, got "
      .. "luma%.Matrix%)", function() ms.cross_validate(Ridge{}, X, y, X) end)
    support.errors_with("bad argument #3 to 'train_test_split' %(options table expected, got "
      .. "boolean%)", function() ms.train_test_split(X, y, true) end)
  end)

  it("explains the dataset info table in the options slot", function()
    support.errors_with("bad argument #4 to 'cross_val_score' %(options table expected, got the "
      .. "info table of luma.datasets.load", function()
        ms.cross_val_score(luma.linear.LogisticRegression{}, luma.datasets.load("iris"))
      end)
  end)
end)

describe("results", function()
  it("cross_validate gives columns that print as a summary", function()
    local r = ms.cross_validate(Ridge{}, X, y, { cv = 4, return_train_score = true })
    for _, key in ipairs{ "test_score", "train_score", "fit_time", "score_time" } do
      assert.is_true(luma.ismatrix(r[key]) and r[key]:rows() == 4 and r[key]:cols() == 1)
    end
    local text = tostring(r)
    -- one line per column: its name, mean, standard deviation and folds
    local line = text:match("test_score[^\n]*")
    assert.truthy(line:find(string.format("mean %.4g", r.test_score:mean()), 1, true))
    assert.truthy(line:find(string.format("std %.4g", r.test_score:std()), 1, true))
    assert.truthy(text:find("\ntrain_score", 1, true))
  end)

  it("searches use scikit-learn's result keys and class names", function()
    assert.equal(ms.GridSearch, ms.GridSearchCV)
    assert.equal(ms.RandomSearch, ms.RandomizedSearchCV)
    local s = ms.GridSearchCV{ estimator = Ridge{}, param_grid = { alpha = { 0.1, 10, 1000 } },
      cv = 4 }:fit(X, y)
    local cv = s.cv_results
    -- the columns hold the rows' values, candidate by candidate
    for c = 1, 3 do
      local row = s.results[c]
      assert.equal(row.mean_test_score, cv.mean_test_score:get(c, 1))
      assert.equal(row.std_test_score, cv.std_test_score:get(c, 1))
      assert.equal(row.rank_test_score, cv.rank_test_score:get(c, 1))
      assert.equal(row.split1_test_score, cv.split1_test_score:get(c, 1))
      assert.equal(row.params, cv.params[c])
    end
    -- the mean is the mean of the split columns
    local mean = (cv.split1_test_score + cv.split2_test_score + cv.split3_test_score
      + cv.split4_test_score) / 4
    assert.matrix_near(mean, cv.mean_test_score, 1e-12)
    assert.equal(1, cv.rank_test_score:get(s.best_index, 1))
    -- one named scorer is still "score"; refit may name it
    local named = ms.GridSearch{ estimator = Ridge{}, param_grid = { alpha = { 0.1, 1000 } },
      cv = 4, scoring = "r2", refit = "r2" }:fit(X, y)
    assert.truthy(named.results[1].mean_test_score)
    assert.near(named:score(X, y), luma.metrics.r2_score(y, named:predict(X)), 1e-12)
  end)
end)

describe("n_jobs", function()
  it("-1 means one worker per core and gives the serial results", function()
    local serial = ms.cross_val_score(Ridge{}, X, y, { cv = 4 })
    assert.matrix_near(serial, ms.cross_val_score(Ridge{}, X, y, { cv = 4, n_jobs = -1 }), 0)
    support.errors_with("n_jobs must be a nonzero integer", function()
      luma.parallel.map(function(v) return v end, { 1 }, { n_jobs = 0 })
    end)
  end)

  it("runs serially in a sandboxed state, with one warning", function()
    -- a sandboxed state exists only through the C API: a small host
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    local host = assert(support.compile_host([[
#include <stdio.h>
#include "luma.h"
int main(int argc, char **argv) {
  luma_Options opts = {0};
  opts.sandbox = 1;
  lua_State *L = luma_newstate(&opts);
  int rc = luma_run_string(L, argv[1], "=sandboxed", 0);
  if (rc != LUA_OK) puts(lua_tostring(L, -1));
  luma_close(L);
  return rc;
}
]], dir))
    local out, err, code = support.run(support.quote(host) .. " " .. support.quote([[
      local r = luma.parallel.map(function(v) return 2 * v end, { 1, 2, 3 }, { n_jobs = 2 })
      local s = luma.parallel.map(function(v) return v end, { 4 }, { n_jobs = -1 })
      print(r[1] + r[2] + r[3] + s[1])]]))
    assert.equal(0, code)
    assert.equal("16\n", out)
    local _, warnings = err:gsub("n_jobs = 2 runs serially in a sandboxed state", "")
    assert.equal(1, warnings)
  end)
end)

describe("verbose and warnings", function()
  local Xc, yc = luma.datasets.load("iris")

  it("names the fold and candidate in a fit's warnings", function()
    local warnings = support.capture_warnings(function()
      ms.GridSearch{ estimator = luma.linear.LogisticRegression{ max_iter = 1 },
        param_grid = { C = { 0.5, 2 } }, cv = 3, verbose = 0 }:fit(Xc, yc)
    end)
    -- one iteration never converges: one warning per fit, 2 candidates x 3 folds,
    -- and one from the refit on all the rows, which is no fold's
    assert.equal(7, #warnings)
    assert.truthy(warnings[7]:find("^luma%.linear: LogisticRegression"))
    assert.truthy(warnings[1]:find("^%[fold 1/3, candidate 1/2 %(C=0%.5%)%] luma%.linear: "
      .. "LogisticRegression"))
    assert.truthy(warnings[6]:find("^%[fold 3/3, candidate 2/2 %(C=2%)%] "))
    local cv_warnings = support.capture_warnings(function()
      ms.cross_validate(luma.linear.LogisticRegression{ max_iter = 1 }, Xc, yc, 3)
    end)
    assert.truthy(cv_warnings[2]:find("^%[fold 2/3%] luma%.linear: "))
  end)

  it("prints one line per fit at verbose = 2", function()
    local lines, saved = {}, _G.print
    _G.print = function(line) lines[#lines + 1] = line end
    local ok, err = pcall(function()
      ms.cross_validate(Ridge{}, X, y, { cv = 3, verbose = 2 })
      ms.validation_curve(Ridge{}, X, y, { param_name = "alpha", param_range = { 1, 10 },
        cv = 2, verbose = 2 })
    end)
    _G.print = saved
    assert(ok, err)
    assert.equal(3 + 4, #lines)
    assert.truthy(lines[2]:find("^%[CV%] fold 2/3: score=%-?[%d.]+ %(fit [%d.e-]+ s%)$"))
    assert.truthy(lines[4]:find("^%[CV%] fold 1/2, alpha=1: score="))
    support.errors_with("cross_validate: verbose must be 0, 1 or 2, got 3", function()
      ms.cross_validate(Ridge{}, X, y, { verbose = 3 })
    end)
  end)
end)

describe("Tables", function()
  it("are split, cross-validated and searched by rows, columns matched by name", function()
    -- a categorical column among numeric ones: the pipeline encodes it
    local g = luma.random.Generator(9)
    local n = 60
    local x1, x2 = g:normal(n, 1), g:normal(n, 1)
    local cities, target = {}, {}
    for i = 1, n do
      cities[i] = ({ "Lyon", "Paris", "Nice" })[i % 3 + 1]
      target[i] = 2 * x1:get(i, 1) - x2:get(i, 1) + ({ Lyon = 0, Paris = 5, Nice = -3 })[cities[i]]
    end
    local T = luma.Table({ x1 = x1, x2 = x2, city = cities }, { columns = { "x1", "city", "x2" } })
    local yt = luma.matrix(target)
    local model = luma.pipeline.make_pipeline(luma.pipeline.ColumnTransformer{ transformers = {
      { "city", luma.preprocessing.OneHotEncoder{}, "city" } }, remainder = "passthrough" },
      luma.linear.LinearRegression{})
    -- the target is exactly linear in x1, x2 and the city's indicator: R^2 = 1 on every fold
    local scores = ms.cross_val_score(model, T, yt, 3)
    assert.matrix_near(luma.ones(3, 1), scores, 1e-10)
    local Ttr, Tte, ytr, yte = ms.train_test_split(T, yt, 0.25)
    assert.same({ 45, 15, 45, 15 }, { Ttr:nrows(), Tte:nrows(), ytr:rows(), yte:rows() })
    local s = ms.GridSearch{ estimator = model, param_grid = { linearregression__fit_intercept =
      { true, false } }, cv = 3 }:fit(T, yt)
    assert.same({ "x1", "city", "x2" }, s.feature_names_in)
    assert.same({ "x1", "city", "x2" }, s.best_estimator.feature_names_in)
    -- columns in another order are matched by name
    assert.matrix_near(yt, s:predict(T:select{ "x2", "x1", "city" }), 1e-9)
    assert.equal(n, ms.cross_val_predict(luma.linear.Ridge{}, T:select{ "x1", "x2" }, yt, 3):rows())
  end)
end)
