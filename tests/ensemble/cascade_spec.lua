-- luma.ensemble.CascadeClassifier (notes 002 §1.9 E8): every stage meets
-- its targets on the rows it was trained on, later stages see only the
-- negatives earlier ones let through, and a row is positive only if all
-- stages accept it; the example script runs.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local E = luma.ensemble

local function fails(pattern, f)
  local ok, err = pcall(f)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

local function data(seed, n_pos, n_neg)
  local g = luma.random.Generator(seed)
  local X = luma.vstack{ g:normal(n_pos, 4) * 0.5 + 1.5, g:normal(n_neg, 4) }
  local y = luma.vstack{ luma.full(n_pos, 1, 5), luma.full(n_neg, 1, -5) } -- any labels
  return X, y
end

describe("CascadeClassifier", function()
  local X, y = data(3, 100, 5000)
  local m = E.CascadeClassifier{ detection_rate = 0.98, false_positive_rate = 0.4,
    target_false_positive_rate = 0.01, max_rounds = 30, seed = 2 }:fit(X, y)

  it("trains each stage on the negatives the earlier stages let through", function()
    assert.equal(5, m.positive_label)
    local positives = y:eq(5)
    local passed = m:stages_passed(X)
    local fp, det = 1, 1
    for s, r in ipairs(m.stage_rates) do
      -- negatives reaching stage s: those accepted by stages 1..s-1
      assert.equal(passed:ge(s - 1):mul(1 - positives):sum(), r.negatives)
      assert.is_true(r.detection_rate >= 0.98)
      assert.is_true(r.false_positive_rate <= 0.4 or r.rounds == 30)
      fp, det = fp * r.false_positive_rate, det * r.detection_rate
      assert.near(fp, r.overall_false_positive_rate, 1e-15)
      assert.near(det, r.overall_detection_rate, 1e-15)
    end
    -- the last stage's running false-positive rate is what the cascade passes
    local last = m.stage_rates[#m.stage_rates]
    assert.near(passed:eq(#m.stages):mul(1 - positives):sum() / (1 - positives):sum(),
      last.overall_false_positive_rate, 1e-12)
    assert.is_true(last.overall_false_positive_rate <= 0.01 or #m.stages == 10)
  end)

  it("says positive only when every stage does", function()
    local pred = m:predict(X)
    assert.matrix_near(m:stages_passed(X):eq(#m.stages) * 10 - 5, pred, 0)
    local Xt, yt = data(4, 200, 5000)
    local p = m:predict(Xt)
    assert.is_true(p:eq(5):mul(yt:eq(5)):sum() / 200 > 0.85)
    assert.is_true(p:eq(5):mul(yt:eq(-5)):sum() / 5000 < 0.03)
  end)

  it("runs the example with its stage-by-stage rates", function()
    local out, err, code = support.luma_run({ "scripts/examples/cascade.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("stage  rounds  negatives", 1, true))
    local fp = tonumber(out:match("false%-positive rate ([%d.]+)"))
    assert.is_true(fp < 0.01)
  end)

  it("refuses what is not a two-class problem", function()
    local iris_X, iris_y = luma.datasets.load("iris")
    fails("is for two classes, y has 3", function() E.CascadeClassifier{}:fit(iris_X, iris_y) end)
    fails("positive_label 7 is not a class", function()
      E.CascadeClassifier{ positive_label = 7 }:fit(X, y)
    end)
  end)
end)
