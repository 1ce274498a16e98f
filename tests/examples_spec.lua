-- The example scripts run under the luma binary and print what their docs
-- say they print.
-- SPDX-License-Identifier: MIT
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
  -- The neural-network examples (docs/NN.md, "Worked examples").  The
  -- figures go to a fresh folder; a PNG file starts with its 8-byte
  -- signature (PNG specification, 2nd ed., 5.2).
  local function fresh_dir()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    return dir
  end
  local function assert_png(out, path)
    assert.truthy(out:find("wrote " .. path, 1, true))
    local f = assert(io.open(path, "rb"))
    local head = f:read(8)
    local size = f:seek("end")
    f:close()
    assert.equal("\137PNG\r\n\26\n", head)
    assert.is_true(size > 10000) -- a drawn figure (50 and 130 kB), not a blank canvas
    os.remove(path)
  end

  it("classifies the digits with an MLP and draws its loss curve (nn_digits.lua)", function()
    local dir = fresh_dir()
    local out, err, code = support.luma_run({ "scripts/examples/nn_digits.lua", dir })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("1347 training and 450 test images", 1, true))
    local n_iter, first, last = out:match("n_iter (%d+), loss ([%d.]+) after the first epoch, ([%d.]+)")
    -- the default max_iter (200) runs out while the loss still falls by more than tol
    assert.equal(200, tonumber(n_iter))
    assert.is_true(tonumber(last) < tonumber(first) / 50) -- 2.25 -> 0.017 measured
    local acc = tonumber(out:match("test accuracy ([%d.]+)"))
    assert.is_true(acc >= 0.97, "accuracy " .. acc) -- 0.987 measured, as tests/nn/mlp_spec.lua
    assert_png(out, dir .. "/nn_digits.png")
    os.remove(dir)
  end)

  it("codes the digits in 2-D better than PCA with an autoencoder (nn_autoencoder_plot.lua)", function()
    local dir = fresh_dir()
    local out, err, code = support.luma_run({ "scripts/examples/nn_autoencoder_plot.lua", dir })
    assert.equal("", err)
    assert.equal(0, code)
    local ae, pca = out:match("test reconstruction MSE: autoencoder ([%d.]+), PCA ([%d.]+)")
    ae, pca = tonumber(ae), tonumber(pca)
    -- PCA is deterministic; two components leave about 0.052 per pixel
    assert.near(0.0520, pca, 0.0005)
    -- the nonlinear code reconstructs held-out digits with at most 3/4 of
    -- PCA's error (0.56 measured; 0.56 to 0.61 over seeds 1 to 4)
    assert.is_true(ae < 0.75 * pca, ae .. " vs PCA's " .. pca)
    local knn_ae, knn_pca = out:match("from the 2%-D code: autoencoder ([%d.]+), PCA ([%d.]+)")
    -- 0.911 against 0.649 measured (0.85 to 0.91 over seeds 1 to 4)
    assert.is_true(tonumber(knn_ae) > tonumber(knn_pca) + 0.1)
    assert_png(out, dir .. "/nn_autoencoder.png")
    os.remove(dir)
  end)

  it("retrieves noisy digits by 1-NN in a triplet embedding (nn_triplet_retrieval.lua)", function()
    local out, err, code = support.luma_run({ "scripts/examples/nn_triplet_retrieval.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    local clean = tonumber(out:match("clean pixels %(64 columns%):%s+([%d.]+)"))
    local noisy = tonumber(out:match("noisy rows %(128 columns%):%s+([%d.]+)"))
    local embedded = tonumber(out:match("triplet embedding %(16%-D%):%s+([%d.]+)"))
    assert.is_true(clean > 0.97)  -- 0.989 measured
    assert.is_true(noisy < 0.4)   -- 0.220 measured: the noise decides the neighbours
    assert.is_true(embedded > 0.9) -- 0.956 measured (0.951 to 0.956 over seeds 1 to 3)
    assert.is_true(embedded > noisy + 0.5)
    local epochs = tonumber(out:match("embedding: (%d+) epochs"))
    assert.is_true(epochs > 30 and epochs <= 200)
  end)

  it("trains a module written in Lua by a hand-written loop and checks its gradient (nn_custom_module.lua)", function()
    local out, err, code = support.luma_run({ "scripts/examples/nn_custom_module.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    local losses = {}
    for epoch, loss in out:gmatch("epoch%s+(%d+)%s+loss ([%d.]+)") do
      losses[tonumber(epoch)] = tonumber(loss)
    end
    assert.is_true(losses[10] > 0.5)   -- 0.663 measured: near log 2 at first ...
    assert.is_true(losses[100] < 0.05) -- ... 0.006 at the end
    local acc = tonumber(out:match("test accuracy ([%d.]+)"))
    assert.is_true(acc > 0.9, "accuracy " .. acc) -- 0.955 measured (0.99 for other seeds)
    -- the user-written module prints with its extra_repr; its alpha left 0
    local alphas = {}
    for a in out:gmatch("Residual%(alpha=([%-%d.]+)") do alphas[#alphas + 1] = tonumber(a) end
    assert.equal(2, #alphas)
    assert.is_true(math.abs(alphas[1]) > 0.1 and math.abs(alphas[2]) > 0.1)
    local n, max_err, verdict = out:match("gradcheck of the block %((%d+) parameters%): max error (%S+), (%a+)")
    assert.equal(5, tonumber(n)) -- inner and outer weight and bias, alpha
    assert.is_true(tonumber(max_err) < 1e-6) -- 1.2e-08 measured
    assert.equal("ok", verdict)
  end)
  it("denoises a binary image with ICM, loopy BP and a graph cut (pgm_denoise.lua)", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    local out, err, code = support.luma_run({ "scripts/examples/pgm_denoise.lua", dir })
    assert.equal("", err)
    assert.equal(0, code)
    local noisy = tonumber(out:match("noisy image: %d+ of 4096 pixels flipped, pixel error ([%d.]+)"))
    assert.is_true(noisy > 0.08 and noisy < 0.12) -- 10% flipped: 0.1035 measured
    local rows = {}
    for name, energy, perr in out:gmatch("\n(%a[%a ]-)%s+(%-[%d.]+)%s+([%d.]+)") do
      rows[name] = { energy = tonumber(energy), error = tonumber(perr) }
    end
    local icm, bp, cut = rows["ICM"], rows["loopy BP"], rows["graph cut"]
    assert.truthy(icm and bp and cut, out)
    -- the cut is the exact MAP: no energy below it
    assert.is_true(cut.energy <= icm.energy and cut.energy <= bp.energy)
    assert.is_true(icm.energy > cut.energy + 10) -- ICM stops in a local minimum (-14258 vs -14382)
    for _, r in ipairs{ icm, bp, cut } do assert.is_true(r.error < noisy / 2) end
    assert.is_true(cut.error < 0.03) -- 0.0215 measured
    local path = dir .. "/pgm_denoise.svg"
    assert.truthy(out:find("wrote " .. path, 1, true))
    local f = assert(io.open(path, "rb"))
    local svg = f:read("a")
    f:close()
    os.remove(path)
    os.remove(dir)
    assert.truthy(svg:find("<svg", 1, true))
    assert.truthy(svg:find("graph cut", 1, true))
  end)
end)
