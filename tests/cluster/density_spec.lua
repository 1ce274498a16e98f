-- luma.cluster: DBSCAN, MeanShift, estimate_bandwidth (lua/luma/cluster/density.lua).
--
-- SKLEARN: hierarchical_reference.lua holds scikit-learn 1.2.1's DBSCAN on
-- R.moons(150, 7) and MeanShift / estimate_bandwidth on R.blobs(120, 3)
-- (data both languages compute exactly; the script is in that file's
-- header).  scikit-learn's labels plus 1, noise -1 -> 0.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local R = require("cluster.hierarchical_reference")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local C = luma.cluster

local moons = R.moons(150, 7)
local blobs = R.blobs(120, 3)

describe("luma.cluster.DBSCAN", function()
  it("labels two moons as scikit-learn (eps 0.2 and 0.12), noise 0", function()
    for _, case in ipairs{ { 0.2, 5, R.dbscan_20 }, { 0.12, 6, R.dbscan_12 } } do
      local est = C.DBSCAN{ eps = case[1], min_samples = case[2] }
      assert.matrix_near(luma.matrix(case[3].labels), est:fit_predict(moons), 0)
      assert.matrix_near(luma.matrix(case[3].core), est.core_sample_indices, 0)
      assert.matrix_near(moons:take(est.core_sample_indices), est.components, 0)
    end
  end)

  it("keeps core neighbours together and noise away from core points", function()
    local est = C.DBSCAN{ eps = 0.12, min_samples = 6 }:fit(moons)
    local D = luma.pairwise.distances(moons, "euclidean")
    local core = {}
    for i = 1, est.core_sample_indices:rows() do core[est.core_sample_indices:get(i, 1)] = true end
    local noise = 0
    for i = 1, 150 do
      for j = 1, 150 do
        if D:get(i, j) <= 0.12 and core[j] then
          if core[i] then assert.equal(est.labels:get(j, 1), est.labels:get(i, 1)) end
          assert.are_not.equal(0, est.labels:get(i, 1)) -- within eps of a core point
        end
      end
      if est.labels:get(i, 1) == 0 then noise = noise + 1 end
    end
    assert.is_true(noise > 0)
  end)

  it("counts sample weights toward core points as scikit-learn", function()
    local w = luma.zeros(150, 1)
    for i = 1, 150 do w:set(i, 1, 1 + (i - 1) % 3) end
    local est = C.DBSCAN{ eps = 0.12, min_samples = 6 }:fit(moons, nil, w)
    assert.matrix_near(luma.matrix(R.dbscan_weighted.labels), est.labels, 0)
    assert.matrix_near(luma.matrix(R.dbscan_weighted.core), est.core_sample_indices, 0)
  end)

  it("uses other metrics and precomputed distances", function()
    local est = C.DBSCAN{ eps = 0.3, min_samples = 5, metric = "manhattan" }:fit(moons)
    assert.matrix_near(luma.matrix(R.dbscan_manhattan.labels), est.labels, 0)
    local D = luma.pairwise.distances(moons, "euclidean")
    local pre = C.DBSCAN{ eps = 0.2, min_samples = 5, metric = "precomputed" }:fit(D)
    assert.matrix_near(luma.matrix(R.dbscan_20.labels), pre.labels, 0)
  end)

  it("reads a non-contiguous view as its copy", function()
    local view = luma.hstack{ moons, moons }:sub(nil, nil, 2, 3)
    local a = C.DBSCAN{ eps = 0.12, min_samples = 6 }:fit(view)
    local b = C.DBSCAN{ eps = 0.12, min_samples = 6 }:fit(view:copy())
    assert.matrix_near(b.labels, a.labels, 0)
    local m = C.MeanShift{ bandwidth = R.bandwidth }:fit(luma.hstack{ blobs, blobs }:sub(nil, nil, 2, 3))
    assert.matrix_near(C.MeanShift{ bandwidth = R.bandwidth }:fit(luma.hstack{ blobs, blobs }
      :sub(nil, nil, 2, 3):copy()).labels, m.labels, 0)
  end)

  it("makes every point noise when min_samples exceeds n", function()
    local est = C.DBSCAN{ eps = 10, min_samples = 151 }:fit(moons)
    assert.equal(0, est.labels:max())
    assert.equal(0, est.core_sample_indices:rows())
  end)

  it("rejects eps <= 0", function()
    errors_with("parameter 'eps' must be a number > 0", function() C.DBSCAN{ eps = 0 } end)
  end)

  it("rejects NaN in X", function()
    local bad = moons:copy()
    bad:set(3, 1, 0 / 0)
    errors_with("DBSCAN: X has a non%-finite element, nan at row 3, column 1",
      function() C.DBSCAN{}:fit(bad) end)
  end)

  it("rejects a non-square precomputed matrix", function()
    errors_with("must be square, got 3 x 2", function()
      C.DBSCAN{ metric = "precomputed" }:fit(luma.zeros(3, 2))
    end)
  end)
end)

describe("luma.cluster.estimate_bandwidth", function()
  it("is scikit-learn's estimate", function()
    assert.near(R.bandwidth, C.estimate_bandwidth(blobs), 1e-12)
    assert.near(R.bandwidth_q01, C.estimate_bandwidth(blobs, { quantile = 0.1 }), 1e-12)
  end)

  it("is the mean distance to the k-th neighbour, the point itself first", function()
    -- 1-D points 0, 1, 3: k = floor(3 * 0.67) = 2, the nearest other point
    -- of each: 1, 1, 2
    assert.near(4 / 3, C.estimate_bandwidth(luma.matrix{ 0, 1, 3 }, { quantile = 0.67 }), 1e-15)
  end)
end)

describe("luma.cluster.MeanShift", function()
  it("finds the three blobs as scikit-learn", function()
    local est = C.MeanShift{ bandwidth = R.bandwidth }:fit(blobs)
    assert.matrix_near(luma.matrix(R.meanshift.labels), est.labels, 0)
    assert.matrix_near(luma.matrix(R.meanshift.centers), est.cluster_centers, 1e-10)
    assert.matrix_near(est.labels, est:predict(blobs), 0)
  end)

  it("estimates the bandwidth when none is given", function()
    local est = C.MeanShift{}:fit(blobs)
    assert.near(R.bandwidth, est.bandwidth, 1e-12)
    assert.matrix_near(luma.matrix(R.meanshift.labels), est.labels, 0)
  end)

  it("seeds from bins as scikit-learn", function()
    local est = C.MeanShift{ bandwidth = R.bandwidth, bin_seeding = true }:fit(blobs)
    assert.matrix_near(luma.matrix(R.meanshift_bins.labels), est.labels, 0)
    assert.matrix_near(luma.matrix(R.meanshift_bins.centers), est.cluster_centers, 1e-10)
  end)

  it("leaves far points unlabelled (0) without cluster_all", function()
    local est = C.MeanShift{ bandwidth = 0.8, cluster_all = false }:fit(blobs)
    assert.matrix_near(luma.matrix(R.meanshift_orphans.labels), est.labels, 0)
    assert.matrix_near(luma.matrix(R.meanshift_orphans.centers), est.cluster_centers, 1e-10)
  end)

  it("warns when binning gives every point its own seed", function()
    local P = luma.matrix{ 0, 10, 20 }
    local warnings = capture_warnings(function()
      C.MeanShift{ bandwidth = 1, bin_seeding = true }:fit(P)
    end)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:match("binning data failed"))
  end)

  it("rejects bandwidth <= 0", function()
    errors_with("parameter 'bandwidth' must be a number > 0", function()
      C.MeanShift{ bandwidth = -1 }
    end)
  end)

  it("rejects NaN in X", function()
    local bad = blobs:copy()
    bad:set(5, 2, 0 / 0)
    errors_with("MeanShift: X has a non%-finite element, nan at row 5, column 2",
      function() C.MeanShift{ bandwidth = 1 }:fit(bad) end)
  end)

  it("rejects seeds far from every point", function()
    errors_with("no point was within bandwidth", function()
      C.MeanShift{ bandwidth = 0.5, seeds = luma.matrix{ { 100, 100 } } }:fit(blobs)
    end)
  end)
end)
