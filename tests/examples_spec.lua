-- The example scripts run under the luma binary and print what their docs
-- say they print.
local support = require("support")

describe("examples", function()
  it("tunes a user-written estimator in a pipeline (docs/ESTIMATORS.md)", function()
    local out, err, code = support.luma_run({ "scripts/examples/custom_estimator.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("rank_test_score  mean_test_score", 1, true))
    local acc = tonumber(out:match("cross%-validated accuracy ([%d.]+)"))
    assert.is_true(acc > 0.85) -- two blobs 2.8 standard deviations apart
    assert.truthy(out:find("[[10  20]]", 1, true))
  end)
  it("reproduces notes 004 Example 9.5: test RMSE lowest at degree 4 (polynomial_overfitting.lua)", function()
    local out, err, code = support.luma_run({ "scripts/examples/polynomial_overfitting.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    local train, test = {}, {}
    for m, tr, te in out:gmatch("\n%s*(%d+)%s+([%d.]+)%s+([%d.]+)") do
      train[tonumber(m)], test[tonumber(m)] = tonumber(tr), tonumber(te)
    end
    assert.equal(10, #train + 1) -- degrees 0..9
    for m = 1, 9 do assert.is_true(train[m] <= train[m - 1] + 1e-4) end -- never increases
    assert.is_true(train[9] < 1e-3) -- M = N - 1 interpolates
    local best = 0
    for m = 1, 9 do if test[m] < test[best] then best = m end end
    assert.equal(4, best)
    assert.is_true(test[5] < 2 * test[4]) -- still low at 5 ...
    assert.is_true(test[9] > 100 * test[4]) -- ... and very bad at 9
    assert.truthy(out:find("lowest test RMSE at M = 4", 1, true))
  end)

  it("reproduces notes 004 Example 9.6: MAP fits are smoother than ML (map_vs_ml.lua)", function()
    local out, err, code = support.luma_run({ "scripts/examples/map_vs_ml.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    local rows = {}
    for m, fit, norm, train, test, var in out:gmatch("\n%s*(%d+)%s+(%a+)%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)") do
      rows[m .. fit] = { norm = tonumber(norm), train = tonumber(train), test = tonumber(test), var = tonumber(var) }
    end
    for _, m in ipairs{ "6", "8" } do
      local ml, map = rows[m .. "ML"], rows[m .. "MAP"]
      assert.is_true(map.norm < ml.norm)
      assert.is_true(map.var < ml.var)
      assert.is_true(map.test < ml.test)
      assert.is_true(map.train >= ml.train) -- ML minimises the training error
    end
    assert.is_true(rows["8MAP"].test < rows["8ML"].test / 10)
  end)

  it("draws the sequence examples' figures when given an output folder", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    for _, case in ipairs{ { "hmm_regimes", { dir } }, { "kalman_tracking", { "7", dir } },
                           { "arima_forecast", { "3", dir } } } do
      local args = { "scripts/examples/" .. case[1] .. ".lua" }
      for _, a in ipairs(case[2]) do args[#args + 1] = a end
      local out, err, code = support.luma_run(args)
      assert.equal(0, code, err)
      local path = dir .. "/" .. case[1] .. ".svg"
      assert.truthy(out:find("wrote " .. path, 1, true))
      local f = assert(io.open(path, "rb"))
      local svg = f:read("a")
      f:close()
      os.remove(path)
      -- a figure with its title and at least two drawn series
      assert.truthy(svg:find("^<svg") or svg:find("<svg", 1, true))
      local _, lines = svg:gsub("<polyline", "")
      local _, paths = svg:gsub("<path", "")
      assert.is_true(lines + paths >= 2)
    end
    os.remove(dir)
  end)
end)
